/* ZooKeeper side of the client: see hb_zk.h. */
#define _GNU_SOURCE
#include "client/hb_zk.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
/* the synchronous API of libzookeeper_mt */
#define THREADED 1
#include <zookeeper/zookeeper.h>

#include "client/hb_wire.h"
#include "hbase-rpc.pb-c.h"
#include "util/alloc.h"
#include "util/buf.h"

struct hb_zk {
  zhandle_t *zh;
  char hosts[2048];
  char parent[512];
  char *dump_dir;
};

static void watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx) {
  (void)zh, (void)type, (void)state, (void)path, (void)ctx;
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

/* "a,b:2182" -> "a:2181,b:2182" */
static int normalize_hosts(const char *quorum, unsigned port, char *out, size_t cap) {
  size_t n = 0;
  const char *p = quorum;
  while (*p) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    while (len && (p[0] == ' ')) p++, len--;
    while (len && p[len - 1] == ' ') len--;
    if (len) {
      const char *colon = memchr(p, ':', len);
      int w = colon ? snprintf(out + n, cap - n, "%s%.*s", n ? "," : "", (int)len, p)
                    : snprintf(out + n, cap - n, "%s%.*s:%u", n ? "," : "", (int)len, p, port);
      if (w < 0 || (size_t)w >= cap - n) return -1;
      n += (size_t)w;
    }
    if (!e) break;
    p = e + 1;
  }
  return n ? 0 : -1;
}

int hb_zk_open(const char *quorum, unsigned client_port, const char *parent, int timeout_ms,
               const char *dump_dir, hb_zk **out, hfg_err *err) {
  *out = NULL;
  hb_zk *z = hfg_calloc(1, sizeof *z);
  if (!z) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if (!quorum || normalize_hosts(quorum, client_port ? client_port : 2181, z->hosts,
                                 sizeof z->hosts)) {
    hfg_free(z);
    return hfg_err_set(err, HFG_EINVAL, "ZooKeeper quorum '%s': expected host[:port][,...]",
                       quorum ? quorum : "");
  }
  snprintf(z->parent, sizeof z->parent, "%s", parent && *parent ? parent : "/hbase");
  size_t pl = strlen(z->parent);
  while (pl > 1 && z->parent[pl - 1] == '/') z->parent[--pl] = '\0';
  if (dump_dir && !(z->dump_dir = hfg_strdup(dump_dir))) {
    hfg_free(z);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  /* the library never prints: level 0 turns the C client's logging off */
  zoo_set_debug_level((ZooLogLevel)0);
  errno = 0;
  z->zh = zookeeper_init(z->hosts, watcher, timeout_ms > 0 ? timeout_ms : 10000, NULL, NULL, 0);
  if (!z->zh) {
    int e = errno;
    hb_zk_close(z);
    return hfg_err_set(err, HFG_EIO,
                       "ZooKeeper quorum %s: cannot start a session (%s: no host of the quorum "
                       "resolves, or the host list is malformed)",
                       quorum, e ? strerror(e) : "no detail");
  }
  long waited = 0, limit = timeout_ms > 0 ? timeout_ms : 10000;
  while (zoo_state(z->zh) != ZOO_CONNECTED_STATE) {
    int st = zoo_state(z->zh);
    if (st == ZOO_AUTH_FAILED_STATE) {
      hb_zk_close(z);
      return hfg_err_set(err, HFG_EUNSUPPORTED,
                         "ZooKeeper quorum %s: authentication failed (a SASL-secured "
                         "ZooKeeper is not supported)",
                         quorum);
    }
    if (waited >= limit) {
      hfg_err_set(err, HFG_EIO,
                  "ZooKeeper quorum %s unreachable: no session within %ld ms (check "
                  "--zookeeper / hbase.zookeeper.quorum and the client port)",
                  z->hosts, limit);
      hb_zk_close(z);
      return HFG_EIO;
    }
    sleep_ms(20);
    waited += 20;
  }
  *out = z;
  return 0;
}

static void dump(hb_zk *z, const char *name, const char *data, int len) {
  if (!z->dump_dir) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/zk-%s.bin", z->dump_dir, name);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(data, 1, (size_t)len, f);
  fclose(f);
}

/* Reads <parent>/<node> into buf; *len in/out. */
static int get_node(hb_zk *z, const char *node, char *buf, int *len, hfg_err *err) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", z->parent, node);
  struct Stat st;
  int r = zoo_get(z->zh, path, 0, buf, len, &st);
  if (r == ZOK) {
    if (*len < 0) *len = 0;
    dump(z, node, buf, *len);
    return 0;
  }
  if (r == ZNONODE) {
    struct Stat ps;
    if (zoo_exists(z->zh, z->parent, 0, &ps) == ZNONODE)
      return hfg_err_set(err, HFG_EIO,
                         "ZooKeeper %s: no znode %s: no HBase uses this parent znode (check "
                         "--znode-parent / zookeeper.znode.parent)",
                         z->hosts, z->parent);
    return hfg_err_set(err, HFG_EIO, "ZooKeeper %s: znode %s does not exist%s", z->hosts, path,
                       !strcmp(node, "master")
                           ? " (no active master: is the HBase master running?)"
                           : " (hbase:meta is not assigned yet: is HBase starting?)");
  }
  if (r == ZNOAUTH)
    return hfg_err_set(err, HFG_EUNSUPPORTED,
                       "ZooKeeper %s: reading %s is not allowed (a secured ZooKeeper is not "
                       "supported)",
                       z->hosts, path);
  return hfg_err_set(err, HFG_EIO, "ZooKeeper %s: reading %s: %s", z->hosts, path, zerror(r));
}

static int server_of(const Hfg__Hbrpc__ServerName *s, hb_server *out, const char *what,
                     hfg_err *err) {
  if (!s || !s->host_name || !*s->host_name || !s->has_port || !s->port || s->port > 65535)
    return hfg_err_set(err, HFG_ECORRUPT, "%s: no host and port in the znode", what);
  snprintf(out->host, sizeof out->host, "%s", s->host_name);
  out->port = s->port;
  return 0;
}

int hb_decode_server_znode(const uint8_t *data, size_t len, int master, hb_server *out,
                           hfg_err *err) {
  const uint8_t *pb;
  size_t n;
  const char *what = master ? "master" : "meta-region-server";
  int rc = hb_znode_payload(data, len, &pb, &n, err);
  if (rc) {
    hfg_err_prefix(err, "znode %s", what);
    return rc;
  }
  if (master) {
    Hfg__Hbrpc__Master *m = hfg__hbrpc__master__unpack(hb_pb_allocator(), n, pb);
    if (!m) return hfg_err_set(err, HFG_ECORRUPT, "znode master: malformed protobuf");
    rc = server_of(m->master, out, what, err);
    hfg__hbrpc__master__free_unpacked(m, hb_pb_allocator());
  } else {
    Hfg__Hbrpc__MetaRegionServer *m =
        hfg__hbrpc__meta_region_server__unpack(hb_pb_allocator(), n, pb);
    if (!m) return hfg_err_set(err, HFG_ECORRUPT, "znode meta-region-server: malformed protobuf");
    rc = server_of(m->server, out, what, err);
    hfg__hbrpc__meta_region_server__free_unpacked(m, hb_pb_allocator());
  }
  return rc;
}

static int server_znode(hb_zk *z, int master, hb_server *out, hfg_err *err) {
  char buf[65536];
  int len = (int)sizeof buf;
  int rc = get_node(z, master ? "master" : "meta-region-server", buf, &len, err);
  if (rc) return rc;
  if ((rc = hb_decode_server_znode((const uint8_t *)buf, (size_t)len, master, out, err)))
    hfg_err_prefix(err, "ZooKeeper %s under %s", z->hosts, z->parent);
  return rc;
}

int hb_zk_meta_server(hb_zk *z, hb_server *out, hfg_err *err) { return server_znode(z, 0, out, err); }

int hb_zk_master(hb_zk *z, hb_server *out, hfg_err *err) { return server_znode(z, 1, out, err); }

void hb_zk_close(hb_zk *z) {
  if (!z) return;
  if (z->zh) zookeeper_close(z->zh);
  hfg_free(z->dump_dir);
  hfg_free(z);
}

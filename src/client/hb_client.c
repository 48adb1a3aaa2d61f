/*
 * The public face of the client (include/hfilegen/hbase.h): ZooKeeper for the
 * servers, a meta scan for the regions, the master for the schema, with
 * bounded retries. What is retried: network failures and timeouts, a region
 * server that no longer (or not yet) serves hbase:meta, a master that is
 * initializing, regions that do not tile (a split or merge in progress). What
 * is not: a missing or disabled table, an unsupported security setup, a
 * malformed answer.
 */
#define _GNU_SOURCE
#include "hfilegen/hbase.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "client/hb_conn.h"
#include "client/hb_table.h"
#include "client/hb_zk.h"
#include "hbase-rpc.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

struct hfg_hbase {
  hfg_hbase_options o;
  char *quorum, *parent, *user, *dump_dir;
  hb_zk *zk;
  hfg_err err;
};

/* The region name of the first (and, in HBase 2, only) meta region:
 * RegionInfoBuilder.FIRST_META_REGIONINFO, "hbase:meta,,1". */
static const char META_REGION[] = "hbase:meta,,1";

hfg_hbase *hfg_hbase_new(const hfg_hbase_options *o) {
  if (!o || o->version != HFG_HBASE_OPTIONS_VERSION) return NULL;
  hfg_hbase *c = hfg_calloc(1, sizeof *c);
  if (!c) return NULL;
  c->o = *o;
  c->quorum = hfg_strdup(o->quorum ? o->quorum : "");
  c->parent = hfg_strdup(o->znode_parent && *o->znode_parent ? o->znode_parent : "/hbase");
  c->user = hfg_strdup(o->user && *o->user ? o->user : "hfilegen");
  c->dump_dir = o->dump_dir ? hfg_strdup(o->dump_dir) : NULL;
  if (!c->quorum || !c->parent || !c->user || (o->dump_dir && !c->dump_dir)) {
    hfg_hbase_free(c);
    return NULL;
  }
  if (c->o.timeout_ms <= 0) c->o.timeout_ms = 10000;
  if (c->o.attempts <= 0) c->o.attempts = 4;
  if (!c->o.client_port) c->o.client_port = 2181;
  return c;
}

const char *hfg_hbase_errmsg(const hfg_hbase *c) { return c ? c->err.msg : "out of memory"; }

void hfg_hbase_free(hfg_hbase *c) {
  if (!c) return;
  hb_zk_close(c->zk);
  hfg_free(c->quorum);
  hfg_free(c->parent);
  hfg_free(c->user);
  hfg_free(c->dump_dir);
  hfg_free(c);
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) && errno == EINTR) {
  }
}

static int zk(hfg_hbase *c, hfg_err *err) {
  if (c->zk) return 0;
  return hb_zk_open(c->quorum, c->o.client_port, c->parent, c->o.timeout_ms, c->dump_dir, &c->zk,
                    err);
}

/* Remote exceptions worth another attempt (the region or server is moving, starting
 * or busy); everything else HBase throws here is final. */
static int retriable_exception(const hb_response *r) {
  static const char *const names[] = {
      "NotServingRegionException", "RegionMovedException",   "RegionOpeningException",
      "ServerNotRunningYetException", "RegionTooBusyException", "UnknownScannerException",
      "CallQueueTooBigException", "PleaseHoldException",      "RegionServerStoppedException",
      "ConnectionClosingException", "OutOfOrderScannerNextException", "ScannerResetException",
      "MasterNotRunningException"};
  if (r->do_not_retry && !strstr(r->exception_class, "NotServingRegion")) return 0;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strstr(r->exception_class, names[i])) return 1;
  return 0;
}

static const char *short_class(const char *cls) {
  const char *dot = strrchr(cls, '.');
  return dot ? dot + 1 : cls;
}

/* One attempt at scanning the table's rows of hbase:meta. */
static int scan_meta(hfg_hbase *c, const char *row, hfg_hbase_table *t, int *retry,
                     hfg_err *err) {
  hb_server srv;
  int rc = hb_zk_meta_server(c->zk, &srv, err);
  if (rc) {
    *retry = rc == HFG_EIO;
    return rc;
  }
  snprintf(t->meta_server, sizeof t->meta_server, "%s:%u", srv.host, srv.port);
  hb_conn *conn = NULL;
  if ((rc = hb_conn_open(srv.host, srv.port, "ClientService", c->user, c->o.timeout_ms,
                         c->dump_dir, &conn, err))) {
    hfg_err_prefix(err, "hbase:meta (region server from ZooKeeper)");
    *retry = rc == HFG_EIO;
    return rc;
  }
  hb_meta_acc acc;
  hb_meta_init(&acc, t, row);
  char stop[sizeof acc.row + 1];
  snprintf(stop, sizeof stop, "%s-", row);

  Hfg__Hbrpc__RegionSpecifier region = HFG__HBRPC__REGION_SPECIFIER__INIT;
  region.type = HFG__HBRPC__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
  region.value.data = (uint8_t *)META_REGION;
  region.value.len = sizeof META_REGION - 1;
  Hfg__Hbrpc__Column cols[2] = {HFG__HBRPC__COLUMN__INIT, HFG__HBRPC__COLUMN__INIT};
  Hfg__Hbrpc__Column *colp[2] = {&cols[0], &cols[1]};
  cols[0].family.data = (uint8_t *)"info";
  cols[0].family.len = 4;
  cols[1].family.data = (uint8_t *)"table";
  cols[1].family.len = 5;
  Hfg__Hbrpc__Scan scan = HFG__HBRPC__SCAN__INIT;
  scan.n_column = 2;
  scan.column = colp;
  scan.has_start_row = scan.has_stop_row = 1;
  scan.start_row.data = (uint8_t *)row;
  scan.start_row.len = strlen(row);
  scan.stop_row.data = (uint8_t *)stop;
  scan.stop_row.len = strlen(stop);
  scan.has_caching = 1;
  scan.caching = 1000;

  Hfg__Hbrpc__ScanRequest req = HFG__HBRPC__SCAN_REQUEST__INIT;
  req.region = &region;
  req.scan = &scan;
  req.has_number_of_rows = 1;
  req.number_of_rows = 1000;
  uint64_t scanner = 0, seq = 0;
  int has_scanner = 0, more = 1;
  for (int round = 0; more && !rc; round++) {
    if (round > 100000) {
      rc = hfg_err_set(err, HFG_ECORRUPT, "hbase:meta scan does not end");
      break;
    }
    hb_response resp;
    if ((rc = hb_conn_call(conn, "Scan", &req.base, &resp, err))) {
      *retry = rc == HFG_EIO;
      hfg_err_prefix(err, "scanning hbase:meta");
      break;
    }
    if (resp.has_exception) {
      *retry = retriable_exception(&resp);
      rc = hfg_err_set(err, HFG_EIO, "hbase:meta on %s: %s: %s", t->meta_server,
                       short_class(resp.exception_class), resp.exception_msg);
      if (!*retry) rc = HFG_EIO;
      break;
    }
    more = 0;
    if ((rc = hb_meta_add_response(&acc, resp.body, resp.body_len, &more, &scanner,
                                   &has_scanner, err)))
      break;
    if (more && !has_scanner) {
      rc = hfg_err_set(err, HFG_ECORRUPT, "hbase:meta scan: more rows but no scanner id");
      break;
    }
    /* next round: continue the open scanner */
    req.region = NULL;
    req.scan = NULL;
    req.has_scanner_id = 1;
    req.scanner_id = scanner;
    req.has_next_call_seq = 1;
    req.next_call_seq = seq++;
  }
  hb_conn_close(conn);
  if (rc) return rc;
  rc = hb_meta_finish(&acc, err);
  *retry = rc == HFG_EIO; /* regions not tiling: a split/merge in progress */
  return rc;
}

static void table_reset_regions(hfg_hbase_table *t) {
  for (size_t i = 0; i < t->nregions; i++) {
    hfg_free(t->regions[i].start);
    hfg_free(t->regions[i].end);
  }
  hfg_free(t->regions);
  t->regions = NULL;
  t->nregions = 0;
  t->skipped_split_parents = 0;
}

static int set_name(hfg_hbase_table *t, const char *table) {
  if (t->name && !strcmp(t->name, table)) return 0;
  hfg_free(t->name);
  t->name = hfg_strdup(table);
  return t->name ? 0 : HFG_ENOMEM;
}

int hfg_hbase_regions(hfg_hbase *c, const char *table, hfg_hbase_table *t) {
  hfg_err_clear(&c->err);
  char row[512], ns[256], qual[256];
  if (hb_table_name(table, row, sizeof row, ns, sizeof ns, qual, sizeof qual))
    return hfg_err_set(&c->err, HFG_EINVAL,
                       "'%s' is not a valid table name ([namespace:]name of letters, digits, "
                       "'_', '-', '.')", table ? table : "");
  if (set_name(t, table)) return hfg_err_set(&c->err, HFG_ENOMEM, "out of memory");
  int rc = 0;
  char first[sizeof t->meta_server] = "";
  for (int attempt = 1; attempt <= c->o.attempts; attempt++) {
    hfg_err e = {0};
    int retry = 0;
    table_reset_regions(t);
    rc = zk(c, &e);
    if (!rc) rc = scan_meta(c, row, t, &retry, &e);
    else retry = 0; /* hb_zk_open already waited timeout_ms */
    if (!rc) return 0;
    if (!first[0] && t->meta_server[0]) snprintf(first, sizeof first, "%s", t->meta_server);
    hfg_err_force(&c->err, rc, "%s", e.msg);
    if (!retry) break;
    if (attempt < c->o.attempts) sleep_ms(200L << (attempt - 1));
    else
      hfg_err_prefix(&c->err, "after %d attempts%s%s%s%s", attempt,
                     first[0] && strcmp(first, t->meta_server) ? " (hbase:meta moved from " : "",
                     first[0] && strcmp(first, t->meta_server) ? first : "",
                     first[0] && strcmp(first, t->meta_server) ? " to " : "",
                     first[0] && strcmp(first, t->meta_server) ? t->meta_server : "");
  }
  table_reset_regions(t);
  return rc;
}

static void families_free(hfg_hbase_table *t) {
  for (size_t i = 0; i < t->nfamilies; i++) {
    hfg_hbase_family *f = &t->families[i];
    hfg_free(f->name);
    hfg_free(f->compression);
    hfg_free(f->bloom);
    hfg_free(f->encoding);
    hfg_free(f->bloom_prefix_length);
    hfg_free(f->zstd_codec);
  }
  hfg_free(t->families);
  t->families = NULL;
  t->nfamilies = 0;
  t->has_schema = 0;
}

static int ask_master(hfg_hbase *c, const char *ns, const char *qual, const char *table,
                      hfg_hbase_table *t, int *retry, hfg_err *err) {
  hb_server srv;
  int rc = hb_zk_master(c->zk, &srv, err);
  if (rc) {
    *retry = 0; /* no master znode: the master is down, waiting will not help here */
    return rc;
  }
  snprintf(t->master, sizeof t->master, "%s:%u", srv.host, srv.port);
  hb_conn *conn = NULL;
  if ((rc = hb_conn_open(srv.host, srv.port, "MasterService", c->user, c->o.timeout_ms,
                         c->dump_dir, &conn, err))) {
    hfg_err_prefix(err, "master (from ZooKeeper)");
    *retry = rc == HFG_EIO;
    return rc;
  }
  Hfg__Hbrpc__TableName tn = HFG__HBRPC__TABLE_NAME__INIT;
  tn.namespace_.data = (uint8_t *)ns;
  tn.namespace_.len = strlen(ns);
  tn.qualifier.data = (uint8_t *)qual;
  tn.qualifier.len = strlen(qual);
  Hfg__Hbrpc__TableName *tnp = &tn;
  Hfg__Hbrpc__GetTableDescriptorsRequest req = HFG__HBRPC__GET_TABLE_DESCRIPTORS_REQUEST__INIT;
  req.n_table_names = 1;
  req.table_names = &tnp;
  hb_response resp;
  rc = hb_conn_call(conn, "GetTableDescriptors", &req.base, &resp, err);
  if (rc) {
    *retry = rc == HFG_EIO;
    hfg_err_prefix(err, "asking the master for the table descriptor");
  } else if (resp.has_exception) {
    *retry = retriable_exception(&resp);
    if (strstr(resp.exception_class, "TableNotFoundException"))
      rc = hfg_err_set(err, HFG_EINVAL, "table '%s' not found (master %s)", table, t->master);
    else
      rc = hfg_err_set(err, HFG_EIO, "master %s: %s: %s", t->master,
                       short_class(resp.exception_class), resp.exception_msg);
  } else {
    rc = hb_schema_decode(resp.body, resp.body_len, table, t, err);
    *retry = 0;
  }
  hb_conn_close(conn);
  return rc;
}

int hfg_hbase_schema(hfg_hbase *c, const char *table, hfg_hbase_table *t) {
  hfg_err_clear(&c->err);
  char row[512], ns[256], qual[256];
  if (hb_table_name(table, row, sizeof row, ns, sizeof ns, qual, sizeof qual))
    return hfg_err_set(&c->err, HFG_EINVAL, "'%s' is not a valid table name", table ? table : "");
  if (set_name(t, table)) return hfg_err_set(&c->err, HFG_ENOMEM, "out of memory");
  int rc = 0;
  for (int attempt = 1; attempt <= c->o.attempts; attempt++) {
    hfg_err e = {0};
    int retry = 0;
    families_free(t);
    rc = zk(c, &e);
    if (!rc) rc = ask_master(c, ns, qual, table, t, &retry, &e);
    if (!rc) return 0;
    hfg_err_force(&c->err, rc, "%s", e.msg);
    if (!retry) break;
    if (attempt < c->o.attempts) sleep_ms(200L << (attempt - 1));
    else hfg_err_prefix(&c->err, "after %d attempts", attempt);
  }
  families_free(t);
  return rc;
}

void hfg_hbase_table_free(hfg_hbase_table *t) {
  if (!t) return;
  table_reset_regions(t);
  families_free(t);
  hfg_free(t->name);
  memset(t, 0, sizeof *t);
}

size_t hfg_hbase_region_of(const hfg_hbase_table *t, const uint8_t *row, size_t len) {
  /* the last region whose start key <= row */
  size_t lo = 1, hi = t->nregions;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (hfg_bytes_cmp(t->regions[mid].start, t->regions[mid].start_len, row, len) <= 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return t->nregions ? lo - 1 : 0;
}

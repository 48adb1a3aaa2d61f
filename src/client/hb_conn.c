/*
 * Sockets for hb_conn.h: non-blocking connect and poll() with one deadline per
 * operation, so that a silent or vanished server costs at most timeout_ms.
 */
#define _GNU_SOURCE
#include "client/hb_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "hbase-rpc.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

struct hb_conn {
  int fd;
  char where[300];     /* "host:port (service)" for messages */
  int timeout_ms;
  uint32_t next_call;
  hfg_buf out, in;
  char *dump_dir;
  unsigned ndumps;
};

static int64_t now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int wait_fd(int fd, short ev, int64_t deadline) {
  for (;;) {
    int64_t left = deadline - now_ms();
    if (left <= 0) return 0;
    struct pollfd p = {fd, ev, 0};
    int r = poll(&p, 1, (int)left);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) return 0;
    return 1;
  }
}

static int send_all(hb_conn *c, const uint8_t *p, size_t n, hfg_err *err) {
  int64_t deadline = now_ms() + c->timeout_ms;
  while (n) {
    ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
    if (w > 0) {
      p += w;
      n -= (size_t)w;
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (wait_fd(c->fd, POLLOUT, deadline) <= 0)
        return hfg_err_set(err, HFG_EIO, "%s: sending timed out after %d ms", c->where,
                           c->timeout_ms);
      continue;
    }
    return hfg_err_set(err, HFG_EIO, "%s: send: %s", c->where, strerror(errno));
  }
  return 0;
}

/* Reads exactly n bytes; `what` names the step for messages. */
static int recv_all(hb_conn *c, uint8_t *p, size_t n, int64_t deadline, const char *what,
                    hfg_err *err) {
  while (n) {
    ssize_t r = recv(c->fd, p, n, 0);
    if (r > 0) {
      p += r;
      n -= (size_t)r;
      continue;
    }
    if (r == 0)
      return hfg_err_set(err, HFG_EIO, "%s: the server closed the connection while %s", c->where,
                         what);
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      int w = wait_fd(c->fd, POLLIN, deadline);
      if (w == 0)
        return hfg_err_set(err, HFG_EIO, "%s: no answer within %d ms while %s", c->where,
                           c->timeout_ms, what);
      if (w < 0) return hfg_err_set(err, HFG_EIO, "%s: poll: %s", c->where, strerror(errno));
      continue;
    }
    return hfg_err_set(err, HFG_EIO, "%s: recv: %s", c->where, strerror(errno));
  }
  return 0;
}

static int connect_to(const char *host, unsigned port, int timeout_ms, int *fd_out,
                      hfg_err *err) {
  char ps[16];
  snprintf(ps, sizeof ps, "%u", port);
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  int g = getaddrinfo(host, ps, &hints, &res);
  if (g)
    return hfg_err_set(err, HFG_EIO, "%s:%u: cannot resolve the host: %s", host, port,
                       gai_strerror(g));
  int64_t deadline = now_ms() + timeout_ms;
  int last = 0, timed_out = 0, fd = -1;
  for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      last = errno;
      continue;
    }
    if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
    if (errno == EINPROGRESS) {
      int w = wait_fd(fd, POLLOUT, deadline);
      int soerr = 0;
      socklen_t sl = sizeof soerr;
      if (w > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) == 0 && soerr == 0) break;
      if (w == 0) timed_out = 1;
      last = w > 0 ? soerr : errno;
    } else {
      last = errno;
    }
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) {
    if (timed_out)
      return hfg_err_set(err, HFG_EIO, "%s:%u: connect timed out after %d ms", host, port,
                         timeout_ms);
    return hfg_err_set(err, HFG_EIO, "%s:%u: connect: %s", host, port,
                       last ? strerror(last) : "no address");
  }
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  *fd_out = fd;
  return 0;
}

int hb_conn_open(const char *host, unsigned port, const char *service, const char *user,
                 int timeout_ms, const char *dump_dir, hb_conn **out, hfg_err *err) {
  *out = NULL;
  hb_conn *c = hfg_calloc(1, sizeof *c);
  if (!c) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  c->fd = -1;
  c->timeout_ms = timeout_ms > 0 ? timeout_ms : 10000;
  c->next_call = 1;
  snprintf(c->where, sizeof c->where, "%s:%u (%s)", host, port, service);
  if (dump_dir && !(c->dump_dir = hfg_strdup(dump_dir))) {
    hfg_free(c);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  int rc = connect_to(host, port, c->timeout_ms, &c->fd, err);
  if (!rc && hb_encode_connection_header(&c->out, user, service))
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if (!rc) rc = send_all(c, c->out.p, c->out.len, err);
  if (rc) {
    hb_conn_close(c);
    return rc;
  }
  *out = c;
  return 0;
}

static void dump_frame(hb_conn *c, const char *method, const uint8_t *p, size_t n) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%03u-%s.frame", c->dump_dir, c->ndumps++, method);
  FILE *f = fopen(path, "wb");
  if (!f) return;
  uint8_t len[4];
  hfg_put_be32(len, (uint32_t)n);
  fwrite(len, 1, 4, f);
  fwrite(p, 1, n, f);
  fclose(f);
}

int hb_conn_call(hb_conn *c, const char *method, const ProtobufCMessage *param,
                 hb_response *resp, hfg_err *err) {
  uint32_t id = c->next_call++;
  hfg_buf_reset(&c->out);
  if (hb_encode_request(&c->out, id, method, (uint32_t)c->timeout_ms, param))
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  int rc = send_all(c, c->out.p, c->out.len, err);
  if (rc) return rc;
  int64_t deadline = now_ms() + c->timeout_ms;
  uint8_t lenb[4];
  char what[128];
  snprintf(what, sizeof what, "waiting for the answer to %s", method);
  if ((rc = recv_all(c, lenb, 4, deadline, what, err))) return rc;
  uint32_t n = hfg_get_be32(lenb);
  if (lenb[0] == 0x15 && lenb[1] == 0x03)
    return hfg_err_set(err, HFG_EUNSUPPORTED,
                       "%s answered with a TLS alert: the server requires TLS RPC "
                       "(hbase.rpc.tls.enabled), which hfilegen's client does not support",
                       c->where);
  if (n > HB_MAX_FRAME || n < 1)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "%s: response frame length %u (bytes %02x %02x %02x %02x) is not "
                       "HBase RPC; is this an HBase %s port?",
                       c->where, n, lenb[0], lenb[1], lenb[2], lenb[3],
                       strstr(c->where, "Master") ? "master" : "region server");
  hfg_buf_reset(&c->in);
  if (hfg_buf_reserve(&c->in, n)) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if ((rc = recv_all(c, c->in.p, n, deadline, what, err))) return rc;
  c->in.len = n;
  if (c->dump_dir) dump_frame(c, method, c->in.p, n);
  if ((rc = hb_decode_response(c->in.p, n, resp, err))) {
    hfg_err_prefix(err, "%s", c->where);
    return rc;
  }
  /* A fatal connection error (failed authentication, bad header) comes with call id 0
   * (ServerRpcConnection's setupResponse for its -1 call) before the server closes. */
  if (resp->has_exception && resp->call_id != id) {
    if (strstr(resp->exception_class, "AccessDenied") ||
        strstr(resp->exception_msg, "uthentication") || strstr(resp->exception_msg, "SASL"))
      return hfg_err_set(err, HFG_EUNSUPPORTED,
                         "%s refused the connection: %s: %s (the cluster needs SASL/Kerberos "
                         "authentication, which hfilegen's client does not support)",
                         c->where, resp->exception_class, resp->exception_msg);
    return hfg_err_set(err, HFG_EIO, "%s refused the connection: %s: %s", c->where,
                       resp->exception_class, resp->exception_msg);
  }
  if (resp->call_id != id)
    return hfg_err_set(err, HFG_ECORRUPT, "%s: answer for call %u while waiting for call %u",
                       c->where, resp->call_id, id);
  return 0;
}

void hb_conn_close(hb_conn *c) {
  if (!c) return;
  if (c->fd >= 0) close(c->fd);
  hfg_buf_free(&c->out);
  hfg_buf_free(&c->in);
  hfg_free(c->dump_dir);
  hfg_free(c);
}

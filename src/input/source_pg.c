/*
 * PostgreSQL back end of the database sources (contract in source_db.h):
 * libpq, one REPEATABLE READ READ ONLY transaction, the columns from a
 * LIMIT 0 describe, the rows from COPY (SELECT ...) TO STDOUT in text format.
 *
 * Why COPY text and not the binary protocol: the text is what the server
 * writes into a dump (numeric digits exact, datetimes by DateStyle, floats
 * shortest-exact), so a direct read and a dump build give the same cells
 * with no per-type formatting here; and COPY streams with no per-row
 * round trip. PQgetCopyData hands out exactly one row per call, which the
 * pg-text dialect parses as a whole record (eof = 1).
 */
#include "input/source_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#ifdef HFG_HAVE_LIBPQ
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>

#include "input/record_dialect.h"

#define BYTEA_OID 17

typedef struct pg_state {
  PGconn *conn;
  volatile sig_atomic_t *cancel; /* the job's cancel flag, NULL none */
  const hfg_db_uri *u;            /* for its record limit (max_row) */
  const char *shown;
  const char *table; /* table= as given, NULL for query= */
  hfg_dialect *d;
  int *is_bytea;  /* per column */
  size_t ncols;
  char *row;      /* PQgetCopyData's buffer of the last row, freed on the next call */
  hfg_field *fields;
  char *scratch;  /* decoded bytea values */
  size_t scap;
  int done;
  uint64_t bytes;
  char notice[256]; /* the server's last NOTICE/WARNING, for a read error's message */
} pg_state;

/* libpq's default prints notices on stderr; this library prints nothing: the
 * last one is kept ("terminating connection due to immediate shutdown" comes
 * as a WARNING just before the connection closes) and named in a read error. */
static void on_notice(void *arg, const PGresult *r) {
  pg_state *st = arg;
  const char *m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
  if (m) snprintf(st->notice, sizeof st->notice, "%s", m);
}

/* " (the server said: ...)" for the last notice, or "" */
static const char *notice_note(const pg_state *st, char *buf, size_t cap) {
  if (!st->notice[0]) return "";
  snprintf(buf, cap, " (the server said: %s)", st->notice);
  return buf;
}

/* libpq's message without its trailing newline */
static const char *pg_msg(PGconn *c, char *buf, size_t cap) {
  snprintf(buf, cap, "%s", PQerrorMessage(c));
  size_t n = strlen(buf);
  while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = '\0';
  for (char *p = buf; *p; p++) /* one line: libpq's hints come after "\n\t" */
    if (*p == '\n' || *p == '\t') *p = ' ';
  return buf;
}

static const char *res_msg(PGresult *r, PGconn *c, char *buf, size_t cap) {
  const char *m = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
  if (m) {
    snprintf(buf, cap, "%s", m);
    return buf;
  }
  return pg_msg(c, buf, cap);
}

/* The job was canceled while the server was silent: the server's query is
 * canceled too (a cancel request on its own connection), HFG_ECANCELED. */
static int canceled(pg_state *st, hfg_err *err) {
  PGcancel *c = PQgetCancel(st->conn);
  if (c) {
    char eb[256];
    PQcancel(c, eb, sizeof eb);
    PQfreeCancel(c);
  }
  return hfg_err_set(err, HFG_ECANCELED, "%s: canceled while waiting for the server", st->shown);
}

/* Waits until the server sends something, looking at the cancel flag every
 * 200 ms (libpq's own waits cannot be interrupted): 0, HFG_ECANCELED. */
static int wait_input(pg_state *st, hfg_err *err) {
  for (;;) {
    if (st->cancel && *st->cancel) return canceled(st, err);
    struct pollfd p = {PQsocket(st->conn), POLLIN, 0};
    if (p.fd < 0) return 0; /* no connection: libpq reports it */
    int n = poll(&p, 1, 200);
    if (n > 0 || (n < 0 && errno != EINTR)) return 0; /* an error shows in the next read */
  }
}

/* PQexec's work in steps that can be canceled: sends sql, waits for its
 * first result into *out (NULL: libpq's error is in PQerrorMessage); unless
 * that starts a COPY, reads the statement's remaining results. 0 or
 * HFG_ECANCELED (*out NULL). */
static int run(pg_state *st, const char *sql, PGresult **out, hfg_err *err) {
  *out = NULL;
  if (!PQsendQuery(st->conn, sql)) return 0;
  int rc;
  for (int first = 1;; first = 0) {
    while (PQisBusy(st->conn)) {
      if ((rc = wait_input(st, err))) {
        PQclear(*out);
        *out = NULL;
        return rc;
      }
      if (!PQconsumeInput(st->conn)) {
        PQclear(*out);
        *out = NULL;
        return 0;
      }
    }
    PGresult *r = PQgetResult(st->conn);
    if (!r) return 0;
    if (first) {
      *out = r;
      if (PQresultStatus(r) == PGRES_COPY_OUT) return 0;
    } else {
      PQclear(r);
    }
  }
}

/* Runs a statement that returns no rows; 0 or an error in err. */
static int exec_ok(pg_state *st, const char *sql, hfg_err *err) {
  PGresult *r;
  int crc = run(st, sql, &r, err);
  if (crc) return crc;
  int ok = r && (PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK);
  if (!ok) {
    char m[512];
    hfg_err_set(err, HFG_EINVAL, "%s: %s", st->shown, res_msg(r, st->conn, m, sizeof m));
  }
  PQclear(r);
  return ok ? 0 : HFG_EINVAL;
}

static int pg_connect(const hfg_db_uri *u, pg_state *st, hfg_err *err) {
  size_t cap = u->nparams + 8;
  const char **k = hfg_calloc(cap, sizeof *k), **v = hfg_calloc(cap, sizeof *v);
  if (!k || !v) {
    hfg_free(k);
    hfg_free(v);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  size_t n = 0;
  /* defaults first: a URI parameter of the same name comes later and wins */
  k[n] = "connect_timeout", v[n++] = "10";
  k[n] = "fallback_application_name", v[n++] = "hfilegen";
  if (u->host) k[n] = "host", v[n++] = u->host;
  if (u->port) k[n] = "port", v[n++] = u->port;
  if (u->user) k[n] = "user", v[n++] = u->user;
  if (u->password) k[n] = "password", v[n++] = u->password;
  k[n] = "dbname", v[n++] = u->db;
  for (size_t i = 0; i < u->nparams; i++) k[n] = u->keys[i], v[n++] = u->vals[i];
  k[n] = NULL, v[n] = NULL;
  st->conn = PQconnectdbParams(k, v, 0);
  hfg_free(k);
  hfg_free(v);
  if (!st->conn) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if (PQstatus(st->conn) != CONNECTION_OK) {
    char m[768];
    return hfg_err_set(err, HFG_EIO, "%s: cannot connect: %s", st->shown,
                       pg_msg(st->conn, m, sizeof m));
  }
  PQsetNoticeReceiver(st->conn, on_notice, st);
  return 0;
}

/* The result's names and types, from the same snapshot as the COPY. */
static int pg_describe(pg_state *st, const char *sql, char ***names, size_t *n, hfg_err *err) {
  size_t ql = strlen(sql) + 64;
  char *q = hfg_malloc(ql);
  if (!q) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  snprintf(q, ql, "SELECT * FROM (%s) AS hfg_d LIMIT 0", sql);
  PGresult *r;
  int crc = run(st, q, &r, err);
  hfg_free(q);
  if (crc) return crc;
  if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
    char m[512];
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    int upper = 0;
    for (const char *p = st->table; p && *p; p++) upper |= *p >= 'A' && *p <= 'Z';
    /* 42P01 undefined_table: an unquoted CREATE TABLE Orders made "orders" */
    hfg_err_set(err, HFG_EINVAL, "%s: %s%s", st->shown, res_msg(r, st->conn, m, sizeof m),
                upper && state && !strcmp(state, "42P01")
                    ? " (table= is quoted as given, case and all: a table created without "
                      "quotes has a lowercase name)"
                    : "");
    PQclear(r);
    return HFG_EINVAL;
  }
  size_t nf = (size_t)PQnfields(r);
  char **nm = hfg_calloc(nf ? nf : 1, sizeof *nm);
  st->is_bytea = hfg_calloc(nf ? nf : 1, sizeof *st->is_bytea);
  st->fields = hfg_calloc(nf ? nf : 1, sizeof *st->fields);
  int bad = !nm || !st->is_bytea || !st->fields;
  for (size_t i = 0; !bad && i < nf; i++) {
    if (!(nm[i] = hfg_strdup(PQfname(r, (int)i)))) bad = 1;
    else st->is_bytea[i] = PQftype(r, (int)i) == BYTEA_OID;
  }
  PQclear(r);
  if (bad) {
    for (size_t i = 0; nm && i < nf; i++) hfg_free(nm[i]);
    hfg_free(nm);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  st->ncols = nf;
  *names = nm;
  *n = nf;
  return 0;
}

static void pg_close(void *state) {
  pg_state *st = state;
  if (!st) return;
  if (st->row) PQfreemem(st->row);
  if (st->conn) PQfinish(st->conn); /* an unfinished transaction is rolled back */
  hfg_dialect_free(st->d);
  hfg_free(st->is_bytea);
  hfg_free(st->fields);
  hfg_free(st->scratch);
  hfg_free(st);
}

/* The one integer a SELECT count(*) returns, into *count. */
static int pg_count(pg_state *st, const char *sql, uint64_t *count, hfg_err *err) {
  PGresult *r;
  int rc = run(st, sql, &r, err);
  if (rc) return rc;
  if (!r || PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 || PQnfields(r) != 1) {
    char m[512];
    hfg_err_set(err, HFG_EINVAL, "%s: %s", st->shown, res_msg(r, st->conn, m, sizeof m));
    PQclear(r);
    return HFG_EINVAL;
  }
  *count = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
  PQclear(r);
  return 0;
}

#define TIMESTAMP_OID 1114
#define TIMESTAMPTZ_OID 1184

/* The check column's kind: probe (SELECT * ... LIMIT 0) described, the column
 * found by name; not there: integer (the SELECT then fails naming it). */
static int pg_check_kind(pg_state *st, const char *probe, const char *name, int *kind,
                         hfg_err *err) {
  *kind = HFG_DB_CHECK_INTEGER;
  PGresult *r;
  int rc = run(st, probe, &r, err);
  if (rc) return rc;
  if (!r || PQresultStatus(r) != PGRES_TUPLES_OK) {
    char m[512];
    hfg_err_set(err, HFG_EINVAL, "%s: %s", st->shown, res_msg(r, st->conn, m, sizeof m));
    PQclear(r);
    return HFG_EINVAL;
  }
  int c = -1;
  for (int i = 0; c < 0 && i < PQnfields(r); i++)
    if (!strcmp(PQfname(r, i), name)) c = i;
  if (c >= 0 && PQftype(r, c) == TIMESTAMP_OID) *kind = HFG_DB_CHECK_WALLCLOCK;
  if (c >= 0 && PQftype(r, c) == TIMESTAMPTZ_OID) *kind = HFG_DB_CHECK_INSTANT;
  PQclear(r);
  return 0;
}

static int pg_open(const hfg_db_uri *u, const hfg_db_plan *plan, uint64_t *count, void **state,
                   char ***names, size_t *n, hfg_err *err) {
  char *sql = NULL, *count_sql = NULL;
  *state = NULL;
  pg_state *st = hfg_calloc(1, sizeof *st);
  if (!st) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  st->u = u;
  st->shown = u->shown;
  st->table = u->table;
  st->cancel = u->cancel;
  hfg_input_options io = HFG_INPUT_OPTIONS_INIT;
  io.format = HFG_INPUT_PG_TEXT;
  char m[256];
  int rc;
  if ((rc = hfg_dialect_new(&io, &st->d, m, sizeof m))) {
    hfg_err_set(err, rc, "%s: %s", u->shown, m);
    goto fail;
  }
  if ((rc = pg_connect(u, st, err))) goto fail;
  if ((rc = exec_ok(st, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err)) ||
      (rc = exec_ok(st, "SET LOCAL bytea_output = 'hex'", err)))
    goto fail;
  int kind = HFG_DB_CHECK_INTEGER;
  if (plan->probe) {
    if ((rc = pg_check_kind(st, plan->probe, plan->check_column, &kind, err))) goto fail;
  }
  if ((rc = plan->make(plan->ctx, kind, &sql, &count_sql, err))) goto fail;
  if ((rc = pg_describe(st, sql, names, n, err))) goto fail;
  if (count_sql && (rc = pg_count(st, count_sql, count, err))) goto names;
  size_t ql = strlen(sql) + 32;
  char *q = hfg_malloc(ql);
  if (!q) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto names;
  }
  snprintf(q, ql, "COPY (%s) TO STDOUT", sql);
  PGresult *r;
  rc = run(st, q, &r, err);
  hfg_free(q);
  if (rc) goto names;
  if (!r || PQresultStatus(r) != PGRES_COPY_OUT) {
    hfg_err_set(err, HFG_EINVAL, "%s: %s", u->shown, res_msg(r, st->conn, m, sizeof m));
    PQclear(r);
    rc = HFG_EINVAL;
    goto names;
  }
  PQclear(r);
  hfg_free(sql);
  hfg_free(count_sql);
  *state = st;
  return 0;
names:
  for (size_t i = 0; i < *n; i++) hfg_free((*names)[i]);
  hfg_free(*names);
  *names = NULL;
  *n = 0;
fail:
  hfg_free(sql);
  hfg_free(count_sql);
  pg_close(st);
  return rc;
}

static int hexv(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* bytea's hex output \x0a0b... into its bytes at dst; -1 if not that form. */
static long unhex(const char *p, size_t len, char *dst) {
  if (len < 2 || p[0] != '\\' || p[1] != 'x' || (len & 1)) return -1;
  size_t k = 0;
  for (size_t i = 2; i < len; i += 2) {
    int a = hexv((unsigned char)p[i]), b = hexv((unsigned char)p[i + 1]);
    if (a < 0 || b < 0) return -1;
    dst[k++] = (char)(a * 16 + b);
  }
  return (long)k;
}

static int finish(pg_state *st, hfg_err *err) {
  PGresult *r;
  int rc = 0;
  for (;;) {
    while (PQisBusy(st->conn)) {
      int wrc = wait_input(st, err);
      if (wrc) return wrc;
      if (!PQconsumeInput(st->conn)) break;
    }
    if (!(r = PQgetResult(st->conn))) break;
    if (!rc && PQresultStatus(r) != PGRES_COMMAND_OK) {
      char m[512], nn[300];
      rc = hfg_err_set(err, HFG_EIO, "%s: %s%s", st->shown, res_msg(r, st->conn, m, sizeof m),
                       notice_note(st, nn, sizeof nn));
    }
    PQclear(r);
  }
  if (!rc) rc = exec_ok(st, "COMMIT", err);
  st->done = 1;
  return rc;
}

static int pg_next(void *state, hfg_db_row *row, hfg_err *err) {
  pg_state *st = state;
  if (st->row) {
    PQfreemem(st->row);
    st->row = NULL;
  }
  if (st->done) return 0;
  int len;
  while ((len = PQgetCopyData(st->conn, &st->row, 1)) == 0) { /* no whole row yet */
    int rc = wait_input(st, err);
    if (rc) return rc;
    if (!PQconsumeInput(st->conn)) {
      len = -2;
      break;
    }
  }
  if (len == -1) {
    int rc = finish(st, err);
    return rc ? rc : 0;
  }
  if (len < 0) {
    char m[512], nn[300];
    return hfg_err_set(err, HFG_EIO, "%s: reading the rows: %s%s", st->shown,
                       pg_msg(st->conn, m, sizeof m), notice_note(st, nn, sizeof nn));
  }
  st->bytes += (uint64_t)len;
  size_t text = (size_t)len - (len > 0 && st->row[len - 1] == '\n'); /* the row's bytes */
  if (st->u->max_row && text > st->u->max_row) { /* rejected unparsed, raw cut at the limit */
    row->raw = st->row;
    row->raw_len = st->u->max_row;
    row->too_long = 1;
    return HFG_EPARSE;
  }
  hfg_dialect_step s;
  int rc = hfg_dialect_parse(st->d, st->row, st->row + len, 1, &s);
  if (rc == HFG_ENOMEM) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  if (rc != 1 && rc != HFG_EPARSE)
    return hfg_err_set(err, HFG_ECORRUPT, "%s: COPY sent a row that is no record", st->shown);
  hfg_dialect_accept(st->d);
  row->raw = st->row;
  row->raw_len = s.raw_len;
  if (rc == HFG_EPARSE) {
    row->reason = s.reason;
    return HFG_EPARSE;
  }
  if (s.nfields != st->ncols) {
    row->fields = s.fields;
    row->nfields = s.nfields;
    row->reason = "COPY row has a different number of fields than the result";
    return HFG_EPARSE;
  }
  if ((size_t)len > st->scap) {
    char *ns = hfg_realloc(st->scratch, (size_t)len);
    if (!ns) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    st->scratch = ns;
    st->scap = (size_t)len;
  }
  size_t used = 0;
  for (size_t i = 0; i < s.nfields; i++) {
    st->fields[i] = s.fields[i];
    if (!st->is_bytea[i] || s.fields[i].is_null) continue;
    long k = unhex(s.fields[i].p, s.fields[i].len, st->scratch + used);
    if (k < 0) {
      row->fields = s.fields;
      row->nfields = s.nfields;
      row->reason = "bytea value not in hex output form";
      return HFG_EPARSE;
    }
    st->fields[i].p = st->scratch + used;
    st->fields[i].len = (size_t)k;
    used += (size_t)k;
  }
  row->fields = st->fields;
  row->nfields = s.nfields;
  return 1;
}

static uint64_t pg_bytes(const void *state) { return ((const pg_state *)state)->bytes; }

#else /* built without libpq */

static int pg_open(const hfg_db_uri *u, const hfg_db_plan *plan, uint64_t *count, void **state,
                   char ***names, size_t *n, hfg_err *err) {
  (void)plan, (void)count, (void)names, (void)n;
  *state = NULL;
  return hfg_err_set(err, HFG_EINVAL,
                     "%s: hfilegen was built without PostgreSQL support (install libpq-dev and "
                     "rebuild)",
                     u->shown);
}
static int pg_next(void *state, hfg_db_row *row, hfg_err *err) {
  (void)state, (void)row, (void)err;
  return 0;
}
static uint64_t pg_bytes(const void *state) {
  (void)state;
  return 0;
}
static void pg_close(void *state) { (void)state; }

#endif

/* "name" with " doubled */
static char *pg_quote(const char *name) {
  size_t n = strlen(name), k = 0;
  char *q = hfg_malloc(2 * n + 3);
  if (!q) return NULL;
  q[k++] = '"';
  for (size_t i = 0; i < n; i++) {
    if (name[i] == '"') q[k++] = '"';
    q[k++] = name[i];
  }
  q[k++] = '"';
  q[k] = '\0';
  return q;
}

const hfg_db_backend hfg_db_pg = {pg_open, pg_next, pg_bytes, pg_close, pg_quote};

/*
 * MariaDB/MySQL back end of the database sources (contract in source_db.h):
 * the MariaDB C client (libmariadb), one consistent-snapshot read-only
 * transaction, rows streamed with mysql_use_result (the client holds one row
 * at a time, whatever the table's size).
 *
 * The text protocol gives every value as the server's text for it, the same
 * bytes SELECT ... INTO OUTFILE writes before escaping: with
 * character_set_results = binary nothing is converted (INTO OUTFILE without
 * CHARACTER SET writes the binary character set too), binary columns are
 * their bytes, NULL is a NULL pointer.
 *
 * A streamed result makes the server wait on the client: net_write_timeout
 * is raised for the session so that a build that pauses to spill a sort run
 * does not lose the connection.
 */
#include "input/source_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#ifdef HFG_HAVE_MARIADB
#include <mysql.h>
#include <poll.h>

typedef struct my_state {
  MYSQL *m;
  volatile sig_atomic_t *cancel; /* the job's cancel flag, NULL none */
  const hfg_db_uri *u;           /* for the connection that kills a canceled query */
  int cut;                       /* mariadb_cancel done: the connection is dead */
  MYSQL_RES *res;
  const char *shown;
  size_t ncols;
  hfg_field *fields;
  char *raw;
  size_t rcap;
  int done;
  uint64_t bytes;
} my_state;

static int my_fail(my_state *st, int code, const char *what, hfg_err *err) {
  return hfg_err_set(err, code, "%s: %s%s%s", st->shown, what, *what ? ": " : "", mysql_error(st->m));
}

/* The query and the row reads run on the client library's non-blocking API
 * so that a canceled job (SIGINT/SIGTERM) stops while the server is silent
 * (a lock wait, a long sort before the first row): my_wait polls what the
 * library waits for in 200 ms steps, looking at the cancel flag. Returns the
 * status to continue with, or -1 when canceled (the connection is then cut:
 * the server ends the query when it next writes to it). */
/* KILL QUERY for this connection's statement, from a second connection with
 * the same account (anyone may kill their own), so that a canceled job does
 * not leave its query running on the server. Best effort. */
static void kill_query(my_state *st) {
  MYSQL *k = mysql_init(NULL);
  if (!k) return;
  unsigned t = 5;
  mysql_options(k, MYSQL_OPT_CONNECT_TIMEOUT, &t);
  mysql_options(k, MYSQL_READ_DEFAULT_GROUP, "client");
  unsigned port = st->u->port ? (unsigned)strtoul(st->u->port, NULL, 10) : 0;
  if (mysql_real_connect(k, st->u->host, st->u->user, st->u->password, NULL, port, NULL, 0)) {
    char q[64];
    snprintf(q, sizeof q, "KILL QUERY %lu", mysql_thread_id(st->m));
    mysql_real_query(k, q, strlen(q));
  }
  mysql_close(k);
}

static int my_wait(my_state *st, int status) {
  long left = (status & MYSQL_WAIT_TIMEOUT) ? (long)mysql_get_timeout_value_ms(st->m) : -1;
  for (;;) {
    if (st->cancel && *st->cancel) {
      kill_query(st);
      mariadb_cancel(st->m);
      st->cut = 1;
      return -1;
    }
    struct pollfd p = {mysql_get_socket(st->m), 0, 0};
    if (status & MYSQL_WAIT_READ) p.events |= POLLIN;
    if (status & MYSQL_WAIT_WRITE) p.events |= POLLOUT;
    if (status & MYSQL_WAIT_EXCEPT) p.events |= POLLPRI;
    int t = left >= 0 && left < 200 ? (int)left : 200;
    int n = poll(&p, 1, t);
    if (n > 0) {
      int s = 0;
      if (p.revents & (POLLIN | POLLERR | POLLHUP)) s |= MYSQL_WAIT_READ;
      if (p.revents & (POLLOUT | POLLERR | POLLHUP)) s |= MYSQL_WAIT_WRITE;
      if (p.revents & POLLPRI) s |= MYSQL_WAIT_EXCEPT;
      s &= status;
      return s ? s : status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT);
    }
    if (n == 0 && left >= 0 && (left -= t) <= 0) return MYSQL_WAIT_TIMEOUT;
  }
}

static int my_canceled(my_state *st, hfg_err *err) {
  return hfg_err_set(err, HFG_ECANCELED, "%s: canceled while waiting for the server", st->shown);
}

static int my_exec(my_state *st, const char *sql, hfg_err *err) {
  if (mysql_real_query(st->m, sql, strlen(sql))) return my_fail(st, HFG_EINVAL, "", err);
  MYSQL_RES *r = mysql_store_result(st->m);
  if (r) mysql_free_result(r);
  return 0;
}

static void my_close(void *state) {
  my_state *st = state;
  if (!st) return;
  if (st->res) {
    /* freeing an unfinished streamed result would read every remaining row:
     * cut the connection first */
    if (!st->done && !st->cut) mariadb_cancel(st->m);
    mysql_free_result(st->res);
  }
  if (st->m) mysql_close(st->m); /* an unfinished transaction is rolled back */
  hfg_free(st->fields);
  hfg_free(st->raw);
  hfg_free(st);
}

/* Runs sql (the query, then its first row, looked at for a cancel as my_wait
 * does); 0 or an error. */
static int my_query(my_state *st, const char *sql, hfg_err *err) {
  int qret = 0, qs = mysql_real_query_start(&qret, st->m, sql, strlen(sql));
  while (qs) {
    if ((qs = my_wait(st, qs)) < 0) return my_canceled(st, err);
    qs = mysql_real_query_cont(&qret, st->m, qs);
  }
  return qret ? my_fail(st, HFG_EINVAL, "", err) : 0;
}

/* The one integer a SELECT count(*) returns, into *count. */
static int my_count(my_state *st, const char *sql, uint64_t *count, hfg_err *err) {
  int rc = my_query(st, sql, err);
  if (rc) return rc;
  MYSQL_RES *r = mysql_store_result(st->m);
  MYSQL_ROW row = r && mysql_num_fields(r) == 1 ? mysql_fetch_row(r) : NULL;
  if (!row || !row[0]) {
    if (r) mysql_free_result(r);
    return my_fail(st, HFG_EINVAL, "counting the rows whose check column is NULL", err);
  }
  *count = strtoull(row[0], NULL, 10);
  mysql_free_result(r);
  return 0;
}

/* The check column's kind: probe (SELECT * ... LIMIT 0) run, the column found
 * by name; not there: integer (the SELECT then fails naming it). */
static int my_check_kind(my_state *st, const char *probe, const char *name, int *kind,
                         hfg_err *err) {
  *kind = HFG_DB_CHECK_INTEGER;
  int rc = my_query(st, probe, err);
  if (rc) return rc;
  MYSQL_RES *r = mysql_store_result(st->m);
  if (!r) return my_fail(st, HFG_EINVAL, "no result set", err);
  unsigned nf = mysql_num_fields(r);
  MYSQL_FIELD *f = mysql_fetch_fields(r);
  for (unsigned i = 0; i < nf; i++)
    if (f[i].name_length == strlen(name) && !memcmp(f[i].name, name, f[i].name_length)) {
      if (f[i].type == MYSQL_TYPE_DATETIME) *kind = HFG_DB_CHECK_WALLCLOCK;
      if (f[i].type == MYSQL_TYPE_TIMESTAMP) *kind = HFG_DB_CHECK_INSTANT;
      break;
    }
  mysql_free_result(r);
  return 0;
}

static int my_open(const hfg_db_uri *u, const hfg_db_plan *plan, uint64_t *count, void **state,
                   char ***names, size_t *n, hfg_err *err) {
  *state = NULL;
  char *sql = NULL, *count_sql = NULL;
  my_state *st = hfg_calloc(1, sizeof *st);
  if (!st) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  st->shown = u->shown;
  st->cancel = u->cancel;
  st->u = u;
  int rc = 0;
  unsigned timeout = 10;
  for (size_t i = 0; i < u->nparams; i++) {
    char *end;
    unsigned long t = strtoul(u->vals[i], &end, 10);
    if (!strcmp(u->keys[i], "connect_timeout") && !*end && *u->vals[i] && t < 100000) {
      timeout = (unsigned)t;
    } else {
      rc = hfg_err_set(err, HFG_EINVAL,
                       "%s: unknown or bad parameter '%s' (mysql:// takes table=, query=, "
                       "connect_timeout=SECONDS)",
                       u->shown, u->keys[i]);
      goto fail;
    }
  }
  if (!(st->m = mysql_init(NULL))) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto fail;
  }
  mysql_options(st->m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_options(st->m, MYSQL_OPT_NONBLOCK, 0); /* for my_wait; blocking calls still work */
  /* the [client] group of the option files, as the mysql/mariadb tools read it */
  mysql_options(st->m, MYSQL_READ_DEFAULT_GROUP, "client");
  unsigned port = u->port ? (unsigned)strtoul(u->port, NULL, 10) : 0;
  if (!mysql_real_connect(st->m, u->host, u->user, u->password, u->db, port, NULL, 0)) {
    rc = my_fail(st, HFG_EIO, "cannot connect", err);
    goto fail;
  }
  if ((rc = my_exec(st, "SET SESSION character_set_results = binary, net_write_timeout = 3600", err)) ||
      (rc = my_exec(st, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", err)) ||
      (rc = my_exec(st, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY", err)))
    goto fail;
  int kind = HFG_DB_CHECK_INTEGER;
  if (plan->probe) {
    if ((rc = my_check_kind(st, plan->probe, plan->check_column, &kind, err))) goto fail;
  }
  /* a TIMESTAMP is stored in UTC and shown in the session's zone, without an
   * offset: read in UTC it is exact (source_db.h, "A datetime check column") */
  if (kind == HFG_DB_CHECK_INSTANT && (rc = my_exec(st, "SET SESSION time_zone = '+00:00'", err)))
    goto fail;
  if ((rc = plan->make(plan->ctx, kind, &sql, &count_sql, err))) goto fail;
  if ((count_sql && (rc = my_count(st, count_sql, count, err))) || (rc = my_query(st, sql, err)))
    goto fail;
  if (!(st->res = mysql_use_result(st->m))) {
    rc = my_fail(st, HFG_EINVAL, "no result set", err);
    goto fail;
  }
  st->ncols = mysql_num_fields(st->res);
  MYSQL_FIELD *f = mysql_fetch_fields(st->res);
  char **nm = hfg_calloc(st->ncols ? st->ncols : 1, sizeof *nm);
  st->fields = hfg_calloc(st->ncols ? st->ncols : 1, sizeof *st->fields);
  int bad = !nm || !st->fields;
  for (size_t i = 0; !bad && i < st->ncols; i++)
    if (!(nm[i] = hfg_malloc(f[i].name_length + 1))) bad = 1;
    else {
      memcpy(nm[i], f[i].name, f[i].name_length);
      nm[i][f[i].name_length] = '\0';
    }
  if (bad) {
    for (size_t i = 0; nm && i < st->ncols; i++) hfg_free(nm[i]);
    hfg_free(nm);
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto fail;
  }
  *names = nm;
  *n = st->ncols;
  *state = st;
  hfg_free(sql);
  hfg_free(count_sql);
  return 0;
fail:
  hfg_free(sql);
  hfg_free(count_sql);
  my_close(st);
  return rc;
}

static int my_next(void *state, hfg_db_row *row, hfg_err *err) {
  my_state *st = state;
  if (st->done) return 0;
  MYSQL_ROW r = NULL;
  int fs = mysql_fetch_row_start(&r, st->res);
  while (fs) {
    if ((fs = my_wait(st, fs)) < 0) return my_canceled(st, err);
    fs = mysql_fetch_row_cont(&r, st->res, fs);
  }
  if (!r) {
    if (mysql_errno(st->m)) return my_fail(st, HFG_EIO, "reading the rows", err);
    st->done = 1;
    mysql_free_result(st->res);
    st->res = NULL;
    if (mysql_real_query(st->m, "COMMIT", 6)) return my_fail(st, HFG_EIO, "COMMIT", err);
    return 0;
  }
  unsigned long *len = mysql_fetch_lengths(st->res);
  size_t need = st->ncols;
  for (size_t i = 0; i < st->ncols; i++) need += r[i] ? len[i] : 2;
  size_t max = st->u->max_row;
  if (max && need - 1 > max) { /* over the record limit: rejected, raw cut at it, not parsed */
    if (max > st->rcap) {
      char *nr = hfg_realloc(st->raw, max);
      if (!nr) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
      st->raw = nr;
      st->rcap = max;
    }
    size_t k = 0;
    for (size_t i = 0; i < st->ncols && k < max; i++) {
      if (i) st->raw[k++] = '\t';
      const char *v = r[i] ? r[i] : "\\N";
      size_t l = r[i] ? len[i] : 2;
      if (l > max - k) l = max - k;
      memcpy(st->raw + k, v, l);
      k += l;
    }
    st->bytes += need - 1;
    row->raw = st->raw;
    row->raw_len = k;
    row->too_long = 1;
    return HFG_EPARSE;
  }
  if (need > st->rcap) {
    char *nr = hfg_realloc(st->raw, need * 2);
    if (!nr) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    st->raw = nr;
    st->rcap = need * 2;
  }
  /* one copy: the values joined by TAB (raw, for the rejects file), the
   * fields pointing into it */
  size_t k = 0;
  for (size_t i = 0; i < st->ncols; i++) {
    if (i) st->raw[k++] = '\t';
    hfg_field *fd = &st->fields[i];
    fd->is_null = r[i] == NULL;
    if (!r[i]) {
      memcpy(st->raw + k, "\\N", 2);
      fd->p = st->raw + k;
      fd->len = 0;
      k += 2;
      continue;
    }
    memcpy(st->raw + k, r[i], len[i]);
    fd->p = st->raw + k;
    fd->len = len[i];
    k += len[i];
  }
  st->bytes += k;
  row->fields = st->fields;
  row->nfields = st->ncols;
  row->raw = st->raw;
  row->raw_len = k;
  return 1;
}

static uint64_t my_bytes(const void *state) { return ((const my_state *)state)->bytes; }

#else /* built without libmariadb */

static int my_open(const hfg_db_uri *u, const hfg_db_plan *plan, uint64_t *count, void **state,
                   char ***names, size_t *n, hfg_err *err) {
  (void)plan, (void)count, (void)names, (void)n;
  *state = NULL;
  return hfg_err_set(err, HFG_EINVAL,
                     "%s: hfilegen was built without MySQL/MariaDB support (install "
                     "libmariadb-dev and rebuild)",
                     u->shown);
}
static int my_next(void *state, hfg_db_row *row, hfg_err *err) {
  (void)state, (void)row, (void)err;
  return 0;
}
static uint64_t my_bytes(const void *state) {
  (void)state;
  return 0;
}
static void my_close(void *state) { (void)state; }

#endif

/* `name` with ` doubled */
static char *my_quote(const char *name) {
  size_t n = strlen(name), k = 0;
  char *q = hfg_malloc(2 * n + 3);
  if (!q) return NULL;
  q[k++] = '`';
  for (size_t i = 0; i < n; i++) {
    if (name[i] == '`') q[k++] = '`';
    q[k++] = name[i];
  }
  q[k++] = '`';
  q[k] = '\0';
  return q;
}

const hfg_db_backend hfg_db_mysql = {my_open, my_next, my_bytes, my_close, my_quote};

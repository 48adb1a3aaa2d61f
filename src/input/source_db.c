/*
 * Database sources: the URI, the SELECT, the check column's maximum, and the
 * dispatch to the back ends (contract in source_db.h). The back ends only
 * talk to their client library; everything both share is here.
 */
#include "input/source_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfilegen/scheme.h" /* hfg_columns_hint */
#include "util/alloc.h"
#include "util/timefmt.h"

struct hfg_dbsrc {
  const hfg_db_backend *be;
  void *state;
  hfg_db_uri uri;
  char *shown;
  char **names;
  size_t nnames;
  long check_idx; /* index of the check column in the result, -1 off */
  int check_kind; /* HFG_DB_CHECK_*: integer, or a datetime kept in epoch ms */
  char *max;      /* largest check value so far, NULL none */
  size_t max_cap;
  uint64_t row;
  uint64_t nulls_read, nulls_skipped; /* rows with a NULL check column (hfg_dbsrc_check_nulls) */
  char *long_reason; /* a row over uri.max_row is rejected with it */
};

static const char *const SCHEMES[] = {"postgresql://", "postgres://", "mysql://", "mariadb://"};

static size_t scheme_len(const char *p, int *kind) {
  for (size_t i = 0; i < sizeof SCHEMES / sizeof *SCHEMES; i++) {
    size_t n = strlen(SCHEMES[i]);
    if (!strncmp(p, SCHEMES[i], n)) {
      if (kind) *kind = i < 2 ? 1 : 2;
      return n;
    }
  }
  return 0;
}

int hfg_db_is_uri(const char *path) { return path && scheme_len(path, NULL) > 0; }

/* The authority's user:password@ part, if any: [*a, *at) with the ':' at
 * *colon (NULL when no password). It ends at the last '@' before the path;
 * failing that (a password holding an unencoded '/', '?' or '#', which ends
 * the authority), at the last '@' before the first '?', or at the first '@'
 * after it when no '=' or '&' comes between them (a query's "a@b" has its
 * parameter's '=' before it), provided a ':' shows a password before it: so
 * that such a password is never shown, and is still read as one. */
static void userinfo(const char *uri, const char **a, const char **colon, const char **at) {
  *a = uri + scheme_len(uri, NULL);
  size_t end = strcspn(*a, "/?#");
  *at = NULL;
  *colon = NULL;
  for (size_t i = end; i-- > 0;)
    if ((*a)[i] == '@') {
      *at = *a + i;
      break;
    }
  if (!*at) {
    size_t q = strcspn(*a, "?");
    const char *cand = NULL;
    for (size_t i = q; i-- > 0;)
      if ((*a)[i] == '@') {
        cand = *a + i;
        break;
      }
    if (!cand && (*a)[q] == '?') {
      const char *x = *a + q + 1;
      size_t k = strcspn(x, "@=&");
      if (x[k] == '@') cand = x + k;
    }
    if (cand && memchr(*a, ':', (size_t)(cand - *a))) *at = cand;
  }
  if (!*at) return;
  const char *c = memchr(*a, ':', (size_t)(*at - *a));
  *colon = c;
}

void hfg_db_redact(const char *uri, char *out, size_t cap) {
  if (!cap) return;
  const char *a, *colon, *at;
  if (!hfg_db_is_uri(uri)) {
    snprintf(out, cap, "%s", uri);
    return;
  }
  userinfo(uri, &a, &colon, &at);
  if (!colon) {
    snprintf(out, cap, "%s", uri);
    return;
  }
  snprintf(out, cap, "%.*s%s", (int)(colon - uri), uri, at);
}

int hfg_db_is_integer(const char *s, size_t len) {
  size_t i = 0;
  if (len && s[0] == '-') i = 1;
  if (len == i || len - i > 40) return 0;
  for (; i < len; i++)
    if (s[i] < '0' || s[i] > '9') return 0;
  return 1;
}

/* n digits at p into *v; 0 or -1. */
static int digits(const char *p, size_t n, int *v) {
  *v = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] < '0' || p[i] > '9') return -1;
    *v = *v * 10 + (p[i] - '0');
  }
  return 0;
}

int hfg_db_datetime_ms(const char *p, size_t len, int64_t *ms) {
  hfg_tm t = {0, 0, 0, 0, 0, 0, 0};
  int y;
  if (len < 19 || digits(p, 4, &y) || p[4] != '-' || digits(p + 5, 2, &t.month) ||
      p[7] != '-' || digits(p + 8, 2, &t.day) || (p[10] != ' ' && p[10] != 'T') ||
      digits(p + 11, 2, &t.hour) || p[13] != ':' || digits(p + 14, 2, &t.minute) ||
      p[16] != ':' || digits(p + 17, 2, &t.second))
    return HFG_EPARSE;
  t.year = y;
  static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > mdays[t.month - 1] || t.hour > 23 ||
      t.minute > 59 || t.second > 59 ||
      (t.month == 2 && t.day == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
    return HFG_EPARSE;
  size_t i = 19;
  if (i < len && p[i] == '.') { /* 1..6 digits: the milliseconds, the rest cut */
    size_t k = ++i;
    while (i < len && i - k < 6 && p[i] >= '0' && p[i] <= '9') i++;
    if (i == k) return HFG_EPARSE;
    for (size_t d = 0; d < 3; d++) t.milli = t.milli * 10 + (k + d < i ? p[k + d] - '0' : 0);
  }
  int64_t off = 0; /* seconds east of UTC */
  if (i < len && (p[i] == '+' || p[i] == '-')) {
    int sign = p[i] == '-' ? -1 : 1, h, m = 0, sec = 0;
    if (i + 3 > len || digits(p + i + 1, 2, &h)) return HFG_EPARSE;
    i += 3;
    if (i < len && p[i] == ':') {
      if (i + 3 > len || digits(p + i + 1, 2, &m)) return HFG_EPARSE;
      i += 3;
      if (i < len && p[i] == ':') {
        if (i + 3 > len || digits(p + i + 1, 2, &sec)) return HFG_EPARSE;
        i += 3;
      }
    }
    if (h > 18 || m > 59 || sec > 59) return HFG_EPARSE;
    off = sign * ((int64_t)h * 3600 + m * 60 + sec);
  }
  if (i != len) return HFG_EPARSE;
  *ms = hfg_tm_to_millis(&t) - off * 1000;
  return 0;
}

/* Why s is no check value (hfg_db_is_integer is 0): too long, or not a number. */
static const char *not_integer_why(const char *s, size_t len) {
  size_t i = len && s[0] == '-', k = i;
  while (k < len && s[k] >= '0' && s[k] <= '9') k++;
  return k == len && k > i ? "an integer of more than 40 digits (append mode compares check "
                             "values of up to 40)"
                           : "not an integer";
}

/* ---- URI parsing ---- */

static int hexv(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Percent-decoded copy of [p, p+n); in the query part '+' is a space. NULL
 * on a bad escape (*bad set) or out of memory. */
static char *decode(const char *p, size_t n, int plus, int *bad) {
  char *s = hfg_malloc(n + 1);
  if (!s) return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '%') {
      if (i + 2 >= n) {
        hfg_free(s);
        *bad = 1;
        return NULL;
      }
      int x = hexv((unsigned char)p[i + 1]), y = hexv((unsigned char)p[i + 2]);
      if (x < 0 || y < 0 || (x == 0 && y == 0)) {
        hfg_free(s);
        *bad = 1;
        return NULL;
      }
      s[k++] = (char)(x * 16 + y);
      i += 2;
    } else {
      s[k++] = plus && p[i] == '+' ? ' ' : p[i];
    }
  }
  s[k] = '\0';
  return s;
}

static void uri_free(hfg_db_uri *u) {
  hfg_free(u->user);
  hfg_free(u->password);
  hfg_free(u->host);
  hfg_free(u->port);
  hfg_free(u->db);
  hfg_free(u->table);
  hfg_free(u->query);
  for (size_t i = 0; i < u->nparams; i++) {
    hfg_free(u->keys[i]);
    hfg_free(u->vals[i]);
  }
  hfg_free(u->keys);
  hfg_free(u->vals);
  memset(u, 0, sizeof *u);
}

#define PART(dst, p, n, plus)                                   \
  do {                                                          \
    int bad_ = 0;                                               \
    if (!((dst) = decode((p), (n), (plus), &bad_))) {           \
      if (bad_) return hfg_err_set(err, HFG_EINVAL, "%s: bad %%-escape", u->shown); \
      return hfg_err_set(err, HFG_ENOMEM, "out of memory");     \
    }                                                           \
  } while (0)

static int uri_parse(const char *uri, hfg_db_uri *u, hfg_err *err) {
  const char *a, *colon, *at;
  scheme_len(uri, &u->kind);
  userinfo(uri, &a, &colon, &at);
  if (at) {
    const char *ue = colon ? colon : at;
    if (ue > a) PART(u->user, a, (size_t)(ue - a), 0);
    if (colon) PART(u->password, colon + 1, (size_t)(at - colon - 1), 0);
    a = at + 1;
  }
  size_t hl = strcspn(a, "/?#");
  const char *he = a + hl;
  const char *hp = a;
  if (hl && *a == '[') { /* [v6]:port */
    const char *rb = memchr(a, ']', hl);
    if (!rb) return hfg_err_set(err, HFG_EINVAL, "%s: unterminated '[' in the host", u->shown);
    PART(u->host, a + 1, (size_t)(rb - a - 1), 0);
    hp = rb + 1;
    if (hp < he && *hp != ':')
      return hfg_err_set(err, HFG_EINVAL, "%s: bad host", u->shown);
  } else {
    const char *c = memchr(a, ':', hl);
    const char *hend = c ? c : he;
    if (hend > a) PART(u->host, a, (size_t)(hend - a), 0);
    hp = hend;
  }
  if (hp < he && *hp == ':') {
    PART(u->port, hp + 1, (size_t)(he - hp - 1), 0);
    if (!hfg_db_is_integer(u->port, strlen(u->port)) || u->port[0] == '-')
      return hfg_err_set(err, HFG_EINVAL, "%s: port '%s' is not a number", u->shown, u->port);
  }
  const char *p = he;
  if (*p == '/') {
    size_t dl = strcspn(p + 1, "?#");
    if (dl) PART(u->db, p + 1, dl, 0);
    p += 1 + dl;
  }
  if (*p == '#') return hfg_err_set(err, HFG_EINVAL, "%s: a fragment (#) is not allowed", u->shown);
  if (*p == '?') p++;
  while (*p) {
    size_t kl = strcspn(p, "&#");
    const char *eq = memchr(p, '=', kl);
    if (!eq) return hfg_err_set(err, HFG_EINVAL, "%s: parameter '%.*s' has no value", u->shown,
                                (int)kl, p);
    char *k, *v;
    PART(k, p, (size_t)(eq - p), 1);
    int bad = 0;
    v = decode(eq + 1, (size_t)(p + kl - eq - 1), 1, &bad);
    if (!v) {
      hfg_free(k);
      if (bad) return hfg_err_set(err, HFG_EINVAL, "%s: bad %%-escape", u->shown);
      return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    }
    if (!strcmp(k, "table") || !strcmp(k, "query")) {
      char **dst = !strcmp(k, "table") ? &u->table : &u->query;
      hfg_free(k);
      if (*dst || (u->table && dst == &u->query) || (u->query && dst == &u->table)) {
        hfg_free(v);
        return hfg_err_set(err, HFG_EINVAL, "%s: give one table= or one query=", u->shown);
      }
      *dst = v;
    } else {
      char **nk = hfg_realloc(u->keys, (u->nparams + 1) * sizeof *nk);
      if (nk) u->keys = nk;
      char **nv = nk ? hfg_realloc(u->vals, (u->nparams + 1) * sizeof *nv) : NULL;
      if (nv) u->vals = nv;
      if (!nk || !nv) {
        hfg_free(k);
        hfg_free(v);
        return hfg_err_set(err, HFG_ENOMEM, "out of memory");
      }
      u->keys[u->nparams] = k;
      u->vals[u->nparams++] = v;
    }
    p += kl;
    if (*p == '#') return hfg_err_set(err, HFG_EINVAL, "%s: a fragment (#) is not allowed", u->shown);
    if (*p == '&') p++;
  }
  if (!u->table && !u->query)
    return hfg_err_set(err, HFG_EINVAL, "%s: name the rows: ?table=NAME or ?query=SELECT...",
                       u->shown);
  if (u->query) { /* without the statement's own trailing ';' (and blanks), which a derived
                   * table cannot hold: "SELECT * FROM orders;" is the query meant */
    size_t ql = strlen(u->query);
    while (ql && strchr("; \t\r\n", u->query[ql - 1])) ql--;
    u->query[ql] = '\0';
  }
  if ((u->table && !*u->table) || (u->query && !*u->query))
    return hfg_err_set(err, HFG_EINVAL, "%s: empty table= or query=", u->shown);
  if (!u->db) return hfg_err_set(err, HFG_EINVAL, "%s: no database (.../DB?table=...)", u->shown);
  return 0;
}

/* ---- the SELECT ---- */

static int append(char **s, size_t *len, size_t *cap, const char *add) {
  size_t n = strlen(add);
  if (*len + n + 1 > *cap) {
    size_t nc = (*len + n + 1) * 2;
    char *ns = hfg_realloc(*s, nc);
    if (!ns) return -1;
    *s = ns;
    *cap = nc;
  }
  memcpy(*s + *len, add, n + 1);
  *len += n;
  return 0;
}

/* "SELECT <what> FROM " and the rows: table=: each dot-separated part quoted;
 * query=: a derived table; then the incremental filter: "col > last_value",
 * or (nulls) "col IS NULL". */
static char *make_sql(const hfg_dbsrc *s, const char *what, const char *check_column,
                      const char *last_value, int nulls) {
  char *sql = NULL, *q = NULL;
  size_t len = 0, cap = 0;
  int bad = append(&sql, &len, &cap, "SELECT ") || append(&sql, &len, &cap, what) ||
            append(&sql, &len, &cap, " FROM ");
  if (s->uri.table) {
    const char *p = s->uri.table;
    for (;;) {
      size_t n = strcspn(p, ".");
      char part[512];
      snprintf(part, sizeof part, "%.*s", (int)(n < 511 ? n : 511), p);
      if (!(q = s->be->quote_ident(part))) bad = 1;
      bad = bad || append(&sql, &len, &cap, q);
      hfg_free(q);
      q = NULL;
      if (!p[n]) break;
      bad = bad || append(&sql, &len, &cap, ".");
      p += n + 1;
    }
  } else {
    bad = bad || append(&sql, &len, &cap, "(") || append(&sql, &len, &cap, s->uri.query) ||
          append(&sql, &len, &cap, "\n) AS hfg_q");
  }
  if (check_column && last_value) {
    if (!(q = s->be->quote_ident(check_column))) bad = 1;
    bad = bad || append(&sql, &len, &cap, " WHERE ") || append(&sql, &len, &cap, q) ||
          (nulls ? append(&sql, &len, &cap, " IS NULL")
                 : append(&sql, &len, &cap, " > ") || append(&sql, &len, &cap, last_value));
    hfg_free(q);
  }
  if (bad) {
    hfg_free(sql);
    return NULL;
  }
  return sql;
}

/* ---- public ---- */

/* With HFG_DBSRC_CHECK_BACKWARDS: one count in the snapshot that tells both the
 * rows whose check column is NULL (count / 2) and whether any row still holds a
 * value >= last_value (count % 2): "SELECT count(CASE WHEN c IS NULL THEN 1 END) * 2
 * + COALESCE(MAX(CASE WHEN c >= L THEN 1 ELSE 0 END), 0) FROM t". */
static char *backwards_sql(const hfg_dbsrc *s, const char *check_column, const char *last_value) {
  char *q = s->be->quote_ident(check_column), *what = NULL, *sql = NULL;
  size_t n = q ? 2 * strlen(q) + strlen(last_value) + 128 : 0;
  if (q && (what = hfg_malloc(n)))
    snprintf(what, n, "count(CASE WHEN %s IS NULL THEN 1 END) * 2 + COALESCE(MAX(CASE WHEN %s "
             ">= %s THEN 1 ELSE 0 END), 0)", q, q, last_value);
  if (what) sql = make_sql(s, what, NULL, NULL, 0);
  hfg_free(what);
  hfg_free(q);
  return sql;
}

/* "SELECT * FROM <the rows> LIMIT 0": the back end's probe for the check
 * column's type (hfg_db_plan). */
static char *probe_sql(const hfg_dbsrc *s) {
  char *base = make_sql(s, "*", NULL, NULL, 0);
  if (!base) return NULL;
  size_t bl = strlen(base);
  char *p = hfg_malloc(bl + 9);
  if (p) {
    memcpy(p, base, bl);
    memcpy(p + bl, " LIMIT 0", 9);
  }
  hfg_free(base);
  return p;
}

typedef struct plan_ctx {
  hfg_dbsrc *s;
  const char *check_column, *last_value;
  int backwards;
} plan_ctx;

/* hfg_db_plan.make: the SELECT and the count, once the check column's kind is
 * known. A datetime column is compared with last_value (epoch ms) as a UTC
 * datetime literal; PostgreSQL's says +00 (exact for timestamptz; a timestamp
 * ignores the offset: UTC wall clock); MariaDB's has none (its session is in
 * UTC for a TIMESTAMP, a DATETIME is wall clock). */
static int plan_make(void *arg, int kind, char **sql, char **count_sql, hfg_err *err) {
  plan_ctx *c = arg;
  hfg_dbsrc *s = c->s;
  s->check_kind = kind;
  char lit[64];
  const char *bound = c->last_value;
  if (bound && kind != HFG_DB_CHECK_INTEGER) {
    long long v = strtoll(bound, NULL, 10);
    char when[40];
    if (!hfg_db_is_integer(bound, strlen(bound)) || strlen(bound) > 18 || v < 0 ||
        hfg_time_format((int64_t)v, "yyyy-MM-dd HH:mm:ss.SSS", when, sizeof when) < 0)
      return hfg_err_set(err, HFG_EINVAL,
                         "%s: check column '%s' is a datetime: the last value '%.60s' must be "
                         "its epoch milliseconds (0 up to the year 9999)",
                         s->shown, c->check_column, bound);
    snprintf(lit, sizeof lit, "'%s%s'", when, s->be == &hfg_db_pg ? "+00" : "");
    bound = lit;
  }
  *sql = make_sql(s, "*", c->check_column, bound, 0);
  *count_sql = NULL;
  if (*sql && c->check_column && bound)
    *count_sql = c->backwards ? backwards_sql(s, c->check_column, bound)
                              : make_sql(s, "count(*)", c->check_column, bound, 1);
  if (!*sql || (c->check_column && bound && !*count_sql)) {
    hfg_free(*sql);
    *sql = NULL;
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  return 0;
}

int hfg_dbsrc_open(const char *uri, const char *check_column, const char *last_value,
                   volatile sig_atomic_t *cancel, hfg_dbsrc **out, hfg_err *err) {
  return hfg_dbsrc_open_ex(uri, check_column, last_value, 0, cancel, out, err);
}

int hfg_dbsrc_open_ex(const char *uri, const char *check_column, const char *last_value,
                      unsigned flags, volatile sig_atomic_t *cancel, hfg_dbsrc **out,
                      hfg_err *err) {
  *out = NULL;
  hfg_dbsrc *s = hfg_calloc(1, sizeof *s);
  char shown[2048];
  hfg_db_redact(uri, shown, sizeof shown);
  if (!s || !(s->shown = hfg_strdup(shown))) {
    hfg_free(s);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  s->uri.shown = s->shown;
  s->uri.cancel = cancel;
  s->check_idx = -1;
  char *probe = NULL;
  int rc = uri_parse(uri, &s->uri, err);
  if (rc) goto fail;
  s->be = s->uri.kind == 1 ? &hfg_db_pg : &hfg_db_mysql;
  if (last_value && !hfg_db_is_integer(last_value, strlen(last_value))) {
    rc = hfg_err_set(err, HFG_EINVAL, "%s: last value '%.60s' is %s (append mode)", s->shown,
                     last_value, not_integer_why(last_value, strlen(last_value)));
    goto fail;
  }
  /* with a last value, the rows whose check column is NULL are never selected: counted */
  const int backwards = check_column && last_value && (flags & HFG_DBSRC_CHECK_BACKWARDS);
  if (check_column && !(probe = probe_sql(s))) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto fail;
  }
  plan_ctx pc = {s, check_column, last_value, backwards};
  hfg_db_plan plan = {probe, check_column, plan_make, &pc};
  rc = s->be->open(&s->uri, &plan, &s->nulls_skipped, &s->state, &s->names, &s->nnames, err);
  hfg_free(probe);
  if (rc) goto fail;
  if (backwards) {
    int above = (int)(s->nulls_skipped % 2);
    s->nulls_skipped /= 2;
    if (!above) {
      rc = hfg_err_set(err, HFG_EINVAL,
                       "%s: check column '%s' went backwards: no row holds a value at or above "
                       "the last value %s (the table was restored or rewritten, the clock that "
                       "stamps it went back, or every row holding it was deleted): nothing is "
                       "loaded; a full load (no last value) makes the table equal again, and "
                       "--deletes tracks hard deletes", s->shown, check_column, last_value);
      goto fail;
    }
  }
  if (check_column) {
    for (size_t i = 0; i < s->nnames; i++)
      if (!strcmp(s->names[i], check_column)) s->check_idx = (long)i;
    if (s->check_idx < 0) { /* the message starts as cli_is_usage_error knows it: exit 2 */
      char hint[400];
      rc = hfg_err_set(err, HFG_EINVAL, "check column '%s' is not a column of the result of %s%s",
                       check_column, s->shown,
                       hfg_columns_hint(hint, sizeof hint, (const char *const *)s->names,
                                        s->nnames, check_column, strlen(check_column)));
      goto fail;
    }
  }
  *out = s;
  return 0;
fail:
  hfg_dbsrc_free(s);
  return rc;
}

const char *const *hfg_dbsrc_columns(const hfg_dbsrc *s, size_t *n) {
  *n = s->nnames;
  return (const char *const *)s->names;
}

const char *hfg_dbsrc_name(const hfg_dbsrc *s) { return s->shown; }

int hfg_db_int_greater(const char *a, size_t al, const char *b, size_t bl) {
  int an = al && a[0] == '-', bn = bl && b[0] == '-';
  /* the magnitudes without sign and leading zeros; -0 is 0 */
  a += an, al -= (size_t)an, b += bn, bl -= (size_t)bn;
  while (al > 1 && a[0] == '0') a++, al--;
  while (bl > 1 && b[0] == '0') b++, bl--;
  if (al == 1 && a[0] == '0') an = 0;
  if (bl == 1 && b[0] == '0') bn = 0;
  if (an != bn) return bn;
  int cmp = al != bl ? (al > bl ? 1 : -1) : memcmp(a, b, al);
  return an ? cmp < 0 : cmp > 0;
}

static int keep_max(hfg_dbsrc *s, const hfg_field *f, hfg_err *err);

static int note_check(hfg_dbsrc *s, const hfg_field *f, hfg_err *err) {
  if (f->is_null) {
    s->nulls_read++;
    return 0;
  }
  char msbuf[24];
  int64_t ms;
  if (s->check_kind != HFG_DB_CHECK_INTEGER) { /* a datetime: kept as epoch ms */
    if (hfg_db_datetime_ms(f->p, f->len, &ms) || ms < 0)
      return hfg_err_set(err, HFG_EINVAL,
                         "%s row %llu: check column '%s' holds '%.*s', not a datetime from "
                         "1970 on in ISO form (YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]; "
                         "PostgreSQL: DateStyle ISO)",
                         s->shown, (unsigned long long)s->row, s->names[s->check_idx],
                         (int)(f->len > 60 ? 60 : f->len), f->p);
    int n = snprintf(msbuf, sizeof msbuf, "%lld", (long long)ms);
    hfg_field g = {msbuf, (size_t)n, 0};
    f = &g;
    if (s->max && !hfg_db_int_greater(f->p, f->len, s->max, strlen(s->max))) return 0;
    return keep_max(s, f, err);
  }
  if (!hfg_db_is_integer(f->p, f->len))
    return hfg_err_set(err, HFG_EINVAL,
                       "%s row %llu: check column '%s' holds '%.*s', %s (incremental loads need "
                       "an integer column; a timestamp's epoch milliseconds can be selected "
                       "with ?query=, see format-specs/nightly-loads.md)",
                       s->shown, (unsigned long long)s->row, s->names[s->check_idx],
                       (int)(f->len > 60 ? 60 : f->len), f->p, not_integer_why(f->p, f->len));
  if (s->max && !hfg_db_int_greater(f->p, f->len, s->max, strlen(s->max))) return 0;
  return keep_max(s, f, err);
}

static int keep_max(hfg_dbsrc *s, const hfg_field *f, hfg_err *err) {
  if (f->len + 1 > s->max_cap) {
    char *m = hfg_realloc(s->max, 64);
    if (!m) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    s->max = m;
    s->max_cap = 64;
  }
  memcpy(s->max, f->p, f->len);
  s->max[f->len] = '\0';
  return 0;
}

int hfg_dbsrc_next(hfg_dbsrc *s, hfg_record *rec, hfg_err *err) {
  hfg_db_row row;
  memset(&row, 0, sizeof row);
  int rc = s->be->next(s->state, &row, err);
  if (rc == 0 || (rc < 0 && rc != HFG_EPARSE)) return rc;
  s->row++;
  rec->fields = row.fields;
  rec->nfields = row.nfields;
  rec->file = s->shown;
  rec->line = s->row;
  rec->raw = row.raw;
  rec->raw_len = row.raw_len;
  rec->reason = row.reason;
  if (rc == HFG_EPARSE && row.too_long) {
    rec->fields = NULL;
    rec->nfields = 0;
    rec->reason = s->long_reason ? s->long_reason : "record longer than the record limit";
    return rc;
  }
  if (rc == 1 && s->check_idx >= 0 && (size_t)s->check_idx < row.nfields) {
    int crc = note_check(s, &row.fields[s->check_idx], err);
    if (crc) return crc;
  }
  return rc;
}

uint64_t hfg_dbsrc_bytes(const hfg_dbsrc *s) { return s->state ? s->be->bytes(s->state) : 0; }

const char *hfg_dbsrc_check_max(const hfg_dbsrc *s) { return s->max; }

int hfg_dbsrc_set_max_record(hfg_dbsrc *s, size_t max, const char *reason) {
  s->uri.max_row = max;
  hfg_free(s->long_reason);
  s->long_reason = reason ? hfg_strdup(reason) : NULL;
  return reason && !s->long_reason ? HFG_ENOMEM : 0;
}

void hfg_dbsrc_check_nulls(const hfg_dbsrc *s, uint64_t *read, uint64_t *skipped) {
  *read = s->nulls_read;
  *skipped = s->nulls_skipped;
}

void hfg_dbsrc_free(hfg_dbsrc *s) {
  if (!s) return;
  if (s->state) s->be->close(s->state);
  for (size_t i = 0; s->names && i < s->nnames; i++) hfg_free(s->names[i]);
  hfg_free(s->names);
  uri_free(&s->uri);
  hfg_free(s->max);
  hfg_free(s->long_reason);
  hfg_free(s->shown);
  hfg_free(s);
}

/*
 * Dump dialects (contract in record_dialect.h; the rules and their sources in
 * format-specs/dump-dialects.md): the common part, pg-text and pg-csv; mysql
 * is record_dialect_mysql.c.
 *
 * Each parser walks one record byte by byte, unescaping into `scratch`, which
 * is grown to the record's available bytes before anything is written, so
 * field pointers into it stay valid (unescaped bytes are never more than the
 * raw ones). Like the reader's CSV path, a parse that runs off the end of the
 * buffer returns MORE and is redone from the record's first byte after a
 * refill: nothing here keeps state across calls but the per-input line-end
 * kind and the end-of-data flag, which only change when a record is complete
 * (and what hfg_dialect_start read about the input).
 * These formats are not the hot path (CSV/TSV stay in record_reader.c), so
 * clarity wins over SIMD here.
 */
#include "input/record_dialect_int.h"

#include <stdio.h>
#include <string.h>

#include "util/alloc.h"

int hfg_dialect_handles(hfg_input_format f) {
  return f == HFG_INPUT_MYSQL || f == HFG_INPUT_PG_TEXT || f == HFG_INPUT_PG_CSV;
}

/* ---- small helpers ---- */

int hfg_dl_add_field(hfg_dialect *d, const char *p, size_t len, int is_null) {
  if (d->nf == d->fcap) {
    size_t n = d->fcap ? d->fcap * 2 : 16;
    hfg_field *f = hfg_realloc(d->fields, n * sizeof *f);
    if (!f) return HFG_ENOMEM;
    d->fields = f;
    d->fcap = n;
  }
  d->fields[d->nf].p = p;
  d->fields[d->nf].len = len;
  d->fields[d->nf].is_null = is_null;
  d->nf++;
  return 0;
}

static uint64_t count_lf(const char *p, const char *e) {
  uint64_t n = 0;
  while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
    n++;
    p++;
  }
  return n;
}

int hfg_dl_record_done(hfg_dialect *d, const char *s, const char *raw_end, const char *next,
                       hfg_dialect_step *st) {
  st->fields = d->fields;
  st->nfields = d->nf;
  st->raw_len = (size_t)(raw_end - s);
  st->consumed = (size_t)(next - s);
  st->lines = count_lf(s, next);
  st->reason = NULL;
  return 1;
}

/* A reject whose raw bytes are [s, raw_end) and whose next record starts at next. */
int hfg_dl_reject_span(hfg_dialect *d, const char *s, const char *raw_end, const char *next,
                       hfg_dialect_step *st) {
  hfg_dl_record_done(d, s, raw_end, next, st);
  d->nf = 0;
  st->nfields = 0;
  st->fields = d->fields;
  st->reason = d->reason;
  return HFG_EPARSE;
}

/* 1 when t[0..tlen) starts at p, 0 when it does not, -1 when [p, e) is a
 * proper prefix of it and more input may follow. */
int hfg_dl_match_at(const char *p, const char *e, const char *t, size_t tlen, int eof) {
  size_t have = (size_t)(e - p);
  if (have >= tlen) return memcmp(p, t, tlen) == 0;
  if (memcmp(p, t, have) != 0) return 0;
  return eof ? 0 : -1;
}

/* A syntax error found at `at`: the reject runs to the end of at's line
 * (`term`, or LF), reading resumes after it. */
int hfg_dl_reject_line(hfg_dialect *d, const char *s, const char *e, int eof, const char *at,
                       hfg_dialect_step *st) {
  const char *t = d->fmt == HFG_INPUT_MYSQL ? d->lterm : "\n";
  size_t tl = d->fmt == HFG_INPUT_MYSQL ? d->lterm_len : 1;
  const char *q = at;
  for (;;) {
    q = memchr(q, (unsigned char)t[0], (size_t)(e - q));
    if (!q) {
      if (!eof) return HFG_DIALECT_MORE;
      return hfg_dl_reject_span(d, s, e, e, st);
    }
    int m = hfg_dl_match_at(q, e, t, tl, eof);
    if (m < 0) return HFG_DIALECT_MORE;
    if (m) break;
    q++;
  }
  const char *raw_end = q;
  if (d->fmt != HFG_INPUT_MYSQL && raw_end > s && raw_end[-1] == '\r') raw_end--;
  return hfg_dl_reject_span(d, s, raw_end, q + tl, st);
}

/* A reject that runs to the end of the input (an unterminated construct). */
int hfg_dl_reject_rest(hfg_dialect *d, const char *s, const char *e, hfg_dialect_step *st) {
  const char *raw_end = e;
  if (d->fmt != HFG_INPUT_MYSQL) {
    if (raw_end > s && raw_end[-1] == '\n') raw_end--;
    if (raw_end > s && raw_end[-1] == '\r') raw_end--;
  }
  return hfg_dl_reject_span(d, s, raw_end, e, st);
}

int hfg_dl_raw_is_null(const hfg_dialect *d, const char *p, size_t len) {
  return len == d->null_len && memcmp(p, d->null_s, len) == 0;
}

/* ---- PostgreSQL: line ends and the end-of-data marker ---- */

/* The line end at p (an LF, or a CR): 1 found (*next set, *raw_end set),
 * 0 a CR that is no line end or a line end of the other kind (an error,
 * reason set), -1 need more input. */
static int pg_line_end(hfg_dialect *d, const char *p, const char *e, int eof, const char **raw_end,
                       const char **next, const char *what) {
  if (*p == '\n') {
    if (d->eol == EOL_CRLF) {
      snprintf(d->reason, sizeof d->reason, "%s newline found in data (the input's lines end in CR LF)",
               what);
      return 0;
    }
    d->eol_seen = EOL_LF;
    *raw_end = p;
    *next = p + 1;
    return 1;
  }
  /* *p == '\r' */
  if (p + 1 == e && !eof) return -1;
  if (p + 1 < e && p[1] == '\n' && d->eol != EOL_LF) {
    d->eol_seen = EOL_CRLF;
    *raw_end = p;
    *next = p + 2;
    return 1;
  }
  snprintf(d->reason, sizeof d->reason, "%s carriage return found in data", what);
  return 0;
}

/* At a record's start: 1 when the line is exactly the end-of-data marker \.
 * (then *next is set), 0 when not, -1 need more input. */
static int pg_end_marker(const char *s, const char *e, int eof, const char **next) {
  size_t have = (size_t)(e - s);
  if (have < 2) return (!eof && (have == 0 || s[0] == '\\')) ? -1 : 0;
  if (s[0] != '\\' || s[1] != '.') return 0;
  if (have == 2) {
    if (!eof) return -1;
    *next = e;
    return 1;
  }
  if (s[2] == '\n') {
    *next = s + 3;
    return 1;
  }
  if (s[2] == '\r') {
    if (have == 3) {
      if (!eof) return -1;
      return 0;
    }
    if (s[3] == '\n') {
      *next = s + 4;
      return 1;
    }
  }
  return 0;
}

/* pg_line_end refused the byte at p: the reject ends with p's line. */
static int reject_line_end(hfg_dialect *d, const char *s, const char *e, int eof, const char *p,
                           hfg_dialect_step *st) {
  char why[128];
  snprintf(why, sizeof why, "%.100s", d->reason);
  snprintf(d->reason, sizeof d->reason, "field %zu: %s", d->nf + 1, why);
  if (*p == '\n') return hfg_dl_reject_span(d, s, p > s && p[-1] == '\r' ? p - 1 : p, p + 1, st);
  return hfg_dl_reject_line(d, s, e, eof, p + 1, st);
}

/* ---- pg-text: COPY text format ---- */

static int is_oct(int c) { return c >= '0' && c <= '7'; }
static int hex_val(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static int pg_text_field(hfg_dialect *d, const char *f0, const char *fe, size_t fs, size_t su) {
  int is_null = hfg_dl_raw_is_null(d, f0, (size_t)(fe - f0));
  return hfg_dl_add_field(d, d->scratch + fs, is_null ? 0 : su - fs, is_null);
}

static int parse_pg_text(hfg_dialect *d, const char *s, const char *e, int eof,
                         hfg_dialect_step *st) {
  char *out = d->scratch;
  size_t su = 0;
  const char *p = s;
  const unsigned char delim = d->delim;
  d->nf = 0;
  for (;;) {
    const char *f0 = p;
    size_t fs = su;
    for (;;) {
      if (p == e) {
        if (!eof) return HFG_DIALECT_MORE;
        if (pg_text_field(d, f0, p, fs, su)) return HFG_ENOMEM;
        return hfg_dl_record_done(d, s, e, e, st);
      }
      unsigned char c = (unsigned char)*p;
      if (c == delim) {
        if (pg_text_field(d, f0, p, fs, su)) return HFG_ENOMEM;
        p++;
        break;
      }
      if (c == '\n' || c == '\r') {
        const char *raw_end, *next;
        int r = pg_line_end(d, p, e, eof, &raw_end, &next, "literal");
        if (r < 0) return HFG_DIALECT_MORE;
        if (r == 0) return reject_line_end(d, s, e, eof, p, st);
        if (pg_text_field(d, f0, p, fs, su)) return HFG_ENOMEM;
        return hfg_dl_record_done(d, s, raw_end, next, st);
      }
      if (c != '\\') {
        out[su++] = (char)c;
        p++;
        continue;
      }
      if (p + 1 == e) {
        if (!eof) return HFG_DIALECT_MORE;
        snprintf(d->reason, sizeof d->reason, "field %zu: backslash at the end of the input",
                 d->nf + 1);
        return hfg_dl_reject_rest(d, s, e, st);
      }
      int n = (unsigned char)p[1];
      p += 2;
      if (is_oct(n)) {
        int v = n - '0';
        for (int k = 0; k < 2; k++) {
          if (p == e && !eof) return HFG_DIALECT_MORE;
          if (p == e || !is_oct((unsigned char)*p)) break;
          v = (v << 3) + (*p++ - '0');
        }
        out[su++] = (char)(v & 0xff);
        continue;
      }
      switch (n) {
        case 'x': {
          if (p == e && !eof) return HFG_DIALECT_MORE;
          int h = p < e ? hex_val((unsigned char)*p) : -1;
          if (h < 0) { /* \x without a hex digit: the x itself */
            out[su++] = 'x';
            break;
          }
          p++;
          if (p == e && !eof) return HFG_DIALECT_MORE;
          int h2 = p < e ? hex_val((unsigned char)*p) : -1;
          if (h2 >= 0) {
            h = (h << 4) + h2;
            p++;
          }
          out[su++] = (char)h;
          break;
        }
        case 'b': out[su++] = '\b'; break;
        case 'f': out[su++] = '\f'; break;
        case 'n': out[su++] = '\n'; break;
        case 'r': out[su++] = '\r'; break;
        case 't': out[su++] = '\t'; break;
        case 'v': out[su++] = '\v'; break;
        case '.':
          snprintf(d->reason, sizeof d->reason,
                   "field %zu: end-of-data marker \\. inside a line", d->nf + 1);
          return hfg_dl_reject_line(d, s, e, eof, p - 1, st);
        default: out[su++] = (char)n; break; /* \\, \<delimiter>, an escaped LF, ... */
      }
    }
  }
}

/* ---- pg-csv: COPY (FORMAT csv) ---- */

static int parse_pg_csv(hfg_dialect *d, const char *s, const char *e, int eof,
                        hfg_dialect_step *st) {
  char *out = d->scratch;
  size_t su = 0;
  const char *p = s;
  const unsigned char delim = d->delim, quote = (unsigned char)d->encl, esc = (unsigned char)d->esc;
  d->nf = 0;
  for (;;) {
    const char *f0 = p;
    size_t fs = su;
    int saw_quote = 0;
    for (;;) {
      const char *fe = p;
      int last = 0;
      const char *raw_end = NULL, *next = NULL;
      if (p == e) {
        if (!eof) return HFG_DIALECT_MORE;
        last = 1;
        raw_end = next = e;
      } else {
        unsigned char c = (unsigned char)*p;
        if (c == '\n' || c == '\r') {
          int r = pg_line_end(d, p, e, eof, &raw_end, &next, "unquoted");
          if (r < 0) return HFG_DIALECT_MORE;
          if (r == 0) return reject_line_end(d, s, e, eof, p, st);
          last = 1;
        } else if (c == delim) {
          p++;
        } else if (c == quote) {
          saw_quote = 1;
          p++;
          for (;;) { /* in quotes */
            if (p == e) {
              if (!eof) return HFG_DIALECT_MORE;
              snprintf(d->reason, sizeof d->reason, "field %zu: unterminated CSV quoted field",
                       d->nf + 1);
              return hfg_dl_reject_rest(d, s, e, st);
            }
            unsigned char q = (unsigned char)*p;
            if (q == esc) {
              if (p + 1 == e && !eof) return HFG_DIALECT_MORE;
              if (p + 1 < e && ((unsigned char)p[1] == esc || (unsigned char)p[1] == quote)) {
                out[su++] = p[1];
                p += 2;
                continue;
              }
            }
            p++;
            if (q == quote) break;
            out[su++] = (char)q;
          }
          continue;
        } else {
          out[su++] = (char)c;
          p++;
          continue;
        }
      }
      int is_null = !saw_quote && hfg_dl_raw_is_null(d, f0, (size_t)(fe - f0));
      if (hfg_dl_add_field(d, out + fs, is_null ? 0 : su - fs, is_null)) return HFG_ENOMEM;
      if (last) return hfg_dl_record_done(d, s, raw_end, next, st);
      break; /* after a delimiter */
    }
  }
}

/* ---- public ---- */

static void reset(hfg_dialect *d) {
  d->eol = d->eol_seen = EOL_UNKNOWN;
  d->ended = 0;
  d->at_start = d->sniff;
  d->header_pending = d->has_header;
}

int hfg_dialect_start(hfg_dialect *d, const char *path, const char *name, size_t expected,
                      hfg_err *err) {
  reset(d);
  d->name = name;
  hfg_sql_schema_free(d->schema);
  d->schema = NULL;
  return d->fmt == HFG_INPUT_MYSQL ? hfg_dl_mysql_start(d, path, name, expected, err) : 0;
}

void hfg_dialect_accept(hfg_dialect *d) { d->eol = d->eol_seen; }

static int parse_record(hfg_dialect *d, const char *s, const char *e, int eof,
                        hfg_dialect_step *st);

int hfg_dialect_parse(hfg_dialect *d, const char *s, const char *e, int eof, hfg_dialect_step *st) {
  size_t need = (size_t)(e - s) + 1;
  if (d->scap < need) {
    size_t n = d->scap ? d->scap : 4096;
    while (n < need) n *= 2;
    char *ns = hfg_realloc(d->scratch, n);
    if (!ns) return HFG_ENOMEM;
    d->scratch = ns;
    d->scap = n;
  }
  memset(st, 0, sizeof *st);
  d->eol_seen = d->eol;
  if (d->at_start) { /* an SQL script's first line is refused, naming what to give instead */
    size_t have = (size_t)(e - s);
    if (have < HFG_SQL_PEEK && !eof) return HFG_DIALECT_MORE;
    if (hfg_sql_candidate(s, have)) {
      if (have < d->window && !eof) return HFG_DIALECT_MORE;
      size_t n = have < d->window ? have : d->window;
      if (hfg_sql_script_why(s, n, eof && n == have, d->fmt, d->name, d->reason, sizeof d->reason)) {
        d->nf = 0;
        int rc = hfg_dl_reject_line(d, s, e, eof, s, st);
        if (rc != HFG_DIALECT_MORE) d->at_start = d->header_pending = 0;
        return rc;
      }
    }
  }
  int rc = parse_record(d, s, e, eof, st);
  if (rc != HFG_DIALECT_MORE && rc != HFG_ENOMEM) d->at_start = d->header_pending = 0;
  return rc;
}

/* hfg_dialect_parse past the input-start check */
static int parse_record(hfg_dialect *d, const char *s, const char *e, int eof,
                        hfg_dialect_step *st) {
  if (d->fmt != HFG_INPUT_MYSQL) {
    const char *next;
    int m = pg_end_marker(s, e, eof, &next);
    if (m < 0) return HFG_DIALECT_MORE;
    if (m) {
      d->ended = 1;
      st->consumed = (size_t)(next - s);
      st->lines = count_lf(s, next);
      return HFG_DIALECT_SKIP;
    }
  }
  int rc;
  switch (d->fmt) {
    case HFG_INPUT_MYSQL: rc = hfg_dl_parse_mysql(d, s, e, eof, st); break;
    case HFG_INPUT_PG_TEXT: rc = parse_pg_text(d, s, e, eof, st); break;
    default: rc = parse_pg_csv(d, s, e, eof, st); break;
  }
  if (d->ended && (rc == 1 || rc == HFG_EPARSE)) {
    if (rc == 1 && st->raw_len == 0) { /* a blank line after the marker */
      d->nf = 0;
      return HFG_DIALECT_SKIP;
    }
    snprintf(d->reason, sizeof d->reason, "data after the end-of-data marker \\.");
    d->nf = 0;
    st->nfields = 0;
    st->reason = d->reason;
    return HFG_EPARSE;
  }
  return rc;
}

static int bad_opt(char *errmsg, size_t errlen, const char *what) {
  if (errmsg && errlen) snprintf(errmsg, errlen, "%s", what);
  return HFG_EINVAL;
}

/* A one-byte option: NULL → dflt, "" → -1 (none), one byte → it. -2 bad. */
static int one_byte(const char *v, int dflt) {
  if (!v) return dflt;
  if (!v[0]) return -1;
  if (v[1]) return -2;
  return (unsigned char)v[0];
}

int hfg_dialect_new(const hfg_input_options *o, hfg_dialect **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (!hfg_dialect_handles(o->format)) return bad_opt(errmsg, errlen, "not a dump dialect");
  hfg_dialect *d = hfg_calloc(1, sizeof *d);
  if (!d) return HFG_ENOMEM;
  d->fmt = o->format; /* at_start 0 until a reset: a database row is never an input's start */
  d->has_header = o->has_header;
  /* The look at an input's start (record_sql.h) may ask for more input than
   * the first record holds; more than the record limit would make the reader
   * reject the record as overlong: no look below HFG_SQL_PEEK, and a window
   * no larger than the limit. */
  d->sniff = !o->max_record_bytes || o->max_record_bytes >= HFG_SQL_PEEK;
  d->window = o->max_record_bytes && o->max_record_bytes < HFG_SQL_WINDOW ? o->max_record_bytes
                                                                          : HFG_SQL_WINDOW;
  const char *bad = NULL;
  if (o->format == HFG_INPUT_MYSQL) {
    char dl[2] = {(char)(o->delimiter >= 0 ? o->delimiter : '\t'), 0};
    const char *ft = o->fields_terminated_by ? o->fields_terminated_by : dl;
    const char *lt = o->lines_terminated_by ? o->lines_terminated_by : "\n";
    d->encl = one_byte(o->fields_enclosed_by, -1);
    d->esc = one_byte(o->fields_escaped_by, '\\');
    if (!ft[0]) bad = "mysql: an empty FIELDS TERMINATED BY (fixed-width rows) is not supported";
    else if (!lt[0]) bad = "mysql: an empty LINES TERMINATED BY is not supported";
    else if (!strcmp(ft, lt)) bad = "mysql: FIELDS and LINES TERMINATED BY must differ";
    else if (d->encl == -2) bad = "mysql: FIELDS ENCLOSED BY takes one byte or ''";
    else if (d->esc == -2) bad = "mysql: FIELDS ESCAPED BY takes one byte or ''";
    else if (!(d->fterm = hfg_strdup(ft)) || !(d->lterm = hfg_strdup(lt))) goto nomem;
    if (!bad) {
      d->fterm_len = strlen(ft);
      d->lterm_len = strlen(lt);
    }
  } else {
    int dflt = o->format == HFG_INPUT_PG_CSV ? ',' : '\t';
    int delim = o->delimiter >= 0 ? o->delimiter : dflt;
    d->delim = (unsigned char)delim;
    if (o->fields_terminated_by || o->lines_terminated_by)
      bad = "--fields-terminated-by and --lines-terminated-by are mysql options (PostgreSQL: --delimiter)";
    else if (delim > 255 || delim == '\n' || delim == '\r')
      bad = "delimiter must be one byte other than CR and LF";
    else if (o->format == HFG_INPUT_PG_TEXT && (delim == '\\' || (delim >= 'a' && delim <= 'z') ||
                                                (delim >= '0' && delim <= '9') || delim == '.'))
      bad = "pg-text: the delimiter cannot be a backslash, a lowercase letter, a digit or '.'";
    else if (o->format == HFG_INPUT_PG_TEXT && (o->fields_enclosed_by || o->fields_escaped_by))
      bad = "pg-text has no quote or escape options";
    if (!bad && o->format == HFG_INPUT_PG_CSV) {
      d->encl = one_byte(o->fields_enclosed_by, '"');
      d->esc = one_byte(o->fields_escaped_by, d->encl);
      if (d->encl < 0 || d->esc < 0) bad = "pg-csv: the quote and the escape are one byte each";
      else if (d->encl == delim) bad = "pg-csv: the quote must differ from the delimiter";
    }
  }
  if (!bad) {
    const char *ns = o->null_string;
    d->user_null = ns != NULL;
    if (!ns) ns = o->format == HFG_INPUT_PG_TEXT ? "\\N" : "";
    if (strchr(ns, '\n') || strchr(ns, '\r')) bad = "the NULL string cannot hold CR or LF";
    else if (!(d->null_s = hfg_strdup(ns))) goto nomem;
    else d->null_len = strlen(ns);
  }
  if (bad) {
    hfg_dialect_free(d);
    return bad_opt(errmsg, errlen, bad);
  }
  *out = d;
  return 0;
nomem:
  hfg_dialect_free(d);
  return HFG_ENOMEM;
}

void hfg_dialect_free(hfg_dialect *d) {
  if (!d) return;
  hfg_free(d->fterm);
  hfg_free(d->lterm);
  hfg_free(d->null_s);
  hfg_free(d->fields);
  hfg_free(d->scratch);
  hfg_sql_schema_free(d->schema);
  hfg_free(d);
}

int hfg_dialect_null_key(const hfg_scheme *s, const hfg_field *fields, size_t nfields, char *why,
                         size_t whylen) {
  size_t n = hfg_scheme_column_count(s);
  if (n > nfields) n = nfields;
  for (size_t i = 0; i < n; i++)
    if (fields[i].is_null && hfg_scheme_uses_column(s, i)) {
      if (why && whylen) snprintf(why, whylen, "key column '%s' is NULL", hfg_scheme_column_name(s, i));
      return 1;
    }
  return 0;
}

/*
 * Dump dialects: mysql, SELECT ... INTO OUTFILE / mysqldump --tab / LOAD DATA
 * (contract in record_dialect.h; the rules and their sources in
 * format-specs/dump-dialects.md). The common part is record_dialect.c.
 *
 * Besides LOAD DATA's reading, the bytes the server's writer never writes
 * reject the record: an escape sequence it never writes, \N inside a value,
 * a raw NUL beside escapes in one field. They are what a BIT column's value
 * leaves in the dump, which the server writes unescaped; with the input's
 * mysqldump --tab TABLE.sql beside it (record_sql.h), BIT columns are read
 * as the bytes they are instead.
 */
#include <stdio.h>
#include <string.h>

#include "input/record_dialect_int.h"

static char mysql_unescape(unsigned char c, int *found_null) {
  switch (c) {
    case 'n': return '\n';
    case 't': return '\t';
    case 'r': return '\r';
    case 'b': return '\b';
    case '0': return '\0';
    case 'Z': return '\032';
    case 'N': *found_null = 1; return 'N';
    default: return (char)c;
  }
}

/* What a reject of bytes the server wrote unescaped says to do. */
#define UNESCAPED_FIX                                                                          \
  "bytes the server wrote unescaped, as MySQL and MariaDB write BIT columns? Export such a "   \
  "column as col+0 or HEX(col), dump with mysqldump --tab (whose TABLE.sql beside TABLE.txt " \
  "names the BIT columns: read as their bytes), or read the table from the server "            \
  "(mysql://...)"

enum { BAD_ESCAPE, BAD_N, BAD_NUL };

/* The record is rejected once parsed (its bytes end where they would have);
 * the first reason holds. c: the byte after the escape (BAD_ESCAPE). */
static void mysql_bad(hfg_dialect *d, int why, unsigned char c) {
  if (d->bad) return;
  d->bad = 1;
  char seq[24];
  if (c > 0x20 && c < 0x7f) snprintf(seq, sizeof seq, "%c%c", d->esc, c);
  else snprintf(seq, sizeof seq, "%c + byte 0x%02x", d->esc, c);
  if (why == BAD_ESCAPE)
    snprintf(d->reason, sizeof d->reason, "field %zu: %s is no escape sequence MySQL writes: %s",
             d->nf + 1, seq, UNESCAPED_FIX);
  else if (why == BAD_N)
    snprintf(d->reason, sizeof d->reason,
             "field %zu: %cN inside a value (MySQL writes it only for a NULL, as the whole "
             "field): %s", d->nf + 1, d->esc, UNESCAPED_FIX);
  else
    snprintf(d->reason, sizeof d->reason,
             "field %zu: a raw NUL byte and escape sequences in one value (MySQL writes NUL as "
             "%c0 in the values it escapes): %s", d->nf + 1, d->esc, UNESCAPED_FIX);
}

/* 1 when the writer (or another LOAD DATA-compatible one: the LOAD DATA
 * letters) writes escape + n, 0 when it never does, -1 when that depends on
 * the byte after, not yet read. p: the escape. \N is judged where its field ends. */
static int mysql_escape_ok(const hfg_dialect *d, unsigned char n, const char *p, const char *e,
                           int eof) {
  if (n == d->esc || n == 'N' || (n && strchr("0bnrtZ", n)) || n == (unsigned char)d->fterm[0] ||
      n == (unsigned char)d->lterm[0] || (d->encl >= 0 && n == d->encl))
    return 1;
  /* a multi-byte character set's lead byte before a byte that needs an escape (big5, sjis, ...) */
  if (n < 0x80) return 0;
  if (p + 2 == e) return eof ? 0 : -1;
  return (unsigned char)p[2] == d->esc;
}

/* Ends the field [f0, fe) raw, [out+fs, out+su) unescaped. */
static int mysql_field(hfg_dialect *d, const char *f0, const char *fe, size_t fs, size_t su,
                       int enclosed, int found_null) {
  const char *v = d->scratch + fs;
  size_t n = su - fs;
  int is_null;
  if (found_null && n != 1) mysql_bad(d, BAD_N, 0);
  if (d->user_null)
    is_null = !enclosed && hfg_dl_raw_is_null(d, f0, (size_t)(fe - f0));
  else
    is_null = (n == 1 && found_null) ||
              (!enclosed && (d->encl >= 0 || d->esc < 0) && n == 4 && memcmp(v, "NULL", 4) == 0);
  if (d->schema && d->nf < d->schema->ncols && d->schema->numeric[d->nf] && !is_null)
    d->encl_mode = enclosed ? 1 : -1;
  return hfg_dl_add_field(d, v, is_null ? 0 : n, is_null);
}

/* The record [s, raw_end) parsed, the next one at next: a record, or its reject. */
static int mysql_done(hfg_dialect *d, const char *s, const char *raw_end, const char *next,
                      hfg_dialect_step *st) {
  if (d->bad) return hfg_dl_reject_span(d, s, raw_end, next, st);
  return hfg_dl_record_done(d, s, raw_end, next, st);
}

/* What starts off bytes after p: 1 the field terminator, 2 the line
 * terminator, 3 the input's end, 0 none of them, -1 more input is needed. */
static int term_after(const hfg_dialect *d, const char *p, size_t off, const char *e, int eof) {
  size_t have = (size_t)(e - p);
  if (off >= have) return off > have ? (eof ? 0 : -1) : (eof ? 3 : -1);
  int m = hfg_dl_match_at(p + off, e, d->lterm, d->lterm_len, eof);
  if (m) return m < 0 ? -1 : 2;
  m = hfg_dl_match_at(p + off, e, d->fterm, d->fterm_len, eof);
  return m < 0 ? -1 : m;
}

/* A BIT(n) column's field at *pp (the input's TABLE.sql names it): the
 * server writes its (n+7)/8 bytes as they are, never escaped, enclosed when
 * every field is (ENCLOSED BY); NULL as the NULL marker. Adds the field at
 * out + *su. 0 with *pp after its field terminator and *raw_end NULL, or with
 * *raw_end and *next set at the record's end; MORE, ENOMEM, or a reject. */
static int bit_field(hfg_dialect *d, const char *s, const char *e, int eof, size_t *su,
                     const char **pp, const char **raw_end, const char **next,
                     hfg_dialect_step *st) {
  const hfg_sql_schema *sc = d->schema;
  const size_t col = d->nf, k = ((size_t)sc->bits[col] + 7) / 8;
  const char *p = *pp;
  const char tok2[2] = {(char)d->esc, 'N'};
  const char *tok = d->user_null ? d->null_s : d->esc >= 0 ? tok2 : "NULL";
  const size_t tl = d->user_null ? d->null_len : d->esc >= 0 ? 2 : 4;
  int t_null = 0, t_plain, t_encl = 0;
  if (!sc->not_null[col]) { /* a NULL; a nullable BIT value of the marker's bytes reads so too */
    int m = hfg_dl_match_at(p, e, tok, tl, eof);
    if (m < 0 || (m && (t_null = term_after(d, p, tl, e, eof)) < 0)) return HFG_DIALECT_MORE;
  }
  if ((t_plain = term_after(d, p, k, e, eof)) < 0) return HFG_DIALECT_MORE;
  if (d->encl >= 0 && p < e && (unsigned char)*p == d->encl) {
    if ((size_t)(e - p) <= k + 1) {
      if (!eof) return HFG_DIALECT_MORE;
    } else if ((unsigned char)p[k + 1] == d->encl &&
               (t_encl = term_after(d, p, k + 2, e, eof)) < 0) {
      return HFG_DIALECT_MORE;
    }
  }
  const char *v = p, *after;
  int t;
  if (t_null) {
    after = p + tl;
    t = t_null;
  } else if (t_plain && (!t_encl || d->encl_mode < 0)) {
    after = p + k;
    t = t_plain;
    d->encl_mode = -1;
  } else if (t_encl && (!t_plain || d->encl_mode > 0)) {
    v = p + 1;
    after = p + k + 2;
    t = t_encl;
    d->encl_mode = 1;
  } else {
    snprintf(d->reason, sizeof d->reason,
             t_plain ? "field %zu: BIT(%d) column %.80s: its %zu byte%s (the server writes BIT "
                       "values unescaped, as their bytes) may be enclosed or not here; export it "
                       "as col+0 or HEX(col)"
                     : "field %zu: BIT(%d) column %.80s: no field or line terminator after its "
                       "%zu byte%s (the server writes BIT values unescaped, as their bytes)",
             col + 1, sc->bits[col], sc->names[col], k, k == 1 ? "" : "s");
    d->nf = 0;
    return hfg_dl_reject_line(d, s, e, eof, p, st);
  }
  if (t_null) {
    if (hfg_dl_add_field(d, d->scratch + *su, 0, 1)) return HFG_ENOMEM;
  } else {
    memcpy(d->scratch + *su, v, k);
    if (hfg_dl_add_field(d, d->scratch + *su, k, 0)) return HFG_ENOMEM;
    *su += k;
  }
  *raw_end = NULL;
  if (t == 1) *pp = after + d->fterm_len;
  else *raw_end = after, *next = t == 2 ? after + d->lterm_len : after;
  return 0;
}

int hfg_dl_parse_mysql(hfg_dialect *d, const char *s, const char *e, int eof,
                       hfg_dialect_step *st) {
  char *out = d->scratch;
  size_t su = 0;
  const char *p = s;
  const unsigned char ft0 = (unsigned char)d->fterm[0], lt0 = (unsigned char)d->lterm[0];
  d->nf = 0;
  d->bad = 0;
  d->encl_mode = 0;
  for (;;) { /* at the first byte of a field */
    const char *f0 = p;
    size_t fs = su;
    int enclosed = 0, found_null = 0, escapes = 0, nul = 0;
    if (p == e && !eof) return HFG_DIALECT_MORE;
    if (d->schema && !d->header_pending && d->nf < d->schema->ncols && d->schema->bits[d->nf]) {
      const char *raw_end = NULL, *next = NULL;
      int rc = bit_field(d, s, e, eof, &su, &p, &raw_end, &next, st);
      if (rc) return rc;
      if (raw_end) return mysql_done(d, s, raw_end, next, st);
      continue;
    }
    if (p < e && d->encl >= 0 && (unsigned char)*p == d->encl) {
      enclosed = 1;
      p++;
    }
    for (;;) {
      if (p == e) {
        if (!eof) return HFG_DIALECT_MORE;
        if (enclosed) {
          snprintf(d->reason, sizeof d->reason, "field %zu: unterminated enclosed field",
                   d->nf + 1);
          return hfg_dl_reject_rest(d, s, e, st);
        }
        if (mysql_field(d, f0, p, fs, su, 0, found_null)) return HFG_ENOMEM;
        return mysql_done(d, s, e, e, st); /* the last line, without its terminator */
      }
      unsigned char c = (unsigned char)*p;
      if (d->esc >= 0 && c == d->esc) {
        if (p + 1 == e) {
          if (!eof) return HFG_DIALECT_MORE;
          snprintf(d->reason, sizeof d->reason,
                   "field %zu: escape character '%c' at the end of the input", d->nf + 1, c);
          return hfg_dl_reject_rest(d, s, e, st);
        }
        unsigned char n = (unsigned char)p[1];
        if (d->esc != d->encl || n == d->esc) {
          int ok = mysql_escape_ok(d, n, p, e, eof);
          if (ok < 0) return HFG_DIALECT_MORE;
          if (!ok) mysql_bad(d, BAD_ESCAPE, n);
          if (nul) mysql_bad(d, BAD_NUL, 0);
          escapes = 1;
          out[su++] = mysql_unescape(n, &found_null);
          p += 2;
          continue;
        }
        /* escape == enclosure and not doubled: it is the enclosure byte */
      }
      if (enclosed) {
        if (c == d->encl) {
          const char *q = p + 1;
          if (q == e && !eof) return HFG_DIALECT_MORE;
          if (q < e && (unsigned char)*q == d->encl) { /* doubled */
            out[su++] = (char)c;
            p += 2;
            continue;
          }
          if (q == e) { /* closing enclosure at the end of the input */
            if (mysql_field(d, f0, q, fs, su, 1, found_null)) return HFG_ENOMEM;
            return mysql_done(d, s, e, e, st);
          }
          int m = hfg_dl_match_at(q, e, d->lterm, d->lterm_len, eof);
          if (m < 0) return HFG_DIALECT_MORE;
          if (m) {
            if (mysql_field(d, f0, q, fs, su, 1, found_null)) return HFG_ENOMEM;
            return mysql_done(d, s, q, q + d->lterm_len, st);
          }
          m = hfg_dl_match_at(q, e, d->fterm, d->fterm_len, eof);
          if (m < 0) return HFG_DIALECT_MORE;
          if (m) {
            if (mysql_field(d, f0, q, fs, su, 1, found_null)) return HFG_ENOMEM;
            p = q + d->fterm_len;
            break;
          }
          /* an enclosure byte inside the value: data (LOAD DATA's reading) */
        }
        if (!c && (nul = 1) && escapes) mysql_bad(d, BAD_NUL, 0);
        out[su++] = (char)c;
        p++;
        continue;
      }
      if (c == lt0) {
        int m = hfg_dl_match_at(p, e, d->lterm, d->lterm_len, eof);
        if (m < 0) return HFG_DIALECT_MORE;
        if (m) {
          if (mysql_field(d, f0, p, fs, su, 0, found_null)) return HFG_ENOMEM;
          return mysql_done(d, s, p, p + d->lterm_len, st);
        }
      }
      if (c == ft0) {
        int m = hfg_dl_match_at(p, e, d->fterm, d->fterm_len, eof);
        if (m < 0) return HFG_DIALECT_MORE;
        if (m) {
          if (mysql_field(d, f0, p, fs, su, 0, found_null)) return HFG_ENOMEM;
          p += d->fterm_len;
          break;
        }
      }
      if (!c && (nul = 1) && escapes) mysql_bad(d, BAD_NUL, 0);
      out[su++] = (char)c;
      p++;
    }
  }
}

/* The mysql part of hfg_dialect_start: the input's TABLE.sql, when it has BIT columns. */
int hfg_dl_mysql_start(hfg_dialect *d, const char *path, const char *name, size_t expected,
                       hfg_err *err) {
  int rc = hfg_sql_tab_schema(path, &d->schema, err);
  if (rc) {
    hfg_err_prefix(err, "%s: reading the TABLE.sql beside it (mysqldump --tab's schema)", name);
    return rc;
  }
  if (d->schema && !d->schema->nbit) { /* no BIT column: the rows read as any dump's */
    hfg_sql_schema_free(d->schema);
    d->schema = NULL;
  }
  if (d->schema && expected && expected != d->schema->ncols)
    return hfg_err_set(err, HFG_EINVAL,
                       "%s: table %s of %s beside it (mysqldump --tab's schema) has %zu "
                       "columns, the rows are read as %zu: with BIT columns (the server writes "
                       "their values unescaped) their places matter; give its columns to "
                       "--columns, or move the .sql away if it is not this table's",
                       name, d->schema->table, d->schema->path, d->schema->ncols, expected);
  return 0;
}


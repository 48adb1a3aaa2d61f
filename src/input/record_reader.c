/*
 * Record reader: CSV/TSV splitting over a large buffer (contract in
 * record_reader.h).
 *
 * Hand-written rather than a CSV library because the common case must run at
 * memory speed (research/limits.md: memchr line + field splitting reaches
 * 2.5 GB/s, byte-at-a-time state machines such as libcsv's callbacks stay far
 * below that). A CSV record is read by one walk over the positions of its
 * delimiters, quotes and LFs, found 64 bytes at a time (parse_csv_fast);
 * what that walk does not take (a record near the buffer's end, a malformed
 * one) parse_csv reads, the reference: its fields are found by one scan for
 * the delimiter, a quote or LF, 16 bytes a step (scan3); a quoted field is
 * found by one scan for its closing quote that also counts the LFs before
 * it (scan_quote), so that the record's line count needs no second pass
 * over its bytes. Both hand out a quoted field without a doubled quote
 * where it lies in buf (between its quotes); one with "" is copied into
 * `scratch` without them. (With a
 * --null-string every quoted field is copied: mark_nulls tells quoted from
 * unquoted fields by whether they lie in the raw bytes.) TSV needs no quote
 * handling: memchr for the line end, then for each delimiter.
 *
 * Buffer invariants: [pos, end) of buf holds unread data of the current
 * input; eof says no byte follows end in this input. A record is parsed only
 * when it lies wholly inside [pos, end): when a parse runs off the end it
 * returns MORE, the unread tail moves to the front, the buffer grows if the
 * tail fills it, more is read, and the parse starts over from the record's
 * first byte. Restarting is cheap because every refill fills the whole
 * buffer and growth doubles. scratch is kept at least as large as buf: the
 * unquoted bytes of a record are never more than its raw bytes, so scratch
 * never reallocates while fields point into it.
 */
#include "input/record_reader.h"
#include "input/record_reader_int.h"

#include <stdio.h>
#include <string.h>

#include "input/record_dialect.h"
#include "input/record_input.h"
#include "input/record_scan.h"
#include "input/source_db.h"
#include "util/alloc.h"
#include "util/err.h"

/* internal parse results besides 1 (record) and HFG_EPARSE */
enum { P_MORE = 2, P_SKIP = 3 };


static const char *display_name(const char *path) { return strcmp(path, "-") == 0 ? "<stdin>" : path; }

/* ---- buffer ---- */

/* Makes room and reads more of the current input. Returns 0 (eof may now be
 * set) or a fatal code. */
static int refill(hfg_record_reader *r) {
  if (r->pos > 0) {
    r->buf_off += r->pos;
    memmove(r->buf, r->buf + r->pos, r->end - r->pos);
    r->end -= r->pos;
    r->pos = 0;
  }
  /* a long record grew the buffer (refills fill all of it): back to its first size once it
   * is read, so that its bytes do not stay resident for the rest of the input */
  if (r->cap > r->cap0 && r->end <= r->cap0 / 2) {
    char *nb = hfg_realloc(r->buf, r->cap0);
    char *ns = r->scratch ? hfg_realloc(r->scratch, r->cap0) : NULL;
    if (nb) r->buf = nb, r->cap = r->cap0;
    if (ns) r->scratch = ns, r->scap = r->cap0;
  }
  if (r->end == r->cap) {
    size_t ncap = r->cap * 2;
    char *nb = hfg_realloc(r->buf, ncap);
    if (!nb) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (record buffer %zu bytes)", r->name, ncap);
    r->buf = nb;
    r->cap = ncap;
  }
  while (r->end < r->cap) {
    size_t got;
    int rc = hfg_rin_read(&r->in, r->buf + r->end, r->cap - r->end, &got, &r->err);
    if (rc) return rc;
    if (got == 0) {
      r->eof = 1;
      break;
    }
    r->end += got;
  }
  return 0;
}

static int grow_fields(hfg_record_reader *r) {
  size_t n = r->fcap ? r->fcap * 2 : 16;
  hfg_field *f = hfg_realloc(r->fields, n * sizeof *f);
  if (!f) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (fields)", r->name);
  /* is_null stays 0 for CSV/TSV fields (ADD_FIELD does not touch it) */
  memset(f + r->fcap, 0, (n - r->fcap) * sizeof *f);
  r->fields = f;
  r->fcap = n;
  return 0;
}

#define ADD_FIELD(r, ptr, n)                                      \
  do {                                                            \
    if ((r)->nf == (r)->fcap && grow_fields(r)) return (r)->err.code; \
    (r)->fields[(r)->nf].p = (ptr);                               \
    (r)->fields[(r)->nf].len = (n);                               \
    (r)->nf++;                                                    \
  } while (0)

static uint64_t count_lf(const char *p, const char *e) {
  uint64_t n = 0;
  while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
    n++;
    p++;
  }
  return n;
}

/* Completes rec for the record [s, raw_end) whose next record starts at next. */
static void finish(hfg_record_reader *r, hfg_record *rec, const char *s, const char *raw_end,
                   const char *next, uint64_t lines) {
  rec->fields = r->fields;
  rec->nfields = r->nf;
  rec->file = r->name;
  rec->line = r->line;
  rec->raw = s;
  rec->raw_len = (size_t)(raw_end - s);
  rec->reason = NULL;
  r->line += lines;
  r->pos = (size_t)(next - r->buf);
}

/* A syntax error found at `at`: rejects from s to the end of at's physical line. */
static int bad_syntax(hfg_record_reader *r, hfg_record *rec, const char *s, const char *at,
                      const char *why) {
  const char *e = r->buf + r->end;
  const char *nl = memchr(at, '\n', (size_t)(e - at));
  if (!nl && !r->eof) return P_MORE;
  const char *next = nl ? nl + 1 : e;
  const char *raw_end = nl ? nl : e;
  if (raw_end > s && raw_end[-1] == '\r') raw_end--;
  r->nf = 0;
  finish(r, rec, s, raw_end, next, count_lf(s, next));
  rec->nfields = 0;
  rec->reason = why;
  return HFG_EPARSE;
}

/* Where a quote opened, relative to the record's first line, which the reject
 * names (absolute lines would go wrong in a part: its lines are shifted after
 * it is read, its reasons never are). */
static void quote_where(char *buf, size_t cap, uint64_t below) {
  if (below) snprintf(buf, cap, "on line %llu of the record", (unsigned long long)below + 1);
  else snprintf(buf, cap, "on this line");
}

/* How far an open quote ran: "3 lines (11 bytes)". */
static void quote_span(char *buf, size_t cap, uint64_t lines, size_t bytes) {
  snprintf(buf, cap, "%llu line%s (%zu byte%s)", (unsigned long long)lines,
           lines == 1 ? "" : "s", bytes, bytes == 1 ? "" : "s");
}

/* The record at s whose quoted field opened at `quote` is left open by the
 * input's end at e: rejected up to there, its reason saying where the quote
 * opened and how far it ran. */
__attribute__((noinline, cold)) static int unterminated(hfg_record_reader *r, hfg_record *rec,
                                                        const char *s, const char *quote,
                                                        const char *e) {
  const char *raw_end = e;
  if (raw_end > s && raw_end[-1] == '\n') raw_end--;
  if (raw_end > s && raw_end[-1] == '\r') raw_end--;
  r->nf = 0;
  const uint64_t below = count_lf(s, quote);
  finish(r, rec, s, raw_end, e, count_lf(s, e));
  rec->nfields = 0;
  char where[48], span[64];
  quote_where(where, sizeof where, below);
  quote_span(span, sizeof span, count_lf(quote, e) + (e[-1] != '\n'), (size_t)(e - quote));
  snprintf(r->reason, sizeof r->reason,
           "unterminated quoted field: the quote opened %s runs %s to the end of the input", where,
           span);
  rec->reason = r->reason;
  return HFG_EPARSE;
}

/* A CSV record (quoted fields, and the quote rules, handled here). */
__attribute__((noinline)) static int parse_csv(hfg_record_reader *r, hfg_record *rec,
                                               const char *s) {
  const char *e = r->buf + r->end;
  const unsigned char delim = r->delim;
  if (r->scap < r->cap) {
    char *ns = hfg_realloc(r->scratch, r->cap);
    if (!ns) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (scratch)", r->name);
    r->scratch = ns;
    r->scap = r->cap;
  }
  char *out = r->scratch;
  size_t su = 0;
  const int in_place = r->null_s == NULL; /* quoted fields may stay in buf (see the top) */
  uint64_t lf = 0; /* LFs inside the quoted fields so far */
  const char *p = s;
  r->nf = 0;
  for (;;) { /* at the first byte of a field */
    if (p == e && !r->eof) return P_MORE;
    if (p < e && *p == '"') {
      const char *q = p + 1;
      const char *c = scan_quote(q, e, &lf);
      if (c && (c + 1 == e || c[1] != '"') && in_place) {
        /* no doubled quote: the field is the bytes between the quotes */
        if (c + 1 == e && !r->eof) return P_MORE;
        ADD_FIELD(r, q, (size_t)(c - q));
        p = c + 1;
      } else {
        size_t fs = su;
        for (;;) {
          if (!c) {
            if (!r->eof) return P_MORE;
            return unterminated(r, rec, s, p, e);
          }
          memcpy(out + su, q, (size_t)(c - q));
          su += (size_t)(c - q);
          if (c + 1 == e && !r->eof) return P_MORE;
          if (c + 1 < e && c[1] == '"') {
            out[su++] = '"';
            q = c + 2;
            c = scan_quote(q, e, &lf);
            continue;
          }
          p = c + 1;
          break;
        }
        ADD_FIELD(r, out + fs, su - fs);
      }
      if (p == e) { /* closing quote was the input's last byte */
        finish(r, rec, s, e, e, lf);
        return 1;
      }
      if ((unsigned char)*p == delim) {
        p++;
        continue;
      }
      if (*p == '\n') {
        finish(r, rec, s, p, p + 1, lf + 1);
        return 1;
      }
      if (*p == '\r') {
        if (p + 1 == e) {
          if (!r->eof) return P_MORE;
          finish(r, rec, s, p, e, lf);
          return 1;
        }
        if (p[1] == '\n') {
          finish(r, rec, s, p, p + 2, lf + 1);
          return 1;
        }
      }
      return bad_syntax(r, rec, s, p, "unexpected character after closing quote");
    }
    /* unquoted field: ends at the delimiter or the line end; a quote in it
     * is an error */
    const char *x = scan3(p, e, (char)delim, '"', '\n');
    if (x < e && (unsigned char)*x == delim) {
      ADD_FIELD(r, p, (size_t)(x - p));
      p = x + 1;
      continue;
    }
    if (x < e && *x == '"') return bad_syntax(r, rec, s, x, "quote in unquoted field");
    if (x == e && !r->eof) return P_MORE;
    /* the record's last field: up to LF, CR LF, or the input's end (a final CR trimmed) */
    const char *fe = x;
    if (fe > p && fe[-1] == '\r') fe--;
    ADD_FIELD(r, p, (size_t)(fe - p));
    const char *next = x < e ? x + 1 : e;
    finish(r, rec, s, fe, next, lf + (x < e));
    return 1;
  }
}

/* n bytes from s to d, 16 at a time: reads and writes up to 15 bytes more
 * (parse_csv_fast makes sure both lie in buf and scratch). */
static inline void copy_over(char *d, const char *s, size_t n) {
#ifdef __SSE2__
  for (size_t i = 0; i < n; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    _mm_storeu_si128((__m128i *)(void *)(d + i), v);
  }
#else
  memcpy(d, s, n);
#endif
}

/* The common CSV record, in one walk over the positions of its delimiters,
 * quotes and LFs, found 64 bytes at a time (hfg_scan_csv64) and taken in
 * order from the mask (lowest bit first): the bytes between those positions
 * are not looked at, and no position is looked for twice. Returns 1 with rec
 * filled, exactly as parse_csv would, or P_SLOW when parse_csv must decide:
 * the record runs into the buffer's last 80 bytes (or past them, or to the
 * input's end without an LF), is malformed (a quote in an unquoted field, a
 * byte after a closing quote), has more fields than r->fields holds, or
 * scratch is not yet as large as buf. A quoted field with a doubled quote
 * (or any, with a NULL string: see the top) is copied into scratch as its
 * quotes are found, 16 bytes a step: every position found lies 16 bytes or
 * more before the buffer's end, so those steps never read past buf, and
 * never write past scratch (never fewer bytes after the copy's start than in
 * the record before it). */
enum { P_SLOW = 4 };
static inline __attribute__((always_inline)) int parse_csv_fast(hfg_record_reader *r,
                                                                hfg_record *rec, const char *s) {
  const char *const e = r->buf + r->end;
  if (r->scap < r->cap || r->csv_slow || e - s < 80) return P_SLOW;
  const char delim = (char)r->delim;
  /* the fields in locals: stores through them must not reload r->nf */
  hfg_field *const f0 = r->fields, *const fend = r->fields + r->fcap;
  hfg_field *f = f0;
  size_t su = 0;       /* scratch used */
  uint64_t lf = 0;     /* LFs inside quoted fields */
  const char *b = s;   /* the mask m covers [b, b + 64) */
  uint64_t m = hfg_scan_csv64(b, delim);
  const char *x, *fs = s; /* the current field's first byte */
#define NEXT_HIT()                                   \
  do {                                               \
    while (!m) {                                     \
      b += 64;                                       \
      if (e - b < 80) return P_SLOW;                 \
      m = hfg_scan_csv64(b, delim);                  \
    }                                                \
    x = b + (unsigned)__builtin_ctzll(m);            \
    m &= m - 1;                                      \
  } while (0)
  for (;;) { /* a field starts at fs */
    NEXT_HIT();
    if (f == fend) return P_SLOW; /* parse_csv grows r->fields */
    char c = *x;
    if (c == delim) {
      f->p = fs;
      f->len = (size_t)(x - fs);
      f++;
      fs = x + 1;
      continue;
    }
    if (c == '\n') { /* the record's last field, before a CR */
      const char *fe = x > fs && x[-1] == '\r' ? x - 1 : x;
      f->p = fs;
      f->len = (size_t)(fe - fs);
      r->nf = (size_t)(f + 1 - f0);
      finish(r, rec, s, fe, x + 1, lf + 1);
      return 1;
    }
    if (c != '"') continue;     /* not one of the walk's bytes */
    if (x != fs) return P_SLOW; /* a quote in an unquoted field */
    /* a quoted field: to a quote not followed by another one */
    int copy = r->null_s != NULL;
    const char *seg = fs + 1; /* copying: the first byte not yet copied */
    const size_t fsu = su;    /* where the copy starts */
    for (;;) {
      NEXT_HIT();
      c = *x;
      if (c != '"') {
        lf += c == '\n';
        continue;
      }
      if (x[1] != '"') break; /* x + 1 < e: the block at b is whole */
      copy_over(r->scratch + su, seg, (size_t)(x + 1 - seg)); /* with one of the two quotes */
      su += (size_t)(x + 1 - seg);
      seg = x + 2;
      copy = 1;
      NEXT_HIT(); /* the second quote */
    }
    /* the closing quote at x: then the delimiter, LF, or CR LF */
    if (copy) {
      copy_over(r->scratch + su, seg, (size_t)(x - seg));
      su += (size_t)(x - seg);
      f->p = r->scratch + fsu;
      f->len = su - fsu;
    } else {
      f->p = fs + 1;
      f->len = (size_t)(x - fs - 1);
    }
    f++;
    const char *after = x + 1;
    if (*after == delim) {
      NEXT_HIT(); /* the delimiter, at after */
      fs = after + 1;
      continue;
    }
    if (*after == '\n' || (*after == '\r' && after[1] == '\n')) { /* after + 1 < e, as above */
      r->nf = (size_t)(f - f0);
      finish(r, rec, s, after, after + 1 + (*after == '\r'), lf + 1);
      return 1;
    }
    return P_SLOW;
  }
#undef NEXT_HIT
}

/* A dump dialect's record at buf[pos]: record_dialect.c parses, the reader
 * keeps the provenance. */
static int parse_dialect(hfg_record_reader *r, hfg_record *rec) {
  const char *s = r->buf + r->pos, *e = r->buf + r->end;
  hfg_dialect_step st;
  int rc = hfg_dialect_parse(r->dialect, s, e, r->eof, &st);
  if (rc == HFG_DIALECT_MORE) return P_MORE;
  if (rc == HFG_ENOMEM) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (fields)", r->name);
  if (rc == HFG_DIALECT_SKIP) {
    r->line += st.lines;
    r->pos += st.consumed;
    return P_SKIP;
  }
  rec->fields = st.fields;
  rec->nfields = st.nfields;
  rec->file = r->name;
  rec->line = r->line;
  rec->raw = s;
  rec->raw_len = st.raw_len;
  rec->reason = st.reason;
  r->line += st.lines;
  r->pos += st.consumed;
  return rc;
}

/* Parses the record starting at buf[pos] (not a blank line). Returns 1,
 * HFG_EPARSE (syntax), P_MORE, or a fatal code. */
static int parse_record(hfg_record_reader *r, hfg_record *rec) {
  const char *s = r->buf + r->pos, *e = r->buf + r->end;
  if (r->fmt == HFG_INPUT_CSV) {
    int rc = parse_csv_fast(r, rec, s);
    return rc != P_SLOW ? rc : parse_csv(r, rec, s);
  }
  /* TSV: one pass for the delimiter or LF (scan2_wide), rather than a memchr for
   * the line end and then one per field */
  const char delim = (char)r->delim;
  const char *p = s;
  r->nf = 0;
  for (;;) {
    const char *x = scan2_wide(p, e, delim, '\n');
    if (x < e && *x == delim) {
      ADD_FIELD(r, p, (size_t)(x - p));
      p = x + 1;
      continue;
    }
    if (x == e && !r->eof) return P_MORE;
    /* content end: without LF, CR LF, or final CR (testing ce > p is
     * testing ce > s: when ce == p > s, ce[-1] is the delimiter) */
    const char *ce = x;
    if (ce > p && ce[-1] == '\r') ce--;
    ADD_FIELD(r, p, (size_t)(ce - p));
    finish(r, rec, s, ce, x < e ? x + 1 : e, x < e ? 1 : 0);
    return 1;
  }
}

/* The opening quote of a quoted field that the CSV record at s leaves open
 * in [s, e), or NULL (its fields end, or the record is malformed, first). */
static const char *open_quote(const hfg_record_reader *r, const char *s, const char *e) {
  uint64_t lf = 0;
  for (const char *p = s; p < e;) { /* at a field's first byte */
    if (*p == '"') {
      const char *c = scan_quote(p + 1, e, &lf);
      while (c && c + 1 < e && c[1] == '"') c = scan_quote(c + 2, e, &lf);
      if (!c) return p;
      p = c + 1;
      if (p < e && (unsigned char)*p == r->delim) p++;
      else return NULL;
    } else {
      const char *x = scan3(p, e, (char)r->delim, '"', '\n');
      if (x == e || (unsigned char)*x != r->delim) return NULL;
      p = x + 1;
    }
  }
  return NULL;
}

/* A record has outgrown max_record: reject its first physical line. */
__attribute__((noinline, cold)) static int reject_overlong(hfg_record_reader *r,
                                                           hfg_record *rec) {
  const char *s = r->buf + r->pos, *e = r->buf + r->end;
  /* a quoted field still open at the limit (a stray quote): say where it opened
   * (only the bytes up to the limit are looked at, so the buffer size never shows) */
  const char *cut = (size_t)(e - s) > r->max_record ? s + r->max_record : e;
  const char *quote = r->fmt == HFG_INPUT_CSV && !r->dialect ? open_quote(r, s, cut) : NULL;
  const uint64_t below = quote ? count_lf(s, quote) : 0;
  const char *nl = memchr(s, '\n', (size_t)(e - s));
  const char *raw_end = nl ? nl : e;
  if (nl && raw_end > s && raw_end[-1] == '\r') raw_end--;
  if ((size_t)(raw_end - s) > r->max_record) raw_end = s + r->max_record;
  r->nf = 0;
  finish(r, rec, s, raw_end, nl ? nl + 1 : e, nl ? 1 : 0);
  if (!nl) r->skip_line = 1; /* the rest of this line is dropped on the next call */
  rec->nfields = 0;
  if (quote) {
    char where[48], span[64];
    quote_where(where, sizeof where, below);
    quote_span(span, sizeof span, count_lf(quote, cut) + 1, (size_t)(cut - quote));
    snprintf(r->reason, sizeof r->reason,
             "record longer than %zu bytes%s%s%s: the quote opened %s is still open after %s",
             r->max_record, r->max_note[0] ? " (" : "", r->max_note, r->max_note[0] ? ")" : "",
             where, span);
  } else {
    hfg_rr_overlong_reason(r);
  }
  rec->reason = r->reason;
  return HFG_EPARSE;
}

/* After an overlong record's first line was rejected: drops bytes up to and
 * including the next LF. 0 when done (or at end of input), 1 when the buffer
 * was refilled and the caller must look again, < 0 on a read error. */
static int skip_rest_of_line(hfg_record_reader *r) {
  const char *nl = memchr(r->buf + r->pos, '\n', r->end - r->pos);
  if (nl) {
    r->pos = (size_t)(nl + 1 - r->buf);
    r->line++;
    r->skip_line = 0;
    return 0;
  }
  r->pos = r->end;
  if (r->eof) {
    r->skip_line = 0;
    return 0;
  }
  int rc = refill(r);
  return rc ? rc : 1;
}

/* Skips (and counts) the blank lines at pos. 1 when a CR ends the buffer
 * before the input's end (refill, then look again), else 0. */
static inline int skip_blank_lines(hfg_record_reader *r) {
  while (r->pos < r->end) {
    char c = r->buf[r->pos];
    if (c == '\n') {
      r->pos++;
      r->line++;
      r->blank_lines++;
    } else if (c == '\r') {
      if (r->pos + 1 < r->end) {
        if (r->buf[r->pos + 1] != '\n') return 0;
        r->pos += 2;
        r->line++;
        r->blank_lines++;
      } else if (r->eof) {
        r->pos++; /* a last line of only "\r" */
        r->blank_lines++;
      } else {
        return 1;
      }
    } else {
      return 0;
    }
  }
  return 0;
}

/* Next record of the current input, without the field-count check. Returns
 * 1, HFG_EPARSE, 0 at the end of this input, or a fatal code. */
static int read_one(hfg_record_reader *r, hfg_record *rec) {
  for (;;) {
    int rc;
    if (r->at_start) {
      if (r->at_start == HFG_RR_AT_MID) {
        /* A part or range that starts mid-file: the blank lines before its first
         * record are the previous part's, whose reading skipped them up to that
         * record (where this one truly starts), so they are not counted here. */
        int more = skip_blank_lines(r);
        r->blank_lines = 0;
        if (more || (r->pos == r->end && !r->eof)) {
          if ((rc = refill(r))) return rc;
          continue;
        }
      } else {
        if (r->end - r->pos < 4 && !r->eof) {
          if ((rc = refill(r))) return rc;
          continue;
        }
        if ((rc = hfg_rr_check_encoding(r))) return rc;
        if (r->end - r->pos >= 3 && memcmp(r->buf + r->pos, "\xef\xbb\xbf", 3) == 0) r->pos += 3;
      }
      r->at_start = 0;
    }
    if (r->skip_line) { /* the rest of an overlong line */
      if ((rc = skip_rest_of_line(r)) < 0) return rc;
      if (rc) continue;
    }
    int more = skip_blank_lines(r);
    if (!more) {
      /* a part reader ends at the first record that starts at or after its
       * limit (blank lines before it are skipped: where it starts is exact) */
      if ((r->pos < r->end || r->eof) && r->buf_off + r->pos >= r->limit) return 0;
      if (r->pos == r->end && r->eof) return 0;
      if (r->pos < r->end) {
        size_t pos0 = r->pos;
        uint64_t line0 = r->line;
        rc = parse_record(r, rec);
        if (rc == 1 || rc == HFG_EPARSE) {
          if (rec->raw_len <= r->max_record) return rc;
          r->pos = pos0; /* parsing does not modify buf: redo it as overlong */
          r->line = line0;
          return reject_overlong(r, rec);
        }
        if (rc != P_MORE) return rc;
        /* An unfinished record this long has raw bytes beyond the limit (at
         * most 2 of the bytes seen can be its line end): decide now, the same
         * way as for a record seen whole, so the result never depends on the
         * buffer size. */
        if (r->end - r->pos > r->max_record + 2) return reject_overlong(r, rec);
      }
    }
    if ((rc = refill(r))) return rc;
  }
}

/* read_one's common case, a CSV record in the middle of the buffer, without
 * its checks: 1 with rec filled, or P_SLOW (nothing read) when read_one must
 * decide (the input's start, a blank line, the part's limit, an overlong
 * record, or whatever parse_csv_fast does not take). */
static inline int csv_quick(hfg_record_reader *r, hfg_record *rec) {
  if (r->fmt != HFG_INPUT_CSV || r->at_start || r->skip_line || r->pos >= r->end ||
      r->buf[r->pos] == '\n' || r->buf[r->pos] == '\r' || r->buf_off + r->pos >= r->limit)
    return P_SLOW;
  const size_t pos0 = r->pos;
  const uint64_t line0 = r->line;
  int rc = parse_csv_fast(r, rec, r->buf + r->pos);
  if (rc == 1 && rec->raw_len > r->max_record) { /* read_one rejects it */
    r->pos = pos0;
    r->line = line0;
    return P_SLOW;
  }
  return rc;
}

/* read_one for the dump dialects: no UTF-8 byte order mark is dropped, blank
 * lines are records, the dialect may consume an end-of-data marker (P_SKIP). Kept apart
 * so that the CSV/TSV loop above stays as it was. */
static int read_one_dialect(hfg_record_reader *r, hfg_record *rec) {
  for (;;) {
    int rc;
    if (r->at_start) { /* UTF-16/32 refused as for CSV; a UTF-8 mark is data here */
      if (r->end - r->pos < 4 && !r->eof) {
        if ((rc = refill(r))) return rc;
        continue;
      }
      if ((rc = hfg_rr_check_encoding(r))) return rc;
      r->at_start = 0;
    }
    if (r->skip_line) { /* the rest of an overlong line */
      if ((rc = skip_rest_of_line(r)) < 0) return rc;
      if (rc) continue;
    }
    if (r->pos == r->end && r->eof) return 0;
    if (r->pos < r->end) {
      size_t pos0 = r->pos;
      uint64_t line0 = r->line;
      rc = parse_dialect(r, rec);
      if (rc == P_SKIP) continue;
      if (rc == 1 || rc == HFG_EPARSE) {
        if (rec->raw_len <= r->max_record) {
          hfg_dialect_accept(r->dialect);
          return rc;
        }
        r->pos = pos0; /* as in read_one: the bytes are rejected as overlong instead */
        r->line = line0;
        return reject_overlong(r, rec);
      }
      if (rc != P_MORE) return rc;
      if (r->end - r->pos > r->max_record + 2) return reject_overlong(r, rec);
    }
    if ((rc = refill(r))) return rc;
  }
}

/* ---- inputs and headers ---- */

void hfg_rr_close_input(hfg_record_reader *r) {
  if (r->db) {
    hfg_rr_close_db(r);
    return;
  }
  if (!r->in_open) return;
  r->bytes_done += r->in.bytes_in;
  hfg_rin_close(&r->in);
  r->in_open = 0;
}

/* Opens paths[next_path] and consumes its header. */
int hfg_rr_open_next(hfg_record_reader *r) {
  size_t idx = r->next_path;
  const char *path = r->paths[r->next_path++];
  r->name = r->shown[idx] ? r->shown[idx] : display_name(path);
  if (r->shown[idx]) return hfg_rr_open_db(r, path);
  int rc = r->part_start ? hfg_rin_open_at(&r->in, path, r->name, r->part_start, &r->err)
                         : hfg_rin_open(&r->in, path, r->name, &r->err);
  if (rc) return rc;
  r->in_open = 1;
  r->pos = r->end = 0;
  r->buf_off = r->part_start;
  r->eof = 0;
  r->line = r->part_start ? r->part_line : 1;
  /* mid-file: no BOM, no header, and blank lines before the first record not counted */
  r->at_start = !r->part_start ? HFG_RR_AT_FILE : r->dialect ? 0 : HFG_RR_AT_MID;
  r->skip_line = 0;
  r->fmt = r->fmt_opt == HFG_INPUT_AUTO ? hfg_input_format_guess(path) : r->fmt_opt;
  r->delim = (unsigned char)(r->delim_opt >= 0 ? r->delim_opt : r->fmt == HFG_INPUT_TSV ? '\t' : ',');
  if (r->dialect && (rc = hfg_dialect_start(r->dialect, path, r->name, r->expected, &r->err)))
    return rc;
  r->first_is_data = !r->has_header && !r->part_start && r->given;
  if (!r->has_header || r->part_start) return 0;
  hfg_record h;
  /* a first part reads its header wherever its limit falls (blank lines may
   * push the header past it): the header is never one of the records */
  const uint64_t limit = r->limit;
  r->limit = UINT64_MAX;
  rc = r->dialect ? read_one_dialect(r, &h) : read_one(r, &h);
  r->limit = limit;
  if (rc == 0) return 0; /* empty input */
  char ev[160];
  if (rc == HFG_EPARSE && !r->dialect && hfg_rr_binary_evidence(r, h.raw, h.line, ev, sizeof ev))
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "%s: the input looks binary, not %s text (%s): is it compressed in a "
                       "format hfilegen does not read, or not the file meant? (line %llu: "
                       "malformed header: %s)",
                       r->name, r->fmt == HFG_INPUT_TSV ? "TSV" : "CSV", ev,
                       (unsigned long long)h.line, h.reason);
  if (rc == HFG_EPARSE)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "%s line %llu: malformed header: %s", r->name,
                       (unsigned long long)h.line, h.reason);
  if (rc < 0) return rc;
  return r->hdr ? hfg_rr_check_header(r, h.fields, h.nfields) : hfg_rr_set_columns(r, h.fields, h.nfields);
}

/* CSV/TSV with a NULL string: an unquoted field (one that lies in the raw
 * bytes; quoted ones are copied out of them) equal to it is NULL. */
__attribute__((noinline, cold)) static void mark_nulls(hfg_record_reader *r, hfg_record *rec) {
  const char *raw0 = rec->raw, *raw1 = rec->raw + rec->raw_len;
  for (size_t i = 0; i < rec->nfields; i++) {
    hfg_field *f = &r->fields[i];
    int unquoted = f->p >= raw0 && f->p <= raw1;
    f->is_null = unquoted && f->len == r->null_len && memcmp(f->p, r->null_s, f->len) == 0;
    if (f->is_null) f->len = 0;
  }
}

/* A malformed CSV/TSV record near an input's start: when the bytes there look
 * binary, its reason says so (the parse error alone, "quote in unquoted
 * field", sends a user looking for a quote). */
__attribute__((noinline, cold)) static int malformed(hfg_record_reader *r, hfg_record *rec) {
  char ev[160];
  if (!r->dialect && !r->db && !r->part_start &&
      hfg_record_reader_record_offset(r, rec) < HFG_RR_SNIFF &&
      hfg_rr_binary_evidence(r, rec->raw, rec->line, ev, sizeof ev)) {
    snprintf(r->bin_reason, sizeof r->bin_reason, "the input looks binary, not %s text (%s): %s",
             r->fmt == HFG_INPUT_TSV ? "TSV" : "CSV", ev, rec->reason);
    rec->reason = r->bin_reason;
  }
  return HFG_EPARSE;
}

int hfg_record_reader_next(hfg_record_reader *r, hfg_record *rec) {
  memset(rec, 0, sizeof *rec);
  if (r->err.code) return r->err.code;
  for (;;) {
    if (!r->in_open) {
      if (r->next_path == r->npaths) return 0;
      int rc = hfg_rr_open_next(r);
      if (rc) return rc;
      continue;
    }
    int rc;
    if (r->db) rc = hfg_dbsrc_next(r->db, rec, &r->err);
    else if (r->dialect) rc = read_one_dialect(r, rec);
    else if ((rc = csv_quick(r, rec)) == P_SLOW) rc = read_one(r, rec);
    if (rc == 0) {
      hfg_rr_close_input(r);
      continue;
    }
    if (r->db) rec->file = r->name; /* the reader's copy: valid until free, as promised */
    if (rc != 1) {
      if (rc == HFG_EPARSE) break;
      return rc;
    }
    if (r->expected == 0) r->expected = rec->nfields;
    if (rec->nfields != r->expected) {
      snprintf(r->reason, sizeof r->reason, "expected %zu fields, got %zu", r->expected, rec->nfields);
      rec->reason = r->reason;
      break;
    }
    if (__builtin_expect(r->null_s != NULL, 0)) mark_nulls(r, rec);
    if (__builtin_expect(r->first_is_data, 0)) return hfg_rr_check_first_record(r, rec);
    return 1;
  }
  if (r->first_is_data) r->first_is_data = 0; /* a malformed first record is no header */
  return malformed(r, rec);
}


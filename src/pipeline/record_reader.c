/*
 * Record reader: CSV/TSV splitting over a large buffer (contract in
 * record_reader.h).
 *
 * Hand-written rather than a CSV library because the common case must run at
 * memory speed (research/limits.md: memchr line + field splitting reaches
 * 2.5 GB/s, byte-at-a-time state machines such as libcsv's callbacks stay far
 * below that). CSV fields are found by one scan for the delimiter, a quote or
 * LF, 16 bytes a step (scan3); a quoted field is found by one scan for its
 * closing quote that also counts the LFs before it (scan_quote), so that the
 * record's line count needs no second pass over its bytes. A quoted field
 * without a doubled quote is handed out where it lies in buf (between its
 * quotes); one with "" is copied into `scratch` without them. (With a
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
#include "pipeline/record_reader.h"
#include "pipeline/record_reader_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#ifdef __AVX2__
#include <immintrin.h>
#endif

#include "pipeline/record_dialect.h"
#include "pipeline/record_input.h"
#include "pipeline/source_db.h"
#include "util/alloc.h"
#include "util/err.h"

#define DEFAULT_BUFFER (1u << 20)
#define DEFAULT_MAX_RECORD ((size_t)64 << 20)

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

/* The first byte of [p, e) equal to a, b or c, or e: 16 bytes a step where
 * SSE2 is there (every x86-64), a byte loop elsewhere and for the tail. */
static inline const char *scan3(const char *p, const char *e, char a, char b, char c) {
#ifdef __SSE2__
  const __m128i va = _mm_set1_epi8(a), vb = _mm_set1_epi8(b), vc = _mm_set1_epi8(c);
  while (e - p >= 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                             _mm_cmpeq_epi8(x, vc));
    unsigned mask = (unsigned)_mm_movemask_epi8(m);
    if (mask) return p + __builtin_ctz(mask);
    p += 16;
  }
#endif
  for (; p < e; p++)
    if (*p == a || *p == b || *p == c) return p;
  return e;
}

/* The first byte of [p, e) equal to a or b, or e: scan3 with 32-byte steps
 * first where AVX2 is there. For TSV, whose long fields are unquoted (CSV's
 * short unquoted fields do better without the extra setup). */
static inline const char *scan2_wide(const char *p, const char *e, char a, char b) {
#ifdef __AVX2__
  if (e - p >= 32) {
    const __m256i wa = _mm256_set1_epi8(a), wb = _mm256_set1_epi8(b);
    do {
      __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
      __m256i m = _mm256_or_si256(_mm256_cmpeq_epi8(x, wa), _mm256_cmpeq_epi8(x, wb));
      unsigned mask = (unsigned)_mm256_movemask_epi8(m);
      if (mask) return p + __builtin_ctz(mask);
      p += 32;
    } while (e - p >= 32);
  }
#endif
  return scan3(p, e, a, b, b);
}

/* The first '"' in [p, e), or NULL; *lf += the LFs before it (all of them
 * when there is none): the closing-quote search of a quoted field, which
 * also counts its quoted newlines. */
static inline const char *scan_quote(const char *p, const char *e, uint64_t *lf) {
  uint64_t n = 0;
#ifdef __AVX2__
  const __m256i wq = _mm256_set1_epi8('"'), wn = _mm256_set1_epi8('\n');
  while (e - p >= 32) {
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)p);
    unsigned mq = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, wq));
    unsigned mn = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, wn));
    if (mq) {
      if (mn) n += (unsigned)__builtin_popcount(mn & ((mq & -mq) - 1));
      *lf += n;
      return p + __builtin_ctz(mq);
    }
    if (mn) n += (unsigned)__builtin_popcount(mn);
    p += 32;
  }
#endif
#ifdef __SSE2__
  const __m128i vq = _mm_set1_epi8('"'), vn = _mm_set1_epi8('\n');
  while (e - p >= 16) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned mq = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vq));
    unsigned mn = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, vn));
    if (mq) {
      if (mn) n += (unsigned)__builtin_popcount(mn & ((mq & -mq) - 1));
      *lf += n;
      return p + __builtin_ctz(mq);
    }
    if (mn) n += (unsigned)__builtin_popcount(mn);
    p += 16;
  }
#endif
  for (; p < e; p++) {
    if (*p == '"') {
      *lf += n;
      return p;
    }
    n += *p == '\n';
  }
  *lf += n;
  return NULL;
}

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

/* A CSV record (quoted fields, and the quote rules, handled here). */
static int parse_csv(hfg_record_reader *r, hfg_record *rec, const char *s) {
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
            const char *raw_end = e;
            if (raw_end > s && raw_end[-1] == '\n') raw_end--;
            if (raw_end > s && raw_end[-1] == '\r') raw_end--;
            r->nf = 0;
            finish(r, rec, s, raw_end, e, count_lf(s, e));
            rec->nfields = 0;
            rec->reason = "unterminated quoted field";
            return HFG_EPARSE;
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
  if (r->fmt == HFG_INPUT_CSV) return parse_csv(r, rec, s);
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

/* A record has outgrown max_record: reject its first physical line. */
static int reject_overlong(hfg_record_reader *r, hfg_record *rec) {
  const char *s = r->buf + r->pos, *e = r->buf + r->end;
  const char *nl = memchr(s, '\n', (size_t)(e - s));
  const char *raw_end = nl ? nl : e;
  if (nl && raw_end > s && raw_end[-1] == '\r') raw_end--;
  if ((size_t)(raw_end - s) > r->max_record) raw_end = s + r->max_record;
  r->nf = 0;
  finish(r, rec, s, raw_end, nl ? nl + 1 : e, nl ? 1 : 0);
  if (!nl) r->skip_line = 1; /* the rest of this line is dropped on the next call */
  rec->nfields = 0;
  snprintf(r->reason, sizeof r->reason, "record longer than %zu bytes", r->max_record);
  rec->reason = r->reason;
  return HFG_EPARSE;
}

/* UTF-16 and UTF-32 inputs (by their byte order mark, or ASCII interleaved
 * with NULs: UTF-16 without one) would split into garbage fields: refuse them
 * with the conversion to run. Called with the input's first bytes at pos. */
static int check_encoding(hfg_record_reader *r) {
  const unsigned char *p = (const unsigned char *)r->buf + r->pos;
  size_t n = r->end - r->pos;
  const char *enc = NULL, *from = NULL;
  int ascii[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < 4 && i < n; i++) ascii[i] = (p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\t';
  if (n >= 4 && !memcmp(p, "\xff\xfe\0\0", 4)) enc = "UTF-32LE (byte order mark ff fe 00 00)", from = "UTF-32";
  else if (n >= 4 && !memcmp(p, "\0\0\xfe\xff", 4)) enc = "UTF-32BE (byte order mark 00 00 fe ff)", from = "UTF-32";
  else if (n >= 2 && !memcmp(p, "\xff\xfe", 2)) enc = "UTF-16LE (byte order mark ff fe)", from = "UTF-16";
  else if (n >= 2 && !memcmp(p, "\xfe\xff", 2)) enc = "UTF-16BE (byte order mark fe ff)", from = "UTF-16";
  else if (n >= 4 && ascii[0] && !p[1] && ascii[2] && !p[3]) enc = "UTF-16LE (no byte order mark)", from = "UTF-16LE";
  else if (n >= 4 && !p[0] && ascii[1] && !p[2] && ascii[3]) enc = "UTF-16BE (no byte order mark)", from = "UTF-16BE";
  if (!enc) return 0;
  return hfg_err_set(&r->err, HFG_EUNSUPPORTED,
                     "%s: the input is %s; hfilegen reads UTF-8 text: convert it first, e.g. "
                     "iconv -f %s -t UTF-8 FILE > FILE.utf8",
                     r->name, enc, from);
}

/* Next record of the current input, without the field-count check. Returns
 * 1, HFG_EPARSE, 0 at the end of this input, or a fatal code. */
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

static int read_one(hfg_record_reader *r, hfg_record *rec) {
  for (;;) {
    int rc;
    if (r->at_start) {
      if (r->end - r->pos < 4 && !r->eof) {
        if ((rc = refill(r))) return rc;
        continue;
      }
      if ((rc = check_encoding(r))) return rc;
      if (r->end - r->pos >= 3 && memcmp(r->buf + r->pos, "\xef\xbb\xbf", 3) == 0) r->pos += 3;
      r->at_start = 0;
    }
    if (r->skip_line) { /* the rest of an overlong line */
      if ((rc = skip_rest_of_line(r)) < 0) return rc;
      if (rc) continue;
    }
    /* blank lines */
    int more = 0;
    while (r->pos < r->end) {
      char c = r->buf[r->pos];
      if (c == '\n') {
        r->pos++;
        r->line++;
      } else if (c == '\r') {
        if (r->pos + 1 < r->end) {
          if (r->buf[r->pos + 1] != '\n') break;
          r->pos += 2;
          r->line++;
        } else if (r->eof) {
          r->pos++;
        } else {
          more = 1;
          break;
        }
      } else {
        break;
      }
    }
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
      if ((rc = check_encoding(r))) return rc;
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

/* The database input's check maximum into r->check_max (over all inputs). */
static void keep_check_max(hfg_record_reader *r) {
  const char *m = r->db ? hfg_dbsrc_check_max(r->db) : NULL;
  if (m && (!r->check_max[0] || hfg_db_int_greater(m, strlen(m), r->check_max, strlen(r->check_max))))
    snprintf(r->check_max, sizeof r->check_max, "%s", m);
}

static void close_input(hfg_record_reader *r) {
  if (r->db) {
    keep_check_max(r);
    r->bytes_done += hfg_dbsrc_bytes(r->db);
    hfg_dbsrc_free(r->db);
    r->db = NULL;
    r->in_open = 0;
    return;
  }
  if (!r->in_open) return;
  r->bytes_done += r->in.bytes_in;
  hfg_rin_close(&r->in);
  r->in_open = 0;
}

/* n strings in one allocation (pointers, then the bytes); lens NULL: strlen. */
char **hfg_rr_copy_strs(const char *const *p, const size_t *lens, size_t n) {
  size_t total = n * sizeof(char *);
  for (size_t i = 0; i < n; i++) total += (lens ? lens[i] : strlen(p[i])) + 1;
  char **out = hfg_malloc(total ? total : 1);
  if (!out) return NULL;
  char *sp = (char *)(out + n);
  for (size_t i = 0; i < n; i++) {
    size_t l = lens ? lens[i] : strlen(p[i]);
    out[i] = sp;
    memcpy(sp, p[i], l);
    sp[l] = '\0';
    sp += l + 1;
  }
  return out;
}

/* The header's fields: hf[0..nh) (the reader's own, a dialect's or a database's). */
static int set_columns(hfg_record_reader *r, const hfg_field *hf, size_t nh) {
  const char **p = hfg_malloc((nh ? nh : 1) * sizeof *p);
  size_t *lens = hfg_malloc((nh ? nh : 1) * sizeof *lens);
  if (p && lens)
    for (size_t i = 0; i < nh; i++) p[i] = hf[i].p, lens[i] = hf[i].len;
  char **hdr = p && lens ? hfg_rr_copy_strs(p, lens, nh) : NULL;
  hfg_free(p);
  hfg_free(lens);
  if (!hdr) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (header)", r->name);
  r->hdr = hdr;
  r->nhdr = nh;
  r->header_from = r->name;
  if (r->given && r->ngiven != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL,
                       "%s: the header has %zu columns but %zu column names were given to "
                       "rename them (--columns)",
                       r->name, r->nhdr, r->ngiven);
  if (!r->given) r->cols = r->hdr, r->ncols = r->nhdr;
  if (r->expected && r->expected != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL, "%s: header has %zu columns, expected %zu", r->name,
                       r->nhdr, r->expected);
  r->expected = r->nhdr;
  return 0;
}

static int check_header(hfg_record_reader *r, const hfg_field *hf, size_t nh) {
  if (nh != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL, "%s: header differs from %s's: %zu columns, not %zu",
                       r->name, r->header_from, nh, r->nhdr);
  for (size_t i = 0; i < nh; i++) {
    const hfg_field *f = &hf[i];
    if (strlen(r->hdr[i]) != f->len || memcmp(r->hdr[i], f->p, f->len) != 0)
      return hfg_err_set(&r->err, HFG_EINVAL, "%s: header differs from %s's: column %zu is '%.*s', not '%s'",
                         r->name, r->header_from, i + 1, (int)(f->len > 100 ? 100 : f->len), f->p,
                         r->hdr[i]);
  }
  return 0;
}

/* A database input: connect, query, its columns as the header. */
static int open_db(hfg_record_reader *r, const char *path) {
  if (!r->has_header)
    return hfg_err_set(&r->err, HFG_EINVAL,
                       "%s: a database input names its own columns (no --no-header/--columns)",
                       r->name);
  int rc = hfg_dbsrc_open(path, r->check_column, r->last_value, r->cancel, &r->db, &r->err);
  if (rc) return rc;
  r->in_open = 1;
  size_t n;
  const char *const *names = hfg_dbsrc_columns(r->db, &n);
  hfg_field *hf = hfg_calloc(n ? n : 1, sizeof *hf);
  if (!hf) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory", r->name);
  for (size_t i = 0; i < n; i++) {
    hf[i].p = names[i];
    hf[i].len = strlen(names[i]);
  }
  rc = r->hdr ? check_header(r, hf, n) : set_columns(r, hf, n);
  hfg_free(hf);
  return rc;
}

/* Opens paths[next_path] and consumes its header. */
static int open_next(hfg_record_reader *r) {
  size_t idx = r->next_path;
  const char *path = r->paths[r->next_path++];
  r->name = r->shown[idx] ? r->shown[idx] : display_name(path);
  if (r->shown[idx]) return open_db(r, path);
  int rc = r->part_start ? hfg_rin_open_at(&r->in, path, r->name, r->part_start, &r->err)
                         : hfg_rin_open(&r->in, path, r->name, &r->err);
  if (rc) return rc;
  r->in_open = 1;
  r->pos = r->end = 0;
  r->buf_off = r->part_start;
  r->eof = 0;
  r->line = r->part_start ? r->part_line : 1;
  r->at_start = !r->part_start; /* mid-file: no BOM, no header */
  r->skip_line = 0;
  r->fmt = r->fmt_opt == HFG_INPUT_AUTO ? hfg_input_format_guess(path) : r->fmt_opt;
  r->delim = (unsigned char)(r->delim_opt >= 0 ? r->delim_opt : r->fmt == HFG_INPUT_TSV ? '\t' : ',');
  if (r->dialect) hfg_dialect_reset(r->dialect);
  if (!r->has_header || r->part_start) return 0;
  hfg_record h;
  rc = r->dialect ? read_one_dialect(r, &h) : read_one(r, &h);
  if (rc == 0) return 0; /* empty input */
  if (rc == HFG_EPARSE)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "%s line %llu: malformed header: %s", r->name,
                       (unsigned long long)h.line, h.reason);
  if (rc < 0) return rc;
  return r->hdr ? check_header(r, h.fields, h.nfields) : set_columns(r, h.fields, h.nfields);
}

/* ---- public ---- */

int hfg_record_reader_open(const char *const *paths, size_t npaths, const hfg_input_options *opts,
                           hfg_record_reader **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (errmsg && errlen) errmsg[0] = '\0';
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  if (opts) o = *opts;
  int delim = o.delimiter < 0 ? (o.format == HFG_INPUT_TSV ? '\t' : ',') : o.delimiter;
  const char *bad = NULL;
  int dialect = hfg_dialect_handles(o.format); /* checked by hfg_dialect_new */
  if (o.format != HFG_INPUT_CSV && o.format != HFG_INPUT_TSV && o.format != HFG_INPUT_AUTO && !dialect)
    bad = "unknown input format";
  else if (!dialect && (delim > 255 || delim == '\n' || delim == '\r')) bad = "delimiter must be one byte other than CR and LF";
  else if (!dialect && o.format != HFG_INPUT_TSV && delim == '"') bad = "the CSV delimiter cannot be '\"'";
  else if (!dialect && (o.fields_terminated_by || o.fields_enclosed_by || o.fields_escaped_by ||
                        o.lines_terminated_by))
    bad = "the FIELDS/LINES options are for the dump formats (mysql, pg-csv), not CSV/TSV";
  else if (o.ncolumn_names && !o.column_names) bad = "column names missing";
  else if (npaths == 0 || !paths) bad = "no inputs";
  if (bad) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "%s", bad);
    return HFG_EINVAL;
  }
  hfg_record_reader *r = hfg_calloc(1, sizeof *r);
  if (!r) goto nomem;
  r->fmt = r->fmt_opt = o.format;
  r->delim = (unsigned char)delim;
  r->delim_opt = o.delimiter;
  if (hfg_dialect_handles(o.format)) {
    int drc = hfg_dialect_new(&o, &r->dialect, errmsg, errlen);
    if (drc) {
      hfg_record_reader_free(r);
      if (drc == HFG_ENOMEM && errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
      return drc;
    }
  } else if (o.null_string) {
    if (!(r->null_s = hfg_strdup(o.null_string))) goto nomem;
    r->null_len = strlen(o.null_string);
  }
  r->has_header = o.has_header;
  r->expected = o.expected_columns;
  r->max_record = o.max_record_bytes ? o.max_record_bytes : DEFAULT_MAX_RECORD;
  if (r->max_record > SIZE_MAX / 4) r->max_record = SIZE_MAX / 4;
  r->cap = o.buffer_size ? o.buffer_size : DEFAULT_BUFFER;
  r->name = "";
  r->limit = UINT64_MAX;
  r->buf = hfg_malloc(r->cap);
  r->paths = hfg_calloc(npaths, sizeof *r->paths);
  r->shown = hfg_calloc(npaths, sizeof *r->shown);
  if (!r->buf || !r->paths || !r->shown) goto nomem;
  if ((o.check_column && !(r->check_column = hfg_strdup(o.check_column))) ||
      (o.last_value && !(r->last_value = hfg_strdup(o.last_value))))
    goto nomem;
  r->npaths = npaths;
  r->cancel = o.cancel;
  if (o.ncolumn_names) {
    for (size_t i = 0; i < o.ncolumn_names; i++)
      if (!o.column_names[i]) {
        hfg_record_reader_free(r);
        if (errmsg && errlen) snprintf(errmsg, errlen, "column name %zu: NULL", i);
        return HFG_EINVAL;
      }
    if (!(r->given = hfg_rr_copy_strs(o.column_names, NULL, o.ncolumn_names))) goto nomem;
    r->ngiven = o.ncolumn_names;
    r->cols = r->given;
    r->ncols = r->ngiven;
    if (!r->has_header && !r->expected) r->expected = r->ngiven;
  }
  for (size_t i = 0; i < npaths; i++) {
    if (!paths[i]) {
      hfg_record_reader_free(r);
      if (errmsg && errlen) snprintf(errmsg, errlen, "input %zu: NULL path", i);
      return HFG_EINVAL;
    }
    if (!(r->paths[i] = hfg_strdup(paths[i]))) goto nomem;
    if (hfg_db_is_uri(paths[i])) {
      char shown[2048];
      hfg_db_redact(paths[i], shown, sizeof shown);
      if (!(r->shown[i] = hfg_strdup(shown))) goto nomem;
      r->any_db = 1;
    }
  }
  if (r->check_column && !r->any_db) {
    hfg_record_reader_free(r);
    if (errmsg && errlen)
      snprintf(errmsg, errlen, "incremental reads (check column '%s') need a database input",
               o.check_column);
    return HFG_EINVAL;
  }
  for (size_t i = 0; o.null_string && i < npaths; i++)
    if (r->shown[i]) { /* a server tells its NULLs apart: no marker to compare */
      if (errmsg && errlen)
        snprintf(errmsg, errlen,
                 "%s: a NULL string (--null-string) is for dump and CSV/TSV files; a database "
                 "input's NULLs are the server's own",
                 r->shown[i]);
      hfg_record_reader_free(r);
      return HFG_EINVAL;
    }
  /* With headers, read until the first non-empty input gave one, so that
   * columns() is ready. */
  int rc = 0;
  if (r->has_header) {
    while (!r->hdr && r->next_path < r->npaths) {
      if ((rc = open_next(r))) break;
      if (!r->hdr) close_input(r); /* empty input */
    }
  }
  if (rc) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "%s", r->err.msg);
    hfg_record_reader_free(r);
    return rc;
  }
  *out = r;
  return 0;
nomem:
  hfg_record_reader_free(r);
  if (errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
  return HFG_ENOMEM;
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

int hfg_record_reader_next(hfg_record_reader *r, hfg_record *rec) {
  memset(rec, 0, sizeof *rec);
  if (r->err.code) return r->err.code;
  for (;;) {
    if (!r->in_open) {
      if (r->next_path == r->npaths) return 0;
      int rc = open_next(r);
      if (rc) return rc;
      continue;
    }
    int rc = r->db ? hfg_dbsrc_next(r->db, rec, &r->err)
                   : r->dialect ? read_one_dialect(r, rec) : read_one(r, rec);
    if (rc == 0) {
      close_input(r);
      continue;
    }
    if (r->db) rec->file = r->name; /* the reader's copy: valid until free, as promised */
    if (rc != 1) return rc;
    if (r->expected == 0) r->expected = rec->nfields;
    if (rec->nfields != r->expected) {
      snprintf(r->reason, sizeof r->reason, "expected %zu fields, got %zu", r->expected, rec->nfields);
      rec->reason = r->reason;
      return HFG_EPARSE;
    }
    if (__builtin_expect(r->null_s != NULL, 0)) mark_nulls(r, rec);
    return 1;
  }
}

hfg_input_format hfg_input_format_guess(const char *path) {
  static const char *const zsuffix[] = {".gz", ".zst", ".bz2", ".xz"};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof zsuffix / sizeof *zsuffix; i++) {
    size_t k = strlen(zsuffix[i]);
    if (n > k && !strcasecmp(path + n - k, zsuffix[i])) {
      n -= k;
      break;
    }
  }
  if (n > 4 && (!strncasecmp(path + n - 4, ".tsv", 4) || !strncasecmp(path + n - 4, ".tab", 4)))
    return HFG_INPUT_TSV;
  return HFG_INPUT_CSV;
}

const char *const *hfg_record_reader_columns(const hfg_record_reader *r, size_t *n) {
  *n = r->ncols;
  return (const char *const *)r->cols;
}

size_t hfg_record_reader_expected_columns(const hfg_record_reader *r) { return r->expected; }

uint64_t hfg_record_reader_bytes_read(const hfg_record_reader *r) {
  if (r->db) return r->bytes_done + hfg_dbsrc_bytes(r->db);
  return r->bytes_done + (r->in_open ? r->in.bytes_in : 0);
}

int hfg_record_reader_has_db(const hfg_record_reader *r) { return r->any_db; }

const char *hfg_record_reader_check_max(const hfg_record_reader *r) {
  keep_check_max((hfg_record_reader *)r);
  return r->check_max[0] ? r->check_max : NULL;
}

const char *hfg_record_reader_errmsg(const hfg_record_reader *r) { return r->err.msg; }

void hfg_record_reader_free(hfg_record_reader *r) {
  if (!r) return;
  close_input(r);
  for (size_t i = 0; r->paths && i < r->npaths; i++) hfg_free(r->paths[i]);
  hfg_free(r->paths);
  for (size_t i = 0; r->shown && i < r->npaths; i++) hfg_free(r->shown[i]);
  hfg_free(r->shown);
  hfg_free(r->check_column);
  hfg_free(r->last_value);
  hfg_free(r->buf);
  hfg_free(r->fields);
  hfg_free(r->scratch);
  hfg_free(r->hdr);
  hfg_free(r->given);
  hfg_dialect_free(r->dialect);
  hfg_free(r->null_s);
  hfg_free(r);
}

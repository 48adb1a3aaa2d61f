/* Record reader: the CSV fast path (record_reader.c, parse_csv_fast, a walk
 * over 64-byte masks) against the reader with it turned off (csv_slow: every
 * record by parse_csv) on adversarial inputs: a delimiter, quote, doubled
 * quote, CR or LF at every offset of the 64-byte window and across the
 * buffer's end, quoted newlines, malformed records, random records; at many
 * buffer sizes, delimiters and with a NULL string. Both must give the same
 * records, fields (bytes, NULLs, in place or copied), lines, raw bytes and
 * reasons; and every good record's fields must be what a byte-at-a-time
 * split of its raw bytes gives. */
#include <sys/stat.h>

#include "input/record_reader.h"
#include "input/record_reader_int.h"
#include "sbuf.h"
#include "t.h"

static const char *path_of(const char *name) { return t_tmp_path("test_record_fast", name); }


/* The fields of a good record by the syntax, one byte at a time, from its
 * raw bytes (CR LF and the final LF are not in raw): "f1|f2|..." with each
 * field's bytes, into out. 0 when raw does not split cleanly. */
static int split_bytes(const char *raw, size_t n, char delim, sbuf *out) {
  size_t i = 0;
  for (;;) {
    if (i < n && raw[i] == '"') {
      i++;
      for (;;) {
        if (i >= n) return 0;
        if (raw[i] == '"') {
          if (i + 1 < n && raw[i + 1] == '"') {
            sb_add(out, "\"", 1);
            i += 2;
            continue;
          }
          i++;
          break;
        }
        sb_add(out, raw + i, 1);
        i++;
      }
    } else {
      while (i < n && raw[i] != delim) {
        if (raw[i] == '"') return 0;
        sb_add(out, raw + i, 1);
        i++;
      }
    }
    if (i == n) return 1;
    if (raw[i] != delim) return 0;
    sb_add(out, "|", 1);
    i++;
  }
}

/* Everything a reader gives for the file: one line a record. */
static char *transcript(const char *path, hfg_input_options o, int slow, size_t *good,
                        int *split_ok) {
  sbuf b = {0};
  sb_str(&b, "");
  hfg_record_reader *r;
  char em[512];
  const char *paths[1] = {path};
  if (hfg_record_reader_open(paths, 1, &o, &r, em, sizeof em)) {
    sb_str(&b, "OPEN ");
    sb_str(&b, em);
    return b.p;
  }
  r->csv_slow = slow;
  char delim = (char)(o.delimiter < 0 ? ',' : o.delimiter);
  for (;;) {
    hfg_record rec;
    int rc = hfg_record_reader_next(r, &rec);
    if (rc == 0) break;
    char t[128];
    snprintf(t, sizeof t, "%d@%llu+%zu ", rc, (unsigned long long)rec.line,
             (size_t)hfg_record_reader_record_offset(r, &rec));
    sb_str(&b, t);
    if (rc != 1 && rc != HFG_EPARSE) {
      sb_str(&b, hfg_record_reader_errmsg(r));
      break;
    }
    sb_add(&b, rec.raw, rec.raw_len);
    sb_str(&b, rec.reason ? rec.reason : "-");
    sbuf mine = {0};
    sb_str(&mine, "");
    for (size_t i = 0; i < rec.nfields; i++) {
      const hfg_field *f = &rec.fields[i];
      int in_raw = f->p >= rec.raw && f->p <= rec.raw + rec.raw_len;
      snprintf(t, sizeof t, "[%zu%s%s]", f->len, f->is_null ? "N" : "", in_raw ? "r" : "c");
      sb_str(&b, t);
      sb_add(&b, f->p, f->len);
      if (i) sb_add(&mine, "|", 1);
      if (!f->is_null) sb_add(&mine, f->p, f->len);
      else sb_str(&mine, o.null_string); /* a NULL is its marker's bytes, unquoted */
    }
    sb_str(&b, "\n");
    if (rc == 1 && good) {
      sbuf ref = {0};
      sb_str(&ref, "");
      int ok = split_bytes(rec.raw, rec.raw_len, delim, &ref) && strcmp(ref.p, mine.p) == 0;
      if (!ok && *split_ok) {
        fprintf(stderr, "  line %llu: fields '%s', byte split '%s'\n",
                (unsigned long long)rec.line, mine.p, ref.p);
        *split_ok = 0;
      }
      (*good)++;
      free(ref.p);
    }
    free(mine.p);
  }
  snprintf(em, sizeof em, "blank %llu\n", (unsigned long long)hfg_record_reader_blank_lines(r));
  sb_str(&b, em);
  hfg_record_reader_free(r);
  return b.p;
}

/* The fast and the slow reader agree on data at these buffer sizes (0: the
 * default), and the good records split as the bytes say. */
static void agree(const char *data, size_t n, int delim, const char *null_string) {
  const char *path = path_of("case.csv");
  FILE *fp = fopen(path, "wb");
  REQUIRE(fp != NULL);
  fwrite(data, 1, n, fp);
  fclose(fp);
  static const size_t sizes[] = {0, 1, 63, 64, 65, 79, 80, 81, 96, 127, 128, 129, 200, 333, 4096};
  for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
    o.format = HFG_INPUT_CSV;
    o.delimiter = delim;
    o.buffer_size = sizes[k];
    o.null_string = null_string;
    size_t good = 0;
    int split_ok = 1;
    char *fast = transcript(path, o, 0, &good, &split_ok);
    char *slow = transcript(path, o, 1, NULL, NULL);
    if (strcmp(fast, slow) != 0 || !split_ok) {
      size_t i = 0;
      while (fast[i] && fast[i] == slow[i]) i++;
      size_t from = i > 200 ? i - 200 : 0;
      fprintf(stderr, "  buffer %zu, delim %d, null %s: differ at %zu:\n  fast ...%.300s\n  slow ...%.300s\n",
              sizes[k], delim, null_string ? null_string : "-", i, fast + from, slow + from);
      t_failed_now = 1;
    }
    free(fast);
    free(slow);
    if (t_failed_now) return;
  }
}

/* Each pattern after k filler bytes, k = 0..150, so that its bytes fall at
 * every offset of a 64-byte block and the pattern runs across blocks. */
TEST(patterns_at_every_offset) {
  static const char *pats[] = {
      "x,y\n",           "\"q\",y\n",      "\"q\"\"x\",y\n",   "\"\"\"\",\"\"\n", "x\r\ny,z\r\n",
      "\"a\nb\",c\n",    "\"a\r\nb\"\r\n", "\"\",\n",          ",\n",             "\"a,b\"\"c\",\"\"\n",
      "x\"y,z\n",        "\"ab\"c,d\n",    "\"ab\"\r,d\n",     "\"ab\"\rx\n",     "\"a\"\"\n",
      "x\ry\n",          "\n\n\r\n",       "\"a\"\"\"\"b\"\n", "\"\"\"\n",        "\"a\"\n\"b\n",
      /* '*' and 0x02 share the walk's mask with the quote and LF */
      "*a,*\n",          "\x02,b\x02\n",   "\"*\"\"\x02\",*\n", "\"a\"*,b\n",      "**\"*\n",
  };
  for (size_t pi = 0; pi < sizeof pats / sizeof *pats; pi++) {
    sbuf b = {0};
    sb_str(&b, "");
    for (size_t k = 0; k <= 150; k++) {
      for (size_t i = 0; i < k; i++) sb_add(&b, "abcdefghij" + i % 10, 1);
      sb_str(&b, ",");
      sb_str(&b, pats[pi]);
      sb_str(&b, "tail,end\n");
    }
    agree(b.p, b.len, -1, NULL);
    agree(b.p, b.len, -1, "y");
    free(b.p);
    if (t_failed_now) {
      fprintf(stderr, "  pattern %zu\n", pi);
      return;
    }
  }
}

static uint64_t rng = 88172645463325252ULL;
static unsigned next_rand(void) { return (unsigned)(t_rand(&rng) >> 11); }

/* Records of random fields: unquoted, quoted with delimiters, doubled quotes,
 * CR and LF inside, empty; now and then a byte made a quote, CR or LF (a
 * malformed record, or a resynchronisation); some files without a final LF. */
static void random_file(sbuf *b, char delim, size_t nrec) {
  static const char body[] = "abcXYZ019 \xc3\xa9.-*\x02";
  const size_t nf = 1 + next_rand() % 8;
  for (size_t r = 0; r < nrec; r++) {
    for (size_t i = 0; i < nf; i++) {
      if (i) sb_add(b, &delim, 1);
      size_t len = next_rand() % 4 == 0 ? next_rand() % 150 : next_rand() % 12;
      if (next_rand() % 3 == 0) {
        sb_add(b, "\"", 1);
        for (size_t k = 0; k < len; k++) {
          unsigned c = next_rand() % 24;
          if (c == 0) sb_add(b, "\"\"", 2);
          else if (c == 1) sb_add(b, "\n", 1);
          else if (c == 2) sb_add(b, "\r", 1);
          else if (c == 3) sb_add(b, &delim, 1);
          else sb_add(b, body + next_rand() % (sizeof body - 1), 1);
        }
        sb_add(b, "\"", 1);
      } else {
        for (size_t k = 0; k < len; k++) sb_add(b, body + next_rand() % (sizeof body - 1), 1);
      }
    }
    sb_str(b, next_rand() % 5 == 0 ? "\r\n" : "\n");
    if (next_rand() % 50 == 0) sb_str(b, "\n");
  }
  for (size_t k = next_rand() % 4; k > 0 && b->len; k--) { /* a few damaged bytes */
    static const char bad[] = "\"\r\n";
    b->p[next_rand() % b->len] = bad[next_rand() % 3];
  }
  if (next_rand() % 3 == 0 && b->len && b->p[b->len - 1] == '\n') b->p[--b->len] = 0;
}

TEST(random_records) {
  static const int delims[] = {',', ';', '\t', '|'};
  for (int seed = 0; seed < 60; seed++) {
    sbuf b = {0};
    sb_str(&b, "");
    char delim = (char)delims[seed % 4];
    random_file(&b, delim, 40 + (size_t)seed * 5);
    agree(b.p, b.len, delim, seed % 3 == 0 ? "abc" : NULL);
    free(b.p);
    if (t_failed_now) {
      fprintf(stderr, "  seed %d\n", seed);
      return;
    }
  }
}

/* A record with more fields than the reader holds yet, and one longer than
 * the limit, through the fast path as through the slow one. */
TEST(many_fields_and_overlong) {
  sbuf b = {0};
  sb_str(&b, "");
  for (int r = 0; r < 30; r++) {
    for (int i = 0; i < 40 + r; i++) sb_str(&b, i % 7 == 0 ? "\"q\"\"\"," : "ab,");
    sb_str(&b, "end\n");
  }
  agree(b.p, b.len, -1, NULL);
  free(b.p);
}

T_MAIN

/* Record reader byte ranges (hfg_record_reader_set_range / record_offset), as
 * a distributed runner reads one big CSV/TSV file in several tasks: starting
 * at any record offset a full read reported, with the column names given and
 * no header, and stopping before a later one, gives exactly the full read's
 * records there (fields, raw bytes, lines, rejects), at every buffer size.
 * Compressed input cannot be read from an offset. */
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input/record_reader.h"
#include "t.h"

typedef struct {
  int rc;
  uint64_t off, line;
  char text[256]; /* fields joined by '|' ; or the reason */
} rec_t;

static const char *path_of(const char *name) { return t_tmp_path("test_record_ranges", name); }

static void describe(const hfg_record *r, int rc, rec_t *out) {
  out->rc = rc;
  out->line = r->line;
  size_t n = 0;
  out->text[0] = 0;
  if (rc == HFG_EPARSE) {
    snprintf(out->text, sizeof out->text, "REJECT %s %.*s", r->reason, (int)r->raw_len, r->raw);
    return;
  }
  for (size_t i = 0; i < r->nfields && n + r->fields[i].len + 2 < sizeof out->text; i++) {
    memcpy(out->text + n, r->fields[i].p, r->fields[i].len);
    n += r->fields[i].len;
    out->text[n++] = '|';
    out->text[n] = 0;
  }
}

/* Every record r reads (at most cap), with its offset; frees r. */
static size_t collect(hfg_record_reader *r, rec_t *out, size_t cap) {
  hfg_record rec;
  int rc;
  size_t n = 0;
  while ((rc = hfg_record_reader_next(r, &rec)) == 1 || rc == HFG_EPARSE) {
    if (n == cap) break;
    describe(&rec, rc, &out[n]);
    out[n++].off = hfg_record_reader_record_offset(r, &rec);
  }
  CHECK_EQ_INT(rc, 0);
  hfg_record_reader_free(r);
  return n;
}

/* Every record of path (header on), with its offset. */
static size_t read_all(const char *path, size_t bufsize, rec_t *out, size_t cap) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  o.buffer_size = bufsize;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  return collect(r, out, cap);
}

static const char *const NAMES[] = {"id", "name", "note"};

/* Records of [start, end) read as a range. */
static size_t read_range(const char *path, size_t bufsize, uint64_t start, uint64_t end,
                         uint64_t line, rec_t *out, size_t cap) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = start == 0;
  o.buffer_size = bufsize;
  if (start) o.column_names = NAMES, o.ncolumn_names = 3;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  CHECK_EQ_INT(hfg_record_reader_set_range(r, start, end, line), 0);
  return collect(r, out, cap);
}

static const char DATA[] =
    "id,name,note\r\n"
    "1,a,plain\r\n"
    "2,\"b\nb\",\"two\r\nlines, \"\"quoted\"\"\"\n"
    "\n\n"
    "3,c\n"                        /* short: rejected by the field count */
    "4,d,\"x\"y\n"                 /* bad syntax after a closing quote */
    "5,e,\"\n\n\n\"\n"             /* newlines only, quoted */
    "\r\n"
    "6,\"\",\n"
    "7,g,last";                    /* no final newline */

TEST(every_record_start_is_a_range_start) {
  const char *path = path_of("r.csv");
  FILE *f = fopen(path, "wb");
  fwrite(DATA, 1, sizeof DATA - 1, f);
  fclose(f);
  size_t sizes[] = {1, 2, 7, 16, 0};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    rec_t all[32], got[32];
    size_t n = read_all(path, sizes[si], all, 32);
    CHECK_EQ_INT(n, 7);
    for (size_t a = 0; a < n; a++)
      for (size_t b = a + 1; b <= n; b++) {
        uint64_t start = a == 0 ? 0 : all[a].off, end = b == n ? 0 : all[b].off;
        size_t m = read_range(path, sizes[si], start, end, all[a].line, got, 32);
        CHECK_EQ_INT(m, b - a);
        for (size_t k = 0; k < m && k < b - a; k++) {
          CHECK_EQ_INT(got[k].rc, all[a + k].rc);
          CHECK_EQ_INT(got[k].line, all[a + k].line);
          CHECK_EQ_INT(got[k].off, all[a + k].off);
          CHECK(strcmp(got[k].text, all[a + k].text) == 0);
        }
      }
  }
}

TEST(compressed_input_refuses_an_offset) {
  const char *path = path_of("r.csv.gz");
  gzFile g = gzopen(path, "wb");
  gzwrite(g, DATA, sizeof DATA - 1);
  gzclose(g);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 0;
  o.column_names = NAMES, o.ncolumn_names = 3;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  CHECK_EQ_INT(hfg_record_reader_set_range(r, 14, 0, 2), HFG_EUNSUPPORTED);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), HFG_EUNSUPPORTED);
  hfg_record_reader_free(r);
}

T_MAIN

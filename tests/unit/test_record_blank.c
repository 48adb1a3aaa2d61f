/* Blank lines skipped by the CSV/TSV reader are counted
 * (hfg_record_reader_blank_lines), exactly once however the file is cut:
 *   - a whole read counts every line that is empty or only "\r" (LF and CRLF,
 *     before the header, a last "\r"), not an empty line inside quotes;
 *   - parts (parallel ingest: open_part, part_end): a part's reader skips the
 *     blank lines past its limit up to the next record, and the next part's
 *     guessed start may fall anywhere among them. Read as build_ingest_par.c
 *     does (a part whose first record is not where the previous one ended is
 *     read again from there), the parts' counts add up to the whole read's for
 *     every limit, every guessed start and several buffer sizes;
 *   - byte ranges (set_range, the batch/Spark path) from record offsets a whole
 *     read reported: the ranges' counts add up to the whole read's. */
#include <sys/stat.h>

#include "input/record_reader.h"
#include "t.h"

static const char *path_of(const char *name) { return t_tmp_path("test_record_blank", name); }

/* 12 blank lines; the quoted empty line in record 2 is data, not one of them. */
static const char DATA[] =
    "\n\r\n"                 /* 2, before the header */
    "id,name,note\n"
    "1,a,x\n"
    "\n\n\n"                 /* 3 */
    "2,b,\"p\n\nq\"\n"
    "\r\n\r\n"               /* 2 */
    "3,c,y\r\n"
    "\n"                     /* 1 */
    "4,d,z\n"
    "\n\r\n\n"               /* 3 */
    "5,e,w\n"
    "\r";                    /* 1: a last line of only CR */
#define BLANKS 12
#define RECORDS 5

static const char *write_data(void) {
  const char *path = path_of("blank.csv");
  FILE *f = fopen(path, "wb");
  fwrite(DATA, 1, sizeof DATA - 1, f);
  fclose(f);
  return path;
}

typedef struct {
  uint64_t first_off, end_off, end_line, blank, records;
} part_t;

/* Reads one part of parent's input 0 as a worker does. */
static part_t read_part(const hfg_record_reader *parent, const hfg_input_options *o,
                        uint64_t start, uint64_t line, uint64_t limit) {
  part_t p = {0, 0, 0, 0, 0};
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open_part(parent, o, 0, start, line, limit, &r, NULL, 0), 0);
  hfg_record rec;
  int rc, got = 0;
  while ((rc = hfg_record_reader_next(r, &rec)) == 1 || rc == HFG_EPARSE) {
    if (!got++) p.first_off = hfg_record_reader_record_offset(r, &rec);
    p.records++;
  }
  CHECK_EQ_INT(rc, 0);
  hfg_record_reader_part_end(r, &p.end_off, &p.end_line);
  if (!got) p.first_off = p.end_off;
  p.blank = hfg_record_reader_blank_lines(r);
  hfg_record_reader_free(r);
  return p;
}

/* The part at guess g after a part that ended at prev (its line prev_line):
 * read again from prev when its first record is not there (build_ingest_par.c's
 * commit). */
static part_t next_part(const hfg_record_reader *parent, const hfg_input_options *o,
                        uint64_t g, uint64_t prev, uint64_t prev_line, uint64_t limit) {
  part_t p = read_part(parent, o, g, 1, limit);
  if (p.first_off != prev) p = read_part(parent, o, prev, prev_line, limit);
  return p;
}

TEST(a_whole_read_counts_every_blank_line) {
  const char *path = write_data();
  size_t sizes[] = {1, 2, 5, 0};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
    o.has_header = 1;
    o.buffer_size = sizes[si];
    hfg_record_reader *r;
    CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
    hfg_record rec;
    int rc, n = 0;
    while ((rc = hfg_record_reader_next(r, &rec)) == 1) n++;
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_INT(n, RECORDS);
    CHECK_EQ_INT(hfg_record_reader_blank_lines(r), BLANKS);
    hfg_record_reader_free(r);
  }
}

TEST(a_dump_dialect_counts_none) {
  const char *path = path_of("blank.txt");
  FILE *f = fopen(path, "wb");
  fputs("1\ta\n\n2\tb\n", f); /* mysql: the blank line is a record (of one field) */
  fclose(f);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_MYSQL;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  hfg_record rec;
  while (hfg_record_reader_next(r, &rec) != 0) {}
  CHECK_EQ_INT(hfg_record_reader_blank_lines(r), 0);
  hfg_record_reader_free(r);
}

TEST(parts_add_up_at_every_limit_and_guess) {
  const char *path = write_data();
  const uint64_t size = sizeof DATA - 1;
  size_t sizes[] = {1, 5, 0};
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
    o.has_header = 1;
    o.buffer_size = sizes[si];
    hfg_record_reader *parent;
    CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &parent, NULL, 0), 0);
    long bad = 0, cases = 0;
    uint64_t bad_l = 0, bad_g = 0, bad_n = 0;
    /* two parts: [0, l) and the rest, the second guessed to start at g */
    for (uint64_t l = 1; l < size; l++) {
      part_t a = read_part(parent, &o, 0, 1, l);
      for (uint64_t g = l; g <= size; g++) {
        if (g < size && DATA[g - 1] != '\n') continue; /* guesses are line starts */
        part_t b = next_part(parent, &o, g, a.end_off, a.end_line, UINT64_MAX);
        cases++;
        if (a.blank + b.blank != BLANKS || a.records + b.records != RECORDS) {
          if (!bad++) bad_l = l, bad_g = g, bad_n = a.blank + b.blank;
          if (getenv("T_DEBUG")) fprintf(stderr, "l %llu g %llu: a %llu/%llu end %llu, b %llu/%llu first %llu\n", (unsigned long long)l, (unsigned long long)g, (unsigned long long)a.blank, (unsigned long long)a.records, (unsigned long long)a.end_off, (unsigned long long)b.blank, (unsigned long long)b.records, (unsigned long long)b.first_off);
        }
      }
    }
    /* three parts, each guessed at the first line start at or after its lo */
    for (uint64_t l1 = 1; l1 < size; l1++)
      for (uint64_t l2 = l1 + 1; l2 < size; l2++) {
        uint64_t g1 = l1, g2 = l2;
        while (g1 < size && DATA[g1 - 1] != '\n') g1++;
        while (g2 < size && DATA[g2 - 1] != '\n') g2++;
        part_t a = read_part(parent, &o, 0, 1, l1);
        part_t b = next_part(parent, &o, g1, a.end_off, a.end_line, l2);
        part_t c = next_part(parent, &o, g2, b.end_off, b.end_line, UINT64_MAX);
        cases++;
        if (a.blank + b.blank + c.blank != BLANKS || a.records + b.records + c.records != RECORDS) {
          if (!bad++) bad_l = l1, bad_g = l2, bad_n = a.blank + b.blank + c.blank;
        }
      }
    if (bad)
      fprintf(stderr, "  buffer %zu: %ld of %ld cuts miscount, first at %llu/%llu: %llu blank lines\n",
              sizes[si], bad, cases, (unsigned long long)bad_l, (unsigned long long)bad_g,
              (unsigned long long)bad_n);
    CHECK_EQ_INT(bad, 0);
    CHECK(cases > 1000);
    hfg_record_reader_free(parent);
  }
}

static const char *const NAMES[] = {"id", "name", "note"};

/* Records and blank lines of the range [start, end). */
static uint64_t range_blanks(const char *path, uint64_t start, uint64_t end, uint64_t line,
                             uint64_t *records) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = start == 0;
  o.buffer_size = 3;
  if (start) o.column_names = NAMES, o.ncolumn_names = 3;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  CHECK_EQ_INT(hfg_record_reader_set_range(r, start, end, line), 0);
  hfg_record rec;
  int rc;
  while ((rc = hfg_record_reader_next(r, &rec)) == 1 || rc == HFG_EPARSE) ++*records;
  CHECK_EQ_INT(rc, 0);
  uint64_t n = hfg_record_reader_blank_lines(r);
  hfg_record_reader_free(r);
  return n;
}

TEST(ranges_add_up) {
  const char *path = write_data();
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  hfg_record_reader *r;
  CHECK_EQ_INT(hfg_record_reader_open(&path, 1, &o, &r, NULL, 0), 0);
  uint64_t off[RECORDS + 1], line[RECORDS + 1];
  hfg_record rec;
  size_t n = 0;
  while (n < RECORDS && hfg_record_reader_next(r, &rec) == 1) {
    off[n] = hfg_record_reader_record_offset(r, &rec);
    line[n++] = rec.line;
  }
  hfg_record_reader_free(r);
  CHECK_EQ_INT(n, RECORDS);
  off[0] = 0, line[0] = 1; /* the first range holds the header */
  off[RECORDS] = 0;        /* the last one reads to the end */
  /* every cut into three ranges [0, a), [a, b), [b, end) */
  for (size_t a = 1; a < RECORDS; a++)
    for (size_t b = a; b <= RECORDS; b++) {
      uint64_t recs = 0, blanks = range_blanks(path, 0, off[a], 1, &recs);
      if (b > a) blanks += range_blanks(path, off[a], off[b], line[a], &recs);
      if (b < RECORDS) blanks += range_blanks(path, off[b], 0, line[b], &recs);
      CHECK_EQ_INT(blanks, BLANKS);
      CHECK_EQ_INT(recs, RECORDS);
    }
}

T_MAIN

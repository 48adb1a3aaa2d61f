/* Record reader: CSV (RFC 4180) and TSV splitting, headers, gzip, stdin,
 * malformed records and resynchronisation, buffer refills. Every syntax case
 * runs at buffer sizes 1..40 and the default, which must all agree. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "input/record_reader.h"
#include "sbuf.h"
#include "t.h"
#include "util/alloc.h"

static const char *tmp_path(const char *name) { return t_tmp_path("test_record_reader", name); }

static const char *write_file(const char *name, const char *data, size_t n);
#define write_str(name, s) write_file(name, s, strlen(s))
static const char *write_file(const char *name, const char *data, size_t n) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fwrite(data, 1, n, f);
  fclose(f);
  return path;
}

/* gzip with one member per chunk; chunks split data at the given offsets. */
static const char *write_gz(const char *name, const char *data, size_t n, size_t split) {
  const char *path = tmp_path(name);
  unlink(path);
  size_t parts[2][2] = {{0, split ? split : n}, {split, n}};
  for (int i = 0; i < (split ? 2 : 1); i++) {
    gzFile g = gzopen(path, "ab");
    if (!g) return NULL;
    if (parts[i][1] > parts[i][0]) gzwrite(g, data + parts[i][0], (unsigned)(parts[i][1] - parts[i][0]));
    gzclose(g);
  }
  return path;
}

static void sb_esc(sbuf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '\n') sb_str(b, "\\n");
    else if (s[i] == '\r') sb_str(b, "\\r");
    else if (s[i] == '\0') sb_str(b, "\\0");
    else sb_add(b, s + i, 1);
  }
}

/* Reads everything; one line per record: "3:a|b" or "3!reason{raw}", plus
 * "FATAL code: msg" on a fatal error. */
static char *run_paths(const char *const *paths, size_t n, hfg_input_options *o) {
  sbuf b = {0};
  sb_str(&b, "");
  hfg_record_reader *r;
  char em[1024];
  int rc = hfg_record_reader_open(paths, n, o, &r, em, sizeof em);
  if (rc) {
    char t[1200];
    snprintf(t, sizeof t, "OPEN %s: %s\n", hfg_status_name(rc), em);
    sb_str(&b, t);
    return b.p;
  }
  for (;;) {
    hfg_record rec;
    rc = hfg_record_reader_next(r, &rec);
    if (rc == 0) break;
    char t[64];
    if (rc == 1 || rc == HFG_EPARSE) {
      snprintf(t, sizeof t, "%llu%s", (unsigned long long)rec.line, rc == 1 ? ":" : "!");
      sb_str(&b, t);
      if (rc == 1) {
        for (size_t i = 0; i < rec.nfields; i++) {
          if (i) sb_str(&b, "|");
          sb_esc(&b, rec.fields[i].p, rec.fields[i].len);
        }
      } else {
        sb_str(&b, rec.reason);
        sb_str(&b, "{");
        sb_esc(&b, rec.raw, rec.raw_len);
        sb_str(&b, "}");
      }
      sb_str(&b, "\n");
      continue;
    }
    sb_str(&b, "FATAL ");
    sb_str(&b, hfg_status_name(rc));
    sb_str(&b, ": ");
    sb_str(&b, hfg_record_reader_errmsg(r));
    sb_str(&b, "\n");
    hfg_record rec2;
    if (hfg_record_reader_next(r, &rec2) != rc) sb_str(&b, "NOT STICKY\n");
    break;
  }
  hfg_record_reader_free(r);
  return b.p;
}

static char *run_one(const char *path, hfg_input_options *o) {
  const char *paths[1] = {path};
  return run_paths(paths, 1, o);
}

/* Checks data parses to `want` at every buffer size. */
static void expect_at_all_sizes(const char *data, size_t n, hfg_input_options o, const char *want) {
  const char *path = write_file("case.txt", data, n);
  for (size_t bs = 0; bs <= 40; bs++) {
    o.buffer_size = bs;
    char *got = run_one(path, &o);
    if (strcmp(got, want) != 0) {
      fprintf(stderr, "  buffer %zu: got\n%s  want\n%s", bs, got, want);
      t_failed_now = 1;
      free(got);
      return;
    }
    free(got);
  }
}

#define CSV_CASE(data, want)                                       \
  do {                                                             \
    hfg_input_options o_ = HFG_INPUT_OPTIONS_INIT;                 \
    expect_at_all_sizes(data, sizeof(data) - 1, o_, want);         \
  } while (0)

TEST(csv_simple_and_line_ends) {
  CSV_CASE("a,b,c\n1,2,3\n", "1:a|b|c\n2:1|2|3\n");
  CSV_CASE("a,b,c\r\n1,2,3\r\n", "1:a|b|c\n2:1|2|3\n");
  CSV_CASE("a,b,c\n1,2,3", "1:a|b|c\n2:1|2|3\n");      /* no final newline */
  CSV_CASE("a,b,c\r\n1,2,3\r", "1:a|b|c\n2:1|2|3\n");  /* CR at EOF dropped */
  CSV_CASE("a,b\rc,d\n", "1:a|b\\rc|d\n");             /* lone CR is data */
  CSV_CASE(",,\n", "1:||\n");                          /* empty fields */
  CSV_CASE("x\n\n\ny\n\r\n\n", "1:x\n4:y\n");           /* blank lines skipped, counted */
  CSV_CASE("", "");
  CSV_CASE("\n\n", "");
}

TEST(csv_quotes) {
  CSV_CASE("\"a\",\"b,c\",d\n", "1:a|b,c|d\n");
  CSV_CASE("\"he said \"\"hi\"\"\",x\n", "1:he said \"hi\"|x\n");
  CSV_CASE("\"\",\"\"\"\"\n", "1:|\"\n");
  CSV_CASE("\"multi\nline\",2\n\"x\r\ny\",3\nz,4\n", "1:multi\\nline|2\n3:x\\r\\ny|3\n5:z|4\n");
  CSV_CASE("a,\"b\"\r\nc,\"d\"", "1:a|b\n2:c|d\n");
  CSV_CASE("a,\"b\"\r", "1:a|b\n");
  CSV_CASE("\"a\nb\nc\"\n\n\"d\",e\n", "1:a\\nb\\nc\n5!expected 1 fields, got 2{\"d\",e}\n");
  CSV_CASE("1,\"\n\n\"\n", "1:1|\\n\\n\n");
}

TEST(csv_malformed_and_resync) {
  /* quote inside an unquoted field: rejected, next line read */
  CSV_CASE("a,b\nab\"c,d\ne,f\n", "1:a|b\n2!quote in unquoted field{ab\"c,d}\n3:e|f\n");
  CSV_CASE("a,b\nc,d\"\r\ne,f\n", "1:a|b\n2!quote in unquoted field{c,d\"}\n3:e|f\n");
  /* text after a closing quote */
  CSV_CASE("\"a\"x,b\nc,d\n", "1!unexpected character after closing quote{\"a\"x,b}\n2:c|d\n");
  /* error on the second physical line of a multi-line record */
  CSV_CASE("\"a\nb\"x,1\nc,d\n", "1!unexpected character after closing quote{\"a\\nb\"x,1}\n3:c|d\n");
  /* wrong field counts, reported with the record's first line */
  CSV_CASE("a,b,c\n1,2\n\"x\ny\",2,3\n4,5,6,7\n8,9,10\n",
           "1:a|b|c\n2!expected 3 fields, got 2{1,2}\n3:x\\ny|2|3\n5!expected 3 fields, got 4{4,5,6,7}\n"
           "6:8|9|10\n");
  /* unterminated quote at EOF: the rest of the file is the reject */
  CSV_CASE("a,b\n1,\"2\n3,4\n", "1:a|b\n2!unterminated quoted field: the quote opened on this line "
           "runs 2 lines (7 bytes) to the end of the input{1,\"2\\n3,4}\n");
  CSV_CASE("a,\"", "1!unterminated quoted field: the quote opened on this line runs 1 line (1 byte) "
           "to the end of the input{a,\"}\n");
  /* the quote may open on a later line of the record than its first, after a doubled quote */
  CSV_CASE("a,b\n\"x\ny\",\"p\"\"q\n\nr\r\n", "1:a|b\n2!unterminated quoted field: the quote opened "
           "on line 2 of the record runs 3 lines (10 bytes) to the end of the input{\"x\\ny\",\"p\"\"q\\n\\nr}\n");
}

TEST(csv_fields_and_raw) {
  const char *path = write_str("raw.csv", "id,name\r\n7,\"O\"\"Neil\"\r\n");
  const char *paths[1] = {path};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  hfg_record_reader *r;
  REQUIRE(hfg_record_reader_open(paths, 1, &o, &r, NULL, 0) == 0);
  size_t nc;
  const char *const *cols = hfg_record_reader_columns(r, &nc);
  CHECK_EQ_INT(nc, 2);
  CHECK(strcmp(cols[0], "id") == 0 && strcmp(cols[1], "name") == 0);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK_EQ_INT(rec.line, 2);
  CHECK(rec.reason == NULL);
  CHECK(strcmp(rec.file, path) == 0);
  CHECK_EQ_INT(rec.raw_len, 11);
  CHECK_MEM(rec.raw, "7,\"O\"\"Neil\"", 11);
  CHECK_EQ_INT(rec.fields[1].len, 6);
  CHECK_MEM(rec.fields[1].p, "O\"Neil", 6);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
  CHECK_EQ_INT(hfg_record_reader_bytes_read(r), 22);
  hfg_record_reader_free(r);
  hfg_record_reader_free(NULL);
}

TEST(tsv_and_custom_delimiters) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_TSV;
  const char tsv[] = "a\t\"b\"\tc\r\n1\t2\"x\t\n";
  expect_at_all_sizes(tsv, sizeof tsv - 1, o, "1:a|\"b\"|c\n2:1|2\"x|\n");
  o.delimiter = ',';
  const char tsv2[] = "a,b\tc\n";
  expect_at_all_sizes(tsv2, sizeof tsv2 - 1, o, "1:a|b\tc\n");
  hfg_input_options c = HFG_INPUT_OPTIONS_INIT;
  c.delimiter = '|';
  const char pipe[] = "a|\"b|c\"|d,e\n";
  expect_at_all_sizes(pipe, sizeof pipe - 1, c, "1:a|b|c|d,e\n");
  c.delimiter = ';';
  const char semi[] = "1;\"2;3\";4,5\r\n";
  expect_at_all_sizes(semi, sizeof semi - 1, c, "1:1|2;3|4,5\n");
  c.delimiter = 0x01; /* Hive's ^A */
  const char ctrl[] = "a\001b\001\n";
  expect_at_all_sizes(ctrl, sizeof ctrl - 1, c, "1:a|b|\n");
}

/* TSV in one pass (the delimiter or LF, 32 bytes a step with AVX2): random
 * lines with lone CRs, quotes and commas as data, fields of 0..70 bytes
 * (across the 16/32-byte steps), LF or CR LF, a last line without LF (and one
 * with a final CR), must split as "the line without LF, one trailing CR
 * dropped, cut at every TAB", at every buffer size. */
TEST(tsv_one_pass_split) {
  sbuf data = {0}, want = {0};
  sb_str(&data, "");
  sb_str(&want, "");
  unsigned seed = 777;
  for (int i = 0; i < 250; i++) {
    sbuf line = {0};
    sb_str(&line, "");
    for (int f = 0; f < 4; f++) {
      if (f) sb_str(&line, "\t");
      seed = seed * 1103515245u + 12345u;
      int len = (int)(seed >> 16) % 71;
      for (int k = 0; k < len; k++) {
        seed = seed * 1103515245u + 12345u;
        unsigned c = (seed >> 16) % 13;
        sb_str(&line, c == 0 ? "\r" : c == 1 ? "\"" : c == 2 ? "," : "x");
      }
    }
    seed = seed * 1103515245u + 12345u;
    int crlf = (seed >> 16) % 3 == 0, last = i == 249;
    sb_add(&data, line.p, line.len);
    if (crlf) sb_str(&data, "\r");
    if (!last) sb_str(&data, "\n");
    /* the expected record: one trailing CR dropped, cut at TABs */
    size_t n = line.len + (size_t)crlf;
    char *content = malloc(n + 1);
    memcpy(content, line.p, line.len);
    if (crlf) content[line.len] = '\r';
    if (n && content[n - 1] == '\r') n--;
    char t[32];
    snprintf(t, sizeof t, "%d:", i + 1);
    sb_str(&want, t);
    for (size_t k = 0; k < n; k++) {
      if (content[k] == '\t') sb_str(&want, "|");
      else sb_esc(&want, content + k, 1);
    }
    sb_str(&want, "\n");
    free(content);
    free(line.p);
  }
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_TSV;
  expect_at_all_sizes(data.p, data.len, o, want.p);
  const char edge[] = "a\r\tb\r\r\n\t\r\nc\t\r"; /* data CRs; one CR of CR CR LF; final CR */
  expect_at_all_sizes(edge, sizeof edge - 1, o, "1:a\\r|b\\r\n2:|\n3:c|\n");
  free(data.p);
  free(want.p);
}

TEST(bad_options) {
  const char *paths[1] = {"/nonexistent/x"};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  hfg_record_reader *r = (hfg_record_reader *)1;
  char em[200];
  o.delimiter = '"';
  CHECK_EQ_INT(hfg_record_reader_open(paths, 1, &o, &r, em, sizeof em), HFG_EINVAL);
  CHECK(r == NULL);
  o.delimiter = '\n';
  CHECK_EQ_INT(hfg_record_reader_open(paths, 1, &o, &r, em, sizeof em), HFG_EINVAL);
  o.delimiter = 256;
  CHECK_EQ_INT(hfg_record_reader_open(paths, 1, &o, &r, em, sizeof em), HFG_EINVAL);
  CHECK_EQ_INT(hfg_record_reader_open(paths, 0, NULL, &r, em, sizeof em), HFG_EINVAL);
  /* a missing file: without a header the error comes from next() */
  char *got = run_one("/nonexistent/x", NULL);
  CHECK(strstr(got, "FATAL HFG_EIO: /nonexistent/x: cannot open") == got);
  CHECK(strstr(got, "NOT STICKY") == NULL);
  free(got);
  o = (hfg_input_options)HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  got = run_one("/nonexistent/x", &o);
  CHECK(strstr(got, "OPEN HFG_EIO: /nonexistent/x: cannot open") == got);
  free(got);
}

TEST(headers_across_files) {
  const char *a = write_str("h1.csv", "id,name\n1,x\n");
  const char *e = write_str("h_empty.csv", "");
  const char *b = write_str("h2.csv", "\xef\xbb\xbf\"id\",name\r\n2,y\r\n3,z");
  const char *c = write_str("h3.csv", "id,nom\n4,w\n");
  const char *d = write_str("h4.csv", "id\n5\n");
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  const char *ok[4] = {e, a, e, b};
  char *got = run_paths(ok, 4, &o);
  CHECK(strcmp(got, "2:1|x\n2:2|y\n3:3|z\n") == 0);
  free(got);
  const char *bad[3] = {a, b, c};
  got = run_paths(bad, 3, &o);
  CHECK(strstr(got, "2:1|x\n2:2|y\n3:3|z\nFATAL HFG_EINVAL: ") == got);
  CHECK(strstr(got, "h3.csv: header differs from ") != NULL);
  CHECK(strstr(got, "column 2 is 'nom', not 'name'") != NULL);
  free(got);
  const char *bad2[2] = {a, d};
  got = run_paths(bad2, 2, &o);
  CHECK(strstr(got, "1 columns, not 2") != NULL);
  free(got);
  /* header count against expected_columns */
  o.expected_columns = 3;
  got = run_one(a, &o);
  CHECK(strstr(got, "OPEN HFG_EINVAL: ") == got && strstr(got, "header has 2 columns, expected 3"));
  free(got);
  /* malformed header */
  o.expected_columns = 0;
  const char *mh = write_str("h_bad.csv", "id,\"name\n");
  got = run_one(mh, &o);
  CHECK(strstr(got, "OPEN HFG_ECORRUPT: ") == got && strstr(got, "malformed header"));
  free(got);
  /* without has_header, the first line is data and fixes the count */
  o.has_header = 0;
  got = run_one(a, &o);
  CHECK(strcmp(got, "1:id|name\n2:1|x\n") == 0);
  free(got);
  /* file names and line numbers restart per file */
  const char *two[2] = {a, d};
  got = run_paths(two, 2, &o);
  CHECK(strcmp(got, "1:id|name\n2:1|x\n1!expected 2 fields, got 1{id}\n2!expected 2 fields, got 1{5}\n") == 0);
  free(got);
}

TEST(record_file_names) {
  const char *a = write_str("n1.csv", "1\n");
  const char *b = write_str("n2.csv", "2\n");
  const char *paths[2] = {a, b};
  hfg_record_reader *r;
  REQUIRE(hfg_record_reader_open(paths, 2, NULL, &r, NULL, 0) == 0);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK(strcmp(rec.file, a) == 0);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK(strcmp(rec.file, b) == 0);
  CHECK_EQ_INT(rec.line, 1);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
  hfg_record_reader_free(r);
}

static char *big_csv(size_t nrec, size_t *len) {
  sbuf b = {0};
  for (size_t i = 0; i < nrec; i++) {
    char t[200];
    if (i % 7 == 3)
      snprintf(t, sizeof t, "%zu,\"quoted, \"\"%zu\"\"\nsecond line\",%zu\r\n", i, i * 31, i % 13);
    else
      snprintf(t, sizeof t, "%zu,name%zu,%zu\n", i, i * 31, i % 13);
    sb_str(&b, t);
  }
  *len = b.len;
  return b.p;
}

/* Quoted fields without a doubled quote are handed out in place (in the
 * read buffer), others copied; the closing-quote scan also counts the quoted
 * newlines for the line numbers. Random quoted fields (doubled quotes, LF and
 * CR LF inside, empty, around the 16/32-byte steps of the scan) must give the
 * records and line numbers written beside them, in place (no --null-string)
 * and copied (a --null-string that matches nothing), at every buffer size. */
TEST(csv_quoted_in_place_equals_copied) {
  sbuf data = {0}, want = {0};
  unsigned seed = 12345;
  uint64_t line = 1;
  for (int i = 0; i < 300; i++) {
    sbuf raw = {0}, val = {0};
    sb_str(&raw, "");
    sb_str(&val, "");
    seed = seed * 1103515245u + 12345u;
    int len = (int)(seed >> 16) % 90, doubled = (seed >> 8) % 3 == 0;
    uint64_t lfs = 0;
    for (int k = 0; k < len; k++) {
      seed = seed * 1103515245u + 12345u;
      unsigned c = (seed >> 16) % 23;
      const char *piece = c == 0 ? "\n" : c == 1 ? "\r\n" : c == 2 ? "," : c == 3 && doubled ? "\"" : "x";
      if (piece[0] == '\n' || piece[1] == '\n') lfs++;
      sb_str(&val, piece);
      sb_str(&raw, piece[0] == '"' ? "\"\"" : piece);
    }
    char t[64];
    snprintf(t, sizeof t, "%d,\"", i);
    sb_str(&data, t);
    sb_add(&data, raw.p, raw.len);
    snprintf(t, sizeof t, "\",z%d%s", i % 7, i % 5 == 2 ? "\r\n" : "\n");
    sb_str(&data, t);
    snprintf(t, sizeof t, "%llu:%d|", (unsigned long long)line, i);
    sb_str(&want, t);
    sb_esc(&want, val.p, val.len);
    snprintf(t, sizeof t, "|z%d\n", i % 7);
    sb_str(&want, t);
    line += 1 + lfs;
    free(raw.p);
    free(val.p);
  }
  sb_str(&data, "7,\"last\nfield\",\"\"");  /* ends on a closing quote at end of input */
  {
    char t[64];
    snprintf(t, sizeof t, "%llu:7|last\\nfield|\n", (unsigned long long)line);
    sb_str(&want, t);
  }
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  expect_at_all_sizes(data.p, data.len, o, want.p);
  o.null_string = "\x01never\x01"; /* every quoted field copied */
  expect_at_all_sizes(data.p, data.len, o, want.p);
  /* the fast path is taken: a quoted field without "" lies in the raw bytes */
  const char *path = write_str("inplace.csv", "1,\"ab\ncd\",\"e\"\"f\"\n");
  const char *paths[1] = {path};
  hfg_input_options o2 = HFG_INPUT_OPTIONS_INIT;
  hfg_record_reader *r;
  REQUIRE(hfg_record_reader_open(paths, 1, &o2, &r, NULL, 0) == 0);
  hfg_record rec;
  REQUIRE(hfg_record_reader_next(r, &rec) == 1);
  CHECK(rec.fields[1].p > rec.raw && rec.fields[1].p < rec.raw + rec.raw_len);
  CHECK(rec.fields[2].p < rec.raw || rec.fields[2].p >= rec.raw + rec.raw_len);
  CHECK_EQ_INT(rec.fields[2].len, 3);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
  hfg_record_reader_free(r);
  free(data.p);
  free(want.p);
}

TEST(gzip_inputs) {
  size_t n;
  char *data = big_csv(20000, &n);
  const char *plain = write_file("g.csv", data, n);
  const char *gz1 = write_gz("g1.csv.bin", data, n, 0);
  const char *gz2 = write_gz("g2.csv", data, n, n / 3 + 5); /* two members, split mid-record */
  char *want = run_one(plain, NULL);
  CHECK(strstr(want, "!") == NULL && strstr(want, "FATAL") == NULL);
  CHECK(strstr(want, "\n4:3|quoted, \"93\"\\nsecond line|3\n") != NULL);
  for (int i = 0; i < 2; i++) {
    hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
    o.buffer_size = i ? 7 : 0;
    char *g = run_one(gz1, &o);
    CHECK(strcmp(g, want) == 0);
    free(g);
    g = run_one(gz2, &o);
    CHECK(strcmp(g, want) == 0);
    free(g);
  }
  /* truncated gzip and trailing garbage are fatal, naming the file */
  FILE *f = fopen(gz1, "rb");
  fseek(f, 0, SEEK_END);
  long gl = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *gzb = malloc((size_t)gl + 8);
  CHECK(fread(gzb, 1, (size_t)gl, f) == (size_t)gl);
  fclose(f);
  const char *tr = write_file("trunc.gz", gzb, (size_t)gl / 2);
  char *g = run_one(tr, NULL);
  CHECK(strstr(g, "FATAL HFG_ECORRUPT: ") != NULL && strstr(g, "trunc.gz: gzip stream is truncated"));
  free(g);
  memcpy(gzb + gl, "junk", 4);
  const char *ju = write_file("junk.gz", gzb, (size_t)gl + 4);
  g = run_one(ju, NULL);
  CHECK(strstr(g, "FATAL HFG_ECORRUPT: ") != NULL && strstr(g, "junk.gz: bad gzip data"));
  free(g);
  free(gzb);
  free(want);
  free(data);
}

TEST(stdin_input) {
  const char *path = write_str("stdin.csv", "a,b\n\"c\",d\n");
  int saved = dup(0);
  int fd = open(path, O_RDONLY);
  REQUIRE(saved >= 0 && fd >= 0);
  dup2(fd, 0);
  close(fd);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  const char *paths[1] = {"-"};
  hfg_record_reader *r;
  int rc = hfg_record_reader_open(paths, 1, &o, &r, NULL, 0);
  hfg_record rec;
  if (rc == 0) {
    CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
    CHECK(strcmp(rec.file, "<stdin>") == 0);
    CHECK_EQ_INT(rec.line, 2);
    CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
    hfg_record_reader_free(r);
  }
  CHECK_EQ_INT(rc, 0);
  CHECK(fcntl(0, F_GETFD) != -1); /* stdin not closed */
  dup2(saved, 0);
  close(saved);
}

TEST(overlong_records) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.max_record_bytes = 10;
  /* a stray quote would swallow the file: only its first line is rejected */
  const char d1[] = "1,2\n3,\"4\n5,6\n7,8\n";
  expect_at_all_sizes(d1, sizeof d1 - 1, o,
                      "1:1|2\n2!record longer than 10 bytes: the quote opened on this line is still "
                      "open after 3 lines (8 bytes){3,\"4}\n3:5|6\n4:7|8\n");
  /* a quote that closes within the limit is not the cause; one opened on the record's
   * second line is said to open there */
  const char d4[] = "\"a\nb\",1111111111111\n";
  expect_at_all_sizes(d4, sizeof d4 - 1, o, "1!record longer than 10 bytes{\"a}\n2!record "
                      "longer than 10 bytes{b\",1111111}\n");
  /* open at the limit, closed later: said alike at every buffer size */
  const char d6[] = "1,\"abcdefghijkl\"\n2,3\n";
  expect_at_all_sizes(d6, sizeof d6 - 1, o, "1!record longer than 10 bytes: the quote opened on "
                      "this line is still open after 1 line (8 bytes){1,\"abcdefg}\n2:2|3\n");
  const char d5[] = "\"a\nb\",\"c\nd\ne\nf\"\n";
  expect_at_all_sizes(d5, sizeof d5 - 1, o, "1!record longer than 10 bytes: the quote opened "
                      "on line 2 of the record is still open after 2 lines (4 bytes){\"a}\n2!quote in unquoted "
                      "field{b\",\"c}\n3:d\n4:e\n5!quote in unquoted field{f\"}\n");
  /* a giant line: cut at 10 bytes in raw, the rest skipped */
  const char d2[] = "1,2\n333333333333333333333,4\n5,6";
  expect_at_all_sizes(d2, sizeof d2 - 1, o, "1:1|2\n2!record longer than 10 bytes{3333333333}\n3:5|6\n");
  /* exactly at the limit is fine */
  const char d3[] = "123456789\n";
  expect_at_all_sizes(d3, sizeof d3 - 1, o, "1:123456789\n");
}

/* A binary input (NUL bytes, or a tenth control bytes near the malformed
 * record) is said to look binary, naming the byte and line, instead of only
 * the parse error; text (UTF-8, Latin-1, a few escapes) keeps the parse
 * error, and nothing that parses is refused. */
TEST(binary_input_said_to_be_binary) {
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  /* a NUL on the header's line: said at every buffer size */
  const char d1[] = "\x7f" "ELF\x02\x01\x01\0\0\0\"x,y\n1,2\n";
  const char *p1 = write_file("elf.csv", d1, sizeof d1 - 1);
  for (size_t bs = 0; bs <= 40; bs++) {
    o.buffer_size = bs;
    char *got = run_one(p1, &o);
    CHECK(strstr(got, "OPEN HFG_ECORRUPT: ") && strstr(got, "elf.csv: the input looks binary, not CSV text (a NUL byte "
                      "at byte 7, line 1): is it compressed in a format hfilegen does not read, "
                      "or not the file meant? (line 1: malformed header: quote in unquoted "
                      "field)\n"));
    free(got);
  }
  o.buffer_size = 0;
  /* no NUL, but control bytes: a third of the bytes */
  char d2[300];
  for (size_t i = 0; i < sizeof d2; i++) d2[i] = (char)(i % 3 ? 'a' + i % 26 : 1 + i % 8);
  d2[0] = 'a', d2[5] = '"', d2[sizeof d2 - 1] = '\n';
  const char *p2 = write_file("ctl.csv", d2, sizeof d2);
  char *got = run_one(p2, &o);
  CHECK(strstr(got, "looks binary, not CSV text (99 control bytes in the 300 from byte 0, line 1)"));
  free(got);
  /* without a header: the first records' reasons say it */
  hfg_input_options nh = HFG_INPUT_OPTIONS_INIT;
  nh.expected_columns = 2;
  const char d3[] = "a,\0b\"c\n1,2\n";
  expect_at_all_sizes(d3, sizeof d3 - 1, nh,
                      "1!the input looks binary, not CSV text (a NUL byte at byte 2, line 1): "
                      "quote in unquoted field{a,\\0b\"c}\n2:1|2\n");
  /* text keeps the parse error: UTF-8, Latin-1 (high bytes are not control bytes), escapes */
  const char *texts[] = {"na\"me,caf\xc3\xa9\n", "na\"me,caf\xe9 \xe0 \xff\xfe\xfd\n",
                         "\x1b[1mna\"me\x1b[0m,\x0c b c d e f g h i j k l m n o p q r s\n"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    got = run_one(write_str("text.csv", texts[i]), &o);
    CHECK(strstr(got, "line 1: malformed header: quote in unquoted field") && !strstr(got, "binary"));
    free(got);
  }
  /* a NUL in a well-formed file is data, as before */
  const char d4[] = "a,b\n1,x\0y\n";
  expect_at_all_sizes(d4, sizeof d4 - 1, o, "2:1|x\\0y\n");
}

/* Every allocation failure is reported as HFG_ENOMEM and leaks nothing
 * (leaks are caught by the ASan build). */
TEST(alloc_failures) {
  size_t n;
  char *data = big_csv(300, &n);
  const char *path = write_gz("fault.csv.gz", data, n, 0);
  const char *paths[2] = {path, path};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  o.buffer_size = 64;
  int completed = 0;
  for (long k = 1; k < 200 && !completed; k++) {
    hfg_fault_alloc_arm(k);
    hfg_record_reader *r;
    int rc = hfg_record_reader_open(paths, 2, &o, &r, NULL, 0);
    size_t good = 0;
    if (rc == 0) {
      hfg_record rec;
      while ((rc = hfg_record_reader_next(r, &rec)) == 1 || rc == HFG_EPARSE) good++;
      hfg_record_reader_free(r);
    }
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      CHECK_EQ_INT(good, 2 * 299);
      completed = 1;
    } else {
      CHECK_EQ_INT(rc, HFG_ENOMEM);
    }
  }
  CHECK(completed);
  free(data);
}

T_MAIN

/* The record reader's inputs: zstd, bzip2 and xz decoded by magic (single and
 * concatenated streams, tiny buffers, truncation at every cut, bytes after the
 * stream, allocation failures), other compressions and UTF-16/32 refused, the
 * format guessed from the name, header columns renamed. */
#include <bzlib.h>
#include <sys/stat.h>
#include <lzma.h>
#include <zstd.h>

#include "input/record_reader.h"
#include "t.h"
#include "util/alloc.h"

static const char *tmp_path(const char *name) { return t_tmp_path("test_record_input", name); }

static const char *write_file(const char *name, const void *data, size_t n) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (!f) return NULL;
  fwrite(data, 1, n, f);
  fclose(f);
  return path;
}

typedef enum { ZSTD, BZ2, XZ } ztype;

/* data compressed as one stream of type t, appended to out at *len */
static void compress(ztype t, const char *data, size_t n, uint8_t *out, size_t *len, size_t cap) {
  if (t == ZSTD) {
    size_t r = ZSTD_compress(out + *len, cap - *len, data, n, 3);
    REQUIRE(!ZSTD_isError(r));
    *len += r;
  } else if (t == BZ2) {
    unsigned dl = (unsigned)(cap - *len);
    REQUIRE(BZ2_bzBuffToBuffCompress((char *)out + *len, &dl, (char *)data, (unsigned)n, 1, 0, 0) ==
            BZ_OK);
    *len += dl;
  } else {
    size_t pos = *len;
    REQUIRE(lzma_easy_buffer_encode(1, LZMA_CHECK_CRC64, NULL, (const uint8_t *)data, n, out, &pos,
                                    cap) == LZMA_OK);
    *len = pos;
  }
}

/* Every record's fields joined with '|', one per line; "FATAL code: msg" on
 * a fatal error (open or next). */
static char *read_all(const char *path, hfg_input_options *o) {
  size_t cap = 1 << 20, len = 0;
  char *b = malloc(cap);
  b[0] = '\0';
  hfg_record_reader *r;
  char em[512];
  const char *paths[1] = {path};
  int rc = hfg_record_reader_open(paths, 1, o, &r, em, sizeof em);
  if (rc) {
    snprintf(b, cap, "FATAL %s: %s\n", hfg_status_name(rc), em);
    return b;
  }
  size_t nc = 0;
  const char *const *cols = hfg_record_reader_columns(r, &nc);
  for (size_t i = 0; i < nc; i++) len += (size_t)snprintf(b + len, cap - len, "%s%s", i ? "|" : "H:", cols[i]);
  if (nc) len += (size_t)snprintf(b + len, cap - len, "\n");
  hfg_record rec;
  while ((rc = hfg_record_reader_next(r, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      len += (size_t)snprintf(b + len, cap - len, "FATAL %s: %s\n", hfg_status_name(rc),
                              hfg_record_reader_errmsg(r));
      break;
    }
    for (size_t i = 0; i < rec.nfields && len + rec.fields[i].len + 2 < cap; i++) {
      if (i) b[len++] = '|';
      memcpy(b + len, rec.fields[i].p, rec.fields[i].len);
      len += rec.fields[i].len;
    }
    if (rc == HFG_EPARSE) len += (size_t)snprintf(b + len, cap - len, "!%s", rec.reason);
    b[len++] = '\n';
    b[len] = '\0';
  }
  hfg_record_reader_free(r);
  return b;
}

static char *sample(size_t nrec, size_t *n) {
  char *d = malloc(nrec * 40 + 32);
  size_t len = (size_t)sprintf(d, "id,name,note\n");
  for (size_t i = 0; i < nrec; i++)
    len += (size_t)sprintf(d + len, "%zu,user%zu,\"a, b\"\n", i, i * 7);
  *n = len;
  return d;
}

static const char *const NAMES[] = {"zstd", "bzip2", "xz"};

TEST(compressed_inputs) {
  size_t n;
  char *data = sample(5000, &n);
  const char *plain = write_file("plain.csv", data, n);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  char *want = read_all(plain, &o);
  CHECK(strstr(want, "FATAL") == NULL && strstr(want, "!") == NULL);
  size_t cap = n + 65536;
  uint8_t *z = malloc(cap + 16);
  for (ztype t = ZSTD; t <= XZ; t++) {
    size_t zl = 0;
    compress(t, data, n, z, &zl, cap);
    const char *one = write_file("one.bin", z, zl); /* the name tells nothing */
    for (size_t bs = 0; bs <= 7; bs += 7) {
      o.buffer_size = bs;
      char *got = read_all(one, &o);
      if (strcmp(got, want)) fprintf(stderr, "  %s buffer %zu: %.200s\n", NAMES[t], bs, got);
      CHECK(strcmp(got, want) == 0);
      free(got);
    }
    o.buffer_size = 0;
    /* two streams, split inside a record */
    size_t cut = n / 3 + 5, zl2 = 0;
    compress(t, data, cut, z, &zl2, cap);
    compress(t, data + cut, n - cut, z, &zl2, cap);
    const char *two = write_file("two.bin", z, zl2);
    char *got = read_all(two, &o);
    if (strcmp(got, want)) fprintf(stderr, "  %s concatenated: %.200s\n", NAMES[t], got);
    CHECK(strcmp(got, want) == 0);
    free(got);
    /* cut short anywhere: a fatal error naming the file, never a silent end */
    zl = 0;
    compress(t, data, n, z, &zl, cap);
    size_t cuts[] = {zl - 1, zl - 4, zl / 2, 12, 6};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
      const char *tr = write_file("trunc.bin", z, cuts[i]);
      got = read_all(tr, &o);
      if (!strstr(got, "FATAL HFG_ECORRUPT: ") || !strstr(got, "trunc.bin: "))
        fprintf(stderr, "  %s cut at %zu: %.300s\n", NAMES[t], cuts[i], got + strlen(got) - (strlen(got) > 300 ? 300 : strlen(got)));
      CHECK(strstr(got, "FATAL HFG_ECORRUPT: ") && strstr(got, "trunc.bin: "));
      free(got);
    }
    /* bytes after the stream that are not another stream (too few bytes for
     * an xz stream header read as a cut-short stream) */
    memcpy(z + zl, "junk after the stream\n", 22);
    const char *junk = write_file("junk.bin", z, zl + 22);
    got = read_all(junk, &o);
    CHECK(strstr(got, "FATAL HFG_ECORRUPT: ") && strstr(got, "junk.bin: bad"));
    free(got);
    memcpy(z + zl, "junk\n", 5);
    junk = write_file("junk.bin", z, zl + 5);
    got = read_all(junk, &o);
    CHECK(strstr(got, "FATAL HFG_ECORRUPT: ") && strstr(got, "junk.bin: "));
    free(got);
  }
  free(z);
  free(want);
  free(data);
}

/* Every allocation failure inside a decoder is HFG_ENOMEM and leaks nothing
 * (the ASan build catches leaks). */
TEST(compressed_alloc_failures) {
  size_t n;
  char *data = sample(300, &n);
  uint8_t *z = malloc(n + 65536);
  for (ztype t = ZSTD; t <= XZ; t++) {
    size_t zl = 0;
    compress(t, data, n, z, &zl, n + 65536);
    const char *path = write_file("fault.bin", z, zl);
    const char *paths[1] = {path};
    hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
    o.has_header = 1;
    int completed = 0;
    for (long k = 1; k < 400 && !completed; k++) {
      hfg_fault_alloc_arm(k);
      hfg_record_reader *r;
      int rc = hfg_record_reader_open(paths, 1, &o, &r, NULL, 0);
      size_t good = 0;
      if (rc == 0) {
        hfg_record rec;
        while ((rc = hfg_record_reader_next(r, &rec)) == 1) good++;
        hfg_record_reader_free(r);
      }
      int fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (!fired) {
        CHECK_EQ_INT(rc, 0);
        CHECK_EQ_INT(good, 300);
        completed = 1;
      } else if (rc != HFG_ENOMEM) {
        fprintf(stderr, "  %s: allocation %ld failed, rc %d\n", NAMES[t], k, rc);
        CHECK(0);
      }
    }
    CHECK(completed);
  }
  free(z);
  free(data);
}

static void expect_refused(const char *what, const void *magic, size_t mn, const char *needle) {
  char buf[64] = {0};
  memcpy(buf, magic, mn);
  memcpy(buf + mn, "id,x\n1,2\n", 9);
  const char *p = write_file("refused.bin", buf, mn + 9);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  char *got = read_all(p, &o);
  if (!strstr(got, "FATAL HFG_EUNSUPPORTED: ") || !strstr(got, needle))
    fprintf(stderr, "  %s: %s", what, got);
  CHECK(strstr(got, "FATAL HFG_EUNSUPPORTED: ") && strstr(got, "refused.bin: ") && strstr(got, needle));
  free(got);
  /* without a header the first next() reports it */
  o.has_header = 0;
  got = read_all(p, &o);
  CHECK(strstr(got, "FATAL HFG_EUNSUPPORTED: ") && strstr(got, needle));
  free(got);
}

TEST(refused_inputs) {
  expect_refused("lz4", "\x04\x22\x4d\x18", 4, "lz4-compressed");
  expect_refused("lz4 legacy", "\x02\x21\x4c\x18", 4, "lz4 (legacy format)-compressed");
  expect_refused("snappy", "\xff\x06\x00\x00sNaPpY", 10, "snappy (framed)-compressed");
  expect_refused("zip", "PK\x03\x04", 4, "zip-compressed");
  expect_refused("7z", "7z\xbc\xaf\x27\x1c", 6, "7z-compressed");
  expect_refused("rar", "Rar!\x1a\x07", 6, "rar-compressed");
  expect_refused("lzip", "LZIP\x01", 5, "lzip-compressed");
  expect_refused("compress", "\x1f\x9d", 2, "Unix compress (.Z)-compressed");
  expect_refused("UTF-16LE", "\xff\xfe", 2, "UTF-16LE (byte order mark ff fe)");
  expect_refused("UTF-16BE", "\xfe\xff", 2, "UTF-16BE (byte order mark fe ff)");
  expect_refused("UTF-32LE", "\xff\xfe\0\0", 4, "UTF-32LE");
  expect_refused("UTF-32BE", "\0\0\xfe\xff", 4, "UTF-32BE");
  expect_refused("UTF-16LE no BOM", "i\0d\0", 4, "iconv -f UTF-16LE -t UTF-8");
  expect_refused("UTF-16BE no BOM", "\0i\0d", 4, "iconv -f UTF-16BE -t UTF-8");
  /* a UTF-8 BOM is still simply dropped, and short files are fine */
  const char *p = write_file("bom8.csv", "\xef\xbb\xbfid\n1\n", 8);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  char *got = read_all(p, &o);
  CHECK(strcmp(got, "H:id\n1\n") == 0);
  free(got);
  p = write_file("short.csv", "a\n", 2);
  got = read_all(p, &o);
  CHECK(strcmp(got, "H:a\n") == 0);
  free(got);
}

TEST(format_guess) {
  CHECK_EQ_INT(hfg_input_format_guess("a.tsv"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("dir/A.TAB"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.tsv.gz"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.tsv.zst"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.tab.bz2"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.tsv.xz"), HFG_INPUT_TSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.csv"), HFG_INPUT_CSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.csv.gz"), HFG_INPUT_CSV);
  CHECK_EQ_INT(hfg_input_format_guess("tsv"), HFG_INPUT_CSV);
  CHECK_EQ_INT(hfg_input_format_guess(".tsv"), HFG_INPUT_CSV);
  CHECK_EQ_INT(hfg_input_format_guess("a.tsv.gz.gz"), HFG_INPUT_CSV);
  CHECK_EQ_INT(hfg_input_format_guess("-"), HFG_INPUT_CSV);
  /* AUTO reads each input by its own name */
  const char *c = write_file("m.csv", "id,x\n1,a\tb\n", 11);
  const char *t = write_file("m.tsv", "id\tx\n2\tc,d\n", 11);
  const char *paths[2] = {c, t};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_AUTO;
  o.has_header = 1;
  hfg_record_reader *r;
  REQUIRE(hfg_record_reader_open(paths, 2, &o, &r, NULL, 0) == 0);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK(rec.nfields == 2 && rec.fields[1].len == 3 && !memcmp(rec.fields[1].p, "a\tb", 3));
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK(rec.nfields == 2 && rec.fields[1].len == 3 && !memcmp(rec.fields[1].p, "c,d", 3));
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 0);
  hfg_record_reader_free(r);
}

TEST(renamed_columns) {
  const char *a = write_file("r1.csv", "id,x,x\n1,a,b\n", 13);
  const char *b = write_file("r2.csv", "id,x,x\n2,c,d\n", 13);
  const char *bad = write_file("r3.csv", "id,x,y\n3,e,f\n", 13);
  const char *names[3] = {"k", "v1", "v2"};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.has_header = 1;
  o.column_names = names;
  o.ncolumn_names = 3;
  char *got = read_all(a, &o);
  CHECK(strcmp(got, "H:k|v1|v2\n1|a|b\n") == 0);
  free(got);
  /* later headers are compared with the first header, not with the names */
  const char *paths[3] = {a, b, bad};
  hfg_record_reader *r;
  REQUIRE(hfg_record_reader_open(paths, 3, &o, &r, NULL, 0) == 0);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), 1);
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), HFG_EINVAL);
  CHECK(strstr(hfg_record_reader_errmsg(r), "r3.csv: header differs from "));
  hfg_record_reader_free(r);
  /* another count is refused at open */
  o.ncolumn_names = 2;
  got = read_all(a, &o);
  CHECK(strstr(got, "FATAL HFG_EINVAL: ") &&
        strstr(got, "r1.csv: the header has 3 columns but 2 column names were given"));
  free(got);
}

T_MAIN

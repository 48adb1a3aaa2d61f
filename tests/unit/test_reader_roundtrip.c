/* The writer's output judged by the independent reader: round trips over
 * codecs, blooms, index depths, tags and cell types must verify and read back
 * cell for cell; then single defects are planted into a written file (with the
 * block checksums recomputed, so only the semantic check can catch them) and
 * verify must name each one. */
#include <inttypes.h>

#include "hfilegen/reader.h"
#include "hfilegen/writer.h"
#include "t.h"
#include "util/coding.h"
#include "util/crc.h"

T_MAIN

typedef struct gen {
  char row[32], qual[16], val[64];
  uint8_t tags[8];
  hfg_cell c;
} gen;

/* Cell n of a deterministic file: rows of 1..4 cells with a DeleteFamily at
 * some row starts, Puts and Deletes per qualifier, tags on some cells. */
static size_t make_cells(hfg_cell **out, gen **store, size_t rows, int with_tags) {
  size_t cap = rows * 6, n = 0;
  gen *g = calloc(cap, sizeof *g);
  hfg_cell *c = calloc(cap, sizeof *c);
  for (size_t r = 0; r < rows; r++) {
    if (r % 7 == 3) {
      gen *x = &g[n];
      snprintf(x->row, sizeof x->row, "row-%06zu", r);
      x->c = (hfg_cell){(const uint8_t *)x->row, strlen(x->row), (const uint8_t *)"cf", 2,
                        (const uint8_t *)"", 0, 1000, HFG_TYPE_DELETE_FAMILY, NULL, 0, NULL, 0};
      c[n] = x->c;
      n++;
    }
    size_t nq = 1 + r % 3;
    for (size_t q = 0; q < nq; q++) {
      gen *x = &g[n];
      snprintf(x->row, sizeof x->row, "row-%06zu", r);
      snprintf(x->qual, sizeof x->qual, "q%u", (unsigned)(q % 10));
      snprintf(x->val, sizeof x->val, "value-%u-%u-%.*s", (unsigned)(r % 1000000),
               (unsigned)(q % 10), (int)(r % 40), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
      x->c = (hfg_cell){(const uint8_t *)x->row, strlen(x->row), (const uint8_t *)"cf", 2,
                        (const uint8_t *)x->qual, strlen(x->qual), 2000 + (int64_t)r,
                        HFG_TYPE_PUT, (const uint8_t *)x->val, strlen(x->val), NULL, 0};
      if (with_tags && r % 5 == 0) {
        x->tags[0] = 0;
        x->tags[1] = 3;
        x->tags[2] = 1;
        x->tags[3] = 'a';
        x->tags[4] = (uint8_t)r;
        x->c.tags = x->tags;
        x->c.tags_len = 5;
      }
      c[n] = x->c;
      n++;
      if (r % 11 == 5) {
        gen *y = &g[n];
        *y = *x;
        y->c.row = (const uint8_t *)y->row;
        y->c.qualifier = (const uint8_t *)y->qual;
        y->c.value = NULL;
        y->c.value_len = 0;
        y->c.tags = NULL;
        y->c.tags_len = 0;
        y->c.timestamp = 1500;
        y->c.type = q ? HFG_TYPE_DELETE : HFG_TYPE_DELETE_COLUMN;
        c[n] = y->c;
        n++;
      }
    }
  }
  *out = c;
  *store = g;
  return n;
}

static uint8_t *write_file(const hfg_writer_options *o, const hfg_cell *c, size_t n,
                           size_t *len) {
  hfg_writer *w = NULL;
  int rc = hfg_writer_open_mem("cf", o, &w);
  for (size_t i = 0; !rc && i < n; i++) rc = hfg_writer_append(w, &c[i]);
  if (!rc) rc = hfg_writer_finish(w);
  if (rc) {
    fprintf(stderr, "  writer: %s\n", w ? hfg_writer_errmsg(w) : "no writer");
    hfg_writer_free(w);
    return NULL;
  }
  const uint8_t *p = hfg_writer_mem_data(w, len);
  uint8_t *q = malloc(*len);
  memcpy(q, p, *len);
  hfg_writer_free(w);
  return q;
}

static int same_cell(const hfg_cell *a, const hfg_cell *b) {
  return a->row_len == b->row_len && !memcmp(a->row, b->row, a->row_len) &&
         a->family_len == b->family_len && !memcmp(a->family, b->family, a->family_len) &&
         a->qualifier_len == b->qualifier_len &&
         !memcmp(a->qualifier, b->qualifier, a->qualifier_len) && a->timestamp == b->timestamp &&
         a->type == b->type && a->value_len == b->value_len &&
         (!a->value_len || !memcmp(a->value, b->value, a->value_len)) &&
         a->tags_len == b->tags_len && (!a->tags_len || !memcmp(a->tags, b->tags, a->tags_len));
}

/* verify passes, every cell reads back, every row passes the bloom */
static void roundtrip(const hfg_writer_options *o, size_t rows, uint32_t want_levels) {
  hfg_cell *c;
  gen *g;
  size_t n = make_cells(&c, &g, rows, 1);
  size_t len;
  uint8_t *p = write_file(o, c, n, &len);
  REQUIRE(p);
  hfg_reader *r;
  int rc = hfg_reader_open_mem(p, len, &r);
  if (rc) fprintf(stderr, "  open: %s\n", hfg_reader_errmsg(r));
  REQUIRE(rc == 0);
  if (want_levels) CHECK_EQ_INT(hfg_reader_trailer(r)->num_data_index_levels, want_levels);
  hfg_verify_report rep;
  rc = hfg_verify(r, &rep);
  if (rc) fprintf(stderr, "  verify (codec %d, bloom %d): %s\n", o->codec, o->bloom, rep.message);
  CHECK_EQ_INT(rc, 0);
  CHECK_EQ_INT(rep.cells, n);
  CHECK_EQ_INT(rep.rows, rows);
  hfg_verify_report_free(&rep);
  hfg_scanner *s;
  REQUIRE(hfg_scanner_new(r, &s) == 0);
  hfg_read_cell rc1;
  size_t i = 0;
  while (hfg_scanner_next(s, &rc1) == 1) {
    if (i < n && !same_cell(&rc1.cell, &c[i])) {
      fprintf(stderr, "  cell %zu differs\n", i);
      CHECK(0);
      break;
    }
    i++;
  }
  CHECK_EQ_INT(i, n);
  /* seeks to every 13th cell's row land on that row's first cell */
  for (size_t k = 0; k < n; k += 13) {
    if (k && c[k - 1].row_len == c[k].row_len && !memcmp(c[k - 1].row, c[k].row, c[k].row_len))
      continue;
    REQUIRE(hfg_scanner_seek_row(s, c[k].row, c[k].row_len) == 0);
    REQUIRE(hfg_scanner_next(s, &rc1) == 1);
    CHECK(same_cell(&rc1.cell, &c[k]));
  }
  hfg_scanner_free(s);
  if (o->bloom != HFG_BLOOM_NONE) {
    for (size_t k = 0; k < n; k++)
      CHECK_EQ_INT(hfg_reader_bloom_check(r, c[k].row, c[k].row_len, c[k].qualifier,
                                          c[k].qualifier_len),
                   1);
    size_t absent = 0;
    for (int k = 0; k < 1000; k++) {
      char row[32];
      snprintf(row, sizeof row, "nope-%d", k);
      absent += hfg_reader_bloom_check(r, (const uint8_t *)row, strlen(row),
                                       (const uint8_t *)"q0", 2) == 0;
    }
    CHECK(absent > 900); /* ~1% false positives */
  }
  hfg_reader_close(r);
  free(p);
  free(c);
  free(g);
}

static hfg_writer_options opts(hfg_codec codec, hfg_bloom_type bloom) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.codec = codec;
  o.bloom = bloom;
  o.bulkload_timestamp = 1700000000000;
  o.fsync = 0;
  return o;
}

TEST(roundtrip_none_row) {
  hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_ROW);
  roundtrip(&o, 3000, 1);
}
TEST(roundtrip_gz_rowcol) {
  hfg_writer_options o = opts(HFG_CODEC_GZ, HFG_BLOOM_ROWCOL);
  roundtrip(&o, 3000, 0);
}
TEST(roundtrip_codecs) {
  hfg_codec cs[] = {HFG_CODEC_SNAPPY, HFG_CODEC_LZ4, HFG_CODEC_ZSTD_HADOOP, HFG_CODEC_ZSTD_HBASE};
  for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
    hfg_writer_options o = opts(cs[i], HFG_BLOOM_NONE);
    roundtrip(&o, 1500, 0);
  }
}
TEST(roundtrip_deep_index) {
  hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_ROW);
  o.block_size = 256;
  o.index_block_max_size = 512;
  o.index_min_entries = 4;
  roundtrip(&o, 4000, 3);
}
TEST(roundtrip_multi_chunk_bloom) {
  hfg_writer_options o = opts(HFG_CODEC_GZ, HFG_BLOOM_ROW);
  o.bloom_block_size = 512; /* many chunks, the last one folded */
  o.block_size = 1024;
  roundtrip(&o, 5000, 0);
}

/* ---- planted defects ---- */

/* Recomputes a block's checksums after its header or payload was changed. */
static void rechecksum(uint8_t *p, uint64_t off) {
  uint8_t *b = p + off;
  uint32_t d = hfg_get_be32(b + 29), bpc = hfg_get_be32(b + 25);
  for (uint32_t i = 0, at = 0; at < d; i++, at += bpc) {
    uint32_t n = d - at < bpc ? d - at : bpc;
    hfg_put_be32(b + d + 4 * i, hfg_crc32c(0, b + at, n));
  }
}

typedef struct planted {
  uint8_t *p;
  size_t len;
  hfg_cell *c;
  gen *g;
  size_t n;
} planted;

static int fresh(planted *f, hfg_bloom_type bloom) {
  hfg_writer_options o = opts(HFG_CODEC_NONE, bloom);
  o.block_size = 2048;
  f->n = make_cells(&f->c, &f->g, 600, 1);
  f->p = write_file(&o, f->c, f->n, &f->len);
  return f->p != NULL;
}

static void drop(planted *f) {
  free(f->p);
  free(f->c);
  free(f->g);
}

static uint8_t *find(planted *f, const void *needle, size_t n, size_t from) {
  for (size_t i = from; i + n <= f->len; i++)
    if (!memcmp(f->p + i, needle, n)) return f->p + i;
  return NULL;
}

/* offset of the block holding byte at */
static uint64_t block_of(planted *f, size_t at) {
  hfg_reader *r;
  uint64_t off = 0, res = 0;
  if (hfg_reader_open_mem(f->p, f->len, &r) == 0) {
    while (off < f->len - 4096) {
      hfg_block_info b;
      if (hfg_reader_block_header(r, off, &b)) break;
      if (at >= off && at < off + b.on_disk_size_with_header) res = off;
      off += b.on_disk_size_with_header;
    }
  }
  hfg_reader_close(r);
  return res;
}

static void expect_fail(planted *f, const char *what, const char *needle) {
  hfg_verify_report rep;
  hfg_reader *r;
  int rc = hfg_reader_open_mem(f->p, f->len, &r);
  if (!rc) rc = hfg_verify(r, &rep);
  else snprintf(rep.message, sizeof rep.message, "%s", hfg_reader_errmsg(r));
  if (rc == 0 || !strstr(rep.message, needle)) {
    fprintf(stderr, "  %s: rc %d, message \"%s\" lacks \"%s\"\n", what, rc, rep.message, needle);
    CHECK(0);
  }
  if (rc != 0 && hfg_reader_errcode(r) == 0) hfg_verify_report_free(&rep);
  hfg_reader_close(r);
}

TEST(planted_sane) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_ROW));
  hfg_verify_report rep;
  int rc = hfg_verify_path("/nonexistent/file", &rep);
  CHECK(rc != 0 && strstr(rep.message, "cannot open"));
  hfg_reader *r;
  REQUIRE(hfg_reader_open_mem(f.p, f.len, &r) == 0);
  rc = hfg_verify(r, &rep);
  if (rc) fprintf(stderr, "  %s\n", rep.message);
  CHECK_EQ_INT(rc, 0);
  hfg_verify_report_free(&rep);
  hfg_reader_close(r);
  drop(&f);
}

TEST(planted_order) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  /* rename row-000100 to row-000099 in its cells: same lengths, out of order */
  uint8_t *at = find(&f, "row-000100\x02" "cf", 13, 0);
  REQUIRE(at);
  memcpy(at, "row-000109", 10);
  rechecksum(f.p, block_of(&f, (size_t)(at - f.p)));
  expect_fail(&f, "order", "out of order");
  drop(&f);
}

TEST(planted_checksum) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  uint8_t *at = find(&f, "value-100-0", 11, 0);
  REQUIRE(at);
  at[0] ^= 1;
  char want[64];
  snprintf(want, sizeof want, "block at offset %" PRIu64, block_of(&f, (size_t)(at - f.p)));
  expect_fail(&f, "checksum", want);
  expect_fail(&f, "checksum", "checksum mismatch");
  drop(&f);
}

TEST(planted_family) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  /* key: ... row-000200 02 'c' 'f' q0 ... */
  uint8_t *at = find(&f, "row-000200\x02" "cf", 13, 0);
  REQUIRE(at);
  at[12] = 'g';
  rechecksum(f.p, block_of(&f, (size_t)(at - f.p)));
  expect_fail(&f, "family", "another family");
  drop(&f);
}

TEST(planted_mvcc) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  /* the cell's last byte (mvcc 0) just before the next cell: value, tagsLen 00 00, mvcc 00 */
  uint8_t *at = find(&f, "value-301-0-", 12, 0);
  REQUIRE(at);
  size_t vlen = strlen("value-301-0-") + 301 % 40;
  uint8_t *mv = at + vlen + 2;
  REQUIRE(mv[0] == 0);
  mv[0] = 1;
  rechecksum(f.p, block_of(&f, (size_t)(at - f.p)));
  expect_fail(&f, "mvcc", "mvcc byte 0x01");
  drop(&f);
}

TEST(planted_prev_offset) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  /* second DATA block: its prevBlockOffset must be 0 */
  uint8_t *at = find(&f, "DATABLK*", 8, 1);
  REQUIRE(at && hfg_get_be64(at + 16) == 0);
  hfg_put_be64(at + 16, 5);
  rechecksum(f.p, (uint64_t)(at - f.p));
  expect_fail(&f, "prev", "prevBlockOffset 5, expected 0");
  drop(&f);
}

/* file info values: find the key in the FILEINF2 payload, change the value */
static void plant_fileinfo(const char *key, int delta, const char *needle) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_ROW));
  uint8_t *fi = find(&f, "FILEINF2", 8, 0);
  REQUIRE(fi);
  uint8_t *k = find(&f, key, strlen(key), (size_t)(fi - f.p));
  REQUIRE(k);
  /* BytesBytesPair: key, then 0x12, value length, value */
  uint8_t *v = k + strlen(key);
  REQUIRE(v[0] == 0x12);
  size_t vn = v[1];
  v[2 + vn - 1] = (uint8_t)(v[2 + vn - 1] + delta);
  rechecksum(f.p, (uint64_t)(fi - f.p));
  expect_fail(&f, key, needle);
  drop(&f);
}

TEST(planted_fileinfo) {
  plant_fileinfo("hfile.AVG_KEY_LEN", 1, "hfile.AVG_KEY_LEN");
  plant_fileinfo("hfile.AVG_VALUE_LEN", 1, "hfile.AVG_VALUE_LEN");
  plant_fileinfo("hfile.LASTKEY", -1, "hfile.LASTKEY");
  plant_fileinfo("hfile.MAX_TAGS_LEN", 1, "hfile.MAX_TAGS_LEN");
  plant_fileinfo("TIMERANGE", 1, "TIMERANGE");
  plant_fileinfo("DELETE_FAMILY_COUNT", 1, "DELETE_FAMILY_COUNT");
  plant_fileinfo("EARLIEST_PUT_TS", 1, "EARLIEST_PUT_TS");
  plant_fileinfo("LAST_BLOOM_KEY", -1, "LAST_BLOOM_KEY");
  plant_fileinfo("MAX_MEMSTORE_TS_KEY", 1, "MAX_MEMSTORE_TS_KEY");
  plant_fileinfo("hfile.LEN_OF_BIGGEST_CELL", 1, "hfile.LEN_OF_BIGGEST_CELL is");
  plant_fileinfo("hfile.KEY_OF_BIGGEST_CELL", 4, "hfile.KEY_OF_BIGGEST_CELL");
}

TEST(planted_bloom) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_ROW));
  uint8_t *b = find(&f, "BLMFBLK2", 8, 0);
  REQUIRE(b);
  uint32_t d = hfg_get_be32(b + 29);
  memset(b + 33, 0, d - 33); /* every bit off: every row denied */
  rechecksum(f.p, (uint64_t)(b - f.p));
  expect_fail(&f, "bloom", "bloom (ROW) denies");
  drop(&f);
}

TEST(planted_index_key) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  uint8_t *root = find(&f, "IDXROOT2", 8, 0);
  REQUIRE(root);
  /* entry 0: offset(8) size(4) vint keylen, key: 00 0a "row-000000" ... */
  uint8_t *k0 = root + 33 + 12 + 1;
  REQUIRE(!memcmp(k0 + 2, "row-000000", 10));
  k0[11] = '1'; /* row-000001: no longer the first cell's key */
  rechecksum(f.p, (uint64_t)(root - f.p));
  expect_fail(&f, "first key", "is not the first cell's key");
  drop(&f);

  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  root = find(&f, "IDXROOT2", 8, 0);
  REQUIRE(root);
  /* entry 1's key made larger than its block's first key */
  uint8_t *e1 = root + 33 + 12 + 1 + root[33 + 12];
  uint8_t *k1 = e1 + 12 + 1;
  size_t rl = hfg_get_be16(k1);
  k1[2 + rl - 1] = (uint8_t)(k1[2 + rl - 1] + 1);
  rechecksum(f.p, (uint64_t)(root - f.p));
  expect_fail(&f, "index key", "is after the block's first key");
  drop(&f);
}

TEST(planted_index_size) {
  planted f;
  REQUIRE(fresh(&f, HFG_BLOOM_NONE));
  uint8_t *root = find(&f, "IDXROOT2", 8, 0);
  REQUIRE(root);
  uint8_t *sz = root + 33 + 8;
  hfg_put_be32(sz, hfg_get_be32(sz) + 1);
  rechecksum(f.p, (uint64_t)(root - f.p));
  expect_fail(&f, "index size", "records size");
  drop(&f);
}

/* One cell per row row-000000.., qualifier q, timestamp 100, in family fam;
 * row dup_of + 1 (when set) repeats row dup_of's key with another value. */
static uint8_t *write_rows(const char *fam, size_t rows, size_t dup_of, size_t *len) {
  static char rowbuf[400][16];
  hfg_cell c[400];
  size_t n = 0;
  for (size_t r = 0; r < rows && n < 400; r++) {
    snprintf(rowbuf[n], sizeof rowbuf[n], "row-%06zu", dup_of && r == dup_of + 1 ? dup_of : r);
    c[n] = (hfg_cell){0};
    c[n].row = (const uint8_t *)rowbuf[n];
    c[n].row_len = 10;
    c[n].family = (const uint8_t *)fam;
    c[n].family_len = strlen(fam);
    c[n].qualifier = (const uint8_t *)"q";
    c[n].qualifier_len = 1;
    c[n].timestamp = 100;
    c[n].type = HFG_TYPE_PUT;
    c[n].value = (const uint8_t *)(r % 2 ? "odd-value" : "even-value");
    c[n].value_len = r % 2 ? 9 : 10;
    n++;
  }
  hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_NONE);
  o.block_size = 256;
  hfg_writer *w = NULL;
  int rc = hfg_writer_open_mem(fam, &o, &w);
  for (size_t i = 0; !rc && i < n; i++) rc = hfg_writer_append(w, &c[i]);
  if (!rc) rc = hfg_writer_finish(w);
  if (rc) {
    fprintf(stderr, "  writer: %s\n", w ? hfg_writer_errmsg(w) : "no writer");
    hfg_writer_free(w);
    return NULL;
  }
  const uint8_t *p = hfg_writer_mem_data(w, len);
  uint8_t *q = malloc(*len);
  memcpy(q, p, *len);
  hfg_writer_free(w);
  return q;
}

/* Two cells with one key (the writer accepts them, as HBase's does) lose a
 * value in HBase: verify names the key, within a block and across blocks. */
TEST(planted_equal_keys) {
  planted f = {0};
  f.p = write_rows("cf", 300, 150, &f.len);
  REQUIRE(f.p);
  expect_fail(&f, "equal keys", "two cells with the same key row-000150/cf:q/100/Put");
  free(f.p);

  /* across a block boundary: the first cell of a later block renamed to the
   * previous block's last row (same lengths, checksums recomputed) */
  f.p = write_rows("cf", 300, 0, &f.len);
  REQUIRE(f.p);
  hfg_reader *r;
  REQUIRE(hfg_reader_open_mem(f.p, f.len, &r) == 0);
  uint64_t off = 0;
  size_t blocks = 0;
  while (off < f.len - 4096 && blocks < 3) {
    hfg_block_info b;
    if (hfg_reader_block_header(r, off, &b)) break;
    off += b.on_disk_size_with_header;
    blocks++;
  }
  hfg_reader_close(r);
  /* block 3 starts at off: its first cell's row follows keyLen, valueLen, rowLen */
  uint8_t *row = f.p + off + 33 + 4 + 4 + 2;
  REQUIRE(!memcmp(row, "row-", 4));
  char prev[16];
  unsigned long num = strtoul((const char *)row + 4, NULL, 10);
  snprintf(prev, sizeof prev, "row-%06lu", num - 1);
  memcpy(row, prev, 10);
  rechecksum(f.p, off);
  char want[64];
  snprintf(want, sizeof want, "the same key %s/cf:q/100/Put", prev);
  expect_fail(&f, "equal keys across blocks", want);
  free(f.p);

  /* a file without a family (Hudi's key-value HFiles) may repeat keys: the
   * non-unique fixture in test_reader.c (fixture_verify) */
}

/* ---- data block encodings (issue #14): the reader's own decoders (src/read/rd_enc*.c) ---- */

TEST(roundtrip_encodings) {
  for (int e = 1; e < HFG_ENCODING_COUNT_; e++) {
    hfg_writer_options o = opts(e % 2 ? HFG_CODEC_LZ4 : HFG_CODEC_NONE, HFG_BLOOM_ROWCOL);
    o.encoding = (hfg_encoding)e;
    roundtrip(&o, 3000, 0);
    o.block_size = 256; /* many small blocks: every block starts a decoder afresh */
    o.index_block_max_size = 512;
    o.index_min_entries = 4;
    o.bloom = HFG_BLOOM_ROW;
    roundtrip(&o, 2000, 0);
  }
}

static int fresh_encoded(planted *f, hfg_encoding e) {
  hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_NONE);
  o.block_size = 2048;
  o.encoding = e;
  f->n = make_cells(&f->c, &f->g, 600, 1);
  f->p = write_file(&o, f->c, f->n, &f->len);
  return f->p != NULL;
}

/* The first data block's payload (after its 33-byte header). */
static uint8_t *first_payload(planted *f) {
  uint8_t *at = find(f, "DATABLKE", 8, 0);
  return at ? at + 33 : NULL;
}

TEST(planted_encoded) {
  planted f;
  /* FAST_DIFF: the unencoded size the block states must be what its cells decode to */
  REQUIRE(fresh_encoded(&f, HFG_ENCODING_FAST_DIFF));
  uint8_t *p = first_payload(&f);
  REQUIRE(p);
  CHECK_EQ_INT(hfg_get_be16(p), 4);
  hfg_put_be32(p + 2, hfg_get_be32(p + 2) + 1);
  rechecksum(f.p, (uint64_t)(p - 33 - f.p));
  expect_fail(&f, "fast_diff size", "cells decode to");
  drop(&f);
  /* PREFIX: a common prefix on the block's first cell */
  REQUIRE(fresh_encoded(&f, HFG_ENCODING_PREFIX));
  p = first_payload(&f);
  REQUIRE(p);
  p[6 + 2] = 0x05; /* after klen-rest and vlen cints of one byte each: the common length */
  rechecksum(f.p, (uint64_t)(p - 33 - f.p));
  expect_fail(&f, "prefix first common", "common prefix longer than the previous key");
  drop(&f);
  /* ROW_INDEX_V1: a row offset that is not a row's first cell */
  REQUIRE(fresh_encoded(&f, HFG_ENCODING_ROW_INDEX_V1));
  p = first_payload(&f);
  REQUIRE(p);
  uint32_t plen = hfg_get_be32(p - 33 + 12);
  uint32_t cells = hfg_get_be32(p + plen - 4);
  uint8_t *off1 = p + 2 + cells + 4 + 4; /* the second row's offset */
  hfg_put_be32(off1, hfg_get_be32(off1) + 1);
  rechecksum(f.p, (uint64_t)(p - 33 - f.p));
  expect_fail(&f, "row index offset", "row index does not name this row's first cell");
  drop(&f);
  /* DIFF: the block's encoding id differs from the file info's DATA_BLOCK_ENCODING */
  REQUIRE(fresh_encoded(&f, HFG_ENCODING_DIFF));
  p = first_payload(&f);
  REQUIRE(p);
  hfg_put_be16(p, 2); /* PREFIX: the payload then no longer decodes as DIFF cells either */
  rechecksum(f.p, (uint64_t)(p - 33 - f.p));
  expect_fail(&f, "encoding id", "DATABLKE");
  drop(&f);
  /* PREFIX_TREE (id 6, removed in HBase 2.0) is refused by name */
  REQUIRE(fresh_encoded(&f, HFG_ENCODING_DIFF));
  p = first_payload(&f);
  REQUIRE(p);
  hfg_put_be16(p, 6);
  rechecksum(f.p, (uint64_t)(p - 33 - f.p));
  expect_fail(&f, "prefix tree", "PREFIX_TREE");
  drop(&f);
}

/* FAST_DIFF omits a value equal to the previous cell's (flag 64); DIFF stores timestamps as
 * differences, negative ones included: cells that exercise both read back exactly. */
TEST(roundtrip_encoded_same_values_and_timestamps) {
  enum { N = 900 };
  static char rows[N][16];
  static hfg_cell c[N];
  static const int64_t ts[] = {5, 1, -3, INT64_MIN + 1, 0x123456789a, -0x7000000000000000};
  for (int i = 0; i < N; i++) {
    snprintf(rows[i], sizeof rows[i], "r%05d", i / 3);
    c[i] = (hfg_cell){(const uint8_t *)rows[i], strlen(rows[i]), (const uint8_t *)"cf", 2,
                      (const uint8_t *)(i % 3 == 0 ? "a" : i % 3 == 1 ? "ab" : "b"),
                      i % 3 == 1 ? 2u : 1u, ts[(i / 3) % 6], HFG_TYPE_PUT,
                      (const uint8_t *)(i % 7 < 5 ? "same-value" : "other"), i % 7 < 5 ? 10u : 5u,
                      NULL, 0};
  }
  for (int e = 1; e < HFG_ENCODING_COUNT_; e++) {
    hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_ROW);
    o.encoding = (hfg_encoding)e;
    o.block_size = 512;
    size_t len;
    uint8_t *p = write_file(&o, c, N, &len);
    REQUIRE(p);
    hfg_reader *r;
    REQUIRE(hfg_reader_open_mem(p, len, &r) == 0);
    hfg_scanner *s;
    REQUIRE(hfg_scanner_new(r, &s) == 0);
    hfg_read_cell rc1;
    size_t i = 0;
    while (hfg_scanner_next(s, &rc1) == 1) {
      if (i < N && !same_cell(&rc1.cell, &c[i])) {
        fprintf(stderr, "  %s: cell %zu differs\n", hfg_encoding_name(o.encoding), i);
        CHECK(0);
        break;
      }
      i++;
    }
    CHECK_EQ_INT(i, N);
    hfg_scanner_free(s);
    hfg_reader_close(r);
    free(p);
  }
}

/* ROWPREFIX_FIXED_LENGTH: one bloom key per distinct row prefix; verify passes and the bloom
 * answers "maybe" for any row with a stored prefix (rows shorter than N are whole keys). */
TEST(rowprefix_bloom) {
  hfg_writer_options o = opts(HFG_CODEC_NONE, HFG_BLOOM_ROWPREFIX);
  o.bloom_prefix_length = 8; /* "row-0001" of "row-000123": 600 rows, 6 prefixes */
  o.encoding = HFG_ENCODING_FAST_DIFF;
  roundtrip(&o, 600, 0);
  hfg_cell *c;
  gen *g;
  size_t n = make_cells(&c, &g, 600, 0);
  size_t len;
  uint8_t *p = write_file(&o, c, n, &len);
  REQUIRE(p);
  hfg_reader *r;
  REQUIRE(hfg_reader_open_mem(p, len, &r) == 0);
  CHECK_EQ_INT(hfg_reader_meta(r)->bloom_type, HFG_BLOOM_ROWPREFIX);
  CHECK_EQ_INT(hfg_reader_meta(r)->bloom_prefix_length, 8);
  hfg_bloom_summary bs;
  REQUIRE(hfg_reader_bloom(r, 0, &bs) == 1);
  CHECK_EQ_INT(bs.total_key_count, 6);
  /* absent rows with a stored prefix: maybe */
  CHECK_EQ_INT(hfg_reader_bloom_check(r, (const uint8_t *)"row-0001zz", 10, NULL, 0), 1);
  CHECK_EQ_INT(hfg_reader_bloom_check(r, (const uint8_t *)"row-0005", 8, NULL, 0), 1);
  const uint8_t *v;
  size_t vl;
  REQUIRE(hfg_reader_fileinfo_get(r, "LAST_BLOOM_KEY", &v, &vl) == 1);
  CHECK(vl == 8 && !memcmp(v, "row-0005", 8));
  REQUIRE(hfg_reader_fileinfo_get(r, "BLOOM_FILTER_PARAM", &v, &vl) == 1);
  CHECK(vl == 4 && hfg_get_be32(v) == 8);
  hfg_reader_close(r);
  free(p);
  free(c);
  free(g);
  /* a prefix length of 0 is refused */
  o.bloom_prefix_length = 0;
  hfg_writer *w = NULL;
  CHECK(hfg_writer_open_mem("cf", &o, &w) != 0);
  hfg_writer_free(w);
}

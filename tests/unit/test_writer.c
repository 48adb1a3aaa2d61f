#define _GNU_SOURCE
/* Writer-side unit tests that need no reader: key order, midpoints, block
 * framing and checksums, index shapes, file info order, trailer, errors. */
#include "format/block.h"
#include "format/codec.h"
#include "format/fileinfo.h"
#include "format/index.h"
#include "format/kv.h"
#include "format/trailer.h"
#include "format/hfile_writer_int.h"
#include "hfilegen/writer.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/crc.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

T_MAIN

static hfg_cell mk(const char *row, const char *q, int64_t ts, uint8_t type) {
  hfg_cell c = {(const uint8_t *)row, strlen(row), (const uint8_t *)"cf", 2,
                (const uint8_t *)q, strlen(q), ts, type, (const uint8_t *)"v", 1, NULL, 0};
  return c;
}

TEST(kv_order) {
  hfg_cell a = mk("a", "q", 5, HFG_TYPE_PUT), b = mk("b", "q", 5, HFG_TYPE_PUT);
  CHECK(hfg_kv_compare(&a, &b) < 0);
  hfg_cell ab = mk("ab", "q", 5, HFG_TYPE_PUT);
  CHECK(hfg_kv_compare(&a, &ab) < 0); /* prefix first */
  hfg_cell hi = mk("\x80", "q", 5, HFG_TYPE_PUT), lo = mk("\x7f", "q", 5, HFG_TYPE_PUT);
  CHECK(hfg_kv_compare(&lo, &hi) < 0); /* unsigned bytes */
  hfg_cell t1 = mk("a", "q", 9, HFG_TYPE_PUT);
  CHECK(hfg_kv_compare(&t1, &a) < 0); /* newer timestamp first */
  hfg_cell del = mk("a", "q", 5, HFG_TYPE_DELETE);
  CHECK(hfg_kv_compare(&del, &a) < 0); /* higher type first */
  hfg_cell q1 = mk("a", "q1", 5, HFG_TYPE_PUT);
  CHECK(hfg_kv_compare(&a, &q1) < 0);
  uint8_t ka[64], kb[64];
  size_t la = (size_t)(hfg_kv_put_key(ka, &a) - ka), lb = (size_t)(hfg_kv_put_key(kb, &q1) - kb);
  CHECK(hfg_kv_compare_keys(ka, la, kb, lb) < 0);
  CHECK_EQ_INT(la, hfg_kv_key_len(&a));
}

TEST(cell_layout) {
  hfg_cell c = mk("r1", "q", 1, HFG_TYPE_PUT);
  c.family = (const uint8_t *)"f";
  c.family_len = 1;
  uint8_t out[64];
  size_t n = (size_t)(hfg_kv_put_cell(out, &c) - out);
  /* format-specs/keyvalue.md worked example: 28 bytes */
  const uint8_t want[] = {0, 0, 0, 16, 0, 0, 0, 1, 0, 2, 'r', '1', 1, 'f', 'q',
                          0, 0, 0, 0, 0, 0, 0, 1, 4, 'v', 0, 0, 0};
  CHECK_EQ_INT(n, sizeof want);
  CHECK_EQ_INT(hfg_kv_cell_len(&c), sizeof want);
  CHECK_MEM(out, want, sizeof want);
}

static size_t midpoint(const char *l, const char *lq, const char *r, const char *rq, uint8_t *out) {
  hfg_cell a = mk(l, lq, 5, HFG_TYPE_PUT), b = mk(r, rq, 5, HFG_TYPE_PUT);
  return hfg_kv_midpoint_key(&a, &b, out);
}

TEST(midpoint_keys) {
  uint8_t k[128];
  hfg_cell c;
  /* rows differ at byte 1: "abc" vs "axe" -> "ac" first-on-row */
  size_t n = midpoint("abc", "q", "axe", "q", k);
  CHECK(hfg_kv_parse_key(k, n, &c) == 0);
  CHECK(c.row_len == 2 && !memcmp(c.row, "ac", 2));
  CHECK(c.family_len == 0 && c.qualifier_len == 0);
  CHECK(c.timestamp == INT64_MAX && c.type == HFG_TYPE_MAXIMUM);
  /* left is a prefix of right: left + 0x00 */
  n = midpoint("ab", "q", "abcd", "q", k);
  hfg_kv_parse_key(k, n, &c);
  CHECK(c.row_len == 3 && !memcmp(c.row, "ab\0", 3));
  /* same row, qualifiers differ: right row+family, mid qualifier */
  n = midpoint("r", "aa", "r", "ac", k);
  hfg_kv_parse_key(k, n, &c);
  CHECK(c.row_len == 1 && c.family_len == 2 && c.qualifier_len == 2 &&
        !memcmp(c.qualifier, "ab", 2) && c.type == HFG_TYPE_MAXIMUM);
  /* same row and column: the right key itself */
  hfg_cell a = mk("r", "q", 9, HFG_TYPE_PUT), b = mk("r", "q", 5, HFG_TYPE_PUT);
  n = hfg_kv_midpoint_key(&a, &b, k);
  CHECK_EQ_INT(n, hfg_kv_key_len(&b));
  hfg_kv_parse_key(k, n, &c);
  CHECK(c.timestamp == 5);
  /* no left cell: the first key exactly */
  n = hfg_kv_midpoint_key(NULL, &b, k);
  CHECK_EQ_INT(n, hfg_kv_key_len(&b));
  /* the invariant: left < mid <= right, over many pairs */
  char l[16], r[16];
  for (int i = 0; i < 2000; i++) {
    snprintf(l, sizeof l, "k%05d", i * 7);
    snprintf(r, sizeof r, "k%05d", i * 7 + 1 + i % 50);
    hfg_cell x = mk(l, "q", 1, HFG_TYPE_PUT), y = mk(r, "q", 1, HFG_TYPE_PUT);
    n = hfg_kv_midpoint_key(&x, &y, k);
    hfg_kv_parse_key(k, n, &c);
    CHECK(hfg_kv_compare(&x, &c) < 0 && hfg_kv_compare(&c, &y) <= 0);
  }
}

TEST(block_header_and_checksums) {
  hfg_block_encoder *e = hfg_block_encoder_new(HFG_CODEC_NONE, -1, HFG_CHECKSUM_CRC32C, 16);
  REQUIRE(e != NULL);
  uint8_t payload[40];
  for (int i = 0; i < 40; i++) payload[i] = (uint8_t)i;
  hfg_buf out = HFG_BUF_INIT;
  hfg_block_info info;
  hfg_err err = {0};
  CHECK(hfg_block_encode(e, HFG_BT_DATA, payload, 40, 1234, &out, &info, &err) == 0);
  /* 33 + 40 = 73 bytes of data -> 5 chunks of 16 -> 20 checksum bytes */
  CHECK_EQ_INT(out.len, 73 + 20);
  CHECK_EQ_INT(info.on_disk_size_with_header, 93);
  CHECK_MEM(out.p, "DATABLK*", 8);
  CHECK_EQ_INT(hfg_get_be32(out.p + 8), 40 + 20);
  CHECK_EQ_INT(hfg_get_be32(out.p + 12), 40);
  CHECK_EQ_INT((int64_t)hfg_get_be64(out.p + 16), 1234);
  CHECK_EQ_INT(out.p[24], 2);
  CHECK_EQ_INT(hfg_get_be32(out.p + 25), 16);
  CHECK_EQ_INT(hfg_get_be32(out.p + 29), 73);
  for (int c = 0; c < 5; c++) {
    size_t off = (size_t)c * 16, n = off + 16 <= 73 ? 16 : 73 - off;
    CHECK_EQ_INT(hfg_get_be32(out.p + 73 + 4 * c), hfg_crc32c(0, out.p + off, n));
  }
  CHECK_MEM(out.p + 33, payload, 40);
  hfg_buf_free(&out);
  hfg_block_encoder_free(e);
  CHECK(hfg_block_encoder_new(HFG_CODEC_NONE, -1, HFG_CHECKSUM_NULL, 16) == NULL);
}

TEST(fileinfo_sorted_pbuf) {
  hfg_fileinfo fi = HFG_FILEINFO_INIT;
  CHECK(hfg_fileinfo_put_i32(&fi, "hfile.AVG_KEY_LEN", 30) == 0);
  CHECK(hfg_fileinfo_put_i64(&fi, "MAX_MEMSTORE_TS_KEY", 0) == 0);
  CHECK(hfg_fileinfo_put_i32(&fi, "KEY_VALUE_VERSION", 1) == 0);
  CHECK(hfg_fileinfo_put_i32(&fi, "KEY_VALUE_VERSION", 1) == 0); /* replaces */
  hfg_buf out = HFG_BUF_INIT;
  CHECK(hfg_fileinfo_encode(&fi, &out) == 0);
  CHECK_MEM(out.p, "PBUF", 4);
  uint64_t len;
  size_t n = hfg_get_varint(out.p + 4, out.p + out.len, &len);
  CHECK(n > 0 && 4 + n + len == out.len);
  /* first entry is KEY_VALUE_VERSION (unsigned byte order: 'K' < 'M' < 'h') */
  const uint8_t *m = out.p + 4 + n;
  CHECK(m[0] == 0x0a && m[2] == 0x0a && m[3] == 17 && !memcmp(m + 4, "KEY_VALUE_VERSION", 17));
  hfg_buf_free(&out);
  hfg_fileinfo_free(&fi);
}

TEST(trailer_bytes) {
  hfg_trailer t = {0};
  t.file_info_offset = 168;
  t.load_on_open_offset = 65;
  t.entry_count = 1;
  t.num_data_index_levels = 1;
  t.data_index_count = 1;
  t.first_data_block_offset = 0;
  t.last_data_block_offset = 0;
  t.compression_codec = 2;
  hfg_buf out = HFG_BUF_INIT;
  CHECK(hfg_trailer_encode(&t, &out) == 0);
  CHECK_EQ_INT(out.len, 4096);
  CHECK_MEM(out.p, "TRABLK\"$", 8);
  CHECK(out.p[4092] == 3 && out.p[4093] == 0 && out.p[4094] == 0 && out.p[4095] == 3);
  uint64_t len;
  size_t n = hfg_get_varint(out.p + 8, out.p + 4096, &len);
  CHECK(n == 1);
  /* field 1 first: tag 0x08, varint 168 = a8 01 */
  CHECK(out.p[9] == 0x08 && out.p[10] == 0xa8 && out.p[11] == 0x01);
  /* comparator name is in there */
  CHECK(memmem(out.p, 4096, "org.apache.hadoop.hbase.KeyValue$KVComparator", 45) != NULL);
  /* padding is zero */
  for (size_t i = 9 + len; i < 4092; i++) CHECK(out.p[i] == 0);
  hfg_buf_free(&out);
}

/* emit callback recording the blocks an index writer asks for */
typedef struct rec_emit {
  int count[HFG_BT_COUNT_];
  uint64_t pos;
  hfg_buf root;
} rec_emit;
static int record_emit(void *ctx, hfg_block_type type, const uint8_t *p, size_t n, uint64_t *off,
                       hfg_block_info *info) {
  rec_emit *r = ctx;
  r->count[type]++;
  *off = r->pos;
  info->on_disk_size_with_header = (uint32_t)(33 + n + 4);
  info->uncompressed_size = (uint32_t)n;
  r->pos += 33 + n + 4;
  if (type == HFG_BT_ROOT_INDEX) {
    hfg_buf_reset(&r->root);
    hfg_buf_append(&r->root, p, n);
  }
  return 0;
}

static unsigned index_shape(int nblocks, uint32_t chunk, rec_emit *r) {
  hfg_index_writer *w = hfg_index_writer_new(chunk, 16);
  hfg_buf_free(&r->root);
  memset(r, 0, sizeof *r);
  for (int i = 0; i < nblocks; i++) {
    char key[32];
    int n = snprintf(key, sizeof key, "key-%08d", i);
    hfg_index_writer_add(w, (const uint8_t *)key, (size_t)n, r->pos, 100);
    r->pos += 100;
    hfg_index_writer_write_inline(w, 0, record_emit, r);
  }
  hfg_index_writer_write_inline(w, 1, record_emit, r);
  uint64_t root;
  hfg_index_writer_finish(w, record_emit, r, &root);
  unsigned levels = hfg_index_writer_levels(w);
  hfg_index_writer_free(w);
  return levels;
}

TEST(index_shapes) {
  rec_emit r = {0};
  CHECK_EQ_INT(index_shape(10, 131072, &r), 1);
  CHECK_EQ_INT(r.count[HFG_BT_LEAF_INDEX], 0);
  CHECK_EQ_INT(r.root.len, 10 * (8 + 4 + 1 + 12)); /* no mid-key metadata */
  CHECK_EQ_INT(index_shape(200, 512, &r), 2);
  CHECK(r.count[HFG_BT_LEAF_INDEX] > 1);
  CHECK_EQ_INT(r.count[HFG_BT_INTERMEDIATE_INDEX], 0);
  /* root = one entry per leaf + 16 bytes of mid-key metadata */
  CHECK_EQ_INT(r.root.len, (size_t)r.count[HFG_BT_LEAF_INDEX] * 25 + 16);
  CHECK_EQ_INT(index_shape(5000, 512, &r), 3);
  CHECK(r.count[HFG_BT_INTERMEDIATE_INDEX] > 0);
  hfg_buf_free(&r.root);
}

TEST(writer_errors) {
  hfg_writer *w;
  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  hfg_cell b = mk("b", "q", 1, HFG_TYPE_PUT), a = mk("a", "q", 1, HFG_TYPE_PUT);
  CHECK(hfg_writer_append(w, &b) == 0);
  CHECK(hfg_writer_append(w, &a) == HFG_EORDER);
  CHECK(strstr(hfg_writer_errmsg(w), "a/cf:q/1/Put") != NULL);
  CHECK(strstr(hfg_writer_errmsg(w), "b/cf:q/1/Put") != NULL);
  CHECK(hfg_writer_append(w, &b) == HFG_EORDER); /* sticky */
  CHECK(hfg_writer_finish(w) == HFG_EORDER);
  hfg_writer_free(w);

  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  hfg_cell other = a;
  other.family = (const uint8_t *)"xx";
  CHECK(hfg_writer_append(w, &other) == HFG_EINVAL);
  hfg_writer_free(w);

  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  hfg_cell empty = mk("", "q", 1, HFG_TYPE_PUT);
  CHECK(hfg_writer_append(w, &empty) == HFG_ETOOBIG);
  hfg_writer_free(w);

  CHECK(hfg_writer_open("/nonexistent-dir/x", "cf", NULL, &w) == HFG_EIO);
  CHECK(strstr(hfg_writer_errmsg(w), "/nonexistent-dir/x") != NULL);
  hfg_writer_free(w);
}

/* A memory writer of family cf with small blocks and a fixed bulk-load time. */
static hfg_writer *open_small(hfg_bloom_type bloom, uint32_t block_size) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.bloom = bloom;
  o.block_size = block_size;
  o.bulkload_timestamp = 1;
  hfg_writer *w = NULL;
  if (hfg_writer_open_mem("cf", &o, &w)) {
    hfg_writer_free(w);
    return NULL;
  }
  return w;
}

TEST(writer_layout) {
  hfg_writer *w = open_small(HFG_BLOOM_NONE, 256);
  REQUIRE(w != NULL);
  char row[32];
  for (int i = 0; i < 100; i++) {
    snprintf(row, sizeof row, "row-%04d", i);
    hfg_cell c = mk(row, "q", 7, HFG_TYPE_PUT);
    REQUIRE(hfg_writer_append(w, &c) == 0);
  }
  REQUIRE(hfg_writer_finish(w) == 0);
  size_t len;
  const uint8_t *f = hfg_writer_mem_data(w, &len);
  REQUIRE(len > 4096);
  CHECK_MEM(f, "DATABLK*", 8);
  CHECK_EQ_INT((int64_t)hfg_get_be64(f + 16), -1); /* first data block: no previous */
  /* walk the data blocks through their headers: contiguous, chained */
  size_t off = 0, blocks = 0;
  int64_t prev = -1;
  while (!memcmp(f + off, "DATABLK*", 8)) {
    CHECK_EQ_INT((int64_t)hfg_get_be64(f + off + 16), prev);
    prev = (int64_t)off;
    CHECK(hfg_get_be32(f + off + 12) >= 256 || blocks > 0);
    off += 33 + hfg_get_be32(f + off + 8);
    blocks++;
  }
  CHECK(blocks > 5);
  CHECK_MEM(f + off, "IDXROOT2", 8); /* data root, then meta root */
  size_t meta = off + 33 + hfg_get_be32(f + off + 8);
  CHECK_MEM(f + meta, "IDXROOT2", 8);
  CHECK_EQ_INT((int64_t)hfg_get_be64(f + meta + 16), (int64_t)off);
  size_t fi = meta + 33 + hfg_get_be32(f + meta + 8);
  CHECK_MEM(f + fi, "FILEINF2", 8);
  CHECK_EQ_INT(fi + 33 + hfg_get_be32(f + fi + 8), len - 4096);
  CHECK_EQ_INT(hfg_writer_entries(w), 100);
  hfg_writer_free(w);
}

/* One file written with hfg_writer_append_puts (rows of 1..5 qualifiers, some
 * repeated, ROW and ROWCOL blooms, small blocks so boundaries fall inside rows,
 * long rows past the prefix buffer) is byte for byte the file of the same
 * cells appended one at a time. */
static void write_rows(int by_row, hfg_bloom_type bloom, uint8_t **out, size_t *len) {
  hfg_writer *w = open_small(bloom, 200);
  REQUIRE(w != NULL);
  /* the last qualifier's length differs from the first's: the file's LASTKEY
   * shows whether the last key's length followed the row's cells (the last
   * row, 299, has 5 of them and fits the prefix buffer) */
  static const char *quals[] = {"a", "bb", "bb", "dddddddddddddddddddd", "eee"};
  char row[400], val[64];
  for (int i = 0; i < 300; i++) {
    int rl = snprintf(row, sizeof row, "%d|%07d", i / 30, i);
    if (i % 50 == 48) { /* a row longer than the 256-byte prefix buffer */
      memset(row + rl, 'z', 300);
      row[rl + 300] = '\0';
    }
    hfg_put puts[5];
    int n = 1 + i % 5;
    for (int k = 0; k < n; k++) {
      snprintf(val, sizeof val, "v%d-%d", i, k);
      puts[k] = (hfg_put){(const uint8_t *)quals[k], strlen(quals[k]),
                          (const uint8_t *)hfg_strdup(val), strlen(val)};
    }
    int64_t ts = 1720000000000 - i;
    if (by_row) {
      REQUIRE(hfg_writer_append_puts(w, (const uint8_t *)row, strlen(row), ts, puts, (size_t)n) ==
              0);
    } else {
      for (int k = 0; k < n; k++) {
        hfg_cell c = mk(row, quals[k], ts, HFG_TYPE_PUT);
        c.value = puts[k].value;
        c.value_len = puts[k].value_len;
        REQUIRE(hfg_writer_append(w, &c) == 0);
      }
    }
    const uint8_t *lr;
    size_t ll;
    CHECK(hfg_writer_last_row(w, &lr, &ll) == 1 && ll == strlen(row) && !memcmp(lr, row, ll));
    for (int k = 0; k < n; k++) hfg_free((void *)puts[k].value);
  }
  REQUIRE(hfg_writer_finish(w) == 0);
  const uint8_t *f = hfg_writer_mem_data(w, len);
  *out = hfg_memdup(f, *len);
  hfg_writer_free(w);
}

TEST(writer_append_puts_same_bytes) {
  hfg_bloom_type blooms[] = {HFG_BLOOM_NONE, HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  for (int b = 0; b < 3; b++) {
    uint8_t *x, *y;
    size_t xl, yl;
    write_rows(0, blooms[b], &x, &xl);
    write_rows(1, blooms[b], &y, &yl);
    CHECK(xl == yl && !memcmp(x, y, xl));
    hfg_free(x);
    hfg_free(y);
  }
}

/* After a row of Puts, the writer's last key is the row's last cell: a cell
 * of the same row with a qualifier before it is refused, one after it taken. */
TEST(writer_append_puts_last_key) {
  hfg_put r[3] = {{(const uint8_t *)"a", 1, (const uint8_t *)"v", 1},
                  {(const uint8_t *)"bb", 2, (const uint8_t *)"v", 1},
                  {(const uint8_t *)"ccc", 3, (const uint8_t *)"v", 1}};
  static const char *next[] = {"cca", "ccd"};
  for (int k = 0; k < 2; k++) {
    hfg_writer *w;
    REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
    CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, r, 3) == 0);
    hfg_cell c = mk("r1", next[k], 5, HFG_TYPE_PUT);
    CHECK_EQ_INT(hfg_writer_append(w, &c), k == 0 ? HFG_EORDER : 0);
    CHECK_EQ_INT(hfg_writer_entries(w), 3 + k);
    hfg_writer_free(w);
  }
}

TEST(writer_append_puts_checks_every_cell) {
  hfg_writer *w;
  /* qualifiers out of order inside a row: the error names both keys */
  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  hfg_put r1[3] = {{(const uint8_t *)"a", 1, (const uint8_t *)"v", 1},
                   {(const uint8_t *)"c", 1, (const uint8_t *)"v", 1},
                   {(const uint8_t *)"b", 1, (const uint8_t *)"v", 1}};
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, r1, 3) == HFG_EORDER);
  CHECK(strstr(hfg_writer_errmsg(w), "r1/cf:b/5/Put") != NULL);
  CHECK(strstr(hfg_writer_errmsg(w), "r1/cf:c/5/Put") != NULL);
  CHECK_EQ_INT(hfg_writer_entries(w), 2);
  hfg_writer_free(w);
  /* a row before the last one */
  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r2", 2, 5, r1, 1) == 0);
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, r1, 1) == HFG_EORDER);
  hfg_writer_free(w);
  /* the row of the last call again: its first cell is ordered by the whole key (the
   * short path takes only a greater row), so a later qualifier passes, an earlier one
   * is refused */
  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, &r1[1], 1) == 0);
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, &r1[1], 1) == 0); /* equal key */
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 4, &r1[1], 1) == 0); /* older ts */
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"r1", 2, 5, &r1[0], 1) == HFG_EORDER);
  CHECK(strstr(hfg_writer_errmsg(w), "r1/cf:a/5/Put") != NULL);
  CHECK_EQ_INT(hfg_writer_entries(w), 3);
  hfg_writer_free(w);
  /* an empty row, an oversized row */
  REQUIRE(hfg_writer_open_mem("cf", NULL, &w) == 0);
  CHECK(hfg_writer_append_puts(w, (const uint8_t *)"", 0, 5, r1, 1) == HFG_ETOOBIG);
  hfg_writer_free(w);
}

TEST(writer_alloc_faults) {
  /* every allocation failure is reported, nothing leaks (ASan) */
  for (long n = 1; n < 400; n++) {
    hfg_fault_alloc_arm(n);
    hfg_writer *w = NULL;
    int rc = hfg_writer_open_mem("cf", NULL, &w);
    char row[32];
    for (int i = 0; !rc && i < 50; i++) {
      snprintf(row, sizeof row, "row-%04d", i);
      hfg_cell c = mk(row, "q", 7, HFG_TYPE_PUT);
      rc = hfg_writer_append(w, &c);
    }
    if (!rc) rc = hfg_writer_finish(w);
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (fired && rc != HFG_ENOMEM) fprintf(stderr, "  n=%ld rc=%d %s\n", n, rc, w ? hfg_writer_errmsg(w) : "");
    if (fired) CHECK(rc == HFG_ENOMEM);
    else CHECK(rc == 0);
    hfg_writer_free(w);
    if (!fired) break;
  }
}

/* GZ engine choice (hfg_writer_options.gz_impl): zlib by default, ISA-L on request (where
 * built), an unknown engine refused at open; the first data block's payload is the zlib
 * member hfg_compressor_new(GZ, -1) makes (HBase's bytes: test_gz_hbase.c). */
static size_t gz_file(int impl, uint8_t **out) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.codec = HFG_CODEC_GZ;
  o.gz_impl = impl;
  o.bulkload_timestamp = 1;
  hfg_writer *w = NULL;
  if (hfg_writer_open_mem("cf", &o, &w)) {
    hfg_writer_free(w);
    return 0;
  }
  char row[32], val[64];
  for (int i = 0; i < 3000; i++) {
    snprintf(row, sizeof row, "row-%06d", i);
    snprintf(val, sizeof val, "value %d of a gz engine test, %d", i, i * 7919 % 1000);
    hfg_cell c = mk(row, "q", 7, HFG_TYPE_PUT);
    c.value = (const uint8_t *)val;
    c.value_len = strlen(val);
    if (hfg_writer_append(w, &c)) break;
  }
  size_t len = 0;
  if (hfg_writer_finish(w) == 0) {
    const uint8_t *f = hfg_writer_mem_data(w, &len);
    *out = hfg_memdup(f, len);
  }
  hfg_writer_free(w);
  return len;
}

TEST(writer_gz_engines) {
  uint8_t *z = NULL, *i = NULL;
  size_t zl = gz_file(HFG_GZ_ZLIB, &z);
  REQUIRE(zl > 0);
  CHECK_MEM(z, "DATABLK*", 8);
  /* block 1's payload: the zlib member of its uncompressed bytes */
  uint32_t on_disk = hfg_get_be32(z + 29) - 33, raw = hfg_get_be32(z + 12); /* data size with header */
  uint8_t *plain = malloc(raw);
  REQUIRE(hfg_codec_decompress(HFG_CODEC_GZ, z + 33, on_disk, plain, raw, NULL) == 0);
  hfg_compressor *c = hfg_compressor_new(HFG_CODEC_GZ, -1);
  hfg_buf b = HFG_BUF_INIT;
  REQUIRE(c && hfg_compressor_compress(c, plain, raw, &b, NULL) == 0);
  CHECK(b.len == on_disk && memcmp(b.p, z + 33, on_disk) == 0);
  hfg_buf_free(&b);
  hfg_compressor_free(c);
  free(plain);

  size_t il = gz_file(HFG_GZ_ISAL, &i);
  if (hfg_gz_isal_available()) {
    REQUIRE(il > 0);
    CHECK(il != zl || memcmp(i, z, zl) != 0); /* another deflate encoder */
  } else {
    CHECK_EQ_INT(il, 0); /* refused, never silently zlib */
  }
  hfg_free(z);
  hfg_free(i);

  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.gz_impl = 7;
  hfg_writer *w = NULL;
  CHECK_EQ_INT(hfg_writer_open_mem("cf", &o, &w), HFG_EINVAL);
  CHECK(w && strstr(hfg_writer_errmsg(w), "GZ engine") != NULL);
  hfg_writer_free(w);
}

/* A file writer hands the kernel its bytes in chunks (write_chunk) through a
 * buffer: at any chunk size, bigger or smaller than a block, the file is
 * byte for byte what a memory writer makes of the same cells, with a codec
 * (blocks of every size) and without (blocks larger than small chunks);
 * through the page cache (no fsync, or direct_io 0) and with O_DIRECT (fsync
 * and direct_io: aligned chunks, the tail unit padded and cut back). direct
 * is -1 (no fsync) or the direct_io option; *used says whether the writer
 * wrote with O_DIRECT. */
static void write_chunked(const char *path, uint32_t chunk, hfg_codec codec, int direct,
                          uint8_t **out, size_t *len, int *used) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.codec = codec;
  o.bulkload_timestamp = 1;
  o.fsync = direct >= 0;
  o.direct_io = direct > 0;
  o.block_size = 4096;
  o.write_chunk = chunk;
  hfg_writer *w = NULL;
  REQUIRE((path ? hfg_writer_open(path, "cf", &o, &w) : hfg_writer_open_mem("cf", &o, &w)) == 0);
  if (used) *used = w->aout != NULL;
  char row[32], val[300];
  uint64_t s = 7;
  for (int i = 0; i < 3000; i++) {
    snprintf(row, sizeof row, "row-%06d", i);
    size_t vl = t_rand(&s) % sizeof val;
    for (size_t k = 0; k < vl; k++) val[k] = (char)('a' + t_rand(&s) % (i % 2 ? 26 : 3));
    hfg_cell c = mk(row, "q", 7, HFG_TYPE_PUT);
    c.value = (const uint8_t *)val;
    c.value_len = vl;
    REQUIRE(hfg_writer_append(w, &c) == 0);
  }
  REQUIRE(hfg_writer_finish(w) == 0);
  if (path) {
    *out = t_read_file(path, len);
    REQUIRE(*out != NULL);
    unlink(path);
  } else {
    const uint8_t *m = hfg_writer_mem_data(w, len);
    *out = hfg_memdup(m, *len);
  }
  hfg_writer_free(w);
}

/* Whether the file system under path takes an aligned O_DIRECT write. */
static int takes_direct_io(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
  if (fd < 0) return 0;
  void *b = NULL;
  int ok = posix_memalign(&b, 4096, 4096) == 0;
  if (ok) {
    memset(b, 'x', 4096);
    ok = pwrite(fd, b, 4096, 0) == 4096;
  }
  free(b);
  close(fd);
  unlink(path);
  return ok;
}

TEST(writer_write_chunks_same_bytes) {
  const hfg_codec codecs[] = {HFG_CODEC_NONE, HFG_CODEC_LZ4};
  const uint32_t chunks[] = {1, 1000, 4096, 4097, 65536, 0, 1u << 22};
  const char *path = t_tmp_path("test_writer", "chunked.hfile");
  const int fs_direct = takes_direct_io(path);
  fprintf(stderr, "  %s: O_DIRECT %s\n", path, fs_direct ? "taken" : "not taken");
  for (int c = 0; c < 2; c++) {
    uint8_t *ref;
    size_t ref_len;
    write_chunked(NULL, 0, codecs[c], -1, &ref, &ref_len, NULL);
    CHECK(ref_len > 3 * (128u << 10) || codecs[c] != HFG_CODEC_NONE); /* several default chunks */
    CHECK(ref_len % 4096 != 0); /* the O_DIRECT tail is padded and cut back */
    for (size_t k = 0; k < sizeof chunks / sizeof *chunks; k++) {
      for (int direct = -1; direct <= 1; direct++) {
        uint8_t *got = NULL;
        size_t got_len = 0;
        int used = -1;
        write_chunked(path, chunks[k], codecs[c], direct, &got, &got_len, &used);
        if (!got) { /* a REQUIRE inside failed (and said so) */
          hfg_free(ref);
          return;
        }
        if (got_len != ref_len || memcmp(got, ref, ref_len))
          fprintf(stderr, "  codec %d, write_chunk %u, direct %d: %zu bytes, the memory "
                  "writer's %zu%s\n", c, chunks[k], direct, got_len, ref_len,
                  got_len == ref_len ? " (content differs)" : "");
        CHECK(got_len == ref_len && !memcmp(got, ref, ref_len));
        /* O_DIRECT exactly when asked for, fsynced, on a file system that takes
         * it, with chunks of whole 4 KiB units */
        int want = direct == 1 && fs_direct && (chunks[k] == 0 || chunks[k] % 4096 == 0);
        if (used != want) fprintf(stderr, "  write_chunk %u, direct %d: O_DIRECT %d, want %d\n",
                                  chunks[k], direct, used, want);
        CHECK_EQ_INT(used, want);
        hfg_free(got);
      }
    }
    hfg_free(ref);
  }
}

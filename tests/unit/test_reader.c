/* The reader and verify against HBase-written fixtures
 * (HFG_FIXTURES_DIR/hbase-2.4-hudi, HBase 2.4.9 / 2.4.13 through Apache Hudi):
 * trailer, file info, index shapes, every cell's bytes, seeks, verify. */
#include <inttypes.h>

#include "hfilegen/reader.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"

T_MAIN

#define FIX HFG_FIXTURES_DIR "/hbase-2.4-hudi/"

typedef struct fixture {
  const char *name;
  int codec;         /* Compression.Algorithm ordinal */
  uint64_t entries;
  uint32_t levels;
  int key_kind;      /* 0 hudi-key-%09d, 1 with -abcdefghij, 2 large prefix */
  int non_unique;
} fixture;

static const fixture FIXTURES[] = {
    {"hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile", 2, 5000, 1, 0, 0},
    {"hudi_1_0_hbase_2_4_9_64KB_NONE_5000.hfile", 2, 5000, 1, 0, 0},
    {"hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile", 1, 20000, 1, 0, 0},
    {"hudi_1_0_hbase_2_4_9_512KB_GZ_20000.hfile", 1, 20000, 1, 0, 0},
    {"hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile", 1, 4200, 1, 0, 1},
    {"hudi_1_0_hbase_2_4_13_16KB_GZ_20000_fake_first_key.hfile", 1, 20000, 1, 1, 0},
    {"hudi_1_0_hbase_2_4_13_1KB_GZ_20000_large_keys.hfile", 1, 20000, 2, 2, 0},
    {"hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile", 1, 10000, 3, 2, 0},
};
#define NFIX (sizeof FIXTURES / sizeof *FIXTURES)

static const char LARGE_PREFIX[] =
    "hudi-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
    "aaaaaaaaaaaaaaa-";

static void expected_row(int kind, unsigned i, char *out, size_t cap) {
  if (kind == 0) snprintf(out, cap, "hudi-key-%09u", i);
  else if (kind == 1) snprintf(out, cap, "hudi-key-%09u-abcdefghij", i);
  else snprintf(out, cap, "%s%09u", LARGE_PREFIX, i);
}

static hfg_reader *open_fix(const char *name) {
  char path[512];
  snprintf(path, sizeof path, FIX "%s", name);
  hfg_reader *r = NULL;
  int rc = hfg_reader_open(path, &r);
  if (rc) fprintf(stderr, "  open %s: %s\n", name, hfg_reader_errmsg(r));
  if (rc) {
    hfg_reader_close(r);
    return NULL;
  }
  return r;
}

/* Every fixture: trailer facts the README and the files agree on. */
TEST(fixture_trailers) {
  for (size_t i = 0; i < NFIX; i++) {
    const fixture *fx = &FIXTURES[i];
    hfg_reader *r = open_fix(fx->name);
    REQUIRE(r);
    const hfg_trailer *t = hfg_reader_trailer(r);
    CHECK_EQ_INT(t->major_version, 3);
    CHECK_EQ_INT(t->minor_version, 3);
    CHECK_EQ_INT(t->entry_count, fx->entries);
    CHECK_EQ_INT(t->num_data_index_levels, fx->levels);
    CHECK_EQ_INT(t->compression, fx->codec);
    CHECK(t->comparator && !strcmp(t->comparator, "org.apache.hadoop.hbase.KeyValue$KVComparator"));
    CHECK_EQ_INT(t->first_data_block_offset, 0);
    CHECK_EQ_INT(t->meta_index_count, 1); /* Hudi's bloomFilter meta block */
    const hfg_file_meta *m = hfg_reader_meta(r);
    CHECK_EQ_INT(m->comparator, HFG_CMP_CELL);
    /* no hfile.MAX_TAGS_LEN: no tags; KEY_VALUE_VERSION 1 with MAX_MEMSTORE_TS_KEY 0 */
    CHECK(!m->includes_tags);
    CHECK(m->includes_mvcc);
    CHECK(!m->decode_mvcc);
    CHECK_EQ_INT(m->max_memstore_ts, 0);
    CHECK(!m->has_bloom_meta);
    CHECK_EQ_INT(m->bloom_type, HFG_BLOOM_NONE);
    const uint8_t *v;
    size_t vn;
    CHECK_EQ_INT(hfg_reader_fileinfo_get(r, "hfile.CREATE_TIME_TS", &v, &vn), 1);
    CHECK(vn == 8 && hfg_get_be64(v) == 0);
    CHECK_EQ_INT(hfg_reader_fileinfo_get(r, "BULKLOAD_TIMESTAMP", &v, &vn), 0);
    CHECK_EQ_INT(hfg_reader_fileinfo_get(r, "TIMERANGE", &v, &vn), 0);
    hfg_index_entry e;
    CHECK_EQ_INT(hfg_reader_meta_index_entry(r, 0, &e), 0);
    CHECK(e.key_len == 11 && !memcmp(e.key, "bloomFilter", 11));
    hfg_reader_close(r);
  }
}

/* Every cell of every fixture, in order, with the known keys and values. */
TEST(fixture_cells) {
  for (size_t i = 0; i < NFIX; i++) {
    const fixture *fx = &FIXTURES[i];
    hfg_reader *r = open_fix(fx->name);
    REQUIRE(r);
    hfg_scanner *s;
    REQUIRE(hfg_scanner_new(r, &s) == 0);
    hfg_read_cell c;
    uint64_t n = 0;
    int rc, bad = 0;
    while ((rc = hfg_scanner_next(s, &c)) == 1) {
      char row[256], val[64];
      unsigned idx = fx->non_unique ? (unsigned)(n / 21) : (unsigned)n;
      expected_row(fx->key_kind, idx, row, sizeof row);
      if (!fx->non_unique || n % 21 == 0) snprintf(val, sizeof val, "hudi-value-%09u", idx);
      else snprintf(val, sizeof val, "hudi-value-%09u_%u", idx, (unsigned)(n % 21 - 1));
      const hfg_cell *k = &c.cell;
      if (k->row_len != strlen(row) || memcmp(k->row, row, k->row_len) ||
          k->value_len != strlen(val) || memcmp(k->value, val, k->value_len) ||
          k->family_len != 0 || k->qualifier_len != 0 || k->timestamp != INT64_MAX ||
          k->type != HFG_TYPE_PUT || k->tags_len != 0 || c.mvcc != 0 ||
          c.key_len != k->row_len + 12) {
        if (!bad++) fprintf(stderr, "  %s: cell %" PRIu64 " differs\n", fx->name, n);
      }
      n++;
    }
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(n, fx->entries);
    hfg_scanner_free(s);
    hfg_reader_close(r);
  }
}

/* The empty file names Hudi's own comparator class and must still open. */
TEST(fixture_empty) {
  hfg_reader *r = open_fix("hudi_1_0_hbase_2_4_9_no_entry.hfile");
  REQUIRE(r);
  const hfg_trailer *t = hfg_reader_trailer(r);
  CHECK_EQ_INT(t->entry_count, 0);
  CHECK_EQ_INT(t->data_index_count, 0);
  CHECK_EQ_INT(t->first_data_block_offset, -1);
  CHECK_EQ_INT(t->last_data_block_offset, -1);
  CHECK(t->comparator && !strcmp(t->comparator, "org.apache.hudi.io.storage.HoodieHBaseKVComparator"));
  CHECK_EQ_INT(hfg_reader_meta(r)->comparator, HFG_CMP_UNKNOWN);
  CHECK(hfg_reader_meta(r)->first_key == NULL);
  hfg_scanner *s;
  REQUIRE(hfg_scanner_new(r, &s) == 0);
  hfg_read_cell c;
  CHECK_EQ_INT(hfg_scanner_next(s, &c), 0);
  CHECK_EQ_INT(hfg_scanner_seek_row(s, (const uint8_t *)"a", 1), 0);
  CHECK_EQ_INT(hfg_scanner_next(s, &c), 0);
  hfg_scanner_free(s);
  hfg_verify_report rep;
  CHECK_EQ_INT(hfg_verify(r, &rep), 0);
  CHECK_EQ_INT(rep.cells, 0);
  CHECK(!rep.has_cells);
  hfg_verify_report_free(&rep);
  hfg_reader_close(r);
}

/* Index shapes: levels 1/2/3, leaf and intermediate blocks, mid-key metadata. */
TEST(fixture_index) {
  for (size_t i = 0; i < NFIX; i++) {
    const fixture *fx = &FIXTURES[i];
    hfg_reader *r = open_fix(fx->name);
    REQUIRE(r);
    hfg_index_summary s;
    REQUIRE(hfg_reader_load_index(r, &s) == 0);
    CHECK_EQ_INT(s.levels, fx->levels);
    CHECK_EQ_INT(s.root_entries, hfg_reader_trailer(r)->data_index_count);
    CHECK_EQ_INT(s.data_blocks, hfg_reader_data_block_count(r));
    CHECK_EQ_INT(s.index_uncompressed_bytes, hfg_reader_trailer(r)->uncompressed_data_index_size);
    if (fx->levels == 1) {
      CHECK_EQ_INT(s.leaf_blocks, 0);
      CHECK_EQ_INT(s.intermediate_blocks, 0);
      CHECK_EQ_INT(s.data_blocks, s.root_entries);
      CHECK(!s.has_mid_key_meta);
    } else {
      CHECK(s.has_mid_key_meta);
      CHECK_EQ_INT(s.leaf_blocks, fx->levels == 2 ? s.root_entries : s.leaf_blocks);
      CHECK(fx->levels == 2 ? s.intermediate_blocks == 0 : s.intermediate_blocks == s.root_entries);
      CHECK(s.mid_key != NULL);
    }
    /* the last data block's index entry is the trailer's last data block */
    hfg_index_entry e;
    REQUIRE(hfg_reader_data_block(r, s.data_blocks - 1, &e) == 0);
    CHECK_EQ_INT(e.offset, hfg_reader_trailer(r)->last_data_block_offset);
    hfg_reader_close(r);
  }
  /* shapes read from the files (hudi TestHFileReader states the levels) */
  hfg_reader *r = open_fix("hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile");
  REQUIRE(r);
  hfg_index_summary s;
  REQUIRE(hfg_reader_load_index(r, &s) == 0);
  CHECK_EQ_INT(s.root_entries, 7);
  CHECK_EQ_INT(s.intermediate_blocks, 7);
  CHECK_EQ_INT(s.leaf_blocks, 103);
  CHECK_EQ_INT(s.data_blocks, 1429);
  hfg_reader_close(r);
}

/* Blocks 0 and 1 of the 16 KB files end at keys 277 / start at 278 (hudi's
 * TestHFileReader), and the fake-first-key file stores shortened index keys. */
TEST(fixture_fake_keys_and_blocks) {
  hfg_reader *r = open_fix("hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile");
  REQUIRE(r);
  REQUIRE(hfg_reader_load_index(r, NULL) == 0);
  hfg_index_entry e;
  REQUIRE(hfg_reader_data_block(r, 1, &e) == 0);
  hfg_scanner *s;
  REQUIRE(hfg_scanner_new(r, &s) == 0);
  REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)"hudi-key-000000278", 18) == 0);
  hfg_read_cell c;
  REQUIRE(hfg_scanner_next(s, &c) == 1);
  CHECK_EQ_INT(c.block_offset, e.offset);
  CHECK(c.cell.row_len == 18 && !memcmp(c.cell.row, "hudi-key-000000278", 18));
  REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)"hudi-key-000000277", 18) == 0);
  REQUIRE(hfg_scanner_next(s, &c) == 1);
  CHECK_EQ_INT(c.block_offset, 0);
  REQUIRE(hfg_scanner_next(s, &c) == 1);
  CHECK_EQ_INT(c.block_offset, e.offset);
  hfg_scanner_free(s);
  hfg_reader_close(r);

  r = open_fix("hudi_1_0_hbase_2_4_13_16KB_GZ_20000_fake_first_key.hfile");
  REQUIRE(r);
  REQUIRE(hfg_reader_load_index(r, NULL) == 0);
  size_t fake = 0;
  for (size_t i = 0; i < hfg_reader_data_block_count(r); i++) {
    hfg_cell k;
    REQUIRE(hfg_reader_data_block(r, i, &e) == 0);
    REQUIRE(hfg_parse_key(e.key, e.key_len, &k) == 0);
    /* a shortened key: row cut before "-abcdefghij", ts LATEST, type Maximum */
    if (k.row_len < 29) {
      fake++;
      CHECK_EQ_INT(k.type, HFG_TYPE_MAXIMUM);
    }
  }
  CHECK(fake > 0);
  /* block 2's index key is hudi-key-00000047 and its first cell ...470-abcdefghij */
  REQUIRE(hfg_reader_data_block(r, 2, &e) == 0);
  hfg_cell k2;
  REQUIRE(hfg_parse_key(e.key, e.key_len, &k2) == 0);
  CHECK(k2.row_len == 17 && !memcmp(k2.row, "hudi-key-00000047", 17));
  REQUIRE(hfg_scanner_new(r, &s) == 0);
  REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)"hudi-key-00000047", 17) == 0);
  REQUIRE(hfg_scanner_next(s, &c) == 1);
  CHECK(c.cell.row_len == 29 && !memcmp(c.cell.row, "hudi-key-000000470-abcdefghij", 29));
  CHECK_EQ_INT(c.block_offset, e.offset);
  hfg_scanner_free(s);
  hfg_reader_close(r);
}

/* Seeks: exact keys, keys between cells, before the first, after the last. */
TEST(fixture_seeks) {
  for (size_t i = 0; i < NFIX; i++) {
    const fixture *fx = &FIXTURES[i];
    if (fx->non_unique) continue;
    hfg_reader *r = open_fix(fx->name);
    REQUIRE(r);
    hfg_scanner *s;
    REQUIRE(hfg_scanner_new(r, &s) == 0);
    unsigned probes[] = {0, 1, 99, 277, 278, 2501, (unsigned)fx->entries / 2,
                         (unsigned)fx->entries - 2, (unsigned)fx->entries - 1};
    for (size_t p = 0; p < sizeof probes / sizeof *probes; p++) {
      char row[256];
      expected_row(fx->key_kind, probes[p], row, sizeof row);
      hfg_read_cell c;
      REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)row, strlen(row)) == 0);
      REQUIRE(hfg_scanner_next(s, &c) == 1);
      CHECK(c.cell.row_len == strlen(row) && !memcmp(c.cell.row, row, c.cell.row_len));
      /* just past the row: the next row */
      strcat(row, "a");
      REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)row, strlen(row)) == 0);
      int rc = hfg_scanner_next(s, &c);
      if (probes[p] + 1 == fx->entries) {
        CHECK_EQ_INT(rc, 0);
      } else {
        char nx[256];
        expected_row(fx->key_kind, probes[p] + 1, nx, sizeof nx);
        CHECK_EQ_INT(rc, 1);
        CHECK(c.cell.row_len == strlen(nx) && !memcmp(c.cell.row, nx, c.cell.row_len));
      }
    }
    hfg_read_cell c;
    REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)"", 0) == 0);
    REQUIRE(hfg_scanner_next(s, &c) == 1);
    char row0[256];
    expected_row(fx->key_kind, 0, row0, sizeof row0);
    CHECK(c.cell.row_len == strlen(row0) && !memcmp(c.cell.row, row0, c.cell.row_len));
    REQUIRE(hfg_scanner_seek_row(s, (const uint8_t *)"zzz", 3) == 0);
    CHECK_EQ_INT(hfg_scanner_next(s, &c), 0);
    hfg_scanner_free(s);
    hfg_reader_close(r);
  }
}

TEST(fixture_verify) {
  for (size_t i = 0; i < NFIX; i++) {
    char path[512];
    snprintf(path, sizeof path, FIX "%s", FIXTURES[i].name);
    hfg_verify_report rep;
    int rc = hfg_verify_path(path, &rep);
    if (rc) fprintf(stderr, "  %s: %s\n", FIXTURES[i].name, rep.message);
    CHECK_EQ_INT(rc, 0);
    CHECK_EQ_INT(rep.cells, FIXTURES[i].entries);
    CHECK_EQ_INT(rep.rows, FIXTURES[i].non_unique ? 200 : FIXTURES[i].entries);
    CHECK(rep.has_cells && rep.family_len == 0);
    char row[256];
    expected_row(FIXTURES[i].key_kind, 0, row, sizeof row);
    CHECK(rep.first_row_len == strlen(row) && !memcmp(rep.first_row, row, rep.first_row_len));
    hfg_verify_report_free(&rep);
  }
}

/* Block headers walk contiguously from 0 to the trailer with CRC32C / 16384. */
TEST(fixture_block_walk) {
  for (size_t i = 0; i < NFIX; i++) {
    hfg_reader *r = open_fix(FIXTURES[i].name);
    REQUIRE(r);
    const hfg_trailer *t = hfg_reader_trailer(r);
    uint64_t off = 0, end = t->file_size - 4096, n = 0;
    while (off < end) {
      hfg_block_info b;
      REQUIRE(hfg_reader_block_header(r, off, &b) == 0);
      CHECK_EQ_INT(b.checksum_type, HFG_CHECKSUM_CRC32C);
      CHECK_EQ_INT(b.bytes_per_checksum, 16384);
      const uint8_t *p;
      size_t len;
      REQUIRE(hfg_reader_read_block(r, off, NULL, &p, &len) == 0);
      CHECK_EQ_INT(len, b.uncompressed_size);
      off += b.on_disk_size_with_header;
      n++;
    }
    CHECK_EQ_INT(off, end);
    CHECK(n > 3);
    hfg_reader_close(r);
  }
}

/* Allocation failures anywhere in open, index load, scan and verify are
 * reported as HFG_ENOMEM (or survived) without leaks (ASan). */
TEST(alloc_failures) {
  const char *names[] = {"hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile",
                         "hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile"};
  for (size_t f = 0; f < 2; f++) {
    char path[512];
    snprintf(path, sizeof path, FIX "%s", names[f]);
    int done = 0;
    for (long n = 1; n < 100000 && !done; n++) {
      hfg_fault_alloc_arm(n);
      hfg_verify_report rep;
      int rc = hfg_verify_path(path, &rep);
      int fired = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      if (!fired) {
        CHECK_EQ_INT(rc, 0);
        done = 1;
      } else if (rc != 0 && rc != HFG_ENOMEM && !strstr(rep.message, "out of memory")) {
        fprintf(stderr, "  alloc %ld: rc %d %s\n", n, rc, rep.message);
        CHECK(0);
      }
      hfg_verify_report_free(&rep);
    }
    CHECK(done);
  }
}

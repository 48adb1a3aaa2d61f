/* Hostile input: truncated, bit-flipped and hand-mutated copies of HBase
 * fixtures must give an error or a clean result, never a crash, a hang or a
 * huge allocation (run under -DHFG_SANITIZE=ON too). A flip inside a block's
 * payload must be reported by verify as a checksum error naming the block. */
#include <inttypes.h>

#include "hfile.pb-c.h"
#include "hfilegen/reader.h"
#include "t.h"
#include "util/coding.h"
#include "util/crc.h"

T_MAIN

#define FIX HFG_FIXTURES_DIR "/hbase-2.4-hudi/"
#define NONE_5000 FIX "hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile"
#define GZ_SMALL FIX "hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile"
#define GZ_DEEP FIX "hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile"

static uint8_t *load(const char *path, size_t *len) { return t_read_file(path, len); }

/* Everything a user of the API can do with a file; returns verify's code, or
 * the open error. Messages must be non-empty whenever a call fails. */
static int exercise(const uint8_t *p, size_t n, int checksums, char *msg, size_t cap) {
  hfg_reader *r;
  int rc = hfg_reader_open_mem(p, n, &r);
  if (msg) snprintf(msg, cap, "%s", hfg_reader_errmsg(r));
  if (rc) {
    CHECK(hfg_reader_errmsg(r)[0] != '\0');
    hfg_reader_close(r);
    return rc;
  }
  hfg_reader_set_verify_checksums(r, checksums);
  if (checksums) {
    /* with checksums on, corrupted payloads never reach the parsers: verify
     * alone covers what matters (the no-checksum runs exercise the rest) */
    hfg_verify_report rep;
    rc = hfg_verify(r, &rep);
    if (rc) CHECK(rep.message[0] != '\0');
    if (msg) snprintf(msg, cap, "%s", rep.message);
    hfg_verify_report_free(&rep);
    hfg_reader_close(r);
    return rc;
  }
  hfg_index_summary s;
  if (hfg_reader_load_index(r, &s) != 0) CHECK(hfg_reader_errmsg(r)[0] != '\0');
  const hfg_trailer *t = hfg_reader_trailer(r);
  uint64_t off = 0;
  for (int k = 0; k < 100000 && off < t->file_size - 4096; k++) {
    hfg_block_info b;
    if (hfg_reader_block_header(r, off, &b)) break;
    const uint8_t *pl;
    size_t len;
    hfg_reader_read_block(r, off, NULL, &pl, &len);
    off += b.on_disk_size_with_header;
  }
  hfg_scanner *sc;
  if (hfg_scanner_new(r, &sc) == 0) {
    hfg_read_cell c;
    uint64_t cells = 0;
    int x;
    while ((x = hfg_scanner_next(sc, &c)) == 1) cells++;
    if (x < 0) CHECK(hfg_scanner_errmsg(sc)[0] != '\0');
    CHECK(cells <= n); /* no loop */
    hfg_scanner_seek_row(sc, (const uint8_t *)"hudi-key-000000300", 18);
    if (hfg_scanner_next(sc, &c) < 0) CHECK(hfg_scanner_errmsg(sc)[0] != '\0');
    hfg_scanner_free(sc);
  }
  hfg_reader_bloom_check(r, (const uint8_t *)"r", 1, NULL, 0);
  static hfg_stats st;
  hfg_reader_stats(r, &st);
  hfg_verify_report rep;
  rc = hfg_verify(r, &rep);
  if (rc) CHECK(rep.message[0] != '\0');
  if (msg) snprintf(msg, cap, "%s", rep.message);
  hfg_verify_report_free(&rep);
  hfg_reader_close(r);
  return rc;
}

typedef struct blk {
  uint64_t off, size;
  uint32_t data_end; /* 33 + on-disk payload */
} blk;

static size_t block_map(const uint8_t *p, size_t n, blk *out, size_t cap) {
  hfg_reader *r;
  size_t k = 0;
  if (hfg_reader_open_mem(p, n, &r) == 0) {
    uint64_t off = 0;
    while (off < n - 4096 && k < cap) {
      hfg_block_info b;
      if (hfg_reader_block_header(r, off, &b)) break;
      out[k++] = (blk){off, b.on_disk_size_with_header, b.on_disk_data_size_with_header};
      off += b.on_disk_size_with_header;
    }
  }
  hfg_reader_close(r);
  return k;
}

static void truncations(const char *path, size_t step) {
  size_t n;
  uint8_t *p = load(path, &n);
  REQUIRE(p);
  for (size_t len = 0; len < n; len += step) {
    CHECK(exercise(p, len, 1, NULL, 0) != 0);
    /* keep the trailer, drop the bytes before it: offsets now point past the end */
    if (len + 4096 < n) {
      uint8_t *q = malloc(len + 4096);
      memcpy(q, p, len);
      memcpy(q + len, p + n - 4096, 4096);
      CHECK(exercise(q, len + 4096, 1, NULL, 0) != 0);
      free(q);
    }
  }
  free(p);
}

TEST(truncated_none) { truncations(NONE_5000, 37); }
TEST(truncated_gz) { truncations(GZ_SMALL, 37); }

/* Flip one byte at every step-th position; with checksums on, a flip inside a
 * block (header + payload) is caught, a flip in a payload as a checksum error
 * naming the block's offset. */
static void flips(const char *path, size_t step, int checksums) {
  size_t n;
  uint8_t *p = load(path, &n);
  REQUIRE(p);
  static blk map[4096];
  size_t nb = block_map(p, n, map, 4096);
  REQUIRE(nb > 3);
  size_t caught = 0;
  for (size_t i = 0; i < n; i += step) {
    p[i] ^= 0x5a;
    char msg[1100];
    int rc = exercise(p, n, checksums, msg, sizeof msg);
    p[i] ^= 0x5a;
    if (!checksums) continue;
    for (size_t b = 0; b < nb; b++) {
      if (i < map[b].off || i >= map[b].off + map[b].size) continue;
      if (i >= map[b].off + 33 && i < map[b].off + map[b].data_end) {
        char want[64];
        snprintf(want, sizeof want, "block at offset %" PRIu64, map[b].off);
        if (rc != HFG_ECHECKSUM || !strstr(msg, want) || !strstr(msg, "checksum mismatch")) {
          fprintf(stderr, "  flip at %zu (block %" PRIu64 "): rc %d: %s\n", i, map[b].off, rc, msg);
          CHECK(0);
        }
        caught++;
      } else {
        CHECK(rc != 0); /* a header or stored checksum byte */
      }
    }
  }
  if (checksums) CHECK(caught > 10);
  free(p);
}

TEST(flipped_none) { flips(NONE_5000, 37, 1); }
TEST(flipped_gz) { flips(GZ_SMALL, 37, 1); }
TEST(flipped_gz_deep) { flips(GZ_DEEP, 509, 1); }
/* without checksums the corrupted bytes reach every parser */
TEST(flipped_no_checksums_none) { flips(NONE_5000, 199, 0); }
TEST(flipped_no_checksums_gz) { flips(GZ_SMALL, 29, 0); }
TEST(flipped_no_checksums_deep) { flips(GZ_DEEP, 1021, 0); }

/* ---- trailer mutations (fields HBase trusts) ---- */

static uint8_t *with_trailer(const uint8_t *p, size_t n, void (*mut)(Hbase__Pb__FileTrailerProto *)) {
  const uint8_t *tr = p + n - 4096;
  uint64_t len;
  size_t k = hfg_get_varint(tr + 8, tr + 4092, &len);
  Hbase__Pb__FileTrailerProto *m = hbase__pb__file_trailer_proto__unpack(NULL, len, tr + 8 + k);
  if (!m) return NULL;
  mut(m);
  uint8_t *q = malloc(n);
  memcpy(q, p, n);
  uint8_t *t = q + n - 4096;
  memset(t + 8, 0, 4084);
  size_t plen = hbase__pb__file_trailer_proto__get_packed_size(m);
  size_t vk = hfg_put_varint(t + 8, plen);
  hbase__pb__file_trailer_proto__pack(m, t + 8 + vk);
  hbase__pb__file_trailer_proto__free_unpacked(m, NULL);
  return q;
}

static void m_index_count(Hbase__Pb__FileTrailerProto *m) { m->data_index_count = 0xffffffffu; }
static void m_meta_count(Hbase__Pb__FileTrailerProto *m) { m->meta_index_count = 0x7fffffffu; }
static void m_levels(Hbase__Pb__FileTrailerProto *m) { m->num_data_index_levels = 40; }
static void m_levels2(Hbase__Pb__FileTrailerProto *m) { m->num_data_index_levels = 2; }
static void m_load_on_open(Hbase__Pb__FileTrailerProto *m) { m->load_on_open_data_offset += 1; }
static void m_load_on_open_far(Hbase__Pb__FileTrailerProto *m) {
  m->load_on_open_data_offset = (uint64_t)1 << 62;
}
static void m_entries(Hbase__Pb__FileTrailerProto *m) { m->entry_count = UINT64_MAX; }
static void m_first(Hbase__Pb__FileTrailerProto *m) { m->first_data_block_offset = 7; }
static void m_last(Hbase__Pb__FileTrailerProto *m) { m->last_data_block_offset = 0; }
static void m_codec(Hbase__Pb__FileTrailerProto *m) { m->compression_codec = 99; }
static void m_codec_gz(Hbase__Pb__FileTrailerProto *m) { m->compression_codec = 1; }
static void m_fileinfo(Hbase__Pb__FileTrailerProto *m) { m->file_info_offset += 33; }
static void m_total(Hbase__Pb__FileTrailerProto *m) { m->total_uncompressed_bytes += 1; }
/* one byte of the class name changed: HBase's Class.forName finds no such class */
static void m_comparator(Hbase__Pb__FileTrailerProto *m) { m->comparator_class_name[5] = 'X'; }

TEST(trailer_mutations) {
  size_t n;
  uint8_t *p = load(NONE_5000, &n);
  REQUIRE(p);
  struct {
    void (*mut)(Hbase__Pb__FileTrailerProto *);
    int open_fails;
    const char *msg;
  } cases[] = {
      {m_index_count, 1, "entries declared"},
      {m_meta_count, 1, "entries declared"},
      {m_levels, 0, "index"},
      {m_levels2, 0, "index"},
      {m_load_on_open, 1, "load-on-open"},
      {m_load_on_open_far, 1, "load_on_open"},
      {m_entries, 0, "entry_count"},
      {m_first, 0, "first 7"},
      {m_last, 0, "data block offsets"},
      {m_codec, 1, "ordinal 99"},
      {m_codec_gz, 1, "does not decompress"},
      {m_fileinfo, 0, "file_info_offset"},
      {m_total, 0, "total_uncompressed_bytes"},
      {m_comparator, 0, "comparator class 'org.aXache.hadoop.hbase.KeyValue$KVComparator' is not one of HBase's"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    uint8_t *q = with_trailer(p, n, cases[i].mut);
    REQUIRE(q);
    hfg_reader *r;
    int rc = hfg_reader_open_mem(q, n, &r);
    CHECK_EQ_INT(rc != 0, cases[i].open_fails);
    char msg[1100];
    snprintf(msg, sizeof msg, "%s", hfg_reader_errmsg(r));
    if (!rc) {
      hfg_verify_report rep;
      rc = hfg_verify(r, &rep);
      snprintf(msg, sizeof msg, "%s", rep.message);
      hfg_verify_report_free(&rep);
      CHECK(rc != 0);
    }
    if (!strstr(msg, cases[i].msg)) {
      fprintf(stderr, "  case %zu: \"%s\" lacks \"%s\"\n", i, msg, cases[i].msg);
      CHECK(0);
    }
    hfg_reader_close(r);
    exercise(q, n, 1, NULL, 0);
    free(q);
  }
  free(p);
}

/* Garbage that looks like a trailer, all-zero files, tiny files. */
TEST(garbage) {
  uint8_t buf[12288];
  memset(buf, 0, sizeof buf);
  CHECK(exercise(buf, sizeof buf, 1, NULL, 0) != 0);
  CHECK(exercise(buf, 0, 1, NULL, 0) != 0);
  CHECK(exercise(NULL, 0, 1, NULL, 0) != 0);
  memcpy(buf + sizeof buf - 4096, "TRABLK\"$", 8);
  buf[sizeof buf - 4] = 3;
  buf[sizeof buf - 1] = 3;
  CHECK(exercise(buf, sizeof buf, 1, NULL, 0) != 0);
  uint32_t x = 12345;
  for (int round = 0; round < 200; round++) {
    for (size_t i = 0; i < sizeof buf - 4096; i++) {
      x = x * 1103515245u + 12345u;
      buf[i] = (uint8_t)(x >> 16);
    }
    /* a valid minimal trailer pointing into the garbage */
    Hbase__Pb__FileTrailerProto m = HBASE__PB__FILE_TRAILER_PROTO__INIT;
    m.has_load_on_open_data_offset = 1;
    m.load_on_open_data_offset = (uint64_t)(x % 8000);
    m.has_data_index_count = 1;
    m.data_index_count = x % 50;
    m.has_num_data_index_levels = 1;
    m.num_data_index_levels = 1 + x % 4;
    m.has_entry_count = 1;
    m.entry_count = x % 3;
    m.has_compression_codec = 1;
    m.compression_codec = round % 2 ? 1 : 2;
    uint8_t *t = buf + sizeof buf - 4096;
    memset(t + 8, 0, 4084);
    size_t plen = hbase__pb__file_trailer_proto__get_packed_size(&m);
    size_t vk = hfg_put_varint(t + 8, plen);
    hbase__pb__file_trailer_proto__pack(&m, t + 8 + vk);
    /* make a plausible block header at the load-on-open offset */
    uint8_t *h = buf + m.load_on_open_data_offset;
    memcpy(h, "IDXROOT2", 8);
    CHECK(exercise(buf, sizeof buf, round % 3 != 0, NULL, 0) != 0);
  }
}

/* A block whose header claims a huge raw size in a GZ file is refused before
 * anything is allocated; re-checksummed so only the size check can catch it. */
TEST(huge_uncompressed_size) {
  size_t n;
  uint8_t *p = load(GZ_SMALL, &n);
  REQUIRE(p);
  hfg_put_be32(p + 12, 0x7ffffff0u);
  uint32_t d = hfg_get_be32(p + 29);
  hfg_put_be32(p + d, hfg_crc32c(0, p, d < 16384 ? d : 16384));
  char msg[1100];
  int rc = exercise(p, n, 1, msg, sizeof msg);
  CHECK(rc != 0);
  CHECK(strstr(msg, "impossible") != NULL);
  free(p);
}

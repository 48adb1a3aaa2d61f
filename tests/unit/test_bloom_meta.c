/*
 * Compound bloom filters, the reader (src/format/bloom_read.c): metas cut at
 * every length, hostile and unsorted fields, random mutations, lookups at the
 * edges, and the writer under allocation failures (test_bloom.c has the
 * writer against HBase's facts).
 */
#include <math.h>

#include "bloom_fake.h"
#include "format/bloom.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"

T_MAIN

/* ---- reader: hostile metas ---- */

/* A ROW meta with many chunks (small chunks), and its pieces' offsets. */
static void build_meta(hfg_bloom_type t, int nrows, hfg_buf *meta) {
  hfg_bloom_writer *b = hfg_bloom_writer_new(t, 0.01f, 128, 0);
  fake_file *f = file_new();
  char row[32];
  for (int i = 0; i < nrows; i++) {
    hfg_bloom_writer_add(b, (const uint8_t *)row, row_name(row, i), (const uint8_t *)"q", 1);
    if (i % 50 == 49) drain(b, 0, f);
  }
  drain(b, 1, f);
  hfg_bloom_writer_meta(b, meta);
  file_free(f);
  hfg_bloom_writer_free(b);
}

TEST(meta_truncated_at_every_length) {
  hfg_bloom_type types[2] = {HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  for (int t = 0; t < 2; t++) {
    hfg_buf meta = HFG_BUF_INIT;
    build_meta(types[t], 1000, &meta);
    REQUIRE(meta.len > 300);
    hfg_bloom_meta m;
    REQUIRE(hfg_bloom_meta_parse(meta.p, meta.len, &m, NULL, 0) == 0);
    CHECK(m.num_chunks > 5);
    hfg_bloom_meta_free(&m);
    char msg[256];
    int bad = 0;
    for (size_t n = 0; n < meta.len; n++) {
      uint8_t *copy = malloc(n ? n : 1); /* exact size: ASan sees any overread */
      memcpy(copy, meta.p, n);
      int rc = hfg_bloom_meta_parse(copy, n, &m, msg, sizeof msg);
      if (rc != HFG_ECORRUPT || m.num_chunks != 0 || m.chunk_offset != NULL || !msg[0]) bad++;
      free(copy);
    }
    CHECK_EQ_INT(bad, 0);
    /* One trailing byte is corrupt too. */
    hfg_buf_put_u8(&meta, 0);
    CHECK_EQ_INT(hfg_bloom_meta_parse(meta.p, meta.len, &m, msg, sizeof msg), HFG_ECORRUPT);
    hfg_buf_free(&meta);
  }
  hfg_bloom_meta m;
  CHECK_EQ_INT(hfg_bloom_meta_parse(NULL, 0, &m, NULL, 0), HFG_ECORRUPT);
}

static int parse_patched(const uint8_t *base, size_t n, size_t at, const void *bytes, size_t len,
                         char *msg, size_t msg_len) {
  uint8_t *copy = malloc(n);
  memcpy(copy, base, n);
  memcpy(copy + at, bytes, len);
  hfg_bloom_meta m;
  int rc = hfg_bloom_meta_parse(copy, n, &m, msg, msg_len);
  if (rc == 0) hfg_bloom_meta_free(&m);
  free(copy);
  return rc;
}

TEST(meta_hostile_fields) {
  const uint8_t *v = fold_meta;
  size_t n = sizeof fold_meta;
  char msg[256];
  uint8_t be[8];
#define PATCH32(at, val) (hfg_put_be32(be, (uint32_t)(val)), parse_patched(v, n, at, be, 4, msg, sizeof msg))
#define PATCH64(at, val) (hfg_put_be64(be, (uint64_t)(val)), parse_patched(v, n, at, be, 8, msg, sizeof msg))
  CHECK_EQ_INT(parse_patched(v, n, 0, "", 0, msg, sizeof msg), 0);
  CHECK_EQ_INT(PATCH32(0, 2), HFG_ECORRUPT);                 /* version */
  CHECK(strstr(msg, "version") != NULL);
  CHECK_EQ_INT(PATCH64(4, -8), HFG_ECORRUPT);                /* total byte size */
  CHECK_EQ_INT(PATCH32(12, 0), HFG_ECORRUPT);                /* hash count */
  CHECK_EQ_INT(PATCH32(12, 0x7fffffff), HFG_ECORRUPT);
  CHECK_EQ_INT(PATCH32(12, -7), HFG_ECORRUPT);
  CHECK_EQ_INT(PATCH32(16, 0), HFG_EUNSUPPORTED);            /* Jenkins */
  CHECK_EQ_INT(PATCH32(16, 2), 0);                           /* murmur3 */
  CHECK_EQ_INT(PATCH32(16, 3), HFG_ECORRUPT);
  CHECK_EQ_INT(PATCH32(16, -1), HFG_ECORRUPT);
  CHECK_EQ_INT(PATCH64(20, -1), HFG_ECORRUPT);               /* key count */
  CHECK_EQ_INT(PATCH64(20, 7), HFG_ECORRUPT);                /* > max keys */
  CHECK_EQ_INT(PATCH64(28, -6), HFG_ECORRUPT);               /* max keys */
  CHECK_EQ_INT(PATCH32(36, -1), HFG_ECORRUPT);               /* chunks */
  CHECK_EQ_INT(PATCH32(36, 2), HFG_ECORRUPT);
  CHECK_EQ_INT(PATCH32(36, 0), HFG_ECORRUPT);                /* keys but no chunk */
  /* An absurd chunk count fails before any allocation. */
  uint8_t big[sizeof fold_meta];
  memcpy(big, v, n);
  hfg_put_be64(big + 4, 1ull << 40);  /* totals consistent with 2^31-1 chunks */
  hfg_put_be64(big + 20, 1ull << 31);
  hfg_put_be64(big + 28, 1ull << 31);
  hfg_put_be32(big + 36, 0x7fffffff);
  hfg_bloom_meta bm;
  hfg_fault_alloc_arm(1);
  CHECK_EQ_INT(hfg_bloom_meta_parse(big, n, &bm, msg, sizeof msg), HFG_ECORRUPT);
  CHECK_EQ_INT(hfg_fault_alloc_fired(), 0);
  hfg_fault_alloc_arm(0);
  CHECK(strstr(msg, "cannot fit") != NULL);
  CHECK_EQ_INT(parse_patched(v, n, 40, "\x05", 1, msg, sizeof msg), HFG_ECORRUPT); /* name */
  CHECK_EQ_INT(parse_patched(v, n, 40, "\x8f", 1, msg, sizeof msg), HFG_ECORRUPT);
  CHECK_EQ_INT(parse_patched(v, n, 40, "\xff", 1, msg, sizeof msg), HFG_ECORRUPT); /* -1 */
  CHECK_EQ_INT(PATCH64(41, -1), HFG_ECORRUPT);               /* offset */
  CHECK_EQ_INT(PATCH32(49, 0), HFG_ECORRUPT);                /* on-disk size */
  CHECK_EQ_INT(PATCH32(49, -3), HFG_ECORRUPT);
  CHECK_EQ_INT(parse_patched(v, n, 53, "\x05", 1, msg, sizeof msg), HFG_ECORRUPT); /* key len */
  CHECK_EQ_INT(parse_patched(v, n, 53, "\x03", 1, msg, sizeof msg), HFG_ECORRUPT); /* trailing */
  CHECK_EQ_INT(parse_patched(v, n, 53, "\x88", 1, msg, sizeof msg), HFG_ECORRUPT);
  CHECK_EQ_INT(parse_patched(v, n, 53, "\xfb", 1, msg, sizeof msg), HFG_ECORRUPT); /* -5 */

  /* Comparator names: known raw, KeyValue, hbase:meta, unknown. */
  struct {
    const char *name;
    int rc;
  } names[] = {
      {"org.apache.hadoop.hbase.KeyValue$RawBytesComparator", 0},
      {"org.apache.hadoop.hbase.CellComparatorImpl", HFG_ECORRUPT}, /* "row1" is no KV key */
      {"org.apache.hadoop.hbase.MetaCellComparator", HFG_EUNSUPPORTED},
      {"java.lang.String", HFG_ECORRUPT},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    hfg_buf b = HFG_BUF_INIT;
    hfg_buf_append(&b, v, 40);
    hfg_buf_put_vlong(&b, (int64_t)strlen(names[i].name));
    hfg_buf_append(&b, names[i].name, strlen(names[i].name));
    hfg_buf_append(&b, v + 41, n - 41);
    hfg_bloom_meta m;
    int rc = hfg_bloom_meta_parse(b.p, b.len, &m, msg, sizeof msg);
    CHECK_EQ_INT(rc, names[i].rc);
    if (rc == 0) {
      CHECK_EQ_INT(m.key_order, HFG_BLOOM_ORDER_BYTES);
      hfg_bloom_meta_free(&m);
    }
    hfg_buf_free(&b);
  }
  /* A name that does not fit comparator[128]. */
  hfg_buf b = HFG_BUF_INIT;
  hfg_buf_append(&b, v, 40);
  hfg_buf_put_vlong(&b, 200);
  for (int i = 0; i < 200; i++) hfg_buf_put_u8(&b, 'x');
  hfg_buf_append(&b, v + 41, n - 41);
  CHECK_EQ_INT(hfg_bloom_meta_parse(b.p, b.len, &(hfg_bloom_meta){0}, msg, sizeof msg),
               HFG_ECORRUPT);
  hfg_buf_free(&b);
#undef PATCH32
#undef PATCH64
}

TEST(meta_unsorted_first_keys) {
  hfg_buf meta = HFG_BUF_INIT;
  build_meta(HFG_BLOOM_ROW, 400, &meta);
  hfg_bloom_meta m;
  REQUIRE(hfg_bloom_meta_parse(meta.p, meta.len, &m, NULL, 0) == 0);
  REQUIRE(m.num_chunks >= 3);
  /* Swap two bytes of the second key so it sorts before the first. */
  size_t at = 41 + 12 + 1 + m.chunk_first_key_len[0] + 12 + 1 + 4; /* "row-" then digits */
  hfg_bloom_meta_free(&m);
  uint8_t *bytes = meta.p;
  CHECK(bytes[at] == '0');
  char msg[256];
  CHECK_EQ_INT(parse_patched(meta.p, meta.len, at, "\x01", 1, msg, sizeof msg), HFG_ECORRUPT);
  CHECK(strstr(msg, "ascending") != NULL);
  hfg_buf_free(&meta);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) { return (uint32_t)(t_rand(&rng_state) >> 16); }

TEST(meta_random_mutations) {
  hfg_bloom_type types[2] = {HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  int ok = 0, failed = 0;
  for (int t = 0; t < 2; t++) {
    hfg_buf meta = HFG_BUF_INIT;
    build_meta(types[t], 300, &meta);
    for (int iter = 0; iter < 20000; iter++) {
      size_t n = meta.len;
      if (rnd() % 4 == 0) n = rnd() % (meta.len + 1);
      uint8_t *copy = malloc(n ? n : 1);
      memcpy(copy, meta.p, n);
      int flips = 1 + (int)(rnd() % 4);
      for (int i = 0; i < flips && n; i++) copy[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
      hfg_bloom_meta m;
      int rc = hfg_bloom_meta_parse(copy, n, &m, NULL, 0);
      if (rc == 0) {
        ok++;
        /* Whatever parsed must be usable. */
        for (int k = 0; k < 8; k++) {
          uint8_t key[24];
          size_t klen = rnd() % sizeof key;
          for (size_t j = 0; j < klen; j++) key[j] = (uint8_t)rnd();
          int c = hfg_bloom_meta_find_chunk(&m, key, klen);
          CHECK(c >= -1 && c < m.num_chunks);
        }
        hfg_bloom_meta_free(&m);
      } else {
        CHECK(rc == HFG_ECORRUPT || rc == HFG_EUNSUPPORTED);
        failed++;
      }
      free(copy);
    }
    hfg_buf_free(&meta);
  }
  CHECK(ok > 0 && failed > 0);
}

TEST(contains_and_find_edge_cases) {
  uint8_t chunk[8] = {0};
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 0, 7, (const uint8_t *)"a", 1), HFG_EINVAL);
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 8, 0, (const uint8_t *)"a", 1), HFG_EINVAL);
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 1u << 28, 7, (const uint8_t *)"a", 1),
               HFG_EINVAL);
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 8, 7, (const uint8_t *)"a", 1), 0);
  memset(chunk, 0xff, sizeof chunk);
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 8, 7, (const uint8_t *)"a", 1), 1);
  CHECK_EQ_INT(hfg_bloom_chunk_contains(chunk, 8, 7, NULL, 0), 1);

  /* Raw order lookups over three chunks: "b", "d", "f". */
  hfg_buf b = HFG_BUF_INIT;
  hfg_buf_put_be32(&b, 3);
  hfg_buf_put_be64(&b, 3);
  hfg_buf_put_be32(&b, 7);
  hfg_buf_put_be32(&b, 1);
  hfg_buf_put_be64(&b, 3);
  hfg_buf_put_be64(&b, 30);
  hfg_buf_put_be32(&b, 3);
  hfg_buf_put_u8(&b, 0);
  const char *keys[] = {"b", "d", "f"};
  for (int i = 0; i < 3; i++) {
    hfg_buf_put_be64(&b, (uint64_t)(100 * i));
    hfg_buf_put_be32(&b, 50);
    hfg_buf_put_u8(&b, 1);
    hfg_buf_append(&b, keys[i], 1);
  }
  hfg_bloom_meta m;
  REQUIRE(hfg_bloom_meta_parse(b.p, b.len, &m, NULL, 0) == 0);
  struct {
    const char *key;
    int chunk;
  } q[] = {{"", -1}, {"a", -1}, {"azz", -1}, {"b", 0}, {"b\x00", 0}, {"c", 0}, {"d", 1},
           {"e", 1}, {"f", 2}, {"\xff\xff", 2}};
  for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
    size_t len = strlen(q[i].key) + (i == 4);
    CHECK_EQ_INT(hfg_bloom_meta_find_chunk(&m, (const uint8_t *)q[i].key, len), q[i].chunk);
  }
  hfg_bloom_meta_free(&m);
  hfg_buf_free(&b);
}

/* ---- allocation ---- */

/* One whole write → meta → parse → lookup cycle; 0 or the first error. */
static int cycle(void) {
  hfg_bloom_writer *b = hfg_bloom_writer_new(HFG_BLOOM_ROWCOL, 0.01f, 256, 2);
  if (!b) return HFG_ENOMEM;
  fake_file *f = file_new();
  hfg_buf meta = HFG_BUF_INIT, key = HFG_BUF_INIT;
  hfg_bloom_meta m = {0};
  int rc = 0;
  char row[32];
  for (int i = 0; i < 600 && !rc; i++) {
    size_t len = row_name(row, i);
    /* Growing qualifiers make the last-key buffer grow too. */
    char qual[64];
    size_t ql = (size_t)(i / 20);
    memset(qual, 'q', ql);
    rc = hfg_bloom_writer_add(b, (const uint8_t *)row, len, (const uint8_t *)qual, ql);
    if (!rc && i % 30 == 29) rc = drain(b, 0, f) < 0 ? HFG_ENOMEM : 0;
  }
  if (!rc) rc = drain(b, 1, f) < 0 ? HFG_ENOMEM : 0;
  if (!rc) rc = hfg_bloom_writer_meta(b, &meta);
  if (!rc) rc = hfg_bloom_meta_parse(meta.p, meta.len, &m, NULL, 0);
  for (int i = 0; i < 600 && !rc; i++) {
    size_t len = row_name(row, i);
    char qual[64];
    size_t ql = (size_t)(i / 20);
    memset(qual, 'q', ql);
    hfg_buf_reset(&key);
    rc = hfg_bloom_key(HFG_BLOOM_ROWCOL, (const uint8_t *)row, len, (const uint8_t *)qual, ql,
                       &key);
    if (!rc && lookup(&m, f, key.p, key.len) != 1) rc = HFG_EVERIFY;
  }
  hfg_bloom_meta_free(&m);
  hfg_buf_free(&meta);
  hfg_buf_free(&key);
  file_free(f);
  hfg_bloom_writer_free(b);
  return rc;
}

TEST(allocation_failure_loop) {
  CHECK_EQ_INT(cycle(), 0);
  int n;
  for (n = 1; n < 10000; n++) {
    hfg_fault_alloc_arm(n);
    int rc = cycle();
    int fired = hfg_fault_alloc_fired();
    hfg_fault_alloc_arm(0);
    if (!fired) {
      CHECK_EQ_INT(rc, 0);
      break;
    }
    if (rc != HFG_ENOMEM) {
      fprintf(stderr, "  failing allocation %d gave %d\n", n, rc);
      t_failed_now = 1;
    }
  }
  CHECK(n > 10 && n < 10000);
}

TEST(no_allocation_per_key) {
  hfg_bloom_writer *b = defaults(HFG_BLOOM_ROW);
  REQUIRE(b);
  char row[32];
  hfg_bloom_writer_add(b, (const uint8_t *)row, row_name(row, 0), NULL, 0);
  hfg_fault_alloc_arm(1);
  for (int i = 1; i < 100000; i++)
    CHECK_EQ_INT(hfg_bloom_writer_add(b, (const uint8_t *)row, row_name(row, i), NULL, 0), 0);
  CHECK_EQ_INT(hfg_fault_alloc_fired(), 0);
  hfg_fault_alloc_arm(0);
  hfg_bloom_writer_free(b);
}

TEST(sticky_enomem) {
  hfg_bloom_writer *b = defaults(HFG_BLOOM_ROW);
  REQUIRE(b);
  hfg_fault_alloc_arm(1); /* the first key's buffer */
  CHECK_EQ_INT(hfg_bloom_writer_add(b, (const uint8_t *)"a", 1, NULL, 0), HFG_ENOMEM);
  hfg_fault_alloc_arm(0);
  CHECK_EQ_INT(hfg_bloom_writer_add(b, (const uint8_t *)"b", 1, NULL, 0), HFG_ENOMEM);
  const uint8_t *p;
  size_t len;
  CHECK_EQ_INT(hfg_bloom_writer_next_chunk(b, 1, &p, &len), HFG_ENOMEM);
  hfg_bloom_writer_free(b);
}

/* ---- names (types.h) ---- */

TEST(type_names) {
  hfg_bloom_type bt;
  CHECK(strcmp(hfg_bloom_type_name(HFG_BLOOM_ROW), "ROW") == 0);
  CHECK(strcmp(hfg_bloom_type_name(HFG_BLOOM_ROWCOL), "ROWCOL") == 0);
  CHECK(strcmp(hfg_bloom_type_name(HFG_BLOOM_NONE), "NONE") == 0);
  CHECK(hfg_bloom_type_name((hfg_bloom_type)7) == NULL);
  CHECK(hfg_bloom_type_parse("rowcol", &bt) == 0 && bt == HFG_BLOOM_ROWCOL);
  CHECK(hfg_bloom_type_parse("Row", &bt) == 0 && bt == HFG_BLOOM_ROW);
  CHECK(hfg_bloom_type_parse("none", &bt) == 0 && bt == HFG_BLOOM_NONE);
  CHECK(hfg_bloom_type_parse("ROWPREFIX_FIXED_LENGTH", &bt) == 0 && bt == HFG_BLOOM_ROWPREFIX);
  CHECK(strcmp(hfg_bloom_type_name(HFG_BLOOM_ROWPREFIX), "ROWPREFIX_FIXED_LENGTH") == 0);
  CHECK(hfg_bloom_type_parse("ROWPREFIX_DELIMITED", &bt) == -1); /* removed in HBase 2 */
  CHECK(hfg_bloom_type_parse("", &bt) == -1);
  CHECK(hfg_bloom_type_parse(NULL, &bt) == -1);

  hfg_checksum_type ct;
  CHECK(strcmp(hfg_checksum_type_name(HFG_CHECKSUM_CRC32C), "CRC32C") == 0);
  CHECK(strcmp(hfg_checksum_type_name(HFG_CHECKSUM_NULL), "NULL") == 0);
  CHECK(hfg_checksum_type_name((hfg_checksum_type)3) == NULL);
  CHECK(hfg_checksum_type_parse("crc32", &ct) == 0 && ct == HFG_CHECKSUM_CRC32);
  CHECK(hfg_checksum_type_parse("CRC32C", &ct) == 0 && ct == HFG_CHECKSUM_CRC32C);
  CHECK(hfg_checksum_type_parse("null", &ct) == 0 && ct == HFG_CHECKSUM_NULL);
  CHECK(hfg_checksum_type_parse("adler", &ct) == -1);

  struct {
    const char *name;
    uint8_t code;
  } cells[] = {{"Put", 4},          {"Delete", 8},        {"DeleteColumn", 12},
               {"DeleteFamily", 14}, {"DeleteFamilyVersion", 10}, {"Minimum", 0},
               {"Maximum", 255}};
  for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
    uint8_t c = 99;
    CHECK(strcmp(hfg_cell_type_name(cells[i].code), cells[i].name) == 0);
    CHECK(hfg_cell_type_parse(cells[i].name, &c) == 0 && c == cells[i].code);
  }
  uint8_t c;
  CHECK(hfg_cell_type_parse("deletefamily", &c) == 0 && c == 14);
  CHECK(hfg_cell_type_parse("DeleteFamilyV", &c) == -1);
  CHECK(hfg_cell_type_name(5) == NULL);
}

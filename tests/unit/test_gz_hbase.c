/* GZ blocks byte-identical to HBase's (format-specs/codecs.md, "GZ"): the
 * default GZ compressor must give exactly the bytes HBase 2.6.4 (Hadoop 3.4.2,
 * no native libhadoop: BuiltInGzipCompressor behind a CompressorStream, as
 * HFileBlockDefaultEncodingContext drives it) wrote for the same blocks. The
 * expected values were made by HBase's Compression.Algorithm.GZ on JDK 17
 * (system zlib 1.2.13) from the blocks below: the whole member for the small
 * ones, its length and CRC-32 for the large ones. The ISA-L engine
 * (HFG_GZ_LEVEL_ISAL) is only required to be valid GZ of the same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "format/codec.h"
#include "t.h"

T_MAIN

/* Deterministic blocks: kind 0 KeyValue-like text, kind 1 random bytes. */
static uint32_t g_x;
static uint32_t g_next(void) { g_x ^= g_x << 13; g_x ^= g_x >> 17; g_x ^= g_x << 5; return g_x; }
/* kind 0: KeyValue-like text (row/family/qualifier/value runs), kind 1: random bytes */
static uint8_t *g_block(int kind, size_t n, uint32_t seed) {
  uint8_t *p = malloc(n + 128);
  size_t len = 0;
  g_x = seed;
  for (unsigned i = 0; len < n; i++) {
    if (kind == 1) { p[len++] = (uint8_t)g_next(); continue; }
    len += (size_t)sprintf((char *)p + len, "%c%crow-%07u\002cfq%u%c%c%c%cvalue %u/%u;", 0, 14, i / 4,
                           i % 4, 0, 0, 1, (int)(0x80 + i % 64), g_next() % 1000, i);
  }
  return p;
}

static const uint8_t kv300_hbase[] = {
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x65, 0xce, 0x4d, 0x0a, 0xc2, 0x30,
    0x10, 0x86, 0xe1, 0xe8, 0x01, 0x3c, 0x83, 0x17, 0x90, 0xf9, 0x4b, 0x62, 0x83, 0xa7, 0x11, 0xd1,
    0x95, 0x20, 0x0a, 0xea, 0x56, 0xdb, 0xaa, 0x3d, 0x76, 0x13, 0x26, 0x5d, 0xd4, 0x99, 0xf5, 0xc3,
    0x7c, 0xaf, 0x5b, 0xdd, 0x2e, 0xcf, 0x0d, 0xea, 0x2d, 0x0f, 0xa7, 0x2b, 0x3a, 0xb7, 0x78, 0x3d,
    0xf6, 0xe7, 0xfb, 0x71, 0x2d, 0x31, 0x01, 0xee, 0xdc, 0xbf, 0xa0, 0x2c, 0xde, 0x2a, 0x62, 0x93,
    0x80, 0xac, 0xe0, 0x2c, 0x5a, 0x15, 0x3e, 0x12, 0xb0, 0x15, 0x92, 0x45, 0x57, 0x7f, 0xa4, 0x00,
    0x32, 0x13, 0x34, 0x75, 0xf4, 0x2a, 0x58, 0x04, 0xbc, 0x15, 0xa5, 0xe3, 0xa3, 0x22, 0xa0, 0x87,
    0x60, 0x45, 0xe9, 0xf8, 0xd6, 0x8e, 0x86, 0x21, 0x5a, 0x51, 0x3a, 0x7e, 0x75, 0x85, 0x10, 0xb6,
    0x33, 0xc1, 0x53, 0xc7, 0xa0, 0x62, 0x04, 0x06, 0x0d, 0x00, 0x00, 0x2c, 0x01, 0x00, 0x00,
};

/* 100 x 'a' (the example in format-specs/codecs.md) */
static const uint8_t a100_hbase[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4b, 0x4c,
                                     0xa4, 0x3d, 0x00, 0x00, 0x64, 0x7a, 0x70, 0xaf, 0x64, 0x00, 0x00, 0x00};

/* The empty member HBase writes for an empty block (the meta index). */
static const uint8_t empty_hbase[] = {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                      0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

static const struct {
  int kind;
  size_t n;
  uint32_t seed;
  size_t hbase_len;   /* HBase's member for this block: length */
  uint32_t hbase_crc; /* and CRC-32 of all its bytes */
} big[] = {
    {0, 4000, 5, 1049, 0xe174dba8u},       /* under the 4 KiB zlib/ISA-L boundary */
    {0, 65536 + 1234, 2, 14971, 0x022c14d5u}, /* a 64 KiB data block and a bit */
    {1, 70000, 3, 70043, 0x847e3cccu},     /* incompressible: stored deflate blocks */
    {0, 3u << 20, 4, 643545, 0xa6e747a2u}, /* a 3 MiB block (one big cell) */
};

static int gz_into(hfg_compressor *z, const uint8_t *p, size_t n, hfg_buf *out) {
  out->len = 0;
  return hfg_compressor_compress(z, p, n, out, NULL);
}

TEST(default_gz_is_hbase_bytes) {
  hfg_compressor *z = hfg_compressor_new(HFG_CODEC_GZ, -1);
  REQUIRE(z != NULL);
  CHECK_EQ_INT(hfg_compressor_level(z), 6);
  CHECK(strcmp(hfg_compressor_impl(z), "zlib") == 0);
  hfg_buf out = HFG_BUF_INIT;

  CHECK_EQ_INT(gz_into(z, NULL, 0, &out), 0);
  CHECK_EQ_INT(out.len, sizeof empty_hbase);
  CHECK(out.len == sizeof empty_hbase && memcmp(out.p, empty_hbase, out.len) == 0);

  uint8_t a[100];
  memset(a, 'a', sizeof a);
  CHECK_EQ_INT(gz_into(z, a, sizeof a, &out), 0);
  CHECK(out.len == sizeof a100_hbase && memcmp(out.p, a100_hbase, out.len) == 0);

  uint8_t *kv = g_block(0, 300, 1);
  CHECK_EQ_INT(gz_into(z, kv, 300, &out), 0);
  CHECK_EQ_INT(out.len, sizeof kv300_hbase);
  CHECK(out.len == sizeof kv300_hbase && memcmp(out.p, kv300_hbase, out.len) == 0);
  free(kv);

  /* the same compressor reused for every block, as a writer uses it */
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    uint8_t *p = g_block(big[i].kind, big[i].n, big[i].seed);
    CHECK_EQ_INT(gz_into(z, p, big[i].n, &out), 0);
    if (out.len != big[i].hbase_len || crc32(0, out.p, (uInt)out.len) != big[i].hbase_crc) {
      fprintf(stderr, "  block %zu (%zu bytes): %zu bytes crc %08lx, HBase %zu bytes crc %08x\n", i,
              big[i].n, out.len, crc32(0, out.p, (uInt)out.len), big[i].hbase_len, big[i].hbase_crc);
      t_failed_now = 1;
    }
    free(p);
  }
  hfg_buf_free(&out);
  hfg_compressor_free(z);
}

TEST(explicit_level_6_is_the_default) {
  hfg_compressor *d = hfg_compressor_new(HFG_CODEC_GZ, -1), *six = hfg_compressor_new(HFG_CODEC_GZ, 6),
                 *one = hfg_compressor_new(HFG_CODEC_GZ, 1);
  REQUIRE(d && six && one);
  uint8_t *p = g_block(0, 65536, 9);
  hfg_buf a = HFG_BUF_INIT, b = HFG_BUF_INIT, c = HFG_BUF_INIT;
  CHECK(gz_into(d, p, 65536, &a) == 0 && gz_into(six, p, 65536, &b) == 0 &&
        gz_into(one, p, 65536, &c) == 0);
  CHECK(a.len == b.len && memcmp(a.p, b.p, a.len) == 0);
  CHECK(c.len != a.len || memcmp(a.p, c.p, a.len) != 0); /* level 1 is another encoding */
  hfg_buf_free(&a);
  hfg_buf_free(&b);
  hfg_buf_free(&c);
  free(p);
  hfg_compressor_free(d);
  hfg_compressor_free(six);
  hfg_compressor_free(one);
}

TEST(isal_engine_is_opt_in_and_valid) {
  hfg_compressor *z = hfg_compressor_new(HFG_CODEC_GZ, HFG_GZ_LEVEL_ISAL);
  if (!hfg_gz_isal_available()) {
    CHECK(z == NULL); /* no silent fallback to another engine */
    return;
  }
  REQUIRE(z != NULL);
  CHECK(strcmp(hfg_compressor_impl(z), "isa-l") == 0);
  CHECK_EQ_INT(hfg_compressor_level(z), HFG_GZ_ISAL_DEFAULT_LEVEL);
  hfg_buf out = HFG_BUF_INIT;
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    uint8_t *p = g_block(big[i].kind, big[i].n, big[i].seed);
    REQUIRE(gz_into(z, p, big[i].n, &out) == 0);
    CHECK_MEM(out.p, empty_hbase, 10); /* HBase's header */
    uint8_t *back = malloc(big[i].n);
    CHECK_EQ_INT(hfg_codec_decompress(HFG_CODEC_GZ, out.p, out.len, back, big[i].n, NULL), 0);
    CHECK(memcmp(back, p, big[i].n) == 0);
    free(back);
    free(p);
  }
  hfg_buf_free(&out);
  hfg_compressor_free(z);
  z = hfg_compressor_new(HFG_CODEC_GZ, HFG_GZ_LEVEL_ISAL | 9);
  REQUIRE(z != NULL);
  CHECK_EQ_INT(hfg_compressor_level(z), 9);
  hfg_compressor_free(z);
}

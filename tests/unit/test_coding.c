#include "t.h"
#include "util/coding.h"
#include "util/crc.h"
#include "util/alloc.h"

T_MAIN

static void vlong_vec(int64_t v, const char *hex) {
  uint8_t out[16];
  size_t n = hfg_put_vlong(out, v);
  char got[40] = {0};
  for (size_t i = 0; i < n; i++) sprintf(got + 2 * i, "%02x", out[i]);
  if (strcmp(got, hex) != 0) {
    fprintf(stderr, "  vlong %lld: got %s want %s\n", (long long)v, got, hex);
    t_failed_now = 1;
  }
  CHECK_EQ_INT(hfg_vlong_size(v), n);
  int64_t back = 0;
  CHECK_EQ_INT(hfg_get_vlong(out, out + n, &back), n);
  CHECK_EQ_INT(back, v);
  CHECK_EQ_INT(hfg_get_vlong(out, out + n - 1, &back), n == 1 ? 0 : 0);
}

/* Vectors from Hadoop WritableUtils.writeVLong semantics (format-specs/keyvalue.md). */
TEST(vlong_vectors) {
  vlong_vec(0, "00");
  vlong_vec(127, "7f");
  vlong_vec(-112, "90");
  vlong_vec(128, "8f80");
  vlong_vec(255, "8fff");
  vlong_vec(256, "8e0100");
  vlong_vec(-1, "ff");
  vlong_vec(-113, "8770");
  vlong_vec(INT64_MAX, "887fffffffffffffff");
  vlong_vec(INT64_MIN, "807fffffffffffffff");
}

TEST(vlong_roundtrip_many) {
  uint8_t out[16];
  for (int64_t v = -70000; v < 70000; v += 7) {
    size_t n = hfg_put_vlong(out, v);
    int64_t back;
    CHECK(hfg_get_vlong(out, out + n, &back) == n && back == v);
  }
}

TEST(varint) {
  uint8_t out[16];
  CHECK_EQ_INT(hfg_put_varint(out, 300), 2);
  CHECK(out[0] == 0xac && out[1] == 0x02);
  uint64_t v;
  CHECK_EQ_INT(hfg_get_varint(out, out + 2, &v), 2);
  CHECK_EQ_INT(v, 300);
  CHECK_EQ_INT(hfg_get_varint(out, out + 1, &v), 0);
  CHECK_EQ_INT(hfg_put_varint(out, UINT64_MAX), 10);
  CHECK_EQ_INT(hfg_get_varint(out, out + 10, &v), 10);
  CHECK(v == UINT64_MAX);
}

TEST(be_fixed) {
  uint8_t b[8];
  hfg_put_be64(b, 0x0102030405060708ull);
  CHECK(b[0] == 1 && b[7] == 8);
  CHECK(hfg_get_be64(b) == 0x0102030405060708ull);
  hfg_put_be32(b, 0xdeadbeef);
  CHECK(hfg_get_be32(b) == 0xdeadbeef && b[0] == 0xde);
  hfg_buf buf = HFG_BUF_INIT;
  CHECK(hfg_buf_put_be16(&buf, 0x1234) == 0);
  CHECK(buf.len == 2 && buf.p[0] == 0x12);
  hfg_buf_free(&buf);
}

TEST(crc_check_values) {
  const char *s = "123456789";
  CHECK(hfg_crc32c(0, s, 9) == 0xE3069283u);
  CHECK(hfg_crc32c_sw(0, s, 9) == 0xE3069283u);
  CHECK(hfg_crc32(0, s, 9) == 0xCBF43926u);
  CHECK(hfg_crc32_sw(0, s, 9) == 0xCBF43926u);
  /* continuation */
  CHECK(hfg_crc32c(hfg_crc32c(0, s, 4), s + 4, 5) == 0xE3069283u);
}

TEST(crc_hw_matches_sw) {
  uint8_t buf[70000];
  uint32_t x = 12345;
  for (size_t i = 0; i < sizeof buf; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (uint8_t)(x >> 16);
  }
  for (size_t n = 0; n < sizeof buf; n += 997) {
    CHECK(hfg_crc32c(0, buf, n) == hfg_crc32c_sw(0, buf, n));
    CHECK(hfg_crc32(0, buf, n) == hfg_crc32_sw(0, buf, n));
  }
}

/* Patching bytes into a message and fixing its CRC equals recomputing it. */
TEST(crc_patch_matches_recompute) {
  static uint8_t buf[40000], orig[40000];
  uint32_t x = 777;
  for (size_t i = 0; i < sizeof buf; i++) {
    x = x * 1103515245u + 12345u;
    buf[i] = (uint8_t)(x >> 16);
  }
  memcpy(orig, buf, sizeof buf);
  const size_t lens[] = {1, 9, 33, 100, 16384, 40000};
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
    size_t n = lens[li];
    for (size_t off = 0; off + 8 <= n || (n < 8 && off == 0); off += n / 5 + 1) {
      size_t k = n - off < 8 ? n - off : 8;
      uint8_t d[8];
      for (size_t i = 0; i < k; i++) d[i] = (uint8_t)(0xa5 ^ (i * 37) ^ off);
      memcpy(buf, orig, n);
      uint32_t c = hfg_crc32c(0, buf, n), c2 = hfg_crc32(0, buf, n);
      for (size_t i = 0; i < k; i++) buf[off + i] ^= d[i];
      CHECK(hfg_crc32c_patch(c, d, k, n - off - k) == hfg_crc32c(0, buf, n));
      CHECK(hfg_crc32_patch(c2, d, k, n - off - k) == hfg_crc32(0, buf, n));
    }
  }
}

TEST(alloc_fault) {
  hfg_fault_alloc_arm(2);
  void *a = hfg_malloc(10);
  void *b = hfg_malloc(10);
  void *c = hfg_malloc(10);
  CHECK(a != NULL && b == NULL && c != NULL);
  CHECK(hfg_fault_alloc_fired());
  hfg_free(a);
  hfg_free(c);
  hfg_fault_alloc_arm(0);
}

TEST(short_copy_and_be_moves) {
  uint8_t src[64], dst[80];
  for (int i = 0; i < 64; i++) src[i] = (uint8_t)(i * 7 + 1);
  for (size_t n = 0; n <= 40; n++) {
    memset(dst, 0xEE, sizeof dst);
    hfg_copy(dst + 8, src + 3, n);
    CHECK(!memcmp(dst + 8, src + 3, n));
    CHECK(dst[7] == 0xEE && dst[8 + n] == 0xEE); /* nothing outside [dst, dst+n) */
  }
  uint8_t b[8];
  hfg_put_be64(b, 0x0102030405060708ull);
  CHECK(b[0] == 1 && b[7] == 8);
  CHECK(hfg_get_be64(b) == 0x0102030405060708ull);
  hfg_put_be32(b, 0xA1B2C3D4u);
  CHECK(b[0] == 0xA1 && b[3] == 0xD4 && hfg_get_be32(b) == 0xA1B2C3D4u);
  hfg_put_be16(b, 0xBEEF);
  CHECK(b[0] == 0xBE && b[1] == 0xEF && hfg_get_be16(b) == 0xBEEF);
}

/* hfg_be_prefix8 at every length: the first 8 bytes big-endian, zero padded. */
TEST(be_prefix8_every_length) {
  uint8_t k[16];
  for (int i = 0; i < 16; i++) k[i] = (uint8_t)(0xF1 - i * 13);
  for (size_t n = 0; n <= 16; n++) {
    uint64_t want = 0;
    for (size_t i = 0; i < 8; i++) want = want << 8 | (i < n ? k[i] : 0);
    CHECK(hfg_be_prefix8(k, n) == want);
  }
}

/* hfg_bytes_cmp against a byte-at-a-time reference, at every length pair up to
 * 24 over a 3-letter alphabet (long common prefixes, differences at every
 * position, either side longer) and with high bytes (unsigned order). */
static int ref_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  for (size_t i = 0; i < an && i < bn; i++)
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  return an < bn ? -1 : an > bn;
}

static int sgn(int x) { return (x > 0) - (x < 0); }

TEST(bytes_cmp_matches_reference) {
  static const uint8_t alpha[3] = {0x00, 'a', 0xff};
  uint32_t r = 12345;
  uint8_t a[24], b[24];
  for (int round = 0; round < 20000; round++) {
    size_t an = round % 25, bn = (round / 25) % 25;
    for (size_t i = 0; i < 24; i++) {
      r = r * 1103515245u + 12345u;
      a[i] = alpha[(r >> 16) % 3];
      b[i] = a[i];
    }
    /* b differs from a at one position, or not at all */
    r = r * 1103515245u + 12345u;
    size_t at = (r >> 16) % 26;
    if (at < 24) b[at] = alpha[(r >> 8) % 3];
    CHECK_EQ_INT(sgn(hfg_bytes_cmp(a, an, b, bn)), ref_cmp(a, an, b, bn));
    CHECK_EQ_INT(sgn(hfg_bytes_cmp(b, bn, a, an)), ref_cmp(b, bn, a, an));
  }
}

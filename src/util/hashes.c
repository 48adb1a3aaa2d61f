/*
 * Rowkey hash functions. CRC-32 and xxHash64 come from zlib and libxxhash;
 * MD5 is small enough to carry here (RFC 1321, section 3) rather than pull in a
 * crypto library for one digest. The Phoenix salt replicates
 * phoenix-core org/apache/phoenix/schema/SaltingUtil.java (getSaltingByte,
 * calculateHashCode): see format-specs/rowkey-templates.md.
 */
#include "util/hashes.h"

#include <string.h>
#include <xxhash.h>
#include <zlib.h>

uint32_t hfg_hash_crc32(const void *p, size_t n) {
  /* zlib takes uInt lengths: feed large inputs in pieces. */
  uLong crc = crc32(0L, Z_NULL, 0);
  const Bytef *b = p;
  while (n > 0) {
    uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
    crc = crc32(crc, b, k);
    b += k;
    n -= k;
  }
  return (uint32_t)crc;
}

uint64_t hfg_hash_xxh64(const void *p, size_t n) { return (uint64_t)XXH64(p, n, 0); }

int32_t hfg_hash_java(const void *p, size_t n) {
  /* Java int arithmetic wraps; do it unsigned and reinterpret. Bytes are signed. */
  const uint8_t *b = p;
  uint32_t h = 1;
  for (size_t i = 0; i < n; i++) h = 31u * h + (uint32_t)(int32_t)(int8_t)b[i];
  return (int32_t)h;
}

uint8_t hfg_phoenix_salt(const void *p, size_t n, int buckets) {
  /* Java's % truncates toward zero, as C's does; abs() of the remainder. */
  int64_t r = (int64_t)hfg_hash_java(p, n) % buckets;
  return (uint8_t)(r < 0 ? -r : r);
}

/* ---- MD5 (RFC 1321) ---- */

/* K[i] = floor(abs(sin(i + 1)) * 2^32), RFC 1321 section 3.4. */
static const uint32_t K[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au, 0xa8304613u,
    0xfd469501u, 0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu, 0x6b901122u, 0xfd987193u,
    0xa679438eu, 0x49b40821u, 0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau, 0xd62f105du,
    0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u, 0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu,
    0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au, 0xfffa3942u, 0x8771f681u, 0x6d9d6122u,
    0xfde5380cu, 0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u, 0x289b7ec6u, 0xeaa127fau,
    0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u, 0xf4292244u,
    0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
    0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u, 0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu,
    0xeb86d391u};

/* Per-round left-rotation amounts, four per round. */
static const uint8_t S[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

static inline uint32_t rotl(uint32_t x, unsigned r) { return x << r | x >> (32 - r); }

static void md5_block(uint32_t st[4], const uint8_t *blk) {
  uint32_t m[16];
  for (int i = 0; i < 16; i++)
    m[i] = (uint32_t)blk[4 * i] | (uint32_t)blk[4 * i + 1] << 8 | (uint32_t)blk[4 * i + 2] << 16 |
           (uint32_t)blk[4 * i + 3] << 24;
  uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
  for (int i = 0; i < 64; i++) {
    uint32_t f;
    int g, round = i >> 4;
    switch (round) {
      case 0: f = (b & c) | (~b & d); g = i; break;
      case 1: f = (d & b) | (~d & c); g = (5 * i + 1) & 15; break;
      case 2: f = b ^ c ^ d; g = (3 * i + 5) & 15; break;
      default: f = c ^ (b | ~d); g = (7 * i) & 15; break;
    }
    uint32_t t = d;
    d = c;
    c = b;
    b = b + rotl(a + f + K[i] + m[g], S[round][i & 3]);
    a = t;
  }
  st[0] += a;
  st[1] += b;
  st[2] += c;
  st[3] += d;
}

void hfg_hash_md5(const void *p, size_t n, uint8_t digest[HFG_MD5_LEN]) {
  uint32_t st[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
  const uint8_t *b = p;
  size_t left = n;
  while (left >= 64) {
    md5_block(st, b);
    b += 64;
    left -= 64;
  }
  /* Padding: 0x80, zeros to 56 mod 64, then the bit length little-endian. */
  uint8_t tail[128];
  memset(tail, 0, sizeof tail);
  if (left) memcpy(tail, b, left);
  tail[left] = 0x80;
  size_t tlen = left < 56 ? 64 : 128;
  uint64_t bits = (uint64_t)n * 8u;
  for (int i = 0; i < 8; i++) tail[tlen - 8 + i] = (uint8_t)(bits >> (8 * i));
  md5_block(st, tail);
  if (tlen == 128) md5_block(st, tail + 64);
  for (int i = 0; i < 4; i++)
    for (int k = 0; k < 4; k++) digest[4 * i + k] = (uint8_t)(st[i] >> (8 * k));
}

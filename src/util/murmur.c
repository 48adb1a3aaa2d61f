/*
 * HBase's MurmurHash (type 1) and MurmurHash3_x86_32 (type 2).
 * format-specs/bloom.md, "Hash functions"; sources: hbase-common
 * org/apache/hadoop/hbase/util/MurmurHash.java and MurmurHash3.java.
 *
 * This is the bloom filter hot path (two hashes per key), so blocks are read
 * with a byte-assembled little-endian load that compilers turn into one mov.
 */
#include "util/murmur.h"

uint32_t hfg_murmur_hbase(const void *key, size_t len, uint32_t seed) {
  return hfg_murmur_hbase_inline(key, len, seed);
}

static inline uint32_t rotl32(uint32_t x, int r) { return x << r | x >> (32 - r); }

uint32_t hfg_murmur3_32(const void *key, size_t len, uint32_t seed) {
  const uint8_t *p = key;
  const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
  uint32_t h = seed;
  size_t nblocks = len >> 2;
  for (size_t i = 0; i < nblocks; i++, p += 4) {
    uint32_t k = hfg_murmur_le32(p);
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64u;
  }
  uint32_t k = 0;
  size_t left = len & 3;
  if (left) {
    if (left >= 3) k ^= (uint32_t)p[2] << 16;
    if (left >= 2) k ^= (uint32_t)p[1] << 8;
    k ^= p[0];
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
  }
  h ^= (uint32_t)len;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

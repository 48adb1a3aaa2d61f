/*
 * The two MurmurHash variants HBase uses (format-specs/bloom.md, "Hash functions").
 *
 *  - hfg_murmur_hbase: HBase hash type 1 ("murmur", org.apache.hadoop.hbase.util.
 *    MurmurHash), the hash of every HBase bloom filter by default. It is
 *    MurmurHash2 (32-bit) EXCEPT that the 1..3 tail bytes are sign-extended
 *    before being xored in, as Java bytes are. For keys whose tail bytes are all
 *    < 0x80 it equals Appleby's MurmurHash2; otherwise it differs
 *    (key 0x80, seed 0: HBase 0xfdab6e14, reference MurmurHash2 0x9b891bb0).
 *  - hfg_murmur3_32: standard MurmurHash3_x86_32 (HBase hash type 2, "murmur3";
 *    HBase masks its tail bytes, so it is the reference algorithm). Also the
 *    hash for rowkey hash prefixes.
 *
 * Both read the key as little-endian 32-bit blocks regardless of the host, take
 * a 32-bit seed and return the 32-bit hash; HBase's int result is the same bits.
 * HBase passes the key length as a Java int: keys must be shorter than 2^31.
 */
#ifndef HFG_UTIL_MURMUR_H
#define HFG_UTIL_MURMUR_H

#include <stddef.h>
#include <stdint.h>

uint32_t hfg_murmur_hbase(const void *key, size_t len, uint32_t seed);
uint32_t hfg_murmur3_32(const void *key, size_t len, uint32_t seed);

/* Blocks are read with a byte-assembled little-endian load that compilers turn
 * into one mov. */
static inline uint32_t hfg_murmur_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A Java byte widened to int: bytes >= 0x80 become 0xffffffxx. */
static inline uint32_t hfg_murmur_java_byte(uint8_t b) {
  return (uint32_t)b | (b & 0x80 ? 0xffffff00u : 0u);
}

/* hfg_murmur_hbase, inline for the bloom filters' hot path. */
static inline uint32_t hfg_murmur_hbase_inline(const void *key, size_t len, uint32_t seed) {
  const uint8_t *p = key;
  const uint32_t m = 0x5bd1e995u;
  uint32_t h = seed ^ (uint32_t)len;
  size_t nblocks = len >> 2;
  for (size_t i = 0; i < nblocks; i++, p += 4) {
    uint32_t k = hfg_murmur_le32(p);
    k *= m;
    k ^= k >> 24;
    k *= m;
    h *= m;
    h ^= k;
  }
  /* The tail is where HBase departs from the reference: HashKey.get returns a
   * signed byte and the shifts keep its sign extension. */
  size_t left = len & 3;
  if (left) {
    if (left >= 3) h ^= hfg_murmur_java_byte(p[2]) << 16;
    if (left >= 2) h ^= hfg_murmur_java_byte(p[1]) << 8;
    h ^= hfg_murmur_java_byte(p[0]);
    h *= m;
  }
  h ^= h >> 13;
  h *= m;
  h ^= h >> 15;
  return h;
}

#endif

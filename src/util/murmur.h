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

#endif

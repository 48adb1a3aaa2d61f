/*
 * Hash functions of rowkey schemes (format-specs/rowkey-templates.md, "Hash
 * functions"). All take the bytes of a value and return the hash as an
 * unsigned integer or a digest; the rowkey language renders 32/64-bit hashes as
 * the big-endian hex of the integer and MD5 as its digest bytes in order.
 *
 *  - hfg_hash_crc32:   IEEE CRC-32 as zlib crc32() / java.util.zip.CRC32.
 *  - hfg_hash_md5:     RFC 1321 MD5 (own implementation, tested against the
 *                      RFC's appendix A.5 vectors), 16-byte digest.
 *  - hfg_hash_xxh64:   xxHash64 with seed 0 (libxxhash XXH64).
 *  - hfg_hash_java:    Java's Arrays.hashCode(byte[]) recurrence starting at 1
 *                      with signed bytes, as Phoenix SaltingUtil uses it.
 *  - hfg_phoenix_salt: Phoenix SaltingUtil.getSaltingByte: abs(hash % buckets).
 * MurmurHash3 x86_32 lives in util/murmur.h (hfg_murmur3_32).
 */
#ifndef HFG_UTIL_HASHES_H
#define HFG_UTIL_HASHES_H

#include <stddef.h>
#include <stdint.h>

#define HFG_MD5_LEN 16

uint32_t hfg_hash_crc32(const void *p, size_t n);
void hfg_hash_md5(const void *p, size_t n, uint8_t digest[HFG_MD5_LEN]);
uint64_t hfg_hash_xxh64(const void *p, size_t n);
int32_t hfg_hash_java(const void *p, size_t n);
/* buckets in 1..256; returns the salt byte value 0..buckets-1. */
uint8_t hfg_phoenix_salt(const void *p, size_t n, int buckets);

#endif

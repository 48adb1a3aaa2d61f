/*
 * All byte encoding of hfilegen in one place.
 *
 *  - fixed-width big-endian integers (Java DataOutput / Bytes.toBytes)
 *  - Hadoop WritableUtils vint/vlong (zero-compressed; mvcc, index key lengths)
 *  - protobuf base-128 varints (trailer / file-info length prefixes)
 *
 * Encoders either write to a raw pointer the caller has sized (put_*, returning
 * the number of bytes written) or append to an hfg_buf (buf_put_*, returning 0
 * or HFG_ENOMEM). Decoders are bounded: they take [p, end) and return the number
 * of bytes consumed, or 0 when the input is truncated or malformed.
 * See format-specs/keyvalue.md for the vint rules and their HBase sources.
 */
#ifndef HFG_UTIL_CODING_H
#define HFG_UTIL_CODING_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/buf.h"

/* ---- big-endian fixed width ---- */
/* memcpy for the short strings of a KeyValue (rows, qualifiers, values of a
 * few bytes): overlapping word moves below 16 bytes instead of a library
 * call. d and s must not overlap. */
static inline void hfg_copy(uint8_t *d, const uint8_t *s, size_t n) {
  if (n >= 16) {
    memcpy(d, s, n);
  } else if (n >= 8) {
    uint64_t a, b;
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(d, &a, 8);
    memcpy(d + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
  } else if (n) {
    d[0] = s[0];
    d[n / 2] = s[n / 2];
    d[n - 1] = s[n - 1];
  }
}

/* Big-endian loads and stores as one move and a byte swap (memcpy of a
 * constant size compiles to a plain, alignment-free move). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HFG_BSWAP16(x) (x)
#define HFG_BSWAP32(x) (x)
#define HFG_BSWAP64(x) (x)
#else
#define HFG_BSWAP16(x) __builtin_bswap16(x)
#define HFG_BSWAP32(x) __builtin_bswap32(x)
#define HFG_BSWAP64(x) __builtin_bswap64(x)
#endif
static inline void hfg_put_be16(uint8_t *p, uint16_t v) {
  v = HFG_BSWAP16(v);
  memcpy(p, &v, 2);
}
static inline void hfg_put_be32(uint8_t *p, uint32_t v) {
  v = HFG_BSWAP32(v);
  memcpy(p, &v, 4);
}
static inline void hfg_put_be64(uint8_t *p, uint64_t v) {
  v = HFG_BSWAP64(v);
  memcpy(p, &v, 8);
}
static inline uint16_t hfg_get_be16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return HFG_BSWAP16(v);
}
static inline uint32_t hfg_get_be32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return HFG_BSWAP32(v);
}
static inline uint64_t hfg_get_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return HFG_BSWAP64(v);
}

/* The first 8 bytes of k as a big-endian number, zero padded: when the
 * prefixes of two keys differ, they order the keys as hfg_bytes_cmp does. */
static inline uint64_t hfg_be_prefix8(const uint8_t *k, size_t n) {
  /* per record (sorter index, region lookup): fixed-size loads, no
   * variable-length copy */
  if (n >= 8) return hfg_get_be64(k);
  if (n >= 4) /* two overlapping loads; the shared bytes OR onto themselves */
    return (uint64_t)hfg_get_be32(k) << 32 | (uint64_t)hfg_get_be32(k + n - 4) << (8 * (8 - n));
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++) v |= (uint64_t)k[i] << (56 - 8 * i);
  return v;
}

/* Bytes.compareTo: unsigned lexicographic, a shorter prefix first (the order
 * of HBase rows and split keys). Sign only: < 0, 0, > 0. The first byte
 * alone, then up to 16 bytes as big-endian words (the first 8, then the last 8, which overlap: their
 * differing bytes lie past the equal first ones), memcmp beyond. */
static inline int hfg_bytes_cmp(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  if (n && a[0] != b[0]) return a[0] < b[0] ? -1 : 1; /* qualifiers mostly differ here */
  if (n > 16) {
    int r = memcmp(a, b, n);
    if (r) return r;
  } else if (n >= 8) {
    uint64_t x = hfg_get_be64(a), y = hfg_get_be64(b);
    if (x != y) return x < y ? -1 : 1;
    x = hfg_get_be64(a + n - 8);
    y = hfg_get_be64(b + n - 8);
    if (x != y) return x < y ? -1 : 1;
  } else if (n) {
    uint64_t x = hfg_be_prefix8(a, n), y = hfg_be_prefix8(b, n);
    if (x != y) return x < y ? -1 : 1;
  }
  return alen < blen ? -1 : alen > blen;
}

int hfg_buf_put_be16(hfg_buf *b, uint16_t v);
int hfg_buf_put_be32(hfg_buf *b, uint32_t v);
int hfg_buf_put_be64(hfg_buf *b, uint64_t v);

/* ---- Hadoop WritableUtils vlong ----
 * -112 <= v <= 127: one byte. Otherwise a length byte (-113..-120 for
 * positive, -121..-128 for negative values, whose one's complement is stored)
 * followed by the significant bytes, most significant first. */
#define HFG_VLONG_MAX 9
size_t hfg_vlong_size(int64_t v);
size_t hfg_put_vlong(uint8_t *p, int64_t v);
int hfg_buf_put_vlong(hfg_buf *b, int64_t v);
/* Decodes a vlong from [p, end); returns bytes consumed or 0 if truncated. */
size_t hfg_get_vlong(const uint8_t *p, const uint8_t *end, int64_t *out);
/* Total encoded size implied by the first byte (1..9). */
size_t hfg_vlong_decode_size(int8_t first);

/* ---- protobuf varint (unsigned, little-endian base 128) ---- */
#define HFG_VARINT_MAX 10
size_t hfg_varint_size(uint64_t v);
size_t hfg_put_varint(uint8_t *p, uint64_t v);
int hfg_buf_put_varint(hfg_buf *b, uint64_t v);
size_t hfg_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out);

#endif

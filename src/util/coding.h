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

#include "util/buf.h"

/* ---- big-endian fixed width ---- */
static inline void hfg_put_be16(uint8_t *p, uint16_t v) {
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
}
static inline void hfg_put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}
static inline void hfg_put_be64(uint8_t *p, uint64_t v) {
  hfg_put_be32(p, (uint32_t)(v >> 32));
  hfg_put_be32(p + 4, (uint32_t)v);
}
static inline uint16_t hfg_get_be16(const uint8_t *p) {
  return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}
static inline uint32_t hfg_get_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t hfg_get_be64(const uint8_t *p) {
  return (uint64_t)hfg_get_be32(p) << 32 | hfg_get_be32(p + 4);
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

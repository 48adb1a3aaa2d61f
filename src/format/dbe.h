/*
 * Data block encoders (format-specs/encodings.md): the payload of a DATABLKE
 * block, written cell by cell as the writer lays the cells into the block, so
 * the block boundary can use the encoded size as HBase's does.
 *
 *   PREFIX, DIFF, FAST_DIFF: id:be16 unencodedSize:be32 cell*
 *     (BufferedDataBlockEncoder; each cell ends with tagsLength as a
 *      compressed int, the tags, and the mvcc vlong)
 *   ROW_INDEX_V1: id:be16 cell* rowCount:be32 rowOffset:be32* cellsSize:be32
 *     (RowIndexCodecV1; cells are plain KeyValues with a be16 tags length)
 *
 * Lifecycle: init, (begin add* finish)*, free. One module per encoding
 * (enc_prefix.c, enc_diff.c, enc_fast_diff.c, enc_row_index.c); this one
 * dispatches and keeps the state they share. dbe_run.h has the same encodings
 * for a row's later Puts, inline, which the writer's Put run uses.
 */
#ifndef HFG_FORMAT_DBE_H
#define HFG_FORMAT_DBE_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include "hfilegen/types.h"
#include "util/buf.h"
#include "util/coding.h"

typedef struct hfg_dbe {
  hfg_encoding enc;
  hfg_buf out;          /* the block payload being built */
  uint64_t unencoded;   /* EncodingState.unencodedDataSizeWritten */
  uint64_t encoded;     /* EncodingState.encodedDataSizeWritten (the block boundary) */
  hfg_buf rows;         /* ROW_INDEX_V1: be32 row offsets */
} hfg_dbe;

void hfg_dbe_init(hfg_dbe *e, hfg_encoding enc);
void hfg_dbe_free(hfg_dbe *e);
/* Starts a block: writes the id (and the size placeholder). 0 or HFG_ENOMEM. */
int hfg_dbe_begin(hfg_dbe *e);
/* Encodes one cell c (a well-formed cell of the block's family, in order),
 * straight from the bytes the caller already has: kv is c laid out as a plain
 * KeyValue (hfg_kv_put_cell: keyLength valueLength key value tagsLength tags
 * mvcc 0), prev the block's previous cell or NULL for its first. Their bytes
 * need to live only during the call; nothing of them is copied but what the
 * encoding writes. 0 or HFG_ENOMEM. */
int hfg_dbe_add(hfg_dbe *e, const hfg_cell *c, const uint8_t *kv, const hfg_cell *prev);
/* Completes the payload in e->out. cells: the block's KeyValues as given to
 * add, one after the other (cells_len bytes): ROW_INDEX_V1's cells are those
 * very bytes, so it takes them here at once; the other encodings ignore them.
 * 0 or HFG_ENOMEM / HFG_ETOOBIG. */
int hfg_dbe_finish(hfg_dbe *e, const uint8_t *cells, size_t cells_len);

/* ---- shared by the encoder modules ---- */

/* ByteBufferUtils.putCompressedInt: 7 bits a byte, least significant first,
 * 0x80 on every byte but the last (at most 5 bytes). */
static inline uint8_t *hfg_dbe_cint(uint8_t *p, uint32_t v) {
  while (v >= 0x80) {
    *p++ = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  *p++ = (uint8_t)v;
  return p;
}
int hfg_dbe_put_cint(hfg_buf *b, uint32_t v);
/* ByteBufferUtils.longFitsIn for the Java long v: bytes 1..8 (8 if negative). */
int hfg_dbe_long_fits(uint64_t v);
/* ByteBufferUtils.putLong(out, v, n): the n low bytes, least significant first. */
static inline uint8_t *hfg_dbe_long_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
  return p + n;
}

/* Inline, as every encoder calls them for every cell.
 *
 * The length of the common prefix of a and b, by words: the first differing
 * byte is the lowest set byte of the XOR of two little-endian loads. After
 * the whole words, one more load ends at the last byte (overlapping bytes
 * known equal), and so for 4..7 bytes with 4-byte loads; bytewise under 4. */
static inline size_t hfg_dbe_common_bytes(const uint8_t *a, size_t al, const uint8_t *b,
                                          size_t bl) {
  size_t n = al < bl ? al : bl, i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t x, y;
  if (n >= 8) {
    for (; i + 8 <= n; i += 8) {
      memcpy(&x, a + i, 8);
      memcpy(&y, b + i, 8);
      if (x != y) return i + (size_t)__builtin_ctzll(x ^ y) / 8;
    }
    if (i == n) return n;
    memcpy(&x, a + n - 8, 8);
    memcpy(&y, b + n - 8, 8);
    return x != y ? n - 8 + (size_t)__builtin_ctzll(x ^ y) / 8 : n;
  }
  if (n >= 4) {
    uint32_t u, v;
    memcpy(&u, a, 4);
    memcpy(&v, b, 4);
    if (u != v) return (size_t)__builtin_ctz(u ^ v) / 8;
    memcpy(&u, a + n - 4, 4);
    memcpy(&v, b + n - 4, 4);
    return u != v ? n - 4 + (size_t)__builtin_ctz(u ^ v) / 8 : n;
  }
#endif
  while (i < n && a[i] == b[i]) i++;
  return i;
}

/* How many leading bytes the big-endian forms of two timestamps share (0..8). */
static inline size_t hfg_dbe_common_ts(int64_t a, int64_t b) {
  uint64_t d = (uint64_t)a ^ (uint64_t)b;
  return d ? (size_t)__builtin_clzll(d) / 8 : 8;
}

/* PrivateCellUtil.findCommonPrefixInFlatKey(c, p, bypassFamilyCheck=true, withTsType). */
static inline size_t hfg_dbe_common_prefix(const hfg_cell *c, const hfg_cell *p, int with_ts_type) {
  if (c->row_len != p->row_len) /* the two big-endian row lengths */
    return (c->row_len >> 8) == (p->row_len >> 8) ? 1 : 0;
  size_t r = hfg_dbe_common_bytes(c->row, c->row_len, p->row, p->row_len);
  size_t n = 2 + r;
  if (r != c->row_len) return n;
  n += 1 + c->family_len; /* bypassFamilyCheck: one family per file */
  size_t q = hfg_dbe_common_bytes(c->qualifier, c->qualifier_len, p->qualifier, p->qualifier_len);
  n += q;
  size_t qmax = c->qualifier_len > p->qualifier_len ? c->qualifier_len : p->qualifier_len;
  if (!with_ts_type || q != qmax) return n;
  size_t t = hfg_dbe_common_ts(c->timestamp, p->timestamp); /* of their big-endian bytes */
  n += t;
  if (t != 8) return n;
  if (c->type == p->type) n += 1;
  return n;
}

/* afterEncodingKeyValue: tagsLength (compressed int), tags, mvcc vlong 0. */
static inline uint8_t *hfg_dbe_tail(uint8_t *p, const hfg_cell *c) {
  p = hfg_dbe_cint(p, (uint32_t)c->tags_len);
  if (c->tags_len) {
    hfg_copy(p, c->tags, c->tags_len);
    p += c->tags_len;
  }
  *p++ = 0; /* mvcc (sequence id) 0 as a vlong */
  return p;
}

/* DIFF and FAST_DIFF after the flag: [cint keyLength] [cint valueLength]
 * cint(common), then the key's part after the common prefix without the family
 * and without the timestamp and type: the rest of the row (with its length) and
 * the whole qualifier, or, when the row is common, the rest of the qualifier. */
static inline uint8_t *hfg_dbe_diff_key(uint8_t *o, const hfg_cell *c, const uint8_t *key,
                                        size_t klen, size_t common, int with_klen,
                                        int with_vlen) {
  if (with_klen) o = hfg_dbe_cint(o, (uint32_t)klen);
  if (with_vlen) o = hfg_dbe_cint(o, (uint32_t)c->value_len);
  o = hfg_dbe_cint(o, (uint32_t)common);
  size_t row_end = 2 + c->row_len;
  if (common < row_end) {
    hfg_copy(o, key + common, row_end - common);
    o += row_end - common;
    hfg_copy(o, c->qualifier, c->qualifier_len);
    return o + c->qualifier_len;
  }
  size_t cq = common - row_end - (1 + c->family_len);
  hfg_copy(o, c->qualifier + cq, c->qualifier_len - cq);
  return o + c->qualifier_len - cq;
}

/* The encoders write one cell at o (room for klen + value + tags +
 * HFG_DBE_CELL_SLACK bytes is there) and return the end. key: c's flat key
 * (klen bytes); p: the previous cell, or NULL for the block's first. */
#define HFG_DBE_CELL_SLACK 320
uint8_t *hfg_enc_prefix_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                             const hfg_cell *p);
uint8_t *hfg_enc_diff_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                           const hfg_cell *p);
uint8_t *hfg_enc_fast_diff_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                                const hfg_cell *p);
/* ROW_INDEX_V1 writes no cell bytes as they come: it notes the row offsets. */
int hfg_enc_row_index_cell(hfg_dbe *e, const hfg_cell *c, const hfg_cell *p);
int hfg_enc_row_index_finish(hfg_dbe *e, const uint8_t *cells, size_t cells_len);

#endif

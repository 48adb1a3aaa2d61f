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
 * dispatches and keeps the state they share.
 */
#ifndef HFG_FORMAT_DBE_H
#define HFG_FORMAT_DBE_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"

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
/* PrivateCellUtil.findCommonPrefixInFlatKey(c, p, bypassFamilyCheck=true, withTsType). */
size_t hfg_dbe_common_prefix(const hfg_cell *c, const hfg_cell *p, int with_ts_type);
/* ByteBufferUtils.longFitsIn for the Java long v: bytes 1..8 (8 if negative). */
int hfg_dbe_long_fits(uint64_t v);
/* ByteBufferUtils.putLong(out, v, n): the n low bytes, least significant first. */
static inline uint8_t *hfg_dbe_long_le(uint8_t *p, uint64_t v, int n) {
  for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
  return p + n;
}
/* afterEncodingKeyValue: tagsLength (compressed int), tags, mvcc vlong 0. */
uint8_t *hfg_dbe_tail(uint8_t *p, const hfg_cell *c);
/* DIFF and FAST_DIFF after the flag: [cint keyLength] [cint valueLength]
 * cint(common), then the key's part after the common prefix without the family
 * and without the timestamp and type: the rest of the row (with its length) and
 * the whole qualifier, or, when the row is common, the rest of the qualifier. */
uint8_t *hfg_dbe_diff_key(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                          size_t common, int with_klen, int with_vlen);

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

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
  hfg_buf key;          /* scratch: the current cell's flat key */
  hfg_buf prev;         /* the previous cell's flat key (+ value for FAST_DIFF) */
  hfg_cell p;           /* the previous cell's parts, pointing into prev */
  int has_prev;
  uint64_t unencoded;   /* EncodingState.unencodedDataSizeWritten */
  uint64_t encoded;     /* EncodingState.encodedDataSizeWritten (the block boundary) */
  hfg_buf rows;         /* ROW_INDEX_V1: be32 row offsets */
  size_t cells_start;   /* offset of the first cell in out */
} hfg_dbe;

void hfg_dbe_init(hfg_dbe *e, hfg_encoding enc);
void hfg_dbe_free(hfg_dbe *e);
/* Starts a block: writes the id (and the size placeholder). 0 or HFG_ENOMEM. */
int hfg_dbe_begin(hfg_dbe *e);
/* Encodes one cell (a well-formed cell of the block's family, in order; its
 * bytes need to live only during the call). 0 or HFG_ENOMEM. */
int hfg_dbe_add(hfg_dbe *e, const hfg_cell *c);
/* Completes the payload in e->out. 0 or HFG_ENOMEM / HFG_ETOOBIG. */
int hfg_dbe_finish(hfg_dbe *e);

/* ---- shared by the encoder modules ---- */

/* ByteBufferUtils.putCompressedInt: 7 bits a byte, least significant first,
 * 0x80 on every byte but the last. */
int hfg_dbe_put_cint(hfg_buf *b, uint32_t v);
/* PrivateCellUtil.findCommonPrefixInFlatKey(c, p, bypassFamilyCheck=true, withTsType). */
size_t hfg_dbe_common_prefix(const hfg_cell *c, const hfg_cell *p, int with_ts_type);
/* ByteBufferUtils.longFitsIn for the Java long v: bytes 1..8 (8 if negative). */
int hfg_dbe_long_fits(uint64_t v);
/* ByteBufferUtils.putLong(out, v, n): the n low bytes, least significant first. */
int hfg_dbe_put_long_le(hfg_buf *b, uint64_t v, int n);
/* afterEncodingKeyValue: tagsLength (compressed int), tags, mvcc vlong 0. */
int hfg_dbe_put_tail(hfg_buf *b, const hfg_cell *c);

int hfg_enc_prefix_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen);
int hfg_enc_diff_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen);
int hfg_enc_fast_diff_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen);
int hfg_enc_row_index_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen);
int hfg_enc_row_index_finish(hfg_dbe *e);

#endif

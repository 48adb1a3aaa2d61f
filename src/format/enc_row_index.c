/*
 * ROW_INDEX_V1 (RowIndexCodecV1 / RowIndexEncoderV1 / NoneEncoder): the cells
 * as plain KeyValues (keyLength:be32 valueLength:be32 key value
 * tagsLength:be16 tags mvcc:vlong), then rowCount:be32, one be32 offset per
 * row (from the first cell, of the row's first cell), and the cells' size:be32.
 * Each new row counts 4 more encoded bytes for the block boundary. The cells
 * are the writer's own plain KeyValues, taken whole when the block ends.
 * format-specs/encodings.md.
 */
#include "format/dbe.h"

#include "util/coding.h"

int hfg_enc_row_index_cell(hfg_dbe *e, const hfg_cell *c, const hfg_cell *p) {
  /* a row's offset from the first cell: the unencoded bytes before it */
  int new_row = !p || hfg_bytes_cmp(c->row, c->row_len, p->row, p->row_len) != 0;
  if (new_row && hfg_buf_put_be32(&e->rows, (uint32_t)e->unencoded)) return HFG_ENOMEM;
  return 0;
}

int hfg_enc_row_index_finish(hfg_dbe *e, const uint8_t *cells, size_t cells_len) {
  if (cells_len > INT32_MAX) return HFG_ETOOBIG;
  if (hfg_buf_append(&e->out, cells, cells_len) ||
      hfg_buf_put_be32(&e->out, (uint32_t)(e->rows.len / 4)) ||
      hfg_buf_append(&e->out, e->rows.p, e->rows.len) ||
      hfg_buf_put_be32(&e->out, (uint32_t)cells_len))
    return HFG_ENOMEM;
  return 0;
}

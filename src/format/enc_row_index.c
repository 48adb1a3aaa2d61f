/*
 * ROW_INDEX_V1 (RowIndexCodecV1 / RowIndexEncoderV1 / NoneEncoder): the cells
 * as plain KeyValues (keyLength:be32 valueLength:be32 key value
 * tagsLength:be16 tags mvcc:vlong), then rowCount:be32, one be32 offset per
 * row (from the first cell, of the row's first cell), and the cells' size:be32.
 * Each new row counts 4 more encoded bytes for the block boundary.
 * format-specs/encodings.md.
 */
#include "format/dbe.h"

#include "util/coding.h"

int hfg_enc_row_index_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen) {
  hfg_buf *o = &e->out;
  int new_row = !e->has_prev || hfg_bytes_cmp(c->row, c->row_len, e->p.row, e->p.row_len) != 0;
  if (new_row && hfg_buf_put_be32(&e->rows, (uint32_t)(o->len - e->cells_start)))
    return HFG_ENOMEM;
  if (hfg_buf_put_be32(o, (uint32_t)klen) || hfg_buf_put_be32(o, (uint32_t)c->value_len) ||
      hfg_buf_append(o, key, klen) || hfg_buf_append(o, c->value, c->value_len) ||
      hfg_buf_put_be16(o, (uint16_t)c->tags_len) ||
      (c->tags_len && hfg_buf_append(o, c->tags, c->tags_len)) || hfg_buf_put_u8(o, 0))
    return HFG_ENOMEM;
  return 0;
}

int hfg_enc_row_index_finish(hfg_dbe *e) {
  size_t cells = e->out.len - e->cells_start;
  if (cells > INT32_MAX) return HFG_ETOOBIG;
  if (hfg_buf_put_be32(&e->out, (uint32_t)(e->rows.len / 4)) ||
      hfg_buf_append(&e->out, e->rows.p, e->rows.len) ||
      hfg_buf_put_be32(&e->out, (uint32_t)cells))
    return HFG_ENOMEM;
  return 0;
}

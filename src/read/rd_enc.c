/* Encoded data block decoding: dispatch and the shared steps (rd_enc.h). */
#include "read/rd_enc.h"

#include <inttypes.h>
#include <string.h>

#include "util/coding.h"

int rd_dec_fail(rd_dec *d, const char *what) {
  return hfg_err_set(d->err, HFG_ECORRUPT,
                     "block at offset %" PRIu64 " (DATABLKE, %s): cell %" PRIu64
                     " at encoded byte %zu: %s",
                     d->offset, d->name, d->cell, d->at, what);
}

int rd_dec_take(rd_dec *d, size_t n, const uint8_t **p, const char *what) {
  if (n > d->n - d->at) return rd_dec_fail(d, what);
  *p = d->p + d->at;
  d->at += n;
  return 0;
}

int rd_dec_cint(rd_dec *d, uint32_t *v, const char *what) {
  uint64_t x = 0;
  for (int i = 0; i < 5; i++) {
    if (d->at >= d->n) return rd_dec_fail(d, what);
    uint8_t b = d->p[d->at++];
    x |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      if (x > INT32_MAX) return rd_dec_fail(d, what);
      *v = (uint32_t)x;
      return 0;
    }
  }
  return rd_dec_fail(d, what);
}

int rd_dec_copy_prev_key(rd_dec *d, size_t n) {
  if (!d->has_prev ? n > 0 : n > d->pk_len)
    return rd_dec_fail(d, "common prefix longer than the previous key");
  if (!n) return 0;
  if (hfg_buf_reserve(d->out, n)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  memcpy(d->out->p + d->out->len, d->out->p + d->pk_off, n);
  d->out->len += n;
  return 0;
}

int rd_dec_tail(rd_dec *d, size_t cell_off, uint32_t klen, uint32_t vlen) {
  hfg_buf *o = d->out;
  if (d->f->tags) {
    uint32_t tl;
    const uint8_t *t = NULL;
    if (rd_dec_cint(d, &tl, "tags length runs past the block")) return HFG_ECORRUPT;
    if (tl > 32767) return rd_dec_fail(d, "tags length above 32767");
    if (rd_dec_take(d, tl, &t, "tags run past the block")) return HFG_ECORRUPT;
    if (hfg_buf_put_be16(o, (uint16_t)tl) || hfg_buf_append(o, t, tl))
      return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  }
  if (d->f->mvcc) {
    int64_t m;
    size_t k = hfg_get_vlong(d->p + d->at, d->p + d->n, &m);
    if (!k) return rd_dec_fail(d, "mvcc vlong runs past the block");
    if (hfg_buf_append(o, d->p + d->at, k)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
    d->at += k;
  }
  d->has_prev = 1;
  d->pk_off = cell_off + 8;
  d->pk_len = klen;
  d->pv_off = cell_off + 8 + klen;
  d->pv_len = vlen;
  d->cell++;
  return 0;
}

/* ROW_INDEX_V1: plain KeyValues, then rowCount, the row offsets and the cells' size. */
static int dec_row_index(rd_dec *d) {
  if (d->n < 8) return rd_dec_fail(d, "block shorter than its row index");
  uint32_t cells = hfg_get_be32(d->p + d->n - 4);
  if (cells > d->n - 8) return rd_dec_fail(d, "cells size runs past the block");
  uint32_t rows = hfg_get_be32(d->p + cells);
  if ((uint64_t)cells + 4 + 4ull * rows + 4 != d->n)
    return rd_dec_fail(d, "row count, row offsets and cells size do not fill the block");
  if (hfg_buf_append(d->out, d->p, cells)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  /* every offset must be the start of a cell whose row differs from the one before it */
  size_t pos = 0, r = 0;
  const uint8_t *prev_row = NULL;
  size_t prev_len = 0;
  while (pos < cells) {
    hfg_read_cell c;
    size_t next;
    if (rd_cell_parse(d->p, cells, pos, d->f, &c, &next, d->err)) return HFG_ECORRUPT;
    int new_row = !prev_row || rd_bytes_cmp(prev_row, prev_len, c.cell.row, c.cell.row_len) != 0;
    if (new_row) {
      if (r >= rows || hfg_get_be32(d->p + cells + 4 + 4 * r) != pos) {
        d->at = pos;
        return rd_dec_fail(d, "row index does not name this row's first cell");
      }
      r++;
    }
    prev_row = c.cell.row;
    prev_len = c.cell.row_len;
    pos = next;
    d->cell++;
  }
  if (r != rows) return rd_dec_fail(d, "row index names more rows than the block holds");
  return 0;
}

int rd_enc_decode(int id, const uint8_t *p, size_t n, const rd_cell_flags *f, uint64_t offset,
                  hfg_buf *out, hfg_err *err) {
  rd_dec d;
  memset(&d, 0, sizeof d);
  d.out = out;
  d.f = f;
  d.err = err;
  d.offset = offset;
  hfg_buf_reset(out);
  if (id == 7) {
    d.name = "ROW_INDEX_V1";
    d.p = p;
    d.n = n;
    return dec_row_index(&d);
  }
  int (*fn)(rd_dec *) = id == 2 ? rd_dec_prefix : id == 3 ? rd_dec_diff : id == 4 ? rd_dec_fast_diff : NULL;
  d.name = id == 2 ? "PREFIX" : id == 3 ? "DIFF" : "FAST_DIFF";
  if (!fn)
    return hfg_err_set(err, id == 6 ? HFG_EUNSUPPORTED : HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE): data block encoding id %d is %s",
                       offset, id, id == 6 ? "PREFIX_TREE, removed in HBase 2.0" : "unknown");
  if (n < 4)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE, %s): no unencoded size", offset,
                       d.name);
  uint32_t want = hfg_get_be32(p);
  d.p = p + 4;
  d.n = n - 4;
  if (want > INT32_MAX || hfg_buf_reserve(out, want))
    return hfg_err_set(err, want > INT32_MAX ? HFG_ECORRUPT : HFG_ENOMEM,
                       "block at offset %" PRIu64 " (DATABLKE, %s): unencoded size %" PRIu32,
                       offset, d.name, want);
  while (d.at < d.n) {
    int rc = fn(&d);
    if (rc) return rc;
  }
  if (out->len != want)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE, %s): cells decode to %zu bytes, "
                       "the block says %" PRIu32,
                       offset, d.name, out->len, want);
  return 0;
}

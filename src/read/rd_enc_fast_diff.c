/* FAST_DIFF decoding (format-specs/encodings.md): per cell a flag (bits 0-2 timestamp bytes
 * shared with the previous cell, 8 same key length, 16 same value length, 32 same type, 64
 * same value), lengths, the common prefix, the rest of the row (the family then comes from
 * the previous key), the qualifier, the rest of the timestamp, the type, the value (unless
 * the same), tags and mvcc. A block's first cell is a whole key and value. */
#include "read/rd_enc.h"

#include <string.h>

#include "util/coding.h"

#define OOM hfg_err_set(d->err, HFG_ENOMEM, "out of memory")

/* Appends n bytes from out itself at offset from (the previous cell). */
static int self_copy(rd_dec *d, size_t from, size_t n) {
  if (hfg_buf_reserve(d->out, n)) return OOM;
  memcpy(d->out->p + d->out->len, d->out->p + from, n);
  d->out->len += n;
  return 0;
}

int rd_dec_fast_diff(rd_dec *d) {
  const uint8_t *b;
  if (rd_dec_take(d, 1, &b, "flag runs past the block")) return HFG_ECORRUPT;
  unsigned flag = b[0];
  uint32_t klen = (uint32_t)d->pk_len, vlen = (uint32_t)d->pv_len, common;
  if (!d->has_prev && (flag & 0x78))
    return rd_dec_fail(d, "the first cell refers to a previous one");
  if (!(flag & 0x08) && rd_dec_cint(d, &klen, "key length runs past the block"))
    return HFG_ECORRUPT;
  if (!(flag & 0x10) && rd_dec_cint(d, &vlen, "value length runs past the block"))
    return HFG_ECORRUPT;
  if (rd_dec_cint(d, &common, "common prefix length runs past the block")) return HFG_ECORRUPT;
  size_t cell_off = d->out->len;
  if (hfg_buf_put_be32(d->out, klen) || hfg_buf_put_be32(d->out, vlen)) return OOM;
  size_t key_start = d->out->len;
  if (!d->has_prev) {
    if (common) return rd_dec_fail(d, "the first cell has a common prefix");
    if (rd_dec_take(d, klen, &b, "key runs past the block") || hfg_buf_append(d->out, b, klen) ||
        rd_dec_take(d, vlen, &b, "value runs past the block") || hfg_buf_append(d->out, b, vlen))
      return d->err->code ? d->err->code : OOM;
    return rd_dec_tail(d, cell_off, klen, vlen);
  }
  const uint8_t *pk = d->out->p + d->pk_off;
  size_t prev_row = hfg_get_be16(pk);
  if (d->pk_len < prev_row + 12) return rd_dec_fail(d, "previous key malformed");
  size_t prev_fam = pk[2 + prev_row];
  uint8_t prev_ts[8], prev_type = pk[d->pk_len - 1];
  memcpy(prev_ts, pk + d->pk_len - 9, 8);
  size_t fam_off = d->pk_off + 2 + prev_row;
  if (rd_dec_copy_prev_key(d, common)) return HFG_ECORRUPT;
  size_t qual;
  if (common < prev_row + 2) {
    if (common < 2) {
      if (rd_dec_take(d, 2 - common, &b, "row length runs past the block") ||
          hfg_buf_append(d->out, b, 2 - common))
        return d->err->code ? d->err->code : OOM;
    }
    size_t row = hfg_get_be16(d->out->p + key_start), have = d->out->len - key_start;
    if (have > row + 2) return rd_dec_fail(d, "common prefix runs past the row");
    if (rd_dec_take(d, row + 2 - have, &b, "row runs past the block") ||
        hfg_buf_append(d->out, b, row + 2 - have))
      return d->err->code ? d->err->code : OOM;
    if (self_copy(d, fam_off, 1 + prev_fam)) return OOM;
    size_t used = 2 + row + 1 + prev_fam + 9;
    if (klen < used) return rd_dec_fail(d, "key length shorter than its row and family");
    qual = klen - used;
  } else {
    if (klen < common + 9) return rd_dec_fail(d, "key length shorter than the common prefix");
    qual = klen - common - 9;
  }
  if (rd_dec_take(d, qual, &b, "qualifier runs past the block") || hfg_buf_append(d->out, b, qual))
    return d->err->code ? d->err->code : OOM;
  unsigned shared = flag & 7;
  if (hfg_buf_append(d->out, prev_ts, shared)) return OOM;
  if (rd_dec_take(d, 8 - shared, &b, "timestamp runs past the block") ||
      hfg_buf_append(d->out, b, 8 - shared))
    return d->err->code ? d->err->code : OOM;
  uint8_t type = prev_type;
  if (!(flag & 0x20)) {
    if (rd_dec_take(d, 1, &b, "type runs past the block")) return HFG_ECORRUPT;
    type = b[0];
  }
  if (hfg_buf_put_u8(d->out, type)) return OOM;
  if (d->out->len - key_start != klen) return rd_dec_fail(d, "key does not add up to its length");
  if (flag & 0x40) {
    if (vlen != d->pv_len) return rd_dec_fail(d, "same value with a different value length");
    if (self_copy(d, d->pv_off, vlen)) return OOM;
  } else if (rd_dec_take(d, vlen, &b, "value runs past the block") ||
             hfg_buf_append(d->out, b, vlen)) {
    return d->err->code ? d->err->code : OOM;
  }
  return rd_dec_tail(d, cell_off, klen, vlen);
}

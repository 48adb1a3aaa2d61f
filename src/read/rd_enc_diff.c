/* DIFF decoding (format-specs/encodings.md): the family before the first cell; per cell a
 * flag (1 same key length, 2 same value length, 4 same type, 8 timestamp is a difference,
 * bits 4-6 timestamp bytes - 1, 0x80 negated), lengths, the common prefix, the rest of the
 * row, the qualifier, the timestamp (little-endian), the type, the value, tags and mvcc. */
#include "read/rd_enc.h"

#include <string.h>

#include "util/coding.h"

#define OOM hfg_err_set(d->err, HFG_ENOMEM, "out of memory")

int rd_dec_diff(rd_dec *d) {
  const uint8_t *b;
  if (!d->has_prev) {
    if (rd_dec_take(d, 1, &b, "family length runs past the block")) return HFG_ECORRUPT;
    d->fam_len = b[0];
    if (d->fam_len > 127) return rd_dec_fail(d, "family length above 127");
    if (rd_dec_take(d, d->fam_len, &d->fam, "family runs past the block")) return HFG_ECORRUPT;
  }
  if (rd_dec_take(d, 1, &b, "flag runs past the block")) return HFG_ECORRUPT;
  unsigned flag = b[0];
  if (!d->has_prev && (flag & 0x0f))
    return rd_dec_fail(d, "the first cell refers to a previous one");
  uint32_t klen = (uint32_t)d->pk_len, vlen = (uint32_t)d->pv_len, common;
  if (!(flag & 1) && rd_dec_cint(d, &klen, "key length runs past the block")) return HFG_ECORRUPT;
  if (!(flag & 2) && rd_dec_cint(d, &vlen, "value length runs past the block"))
    return HFG_ECORRUPT;
  if (rd_dec_cint(d, &common, "common prefix length runs past the block")) return HFG_ECORRUPT;
  size_t prev_row = 0;
  uint64_t prev_ts = 0;
  uint8_t prev_type = 0;
  if (d->has_prev) {
    const uint8_t *pk = d->out->p + d->pk_off;
    prev_row = hfg_get_be16(pk);
    prev_ts = hfg_get_be64(pk + d->pk_len - 9);
    prev_type = pk[d->pk_len - 1];
  }
  size_t cell_off = d->out->len;
  if (hfg_buf_put_be32(d->out, klen) || hfg_buf_put_be32(d->out, vlen)) return OOM;
  size_t key_start = d->out->len;
  if (rd_dec_copy_prev_key(d, common)) return HFG_ECORRUPT;
  size_t qual;
  if (!d->has_prev || common < prev_row + 2) {
    if (common < 2) {
      if (rd_dec_take(d, 2 - common, &b, "row length runs past the block") ||
          hfg_buf_append(d->out, b, 2 - common))
        return d->err->code ? d->err->code : OOM;
    }
    size_t row = hfg_get_be16(d->out->p + key_start), have = d->out->len - key_start;
    if (have > row + 2) return rd_dec_fail(d, "common prefix runs past the row");
    if (rd_dec_take(d, row + 2 - have, &b, "row runs past the block")) return HFG_ECORRUPT;
    if (hfg_buf_append(d->out, b, row + 2 - have) || hfg_buf_put_u8(d->out, (uint8_t)d->fam_len) ||
        hfg_buf_append(d->out, d->fam, d->fam_len))
      return OOM;
    size_t used = 2 + row + 1 + d->fam_len + 9;
    if (klen < used) return rd_dec_fail(d, "key length shorter than its row and family");
    qual = klen - used;
  } else {
    if (klen < common + 9) return rd_dec_fail(d, "key length shorter than the common prefix");
    qual = klen - common - 9;
  }
  if (rd_dec_take(d, qual, &b, "qualifier runs past the block") || hfg_buf_append(d->out, b, qual))
    return d->err->code ? d->err->code : OOM;
  unsigned nb = ((flag >> 4) & 7) + 1;
  if (rd_dec_take(d, nb, &b, "timestamp runs past the block")) return HFG_ECORRUPT;
  uint64_t t = 0;
  for (unsigned i = 0; i < nb; i++) t |= (uint64_t)b[i] << (8 * i);
  if (flag & 0x80) t = 0 - t;
  if (flag & 8) t = prev_ts - t;
  uint8_t type = prev_type;
  if (!(flag & 4)) {
    if (rd_dec_take(d, 1, &b, "type runs past the block")) return HFG_ECORRUPT;
    type = b[0];
  }
  if (hfg_buf_put_be64(d->out, t) || hfg_buf_put_u8(d->out, type)) return OOM;
  if (d->out->len - key_start != klen) return rd_dec_fail(d, "key does not add up to its length");
  if (rd_dec_take(d, vlen, &b, "value runs past the block") || hfg_buf_append(d->out, b, vlen))
    return d->err->code ? d->err->code : OOM;
  return rd_dec_tail(d, cell_off, klen, vlen);
}

/* PREFIX decoding: cint(keyLength - common) cint(valueLength) cint(common), the rest of the key,
 * the value, then tags and mvcc (format-specs/encodings.md). */
#include "read/rd_enc.h"

#include "util/coding.h"

int rd_dec_prefix(rd_dec *d) {
  uint32_t rest, vlen, common;
  const uint8_t *k, *v;
  if (rd_dec_cint(d, &rest, "key length runs past the block") ||
      rd_dec_cint(d, &vlen, "value length runs past the block") ||
      rd_dec_cint(d, &common, "common prefix length runs past the block"))
    return HFG_ECORRUPT;
  uint64_t klen = (uint64_t)rest + common;
  if (klen == 0 || klen > INT32_MAX) return rd_dec_fail(d, "key length out of range");
  size_t cell_off = d->out->len;
  if (hfg_buf_put_be32(d->out, (uint32_t)klen) || hfg_buf_put_be32(d->out, vlen))
    return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  if (rd_dec_copy_prev_key(d, common)) return HFG_ECORRUPT;
  if (rd_dec_take(d, rest, &k, "key runs past the block") ||
      rd_dec_take(d, vlen, &v, "value runs past the block"))
    return HFG_ECORRUPT;
  if (hfg_buf_append(d->out, k, rest) || hfg_buf_append(d->out, v, vlen))
    return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  return rd_dec_tail(d, cell_off, (uint32_t)klen, vlen);
}

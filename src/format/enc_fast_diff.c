/*
 * FAST_DIFF (FastDiffDeltaEncoder). A block's first cell:
 *   0x00 cint(keyLength) cint(valueLength) cint(0) key value tail
 * every other cell:
 *   flag:u8 [cint keyLength] [cint valueLength] cint(common)
 *   row part, qualifier part, timestamp bytes after the prefix shared with
 *   the previous timestamp (big-endian), [type:u8], [value], tail
 * flag: bits 0-2 shared timestamp bytes (0..7), 8 same key length, 16 same
 * value length, 32 same type, 64 same value (omitted). common as
 * findCommonPrefixInFlatKey without the timestamp and type.
 * format-specs/encodings.md.
 */
#include "format/dbe.h"

#include <string.h>

#include "util/coding.h"

#define F_SAME_KEY_LEN 0x08
#define F_SAME_VALUE_LEN 0x10
#define F_SAME_TYPE 0x20
#define F_SAME_VALUE 0x40

int hfg_enc_fast_diff_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen) {
  hfg_buf *o = &e->out;
  if (!e->has_prev) {
    if (hfg_buf_put_u8(o, 0) || hfg_dbe_put_cint(o, (uint32_t)klen) ||
        hfg_dbe_put_cint(o, (uint32_t)c->value_len) || hfg_dbe_put_cint(o, 0) ||
        hfg_buf_append(o, key, klen) || hfg_buf_append(o, c->value, c->value_len))
      return HFG_ENOMEM;
    return hfg_dbe_put_tail(o, c);
  }
  const hfg_cell *p = &e->p;
  unsigned flag = 0;
  size_t common = hfg_dbe_common_prefix(c, p, 0);
  if (klen == 12 + p->row_len + p->family_len + p->qualifier_len) flag |= F_SAME_KEY_LEN;
  if (c->value_len == p->value_len) flag |= F_SAME_VALUE_LEN;
  if (c->type == p->type) flag |= F_SAME_TYPE;
  uint8_t ts[8], pts[8];
  hfg_put_be64(ts, (uint64_t)c->timestamp);
  hfg_put_be64(pts, (uint64_t)p->timestamp);
  unsigned tsc = 0;
  while (tsc < 7 && ts[tsc] == pts[tsc]) tsc++;
  flag |= tsc;
  if (c->value_len == p->value_len &&
      (c->value_len == 0 || memcmp(c->value, p->value, c->value_len) == 0))
    flag |= F_SAME_VALUE;
  if (hfg_buf_put_u8(o, (uint8_t)flag)) return HFG_ENOMEM;
  if (!(flag & F_SAME_KEY_LEN) && hfg_dbe_put_cint(o, (uint32_t)klen)) return HFG_ENOMEM;
  if (!(flag & F_SAME_VALUE_LEN) && hfg_dbe_put_cint(o, (uint32_t)c->value_len))
    return HFG_ENOMEM;
  if (hfg_dbe_put_cint(o, (uint32_t)common)) return HFG_ENOMEM;
  size_t row_end = 2 + c->row_len;
  if (common < row_end) {
    if (hfg_buf_append(o, key + common, row_end - common) ||
        hfg_buf_append(o, c->qualifier, c->qualifier_len))
      return HFG_ENOMEM;
  } else {
    size_t cq = common - row_end - (1 + c->family_len);
    if (hfg_buf_append(o, c->qualifier + cq, c->qualifier_len - cq)) return HFG_ENOMEM;
  }
  if (hfg_buf_append(o, ts + tsc, 8 - tsc)) return HFG_ENOMEM;
  if (!(flag & F_SAME_TYPE) && hfg_buf_put_u8(o, c->type)) return HFG_ENOMEM;
  if (!(flag & F_SAME_VALUE) && hfg_buf_append(o, c->value, c->value_len)) return HFG_ENOMEM;
  return hfg_dbe_put_tail(o, c);
}

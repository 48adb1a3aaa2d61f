/*
 * DIFF (DiffKeyDeltaEncoder). A block's first cell is preceded by the family
 * (familyLength:u8 family). Per cell:
 *   flag:u8 [cint keyLength] [cint valueLength] cint(common)
 *   row part, qualifier part, timestamp (1..8 bytes little-endian, or the
 *   difference from the previous one), [type:u8], value, tail
 * flag: 1 same key length, 2 same value length, 4 same type, 8 timestamp is
 * a difference, bits 4-6 timestamp bytes - 1, 0x80 the timestamp (or the
 * difference) is negated. common as findCommonPrefixInFlatKey without the
 * timestamp and type. format-specs/encodings.md.
 */
#include "format/dbe.h"

#define F_SAME_KEY_LEN 0x01
#define F_SAME_VALUE_LEN 0x02
#define F_SAME_TYPE 0x04
#define F_TS_DIFF 0x08
#define F_TS_SHIFT 4
#define F_TS_SIGN 0x80

int hfg_enc_diff_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen) {
  hfg_buf *o = &e->out;
  unsigned flag = 0;
  size_t common = 0;
  uint64_t ts = (uint64_t)c->timestamp, diff = 0;
  int ts_bytes, diff_bytes = 0;
  if (!e->has_prev) {
    if (c->timestamp < 0) {
      flag |= F_TS_SIGN;
      ts = 0 - ts;
    }
    ts_bytes = hfg_dbe_long_fits(ts);
    flag |= (unsigned)(ts_bytes - 1) << F_TS_SHIFT;
    if (hfg_buf_put_u8(o, (uint8_t)c->family_len) ||
        hfg_buf_append(o, c->family, c->family_len))
      return HFG_ENOMEM;
  } else {
    const hfg_cell *p = &e->p;
    common = hfg_dbe_common_prefix(c, p, 0);
    if (klen == 12 + p->row_len + p->family_len + p->qualifier_len) flag |= F_SAME_KEY_LEN;
    if (c->value_len == p->value_len) flag |= F_SAME_VALUE_LEN;
    if (c->type == p->type) flag |= F_SAME_TYPE;
    diff = (uint64_t)p->timestamp - (uint64_t)c->timestamp; /* Java long arithmetic */
    int neg_ts = c->timestamp < 0;
    if (neg_ts) ts = 0 - ts;
    ts_bytes = hfg_dbe_long_fits(ts);
    int neg_diff = (int64_t)diff < 0;
    if (neg_diff) diff = 0 - diff;
    diff_bytes = hfg_dbe_long_fits(diff);
    if (diff_bytes < ts_bytes) {
      flag |= (unsigned)(diff_bytes - 1) << F_TS_SHIFT | F_TS_DIFF;
      if (neg_diff) flag |= F_TS_SIGN;
    } else {
      flag |= (unsigned)(ts_bytes - 1) << F_TS_SHIFT;
      if (neg_ts) flag |= F_TS_SIGN;
    }
  }
  if (hfg_buf_put_u8(o, (uint8_t)flag)) return HFG_ENOMEM;
  if (!(flag & F_SAME_KEY_LEN) && hfg_dbe_put_cint(o, (uint32_t)klen)) return HFG_ENOMEM;
  if (!(flag & F_SAME_VALUE_LEN) && hfg_dbe_put_cint(o, (uint32_t)c->value_len))
    return HFG_ENOMEM;
  if (hfg_dbe_put_cint(o, (uint32_t)common)) return HFG_ENOMEM;
  size_t row_end = 2 + c->row_len;
  if (common < row_end) { /* the rest of the row (with its length), no family, the qualifier */
    if (hfg_buf_append(o, key + common, row_end - common) ||
        hfg_buf_append(o, c->qualifier, c->qualifier_len))
      return HFG_ENOMEM;
  } else {
    size_t cq = common - row_end - (1 + c->family_len);
    if (hfg_buf_append(o, c->qualifier + cq, c->qualifier_len - cq)) return HFG_ENOMEM;
  }
  int rc = flag & F_TS_DIFF ? hfg_dbe_put_long_le(o, diff, diff_bytes)
                            : hfg_dbe_put_long_le(o, ts, ts_bytes);
  if (rc) return HFG_ENOMEM;
  if (!(flag & F_SAME_TYPE) && hfg_buf_put_u8(o, c->type)) return HFG_ENOMEM;
  if (hfg_buf_append(o, c->value, c->value_len)) return HFG_ENOMEM;
  return hfg_dbe_put_tail(o, c);
}

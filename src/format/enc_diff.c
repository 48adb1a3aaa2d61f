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

#include "util/coding.h"

#define F_SAME_KEY_LEN 0x01
#define F_SAME_VALUE_LEN 0x02
#define F_SAME_TYPE 0x04
#define F_TS_DIFF 0x08
#define F_TS_SHIFT 4
#define F_TS_SIGN 0x80

uint8_t *hfg_enc_diff_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                           const hfg_cell *p) {
  unsigned flag = 0;
  size_t common = 0;
  uint64_t ts = (uint64_t)c->timestamp, diff = 0;
  int ts_bytes, diff_bytes = 0;
  if (!p) {
    if (c->timestamp < 0) {
      flag |= F_TS_SIGN;
      ts = 0 - ts;
    }
    ts_bytes = hfg_dbe_long_fits(ts);
    flag |= (unsigned)(ts_bytes - 1) << F_TS_SHIFT;
    *o++ = (uint8_t)c->family_len;
    hfg_copy(o, c->family, c->family_len);
    o += c->family_len;
  } else {
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
  *o++ = (uint8_t)flag;
  o = hfg_dbe_diff_key(o, c, key, klen, common, !(flag & F_SAME_KEY_LEN),
                       !(flag & F_SAME_VALUE_LEN));
  o = flag & F_TS_DIFF ? hfg_dbe_long_le(o, diff, diff_bytes) : hfg_dbe_long_le(o, ts, ts_bytes);
  if (!(flag & F_SAME_TYPE)) *o++ = c->type;
  hfg_copy(o, c->value, c->value_len);
  return hfg_dbe_tail(o + c->value_len, c);
}

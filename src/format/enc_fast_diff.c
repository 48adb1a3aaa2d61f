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

uint8_t *hfg_enc_fast_diff_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                                const hfg_cell *p) {
  if (!p) {
    *o++ = 0;
    o = hfg_dbe_cint(o, (uint32_t)klen);
    o = hfg_dbe_cint(o, (uint32_t)c->value_len);
    *o++ = 0; /* common: 0 */
    hfg_copy(o, key, klen);
    o += klen;
    hfg_copy(o, c->value, c->value_len);
    return hfg_dbe_tail(o + c->value_len, c);
  }
  unsigned flag = 0;
  size_t common = hfg_dbe_common_prefix(c, p, 0);
  if (klen == 12 + p->row_len + p->family_len + p->qualifier_len) flag |= F_SAME_KEY_LEN;
  if (c->value_len == p->value_len) flag |= F_SAME_VALUE_LEN;
  if (c->type == p->type) flag |= F_SAME_TYPE;
  uint8_t ts[8];
  hfg_put_be64(ts, (uint64_t)c->timestamp);
  size_t tsc = hfg_dbe_common_ts(c->timestamp, p->timestamp);
  if (tsc > 7) tsc = 7; /* three bits: at least one timestamp byte is written */
  flag |= (unsigned)tsc;
  if (c->value_len == p->value_len &&
      (c->value_len == 0 || memcmp(c->value, p->value, c->value_len) == 0))
    flag |= F_SAME_VALUE;
  *o++ = (uint8_t)flag;
  o = hfg_dbe_diff_key(o, c, key, klen, common, !(flag & F_SAME_KEY_LEN),
                       !(flag & F_SAME_VALUE_LEN));
  hfg_copy(o, ts + tsc, 8 - tsc);
  o += 8 - tsc;
  if (!(flag & F_SAME_TYPE)) *o++ = c->type;
  if (!(flag & F_SAME_VALUE)) {
    hfg_copy(o, c->value, c->value_len);
    o += c->value_len;
  }
  return hfg_dbe_tail(o, c);
}

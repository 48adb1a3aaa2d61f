/*
 * PREFIX (PrefixKeyDeltaEncoder): per cell
 *   cint(keyLength - common) cint(valueLength) cint(common)
 *   key[common..] value tail
 * where common is the key prefix shared with the previous cell, counted as
 * findCommonPrefixInFlatKey does with the timestamp and type (0 for a
 * block's first cell). format-specs/encodings.md.
 */
#include "format/dbe.h"

#include "util/coding.h"

uint8_t *hfg_enc_prefix_cell(uint8_t *o, const hfg_cell *c, const uint8_t *key, size_t klen,
                             const hfg_cell *p) {
  size_t common = p ? hfg_dbe_common_prefix(c, p, 1) : 0;
  o = hfg_dbe_cint(o, (uint32_t)(klen - common));
  o = hfg_dbe_cint(o, (uint32_t)c->value_len);
  o = hfg_dbe_cint(o, (uint32_t)common);
  hfg_copy(o, key + common, klen - common);
  o += klen - common;
  hfg_copy(o, c->value, c->value_len);
  return hfg_dbe_tail(o + c->value_len, c);
}

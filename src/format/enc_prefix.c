/*
 * PREFIX (PrefixKeyDeltaEncoder): per cell
 *   cint(keyLength - common) cint(valueLength) cint(common)
 *   key[common..] value tail
 * where common is the key prefix shared with the previous cell, counted as
 * findCommonPrefixInFlatKey does with the timestamp and type (0 for a
 * block's first cell). format-specs/encodings.md.
 */
#include "format/dbe.h"

int hfg_enc_prefix_cell(hfg_dbe *e, const hfg_cell *c, const uint8_t *key, size_t klen) {
  size_t common = e->has_prev ? hfg_dbe_common_prefix(c, &e->p, 1) : 0;
  if (hfg_dbe_put_cint(&e->out, (uint32_t)(klen - common)) ||
      hfg_dbe_put_cint(&e->out, (uint32_t)c->value_len) ||
      hfg_dbe_put_cint(&e->out, (uint32_t)common) ||
      hfg_buf_append(&e->out, key + common, klen - common) ||
      hfg_buf_append(&e->out, c->value, c->value_len))
    return HFG_ENOMEM;
  return hfg_dbe_put_tail(&e->out, c);
}

/* KeyValue layout and order: format-specs/keyvalue.md. */
#include "format/kv.h"

#include <string.h>

#include "util/coding.h"

/* Bytes.compareTo: unsigned lexicographic, shorter prefix first. */

int hfg_kv_compare(const hfg_cell *a, const hfg_cell *b) {
  int r = hfg_bytes_cmp(a->row, a->row_len, b->row, b->row_len);
  if (r) return r;
  /* CellComparatorImpl: an empty family+qualifier with type Minimum is the
   * "last on row" key and sorts after every other cell of the row. */
  int a_last = a->family_len == 0 && a->qualifier_len == 0 && a->type == HFG_TYPE_MINIMUM;
  int b_last = b->family_len == 0 && b->qualifier_len == 0 && b->type == HFG_TYPE_MINIMUM;
  if (a_last || b_last) {
    if (a_last && b_last) return 0;
    return a_last ? 1 : -1;
  }
  return hfg_kv_compare_columns(a, b);
}

int hfg_kv_parse_key(const uint8_t *key, size_t len, hfg_cell *out) {
  if (len < HFG_KV_KEY_INFRA) return HFG_ECORRUPT;
  size_t rlen = hfg_get_be16(key);
  if (2 + rlen + 1 > len - 9) return HFG_ECORRUPT;
  size_t flen = key[2 + rlen];
  if (2 + rlen + 1 + flen + 9 > len) return HFG_ECORRUPT;
  memset(out, 0, sizeof *out);
  out->row = key + 2;
  out->row_len = rlen;
  out->family = key + 3 + rlen;
  out->family_len = flen;
  out->qualifier = out->family + flen;
  out->qualifier_len = len - HFG_KV_KEY_INFRA - rlen - flen;
  out->timestamp = (int64_t)hfg_get_be64(key + len - 9);
  out->type = key[len - 1];
  return 0;
}

int hfg_kv_compare_keys(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  hfg_cell ca = {0}, cb = {0};
  hfg_kv_parse_key(a, alen, &ca);
  hfg_kv_parse_key(b, blen, &cb);
  return hfg_kv_compare(&ca, &cb);
}

/* getMinimumMidpointArray (2.5+): the shortest array m with left < m <= right,
 * or length 0 when left == right. left < right is a precondition. */
static size_t min_midpoint(const uint8_t *l, size_t ll, const uint8_t *r, size_t rl,
                           uint8_t *out) {
  size_t n = ll < rl ? ll : rl;
  size_t d = 0;
  while (d < n && l[d] == r[d]) d++;
  if (d == n) {
    if (ll == rl) return 0;
    /* left is a prefix of right: left + 0x00 */
    memcpy(out, l, ll);
    out[ll] = 0x00;
    return ll + 1;
  }
  memcpy(out, l, d + 1);
  out[d] = (uint8_t)(out[d] + 1); /* l[d] < r[d], so l[d] != 0xff */
  return d + 1;
}

size_t hfg_kv_midpoint_key(const hfg_cell *left, const hfg_cell *right, uint8_t *out) {
  if (!left) return (size_t)(hfg_kv_put_key(out, right) - out);
  uint8_t mid[HFG_KV_MAX_ROW + 1];
  hfg_cell k = {0};
  k.timestamp = HFG_LATEST_TIMESTAMP;
  k.type = HFG_TYPE_MAXIMUM;
  size_t m = min_midpoint(left->row, left->row_len, right->row, right->row_len, mid);
  if (m) { /* createFirstOnRow(midRow) */
    k.row = mid;
    k.row_len = m;
    return (size_t)(hfg_kv_put_key(out, &k) - out);
  }
  k.row = right->row;
  k.row_len = right->row_len;
  m = min_midpoint(left->family, left->family_len, right->family, right->family_len, mid);
  if (m) { /* createFirstOnRowFamily(right, midFamily) */
    k.family = mid;
    k.family_len = m;
    return (size_t)(hfg_kv_put_key(out, &k) - out);
  }
  k.family = right->family;
  k.family_len = right->family_len;
  if (left->qualifier_len + 1 <= sizeof mid) {
    m = min_midpoint(left->qualifier, left->qualifier_len, right->qualifier, right->qualifier_len,
                     mid);
    if (m) { /* createFirstOnRowCol(right, midQualifier) */
      k.qualifier = mid;
      k.qualifier_len = m;
      return (size_t)(hfg_kv_put_key(out, &k) - out);
    }
  }
  return (size_t)(hfg_kv_put_key(out, right) - out);
}

/*
 * Sort payload of typed cells (cell_payload.h).
 */
#include "build/cell_payload.h"

#include <string.h>

#include "util/coding.h"

int hfg_cell_payload_begin(hfg_buf *pl, int64_t ts, uint64_t line, uint16_t file) {
  if (hfg_buf_reserve(pl, HFG_CELL_PAYLOAD_HEADER)) return HFG_ENOMEM;
  uint8_t *p = pl->p + pl->len;
  hfg_put_be64(p, (uint64_t)ts);
  hfg_put_be64(p + 8, line);
  hfg_put_be16(p + 16, file);
  pl->len += HFG_CELL_PAYLOAD_HEADER;
  return 0;
}

int hfg_cell_payload_add(hfg_buf *pl, uint16_t fam, const hfg_cell *c) {
  /* KeyValue: key length (row, family, qualifier, 12 more bytes) and value
   * length are int32, tags length uint16 */
  if (c->tags_len > 0xffff || c->qualifier_len > 0x7fffffffu - 0xffff ||
      c->value_len > 0x7fffffffu)
    return HFG_ETOOBIG;
  size_t n = HFG_CELL_FIXED + c->qualifier_len + c->tags_len + c->value_len;
  if (hfg_buf_reserve(pl, n)) return HFG_ENOMEM;
  uint8_t *p = pl->p + pl->len;
  hfg_put_be16(p, fam);
  hfg_put_be32(p + 2, (uint32_t)c->qualifier_len);
  hfg_put_be64(p + 6, (uint64_t)c->timestamp);
  p[14] = c->type;
  hfg_put_be16(p + 15, (uint16_t)c->tags_len);
  hfg_put_be32(p + 17, (uint32_t)c->value_len);
  p += HFG_CELL_FIXED;
  if (c->qualifier_len) memcpy(p, c->qualifier, c->qualifier_len);
  p += c->qualifier_len;
  if (c->tags_len) memcpy(p, c->tags, c->tags_len);
  p += c->tags_len;
  if (c->value_len) memcpy(p, c->value, c->value_len);
  pl->len += n;
  return 0;
}

void hfg_cell_cursor_init(hfg_cell_cursor *cc, const uint8_t *payload, size_t plen) {
  cc->p = plen >= HFG_CELL_PAYLOAD_HEADER ? payload + HFG_CELL_PAYLOAD_HEADER : payload + plen;
  cc->end = payload + plen;
}

int hfg_cell_cursor_next(hfg_cell_cursor *cc, uint16_t *fam, hfg_cell *c) {
  if (cc->p == cc->end) return 0;
  size_t left = (size_t)(cc->end - cc->p);
  if (left < HFG_CELL_FIXED) return HFG_ECORRUPT;
  const uint8_t *p = cc->p;
  size_t qlen = hfg_get_be32(p + 2), tlen = hfg_get_be16(p + 15), vlen = hfg_get_be32(p + 17);
  left -= HFG_CELL_FIXED;
  if (qlen > left || tlen > left - qlen || vlen > left - qlen - tlen) return HFG_ECORRUPT;
  *fam = hfg_get_be16(p);
  c->timestamp = (int64_t)hfg_get_be64(p + 6);
  c->type = p[14];
  p += HFG_CELL_FIXED;
  c->qualifier = p;
  c->qualifier_len = qlen;
  c->tags = tlen ? p + qlen : NULL;
  c->tags_len = tlen;
  c->value = p + qlen + tlen;
  c->value_len = vlen;
  cc->p = p + qlen + tlen + vlen;
  return 1;
}

#include "util/coding.h"

int hfg_buf_put_be16(hfg_buf *b, uint16_t v) {
  if (hfg_buf_reserve(b, 2)) return HFG_ENOMEM;
  hfg_put_be16(b->p + b->len, v);
  b->len += 2;
  return 0;
}

int hfg_buf_put_be32(hfg_buf *b, uint32_t v) {
  if (hfg_buf_reserve(b, 4)) return HFG_ENOMEM;
  hfg_put_be32(b->p + b->len, v);
  b->len += 4;
  return 0;
}

int hfg_buf_put_be64(hfg_buf *b, uint64_t v) {
  if (hfg_buf_reserve(b, 8)) return HFG_ENOMEM;
  hfg_put_be64(b->p + b->len, v);
  b->len += 8;
  return 0;
}

/* WritableUtils.writeVLong (apache/hadoop hadoop-common .../io/WritableUtils.java). */
size_t hfg_vlong_size(int64_t v) {
  if (v >= -112 && v <= 127) return 1;
  uint64_t t = v < 0 ? ~(uint64_t)v : (uint64_t)v;
  size_t n = 0;
  while (t) {
    t >>= 8;
    n++;
  }
  return n + 1;
}

size_t hfg_put_vlong(uint8_t *p, int64_t v) {
  if (v >= -112 && v <= 127) {
    p[0] = (uint8_t)(int8_t)v;
    return 1;
  }
  int len = -112;
  uint64_t t = (uint64_t)v;
  if (v < 0) {
    t = ~t;
    len = -120;
  }
  uint64_t tmp = t;
  while (tmp) {
    tmp >>= 8;
    len--;
  }
  p[0] = (uint8_t)(int8_t)len;
  int n = len < -120 ? -(len + 120) : -(len + 112);
  for (int i = n; i > 0; i--) p[1 + n - i] = (uint8_t)(t >> ((i - 1) * 8));
  return (size_t)n + 1;
}

int hfg_buf_put_vlong(hfg_buf *b, int64_t v) {
  if (hfg_buf_reserve(b, HFG_VLONG_MAX)) return HFG_ENOMEM;
  b->len += hfg_put_vlong(b->p + b->len, v);
  return 0;
}

size_t hfg_vlong_decode_size(int8_t first) {
  if (first >= -112) return 1;
  if (first < -120) return (size_t)(-119 - first);
  return (size_t)(-111 - first);
}

size_t hfg_get_vlong(const uint8_t *p, const uint8_t *end, int64_t *out) {
  if (p >= end) return 0;
  int8_t first = (int8_t)p[0];
  size_t n = hfg_vlong_decode_size(first);
  if ((size_t)(end - p) < n) return 0;
  if (n == 1) {
    *out = first;
    return 1;
  }
  uint64_t v = 0;
  for (size_t i = 1; i < n; i++) v = (v << 8) | p[i];
  int negative = first < -120 || (first >= -112 && first < 0);
  *out = negative ? (int64_t)~v : (int64_t)v;
  return n;
}

size_t hfg_varint_size(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    n++;
  }
  return n;
}

size_t hfg_put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

int hfg_buf_put_varint(hfg_buf *b, uint64_t v) {
  if (hfg_buf_reserve(b, HFG_VARINT_MAX)) return HFG_ENOMEM;
  b->len += hfg_put_varint(b->p + b->len, v);
  return 0;
}

size_t hfg_get_varint(const uint8_t *p, const uint8_t *end, uint64_t *out) {
  uint64_t v = 0;
  for (size_t i = 0; i < HFG_VARINT_MAX && p + i < end; i++) {
    v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    if (!(p[i] & 0x80)) {
      *out = v;
      return i + 1;
    }
  }
  return 0;
}

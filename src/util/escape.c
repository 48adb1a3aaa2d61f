#include "util/escape.h"

static const char HEX[] = "0123456789abcdef";

static size_t escape_one(uint8_t c, char tmp[4]) {
  if (c == '\\') {
    tmp[0] = tmp[1] = '\\';
    return 2;
  }
  if (c >= 0x20 && c <= 0x7e) {
    tmp[0] = (char)c;
    return 1;
  }
  tmp[0] = '\\';
  tmp[1] = 'x';
  tmp[2] = HEX[c >> 4];
  tmp[3] = HEX[c & 15];
  return 4;
}

int hfg_escape(hfg_buf *out, const uint8_t *p, size_t n) {
  if (hfg_buf_reserve(out, n)) return HFG_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    char tmp[4];
    size_t k = escape_one(p[i], tmp);
    if (hfg_buf_append(out, tmp, k)) return HFG_ENOMEM;
  }
  return 0;
}

int hfg_escape_fputs(FILE *f, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char tmp[4];
    size_t k = escape_one(p[i], tmp);
    if (fwrite(tmp, 1, k, f) != k) return HFG_EIO;
  }
  return 0;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int hfg_unescape(hfg_buf *out, const char *s, size_t n, size_t *bad_at) {
  for (size_t i = 0; i < n; i++) {
    uint8_t c = (uint8_t)s[i];
    if (c != '\\') {
      if (hfg_buf_put_u8(out, c)) return HFG_ENOMEM;
      continue;
    }
    if (i + 1 < n && s[i + 1] == '\\') {
      if (hfg_buf_put_u8(out, '\\')) return HFG_ENOMEM;
      i++;
      continue;
    }
    int hi, lo;
    if (i + 3 < n + 0 && s[i + 1] == 'x' && (hi = hexval(s[i + 2])) >= 0 &&
        (lo = hexval(s[i + 3])) >= 0) {
      if (hfg_buf_put_u8(out, (uint8_t)(hi << 4 | lo))) return HFG_ENOMEM;
      i += 3;
      continue;
    }
    if (bad_at) *bad_at = i;
    return HFG_EPARSE;
  }
  return 0;
}

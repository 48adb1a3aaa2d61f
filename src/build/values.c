/*
 * Value encodings of cell values (contract and accepted syntax in values.h).
 * The byte layouts are those of org.apache.hadoop.hbase.util.Bytes in
 * hbase-common: toBytes(long/int/short) write big-endian two's complement,
 * toBytes(double) writes Double.doubleToRawLongBits big-endian, toBytes(float)
 * Float.floatToRawIntBits, toBytes(boolean) one byte ff or 00.
 */
#include "build/values.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/coding.h"

static const char *const enc_names[HFG_VALUE_COUNT_] = {
    [HFG_VALUE_TEXT] = "text",       [HFG_VALUE_LONG] = "long",   [HFG_VALUE_INT] = "int",
    [HFG_VALUE_SHORT] = "short",     [HFG_VALUE_DOUBLE] = "double", [HFG_VALUE_FLOAT] = "float",
    [HFG_VALUE_BOOLEAN] = "boolean", [HFG_VALUE_HEX] = "hex",     [HFG_VALUE_BASE64] = "base64",
};

/* ASCII-only, so the result does not depend on the C locale. */
static int ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c; }

static int ascii_ieq_n(const char *a, size_t n, const char *b) {
  size_t i = 0;
  for (; i < n && b[i]; i++)
    if (ascii_lower((unsigned char)a[i]) != b[i]) return 0;
  return i == n && b[i] == '\0';
}

int hfg_value_encoding_parse(const char *name, hfg_value_encoding *out) {
  if (!name || !out) return -1;
  for (int i = 0; i < HFG_VALUE_COUNT_; i++) {
    if (ascii_ieq_n(name, strlen(name), enc_names[i])) {
      *out = (hfg_value_encoding)i;
      return 0;
    }
  }
  return -1;
}

const char *hfg_value_encoding_name(hfg_value_encoding enc) {
  return (unsigned)enc < HFG_VALUE_COUNT_ ? enc_names[enc] : NULL;
}

/* ---- integers ---- */

static int parse_mag(const char *p, size_t n, int *neg, uint64_t *mag) {
  size_t i = 0;
  *neg = 0;
  if (n > 0 && (p[0] == '+' || p[0] == '-')) {
    *neg = p[0] == '-';
    i = 1;
  }
  if (i == n) return HFG_EPARSE;
  uint64_t v = 0;
  int over = 0;
  for (; i < n; i++) {
    unsigned d = (unsigned)(unsigned char)p[i] - '0';
    if (d > 9) return HFG_EPARSE;
    /* keep scanning after an overflow so "99999999999999999999x" is a syntax error */
    if (v > (UINT64_MAX - d) / 10) over = 1;
    else v = v * 10 + d;
  }
  *mag = v;
  return over ? HFG_ETOOBIG : 0;
}

int hfg_parse_i64(const char *p, size_t n, int64_t *out) {
  int neg;
  uint64_t mag;
  int rc = parse_mag(p, n, &neg, &mag);
  if (rc) return rc;
  if (neg) {
    if (mag > (uint64_t)INT64_MAX + 1) return HFG_ETOOBIG;
    *out = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
  } else {
    if (mag > (uint64_t)INT64_MAX) return HFG_ETOOBIG;
    *out = (int64_t)mag;
  }
  return 0;
}

int hfg_parse_u64(const char *p, size_t n, uint64_t *out) {
  if (n > 0 && p[0] == '-') return HFG_EPARSE;
  int neg;
  uint64_t mag;
  int rc = parse_mag(p, n, &neg, &mag);
  if (rc) return rc;
  *out = mag;
  return 0;
}

/* ---- messages ---- */

/* Writes text quoted for a message: printable ASCII as is, other bytes \xNN,
 * cut after 40 input bytes with "...". */
static void quote_text(char *dst, size_t cap, const char *t, size_t n) {
  static const char hex[] = "0123456789abcdef";
  size_t o = 0, lim = n > 40 ? 40 : n;
  for (size_t i = 0; i < lim && o + 5 < cap; i++) {
    unsigned char c = (unsigned char)t[i];
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      dst[o++] = (char)c;
    } else {
      dst[o++] = '\\';
      dst[o++] = 'x';
      dst[o++] = hex[c >> 4];
      dst[o++] = hex[c & 15];
    }
  }
  if (n > lim && o + 4 < cap) {
    memcpy(dst + o, "...", 3);
    o += 3;
  }
  dst[o] = '\0';
}

static int fail(char *err, size_t errlen, const char *text, size_t len, const char *fmt,
                const char *what) {
  if (err && errlen) {
    char q[200];
    quote_text(q, sizeof q, text, len);
    snprintf(err, errlen, fmt, q, what);
  }
  return HFG_EPARSE;
}

/* ---- floating point ---- */

static int hexval(unsigned char c);

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* Scans digits of base 10 (hex 0) or 16 from *i; returns how many. */
static size_t scan_digits(const char *p, size_t n, size_t *i, int hex) {
  size_t k = 0;
  while (*i < n && (hex ? hexval((unsigned char)p[*i]) >= 0 : is_digit((unsigned char)p[*i]))) {
    (*i)++;
    k++;
  }
  return k;
}

/* Java's grammar for a trimmed number (FloatingDecimal.readJavaFormatString):
 * [+-] then "NaN" | "Infinity" | decimal | hex, the last two with an optional
 * f/F/d/D suffix. Decimal: digits [. digits] (one digit at least) [e|E [+-]
 * digits]. Hex: 0x|0X then hexdigits [.] or [hexdigits] . hexdigits, then
 * p|P [+-] digits (the binary exponent is required). Returns the length
 * without the suffix, 0 for text that is not a number; *special is 'N' or
 * 'I' for NaN / Infinity, else 0. */
static size_t java_number_len(const char *p, size_t n, int *special) {
  size_t i = 0;
  *special = 0;
  if (i < n && (p[i] == '+' || p[i] == '-')) i++;
  if (n - i == 3 && memcmp(p + i, "NaN", 3) == 0) return *special = 'N', n;
  if (n - i == 8 && memcmp(p + i, "Infinity", 8) == 0) return *special = 'I', n;
  int hex = n - i >= 2 && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X');
  if (hex) i += 2;
  size_t mant = scan_digits(p, n, &i, hex);
  if (i < n && p[i] == '.') {
    i++;
    mant += scan_digits(p, n, &i, hex);
  }
  if (mant == 0) return 0;
  if (i < n && (hex ? (p[i] == 'p' || p[i] == 'P') : (p[i] == 'e' || p[i] == 'E'))) {
    i++;
    if (i < n && (p[i] == '+' || p[i] == '-')) i++;
    if (scan_digits(p, n, &i, 0) == 0) return 0;
  } else if (hex) {
    return 0;
  }
  if (i == n) return n;
  if (i + 1 == n && (p[i] == 'f' || p[i] == 'F' || p[i] == 'd' || p[i] == 'D')) return i;
  return 0;
}

/* Parses a double or float the way values.h describes; 0 or HFG_EPARSE (or
 * HFG_ENOMEM). The text is checked against Java's grammar first, so strtod's
 * own extras ("inf", "nan(...)", hex without exponent, leading white space of
 * the locale) never get through; strtod/strtof then round the checked text
 * (no setlocale anywhere in hfilegen, so '.' is the radix character). */
static int parse_float(const char *p, size_t n, int is_float, double *d, float *f) {
  /* String.trim(): every char <= ' ' at either end */
  while (n > 0 && (unsigned char)p[0] <= ' ') p++, n--;
  while (n > 0 && (unsigned char)p[n - 1] <= ' ') n--;
  int special;
  size_t len = java_number_len(p, n, &special);
  if (len == 0) return HFG_EPARSE;
  if (special) {
    double v = special == 'N' ? NAN : p[0] == '-' ? -INFINITY : INFINITY;
    if (is_float) *f = (float)v;
    else *d = v;
    return 0;
  }
  char small[128], *tmp = small;
  if (len >= sizeof small && !(tmp = malloc(len + 1))) return HFG_ENOMEM;
  memcpy(tmp, p, len);
  tmp[len] = '\0';
  char *end;
  /* overflow gives ±HUGE_VAL (= Infinity) and underflow zero or a subnormal,
   * both with ERANGE, which Java does not treat as errors either */
  if (is_float) *f = strtof(tmp, &end);
  else *d = strtod(tmp, &end);
  int rc = end == tmp + len ? 0 : HFG_EPARSE;
  if (tmp != small) free(tmp);
  return rc;
}

/* ---- hex / base64 ---- */

static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (unsigned char)ascii_lower(c);
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

static int b64val(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

/* Decodes into o (room for n/4*3 bytes); returns the byte count or -1. */
static long b64_decode(const char *t, size_t n, uint8_t *o) {
  if (n % 4) return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; i += 4) {
    int v[4], pad = 0;
    for (int j = 0; j < 4; j++) {
      unsigned char c = (unsigned char)t[i + j];
      if (c == '=') {
        /* padding: only in the last quantum, only as its last one or two symbols */
        if (i + 4 != n || j < 2) return -1;
        pad++;
        v[j] = 0;
      } else {
        if (pad) return -1;
        v[j] = b64val(c);
        if (v[j] < 0) return -1;
      }
    }
    uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
    if ((pad == 1 && (w & 0xff)) || (pad == 2 && (w & 0xffff))) return -1; /* non-canonical */
    o[k++] = (uint8_t)(w >> 16);
    if (pad < 2) o[k++] = (uint8_t)(w >> 8);
    if (pad < 1) o[k++] = (uint8_t)w;
  }
  return (long)k;
}

/* ---- the encoder ---- */

int hfg_value_encode(hfg_value_encoding enc, const char *text, size_t len, hfg_buf *out,
                     char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  int rc;
  switch (enc) {
  case HFG_VALUE_TEXT:
    return hfg_buf_append(out, text, len);

  case HFG_VALUE_LONG:
  case HFG_VALUE_INT:
  case HFG_VALUE_SHORT: {
    int64_t v;
    rc = hfg_parse_i64(text, len, &v);
    if (rc == HFG_EPARSE) return fail(err, errlen, text, len, "'%s' is not %s", enc == HFG_VALUE_INT ? "an int" : enc == HFG_VALUE_LONG ? "a long" : "a short");
    if (rc == 0 && enc == HFG_VALUE_INT && (v < INT32_MIN || v > INT32_MAX)) rc = HFG_ETOOBIG;
    if (rc == 0 && enc == HFG_VALUE_SHORT && (v < INT16_MIN || v > INT16_MAX)) rc = HFG_ETOOBIG;
    /* the type's range named: a 30-digit id is a number, just not one the type holds */
    if (rc)
      return fail(err, errlen, text, len, "'%s' is out of range for %s",
                  enc == HFG_VALUE_LONG  ? "long (a 64-bit integer: -9223372036854775808 to "
                                           "9223372036854775807)"
                  : enc == HFG_VALUE_INT ? "int (a 32-bit integer: -2147483648 to 2147483647)"
                                         : "short (a 16-bit integer: -32768 to 32767)");
    if (enc == HFG_VALUE_LONG) return hfg_buf_put_be64(out, (uint64_t)v);
    if (enc == HFG_VALUE_INT) return hfg_buf_put_be32(out, (uint32_t)(int32_t)v);
    return hfg_buf_put_be16(out, (uint16_t)(int16_t)v);
  }

  case HFG_VALUE_DOUBLE:
  case HFG_VALUE_FLOAT: {
    int is_float = enc == HFG_VALUE_FLOAT;
    double d = 0;
    float f = 0;
    rc = parse_float(text, len, is_float, &d, &f);
    if (rc == HFG_EPARSE)
      return fail(err, errlen, text, len, "'%s' is not %s", is_float ? "a float" : "a double");
    if (rc) return rc;
    if (is_float) {
      uint32_t bits;
      memcpy(&bits, &f, 4);
      if (isnan(f)) bits = 0x7fc00000u;
      return hfg_buf_put_be32(out, bits);
    }
    uint64_t bits;
    memcpy(&bits, &d, 8);
    if (isnan(d)) bits = 0x7ff8000000000000ull;
    return hfg_buf_put_be64(out, bits);
  }

  case HFG_VALUE_BOOLEAN:
    if ((len == 1 && text[0] == '1') || ascii_ieq_n(text, len, "true")) return hfg_buf_put_u8(out, 0xff);
    if ((len == 1 && text[0] == '0') || ascii_ieq_n(text, len, "false")) return hfg_buf_put_u8(out, 0x00);
    return fail(err, errlen, text, len, "'%s' is not %s", "a boolean");

  case HFG_VALUE_HEX: {
    if (len % 2) return fail(err, errlen, text, len, "'%s' is not %s", "hex (odd number of digits)");
    for (size_t i = 0; i < len; i++)
      if (hexval((unsigned char)text[i]) < 0) return fail(err, errlen, text, len, "'%s' is not %s", "hex");
    if ((rc = hfg_buf_reserve(out, len / 2))) return rc;
    for (size_t i = 0; i < len; i += 2)
      out->p[out->len++] = (uint8_t)(hexval((unsigned char)text[i]) << 4 | hexval((unsigned char)text[i + 1]));
    return 0;
  }

  case HFG_VALUE_BASE64: {
    if ((rc = hfg_buf_reserve(out, len / 4 * 3))) return rc;
    long k = b64_decode(text, len, out->p + out->len);
    if (k < 0) return fail(err, errlen, text, len, "'%s' is not %s", "base64");
    out->len += (size_t)k;
    return 0;
  }

  default:
    break;
  }
  if (err && errlen) snprintf(err, errlen, "unknown value encoding %d", (int)enc);
  return HFG_EINVAL;
}

/* ---- UTF-8 ---- */

int hfg_utf8_valid(const char *s, size_t n) {
  const unsigned char *p = (const unsigned char *)s, *end = p + n;
  while (p < end) {
    /* ASCII runs dominate real data: test 8 bytes per step */
    while (end - p >= 8) {
      uint64_t w;
      memcpy(&w, p, 8);
      if (w & 0x8080808080808080ull) break;
      p += 8;
    }
    if (p == end) break;
    unsigned c = *p;
    if (c < 0x80) {
      p++;
      continue;
    }
    size_t need;
    unsigned lo = 0x80, hi = 0xbf; /* allowed range of the first continuation byte */
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c == 0xe0) lo = 0xa0;        /* overlong */
      else if (c == 0xed) hi = 0x9f;   /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c == 0xf0) lo = 0x90;        /* overlong */
      else if (c == 0xf4) hi = 0x8f;   /* above U+10FFFF */
    } else {
      return 0; /* 80..c1 (continuation or overlong lead), f5..ff */
    }
    if ((size_t)(end - p) <= need) return 0;
    if (p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i <= need; i++)
      if ((p[i] & 0xc0) != 0x80) return 0;
    p += need + 1;
  }
  return 1;
}

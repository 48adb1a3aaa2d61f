/*
 * Client-side calculators: the rowkey for given values and human renderings
 * of a key (hfilegen escaping, hbase shell, Java); scan ranges are scan.c.
 * format-specs/rowkey-templates.md, "Calculators".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme/scheme_internal.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

#define KEY_CAP 32768 /* HBase rows are at most 32767 bytes */

int scheme_bind(const hfg_scheme *s, const hfg_named_value *vals, size_t n, hfg_field **out,
                char *em, size_t el) {
  hfg_field *f = hfg_calloc(s->ncols + 1, sizeof *f);
  if (!f) return scheme_errf(em, el, HFG_ENOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    long c = hfg_scheme_column_index(s, vals[i].name);
    if (c < 0 || !s->col_used[c]) {
      hfg_free(f);
      return scheme_errf(em, el, HFG_EINVAL, "the template has no column '%s'", vals[i].name);
    }
    f[c] = vals[i].value;
    if (!f[c].p) f[c].p = "";
  }
  *out = f;
  return 0;
}

int hfg_scheme_key(const hfg_scheme *s, const hfg_named_value *vals, size_t nvals, uint8_t **key,
                   size_t *len, char *errmsg, size_t errlen) {
  *key = NULL;
  hfg_field *f;
  int rc = scheme_bind(s, vals, nvals, &f, errmsg, errlen);
  if (rc) return rc;
  for (size_t c = 0; c < s->ncols; c++)
    if (s->col_used[c] && !f[c].p) {
      hfg_free(f);
      return scheme_errf(errmsg, errlen, HFG_EINVAL, "no value given for column '%s'", s->cols[c]);
    }
  uint8_t *buf = hfg_malloc(KEY_CAP);
  if (!buf) {
    hfg_free(f);
    return scheme_errf(errmsg, errlen, HFG_ENOMEM, "out of memory");
  }
  rc = hfg_scheme_eval(s, f, s->ncols, buf, KEY_CAP - 1, len, errmsg, errlen);
  hfg_free(f);
  if (rc) {
    hfg_free(buf);
    return rc;
  }
  uint8_t *k = hfg_realloc(buf, *len ? *len : 1);
  *key = k ? k : buf;
  return 0;
}

/* ---- key renderings ---- */

static int printable(const uint8_t *k, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (k[i] < 0x20 || k[i] > 0x7e) return 0;
  return 1;
}

int hfg_key_format(const uint8_t *key, size_t len, hfg_keyfmt fmt, char **out) {
  *out = NULL;
  hfg_buf b = HFG_BUF_INIT;
  int rc = 0;
  char t[24];
  if (fmt == HFG_KEYFMT_ESCAPED) {
    rc = hfg_escape(&b, key, len);
  } else if (fmt == HFG_KEYFMT_SHELL) {
    /* Ruby double-quoted string: \xNN for bytes, escape " \ and # (interpolation). */
    rc = hfg_buf_put_u8(&b, '"');
    for (size_t i = 0; i < len && !rc; i++) {
      uint8_t c = key[i];
      if (c == '"' || c == '\\' || c == '#') {
        t[0] = '\\';
        t[1] = (char)c;
        rc = hfg_buf_append(&b, t, 2);
      } else if (c >= 0x20 && c <= 0x7e) {
        rc = hfg_buf_put_u8(&b, c);
      } else {
        snprintf(t, sizeof t, "\\x%02X", c);
        rc = hfg_buf_append(&b, t, 4);
      }
    }
    if (!rc) rc = hfg_buf_put_u8(&b, '"');
  } else if (printable(key, len)) {
    rc = hfg_buf_append(&b, "Bytes.toBytes(\"", 15);
    for (size_t i = 0; i < len && !rc; i++) {
      if (key[i] == '"' || key[i] == '\\') rc = hfg_buf_put_u8(&b, '\\');
      if (!rc) rc = hfg_buf_put_u8(&b, key[i]);
    }
    if (!rc) rc = hfg_buf_append(&b, "\")", 2);
  } else {
    rc = hfg_buf_append(&b, "new byte[] {", 12);
    for (size_t i = 0; i < len && !rc; i++) {
      int n = snprintf(t, sizeof t, "%s%s0x%02x", i ? ", " : "", key[i] >= 0x80 ? "(byte) " : "",
                       key[i]);
      rc = hfg_buf_append(&b, t, (size_t)n);
    }
    if (!rc) rc = hfg_buf_put_u8(&b, '}');
  }
  if (!rc) rc = hfg_buf_put_u8(&b, '\0');
  if (rc) {
    hfg_buf_free(&b);
    return HFG_ENOMEM;
  }
  *out = (char *)b.p;
  return 0;
}

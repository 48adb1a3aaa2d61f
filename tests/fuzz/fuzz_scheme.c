/*
 * Fuzz target: the rowkey template language (include/hfilegen/scheme.h):
 * compile, eval, the key calculator, bucket introspection, split points and
 * lint. Byte 0 configures (columns from a fixed header or from the template;
 * a small output capacity; split and lint runs); then the template up to the
 * first newline; then tab-separated field values. Checks: errors carry a
 * message; eval is deterministic, respects its capacity (HFG_ETOOBIG, never
 * an overrun) and agrees with hfg_scheme_key on the same values.
 */
#include <string.h>

#include "fuzz.h"
#include "hfilegen/scheme.h"

static const char *const COLS[] = {"id", "user_id", "created_at", "amount", "status",
                                   "note", "ts", "a", "b", "c"};
#define NCOLS (sizeof COLS / sizeof *COLS)
#define MAXF 32
#define KEYCAP 32768

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 65536) return 0;
  uint8_t cfg = data[0];
  data++, size--;
  const uint8_t *nl = memchr(data, '\n', size);
  size_t tl = nl ? (size_t)(nl - data) : size;
  char *tmpl = malloc(tl + 1);
  if (!tmpl) return 0;
  memcpy(tmpl, data, tl);
  tmpl[tl] = 0;
  hfg_field vals[MAXF];
  size_t nvals = 0;
  if (nl) {
    const uint8_t *p = nl + 1, *end = data + size;
    while (nvals < MAXF) {
      const uint8_t *t = memchr(p, '\t', (size_t)(end - p));
      vals[nvals].p = (const char *)p;
      vals[nvals].len = (size_t)((t ? t : end) - p);
      nvals++;
      if (!t) break;
      p = t + 1;
    }
  }

  hfg_scheme *s = NULL;
  char msg[512] = "";
  int rc = (cfg & 1) ? hfg_scheme_compile(tmpl, NULL, 0, &s, msg, sizeof msg)
                     : hfg_scheme_compile(tmpl, COLS, NCOLS, &s, msg, sizeof msg);
  if (rc) {
    FZ_ASSERT(rc < 0 && msg[0] != '\0');
    free(tmpl);
    return 0;
  }
  size_t ncol = hfg_scheme_column_count(s);
  FZ_ASSERT((cfg & 1) || ncol == NCOLS);
  hfg_field *f = calloc(ncol ? ncol : 1, sizeof *f);
  hfg_named_value *nv = calloc(ncol ? ncol : 1, sizeof *nv);
  uint8_t *out = malloc(KEYCAP), *out2 = malloc(KEYCAP);
  if (!f || !nv || !out || !out2) goto done;
  for (size_t i = 0; i < ncol; i++) {
    if (i < nvals) f[i] = vals[i];
    else f[i] = (hfg_field){"", 0, 0};
    nv[i].name = hfg_scheme_column_name(s, i);
    nv[i].value = f[i];
    FZ_ASSERT(nv[i].name != NULL);
    FZ_ASSERT(hfg_scheme_column_index(s, nv[i].name) >= 0);
  }
  FZ_ASSERT(hfg_scheme_template(s) != NULL);

  size_t len = 0, len2 = 0;
  char why[512] = "";
  rc = hfg_scheme_eval(s, f, ncol, out, KEYCAP, &len, why, sizeof why);
  if (rc == 0) {
    FZ_ASSERT(len <= KEYCAP);
    FZ_ASSERT(hfg_scheme_eval(s, f, ncol, out2, KEYCAP, &len2, NULL, 0) == 0);
    FZ_ASSERT(len2 == len && !memcmp(out, out2, len));
    size_t cap = (cfg >> 1) & 15;
    int r2 = hfg_scheme_eval(s, f, ncol, out2, cap, &len2, why, sizeof why);
    FZ_ASSERT(r2 == HFG_ETOOBIG || (r2 == 0 && len2 == len && len <= cap));
    uint8_t *key = NULL;
    size_t klen = 0;
    int kr = hfg_scheme_key(s, nv, ncol, &key, &klen, why, sizeof why);
    if (kr == 0) {
      FZ_ASSERT(klen == len && (len == 0 || !memcmp(key, out, len)));
      hfg_scheme_buf_free(key);
    }
    for (int fmt = HFG_KEYFMT_ESCAPED; fmt <= HFG_KEYFMT_JAVA; fmt++) {
      char *txt = NULL;
      if (hfg_key_format(out, len, (hfg_keyfmt)fmt, &txt) == 0) {
        FZ_ASSERT(txt != NULL);
        hfg_scheme_buf_free(txt);
      }
    }
  } else {
    FZ_ASSERT(rc == HFG_ETOOBIG || (rc == HFG_EPARSE && why[0] != '\0'));
  }

  hfg_bucket_info b;
  hfg_scheme_bucket(s, &b);
  if (cfg & 0x20) {
    uint64_t regions = 1 + (uint64_t)(cfg >> 6) * 5;
    hfg_keylist *keys = NULL;
    hfg_findings *warn = NULL;
    int sr = hfg_splits_compute(s, b.kind != HFG_BUCKET_NONE ? HFG_SPLIT_SCHEME : HFG_SPLIT_HEX,
                                regions, &keys, &warn, msg, sizeof msg);
    if (sr == 0) {
      FZ_ASSERT(hfg_keylist_count(keys) == regions - 1);
      hfg_keylist_free(keys);
    }
    hfg_findings_free(warn);
  }
  if (cfg & 0x10) {
    hfg_lint *l = NULL;
    if (hfg_lint_new(s, 8, &l) == 0) {
      hfg_lint_add(l, f, ncol);
      hfg_findings *fs = NULL;
      if (hfg_lint_finish(l, &fs) == 0) {
        for (size_t i = 0; i < hfg_findings_count(fs); i++)
          FZ_ASSERT(hfg_findings_get(fs, i)->message != NULL);
        hfg_findings_free(fs);
      }
    }
    hfg_lint_free(l);
  }
done:
  free(out);
  free(out2);
  free(f);
  free(nv);
  hfg_scheme_free(s);
  free(tmpl);
  return 0;
}

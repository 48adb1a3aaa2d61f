/*
 * The two result containers of the scheme tools: a list of byte strings
 * (split keys, scan range bounds) and a list of findings (lint results,
 * split warnings). Internal builders append; the public side only reads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "scheme/lists.h"
#include "util/alloc.h"

struct hfg_keylist {
  hfg_buf bytes;   /* all keys back to back */
  hfg_buf offs;    /* size_t start offsets, one per key, plus the end */
  size_t n;
};

hfg_keylist *keylist_new(void) {
  hfg_keylist *l = hfg_calloc(1, sizeof *l);
  if (!l) return NULL;
  size_t zero = 0;
  if (hfg_buf_append(&l->offs, &zero, sizeof zero)) {
    hfg_free(l);
    return NULL;
  }
  return l;
}

int keylist_add(hfg_keylist *l, const void *p, size_t len) {
  size_t end = l->bytes.len + len;
  if (hfg_buf_reserve(&l->offs, sizeof end)) return HFG_ENOMEM;
  if (len && hfg_buf_append(&l->bytes, p, len)) return HFG_ENOMEM;
  hfg_buf_append(&l->offs, &end, sizeof end); /* reserved above: cannot fail */
  l->n++;
  return 0;
}

size_t hfg_keylist_count(const hfg_keylist *l) { return l ? l->n : 0; }

const uint8_t *hfg_keylist_get(const hfg_keylist *l, size_t i, size_t *len) {
  const size_t *o = (const size_t *)l->offs.p;
  *len = o[i + 1] - o[i];
  return l->bytes.p ? l->bytes.p + o[i] : (const uint8_t *)"";
}

void hfg_keylist_free(hfg_keylist *l) {
  if (!l) return;
  hfg_buf_free(&l->bytes);
  hfg_buf_free(&l->offs);
  hfg_free(l);
}

struct hfg_findings {
  hfg_finding *v;
  size_t n, cap;
};

hfg_findings *findings_new(void) { return hfg_calloc(1, sizeof(hfg_findings)); }

static char *vfmt(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) return NULL;
  char *s = hfg_malloc((size_t)n + 1);
  if (s) vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

int findings_add(hfg_findings *f, hfg_severity sev, const char *code, const char *why,
                 const char *fix, const char *fmt, ...) {
  if (f->n == f->cap) {
    size_t cap = f->cap ? 2 * f->cap : 8;
    hfg_finding *v = hfg_realloc(f->v, cap * sizeof *v);
    if (!v) return HFG_ENOMEM;
    f->v = v;
    f->cap = cap;
  }
  va_list ap;
  va_start(ap, fmt);
  char *msg = vfmt(fmt, ap);
  va_end(ap);
  char *w = hfg_strdup(why), *x = hfg_strdup(fix);
  if (!msg || !w || !x) {
    hfg_free(msg);
    hfg_free(w);
    hfg_free(x);
    return HFG_ENOMEM;
  }
  f->v[f->n++] = (hfg_finding){sev, code, msg, w, x};
  return 0;
}

size_t hfg_findings_count(const hfg_findings *f) { return f ? f->n : 0; }
const hfg_finding *hfg_findings_get(const hfg_findings *f, size_t i) { return &f->v[i]; }

int hfg_findings_max_severity(const hfg_findings *f) {
  int m = -1;
  for (size_t i = 0; f && i < f->n; i++)
    if ((int)f->v[i].severity > m) m = (int)f->v[i].severity;
  return m;
}

void hfg_findings_free(hfg_findings *f) {
  if (!f) return;
  for (size_t i = 0; i < f->n; i++) {
    hfg_free((void *)f->v[i].message);
    hfg_free((void *)f->v[i].why);
    hfg_free((void *)f->v[i].fix);
  }
  hfg_free(f->v);
  hfg_free(f);
}

const char *hfg_severity_name(hfg_severity s) {
  return s == HFG_SEV_ERROR ? "error" : s == HFG_SEV_WARNING ? "warning" : "info";
}

void hfg_scheme_buf_free(void *p) { hfg_free(p); }

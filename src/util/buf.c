#include "util/buf.h"

#include "util/alloc.h"

int hfg_buf_reserve(hfg_buf *b, size_t extra) {
  if (b->cap - b->len >= extra) return 0;
  size_t need = b->len + extra;
  if (need < b->len) return HFG_ENOMEM; /* overflow */
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need) {
    if (cap > SIZE_MAX / 2) {
      cap = need;
      break;
    }
    cap *= 2;
  }
  uint8_t *p = hfg_realloc(b->p, cap);
  if (!p) return HFG_ENOMEM;
  b->p = p;
  b->cap = cap;
  return 0;
}

int hfg_buf_append(hfg_buf *b, const void *p, size_t n) {
  if (n == 0) return 0;
  if (hfg_buf_reserve(b, n)) return HFG_ENOMEM;
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

void hfg_buf_trim(hfg_buf *b, size_t keep) {
  if (b->len || b->cap <= keep) return;
  uint8_t *p = keep ? hfg_realloc(b->p, keep) : NULL;
  if (keep && !p) return; /* kept as it was */
  if (!keep) hfg_free(b->p);
  b->p = p;
  b->cap = keep;
}

void hfg_buf_free(hfg_buf *b) {
  hfg_free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

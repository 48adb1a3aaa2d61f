/*
 * Growable byte buffer. Zero-initialise (HFG_BUF_INIT) before use; free with
 * hfg_buf_free. Append calls return 0 or HFG_ENOMEM and leave the buffer
 * unchanged on failure.
 */
#ifndef HFG_UTIL_BUF_H
#define HFG_UTIL_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hfilegen/status.h"

typedef struct hfg_buf {
  uint8_t *p;
  size_t len;
  size_t cap;
} hfg_buf;

#define HFG_BUF_INIT {NULL, 0, 0}

/* Ensures room for `extra` more bytes beyond len. */
int hfg_buf_reserve(hfg_buf *b, size_t extra);
int hfg_buf_append(hfg_buf *b, const void *p, size_t n);
void hfg_buf_free(hfg_buf *b);
/* An empty buffer grown past keep bytes (by one long record) goes back to keep, so that
 * the long record's bytes do not stay resident; otherwise nothing changes. */
void hfg_buf_trim(hfg_buf *b, size_t keep);

static inline void hfg_buf_reset(hfg_buf *b) { b->len = 0; }

static inline int hfg_buf_put_u8(hfg_buf *b, uint8_t v) {
  if (b->len == b->cap && hfg_buf_reserve(b, 1)) return HFG_ENOMEM;
  b->p[b->len++] = v;
  return 0;
}

#endif

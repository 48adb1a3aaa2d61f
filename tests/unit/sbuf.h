/*
 * A growing, NUL-terminated byte string for the unit tests that build inputs
 * and expected outputs piece by piece (the record reader's tests). Test code:
 * an allocation failure is not handled.
 */
#ifndef HFG_TEST_SBUF_H
#define HFG_TEST_SBUF_H

#include <stdlib.h>
#include <string.h>

typedef struct {
  char *p;
  size_t len, cap;
} sbuf;

static inline void sb_add(sbuf *b, const void *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = '\0';
}
static inline void sb_str(sbuf *b, const char *s) { sb_add(b, s, strlen(s)); }

#endif

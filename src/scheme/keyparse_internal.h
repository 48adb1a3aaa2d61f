/*
 * Internal layout of a compiled old-key pattern (include/hfilegen/keyparse.h):
 * a flat list of elements, literal bytes or one field each, walked in order
 * by hfg_keyparse_parse.
 */
#ifndef HFG_KEYPARSE_INTERNAL_H
#define HFG_KEYPARSE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

enum kelem_kind {
  K_LIT,   /* literal bytes */
  K_TEXT,  /* any length; `end` says where it stops */
  K_NUM,   /* `width` (2, 4, 8) signed big-endian bytes, yielded as decimal text */
  K_BYTES  /* `width` raw bytes */
};

enum kelem_end {
  END_KEY,    /* the last element: the rest of the key */
  END_SUFFIX, /* only fixed-width elements follow: the key's end less `suffix` bytes */
  END_LIT     /* the first occurrence of the literal element after it */
};

typedef struct kelem {
  uint8_t kind;     /* kelem_kind */
  uint8_t end;      /* K_TEXT: kelem_end */
  int32_t field;    /* index of the named field, -1 for literals and `_` */
  uint32_t pos;     /* 0-based offset in the pattern, for messages */
  uint32_t lit, llen; /* K_LIT: bytes in the pool */
  uint32_t width;   /* K_NUM, K_BYTES: bytes */
  size_t suffix;    /* K_TEXT with END_SUFFIX: the fixed bytes after it */
} kelem;

struct hfg_keyparse {
  char *pattern;
  char **names;     /* nnames named fields and a NULL */
  size_t nnames;
  kelem *el;
  size_t nel;
  uint8_t *pool;
};

#endif

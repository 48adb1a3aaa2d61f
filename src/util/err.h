/*
 * Error detail carried by library objects: a status code plus a message that
 * names what failed ("block at offset 4096: checksum mismatch in chunk 2").
 * The first error set is kept ("sticky"); later ones are ignored until reset.
 */
#ifndef HFG_UTIL_ERR_H
#define HFG_UTIL_ERR_H

#include "hfilegen/status.h"

#define HFG_ERRMSG_MAX 1024

typedef struct hfg_err {
  int code;                   /* 0 or a negative HFG_E* code */
  char msg[HFG_ERRMSG_MAX];   /* NUL-terminated; "" when code == 0 */
} hfg_err;

/* Records code and a printf-style message unless an error is already held.
 * Returns the code held afterwards (so `return hfg_err_set(...)` works). */
int hfg_err_set(hfg_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Like hfg_err_set, but overwrites a held error. */
int hfg_err_force(hfg_err *e, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the held message with "prefix: " (used to add context going up). */
void hfg_err_prefix(hfg_err *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static inline void hfg_err_clear(hfg_err *e) {
  e->code = 0;
  e->msg[0] = '\0';
}

#endif

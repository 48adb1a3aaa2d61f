#include "util/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int err_vset(hfg_err *e, int code, const char *fmt, va_list ap) {
  e->code = code;
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  return code;
}

int hfg_err_set(hfg_err *e, int code, const char *fmt, ...) {
  if (e->code != 0) return e->code;
  va_list ap;
  va_start(ap, fmt);
  err_vset(e, code, fmt, ap);
  va_end(ap);
  return code;
}

int hfg_err_force(hfg_err *e, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  err_vset(e, code, fmt, ap);
  va_end(ap);
  return code;
}

void hfg_err_prefix(hfg_err *e, const char *fmt, ...) {
  char prefix[HFG_ERRMSG_MAX];
  char old[HFG_ERRMSG_MAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(prefix, sizeof prefix, fmt, ap);
  va_end(ap);
  memcpy(old, e->msg, sizeof old);
  size_t n = strlen(prefix);
  if (n > sizeof e->msg - 3) n = sizeof e->msg - 3;
  memcpy(e->msg, prefix, n);
  e->msg[n] = ':';
  e->msg[n + 1] = ' ';
  size_t room = sizeof e->msg - (n + 2) - 1;
  size_t m = strlen(old);
  if (m > room) m = room;
  memcpy(e->msg + n + 2, old, m);
  e->msg[n + 2 + m] = '\0';
}

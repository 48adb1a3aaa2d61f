/*
 * hfilegen status codes.
 *
 * Every fallible call in the library returns an int: 0 on success, a negative
 * HFG_E* code on failure. Objects that can fail (writers, readers, jobs) also keep
 * a message naming what failed; fetch it with the object's *_errmsg() call.
 * The list below is the single source of the codes and their short names.
 */
#ifndef HFILEGEN_STATUS_H
#define HFILEGEN_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

/* X(name, value, short description) */
#define HFG_STATUS_LIST(X)                                                   \
  X(HFG_OK, 0, "ok")                                                         \
  X(HFG_ENOMEM, -1, "out of memory")                                         \
  X(HFG_EIO, -2, "I/O error")                                                \
  X(HFG_EINVAL, -3, "invalid argument")                                      \
  X(HFG_EORDER, -4, "cells out of order")                                    \
  X(HFG_ECORRUPT, -5, "corrupt or unsupported file")                         \
  X(HFG_ECHECKSUM, -6, "checksum mismatch")                                  \
  X(HFG_ECODEC, -7, "compression codec error")                               \
  X(HFG_ETOOBIG, -8, "value exceeds a format limit")                         \
  X(HFG_ESTATE, -9, "call not allowed in this state")                        \
  X(HFG_EPARSE, -10, "parse error")                                          \
  X(HFG_EDUP, -11, "duplicate key")                                          \
  X(HFG_ENOSPC, -12, "no space left on device")                              \
  X(HFG_EREJECT, -13, "too many rejected records")                           \
  X(HFG_EVERIFY, -14, "verification failed")                                 \
  X(HFG_EUNSUPPORTED, -15, "unsupported feature")                           \
  X(HFG_ECANCELED, -16, "canceled")

enum hfg_status {
#define HFG_X_ENUM(name, value, desc) name = value,
  HFG_STATUS_LIST(HFG_X_ENUM)
#undef HFG_X_ENUM
};

/* Short, static description of a status code ("out of memory"). Never NULL. */
const char *hfg_strerror(int status);

/* Symbolic name of a status code ("HFG_ENOMEM"). Never NULL. */
const char *hfg_status_name(int status);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif

/*
 * The byte escaping used by every hfilegen text format (cells TSV, splits
 * files, inspect output): bytes 0x20..0x7e stand for themselves except the
 * backslash, written "\\"; every other byte is "\xNN" with lowercase hex.
 * Tab and newline therefore never appear raw, so escaped fields can be joined
 * with tabs and lines. Unescaping also accepts uppercase hex digits.
 */
#ifndef HFG_UTIL_ESCAPE_H
#define HFG_UTIL_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/buf.h"

/* Appends the escaped form of p[0..n) to out (no terminating NUL). */
int hfg_escape(hfg_buf *out, const uint8_t *p, size_t n);

/* Writes the escaped form to a stdio stream; returns 0 or HFG_EIO. */
int hfg_escape_fputs(FILE *f, const uint8_t *p, size_t n);

/* Appends the bytes that s[0..n) denotes to out. HFG_EPARSE when s holds a
 * stray backslash or a malformed \x escape; *bad_at (if non-NULL) then gets the
 * offset of the offending character. */
int hfg_unescape(hfg_buf *out, const char *s, size_t n, size_t *bad_at);

#endif

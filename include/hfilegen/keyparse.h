/*
 * Old-key patterns: reading an existing HBase rowkey back into named fields,
 * so that a table can be re-keyed offline (issue #26: the old key is parsed
 * with --old-key, the new key built from its fields with a rowkey template,
 * include/hfilegen/scheme.h). Language reference, with the re-keyings that
 * are one-to-one: format-specs/rowkey-templates.md, "Old-key patterns".
 *
 *   pattern := ( literal | '{' name [ ':' type ] '}' )*
 *   type    := 'text' | 'long' | 'int' | 'short' | 'bytes' ':' N
 *
 * Literals are written as in rowkey templates ({{, }}, \\, \{, \}, \', \xNN);
 * a field named `_` is read and skipped. `text` (the default) is variable
 * width: every text field but the last ends at the first occurrence of the
 * literal after it; the last one takes every byte up to the fixed-width rest
 * of the pattern (the key's end when nothing follows). long/int/short read
 * 8/4/2 signed big-endian bytes (Bytes.toBytes) and yield their decimal text;
 * bytes:N yields N raw bytes.
 *
 * A compiled pattern is immutable: parse may run from several threads at once
 * and allocates nothing. Calls that can fail return 0 or a negative HFG_E*
 * code and write a message to errmsg (which may be NULL, errlen 0).
 */
#ifndef HFILEGEN_KEYPARSE_H
#define HFILEGEN_KEYPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/scheme.h"
#include "hfilegen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

typedef struct hfg_keyparse hfg_keyparse;

/* Most named (not `_`) fields a pattern may have. */
#define HFG_KEYPARSE_MAX_FIELDS 64
/* Room for the decimal text of one number ("-9223372036854775808" and a NUL). */
#define HFG_KEYPARSE_NUM_TEXT 24

/* What one parse yields: fields[i] is the value of field i (in the order of
 * hfg_keyparse_field_names), never NULL. Text and bytes values point into the
 * parsed key, numbers into num[] of this result: both must outlive the
 * fields' use, and the struct must not be copied while they are in use. One
 * per thread; fields[] can be passed to hfg_scheme_eval of a scheme from
 * hfg_keyparse_rowkey as it is. */
typedef struct hfg_keyparse_result {
  hfg_field fields[HFG_KEYPARSE_MAX_FIELDS];
  char num[HFG_KEYPARSE_MAX_FIELDS][HFG_KEYPARSE_NUM_TEXT];
} hfg_keyparse_result;

/* Compiles an old-key pattern. On error returns HFG_EPARSE with a message
 * naming the 1-based template position ("template position 7: unknown type
 * 'lng' (text, long, int, short or bytes:N)"), or HFG_ENOMEM. */
int hfg_keyparse_compile(const char *pattern, hfg_keyparse **out, char *errmsg, size_t errlen);
void hfg_keyparse_free(hfg_keyparse *kp);

/* The pattern as given. */
const char *hfg_keyparse_pattern(const hfg_keyparse *kp);
/* The named fields in pattern order (`_` fields are not among them): the
 * column names a new rowkey template compiles against. The array is never
 * NULL, also with no named field, and lives as long as kp. */
size_t hfg_keyparse_field_count(const hfg_keyparse *kp);
const char *const *hfg_keyparse_field_names(const hfg_keyparse *kp);

/* Parses one old key into *r. Returns 0, or HFG_EPARSE when the key does not
 * match the pattern, with a message naming the 0-based byte offset in the key
 * and what was expected there ("byte offset 4: expected the literal '|',
 * found 'x'"; bytes shown escaped, \xNN). Thread-safe; allocates nothing. */
int hfg_keyparse_parse(const hfg_keyparse *kp, const uint8_t *key, size_t len,
                       hfg_keyparse_result *r, char *errmsg, size_t errlen);

/* Compiles the new rowkey template `tmpl` (a template or preset of
 * hfg_scheme_compile) against the old key's fields, column i = field i. A
 * column that is not a field of the old key is HFG_EPARSE naming its template
 * position and listing the old key's fields; other compile errors are
 * hfg_scheme_compile's. Free *out with hfg_scheme_free. */
int hfg_keyparse_rowkey(const hfg_keyparse *kp, const char *tmpl, hfg_scheme **out,
                        char *errmsg, size_t errlen);

/* The injectivity guard of a re-keying from kp to s (s from
 * hfg_keyparse_rowkey). Refused (HFG_EINVAL, errmsg naming the fields): a
 * named field of the old key that the new template does not use, or a new
 * template that uses no field at all: old keys that differ only there would
 * get one new key. Accepted with a warning in warn (warnlen bytes; "" when
 * none; may be NULL): a field that reaches the new key only through
 * functions that can map different values to one (%, a hash, substr, day,
 * upper, ...). Not seen here, and caught by the job as duplicate new keys:
 * old keys that differ only in `_` parts, and values the new template's
 * separators or pads make ambiguous (see the language reference). */
int hfg_keyparse_check_rekey(const hfg_keyparse *kp, const hfg_scheme *s, char *warn,
                             size_t warnlen, char *errmsg, size_t errlen);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif

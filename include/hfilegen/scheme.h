/*
 * Rowkey schemes: a small template language that composes an HBase rowkey
 * from the fields of an input record, plus the client-side calculators
 * (key for given values, scan ranges) and split-point generation.
 * The language is documented in format-specs/../README.md ("Rowkey templates")
 * and docs in the scheme sources.
 *
 * A compiled scheme is immutable and may be evaluated from several threads.
 */
#ifndef HFILEGEN_SCHEME_H
#define HFILEGEN_SCHEME_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hfg_field {
  const char *p;  /* not NUL-terminated */
  size_t len;
} hfg_field;

typedef struct hfg_scheme hfg_scheme;

/* Compiles `tmpl` (or a preset name, see hfg_scheme_presets) against the
 * record's column names. On error returns < 0 and writes a message naming the
 * position in the template to errmsg. */
int hfg_scheme_compile(const char *tmpl, const char *const *columns, size_t ncolumns,
                       hfg_scheme **out, char *errmsg, size_t errlen);

/* Builds the rowkey of one record: fields[i] is the value of column i.
 * Writes the key to out (capacity cap) and its length to *len. Returns 0,
 * HFG_ETOOBIG when the key does not fit cap, or HFG_EPARSE with a reason in
 * errmsg ("column id: 'abc' is not an integer"). Thread-safe. */
int hfg_scheme_eval(const hfg_scheme *s, const hfg_field *fields, size_t nfields, uint8_t *out,
                    size_t cap, size_t *len, char *errmsg, size_t errlen);

void hfg_scheme_free(hfg_scheme *s);

#ifdef __cplusplus
}
#endif
#endif

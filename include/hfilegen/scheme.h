/*
 * Rowkey schemes: a small template language that composes an HBase rowkey
 * from the fields of an input record, plus the client-side calculators
 * (key for given values, scan ranges), split-point generation and a linter
 * for the known rowkey design red lines.
 * The language reference, with examples, is format-specs/rowkey-templates.md.
 *
 * A compiled scheme is immutable and may be evaluated from several threads.
 * Every call that can fail returns 0 or a negative HFG_E* code and, where an
 * errmsg buffer is passed (errmsg may be NULL, errlen 0), a message naming
 * what failed.
 */
#ifndef HFILEGEN_SCHEME_H
#define HFILEGEN_SCHEME_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

typedef struct hfg_field {
  const char *p;  /* not NUL-terminated */
  size_t len;
  int is_null;    /* an SQL NULL from a dump (len 0): no value at all, unlike "" */
} hfg_field;

typedef struct hfg_scheme hfg_scheme;

/* Compiles `tmpl` (or a preset name, see hfg_scheme_presets) against the
 * record's column names. On error returns < 0 and writes a message naming the
 * position in the template to errmsg.
 * With columns == NULL and ncolumns == 0 the columns are taken from the
 * template itself, numbered in order of first use (hfg_scheme_column_name);
 * the calculators (key, scan ranges, lint without a sample) compile this way. */
int hfg_scheme_compile(const char *tmpl, const char *const *columns, size_t ncolumns,
                       hfg_scheme **out, char *errmsg, size_t errlen);

/* Builds the rowkey of one record: fields[i] is the value of column i.
 * Writes the key to out (capacity cap) and its length to *len. Returns 0,
 * HFG_ETOOBIG when the key does not fit cap, or HFG_EPARSE with a reason in
 * errmsg ("column id: 'abc' is not an integer"). Thread-safe; allocates
 * nothing (intermediate values use HFG_SCHEME_SCRATCH bytes of stack). */
int hfg_scheme_eval(const hfg_scheme *s, const hfg_field *fields, size_t nfields, uint8_t *out,
                    size_t cap, size_t *len, char *errmsg, size_t errlen);

void hfg_scheme_free(hfg_scheme *s);

/* Largest intermediate value (a reversed or padded field, all of a part) eval
 * can hold; longer values fail with HFG_ETOOBIG. */
#define HFG_SCHEME_SCRATCH 8192

/* ---- introspection ---- */

/* The template the scheme was compiled from, after preset expansion. */
const char *hfg_scheme_template(const hfg_scheme *s);
/* Number of record columns the scheme was compiled against, and their names. */
size_t hfg_scheme_column_count(const hfg_scheme *s);
const char *hfg_scheme_column_name(const hfg_scheme *s, size_t i);
/* How a template writes the column `name`: bare when it is an identifier
 * ([A-Za-z_][A-Za-z0-9_.-]*), else in double quotes with '"' doubled
 * ("Order Id"). Writes to buf (cap bytes, NUL-terminated, cut when longer);
 * returns buf. */
const char *hfg_scheme_quote_name(const char *name, char *buf, size_t cap);
/* Index of a column by name, or -1. */
long hfg_scheme_column_index(const hfg_scheme *s, const char *name);
/* 1 when column i is referenced by the template. */
int hfg_scheme_uses_column(const hfg_scheme *s, size_t i);

/* The bucket prefix of a scheme: the first part that is a bounded bucket
 * (`x % N`, `hex(h, n)`, `phoenix_salt`), preceded only by literal text. */
typedef enum hfg_bucket_kind {
  HFG_BUCKET_NONE = 0,
  HFG_BUCKET_DECIMAL, /* decimal 0..N-1, zero-padded to `width` (0 = unpadded) */
  HFG_BUCKET_HEX,     /* `width` hex chars: N = 16^width; lowercase unless `upper` */
  HFG_BUCKET_BYTE     /* one byte 0..N-1 (phoenix_salt) */
} hfg_bucket_kind;

typedef struct hfg_bucket_info {
  hfg_bucket_kind kind;
  uint64_t buckets;     /* N */
  int width;            /* see kind */
  int upper;            /* HEX only: rendered in uppercase */
  size_t prefix_len;    /* literal bytes before the bucket */
  const uint8_t *prefix;/* borrowed from the scheme */
} hfg_bucket_info;

/* Fills *out (kind NONE when the scheme has no bucket prefix). */
void hfg_scheme_bucket(const hfg_scheme *s, hfg_bucket_info *out);

/* Built-in presets, NULL-terminated "name:args = template" help lines. */
const char *const *hfg_scheme_presets(void);

/* ---- lists of byte strings (split keys, scan ranges) ---- */

typedef struct hfg_keylist hfg_keylist;
size_t hfg_keylist_count(const hfg_keylist *l);
/* The i-th key, borrowed until hfg_keylist_free; its length in *len. */
const uint8_t *hfg_keylist_get(const hfg_keylist *l, size_t i, size_t *len);
void hfg_keylist_free(hfg_keylist *l);

/* ---- findings (lint results, split warnings) ---- */

typedef enum hfg_severity { HFG_SEV_INFO = 0, HFG_SEV_WARNING = 1, HFG_SEV_ERROR = 2 } hfg_severity;

typedef struct hfg_finding {
  hfg_severity severity;
  const char *code;     /* stable id, e.g. "monotonic-prefix" (static) */
  const char *message;  /* what was found */
  const char *why;      /* why it matters */
  const char *fix;      /* what to do */
} hfg_finding;

typedef struct hfg_findings hfg_findings;
size_t hfg_findings_count(const hfg_findings *f);
/* Borrowed until hfg_findings_free. */
const hfg_finding *hfg_findings_get(const hfg_findings *f, size_t i);
/* Highest severity present, or -1 when empty. */
int hfg_findings_max_severity(const hfg_findings *f);
void hfg_findings_free(hfg_findings *f);
const char *hfg_severity_name(hfg_severity s); /* "info", "warning", "error" */

/* ---- split keys ---- */

typedef enum hfg_split_algo {
  HFG_SPLIT_SCHEME = 0,     /* aligned to the scheme's bucket prefix */
  HFG_SPLIT_HEX,            /* RegionSplitter.HexStringSplit, 00000000..ffffffff */
  HFG_SPLIT_HEX_LEGACY,     /* HexStringSplit before the "+1" fix (HBase <= 1.x) */
  HFG_SPLIT_DECIMAL,        /* RegionSplitter.DecimalStringSplit, 00000000..99999999 */
  HFG_SPLIT_UNIFORM         /* RegionSplitter.UniformSplit, 8 raw bytes */
} hfg_split_algo;

/* "scheme", "hex", "hex-legacy", "decimal", "uniform"; parse returns 0 or -1. */
const char *hfg_split_algo_name(hfg_split_algo a);
int hfg_split_algo_parse(const char *name, hfg_split_algo *out);

/* Computes regions-1 split keys (regions >= 1). s is required for
 * HFG_SPLIT_SCHEME and optional otherwise (when given, split keys the scheme
 * can never produce in order are refused: HFG_EINVAL with a reason). Warnings
 * (bucket count not a multiple of the region count, ...) are appended to
 * *warnings, created when NULL; pass warnings == NULL to ignore them.
 * On success *out owns the keys (hfg_keylist_free). */
int hfg_splits_compute(const hfg_scheme *s, hfg_split_algo algo, uint64_t regions,
                       hfg_keylist **out, hfg_findings **warnings, char *errmsg, size_t errlen);

/* ---- key calculator and scan ranges ---- */

/* One named value; the name is a column of the scheme. */
typedef struct hfg_named_value {
  const char *name;
  hfg_field value;
} hfg_named_value;

/* Evaluates the key for values given by name. Columns the template uses but
 * that are not given fail with HFG_EINVAL naming them. On success *key is
 * allocated (hfg_free from src/util/alloc.h; applications: free with
 * hfg_scheme_buf_free) and *len set. */
int hfg_scheme_key(const hfg_scheme *s, const hfg_named_value *vals, size_t nvals,
                   uint8_t **key, size_t *len, char *errmsg, size_t errlen);
void hfg_scheme_buf_free(void *p);

/* What hfg_scheme_scan_ranges found about its ranges. */
typedef struct hfg_scan_info {
  int exact;          /* 1: the ranges hold exactly the keys asked for; 0: a superset */
  int numeric;        /* 1: from and to were compared as integers (first/last/values set) */
  int64_t first, last;/* numeric: the first and the last value of the range, inclusive */
  uint64_t values;    /* numeric: last - first + 1 */
  int gets;           /* not exact, numeric, a plain decimal field and every other column the
                       * template uses given: hfg_scheme_key per value gives exact point gets */
  char reason[1024];  /* not exact: why, naming the template part */
  char filter[512];   /* not exact: the predicate on the field a client must apply to the rows */
  char padded[2048];  /* not exact: a template under which this range is exact ("" when none) */
} hfg_scan_info;

/* Start/stop rows for the keys whose `field` lies in [from, to) (to
 * inclusive when to_inclusive) with the `fixed` fields equal to the given
 * values. Parts before the range field must be literals, computable from the
 * fixed fields, bucket parts (one range per bucket when not computable) or
 * time buckets of the range field (day()/hour()/month(): one range per period).
 * The result holds pairs: key 2i is the start row (inclusive), 2i+1 the stop
 * row (exclusive; empty: the end of the table), sorted by start row. At most
 * max_ranges ranges (HFG_ETOOBIG beyond).
 *
 * from and to are compared as integers when the range part needs integers
 * (desc, long, int, lpad, millis) or both are canonical decimals (optional
 * '-', no leading zero), else as byte strings; from after to (or equal with
 * an exclusive to) is HFG_EINVAL. The ranges are exact only where byte order
 * of the key equals the order of the field over the range: desc(), long() and
 * int() (a range across 0 gives two ranges), lpad() of non-negative integers,
 * `:0W` padding when the range ends below 10^(W-1), and a raw string that ends
 * the key. Elsewhere (decimal of varying width, a raw string followed by more
 * key bytes) they are a superset: *info says so, why, the filter the client
 * must add and an exact alternative. With info == NULL a superset is refused
 * (HFG_EINVAL naming the reason). Formats: format-specs/rowkey-templates.md. */
int hfg_scheme_scan_ranges(const hfg_scheme *s, const char *field, hfg_field from, hfg_field to,
                           int to_inclusive, const hfg_named_value *fixed, size_t nfixed,
                           size_t max_ranges, hfg_keylist **out, hfg_scan_info *info,
                           char *errmsg, size_t errlen);

/* Renders a key for humans into a NUL-terminated string owned by the caller
 * (hfg_scheme_buf_free):
 *   HFG_KEYFMT_ESCAPED  hfilegen escaping (printable ASCII, \\ and \xNN)
 *   HFG_KEYFMT_SHELL    an hbase shell (Ruby) string literal: 'abc' or "\x00a"
 *   HFG_KEYFMT_JAVA     Bytes.toBytes("abc") for printable keys, else
 *                       new byte[] {(byte) 0x00, 0x61, ...} */
typedef enum hfg_keyfmt { HFG_KEYFMT_ESCAPED, HFG_KEYFMT_SHELL, HFG_KEYFMT_JAVA } hfg_keyfmt;
int hfg_key_format(const uint8_t *key, size_t len, hfg_keyfmt fmt, char **out);

/* ---- lint ---- */

typedef struct hfg_lint hfg_lint;

/* Starts a lint of s for a table of `regions` regions (0: unknown). The
 * template-only checks run at finish; sample records may be added before. */
int hfg_lint_new(const hfg_scheme *s, uint64_t regions, hfg_lint **out);
/* Adds one sample record (fields[i] = column i of the scheme); records
 * the scheme cannot key are counted and reported. Keeps copies of the keys
 * (for the duplicate check): 0 or HFG_ENOMEM. */
int hfg_lint_add(hfg_lint *l, const hfg_field *fields, size_t nfields);
/* Runs the checks; *out receives the findings (possibly empty). The lint
 * object must still be freed. */
int hfg_lint_finish(hfg_lint *l, hfg_findings **out);
void hfg_lint_free(hfg_lint *l);

/* ---- unknown columns ---- */

/* What to add to an "unknown column" message, so that a wrong format or
 * delimiter shows at once: writes to buf (cap bytes, NUL-terminated; longer
 * text is cut with "...") "; the columns read are 'a', 'b' (2)", then
 *   - when a single column was read and its name holds a TAB, ';', '|' or
 *     ',': a hint at --format tsv / --delimiter / --format csv;
 *   - when `unknown` (unknown_len bytes; may be NULL) matches a column but
 *     for case, surrounding blanks or quotes: "did you mean 'Id'?".
 * Returns buf. Used by the template compiler, the column mapping and the
 * timestamp column. */
const char *hfg_columns_hint(char *buf, size_t cap, const char *const *names, size_t n,
                             const char *unknown, size_t unknown_len);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif

/*
 * Dry run of a build: how a rowkey scheme spreads the input over the table's
 * regions, before anything is written. hfg_plan_run reads the input (or a
 * sampled fraction of it) exactly as hfg_build_run would (same reader, rowkey
 * scheme and column mapping, include/hfilegen/build.h), puts every sampled
 * row into its region under the split keys and reports per region rows,
 * input bytes and the estimated HFile data size, skew figures, the hottest
 * regions and the heaviest single values of one field. The same rows are
 * also placed with a "raw" key (the first column, or another template)
 * against the same regions, to show what the scheme changes.
 *
 * Estimated HFile size: the bytes of the row's cells in data blocks, each
 * cell a v3 KeyValue of 12 + 8 + row + family + qualifier + value + 3 bytes
 * (key infrastructure 12, key and value lengths 8, tags length 2, mvcc 1).
 * Block headers, checksums, index, bloom and trailer are not included;
 * compression only when measured (hfg_plan_options.measure_codec).
 *
 * Sample-balanced split keys (hfg_plan_sample_splits) put region boundaries
 * at the byte-weighted quantiles of the transformed keys of the sample.
 *
 * The library prints nothing. Results are plain structs owned by the
 * hfg_plan object (hfg_plan_free).
 */
#ifndef HFILEGEN_PLAN_H
#define HFILEGEN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"
#include "hfilegen/scheme.h"
#include "hfilegen/status.h"
#include "hfilegen/types.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

#define HFG_PLAN_OPTIONS_VERSION 1

struct hfg_rekey_options;

typedef struct hfg_plan_options {
  unsigned version;            /* HFG_PLAN_OPTIONS_VERSION */
  /* Input, rowkey and cells as build reads them: inputs, format, delimiter,
   * header, columns, rowkey, splits_file, family, mappings, keep_key_columns,
   * empty; hfile.codec and hfile.block_size when measure_codec. Borrowed. */
  const hfg_build_options *build;
  /* Region split keys, first match wins: `splits` (borrowed), then
   * build->splits_file, then `regions` > 1 (split keys aligned to the
   * scheme's bucket prefix, HFG_SPLIT_SCHEME), else one region. */
  const hfg_keylist *splits;
  uint64_t regions;
  double sample;               /* fraction of records analysed, (0, 1]; 0 = 1 (all) */
  uint64_t seed;               /* sampling seed; the same seed picks the same records */
  /* The comparison ("before") key: NULL = the first column's bytes, else a
   * template. no_raw_key = 1 skips the comparison. */
  const char *raw_key;
  int no_raw_key;
  /* Column whose heaviest values are reported; NULL = the first column the
   * rowkey reads (the bucket field of a salted scheme). */
  const char *hot_field;
  size_t top;                  /* regions / values listed; 0 = 5 */
  size_t hot_capacity;         /* distinct values tracked (Space-Saving); 0 = 4096 */
  int measure_codec;           /* compress sorted sample cells with build->hfile.codec */
  const char *splits_desc;     /* where `splits` came from (plan --table); NULL: "given split keys" */
  /* Rows from an old table instead of build's inputs (include/hfilegen/rekey.h): each
   * old row's key parsed by rekey->old_key and re-keyed by rekey->build.rowkey, its
   * cells as hfilegen rekey writes them; build must then be &rekey->build. The raw key
   * defaults to the old rowkey, columns (hot_field, raw_key) are the old key's fields.
   * NULL: build's inputs. Borrowed. */
  const struct hfg_rekey_options *rekey;
} hfg_plan_options;

void hfg_plan_options_init(hfg_plan_options *o);

typedef struct hfg_plan_region {
  const uint8_t *start, *end;  /* [start, end); length 0 = table start / end */
  size_t start_len, end_len;
  uint64_t rows;               /* sampled rows that fall in the region */
  uint64_t cells;
  uint64_t input_bytes;        /* their record bytes, one line end each */
  uint64_t kv_bytes;           /* their cells' KeyValue bytes (see the top) */
} hfg_plan_region;

/* Skew of one quantity over the regions. */
typedef struct hfg_plan_skew {
  double total, mean;          /* sum and mean over all regions */
  double max, min;
  size_t max_region;           /* lowest index holding max */
  double max_over_mean;        /* max / mean; 0 when the mean is 0 */
  double cv;                   /* coefficient of variation: population stddev / mean; 0 if mean 0 */
  size_t empty;                /* regions with 0 */
  size_t over_2x;              /* regions over twice the mean */
} hfg_plan_skew;

/* Skew figures of v[0..n). */
void hfg_plan_skew_of(const double *v, size_t n, hfg_plan_skew *out);

/* One key placed against the regions. */
typedef struct hfg_plan_side {
  const char *key;             /* the template (or "{first column}") */
  hfg_plan_region *regions;    /* nregions entries */
  uint64_t rows, cells, input_bytes, kv_bytes, key_bytes; /* sampled totals */
  hfg_plan_skew rows_skew, bytes_skew;                    /* bytes: kv_bytes */
  size_t *hottest;             /* region indexes, most rows first (ties: lower index) */
  size_t nhottest;             /* min(top, nregions) */
} hfg_plan_side;

/* A heavy value of the hot field (Space-Saving summary: exact while the
 * field has at most hot_capacity distinct values in the sample). */
typedef struct hfg_plan_value {
  uint8_t *value;              /* the value's bytes (owned by the plan) */
  size_t len;
  uint64_t rows;               /* sampled rows with the value: at most this */
  uint64_t error;              /* ... and at least rows - error (0: exact) */
  size_t region;               /* region of its first row under the scheme */
  int spread;                  /* 1: its rows fell in more than one region */
} hfg_plan_value;

typedef struct hfg_plan {
  uint64_t records_read;       /* every record, malformed included */
  uint64_t records_sampled;    /* records the sample picked, rejected included */
  uint64_t rejected;           /* sampled records build would reject */
  char first_reject[512];      /* where and why the first was rejected, "" if none */
  /* sampled records whose fields make no cell (every mapped field NULL, or
   * empty with empty = SKIP): build writes no row for them (empty_row SKIP),
   * so they are in no region's figures; with empty_row MARKER they are rows
   * of the one marker cell, as build writes them, and this is 0 */
  uint64_t without_cells;
  uint64_t raw_unkeyed;        /* sampled rows the raw key could not be built for */
  /* records of a changes load's deletes source (build --deletes), in records_read: each
   * a deleted row of one DeleteFamily per family, in the figures as build writes them
   * (a key also live that night is counted twice: its row and its tombstone's) */
  uint64_t deletes_read;
  uint64_t input_bytes;        /* input bytes as stored (compressed for gzip) */
  double fraction;             /* the sample fraction asked for */
  double scale;                /* records_read / records_sampled: sampled -> estimated totals */
  const char *rowkey;          /* the scheme's template after preset expansion */
  const char *splits_source;   /* "file PATH", "scheme-aligned, N regions", ... */
  size_t nregions;
  hfg_plan_side after;         /* the scheme */
  hfg_plan_side before;        /* the raw key; before.regions NULL when skipped */
  size_t cells_per_row_max;    /* cells of the widest row */
  /* hot field */
  const char *hot_field;       /* column name, NULL when there is none */
  int hot_is_bucket_field;     /* the scheme starts with a bucket of this field */
  hfg_plan_value *hot;         /* heaviest first, nhot <= top */
  size_t nhot;
  uint64_t hot_distinct;       /* distinct values seen (exact when hot_exact) */
  int hot_exact;               /* no value was evicted from the summary */
  /* compression measurement (measure_codec) */
  int measured;
  hfg_codec codec;
  uint64_t measured_rows, measured_raw, measured_compressed;
  /* warnings and notes on the scheme's distribution */
  hfg_findings *findings;
} hfg_plan;

/* Runs the plan. On success *out owns everything (hfg_plan_free). On error
 * returns < 0 with a message in errmsg (bad options, unreadable input, a
 * template that does not compile, bad split keys, ENOMEM) and *out NULL.
 * Records that build would reject are counted, not fatal. */
int hfg_plan_run(const hfg_plan_options *o, hfg_plan **out, char *errmsg, size_t errlen);
void hfg_plan_free(hfg_plan *p);

/* Estimated totals (sampled figures times p->scale). */
static inline double hfg_plan_est(const hfg_plan *p, uint64_t sampled) {
  return (double)sampled * p->scale;
}

/* Split keys for `regions` regions balanced by estimated HFile bytes: the
 * rows of the sample (o->sample, o->seed; o->splits/regions ignored) are
 * keyed with the scheme and weighted by their KeyValue bytes, and split key
 * i is the shortest prefix of the first row key whose cumulative weight
 * reaches i/regions of the total that still sorts above the previous row key.
 * At most `max_rows` sampled rows are kept (a uniform reservoir beyond it;
 * 0 = 1,000,000). Fewer keys than regions - 1 result when the sample holds
 * too few distinct keys (a warning says so); warnings also flag small
 * samples. *out owns the keys (hfg_keylist_free), *warnings as in
 * hfg_splits_compute. */
int hfg_plan_sample_splits(const hfg_plan_options *o, uint64_t regions, size_t max_rows,
                           hfg_keylist **out, hfg_findings **warnings, char *errmsg,
                           size_t errlen);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif

/*
 * The record source of `plan` and of sample-balanced split keys: reads the
 * input as `build` would (same reader options, rowkey scheme and column
 * mapping, see src/build/build.c), keeps a deterministic Bernoulli sample
 * of the records and hands out, per sampled record, the scheme's rowkey, the
 * optional "raw" comparison key and the size the row's cells would take in an
 * HFile data block. Internal to src/plan.
 *
 * Size estimate: each cell is an HFile v3 KeyValue (format-specs/keyvalue.md,
 * src/format/kv.h): keyLength(4) valueLength(4) rowLength(2) row
 * familyLength(1) family qualifier timestamp(8) type(1) value tagsLength(2)
 * mvcc(1) = 12 + 8 + row + family + qualifier + value + 3 bytes. Which
 * columns become cells, their family, qualifier and encoded value length
 * follow build's rules exactly (rowkey columns dropped unless kept or mapped,
 * `col=-` excluded, empty fields skipped with HFG_EMPTY_SKIP, values encoded
 * with src/build/values.h). A record build would reject (malformed, no
 * key, a value its encoding refuses) is counted as rejected here; one whose
 * fields make no cell is skipped and counted, as build writes no row for it,
 * or has the one marker cell build gives it (build/columns.h,
 * hfg_colmap_empty_row).
 *
 * Sampling: record i (0-based, counting every record read, malformed ones
 * too) is kept when splitmix64(seed + i) / 2^64 < fraction, so a rerun with
 * the same seed keeps the same records whatever the buffering.
 *
 * Calls: open next* free. Not thread-safe.
 */
#ifndef HFG_PIPELINE_PLAN_SOURCE_H
#define HFG_PIPELINE_PLAN_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"
#include "hfilegen/scheme.h"
#include "input/record_reader.h"
#include "util/err.h"

/* One cell of the current row; pointers valid until the next plan_src_next. */
typedef struct plan_cell {
  const char *family, *qualifier; /* NUL-terminated */
  const uint8_t *value;
  size_t value_len;
} plan_cell;

typedef struct plan_row {
  const hfg_record *rec;   /* the record; borrowed until the next call */
  const uint8_t *key;      /* the scheme's rowkey */
  size_t key_len;
  const uint8_t *raw;      /* the raw comparison key, NULL when it could not be built */
  size_t raw_len;
  size_t cells;            /* cells the row stores */
  uint64_t cell_bytes;     /* sum over cells of family + qualifier + value lengths */
  uint64_t input_bytes;    /* the record's raw bytes plus one line end */
} plan_row;

/* Bytes of a row's cells in a data block when its rowkey is key_len bytes. */
static inline uint64_t plan_kv_bytes(const plan_row *r, size_t key_len) {
  return (uint64_t)r->cells * (12 + 8 + 3 + key_len) + r->cell_bytes;
}

typedef struct plan_src plan_src;

/* Opens the inputs of b (inputs, format, delimiter, header, columns, rowkey,
 * family, mappings, keep_key_columns, empty). fraction in (0, 1]. raw_key:
 * NULL for no comparison key, "" for the first column's bytes, else a
 * template compiled against the same columns. Returns 0 or < 0 with err set
 * (bad options, unreadable input, a template that does not compile, a column
 * mapping naming no column); *out NULL on error. */
int plan_src_open(const hfg_build_options *b, double fraction, uint64_t seed,
                  const char *raw_key, plan_src **out, hfg_err *err);

/* plan_src_open of o->build, or with o->rekey the old table's rows
 * (plan_snapshot.h) behind the same calls. */
struct hfg_plan_options;
int plan_src_open_plan(const struct hfg_plan_options *o, double fraction, uint64_t seed,
                       const char *raw_key, plan_src **out, hfg_err *err);

/* Next sampled record the scheme can key: 1 with *row filled, 0 at the end,
 * < 0 on a fatal error (err set; I/O, corrupt gzip, header mismatch, ENOMEM).
 * Records the scheme cannot key are counted (plan_src_stats) and skipped. */
int plan_src_next(plan_src *s, plan_row *row, hfg_err *err);

/* The current row's cells (after a successful next). */
const plan_cell *plan_src_cells(const plan_src *s, size_t *n);

typedef struct plan_src_stats {
  uint64_t records_read;     /* every record, malformed included */
  uint64_t records_sampled;  /* records picked by the sample, malformed included */
  uint64_t rejected;         /* sampled records build would reject */
  uint64_t without_cells;    /* sampled keyable records that make no cell, so no row (skipped) */
  uint64_t raw_unkeyed;      /* sampled keyable records without a raw key */
  uint64_t deletes_read;     /* records of the deletes source (build --deletes), in records_read */
  uint64_t input_bytes;      /* input bytes as stored, read so far */
  char first_reject[512];    /* "file line N: reason" of the first rejected record */
} plan_src_stats;

void plan_src_stats_get(const plan_src *s, plan_src_stats *out);

const hfg_scheme *plan_src_scheme(const plan_src *s);
/* Column names of the input (header or b->columns). */
const char *const *plan_src_columns(const plan_src *s, size_t *n);
/* Index of the column whose values make the hot-value report: `name` when
 * given (-1 when no such column), else the scheme's first referenced column. */
long plan_src_hot_column(const plan_src *s, const char *name);
/* The raw key's description: its template, or the first column's name. */
const char *plan_src_raw_key(const plan_src *s);

void plan_src_free(plan_src *s);

/* Deterministic 64-bit mixer (splitmix64 finaliser) used for sampling. */
uint64_t plan_mix64(uint64_t x);

#endif

/*
 * The main job: raw records → rowkey scheme → region partition → external
 * merge sort per region → one HFile per region per family (rolled at a size),
 * published atomically as <out>/<family>/<file> for completebulkload.
 *
 * hfg_build_run never prints; it reports progress through the callback and
 * returns a summary. On failure nothing loadable is left in the output
 * directory (no _SUCCESS, no file without a leading '_' under a family dir),
 * and temporary and spill files are removed.
 */
#ifndef HFILEGEN_BUILD_H
#define HFILEGEN_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"
#include "hfilegen/writer.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HFG_BUILD_OPTIONS_VERSION 1

enum { HFG_DUP_ERROR = 0, HFG_DUP_LAST, HFG_DUP_FIRST };
enum { HFG_EMPTY_SKIP = 0, HFG_EMPTY_STORE };
enum { HFG_BUILD_CSV = 0, HFG_BUILD_TSV, HFG_BUILD_MYSQL, HFG_BUILD_PG_TEXT, HFG_BUILD_PG_CSV };

typedef struct hfg_build_progress {
  const char *phase;       /* "ingest", "emit", "publish" */
  uint64_t records;        /* records read so far */
  uint64_t input_bytes;    /* input bytes consumed so far */
  uint64_t regions_done, regions;
  uint64_t output_bytes;
} hfg_build_progress;

typedef void (*hfg_build_progress_fn)(void *ctx, const hfg_build_progress *p);

typedef struct hfg_build_options {
  unsigned version;                 /* HFG_BUILD_OPTIONS_VERSION */
  const char *const *inputs;        /* files, "-" for stdin; gzip read transparently */
  size_t ninputs;
  int format;                       /* HFG_BUILD_CSV / _TSV, or a dump: _MYSQL, _PG_TEXT, _PG_CSV */
  char delimiter;                   /* 0: ',' for CSV, '\t' for TSV */
  int header;                       /* first line names the columns */
  const char *const *columns;       /* column names when there is no header */
  size_t ncolumns;
  const char *rowkey;               /* template or preset (include/hfilegen/scheme.h) */
  const char *splits_file;          /* NULL: a single region */
  const char *out_dir;
  const char *tmp_dir;              /* spill runs; default: out_dir */
  int spill_lz4;                    /* compress spill runs with LZ4 (default off: see sorter.h) */
  const char *family;               /* default family, default "cf" */
  /* Column mapping, each "col=family:qualifier[:encoding]" or "col=-" (exclude)
   * or "col=:encoding" (default family, qualifier = column name). Columns the
   * rowkey uses are not stored as cells unless mapped explicitly. */
  const char *const *mappings;
  size_t nmappings;
  int keep_key_columns;             /* also store the rowkey's columns as cells */
  int empty;                        /* HFG_EMPTY_SKIP / HFG_EMPTY_STORE */
  int64_t timestamp;                /* cell timestamp; < 0: the job's start time */
  const char *timestamp_column;     /* take it from a column instead: epoch milliseconds, */
  const char *timestamp_format;     /* or a datetime by this pattern (yyyy-MM-dd HH:mm:ss, UTC) */
  int on_duplicate;                 /* HFG_DUP_* */
  const char *rejects_path;         /* default <out_dir>/_rejects.tsv */
  uint64_t max_rejects;             /* fail when more records are rejected */
  size_t memory;                    /* budget in bytes for the sort, default 1 GiB */
  int threads;                      /* emit threads, 0: all cores */
  uint64_t max_file_size;           /* roll HFiles at a row boundary, default 10 GiB */
  hfg_writer_options hfile;         /* HFile options for every family */
  /* Per-family overrides, each "FAMILY:KEY=VALUE" with KEY codec, bloom, block-size,
   * checksum or bytes-per-checksum (values as the CLI flags take them). */
  const char *const *family_options;
  size_t nfamily_options;
  hfg_build_progress_fn progress;
  void *progress_ctx;
  /* Dumps (format-specs/dump-dialects.md). A NULL field makes no cell (and is
   * counted); NULL in a rowkey or timestamp column rejects the record. */
  const char *null_string;          /* NULL marker instead of the format's own (\N, "") */
  const char *fields_terminated_by; /* mysql: FIELDS TERMINATED BY (default TAB) */
  const char *fields_enclosed_by;   /* mysql: ENCLOSED BY (default none); pg-csv: QUOTE */
  const char *fields_escaped_by;    /* mysql: ESCAPED BY (default \, "" none); pg-csv: ESCAPE */
  const char *lines_terminated_by;  /* mysql: LINES TERMINATED BY (default LF) */
  /* Database inputs (URIs), incremental append mode (Sqoop's --incremental
   * append): only rows whose check column is > last_value (an integer; NULL:
   * all rows); the largest value read goes to summary.check_max and the
   * manifest's "incremental". NULL check_column: off. */
  const char *check_column;
  const char *last_value;
} hfg_build_options;

void hfg_build_options_init(hfg_build_options *o);

typedef struct hfg_build_region {
  uint64_t rows, cells, bytes_out;
  unsigned files;
} hfg_build_region;

typedef struct hfg_build_summary {
  uint64_t records_read, records_written, records_rejected, duplicates_dropped;
  uint64_t cells, files, output_bytes, input_bytes;
  uint64_t long_keys;               /* keys over 200 bytes */
  int64_t timestamp;                /* the cell timestamp used (for a rerun) */
  size_t spill_runs;
  uint64_t spilled_bytes;
  double ingest_seconds, emit_seconds, publish_seconds;
  size_t nregions;
  hfg_build_region *regions;        /* owned; freed by hfg_build_summary_free */
  char rejects_path[1024];
  char error[1024];                 /* the failure, when the run returns < 0 */
  uint64_t null_values;             /* NULL fields of cell columns (no cell), in records keyed */
  char check_max[48];               /* with check_column: the largest check value read, else
                                       last_value (nothing new), else "" (no row at all) */
} hfg_build_summary;

int hfg_build_run(const hfg_build_options *o, hfg_build_summary *summary);
void hfg_build_summary_free(hfg_build_summary *s);

#ifdef __cplusplus
}
#endif
#endif

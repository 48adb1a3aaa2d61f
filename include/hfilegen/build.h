/*
 * The main job: raw records → rowkey scheme → region partition → external
 * merge sort per region → one HFile per region per family (rolled at a size),
 * published atomically as <out>/<family>/<file> for completebulkload.
 *
 * hfg_build_run never prints; it reports progress through the callback and
 * returns a summary. On failure nothing loadable is left in the output
 * directory (no _SUCCESS, no file without a leading '_' under a family dir),
 * temporary and spill files are removed, and the output path is as it was
 * before the job (created directories and family directories removed again)
 * but for the rejects file when records were rejected.
 */
#ifndef HFILEGEN_BUILD_H
#define HFILEGEN_BUILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"
#include "hfilegen/writer.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

#define HFG_BUILD_OPTIONS_VERSION 3 /* 2: hfg_writer_options.write_chunk; 3: its direct_io */

enum { HFG_DUP_ERROR = 0, HFG_DUP_LAST, HFG_DUP_FIRST };
enum { HFG_EMPTY_SKIP = 0, HFG_EMPTY_STORE };
enum { HFG_BUILD_CSV = 0, HFG_BUILD_TSV, HFG_BUILD_AUTO /* by each input's name (default) */,
       HFG_BUILD_MYSQL, HFG_BUILD_PG_TEXT, HFG_BUILD_PG_CSV };
enum { HFG_EMPTY_ROW_SKIP = 0, HFG_EMPTY_ROW_MARKER };

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
  const char *const *inputs;        /* files, "-" for stdin; gzip, zstd, bzip2, xz read
                                       by magic, other compressions refused */
  size_t ninputs;
  int format;                       /* HFG_BUILD_CSV / HFG_BUILD_TSV / HFG_BUILD_AUTO: TSV for
                                       names ending in .tsv or .tab (also .tsv.gz ...), else
                                       CSV (hfg_input_format_guess, src/input/record_reader.h);
                                       or a dump: _MYSQL, _PG_TEXT, _PG_CSV */
  char delimiter;                   /* 0: ',' for CSV, '\t' for TSV */
  int header;                       /* first line names the columns */
  const char *const *columns;       /* column names when there is no header; with a header
                                       they rename its columns (as many as it has) */
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
  const char *timestamp_format;     /* or "s" "ms" "us" "ns", or a datetime pattern
                                     * (src/build/timestamps.h) */
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
  /* With timestamp_column: the job's own timestamp, which names the files (a
   * rerun with the same one names them alike) and is each file's
   * BULKLOAD_TIMESTAMP; < 0: `timestamp` if >= 0, else the job's start time.
   * An error without timestamp_column (the constant timestamp plays this part). */
  int64_t job_timestamp;
  /* A record that yields no cell (with empty = SKIP, every non-key field
   * empty) would be a row that does not exist in HBase. SKIP: write nothing
   * and count it in records_without_cells; MARKER: keep the row with one
   * empty-valued cell empty_row_family:empty_row_qualifier (defaults: the
   * default family, "_0"), counted as written and in marker_rows. The marker
   * is written only for such rows, never beside other cells. */
  int empty_row;                    /* HFG_EMPTY_ROW_SKIP / HFG_EMPTY_ROW_MARKER */
  const char *empty_row_family;     /* NULL: family */
  const char *empty_row_qualifier;  /* NULL: "_0" */
  /* Cancellation: when cancel is set and *cancel becomes nonzero (say, from
   * the caller's signal handler), the job stops at its next check — every
   * record read, every row emitted, every region of a spill or merge, and
   * before publishing — and fails with HFG_ECANCELED, cleaning up as any
   * failed job does (temporaries and spill runs removed, the output directory
   * back from staging, nothing loadable). The library installs no handler. */
  volatile sig_atomic_t *cancel;
  /* Split keys in memory instead of splits_file (build --table: the live table's region
   * start keys but the first), strictly ascending, borrowed; splits_file wins when set. */
  const uint8_t *const *split_keys;
  const size_t *split_key_lens;
  size_t nsplit_keys;
  const char *splits_source;        /* manifest.json "splits_source"; NULL: derived */
  /* The table's families (build --table), applied over `hfile` and under family_options;
   * when set, every family a column maps to must be one of them. Borrowed. */
  const struct hfg_build_family *table_families;
  size_t ntable_families;
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
  /* Parallel ingest (threads >= 2): a plain CSV/TSV file is cut into parts of
   * about this many bytes, read by the threads at once; 0: 4 MiB, or --memory /
   * (16 × threads) when that is less (at least 256 KiB). */
  size_t ingest_chunk;
  /* Nightly loads that keep a table equal to its source (format-specs/nightly-loads.md).
   * incremental_mode LASTMODIFIED (with check_column, database inputs): rows whose
   * check column is > last_value, inserted or updated; the check column holds epoch
   * milliseconds and is each row's cell timestamp (timestamp_column, when set, wins).
   * It turns `changes` on. */
  int incremental_mode;             /* HFG_INCR_APPEND (0) / HFG_INCR_LASTMODIFIED */
  /* changes: each record is its row's whole state now. Every mapped column
   * becomes a Put or, when it makes no cell (NULL, or empty with empty = SKIP),
   * a DeleteColumn marker at the row's timestamp, so yesterday's value of it is
   * masked. Implied by the three below and by LASTMODIFIED. */
  int changes;
  /* A column saying the row is deleted (soft delete: a flag, or deleted_at): a
   * record whose value is anything but NULL, empty, 0, f, false, n or no (any
   * case) becomes DeleteFamily markers at its timestamp in every family a
   * column maps to and every one of table_families. Not a cell unless mapped
   * explicitly. */
  const char *delete_if;
  /* A column naming each record's operation (a changes file, CDC flattened to
   * CSV): i c r insert create / u update: the row's state as above; d delete:
   * DeleteFamily markers. Other values are rejected. Not a cell unless mapped. */
  const char *op_column;
  /* Hard deletes: a file or database URI whose records hold (by name, with a
   * header) every column the rowkey reads; each becomes DeleteFamily markers in
   * every family at its deletes_time_column (epoch ms: when the row was
   * deleted, so that a source read again on later nights never masks a row
   * inserted again after it), else at `timestamp` (< 0: the job's; then each
   * deleted key must be listed on one night only). A key also among the live
   * records keeps the live row (it exists in the source now). */
  const char *deletes;
  const char *deletes_time_column;
} hfg_build_options;

enum { HFG_INCR_APPEND = 0, HFG_INCR_LASTMODIFIED };

/* One family's settings from a live table; a zero/has_ field leaves the option as is. */
typedef struct hfg_build_family {
  const char *name;
  int has_codec;
  hfg_codec codec;
  int has_bloom;
  hfg_bloom_type bloom;
  uint32_t block_size;              /* 0: unset */
  int has_encoding;
  hfg_encoding encoding;            /* DATA_BLOCK_ENCODING */
  uint32_t bloom_prefix_length;     /* bloom ROWPREFIX: RowPrefixBloomFilter.prefix_length */
} hfg_build_family;

void hfg_build_options_init(hfg_build_options *o);

typedef struct hfg_build_region {
  uint64_t rows, cells, bytes_out;
  unsigned files;
} hfg_build_region;

typedef struct hfg_build_summary {
  uint64_t records_read, records_written, records_rejected, duplicates_dropped;
  uint64_t cells, files, output_bytes, input_bytes;
  uint64_t long_keys;               /* keys over 200 bytes */
  int64_t timestamp;                /* the job timestamp used (for a rerun): the cells'
                                     * too unless they come from a column */
  size_t spill_runs;
  uint64_t spilled_bytes;
  double ingest_seconds, emit_seconds, publish_seconds;
  size_t nregions;
  hfg_build_region *regions;        /* owned; freed by hfg_build_summary_free */
  char rejects_path[1024];
  char error[1024];                 /* the failure, when the run returns < 0 */
  /* records_read = records_written + records_rejected + duplicates_dropped
   *              + records_without_cells, on success */
  uint64_t records_without_cells;   /* no cell, so no row (empty_row SKIP); not in any region */
  uint64_t marker_rows;             /* written with only the marker cell (in records_written) */
  /* Cleanup. removed_bytes: what a failed (or canceled) job removed of its own
   * temporary HFiles and spill runs. stale_bytes: what a killed job left in
   * the staging directory (staging) that this job removed before it began. */
  uint64_t removed_bytes;
  uint64_t stale_bytes;
  char staging[4096];               /* <parent>/.<name>.hfilegen-staging, "" when not staged */
  uint64_t null_values;             /* NULL fields of cell columns (no cell), in records keyed */
  char check_max[48];               /* with check_column: the largest check value read, else
                                       last_value (nothing new), else "" (no row at all) */
  /* Parallel ingest (0 when ingest ran on one thread): threads, units of input
   * (parts of plain files, whole other inputs), and parts whose guessed start was
   * wrong and that were read again from their true start. */
  unsigned ingest_threads;
  uint64_t ingest_parts, ingest_reparsed;
  /* CSV/TSV lines that are empty (or only "\r"), skipped: not records, not in
   * records_read (the dump formats' blank lines are records). Every input line
   * is a header, part of a record read, or one of these. */
  uint64_t blank_lines;
  /* With check_column: rows whose check column is NULL. check_nulls_read: read
   * (no last_value: every row is selected), in records_read like every row;
   * check_nulls_skipped: not selected (NULL is never > last_value), so not read
   * and not loaded: counted in the same snapshot, in no other count. */
  uint64_t check_nulls_read, check_nulls_skipped;
  /* changes (written cells by type, after duplicates are resolved): Puts,
   * DeleteColumn markers, rows deleted (DeleteFamily markers, one per family
   * per row; row_deletes counts rows); deletes_read: records of the deletes
   * source (also in records_read; an earlier night's, by deletes_time_column,
   * are not read); deletes_superseded: of those, keys that are live rows (or
   * repeat another deleted key), not written (also in duplicates_dropped). */
  uint64_t put_cells, column_deletes, row_deletes, family_deletes;
  uint64_t deletes_read, deletes_superseded;
} hfg_build_summary;

int hfg_build_run(const hfg_build_options *o, hfg_build_summary *summary);
void hfg_build_summary_free(hfg_build_summary *s);

/* For a caller about to exit while hfg_build_run(o) still runs in another of
 * its threads (hfilegen build on a second Ctrl-C, when the job waits on a
 * silent input): removes at once what that job has on disk — its staging
 * directory with everything in it (staging gets its path, "" when there was
 * none of this process's) and its spill runs, also in --tmp-dir; a job that
 * works in the output directory itself (not staged) loses its spill runs and
 * temporary HFiles there. The output directory is left empty, or absent when
 * the job created it (rejects written into it are gone too), and the job
 * cannot publish after this.
 * Nothing of another process's job is touched. Returns the bytes removed. */
uint64_t hfg_build_abandon(const hfg_build_options *o, char *staging, size_t cap);

/* 0 when name[0..len) is a column family HBase accepts and completebulkload
 * loads (ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName: not empty, no
 * leading '.', no control characters, ':', '/' or '\\', not "recovered.edits";
 * and no leading '_', which the bulk loader skips); otherwise -1 with *why (may
 * be NULL) set to a static reason. */
int hfg_family_name_check(const char *name, size_t len, const char **why);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif

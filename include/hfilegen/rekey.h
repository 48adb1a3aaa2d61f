/*
 * hfilegen rekey: an existing HBase table's cells, read offline from its
 * snapshot's store files (or a directory of family folders of HFiles), under
 * a new rowkey, as HFiles for the new table's regions. The same partition,
 * sort, emit and publish as hfg_build_run (include/hfilegen/build.h), over
 * cells instead of records: each old row is parsed into fields by old_key,
 * the new rowkey built from them by build.rowkey, and every cell kept with
 * its family, qualifier, timestamp, type, value and tags.
 *
 * Which cells: by default what a scan of all versions of the snapshot
 * returns at as_of (deletes applied, each family's VERSIONS, MIN_VERSIONS
 * and TTL); raw: every cell, delete markers included. In both, cells with
 * identical keys in several store files are collapsed to the one HBase
 * would show. format-specs/scan-semantics.md and format-specs/snapshot.md.
 */
#ifndef HFILEGEN_REKEY_H
#define HFILEGEN_REKEY_H

#include <stdint.h>

#include "hfilegen/batch.h"
#include "hfilegen/build.h"
#include "hfilegen/scheme.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

#define HFG_REKEY_OPTIONS_VERSION 1

#define HFG_REKEY_GIVEN_CODEC 1u
#define HFG_REKEY_GIVEN_BLOOM 2u
#define HFG_REKEY_GIVEN_BLOCK_SIZE 4u
#define HFG_REKEY_GIVEN_ENCODING 8u

typedef struct hfg_rekey_options {
  unsigned version;          /* HFG_REKEY_OPTIONS_VERSION */
  const char *from_dir;      /* an HBase root directory or an ExportSnapshot target; without
                                snapshot: a directory of family folders of HFiles */
  const char *snapshot;      /* NULL: from_dir holds family folders */
  const char *old_key;       /* the old rowkey's pattern ({id}, {id:long}, {user}|{ts}) */
  int raw;                   /* every cell, markers included */
  int64_t as_of;             /* the scan's "now" for TTL, ms; < 0: the job's start */
  /* HFG_REKEY_GIVEN_*: which of build.hfile's settings the caller chose (flags): they win
   * over the snapshot's schema for every family, as over a live table's (table_families,
   * whose entries leave them unset). Layers, last wins: build.hfile, the schema,
   * build.table_families, the given settings, build.family_options. */
  unsigned hfile_given;
  /* rowkey (the new one), splits_file / split_keys, out_dir, tmp_dir, memory,
   * threads, max_file_size, hfile, family_options, table_families (the new table's
   * families, build --table's: every family of the snapshot must be among them, or
   * completebulkload would refuse the output), rejects_path,
   * max_rejects, on_duplicate (must stay ERROR: a re-keying is one to one),
   * job_timestamp (names the files), cancel, progress. Inputs, columns and
   * mappings are not used. */
  hfg_build_options build;
} hfg_rekey_options;

typedef struct hfg_rekey_summary {
  /* records_read: old rows = records_written (new rows) + records_rejected (old keys
   * that did not parse, or whose new key is empty or too long) + records_without_cells
   * (old rows with no cell left in the view: every one deleted, expired or beyond
   * VERSIONS); cells: cells written */
  hfg_build_summary build;
  uint64_t store_files;      /* store files read (a reference counts once) */
  uint64_t cells_read;
  uint64_t markers_read;     /* delete markers among them */
  /* cells not written, by reason (visible mode; raw drops only duplicates
   * and cells outside their region); cells_read = cells + the dropped */
  uint64_t dropped_markers, dropped_deleted, dropped_expired, dropped_versions,
      dropped_duplicate, dropped_outside;
  char warning[512];         /* the re-keying may not be one to one ("" when not) */
  int64_t as_of;
  char snapshot_table[256];  /* ns:qualifier of the snapshot's table ("" for folders) */
} hfg_rekey_summary;

void hfg_rekey_options_init(hfg_rekey_options *o);
int hfg_rekey_run(const hfg_rekey_options *o, hfg_rekey_summary *sum);
void hfg_rekey_summary_free(hfg_rekey_summary *s);

/* Over an old table, hfilegen plan and splits --algo sample take hfg_plan_options.rekey
 * (include/hfilegen/plan.h); lint takes hfg_rekey_lint: */

/* One old row whose key did not parse: "region R row N 'KEY': reason". */
typedef void (*hfg_rekey_lint_reject_fn)(void *ctx, const char *what);

/* A lint (include/hfilegen/scheme.h) of o->build.rowkey over the old table's rows as
 * rekey reads them: each old key parsed by o->old_key, its fields one sample record
 * (at most max_rows). Rows whose old key does not parse are counted in *rejected and
 * passed to on_reject (may be NULL). On success *lint holds the samples (run
 * hfg_lint_finish) and *scheme the new rowkey compiled against the old key's fields
 * (the caller frees both; the lint borrows the scheme). < 0 with errmsg: the
 * snapshot, the pattern or the re-keying refused, a store file unreadable. */
int hfg_rekey_lint(const hfg_rekey_options *o, uint64_t regions, uint64_t max_rows,
                   hfg_rekey_lint_reject_fn on_reject, void *ctx, hfg_lint **lint,
                   hfg_scheme **scheme, uint64_t *rows, uint64_t *rejected, char *errmsg,
                   size_t errlen);

/* ---- rekey in pieces, for distributed runners (the Spark job in python/) ----
 * hfg_rekey_run's stages cut as include/hfilegen/batch.h cuts build's, on the same
 * setup, rows, payload, emit and publish: the same options give the same bytes.
 *
 *   driver: options_new → open → nregions, region_name (the old table's regions)
 *           → hfg_batch_begin (on hfg_rekey_batch_batch) → tasks → hfg_batch_add_file*
 *           → hfg_batch_set_counts (rows read, rejected and without cells as the
 *           tasks' counts add up) → set_counts → hfg_batch_publish | hfg_batch_abort → free
 *   tasks:  open (as_of and ts: the driver's) → read_region (one old region's rows,
 *           re-keyed: keyed records whose payloads are the rows' typed cells, the
 *           rejects-file lines of the region's rejected rows, its counts)
 *           open → hfg_batch_emit (one new region's HFiles from its keyed records, in
 *           any order: the emit orders them; two old rows with one new key fail it)
 *
 * A keyed record's order is old region << 40 | the row's ordinal in it: the order
 * hfg_rekey_run's sorter sees. --max-rejects and the all-rejected rule are the
 * driver's, on the sums. Nothing here prints. */
typedef struct hfg_rekey_batch hfg_rekey_batch;

/* One read_region's counts, or (set_counts) the job's sums. */
typedef struct hfg_rekey_counts {
  uint64_t rows_read, rows_rejected, rows_without_cells, long_keys;
  uint64_t store_files, cells_read, markers_read;
  uint64_t dropped_markers, dropped_deleted, dropped_expired, dropped_versions,
      dropped_duplicate, dropped_outside;
} hfg_rekey_counts;

/* Options for a caller that cannot lay out hfg_rekey_options (ctypes): initialized
 * (hfg_rekey_options_init) with build copied from *build (its strings borrowed);
 * the caller sets the fields before build. NULL when out of memory. */
hfg_rekey_options *hfg_rekey_options_new(const hfg_build_options *build);
void hfg_rekey_options_free(hfg_rekey_options *o);

/* Sets the job up as hfg_rekey_run does (the snapshot opened, the old-key pattern and
 * the new rowkey compiled, the families' HFile options, the splits) without touching
 * the output. ts: the job timestamp (< 0: as hfg_rekey_run picks it); o->as_of < 0:
 * now (hfg_rekey_batch_as_of says which; give it to the tasks' open). o is borrowed
 * until free. 0, or < 0 with err: HFG_EINVAL for options, patterns or a re-keying
 * refused, the snapshot reader's codes for a snapshot that cannot be read. */
int hfg_rekey_batch_open(const hfg_rekey_options *o, int64_t ts, hfg_rekey_batch **out,
                         char *err, size_t errcap);
void hfg_rekey_batch_free(hfg_rekey_batch *k);
/* The batch that emits, collects and publishes (borrowed until free). */
hfg_batch *hfg_rekey_batch_batch(hfg_rekey_batch *k);
int64_t hfg_rekey_batch_as_of(const hfg_rekey_batch *k);
/* "" when the re-keying is one to one, else why it may not be (rekey's warning). */
const char *hfg_rekey_batch_warning(const hfg_rekey_batch *k);
/* The old table's regions (start keys ascending; 1 for family folders) and their
 * encoded names ("" for family folders). */
size_t hfg_rekey_batch_nregions(const hfg_rekey_batch *k);
const char *hfg_rekey_batch_region_name(const hfg_rekey_batch *k, size_t region);

/* Task side: old region `region`'s rows through the rekey row iterator, re-keyed:
 * *out holds its written rows as keyed records (records_read, records_rejected and
 * long_keys set; valid until the next call on the batch) and the rejects-file lines
 * of its rejected rows; *c its counts. < 0 with the batch's errmsg: a store file
 * unreadable, no such region, out of memory. */
int hfg_rekey_batch_read_region(hfg_rekey_batch *k, size_t region, hfg_batch_out **out,
                                hfg_rekey_counts *c);

/* Driver side, before publish: the tasks' summed counts, for manifest.json's
 * "rekey" member. */
void hfg_rekey_batch_set_counts(hfg_rekey_batch *k, const hfg_rekey_counts *c);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif

#endif

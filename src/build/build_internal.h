/*
 * Private to the build stages (src/build/build*.c): the job every stage
 * works on, and each stage's entry points. hfg_build_run (build.c) drives
 * them in this order, each at most once:
 *
 *   begin → setup_job → open_output (prepare_out_dir, rejects, sorter) → ingest
 *   → sort_emit_publish (sorter finish → emit → publish); end (on any failure
 *   cleanup_failed; always, last: release_out_dir, job_free)
 *
 * A job over other inputs (rekey: cells of store files) runs the same stages
 * with its own setup and ingest; its payload is cells (cell_payload.h).
 *
 *   build_job.c      options init, job setup (columns, family options), job free
 *   build_ingest.c   records → rejects / payload → the sorter
 *   build_emit.c     per region: merge, duplicates, writers, rolling (threads)
 *   build_publish.c  output dir, staging, manifest, _SUCCESS, publish, cleanup
 *
 * Errors: the first failure is kept in job.err (fail(), thread-safe) and
 * job.failed tells every loop and thread to stop; stages return its code.
 */
#ifndef HFG_PIPELINE_BUILD_INTERNAL_H
#define HFG_PIPELINE_BUILD_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "hfilegen/build.h"
#include "hfilegen/scheme.h"
#include "build/columns.h"
#include "input/record_reader.h"
#include "sort/sorter.h"
#include "build/splits.h"
#include "build/timestamps.h"
#include "util/buf.h"
#include "util/err.h"

#define HBASE_MAX_ROW 32767
#define LONG_KEY 200
#define MAX_FILES_PER_REGION_FAMILY 32

/* Payload of a sorted record (written by ingest, read by emit):
 *   ts:be64 line:be64 file:be16, then per cell column (job.cols order) its
 *   length and the encoded value. The length is one byte below LEN_ABSENT,
 *   LEN_ABSENT for no cell, else LEN_WIDE and len:be32: a text value is seldom
 *   longer, and a record is a fifth of its payload's lengths smaller than with
 *   be32 for each (memory the sort faults in, 15 bytes a row of the benchmark's). */
#define LEN_ABSENT 0xfe
#define LEN_WIDE 0xff
#define LEN_MAX_HEAD 5 /* the most bytes a length takes */

typedef struct outfile {
  size_t region, family;
  unsigned seq; /* n-th file of its region and family */
  char *tmp_path, *final_path, *name;
  uint8_t *first_row, *last_row;
  size_t first_len, last_len;
  uint64_t cells, bytes;
} outfile;

typedef struct job {
  const hfg_build_options *o;
  hfg_build_summary *sum;
  hfg_err err;
  pthread_mutex_t lock;
  _Atomic int failed;
  hfg_splits splits;
  hfg_scheme *scheme;
  hfg_colmap map;           /* input columns -> cells (build/columns.h) */
  /* aliases into map, for brevity */
  char **families;
  size_t *family_len;
  size_t nfamilies;
  hfg_cellcol *cols;        /* sorted by (family, qualifier) */
  size_t ncols;
  hfg_writer_options *family_hfile; /* per family, defaults plus overrides */
  size_t ncolumns;
  long ts_column;
  hfg_stamp stamp;          /* how ts_column reads (build/timestamps.h) */
  int64_t ts;
  hfg_sorter *sorter;
  FILE *rejects;
  outfile *files;
  size_t nfiles, capfiles;
  _Atomic size_t next_region;
  _Atomic uint64_t regions_done, out_bytes;
  const char *input_names[4096];
  size_t ninput_names;
  char dir[4096];           /* where the job writes: the staging dir, or out_dir */
  char stage[4096];         /* <parent>/.<name>.hfilegen-staging */
  int staged;               /* out_dir is currently renamed to stage */
  /* what prepare_out_dir created, which a failed job removes: the first directory
   * made on the way to out_dir ("" when out_dir existed), and per family whether
   * its directory was made (it may have been there, idle, before the job) */
  char made_from[4096];
  unsigned char *made_family;
  int lock_fd;              /* flock on the output directory, -1 */
  /* --empty-row marker: the family index and qualifier of the marker cell */
  size_t marker_family;
  const char *marker_qualifier;
  size_t marker_qualifier_len;
  struct hfg_block_pool *pool; /* emit: block compression on every core, NULL at 1 thread */
  unsigned pool_slots;      /* blocks in flight per writer */
  int cell_payload;         /* records are typed cells (cell_payload.h), not columns */
  /* a job's own members of manifest.json ("name": value, each line ending in a comma) */
  void (*manifest_extra)(FILE *f, void *ctx);
  void *manifest_ctx;
  struct hfg_changes *changes; /* a changes load (build/changes.h), NULL otherwise */
} job;

static inline double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The caller's cancel flag (hfg_build_options.cancel) is up. */
static inline int canceled(const job *j) { return j->o->cancel && *j->o->cancel; }

/* Records the job's first error (code, message) and stops every stage;
 * returns code. Thread-safe. */
int hfg_build_fail(job *j, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define fail hfg_build_fail /* the short name the stages use */

/* build.c: the stages every job shares. begin sets up the job (options,
 * timestamps, splits, the summary's regions); open_output checks the rejects
 * path, prepares the output directory, opens the rejects file, checks the
 * spill directory and makes the sorter; all_rejected fails a job whose every
 * record was rejected; sort_emit_publish finishes the sort (t0: when ingest
 * began), writes every region and publishes; end records a failure, cleans up
 * and frees the job, returning the job's code (or rc when it has none). */
int hfg_build_begin(job *j, const hfg_build_options *o, hfg_build_summary *sum);
int hfg_build_open_output(job *j);
int hfg_build_all_rejected(job *j);
int hfg_build_sort_emit_publish(job *j, double t0);
int hfg_build_end(job *j, int rc);

/* build_job.c: the input's column names (header or --columns) → scheme,
 * cell columns and per-family HFile options. job_free releases what the
 * job owns (not the sorter, reader or rejects file). */
int hfg_build_setup_job(job *j, hfg_record_reader *rr);
void hfg_build_job_free(job *j);
/* Each family's HFile options (j->families set): the job's, then base (a
 * snapshot's schema; NULL, 0: none), then the live table's (build --table),
 * then --family-option. */
int hfg_build_setup_families(job *j, const hfg_build_family *base, size_t nbase);

/* build_ingest.c: reads every record into the sorter (or the rejects file). */
int hfg_build_ingest(job *j, hfg_record_reader *rr);
/* Counts a rejected record and writes it to the rejects file; past --max-rejects
 * fails the job (returns its code), else 0. */
int hfg_build_reject(job *j, const hfg_record *r, const char *reason);
/* Appends a record's payload (the layout above) to pl: its timestamp (the job's, or
 * the timestamp column's), line and file index, then each cell column's value;
 * *nulls counts the SQL NULLs that make no cell. HFG_EPARSE with why for a
 * record to reject (bad timestamp or value), HFG_ENOMEM. The batch API
 * (batch.c) keys records with it too, so both write the same payload. */
int hfg_build_payload(job *j, const hfg_field *fields, uint64_t line, uint16_t file_idx,
                      hfg_buf *pl, uint64_t *nulls, char *why, size_t whylen);

/* The rowkey of a record's fields into key (HBASE_MAX_ROW + 1 bytes of room,
 * *klen): 0; HFG_EPARSE with why (a NULL key column when nulls_possible, a
 * template error, an empty key, one over HBase's limit); eval's other errors. */
int hfg_build_rowkey(job *j, const hfg_field *fields, size_t nfields, int nulls_possible,
                     uint8_t *key, size_t *klen, char *why, size_t whylen);
/* Keys one well-formed record (build_ingest.c): rowkey into key (HBASE_MAX_ROW + 1
 * bytes of room, *klen), payload appended to pl (on an error pl->len may have grown). 0; HFG_EPARSE with why:
 * reject it; HFG_ENOMEM. nulls_possible: hfg_build_nulls_possible. Thread-safe. */
int hfg_build_key_record(job *j, const hfg_record *rec, int nulls_possible, uint16_t file_idx,
                         uint8_t *key, size_t *klen, hfg_buf *pl, uint64_t *nulls, char *why,
                         size_t whylen);
int hfg_build_nulls_possible(const job *j, hfg_record_reader *rr);
/* build_ingest_par.c: ingest on --threads workers; HFG_BUILD_SEQUENTIAL when the
 * job is for the one-thread path (1 thread, a database input, nothing to share). */
#define HFG_BUILD_SEQUENTIAL 1
int hfg_build_ingest_par(job *j, hfg_record_reader *rr);

/* build_emit.c: every region merged and written, regions on parallel threads. */
int hfg_build_emit(job *j);

/* build_publish.c */
int hfg_build_prepare_out_dir(job *j); /* check, lock, stage, family dirs */
/* Spill runs go to dir (tmp_dir as the job sees it): fails, naming the
 * directory, unless a file can be created there — before the first record. */
int hfg_build_check_tmp_dir(job *j, const char *dir);
/* Notes the job's pid and where its spill runs go in the directory it works
 * in, so that the next job removes them after a kill -9 and hfg_build_abandon
 * knows the directory for this process's (best effort). */
void hfg_build_note_spill_dir(job *j, const char *tmp_dir);
/* A --rejects path the output would overwrite or publish (the output directory
 * itself, _SUCCESS, manifest.json, a hidden name or anything inside a family
 * directory, where completebulkload takes every file for an HFile) fails the
 * job, naming both, before anything is created. The top level of the output
 * directory is fine (completebulkload skips files there). */
int hfg_build_check_rejects_path(job *j);
/* A path the user gave inside the output directory, as the job sees it. */
void hfg_build_work_path(const job *j, const char *path, char *buf, size_t cap);
int hfg_build_publish(job *j);         /* temporaries → final names, manifest, _SUCCESS */
/* s as a JSON string (quoted, escaped), for manifest_extra. */
void hfg_build_json_text(FILE *f, const char *s);
void hfg_build_cleanup_failed(job *j); /* a failed job's temporaries */
/* Last, always: a failed job's directory back under its name, then (failed) the
 * output path as it was before the job: the family directories and the
 * directories up to out_dir it created are removed unless something stayed in
 * them (the rejects file a failed job keeps); the lock released. */
void hfg_build_release_out_dir(job *j, int failed);

#endif

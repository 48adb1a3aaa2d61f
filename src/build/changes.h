/*
 * Changes: records that are a row's whole state now (a nightly load of a live
 * table), written as typed cells (cell_payload.h) so that the table after the
 * bulk load equals the source. The rules and their HBase sources are in
 * format-specs/nightly-loads.md; in short, per record at its timestamp T:
 *
 *   live row     every mapped column a Put at T, or a DeleteColumn at T when
 *                it makes no cell (NULL; empty with --empty skip): the older
 *                versions of that column are masked, the other columns'
 *                history stays
 *   deleted row  (delete_if true, op d, a hard delete) DeleteFamily at T in
 *                every family a column maps to: never beside Puts in the same
 *                row of one load (a DeleteFamily at T would mask them)
 *
 * T: the check column (lastmodified, epoch ms; a NULL one, read on a first
 * night only, takes the job's timestamp), else the timestamp column, else the
 * job's; hard deletes take their deletes_time_column (with a last value, only
 * those after it are read: this night's window), else
 * hfg_build_options.timestamp (< 0: the job's). A T more than a day ahead of
 * this machine's clock fails the job: a Put at it would hide every later
 * night's.
 *
 * Hard deletes (the deletes source) are keyed after the live records and sort
 * after them under the same key (their seq has the top bit set); emit keeps
 * the live row and drops the tombstone (hfg_changes_is_tombstone).
 *
 * Lifecycle: setup (after the column map) → payload per record (thread-safe)
 * → ingest_deletes (after the main ingest) → free (by job_free).
 */
#ifndef HFG_BUILD_CHANGES_H
#define HFG_BUILD_CHANGES_H

#include <stddef.h>
#include <stdint.h>

#include "build/build_internal.h"

/* 1 when the options ask for changes (changes, delete_if, op_column, deletes,
 * or incremental lastmodified). */
int hfg_changes_wanted(const hfg_build_options *o);

/* Resolves the control columns against the input's names (n of them), drops
 * them from the cell columns unless mapped explicitly, takes the check column
 * as the timestamp in lastmodified mode, and makes the job's payload typed
 * cells. Fails the job (returns its code) naming what is wrong. */
int hfg_changes_setup(job *j, char *const *names, size_t n);

/* The record's cells into pl (cell_payload.h layout), as hfg_build_payload's
 * contract: HFG_EPARSE with why (reject it), HFG_ENOMEM; a timestamp that
 * breaks the rule fails the job too (the reject then stops the ingest). */
int hfg_changes_payload(job *j, const hfg_field *fields, uint64_t line, uint16_t file_idx,
                        hfg_buf *pl, uint64_t *nulls, char *why, size_t whylen);

/* Reads the deletes source (o->deletes), keys each record by the rowkey's
 * columns (found by name) and adds DeleteFamily rows to the sorter. Counts
 * them in records_read and deletes_read; rejects go to the rejects file. */
int hfg_changes_ingest_deletes(job *j);

/* A deletes-time (or check) value in epoch ms, by build's rule: an integer is
 * epoch ms (1e11..1e14), a database datetime is converted (source_db.h). 0, or
 * HFG_EPARSE with why naming the column name. */
int hfg_changes_time_ms(const char *name, const hfg_field *f, int64_t *ms, char *why,
                        size_t whylen);

/* 1 when a sorted record's payload is a hard delete's. */
int hfg_changes_is_tombstone(const uint8_t *payload, size_t plen);

/* Emit's view of a region's sorted records in a changes load with hard
 * deletes: hfg_sort_iter_next's contract (1 and a record borrowed until the
 * next call, 0 the end, < 0 with e set), one record read ahead. A live row
 * followed by a hard delete of its key (deleted and inserted again in this
 * night's window) comes back as one record: the live row's cells and, in
 * every family of the tombstone, a DeleteFamily at min(t_d, T - 1) (t_d the
 * tombstone's time, T the live row's): the old row's versions are masked
 * under the new state, which stays visible (nightly-loads.md §4); the
 * tombstone is counted as superseded. A soft-deleted live row keeps the old
 * rule (its own DeleteFamily at T masks everything; the tombstone is dropped
 * by emit). Lifecycle: open (next)* close; close(NULL) is a no-op. */
typedef struct hfg_changes_iter hfg_changes_iter;
hfg_changes_iter *hfg_changes_iter_open(job *j, hfg_sort_iter *it);
int hfg_changes_iter_next(hfg_changes_iter *ci, const uint8_t **rec, size_t *len, hfg_err *e);
void hfg_changes_iter_close(hfg_changes_iter *ci);

void hfg_changes_free(job *j);

/* ---- the rules alone, for plan (src/plan/plan_source.c) ---- */

/* Indices of the op column and the delete flag among names (-1 when not
 * given), checked as build checks them: 0, or HFG_EINVAL in err when one names
 * no column of the input (with a hint), is a column of the rowkey, or both name
 * the same column. Build (hfg_changes_setup) and plan use this one check. */
int hfg_changes_controls(const hfg_build_options *o, char *const *names, size_t n,
                         const hfg_scheme *scheme, long *op_idx, long *delete_idx, hfg_err *err);
/* Drops the control columns from m's cells unless --map names them. */
void hfg_changes_drop_controls(hfg_colmap *m, const hfg_build_options *o, long op_idx,
                               long delete_idx);
/* Opens the --deletes source as build reads it: a header (key columns by name), and
 * with --deletes-time and a last value only this night's window of tombstones (a
 * database source filters on the server; lower and lower_ms: the window's bound for a
 * file source, NULL/0 for all). The reader's own status, message in msg. */
int hfg_changes_open_deletes(const hfg_build_options *o, hfg_record_reader **rr,
                             const char **lower, int64_t *lower_ms, char *msg, size_t cap);
/* *deleted: 1 when the record is a deleted row (op d, the flag set), else 0;
 * HFG_EPARSE with why for an op value that is none of the known ones. */
int hfg_changes_deleted(const hfg_build_options *o, long op_idx, long delete_idx,
                        const hfg_field *fields, int *deleted, char *why, size_t whylen);

#endif

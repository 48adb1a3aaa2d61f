/*
 * The rows of an old table, re-keyed: the one row iterator behind hfilegen rekey
 * (rekey.c) and plan / splits --algo sample / lint over a snapshot
 * (src/plan/plan_snapshot.c), so that what they count is what rekey writes.
 *
 * Per old region of the snapshot (hfg_snapshot_region order: start keys
 * ascending; or the one pseudo-region of family folders), one store scan per
 * family (input/store_scan.h, with the family's VERSIONS, MIN_VERSIONS, TTL and
 * KEEP_DELETED_CELLS from the schema, or every version without one), their rows
 * merged by row: a row is the cells of every family that holds it. Each row's
 * old key is parsed by the old-key pattern (hfilegen/keyparse.h) and the new
 * key built from its fields by the new rowkey. A row the scans leave no cell of
 * (every cell deleted, expired or beyond VERSIONS) is a row too, marked empty:
 * it is counted, never parsed or written.
 *
 * Calls: open, (seek,) next* (until 0 or < 0), counts at any time, free. One
 * thread.
 */
#ifndef HFG_BUILD_REKEY_ROWS_H
#define HFG_BUILD_REKEY_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/keyparse.h"
#include "hfilegen/rekey.h"
#include "hfilegen/scheme.h"
#include "input/snapshot.h"
#include "input/store_scan.h"
#include "util/err.h"

#define HFG_REKEY_MAX_ROW 32767 /* HBase's row length limit */

typedef struct hfg_rekey_rows hfg_rekey_rows;

/* One old row; everything borrowed until the next call. */
typedef struct hfg_rekey_row {
  size_t region;                 /* the old region (hfg_snapshot_region index) */
  uint64_t ordinal;              /* 1-based, within the region */
  const uint8_t *old_key;
  size_t old_len;
  const hfg_cell *const *cells;  /* per family (hfg_snapshot_family order) ... */
  const size_t *ncells;          /* ... this many; 0 when the family lacks the row */
  int empty;                     /* no family has a cell of it left (visible view): the
                                    rest below is unset (not rejected, no key) */
  /* rejected == 0: the new key; else why it could not be built ("needs 4 bytes...",
   * "the new rowkey is empty") */
  int rejected;
  const char *why;
  const uint8_t *key;
  size_t key_len;
  /* the old key's fields (hfg_keyparse_field_names order) when it parsed, else NULL */
  const hfg_field *fields;
  size_t nfields;
} hfg_rekey_row;

/* Opens ro->from_dir (and ro->snapshot), compiles ro->old_key and the new rowkey
 * ro->build.rowkey against its fields, and checks that the re-keying keeps every
 * field (hfg_keyparse_check_rekey; its warning kept, hfg_rekey_rows_warning).
 * ro->raw and as_of_ms (the scan's "now") choose the cells. 0, or < 0 with err
 * set (HFG_EINVAL for a bad pattern, rowkey or re-keying; the snapshot reader's
 * codes naming the file); *out NULL then. ro is borrowed until free. */
int hfg_rekey_rows_open(const hfg_rekey_options *ro, int64_t as_of_ms, hfg_rekey_rows **out,
                        hfg_err *err);

/* The next old row: 1 with *row filled, 0 after the last, < 0 with err set (a
 * store file that cannot be opened or read, named with its region, family and
 * path; a new key HBase cannot hold for a reason other than the row's, ENOMEM). */
int hfg_rekey_rows_next(hfg_rekey_rows *r, hfg_rekey_row *row, hfg_err *err);

/* Restricts the rows to old region `region` alone (a distributed runner's task,
 * rekey_batch.c): the current region is closed, the counts and store files start
 * again from 0, and next gives that region's rows, then 0. Again after the end to
 * read another. 0, or HFG_EINVAL for no such region. */
int hfg_rekey_rows_seek(hfg_rekey_rows *r, size_t region);

const hfg_snapshot *hfg_rekey_rows_snapshot(const hfg_rekey_rows *r);
const hfg_keyparse *hfg_rekey_rows_keyparse(const hfg_rekey_rows *r);
/* The new rowkey, compiled against the old key's fields (column i = field i). */
const hfg_scheme *hfg_rekey_rows_scheme(const hfg_rekey_rows *r);
/* "" when the re-keying is one to one, else why it may not be. */
const char *hfg_rekey_rows_warning(const hfg_rekey_rows *r);

/* The store scans' counts summed over the regions read so far (the current one
 * included), and the store files opened (a reference counts once). */
void hfg_rekey_rows_counts(const hfg_rekey_rows *r, hfg_store_scan_counts *c,
                           uint64_t *store_files);

void hfg_rekey_rows_free(hfg_rekey_rows *r);

#endif

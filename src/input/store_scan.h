/*
 * Store scan: the cells of ONE region and ONE column family of an HBase table,
 * read straight from its store files (whole HFiles and Reference halves) and
 * merged the way HBase's read path merges them: a k-way merge in
 * KeyValueHeap order, then either
 *   visible (default): what Scan().readAllVersions() at time as_of returns
 *                      (deletes applied, at most VERSIONS puts per column, TTL
 *                      with MIN_VERSIONS, no delete markers), or
 *   raw:               every cell, markers, deleted and expired ones included,
 *                      identical keys (row, family, qualifier, ts, type)
 *                      collapsed to the one the merge order puts first.
 * format-specs/scan-semantics.md gives each rule with its HBase source.
 *
 * Lifecycle:  create  (describe? add)*  next_row*  free
 *   create     checks the family's settings (NEW_VERSION_BEHAVIOR is refused)
 *   describe   fills a file's ordering facts from its reader and name
 *   add        one store file (whole or a half); only before the first next_row
 *   next_row   the next row holding output cells
 * Errors are sticky: after the first failure every call returns the same code
 * and hfg_store_scan_errmsg names it ("store file X: ..."). Nothing is printed.
 *
 * Memory: one row at a time. The files are streamed through the reader's
 * scanner; the scan holds the cells of the row being returned (bounded by the
 * largest row) and per-file cursors, never a whole file.
 */
#ifndef HFG_INPUT_STORE_SCAN_H
#define HFG_INPUT_STORE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/reader.h"
#include "hfilegen/types.h"

/* The family TTL value that means "never expires" (HConstants.FOREVER). */
#define HFG_TTL_FOREVER 2147483647

typedef enum hfg_keep_deleted {
  HFG_KEEP_DELETED_FALSE = 0,
  HFG_KEEP_DELETED_TRUE,
  HFG_KEEP_DELETED_TTL
} hfg_keep_deleted;

typedef struct hfg_store_scan_options {
  int raw;                       /* 0: visible view, 1: raw */
  int64_t as_of_ms;              /* "now" of the view (ms since the epoch, >= 0) */
  int32_t versions;              /* family VERSIONS, >= 1 */
  int32_t min_versions;          /* family MIN_VERSIONS, 0..versions */
  int64_t ttl_seconds;           /* family TTL: HFG_TTL_FOREVER or -1 = none */
  hfg_keep_deleted keep_deleted; /* KEEP_DELETED_CELLS; a view at as_of shows no
                                    deleted cell whatever its value */
  int new_version_behavior;      /* NEW_VERSION_BEHAVIOR=true: refused by create */
  const uint8_t *family;         /* the family of every cell (copied) */
  size_t family_len;
  const uint8_t *start_row;      /* region [start, end): empty start = first */
  size_t start_row_len;          /* region, empty end = last (copied) */
  const uint8_t *end_row;
  size_t end_row_len;
  int empty_rows;                /* 1: next_row also returns (with *n 0) a row of the region
                                    whose every cell was dropped (deleted, expired, beyond
                                    VERSIONS): hfg_store_scan_row gives its key. A caller
                                    counting rows sees every row the files hold */
} hfg_store_scan_options;

/* visible, as_of 0, VERSIONS 1, MIN_VERSIONS 0, TTL forever, KEEP_DELETED FALSE */
#define HFG_STORE_SCAN_OPTIONS_INIT \
  {0, 0, 1, 0, HFG_TTL_FOREVER, HFG_KEEP_DELETED_FALSE, 0, NULL, 0, NULL, 0, NULL, 0, 0}

typedef enum hfg_store_half {
  HFG_HALF_WHOLE = 0,  /* the whole file */
  HFG_HALF_BOTTOM,     /* Reference BOTTOM: rows < split_row */
  HFG_HALF_TOP         /* Reference TOP: rows >= split_row */
} hfg_store_half;

/* One store file. The ordering facts decide which of two cells with the same
 * key wins (HStoreFile.open, StoreFileComparators.SEQ_ID); describe fills them
 * from the reader's file info and the name, a caller may set them itself. */
typedef struct hfg_store_file {
  hfg_reader *reader;            /* open reader, borrowed: outlives the scan */
  const char *name;              /* file name as the region lists it, no directory
                                    (copied): _SeqId_<n>_ and the last tie-break */
  hfg_store_half half;
  const uint8_t *split_row;      /* HFG_HALF_BOTTOM/TOP: the Reference's split row
                                    (copied) */
  size_t split_row_len;
  /* ordering facts */
  uint64_t size;                 /* bytes of the file the reader reads */
  int has_max_seq_id;            /* file info MAX_SEQ_ID_KEY present ... */
  int64_t max_seq_id;            /* ... and its value */
  int has_bulkload_seq_id;       /* the name holds _SeqId_<n>_ ... */
  int64_t bulkload_seq_id;       /* ... n */
  int has_bulkload_time;         /* file info BULKLOAD_TIMESTAMP present ... */
  int64_t bulkload_time;         /* ... and its value */
  int skip_reset_seq_id;         /* file info SKIP_RESET_SEQ_ID is true */
} hfg_store_file;

/* Counts since create. Every cell read lands in exactly one of output and the
 * dropped_* counts: cells_read = cells_output + dropped_marker + dropped_deleted
 * + dropped_expired + dropped_versions + dropped_duplicate + dropped_outside. */
typedef struct hfg_store_scan_counts {
  uint64_t cells_read;         /* cells the files (or their halves) hold */
  uint64_t cells_output;
  uint64_t rows_output;         /* rows returned with cells */
  uint64_t rows_empty;          /* empty_rows: rows returned without a cell */
  uint64_t markers_read;       /* delete markers among the cells inside the region */
  uint64_t dropped_marker;     /* visible: markers, applied and never output */
  uint64_t dropped_deleted;    /* visible: puts masked by a marker */
  uint64_t dropped_expired;    /* visible: family TTL beyond MIN_VERSIONS, cell TTL tag */
  uint64_t dropped_versions;   /* visible: puts beyond VERSIONS in their column */
  uint64_t dropped_duplicate;  /* a cell with the key of one kept just before it */
  uint64_t dropped_outside;    /* rows outside the region's [start, end) */
} hfg_store_scan_counts;

typedef struct hfg_store_scan hfg_store_scan;

/* On failure returns < 0 and, when *out is non-NULL, a scan holding the message
 * (read it, then free the scan). HFG_EUNSUPPORTED for NEW_VERSION_BEHAVIOR,
 * HFG_EINVAL for bad settings. */
int hfg_store_scan_create(const hfg_store_scan_options *o, hfg_store_scan **out);

/* Fills f->size and the file-info facts from f->reader and the _SeqId_ fact from
 * f->name, leaving reader, name and the half as they are. 0, or HFG_ECORRUPT
 * (a malformed _SeqId_ or file-info value) held by the scan. */
int hfg_store_scan_describe(hfg_store_scan *s, hfg_store_file *f);

/* Adds a store file. Refuses (held by the scan) a reader whose open failed, a
 * file whose comparator is not the cell comparator, a split row over 32767
 * bytes; HFG_ESTATE after the first next_row. An empty split row is a merge's
 * reference to the first region: its top half is the whole file. */
int hfg_store_scan_add(hfg_store_scan *s, const hfg_store_file *f);

/* The next row that has output cells: 1 with *cells[0..*n) in HBase order, all
 * of one row, borrowed until the next call or free (with options.empty_rows also
 * a row without output cells: 1 with *n 0); 0 at the end; < 0 on error
 * (a read error, a cell out of order or of another family, a malformed TTL tag:
 * the message names the file and the cell). */
int hfg_store_scan_next_row(hfg_store_scan *s, const hfg_cell **cells, size_t *n);

/* The key of the row the last next_row returned 1 for; borrowed as its cells. */
const uint8_t *hfg_store_scan_row(const hfg_store_scan *s, size_t *len);

void hfg_store_scan_counts_get(const hfg_store_scan *s, hfg_store_scan_counts *out);
const char *hfg_store_scan_errmsg(const hfg_store_scan *s);
void hfg_store_scan_free(hfg_store_scan *s);

#endif

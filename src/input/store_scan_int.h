/*
 * Internals of the store scan (store_scan.h): the per-row matcher that
 * store_scan_match.c implements and store_scan.c drives. The matcher follows
 * HBase's NormalUserScanQueryMatcher with a ScanDeleteTracker and a
 * ScanWildcardColumnTracker (format-specs/scan-semantics.md): it sees the
 * cells of one row in merge order and says, for each, keep or why not.
 */
#ifndef HFG_INPUT_STORE_SCAN_INT_H
#define HFG_INPUT_STORE_SCAN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"
#include "util/err.h"

/* What becomes of one cell. */
enum {
  SS_KEEP = 0,
  SS_MARKER,    /* a delete marker taken by the delete tracker (visible) */
  SS_DELETED,
  SS_EXPIRED,
  SS_VERSIONS,
  SS_DUPLICATE
};

/* The view's settings, fixed at create. */
typedef struct ss_conf {
  int raw;
  int64_t now;           /* as_of_ms */
  int64_t oldest;        /* oldestUnexpiredTS = now - ttl (ms), Java wrap-around */
  int32_t versions;
  int32_t min_versions;
} ss_conf;

/* Matcher state, reset at each new row. */
typedef struct ss_match {
  /* ScanDeleteTracker */
  int has_family_stamp;
  int64_t family_stamp;
  int64_t *fv;             /* DeleteFamilyVersion timestamps, ascending, distinct */
  size_t fv_n, fv_cap;
  int has_del;             /* the current column delete (Delete / DeleteColumn) */
  hfg_buf del_qual;
  uint8_t del_type;
  int64_t del_ts;
  /* ScanWildcardColumnTracker */
  int has_col;
  hfg_buf col_qual;
  int32_t count;           /* puts counted in the column */
  int64_t latest_ts;       /* ts and type of the last cell kept in the column */
  uint8_t latest_type;
  /* a pending SEEK_NEXT_COL: the cells it passes over */
  int skip;
  int skip_whole;          /* the rest of the column; else only cells of the same key */
  hfg_buf skip_qual;
  int64_t skip_ts;
  uint8_t skip_type;
  int skip_reason;
} ss_match;

static inline int ss_is_marker(uint8_t type) { return type >= 8 && type <= 14; }

void ss_match_reset(ss_match *m);
void ss_match_free(ss_match *m);

/* The verdict on the next cell of the current row (SS_KEEP or a reason).
 * 0, or < 0 with e set (out of memory, a malformed TTL tag, cells of the row
 * out of column order). */
int ss_match_cell(ss_match *m, const ss_conf *cf, const hfg_cell *c, int *verdict, hfg_err *e);

/* CellComparator order of two cells of one family, without sequence ids:
 * row, family, qualifier ascending (unsigned bytes), timestamp and type descending. */
int ss_cell_cmp(const hfg_cell *a, const hfg_cell *b);

#endif

/*
 * The range part of a scan-ranges query (scan.c): the intervals of its
 * rendering that hold the values of the range, and whether byte order equals
 * the field's order there (exact) or the intervals are a superset.
 * format-specs/rowkey-templates.md, "Exact and superset ranges".
 */
#ifndef HFG_SCHEME_SCAN_PART_H
#define HFG_SCHEME_SCAN_PART_H

#include "scheme/scheme_internal.h"

#define SCAN_BOUND_CAP 512 /* a rendered bound of the range part */
#define SCAN_MAX_IVALS 24  /* decimal widths 1..20, the negatives, two signs of long() */

/* One interval, relative to a prefix: start = prefix + lo (its successor,
 * the first key after every key starting with it, when lo_succ), stop =
 * prefix + hi (its successor when hi_succ). lo = hi = "" with hi_succ: every
 * key with the prefix. */
typedef struct scan_ival {
  uint8_t lo[SCAN_BOUND_CAP], hi[SCAN_BOUND_CAP];
  size_t lon, hin;
  int lo_succ, hi_succ;
} scan_ival;

typedef struct scan_part {
  scan_ival iv[SCAN_MAX_IVALS];
  int n;
} scan_part;

/* Fills *out with the intervals of part R (which follows the order of column
 * rcol) for [from, to] / [from, to) and *info with exactness, reason, filter
 * and alternatives. f holds the fixed fields (f[rcol] is used as scratch).
 * Returns 0 or HFG_EINVAL (an empty or reversed range, a bad value) with a
 * message. */
int scan_part_plan(const hfg_scheme *s, size_t R, long rcol, hfg_field *f, hfg_field from,
                   hfg_field to, int to_inclusive, scan_part *out, hfg_scan_info *info, char *em,
                   size_t el);

#endif

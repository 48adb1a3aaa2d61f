/*
 * The cell timestamp of each record (hfg_build_options.timestamp_column and
 * timestamp_format; the constant form needs nothing here). A column holds:
 *
 *   format NULL   epoch milliseconds, checked by magnitude: a value below
 *                 1e11 (before 1973-03-03 as ms) reads as seconds and one
 *                 above 1e14 (after year 5138) as micro- or nanoseconds, and
 *                 either is rejected with a reason naming the likely unit and
 *                 the column:NAME:UNIT fix, never converted silently
 *   "s"           epoch seconds, times 1000 (rejected past int64 ms)
 *   "ms"          epoch milliseconds, any non-negative value (1970..)
 *   "us", "ns"    epoch micro-/nanoseconds, divided down to milliseconds,
 *                 truncated (toward the floor: values are never negative)
 *   otherwise     a datetime pattern (util/timefmt.h), UTC unless it has a
 *                 zone offset field; checked when the job starts, so a
 *                 pattern with a refused letter fails the job before any record
 *                 is read. "s", "ms", "us" and "ns" are not patterns (the
 *                 pattern letters run in fixed widths: "ss" is seconds), so the
 *                 four words cannot be mistaken for one.
 *
 * Negative results (before 1970, or a '-' sign) are rejected in every form:
 * HBase reserves them. Every rejection reason names the column and quotes the
 * value (at most 40 bytes).
 */
#ifndef HFG_PIPELINE_TIMESTAMPS_H
#define HFG_PIPELINE_TIMESTAMPS_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"
#include "hfilegen/scheme.h" /* hfg_field */

enum { HFG_STAMP_NONE = 0, HFG_STAMP_MS_CHECKED, HFG_STAMP_S, HFG_STAMP_MS, HFG_STAMP_US,
       HFG_STAMP_NS, HFG_STAMP_PATTERN };

typedef struct hfg_stamp {
  int kind;            /* HFG_STAMP_*; NONE: the job's constant timestamp */
  long column;         /* input column index, -1 with NONE */
  const char *name;    /* borrowed from the options */
  const char *pattern; /* with PATTERN; borrowed from the options */
} hfg_stamp;

/* Reads o->timestamp_column / timestamp_format against the input's column
 * names and checks o->job_timestamp (only meaningful with a column). 0, or
 * HFG_EINVAL with the reason in why: no such column, a pattern that cannot be
 * compiled (naming the refused letter), a job timestamp without a column. */
int hfg_stamp_init(hfg_stamp *s, const hfg_build_options *o, const char *const *names, size_t n,
                   char *why, size_t whylen);

/* The timestamp of a record whose column s->column holds f. 0, or HFG_EPARSE
 * with the rejection reason in why. Only for kind != NONE. */
int hfg_stamp_parse(const hfg_stamp *s, const hfg_field *f, int64_t *ts, char *why, size_t whylen);

#endif

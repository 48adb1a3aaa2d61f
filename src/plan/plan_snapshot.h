/*
 * An old table's rows as plan's record source (plan_source.h): plan, splits
 * --algo sample and lint over a snapshot (or family folders of HFiles), read
 * through rekey's own row iterator (build/rekey_rows.h) so that they describe
 * what `hfilegen rekey` writes. Each old row is one "record": its key parsed by
 * the old-key pattern, the new rowkey built from the fields (the plan's key),
 * its cells those the scan keeps (visible at as_of, or --raw), sized as the
 * KeyValues rekey writes (tags included). The comparison ("before") key is the
 * old rowkey itself, or a template over the old key's fields; the columns
 * (--hot-field) are the old key's fields. An old key that does not parse, or a
 * new key that is empty or too long, is a rejected record, as rekey rejects it.
 * Sampling as plan_source.h: old row i is kept when mix(seed + i) < fraction.
 * Internal to src/plan. Calls: open next* free. Not thread-safe.
 */
#ifndef HFG_PLAN_PLAN_SNAPSHOT_H
#define HFG_PLAN_PLAN_SNAPSHOT_H

#include "hfilegen/rekey.h"
#include "plan/plan_source.h"

typedef struct plan_snap plan_snap;

/* raw_key as plan_src_open's: NULL none, "" the old rowkey, else a template over
 * the old key's fields. The rows' as_of is ro->as_of, or now when < 0. */
int plan_snap_open(const hfg_rekey_options *ro, double fraction, uint64_t seed,
                   const char *raw_key, plan_snap **out, hfg_err *err);
int plan_snap_next(plan_snap *s, plan_row *row, hfg_err *err);
const plan_cell *plan_snap_cells(const plan_snap *s, size_t *n);
void plan_snap_stats_get(const plan_snap *s, plan_src_stats *out);
const hfg_scheme *plan_snap_scheme(const plan_snap *s);
const char *const *plan_snap_columns(const plan_snap *s, size_t *n);
long plan_snap_hot_column(const plan_snap *s, const char *name);
const char *plan_snap_raw_key(const plan_snap *s);
/* "" or why the re-keying may not be one to one (hfg_keyparse_check_rekey). */
const char *plan_snap_warning(const plan_snap *s);
void plan_snap_free(plan_snap *s);

#endif

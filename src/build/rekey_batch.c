/*
 * hfg_rekey_batch (include/hfilegen/rekey.h): hfg_rekey_run in pieces. The
 * driver's open sets the job up as rekey.c does (hfg_rekey_setup, on a batch
 * job: batch_internal.h); a task's read_region runs the rekey row iterator over
 * one old region (hfg_rekey_rows_seek) and hands back keyed records built as
 * rekey.c's ingest builds them (hfg_rekey_row_payload, hfg_rekey_reject_line);
 * emit and publish are the batch API's (batch.c).
 */
#include "hfilegen/rekey.h"

#include <string.h>
#include <sys/time.h>

#include "build/batch_internal.h"
#include "build/rekey_internal.h"
#include "util/alloc.h"

struct hfg_rekey_batch {
  hfg_rekey_options ro; /* a copy; its strings are the caller's */
  hfg_rekey_summary rs; /* as_of, table, warning; the counts set_counts gives */
  rekey k;
  hfg_batch *b;
};

hfg_rekey_options *hfg_rekey_options_new(const hfg_build_options *build) {
  hfg_rekey_options *o = hfg_calloc(1, sizeof *o);
  if (!o) return NULL;
  hfg_rekey_options_init(o);
  if (build) o->build = *build;
  return o;
}

void hfg_rekey_options_free(hfg_rekey_options *o) { hfg_free(o); }

void hfg_rekey_batch_free(hfg_rekey_batch *k) {
  if (!k) return;
  hfg_batch_free(k->b); /* first: its job points into the rows' snapshot */
  hfg_rekey_rows_free(k->k.rows);
  hfg_buf_free(&k->k.payload);
  hfg_rekey_summary_free(&k->rs);
  hfg_free(k);
}

int hfg_rekey_batch_open(const hfg_rekey_options *o, int64_t ts, hfg_rekey_batch **out,
                         char *err, size_t errcap) {
  *out = NULL;
  const hfg_build_options *bo = &o->build;
  if (o->version != HFG_REKEY_OPTIONS_VERSION || bo->version != HFG_BUILD_OPTIONS_VERSION ||
      !o->from_dir || !o->old_key || !bo->rowkey || !bo->out_dir) {
    snprintf(err, errcap, "rekey needs --from, --old-key, --rowkey and --out");
    return HFG_EINVAL;
  }
  if (bo->on_duplicate != HFG_DUP_ERROR) { /* as hfg_rekey_run refuses it */
    snprintf(err, errcap, "rekey keeps every old row: two old rows with one new key are an "
                          "error, never a choice (--on-duplicate is for records)");
    return HFG_EINVAL;
  }
  hfg_rekey_batch *k = hfg_calloc(1, sizeof *k);
  if (!k) return HFG_ENOMEM;
  k->ro = *o;
  int rc = hfg_batch_new_job(&k->ro.build, ts, &k->b, err, errcap);
  if (rc) {
    hfg_free(k);
    return rc;
  }
  job *j = hfg_batch_job(k->b);
  struct timeval tv;
  gettimeofday(&tv, NULL);
  k->rs.as_of = o->as_of >= 0 ? o->as_of : (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
  k->k.j = j;
  k->k.ro = &k->ro;
  k->k.rs = &k->rs;
  rc = hfg_rekey_setup(&k->k);
  j->scheme = NULL; /* the rows': emit does not key */
  if (!rc) rc = hfg_build_check_rejects_path(j);
  if (!rc) /* the payloads' file index names the old region in duplicate errors */
    for (size_t r = 0; r < hfg_snapshot_nregions(k->k.snap); r++) {
      const hfg_snap_region *reg = hfg_snapshot_region(k->k.snap, r);
      if (j->ninput_names < sizeof j->input_names / sizeof *j->input_names)
        j->input_names[j->ninput_names++] = reg->encoded[0] ? reg->encoded : k->ro.from_dir;
    }
  if (rc) {
    snprintf(err, errcap, "%s", j->err.msg);
    hfg_rekey_batch_free(k);
    return rc;
  }
  *out = k;
  return 0;
}

hfg_batch *hfg_rekey_batch_batch(hfg_rekey_batch *k) { return k->b; }
int64_t hfg_rekey_batch_as_of(const hfg_rekey_batch *k) { return k->rs.as_of; }
const char *hfg_rekey_batch_warning(const hfg_rekey_batch *k) { return k->rs.warning; }
size_t hfg_rekey_batch_nregions(const hfg_rekey_batch *k) {
  return hfg_snapshot_nregions(k->k.snap);
}
const char *hfg_rekey_batch_region_name(const hfg_rekey_batch *k, size_t region) {
  return region < hfg_snapshot_nregions(k->k.snap)
             ? hfg_snapshot_region(k->k.snap, region)->encoded
             : NULL;
}

/* One old row, as rekey.c's add_row takes it: counted, rejected or keyed. */
static int take_row(hfg_rekey_batch *k, size_t region, const hfg_rekey_row *row,
                    hfg_rekey_counts *c) {
  job *j = k->k.j;
  c->rows_read++;
  if (row->empty) {
    c->rows_without_cells++;
    return 0;
  }
  if (row->rejected) {
    c->rows_rejected++;
    if (hfg_rekey_reject_line(hfg_batch_out_rejects(k->b),
                              hfg_snapshot_region(k->k.snap, region)->encoded, row->ordinal,
                              row->why, row->old_key, row->old_len))
      return fail(j, HFG_ENOMEM, "out of memory");
    return 0;
  }
  if (row->key_len > LONG_KEY) c->long_keys++;
  int rc = hfg_rekey_row_payload(&k->k.payload, row, j->nfamilies);
  if (rc)
    return fail(j, rc,
                rc == HFG_ENOMEM ? "out of memory" : "old row %llu: a cell HBase cannot hold",
                (unsigned long long)row->ordinal);
  size_t nr = hfg_splits_region(&j->splits, row->key, row->key_len);
  if (hfg_batch_out_add(k->b, (uint32_t)nr, row->key, row->key_len,
                        (uint64_t)region << 40 | row->ordinal, k->k.payload.p, k->k.payload.len))
    return fail(j, HFG_ENOMEM, "out of memory");
  return 0;
}

int hfg_rekey_batch_read_region(hfg_rekey_batch *k, size_t region, hfg_batch_out **out,
                                hfg_rekey_counts *c) {
  job *j = k->k.j;
  memset(c, 0, sizeof *c);
  *out = NULL;
  if (hfg_batch_out_begin(k->b)) return fail(j, HFG_ENOMEM, "out of memory");
  if (hfg_rekey_rows_seek(k->k.rows, region))
    return fail(j, HFG_EINVAL, "no old region %zu (the table has %zu)", region,
                hfg_snapshot_nregions(k->k.snap));
  hfg_rekey_row row;
  hfg_err e = {0};
  int rc = 0, n;
  while ((n = hfg_rekey_rows_next(k->k.rows, &row, &e)) > 0)
    if ((rc = take_row(k, region, &row, c))) break;
  if (n < 0) rc = fail(j, n, "%s", e.msg);
  hfg_store_scan_counts sc;
  hfg_rekey_summary rs;
  memset(&rs, 0, sizeof rs);
  hfg_rekey_rows_counts(k->k.rows, &sc, &c->store_files);
  hfg_rekey_take_counts(&rs, &sc, c->store_files);
  c->cells_read = rs.cells_read;
  c->markers_read = rs.markers_read;
  c->dropped_markers = rs.dropped_markers;
  c->dropped_deleted = rs.dropped_deleted;
  c->dropped_expired = rs.dropped_expired;
  c->dropped_versions = rs.dropped_versions;
  c->dropped_duplicate = rs.dropped_duplicate;
  c->dropped_outside = rs.dropped_outside;
  if (rc) return rc;
  hfg_batch_out *o = hfg_batch_out_end(k->b);
  o->records_read = c->rows_read;
  o->records_rejected = c->rows_rejected;
  o->long_keys = c->long_keys;
  *out = o;
  return 0;
}

void hfg_rekey_batch_set_counts(hfg_rekey_batch *k, const hfg_rekey_counts *c) {
  hfg_rekey_summary *rs = &k->rs;
  rs->store_files = c->store_files;
  rs->cells_read = c->cells_read;
  rs->markers_read = c->markers_read;
  rs->dropped_markers = c->dropped_markers;
  rs->dropped_deleted = c->dropped_deleted;
  rs->dropped_expired = c->dropped_expired;
  rs->dropped_versions = c->dropped_versions;
  rs->dropped_duplicate = c->dropped_duplicate;
  rs->dropped_outside = c->dropped_outside;
}

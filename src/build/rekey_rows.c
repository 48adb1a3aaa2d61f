/*
 * The old table's rows, re-keyed (rekey_rows.h): a snapshot's regions one after
 * the other, in each a store scan per family, the families' rows merged by row.
 */
#include "build/rekey_rows.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util/coding.h"
#include "hfilegen/reader.h"
#include "util/alloc.h"

struct hfg_rekey_rows {
  const hfg_rekey_options *ro;
  int64_t as_of;
  hfg_snapshot *snap;
  hfg_keyparse *kp;
  hfg_scheme *scheme;
  char warning[512];
  size_t nf;
  size_t next_region;            /* the region to open when the current one ends */
  size_t end_region;             /* one past the last region to read (seek) */
  int open;                      /* a region's scans are set up */
  size_t region;                 /* ... this one */
  hfg_store_scan **scans;        /* per family */
  hfg_reader **readers;
  size_t nreaders;
  const hfg_cell **cur;          /* each family's current row's cells ... */
  size_t *ncur;                  /* ... (0: the row has none left visible) */
  const uint8_t **crow;          /* each family's current row (NULL: the scan ended) */
  size_t *crow_len;
  const hfg_cell **take;         /* the row handed out: cur[f] where it is that row */
  size_t *ntake;
  unsigned char *moves;          /* the families holding the row handed out ... */
  int advance;                   /* ... move on before the next row */
  uint64_t ordinal;
  hfg_store_scan_counts done;    /* counts of the regions closed */
  uint64_t store_files;
  hfg_keyparse_result kr;
  uint8_t key[HFG_REKEY_MAX_ROW + 1];
  char why[1024];
};

static void add_counts(hfg_store_scan_counts *a, const hfg_store_scan_counts *b) {
  a->cells_read += b->cells_read;
  a->cells_output += b->cells_output;
  a->rows_output += b->rows_output;
  a->rows_empty += b->rows_empty;
  a->markers_read += b->markers_read;
  a->dropped_marker += b->dropped_marker;
  a->dropped_deleted += b->dropped_deleted;
  a->dropped_expired += b->dropped_expired;
  a->dropped_versions += b->dropped_versions;
  a->dropped_duplicate += b->dropped_duplicate;
  a->dropped_outside += b->dropped_outside;
}

static void close_region(hfg_rekey_rows *r) {
  if (!r->open) return;
  for (size_t f = 0; f < r->nf; f++) {
    if (!r->scans[f]) continue;
    hfg_store_scan_counts c;
    hfg_store_scan_counts_get(r->scans[f], &c);
    add_counts(&r->done, &c);
    hfg_store_scan_free(r->scans[f]);
    r->scans[f] = NULL;
  }
  for (size_t i = 0; i < r->nreaders; i++) hfg_reader_close(r->readers[i]);
  hfg_free(r->readers);
  r->readers = NULL;
  r->nreaders = 0;
  r->open = 0;
  r->advance = 0;
}

int hfg_rekey_rows_open(const hfg_rekey_options *ro, int64_t as_of_ms, hfg_rekey_rows **out,
                        hfg_err *err) {
  *out = NULL;
  hfg_rekey_rows *r = hfg_calloc(1, sizeof *r);
  if (!r) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  r->ro = ro;
  r->as_of = as_of_ms;
  char msg[1024];
  int rc = hfg_snapshot_open(ro->from_dir, ro->snapshot, &r->snap);
  if (rc) {
    hfg_err_set(err, rc, "%s", r->snap ? hfg_snapshot_errmsg(r->snap) : "out of memory");
  } else if ((rc = hfg_keyparse_compile(ro->old_key, &r->kp, msg, sizeof msg))) {
    rc = hfg_err_set(err, rc == HFG_ENOMEM ? rc : HFG_EINVAL, "--old-key '%s': %s", ro->old_key,
                     msg);
  } else if ((rc = hfg_keyparse_rowkey(r->kp, ro->build.rowkey, &r->scheme, msg, sizeof msg))) {
    rc = hfg_err_set(err, rc == HFG_ENOMEM ? rc : HFG_EINVAL, "rowkey '%s': %s", ro->build.rowkey,
                     msg);
  } else if ((rc = hfg_keyparse_check_rekey(r->kp, r->scheme, r->warning, sizeof r->warning, msg,
                                            sizeof msg))) {
    hfg_err_set(err, rc, "%s", msg);
  } else if ((r->nf = hfg_snapshot_nfamilies(r->snap)) == 0) {
    rc = hfg_err_set(err, HFG_EINVAL, "%s: the table has no column family", ro->from_dir);
  } else if (r->nf > UINT16_MAX) {
    rc = hfg_err_set(err, HFG_EINVAL, "%s: more than %u families", ro->from_dir, UINT16_MAX);
  } else if (!(r->scans = hfg_calloc(r->nf, sizeof *r->scans)) ||
             !(r->cur = hfg_calloc(r->nf, sizeof *r->cur)) ||
             !(r->ncur = hfg_calloc(r->nf, sizeof *r->ncur)) ||
             !(r->crow = hfg_calloc(r->nf, sizeof *r->crow)) ||
             !(r->moves = hfg_calloc(r->nf, sizeof *r->moves)) ||
             !(r->crow_len = hfg_calloc(r->nf, sizeof *r->crow_len)) ||
             !(r->take = hfg_calloc(r->nf, sizeof *r->take)) ||
             !(r->ntake = hfg_calloc(r->nf, sizeof *r->ntake))) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  if (rc) {
    hfg_rekey_rows_free(r);
    return rc;
  }
  r->end_region = hfg_snapshot_nregions(r->snap);
  *out = r;
  return 0;
}

/* A scan's read error names the store file as the region lists it; the message adds
 * the region, the family and the path of the bytes (a link's or reference's target). */
static int scan_fail(hfg_rekey_rows *r, size_t f, int code, hfg_err *err) {
  const hfg_snap_region *reg = hfg_snapshot_region(r->snap, r->region);
  const char *msg = hfg_store_scan_errmsg(r->scans[f]);
  const hfg_snap_store *st = &reg->stores[f];
  const char *path = NULL;
  for (size_t i = 0; i < st->nfiles && !path; i++)
    if (st->files[i].name && strstr(msg, st->files[i].name)) path = st->files[i].path;
  return hfg_err_set(err, code, "%s%s%sfamily %s: %s%s%s%s", reg->encoded[0] ? "region " : "",
                     reg->encoded, reg->encoded[0] ? ", " : "",
                     hfg_snapshot_family(r->snap, f)->name, msg, path ? " (file " : "",
                     path ? path : "", path ? ")" : "");
}

static int scan_options(const hfg_rekey_rows *r, size_t f, hfg_store_scan_options *so) {
  const hfg_snap_family *sf = hfg_snapshot_family(r->snap, f);
  const hfg_snap_region *reg = hfg_snapshot_region(r->snap, r->region);
  hfg_store_scan_options init = HFG_STORE_SCAN_OPTIONS_INIT;
  *so = init;
  so->raw = r->ro->raw;
  so->as_of_ms = r->as_of;
  if (r->ro->snapshot) {
    so->versions = sf->versions;
    so->min_versions = sf->min_versions;
    so->ttl_seconds = sf->ttl;
    so->keep_deleted = !sf->keep_deleted_cells ? HFG_KEEP_DELETED_FALSE
                       : !strcasecmp(sf->keep_deleted_cells, "TRUE") ? HFG_KEEP_DELETED_TRUE
                       : !strcasecmp(sf->keep_deleted_cells, "TTL")  ? HFG_KEEP_DELETED_TTL
                                                                     : HFG_KEEP_DELETED_FALSE;
    so->new_version_behavior = sf->new_version_behavior;
  } else {
    so->versions = INT32_MAX; /* family folders: no schema, every version is kept */
  }
  so->family = (const uint8_t *)sf->name;
  so->family_len = sf->name_len;
  so->start_row = reg->start_key;
  so->start_row_len = reg->start_key_len;
  so->end_row = reg->end_key;
  so->end_row_len = reg->end_key_len;
  so->empty_rows = 1; /* a row whose every cell is gone is still an old row, counted */
  return 0;
}

/* The store files of family f of the current region, into its scan. */
static int add_files(hfg_rekey_rows *r, size_t f, hfg_err *err) {
  const hfg_snap_store *st = &hfg_snapshot_region(r->snap, r->region)->stores[f];
  for (size_t i = 0; i < st->nfiles; i++) {
    const hfg_snap_file *sfile = &st->files[i];
    hfg_reader **grown = hfg_realloc(r->readers, (r->nreaders + 1) * sizeof *r->readers);
    if (!grown) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    r->readers = grown;
    hfg_reader *rd = NULL;
    int rc = hfg_reader_open(sfile->path, &rd);
    r->readers[r->nreaders++] = rd;
    if (rc) return hfg_err_set(err, rc, "%s: %s", sfile->path, rd ? hfg_reader_errmsg(rd)
                                                                  : "out of memory");
    hfg_store_file sf2;
    memset(&sf2, 0, sizeof sf2);
    sf2.reader = rd;
    sf2.name = sfile->name;
    sf2.half = sfile->half == HFG_SNAP_TOP      ? HFG_HALF_TOP
               : sfile->half == HFG_SNAP_BOTTOM ? HFG_HALF_BOTTOM
                                                : HFG_HALF_WHOLE;
    sf2.split_row = sfile->split_row;
    sf2.split_row_len = sfile->split_row_len;
    if ((rc = hfg_store_scan_describe(r->scans[f], &sf2)) ||
        (rc = hfg_store_scan_add(r->scans[f], &sf2)))
      return hfg_err_set(err, rc, "%s: %s", sfile->path, hfg_store_scan_errmsg(r->scans[f]));
    r->store_files++;
  }
  return 0;
}

/* Family f's next row (its cells, maybe none, and its key): 0, or < 0 with err set. */
static int step(hfg_rekey_rows *r, size_t f, hfg_err *err) {
  int n = hfg_store_scan_next_row(r->scans[f], &r->cur[f], &r->ncur[f]);
  if (n < 0) return scan_fail(r, f, n, err);
  r->crow[f] = NULL;
  r->crow_len[f] = 0;
  if (n == 0) r->cur[f] = NULL, r->ncur[f] = 0;
  else r->crow[f] = hfg_store_scan_row(r->scans[f], &r->crow_len[f]);
  return 0;
}

/* Sets up region r->region: its scans, the first row of each. */
static int open_region(hfg_rekey_rows *r, hfg_err *err) {
  r->open = 1;
  r->ordinal = 0;
  for (size_t f = 0; f < r->nf; f++) {
    hfg_store_scan_options so;
    scan_options(r, f, &so);
    int rc = hfg_store_scan_create(&so, &r->scans[f]);
    if (rc)
      return hfg_err_set(err, rc, "family %s: %s", hfg_snapshot_family(r->snap, f)->name,
                         r->scans[f] ? hfg_store_scan_errmsg(r->scans[f]) : "out of memory");
    if ((rc = add_files(r, f, err))) return rc;
  }
  for (size_t f = 0; f < r->nf; f++) {
    int rc = step(r, f, err);
    if (rc) return rc;
  }
  return 0;
}


/* The old key parsed and re-keyed: 0 (row->key set), HFG_EPARSE (row->why set:
 * the row is rejected), or another code (fatal, err set). */
static int rekey_row(hfg_rekey_rows *r, hfg_rekey_row *row, hfg_err *err) {
  row->fields = NULL;
  row->nfields = 0;
  int rc = hfg_keyparse_parse(r->kp, row->old_key, row->old_len, &r->kr, r->why, sizeof r->why);
  size_t klen = 0;
  if (!rc) {
    row->fields = r->kr.fields;
    row->nfields = hfg_keyparse_field_count(r->kp);
    rc = hfg_scheme_eval(r->scheme, row->fields, row->nfields, r->key, sizeof r->key, &klen,
                         r->why, sizeof r->why);
  }
  if (rc == HFG_ETOOBIG || (!rc && klen > HFG_REKEY_MAX_ROW)) {
    snprintf(r->why, sizeof r->why, "the new rowkey is longer than HBase's %d bytes",
             HFG_REKEY_MAX_ROW);
    rc = HFG_EPARSE;
  } else if (!rc && klen == 0) {
    snprintf(r->why, sizeof r->why, "the new rowkey is empty");
    rc = HFG_EPARSE;
  }
  if (rc && rc != HFG_EPARSE)
    return hfg_err_set(err, rc, "old row %llu: %s", (unsigned long long)row->ordinal, r->why);
  row->rejected = rc == HFG_EPARSE;
  row->why = row->rejected ? r->why : NULL;
  row->key = row->rejected ? NULL : r->key;
  row->key_len = row->rejected ? 0 : klen;
  return 0;
}

int hfg_rekey_rows_next(hfg_rekey_rows *r, hfg_rekey_row *row, hfg_err *err) {
  int rc = 0;
  for (;;) {
    if (r->advance) { /* the families of the last row move on */
      r->advance = 0;
      for (size_t f = 0; f < r->nf; f++)
        if (r->moves[f] && (rc = step(r, f, err))) goto failed;
    }
    if (!r->open) {
      if (r->next_region >= r->end_region) return 0;
      r->region = r->next_region++;
      if ((rc = open_region(r, err))) goto failed;
    }
    long min = -1; /* the family holding the lowest current row */
    for (size_t f = 0; f < r->nf; f++)
      if (r->crow[f] && (min < 0 || hfg_bytes_cmp(r->crow[f], r->crow_len[f], r->crow[min],
                                                   r->crow_len[min]) < 0))
        min = (long)f;
    if (min < 0) {
      close_region(r);
      continue;
    }
    const uint8_t *key = r->crow[min];
    size_t klen = r->crow_len[min], total = 0;
    for (size_t f = 0; f < r->nf; f++) {
      int same = r->crow[f] && hfg_bytes_cmp(r->crow[f], r->crow_len[f], key, klen) == 0;
      r->moves[f] = (unsigned char)same; /* with cells or without */
      r->take[f] = same ? r->cur[f] : NULL;
      r->ntake[f] = same ? r->ncur[f] : 0;
      total += r->ntake[f];
    }
    r->advance = 1; /* the rows stay valid until each family's scan moves on */
    memset(row, 0, sizeof *row);
    row->region = r->region;
    row->ordinal = ++r->ordinal;
    row->old_key = key;
    row->old_len = klen;
    row->cells = r->take;
    row->ncells = r->ntake;
    row->empty = total == 0;
    if (!row->empty && (rc = rekey_row(r, row, err))) goto failed;
    return 1;
  }
failed:
  close_region(r);
  r->next_region = hfg_snapshot_nregions(r->snap);
  return rc;
}

int hfg_rekey_rows_seek(hfg_rekey_rows *r, size_t region) {
  if (region >= hfg_snapshot_nregions(r->snap)) return HFG_EINVAL;
  close_region(r);
  memset(&r->done, 0, sizeof r->done);
  r->store_files = 0;
  r->next_region = region;
  r->end_region = region + 1;
  return 0;
}

const hfg_snapshot *hfg_rekey_rows_snapshot(const hfg_rekey_rows *r) { return r->snap; }
const hfg_keyparse *hfg_rekey_rows_keyparse(const hfg_rekey_rows *r) { return r->kp; }
const hfg_scheme *hfg_rekey_rows_scheme(const hfg_rekey_rows *r) { return r->scheme; }
const char *hfg_rekey_rows_warning(const hfg_rekey_rows *r) { return r->warning; }

void hfg_rekey_rows_counts(const hfg_rekey_rows *r, hfg_store_scan_counts *c,
                           uint64_t *store_files) {
  *c = r->done;
  if (r->open)
    for (size_t f = 0; f < r->nf; f++) {
      if (!r->scans[f]) continue;
      hfg_store_scan_counts x;
      hfg_store_scan_counts_get(r->scans[f], &x);
      add_counts(c, &x);
    }
  if (store_files) *store_files = r->store_files;
}

void hfg_rekey_rows_free(hfg_rekey_rows *r) {
  if (!r) return;
  close_region(r);
  hfg_free(r->scans);
  hfg_free(r->cur);
  hfg_free(r->ncur);
  hfg_free(r->crow);
  hfg_free(r->moves);
  hfg_free(r->crow_len);
  hfg_free(r->take);
  hfg_free(r->ntake);
  hfg_scheme_free(r->scheme);
  hfg_keyparse_free(r->kp);
  hfg_snapshot_free(r->snap);
  hfg_free(r);
}

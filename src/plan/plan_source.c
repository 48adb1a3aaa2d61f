/*
 * Sampled, keyed records with their estimated HFile size, for `plan` and
 * sample-balanced split keys. See plan_source.h; the cells come from the
 * column map build uses (build/columns.h) and values are encoded as
 * build_payload in build.c does, so the estimate describes the cells build
 * would write.
 */
#include "plan/plan_source.h"

#include "input/record_dialect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build/changes.h"
#include "build/columns.h"
#include "build/timestamps.h"
#include "build/values.h"
#include "hfilegen/plan.h"
#include "input/source_db.h"
#include "plan/plan_snapshot.h"
#include "util/alloc.h"
#include "util/buf.h"

#define MAX_ROW 32767 /* HBase's row length limit, as build enforces it */


struct plan_src {
  plan_snap *snap;             /* an old table's rows (plan_snapshot.h): the rest unused */
  const hfg_build_options *b;
  hfg_record_reader *rr;
  hfg_scheme *scheme, *raw;
  int raw_first;               /* raw key = first column's bytes */
  char *raw_desc;
  long first_col;              /* the first column the rowkey reads, -1 none */
  char **names;                /* column names (copies) */
  size_t ncolumns;
  hfg_colmap map;              /* the cells build would write (build/columns.h) */
  double fraction;
  uint64_t threshold;          /* keep when mix(seed + i) < threshold (fraction < 1) */
  uint64_t seed;
  hfg_record rec;
  uint8_t key[MAX_ROW + 1], rawkey[MAX_ROW + 1];
  hfg_buf values;              /* encoded values of the current row */
  size_t *voff;                /* per cellcol: offset in values, SIZE_MAX = no cell */
  plan_cell *cells;
  size_t ncells;
  plan_src_stats st;
  /* a changes load (build/changes.h): every mapped column is a cell (a Put or a
   * DeleteColumn), a deleted row one DeleteFamily per family; no control column */
  int changes;
  long op_idx, delete_idx;
  /* the deletes source (build --deletes), read after the inputs: each record a
   * deleted row, keyed by the rowkey's columns found by name */
  hfg_record_reader *drr;
  int deletes_open;
  long *dmap;                  /* per input column: its index in the deletes source, -1 */
  hfg_field *dfields;          /* a deletes record as the input's columns */
  long dtime;                  /* --deletes-time column in the deletes source, -1 none */
  const char *lower;           /* only tombstones after it (the night's window), NULL all */
  int64_t lower_ms;
};

#define DELETE_COLUMN (SIZE_MAX - 1) /* voff: a DeleteColumn, no value */

uint64_t plan_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

static long find_name(char *const *names, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(names[i]) == len && !memcmp(names[i], name, len)) return (long)i;
  return -1;
}

/* The cells a row stores, by build's rules (build/columns.h). */
static int setup_columns(plan_src *s, hfg_err *err) {
  s->voff = hfg_calloc(s->ncolumns ? s->ncolumns : 1, sizeof *s->voff);
  s->cells = hfg_calloc(s->ncolumns ? s->ncolumns : 1, sizeof *s->cells);
  if (!s->voff || !s->cells) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  hfg_stamp stamp; /* build's check of the timestamp column; plan takes no value of it */
  char why[512];
  if (hfg_stamp_init(&stamp, s->b, (const char *const *)s->names, s->ncolumns, why, sizeof why))
    return hfg_err_set(err, HFG_EINVAL, "%s", why);
  int rc = hfg_colmap_init(&s->map, (const char *const *)s->names, s->ncolumns, s->b, s->scheme,
                           err);
  if (rc || !(s->changes = hfg_changes_wanted(s->b))) return rc;
  if ((rc = hfg_changes_controls(s->b, s->names, s->ncolumns, s->scheme, &s->op_idx,
                                 &s->delete_idx, err)) != 0)
    return rc;
  hfg_changes_drop_controls(&s->map, s->b, s->op_idx, s->delete_idx);
  return s->map.ncols ? 0 : hfg_err_set(err, HFG_EINVAL, "no column is mapped to a cell");
}

/* A deleted row of a changes load: a DeleteFamily (no qualifier) in every family a
 * column maps to, and in the table's others (build --table), as build writes them. */
static void row_family_deletes(plan_src *s, plan_row *row) {
  const hfg_colmap *m = &s->map;
  for (size_t f = 0; f < m->nfamilies; f++) {
    size_t i = 0;
    while (i < m->ncols && m->cols[i].family != f) i++;
    if (i == m->ncols) continue;
    s->cells[s->ncells++] = (plan_cell){m->families[f], "", NULL, 0};
    row->cells++;
    row->cell_bytes += m->family_len[f];
  }
  for (size_t t = 0; t < s->b->ntable_families; t++) {
    const char *tf = s->b->table_families[t].name;
    if (hfg_colmap_family(m, tf, strlen(tf)) >= 0) {
      size_t f = (size_t)hfg_colmap_family(m, tf, strlen(tf)), i = 0;
      while (i < m->ncols && m->cols[i].family != f) i++;
      if (i < m->ncols) continue; /* counted above */
    }
    if (s->ncells < s->ncolumns) s->cells[s->ncells++] = (plan_cell){tf, "", NULL, 0};
    row->cells++;
    row->cell_bytes += strlen(tf);
  }
}

static int copy_names(plan_src *s, hfg_err *err) {
  const hfg_build_options *o = s->b;
  size_t n = 0;
  const char *const *src;
  if (o->header) src = hfg_record_reader_columns(s->rr, &n);
  else src = o->columns, n = o->ncolumns;
  if ((!src || n == 0) && o->header && o->ninputs)
    return hfg_err_set(err, HFG_EINVAL,
                       "no column names: %s, the first input, holds no header row (it is empty "
                       "or blank); give --columns, or inputs with a header",
                       hfg_record_reader_input_name(s->rr, 0));
  if (!src || n == 0)
    return hfg_err_set(err, HFG_EINVAL, "no column names: give a header row or --columns");
  s->names = hfg_calloc(n, sizeof *s->names);
  if (!s->names) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    s->names[i] = hfg_strdup(src[i]);
    if (!s->names[i]) {
      s->ncolumns = i;
      return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    }
  }
  s->ncolumns = n;
  return 0;
}

/* Compiled without columns, a template numbers its columns in order of first
 * use: column 0 is the first one the key reads (the bucket field of a salted
 * scheme). */
static int first_column(plan_src *s, hfg_err *err) {
  hfg_scheme *t = NULL;
  char msg[512];
  int rc = hfg_scheme_compile(hfg_scheme_template(s->scheme), NULL, 0, &t, msg, sizeof msg);
  if (rc) return hfg_err_set(err, rc, "rowkey '%s': %s", hfg_scheme_template(s->scheme), msg);
  s->first_col = hfg_scheme_column_count(t)
                     ? hfg_scheme_column_index(s->scheme, hfg_scheme_column_name(t, 0))
                     : -1;
  hfg_scheme_free(t);
  return 0;
}

int plan_src_open(const hfg_build_options *b, double fraction, uint64_t seed,
                  const char *raw_key, plan_src **out, hfg_err *err) {
  *out = NULL;
  if (!b || b->ninputs == 0 || !b->rowkey)
    return hfg_err_set(err, HFG_EINVAL, "plan needs inputs and a rowkey template");
  if (!(fraction > 0 && fraction <= 1))
    return hfg_err_set(err, HFG_EINVAL, "sample fraction must be in (0, 1], got %g", fraction);
  plan_src *s = hfg_calloc(1, sizeof *s);
  if (!s) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  s->b = b;
  s->fraction = fraction;
  s->seed = seed;
  /* fraction * 2^64, saturating: fraction 1 keeps everything without the test */
  s->threshold = fraction >= 1 ? UINT64_MAX : (uint64_t)(fraction * 18446744073709551616.0);
  hfg_input_options io;
  hfg_build_input_options(b, &io);
  io.check_column = b->check_column; /* database inputs: incremental append */
  io.last_value = b->last_value;
  int rc;
  char msg[1024];
  if ((rc = hfg_record_reader_open(b->inputs, b->ninputs, &io, &s->rr, msg, sizeof msg)) != 0) {
    hfg_err_set(err, rc, "%s", msg);
    goto fail;
  }
  if ((rc = copy_names(s, err)) != 0) goto fail;
  if ((rc = hfg_scheme_compile(b->rowkey, (const char *const *)s->names, s->ncolumns, &s->scheme,
                               msg, sizeof msg)) != 0) {
    hfg_err_set(err, rc, "rowkey '%s': %s", b->rowkey, msg);
    goto fail;
  }
  if (raw_key && *raw_key) {
    if ((rc = hfg_scheme_compile(raw_key, (const char *const *)s->names, s->ncolumns, &s->raw, msg,
                                 sizeof msg)) != 0) {
      hfg_err_set(err, rc, "raw key '%s': %s", raw_key, msg);
      goto fail;
    }
    s->raw_desc = hfg_strdup(hfg_scheme_template(s->raw));
  } else if (raw_key) {
    s->raw_first = 1;
    size_t n = 2 * strlen(s->names[0]) + 5; /* {"name"}, '"' doubled */
    if ((s->raw_desc = hfg_malloc(n)) != NULL) {
      s->raw_desc[0] = '{';
      hfg_scheme_quote_name(s->names[0], s->raw_desc + 1, n - 2);
      strcat(s->raw_desc, "}");
    }
  }
  if (raw_key && !s->raw_desc) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto fail;
  }
  if ((rc = first_column(s, err)) != 0 || (rc = setup_columns(s, err)) != 0) goto fail;
  *out = s;
  return 0;
fail:
  plan_src_free(s);
  return rc;
}

int plan_src_open_plan(const hfg_plan_options *o, double fraction, uint64_t seed,
                       const char *raw_key, plan_src **out, hfg_err *err) {
  if (!o->rekey) return plan_src_open(o->build, fraction, seed, raw_key, out, err);
  *out = NULL;
  plan_src *s = hfg_calloc(1, sizeof *s);
  if (!s) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  int rc = plan_snap_open(o->rekey, fraction, seed, raw_key, &s->snap, err);
  if (rc) hfg_free(s);
  else *out = s;
  return rc;
}

static void note_reject(plan_src *s, const hfg_record *r, const char *why) {
  if (s->st.rejected++ == 0)
    snprintf(s->st.first_reject, sizeof s->st.first_reject, "%.200s %s %llu: %.280s",
             r->file ? r->file : "-", r->file ? hfg_record_unit(r->file) : "line",
             (unsigned long long)r->line, why);
}

/* Encodes the row's values as build would; 0, 1 when they make no cell and
 * build writes no row for the record, HFG_EPARSE (why set) or HFG_ENOMEM. */
static int row_cells(plan_src *s, plan_row *row, char *why, size_t whylen) {
  hfg_buf_reset(&s->values);
  row->cells = 0;
  row->cell_bytes = 0;
  const hfg_colmap *m = &s->map;
  s->ncells = 0;
  if (s->changes) {
    int deleted = 0;
    if (hfg_changes_deleted(s->b, s->op_idx, s->delete_idx, s->rec.fields, &deleted, why, whylen))
      return HFG_EPARSE;
    if (deleted) {
      row_family_deletes(s, row);
      return 0;
    }
  }
  for (size_t i = 0; i < m->ncols; i++) {
    const hfg_cellcol *cc = &m->cols[i];
    const hfg_field *f = &s->rec.fields[cc->column];
    s->voff[i] = SIZE_MAX;
    if (!hfg_colmap_field_is_cell(f, s->b->empty)) {
      if (!s->changes) continue;
      s->voff[i] = DELETE_COLUMN; /* no value now: a DeleteColumn masks the old ones */
      row->cells++;
      row->cell_bytes += m->family_len[cc->family] + cc->qualifier_len;
      continue;
    }
    size_t at = s->values.len;
    char e[256];
    int rc = hfg_value_encode(cc->enc, f->p, f->len, &s->values, e, sizeof e);
    if (rc == HFG_ENOMEM) return rc;
    if (rc) {
      char col[240];
      hfg_colmap_column_text(m, cc, col, sizeof col);
      snprintf(why, whylen, "%s: %.200s", col, e);
      return HFG_EPARSE;
    }
    s->voff[i] = at;
    row->cells++;
    row->cell_bytes += m->family_len[cc->family] + cc->qualifier_len + (s->values.len - at);
  }
  s->ncells = 0;
  const char *mf, *mq;
  if (row->cells == 0) { /* build's rule for a record without cells */
    if (!hfg_colmap_empty_row(s->b, &mf, &mq)) return 1;
    s->cells[s->ncells++] = (plan_cell){mf, mq, (const uint8_t *)"", 0};
    row->cells = 1;
    row->cell_bytes = strlen(mf) + strlen(mq);
  }
  for (size_t i = 0; i < m->ncols; i++) {
    if (s->voff[i] == SIZE_MAX) continue;
    if (s->voff[i] == DELETE_COLUMN) {
      s->cells[s->ncells++] = (plan_cell){m->families[m->cols[i].family], m->cols[i].qualifier,
                                          NULL, 0};
      continue;
    }
    size_t end = s->values.len;
    for (size_t k = i + 1; k < m->ncols; k++)
      if (s->voff[k] < DELETE_COLUMN) {
        end = s->voff[k];
        break;
      }
    s->cells[s->ncells++] = (plan_cell){m->families[m->cols[i].family], m->cols[i].qualifier,
                                        s->values.p ? s->values.p + s->voff[i] : NULL,
                                        end - s->voff[i]};
  }
  return 0;
}

static void raw_key(plan_src *s, plan_row *row) {
  row->raw = NULL;
  row->raw_len = 0;
  if (s->raw_first) {
    const hfg_field *f = &s->rec.fields[0];
    if (f->len > 0 && f->len <= MAX_ROW) row->raw = (const uint8_t *)f->p, row->raw_len = f->len;
  } else if (s->raw) {
    size_t len;
    if (hfg_scheme_eval(s->raw, s->rec.fields, s->rec.nfields, s->rawkey, MAX_ROW, &len, NULL, 0) ==
            0 &&
        len > 0)
      row->raw = s->rawkey, row->raw_len = len;
  }
  if (!row->raw && (s->raw || s->raw_first)) s->st.raw_unkeyed++;
}

/* Opens the deletes source as build reads it (changes.c, hfg_changes_ingest_deletes):
 * a header, the key columns by name, this night's window of tombstones. */
static int open_deletes(plan_src *s, hfg_err *err) {
  const hfg_build_options *o = s->b;
  s->deletes_open = 1;
  char msg[1024];
  int rc = hfg_changes_open_deletes(o, &s->drr, &s->lower, &s->lower_ms, msg, sizeof msg);
  if (rc) return hfg_err_set(err, rc, "deletes source: %s", msg);
  s->dmap = hfg_calloc(s->ncolumns ? s->ncolumns : 1, sizeof *s->dmap);
  s->dfields = hfg_calloc(s->ncolumns ? s->ncolumns : 1, sizeof *s->dfields);
  if (!s->dmap || !s->dfields) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  size_t dn = 0;
  const char *const *dnames = hfg_record_reader_columns(s->drr, &dn);
  const char *shown = hfg_record_reader_input_name(s->drr, 0);
  for (size_t c = 0; c < s->ncolumns; c++) {
    s->dmap[c] = -1;
    if (!hfg_scheme_uses_column(s->scheme, c)) continue;
    for (size_t k = 0; k < dn && s->dmap[c] < 0; k++)
      if (!strcmp(dnames[k], s->names[c])) s->dmap[c] = (long)k;
    if (s->dmap[c] < 0)
      return hfg_err_set(err, HFG_EINVAL,
                         "deletes source %s has no column '%s', which the rowkey reads: it "
                         "must name every key column in a header", shown, s->names[c]);
  }
  s->dtime = -1;
  for (size_t k = 0; o->deletes_time_column && k < dn && s->dtime < 0; k++)
    if (!strcmp(dnames[k], o->deletes_time_column)) s->dtime = (long)k;
  if (o->deletes_time_column && s->dtime < 0)
    return hfg_err_set(err, HFG_EINVAL, "deletes source %s has no column '%s' (--deletes-time)",
                       shown, o->deletes_time_column);
  return 0;
}

/* The next sampled record of the deletes source as a deleted row: 1, 0 at the end,
 * < 0 fatal. Tombstones at or before the window's start are not read, as in build. */
static int next_delete(plan_src *s, plan_row *row, hfg_err *err) {
  hfg_record r;
  for (;;) {
    int rc = hfg_record_reader_next(s->drr, &r);
    if (rc == 0) return 0;
    if (rc < 0 && rc != HFG_EPARSE)
      return hfg_err_set(err, rc, "deletes source: %s", hfg_record_reader_errmsg(s->drr));
    char why[512];
    int bad = rc == HFG_EPARSE;
    if (!bad && s->dtime >= 0) {
      int64_t ms;
      const hfg_field *tf = (size_t)s->dtime < r.nfields ? &r.fields[s->dtime] : NULL;
      if (!tf || tf->is_null) {
        snprintf(why, sizeof why, "deletes time column '%s' is NULL", s->b->deletes_time_column);
        bad = 2;
      } else if (hfg_changes_time_ms(s->b->deletes_time_column, tf, &ms, why, sizeof why)) {
        bad = 2;
      } else if (s->lower && ms <= s->lower_ms) {
        continue; /* an earlier night's tombstone: not read */
      }
    }
    uint64_t i = s->st.records_read++;
    s->st.deletes_read++;
    if (s->fraction < 1 && plan_mix64(s->seed + i) >= s->threshold) continue;
    s->st.records_sampled++;
    if (bad) {
      note_reject(s, &r, bad == 1 ? (r.reason ? r.reason : "malformed record") : why);
      continue;
    }
    for (size_t c = 0; c < s->ncolumns; c++)
      s->dfields[c] = s->dmap[c] >= 0 && (size_t)s->dmap[c] < r.nfields ? r.fields[s->dmap[c]]
                                                                      : (hfg_field){"", 0, 1};
    s->rec = r;
    s->rec.fields = s->dfields;
    s->rec.nfields = s->ncolumns;
    size_t klen = 0;
    int erc = hfg_dialect_null_key(s->scheme, s->dfields, s->ncolumns, why, sizeof why) ? HFG_EPARSE
              : hfg_scheme_eval(s->scheme, s->dfields, s->ncolumns, s->key, MAX_ROW, &klen, why,
                                sizeof why);
    if (erc == HFG_ETOOBIG) snprintf(why, sizeof why, "rowkey longer than %d bytes", MAX_ROW);
    else if (erc == 0 && klen == 0) erc = HFG_EPARSE, snprintf(why, sizeof why, "empty rowkey");
    if (erc) {
      note_reject(s, &s->rec, why);
      continue;
    }
    s->ncells = 0;
    row->cells = 0;
    row->cell_bytes = 0;
    row_family_deletes(s, row);
    row->rec = &s->rec;
    row->key = s->key;
    row->key_len = klen;
    row->input_bytes = r.raw_len + 1;
    row->raw = NULL;
    row->raw_len = 0;
    if (s->raw || s->raw_first) s->st.raw_unkeyed++;
    return 1;
  }
}

int plan_src_next(plan_src *s, plan_row *row, hfg_err *err) {
  if (s->snap) return plan_snap_next(s->snap, row, err);
  if (s->deletes_open) return next_delete(s, row, err);
  for (;;) {
    int rc = hfg_record_reader_next(s->rr, &s->rec);
    if (rc == 0 && s->b->deletes && s->changes) {
      if ((rc = open_deletes(s, err)) != 0) return rc;
      return next_delete(s, row, err);
    }
    if (rc == 0) return 0;
    if (rc < 0 && rc != HFG_EPARSE)
      return hfg_err_set(err, rc, "%s", hfg_record_reader_errmsg(s->rr));
    uint64_t i = s->st.records_read++;
    if (s->fraction < 1 && plan_mix64(s->seed + i) >= s->threshold) continue;
    s->st.records_sampled++;
    if (rc == HFG_EPARSE) {
      note_reject(s, &s->rec, s->rec.reason ? s->rec.reason : "malformed record");
      continue;
    }
    char why[512];
    size_t klen = 0;
    if (hfg_dialect_null_key(s->scheme, s->rec.fields, s->rec.nfields, why, sizeof why)) {
      note_reject(s, &s->rec, why);
      continue;
    }
    int erc = hfg_scheme_eval(s->scheme, s->rec.fields, s->rec.nfields, s->key, MAX_ROW, &klen,
                              why, sizeof why);
    if (erc == HFG_ETOOBIG) snprintf(why, sizeof why, "rowkey longer than %d bytes", MAX_ROW);
    else if (erc == 0 && klen == 0) erc = HFG_EPARSE, snprintf(why, sizeof why, "empty rowkey");
    if (erc == 0) erc = row_cells(s, row, why, sizeof why);
    if (erc == HFG_ENOMEM) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    if (erc == 1) {
      s->st.without_cells++;
      continue;
    }
    if (erc) {
      note_reject(s, &s->rec, why);
      continue;
    }
    row->rec = &s->rec;
    row->key = s->key;
    row->key_len = klen;
    row->input_bytes = s->rec.raw_len + 1;
    raw_key(s, row);
    return 1;
  }
}

const plan_cell *plan_src_cells(const plan_src *s, size_t *n) {
  if (s->snap) return plan_snap_cells(s->snap, n);
  *n = s->ncells;
  return s->cells;
}

void plan_src_stats_get(const plan_src *s, plan_src_stats *out) {
  if (s->snap) {
    plan_snap_stats_get(s->snap, out);
    return;
  }
  *out = s->st;
  out->input_bytes = hfg_record_reader_bytes_read(s->rr) +
                     (s->drr ? hfg_record_reader_bytes_read(s->drr) : 0);
}

const hfg_scheme *plan_src_scheme(const plan_src *s) {
  return s->snap ? plan_snap_scheme(s->snap) : s->scheme;
}

const char *const *plan_src_columns(const plan_src *s, size_t *n) {
  if (s->snap) return plan_snap_columns(s->snap, n);
  *n = s->ncolumns;
  return (const char *const *)s->names;
}

const char *plan_src_raw_key(const plan_src *s) {
  return s->snap ? plan_snap_raw_key(s->snap) : s->raw_desc;
}

long plan_src_hot_column(const plan_src *s, const char *name) {
  if (s->snap) return plan_snap_hot_column(s->snap, name);
  return name ? find_name(s->names, s->ncolumns, name, strlen(name)) : s->first_col;
}

void plan_src_free(plan_src *s) {
  if (!s) return;
  plan_snap_free(s->snap);
  hfg_record_reader_free(s->rr);
  hfg_record_reader_free(s->drr);
  hfg_free(s->dmap);
  hfg_free(s->dfields);
  hfg_scheme_free(s->scheme);
  hfg_scheme_free(s->raw);
  hfg_free(s->raw_desc);
  for (size_t i = 0; i < s->ncolumns; i++) hfg_free(s->names[i]);
  hfg_free(s->names);
  hfg_colmap_free(&s->map);
  hfg_free(s->voff);
  hfg_free(s->cells);
  hfg_buf_free(&s->values);
  hfg_free(s);
}

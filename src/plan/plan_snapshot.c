/*
 * An old table's rows as plan's record source (plan_snapshot.h); lint over them
 * is plan_snapshot_lint.c. The rows come from rekey's
 * own iterator (build/rekey_rows.h): the same regions, scans, cells, old-key
 * parse and new key as hfilegen rekey, so a plan over a snapshot counts per
 * region exactly the rows rekey writes there.
 */
#include "plan/plan_snapshot.h"

#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "build/rekey_rows.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

struct plan_snap {
  hfg_rekey_rows *rows;
  hfg_scheme *raw;             /* the comparison key over the old key's fields */
  int raw_old;                 /* the comparison key is the old rowkey */
  char *raw_desc;
  long first_field;            /* the first field the new rowkey reads, -1 none */
  size_t nf;                   /* the old table's families */
  uint64_t threshold;
  double fraction;
  uint64_t seed;
  hfg_record rec;              /* the row as plan's record: fields, region, ordinal */
  uint8_t rawkey[HFG_REKEY_MAX_ROW + 1];
  hfg_buf quals;               /* the row's qualifiers, NUL-terminated */
  plan_cell *cells;
  size_t ncells, cap;
  plan_src_stats st;
};

static int64_t now_ms(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* Compiled without columns, a template numbers its columns in order of first use:
 * column 0 is the first field the key reads (a salted key's bucket field). */
static int first_field(plan_snap *s, hfg_err *err) {
  const hfg_scheme *sc = hfg_rekey_rows_scheme(s->rows);
  hfg_scheme *t = NULL;
  char msg[512];
  int rc = hfg_scheme_compile(hfg_scheme_template(sc), NULL, 0, &t, msg, sizeof msg);
  if (rc) return hfg_err_set(err, rc, "rowkey '%s': %s", hfg_scheme_template(sc), msg);
  s->first_field = hfg_scheme_column_count(t)
                       ? hfg_scheme_column_index(sc, hfg_scheme_column_name(t, 0))
                       : -1;
  hfg_scheme_free(t);
  return 0;
}

int plan_snap_open(const hfg_rekey_options *ro, double fraction, uint64_t seed,
                   const char *raw_key, plan_snap **out, hfg_err *err) {
  *out = NULL;
  if (!ro || !ro->from_dir || !ro->old_key || !ro->build.rowkey)
    return hfg_err_set(err, HFG_EINVAL, "a plan over a snapshot needs --from, --old-key and "
                                        "--rowkey");
  if (!(fraction > 0 && fraction <= 1))
    return hfg_err_set(err, HFG_EINVAL, "sample fraction must be in (0, 1], got %g", fraction);
  plan_snap *s = hfg_calloc(1, sizeof *s);
  if (!s) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  s->fraction = fraction;
  s->seed = seed;
  s->threshold = fraction >= 1 ? UINT64_MAX : (uint64_t)(fraction * 18446744073709551616.0);
  int rc = hfg_rekey_rows_open(ro, ro->as_of >= 0 ? ro->as_of : now_ms(), &s->rows, err);
  if (!rc && raw_key && *raw_key) {
    char msg[1024];
    rc = hfg_keyparse_rowkey(hfg_rekey_rows_keyparse(s->rows), raw_key, &s->raw, msg, sizeof msg);
    if (rc) rc = hfg_err_set(err, rc == HFG_ENOMEM ? rc : HFG_EINVAL, "raw key '%s': %s", raw_key,
                             msg);
    else if (!(s->raw_desc = hfg_strdup(hfg_scheme_template(s->raw))))
      rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  } else if (!rc && raw_key) {
    s->raw_old = 1; /* the old rowkey, shown as its pattern */
    if (!(s->raw_desc = hfg_strdup(ro->old_key)))
      rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  if (!rc) rc = first_field(s, err);
  if (!rc) s->nf = hfg_snapshot_nfamilies(hfg_rekey_rows_snapshot(s->rows));
  if (rc) {
    plan_snap_free(s);
    return rc;
  }
  *out = s;
  return 0;
}

static void note_reject(plan_snap *s, const hfg_rekey_row *row) {
  if (s->st.rejected++ != 0) return;
  const hfg_snap_region *reg = hfg_snapshot_region(hfg_rekey_rows_snapshot(s->rows), row->region);
  hfg_buf k = HFG_BUF_INIT;
  hfg_escape(&k, row->old_key, row->old_len > 100 ? 100 : row->old_len);
  snprintf(s->st.first_reject, sizeof s->st.first_reject, "region %s row %llu '%.*s': %.280s",
           reg->encoded[0] ? reg->encoded : "-", (unsigned long long)row->ordinal, (int)k.len,
           k.p ? (const char *)k.p : "", row->why);
  hfg_buf_free(&k);
}

/* The row's cells as plan_cells (qualifiers copied NUL-terminated) and their sizes. */
static int row_cells(plan_snap *s, const hfg_rekey_row *r, plan_row *row) {
  const hfg_snapshot *snap = hfg_rekey_rows_snapshot(s->rows);
  size_t nf = hfg_snapshot_nfamilies(snap), n = 0;
  for (size_t f = 0; f < nf; f++) n += r->ncells[f];
  if (n > s->cap) {
    plan_cell *c = hfg_realloc(s->cells, n * sizeof *c);
    if (!c) return HFG_ENOMEM;
    s->cells = c;
    s->cap = n;
  }
  hfg_buf_reset(&s->quals);
  row->cells = n;
  row->cell_bytes = 0;
  s->ncells = 0;
  /* the qualifiers first, pointers after: the buffer may move while it grows */
  for (size_t f = 0; f < nf; f++)
    for (size_t c = 0; c < r->ncells[f]; c++) {
      const hfg_cell *x = &r->cells[f][c];
      if (hfg_buf_append(&s->quals, x->qualifier, x->qualifier_len) ||
          hfg_buf_append(&s->quals, "", 1))
        return HFG_ENOMEM;
      row->cell_bytes += x->family_len + x->qualifier_len + x->value_len + x->tags_len;
    }
  size_t at = 0;
  for (size_t f = 0; f < nf; f++)
    for (size_t c = 0; c < r->ncells[f]; c++) {
      const hfg_cell *x = &r->cells[f][c];
      s->cells[s->ncells++] = (plan_cell){hfg_snapshot_family(snap, f)->name,
                                          (const char *)s->quals.p + at, x->value, x->value_len};
      at += x->qualifier_len + 1;
    }
  return 0;
}

/* The old row's KeyValues, as plan_kv_bytes counts them: the "input bytes" of a
 * plan over a table are what its rows take in the old table's data blocks. */
static uint64_t old_kv_bytes(const hfg_rekey_row *r, size_t nf) {
  uint64_t b = 0;
  for (size_t f = 0; f < nf; f++)
    for (size_t c = 0; c < r->ncells[f]; c++) {
      const hfg_cell *x = &r->cells[f][c];
      b += 12 + 8 + 3 + r->old_len + x->family_len + x->qualifier_len + x->value_len +
           x->tags_len;
    }
  return b;
}

int plan_snap_next(plan_snap *s, plan_row *row, hfg_err *err) {
  for (;;) {
    hfg_rekey_row r;
    int rc = hfg_rekey_rows_next(s->rows, &r, err);
    if (rc <= 0) return rc;
    uint64_t i = s->st.records_read++;
    s->st.input_bytes += old_kv_bytes(&r, s->nf);
    if (s->fraction < 1 && plan_mix64(s->seed + i) >= s->threshold) continue;
    s->st.records_sampled++;
    if (r.empty) continue; /* no cell left visible: rekey writes no row for it */
    if (r.rejected) {
      note_reject(s, &r);
      continue;
    }
    memset(row, 0, sizeof *row);
    if (row_cells(s, &r, row)) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    const hfg_snap_region *reg =
        hfg_snapshot_region(hfg_rekey_rows_snapshot(s->rows), r.region);
    s->rec.fields = r.fields;
    s->rec.nfields = r.nfields;
    s->rec.file = reg->encoded[0] ? reg->encoded : "-";
    s->rec.line = r.ordinal;
    s->rec.raw = (const char *)r.old_key;
    s->rec.raw_len = r.old_len;
    s->rec.reason = NULL;
    row->rec = &s->rec;
    row->key = r.key;
    row->key_len = r.key_len;
    row->input_bytes = plan_kv_bytes(row, r.old_len);
    if (s->raw_old) {
      row->raw = r.old_key;
      row->raw_len = r.old_len;
    } else if (s->raw) {
      size_t len;
      if (hfg_scheme_eval(s->raw, r.fields, r.nfields, s->rawkey, HFG_REKEY_MAX_ROW, &len, NULL,
                          0) == 0 && len > 0)
        row->raw = s->rawkey, row->raw_len = len;
      else
        s->st.raw_unkeyed++;
    }
    return 1;
  }
}

const plan_cell *plan_snap_cells(const plan_snap *s, size_t *n) {
  *n = s->ncells;
  return s->cells;
}

void plan_snap_stats_get(const plan_snap *s, plan_src_stats *out) { *out = s->st; }

const hfg_scheme *plan_snap_scheme(const plan_snap *s) { return hfg_rekey_rows_scheme(s->rows); }

const char *const *plan_snap_columns(const plan_snap *s, size_t *n) {
  const hfg_keyparse *kp = hfg_rekey_rows_keyparse(s->rows);
  *n = hfg_keyparse_field_count(kp);
  return hfg_keyparse_field_names(kp);
}

long plan_snap_hot_column(const plan_snap *s, const char *name) {
  if (!name) return s->first_field;
  size_t n;
  const char *const *names = plan_snap_columns(s, &n);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return (long)i;
  return -1;
}

const char *plan_snap_raw_key(const plan_snap *s) { return s->raw_desc; }

const char *plan_snap_warning(const plan_snap *s) { return hfg_rekey_rows_warning(s->rows); }

void plan_snap_free(plan_snap *s) {
  if (!s) return;
  hfg_rekey_rows_free(s->rows);
  hfg_scheme_free(s->raw);
  hfg_free(s->raw_desc);
  hfg_buf_free(&s->quals);
  hfg_free(s->cells);
  hfg_free(s);
}

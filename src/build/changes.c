/*
 * Changes: a row's whole state as Puts and DeleteColumn markers, deleted rows
 * as DeleteFamily markers (changes.h; the rules and their HBase sources in
 * format-specs/nightly-loads.md).
 */
#define _GNU_SOURCE
#include "build/changes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#include "build/cell_payload.h"
#include "build/values.h"
#include "input/record_dialect.h"
#include "input/source_db.h"
#include "util/alloc.h"
#include "util/coding.h"

#define DAY_MS 86400000LL
#define TOMBSTONE_SEQ ((uint64_t)1 << 63) /* hard deletes sort after live records */
#define FLAG_TOMBSTONE 1                  /* in the payload header's (unused) ts field */

typedef struct hfg_changes {
  long op_idx, delete_idx, check_idx; /* input column indices, -1 none */
  int ts_from_check;                  /* lastmodified: T is the check column */
  int64_t horizon;                    /* T above this (a day past the clock) fails the job */
  unsigned char *fam_used;            /* per family: deleted rows get a DeleteFamily in it */
  char **names;                       /* the input's column names (copies) */
  size_t nnames;
} hfg_changes;

int hfg_changes_wanted(const hfg_build_options *o) {
  return o->changes || o->delete_if || o->op_column || o->deletes ||
         (o->check_column && o->incremental_mode == HFG_INCR_LASTMODIFIED);
}

static long find(char *const *names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return (long)i;
  return -1;
}

static int mapped_explicitly(const hfg_build_options *o, const char *name) {
  size_t nl = strlen(name);
  for (size_t i = 0; i < o->nmappings; i++)
    if (!strncmp(o->mappings[i], name, nl) && o->mappings[i][nl] == '=') return 1;
  return 0;
}

static void drop_column(hfg_colmap *m, long idx);

int hfg_changes_controls(const hfg_build_options *o, char *const *names, size_t n,
                         const hfg_scheme *scheme, long *op_idx, long *delete_idx, hfg_err *err) {
  struct {
    const char *name, *flag;
    long *idx;
  } ctl[] = {{o->op_column, "--op-column", op_idx}, {o->delete_if, "--delete-if", delete_idx}};
  for (size_t k = 0; k < 2; k++) {
    *ctl[k].idx = -1;
    if (!ctl[k].name) continue;
    *ctl[k].idx = find(names, n, ctl[k].name);
    if (*ctl[k].idx < 0) {
      char hint[400];
      return hfg_err_set(err, HFG_EINVAL, "%s '%s' is not a column%s", ctl[k].flag, ctl[k].name,
                         hfg_columns_hint(hint, sizeof hint, (const char *const *)names, n,
                                          ctl[k].name, strlen(ctl[k].name)));
    }
    if (hfg_scheme_uses_column(scheme, (size_t)*ctl[k].idx))
      return hfg_err_set(err, HFG_EINVAL, "%s '%s' is a column of the rowkey", ctl[k].flag,
                         ctl[k].name);
  }
  if (o->op_column && o->delete_if && *op_idx == *delete_idx)
    return hfg_err_set(err, HFG_EINVAL, "--op-column and --delete-if name the same column '%s'",
                       o->op_column);
  return 0;
}

/* A control column (the op column, the delete flag) says what to do with the
 * row; it is no cell of it unless --map names it. */
void hfg_changes_drop_controls(hfg_colmap *m, const hfg_build_options *o, long op_idx,
                               long delete_idx) {
  if (op_idx >= 0 && !mapped_explicitly(o, o->op_column)) drop_column(m, op_idx);
  if (delete_idx >= 0 && !mapped_explicitly(o, o->delete_if)) drop_column(m, delete_idx);
}

static void drop_column(hfg_colmap *m, long idx) {
  for (size_t i = 0; i < m->ncols; i++)
    if ((long)m->cols[i].column == idx) {
      hfg_free(m->cols[i].qualifier);
      memmove(&m->cols[i], &m->cols[i + 1], (m->ncols - i - 1) * sizeof *m->cols);
      m->ncols--;
      break;
    }
}

int hfg_changes_setup(job *j, char *const *names, size_t n) {
  const hfg_build_options *o = j->o;
  hfg_changes *ch = hfg_calloc(1, sizeof *ch);
  if (!ch) return fail(j, HFG_ENOMEM, "out of memory");
  j->changes = ch;
  ch->op_idx = ch->delete_idx = ch->check_idx = -1;
  hfg_err ce = {0};
  if (hfg_changes_controls(o, names, n, j->scheme, &ch->op_idx, &ch->delete_idx, &ce))
    return fail(j, ce.code, "%s", ce.msg);
  if (o->empty_row == HFG_EMPTY_ROW_MARKER)
    return fail(j, HFG_EINVAL, "--empty-row marker does not go with a changes load: a row "
                               "whose every column is NULL has no cell left after its "
                               "DeleteColumn markers, as in the source it has no value");
  if (o->check_column && o->incremental_mode == HFG_INCR_LASTMODIFIED) {
    ch->check_idx = find(names, n, o->check_column);
    ch->ts_from_check = !o->timestamp_column;
  }
  hfg_changes_drop_controls(&j->map, o, ch->op_idx, ch->delete_idx);
  j->cols = j->map.cols;
  j->ncols = j->map.ncols;
  if (j->ncols == 0) return fail(j, HFG_EINVAL, "no column is mapped to a cell");
  /* A deleted row is a DeleteFamily in every family of the table when the table is
   * known (build --table), as HBase's row delete is (HRegion.prepareDelete); else in
   * every family a column maps to. */
  const int deletes_rows = o->delete_if || o->op_column || o->deletes;
  for (size_t t = 0; deletes_rows && t < o->ntable_families; t++) {
    hfg_err e = {0};
    const char *tf = o->table_families[t].name;
    if (hfg_colmap_add_family(&j->map, tf, strlen(tf), &e) < 0)
      return fail(j, e.code, "%s", e.msg);
  }
  j->families = j->map.families;
  j->family_len = j->map.family_len;
  j->nfamilies = j->map.nfamilies;
  ch->fam_used = hfg_calloc(j->nfamilies ? j->nfamilies : 1, 1);
  ch->names = hfg_calloc(n ? n : 1, sizeof *ch->names);
  if (!ch->fam_used || !ch->names) return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t i = 0; i < j->ncols; i++) ch->fam_used[j->cols[i].family] = 1;
  for (size_t f = 0; f < j->nfamilies; f++)
    for (size_t t = 0; deletes_rows && t < o->ntable_families; t++)
      if (!strcmp(j->families[f], o->table_families[t].name)) ch->fam_used[f] = 1;
  for (size_t i = 0; i < n; i++) {
    if (!(ch->names[i] = hfg_strdup(names[i]))) return fail(j, HFG_ENOMEM, "out of memory");
    ch->nnames++;
  }
  struct timeval tv;
  gettimeofday(&tv, NULL);
  ch->horizon = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000 + DAY_MS;
  j->cell_payload = 1;
  return 0;
}

void hfg_changes_free(job *j) {
  hfg_changes *ch = j->changes;
  if (!ch) return;
  for (size_t i = 0; i < ch->nnames; i++) hfg_free(ch->names[i]);
  hfg_free(ch->names);
  hfg_free(ch->fam_used);
  hfg_free(ch);
  j->changes = NULL;
}

int hfg_changes_is_tombstone(const uint8_t *payload, size_t plen) {
  return plen >= HFG_CELL_PAYLOAD_HEADER && hfg_get_be64(payload) == FLAG_TOMBSTONE;
}

enum { ROW_LIVE, ROW_DELETED };

static int eq_word(const hfg_field *f, const char *w) {
  return f->len == strlen(w) && !strncasecmp(f->p, w, f->len);
}

/* The op column's value: insert/update (the row's state) or delete. */
static int op_of(const hfg_field *f, int *what, char *why, size_t whylen, const char *col) {
  static const char *const live[] = {"i", "c", "r", "u", "insert", "create", "update", "read"};
  static const char *const del[] = {"d", "delete"};
  if (!f->is_null)
    for (size_t i = 0; i < sizeof live / sizeof *live; i++)
      if (eq_word(f, live[i])) return *what = ROW_LIVE, 0;
  if (!f->is_null)
    for (size_t i = 0; i < sizeof del / sizeof *del; i++)
      if (eq_word(f, del[i])) return *what = ROW_DELETED, 0;
  if (f->is_null)
    snprintf(why, whylen, "op column '%s' is NULL (expected i, c, r, u, d or insert, create, "
             "read, update, delete)", col);
  else
    snprintf(why, whylen, "op column '%s' holds '%.*s' (expected i, c, r, u, d or insert, "
             "create, read, update, delete)", col, (int)(f->len > 40 ? 40 : f->len), f->p);
  return HFG_EPARSE;
}

/* A soft-delete column says "deleted" unless it is NULL, empty, 0, f, false, n or no. */
static int flag_set(const hfg_field *f) {
  static const char *const off[] = {"0", "f", "false", "n", "no"};
  if (f->is_null || f->len == 0) return 0;
  for (size_t i = 0; i < sizeof off / sizeof *off; i++)
    if (eq_word(f, off[i])) return 0;
  return 1;
}

int hfg_changes_deleted(const hfg_build_options *o, long op_idx, long delete_idx,
                        const hfg_field *fields, int *deleted, char *why, size_t whylen) {
  *deleted = ROW_LIVE;
  if (op_idx >= 0 && op_of(&fields[op_idx], deleted, why, whylen, o->op_column))
    return HFG_EPARSE;
  if (delete_idx >= 0 && flag_set(&fields[delete_idx])) *deleted = ROW_DELETED;
  return 0;
}

/* DeleteFamily markers at ts in every family a column maps to. */
static int add_family_deletes(job *j, hfg_buf *pl, int64_t ts) {
  hfg_cell c;
  memset(&c, 0, sizeof c);
  c.timestamp = ts;
  c.type = HFG_TYPE_DELETE_FAMILY;
  c.value = (const uint8_t *)"";
  for (size_t f = 0; f < j->nfamilies; f++)
    if (j->changes->fam_used[f] && hfg_cell_payload_add(pl, (uint16_t)f, &c)) return HFG_ENOMEM;
  return 0;
}

/* A check or deletes-time column's value in epoch ms: an integer is epoch ms
 * (checked as --timestamp column: is); a database datetime (timestamp,
 * timestamptz, DATETIME, TIMESTAMP: the source compared and recorded it in
 * epoch ms, source_db.h) is converted by the same rule as the source's. */
static int column_ms(const hfg_stamp *st, const hfg_field *f, int64_t *ts, char *why,
                     size_t whylen) {
  if (f->len && !hfg_db_is_integer(f->p, f->len) && !hfg_db_datetime_ms(f->p, f->len, ts)) {
    if (*ts >= 0) return 0;
    snprintf(why, whylen, "column '%s': '%.*s' is before 1970 (a negative timestamp)", st->name,
             (int)(f->len > 40 ? 40 : f->len), f->p);
    return HFG_EPARSE;
  }
  return hfg_stamp_parse(st, f, ts, why, whylen);
}

int hfg_changes_time_ms(const char *name, const hfg_field *f, int64_t *ms, char *why,
                        size_t whylen) {
  hfg_stamp st = {HFG_STAMP_MS_CHECKED, 0, name, NULL};
  return column_ms(&st, f, ms, why, whylen);
}

/* T of a record; 0, HFG_EPARSE (reject) or HFG_EINVAL (fail the job) with why. */
static int row_time(job *j, const hfg_field *fields, int64_t *ts, char *why, size_t whylen) {
  const hfg_changes *ch = j->changes;
  *ts = j->ts;
  if (ch->ts_from_check && ch->check_idx >= 0) {
    const hfg_field *f = &fields[ch->check_idx];
    if (f->is_null) return 0; /* a first night's row with no check value: the job's time */
    hfg_stamp st = {HFG_STAMP_MS_CHECKED, ch->check_idx, j->o->check_column, NULL};
    if (column_ms(&st, f, ts, why, whylen)) return HFG_EPARSE;
  } else if (j->ts_column >= 0) {
    if (fields[j->ts_column].is_null) {
      snprintf(why, whylen, "timestamp column '%s' is NULL", j->stamp.name);
      return HFG_EPARSE;
    }
    if (hfg_stamp_parse(&j->stamp, &fields[j->ts_column], ts, why, whylen)) return HFG_EPARSE;
  }
  if (*ts > ch->horizon) {
    /* a Put at a future time would hide every later night's writes of the row */
    snprintf(why, whylen, "%s '%s' is %lld, more than a day after this machine's clock: cells "
             "at it would hide every later load's (fix the row, or the clock)",
             ch->ts_from_check ? "check column" : "timestamp column",
             ch->ts_from_check ? j->o->check_column : j->stamp.name, (long long)*ts);
    return HFG_EINVAL;
  }
  return 0;
}

int hfg_changes_payload(job *j, const hfg_field *fields, uint64_t line, uint16_t file_idx,
                        hfg_buf *pl, uint64_t *nulls, char *why, size_t whylen) {
  const hfg_changes *ch = j->changes;
  *nulls = 0;
  int what = ROW_LIVE;
  if (hfg_changes_deleted(j->o, ch->op_idx, ch->delete_idx, fields, &what, why, whylen))
    return HFG_EPARSE;
  int64_t ts;
  int trc = row_time(j, fields, &ts, why, whylen);
  if (trc == HFG_EINVAL) { /* fails the job; the reject that follows stops the ingest */
    const char *name = file_idx < j->ninput_names ? j->input_names[file_idx] : "input";
    fail(j, HFG_EINVAL, "%s %s %llu: %s", name, hfg_record_unit(name), (unsigned long long)line,
         why);
  }
  if (trc) return HFG_EPARSE;
  if (hfg_cell_payload_begin(pl, 0, line, file_idx)) return HFG_ENOMEM;
  if (what == ROW_DELETED) return add_family_deletes(j, pl, ts);
  hfg_buf val = HFG_BUF_INIT;
  hfg_cell c;
  memset(&c, 0, sizeof c);
  c.timestamp = ts;
  int rc = 0;
  /* the payload groups cells by family index; within one, the columns are in
   * qualifier order (columns.c sorts them), HBase's order for one timestamp */
  for (size_t f = 0; f < j->nfamilies && !rc; f++)
    for (size_t i = 0; i < j->ncols && !rc; i++) {
      const hfg_cellcol *cc = &j->cols[i];
      if (cc->family != f) continue;
      const hfg_field *v = &fields[cc->column];
      c.qualifier = (const uint8_t *)cc->qualifier;
      c.qualifier_len = cc->qualifier_len;
      if (v->is_null || (v->len == 0 && j->o->empty == HFG_EMPTY_SKIP)) {
        *nulls += v->is_null;
        c.type = HFG_TYPE_DELETE_COLUMN; /* masks the versions <= T of this column only */
        c.value = (const uint8_t *)"";
        c.value_len = 0;
      } else {
        c.type = HFG_TYPE_PUT;
        if (cc->enc == HFG_VALUE_TEXT) {
          c.value = (const uint8_t *)v->p;
          c.value_len = v->len;
        } else {
          char err[256];
          hfg_buf_reset(&val);
          rc = hfg_value_encode(cc->enc, v->p, v->len, &val, err, sizeof err);
          if (rc == HFG_ENOMEM) break;
          if (rc) {
            char col[240];
            hfg_colmap_column_text(&j->map, cc, col, sizeof col);
            snprintf(why, whylen, "%s: %.200s", col, err);
            rc = HFG_EPARSE;
            break;
          }
          c.value = val.p ? val.p : (const uint8_t *)"";
          c.value_len = val.len;
        }
      }
      int arc = hfg_cell_payload_add(pl, (uint16_t)f, &c);
      if (arc == HFG_ETOOBIG) {
        snprintf(why, whylen, "column %s: value too long for an HBase cell", cc->name);
        rc = HFG_EPARSE;
      } else if (arc) {
        rc = arc;
      }
    }
  hfg_buf_free(&val);
  return rc;
}

/* ---- hard deletes ---- */

/* Where each column the rowkey reads is in the deletes source (by name): map[c]
 * for input column c, -1 for columns the key does not read. */
static int key_columns(job *j, hfg_record_reader *rr, long *map, const char *shown) {
  const hfg_changes *ch = j->changes;
  size_t dn = 0;
  const char *const *dnames = hfg_record_reader_columns(rr, &dn);
  for (size_t c = 0; c < ch->nnames; c++) {
    map[c] = -1;
    if (!hfg_scheme_uses_column(j->scheme, c)) continue;
    for (size_t k = 0; k < dn && map[c] < 0; k++)
      if (!strcmp(dnames[k], ch->names[c])) map[c] = (long)k;
    if (map[c] < 0) {
      char have[600];
      size_t at = 0;
      have[0] = '\0';
      for (size_t k = 0; k < dn && at < sizeof have - 1; k++)
        at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", k ? ", " : "", dnames[k]);
      return fail(j, HFG_EINVAL,
                  "deletes source %s has no column '%s', which the rowkey reads (its columns: "
                  "%s): it must name every key column in a header",
                  shown, ch->names[c], dn ? have : "none");
    }
  }
  return 0;
}

#define SKIP_EARLIER 1

/* With --deletes-time (st->column >= 0), when the record's row was deleted, into *ts:
 * 0; SKIP_EARLIER for a tombstone at or below the last value (lower); HFG_EPARSE
 * (reject: NULL, not epoch ms) or HFG_EINVAL (fail: more than a day ahead) with why.
 * Without it *ts is left as it is (--timestamp or the job's). */
static int deleted_at(job *j, const hfg_stamp *st, const hfg_record *rec, const char *lower,
                      int64_t lower_ms, int64_t *ts, char *why, size_t whylen) {
  if (st->column < 0) return 0;
  const hfg_field *tf = (size_t)st->column < rec->nfields ? &rec->fields[st->column] : NULL;
  if (!tf || tf->is_null) {
    snprintf(why, whylen, "deletes time column '%s' is NULL", st->name);
    return HFG_EPARSE;
  }
  if (column_ms(st, tf, ts, why, whylen)) return HFG_EPARSE;
  if (lower && *ts <= lower_ms) return SKIP_EARLIER;
  if (*ts > j->changes->horizon) {
    snprintf(why, whylen, "'%s' is %lld, more than a day after this machine's clock: a "
             "DeleteFamily at it would mask every later load of the row", st->name,
             (long long)*ts);
    return HFG_EINVAL;
  }
  return 0;
}

int hfg_changes_open_deletes(const hfg_build_options *o, hfg_record_reader **rr,
                             const char **lower, int64_t *lower_ms, char *msg, size_t cap) {
  hfg_build_options d = *o; /* the deletes source: a header, by its name or the format */
  d.inputs = &o->deletes;
  d.ninputs = 1;
  d.header = 1;
  d.columns = NULL;
  d.ncolumns = 0;
  hfg_input_options io;
  hfg_build_input_options(&d, &io);
  io.check_column = io.last_value = NULL;
  /* With a deletes time and a last value, the tombstones of this night's window only
   * (deleted after last_value, as the rows are selected): each is read on one night, so
   * a row deleted and inserted again in the same millisecond (a DeleteFamily at T masks
   * Puts at T) is masked on no later night. A database source filters on the server. */
  *lower = o->deletes_time_column && o->check_column ? o->last_value : NULL;
  *lower_ms = *lower ? strtoll(*lower, NULL, 10) : 0;
  if (*lower && hfg_db_is_uri(o->deletes)) {
    io.check_column = o->deletes_time_column;
    io.last_value = *lower;
  }
  return hfg_record_reader_open(&o->deletes, 1, &io, rr, msg, cap);
}

int hfg_changes_ingest_deletes(job *j) {
  const hfg_build_options *o = j->o;
  if (!o->deletes) return 0;
  hfg_changes *ch = j->changes;
  int64_t ts = o->timestamp >= 0 ? o->timestamp : j->ts;
  if (!o->deletes_time_column && o->last_value && o->check_column && hfg_db_is_integer(o->last_value, strlen(o->last_value))) {
    /* the markers must mask what earlier nights wrote: cells at up to last_value */
    long long lv = strtoll(o->last_value, NULL, 10);
    if (ts < lv)
      return fail(j, HFG_EINVAL,
                  "hard deletes at timestamp %lld are before --last-value %lld: their "
                  "DeleteFamily markers would not mask the rows' cells of earlier loads (give "
                  "--timestamp at or after it, or none: the job's time)",
                  (long long)ts, lv);
  }
  const char *lower;
  int64_t lower_ms;
  hfg_record_reader *rr = NULL;
  char msg[1024];
  int rc = hfg_changes_open_deletes(o, &rr, &lower, &lower_ms, msg, sizeof msg);
  if (rc) return fail(j, rc, "deletes source: %s", msg);
  long *map = hfg_calloc(ch->nnames ? ch->nnames : 1, sizeof *map);
  hfg_field *fields = hfg_calloc(ch->nnames ? ch->nnames : 1, sizeof *fields);
  hfg_buf pl = HFG_BUF_INIT;
  if (!map || !fields) {
    rc = fail(j, HFG_ENOMEM, "out of memory");
    goto done;
  }
  const char *shown = hfg_record_reader_input_name(rr, 0);
  if ((rc = key_columns(j, rr, map, shown))) goto done;
  hfg_stamp st = {HFG_STAMP_NONE, -1, o->deletes_time_column, NULL};
  if (o->deletes_time_column) {
    size_t dn = 0;
    const char *const *dnames = hfg_record_reader_columns(rr, &dn);
    for (size_t k = 0; k < dn && st.column < 0; k++)
      if (!strcmp(dnames[k], o->deletes_time_column)) st.column = (long)k;
    if (st.column < 0) {
      rc = fail(j, HFG_EINVAL, "deletes source %s has no column '%s' (--deletes-time)", shown,
                o->deletes_time_column);
      goto done;
    }
    st.kind = HFG_STAMP_MS_CHECKED;
  }
  uint16_t file_idx = UINT16_MAX;
  if (j->ninput_names < sizeof j->input_names / sizeof *j->input_names) {
    file_idx = (uint16_t)j->ninput_names;
    j->input_names[j->ninput_names++] = o->deletes;
  }
  uint8_t key[HBASE_MAX_ROW + 1];
  hfg_record rec;
  uint64_t seq = 0;
  hfg_err e = {0};
  while (!atomic_load(&j->failed) && (rc = hfg_record_reader_next(rr, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      const char *m = hfg_record_reader_errmsg(rr);
      rc = fail(j, rc, "deletes source: %s", *m ? m : hfg_strerror(rc));
      goto done;
    }
    if (canceled(j)) {
      rc = fail(j, HFG_ECANCELED, "canceled while reading the deletes source");
      goto done;
    }
    char why[512];
    size_t klen = 0;
    int trc = rc == HFG_EPARSE ? 0 : deleted_at(j, &st, &rec, lower, lower_ms, &ts, why, sizeof why);
    if (trc == SKIP_EARLIER) continue; /* an earlier night's tombstone: not selected, not read */
    j->sum->records_read++;
    j->sum->deletes_read++;
    if (rc == HFG_EPARSE || trc == HFG_EPARSE) {
      if (hfg_build_reject(j, &rec, rc == HFG_EPARSE ? rec.reason ? rec.reason : "malformed record"
                                                     : why))
        break;
      continue;
    }
    if (trc) {
      rc = fail(j, HFG_EINVAL, "deletes source %s row %llu: %s", shown,
                (unsigned long long)rec.line, why);
      goto done;
    }
    for (size_t c = 0; c < ch->nnames; c++)
      fields[c] = map[c] >= 0 && (size_t)map[c] < rec.nfields ? rec.fields[map[c]]
                                                              : (hfg_field){"", 0, 1};
    int krc = hfg_build_rowkey(j, fields, ch->nnames, 1, key, &klen, why, sizeof why);
    if (krc == HFG_ENOMEM) {
      rc = fail(j, krc, "out of memory");
      goto done;
    }
    if (krc) {
      if (hfg_build_reject(j, &rec, why)) break;
      continue;
    }
    hfg_buf_reset(&pl);
    if (hfg_cell_payload_begin(&pl, FLAG_TOMBSTONE, rec.line, file_idx) ||
        add_family_deletes(j, &pl, ts)) {
      rc = fail(j, HFG_ENOMEM, "out of memory");
      goto done;
    }
    size_t region = hfg_splits_region(&j->splits, key, klen);
    if (hfg_sorter_add(j->sorter, region, key, klen, TOMBSTONE_SEQ | seq++, pl.p, pl.len, &e)) {
      rc = fail(j, e.code, "%s", e.msg);
      goto done;
    }
  }
  rc = j->err.code;
done:
  hfg_buf_free(&pl);
  hfg_free(fields);
  hfg_free(map);
  hfg_record_reader_free(rr);
  return rc;
}

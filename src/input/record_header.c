/*
 * Record reader: the column names, from a header or a database's result set
 * (set once from the first input, checked against every later one). Contract
 * in record_reader.h ("Headers", "Database inputs").
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "input/record_reader_int.h"
#include "util/alloc.h"

/* n strings in one allocation (pointers, then the bytes); lens NULL: strlen. */
char **hfg_rr_copy_strs(const char *const *p, const size_t *lens, size_t n) {
  size_t total = n * sizeof(char *);
  for (size_t i = 0; i < n; i++) total += (lens ? lens[i] : strlen(p[i])) + 1;
  char **out = hfg_malloc(total ? total : 1);
  if (!out) return NULL;
  char *sp = (char *)(out + n);
  for (size_t i = 0; i < n; i++) {
    size_t l = lens ? lens[i] : strlen(p[i]);
    out[i] = sp;
    memcpy(sp, p[i], l);
    sp[l] = '\0';
    sp += l + 1;
  }
  return out;
}

int hfg_name_loose_same(const char *a, size_t an, const char *b) {
  size_t bn = strlen(b);
  while (an && isspace((unsigned char)*a)) a++, an--;
  while (an && isspace((unsigned char)a[an - 1])) an--;
  while (bn && isspace((unsigned char)*b)) b++, bn--;
  while (bn && isspace((unsigned char)b[bn - 1])) bn--;
  if (an != bn || !an) return 0;
  for (size_t k = 0; k < an; k++)
    if (tolower((unsigned char)a[k]) != tolower((unsigned char)b[k])) return 0;
  return 1;
}

int hfg_record_names_match(const hfg_field *f, size_t nf, const char *const *names, size_t nn) {
  if (nf != nn || !nf) return 0;
  for (size_t i = 0; i < nf; i++)
    if (!hfg_name_loose_same(f[i].p, f[i].len, names[i])) return 0;
  return 1;
}

int hfg_rr_check_first_record(hfg_record_reader *r, const hfg_record *rec) {
  r->first_is_data = 0;
  if (hfg_record_names_match(rec->fields, rec->nfields, (const char *const *)r->given, r->ngiven))
    return hfg_err_set(&r->err, HFG_EINVAL,
                       "%s line %llu holds the column names given to --columns: the input has a "
                       "header, which would be loaded as a row; give --header --columns to rename "
                       "its columns, or leave --columns out to take them from the header",
                       r->name, (unsigned long long)rec->line);
  return 1;
}

/* The header's fields: hf[0..nh) (the reader's own, a dialect's or a database's). */
int hfg_rr_set_columns(hfg_record_reader *r, const hfg_field *hf, size_t nh) {
  const char **p = hfg_malloc((nh ? nh : 1) * sizeof *p);
  size_t *lens = hfg_malloc((nh ? nh : 1) * sizeof *lens);
  if (p && lens)
    for (size_t i = 0; i < nh; i++) p[i] = hf[i].p, lens[i] = hf[i].len;
  char **hdr = p && lens ? hfg_rr_copy_strs(p, lens, nh) : NULL;
  hfg_free(p);
  hfg_free(lens);
  if (!hdr) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory (header)", r->name);
  r->hdr = hdr;
  r->nhdr = nh;
  r->header_from = r->name;
  if (r->given && r->ngiven != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL,
                       "%s: the header has %zu columns but %zu column names were given to "
                       "rename them (--columns)",
                       r->name, r->nhdr, r->ngiven);
  if (!r->given) r->cols = r->hdr, r->ncols = r->nhdr;
  if (r->expected && r->expected != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL, "%s: header has %zu columns, expected %zu", r->name,
                       r->nhdr, r->expected);
  r->expected = r->nhdr;
  return 0;
}

int hfg_rr_check_header(hfg_record_reader *r, const hfg_field *hf, size_t nh) {
  if (nh != r->nhdr)
    return hfg_err_set(&r->err, HFG_EINVAL, "%s: header differs from %s's: %zu columns, not %zu",
                       r->name, r->header_from, nh, r->nhdr);
  for (size_t i = 0; i < nh; i++) {
    const hfg_field *f = &hf[i];
    if (strlen(r->hdr[i]) != f->len || memcmp(r->hdr[i], f->p, f->len) != 0)
      return hfg_err_set(&r->err, HFG_EINVAL, "%s: header differs from %s's: column %zu is '%.*s', not '%s'",
                         r->name, r->header_from, i + 1, (int)(f->len > 100 ? 100 : f->len), f->p,
                         r->hdr[i]);
  }
  return 0;
}

const char *hfg_record_unit(const char *file) { return hfg_db_is_uri(file) ? "row" : "line"; }

void hfg_rr_overlong_reason(hfg_record_reader *r) {
  snprintf(r->reason, sizeof r->reason, "record longer than %zu bytes%s%s%s", r->max_record,
           r->max_note[0] ? " (" : "", r->max_note, r->max_note[0] ? ")" : "");
}

/* The database input's check maximum into r->check_max (over all inputs). */
static void keep_check_max(hfg_record_reader *r) {
  const char *m = r->db ? hfg_dbsrc_check_max(r->db) : NULL;
  if (m && (!r->check_max[0] || hfg_db_int_greater(m, strlen(m), r->check_max, strlen(r->check_max))))
    snprintf(r->check_max, sizeof r->check_max, "%s", m);
}

void hfg_rr_close_db(hfg_record_reader *r) {
  keep_check_max(r);
  uint64_t nr, ns;
  hfg_dbsrc_check_nulls(r->db, &nr, &ns);
  r->nulls_read += nr;
  r->nulls_skipped += ns;
  r->bytes_done += hfg_dbsrc_bytes(r->db);
  hfg_dbsrc_free(r->db);
  r->db = NULL;
  r->in_open = 0;
}

void hfg_record_reader_check_nulls(const hfg_record_reader *r, uint64_t *read,
                                   uint64_t *skipped) {
  uint64_t nr = 0, ns = 0;
  if (r->db) hfg_dbsrc_check_nulls(r->db, &nr, &ns);
  *read = r->nulls_read + nr;
  *skipped = r->nulls_skipped + ns;
}

const char *hfg_record_reader_check_max(const hfg_record_reader *r) {
  keep_check_max((hfg_record_reader *)r);
  return r->check_max[0] ? r->check_max : NULL;
}

/* A database input: connect, query, its columns as the header. */
int hfg_rr_open_db(hfg_record_reader *r, const char *path) {
  if (!r->has_header)
    return hfg_err_set(&r->err, HFG_EINVAL,
                       "%s: a database input names its own columns (no --no-header/--columns)",
                       r->name);
  int rc = hfg_dbsrc_open_ex(path, r->check_column, r->last_value,
                             r->check_backwards ? HFG_DBSRC_CHECK_BACKWARDS : 0, r->cancel,
                             &r->db, &r->err);
  if (rc) return rc;
  hfg_rr_overlong_reason(r); /* the same limit and reason as a file's record */
  if (hfg_dbsrc_set_max_record(r->db, r->max_record, r->reason))
    return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory", r->name);
  r->in_open = 1;
  size_t n;
  const char *const *names = hfg_dbsrc_columns(r->db, &n);
  hfg_field *hf = hfg_calloc(n ? n : 1, sizeof *hf);
  if (!hf) return hfg_err_set(&r->err, HFG_ENOMEM, "%s: out of memory", r->name);
  for (size_t i = 0; i < n; i++) {
    hf[i].p = names[i];
    hf[i].len = strlen(names[i]);
  }
  rc = r->hdr ? hfg_rr_check_header(r, hf, n) : hfg_rr_set_columns(r, hf, n);
  hfg_free(hf);
  return rc;
}

/* Column mapping shared by build and plan: see columns.h for the rules. */
#define _GNU_SOURCE
#include "build/columns.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

#define MAX_FAMILY 127 /* HBase reads the family length as a signed byte */

void hfg_build_input_options(const hfg_build_options *o, hfg_input_options *io) {
  hfg_input_options d = HFG_INPUT_OPTIONS_INIT;
  *io = d;
  switch (o->format) {
    case HFG_BUILD_CSV: io->format = HFG_INPUT_CSV; break;
    case HFG_BUILD_TSV: io->format = HFG_INPUT_TSV; break;
    case HFG_BUILD_MYSQL: io->format = HFG_INPUT_MYSQL; break;
    case HFG_BUILD_PG_TEXT: io->format = HFG_INPUT_PG_TEXT; break;
    case HFG_BUILD_PG_CSV: io->format = HFG_INPUT_PG_CSV; break;
    default: io->format = HFG_INPUT_AUTO; break;
  }
  if (o->delimiter) io->delimiter = (unsigned char)o->delimiter;
  io->has_header = o->header;
  if (!o->header) io->expected_columns = o->ncolumns;
  /* with a header they rename its columns; without, they are the columns (and
   * an input whose first line holds them is refused: a header read as data) */
  if (o->ncolumns) io->column_names = o->columns, io->ncolumn_names = o->ncolumns;
  io->null_string = o->null_string;
  io->fields_terminated_by = o->fields_terminated_by;
  io->fields_enclosed_by = o->fields_enclosed_by;
  io->fields_escaped_by = o->fields_escaped_by;
  io->lines_terminated_by = o->lines_terminated_by;
  io->cancel = o->cancel;
  /* One record limit for every input (files, dumps, stdin, database rows): 64 MiB, or a
   * sixteenth of --memory when that is less. The sort holds a record whole, and so do the
   * reader's buffer, the build's payload, a merge's read buffer and the HFile block being
   * written; a budget that cannot take that refuses the record (a reject naming --memory)
   * instead of growing past the budget. */
  if (o->memory && o->memory / 16 < HFG_MAX_RECORD_DEFAULT) {
    io->max_record_bytes = o->memory / 16;
    char m[32];
    if (o->memory % ((size_t)1 << 30) == 0) snprintf(m, sizeof m, "%zug", o->memory >> 30);
    else if (o->memory % ((size_t)1 << 20) == 0) snprintf(m, sizeof m, "%zum", o->memory >> 20);
    else if (o->memory % 1024 == 0) snprintf(m, sizeof m, "%zuk", o->memory >> 10);
    else snprintf(m, sizeof m, "%zu", o->memory);
    snprintf(io->max_record_note, sizeof io->max_record_note,
             "the record limit at --memory %s: a sixteenth of it, as the sort holds a record "
             "whole; a larger --memory takes records up to 64 MiB", m);
  }
}

void hfg_colmap_column_text(const hfg_colmap *m, const hfg_cellcol *cc, char *why, size_t len) {
  /* families[0] is the default family; a map without families (a test's) has only it */
  if (!strcmp(cc->name, cc->qualifier) && (cc->family == 0 || cc->family >= m->nfamilies))
    snprintf(why, len, "column %zu (%s)", cc->column + 1, cc->name);
  else
    snprintf(why, len, "column %zu (%s, as %s:%s)", cc->column + 1, cc->name,
             m->families[cc->family], cc->qualifier);
}

long hfg_colmap_family(const hfg_colmap *m, const char *name, size_t len) {
  for (size_t i = 0; i < m->nfamilies; i++)
    if (m->family_len[i] == len && !memcmp(m->families[i], name, len)) return (long)i;
  return -1;
}

static long add_family(hfg_colmap *m, const char *name, size_t len) {
  long f = hfg_colmap_family(m, name, len);
  if (f >= 0) return f;
  char **fams = hfg_realloc(m->families, (m->nfamilies + 1) * sizeof *fams);
  if (!fams) return -1;
  m->families = fams;
  size_t *lens = hfg_realloc(m->family_len, (m->nfamilies + 1) * sizeof *lens);
  if (!lens) return -1;
  m->family_len = lens;
  char *copy = hfg_malloc(len + 1);
  if (!copy) return -1;
  memcpy(copy, name, len);
  copy[len] = '\0';
  m->families[m->nfamilies] = copy;
  m->family_len[m->nfamilies] = len;
  return (long)m->nfamilies++;
}

static long find_name(const char *const *names, size_t n, const char *name, size_t len) {
  for (size_t i = 0; i < n; i++)
    if (strlen(names[i]) == len && !memcmp(names[i], name, len)) return (long)i;
  return -1;
}

/* strcmp compares as unsigned char: HBase's byte order for NUL-free names. */
static int cellcol_cmp(const void *a, const void *b, void *ctx) {
  const hfg_cellcol *x = a, *y = b;
  const hfg_colmap *m = ctx;
  int r = strcmp(m->families[x->family], m->families[y->family]);
  return r ? r : strcmp(x->qualifier, y->qualifier);
}

/* Two columns that become the same family:qualifier would give every row two
 * cells with one key (row, family, qualifier, timestamp, type): HBase returns
 * one of them and the other value is lost, so refuse the mapping. The columns
 * are sorted by (family, qualifier): such pairs are neighbours. */
static int check_one_cell_per_key(const hfg_colmap *m, const char *const *names, hfg_err *err) {
  for (size_t i = 1; i < m->ncols; i++) {
    const hfg_cellcol *x = &m->cols[i - 1], *y = &m->cols[i];
    if (x->family != y->family || strcmp(x->qualifier, y->qualifier)) continue;
    size_t a = x->column < y->column ? x->column : y->column;
    size_t b = x->column < y->column ? y->column : x->column;
    int same_name = !strcmp(names[a], names[b]);
    return hfg_err_set(err, HFG_EINVAL,
                       "columns %zu (%s) and %zu (%s) both become the cell %s:%s: every row would "
                       "hold two cells with the same key and HBase keeps only one of them; %s",
                       a + 1, names[a], b + 1, names[b], m->families[x->family], x->qualifier,
                       same_name ? "the header repeats the name: rename the columns with "
                                   "--header --columns a,b,c"
                                 : "map one of them to another qualifier, or exclude it with "
                                   "--map COL=-");
  }
  return 0;
}

/* A name the header repeats cannot be told apart by the rowkey template, a
 * --map or the timestamp column: each would silently take the first one. */
static int check_unambiguous(const char *const *names, size_t n, const hfg_build_options *o,
                             const hfg_scheme *scheme, hfg_err *err) {
  for (size_t a = 0; a < n; a++)
    for (size_t b = a + 1; b < n; b++) {
      if (strcmp(names[a], names[b])) continue;
      size_t nl = strlen(names[a]);
      const char *by = hfg_scheme_uses_column(scheme, a) || hfg_scheme_uses_column(scheme, b)
                           ? "the rowkey template"
                       : o->timestamp_column && !strcmp(o->timestamp_column, names[a])
                           ? "--timestamp"
                           : NULL;
      for (size_t i = 0; !by && i < o->nmappings; i++)
        if (!strncmp(o->mappings[i], names[a], nl) && o->mappings[i][nl] == '=') by = "a --map";
      if (by)
        return hfg_err_set(err, HFG_EINVAL,
                           "columns %zu and %zu are both named '%s' and %s refers to that name: "
                           "rename the columns with --header --columns a,b,c",
                           a + 1, b + 1, names[a], by);
    }
  return 0;
}

int hfg_colmap_init(hfg_colmap *m, const char *const *names, size_t n,
                    const hfg_build_options *o, const hfg_scheme *scheme, hfg_err *err) {
  memset(m, 0, sizeof *m);
  const char *deffam = o->family ? o->family : "cf";
  if (check_unambiguous(names, n, o, scheme, err)) return err->code;
  for (size_t i = 0; i < o->nmappings; i++) {
    const char *eq = strchr(o->mappings[i], '=');
    if (!eq)
      return hfg_err_set(err, HFG_EINVAL, "column mapping '%s': expected COL=FAMILY:QUALIFIER",
                         o->mappings[i]);
    if (find_name(names, n, o->mappings[i], (size_t)(eq - o->mappings[i])) < 0) {
      char hint[400];
      return hfg_err_set(err, HFG_EINVAL, "column mapping '%s': no column named '%.*s'%s",
                         o->mappings[i], (int)(eq - o->mappings[i]), o->mappings[i],
                         hfg_columns_hint(hint, sizeof hint, names, n, o->mappings[i],
                                          (size_t)(eq - o->mappings[i])));
    }
  }
  m->cols = hfg_calloc(n ? n : 1, sizeof *m->cols);
  if (!m->cols || add_family(m, deffam, strlen(deffam)) < 0)
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  for (size_t c = 0; c < n; c++) {
    const char *spec = NULL;
    size_t nl = strlen(names[c]);
    for (size_t i = 0; i < o->nmappings; i++) /* the last mapping of a column wins */
      if (!strncmp(o->mappings[i], names[c], nl) && o->mappings[i][nl] == '=')
        spec = o->mappings[i] + nl + 1;
    if (spec && !strcmp(spec, "-")) continue;
    if (!spec && !o->keep_key_columns && hfg_scheme_uses_column(scheme, c)) continue;
    /* FAMILY:QUALIFIER:ENCODING, each part defaulted when empty or absent */
    const char *fam = deffam, *qual = names[c], *enc = "text";
    size_t fl = strlen(deffam), ql = nl;
    if (spec) {
      const char *a = strchr(spec, ':');
      const char *b = a ? strchr(a + 1, ':') : NULL;
      size_t sfl = a ? (size_t)(a - spec) : strlen(spec);
      if (sfl) fam = spec, fl = sfl;
      if (a) {
        size_t sql = b ? (size_t)(b - a - 1) : strlen(a + 1);
        if (sql) qual = a + 1, ql = sql;
      }
      if (b && b[1]) enc = b + 1;
    }
    if (fl > MAX_FAMILY)
      return hfg_err_set(err, HFG_EINVAL, "column %s: family name longer than %d bytes",
                         names[c], MAX_FAMILY);
    hfg_cellcol *cc = &m->cols[m->ncols];
    cc->column = c;
    if (hfg_value_encoding_parse(enc, &cc->enc))
      return hfg_err_set(err, HFG_EINVAL,
                         "column '%s': unknown encoding '%s' (text, long, int, short, double, "
                         "float, boolean, hex, base64)",
                         names[c], enc);
    long f = add_family(m, fam, fl);
    cc->qualifier = hfg_malloc(ql + 1 + nl + 1); /* and the column's name after it */
    if (f < 0 || !cc->qualifier) {
      hfg_free(cc->qualifier);
      cc->qualifier = NULL;
      return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    }
    memcpy(cc->qualifier, qual, ql);
    cc->qualifier[ql] = '\0';
    cc->qualifier_len = ql;
    memcpy(cc->qualifier + ql + 1, names[c], nl + 1);
    cc->name = cc->qualifier + ql + 1;
    cc->family = (size_t)f;
    m->ncols++;
  }
  if (m->ncols == 0)
    return hfg_err_set(err, HFG_EINVAL,
                       "no column is mapped to a cell: every column is the key's or mapped to "
                       "'-' (--keep-key-columns stores the key's columns as cells too)");
  qsort_r(m->cols, m->ncols, sizeof *m->cols, cellcol_cmp, m);
  return check_one_cell_per_key(m, names, err);
}

int hfg_colmap_empty_row(const hfg_build_options *o, const char **family, const char **qualifier) {
  if (o->empty_row != HFG_EMPTY_ROW_MARKER) return 0;
  if (family) *family = o->empty_row_family ? o->empty_row_family : o->family ? o->family : "cf";
  if (qualifier) *qualifier = o->empty_row_qualifier ? o->empty_row_qualifier : "_0";
  return 1;
}

void hfg_colmap_free(hfg_colmap *m) {
  for (size_t i = 0; i < m->ncols; i++) hfg_free(m->cols[i].qualifier);
  hfg_free(m->cols);
  for (size_t i = 0; i < m->nfamilies; i++) hfg_free(m->families[i]);
  hfg_free(m->families);
  hfg_free(m->family_len);
  memset(m, 0, sizeof *m);
}

long hfg_colmap_add_family(hfg_colmap *m, const char *name, size_t len, hfg_err *err) {
  if (len > MAX_FAMILY)
    return hfg_err_set(err, HFG_EINVAL, "family %.*s: name longer than %d bytes", (int)len, name,
                       MAX_FAMILY);
  long f = add_family(m, name, len);
  return f < 0 ? hfg_err_set(err, HFG_ENOMEM, "out of memory") : f;
}

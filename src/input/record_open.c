/*
 * Record reader: opening one (options checked and copied, database URIs
 * recognised, the first header read), its accessors and free. Reading is in
 * record_reader.c; contract in record_reader.h.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "input/record_reader_int.h"
#include "util/alloc.h"

#define DEFAULT_BUFFER (1u << 20)

int hfg_record_reader_open(const char *const *paths, size_t npaths, const hfg_input_options *opts,
                           hfg_record_reader **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (errmsg && errlen) errmsg[0] = '\0';
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  if (opts) o = *opts;
  int delim = o.delimiter < 0 ? (o.format == HFG_INPUT_TSV ? '\t' : ',') : o.delimiter;
  const char *bad = NULL;
  int dialect = hfg_dialect_handles(o.format); /* checked by hfg_dialect_new */
  if (o.format != HFG_INPUT_CSV && o.format != HFG_INPUT_TSV && o.format != HFG_INPUT_AUTO && !dialect)
    bad = "unknown input format";
  else if (!dialect && (delim > 255 || delim == '\n' || delim == '\r')) bad = "delimiter must be one byte other than CR and LF";
  else if (!dialect && o.format != HFG_INPUT_TSV && delim == '"') bad = "the CSV delimiter cannot be '\"'";
  else if (!dialect && (o.fields_terminated_by || o.fields_enclosed_by || o.fields_escaped_by ||
                        o.lines_terminated_by))
    bad = "the FIELDS/LINES options are for the dump formats (mysql, pg-csv), not CSV/TSV";
  else if (o.ncolumn_names && !o.column_names) bad = "column names missing";
  else if (npaths == 0 || !paths) bad = "no inputs";
  if (bad) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "%s", bad);
    return HFG_EINVAL;
  }
  hfg_record_reader *r = hfg_calloc(1, sizeof *r);
  if (!r) goto nomem;
  r->fmt = r->fmt_opt = o.format;
  r->delim = (unsigned char)delim;
  r->delim_opt = o.delimiter;
  if (hfg_dialect_handles(o.format)) {
    int drc = hfg_dialect_new(&o, &r->dialect, errmsg, errlen);
    if (drc) {
      hfg_record_reader_free(r);
      if (drc == HFG_ENOMEM && errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
      return drc;
    }
  } else if (o.null_string) {
    if (!(r->null_s = hfg_strdup(o.null_string))) goto nomem;
    r->null_len = strlen(o.null_string);
  }
  r->has_header = o.has_header;
  r->expected = o.expected_columns;
  r->max_record = o.max_record_bytes ? o.max_record_bytes : HFG_MAX_RECORD_DEFAULT;
  if (r->max_record > SIZE_MAX / 4) r->max_record = SIZE_MAX / 4;
  snprintf(r->max_note, sizeof r->max_note, "%s", o.max_record_note);
  r->cap = r->cap0 = o.buffer_size ? o.buffer_size : DEFAULT_BUFFER;
  r->name = "";
  r->limit = UINT64_MAX;
  r->buf = hfg_malloc(r->cap);
  r->paths = hfg_calloc(npaths, sizeof *r->paths);
  r->shown = hfg_calloc(npaths, sizeof *r->shown);
  if (!r->buf || !r->paths || !r->shown) goto nomem;
  if ((o.check_column && !(r->check_column = hfg_strdup(o.check_column))) ||
      (o.last_value && !(r->last_value = hfg_strdup(o.last_value))))
    goto nomem;
  r->npaths = npaths;
  r->cancel = o.cancel;
  r->check_backwards = o.check_backwards;
  if (o.ncolumn_names) {
    for (size_t i = 0; i < o.ncolumn_names; i++)
      if (!o.column_names[i]) {
        hfg_record_reader_free(r);
        if (errmsg && errlen) snprintf(errmsg, errlen, "column name %zu: NULL", i);
        return HFG_EINVAL;
      }
    if (!(r->given = hfg_rr_copy_strs(o.column_names, NULL, o.ncolumn_names))) goto nomem;
    r->ngiven = o.ncolumn_names;
    r->cols = r->given;
    r->ncols = r->ngiven;
    if (!r->has_header && !r->expected) r->expected = r->ngiven;
  }
  for (size_t i = 0; i < npaths; i++) {
    if (!paths[i]) {
      hfg_record_reader_free(r);
      if (errmsg && errlen) snprintf(errmsg, errlen, "input %zu: NULL path", i);
      return HFG_EINVAL;
    }
    if (!(r->paths[i] = hfg_strdup(paths[i]))) goto nomem;
    if (hfg_db_is_uri(paths[i])) {
      char shown[2048];
      hfg_db_redact(paths[i], shown, sizeof shown);
      if (!(r->shown[i] = hfg_strdup(shown))) goto nomem;
      r->any_db = 1;
    }
  }
  if (r->check_column && !r->any_db) {
    hfg_record_reader_free(r);
    if (errmsg && errlen)
      snprintf(errmsg, errlen, "incremental reads (check column '%s') need a database input",
               o.check_column);
    return HFG_EINVAL;
  }
  for (size_t i = 0; o.null_string && i < npaths; i++)
    if (r->shown[i]) { /* a server tells its NULLs apart: no marker to compare */
      if (errmsg && errlen)
        snprintf(errmsg, errlen,
                 "%s: a NULL string (--null-string) is for dump and CSV/TSV files; a database "
                 "input's NULLs are the server's own",
                 r->shown[i]);
      hfg_record_reader_free(r);
      return HFG_EINVAL;
    }
  /* With headers, read until the first non-empty input gave one, so that
   * columns() is ready. */
  int rc = 0;
  if (r->has_header) {
    while (!r->hdr && r->next_path < r->npaths) {
      if ((rc = hfg_rr_open_next(r))) break;
      if (!r->hdr) hfg_rr_close_input(r); /* empty input */
    }
  }
  if (rc) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "%s", r->err.msg);
    hfg_record_reader_free(r);
    return rc;
  }
  *out = r;
  return 0;
nomem:
  hfg_record_reader_free(r);
  if (errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
  return HFG_ENOMEM;
}

hfg_input_format hfg_input_format_guess(const char *path) {
  static const char *const zsuffix[] = {".gz", ".zst", ".bz2", ".xz"};
  size_t n = strlen(path);
  for (size_t i = 0; i < sizeof zsuffix / sizeof *zsuffix; i++) {
    size_t k = strlen(zsuffix[i]);
    if (n > k && !strcasecmp(path + n - k, zsuffix[i])) {
      n -= k;
      break;
    }
  }
  if (n > 4 && (!strncasecmp(path + n - 4, ".tsv", 4) || !strncasecmp(path + n - 4, ".tab", 4)))
    return HFG_INPUT_TSV;
  return HFG_INPUT_CSV;
}

const char *const *hfg_record_reader_columns(const hfg_record_reader *r, size_t *n) {
  *n = r->ncols;
  return (const char *const *)r->cols;
}

size_t hfg_record_reader_expected_columns(const hfg_record_reader *r) { return r->expected; }

uint64_t hfg_record_reader_bytes_read(const hfg_record_reader *r) {
  if (r->db) return r->bytes_done + hfg_dbsrc_bytes(r->db);
  return r->bytes_done + (r->in_open ? r->in.bytes_in : 0);
}

int hfg_record_reader_has_db(const hfg_record_reader *r) { return r->any_db; }

const char *hfg_record_reader_errmsg(const hfg_record_reader *r) { return r->err.msg; }

uint64_t hfg_record_reader_blank_lines(const hfg_record_reader *r) { return r->blank_lines; }

void hfg_record_reader_free(hfg_record_reader *r) {
  if (!r) return;
  hfg_rr_close_input(r);
  for (size_t i = 0; r->paths && i < r->npaths; i++) hfg_free(r->paths[i]);
  hfg_free(r->paths);
  for (size_t i = 0; r->shown && i < r->npaths; i++) hfg_free(r->shown[i]);
  hfg_free(r->shown);
  hfg_free(r->check_column);
  hfg_free(r->last_value);
  hfg_free(r->buf);
  hfg_free(r->fields);
  hfg_free(r->scratch);
  hfg_free(r->hdr);
  hfg_free(r->given);
  hfg_dialect_free(r->dialect);
  hfg_free(r->null_s);
  hfg_free(r);
}

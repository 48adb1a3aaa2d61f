/*
 * The job's setup and teardown: options defaults, the input's column names →
 * rowkey scheme, cell columns (build/columns.h) and per-family HFile
 * options; the first-error record every stage reports through.
 * See build_internal.h for the stages and their order.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/codec.h"
#include "build/build_internal.h"
#include "build/changes.h"
#include "util/alloc.h"

void hfg_build_options_init(hfg_build_options *o) {
  memset(o, 0, sizeof *o);
  o->version = HFG_BUILD_OPTIONS_VERSION;
  o->header = 1;
  o->format = HFG_BUILD_AUTO;
  o->family = "cf";
  o->timestamp = -1;
  o->job_timestamp = -1;
  o->memory = (size_t)1 << 30;
  o->max_file_size = (uint64_t)10 << 30;
  hfg_writer_options w = HFG_WRITER_OPTIONS_INIT;
  o->hfile = w;
}

int hfg_build_fail(job *j, int code, const char *fmt, ...) {
  pthread_mutex_lock(&j->lock);
  if (!j->err.code) {
    va_list ap;
    va_start(ap, fmt);
    j->err.code = code;
    vsnprintf(j->err.msg, sizeof j->err.msg, fmt, ap);
    va_end(ap);
  }
  atomic_store(&j->failed, 1);
  pthread_mutex_unlock(&j->lock);
  return code;
}


static int parse_size(const char *v, uint64_t *out) {
  char *end;
  double d = strtod(v, &end);
  if (end == v || d <= 0) return -1;
  uint64_t mul = 1;
  if (*end == 'k' || *end == 'K') mul = 1u << 10, end++;
  else if (*end == 'm' || *end == 'M') mul = 1u << 20, end++;
  else if (*end == 'g' || *end == 'G') mul = 1u << 30, end++;
  if (*end == 'b' || *end == 'B') end++;
  if (*end) return -1;
  *out = (uint64_t)(d * (double)mul);
  return 0;
}

/* One layer of per-family settings (a snapshot's schema, a live table's) over
 * the job's HFile options. strict: a family a column maps to must be listed
 * (build --table: completebulkload would refuse the output, "Unmatched family
 * names"). */
static int apply_families(job *j, const hfg_build_family *list, size_t n, int strict) {
  for (size_t f = 0; f < j->nfamilies; f++) {
    const hfg_build_family *t = NULL;
    for (size_t k = 0; k < n && !t; k++)
      if (!strcmp(list[k].name, j->families[f])) t = &list[k];
    int used = 0; /* the default family is listed even when no column lands in it */
    for (size_t c = 0; c < j->ncols && !used; c++) used = j->cols[c].family == f;
    if (!t && used && strict)
      return fail(j, HFG_EINVAL,
                  "family '%s' is not a family of the table (completebulkload would refuse "
                  "the output: unmatched family names)",
                  j->families[f]);
    if (!t) continue;
    hfg_writer_options *w = &j->family_hfile[f];
    if (t->has_codec) w->codec = t->codec;
    if (t->has_bloom) w->bloom = t->bloom;
    if (t->has_bloom && t->bloom == HFG_BLOOM_ROWPREFIX)
      w->bloom_prefix_length = t->bloom_prefix_length;
    if (t->block_size) w->block_size = t->block_size;
    if (t->has_encoding) w->encoding = t->encoding;
  }
  return 0;
}

int hfg_build_setup_families(job *j, const hfg_build_family *base, size_t nbase) {
  const hfg_build_options *o = j->o;
  j->family_hfile = hfg_calloc(j->nfamilies ? j->nfamilies : 1, sizeof *j->family_hfile);
  if (!j->family_hfile) return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < j->nfamilies; f++) j->family_hfile[f] = o->hfile;
  if (nbase && apply_families(j, base, nbase, 0)) return j->err.code;
  if (o->ntable_families && apply_families(j, o->table_families, o->ntable_families, 1))
    return j->err.code;
  for (size_t i = 0; i < o->nfamily_options; i++) {
    const char *spec = o->family_options[i];
    const char *colon = strchr(spec, ':');
    const char *eq = colon ? strchr(colon, '=') : NULL;
    if (!colon || !eq)
      return fail(j, HFG_EINVAL, "family option '%s': expected FAMILY:KEY=VALUE", spec);
    size_t f = 0;
    while (f < j->nfamilies && (strlen(j->families[f]) != (size_t)(colon - spec) ||
                                strncmp(j->families[f], spec, (size_t)(colon - spec))))
      f++;
    if (f == j->nfamilies)
      return fail(j, HFG_EINVAL, "family option '%s': no column is mapped to that family", spec);
    hfg_writer_options *w = &j->family_hfile[f];
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(eq - colon - 1), colon + 1);
    const char *v = eq + 1;
    uint64_t n;
    int bad = 0;
    if (!strcmp(key, "codec")) bad = hfg_codec_parse(v, &w->codec) != 0;
    else if (!strcmp(key, "bloom"))
      bad = hfg_bloom_spec_parse(v, &w->bloom, &w->bloom_prefix_length) != 0;
    else if (!strcmp(key, "checksum"))
      bad = hfg_checksum_type_parse(v, &w->checksum) != 0 || w->checksum == HFG_CHECKSUM_NULL;
    else if (!strcmp(key, "block-size") || !strcmp(key, "block_size"))
      bad = parse_size(v, &n) || n > (1u << 30) || !(w->block_size = (uint32_t)n);
    else if (!strcmp(key, "bytes-per-checksum") || !strcmp(key, "bytes_per_checksum"))
      bad = parse_size(v, &n) || n > (1u << 30) || !(w->bytes_per_checksum = (uint32_t)n);
    else if (!strcmp(key, "encoding") || !strcmp(key, "data_block_encoding"))
      bad = hfg_encoding_parse(v, &w->encoding) != 0;
    else
      return fail(j, HFG_EINVAL,
                  "family option '%s': unknown key (codec, bloom, block-size, checksum, "
                  "bytes-per-checksum, encoding)",
                  spec);
    if (bad) return fail(j, HFG_EINVAL, "family option '%s': bad value '%s'", spec, v);
  }
  /* before any record is read, rather than when the first file opens */
  for (size_t f = 0; f < j->nfamilies; f++)
    if (j->family_hfile[f].codec == HFG_CODEC_GZ && j->family_hfile[f].gz_impl == HFG_GZ_ISAL &&
        !hfg_gz_isal_available())
      return fail(j, HFG_EINVAL, "family '%s': GZ engine isal: this hfilegen was built without ISA-L "
                  "(use the default zlib engine)", j->families[f]);
  return 0;
}


static int setup_columns(job *j, char *const *names, size_t n) {
  hfg_build_options so = *j->o; /* lastmodified: the check column is the timestamp column */
  if (so.check_column && so.incremental_mode == HFG_INCR_LASTMODIFIED && !so.timestamp_column)
    so.timestamp_column = so.check_column, so.timestamp_format = NULL;
  const hfg_build_options *o = &so;
  j->ncolumns = n;
  char why[512];
  if (hfg_stamp_init(&j->stamp, o, (const char *const *)names, n, why, sizeof why))
    return fail(j, HFG_EINVAL, "%s", why);
  j->ts_column = j->stamp.column;
  hfg_err e = {0};
  if (hfg_colmap_init(&j->map, (const char *const *)names, n, o, j->scheme, &e))
    return fail(j, e.code, "%s", e.msg);
  const char *mf, *mq;
  if (hfg_colmap_empty_row(o, &mf, &mq)) {
    if (!*mf) return fail(j, HFG_EINVAL, "--empty-row marker: the family name is empty");
    long f = hfg_colmap_add_family(&j->map, mf, strlen(mf), &e);
    if (f < 0) return fail(j, e.code, "--empty-row marker: %s", e.msg);
    j->marker_family = (size_t)f;
    j->marker_qualifier = mq;
    j->marker_qualifier_len = strlen(j->marker_qualifier);
  }
  j->families = j->map.families;
  j->family_len = j->map.family_len;
  j->nfamilies = j->map.nfamilies;
  j->cols = j->map.cols;
  j->ncols = j->map.ncols;
  if (hfg_changes_wanted(j->o) && hfg_changes_setup(j, names, n)) return j->err.code;
  return hfg_build_setup_families(j, NULL, 0);
}

/* The column names come from the header row or --columns. */
int hfg_build_setup_job(job *j, hfg_record_reader *rr) {
  const hfg_build_options *o = j->o;
  size_t ncols = 0;
  char *const *names = NULL;
  char **owned = NULL;
  if (o->header) {
    names = (char *const *)hfg_record_reader_columns(rr, &ncols);
  } else {
    owned = hfg_calloc(o->ncolumns ? o->ncolumns : 1, sizeof *owned);
    for (size_t i = 0; owned && i < o->ncolumns; i++) owned[i] = (char *)o->columns[i];
    names = owned;
    ncols = o->ncolumns;
  }
  if (!o->header && !owned) return fail(j, HFG_ENOMEM, "out of memory");
  if (!names || ncols == 0) {
    hfg_free(owned);
    if (o->header && o->ninputs)
      return fail(j, HFG_EINVAL,
                  "no column names: %s, the first input, holds no header row (it is empty or "
                  "blank); give --columns, or inputs with a header",
                  hfg_record_reader_input_name(rr, 0));
    return fail(j, HFG_EINVAL, "no column names: give a header row or --columns%s",
                o->header ? "" : " (--no-header was given: name the columns with --columns)");
  }
  char msg[512];
  int crc = hfg_scheme_compile(o->rowkey, (const char *const *)names, ncols, &j->scheme, msg,
                               sizeof msg);
  if (crc) {
    hfg_free(owned);
    return fail(j, crc == HFG_ENOMEM ? HFG_ENOMEM : HFG_EINVAL, "rowkey '%s': %s", o->rowkey,
                msg);
  }
  int rc = setup_columns(j, names, ncols);
  hfg_free(owned);
  return rc;
}

void hfg_build_job_free(job *j) {
  hfg_scheme_free(j->scheme);
  hfg_splits_free(&j->splits);
  hfg_changes_free(j);
  hfg_colmap_free(&j->map);
  hfg_free(j->family_hfile);
  hfg_free(j->made_family);
  for (size_t i = 0; i < j->nfiles; i++) {
    hfg_free(j->files[i].tmp_path);
    hfg_free(j->files[i].final_path);
    hfg_free(j->files[i].name);
    hfg_free(j->files[i].first_row);
    hfg_free(j->files[i].last_row);
  }
  hfg_free(j->files);
  pthread_mutex_destroy(&j->lock);
}

void hfg_build_summary_free(hfg_build_summary *s) {
  hfg_free(s->regions);
  s->regions = NULL;
}

/*
 * hfg_build_run: ingest (read → key → partition → sort/spill), then emit
 * (merge each region and write its HFiles, regions in parallel), then publish
 * (rename temporaries, manifest, _SUCCESS last). See include/hfilegen/build.h.
 */
#define _GNU_SOURCE
#include "hfilegen/build.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "format/kv.h"
#include "hfilegen/scheme.h"
#include "pipeline/columns.h"
#include "pipeline/record_pump.h"
#include "pipeline/record_reader.h"
#include "pipeline/sorter.h"
#include "pipeline/splits.h"
#include "pipeline/values.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/err.h"
#include "util/escape.h"
#include "util/fsio.h"
#include "util/murmur.h"
#include "util/timefmt.h"

#define HBASE_MAX_ROW 32767
#define LONG_KEY 200
#define MAX_FILES_PER_REGION_FAMILY 32
#define ABSENT 0xffffffffu

void hfg_build_options_init(hfg_build_options *o) {
  memset(o, 0, sizeof *o);
  o->version = HFG_BUILD_OPTIONS_VERSION;
  o->header = 1;
  o->family = "cf";
  o->timestamp = -1;
  o->memory = (size_t)1 << 30;
  o->max_file_size = (uint64_t)10 << 30;
  hfg_writer_options w = HFG_WRITER_OPTIONS_INIT;
  o->hfile = w;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- column mapping ---- */


typedef struct outfile {
  size_t region, family;
  unsigned seq; /* n-th file of its region and family */
  char *tmp_path, *final_path, *name;
  uint8_t *first_row, *last_row;
  size_t first_len, last_len;
  uint64_t cells, bytes;
} outfile;

typedef struct job {
  const hfg_build_options *o;
  hfg_build_summary *sum;
  hfg_err err;
  pthread_mutex_t lock;
  _Atomic int failed;
  hfg_splits splits;
  hfg_scheme *scheme;
  hfg_colmap map;           /* input columns -> cells (pipeline/columns.h) */
  /* aliases into map, for brevity */
  char **families;
  size_t *family_len;
  size_t nfamilies;
  hfg_cellcol *cols;        /* sorted by (family, qualifier) */
  size_t ncols;
  hfg_writer_options *family_hfile; /* per family, defaults plus overrides */
  size_t ncolumns;
  long ts_column;
  int64_t ts;
  hfg_sorter *sorter;
  FILE *rejects;
  outfile *files;
  size_t nfiles, capfiles;
  _Atomic size_t next_region;
  _Atomic uint64_t regions_done, out_bytes;
  const char *input_names[4096];
  size_t ninput_names;
  char dir[4096];           /* where the job writes: the staging dir, or out_dir */
  char stage[4096];         /* <parent>/.<name>.hfilegen-staging */
  int staged;               /* out_dir is currently renamed to stage */
  int lock_fd;              /* flock on the output directory, -1 */
} job;

static int fail(job *j, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(job *j, int code, const char *fmt, ...) {
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

static long find_column(char *const *names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return (long)i;
  return -1;
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

/* The live table's settings per family (build --table), under --family-option. A
 * family the table lacks would fail completebulkload ("Unmatched family names"). */
static int apply_table_families(job *j) {
  const hfg_build_options *o = j->o;
  for (size_t f = 0; f < j->nfamilies; f++) {
    const hfg_build_family *t = NULL;
    for (size_t k = 0; k < o->ntable_families && !t; k++)
      if (!strcmp(o->table_families[k].name, j->families[f])) t = &o->table_families[k];
    int used = 0; /* the default family is listed even when no column lands in it */
    for (size_t c = 0; c < j->ncols && !used; c++) used = j->cols[c].family == f;
    if (!t && used)
      return fail(j, HFG_EINVAL,
                  "family '%s' is not a family of the table (completebulkload would refuse "
                  "the output: unmatched family names)",
                  j->families[f]);
    if (!t) continue;
    hfg_writer_options *w = &j->family_hfile[f];
    if (t->has_codec) w->codec = t->codec;
    if (t->has_bloom) w->bloom = t->bloom;
    if (t->block_size) w->block_size = t->block_size;
  }
  return 0;
}

/* Applies "FAMILY:KEY=VALUE" overrides on top of the job's HFile options. */
static int setup_family_options(job *j) {
  const hfg_build_options *o = j->o;
  j->family_hfile = hfg_calloc(j->nfamilies, sizeof *j->family_hfile);
  if (!j->family_hfile) return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < j->nfamilies; f++) j->family_hfile[f] = o->hfile;
  if (o->ntable_families && apply_table_families(j)) return j->err.code;
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
    else if (!strcmp(key, "bloom")) bad = hfg_bloom_type_parse(v, &w->bloom) != 0;
    else if (!strcmp(key, "checksum"))
      bad = hfg_checksum_type_parse(v, &w->checksum) != 0 || w->checksum == HFG_CHECKSUM_NULL;
    else if (!strcmp(key, "block-size") || !strcmp(key, "block_size"))
      bad = parse_size(v, &n) || n > (1u << 30) || !(w->block_size = (uint32_t)n);
    else if (!strcmp(key, "bytes-per-checksum") || !strcmp(key, "bytes_per_checksum"))
      bad = parse_size(v, &n) || n > (1u << 30) || !(w->bytes_per_checksum = (uint32_t)n);
    else
      return fail(j, HFG_EINVAL,
                  "family option '%s': unknown key (codec, bloom, block-size, checksum, "
                  "bytes-per-checksum)",
                  spec);
    if (bad) return fail(j, HFG_EINVAL, "family option '%s': bad value '%s'", spec, v);
  }
  return 0;
}


static int setup_columns(job *j, char *const *names, size_t n) {
  const hfg_build_options *o = j->o;
  j->ncolumns = n;
  j->ts_column = -1;
  if (o->timestamp_column) {
    j->ts_column = find_column(names, n, o->timestamp_column);
    if (j->ts_column < 0)
      return fail(j, HFG_EINVAL, "timestamp column '%s' is not a column", o->timestamp_column);
  }
  hfg_err e = {0};
  if (hfg_colmap_init(&j->map, (const char *const *)names, n, o, j->scheme, &e))
    return fail(j, e.code, "%s", e.msg);
  j->families = j->map.families;
  j->family_len = j->map.family_len;
  j->nfamilies = j->map.nfamilies;
  j->cols = j->map.cols;
  j->ncols = j->map.ncols;
  return setup_family_options(j);
}

/* ---- ingest ---- */

/* Index of an input's name (the reader hands the same pointer for every
 * record of one input), kept so duplicates can be reported with their file. */
static uint16_t file_index(job *j, const char *name) {
  for (size_t i = 0; i < j->ninput_names; i++)
    if (j->input_names[i] == name) return (uint16_t)i;
  if (j->ninput_names < sizeof j->input_names / sizeof *j->input_names) {
    j->input_names[j->ninput_names] = name;
    return (uint16_t)j->ninput_names++;
  }
  return UINT16_MAX;
}

static int reject(job *j, const hfg_record *r, const char *reason) {
  j->sum->records_rejected++;
  if (j->rejects) {
    fprintf(j->rejects, "%s\t%llu\t", r->file ? r->file : "-", (unsigned long long)r->line);
    for (const char *p = reason; *p; p++) fputc(*p == '\t' || *p == '\n' ? ' ' : *p, j->rejects);
    fputc('\t', j->rejects);
    hfg_escape_fputs(j->rejects, (const uint8_t *)r->raw, r->raw_len);
    fputc('\n', j->rejects);
  }
  if (j->sum->records_rejected > j->o->max_rejects)
    return fail(j, HFG_EREJECT,
                "%s line %llu: %s (record rejected; %llu rejected > --max-rejects %llu; see %s)",
                r->file ? r->file : "-", (unsigned long long)r->line, reason,
                (unsigned long long)j->sum->records_rejected,
                (unsigned long long)j->o->max_rejects, j->sum->rejects_path);
  return 0;
}

/* Payload of a sorted row: ts:be64 line:be64 file:be16, then per cell column
 * len:be32 (ABSENT = no cell) and the encoded value. */
static int build_payload(job *j, const hfg_record *r, uint16_t file_idx, hfg_buf *pl,
                         char *why, size_t whylen) {
  hfg_buf_reset(pl);
  int64_t ts = j->ts;
  if (j->ts_column >= 0) {
    const hfg_field *f = &r->fields[j->ts_column];
    int bad = j->o->timestamp_format ? hfg_time_parse(j->o->timestamp_format, f->p, f->len, &ts)
                                     : hfg_parse_i64(f->p, f->len, &ts);
    if (bad || ts < 0) {
      if (j->o->timestamp_format)
        snprintf(why, whylen, "timestamp column '%s': '%.*s' does not match '%s'",
                 j->o->timestamp_column, (int)(f->len > 40 ? 40 : f->len), f->p,
                 j->o->timestamp_format);
      else
        snprintf(why, whylen, "timestamp column '%s': '%.*s' is not epoch milliseconds",
                 j->o->timestamp_column, (int)(f->len > 40 ? 40 : f->len), f->p);
      return HFG_EPARSE;
    }
  }
  /* room for the header, every length and every text value at once */
  size_t need = 18 + 4 * j->ncols;
  for (size_t i = 0; i < j->ncols; i++) need += r->fields[j->cols[i].column].len;
  if (hfg_buf_reserve(pl, need)) return HFG_ENOMEM;
  hfg_put_be64(pl->p, (uint64_t)ts);
  hfg_put_be64(pl->p + 8, r->line);
  hfg_put_be16(pl->p + 16, file_idx);
  pl->len = 18;
  for (size_t i = 0; i < j->ncols; i++) {
    const hfg_field *f = &r->fields[j->cols[i].column];
    if (f->len == 0 && j->o->empty == HFG_EMPTY_SKIP) {
      if (hfg_buf_put_be32(pl, ABSENT)) return HFG_ENOMEM;
      continue;
    }
    if (j->cols[i].enc == HFG_VALUE_TEXT && pl->cap - pl->len >= 4 + f->len) {
      /* the common case, without a call: the bytes as they are */
      hfg_put_be32(pl->p + pl->len, (uint32_t)f->len);
      hfg_copy(pl->p + pl->len + 4, (const uint8_t *)f->p, f->len);
      pl->len += 4 + f->len;
      continue;
    }
    size_t at = pl->len;
    if (hfg_buf_put_be32(pl, 0)) return HFG_ENOMEM;
    char err[256];
    int rc = hfg_value_encode(j->cols[i].enc, f->p, f->len, pl, err, sizeof err);
    if (rc == HFG_ENOMEM) return rc;
    if (rc) {
      snprintf(why, whylen, "column %zu (%s): %s", j->cols[i].column + 1, j->cols[i].qualifier,
               err);
      return HFG_EPARSE;
    }
    hfg_put_be32(pl->p + at, (uint32_t)(pl->len - at - 4));
  }
  return 0;
}

static int ingest(job *j, hfg_record_reader *rr) {
  const hfg_build_options *o = j->o;
  uint8_t key[HBASE_MAX_ROW + 1];
  hfg_buf payload = HFG_BUF_INIT;
  hfg_record rec;
  int rc;
  uint64_t seq = 0;
  hfg_err e = {0}; /* set only by a failure, which ends the loop: zeroed once, not per record */
  double last_progress = now_s();
  /* Parsing runs on its own thread (record_pump.h) when one can be had. */
  hfg_record_pump *pump = hfg_record_pump_start(rr);
  while (!atomic_load(&j->failed) &&
         (rc = pump ? hfg_record_pump_next(pump, &rec) : hfg_record_reader_next(rr, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      const char *m = hfg_record_reader_errmsg(rr);
      fail(j, rc, "%s", *m ? m : hfg_strerror(rc));
      break;
    }
    j->sum->records_read++;
    if (rc == HFG_EPARSE) {
      if (reject(j, &rec, rec.reason ? rec.reason : "malformed record")) break;
      continue;
    }
    char why[512];
    size_t klen;
    int erc = hfg_scheme_eval(j->scheme, rec.fields, rec.nfields, key, sizeof key - 1, &klen, why,
                              sizeof why);
    if (erc == HFG_ETOOBIG && strstr(why, "intermediate value")) {
      /* a part over the scheme's scratch size (HFG_SCHEME_SCRATCH), not a long key: keep
       * eval's reason, which names the template position */
      erc = HFG_EPARSE;
    } else if (erc == HFG_ETOOBIG || (erc == 0 && klen > HBASE_MAX_ROW)) {
      snprintf(why, sizeof why, "rowkey longer than HBase's limit of %d bytes", HBASE_MAX_ROW);
      erc = HFG_EPARSE;
    } else if (erc == 0 && klen == 0) {
      snprintf(why, sizeof why, "empty rowkey");
      erc = HFG_EPARSE;
    }
    if (erc == 0) erc = build_payload(j, &rec, file_index(j, rec.file), &payload, why, sizeof why);
    if (erc == HFG_ENOMEM) {
      fail(j, HFG_ENOMEM, "out of memory");
      break;
    }
    if (erc) {
      if (reject(j, &rec, why)) break;
      continue;
    }
    if (klen > LONG_KEY) j->sum->long_keys++;
    size_t region = hfg_splits_region(&j->splits, key, klen);
    if (hfg_sorter_add(j->sorter, region, key, klen, seq++, payload.p, payload.len, &e)) {
      fail(j, e.code, "%s", e.msg);
      break;
    }
    if (o->progress && (j->sum->records_read & 0xffff) == 0 && now_s() - last_progress > 1.0) {
      last_progress = now_s();
      hfg_build_progress p = {"ingest", j->sum->records_read,
                              pump ? hfg_record_pump_bytes_read(pump)
                                   : hfg_record_reader_bytes_read(rr),
                              0,
                              j->splits.n + 1, 0};
      o->progress(o->progress_ctx, &p);
    }
  }
  hfg_record_pump_stop(pump); /* joins the reading thread: the reader is ours again */
  j->sum->input_bytes = hfg_record_reader_bytes_read(rr);
  hfg_buf_free(&payload);
  return j->err.code;
}

/* ---- emit ---- */

typedef struct fwriter {
  hfg_writer *w;
  size_t file;     /* index into job.files */
  unsigned count;  /* files opened for this region and family */
} fwriter;

static int add_file(job *j, size_t region, size_t fam, unsigned seq, size_t *out) {
  /* Deterministic 32-hex name: a rerun with the same timestamp names its files alike. */
  char seed[256];
  int sl = snprintf(seed, sizeof seed, "%lld/%zu/%s/%u", (long long)j->ts, region,
                    j->families[fam], seq);
  uint32_t h[4];
  for (int i = 0; i < 4; i++) h[i] = hfg_murmur3_32((const uint8_t *)seed, (size_t)sl, 0x9747b28cu + (uint32_t)i);
  char name[33];
  snprintf(name, sizeof name, "%08x%08x%08x%08x", h[0], h[1], h[2], h[3]);
  size_t dl = strlen(j->dir) + strlen(j->families[fam]) + 40;
  char *tmp = hfg_malloc(dl), *fin = hfg_malloc(dl), *nm = hfg_strdup(name);
  if (!tmp || !fin || !nm) {
    hfg_free(tmp);
    hfg_free(fin);
    hfg_free(nm);
    return HFG_ENOMEM;
  }
  snprintf(tmp, dl, "%s/%s/_%s", j->dir, j->families[fam], name);
  snprintf(fin, dl, "%s/%s/%s", j->dir, j->families[fam], name);
  pthread_mutex_lock(&j->lock);
  if (j->nfiles == j->capfiles) {
    size_t cap = j->capfiles ? j->capfiles * 2 : 64;
    outfile *f = hfg_realloc(j->files, cap * sizeof *f);
    if (!f) {
      pthread_mutex_unlock(&j->lock);
      hfg_free(tmp);
      hfg_free(fin);
      hfg_free(nm);
      return HFG_ENOMEM;
    }
    j->files = f;
    j->capfiles = cap;
  }
  memset(&j->files[j->nfiles], 0, sizeof *j->files);
  j->files[j->nfiles] = (outfile){.region = region, .family = fam, .seq = seq, .tmp_path = tmp,
                                  .final_path = fin, .name = nm};
  *out = j->nfiles++;
  pthread_mutex_unlock(&j->lock);
  return 0;
}

static int close_writer(job *j, fwriter *fw) {
  if (!fw->w) return 0;
  const uint8_t *last;
  size_t last_len;
  hfg_writer_last_row(fw->w, &last, &last_len);
  uint8_t *last_row = last_len ? hfg_memdup(last, last_len) : NULL;
  if (last_len && !last_row) {
    hfg_writer_abandon(fw->w);
    hfg_writer_free(fw->w);
    fw->w = NULL;
    return fail(j, HFG_ENOMEM, "out of memory");
  }
  int rc = hfg_writer_finish(fw->w);
  if (rc) {
    hfg_free(last_row);
    fail(j, rc, "%s", hfg_writer_errmsg(fw->w));
  } else {
    pthread_mutex_lock(&j->lock);
    outfile *f = &j->files[fw->file];
    f->bytes = hfg_writer_bytes(fw->w);
    f->cells = hfg_writer_entries(fw->w);
    f->last_row = last_row;
    f->last_len = last_len;
    /* read under the lock: another thread's add_file may move j->files */
    uint64_t bytes = f->bytes;
    pthread_mutex_unlock(&j->lock);
    atomic_fetch_add(&j->out_bytes, bytes);
  }
  hfg_writer_free(fw->w);
  fw->w = NULL;
  return rc;
}

static int open_writer(job *j, size_t region, size_t fam, fwriter *fw, const uint8_t *row,
                       size_t rlen) {
  if (fw->count >= MAX_FILES_PER_REGION_FAMILY)
    return fail(j, HFG_ETOOBIG,
                "region %zu family %s needs more than %d files (HBase's bulk-load limit per "
                "region per family): raise --max-file-size or split the table into more regions",
                region, j->families[fam], MAX_FILES_PER_REGION_FAMILY);
  size_t idx;
  if (add_file(j, region, fam, fw->count, &idx)) return fail(j, HFG_ENOMEM, "out of memory");
  hfg_writer_options wo = j->family_hfile[fam];
  wo.bulkload_timestamp = j->ts;
  char task[64];
  snprintf(task, sizeof task, "hfilegen_region_%zu", region);
  wo.bulkload_source_task = task;
  pthread_mutex_lock(&j->lock); /* another thread's add_file may move j->files */
  const char *tmp_path = j->files[idx].tmp_path;
  pthread_mutex_unlock(&j->lock);
  int rc = hfg_writer_open(tmp_path, j->families[fam], &wo, &fw->w);
  if (rc) {
    fail(j, rc, "%s", fw->w ? hfg_writer_errmsg(fw->w) : "cannot open a writer");
    hfg_writer_free(fw->w);
    fw->w = NULL;
    return rc;
  }
  pthread_mutex_lock(&j->lock);
  j->files[idx].first_row = hfg_memdup(row, rlen);
  j->files[idx].first_len = rlen;
  int oom = !j->files[idx].first_row;
  pthread_mutex_unlock(&j->lock);
  fw->file = idx;
  fw->count++;
  /* the manifest needs the first row: a NULL one would be dereferenced there */
  if (oom) return fail(j, HFG_ENOMEM, "out of memory");
  return 0;
}

static void record_names(job *j, uint16_t file_idx, const char **name) {
  *name = file_idx < j->ninput_names ? j->input_names[file_idx] : "?";
}

/* Appends one row's cells of family f (n > 0) to its writer, rolling the file
 * first if it has reached --max-file-size. */
static int emit_family_row(job *j, size_t region, size_t f, fwriter *fw, const uint8_t *key,
                           size_t klen, int64_t ts, const hfg_put *puts, size_t n,
                           hfg_build_region *rs) {
  /* HFileOutputFormat2 rolls at a row boundary once the file reached the size */
  if (fw->w && hfg_writer_bytes(fw->w) >= j->o->max_file_size && close_writer(j, fw)) return -1;
  if (!fw->w && open_writer(j, region, f, fw, key, klen)) return -1;
  if (hfg_writer_append_puts(fw->w, key, klen, ts, puts, n))
    return fail(j, hfg_writer_status(fw->w), "%s", hfg_writer_errmsg(fw->w));
  rs->cells += n;
  return 0;
}

/* puts: room for j->ncols. The columns are sorted by family, then qualifier
 * (columns.c), so each family's cells are one run of them. */
static int emit_row(job *j, size_t region, fwriter *fws, const uint8_t *rec, size_t len,
                    hfg_build_region *rs, hfg_put *puts) {
  size_t klen = hfg_rec_klen(rec);
  const uint8_t *key = hfg_rec_key(rec);
  size_t plen;
  const uint8_t *q = hfg_rec_payload(rec, len, &plen);
  int64_t ts = (int64_t)hfg_get_be64(q);
  q += 18;
  size_t n = 0, fam = 0;
  for (size_t i = 0; i < j->ncols; i++) {
    uint32_t vl = hfg_get_be32(q);
    q += 4;
    if (vl == ABSENT) continue;
    size_t f = j->cols[i].family;
    if (n && f != fam) {
      if (emit_family_row(j, region, fam, &fws[fam], key, klen, ts, puts, n, rs)) return -1;
      n = 0;
    }
    fam = f;
    puts[n++] = (hfg_put){(const uint8_t *)j->cols[i].qualifier, j->cols[i].qualifier_len, q, vl};
    q += vl;
  }
  if (n && emit_family_row(j, region, fam, &fws[fam], key, klen, ts, puts, n, rs)) return -1;
  rs->rows++;
  return 0;
}

/* prev_key holds the row key followed by line:be64 and file:be16 of its record. */
static uint16_t prev_key_file(const hfg_buf *b, size_t klen) { return hfg_get_be16(b->p + klen + 8); }
static uint64_t prev_key_line(const hfg_buf *b, size_t klen) { return hfg_get_be64(b->p + klen); }

static int emit_region(job *j, size_t region) {
  hfg_build_region *rs = &j->sum->regions[region];
  hfg_sort_iter *it;
  hfg_err e = {0};
  if (hfg_sort_iter_open(j->sorter, region, &it, &e)) return fail(j, e.code, "%s", e.msg);
  fwriter *fws = hfg_calloc(j->nfamilies, sizeof *fws);
  hfg_put *puts = hfg_calloc(j->ncols + 1, sizeof *puts);
  if (!fws || !puts) {
    hfg_free(fws);
    hfg_free(puts);
    hfg_sort_iter_close(it);
    return fail(j, HFG_ENOMEM, "out of memory");
  }
  /* Records come sorted by (rowkey, input order). A row is emitted when the next
   * record's key differs; with --on-duplicate last the pending record must be kept
   * across the iterator call, so only that mode copies it. */
  const uint8_t *rec, *pend = NULL;
  size_t len, pend_len = 0;
  uint8_t *hold = NULL;
  size_t hold_cap = 0;
  hfg_buf prev_key = HFG_BUF_INIT; /* key of the last emitted row (error/first modes) */
  size_t prev_klen = 0;
  int have_prev = 0;
  int rc;
  const int policy = j->o->on_duplicate;
  while (!atomic_load(&j->failed) && (rc = hfg_sort_iter_next(it, &rec, &len, &e)) > 0) {
    size_t klen = hfg_rec_klen(rec);
    const uint8_t *key = hfg_rec_key(rec);
    if (policy == HFG_DUP_LAST) {
      if (pend && (hfg_rec_klen(pend) != klen || memcmp(hfg_rec_key(pend), key, klen))) {
        if (emit_row(j, region, fws, pend, pend_len, rs, puts)) break;
      } else if (pend) {
        __atomic_fetch_add(&j->sum->duplicates_dropped, 1, __ATOMIC_RELAXED);
      }
      if (len > hold_cap) {
        uint8_t *cp = hfg_realloc(hold, len);
        if (!cp) {
          fail(j, HFG_ENOMEM, "out of memory");
          break;
        }
        hold = cp;
        hold_cap = len;
      }
      memcpy(hold, rec, len);
      pend = hold;
      pend_len = len;
      continue;
    }
    if (have_prev && prev_klen == klen && !memcmp(prev_key.p, key, klen)) {
      if (policy == HFG_DUP_FIRST) {
        __atomic_fetch_add(&j->sum->duplicates_dropped, 1, __ATOMIC_RELAXED);
        continue;
      }
      size_t pl2;
      const uint8_t *p2 = hfg_rec_payload(rec, len, &pl2);
      const char *f1, *f2;
      record_names(j, (uint16_t)(prev_key_file(&prev_key, klen)), &f1);
      record_names(j, hfg_get_be16(p2 + 16), &f2);
      hfg_buf kb = HFG_BUF_INIT;
      hfg_escape(&kb, key, klen > 200 ? 200 : klen);
      fail(j, HFG_EDUP,
           "duplicate rowkey '%.*s': %s line %llu and %s line %llu (use --on-duplicate "
           "last|first to keep one)",
           (int)kb.len, kb.p ? (char *)kb.p : "", f1,
           (unsigned long long)prev_key_line(&prev_key, klen), f2,
           (unsigned long long)hfg_get_be64(p2 + 8));
      hfg_buf_free(&kb);
      break;
    }
    /* remember this row's key and provenance, then emit it */
    size_t pl;
    const uint8_t *p = hfg_rec_payload(rec, len, &pl);
    hfg_buf_reset(&prev_key);
    if (hfg_buf_reserve(&prev_key, klen + 10)) {
      fail(j, HFG_ENOMEM, "out of memory");
      break;
    }
    hfg_copy(prev_key.p, key, klen);
    memcpy(prev_key.p + klen, p + 8, 10);
    prev_key.len = klen + 10;
    prev_klen = klen;
    have_prev = 1;
    if (emit_row(j, region, fws, rec, len, rs, puts)) break;
  }
  if (rc < 0) fail(j, e.code, "%s", e.msg);
  if (!atomic_load(&j->failed) && pend) emit_row(j, region, fws, pend, pend_len, rs, puts);
  hfg_buf_free(&prev_key);
  for (size_t f = 0; f < j->nfamilies; f++) {
    if (!fws[f].w) continue;
    if (atomic_load(&j->failed)) {
      hfg_writer_abandon(fws[f].w);
      hfg_writer_free(fws[f].w);
      fws[f].w = NULL;
    } else {
      close_writer(j, &fws[f]);
    }
    rs->files += fws[f].count;
  }
  hfg_free(hold);
  hfg_free(puts);
  hfg_free(fws);
  hfg_sort_iter_close(it);
  atomic_fetch_add(&j->regions_done, 1);
  return j->err.code;
}

static void *emit_worker(void *arg) {
  job *j = arg;
  for (;;) {
    size_t r = atomic_fetch_add(&j->next_region, 1);
    if (r > j->splits.n || atomic_load(&j->failed)) break;
    emit_region(j, r);
  }
  return NULL;
}

/* ---- publish ---- */

/* The escaped form of util/escape.h inside a JSON string. Written byte by
 * byte without a buffer: an allocation failure here used to drop the key
 * silently and publish a wrong manifest. */
static void json_str(FILE *f, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    uint8_t c = p[i];
    if (c == '\\') fputs("\\\\\\\\", f); /* \\ escaped for JSON */
    else if (c == '"') fputs("\\\"", f);
    else if (c >= 0x20 && c <= 0x7e) fputc(c, f);
    else fprintf(f, "\\\\x%c%c", hex[c >> 4], hex[c & 15]);
  }
  fputc('"', f);
}

static int write_small_file(job *j, const char *name, int (*body)(job *, FILE *)) {
  char tmp[4200], fin[4200];
  snprintf(tmp, sizeof tmp, "%s/_%s.tmp", j->dir, name);
  snprintf(fin, sizeof fin, "%s/%s", j->dir, name);
  FILE *f = fopen(tmp, "w");
  if (!f) return fail(j, HFG_EIO, "%s: %s", tmp, strerror(errno));
  int rc = body ? body(j, f) : 0;
  if (fflush(f) || ferror(f)) rc = fail(j, HFG_EIO, "%s: write: %s", tmp, strerror(errno));
  if (!rc) {
    int e = hfg_io_fsync(fileno(f));
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", tmp, strerror(-e));
  }
  fclose(f);
  if (!rc) {
    int e = hfg_io_rename(tmp, fin);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "rename %s: %s", tmp, strerror(-e));
  }
  if (rc) unlink(tmp);
  return rc;
}

static int manifest_body(job *j, FILE *f) {
  fprintf(f, "{\n  \"timestamp\": %lld,\n  \"regions\": %zu,\n  \"files\": [", (long long)j->ts,
          j->splits.n + 1);
  for (size_t i = 0; i < j->nfiles; i++) {
    outfile *o = &j->files[i];
    fprintf(f, "%s\n    {\"family\": ", i ? "," : "");
    json_str(f, (const uint8_t *)j->families[o->family], strlen(j->families[o->family]));
    fprintf(f, ", \"file\": \"%s/%s\", \"region\": %zu, \"region_start\": ", j->families[o->family],
            o->name, o->region);
    if (o->region == 0) json_str(f, (const uint8_t *)"", 0);
    else json_str(f, j->splits.key[o->region - 1], j->splits.len[o->region - 1]);
    fprintf(f, ", \"region_end\": ");
    if (o->region == j->splits.n) json_str(f, (const uint8_t *)"", 0);
    else json_str(f, j->splits.key[o->region], j->splits.len[o->region]);
    fprintf(f, ", \"first_row\": ");
    json_str(f, o->first_row, o->first_len);
    fprintf(f, ", \"last_row\": ");
    json_str(f, o->last_row, o->last_len);
    fprintf(f, ", \"cells\": %llu, \"bytes\": %llu}", (unsigned long long)o->cells,
            (unsigned long long)o->bytes);
  }
  fprintf(f, "\n  ],\n  \"splits_source\": ");
  char src[4200];
  if (j->o->splits_file) snprintf(src, sizeof src, "file %s", j->o->splits_file);
  else snprintf(src, sizeof src, "%s",
                j->o->splits_source ? j->o->splits_source : "one region (no split keys)");
  json_str(f, (const uint8_t *)src, strlen(src));
  fprintf(f, ",\n  \"splits\": [");
  for (size_t k = 0; k < j->splits.n; k++) {
    fputs(k ? ", " : "", f);
    json_str(f, j->splits.key[k], j->splits.len[k]);
  }
  fprintf(f, "]\n}\n");
  return 0;
}

/* Regions finish in any order; the manifest lists files by region, family, sequence. */
static int outfile_cmp(const void *a, const void *b) {
  const outfile *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  if (x->family != y->family) return x->family < y->family ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Renames the staging directory to the output directory: the families,
 * manifest.json and _SUCCESS become visible together. */
static int unstage(job *j) {
  const char *out = j->o->out_dir;
  int e = hfg_io_rename(j->stage, out);
  if (e)
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish: rename %s to %s: %s", j->stage,
                out, strerror(-e));
  j->staged = 0;
  char parent[4096];
  const char *slash = strrchr(j->stage, '/');
  snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - j->stage + 1) : 1,
           slash ? j->stage : ".");
  e = hfg_io_fsync_dir(parent);
  if (e) {
    /* not durable: take it back out of sight, the caller rolls back */
    if (rename(out, j->stage) == 0) j->staged = 1;
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish: %s: fsync: %s", parent,
                strerror(-e));
  }
  return 0;
}

static int publish(job *j) {
  qsort(j->files, j->nfiles, sizeof *j->files, outfile_cmp);
  size_t done = 0;
  int rc = 0;
  for (; done < j->nfiles && !rc; done++) {
    int e = hfg_io_rename(j->files[done].tmp_path, j->files[done].final_path);
    if (e)
      rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish %s: %s", j->files[done].tmp_path,
                strerror(-e));
  }
  if (rc) {
    /* roll back what became visible: nothing loadable may stay */
    for (size_t i = 0; i + 1 < done; i++) unlink(j->files[i].final_path);
    return rc;
  }
  for (size_t f = 0; f < j->nfamilies && !rc; f++) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", j->dir, j->families[f]);
    int e = hfg_io_fsync_dir(dir);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", dir, strerror(-e));
  }
  if (!rc) rc = write_small_file(j, "manifest.json", manifest_body);
  if (!rc) rc = write_small_file(j, "_SUCCESS", NULL);
  if (!rc) {
    int e = hfg_io_fsync_dir(j->dir);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", j->dir, strerror(-e));
  }
  if (!rc && j->staged) rc = unstage(j);
  if (rc) {
    for (size_t i = 0; i < j->nfiles; i++) unlink(j->files[i].final_path);
    const char *names[] = {"manifest.json", "_SUCCESS"};
    for (size_t i = 0; i < 2; i++) {
      char m[4200];
      snprintf(m, sizeof m, "%s/%s", j->dir, names[i]);
      unlink(m);
    }
  }
  return rc;
}

/* ---- the job ---- */

/* mkdir -p */
static int make_dirs(const char *path) {
  char tmp[4096];
  size_t n = strlen(path);
  if (n == 0 || n >= sizeof tmp) return ENAMETOOLONG;
  memcpy(tmp, path, n + 1);
  for (char *p = tmp + 1; *p; p++) {
    if (*p != '/') continue;
    *p = 0;
    if (mkdir(tmp, 0755) && errno != EEXIST) return errno;
    *p = '/';
  }
  if (mkdir(tmp, 0755) && errno != EEXIST) return errno;
  return 0;
}

/* ---- staging: the output appears in one rename ----
 *
 * completebulkload loads every <out>/<family>/<file> it finds, _SUCCESS or
 * not, so renaming HFiles into place one by one leaves a loadable partial
 * output when the job is killed half-way. Instead the (empty) output
 * directory is renamed to a hidden sibling, <parent>/.<name>.hfilegen-staging,
 * the job writes and publishes there, and renaming it back is the last step:
 * families, manifest.json and _SUCCESS appear together or not at all. A
 * failed job's directory is renamed back too (HFiles removed, rejects kept);
 * a killed job's stays hidden and the next job into the same directory
 * removes it. The job holds a flock on the directory so that two jobs never
 * share one. Where the directory cannot be renamed (a mount point, another
 * file system, no write access to the parent) the job works in it directly.
 */

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  remove(p);
  return 0;
}

static int stage_path(const char *out, char *buf, size_t cap) {
  size_t n = strlen(out);
  while (n > 1 && out[n - 1] == '/') n--;
  size_t b = n;
  while (b > 0 && out[b - 1] != '/') b--;
  size_t nl = n - b;
  if (nl == 0 || (nl == 1 && out[b] == '.') || (nl == 2 && !memcmp(out + b, "..", 2))) return -1;
  int w = snprintf(buf, cap, "%.*s.%.*s.hfilegen-staging", (int)b, out, (int)nl, out + b);
  return w < 0 || (size_t)w >= cap ? -1 : 0;
}

static int stage_out(job *j) {
  const char *out = j->o->out_dir;
  j->lock_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (j->lock_fd < 0) return fail(j, HFG_EIO, "%s: %s", out, strerror(errno));
  if (flock(j->lock_fd, LOCK_EX | LOCK_NB))
    return fail(j, HFG_EINVAL, "output directory %s is in use by another hfilegen job", out);
  if (stage_path(out, j->stage, sizeof j->stage)) return 0;
  int sfd = open(j->stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (sfd >= 0) {
    /* left by a killed job (unlocked), or a running job's (locked) */
    int busy = flock(sfd, LOCK_EX | LOCK_NB) != 0;
    if (!busy) nftw(j->stage, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    close(sfd);
    if (busy)
      return fail(j, HFG_EINVAL, "output directory %s is in use by another hfilegen job (%s)",
                  out, j->stage);
  }
  int e = hfg_io_rename(out, j->stage);
  if (e == -EXDEV || e == -EBUSY || e == -EINVAL || e == -EPERM || e == -EACCES) return 0;
  if (e)
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "rename %s to %s: %s", out, j->stage,
                strerror(-e));
  j->staged = 1;
  snprintf(j->dir, sizeof j->dir, "%s", j->stage);
  return 0;
}

/* A path the user gave inside the output directory, as the job sees it. */
static void work_path(const job *j, const char *path, char *buf, size_t cap) {
  size_t n = strlen(j->o->out_dir);
  const char *head = "", *tail = path;
  if (j->staged && !strncmp(path, j->o->out_dir, n) && path[n] == '/') head = j->dir, tail = path + n;
  size_t hl = strlen(head), tl = strlen(tail);
  if (hl + tl >= cap) tl = hl < cap ? cap - 1 - hl : 0; /* cut: the open then fails, naming it */
  if (hl >= cap) hl = cap - 1;
  memcpy(buf, head, hl);
  memcpy(buf + hl, tail, tl);
  buf[hl + tl] = '\0';
}

/* A family directory a failed job left: it holds nothing but '_' files
 * (which completebulkload skips), so a rerun into the same directory may
 * proceed. */
static int idle_dir(const char *out, const char *name) {
  char p[4200];
  snprintf(p, sizeof p, "%s/%s", out, name);
  DIR *d = opendir(p);
  if (!d) return 0;
  struct dirent *de;
  int idle = 1;
  while (idle && (de = readdir(d))) idle = de->d_name[0] == '_' || de->d_name[0] == '.';
  closedir(d);
  return idle;
}

static int prepare_out_dir(job *j) {
  const char *out = j->o->out_dir;
  int e = make_dirs(out);
  if (e) return fail(j, e == ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: %s", out, strerror(e));
  DIR *d = opendir(out);
  if (!d) return fail(j, HFG_EIO, "%s: %s", out, strerror(errno));
  struct dirent *de;
  int busy = 0;
  while ((de = readdir(d)))
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && de->d_name[0] != '_' &&
        !idle_dir(out, de->d_name))
      busy = 1;
  closedir(d);
  char s[4096];
  snprintf(s, sizeof s, "%s/_SUCCESS", out);
  if (busy || access(s, F_OK) == 0)
    return fail(j, HFG_EINVAL,
                "output directory %s is not empty: remove it or choose another (a previous "
                "job's output is never overwritten)",
                out);
  if (stage_out(j)) return j->err.code;
  for (size_t f = 0; f < j->nfamilies; f++) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", j->dir, j->families[f]);
    if (mkdir(dir, 0755) && errno != EEXIST) return fail(j, HFG_EIO, "%s: %s", dir, strerror(errno));
  }
  return 0;
}

static void cleanup_failed(job *j) {
  for (size_t i = 0; i < j->nfiles; i++) unlink(j->files[i].tmp_path);
}

static int run_emit(job *j) {
  int nthreads = j->o->threads > 0 ? j->o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nthreads < 1) nthreads = 1;
  if ((size_t)nthreads > j->splits.n + 1) nthreads = (int)(j->splits.n + 1);
  pthread_t *th = hfg_calloc((size_t)nthreads, sizeof *th);
  if (!th) return fail(j, HFG_ENOMEM, "out of memory");
  hfg_sorter_set_readers(j->sorter, (unsigned)nthreads);
  int started = 0;
  for (; started < nthreads; started++)
    if (pthread_create(&th[started], NULL, emit_worker, j)) break;
  if (started == 0) emit_worker(j);
  const hfg_build_options *o = j->o;
  while (o->progress && started > 0 && atomic_load(&j->regions_done) < j->splits.n + 1 &&
         !atomic_load(&j->failed)) {
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    hfg_build_progress p = {"emit", j->sum->records_read, j->sum->input_bytes,
                            atomic_load(&j->regions_done), j->splits.n + 1,
                            atomic_load(&j->out_bytes)};
    o->progress(o->progress_ctx, &p);
  }
  for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
  hfg_free(th);
  return j->err.code;
}

int hfg_build_run(const hfg_build_options *o, hfg_build_summary *sum) {
  memset(sum, 0, sizeof *sum);
  job jb;
  memset(&jb, 0, sizeof jb);
  job *j = &jb;
  j->o = o;
  j->sum = sum;
  j->lock_fd = -1;
  pthread_mutex_init(&j->lock, NULL);
  hfg_record_reader *rr = NULL;
  int rc = 0;
  if (o->version != HFG_BUILD_OPTIONS_VERSION || !o->out_dir || !o->rowkey || o->ninputs == 0) {
    rc = fail(j, HFG_EINVAL, "build needs inputs, a rowkey and an output directory");
    goto done;
  }
  snprintf(j->dir, sizeof j->dir, "%s", o->out_dir);
  j->ts = o->timestamp >= 0 ? o->timestamp : (int64_t)(time(NULL)) * 1000;
  {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    if (o->timestamp < 0) j->ts = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
  }
  sum->timestamp = j->ts;
  if (o->splits_file) {
    hfg_err e = {0};
    if (hfg_splits_load(o->splits_file, &j->splits, &e)) {
      rc = fail(j, e.code, "%s", e.msg);
      goto done;
    }
  }
  else if (o->nsplit_keys) {
    for (size_t k = 0; k < o->nsplit_keys; k++) {
      int e = hfg_splits_add(&j->splits, o->split_keys[k], o->split_key_lens[k]);
      if (e) {
        rc = fail(j, e, e == HFG_ENOMEM ? "out of memory"
                                        : "split key %zu is empty or not above the one before", k);
        goto done;
      }
    }
  }
  sum->nregions = j->splits.n + 1;
  sum->regions = hfg_calloc(sum->nregions, sizeof *sum->regions);
  if (!sum->regions) {
    rc = fail(j, HFG_ENOMEM, "out of memory");
    goto done;
  }
  hfg_input_options io = HFG_INPUT_OPTIONS_INIT;
  io.format = o->format == HFG_BUILD_TSV ? HFG_INPUT_TSV : HFG_INPUT_CSV;
  if (o->delimiter) io.delimiter = (unsigned char)o->delimiter;
  io.has_header = o->header;
  if (!o->header) io.expected_columns = o->ncolumns;
  {
    char msg[1024];
    int orc = hfg_record_reader_open(o->inputs, o->ninputs, &io, &rr, msg, sizeof msg);
    if (orc) {
      rc = fail(j, orc, "%s", msg);
      goto done;
    }
  }
  {
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
    if (!o->header && !owned) {
      rc = fail(j, HFG_ENOMEM, "out of memory");
      goto done;
    }
    if (!names || ncols == 0) {
      hfg_free(owned);
      rc = fail(j, HFG_EINVAL, "no column names: give a header row or --columns");
      goto done;
    }
    char msg[512];
    int crc = hfg_scheme_compile(o->rowkey, (const char *const *)names, ncols, &j->scheme, msg,
                                 sizeof msg);
    if (crc) {
      hfg_free(owned);
      rc = fail(j, crc == HFG_ENOMEM ? HFG_ENOMEM : HFG_EINVAL, "rowkey '%s': %s", o->rowkey, msg);
      goto done;
    }
    rc = setup_columns(j, names, ncols);
    hfg_free(owned);
    if (rc) goto done;
  }
  if ((rc = prepare_out_dir(j)) != 0) goto done;
  snprintf(sum->rejects_path, sizeof sum->rejects_path, "%s",
           o->rejects_path ? o->rejects_path : "");
  if (!o->rejects_path) snprintf(sum->rejects_path, sizeof sum->rejects_path, "%s/_rejects.tsv",
                                 o->out_dir);
  char rejects_work[4200], tmp_work[4200];
  work_path(j, sum->rejects_path, rejects_work, sizeof rejects_work);
  work_path(j, o->tmp_dir ? o->tmp_dir : j->dir, tmp_work, sizeof tmp_work);
  j->rejects = fopen(rejects_work, "w");
  if (!j->rejects) {
    rc = fail(j, HFG_EIO, "%s: %s", sum->rejects_path, strerror(errno));
    goto done;
  }
  j->sorter = hfg_sorter_new(j->splits.n + 1, o->memory, tmp_work);
  if (j->sorter) hfg_sorter_set_lz4(j->sorter, o->spill_lz4);
  if (!j->sorter) {
    rc = fail(j, HFG_ENOMEM, "out of memory");
    goto done;
  }
  double t0 = now_s();
  if ((rc = ingest(j, rr)) != 0) goto done;
  {
    hfg_err e = {0};
    if (hfg_sorter_finish(j->sorter, &e)) {
      rc = fail(j, e.code, "%s", e.msg);
      goto done;
    }
  }
  sum->spill_runs = hfg_sorter_runs(j->sorter);
  sum->spilled_bytes = hfg_sorter_spilled_bytes(j->sorter);
  double t1 = now_s();
  sum->ingest_seconds = t1 - t0;
  if ((rc = run_emit(j)) != 0) goto done;
  double t2 = now_s();
  sum->emit_seconds = t2 - t1;
  hfg_sorter_free(j->sorter);
  j->sorter = NULL;
  if (fflush(j->rejects)) {
    rc = fail(j, HFG_EIO, "%s: write failed", sum->rejects_path);
    goto done;
  }
  if (sum->records_rejected == 0) {
    /* no rejects: no rejects file in the output, even for a moment */
    fclose(j->rejects);
    j->rejects = NULL;
    unlink(rejects_work);
  }
  if ((rc = publish(j)) != 0) goto done;
  sum->publish_seconds = now_s() - t2;
  for (size_t r = 0; r < sum->nregions; r++) {
    sum->records_written += sum->regions[r].rows;
    sum->cells += sum->regions[r].cells;
  }
  for (size_t i = 0; i < j->nfiles; i++) {
    sum->regions[j->files[i].region].bytes_out += j->files[i].bytes;
    sum->output_bytes += j->files[i].bytes;
  }
  sum->files = j->nfiles;
done:
  if (j->err.code) {
    rc = j->err.code;
    memcpy(sum->error, j->err.msg, sizeof sum->error);
    sum->error[sizeof sum->error - 1] = 0;
    cleanup_failed(j);
  }
  if (j->rejects) {
    fclose(j->rejects);
    /* a failed job keeps its rejects file only when it holds rejects */
    if (sum->records_rejected == 0) {
      char rw[4200];
      work_path(j, sum->rejects_path, rw, sizeof rw);
      unlink(rw);
    }
  }
  hfg_record_reader_free(rr);
  hfg_sorter_free(j->sorter);
  /* after the spill files are gone: a failed job's directory comes back */
  if (j->staged && rename(j->stage, o->out_dir)) {
    size_t l = strlen(sum->error);
    snprintf(sum->error + l, sizeof sum->error - l, " (the output directory is left at %s)",
             j->stage);
  }
  if (j->lock_fd >= 0) close(j->lock_fd);
  hfg_scheme_free(j->scheme);
  hfg_splits_free(&j->splits);
  hfg_colmap_free(&j->map);
  hfg_free(j->family_hfile);
  for (size_t i = 0; i < j->nfiles; i++) {
    hfg_free(j->files[i].tmp_path);
    hfg_free(j->files[i].final_path);
    hfg_free(j->files[i].name);
    hfg_free(j->files[i].first_row);
    hfg_free(j->files[i].last_row);
  }
  hfg_free(j->files);
  pthread_mutex_destroy(&j->lock);
  return rc;
}

void hfg_build_summary_free(hfg_build_summary *s) {
  hfg_free(s->regions);
  s->regions = NULL;
}

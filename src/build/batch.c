/*
 * The build job in pieces for distributed runners (include/hfilegen/batch.h):
 * the job's setup (build_job.c), keying as ingest does, one region's emit
 * (build_emit.c, through a sorter holding only that region) and the publish
 * (build_publish.c) of files written elsewhere.
 */
#define _GNU_SOURCE
#include "hfilegen/batch.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "build/batch_internal.h"
#include "build/build_internal.h"
#include "input/record_dialect.h"
#include "input/source_db.h"
#include "build/values.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/coding.h"
#include "util/escape.h"

struct hfg_batch {
  hfg_build_options o; /* copy: header off once the names are known */
  hfg_build_summary sum;
  job j;
  char **names;
  size_t nnames;
  hfg_batch_out out;
  hfg_buf keys, pls, rej;
  hfg_buf scan; /* hfg_batch_scan_file's range starts */
  size_t cap; /* records room in out arrays */
  uint64_t dups, without, markers;
  char out_work[4096]; /* the job's directory from begin (emit moves j.dir) */
  int collecting; /* add_file was called: j.files are the job's, not an emit's */
};

static int berr(hfg_batch *b, int code, const char *fmt, const char *s) {
  if (!b->j.err.code) {
    b->j.err.code = code;
    snprintf(b->j.err.msg, sizeof b->j.err.msg, fmt, s);
  }
  return code;
}

int hfg_batch_open(const hfg_build_options *o, int64_t ts, hfg_batch **out, char *err,
                   size_t errcap) {
  *out = NULL;
  hfg_batch *b = hfg_calloc(1, sizeof *b);
  if (!b) return HFG_ENOMEM;
  b->o = *o;
  job *j = &b->j;
  j->o = &b->o;
  j->sum = &b->sum;
  j->lock_fd = -1;
  pthread_mutex_init(&j->lock, NULL);
  int rc = 0;
  if (o->version != HFG_BUILD_OPTIONS_VERSION || !o->out_dir || !o->rowkey || o->ninputs == 0) {
    rc = fail(j, HFG_EINVAL, "build needs inputs, a rowkey and an output directory");
    goto done;
  }
  /* what the batch pieces do not carry: database inputs and their incremental state;
   * refused rather than written differently from hfg_build_run */
  if (o->check_column) {
    rc = fail(j, HFG_EINVAL, "--incremental is not supported by the batch API (Spark): use "
                             "hfilegen build");
    goto done;
  }
  if (o->changes || o->delete_if || o->op_column || o->deletes) { /* format-specs/nightly-loads.md */
    rc = fail(j, HFG_EINVAL, "changes loads (--delete-if, --op-column, --deletes) are not "
                             "supported by the batch API (Spark) yet: use hfilegen build");
    goto done;
  }
  for (size_t i = 0; i < o->ninputs; i++)
    if (hfg_db_is_uri(o->inputs[i])) {
      rc = fail(j, HFG_EINVAL, "database inputs are not supported by the batch API (Spark) yet: "
                               "use hfilegen build");
      goto done;
    }
  snprintf(j->dir, sizeof j->dir, "%s", o->out_dir);
  if (ts < 0) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    ts = o->timestamp >= 0 ? o->timestamp : (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    if (o->job_timestamp >= 0) ts = o->job_timestamp;
  }
  j->ts = ts;
  b->sum.timestamp = ts;
  if (o->splits_file) {
    hfg_err e = {0};
    if (hfg_splits_load(o->splits_file, &j->splits, &e)) {
      rc = fail(j, e.code, "%s", e.msg);
      goto done;
    }
  }
  b->sum.nregions = j->splits.n + 1;
  b->sum.regions = hfg_calloc(b->sum.nregions, sizeof *b->sum.regions);
  if (!b->sum.regions) {
    rc = fail(j, HFG_ENOMEM, "out of memory");
    goto done;
  }
  hfg_input_options io;
  hfg_build_input_options(o, &io);
  hfg_record_reader *rr = NULL;
  char msg[1024];
  rc = hfg_record_reader_open(o->inputs, o->ninputs, &io, &rr, msg, sizeof msg);
  if (rc) {
    fail(j, rc, "%s", msg);
    goto done;
  }
  rc = hfg_build_setup_job(j, rr);
  if (!rc) {
    /* keep the column names: tasks key by them without a header */
    size_t n = 0;
    const char *const *nm = o->header ? hfg_record_reader_columns(rr, &n) : o->columns;
    if (!o->header) n = o->ncolumns;
    b->names = hfg_calloc(n ? n : 1, sizeof *b->names);
    for (size_t i = 0; b->names && i < n; i++)
      if ((b->names[i] = hfg_strdup(nm[i]))) b->nnames++;
    if (!b->names || b->nnames != n) rc = fail(j, HFG_ENOMEM, "out of memory");
  }
  hfg_record_reader_free(rr);
  for (size_t i = 0; i < o->ninputs && i < sizeof j->input_names / sizeof *j->input_names; i++)
    j->input_names[j->ninput_names++] = o->inputs[i];
done:
  if (rc) {
    snprintf(err, errcap, "%s", j->err.msg);
    hfg_batch_free(b);
    return rc;
  }
  *out = b;
  return 0;
}

void hfg_batch_free(hfg_batch *b) {
  if (!b) return;
  hfg_sorter_free(b->j.sorter);
  hfg_build_job_free(&b->j);
  hfg_build_summary_free(&b->sum);
  for (size_t i = 0; i < b->nnames; i++) hfg_free(b->names[i]);
  hfg_free(b->names);
  hfg_free(b->out.region);
  hfg_free(b->out.key_off);
  hfg_free(b->out.order);
  hfg_free(b->out.pl_off);
  hfg_buf_free(&b->keys);
  hfg_buf_free(&b->pls);
  hfg_buf_free(&b->rej);
  hfg_buf_free(&b->scan);
  hfg_free(b);
}

const char *hfg_batch_errmsg(const hfg_batch *b) { return b->j.err.msg; }
int64_t hfg_batch_timestamp(const hfg_batch *b) { return b->j.ts; }
size_t hfg_batch_regions(const hfg_batch *b) { return b->j.splits.n + 1; }
size_t hfg_batch_columns(const hfg_batch *b, const char *const **names) {
  *names = (const char *const *)b->names;
  return b->nnames;
}
const char *hfg_batch_family(const hfg_batch *b, size_t f) {
  return f < b->j.nfamilies ? b->j.families[f] : NULL;
}

/* ---- keying: as build_ingest.c does it ---- */

static void out_reset(hfg_batch *b) {
  hfg_buf_reset(&b->keys);
  hfg_buf_reset(&b->pls);
  hfg_buf_reset(&b->rej);
  memset(&b->out, 0, offsetof(hfg_batch_out, region));
  uint32_t *r = b->out.region;
  int64_t *ko = b->out.key_off, *po = b->out.pl_off;
  uint64_t *ord = b->out.order;
  memset(&b->out, 0, sizeof b->out);
  b->out.region = r, b->out.key_off = ko, b->out.pl_off = po, b->out.order = ord;
}

static int out_room(hfg_batch *b) {
  if (b->out.n + 2 <= b->cap && b->out.key_off) return 0;
  size_t cap = b->cap ? b->cap * 2 : 4096;
  uint32_t *r = hfg_realloc(b->out.region, cap * sizeof *r);
  if (r) b->out.region = r;
  int64_t *ko = hfg_realloc(b->out.key_off, (cap + 1) * sizeof *ko);
  if (ko) b->out.key_off = ko;
  int64_t *po = hfg_realloc(b->out.pl_off, (cap + 1) * sizeof *po);
  if (po) b->out.pl_off = po;
  uint64_t *ord = hfg_realloc(b->out.order, cap * sizeof *ord);
  if (ord) b->out.order = ord;
  if (!r || !ko || !po || !ord) return HFG_ENOMEM;
  b->cap = cap;
  return 0;
}

/* A line of the rejects file, as build_ingest.c writes it. */
static int add_reject(hfg_batch *b, const char *file, uint64_t line, const char *reason,
                      const uint8_t *raw, size_t raw_len) {
  b->out.records_rejected++;
  hfg_buf *r = &b->rej;
  char head[1400];
  int hl = snprintf(head, sizeof head, "%s\t%llu\t", file ? file : "-", (unsigned long long)line);
  if (hl < 0 || (size_t)hl >= sizeof head) return HFG_EINVAL;
  if (hfg_buf_append(r, head, (size_t)hl)) return HFG_ENOMEM;
  for (const char *p = reason; *p; p++) {
    uint8_t c = (uint8_t)(*p == '\t' || *p == '\n' ? ' ' : *p);
    if (hfg_buf_append(r, &c, 1)) return HFG_ENOMEM;
  }
  if (hfg_buf_append(r, "\t", 1) || hfg_escape(r, raw, raw_len) || hfg_buf_append(r, "\n", 1))
    return HFG_ENOMEM;
  return 0;
}

/* One well-formed record: keyed into out, or rejected. */
static int key_record(hfg_batch *b, const hfg_field *fields, size_t nfields, const char *file,
                      size_t file_idx, uint64_t line, uint64_t order, const uint8_t *raw,
                      size_t raw_len, int nulls_possible) {
  job *j = &b->j;
  uint8_t key[HBASE_MAX_ROW + 1];
  char why[512];
  size_t klen = 0;
  int erc = hfg_build_rowkey(j, fields, nfields, nulls_possible, key, &klen, why, sizeof why);
  size_t pl_at = b->pls.len;
  uint64_t nulls = 0;
  if (erc == 0)
    erc = hfg_build_payload(j, fields, line,
                            (uint16_t)(file_idx > UINT16_MAX ? UINT16_MAX : file_idx), &b->pls,
                            &nulls, why, sizeof why);
  if (erc == HFG_ENOMEM) return erc;
  if (erc) {
    b->pls.len = pl_at;
    return add_reject(b, file, line, why, raw, raw_len);
  }
  if (klen > LONG_KEY) b->out.long_keys++;
  b->out.null_values += nulls;
  if (out_room(b) || hfg_buf_append(&b->keys, key, klen)) return HFG_ENOMEM;
  size_t i = b->out.n++;
  b->out.region[i] = (uint32_t)hfg_splits_region(&j->splits, key, klen);
  b->out.order[i] = order;
  b->out.key_off[i + 1] = (int64_t)b->keys.len;
  b->out.pl_off[i + 1] = (int64_t)b->pls.len;
  return 0;
}

static void out_finish(hfg_batch *b) {
  if (!b->out.key_off) out_room(b);
  if (b->out.key_off) b->out.key_off[0] = 0, b->out.pl_off[0] = 0;
  b->out.key_data = b->keys.p;
  b->out.pl_data = b->pls.p;
  b->out.rejects = b->rej.p;
  b->out.rejects_len = b->rej.len;
}

/* Keys every record rr gives of input `file`, numbering them from seq. */
static int read_records(hfg_batch *b, size_t file, hfg_record_reader *rr, uint64_t seq,
                        hfg_batch_out **out) {
  hfg_record rec;
  int rc;
  const int nulls = hfg_build_nulls_possible(&b->j, rr); /* SQL NULLs: dumps, --null-string */
  while ((rc = hfg_record_reader_next(rr, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      berr(b, rc, "%s", hfg_record_reader_errmsg(rr));
      break;
    }
    b->out.records_read++;
    uint64_t order = (uint64_t)file << 40 | seq++;
    if (rc == HFG_EPARSE) {
      rc = add_reject(b, rec.file, rec.line, rec.reason ? rec.reason : "malformed record",
                      (const uint8_t *)rec.raw, rec.raw_len);
    } else {
      rc = key_record(b, rec.fields, rec.nfields, rec.file, file, rec.line, order,
                      (const uint8_t *)rec.raw, rec.raw_len, nulls);
    }
    if (rc) {
      berr(b, rc, "%s", "out of memory");
      break;
    }
  }
  b->out.input_bytes = hfg_record_reader_bytes_read(rr);
  b->out.blank_lines = hfg_record_reader_blank_lines(rr);
  hfg_record_reader_free(rr);
  if (rc < 0) return rc;
  out_finish(b);
  *out = &b->out;
  return 0;
}

/* The reader over input `file` alone; header_off: column names from the job, no header. */
static int open_one(hfg_batch *b, size_t file, int header_off, hfg_record_reader **rr) {
  if (file >= b->o.ninputs) return berr(b, HFG_EINVAL, "%s", "no such input");
  hfg_input_options io;
  hfg_build_input_options(&b->o, &io);
  if (header_off) {
    io.has_header = 0;
    io.column_names = (const char *const *)b->names;
    io.ncolumn_names = b->nnames;
  }
  char msg[1024];
  int rc = hfg_record_reader_open(&b->o.inputs[file], 1, &io, rr, msg, sizeof msg);
  return rc ? berr(b, rc, "%s", msg) : 0;
}

int hfg_batch_read_file(hfg_batch *b, size_t file, hfg_batch_out **out) {
  out_reset(b);
  if (out_room(b)) return berr(b, HFG_ENOMEM, "%s", "out of memory");
  hfg_record_reader *rr = NULL;
  int rc = open_one(b, file, 0, &rr);
  return rc ? rc : read_records(b, file, rr, 0, out);
}

int hfg_batch_read_range(hfg_batch *b, size_t file, uint64_t start, uint64_t end,
                         uint64_t first_line, uint64_t first_seq, hfg_batch_out **out) {
  out_reset(b);
  if (out_room(b)) return berr(b, HFG_ENOMEM, "%s", "out of memory");
  hfg_record_reader *rr = NULL;
  int rc = open_one(b, file, start > 0, &rr);
  if (!rc && (rc = hfg_record_reader_set_range(rr, start, end, first_line)) != 0) {
    berr(b, rc, "%s", hfg_record_reader_errmsg(rr));
    hfg_record_reader_free(rr);
  }
  return rc ? rc : read_records(b, file, rr, first_seq, out);
}

int hfg_batch_scan_file(hfg_batch *b, size_t file, uint64_t split, size_t *n,
                        const uint64_t **starts) {
  *n = 0;
  hfg_buf_reset(&b->scan);
  hfg_record_reader *rr = NULL;
  int rc = open_one(b, file, 0, &rr);
  if (rc) return rc;
  uint64_t first[3] = {0, 1, 0}, next = split ? split : UINT64_MAX, seq = 0;
  if (hfg_buf_append(&b->scan, first, sizeof first)) rc = HFG_ENOMEM;
  hfg_record rec;
  int r;
  while (!rc && (r = hfg_record_reader_next(rr, &rec)) != 0) {
    if (r < 0 && r != HFG_EPARSE) {
      rc = berr(b, r, "%s", hfg_record_reader_errmsg(rr));
      break;
    }
    uint64_t off = hfg_record_reader_record_offset(rr, &rec);
    if (off >= next) { /* the first record at or past the target starts a range */
      uint64_t s3[3] = {off, rec.line, seq};
      if (hfg_buf_append(&b->scan, s3, sizeof s3)) rc = HFG_ENOMEM;
      next = off + split;
    }
    seq++;
  }
  hfg_record_reader_free(rr);
  if (rc == HFG_ENOMEM) return berr(b, rc, "%s", "out of memory");
  if (rc) return rc;
  *n = b->scan.len / (3 * sizeof(uint64_t));
  *starts = (const uint64_t *)(void *)b->scan.p;
  return 0;
}

int hfg_batch_key(hfg_batch *b, size_t n, size_t ncols, const int32_t *const *off,
                  const uint8_t *const *data, const uint64_t *lines, size_t file,
                  uint64_t first_seq, hfg_batch_out **out) {
  return hfg_batch_key_nulls(b, n, ncols, off, data, NULL, lines, file, first_seq, out);
}

int hfg_batch_key_nulls(hfg_batch *b, size_t n, size_t ncols, const int32_t *const *off,
                        const uint8_t *const *data, const uint8_t *const *valid,
                        const uint64_t *lines, size_t file, uint64_t first_seq,
                        hfg_batch_out **out) {
  out_reset(b);
  if (ncols != b->nnames)
    return berr(b, HFG_EINVAL, "%s", "batch: the column count is not the job's");
  hfg_field *fields = hfg_calloc(ncols ? ncols : 1, sizeof *fields);
  hfg_buf raw = HFG_BUF_INIT;
  if (!fields || out_room(b)) {
    hfg_free(fields);
    return berr(b, HFG_ENOMEM, "%s", "out of memory");
  }
  int any_null = 0;
  for (size_t c = 0; valid && c < ncols; c++) any_null |= valid[c] != NULL;
  const char *fname = file < b->o.ninputs ? b->o.inputs[file] : "-";
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    hfg_buf_reset(&raw);
    for (size_t c = 0; c < ncols; c++) {
      fields[c].is_null = any_null && valid[c] && !(valid[c][i >> 3] >> (i & 7) & 1);
      fields[c].p = (const char *)data[c] + off[c][i];
      fields[c].len = fields[c].is_null ? 0 : (size_t)(off[c][i + 1] - off[c][i]);
      /* the raw record for rejects: the fields joined by the delimiter (a NULL as nothing) */
      if ((c && hfg_buf_append(&raw, b->o.delimiter ? &b->o.delimiter : ",", 1)) ||
          hfg_buf_append(&raw, fields[c].p, fields[c].len))
        rc = HFG_ENOMEM;
    }
    b->out.records_read++;
    if (!rc)
      rc = key_record(b, fields, ncols, fname, file, lines ? lines[i] : first_seq + i + 1,
                      (uint64_t)file << 40 | (first_seq + i), raw.p, raw.len, any_null);
  }
  hfg_free(fields);
  hfg_buf_free(&raw);
  if (rc) return berr(b, rc, "%s", "out of memory");
  out_finish(b);
  *out = &b->out;
  return 0;
}

void hfg_batch_set_nulls(hfg_batch *b, uint64_t null_values) { b->sum.null_values = null_values; }

void hfg_batch_set_blank_lines(hfg_batch *b, uint64_t blank_lines) {
  b->sum.blank_lines = blank_lines;
}

/* ---- one region's emit ---- */

static void drop_files(job *j) {
  for (size_t i = 0; i < j->nfiles; i++) {
    hfg_free(j->files[i].tmp_path);
    hfg_free(j->files[i].final_path);
    hfg_free(j->files[i].name);
    hfg_free(j->files[i].first_row);
    hfg_free(j->files[i].last_row);
  }
  j->nfiles = 0;
}

int hfg_batch_emit(hfg_batch *b, size_t region, const char *dir, size_t n,
                   const int64_t *key_off, const uint8_t *key_data, const uint64_t *order,
                   const int64_t *pl_off, const uint8_t *pl_data) {
  job *j = &b->j;
  if (region > j->splits.n) return berr(b, HFG_EINVAL, "%s", "batch emit: no such region");
  if (b->collecting) return berr(b, HFG_EINVAL, "%s", "batch emit after add_file");
  drop_files(j);
  snprintf(j->dir, sizeof j->dir, "%s", dir);
  for (size_t f = 0; f < j->nfamilies; f++) {
    char d[4200];
    snprintf(d, sizeof d, "%s/%s", dir, j->families[f]);
    if (mkdir(d, 0755) && errno != EEXIST) return fail(j, HFG_EIO, "%s: %s", d, strerror(errno));
  }
  hfg_sorter_free(j->sorter);
  j->sorter = hfg_sorter_new(j->splits.n + 1, b->o.memory, dir);
  if (!j->sorter) return fail(j, HFG_ENOMEM, "out of memory");
  hfg_sorter_set_lz4(j->sorter, b->o.spill_lz4);
  hfg_err e = {0};
  for (size_t i = 0; i < n; i++)
    if (hfg_sorter_add(j->sorter, region, key_data + key_off[i],
                       (size_t)(key_off[i + 1] - key_off[i]), order[i], pl_data + pl_off[i],
                       (size_t)(pl_off[i + 1] - pl_off[i]), &e))
      return fail(j, e.code, "%s", e.msg);
  if (hfg_sorter_finish(j->sorter, &e)) return fail(j, e.code, "%s", e.msg);
  memset(b->sum.regions, 0, b->sum.nregions * sizeof *b->sum.regions);
  b->sum.duplicates_dropped = b->sum.records_without_cells = b->sum.marker_rows = 0;
  atomic_store(&j->next_region, 0);
  atomic_store(&j->regions_done, 0);
  b->o.threads = 1;
  b->o.progress = NULL;
  int rc = hfg_build_emit(j);
  if (rc) hfg_build_cleanup_failed(j);
  hfg_sorter_free(j->sorter);
  j->sorter = NULL;
  b->dups = b->sum.duplicates_dropped;
  b->without = b->sum.records_without_cells;
  b->markers = b->sum.marker_rows;
  /* the job's own directory again (work paths, publish), when begin set one */
  if (b->out_work[0]) snprintf(j->dir, sizeof j->dir, "%s", b->out_work);
  return rc;
}

size_t hfg_batch_nfiles(const hfg_batch *b) { return b->j.nfiles; }

int hfg_batch_get_file(const hfg_batch *b, size_t i, hfg_batch_file *f) {
  if (i >= b->j.nfiles) return HFG_EINVAL;
  const outfile *o = &b->j.files[i];
  *f = (hfg_batch_file){o->region,    o->family,   o->seq,      o->name,      o->tmp_path,
                        o->first_row, o->last_row, o->first_len, o->last_len, o->cells,
                        o->bytes};
  return 0;
}

void hfg_batch_region_counts(const hfg_batch *b, size_t region, uint64_t c[6]) {
  memset(c, 0, 6 * sizeof *c);
  if (region < b->sum.nregions) {
    c[0] = b->sum.regions[region].rows;
    c[1] = b->sum.regions[region].cells;
    c[2] = b->sum.regions[region].files;
  }
  c[3] = b->dups, c[4] = b->without, c[5] = b->markers;
}

/* ---- the driver: stage, collect, publish ---- */

int hfg_batch_begin(hfg_batch *b, const char **dir) {
  job *j = &b->j;
  drop_files(j);
  snprintf(j->dir, sizeof j->dir, "%s", b->o.out_dir);
  int rc = hfg_build_prepare_out_dir(j);
  snprintf(b->out_work, sizeof b->out_work, "%s", j->dir);
  *dir = b->out_work;
  return rc;
}

void hfg_batch_work_path(const hfg_batch *b, const char *path, char *buf, size_t cap) {
  hfg_build_work_path(&b->j, path, buf, cap);
}

int hfg_batch_add_file(hfg_batch *b, const hfg_batch_file *f) {
  job *j = &b->j;
  if (!b->collecting) drop_files(j); /* the last emit's own list */
  if (!b->collecting) snprintf(j->dir, sizeof j->dir, "%s", b->out_work);
  b->collecting = 1;
  if (f->family >= j->nfamilies || f->region > j->splits.n)
    return fail(j, HFG_EINVAL, "batch: file %s has no such region or family", f->name);
  if (j->nfiles == j->capfiles) {
    size_t cap = j->capfiles ? j->capfiles * 2 : 64;
    outfile *nf = hfg_realloc(j->files, cap * sizeof *nf);
    if (!nf) return fail(j, HFG_ENOMEM, "out of memory");
    j->files = nf;
    j->capfiles = cap;
  }
  size_t dl = strlen(j->dir) + strlen(j->families[f->family]) + strlen(f->name) + 8;
  outfile o = {.region = f->region, .family = f->family, .seq = f->seq,
               .tmp_path = hfg_strdup(f->path), .final_path = hfg_malloc(dl),
               .name = hfg_strdup(f->name), .first_row = hfg_memdup(f->first_row, f->first_len),
               .last_row = hfg_memdup(f->last_row, f->last_len), .first_len = f->first_len,
               .last_len = f->last_len, .cells = f->cells, .bytes = f->bytes};
  j->files[j->nfiles++] = o;
  if (!o.tmp_path || !o.final_path || !o.name || (f->first_len && !o.first_row) ||
      (f->last_len && !o.last_row))
    return fail(j, HFG_ENOMEM, "out of memory");
  snprintf(o.final_path, dl, "%s/%s/%s", j->dir, j->families[f->family], f->name);
  return 0;
}

void hfg_batch_set_counts(hfg_batch *b, uint64_t read, uint64_t rejected, const uint64_t *rows,
                          const uint64_t *cells, const uint64_t *files, uint64_t dups,
                          uint64_t without_cells, uint64_t marker_rows) {
  hfg_build_summary *s = &b->sum;
  s->records_read = read;
  s->records_rejected = rejected;
  for (size_t r = 0; r < s->nregions; r++)
    s->regions[r] = (hfg_build_region){rows[r], cells[r], 0, (unsigned)files[r]};
  s->duplicates_dropped = dups;
  s->records_without_cells = without_cells;
  s->marker_rows = marker_rows;
}

int hfg_batch_publish(hfg_batch *b) {
  if (!b->collecting) { /* a job without files: still the manifest and _SUCCESS */
    drop_files(&b->j);
    snprintf(b->j.dir, sizeof b->j.dir, "%s", b->out_work);
  }
  return hfg_build_publish(&b->j);
}

void hfg_batch_abort(hfg_batch *b) {
  if (b->out_work[0]) snprintf(b->j.dir, sizeof b->j.dir, "%s", b->out_work);
  hfg_build_cleanup_failed(&b->j);
  hfg_build_release_out_dir(&b->j, 1);
  b->j.staged = 0;
  b->j.lock_fd = -1;
}

int hfg_batch_compare_rows(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
  size_t n = alen < blen ? alen : blen;
  int c = n ? memcmp(a, b, n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return alen < blen ? -1 : alen > blen ? 1 : 0;
}

/* ---- for other jobs in pieces (batch_internal.h) ---- */

int hfg_batch_new_job(const hfg_build_options *o, int64_t ts, hfg_batch **out, char *err,
                      size_t errcap) {
  *out = NULL;
  hfg_batch *b = hfg_calloc(1, sizeof *b);
  if (!b) return HFG_ENOMEM;
  b->o = *o;
  int rc = hfg_build_begin(&b->j, &b->o, &b->sum); /* options, timestamp, splits, regions */
  if (!rc && ts >= 0) b->j.ts = b->sum.timestamp = ts;
  if (rc) {
    snprintf(err, errcap, "%s", b->j.err.msg);
    hfg_batch_free(b);
    return rc;
  }
  *out = b;
  return 0;
}

job *hfg_batch_job(hfg_batch *b) { return &b->j; }

int hfg_batch_out_begin(hfg_batch *b) {
  out_reset(b);
  return out_room(b) ? HFG_ENOMEM : 0;
}

int hfg_batch_out_add(hfg_batch *b, uint32_t region, const uint8_t *key, size_t klen,
                      uint64_t order, const uint8_t *payload, size_t plen) {
  if (out_room(b) || hfg_buf_append(&b->keys, key, klen) ||
      hfg_buf_append(&b->pls, payload, plen))
    return HFG_ENOMEM;
  size_t i = b->out.n++;
  b->out.region[i] = region;
  b->out.order[i] = order;
  b->out.key_off[i + 1] = (int64_t)b->keys.len;
  b->out.pl_off[i + 1] = (int64_t)b->pls.len;
  return 0;
}

hfg_buf *hfg_batch_out_rejects(hfg_batch *b) { return &b->rej; }

hfg_batch_out *hfg_batch_out_end(hfg_batch *b) {
  out_finish(b);
  return &b->out;
}

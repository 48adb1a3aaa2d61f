/*
 * Emit: each region's sorted records merged (sorter.h), duplicates resolved
 * by --on-duplicate, one HFile writer per family, rolled at --max-file-size
 * (never more than HBase's 32 files per region per family); regions on
 * parallel threads. Files are written under '_' names; publish renames them.
 * See build_internal.h for the stages and their order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "format/block_pool.h"
#include "format/kv.h"
#include "build/build_internal.h"
#include "build/cell_payload.h"
#include "build/changes.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/coding.h"
#include "util/escape.h"
#include "util/murmur.h"

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
  if (!rc && j->pool) rc = hfg_writer_use_pool(fw->w, j->pool, j->pool_slots);
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
  if (fw->w && hfg_writer_reached(fw->w, j->o->max_file_size) && close_writer(j, fw)) return -1;
  if (!fw->w && open_writer(j, region, f, fw, key, klen)) return -1;
  if (hfg_writer_append_puts(fw->w, key, klen, ts, puts, n))
    return fail(j, hfg_writer_status(fw->w), "%s", hfg_writer_errmsg(fw->w));
  rs->cells += n;
  return 0;
}

/* A row of typed cells (cell_payload.h): each family's cells, in HBase's
 * order, go to its writer one by one; the roll check runs once per family,
 * at the row's first cell of it, so files still break only between rows. */
static int emit_cells_row(job *j, size_t region, fwriter *fws, const uint8_t *rec, size_t len,
                          hfg_build_region *rs) {
  size_t klen = hfg_rec_klen(rec);
  const uint8_t *key = hfg_rec_key(rec);
  size_t plen;
  const uint8_t *p = hfg_rec_payload(rec, len, &plen);
  hfg_cell_cursor cc;
  hfg_cell_cursor_init(&cc, p, plen);
  hfg_cell c;
  memset(&c, 0, sizeof c);
  c.row = key;
  c.row_len = klen;
  uint16_t fam;
  long last = -1;
  uint64_t ncells = 0, by_type[4] = {0}; /* Put, DeleteColumn, DeleteFamily, other */
  int rc;
  while ((rc = hfg_cell_cursor_next(&cc, &fam, &c)) > 0) {
    if (fam >= j->nfamilies || (long)fam < last)
      return fail(j, HFG_ECORRUPT, "region %zu: a sorted record's cells name family %u after %ld "
                  "(of %zu): the spill run is damaged", region, fam, last, j->nfamilies);
    fwriter *fw = &fws[fam];
    if ((long)fam != last) {
      if (fw->w && hfg_writer_reached(fw->w, j->o->max_file_size) && close_writer(j, fw))
        return -1;
      if (!fw->w && open_writer(j, region, fam, fw, key, klen)) return -1;
      last = fam;
      c.family = (const uint8_t *)j->families[fam];
      c.family_len = j->family_len[fam];
    }
    if (hfg_writer_append(fw->w, &c))
      return fail(j, hfg_writer_status(fw->w), "%s", hfg_writer_errmsg(fw->w));
    ncells++;
    by_type[c.type == HFG_TYPE_PUT ? 0 : c.type == HFG_TYPE_DELETE_COLUMN ? 1
            : c.type == HFG_TYPE_DELETE_FAMILY ? 2 : 3]++;
  }
  if (rc < 0)
    return fail(j, rc, "region %zu: a sorted record's cells run past its end: the spill run "
                "is damaged", region);
  if (ncells == 0) {
    __atomic_fetch_add(&j->sum->records_without_cells, 1, __ATOMIC_RELAXED);
    return 0;
  }
  rs->cells += ncells;
  rs->rows++;
  hfg_build_summary *s = j->sum;
  __atomic_fetch_add(&s->put_cells, by_type[0], __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->column_deletes, by_type[1], __ATOMIC_RELAXED);
  __atomic_fetch_add(&s->family_deletes, by_type[2], __ATOMIC_RELAXED);
  /* a row with Puts is live: its DeleteFamily masks an old row's history (changes.h) */
  if (by_type[2] && !by_type[0] && !by_type[1])
    __atomic_fetch_add(&s->row_deletes, 1, __ATOMIC_RELAXED);
  return 0;
}

/* A hard delete (changes.h) of a key that a record before it already holds: the
 * row exists in the source (or is deleted already), so the tombstone is dropped. */
static int tombstone_superseded(job *j, const uint8_t *rec, size_t len) {
  if (!j->changes) return 0;
  size_t pl;
  const uint8_t *p = hfg_rec_payload(rec, len, &pl);
  if (!hfg_changes_is_tombstone(p, pl)) return 0;
  __atomic_fetch_add(&j->sum->deletes_superseded, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&j->sum->duplicates_dropped, 1, __ATOMIC_RELAXED);
  return 1;
}

/* puts: room for j->ncols. The columns are sorted by family, then qualifier
 * (columns.c), so each family's cells are one run of them. */
static int emit_row(job *j, size_t region, fwriter *fws, const uint8_t *rec, size_t len,
                    hfg_build_region *rs, hfg_put *puts) {
  if (j->cell_payload) return emit_cells_row(j, region, fws, rec, len, rs);
  size_t klen = hfg_rec_klen(rec);
  const uint8_t *key = hfg_rec_key(rec);
  size_t plen;
  const uint8_t *q = hfg_rec_payload(rec, len, &plen);
  int64_t ts = (int64_t)hfg_get_be64(q);
  q += 18;
  size_t n = 0, fam = 0, ncells = 0;
  /* in locals: the stores into puts could otherwise alias them */
  const hfg_cellcol *cols = j->cols;
  const size_t ncols = j->ncols;
  for (size_t i = 0; i < ncols; i++) {
    size_t vl = *q++;
    if (__builtin_expect(vl >= LEN_ABSENT, 0)) {
      if (vl == LEN_ABSENT) continue;
      vl = hfg_get_be32(q);
      q += 4;
    }
    size_t f = cols[i].family;
    if (n && f != fam) {
      if (emit_family_row(j, region, fam, &fws[fam], key, klen, ts, puts, n, rs)) return -1;
      n = 0;
    }
    fam = f;
    puts[n++] = (hfg_put){(const uint8_t *)cols[i].qualifier, cols[i].qualifier_len, q, vl};
    ncells++;
    q += vl;
  }
  if (n && emit_family_row(j, region, fam, &fws[fam], key, klen, ts, puts, n, rs)) return -1;
  if (ncells == 0 && !hfg_colmap_empty_row(j->o, NULL, NULL)) {
    /* no cell, no row: HBase would never see it, so it is not counted as written */
    __atomic_fetch_add(&j->sum->records_without_cells, 1, __ATOMIC_RELAXED);
    return 0;
  }
  if (ncells == 0) {
    puts[0] = (hfg_put){(const uint8_t *)j->marker_qualifier, j->marker_qualifier_len,
                        (const uint8_t *)"", 0};
    if (emit_family_row(j, region, j->marker_family, &fws[j->marker_family], key, klen, ts, puts,
                        1, rs))
      return -1;
    __atomic_fetch_add(&j->sum->marker_rows, 1, __ATOMIC_RELAXED);
  }
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
  /* hard deletes: a live row and its key's tombstone come merged (changes.h) */
  hfg_changes_iter *ci = j->changes && j->o->deletes ? hfg_changes_iter_open(j, it) : NULL;
  if (j->changes && j->o->deletes && !ci) fail(j, HFG_ENOMEM, "out of memory");
  while (!atomic_load(&j->failed) &&
         (rc = ci ? hfg_changes_iter_next(ci, &rec, &len, &e) : hfg_sort_iter_next(it, &rec, &len, &e)) > 0) {
    if (canceled(j)) {
      fail(j, HFG_ECANCELED, "canceled while writing region %zu", region);
      break;
    }
    size_t klen = hfg_rec_klen(rec);
    const uint8_t *key = hfg_rec_key(rec);
    if (policy == HFG_DUP_LAST) {
      if (pend && (hfg_rec_klen(pend) != klen || memcmp(hfg_rec_key(pend), key, klen))) {
        if (emit_row(j, region, fws, pend, pend_len, rs, puts)) break;
      } else if (pend) {
        if (tombstone_superseded(j, rec, len)) continue; /* the record before it stays */
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
      if (tombstone_superseded(j, rec, len)) continue;
      if (policy == HFG_DUP_FIRST) {
        __atomic_fetch_add(&j->sum->duplicates_dropped, 1, __ATOMIC_RELAXED);
        continue;
      }
      size_t pl2;
      const uint8_t *p2 = hfg_rec_payload(rec, len, &pl2);
      const char *f1, *f2;
      const unsigned i1 = (unsigned)prev_key_file(&prev_key, klen), i2 = hfg_get_be16(p2 + 16);
      record_names(j, (uint16_t)i1, &f1);
      record_names(j, (uint16_t)i2, &f2);
      char n1[4200], n2[4200]; /* one file given twice: its inputs told apart */
      if (i1 != i2 && !strcmp(f1, f2) && !j->cell_payload) {
        snprintf(n1, sizeof n1, "%s (input %u)", f1, i1 + 1);
        snprintf(n2, sizeof n2, "%s (input %u)", f2, i2 + 1);
        f1 = n1;
        f2 = n2;
      }
      hfg_buf kb = HFG_BUF_INIT;
      hfg_escape(&kb, key, klen > 200 ? 200 : klen);
      if (j->cell_payload && !j->changes) /* rekey: two old rows, one new key */
        fail(j, HFG_EDUP,
             "duplicate new rowkey '%.*s': old row %llu of region %s and old row %llu of "
             "region %s map to it (the new rowkey must keep every old key apart: use every "
             "field of the old key whole)",
             (int)kb.len, kb.p ? (char *)kb.p : "",
             (unsigned long long)prev_key_line(&prev_key, klen), f1,
             (unsigned long long)hfg_get_be64(p2 + 8), f2);
      else
        fail(j, HFG_EDUP,
             "duplicate rowkey '%.*s': %s %s %llu and %s %s %llu (use --on-duplicate "
             "last|first to keep one)",
             (int)kb.len, kb.p ? (char *)kb.p : "", f1, hfg_record_unit(f1),
             (unsigned long long)prev_key_line(&prev_key, klen), f2, hfg_record_unit(f2),
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
      /* abandon removes the partial file: count what goes */
      __atomic_fetch_add(&j->sum->removed_bytes, hfg_writer_bytes(fws[f].w), __ATOMIC_RELAXED);
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
  hfg_changes_iter_close(ci);
  hfg_sort_iter_close(it);
  atomic_fetch_add(&j->regions_done, 1);
  return j->err.code;
}

static void *emit_worker(void *arg) {
  job *j = arg;
  if (j->pool) hfg_block_pool_producers(j->pool, +1);
  for (;;) {
    size_t r = atomic_fetch_add(&j->next_region, 1);
    if (r > j->splits.n || atomic_load(&j->failed)) break;
    emit_region(j, r);
  }
  if (j->pool) hfg_block_pool_producers(j->pool, -1);
  return NULL;
}

int hfg_build_emit(job *j) {
  int nthreads = j->o->threads > 0 ? j->o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (nthreads < 1) nthreads = 1;
  if ((size_t)nthreads > j->splits.n + 1) nthreads = (int)(j->splits.n + 1);
  pthread_t *th = hfg_calloc((size_t)nthreads, sizeof *th);
  if (!th) return fail(j, HFG_ENOMEM, "out of memory");
  hfg_sorter_set_readers(j->sorter, (unsigned)nthreads);
  /* Block compression and checksums on a pool of --threads workers shared by
   * every writer, so that even one region uses every core; each writer keeps
   * about 2 × threads blocks in flight, split among the writers at work. */
  int workers = j->o->threads > 0 ? j->o->threads : (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (workers > 1 && !(j->pool = hfg_block_pool_new((unsigned)workers))) {
    hfg_free(th);
    return fail(j, HFG_ENOMEM, "cannot start the block compression threads");
  }
  size_t streams = (size_t)nthreads * j->nfamilies;
  j->pool_slots = (unsigned)((2 * (size_t)workers + 2 + streams - 1) / streams);
  if (j->pool_slots < 2) j->pool_slots = 2;
  int started = 0;
  for (; started < nthreads; started++)
    if (pthread_create(&th[started], NULL, emit_worker, j)) break;
  if (started == 0) emit_worker(j);
  /* Joins the workers in turn; with a progress callback, each join waits at
   * most until the next 200 ms report is due, so the job ends as soon as its
   * last region does (a fixed sleep kept it waiting up to 200 ms more). */
  const hfg_build_options *o = j->o;
  struct timespec due;
  clock_gettime(CLOCK_REALTIME, &due);
  for (int i = 0; i < started;) {
    if (!o->progress) {
      pthread_join(th[i++], NULL);
      continue;
    }
    due.tv_nsec += 200 * 1000 * 1000;
    if (due.tv_nsec >= 1000000000L) due.tv_sec++, due.tv_nsec -= 1000000000L;
    int jr = 0;
    while (i < started && (jr = pthread_timedjoin_np(th[i], NULL, &due)) == 0) i++;
    if (i == started) break;
    if (jr != ETIMEDOUT) { /* no timed join to be had: wait for this one plainly */
      pthread_join(th[i++], NULL);
      continue;
    }
    hfg_build_progress p = {"emit", j->sum->records_read, j->sum->input_bytes,
                            atomic_load(&j->regions_done), j->splits.n + 1,
                            atomic_load(&j->out_bytes)};
    o->progress(o->progress_ctx, &p);
  }
  hfg_free(th);
  hfg_block_pool_free(j->pool);
  j->pool = NULL;
  return j->err.code;
}

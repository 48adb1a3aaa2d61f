/*
 * hfg_build_run: ingest (read → key → partition → sort/spill), then emit
 * (merge each region and write its HFiles, regions in parallel), then publish
 * (rename temporaries, manifest, _SUCCESS last). See include/hfilegen/build.h.
 * This file only orchestrates; each stage lives in its own build_*.c
 * (build_internal.h lists them and the order they run in).
 */
#define _GNU_SOURCE
#include "hfilegen/build.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "build/build_internal.h"
#include "build/changes.h"
#include "input/record_dialect.h"
#include "input/source_db.h"
#include "util/alloc.h"

int hfg_build_begin(job *j, const hfg_build_options *o, hfg_build_summary *sum) {
  memset(sum, 0, sizeof *sum);
  memset(j, 0, sizeof *j);
  j->o = o;
  j->sum = sum;
  j->lock_fd = -1;
  pthread_mutex_init(&j->lock, NULL);
  snprintf(j->dir, sizeof j->dir, "%s", o->out_dir);
  j->ts = o->timestamp >= 0 ? o->timestamp : (int64_t)(time(NULL)) * 1000;
  {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    if (o->timestamp < 0) j->ts = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
  }
  if (o->job_timestamp >= 0) j->ts = o->job_timestamp; /* names files; cells: a column */
  sum->timestamp = j->ts;
  if (o->splits_file) {
    hfg_err e = {0};
    if (hfg_splits_load(o->splits_file, &j->splits, &e)) return fail(j, e.code, "%s", e.msg);
  } else if (o->nsplit_keys) {
    for (size_t k = 0; k < o->nsplit_keys; k++) {
      int e = hfg_splits_add(&j->splits, o->split_keys[k], o->split_key_lens[k]);
      if (e)
        return fail(j, e, e == HFG_ENOMEM ? "out of memory"
                                          : "split key %zu is empty or not above the one before",
                    k);
    }
  }
  sum->nregions = j->splits.n + 1;
  sum->regions = hfg_calloc(sum->nregions, sizeof *sum->regions);
  if (!sum->regions) return fail(j, HFG_ENOMEM, "out of memory");
  return 0;
}

int hfg_build_open_output(job *j) {
  const hfg_build_options *o = j->o;
  hfg_build_summary *sum = j->sum;
  int rc;
  if ((rc = hfg_build_check_rejects_path(j)) != 0) return rc;
  if ((rc = hfg_build_prepare_out_dir(j)) != 0) return rc;
  snprintf(sum->rejects_path, sizeof sum->rejects_path, "%s",
           o->rejects_path ? o->rejects_path : "");
  if (!o->rejects_path) snprintf(sum->rejects_path, sizeof sum->rejects_path, "%s/_rejects.tsv",
                                 o->out_dir);
  char rejects_work[4200], tmp_work[4200];
  hfg_build_work_path(j, sum->rejects_path, rejects_work, sizeof rejects_work);
  hfg_build_work_path(j, o->tmp_dir ? o->tmp_dir : j->dir, tmp_work, sizeof tmp_work);
  j->rejects = fopen(rejects_work, "w");
  if (!j->rejects) return fail(j, HFG_EIO, "%s: %s", sum->rejects_path, strerror(errno));
  if ((rc = hfg_build_check_tmp_dir(j, tmp_work)) != 0) return rc;
  hfg_build_note_spill_dir(j, tmp_work);
  j->sorter = hfg_sorter_new(j->splits.n + 1, o->memory, tmp_work);
  if (j->sorter) hfg_sorter_set_lz4(j->sorter, o->spill_lz4);
  if (j->sorter) hfg_sorter_set_cancel(j->sorter, o->cancel);
  if (!j->sorter) return fail(j, HFG_ENOMEM, "out of memory");
  return 0;
}

int hfg_build_all_rejected(job *j) {
  const hfg_build_summary *sum = j->sum;
  if (sum->records_read == 0 || sum->records_rejected != sum->records_read) return 0;
  if (sum->records_read == 1)
    return fail(j, HFG_EREJECT, "the one record read was rejected (see %s): nothing to publish",
                sum->rejects_path);
  return fail(j, HFG_EREJECT, "all %llu records were rejected (see %s): nothing to publish",
              (unsigned long long)sum->records_read, sum->rejects_path);
}

int hfg_build_sort_emit_publish(job *j, double t0) {
  hfg_build_summary *sum = j->sum;
  int rc;
  {
    hfg_err e = {0};
    if (hfg_sorter_finish(j->sorter, &e)) return fail(j, e.code, "%s", e.msg);
  }
  sum->spill_runs = hfg_sorter_runs(j->sorter);
  sum->spilled_bytes = hfg_sorter_spilled_bytes(j->sorter);
  double t1 = now_s();
  sum->ingest_seconds = t1 - t0;
  if ((rc = hfg_build_emit(j)) != 0) return rc;
  double t2 = now_s();
  sum->emit_seconds = t2 - t1;
  hfg_sorter_free(j->sorter);
  j->sorter = NULL;
  if (fflush(j->rejects)) return fail(j, HFG_EIO, "%s: write failed", sum->rejects_path);
  if (sum->records_rejected == 0) {
    /* no rejects: no rejects file in the output, even for a moment */
    char rw[4200];
    hfg_build_work_path(j, sum->rejects_path, rw, sizeof rw);
    fclose(j->rejects);
    j->rejects = NULL;
    unlink(rw);
  }
  if (canceled(j)) /* the last point to stop: publishing runs to its end */
    return fail(j, HFG_ECANCELED, "canceled before publishing");
  if ((rc = hfg_build_publish(j)) != 0) return rc;
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
  return 0;
}

int hfg_build_end(job *j, int rc) {
  hfg_build_summary *sum = j->sum;
  if (j->err.code) {
    rc = j->err.code;
    memcpy(sum->error, j->err.msg, sizeof sum->error);
    sum->error[sizeof sum->error - 1] = 0;
    hfg_build_cleanup_failed(j);
  }
  if (j->rejects) {
    fclose(j->rejects);
    /* a failed job keeps its rejects file only when it holds rejects */
    if (sum->records_rejected == 0) {
      char rw[4200];
      hfg_build_work_path(j, sum->rejects_path, rw, sizeof rw);
      unlink(rw);
    }
  }
  if (j->err.code) sum->removed_bytes += hfg_sorter_disk_bytes(j->sorter);
  hfg_sorter_free(j->sorter);
  hfg_build_release_out_dir(j, rc != 0); /* after the spill files are gone */
  hfg_build_job_free(j);
  return rc;
}

int hfg_build_run(const hfg_build_options *o, hfg_build_summary *sum) {
  job jb;
  job *j = &jb;
  hfg_record_reader *rr = NULL;
  int rc = 0;
  if (o->version != HFG_BUILD_OPTIONS_VERSION || !o->out_dir || !o->rowkey || o->ninputs == 0) {
    memset(sum, 0, sizeof *sum);
    snprintf(sum->error, sizeof sum->error, "build needs inputs, a rowkey and an output directory");
    return HFG_EINVAL;
  }
  if ((rc = hfg_build_begin(j, o, sum)) != 0) goto done;
  hfg_input_options io;
  hfg_build_input_options(o, &io); /* CSV/TSV (by name) or a dump dialect, as plan reads it */
  io.check_column = o->check_column;  /* database inputs: incremental append */
  io.last_value = o->last_value;
  /* lastmodified: a check column that no longer reaches the last value fails the job
   * (with --deletes, the rows that held it may have been deleted) */
  io.check_backwards = o->incremental_mode == HFG_INCR_LASTMODIFIED && !o->deletes;
  {
    char msg[1024];
    int orc = hfg_record_reader_open(o->inputs, o->ninputs, &io, &rr, msg, sizeof msg);
    if (orc) {
      rc = fail(j, orc, "%s", msg);
      goto done;
    }
  }
  if ((rc = hfg_build_setup_job(j, rr)) != 0) goto done;
  if ((rc = hfg_build_open_output(j)) != 0) goto done;
  double t0 = now_s();
  if ((rc = hfg_build_ingest(j, rr)) != 0) goto done;
  if ((rc = hfg_changes_ingest_deletes(j)) != 0) goto done; /* hard deletes, after the rows */
  if ((rc = hfg_build_all_rejected(j)) != 0) goto done;
  if (o->check_column) { /* before publish: the manifest records it */
    const char *m = hfg_record_reader_check_max(rr);
    if (!m) m = o->last_value ? o->last_value : "";
    snprintf(sum->check_max, sizeof sum->check_max, "%s", m);
    hfg_record_reader_check_nulls(rr, &sum->check_nulls_read, &sum->check_nulls_skipped);
  }
  rc = hfg_build_sort_emit_publish(j, t0);
done:
  hfg_record_reader_free(rr);
  return hfg_build_end(j, rc);
}

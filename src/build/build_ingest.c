/*
 * Ingest: read → rowkey → payload → partition → the sorter (which spills
 * sorted runs beyond its budget); records that cannot be keyed or encoded go
 * to the rejects file. Runs on the calling thread, parsing on its own
 * (record_pump.h). See build_internal.h for the stages and their order.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "build/build_internal.h"
#include "build/changes.h"
#include "input/record_dialect.h"
#include "input/record_pump.h"
#include "build/values.h"
#include "util/buf.h"
#include "util/coding.h"
#include "util/escape.h"

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

int hfg_build_reject(job *j, const hfg_record *r, const char *reason) {
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
                "%s %s %llu: %s (record rejected; %llu rejected > --max-rejects %llu; see %s)",
                r->file ? r->file : "-", r->file ? hfg_record_unit(r->file) : "line",
                (unsigned long long)r->line, reason,
                (unsigned long long)j->sum->records_rejected,
                (unsigned long long)j->o->max_rejects, j->sum->rejects_path);
  return 0;
}

/* Payload of a sorted row (build_internal.h): ts:be64 line:be64 file:be16,
 * then per cell column its length (LEN_ABSENT = no cell: an empty value
 * skipped, or a NULL, counted in *nulls) and the encoded value. */
int hfg_build_payload(job *j, const hfg_field *fields, uint64_t line, uint16_t file_idx,
                      hfg_buf *pl, uint64_t *nulls, char *why, size_t whylen) {
  if (j->changes) return hfg_changes_payload(j, fields, line, file_idx, pl, nulls, why, whylen);
  int64_t ts = j->ts;
  *nulls = 0;
  if (j->ts_column >= 0 && fields[j->ts_column].is_null) {
    snprintf(why, whylen, "timestamp column '%s' is NULL", j->o->timestamp_column);
    return HFG_EPARSE;
  }
  if (j->ts_column >= 0 &&
      hfg_stamp_parse(&j->stamp, &fields[j->ts_column], &ts, why, whylen))
    return HFG_EPARSE;
  /* room for the header and every length; each value checks its own room
   * (the buffer holds many records: it seldom grows). The writes go through a
   * local cursor (w); pl->len is set when a value takes the general path and
   * at the end. */
  const hfg_cellcol *cols = j->cols;
  const size_t ncols = j->ncols;
  const size_t head = 18 + LEN_MAX_HEAD * ncols;
  if (pl->cap - pl->len < head && hfg_buf_reserve(pl, head)) return HFG_ENOMEM;
  uint8_t *w = pl->p + pl->len, *end = pl->p + pl->cap; /* end: reloaded when pl grows */
  hfg_put_be64(w, (uint64_t)ts);
  hfg_put_be64(w + 8, line);
  hfg_put_be16(w + 16, file_idx);
  w += 18;
  uint64_t nnull = 0;
  for (size_t i = 0; i < ncols; i++) {
    const hfg_field *f = &fields[cols[i].column];
    const size_t len = f->len;
    const size_t room = (size_t)(end - w);
    if (__builtin_expect(len && cols[i].enc == HFG_VALUE_TEXT, 1)) { /* the bytes as they are */
      if (__builtin_expect(room < LEN_MAX_HEAD + len, 0)) {
        pl->len = (size_t)(w - pl->p);
        if (hfg_buf_reserve(pl, LEN_MAX_HEAD + len)) return *nulls = nnull, HFG_ENOMEM;
        w = pl->p + pl->len;
        end = pl->p + pl->cap;
      }
      if (__builtin_expect(len < LEN_ABSENT, 1)) {
        *w++ = (uint8_t)len;
      } else {
        *w = LEN_WIDE;
        hfg_put_be32(w + 1, (uint32_t)len);
        w += 5;
      }
      hfg_copy(w, (const uint8_t *)f->p, len);
      w += len;
      continue;
    }
    const int cell = hfg_colmap_field_is_cell(f, j->o->empty); /* the rule plan shares */
    if (!cell || cols[i].enc == HFG_VALUE_TEXT) { /* no cell, or an empty text one */
      if (!cell) nnull += (uint64_t)f->is_null;
      if (room < 1) {
        pl->len = (size_t)(w - pl->p);
        if (hfg_buf_reserve(pl, 1)) return *nulls = nnull, HFG_ENOMEM;
        w = pl->p + pl->len;
        end = pl->p + pl->cap;
      }
      *w++ = cell ? 0 : LEN_ABSENT;
      continue;
    }
    /* an encoded value's length is known once it is there: the wide form */
    pl->len = (size_t)(w - pl->p);
    *nulls = nnull;
    size_t at = pl->len;
    if (hfg_buf_put_u8(pl, LEN_WIDE) || hfg_buf_put_be32(pl, 0)) return HFG_ENOMEM;
    char err[256];
    int rc = hfg_value_encode(cols[i].enc, f->p, len, pl, err, sizeof err);
    if (rc == HFG_ENOMEM) return rc;
    if (rc) {
      char col[240];
      hfg_colmap_column_text(&j->map, &cols[i], col, sizeof col);
      snprintf(why, whylen, "%s: %.200s", col, err);
      return HFG_EPARSE;
    }
    hfg_put_be32(pl->p + at + 1, (uint32_t)(pl->len - at - 5));
    w = pl->p + pl->len;
    end = pl->p + pl->cap;
  }
  pl->len = (size_t)(w - pl->p);
  *nulls = nnull;
  return 0;
}

/* Why a record has no key of 1..HBASE_MAX_ROW bytes, as the reject says it:
 * erc from the evaluation (0 with a key of klen bytes). */
__attribute__((noinline)) static int rowkey_refused(int erc, size_t klen, char *why,
                                                    size_t whylen) {
  if (erc == HFG_ETOOBIG && strstr(why, "intermediate value")) {
    /* a part over the scheme's scratch size (HFG_SCHEME_SCRATCH), not a long key: keep
     * eval's reason, which names the template position */
    erc = HFG_EPARSE;
  } else if (erc == HFG_ETOOBIG || (erc == 0 && klen > HBASE_MAX_ROW)) {
    snprintf(why, whylen, "rowkey longer than HBase's limit of %d bytes", HBASE_MAX_ROW);
    erc = HFG_EPARSE;
  } else if (erc == 0 && klen == 0) {
    snprintf(why, whylen, "empty rowkey");
    erc = HFG_EPARSE;
  }
  return erc;
}

/* hfg_build_rowkey of a record that may hold NULLs: refused when a key
 * column is NULL. */
__attribute__((noinline)) static int rowkey_nulls(job *j, const hfg_field *fields, size_t nfields,
                                                  uint8_t *key, size_t *klenp, char *why,
                                                  size_t whylen) {
  if (hfg_dialect_null_key(j->scheme, fields, nfields, why, whylen)) {
    *klenp = 0;
    return HFG_EPARSE;
  }
  int erc = hfg_scheme_eval(j->scheme, fields, nfields, key, HBASE_MAX_ROW, klenp, why, whylen);
  if (erc) *klenp = 0;
  return rowkey_refused(erc, *klenp, why, whylen);
}

int hfg_build_rowkey(job *j, const hfg_field *fields, size_t nfields, int nulls_possible,
                     uint8_t *key, size_t *klenp, char *why, size_t whylen) {
  if (nulls_possible) return rowkey_nulls(j, fields, nfields, key, klenp, why, whylen);
  /* eval sets *klenp only when it gives a key */
  int erc = hfg_scheme_eval(j->scheme, fields, nfields, key, HBASE_MAX_ROW, klenp, why, whylen);
  if (erc == 0 && *klenp - 1 < HBASE_MAX_ROW) return 0; /* 1..HBASE_MAX_ROW bytes */
  if (erc) *klenp = 0;
  return rowkey_refused(erc, *klenp, why, whylen);
}

int hfg_build_key_record(job *j, const hfg_record *rec, int nulls_possible, uint16_t file_idx,
                         uint8_t *key, size_t *klenp, hfg_buf *payload, uint64_t *nulls,
                         char *why, size_t whylen) {
  *nulls = 0;
  int erc = hfg_build_rowkey(j, rec->fields, rec->nfields, nulls_possible, key, klenp, why, whylen);
  if (erc) return erc;
  return hfg_build_payload(j, rec->fields, rec->line, file_idx, payload, nulls, why, whylen);
}

int hfg_build_nulls_possible(const job *j, hfg_record_reader *rr) {
  /* only the dump formats and a --null-string make NULL fields */
  return j->o->format >= HFG_BUILD_MYSQL || j->o->null_string != NULL ||
         hfg_record_reader_has_db(rr); /* database inputs have NULLs */
}

int hfg_build_ingest(job *j, hfg_record_reader *rr) {
  const hfg_build_options *o = j->o;
  int prc = hfg_build_ingest_par(j, rr); /* >= 2 threads and parts to share: in parallel */
  if (prc != HFG_BUILD_SEQUENTIAL) return prc;
  uint8_t key[HBASE_MAX_ROW + 1];
  hfg_buf payload = HFG_BUF_INIT;
  hfg_record rec;
  int rc;
  uint64_t seq = 0;
  hfg_err e = {0}; /* set only by a failure, which ends the loop: zeroed once, not per record */
  double last_progress = now_s();
  const int nulls_possible = hfg_build_nulls_possible(j, rr);
  /* Parsing runs on its own thread (record_pump.h) when one can be had. */
  hfg_record_pump *pump = hfg_record_pump_start(rr);
  while (!atomic_load(&j->failed) &&
         (rc = pump ? hfg_record_pump_next(pump, &rec) : hfg_record_reader_next(rr, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      const char *m = hfg_record_reader_errmsg(rr);
      fail(j, rc, "%s", *m ? m : hfg_strerror(rc));
      break;
    }
    if (canceled(j)) {
      fail(j, HFG_ECANCELED, "canceled during ingest, after %llu record%s",
           (unsigned long long)j->sum->records_read, j->sum->records_read == 1 ? "" : "s");
      break;
    }
    j->sum->records_read++;
    if (rc == HFG_EPARSE) {
      if (hfg_build_reject(j, &rec, rec.reason ? rec.reason : "malformed record")) break;
      continue;
    }
    char why[512];
    size_t klen;
    uint64_t nulls = 0;
    hfg_buf_reset(&payload);
    hfg_buf_trim(&payload, (size_t)1 << 20); /* after a long record */
    int erc = hfg_build_key_record(j, &rec, nulls_possible, file_index(j, rec.file), key, &klen,
                                   &payload, &nulls, why, sizeof why);
    if (erc == HFG_ENOMEM) {
      fail(j, HFG_ENOMEM, "out of memory");
      break;
    }
    if (erc) {
      if (hfg_build_reject(j, &rec, why)) break;
      continue;
    }
    if (nulls) j->sum->null_values += nulls;
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
  j->sum->blank_lines = hfg_record_reader_blank_lines(rr);
  hfg_buf_free(&payload);
  return j->err.code;
}

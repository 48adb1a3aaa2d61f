/*
 * lint over an old table (hfg_rekey_lint, include/hfilegen/rekey.h): the old
 * rows as rekey reads them (build/rekey_rows.h), each one's old-key fields a
 * sample record of the new rowkey.
 *
 * Order: lint's monotonic-prefix check asks whether each new row sorts after
 * the ones before it, which only means something in the order rows were
 * written. A snapshot hands its rows out in old-key order, where a key led by
 * any old key field (a random UUID too) looks monotonic. The samples are
 * therefore added in the order of each row's first write: its earliest Put
 * timestamp (the earliest cell when it holds none), ties in key order. A table
 * bulk-loaded at one timestamp keeps its key order: there is no other to see.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "build/rekey_rows.h"
#include "hfilegen/rekey.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/escape.h"

typedef struct lrow {
  int64_t ts;    /* the row's first write */
  uint64_t seq;  /* its place in key order: the tie-break */
  size_t field;  /* its first field in fields[] */
} lrow;

static int lrow_cmp(const void *a, const void *b) {
  const lrow *x = a, *y = b;
  if (x->ts != y->ts) return x->ts < y->ts ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

static int64_t first_write(const hfg_rekey_row *r, size_t nf) {
  int64_t put = INT64_MAX, any = INT64_MAX;
  for (size_t f = 0; f < nf; f++)
    for (size_t c = 0; c < r->ncells[f]; c++) {
      const hfg_cell *x = &r->cells[f][c];
      if (x->timestamp < any) any = x->timestamp;
      if (x->type == HFG_TYPE_PUT && x->timestamp < put) put = x->timestamp;
    }
  return put != INT64_MAX ? put : any;
}

static void report_reject(hfg_rekey_rows *rr, const hfg_rekey_row *r,
                          hfg_rekey_lint_reject_fn on_reject, void *ctx) {
  const hfg_snap_region *reg = hfg_snapshot_region(hfg_rekey_rows_snapshot(rr), r->region);
  hfg_buf k = HFG_BUF_INIT;
  char msg[1024];
  hfg_escape(&k, r->old_key, r->old_len > 100 ? 100 : r->old_len);
  snprintf(msg, sizeof msg, "region %s row %llu '%.*s': %.400s",
           reg->encoded[0] ? reg->encoded : "-", (unsigned long long)r->ordinal, (int)k.len,
           k.p ? (const char *)k.p : "", r->why);
  hfg_buf_free(&k);
  on_reject(ctx, msg);
}

int hfg_rekey_lint(const hfg_rekey_options *o, uint64_t regions, uint64_t max_rows,
                   hfg_rekey_lint_reject_fn on_reject, void *ctx, hfg_lint **lint,
                   hfg_scheme **scheme, uint64_t *rows, uint64_t *rejected, char *errmsg,
                   size_t errlen) {
  *lint = NULL;
  *scheme = NULL;
  *rows = *rejected = 0;
  hfg_err err = {0};
  hfg_rekey_rows *rr = NULL;
  hfg_buf bytes = HFG_BUF_INIT, fields = HFG_BUF_INIT, order = HFG_BUF_INIT;
  char msg[1024];
  int64_t now;
  {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    now = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
  }
  int rc = hfg_rekey_rows_open(o, o->as_of >= 0 ? o->as_of : now, &rr, &err);
  /* the caller's own copy: the lint borrows it past the rows */
  if (!rc && (rc = hfg_keyparse_rowkey(hfg_rekey_rows_keyparse(rr), o->build.rowkey, scheme, msg,
                                       sizeof msg)))
    hfg_err_set(&err, rc, "rowkey '%s': %s", o->build.rowkey, msg);
  if (!rc && hfg_lint_new(*scheme, regions, lint))
    rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
  size_t nf = rc ? 0 : hfg_snapshot_nfamilies(hfg_rekey_rows_snapshot(rr));
  size_t nfields = rc ? 0 : hfg_keyparse_field_count(hfg_rekey_rows_keyparse(rr));
  /* collect: the fields' bytes, their hfg_fields (p an offset into bytes until sorted) */
  hfg_rekey_row r;
  uint64_t n = 0;
  while (!rc && n < max_rows) {
    int got = hfg_rekey_rows_next(rr, &r, &err);
    if (got < 0) rc = got;
    if (got <= 0) break;
    if (r.empty) continue; /* no cell left visible: not a key rekey writes */
    if (!r.fields) { /* the old key did not parse: no new key to check */
      ++*rejected;
      if (on_reject) report_reject(rr, &r, on_reject, ctx);
      continue;
    }
    /* a new key that is empty or too long is the lint's own finding to make */
    lrow lr = {first_write(&r, nf), n, fields.len / sizeof(hfg_field)};
    int bad = hfg_buf_append(&order, &lr, sizeof lr);
    for (size_t i = 0; i < r.nfields && !bad; i++) {
      hfg_field f = {(const char *)(uintptr_t)bytes.len, r.fields[i].len, r.fields[i].is_null};
      bad = hfg_buf_append(&bytes, r.fields[i].p, r.fields[i].len) ||
            hfg_buf_append(&fields, &f, sizeof f);
    }
    if (bad) rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
    n++;
  }
  if (!rc && n) {
    lrow *lr = (lrow *)order.p;
    hfg_field *fv = (hfg_field *)fields.p;
    for (size_t i = 0; i < fields.len / sizeof *fv; i++)
      fv[i].p = bytes.p ? (const char *)bytes.p + (uintptr_t)fv[i].p : "";
    qsort(lr, (size_t)n, sizeof *lr, lrow_cmp);
    for (uint64_t i = 0; i < n && !rc; i++)
      if (hfg_lint_add(*lint, fv + lr[i].field, nfields))
        rc = hfg_err_set(&err, HFG_ENOMEM, "out of memory");
  }
  if (!rc) *rows = n;
  hfg_buf_free(&bytes);
  hfg_buf_free(&fields);
  hfg_buf_free(&order);
  hfg_rekey_rows_free(rr);
  if (rc) {
    hfg_lint_free(*lint);
    *lint = NULL;
    hfg_scheme_free(*scheme);
    *scheme = NULL;
    if (errmsg && errlen) snprintf(errmsg, errlen, "%s", err.msg[0] ? err.msg : hfg_strerror(rc));
  }
  return rc;
}

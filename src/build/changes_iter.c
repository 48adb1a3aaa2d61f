/*
 * A changes load's sorted records as emit sees them (changes.h,
 * hfg_changes_iter): one record read ahead, so that a live row followed by a
 * hard delete of its key becomes the live row with the old row's history
 * masked. The rule and its HBase source (a DeleteFamily at ts masks every
 * cell of its family and row with a timestamp <= ts, ScanDeleteTracker) are
 * in format-specs/nightly-loads.md §4.
 */
#include <string.h>

#include "build/cell_payload.h"
#include "build/changes.h"
#include "util/alloc.h"
#include "util/buf.h"

struct hfg_changes_iter {
  job *j;
  hfg_sort_iter *it;
  hfg_buf held;   /* the record read ahead (a copy), when has_held */
  hfg_buf out;    /* the record handed out last (a copy or a merged row) */
  int has_held, eof;
};

hfg_changes_iter *hfg_changes_iter_open(job *j, hfg_sort_iter *it) {
  hfg_changes_iter *ci = hfg_calloc(1, sizeof *ci);
  if (!ci) return NULL;
  ci->j = j;
  ci->it = it;
  return ci;
}

void hfg_changes_iter_close(hfg_changes_iter *ci) {
  if (!ci) return;
  hfg_buf_free(&ci->held);
  hfg_buf_free(&ci->out);
  hfg_free(ci);
}

static int copy_to(hfg_buf *b, const uint8_t *rec, size_t len) {
  hfg_buf_reset(b);
  if (hfg_buf_reserve(b, len)) return HFG_ENOMEM;
  memcpy(b->p, rec, len);
  b->len = len;
  return 0;
}

static int same_key(const uint8_t *a, const uint8_t *b) {
  size_t n = hfg_rec_klen(a);
  return n == hfg_rec_klen(b) && !memcmp(hfg_rec_key(a), hfg_rec_key(b), n);
}

/* The live row (its payload lp) with the tombstone's (tp) DeleteFamily cells at
 * min(t_d, T - 1) merged in, into ci->out as a sorted record of live's key and
 * seq. 1 when it does not apply (the live row is itself deleted, or has no
 * cell), 0 done, HFG_ENOMEM, HFG_ECORRUPT. */
static int merge(hfg_changes_iter *ci, const uint8_t *live, const uint8_t *lp, size_t lpl,
                 const uint8_t *tp, size_t tpl) {
  hfg_cell_cursor cc;
  hfg_cell c;
  uint16_t fam;
  int64_t t = -1, td = -1;
  int rc;
  hfg_cell_cursor_init(&cc, lp, lpl);
  while ((rc = hfg_cell_cursor_next(&cc, &fam, &c)) > 0) {
    if (c.type == HFG_TYPE_DELETE_FAMILY) return 1; /* a deleted row: masks all already */
    if (t < 0) t = c.timestamp;
  }
  if (rc < 0) return rc;
  if (t <= 0) return 1;
  hfg_cell_cursor_init(&cc, tp, tpl);
  if ((rc = hfg_cell_cursor_next(&cc, &fam, &c)) <= 0) return rc < 0 ? rc : 1;
  td = c.timestamp;
  /* below the new row's cells (a marker at T would mask them: fact 2), at the
   * deletion time when that is earlier: the new row's own older versions stay */
  const int64_t mask = td < t ? td : t - 1;
  const size_t klen = hfg_rec_klen(live);
  hfg_buf pl = HFG_BUF_INIT;
  if (hfg_buf_reserve(&pl, lpl + tpl)) return HFG_ENOMEM;
  memcpy(pl.p, lp, HFG_CELL_PAYLOAD_HEADER); /* the live record's header: line, file */
  pl.len = HFG_CELL_PAYLOAD_HEADER;
  /* per family in index order (the payload's grouping): the live cells with an empty
   * qualifier, then the DeleteFamily (empty qualifier, ts mask < T), then the rest:
   * HBase's order (qualifier, then timestamp descending) */
  hfg_cell_cursor lc, tc;
  hfg_cell_cursor_init(&lc, lp, lpl);
  hfg_cell_cursor_init(&tc, tp, tpl);
  hfg_cell l, d;
  uint16_t lf = 0, df = 0;
  int lrc = hfg_cell_cursor_next(&lc, &lf, &l), drc = hfg_cell_cursor_next(&tc, &df, &d);
  rc = 0;
  while (!rc && (lrc > 0 || drc > 0)) {
    int take_d = drc > 0 && (lrc <= 0 || df < lf || (df == lf && l.qualifier_len > 0));
    if (take_d) {
      d.timestamp = mask;
      rc = hfg_cell_payload_add(&pl, df, &d);
      drc = hfg_cell_cursor_next(&tc, &df, &d);
    } else {
      rc = hfg_cell_payload_add(&pl, lf, &l);
      lrc = hfg_cell_cursor_next(&lc, &lf, &l);
    }
  }
  if (!rc && (lrc < 0 || drc < 0)) rc = HFG_ECORRUPT;
  if (!rc) {
    size_t n = HFG_SORT_REC_HEADER(klen) + pl.len;
    hfg_buf_reset(&ci->out);
    if (hfg_buf_reserve(&ci->out, n)) {
      rc = HFG_ENOMEM;
    } else {
      hfg_rec_put_header(ci->out.p, n, hfg_rec_key(live), klen, hfg_rec_seq(live));
      memcpy(ci->out.p + HFG_SORT_REC_HEADER(klen), pl.p, pl.len);
      ci->out.len = n;
    }
  }
  hfg_buf_free(&pl);
  return rc;
}

int hfg_changes_iter_next(hfg_changes_iter *ci, const uint8_t **rec, size_t *len, hfg_err *e) {
  const uint8_t *r;
  size_t n;
  int rc;
  if (!ci->has_held) {
    if (ci->eof) return 0;
    if ((rc = hfg_sort_iter_next(ci->it, &r, &n, e)) <= 0) return rc;
    if (copy_to(&ci->held, r, n)) return hfg_err_set(e, HFG_ENOMEM, "out of memory");
    ci->has_held = 1;
  }
  /* ci->out takes the held record; the one after it is read into held */
  hfg_buf t = ci->out;
  ci->out = ci->held;
  ci->held = t;
  ci->has_held = 0;
  const uint8_t *cur = ci->out.p;
  size_t cur_len = ci->out.len;
  rc = ci->eof ? 0 : hfg_sort_iter_next(ci->it, &r, &n, e);
  if (rc < 0) return rc;
  if (rc == 0) ci->eof = 1;
  if (rc > 0) {
    size_t cpl, npl;
    const uint8_t *cp = hfg_rec_payload(cur, cur_len, &cpl);
    const uint8_t *np = hfg_rec_payload(r, n, &npl);
    if (same_key(cur, r) && hfg_changes_is_tombstone(np, npl) &&
        !hfg_changes_is_tombstone(cp, cpl)) {
      hfg_buf live = ci->out; /* merge writes ci->out: keep the live record aside */
      ci->out = (hfg_buf)HFG_BUF_INIT;
      int mrc = merge(ci, live.p, cp, cpl, np, npl);
      if (mrc == 1) { /* not applied: hand out the live row, the tombstone after it */
        hfg_buf_free(&ci->out);
        ci->out = live;
        if (copy_to(&ci->held, r, n)) return hfg_err_set(e, HFG_ENOMEM, "out of memory");
        ci->has_held = 1;
      } else {
        hfg_buf_free(&live);
        if (mrc == HFG_ENOMEM) return hfg_err_set(e, HFG_ENOMEM, "out of memory");
        if (mrc) return hfg_err_set(e, mrc, "a sorted record's cells run past its end: the "
                                            "spill run is damaged");
        /* the tombstone is read and dropped, as emit drops a superseded one */
        __atomic_fetch_add(&ci->j->sum->deletes_superseded, 1, __ATOMIC_RELAXED);
        __atomic_fetch_add(&ci->j->sum->duplicates_dropped, 1, __ATOMIC_RELAXED);
      }
    } else {
      if (copy_to(&ci->held, r, n)) return hfg_err_set(e, HFG_ENOMEM, "out of memory");
      ci->has_held = 1;
    }
  }
  *rec = ci->out.p;
  *len = ci->out.len;
  return 1;
}

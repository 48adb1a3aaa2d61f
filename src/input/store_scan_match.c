/*
 * The per-row matcher of the store scan (format-specs/scan-semantics.md, "The
 * visible view" and "The raw view"). Written from HBase's behaviour, not its
 * code: NormalUserScanQueryMatcher.match (preCheck, delete markers, deletes,
 * versions), ScanDeleteTracker (add / isDeleted), ScanWildcardColumnTracker
 * (checkVersions) and the StoreScanner's handling of SEEK_NEXT_COL.
 */
#include <string.h>

#include "input/store_scan_int.h"
#include "util/alloc.h"
#include "util/coding.h"

#define TTL_TAG_TYPE 8 /* TagType.TTL_TAG_TYPE */

void ss_match_reset(ss_match *m) {
  m->has_family_stamp = 0;
  m->family_stamp = 0;
  m->fv_n = 0;
  m->has_del = 0;
  m->has_col = 0;
  m->count = 0;
  m->latest_ts = INT64_MAX;
  m->latest_type = 0;
  m->skip = 0;
}

void ss_match_free(ss_match *m) {
  hfg_free(m->fv);
  hfg_buf_free(&m->del_qual);
  hfg_buf_free(&m->col_qual);
  hfg_buf_free(&m->skip_qual);
  memset(m, 0, sizeof *m);
}

int ss_cell_cmp(const hfg_cell *a, const hfg_cell *b) {
  int r = hfg_bytes_cmp(a->row, a->row_len, b->row, b->row_len);
  if (r) return r;
  r = hfg_bytes_cmp(a->family, a->family_len, b->family, b->family_len);
  if (r) return r;
  r = hfg_bytes_cmp(a->qualifier, a->qualifier_len, b->qualifier, b->qualifier_len);
  if (r) return r;
  if (a->timestamp != b->timestamp) return a->timestamp > b->timestamp ? -1 : 1;
  if (a->type != b->type) return a->type > b->type ? -1 : 1;
  return 0;
}

static int set_buf(hfg_buf *b, const uint8_t *p, size_t n) {
  hfg_buf_reset(b);
  return n ? hfg_buf_append(b, p, n) : 0;
}

static int qual_cmp(const hfg_cell *c, const hfg_buf *q) {
  return hfg_bytes_cmp(c->qualifier, c->qualifier_len, q->p, q->len);
}

static int oom(hfg_err *e) { return hfg_err_set(e, HFG_ENOMEM, "out of memory"); }

/* SEEK_NEXT_COL: the StoreScanner moves past the rest of the column. For an
 * empty qualifier HBase seeks only past the current key (HBASE-18471:
 * ScanQueryMatcher.getKeyForNextColumn uses createNextOnRowCol there, so that a
 * DeleteFamily marker later in that column is still seen). */
static int seek_next_col(ss_match *m, const hfg_cell *c, int reason, int *verdict, hfg_err *e) {
  if (set_buf(&m->skip_qual, c->qualifier, c->qualifier_len)) return oom(e);
  m->skip = 1;
  m->skip_whole = c->qualifier_len != 0;
  m->skip_ts = c->timestamp;
  m->skip_type = c->type;
  m->skip_reason = reason;
  *verdict = reason;
  return 0;
}

/* ScanQueryMatcher.isCellTTLExpired: the first TTL tag (8-byte ms) counts;
 * expired when ts + ttl < now (Java long arithmetic). */
static int ttl_tag_expired(const hfg_cell *c, int64_t now, int *expired, hfg_err *e) {
  *expired = 0;
  size_t pos = 0, n = c->tags_len;
  while (pos < n) {
    if (n - pos < 3)
      return hfg_err_set(e, HFG_ECORRUPT, "malformed tags: %zu bytes left at %zu", n - pos, pos);
    size_t tl = hfg_get_be16(c->tags + pos);
    if (tl < 1 || tl > n - pos - 2)
      return hfg_err_set(e, HFG_ECORRUPT, "malformed tags: tag at %zu of length %zu in %zu bytes",
                         pos, tl, n);
    if (c->tags[pos + 2] == TTL_TAG_TYPE) {
      if (tl - 1 != 8)
        return hfg_err_set(e, HFG_ECORRUPT, "TTL tag (type 8) of %zu bytes, expected 8", tl - 1);
      int64_t ttl = (int64_t)hfg_get_be64(c->tags + pos + 3);
      int64_t end = (int64_t)((uint64_t)c->timestamp + (uint64_t)ttl);
      *expired = end < now;
      return 0;
    }
    pos += 2 + tl;
  }
  return 0;
}

/* ScanDeleteTracker.add */
static int tracker_add(ss_match *m, const hfg_cell *c, hfg_err *e) {
  int64_t ts = c->timestamp;
  if (m->has_family_stamp && ts <= m->family_stamp) return 0; /* already covered */
  if (c->type == HFG_TYPE_DELETE_FAMILY) {
    m->has_family_stamp = 1;
    m->family_stamp = ts;
    return 0;
  }
  if (c->type == HFG_TYPE_DELETE_FAMILY_VERSION) {
    size_t lo = 0, hi = m->fv_n;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (m->fv[mid] < ts) lo = mid + 1;
      else hi = mid;
    }
    if (lo < m->fv_n && m->fv[lo] == ts) return 0;
    if (m->fv_n == m->fv_cap) {
      size_t cap = m->fv_cap ? m->fv_cap * 2 : 8;
      int64_t *p = hfg_realloc(m->fv, cap * sizeof *p);
      if (!p) return oom(e);
      m->fv = p;
      m->fv_cap = cap;
    }
    memmove(m->fv + lo + 1, m->fv + lo, (m->fv_n - lo) * sizeof *m->fv);
    m->fv[lo] = ts;
    m->fv_n++;
    return 0;
  }
  /* Delete or DeleteColumn: a less specific marker of the same column is ignored */
  if (m->has_del && c->type < m->del_type && qual_cmp(c, &m->del_qual) == 0) return 0;
  if (set_buf(&m->del_qual, c->qualifier, c->qualifier_len)) return oom(e);
  m->has_del = 1;
  m->del_type = c->type;
  m->del_ts = ts;
  return 0;
}

enum { NOT_DELETED = 0, FAMILY_DELETED, FAMILY_VERSION_DELETED, COLUMN_DELETED, VERSION_DELETED };

/* ScanDeleteTracker.isDeleted */
static int tracker_is_deleted(ss_match *m, const hfg_cell *c, hfg_err *e) {
  int64_t ts = c->timestamp;
  if (m->has_family_stamp && ts <= m->family_stamp) return FAMILY_DELETED;
  size_t lo = 0, hi = m->fv_n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->fv[mid] < ts) lo = mid + 1;
    else hi = mid;
  }
  if (lo < m->fv_n && m->fv[lo] == ts) return FAMILY_VERSION_DELETED;
  if (m->has_del) {
    int r = qual_cmp(c, &m->del_qual);
    if (r == 0) {
      if (m->del_type == HFG_TYPE_DELETE_COLUMN) return COLUMN_DELETED;
      if (ts == m->del_ts) return VERSION_DELETED;
      m->has_del = 0; /* an older version of the column: the Delete is spent */
    } else if (r > 0) {
      m->has_del = 0; /* a later column */
    } else {
      return hfg_err_set(e, HFG_EORDER,
                         "a put sorts before the column of the delete marker before it");
    }
  }
  return NOT_DELETED;
}

static int raw_cell(ss_match *m, const hfg_cell *c, int *verdict, hfg_err *e) {
  if (m->has_col && qual_cmp(c, &m->col_qual) == 0) {
    if (c->timestamp == m->latest_ts && c->type == m->latest_type) {
      *verdict = SS_DUPLICATE;
      return 0;
    }
  } else if (set_buf(&m->col_qual, c->qualifier, c->qualifier_len)) {
    return oom(e);
  }
  m->has_col = 1;
  m->latest_ts = c->timestamp;
  m->latest_type = c->type;
  *verdict = SS_KEEP;
  return 0;
}

int ss_match_cell(ss_match *m, const ss_conf *cf, const hfg_cell *c, int *verdict, hfg_err *e) {
  if (m->skip) {
    if (qual_cmp(c, &m->skip_qual) == 0 &&
        (m->skip_whole || (c->timestamp == m->skip_ts && c->type == m->skip_type))) {
      *verdict = m->skip_reason;
      return 0;
    }
    m->skip = 0;
  }
  if (cf->raw) return raw_cell(m, c, verdict, e);

  /* preCheck: OLDEST_TIMESTAMP (a fake cell to HBase) and, without
   * MIN_VERSIONS, a cell older than the TTL end the column */
  int64_t ts = c->timestamp;
  if (ts == INT64_MIN || (cf->min_versions <= 0 && ts < cf->oldest))
    return seek_next_col(m, c, SS_EXPIRED, verdict, e);
  int expired, rc = ttl_tag_expired(c, cf->now, &expired, e);
  if (rc) return rc;
  if (expired) {
    *verdict = SS_EXPIRED;
    return 0;
  }
  /* a marker: into the tracker (a Scan's time range is all time, so
   * KEEP_DELETED_CELLS changes nothing here), never returned */
  if (ss_is_marker(c->type)) {
    *verdict = SS_MARKER;
    return tracker_add(m, c, e);
  }
  if (m->has_family_stamp || m->fv_n || m->has_del) {
    int d = tracker_is_deleted(m, c, e);
    if (d < 0) return d;
    if (d == FAMILY_DELETED || d == COLUMN_DELETED)
      return seek_next_col(m, c, SS_DELETED, verdict, e);
    if (d != NOT_DELETED) {
      *verdict = SS_DELETED;
      return 0;
    }
  }
  /* ScanWildcardColumnTracker.checkVersions */
  if (m->has_col) {
    int r = qual_cmp(c, &m->col_qual);
    if (r < 0) return hfg_err_set(e, HFG_EORDER, "a column sorts before the column before it");
    if (r == 0 && ts == m->latest_ts && c->type == m->latest_type) {
      *verdict = SS_DUPLICATE; /* sameAsPreviousTSAndType: SKIP */
      return 0;
    }
    if (r > 0) m->has_col = 0;
  }
  if (!m->has_col) {
    if (set_buf(&m->col_qual, c->qualifier, c->qualifier_len)) return oom(e);
    m->has_col = 1;
    m->count = 0;
    m->latest_ts = INT64_MAX;
    m->latest_type = 0;
  }
  if (m->count < INT32_MAX) m->count++;
  if (m->count > cf->versions) return seek_next_col(m, c, SS_VERSIONS, verdict, e);
  if (m->count <= cf->min_versions || !(ts < cf->oldest)) {
    m->latest_ts = ts;
    m->latest_type = c->type;
    *verdict = SS_KEEP;
    return 0;
  }
  return seek_next_col(m, c, SS_EXPIRED, verdict, e);
}

/*
 * Store scan (store_scan.h): the k-way merge of one region-family's store
 * files in HBase's KeyValueHeap order, row assembly, region clipping and the
 * counts. The keep-or-drop decision per cell is store_scan_match.c's.
 *
 * Merge order (format-specs/scan-semantics.md, "Merge order"): the cell key
 * (CellComparator), then the higher sequence id, then the file that sorts
 * later in StoreFileComparators.SEQ_ID (its scannerOrder). A cell's sequence
 * id is its file's for a bulk-loaded file (StoreFileScanner.setCurrentCell),
 * its own mvcc otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/store_scan.h"
#include "input/store_scan_int.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/coding.h"
#include "util/err.h"

typedef struct ss_src {
  hfg_reader *reader;
  hfg_scanner *sc;
  char *name;
  hfg_store_half half;
  uint8_t *split;
  size_t split_len;
  /* SEQ_ID facts */
  int64_t file_seq;       /* HStoreFile's sequenceid (getMaxSequenceId) */
  uint64_t size;
  int64_t bulk_time;      /* INT64_MAX when absent (GetBulkTime) */
  int reset_seq;          /* every cell takes file_seq */
  size_t added;           /* add order, a last tie-break */
  uint64_t order;         /* scannerOrder: rank in SEQ_ID order, higher wins */
  /* cursor */
  int started, has;
  hfg_read_cell cur;
  hfg_buf prev_key;       /* the previous cell's key, for the order check */
} ss_src;

typedef struct out_cell {
  size_t q, v, t;         /* offsets into bytes */
} out_cell;

struct hfg_store_scan {
  hfg_err err;
  ss_conf conf;
  uint8_t *family;
  size_t family_len;
  uint8_t *start, *end;
  size_t start_len, end_len;
  ss_src *src;
  size_t nsrc, capsrc;
  int started;
  int empty_rows;               /* options.empty_rows */
  ss_match m;
  /* the row being assembled */
  int row_active;
  hfg_buf row;
  hfg_buf bytes;
  out_cell *offs;
  hfg_cell *cells;
  size_t ncells, capcells;
  hfg_store_scan_counts counts;
};

static int oom(hfg_store_scan *s) { return hfg_err_set(&s->err, HFG_ENOMEM, "out of memory"); }

static int copy_bytes(uint8_t **dst, const uint8_t *p, size_t n) {
  *dst = NULL;
  if (!n) return 0;
  *dst = hfg_memdup(p, n);
  return *dst ? 0 : HFG_ENOMEM;
}

int hfg_store_scan_create(const hfg_store_scan_options *o, hfg_store_scan **out) {
  *out = NULL;
  hfg_store_scan *s = hfg_calloc(1, sizeof *s);
  if (!s) return HFG_ENOMEM;
  *out = s;
  if (o->new_version_behavior)
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "family with NEW_VERSION_BEHAVIOR=true: its deletes mask by sequence id "
                       "(NewVersionBehaviorTracker), which the store scan does not implement; %s",
                       o->raw ? "a raw copy cannot keep that visibility either"
                              : "read it through HBase instead");
  if (o->versions < 1)
    return hfg_err_set(&s->err, HFG_EINVAL, "VERSIONS %" PRId32 ": must be at least 1",
                       o->versions);
  if (o->min_versions < 0 || o->min_versions > o->versions)
    return hfg_err_set(&s->err, HFG_EINVAL,
                       "MIN_VERSIONS %" PRId32 ": must be 0..VERSIONS (%" PRId32 ")",
                       o->min_versions, o->versions);
  if (o->as_of_ms < 0)
    return hfg_err_set(&s->err, HFG_EINVAL, "as-of time %" PRId64 " ms: must not be negative",
                       o->as_of_ms);
  if (o->keep_deleted < HFG_KEEP_DELETED_FALSE || o->keep_deleted > HFG_KEEP_DELETED_TTL)
    return hfg_err_set(&s->err, HFG_EINVAL, "KEEP_DELETED_CELLS value %d unknown",
                       (int)o->keep_deleted);
  if (o->family_len > 127)
    return hfg_err_set(&s->err, HFG_EINVAL, "family of %zu bytes exceeds 127", o->family_len);
  if (o->start_row_len && o->end_row_len &&
      hfg_bytes_cmp(o->start_row, o->start_row_len, o->end_row, o->end_row_len) >= 0)
    return hfg_err_set(&s->err, HFG_EINVAL, "region start key is not below its end key");
  if (copy_bytes(&s->family, o->family, o->family_len) ||
      copy_bytes(&s->start, o->start_row, o->start_row_len) ||
      copy_bytes(&s->end, o->end_row, o->end_row_len))
    return oom(s);
  s->family_len = o->family_len;
  s->start_len = o->start_row_len;
  s->end_len = o->end_row_len;
  /* HStore.determineTTLFromFamily, StoreScanner: oldestUnexpiredTS = now - ttl */
  int64_t ttl_ms = (o->ttl_seconds == HFG_TTL_FOREVER || o->ttl_seconds == -1)
                       ? INT64_MAX
                       : (int64_t)((uint64_t)o->ttl_seconds * 1000u);
  s->conf.raw = o->raw != 0;
  s->empty_rows = o->empty_rows != 0;
  s->conf.now = o->as_of_ms;
  s->conf.oldest = (int64_t)((uint64_t)o->as_of_ms - (uint64_t)ttl_ms);
  s->conf.versions = o->versions;
  s->conf.min_versions = o->min_versions;
  ss_match_reset(&s->m);
  return 0;
}

/* StoreFileInfo.getBulkloadSeqId: the digits after "_SeqId_" up to the next
 * '_' (Long.parseLong). 1 and *v, 0 when the name has no marker, -1 malformed. */
static int name_seq_id(const char *name, int64_t *v) {
  const char *p = strstr(name, "_SeqId_");
  if (!p) return 0;
  p += 7;
  const char *q = strchr(p, '_');
  if (!q || q == p) return -1;
  int neg = 0;
  if (*p == '-' || *p == '+') {
    neg = *p == '-';
    if (++p == q) return -1;
  }
  uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, x = 0;
  for (; p < q; p++) {
    if (*p < '0' || *p > '9') return -1;
    unsigned d = (unsigned)(*p - '0');
    if (x > (lim - d) / 10) return -1;
    x = x * 10 + d;
  }
  *v = neg ? (int64_t)(0 - x) : (int64_t)x;
  return 1;
}

static int fileinfo_long(hfg_store_scan *s, const hfg_store_file *f, const char *key, int *has,
                         int64_t *v) {
  const uint8_t *p;
  size_t n;
  *has = hfg_reader_fileinfo_get(f->reader, key, &p, &n) == 1;
  if (!*has) return 0;
  if (n != 8)
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "store file %s: file info %s has %zu bytes, expected 8", f->name, key, n);
  *v = (int64_t)hfg_get_be64(p);
  return 0;
}

int hfg_store_scan_describe(hfg_store_scan *s, hfg_store_file *f) {
  if (s->err.code) return s->err.code;
  if (!f->reader || !f->name)
    return hfg_err_set(&s->err, HFG_EINVAL, "store file without a reader or a name");
  if (hfg_reader_errcode(f->reader))
    return hfg_err_set(&s->err, hfg_reader_errcode(f->reader), "store file %s: %s", f->name,
                       hfg_reader_errmsg(f->reader));
  f->size = hfg_reader_trailer(f->reader)->file_size;
  int rc = fileinfo_long(s, f, "MAX_SEQ_ID_KEY", &f->has_max_seq_id, &f->max_seq_id);
  if (!rc) rc = fileinfo_long(s, f, "BULKLOAD_TIMESTAMP", &f->has_bulkload_time, &f->bulkload_time);
  if (rc) return rc;
  const uint8_t *p;
  size_t n;
  /* HStoreFile.isSkipResetSeqId: a 1-byte boolean, anything else false */
  f->skip_reset_seq_id =
      hfg_reader_fileinfo_get(f->reader, "SKIP_RESET_SEQ_ID", &p, &n) == 1 && n == 1 && p[0] != 0;
  int k = name_seq_id(f->name, &f->bulkload_seq_id);
  if (k < 0)
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "store file %s: the name holds _SeqId_ without a number and a closing '_'",
                       f->name);
  f->has_bulkload_seq_id = k;
  if (!k) f->bulkload_seq_id = 0;
  return 0;
}

int hfg_store_scan_add(hfg_store_scan *s, const hfg_store_file *f) {
  if (s->err.code) return s->err.code;
  if (s->started)
    return hfg_err_set(&s->err, HFG_ESTATE, "store file added after the scan started");
  if (!f->reader || !f->name)
    return hfg_err_set(&s->err, HFG_EINVAL, "store file without a reader or a name");
  if (hfg_reader_errcode(f->reader))
    return hfg_err_set(&s->err, hfg_reader_errcode(f->reader), "store file %s: %s", f->name,
                       hfg_reader_errmsg(f->reader));
  if (f->half != HFG_HALF_WHOLE && f->half != HFG_HALF_BOTTOM && f->half != HFG_HALF_TOP)
    return hfg_err_set(&s->err, HFG_EINVAL, "store file %s: unknown half %d", f->name,
                       (int)f->half);
  if (f->half != HFG_HALF_WHOLE && f->split_row_len > 32767)
    return hfg_err_set(&s->err, HFG_EINVAL, "store file %s: split row of %zu bytes exceeds 32767",
                       f->name, f->split_row_len);
  hfg_comparator_kind k = hfg_reader_meta(f->reader)->comparator;
  if (k != HFG_CMP_CELL) {
    const char *cn = hfg_reader_trailer(f->reader)->comparator;
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "store file %s: comparator %s is not the cell comparator of a user table",
                       f->name, cn ? cn : "?");
  }
  if (s->nsrc == s->capsrc) {
    size_t cap = s->capsrc ? s->capsrc * 2 : 8;
    ss_src *p = hfg_realloc(s->src, cap * sizeof *p);
    if (!p) return oom(s);
    s->src = p;
    s->capsrc = cap;
  }
  ss_src *x = &s->src[s->nsrc];
  memset(x, 0, sizeof *x);
  x->reader = f->reader;
  x->half = f->half;
  x->added = s->nsrc;
  x->name = hfg_strdup(f->name);
  if (!x->name ||
      (f->half != HFG_HALF_WHOLE && copy_bytes(&x->split, f->split_row, f->split_row_len))) {
    hfg_free(x->name);
    return oom(s);
  }
  x->split_len = f->half != HFG_HALF_WHOLE ? f->split_row_len : 0;
  int rc = hfg_scanner_new(f->reader, &x->sc);
  if (rc) {
    hfg_free(x->name);
    hfg_free(x->split);
    return hfg_err_set(&s->err, rc, "store file %s: %s", f->name, hfg_strerror(rc));
  }
  /* HStoreFile.open: the file's sequence id, a top half's one more */
  int top = f->half == HFG_HALF_TOP;
  int bulk = f->has_bulkload_seq_id || f->has_bulkload_time; /* isBulkLoadResult */
  int64_t seq = -1;
  if (f->has_max_seq_id) seq = (int64_t)((uint64_t)f->max_seq_id + (uint64_t)top);
  if (bulk) {
    if (f->has_bulkload_seq_id) seq = (int64_t)((uint64_t)f->bulkload_seq_id + (uint64_t)top);
    if (f->skip_reset_seq_id) seq = (int64_t)((uint64_t)seq + 1u);
  }
  x->file_seq = seq;
  x->reset_seq = bulk && !f->skip_reset_seq_id;
  x->size = f->size;
  x->bulk_time = f->has_bulkload_time ? f->bulkload_time : INT64_MAX;
  s->nsrc++;
  return 0;
}

/* StoreFileComparators.SEQ_ID: sequence id, then the larger file first, then
 * the bulk-load time, then the file name; the add order beyond that. */
static int seq_id_order(const void *pa, const void *pb) {
  const ss_src *a = pa, *b = pb;
  if (a->file_seq != b->file_seq) return a->file_seq < b->file_seq ? -1 : 1;
  if (a->size != b->size) return a->size > b->size ? -1 : 1;
  if (a->bulk_time != b->bulk_time) return a->bulk_time < b->bulk_time ? -1 : 1;
  int r = strcmp(a->name, b->name);
  if (r) return r;
  return a->added < b->added ? -1 : a->added > b->added;
}

static int src_fail(hfg_store_scan *s, ss_src *x, int rc, const char *what) {
  return hfg_err_set(&s->err, rc, "store file %s: %s", x->name, what);
}

static int cell_fail(hfg_store_scan *s, ss_src *x, int rc, const char *what) {
  char k[320];
  hfg_format_key(x->cur.key, x->cur.key_len, k, sizeof k);
  return hfg_err_set(&s->err, rc, "store file %s: cell %s: %s", x->name, k, what);
}

static int known_type(uint8_t t) {
  return t == HFG_TYPE_PUT || t == HFG_TYPE_DELETE || t == HFG_TYPE_DELETE_FAMILY_VERSION ||
         t == HFG_TYPE_DELETE_COLUMN || t == HFG_TYPE_DELETE_FAMILY;
}

/* Moves x to its next cell inside its half: x->has 1 with x->cur, or 0. */
static int src_advance(hfg_store_scan *s, ss_src *x) {
  if (!x->started) {
    x->started = 1;
    if (x->half == HFG_HALF_TOP) {
      /* HalfStoreFileReader: the top half starts at firstOnRow(split row) */
      int rc = hfg_scanner_seek_row(x->sc, x->split, x->split_len);
      if (rc < 0) return src_fail(s, x, rc, hfg_scanner_errmsg(x->sc));
    }
  } else if (x->has) {
    hfg_buf_reset(&x->prev_key);
    if (hfg_buf_append(&x->prev_key, x->cur.key, x->cur.key_len)) return oom(s);
  }
  x->has = 0;
  int rc = hfg_scanner_next(x->sc, &x->cur);
  if (rc < 0) return src_fail(s, x, rc, hfg_scanner_errmsg(x->sc));
  if (rc == 0) return 0;
  const hfg_cell *c = &x->cur.cell;
  /* the bottom half ends before the first cell of the split row */
  if (x->half == HFG_HALF_BOTTOM && hfg_bytes_cmp(c->row, c->row_len, x->split, x->split_len) >= 0)
    return 0;
  if (c->family_len != s->family_len ||
      (c->family_len && memcmp(c->family, s->family, c->family_len)))
    return cell_fail(s, x, HFG_ECORRUPT, "not of the family scanned");
  if (!known_type(c->type))
    return cell_fail(s, x, HFG_ECORRUPT, "cell type not Put or a delete type");
  if (x->prev_key.len) {
    hfg_cell prev;
    if (hfg_parse_key(x->prev_key.p, x->prev_key.len, &prev) == 0 && ss_cell_cmp(&prev, c) > 0)
      return cell_fail(s, x, HFG_EORDER, "sorts before the cell before it in the file");
  }
  x->has = 1;
  s->counts.cells_read++;
  return 0;
}

static int64_t cell_seq(const ss_src *x) { return x->reset_seq ? x->file_seq : x->cur.mvcc; }

/* KeyValueHeap: the smallest key; on equal keys the higher sequence id, then
 * the higher scannerOrder. */
static ss_src *pick(hfg_store_scan *s) {
  ss_src *best = NULL;
  for (size_t i = 0; i < s->nsrc; i++) {
    ss_src *x = &s->src[i];
    if (!x->has) continue;
    if (!best) {
      best = x;
      continue;
    }
    int r = ss_cell_cmp(&x->cur.cell, &best->cur.cell);
    if (r == 0) {
      int64_t a = cell_seq(x), b = cell_seq(best);
      r = a != b ? (a > b ? -1 : 1) : (x->order > best->order ? -1 : 1);
    }
    if (r < 0) best = x;
  }
  return best;
}

static int start(hfg_store_scan *s) {
  s->started = 1;
  if (s->nsrc) qsort(s->src, s->nsrc, sizeof *s->src, seq_id_order);
  for (size_t i = 0; i < s->nsrc; i++) s->src[i].order = i;
  for (size_t i = 0; i < s->nsrc; i++) {
    int rc = src_advance(s, &s->src[i]);
    if (rc) return rc;
  }
  return 0;
}

static int in_region(const hfg_store_scan *s, const hfg_cell *c) {
  if (s->start_len && hfg_bytes_cmp(c->row, c->row_len, s->start, s->start_len) < 0) return 0;
  if (s->end_len && hfg_bytes_cmp(c->row, c->row_len, s->end, s->end_len) >= 0) return 0;
  return 1;
}

static int keep(hfg_store_scan *s, const hfg_cell *c) {
  if (s->ncells == s->capcells) {
    size_t cap = s->capcells ? s->capcells * 2 : 64;
    hfg_cell *p = hfg_realloc(s->cells, cap * sizeof *p);
    if (!p) return oom(s);
    s->cells = p;
    out_cell *q = hfg_realloc(s->offs, cap * sizeof *q);
    if (!q) return oom(s);
    s->offs = q;
    s->capcells = cap;
  }
  out_cell *o = &s->offs[s->ncells];
  hfg_buf *b = &s->bytes;
  o->q = b->len;
  if (hfg_buf_append(b, c->qualifier, c->qualifier_len)) return oom(s);
  o->v = b->len;
  if (hfg_buf_append(b, c->value, c->value_len)) return oom(s);
  o->t = b->len;
  if (hfg_buf_append(b, c->tags, c->tags_len)) return oom(s);
  s->cells[s->ncells++] = *c;
  return 0;
}

static void count_drop(hfg_store_scan_counts *k, int verdict) {
  switch (verdict) {
    case SS_MARKER: k->dropped_marker++; break;
    case SS_DELETED: k->dropped_deleted++; break;
    case SS_EXPIRED: k->dropped_expired++; break;
    case SS_VERSIONS: k->dropped_versions++; break;
    default: k->dropped_duplicate++; break;
  }
}

int hfg_store_scan_next_row(hfg_store_scan *s, const hfg_cell **cells, size_t *n) {
  *cells = NULL;
  *n = 0;
  if (s->err.code) return s->err.code;
  if (!s->started) {
    int rc = start(s);
    if (rc) return rc;
  }
  s->ncells = 0;
  s->row_active = 0;
  hfg_buf_reset(&s->bytes);
  for (;;) {
    ss_src *x = pick(s);
    if (!x) break;
    const hfg_cell *c = &x->cur.cell;
    if (s->row_active && hfg_bytes_cmp(c->row, c->row_len, s->row.p, s->row.len) != 0) {
      /* the row is complete; x keeps its cell for the next call */
      if (s->ncells || s->empty_rows) break;
      s->row_active = 0;
    }
    if (!in_region(s, c)) {
      s->counts.dropped_outside++;
    } else {
      if (!s->row_active) {
        hfg_buf_reset(&s->row);
        if (hfg_buf_append(&s->row, c->row, c->row_len)) return oom(s);
        ss_match_reset(&s->m);
        s->row_active = 1;
      }
      if (ss_is_marker(c->type)) s->counts.markers_read++;
      int verdict;
      int rc = ss_match_cell(&s->m, &s->conf, c, &verdict, &s->err);
      if (rc) {
        char what[HFG_ERRMSG_MAX];
        snprintf(what, sizeof what, "%s", s->err.msg);
        hfg_err_clear(&s->err);
        return cell_fail(s, x, rc, what);
      }
      if (verdict == SS_KEEP) {
        if ((rc = keep(s, c))) return rc;
      } else {
        count_drop(&s->counts, verdict);
      }
    }
    int rc = src_advance(s, x);
    if (rc) return rc;
  }
  if (!s->ncells) {
    if (!s->empty_rows || !s->row_active) return 0;
    s->counts.rows_empty++; /* a row of the region, every cell of it dropped */
    return 1;
  }
  for (size_t i = 0; i < s->ncells; i++) {
    hfg_cell *c = &s->cells[i];
    out_cell *o = &s->offs[i];
    c->row = s->row.p;
    c->family = s->family;
    c->qualifier = c->qualifier_len ? s->bytes.p + o->q : NULL;
    c->value = c->value_len ? s->bytes.p + o->v : NULL;
    c->tags = c->tags_len ? s->bytes.p + o->t : NULL;
  }
  s->counts.cells_output += s->ncells;
  s->counts.rows_output++;
  *cells = s->cells;
  *n = s->ncells;
  return 1;
}

void hfg_store_scan_counts_get(const hfg_store_scan *s, hfg_store_scan_counts *out) {
  *out = s->counts;
}

const uint8_t *hfg_store_scan_row(const hfg_store_scan *s, size_t *len) {
  *len = s->row_active ? s->row.len : 0;
  return s->row_active ? s->row.p : NULL;
}

const char *hfg_store_scan_errmsg(const hfg_store_scan *s) {
  return s ? s->err.msg : "out of memory";
}

void hfg_store_scan_free(hfg_store_scan *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nsrc; i++) {
    ss_src *x = &s->src[i];
    hfg_scanner_free(x->sc);
    hfg_free(x->name);
    hfg_free(x->split);
    hfg_buf_free(&x->prev_key);
  }
  hfg_free(s->src);
  hfg_free(s->family);
  hfg_free(s->start);
  hfg_free(s->end);
  ss_match_free(&s->m);
  hfg_buf_free(&s->row);
  hfg_buf_free(&s->bytes);
  hfg_free(s->offs);
  hfg_free(s->cells);
  hfg_free(s);
}

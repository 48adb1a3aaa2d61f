/*
 * The block index (format-specs/reader-checks.md, "Index"), as
 * HFileBlockIndex.BlockIndexReader reads it:
 *   root (IDXROOT2)       data_index_count entries of
 *                         offset:be64 onDiskSize:be32 key:(vint length + bytes),
 *                         + 16 bytes of mid-key metadata when levels > 1
 *                         (readMultiLevelIndexRoot)
 *   non-root (IDXINTE2,   numEntries:be32, secondary index of numEntries + 1
 *   IDXLEAF2)             be32 offsets into the entries area, entries of
 *                         offset:be64 onDiskSize:be32 key (no length prefix)
 * Levels below the root are INTERMEDIATE_INDEX down to the last one, which is
 * LEAF_INDEX; the lowest level points at DATA blocks
 * (loadDataBlockWithScanInfo). Loading is breadth-first and insists that each
 * level's offsets strictly increase, which is what HBase writes and which also
 * stops a hostile index from naming one block many times.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/rd.h"
#include "util/alloc.h"
#include "util/coding.h"

int rd_root_parse(const uint8_t *p, size_t len, size_t n, hfg_index_entry **out, size_t *used,
                  hfg_err *err, const char *what) {
  *out = NULL;
  *used = 0;
  /* each entry takes at least 8 + 4 + a 1-byte vint */
  if (n > len / 13)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "%s: %zu entries declared but its %zu-byte payload holds at most %zu", what,
                       n, len, len / 13);
  if (n == 0) return 0;
  hfg_index_entry *e = hfg_calloc(n, sizeof *e);
  if (!e) return hfg_err_set(err, HFG_ENOMEM, "out of memory for %zu index entries", n);
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    if (len - at < 13) {
      hfg_free(e);
      return hfg_err_set(err, HFG_ECORRUPT, "%s: entry %zu runs past the payload (%zu bytes)",
                         what, i, len);
    }
    int64_t off = (int64_t)hfg_get_be64(p + at);
    int32_t sz = (int32_t)hfg_get_be32(p + at + 8);
    int64_t klen;
    size_t k = hfg_get_vlong(p + at + 12, p + len, &klen);
    if (off < 0 || sz < (int32_t)RD_HDR || !k || klen < 0 ||
        (uint64_t)klen > len - at - 12 - k) {
      hfg_free(e);
      return hfg_err_set(err, HFG_ECORRUPT,
                         "%s: entry %zu malformed (offset %" PRId64 ", size %" PRId32
                         ", key length %s)",
                         what, i, off, sz, k ? "out of range" : "truncated");
    }
    e[i].offset = (uint64_t)off;
    e[i].on_disk_size = (uint32_t)sz;
    e[i].key = p + at + 12 + k;
    e[i].key_len = (size_t)klen;
    at += 12 + k + (size_t)klen;
  }
  *out = e;
  *used = at;
  return 0;
}

int rd_nonroot_check(const uint8_t *p, size_t len, uint32_t *n, hfg_err *err, uint64_t offset) {
  if (len < 4)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "index block at offset %" PRIu64 ": payload of %zu bytes has no entry count",
                       offset, len);
  int32_t cnt = (int32_t)hfg_get_be32(p);
  if (cnt < 0 || 4 + 4 * ((uint64_t)cnt + 1) > len)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "index block at offset %" PRIu64 ": %" PRId32
                       " entries do not fit a %zu-byte payload",
                       offset, cnt, len);
  size_t base = 4 + 4 * ((size_t)cnt + 1);
  size_t ent_len = len - base;
  uint32_t prev = hfg_get_be32(p + 4);
  if (prev != 0)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "index block at offset %" PRIu64 ": secondary index starts at %" PRIu32
                       ", not 0",
                       offset, prev);
  for (int32_t i = 0; i < cnt; i++) {
    uint32_t nx = hfg_get_be32(p + 4 + 4 * ((size_t)i + 1));
    if (nx < prev || nx - prev < 12 || nx > ent_len)
      return hfg_err_set(err, HFG_ECORRUPT,
                         "index block at offset %" PRIu64 ": secondary index entry %" PRId32
                         " (%" PRIu32 " after %" PRIu32 ") invalid for %zu entry bytes",
                         offset, i + 1, nx, prev, ent_len);
    prev = nx;
  }
  if (prev != ent_len)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "index block at offset %" PRIu64 ": entries take %" PRIu32
                       " bytes but %zu follow the secondary index",
                       offset, prev, ent_len);
  for (int32_t i = 0; i < cnt; i++) {
    hfg_index_entry e;
    rd_nonroot_entry(p, (uint32_t)i, &e);
    if ((int64_t)e.offset < 0 || e.on_disk_size < RD_HDR || e.on_disk_size > INT32_MAX)
      return hfg_err_set(err, HFG_ECORRUPT,
                         "index block at offset %" PRIu64 ": entry %" PRId32
                         " has offset %" PRId64 " / size %" PRIu32,
                         offset, i, (int64_t)e.offset, e.on_disk_size);
  }
  *n = (uint32_t)cnt;
  return 0;
}

void rd_nonroot_entry(const uint8_t *p, uint32_t i, hfg_index_entry *e) {
  uint32_t cnt = hfg_get_be32(p);
  size_t base = 4 + 4 * ((size_t)cnt + 1);
  uint32_t a = hfg_get_be32(p + 4 + 4 * (size_t)i), b = hfg_get_be32(p + 8 + 4 * (size_t)i);
  const uint8_t *q = p + base + a;
  e->offset = hfg_get_be64(q);
  e->on_disk_size = hfg_get_be32(q + 8);
  e->key = q + 12;
  e->key_len = b - a - 12;
}

/* ---- growable arrays ---- */

static int grow(void **arr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap * 2 : 16;
  while (nc < need) nc *= 2;
  void *p = hfg_realloc(*arr, nc * elem);
  if (!p) return HFG_ENOMEM;
  *arr = p;
  *cap = nc;
  return 0;
}

static int cmp_iblock(const void *a, const void *b) {
  uint64_t x = ((const rd_iblock *)a)->offset, y = ((const rd_iblock *)b)->offset;
  return x < y ? -1 : x > y;
}

void rd_index_free(hfg_reader *r) {
  for (size_t i = 0; i < r->iblocks_n; i++) rd_block_release(&r->iblocks[i].blk);
  hfg_free(r->iblocks);
  r->iblocks = NULL;
  r->iblocks_n = 0;
  if (r->data != r->root) hfg_free(r->data);
  r->data = NULL;
  r->data_n = 0;
}

const rd_iblock *rd_index_find_iblock(const hfg_reader *r, uint64_t offset) {
  size_t lo = 0, hi = r->iblocks_n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (r->iblocks[mid].offset < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo < r->iblocks_n && r->iblocks[lo].offset == offset ? &r->iblocks[lo] : NULL;
}

/* Each level's offsets must strictly increase (file order). */
static int check_order(hfg_reader *r, const hfg_index_entry *e, int64_t *prev, uint32_t depth,
                       size_t i) {
  if ((int64_t)e->offset <= *prev)
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "index level %" PRIu32 ", entry %zu: offset %" PRIu64
                       " does not follow the previous entry's offset %" PRId64,
                       depth, i, e->offset, *prev);
  if (e->offset >= r->trailer.load_on_open_offset)
    return hfg_err_set(&r->err, HFG_ECORRUPT,
                       "index level %" PRIu32 ", entry %zu: offset %" PRIu64
                       " is not before the load-on-open section at %" PRIu64,
                       depth, i, e->offset, r->trailer.load_on_open_offset);
  *prev = (int64_t)e->offset;
  return 0;
}

static int load(hfg_reader *r) {
  uint32_t levels = r->trailer.num_data_index_levels;
  hfg_index_entry *cur = r->root, *next = NULL;
  size_t cur_n = r->root_n, next_n = 0, next_cap = 0, ib_cap = 0;
  uint64_t bytes = r->root_blk.info.uncompressed_size;
  int rc = 0;
  int64_t prev = -1;
  for (size_t i = 0; i < cur_n && !rc; i++) rc = check_order(r, &cur[i], &prev, 0, i);
  for (uint32_t depth = 1; depth < levels && !rc; depth++) {
    hfg_block_type want = depth == levels - 1 ? HFG_BLOCK_LEAF_INDEX : HFG_BLOCK_INTERMEDIATE_INDEX;
    next = NULL;
    next_n = next_cap = 0;
    prev = -1;
    for (size_t i = 0; i < cur_n && !rc; i++) {
      if ((rc = grow((void **)&r->iblocks, &ib_cap, r->iblocks_n + 1, sizeof *r->iblocks))) {
        rc = hfg_err_set(&r->err, HFG_ENOMEM, "out of memory loading the index");
        break;
      }
      rd_iblock *ib = &r->iblocks[r->iblocks_n];
      memset(ib, 0, sizeof *ib);
      rc = rd_block_read(r, cur[i].offset, r->trailer.load_on_open_offset, cur[i].on_disk_size,
                         (int)want, &ib->blk);
      if (rc) {
        rd_block_release(&ib->blk);
        hfg_err_prefix(&r->err, "index level %" PRIu32 " (entry %zu of the level above)", depth,
                       i);
        break;
      }
      r->iblocks_n++;
      ib->offset = cur[i].offset;
      ib->on_disk_size = cur[i].on_disk_size;
      ib->level = depth;
      ib->type = want;
      bytes += ib->blk.info.uncompressed_size;
      if (bytes > RD_MAX_INDEX_BYTES) {
        rc = hfg_err_set(&r->err, HFG_ECORRUPT, "index larger than %" PRIu64 " bytes",
                         (uint64_t)RD_MAX_INDEX_BYTES);
        break;
      }
      if ((rc = rd_nonroot_check(ib->blk.data, ib->blk.len, &ib->n, &r->err, ib->offset))) break;
      if (grow((void **)&next, &next_cap, next_n + ib->n, sizeof *next)) {
        rc = hfg_err_set(&r->err, HFG_ENOMEM, "out of memory loading the index");
        break;
      }
      for (uint32_t j = 0; j < ib->n && !rc; j++) {
        rd_nonroot_entry(ib->blk.data, j, &next[next_n]);
        rc = check_order(r, &next[next_n], &prev, depth, next_n);
        next_n++;
      }
    }
    if (cur != r->root) hfg_free(cur);
    cur = next;
    cur_n = next_n;
    next = NULL;
  }
  if (rc) {
    if (cur != r->root) hfg_free(cur);
    return rc;
  }
  r->data = cur;
  r->data_n = cur_n;
  if (r->iblocks_n > 1) qsort(r->iblocks, r->iblocks_n, sizeof *r->iblocks, cmp_iblock);

  hfg_index_summary *s = &r->idx_sum;
  memset(s, 0, sizeof *s);
  s->levels = levels;
  s->root_entries = r->root_n;
  for (size_t i = 0; i < r->iblocks_n; i++) {
    if (r->iblocks[i].type == HFG_BLOCK_LEAF_INDEX) s->leaf_blocks++;
    else s->intermediate_blocks++;
  }
  s->data_blocks = r->data_n;
  s->index_uncompressed_bytes = bytes;
  s->has_mid_key_meta = r->has_mid_meta;
  s->mid_leaf_offset = r->mid_leaf_offset;
  s->mid_leaf_on_disk_size = r->mid_leaf_size;
  s->mid_key_entry = r->mid_key_entry;
  /* HFileBlockIndex.CellBasedKeyBlockIndexReader.midkey */
  if (levels == 1 && r->root_n) {
    s->mid_key = r->root[r->root_n / 2].key;
    s->mid_key_len = r->root[r->root_n / 2].key_len;
  } else if (r->has_mid_meta) {
    const rd_iblock *ib = rd_index_find_iblock(r, r->mid_leaf_offset);
    if (ib && ib->type == HFG_BLOCK_LEAF_INDEX && r->mid_key_entry < ib->n) {
      hfg_index_entry e;
      rd_nonroot_entry(ib->blk.data, r->mid_key_entry, &e);
      s->mid_key = e.key;
      s->mid_key_len = e.key_len;
    }
  }
  return 0;
}

int rd_index_load(hfg_reader *r) {
  if (r->idx_loaded > 0) return 0;
  if (r->idx_loaded < 0) /* a failed load is not retried: report it again */
    return hfg_err_set(&r->err, r->idx_err.code, "%s", r->idx_err.msg);
  int rc = load(r);
  if (rc) {
    rd_index_free(r);
    r->idx_loaded = rc;
    r->idx_err = r->err;
    return rc;
  }
  r->idx_loaded = 1;
  return 0;
}

/* Last entry whose key <= key, or -1. */
static long search(hfg_comparator_kind kind, const uint8_t *blk, const hfg_index_entry *root,
                   size_t n, const uint8_t *key, size_t key_len) {
  long lo = 0, hi = (long)n - 1, ans = -1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    hfg_index_entry e;
    if (root) e = root[mid];
    else rd_nonroot_entry(blk, (uint32_t)mid, &e);
    if (rd_compare_keys(kind, e.key, e.key_len, key, key_len) <= 0) {
      ans = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return ans;
}

int hfg_reader_locate(hfg_reader *r, const uint8_t *key, size_t key_len, hfg_index_entry *out) {
  RD_ENTER(r);
  hfg_comparator_kind kind = r->meta.comparator;
  if (kind == HFG_CMP_META)
    return hfg_err_set(&r->err, HFG_EUNSUPPORTED, "seeking in hbase:meta files is not supported");
  long i = search(kind, NULL, r->root, r->root_n, key, key_len);
  if (i < 0) return 0;
  hfg_index_entry e = r->root[i];
  uint32_t levels = r->trailer.num_data_index_levels;
  for (uint32_t depth = 1; depth < levels; depth++) {
    hfg_block_type want = depth == levels - 1 ? HFG_BLOCK_LEAF_INDEX : HFG_BLOCK_INTERMEDIATE_INDEX;
    const uint8_t *p;
    uint32_t n;
    const rd_iblock *ib = r->idx_loaded > 0 ? rd_index_find_iblock(r, e.offset) : NULL;
    if (ib) {
      if (ib->type != want || ib->on_disk_size != e.on_disk_size)
        return hfg_err_set(&r->err, HFG_ECORRUPT,
                           "index level %" PRIu32 ": entry points at the %s block at offset %" PRIu64
                           " of size %" PRIu32 ", expected a %s block of size %" PRIu32,
                           depth, hfg_block_type_name(ib->type), e.offset, ib->on_disk_size,
                           hfg_block_type_name(want), e.on_disk_size);
      p = ib->blk.data;
      n = ib->n;
    } else {
      int rc = rd_block_read(r, e.offset, r->trailer.load_on_open_offset, e.on_disk_size,
                             (int)want, &r->loc_blk);
      if (!rc) rc = rd_nonroot_check(r->loc_blk.data, r->loc_blk.len, &n, &r->err, e.offset);
      if (rc) return rc;
      p = r->loc_blk.data;
    }
    if (n == 0)
      return hfg_err_set(&r->err, HFG_ECORRUPT, "index block at offset %" PRIu64 " has no entries",
                         e.offset);
    long j = search(kind, p, NULL, n, key, key_len);
    /* HBase throws when key is before the block's first key (the parent key
     * was larger than it); the block's first entry is the best answer. */
    rd_nonroot_entry(p, (uint32_t)(j < 0 ? 0 : j), &e);
  }
  *out = e;
  return 1;
}

/* ---- public accessors ---- */

size_t hfg_reader_root_count(const hfg_reader *r) { return r->open_code < 0 ? 0 : r->root_n; }

int hfg_reader_root_entry(const hfg_reader *r, size_t i, hfg_index_entry *out) {
  if (r->open_code < 0) return r->open_code;
  if (i >= r->root_n) return HFG_EINVAL;
  *out = r->root[i];
  return 0;
}

size_t hfg_reader_meta_index_count(const hfg_reader *r) {
  return r->open_code < 0 ? 0 : r->meta_idx_n;
}

int hfg_reader_meta_index_entry(const hfg_reader *r, size_t i, hfg_index_entry *out) {
  if (r->open_code < 0) return r->open_code;
  if (i >= r->meta_idx_n) return HFG_EINVAL;
  *out = r->meta_idx[i];
  return 0;
}

int hfg_reader_load_index(hfg_reader *r, hfg_index_summary *out) {
  RD_ENTER(r);
  int rc = rd_index_load(r);
  if (rc) return rc;
  if (out) *out = r->idx_sum;
  return 0;
}

size_t hfg_reader_data_block_count(const hfg_reader *r) {
  return r->open_code < 0 || r->idx_loaded <= 0 ? 0 : r->data_n;
}

int hfg_reader_data_block(const hfg_reader *r, size_t i, hfg_index_entry *out) {
  if (r->open_code < 0) return r->open_code;
  if (r->idx_loaded <= 0) return HFG_ESTATE;
  if (i >= r->data_n) return HFG_EINVAL;
  *out = r->data[i];
  return 0;
}

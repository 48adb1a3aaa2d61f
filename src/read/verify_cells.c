/*
 * Verification of cell content (format-specs/reader-checks.md, "Cells" and
 * "File info"): cell layout and order (CellComparatorImpl), one family, known
 * types, well-formed tags, mvcc bytes consistent with MAX_MEMSTORE_TS_KEY,
 * index keys around each block (HFileWriterImpl.getMidpoint's contract:
 * lastKey(prev) < indexKey <= firstKey, exact for the first block), a seek
 * through the index per block, no bloom false negatives (StoreFileWriter's
 * RowBloomContext / RowColBloomContext / delete-family bloom), and the file
 * info values HFileWriterImpl.finishFileInfo and StoreFileWriter write.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "read/verify_int.h"
#include "util/coding.h"

#define KEYBUF 320

static int copy_buf(hfg_buf *b, const uint8_t *p, size_t n) {
  hfg_buf_reset(b);
  return hfg_buf_append(b, p, n);
}

static int known_type(uint8_t t) { return t == 4 || t == 8 || t == 10 || t == 12 || t == 14; }

/* Tags: (tagLength:be16 covering type + value, type:u8, value)*; Tag.java. */
static int tags_ok(const uint8_t *p, size_t n) {
  size_t at = 0;
  while (at < n) {
    if (n - at < 3) return 0;
    size_t tl = hfg_get_be16(p + at);
    if (tl < 1 || tl > n - at - 2) return 0;
    at += 2 + tl;
  }
  return 1;
}

static int bloom_add(vstate *v, const hfg_read_cell *c, const rd_key *prev) {
  hfg_reader *r = v->r;
  const hfg_cell *k = &c->cell;
  hfg_bloom_type bt = r->meta.bloom_type;
  int same_row = prev && rd_bytes_cmp(prev->row, prev->row_len, k->row, k->row_len) == 0;
  if (v->bloom_checked) {
    int is_new = !same_row;
    size_t brl = k->row_len; /* the bloom's row: ROWPREFIX keeps the first N bytes */
    if (bt == HFG_BLOOM_ROWPREFIX) {
      size_t n = r->meta.bloom_prefix_length;
      size_t pl = prev ? (prev->row_len < n ? prev->row_len : n) : 0;
      if (brl > n) brl = n;
      is_new = !prev || rd_bytes_cmp(prev->row, pl, k->row, brl) != 0;
    }
    if (bt == HFG_BLOOM_ROWCOL && same_row)
      is_new = rd_bytes_cmp(prev->fam, prev->fam_len, k->family, k->family_len) != 0 ||
               rd_bytes_cmp(prev->qual, prev->qual_len, k->qualifier, k->qualifier_len) != 0;
    if (is_new) {
      int rc = hfg_reader_bloom_check(r, k->row, k->row_len, k->qualifier, k->qualifier_len);
      if (rc < 0) return vreader(v, rc);
      if (rc == 0) {
        char kb[KEYBUF];
        hfg_format_key(c->key, c->key_len, kb, sizeof kb);
        return vfail(v, "general bloom (%s) denies the cell %s in block at offset %" PRIu64
                        ": a Get for it would find nothing",
                     bt == HFG_BLOOM_ROW      ? "ROW"
                     : bt == HFG_BLOOM_ROWCOL ? "ROWCOL"
                                              : "ROWPREFIX_FIXED_LENGTH",
                     kb, c->block_offset);
      }
      v->bloom_keys++;
      hfg_buf_reset(&v->last_bloom_key);
      if (hfg_bloom_key(bt == HFG_BLOOM_ROWPREFIX ? HFG_BLOOM_ROW : bt, k->row,
                        bt == HFG_BLOOM_ROWPREFIX ? brl : k->row_len, k->qualifier,
                        k->qualifier_len, &v->last_bloom_key))
        return vfail(v, "out of memory");
    }
  }
  if (k->type == 14 || k->type == 10) {
    v->df_count++;
    int df_new = !v->df_have || rd_bytes_cmp(v->df_prev_row.p, v->df_prev_row.len, k->row,
                                             k->row_len) != 0;
    if (df_new) {
      if (copy_buf(&v->df_prev_row, k->row, k->row_len)) return vfail(v, "out of memory");
      v->df_have = 1;
      if (v->df_bloom_checked) {
        int rc = hfg_reader_delete_family_bloom_check(r, k->row, k->row_len);
        if (rc < 0) return vreader(v, rc);
        if (rc == 0) {
          char kb[KEYBUF];
          hfg_format_key(c->key, c->key_len, kb, sizeof kb);
          return vfail(v, "delete-family bloom denies the row of %s (block at offset %" PRIu64 ")",
                       kb, c->block_offset);
        }
        v->df_bloom_keys++;
      }
    }
  }
  return 0;
}

static int check_index_key(vstate *v, const rd_block *b, size_t i, const hfg_read_cell *first) {
  hfg_reader *r = v->r;
  const hfg_index_entry *e = &r->data[i];
  char kb[KEYBUF], fb[KEYBUF], pb[KEYBUF];
  if (v->kind != HFG_CMP_RAW && hfg_parse_key(e->key, e->key_len, &(hfg_cell){0}) != 0)
    return vfail(v, "data index entry %zu (block at offset %" PRIu64 "): key is malformed", i,
                 b->info.offset);
  if (i == 0) {
    /* getMidpoint(null, first) = the first cell's key: getFirstKey() and the
     * bulk loader's first-row check read it */
    if (e->key_len != first->key_len || memcmp(e->key, first->key, e->key_len) != 0) {
      hfg_format_key(e->key, e->key_len, kb, sizeof kb);
      hfg_format_key(first->key, first->key_len, fb, sizeof fb);
      return vfail(v, "first data index key %s is not the first cell's key %s", kb, fb);
    }
    if (r->root_n && (r->root[0].key_len != first->key_len ||
                      memcmp(r->root[0].key, first->key, first->key_len) != 0)) {
      hfg_format_key(r->root[0].key, r->root[0].key_len, kb, sizeof kb);
      hfg_format_key(first->key, first->key_len, fb, sizeof fb);
      return vfail(v, "root index key 0 %s is not the first cell's key %s", kb, fb);
    }
    return 0;
  }
  if (rd_compare_keys(v->kind, e->key, e->key_len, first->key, first->key_len) > 0) {
    hfg_format_key(e->key, e->key_len, kb, sizeof kb);
    hfg_format_key(first->key, first->key_len, fb, sizeof fb);
    return vfail(v, "data index key %s of block %zu (offset %" PRIu64
                    ") is after the block's first key %s",
                 kb, i, b->info.offset, fb);
  }
  if (rd_compare_keys(v->kind, e->key, e->key_len, v->prev_key.p, v->prev_key.len) <= 0) {
    hfg_format_key(e->key, e->key_len, kb, sizeof kb);
    hfg_format_key(v->prev_key.p, v->prev_key.len, pb, sizeof pb);
    return vfail(v, "data index key %s of block %zu (offset %" PRIu64
                    ") is not after the previous block's last key %s",
                 kb, i, b->info.offset, pb);
  }
  return 0;
}

static int check_seek(vstate *v, const rd_block *b, const hfg_read_cell *first) {
  hfg_index_entry e;
  int rc = hfg_reader_locate(v->r, first->key, first->key_len, &e);
  if (rc < 0) return vreader(v, rc);
  if (rc == 0 || e.offset != b->info.offset) {
    char fb[KEYBUF];
    hfg_format_key(first->key, first->key_len, fb, sizeof fb);
    if (rc == 0)
      return vfail(v, "seeking %s (first key of block at offset %" PRIu64
                      ") through the index finds no block",
                   fb, b->info.offset);
    return vfail(v, "seeking %s (first key of block at offset %" PRIu64
                    ") through the index lands on block %" PRIu64,
                 fb, b->info.offset, e.offset);
  }
  return 0;
}

int verify_data_block(vstate *v, const rd_block *b, size_t i) {
  if (b->len == 0)
    return vfail(v, "DATA block at offset %" PRIu64 " is empty (HBase never writes one)",
                 b->info.offset);
  size_t pos = 0;
  int first_in_block = 1;
  /* the previous cell's key: the previous block's last key (copied), then a
   * pointer into this block's payload, copied once at the end of the block */
  const uint8_t *pk = v->have_prev ? v->prev_key.p : NULL;
  size_t pkl = v->prev_key.len;
  rd_key prev;
  int have_pk = pk && rd_key_parse(pk, pkl, &prev, NULL) == 0;
  while (pos < b->len) {
    hfg_read_cell c;
    size_t next;
    hfg_err err;
    hfg_err_clear(&err);
    if (rd_cell_parse(b->data, b->len, pos, &v->flags, &c, &next, &err))
      return vfail(v, "block at offset %" PRIu64 " (DATABLK*): %s", b->info.offset, err.msg);
    c.block_offset = b->info.offset;
    const hfg_cell *k = &c.cell;
    char kb[KEYBUF], pb[KEYBUF];
    if (!known_type(k->type)) {
      hfg_format_key(c.key, c.key_len, kb, sizeof kb);
      return vfail(v, "cell %s in block at offset %" PRIu64
                      " has type code %u, not one HBase stores in files",
                   kb, b->info.offset, k->type);
    }
    if (!pk) {
      if (copy_buf(&v->family, k->family, k->family_len) ||
          copy_buf(&v->first_key, c.key, c.key_len))
        return vfail(v, "out of memory");
    } else if (v->family.len != k->family_len ||
               (k->family_len && memcmp(v->family.p, k->family, k->family_len) != 0)) {
      hfg_format_key(c.key, c.key_len, kb, sizeof kb);
      return vfail(v, "cell %s in block at offset %" PRIu64
                      " has another family than the file's first cell (one family per HFile)",
                   kb, b->info.offset);
    }
    rd_key cur = {k->row, k->row_len, k->family, k->family_len, k->qualifier, k->qualifier_len,
                  k->timestamp, k->type};
    if (pk) {
      int cmp = v->kind == HFG_CMP_RAW ? rd_bytes_cmp(pk, pkl, c.key, c.key_len)
                : have_pk          ? rd_key_cmp(&prev, &cur)
                                   : rd_compare_keys(v->kind, pk, pkl, c.key, c.key_len);
      if (cmp > 0) {
        hfg_format_key(pk, pkl, pb, sizeof pb);
        hfg_format_key(c.key, c.key_len, kb, sizeof kb);
        return vfail(v, "cells out of order in block at offset %" PRIu64
                        " (payload offset %zu): %s sorts after the next cell %s",
                     b->info.offset, pos, pb, kb);
      }
      /* Equal keys (row, family, qualifier, timestamp, type; sorted cells
       * put them side by side) in a column family's file: a Get or scan
       * returns one of them and the other value is gone. Only a newer mvcc
       * (a flushed memstore) tells them apart; bulk-load files have none.
       * Files without a family (Hudi's key-value HFiles, like the non-unique
       * fixture) are no table's store and may repeat keys. */
      if (cmp == 0 && k->family_len && c.mvcc == v->prev_mvcc) {
        hfg_format_key(c.key, c.key_len, kb, sizeof kb);
        return vfail(v, "two cells with the same key %s (cells %" PRIu64 " and %" PRIu64
                        ", block at offset %" PRIu64
                        "): HBase returns only one of them and the other value is lost",
                     kb, v->cells, v->cells + 1, b->info.offset);
      }
    }
    if (first_in_block) {
      int rc = check_index_key(v, b, i, &c);
      if (!rc) rc = check_seek(v, b, &c);
      if (rc) return rc;
      first_in_block = 0;
    }
    if (k->tags_len && !tags_ok(k->tags, k->tags_len)) {
      hfg_format_key(c.key, c.key_len, kb, sizeof kb);
      return vfail(v, "cell %s in block at offset %" PRIu64 ": malformed tags (%zu bytes)", kb,
                   b->info.offset, k->tags_len);
    }
    if (v->flags.mvcc && !v->flags.decode_mvcc && b->data[next - 1] != 0) {
      hfg_format_key(c.key, c.key_len, kb, sizeof kb);
      return vfail(v, "cell %s in block at offset %" PRIu64
                      ": mvcc byte 0x%02x but MAX_MEMSTORE_TS_KEY is 0 (HBase skips one byte "
                      "and would read this as 0)",
                   kb, b->info.offset, b->data[next - 1]);
    }
    if (!have_pk || rd_bytes_cmp(prev.row, prev.row_len, k->row, k->row_len) != 0) v->rows++;
    int rc = bloom_add(v, &c, have_pk ? &prev : NULL);
    if (rc) return rc;
    v->cells++;
    v->total_key_len += c.key_len;
    v->total_value_len += k->value_len;
    if (k->tags_len > v->max_tags) v->max_tags = (uint32_t)k->tags_len;
    /* HFileWriterImpl.append: the first cell of the largest estimatedSerializedSizeOf
     * (KeyValue length + 4; the tags and their length only when there are tags) */
    for (int w = 0; w < 2; w++) {
      uint64_t size = 4 + 8 + c.key_len + k->value_len +
                      (k->tags_len || (w && v->r->meta.includes_tags) ? 2 + k->tags_len : 0);
      if (size <= v->biggest_len[w]) continue;
      v->biggest_len[w] = size;
      hfg_buf_reset(&v->biggest_key[w]);
      if (hfg_buf_append(&v->biggest_key[w], c.key, c.key_len))
        return vreader(v, hfg_err_set(&v->r->err, HFG_ENOMEM, "out of memory"));
    }
    if (c.mvcc > v->max_mvcc) v->max_mvcc = c.mvcc;
    /* TimeRangeTracker.includeTimestamp(Cell): DeleteColumn / DeleteFamily also include 0 */
    if (k->timestamp < v->min_ts) v->min_ts = k->timestamp;
    if (k->timestamp > v->max_ts) v->max_ts = k->timestamp;
    if ((k->type == 12 || k->type == 14) && v->min_ts > 0) v->min_ts = 0;
    if (k->type == 4 && k->timestamp < v->earliest_put) v->earliest_put = k->timestamp;
    pk = c.key;
    pkl = c.key_len;
    v->prev_mvcc = c.mvcc;
    prev = cur;
    have_pk = 1;
    pos = next;
  }
  /* the block's last key, kept for the next block and LASTKEY */
  if (copy_buf(&v->prev_key, pk, pkl)) return vfail(v, "out of memory");
  v->have_prev = 1;
  return 0;
}

/* ---- file info ---- */

static int fi_len(vstate *v, const char *key, const rd_fi_entry *f, size_t want) {
  if (f->val_len != want)
    return vfail(v, "file info %s has %zu bytes, expected %zu", key, f->val_len, want);
  return 0;
}

static int fi_long(vstate *v, const char *key, int64_t want, int required) {
  const rd_fi_entry *f = rd_fileinfo_find(v->r, key);
  if (!f) return required ? vfail(v, "file info %s is missing", key) : 0;
  int rc = fi_len(v, key, f, 8);
  if (rc) return rc;
  int64_t got = (int64_t)hfg_get_be64(f->val);
  if (got != want)
    return vfail(v, "file info %s is %" PRId64 " but the cells give %" PRId64, key, got, want);
  return 0;
}

static int fi_int(vstate *v, const char *key, int64_t want, int required) {
  const rd_fi_entry *f = rd_fileinfo_find(v->r, key);
  if (!f) return required ? vfail(v, "file info %s is missing", key) : 0;
  int rc = fi_len(v, key, f, 4);
  if (rc) return rc;
  int32_t got = (int32_t)hfg_get_be32(f->val);
  if (got != want)
    return vfail(v, "file info %s is %" PRId32 " but the cells give %" PRId64, key, got, want);
  return 0;
}

int verify_fileinfo(vstate *v) {
  hfg_reader *r = v->r;
  const hfg_trailer *t = &r->trailer;
  const rd_fi_entry *f;
  char kb[KEYBUF], pb[KEYBUF];
  int rc;

  if (t->entry_count != v->cells)
    return vfail(v, "trailer entry_count %" PRIu64 " but the data blocks hold %" PRIu64 " cells",
                 t->entry_count, v->cells);
  /* HFileInfo.write: a TreeMap under Bytes.BYTES_COMPARATOR, so sorted, unique */
  for (size_t i = 1; i < r->fi_n; i++) {
    int c = rd_bytes_cmp(r->fi[i - 1].key, r->fi[i - 1].key_len, r->fi[i].key, r->fi[i].key_len);
    if (c >= 0)
      return vfail(v, "file info keys not in strictly ascending byte order at \"%.*s\"",
                   (int)(r->fi[i].key_len > 60 ? 60 : r->fi[i].key_len),
                   (const char *)r->fi[i].key);
  }
  /* HFileWriterImpl.finishFileInfo: integer averages, 0 for an empty file */
  uint64_t n = v->cells;
  if ((rc = fi_int(v, "hfile.AVG_KEY_LEN", n ? (int64_t)(v->total_key_len / n) : 0, 1))) return rc;
  if ((rc = fi_int(v, "hfile.AVG_VALUE_LEN", n ? (int64_t)(v->total_value_len / n) : 0, 1)))
    return rc;
  f = rd_fileinfo_find(r, "hfile.LASTKEY");
  if (n && !f) return vfail(v, "file info hfile.LASTKEY is missing");
  if (f && !n) return vfail(v, "file info hfile.LASTKEY present in a file without cells");
  if (f && (f->val_len != v->prev_key.len || memcmp(f->val, v->prev_key.p, f->val_len) != 0)) {
    hfg_format_key(f->val, f->val_len, kb, sizeof kb);
    hfg_format_key(v->prev_key.p, v->prev_key.len, pb, sizeof pb);
    return vfail(v, "file info hfile.LASTKEY %s is not the last cell's key %s", kb, pb);
  }
  if (r->meta.includes_tags && (rc = fi_int(v, "hfile.MAX_TAGS_LEN", v->max_tags, 1))) return rc;
  if (!r->meta.includes_tags && v->max_tags)
    return vfail(v, "cells carry tags but file info has no hfile.MAX_TAGS_LEN");
  if ((f = rd_fileinfo_find(r, "hfile.TAGS_COMPRESSED")) &&
      (rc = fi_len(v, "hfile.TAGS_COMPRESSED", f, 1)))
    return rc;
  if ((f = rd_fileinfo_find(r, "KEY_VALUE_VERSION"))) {
    if ((rc = fi_len(v, "KEY_VALUE_VERSION", f, 4))) return rc;
    if (hfg_get_be32(f->val) != 1)
      return vfail(v, "file info KEY_VALUE_VERSION is %" PRIu32 "; HBase knows only 1",
                   hfg_get_be32(f->val));
  }
  if (r->meta.includes_mvcc &&
      (rc = fi_long(v, "MAX_MEMSTORE_TS_KEY", r->meta.decode_mvcc ? v->max_mvcc : 0, 1)))
    return rc;
  if ((f = rd_fileinfo_find(r, "hfile.CREATE_TIME_TS")) &&
      (rc = fi_len(v, "hfile.CREATE_TIME_TS", f, 8)))
    return rc;
  /* HBase 2.6 writes both with the first cell; older writers neither. The
   * length is one of the two measures, the key that measure's biggest cell. */
  int w = 0;
  if ((f = rd_fileinfo_find(r, "hfile.LEN_OF_BIGGEST_CELL"))) {
    if ((rc = fi_len(v, "hfile.LEN_OF_BIGGEST_CELL", f, 8))) return rc;
    uint64_t got = hfg_get_be64(f->val);
    w = got == v->biggest_len[0] ? 0 : got == v->biggest_len[1] ? 1 : -1;
    if (w < 0)
      return vfail(v, "file info hfile.LEN_OF_BIGGEST_CELL is %" PRIu64 " but the biggest cell "
                      "is %" PRIu64 " bytes (%" PRIu64 " with its tags length)",
                   got, v->biggest_len[0], v->biggest_len[1]);
  }
  if ((f = rd_fileinfo_find(r, "hfile.KEY_OF_BIGGEST_CELL")) && v->kind != HFG_CMP_RAW &&
      hfg_parse_key(f->val, f->val_len, &(hfg_cell){0}) != 0)
    return vfail(v, "file info hfile.KEY_OF_BIGGEST_CELL is not a KeyValue key");
  const hfg_buf *bk = &v->biggest_key[w];
  if (f && (f->val_len != bk->len || memcmp(f->val, bk->p, f->val_len))) {
    hfg_format_key(f->val, f->val_len, kb, sizeof kb);
    hfg_format_key(bk->p, bk->len, pb, sizeof pb);
    return vfail(v, "file info hfile.KEY_OF_BIGGEST_CELL %s is not the key of the biggest cell, %s",
                 kb, bk->len ? pb : "(no cells)");
  }
  if ((f = rd_fileinfo_find(r, "DATA_BLOCK_ENCODING")) && rd_fileinfo_encoding_id(r) < 0)
    return vfail(v, "file info DATA_BLOCK_ENCODING '%.*s' is not NONE, PREFIX, DIFF, FAST_DIFF or "
                    "ROW_INDEX_V1",
                 (int)(f->val_len > 40 ? 40 : f->val_len), (const char *)f->val);

  /* StoreFileWriter: TIMERANGE (initial Long.MAX_VALUE / -1), EARLIEST_PUT_TS,
   * DELETE_FAMILY_COUNT */
  if ((f = rd_fileinfo_find(r, "TIMERANGE"))) {
    int64_t lo, hi;
    if (hfg_decode_timerange(f->val, f->val_len, &lo, &hi))
      return vfail(v, "file info TIMERANGE (%zu bytes) does not decode", f->val_len);
    int64_t want_lo = n ? v->min_ts : INT64_MAX, want_hi = n ? v->max_ts : -1;
    if (lo != want_lo || hi != want_hi)
      return vfail(v, "file info TIMERANGE is %" PRId64 "..%" PRId64 " but the cells give %" PRId64
                      "..%" PRId64,
                   lo, hi, want_lo, want_hi);
  }
  if ((rc = fi_long(v, "EARLIEST_PUT_TS", v->earliest_put, 0))) return rc;
  if ((rc = fi_long(v, "DELETE_FAMILY_COUNT", (int64_t)v->df_count, 0))) return rc;
  if ((f = rd_fileinfo_find(r, "MAJOR_COMPACTION_KEY")) &&
      (rc = fi_len(v, "MAJOR_COMPACTION_KEY", f, 1)))
    return rc;
  if ((f = rd_fileinfo_find(r, "EXCLUDE_FROM_MINOR_COMPACTION")) &&
      (rc = fi_len(v, "EXCLUDE_FROM_MINOR_COMPACTION", f, 1)))
    return rc;
  if ((f = rd_fileinfo_find(r, "BULKLOAD_TIMESTAMP")) &&
      (rc = fi_len(v, "BULKLOAD_TIMESTAMP", f, 8)))
    return rc;

  /* blooms: StoreFileWriter.closeGeneralBloomFilter writes BLOOM_FILTER_TYPE and
   * LAST_BLOOM_KEY only with a bloom of >= 1 key */
  f = rd_fileinfo_find(r, "BLOOM_FILTER_TYPE");
  if (f && !r->bloom[0].present)
    return vfail(v, "file info BLOOM_FILTER_TYPE is set but there is no BLMFMET2 block");
  if (r->bloom[0].present) {
    if (!f) return vfail(v, "BLMFMET2 block present but file info has no BLOOM_FILTER_TYPE");
    hfg_bloom_summary bs;
    if ((rc = hfg_reader_bloom(r, 0, &bs)) < 0) return vreader(v, rc);
    if (bs.total_key_count != (int64_t)v->bloom_keys)
      return vfail(v, "general bloom meta counts %" PRId64 " keys but the cells give %" PRIu64,
                   bs.total_key_count, v->bloom_keys);
    const rd_fi_entry *lk = rd_fileinfo_find(r, "LAST_BLOOM_KEY");
    if (!lk) return vfail(v, "file info LAST_BLOOM_KEY is missing for a file with a bloom");
    if (lk->val_len != v->last_bloom_key.len ||
        memcmp(lk->val, v->last_bloom_key.p, lk->val_len) != 0)
      return vfail(v, "file info LAST_BLOOM_KEY is not the last bloom key of the cells "
                      "(keys after it would be reported absent)");
  } else if (rd_fileinfo_find(r, "LAST_BLOOM_KEY")) {
    return vfail(v, "file info LAST_BLOOM_KEY present without a bloom");
  }
  if (r->bloom[1].present) {
    hfg_bloom_summary bs;
    if ((rc = hfg_reader_bloom(r, 1, &bs)) < 0) return vreader(v, rc);
    if (bs.total_key_count != (int64_t)v->df_bloom_keys)
      return vfail(v, "delete-family bloom meta counts %" PRId64
                      " keys but the cells give %" PRIu64,
                   bs.total_key_count, v->df_bloom_keys);
  }
  return 0;
}

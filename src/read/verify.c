/*
 * hfg_verify: every structural check of format-specs/reader-checks.md in one
 * pass over the file. The index, bloom metas and meta index are loaded first
 * and turned into expectations; then every block from offset 0 to the trailer
 * is read (header sanity, checksums, decompression), matched against those
 * expectations in file order, chained by prevBlockOffset per block type
 * (HFileBlock.Writer.prevOffsetByType) and, for DATA blocks, handed to
 * verify_cells.c. The load-on-open section must hold exactly data root index,
 * meta index, file info, then optionally the general and delete-family bloom
 * metas (HFileInfo.initMetaAndIndex, StoreFileWriter.close).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/verify_int.h"
#include "util/alloc.h"

int vfail(vstate *v, const char *fmt, ...) {
  if (!v->rep->message[0]) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->rep->message, sizeof v->rep->message, fmt, ap);
    va_end(ap);
  }
  return HFG_EVERIFY;
}

int vreader(vstate *v, int rc) {
  if (!v->rep->message[0])
    snprintf(v->rep->message, sizeof v->rep->message, "%s",
             v->r->err.msg[0] ? v->r->err.msg : hfg_strerror(rc));
  return rc;
}

void vstate_free(vstate *v) {
  hfg_buf_free(&v->prev_key);
  hfg_buf_free(&v->biggest_key[0]);
  hfg_buf_free(&v->biggest_key[1]);
  hfg_buf_free(&v->family);
  hfg_buf_free(&v->df_prev_row);
  hfg_buf_free(&v->last_bloom_key);
  hfg_buf_free(&v->first_key);
}

typedef struct chunk_ref {
  uint64_t offset;
  uint32_t size;
  int which;
} chunk_ref;

typedef struct walk {
  chunk_ref *chunks;
  size_t chunk_n, next_chunk;
  hfg_index_entry *metas; /* meta index sorted by offset */
  size_t meta_n, next_meta;
  size_t iblocks_seen;
  uint64_t sum_uncompressed; /* HBase's totalUncompressedBytes */
  uint64_t bloom_bytes[2];
} walk;

static int cmp_chunk(const void *a, const void *b) {
  uint64_t x = ((const chunk_ref *)a)->offset, y = ((const chunk_ref *)b)->offset;
  return x < y ? -1 : x > y;
}

static int cmp_entry(const void *a, const void *b) {
  uint64_t x = ((const hfg_index_entry *)a)->offset, y = ((const hfg_index_entry *)b)->offset;
  return x < y ? -1 : x > y;
}

static int setup(vstate *v, walk *w) {
  hfg_reader *r = v->r;
  int rc;
  for (int which = 0; which < 2; which++) {
    if (!r->bloom[which].present) continue;
    hfg_bloom_summary bs;
    if ((rc = hfg_reader_bloom(r, which, &bs)) < 0) return vreader(v, rc);
    const hfg_bloom_meta *m = &r->bloom[which].meta;
    if (m->num_chunks < 1)
      return vfail(v, "%s bloom meta lists no chunks", which ? "delete-family" : "general");
    chunk_ref *nc = hfg_realloc(w->chunks, (w->chunk_n + (size_t)m->num_chunks) * sizeof *nc);
    if (!nc) return vfail(v, "out of memory");
    w->chunks = nc;
    for (int32_t i = 0; i < m->num_chunks; i++)
      w->chunks[w->chunk_n++] = (chunk_ref){m->chunk_offset[i], m->chunk_on_disk_size[i], which};
  }
  if (w->chunk_n) qsort(w->chunks, w->chunk_n, sizeof *w->chunks, cmp_chunk);
  for (size_t i = 1; i < w->chunk_n; i++)
    if (w->chunks[i].offset == w->chunks[i - 1].offset)
      return vfail(v, "two bloom chunks at offset %" PRIu64, w->chunks[i].offset);
  if (r->meta_idx_n) {
    w->metas = hfg_malloc(r->meta_idx_n * sizeof *w->metas);
    if (!w->metas) return vfail(v, "out of memory");
    memcpy(w->metas, r->meta_idx, r->meta_idx_n * sizeof *w->metas);
    qsort(w->metas, r->meta_idx_n, sizeof *w->metas, cmp_entry);
    w->meta_n = r->meta_idx_n;
  }
  return 0;
}

/* Root trailing bytes, parent key == child's first key, mid-key metadata. */
static int check_index(vstate *v) {
  hfg_reader *r = v->r;
  uint32_t L = r->trailer.num_data_index_levels;
  if (L == 1 && r->root_trailing)
    return vfail(v, "single-level data root index has %zu bytes after its %zu entries",
                 r->root_trailing, r->root_n);
  if (L == 1) return 0;
  if (r->root_n == 0)
    return vfail(v, "trailer says %" PRIu32 " index levels but the root index is empty", L);
  if (r->root_trailing != 16)
    return vfail(v, "%" PRIu32 "-level data root index has %zu bytes after its entries, "
                    "expected the 16-byte mid-key metadata",
                 L, r->root_trailing);
  for (uint32_t d = 1; d < L; d++) {
    /* parents: root entries, or the entries of the level above in order */
    size_t pb = 0, pe = 0;   /* parent block cursor / entry within it */
    size_t k = 0;            /* parent entry number */
    for (size_t c = 0; c < r->iblocks_n; c++) {
      const rd_iblock *ch = &r->iblocks[c];
      if (ch->level != d) continue;
      hfg_index_entry pent;
      if (d == 1) {
        pent = r->root[k];
      } else {
        while (pb < r->iblocks_n && (r->iblocks[pb].level != d - 1 || pe >= r->iblocks[pb].n)) {
          if (r->iblocks[pb].level == d - 1 && pe >= r->iblocks[pb].n) pe = 0;
          pb++;
        }
        if (pb == r->iblocks_n) return vfail(v, "index level %" PRIu32 " has no parent entry", d);
        rd_nonroot_entry(r->iblocks[pb].blk.data, (uint32_t)pe++, &pent);
      }
      k++;
      if (ch->n == 0)
        return vfail(v, "%s block at offset %" PRIu64 " has no entries",
                     hfg_block_type_magic(ch->type), ch->offset);
      hfg_index_entry first;
      rd_nonroot_entry(ch->blk.data, 0, &first);
      if (pent.key_len != first.key_len || memcmp(pent.key, first.key, first.key_len) != 0) {
        char a[320], b[320];
        hfg_format_key(pent.key, pent.key_len, a, sizeof a);
        hfg_format_key(first.key, first.key_len, b, sizeof b);
        return vfail(v, "index key %s pointing at the %s block at offset %" PRIu64
                        " is not that block's first key %s",
                     a, hfg_block_type_magic(ch->type), ch->offset, b);
      }
    }
  }
  /* BlockIndexWriter.writeIndexBlocks / getMidKeyMetadata: the leaf holding
   * data-block entry (N - 1) / 2, and that entry's position in the leaf */
  uint64_t m = (r->data_n - 1) / 2, before = 0;
  for (size_t c = 0; c < r->iblocks_n; c++) {
    const rd_iblock *lf = &r->iblocks[c];
    if (lf->level != L - 1) continue;
    if (m < before + lf->n) {
      if (r->mid_leaf_offset != lf->offset || r->mid_leaf_size != lf->on_disk_size ||
          r->mid_key_entry != m - before)
        return vfail(v, "mid-key metadata (leaf %" PRIu64 ", size %" PRIu32 ", entry %" PRIu32
                        ") should be (leaf %" PRIu64 ", size %" PRIu32 ", entry %" PRIu64
                        ") for %zu data blocks",
                     r->mid_leaf_offset, r->mid_leaf_size, r->mid_key_entry, lf->offset,
                     lf->on_disk_size, m - before, r->data_n);
      return 0;
    }
    before += lf->n;
  }
  return vfail(v, "no leaf index block holds data block entry %" PRIu64, m);
}

/* The expected kind of the load-on-open block number i. */
static int lo_ok(const hfg_reader *r, size_t i, hfg_block_type t, int *seen_general,
                 int *seen_df) {
  if (i < 2) return t == HFG_BLOCK_ROOT_INDEX;
  if (i == 2) return t == HFG_BLOCK_FILE_INFO;
  (void)r;
  if (t == HFG_BLOCK_GENERAL_BLOOM_META && !*seen_general && !*seen_df)
    return *seen_general = 1;
  if (t == HFG_BLOCK_DELETE_FAMILY_BLOOM_META && !*seen_df) return *seen_df = 1;
  return 0;
}

static int walk_blocks(vstate *v, walk *w) {
  hfg_reader *r = v->r;
  const hfg_trailer *t = &r->trailer;
  hfg_verify_report *rep = v->rep;
  uint64_t lo = t->load_on_open_offset, end = r->trailer_off, off = 0;
  int64_t prev[HFG_BLOCK_TYPE_COUNT_];
  for (int i = 0; i < HFG_BLOCK_TYPE_COUNT_; i++) prev[i] = -1;
  int64_t first_data = -1, last_data = -1;
  size_t next_data = 0, lo_i = 0;
  int seen_general = 0, seen_df = 0;
  rd_block b;
  memset(&b, 0, sizeof b);
  int rc = 0;
  while (off < end && !rc) {
    if ((rc = rd_block_read(r, off, end, 0, -1, &b))) {
      rc = vreader(v, rc);
      break;
    }
    const hfg_block_info *in = &b.info;
    const char *mg = hfg_block_type_magic(in->type);
    uint64_t size = in->on_disk_size_with_header;
    if (off < lo && size > lo - off) {
      rc = vfail(v, "block at offset %" PRIu64 " (%s, %" PRIu64
                    " bytes) runs over the load-on-open offset %" PRIu64,
                 off, mg, size, lo);
      break;
    }
    hfg_block_type chain = in->type == HFG_BLOCK_ENCODED_DATA ? HFG_BLOCK_DATA : in->type;
    if (in->prev_block_offset != prev[chain]) {
      rc = vfail(v, "block at offset %" PRIu64 " (%s): prevBlockOffset %" PRId64
                    ", expected %" PRId64 " (the previous %s block)",
                 off, mg, in->prev_block_offset, prev[chain], mg);
      break;
    }
    prev[chain] = (int64_t)off;
    rep->blocks++;
    uint64_t with_hdr = RD_HDR + (uint64_t)in->uncompressed_size;
    if (off < lo) {
      switch (in->type) {
        case HFG_BLOCK_DATA:
        case HFG_BLOCK_ENCODED_DATA: { /* rd_block_read decoded it */
          int want_id = rd_fileinfo_encoding_id(r);
          int got_id = in->type == HFG_BLOCK_ENCODED_DATA ? b.enc_id : 0;
          if (want_id >= 0 && got_id != want_id) {
            rc = vfail(v, "%s block at offset %" PRIu64 " has data block encoding id %d, the file "
                          "info's DATA_BLOCK_ENCODING has id %d",
                       mg, off, got_id, want_id);
            break;
          }
          const hfg_index_entry *e = next_data < r->data_n ? &r->data[next_data] : NULL;
          if (!e || e->offset != off) {
            rc = e ? vfail(v, "DATA block at offset %" PRIu64
                              " is not the next block of the data index (which names offset %" PRIu64
                              ")",
                           off, e->offset)
                   : vfail(v, "DATA block at offset %" PRIu64
                              " is not referenced by the data index (%zu entries)",
                           off, r->data_n);
            break;
          }
          if (e->on_disk_size != size) {
            rc = vfail(v, "data index entry %zu records size %" PRIu32
                          " for the DATA block at offset %" PRIu64 " of size %" PRIu64,
                       next_data, e->on_disk_size, off, size);
            break;
          }
          rc = verify_data_block(v, &b, next_data);
          next_data++;
          if (first_data < 0) first_data = (int64_t)off;
          last_data = (int64_t)off;
          rep->data_blocks++;
          w->sum_uncompressed += with_hdr;
          break;
        }
        case HFG_BLOCK_LEAF_INDEX:
        case HFG_BLOCK_INTERMEDIATE_INDEX: {
          const rd_iblock *ib = rd_index_find_iblock(r, off);
          if (!ib || ib->type != in->type || ib->on_disk_size != size) {
            rc = vfail(v, "%s block at offset %" PRIu64 " is not referenced by the data index%s",
                       mg, off, ib ? " as such a block of this size" : "");
            break;
          }
          w->iblocks_seen++;
          rep->index_blocks++;
          /* totalUncompressedBytes counts inline (leaf) blocks, not intermediate ones */
          if (in->type == HFG_BLOCK_LEAF_INDEX) w->sum_uncompressed += with_hdr;
          break;
        }
        case HFG_BLOCK_BLOOM_CHUNK: {
          const chunk_ref *c = w->next_chunk < w->chunk_n ? &w->chunks[w->next_chunk] : NULL;
          if (!c || c->offset != off || c->size != size) {
            rc = vfail(v, "BLMFBLK2 block at offset %" PRIu64
                          " (%" PRIu64 " bytes) is not the next chunk of a bloom meta%s",
                       off, size, c ? "" : " (no chunks left)");
            break;
          }
          w->bloom_bytes[c->which] += in->uncompressed_size;
          w->next_chunk++;
          rep->bloom_blocks++;
          w->sum_uncompressed += with_hdr;
          break;
        }
        case HFG_BLOCK_META: {
          const hfg_index_entry *e = w->next_meta < w->meta_n ? &w->metas[w->next_meta] : NULL;
          if (!e || e->offset != off || e->on_disk_size != size) {
            rc = vfail(v, "META block at offset %" PRIu64
                          " is not the next block of the meta index",
                       off);
            break;
          }
          w->next_meta++;
          rep->meta_blocks++;
          w->sum_uncompressed += with_hdr;
          break;
        }
        default:
          rc = vfail(v, "%s block at offset %" PRIu64 " lies before the load-on-open section (%" PRIu64
                        ")",
                     mg, off, lo);
      }
    } else {
      if (lo_i == 0 && off != lo) {
        rc = vfail(v, "no block starts at the load-on-open offset %" PRIu64, lo);
        break;
      }
      if (!lo_ok(r, lo_i, in->type, &seen_general, &seen_df)) {
        rc = vfail(v, "load-on-open block %zu at offset %" PRIu64 " is %s; expected %s", lo_i + 1,
                   off, mg,
                   lo_i < 2    ? "IDXROOT2"
                   : lo_i == 2 ? "FILEINF2"
                               : "BLMFMET2 then DFBLMET2, each at most once");
        break;
      }
      if (lo_i == 2 && off != t->file_info_offset) {
        rc = vfail(v, "FILEINF2 block at offset %" PRIu64 " but trailer file_info_offset is %" PRIu64,
                   off, t->file_info_offset);
        break;
      }
      if (lo_i == 0) rep->index_blocks++;
      else w->sum_uncompressed += with_hdr; /* not the data root index */
      if (lo_i >= 3) rep->bloom_blocks++;
      lo_i++;
    }
    off += size;
  }
  rd_block_release(&b);
  if (rc) return rc;
  if (lo_i < 3)
    return vfail(v, "load-on-open section at %" PRIu64 " has %zu blocks; it needs IDXROOT2, "
                    "IDXROOT2, FILEINF2",
                 lo, lo_i);
  if (next_data != r->data_n)
    return vfail(v, "data index entry %zu names offset %" PRIu64 ", where no DATA block follows",
                 next_data, r->data[next_data].offset);
  if (w->iblocks_seen != r->iblocks_n)
    return vfail(v, "the block walk met %zu of the %zu leaf/intermediate index blocks",
                 w->iblocks_seen, r->iblocks_n);
  if (w->next_chunk != w->chunk_n)
    return vfail(v, "bloom chunk at offset %" PRIu64 " named by a bloom meta is not in the file",
                 w->chunks[w->next_chunk].offset);
  if (w->next_meta != w->meta_n)
    return vfail(v, "META block at offset %" PRIu64 " named by the meta index is not in the file",
                 w->metas[w->next_meta].offset);
  if (first_data != t->first_data_block_offset || last_data != t->last_data_block_offset)
    return vfail(v, "trailer data block offsets first %" PRId64 " / last %" PRId64
                    " but the DATA blocks run from %" PRId64 " to %" PRId64,
                 t->first_data_block_offset, t->last_data_block_offset, first_data, last_data);
  for (int which = 0; which < 2; which++)
    if (r->bloom[which].present && w->bloom_bytes[which] != (uint64_t)r->bloom[which].meta.total_byte_size)
      return vfail(v, "%s bloom meta totalByteSize %" PRId64 " but its chunks hold %" PRIu64
                      " bytes",
                   which ? "delete-family" : "general", r->bloom[which].meta.total_byte_size,
                   w->bloom_bytes[which]);
  return 0;
}

static int report_copy(uint8_t **dst, size_t *dlen, const uint8_t *p, size_t n) {
  *dst = hfg_malloc(n ? n : 1);
  if (!*dst) return HFG_ENOMEM;
  if (n) memcpy(*dst, p, n);
  *dlen = n;
  return 0;
}

static int run(vstate *v) {
  hfg_reader *r = v->r;
  const hfg_trailer *t = &r->trailer;
  hfg_verify_report *rep = v->rep;
  int rc;
  if (r->meta.comparator == HFG_CMP_META)
    return vfail(v, "hbase:meta files (comparator %s) are not verified", t->comparator);
  /* FixedFileTrailer.getComparatorClass maps the names of rd_comparator_kind to
   * HBase's comparators and loads any other by Class.forName: a region server
   * without that class cannot open the file. A file without cells needs none. */
  if (r->meta.comparator == HFG_CMP_UNKNOWN && t->entry_count > 0)
    return vfail(v, "trailer comparator class '%s' is not one of HBase's (KeyValue$KVComparator, "
                    "CellComparator, ...): HBase loads such a name with Class.forName and cannot "
                    "open the file without that class, and its cell order cannot be checked",
                 t->comparator);
  if (r->bloom[0].present && r->meta.bloom_type == HFG_BLOOM_NONE &&
      rd_fileinfo_find(r, "BLOOM_FILTER_TYPE"))
    return vfail(v, "bloom type in BLOOM_FILTER_TYPE is not ROW, ROWCOL or "
                    "ROWPREFIX_FIXED_LENGTH: cannot check it");
  if (r->meta.bloom_type == HFG_BLOOM_ROWPREFIX && !r->meta.bloom_prefix_length)
    return vfail(v, "ROWPREFIX_FIXED_LENGTH bloom without a positive 4-byte BLOOM_FILTER_PARAM");
  v->bloom_checked = r->bloom[0].present && r->meta.bloom_type != HFG_BLOOM_NONE;
  v->df_bloom_checked = r->bloom[1].present;
  if ((rc = rd_index_load(r))) {
    hfg_err_prefix(&r->err, "data block index");
    return vreader(v, rc);
  }
  walk w;
  memset(&w, 0, sizeof w);
  rc = setup(v, &w);
  if (!rc) rc = check_index(v);
  if (!rc) rc = walk_blocks(v, &w);
  hfg_free(w.chunks);
  hfg_free(w.metas);
  if (rc) return rc;
  if ((rc = verify_fileinfo(v))) return rc;
  /* trailer sums HFileWriterImpl keeps */
  if (t->uncompressed_data_index_size != r->idx_sum.index_uncompressed_bytes)
    return vfail(v, "trailer uncompressed_data_index_size %" PRIu64
                    " but the data index blocks hold %" PRIu64 " bytes",
                 t->uncompressed_data_index_size, r->idx_sum.index_uncompressed_bytes);
  if (t->total_uncompressed_bytes != w.sum_uncompressed + RD_TRAILER_SIZE)
    return vfail(v, "trailer total_uncompressed_bytes %" PRIu64 " but the blocks give %" PRIu64,
                 t->total_uncompressed_bytes, w.sum_uncompressed + RD_TRAILER_SIZE);

  rep->cells = v->cells;
  rep->rows = v->rows;
  if (v->cells) {
    rd_key f, l;
    rep->has_cells = 1;
    if (rd_key_parse(v->first_key.p, v->first_key.len, &f, NULL) ||
        rd_key_parse(v->prev_key.p, v->prev_key.len, &l, NULL))
      return vfail(v, "first or last key malformed");
    if (report_copy(&rep->first_row, &rep->first_row_len, f.row, f.row_len) ||
        report_copy(&rep->last_row, &rep->last_row_len, l.row, l.row_len) ||
        report_copy(&rep->family, &rep->family_len, v->family.p, v->family.len))
      return vfail(v, "out of memory");
  }
  return 0;
}

int hfg_verify(hfg_reader *r, hfg_verify_report *rep) {
  memset(rep, 0, sizeof *rep);
  if (r->open_code < 0) {
    snprintf(rep->message, sizeof rep->message, "%s", r->err.msg);
    return r->open_code;
  }
  hfg_err_clear(&r->err);
  vstate v;
  memset(&v, 0, sizeof v);
  v.r = r;
  v.rep = rep;
  v.kind = r->meta.comparator;
  v.flags.tags = r->meta.includes_tags;
  v.flags.mvcc = r->meta.includes_mvcc;
  v.flags.decode_mvcc = r->meta.decode_mvcc;
  v.min_ts = INT64_MAX;
  v.max_ts = INT64_MIN;
  v.earliest_put = INT64_MAX;
  int rc = run(&v);
  vstate_free(&v);
  if (rc) {
    hfg_verify_report_free(rep);
    if (!rep->message[0]) snprintf(rep->message, sizeof rep->message, "%s", hfg_strerror(rc));
  }
  return rc;
}

int hfg_verify_path(const char *path, hfg_verify_report *rep) {
  hfg_reader *r;
  int rc = hfg_reader_open(path, &r);
  if (!r) {
    memset(rep, 0, sizeof *rep);
    snprintf(rep->message, sizeof rep->message, "out of memory");
    return rc;
  }
  rc = hfg_verify(r, rep);
  hfg_reader_close(r);
  return rc;
}

void hfg_verify_report_free(hfg_verify_report *rep) {
  if (!rep) return;
  hfg_free(rep->first_row);
  hfg_free(rep->last_row);
  hfg_free(rep->family);
  rep->first_row = rep->last_row = rep->family = NULL;
  rep->first_row_len = rep->last_row_len = rep->family_len = 0;
}

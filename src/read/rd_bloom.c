/*
 * Bloom lookups (format-specs/reader-checks.md, "Bloom"): the BLMFMET2 /
 * DFBLMET2 meta is parsed by the read side of format/bloom.h
 * (CompoundBloomFilter's constructor layout); a lookup finds the chunk through
 * the meta's chunk index, reads that BLMFBLK2 block (size checked against the
 * index entry) and asks its bits, as CompoundBloomFilter.contains does. The
 * chunk last used is kept, since lookups in cell order hit the same chunk.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "read/rd.h"
#include "util/alloc.h"

void rd_bloom_free(rd_bloom_state *b) {
  rd_block_release(&b->meta_blk);
  rd_block_release(&b->chunk_blk);
  if (b->parsed == 1) hfg_bloom_meta_free(&b->meta);
  hfg_buf_free(&b->key);
  memset(b, 0, sizeof *b);
  b->cached_chunk = -1;
}

static int parse_meta(hfg_reader *r, int which) {
  rd_bloom_state *b = &r->bloom[which];
  if (b->parsed == 1) return 0;
  const char *name = which ? "delete-family bloom meta" : "general bloom meta";
  if (b->parsed < 0)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "%s at offset %" PRIu64 " is corrupt", name,
                       b->meta_blk.info.offset);
  char msg[512] = "";
  memset(&b->meta, 0, sizeof b->meta);
  int rc = hfg_bloom_meta_parse(b->meta_blk.data, b->meta_blk.len, &b->meta, msg, sizeof msg);
  if (rc) {
    b->parsed = -1;
    return hfg_err_set(&r->err, rc == HFG_ENOMEM ? rc : HFG_ECORRUPT,
                       "%s at offset %" PRIu64 ": %s", name, b->meta_blk.info.offset,
                       msg[0] ? msg : hfg_strerror(rc));
  }
  b->parsed = 1;
  return 0;
}

int hfg_reader_bloom(hfg_reader *r, int which, hfg_bloom_summary *out) {
  RD_ENTER(r);
  if (which != 0 && which != 1) return HFG_EINVAL;
  rd_bloom_state *b = &r->bloom[which];
  if (!b->present) return 0;
  int rc = parse_meta(r, which);
  if (rc) return rc;
  memset(out, 0, sizeof *out);
  out->type = which ? HFG_BLOOM_ROW : r->meta.bloom_type;
  out->version = b->meta.version;
  out->total_byte_size = b->meta.total_byte_size;
  out->hash_count = b->meta.hash_count;
  out->hash_type = b->meta.hash_type;
  out->total_key_count = b->meta.total_key_count;
  out->total_max_keys = b->meta.total_max_keys;
  out->num_chunks = b->meta.num_chunks;
  out->comparator = b->meta.comparator;
  return 1;
}

static int check(hfg_reader *r, int which, hfg_bloom_type type, const uint8_t *row,
                 size_t row_len, const uint8_t *qual, size_t qual_len) {
  rd_bloom_state *b = &r->bloom[which];
  if (!b->present)
    return hfg_err_set(&r->err, HFG_EUNSUPPORTED, "the file has no %s bloom",
                       which ? "delete-family" : "general");
  if (type == HFG_BLOOM_ROWPREFIX) { /* a ROW bloom of the row's first N bytes */
    if (!r->meta.bloom_prefix_length)
      return hfg_err_set(&r->err, HFG_ECORRUPT, "ROWPREFIX_FIXED_LENGTH bloom without a "
                         "positive 4-byte BLOOM_FILTER_PARAM in file info");
    if (row_len > r->meta.bloom_prefix_length) row_len = r->meta.bloom_prefix_length;
    type = HFG_BLOOM_ROW;
  }
  if (type != HFG_BLOOM_ROW && type != HFG_BLOOM_ROWCOL)
    return hfg_err_set(&r->err, HFG_EUNSUPPORTED,
                       "bloom type (BLOOM_FILTER_TYPE) missing or not ROW/ROWCOL/"
                       "ROWPREFIX_FIXED_LENGTH");
  int rc = parse_meta(r, which);
  if (rc) return rc;
  if (b->meta.hash_type != 1)
    return hfg_err_set(&r->err, HFG_EUNSUPPORTED,
                       "bloom hash type %" PRId32 " is not supported (murmur = 1 only)",
                       b->meta.hash_type);
  /* a hostile hash count would make every lookup loop for ages */
  if (b->meta.hash_count < 1 || b->meta.hash_count > 64)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "bloom hash count %" PRId32 " out of range",
                       b->meta.hash_count);
  hfg_buf_reset(&b->key);
  if (hfg_bloom_key(type, row, row_len, qual, qual_len, &b->key))
    return hfg_err_set(&r->err, HFG_ENOMEM, "out of memory");
  int ci = hfg_bloom_meta_find_chunk(&b->meta, b->key.p, b->key.len);
  if (ci < 0) return 0;
  if (ci >= b->meta.num_chunks)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "bloom chunk index %d out of range", ci);
  if (b->cached_chunk != ci) {
    b->cached_chunk = -1;
    uint64_t off = b->meta.chunk_offset[ci];
    rc = rd_block_read(r, off, r->trailer.load_on_open_offset, b->meta.chunk_on_disk_size[ci],
                       HFG_BLOCK_BLOOM_CHUNK, &b->chunk_blk);
    if (rc) {
      hfg_err_prefix(&r->err, "bloom chunk %d", ci);
      return rc;
    }
    b->cached_chunk = ci;
  }
  if (b->chunk_blk.len == 0)
    return hfg_err_set(&r->err, HFG_ECORRUPT, "bloom chunk %d at offset %" PRIu64 " is empty", ci,
                       b->chunk_blk.info.offset);
  return hfg_bloom_chunk_contains(b->chunk_blk.data, b->chunk_blk.len, b->meta.hash_count,
                                  b->key.p, b->key.len)
             ? 1
             : 0;
}

int hfg_reader_bloom_check(hfg_reader *r, const uint8_t *row, size_t row_len, const uint8_t *qual,
                           size_t qual_len) {
  RD_ENTER(r);
  return check(r, 0, r->meta.bloom_type, row, row_len, qual, qual_len);
}

int hfg_reader_delete_family_bloom_check(hfg_reader *r, const uint8_t *row, size_t row_len) {
  RD_ENTER(r);
  return check(r, 1, HFG_BLOOM_ROW, row, row_len, NULL, 0);
}

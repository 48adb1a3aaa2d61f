/*
 * Opening an HFile (format-specs/reader-checks.md, "Open"): map the file,
 * parse the trailer, then read the load-on-open section the way
 * HFileInfo.initMetaAndIndex does — blocks from load_on_open_data_offset to
 * the trailer, in the order data ROOT_INDEX, meta ROOT_INDEX, FILE_INFO, then
 * any further blocks (bloom metas) up to the trailer exactly.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read/rd.h"
#include "util/alloc.h"
#include "util/coding.h"

#define MID_KEY_META_SIZE 16

static int load_roots(hfg_reader *r) {
  hfg_err *e = &r->err;
  const hfg_trailer *t = &r->trailer;
  uint64_t off = t->load_on_open_offset;
  char what[96];
  int rc;

  /* data root index */
  if ((rc = rd_block_read(r, off, r->trailer_off, 0, HFG_BLOCK_ROOT_INDEX, &r->root_blk))) {
    hfg_err_prefix(e, "load-on-open block 1 (data root index)");
    return rc;
  }
  snprintf(what, sizeof what, "data root index block at offset %" PRIu64, off);
  size_t used;
  if ((rc = rd_root_parse(r->root_blk.data, r->root_blk.len, t->data_index_count, &r->root, &used,
                          e, what)))
    return rc;
  r->root_n = t->data_index_count;
  r->root_trailing = r->root_blk.len - used;
  /* readMultiLevelIndexRoot reads the mid-key metadata when >= 16 bytes remain */
  if (t->num_data_index_levels > 1 && r->root_trailing >= MID_KEY_META_SIZE) {
    const uint8_t *m = r->root_blk.data + used;
    r->has_mid_meta = 1;
    r->mid_leaf_offset = hfg_get_be64(m);
    r->mid_leaf_size = hfg_get_be32(m + 8);
    r->mid_key_entry = hfg_get_be32(m + 12);
  }
  if (r->root_n) {
    r->meta.first_key = r->root[0].key;
    r->meta.first_key_len = r->root[0].key_len;
  }
  r->lo_offsets[0] = off;
  r->lo_types[0] = HFG_BLOCK_ROOT_INDEX;
  r->lo_sizes[0] = (uint32_t)r->root_blk.info.on_disk_size_with_header;
  r->lo_uncompressed[0] = r->root_blk.info.uncompressed_size;
  off += r->root_blk.info.on_disk_size_with_header;

  /* meta index */
  if ((rc = rd_block_read(r, off, r->trailer_off, 0, HFG_BLOCK_ROOT_INDEX, &r->meta_idx_blk))) {
    hfg_err_prefix(e, "load-on-open block 2 (meta index)");
    return rc;
  }
  snprintf(what, sizeof what, "meta index block at offset %" PRIu64, off);
  if ((rc = rd_root_parse(r->meta_idx_blk.data, r->meta_idx_blk.len, t->meta_index_count,
                          &r->meta_idx, &used, e, what)))
    return rc;
  r->meta_idx_n = t->meta_index_count;
  r->lo_offsets[1] = off;
  r->lo_types[1] = HFG_BLOCK_ROOT_INDEX;
  r->lo_sizes[1] = (uint32_t)r->meta_idx_blk.info.on_disk_size_with_header;
  r->lo_uncompressed[1] = r->meta_idx_blk.info.uncompressed_size;
  off += r->meta_idx_blk.info.on_disk_size_with_header;

  /* file info */
  if ((rc = rd_block_read(r, off, r->trailer_off, 0, HFG_BLOCK_FILE_INFO, &r->fi_blk))) {
    hfg_err_prefix(e, "load-on-open block 3 (file info)");
    return rc;
  }
  r->fi_offset = off;
  r->lo_offsets[2] = off;
  r->lo_types[2] = HFG_BLOCK_FILE_INFO;
  r->lo_sizes[2] = (uint32_t)r->fi_blk.info.on_disk_size_with_header;
  r->lo_uncompressed[2] = r->fi_blk.info.uncompressed_size;
  r->lo_n = 3;
  off += r->fi_blk.info.on_disk_size_with_header;
  if ((rc = rd_fileinfo_parse(r))) return rc;

  /* further load-on-open blocks until the trailer */
  while (off < r->trailer_off) {
    rd_block b;
    memset(&b, 0, sizeof b);
    if ((rc = rd_block_read(r, off, r->trailer_off, 0, -1, &b))) {
      rd_block_release(&b);
      hfg_err_prefix(e, "load-on-open block %zu", r->lo_n + 1);
      return rc;
    }
    if (r->lo_n == sizeof r->lo_offsets / sizeof *r->lo_offsets) {
      rd_block_release(&b);
      return hfg_err_set(e, HFG_ECORRUPT,
                         "load-on-open section holds more than %zu blocks (at offset %" PRIu64 ")",
                         r->lo_n, off);
    }
    r->lo_offsets[r->lo_n] = off;
    r->lo_types[r->lo_n] = b.info.type;
    r->lo_sizes[r->lo_n] = (uint32_t)b.info.on_disk_size_with_header;
    r->lo_uncompressed[r->lo_n] = b.info.uncompressed_size;
    r->lo_n++;
    off += b.info.on_disk_size_with_header;
    int which = b.info.type == HFG_BLOCK_GENERAL_BLOOM_META        ? 0
                : b.info.type == HFG_BLOCK_DELETE_FAMILY_BLOOM_META ? 1
                                                                    : -1;
    if (which >= 0 && !r->bloom[which].present) {
      r->bloom[which].present = 1;
      r->bloom[which].meta_blk = b; /* takes the payload */
    } else {
      rd_block_release(&b);
    }
  }
  r->meta.has_bloom_meta = r->bloom[0].present;
  r->meta.has_delete_family_bloom_meta = r->bloom[1].present;
  return 0;
}

static int open_common(hfg_reader *r) {
  int rc;
  r->trailer_off = r->size >= RD_TRAILER_SIZE ? r->size - RD_TRAILER_SIZE : 0;
  if ((rc = rd_trailer_parse(r))) return rc;
  return load_roots(r);
}

static hfg_reader *reader_new(void) {
  hfg_reader *r = hfg_calloc(1, sizeof *r);
  if (!r) return NULL;
  r->verify_checksums = 1;
  r->bloom[0].cached_chunk = r->bloom[1].cached_chunk = -1;
  return r;
}

static int finish_open(hfg_reader *r, int rc, hfg_reader **out) {
  if (rc) {
    if (!r->err.code) hfg_err_set(&r->err, rc, "%s", hfg_strerror(rc));
    r->open_code = rc;
  }
  *out = r;
  return rc;
}

int hfg_reader_open_mem(const uint8_t *data, size_t len, hfg_reader **out) {
  hfg_reader *r = reader_new();
  *out = r;
  if (!r) return HFG_ENOMEM;
  r->map = data ? data : (const uint8_t *)"";
  r->size = data ? len : 0;
  return finish_open(r, open_common(r), out);
}

int hfg_reader_open(const char *path, hfg_reader **out) {
  hfg_reader *r = reader_new();
  *out = r;
  if (!r) return HFG_ENOMEM;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int er = errno;
    return finish_open(r, hfg_err_set(&r->err, HFG_EIO, "cannot open: %s", strerror(er)), out);
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int er = errno;
    close(fd);
    return finish_open(r, hfg_err_set(&r->err, HFG_EIO, "cannot stat: %s", strerror(er)), out);
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return finish_open(r, hfg_err_set(&r->err, HFG_EIO, "not a regular file"), out);
  }
  r->size = (size_t)st.st_size;
  if (r->size > 0) {
    void *m = mmap(NULL, r->size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (m == MAP_FAILED) {
      int er = errno;
      close(fd);
      return finish_open(r, hfg_err_set(&r->err, HFG_EIO, "cannot map: %s", strerror(er)), out);
    }
    r->map = m;
    r->mapped = 1;
  } else {
    r->map = (const uint8_t *)"";
  }
  close(fd);
  return finish_open(r, open_common(r), out);
}

void hfg_reader_close(hfg_reader *r) {
  if (!r) return;
  rd_index_free(r);
  rd_bloom_free(&r->bloom[0]);
  rd_bloom_free(&r->bloom[1]);
  rd_fileinfo_free(r);
  rd_block_release(&r->root_blk);
  rd_block_release(&r->meta_idx_blk);
  rd_block_release(&r->fi_blk);
  rd_block_release(&r->scratch);
  rd_block_release(&r->loc_blk);
  hfg_free(r->root);
  hfg_free(r->meta_idx);
  hfg_free(r->comparator);
  if (r->mapped) munmap((void *)r->map, r->size);
  hfg_free(r);
}

const char *hfg_reader_errmsg(const hfg_reader *r) { return r ? r->err.msg : "out of memory"; }

int hfg_reader_errcode(const hfg_reader *r) { return r ? r->err.code : HFG_ENOMEM; }

void hfg_reader_clear_error(hfg_reader *r) {
  if (r && r->open_code == 0) hfg_err_clear(&r->err);
}

void hfg_reader_set_verify_checksums(hfg_reader *r, int on) {
  if (r) r->verify_checksums = on != 0;
}

const hfg_trailer *hfg_reader_trailer(const hfg_reader *r) { return &r->trailer; }

const hfg_file_meta *hfg_reader_meta(const hfg_reader *r) { return &r->meta; }

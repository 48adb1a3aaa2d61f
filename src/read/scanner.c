/*
 * Cells in file order (format-specs/reader-checks.md, "Scanning"), the way
 * HFileReaderImpl.HFileScannerImpl walks them: start at the trailer's
 * first_data_block_offset, read each next block at offset + onDiskSizeWithHeader,
 * skip non-DATA blocks (leaf index, bloom chunks), stop after the block at
 * last_data_block_offset. A file whose entry_count is 0 has no cells.
 * Offsets only grow, so a hostile file cannot make the walk loop.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "read/rd.h"
#include "util/alloc.h"
#include "util/coding.h"

enum { ST_BEFORE = 0, ST_IN = 1, ST_END = 2 };

int hfg_scanner_new(hfg_reader *r, hfg_scanner **out) {
  *out = NULL;
  if (r->open_code < 0) return r->open_code;
  hfg_scanner *s = hfg_calloc(1, sizeof *s);
  if (!s) return HFG_ENOMEM;
  s->r = r;
  s->flags.tags = r->meta.includes_tags;
  s->flags.mvcc = r->meta.includes_mvcc;
  s->flags.decode_mvcc = r->meta.decode_mvcc;
  *out = s;
  return 0;
}

void hfg_scanner_free(hfg_scanner *s) {
  if (!s) return;
  rd_block_release(&s->blk);
  hfg_free(s);
}

const char *hfg_scanner_errmsg(const hfg_scanner *s) { return s ? s->err.msg : "out of memory"; }

void hfg_scanner_rewind(hfg_scanner *s) {
  s->state = ST_BEFORE;
  s->pos = 0;
  hfg_err_clear(&s->err);
}

/* Moves the reader's error into the scanner's. */
static int take_err(hfg_scanner *s, int rc) {
  hfg_err_force(&s->err, rc, "%s", s->r->err.msg[0] ? s->r->err.msg : hfg_strerror(rc));
  hfg_err_clear(&s->r->err);
  s->state = ST_END;
  return rc;
}

/* Loads the DATA block at offset into s->blk. */
static int load_data(hfg_scanner *s, uint64_t offset, uint32_t expect_size) {
  hfg_reader *r = s->r;
  int rc = rd_block_read(r, offset, r->trailer.load_on_open_offset, expect_size, -1, &s->blk);
  if (rc) return take_err(s, rc);
  if (s->blk.info.type != HFG_BLOCK_DATA && s->blk.info.type != HFG_BLOCK_ENCODED_DATA) {
    s->state = ST_END;
    return hfg_err_force(&s->err, HFG_ECORRUPT,
                         "block at offset %" PRIu64 ": expected a DATA block, found %s", offset,
                         hfg_block_type_magic(s->blk.info.type));
  }
  s->state = ST_IN;
  s->pos = 0;
  return 0;
}

/* From the current block to the next DATA block, or the end. */
static int advance_block(hfg_scanner *s) {
  hfg_reader *r = s->r;
  const hfg_trailer *t = &r->trailer;
  uint64_t off = s->blk.info.offset;
  for (;;) {
    if ((int64_t)off >= t->last_data_block_offset) {
      s->state = ST_END;
      return 0;
    }
    hfg_block_info in;
    if (off == s->blk.info.offset) in = s->blk.info;
    else {
      int rc = rd_block_header(r, off, t->load_on_open_offset, &in);
      if (rc) return take_err(s, rc);
    }
    off += in.on_disk_size_with_header;
    if (off >= t->load_on_open_offset) {
      s->state = ST_END;
      return hfg_err_force(&s->err, HFG_ECORRUPT,
                           "no DATA block at or after offset %" PRIu64
                           " up to the last data block offset %" PRId64,
                           in.offset, t->last_data_block_offset);
    }
    hfg_block_info nx;
    int rc = rd_block_header(r, off, t->load_on_open_offset, &nx);
    if (rc) return take_err(s, rc);
    if (nx.type == HFG_BLOCK_DATA || nx.type == HFG_BLOCK_ENCODED_DATA) return load_data(s, off, 0);
    /* a leaf index or bloom chunk between data blocks: skip it */
    s->blk.info = nx;
  }
}

int hfg_scanner_next(hfg_scanner *s, hfg_read_cell *c) {
  hfg_reader *r = s->r;
  if (s->err.code) return s->err.code;
  if (s->state == ST_BEFORE) {
    if (r->trailer.entry_count == 0) {
      s->state = ST_END;
      return 0;
    }
    int rc = load_data(s, (uint64_t)r->trailer.first_data_block_offset, 0);
    if (rc) return rc;
  }
  while (s->state == ST_IN && s->pos >= s->blk.len) {
    int rc = advance_block(s);
    if (rc) return rc;
  }
  if (s->state == ST_END) return 0;
  size_t next;
  int rc = rd_cell_parse(s->blk.data, s->blk.len, s->pos, &s->flags, c, &next, &s->err);
  if (rc) {
    hfg_err_prefix(&s->err, "block at offset %" PRIu64 " (DATABLK*)", s->blk.info.offset);
    s->state = ST_END;
    return rc;
  }
  c->block_offset = s->blk.info.offset;
  s->pos = next;
  return 1;
}

int hfg_scanner_seek(hfg_scanner *s, const uint8_t *key, size_t key_len) {
  hfg_reader *r = s->r;
  hfg_scanner_rewind(s);
  rd_key k;
  const char *why = "";
  if (r->meta.comparator != HFG_CMP_RAW && rd_key_parse(key, key_len, &k, &why))
    return hfg_err_force(&s->err, HFG_EINVAL, "seek key malformed: %s", why);
  if (r->trailer.entry_count == 0) {
    s->state = ST_END;
    return 0;
  }
  hfg_index_entry e;
  int rc = hfg_reader_locate(r, key, key_len, &e);
  if (rc < 0) return take_err(s, rc);
  if (rc == 0) return 0; /* before every cell: the first cell is the answer */
  if ((rc = load_data(s, e.offset, e.on_disk_size))) return rc;
  for (;;) {
    size_t at = s->pos;
    hfg_read_cell c;
    uint64_t blk = s->blk.info.offset;
    rc = hfg_scanner_next(s, &c);
    if (rc <= 0) return rc;
    if (rd_compare_keys(r->meta.comparator, c.key, c.key_len, key, key_len) >= 0) {
      /* hand this cell out again on the next call; if next() moved to a new
       * block the cell starts that block */
      s->pos = c.block_offset == blk ? at : 0;
      return 0;
    }
  }
}

int hfg_scanner_seek_row(hfg_scanner *s, const uint8_t *row, size_t row_len) {
  if (row_len > 32767)
    return hfg_err_force(&s->err, HFG_EINVAL, "row of %zu bytes exceeds 32767", row_len);
  /* createFirstOnRow: empty family and qualifier, LATEST_TIMESTAMP, type
   * Maximum — sorts before every cell of the row. */
  uint8_t stack[256];
  size_t n = row_len + 12;
  uint8_t *k = n <= sizeof stack ? stack : hfg_malloc(n);
  if (!k) return hfg_err_force(&s->err, HFG_ENOMEM, "out of memory");
  hfg_put_be16(k, (uint16_t)row_len);
  if (row_len) memcpy(k + 2, row, row_len);
  k[2 + row_len] = 0;
  hfg_put_be64(k + 3 + row_len, (uint64_t)RD_LATEST_TS);
  k[11 + row_len] = 0xff;
  int rc = hfg_scanner_seek(s, k, n);
  if (k != stack) hfg_free(k);
  return rc;
}

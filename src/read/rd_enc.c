/* Encoded data block decoding: dispatch and the shared steps (rd_enc.h). */
#include "read/rd_enc.h"

#include <inttypes.h>
#include <string.h>

#include "util/coding.h"

int rd_dec_fail(rd_dec *d, const char *what) {
  return hfg_err_set(d->err, HFG_ECORRUPT,
                     "block at offset %" PRIu64 " (DATABLKE, %s): cell %" PRIu64
                     " at encoded byte %zu: %s",
                     d->offset, d->name, d->cell, d->at, what);
}

int rd_dec_take(rd_dec *d, size_t n, const uint8_t **p, const char *what) {
  if (n > d->n - d->at) return rd_dec_fail(d, what);
  *p = d->p + d->at;
  d->at += n;
  return 0;
}

int rd_dec_cint(rd_dec *d, uint32_t *v, const char *what) {
  uint64_t x = 0;
  for (int i = 0; i < 5; i++) {
    if (d->at >= d->n) return rd_dec_fail(d, what);
    uint8_t b = d->p[d->at++];
    x |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80)) {
      if (x > INT32_MAX) return rd_dec_fail(d, what);
      *v = (uint32_t)x;
      return 0;
    }
  }
  return rd_dec_fail(d, what);
}

int rd_dec_copy_prev_key(rd_dec *d, size_t n) {
  if (!d->has_prev ? n > 0 : n > d->pk_len)
    return rd_dec_fail(d, "common prefix longer than the previous key");
  if (!n) return 0;
  if (hfg_buf_reserve(d->out, n)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  memcpy(d->out->p + d->out->len, d->out->p + d->pk_off, n);
  d->out->len += n;
  return 0;
}

/* Compressed tags (HBase's TagCompressionContext over an LRUDictionary of
 * Byte.MAX_VALUE entries, cleared at each block, as BufferedEncodedSeeker
 * makes it): each tag is either 0xff, a varint length and the tag's bytes
 * (type and value), which the dictionary then holds at the next index (or at
 * the least recently used one's, once full), or a 2-byte index of an entry,
 * which becomes the most recently used. Entries point into the decoded output. */
#define TAGDICT_CAP 127
typedef struct rd_tagdict {
  int n, head, tail;
  size_t off[TAGDICT_CAP], len[TAGDICT_CAP];
  int prev[TAGDICT_CAP], next[TAGDICT_CAP];
} rd_tagdict;

static void td_unlink(rd_tagdict *t, int i) {
  if (t->prev[i] >= 0) t->next[t->prev[i]] = t->next[i];
  else t->head = t->next[i];
  if (t->next[i] >= 0) t->prev[t->next[i]] = t->prev[i];
  else t->tail = t->prev[i];
}

static void td_front(rd_tagdict *t, int i) {
  t->prev[i] = -1;
  t->next[i] = t->head;
  if (t->head >= 0) t->prev[t->head] = i;
  t->head = i;
  if (t->tail < 0) t->tail = i;
}

static void td_add(rd_tagdict *t, size_t off, size_t len) {
  int i;
  if (t->n < TAGDICT_CAP) {
    i = t->n++;
  } else {
    i = t->tail;
    td_unlink(t, i);
  }
  t->off[i] = off;
  t->len[i] = len;
  td_front(t, i);
}

static int dec_tags_compressed(rd_dec *d, uint32_t tl) {
  hfg_buf *o = d->out;
  rd_tagdict *t = d->td;
  size_t end = o->len + tl;
  while (o->len < end) {
    const uint8_t *s = NULL;
    if (rd_dec_take(d, 1, &s, "compressed tags run past the block")) return HFG_ECORRUPT;
    if (s[0] == 0xff) { /* Dictionary.NOT_IN_DICTIONARY: a varint length, the bytes */
      uint32_t len = 0;
      int shift = 0;
      for (;;) {
        const uint8_t *b = NULL;
        if (rd_dec_take(d, 1, &b, "compressed tag length runs past the block"))
          return HFG_ECORRUPT;
        if (shift > 28) return rd_dec_fail(d, "compressed tag length over 32 bits");
        len |= (uint32_t)(b[0] & 0x7f) << shift;
        shift += 7;
        if (!(b[0] & 0x80)) break;
      }
      const uint8_t *tag = NULL;
      if (len > 0xffff || o->len + 2 + len > end)
        return rd_dec_fail(d, "a compressed tag runs past the cell's tags length");
      if (rd_dec_take(d, len, &tag, "compressed tag runs past the block")) return HFG_ECORRUPT;
      if (hfg_buf_put_be16(o, (uint16_t)len) || hfg_buf_append(o, tag, len))
        return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
      td_add(t, o->len - len, len);
    } else {
      const uint8_t *lo = NULL;
      if (rd_dec_take(d, 1, &lo, "compressed tag index runs past the block"))
        return HFG_ECORRUPT;
      int i = (int)((unsigned)s[0] << 8 | lo[0]);
      if (i >= t->n) return rd_dec_fail(d, "compressed tag names a dictionary entry not defined");
      size_t len = t->len[i];
      if (o->len + 2 + len > end)
        return rd_dec_fail(d, "a compressed tag runs past the cell's tags length");
      if (hfg_buf_reserve(o, 2 + len)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
      hfg_put_be16(o->p + o->len, (uint16_t)len);
      memcpy(o->p + o->len + 2, o->p + t->off[i], len);
      o->len += 2 + len;
      td_unlink(t, i);
      td_front(t, i);
    }
  }
  return 0;
}

int rd_dec_tail(rd_dec *d, size_t cell_off, uint32_t klen, uint32_t vlen) {
  hfg_buf *o = d->out;
  if (d->f->tags) {
    uint32_t tl;
    const uint8_t *t = NULL;
    if (rd_dec_cint(d, &tl, "tags length runs past the block")) return HFG_ECORRUPT;
    if (tl > 32767) return rd_dec_fail(d, "tags length above 32767");
    if (d->td && tl) {
      if (hfg_buf_put_be16(o, (uint16_t)tl)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
      if (dec_tags_compressed(d, tl)) return d->err->code ? d->err->code : HFG_ECORRUPT;
    } else {
      if (rd_dec_take(d, tl, &t, "tags run past the block")) return HFG_ECORRUPT;
      if (hfg_buf_put_be16(o, (uint16_t)tl) || hfg_buf_append(o, t, tl))
        return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
    }
  }
  if (d->f->mvcc) {
    int64_t m;
    size_t k = hfg_get_vlong(d->p + d->at, d->p + d->n, &m);
    if (!k) return rd_dec_fail(d, "mvcc vlong runs past the block");
    if (hfg_buf_append(o, d->p + d->at, k)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
    d->at += k;
  }
  d->has_prev = 1;
  d->pk_off = cell_off + 8;
  d->pk_len = klen;
  d->pv_off = cell_off + 8 + klen;
  d->pv_len = vlen;
  d->cell++;
  return 0;
}

/* ROW_INDEX_V1: plain KeyValues, then rowCount, the row offsets and the cells' size. */
static int dec_row_index(rd_dec *d) {
  if (d->n < 8) return rd_dec_fail(d, "block shorter than its row index");
  uint32_t cells = hfg_get_be32(d->p + d->n - 4);
  if (cells > d->n - 8) return rd_dec_fail(d, "cells size runs past the block");
  uint32_t rows = hfg_get_be32(d->p + cells);
  if ((uint64_t)cells + 4 + 4ull * rows + 4 != d->n)
    return rd_dec_fail(d, "row count, row offsets and cells size do not fill the block");
  if (hfg_buf_append(d->out, d->p, cells)) return hfg_err_set(d->err, HFG_ENOMEM, "out of memory");
  /* every offset must be the start of a cell whose row differs from the one before it */
  size_t pos = 0, r = 0;
  const uint8_t *prev_row = NULL;
  size_t prev_len = 0;
  while (pos < cells) {
    hfg_read_cell c;
    size_t next;
    if (rd_cell_parse(d->p, cells, pos, d->f, &c, &next, d->err)) return HFG_ECORRUPT;
    int new_row = !prev_row || rd_bytes_cmp(prev_row, prev_len, c.cell.row, c.cell.row_len) != 0;
    if (new_row) {
      if (r >= rows || hfg_get_be32(d->p + cells + 4 + 4 * r) != pos) {
        d->at = pos;
        return rd_dec_fail(d, "row index does not name this row's first cell");
      }
      r++;
    }
    prev_row = c.cell.row;
    prev_len = c.cell.row_len;
    pos = next;
    d->cell++;
  }
  if (r != rows) return rd_dec_fail(d, "row index names more rows than the block holds");
  return 0;
}

int rd_enc_decode(int id, const uint8_t *p, size_t n, const rd_cell_flags *f, uint64_t offset,
                  hfg_buf *out, hfg_err *err) {
  rd_dec d;
  memset(&d, 0, sizeof d);
  d.out = out;
  d.f = f;
  d.err = err;
  d.offset = offset;
  hfg_buf_reset(out);
  if (id == 7) {
    d.name = "ROW_INDEX_V1";
    d.p = p;
    d.n = n;
    return dec_row_index(&d);
  }
  rd_tagdict td;
  if (f->tags && f->tags_compressed) {
    td.n = 0;
    td.head = td.tail = -1;
    d.td = &td;
  }
  int (*fn)(rd_dec *) = id == 2 ? rd_dec_prefix : id == 3 ? rd_dec_diff : id == 4 ? rd_dec_fast_diff : NULL;
  d.name = id == 2 ? "PREFIX" : id == 3 ? "DIFF" : "FAST_DIFF";
  if (!fn)
    return hfg_err_set(err, id == 6 ? HFG_EUNSUPPORTED : HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE): data block encoding id %d is %s",
                       offset, id, id == 6 ? "PREFIX_TREE, removed in HBase 2.0" : "unknown");
  if (n < 4)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE, %s): no unencoded size", offset,
                       d.name);
  uint32_t want = hfg_get_be32(p);
  d.p = p + 4;
  d.n = n - 4;
  if (want > INT32_MAX || hfg_buf_reserve(out, want))
    return hfg_err_set(err, want > INT32_MAX ? HFG_ECORRUPT : HFG_ENOMEM,
                       "block at offset %" PRIu64 " (DATABLKE, %s): unencoded size %" PRIu32,
                       offset, d.name, want);
  while (d.at < d.n) {
    int rc = fn(&d);
    if (rc) return rc;
  }
  if (out->len != want)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "block at offset %" PRIu64 " (DATABLKE, %s): cells decode to %zu bytes, "
                       "the block says %" PRIu32,
                       offset, d.name, out->len, want);
  return 0;
}

/*
 * The HFile writer's Put paths (hfg_writer_append_puts): a row's Puts share
 * its key prefix and suffix, laid out once; after the first cell, the row's
 * cells differ in qualifier and value only, so a run of them is appended with
 * no more than the order check, the block boundary, the bytes and the
 * statistics. Anything unusual falls back to hfg_writer_append, which checks
 * everything and names what is wrong.
 */
#include "hfilegen/writer.h"

#include <string.h>

#include "format/bloom.h"
#include "format/dbe.h"
#include "format/kv.h"
#include "util/coding.h"
#include "util/err.h"

#include "format/hfile_writer_int.h"

/* Puts p's column and value into the cell t (its row, family, ts and type stay). */
static inline void take_put(hfg_cell *t, const hfg_put *p) {
  t->qualifier = p->qualifier;
  t->qualifier_len = p->qualifier_len;
  t->value = p->value;
  t->value_len = p->value_len;
}

/* The KeyValue bytes of the Put p at cell: its key the prefix rowLen(2) row
 * famLen(1) family (plen bytes), p's qualifier and the suffix ts(8) type(1),
 * key_len bytes in all; then the value, tagsLength 0 and mvcc 0. */
static inline void lay_put(uint8_t *cell, const uint8_t *prefix, size_t plen,
                           const uint8_t *suffix, const hfg_put *p, size_t key_len) {
  uint8_t *q = cell;
  hfg_put_be32(q, (uint32_t)key_len);
  hfg_put_be32(q + 4, (uint32_t)p->value_len);
  hfg_copy(q + 8, prefix, plen);
  q += 8 + plen;
  hfg_copy(q, p->qualifier, p->qualifier_len);
  q += p->qualifier_len;
  memcpy(q, suffix, 9);
  q += 9;
  hfg_copy(q, p->value, p->value_len);
  q += p->value_len;
  q[0] = q[1] = q[2] = 0;
}

/* The Put of qualifier and value p laid out at the block's end, its key the
 * prefix rowLen(2) row famLen(1) family (plen bytes), p's qualifier and the
 * suffix ts(8) type(1); t is the cell (hfg_cell form) and same_put as for
 * note_cell. The caller has checked the order, the limits and the blooms. */
static inline __attribute__((always_inline)) int put_cell(hfg_writer *w, const uint8_t *prefix,
                                                         size_t plen, const uint8_t *suffix,
                                                         const hfg_put *p, const hfg_cell *t,
                                                         int same_put) {
  size_t key_len = plen + p->qualifier_len + 9;
  size_t cell_len = 8 + key_len + p->value_len + 3;
  if (w->block.cap - w->block.len < cell_len && hfg_buf_reserve(&w->block, cell_len))
    return hfg_err_set(&w->err, HFG_ENOMEM, "out of memory for a %zu-byte cell", cell_len);
  uint8_t *cell = w->block.p + w->block.len;
  lay_put(cell, prefix, plen, suffix, p, key_len);
  return note_cell(w, cell, cell_len, key_len, t, same_put);
}

/* The rest of a row's Puts of one family (from puts[i], the one before it
 * laid out already) without a data block encoding or a ROWCOL bloom: nothing
 * is left per cell but the order check, the block boundary, the bytes and
 * the statistics, kept in registers and stored once (and before a block is
 * finished, which reads the last key). Stops at the first Put out of order or
 * over a limit, for the full path to report. Returns the index it stopped at,
 * or -1 on an error (in w->err). */
static ptrdiff_t put_run_plain(hfg_writer *w, const uint8_t *prefix, size_t plen,
                               const uint8_t *suffix, const hfg_put *puts, size_t i, size_t n) {
  uint64_t nent = 0, tkey = 0, tval = 0;
  int rc = 0;
  for (; i < n; i++) {
    const hfg_put *c = &puts[i], *p = c - 1;
    if (c->qualifier_len > 0xffff || c->value_len > 0x3fffffff) break;
    int cmp = hfg_bytes_cmp(c->qualifier, c->qualifier_len, p->qualifier, p->qualifier_len);
    if (cmp < 0) break;
    /* (finishing a block reads the last key by last_key_off/len alone) */
    if (cmp != 0 && block_full(w) && (rc = hfg_w_finish_data_block(w))) break;
    size_t key_len = plen + c->qualifier_len + 9;
    size_t cell_len = 8 + key_len + c->value_len + 3;
    if (w->block.cap - w->block.len < cell_len && hfg_buf_reserve(&w->block, cell_len)) {
      rc = hfg_err_set(&w->err, HFG_ENOMEM, "out of memory for a %zu-byte cell", cell_len);
      break;
    }
    uint8_t *cell = w->block.p + w->block.len;
    lay_put(cell, prefix, plen, suffix, c, key_len);
    if (w->block.len == 0) {
      hfg_buf_reset(&w->first_key);
      if (hfg_buf_append(&w->first_key, cell + 8, key_len)) {
        rc = hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
        break;
      }
    }
    w->block.len += cell_len;
    w->last_key_off = (size_t)(cell + 8 - w->block.p);
    w->last_key_len = key_len;
    /* PrivateCellUtil.estimatedSerializedSizeOf: KeyValue length + 4 (no tags) */
    uint64_t size = 4 + 8 + key_len + c->value_len;
    if (size > w->biggest_cell_len) {
      w->biggest_cell_len = size;
      hfg_buf_reset(&w->biggest_key);
      if (hfg_buf_append(&w->biggest_key, cell + 8, key_len)) {
        rc = hfg_err_set(&w->err, HFG_ENOMEM, "out of memory");
        break;
      }
    }
    nent++;
    tkey += key_len;
    tval += c->value_len;
  }
  w->entries += nent; /* the cells laid out, whatever stopped the run */
  w->total_key_len += tkey;
  w->total_value_len += tval;
  if (rc) return -1;
  const hfg_put *last = &puts[i - 1]; /* the last Put laid out */
  w->last.qualifier_len = last->qualifier_len;
  w->last.value_len = last->value_len;
  repoint_last(w, w->block.p + w->last_key_off);
  return (ptrdiff_t)i;
}

int hfg_writer_append_puts(hfg_writer *w, const uint8_t *row, size_t row_len, int64_t ts,
                           const hfg_put *puts, size_t n) {
  if (n == 0) return w->err.code;
  hfg_cell t = {row, row_len, w->family, w->family_len, NULL, 0, ts, HFG_TYPE_PUT,
                NULL, 0, NULL, 0};
  take_put(&t, &puts[0]);
  /* The cells share the key prefix rowLen(2) row famLen(1) family and suffix
   * ts(8) type(1): made once, each cell copies them whole. */
  uint8_t prefix[256], suffix[9];
  size_t plen = 3 + row_len + w->family_len;
  int rc, laid = plen <= sizeof prefix;
  if (laid) {
    hfg_put_be16(prefix, (uint16_t)row_len);
    memcpy(prefix + 2, row, row_len);
    prefix[2 + row_len] = (uint8_t)w->family_len;
    memcpy(prefix + 3 + row_len, w->family, w->family_len);
    hfg_put_be64(suffix, (uint64_t)ts);
    suffix[8] = HFG_TYPE_PUT;
  }
  /* The first cell: on the short path when its row sorts after the last cell's
   * (then its key does, whatever the rest) and it is within every limit; else
   * through every check of hfg_writer_append, which names what is wrong. */
  if (laid && !w->err.code && w->state == W_OPEN && row_len > 0 &&
      w->family_len <= HFG_KV_MAX_FAMILY && puts[0].qualifier_len <= 0xffff &&
      puts[0].value_len <= 0x3fffffff &&
      (!w->entries || hfg_bytes_cmp(row, row_len, w->last.row, w->last.row_len) > 0)) {
    size_t bloom_row_len = w->o.bloom == HFG_BLOOM_ROWPREFIX && row_len > w->o.bloom_prefix_length
                               ? w->o.bloom_prefix_length
                               : row_len;
    if (w->bloom && (rc = hfg_bloom_writer_add(w->bloom, row, bloom_row_len, t.qualifier,
                                               t.qualifier_len)))
      return hfg_err_set(&w->err, rc, "bloom filter: %s", hfg_strerror(rc));
    if (block_full(w) && (rc = hfg_w_finish_data_block(w))) return rc;
    if ((rc = put_cell(w, prefix, plen, suffix, &puts[0], &t, 0))) return rc;
  } else if ((rc = hfg_writer_append(w, &t))) {
    return rc;
  }
  /* The rest: only the qualifier can break the order (equal ones are equal keys). */
  size_t i = 1;
  if (laid) {
    const int rowcol = w->bloom && w->o.bloom == HFG_BLOOM_ROWCOL;
    if (!w->dbe && !rowcol && n > 1) {
      ptrdiff_t at = put_run_plain(w, prefix, plen, suffix, puts, 1, n);
      if (at < 0) return w->err.code;
      i = (size_t)at;
    }
    for (; i < n; i++) {
      const hfg_put *c = &puts[i], *p = &puts[i - 1];
      if (c->qualifier_len > 0xffff || c->value_len > 0x3fffffff) break;
      int cmp = hfg_bytes_cmp(c->qualifier, c->qualifier_len, p->qualifier, p->qualifier_len);
      if (cmp < 0) break; /* the full path below reports it, naming both keys */
      if (rowcol && (rc = hfg_bloom_writer_add(w->bloom, row, row_len, c->qualifier,
                                               c->qualifier_len)))
        return hfg_err_set(&w->err, rc, "bloom filter: %s", hfg_strerror(rc));
      if (cmp != 0 && block_full(w) && (rc = hfg_w_finish_data_block(w))) return rc;
      take_put(&t, c);
      if ((rc = put_cell(w, prefix, plen, suffix, c, &t, 1))) return rc;
    }
  }
  /* anything else: the remaining cells on the full path */
  for (; i < n; i++) {
    take_put(&t, &puts[i]);
    if ((rc = hfg_writer_append(w, &t))) return rc;
  }
  return w->err.code;
}

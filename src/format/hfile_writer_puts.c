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
#include "format/dbe_run.h"
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

/* A run's end: its statistics added (nent cells, tkey and tval bytes of keys
 * and values, whatever stopped it), and unless it failed (rc) the last key's
 * parts those of puts[i - 1], at last_key_off. Returns i, or -1 on rc. */
static inline ptrdiff_t end_run(hfg_writer *w, const hfg_put *puts, size_t i, uint64_t nent,
                                uint64_t tkey, uint64_t tval, int rc) {
  w->entries += nent;
  w->total_key_len += tkey;
  w->total_value_len += tval;
  if (rc) return -1;
  const hfg_put *last = &puts[i - 1]; /* the last Put laid out */
  w->last.qualifier_len = last->qualifier_len;
  w->last.value_len = last->value_len;
  repoint_last(w, w->block.p + w->last_key_off);
  return (ptrdiff_t)i;
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
    if (w->block.len == 0 && (rc = keep_key(w, &w->first_key, cell + 8, key_len))) break;
    w->block.len += cell_len;
    w->last_key_off = (size_t)(cell + 8 - w->block.p);
    w->last_key_len = key_len;
    /* PrivateCellUtil.estimatedSerializedSizeOf: KeyValue length + 4 (no tags) */
    uint64_t size = 4 + 8 + key_len + c->value_len;
    if (size > w->biggest_cell_len) {
      w->biggest_cell_len = size;
      if ((rc = keep_key(w, &w->biggest_key, cell + 8, key_len))) break;
    }
    nent++;
    tkey += key_len;
    tval += c->value_len;
  }
  return end_run(w, puts, i, nent, tkey, tval, rc);
}

/* The qualifiers' shared bytes (*q, hfg_dbe_common_bytes) and their order as
 * hfg_bytes_cmp's sign: the first differing byte, else the shorter first. */
static inline int qual_cmp(const hfg_put *c, const hfg_put *p, size_t *q) {
  size_t cl = c->qualifier_len, pl = p->qualifier_len, m = cl < pl ? cl : pl;
  size_t k = hfg_dbe_common_bytes(c->qualifier, cl, p->qualifier, pl);
  *q = k;
  if (k < m) return c->qualifier[k] < p->qualifier[k] ? -1 : 1;
  return (cl > pl) - (cl < pl);
}

/* Equal values, by words when short (no call). */
static inline int same_value(const uint8_t *a, const uint8_t *b, size_t n) {
  if (n <= 16) return hfg_dbe_common_bytes(a, n, b, n) == n;
  return memcmp(a, b, n) == 0;
}

/* put_run_plain for a block encoding enc (a constant: one copy each): every
 * cell is also encoded against the one before it in the block, of its row,
 * timestamp and type (dbe_run.h), and the block's and the encoder's output
 * lengths stay in registers (the encoder's counters and the last key follow
 * from them), stored before a block is finished (block_full and the finish
 * read them) and at the end. A cell that starts a block is the encoder's first: it goes on put_cell,
 * the general path. t: the row's cell (hfg_cell form) for it.
 *
 * DIFF and FAST_DIFF encode from the Puts alone, and of a block's plain cells
 * only the last is ever read (its key: the last key; its value: the next
 * row's first cell encodes against it in place), so a cell's plain bytes are
 * laid out only when it is the last of the run or of a block, or the biggest
 * cell yet (its key is copied): until then its room is kept (the length,
 * hfg_writer_bytes, the boundary) but not written. PREFIX copies the key's
 * part after the common prefix, and ROW_INDEX_V1 takes the cells themselves:
 * every cell is laid out. */
static inline __attribute__((always_inline)) ptrdiff_t
put_run_enc(hfg_writer *w, const uint8_t *prefix, size_t plen, const uint8_t *suffix,
            const hfg_put *puts, size_t i, size_t n, hfg_cell *t, const hfg_encoding enc) {
  hfg_dbe *e = w->dbe;
  const uint64_t bs = w->o.block_size;
  const uint8_t ts_last = suffix[7];
  uint8_t diff_ts = 0;
  const unsigned diff_flag =
      enc == HFG_ENCODING_DIFF ? hfg_enc_diff_run_ts((int64_t)hfg_get_be64(suffix), &diff_ts) : 0;
  const int lazy = enc == HFG_ENCODING_DIFF || enc == HFG_ENCODING_FAST_DIFF;
  const int row_index = enc == HFG_ENCODING_ROW_INDEX_V1;
  /* The block's last cell is puts[i - 1] throughout (the key of which the
   * last key's offset and length follow), and in the run the encoder's
   * counters grow with the block (unencoded) and with the output (encoded;
   * ROW_INDEX_V1: with the block, no row starts), so only the lengths are
   * counted: from the ones at a LOAD, the rest follows at a STORE, and the
   * encoded size's boundary becomes one on the length it grows with (elim). */
  uint64_t nent = 0, tkey = 0, tval = 0, big, unenc0, encd0, elim;
  size_t blen, olen, blen0, olen0;
#define LOAD()                                                                                 \
  do {                                                                                         \
    blen0 = blen = w->block.len;                                                               \
    olen0 = olen = e->out.len;                                                                 \
    unenc0 = e->unencoded;                                                                     \
    encd0 = e->encoded;                                                                        \
    elim = encd0 >= bs ? 0 : (row_index ? blen0 : olen0) + (bs - encd0);                       \
    big = w->biggest_cell_len;                                                                 \
  } while (0)
#define STORE(last)                                                                            \
  do {                                                                                         \
    w->block.len = blen;                                                                       \
    e->out.len = olen;                                                                         \
    e->unencoded = unenc0 + (blen - blen0);                                                    \
    e->encoded = encd0 + (row_index ? blen - blen0 : olen - olen0);                            \
    w->biggest_cell_len = big;                                                                 \
    w->last_key_len = plen + (last)->qualifier_len + 9;                                        \
    w->last_key_off = blen - 3 - (last)->value_len - w->last_key_len;                          \
  } while (0)
  /* the block's last cell (ending at blen), if not laid out yet */
  const hfg_put *unlaid = NULL;
#define LAY_LAST()                                                                             \
  do {                                                                                         \
    if (unlaid) {                                                                              \
      size_t k = plen + unlaid->qualifier_len + 9;                                             \
      lay_put(w->block.p + blen - (8 + k + unlaid->value_len + 3), prefix, plen, suffix,       \
              unlaid, k);                                                                      \
    }                                                                                          \
    unlaid = NULL;                                                                             \
  } while (0)
  LOAD();
  int rc = 0;
  for (; i < n; i++) {
    const hfg_put *c = &puts[i], *p = c - 1;
    size_t ql = c->qualifier_len, vl = c->value_len, q;
    if (ql > 0xffff || vl > 0x3fffffff) break;
    int cmp = qual_cmp(c, p, &q);
    if (cmp < 0) break;
    /* block_full (the block holds the previous cell): the unencoded or the encoded size */
    if (cmp != 0 && (blen >= bs || (row_index ? blen : olen) >= elim)) {
      LAY_LAST();
      STORE(p);
      if (!(rc = hfg_w_finish_data_block(w))) {
        take_put(t, c);
        rc = put_cell(w, prefix, plen, suffix, c, t, 1); /* counts itself */
      }
      LOAD();
      if (rc) break;
      continue;
    }
    size_t key_len = plen + ql + 9;
    size_t cell_len = 8 + key_len + vl + 3;
    if (w->block.cap - blen < cell_len) {
      w->block.len = blen;
      if (hfg_buf_reserve(&w->block, cell_len)) {
        rc = hfg_err_set(&w->err, HFG_ENOMEM, "out of memory for a %zu-byte cell", cell_len);
        break;
      }
    }
    uint8_t *cell = w->block.p + blen;
    if (!lazy) lay_put(cell, prefix, plen, suffix, c, key_len);
    if (!row_index) { /* ROW_INDEX_V1: nothing but the plain cell */
      size_t room = key_len + vl + HFG_DBE_CELL_SLACK;
      if (e->out.cap - olen < room) {
        e->out.len = olen;
        if (hfg_buf_reserve(&e->out, room)) {
          rc = hfg_err_set(&w->err, HFG_ENOMEM, "data block encoding: %s",
                           hfg_strerror(HFG_ENOMEM));
          break;
        }
      }
      uint8_t *o = e->out.p + olen, *end;
      if (enc == HFG_ENCODING_FAST_DIFF)
        end = hfg_enc_fast_diff_run_cell(
            o, plen, c->qualifier, ql, p->qualifier_len, q, ts_last, c->value, vl, p->value_len,
            vl == p->value_len && same_value(c->value, p->value, vl));
      else if (enc == HFG_ENCODING_DIFF)
        end = hfg_enc_diff_run_cell(o, plen, c->qualifier, ql, p->qualifier_len, q, diff_flag,
                                    diff_ts, c->value, vl, p->value_len);
      else
        end = hfg_enc_prefix_run_cell(o, cell + 8, plen, ql, p->qualifier_len, q, c->value, vl);
      olen += (size_t)(end - o);
    }
    if (lazy) unlaid = c; /* the block's last cell now */
    blen += cell_len;
    /* PrivateCellUtil.estimatedSerializedSizeOf: KeyValue length + 4 (no tags) */
    if (cell_len + 1 > big) {
      LAY_LAST();
      big = cell_len + 1;
      if ((rc = keep_key(w, &w->biggest_key, cell + 8, key_len))) {
        i++; /* the block's last cell, not counted (as note_cell) */
        break;
      }
    }
    nent++;
    tkey += key_len;
    tval += vl;
  }
  LAY_LAST();
  STORE(&puts[i - 1]);
#undef LOAD
#undef STORE
#undef LAY_LAST
  return end_run(w, puts, i, nent, tkey, tval, rc);
}

/* One copy of the run for each encoding, the encoding a constant in it. */
#define PUT_RUN(name, enc)                                                                    \
  static ptrdiff_t name(hfg_writer *w, const uint8_t *prefix, size_t plen,                    \
                        const uint8_t *suffix, const hfg_put *puts, size_t i, size_t n,       \
                        hfg_cell *t) {                                                        \
    return put_run_enc(w, prefix, plen, suffix, puts, i, n, t, enc);                          \
  }
PUT_RUN(put_run_prefix, HFG_ENCODING_PREFIX)
PUT_RUN(put_run_diff, HFG_ENCODING_DIFF)
PUT_RUN(put_run_fast_diff, HFG_ENCODING_FAST_DIFF)
PUT_RUN(put_run_row_index, HFG_ENCODING_ROW_INDEX_V1)
#undef PUT_RUN

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
    hfg_copy(prefix + 2, row, row_len);
    prefix[2 + row_len] = (uint8_t)w->family_len;
    hfg_copy(prefix + 3 + row_len, w->family, w->family_len);
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
    if (w->bloom && (rc = hfg_bloom_writer_add(w->bloom, row, bloom_row_len(w, row_len),
                                               t.qualifier, t.qualifier_len)))
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
    if (!rowcol && n > 1) {
      ptrdiff_t at;
      switch (w->dbe ? w->dbe->enc : HFG_ENCODING_NONE) {
        case HFG_ENCODING_NONE: at = put_run_plain(w, prefix, plen, suffix, puts, 1, n); break;
        case HFG_ENCODING_PREFIX:
          at = put_run_prefix(w, prefix, plen, suffix, puts, 1, n, &t);
          break;
        case HFG_ENCODING_DIFF: at = put_run_diff(w, prefix, plen, suffix, puts, 1, n, &t); break;
        case HFG_ENCODING_FAST_DIFF:
          at = put_run_fast_diff(w, prefix, plen, suffix, puts, 1, n, &t);
          break;
        case HFG_ENCODING_ROW_INDEX_V1:
          at = put_run_row_index(w, prefix, plen, suffix, puts, 1, n, &t);
          break;
        default: at = 1; break; /* the loop below */
      }
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

/*
 * The data block encoders for a Put run (hfile_writer_puts.c): a cell that
 * follows, in the same block, a cell of the same row, family, timestamp and
 * type (Put), neither with tags. Of findCommonPrefixInFlatKey and the flags,
 * only what the qualifiers and the values decide is left, so each encoder
 * here is straight-line code over what differs. The bytes are those of
 * enc_prefix.c, enc_diff.c and enc_fast_diff.c for such a pair (the general
 * path, hfg_dbe_add, stays the reference: tests/unit/test_encoding.c compares
 * the two). ROW_INDEX_V1 writes nothing per cell: no new row, no offset.
 *
 * Common arguments: plen the bytes of the key prefix rowLen(2) row famLen(1)
 * family that the two keys share whole; qual/ql the cell's qualifier, pql the
 * previous one's length, q the bytes the two qualifiers share
 * (hfg_dbe_common_bytes); klen = plen + ql + 9 the cell's key length; value/vl
 * its value, pvl the previous one's length. Each writes at o (room for klen +
 * vl + HFG_DBE_CELL_SLACK bytes) and returns the end.
 */
#ifndef HFG_FORMAT_DBE_RUN_H
#define HFG_FORMAT_DBE_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "format/dbe.h"
#include "util/coding.h"

/* The tail of a cell without tags: tagsLength cint(0), mvcc vlong 0. */
static inline uint8_t *hfg_dbe_run_tail(uint8_t *o) {
  o[0] = 0;
  o[1] = 0;
  return o + 2;
}

/* DIFF and FAST_DIFF: [cint klen] [cint vl] cint(common = plen + q), the
 * qualifier after q (the row is common: hfg_dbe_diff_key). */
static inline uint8_t *hfg_dbe_run_diff_key(uint8_t *o, size_t plen, const uint8_t *qual,
                                            size_t ql, size_t q, size_t klen, int with_klen,
                                            size_t vl, int with_vlen) {
  if (with_klen) o = hfg_dbe_cint(o, (uint32_t)klen);
  if (with_vlen) o = hfg_dbe_cint(o, (uint32_t)vl);
  o = hfg_dbe_cint(o, (uint32_t)(plen + q));
  hfg_copy(o, qual + q, ql - q);
  return o + ql - q;
}

/* FAST_DIFF: the type is the same and 7 timestamp bytes are (the flag has
 * three bits for them), so one is written: ts_last, the timestamp's last
 * big-endian byte. Flag 0x08 same key length, 0x10 same value length, 0x20
 * same type, 0x40 same value (same_value: equal lengths and bytes). */
static inline uint8_t *hfg_enc_fast_diff_run_cell(uint8_t *o, size_t plen, const uint8_t *qual,
                                                  size_t ql, size_t pql, size_t q, uint8_t ts_last,
                                                  const uint8_t *value, size_t vl, size_t pvl,
                                                  int same_value) {
  int same_klen = ql == pql, same_vlen = vl == pvl;
  *o++ = (uint8_t)(0x20 | 7 | (same_klen ? 0x08 : 0) | (same_vlen ? 0x10 : 0) |
                   (same_value ? 0x40 : 0));
  o = hfg_dbe_run_diff_key(o, plen, qual, ql, q, plen + ql + 9, !same_klen, vl, !same_vlen);
  *o++ = ts_last;
  if (!same_value) {
    hfg_copy(o, value, vl);
    o += vl;
  }
  return hfg_dbe_run_tail(o);
}

/* DIFF: the timestamps' difference is 0, so the flag's timestamp bits and the
 * one timestamp byte are the same for every cell of the run: what this returns
 * (and *ts_byte), from the run's timestamp ts, as enc_diff.c decides them. */
static inline unsigned hfg_enc_diff_run_ts(int64_t ts, uint8_t *ts_byte) {
  uint64_t t = (uint64_t)ts;
  int neg = ts < 0;
  if (neg) t = 0 - t;
  if (hfg_dbe_long_fits(t) > 1) { /* the difference, 0, in one byte is shorter */
    *ts_byte = 0;
    return 0x08;
  }
  *ts_byte = (uint8_t)t;
  return neg ? 0x80 : 0;
}

/* DIFF: flag 0x01 same key length, 0x02 same value length, 0x04 same type,
 * with ts_flag and ts_byte from hfg_enc_diff_run_ts; the value always. */
static inline uint8_t *hfg_enc_diff_run_cell(uint8_t *o, size_t plen, const uint8_t *qual,
                                             size_t ql, size_t pql, size_t q, unsigned ts_flag,
                                             uint8_t ts_byte, const uint8_t *value, size_t vl,
                                             size_t pvl) {
  int same_klen = ql == pql, same_vlen = vl == pvl;
  *o++ = (uint8_t)(0x04 | ts_flag | (same_klen ? 0x01 : 0) | (same_vlen ? 0x02 : 0));
  o = hfg_dbe_run_diff_key(o, plen, qual, ql, q, plen + ql + 9, !same_klen, vl, !same_vlen);
  *o++ = ts_byte;
  hfg_copy(o, value, vl);
  return hfg_dbe_run_tail(o + vl);
}

/* PREFIX: common counts the timestamp and type too, when the qualifiers are
 * equal (equal keys); key is the cell's flat key. */
static inline uint8_t *hfg_enc_prefix_run_cell(uint8_t *o, const uint8_t *key, size_t plen,
                                               size_t ql, size_t pql, size_t q,
                                               const uint8_t *value, size_t vl) {
  size_t klen = plen + ql + 9;
  size_t common = plen + q + (q == ql && q == pql ? 9 : 0);
  o = hfg_dbe_cint(o, (uint32_t)(klen - common));
  o = hfg_dbe_cint(o, (uint32_t)vl);
  o = hfg_dbe_cint(o, (uint32_t)common);
  hfg_copy(o, key + common, klen - common);
  o += klen - common;
  hfg_copy(o, value, vl);
  return hfg_dbe_run_tail(o + vl);
}

#endif

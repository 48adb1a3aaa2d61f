/*
 * KeyValue: the v3 cell layout, the key layout, and HBase's cell order
 * (format-specs/keyvalue.md).
 *
 *   cell = keyLength:be32 valueLength:be32 key value tagsLength:be16 tags mvcc:vlong
 *   key  = rowLength:be16 row familyLength:u8 family qualifier timestamp:be64 type:u8
 *
 * tagsLength is present when the file includes tags (hfile.MAX_TAGS_LEN in file
 * info; HFileOutputFormat2 always does for v3) and the mvcc vlong when it
 * includes mvcc (KEY_VALUE_VERSION = 1); hfilegen always writes both, with
 * mvcc 0, as HFileOutputFormat2 does.
 */
#ifndef HFG_FORMAT_KV_H
#define HFG_FORMAT_KV_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hfilegen/types.h"
#include "util/coding.h"

#define HFG_KV_KEY_INFRA 12        /* rowLength(2) + familyLength(1) + ts(8) + type(1) */
#define HFG_KV_MAX_ROW 32767       /* rowLength is read as a signed short */
#define HFG_KV_MAX_FAMILY 127      /* familyLength is read as a signed byte */
#define HFG_KV_MAX_TAGS 65535
#define HFG_LATEST_TIMESTAMP INT64_MAX

static inline size_t hfg_kv_key_len(const hfg_cell *c) {
  return HFG_KV_KEY_INFRA + c->row_len + c->family_len + c->qualifier_len;
}

/* Bytes the cell takes in a data block (with tags length and a 1-byte mvcc 0). */
static inline size_t hfg_kv_cell_len(const hfg_cell *c) {
  return 8 + hfg_kv_key_len(c) + c->value_len + 2 + c->tags_len + 1;
}

/* Validates lengths against the format limits; 0 or HFG_ETOOBIG/HFG_EINVAL. */
static inline int hfg_kv_check(const hfg_cell *c) {
  if (c->row_len == 0 || c->row_len > HFG_KV_MAX_ROW) return HFG_ETOOBIG;
  if (c->family_len > HFG_KV_MAX_FAMILY) return HFG_ETOOBIG;
  if (c->tags_len > HFG_KV_MAX_TAGS) return HFG_ETOOBIG;
  /* keyLength and valueLength are Java ints. */
  if (hfg_kv_key_len(c) > INT32_MAX || c->value_len > INT32_MAX) return HFG_ETOOBIG;
  return 0;
}

/* Writes the key (hfg_kv_key_len bytes) / the whole cell (hfg_kv_cell_len). */
static inline uint8_t *hfg_kv_put_key(uint8_t *p, const hfg_cell *c) {
  hfg_put_be16(p, (uint16_t)c->row_len);
  p += 2;
  hfg_copy(p, c->row, c->row_len);
  p += c->row_len;
  *p++ = (uint8_t)c->family_len;
  hfg_copy(p, c->family, c->family_len);
  p += c->family_len;
  hfg_copy(p, c->qualifier, c->qualifier_len);
  p += c->qualifier_len;
  hfg_put_be64(p, (uint64_t)c->timestamp);
  p += 8;
  *p++ = c->type;
  return p;
}

static inline uint8_t *hfg_kv_put_cell(uint8_t *p, const hfg_cell *c) {
  hfg_put_be32(p, (uint32_t)hfg_kv_key_len(c));
  hfg_put_be32(p + 4, (uint32_t)c->value_len);
  p = hfg_kv_put_key(p + 8, c);
  hfg_copy(p, c->value, c->value_len);
  p += c->value_len;
  hfg_put_be16(p, (uint16_t)c->tags_len);
  p += 2;
  hfg_copy(p, c->tags, c->tags_len);
  p += c->tags_len;
  *p++ = 0; /* mvcc / sequence id 0, as HFileOutputFormat2 writes */
  return p;
}


/* HBase cell order (CellComparatorImpl): row, family, qualifier as unsigned
 * bytes, then timestamp descending, then type descending. <0, 0, >0. */
int hfg_kv_compare(const hfg_cell *a, const hfg_cell *b);
/* The same order for two cells known to have equal rows, neither of them the
 * "last on row" key (type Minimum with empty family and qualifier): family,
 * qualifier, timestamp, type. */
static inline int hfg_kv_compare_columns(const hfg_cell *a, const hfg_cell *b) {
  int r = hfg_bytes_cmp(a->family, a->family_len, b->family, b->family_len);
  if (r) return r;
  r = hfg_bytes_cmp(a->qualifier, a->qualifier_len, b->qualifier, b->qualifier_len);
  if (r) return r;
  if (a->timestamp != b->timestamp) return a->timestamp > b->timestamp ? -1 : 1;
  return (int)b->type - (int)a->type;
}

/* Same order over two serialized keys. Keys must be well formed. */
int hfg_kv_compare_keys(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/* Splits a serialized key into its parts (pointers into key). 0 or HFG_ECORRUPT. */
int hfg_kv_parse_key(const uint8_t *key, size_t len, hfg_cell *out);

/* The index key HBase stores for a block whose first cell is `right` when the
 * previous block ended with `left` (HFileWriterImpl.getMidpoint, 2.5+): a
 * shortened "fake" key k with left < k <= right, or right's own key.
 * left == NULL gives right's key. Writes into out (room for
 * hfg_kv_key_len(right) + 1 bytes suffices) and returns the key length. */
size_t hfg_kv_midpoint_key(const hfg_cell *left, const hfg_cell *right, uint8_t *out);

#endif

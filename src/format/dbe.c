/* Data block encoding dispatcher and shared helpers: format-specs/encodings.md. */
#include "format/dbe.h"

#include <string.h>

#include "format/kv.h"
#include "util/coding.h"

static const char *const enc_names[HFG_ENCODING_COUNT_] = {
    "none", "prefix", "diff", "fast_diff", "row_index_v1"};
static const char *const enc_hbase_names[HFG_ENCODING_COUNT_] = {
    "NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1"};
static const int enc_ids[HFG_ENCODING_COUNT_] = {0, 2, 3, 4, 7};

const char *hfg_encoding_name(hfg_encoding e) {
  return (unsigned)e < HFG_ENCODING_COUNT_ ? enc_names[e] : NULL;
}
const char *hfg_encoding_hbase_name(hfg_encoding e) {
  return (unsigned)e < HFG_ENCODING_COUNT_ ? enc_hbase_names[e] : NULL;
}
int hfg_encoding_hbase_id(hfg_encoding e) {
  return (unsigned)e < HFG_ENCODING_COUNT_ ? enc_ids[e] : -1;
}
int hfg_encoding_from_id(int id, hfg_encoding *out) {
  for (int i = 0; i < HFG_ENCODING_COUNT_; i++)
    if (enc_ids[i] == id) {
      *out = (hfg_encoding)i;
      return 0;
    }
  return -1;
}

int hfg_encoding_parse(const char *name, hfg_encoding *out) {
  if (!name || !out) return -1;
  for (int i = 0; i < HFG_ENCODING_COUNT_; i++) {
    const char *a = name, *b = enc_names[i];
    for (;; a++, b++) {
      char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
      if (x == '-') x = '_';
      if (x != *b) break;
      if (!x) {
        *out = (hfg_encoding)i;
        return 0;
      }
    }
  }
  return -1;
}

void hfg_dbe_init(hfg_dbe *e, hfg_encoding enc) {
  memset(e, 0, sizeof *e);
  e->enc = enc;
}

void hfg_dbe_free(hfg_dbe *e) {
  hfg_buf_free(&e->out);
  hfg_buf_free(&e->rows);
}

int hfg_dbe_begin(hfg_dbe *e) {
  hfg_buf_reset(&e->out);
  hfg_buf_reset(&e->rows);
  e->unencoded = e->encoded = 0;
  /* HFileBlockDefaultEncodingContext.prepareEncoding: the encoding id; then
   * BufferedDataBlockEncoder.startBlockEncoding: a dummy int, set at the end. */
  if (hfg_buf_put_be16(&e->out, (uint16_t)hfg_encoding_hbase_id(e->enc))) return HFG_ENOMEM;
  if (e->enc != HFG_ENCODING_ROW_INDEX_V1 && hfg_buf_put_be32(&e->out, 0)) return HFG_ENOMEM;
  return 0;
}

int hfg_dbe_add(hfg_dbe *e, const hfg_cell *c, const uint8_t *kv, const hfg_cell *prev) {
  size_t klen = hfg_kv_key_len(c), kv_len = hfg_kv_cell_len(c);
  if (e->enc == HFG_ENCODING_ROW_INDEX_V1) {
    size_t rows_before = e->rows.len;
    int rc = hfg_enc_row_index_cell(e, c, prev);
    if (rc) return rc;
    e->unencoded += kv_len;
    e->encoded += kv_len + (e->rows.len - rows_before);
    return 0;
  }
  size_t room = klen + c->value_len + c->tags_len + HFG_DBE_CELL_SLACK;
  if (e->out.cap - e->out.len < room && hfg_buf_reserve(&e->out, room)) return HFG_ENOMEM;
  uint8_t *o = e->out.p + e->out.len, *end;
  const uint8_t *key = kv + 8;
  switch (e->enc) {
    case HFG_ENCODING_PREFIX: end = hfg_enc_prefix_cell(o, c, key, klen, prev); break;
    case HFG_ENCODING_DIFF: end = hfg_enc_diff_cell(o, c, key, klen, prev); break;
    case HFG_ENCODING_FAST_DIFF: end = hfg_enc_fast_diff_cell(o, c, key, klen, prev); break;
    default: return HFG_EINVAL;
  }
  e->out.len += (size_t)(end - o);
  e->unencoded += kv_len;
  e->encoded += (size_t)(end - o);
  return 0;
}

int hfg_dbe_finish(hfg_dbe *e, const uint8_t *cells, size_t cells_len) {
  if (e->enc == HFG_ENCODING_ROW_INDEX_V1) return hfg_enc_row_index_finish(e, cells, cells_len);
  if (e->unencoded > INT32_MAX) return HFG_ETOOBIG;
  /* BufferedDataBlockEncoder.endBlockEncoding: the cells' unencoded size */
  hfg_put_be32(e->out.p + 2, (uint32_t)e->unencoded);
  return 0;
}

int hfg_dbe_put_cint(hfg_buf *b, uint32_t v) {
  uint8_t t[5];
  return hfg_buf_append(b, t, (size_t)(hfg_dbe_cint(t, v) - t));
}

int hfg_dbe_long_fits(uint64_t v) {
  if (v >> 63) return 8;
  int n = 1;
  while (n < 8 && (v >> (8 * n)) != 0) n++;
  return n;
}


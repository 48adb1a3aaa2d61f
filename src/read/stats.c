/*
 * Whole-file statistics for `inspect --stats`: one scanner pass over the
 * cells plus a header walk over the DATA blocks for the compression ratio.
 */
#include <string.h>

#include "read/rd.h"

static unsigned bucket(uint64_t v) {
  unsigned b = 0;
  while (v) {
    b++;
    v >>= 1;
  }
  return b < HFG_STATS_BUCKETS ? b : HFG_STATS_BUCKETS - 1;
}

static void note_family(hfg_stats *st, const uint8_t *f, size_t n) {
  for (size_t i = 0; i < st->family_count; i++)
    if (st->family_len[i] == n && memcmp(st->family[i], f, n) == 0) return;
  if (st->family_count == HFG_STATS_MAX_FAMILIES) {
    st->families_truncated = 1;
    return;
  }
  if (n > sizeof st->family[0]) n = sizeof st->family[0];
  memcpy(st->family[st->family_count], f, n);
  st->family_len[st->family_count] = (uint8_t)n;
  st->family_count++;
}

static int data_blocks(hfg_reader *r, hfg_stats *st) {
  const hfg_trailer *t = &r->trailer;
  if (t->entry_count == 0 || t->first_data_block_offset < 0) return 0;
  uint64_t off = (uint64_t)t->first_data_block_offset;
  while ((int64_t)off <= t->last_data_block_offset) {
    hfg_block_info in;
    int rc = rd_block_header(r, off, t->load_on_open_offset, &in);
    if (rc) return rc;
    if (in.type == HFG_BLOCK_DATA || in.type == HFG_BLOCK_ENCODED_DATA) {
      st->data_blocks++;
      st->data_uncompressed_bytes += in.uncompressed_size;
      st->data_on_disk_bytes += in.on_disk_size_with_header;
      st->data_on_disk_payload_bytes += in.on_disk_data_size_with_header - RD_HDR;
    }
    off += in.on_disk_size_with_header;
  }
  return 0;
}

int hfg_reader_stats(hfg_reader *r, hfg_stats *st) {
  RD_ENTER(r);
  memset(st, 0, sizeof *st);
  st->min_ts = INT64_MAX;
  st->max_ts = INT64_MIN;
  int rc = data_blocks(r, st);
  if (rc) return rc;
  hfg_scanner *s;
  if ((rc = hfg_scanner_new(r, &s))) return hfg_err_set(&r->err, rc, "out of memory");
  hfg_read_cell c;
  /* rows are at most 32767 bytes (rowLength is a signed short) */
  uint8_t prev_row[32768];
  size_t prev_len = 0;
  int have_prev = 0;
  uint64_t row_bytes = 0;
  while ((rc = hfg_scanner_next(s, &c)) == 1) {
    const hfg_cell *k = &c.cell;
    uint64_t cell_bytes = 8 + c.key_len + k->value_len +
                          (r->meta.includes_tags ? 2 + k->tags_len : 0);
    if (!have_prev || prev_len != k->row_len || memcmp(prev_row, k->row, prev_len) != 0) {
      if (have_prev) st->row_hist[bucket(row_bytes)]++;
      row_bytes = 0;
      st->rows++;
      if (st->rows == 1 || k->row_len < st->row_key_min) st->row_key_min = k->row_len;
      if (k->row_len > st->row_key_max) st->row_key_max = k->row_len;
      memcpy(prev_row, k->row, k->row_len);
      prev_len = k->row_len;
      have_prev = 1;
    }
    row_bytes += cell_bytes;
    st->cells++;
    st->key_bytes += c.key_len;
    st->value_bytes += k->value_len;
    st->tags_bytes += k->tags_len;
    st->key_hist[bucket(c.key_len)]++;
    st->value_hist[bucket(k->value_len)]++;
    st->type_count[k->type]++;
    if (k->timestamp < st->min_ts) st->min_ts = k->timestamp;
    if (k->timestamp > st->max_ts) st->max_ts = k->timestamp;
    note_family(st, k->family, k->family_len);
  }
  if (have_prev) st->row_hist[bucket(row_bytes)]++;
  if (rc < 0) hfg_err_force(&r->err, rc, "%s", hfg_scanner_errmsg(s));
  hfg_scanner_free(s);
  return rc < 0 ? rc : 0;
}

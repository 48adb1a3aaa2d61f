/*
 * Fuzz target: the HFile reader behind `inspect` and `verify`
 * (include/hfilegen/reader.h), opened over the input bytes. Pass 1 runs
 * hfg_verify with checksums on, as `hfilegen verify` does. Pass 2 turns
 * checksums off (as `inspect` can) so that corrupted payloads reach every
 * parser: index load, every block, scanner with seeks, blooms, stats, file
 * info decoding, key rendering, verify again. Checks: every failure carries a
 * message; the scanner returns no more cells than the input has bytes.
 */
#include <string.h>

#include "fuzz.h"
#include "hfilegen/reader.h"

static void walk(hfg_reader *r, size_t size) {
  hfg_index_summary is;
  if (hfg_reader_load_index(r, &is) != 0) FZ_ASSERT(hfg_reader_errmsg(r)[0] != '\0');
  hfg_reader_clear_error(r);
  const hfg_trailer *t = hfg_reader_trailer(r);
  FZ_ASSERT(t != NULL);
  /* every block in file order, as `inspect --blocks` does */
  uint64_t off = 0;
  for (int k = 0; k < 10000 && off < t->file_size; k++) {
    hfg_block_info b;
    if (hfg_reader_block_header(r, off, &b)) break;
    const uint8_t *pl;
    size_t len;
    if (hfg_reader_read_block(r, off, NULL, &pl, &len) == 0) FZ_ASSERT(len == b.uncompressed_size);
    if (b.on_disk_size_with_header == 0) break;
    off += b.on_disk_size_with_header;
  }
  hfg_reader_clear_error(r);
  for (size_t i = 0; i < hfg_reader_fileinfo_count(r); i++) {
    const uint8_t *k, *v;
    size_t kl, vl;
    if (hfg_reader_fileinfo_entry(r, i, &k, &kl, &v, &vl)) continue;
    char buf[256];
    int64_t a, b;
    if (kl == 9 && !memcmp(k, "TIMERANGE", 9)) hfg_decode_timerange(v, vl, &a, &b);
    hfg_format_key(v, vl, buf, sizeof buf);
  }
  for (size_t i = 0; i < hfg_reader_root_count(r); i++) {
    hfg_index_entry e;
    char buf[128];
    if (hfg_reader_root_entry(r, i, &e) == 0) hfg_format_key(e.key, e.key_len, buf, sizeof buf);
  }
  hfg_scanner *sc;
  if (hfg_scanner_new(r, &sc) == 0) {
    hfg_read_cell c;
    uint64_t cells = 0;
    int x;
    uint8_t mid[64];
    size_t midlen = 0;
    while ((x = hfg_scanner_next(sc, &c)) == 1) {
      cells++;
      FZ_ASSERT(cells <= size);
      if (cells == 3 && c.key_len <= sizeof mid) {
        memcpy(mid, c.key, c.key_len);
        midlen = c.key_len;
      }
    }
    if (x < 0) FZ_ASSERT(hfg_scanner_errmsg(sc)[0] != '\0');
    if (midlen) {
      if (hfg_scanner_seek(sc, mid, midlen) == 0) hfg_scanner_next(sc, &c);
      hfg_cell pk;
      if (hfg_parse_key(mid, midlen, &pk) == 0 && hfg_scanner_seek_row(sc, pk.row, pk.row_len) == 0)
        hfg_scanner_next(sc, &c);
    }
    hfg_scanner_rewind(sc);
    hfg_scanner_seek_row(sc, (const uint8_t *)"row000100", 9);
    hfg_scanner_next(sc, &c);
    hfg_scanner_free(sc);
  }
  hfg_index_entry e;
  hfg_reader_locate(r, (const uint8_t *)"\x00\x03row\x02" "cfq", 9, &e);
  hfg_bloom_summary bs;
  hfg_reader_bloom(r, 0, &bs);
  hfg_reader_bloom(r, 1, &bs);
  hfg_reader_bloom_check(r, (const uint8_t *)"row000001", 9, (const uint8_t *)"q", 1);
  hfg_reader_delete_family_bloom_check(r, (const uint8_t *)"row000001", 9);
  static hfg_stats st;
  hfg_reader_stats(r, &st);
  hfg_reader_clear_error(r);
  hfg_verify_report rep;
  if (hfg_verify(r, &rep) != 0) FZ_ASSERT(rep.message[0] != '\0');
  hfg_verify_report_free(&rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* a private copy of exactly size bytes: reads past the end are caught */
  uint8_t *p = malloc(size ? size : 1);
  if (!p) return 0;
  memcpy(p, data, size);
  hfg_reader *r = NULL;
  int rc = hfg_reader_open_mem(p, size, &r);
  if (rc) {
    FZ_ASSERT(r == NULL ? rc == HFG_ENOMEM : hfg_reader_errmsg(r)[0] != '\0');
    hfg_reader_close(r);
    free(p);
    return 0;
  }
  hfg_verify_report rep;
  if (hfg_verify(r, &rep) != 0) FZ_ASSERT(rep.message[0] != '\0');
  hfg_verify_report_free(&rep);
  hfg_reader_close(r);

  if (hfg_reader_open_mem(p, size, &r) == 0) {
    hfg_reader_set_verify_checksums(r, 0);
    walk(r, size);
  }
  hfg_reader_close(r);
  free(p);
  return 0;
}

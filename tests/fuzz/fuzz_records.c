/*
 * Fuzz target: the CSV/TSV record reader (src/input/record_reader.h).
 * Byte 0 picks the format, header, delimiter and expected column count;
 * byte 1 a tiny read buffer (forcing refills at every position), a record
 * size limit and whether the rest is split into two inputs (later headers).
 * The rest is the file content (gzip is recognised by its magic). Checks:
 * every good record has the expected field count and no reason, every
 * malformed one a reason; a TSV record, and a CSV record without quotes, is
 * exactly its fields joined by the delimiter; line numbers never go back.
 */
#include <string.h>

#include "fuzz.h"
#include "input/record_reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  uint8_t c0 = data[0], c1 = data[1];
  data += 2;
  size -= 2;
  static const int delims[] = {-1, ',', ';', '|', '\t', 0, ' ', '"'};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = (c0 & 1) ? HFG_INPUT_TSV : HFG_INPUT_CSV;
  o.has_header = (c0 >> 1) & 1;
  o.delimiter = delims[(c0 >> 2) & 7];
  o.expected_columns = (c0 >> 5) & 3;
  o.buffer_size = 1 + (c1 & 15) * 7;
  o.max_record_bytes = (c1 & 16) ? 16 + (size_t)(c1 >> 6) * 100 : 0;
  int two = (c1 >> 5) & 1;

  char p1[64], p2[64];
  size_t half = two ? size / 2 : size;
  int fd1 = fz_memfile(data, half, p1, sizeof p1);
  int fd2 = two ? fz_memfile(data + half, size - half, p2, sizeof p2) : -1;
  if (fd1 < 0 || (two && fd2 < 0)) {
    if (fd1 >= 0) close(fd1);
    if (fd2 >= 0) close(fd2);
    return 0;
  }
  const char *paths[2] = {p1, p2};
  hfg_record_reader *r = NULL;
  char msg[512];
  int rc = hfg_record_reader_open(paths, two ? 2 : 1, &o, &r, msg, sizeof msg);
  if (rc) {
    FZ_ASSERT(r == NULL && msg[0] != '\0');
  } else {
    int delim = o.delimiter < 0 ? (o.format == HFG_INPUT_TSV ? '\t' : ',') : o.delimiter;
    hfg_record rec;
    const char *last_file = NULL;
    uint64_t last_line = 0;
    for (int k = 0; k < 100000; k++) {
      rc = hfg_record_reader_next(r, &rec);
      if (rc == 0) break;
      if (rc < 0 && rc != HFG_EPARSE) {
        FZ_ASSERT(hfg_record_reader_errmsg(r)[0] != '\0');
        FZ_ASSERT(hfg_record_reader_next(r, &rec) == rc); /* sticky */
        break;
      }
      FZ_ASSERT(rec.file != NULL && rec.line >= 1);
      if (rec.file == last_file) FZ_ASSERT(rec.line > last_line);
      last_file = rec.file;
      last_line = rec.line;
      if (rc == HFG_EPARSE) {
        FZ_ASSERT(rec.reason != NULL && rec.reason[0] != '\0');
        if (o.max_record_bytes) FZ_ASSERT(rec.raw_len <= o.max_record_bytes);
        continue;
      }
      FZ_ASSERT(rec.reason == NULL);
      size_t want = hfg_record_reader_expected_columns(r);
      FZ_ASSERT(want != 0 && rec.nfields == want);
      if (o.format == HFG_INPUT_TSV || !memchr(rec.raw, '"', rec.raw_len)) {
        /* raw is exactly the fields joined by the delimiter */
        size_t at = 0;
        for (size_t i = 0; i < rec.nfields; i++) {
          if (i) {
            FZ_ASSERT(at < rec.raw_len && (uint8_t)rec.raw[at] == (uint8_t)delim);
            at++;
          }
          FZ_ASSERT(at + rec.fields[i].len <= rec.raw_len);
          FZ_ASSERT(rec.fields[i].len == 0 ||
                    !memcmp(rec.raw + at, rec.fields[i].p, rec.fields[i].len));
          at += rec.fields[i].len;
        }
        FZ_ASSERT(at == rec.raw_len);
      }
    }
    size_t ncols;
    const char *const *cols = hfg_record_reader_columns(r, &ncols);
    if (o.has_header && cols)
      for (size_t i = 0; i < ncols; i++) FZ_ASSERT(cols[i] != NULL);
    hfg_record_reader_free(r);
  }
  close(fd1);
  if (fd2 >= 0) close(fd2);
  return 0;
}

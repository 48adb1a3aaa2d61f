/*
 * Fuzz target: the dump dialects behind the record reader
 * (src/input/record_dialect.h). Byte 0 picks the format (mysql, pg-text,
 * pg-csv), a header, a NULL string and one of a few FIELDS/LINES option sets;
 * byte 1 a tiny read buffer and a record size limit. The rest is the file.
 * The input is read twice, with the tiny buffer and with the default one:
 * both readings must agree record for record (a parse that runs off the
 * buffer restarts cleanly). Checks besides: a good record has the expected
 * field count and no reason, a NULL field has length 0, unescaped fields are
 * never longer than the raw record, a malformed one has a reason, line
 * numbers only go up.
 */
#include <string.h>

#include "fuzz.h"
#include "input/record_reader.h"

typedef struct {
  char *p;
  size_t len, cap;
} obuf;

static void put(obuf *b, const void *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t c = b->cap ? b->cap : 4096;
    while (c < b->len + n) c *= 2;
    char *np = realloc(b->p, c);
    FZ_ASSERT(np != NULL);
    b->p = np;
    b->cap = c;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static void put_u64(obuf *b, uint64_t v) { put(b, &v, sizeof v); }

/* Reads all records of path into a byte transcript; returns 0 or the open error. */
static int transcript(const char *path, const hfg_input_options *o, obuf *out) {
  const char *paths[1] = {path};
  hfg_record_reader *r = NULL;
  char msg[512];
  int rc = hfg_record_reader_open(paths, 1, o, &r, msg, sizeof msg);
  if (rc) {
    FZ_ASSERT(r == NULL && msg[0] != '\0');
    return rc;
  }
  size_t ncols = 0;
  const char *const *cols = hfg_record_reader_columns(r, &ncols);
  put_u64(out, ncols);
  for (size_t i = 0; i < ncols; i++) put(out, cols[i], strlen(cols[i]) + 1);
  uint64_t last_line = 0;
  hfg_record rec;
  for (int k = 0; k < 100000; k++) {
    rc = hfg_record_reader_next(r, &rec);
    put_u64(out, (uint64_t)(int64_t)rc);
    if (rc == 0) break;
    if (rc < 0 && rc != HFG_EPARSE) {
      const char *m = hfg_record_reader_errmsg(r);
      FZ_ASSERT(m[0] != '\0');
      put(out, m, strlen(m) + 1);
      break;
    }
    FZ_ASSERT(rec.line > last_line);
    last_line = rec.line;
    put_u64(out, rec.line);
    put_u64(out, rec.raw_len);
    put(out, rec.raw, rec.raw_len);
    if (rc == HFG_EPARSE) {
      FZ_ASSERT(rec.reason != NULL && rec.reason[0] != '\0');
      if (o->max_record_bytes) FZ_ASSERT(rec.raw_len <= o->max_record_bytes);
      put(out, rec.reason, strlen(rec.reason) + 1);
      continue;
    }
    FZ_ASSERT(rec.reason == NULL);
    FZ_ASSERT(rec.nfields == hfg_record_reader_expected_columns(r));
    size_t total = 0;
    put_u64(out, rec.nfields);
    for (size_t i = 0; i < rec.nfields; i++) {
      const hfg_field *f = &rec.fields[i];
      if (f->is_null) FZ_ASSERT(f->len == 0);
      total += f->len;
      put_u64(out, (uint64_t)f->is_null);
      put_u64(out, f->len);
      put(out, f->p, f->len);
    }
    FZ_ASSERT(total <= rec.raw_len);
  }
  hfg_record_reader_free(r);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  uint8_t c0 = data[0], c1 = data[1];
  data += 2;
  size -= 2;
  static const hfg_input_format fmts[] = {HFG_INPUT_MYSQL, HFG_INPUT_PG_TEXT, HFG_INPUT_PG_CSV,
                                          HFG_INPUT_MYSQL};
  static const char *nulls[] = {NULL, "", "NULL", "\\N"};
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = fmts[c0 & 3];
  o.has_header = (c0 >> 2) & 1;
  o.null_string = nulls[(c0 >> 3) & 3];
  int opt = (c0 >> 5) & 7;
  if (o.format == HFG_INPUT_MYSQL) {
    switch (opt) {
      case 1: o.fields_terminated_by = ","; o.fields_enclosed_by = "\""; o.lines_terminated_by = "\r\n"; break;
      case 2: o.fields_terminated_by = "||"; o.fields_enclosed_by = "'"; o.lines_terminated_by = "##\n"; break;
      case 3: o.fields_escaped_by = ""; break;
      case 4: o.fields_terminated_by = ";"; o.fields_enclosed_by = "\""; o.fields_escaped_by = "\""; break;
      case 5: o.fields_enclosed_by = "n"; break; /* an enclosure that is an escape letter */
      default: break;
    }
  } else if (o.format == HFG_INPUT_PG_CSV) {
    if (opt & 1) o.fields_escaped_by = "\\";
    if (opt & 2) o.delimiter = '\t';
  } else if (opt & 1) {
    o.delimiter = '|';
  }
  o.max_record_bytes = (c1 & 16) ? 16 + (size_t)(c1 >> 6) * 100 : 0;

  char path[64];
  int fd = fz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  obuf a = {0}, b = {0};
  o.buffer_size = 1 + (c1 & 15) * 3;
  int ra = transcript(path, &o, &a);
  o.buffer_size = 0;
  int rb = transcript(path, &o, &b);
  FZ_ASSERT(ra == rb);
  FZ_ASSERT(a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0));
  free(a.p);
  free(b.p);
  close(fd);
  return 0;
}

/*
 * Part readers: one input of a record reader, or one byte range of a plain
 * file, read by a reader of its own so that parallel ingest
 * (build_ingest_par.c) parses several parts at once. Contract in
 * record_reader.h ("Parts").
 *
 * A part reader is an ordinary reader over one path, configured as its
 * parent (format, delimiter, expected field count, NULL string, dialect,
 * record limit) and holding a copy of the parent's first header, so that the
 * part's own header is checked exactly as the parent checks a later input's.
 * Started mid-file (part_start > 0) it opens the file at that byte with no
 * sniffing, BOM check or header, numbers lines from part_line, and tracks the
 * file offset of its buffer (buf_off) so that where a record starts, and where
 * the part ended, are known as file offsets. Parsing is the parent's code
 * itself (record_reader.c), whose result never depends on the buffer: a
 * part that starts where the whole-file reader has a record start reads the
 * same records, bytes and reasons as the whole-file reader does from there.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "input/record_reader_int.h"
#include "util/alloc.h"

int hfg_record_reader_open_part(const hfg_record_reader *r, const hfg_input_options *opts,
                                size_t input, uint64_t start, uint64_t line, uint64_t limit,
                                hfg_record_reader **out, char *errmsg, size_t errlen) {
  *out = NULL;
  if (input >= r->npaths || r->shown[input]) {
    if (errmsg && errlen) snprintf(errmsg, errlen, "input %zu: not a file", input);
    return HFG_EINVAL;
  }
  hfg_input_options o = *opts;
  o.has_header = 0; /* the part reads its own header when it starts at 0: below */
  o.column_names = NULL;
  o.ncolumn_names = 0;
  o.expected_columns = r->expected;
  o.check_column = o.last_value = NULL;
  const char *path = r->paths[input];
  hfg_record_reader *p;
  int rc = hfg_record_reader_open(&path, 1, &o, &p, errmsg, errlen);
  if (rc) return rc;
  p->has_header = r->has_header;
  if (r->hdr) {
    if (!(p->hdr = hfg_rr_copy_strs((const char *const *)r->hdr, NULL, r->nhdr))) {
      hfg_record_reader_free(p);
      if (errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
      return HFG_ENOMEM;
    }
    p->nhdr = r->nhdr;
    p->header_from = r->header_from; /* borrowed: the parent outlives its parts */
  }
  /* a file's first part without a header checks that its first record is not
   * the column names (hfg_record_reader_next) */
  if (!start && !r->has_header && r->given) {
    if (!(p->given = hfg_rr_copy_strs((const char *const *)r->given, NULL, r->ngiven))) {
      hfg_record_reader_free(p);
      if (errmsg && errlen) snprintf(errmsg, errlen, "out of memory");
      return HFG_ENOMEM;
    }
    p->ngiven = r->ngiven;
  }
  p->part_start = start;
  p->part_line = line;
  p->limit = limit;
  *out = p;
  return 0;
}

void hfg_record_reader_part_end(const hfg_record_reader *r, uint64_t *offset, uint64_t *line) {
  *offset = r->buf_off + r->pos;
  *line = r->line;
}

uint64_t hfg_record_reader_record_offset(const hfg_record_reader *r, const hfg_record *rec) {
  return r->buf_off + (uint64_t)(rec->raw - r->buf);
}

const char *hfg_record_reader_input_name(const hfg_record_reader *r, size_t input) {
  if (input >= r->npaths) return "?";
  if (r->shown[input]) return r->shown[input];
  return strcmp(r->paths[input], "-") == 0 ? "<stdin>" : r->paths[input];
}

size_t hfg_record_reader_inputs(const hfg_record_reader *r) { return r->npaths; }

int hfg_record_reader_input_regular(const hfg_record_reader *r, size_t input) {
  struct stat st;
  return input < r->npaths && !r->shown[input] && strcmp(r->paths[input], "-") != 0 &&
         stat(r->paths[input], &st) == 0 && S_ISREG(st.st_mode);
}

int hfg_record_reader_input_plain(const hfg_record_reader *r, size_t input, uint64_t *size) {
  *size = 0;
  if (input >= r->npaths || r->shown[input] || strcmp(r->paths[input], "-") == 0) return 0;
  if (hfg_dialect_handles(r->fmt_opt)) return 0;
  struct stat st;
  if (stat(r->paths[input], &st) != 0 || !S_ISREG(st.st_mode)) return 0;
  hfg_rin in;
  hfg_err e = {0};
  if (hfg_rin_open(&in, r->paths[input], r->paths[input], &e)) return 0; /* told in order */
  int plain = in.kind == HFG_RIN_PLAIN;
  hfg_rin_close(&in);
  *size = (uint64_t)st.st_size;
  return plain;
}

/* ---- Byte ranges for a distributed runner (record_reader.h) ---- */

int hfg_record_reader_set_range(hfg_record_reader *r, uint64_t start, uint64_t end,
                                uint64_t first_line) {
  if (r->npaths != 1 || r->dialect || r->any_db)
    return hfg_err_set(&r->err, HFG_EINVAL, "byte ranges are for one CSV/TSV file");
  r->limit = end ? end : UINT64_MAX;
  if (start == 0) return 0; /* the file's start: as opened (its header read) */
  if (r->has_header || r->in_open || r->next_path)
    return hfg_err_set(&r->err, HFG_EINVAL, "a byte range past the start needs the column "
                                            "names given and no header");
  hfg_rin probe; /* the sniff a range past the start skips: a compressed file cannot */
  int rc = hfg_rin_open(&probe, r->paths[0], r->paths[0], &r->err);
  if (rc) return rc;
  int plain = probe.kind == HFG_RIN_PLAIN && probe.owns_fd;
  hfg_rin_close(&probe);
  if (!plain)
    return hfg_err_set(&r->err, HFG_EUNSUPPORTED, "%s: only an uncompressed file can be read "
                                                  "from a byte offset", r->paths[0]);
  /* next() opens the file as a part reader's: at start, line first_line there,
   * no byte order mark or header check inside the file */
  r->part_start = start;
  r->part_line = first_line;
  return 0;
}

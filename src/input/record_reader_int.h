/*
 * Private to the record reader (record_reader.c) and its part readers
 * (record_part.c): the reader's state. See record_reader.c for the buffer
 * invariants.
 */
#ifndef HFG_PIPELINE_RECORD_READER_INT_H
#define HFG_PIPELINE_RECORD_READER_INT_H

#include <stdint.h>

#include "input/record_dialect.h"
#include "input/record_input.h"
#include "input/record_reader.h"
#include "input/source_db.h"
#include "util/err.h"

enum { HFG_RR_AT_FILE = 1, HFG_RR_AT_MID = 2 };

struct hfg_record_reader {
  hfg_input_format fmt;  /* of the open input */
  unsigned char delim;
  hfg_input_format fmt_opt; /* as given: HFG_INPUT_AUTO picks per input */
  int delim_opt;         /* as given: -1 the format's default */
  int has_header;
  size_t expected;
  size_t max_record;
  char max_note[160]; /* opts.max_record_note: why max_record is what it is, "" none */
  size_t cap0;        /* the buffer's first size, which it goes back to after a long record */

  char **paths; /* copies */
  size_t npaths, next_path;
  const char *name; /* display name of the open input */

  hfg_rin in;
  int in_open;
  uint64_t bytes_done; /* of closed inputs */

  char *buf;
  size_t cap, pos, end;
  int eof;
  uint64_t line; /* line number of buf[pos] */
  int at_start;  /* HFG_RR_AT_FILE: encoding and BOM checks pending; HFG_RR_AT_MID: a
                    part's start mid-file, its leading blank lines not counted; 0 */
  int skip_line; /* discarding the rest of an overlong line */
  int first_is_data; /* an input read from its start without a header but with column
                        names given: its first record must not be those names */

  hfg_field *fields;
  size_t fcap, nf;
  char *scratch;
  size_t scap;

  char **hdr;  /* the first header; one allocation: pointers, then the strings */
  size_t nhdr;
  char **cols; /* the names handed out: hdr, or given (then owned apart) */
  size_t ncols;
  char **given; /* opts.column_names, copied */
  size_t ngiven;
  const char *header_from; /* display name of the input the header came from */

  char reason[384];
  char bin_reason[352]; /* a malformed record's reason when the input looks binary */
  hfg_err err;

  hfg_dialect *dialect; /* the dump dialect's parser, NULL for CSV/TSV */
  char *null_s;         /* CSV/TSV --null-string, NULL when none */
  size_t null_len;

  /* database inputs (source_db.h) */
  char **shown;         /* per path: its redacted form for a URI, NULL for a file */
  int any_db;
  hfg_dbsrc *db;        /* the open database input, NULL for a file */
  char *check_column, *last_value;
  int check_backwards;  /* hfg_input_options.check_backwards */
  char check_max[48];   /* largest check value of closed database inputs, "" none */
  uint64_t nulls_read, nulls_skipped; /* NULL check values of closed database inputs */
  volatile sig_atomic_t *cancel; /* opts.cancel, for database inputs */

  /* A part reader (record_part.c, parallel ingest): one plain file from byte
   * part_start (0: its start, header and all), line part_line there; it ends
   * at the first record that starts at or after limit (UINT64_MAX: none). */
  uint64_t part_start, part_line, limit;
  uint64_t buf_off;     /* file offset of buf[0] (plain input) */

  uint64_t blank_lines; /* CSV/TSV blank lines skipped (hfg_record_reader_blank_lines) */

  int csv_slow; /* tests only: 1 parses every CSV record by parse_csv alone, the
                   reference its fast path (parse_csv_fast) is compared with */
};

/* Inputs in order (record_reader.c): opens paths[next_path] (its header
 * consumed), closes the open one (never stdin). */
int hfg_rr_open_next(hfg_record_reader *r);
void hfg_rr_close_input(hfg_record_reader *r);

/* n strings in one allocation (pointers, then the bytes); lens NULL: strlen. */
char **hfg_rr_copy_strs(const char *const *p, const size_t *lens, size_t n);

/* Headers (record_header.c): the first header's fields hf[0..nh) become the
 * columns; a later one must equal them; a database input's result set is its
 * header. 0, or the error (set in r->err). */
int hfg_rr_set_columns(hfg_record_reader *r, const hfg_field *hf, size_t nh);
int hfg_rr_check_header(hfg_record_reader *r, const hfg_field *hf, size_t nh);
/* The first record of an input read without a header (first_is_data): 1, or
 * HFG_EINVAL when it holds the names given to --columns (a header read as data). */
int hfg_rr_check_first_record(hfg_record_reader *r, const hfg_record *rec);
int hfg_rr_open_db(hfg_record_reader *r, const char *path);
/* Closes the open database input, keeping its check maximum and counts. */
void hfg_rr_close_db(hfg_record_reader *r);
/* "record longer than N bytes" (and the note on the limit) into r->reason. */
void hfg_rr_overlong_reason(hfg_record_reader *r);

/* Text encoding (record_text.c): 0 when the input's first bytes, at
 * buf[pos..end), may be UTF-8 text, else HFG_EUNSUPPORTED with the reason in r->err. */
int hfg_rr_check_encoding(hfg_record_reader *r);

/* Whether the bytes from `at` (in buf; line: its line) look binary rather than
 * CSV/TSV text: a NUL byte, or at least a tenth control bytes (not TAB, LF,
 * CR), in the HFG_RR_SNIFF bytes from there (fewer when the buffer holds
 * fewer). 1 with the evidence in why ("a NUL byte at byte 37, line 1"), else 0.
 * Asked only about a malformed header or early record, so that no text input
 * is refused and the common path pays nothing. */
#define HFG_RR_SNIFF 4096
int hfg_rr_binary_evidence(const hfg_record_reader *r, const char *at, uint64_t line, char *why,
                           size_t cap);

#endif

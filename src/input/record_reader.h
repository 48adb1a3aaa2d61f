/*
 * Record reader: the first pipeline stage. Reads one or more CSV or TSV
 * inputs (files, "-" for stdin, each optionally gzip, zstd, bzip2 or xz
 * compressed) in order and hands out one record at a time as fields plus provenance (file, line, raw
 * bytes), so that later stages can reject a record with its exact source.
 *
 * Syntax
 *   CSV (RFC 4180, with the delimiter configurable):
 *     - a field starting with '"' is quoted: it ends at the next lone '"';
 *       inside it '""' stands for one '"', and delimiters, CR and LF are data.
 *       After the closing quote only the delimiter or the line end may follow,
 *       else the record is malformed ("unexpected character after closing
 *       quote").
 *     - a '"' anywhere in an unquoted field makes the record malformed
 *       ("quote in unquoted field"): such input is ambiguous, and guessing would
 *       silently change data.
 *     - records end at LF or CR LF (the CR is not part of the last field; a CR
 *       right before end of file is dropped too). A lone CR elsewhere is data.
 *   TSV (ImportTsv's convention): no quoting; a record is one line, split at
 *     every delimiter byte; LF or CR LF line ends as above.
 *   Both: lines that are empty (or only "\r") are skipped anywhere in a file,
 *     so a final newline, or several, never makes an empty record; line numbers
 *     still count them, and so does hfg_record_reader_blank_lines. A UTF-8 byte order mark (ef bb bf) at the start of a
 *     file is dropped. Field bytes are not validated (see hfg_utf8_valid).
 *
 * Field count: every record must have the expected number of fields:
 *   opts.expected_columns if non-zero, else the header's column count, else the
 *   field count of the first well-formed record. Others are malformed
 *   ("expected 7 fields, got 5").
 *
 * Malformed records and resynchronisation: hfg_record_reader_next returns
 *   HFG_EPARSE with rec->reason set and rec->raw holding the offending bytes;
 *   reading then continues:
 *     - wrong field count: the record was well-formed, it is skipped whole
 *       (rec->fields/nfields are filled too);
 *     - a syntax error (bad quote): raw runs from the record's start to the end
 *       of the physical line on which the error was found, and reading resumes
 *       on the next line (nfields 0);
 *     - an unterminated quoted field at end of input: raw is everything from
 *       the record's start to the end of the file; the reason says where the
 *       quote opened, relative to the record's first line (rec->line), and how
 *       far it ran ("unterminated quoted field: the quote opened on this line
 *       runs 3 lines (57 bytes) to the end of the input", "... opened on line
 *       2 of the record ...");
 *     - a record longer than opts.max_record_bytes (a stray quote that would
 *       otherwise swallow the rest of the file, or a giant line): the record's
 *       first physical line is rejected ("record longer than N bytes", and
 *       when a quoted field is still open at N bytes ": the quote opened on
 *       this line is still open after 3 lines (N - 2 bytes)") and reading
 *       resumes on the next line; raw is cut at N bytes.
 *
 * Headers: with has_header, the first non-blank line of every input is a
 *   header. The first input's header gives hfg_record_reader_columns (unless
 *   opts.column_names renames them: then the header must have as many
 *   fields); the headers of later inputs are skipped and must be identical to
 *   the first one, else reading stops with HFG_EINVAL ("b.csv: header differs
 *   from a.csv's: ..."). An input with no lines at all is simply empty.
 *
 * Format: CSV, TSV, or HFG_INPUT_AUTO for each input by its name
 *   (hfg_input_format_guess); the delimiter, when given, applies to all.
 *
 * Text encoding: UTF-8 (or ASCII). An input that starts with a UTF-16 or
 *   UTF-32 byte order mark is refused (HFG_EUNSUPPORTED, "convert it with
 *   iconv -f UTF-16 -t UTF-8"), as is one whose first four bytes are ASCII
 *   interleaved with NULs (UTF-16 without a mark). Bytes that look binary (a
 *   NUL, or a tenth control bytes, in the 4 KiB from a malformed header or a
 *   malformed record starting in an input's first 4 KiB; the window is what
 *   the buffer holds when that is less) make the header's error, or the
 *   record's reason, say "the input looks binary, not CSV text (a NUL byte at
 *   byte 37, line 1)" before the parse error; nothing that parses is refused.
 *
 * Inputs: a path of "-" is standard input (read, never closed). Gzip, zstd,
 *   bzip2 and xz input is recognised by its magic bytes, not by its name, and
 *   decompressed on the fly (any number of concatenated streams; data after
 *   the last stream that is not another stream is an error); other
 *   compression formats are refused by name (record_input.h).
 *
 * Dump dialects (HFG_INPUT_MYSQL, _PG_TEXT, _PG_CSV): parsed by
 *   record_dialect.c with the servers' own rules; fields carry is_null for
 *   the dialect's NULL, blank lines are records and no BOM is dropped (see
 *   record_dialect.h). Everything else above (field count, rejects, headers,
 *   inputs) holds for them too.
 *
 * Database inputs: a path that is a URI (postgresql://, postgres://, mysql://,
 *   mariadb://; source_db.h) is read from the server instead of a file. Its
 *   column names are the result set's and serve as its header (has_header
 *   must be set; they must agree with other inputs' headers as above); its
 *   records' file is the URI without its password, their line the row number;
 *   NULL values have is_null. Messages never show the password.
 *
 * Calls: open next* free. Not thread-safe; one reader per thread.
 */
#ifndef HFG_PIPELINE_RECORD_READER_H
#define HFG_PIPELINE_RECORD_READER_H

#include <signal.h> /* sig_atomic_t */
#include <stddef.h>
#include <stdint.h>

#include "hfilegen/scheme.h" /* hfg_field */
#include "hfilegen/status.h"

typedef enum hfg_input_format {
  HFG_INPUT_CSV = 0,
  HFG_INPUT_TSV = 1,
  HFG_INPUT_AUTO = 2, /* each input by its name: hfg_input_format_guess */
  HFG_INPUT_MYSQL = 3,   /* dump dialects: record_dialect.h */
  HFG_INPUT_PG_TEXT = 4,
  HFG_INPUT_PG_CSV = 5
} hfg_input_format;

/* The one rule every command uses to pick the format of an input when none
 * is given: TSV when the name ends in .tsv or .tab (any case), also before a
 * compression suffix (.gz .zst .bz2 .xz: data.tsv.gz), else CSV; "-" (stdin)
 * is CSV. The content is never guessed from. */
hfg_input_format hfg_input_format_guess(const char *path);

/* The record limit when none is given (hfg_input_options.max_record_bytes 0). */
#define HFG_MAX_RECORD_DEFAULT ((size_t)64 << 20)

typedef struct hfg_input_options {
  hfg_input_format format;
  int delimiter;           /* -1: format default (',' CSV, '\t' TSV); else a byte 0..255
                              other than '\n' and '\r' (and '"' for CSV) */
  int has_header;          /* 1: first line of each input is a header */
  size_t expected_columns; /* 0: from the header, else from the first record */
  size_t buffer_size;      /* initial read buffer, 0: 1 MiB. Grows to hold a long
                              record. Tests use tiny sizes to force refills. */
  size_t max_record_bytes; /* 0: 64 MiB. Longest accepted record (raw bytes), the
                              same for every input, database rows included. */
  const char *const *column_names; /* NULL, or names that replace the header's: */
  size_t ncolumn_names;    /* with has_header each input's header is still read,
                              checked and skipped, but must have this many fields;
                              without, they are the columns. Copied at open. */
  /* NULL marker: a field whose raw bytes (unquoted in CSV, before unescaping
   * in the dump dialects) equal it has is_null set. NULL: the format's own
   * (none for CSV/TSV, see record_dialect.h for the others). Refused (open
   * fails) when an input is a database URI, whose NULLs are the server's. */
  const char *null_string;
  /* Dump dialect options (record_dialect.h), NULL for the defaults: mysql's
   * FIELDS TERMINATED BY / ENCLOSED BY / ESCAPED BY and LINES TERMINATED BY
   * (enclosed/escaped: one byte, "" for none); pg-csv takes enclosed_by as
   * its QUOTE and escaped_by as its ESCAPE. */
  const char *fields_terminated_by;
  const char *fields_enclosed_by;
  const char *fields_escaped_by;
  const char *lines_terminated_by;
  /* Database inputs (source_db.h), incremental append mode: only rows whose
   * check_column is > last_value (an integer; NULL: all rows); NULL: off. */
  const char *check_column;
  const char *last_value;
  /* Database inputs: while the server is silent, a read gives up with
   * HFG_ECANCELED within ~200 ms of *cancel becoming nonzero (the build's
   * cancel flag: SIGINT/SIGTERM). NULL: waits as long as the server does. */
  volatile sig_atomic_t *cancel;
  /* Why max_record_bytes is what it is, for the reason of a record over it
   * ("record longer than N bytes (NOTE)"); "" none. Copied at open. */
  char max_record_note[160];
  /* With check_column and last_value: fail when no row reaches last_value any
   * more (HFG_DBSRC_CHECK_BACKWARDS, source_db.h): lastmodified loads. */
  int check_backwards;
} hfg_input_options;

#define HFG_INPUT_OPTIONS_INIT {HFG_INPUT_CSV, -1, 0, 0, 0, 0, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "", 0}

/* One record. All pointers are borrowed: fields, raw and reason until the next
 * hfg_record_reader_next call (or free); file until hfg_record_reader_free. */
typedef struct hfg_record {
  const hfg_field *fields; /* unquoted field values, not NUL-terminated */
  size_t nfields;
  const char *file;        /* path as given, "<stdin>" for "-" */
  uint64_t line;           /* 1-based line where the record starts */
  const char *raw;         /* the record's bytes as read (decompressed), without
                              the line end; quoted newlines included */
  size_t raw_len;
  const char *reason;      /* NULL for a good record; why it is malformed otherwise */
} hfg_record;

typedef struct hfg_record_reader hfg_record_reader;

/* Opens the reader over paths[0..npaths) (copied; the array may go away) and,
 * with has_header, reads the first input's header. On success *out owns
 * everything and must be freed with hfg_record_reader_free. On failure returns
 * < 0 (HFG_EINVAL bad options, or a header that disagrees with
 * expected_columns; HFG_EIO cannot open/read; HFG_ECORRUPT bad compressed data or a
 * malformed header; HFG_EUNSUPPORTED an unread compression or text encoding;
 * HFG_ENOMEM), sets *out to NULL and, when errmsg is non-NULL,
 * writes a message naming the file there (errlen bytes, NUL-terminated). */
int hfg_record_reader_open(const char *const *paths, size_t npaths, const hfg_input_options *opts,
                           hfg_record_reader **out, char *errmsg, size_t errlen);

/* Reads the next record into *rec. Returns
 *   1           a well-formed record;
 *   0           end of all inputs (and on every later call);
 *   HFG_EPARSE  a malformed record (see above); the caller logs and goes on;
 *   other < 0   a fatal error (HFG_EIO, HFG_ECORRUPT for broken compressed data or
 *               a malformed later header, HFG_EINVAL for a header mismatch,
 *               HFG_EUNSUPPORTED for UTF-16 or an unread compression,
 *               HFG_ENOMEM); the message is in hfg_record_reader_errmsg and
 *               every later call returns the same code. */
int hfg_record_reader_next(hfg_record_reader *r, hfg_record *rec);

/* 1 when a (an bytes) and the string b are equal but for ASCII case and the
 * blanks around them, and not empty (a header field against a column name). */
int hfg_name_loose_same(const char *a, size_t an, const char *b);

/* 1 when the nf fields are the nn names, each compared without the blanks
 * around it and ignoring ASCII case, none empty: a header line read as data.
 * The reader fails with HFG_EINVAL ("... line N holds the column names given
 * to --columns ...") when the first record of an input read from its start
 * without a header (has_header 0, column_names given) is such a line: stdin,
 * a pipe or a compressed stream included. */
int hfg_record_names_match(const hfg_field *f, size_t nf, const char *const *names, size_t nn);

/* Column names (NUL-terminated, a header field's unquoted bytes; a NUL
 * inside a name cuts it), *n their count: opts.column_names when given, else
 * the header's; NULL and 0 without either. Valid until free. */
const char *const *hfg_record_reader_columns(const hfg_record_reader *r, size_t *n);

/* Field count every record must have; 0 until known (see "Field count"). */
size_t hfg_record_reader_expected_columns(const hfg_record_reader *r);

/* Bytes read so far from the inputs as stored (compressed bytes for compressed input),
 * for progress against file sizes. */
uint64_t hfg_record_reader_bytes_read(const hfg_record_reader *r);

/* CSV/TSV blank lines skipped so far (before a header too; the dump dialects
 * have none: their blank lines are records). A part or range that starts
 * mid-file does not count those before its first record: the reader of the
 * bytes before it skipped them, up to that record, so the counts of a file's
 * parts, or of its ranges, add up to a whole-file read's. */
uint64_t hfg_record_reader_blank_lines(const hfg_record_reader *r);

/* Message of the fatal error ("" if none). */
const char *hfg_record_reader_errmsg(const hfg_record_reader *r);

/* What a record of the input named `file` (a record's file) is called in
 * messages: "row" for a database input (its number is the row's in the query
 * result: there are no lines), else "line". */
const char *hfg_record_unit(const char *file);

/* 1 when some input is a database URI (its fields may be NULL). */
int hfg_record_reader_has_db(const hfg_record_reader *r);

/* With check_column: the largest check value among the database rows read so
 * far (all inputs), NUL-terminated; NULL when none had one. Valid until the
 * next call or free. */
const char *hfg_record_reader_check_max(const hfg_record_reader *r);

/* With check_column: rows whose check column is NULL, over all database inputs
 * so far: *read, read like every row (no last_value: every row is selected);
 * *skipped, not selected (col > last_value never holds for NULL) and so not
 * read, counted in the same snapshot. */
void hfg_record_reader_check_nulls(const hfg_record_reader *r, uint64_t *read,
                                   uint64_t *skipped);

/* Byte ranges of one uncompressed CSV/TSV file (a distributed runner reads a
 * big file in several tasks; record_part.c). set_range, right after open and before next: reads only the records that
 * start in [start, end) (end 0: to the file's end; a record that starts
 * before end is read whole). start 0: the file as opened (header and all);
 * start > 0 must be a record_offset a full read of the same file reported,
 * with first_line its record's line, and the reader opened with the column
 * names given and no header: then the records are exactly those of the full
 * read from there on. */
int hfg_record_reader_set_range(hfg_record_reader *r, uint64_t start, uint64_t end,
                                uint64_t first_line);
/* ---- Parts (record_part.c), for parallel ingest ----
 * A part reader reads one input of r (not a database URI) as r would,
 * configured as r (options opts, the ones r was opened with) and checking
 * the input's header against r's first header. start 0: the whole input
 * from its first byte (sniffed, decompressed, BOM and header as usual);
 * start > 0: a plain file from byte start, which must be where a record or
 * blank line begins, numbering lines from `line` there (no BOM, no header).
 * The part ends (next returns 0) at the first record that starts at or after
 * byte limit (UINT64_MAX: the input's end); a record that starts before it is
 * read whole. r must outlive its parts; a part is used by one thread. */
int hfg_record_reader_open_part(const hfg_record_reader *r, const hfg_input_options *opts,
                                size_t input, uint64_t start, uint64_t line, uint64_t limit,
                                hfg_record_reader **out, char *errmsg, size_t errlen);
/* Where a part ended (after next returned 0): the byte offset of the record
 * that starts at or after its limit (the input's size at its end) and its line. */
void hfg_record_reader_part_end(const hfg_record_reader *r, uint64_t *offset, uint64_t *line);
/* The byte offset where rec (just returned by next of a plain-file reader) starts. */
uint64_t hfg_record_reader_record_offset(const hfg_record_reader *r, const hfg_record *rec);
/* Inputs: their number, each one's name as records carry it, and whether it is
 * a plain (uncompressed) regular CSV/TSV file, with its size, that may be cut
 * into parts. */
size_t hfg_record_reader_inputs(const hfg_record_reader *r);
const char *hfg_record_reader_input_name(const hfg_record_reader *r, size_t input);
int hfg_record_reader_input_plain(const hfg_record_reader *r, size_t input, uint64_t *size);
/* 1 when the input is a regular file, which a part reader may open again (not
 * stdin, a pipe or a device, which the parent may have read from already). */
int hfg_record_reader_input_regular(const hfg_record_reader *r, size_t input);

/* Closes any open input (never stdin) and frees. NULL is a no-op. */
void hfg_record_reader_free(hfg_record_reader *r);

#endif

/*
 * Dump dialects: the record syntaxes database servers write for bulk export,
 * parsed exactly as the servers' own loaders read them. Internal to
 * src/input; the record reader (record_reader.h) dispatches to this module
 * for HFG_INPUT_MYSQL, HFG_INPUT_PG_TEXT and HFG_INPUT_PG_CSV and keeps its
 * own CSV/TSV hot path untouched. The rules, with the server source they
 * come from, are in format-specs/dump-dialects.md.
 *
 *   mysql    SELECT ... INTO OUTFILE / mysqldump --tab (MySQL, MariaDB):
 *            FIELDS TERMINATED BY (default TAB), LINES TERMINATED BY (default
 *            LF), both full strings; optional ENCLOSED BY byte (a field that
 *            starts with it is enclosed; inside, a doubled enclosure byte is
 *            one, and the enclosure ends only where a terminator follows it);
 *            ESCAPED BY byte (default '\'): escape + b n r t 0 Z stand for
 *            BS LF CR TAB NUL ^Z, escape + the escape, the enclosure or a
 *            terminator's first byte for that byte (data); a field that is
 *            exactly escape + 'N' is NULL, and so is an unenclosed NULL when
 *            ENCLOSED BY is set or ESCAPED BY is empty. When the escape byte
 *            equals the enclosure byte, only a doubled one is an escape (LOAD
 *            DATA's rule). What the server never writes rejects the record:
 *            escape + another byte, \N inside a value, a raw NUL beside
 *            escapes in one field (a BIT value's bytes, written unescaped).
 *            With mysqldump --tab's TABLE.sql beside the input (record_sql.h;
 *            read by hfg_dialect_start), its BIT(n) columns are read as the
 *            (n+7)/8 bytes they are.
 *   pg-text  COPY ... TO (text format): delimiter TAB (or one other byte);
 *            backslash + b f n r t v for the control characters, + 1-3 octal
 *            digits or x + 1-2 hex digits for that byte, + any other byte for
 *            itself; a field whose raw bytes equal the NULL string (default
 *            \N, compared before unescaping) is NULL; a line that is exactly
 *            \. ends the data. Line ends LF or CR LF, the first line's kind
 *            for the whole input; a raw CR inside a line is an error, as in
 *            COPY FROM.
 *   pg-csv   COPY ... TO (FORMAT csv): delimiter ',', QUOTE '"', ESCAPE
 *            (default the quote); quoting may start anywhere in a field;
 *            inside quotes escape + quote or escape + escape is that byte and
 *            CR/LF are data; an unquoted field equal to the NULL string
 *            (default empty) is NULL, a quoted one never is ("" is the empty
 *            string); an unquoted \. alone on a line ends the data.
 *
 * An input that is an SQL script (mysqldump/mariadb-dump or pg_dump without
 * the options that write rows, --compact scripts, mysqldump --tab's
 * TABLE.sql, a pg_dump archive) is refused at its first record (after a
 * start), a reject whose reason says what the script is and what to give
 * instead ("the input is an SQL script of INSERT statements ..."). Judged by
 * its statements near the input's start (record_sql.h).
 *
 * Records: blank lines are records here (a one-column table's empty value),
 * no byte order mark is dropped, and line numbers count LF bytes, the
 * record's first line. Malformed input (an escape at the end of the input,
 * an unterminated enclosure or quote, a raw CR, a misplaced \.) is a reject
 * whose reason names the field ("field 3: ..."); reading resumes after the
 * record's end, or the end of the line where the error was found.
 *
 * Calls: new (start (parse accept?)* )* free. One dialect per reader; not thread-safe.
 */
#ifndef HFG_PIPELINE_RECORD_DIALECT_H
#define HFG_PIPELINE_RECORD_DIALECT_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"
#include "input/record_reader.h"
#include "util/err.h"

typedef struct hfg_dialect hfg_dialect;

/* One parse step over [s, e) of the reader's buffer. */
typedef struct hfg_dialect_step {
  const hfg_field *fields; /* borrowed until the next parse (or free) */
  size_t nfields;
  size_t raw_len;          /* the record's bytes from s, without its line terminator */
  size_t consumed;         /* bytes from s to where the next record starts */
  uint64_t lines;          /* LF bytes in those consumed bytes */
  const char *reason;      /* HFG_EPARSE only; borrowed like fields */
} hfg_dialect_step;

/* Results of hfg_dialect_parse besides 1 (a record) and HFG_EPARSE. */
enum { HFG_DIALECT_MORE = 2, /* the record runs past e and eof is 0: read more, call again */
       HFG_DIALECT_SKIP = 3  /* consumed bytes that are no record (an end-of-data marker) */ };

/* 1 for the formats this module parses. */
int hfg_dialect_handles(hfg_input_format f);

/* Checks the dialect options of o (field/line terminators, enclosure,
 * escape, NULL string) and creates the parser. Returns 0, HFG_EINVAL with a
 * message in errmsg, or HFG_ENOMEM. */
int hfg_dialect_new(const hfg_input_options *o, hfg_dialect **out, char *errmsg, size_t errlen);

/* The reader opened the next input, path (shown as name, borrowed until the
 * next start; expected: its field count, 0 unknown): forgets per-input state
 * (line-end kind, end-of-data seen); mysql: reads the mysqldump --tab
 * TABLE.sql beside path when there is one with BIT columns (not used for a
 * header record). 0 or the error, set in err (that TABLE.sql unreadable, or
 * its column count not expected). */
int hfg_dialect_start(hfg_dialect *d, const char *path, const char *name, size_t expected,
                      hfg_err *err);

/* Parses the record starting at s (s < e). eof: no byte follows e in this
 * input. Returns 1, HFG_EPARSE, HFG_DIALECT_MORE, HFG_DIALECT_SKIP or
 * HFG_ENOMEM; fills *st except for MORE and ENOMEM. Never modifies [s, e). */
int hfg_dialect_parse(hfg_dialect *d, const char *s, const char *e, int eof, hfg_dialect_step *st);

/* The reader uses the record (or reject) of the last parse as it is: commit
 * what it taught about the input (the line-end kind). Not called when the
 * reader rejects the bytes as overlong instead, so that what is learnt never
 * depends on the buffer size. */
void hfg_dialect_accept(hfg_dialect *d);

void hfg_dialect_free(hfg_dialect *d);


/* 1 when a column the rowkey uses is NULL in fields (why: "key column 'id'
 * is NULL"): such a record has no key and is rejected. 0 otherwise. */
int hfg_dialect_null_key(const hfg_scheme *s, const hfg_field *fields, size_t nfields, char *why,
                         size_t whylen);

#endif

/*
 * Private to the dump dialects (record_dialect.c: the common part, pg-text,
 * pg-csv and the public calls; record_dialect_mysql.c: mysql): the parser's
 * state and the helpers both use. Contract in record_dialect.h.
 */
#ifndef HFG_PIPELINE_RECORD_DIALECT_INT_H
#define HFG_PIPELINE_RECORD_DIALECT_INT_H

#include "input/record_dialect.h"
#include "input/record_sql.h"

enum { EOL_UNKNOWN = 0, EOL_LF, EOL_CRLF };

struct hfg_dialect {
  hfg_input_format fmt;
  /* mysql */
  char *fterm, *lterm; /* FIELDS / LINES TERMINATED BY */
  size_t fterm_len, lterm_len;
  int encl;            /* ENCLOSED BY byte, -1 none; pg-csv: QUOTE */
  int esc;             /* ESCAPED BY byte, -1 none; pg-csv: ESCAPE */
  /* pg */
  unsigned char delim;
  /* NULL marker given by the user (else the format's own) */
  char *null_s;
  size_t null_len;
  int user_null;
  /* per input */
  int eol;         /* line-end kind of the input, once a record was accepted */
  int eol_seen;    /* the kind the last parse found (committed by hfg_dialect_accept) */
  int ended;       /* saw the end-of-data marker \. */
  int at_start;    /* no record of this input handed out yet */
  int has_header;  /* the reader takes each input's first record as its header */
  int header_pending; /* the next record is that header (no schema for it) */
  int sniff;       /* look for an SQL script at an input's start (see hfg_dialect_new) */
  size_t window;   /* bytes it judges a candidate on (HFG_SQL_WINDOW, or the record limit) */
  const char *name; /* the open input's display name (borrowed from the reader) */
  hfg_sql_schema *schema; /* mysql: the open input's mysqldump --tab TABLE.sql, when it has BIT columns */
  int bad;         /* mysql: the record holds bytes the server's writer never writes (reason set) */
  int encl_mode;   /* mysql with a schema: 1 a number field of the record was enclosed (ENCLOSED
                      BY), -1 one was not (OPTIONALLY ENCLOSED BY or none), 0 none seen yet */
  hfg_field *fields;
  size_t nf, fcap;
  char *scratch;
  size_t scap;
  char reason[640];
};

int hfg_dl_add_field(hfg_dialect *d, const char *p, size_t len, int is_null);

/* A record whose raw bytes are [s, raw_end) and whose next record starts at
 * next: 1 with *st filled. */
int hfg_dl_record_done(hfg_dialect *d, const char *s, const char *raw_end, const char *next,
                       hfg_dialect_step *st);

/* A reject of those bytes (reason in d->reason): HFG_EPARSE. */
int hfg_dl_reject_span(hfg_dialect *d, const char *s, const char *raw_end, const char *next,
                       hfg_dialect_step *st);

/* 1 when t[0..tlen) starts at p, 0 when it does not, -1 when [p, e) is a
 * proper prefix of it and more input may follow. */
int hfg_dl_match_at(const char *p, const char *e, const char *t, size_t tlen, int eof);

/* A syntax error found at `at`: the reject runs to the end of at's line
 * (the line terminator, or LF), reading resumes after it. EPARSE or MORE. */
int hfg_dl_reject_line(hfg_dialect *d, const char *s, const char *e, int eof, const char *at,
                       hfg_dialect_step *st);

/* A reject that runs to the end of the input (an unterminated construct). */
int hfg_dl_reject_rest(hfg_dialect *d, const char *s, const char *e, hfg_dialect_step *st);

/* 1 when [p, p+len) is the NULL string. */
int hfg_dl_raw_is_null(const hfg_dialect *d, const char *p, size_t len);

/* The mysql record at s (hfg_dialect_parse's contract), and its part of
 * hfg_dialect_start. */
int hfg_dl_parse_mysql(hfg_dialect *d, const char *s, const char *e, int eof,
                       hfg_dialect_step *st);
int hfg_dl_mysql_start(hfg_dialect *d, const char *path, const char *name, size_t expected,
                       hfg_err *err);

#endif

/*
 * Database sources: an input written as a URI is read straight from the
 * server, streamed, and handed to the record reader as records with the same
 * fields a dump of the table would give (format-specs/dump-dialects.md).
 * Internal to src/input; the record reader (record_reader.h) opens one
 * for every input for which hfg_db_is_uri is true, so build, plan, lint and
 * splits all take URIs through one path.
 *
 *   postgresql://[user[:password]@]host[:port]/db?table=T | ?query=SELECT...
 *                       (also postgres://). Read with libpq: one transaction
 *                       BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY, the
 *                       result's columns described with LIMIT 0, then
 *                       COPY (SELECT ...) TO STDOUT in text format, each row
 *                       parsed by the pg-text dialect: the server formats every
 *                       value exactly as COPY ... TO a file does (numeric
 *                       exact, datetimes by the session's DateStyle). bytea
 *                       columns (type oid 17) are decoded from the hex output
 *                       (bytea_output is set to hex) into their raw bytes.
 *                       Other parameters (sslmode, connect_timeout, ...) go to
 *                       libpq as connection keywords.
 *   mysql://[user[:password]@]host[:port]/db?table=T | ?query=SELECT...
 *                       (also mariadb://). Read with the MariaDB C client:
 *                       REPEATABLE READ, START TRANSACTION WITH CONSISTENT
 *                       SNAPSHOT, READ ONLY, character_set_results = binary (no
 *                       conversion, as SELECT ... INTO OUTFILE writes), rows
 *                       streamed with mysql_use_result: each value is the
 *                       server's text for it (binary columns their bytes), a
 *                       NULL pointer is NULL. Parameter connect_timeout only.
 *
 * table=T is one identifier or schema.table, quoted by the source; query= is
 * used as given (percent-decoded), as a derived table. Column names are the
 * result set's. connect_timeout defaults to 10 seconds.
 *
 * Passwords: taken from the URI when it has one, else the client libraries
 * find them where they always do (libpq: PGPASSWORD, ~/.pgpass, PG* variables
 * and service files; libmariadb: MYSQL_PWD and the [client] group of the
 * option files). That is the libraries reading their own environment and
 * files; this module reads none. A password never appears in a message, a
 * record's file name or anything else this module hands out: all of them use
 * hfg_db_redact's form of the URI.
 *
 * Incremental (append mode, Sqoop's): with check_column set, only rows whose
 * check column is greater than last_value (an integer; none: all rows) are
 * selected, in the same snapshot as everything else, and the largest check
 * value among the rows read is kept (hfg_dbsrc_check_max) for the manifest,
 * so the next run continues after it. Values are compared as integers of any
 * length (up to 40 digits); a non-integer value in the check column is a fatal
 * error.
 *
 * A datetime check column (PostgreSQL timestamp / timestamptz, MariaDB
 * DATETIME / TIMESTAMP; its type is asked for in the snapshot, before the
 * rows) is compared and recorded in epoch milliseconds: last_value is epoch
 * ms, the filter is "col > '<last_value as a UTC datetime>'", the maximum is
 * the largest value's epoch ms (hfg_db_datetime_ms, microseconds cut down to
 * the millisecond, so a row within the recorded millisecond is read again,
 * never missed). The time zone rule: timestamptz is exact (its text carries
 * the offset; the literal says +00); timestamp and DATETIME (wall clock, no
 * zone) are taken as UTC; a MariaDB TIMESTAMP is exact: the session's
 * time_zone is set to '+00:00' for such a read, so every TIMESTAMP column of
 * it reads in UTC. The values handed out stay the server's text. A row whose check column is NULL is never > last_value: with a
 * last_value such rows are counted in the same snapshot (SELECT count(*) ...
 * IS NULL) and not read; without one they are read like every row, and
 * counted as they come (hfg_dbsrc_check_nulls), so that neither goes unsaid.
 *
 * Records: file = the redacted URI, line = the row's number in the result
 * (1-based; messages call it "row N"); raw is the row as COPY's text line
 * (PostgreSQL) or its values joined by TAB with \N for NULL (MariaDB), for
 * the rejects file. A row PostgreSQL's text cannot be parsed from (never
 * expected) is a reject like a dump's. A row whose raw bytes are over the
 * record limit (hfg_dbsrc_set_max_record) is rejected as soon as the client
 * library hands it over, before it is parsed or copied: raw is cut at the
 * limit, the reason is the reader's. (The client library holds a row whole
 * before it hands it over: libpq twice, its buffer and the copy it returns.)
 *
 * Calls: open (next)* free. One thread at a time.
 */
#ifndef HFG_PIPELINE_SOURCE_DB_H
#define HFG_PIPELINE_SOURCE_DB_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "input/record_reader.h"
#include "util/err.h"

/* 1 when path starts with postgresql://, postgres://, mysql:// or mariadb://. */
int hfg_db_is_uri(const char *path);

/* uri without its password (user:secret@ becomes user@), NUL-terminated in
 * out[cap] (cut if longer). Any string is accepted. */
void hfg_db_redact(const char *uri, char *out, size_t cap);

/* 1 when s is an integer: an optional '-' and 1..40 decimal digits. */
int hfg_db_is_integer(const char *s, size_t len);

/* A database datetime's text, as the servers write it in ISO form
 * ("YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]", no offset: UTC), into
 * epoch milliseconds (sub-millisecond digits cut). 0, or HFG_EPARSE for any
 * other text (PostgreSQL's "infinity", a BC date, a DateStyle other than
 * ISO). */
int hfg_db_datetime_ms(const char *p, size_t len, int64_t *ms);

/* 1 when integer a > integer b (both hfg_db_is_integer), of any length. */
int hfg_db_int_greater(const char *a, size_t alen, const char *b, size_t blen);

typedef struct hfg_dbsrc hfg_dbsrc;

/* Connects, starts the snapshot and the query. check_column/last_value: see
 * "Incremental" (NULL: off / no lower bound). cancel (NULL: none): every wait
 * for the server (the query's start, the next row) looks at it every 200 ms
 * and, once it is nonzero, gives up with HFG_ECANCELED (the server's query
 * is canceled too, or its connection cut): a SIGTERM during a lock wait or a
 * long sort ends the job at once, not when the first row comes (the
 * connection itself is bounded by connect_timeout). Returns 0, or HFG_EINVAL (bad
 * URI, built without that client library, a missing table or column, or the
 * server refusing the query), HFG_EIO (cannot connect, authentication), or
 * HFG_ENOMEM, with the message in err naming the redacted URI. */
int hfg_dbsrc_open(const char *uri, const char *check_column, const char *last_value,
                   volatile sig_atomic_t *cancel, hfg_dbsrc **out, hfg_err *err);

/* As open, with flags. HFG_DBSRC_CHECK_BACKWARDS (lastmodified, with a last
 * value): in the same snapshot, fails with HFG_EINVAL ("went backwards") when
 * no row holds a check value >= last_value: the column that grows on every
 * change no longer reaches the value the last load ended at. */
#define HFG_DBSRC_CHECK_BACKWARDS 1u
int hfg_dbsrc_open_ex(const char *uri, const char *check_column, const char *last_value,
                      unsigned flags, volatile sig_atomic_t *cancel, hfg_dbsrc **out,
                      hfg_err *err);

/* The record limit (0 none) and the reason a row over it is rejected with
 * (copied). Before the first next. */
int hfg_dbsrc_set_max_record(hfg_dbsrc *s, size_t max, const char *reason);

/* Rows whose check column is NULL: *read among the rows read (no last_value),
 * *skipped counted and not read (with last_value; complete once open
 * returned). Both 0 when check_column is off. */
void hfg_dbsrc_check_nulls(const hfg_dbsrc *s, uint64_t *read, uint64_t *skipped);

/* The result set's column names and their count; valid until free. */
const char *const *hfg_dbsrc_columns(const hfg_dbsrc *s, size_t *n);

/* The redacted URI; valid until free. */
const char *hfg_dbsrc_name(const hfg_dbsrc *s);

/* Next row into rec (pointers borrowed until the next call): 1 a row, 0 the
 * end (the transaction is committed), HFG_EPARSE a row that could not be
 * parsed (rec->reason), HFG_ECANCELED (see open), other < 0 fatal with the
 * message in err. */
int hfg_dbsrc_next(hfg_dbsrc *s, hfg_record *rec, hfg_err *err);

/* Bytes received from the server for the rows so far. */
uint64_t hfg_dbsrc_bytes(const hfg_dbsrc *s);

/* The largest check column value read so far (NUL-terminated), NULL when no
 * row had one or check_column is off. Valid until free. */
const char *hfg_dbsrc_check_max(const hfg_dbsrc *s);

/* Ends the transaction (rolled back if unfinished) and disconnects. NULL ok. */
void hfg_dbsrc_free(hfg_dbsrc *s);

/* ---- between source_db.c and its back ends (source_pg.c, source_mysql.c) ---- */

typedef struct hfg_db_uri {
  int kind;              /* 1 PostgreSQL, 2 MariaDB/MySQL */
  char *user, *password, *host, *port, *db; /* percent-decoded, NULL when absent */
  char *table, *query;   /* exactly one is set */
  char **keys, **vals;   /* the other parameters */
  size_t nparams;
  const char *shown;     /* redacted URI, for messages */
  volatile sig_atomic_t *cancel; /* hfg_dbsrc_open's, NULL none */
  size_t max_row;        /* the record limit on a row's raw bytes, 0 none */
} hfg_db_uri;

typedef struct hfg_db_backend hfg_db_backend;

/* What a back end fills per row; fields/raw borrowed until its next call. */
typedef struct hfg_db_row {
  const hfg_field *fields;
  size_t nfields;
  const char *raw;
  size_t raw_len;
  const char *reason; /* HFG_EPARSE only */
  int too_long;       /* HFG_EPARSE: raw (cut at max_row) is over u->max_row */
} hfg_db_row;

/* The check column's type, as the back end found it. */
enum { HFG_DB_CHECK_INTEGER, HFG_DB_CHECK_WALLCLOCK, HFG_DB_CHECK_INSTANT };

/* What a back end runs, in its snapshot: probe (NULL: none) is "SELECT * FROM
 * ... LIMIT 0", whose column check_column's type it looks at; then make(ctx,
 * kind) gives
 * the SELECT to run (check filter included) and count_sql (NULL: none), a
 * SELECT count(*) run first, its value in *count. make returns 0 or an error
 * with err set; the back end frees both strings. */
typedef struct hfg_db_plan {
  const char *probe, *check_column;
  int (*make)(void *ctx, int kind, char **sql, char **count_sql, hfg_err *err);
  void *ctx;
} hfg_db_plan;

struct hfg_db_backend {
  /* Runs the plan. Fills names (strdup'ed by the back end, freed with
   * free_names) and *state. u outlives the state. A check column of type
   * HFG_DB_CHECK_INSTANT on MariaDB sets the session's time_zone to UTC. */
  int (*open)(const hfg_db_uri *u, const hfg_db_plan *plan, uint64_t *count, void **state,
              char ***names, size_t *n, hfg_err *err);
  int (*next)(void *state, hfg_db_row *row, hfg_err *err);
  uint64_t (*bytes)(const void *state);
  void (*close)(void *state);
  /* identifier quoting for table= and the check column, into a new string */
  char *(*quote_ident)(const char *name);
};

extern const hfg_db_backend hfg_db_pg;
extern const hfg_db_backend hfg_db_mysql;

#endif

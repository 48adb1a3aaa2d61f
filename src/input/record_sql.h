/*
 * SQL scripts where a dump's rows were expected. Internal to src/pipeline,
 * used by the dump dialects (record_dialect.c).
 *
 * Recognising one: an input whose start is SQL is an SQL script, not rows,
 * whatever its first line (mysqldump's header, a --compact script without
 * one, mysqldump --tab's TABLE.sql): comments ("-- ", C-style ones, MySQL's
 * conditional ones) and the statements the dump tools write (CREATE TABLE,
 * INSERT INTO, DROP TABLE, SET, LOCK TABLES, COPY ... FROM stdin, ...), each
 * keyword followed by a space as the tools write it. The reason says what
 * the script is (INSERT statements; the table's schema, whose rows are the
 * TABLE.txt beside it; pg_dump's COPY blocks) and what to give instead. A
 * comment alone is not enough (a data value may start with "--"), a tool's
 * header comment is.
 *
 * mysqldump --tab's TABLE.sql beside TABLE.txt: its CREATE TABLE names the
 * table's columns in the order of the rows; hfg_sql_tab_schema finds it and
 * reads which of them are BIT(n) (written unescaped into the rows: see
 * record_dialect.h).
 */
#ifndef HFG_PIPELINE_RECORD_SQL_H
#define HFG_PIPELINE_RECORD_SQL_H

#include <stddef.h>

#include "input/record_reader.h"
#include "util/err.h"

/* Bytes an input's start must show (or the whole input) to tell a possible
 * script from rows (hfg_sql_candidate); a candidate is then judged on
 * HFG_SQL_WINDOW bytes, or all of a shorter input (hfg_sql_script_why). */
#define HFG_SQL_PEEK 40
#define HFG_SQL_WINDOW 65536

/* 1 when [s, s+n) may start an SQL script (a comment, a statement keyword
 * and a space, a pg_dump archive's magic), else 0. n >= HFG_SQL_PEEK or the
 * whole input. */
int hfg_sql_candidate(const char *s, size_t n);

/* 1 with the reason in why ("the input is an SQL script of INSERT
 * statements ...") when [s, s+n) is an SQL script, else 0. complete: [s, s+n)
 * is the whole input. fmt: the dump format asked for (its tools' advice when
 * the script names no tool); name: the input's display name (a TABLE.sql's
 * TABLE.txt is named after it). */
int hfg_sql_script_why(const char *s, size_t n, int complete, hfg_input_format fmt,
                       const char *name, char *why, size_t cap);

/* The columns of mysqldump --tab's CREATE TABLE, in table order. */
typedef struct hfg_sql_schema {
  char *path;      /* the TABLE.sql read */
  char *table;     /* its table */
  size_t ncols;
  char **names;    /* ncols column names */
  int *bits;       /* per column: n of BIT(n), 0 for any other type */
  int *not_null;   /* per column: declared NOT NULL */
  int *numeric;    /* per column: a number type (INT, DECIMAL, FLOAT, ..., BIT, YEAR), which
                      OPTIONALLY ENCLOSED BY leaves unenclosed and ENCLOSED BY encloses */
  size_t nbit;     /* columns that are BIT */
} hfg_sql_schema;

/* For an input path D/T.txt (also T.txt.gz and the other compressed
 * suffixes): reads D/T.sql (or D/T.sql.gz ...) when it exists and holds a
 * CREATE TABLE (the one of table T, or its only one). *out NULL when there
 * is none; 0, HFG_ENOMEM, or the error of reading a T.sql that exists. */
int hfg_sql_tab_schema(const char *path, hfg_sql_schema **out, hfg_err *err);

void hfg_sql_schema_free(hfg_sql_schema *s);

#endif

/* Dump dialects through the record reader: MySQL SELECT ... INTO OUTFILE
 * (defaults and FIELDS/LINES options), PostgreSQL COPY text and CSV, and the
 * CSV/TSV --null-string. Every case runs at buffer sizes 1..40 and the
 * default, which must all agree (a parse that runs off the buffer restarts
 * after a refill). The server-written files themselves are checked by
 * tests/db/dumps.sh against live servers. */
#include <sys/stat.h>
#include <unistd.h>

#include "input/record_dialect.h"
#include "input/record_reader.h"
#include "sbuf.h"
#include "t.h"

static const char *case_path(void) { return t_tmp_path("test_record_dialect", "case.txt"); }

/* Printable: \t \n \r, other control bytes and '|' '\' as \xNN. */
static void sb_esc(sbuf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char t[8];
    if (c == '\t') sb_str(b, "\\t");
    else if (c == '\n') sb_str(b, "\\n");
    else if (c == '\r') sb_str(b, "\\r");
    else if (c < 0x20 || c == '|' || c == '\\' || c >= 0x7f) {
      snprintf(t, sizeof t, "\\x%02x", c);
      sb_str(b, t);
    } else {
      sb_add(b, s + i, 1);
    }
  }
}

/* One line per record: "3:a|~|b" (~ = NULL) or "3!reason{raw}". */
static char *run(const char *path, hfg_input_options *o) {
  sbuf b = {0};
  sb_str(&b, "");
  hfg_record_reader *r;
  char em[256];
  const char *paths[1] = {path};
  int rc = hfg_record_reader_open(paths, 1, o, &r, em, sizeof em);
  if (rc) {
    sb_str(&b, "OPEN ");
    sb_str(&b, em);
    sb_str(&b, "\n");
    return b.p;
  }
  size_t ncols = 0;
  const char *const *cols = hfg_record_reader_columns(r, &ncols);
  for (size_t i = 0; i < ncols; i++) {
    sb_str(&b, i ? "," : "H:");
    sb_str(&b, cols[i]);
    if (i + 1 == ncols) sb_str(&b, "\n");
  }
  for (;;) {
    hfg_record rec;
    rc = hfg_record_reader_next(r, &rec);
    if (rc == 0) break;
    char t[64];
    if (rc != 1 && rc != HFG_EPARSE) {
      sb_str(&b, "FATAL ");
      sb_str(&b, hfg_record_reader_errmsg(r));
      sb_str(&b, "\n");
      break;
    }
    snprintf(t, sizeof t, "%llu%s", (unsigned long long)rec.line, rc == 1 ? ":" : "!");
    sb_str(&b, t);
    if (rc == 1) {
      for (size_t i = 0; i < rec.nfields; i++) {
        if (i) sb_str(&b, "|");
        if (rec.fields[i].is_null) {
          sb_str(&b, rec.fields[i].len ? "~BAD" : "~");
          continue;
        }
        sb_esc(&b, rec.fields[i].p, rec.fields[i].len);
      }
    } else {
      sb_str(&b, rec.reason);
      sb_str(&b, "{");
      sb_esc(&b, rec.raw, rec.raw_len);
      sb_str(&b, "}");
    }
    sb_str(&b, "\n");
  }
  hfg_record_reader_free(r);
  return b.p;
}

static int first_only; /* CASE1 */

static void expect(const char *data, size_t n, hfg_input_options o, const char *want) {
  const char *path = case_path();
  FILE *f = fopen(path, "wb");
  REQUIRE(f);
  fwrite(data, 1, n, f);
  fclose(f);
  for (size_t bs = 0; bs <= 40; bs++) {
    o.buffer_size = bs;
    char *got = run(path, &o);
    char *nl = first_only ? strchr(got, '\n') : NULL;
    if (nl) nl[1] = '\0';
    if (strcmp(got, want) != 0) {
      fprintf(stderr, "  buffer %zu: got\n%s  want\n%s", bs, got, want);
      t_failed_now = 1;
      free(got);
      return;
    }
    free(got);
  }
}

#define CASE(fmt_, data, want, ...)                           \
  do {                                                        \
    hfg_input_options o_ = HFG_INPUT_OPTIONS_INIT;            \
    o_.format = fmt_;                                         \
    __VA_ARGS__;                                              \
    expect(data, sizeof(data) - 1, o_, want);                 \
  } while (0)

/* CASE1: CASE on the first record only (an SQL script's other lines are rejects of their own). */
#define CASE1(fmt_, data, want, ...) \
  do {                               \
    first_only = 1;                  \
    CASE(fmt_, data, want, __VA_ARGS__); \
    first_only = 0;                  \
  } while (0)

/* ---- mysql ---- */

TEST(mysql_defaults) {
  /* an escaped TAB and an escaped LF are data; \N alone is NULL, \\N is the
   * two bytes \N; an empty field is the empty string */
  CASE(HFG_INPUT_MYSQL, "1\tab\\\tc\td\\\ne\t\\N\t\\\\N\t\n2\tx\t\t\t\t\n",
       "1:1|ab\\tc|d\\ne|~|\\x5cN|\n3:2|x||||\n");
  /* the LOAD DATA letters */
  CASE(HFG_INPUT_MYSQL, "\\0\\b\\n\\r\\t\\Z\\\\\n", "1:\\x00\\x08\\n\\r\\t\\x1a\\x5c\n");
}

/* Bytes the server's writer never writes reject the record (LOAD DATA reads them: an escaped
 * other byte as itself, \N inside a value as N): what BIT columns, which it writes unescaped,
 * leave in a dump (a BIT(16) 0x5c71 is \q, a BIT(64) 0x...5c4e is ...\N). */
#define FIX                                                                                    \
  "bytes the server wrote unescaped, as MySQL and MariaDB write BIT columns? Export such a "   \
  "column as col+0 or HEX(col), dump with mysqldump --tab (whose TABLE.sql beside TABLE.txt " \
  "names the BIT columns: read as their bytes), or read the table from the server "            \
  "(mysql://...)"
TEST(mysql_unescaped_bytes_rejected) {
  CASE(HFG_INPUT_MYSQL, "1\tok\\q\n2\tx\n", "1!field 2: \\q is no escape sequence MySQL writes: " FIX "{1\\tok\\x5cq}\n2:2|x\n");
  CASE(HFG_INPUT_MYSQL, "1\t\\'\n", "1!field 2: \\' is no escape sequence MySQL writes: " FIX "{1\\t\\x5c'}\n");
  CASE(HFG_INPUT_MYSQL, "1\t\\\x01\n", "1!field 2: \\ + byte 0x01 is no escape sequence MySQL writes: " FIX "{1\\t\\x5c\\x01}\n");
  /* \N is a NULL only as the whole field */
  CASE(HFG_INPUT_MYSQL, "x\\Ny\t\\N\n\\N\\N\n", "1!field 1: \\N inside a value (MySQL writes it only for a NULL, as the whole field): " FIX "{x\\x5cNy\\t\\x5cN}\n2!field 1: \\N inside a value (MySQL writes it only for a NULL, as the whole field): " FIX "{\\x5cN\\x5cN}\n");
  /* a raw NUL is written only where nothing is escaped (a BIT value): not beside an escape */
  CASE(HFG_INPUT_MYSQL, "\0\0\\\t\0\n1\t\\0\0\n2\t\0\t\\0\n",
       "1!field 1: a raw NUL byte and escape sequences in one value (MySQL writes NUL as \\0 in the values it escapes): " FIX "{\\x00\\x00\\x5c\\t\\x00}\n"
       "2!field 2: a raw NUL byte and escape sequences in one value (MySQL writes NUL as \\0 in the values it escapes): " FIX "{1\\t\\x5c0\\x00}\n"
       "3:2|\\x00|\\x00\n");
  /* what the writer does escape is data: the escape, \0, the terminators' first bytes, the
   * enclosure, and a multi-byte character set's lead byte before another escape (big5) */
  CASE(HFG_INPUT_MYSQL, "a\\|b\\\"c\\\nd\\\xa4\\\\|\\N|\n", "1:a\\x7cb\"c\\nd\\xa4\\x5c|~|\n",
       o_.fields_terminated_by = "|", o_.fields_enclosed_by = "\"");
  CASE(HFG_INPUT_MYSQL, "\\\xa4x\n", "1!field 1: \\ + byte 0xa4 is no escape sequence MySQL writes: " FIX "{\\x5c\\xa4x}\n");
  /* a CR is data (lines end at LF only); the last line may lack its LF */
  CASE(HFG_INPUT_MYSQL, "a\r\tb\r\nc\td", "1:a\\r|b\\r\n2:c|d\n");
  /* blank lines are records (a one-column table's empty strings) */
  CASE(HFG_INPUT_MYSQL, "\n\\N\n\n", "1:\n2:~\n3:\n");
  /* no byte order mark is dropped */
  CASE(HFG_INPUT_MYSQL, "\xef\xbb\xbfx\n", "1:\\xef\\xbb\\xbfx\n");
}

TEST(mysql_malformed) {
  CASE(HFG_INPUT_MYSQL, "1\tok\n2\tbad\\",
       "1:1|ok\n2!field 2: escape character '\\' at the end of the input{2\\tbad\\x5c}\n");
  /* field count is the reader's rule, as for CSV */
  CASE(HFG_INPUT_MYSQL, "1\t2\n3\n4\t5\n", "1:1|2\n2!expected 2 fields, got 1{3}\n3:4|5\n");
  /* an unterminated enclosure at the end of the input */
  CASE(HFG_INPUT_MYSQL, "1,\"a\n2,\"b", "1!field 2: unterminated enclosed field{1,\"a\\n2,\"b}\n",
       o_.fields_terminated_by = ",", o_.fields_enclosed_by = "\"");
}

TEST(mysql_enclosed_and_terminators) {
  /* FIELDS TERMINATED BY ',' ENCLOSED BY '"' LINES TERMINATED BY '\r\n': the
   * writer escapes the enclosure byte and the first byte of each terminator
   * with \; NULL is \N unenclosed; an unenclosed NULL is NULL too, an
   * enclosed "NULL" is the string */
  CASE(HFG_INPUT_MYSQL,
       "1,\"a,b\",\"say \\\"hi\\\"\",\\N,\"NULL\",NULL,\"x\\\r\ny\"\r\n"
       "2,\"\",\"\"\"\",\"q\"r\",\"\",,\"\"\r\n",
       "1:1|a,b|say \"hi\"|~|NULL|~|x\\r\\ny\n3:2||\"|q\"r|||\n",
       o_.fields_terminated_by = ",", o_.fields_enclosed_by = "\"",
       o_.lines_terminated_by = "\r\n");
  /* multi-byte terminators: only a whole terminator ends a field or a line */
  CASE(HFG_INPUT_MYSQL, "a||b|c##\n#d||\\N##\n", "1:a|b\\x7cc\n2:#d|~\n",
       o_.fields_terminated_by = "||", o_.lines_terminated_by = "##\n");
  /* ESCAPED BY '' : backslashes are data, NULL is written as NULL */
  CASE(HFG_INPUT_MYSQL, "a\\N\tNULL\t\\N\n", "1:a\\x5cN|~|\\x5cN\n", o_.fields_escaped_by = "");
  /* ESCAPED BY '"' ENCLOSED BY '"': only a doubled quote is an escape */
  CASE(HFG_INPUT_MYSQL, "\"a\"\"b\",\"c\"\n", "1:a\"b|c\n", o_.fields_terminated_by = ",",
       o_.fields_enclosed_by = "\"", o_.fields_escaped_by = "\"");
  /* --null-string replaces the format's own markers */
  CASE(HFG_INPUT_MYSQL, "\\N\t\tnil\n", "1:N||~\n", o_.null_string = "nil");
}

/* mysqldump --tab's TABLE.sql beside TABLE.txt names the BIT columns, which the server writes
 * unescaped: they are read as their (n+7)/8 bytes, whatever those are (escape, TAB, LF, NUL),
 * enclosed or not; \N is NULL in a nullable one (a BIT(9..16) 0x5c4e reads as NULL: the
 * dump cannot tell), the value in a NOT NULL one. */
static void write_schema(const char *cols) {
  FILE *f = fopen(t_tmp_path("test_record_dialect", "case.sql"), "wb");
  REQUIRE(f);
  fprintf(f, "-- MariaDB dump 10.19\n\nDROP TABLE IF EXISTS `case`;\nCREATE TABLE `case` (\n%s"
             "  PRIMARY KEY (`id`)\n) ENGINE=InnoDB;\n", cols);
  fclose(f);
}
TEST(mysql_tab_schema_bit_columns) {
  write_schema("  `id` int(11) NOT NULL,\n  `b8` bit(8) DEFAULT NULL,\n  `b16` bit(16) DEFAULT NULL,\n"
               "  `nn` bit(16) NOT NULL DEFAULT b'0' COMMENT 'it''s NOT NULL',\n  `t` text DEFAULT 'NOT NULL',\n");
  CASE(HFG_INPUT_MYSQL,
       "1\t\\\t\\N\t\\N\tx\n"                    /* b8 0x5c; b16 NULL; nn 0x5c4e */
       "2\t\t\t\t\n\t\0\\\ta\\\tb\n"            /* b8 TAB, b16 TAB LF, nn NUL 0x5c; t escaped */
       "3\t\\N\t\\\\\t\\0\t\\N\n"                /* b16 0x5c5c, nn 0x5c30: not unescaped */
       "4\tab\t\\N\t\\N\tx\n"                    /* b8 two bytes: a reject */
       "5\t\x01\t\x02\x03\t\x04\x05\t\\N",       /* the last line, without LF */
       "1:1|\\x5c|~|\\x5cN|x\n"
       "2:2|\\t|\\t\\n|\\x00\\x5c|a\\tb\n"
       "4:3|~|\\x5c\\x5c|\\x5c0|~\n"
       "5!field 2: BIT(8) column b8: no field or line terminator after its 1 byte (the server "
       "writes BIT values unescaped, as their bytes){4\\tab\\t\\x5cN\\t\\x5cN\\tx}\n"
       "6:5|\\x01|\\x02\\x03|\\x04\\x05|~\n");
  /* a header line is no row: its names are not BIT bytes */
  CASE(HFG_INPUT_MYSQL, "id\tb8\tb16\tnn\tt\n1\t\\\t\\N\t\\N\tx\n",
       "H:id,b8,b16,nn,t\n2:1|\\x5c|~|\\x5cN|x\n", o_.has_header = 1);
  /* FIELDS ENCLOSED BY: every field is enclosed, BIT ones too, but for NULL; OPTIONALLY: not them */
  CASE(HFG_INPUT_MYSQL, "\"1\",\"\\\",\\N,\"\"\\\",\"x\"\n1,\",\\N,,\\,\"y\"\n",
       "1:1|\\x5c|~|\"\\x5c|x\n2:1|\"|~|,\\x5c|y\n",
       o_.fields_terminated_by = ",", o_.fields_enclosed_by = "\"");
  /* a value that reads both ways takes the way a number field of the record was written
   * (ENCLOSED BY encloses numbers, OPTIONALLY does not); without one it is refused */
  write_schema("  `id` int(11) NOT NULL,\n  `b8` bit(8) DEFAULT NULL,\n  `t` text,\n");
  CASE(HFG_INPUT_MYSQL, "\"1\",\",\",\"x\"\n1,\",\",x\"\n", "1:1|,|x\n2:1|\"|,x\n",
       o_.fields_terminated_by = ",", o_.fields_enclosed_by = "\"");
  write_schema("  `b8` bit(8) DEFAULT NULL,\n  `t` text,\n  `id` int(11) NOT NULL,\n");
  CASE(HFG_INPUT_MYSQL, "\",\",x,1\n",
       "1!field 1: BIT(8) column b8: its 1 byte (the server writes BIT values unescaped, as their "
       "bytes) may be enclosed or not here; export it as col+0 or HEX(col){\",\",x,1}\n",
       o_.fields_terminated_by = ",", o_.fields_enclosed_by = "\"");
  /* its columns are the rows' places: a count that differs is refused */
  const char *path = case_path();
  FILE *f = fopen(path, "wb");
  REQUIRE(f);
  fputs("1\t2\n", f);
  fclose(f);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_MYSQL;
  o.ncolumn_names = 2;
  o.column_names = (const char *const[]){"id", "x"};
  char *got = run(path, &o);
  CHECK(strstr(got, "FATAL ") && strstr(got, "case.txt: table case of ") &&
        strstr(got, "case.sql beside it (mysqldump --tab's schema) has 3 columns, the rows are read as 2"));
  free(got);
  /* without BIT columns the schema changes nothing: the unescaped-bytes checks hold */
  write_schema("  `id` int(11) NOT NULL,\n  `b` varbinary(8) DEFAULT NULL,\n");
  CASE(HFG_INPUT_MYSQL, "1\t\\\\N\n2\t\\N\\N\n",
       "1:1|\\x5cN\n2!field 2: \\N inside a value (MySQL writes it only for a NULL, as the whole "
       "field): " FIX "{2\\t\\x5cN\\x5cN}\n");
  remove(t_tmp_path("test_record_dialect", "case.sql"));
}

TEST(mysql_bad_options) {
  CASE(HFG_INPUT_MYSQL, "x\n", "OPEN mysql: an empty FIELDS TERMINATED BY (fixed-width rows) is not supported\n",
       o_.fields_terminated_by = "");
  CASE(HFG_INPUT_MYSQL, "x\n", "OPEN mysql: FIELDS and LINES TERMINATED BY must differ\n",
       o_.fields_terminated_by = "\n");
  CASE(HFG_INPUT_MYSQL, "x\n", "OPEN mysql: FIELDS ENCLOSED BY takes one byte or ''\n",
       o_.fields_enclosed_by = "ab");
  CASE(HFG_INPUT_CSV, "x\n", "OPEN the FIELDS/LINES options are for the dump formats (mysql, pg-csv), not CSV/TSV\n",
       o_.fields_enclosed_by = "'");
}

TEST(utf16_refused) {
  /* a dump written with CHARACTER SET utf16 is refused as for CSV, not misread */
  const char data[] = "\xff\xfe" "1\0\t\0x\0\n\0";
  const char *path = case_path();
  FILE *f = fopen(path, "wb");
  REQUIRE(f);
  fwrite(data, 1, sizeof data - 1, f);
  fclose(f);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_MYSQL;
  char *got = run(path, &o);
  CHECK(strstr(got, "FATAL ") && strstr(got, "UTF-16LE") && strstr(got, "iconv"));
  free(got);
}

/* An SQL script given as rows: its first line is refused saying what the script is and
 * what to give instead (it was "expected 7 fields, got 1", or, for mysqldump --tab's own
 * TABLE.sql, "export the table with mysqldump --tab"); judged by its statements, at every
 * buffer size. */
#define MY_ADVICE                                                                            \
  "dump the rows with mysqldump --tab=DIR (DIR/TABLE.txt) or SELECT ... INTO OUTFILE, or " \
  "read the table from the server (mysql://...)"
#define PG_ADVICE                                                                      \
  "export the table with COPY ... TO or psql's \\copy, or read it from the server " \
  "(postgresql://...)"
#define MYSQLDUMP_WHY "the input is an SQL script written by mysqldump/mariadb-dump, not rows: " MY_ADVICE
#define INSERTS_WHY "the input is an SQL script of INSERT statements, not rows: " MY_ADVICE
#define PGDUMP_WHY                                                                    \
  "the input is an SQL script written by pg_dump (its rows sit in COPY blocks among SQL " \
  "statements), not rows: " PG_ADVICE
/* what mysqldump writes before a table's CREATE TABLE */
#define MY_HEAD                                                                          \
  "-- MariaDB dump 10.19  Distrib 10.11.6-MariaDB, for debian-linux-gnu (x86_64)\n--\n" \
  "-- Host: localhost    Database: shop\n\n"                                            \
  "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"                 \
  "/*!40103 SET TIME_ZONE='+00:00' */;\n\n--\n-- Table structure for table `t`\n--\n\n"  \
  "DROP TABLE IF EXISTS `t`;\n"
#define MY_CREATE                                                                  \
  "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"               \
  "CREATE TABLE `t` (\n  `id` int(11) NOT NULL,\n  `note` text DEFAULT 'a;b',\n" \
  "  PRIMARY KEY (`id`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
#define MY_INSERT "LOCK TABLES `t` WRITE;\nINSERT INTO `t` VALUES (1,'x;\\'y'),(2,NULL);\nUNLOCK TABLES;\n"
TEST(sql_scripts_refused) {
  CASE(HFG_INPUT_MYSQL, "-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)\n--\nx\n",
       "1!" MYSQLDUMP_WHY "{-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)}\n2:--\n3:x\n");
  CASE(HFG_INPUT_MYSQL, "/*M!999999\\- enable the sandbox mode */ \n-- MariaDB dump 10.19\n",
       "1!" MYSQLDUMP_WHY "{/*M!999999\\x5c- enable the sandbox mode */ }\n2:-- MariaDB dump 10.19\n");
  /* the whole script: INSERT statements */
  CASE1(HFG_INPUT_MYSQL, MY_HEAD MY_CREATE MY_INSERT,
       "1!the input is an SQL script of INSERT statements written by mysqldump/mariadb-dump "
       "without --tab, not rows: " MY_ADVICE "{-- MariaDB dump 10.19  Distrib 10.11.6-MariaDB, "
       "for debian-linux-gnu (x86_64)}\n");
  /* --compact: no header comment, a conditional comment first (MySQL's) or the statements */
  CASE1(HFG_INPUT_MYSQL, MY_CREATE MY_INSERT,
       "1!" INSERTS_WHY "{/*!40101 SET @saved_cs_client     = @@character_set_client */;}\n");
  CASE1(HFG_INPUT_MYSQL, "INSERT INTO t VALUES (1,'a;b');\nINSERT INTO t VALUES (2,'c');\n",
       "1!" INSERTS_WHY "{INSERT INTO t VALUES (1,'a;b');}\n");
  /* mysqldump --tab's TABLE.sql: the schema, its rows are the TABLE.txt beside it */
  CASE1(HFG_INPUT_MYSQL, MY_HEAD MY_CREATE "-- Dump completed on 2024-07-11 12:00:00\n",
       "1!the input is the schema of table `t` (CREATE TABLE, no rows), as mysqldump --tab "
       "writes it into TABLE.sql: give the TABLE.txt beside it instead{-- MariaDB dump 10.19  "
       "Distrib 10.11.6-MariaDB, for debian-linux-gnu (x86_64)}\n");
  /* ... judged on the first 64 KiB, or the record limit: a CREATE TABLE whose end or INSERTs
   * lie past it may be either */
  CASE1(HFG_INPUT_MYSQL, MY_CREATE MY_INSERT,
       "1!the input is an SQL script (CREATE TABLE `t` and more), not rows: if it is the "
       "TABLE.sql of mysqldump --tab, give the TABLE.txt beside it; else " MY_ADVICE
       "{/*!40101 SET @saved_cs_client     = @@character_set_client */;}\n",
       o_.max_record_bytes = 120);
  /* pg_dump's plain script, with its header or without (COPY blocks) */
  CASE1(HFG_INPUT_PG_TEXT, "--\n-- PostgreSQL database dump\n--\n\\restrict abc\nSET x = 0;\n",
       "1!the input is an SQL script written by pg_dump that holds no rows (a schema): " PG_ADVICE
       "{--}\n");
  CASE1(HFG_INPUT_PG_TEXT,
       "SET statement_timeout = 0;\nSELECT pg_catalog.set_config('search_path', '', false);\n"
       "COPY public.t (id, note) FROM stdin;\n1\ta;b\n\\.\n",
       "1!the input is an SQL script (its rows sit in COPY blocks among SQL statements), not "
       "rows: " PG_ADVICE "{SET statement_timeout = 0;}\n");
  CASE1(HFG_INPUT_PG_TEXT, "--\n-- PostgreSQL database dump\n--\n\nCOPY t (id) FROM stdin;\n",
       "1!" PGDUMP_WHY "{--}\n");
  CASE(HFG_INPUT_PG_TEXT, "PGDMP\x01\x0e\x00\x04\x08\x01\x01\x01\n",
       "1!the input is a pg_dump archive (pg_dump -Fc), not rows: export the table with COPY ... "
       "TO or psql's \\copy, or read it from the server (postgresql://...){PGDMP\\x01\\x0e\\x00\\x04\\x08\\x01\\x01\\x01}\n",
       o_.has_header = 0);
  /* as a header (pg-csv reads one by default): the open fails */
  const char *path = case_path();
  FILE *f = fopen(path, "wb");
  REQUIRE(f);
  fputs("--\r\n-- PostgreSQL database dump\r\n", f);
  fclose(f);
  hfg_input_options o = HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_PG_CSV;
  o.has_header = 1;
  char *got = run(path, &o);
  CHECK(!strncmp(got, "OPEN ", 5) &&
        strstr(got, "case.txt line 1: malformed header: the input is an SQL script written by pg_dump"));
  free(got);
  /* a TABLE.sql given by its name: the TABLE.txt is named */
  path = t_tmp_path("test_record_dialect", "orders.sql");
  REQUIRE((f = fopen(path, "wb")));
  fputs(MY_CREATE, f);
  fclose(f);
  o = (hfg_input_options)HFG_INPUT_OPTIONS_INIT;
  o.format = HFG_INPUT_MYSQL;
  got = run(path, &o);
  char want[512];
  snprintf(want, sizeof want, "as mysqldump --tab writes it beside the rows: give %.*s.txt instead{",
           (int)(strlen(path) - 4), path);
  CHECK(strstr(got, want));
  free(got);
  /* only at an input's start, and short inputs are judged whole */
  CASE(HFG_INPUT_MYSQL, "x\n-- MySQL dump\n", "1:x\n2:-- MySQL dump\n");
  CASE(HFG_INPUT_MYSQL, "--\n", "1:--\n");
  CASE(HFG_INPUT_MYSQL, "-- MySQL", "1:-- MySQL\n");
  /* rows that start like SQL are rows: a comment alone, a keyword without the space and the
   * word the tools write after it, a short statement that does not end on its line */
  CASE(HFG_INPUT_MYSQL, "-- note\t1\n-- x\t2;\n", "1:-- note|1\n2:-- x|2;\n");
  CASE(HFG_INPUT_MYSQL, "set\tx;\nCreate a thing; now\t2\n", "1:set|x;\n2:Create a thing; now|2\n");
  CASE(HFG_INPUT_MYSQL, "SET up\tthe tent\nnext; one\tx\n", "1:SET up|the tent\n2:next; one|x\n");
  CASE(HFG_INPUT_MYSQL, "SELECT 1;\tx\n", "1:SELECT 1;|x\n");
}

/* ---- pg-text ---- */

TEST(pg_text_escapes_and_null) {
  CASE(HFG_INPUT_PG_TEXT, "1\tab\\tc\t\\N\t\\\\N\t\n2\t\\\\\t\\\\.\tx\t\n",
       "1:1|ab\\tc|~|\\x5cN|\n2:2|\\x5c|\\x5c.|x|\n");
  /* octal (1-3 digits, & 0377), hex (1-2 digits; \x without one is x), the
   * control letters, and any other byte for itself */
  CASE(HFG_INPUT_PG_TEXT, "\\101\\1x\\0\\777\t\\x41\\x4g\\xg\\XA\t\\b\\f\\n\\r\\v\\q\\\t\n",
       "1:A\\x01x\\x00\\xff|A\\x04gxgXA|\\x08\\x0c\\n\\r\\x0bq\\t\n");
  /* a backslash before a real LF: the LF is data (the line goes on) */
  CASE(HFG_INPUT_PG_TEXT, "a\\\nb\tc\nd\te\n", "1:a\\nb|c\n3:d|e\n");
  /* NULL is matched on the raw bytes: \N only when the whole field */
  CASE(HFG_INPUT_PG_TEXT, "\\N\t\\Nx\tNULL\n", "1:~|Nx|NULL\n");
  CASE(HFG_INPUT_PG_TEXT, "\\N\t\tNULL\n", "1:N||~\n", o_.null_string = "NULL");
  CASE(HFG_INPUT_PG_TEXT, "\\N\t\tNULL\n", "1:N|~|NULL\n", o_.null_string = "");
  /* blank lines are records */
  CASE(HFG_INPUT_PG_TEXT, "\n\\N\n", "1:\n2:~\n");
  /* another delimiter */
  CASE(HFG_INPUT_PG_TEXT, "a|b\\|c\n", "1:a|b\\x7cc\n", o_.delimiter = '|');
  /* with HEADER */
  CASE(HFG_INPUT_PG_TEXT, "id\tnote\n1\t\\N\n", "H:id,note\n2:1|~\n", o_.has_header = 1);
}

TEST(pg_text_line_ends_and_marker) {
  CASE(HFG_INPUT_PG_TEXT, "a\tb\r\nc\td\r\n", "1:a|b\n2:c|d\n");
  /* the first line's kind holds for the input */
  CASE(HFG_INPUT_PG_TEXT, "a\tb\r\nc\td\ne\tf\r\n",
       "1:a|b\n2!field 2: literal newline found in data (the input's lines end in CR LF){c\\td}\n3:e|f\n");
  CASE(HFG_INPUT_PG_TEXT, "a\tb\nc\td\r\ne\tf\n",
       "1:a|b\n2!field 2: literal carriage return found in data{c\\td}\n3:e|f\n");
  CASE(HFG_INPUT_PG_TEXT, "a\rb\tc\nd\te\n",
       "1!field 1: literal carriage return found in data{a\\rb\\tc}\n2:d|e\n");
  /* \. alone ends the data; blank lines after it are ignored, data rejected */
  CASE(HFG_INPUT_PG_TEXT, "a\tb\n\\.\n\nc\td\n",
       "1:a|b\n4!data after the end-of-data marker \\.{c\\td}\n");
  CASE(HFG_INPUT_PG_TEXT, "a\tb\n\\.", "1:a|b\n");
  CASE(HFG_INPUT_PG_TEXT, "a\\.b\tc\nd\te\n",
       "1!field 1: end-of-data marker \\. inside a line{a\\x5c.b\\tc}\n2:d|e\n");
  CASE(HFG_INPUT_PG_TEXT, "a\tb\\", "1!field 2: backslash at the end of the input{a\\tb\\x5c}\n");
  CASE(HFG_INPUT_PG_TEXT, "x\n", "OPEN pg-text: the delimiter cannot be a backslash, a lowercase letter, a digit or '.'\n",
       o_.delimiter = 'a');
}

/* ---- pg-csv ---- */

TEST(pg_csv) {
  /* unquoted empty is NULL, "" is the empty string */
  CASE(HFG_INPUT_PG_CSV, "1,,\"\",x\n", "1:1|~||x\n");
  /* quotes: doubled inside, newlines inside; next record's line counts them */
  CASE(HFG_INPUT_PG_CSV, "2,\"a\"\"b\nc\",d\n3,e,f\n", "1:2|a\"b\\nc|d\n3:3|e|f\n");
  /* quoting may start and stop anywhere in a field (COPY FROM's reading) */
  CASE(HFG_INPUT_PG_CSV, "a\"b,c\"d,e\n", "1:ab,cd|e\n");
  /* a backslash is data; \N is not NULL in CSV */
  CASE(HFG_INPUT_PG_CSV, "\\N,\\\\\n", "1:\\x5cN|\\x5c\\x5c\n");
  /* ESCAPE '\' */
  CASE(HFG_INPUT_PG_CSV, "\"a\\\"b\\\\c\\d\"\n", "1:a\"b\\x5cc\\x5cd\n", o_.fields_escaped_by = "\\");
  /* NULL 'NULL': only the unquoted one */
  CASE(HFG_INPUT_PG_CSV, "NULL,\"NULL\",\n", "1:~|NULL|\n", o_.null_string = "NULL");
  /* CR LF line ends; a quoted CR LF is data */
  CASE(HFG_INPUT_PG_CSV, "a,\"b\r\nc\"\r\nd,e\r\n", "1:a|b\\r\\nc\n3:d|e\n");
  CASE(HFG_INPUT_PG_CSV, "a,b\rc\nd,e\n",
       "1!field 2: unquoted carriage return found in data{a,b\\rc}\n2:d|e\n");
  /* an unterminated quote runs to the end of the input */
  CASE(HFG_INPUT_PG_CSV, "a,b\n\"c,d\ne,f\n",
       "1:a|b\n2!field 1: unterminated CSV quoted field{\"c,d\\ne,f}\n");
  /* \. alone (unquoted) ends the data; quoted it is a value */
  CASE(HFG_INPUT_PG_CSV, "\"\\.\"\n\\.\nx\n", "1:\\x5c.\n3!data after the end-of-data marker \\.{x}\n");
  /* HEADER */
  CASE(HFG_INPUT_PG_CSV, "id,\"no,te\"\n1,\n", "H:id,no,te\n2:1|~\n", o_.has_header = 1);
}

/* ---- CSV/TSV --null-string ---- */

TEST(csv_tsv_null_string) {
  CASE(HFG_INPUT_CSV, "a,\\N,\"\\N\",\n", "1:a|~|\\x5cN|\n", o_.null_string = "\\N");
  CASE(HFG_INPUT_CSV, "a,,\"\"\n", "1:a|~|\n", o_.null_string = "");
  CASE(HFG_INPUT_TSV, "a\t\\N\tNULL\n", "1:a|~|NULL\n", o_.null_string = "\\N");
  /* without it, nothing is NULL */
  CASE(HFG_INPUT_CSV, "a,\\N,\n", "1:a|\\x5cN|\n");
}

/* ---- the rowkey check ---- */

TEST(null_key_column) {
  const char *cols[] = {"id", "note"};
  hfg_scheme *s;
  char err[256];
  REQUIRE(hfg_scheme_compile("{id % 10}|{id}", cols, 2, &s, err, sizeof err) == 0);
  hfg_field f[2] = {{"1", 1, 0}, {"", 0, 1}};
  char why[128] = "";
  CHECK(!hfg_dialect_null_key(s, f, 2, why, sizeof why)); /* NULL outside the key: fine */
  f[0] = (hfg_field){"", 0, 1};
  CHECK(hfg_dialect_null_key(s, f, 2, why, sizeof why));
  CHECK(!strcmp(why, "key column 'id' is NULL"));
  hfg_scheme_free(s);
}

T_MAIN

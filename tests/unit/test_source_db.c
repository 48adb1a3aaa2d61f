/*
 * Database sources without a server (src/input/source_db.c): which paths
 * are URIs, the password never shown, integers compared at any length, and
 * every malformed URI refused before any connection with a message that
 * names the URI without its password. The server side is tests/db/direct.sh.
 */
#include <string.h>

#include "input/record_reader.h"
#include "input/source_db.h"
#include "t.h"

T_MAIN

static const char *redact(const char *uri) {
  static char out[512];
  hfg_db_redact(uri, out, sizeof out);
  return out;
}

TEST(is_uri) {
  CHECK(hfg_db_is_uri("postgresql://h/db?table=t"));
  CHECK(hfg_db_is_uri("postgres://h/db?table=t"));
  CHECK(hfg_db_is_uri("mysql://h/db?table=t"));
  CHECK(hfg_db_is_uri("mariadb://h/db?table=t"));
  CHECK(!hfg_db_is_uri("orders.csv"));
  CHECK(!hfg_db_is_uri("-"));
  CHECK(!hfg_db_is_uri("postgresql:/h"));
  CHECK(!hfg_db_is_uri(NULL));
}

TEST(redact) {
  CHECK(!strcmp(redact("postgresql://u:secret@h:5432/db?table=t"), "postgresql://u@h:5432/db?table=t"));
  CHECK(!strcmp(redact("mysql://u:p%40ss@h/db?table=t"), "mysql://u@h/db?table=t"));
  CHECK(!strcmp(redact("mysql://:pw@h/db?table=t"), "mysql://@h/db?table=t"));
  /* '@' and ':' in the password; the last '@' before the path ends the user info */
  CHECK(!strcmp(redact("postgresql://u:a:b@c@h/db?table=t"), "postgresql://u@h/db?table=t"));
  CHECK(!strcmp(redact("postgresql://u@h/db?query=SELECT+a:b@c"), "postgresql://u@h/db?query=SELECT+a:b@c"));
  CHECK(!strcmp(redact("postgresql://h:5432/db?table=t"), "postgresql://h:5432/db?table=t"));
  CHECK(!strcmp(redact("orders:x@y.csv"), "orders:x@y.csv"));
  /* a password with an unencoded '/', '#' or '?' (which end an authority) is still hidden */
  CHECK(!strcmp(redact("postgresql://u:secret/x@h:5432/db?table=t"), "postgresql://u@h:5432/db?table=t"));
  CHECK(!strcmp(redact("postgresql://u:12/secret@h/db?table=t"), "postgresql://u@h/db?table=t"));
  CHECK(!strcmp(redact("mysql://u:secret#x@h/db?table=t"), "mysql://u@h/db?table=t"));
  CHECK(!strcmp(redact("mysql://u:secret?x@h/db?table=t"), "mysql://u@h/db?table=t"));
  CHECK(!strcmp(redact("mysql://u:sec?ret/x#y@h/db?query=SELECT+'a@b'"), "mysql://u@h/db?query=SELECT+'a@b'"));
  CHECK(!strcmp(redact("postgresql://h:5432/db?query=SELECT+'a:b@c'"), "postgresql://h:5432/db?query=SELECT+'a:b@c'"));
  CHECK(!strcmp(redact("postgresql://h:5432/db?table=t&application_name=a:b@c"),
                "postgresql://h:5432/db?table=t&application_name=a:b@c"));
  char small[8];
  hfg_db_redact("postgresql://u:secret@h/db", small, sizeof small);
  CHECK(!strcmp(small, "postgre"));
}

TEST(integers) {
  CHECK(hfg_db_is_integer("0", 1));
  CHECK(hfg_db_is_integer("-12", 3));
  CHECK(!hfg_db_is_integer("", 0));
  CHECK(!hfg_db_is_integer("-", 1));
  CHECK(!hfg_db_is_integer("1.5", 3));
  CHECK(!hfg_db_is_integer("1e3", 3));
  CHECK(!hfg_db_is_integer(" 1", 2));
  CHECK(hfg_db_int_greater("10", 2, "9", 1));
  CHECK(!hfg_db_int_greater("9", 1, "10", 2));
  CHECK(hfg_db_int_greater("-1", 2, "-2", 2));
  CHECK(!hfg_db_int_greater("-10", 3, "-9", 2));
  CHECK(hfg_db_int_greater("0", 1, "-1", 2));
  CHECK(!hfg_db_int_greater("007", 3, "7", 1));
  CHECK(!hfg_db_int_greater("7", 1, "007", 3));
  CHECK(!hfg_db_int_greater("-0", 2, "0", 1));
  CHECK(!hfg_db_int_greater("0", 1, "-0", 2));
  /* past 64 bits */
  CHECK(hfg_db_int_greater("123456789012345678901234567890", 30, "123456789012345678901234567889", 30));
  CHECK(hfg_db_int_greater("18446744073709551616", 20, "9223372036854775807", 19));
}

/* open fails with HFG_EINVAL, the message holds `want` and never "secret" */
static int refused(const char *uri, const char *check, const char *last, const char *want) {
  hfg_dbsrc *s = (hfg_dbsrc *)1;
  hfg_err e = {0};
  int rc = hfg_dbsrc_open(uri, check, last, NULL, &s, &e);
  int ok = rc == HFG_EINVAL && s == NULL && strstr(e.msg, want) && !strstr(e.msg, "secret");
  if (!ok) fprintf(stderr, "  %s: rc %d: %s\n", uri, rc, e.msg);
  return ok;
}

TEST(bad_uris) {
  CHECK(refused("postgresql://u:secret@h:1/db", NULL, NULL, "postgresql://u@h:1/db: name the rows"));
  CHECK(refused("postgresql://u:secret@h:1/db?table=", NULL, NULL, "empty table="));
  CHECK(refused("postgresql://u:secret@h:1/?table=t", NULL, NULL, "no database"));
  CHECK(refused("postgresql://u:secret@h:x1/db?table=t", NULL, NULL, "port 'x1' is not a number"));
  CHECK(refused("postgresql://u:secret@h/db?table=t&query=SELECT+1", NULL, NULL, "one table= or one query="));
  CHECK(refused("postgresql://u:secret@h/db?table=t&table=u", NULL, NULL, "one table= or one query="));
  CHECK(refused("postgresql://u:secret@h/db?table=%zz", NULL, NULL, "bad %-escape"));
  CHECK(refused("postgresql://u:secret@h/db?table=%00", NULL, NULL, "bad %-escape"));
  CHECK(refused("postgresql://u:secret@h/db?table", NULL, NULL, "parameter 'table' has no value"));
  CHECK(refused("postgresql://u:secret@h/db?table=t#x", NULL, NULL, "fragment"));
  CHECK(refused("postgresql://u:secret@[::1/db?table=t", NULL, NULL, "unterminated '['"));
  CHECK(refused("mysql://u:secret@h/db?table=t&sslmode=require", NULL, NULL,
                "mysql://u@h/db?table=t&sslmode=require: unknown or bad parameter 'sslmode'"));
  CHECK(refused("mysql://u:secret@h/db?table=t", "id", "1; DROP TABLE t", "is not an integer"));
  CHECK(refused("postgresql://u:secret@h/db?table=t", "id", "1.5", "is not an integer"));
  /* 41 digits is a number, only too long to compare: said so, not "not an integer" */
  CHECK(refused("postgresql://u:secret@h/db?table=t", "id",
                "12345678901234567890123456789012345678901",
                "is an integer of more than 40 digits"));
  /* a query's trailing ';' is dropped (a derived table cannot hold it): nothing else is left */
  CHECK(refused("postgresql://u:secret@h/db?query=+;+%0A", NULL, NULL, "empty table= or query="));
  /* such a password is read as one: the URI parses on to its next fault */
  CHECK(refused("postgresql://u:secret/x@h:1/db", NULL, NULL, "postgresql://u@h:1/db: name the rows"));
  CHECK(refused("postgresql://u:secret#x@h:1/db", NULL, NULL, "postgresql://u@h:1/db: name the rows"));
  CHECK(refused("postgresql://u:secret?x@h:1/db", NULL, NULL, "postgresql://u@h:1/db: name the rows"));
  CHECK(refused("postgresql://u:9/secret@h:x1/db?table=t", NULL, NULL, "port 'x1' is not a number"));
}

/* the reader: URIs need the header mode, incremental needs a URI */
TEST(reader_rules) {
  hfg_input_options io = HFG_INPUT_OPTIONS_INIT;
  io.check_column = "id";
  const char *file[] = {"orders.csv"};
  hfg_record_reader *r = NULL;
  char msg[256];
  CHECK_EQ_INT(hfg_record_reader_open(file, 1, &io, &r, msg, sizeof msg), HFG_EINVAL);
  CHECK(strstr(msg, "need a database input") != NULL);
  io.check_column = NULL;
  io.has_header = 0;
  const char *uri[] = {"postgresql://u:secret@127.0.0.1:1/db?table=t"};
  CHECK_EQ_INT(hfg_record_reader_open(uri, 1, &io, &r, msg, sizeof msg), 0);
  hfg_record rec;
  CHECK_EQ_INT(hfg_record_reader_next(r, &rec), HFG_EINVAL);
  CHECK(strstr(hfg_record_reader_errmsg(r), "postgresql://u@127.0.0.1:1/db?table=t: a database input names its own columns") != NULL);
  CHECK(hfg_record_reader_has_db(r));
  hfg_record_reader_free(r);
  /* a NULL string has nothing to compare in a server's rows (it crashed the
   * reader, which looked for the marker in fields it does not own) */
  io.has_header = 1;
  io.null_string = "x";
  r = (hfg_record_reader *)1;
  CHECK_EQ_INT(hfg_record_reader_open(uri, 1, &io, &r, msg, sizeof msg), HFG_EINVAL);
  CHECK(r == NULL);
  CHECK(strstr(msg, "postgresql://u@127.0.0.1:1/db?table=t: a NULL string (--null-string) is for dump") != NULL);
  CHECK(!strstr(msg, "secret"));
  io.format = HFG_INPUT_PG_TEXT;
  CHECK_EQ_INT(hfg_record_reader_open(uri, 1, &io, &r, msg, sizeof msg), HFG_EINVAL);
}

#!/usr/bin/env bash
# CLI scenario: dump formats without a server (tests/db/dumps.sh runs the real servers).
# Hand-written MySQL and PostgreSQL dumps: a NULL makes no cell and is counted in the
# summary and manifest, an empty string is an empty value, a NULL rowkey or timestamp
# column and a malformed escape are rejected with file, line (the record's first) and a
# reason naming the field; records read = written + rejected; the FIELDS/LINES options are
# checked; plan, lint and splits read the same records.
# usage: dumps.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
cells() { for f in "$1"/cf/*; do "$H" inspect --cells --tsv "$f"; done | cut -f1,3,6 | LC_ALL=C sort; }

# ---- mysql: SELECT ... INTO OUTFILE defaults ----
# line 1: id 1, an escaped TAB, NULL; line 2-3: id 2, an escaped LF inside the note;
# line 4: NULL id; line 5: an escape at the very end of the file
printf '1\ta\\\tb\t\\N\n2\t\\N\tx\\\ny\n\\N\tz\tw\n3\t\tend\\' >my.txt
run "$H" build --format mysql --columns id,a,b --rowkey '{id}' --out o1 --timestamp 1 \
  --empty store --max-rejects 5 my.txt
[ $RC -eq 0 ] || fail "mysql build: exit $RC ($ERR)"
[ "$(summary 'records read')" = 4 ] || fail "mysql: records read $(summary 'records read')"
[ "$(summary 'records written')" = 2 ] || fail "mysql: records written $(summary 'records written')"
[ "$(summary 'records rejected')" = 2 ] || fail "mysql: records rejected $(summary 'records rejected')"
[ "$(summary 'null values')" = 2 ] || fail "mysql: null values $(summary 'null values')"
grep -q '"null_values": 2' o1/manifest.json || fail "mysql: manifest lacks null_values 2"
want=$(printf '1\ta\ta\\x09b\n2\tb\tx\\x0ay')
[ "$(cells o1)" = "$want" ] || fail "mysql: cells [$(cells o1)] want [$want]"
has "$(cat o1/_rejects.tsv)" "my.txt	4	key column 'id' is NULL	\\\\N\\x09z\\x09w" "mysql NULL key reject"
has "$(cat o1/_rejects.tsv)" "my.txt	5	field 3: escape character '\\' at the end of the input" "mysql escape reject"

# ---- pg-text: NULL vs empty, --empty skip leaves both without a cell, the rest kept ----
printf '1\t\\N\t\n2\t\\\\N\tx\\ty\n' >pg.txt
run "$H" build --format pg-text --columns id,a,b --rowkey '{id}' --out o2 --timestamp 1 pg.txt
[ $RC -eq 0 ] || fail "pg-text build: exit $RC ($ERR)"
[ "$(summary 'null values')" = 1 ] || fail "pg-text: null values $(summary 'null values')"
want=$(printf '2\ta\t\\\\N\n2\tb\tx\\x09y')
[ "$(cells o2)" = "$want" ] || fail "pg-text: cells [$(cells o2)] want [$want]"

# ---- pg-csv with HEADER: "" is an empty value (stored with --empty store), empty is NULL ----
printf 'id,ts,a\n1,5,""\n2,,x\n3,7,\n' >pg.csv
run "$H" build --format pg-csv --rowkey '{id}' --out o3 --timestamp column:ts:ms --map ts=- \
  --empty store --max-rejects 1 pg.csv
[ $RC -eq 0 ] || fail "pg-csv build: exit $RC ($ERR)"
[ "$(summary 'null values')" = 1 ] || fail "pg-csv: null values $(summary 'null values')"
has "$(cat o3/_rejects.tsv)" "pg.csv	3	timestamp column 'ts' is NULL" "pg-csv NULL timestamp"
want=$(printf '1\ta\t')
[ "$(cells o3)" = "$want" ] || fail "pg-csv: cells [$(cells o3)] want [$want]"

# ---- CSV with --null-string: an unquoted \N is NULL, a quoted one is data ----
printf 'id,a,b\n1,\\N,"\\N"\n' >n.csv
run "$H" build --rowkey '{id}' --out o4 --timestamp 1 --null-string '\N' n.csv
[ "$(summary 'null values')" = 1 ] || fail "csv --null-string: null values $(summary 'null values')"
want=$(printf '1\tb\t\\\\N')
[ "$(cells o4)" = "$want" ] || fail "csv --null-string: cells [$(cells o4)] want [$want]"

# ---- mysql FIELDS/LINES options ----
printf '1;"a;b";\\N|2;"say \\"hi\\"";NULL|' >opt.txt
run "$H" build --format mysql --columns id,a,b --rowkey '{id}' --out o5 --timestamp 1 \
  --fields-terminated-by ';' --fields-enclosed-by '"' --lines-terminated-by '|' opt.txt
[ $RC -eq 0 ] || fail "mysql options build: exit $RC ($ERR)"
[ "$(summary 'null values')" = 2 ] || fail "mysql options: null values $(summary 'null values')"
want=$(printf '1\ta\ta;b\n2\ta\tsay "hi"')
[ "$(cells o5)" = "$want" ] || fail "mysql options: cells [$(cells o5)] want [$want]"

# ---- bad options are refused before anything is written ----
run "$H" build --format pg-text --fields-terminated-by , --columns id --rowkey '{id}' --out o6 pg.txt
[ $RC -ne 0 ] || fail "pg-text with --fields-terminated-by accepted"
has "$ERR" "mysql options (PostgreSQL: --delimiter)" "pg-text FIELDS option message"
run "$H" build --format mysql --fields-enclosed-by ab --columns id --rowkey '{id}' --out o7 my.txt
[ $RC -ne 0 ] || fail "--fields-enclosed-by ab accepted"
has "$ERR" "expected one byte" "--fields-enclosed-by ab message"
run "$H" build --format xml --rowkey '{id}' --out o8 my.txt
has "$ERR" "expected csv, tsv, mysql, pg-text or pg-csv" "--format list"

# ---- SQL scripts given as rows: told what they are and what to give instead ----
# (mysqldump --tab's own TABLE.sql was told to "export with mysqldump --tab"; a --compact
# script, which has no header comment, got "expected 3 fields, got 1")
printf '%s\n' '-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)' '' \
  'DROP TABLE IF EXISTS `orders`;' '/*!40101 SET @saved_cs_client     = @@character_set_client */;' \
  'CREATE TABLE `orders` (' '  `id` int NOT NULL,' '  `a` text,' '  `b` bit(8) DEFAULT NULL,' \
  '  PRIMARY KEY (`id`)' ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;' \
  '/*!40101 SET character_set_client = @saved_cs_client */;' '' '-- Dump completed' >orders.sql
run "$H" build --format mysql --columns id,a,b --rowkey '{id}' --out o9 orders.sql
[ $RC -ne 0 ] || fail "--tab schema built"
has "$ERR" "orders.sql line 1: the input is the schema of table \`orders\` (CREATE TABLE, no rows), as mysqldump --tab writes it beside the rows: give orders.txt instead" "--tab schema message"
printf '%s\n' '/*!40101 SET @saved_cs_client     = @@character_set_client */;' \
  'CREATE TABLE `orders` (' '  `id` int NOT NULL' ');' 'INSERT INTO `orders` VALUES (1,'"'x'"',NULL);' >compact.sql
run "$H" build --format mysql --columns id,a,b --rowkey '{id}' --out o10 compact.sql
[ $RC -ne 0 ] || fail "--compact script built"
has "$ERR" "compact.sql line 1: the input is an SQL script of INSERT statements, not rows: dump the rows with mysqldump --tab=DIR (DIR/TABLE.txt) or SELECT ... INTO OUTFILE, or read the table from the server (mysql://...)" "--compact script message"
printf '%s\n' 'SET statement_timeout = 0;' "SELECT pg_catalog.set_config('search_path', '', false);" \
  'COPY public.orders (id, a, b) FROM stdin;' '1	x	\N' '\.' >plain.sql
run "$H" build --format pg-text --columns id,a,b --rowkey '{id}' --out o11 plain.sql
[ $RC -ne 0 ] || fail "headerless pg script built"
has "$ERR" "plain.sql line 1: the input is an SQL script (its rows sit in COPY blocks among SQL statements), not rows: export the table with COPY ... TO" "pg script message"

# ---- plan, lint, splits read the same records ----
run "$H" plan --format mysql --columns id,a,b --rowkey '{id}' my.txt
[ $RC -eq 0 ] || fail "plan mysql: exit $RC ($ERR)"
has "$OUT" "4 read, 4 analysed, 2 rejected" "plan mysql counts"
run "$H" lint --rowkey '{id % 4}|{id}' --input-format mysql --columns id,a,b --input my.txt
has "$ERR" "line 4: key column 'id' is NULL (record skipped)" "lint mysql NULL key"
has "$OUT" "sample records)" "lint mysql summary"
run "$H" splits --algo sample --rowkey '{id}' --regions 2 --input-format mysql --columns id,a,b \
  --input my.txt
[ $RC -eq 0 ] || fail "splits mysql: exit $RC ($ERR)"
[ "$OUT" = 2 ] || fail "splits mysql: [$OUT] want [2]"

if [ $failures -gt 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "all dump CLI checks passed"

#!/usr/bin/env bash
# Nightly loads with a native datetime check column (issue #27, format-specs/nightly-loads.md
# §5): `--incremental lastmodified --check-column updated_at` straight on a PostgreSQL
# timestamp / timestamptz or MariaDB DATETIME / TIMESTAMP column, no ?query= recipe.
# Per type, a table ts_T (id, name, updated_at):
#   night 1: full load: every cell at its row's updated_at in epoch ms (microseconds cut),
#            updated_at's own cell the server's text, the manifest's last value epoch ms
#   day 2:   row 2 updated (a new updated_at)
#   night 2: --last-value-from night 1: row 2 only, at its new time
#   a --last-value above every row: "went backwards", nothing published
# The time zone rule, checked with servers whose sessions are NOT in UTC (PostgreSQL's
# database TimeZone Asia/Kolkata, MariaDB's global time_zone +05:30): timestamptz and
# TIMESTAMP are exact instants, timestamp and DATETIME are taken as UTC wall clock.
#
# usage: nightly_ts.sh HFILEGEN SOURCE_DIR
# Exit 77 (ctest: skipped) only when neither server can be started here.
. "$2/tests/db/prologue.sh" "$1" "$2"
fails=0
ran=0

# cells OUT: "row/cf:qualifier/timestamp value" of every cell, sorted
cells() {
  "$H" inspect --cells "$1"/cf/* | sed -E 's#^([^ ]*)/Put vlen=[0-9]+ value=#\1 #' | LC_ALL=C sort |
    tr '\n' ';'
}

# one_type KIND TABLE URI SQLFN N1 N2 WHEN: the two nights over TABLE, whose rows 1 and 2 hold
# 2023-11-14 22:13:20.123456 UTC and 22:13:21 UTC (in the type's own terms); N1, N2: the
# expected cells of the nights; day 2 sets row 2's updated_at to 2023-11-15 00:00:00.5 UTC
# (WHEN: that instant as a literal in the type's and the updating session's terms)
one_type() {
  local kind=$1 table=$2 uri=$3 sql=$4 want1=$5 want2=$6 when=$7 out="$T/$1-$2"
  if ! "$H" build --out "$out-1" --rowkey '{id}' --incremental lastmodified \
       --check-column updated_at "$uri?table=$table" >"$out-1.summary" 2>"$out-1.err"; then
    fail "$kind $table night 1: $(cat "$out-1.err")"
    return
  fi
  local got1 got2
  got1=$(cells "$out-1")
  if [ "$got1" != "$want1" ] ||
     ! grep -q '"last_value": "1700000001000"' "$out-1/manifest.json"; then
    fail "$kind $table night 1: cells [$got1], expected [$want1]; $(grep -o '"incremental": {[^}]*}' "$out-1/manifest.json")"
  else
    echo "ok: $kind $table night 1: cells at updated_at's epoch ms, last value 1700000001000"
  fi
  $sql "UPDATE $table SET name = 'B', updated_at = $when WHERE id = 2" >/dev/null ||
    fail "$kind $table: day 2 update"
  if ! "$H" build --out "$out-2" --rowkey '{id}' --incremental lastmodified \
       --check-column updated_at --last-value-from "$out-1" "$uri?table=$table" \
       >"$out-2.summary" 2>"$out-2.err"; then
    fail "$kind $table night 2: $(cat "$out-2.err")"
    return
  fi
  got2=$(cells "$out-2")
  if [ "$got2" != "$want2" ] || ! grep -q '"last_value": "1700006400500"' "$out-2/manifest.json"; then
    fail "$kind $table night 2: cells [$got2], expected [$want2]; $(grep -o '"incremental": {[^}]*}' "$out-2/manifest.json")"
  else
    echo "ok: $kind $table night 2: only the updated row, at its new time; last value 1700006400500"
  fi
  local bad="$T/$kind-$table-back"
  if "$H" build --out "$bad" --rowkey '{id}' --incremental lastmodified --check-column updated_at \
       --last-value 1900000000000 "$uri?table=$table" >"$bad.summary" 2>"$bad.err"; then
    fail "$kind $table: a last value above every row was accepted"
  elif ! grep -q "went backwards" "$bad.err" || [ -e "$bad/_SUCCESS" ]; then
    fail "$kind $table: went backwards: $(cat "$bad.err")"
  else
    echo "ok: $kind $table: a last value above every updated_at: went backwards, nothing published"
  fi
}

# the expected cells: wall clock types show the text as stored; the instant types show it in
# the reading session's zone (PostgreSQL: the database's Asia/Kolkata; MariaDB: UTC, which
# hfilegen sets for a TIMESTAMP check column)
W1='1/cf:name/1700000000123 a;1/cf:updated_at/1700000000123 2023-11-14 22:13:20.123456;2/cf:name/1700000001000 b;2/cf:updated_at/1700000001000 2023-11-14 22:13:21;'
W2='2/cf:name/1700006400500 B;2/cf:updated_at/1700006400500 2023-11-15 00:00:00.5;'

# ---- PostgreSQL ----
if ! pg_available; then
  skip_loudly "PostgreSQL datetime check tests: initdb/pg_ctl/psql not installed"
elif ! pg_start; then
  skip_loudly "PostgreSQL datetime check tests: the server could not be started here"
else
  ran=$((ran + 1))
  pgq() { pg_sql -F $'\t' -c "$1"; }
  pg_sql >/dev/null <<'SQL' || fail "pg: schema"
ALTER DATABASE postgres SET timezone TO 'Asia/Kolkata';
CREATE TABLE ts_wall (id int PRIMARY KEY, name text, updated_at timestamp(6));
CREATE TABLE ts_inst (id int PRIMARY KEY, name text, updated_at timestamptz(6));
INSERT INTO ts_wall VALUES (1, 'a', '2023-11-14 22:13:20.123456'), (2, 'b', '2023-11-14 22:13:21');
INSERT INTO ts_inst VALUES (1, 'a', '2023-11-14 22:13:20.123456+00'), (2, 'b', '2023-11-14 23:13:21+01');
SQL
  base="postgresql://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB"
  one_type pg ts_wall "$base" pgq "$W1" "$W2" "'2023-11-15 00:00:00.500'"
  # timestamptz, shown in the session's +05:30
  one_type pg ts_inst "$base" pgq \
    '1/cf:name/1700000000123 a;1/cf:updated_at/1700000000123 2023-11-15 03:43:20.123456+05:30;2/cf:name/1700000001000 b;2/cf:updated_at/1700000001000 2023-11-15 03:43:21+05:30;' \
    '2/cf:name/1700006400500 B;2/cf:updated_at/1700006400500 2023-11-15 05:30:00.5+05:30;' \
    "'2023-11-15 00:00:00.500+00'"
fi

# ---- MariaDB ----
if ! mariadb_available; then
  skip_loudly "MariaDB datetime check tests: mariadbd/mariadb-install-db not installed"
elif ! mariadb_start; then
  skip_loudly "MariaDB datetime check tests: the server could not be started here"
else
  ran=$((ran + 1))
  myq() { mariadb_sql -e "$1"; }
  mariadb_sql >/dev/null <<'SQL' || fail "mariadb: schema"
SET GLOBAL time_zone = '+05:30';
CREATE TABLE ts_wall (id INT PRIMARY KEY, name TEXT, updated_at DATETIME(6)) ENGINE=InnoDB;
CREATE TABLE ts_inst (id INT PRIMARY KEY, name TEXT, updated_at TIMESTAMP(6) NULL) ENGINE=InnoDB;
INSERT INTO ts_wall VALUES (1, 'a', '2023-11-14 22:13:20.123456'), (2, 'b', '2023-11-14 22:13:21');
SET time_zone = '+00:00';
INSERT INTO ts_inst VALUES (1, 'a', '2023-11-14 22:13:20.123456'), (2, 'b', '2023-11-14 22:13:21');
SQL
  base="mysql://$MY_USER@$MY_HOST:$MY_PORT/$MY_DB"
  # DATETIME(6) shows all six digits
  one_type mariadb ts_wall "$base" myq \
    '1/cf:name/1700000000123 a;1/cf:updated_at/1700000000123 2023-11-14 22:13:20.123456;2/cf:name/1700000001000 b;2/cf:updated_at/1700000001000 2023-11-14 22:13:21.000000;' \
    '2/cf:name/1700006400500 B;2/cf:updated_at/1700006400500 2023-11-15 00:00:00.500000;' \
    "'2023-11-15 00:00:00.500'"
  # TIMESTAMP: read in UTC (hfilegen's session); the update's session is in +05:30
  one_type mariadb ts_inst "$base" myq \
    '1/cf:name/1700000000123 a;1/cf:updated_at/1700000000123 2023-11-14 22:13:20.123456;2/cf:name/1700000001000 b;2/cf:updated_at/1700000001000 2023-11-14 22:13:21.000000;' \
    '2/cf:name/1700006400500 B;2/cf:updated_at/1700006400500 2023-11-15 00:00:00.500000;' \
    "'2023-11-15 05:30:00.500'"
fi

if [ $ran -eq 0 ]; then
  skip_loudly "all datetime check tests: no database server could be started"
  exit 77
fi
echo "nightly_ts: $fails failure(s)"
[ $fails -eq 0 ]

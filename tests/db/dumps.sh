#!/usr/bin/env bash
# Real-server dump test: throwaway PostgreSQL and MariaDB servers (tests/db/pg.sh,
# tests/db/mariadb.sh) hold the legacy `orders` table of tests/db/orders.py (NULLs, TABs,
# newlines, backslashes, \N as data, UTF-8, decimals, datetimes, blobs); each server writes
# its own dumps (COPY ... TO text and CSV; SELECT ... INTO OUTFILE with the defaults and
# with other FIELDS/LINES options; mariadb-dump --tab), `hfilegen build` loads each dump,
# and the cells (`hfilegen inspect --cells --tsv`) must be exactly the values the server
# itself reports per row and column (hex), NULLs absent, with every record and NULL counted.
# The tools' SQL scripts (pg_dump, mariadb-dump without --tab or with --compact, --tab's own
# TABLE.sql) are refused saying what they are and what to give instead. BIT columns, which
# MariaDB writes unescaped, are read exactly from mariadb-dump --tab (its TABLE.sql names them)
# and from the server, and never misread silently from a SELECT ... INTO OUTFILE dump but for
# the values the README names (tests/db/bits.py).
#
# usage: dumps.sh HFILEGEN SOURCE_DIR
# Exit 77 (ctest: skipped) only when neither server can be started here; a server that is
# missing or fails to start is reported loudly and its part skipped.
. "$2/tests/db/prologue.sh" "$@"
fails=0
ran=0

# check NAME EXPECTED DUMP BUILD-FLAGS...: builds the dump, compares the cells.
check() {
  local name=$1 expected=$2 dump=$3
  shift 3
  local out="$T/out-$name"
  if ! "$H" build --rowkey '{id}' --out "$out" --timestamp 1 --empty store "$@" \
       "$dump" >"$T/$name.summary" 2>"$T/$name.err"; then
    echo "FAIL: $name: build failed: $(cat "$T/$name.err")"
    [ -f "$out/_rejects.tsv" ] && head -5 "$out/_rejects.tsv"
    fails=$((fails + 1))
    return
  fi
  for f in "$out"/cf/*; do "$H" inspect --cells --tsv "$f"; done >"$T/$name.cells"
  if python3 "$ORDERS" compare "$expected" "$T/$name.cells" "$T/$name.summary" >"$T/$name.cmp"; then
    echo "ok: $name: $(tail -1 "$T/$name.cmp" | sed 's/^ok: //')"
  else
    echo "FAIL: $name:"
    sed 's/^/  /' "$T/$name.cmp" | head -20
    fails=$((fails + 1))
  fi
}

# refused NAME WANT DUMP BUILD-FLAGS...: an SQL script given as rows fails at its line 1,
# the message saying WANT (what the script is and what to give instead; it was "expected 7
# fields, got 1", or "export with mysqldump --tab" for --tab's own TABLE.sql), nothing published.
refused() {
  local name=$1 want=$2 dump=$3
  shift 3
  local out="$T/out-$name"
  if "$H" build --rowkey '{id}' --out "$out" "$@" "$dump" >"$T/$name.summary" 2>"$T/$name.err"; then
    echo "FAIL: $name: the SQL script was built"
    fails=$((fails + 1))
  elif ! grep -qF "line 1: " "$T/$name.err" || ! grep -qF "the input is $want" "$T/$name.err" ||
       [ -e "$out/_SUCCESS" ]; then
    echo "FAIL: $name: want [line 1: ... the input is $want], got: $(head -2 "$T/$name.err")"
    fails=$((fails + 1))
  else
    echo "ok: $name: $(head -1 "$T/$name.err" | cut -c1-160)"
  fi
}

# bits NAME MODE DUMP BUILD-FLAGS...: builds a dump (or URI) of the `bits` table, compares
# its cells with the server's values as tests/db/bits.py MODE says.
bits() {
  local name=$1 mode=$2 dump=$3
  shift 3
  local out="$T/out-$name"
  "$H" build --rowkey '{id}' --out "$out" --timestamp 1 --empty store "$@" "$dump" \
    >"$T/$name.summary" 2>"$T/$name.err"
  if [ ! -f "$out/_SUCCESS" ]; then
    echo "FAIL: $name: build failed: $(head -3 "$T/$name.err")"
    fails=$((fails + 1))
    return
  fi
  for f in "$out"/cf/*; do "$H" inspect --cells --tsv "$f"; done >"$T/$name.cells"
  if python3 "$SRC/tests/db/bits.py" compare "$mode" "$T/bits.expected" "$T/$name.cells" \
       "$T/$name.summary" >"$T/$name.cmp"; then
    echo "ok: $name: $(tail -1 "$T/$name.cmp" | sed 's/^ok: //')"
  else
    echo "FAIL: $name:"
    sed 's/^/  /' "$T/$name.cmp" | head -20
    [ -f "$out/_rejects.tsv" ] && cut -c1-200 "$out/_rejects.tsv" | head -5 | sed 's/^/  reject: /'
    fails=$((fails + 1))
  fi
}

# ---- PostgreSQL ----
if ! pg_available; then
  skip_loudly "PostgreSQL dump tests: initdb/pg_ctl/psql not installed (tools/setup.sh installs postgresql)"
elif ! pg_start; then
  skip_loudly "PostgreSQL dump tests: the server could not be started here"
else
  ran=$((ran + 1))
  python3 "$ORDERS" sql pg | pg_sql >/dev/null || { echo "FAIL: pg: creating the table"; fails=$((fails + 1)); }
  python3 "$ORDERS" expected-sql pg | pg_sql -F $'\t' >"$T/pg.expected"
  O="$PG_DIR/out"
  pg_sql >/dev/null <<SQL
COPY orders TO '$O/text.txt';
COPY orders TO '$O/text_nil.txt' WITH (DELIMITER '|', NULL 'NIL');
COPY orders TO '$O/text_header.txt' WITH (HEADER);
COPY orders TO '$O/header.csv' WITH (FORMAT csv, HEADER);
COPY orders TO '$O/quoted.csv' WITH (FORMAT csv, ESCAPE '\\', NULL 'NULL', FORCE_QUOTE *);
SQL
  check pg-text "$T/pg.expected" "$O/text.txt" --format pg-text --columns $COLS
  # psql's client-side \copy: the same COPY data through the client
  pg_sql -c "\\copy orders TO '$T/client.txt'" >/dev/null
  check pg-text-client "$T/pg.expected" "$T/client.txt" --format pg-text --columns $COLS
  check pg-text-nil "$T/pg.expected" "$O/text_nil.txt" --format pg-text --delimiter '|' \
    --null-string NIL --columns $COLS
  check pg-text-header "$T/pg.expected" "$O/text_header.txt" --format pg-text
  check pg-csv-header "$T/pg.expected" "$O/header.csv" --format pg-csv
  check pg-csv-quoted "$T/pg.expected" "$O/quoted.csv" --format pg-csv --fields-escaped-by '\\' \
    --null-string NULL --columns $COLS
  # pg_dump's plain SQL script is no COPY data
  if pg_dump -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -t orders "$PG_DB" >"$T/pg_dump.sql" 2>"$T/pg_dump.err"; then
    refused pg-dump-script "an SQL script written by pg_dump (its rows sit in COPY blocks" \
      "$T/pg_dump.sql" --format pg-text --columns $COLS
    refused pg-dump-script-csv "an SQL script written by pg_dump (its rows sit in COPY blocks" \
      "$T/pg_dump.sql" --format pg-csv
  else
    echo "FAIL: pg_dump: $(cat "$T/pg_dump.err")"
    fails=$((fails + 1))
  fi
  # the same files read as plain CSV/TSV are not the table (the bug this fixes)
  if "$H" build --rowkey '{id}' --out "$T/out-pg-as-tsv" --timestamp 1 --format tsv --quiet \
       --max-rejects 100 --columns $COLS "$O/text.txt" >"$T/as-tsv.summary" 2>&1 &&
     for f in "$T"/out-pg-as-tsv/cf/*; do "$H" inspect --cells --tsv "$f"; done >"$T/as-tsv.cells" &&
     python3 "$ORDERS" compare "$T/pg.expected" "$T/as-tsv.cells" "$T/as-tsv.summary" >/dev/null; then
    echo "FAIL: pg: the text dump read as TSV matched the table: the check is blind"
    fails=$((fails + 1))
  else
    echo "ok: pg-text read as --format tsv does not match (as expected)"
  fi
  pg_stop
fi

# ---- MariaDB ----
if ! mariadb_available; then
  skip_loudly "MariaDB dump tests: mariadbd/mariadb-install-db not installed (tools/setup.sh installs mariadb-server)"
elif ! mariadb_start; then
  skip_loudly "MariaDB dump tests: the server could not be started here"
else
  ran=$((ran + 1))
  python3 "$ORDERS" sql mariadb | mariadb_sql || { echo "FAIL: mariadb: creating the table"; fails=$((fails + 1)); }
  python3 "$ORDERS" expected-sql mariadb | mariadb_sql >"$T/my.expected"
  O="$MY_DIR/out"
  mariadb_sql <<SQL
SELECT * INTO OUTFILE '$O/default.txt' FROM orders ORDER BY id;
SELECT * INTO OUTFILE '$O/csvish.txt' FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"'
  LINES TERMINATED BY '\r\n' FROM orders ORDER BY id;
SELECT * INTO OUTFILE '$O/pipes.txt' FIELDS TERMINATED BY '||' ENCLOSED BY '\''
  ESCAPED BY '\\\\' LINES TERMINATED BY '##\n' FROM orders ORDER BY id;
SQL
  check mysql-default "$T/my.expected" "$O/default.txt" --format mysql --columns $COLS
  check mysql-csvish "$T/my.expected" "$O/csvish.txt" --format mysql --columns $COLS \
    --fields-terminated-by , --fields-enclosed-by '"' --lines-terminated-by '\r\n'
  check mysql-pipes "$T/my.expected" "$O/pipes.txt" --format mysql --columns $COLS \
    --fields-terminated-by '||' --fields-enclosed-by "'" --fields-escaped-by '\\' \
    --lines-terminated-by '##\n'
  if mariadb-dump --no-defaults -h "$MY_HOST" -P "$MY_PORT" --protocol=tcp -u "$MY_USER" \
       --tab="$O" "$MY_DB" orders >"$T/dump.err" 2>&1; then
    check mysqldump-tab "$T/my.expected" "$O/orders.txt" --format mysql --columns $COLS
    # its orders.sql beside the rows is the schema: the rows are orders.txt
    refused mysqldump-tab-sql "the schema of table \`orders\` (CREATE TABLE, no rows), as mysqldump --tab writes it beside the rows: give $O/orders.txt instead" \
      "$O/orders.sql" --format mysql --columns $COLS
  else
    echo "FAIL: mariadb-dump --tab: $(cat "$T/dump.err")"
    fails=$((fails + 1))
  fi
  # mariadb-dump without --tab writes INSERT statements, not rows
  if mariadb-dump --no-defaults -h "$MY_HOST" -P "$MY_PORT" --protocol=tcp -u "$MY_USER" \
       "$MY_DB" orders >"$T/orders.sql" 2>"$T/dump.err"; then
    refused mysqldump-script "an SQL script of INSERT statements written by mysqldump/mariadb-dump without --tab" \
      "$T/orders.sql" --format mysql --columns $COLS
  else
    echo "FAIL: mariadb-dump: $(cat "$T/dump.err")"
    fails=$((fails + 1))
  fi
  # BIT columns, which the server writes unescaped (tests/db/bits.py): read exactly with
  # mysqldump --tab's bits.sql beside bits.txt (enclosed or not), and from the server; a dump
  # without it is never misread silently but for the values the README names
  python3 "$SRC/tests/db/bits.py" sql | mariadb_sql || { echo "FAIL: mariadb: creating bits"; fails=$((fails + 1)); }
  python3 "$SRC/tests/db/bits.py" expected-sql | mariadb_sql >"$T/bits.expected"
  BCOLS=id,b1,b8,b16,b64,nn,vb,bl
  mariadb_sql -e "SELECT * INTO OUTFILE '$O/bits_outfile.txt' FROM bits ORDER BY id"
  bits bits-outfile outfile "$O/bits_outfile.txt" --format mysql --columns $BCOLS --max-rejects 100
  db_run mkdir -p "$O/enc" "$O/opt"
  # (ENCLOSED BY encloses a BIT value, never a NULL: a BIT(16) 0x5c4e is no NULL there)
  for v in "tab:tab:$O:" "tab-enclosed:exact:$O/enc:--fields-enclosed-by=\"" \
           "tab-optionally:tab:$O/opt:--fields-optionally-enclosed-by=\""; do
    IFS=: read -r name mode dir opt <<<"$v"
    if mariadb-dump --no-defaults -h "$MY_HOST" -P "$MY_PORT" --protocol=tcp -u "$MY_USER" \
         --tab="$dir" ${opt:+--fields-terminated-by=, "$opt"} "$MY_DB" bits >"$T/dump.err" 2>&1; then
      bits "bits-$name" "$mode" "$dir/bits.txt" --format mysql --columns $BCOLS \
        ${opt:+--fields-terminated-by , --fields-enclosed-by '"'}
    else
      echo "FAIL: mariadb-dump --tab $opt: $(cat "$T/dump.err")"
      fails=$((fails + 1))
    fi
  done
  bits bits-direct exact "mysql://$MY_USER@$MY_HOST:$MY_PORT/$MY_DB?table=bits"
  # --compact drops the header comment: the statements tell
  if mariadb-dump --no-defaults -h "$MY_HOST" -P "$MY_PORT" --protocol=tcp -u "$MY_USER" \
       --compact "$MY_DB" orders >"$T/compact.sql" 2>"$T/dump.err"; then
    refused mysqldump-compact "an SQL script of INSERT statements, not rows" \
      "$T/compact.sql" --format mysql --columns $COLS
  else
    echo "FAIL: mariadb-dump --compact: $(cat "$T/dump.err")"
    fails=$((fails + 1))
  fi
  mariadb_stop
fi

if [ $ran -eq 0 ]; then
  skip_loudly "no database server could be started: the real-server dump tests did not run"
  exit 77
fi
if [ $fails -gt 0 ]; then
  echo "$fails dump check(s) failed"
  exit 1
fi
echo "all dump checks passed"

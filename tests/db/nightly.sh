#!/usr/bin/env bash
# Nightly loads that keep an HBase table equal to its source (issue #27,
# format-specs/nightly-loads.md), against throwaway PostgreSQL and MariaDB servers
# (tests/db/pg.sh, tests/db/mariadb.sh). A table `items` whose triggers stamp every insert
# and update into updated_ms (epoch ms) and copy every deleted key into `tomb`:
#   night 1: full load (--incremental lastmodified --check-column updated_ms, no last value)
#   day 2:   a value changed, a column set to NULL, a NULL column set, a row inserted and
#            updated the same day, a soft delete (deleted = true), a hard delete, a row
#            deleted and re-inserted, a row inserted and deleted the same day
#   night 2: --last-value-from night 1, --delete-if deleted, --deletes the tomb table
#   night 3: nothing new
#   night 4: the soft-deleted row un-deleted, the hard-deleted row inserted again
# After each night the table HBase's read path gives over all nights' HFiles so far
# (hfg_nightly_scan: the store scan, latest versions) equals the source table mapped, cell
# for cell and with each cell at its row's updated_ms (NULL = no cell); with VERSIONS 3 an
# updated column's older version is still there, a NULLed or deleted one is not. Every
# night's files pass verify; the manifests count puts, column and row deletes.
# Bad input: rows whose check column is NULL (counted and warned), a --last-value above
# every check value (the column went backwards), a deletes source without the key column:
# clear errors, nothing published.
#
# usage: nightly.sh HFILEGEN SOURCE_DIR HFG_NIGHTLY_SCAN [KEEP_DIR]
# KEEP_DIR: each night's output, the table as it was after it (KIND/nN.expected) and the store
# scan's 3 versions (KIND/nN.v3) are kept there for tests/interop NightlyCheck (HBase itself).
# Exit 77 (ctest: skipped) only when neither server can be started here.
. "$2/tests/db/prologue.sh" "$1" "$2"
SCAN=$3
KEEP=${4:-}
fails=0
ran=0

cells() { # cells OUT_DIR: every cell of every HFile, sorted
  local f
  for f in "$1"/*/*; do
    [ -e "$f" ] || continue
    case "$f" in */_*) continue ;; esac
    "$H" inspect --cells --tsv "$f"
  done | LC_ALL=C sort
}

# night KIND N URI [ARGS...]: one night's build into $T/KIND-nN
night() {
  local kind=$1 n=$2 uri=$3
  shift 3
  local out="$T/$kind-n$n"
  if ! "$H" build --out "$out" --rowkey '{id}' --incremental lastmodified \
       --check-column updated_ms --delete-if deleted --deletes "$uri?table=tomb" --deletes-time deleted_ms \
       --bloom "$BLOOM" "$@" \
       "$uri?table=items" >"$out.summary" 2>"$out.err"; then
    fail "$kind night $n: build failed: $(cat "$out.err")"
    return 1
  fi
  if ! "$H" verify "$out" >"$out.verify" 2>&1; then
    fail "$kind night $n: verify: $(tail -3 "$out.verify")"
  fi
}

# compare KIND N SQLFN: the scan over nights 1..N equals the table (SQLFN runs SQL)
compare() {
  local kind=$1 n=$2 sql=$3 dirs="" i
  for i in $(seq 1 "$n"); do dirs="$dirs $T/$kind-n$i"; done
  # shellcheck disable=SC2086
  "$SCAN" cf 1 $dirs | LC_ALL=C sort >"$T/$kind-n$n.scan" || fail "$kind night $n: scan failed"
  $sql "SELECT id, 'name', updated_ms, name FROM items WHERE NOT deleted AND name IS NOT NULL
        UNION ALL SELECT id, 'qty', updated_ms, CONCAT(qty, '') FROM items WHERE NOT deleted AND qty IS NOT NULL
        UNION ALL SELECT id, 'note', updated_ms, note FROM items WHERE NOT deleted AND note IS NOT NULL
        UNION ALL SELECT id, 'updated_ms', updated_ms, CONCAT(updated_ms, '') FROM items WHERE NOT deleted" |
    LC_ALL=C sort >"$T/$kind-n$n.expected"
  if [ -n "$KEEP" ]; then # for NightlyCheck: the night's output as it is now, before any load
    mkdir -p "$KEEP/$kind"
    rm -rf "$KEEP/$kind/n$n"
    cp -r "$T/$kind-n$n" "$KEEP/$kind/n$n"
    cp "$T/$kind-n$n.expected" "$KEEP/$kind/n$n.expected"
    # shellcheck disable=SC2086
    "$SCAN" cf 3 $dirs >"$KEEP/$kind/n$n.v3" || fail "$kind night $n: scan of 3 versions failed"
  fi
  if [ ! -s "$T/$kind-n$n.expected" ] || ! cmp -s "$T/$kind-n$n.scan" "$T/$kind-n$n.expected"; then
    fail "$kind night $n: the table after the bulk loads differs from the source:"
    diff "$T/$kind-n$n.expected" "$T/$kind-n$n.scan" | head -20 | sed 's/^/  /'
  else
    echo "ok: $kind night $n: scan of nights 1..$n = source table ($(wc -l <"$T/$kind-n$n.scan") cells, each at its row's updated_ms)"
  fi
}

# changes KIND N EXPECTED: the manifest's changes record
changes() {
  local got
  got=$(grep -o '"changes": {[^}]*}' "$T/$1-n$2/manifest.json")
  if [ "$got" != "\"changes\": {$3}" ]; then
    fail "$1 night $2: manifest $got, expected {$3}"
  else
    echo "ok: $1 night $2: $got"
  fi
}

# nights KIND URI SQLFN: the four nights and their checks
nights() {
  local kind=$1 uri=$2 sql=$3
  night "$kind" 1 "$uri" || return
  compare "$kind" 1 "$sql"
  changes "$kind" 1 '"puts": 29, "column_deletes": 3, "row_deletes": 0, "family_deletes": 0, "deletes_read": 0, "deletes_superseded": 0'
  sleep 0.05 # the day's changes are stamped after the night's last value
  $sql "UPDATE items SET qty = 6 WHERE id = 1;
        UPDATE items SET note = NULL WHERE id = 4;
        UPDATE items SET note = 'set' WHERE id = 2;
        INSERT INTO items (id, name, qty, note) VALUES (9, 'ivy', 1, NULL);
        UPDATE items SET qty = 10 WHERE id = 9;
        UPDATE items SET deleted = true WHERE id = 5;
        DELETE FROM items WHERE id = 6;
        DELETE FROM items WHERE id = 7;
        INSERT INTO items (id, name, qty, note) VALUES (7, 'gus2', 11, NULL);
        INSERT INTO items (id, name, qty, note) VALUES (10, 'jo', 1, 'x');
        DELETE FROM items WHERE id = 10;" >/dev/null || { fail "$kind: day 2 changes"; return; }
  night "$kind" 2 "$uri" --last-value-from "$T/$kind-n1" || return
  compare "$kind" 2 "$sql"
  # row 7, deleted and re-inserted: live, with a DeleteFamily below its new cells (4th marker)
  changes "$kind" 2 '"puts": 17, "column_deletes": 3, "row_deletes": 3, "family_deletes": 4, "deletes_read": 3, "deletes_superseded": 1'
  # VERSIONS 3: the changed value's old version is there; NULLed and deleted ones are not
  "$SCAN" cf 3 "$T/$kind-n1" "$T/$kind-n2" >"$T/$kind-v3.scan"
  local q1 n4 r5 r6 r7
  q1=$(awk -F'\t' '$1 == 1 && $2 == "qty" {print $4}' "$T/$kind-v3.scan" | tr '\n' ' ')
  n4=$(awk -F'\t' '$1 == 4 && $2 == "note"' "$T/$kind-v3.scan" | wc -l)
  r5=$(awk -F'\t' '$1 == 5 || $1 == 6' "$T/$kind-v3.scan" | wc -l)
  # row 7 was deleted and inserted again: the new row's 3 cells, no version of the old row
  r7=$(awk -F'\t' '$1 == 7 {print $2 "=" $4}' "$T/$kind-v3.scan" | grep -v '^updated_ms=' | tr '\n' ' ')
  if [ "$q1" != "6 5 " ] || [ "$n4" != 0 ] || [ "$r5" != 0 ] || [ "$r7" != "name=gus2 qty=11 " ] ||
     [ "$(awk -F'\t' '$1 == 7' "$T/$kind-v3.scan" | wc -l)" != 3 ]; then
    fail "$kind: VERSIONS 3: row 1 qty [$q1] (expected 6 5), row 4 note $n4 cells, rows 5/6 $r5 cells (expected 0), row 7 [$r7] (expected name=gus2 qty=11)"
  else
    echo "ok: $kind: VERSIONS 3: row 1 qty keeps 6 and 5; row 4's NULLed note and rows 5, 6 have no version left; re-inserted row 7 only its new cells"
  fi
  if ! "$H" inspect --cells "$T/$kind-n2"/cf/* | grep -q '/DeleteColumn ' ||
     ! "$H" inspect --cells "$T/$kind-n2"/cf/* | grep -q '/DeleteFamily '; then
    fail "$kind night 2: inspect shows no DeleteColumn / DeleteFamily cells"
  fi
  sleep 0.05
  night "$kind" 3 "$uri" --last-value-from "$T/$kind-n2" || return
  compare "$kind" 3 "$sql"
  # nothing new: no row read; of the tombstones only those deleted after night 2's last value
  # (row 10's, when its delete came a millisecond after the last update) come again
  local r3 d3
  r3=$(awk '/records read/ {print $3}' "$T/$kind-n3.summary")
  d3=$(grep -o '"deletes_read": [0-9]*' "$T/$kind-n3/manifest.json" | awk '{print $2}')
  if [ "$r3" != "$d3" ] || [ "$d3" -gt 1 ] ||
     ! grep -q "\"last_value\": \"$($sql "SELECT max(updated_ms) FROM items")\"" "$T/$kind-n3/manifest.json"; then
    fail "$kind night 3: read $r3 records with $d3 tombstones (expected no row, at most row 10's tombstone), manifest $(grep -o '"incremental": {[^}]*}' "$T/$kind-n3/manifest.json")"
  else
    echo "ok: $kind night 3: nothing new ($r3 records: $d3 tombstones deleted after the last value), last value kept"
  fi
  # the tombstones as a CSV file: the library keeps this night's window as the server does
  # (without it, row 7's old tombstone would mask the row inserted again in its millisecond)
  { echo "id,deleted_ms"; $sql "SELECT id, deleted_ms FROM tomb" | tr '\t' ','; } >"$T/$kind-tomb.csv"
  if ! "$H" build --out "$T/$kind-n3f" --rowkey '{id}' --incremental lastmodified \
       --check-column updated_ms --delete-if deleted --deletes "$T/$kind-tomb.csv" \
       --deletes-time deleted_ms --last-value-from "$T/$kind-n2" "$uri?table=items" \
       >"$T/$kind-n3f.summary" 2>"$T/$kind-n3f.err"; then
    fail "$kind night 3, deletes from a file: $(cat "$T/$kind-n3f.err")"
  elif [ "$(cells "$T/$kind-n3")" != "$(cells "$T/$kind-n3f")" ] ||
       [ "$(wc -l <"$T/$kind-tomb.csv")" != 4 ]; then
    fail "$kind night 3, deletes from a file: cells differ from the server-filtered night: [$(cells "$T/$kind-n3f" | tr '\n' ' ')] vs [$(cells "$T/$kind-n3" | tr '\n' ' ')]"
  else
    echo "ok: $kind night 3, deletes from a CSV file of 3 tombstones: the same cells as from the server"
  fi
  # day 4: the soft-deleted row comes back, the hard-deleted row 6 is inserted again: their
  # new cells are later than night 2's DeleteFamily markers, so they show
  sleep 0.05
  $sql "UPDATE items SET deleted = false WHERE id = 5;
        INSERT INTO items (id, name, qty, note) VALUES (6, 'fay2', NULL, 'back');" >/dev/null ||
    { fail "$kind: day 4 changes"; return; }
  night "$kind" 4 "$uri" --last-value-from "$T/$kind-n3" || return
  compare "$kind" 4 "$sql"
  # night 4's window of tombstones is night 3's (no row changed on day 3): the same d3
  changes "$kind" 4 "\"puts\": 7, \"column_deletes\": 1, \"row_deletes\": $d3, \"family_deletes\": $d3, \"deletes_read\": $d3, \"deletes_superseded\": 0"
}

# must_fail NAME PATTERN ARGS...: the build fails naming PATTERN, nothing published
must_fail() {
  local name=$1 pat=$2
  shift 2
  local out="$T/$name"
  if "$H" build --out "$out" --rowkey '{id}' "$@" >"$out.summary" 2>"$out.err"; then
    fail "$name: the build succeeded"
  elif ! grep -qF -- "$pat" "$out.err"; then
    fail "$name: the message does not say '$pat': $(cat "$out.err")"
  elif [ -e "$out/_SUCCESS" ] || [ -e "$out/manifest.json" ] ||
       [ -n "$(find "$out" -type f ! -name '_*' 2>/dev/null)" ]; then
    fail "$name: something was published: $(find "$out" -type f)"
  else
    echo "ok: $name: $(grep -m1 FAILED "$out.err" | cut -c1-150)"
  fi
}

# bad_input KIND URI SQLFN
bad_input() {
  local kind=$1 uri=$2 sql=$3
  $sql "INSERT INTO nulls VALUES (1, 'a', 1700000000000), (2, 'b', NULL), (3, 'c', NULL)" >/dev/null
  local out="$T/$kind-nulls"
  if ! "$H" build --out "$out" --rowkey '{id}' --incremental lastmodified --check-column updated_ms \
       --last-value 1600000000000 "$uri?table=nulls" >"$out.summary" 2>"$out.err" ||
     ! grep -q "2 rows whose updated_ms is NULL were not loaded" "$out.err" ||
     ! grep -q '"null_check_not_loaded": 2' "$out/manifest.json"; then
    fail "$kind: NULL check values not counted and warned: $(cat "$out.err")"
  else
    echo "ok: $kind: NULL check values counted and warned: $(grep -o 'warning: 2 rows[^(]*' "$out.err")"
  fi
  must_fail "$kind-backwards" "went backwards" --incremental lastmodified \
    --check-column updated_ms --last-value 1900000000000 "$uri?table=nulls"
  must_fail "$kind-deletes-no-key" "has no column 'id', which the rowkey reads" \
    --incremental lastmodified --check-column updated_ms \
    --deletes "$uri?query=SELECT+deleted_ms+FROM+tomb" "$uri?table=items"
  # a check column the result lacks is a usage error (exit 2), named with the columns read
  "$H" build --out "$T/$kind-nocheck" --rowkey '{id}' --incremental lastmodified \
    --check-column nosuch "$uri?table=nulls" >/dev/null 2>"$T/$kind-nocheck.err"
  local rc=$?
  if [ $rc -ne 2 ] || ! grep -q "check column 'nosuch' is not a column of the result of .*; the columns read are" "$T/$kind-nocheck.err" ||
     [ -e "$T/$kind-nocheck/_SUCCESS" ]; then
    fail "$kind: a check column the result lacks: exit $rc, want 2: $(cat "$T/$kind-nocheck.err")"
  else
    echo "ok: $kind: a check column the result lacks: exit 2: $(grep -m1 FAILED "$T/$kind-nocheck.err" | cut -c1-150)"
  fi
}

# ts_column KIND URI SQLFN QUERY: a timestamp check column, selected as epoch ms by ?query=
# (format-specs/nightly-loads.md §5): the cells are at the column's time; a second night with
# the first's last value reads only the row updated since
ts_column() {
  local kind=$1 uri=$2 sql=$3 query=$4 out="$T/$1-ts"
  $sql "INSERT INTO ts_items VALUES (1, 'a', '2023-11-14 22:13:20.123'), (2, 'b', '2023-11-14 22:13:21.000')" >/dev/null
  if ! "$H" build --out "$out-1" --rowkey '{id}' --incremental lastmodified --check-column updated_ms \
       --map updated_ms=- "$uri?query=$query" >"$out-1.summary" 2>"$out-1.err"; then
    fail "$kind: timestamp column, night 1: $(cat "$out-1.err")"
    return
  fi
  $sql "UPDATE ts_items SET name = 'B', updated_at = '2023-11-15 00:00:00.500' WHERE id = 2" >/dev/null
  if ! "$H" build --out "$out-2" --rowkey '{id}' --incremental lastmodified --check-column updated_ms \
       --map updated_ms=- --last-value-from "$out-1" "$uri?query=$query" >"$out-2.summary" 2>"$out-2.err"; then
    fail "$kind: timestamp column, night 2: $(cat "$out-2.err")"
    return
  fi
  local c1 c2
  c1=$("$H" inspect --cells "$out-1"/cf/* | grep -o '^[0-9]*/cf:[a-z_]*/[0-9]*' | LC_ALL=C sort | tr '\n' ' ')
  c2=$("$H" inspect --cells "$out-2"/cf/* | grep -o '^[0-9]*/cf:[a-z_]*/[0-9]*' | LC_ALL=C sort | tr '\n' ' ')
  if [ "$c1" != "1/cf:name/1700000000123 1/cf:updated_at/1700000000123 2/cf:name/1700000001000 2/cf:updated_at/1700000001000 " ] ||
     [ "$c2" != "2/cf:name/1700006400500 2/cf:updated_at/1700006400500 " ]; then
    fail "$kind: timestamp column: night 1 [$c1], night 2 [$c2]"
  else
    echo "ok: $kind: a timestamp check column via ?query=: cells at its epoch ms, night 2 reads the updated row only"
  fi
}

# ---- PostgreSQL ----
if ! pg_available; then
  skip_loudly "PostgreSQL nightly tests: initdb/pg_ctl/psql not installed"
elif ! pg_start; then
  skip_loudly "PostgreSQL nightly tests: the server could not be started here"
else
  ran=$((ran + 1))
  pgq() { pg_sql -F $'\t' -c "$1"; }
  pg_sql >/dev/null <<'SQL' || fail "pg: schema"
CREATE TABLE items (id int PRIMARY KEY, name text, qty int, note text,
                    deleted boolean NOT NULL DEFAULT false, updated_ms bigint);
CREATE TABLE tomb (id int, deleted_ms bigint);
CREATE TABLE nulls (id int PRIMARY KEY, name text, updated_ms bigint);
CREATE FUNCTION stamp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN NEW.updated_ms := (extract(epoch FROM clock_timestamp()) * 1000)::bigint; RETURN NEW; END $$;
CREATE FUNCTION tombstone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO tomb VALUES (OLD.id, (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
RETURN OLD; END $$;
CREATE TRIGGER items_stamp BEFORE INSERT OR UPDATE ON items FOR EACH ROW EXECUTE FUNCTION stamp();
CREATE TRIGGER items_tomb AFTER DELETE ON items FOR EACH ROW EXECUTE FUNCTION tombstone();
INSERT INTO items (id, name, qty, note) VALUES (1, 'ann', 5, 'n1'), (2, 'bob', 3, NULL),
  (3, 'cy', NULL, 'n3'), (4, 'dan', 7, 'n4'), (5, 'eve', 1, 'n5'), (6, 'fay', 2, 'n6'),
  (7, 'gus', 9, 'n7'), (8, 'hal', 4, NULL);
SQL
  base="postgresql://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB"
  BLOOM=row nights pg "$base" pgq
  bad_input pg "$base" pgq
  pgq "CREATE TABLE ts_items (id int PRIMARY KEY, name text, updated_at timestamp(3))" >/dev/null
  ts_column pg "$base" pgq 'SELECT+*,+(extract(epoch+FROM+updated_at)*1000)::bigint+AS+updated_ms+FROM+ts_items'

fi

# ---- MariaDB ----
if ! mariadb_available; then
  skip_loudly "MariaDB nightly tests: mariadbd/mariadb-install-db not installed"
elif ! mariadb_start; then
  skip_loudly "MariaDB nightly tests: the server could not be started here"
else
  ran=$((ran + 1))
  myq() { mariadb_sql -e "$1"; }
  mariadb_sql >/dev/null <<'SQL' || fail "mariadb: schema"
CREATE TABLE items (id INT PRIMARY KEY, name TEXT, qty INT, note TEXT,
                    deleted BOOLEAN NOT NULL DEFAULT false, updated_ms BIGINT) ENGINE=InnoDB;
CREATE TABLE tomb (id INT, deleted_ms BIGINT) ENGINE=InnoDB;
CREATE TABLE nulls (id INT PRIMARY KEY, name TEXT, updated_ms BIGINT) ENGINE=InnoDB;
CREATE TRIGGER items_bi BEFORE INSERT ON items FOR EACH ROW
  SET NEW.updated_ms = ROUND(UNIX_TIMESTAMP(SYSDATE(3)) * 1000);
CREATE TRIGGER items_bu BEFORE UPDATE ON items FOR EACH ROW
  SET NEW.updated_ms = ROUND(UNIX_TIMESTAMP(SYSDATE(3)) * 1000);
CREATE TRIGGER items_ad AFTER DELETE ON items FOR EACH ROW
  INSERT INTO tomb VALUES (OLD.id, ROUND(UNIX_TIMESTAMP(SYSDATE(3)) * 1000));
INSERT INTO items (id, name, qty, note) VALUES (1, 'ann', 5, 'n1'), (2, 'bob', 3, NULL),
  (3, 'cy', NULL, 'n3'), (4, 'dan', 7, 'n4'), (5, 'eve', 1, 'n5'), (6, 'fay', 2, 'n6'),
  (7, 'gus', 9, 'n7'), (8, 'hal', 4, NULL);
SQL
  base="mysql://$MY_USER@$MY_HOST:$MY_PORT/$MY_DB"
  BLOOM=rowcol nights mariadb "$base" myq # the other bloom, for NightlyCheck's Gets
  bad_input mariadb "$base" myq
  myq "CREATE TABLE ts_items (id INT PRIMARY KEY, name TEXT, updated_at DATETIME(3)) ENGINE=InnoDB" >/dev/null
  ts_column mariadb "$base" myq 'SELECT+*,+ROUND(UNIX_TIMESTAMP(updated_at)*1000)+AS+updated_ms+FROM+ts_items'

fi

if [ $ran -eq 0 ]; then
  skip_loudly "all nightly tests: no database server could be started"
  exit 77
fi
echo "nightly: $fails failure(s)"
[ $fails -eq 0 ]

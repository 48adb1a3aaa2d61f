#!/usr/bin/env bash
# Direct database reads (src/input/source_db.h), against throwaway PostgreSQL and MariaDB
# servers (tests/db/pg.sh, tests/db/mariadb.sh) holding the legacy `orders` table of
# tests/db/orders.py:
#   (b) a postgresql:// / mysql:// input builds byte-identical HFiles (and manifest) to the
#       server's own dump (COPY ... TO text; SELECT ... INTO OUTFILE) built with the dump
#       format, and its cells are exactly the values the server reports (bytea as bytes);
#   (c) two incremental loads (--incremental append, the second from a job file with
#       --last-value-from the first's output) with inserts in between give exactly the cells of one full load, no row
#       twice; a third with nothing new reads nothing and keeps the last value;
#   bad input (wrong password, a closed port, a missing table, a missing column) fails in
#   bounded time with a message naming the URI without its password, nothing published;
#   so does a server killed mid-read (its last notice named, not printed); a ?query= may
#   end in ';';
#   the password never reaches a message, the rejects file or the manifest;
#   plan, lint and splits --algo sample read the same URIs;
#   the README's first night loads every row (ids <= 0 and NULL ones too), and rows whose
#   check column is NULL are counted and warned about (loaded on a first night, never
#   selected after); a row is "row N" in messages; a 70 MB row at --memory 32m is rejected
#   as its dump's is, for the same reason, and RSS stays near the budget.
#
# usage: direct.sh HFILEGEN SOURCE_DIR
# Exit 77 (ctest: skipped) only when neither server can be started here; a server that is
# missing or fails to start is reported loudly and its part skipped.
. "$2/tests/db/prologue.sh" "$@"
SECRET=S3cr3tPw
fails=0
ran=0

cells() { # cells OUT_DIR: every cell of every family file, sorted
  local f
  for f in "$1"/*/*; do
    [ -e "$f" ] || continue # a night that read no row wrote no file
    case "$f" in */_*) continue ;; esac
    "$H" inspect --cells --tsv "$f"
  done | LC_ALL=C sort
}

# same_files NAME A B: the same HFiles (names and bytes) and the same manifest.
same_files() {
  local name=$1 a=$2 b=$3
  local la lb
  la=$(cd "$a" && find . -type f ! -name '_*' | LC_ALL=C sort)
  lb=$(cd "$b" && find . -type f ! -name '_*' | LC_ALL=C sort)
  if [ -z "$la" ] || [ "$la" != "$lb" ]; then
    fail "$name: different files: [$la] vs [$lb]"
    return
  fi
  local f
  for f in $la; do
    cmp -s "$a/$f" "$b/$f" || { fail "$name: $f differs"; return; }
  done
  echo "ok: $name: $(echo "$la" | wc -l) files byte-identical"
}

# build_ok NAME OUT ARGS...: a build that must succeed
build_ok() {
  local name=$1 out=$2
  shift 2
  if ! "$H" build --out "$out" --timestamp 1 --empty store "$@" >"$T/$name.summary" 2>"$T/$name.err"; then
    fail "$name: build failed: $(cat "$T/$name.err")"
    return 1
  fi
}

# must_fail NAME URI_SHOWN ARGS...: the build fails within 60 s, its message names
# URI_SHOWN, never the secret, and nothing is published.
must_fail() {
  local name=$1 shown=$2
  shift 2
  local out="$T/out-$name" t0 t1 rc
  t0=$(date +%s)
  timeout 60 "$H" build --rowkey '{id}' --out "$out" "$@" >"$T/$name.out" 2>"$T/$name.err"
  rc=$?
  t1=$(date +%s)
  if [ $rc -ne 1 ] && [ $rc -ne 2 ]; then
    fail "$name: exit $rc, expected a failure ($(head -3 "$T/$name.err"))"
  elif ! grep -qF -- "$shown" "$T/$name.err"; then
    fail "$name: message does not name $shown: $(cat "$T/$name.err")"
  elif grep -qF "$SECRET" "$T/$name.err" "$T/$name.out"; then
    fail "$name: the password is in the output: $(cat "$T/$name.err")"
  elif [ -e "$out/_SUCCESS" ] || [ -n "$(find "$out" -mindepth 2 -type f ! -name '_*' 2>/dev/null)" ]; then
    fail "$name: something was published in $out"
  else
    echo "ok: $name: $(( t1 - t0 ))s: $(head -1 "$T/$name.err" | cut -c1-200)"
  fi
}

# dies_mid_read NAME URI SHOWN ACTIVE_CMD KILL_CMD: a build of URI (a query that sleeps
# half-way through its rows) while the server is killed, once ACTIVE_CMD says the query
# runs: it fails naming SHOWN and the lost connection, publishes nothing, prints no
# server notice of its own.
dies_mid_read() {
  local name=$1 uri=$2 shown=$3 active=$4 kill=$5
  local out="$T/out-$name" i
  ( for i in $(seq 1 300); do [ "$($active)" != 0 ] && break; sleep 0.1; done; sleep 0.5; $kill ) &
  local killer=$!
  timeout 120 "$H" build --rowkey '{id}' --out "$out" --threads 1 "$uri" >"$T/$name.out" 2>"$T/$name.err"
  local rc=$?
  wait $killer
  if [ $rc -ne 1 ]; then
    fail "$name: exit $rc, expected 1 ($(head -3 "$T/$name.err"))"
  elif ! grep -qF -- "FAILED: $shown" "$T/$name.err" || ! grep -q "reading the rows" "$T/$name.err"; then
    fail "$name: the message does not name $shown and the read: $(cat "$T/$name.err")"
  elif grep -q '^WARNING\|^FATAL\|^NOTICE' "$T/$name.err"; then
    fail "$name: a server notice was printed: $(cat "$T/$name.err")"
  elif [ -e "$out/_SUCCESS" ] || [ -n "$(find "$out" -mindepth 2 -type f ! -name '_*' 2>/dev/null)" ]; then
    fail "$name: something was published in $out"
  else
    echo "ok: $name: $(head -1 "$T/$name.err" | cut -c1-220)"
  fi
}

# term_while_silent NAME URI ACTIVE_CMD: a build of URI (a query whose first row takes 60 s)
# gets SIGTERM once ACTIVE_CMD says the query runs: it must stop within 10 s (exit 143,
# "canceled while waiting for the server"), publish nothing, and (ACTIVE_CMD again) the
# server's query must be gone within 10 s. It waited for the first row (a lock wait, a
# long sort: forever) before.
term_while_silent() {
  local name=$1 uri=$2 active=$3
  local out="$T/out-$name" i t0 t1 rc
  "$H" build --rowkey '{id}' --out "$out" "$uri" >"$T/$name.out" 2>"$T/$name.err" &
  local pid=$!
  for i in $(seq 1 300); do [ "$($active)" != 0 ] && break; sleep 0.1; done
  sleep 0.5
  t0=$(date +%s)
  kill -TERM $pid
  for i in $(seq 1 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  t1=$(date +%s)
  if kill -0 $pid 2>/dev/null; then
    kill -9 $pid; wait $pid 2>/dev/null
    fail "$name: still running 10 s after SIGTERM"
    return
  fi
  wait $pid
  rc=$?
  local gone=0
  for i in $(seq 1 100); do [ "$($active)" = 0 ] && { gone=1; break; }; sleep 0.1; done
  if [ $rc -ne 143 ] || ! grep -q "interrupted by SIGTERM.*canceled while waiting for the server" "$T/$name.err"; then
    fail "$name: exit $rc: $(cat "$T/$name.err")"
  elif [ -e "$out/_SUCCESS" ] || [ -n "$(find "$out" -mindepth 2 -type f ! -name '_*' 2>/dev/null)" ]; then
    fail "$name: something was published in $out"
  elif [ $gone -ne 1 ]; then
    fail "$name: the server still runs the query"
  else
    echo "ok: $name: stopped $(( t1 - t0 ))s after SIGTERM, the server's query gone"
  fi
}

# incremental NAME URI_EVENTS INSERT_CMD...: run 1 (all rows), insert rows 31..60, run 2
# (--last-value-from run 1), run 3 (nothing new); the union equals a full load.
incremental() {
  local name=$1 uri=$2 insert=$3
  local o1="$T/$name-inc1" o2="$T/$name-inc2" o3="$T/$name-inc3" full="$T/$name-full"
  build_ok "$name-inc1" "$o1" --rowkey '{id % 4}|{id}' --incremental append --check-column id "$uri" || return
  $insert
  # the second night as a job file (samples/jobs/orders_nightly.yaml's form)
  cat >"$T/$name-nightly.yaml" <<YAML
inputs:
  - $uri
rowkey: "{id % 4}|{id}"
incremental: append
check-column: id
YAML
  build_ok "$name-inc2" "$o2" --job "$T/$name-nightly.yaml" --last-value-from "$o1" || return
  build_ok "$name-inc3" "$o3" --rowkey '{id % 4}|{id}' --incremental append --check-column id \
    --last-value-from "$o2/manifest.json" "$uri" || return
  build_ok "$name-full" "$full" --rowkey '{id % 4}|{id}' "$uri" || return
  local r1 r2 r3 rf
  r1=$(awk '/records read/ {print $3}' "$T/$name-inc1.summary")
  r2=$(awk '/records read/ {print $3}' "$T/$name-inc2.summary")
  r3=$(awk '/records read/ {print $3}' "$T/$name-inc3.summary")
  rf=$(awk '/records read/ {print $3}' "$T/$name-full.summary")
  { cells "$o1"; cells "$o2"; } | LC_ALL=C sort >"$T/$name.union"
  cells "$full" >"$T/$name.fullcells"
  if [ "$r1" != 30 ] || [ "$r2" != 30 ] || [ "$r3" != 0 ] || [ "$rf" != 60 ]; then
    fail "$name: records read $r1 + $r2 + $r3, full $rf (expected 30 + 30 + 0, 60)"
  elif ! cmp -s "$T/$name.union" "$T/$name.fullcells"; then
    fail "$name: the two incremental loads differ from the full load"
    diff "$T/$name.union" "$T/$name.fullcells" | head -5
  elif ! grep -q "warning: no records were read (no row has id > 60): $o3 holds no HFiles" "$T/$name-inc3.err"; then
    fail "$name: the quiet night's warning: $(cat "$T/$name-inc3.err")"
  elif ! grep -q '"incremental": {"mode": "append", "check_column": "id", "last_value": "30", "null_check_loaded": 0, "null_check_not_loaded": 0}' "$o1/manifest.json" ||
       ! grep -q '"last_value": "60"' "$o2/manifest.json" || ! grep -q '"last_value": "60"' "$o3/manifest.json"; then
    fail "$name: manifest last values: $(grep -h incremental "$o1/manifest.json" "$o2/manifest.json" "$o3/manifest.json")"
  else
    echo "ok: $name: incremental 30 + 30 + 0 rows = full load of 60 ($(wc -l <"$T/$name.union") cells)"
  fi
}

# peak_kb OUT ERR ARGS...: runs hfilegen with ARGS (stdout into OUT, stderr into ERR), prints
# its peak RSS in KiB (wait4's ru_maxrss of a posix_spawn'ed child, as
# tests/cli/build_memory.sh measures it)
peak_kb() {
  python3 - "$1" "$2" "$H" "${@:3}" <<'PY'
import os, sys
fo = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
fe = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
pid = os.posix_spawn(sys.argv[3], sys.argv[3:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_DUP2, fo, 1), (os.POSIX_SPAWN_DUP2, fe, 2)])
_, status, ru = os.wait4(pid, 0)
print(ru.ru_maxrss)
PY
}

# first_nights NAME URI SQL_CMD: the README's first night (its flags, read from README.md) on
# a table whose ids include -5, 0 and a NULL loads every row, and says that the NULL one was
# loaded (summary, warning, manifest); the next night (--last-value-from) reads only the new
# row, and counts and warns about both rows whose id is NULL, which it never selects. The
# README's first night was --last-value 0: ids <= 0 and the NULL row were skipped silently.
first_nights() {
  local name=$1 uri=$2 sql=$3 o1="$T/$1-night1" o2="$T/$1-night2"
  $sql "CREATE TABLE nights (id BIGINT, v VARCHAR(20)); INSERT INTO nights VALUES (-5, 'm5'), (0, 'z'), (NULL, 'n1'), (1, 'a'), (2, 'b')" >/dev/null ||
    { fail "$name: creating the table"; return; }
  local line args
  line=$(sed -n '/^# first night/{n;p;q}' "$SRC/README.md")
  args=${line#*--out /data/hfiles/orders/2026-11-30}
  [ "$args" != "$line" ] || { fail "$name: README's first night not found: [$line]"; return; }
  printf 'inputs:\n  - %s\nrowkey: "{v}"\nincremental: append\ncheck-column: id\n' "$uri" >"$T/$name-nights.yaml"
  # shellcheck disable=SC2086 # the README's flags, as it writes them
  build_ok "$name-night1" "$o1" --job "$T/$name-nights.yaml" $args || return
  $sql "INSERT INTO nights VALUES (3, 'c'), (NULL, 'n2')" >/dev/null
  build_ok "$name-night2" "$o2" --job "$T/$name-nights.yaml" --last-value-from "$o1" || return
  local r1 r2
  r1=$(awk '/records read/ {print $3}' "$T/$name-night1.summary")
  r2=$(awk '/records read/ {print $3}' "$T/$name-night2.summary")
  if [ "$r1" != 5 ] || [ "$r2" != 1 ]; then
    fail "$name: README's first night read $r1 rows (expected all 5: ids -5, 0, NULL, 1, 2), the next $r2 (expected 1)"
  elif ! grep -q '"last_value": "2", "null_check_loaded": 1, "null_check_not_loaded": 0}' "$o1/manifest.json" ||
       ! grep -q '"last_value": "3", "null_check_loaded": 0, "null_check_not_loaded": 2}' "$o2/manifest.json"; then
    fail "$name: manifests: $(grep -h incremental "$o1/manifest.json" "$o2/manifest.json")"
  elif ! grep -q "null check values 1 loaded (id is NULL" "$T/$name-night1.summary" ||
       ! grep -q "warning: 1 row whose id is NULL was loaded" "$T/$name-night1.err"; then
    fail "$name: night 1 does not say the NULL id was loaded: $(cat "$T/$name-night1.summary" "$T/$name-night1.err")"
  elif ! grep -q "null check values 2 not loaded (id is NULL: never > 2)" "$T/$name-night2.summary" ||
       ! grep -q "warning: 2 rows whose id is NULL were not loaded (id > 2 never holds for NULL)" "$T/$name-night2.err"; then
    fail "$name: night 2 does not count the NULL ids it left: $(cat "$T/$name-night2.summary" "$T/$name-night2.err")"
  else
    echo "ok: $name: README's first night read all 5 rows (ids -5, 0, NULL), the next 1; NULL ids: 1 loaded, then 2 not loaded, said"
  fi
}

# rows_named NAME URI_BASE SHOWN_BASE: a database row is "row N" (of the query result) in a
# rejected record's error and in a duplicate key's (both rows); it was "line N".
rows_named() {
  local name=$1 base=$2 shown=$3
  local q="query=SELECT+id,+CASE+WHEN+id+%3D+1+THEN+NULL+ELSE+v+END+AS+v+FROM+nights+WHERE+id+IS+NOT+NULL+ORDER+BY+id"
  must_fail "$name-reject" "$shown?$q row 3: key column 'v' is NULL (record rejected" --rowkey '{v}' "$base?$q"
  local d="query=SELECT+id,+%27same%27+AS+k,+v+FROM+nights+WHERE+id+IS+NOT+NULL+ORDER+BY+id"
  must_fail "$name-duplicate" "duplicate rowkey 'same': $shown?$d row 1 and $shown?$d row 2" --rowkey '{k}' "$base?$d"
}

# big_row NAME URI DUMP COPIES DUMP_ARGS...: a 70 MB row (row 1001 of 2000) at --memory 32m,
# read directly and from the server's own dump of the table: both reject it, for the same
# reason naming --memory (the direct read loaded it at 358 MB (PostgreSQL) / 286 MB
# (MariaDB) peak RSS, the dump rejected it at 213 MB against the 64 MiB limit); peak RSS
# within the budget + 6 MiB for the dump, and for the direct read no more than the row
# held whole COPIES times by the client library on top of that (libpq: twice, its buffer
# and the copy it hands out; libmariadb once).
big_row() {
  local name=$1 uri=$2 dump=$3 copies=$4
  shift 4
  local bare d r rd rr
  bare=$(peak_kb "$T/bare.out" "$T/bare.err" --version)
  d=$(peak_kb "$T/$name-dump.summary" "$T/$name-dump.err" build --rowkey '{id}' --memory 32m \
    --max-rejects 1 --timestamp 1 --out "$T/$name-dump" "$@" "$dump")
  r=$(peak_kb "$T/$name-direct.summary" "$T/$name-direct.err" build --rowkey '{id}' --memory 32m \
    --max-rejects 1 --timestamp 1 --out "$T/$name-direct" "$uri")
  rd=$(awk -F'\t' '$2 == 1001 {print $3}' "$T/$name-dump/_rejects.tsv" 2>/dev/null)
  rr=$(awk -F'\t' '$2 == 1001 {print $3}' "$T/$name-direct/_rejects.tsv" 2>/dev/null)
  local lim=$((bare + (32 + 6) * 1024)) row=$((70000000 / 1024))
  echo "  $name: peak RSS at --memory 32m with a 70 MB row: dump $((d / 1024)) MiB, direct $((r / 1024)) MiB (bare $((bare / 1024)) MiB)"
  if [ ! -f "$T/$name-direct/_SUCCESS" ] || [ ! -f "$T/$name-dump/_SUCCESS" ] ||
     ! grep -q "records read      2000" "$T/$name-direct.summary"; then
    fail "$name: builds: $(cat "$T/$name-direct.err" "$T/$name-dump.err" | head -4)"
  elif [ -z "$rr" ] || [ "$rr" != "$rd" ] ||
       ! grep -q "^record longer than 2097152 bytes (the record limit at --memory 32m" <<<"$rr"; then
    fail "$name: the 70 MB row's rejects: direct [$rr], dump [$rd]"
  elif ldd "$H" 2>/dev/null | grep -q -e libasan -e libtsan; then
    echo "ok: $name: a 70 MB row is rejected alike from the table and its dump (naming --memory); RSS not checked under a sanitizer (its quarantine keeps freed buffers)"
  elif [ "$d" -gt "$lim" ] || [ "$r" -gt $((lim + copies * row)) ]; then
    fail "$name: peak RSS dump $((d / 1024)) MiB (limit $((lim / 1024))), direct $((r / 1024)) MiB (limit $(((lim + copies * row) / 1024)))"
  else
    echo "ok: $name: a 70 MB row is rejected alike from the table and its dump (naming --memory), within the budget"
  fi
}

# others URI: plan, lint and splits --algo sample read a database URI.
others() {
  local name=$1 uri=$2
  if ! "$H" plan --rowkey '{id % 4}|{id}' --regions 4 "$uri" >"$T/$name.plan" 2>&1 ||
     ! grep -q "records    12 read" "$T/$name.plan"; then
    fail "$name: plan: $(head -3 "$T/$name.plan")"
  elif ! "$H" splits --algo sample --rowkey '{id % 4}|{id}' --regions 4 --input "$uri" >"$T/$name.splits" 2>"$T/$name.splits.err" ||
       [ "$(wc -l <"$T/$name.splits")" != 3 ]; then
    fail "$name: splits: $(head -3 "$T/$name.splits")"
  elif "$H" lint --rowkey '{user_id}' --input "$uri" >"$T/$name.lint" 2>&1; [ $? -gt 1 ] ||
       ! grep -qi "null" "$T/$name.lint"; then
    fail "$name: lint: $(head -5 "$T/$name.lint")"
  else
    echo "ok: $name: plan, splits --algo sample and lint read the URI"
  fi
}

# ---- PostgreSQL ----
if ! pg_available; then
  skip_loudly "PostgreSQL direct-read tests: initdb/pg_ctl/psql not installed (tools/setup.sh installs postgresql)"
elif ! pg_start; then
  skip_loudly "PostgreSQL direct-read tests: the server could not be started here"
else
  ran=$((ran + 1))
  python3 "$ORDERS" sql pg | pg_sql >/dev/null || fail "pg: creating the table"
  # a role that needs its password (the test server trusts everyone else)
  db_run sh -c "{ echo 'host all pwuser 127.0.0.1/32 scram-sha-256'; cat '$PG_DATA/pg_hba.conf'; } >'$PG_DATA/hba.new' && mv '$PG_DATA/hba.new' '$PG_DATA/pg_hba.conf'"
  pg_sql >/dev/null <<SQL
CREATE ROLE pwuser LOGIN PASSWORD '$SECRET';
GRANT SELECT ON orders TO pwuser;
SELECT pg_reload_conf();
SQL
  O="$PG_DIR/out"
  pg_sql -c "COPY orders TO '$O/text.txt'" >/dev/null
  base="postgresql://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB"
  URI="$base?table=orders"
  # (b) byte-identical to the dump build (bytea is \x text in a dump, bytes directly: left out)
  if build_ok pg-dump "$T/pg-dump" --rowkey '{id}' --map payload=- --format pg-text --columns $COLS "$O/text.txt" &&
     build_ok pg-direct "$T/pg-direct" --rowkey '{id}' --map payload=- "$URI"; then
    same_files "pg: direct read vs COPY text dump" "$T/pg-dump" "$T/pg-direct"
  fi
  # the same through ?query=, with a password in the URI (and the rejects file never shows it)
  pwuri="postgresql://pwuser:$SECRET@$PG_HOST:$PG_PORT/$PG_DB"
  pwshown="postgresql://pwuser@$PG_HOST:$PG_PORT/$PG_DB"
  if build_ok pg-query "$T/pg-query" --rowkey '{id}' --map payload=- "$pwuri?query=SELECT+*+FROM+orders+WHERE+id+%3E+0"; then
    same_files "pg: ?query= with a password" "$T/pg-dump" "$T/pg-query"
  fi
  # a query as psql takes it, ending in ';' (a derived table cannot hold one: it is dropped)
  if build_ok pg-query-semicolon "$T/pg-query-semicolon" --rowkey '{id}' --map payload=- "$pwuri?query=SELECT+*+FROM+orders+WHERE+id+%3E+0;%0A"; then
    same_files "pg: ?query= ending in ';'" "$T/pg-dump" "$T/pg-query-semicolon"
  fi
  # every value as the server reports it, bytea as its bytes
  sed "s/coalesce(encode(convert_to(payload::text, 'UTF8'), 'hex'), '-')/coalesce(encode(payload, 'hex'), '-')/" \
    <(python3 "$ORDERS" expected-sql pg) | pg_sql -F $'\t' >"$T/pg.expected"
  if build_ok pg-all "$T/pg-all" --rowkey '{id}' "$URI"; then
    cells "$T/pg-all" >"$T/pg-all.cells"
    if python3 "$ORDERS" compare "$T/pg.expected" "$T/pg-all.cells" "$T/pg-all.summary" >"$T/pg-all.cmp"; then
      echo "ok: pg: direct cells: $(tail -1 "$T/pg-all.cmp" | sed 's/^ok: //')"
    else
      fail "pg: direct cells:"; sed 's/^/  /' "$T/pg-all.cmp" | head -10
    fi
  fi
  # rejects (NULL key column) name the URI without the password
  if build_ok pg-rejects "$T/pg-rejects" --rowkey '{user_id}' --max-rejects 10 "$pwuri?table=orders"; then
    if ! grep -qF "$pwshown?table=orders" "$T/pg-rejects/_rejects.tsv" ||
       grep -qrF "$SECRET" "$T/pg-rejects" "$T/pg-rejects.summary"; then
      fail "pg: rejects file: $(head -2 "$T/pg-rejects/_rejects.tsv")"
    else
      echo "ok: pg: rejects name the URI without its password"
    fi
  fi
  # PGPASSWORD, read by libpq
  if PGPASSWORD=$SECRET build_ok pg-env "$T/pg-env" --rowkey '{id}' --map payload=- "$pwshown?table=orders"; then
    same_files "pg: PGPASSWORD" "$T/pg-dump" "$T/pg-env"
  fi
  # (c) incremental
  pg_sql -c "CREATE TABLE events (id bigserial PRIMARY KEY, v text); INSERT INTO events (v) SELECT 'e' || g FROM generate_series(1, 30) g; GRANT SELECT ON events TO pwuser;" >/dev/null
  pg_more() { pg_sql -c "INSERT INTO events (v) SELECT 'f' || g FROM generate_series(31, 60) g" >/dev/null; }
  incremental pg "$pwuri?table=events" pg_more
  # rows committed while a night's export runs: not in it (one snapshot), in the next night
  if [ -f "$T/pg-inc3/manifest.json" ]; then
    slow="$pwuri?query=SELECT+e.*+FROM+events+e,+(SELECT+pg_sleep(3))+s"
    # insert once the export is inside its statement (its snapshot taken), not on a timer
    ( for i in $(seq 1 100); do
        [ "$(pg_sql -c "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(3)%' AND pid <> pg_backend_pid()")" != 0 ] && break
        sleep 0.1
      done
      pg_sql -c "INSERT INTO events (v) SELECT 'g' || g FROM generate_series(61, 70) g" >/dev/null ) &
    ins=$!
    build_ok pg-inc4 "$T/pg-inc4" --rowkey '{id % 4}|{id}' --incremental append --check-column id \
      --last-value-from "$T/pg-inc3" "$slow"
    wait $ins
    build_ok pg-inc5 "$T/pg-inc5" --rowkey '{id % 4}|{id}' --incremental append --check-column id \
      --last-value-from "$T/pg-inc4" "$slow"
    build_ok pg-full2 "$T/pg-full2" --rowkey '{id % 4}|{id}' "$pwuri?table=events"
    { cells "$T/pg-inc1"; cells "$T/pg-inc2"; cells "$T/pg-inc4"; cells "$T/pg-inc5"; } | LC_ALL=C sort >"$T/pg.union2"
    cells "$T/pg-full2" >"$T/pg.full2"
    r4=$(awk '/records read/ {print $3}' "$T/pg-inc4.summary")
    r5=$(awk '/records read/ {print $3}' "$T/pg-inc5.summary")
    if [ "$r4" != 0 ] || [ "$r5" != 10 ] || ! cmp -s "$T/pg.union2" "$T/pg.full2" ||
       ! grep -q '"last_value": "60"' "$T/pg-inc4/manifest.json"; then
      fail "pg: inserts during an export: night 4 read $r4 (expected 0), night 5 $r5 (expected 10)"
    else
      echo "ok: pg: rows committed during an export go to the next night ($r4 + $r5), union = full load"
    fi
  fi
  others pg-tools "$URI"
  first_nights pg-nights "$base?table=nights" "pg_sql -c"
  rows_named pg-rows "$base" "$base"
  pg_sql -c "CREATE TABLE bigrow (id bigint, v text); INSERT INTO bigrow SELECT g, 'small ' || g FROM generate_series(1, 1000) g; INSERT INTO bigrow VALUES (1001, repeat('x', 70000000)); INSERT INTO bigrow SELECT g, 'small ' || g FROM generate_series(1002, 2000) g; COPY bigrow TO '$O/bigrow.txt'" >/dev/null
  big_row pg-big-row "$base?table=bigrow" "$O/bigrow.txt" 2 --format pg-text --columns id,v
  # bad input
  closed=$(db_free_port)
  must_fail pg-wrong-password "postgresql://pwuser@$PG_HOST:$PG_PORT/$PG_DB?table=orders" \
    "postgresql://pwuser:${SECRET}x@$PG_HOST:$PG_PORT/$PG_DB?table=orders"
  must_fail pg-closed-port "postgresql://pwuser@$PG_HOST:$closed/$PG_DB?table=orders" \
    "postgresql://pwuser:$SECRET@$PG_HOST:$closed/$PG_DB?table=orders"
  must_fail pg-missing-table "$pwshown?table=nosuch" "$pwuri?table=nosuch"
  must_fail pg-missing-column "$pwshown?query=SELECT+nosuch+FROM+orders" "$pwuri?query=SELECT+nosuch+FROM+orders"
  # table= is quoted: a schema and a table whose names need it are read; the wrong case
  # of a lowercase name fails with a hint at PostgreSQL's folding
  pg_sql -c "CREATE SCHEMA \"Shop Two\"; CREATE TABLE \"Shop Two\".\"Mixed Orders\" AS SELECT * FROM orders; GRANT USAGE ON SCHEMA \"Shop Two\" TO pwuser; GRANT SELECT ON \"Shop Two\".\"Mixed Orders\" TO pwuser" >/dev/null
  if build_ok pg-quoted-names "$T/pg-quoted-names" --rowkey '{id}' --map payload=- "$pwuri?table=Shop+Two.Mixed%20Orders"; then
    same_files "pg: ?table=\"Shop Two\".\"Mixed Orders\"" "$T/pg-dump" "$T/pg-quoted-names"
  fi
  must_fail pg-table-case "$pwshown?table=Orders" "$pwuri?table=Orders"
  grep -q "a table created without quotes has a lowercase name" "$T/pg-table-case.err" ||
    fail "pg: ?table=Orders: no hint at the lowercase name: $(cat "$T/pg-table-case.err")"
  must_fail pg-missing-check-column "$pwshown?table=orders" --incremental append \
    --check-column nosuch --last-value 3 "$pwuri?table=orders"
  # the server's notices are not printed by the library (libpq's default printed them)
  pg_sql -c "CREATE FUNCTION noisy(i bigint) RETURNS bigint LANGUAGE plpgsql AS \$\$ BEGIN RAISE WARNING 'row % is noisy', i; RETURN i; END \$\$" >/dev/null
  if build_ok pg-notices "$T/pg-notices" --rowkey '{id}' "$base?query=SELECT+noisy(id)+AS+id,status+FROM+orders"; then
    if grep -q "noisy" "$T/pg-notices.err" "$T/pg-notices.summary"; then
      fail "pg: server notices printed: $(head -2 "$T/pg-notices.err")"
    else
      echo "ok: pg: server notices are not printed"
    fi
  fi
  # SIGTERM while the server is silent before the first row
  pg_slow_active() { pg_sql -c "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(CASE%' AND pid <> pg_backend_pid()"; }
  term_while_silent pg-term-while-silent \
    "$pwuri?query=SELECT+g+AS+id,+pg_sleep(CASE+WHEN+g+%3D+1+THEN+60+ELSE+0+END)::text+AS+v+FROM+generate_series(1,+3)+g" \
    pg_slow_active
  # the server goes away mid-read (last: it stays down)
  pg_active() { pg_sql -c "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()"; }
  pg_crash() { db_run "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1; }
  dies_mid_read pg-server-dies \
    "$pwuri?query=SELECT+g+AS+id,+CASE+WHEN+g+%3D+2000+THEN+pg_sleep(60)::text+ELSE+repeat(%27x%27,+200)+END+AS+v+FROM+generate_series(1,+4000)+g" \
    "$pwshown?query=SELECT" pg_active pg_crash
fi

# ---- MariaDB ----
if ! mariadb_available; then
  skip_loudly "MariaDB direct-read tests: mariadbd/mariadb-install-db not installed (tools/setup.sh installs mariadb-server)"
elif ! mariadb_start; then
  skip_loudly "MariaDB direct-read tests: the server could not be started here"
else
  ran=$((ran + 1))
  python3 "$ORDERS" sql mariadb | mariadb_sql || fail "mariadb: creating the table"
  mariadb --no-defaults --socket="$MY_SOCKET" -u root -e "CREATE USER 'pwuser'@'127.0.0.1' IDENTIFIED BY '$SECRET';
    GRANT SELECT ON $MY_DB.* TO 'pwuser'@'127.0.0.1';" ||
    fail "mariadb: creating the password user"
  mariadb_sql -e "SELECT * FROM orders INTO OUTFILE '$MY_DIR/out/orders.txt'"
  URI="mysql://$MY_USER@$MY_HOST:$MY_PORT/$MY_DB?table=orders"
  pwuri="mysql://pwuser:$SECRET@$MY_HOST:$MY_PORT/$MY_DB"
  pwshown="mysql://pwuser@$MY_HOST:$MY_PORT/$MY_DB"
  # (b) byte-identical to the INTO OUTFILE build, every column (blobs are bytes in both)
  if build_ok my-dump "$T/my-dump" --rowkey '{id}' --format mysql --columns $COLS "$MY_DIR/out/orders.txt" &&
     build_ok my-direct "$T/my-direct" --rowkey '{id}' "$URI"; then
    same_files "mariadb: direct read vs SELECT INTO OUTFILE" "$T/my-dump" "$T/my-direct"
  fi
  if build_ok my-query "$T/my-query" --rowkey '{id}' "$pwuri?query=SELECT+*+FROM+orders"; then
    same_files "mariadb: ?query= with a password" "$T/my-dump" "$T/my-query"
  fi
  if build_ok my-query-semicolon "$T/my-query-semicolon" --rowkey '{id}' "$pwuri?query=SELECT+*+FROM+orders;"; then
    same_files "mariadb: ?query= ending in ';'" "$T/my-dump" "$T/my-query-semicolon"
  fi
  python3 "$ORDERS" expected-sql mariadb | mariadb_sql >"$T/my.expected"
  cells "$T/my-direct" >"$T/my-direct.cells"
  if python3 "$ORDERS" compare "$T/my.expected" "$T/my-direct.cells" "$T/my-direct.summary" >"$T/my.cmp"; then
    echo "ok: mariadb: direct cells: $(tail -1 "$T/my.cmp" | sed 's/^ok: //')"
  else
    fail "mariadb: direct cells:"; sed 's/^/  /' "$T/my.cmp" | head -10
  fi
  if MYSQL_PWD=$SECRET build_ok my-env "$T/my-env" --rowkey '{id}' "$pwshown?table=orders"; then
    same_files "mariadb: MYSQL_PWD" "$T/my-dump" "$T/my-env"
  fi
  if build_ok my-rejects "$T/my-rejects" --rowkey '{user_id}' --max-rejects 10 "$pwuri?table=orders"; then
    if ! grep -qF "$pwshown?table=orders" "$T/my-rejects/_rejects.tsv" ||
       grep -qrF "$SECRET" "$T/my-rejects" "$T/my-rejects.summary"; then
      fail "mariadb: rejects file: $(head -2 "$T/my-rejects/_rejects.tsv")"
    else
      echo "ok: mariadb: rejects name the URI without its password"
    fi
  fi
  mariadb_sql -e "CREATE TABLE events (id BIGINT AUTO_INCREMENT PRIMARY KEY, v TEXT) ENGINE=InnoDB;
    INSERT INTO events (id, v) SELECT seq, CONCAT('e', seq) FROM seq_1_to_30;"
  my_more() { mariadb_sql -e "INSERT INTO events (id, v) SELECT seq, CONCAT('f', seq) FROM seq_31_to_60"; }
  incremental mariadb "$pwuri?table=events" my_more
  others my-tools "$URI"
  first_nights my-nights "$pwuri?table=nights" "mariadb_sql -e"
  rows_named my-rows "$pwuri" "$pwshown"
  mariadb_sql -e "SET GLOBAL max_allowed_packet = 256 * 1024 * 1024"
  mariadb_sql -e "CREATE TABLE bigrow (id BIGINT, v LONGTEXT); INSERT INTO bigrow SELECT seq, CONCAT('small ', seq) FROM seq_1_to_1000; INSERT INTO bigrow VALUES (1001, REPEAT('x', 70000000)); INSERT INTO bigrow SELECT seq, CONCAT('small ', seq) FROM seq_1002_to_2000; SELECT * FROM bigrow INTO OUTFILE '$MY_DIR/out/bigrow.txt'"
  big_row my-big-row "mysql://$MY_USER@$MY_HOST:$MY_PORT/$MY_DB?table=bigrow" "$MY_DIR/out/bigrow.txt" 1 --format mysql --columns id,v
  closed=$(db_free_port)
  must_fail my-wrong-password "$pwshown?table=orders" "mysql://pwuser:${SECRET}x@$MY_HOST:$MY_PORT/$MY_DB?table=orders"
  must_fail my-closed-port "mysql://pwuser@$MY_HOST:$closed/$MY_DB?table=orders" \
    "mysql://pwuser:$SECRET@$MY_HOST:$closed/$MY_DB?table=orders"
  must_fail my-missing-table "$pwshown?table=nosuch" "$pwuri?table=nosuch"
  must_fail my-missing-column "$pwshown?query=SELECT+nosuch+FROM+orders" "$pwuri?query=SELECT+nosuch+FROM+orders"
  must_fail my-missing-check-column "$pwshown?table=orders" --incremental append \
    --check-column nosuch --last-value 3 "$pwuri?table=orders"
  # SIGTERM while the server is silent before the first row (KILL QUERY ends it server-side)
  my_slow_active() { mariadb_sql -e "SELECT count(*) FROM information_schema.processlist WHERE info LIKE '%seq = 1, SLEEP(60)%' AND id <> CONNECTION_ID()"; }
  term_while_silent my-term-while-silent \
    "$pwuri?query=SELECT+seq+AS+id,+IF(seq+%3D+1,+SLEEP(60),+0)+AS+v+FROM+seq_1_to_3" \
    my_slow_active
  # the server goes away mid-read (last: it stays down)
  my_active() { mariadb_sql -e "SELECT count(*) FROM information_schema.processlist WHERE info LIKE '%SLEEP(60)%' AND id <> CONNECTION_ID()"; }
  my_crash() { kill -9 "$(cat "$MY_DIR/mysqld.pid")"; }
  dies_mid_read my-server-dies \
    "$pwuri?query=SELECT+seq+AS+id,+IF(seq+%3D+2000,+SLEEP(60),+REPEAT(%27x%27,+200))+AS+v+FROM+seq_1_to_4000" \
    "$pwshown?query=SELECT" my_active my_crash
fi

# ---- without a server ----
must_fail uri-no-table "postgresql://u@127.0.0.1:1/db" "postgresql://u:$SECRET@127.0.0.1:1/db"
must_fail incremental-on-a-file "--incremental" --incremental append --check-column id "$ORDERS"

if [ $ran -eq 0 ]; then
  skip_loudly "all direct-read tests: no database server could be started"
  exit 77
fi
echo "direct: $fails failure(s)"
[ $fails -eq 0 ]

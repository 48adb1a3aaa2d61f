#!/usr/bin/env bash
# A PostgreSQL table read directly (postgresql:// input, COPY ... TO STDOUT streamed into the
# build) against the two-step path (COPY ... TO a server-side file, the cheapest dump there
# is, then `hfilegen build --format pg-text` on it), side by side on the same table, with a
# check that both outputs are byte-identical. Not part of CI (minutes, GBs of scratch).
#
# usage: bench/db_direct.sh [--size MB] [--reps N] [--build DIR]
#   --size MB    COPY text size of the generated table, default 1024 (about 10 M rows)
#   --reps N     timed repetitions of each path, default 2 (best and median printed)
#   --build DIR  the build directory with hfilegen, default build
# Starts its own throwaway server (tests/db/pg.sh), prints a table and the load average.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
SIZE=1024
REPS=2
BUILD="$SRC/build"
while [ $# -gt 0 ]; do
  case $1 in
    --size) SIZE=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    *) echo "db_direct.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
H="$BUILD/hfilegen"
[ -x "$H" ] || { echo "db_direct.sh: $H not built" >&2; exit 2; }
. "$SRC/tests/db/pg.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/hfg-dbbench.XXXXXX")
cleanup() { pg_stop; rm -rf "$W"; }
trap cleanup EXIT
load0=$(cut -d' ' -f1-3 /proc/loadavg)
pg_start
# ~88 bytes of COPY text per row
ROWS=$(( SIZE * 1000000 / 88 ))
echo "generating $ROWS rows (~$SIZE MB of COPY text)..."
t0=$(date +%s.%N)
pg_sql >/dev/null <<SQL
CREATE UNLOGGED TABLE orders (id bigint, user_id integer, created_at timestamp(3),
  amount numeric(12,2), status text, note text);
INSERT INTO orders SELECT g, (g * 7919) % 100000, timestamp '2024-01-01' + g * interval '37 ms',
  ((g * 31) % 1000000) / 100.0, (ARRAY['paid','open','shipped','returned'])[1 + g % 4],
  'note ' || md5(g::text)
FROM generate_series(1::bigint, $ROWS) g;
ANALYZE orders;
SQL
echo "generated in $(echo "$(date +%s.%N) - $t0" | bc) s"
URI="postgresql://$PG_USER@$PG_HOST:$PG_PORT/$PG_DB?table=orders"
COLS=id,user_id,created_at,amount,status,note
FLAGS=(--rowkey '{id % 16}|{id}' --timestamp 1 --codec lz4 --quiet)
now() { date +%s.%N; }
dump=() build=() direct=()
for r in $(seq 1 "$REPS"); do
  rm -rf "$W/out-dump" "$W/out-direct" "$PG_DIR/out/orders.txt"
  t0=$(now)
  pg_sql -c "COPY orders TO '$PG_DIR/out/orders.txt'" >/dev/null
  t1=$(now)
  "$H" build "${FLAGS[@]}" --out "$W/out-dump" --format pg-text --columns $COLS "$PG_DIR/out/orders.txt"
  t2=$(now)
  "$H" build "${FLAGS[@]}" --out "$W/out-direct" "$URI"
  t3=$(now)
  dump+=("$(echo "$t1 - $t0" | bc)") build+=("$(echo "$t2 - $t1" | bc)") direct+=("$(echo "$t3 - $t2" | bc)")
  bytes=$(stat -c %s "$PG_DIR/out/orders.txt")
  # the same output either way
  for f in $(cd "$W/out-dump" && find . -type f ! -name '_*' | sort); do
    cmp -s "$W/out-dump/$f" "$W/out-direct/$f" || { echo "db_direct.sh: $f differs" >&2; exit 1; }
  done
  rm -f "$PG_DIR/out/orders.txt"
done
stats() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.2f %.2f\n", a[1], a[int((NR+1)/2)]}'; }
read -r db dm < <(stats "${dump[@]}")
read -r bb bm < <(stats "${build[@]}")
read -r xb xm < <(stats "${direct[@]}")
tw=$(printf '%s\n' "${dump[@]}" | paste -d+ - <(printf '%s\n' "${build[@]}") | bc | sort -g | head -1)
tm=$(printf '%s\n' "${dump[@]}" | paste -d+ - <(printf '%s\n' "${build[@]}") | bc | sort -g |
     awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
echo
echo "PostgreSQL $(pg_sql -c 'SHOW server_version'), $ROWS rows, COPY text $(( bytes / 1000000 )) MB, $REPS reps"
echo "machine: $(nproc) cores, load average at the start: $load0, at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-34s %10s %10s\n' "path" "best s" "median s"
printf '%-34s %10s %10s\n' "COPY TO file (dump)" "$db" "$dm"
printf '%-34s %10s %10s\n' "build --format pg-text the dump" "$bb" "$bm"
printf '%-34s %10.2f %10.2f\n' "dump + build" "$tw" "$tm"
printf '%-34s %10s %10s\n' "build postgresql:// (direct)" "$xb" "$xm"
printf '%-34s %10.2f %10.2f\n' "direct / (dump + build)" "$(echo "$xb / $tw" | bc -l)" "$(echo "$xm / $tm" | bc -l)"
echo "outputs byte-identical: yes"

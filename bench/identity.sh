#!/usr/bin/env bash
# Old binary against new: every output byte the same. A change that should not alter a
# single byte (a faster path) is checked here before its time counts: 60 configurations
# (encoding × codec × bloom × threads) on the benchmark's data, then a spilling build, one
# region (no splits), 100 regions (more regions than parallel ingest's buckets), a job with
# empty fields skipped and --on-duplicate last, each at 1 and 2 threads.
#
# usage: bench/identity.sh OLD_HFILEGEN NEW_HFILEGEN [--size 8M] [--work DIR]
# Prints one line per difference and a summary; exit 1 if any output differs or fails.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -ge 2 ] || { sed -n '2,8p' "$0"; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
shift 2
SIZE=8M WORK="${TMPDIR:-/tmp}/hfilegen-identity"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    *) echo "identity.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "identity.sh: --work $WORK would clobber too much" >&2; exit 2 ;;
esac
rm -rf "$WORK"
mkdir -p "$WORK"
gcc -O2 -Wall -Wextra -Werror -o "$WORK/gen_orders" "$ROOT/bench/gen_orders.c"
"$WORK/gen_orders" --size "$SIZE" --csv "$WORK/in.csv" > "$WORK/in.gen"
# a duplicate id, so that --on-duplicate has something to resolve
sed -n '2p' "$WORK/in.csv" >> "$WORK/in.csv"
for i in $(seq 1 99); do echo "$i"; done | LC_ALL=C sort > "$WORK/splits100.txt"

configs=0 differ=0
build() { # build BIN OUT args...
  local bin=$1 out=$2
  shift 2
  "$bin" build --out "$out" --timestamp 1720000000000 --block-size 64k --checksum crc32c \
    --tmp-dir "$WORK" --quiet "$@" "$WORK/in.csv" > "$out.log" 2>&1
}
same() { # same NAME args...: both binaries, outputs compared
  local name=$1
  shift
  configs=$((configs + 1))
  local a="$WORK/old" b="$WORK/new"
  rm -rf "$a" "$b"
  if ! build "$OLD" "$a" "$@" || ! build "$NEW" "$b" "$@"; then
    echo "FAIL  $name: a build failed (see $a.log, $b.log)"
    differ=$((differ + 1))
    return
  fi
  if ! diff -r "$a" "$b" > /dev/null; then
    echo "DIFF  $name"
    differ=$((differ + 1))
  fi
}
salt=(--rowkey '{id % 10}|{id}' --splits "$ROOT/samples/splits/salt10.txt")
for enc in none prefix diff fast_diff row_index_v1; do
  for codec in none gz lz4; do
    for bloom in row rowcol; do
      for t in 1 2; do
        same "encoding $enc codec $codec bloom $bloom threads $t" "${salt[@]}" --encoding "$enc" \
          --codec "$codec" --bloom "$bloom" --threads "$t" --memory 64m --on-duplicate last
      done
    done
  done
done
for t in 1 2; do
  same "spilling (--memory 8m) threads $t" "${salt[@]}" --codec lz4 --bloom row --threads "$t" \
    --memory 8m --on-duplicate first
  same "one region threads $t" --rowkey '{id % 10}|{id}' --codec lz4 --bloom row --threads "$t" \
    --memory 64m --on-duplicate last
  same "100 regions threads $t" --rowkey '{id % 100}|{id}' --splits "$WORK/splits100.txt" \
    --codec lz4 --bloom row --threads "$t" --memory 64m --on-duplicate last
  same "user_id key, fast_diff threads $t" --rowkey '{user_id % 10}|{id}' \
    --splits "$ROOT/samples/splits/salt10.txt" --encoding fast_diff --codec lz4 --bloom rowcol \
    --threads "$t" --memory 64m --ingest-chunk 512k --on-duplicate first
done
echo "$configs configurations, $differ differing or failing ($(grep '^rows=' "$WORK/in.gen"))"
[ "$differ" -eq 0 ]

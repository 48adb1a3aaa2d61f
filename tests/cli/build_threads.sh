#!/usr/bin/env bash
# `hfilegen build --threads N` writes the same bytes whatever N is: block compression runs
# on a pool of N threads (also inside one region), every codec, one region and ten, in
# memory and spilling, rolled files, two families with their own codecs.
# GZ: the default engine (zlib, HBase's bytes) is deterministic, so GZ outputs must be
# byte-identical too. HFG_TEST_GZ_BYTES=0 relaxes that to the same files, blocks (type, size
# before compression) and cells, for runs with the ISA-L engine, which has been seen to encode
# a block two valid ways (format-specs/codecs.md).
#   bash tests/cli/build_threads.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
TS=1720695600000
SPLITS="$SRC/samples/splits/salt10.txt"
python3 "$SRC/tools/make_sample.py" 40000 "$T/in.csv"
python3 "$SRC/tools/make_sample.py" 150000 "$T/big.csv"   # spills under --memory 8m
IN="$T/in.csv"

blocks_of() { "$H" inspect --blocks "$1" | awk '{print $2, $6}'; }
same_blocks_and_cells() { # dir1 dir2
  local f g
  [ "$(cd "$1" && find . -mindepth 2 -type f | sort)" = "$(cd "$2" && find . -mindepth 2 -type f | sort)" ] || return 1
  for f in "$1"/*/*; do
    g="$2/${f#"$1"/}"
    cmp -s <(blocks_of "$f") <(blocks_of "$g") || return 1
    cmp -s <("$H" inspect --cells --tsv "$f") <("$H" inspect --cells --tsv "$g") || return 1
  done
}

# build NAME ARGS...: --threads 1, 2 and 4 into $T/NAME-<threads>; the outputs must be equal
same_at_every_thread_count() {
  local name=$1
  shift
  case " $* " in *" --codec gz "*|*"codec=gz"*) GZ=1 ;; *) GZ=0 ;; esac
  for t in 1 2 4; do
    "$H" build --rowkey '{id % 10}|{id}' --timestamp $TS --tmp-dir "$T" --threads $t \
      --out "$T/$name-$t" "$@" "$IN" > "$T/$name-$t.log" 2>&1 \
      || { bad "$name --threads $t failed: $(tail -2 "$T/$name-$t.log")"; return; }
  done
  "$H" verify --quiet "$T/$name-1" > /dev/null || bad "$name: verify"
  local n
  n=$(find "$T/$name-1" -mindepth 2 -type f | wc -l)
  for t in 2 4; do
    if diff -r "$T/$name-1" "$T/$name-$t" > /dev/null; then ok
    elif [ "$GZ" = 1 ] && [ "${HFG_TEST_GZ_BYTES:-1}" != 1 ] && same_blocks_and_cells "$T/$name-1" "$T/$name-$t"; then
      ok; echo "  $name: --threads $t: same blocks and cells, GZ encodings differ (known igzip issue)"
    else bad "$name: --threads $t differs from --threads 1"; fi
  done
  echo "  $name: $n files, --threads 1 2 4 byte-identical"
}

for c in none gz snappy lz4 zstd-hadoop zstd-hbase; do
  same_at_every_thread_count "one-$c" --codec "$c" --block-size 4k --bloom rowcol
  same_at_every_thread_count "ten-$c" --codec "$c" --block-size 4k --splits "$SPLITS"
done
# spilling (8 MiB budget), the sort merges runs while the pool compresses
IN="$T/big.csv"
for c in lz4 gz; do
  same_at_every_thread_count "spill-one-$c" --codec "$c" --memory 8m
  same_at_every_thread_count "spill-ten-$c" --codec "$c" --memory 8m --splits "$SPLITS"
done
for t in 1 2 4; do
  grep -q "spill runs *[1-9]" "$T/spill-one-lz4-$t.log" && ok || bad "--threads $t: 8 MiB did not spill"
done
IN="$T/in.csv"
# files rolled at --max-file-size: where a file ends must not depend on blocks in flight
same_at_every_thread_count "roll" --codec lz4 --block-size 2k --max-file-size 300k
[ "$(ls "$T/roll-1/cf" | wc -l)" -gt 3 ] && ok || bad "roll: expected several files"
# two families with their own codecs and blooms, small bloom chunks and index blocks
same_at_every_thread_count "families" --map status=f2:status --map note=f2:note \
  --family-option f2:codec=gz --family-option f2:bloom=row --codec zstd-hbase --block-size 1k

echo "build_threads: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

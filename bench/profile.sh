#!/usr/bin/env bash
# Where hfilegen build's work goes, by pipeline stage, as instruction counts (callgrind):
# deterministic, so unlike wall time it is not disturbed by the neighbours of a shared VM.
# Same data and settings as bench/run.sh (rowkey {id % 10}|{id}, 10 regions, ROW bloom,
# 64 KB blocks, CRC32C), a 32 MiB input by default, LZ4 unless --codec says otherwise.
#
# usage: bench/profile.sh [--size 32M] [--codec lz4|gz|none] [--work DIR]
# Needs valgrind. Builds a Release copy without -march=native (valgrind has no AVX-512).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/bench/lib.sh"
SIZE=33554432 CODEC=lz4
WORK="${TMPDIR:-/tmp}/hfilegen-profile"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE=$(bench_bytes "$2"); shift 2 ;;
    --codec) CODEC="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "profile.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for tool in valgrind callgrind_annotate cmake ninja gcc; do
  command -v "$tool" >/dev/null || { echo "profile.sh: $tool not found" >&2; exit 1; }
done
case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "profile.sh: --work $WORK would clobber too much" >&2; exit 2 ;;
esac
BUILD="$ROOT/build-profile"
mkdir -p "$WORK"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  "-DCMAKE_C_FLAGS=-g -Wno-error=maybe-uninitialized -Wno-error=format-truncation" > "$WORK/cmake.log"
ninja -C "$BUILD" hfilegen > "$WORK/ninja.log" 2>&1 || { tail -20 "$WORK/ninja.log"; exit 1; }
gcc -O2 -Wall -Wextra -Werror -o "$WORK/gen_orders" "$ROOT/bench/gen_orders.c"
"$WORK/gen_orders" --size "$SIZE" --csv "$WORK/in.csv" > "$WORK/in.gen"
rm -rf "$WORK/out"
valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out" \
  "$BUILD/hfilegen" build --rowkey '{id % 10}|{id}' --splits "$ROOT/samples/splits/salt10.txt" \
  --out "$WORK/out" --codec "$CODEC" --bloom row --block-size 64k --checksum crc32c \
  --timestamp 1720000000000 --memory 2g --quiet "$WORK/in.csv" 2> "$WORK/valgrind.log"
rows=$(grep '^rows=' "$WORK/in.gen" | cut -d= -f2)
cells=$(grep '^cells=' "$WORK/in.gen" | cut -d= -f2)
callgrind_annotate --threshold=100 --auto=no --inclusive=yes "$WORK/callgrind.out" > "$WORK/inclusive.txt" 2>/dev/null
callgrind_annotate --threshold=100 --auto=no "$WORK/callgrind.out" > "$WORK/self.txt" 2>/dev/null
python3 - "$WORK" "$rows" "$cells" "$CODEC" "$SIZE" <<'PY'
import re, sys
work, rows, cells, codec, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def table(path):
    # keyed by "file.c:function" (two modules have a worker_main); inlined
    # copies listed under a header's name count with their function's own line
    out = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+):(\S+)", line)
        if m and "PROGRAM TOTALS" not in line:
            n = int(m.group(1).replace(",", ""))
            key = m.group(2).rsplit("/", 1)[-1] + ":" + m.group(3)
            out[key] = max(out.get(key, 0), n)
        m = re.match(r"\s*([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", line)
        if m:
            out["TOTAL"] = int(m.group(1).replace(",", ""))
    return out
inc = table(f"{work}/inclusive.txt")
self_ = table(f"{work}/self.txt")
def get(t, *names):
    return sum(t.get(n, 0) for n in names)
total = inc["TOTAL"]
# ingest: the parallel ingest's workers (--threads >= 2), else the one-thread ingest
ingest = get(inc, "build_ingest_par.c:worker_main") or get(inc, "build_ingest.c:hfg_build_ingest")
parse = get(inc, "record_reader.c:hfg_record_reader_next")
rowkey = get(inc, "build_ingest.c:hfg_build_rowkey")
payload = get(inc, "build_ingest.c:hfg_build_payload")
sortadd = get(inc, "build_ingest_par.c:add_keyed") or get(inc, "sorter.c:hfg_sorter_add")
psort = get(inc, "sorter.c:hfg_sorter_part_sort")
merge = get(inc, "sorter.c:hfg_sort_iter_next")
bloom = get(inc, "bloom.c:hfg_bloom_writer_add")
compress = get(inc, "codec_block.c:hfg_block_compress")
crc = get(inc, "crc.c:hfg_crc32c", "crc.c:hfg_crc32c_patch")
# emit: the region threads and the block pool's; compression runs on both
emit = get(inc, "build_emit.c:emit_worker", "block_pool.c:worker_main")
if ingest and parse + rowkey + payload + sortadd + psort > ingest:
    sys.exit("profile.sh: the ingest stages exceed ingest: the function names changed")
stages = [
    ("parse the CSV (ingest workers)", parse),
    ("rowkey template", rowkey),
    ("payload (cell values, timestamp)", payload),
    ("into the sorter parts (handed over whole, or copied)", sortadd),
    ("rest of ingest: region, parts, hand-off", ingest - parse - rowkey - payload - sortadd - psort),
    ("sort (radix, per sorter part)", psort),
    ("merge of the sorted parts (emit threads)", merge),
    ("cells into blocks, index, order checks (emit)", emit - compress - crc - bloom - merge),
    ("ROW bloom (emit)", bloom),
    (f"block compression, {codec} (block pool and emit)", compress),
    ("CRC32C checksums", crc),
]
if min(n for _, n in stages) < 0:
    sys.exit("profile.sh: a stage came out negative: the function names changed")
print(f"hfilegen build, {size / 1e6:.1f} MB CSV, {rows:,} rows, {cells:,} cells, codec {codec}: "
      f"{total / 1e6:,.0f} M instructions ({total / rows:,.0f} per row)")
print()
print("| stage | M instructions | share | per row |")
print("|---|---|---|---|")
for name, n in stages:
    print(f"| {name} | {n / 1e6:,.1f} | {100 * n / total:.1f}% | {n / rows:,.0f} |")
rest = total - sum(n for _, n in stages)
print(f"| start-up, publish, other | {rest / 1e6:,.1f} | {100 * rest / total:.1f}% | {rest / rows:,.0f} |")
print()
print("Top functions (self):")
top = sorted(((n, f) for f, n in self_.items() if f != "TOTAL"), reverse=True)[:12]
for n, f in top:
    print(f"  {n / 1e6:9.1f} M  {100 * n / total:5.1f}%  {f}")
PY
echo
echo "callgrind output: $WORK/callgrind.out (callgrind_annotate --inclusive=yes for more)"

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
SIZE=33554432 CODEC=lz4
WORK="${TMPDIR:-/tmp}/hfilegen-profile"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE=$(python3 -c '
import sys
s = sys.argv[1].strip().upper().rstrip("B")
m = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:], 1)
print(int(float(s[:-1] if s[-1:] in "KMG" else s) * m))' "$2"); shift 2 ;;
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
    out = {}
    for line in open(path, errors="replace"):
        m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(\S+:\S+)", line)
        if m and "PROGRAM TOTALS" not in line:
            n = int(m.group(1).replace(",", ""))
            name = m.group(2)
            fn = name.split(":", 1)[1] if ":" in name else name
            out[fn] = max(out.get(fn, 0), n)
        m = re.match(r"\s*([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", line)
        if m:
            out["TOTAL"] = int(m.group(1).replace(",", ""))
    return out
inc = table(f"{work}/inclusive.txt")
self_ = table(f"{work}/self.txt")
def get(t, *names):
    return sum(t.get(n, 0) for n in names)
total = inc["TOTAL"]
compress = get(inc, "hfg_block_compress")
crc = get(inc, "hfg_crc32c")
emit = get(inc, "emit_worker")
bloom = get(inc, "hfg_bloom_writer_add")
parse = get(inc, "reading_thread")
main = get(inc, "hfg_build_run")
scheme = get(inc, "hfg_scheme_eval")
sortadd = get(inc, "hfg_sorter_add")
radix = get(inc, "radix_sort")
iter_ = get(inc, "hfg_sort_iter_next")
stages = [
    ("parse the CSV (reading thread)", parse),
    ("rowkey template (main thread)", scheme),
    ("copy into the sort slabs (main thread)", sortadd),
    ("rest of ingest: payload, region, hand-off (main thread)", main - scheme - sortadd),
    ("sort (radix) and merge iteration (emit threads)", radix + iter_),
    ("cells into blocks, order checks (emit threads)", emit - compress - crc - bloom - radix - iter_),
    ("ROW bloom (emit threads)", bloom),
    (f"block compression, {codec} (emit threads)", compress),
    ("CRC32C checksums (emit threads)", crc),
]
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

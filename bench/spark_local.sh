#!/usr/bin/env bash
# hfilegen.spark in Spark local mode vs `hfilegen build` on the same slice of the bench's
# orders data and settings as bench/run.sh's same-slice runs (rowkey {id % 10}|{id}, 10
# regions, ROW bloom, 64 KB blocks, one codec): wall time, rows/s, rows/s per core (rows/s
# over the machine's cores, which both use), and
# Spark's own overhead (Spark wall minus the C work the tasks do, measured by
# hfilegen.driver.run_local: the same pieces in one process), the load average before and
# after. Outputs are compared byte for byte. Writes bench/results/spark-local.md.
#   bench/spark_local.sh [--slice 64M] [--codec lz4] [--master local[2]] [--work DIR]
# ImportTsv on the same slice: bench/run.sh (not re-run here; see the README).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SLICE=64M CODEC=lz4 MASTER='local[2]' WORK="${TMPDIR:-/tmp}/hfilegen-bench-spark"
while [ $# -gt 0 ]; do
  case "$1" in
    --slice) SLICE=$2; shift 2 ;;
    --codec) CODEC=$2; shift 2 ;;
    --master) MASTER=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    *) echo "spark_local.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
cd "$ROOT"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHFG_INTEROP=OFF >/dev/null
ninja -C build >/dev/null
tools/setup-python.sh
mkdir -p "$WORK"
gcc -O2 -o "$WORK/gen_orders" bench/gen_orders.c
size_b=$(python3 -c "s='$SLICE'.upper();m={'K':1<<10,'M':1<<20,'G':1<<30};print(int(float(s[:-1])*m[s[-1]]) if s[-1] in m else int(s))")
[ -f "$WORK/slice-$size_b.csv" ] || "$WORK/gen_orders" --size "$size_b" --csv "$WORK/slice-$size_b.csv" \
  --tsv /dev/null > /dev/null
in="$WORK/slice-$size_b.csv"
rows=$(($(wc -l < "$in") - 1))
splits="$WORK/splits10.txt"; printf '%s\n' 1 2 3 4 5 6 7 8 9 > "$splits"
args=(--rowkey '{id % 10}|{id}' --splits "$splits" --codec "$CODEC" --bloom row --block-size 64k
      --checksum crc32c --timestamp 1700000000000 --memory 1g "$in")
export HFILEGEN_LIB=$ROOT/build/libhfilegen.so PYTHONPATH=$ROOT/python
py=$ROOT/.venv/bin/python
timed() { # cmd... -> wall seconds
  /usr/bin/time -f '%e' -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/err.log" ||
    { tail -20 "$WORK/err.log" >&2; exit 1; }
  tail -1 "$WORK/time.txt"
}
cores=$(nproc)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
rm -rf "$WORK/out-build" "$WORK/out-spark" "$WORK/out-local"
bw=$(timed build/hfilegen build "${args[@]}" --out "$WORK/out-build" -q)
lw=$(timed "$py" -c "import sys; from hfilegen.driver import run_local; run_local(sys.argv[1:])" "${args[@]}" --out "$WORK/out-local")
sw=$(timed "$py" -m hfilegen.spark --master "$MASTER" "${args[@]}" --out "$WORK/out-spark")
load1=$(cut -d' ' -f1-3 /proc/loadavg)
same=identical
diff -r "$WORK/out-build" "$WORK/out-spark" >/dev/null || same=DIFFERENT
diff -r "$WORK/out-build" "$WORK/out-local" >/dev/null || same="$same (local: DIFFERENT)"
mkdir -p bench/results
f() { python3 -c "import sys; print('%.0f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$@"; }
{
  echo "# hfilegen.spark ($MASTER) vs hfilegen build, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Slice: $SLICE of the bench's orders CSV ($rows rows), $CODEC, ROW bloom, 64 KB blocks,"
  echo "10 regions; $(nproc) cores; load average $load0 before, $load1 after. Outputs: $same."
  echo
  echo "| | wall s | rows/s | rows/s per core ($cores cores) |"
  echo "|---|---|---|---|"
  echo "| hfilegen build | $bw | $(f $rows $bw) | $(f $rows $(echo "$bw * $cores" | bc)) |"
  echo "| the bindings' pieces in one process (run_local) | $lw | $(f $rows $lw) | $(f $rows $(echo "$lw * $cores" | bc)) |"
  echo "| hfilegen.spark $MASTER | $sw | $(f $rows $sw) | $(f $rows $(echo "$sw * $cores" | bc)) |"
  echo
  echo "Spark's own overhead: $(python3 -c "print('%.1f' % ($sw - $lw))") s of wall time over the same C work in one process (JVM and session start-up, Arrow transfer to and from the Python workers, the shuffle and sort)."
} > bench/results/spark-local.md
cat bench/results/spark-local.md

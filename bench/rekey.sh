#!/usr/bin/env bash
# hfilegen rekey against the MapReduce way (TableSnapshotInputFormat -> re-keying mapper ->
# HFileOutputFormat2, LocalJobRunner) on one snapshot that a real HBase made, side by side.
# Writes bench/results/rekey.md (the table) and rekey-runs.tsv. See bench/README.md.
#
# usage: bench/rekey.sh [--size 1200M] [--quick] [--reps N] [--mr-reps N] [--memory 4g]
#                       [--no-compact] [--work DIR] [--keep] [--results DIR]
#   --size        CSV bytes of the old table's rows (default 1200M: a ~1 GB LZ4 snapshot)
#   --quick       --size 64M --reps 1 (a 2-3 minute smoke run)
#   --reps        repetitions of hfilegen rekey (default 3); --mr-reps: of the MapReduce job (1)
#   --memory      hfilegen rekey's --memory (default 4g: the re-keyed cells fit; the JVM's
#                 default heap here is a quarter of RAM, ~6 GB)
#   --no-compact  leave the bulk-loaded files as they are (hfilegen's) instead of having the
#                 region server major-compact them into files HBase wrote
#   --work        scratch directory (default ${TMPDIR:-/tmp}/hfilegen-bench-rekey); removed
#                 at the end unless --keep
#   --results     where rekey.md and rekey-runs.tsv go (default bench/results)
# Not part of CI: it needs minutes and a few GB of scratch space.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/bench/lib.sh"
BENCH="$ROOT/bench"
SIZE="" REPS="" MR_REPS=1 QUICK=0 KEEP=0 COMPACT=true MEMORY=4g
WORK="${TMPDIR:-/tmp}/hfilegen-bench-rekey"
RESULTS="$BENCH/results"
CMDLINE="bench/rekey.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --mr-reps) MR_REPS="$2"; shift 2 ;;
    --memory) MEMORY="$2"; shift 2 ;;
    --no-compact) COMPACT=false; shift ;;
    --work) WORK="$2"; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --keep) KEEP=1; shift ;;
    --results) RESULTS="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "rekey.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$QUICK" = 1 ]; then SIZE="${SIZE:-64M}" REPS="${REPS:-1}"; fi
SIZE="${SIZE:-1200M}" REPS="${REPS:-3}"
SIZE_B=$(bench_bytes "$SIZE")

TS=1720000000000                 # the old cells' timestamp (hfilegen build --timestamp)
REGION=3                         # the new region whose cells are compared one by one
SNAPSHOT=orders_s1
OLD_KEY='{id}' NEW_KEY='{id % 10}|{id}'
SPLITS="$ROOT/samples/splits/salt10.txt"   # the new table: 10 regions split at 1..9
BUILD="$ROOT/build-bench"
HFG="$BUILD/hfilegen"
IROOT="$ROOT/tests/interop"
ICP_FILE="$IROOT/target/hbase-2.6/classpath.txt"
BIN="$WORK/bin" DATA="$WORK/data" OUT="$WORK/out" LOGS="$WORK/logs" CLUSTER="$WORK/cluster"
RUNS="$WORK/runs.txt"
T_START=$(date +%s.%N)

case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "rekey.sh: --work $WORK would clobber too much; give a scratch directory" >&2; exit 2 ;;
esac
mkdir -p "$WORK"
rm -rf "$BIN" "$DATA" "$OUT" "$LOGS" "$CLUSTER" "$RUNS" "$WORK/restore" "$WORK/hadoop-tmp" "$WORK/staging"
mkdir -p "$BIN" "$DATA" "$OUT" "$LOGS" "$RESULTS"
: > "$RUNS"

stage() { printf '== [%s] %s\n' "$(python3 -c "import time,sys; s=time.time()-float(sys.argv[1]); print('%d:%02d' % (s // 60, s % 60))" "$T_START")" "$*"; }
now() { date +%s.%N; }
rec() { echo "$*" >> "$RUNS"; }
fail() { echo "rekey.sh: FAILED: $*" >&2; exit 1; }
timed() { # id cmd... : runs under /usr/bin/time -v, logs to $LOGS/<id>.{out,err,time}; prints wall s
  local id="$1"; shift
  local t0 t1
  t0=$(now)
  /usr/bin/time -v -o "$LOGS/$id.time" "$@" > "$LOGS/$id.out" 2> "$LOGS/$id.err" \
    || { echo "rekey.sh: '$*' failed; see $LOGS/$id.err" >&2; tail -5 "$LOGS/$id.err" >&2; exit 1; }
  t1=$(now)
  python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1"
}
cpu_of() { # time-file -> user+sys seconds
  awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {printf "%.2f\n", u + s}' "$1"
}
rss_of() { awk -F': ' '/Maximum resident/ {printf "%.0f\n", $2 / 1024}' "$1"; }
out_bytes() { find "$1" -path '*/cf/*' -type f ! -name '.*' -printf '%s\n' | awk '{s += $1} END {printf "%.0f\n", s}'; }
kv() { grep "^$2=" "$1" | tail -1 | cut -d= -f2-; } # file key

# ---------------------------------------------------------------------------------------------
stage "build: hfilegen (Release, -march=native), the Java peer, the snapshot generator"
for tool in cmake ninja gcc java javac mvn python3; do
  command -v "$tool" >/dev/null || fail "$tool not found (run tools/setup.sh first)"
done
[ -x /usr/bin/time ] || fail "/usr/bin/time not found (apt-get install time)"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHFG_NATIVE=ON \
  "-DCMAKE_C_FLAGS=-Wno-error=maybe-uninitialized -Wno-error=format-truncation" > "$LOGS/cmake.log"
ninja -C "$BUILD" hfilegen > "$LOGS/ninja.log" 2>&1 || { tail -20 "$LOGS/ninja.log"; fail "hfilegen build"; }
gcc -O2 -march=native -Wall -Wextra -Werror -o "$BIN/gen_orders" "$BENCH/gen_orders.c"
( cd "$BENCH/java" && { mvn -q -o compile > "$LOGS/mvn.log" 2>&1 || mvn -q compile >> "$LOGS/mvn.log" 2>&1; } ) \
  || { tail -20 "$LOGS/mvn.log"; fail "Maven build of bench/java"; }
CP="$BENCH/java/target/classes:$(cat "$BENCH/java/target/classpath.txt")"
# The generator needs a mini cluster: it compiles against the interop harness's classpath
# (tests/interop/pom.xml, profile hbase2.6: HBase 2.6.4-hadoop3 on Hadoop 3.4.2, as bench/java).
mkdir -p "$IROOT/target/hbase-2.6"
( cd "$IROOT" && mvn -q -B -Phbase2.6 compile dependency:build-classpath "-Dmdep.outputFile=$ICP_FILE" \
    > "$LOGS/mvn-interop.log" 2>&1 ) || { tail -20 "$LOGS/mvn-interop.log"; fail "Maven build of tests/interop"; }
mkdir -p "$BIN/gen-classes"
javac -d "$BIN/gen-classes" -cp "$(cat "$ICP_FILE")" "$BENCH/java/src/gen/java/hfilegen/bench/SnapshotGen.java" \
  > "$LOGS/javac.log" 2>&1 || { cat "$LOGS/javac.log"; fail "javac SnapshotGen"; }
GEN_CP="$BIN/gen-classes:$IROOT/target/hbase-2.6/classes:$(cat "$ICP_FILE")"
JAVA_OPTS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports java.base/sun.net.dns=ALL-UNNAMED --add-exports java.base/sun.net.util=ALL-UNNAMED
)

{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "nproc=$(nproc)"
  echo "mem_total=$(free -b | awk '/^Mem:/ {print $2}')"
  echo "kernel=$(uname -r)"
  echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "java=$(java -version 2>&1 | head -1 | sed 's/"//g')"
  echo "git=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo none)"
  echo "git_dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -c . || true)"
  echo "cmdline=$CMDLINE"
  echo "size=$SIZE_B"
  echo "reps=$REPS"
  echo "mr_reps=$MR_REPS"
  echo "memory=$MEMORY"
  echo "compact=$COMPACT"
  echo "uptime_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$WORK/meta.txt"

# ---------------------------------------------------------------------------------------------
stage "old table: $SIZE_B bytes of orders rows keyed by the decimal id, 4 regions, snapshot $SNAPSHOT"
"$BIN/gen_orders" --size "$SIZE_B" --csv "$DATA/orders.csv" > "$DATA/orders.gen"
ROWS=$(kv "$DATA/orders.gen" rows); CELLS=$(kv "$DATA/orders.gen" cells)
echo "  $ROWS rows, $CELLS cells"
# the old table's regions: decimal ids as text sort by their leading digits
printf '3\n5\n7\n' > "$DATA/old-splits.txt"
"$HFG" build --rowkey "$OLD_KEY" --splits "$DATA/old-splits.txt" --out "$DATA/old-hfiles" --codec lz4 \
  --bloom row --block-size 64k --timestamp "$TS" --memory 4g --quiet "$DATA/orders.csv" \
  > "$LOGS/old-build.log" 2>&1 || { tail "$LOGS/old-build.log"; fail "hfilegen build of the old table"; }
rm -f "$DATA/orders.csv"
t0=$(now)
java "${JAVA_OPTS[@]}" -cp "$GEN_CP" hfilegen.bench.SnapshotGen --base "$CLUSTER" \
  --hfiles "$DATA/old-hfiles" --splits "$DATA/old-splits.txt" --snapshot "$SNAPSHOT" \
  --compact "$COMPACT" > "$LOGS/snapshotgen.out" 2> "$LOGS/snapshotgen.err" \
  || { cat "$LOGS/snapshotgen.out"; tail -20 "$LOGS/snapshotgen.err"; fail "SnapshotGen (log: $LOGS/snapshotgen.err)"; }
HROOT=$(kv "$LOGS/snapshotgen.out" root)
[ -d "$HROOT/.hbase-snapshot/$SNAPSHOT" ] || fail "no snapshot $SNAPSHOT under $HROOT"
SNAP_BYTES=$(kv "$LOGS/snapshotgen.out" store_bytes)
SNAP_FILES=$(kv "$LOGS/snapshotgen.out" store_files)
printf '  %s: %s store files, %s bytes, %s regions (cluster start %ss, bulk load %ss, major compaction %ss, snapshot %ss; %.0fs in all)\n' \
  "$HROOT" "$SNAP_FILES" "$SNAP_BYTES" "$(kv "$LOGS/snapshotgen.out" regions)" \
  "$(kv "$LOGS/snapshotgen.out" start_seconds)" "$(kv "$LOGS/snapshotgen.out" load_seconds)" \
  "$(kv "$LOGS/snapshotgen.out" compact_seconds)" "$(kv "$LOGS/snapshotgen.out" snapshot_seconds)" \
  "$(python3 -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$t0" "$(now)")"
rm -rf "$DATA/old-hfiles"
pgrep -f "hfilegen.bench.SnapshotGen --base $CLUSTER" > /dev/null && fail "the mini cluster is still running"
# Both read from the page cache: the store files once before the first timed run.
find "$HROOT/data" -type f -path '*/cf/*' ! -name '.*' -exec cat {} + > /dev/null

# ---------------------------------------------------------------------------------------------
stage "hfilegen rekey: $REPS reps (--memory $MEMORY)"
for rep in $(seq 1 "$REPS"); do
  id="hfg-$rep"
  rm -rf "$OUT/hfg"
  w=$(timed "$id" "$HFG" rekey --from "$HROOT" --snapshot "$SNAPSHOT" --old-key "$OLD_KEY" \
        --rowkey "$NEW_KEY" --splits "$SPLITS" --out "$OUT/hfg" --memory "$MEMORY")
  rec "id=$id tool=hfilegen rep=$rep wall=$w cpu=$(cpu_of "$LOGS/$id.time") rss=$(rss_of "$LOGS/$id.time") outbytes=$(out_bytes "$OUT/hfg")"
  echo "  $id: ${w}s wall, $(cpu_of "$LOGS/$id.time") CPU s"
done

stage "MapReduce: TableSnapshotInputFormat -> re-keying mapper -> HFileOutputFormat2 (LocalJobRunner, 2+2 slots): $MR_REPS rep(s)"
for rep in $(seq 1 "$MR_REPS"); do
  id="mr-$rep"
  rm -rf "$OUT/mr" "$WORK/restore" "$WORK/hadoop-tmp" "$WORK/staging"
  w=$(cd "$WORK" && timed "$id" java "${JAVA_OPTS[@]}" -Dhadoop.tmp.dir="$WORK/hadoop-tmp" -cp "$CP" \
        hfilegen.bench.RekeySnapshotMR --root "$HROOT" --snapshot "$SNAPSHOT" --restore "$WORK/restore" \
        --output "$OUT/mr" --splits "$SPLITS" --tmp "$WORK/staging" --parallel 2)
  rec "id=$id tool=mapreduce rep=$rep wall=$w cpu=$(cpu_of "$LOGS/$id.time") rss=$(rss_of "$LOGS/$id.time") outbytes=$(out_bytes "$OUT/mr") job=$(kv "$LOGS/$id.out" mr_seconds)"
  echo "  $id: ${w}s wall ($(kv "$LOGS/$id.out" mr_seconds)s the job alone), $(cpu_of "$LOGS/$id.time") CPU s"
done
rm -rf "$WORK/restore" "$WORK/hadoop-tmp"

# ---------------------------------------------------------------------------------------------
stage "checks: verify both outputs, cell counts per region, region $REGION cell for cell"
for t in hfg mr; do
  "$HFG" verify --splits "$SPLITS" "$OUT/$t" > "$LOGS/verify-$t.txt" || fail "hfilegen verify of $t's output (see $LOGS/verify-$t.txt)"
  # "region cells files" per region
  sed -nE 's/^OK [^ ]+: ([0-9]+) cells.*, region ([0-9]+) .*/\2 \1/p' "$LOGS/verify-$t.txt" \
    | awk '{n[$1] += $2; f[$1]++} END {for (r in n) print r, n[r], f[r]}' | sort -n > "$LOGS/regions-$t.txt"
  n=$(awk '{s += $2} END {printf "%.0f\n", s}' "$LOGS/regions-$t.txt")
  [ "$n" = "$CELLS" ] || fail "$t wrote $n cells, the old table holds $CELLS"
done
[ "$(kv "$LOGS/mr-1.out" cells)" = "$CELLS" ] || fail "the mapper read $(kv "$LOGS/mr-1.out" cells) cells, the old table holds $CELLS"
[ "$(kv "$LOGS/mr-1.out" old_rows)" = "$ROWS" ] || fail "the mapper read $(kv "$LOGS/mr-1.out" old_rows) rows, the old table holds $ROWS"
cmp -s "$LOGS/regions-hfg.txt" "$LOGS/regions-mr.txt" \
  || { paste "$LOGS/regions-hfg.txt" "$LOGS/regions-mr.txt"; fail "cells (or files) per region differ"; }
[ "$(wc -l < "$LOGS/regions-hfg.txt")" = 10 ] || fail "not all 10 regions hold cells"
awk '$3 != 1 {exit 1}' "$LOGS/regions-hfg.txt" || fail "a region holds more than one file (the cell-for-cell check compares one file a region)"
region_file() { # verify-log region -> its one HFile in that region
  awk -v r="$2" '/^OK / && $0 ~ ("region " r " ") {f = $2; sub(/:$/, "", f); print f; exit}' "$1"
}
a=$(region_file "$LOGS/verify-hfg.txt" "$REGION"); b=$(region_file "$LOGS/verify-mr.txt" "$REGION")
[ -n "$a" ] && [ -n "$b" ] || fail "no region $REGION file"
"$HFG" inspect --cells --tsv "$a" | md5sum | cut -d' ' -f1 > "$LOGS/md5-hfg.txt" &
"$HFG" inspect --cells --tsv "$b" | md5sum | cut -d' ' -f1 > "$LOGS/md5-mr.txt"
wait
[ "$(wc -c < "$LOGS/md5-hfg.txt")" = 33 ] && cmp -s "$LOGS/md5-hfg.txt" "$LOGS/md5-mr.txt" \
  || fail "region $REGION: hfilegen's and MapReduce's cells differ ($a, $b)"
REGION_CELLS=$(awk -v r="$REGION" '$1 == r {print $2}' "$LOGS/regions-hfg.txt")
echo "  both outputs: verify PASS, $CELLS cells ($ROWS rows), the same cell count in each of the 10 regions (one file each); region $REGION's $REGION_CELLS cells identical (md5 of the cell dump $(cat "$LOGS/md5-hfg.txt"))"
rec "check=cells hfg=$CELLS mr=$CELLS expected=$CELLS region=$REGION region_cells=$REGION_CELLS md5=$(cat "$LOGS/md5-hfg.txt") result=ok"
echo "uptime_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/meta.txt"
echo "elapsed=$(python3 -c "import time,sys; print('%.0f' % (time.time() - float(sys.argv[1])))" "$T_START")" >> "$WORK/meta.txt"
{
  echo "rows=$ROWS"; echo "cells=$CELLS"; echo "snap_bytes=$SNAP_BYTES"; echo "snap_files=$SNAP_FILES"
  echo "region=$REGION"; echo "region_cells=$REGION_CELLS"
  for k in start_seconds load_seconds compact_seconds snapshot_seconds regions; do
    echo "gen_$k=$(kv "$LOGS/snapshotgen.out" "$k")"
  done
} >> "$WORK/meta.txt"

# ---------------------------------------------------------------------------------------------
stage "report"
python3 - "$WORK/meta.txt" "$RUNS" "$RESULTS/rekey.md" "$RESULTS/rekey-runs.tsv" <<'PY'
import statistics, sys
meta = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
runs = [dict(kv.split("=", 1) for kv in l.split()) for l in open(sys.argv[2]) if l.startswith("id=")]
rows, cells = int(meta["rows"]), int(meta["cells"])
def agg(tool):
    rs = [r for r in runs if r["tool"] == tool]
    w = [float(r["wall"]) for r in rs]; c = [float(r["cpu"]) for r in rs]
    return rs, statistics.median(w), min(w), max(w), statistics.median(c), max(int(r["rss"]) for r in rs)
H, M = agg("hfilegen"), agg("mapreduce")
def row(name, a):
    rs, w, lo, hi, c, rss = a
    spread = f" ({lo:.2f}–{hi:.2f})" if len(rs) > 1 else ""
    return (f"| {name} | {len(rs)} | {w:.2f}{spread} | {c:.2f} | {rows / w:,.0f} | "
            f"{rows / c:,.0f} | {rss:,} | {int(rs[0]['outbytes']):,} |")
job = [float(r["job"]) for r in M[0]]
out = []
P = out.append
P(f"# hfilegen rekey vs MapReduce over a snapshot: {meta['date']}")
P("")
P(f"Command: `{meta['cmdline']}` (the whole run took {int(meta['elapsed']) // 60} min "
  f"{int(meta['elapsed']) % 60} s). Machine: {meta['cpu']}, {meta['nproc']} cores, "
  f"{int(meta['mem_total']) / 2**30:.1f} GiB RAM, {meta['os']}, kernel {meta['kernel']}, "
  f"{meta['java']}; hfilegen at git {meta['git']}"
  f"{' (+ ' + meta['git_dirty'] + ' uncommitted files)' if meta['git_dirty'] != '0' else ''}, "
  f"Release build with -march=native. Load average (1, 5, 15 min) {meta['uptime_start']} at "
  f"the start, {meta['uptime_end']} at the end.")
P("")
P(f"Snapshot: table `old` made by HBase 2.6.4 (mini cluster on the local file system): "
  f"{rows:,} rows of `bench/gen_orders` keyed by the decimal id (auto-increment from 1), "
  f"{cells:,} cells in one family `cf` (LZ4, ROW bloom, 64 KB blocks), "
  f"{int(meta['gen_regions'])} regions split at 3, 5, 7, bulk-loaded"
  + (" and major-compacted by the region server, so its " if meta["compact"] == "true"
     else " (not compacted: its ") +
  f"{meta['snap_files']} store files hold {int(meta['snap_bytes']):,} bytes"
  + (", written by HBase" if meta["compact"] == "true" else ", written by hfilegen build") +
  f"). The cluster was stopped before any timed run; both tools read the same store files "
  f"from the page cache. Re-keyed to `{{id % 10}}|{{id}}` for 10 regions split at 1..9, "
  f"the snapshot's family settings kept.")
P("")
P("| tool | runs | wall s (min–max) | CPU s | rows/s (wall) | rows per CPU-s | peak RSS MiB | output bytes |")
P("|---|---|---|---|---|---|---|---|")
P(row(f"hfilegen rekey (--memory {meta['memory']})", H))
P(row("MapReduce: TableSnapshotInputFormat → mapper → HFileOutputFormat2, LocalJobRunner", M))
P("")
P("| ratio | hfilegen | MapReduce | ratio | target |")
P("|---|---|---|---|---|")
P(f"| wall time, whole process | {H[1]:.2f} s | {M[1]:.2f} s | **{M[1] / H[1]:.1f}×** | ≥ 10× (#26) |")
P(f"| wall time, MapReduce job alone (submission to completion: no JVM start-up, no job configuration) | {H[1]:.2f} s | "
  f"{statistics.median(job):.2f} s | {statistics.median(job) / H[1]:.1f}× | |")
P(f"| CPU seconds (user + sys) | {H[4]:.2f} | {M[4]:.2f} | {M[4] / H[4]:.1f}× | |")
P("")
P(f"Checks before the table was written: `hfilegen verify --splits` passed on both outputs; "
  f"both hold {cells:,} cells, the old table's count (the mapper's counters: "
  f"{rows:,} rows read), with the same cell count in each of the 10 regions; region "
  f"{meta['region']}'s {int(meta['region_cells']):,} cells dump (`hfilegen inspect --cells "
  f"--tsv`) to the same bytes from both. Times are whole processes under `/usr/bin/time` "
  f"(medians of the runs; the JVM's start-up and the job's set-up included for MapReduce, "
  f"whose job alone is given too). hfilegen fsyncs its files before publishing them, "
  f"HFileOutputFormat2 does not.")
open(sys.argv[3], "w").write("\n".join(out) + "\n")
with open(sys.argv[4], "w") as f:
    f.write("id\ttool\trep\twall_s\tcpu_s\tpeak_rss_mib\toutput_bytes\tjob_s\n")
    for r in runs:
        f.write("\t".join([r["id"], r["tool"], r["rep"], r["wall"], r["cpu"], r["rss"],
                           r["outbytes"], r.get("job", "")]) + "\n")
print("\n".join(out))
PY

if [ "$KEEP" = 0 ]; then rm -rf "$WORK"; else echo "kept $WORK"; fi

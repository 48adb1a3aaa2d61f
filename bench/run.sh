#!/usr/bin/env bash
# hfilegen side by side with HBase's ImportTsv (bulk output, LocalJobRunner) and HBase's own
# HFile writer on the same data and settings, against this machine's measured limits.
# Writes bench/results/latest.md (the table) and latest.svg/.png (the plot). See bench/README.md.
#
# usage: bench/run.sh [--size 1G] [--quick] [--reps N] [--slice 256M] [--work DIR] [--keep]
#                     [--results DIR]
#   --size     CSV input of the main runs (default 1G); scaling runs use size/16, size/4, size
#              with --memory size/4
#   --quick    smoke test: --size 64M --slice 16M --reps 1 (all stages, tiny sizes)
#   --reps     repetitions of every timed run (default 3; ImportTsv runs once per codec)
#   --slice    input of ImportTsv and of hfilegen's same-slice runs (default min(size, 256M))
#   --work     scratch directory (default ${TMPDIR:-/tmp}/hfilegen-bench); removed unless --keep
#   --results  where latest.md/.svg/.png/-runs.tsv go (default bench/results)
#   --gz-impl  hfilegen's GZ engine for the gz runs: isal (default: igzip level 1, what the
#              limit model's gz probe measures) or zlib (hfilegen's default, HBase's level 6
#              and bytes; needs no ISA-L)
# Not part of CI: it needs minutes and several GB of scratch space.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/bench/lib.sh"
BENCH="$ROOT/bench"
SIZE="" SLICE="" REPS="" QUICK=0 KEEP=0
WORK="${TMPDIR:-/tmp}/hfilegen-bench"
RESULTS="$BENCH/results"
CMDLINE="bench/run.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --slice) SLICE="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --keep) KEEP=1; shift ;;
    --results) RESULTS="$2"; shift 2 ;;
    --gz-impl) GZ_IMPL="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ "$QUICK" = 1 ]; then
  SIZE="${SIZE:-64M}" SLICE="${SLICE:-16M}" REPS="${REPS:-1}"
fi
SIZE="${SIZE:-1G}" REPS="${REPS:-3}"

bytes() { bench_bytes "$1"; } # 1G, 256M, 64k, 1000 -> bytes (binary units)
SIZE_B=$(bytes "$SIZE")
[ -n "$SLICE" ] || SLICE=$(( SIZE_B < 268435456 ? SIZE_B : 268435456 ))
SLICE_B=$(bytes "$SLICE")
[ "$SLICE_B" -le "$SIZE_B" ] || SLICE_B=$SIZE_B
SCALE_MEM_B=$(( SIZE_B / 4 ))
MAIN_MEM_B=$(( SIZE_B * 2 > 268435456 ? SIZE_B * 2 : 268435456 ))   # the input fits

TS=1720000000000                       # one fixed cell timestamp for every tool
REGION=3                               # the region the single-region comparisons use
COLUMNS="HBASE_ROW_KEY,cf:user_id,cf:created_at,cf:amount,cf:status,cf:note"
CODECS=(lz4 gz none)
GZ_IMPL=${GZ_IMPL:-isal}                # --gz-impl: hfilegen's GZ engine in every gz run
ENCODINGS=(fast_diff row_index_v1)     # data block encodings, with lz4 (and none for the probe)
SPLITS="$ROOT/samples/splits/salt10.txt"   # 1..9: ten regions for {id % 10}|{id}
BUILD="$ROOT/build-bench"
HFG="$BUILD/hfilegen"
BIN="$WORK/bin" DATA="$WORK/data" OUT="$WORK/out" LOGS="$WORK/logs"
RUNS="$WORK/runs.txt"
T_START=$(date +%s.%N)

case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "run.sh: --work $WORK would clobber too much; give a scratch directory" >&2; exit 2 ;;
esac
mkdir -p "$WORK"
rm -rf "$BIN" "$DATA" "$OUT" "$LOGS" "$RUNS"
mkdir -p "$BIN" "$DATA" "$OUT" "$LOGS" "$RESULTS"
: > "$RUNS"

stage() { printf '== [%s] %s\n' "$(python3 -c "import time,sys; s=time.time()-float(sys.argv[1]); print('%d:%02d' % (s // 60, s % 60))" "$T_START")" "$*"; }
now() { date +%s.%N; }
rec() { echo "$*" >> "$RUNS"; }
fail() { echo "run.sh: FAILED: $*" >&2; exit 1; }

# Runs a command under /usr/bin/time -v; logs go to $LOGS/<id>.{out,err,time}; prints the wall s.
timed() { # id cmd...
  local id="$1"; shift
  local t0 t1
  t0=$(now)
  /usr/bin/time -v -o "$LOGS/$id.time" "$@" > "$LOGS/$id.out" 2> "$LOGS/$id.err" \
    || { echo "run.sh: '$*' failed; see $LOGS/$id.err" >&2; tail -5 "$LOGS/$id.err" >&2; exit 1; }
  t1=$(now)
  python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$t0" "$t1"
}

# ---------------------------------------------------------------------------------------------
stage "build: hfilegen (Release, -march=native), C probes, Java peers"
for tool in cmake ninja gcc java mvn python3 rsvg-convert pkg-config; do
  command -v "$tool" >/dev/null || fail "$tool not found (run tools/setup.sh first)"
done
[ -x /usr/bin/time ] || fail "/usr/bin/time not found (apt-get install time)"
# -Wno-error=maybe-uninitialized: gcc 12 at -O3 warns on a few library files (see README).
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHFG_NATIVE=ON \
  "-DCMAKE_C_FLAGS=-Wno-error=maybe-uninitialized -Wno-error=format-truncation" > "$LOGS/cmake.log"
ninja -C "$BUILD" hfilegen > "$LOGS/ninja.log" 2>&1 || { tail -20 "$LOGS/ninja.log"; fail "hfilegen build"; }
CFLAGS_B=(-O2 -march=native -Wall -Wextra -Werror)
HFG_LIBS="$(pkg-config --libs liblz4 libzstd libxxhash libprotobuf-c yaml-0.1 zlib) -lsnappy -lpthread -lm"
if pkg-config --exists libisal; then HFG_LIBS="$HFG_LIBS $(pkg-config --libs libisal)"; fi
gcc "${CFLAGS_B[@]}" -o "$BIN/gen_orders" "$BENCH/gen_orders.c"
gcc "${CFLAGS_B[@]}" -o "$BIN/probe_limits" "$BENCH/probe_limits.c" -llz4 -lisal -lz -lpthread
# shellcheck disable=SC2086
gcc "${CFLAGS_B[@]}" -I"$ROOT/include" -o "$BIN/writer_bench" "$BENCH/writer_bench.c" \
  "$BUILD/libhfilegen.a" $HFG_LIBS
( cd "$BENCH/java" && { mvn -q -o compile > "$LOGS/mvn.log" 2>&1 || mvn -q compile >> "$LOGS/mvn.log" 2>&1; } ) \
  || { tail -20 "$LOGS/mvn.log"; fail "Maven build of bench/java"; }
CP="$BENCH/java/target/classes:$(cat "$BENCH/java/target/classpath.txt")"
# JDK 17 flags HBase needs for its Unsafe/netty paths (as tests/interop/run.sh passes them).
JAVA_OPTS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
)

# ---------------------------------------------------------------------------------------------
stage "machine"
{
  echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  echo "cpu_flags_avx512=$(grep -qm1 avx512f /proc/cpuinfo && echo yes || echo no)"
  echo "nproc=$(nproc)"
  echo "mem_total=$(free -b | awk '/^Mem:/ {print $2}')"
  echo "mem_available=$(free -b | awk '/^Mem:/ {print $7}')"
  echo "kernel=$(uname -r)"
  echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "gcc=$(gcc -dumpfullversion)"
  echo "java=$(java -version 2>&1 | head -1 | sed 's/"//g')"
  echo "git=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo none)"
  echo "git_dirty=$(git -C "$ROOT" status --porcelain 2>/dev/null | grep -c . || true)"
  echo "cmdline=$CMDLINE"
  echo "size=$SIZE_B"
  echo "slice=$SLICE_B"
  echo "reps=$REPS"
  echo "main_memory=$MAIN_MEM_B"
  echo "scale_memory=$SCALE_MEM_B"
  echo "region=$REGION"
  echo "timestamp=$TS"
  echo "uptime_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$WORK/meta.txt"
cat "$WORK/meta.txt"

# ---------------------------------------------------------------------------------------------
stage "data: $SIZE_B bytes of CSV (+ the same rows as ImportTsv TSV), slices"
"$BIN/gen_orders" --size "$SIZE_B" --csv "$DATA/main.csv" --tsv "$DATA/main.tsv" > "$DATA/main.gen"
"$BIN/gen_orders" --size "$SLICE_B" --csv "$DATA/slice.csv" --tsv "$DATA/slice.tsv" > "$DATA/slice.gen"
"$BIN/gen_orders" --size $(( SIZE_B / 16 )) --csv "$DATA/s16.csv" > "$DATA/s16.gen"
"$BIN/gen_orders" --size $(( SIZE_B / 4 )) --csv "$DATA/s4.csv" > "$DATA/s4.gen"
grep "^$REGION|" "$DATA/main.tsv" > "$DATA/region.tsv"
gen() { grep "^$2=" "$DATA/$1.gen" | cut -d= -f2; }
sed 's/^/  main: /' "$DATA/main.gen" | tr '\n' ' '; echo
# the slice is a prefix of the main input (same seed): its rows are the main file's first rows
cmp -s -n "$(stat -c %s "$DATA/slice.csv")" "$DATA/slice.csv" "$DATA/main.csv" || fail "slice is not a prefix"

out_bytes() { find "$1" -path '*/cf/*' -type f ! -name '.*' -printf '%s\n' | awk '{s += $1} END {printf "%.0f\n", s}'; }

hfg_build() { # id codec input memory outdir [encoding]
  rm -rf "$5"
  local gz=()
  [ "$2" = gz ] && gz=(--gz-impl "$GZ_IMPL")
  timed "$1" "$HFG" build --rowkey '{id % 10}|{id}' --splits "$SPLITS" --out "$5" --codec "$2" \
    --bloom row --block-size 64k --checksum crc32c --timestamp "$TS" --memory "$4" \
    "${gz[@]}" ${6:+--encoding "$6"} "$3"
}

# ---------------------------------------------------------------------------------------------
stage "hfilegen build: main input, ${CODECS[*]}, $REPS reps (memory $MAIN_MEM_B: fits)"
for rep in $(seq 1 "$REPS"); do
  for c in "${CODECS[@]}"; do
    id="hfg-main-$c-$rep"
    w=$(hfg_build "$id" "$c" "$DATA/main.csv" "$MAIN_MEM_B" "$OUT/hfg-main-$c")
    rec "id=$id tool=hfilegen set=main codec=$c rep=$rep wall=$w input=$(stat -c %s "$DATA/main.csv") outbytes=$(out_bytes "$OUT/hfg-main-$c") memory=$MAIN_MEM_B"
    echo "  $id: ${w}s"
  done
done

stage "verify hfilegen outputs (checksums, order, index, bloom, regions; cell counts)"
CELLS_MAIN=$(gen main cells)
for c in "${CODECS[@]}"; do
  "$HFG" verify --splits "$SPLITS" "$OUT/hfg-main-$c" > "$LOGS/verify-hfg-main-$c.txt" \
    || fail "hfilegen verify $c (see $LOGS/verify-hfg-main-$c.txt)"
  n=$(awk '/^OK / {s += $3} END {printf "%.0f\n", s}' "$LOGS/verify-hfg-main-$c.txt")
  [ "$n" = "$CELLS_MAIN" ] || fail "hfilegen $c wrote $n cells, the generator made $CELLS_MAIN"
  echo "  hfilegen $c: $n cells = generator's count; verify PASS"
  rec "check=hfg-main-$c cells=$n expected=$CELLS_MAIN result=ok"
done
region_file() { # verify-log region -> the HFile verify placed in that region
  awk -v r="$2" '/^OK / && $0 ~ ("region " r " ") {f = $2; sub(/:$/, "", f); print f; exit}' "$1"
}
dump_md5() { "$HFG" inspect --cells --tsv "$1" | md5sum | cut -d' ' -f1; }
# md5 of each file's cell dump, two at a time (both cores): "md5 file" lines in argument order
dump_md5s() {
  local i=0 f
  mkdir -p "$WORK/md5"
  rm -f "$WORK/md5"/*
  for f in "$@"; do echo "$i $f"; i=$((i + 1)); done \
    | xargs -P 2 -L 1 bash -o pipefail -c \
        'm=$("$0" inspect --cells --tsv "$3" | md5sum | cut -d" " -f1) || m=failed; echo "$m" > "$1/$2"' \
        "$HFG" "$WORK/md5" 2>/dev/null || true
  i=0
  for f in "$@"; do echo "$(cat "$WORK/md5/$i" 2>/dev/null || echo missing) $f"; i=$((i + 1)); done
}
# every file must dump to the reference md5
same_cells() { # what ref_md5 file...
  local what="$1" ref="$2" line; shift 2
  while read -r line; do
    [ "${line%% *}" = "$ref" ] || fail "$what: ${line#* } holds other cells than the reference"
  done < <(dump_md5s "$@")
}
REF_FILE=$(region_file "$LOGS/verify-hfg-main-lz4.txt" "$REGION")
[ -n "$REF_FILE" ] || fail "no region $REGION file in hfilegen's lz4 output"
REF_MD5=$(dump_md5 "$REF_FILE")
same_cells "hfilegen region $REGION" "$REF_MD5" \
  "$(region_file "$LOGS/verify-hfg-main-gz.txt" "$REGION")" \
  "$(region_file "$LOGS/verify-hfg-main-none.txt" "$REGION")"
echo "  region $REGION: lz4, gz, none hold the same cells (md5 of the cell dump $REF_MD5)"

# ---------------------------------------------------------------------------------------------
stage "limits: KeyValue blocks of the NONE output (lz4, igzip, zlib, CRC32C), read, write"
PROBE_MB=$(( SIZE_B >= 536870912 ? 16 : 4 ))
"$BIN/probe_limits" blocks --max-mb "$PROBE_MB" "$OUT"/hfg-main-none/cf/* > "$WORK/probe.txt"
"$BIN/probe_limits" read "$DATA/main.csv" >> "$WORK/probe.txt"
"$BIN/probe_limits" read-direct "$DATA/main.csv" >> "$WORK/probe.txt"
"$BIN/probe_limits" write "$WORK" $(( SIZE_B < 1073741824 ? SIZE_B : 1073741824 )) >> "$WORK/probe.txt"
grep -E '_2t_best|_ratio|kv_bytes|read_cached_best|read_direct_best|write_fdatasync_best' "$WORK/probe.txt" \
  | tr '\n' ' ' | fold -w 110 | sed 's/^/  /'; echo

# ---------------------------------------------------------------------------------------------
stage "HBase's own writer (StoreFileWriter) and hfilegen's writer: region $REGION, sorted, in memory"
WB_ARGS=(--input "$DATA/region.tsv" --columns "$COLUMNS" --timestamp "$TS" --codecs lz4,gz,none
         --reps "$REPS")
w=$(timed writer-java java "${JAVA_OPTS[@]}" -cp "$CP" hfilegen.bench.WriterBench "${WB_ARGS[@]}" \
      --out "$OUT/writer-java")
rec "id=writer-java tool=writer-java wall=$w"
w=$(timed writer-c "$BIN/writer_bench" "${WB_ARGS[@]}" --gz-impl "$GZ_IMPL" --out "$OUT/writer-c")
rec "id=writer-c tool=writer-c wall=$w"
files=()
for t in java c; do
  for c in lz4 gz none; do
    f=$(awk -F'\t' -v c="$c" '$1 == c {p = $9} END {print p}' "$LOGS/writer-$t.out")
    [ -n "$f" ] || fail "writer-$t wrote no $c file"
    files+=("$f")
  done
done
same_cells "writer loops, region $REGION" "$REF_MD5" "${files[@]}"
echo "  HBase's writer and hfilegen's writer, lz4/gz/none: same cells as hfilegen build's region $REGION"
awk -F'\t' 'NR > 1 {printf "  java %s run %s: %.3fs wall, %.3f cpu-s\n", $1, $2, $3, $5}' "$LOGS/writer-java.out"
awk -F'\t' 'NR > 1 {printf "  c    %s run %s: %.3fs wall, %.3f cpu-s\n", $1, $2, $3, $5}' "$LOGS/writer-c.out"

# ---------------------------------------------------------------------------------------------
stage "data block encodings ${ENCODINGS[*]}: hfilegen build (lz4, $REPS reps; none once), writer loops, probes"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for e in "${ENCODINGS[@]}"; do
  for rep in $(seq 1 "$REPS"); do
    id="hfg-enc-$e-lz4-$rep"
    w=$(hfg_build "$id" lz4 "$DATA/main.csv" "$MAIN_MEM_B" "$OUT/hfg-enc-$e-lz4" "$e")
    rec "id=$id tool=hfilegen set=enc codec=lz4 encoding=$e rep=$rep wall=$w input=$(stat -c %s "$DATA/main.csv") outbytes=$(out_bytes "$OUT/hfg-enc-$e-lz4") memory=$MAIN_MEM_B"
    echo "  $id: ${w}s (load $(cut -d' ' -f1 /proc/loadavg))"
  done
  id="hfg-enc-$e-none-1"
  w=$(hfg_build "$id" none "$DATA/main.csv" "$MAIN_MEM_B" "$OUT/hfg-enc-$e-none" "$e")
  rec "id=$id tool=hfilegen set=enc codec=none encoding=$e rep=1 wall=$w input=$(stat -c %s "$DATA/main.csv") outbytes=$(out_bytes "$OUT/hfg-enc-$e-none") memory=$MAIN_MEM_B"
  for c in lz4 none; do
    "$HFG" verify --splits "$SPLITS" "$OUT/hfg-enc-$e-$c" > "$LOGS/verify-hfg-enc-$e-$c.txt" \
      || fail "hfilegen verify $e $c (see $LOGS/verify-hfg-enc-$e-$c.txt)"
    n=$(awk '/^OK / {s += $3} END {printf "%.0f\n", s}' "$LOGS/verify-hfg-enc-$e-$c.txt")
    [ "$n" = "$CELLS_MAIN" ] || fail "hfilegen $e $c wrote $n cells, the generator made $CELLS_MAIN"
  done
  same_cells "hfilegen $e region $REGION" "$REF_MD5" \
    "$(region_file "$LOGS/verify-hfg-enc-$e-lz4.txt" "$REGION")" \
    "$(region_file "$LOGS/verify-hfg-enc-$e-none.txt" "$REGION")"
  # the limit model on the encoded bytes: the codec's input is now the encoded blocks
  "$BIN/probe_limits" blocks --max-mb "$PROBE_MB" "$OUT/hfg-enc-$e-none"/cf/* > "$WORK/probe-$e.txt"
  grep -q '^encoded_blocks=[1-9]' "$WORK/probe-$e.txt" || fail "probe: no $e-encoded blocks"
  for t in java c; do
    if [ "$t" = java ]; then
      w=$(timed "writer-java-$e" java "${JAVA_OPTS[@]}" -cp "$CP" hfilegen.bench.WriterBench \
            "${WB_ARGS[@]/#lz4,gz,none/lz4}" --encoding "$e" --out "$OUT/writer-java-$e")
    else
      w=$(timed "writer-c-$e" "$BIN/writer_bench" "${WB_ARGS[@]/#lz4,gz,none/lz4}" --encoding "$e" \
            --out "$OUT/writer-c-$e")
    fi
    rec "id=writer-$t-$e tool=writer-$t encoding=$e wall=$w"
    f=$(awk -F'\t' '$1 == "lz4" {p = $9} END {print p}' "$LOGS/writer-$t-$e.out")
    [ -n "$f" ] || fail "writer-$t wrote no $e file"
    "$HFG" verify "$f" > "$LOGS/verify-writer-$t-$e.txt" || fail "verify writer-$t $e file $f"
    "$HFG" inspect "$f" | grep -qi "DATA_BLOCK_ENCODING = $e\$" || fail "writer-$t $e: the file's DATA_BLOCK_ENCODING is not $e"
    same_cells "writer-$t $e, region $REGION" "$REF_MD5" "$f"
  done
  echo "  $e: build (lz4, none) and both writer loops verified, region $REGION cells = the NONE build's; $(grep -E '^(kv_bytes|lz4_2t_median_mbs|lz4_ratio)=' "$WORK/probe-$e.txt" | tr '\n' ' ')"
  awk -F'\t' -v e="$e" 'NR > 1 {printf "  java %s+%s run %s: %.3fs wall, %.3f cpu-s\n", e, $1, $2, $3, $5}' "$LOGS/writer-java-$e.out"
  awk -F'\t' -v e="$e" 'NR > 1 {printf "  c    %s+%s run %s: %.3fs wall, %.3f cpu-s\n", e, $1, $2, $3, $5}' "$LOGS/writer-c-$e.out"
done

# ---------------------------------------------------------------------------------------------
stage "ImportTsv bulk output (LocalJobRunner) and hfilegen on the same $SLICE_B-byte slice"
CELLS_SLICE=$(gen slice cells)
for c in "${CODECS[@]}"; do
  id="importtsv-$c"
  rm -rf "$OUT/importtsv-$c" "$WORK/hadoop-tmp"
  w=$(cd "$WORK" && timed "$id" java "${JAVA_OPTS[@]}" -Dhadoop.tmp.dir="$WORK/hadoop-tmp" -cp "$CP" \
        hfilegen.bench.ImportTsvLocal --input "$DATA/slice.tsv" --output "$OUT/importtsv-$c" \
        --codec "$c" --timestamp "$TS" --splits "$SPLITS" --columns "$COLUMNS" --parallel 2)
  rec "id=$id tool=importtsv set=slice codec=$c rep=1 wall=$w input=$(stat -c %s "$DATA/slice.tsv") outbytes=$(out_bytes "$OUT/importtsv-$c")"
  echo "  $id: ${w}s"
  for rep in $(seq 1 "$REPS"); do
    id="hfg-slice-$c-$rep"
    w=$(hfg_build "$id" "$c" "$DATA/slice.csv" "$MAIN_MEM_B" "$OUT/hfg-slice-$c")
    rec "id=$id tool=hfilegen set=slice codec=$c rep=$rep wall=$w input=$(stat -c %s "$DATA/slice.csv") outbytes=$(out_bytes "$OUT/hfg-slice-$c") memory=$MAIN_MEM_B"
    echo "  $id: ${w}s"
  done
done
stage "verify: ImportTsv's files against hfilegen's, region by region"
for c in "${CODECS[@]}"; do
  for t in importtsv hfg-slice; do
    "$HFG" verify --splits "$SPLITS" "$OUT/$t-$c" > "$LOGS/verify-$t-$c.txt" \
      || fail "verify $t $c (see $LOGS/verify-$t-$c.txt)"
    n=$(awk '/^OK / {s += $3} END {printf "%.0f\n", s}' "$LOGS/verify-$t-$c.txt")
    [ "$n" = "$CELLS_SLICE" ] || fail "$t $c: $n cells, the generator made $CELLS_SLICE"
  done
  # lz4: every region's cell dump; gz, none: region $REGION (counts and verify cover the rest)
  regions="$REGION"; [ "$c" = lz4 ] && regions="0 1 2 3 4 5 6 7 8 9"
  for r in $regions; do
    a=$(region_file "$LOGS/verify-importtsv-$c.txt" "$r"); b=$(region_file "$LOGS/verify-hfg-slice-$c.txt" "$r")
    [ -n "$a" ] && [ -n "$b" ] || fail "$c: region $r file missing"
    pair=$(dump_md5s "$a" "$b" | cut -d' ' -f1 | sort -u)
    [ "$(echo "$pair" | wc -l)" = 1 ] && [ "${#pair}" = 32 ] \
      || fail "$c region $r: ImportTsv and hfilegen cells differ ($a, $b)"
  done
  echo "  $c: ImportTsv and hfilegen both $CELLS_SLICE cells, verify PASS, same cells in region(s) $regions"
  rec "check=importtsv-$c cells=$n expected=$CELLS_SLICE regions_compared=$(echo "$regions" | wc -w) result=ok"
done

# ---------------------------------------------------------------------------------------------
stage "scaling: --memory $SCALE_MEM_B, inputs 0.25x, 1x, 4x the budget (lz4)"
for rep in $(seq 1 "$REPS"); do
  for s in s16 s4 main; do
    in="$DATA/$s.csv"
    id="hfg-scale-$s-$rep"
    w=$(hfg_build "$id" lz4 "$in" "$SCALE_MEM_B" "$OUT/hfg-scale-$s")
    rec "id=$id tool=hfilegen set=scale codec=lz4 rep=$rep wall=$w input=$(stat -c %s "$in") outbytes=$(out_bytes "$OUT/hfg-scale-$s") memory=$SCALE_MEM_B label=$s"
    echo "  $id: ${w}s"
  done
done
for s in s16 s4 main; do
  "$HFG" verify --splits "$SPLITS" "$OUT/hfg-scale-$s" > "$LOGS/verify-scale-$s.txt" || fail "verify scale $s"
  n=$(awk '/^OK / {s += $3} END {printf "%.0f\n", s}' "$LOGS/verify-scale-$s.txt")
  [ "$n" = "$(gen "$s" cells)" ] || fail "scale $s: $n cells, expected $(gen "$s" cells)"
done
m=$(dump_md5 "$(region_file "$LOGS/verify-scale-main.txt" "$REGION")")
[ "$m" = "$REF_MD5" ] || fail "spilled build: region $REGION cells differ from the in-memory build"
echo "  spilled builds verified; the largest one's region $REGION equals the in-memory build's"

# ---------------------------------------------------------------------------------------------
# The limit model above divides by probe rates taken once, minutes away from the builds; on
# this shared VM the LZ4 rate moves by 1.5x between such moments (340 and 512 MB/s on one
# thread in two runs of one morning). Here each timed build sits between two LZ4 probes on
# the same sample blocks, and its share is taken against the mean of the two.
stage "limit model, paired: an lz4 probe before and after each lz4 build (fits, spills), $REPS reps"
PAIR_FILE=$(find "$OUT/hfg-main-none/cf" -type f ! -name '.*' | LC_ALL=C sort | head -1)
pair_probe() {
  "$BIN/probe_limits" blocks --max-mb "$PROBE_MB" --kinds lz4,crc32c "$PAIR_FILE" \
    > "$WORK/pair-probe-$1.txt" || fail "paired probe $1"
}
np=0
pair_probe "$np"
for rep in $(seq 1 "$REPS"); do
  for case in fits spills; do
    mem=$MAIN_MEM_B; [ "$case" = spills ] && mem=$SCALE_MEM_B
    id="hfg-pair-$case-$rep"
    w=$(hfg_build "$id" lz4 "$DATA/main.csv" "$mem" "$OUT/hfg-pair")
    np=$((np + 1))
    pair_probe "$np"
    "$HFG" verify --splits "$SPLITS" "$OUT/hfg-pair" > "$LOGS/verify-$id.txt" || fail "verify $id"
    n=$(awk '/^OK / {s += $3} END {printf "%.0f\n", s}' "$LOGS/verify-$id.txt")
    [ "$n" = "$CELLS_MAIN" ] || fail "$id: $n cells, expected $CELLS_MAIN"
    rec "id=$id tool=hfilegen set=pair codec=lz4 rep=$rep wall=$w input=$(stat -c %s "$DATA/main.csv") outbytes=$(out_bytes "$OUT/hfg-pair") memory=$mem label=$case probe_before=$((np - 1)) probe_after=$np"
    echo "  $id: ${w}s, verified ($n cells); lz4 2 threads $(sed -n 's/^lz4_2t_median_mbs=//p' "$WORK/pair-probe-$((np - 1)).txt") -> $(sed -n 's/^lz4_2t_median_mbs=//p' "$WORK/pair-probe-$np.txt") MB/s"
  done
done

# ---------------------------------------------------------------------------------------------
echo "uptime_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$WORK/meta.txt"
echo "bench_seconds=$(python3 -c "import time,sys; print('%.0f' % (time.time()-float(sys.argv[1])))" "$T_START")" >> "$WORK/meta.txt"
stage "report"
python3 "$BENCH/report.py" --work "$WORK" --results "$RESULTS"
rsvg-convert -o "$RESULTS/latest.png" "$RESULTS/latest.svg"
echo "  $RESULTS/latest.md, latest.svg, latest.png, latest-runs.tsv"
if [ "$KEEP" = 0 ]; then rm -rf "$DATA" "$OUT" "$WORK/hadoop-tmp"; fi
stage "done"

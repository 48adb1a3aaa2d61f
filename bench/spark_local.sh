#!/usr/bin/env bash
# hfilegen.spark in Spark local mode against its peers on the same slice of the bench's
# orders data and the same settings as bench/run.sh's same-slice runs (rowkey {id % 10}|{id},
# 10 regions, ROW bloom, 64 KB blocks, one codec, CRC32C):
#   hfilegen build                       (the single-machine tool, its threads)
#   the bindings' pieces in one process  (hfilegen.driver.run_local: the C work of the tasks)
#   hfilegen.spark local[2]              (the issue's Spark job)
#   hbase-spark 1.0.1 local[2]           (hbase-connectors' HBaseContext.bulkLoadThinRows,
#                                         bench/hbase-spark/, on the same Spark 3.5 jars)
#   ImportTsv bulk output, LocalJobRunner (bench/java's ImportTsvLocal, 2 reducers at once)
# Wall time of each whole process (JVM and session start-up included), rows/s, rows/s per
# core (rows/s over the machine's cores, which all of them use), the ratio to hbase-spark,
# the load average before and after each run. hfilegen's outputs are compared byte for byte
# and the peers' cell counts with build's. Writes bench/results/spark-local.md.
#   bench/spark_local.sh [--slice 64M] [--codec lz4] [--master local[2]] [--work DIR]
#                        [--no-importtsv] [--no-hbase-spark]
# Needs Java 17 and Maven (hbase-spark 1.0.1 and HBase 2.6 from Maven Central, cached in ~/.m2).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SLICE=64M CODEC=lz4 MASTER='local[2]' WORK="${TMPDIR:-/tmp}/hfilegen-bench-spark"
IMPORTTSV=1 HBSPARK=1
while [ $# -gt 0 ]; do
  case "$1" in
    --slice) SLICE=$2; shift 2 ;;
    --codec) CODEC=$2; shift 2 ;;
    --master) MASTER=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    --no-importtsv) IMPORTTSV=0; shift ;;
    --no-hbase-spark) HBSPARK=0; shift ;;
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
in="$WORK/slice-$size_b.csv" tsv="$WORK/slice-$size_b.tsv"
[ -f "$in" ] && [ -f "$tsv" ] || "$WORK/gen_orders" --size "$size_b" --csv "$in" --tsv "$tsv" > /dev/null
rows=$(($(wc -l < "$in") - 1))
splits="$WORK/splits10.txt"; printf '%s\n' 1 2 3 4 5 6 7 8 9 > "$splits"
TS=1700000000000
COLUMNS="HBASE_ROW_KEY,cf:user_id,cf:created_at,cf:amount,cf:status,cf:note"
args=(--rowkey '{id % 10}|{id}' --splits "$splits" --codec "$CODEC" --bloom row --block-size 64k
      --checksum crc32c --timestamp $TS --memory 1g "$in")
export HFILEGEN_LIB=$ROOT/build/libhfilegen.so PYTHONPATH=$ROOT/python
py=$ROOT/.venv/bin/python
# JDK 17 flags HBase and Spark need (as bench/run.sh passes them)
JAVA_OPTS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/java.lang.invoke=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED
)
if [ $IMPORTTSV = 1 ] || [ $HBSPARK = 1 ]; then
  ( cd bench/java && { mvn -q -o compile > "$WORK/mvn.log" 2>&1 || mvn -q compile >> "$WORK/mvn.log" 2>&1; } ) \
    || { tail -20 "$WORK/mvn.log" >&2; exit 1; }
fi
if [ $HBSPARK = 1 ]; then
  # hbase-spark 1.0.1 on PySpark's own Spark 3.5 jars (Scala 2.12, Hadoop 3.3 client), with
  # HBase 2.6's jars from bench/java minus what Spark brings itself (Hadoop, Jackson, netty,
  # logging, Scala). hbase-spark 1.0.1's Logging asks for an SLF4J 1.x binder, which Spark
  # 3.5 (SLF4J 2) no longer has: slf4j-nop 1.7 answers it (hbase-spark's own log lines go
  # nowhere; Spark's still go to log4j2).
  HBS_JAR=$HOME/.m2/repository/org/apache/hbase/connectors/spark/hbase-spark/1.0.1/hbase-spark-1.0.1.jar
  NOP_JAR=$HOME/.m2/repository/org/slf4j/slf4j-nop/1.7.36/slf4j-nop-1.7.36.jar
  for a in org.apache.hbase.connectors.spark:hbase-spark:1.0.1 org.slf4j:slf4j-nop:1.7.36; do
    j=$HBS_JAR; [[ $a == org.slf4j* ]] && j=$NOP_JAR
    [ -f "$j" ] || mvn -q dependency:get -Dartifact=$a -Dtransitive=false >> "$WORK/mvn.log" 2>&1 \
      || { echo "spark_local.sh: cannot fetch $a (see $WORK/mvn.log)" >&2; exit 1; }
  done
  PJ=$("$py" -c "import pyspark, os; print(os.path.join(os.path.dirname(pyspark.__file__), 'jars'))")
  HCP=$(tr ':' '\n' < bench/java/target/classpath.txt |
        grep -v -e /org/apache/hadoop/ -e jackson -e /log4j -e slf4j -e /io/netty/ -e scala | paste -sd:)
  PEER_CP="$WORK/peer-classes:$PJ/*:$HBS_JAR:$HCP:$NOP_JAR"
  mkdir -p "$WORK/peer-classes"
  javac -nowarn -d "$WORK/peer-classes" -cp "$PEER_CP" bench/hbase-spark/src/hfilegen/bench/*.java
fi
timed() { # out-file cmd... -> wall seconds; the command's stdout in out-file
  local out=$1; shift
  /usr/bin/time -f '%e' -o "$WORK/time.txt" "$@" > "$out" 2>"$WORK/err.log" ||
    { tail -20 "$WORK/err.log" >&2; exit 1; }
  tail -1 "$WORK/time.txt"
}
load() { cut -d' ' -f1-3 /proc/loadavg; }
cores=$(nproc)
declare -A W L
rm -rf "$WORK"/out-*
L[build]=$(load); W[build]=$(timed "$WORK/build.out" build/hfilegen build "${args[@]}" --out "$WORK/out-build" -q)
L[local]=$(load); W[local]=$(timed "$WORK/local.out" "$py" -c "import sys; from hfilegen.driver import run_local; run_local(sys.argv[1:])" "${args[@]}" --out "$WORK/out-local")
L[spark]=$(load); W[spark]=$(timed "$WORK/spark.out" "$py" -m hfilegen.spark --master "$MASTER" "${args[@]}" --out "$WORK/out-spark")
cells=$(python3 -c "import json,sys; print(sum(f['cells'] for f in json.load(open(sys.argv[1]))['files']))" "$WORK/out-build/manifest.json")
peer_check=""
if [ $HBSPARK = 1 ]; then
  L[hbspark]=$(load)
  W[hbspark]=$(timed "$WORK/hbspark.out" java "${JAVA_OPTS[@]}" -cp "$PEER_CP" hfilegen.bench.HBaseSparkBulkLoad \
    --input "$tsv" --output "$WORK/out-hbase-spark" --splits 1,2,3,4,5,6,7,8,9 --codec "$CODEC" \
    --columns "$COLUMNS" --master "$MASTER")
  pc=$(sed -n 's/.*cells=\([0-9]*\).*/\1/p' "$WORK/hbspark.out")
  nf=$(find "$WORK/out-hbase-spark" -type f ! -name '.*' | wc -l)
  peer_check="hbase-spark: $pc cells in $nf HFiles ($( [ "$pc" = "$cells" ] && echo "= build's" || echo "build: $cells, DIFFERENT"))"
fi
if [ $IMPORTTSV = 1 ]; then
  L[importtsv]=$(load)
  W[importtsv]=$(cd "$WORK" && timed "$WORK/importtsv.out" java "${JAVA_OPTS[@]}" -Dhadoop.tmp.dir="$WORK/hadoop-tmp" \
    -cp "$ROOT/bench/java/target/classes:$(cat "$ROOT/bench/java/target/classpath.txt")" \
    hfilegen.bench.ImportTsvLocal --input "$tsv" --output "$WORK/out-importtsv" --codec "$CODEC" \
    --timestamp $TS --splits "$ROOT/samples/splits/salt10.txt" --columns "$COLUMNS" --parallel 2)
fi
load1=$(load)
same=identical
diff -r "$WORK/out-build" "$WORK/out-spark" >/dev/null || same=DIFFERENT
diff -r "$WORK/out-build" "$WORK/out-local" >/dev/null || same="$same (local: DIFFERENT)"
mkdir -p bench/results
f() { python3 -c "import sys; print('{:,.0f}'.format(float(sys.argv[1]) / float(sys.argv[2])))" "$@"; }
row() { # key label
  [ -n "${W[$1]:-}" ] || return 0
  local ratio="—"
  [ -n "${W[hbspark]:-}" ] && ratio=$(python3 -c "print('%.2f×' % (${W[hbspark]} / ${W[$1]}))")
  echo "| $2 | ${W[$1]} | $(f $rows ${W[$1]}) | $(f $rows $(echo "${W[$1]} * $cores" | bc)) | $ratio | ${L[$1]} |"
}
{
  echo "# hfilegen.spark ($MASTER) and its peers, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Slice: $SLICE of the bench's orders CSV ($rows rows; ImportTsv and hbase-spark read the"
  echo "same rows as the bench's TSV, rowkey precomputed), $CODEC, ROW bloom, 64 KB blocks, CRC32C,"
  echo "10 regions; $cores cores; load average at the end $load1. hfilegen outputs: $same."
  [ -n "$peer_check" ] && echo "$peer_check."
  echo
  echo "| | wall s | rows/s | rows/s per core ($cores cores) | speed ÷ hbase-spark | load before |"
  echo "|---|---|---|---|---|---|"
  row build "hfilegen build"
  row local "the bindings' pieces in one process (run_local)"
  row spark "hfilegen.spark $MASTER"
  row hbspark "hbase-spark 1.0.1 bulkLoadThinRows $MASTER"
  row importtsv "HBase ImportTsv bulk output (LocalJobRunner, 2 reducers)"
  echo
  echo "Spark's own overhead in hfilegen.spark: $(python3 -c "print('%.1f' % (${W[spark]} - ${W[local]}))") s of wall time over the same C work in one process (JVM and session start-up, Arrow transfer to and from the Python workers, the shuffle)."
  [ -n "${W[hbspark]:-}" ] && echo "hbase-spark's own timing: $(cat "$WORK/hbspark.out") (bulk load; SparkContext start-up)."
  [ -n "${W[importtsv]:-}" ] && echo "ImportTsv's own timing: $(head -1 "$WORK/importtsv.out") (the job, without JVM start-up)."
  true
} > bench/results/spark-local.md
cat bench/results/spark-local.md

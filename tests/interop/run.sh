#!/usr/bin/env bash
# HBase interop checks for hfilegen. See README.md beside this file.
#
#   tests/interop/run.sh [--hbase 2.6|2.5|3.0] [--hfilegen PATH] [--cases DIR] [--work DIR]
#                        [--live-only] [--bulk-only] [--rekey-only] [--nightly-only]
#
# Builds the Java harness with Maven (downloads from Maven Central on first use), then:
#   (a) WriteReference: HBase writes reference HFiles (+ .cells.tsv/.props) into WORK/ref,
#       and WriteBulkCase writes bulk-load self-test cases into WORK/bulk-selftest
#   (b) ReadCheck WORK/ref            - HBase must pass its own files (harness self-test)
#   (s) SelfTest                      - damaged copies of reference files must FAIL ReadCheck
#   (c) ReadCheck CASES/read          - hfilegen-written files, if --cases is given
#   (d) BulkLoadCheck                 - WORK/bulk-selftest/* and CASES/bulk/*, one mini cluster
#   (e) with --hfilegen: for each reference file, `hfilegen verify FILE` and
#       `hfilegen inspect --cells --tsv FILE` diffed against FILE's .cells.tsv
#   (f) with --hfilegen: LiveTableCheck - hfilegen's HBase client (splits/build/verify --table)
#       against a live mini cluster; --live-only runs the build and this step alone
#   (g) with --hfilegen: RekeyCheck - hfilegen rekey of a split table's snapshot, bulk-loaded and
#       compared with TableSnapshotScanner, and of its ExportSnapshot -copy-to target (2.6 only);
#       --rekey-only runs the build and this step alone
#   (h) --nightly-only --cases DIR: NightlyCheck - the nights tests/db/nightly.sh kept in DIR
#       bulk-loaded one by one, each scan compared with the source table (the build and (h) alone)
# --hbase 3.0 (3.0.0-beta-1) runs the reader-side steps only: (a) WriteReference, (b), (s), (c),
# (c2), (e); WriteBulkCase, (d) and (f) print SKIP naming the artifacts the mini cluster lacks.
# Prints one "N passed, M failed" line totalling every check; exits non-zero on any failure.
set -u -o pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
HBASE=2.6
HFILEGEN=""
CASES=""
WORK=""
LIVE_ONLY=0
BULK_ONLY=0
REKEY_ONLY=0
NIGHTLY_ONLY=0

usage() {
  sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --hbase) HBASE="${2:-}"; shift 2 ;;
    --hfilegen) HFILEGEN="${2:-}"; shift 2 ;;
    --cases) CASES="${2:-}"; shift 2 ;;
    --work) WORK="${2:-}"; shift 2 ;;
    --live-only) LIVE_ONLY=1; shift ;;
    --bulk-only) BULK_ONLY=1; shift ;;
    --rekey-only) REKEY_ONLY=1; shift ;;
    --nightly-only) NIGHTLY_ONLY=1; shift ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown argument $1" >&2; usage ;;
  esac
done
case "$HBASE" in
  2.6|2.5) ;;
  3.0) ;;
  *) echo "run.sh: --hbase must be 2.6, 2.5 or 3.0" >&2; exit 2 ;;
esac
# HBase 3.0.0-beta-1: the mini cluster's modules are not served by the Maven Central reachable
# here (retried 2026-12-01), so the pom's minicluster profile is off and the steps needing it
# are skipped (printed, never counted as passed).
READERS_ONLY=0
MVN_EXTRA=()
if [ "$HBASE" = 3.0 ]; then
  READERS_ONLY=1
  MVN_EXTRA=(-Dharness.readers.only)
  MISSING_30="hbase-http, hbase-procedure, hbase-zookeeper (+tests), hbase-replication, hbase-balancer, hbase-asyncfs (+tests) 3.0.0-beta-1 are not on Maven Central here, and 3.0's HBaseTestingUtil would need a 3.0 variant of the check"
fi
SKIPPED_STEPS=0
skip_step() { # description
  echo "SKIP $1 (HBase $HBASE: $MISSING_30)"
  SKIPPED_STEPS=$((SKIPPED_STEPS + 1))
}

TARGET="$HERE/target/hbase-$HBASE"
WORK="${WORK:-$TARGET/work}"
mkdir -p "$WORK"
WORK="$(cd "$WORK" && pwd)"
LOGS="$WORK/logs"
rm -rf "$WORK/ref" "$WORK/selftest" "$WORK/bulk-selftest" "$WORK/minicluster" "$LOGS" \
  "$WORK/live" "$WORK/minicluster-live"
mkdir -p "$LOGS"

TOTAL_PASS=0
TOTAL_FAIL=0

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

# Adds the "N passed, M failed" line of a step's output to the totals; a step that ends
# without such a line (crash) counts as one failure.
tally() { # output-file exit-code
  local line p f
  line="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)"
  if [ -z "$line" ]; then
    TOTAL_FAIL=$((TOTAL_FAIL + 1))
    echo "FAIL step ended without a summary (exit $2); see $LOGS"
    return
  fi
  p="$(echo "$line" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\1/')"
  f="$(echo "$line" | sed -E 's/^([0-9]+) passed, ([0-9]+) failed.*/\2/')"
  TOTAL_PASS=$((TOTAL_PASS + p))
  TOTAL_FAIL=$((TOTAL_FAIL + f))
  if [ "$f" -eq 0 ] && [ "$2" -ne 0 ]; then
    TOTAL_FAIL=$((TOTAL_FAIL + 1))
    echo "FAIL step exited $2 despite '$line'; see $LOGS"
  fi
}

# --- build -----------------------------------------------------------------------------------
echo "== build: Maven, profile hbase$HBASE (the first run downloads from Maven Central)"
T0="$(now)"
if ! (cd "$HERE" && mvn -q -B "-Phbase$HBASE" ${MVN_EXTRA[@]+"${MVN_EXTRA[@]}"} compile dependency:build-classpath \
      "-Dmdep.outputFile=$TARGET/classpath.txt") > "$LOGS/build.log" 2>&1; then
  tail -n 40 "$LOGS/build.log"
  echo "build failed (full log: $LOGS/build.log)"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "   build: $(elapsed "$T0")"
CP="$TARGET/classes:$(cat "$TARGET/classpath.txt")"

# JDK 17 needs these for HBase/Hadoop internals (as HBase's own bin/hbase passes them).
JAVA_OPTS=(
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  --add-modules jdk.unsupported
  --add-opens java.base/java.io=ALL-UNNAMED
  --add-opens java.base/java.nio=ALL-UNNAMED
  --add-opens java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens java.base/java.lang=ALL-UNNAMED
  --add-opens java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens java.base/java.util=ALL-UNNAMED
  --add-opens java.base/java.util.concurrent=ALL-UNNAMED
  --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.security.jgss/sun.security.krb5=ALL-UNNAMED
  --add-exports java.base/sun.net.dns=ALL-UNNAMED
  --add-exports java.base/sun.net.util=ALL-UNNAMED
)

# Runs a harness main class; stdout is the report, stderr (HBase logs) goes to LOGS/<name>.log.
step() { # name description class args...
  local name="$1" desc="$2" cls="$3"; shift 3
  local t rc
  echo "== $desc"
  t="$(now)"
  java "${JAVA_OPTS[@]}" -Dbulkcheck.dir="$WORK/minicluster" -cp "$CP" "hfilegen.interop.$cls" "$@" \
    2> "$LOGS/$name.log" | tee "$LOGS/$name.out"
  rc=${PIPESTATUS[0]}
  echo "   $name: $(elapsed "$t") (exit $rc; HBase log: $LOGS/$name.log)"
  return "$rc"
}

# (f) hfilegen's HBase client against a live table (its own mini cluster)
live_step() {
  if [ "$READERS_ONLY" -eq 1 ]; then
    skip_step "(f) LiveTableCheck"
  elif [ -n "$HFILEGEN" ] && [ -x "$HFILEGEN" ]; then
    step livetable "(f) LiveTableCheck: hfilegen --table against a live mini cluster" \
      LiveTableCheck "$(cd "$(dirname "$HFILEGEN")" && pwd)/$(basename "$HFILEGEN")" "$WORK/live"
    tally "$LOGS/livetable.out" $?
  elif [ -n "$HFILEGEN" ]; then
    echo "SKIP LiveTableCheck: $HFILEGEN is not an executable file (not built yet?)"
  fi
}
# (g) hfilegen rekey of a snapshot judged by TableSnapshotScanner and a bulk load
rekey_step() {
  if [ "$READERS_ONLY" -eq 1 ]; then
    skip_step "(g) RekeyCheck"
  elif [ -n "$HFILEGEN" ] && [ -x "$HFILEGEN" ]; then
    step rekey "(g) RekeyCheck: hfilegen rekey of a snapshot against TableSnapshotScanner" \
      RekeyCheck "$(cd "$(dirname "$HFILEGEN")" && pwd)/$(basename "$HFILEGEN")" "$WORK/rekey"
    tally "$LOGS/rekey.out" $?
  elif [ -n "$HFILEGEN" ]; then
    echo "SKIP RekeyCheck: $HFILEGEN is not an executable file (not built yet?)"
  fi
}
if [ "$NIGHTLY_ONLY" -eq 1 ]; then # (h) nightly loads (issue #27)
  [ -n "$CASES" ] && [ "$READERS_ONLY" -eq 0 ] ||
    { echo "run.sh: --nightly-only needs --cases DIR and a mini cluster (not --hbase 3.0)" >&2; exit 2; }
  step nightly "(h) NightlyCheck: the nights bulk-loaded one by one, each scan = the source table" \
    NightlyCheck "$CASES"
  tally "$LOGS/nightly.out" $?
  echo "== total (HBase $HBASE)"
  echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
  [ "$TOTAL_FAIL" -eq 0 ]
  exit
fi
if [ "$REKEY_ONLY" -eq 1 ]; then
  rekey_step
  echo "== total (HBase $HBASE)"
  echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
  [ "$TOTAL_FAIL" -eq 0 ]
  exit
fi
if [ "$LIVE_ONLY" -eq 1 ]; then
  live_step
  echo "== total (HBase $HBASE)"
  echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
  [ "$SKIPPED_STEPS" -eq 0 ] || echo "($SKIPPED_STEPS steps skipped, not counted: see SKIP above)"
  [ "$TOTAL_FAIL" -eq 0 ]
  exit
fi

# --bulk-only: the build and BulkLoadCheck of CASES/bulk alone (tests/spark/bulkload.sh)
if [ "$BULK_ONLY" -eq 1 ]; then
  [ -n "$CASES" ] && [ -d "$CASES/bulk" ] || { echo "run.sh: --bulk-only needs --cases DIR with DIR/bulk" >&2; exit 2; }
  [ "$READERS_ONLY" -eq 0 ] || { echo "run.sh: --bulk-only needs a mini cluster (not --hbase 3.0)" >&2; exit 2; }
  BULK_CASES=()
  for d in "$CASES"/bulk/*/; do
    [ -d "$d" ] && BULK_CASES+=("$d")
  done
  step bulkload "(d) BulkLoadCheck (${#BULK_CASES[@]} cases, one mini cluster)" BulkLoadCheck \
    "${BULK_CASES[@]%/}"
  tally "$LOGS/bulkload.out" $?
  echo "== total (HBase $HBASE)"
  echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
  [ "$TOTAL_PASS" -gt 0 ] && [ "$TOTAL_FAIL" -eq 0 ]
  exit
fi

# (a) reference files written by HBase, and bulk-load self-test cases
step write-reference "(a) WriteReference $WORK/ref" WriteReference "$WORK/ref"
RC=$?
RC2=0
if [ "$READERS_ONLY" -eq 1 ]; then
  skip_step "(a) WriteBulkCase (its cases are for BulkLoadCheck)"
else
  step write-bulk-case "(a) WriteBulkCase $WORK/bulk-selftest" WriteBulkCase "$WORK/bulk-selftest"
  RC2=$?
fi
if [ "$RC" -ne 0 ] || [ "$RC2" -ne 0 ]; then
  echo "FAIL writing reference files; cannot go on"
  echo "$TOTAL_PASS passed, $((TOTAL_FAIL + 1)) failed"
  exit 1
fi

# (b) HBase must pass its own files
step readcheck-ref "(b) ReadCheck $WORK/ref" ReadCheck "$WORK/ref"
tally "$LOGS/readcheck-ref.out" $?

# (s) the harness must fail damaged files
step selftest "(s) SelfTest: damaged copies must FAIL" SelfTest "$WORK/ref" "$WORK/selftest"
tally "$LOGS/selftest.out" $?

# (c) hfilegen's files
if [ -n "$CASES" ]; then
  if [ -d "$CASES/read" ]; then
    step readcheck-cases "(c) ReadCheck $CASES/read" ReadCheck "$CASES/read"
    tally "$LOGS/readcheck-cases.out" $?
    step samebytes-cases "(c2) SameBytes $CASES/read (same_bytes=1 files vs HBase's writer)" \
      SameBytes "$CASES/read"
    tally "$LOGS/samebytes-cases.out" $?
  else
    echo "== (c) NOTE no $CASES/read directory; nothing to read-check"
  fi
fi

# (d) bulk load: self-test cases plus hfilegen's cases, all on one mini cluster
BULK_CASES=()
for d in "$WORK"/bulk-selftest/*/; do
  [ -d "$d" ] && BULK_CASES+=("$d")
done
if [ -n "$CASES" ] && [ -d "$CASES/bulk" ]; then
  for d in "$CASES"/bulk/*/; do
    [ -d "$d" ] && BULK_CASES+=("$d")
  done
fi
if [ "$READERS_ONLY" -eq 1 ]; then
  skip_step "(d) BulkLoadCheck (${#BULK_CASES[@]} cases)"
else
  step bulkload "(d) BulkLoadCheck (${#BULK_CASES[@]} cases, one mini cluster)" BulkLoadCheck \
    "${BULK_CASES[@]%/}"
  tally "$LOGS/bulkload.out" $?
fi

# (e) hfilegen reads HBase's files
if [ -n "$HFILEGEN" ]; then
  echo "== (e) hfilegen verify / inspect on $WORK/ref"
  T0="$(now)"
  if [ ! -x "$HFILEGEN" ]; then
    echo "SKIP hfilegen: $HFILEGEN is not an executable file (not built yet?)"
  else
    p=0
    f=0
    for h in "$WORK"/ref/*.hfile; do
      tsv="${h%.hfile}.cells.tsv"
      if "$HFILEGEN" verify "$h" > "$LOGS/hfilegen-verify.tmp" 2>&1; then
        echo "PASS hfilegen verify $h"
        p=$((p + 1))
      else
        echo "FAIL hfilegen verify $h: $(tail -n 3 "$LOGS/hfilegen-verify.tmp" | tr '\n' ' ')"
        f=$((f + 1))
      fi
      if "$HFILEGEN" inspect --cells --tsv "$h" 2> "$LOGS/hfilegen-inspect.err" \
          | diff - "$tsv" > "$LOGS/hfilegen-inspect.diff" 2>&1; then
        echo "PASS hfilegen inspect --cells --tsv $h"
        p=$((p + 1))
      else
        echo "FAIL hfilegen inspect --cells --tsv $h: differs from $(basename "$tsv"):" \
          "$(head -n 4 "$LOGS/hfilegen-inspect.diff" | cut -c1-200 | tr '\n' ' ')" \
          "$(tail -n 2 "$LOGS/hfilegen-inspect.err" | tr '\n' ' ')"
        f=$((f + 1))
      fi
    done
    rm -f "$LOGS"/hfilegen-*.tmp
    echo "$p passed, $f failed" | tee "$LOGS/hfilegen.out"
    tally "$LOGS/hfilegen.out" 0
  fi
  echo "   hfilegen: $(elapsed "$T0")"
fi

live_step
rekey_step

echo "== total (HBase $HBASE)"
echo "$TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$SKIPPED_STEPS" -eq 0 ] || echo "($SKIPPED_STEPS steps skipped, not counted: see SKIP above)"
[ "$TOTAL_FAIL" -eq 0 ]

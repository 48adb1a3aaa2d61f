#!/usr/bin/env bash
# The Spark output bulk-loaded by the interop harness's mini cluster (ctest spark_bulkload,
# label interop, with the interop profiles): tests/interop/build_cases.py makes its bulk-load cases with
# `hfilegen build`; each case's output is then made again by hfilegen.spark (local[2]) with
# the same flags, compared byte for byte, and put in its place, and tests/interop/run.sh
# bulk-loads and reads back those directories (BulkLoadCheck against the cases' independent
# oracle) in a pre-split mini cluster (run.sh --bulk-only: that step alone).
#   tests/spark/bulkload.sh [WORK_DIR] [--hbase 2.6|2.5]
# With HFILEGEN_BIN and HFILEGEN_LIB set (ctest) those are used; otherwise build/ is built.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-/tmp/hfilegen-spark-bulkload}
shift || true
if [ -z "${HFILEGEN_BIN:-}" ] || [ -z "${HFILEGEN_LIB:-}" ]; then
  cmake -S "$repo" -B "$repo/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  ninja -C "$repo/build" >/dev/null
  HFILEGEN_BIN=$repo/build/hfilegen HFILEGEN_LIB=$repo/build/libhfilegen.so
fi
"$repo/tools/setup-python.sh" > "$work.setup.log" 2>&1 || { tail -5 "$work.setup.log" >&2; exit 1; }
rm -rf "$work/cases"
mkdir -p "$work/cases/bulk"
python3 "$repo/tests/interop/build_cases.py" "$HFILEGEN_BIN" "$repo" "$work/cases/bulk"
HFILEGEN_LIB=$HFILEGEN_LIB PYTHONPATH=$repo/python:$repo/tests/interop \
  "$repo/.venv/bin/python" - "$repo" "$work/cases/bulk" <<'PY'
import filecmp, os, shutil, sys
repo, bulk = sys.argv[1], sys.argv[2]
sys.argv = [sys.argv[0]]
import build_cases
from hfilegen import spark as hs
sample = os.path.join(repo, "samples", "orders.csv")
spark = hs.session("local[2]", "hfilegen-bulkload")
spark.sparkContext.setLogLevel("ERROR")
try:
    for name, s in build_cases.SCHEMES.items():
        case = os.path.join(bulk, name)
        out, sp = os.path.join(case, "out"), os.path.join(case, "out.spark")
        shutil.rmtree(sp, ignore_errors=True)
        hs.run(spark, ["--rowkey", s["template"], "--splits", os.path.join(case, "splits.txt"),
                       "--out", sp] + s["flags"] + [sample])
        cmp = filecmp.dircmp(out, sp)
        def same(c):
            return not (c.left_only or c.right_only or c.diff_files) and \
                all(same(x) for x in c.subdirs.values())
        if not same(cmp):
            sys.exit("%s: the Spark output differs from build's" % name)
        shutil.rmtree(out)
        os.rename(sp, out)
        print("%s: Spark output identical, in place for the bulk load" % name, flush=True)
finally:
    spark.stop()
PY
exec bash "$repo/tests/interop/run.sh" --bulk-only --cases "$work/cases" --work "$work" "$@"

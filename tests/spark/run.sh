#!/usr/bin/env bash
# ctest `spark_parity` (label spark): the Python bindings' tests (python/tests, pytest) and
# the Spark parity run (tests/spark/run_parity.py) in the venv tools/setup-python.sh makes.
# Skipped loudly (exit 77) only when the venv cannot be created (no network to PyPI).
# usage: run.sh REPO_ROOT HFILEGEN_BIN LIBHFILEGEN_SO WORK_DIR
set -uo pipefail
repo=$1 hfg=$2 lib=$3 work=$4
if ! "$repo/tools/setup-python.sh" > "$work.setup.log" 2>&1; then
  echo "SKIPPED: the Python venv (pyspark, pyarrow, pytest) could not be created:" >&2
  tail -5 "$work.setup.log" >&2
  exit 77
fi
command -v java >/dev/null || { echo "SKIPPED: no java for Spark" >&2; exit 77; }
export HFILEGEN_LIB=$lib HFILEGEN_BIN=$hfg PYTHONPATH=$repo/python
py=$repo/.venv/bin/python
set -e
cd "$repo"
"$py" -m pytest -q -p no:cacheprovider python/tests
"$py" tests/spark/run_parity.py "$repo" "$hfg" "$work" 2> "$work.spark.log" || {
  tail -60 "$work.spark.log" >&2
  exit 1
}

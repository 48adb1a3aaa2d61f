#!/usr/bin/env bash
# ctest entry of the HBase interop suite: makes the C-side cases (hfg_interop_gen: the
# writer matrix; build_cases.py: `hfilegen build` outputs with an independent oracle),
# then runs the Java harness (run.sh) against them with the given HBase version.
#   ctest_interop.sh --hbase 2.6|2.5 --hfilegen PATH --gen PATH --work DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
hbase=2.6 hfilegen= gen= work=
while [ $# -gt 0 ]; do
  case "$1" in
    --hbase) hbase=$2; shift 2 ;;
    --hfilegen) hfilegen=$2; shift 2 ;;
    --gen) gen=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "ctest_interop.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
rm -rf "$work/cases"
mkdir -p "$work/cases/bulk"
"$gen" "$work/cases"
python3 "$here/build_cases.py" "$hfilegen" "$src" "$work/cases/bulk"
exec bash "$here/run.sh" --hbase "$hbase" --hfilegen "$hfilegen" --cases "$work/cases" --work "$work"

#!/usr/bin/env bash
# ctest entry of the nightly-loads interop check (issue #27): tests/db/nightly.sh runs its
# four nights against throwaway PostgreSQL and MariaDB servers and keeps them in WORK/cases,
# then run.sh --nightly-only bulk-loads them night by night into an HBase mini cluster
# (NightlyCheck) and compares each scan with the source table.
#   ctest_nightly.sh --hbase 2.6 --hfilegen PATH --scan PATH --work DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
hbase=2.6 hfilegen= scan= work=
while [ $# -gt 0 ]; do
  case "$1" in
    --hbase) hbase=$2; shift 2 ;;
    --hfilegen) hfilegen=$2; shift 2 ;;
    --scan) scan=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "ctest_nightly.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
rm -rf "$work/cases"
mkdir -p "$work/cases"
bash "$src/tests/db/nightly.sh" "$hfilegen" "$src" "$scan" "$work/cases"
exec bash "$here/run.sh" --hbase "$hbase" --nightly-only --cases "$work/cases" --work "$work"

#!/usr/bin/env bash
# The test command (README "Tests"): set-up, release build + all tests, sanitizer build +
# all C tests, then the HBase interop harness (HBase 2.6 and 2.5 read and bulk-load our files, 3.0 reads them).
#   tools/test.sh            everything
#   tools/test.sh --no-interop   C tests only (release and ASan/UBSan)
set -euo pipefail
cd "$(dirname "$0")/.."
interop=1
[ "${1:-}" = "--no-interop" ] && interop=0
tools/setup.sh
jobs=$(nproc)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHFG_INTEROP=$([ $interop = 1 ] && echo ON || echo OFF) >/dev/null
ninja -C build -j "$jobs"
echo "== C tests (release)"
ctest --test-dir build --output-on-failure -j "$jobs" -LE interop
echo "== C tests (ASan + UBSan)"
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DHFG_SANITIZE=ON >/dev/null
ninja -C build-asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j "$jobs" -LE interop
if [ $interop = 1 ]; then
  echo "== HBase interop (HBase's own reader, checksums, blooms, bulk load into a mini cluster)"
  ctest --test-dir build --output-on-failure -L interop
fi

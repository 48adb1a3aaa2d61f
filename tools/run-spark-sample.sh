#!/usr/bin/env bash
# The bundled sample job on Spark local mode, then a byte comparison with `hfilegen build`
# at the same job timestamp: prints `identical` and exits 0 only when every file name and
# byte (HFiles, manifest.json) is the same. Set-up: tools/setup.sh, the build, and
# tools/setup-python.sh (.venv with pyspark 3.5, pyarrow; Java 17).
#   tools/run-spark-sample.sh [MASTER]     (default local[2])
set -euo pipefail
cd "$(dirname "$0")/.."
master=${1:-local[2]}
tools/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build >/dev/null
tools/setup-python.sh
ts=1700000000000
rm -rf out/orders_salt10.spark out/orders_salt10.build
build/hfilegen build --job samples/jobs/orders_salt10.yaml --out out/orders_salt10.build \
  --job-timestamp $ts -q
HFILEGEN_LIB=$PWD/build/libhfilegen.so PYTHONPATH=$PWD/python .venv/bin/python -m hfilegen.spark \
  --master "$master" --job samples/jobs/orders_salt10.yaml --out out/orders_salt10.spark \
  --job-timestamp $ts 2> >(grep -v -e WARN -e 'setLogLevel' -e '^Setting default log level' >&2)
if diff -r out/orders_salt10.build out/orders_salt10.spark >/dev/null; then
  echo "identical ($(ls out/orders_salt10.spark/cf | wc -l) HFiles and manifest.json:" \
       "out/orders_salt10.spark = out/orders_salt10.build)"
else
  diff -r out/orders_salt10.build out/orders_salt10.spark | head >&2
  echo "DIFFERENT" >&2
  exit 1
fi

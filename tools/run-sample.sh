#!/usr/bin/env bash
# README quick start: set-up, build, then the main job on the bundled sample (a legacy
# 'orders' export salted by id % 10 over 10 pre-split regions), and a check of the
# output against the table's region boundaries. Output: out/orders_salt10/<family>/<file>.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build >/dev/null
rm -rf out/orders_salt10
build/hfilegen build --job samples/jobs/orders_salt10.yaml
build/hfilegen verify --splits samples/splits/salt10.txt out/orders_salt10 | tail -3
cat <<'MSG'

Load it into HBase (the table pre-split at the same keys):
  hbase shell samples/hbase/create-orders_salt10.rb
  hbase completebulkload out/orders_salt10 orders_salt10
MSG

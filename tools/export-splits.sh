#!/usr/bin/env bash
# Exports a live table's region boundaries as a splits file for `--splits`: one region start
# key per line (the first region's empty key omitted), bytes escaped as \xNN, backslash as \\.
# A thin wrapper of `hfilegen splits --table`, which reads hbase:meta natively (no hbase shell):
#
#   tools/export-splits.sh TABLE [--zookeeper host:port[,...]] [--hbase-site FILE] > splits.txt
#
# Without --zookeeper / --hbase-site the quorum comes from $HBASE_CONF_DIR/hbase-site.xml.
# HFILEGEN names the binary (default: hfilegen on PATH, else build/hfilegen of this tree).
set -euo pipefail
table=${1:?usage: tools/export-splits.sh TABLE [--zookeeper QUORUM] [--hbase-site FILE]}
shift
h=${HFILEGEN:-}
if [ -z "$h" ]; then
  h=$(command -v hfilegen || true)
  [ -n "$h" ] || h="$(cd "$(dirname "$0")/.." && pwd)/build/hfilegen"
fi
exec "$h" splits --table "$table" --format lines "$@"

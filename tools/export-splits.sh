#!/usr/bin/env bash
# Exports a live table's region boundaries as a splits file for `hfilegen verify --splits`
# and `hfilegen build --splits`: one region start key per line (the first region's empty
# start key omitted), bytes escaped as \xNN, which is also how `hbase shell` prints them
# (Bytes.toStringBinary) except for the backslash, which is escaped here as \\.
#
#   tools/export-splits.sh TABLE > splits.txt
#
# Needs the `hbase` launcher of the cluster on PATH.
set -euo pipefail
table=${1:?usage: tools/export-splits.sh TABLE}
hbase shell -n <<EOF_RUBY 2>/dev/null | sed -n 's/^SPLITKEY //p'
require 'java'
java_import org.apache.hadoop.hbase.TableName
conn = @hbase.instance_variable_get(:@connection)
locator = conn.getRegionLocator(TableName.valueOf('${table}'))
locator.getStartKeys.each do |k|
  next if k.length == 0
  s = k.to_a.map { |b| b &= 0xff; (b >= 0x20 && b <= 0x7e && b != 0x5c) ? b.chr : (b == 0x5c ? '\\\\\\\\' : format('\\\\x%02x', b)) }.join
  puts "SPLITKEY #{s}"
end
EOF_RUBY

#!/usr/bin/env bash
# CLI scenarios of the live-table flags that need no cluster (the cluster cases are in
# tests/interop/ LiveTableCheck): where the quorum comes from, refusals of Kerberos/TLS
# configurations, an unreachable quorum within the timeout, flag conflicts.
#   bash tests/cli/hbase_client.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
unset HBASE_CONF_DIR
# expect NAME RC PATTERN CMD...: exit code RC and stderr matching PATTERN
expect() {
  local name=$1 want=$2 pat=$3
  shift 3
  "$@" > "$T/out" 2> "$T/err"
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    bad "$name: exit $rc, want $want ($(tr '\n' ' ' < "$T/err"))"
  elif ! grep -q -- "$pat" "$T/err"; then
    bad "$name: stderr lacks [$pat]: $(tr '\n' ' ' < "$T/err")"
  else
    ok
  fi
}

expect "no quorum anywhere" 2 "needs the cluster's ZooKeeper quorum" \
  "$H" splits --table t
expect "build: no quorum" 2 "needs the cluster's ZooKeeper quorum" \
  "$H" build --table t --rowkey '{id}' --out "$T/o" "$T/in.csv"

start=$(date +%s)
expect "unreachable quorum, within the timeout" 1 "127.0.0.1:1 unreachable: no session within 1500 ms" \
  "$H" splits --table t --zookeeper 127.0.0.1:1 --hbase-timeout 1500
end=$(date +%s)
[ $((end - start)) -le 8 ] && ok || bad "unreachable quorum took $((end - start)) s"
expect "unresolvable quorum host" 1 "cannot start a session" \
  "$H" splits --table t --zookeeper no.such.host.invalid:2181
expect "invalid table name" 1 "not a valid table name" \
  "$H" splits --table 'bad name' --zookeeper 127.0.0.1:1
expect "bad --hbase-timeout" 2 "bad --hbase-timeout" \
  "$H" splits --table t --zookeeper 127.0.0.1:1 --hbase-timeout soon
expect "--table needs a value" 2 "needs a value" "$H" verify "$T" --table

# hbase-site.xml: through HBASE_CONF_DIR or --hbase-site
mkdir -p "$T/conf"
cat > "$T/conf/hbase-site.xml" <<'XML'
<?xml version="1.0"?>
<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1</value></property>
  <property><name>hbase.zookeeper.property.clientPort</name><value>1</value></property>
</configuration>
XML
expect "quorum and client port from HBASE_CONF_DIR" 1 "127.0.0.1:1 unreachable" \
  env HBASE_CONF_DIR="$T/conf" "$H" splits --table t --hbase-timeout 1000
expect "quorum from --hbase-site" 1 "127.0.0.1:1 unreachable" \
  "$H" plan --table t --hbase-site "$T/conf/hbase-site.xml" --hbase-timeout 1000 --rowkey '{id}' "$T/in.csv"
cat > "$T/kerberos.xml" <<'XML'
<configuration>
  <property><name>hbase.zookeeper.quorum</name><value>127.0.0.1:1</value></property>
  <property><name>hbase.security.authentication</name><value>kerberos</value></property>
</configuration>
XML
expect "Kerberos refused before connecting" 1 "Kerberos/SASL" \
  "$H" splits --table t --hbase-site "$T/kerberos.xml"
cat > "$T/tls.xml" <<'XML'
<configuration>
  <property><name>hbase.rpc.tls.enabled</name><value>true</value></property>
</configuration>
XML
expect "TLS RPC refused before connecting" 1 "does not speak TLS RPC" \
  "$H" verify "$T" --table t --zookeeper 127.0.0.1:1 --hbase-site "$T/tls.xml"
printf '<configuration>\n<property><name>x</name>\n</configuration>\n' > "$T/broken.xml"
expect "malformed hbase-site.xml names the line" 2 "broken.xml line 3" \
  "$H" splits --table t --hbase-site "$T/broken.xml"

# flag conflicts
printf 'k1\n' > "$T/splits.txt"
expect "build: --splits and --table" 2 "exclude each other" \
  "$H" build --table t --zookeeper 127.0.0.1:1 --splits "$T/splits.txt" --rowkey '{id}' --out "$T/o" "$T/in.csv"
expect "verify: --splits and --table" 2 "exclude each other" \
  "$H" verify "$T" --table t --zookeeper 127.0.0.1:1 --splits "$T/splits.txt"
expect "plan: --regions and --table" 2 "excludes --splits and --regions" \
  "$H" plan --table t --zookeeper 127.0.0.1:1 --regions 4 --rowkey '{id}' "$T/in.csv"
expect "splits --table with generation flags" 2 "does not go with --table" \
  "$H" splits --table t --zookeeper 127.0.0.1:1 --rowkey '{id}'

# the live-table keys in a job file; the command line overrides them
printf 'id,v\n1,a\n2,b\n' > "$T/in.csv"
printf 'table: t\nzookeeper: 127.0.0.1:1\nhbase_timeout: 1000\nrowkey: "{id}"\n' > "$T/live.yaml"
expect "build: the job file's table and zookeeper" 1 "127.0.0.1:1 unreachable" \
  "$H" build --job "$T/live.yaml" --out "$T/o" "$T/in.csv"
expect "plan: the job file's table and zookeeper" 1 "127.0.0.1:1 unreachable" \
  "$H" plan --job "$T/live.yaml" "$T/in.csv"
expect "build: --zookeeper replaces the job file's" 1 "127.0.0.2:1 unreachable" \
  "$H" build --job "$T/live.yaml" --zookeeper 127.0.0.2:1 --out "$T/o" "$T/in.csv"
expect "build: --splits replaces the job file's table" 0 "replaces the job file's table 't'" \
  "$H" build --job "$T/live.yaml" --splits "$T/splits.txt" --header --out "$T/o1" "$T/in.csv"
[ -f "$T/o1/_SUCCESS" ] && ok || bad "build with --splits over the job's table published nothing"
printf 'splits: %s\nrowkey: "{id}"\n' "$T/splits.txt" > "$T/splits.yaml"
expect "build: --table replaces the job file's splits" 1 "replaces the job file's splits" \
  "$H" build --job "$T/splits.yaml" --table t --zookeeper 127.0.0.1:1 --hbase-timeout 1000 \
  --out "$T/o2" "$T/in.csv"
printf 'table: t\nsplits: %s\nzookeeper: 127.0.0.1:1\nrowkey: "{id}"\n' "$T/splits.txt" > "$T/both.yaml"
expect "build: the job file's table and splits" 2 "exclude each other" \
  "$H" build --job "$T/both.yaml" --out "$T/o3" "$T/in.csv"
printf 'table: ""\nrowkey: "{id}"\n' > "$T/empty.yaml"
expect "build: empty table key names the job file line" 2 "empty.yaml line 1: key 'table'" \
  "$H" build --job "$T/empty.yaml" --out "$T/o4" "$T/in.csv"

# tools/export-splits.sh is a wrapper of splits --table
expect "export-splits.sh runs splits --table" 1 "127.0.0.1:1 unreachable" \
  env HFILEGEN="$H" bash "$SRC/tools/export-splits.sh" t --zookeeper 127.0.0.1:1 --hbase-timeout 1000

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

#!/usr/bin/env bash
# CLI scenario: hfilegen rekey over a directory of family folders (build's own
# output keyed by the plain id). The re-keyed table holds exactly the cells a
# direct build with the new rowkey writes, passes verify against the new
# splits, and is byte-identical at 1 and 2 threads with spills; an old key
# that does not parse is rejected into the rejects file; a re-keying that
# merges old rows, a missing --from, inputs and build-only flags fail with a
# clear message and publish nothing.
# usage: rekey.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
cells() { for f in "$1"/*/*; do "$H" inspect --cells --tsv "$f"; done | LC_ALL=C sort; }
python3 "$SRC/tools/make_sample.py" 40000 in.csv
TS=1720695600000
"$H" build --rowkey '{id}' --out old --codec gz --bloom rowcol --timestamp $TS --quiet \
  --map note=d:note in.csv || fail "old table build"
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out direct \
  --timestamp $TS --quiet --map note=d:note in.csv || fail "direct build"

# ---- re-key: the same cells as the direct build, verified against the splits ----
out=$("$H" rekey --from old --old-key '{id}' --rowkey '{id % 10}|{id}' \
  --splits "$SRC/samples/splits/salt10.txt" --out new --job-timestamp $TS 2>&1)
[ $? -eq 0 ] || fail "rekey failed: $out"
has "$out" "old rows          40000 read = 40000 written + 0 rejected (old key did not parse) + 0 without visible cells" "summary old rows"
has "$out" "new rows          40000 written" "summary new rows"
[ -e new/_SUCCESS ] || fail "no _SUCCESS"
[ "$(cells new | md5sum)" = "$(cells direct | md5sum)" ] ||
  fail "re-keyed cells differ from the direct build's"
v=$("$H" verify --splits "$SRC/samples/splits/salt10.txt" new 2>&1) || fail "verify: $v"
[ "$(ls new/cf | wc -l)" -eq 10 ] && [ "$(ls new/d | wc -l)" -eq 10 ] ||
  fail "expected 10 files per family: $(ls new/*)"

python3 - new <<'PY' || fail "manifest.json's rekey member"
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
r = m["rekey"]
assert r["from"] == "old" and r["snapshot"] is None and r["old_key"] == "{id}", r
assert r["view"] == "visible" and r["store_files"] == 2, r
assert r["cells_read"] == m["cells"] if "cells" in m else r["cells_read"] > 0, r
assert m["records_read"] == 40000 and m["records_written"] == 40000, m
PY

# ---- byte-identical at 1 and 2 threads, spilling ----
for t in 1 2; do
  "$H" rekey --from old --old-key '{id}' --rowkey '{id % 10}|{id}' --splits \
    "$SRC/samples/splits/salt10.txt" --out t$t --job-timestamp $TS --as-of $TS --threads $t --memory 8m \
    --quiet || fail "rekey --threads $t"
done
diff -r t1 t2 >/dev/null || fail "output differs between --threads 1 and 2"

# ---- an old key that does not parse: rejected, counted, in the rejects file ----
out=$("$H" rekey --from old --old-key '{id:int}' --rowkey '{id}' --out rj --max-rejects 100000 \
  --job-timestamp $TS 2>&1)
has "$out" "rejected" "rejects"
n=$(wc -l <rj/_rejects.tsv 2>/dev/null || echo 0)
# 4-byte old keys (ids 1000..9999) parse as int, the others do not
want=$(for f in old/*/*; do "$H" inspect --cells --tsv "$f"; done | cut -f1 | LC_ALL=C sort -u |
  awk 'length($0) != 4' | wc -l)
[ "$n" -eq "$want" ] || fail "rejects file holds $n rows, expected $want"
grep -q "needs 4 bytes" rj/_rejects.tsv || fail "reject reason: $(head -1 rj/_rejects.tsv)"

# ---- refusals: nothing published ----
out=$("$H" rekey --from old --old-key '{id}' --rowkey '{id % 10}' --out dup 2>&1)
[ $? -eq 1 ] || fail "a merging re-key must fail with 1"
has "$out" "duplicate new rowkey" "merging re-key"
has "$out" "warning: field 'id' reaches the new key only through %" "lossy warning"
[ -e dup/_SUCCESS ] && fail "merging re-key published"
out=$("$H" rekey --from nosuch --old-key '{id}' --rowkey '{id}' --out m 2>&1)
[ $? -ne 0 ] || fail "a missing --from must fail"
has "$out" "nosuch" "missing --from named"
[ -e m/_SUCCESS ] && fail "missing --from published"
out=$("$H" rekey --from old --old-key '{id}' --rowkey '{id}' --out x in.csv 2>&1)
[ $? -eq 2 ] || fail "an input must be a usage error"
has "$out" "rekey reads --from DIR, not inputs" "input refused"
out=$("$H" rekey --from old --old-key '{id}' --rowkey '{id}' --out x --map a=b:c 2>&1)
[ $? -eq 2 ] || fail "--map must be a usage error"
has "$out" "--map is not a rekey option" "--map refused"
out=$("$H" rekey --from old --old-key '{user}' --rowkey '{id}' --out x 2>&1)
[ $? -eq 2 ] || fail "an unknown new-key field must be a usage error ($out)"

# ---- a snapshot (tests/cli/rekey_snapshot.py: a plain file, a link, references) ----
python3 "$SRC/tools/make_sample.py" 3000 small.csv
printf '5\n' >split5.txt
"$H" build --rowkey '{id}' --splits split5.txt --out old2 --timestamp $TS --quiet \
  --map note=d:note small.csv || fail "two-region old table build"
python3 "$SRC/tests/cli/rekey_snapshot.py" old2 root --family-attr cf:COMPRESSION=GZ \
  --family-attr d:COMPRESSION=LZO >root.files || fail "snapshot layout"
S1=(--from root --snapshot s1 --old-key '{id}' --rowkey '{id % 10}|{id}' --job-timestamp $TS
  --as-of $TS)
"$H" rekey --from old2 --old-key '{id}' --rowkey '{id % 10}|{id}' --splits \
  "$SRC/samples/splits/salt10.txt" --out f2 --job-timestamp $TS --as-of $TS --quiet ||
  fail "rekey of the family folders"
codec_of() { "$H" inspect "$(ls "$1"/* | head -1)" | sed -n 's/^  compression: \([a-z0-9-]*\).*/\1/p'; }
# the schema's LZO is no codec hfilegen writes: refused, naming the family and the fix
out=$("$H" rekey "${S1[@]}" --splits "$SRC/samples/splits/salt10.txt" --out s2 2>&1)
[ $? -eq 1 ] || fail "a schema codec hfilegen cannot write must fail: $out"
has "$out" "family d: COMPRESSION LZO is not a codec hfilegen writes" "LZO refused"
[ -e s2 ] && fail "the LZO refusal published"
# ... a --family-option for it is the fix; cf keeps the schema's GZ
out=$("$H" rekey "${S1[@]}" --splits "$SRC/samples/splits/salt10.txt" --out s2 \
  --family-option d:codec=lz4 2>&1) || fail "rekey of the snapshot: $out"
has "$out" "old rows          3000 read = 3000 written + 0 rejected" "snapshot summary"
[ "$(cells s2 | md5sum)" = "$(cells f2 | md5sum)" ] || fail "snapshot cells differ from the folders'"
[ "$(codec_of s2/cf)" = gz ] || fail "cf: the schema's GZ, got $(codec_of s2/cf)"
[ "$(codec_of s2/d)" = lz4 ] || fail "d: the --family-option's lz4, got $(codec_of s2/d)"
# a flag wins over the schema for every family (it was overridden by the schema's GZ)
"$H" rekey "${S1[@]}" --splits "$SRC/samples/splits/salt10.txt" --out s3 --codec none \
  --quiet || fail "rekey --codec none"
[ "$(codec_of s3/cf)" = none ] && [ "$(codec_of s3/d)" = none ] ||
  fail "--codec none over the schema: cf $(codec_of s3/cf), d $(codec_of s3/d)"
# --table: the live lookup's refusals (the cluster case is RekeyCheck's, tests/interop)
out=$(env -u HBASE_CONF_DIR "$H" rekey "${S1[@]}" --table new --out s4 2>&1)
[ $? -eq 2 ] || fail "--table without a quorum must be a usage error: $out"
has "$out" "needs the cluster's ZooKeeper quorum" "--table quorum"
out=$("$H" rekey "${S1[@]}" --table new --zookeeper 127.0.0.1:1 --splits split5.txt --out s4 2>&1)
[ $? -eq 2 ] || fail "--table with --splits must be a usage error: $out"
has "$out" "--splits and --table exclude each other" "--table with --splits"
out=$("$H" rekey "${S1[@]}" --table new --zookeeper 127.0.0.1:1 --hbase-timeout 500 --out s4 2>&1)
[ $? -eq 1 ] || fail "an unreachable quorum must fail with 1: $out"
has "$out" "127.0.0.1:1 unreachable" "--table unreachable"
[ -e s4 ] && fail "a failed --table lookup published"

# ---- old rows read = written + rejected + without visible cells, in the summary and
# the manifest: cells stamped with created_at, both families' TTL expiring the older half ----
"$H" build --rowkey '{id}' --splits split5.txt --out old3 --timestamp column:created_at --quiet \
  --map note=d:note small.csv || fail "old table build (timestamps from created_at)"
python3 "$SRC/tests/cli/rekey_snapshot.py" old3 root3 --family-attr cf:TTL=1000 \
  --family-attr d:TTL=1000 >/dev/null || fail "snapshot layout (TTL)"
# a cut between two created_at values; rows at or below it expire as of cut + TTL
read -r CUT EXPIRED < <(python3 - small.csv <<'PY'
import csv, sys
ts = sorted(int(r["created_at"]) for r in csv.DictReader(open(sys.argv[1])))
k = next(i for i in range(len(ts) // 2, len(ts) - 1) if ts[i + 1] - ts[i] >= 2)
print(ts[k] + 1, k + 1)
PY
)
ASOF=$((CUT + 1000 * 1000))
summary_counts() { # "read written rejected without" from rekey's summary line
  sed -n 's/^  old rows  *\([0-9]*\) read = \([0-9]*\) written + \([0-9]*\) rejected .* + \([0-9]*\) without visible cells$/\1 \2 \3 \4/p' <<<"$1"
}
manifest_counts() { # the same four from manifest.json, after checking its invariant
  python3 - "$1" <<'PY'
import json, sys
m = json.load(open(sys.argv[1] + "/manifest.json"))
r, w, j, e, d = (m[k] for k in ("records_read", "records_written", "records_rejected",
                                 "records_without_cells", "duplicates_dropped"))
assert r == w + j + e + d, m
print(r, w, j, e)
PY
}
for mode in visible raw; do
  flag=()
  [ $mode = raw ] && flag=(--raw)
  out=$("$H" rekey --from root3 --snapshot s1 --old-key '{id}' --rowkey '{id % 10}|{id}' \
    --splits "$SRC/samples/splits/salt10.txt" --out "e-$mode" --job-timestamp $TS --as-of $ASOF \
    "${flag[@]}" 2>&1) || fail "rekey ($mode) with expired rows: $out"
  if [ $mode = visible ]; then want="3000 $((3000 - EXPIRED)) 0 $EXPIRED"; else want="3000 3000 0 0"; fi
  [ "$(summary_counts "$out")" = "$want" ] ||
    fail "summary ($mode): [$(summary_counts "$out")], expected [$want]: $out"
  [ "$(manifest_counts "e-$mode")" = "$want" ] ||
    fail "manifest ($mode): [$(manifest_counts "e-$mode")], expected [$want]"
done
[ "$EXPIRED" -gt 0 ] && [ "$EXPIRED" -lt 3000 ] || fail "the TTL case expires $EXPIRED rows"
# the same with rejects: rows without visible cells are never rejected
out=$("$H" rekey --from root3 --snapshot s1 --old-key '{id:short}' --rowkey '{id}' --out e-rj \
  --job-timestamp $TS --as-of $ASOF --max-rejects 100000 2>&1) || fail "rekey with rejects: $out"
read -r r w j e <<<"$(summary_counts "$out")"
[ "${r:-0}" -eq 3000 ] && [ "$e" -eq "$EXPIRED" ] && [ "$j" -gt 0 ] && [ $((w + j + e)) -eq 3000 ] ||
  fail "summary with rejects: [$r $w $j $e]: $out"
[ "$(manifest_counts e-rj)" = "$r $w $j $e" ] || fail "manifest with rejects: $(manifest_counts e-rj)"
[ "$(wc -l <e-rj/_rejects.tsv)" -eq "$j" ] || fail "rejects file: $(wc -l <e-rj/_rejects.tsv) lines, $j rejected"
# plan over the same: the rows rekey writes, the expired ones read but not planned
"$H" plan --from root3 --snapshot s1 --old-key '{id}' --rowkey '{id % 10}|{id}' \
  --splits "$SRC/samples/splits/salt10.txt" --as-of $ASOF --json >e-plan.json 2>&1 ||
  fail "plan with expired rows: $(cat e-plan.json)"
python3 - e-plan.json $((3000 - EXPIRED)) <<'PY' || fail "plan over expired rows"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["records_read"] == 3000 and p["after"]["rows"] == int(sys.argv[2]), (p["records_read"], p["after"]["rows"])
PY

[ "$failures" -eq 0 ] && echo "rekey: all passed" || { echo "rekey: $failures failed"; exit 1; }

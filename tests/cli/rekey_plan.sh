#!/usr/bin/env bash
# CLI scenario: plan, splits --algo sample and lint over an old table's snapshot
# (--from DIR --snapshot NAME --old-key P, tests/cli/rekey_snapshot.py's layout): the
# plan's per-region rows and cells are exactly what rekey then writes (visible and
# --raw); sample-balanced split keys from the snapshot give rekey balanced regions;
# lint's findings over the snapshot are those over the same rows given as records;
# old keys that do not parse are counted and named; misuse is a usage error.
#   bash tests/cli/rekey_plan.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
H=$(readlink -f "$H")
SRC=$(readlink -f "$SRC")
cd "$T" || exit 1
TS=1720695600000
SPLITS="$SRC/samples/splits/salt10.txt"
python3 "$SRC/tools/make_sample.py" 3000 in.csv
printf '5\n' >split5.txt
"$H" build --rowkey '{id}' --splits split5.txt --out old --timestamp $TS --quiet \
  --map note=d:note in.csv || bad "old table build"
python3 "$SRC/tests/cli/rekey_snapshot.py" old root >/dev/null || bad "snapshot layout"
OLD=(--from root --snapshot s1 --old-key '{id}')

# per-region rows and cells of a rekey output, one "rows cells" line per region
actual() {
  python3 - "$H" "$1" "$2" <<'PY'
import json, subprocess, sys
h, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
m = json.load(open(out + "/manifest.json"))
rows = [set() for _ in range(n)]
cells = [0] * n
for f in m["files"]:
    tsv = subprocess.run([h, "inspect", "--cells", "--tsv", out + "/" + f["file"]],
                         check=True, capture_output=True).stdout.decode()
    for line in tsv.splitlines():
        rows[f["region"]].add(line.split("\t")[0])
        cells[f["region"]] += 1
for r in range(n):
    print(len(rows[r]), cells[r])
PY
}
planned() { # the plan's after-side per-region rows and cells from --json on stdin
  python3 -c '
import json, sys
for r in json.load(sys.stdin)["after"]["regions"]:
    print(r["rows"], r["cells"])'
}

# ---- plan over the snapshot = what rekey writes, visible and raw ----
for mode in visible raw; do
  flag=()
  [ $mode = raw ] && flag=(--raw)
  "$H" rekey "${OLD[@]}" "${flag[@]}" --rowkey '{id % 10}|{id}' --splits "$SPLITS" --out "r-$mode" \
    --job-timestamp $TS --as-of $TS --quiet || bad "rekey ($mode)"
  actual "r-$mode" 10 >"actual-$mode"
  "$H" plan "${OLD[@]}" "${flag[@]}" --rowkey '{id % 10}|{id}' --splits "$SPLITS" --as-of $TS \
    --json >"plan-$mode.json" 2>"plan-$mode.err" || bad "plan ($mode): $(cat "plan-$mode.err")"
  planned <"plan-$mode.json" >"planned-$mode"
  if cmp -s "actual-$mode" "planned-$mode"; then ok; else
    bad "plan ($mode) per-region rows/cells differ from rekey's: $(paste "planned-$mode" "actual-$mode" | tr '\n' ';')"
  fi
  [ "$(awk '{s += $1} END {print s}' "actual-$mode")" -eq 3000 ] && ok ||
    bad "rekey ($mode) wrote $(awk '{s += $1} END {print s}' "actual-$mode") rows, expected 3000"
done
python3 - plan-visible.json <<'PY' && ok || bad "plan's before side and totals over the snapshot"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["records_read"] == 3000 and p["rejected"] == 0, p
assert p["before"]["key"] == "{id}", p["before"]["key"]  # the old rowkey
# before: the old keys under the new splits; ids as text, "1..." the most common start
b = [r["rows"] for r in p["before"]["regions"]]
assert sum(b) == 3000 and b[0] == 0 and b[1] == max(b), b
PY
out=$("$H" plan "${OLD[@]}" --rowkey '{id % 10}|{id}' --splits "$SPLITS" 2>&1) ||
  bad "plan (text): $out"
grep -qF "hfilegen plan: root snapshot s1" <<<"$out" && ok || bad "plan text names the snapshot: $out"

# ---- old keys that do not parse: rejected as rekey rejects them, the first named ----
"$H" plan --from root --snapshot s1 --old-key '{id:short}' --rowkey '{id}' --regions 1 --json \
  >rj.json 2>rj.err || bad "plan with rejects: $(cat rj.err)"
want=$("$H" inspect --cells --tsv old/*/* | cut -f1 | LC_ALL=C sort -u | awk 'length($0) != 2' | wc -l)
python3 - rj.json "$want" <<'PY' && ok || bad "plan's rejected old keys"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["rejected"] == int(sys.argv[2]) and p["records_read"] == 3000, (p["rejected"], sys.argv[2])
assert p["after"]["rows"] == 3000 - p["rejected"], p["after"]["rows"]
PY

# ---- splits --algo sample over the snapshot: balanced regions for rekey ----
"$H" splits --algo sample "${OLD[@]}" --rowkey '{id}' --regions 4 >sampled.txt 2>sampled.err ||
  bad "splits --algo sample --from: $(cat sampled.err)"
[ "$(wc -l <sampled.txt)" -eq 3 ] && ok || bad "expected 3 split keys: $(cat sampled.txt sampled.err)"
LC_ALL=C sort -c sampled.txt 2>/dev/null && ok || bad "split keys not sorted: $(cat sampled.txt)"
"$H" rekey "${OLD[@]}" --rowkey '{id}' --splits sampled.txt --out r-sampled --job-timestamp $TS \
  --quiet || bad "rekey with the sampled splits"
actual r-sampled 4 >actual-sampled
awk '{ if ($1 < 600 || $1 > 900) bad = 1 } END { exit bad }' actual-sampled && ok ||
  bad "regions from the sampled splits are not balanced: $(tr '\n' ';' <actual-sampled)"

# ---- lint over the snapshot finds what it finds over the same rows as records ----
"$H" inspect --cells --tsv old/*/* | cut -f1 | LC_ALL=C sort -u >ids
{ echo id; LC_ALL=C sort ids; } >ids.csv
codes() { sed -n 's/^\(error\|warning\|info\) *\([a-z0-9-]*\):.*/\1 \2/p' | LC_ALL=C sort; }
for tmpl in '{id}' '{id % 10}' '{id % 10}|{id}'; do
  a=$("$H" lint "${OLD[@]}" --rowkey "$tmpl" --regions 10 2>&1 | codes)
  b=$("$H" lint --input ids.csv --rowkey "$tmpl" --regions 10 2>&1 | codes)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "lint $tmpl: snapshot [$a] vs records [$b]"
done
# ... in the order the rows were written (their cells' timestamps), not in old-key order:
# stamped with created_at, the snapshot's findings are those of the CSV in its own order
"$H" build --rowkey '{id}' --splits split5.txt --out oldt --timestamp column:created_at --quiet \
  --map note=d:note in.csv || bad "old table build (created_at)"
python3 "$SRC/tests/cli/rekey_snapshot.py" oldt roott >/dev/null || bad "snapshot layout (created_at)"
for tmpl in '{id}' '{id % 10}|{id}'; do
  a=$("$H" lint --from roott --snapshot s1 --old-key '{id}' --rowkey "$tmpl" --regions 10 2>&1 | codes)
  b=$("$H" lint --input in.csv --rowkey "$tmpl" --regions 10 2>&1 | codes)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "lint $tmpl by write time: snapshot [$a] vs records [$b]"
done
# a hashed old key, written over time: no monotonic prefix (its key order would say one)
"$H" build --rowkey '{hex(md5(id), 8)}' --splits split5.txt --out oldh --quiet \
  --timestamp column:created_at --map note=d:note in.csv || bad "old table build (hashed key)"
python3 "$SRC/tests/cli/rekey_snapshot.py" oldh rooth --split-row 9 >/dev/null ||
  bad "snapshot layout (hashed key)"
out=$("$H" lint --from rooth --snapshot s1 --old-key '{h}' --rowkey '{h}' --regions 10 2>&1)
grep -qF "(template {h}, 3000 sample records)" <<<"$out" && ! grep -q "monotonic-prefix" <<<"$out" &&
  ok || bad "lint of a hashed old key in write order: $out"
out=$("$H" lint "${OLD[@]}" --rowkey '{id}' 2>&1)
grep -qF "(template {id}, 3000 sample records)" <<<"$out" && ok || bad "lint sample count: $out"
out=$("$H" lint --from root --snapshot s1 --old-key '{id:short}' --rowkey '{id}' 2>&1)
grep -qF "needs 2 bytes" <<<"$out" && grep -qF "(row skipped)" <<<"$out" && ok ||
  bad "lint names an old key that does not parse: $out"

# ---- misuse: usage errors ----
expect2() { # expect2 NAME PATTERN CMD...
  local name=$1 pat=$2
  shift 2
  out=$("$@" 2>&1)
  local rc=$?
  [ $rc -eq 2 ] && grep -qF -- "$pat" <<<"$out" && ok || bad "$name: exit $rc: $out"
}
expect2 "plan --from without --old-key" "--from needs --old-key" \
  "$H" plan --from root --snapshot s1 --rowkey '{id}' --regions 2
expect2 "plan --snapshot without --from" "go with --from DIR" \
  "$H" plan --snapshot s1 --old-key '{id}' --rowkey '{id}' --regions 2 in.csv
expect2 "plan --from with an input" "give one or the other" \
  "$H" plan "${OLD[@]}" --rowkey '{id}' --regions 2 in.csv
expect2 "splits --from without --algo sample" "--input or --from only goes with it" \
  "$H" splits "${OLD[@]}" --rowkey '{id}' --regions 2
expect2 "lint --from with --input" "give one or the other" \
  "$H" lint "${OLD[@]}" --rowkey '{id}' --input in.csv
out=$("$H" plan --from nosuch --snapshot s1 --old-key '{id}' --rowkey '{id}' --regions 2 2>&1)
[ $? -eq 1 ] && grep -qF "nosuch" <<<"$out" && ok || bad "plan over a missing --from: $out"
out=$("$H" plan "${OLD[@]}" --rowkey '{user}' --regions 2 2>&1)
[ $? -eq 2 ] && grep -qF "user" <<<"$out" && ok || bad "plan with an unknown field: $out"

# an HBase root directory without --snapshot: read as family folders it held no rows, and
# rekey published an empty output with exit 0 (plan, splits and lint planned nothing)
for c in rekey plan splits lint; do
  case $c in
    rekey) args=(--splits "$SPLITS" --out noroot) ;;
    splits) args=(--algo sample --regions 2) ;;
    *) args=() ;;
  esac
  out=$("$H" "$c" --from root --old-key '{id}' --rowkey '{id % 10}|{id}' "${args[@]}" 2>&1)
  rc=$?
  [ $rc -eq 2 ] && grep -qF -- "--from root is an HBase root directory (it holds .hbase-snapshot/): give --snapshot NAME (its snapshots: s1)" <<<"$out" &&
    ok || bad "$c --from ROOT without --snapshot: exit $rc: $out"
done
[ ! -e noroot ] && ok || bad "rekey --from ROOT without --snapshot published: $(ls -A noroot)"

echo "rekey_plan: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

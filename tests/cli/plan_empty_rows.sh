#!/usr/bin/env bash
# CLI scenario (issue #29, item 11): plan counts what build writes. A record
# whose mapped fields are all empty (or NULL in a dump) makes no cell, so
# build writes no row for it and counts it as a record without cells; plan
# applies the same rule (build/columns.h) and says how many it left out. Per
# region, plan's rows, cells and estimated KeyValue bytes equal those of the
# HFiles build writes (from build's summary and `inspect --cells`), under
# --empty-row skip and marker, --empty store, and for a MySQL dump's NULLs.
# usage: plan_empty_rows.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"

# 3,000 records with unique ids; about 30% have every non-key field empty, others
# some of them; n is mapped as long (8 bytes), so value sizes differ from the text
python3 - <<'PY'
import random
random.seed(29)
with open("in.csv", "w") as f, open("in.txt", "w") as d:
    f.write("id,a,b,n\n")
    for i in range(3000):
        r = random.random()
        a = "" if r < 0.3 else "a%d" % i * (1 + i % 3)
        b = "" if r < 0.3 or r > 0.8 else "b%d" % i
        n = "" if r < 0.3 or r > 0.6 else str(i * 7 - 900)
        f.write("%d,%s,%s,%s\n" % (i, a, b, n))
        # the same as a MySQL dump: an empty field is \N (NULL) or "" (empty)
        nul = lambda v, k: v if v else ("\\N" if (i + k) % 2 else "")
        d.write("%d\t%s\t%s\t%s\n" % (i, nul(a, 0), nul(b, 1), nul(n, 2)))
PY
printf '0500\n1\n2\n2500\n9\n' >splits.txt

# check NAME BUILD_ARGS... -- (the same arguments go to plan)
check() {
  local name=$1
  shift
  rm -rf out
  "$H" build "$@" --out out --timestamp 1720695600000 >build.out 2>build.err
  [ $? -eq 0 ] || { fail "$name: build failed: $(cat build.err)"; return; }
  "$H" plan "$@" --no-raw-key --json >plan.json 2>plan.err
  [ $? -eq 0 ] || { fail "$name: plan failed: $(cat plan.err)"; return; }
  for f in out/*/*; do [ -f "$f" ] && "$H" inspect --cells --tsv "$f"; done >cells.tsv
  python3 - "$name" <<'PY' || failures=$((failures + 1))
import json, re, sys
name = sys.argv[1]
out = open("build.out").read()
def summary(label):
    m = re.search(r"^  %s +(\d+)" % label, out, re.M)
    return int(m.group(1)) if m else 0
regions, t = {}, False
for line in out.splitlines():
    if line.startswith("  region "):
        t = True
        continue
    f = line.split()
    if t and len(f) == 5 and f[0].isdigit():
        regions[int(f[0])] = (int(f[1]), int(f[2]))
splits = [l.rstrip("\n").encode() for l in open("splits.txt")]
def unesc(s):
    return re.sub(rb"\\(x[0-9a-f]{2}|\\)", lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(1)[1:], 16)]), s.encode())
kv = {}
for line in open("cells.tsv"):
    row, fam, qual, ts, typ, val = line.rstrip("\n").split("\t")[:6]
    row, fam, qual, val = unesc(row), unesc(fam), unesc(qual), unesc(val)
    r = sum(1 for k in splits if k <= row)
    kv[r] = kv.get(r, 0) + 12 + 8 + 3 + len(row) + len(fam) + len(qual) + len(val)
p = json.load(open("plan.json"))
bad = []
def want(what, got, exp):
    if got != exp:
        bad.append("%s: plan %s, build %s" % (what, got, exp))
want("rows", p["after"]["rows"], summary("records written"))
want("records without cells", p.get("without_cells", 0), summary("records without cells"))
want("cells", p["after"]["cells"], summary("cells"))
for g in p["after"]["regions"]:
    i = g["region"]
    rows, cells = regions.get(i, (0, 0))
    want("region %d rows" % i, g["rows"], rows)
    want("region %d cells" % i, g["cells"], cells)
    want("region %d KeyValue bytes" % i, g["kv_bytes"], kv.get(i, 0))
if bad:
    print("FAIL: %s: %s" % (name, "; ".join(bad[:6])))
    sys.exit(1)
print("  %s: %d rows, %d without cells, %d cells: plan = build in all %d regions"
      % (name, p["after"]["rows"], p.get("without_cells", 0), p["after"]["cells"], len(p["after"]["regions"])))
PY
}

K=(--rowkey '{id}' --splits splits.txt --map n=cf:n:long)
check "empty rows skipped" "${K[@]}" in.csv
grep -q '"without_cells": [1-9]' plan.json || fail "the input has no record without cells"
grep -q '"code": "without-cells"' plan.json || fail "plan: no without-cells finding"
"$H" plan "${K[@]}" in.csv >plan.txt 2>&1
grep -q 'without cells (no row, as build writes none)' plan.txt || fail "plan's text does not say how many it left out"
check "empty-row marker" "${K[@]}" --empty-row marker in.csv
check "empty-row marker:m:e" "${K[@]}" --empty-row marker:m:e --family d in.csv
check "empty store" --rowkey '{id}' --splits splits.txt --empty store in.csv
check "mysql dump, NULLs" "${K[@]}" --format mysql --columns id,a,b,n in.txt
check "mysql dump, NULLs, empty store" --rowkey '{id}' --splits splits.txt --format mysql \
  --columns id,a,b,n --empty store in.txt
# sampled: the figures are estimates, but what the sample holds follows the same rule
"$H" plan "${K[@]}" --sample 0.5 --json in.csv >s.json 2>&1 || fail "plan --sample failed"
python3 - <<'PY' || failures=$((failures + 1))
import json
p = json.load(open("s.json"))
if p["records_sampled"] - p["rejected"] - p.get("without_cells", 0) != p["after"]["rows"] or not p.get("without_cells", 0):
    print("FAIL: sampled: %d sampled - %d rejected - %d without cells != %d rows"
          % (p["records_sampled"], p["rejected"], p.get("without_cells", 0), p["after"]["rows"]))
    raise SystemExit(1)
PY

[ "$failures" -eq 0 ] && echo "plan_empty_rows: all passed"
exit $((failures > 0))

#!/usr/bin/env bash
# CLI scenarios for `hfilegen plan` (table, JSON, SVG, HTML report) and
# `hfilegen splits --algo sample`.
# Usage: bash plan.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
ORDERS=$SRC/samples/orders.csv
SALT10=$SRC/samples/splits/salt10.txt

fail() { bad "$@"; }

# run NAME EXPECTED_RC -- command...   (stdout in $T/out, stderr in $T/err)
run() {
  local name=$1 want_rc=$2
  shift 3
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want_rc" ] || fail "$name: exit $rc, want $want_rc: $(head -c 600 "$T/err")"
}

# has NAME FILE PATTERN   (fixed string)
has() { grep -qF -- "$3" "$2" || fail "$1: no '$3' in $2: $(head -c 1500 "$2")"; }
hasnt() { ! grep -qF -- "$3" "$2" || fail "$1: unexpected '$3' in $2"; }

# ---- the table: ids 1..5000, raw key {id} vs {id % 10}|{id} on splits 1..9 ----
run table 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --raw-key '{id}' "$ORDERS"
has table "$T/out" "5,000 read, 5,000 analysed"
has table "$T/out" "regions    10, file $SALT10"
has table "$T/out" "12 + 8 + rowkey + family + qualifier + value + 3"
# region 1: 1111 rows under the raw key ('1', '10'-'19', '100'-'199', '1000'-'1999'), 500 salted
grep -qE '^ +1 1 +\| +1,111 +22\.2% .*#{14} \| +500 +10\.0% ' "$T/out" ||
  fail "table: region 1 row: $(grep -E '^ +1 1 ' "$T/out")"
grep -qE '^ +0 \(start\) +\| +0 +0\.0% ' "$T/out" || fail "table: region 0 row"
grep -qE '^ +5 5 +\| +112 +2\.2% ' "$T/out" || fail "table: region 5 row"
grep -qE '^  max / mean rows +2\.22 +1\.00$' "$T/out" || fail "table: max/mean line"
grep -qE '^  coefficient of variation \(rows\) +1\.00 +0\.00$' "$T/out" || fail "table: CV line"
grep -qE '^  empty regions +1 +0$' "$T/out" || fail "table: empty regions"
grep -qE '^  regions over 2x the mean +4 +0$' "$T/out" || fail "table: over 2x"
has table "$T/out" "before: 1 (22.2%), 2 (22.2%), 3 (22.2%), 4 (22.2%), 5 (2.2%)"
has table "$T/out" "heaviest values of id (the scheme's bucket field"
has table "$T/out" "info [raw-key-hotspot] with the raw key {id}, region 1 would hold 22.2% of the rows (2.22x the mean"
hasnt table "$T/out" "warning ["

# ---- JSON ----
run json 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --json "$ORDERS"
if command -v python3 >/dev/null; then
  python3 - "$T/out" <<'EOF' || fail "json: content"
import json, sys
p = json.load(open(sys.argv[1]))
assert p["records_read"] == 5000 and p["regions"] == 10, p["records_read"]
assert [r["rows"] for r in p["after"]["regions"]] == [500] * 10
assert [r["rows"] for r in p["before"]["regions"]] == [0, 1111, 1111, 1111, 1111, 112, 111, 111, 111, 111]
assert p["before"]["key"] == "{id}"          # the first column by default
assert p["before"]["rows_skew"]["max_region"] == 1
assert abs(p["before"]["rows_skew"]["max_over_mean"] - 2.222) < 0.001
assert p["after"]["regions"][3]["start"] == "3" and p["after"]["regions"][3]["end"] == "4"
assert sum(r["kv_bytes"] for r in p["after"]["regions"]) == p["after"]["kv_bytes"]
assert p["hot_field"] == "id" and p["hot_is_bucket_field"]
assert [f["code"] for f in p["findings"]] == ["raw-key-hotspot"]
EOF
else
  has json "$T/out" '"records_read": 5000'
fi

# ---- SVG chart and HTML report ----
run svg 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --raw-key '{id}' \
  --svg "$T/chart.svg" --report "$T/report.html" "$ORDERS"
has svg "$T/out" "wrote $T/chart.svg $T/report.html"
head -c 4 "$T/chart.svg" | grep -qF '<svg' || fail "svg: does not start with <svg"
n=$(grep -o '<g class="region" data-region="[0-9]*"' "$T/chart.svg" | wc -l)
[ "$n" -eq 10 ] || fail "svg: $n region groups, want 10"
for i in 0 1 9; do has svg "$T/chart.svg" "data-region=\"$i\""; done
has svg "$T/chart.svg" "vs rowkey scheme {id % 10}|{id}"
has svg "$T/chart.svg" "max/mean 2.22, CV 1.00"
has svg "$T/chart.svg" "region 1, start 1: before 1,111 rows (22.2%), after 500 rows (10.0%)"
tail -c 7 "$T/chart.svg" | grep -qF '</svg>' || fail "svg: does not end with </svg>"
head -c 15 "$T/report.html" | grep -qF '<!DOCTYPE html>' || fail "html: doctype"
has html "$T/report.html" '<svg xmlns='
has html "$T/report.html" '<h2>Regions</h2>'
# self-contained: nothing fetched from elsewhere
if grep -qE '<(script|link|img|iframe)|src=|href=|url\(' "$T/report.html"; then fail "html: external resource"; fi
if command -v python3 >/dev/null; then
  python3 - "$T/chart.svg" "$T/report.html" <<'EOF' || fail "svg/html: not well-formed"
import sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "{http://www.w3.org/2000/svg}svg", root.tag
groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "region"]
assert len(groups) == 10
# each region group: a tooltip and two bars, the before bar of region 1 the tallest
bars = [[r for r in g if r.tag.endswith("rect")] for g in groups]
assert all(len(b) == 2 for b in bars), [len(b) for b in bars]
heights = [float(b[0].get("height")) for b in bars]
assert heights.index(max(heights)) == 1 and heights[0] == 0, heights
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack = []
    def handle_starttag(self, t, a):
        if t not in ("meta", "br"): self.stack.append(t)
    def handle_startendtag(self, t, a): pass
    def handle_endtag(self, t):
        assert self.stack and self.stack[-1] == t, (t, self.stack[-5:])
        self.stack.pop()
p = P(); p.feed(open(sys.argv[2]).read()); p.close()
assert p.stack == [], p.stack
EOF
fi

# ---- a user-salted scheme: the heavy users stay in one region each ----
run hot 0 -- "$H" plan --rowkey '{user_id % 10}|{user_id}|{id}' --regions 10 "$ORDERS"
has hot "$T/out" "regions    10, aligned to the scheme's buckets"
has hot "$T/out" "heaviest values of user_id (the scheme's bucket field"
has hot "$T/out" "warning [hot-value] 5 values of user_id hold over half a region's mean rows, all in one region"
run hot-field 0 -- "$H" plan --rowkey '{id % 10}|{id}' --regions 10 --hot-field user_id "$ORDERS"
has hot-field "$T/out" "spread over regions"
has hot-field "$T/out" "info [hot-value-spread]"

# ---- sampling, codec measurement, input options, job file ----
run sample 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --sample 20% --seed 7 "$ORDERS"
has sample "$T/out" "(sample 20%: rows and MB below are estimates"
run sample-again 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --sample 0.2 --seed 7 "$ORDERS"
cp "$T/out" "$T/sample2"
run sample-3 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --sample 0.2 --seed 7 "$ORDERS"
cmp -s "$T/out" "$T/sample2" || fail "sample: the same seed gave different output"
run codec 0 -- "$H" plan --rowkey '{id % 10}|{id}' --splits "$SALT10" --codec gz "$ORDERS"
grep -qE '^compression \(gz, measured on 5,000 sorted sample rows in blocks\): [0-9.]+ MB -> [0-9.]+ MB, ratio 0\.[0-9]+$' \
  "$T/out" || fail "codec: $(grep -A1 compression "$T/out")"
printf '7\tx\n8\ty\n17\tz\n' >"$T/in.tsv"
run tsv 0 -- "$H" plan --format tsv --no-header --columns id,v --rowkey '{id % 10}|{id}' --regions 10 \
  --no-raw-key "$T/in.tsv"
has tsv "$T/out" "3 read, 3 analysed"
grep -qE '^ +7 7 +\| +2 +66\.7% ' "$T/out" || fail "tsv: region 7 row: $(cat "$T/out")"
hasnt tsv "$T/out" "BEFORE"
printf 'rowkey: "{id %% 10}|{id}"\nsplits: %s\ninputs:\n  - %s\n' "$SALT10" "$ORDERS" >"$T/job.yaml"
run job 0 -- "$H" plan --job "$T/job.yaml" --json
has job "$T/out" '"regions": 10'

# ---- usage and input errors ----
run no-rowkey 2 -- "$H" plan "$ORDERS"
has no-rowkey "$T/err" "needs --rowkey"
run both 2 -- "$H" plan --rowkey '{id}' --splits "$SALT10" --regions 4 "$ORDERS"
has both "$T/err" "exclude each other"
run bad-sample 2 -- "$H" plan --rowkey '{id}' --sample 2 "$ORDERS"
has bad-sample "$T/err" "bad --sample '2'"
run missing 1 -- "$H" plan --rowkey '{id}' "$T/nope.csv"
has missing "$T/err" "nope.csv"
run bad-template 2 -- "$H" plan --rowkey '{nope}' "$ORDERS"
has bad-template "$T/err" "rowkey '{nope}'"
run help 0 -- "$H" plan --help
has help "$T/out" "12 + 8 + rowkey + family + qualifier + value + 3"
run listed 0 -- "$H" --help
has listed "$T/out" "plan "

# ---- splits --algo sample ----
run split-sample 0 -- "$H" splits --algo sample --rowkey '{id}' --regions 10 --input "$ORDERS"
[ "$(wc -l <"$T/out")" -eq 9 ] || fail "split-sample: $(wc -l <"$T/out") keys, want 9"
sort -c "$T/out" 2>/dev/null || LC_ALL=C sort -c "$T/out" || fail "split-sample: keys not ascending"
cp "$T/out" "$T/sample-splits.txt"
run split-sample-plan 0 -- "$H" plan --rowkey '{id}' --splits "$T/sample-splits.txt" --json "$ORDERS"
if command -v python3 >/dev/null; then
  python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
rows = [r["rows"] for r in p["after"]["regions"]]
assert len(rows) == 10 and all(425 <= r <= 575 for r in rows), rows' "$T/out" || fail "split-sample: regions not within 15%"
fi
run split-sample-json 0 -- "$H" splits --algo sample --rowkey '{id}' --regions 3 --input "$ORDERS" --format json
has split-sample-json "$T/out" '"algorithm": "sample", "regions": 3'
printf '6\tx\n7\tx\n8\tx\n9\tx\n' >"$T/four.tsv"
run split-sample-tsv 0 -- "$H" splits --algo sample --rowkey '{id}' --regions 2 --input "$T/four.tsv" \
  --input-format tsv --no-header --columns id,v
[ "$(cat "$T/out")" = "8" ] || fail "split-sample-tsv: got '$(cat "$T/out")', want 8"
run split-sample-no-input 2 -- "$H" splits --algo sample --rowkey '{id}' --regions 3
has split-sample-no-input "$T/err" "--algo sample needs --rowkey and --input"
run split-input-no-sample 2 -- "$H" splits --rowkey '{id % 10}' --regions 3 --input "$ORDERS"
run split-sample-small 0 -- "$H" splits --algo sample --rowkey '{id}' --regions 4 --input "$T/in.tsv" \
  --input-format tsv --no-header --columns id,v
has split-sample-small "$T/err" "warning: the sample has too few distinct keys for 4 regions"

if [ "$fails" -ne 0 ]; then
  echo "plan: $fails scenario(s) failed" >&2
  exit 1
fi
echo "plan: all scenarios passed"

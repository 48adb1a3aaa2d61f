#!/usr/bin/env bash
# CLI scenario: records without cells. With the default --empty skip a record
# whose non-key fields are all empty yields no cell, so its row would not exist
# in HBase. `--empty-row skip` (the default) writes nothing for it and counts it
# as "records without cells"; `--empty-row marker[:FAMILY:QUALIFIER]` keeps the
# row with one empty-valued cell. Either way records read = written + rejected +
# duplicates dropped + without cells, in the summary, in manifest.json, in the
# per-region rows and in the rows `hfilegen inspect --cells` finds — also when
# duplicates (--on-duplicate first/last) and rejects are in the mix and the sort
# spills. The expected numbers come from an independent Python oracle.
# usage: build_empty_rows.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
manifest() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2" 2>/dev/null; }
region_rows() { awk '/^  region /{t=1; next} t && NF == 5 {s += $2} END {print s + 0}' <<<"$OUT"; }
rows_in_files() { # distinct rows over every HFile of an output
  for f in "$1"/*/*; do [ -f "$f" ] && "$H" inspect --cells --tsv "$f"; done | cut -f1 | sort -u | wc -l
}

# 30,000 records: ids 0..23,999 and 6,000 repeats; fields a, b, n (n mapped as long).
# A record is all-empty with a or b or neither set by the id; every 97th has a bad n.
python3 - <<'PY'
import random
random.seed(7)
rows = []
for i in range(24000):
    rows.append(i)
for _ in range(6000):
    rows.append(random.randrange(24000))
with open("in.csv", "w") as f:
    f.write("id,a,b,n\n")
    for k, i in enumerate(rows):
        r = random.random()
        a = "" if r < 0.3 else "a%d-%s" % (i, "x" * (k % 700))
        b = "" if r < 0.3 or r > 0.8 else "b%d" % k
        n = "x" if k % 97 == 5 else ("" if r < 0.3 else str(k))
        f.write("%d,%s,%s,%s\n" % (i, a, b, n))
PY
# oracle KEEP [store]: read written rejected dropped without
oracle() {
  python3 - "$@" <<'PY'
import csv, sys
keep = sys.argv[1]
store = len(sys.argv) > 2  # --empty store: an empty field is a cell, an empty n not a long
read = rejected = 0
seen = {}
for line, rec in enumerate(csv.DictReader(open("in.csv")), start=2):
    read += 1
    if (rec["n"] or store) and not rec["n"].lstrip("-").isdigit():
        rejected += 1
        continue
    empty = not (store or rec["a"] or rec["b"] or rec["n"])
    if keep == "last" or rec["id"] not in seen:
        seen[rec["id"]] = empty
without = sum(1 for e in seen.values() if e)
print(read, len(seen) - without, rejected, read - rejected - len(seen), without)
PY
}
printf '12\n4\n' >splits.txt
ARGS=(build --rowkey '{id}' --splits splits.txt --map n=cf:n:long --max-rejects 1000
      --memory 8m --timestamp 1720695600000)

check_identity() { # NAME OUTDIR EXPECTED(read written rejected dropped without)
  local name=$1 out=$2
  read -r e_read e_written e_rejected e_dropped e_without <<<"$3"
  local r w j d n
  r=$(summary "records read"); w=$(summary "records written"); j=$(summary "records rejected")
  d=$(summary "duplicates dropped"); n=$(summary "records without cells")
  [ "$r/$w/$j/$d/$n" = "$e_read/$e_written/$e_rejected/$e_dropped/$e_without" ] ||
    fail "$name: read/written/rejected/dropped/without $r/$w/$j/$d/$n, oracle $3"
  [ $((w + j + d + n)) -eq "$r" ] || fail "$name: $w + $j + $d + $n != $r records read"
  local m
  m="$(manifest "$out/manifest.json" records_read)/$(manifest "$out/manifest.json" records_written)"
  m="$m/$(manifest "$out/manifest.json" records_rejected)/$(manifest "$out/manifest.json" duplicates_dropped)"
  m="$m/$(manifest "$out/manifest.json" records_without_cells)"
  [ "$m" = "$r/$w/$j/$d/$n" ] || fail "$name: manifest counts $m, summary $r/$w/$j/$d/$n"
  [ "$(region_rows)" = "$w" ] || fail "$name: region rows add up to $(region_rows), written $w"
  [ "$(rows_in_files "$out")" = "$w" ] ||
    fail "$name: the HFiles hold $(rows_in_files "$out") rows, written $w"
}

# ---- skip (the default), with each duplicate policy ----
for keep in first last; do
  run "$H" "${ARGS[@]}" --on-duplicate $keep --out "skip_$keep" in.csv
  [ "$RC" -eq 0 ] || fail "skip/$keep: exit $RC: $ERR"
  has "$OUT" "spill runs" "skip/$keep summary"
  grep -q "spill runs *[1-9]" <<<"$OUT" || fail "skip/$keep: the 8 MiB budget did not spill"
  check_identity "skip/$keep" "skip_$keep" "$(oracle $keep)"
  has "$OUT" "no row in HBase" "skip/$keep summary explains the count"
  [ "$(manifest "skip_$keep/manifest.json" empty_row)" = skip ] || fail "skip/$keep: manifest empty_row"
done
run "$H" "${ARGS[@]}" --on-duplicate last --empty-row skip --out skip_flag in.csv
diff -r skip_last skip_flag >/dev/null || fail "--empty-row skip differs from the default"

# ---- marker: the same records, kept with one empty cell ----
run "$H" "${ARGS[@]}" --on-duplicate last --empty-row marker --out mark in.csv
[ "$RC" -eq 0 ] || fail "marker: exit $RC: $ERR"
read -r o_read o_written o_rejected o_dropped o_without <<<"$(oracle last)"
check_identity "marker" mark "$o_read $((o_written + o_without)) $o_rejected $o_dropped 0"
[ "$(summary "marker rows")" = "$o_without" ] || fail "marker rows '$(summary "marker rows")', expected $o_without"
[ "$(manifest mark/manifest.json marker_rows)" = "$o_without" ] || fail "manifest marker_rows"
[ "$(manifest mark/manifest.json marker_family)/$(manifest mark/manifest.json marker_qualifier)" = "cf/_0" ] ||
  fail "manifest marker cell is not cf:_0"
cells=$(for f in mark/cf/*; do "$H" inspect --cells --tsv "$f"; done)
[ "$(awk -F'\t' '$2 == "cf" && $3 == "_0" && $6 == ""' <<<"$cells" | wc -l)" = "$o_without" ] ||
  fail "marker: not $o_without empty cf:_0 cells"
# a marker is alone in its row: no row has it beside another cell
[ "$(awk -F'\t' '{n[$1]++} $3 == "_0" {m[$1] = 1} END {for (r in m) if (n[r] > 1) c++; print c + 0}' <<<"$cells")" = 0 ] ||
  fail "a marker cell shares its row with other cells"
# every row that skip wrote holds the same cells under marker (the markers aside)
for f in skip_last/cf/*; do "$H" inspect --cells --tsv "$f"; done | sort >skip.tsv
awk -F'\t' '$3 != "_0"' <<<"$cells" | sort >mark.tsv
cmp -s skip.tsv mark.tsv || fail "marker changed the other rows' cells"
run "$H" verify --quiet --splits splits.txt mark
[ "$RC" -eq 0 ] || fail "verify of the marker output: $OUT $ERR"

# ---- marker in a family of its own, and a chosen qualifier ----
run "$H" "${ARGS[@]}" --on-duplicate first --empty-row marker:e:exists --out mark2 in.csv
[ "$RC" -eq 0 ] || fail "marker:e:exists: exit $RC: $ERR"
read -r o_read o_written o_rejected o_dropped o_without <<<"$(oracle first)"
check_identity "marker:e:exists" mark2 "$o_read $((o_written + o_without)) $o_rejected $o_dropped 0"
has "$OUT" "written with only the cell e:exists" "marker:e:exists summary"
[ "$(for f in mark2/e/*; do "$H" inspect --cells --tsv "$f"; done | awk -F'\t' '$2 == "e" && $3 == "exists" && $6 == ""' | wc -l)" = "$o_without" ] ||
  fail "marker:e:exists: not $o_without empty e:exists cells in family dir e"
[ "$(manifest mark2/manifest.json marker_family)" = e ] || fail "manifest marker_family e"

# ---- a job file key, and a bad value ----
printf 'empty_row: marker\n' >job.yaml
run "$H" "${ARGS[@]}" --job job.yaml --on-duplicate last --out markjob in.csv
diff -r mark markjob >/dev/null || fail "empty_row: marker in a job file differs from the flag"
run "$H" "${ARGS[@]}" --empty-row maybe --out never in.csv
[ "$RC" -eq 2 ] && grep -q "expected skip, marker" <<<"$ERR" || fail "a bad --empty-row value is not a usage error: $RC $ERR"

# ---- --empty store: empty fields are cells, so no record is without cells ----
run "$H" "${ARGS[@]}" --on-duplicate last --empty store --max-rejects 100000 --out store in.csv
[ "$RC" -eq 0 ] || fail "store: exit $RC: $ERR"
check_identity "store" store "$(oracle last store)"
[ "$(summary "records without cells")" = 0 ] || fail "store: records without cells"

# ---- --on-duplicate error: an empty record is still a duplicate, naming both lines ----
printf 'id,a\n1,x\n2,\n1,\n' >dup.csv
run "$H" build --rowkey '{id}' --out dup dup.csv
[ "$RC" -eq 1 ] && grep -q "duplicate rowkey '1'.*line 2 and .*line 4" <<<"$ERR" ||
  fail "an empty duplicate does not fail the job naming both lines: $RC $ERR"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "build_empty_rows: all checks passed"

#!/usr/bin/env bash
# CLI scenario: a build that fails after it started (a duplicate rowkey under
# --on-duplicate error, --max-rejects exceeded, every record rejected, a file
# size limit while writing) leaves the output path as it was before the job: an
# --out that did not exist does not exist (nor the parents the job created for
# it), an existing empty one stays empty, an existing one keeps what it held (an
# idle family directory a user made) and gains nothing. The one exception is
# the rejects file, as README.md says ("a failed job leaves <out> with nothing
# loadable in it (and _rejects.tsv when records were rejected)"): by default
# <out>/_rejects.tsv stays, and with it <out>; a --rejects path outside <out>
# stays and <out> does not appear. The old build brought a failed job's
# directory back with its empty family folders, and created it to do so. rekey
# shares the rule (tests/cli/rekey_hostile.sh).
# usage: build_failed_out.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
trap 'chmod -R u+w "$W" 2>/dev/null; rm -rf "$W"' EXIT
# failed WHAT: exit 1, 'nothing was published', no staging directory anywhere
failed() {
  [ "$RC" -eq 1 ] || fail "$1: exit $RC, expected 1: $ERR"
  has "$ERR" "nothing was published" "$1"
  [ -z "$(find "$W" -name '*.hfilegen-staging*')" ] || fail "$1: a staging directory is left"
}
# tree DIR: what DIR holds, one path a line (empty when DIR is empty)
tree() { (cd "$1" && find . -mindepth 1 | sort); }

printf 'id,a,b\n1,x,y\n2,x,y\n1,z,z\n' >dup.csv
printf 'id,a,b\n1,x,y\nq,x,y\n3,z,z\nr,z,z\n' >bad.csv
printf 'id,a,b\nq,x,y\nr,z,z\n' >allbad.csv
seq 1 40000 | awk 'BEGIN { print "id,a,b" } { print $1 ",aaaaaaaaaaaaaaaaaaaaaaaa," $1 * 7 }' >big.csv
{ cat big.csv && echo '17,again,1'; } >bigdup.csv
MAP=(--map a=f1:a --map b=f2:b --map id=f1:id:long)

# ---- a duplicate rowkey: the output path as it was ----
run "$H" build --rowkey '{id}' "${MAP[@]}" --out o1 --quiet dup.csv
failed "duplicate, new --out"
has "$ERR" "duplicate rowkey '1'" "duplicate, new --out"
[ ! -e o1 ] || fail "duplicate, new --out: o1 left behind: $(tree o1 | tr '\n' ' ')"

run "$H" build --rowkey '{id}' "${MAP[@]}" --out new/deeper/o1b --quiet dup.csv
failed "duplicate, new --out under new parents"
[ ! -e new ] || fail "duplicate, new parents: new/ left behind: $(tree new | tr '\n' ' ')"

run "$H" build --rowkey '{id}' "${MAP[@]}" --threads 2 --ingest-chunk 64k --out o1t --quiet bigdup.csv
failed "duplicate, parallel ingest"
[ ! -e o1t ] || fail "duplicate, --threads 2: o1t left behind: $(tree o1t | tr '\n' ' ')"

mkdir o2
run "$H" build --rowkey '{id}' "${MAP[@]}" --out o2 --quiet dup.csv
failed "duplicate, empty --out"
[ -d o2 ] || fail "duplicate, empty --out: o2 is gone"
[ -z "$(tree o2)" ] || fail "duplicate, empty --out: o2 is not empty: $(tree o2 | tr '\n' ' ')"

mkdir -p o3/f1 && : >o3/_notes
run "$H" build --rowkey '{id}' "${MAP[@]}" --out o3 --quiet dup.csv
failed "duplicate, --out holding an idle family directory"
[ "$(tree o3 | tr '\n' ' ')" = "./_notes ./f1 " ] ||
  fail "duplicate, --out with f1/ and _notes: now holds $(tree o3 | tr '\n' ' ')"

# ---- --max-rejects exceeded ----
run "$H" build --rowkey '{id}' "${MAP[@]}" --max-rejects 1 --out o4 --quiet bad.csv
failed "--max-rejects, default rejects file"
has "$ERR" "see o4/_rejects.tsv" "--max-rejects, default rejects file"
[ "$(tree o4 | tr '\n' ' ')" = "./_rejects.tsv " ] ||
  fail "--max-rejects: o4 should hold only _rejects.tsv, holds: $(tree o4 | tr '\n' ' ')"
[ "$(cut -f2 o4/_rejects.tsv 2>/dev/null | tr '\n' ' ')" = "3 5 " ] ||
  fail "--max-rejects: _rejects.tsv lacks lines 3 and 5"

run "$H" build --rowkey '{id}' "${MAP[@]}" --max-rejects 1 --rejects rej.tsv --out o5 --quiet bad.csv
failed "--max-rejects, --rejects outside --out"
[ ! -e o5 ] || fail "--max-rejects, --rejects outside: o5 left behind: $(tree o5 | tr '\n' ' ')"
[ "$(cut -f2 rej.tsv 2>/dev/null | tr '\n' ' ')" = "3 5 " ] ||
  fail "--max-rejects, --rejects outside: rej.tsv lacks lines 3 and 5"

mkdir o6
run "$H" build --rowkey '{id}' "${MAP[@]}" --max-rejects 1 --rejects rej6.tsv --out o6 --quiet bad.csv
failed "--max-rejects, empty --out, --rejects outside"
[ -d o6 ] && [ -z "$(tree o6)" ] || fail "--max-rejects, empty o6: now $(tree o6 2>&1 | tr '\n' ' ')"

# ---- every record rejected (a value that does not encode as long) ----
run "$H" build --rowkey '{id}' "${MAP[@]}" --max-rejects 10 --rejects rej7.tsv --out o7 --quiet allbad.csv
failed "all rejected"
has "$ERR" "all 2 records were rejected" "all rejected"
[ ! -e o7 ] || fail "all rejected: o7 left behind: $(tree o7 | tr '\n' ' ')"
[ "$(wc -l <rej7.tsv 2>/dev/null)" = 2 ] || fail "all rejected: rej7.tsv lacks the 2 rejects"

# ---- a failure while writing (a file size limit) over an existing empty --out ----
mkdir o8
(ulimit -f 64; "$H" build --rowkey '{id}' --codec none --out o8 --quiet big.csv) >out 2>err
RC=$?
ERR=$(cat err)
failed "ulimit -f"
[ -d o8 ] && [ -z "$(tree o8)" ] || fail "ulimit -f, empty o8: now $(tree o8 2>&1 | tr '\n' ' ')"
(ulimit -f 64; "$H" build --rowkey '{id}' --codec none --out o9 --quiet big.csv) >out 2>err
RC=$?
ERR=$(cat err)
failed "ulimit -f, new --out"
[ ! -e o9 ] || fail "ulimit -f, new --out: o9 left behind: $(tree o9 | tr '\n' ' ')"

# ---- the same jobs succeed into the directories they failed in ----
run "$H" build --rowkey '{id}' "${MAP[@]}" --on-duplicate last --out o3 --quiet dup.csv
[ "$RC" -eq 0 ] && [ -f o3/_SUCCESS ] || fail "rerun into o3: exit $RC: $ERR"
run "$H" build --rowkey '{id}' "${MAP[@]}" --max-rejects 5 --out o4 --quiet bad.csv
[ "$RC" -eq 0 ] && [ -f o4/_SUCCESS ] || fail "rerun into o4 (holding _rejects.tsv): exit $RC: $ERR"

if [ "$failures" -eq 0 ]; then echo "build_failed_out: all checks passed"; exit 0; fi
echo "build_failed_out: $failures check(s) failed"
exit 1

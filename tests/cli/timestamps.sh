#!/usr/bin/env bash
# CLI scenarios for cell timestamps: --timestamp overrides a job file's timestamp in every
# form; a column job's summary names what reproduces its files (--job-timestamp) and that
# rerun is byte-identical; epoch seconds/micro/nanoseconds are rejected naming the unit, and
# column:NAME:s|ms|us|ns convert; datetime zone offsets are read, unsupported pattern letters
# fail the job before any record; a job whose every record was rejected fails.
#   bash tests/cli/timestamps.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
# the timestamps of the cells of qualifier $2 in output $1, "row ts" per line, by row
stamps() { for f in "$1"/cf/*; do "$H" inspect --cells --tsv "$f"; done |
           awk -F'\t' -v q="$2" '$3 == q { print $1, $4 }' | LC_ALL=C sort; }
nothing_published() { [ ! -f "$1/_SUCCESS" ] && [ -z "$(find "$1" -type f ! -name _rejects.tsv 2>/dev/null)" ]; }
cd "$T" || exit 1

# ---- 1. a --timestamp flag replaces the job file's timestamp, whatever the forms ----
printf 'id,when,v\n1,2024-07-11 23:59:59,a\n2,2024-07-12 00:00:01,b\n' > when.csv
cat > col.yaml <<EOF
rowkey: "{id}"
timestamp: "column:when:yyyy-MM-dd HH:mm:ss"
EOF
cat > const.yaml <<EOF
rowkey: "{id}"
timestamp: 7
EOF
"$H" build --job col.yaml --out p1 --timestamp 5 --quiet when.csv
check "--timestamp MILLIS overrides the job file's column" '[ "$(stamps p1 v)" = "$(printf "1 5\n2 5")" ]'
"$H" build --job col.yaml --out p2 --timestamp now --quiet when.csv
now_ms=$(( $(date +%s) * 1000 ))
check "--timestamp now overrides the job file's column" \
  '[ $(stamps p2 v | awk -v n=$now_ms "\$2 > n - 600000 && \$2 <= n + 1000" | wc -l) -eq 2 ]'
"$H" build --job const.yaml --out p3 --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' when.csv > p3.out
check "--timestamp column:... overrides the job file's constant" \
  '[ "$(stamps p3 v)" = "$(printf "1 1720742399000\n2 1720742401000")" ]'
check "... entirely: the constant does not stay on as the job timestamp" \
  'grep -q "from column when; job timestamp [0-9]" p3.out && ! grep -q "job timestamp 7 " p3.out'
"$H" build --job col.yaml --out p4 --quiet when.csv
check "the job file's column applies without a flag" \
  '[ "$(stamps p4 v)" = "$(printf "1 1720742399000\n2 1720742401000")" ]'
"$H" build --rowkey '{id}' --out p5 --timestamp '' --quiet when.csv 2>p5.err
rc=$?
check "an empty --timestamp is refused" '[ $rc -ne 0 ] && grep -q "expected now, epoch milliseconds" p5.err'

# ---- 2. the summary of a column job says what reproduces it, and that rerun does ----
"$H" build --rowkey '{id}' --out r1 --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' when.csv > r1.out
JT=$(sed -n 's/.*rerun with --job-timestamp \([0-9]*\) to reproduce them.*/\1/p' r1.out)
check "a column job's summary names --job-timestamp" '[ -n "$JT" ]'
check "a column job's summary does not say to rerun with --timestamp" '! grep -q -- "--timestamp [0-9]" r1.out'
"$H" build --rowkey '{id}' --out r2 --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' \
  --job-timestamp "$JT" --quiet when.csv
check "the rerun with --job-timestamp names its files alike" '[ "$(ls r1/cf)" = "$(ls r2/cf)" ]'
check "... and writes the same bytes" 'cmp -s r1/cf/$(ls r1/cf) r2/cf/$(ls r2/cf)'
check "... with the cells still stamped by the column" \
  '[ "$(stamps r2 v)" = "$(printf "1 1720742399000\n2 1720742401000")" ]'
"$H" build --job col.yaml --out r3 --job-timestamp "$JT" --quiet when.csv
check "--job-timestamp keeps a job file's column" 'cmp -s r1/cf/$(ls r1/cf) r3/cf/$(ls r3/cf)'
"$H" build --rowkey '{id}' --out r4 --timestamp 5 --job-timestamp 6 --quiet when.csv 2>r4.err
rc=$?
check "--job-timestamp without a column is refused" '[ $rc -eq 1 ] && grep -q "job timestamp" r4.err && nothing_published r4'

# ---- 3. units: the magnitude of plain milliseconds is checked; explicit units convert ----
printf 'id,ts\n1,1720695600\n2,1720695600123\n3,1720695600123999\n4,1720695600123456789\n5,-5\n' > units.csv
"$H" build --rowkey '{id}' --out u0 --timestamp column:ts --max-rejects 10 --quiet units.csv
check "epoch milliseconds are taken as they are" '[ "$(stamps u0 ts)" = "2 1720695600123" ]'
check "epoch seconds are rejected naming the unit and the fix" \
  'grep -q "units.csv	2	.*looks like epoch seconds.*column:ts:s" u0/_rejects.tsv'
check "epoch microseconds are rejected naming the unit and the fix" \
  'grep -q "units.csv	4	.*looks like epoch microseconds.*column:ts:us" u0/_rejects.tsv'
check "epoch nanoseconds are rejected naming the unit and the fix" \
  'grep -q "units.csv	5	.*looks like epoch nanoseconds.*column:ts:ns" u0/_rejects.tsv'
check "negative timestamps are rejected" 'grep -q "units.csv	6	.*negative" u0/_rejects.tsv'
"$H" build --rowkey '{id}' --out u1 --timestamp column:ts:s --max-rejects 10 --quiet units.csv
check "column:ts:s converts seconds (and rejects what overflows)" \
  '[ "$(stamps u1 ts | head -3)" = "$(printf "1 1720695600000\n2 1720695600123000\n3 1720695600123999000")" ] && grep -q "units.csv	5	.*do not fit" u1/_rejects.tsv'
"$H" build --rowkey '{id}' --out u2 --timestamp column:ts:us --max-rejects 10 --quiet units.csv
check "column:ts:us converts microseconds" '[ "$(stamps u2 ts | sed -n 3p)" = "3 1720695600123" ]'
"$H" build --rowkey '{id}' --out u3 --timestamp column:ts:ns --max-rejects 10 --quiet units.csv
check "column:ts:ns converts nanoseconds" '[ "$(stamps u3 ts | sed -n 4p)" = "4 1720695600123" ]'
"$H" build --rowkey '{id}' --out u4 --timestamp column:ts:ms --max-rejects 10 --quiet units.csv
check "column:ts:ms takes any non-negative value as milliseconds" \
  '[ "$(stamps u4 ts | head -1)" = "1 1720695600" ] && [ $(wc -l < u4/_rejects.tsv) -eq 1 ]'

# ---- 4. datetime zones ----
printf 'id,when\n1,2024-03-01T01:00:00+05:30\n2,2023-12-31T23:30:00-08:00\n3,2024-07-11T23:59:59Z\n' > z.csv
"$H" build --rowkey '{id}' --out z1 --timestamp "column:when:yyyy-MM-dd'T'HH:mm:ssXXX" --quiet z.csv
check "ISO offsets and Z are read (instants from Python's datetime)" \
  '[ "$(stamps z1 when)" = "$(printf "1 1709235000000\n2 1704094200000\n3 1720742399000")" ]'
printf 'id,when\n1,2024-03-01 01:00:00 +0530\n' > rfc.csv
"$H" build --rowkey '{id}' --out z2 --timestamp "column:when:yyyy-MM-dd HH:mm:ss Z" --quiet rfc.csv
check "RFC 822 offsets are read" '[ "$(stamps z2 when)" = "1 1709235000000" ]'
"$H" build --rowkey '{id}' --out z3 --timestamp "column:when:yyyy-MM-dd'T'HH:mm:ss z" \
  --max-rejects 10 z.csv > z3.out 2> z3.err
rc=$?
check "a named-zone pattern fails the job" '[ $rc -eq 1 ]'
check "... naming the letter" 'grep -q "pattern .*'"'"'z'"'"' (a time zone name) is not supported" z3.err'
check "... before any record is read" 'grep -q "(0 records read, 0 rejected)" z3.err && [ ! -e z3/_rejects.tsv ] && nothing_published z3'

check "a rowkey date format reads the offset too (the UTC day)" \
  '"$H" key --rowkey "{day(t, '"'"'yyyy-MM-dd HH:mm:ssXXX'"'"')}" "t=2024-07-11 00:30:00+02:00" | grep -q "^rowkey: *20240710$"'
check "... and refuses a named zone when compiled" \
  '! "$H" key --rowkey "{day(t, '"'"'yyyy-MM-dd z'"'"')}" "t=2024-07-11 UTC" 2>&1 | grep -q "^rowkey:" && "$H" key --rowkey "{day(t, '"'"'yyyy-MM-dd z'"'"')}" "t=x" 2>&1 | grep -q "'"'"'z'"'"' (a time zone name)"'

# ---- 5. a job whose every record was rejected fails, whatever --max-rejects allows ----
"$H" build --rowkey '{id}' --out a1 --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' \
  --max-rejects 100 z.csv > a1.out 2> a1.err
rc=$?
check "all records rejected: the job fails" '[ $rc -eq 1 ]'
check "... saying all were rejected and where they are" 'grep -q "all 3 records were rejected (see a1/_rejects.tsv)" a1.err'
check "... publishing nothing and keeping the rejects" 'nothing_published a1 && [ $(wc -l < a1/_rejects.tsv) -eq 3 ]'
printf 'id,when\n' > empty.csv
"$H" build --rowkey '{id}' --out a2 --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' --quiet empty.csv
rc=$?
check "an input without records still succeeds" '[ $rc -eq 0 ] && [ -f a2/_SUCCESS ]'

echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

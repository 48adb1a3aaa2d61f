#!/usr/bin/env bash
# CLI scenarios for what a new user hits with the inputs (issue #11): mappings that would
# put two cells with one key in a file, compressed and UTF-16 inputs, the TSV guess from
# the name shared by every command, unknown columns explained, --header --columns.
#   bash tests/cli/inputs.sh HFILEGEN SOURCE_DIR
set -u
H=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok; else bad "$1"; fi; }
TS=1720695600000
cells() { for f in "$1"/cf/*; do "$H" inspect --cells --tsv "$f"; done; }
unpublished() { [ ! -e "$1/_SUCCESS" ] && [ -z "$(find "$1" -type f ! -name "_*" 2>/dev/null)" ]; }

# ---- 1. two cells with one key are refused up front -----------------------------------
printf 'id,x,x\n1,a,b\n2,c,d\n' > "$T/rep.csv"
"$H" build --rowkey '{id}' --out "$T/r1" --timestamp $TS --quiet "$T/rep.csv" 2> "$T/r1.err"
check "repeated header name fails" '[ $? -ne 0 ] && unpublished "$T/r1"'
check "repeated name: message names both columns and the cell" \
  'grep -q "columns 2 (x) and 3 (x) both become the cell cf:x" "$T/r1.err"'
printf 'id,a,b\n1,p,q\n' > "$T/ab.csv"
"$H" build --rowkey '{id}' --out "$T/r2" --map a=cf:v --map b=cf:v --quiet "$T/ab.csv" 2> "$T/r2.err"
check "two --map onto one qualifier fail naming both" \
  '[ $? -ne 0 ] && grep -q "columns 2 (a) and 3 (b) both become the cell cf:v" "$T/r2.err" && unpublished "$T/r2"'
"$H" build --rowkey '{id}' --out "$T/r3" --map a=cf:b --quiet "$T/ab.csv" 2> "$T/r3.err"
check "--map onto another column's default qualifier fails" \
  'grep -q "columns 2 (a) and 3 (b) both become the cell cf:b" "$T/r3.err" && unpublished "$T/r3"'
"$H" build --rowkey '{id}' --out "$T/r4" --map a=d:b --timestamp $TS --quiet "$T/ab.csv"
check "the same qualifier in another family is fine" '[ -f "$T/r4/_SUCCESS" ]'
"$H" plan --rowkey '{id}' --map a=cf:v --map b=cf:v "$T/ab.csv" > /dev/null 2> "$T/p1.err"
check "plan refuses the same mapping" '[ $? -ne 0 ] && grep -q "both become the cell cf:v" "$T/p1.err"'
"$H" splits --algo sample --rowkey '{id}' --regions 2 --input "$T/rep.csv" > /dev/null 2> "$T/s1.err"
check "splits --algo sample refuses a repeated name" '[ $? -ne 0 ] && grep -q "both become the cell cf:x" "$T/s1.err"'
printf 'id,id,x\n1,2,a\n' > "$T/idid.csv"
"$H" build --rowkey '{id}' --out "$T/r5" --quiet "$T/idid.csv" 2> "$T/r5.err"
check "a repeated name the rowkey reads is ambiguous" \
  '[ $? -ne 0 ] && grep -q "columns 1 and 2 are both named .id. and the rowkey template" "$T/r5.err"'

echo "inputs: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

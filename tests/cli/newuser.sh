#!/usr/bin/env bash
# CLI scenarios for where a new user trips (the "be a new user" pass): each section is a
# mistake or an environment a real user has, and what hfilegen must do about it.
#   bash tests/cli/newuser.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
TS=1720695600000
unpublished() { [ ! -e "$1/_SUCCESS" ] && [ -z "$(find "$1" -type f ! -name "_*" 2>/dev/null)" ]; }
python3 "$SRC/tools/make_sample.py" 20000 "$T/big.csv" > /dev/null

# ---- 1. a file size limit (ulimit -f) fails the job cleanly --------------------------
# SIGXFSZ's default action killed the process mid-write: no message, the staging
# directory left behind and the user's own (empty) output directory hidden inside it.
mkdir "$T/fs"
(ulimit -f 256; "$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" \
  --codec none --timestamp $TS --quiet --out "$T/fs" "$T/big.csv") 2> "$T/fs.err"
rc=$?
check "ulimit -f: exit 1, not killed by SIGXFSZ (rc $rc)" '[ $rc -eq 1 ]'
check "ulimit -f: the error names the file and the reason" 'grep -q "File too large" "$T/fs.err"'
check "ulimit -f: the output directory is back, nothing loadable in it" \
  '[ -d "$T/fs" ] && unpublished "$T/fs"'
check "ulimit -f: no staging directory left" '[ ! -e "$T/.fs.hfilegen-staging" ]'

# ---- 2. a rowkey template without a column ------------------------------------------
# '--rowkey id' (for '{id}') is a constant: every record got the rowkey 'id', the build
# failed on a duplicate and pointed at --on-duplicate last, which keeps one row of all.
"$H" build --rowkey id --out "$T/k1" --quiet "$SRC/samples/orders.csv" 2> "$T/k1.err"
rc=$?
check "constant rowkey: refused as a usage error (rc $rc)" '[ $rc -eq 2 ] && unpublished "$T/k1"'
check "constant rowkey: says why and what to write" \
  'grep -q "uses no column: every record would get this one rowkey" "$T/k1.err" && grep -q "{id}" "$T/k1.err"'
check "constant rowkey: not the --on-duplicate advice" '! grep -q "on-duplicate" "$T/k1.err"'
printf 'rowkey: "id"\ninputs: [%s]\nout: %s\n' "$SRC/samples/orders.csv" "$T/k2" > "$T/k2.yaml"
"$H" build --job "$T/k2.yaml" --quiet 2> "$T/k2.err"
check "constant rowkey in a job file: refused too" '[ $? -eq 2 ] && grep -q "uses no column" "$T/k2.err"'
"$H" lint --rowkey id > "$T/k3.out" 2>&1
check "lint: constant-key is an error (exit 1)" '[ $? -eq 1 ] && grep -q "^error   constant-key" "$T/k3.out"'
"$H" build --rowkey 'salt:id:10' --out "$T/k4" --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "a preset names its column: built" '[ -f "$T/k4/_SUCCESS" ]'

echo "newuser: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

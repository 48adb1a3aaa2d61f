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

echo "newuser: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

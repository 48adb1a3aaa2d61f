#!/usr/bin/env bash
# CLI scenario: hfilegen rekey over broken snapshots (tests/cli/rekey_snapshot.py lays a
# two-region build out as snapshot s1: a plain store file, an HFileLink, a split parent's
# references). Each break must exit non-zero with an error naming the file, and publish
# nothing: --out absent (or, when it held an earlier output, unchanged), no staging
# directory or spill runs left beside it. A link's target found in archive/ or .tmp/
# instead of data/ is no break. A truncated store file, a truncated data.manifest and a
# garbled region manifest (the layout without data.manifest) are breaks too, and so are
# a reference whose file (when the manifest holds no Reference) is gone or garbled.
#   bash tests/cli/rekey_hostile.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
H=$(readlink -f "$H")
SRC=$(readlink -f "$SRC")
cd "$T" || exit 1
TS=1720695600000
python3 "$SRC/tools/make_sample.py" 2000 in.csv
printf '5\n' >split5.txt
"$H" build --rowkey '{id}' --splits split5.txt --out old --timestamp $TS --quiet \
  --map note=d:note in.csv || bad "old table build"
layout() { # layout NAME [--layout regions]: a fresh root; its breakable files as variables
  rm -rf "$1"
  python3 "$SRC/tests/cli/rekey_snapshot.py" old "$1" "${@:2}" >"$1.files" || bad "layout $1"
  # shellcheck disable=SC1090
  . "$1.files"
}
rekey() { # rekey ROOT OUT [flags]: stderr+stdout in $T/log, exit code in rc
  "$H" rekey --from "$1" --snapshot s1 --old-key '{id}' --rowkey '{id % 10}|{id}' \
    --splits "$SRC/samples/splits/salt10.txt" --out "$2" --job-timestamp $TS --as-of $TS \
    --memory 8m "${@:3}" >"$T/log" 2>&1
  rc=$?
  [ -z "${SHOWLOG:-}" ] || sed 's/^/    | /' "$T/log" >&2
}
nothing_left() { # nothing_left NAME OUT: no output, no staging, no spill runs beside it
  if [ -e "$2" ]; then bad "$1: $2 was published: $(ls -A "$2")"; else ok; fi
  local left
  left=$(ls -A "$(dirname "$2")" | grep -F -- ".$(basename "$2").hfilegen" || true)
  [ -z "$left" ] && ok || bad "$1: staging left: $left"
}
# expect_fail NAME ROOT OUT PATTERN...: exit 1, the log holding every pattern, nothing left
expect_fail() {
  local name=$1 root=$2 out=$3
  shift 3
  rekey "$root" "$out"
  [ "$rc" -eq 1 ] && ok || bad "$name: exit $rc, want 1: $(tr '\n' ' ' <"$T/log")"
  for pat in "$@"; do
    grep -qF -- "$pat" "$T/log" && ok || bad "$name: output lacks [$pat]: $(tr '\n' ' ' <"$T/log")"
  done
  grep -qF "nothing was published in $out" "$T/log" && ok ||
    bad "$name: no 'nothing was published': $(tr '\n' ' ' <"$T/log")"
  nothing_left "$name" "$out"
}

# ---- the unbroken snapshot reads (the fixture itself is sound) ----
layout r0
rekey r0 good
[ "$rc" -eq 0 ] && ok || bad "unbroken snapshot: exit $rc: $(cat "$T/log")"
grep -qF "old rows          2000 read = 2000 written + 0 rejected" "$T/log" && ok || bad "unbroken: $(cat "$T/log")"
good_sum=$(cd good && find . -type f ! -name manifest.json -exec md5sum {} + | LC_ALL=C sort)

# ---- a missing store file ----
layout r1
rm "$PLAIN"
# every place looked: r1/{data,archive/data,.tmp/data,mobdir/data}/default/old/REGION/cf/FILE
expect_fail "missing store file" r1 o1 "{data,archive/data,.tmp/data,mobdir/data}/${PLAIN#r1/data/}"

# ---- a truncated store file ----
layout r2
head -c 300 "$PLAIN" >"$T/cut" && mv "$T/cut" "$PLAIN"
expect_fail "truncated store file" r2 o2 "$PLAIN"

# ---- a store file garbled mid-way (same size): found while the rows stream in ----
layout r2b
size=$(stat -c %s "$PARENT")
printf 'garbled!garbled!' | dd of="$PARENT" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
expect_fail "garbled store file" r2b o2b "${PARENT#r2b/}"

# ---- an HFileLink's target: in archive/, in .tmp/, then nowhere ----
layout r3
rel=${LINK#r3/data/}
mkdir -p "r3/archive/data/$(dirname "$rel")"
mv "$LINK" "r3/archive/data/$rel"
rekey r3 o3a
[ "$rc" -eq 0 ] && ok || bad "link target in archive/: exit $rc: $(cat "$T/log")"
mkdir -p "r3/.tmp/data/$(dirname "$rel")"
mv "r3/archive/data/$rel" "r3/.tmp/data/$rel"
rekey r3 o3b
[ "$rc" -eq 0 ] && ok || bad "link target in .tmp/: exit $rc: $(cat "$T/log")"
rm "r3/.tmp/data/$rel"
expect_fail "link target gone" r3 o3c "link $LINK_NAME" "r3/{data,archive/data,.tmp/data,mobdir/data}/$rel"

# ---- a reference whose parent's file is gone ----
layout r4
expect_fail_parent() {
  rm "$PARENT"
  expect_fail "reference without its parent" r4 o4 "{data,archive/data,.tmp/data,mobdir/data}/${PARENT#r4/data/}"
}
expect_fail_parent

# ---- references without the manifest's Reference: their files hold it ----
layout r9 --ref-files
rekey r9 o9ok
[ "$rc" -eq 0 ] && ok || bad "references from their files: exit $rc: $(cat "$T/log")"
o9sum=$(cd o9ok 2>/dev/null && find . -type f ! -name manifest.json -exec md5sum {} + | LC_ALL=C sort)
[ "$o9sum" = "$good_sum" ] && ok || bad "references from their files: output differs from r0's"
rm "$REF_FILE"
# named where looked: the snapshot directory's name file and the region's reference file
expect_fail "reference file gone" r9 o9 "$(basename "$REF_FILE")" "${REF_FILE#r9/data/}"

layout r10 --ref-files
printf 'PBUF\x0a\x7f' >"$REF_FILE" # a split key longer than the file
expect_fail "garbled reference file" r10 o10 "$REF_FILE"

# ---- a truncated data.manifest ----
layout r5
size=$(stat -c %s "$DATA_MANIFEST")
head -c $((size / 2)) "$DATA_MANIFEST" >"$T/cut" && mv "$T/cut" "$DATA_MANIFEST"
expect_fail "truncated data.manifest" r5 o5 "$DATA_MANIFEST"

# ---- a garbled region manifest (a snapshot copied while being taken) ----
layout r6 --layout regions
rekey r6 o6ok
[ "$rc" -eq 0 ] && ok || bad "region-manifest layout: exit $rc: $(cat "$T/log")"
printf '\xff\xff\xff\xff\xff\xff' | dd of="$REGION_MANIFEST" bs=1 seek=2 conv=notrunc 2>/dev/null
expect_fail "garbled region manifest" r6 o6 "$REGION_MANIFEST"

# ---- over --max-rejects: the rejects file stays (the error points to it), nothing else ----
"$H" rekey --from r0 --snapshot s1 --old-key '{id:int}' --rowkey '{id}' --out o8 \
  --splits "$SRC/samples/splits/salt10.txt" >"$T/log" 2>&1
rc=$?
[ "$rc" -eq 1 ] && grep -qF "see o8/_rejects.tsv" "$T/log" && ok ||
  bad "over --max-rejects: exit $rc: $(tr '\n' ' ' <"$T/log")"
[ "$(ls -A o8 2>&1)" = "_rejects.tsv" ] && ok || bad "over --max-rejects, o8 holds: $(ls -A o8 2>&1)"

# ---- a failure over an earlier output leaves it unchanged ----
layout r7
rm "$PARENT"
rekey r7 good
[ "$rc" -eq 1 ] && ok || bad "failure over an earlier output: exit $rc"
now_sum=$(cd good && find . -type f ! -name manifest.json -exec md5sum {} + | LC_ALL=C sort)
[ "$now_sum" = "$good_sum" ] && [ -e good/_SUCCESS ] && ok ||
  bad "a failed rekey changed the earlier output in good/"
left=$(ls -A . | grep -F ".good.hfilegen" || true)
[ -z "$left" ] && ok || bad "staging left beside good/: $left"

echo "rekey_hostile: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

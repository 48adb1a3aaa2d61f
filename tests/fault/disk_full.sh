#!/usr/bin/env bash
# Disk full: `hfilegen build` with its output, and then its spill directory
# (--tmp-dir), on a small tmpfs that fills up. The build must fail with exit 1,
# say "No space left on device" and name a file on the full file system, and
# leave nothing loadable (no _SUCCESS, no HFile, no temporary, no staging
# directory; the rejects file may stay). After the file system is grown
# (remount with a larger size) the same command into the same directory
# succeeds and writes exactly what a run on a roomy disk writes.
#
# Needs root (mount -t tmpfs); exits 77 (ctest: skipped) where mounting is not
# permitted — ENOSPC is then covered only by the injected faults of test_fault.
# usage: disk_full.sh HFILEGEN_BINARY SOURCE_DIR
set -u
H=${1:?hfilegen binary}
SRC=${2:?source dir}
W=$(mktemp -d "${TMPDIR:-/tmp}/hfg-diskfull-XXXXXX")
M="$W/small"
mkdir -p "$M"
cleanup() {
  mountpoint -q "$M" 2>/dev/null && umount "$M"
  rm -rf "$W"
}
trap cleanup EXIT
if ! mount -t tmpfs -o size=2m tmpfs "$M" 2>"$W/mount.err"; then
  echo "SKIP: cannot mount a tmpfs ($(cat "$W/mount.err")); ENOSPC is covered by test_fault"
  exit 77
fi
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# ~9 MB of records: ~29 MB of HFiles, ~15 MB of spill runs at --memory 8m
awk 'BEGIN { srand(11); print "id,user,amount,status,note";
  for (i = 0; i < 140000; i++)
    printf "%d,u%d,%d.%02d,%s,note-%d-%s\n", i, int(rand() * 5000), int(rand() * 10000),
      int(rand() * 100), (rand() < 0.5 ? "PAID" : "NEW"), i,
      substr("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", 1 + int(rand() * 20), 30)
  print "bad,record" }' >"$W/in.csv"
printf '1\n2\n3\n' >"$W/splits.txt"
ARGS=(build --quiet --rowkey '{id % 4}|{id}' --splits "$W/splits.txt" --map note=d:note
      --timestamp 1720695600000 --memory 8m --max-file-size 2m --max-rejects 5)
sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs -r sha256sum); }

"$H" "${ARGS[@]}" --out "$W/ref" "$W/in.csv" >"$W/ref.log" 2>&1 || { cat "$W/ref.log"; exit 1; }
sums "$W/ref" >"$W/ref.sums"

# check_failed DIR LOG WHAT: the failure report and what is left in DIR
check_failed() {
  local out=$1 log=$2 what=$3
  grep -q "FAILED" "$log" || fail "$what: no FAILED line: $(cat "$log")"
  grep -q "No space left on device" "$log" || fail "$what: message does not say 'No space left on device': $(cat "$log")"
  grep -q "$M/" "$log" || fail "$what: message does not name a file under $M: $(cat "$log")"
  [ -e "$out/_SUCCESS" ] && fail "$what: _SUCCESS left behind"
  local left
  left=$(find "$out" -type f ! -path "$out/_rejects.tsv" 2>/dev/null)
  [ -n "$left" ] && fail "$what: files left in the output directory: $(head -3 <<<"$left")"
  left=$(find "$M" -type f ! -path "$out/_rejects.tsv" 2>/dev/null)
  [ -n "$left" ] && fail "$what: files left on the full file system: $(head -3 <<<"$left")"
  ls -a "$(dirname "$out")" | grep -q 'hfilegen-staging' && fail "$what: staging directory left behind"
  echo "  $what: $(grep FAILED "$log" | head -1)"
}

# ---- the output directory fills up (at a few sizes: early, in the middle) ----
for size in 1m 2m 8m; do
  mount -o remount,size=$size "$M"
  "$H" "${ARGS[@]}" --out "$M/out" --tmp-dir "$W" "$W/in.csv" >"$W/out.log" 2>&1
  rc=$?
  [ $rc -eq 1 ] || fail "out on a full $size file system: exit $rc, expected 1"
  check_failed "$M/out" "$W/out.log" "out on $size"
done
# grow it and run the same command into the same directory: complete and identical
mount -o remount,size=64m "$M"
if "$H" "${ARGS[@]}" --out "$M/out" --tmp-dir "$W" "$W/in.csv" >"$W/out2.log" 2>&1; then
  sums "$M/out" | cmp -s - "$W/ref.sums" || fail "rerun after freeing space differs from the reference"
  echo "  rerun into the same directory after growing the file system: identical output"
else
  fail "rerun after freeing space failed: $(cat "$W/out2.log")"
fi
rm -rf "$M/out"

# ---- the spill directory fills up ----
mount -o remount,size=2m "$M"
mkdir -p "$M/tmp"
"$H" "${ARGS[@]}" --out "$W/out" --tmp-dir "$M/tmp" "$W/in.csv" >"$W/tmp.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "spills on a full file system: exit $rc, expected 1"
grep -q "spill file" "$W/tmp.log" || fail "spill failure does not name the spill file: $(cat "$W/tmp.log")"
check_failed "$W/out" "$W/tmp.log" "--tmp-dir on 2m"
mount -o remount,size=64m "$M"
if "$H" "${ARGS[@]}" --out "$W/out" --tmp-dir "$M/tmp" "$W/in.csv" >"$W/tmp2.log" 2>&1; then
  sums "$W/out" | cmp -s - "$W/ref.sums" || fail "rerun with room for spills differs from the reference"
  [ -z "$(ls -A "$M/tmp")" ] || fail "spill files left after a successful run: $(ls "$M/tmp" | head -3)"
  echo "  rerun with room for the spills: identical output"
else
  fail "rerun with room for spills failed: $(cat "$W/tmp2.log")"
fi

if [ "$failures" -eq 0 ]; then
  echo "1 passed, 0 failed"
  exit 0
fi
echo "0 passed, 1 failed ($failures problems)"
exit 1

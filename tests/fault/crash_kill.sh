#!/usr/bin/env bash
# Crash safety of `hfilegen build`: kill -9 at random points (read, spill, merge,
# write, publish) and check that the output directory never holds a loadable
# partial result, and that a rerun of the same job (same --timestamp, after
# removing the directory) is byte-identical to an uninterrupted run.
#
# A loadable partial result is a file that completebulkload would pick up
# (<out>/<family>/<name>, family and name not starting with '_' or '.') while
# <out>/_SUCCESS is absent. When _SUCCESS is present the output must be the
# complete reference output.
#
# usage: crash_kill.sh HFILEGEN_BINARY SOURCE_DIR [ITERATIONS] [SLOW_RENAME_SO] [PUBLISH_KILLS]
#   ITERATIONS      random-delay kills (default 12; HFG_CRASH_ITER overrides)
#   SLOW_RENAME_SO  LD_PRELOAD shim that slows rename(2) (tests/fault/slow_rename.c):
#                   adds kills aimed at the publish phase
#   PUBLISH_KILLS   how many of those (default 3)
set -u
H=${1:?hfilegen binary}
SRC=${2:?source dir}
ITER=${HFG_CRASH_ITER:-${3:-12}}
SHIM=${4:-}
PKILLS=${5:-3}
base=${HFG_TEST_TMPDIR:-}
[ -z "$base" ] && [ -w /dev/shm ] && base=/dev/shm   # fsync is free there: the test is about order
W=$(mktemp -d "${base:-${TMPDIR:-/tmp}}/hfg-crash-XXXXXX")
trap 'rm -rf "$W"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ms() { date +%s%3N; }

# ---- input: ~9 MB, 8 regions, two families; --memory 8m makes it spill ----
awk 'BEGIN { srand(7); print "id,user,amount,status,note";
  for (i = 0; i < 140000; i++)
    printf "%d,u%d,%d.%02d,%s,note-%d-%s\n", i, int(rand() * 5000), int(rand() * 10000),
      int(rand() * 100), (rand() < 0.5 ? "PAID" : "NEW"), i,
      substr("abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz", 1 + int(rand() * 20), 30) }' \
  >"$W/in.csv"
printf '1\n2\n3\n4\n5\n6\n7\n' >"$W/splits.txt"
BASE=(build --rowkey '{id % 8}|{id}' --splits "$W/splits.txt" --map note=d:note
      --map status=d:status --timestamp 1720695600000 --memory 8m --max-file-size 512k
      --threads 2)
ARGS=("${BASE[@]}" --quiet)

sums() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs -r sha256sum); }

# Files completebulkload would load: <out>/<family>/<file>, no '_' or '.' prefix.
visible() {
  [ -d "$1" ] || return 0
  find "$1" -mindepth 2 -maxdepth 2 -type f ! -name '_*' ! -name '.*' |
    grep -v -E "^$1/[_.][^/]*/" || true
}

# ---- reference run ----
t0=$(ms)
"$H" "${ARGS[@]}" --out "$W/ref" "$W/in.csv" >"$W/ref.log" 2>&1 || { cat "$W/ref.log"; exit 1; }
sums "$W/ref" >"$W/ref.sums"
# a second uninterrupted run: same bytes, and its time (warm caches) sets the kill delays
t0=$(ms)
"$H" "${ARGS[@]}" --out "$W/ref2" "$W/in.csv" >/dev/null 2>&1 || fail "second uninterrupted run failed"
REF_MS=$(($(ms) - t0))
sums "$W/ref2" | cmp -s - "$W/ref.sums" || fail "two uninterrupted runs differ"
rm -rf "$W/ref2"
nfiles=$(visible "$W/ref" | wc -l)
[ -e "$W/ref/_SUCCESS" ] || fail "reference run left no _SUCCESS"
[ "$nfiles" -gt 16 ] || fail "reference run wrote only $nfiles HFiles"
"$H" "${BASE[@]}" --out "$W/spillcheck" "$W/in.csv" 2>/dev/null | grep -q 'spill runs        [1-9]' ||
  fail "the job does not spill: raise the input size"
rm -rf "$W/spillcheck"
echo "reference: $nfiles HFiles in ${REF_MS} ms"

# ---- a non-empty output directory is refused and left alone ----
"$H" "${ARGS[@]}" --out "$W/ref" "$W/in.csv" >"$W/run.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "build into a non-empty directory exited $rc, expected 1"
grep -q "not empty" "$W/run.log" || fail "refusal message lacks 'not empty': $(cat "$W/run.log")"
sums "$W/ref" | cmp -s - "$W/ref.sums" || fail "refused build changed the existing output"
mkdir -p "$W/busy/cf" && echo x >"$W/busy/cf/somefile"
"$H" "${ARGS[@]}" --out "$W/busy" "$W/in.csv" >"$W/run.log" 2>&1 && fail "build into a directory with a family dir succeeded"
[ "$(cat "$W/busy/cf/somefile")" = x ] || fail "refused build touched an existing file"

# ---- two jobs never share an output directory ----
"$H" "${ARGS[@]}" --out "$W/out" "$W/in.csv" >"$W/a.log" 2>&1 &
pid=$!
sleep 0.15
"$H" "${ARGS[@]}" --out "$W/out" "$W/in.csv" >"$W/b.log" 2>&1 && fail "a second job into a busy output directory succeeded"
grep -q -E "in use by another hfilegen job|not empty" "$W/b.log" || fail "second job: $(cat "$W/b.log")"
wait $pid || fail "the first job failed beside a second one: $(cat "$W/a.log")"
sums "$W/out" | cmp -s - "$W/ref.sums" || fail "the first job's output differs beside a second job"
rm -rf "$W/out"

declare -A phases
others() { find "$1" -path "$1/ref" -prune -o -type f -print 2>/dev/null; }
# kill_check LABEL: after a kill, classify where it landed and check the invariant
kill_check() {
  local out="$W/out" label=$1 phase
  local vis
  vis=$(visible "$out")
  if [ -e "$out/_SUCCESS" ]; then
    phase=finished
    sums "$out" | cmp -s - "$W/ref.sums" || fail "$label: _SUCCESS present but the output differs from the reference"
  elif [ -n "$vis" ]; then
    phase=publish
    fail "$label: killed in publish: $(wc -l <<<"$vis") loadable file(s) without _SUCCESS, e.g. $(head -1 <<<"$vis")"
  elif others "$W" | grep -q -E '/[0-9a-f]{32}$'; then
    phase=publish-staged   # HFiles renamed, but not where completebulkload looks
  elif find "$W" -name '_hfilegen-*-run-*' 2>/dev/null | grep -q .; then
    if others "$W" | grep -q -E '/_[0-9a-f]{32}$'; then phase=merge-write; else phase=read-spill; fi
  elif others "$W" | grep -q -E '/_[0-9a-f]{32}$'; then
    phase=write
  else
    phase=read   # nothing on disk yet: reading the input before the first spill
  fi
  phases[$phase]=$((${phases[$phase]:-0} + 1))
  # rerun the same job after removing the directory: identical to the reference
  rm -rf "$out"
  if ! "$H" "${ARGS[@]}" --out "$out" "$W/in.csv" >"$W/rerun.log" 2>&1; then
    fail "$label: rerun failed: $(tail -2 "$W/rerun.log")"
  elif ! sums "$out" | cmp -s - "$W/ref.sums"; then
    fail "$label: rerun output differs from the uninterrupted run"
    diff <(sums "$out") "$W/ref.sums" | head -5
  fi
  [ -e "$W/.out.hfilegen-staging" ] && fail "$label: the killed job's staging directory survived the rerun"
  rm -rf "$out"
  echo "  $label: $phase"
}

# ---- random kills ----
RANDOM=4242
span=$((REF_MS + 1))
for i in $(seq 1 "$ITER"); do
  delay=$((RANDOM * 32768 + RANDOM))
  delay=$((delay % span))
  "$H" "${ARGS[@]}" --out "$W/out" "$W/in.csv" >/dev/null 2>&1 &
  pid=$!
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  kill_check "kill $i after ${delay} ms"
done

# ---- kills aimed at the publish phase (renames slowed down) ----
if [ -n "$SHIM" ] && [ -f "$SHIM" ]; then
  for i in $(seq 1 "$PKILLS"); do
    HFG_SLOW_RENAME_US=15000 LD_PRELOAD="$SHIM" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
      "$H" "${ARGS[@]}" --out "$W/out" "$W/in.csv" >/dev/null 2>&1 &
    pid=$!
    # wait until the first HFile got its final name, wherever it is, then wait i renames more
    for _ in $(seq 1 3000); do
      find "$W" -path "$W/ref" -prune -o -type f -print 2>/dev/null | grep -q -E '/[0-9a-f]{32}$' && break
      kill -0 $pid 2>/dev/null || break
      sleep 0.005
    done
    sleep "0.0$((i % 4 * 2))"
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    kill_check "publish kill $i"
  done
fi

echo "kills by phase: $(for k in "${!phases[@]}"; do printf '%s=%s ' "$k" "${phases[$k]}"; done)"
if [ "$failures" -eq 0 ]; then
  echo "1 passed, 0 failed"
  exit 0
fi
echo "0 passed, 1 failed ($failures problems)"
exit 1

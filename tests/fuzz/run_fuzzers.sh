#!/usr/bin/env bash
# Runs the libFuzzer targets for a bounded time, at most two at once, then
# merges the inputs that found new coverage into the committed corpora
# (tests/fuzz/corpus/<target>/). Build first with clang:
#   CC=clang cmake -S . -B build-fuzz -G Ninja -DHFG_SANITIZE=ON -DHFG_FUZZ=ON \
#         -DCMAKE_C_FLAGS=-Wno-error
#   ninja -C build-fuzz
#   tests/fuzz/run_fuzzers.sh build-fuzz 240 [TARGET...]
# Crashes land in BUILD/fuzz-work/artifacts/<target>/ and are listed at the end.
set -u
B=${1:?build dir}
SECS=${2:?seconds per target}
shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(records scheme splits job hfile)
W="$B/fuzz-work"
mkdir -p "$W"

run_one() {
  local t=$1
  mkdir -p "$W/$t" "$W/artifacts/$t"
  local extra=()
  [ "$t" = job ] && extra=(-close_fd_mask=2)   # the loader explains every bad file on stderr
  [ "$t" = hfile ] && extra=(-max_len=24576)   # small files keep it fast; larger seeds are cut
  "$B/tests/fuzz_$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$W/artifacts/$t/" "${extra[@]}" "$W/$t" "$HERE/corpus/$t" >"$W/$t.log" 2>&1
  echo "$t: exit $? $(grep -E '^stat::number_of_executed_units' "$W/$t.log")"
}

running=0
for t in "${TARGETS[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ $running -ge 2 ]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

for t in "${TARGETS[@]}"; do
  # the committed corpus = the hand-made seeds (seed_*) + a minimal set of found inputs
  # that covers everything the seeds and this run reached (named by their SHA-1)
  M=$(mktemp -d)
  "$B/tests/fuzz_$t" -merge=1 "$M" "$HERE/corpus/$t" "$W/$t" >"$W/$t.merge.log" 2>&1
  find "$HERE/corpus/$t" -type f ! -name 'seed_*' -delete
  declare -A seen=()
  for f in "$HERE/corpus/$t"/seed_*; do seen[$(sha1sum <"$f" | cut -c1-40)]=1; done
  for f in "$M"/*; do
    [ -n "${seen[$(basename "$f")]:-}" ] || cp "$f" "$HERE/corpus/$t/"
  done
  unset seen
  rm -rf "$M"
  # size budget (the whole tree stays under ~5 MB): drop the largest found inputs first
  budget=$([ "$t" = hfile ] && echo 2600 || echo 600)
  while [ "$(du -s --apparent-size --block-size=1K "$HERE/corpus/$t" | cut -f1)" -gt "$budget" ]; do
    big=$(find "$HERE/corpus/$t" -type f ! -name 'seed_*' -printf '%s %p\n' | sort -n | tail -20 | cut -d' ' -f2)
    [ -n "$big" ] || break
    rm -f $big
  done
  echo "$t: corpus $(ls "$HERE/corpus/$t" | wc -l) files, $(du -sh "$HERE/corpus/$t" | cut -f1)"
  ls "$W/artifacts/$t" 2>/dev/null | sed "s|^|  finding: $W/artifacts/$t/|"
done

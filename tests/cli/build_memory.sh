#!/usr/bin/env bash
# Peak RSS stays within --memory plus the small fixed overhead README.md states (~5 MB), at
# every thread count, when a small budget makes the job spill many runs: each build's peak
# RSS (wait4's ru_maxrss) is at most the bare process's (hfilegen --version, measured the same
# way; its floor is this test's Python, whose memory the spawned child shares until exec) +
# the budget + 6 MiB. (Before the CLI fixed glibc's mmap threshold, --memory 8m --threads 2 on this input
# peaked 18 MB above that: large freed buffers stayed resident in the threads' arenas.)
# Not under ASan, whose shadow memory and quarantine are RSS of their own.
#   bash tests/cli/build_memory.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
if ldd "$H" 2> /dev/null | grep -q -e libasan -e libtsan; then
  echo "build_memory: skipped under a sanitizer (RSS is the sanitizer's)"
  echo "build_memory: $passes passed, $fails failed"
  exit 0
fi
# ~48 MB of CSV in the benchmark's shape (146 bytes a row)
python3 - "$T/in.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("id,user_id,created_at,amount,status,note\n")
    rows = []
    for i in range(1, 330001):
        rows.append(f"{i},{i * 7919 % 100003},{1720000000000 + i * 1000},{i % 997}.{i % 100:02d},"
                    f"{('PAID', 'NEW', 'SHIPPED')[i % 3]},note {i * 31 % 65537} for order {i} "
                    f"with some free text to carry the row's bytes\n")
        if len(rows) == 10000:
            f.write("".join(rows))
            rows = []
    f.write("".join(rows))
PY
peak() { # ARGS...: runs hfilegen with ARGS (its output into $T/summary), prints its peak
  # RSS in KiB, or FAIL
  python3 - "$T/summary" "$H" "$@" <<'PY'
import os, sys
# posix_spawn (glibc: a vfork-like clone), so the child's peak is hfilegen's own,
# not that of a forked copy of this Python
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
acts = [(os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_DUP2, fd, 2)]
if os.environ.get("PEAK_STDIN"):  # the file to give as standard input
    acts.append((os.POSIX_SPAWN_DUP2, os.open(os.environ["PEAK_STDIN"], os.O_RDONLY), 0))
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ, file_actions=acts)
_, status, ru = os.wait4(pid, 0)
print(ru.ru_maxrss if os.waitstatus_to_exitcode(status) == 0 else "FAIL")
PY
}
bare=$(peak --version)
for mem in 8 16; do
  for t in 1 2 4; do
    rm -rf "$T/out"
    got=$(peak build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" \
      --out "$T/out" --memory "${mem}m" --threads "$t" --timestamp 1720000000000 \
      --tmp-dir "$T" "$T/in.csv")
    limit=$((bare + (mem + 6) * 1024))
    if [ "$got" = FAIL ]; then
      bad "--memory ${mem}m --threads $t: the build failed"
    elif [ "$got" -le "$limit" ]; then
      ok
    else
      bad "--memory ${mem}m --threads $t: peak RSS $((got / 1024)) MiB > $((limit / 1024)) MiB (bare process $((bare / 1024)) MiB + budget + 6 MiB)"
    fi
    # it spilled many runs (else the small budget was not what was tested)
    runs=$(sed -n 's/^  spill runs *\([0-9]*\).*/\1/p' "$T/summary")
    [ "${runs:-0}" -ge 4 ] && ok || bad "--memory ${mem}m --threads $t: ${runs:-no} spill runs: $(tail -3 "$T/summary")"
    echo "  --memory ${mem}m --threads $t: peak RSS $((got / 1024)) MiB (bare $((bare / 1024)) MiB), ${runs:-0} spill runs"
  done
done

# ---- a record that the budget cannot hold is rejected, not loaded past it ----
# One record limit for every input: 64 MiB, or a sixteenth of --memory when that is less.
# A 70 MB row (line 1001 of 2000) at --memory 32m, as a TSV file, a CSV file, a pg-text dump
# and on stdin: rejected (the same reason, naming --memory) and peak RSS within the budget
# + 6 MiB. It was rejected only by the 64 MiB limit, with RSS at 145-213 MB; a 30 MB row was
# loaded at 100 MB.
python3 - "$T/big.txt" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("".join(f"{i}\tsmall {i}\n" for i in range(1, 1001)))
    f.write("1001\t" + "x" * 70000000 + "\n")
    f.write("".join(f"{i}\tsmall {i}\n" for i in range(1002, 2001)))
PY
reason="record longer than 2097152 bytes (the record limit at --memory 32m: a sixteenth of it"
for how in tsv csv pg-text stdin; do
  in="$T/big.txt"
  case $how in
    tsv) fmt=(--format tsv) ;;
    csv) fmt=(--format csv --delimiter "$(printf '\t')") ;;
    pg-text) fmt=(--format pg-text) ;;
    stdin) fmt=(--format tsv) in=- ;;
  esac
  rm -rf "$T/out"
  got=$( [ $how = stdin ] && export PEAK_STDIN="$T/big.txt"; peak build --rowkey '{id}' --columns id,v "${fmt[@]}" \
    --out "$T/out" --memory 32m --threads 2 --max-rejects 1 --timestamp 1 --tmp-dir "$T" "$in")
  limit=$((bare + (32 + 6) * 1024))
  rej=$(awk -F'\t' '$2 == 1001 {print $1 " " $3}' "$T/out/_rejects.tsv" 2>/dev/null)
  shown=$([ $how = stdin ] && echo "<stdin>" || echo "$T/big.txt")
  check "70 MB row, $how: built, the row rejected ($(tail -2 "$T/summary" | tr '\n' ' '))" \
    '[ "$got" != FAIL ] && grep -q "records read      2000" "$T/summary"'
  check "70 MB row, $how: rejected naming the input, the line and --memory: [$rej]" \
    '[ "${rej#"$shown $reason"}" != "$rej" ]'
  check "70 MB row, $how: peak RSS $((${got/FAIL/0} / 1024)) MiB within $((limit / 1024)) MiB" \
    '[ "$got" != FAIL ] && [ "$got" -le "$limit" ]'
  echo "  70 MB row, $how, --memory 32m: peak RSS $((${got/FAIL/0} / 1024)) MiB (bare $((bare / 1024)) MiB)"
done
# just under the limit, a long record loads: the limit is not below what the budget holds
python3 -c "import sys; sys.stdout.write('1\tsmall\n2\t' + 'y' * (2097152 - 2) + '\n3\tsmall\n')" >"$T/edge.txt"
rm -rf "$T/out"
got=$(peak build --rowkey '{id}' --columns id,v --format tsv --out "$T/out" --memory 32m --timestamp 1 "$T/edge.txt")
check "a 2 MiB record at --memory 32m loads ($(tail -2 "$T/summary" | tr '\n' ' '))" \
  '[ "$got" != FAIL ] && grep -q "records written   3" "$T/summary"'
echo "build_memory: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

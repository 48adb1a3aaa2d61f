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
pid = os.posix_spawn(sys.argv[2], sys.argv[2:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_DUP2, fd, 1), (os.POSIX_SPAWN_DUP2, fd, 2)])
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
echo "build_memory: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

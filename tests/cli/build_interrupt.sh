#!/usr/bin/env bash
# CLI scenario: interrupted jobs. SIGTERM, SIGINT and SIGHUP in the middle of a
# spilling build stop it: exit 128 + the signal, a message naming the signal and
# what was removed, no staging directory, no spill run (also in a separate
# --tmp-dir), nothing loadable in the output directory. After a kill -9 the next
# job into the same directory removes the staging directory and the spill runs
# (also those in --tmp-dir), says how much, and builds the same bytes as a clean
# run. Repeated signals change nothing: under timeout (SIGTERM to the job, then
# to its process group), SIGTERM twice, SIGHUP then SIGTERM, kill -INT twice,
# each also while the job waits on a silent FIFO, it still cleans up; only
# Ctrl-C twice on a terminal (a pty) ends it at once, and it removes the
# staging directory and spill runs first. A SIGHUP that was ignored (nohup)
# stays ignored. An unusable --tmp-dir,
# output parent or rejects path fails before the first record is read, naming
# the path.
# usage: build_interrupt.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
nothing_left() { # OUTDIR TMPDIR WHAT
  [ -e "$1/_SUCCESS" ] && fail "$3: _SUCCESS present"
  [ -e "$1/manifest.json" ] && fail "$3: manifest.json present"
  local vis
  vis=$(find "$1" -mindepth 2 -type f 2>/dev/null)
  [ -n "$vis" ] && fail "$3: files left in the family directories: $vis"
  ls -a "$(dirname "$1")" | grep -q hfilegen-staging && fail "$3: staging directory left"
  [ -n "$(find "$W" -name '_hfilegen-*' 2>/dev/null)" ] &&
    fail "$3: spill runs left: $(find "$W" -name '_hfilegen-*')"
}
# wait_for GLOB: until a file matching it exists (at most ~20 s)
wait_for() {
  local k
  for k in $(seq 2000); do
    compgen -G "$1" >/dev/null && return 0
    kill -0 "$PID" 2>/dev/null || return 1
    sleep 0.01
  done
  return 1
}

python3 "$SRC/tools/make_sample.py" 600000 big.csv
BUILD=(build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --memory 8m
       --timestamp 1720695600000 --quiet)
mkdir tmp

# start OUT [extra args]: a build in the background, PID set, stderr to OUT.err
start() {
  local out=$1
  shift
  "$H" "${BUILD[@]}" --out "$out" "$@" big.csv 2>"$out.err" &
  PID=$!
}
finish() { wait "$PID"; RC=$?; ERR=$(cat "$1.err"); }

# ---- SIGTERM while ingesting, spill runs in a separate --tmp-dir ----
start term --tmp-dir tmp
# run 2: the two ingest workers' first runs can be opened at once and both be empty when
# run 1 appears; once a third run is opened, one of them is whole (bytes to remove)
wait_for 'tmp/_hfilegen-*-run-2' || fail "SIGTERM: no spill run appeared"
kill -TERM "$PID"
finish term
[ "$RC" -eq 143 ] || fail "SIGTERM: exit $RC, expected 143 ($ERR)"
grep -qE "interrupted by SIGTERM \(canceled (during ingest|while writing spill run)[^)]*\): removed the temporary HFiles and spill runs \(" <<<"$ERR" ||
  fail "SIGTERM: no message that names the signal and the ingest: $ERR"
has "$ERR" "and the staging directory .term.hfilegen-staging" "SIGTERM names the staging directory"
has "$ERR" "nothing was published in term" "SIGTERM"
grep -qE '\(([1-9][0-9]*|0[.][1-9])[0-9.]* MB\)' <<<"$ERR" || fail "SIGTERM: no MB removed: $ERR"
nothing_left term tmp "SIGTERM"

# ---- SIGINT while writing HFiles, spill runs in the staging directory ----
# (a script's background job starts with SIGINT ignored, which build respects
# like nohup's SIGHUP: job control gives it the default disposition)
set -m
start int --threads 1 --codec gz
set +m
wait_for '.int.hfilegen-staging/cf/_*' || fail "SIGINT: no temporary HFile appeared"
kill -INT "$PID"
finish int
[ "$RC" -eq 130 ] || fail "SIGINT: exit $RC, expected 130 ($ERR)"
has "$ERR" "interrupted by SIGINT (canceled while writing region " "SIGINT stops the HFile writing"
has "$ERR" "): removed the temporary HFiles and spill runs (" "SIGINT"
nothing_left int tmp "SIGINT"

# ---- SIGHUP ----
start hup --tmp-dir tmp
wait_for 'tmp/_hfilegen-*-run-0' || fail "SIGHUP: no spill run appeared"
kill -HUP "$PID"
finish hup
[ "$RC" -eq 129 ] || fail "SIGHUP: exit $RC, expected 129 ($ERR)"
has "$ERR" "interrupted by SIGHUP" "SIGHUP"
nothing_left hup tmp "SIGHUP"

# ---- under timeout, which signals the job and then its process group: SIGTERM
# twice in a row. Each run stops at a point of the job (a fraction of a timed
# clean run) and cleans up, or finishes first ----
t0=$EPOCHREALTIME
"$H" "${BUILD[@]}" --out timed big.csv
t1=$EPOCHREALTIME
full=$(python3 -c "print(float('$t1') - float('$t0'))")
stopped=0
for frac in 0.15 0.3 0.45 0.6 0.75 0.9; do
  rm -rf to .to.hfilegen-staging
  timeout "$(python3 -c "print(round($full * $frac, 3))")" "$H" "${BUILD[@]}" --out to --tmp-dir tmp \
    big.csv 2>to.err
  RC=$?
  ERR=$(cat to.err)
  if [ -f to/_SUCCESS ]; then
    # done before the timeout (exit 0); or its signal came while publishing (said, exit 124)
    # or after the job, in the exit (ASan's leak check is long), when a signal acts as it
    # would on any process (exit 124, nothing said): the output is whole in every case
    [ "$RC" -eq 0 ] || [ "$RC" -eq 124 ] || fail "timeout at $frac: published, exit $RC ($ERR)"
    grep -q "interrupted by" <<<"$ERR" && fail "timeout at $frac: published, yet 'interrupted': $ERR"
    diff -r to timed >/dev/null || fail "timeout at $frac: published output differs from a clean run"
    continue
  fi
  [ "$RC" -eq 124 ] || fail "timeout at $frac: exit $RC, expected 124 from timeout ($ERR)"
  stopped=$((stopped + 1))
  has "$ERR" "interrupted by SIGTERM (" "timeout at $frac"
  has "$ERR" "nothing was published in to" "timeout at $frac"
  nothing_left to tmp "timeout at $frac"
done
[ "$stopped" -ge 1 ] || fail "timeout: no run was stopped by its timeout (test setup: a run takes ${full}s)"

# stall OUT [args]: a build reading the FIFO 'fifo', fed the first 20 MB of
# big.csv and then silent (the job blocked on its read) until 'go' exists;
# returns once the 20 MB are in the pipe and the job had time to read them
stall() {
  local out=$1
  shift
  rm -f fifo fed go
  mkfifo fifo
  (cat part1.csv && : >fed && until [ -e go ]; do sleep 0.02; done &&
    exec tail -c +20000001 big.csv) >fifo 2>/dev/null &
  FEEDER=$!
  "$H" "${BUILD[@]}" --out "$out" "$@" fifo 2>"$out.err" &
  PID=$!
  wait_for fed || fail "$out: the job did not read its input (test setup)"
  sleep 0.5
}
resume() { : >go; wait "$FEEDER" 2>/dev/null; }
head -c 20000000 big.csv >part1.csv

# ---- SIGTERM, SIGTERM again and a SIGHUP while the job waits on its input:
# the job still cleans up (the second signal used to end it at once) ----
stall term2 --tmp-dir tmp
kill -TERM "$PID"
sleep 0.2
kill -TERM "$PID"
sleep 0.2
kill -HUP "$PID"
sleep 0.2
resume
finish term2
[ "$RC" -eq 143 ] || fail "SIGTERM twice: exit $RC, expected 143 ($ERR)"
has "$ERR" "interrupted by SIGTERM (canceled during ingest" "SIGTERM twice"
has "$ERR" "and the staging directory .term2.hfilegen-staging; nothing was published in term2" \
  "SIGTERM twice"
nothing_left term2 tmp "SIGTERM twice"

# ---- SIGHUP twice, then SIGTERM: the first signal names the stop ----
stall hup2 --tmp-dir tmp
kill -HUP "$PID"
sleep 0.2
kill -HUP "$PID"
kill -TERM "$PID"
sleep 0.2
resume
finish hup2
[ "$RC" -eq 129 ] || fail "SIGHUP twice: exit $RC, expected 129 ($ERR)"
has "$ERR" "interrupted by SIGHUP (" "SIGHUP twice"
nothing_left hup2 tmp "SIGHUP twice"

# ---- SIGTERM twice at once, while the job works (three runs) ----
for k in 1 2 3; do
  start fast$k --tmp-dir tmp
  wait_for 'tmp/_hfilegen-*-run-1' || fail "fast SIGTERM $k: no spill run appeared"
  kill -TERM "$PID" "$PID"
  kill -TERM "$PID"
  finish fast$k
  [ "$RC" -eq 143 ] || fail "fast SIGTERM $k: exit $RC, expected 143 ($ERR)"
  has "$ERR" "interrupted by SIGTERM (" "fast SIGTERM $k"
  has "$ERR" "nothing was published in fast$k" "fast SIGTERM $k"
  nothing_left fast$k tmp "fast SIGTERM $k"
done

# ---- SIGINT twice, not from a terminal (kill -INT): cleans up as SIGTERM ----
set -m
stall int2 --tmp-dir tmp
set +m
kill -INT "$PID"
sleep 0.2
kill -INT "$PID"
sleep 0.2
resume
finish int2
[ "$RC" -eq 130 ] || fail "kill -INT twice: exit $RC, expected 130 ($ERR)"
has "$ERR" "interrupted by SIGINT (canceled during ingest" "kill -INT twice"
nothing_left int2 tmp "kill -INT twice"

# ---- Ctrl-C twice on the terminal (a pty) while the job waits on its input:
# it exits at once, without its input's next data, and removes the staging
# directory and the spill runs (in --tmp-dir too) first ----
cat >ctrlc.py <<'PY'
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
while not os.path.exists("fed"):
    time.sleep(0.01)
time.sleep(0.5)
for _ in range(2):
    os.write(fd, b"\x03")  # VINTR: SIGINT from the terminal
    time.sleep(0.3)
out, end = b"", time.time() + 10
while True:  # the job's output until it exits; after 10 s its input is fed ('go')
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            d = os.read(fd, 4096)
        except OSError:
            d = b""
        if not d:
            break
        out += d
    elif time.time() > end and not os.path.exists("go"):
        open("go", "w").close()
_, st = os.waitpid(pid, 0)
sys.stderr.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st))
PY
rm -f fifo fed go
mkfifo fifo
(cat part1.csv && : >fed && until [ -e go ]; do sleep 0.02; done &&
  exec tail -c +20000001 big.csv) >fifo 2>/dev/null &
FEEDER=$!
python3 ctrlc.py "$H" "${BUILD[@]}" --out cc --tmp-dir tmp fifo 2>cc.err
RC=$?
ERR=$(cat cc.err)
[ -e go ] && fail "Ctrl-C twice: the job waited for its input's next data (fed after 10 s)"
[ "$RC" -eq 130 ] || fail "Ctrl-C twice: exit $RC, expected 130 ($ERR)"
has "$ERR" "interrupted by SIGINT twice: exiting at once; removed the staging directory .cc.hfilegen-staging with its spill runs (" "Ctrl-C twice"
has "$ERR" "nothing was published in cc" "Ctrl-C twice"
grep -qE 'spill runs \(([1-9][0-9]*|0[.][1-9])[0-9.]* MB\)' <<<"$ERR" || fail "Ctrl-C twice: no MB removed: $ERR"
# cc did not exist before the job: it is not left behind (an existing one would come back empty)
[ ! -e cc ] || fail "Ctrl-C twice: the output directory the job created is left behind: $(ls -A cc 2>&1)"
nothing_left cc tmp "Ctrl-C twice"
ls -a | grep -q 'hfilegen-staging' && fail "Ctrl-C twice: a staging directory is left: $(ls -a)"
resume

# ---- an ignored SIGHUP (nohup) stays ignored: the job completes ----
(trap '' HUP; exec "$H" "${BUILD[@]}" --out nohup --tmp-dir tmp big.csv 2>nohup.err) &
PID=$!
wait_for 'tmp/_hfilegen-*-run-0' || fail "nohup: no spill run appeared"
kill -HUP "$PID"
finish nohup
[ "$RC" -eq 0 ] && [ -f nohup/_SUCCESS ] || fail "nohup: an ignored SIGHUP stopped the job: exit $RC ($ERR)"

# ---- kill -9: the next job into the same directory cleans up and says how much ----
start k9 --tmp-dir tmp
wait_for 'tmp/_hfilegen-*-run-2' || fail "kill -9: no third spill run appeared" # (as for SIGTERM)
kill -KILL "$PID"
wait "$PID" 2>/dev/null
[ -d .k9.hfilegen-staging ] || fail "kill -9: no staging directory left to clean up (test setup)"
[ -n "$(ls tmp)" ] || fail "kill -9: no spill run left to clean up (test setup)"
"$H" "${BUILD[@]}" --out k9 --tmp-dir tmp big.csv 2>k9.err
RC=$?
ERR=$(cat k9.err)
[ "$RC" -eq 0 ] || fail "rerun after kill -9: exit $RC ($ERR)"
has "$ERR" "removed a killed job's staging directory .k9.hfilegen-staging with its spill runs (" "rerun after kill -9"
grep -qE '\(([1-9][0-9]*|0[.][1-9])[0-9.]* MB\)' <<<"$ERR" || fail "rerun after kill -9: no MB removed: $ERR"
[ -z "$(ls tmp)" ] || fail "rerun after kill -9: the killed job's spill runs are still in --tmp-dir: $(ls tmp)"
ls -a | grep -q hfilegen-staging && fail "rerun after kill -9: a staging directory is left"
"$H" "${BUILD[@]}" --out clean big.csv
diff -r k9 clean >/dev/null || fail "the rerun after kill -9 differs from a clean build"

# ---- early checks: before the first record, naming the path ----
touch afile
early() { # WHAT PATH-IN-MESSAGE ARGS...
  local what=$1 path=$2
  shift 2
  "$H" "${BUILD[@]}" "$@" big.csv 2>early.err
  RC=$?
  ERR=$(cat early.err)
  [ "$RC" -eq 1 ] || fail "$what: exit $RC, expected 1 ($ERR)"
  has "$ERR" "$path" "$what names the path"
  has "$ERR" "(0 records read" "$what fails before the first record"
}
early "missing --tmp-dir" "temporary directory $W/nope (spill runs go there): No such file or directory" \
  --out e1 --tmp-dir "$W/nope"
nothing_left e1 tmp "missing --tmp-dir"
early "--tmp-dir is a file" "temporary directory afile (spill runs go there): Not a directory" \
  --out e2 --tmp-dir afile
early "output parent is a file" "afile/out: Not a directory" --out afile/out
early "rejects parent missing" "nope/rejects.tsv: No such file or directory" --out e3 \
  --rejects nope/rejects.tsv
if [ "$(id -u)" != 0 ]; then # root writes anywhere
  mkdir ro && chmod 555 ro
  early "unwritable --tmp-dir" "temporary directory ro (spill runs go there): Permission denied" \
    --out e4 --tmp-dir ro
  early "unwritable output parent" "ro/out: Permission denied" --out ro/out
  chmod 755 ro
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "build_interrupt: all checks passed"

#!/usr/bin/env bash
# --threads 1 against --threads 2, side by side in one run, for a 10-region job and a
# single-region job (every row in one region: no splits) on the same data, and where the
# time goes by stage (perf), with what that predicts for more cores (Amdahl per stage).
# Writes bench/results/threads.md. See bench/README.md, "Threads".
#
# usage: bench/threads.sh [--size 192M] [--reps 3] [--codec lz4] [--work DIR] [--no-perf]
#                         [--results DIR]
#   --size     CSV input (bench/gen_orders, the same data as run.sh; default 192M)
#   --reps     repetitions; the runs alternate 1, 2, 1, 2 threads so the neighbours'
#              load falls on both alike (default 3; medians are reported)
#   --codec    default lz4
#   --no-perf  skip the stage shares (perf record at --threads 1, single region)
#   --results  where threads.md goes (default bench/results)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/bench/lib.sh"
SIZE=192M REPS=3 CODEC=lz4 PERF=1
WORK="${TMPDIR:-/tmp}/hfilegen-threads"
RESULTS="$ROOT/bench/results"
CMDLINE="bench/threads.sh $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --codec) CODEC="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --no-perf) PERF=0; shift ;;
    --results) RESULTS="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "threads.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "threads.sh: --work $WORK would clobber too much" >&2; exit 2 ;;
esac
SIZE_B=$(bench_bytes "$SIZE")
[ "$PERF" = 0 ] || command -v perf >/dev/null || { echo "threads.sh: perf not found (or --no-perf)" >&2; exit 1; }
BUILD="$ROOT/build-bench"
HFG="$BUILD/hfilegen"
mkdir -p "$WORK" "$RESULTS"
rm -rf "$WORK/out" "$WORK/logs"
mkdir -p "$WORK/out" "$WORK/logs"
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHFG_NATIVE=ON \
  "-DCMAKE_C_FLAGS=-Wno-error=maybe-uninitialized -Wno-error=format-truncation" > "$WORK/logs/cmake.log"
ninja -C "$BUILD" hfilegen > "$WORK/logs/ninja.log" 2>&1 || { tail -20 "$WORK/logs/ninja.log"; exit 1; }
gcc -O2 -march=native -Wall -Wextra -Werror -o "$WORK/gen_orders" "$ROOT/bench/gen_orders.c"
IN="$WORK/in-$SIZE_B.csv"
[ -s "$IN" ] || "$WORK/gen_orders" --size "$SIZE_B" --csv "$IN" > "$WORK/in.gen"
MEM=$(( SIZE_B * 4 > 268435456 ? SIZE_B * 4 : 268435456 ))  # fits: no spill
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
RUNS="$WORK/runs.tsv"
printf 'job\tthreads\trep\twall\tcpu\tingest\temit\trss_kb\n' > "$RUNS"

build() { # job threads outdir [extra...]
  local job=$1 t=$2 out=$3
  shift 3
  local splits=()
  [ "$job" = ten ] && splits=(--splits "$ROOT/samples/splits/salt10.txt")
  rm -rf "$out"
  /usr/bin/time -f '%e %U %S %M' -o "$WORK/logs/time" "$@" "$HFG" build --rowkey '{id % 10}|{id}' \
    "${splits[@]}" --out "$out" --codec "$CODEC" --bloom row --block-size 64k --checksum crc32c \
    --timestamp 1720000000000 --memory "$MEM" --threads "$t" "$IN" \
    > "$WORK/logs/summary" 2> "$WORK/logs/stderr"
}

echo "== $SIZE_B bytes of CSV, $CODEC, --threads 1 vs 2, $REPS reps (load $LOAD_START)"
for rep in $(seq 1 "$REPS"); do
  for job in ten one; do
    for t in 1 2; do
      build "$job" "$t" "$WORK/out/$job-$t"
      read -r wall user sys rss < "$WORK/logs/time"
      ing=$(sed -n 's/.*(ingest \([0-9.]*\)s, emit \([0-9.]*\)s.*/\1/p' "$WORK/logs/summary")
      emi=$(sed -n 's/.*(ingest \([0-9.]*\)s, emit \([0-9.]*\)s.*/\2/p' "$WORK/logs/summary")
      cpu=$(python3 -c "print('%.2f' % ($user + $sys))")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$job" "$t" "$rep" "$wall" "$cpu" "$ing" "$emi" "$rss" >> "$RUNS"
      echo "  $job-region job, --threads $t, rep $rep: ${wall}s wall, ${cpu} CPU s (ingest ${ing}s, emit ${emi}s)"
    done
  done
done
for job in ten one; do
  diff -r "$WORK/out/$job-1" "$WORK/out/$job-2" > /dev/null \
    || { echo "threads.sh: $job: --threads 2 output differs from --threads 1" >&2; exit 1; }
done
echo "  outputs of --threads 1 and 2 byte-identical (both jobs)"

PERF_TSV="$WORK/perf.tsv"
: > "$PERF_TSV"
if [ "$PERF" = 1 ]; then
  echo "== stage shares: perf record, --threads 1, single-region job"
  build one 1 "$WORK/out/perf" perf record -q -o "$WORK/perf.data" --
  perf report -i "$WORK/perf.data" --sort pid,symbol --stdio 2> /dev/null | grep -v '^#' \
    | grep -v '^$' > "$PERF_TSV" || true
  cp "$WORK/logs/summary" "$WORK/perf-summary"
  cp "$WORK/logs/time" "$WORK/perf-time"
fi
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$RUNS" "$PERF_TSV" "$RESULTS/threads.md" "$CMDLINE" "$SIZE_B" "$CODEC" "$LOAD_START" \
  "$LOAD_END" "$(nproc)" "$(git -C "$ROOT" rev-parse --short HEAD)" <<'PY'
import re, statistics, sys, collections, datetime
runs, perf, out, cmd, size, codec, l0, l1, ncpu, git = sys.argv[1:]
rows = [l.rstrip("\n").split("\t") for l in open(runs)][1:]
med = lambda xs: statistics.median(xs)
by = collections.defaultdict(list)
for job, t, rep, wall, cpu, ing, emi, rss in rows:
    by[(job, int(t))].append((float(wall), float(cpu), float(ing or 0), float(emi or 0), int(rss)))
L = []
w = L.append
w(f"# --threads 1 vs 2, side by side: {datetime.datetime.utcnow():%Y-%m-%dT%H:%M:%SZ}\n")
w(f"Command: `{cmd}` at git {git}. {int(size):,} bytes of `bench/gen_orders` CSV, {codec}, ROW "
  f"bloom, 64 KB blocks, CRC32C, the input fits in memory. {ncpu} cores (nproc). Load average "
  f"(1, 5, 15 min) {l0} at the start, {l1} at the end: the machine is shared, so these are "
  f"medians of {len(by[('ten', 1)])} runs that alternate 1 and 2 threads (min–max given), with "
  f"CPU seconds (user + sys) next to them.\n")
w("| job | threads | wall s (min–max) | ingest s | emit s | CPU s | peak RSS MiB | speed-up (wall) | ingest speed-up | emit speed-up |")
w("|---|---|---|---|---|---|---|---|---|---|")
for job, name in (("ten", "10 regions"), ("one", "1 region (no splits)")):
    base = by[(job, 1)]
    for t in (1, 2):
        r = by[(job, t)]
        walls = [x[0] for x in r]
        sp = med([x[0] for x in base]) / med(walls)
        es = med([x[3] for x in base]) / med([x[3] for x in r])
        ins = med([x[2] for x in base]) / med([x[2] for x in r])
        w(f"| {name} | {t} | {med(walls):.2f} ({min(walls):.2f}–{max(walls):.2f}) | "
          f"{med([x[2] for x in r]):.2f} | {med([x[3] for x in r]):.2f} | "
          f"{med([x[1] for x in r]):.2f} | {med([x[4] for x in r]) / 1024:.0f} | "
          f"{'**%.2f×**' % sp if t == 2 else '1'} | {'%.2f×' % ins if t == 2 else '1'} | "
          f"{'%.2f×' % es if t == 2 else '1'} |")
w("\nTarget (issue #15): 2 threads ≥ 1.7× of 1 thread for both jobs.\n")

if perf.strip() and open(perf).read().strip():
    # per thread: share of samples, and the codec's + CRC's share within it
    comp = re.compile(r"LZ4_|lz4|isal_deflate|deflate|ZSTD_|zstd|snappy|crc32|hfg_crc|igzip|"
                      r"encode_deflate|gen_icf|icf_|isal_", re.I)
    srt = re.compile(r"radix_sort|insertion_sort|sort_items|item_cmp|msort|qsort")
    tot = collections.Counter(); cz = collections.Counter(); cs = collections.Counter()
    for line in open(perf):
        m = re.match(r"\s*([\d.]+)%\s+(\d+):\S+\s+\[.\]\s+(\S+)", line) or \
            re.match(r"\s*([\d.]+)%\s+(\d+):\S+\s+\[k\]\s+(\S+)", line)
        if not m: continue
        p, pid, sym = float(m.group(1)), m.group(2), m.group(3)
        tot[pid] += p
        if comp.search(sym): cz[pid] += p
        if srt.search(sym): cs[pid] += p
    emit_pid = max(cz, key=lambda k: cz[k]) if cz else None
    wall, user, sys_, _ = open(perf.replace("perf.tsv", "perf-time")).read().split()
    cpu = float(user) + float(sys_)
    summ = open(perf.replace("perf.tsv", "perf-summary")).read()
    m = re.search(r"ingest ([\d.]+)s, emit ([\d.]+)s, publish ([\d.]+)s", summ)
    ing_w, emi_w, pub_w = (float(x) for x in m.groups())
    allp = sum(tot.values())
    emit_share = tot[emit_pid] / allp
    comp_share = cz[emit_pid] / allp
    layout_share = emit_share - comp_share
    ing_share = 1 - emit_share
    C, Lc = comp_share * cpu, layout_share * cpu       # CPU seconds
    # the sort of the region's records runs on the emit thread at one thread (when emit
    # opens the region) and in the ingest workers at N >= 2 (each sorts its sorter part)
    S = cs[emit_pid] / allp * cpu
    L2 = Lc - S
    # at one thread ingest runs on the main and the reader thread at once: its critical
    # path is the busier of them (CPU s, so the neighbours' load does not inflate it); at
    # N >= 2 its whole CPU (IA) spreads over N workers (parallel ingest)
    others = sorted((tot[p] / allp * cpu for p in tot if p != emit_pid), reverse=True)
    I = others[0] if others else 0.0
    IA = sum(others)
    w("## Where the time goes (single-region job, --threads 1, perf)\n")
    w(f"`perf record` over the whole process (default cycles event), samples by thread: the emit "
      f"thread is the one that runs the codec. {cpu:.2f} CPU s in all, {float(wall):.2f} s wall "
      f"(ingest {ing_w:.2f} s, emit {emi_w:.2f} s, publish {pub_w:.2f} s).\n")
    w("| stage | share of cycles | CPU s | runs on |")
    w("|---|---|---|---|")
    w(f"| ingest (reader thread + main: parse, rowkey, payload, sort slabs) | {ing_share:.0%} | "
      f"{IA:.2f} (busiest thread {I:.2f}) | 2 threads at N = 1 (reader + keying), N workers "
      f"at N ≥ 2 (parallel ingest) |")
    w(f"| emit: the region's sort (radix) | {S / cpu:.0%} | {S:.2f} | the emit thread at N = 1, "
      f"the ingest workers at N ≥ 2 |")
    w(f"| emit: merge, cell layout, bloom, index, writes (the layout thread) | "
      f"{L2 / cpu:.0%} | {L2:.2f} | one thread per region |")
    w(f"| emit: compression + CRC32C of the blocks | {comp_share:.0%} | {C:.2f} | every core (the block pool) |")
    w("\nModel (Amdahl per stage, in CPU seconds so that the neighbours' load does not enter "
      f"it): T(1) = I1 + S + L + C and, for N ≥ 2, T(N) = (IA + S) / N + max(L / min(N, "
      f"regions), (L + C) / N), with I1 the one-thread ingest's critical path (its busiest "
      f"thread, {I:.2f} s), IA all of ingest's CPU ({IA:.2f} s, spread over N workers), S the "
      f"sort ({S:.2f} s), L the layout ({L2:.2f} s), C compression + CRC ({C:.2f} s); one "
      "region's layout is one thread, compression spreads over all N; I/O waits, the input's "
      "read bandwidth and the in-order commit of each part (a few µs) are left out, and so is "
      "the merge of N sorted parts per region, which costs the layout thread about log2(N) "
      "comparisons per row.\n")
    w("| cores N | 1 region: T s | speed-up | 10 regions: T s | speed-up |")
    w("|---|---|---|---|---|")
    t1 = I + S + L2 + C
    for n in (1, 2, 8, 16, 64):
        if n == 1:
            a = b = t1
        else:
            a = (IA + S) / n + max(L2, (L2 + C) / n)
            b = (IA + S) / n + max(L2 / min(n, 10), (L2 + C) / n)
        w(f"| {n} | {a:.2f} | {t1 / a:.2f}× | {b:.2f} | {t1 / b:.2f}× |")
    w(f"\nCeilings: one region → {t1 / L2:.2f}× (its layout thread), 10 regions → "
      f"{t1 / (L2 / 10):.1f}× (their layout threads); with many regions nothing is serial "
      "but the commit of parts in order and the writes.\n")
open(out, "w").write("\n".join(L) + "\n")
print("\n".join(L))
PY
echo "  $RESULTS/threads.md"

#!/usr/bin/env bash
# Two hfilegen binaries side by side on run.sh's job (rowkey {id % 10}|{id}, 10 regions or
# one, ROW bloom, 64 KB blocks, CRC32C, the input fits in memory): the runs alternate
# OLD, NEW, OLD, NEW, ... so that the neighbours' load falls on both alike, and the table
# gives medians (min–max) of the wall time, the process's CPU seconds (user + sys, its
# threads) and the machine's (/proc/stat: user, nice, system, irq, softirq of every core
# over the run, so the kernel's own threads — page-cache writeback, I/O completion — count
# too), and NEW ÷ OLD. The outputs of both binaries must be byte-identical (checked once per
# codec, before any time counts). Not part of CI.
#
# usage: bench/ab.sh OLD NEW [--size 1G] [--reps 5] [--codecs lz4,none] [--threads 2]
#                    [--one-region] [--work DIR] [--results FILE]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
. "$ROOT/bench/lib.sh"
[ $# -ge 2 ] || { sed -n '2,12p' "$0"; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
shift 2
SIZE=1G REPS=5 CODECS=lz4,none THREADS=2 ONE=0 RESULTS=""
WORK="${TMPDIR:-/tmp}/hfilegen-ab"
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE="$2"; shift 2 ;;
    --reps) REPS="$2"; shift 2 ;;
    --codecs) CODECS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --one-region) ONE=1; shift ;;
    --work) WORK="$2"; shift 2 ;;
    --results) RESULTS="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "ab.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "ab.sh: $b is not an executable" >&2; exit 2; }; done
case "$(cd / && realpath -m "$WORK")" in
  /|"$HOME"|"$ROOT") echo "ab.sh: --work $WORK would clobber too much" >&2; exit 2 ;;
esac
SIZE_B=$(bench_bytes "$SIZE")
mkdir -p "$WORK"
gcc -O2 -Wall -Wextra -Werror -o "$WORK/gen_orders" "$ROOT/bench/gen_orders.c"
IN="$WORK/in-$SIZE_B.csv"
[ -s "$IN" ] || "$WORK/gen_orders" --size "$SIZE_B" --csv "$IN" > "$WORK/in.gen"
MEM=$(( SIZE_B * 2 > 268435456 ? SIZE_B * 2 : 268435456 ))
SPLITS=(--splits "$ROOT/samples/splits/salt10.txt")
[ "$ONE" = 1 ] && SPLITS=()
RUNS="$WORK/runs.tsv"
printf 'codec\tbin\trep\twall\tcpu\tmachine\n' > "$RUNS"

busy() { awk '/^cpu /{printf "%d\n", $2 + $3 + $4 + $7 + $8}' /proc/stat; }
HZ=$(getconf CLK_TCK)

TIMED=() # set around the timed runs
build() { # binary codec outdir
  rm -rf "$3"
  "${TIMED[@]}" "$1" build --rowkey '{id % 10}|{id}' "${SPLITS[@]}" --out "$3" --codec "$2" --bloom row \
    --block-size 64k --checksum crc32c --timestamp 1720000000000 --create-time 1 \
    --memory "$MEM" --threads "$THREADS" --quiet "$IN"
}

sums() { (cd "$1" && find . -path '*/cf/*' -type f -exec md5sum {} + | awk '{print $1}' | sort); }

IFS=, read -r -a CODEC_LIST <<< "$CODECS"
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
for c in "${CODEC_LIST[@]}"; do
  build "$OLD" "$c" "$WORK/out-old"
  build "$NEW" "$c" "$WORK/out-new"
  cmp -s <(sums "$WORK/out-old") <(sums "$WORK/out-new") ||
    { echo "ab.sh: $c: the two binaries' HFiles differ" >&2; exit 1; }
  echo "  $c: outputs byte-identical ($(sums "$WORK/out-new" | wc -l) HFiles)"
done
cat "$IN" > /dev/null # in the page cache for every run alike
for rep in $(seq 1 "$REPS"); do
  for c in "${CODEC_LIST[@]}"; do
    for which in old new; do
      bin=$OLD
      [ "$which" = new ] && bin=$NEW
      sync
      b0=$(busy)
      TIMED=(/usr/bin/time -f '%e %U %S' -o "$WORK/time")
      build "$bin" "$c" "$WORK/out"
      TIMED=()
      sync
      b1=$(busy)
      read -r w u s < "$WORK/time"
      m=$(python3 -c "print(f'{($b1 - $b0) / $HZ:.2f}')")
      printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$which" "$rep" "$w" \
        "$(python3 -c "print(f'{$u + $s:.2f}')")" "$m" >> "$RUNS"
      echo "  $c $which rep $rep: wall $w s"
    done
  done
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$RUNS" "$OLD" "$NEW" "$SIZE" "$THREADS" "$ONE" "$LOAD_START" "$LOAD_END" "$REPS" \
  > "$WORK/table.md" <<'EOF'
import csv, statistics as st, sys
runs, old, new, size, threads, one, l0, l1, reps = sys.argv[1:]
rows = list(csv.DictReader(open(runs), delimiter="\t"))
def col(c, b, k): return [float(r[k]) for r in rows if r["codec"] == c and r["bin"] == b]
def fmt(v): return f"{st.median(v):.2f} ({min(v):.2f}–{max(v):.2f})"
print(f"OLD `{old}`, NEW `{new}`: {size} of gen_orders CSV, {'one region' if one == '1' else '10 regions'}, "
      f"--threads {threads}, {reps} alternating runs each; load average {l0} at the start, {l1} at the end.\n")
print("| codec | wall s OLD | wall s NEW | NEW ÷ OLD | process CPU s OLD | NEW | NEW ÷ OLD | machine CPU s OLD | NEW | NEW ÷ OLD |")
print("|---|---|---|---|---|---|---|---|---|---|")
for c in dict.fromkeys(r["codec"] for r in rows):
    cells = [c]
    for k in ("wall", "cpu", "machine"):
        o, n = col(c, "old", k), col(c, "new", k)
        cells += [fmt(o), fmt(n), f"{st.median(n) / st.median(o):.2f}"]
    print("| " + " | ".join(cells) + " |")
EOF
cat "$WORK/table.md"
[ -z "$RESULTS" ] || { mkdir -p "$(dirname "$RESULTS")"; { echo "# bench/ab.sh: $(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo; cat "$WORK/table.md"; } > "$RESULTS"; echo "  $RESULTS"; }

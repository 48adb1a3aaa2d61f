#!/usr/bin/env bash
# CLI scenarios for `hfilegen build`: output equals an independent Python oracle, spills
# change nothing, reruns are byte-identical, failures publish nothing, duplicates policy,
# non-empty output refused, job file with flag overrides.
#   bash tests/cli/build.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"

cells_of() { # all cells of a build output, in row order across files
  for f in "$1"/cf/*; do "$H" inspect --cells --tsv "$f"; done | LC_ALL=C sort -t$'\t' -k1,1 -k3,3 -s
}
TS=1720695600000

# 1. the sample against the oracle
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/a" \
  --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "sample build succeeds" '[ -f "$T/a/_SUCCESS" ] && [ $(ls "$T/a/cf" | wc -l) -eq 10 ]'
python3 "$SRC/tests/cli/expected_cells.py" "$SRC/samples/orders.csv" $TS > "$T/expected.tsv"
cells_of "$T/a" > "$T/got.tsv"
check "cells equal the independent oracle ($(wc -l < "$T/expected.tsv") cells)" 'cmp -s "$T/expected.tsv" "$T/got.tsv"'
check "verify passes against the splits" '"$H" verify --quiet --splits "$SRC/samples/splits/salt10.txt" "$T/a" >/dev/null'
check "no temporary names left" '[ -z "$(find "$T/a" -name "_*" ! -name _SUCCESS)" ]'

# 1b. values of every length class the sort payload stores (one-byte lengths up to 253
#     bytes, the wide form from 254; empty ones skipped), in memory and spilled, against
#     the oracle
python3 - "$T/lens.csv" <<'PY'
import random, sys
random.seed(7)
sizes = [0, 1, 2, 252, 253, 254, 255, 256, 1000, 65535, 70000]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("id,a,b,c\n")
    for i in range(1, 400):
        a, b, c = (random.choice(sizes) for _ in range(3))
        f.write("%d,%s,%s,\"%s\"\n" % (i, "x" * a, "é" * (b // 2), "q,\"\"" * (c // 4)))
PY
python3 "$SRC/tests/cli/expected_cells.py" "$T/lens.csv" $TS > "$T/lens.want"
for m in 1g 8m; do
  "$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/lens-$m" \
    --codec lz4 --timestamp $TS --memory $m --tmp-dir "$T" "$T/lens.csv" > "$T/lens-$m.out"
  cells_of "$T/lens-$m" > "$T/lens.got"
  check "values of 0..70,000 bytes equal the oracle's (--memory $m)" 'cmp -s "$T/lens.want" "$T/lens.got"'
done
check "the 8m build spilled, the 1g one did not" 'grep -q "spill runs *[1-9]" "$T/lens-8m.out" && grep -q "spill runs *0 " "$T/lens-1g.out"'

# 2. a rerun with the same timestamp is byte-identical
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/b" \
  --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "rerun is byte-identical" 'diff -r "$T/a" "$T/b" >/dev/null'

# 3. spills and multi-pass merges change nothing (120k rows, 8 MiB budget)
python3 "$SRC/tools/make_sample.py" 120000 "$T/big.csv"
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/mem" \
  --codec lz4 --timestamp $TS --quiet "$T/big.csv"
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/spill" \
  --codec lz4 --timestamp $TS --memory 8m --tmp-dir "$T" "$T/big.csv" > "$T/spill.out"
check "the small budget spilled" 'grep -q "spill runs *[1-9]" "$T/spill.out"'
check "spilled output is byte-identical to the in-memory one" 'diff -r "$T/mem" "$T/spill" >/dev/null'
check "spill runs removed" '[ -z "$(ls "$T" | grep run)" ]'
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/spillz" \
  --codec lz4 --timestamp $TS --memory 8m --tmp-dir "$T" --spill-compression lz4 --quiet "$T/big.csv"
check "LZ4-compressed spills give byte-identical output" 'diff -r "$T/mem" "$T/spillz" >/dev/null'

# 4. a duplicate rowkey fails the job (default) and nothing is published
printf 'id,v\n1,a\n2,b\n1,c\n' > "$T/dup.csv"
"$H" build --rowkey '{id}' --out "$T/d1" --quiet "$T/dup.csv" 2> "$T/dup.err"
check "duplicate fails with exit 1" '[ $? -ne 0 ]'
check "error names both input lines" 'grep -q "line 2 and .*line 4" "$T/dup.err"'
printf 'id,v\n1,a\n' > "$T/once.csv"
"$H" build --rowkey '{id}' --out "$T/d0" --quiet "$T/once.csv" "$T/once.csv" 2> "$T/dup0.err"
check "one file given twice: the duplicate's two places told apart by input" 'grep -q "once.csv (input 1) line 2 and .*once.csv (input 2) line 2" "$T/dup0.err"'
check "nothing published after a failure" '[ ! -e "$T/d1/_SUCCESS" ] && [ -z "$(find "$T/d1" -type f ! -name "_*")" ]'
"$H" build --rowkey '{id}' --out "$T/d2" --on-duplicate last --timestamp 5 --quiet "$T/dup.csv"
check "--on-duplicate last keeps the later record" '"$H" inspect --cells --tsv "$T"/d2/cf/* | grep -q "^1	cf	v	5	Put	c	$"'
"$H" build --rowkey '{id}' --out "$T/d3" --on-duplicate first --timestamp 5 --quiet "$T/dup.csv"
check "--on-duplicate first keeps the earlier record" '"$H" inspect --cells --tsv "$T"/d3/cf/* | grep -q "^1	cf	v	5	Put	a	$"'

# 5. a non-empty output directory is refused, and left alone
"$H" build --rowkey '{id % 10}|{id}' --out "$T/a" --quiet "$SRC/samples/orders.csv" 2> "$T/ne.err"
check "non-empty output refused" '[ $? -ne 0 ] && grep -q "not empty" "$T/ne.err" && diff -r "$T/a" "$T/b" >/dev/null'

# 6. a job file, with a flag overriding it
cat > "$T/job.yaml" <<YAML
inputs: [$SRC/samples/orders.csv]
rowkey: "{id % 10}|{id}"
splits: $SRC/samples/splits/salt10.txt
out: $T/never-used
codec: snappy
map:
  - amount=cf:amount:double
  - note=-
timestamp: $TS
YAML
"$H" build --job "$T/job.yaml" --out "$T/j" --quiet
check "job file build succeeds" '[ -f "$T/j/_SUCCESS" ] && [ ! -e "$T/never-used" ]'
check "job codec applied" '"$H" inspect "$T"/j/cf/$(ls "$T/j/cf" | head -1) | grep -q "compression: snappy"'
"$H" inspect --cells --tsv "$T"/j/cf/* > "$T/j.tsv"
check "note excluded" '! cut -f3 "$T/j.tsv" | grep -qx note'
check "amount stored as 8-byte doubles, not text" '[ $(awk -F"\t" "\$3==\"amount\"" "$T/j.tsv" | wc -l) -eq 5000 ] && ! awk -F"\t" "\$3==\"amount\"{print \$6}" "$T/j.tsv" | grep -qE "^[0-9]+[.][0-9]+$"'

# 7. per-family HFile options and a datetime timestamp column
"$H" build --rowkey '{id % 10}|{id}' --out "$T/fo" --map note=d:note --family-option d:codec=gz \
  --family-option cf:bloom=rowcol --codec lz4 --timestamp 1 --quiet "$SRC/samples/orders.csv"
check "family d uses its own codec" '"$H" inspect "$T"/fo/d/$(ls "$T/fo/d" | head -1) | grep -q "compression: gz"'
check "family cf keeps the job codec and its own bloom" '"$H" inspect "$T"/fo/cf/$(ls "$T/fo/cf" | head -1) | grep -q "compression: lz4" && "$H" inspect "$T"/fo/cf/$(ls "$T/fo/cf" | head -1) | grep -q "BLOOM_FILTER_TYPE = ROWCOL"'
printf 'id,when,v\n1,2024-07-11 23:59:59,a\n2,yesterday,b\n' > "$T/when.csv"
"$H" build --rowkey '{id}' --out "$T/tw" --timestamp 'column:when:yyyy-MM-dd HH:mm:ss' --max-rejects 1 --quiet "$T/when.csv"
check "datetime column becomes the cell timestamp" '"$H" inspect --cells --tsv "$T"/tw/cf/* | grep -q "^1	cf	v	1720742399000	Put	a	$"'
check "a datetime that does not match is rejected with its line" 'grep -q "when.csv	3	timestamp column .when.: .yesterday. does not match" "$T/tw/_rejects.tsv"'

# 8. rolling at --max-file-size: at row boundaries, each file inside its region, and the
#    32-files-per-region-per-family limit of completebulkload fails the job up front
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/roll" \
  --codec none --max-file-size 20k --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "files roll at the size (several per region)" '[ $(ls "$T/roll/cf" | wc -l) -gt 30 ]'
check "rolled files stay inside their regions" '"$H" verify --quiet --splits "$SRC/samples/splits/salt10.txt" "$T/roll" >/dev/null'
cells_of "$T/roll" > "$T/roll.tsv"
check "rolled output holds the same cells" 'cmp -s "$T/roll.tsv" "$T/got.tsv"'
check "no row is split across files" '[ $(for f in "$T"/roll/cf/*; do "$H" inspect --cells --tsv "$f" | cut -f1 | sort -u; done | sort | uniq -d | wc -l) -eq 0 ]'
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/roll2" \
  --codec none --max-file-size 1k --quiet "$SRC/samples/orders.csv" 2> "$T/roll2.err"
check "over 32 files per region fails, naming the limit" '[ $? -ne 0 ] && grep -q "more than 32 files" "$T/roll2.err" && [ -z "$(find "$T/roll2" -type f)" ]'

# 9. the HFiles go to the disk with O_DIRECT (none of their pages left in the page cache)
#    where the file system takes it; --no-direct-io (and a job file's no_direct_io: true)
#    writes them through the page cache: the same bytes, their pages resident after
res_pages() { fincore -b -n -o RES "$@" | awk '{s += $1} END {print s + 0}'; }
# none_cached / all_cached OUT: none, or all, of OUT's HFile bytes are in the page cache
none_cached() { [ "$(res_pages "$1"/cf/*)" -eq 0 ]; }
all_cached() { [ "$(res_pages "$1"/cf/*)" -ge "$(du -cb "$1"/cf/* | tail -1 | cut -f1)" ]; }
if ! command -v fincore >/dev/null; then
  bad "fincore (util-linux-extra, tools/setup.sh) is missing: the page-cache checks cannot run"
elif dd if=/dev/zero of="$T/direct.probe" bs=4096 count=1 oflag=direct 2>/dev/null; then
  "$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/dio" \
    --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
  "$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/pc" \
    --codec gz --timestamp $TS --quiet --no-direct-io "$SRC/samples/orders.csv"
  printf 'no_direct_io: true\nrowkey: "{id %% 10}|{id}"\n' > "$T/pc.yaml"
  "$H" build --job "$T/pc.yaml" --splits "$SRC/samples/splits/salt10.txt" --out "$T/pcj" \
    --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
  check "by default no HFile page stays in the page cache" 'none_cached "$T/dio"'
  check "--no-direct-io leaves them in the page cache" 'all_cached "$T/pc"'
  check "no_direct_io: true in a job file does the same" 'all_cached "$T/pcj"'
  printf 'direct_io: false\nrowkey: "{id %% 10}|{id}"\n' > "$T/pc2.yaml"
  "$H" build --job "$T/pc2.yaml" --splits "$SRC/samples/splits/salt10.txt" --out "$T/pcj2" \
    --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
  check "direct_io: false in a job file does the same" 'all_cached "$T/pcj2"'
  "$H" build --job "$T/pc.yaml" --direct-io --splits "$SRC/samples/splits/salt10.txt" \
    --out "$T/dio2" --codec gz --timestamp $TS --quiet "$SRC/samples/orders.csv"
  check "--direct-io undoes the job file's no_direct_io: true" 'none_cached "$T/dio2"'
  # (reading them puts them in the page cache: after the checks above)
  check "O_DIRECT and page-cache outputs are byte-identical" 'diff -r "$T/dio" "$T/pc" >/dev/null && diff -r "$T/a" "$T/pcj" >/dev/null && diff -r "$T/a" "$T/pcj2" >/dev/null && diff -r "$T/a" "$T/dio2" >/dev/null'
else
  echo "skip: $T takes no O_DIRECT writes (every HFile goes through the page cache)"
fi

# 10. bad flags are usage errors
"$H" build --rowkey x --out "$T/z" --codec zstd "$SRC/samples/orders.csv" 2> "$T/z.err"
check "bare zstd refused with an explanation" '[ $? -ne 0 ] && grep -q "zstd-hadoop" "$T/z.err"'

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]

#!/usr/bin/env bash
# CLI scenario: `--map COL=cf:q:double|float` accepts and refuses what Java's
# Double.parseDouble / Float.parseFloat do (issue #11): surrounding spaces and
# control characters are trimmed, an f/F/d/D suffix is allowed, hex floats need
# their 'p' exponent, overflow gives Infinity and underflow 0, and C's
# "nan"/"inf"/"infinity" are rejects (file, line, reason), not cells. The cell
# bytes are read back with `inspect --cells --tsv` and compared as hex with the
# IEEE bits (computed with Python's struct.pack('>d'/'>f')).
# usage: java_floats.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"

{
  printf 'id,d,f\n'
  printf '1, 1.5 ,0.1\n'                 # 2 trimmed; float 0.1 rounded as float
  printf '2,"\t-2.5d\t",1.5F\n'          # 3 tabs trimmed, suffixes
  printf '3,1e400,1e39\n'                # 4 overflow -> +Infinity
  printf '4,-1e400,-3.4028236e38\n'      # 5 overflow -> -Infinity
  printf '5,1e-400,1e-50\n'              # 6 underflow -> 0
  printf '6,0x1p-2d,0x1.fffffep127\n'    # 7 hex floats
  printf '7,-NaN,Infinity\n'             # 8 Java spellings
  printf '8,nan,1\n'                     # 9 reject: C spelling
  printf '9,1,inf\n'                     # 10 reject
  printf '10,infinity,1\n'               # 11 reject
  printf '11,0x1.8,1\n'                  # 12 reject: hex without p
  printf '12,1e,1\n'                     # 13 reject
  printf '13,1,.\n'                      # 14 reject
  printf '14,1.5 f,1\n'                  # 15 reject: space before the suffix
} >in.csv

"$H" build --rowkey '{id}' --map d=cf:d:double --map f=cf:f:float --timestamp 1 \
  --max-rejects 100 --out out in.csv >run.out 2>run.err
rc=$?
[ "$rc" -eq 0 ] || fail "build exit $rc: $(cat run.err)"
grep -q '^  records read      14$' run.out || fail "records read: $(cat run.out)"
grep -q '^  records written   7$' run.out || fail "records written: $(cat run.out)"
grep -q '^  records rejected  7 ' run.out || fail "records rejected: $(cat run.out)"

# row<TAB>qualifier<TAB>value bytes as hex
for f in out/cf/*; do "$H" inspect --cells --tsv "$f"; done >cells.tsv ||
  fail "inspect failed"
got=$(while IFS=$'\t' read -r row _fam q _ts _type val _rest; do
  printf '%s %s %s\n' "$row" "$q" "$(printf '%b' "$val" | od -An -tx1 | tr -d ' \n')"
done <cells.tsv | LC_ALL=C sort)
want=$(LC_ALL=C sort <<'X'
1 d 3ff8000000000000
1 f 3dcccccd
2 d c004000000000000
2 f 3fc00000
3 d 7ff0000000000000
3 f 7f800000
4 d fff0000000000000
4 f ff800000
5 d 0000000000000000
5 f 00000000
6 d 3fd0000000000000
6 f 7f7fffff
7 d 7ff8000000000000
7 f 7f800000
X
)
[ "$got" = "$want" ] || fail "cells differ:
--- got
$got
--- want
$want"

want_rej="in.csv	9	column 2 (d): 'nan' is not a double
in.csv	10	column 3 (f): 'inf' is not a float
in.csv	11	column 2 (d): 'infinity' is not a double
in.csv	12	column 2 (d): '0x1.8' is not a double
in.csv	13	column 2 (d): '1e' is not a double
in.csv	14	column 3 (f): '.' is not a float
in.csv	15	column 2 (d): '1.5 f' is not a double"
got_rej=$(cut -f1-3 out/_rejects.tsv 2>/dev/null)
[ "$got_rej" = "$want_rej" ] || fail "rejects differ:
--- got
$got_rej
--- want
$want_rej"

[ "$failures" -eq 0 ] || exit 1
echo "java_floats: ok"

#!/usr/bin/env bash
# CLI scenario: every class of bad record in `hfilegen build` lands in the
# rejects file with file, line, reason and raw bytes, and the summary's counts
# add up (records read = written + rejected + duplicates dropped). Classes:
# wrong field count (also with a quoted newline), a character after a closing
# quote, an unterminated quote at end of file, a non-numeric salt field, a
# value that does not encode as its declared type, a rowkey over HBase's
# 32767-byte limit. Duplicate keys fail the job by default, naming both input
# lines, and publish nothing; --max-rejects stops the job the same way.
# Invalid UTF-8 is not rejected: build has no text-column validation (a text
# column stores the input bytes as they are, like ImportTsv) — checked here so
# that a change of that behaviour is noticed.
# usage: build_rejects.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
TAB=$'\t'
# summary COUNT-NAME: the number on the summary line
nothing_published() { # DIR WHAT
  [ -e "$1/_SUCCESS" ] && fail "$2: _SUCCESS present"
  local vis
  vis=$(find "$1" -mindepth 2 -type f ! -name '_*' 2>/dev/null)
  [ -n "$vis" ] && fail "$2: loadable files left: $vis"
  ls -a "$(dirname "$1")" | grep -q hfilegen-staging && fail "$2: staging directory left"
}

# ---- inputs: a.csv ends in an unterminated quote; lines in comments ----
{
  printf 'id,name,amount\n'                  # 1 header
  printf '1,alice,1.5\n'                     # 2 ok
  printf '2,bob\n'                           # 3 wrong field count
  printf '"3",carol,2.5\n'                   # 4 ok (quoted id)
  printf '7,"multi\nline",1.0\n'             # 5-6 ok (quoted newline)
  printf '4,"bad"x,1.0\n'                    # 7 character after closing quote
  printf '5,eve,notanumber\n'                # 8 amount is a double
  printf 'abc,dave,2.0\n'                    # 9 non-numeric salt field
  printf '6,\xff\xfe\xc3\x28,3.0\n'          # 10 invalid UTF-8: accepted
  printf '8,%s,1.0\n' "$(head -c 33000 /dev/zero | tr '\0' n)"  # 11 rowkey > 32767 bytes
  printf '9,"unterminated,1.0\n10,never,1\n' # 12-13 unterminated quote to end of file
} >a.csv
{
  printf 'id,name,amount\n'                  # 1
  printf '10,frank,1.0\n'                    # 2 ok
  printf '11,gina\n'                         # 3 wrong field count
  printf '13,"two\nlines"\n'                 # 4-5 wrong field count, raw spans two lines
} >b.csv
ARGS=(build --rowkey '{id % 4}|{id}|{name}' --map amount=cf:amount:double --timestamp 1720695600000)

run "$H" "${ARGS[@]}" --max-rejects 100 --out out a.csv b.csv
[ "$RC" -eq 0 ] || fail "build with rejects: exit $RC: $ERR"
read_n=$(summary "records read")
written=$(summary "records written")
rejected=$(summary "records rejected")
dropped=$(summary "duplicates dropped")
[ "$read_n" = 13 ] || fail "records read: '$read_n', expected 13"
[ "$written" = 5 ] || fail "records written: '$written', expected 5"
[ "$rejected" = 8 ] || fail "records rejected: '$rejected', expected 8"
[ $((written + rejected + dropped)) -eq "$read_n" ] ||
  fail "counts do not add up: read $read_n != written $written + rejected $rejected + dropped $dropped"
has "$OUT" "-> out/_rejects.tsv" "summary names the rejects file"
R=out/_rejects.tsv
[ "$(wc -l <"$R")" -eq 8 ] || fail "rejects file has $(wc -l <"$R") lines, expected 8"
awk -F'\t' 'NF != 4 { bad = 1 } END { exit bad }' "$R" || fail "a rejects line does not have 4 tab-separated fields"
# reject FILE LINE REASON-FRAGMENT RAW-PREFIX: one line of the rejects file
reject() {
  local line
  line=$(awk -F'\t' -v f="$1" -v l="$2" '$1 == f && $2 == l' "$R")
  if [ -z "$line" ]; then
    fail "no reject for $1 line $2 ($3)"
    return
  fi
  grep -qF -- "$3" <<<"$(cut -f3 <<<"$line")" || fail "$1 line $2: reason '$(cut -f3 <<<"$line")' lacks '$3'"
  local raw
  raw=$(cut -f4- <<<"$line")
  [ "${raw:0:${#4}}" = "$4" ] || fail "$1 line $2: raw '${raw:0:60}' does not start with '$4'"
}
reject a.csv 3 "expected 3 fields, got 2" "2,bob"
reject a.csv 7 "after closing quote" '4,"bad"x,1.0'
reject a.csv 8 "'notanumber' is not a double" "5,eve,notanumber"
reject a.csv 9 "'abc' is not an integer" "abc,dave,2.0"
reject a.csv 11 "longer than HBase's limit of 32767 bytes" "8,nnnnnnnnnn"
reject a.csv 12 "unterminated quoted field: the quote opened on this line runs 2 lines (29 bytes) to the end of the input" '9,"unterminated,1.0\x0a10,never,1'
reject b.csv 3 "expected 3 fields, got 2" "11,gina"
reject b.csv 4 "expected 3 fields, got 2" '13,"two\x0alines"'
raw11=$(awk -F'\t' '$1 == "a.csv" && $2 == 11 { print length($4) }' "$R")
[ "${raw11:-0}" -ge 33004 ] || fail "the long-key reject does not carry the whole raw record ($raw11 bytes)"
grep -q "^a.csv${TAB}10${TAB}" "$R" && fail "invalid UTF-8 was rejected: build gained a text check (update this test)"
run "$H" verify out
[ "$RC" -eq 0 ] || fail "verify of the output: exit $RC: $OUT $ERR"
cells=$(for f in out/cf/*; do "$H" inspect --cells --tsv "$f"; done)
grep -qF '2|6|\xff\xfe\xc3(	cf	amount' <<<"$cells" ||
  fail "the invalid UTF-8 value is not in the rowkey byte for byte"
[ "$(cut -f1 <<<"$cells" | sort -u | wc -l)" -eq 5 ] || fail "expected 5 rows in the output"

# ---- --max-rejects: the job fails at the reject past the limit, nothing published ----
run "$H" "${ARGS[@]}" --max-rejects 3 --out out2 a.csv b.csv
[ "$RC" -eq 1 ] || fail "max-rejects: exit $RC, expected 1"
has "$ERR" "--max-rejects 3" "max-rejects message"
has "$ERR" "a.csv line 9" "max-rejects message names the record"
has "$ERR" "out2/_rejects.tsv" "max-rejects message names the rejects file"
has "$ERR" "nothing was published" "max-rejects"
nothing_published out2 "max-rejects"
[ "$(wc -l <out2/_rejects.tsv)" -eq 4 ] || fail "max-rejects: rejects file has $(wc -l <out2/_rejects.tsv) lines, expected 4"

# ---- duplicate keys ----
printf 'id,name,amount\n20,x,1\n21,y,2\n' >c.csv
printf 'id,name,amount\n22,z,3\n20,x,4\n' >d.csv
run "$H" "${ARGS[@]}" --rowkey '{id % 4}|{id}' --out out3 c.csv d.csv
[ "$RC" -eq 1 ] || fail "duplicate with --on-duplicate error: exit $RC, expected 1"
has "$ERR" "duplicate rowkey '0|20'" "duplicate message"
has "$ERR" "c.csv line 2" "duplicate message names the first line"
has "$ERR" "d.csv line 3" "duplicate message names the second line"
nothing_published out3 "duplicate"
run "$H" "${ARGS[@]}" --rowkey '{id % 4}|{id}' --on-duplicate last --out out4 c.csv d.csv
[ "$RC" -eq 0 ] || fail "--on-duplicate last: exit $RC: $ERR"
read_n=$(summary "records read")
written=$(summary "records written")
rejected=$(summary "records rejected")
dropped=$(summary "duplicates dropped")
[ "$read_n/$written/$rejected/$dropped" = "4/3/0/1" ] ||
  fail "--on-duplicate last: read/written/rejected/dropped $read_n/$written/$rejected/$dropped, expected 4/3/0/1"
[ -e out4/_rejects.tsv ] && fail "a job without rejects left a rejects file"
amount=$(for f in out4/cf/*; do "$H" inspect --cells --tsv "$f"; done | awk -F'\t' '$1 == "0|20" && $3 == "amount" { print $6 }')
[ "$amount" = '@\x10\x00\x00\x00\x00\x00\x00' ] || fail "--on-duplicate last kept '$amount', expected the later record's 4.0"

# ---- a value that does not encode names its input column, and the cell it was mapped to ----
printf 'id,name\n40,a\n' >m.csv
run "$H" build --rowkey '{id}' --map name=cf:amount:long --out out6 m.csv
has "$ERR" "m.csv line 2: column 2 (name, as cf:amount): 'a' is not a long" "a renamed column's reject"
run "$H" build --rowkey '{id}' --map name=cf:name:long --out out7 m.csv
has "$ERR" "m.csv line 2: column 2 (name): 'a' is not a long" "a column kept under its name"

# ---- an integer too big for 64 bits is out of range, not "not an integer" ----
# (a 30-digit id, a NUMERIC(30) column: the rowkey's % said "'1234...' is not an integer",
# and so did a timestamp column; every integer encoding names the type's range)
big=123456789012345678901234567890 TS=1720695600000
printf 'id,v,ts\n%s,1,%s\n1,%s,%s\n2,-%s,%s\n3,%s,%s\n4,1,%s\n5,1,%s\n' \
  "$big" "$TS" "$big" "$TS" "$big" "$TS" "$big" "$TS" "$big" "$TS" >big.csv
run "$H" build --rowkey '{id % 4}|{id}' --map v=cf:v:long --map ts=- --timestamp 1 \
  --max-rejects 10 --out out8 big.csv
R=out8/_rejects.tsv
reject big.csv 2 "column id: '$big' is out of the 64-bit integer range (-9223372036854775808 to 9223372036854775807)" "$big"
reject big.csv 3 "column 2 (v): '$big' is out of range for long (a 64-bit integer: -9223372036854775808 to 9223372036854775807)" "1,$big"
reject big.csv 4 "'-$big' is out of range for long (a 64-bit integer" "2,-$big"
for enc in int short; do
  run "$H" build --rowkey '{id}' --map v=cf:v:$enc --map ts=- --timestamp 1 --max-rejects 10 --out out8-$enc big.csv
  bits=$([ $enc = int ] && echo 32 || echo 16)
  R=out8-$enc/_rejects.tsv
  reject big.csv 5 "'$big' is out of range for $enc (a $bits-bit integer" "3,$big"
done
run "$H" build --rowkey '{id}' --map v=- --timestamp column:ts --max-rejects 10 --out out8-ts big.csv
R=out8-ts/_rejects.tsv
reject big.csv 6 "timestamp column 'ts': '$big' is out of the 64-bit integer range" "4,1,$big"
[ "$(wc -l <"$R")" = 1 ] || fail "timestamp column: rejects $(cat "$R")"
grep -q "is not an integer" out8*/_rejects.tsv && fail "a 30-digit integer is still 'not an integer': $(grep -h 'not an integer' out8*/_rejects.tsv)"

# ---- --rejects where the output would overwrite or publish it ----
# (they lost the rejects under _SUCCESS or manifest.json, published a non-HFile in a family
# directory that verify then failed, or failed only at publish, the staging directory left)
printf 'id,name,amount\n30,x,1\n31,y\n' >r.csv
for rj in out5/_SUCCESS out5/manifest.json out5/cf/rej.tsv out5 ./out5/../out5/_SUCCESS out5/.rej; do
  rm -rf out5
  run "$H" "${ARGS[@]}" --max-rejects 5 --rejects "$rj" --out out5 r.csv
  [ "$RC" -eq 1 ] || fail "--rejects $rj: exit $RC, expected 1"
  has "$ERR" "--rejects $rj " "--rejects $rj refused"
  has "$ERR" "leave --rejects out for out5/_rejects.tsv" "--rejects $rj refused"
  nothing_published out5 "--rejects $rj"
done
# the top level of the output directory is fine, also spelled as an absolute path
for rj in out5/rej.tsv "$W/out5/_rejects.tsv"; do
  rm -rf out5
  run "$H" "${ARGS[@]}" --max-rejects 5 --rejects "$rj" --out out5 r.csv
  [ "$RC" -eq 0 ] || fail "--rejects $rj: exit $RC: $ERR"
  [ -f out5/_SUCCESS ] && [ "$(grep -c "r.csv" "$rj")" = 1 ] || fail "--rejects $rj: not published with its reject"
done

# ---- what is said: --quiet still warns of rejects kept under --max-rejects (a cron job's
#      only output); --progress none drops the progress lines, not the summary ----
rm -rf out6
run "$H" "${ARGS[@]}" --max-rejects 5 --quiet --out out6 r.csv
[ "$RC" -eq 0 ] && [ -z "$OUT" ] || fail "--quiet with a reject: exit $RC, stdout [$OUT]"
has "$ERR" "warning: 1 record rejected (--max-rejects 5), written to out6/_rejects.tsv" "--quiet with a reject"
rm -rf out7
run "$H" "${ARGS[@]}" --max-rejects 5 --progress none --out out7 r.csv
[ "$RC" -eq 0 ] || fail "--progress none: exit $RC: $ERR"
has "$OUT$ERR" "records rejected  1" "--progress none keeps the summary"
rm -rf out8
printf 'id,name,amount\n40,x,1\n' >ok.csv
run "$H" "${ARGS[@]}" --max-rejects 5 --quiet --out out8 ok.csv
[ "$RC" -eq 0 ] && [ -z "$ERR" ] || fail "--quiet without a reject says nothing: exit $RC [$ERR]"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "build_rejects: all checks passed"
echo "1 passed, 0 failed"

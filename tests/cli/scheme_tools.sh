#!/usr/bin/env bash
# CLI scenarios for the rowkey scheme tools: key, splits, scan-ranges, lint.
# Usage: bash scheme_tools.sh HFILEGEN_BINARY SOURCE_DIR
set -u
BIN=$1
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# expect_out NAME EXPECTED_RC EXPECTED_STDOUT -- command...
expect_out() {
  local name=$1 want_rc=$2 want=$3
  shift 4
  local got rc
  got=$("$@" 2>"$WORK/err")
  rc=$?
  [ "$rc" -eq "$want_rc" ] || fail "$name: exit $rc, want $want_rc ($(cat "$WORK/err"))"
  [ "$got" == "$want" ] || fail "$name: got
$got
want
$want"
}

# expect_grep NAME EXPECTED_RC PATTERN -- command...   (stdout + stderr)
expect_grep() {
  local name=$1 want_rc=$2 pat=$3
  shift 4
  local got rc
  got=$("$@" 2>&1)
  rc=$?
  [ "$rc" -eq "$want_rc" ] || fail "$name: exit $rc, want $want_rc: $got"
  grep -q -- "$pat" <<<"$got" || fail "$name: no '$pat' in: $got"
}

# ---- key ----
expect_out key-text 0 "rowkey:  8|1420008
length:  9
hex:     387c31343230303038
shell:   get 'orders', \"8|1420008\"
java:    Bytes.toBytes(\"8|1420008\")" -- "$BIN" key --rowkey '{id % 10}|{id}' --table orders id=1420008
expect_grep key-binary 0 'java:    new byte\[\] {0x00, 0x00, 0x00, 0x00, 0x00, 0x15, (byte) 0xaa, (byte) 0xe8}' -- \
  "$BIN" key --rowkey '{long(id)}' id=1420008
expect_grep key-preset 0 'rowkey:  8|8000241' -- "$BIN" key --rowkey salt-reverse:id:10 id=1420008
expect_grep key-bucket-range 0 'rowkey:  03_1720695600000_event001' -- \
  "$BIN" key --rowkey '{murmur3(userId) % 16 :02}_{ts}_{eventId}' userId=user39 ts=1720695600000 eventId=event001
expect_grep key-not-int 1 "column id: 'abc' is not an integer" -- "$BIN" key --rowkey '{id % 10}|{id}' id=abc
expect_grep key-missing 2 "no value given for column 'id'" -- "$BIN" key --rowkey '{id % 10}|{id}'
expect_grep key-bad-template 2 'unknown function' -- "$BIN" key --rowkey '{nope(id)}' id=1
# re-keying (key --old-key): the old key parsed into fields, the new key built from them
expect_out key-rekey 0 "08|1420008
93|-7" -- "$BIN" key --old-key '{_}|{id}' --rowkey '{id % 100 :02}|{id}' '8|1420008' '3|-7'
# old keys from stdin, one a line, escaped as in split files: Bytes.toBytes(1420008L) and -1420008L
printf '%s\n' '\x00\x00\x00\x00\x00\x15\xaa\xe8' '\xff\xff\xff\xff\xff\xea\x55\x18' >"$WORK/oldkeys.txt"
expect_out key-rekey-stdin 0 "8|1420008
2|-1420008" -- sh -c '"$0" key --old-key "{id:long}" --rowkey "{id % 10}|{id}" - <"$1"' "$BIN" "$WORK/oldkeys.txt"
expect_out key-rekey-to-long 0 '\x00\x00\x00\x00\x00\x15\xaa\xe8' -- \
  "$BIN" key --old-key '{_:bytes:2}{id}' --rowkey '{long(id)}' '071420008'
expect_out key-rekey-reject-out 1 "5_u1" -- "$BIN" key --old-key '{user}|{ts}' --rowkey '{ts}_{user}' 'nosep' 'u1|5'
expect_grep key-rekey-reject 1 "old key 1 'nosep': byte offset 0: field 'user' runs to the literal '|' after it" -- \
  "$BIN" key --old-key '{user}|{ts}' --rowkey '{ts}_{user}' 'nosep' 'u1|5'
expect_grep key-rekey-unknown-field 2 "unknown column 'usr': not a field of the old key; the old key's fields are 'user', 'ts' (2)" -- \
  "$BIN" key --old-key '{user}|{ts}' --rowkey '{usr}_{ts}' 'u1|5'
expect_grep key-rekey-not-one-to-one 2 "does not use the old key's field 'ts': old keys that differ only there" -- \
  "$BIN" key --old-key '{user}|{ts}' --rowkey '{user}' 'u1|5'
expect_grep key-rekey-bad-pattern 2 "old-key: template position 12: unknown type 'lng'" -- \
  "$BIN" key --old-key '{user}|{ts:lng}' --rowkey '{user}' 'u1|5'

# ---- splits ----
expect_out splits-10 0 "$(printf '%s\n' 1 2 3 4 5 6 7 8 9)" -- "$BIN" splits --rowkey '{id % 10}|{id}' --regions 10
expect_out splits-100-on-10 0 "$(printf '%s\n' 10 20 30 40 50 60 70 80 90)" -- \
  "$BIN" splits --rowkey 'salt-pad:id:100' --regions 10
expect_out splits-hexstring 0 "$(printf '%s\n' 40000000 80000000 c0000000)" -- "$BIN" splits --regions 4
expect_out splits-hex-legacy 0 "$(printf '%s\n' 3fffffff 7ffffffe bffffffd)" -- "$BIN" splits --regions 4 --algo hex-legacy
expect_out splits-uniform 0 '\x80\x00\x00\x00\x00\x00\x00\x00' -- "$BIN" splits --regions 2 --algo uniform
expect_out splits-phoenix 0 "$(printf '%s\n' '\x04' '\x08' '\x0c')" -- "$BIN" splits --rowkey '{phoenix_salt(16)}{id}' --regions 4
expect_out splits-shell 0 "create 'events', {NAME => 'd', COMPRESSION => 'ZSTD', BLOOMFILTER => 'ROWCOL', BLOCKSIZE => '131072'}, SPLITS => [\"04\", \"08\", \"12\"]" -- \
  "$BIN" splits --rowkey 'bucket-range:userId:16:ts:eventId' --regions 4 --format shell --table events \
  --family d --codec zstd-hadoop --bloom rowcol --block-size 131072
expect_out splits-json 0 '{"algorithm": "scheme", "regions": 2, "template": "{id % 10}|{id}", "splits": ["5"], "splits_hex": ["35"], "warnings": []}' -- \
  "$BIN" splits --rowkey 'salt:id:10' --regions 2 --format json
# the template is text: JSON escapes only what JSON must (it once escaped its backslashes twice)
expect_out splits-json-text 0 '{"algorithm": "scheme", "regions": 2, "template": "#{id % 4}\"\\\\|é{id}", "splits": ["#2"], "splits_hex": ["2332"], "warnings": []}' -- \
  "$BIN" splits --rowkey '#{id % 4}"\\|é{id}' --regions 2 --format json
# build's rowprefix:N as the family HBase can create: its prefix length in CONFIGURATION
expect_out splits-shell-rowprefix 0 "create 't', {NAME => 'cf', COMPRESSION => 'LZ4', BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH', BLOCKSIZE => '65536', CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => '2'}}, SPLITS => [\"1\", \"2\", \"3\"]" -- \
  "$BIN" splits --rowkey '{id % 4}|{id}' --regions 4 --format shell --codec lz4 --bloom rowprefix:2
expect_grep splits-shell-rowprefix-no-length 2 "unknown --bloom 'ROWPREFIX_FIXED_LENGTH' (none, row, rowcol or rowprefix:N" -- \
  "$BIN" splits --rowkey '{id % 4}|{id}' --regions 4 --format shell --bloom ROWPREFIX_FIXED_LENGTH
# a table name with a quote stays one Ruby string in every shell line
expect_grep key-shell-quote 0 "get 'o.'neil', \"1\"" -- "$BIN" key --rowkey '{id}' --table "o'neil" id=1
expect_out scan-shell-quote 0 "scan 'o\\'neil', {STARTROW => \"005\", STOPROW => \"007\"}" -- \
  "$BIN" scan-ranges --rowkey '{id :03}' --from id=5 --to id=7 --format shell --table "o'neil"
# the messages a new user meets on the edges
expect_grep key-empty 1 "hfilegen key: empty rowkey: HBase has no empty row" -- "$BIN" key --rowkey '{substr(x, 5)}' x=abc
expect_grep splits-no-bucket-names-sample 2 "no prefix space to align to; use --algo sample --input FILE" -- \
  "$BIN" splits --rowkey '{id}' --regions 10
expect_grep splits-o-missing-dir 1 "^hfilegen splits: $WORK/nodir/x.txt: No such file or directory" -- \
  "$BIN" splits --rowkey '{id % 4}|{id}' --regions 4 -o "$WORK/nodir/x.txt"
expect_grep lint-unpadded-width 0 "fix: zero-pad the bucket to its 3 digits ({x % 1000 :03})" -- \
  "$BIN" lint --rowkey '{id % 1000}|{id}'
: > "$WORK/empty.csv"
expect_grep lint-empty-input 1 "warning: $WORK/empty.csv holds no records: only the template was checked" -- \
  "$BIN" lint --rowkey '{id}' --input "$WORK/empty.csv"
expect_grep splits-sample-empty-input 1 "no column names: $WORK/empty.csv, the first input, holds no header row" -- \
  "$BIN" splits --algo sample --rowkey '{id}' --regions 2 --input "$WORK/empty.csv"
expect_grep scan-long-suggestion 3 "--rowkey .{long(id)}. (then these ranges are exact)" -- "$BIN" scan-ranges --rowkey '{id :03}' --from id=-5 --to id=5
expect_grep splits-not-multiple 0 'warning: 10 buckets are not a multiple of 4 regions' -- \
  "$BIN" splits --rowkey '{id % 10}|{id}' --regions 4
# (exit 2: flags that do not fit, a usage error, #29 item 12)
expect_grep splits-unpadded 2 "sort '10' before '2'" -- "$BIN" splits --rowkey '{id % 16}|{id}' --regions 4
expect_grep splits-uppercase 2 'lowercase' -- "$BIN" splits --rowkey '{upper(hex(md5(u), 4))}|{u}' --regions 4 --algo hex
expect_grep splits-usage 2 'regions is required' -- "$BIN" splits --rowkey '{id % 10}|{id}'
"$BIN" splits --rowkey '{hex(md5(u), 2)}|{u}' --regions 64 -o "$WORK/splits.txt" || fail "splits -o"
[ "$(wc -l <"$WORK/splits.txt")" -eq 63 ] && [ "$(head -1 "$WORK/splits.txt")" == 04 ] &&
  [ "$(tail -1 "$WORK/splits.txt")" == fc ] || fail "splits 64 regions on 2 hex chars"

# ---- scan-ranges ----
got=$("$BIN" scan-ranges --rowkey 'bucket-range:userId:16:ts:eventId' --from ts=1720695600000 --to ts=1720699200000 2>"$WORK/err")
[ "$(wc -l <<<"$got")" -eq 16 ] || fail "scan-ranges: 16 ranges without userId: $got"
[ "$(head -1 <<<"$got")" == "$(printf '00_1720695600000\t00_1720699200000')" ] || fail "scan-ranges first: $got"
grep -q '16 ranges' "$WORK/err" || fail "scan-ranges count on stderr"
# {ts} is decimal of varying width: the same ranges, now said to be a superset (exit 3)
expect_out scan-ranges-one 3 "$(printf '03_1720695600000\t03_1720699200000')" -- \
  "$BIN" scan-ranges --rowkey 'bucket-range:userId:16:ts:eventId' --from ts=1720695600000 --to ts=1720699200000 userId=user39
got=$("$BIN" scan-ranges --rowkey 'bucket-range:userId:16:ts:eventId' --from ts=1720695600000 --to ts=1720699200000 \
  --to-inclusive userId=user39 --format shell --table ev 2>/dev/null)
[ $? -eq 3 ] || fail "scan-ranges-shell: exit status"
[ "$(grep -v '^#' <<<"$got")" == "scan 'ev', {STARTROW => \"03_1720695600000\", STOPROW => \"03_1720699200001\"}" ] ||
  fail "scan-ranges-shell: $got"
grep -q '^# NOT EXACT: ' <<<"$got" && grep -q '^#   the 1 range holds more rows than asked for: keep only the rows where 1720695600000 <= ts <= 1720699200000 (as integers)' <<<"$got" ||
  fail "scan-ranges-shell: the superset notice as comments: $got"
expect_grep scan-ranges-no-order 2 'keeps the order' -- "$BIN" scan-ranges --rowkey '{reverse(ts)}' --from ts=1 --to ts=2

# issue #11: the README's own template, ids 100..200: 1000..1999 sort inside as bytes
got=$("$BIN" scan-ranges --rowkey '{id % 10}|{id}' --from id=100 --to id=200 2>"$WORK/err")
rc=$?
[ $rc -eq 3 ] || fail "scan-ranges-superset: exit $rc, want 3"
[ "$(wc -l <<<"$got")" -eq 10 ] && [ "$(head -1 <<<"$got")" == "$(printf '0|100\t0|200')" ] ||
  fail "scan-ranges-superset: ranges: $got"
for want in 'NOT EXACT: template position 11: {id} writes numbers in decimal without a fixed width' \
  'the key of 1000 begins with the key of 100' \
  'keep only the rows where 100 <= id < 200 (as integers)' \
  'exact instead: --gets prints the 100 row keys of the range to get' \
  "exact instead: build the table with --rowkey '{id % 10}|{id :010}'" \
  '10 ranges (a superset: filter the rows; exit status 3)'; do
  grep -qF -- "$want" "$WORK/err" || fail "scan-ranges-superset: no '$want' in: $(cat "$WORK/err")"
done
# the exact alternatives: point gets, and the padded template
got=$("$BIN" scan-ranges --rowkey '{id % 10}|{id}' --from id=100 --to id=200 --gets 2>"$WORK/err")
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <<<"$got")" -eq 100 ] && [ "$(sed -n 2p <<<"$got")" == '1|101' ] &&
  [ "$(tail -1 <<<"$got")" == '9|199' ] || fail "scan-ranges-gets: exit $rc: $got $(cat "$WORK/err")"
expect_out scan-ranges-gets-shell 0 "$(printf "get 'o', \"5|5\"\nget 'o', \"6|6\"")" -- \
  "$BIN" scan-ranges --rowkey '{id % 10}|{id}' --from id=5 --to id=6 --to-inclusive --gets --format shell --table o
expect_grep scan-ranges-gets-needs-fields 2 'every other field of the template given' -- \
  "$BIN" scan-ranges --rowkey 'bucket-range:userId:16:ts:eventId' --from ts=1 --to ts=5 userId=u --gets
got=$("$BIN" scan-ranges --rowkey '{id % 10}|{id :010}' --from id=100 --to id=200 2>"$WORK/err")
[ $? -eq 0 ] && [ "$(head -1 <<<"$got")" == "$(printf '0|0000000100\t0|0000000200')" ] &&
  ! grep -q 'NOT EXACT' "$WORK/err" || fail "scan-ranges-padded: $got $(cat "$WORK/err")"
# 5..10 compared as numbers (was "the range is empty"); reversed is an error
expect_out scan-ranges-numbers 3 "$(printf '03_5\t03_:')" -- \
  "$BIN" scan-ranges --rowkey '{murmur3(user_id) % 16 :02}_{created_at}_{id}' --from created_at=5 --to created_at=10 user_id=39
expect_grep scan-ranges-reversed 2 '--from 10 is after --to 5 (compared as integers)' -- \
  "$BIN" scan-ranges --rowkey '{murmur3(user_id) % 16 :02}_{created_at}_{id}' --from created_at=10 --to created_at=5
# exact kinds stay exact: desc(), long() (two ranges across 0), text ending the key
expect_out scan-ranges-desc 0 "$(printf 'a|9223372036854773808\ta|9223372036854774808')" -- \
  "$BIN" scan-ranges --rowkey '{u}|{desc(ts)}' --from ts=1000 --to ts=2000 u=a
expect_out scan-ranges-long 0 "$(printf '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\t\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x03\n\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\t')" -- \
  "$BIN" scan-ranges --rowkey '{long(id)}' --from id=-2 --to id=3
expect_out scan-ranges-text-last 0 "$(printf 'x|ab\tx|ab\\x00')" -- \
  "$BIN" scan-ranges --rowkey '{u}|{name}' --from name=ab --to name=ab --to-inclusive u=x
expect_grep scan-ranges-help 0 'Exit status: 0 exact ranges' -- "$BIN" scan-ranges --help
"$BIN" scan-ranges --help | grep -q 'exactly' && fail "scan-ranges --help still promises exact ranges"

# issue #11 item 10: format-spec errors point at the offending character
expect_grep key-pad-position 2 "template position 12: expected '}' after the pad width" -- \
  "$BIN" key --rowkey '{id % 10 :0x}' id=1
# and the caret sits under it
got=$("$BIN" key --rowkey '{id % 10 :0x}' id=1 2>&1)
[ "$(sed -n 2,3p <<<"$got")" == "$(printf '  {id %% 10 :0x}\n             ^')" ] || fail "key-pad-caret: $got"
got=$("$BIN" scan-ranges --rowkey 'a|{id :0}' --from id=1 --to id=2 2>&1)
[ "$(sed -n 2,3p <<<"$got")" == "$(printf '  a|{id :0}\n         ^')" ] || fail "scan-ranges-pad-caret: $got"

# ---- lint ----
expect_grep lint-clean 0 '0 errors, 0 warnings' -- "$BIN" lint --rowkey '{murmur3(userId) % 16 :02}_{ts}_{eventId}' --regions 16
expect_grep lint-monotonic 1 'error   monotonic-prefix' -- "$BIN" lint --rowkey '{ts}_{userId}'
expect_grep lint-regions 0 'warning buckets-vs-regions' -- "$BIN" lint --rowkey '{id % 10}|{id}' --regions 4
expect_grep lint-reverse-time 0 'reversed-time' -- "$BIN" lint --rowkey '{hex(md5(u), 4)}|{reverse(ts)}'
expect_grep lint-rowprefix 0 'build with --bloom rowprefix:2 ' -- "$BIN" lint --rowkey '{id % 10}|{id}'

printf 'userId,eventId,ts\n"a|b",e1,1\nc,e2,2\nc,e2,3\n' >"$WORK/sample.csv"
got=$("$BIN" lint --rowkey '{hex(md5(userId), 4)}|{userId}|{eventId}' --input "$WORK/sample.csv")
rc=$?
[ $rc -eq 1 ] || fail "lint sample: exit $rc"
grep -q 'separator-in-values' <<<"$got" || fail "lint sample: separator: $got"
grep -q 'duplicate-keys' <<<"$got" || fail "lint sample: duplicates: $got"
grep -q '3 sample records' <<<"$got" || fail "lint sample: count: $got"
printf 'userId\teventId\nx\ty\n' >"$WORK/sample.tsv"
expect_grep lint-tsv 0 '1 sample record)' -- "$BIN" lint --rowkey '{hex(md5(userId), 4)}|{userId}|{eventId}' --input "$WORK/sample.tsv"
expect_grep lint-json 1 '"code": "monotonic-prefix"' -- "$BIN" lint --rowkey '{ts}|{u}' --format json
expect_grep lint-unknown-column 2 "unknown column 'nope'" -- "$BIN" lint --rowkey '{nope}' --input "$WORK/sample.csv"

# ---- help ----
for c in key splits scan-ranges lint; do
  "$BIN" "$c" --help >/dev/null || fail "$c --help"
done

if [ $fails -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "scheme tools: all scenarios passed"

#!/usr/bin/env bash
# CLI scenarios for `hfilegen inspect` and `hfilegen verify` on the HBase-written
# fixtures: report fragments, the cells TSV contract, exit codes, a corrupted
# and a truncated copy, bulk-load directories, --splits and the manifest's splits.
# usage: inspect_verify.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh" # H, SRC, W (the scratch directory), run, has, fail
FIX="$SRC/../shared/fixtures/hbase-2.4-hudi"
NONE="$FIX/hudi_1_0_hbase_2_4_9_16KB_NONE_5000.hfile"
GZ="$FIX/hudi_1_0_hbase_2_4_9_16KB_GZ_20000.hfile"
NONUNIQ="$FIX/hudi_1_0_hbase_2_4_9_16KB_GZ_200_20_non_unique.hfile"
DEEP="$FIX/hudi_1_0_hbase_2_4_13_1KB_GZ_10000_large_keys_deep_index.hfile"
EMPTY="$FIX/hudi_1_0_hbase_2_4_9_no_entry.hfile"
TAB=$'\t'

rc_is() { [ "$RC" -eq "$1" ] || fail "$2: exit $RC, expected $1 (stderr: $ERR)"; }

# ---- inspect: default report ----
run "$H" inspect "$NONE"
rc_is 0 "inspect NONE"
has "$OUT" "version: 3.3" "inspect NONE"
has "$OUT" "entry_count: 5000" "inspect NONE"
has "$OUT" "num_data_index_levels: 1" "inspect NONE"
has "$OUT" "compression: none (ordinal 2)" "inspect NONE"
has "$OUT" 'comparator: org.apache.hadoop.hbase.KeyValue$KVComparator (cell order)' "inspect NONE"
has "$OUT" "hfile.LASTKEY = hudi-key-000004999/:/9223372036854775807/Put" "inspect NONE"
has "$OUT" "hfile.AVG_KEY_LEN = 30" "inspect NONE"
has "$OUT" "MAX_MEMSTORE_TS_KEY = 0" "inspect NONE"
has "$OUT" "root entries: 18" "inspect NONE"
has "$OUT" "first key: hudi-key-000000000/:/9223372036854775807/Put" "inspect NONE"
has "$OUT" "bloomFilter: offset 295734, 105 bytes" "inspect NONE"
has "$OUT" "bloom: none" "inspect NONE"

run "$H" inspect "$DEEP"
rc_is 0 "inspect deep"
has "$OUT" "compression: gz (ordinal 1)" "inspect deep"
has "$OUT" "levels: 3" "inspect deep"
has "$OUT" "intermediate index blocks: 7" "inspect deep"
has "$OUT" "leaf index blocks: 103" "inspect deep"
has "$OUT" "data blocks: 1429" "inspect deep"
has "$OUT" "mid-key metadata: leaf" "inspect deep"

run "$H" inspect "$EMPTY"
rc_is 0 "inspect empty"
has "$OUT" "entry_count: 0" "inspect empty"
has "$OUT" "HoodieHBaseKVComparator (unknown class" "inspect empty"
has "$OUT" "first_data_block_offset: -1" "inspect empty"

# ---- inspect --cells --tsv: the interop contract ----
run "$H" inspect "$NONE" --cells --tsv
rc_is 0 "tsv NONE"
[ "$(wc -l <"$W/run.out")" -eq 5000 ] || fail "tsv NONE: $(wc -l <"$W/run.out") lines, expected 5000"
want="hudi-key-000000000${TAB}${TAB}${TAB}9223372036854775807${TAB}Put${TAB}hudi-value-000000000${TAB}"
[ "$(head -n 1 "$W/run.out")" = "$want" ] || fail "tsv NONE: first line [$(head -n 1 "$W/run.out")]"
want="hudi-key-000004999${TAB}${TAB}${TAB}9223372036854775807${TAB}Put${TAB}hudi-value-000004999${TAB}"
[ "$(tail -n 1 "$W/run.out")" = "$want" ] || fail "tsv NONE: last line"
[ -z "$ERR" ] || fail "tsv NONE: stderr not empty"
awk -F'\t' 'NF != 7 { bad = 1 } END { exit bad }' "$W/run.out" || fail "tsv NONE: a line without 7 fields"

run "$H" inspect --cells --tsv "$GZ"
rc_is 0 "tsv GZ"
[ "$(wc -l <"$W/run.out")" -eq 20000 ] || fail "tsv GZ: line count"
want="hudi-key-000019999${TAB}${TAB}${TAB}9223372036854775807${TAB}Put${TAB}hudi-value-000019999${TAB}"
[ "$(tail -n 1 "$W/run.out")" = "$want" ] || fail "tsv GZ: last line"

run "$H" inspect --cells --tsv "$NONUNIQ"
rc_is 0 "tsv non-unique"
[ "$(wc -l <"$W/run.out")" -eq 4200 ] || fail "tsv non-unique: line count"
want="hudi-key-000000000${TAB}${TAB}${TAB}9223372036854775807${TAB}Put${TAB}hudi-value-000000000_0${TAB}"
[ "$(sed -n 2p "$W/run.out")" = "$want" ] || fail "tsv non-unique: line 2 [$(sed -n 2p "$W/run.out")]"

run "$H" inspect --cells --tsv "$EMPTY"
rc_is 0 "tsv empty"
[ -z "$OUT" ] || fail "tsv empty: output not empty"

run "$H" inspect --cells --limit 3 "$NONE"
rc_is 0 "cells limit"
[ "$(wc -l <"$W/run.out")" -eq 3 ] || fail "cells limit: line count"
has "$OUT" "hudi-key-000000002/:/9223372036854775807/Put vlen=20 value=hudi-value-000000002" "cells limit"

# ---- --blocks, --stats, --json ----
run "$H" inspect --blocks "$NONE"
rc_is 0 "blocks"
grep -qE '^0 +DATABLK\* +scanned +16443 +16435 +16402 +-1 +CRC32C +16384$' "$W/run.out" || fail "blocks: first DATA block line"
grep -qE '^295839 +IDXROOT2 +load-on-open ' "$W/run.out" || fail "blocks: data root index line"
grep -qE '^297002 +TRABLK' "$W/run.out" || fail "blocks: trailer line"

run "$H" inspect --stats "$GZ"
rc_is 0 "stats"
has "$OUT" "cells: 20000" "stats"
has "$OUT" "rows: 20000" "stats"
has "$OUT" "data blocks: 72" "stats"
has "$OUT" "compression ratio:" "stats"
has "$OUT" "types: Put=20000" "stats"

run "$H" inspect --json --stats "$NONE" "$EMPTY"
rc_is 0 "json"
if command -v python3 >/dev/null; then
  python3 - "$W/run.out" <<'EOF' || fail "json: not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) == 2
a = d[0]
assert a["trailer"]["entry_count"] == 5000
assert a["file_info"]["hfile.AVG_KEY_LEN"] == 30
assert a["file_info"]["hfile.LASTKEY"] == "hudi-key-000004999/:/9223372036854775807/Put"
assert a["index"]["root_entries"] == 18
assert a["stats"]["cells"] == 5000 and a["stats"]["rows"] == 5000
assert d[1]["trailer"]["entry_count"] == 0 and d[1]["bloom"] is None
EOF
fi

# ---- inspect errors ----
run "$H" inspect "$W/missing.hfile"
rc_is 1 "inspect missing"
has "$ERR" "$W/missing.hfile" "inspect missing"
head -c 100000 "$NONE" >"$W/trunc.hfile"
run "$H" inspect "$W/trunc.hfile"
rc_is 1 "inspect truncated"
has "$ERR" "trunc.hfile: trailer" "inspect truncated"
run "$H" inspect --tsv "$NONE"
rc_is 2 "inspect --tsv without --cells"
run "$H" inspect --bogus "$NONE"
rc_is 2 "inspect bad option"

# ---- verify ----
run "$H" verify "$FIX"/*.hfile
rc_is 0 "verify fixtures"
has "$OUT" "OK $NONE: 5000 cells, 5000 rows, 22 blocks" "verify fixtures"
has "$OUT" "OK $NONUNIQ: 4200 cells, 200 rows" "verify fixtures"
has "$OUT" "PASS: 9 HFiles verified" "verify fixtures"
has "$OUT" 'families: "" (9 files)' "verify fixtures"

run "$H" verify --quiet "$NONE"
rc_is 0 "verify quiet"
[ "$OUT" = "PASS: 1 HFile verified" ] || fail "verify quiet: [$OUT]"

# a flipped byte inside the first data block's payload: a checksum error naming block 0
cp "$NONE" "$W/corrupt.hfile"
chmod u+w "$W/corrupt.hfile"
printf 'X' | dd of="$W/corrupt.hfile" bs=1 seek=1000 conv=notrunc status=none
run "$H" verify "$W/corrupt.hfile" "$NONE"
rc_is 1 "verify corrupt"
has "$OUT" "FAIL $W/corrupt.hfile: block at offset 0 (DATABLK*): CRC32C checksum mismatch in chunk 0" "verify corrupt"
has "$OUT" "OK $NONE" "verify corrupt"
has "$OUT" "FAIL: 1 of 2 HFiles failed verification" "verify corrupt"

run "$H" verify "$W/trunc.hfile"
rc_is 1 "verify truncated"
has "$OUT" "FAIL $W/trunc.hfile: trailer" "verify truncated"

# ---- bulk-load directory layout ----
mkdir -p "$W/out/cf" "$W/out/_tmp" "$W/out/.hidden"
cp "$NONE" "$W/out/cf/0123456789abcdef0123456789abcdef"
cp "$NONE" "$W/out/_tmp/x"
echo '{}' >"$W/out/manifest.json"
echo 'notes' >"$W/out/README.txt"
: >"$W/out/_SUCCESS"
: >"$W/out/cf/_partial"
echo 'not an hfile' >"$W/out/cf/notes.txt"
run "$H" verify "$W/out"
rc_is 1 "verify dir"
grep -qF "SKIP $W/out/manifest.json" <<<"$OUT" && fail "verify dir: hfilegen's own manifest named as skipped"
has "$OUT" "SKIP $W/out/README.txt: not a family directory" "verify dir: another top-level file"
has "$OUT" "FAIL $W/out/cf/notes.txt: file of 13 bytes is too small to hold the 4096-byte v3 trailer" "verify dir (a non-HFile in a family dir fails: its rows would be missing)"
has "$OUT" "cells are of family \"\" but the file lies in family directory \"cf\"" "verify dir"
grep -q "_tmp\|_SUCCESS\|_partial\|hidden" <<<"$OUT" && fail "verify dir: a _/. entry was looked at"
mkdir -p "$W/nothing/cf"
run "$H" verify "$W/nothing"
rc_is 1 "verify empty dir"
has "$OUT" "no HFiles found" "verify empty dir"
# a finished build that wrote no row (a nightly incremental load with nothing new) passes:
# the nightly "build && verify && completebulkload" must not fail on a quiet night
printf 'id,v\n' >"$W/header_only.csv"
"$H" build --quiet --rowkey '{id}' --out "$W/quiet_night" "$W/header_only.csv" 2>/dev/null ||
  fail "build of a header-only input"
run "$H" verify "$W/quiet_night"
rc_is 0 "verify a build that wrote no row"
has "$OUT" "OK $W/quiet_night: no HFiles: the build wrote no rows (manifest.json), nothing to load" "verify a build that wrote no row"
# the manifest is read as JSON, not as text: the same manifest rewritten on one line passes,
# one that says rows were written, or a build without _SUCCESS, does not
cp -r "$W/quiet_night" "$W/quiet_compact"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); open(sys.argv[1],"w").write(json.dumps(m,separators=(",",":")))' "$W/quiet_compact/manifest.json"
run "$H" verify "$W/quiet_compact"
rc_is 0 "verify a build that wrote no row, manifest on one line"
has "$OUT" "nothing to load" "verify a build that wrote no row, manifest on one line"
cp -r "$W/quiet_night" "$W/quiet_written"
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); m["records_written"]=3; open(sys.argv[1],"w").write(json.dumps(m))' "$W/quiet_written/manifest.json"
run "$H" verify "$W/quiet_written"
rc_is 1 "verify a build whose manifest says rows were written"
has "$OUT" "no HFiles found" "verify a build whose manifest says rows were written"
cp -r "$W/quiet_night" "$W/quiet_unfinished"
rm "$W/quiet_unfinished/_SUCCESS"
run "$H" verify "$W/quiet_unfinished"
rc_is 1 "verify a build without _SUCCESS"
# ... but not one whose manifest lists files that are gone
"$H" build --quiet --rowkey '{id}' --out "$W/lost_files" "$SRC/samples/orders.csv" 2>/dev/null ||
  fail "build of the sample"
rm -f "$W"/lost_files/*/[0-9a-f]*
run "$H" verify "$W/lost_files"
rc_is 1 "verify a build whose files were removed"
has "$OUT" "no HFiles found" "verify a build whose files were removed"

# ---- --splits ----
printf 'hudi-key-000005000\n\nzzz\n' >"$W/splits.txt"
run "$H" verify --splits "$W/splits.txt" "$NONE" "$GZ"
rc_is 1 "splits"
has "$OUT" "OK $NONE: 5000 cells, 5000 rows, 22 blocks (18 data, 1 index, 0 bloom, 1 meta), region 0 [-inf, \"hudi-key-000005000\")" "splits"
has "$OUT" "FAIL $GZ: rows \"hudi-key-000000000\"..\"hudi-key-000019999\" span regions 0..1; completebulkload would split it at the end of region 0" "splits"
has "$OUT" "regions: 3 from 2 split keys" "splits"
has "$OUT" "FAIL: 1 of 2 HFiles spans more than one region" "splits"
grep -qF "0 of 2 HFiles failed" <<<"$OUT" && fail "splits: the summary counts a problem of 0"

printf 'hudi-key-000020000\n' >"$W/splits2.txt"
run "$H" verify --splits "$W/splits2.txt" "$NONE" "$GZ"
rc_is 0 "splits pass"
has "$OUT" "PASS: 2 HFiles verified, each inside one region" "splits pass"

args=()
for i in $(seq 33); do args+=("$NONE"); done
run "$H" verify --quiet --splits "$W/splits2.txt" "${args[@]}"
rc_is 1 "splits per region"
has "$OUT" 'FAIL region 0 [-inf, "hudi-key-000020000") family "": 33 files; completebulkload refuses more than 32' "splits per region"

printf 'b\na\n' >"$W/bad_splits.txt"
run "$H" verify --splits "$W/bad_splits.txt" "$NONE"
rc_is 2 "unsorted splits"
has "$ERR" "strictly ascending" "unsorted splits"
printf 'a\\q\n' >"$W/bad_splits.txt"
run "$H" verify --splits "$W/bad_splits.txt" "$NONE"
rc_is 2 "bad escape in splits"
run "$H" verify
rc_is 2 "verify without files"

# ---- a directory written by `hfilegen build` (another command: skipped when it
# cannot run, so this test judges verify, not build) ----
(echo "id,name"; for i in $(seq 1 3000); do echo "$i,n$i"; done) >"$W/in.csv"
printf 'k2\n' >"$W/build_splits.txt"
if "$H" build --rowkey 'k{id}' --out "$W/built" --splits "$W/build_splits.txt" \
     --bloom row --quiet "$W/in.csv" >/dev/null 2>&1; then
  run "$H" verify --splits "$W/build_splits.txt" "$W/built"
  rc_is 0 "verify built dir"
  has "$OUT" 'families: "cf" (2 files)' "verify built dir"
  has "$OUT" 'region 1 ["k2", +inf)' "verify built dir"
  has "$OUT" "PASS: 2 HFiles verified, each inside one region" "verify built dir"
  f=$(ls "$W/built/cf" | head -n 1)
  run "$H" inspect "$W/built/cf/$f"
  rc_is 0 "inspect built file"
  has "$OUT" "BLOOM_FILTER_TYPE = ROW" "inspect built file"
  has "$OUT" "type: ROW" "inspect built file"
  printf 'k15\n' >"$W/build_splits2.txt"
  run "$H" verify --splits "$W/build_splits2.txt" "$W/built"
  rc_is 1 "verify built dir, other splits"
  has "$OUT" 'span regions 0..1; completebulkload would split it at the end of region 0 [-inf, "k15")' \
    "verify built dir, other splits"

  # neither --splits nor --table: the build's splits, from its manifest.json
  run "$H" verify "$W/built"
  rc_is 0 "verify built dir by its manifest"
  has "$OUT" "regions: the build's, from $W/built/manifest.json" "verify built dir by its manifest"
  has "$OUT" "regions: 2 from 1 split keys" "verify built dir by its manifest"
  has "$OUT" "PASS: 2 HFiles verified, each inside one region" "verify built dir by its manifest"
  # a file of a one-region build copied in spans the manifest's boundary
  if "$H" build --rowkey 'k{id}' --out "$W/built1" --quiet "$W/in.csv" >/dev/null 2>&1; then
    cp -r "$W/built" "$W/mixed"
    cp "$W/built1/cf/"* "$W/mixed/cf/"
    run "$H" verify "$W/mixed"
    rc_is 1 "a copied-in file against the manifest's splits"
    has "$OUT" 'completebulkload would split it at the end of region 0 [-inf, "k2")' \
      "a copied-in file against the manifest's splits"
    # two builds with other splits: nothing to check regions against, and it says so
    run "$H" verify "$W/built" "$W/built1"
    rc_is 0 "two builds, other splits"
    has "$OUT" "NOTE regions not checked: no --splits or --table, and $W/built/manifest.json and $W/built1/manifest.json come from builds with other splits" \
      "two builds, other splits"
    grep -qF "each inside one region" <<<"$OUT" && fail "two builds, other splits: claims region checks"
  else
    fail "the one-region build did not run"
  fi
  rm "$W/mixed/manifest.json"
  run "$H" verify "$W/mixed"
  rc_is 0 "no manifest"
  has "$OUT" "NOTE regions not checked: no --splits or --table, and $W/mixed has no manifest.json with \"splits\"" "no manifest"
else
  echo "note: 'hfilegen build' did not run; the built-directory scenario was skipped"
fi

# ---- verify: a directory that does not exist is said to be missing (the note said "no
#      directory argument") ----
run "$H" verify "$W/no-such-dir"
rc_is 1 "verify of a missing directory"
has "$OUT" "NOTE regions not checked: no --splits or --table, and $W/no-such-dir does not exist" "verify of a missing directory"
has "$OUT" "FAIL $W/no-such-dir: cannot open: No such file or directory" "verify of a missing directory"

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed"
  exit 1
fi
echo "inspect_verify: all checks passed"

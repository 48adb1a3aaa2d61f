#!/usr/bin/env bash
# CLI scenarios for issue #11 (what a new user hit): job files take any number of inputs and
# maps; every exit != 0 prints why; numeric flags parse strictly; family names follow HBase's
# rule (and no leading '_', which completebulkload skips).
#   bash tests/cli/job_and_flags.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
# refused CMD...: exit 2 and a message on stderr naming $WANT
refused() {
  local want=$1
  shift
  "$@" > "$T/out" 2> "$T/err"
  local rc=$?
  if [ $rc -ne 2 ]; then bad "$* exits 2 (got $rc)"; return; fi
  if ! grep -qF -- "$want" "$T/err"; then bad "$* says '$want' (got: $(head -c 300 "$T/err"))"; return; fi
  ok
}

# 1. a job file with more inputs and maps than the command line has words
for i in $(seq 1 12); do printf 'id,c1,c2,c3,c4,c5,c6,b\n%d,1,2,3,4,5,6,y\n' "$i" > "$T/in$i.csv"; done
{
  echo "rowkey: '{id}'"
  echo "timestamp: 5"
  echo "inputs:"
  for i in $(seq 1 12); do echo "  - $T/in$i.csv"; done
  echo "map:"
  for i in $(seq 1 6); do echo "  - c$i=f$i:c"; done
} > "$T/nightly.yaml"
"$H" build --job "$T/nightly.yaml" --out "$T/j1" --quiet 2> "$T/j1.err"
rc=$?
check "build --job with 12 inputs and 6 maps succeeds (rc $rc: $(head -c 200 "$T/j1.err"))" '[ $rc -eq 0 ] && [ -f "$T/j1/_SUCCESS" ]'
check "all 12 records and 6 families written" '[ $(ls "$T/j1" | grep -c "^f") -eq 6 ] && [ $("$H" inspect --cells --tsv "$T"/j1/f1/* | wc -l) -eq 12 ]'
"$H" plan --job "$T/nightly.yaml" > "$T/plan.out" 2> "$T/plan.err"
rc=$?
check "plan --job with 12 inputs succeeds (rc $rc: $(head -c 200 "$T/plan.err"))" '[ $rc -eq 0 ]'
# more entries on top of the job's from the command line
"$H" build --job "$T/nightly.yaml" --out "$T/j2" --quiet --map b=g:b "$T/in1.csv" 2> "$T/j2.err"
check "command-line inputs and maps add to the job's (duplicate id 1 refused with a message)" \
  '[ -s "$T/j2.err" ] && grep -q "duplicate" "$T/j2.err"'
"$H" build --job "$T/nightly.yaml" --out "$T/j3" --quiet --map b=g:b 2> "$T/j3.err"
check "a command-line --map adds a family to the job's" '[ -d "$T/j3/g" ] && [ -d "$T/j3/f6" ]'

# 2. every usage failure says why
refused "job file" "$H" build --job "$T/missing.yaml" --out "$T/x"
printf 'rowkey: [\n' > "$T/broken.yaml"
refused "broken.yaml line" "$H" build --job "$T/broken.yaml" --out "$T/x"
refused "--out" "$H" build --rowkey '{id}' --out
refused "unknown command" "$H" nosuchcommand
refused "usage" "$H"

# 3. numeric flags parse strictly, naming the flag and the value
IN="$SRC/samples/orders.csv"
B=("$H" build --rowkey '{id}' --out "$T/never" --quiet)
refused "--threads abc" "${B[@]}" --threads abc "$IN"
refused "--threads 4x" "${B[@]}" --threads 4x "$IN"
refused "--threads -1" "${B[@]}" --threads -1 "$IN"
refused "--max-rejects -1" "${B[@]}" --max-rejects -1 "$IN"
refused "--max-rejects 1e3" "${B[@]}" --max-rejects 1e3 "$IN"
refused "--create-time abc" "${B[@]}" --create-time abc "$IN"
refused "--create-time 12abc" "${B[@]}" --create-time 12abc "$IN"
refused "--block-size 0x10" "${B[@]}" --block-size 0x10 "$IN"
refused "--block-size  64k" "${B[@]}" --block-size " 64k" "$IN"
refused "--block-size 1e4" "${B[@]}" --block-size 1e4 "$IN"
refused "--memory 1.3" "${B[@]}" --memory 1.3 "$IN"
refused "--max-file-size -5" "${B[@]}" --max-file-size -5 "$IN"
refused "--family-option cf:block-size=abc" "${B[@]}" --family-option cf:block-size=abc "$IN"
refused "'3x'" "$H" splits --regions 3x
refused "'-1'" "$H" splits --regions 3 --block-size -1
refused "--sample ' 0.5'" "$H" plan --rowkey '{id}' --sample " 0.5" "$IN"
refused "--limit" "$H" inspect --cells --limit 5k "$IN"
"$H" build --rowkey "{id}" --out "$T/bs1" --quiet --block-size 1.5k --timestamp 1 "$IN"
"$H" build --rowkey "{id}" --out "$T/bs2" --quiet --block-size 1536 --timestamp 1 "$IN"
check "--block-size 1.5k is 1536 bytes" 'diff -r "$T/bs1" "$T/bs2" >/dev/null && "$H" inspect "$T"/bs1/cf/* | grep -q "data_index_count: 704"'
check "splits --block-size takes a size like build's" '"$H" splits --regions 2 --block-size 64k --format shell | grep -q "65536"'

# 4. family names: HBase's rule and no leading '_'
refused "starting with '.'" "${B[@]}" --family .x "$IN"
refused "':'" "${B[@]}" --family a:b "$IN"
refused "'_'" "${B[@]}" --family _x "$IN"
refused "recovered.edits" "${B[@]}" --family recovered.edits "$IN"
refused "'/'" "${B[@]}" --family a/b "$IN"
refused "control characters" "${B[@]}" --family "$(printf 'a\tb')" "$IN"
refused "family '_d'" "${B[@]}" --map note=_d:note "$IN"
refused "family '.d'" "${B[@]}" --family-option .d:codec=gz "$IN"
printf 'rowkey: "{id}"\nfamily: _hidden\n' > "$T/fam.yaml"
refused "fam.yaml line 2" "$H" build --job "$T/fam.yaml" --out "$T/x" "$IN"
check "a family with '-' and digits is fine" '"$H" build --rowkey "{id}" --out "$T/fam_ok" --quiet --family d-1 "$IN"'

# 5. --family-option FAMILY:codec=zstd explains the framing choice as --codec zstd does
refused "zstd-hadoop" "${B[@]}" --family-option cf:codec=zstd "$IN"
refused "zstd-hbase" "${B[@]}" --codec zstd "$IN"

# 6. splits files: '#' comments, trailing whitespace refused with the line, empty file warned
printf '# salt buckets\n1\n2 \n3\n' > "$T/sp_ws.txt"
"$H" build --rowkey '{id % 4}|{id}' --splits "$T/sp_ws.txt" --out "$T/sp1" --quiet "$IN" 2> "$T/sp1.err"
check "a split key ending in a space is refused naming the line" \
  'grep -q "sp_ws.txt line 3: the key ends in a space" "$T/sp1.err" && [ ! -e "$T/sp1/_SUCCESS" ]'
refused "sp_ws.txt line 3" "$H" verify --splits "$T/sp_ws.txt" "$T/bs1"
printf '# salt buckets\n1\n2\\x20\n3\n' > "$T/sp_ok.txt"
"$H" build --rowkey '{id % 4}|{id}' --splits "$T/sp_ok.txt" --out "$T/sp2" --quiet "$IN" 2> "$T/sp2.err"
check "comments skipped, an escaped trailing space is a key: 4 regions" \
  '[ -f "$T/sp2/_SUCCESS" ] && "$H" verify --splits "$T/sp_ok.txt" "$T/sp2" | grep -q "regions: 4 from 3 split keys"'
printf '# no splits yet\n\n' > "$T/sp_empty.txt"
"$H" build --rowkey '{id}' --splits "$T/sp_empty.txt" --out "$T/sp3" --quiet "$IN" 2> "$T/sp3.err"
check "an empty splits file warns (one region) and builds" \
  'grep -q "sp_empty.txt: no split points: one region" "$T/sp3.err" && [ -f "$T/sp3/_SUCCESS" ]'
"$H" splits --algo uniform --regions 256 > "$T/u256.txt"
check "generated split lines read back (a '#' key escaped): 255 keys" \
  'grep -qx "\\\\x23\\\\x00.*" "$T/u256.txt" && "$H" verify --splits "$T/u256.txt" "$T/sp3" | grep -q "from 255 split keys"'

# 7. small things: version, help COMMAND, splits' shell defaults are build's (NONE)
check "--version and version print the CMake version" '"$H" --version | grep -qx "hfilegen [0-9][0-9.]*" && [ "$("$H" version)" = "$("$H" --version)" ]'
check "help build is build --help" '[ "$("$H" help build)" = "$("$H" build --help)" ]'
check "splits --format shell defaults to build's codec NONE" '"$H" splits --regions 2 --format shell | grep -q "COMPRESSION => '"'"'NONE'"'"'"'

# 8. job files (#29 item 5): a key given twice, a list or a mapping where one value goes,
# refused naming the file, the key and its line (before: the last key won, a list's last
# entry won, and 'map: {note: d:note}' got the hint to quote a rowkey template)
J=("$H" build --out "$T/jnever" --quiet "$IN")
jf() { printf "$2" > "$T/$1.yaml"; }
jf dup 'rowkey: "{id}"\ncodec: lz4\ncodec: gz\n'
refused "dup.yaml line 3: key 'codec' given twice (first on line 2)" "${J[@]}" --job "$T/dup.yaml"
jf dup2 'rowkey: "{id}"\nblock-size: 8k\nfamily: cf\nblock_size: 16k\n'
refused "dup2.yaml line 4: key 'block_size' sets 'block-size' of line 2 again" "${J[@]}" --job "$T/dup2.yaml"
jf dup3 'rowkey: "{id}"\ntable: t\ntable: u\n'
refused "dup3.yaml line 3: key 'table' given twice" "${J[@]}" --job "$T/dup3.yaml"
jf dup4 'rowkey: "{id}"\nmap: [{note: d:note, note: e:note}]\n'
refused "dup4.yaml line 2: key 'note' (in 'map') given twice" "${J[@]}" --job "$T/dup4.yaml"
jf list 'rowkey: "{id}"\nmemory: [1g]\n'
refused "list.yaml line 2: key 'memory' takes one value, not a list: write memory: 1g" "${J[@]}" --job "$T/list.yaml"
jf list2 'rowkey: "{id}"\ncodec:\n  - lz4\n  - gz\n'
refused "list2.yaml line 2: key 'codec' takes one value, not a list" "${J[@]}" --job "$T/list2.yaml"
jf mapmap 'rowkey: "{id}"\nmap: {note: d:note}\n'
refused "mapmap.yaml line 2: key 'map' takes COL=FAMILY:QUALIFIER entries, not a YAML mapping: write map: [\"note=d:note\"]" \
  "${J[@]}" --job "$T/mapmap.yaml"
check "  and not the rowkey template hint" '! grep -q "quote the template" "$T/err"'
jf mapitem 'rowkey: "{id}"\nmap:\n  - note: d:note\n'
refused "mapitem.yaml line 2: key 'map': the entry on line 3 is a YAML mapping, not one value: write '- note=d:note'" \
  "${J[@]}" --job "$T/mapitem.yaml"
jf codecmap 'rowkey: "{id}"\ncodec: {lz4}\n'
refused "codecmap.yaml line 2: key 'codec' takes one value, not a YAML mapping" "${J[@]}" --job "$T/codecmap.yaml"
jf inmap 'rowkey: "{id}"\ninputs: {a: b}\n'
refused "inmap.yaml line 2: key 'inputs' takes a list of values, not a YAML mapping" "${J[@]}" --job "$T/inmap.yaml"
jf colnest 'rowkey: "{id}"\ncolumns: [id, [x]]\n'
refused "colnest.yaml line 2: key 'columns': the entry on line 2 is a YAML list" "${J[@]}" --job "$T/colnest.yaml"
jf rk 'rowkey: {id}\n'
refused "rk.yaml line 1: a value that starts with '{' is a YAML mapping: quote the template" "${J[@]}" --job "$T/rk.yaml"
printf 'rowkey: "{id}"\ncodec: {lz4: x}|y\n' > "$T/brace.yaml"
refused "brace.yaml line 2: a value that starts with '{' is a YAML mapping: quote the value, e.g. codec:" \
  "${J[@]}" --job "$T/brace.yaml"
check "  (the template hint is for the rowkey only)" '! grep -q "quote the template" "$T/err"'
jf unk 'rowkey: "{id}"\ncodecs: [lz4]\n'
refused "unk.yaml line 2: unknown key 'codecs' (did you mean codec?)" "${J[@]}" --job "$T/unk.yaml"
jf hdr 'rowkey: "{id}"\nheader: maybe\n'
refused "hdr.yaml line 2: key 'header': expected true or false, got 'maybe'" "${J[@]}" --job "$T/hdr.yaml"
check "nothing was written for a refused job file" '[ ! -e "$T/jnever" ]'
# what stays fine: lists for the keys that take many, a scalar for one entry, booleans
printf 'rowkey: "{id %% 4}|{id}"\ntimestamp: 1\nmap:\n  - note=d:note\nfamily-option: [d:codec=gz, "cf:bloom=row"]\ncolumns: [id, user_id, created_at, amount, status, note]\nheader: yes\ninputs: %s\n' "$IN" > "$T/good.yaml"
"$H" build --job "$T/good.yaml" --out "$T/jgood" --quiet 2> "$T/jgood.err"
"$H" build --rowkey '{id % 4}|{id}' --timestamp 1 --map note=d:note --family-option d:codec=gz \
  --family-option cf:bloom=row --header --columns id,user_id,created_at,amount,status,note \
  --out "$T/jflags" --quiet "$IN"
check "a job file of lists, a scalar input and a boolean builds as the same flags ($(head -c 200 "$T/jgood.err"))" \
  '[ -f "$T/jgood/_SUCCESS" ] && diff -r "$T/jgood/cf" "$T/jflags/cf" >/dev/null && diff -r "$T/jgood/d" "$T/jflags/d" >/dev/null'
printf 'rowkey: "{id}"\nno-header: false\ntimestamp: 1\n' > "$T/nh.yaml"
"$H" build --job "$T/nh.yaml" --out "$T/jnh" --quiet "$IN" 2> "$T/jnh.err"
check "no-header: false keeps the header ($(head -c 200 "$T/jnh.err"))" \
  '[ "$("$H" inspect --cells --tsv "$T"/jnh/cf/* | cut -f1 | sort -u | wc -l)" -eq 5000 ]'

echo "job_and_flags: $passes passed, $fails failed"
[ $fails -eq 0 ]

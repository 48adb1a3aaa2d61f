#!/usr/bin/env bash
# CLI scenarios for where a new user trips (the "be a new user" pass): each section is a
# mistake or an environment a real user has, and what hfilegen must do about it.
#   bash tests/cli/newuser.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
TS=1720695600000
unpublished() { [ ! -e "$1/_SUCCESS" ] && [ -z "$(find "$1" -type f ! -name "_*" 2>/dev/null)" ]; }
python3 "$SRC/tools/make_sample.py" 20000 "$T/big.csv" > /dev/null

# ---- 1. a file size limit (ulimit -f) fails the job cleanly --------------------------
# SIGXFSZ's default action killed the process mid-write: no message, the staging
# directory left behind and the user's own (empty) output directory hidden inside it.
mkdir "$T/fs"
(ulimit -f 256; "$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" \
  --codec none --timestamp $TS --quiet --out "$T/fs" "$T/big.csv") 2> "$T/fs.err"
rc=$?
check "ulimit -f: exit 1, not killed by SIGXFSZ (rc $rc)" '[ $rc -eq 1 ]'
check "ulimit -f: the error names the file and the reason" 'grep -q "File too large" "$T/fs.err"'
check "ulimit -f: the output directory is back, nothing loadable in it" \
  '[ -d "$T/fs" ] && unpublished "$T/fs"'
check "ulimit -f: no staging directory left" '[ ! -e "$T/.fs.hfilegen-staging" ]'

# ---- 2. a rowkey template without a column ------------------------------------------
# '--rowkey id' (for '{id}') is a constant: every record got the rowkey 'id', the build
# failed on a duplicate and pointed at --on-duplicate last, which keeps one row of all.
"$H" build --rowkey id --out "$T/k1" --quiet "$SRC/samples/orders.csv" 2> "$T/k1.err"
rc=$?
check "constant rowkey: refused as a usage error (rc $rc)" '[ $rc -eq 2 ] && unpublished "$T/k1"'
check "constant rowkey: says why and what to write" \
  'grep -q "uses no column: every record would get this one rowkey" "$T/k1.err" && grep -q "{id}" "$T/k1.err"'
check "constant rowkey: not the --on-duplicate advice" '! grep -q "on-duplicate" "$T/k1.err"'
printf 'rowkey: "id"\ninputs: [%s]\nout: %s\n' "$SRC/samples/orders.csv" "$T/k2" > "$T/k2.yaml"
"$H" build --job "$T/k2.yaml" --quiet 2> "$T/k2.err"
check "constant rowkey in a job file: refused too" '[ $? -eq 2 ] && grep -q "uses no column" "$T/k2.err"'
"$H" lint --rowkey id > "$T/k3.out" 2>&1
check "lint: constant-key is an error (exit 1)" '[ $? -eq 1 ] && grep -q "^error   constant-key" "$T/k3.out"'
"$H" build --rowkey 'salt:id:10' --out "$T/k4" --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "a preset names its column: built" '[ -f "$T/k4/_SUCCESS" ]'

# ---- 3. inputs checked before the first record is read ------------------------------
# A missing last input failed the job only after every input before it was read, and a
# file given twice failed on "duplicate rowkey ... big.csv line 2 and big.csv line 2".
"$H" build --rowkey '{id}' --out "$T/i1" --quiet "$T/big.csv" "$T/nope.csv" 2> "$T/i1.err"
rc=$?
check "missing second input: exit 1 (rc $rc)" '[ $rc -eq 1 ] && unpublished "$T/i1"'
check "missing second input: named, with its place and the reason, before reading" \
  'grep -q "nope.csv (input 2 of 2): cannot open: No such file or directory" "$T/i1.err" &&
   grep -q "nothing was read or published" "$T/i1.err"'
"$H" build --rowkey '{id}' --out "$T/i2" --quiet "$T/big.csv" "$T/./big.csv" 2> "$T/i2.err"
rc=$?
check "one file given twice: warned about first, naming both, then the duplicate fails (rc $rc)" \
  '[ $rc -eq 1 ] && head -1 "$T/i2.err" | grep -q "warning: .* (inputs 1 and 2) are the same file" &&
   grep -q "duplicate rowkey" "$T/i2.err" && unpublished "$T/i2"'
ln -s "$T/big.csv" "$T/link.csv"
"$H" build --rowkey '{id}' --out "$T/i3" --on-duplicate last --timestamp $TS --quiet \
  "$T/link.csv" "$T/big.csv" 2> "$T/i3.err"
check "a symlink to an input is the same file; with --on-duplicate last it builds" \
  '[ $? -eq 0 ] && grep -q "are the same file" "$T/i3.err" && [ -f "$T/i3/_SUCCESS" ]'
"$H" build --rowkey '{id}' --out "$T/i4" --quiet "$SRC/samples" 2> "$T/i4.err"
check "a directory as input: named as such" '[ $? -eq 1 ] && grep -q "samples (input 1 of 1): cannot open: is a directory" "$T/i4.err"'
head -3 "$T/big.csv" > "$T/small.csv"
"$H" build --rowkey '{id}' --out "$T/i5" --timestamp $TS --quiet - "$T/small.csv" < "$T/big.csv" 2> "$T/i5.err"
check "stdin and a file: not the same file, read both" '[ $? -ne 0 ] && grep -q "duplicate rowkey" "$T/i5.err"'

# ---- 4. --columns on a file that has a header -----------------------------------------
# --columns alone means "no header": the header line was loaded as a row (rowkey 'id',
# cells user_id=user_id, ...), counted as a record written, and nothing said so.
COLS=id,user_id,created_at,amount,status,note
"$H" build --rowkey '{id}' --columns $COLS --out "$T/h1" --quiet "$SRC/samples/orders.csv" 2> "$T/h1.err"
rc=$?
check "--columns on a file with a header: refused (rc $rc)" '[ $rc -eq 2 ] && unpublished "$T/h1"'
check "--columns on a header: names the file and line and the fix" \
  'grep -q "orders.csv line 1 holds the column names given to --columns" "$T/h1.err" &&
   grep -q "give --header --columns" "$T/h1.err"'
printf 'ID, User_Id \n1,2\n' > "$T/h2.csv"
gzip -c "$T/h2.csv" > "$T/h2.csv.gz"
"$H" build --rowkey '{id}' --columns id,user_id --out "$T/h2" --quiet "$T/small.csv" "$T/h2.csv.gz" 2> "$T/h2.err"
check "a header differing in case and blanks, in a later gzip input: refused" \
  '[ $? -eq 2 ] && grep -q "h2.csv.gz line 1 holds the column names" "$T/h2.err"'
"$H" plan --rowkey '{id % 10}|{id}' --columns $COLS "$SRC/samples/orders.csv" > /dev/null 2> "$T/h5.err"
check "plan: --columns on a header refused the same way" \
  '[ $? -eq 2 ] && grep -q "^hfilegen plan: .*orders.csv line 1 holds the column names given to --columns" "$T/h5.err"'
# what cannot be read twice (stdin, a pipe, a FIFO) is checked as it is read: the job fails
# at its first record instead of loading the header as a row
"$H" build --rowkey '{id}' --columns $COLS --out "$T/h6" --quiet - < "$SRC/samples/orders.csv" 2> "$T/h6.err"
rc=$?
check "--columns on a header from stdin: refused (rc $rc)" \
  '[ $rc -eq 1 ] && unpublished "$T/h6" && grep -q "<stdin> line 1 holds the column names given to --columns" "$T/h6.err"'
gzip -c "$SRC/samples/orders.csv" | "$H" build --rowkey '{id}' --columns $COLS --out "$T/h7" --threads 2 \
  --quiet - 2> "$T/h7.err"
rc=$?
check "--columns on a header in a gzip pipe, 2 threads: refused (rc $rc)" \
  '[ $rc -eq 1 ] && unpublished "$T/h7" && grep -q "<stdin> line 1 holds the column names" "$T/h7.err"'
mkfifo "$T/h8.csv"
cat "$SRC/samples/orders.csv" > "$T/h8.csv" &
"$H" build --rowkey '{id}' --columns $COLS --out "$T/h8" --quiet "$T/h8.csv" 2> "$T/h8.err"
rc=$?
wait
check "--columns on a header in a FIFO: refused (rc $rc)" \
  '[ $rc -eq 1 ] && unpublished "$T/h8" && grep -q "h8.csv line 1 holds the column names" "$T/h8.err"'
tail -n +2 "$SRC/samples/orders.csv" | "$H" build --rowkey '{id}' --columns $COLS --out "$T/h9" \
  --timestamp $TS --quiet - 2> "$T/h9.err"
check "--columns on stdin without a header: built, 5000 rows" \
  '[ -f "$T/h9/_SUCCESS" ] && grep -q "\"records_written\": 5000," "$T/h9/manifest.json"'
"$H" build --rowkey '{id}' --header --columns $COLS --out "$T/h3" --timestamp $TS --quiet "$SRC/samples/orders.csv"
check "--header --columns still renames" '[ -f "$T/h3/_SUCCESS" ]'
tail -n +2 "$SRC/samples/orders.csv" > "$T/nohdr.csv"
"$H" build --rowkey '{id}' --columns $COLS --out "$T/h4" --timestamp $TS --quiet "$T/nohdr.csv"
check "--columns on a file without a header: built, 5000 rows" \
  '[ -f "$T/h4/_SUCCESS" ] && grep -q "\"records_written\": 5000," "$T/h4/manifest.json"'

# ---- 5. an unknown column explained for dumps, header-less files and binary input -----
# A MySQL/PostgreSQL text dump (no header, TABs, \N) read as CSV got "is it TSV? give
# --format tsv", which then stores \N as two bytes; random bytes were printed raw.
printf '1\t35094\t\\N\n2\t348\tx\n' > "$T/orders.txt"
"$H" build --rowkey '{id % 10}|{id}' --out "$T/d1" --quiet "$T/orders.txt" 2> "$T/d1.err"
check "a dump read as CSV: hint at --format mysql / pg-text, not tsv" \
  'grep -q "is a record, not a header: a MySQL .* text dump has none: give --format mysql or --format pg-text with --columns" "$T/d1.err" &&
   ! grep -q "give --format tsv" "$T/d1.err"'
printf '1,2,3\n4,5,6\n' > "$T/nohdr2.csv"
"$H" build --rowkey '{id}' --out "$T/d2" --quiet "$T/nohdr2.csv" 2> "$T/d2.err"
check "a CSV without a header: the first line is a record, give --columns" \
  'grep -q "the columns read are .1., .2., .3. (3); the first line is a record, not a header: give the column names with --columns" "$T/d2.err"'
printf 'G\xb4\xc00\x01z,\xff\x1bq\n1,2\n' > "$T/bin.csv"
"$H" build --rowkey '{id}' --out "$T/d3" --quiet "$T/bin.csv" 2> "$T/d3.err"
check "binary bytes: escaped, never raw, and the input called not text" \
  'grep -qF "'"'"'G\xb4\xc00\x01z'"'"', '"'"'\xff\x1bq'"'"' (2); the header is not text" "$T/d3.err" &&
   ! LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n" < "$T/d3.err")'
printf 'na\xc3\xafve,id\n1,2\n' > "$T/u.csv"
"$H" build --rowkey '{idd}' --out "$T/d4" --quiet "$T/u.csv" 2> "$T/d4.err"
want=$(printf "'na\xc3\xafve', 'id' (2)")
check "UTF-8 names stay as they are" 'grep -qF "$want" "$T/d4.err" && ! grep -q "not text" "$T/d4.err"'

# ---- 6. a rowkey template unquoted in a job file ---------------------------------------
# YAML reads {id} as a mapping: "'rowkey' must be a scalar or a list", or libyaml's "did
# not find expected key", without a word about quoting.
printf 'inputs: [%s]\nrowkey: {id}\nout: %s\n' "$SRC/samples/orders.csv" "$T/y1" > "$T/y1.yaml"
"$H" build --job "$T/y1.yaml" 2> "$T/y1.err"
check "rowkey: {id} in YAML: says to quote it" \
  '[ $? -eq 2 ] && grep -q "y1.yaml line 2: a value that starts with .{. is a YAML mapping: quote the template" "$T/y1.err"'
printf 'inputs: [%s]\nout: %s\nrowkey: {id %% 10}|{id}\n' "$SRC/samples/orders.csv" "$T/y2" > "$T/y2.yaml"
"$H" build --job "$T/y2.yaml" 2> "$T/y2.err"
check "rowkey: {id % 10}|{id} (a YAML syntax error): says to quote it" \
  '[ $? -eq 2 ] && grep -q "y2.yaml line 3: a value that starts with .{. is a YAML mapping" "$T/y2.err"'
printf 'inputs: [%s]\n  out: x\n' "$SRC/samples/orders.csv" > "$T/y3.yaml"
"$H" build --job "$T/y3.yaml" 2> "$T/y3.err"
check "another YAML error: no brace hint" '[ $? -eq 2 ] && ! grep -q "YAML mapping" "$T/y3.err"'

# ---- 7. --rejects naming an input -------------------------------------------------------
# The rejects file is created empty and removed when nothing is rejected: a --rejects
# that named the input deleted it after a "successful" job (a larger one was cut short
# under the reader first).
cp "$T/big.csv" "$T/victim.csv"
sum0=$(cksum < "$T/victim.csv")
"$H" build --rowkey '{id}' --out "$T/v1" --rejects "$T/./victim.csv" --quiet "$T/victim.csv" 2> "$T/v1.err"
rc=$?
check "--rejects = the input: refused (rc $rc), naming both" \
  '[ $rc -eq 2 ] && grep -q "is .*victim.csv (input 1): the rejects file is written from empty" "$T/v1.err"'
check "--rejects = the input: the input is untouched" '[ "$(cksum < "$T/victim.csv")" = "$sum0" ]'
cp "$SRC/samples/splits/salt10.txt" "$T/sp.txt"
"$H" build --rowkey '{id}' --out "$T/v2" --splits "$T/sp.txt" --rejects "$T/sp.txt" --quiet "$T/small.csv" 2> "$T/v2.err"
check "--rejects = the splits file: refused" '[ $? -eq 2 ] && grep -q "(the --splits file)" "$T/v2.err" && [ -s "$T/sp.txt" ]'
echo old > "$T/old_rejects.tsv"
"$H" build --rowkey '{id}' --out "$T/v3" --rejects "$T/old_rejects.tsv" --timestamp $TS --quiet "$T/small.csv"
check "--rejects = some other existing file: still taken" '[ $? -eq 0 ] && [ -f "$T/v3/_SUCCESS" ]'

# ---- 8. key / scan-ranges: a NAME=VALUE the template does not use ----------------------
# "the template has no column 'ID'" and nothing more: which columns does it have?
"$H" key --rowkey '{id % 10}|{id}' ID=5 2> "$T/c1.err"
check "key: a name in the wrong case: the template's columns and did you mean" \
  '[ $? -eq 2 ] && grep -q "the template has no column .ID." "$T/c1.err" &&
   grep -q "^  the template.s column: .id.; did you mean .id.?" "$T/c1.err"'
"$H" scan-ranges --rowkey '{murmur3(user_id) % 16 :02}_{created_at}_{id}' \
  --from createdAt=1 --to createdAt=5 > /dev/null 2> "$T/c2.err"
check "scan-ranges: an unknown field lists the template's columns" \
  '[ $? -eq 2 ] && grep -q "^  the template.s columns: .user_id., .created_at., .id.$" "$T/c2.err"'

# ---- 9. a header column without a name --------------------------------------------------
# "id,,note" (or a trailing comma) made cells with an empty qualifier, cf:, silently.
printf 'id,,note\n1,x,y\n' > "$T/e1.csv"
"$H" build --rowkey '{id}' --out "$T/e1" --timestamp $TS --quiet "$T/e1.csv" 2> "$T/e1.err"
check "unnamed header column: built, with a warning naming the column, the cell and the fix" \
  '[ $? -eq 0 ] && grep -q "e1.csv: column 2 of the header has no name: its values become cells with an empty qualifier (cf:); drop it with --map .=-." "$T/e1.err"'
"$H" build --rowkey '{id}' --out "$T/e2" --map '=-' --timestamp $TS --quiet "$T/e1.csv" 2> "$T/e2.err"
check "unnamed column mapped (--map '=-'): no warning, no empty qualifier" \
  '[ $? -eq 0 ] && [ ! -s "$T/e2.err" ] && [ -z "$("$H" inspect --cells --tsv "$T"/e2/cf/* | awk -F"\t" "\$3 == \"\"")" ]'
# the same name from --columns (a trailing comma), with and without --header
printf '1,x\n' > "$T/e6.csv"
"$H" build --rowkey '{id}' --out "$T/e6" --columns 'id,' --timestamp $TS --quiet "$T/e6.csv" 2> "$T/e6.err"
check "an empty --columns name: built, with the warning" \
  '[ $? -eq 0 ] && grep -q "warning: --columns name 2 is empty: that column.s values become cells with an empty qualifier (cf:)" "$T/e6.err"'
"$H" build --rowkey '{id}' --out "$T/e7" --header --columns 'id,,note' --timestamp $TS --quiet "$T/e1.csv" \
  2> "$T/e7.err"
check "an empty --header --columns name: warned" '[ $? -eq 0 ] && grep -q "warning: --columns name 2 is empty" "$T/e7.err"'
"$H" build --rowkey '{id}' --out "$T/e3" --timestamp $TS --quiet "$T/small.csv" 2> "$T/e3.err"
check "named columns: no warning" '[ $? -eq 0 ] && [ ! -s "$T/e3.err" ]'
# " User Name ": the blanks stayed in the qualifier (cf: User Name ) silently
printf 'id, User Name ,note\n1,x,y\n' > "$T/e4.csv"
"$H" build --rowkey '{id}' --out "$T/e4" --timestamp $TS --quiet "$T/e4.csv" 2> "$T/e4.err"
check "a header name with blanks around it: warned, naming the qualifier it makes" \
  '[ $? -eq 0 ] && grep -q "e4.csv: header column 2 '"'"' User Name '"'"' begins or ends with a blank, which stays in its qualifier (cf: User Name )" "$T/e4.err"'
"$H" build --rowkey '{id}' --out "$T/e5" --timestamp $TS --quiet --map ' User Name =cf:user' "$T/e4.csv" 2> "$T/e5.err"
check "the same name mapped with --map: no warning" '[ $? -eq 0 ] && [ ! -s "$T/e5.err" ]'

# ---- 10. a file with CR line ends only, and a job that reads no record -------------------
# Lines ended by CR alone are one line: the file was all header, the job "succeeded" with
# 0 records and no HFiles, and nothing said so.
printf 'id,name\r1,a\r2,b\r' > "$T/cr.csv"
"$H" build --rowkey '{id}' --out "$T/r1" --timestamp $TS --quiet "$T/cr.csv" 2> "$T/r1.err"
check "CR-only lines: the header's CR is warned about, with the fix" \
  '[ $? -eq 0 ] && grep -q "cr.csv: the header.s column 2 holds a CR: lines that end in CR alone" "$T/r1.err"'
check "no record read: warned about, even with --quiet" \
  'grep -q "warning: no records were read (the inputs hold no more than a header): .*r1 holds no HFiles" "$T/r1.err"'
"$H" build --rowkey '{name}' --out "$T/r2" --quiet "$T/cr.csv" 2> "$T/r2.err"
check "CR-only lines and an unknown column: the hint says CR, not binary" \
  'grep -q "the header holds CRs (.x0d): lines that end in CR alone" "$T/r2.err" && ! grep -q "binary" "$T/r2.err"'
"$H" build --rowkey '{id}' --out "$T/r3" --timestamp $TS --quiet "$T/small.csv" 2> "$T/r3.err"
check "records read: no such warning" '[ ! -s "$T/r3.err" ]'

# ---- 11. a splits file made by hand: wrong order, repeats, a byte order mark -------------
# "line 2: split keys must be strictly ascending (unsigned bytes) and non-empty" and no
# word on how to get them so, or that a BOM made the first key sort last.
printf '5\n1\n9\n' > "$T/order.txt"
printf '1\n2\n2\n3\n' > "$T/dup.txt"
printf '\xef\xbb\xbf1\n2\n' > "$T/bom.txt"
"$H" build --rowkey '{id}' --splits "$T/order.txt" --out "$T/s1" --quiet "$T/small.csv" 2> "$T/s1.err"
check "splits out of order: build says how to sort them" \
  '[ $? -eq 1 ] && grep -q "order.txt line 2: split keys must be strictly ascending" "$T/s1.err" &&
   grep -q "compare as unsigned bytes, as in HBase, .*LC_ALL=C sort -u .*order.txt" "$T/s1.err"'
"$H" plan --rowkey '{id}' --splits "$T/dup.txt" "$T/small.csv" > /dev/null 2> "$T/s2.err"
check "repeated split key: plan says sort -u" '[ $? -eq 1 ] && grep -q "LC_ALL=C sort -u .*dup.txt" "$T/s2.err"'
"$H" verify --splits "$T/bom.txt" "$T/h3" > /dev/null 2> "$T/s3.err"
check "a BOM in the splits file: verify names it" \
  '[ $? -eq 2 ] && grep -q "bom.txt starts with a UTF-8 byte order mark" "$T/s3.err"'
check "the order error names both keys and lines" \
  'grep -q "order.txt line 2: .*'"'"'1'"'"' sorts before '"'"'5'"'"' of line 1" "$T/s1.err"'
check "a repeated key is called a repeat" \
  'grep -q "dup.txt line 3: .*'"'"'2'"'"' repeats the key of line 2" "$T/s2.err"'
# a BOM before keys that stay in order (one key) became part of the key silently
printf '\xef\xbb\xbfk5\n' > "$T/bom1.txt"
"$H" build --rowkey '{id}' --splits "$T/bom1.txt" --out "$T/s5" --quiet "$T/small.csv" 2> "$T/s5.err"
check "a BOM is refused even when the keys are in order" \
  '[ $? -eq 1 ] && grep -q "bom1.txt starts with a UTF-8 byte order mark" "$T/s5.err" && [ ! -e "$T/s5/_SUCCESS" ]'
LC_ALL=C sort -u "$T/order.txt" > "$T/sorted.txt"
"$H" build --rowkey '{id}' --splits "$T/sorted.txt" --out "$T/s4" --timestamp $TS --quiet "$T/small.csv"
check "the sort the hint gives is accepted" '[ $? -eq 0 ] && [ -f "$T/s4/_SUCCESS" ]'

# ---- 12. an output directory that cannot be written: the message says what failed --------
# It was "ro/out: Permission denied", or for a read-only <out> the hidden staging name
# ".out.hfilegen-staging/cf: Permission denied". Root writes anywhere: run as nobody.
as_user() { if [ "$(id -u)" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; else "$@"; fi; }
if [ "$(id -u)" != 0 ] || setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null; then
  chmod 755 "$T"
  mkdir -p "$T/ro1" "$T/ro2/out" && chmod 555 "$T/ro1" "$T/ro2/out" && chmod 777 "$T/ro2"
  as_user "$H" build --rowkey '{id}' --out "$T/ro1/out" --quiet "$T/small.csv" 2> "$T/w1.err"
  check "unwritable parent: cannot create the output directory, named" \
    '[ $? -eq 1 ] && grep -q "cannot create the output directory .*ro1/out: Permission denied" "$T/w1.err"'
  as_user "$H" build --rowkey '{id}' --out "$T/ro2/out" --quiet "$T/small.csv" 2> "$T/w2.err"
  check "read-only output directory: the family directory named as the user wrote it" \
    '[ $? -eq 1 ] && grep -q "cannot create the family directory .*ro2/out/cf: Permission denied" "$T/w2.err" &&
     ! grep -q "hfilegen-staging" "$T/w2.err" && [ -d "$T/ro2/out" ]'
  chmod 755 "$T/ro1" "$T/ro2/out"
else
  echo "newuser: section 12 skipped (root without setpriv)"
fi

# ---- 13. build --help gives the defaults a new user asks about ---------------------------
"$H" build --help > "$T/help.txt"
check "build --help: what --threads 0 (the default) means" 'grep -q "threads 0, the default: one per core" "$T/help.txt"'
printf 'id,v\n\n1,a\n\n\n2,b\n\n' > "$T/blank.csv"
"$H" build --rowkey '{id}' --out "$T/b1" --timestamp $TS --quiet "$T/blank.csv"
check "blank lines are not records (as README says)" 'grep -q "\"records_read\": 2," "$T/b1/manifest.json"'
printf 'id,name\n1,a\n\n2,b\n\n\n3,c\n' > "$T/blank3.csv"
"$H" build --rowkey '{id}' --out "$T/b3" --timestamp $TS "$T/blank3.csv" > "$T/b3.log" 2> /dev/null
check "blank lines are counted: the summary accounts for every line" \
  'grep -q "^  blank lines       3 (skipped: not records)$" "$T/b3.log" && grep -q "\"blank_lines\": 3," "$T/b3/manifest.json"'

# ---- 14. a job file run from another directory ------------------------------------------
# samples/jobs/*.yaml name samples/orders.csv: run from samples/jobs, the input is missing
# and nothing said that a job file's paths are relative to the working directory.
(cd "$SRC/samples/jobs" && "$H" build --job orders_salt10.yaml --out "$T/j1" --quiet) 2> "$T/j1.err"
check "job file from elsewhere: says paths are relative to where hfilegen runs" \
  '[ $? -eq 1 ] && grep -q "samples/orders.csv (input 1 of 1): cannot open" "$T/j1.err" &&
   grep -q "paths in a job file are relative to the directory hfilegen runs in, not to the job file orders_salt10.yaml" "$T/j1.err"'
"$H" build --rowkey '{id}' --out "$T/j2" --quiet "$T/nope.csv" 2> "$T/j2.err"
check "no job file: no such note" '[ $? -eq 1 ] && ! grep -q "job file" "$T/j2.err"'

# ---- 15. no --splits and no --table ---------------------------------------------------------
# One region, silently: every file spans the whole key space, which a pre-split table
# makes completebulkload split.
"$H" build --rowkey '{id}' --out "$T/n1" --timestamp $TS "$T/small.csv" > /dev/null 2> "$T/n1.err"
check "no splits: a note says one region and what to give" \
  '[ $? -eq 0 ] && grep -q "note: no --splits or --table: one region, .*give --splits FILE or --table NAME" "$T/n1.err"'
"$H" build --rowkey '{id % 10}|{id}' --splits "$SRC/samples/splits/salt10.txt" --out "$T/n2" \
  --timestamp $TS "$T/small.csv" > /dev/null 2> "$T/n2.err"
check "with --splits: no note" '[ $? -eq 0 ] && [ ! -s "$T/n2.err" ]'
"$H" build --rowkey '{id}' --out "$T/n3" --timestamp $TS --quiet "$T/small.csv" 2> "$T/n3.err"
check "--quiet: no note" '[ $? -eq 0 ] && [ ! -s "$T/n3.err" ]'

# ---- 16. a MySQL dump with CR LF line ends read with the default LINES TERMINATED BY -------
# Every record's last field kept the CR (as LOAD DATA would), and nothing said so.
printf '1\ta\r\n2\tb\r\n' > "$T/crlf.txt"
"$H" build --format mysql --columns id,name --rowkey '{id}' --out "$T/m1" --timestamp $TS --quiet \
  "$T/crlf.txt" 2> "$T/m1.err"
check "mysql CR LF: warned about, with the flag to give" \
  '[ $? -eq 0 ] && grep -q "crlf.txt: line 1 ends in CR LF: each record.s last field keeps the CR; .*give --lines-terminated-by" "$T/m1.err"'
"$H" build --format mysql --columns id,name --lines-terminated-by '\r\n' --rowkey '{id}' --out "$T/m2" \
  --timestamp $TS --quiet "$T/crlf.txt" 2> "$T/m2.err"
check "mysql with --lines-terminated-by '\r\n': no warning, no CR in the values" \
  '[ $? -eq 0 ] && [ ! -s "$T/m2.err" ] && ! "$H" inspect --cells "$T"/m2/cf/* | grep -q "x0d"'
printf '1\ta\n2\tb\n' > "$T/lf.txt"
"$H" build --format mysql --columns id,name --rowkey '{id}' --out "$T/m3" --timestamp $TS --quiet \
  "$T/lf.txt" 2> "$T/m3.err"
check "mysql LF: no warning" '[ $? -eq 0 ] && [ ! -s "$T/m3.err" ]'

# ---- 17. inspect given build's output directory -----------------------------------------
"$H" inspect "$T/h3" > /dev/null 2> "$T/in1.err"
check "inspect DIR: says it takes HFiles and that verify checks a directory" \
  '[ $? -ne 0 ] && grep -q "it takes HFiles (.*h3/<family>/<file>); .hfilegen verify .*h3. checks a whole output directory" "$T/in1.err"'

# ---- 18. counts of one are singular ---------------------------------------------------------
# "1 records read", "all 1 records were rejected", "1 rowkeys are longer" read wrong.
printf 'id,v\nx,1\n' > "$T/one_bad.csv"
"$H" build --rowkey '{long(id)}' --out "$T/o1" --timestamp $TS "$T/one_bad.csv" > /dev/null 2> "$T/o1.err"
check "one record rejected: '1 record read'" '[ $? -eq 1 ] && grep -q "(1 record read, 1 rejected)" "$T/o1.err"'
"$H" build --rowkey '{long(id)}' --out "$T/o2" --timestamp $TS --max-rejects 5 "$T/one_bad.csv" > /dev/null 2> "$T/o2.err"
check "the only record rejected: said so in the singular" \
  '[ $? -eq 1 ] && grep -q "the one record read was rejected (see .*o2/_rejects.tsv): nothing to publish" "$T/o2.err"'
python3 -c "print('id,v'); print('k' * 300 + ',1'); print('a,2')" > "$T/one_long.csv"
"$H" build --rowkey '{id}' --out "$T/o3" --timestamp $TS "$T/one_long.csv" > "$T/o3.log" 2> /dev/null
check "one long rowkey: '1 rowkey is longer'" 'grep -q "WARNING: 1 rowkey is longer than 200 bytes" "$T/o3.log"'

# ---- 19. a binary file given as CSV ---------------------------------------------------------
# 4 KiB of random bytes said "line 1: malformed header: quote in unquoted field".
python3 -c "import random, sys; r = random.Random(3); sys.stdout.buffer.write(bytes(r.randrange(256) for _ in range(4096)))" > "$T/rnd.csv"
"$H" build --rowkey '{id}' --out "$T/x1" --timestamp $TS "$T/rnd.csv" > /dev/null 2> "$T/x1.err"
check "binary input: said to look binary, naming the file, byte and line" \
  '[ $? -eq 1 ] && grep -q "rnd.csv: the input looks binary, not CSV text (a NUL byte at byte 230, line 5): is it compressed in a format hfilegen does not read" "$T/x1.err"'

# ---- 20. what is read once, written nowhere, or written to no file --------------------------
printf 'id,v\n1,x\n' | "$H" build --rowkey '{id}' --out "$T/y1" --quiet - - 2> "$T/y1.err"
check "stdin given twice: refused, a usage error (the second read was empty, silently)" \
  '[ $? -eq 2 ] && unpublished "$T/y1" && grep -q "(stdin) is inputs 1 and 2: it can be read once" "$T/y1.err"'
"$H" build --rowkey '{id}' --out "$T/y2" --rejects - --quiet "$T/small.csv" 2> "$T/y2.err"
check "--rejects -: refused (it wrote a file named -)" '[ $? -eq 2 ] && [ ! -e ./- ] && grep -q "rejects go to a file" "$T/y2.err"'
printf 'id,v\n1,\n2,\n' > "$T/nocell.csv"
"$H" build --rowkey '{id}' --out "$T/y3" --timestamp $TS --quiet "$T/nocell.csv" 2> "$T/y3.err"
check "records read but none written: warned, with each count" \
  '[ $? -eq 0 ] && grep -q "warning: 2 records read, none written (0 rejected, 2 without cells, 0 duplicates dropped): .*y3 holds no HFiles" "$T/y3.err"'

# ---- 21. a nightly changes load's own files and flags -----------------------------------------
# --rejects naming the --deletes file deleted it (the rejects file is written from empty and
# removed when nothing is rejected: the hard deletes were lost, and the job failed on an empty
# deletes source); a --deletes file that does not exist failed the job only after every row was
# read; --deletes-time without --deletes was ignored (deletes at no column's time, silently).
printf 'op,id,v,ts\ni,1,a,1720000000000\nd,2,,1720000000100\n' > "$T/ch.csv"
printf 'id,gone_ms\n3,1720000000200\n' > "$T/tomb.csv"
cp "$T/tomb.csv" "$T/tomb.bak"
"$H" build --rowkey '{id}' --op-column op --timestamp column:ts --map ts=- --deletes "$T/tomb.csv" \
  --rejects "$T/tomb.csv" --out "$T/nd1" --quiet "$T/ch.csv" 2> "$T/nd1.err"
check "--rejects naming the --deletes file: refused, the file kept" \
  '[ $? -eq 2 ] && cmp -s "$T/tomb.csv" "$T/tomb.bak" && [ ! -e "$T/nd1" ] &&
   grep -q "rejects .*tomb.csv is .*tomb.csv (the --deletes file)" "$T/nd1.err"'
"$H" build --rowkey '{id}' --op-column op --timestamp column:ts --map ts=- --deletes "$T/nosuch.csv" \
  --out "$T/nd2" --quiet "$T/ch.csv" 2> "$T/nd2.err"
check "a missing --deletes file: refused before a record is read, named" \
  '[ $? -eq 1 ] && [ ! -e "$T/nd2" ] && grep -q "FAILED: --deletes .*nosuch.csv: cannot open: No such file or directory" "$T/nd2.err" &&
   grep -q "nothing was read or published" "$T/nd2.err"'
"$H" build --rowkey '{id}' --op-column op --timestamp column:ts --map ts=- --deletes-time gone_ms \
  --out "$T/nd3" --quiet "$T/ch.csv" 2> "$T/nd3.err"
check "--deletes-time without --deletes: a usage error" \
  '[ $? -eq 2 ] && [ ! -e "$T/nd3" ] && grep -q -- "--deletes-time gone_ms: goes with --deletes" "$T/nd3.err"'
"$H" build --rowkey '{id}' --check-column id --out "$T/nd4" --quiet "$T/ch.csv" 2> "$T/nd4.err"
check "--check-column without --incremental: the message reads as a sentence" \
  '[ $? -eq 2 ] && grep -q "^hfilegen build: --check-column/--last-value: go with --incremental" "$T/nd4.err"'

printf 'id,op,ts,v\n1,i,1720000000000,a\n2,i,1720000000000,b\n1,u,1720000000100,c\n' > "$T/dup.csv"
"$H" build --rowkey '{id}' --op-column op --timestamp column:ts --map ts=- \
  --out "$T/nd5" --quiet "$T/dup.csv" 2> "$T/nd5.err"
check "a key twice in a changes file: build's duplicate message (lines), not rekey's (old rows)" \
  '[ $? -eq 1 ] && grep -q "duplicate rowkey .1.: .*dup.csv line 2 and .*dup.csv line 4 (use --on-duplicate" "$T/nd5.err" &&
   ! grep -q "old row" "$T/nd5.err"'

# ---- plan refuses the columns build refuses ------------------------------------------
# 'plan --op-column opp' (the input has 'op') exited 0 and estimated every column a cell
# (4.00 cells/row, 2.60 with the right column); build refuses it with exit 2.
for a in "--op-column opp" "--delete-if gone" "--timestamp column:nosuch"; do
  "$H" plan --rowkey '{id}' $a "$T/dup.csv" > "$T/pl.out" 2> "$T/pl.err"
  check "plan $a: a usage error, named as build names it" \
    '[ $? -eq 2 ] && grep -q "^hfilegen plan: .*${a##*[ :]}. is not a column; the columns read are" "$T/pl.err"'
done
"$H" plan --rowkey '{id}' --op-column id "$T/dup.csv" > "$T/pl.out" 2> "$T/pl.err"
check "plan --op-column naming a rowkey column: refused as build refuses it" \
  '[ $? -ne 0 ] && grep -q -- "--op-column .id. is a column of the rowkey" "$T/pl.err"'
"$H" plan --rowkey '{id}' --op-column op --timestamp column:ts "$T/dup.csv" > "$T/pl.out" 2> "$T/pl.err"
check "plan with the right columns still plans" "[ $? -eq 0 ] && [ -s \"$T/pl.out\" ]"

# ---- every column mapped to another family: no empty default family folder ---------------
# 'cf/' was published empty beside 'd/': completebulkload takes a folder for a family.
printf 'id,a,b\n1,x,y\n2,z,w\n' > "$T/fam.csv"
"$H" build --rowkey '{id}' --map a=d:a --map b=d:b --timestamp $TS --out "$T/fam" --quiet "$T/fam.csv" 2> /dev/null
check "all columns in family d: only d/ published, no empty cf/" \
  '[ $? -eq 0 ] && [ -n "$(ls "$T/fam/d")" ] && [ ! -e "$T/fam/cf" ] && ! grep -q "\"family\": \"cf\"" "$T/fam/manifest.json"'
"$H" verify "$T/fam" > /dev/null 2>&1
check "all columns in family d: verify passes" '[ $? -eq 0 ]'

# ---- the changes summary counts in the singular for 1 ('1 column deletes') -------------
printf 'op,id,v,w,ts\ni,1,a,,1720000000000\nd,2,,,1720000000100\ni,3,b,c,1720000000200\n' > "$T/pl1.csv"
"$H" build --rowkey '{id}' --op-column op --timestamp column:ts --map ts=- --out "$T/pl1" "$T/pl1.csv" > "$T/pl1.log" 2> /dev/null
check "changes summary: 1 row deleted, 1 column delete, 1 DeleteFamily marker (singular)" \
  'grep -q "^  changes           3 puts, 1 column delete, 1 row deleted (1 DeleteFamily marker)$" "$T/pl1.log"'

# a YAML null is no value (rejects: ~ made a rejects file named '~'); a columns entry with a
# comma would be split into two columns; --on-duplicate first would drop a hard delete
printf 'id,name\n1,a\n1,b\n' > "$T/dn.csv"
printf 'id\n1\n' > "$T/dn_tomb.csv"
printf 'rowkey: "{id}"\nrejects: ~\n' > "$T/yn.yaml"
(cd "$T" && "$H" build --job yn.yaml --out ynout dn.csv 2> yn.err)
check "job file: a YAML null value is refused naming the key and line, no file '~'" \
  '[ $? -eq 2 ] && [ ! -e "$T/~" ] && [ ! -e "$T/ynout" ] && grep -q "yn.yaml line 2: key .rejects. has no value (YAML null" "$T/yn.err"'
printf 'rowkey: "{id}"\ncolumns: ["id,x", name]\n' > "$T/yc.yaml"
"$H" build --job "$T/yc.yaml" --out "$T/ycout" "$T/dn.csv" 2> "$T/yc.err"
check "job file: a columns entry holding a comma is refused, not split" \
  '[ $? -eq 2 ] && grep -q "columns entry .id,x. holds a comma" "$T/yc.err"'
"$H" build --rowkey '{id}' --deletes "$T/dn_tomb.csv" --timestamp 1000 --on-duplicate first \
  --out "$T/dfout" "$T/dn.csv" 2> "$T/df.err"
check "--on-duplicate first with --deletes is refused (it would drop the hard delete)" \
  '[ $? -eq 2 ] && [ ! -e "$T/dfout" ] && grep -q -- "--on-duplicate first: with --deletes" "$T/df.err"'
"$H" build --rowkey '{id}' --deletes "$T/dn_tomb.csv" --timestamp 1000 --on-duplicate last \
  --out "$T/dlout" --quiet "$T/dn.csv" 2> "$T/dl.err"
check "--on-duplicate last with --deletes keeps the row's DeleteFamily under the last record" \
  '[ $? -eq 0 ] && "$H" inspect --cells "$T"/dlout/*/* | grep -q "DeleteFamily"'

echo "newuser: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

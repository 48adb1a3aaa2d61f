#!/usr/bin/env bash
# CLI scenarios for what a new user hits with the inputs (issue #11): mappings that would
# put two cells with one key in a file, compressed and UTF-16 inputs, the TSV guess from
# the name shared by every command, unknown columns explained, --header --columns.
#   bash tests/cli/inputs.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
TS=1720695600000
cells() { for f in "$1"/cf/*; do "$H" inspect --cells --tsv "$f"; done; }
unpublished() { [ ! -e "$1/_SUCCESS" ] && [ -z "$(find "$1" -type f ! -name "_*" 2>/dev/null)" ]; }

# ---- 1. two cells with one key are refused up front -----------------------------------
printf 'id,x,x\n1,a,b\n2,c,d\n' > "$T/rep.csv"
"$H" build --rowkey '{id}' --out "$T/r1" --timestamp $TS --quiet "$T/rep.csv" 2> "$T/r1.err"
check "repeated header name fails" '[ $? -ne 0 ] && unpublished "$T/r1"'
check "repeated name: message names both columns and the cell" \
  'grep -q "columns 2 (x) and 3 (x) both become the cell cf:x" "$T/r1.err"'
printf 'id,a,b\n1,p,q\n' > "$T/ab.csv"
"$H" build --rowkey '{id}' --out "$T/r2" --map a=cf:v --map b=cf:v --quiet "$T/ab.csv" 2> "$T/r2.err"
check "two --map onto one qualifier fail naming both" \
  '[ $? -ne 0 ] && grep -q "columns 2 (a) and 3 (b) both become the cell cf:v" "$T/r2.err" && unpublished "$T/r2"'
"$H" build --rowkey '{id}' --out "$T/r3" --map a=cf:b --quiet "$T/ab.csv" 2> "$T/r3.err"
check "--map onto another column's default qualifier fails" \
  'grep -q "columns 2 (a) and 3 (b) both become the cell cf:b" "$T/r3.err" && unpublished "$T/r3"'
"$H" build --rowkey '{id}' --out "$T/r4" --map a=d:b --timestamp $TS --quiet "$T/ab.csv"
check "the same qualifier in another family is fine" '[ -f "$T/r4/_SUCCESS" ]'
"$H" plan --rowkey '{id}' --map a=cf:v --map b=cf:v "$T/ab.csv" > /dev/null 2> "$T/p1.err"
check "plan refuses the same mapping" '[ $? -ne 0 ] && grep -q "both become the cell cf:v" "$T/p1.err"'
"$H" splits --algo sample --rowkey '{id}' --regions 2 --input "$T/rep.csv" > /dev/null 2> "$T/s1.err"
check "splits --algo sample refuses a repeated name" '[ $? -ne 0 ] && grep -q "both become the cell cf:x" "$T/s1.err"'
# verify judges the file, whoever wrote it: cell 2's qualifier b patched to a (CRC32
# block checksums recomputed) gives two cells 1/cf:a with one key
"$H" build --rowkey '{id}' --out "$T/eq" --bloom none --checksum crc32 --codec none --timestamp 5 \
  --quiet "$T/ab.csv"
EQ=$(ls "$T"/eq/cf/*)
python3 - "$EQ" <<'PY'
import struct, sys, zlib
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
i = b.index(b'\x02cfb')                      # familyLength, family, qualifier of cell 2
b[i:i + 4] = b'\x02cfa'
bpc = struct.unpack('>I', b[25:29])[0]       # block header: bytesPerChecksum,
d = struct.unpack('>I', b[29:33])[0]         # onDiskDataSizeWithHeader
assert b[24] == 1                            # checksum type CRC32
for k, at in enumerate(range(0, d, bpc)):
    struct.pack_into('>I', b, d + 4 * k, zlib.crc32(bytes(b[at:min(d, at + bpc)])))
open(p, 'wb').write(b)
PY
"$H" verify "$T/eq" > "$T/eq.out" 2>&1
check "verify fails on two cells with one key, naming the file and the key" \
  '[ $? -eq 1 ] && grep -qF "FAIL $EQ: two cells with the same key 1/cf:a/5/Put" "$T/eq.out"'
printf 'id,id,x\n1,2,a\n' > "$T/idid.csv"
"$H" build --rowkey '{id}' --out "$T/r5" --quiet "$T/idid.csv" 2> "$T/r5.err"
check "a repeated name the rowkey reads is ambiguous" \
  '[ $? -ne 0 ] && grep -q "columns 1 and 2 are both named .id. and the rowkey template" "$T/r5.err"'

# ---- 7. --header --columns renames the header's columns ------------------------------
printf 'id,x,y\n1,a,b\n2,c,d\n' > "$T/h.csv"
"$H" build --rowkey '{k}' --out "$T/h1" --header --columns k,v1,v2 --timestamp $TS --quiet "$T/h.csv"
check "--header --columns builds" '[ -f "$T/h1/_SUCCESS" ]'
cells "$T/h1" > "$T/h1.tsv"
check "--header --columns: the header is skipped, the names renamed" \
  '[ "$(cut -f1-3,6 "$T/h1.tsv" | tr "\t\n" " |")" = "1 cf v1 a|1 cf v2 b|2 cf v1 c|2 cf v2 d|" ]'
"$H" build --rowkey '{k}' --out "$T/h2" --columns k,v1,v2 --header --timestamp $TS --quiet "$T/h.csv"
check "--columns before --header: the same output" '[ -f "$T/h2/_SUCCESS" ] && cmp -s <(cells "$T/h2") "$T/h1.tsv"'
"$H" build --rowkey '{k}' --out "$T/h3" --header --columns k,v1 --quiet "$T/h.csv" 2> "$T/h3.err"
check "--header --columns with another count fails clearly" \
  '[ $? -ne 0 ] && grep -q "header has 3 columns but 2 column names were given" "$T/h3.err" && unpublished "$T/h3"'
"$H" build --rowkey '{id}' --out "$T/h4" --header --columns id,x,x2 --timestamp $TS --quiet "$T/rep.csv"
check "--header --columns resolves a repeated header name" \
  '[ -f "$T/h4/_SUCCESS" ] && [ "$(cells "$T/h4" | cut -f3 | sort -u | tr "\n" " ")" = "x x2 " ]'
printf '1,a,b\n2,c,d\n' > "$T/nh.csv"
"$H" build --rowkey '{k}' --out "$T/h5" --columns k,v1,v2 --timestamp $TS --quiet "$T/nh.csv"
check "--columns alone still means no header" '[ -f "$T/h5/_SUCCESS" ] && cmp -s <(cells "$T/h5") "$T/h1.tsv"'
cat > "$T/hjob.yaml" <<YAML
inputs: [$T/h.csv]
rowkey: "{k}"
header: true
columns: [k, v1, v2]
timestamp: $TS
YAML
"$H" build --job "$T/hjob.yaml" --out "$T/h6" --quiet
check "job file header: true with columns renames" '[ -f "$T/h6/_SUCCESS" ] && cmp -s <(cells "$T/h6") "$T/h1.tsv"'
"$H" plan --rowkey '{k}' --header --columns k,v1,v2 --json "$T/h.csv" > "$T/hp.json"
check "plan --header --columns reads 2 records" 'grep -q "\"records_read\": 2" "$T/hp.json"'

# ---- 6a. one format rule for every command: .tsv/.tab (also compressed) are TSV ------
printf 'id\tname\n1\tann, bob\n2\tcy\n' > "$T/t.tsv"
"$H" build --rowkey '{id}' --out "$T/f1" --timestamp $TS --quiet "$T/t.tsv"
check "build reads a .tsv as TSV without --format" \
  '[ -f "$T/f1/_SUCCESS" ] && [ "$(cells "$T/f1" | cut -f6 | head -1)" = "ann, bob" ]'
cp "$T/t.tsv" "$T/t.tab"
"$H" build --rowkey '{id}' --out "$T/f2" --timestamp $TS --quiet "$T/t.tab"
check "a .tab name is TSV too" 'cmp -s <(cells "$T/f2") <(cells "$T/f1")'
gzip -c "$T/t.tsv" > "$T/t.tsv.gz"
"$H" build --rowkey '{id}' --out "$T/f3" --timestamp $TS --quiet "$T/t.tsv.gz"
check "a .tsv.gz name is TSV" 'cmp -s <(cells "$T/f3") <(cells "$T/f1")'
"$H" plan --rowkey '{id}' --json "$T/t.tsv" > "$T/fp.json" 2> "$T/fp.err"
check "plan reads a .tsv as TSV" 'grep -q "\"records_read\": 2" "$T/fp.json"'
"$H" splits --algo sample --rowkey '{id}' --regions 2 --input "$T/t.tsv" > "$T/fs.out" 2> "$T/fs.err"
check "splits --algo sample reads a .tsv as TSV" '[ $? -eq 0 ]'
"$H" lint --rowkey '{id}' --input "$T/t.tsv" > "$T/fl.out" 2>&1
check "lint reads a .tsv as TSV" 'grep -q "2 sample records" "$T/fl.out"'
"$H" build --rowkey '{id}' --out "$T/f4" --format csv --quiet "$T/t.tsv" 2> "$T/f4.err"
check "--format csv overrides the name" '[ $? -ne 0 ] && grep -q "unknown column" "$T/f4.err"'

# ---- 6b. compressed inputs by magic: gzip, zstd, bzip2, xz read; others refused -------
python3 "$SRC/tools/make_sample.py" 3000 "$T/s.csv"
"$H" build --rowkey '{id}' --out "$T/zplain" --timestamp $TS --quiet "$T/s.csv"
head -1001 "$T/s.csv" > "$T/s1.csv"; tail -n +1002 "$T/s.csv" > "$T/s2.csv"
for z in gzip zstd bzip2 xz; do
  "$z" -c "$T/s.csv" > "$T/s.$z"   # no telling suffix: the magic decides
  "$H" build --rowkey '{id}' --out "$T/z_$z" --timestamp $TS --quiet "$T/s.$z"
  check "$z input gives the same files as plain" 'diff -r "$T/zplain" "$T/z_$z" >/dev/null'
  { "$z" -c "$T/s1.csv"; "$z" -c "$T/s2.csv"; } > "$T/cat.$z"
  "$H" build --rowkey '{id}' --out "$T/zc_$z" --timestamp $TS --quiet "$T/cat.$z"
  check "$z: concatenated streams are read one after the other" 'diff -r "$T/zplain" "$T/zc_$z" >/dev/null'
  "$H" build --rowkey '{id}' --out "$T/zs_$z" --timestamp $TS --quiet - < "$T/s.$z"
  check "$z on stdin" 'diff -r "$T/zplain" "$T/zs_$z" >/dev/null'
  head -c -30 "$T/s.$z" > "$T/trunc.$z"
  "$H" build --rowkey '{id}' --out "$T/zt_$z" --max-rejects 1000000 --quiet "$T/trunc.$z" 2> "$T/zt_$z.err"
  check "$z: a truncated stream fails naming the file" \
    '[ $? -ne 0 ] && grep -q "trunc.$z: .*\(truncated\|bad\)" "$T/zt_$z.err" && unpublished "$T/zt_$z"'
  { cat "$T/s.$z"; printf 'garbage after the stream\n'; } > "$T/tail.$z"
  "$H" build --rowkey '{id}' --out "$T/zg_$z" --max-rejects 1000000 --quiet "$T/tail.$z" 2> "$T/zg_$z.err"
  check "$z: bytes after the stream are an error" '[ $? -ne 0 ] && grep -q "tail.$z: bad" "$T/zg_$z.err" && unpublished "$T/zg_$z"'
done
"$H" plan --rowkey '{id}' --json "$T/s.bzip2" > "$T/zp.json"
check "plan reads bzip2" 'grep -q "\"records_read\": 3000" "$T/zp.json"'
"$H" lint --rowkey '{id}' --input "$T/s.xz" > "$T/zl.out" 2>&1
check "lint reads xz" 'grep -q "3000 sample records" "$T/zl.out"'
refused() { # NAME MAGIC-PRINTF-STRING
  fmt=$1
  { printf "$2"; cat "$T/s.csv"; } > "$T/ref.bin"
  "$H" build --rowkey '{id}' --out "$T/ref" --max-rejects 1000000 --quiet "$T/ref.bin" 2> "$T/ref.err"
  check "$1 input is refused by name" '[ $? -ne 0 ] && grep -qF "ref.bin: the input is $fmt-compressed" "$T/ref.err" && unpublished "$T/ref"'
  rm -rf "$T/ref"
}
refused lz4 '\x04\x22\x4d\x18'
refused 'snappy (framed)' '\xff\x06\x00\x00sNaPpY'
refused zip 'PK\x03\x04'
refused 7z '7z\xbc\xaf\x27\x1c'
if command -v lz4 >/dev/null; then
  lz4 -q -c "$T/s.csv" > "$T/real.lz4"
  "$H" build --rowkey '{id}' --out "$T/rl" --max-rejects 1000000 --quiet "$T/real.lz4" 2> "$T/rl.err"
  check "a real lz4 file is refused" '[ $? -ne 0 ] && grep -q "lz4-compressed" "$T/rl.err" && grep -q "lz4 -dc" "$T/rl.err"'
fi
"$H" splits --algo sample --rowkey '{id}' --regions 2 --input "$T/ref.bin" > /dev/null 2> "$T/ref2.err"
check "splits --algo sample refuses it too" '[ $? -ne 0 ] && grep -q "7z-compressed" "$T/ref2.err"'

# ---- 6c. UTF-16 / UTF-32 are refused with the iconv hint ------------------------------
printf 'id,name\n1,ann\n' > "$T/u8.csv"
for enc in UTF-16LE UTF-16BE UTF-32LE UTF-32BE; do
  { case $enc in
      UTF-16LE) printf '\xff\xfe';; UTF-16BE) printf '\xfe\xff';;
      UTF-32LE) printf '\xff\xfe\x00\x00';; UTF-32BE) printf '\x00\x00\xfe\xff';;
    esac; iconv -f UTF-8 -t $enc "$T/u8.csv"; } > "$T/u.csv"
  "$H" build --rowkey '{id}' --out "$T/u" --quiet "$T/u.csv" 2> "$T/u.err"
  check "$enc with a byte order mark is refused, naming the encoding and iconv" \
    '[ $? -ne 0 ] && grep -q "u.csv: .*$enc" "$T/u.err" && grep -q "iconv -f ${enc%??} -t UTF-8" "$T/u.err"'
  rm -rf "$T/u"
done
iconv -f UTF-8 -t UTF-16LE "$T/u8.csv" > "$T/u.csv"
"$H" build --rowkey '{id}' --out "$T/u" --quiet "$T/u.csv" 2> "$T/u.err"
check "UTF-16LE without a mark is refused" '[ $? -ne 0 ] && grep -q "UTF-16LE" "$T/u.err"'
iconv -f UTF-8 -t UTF-16 "$T/u8.csv" | gzip -c > "$T/u16.gz"
"$H" build --rowkey '{id}' --out "$T/u2" --quiet "$T/u16.gz" 2> "$T/u2.err"
check "UTF-16 inside gzip is refused" '[ $? -ne 0 ] && grep -q "UTF-16" "$T/u2.err"'
"$H" build --rowkey '{k}' --out "$T/u3" --no-header --columns k,v --quiet "$T/u.csv" 2> "$T/u3.err"
check "UTF-16 without a header line is refused too" '[ $? -ne 0 ] && grep -q "UTF-16LE" "$T/u3.err"'

# ---- 6d. an unknown column shows the columns read and a hint -------------------------
printf 'id;x\n1;a\n' > "$T/semi.csv"
printf 'id\tx\n1\ta\n' > "$T/tab.txt"
printf 'Id,x\n1,a\n' > "$T/case.csv"
"$H" build --rowkey '{id}' --out "$T/k1" --quiet "$T/semi.csv" 2> "$T/k1.err"
check "unknown rowkey column: the columns read and a --delimiter hint" \
  'grep -q "unknown column .id.; the column read is .id;x. (1); the line holds .;.: give --delimiter .;." "$T/k1.err"'
"$H" build --rowkey '{id}' --out "$T/k2" --quiet "$T/tab.txt" 2> "$T/k2.err"
check "a TSV read as CSV: hint at --format tsv" 'grep -qF "the column read is '"'"'id\tx'"'"' (1); the line holds tabs: is it TSV? give --format tsv" "$T/k2.err"'
"$H" build --rowkey '{id}' --out "$T/k3" --format tsv --quiet "$T/case.csv" 2> "$T/k3.err"
printf 'id\tx\n1\ta\n' > "$T/tab.tsv"
"$H" build --rowkey '{id}' --out "$T/k2b" --delimiter , --quiet "$T/tab.tsv" 2> "$T/k2b.err"
check "a .tsv read with --delimiter ,: the hint says to drop it" 'grep -qF "the line holds tabs: is it TSV? give --format tsv (names ending in .tsv or .tab are read as TSV unless --delimiter says otherwise: drop it)" "$T/k2b.err"'
# inputs whose headers differ: refused before any record is read (it came when the reader
# reached that input: hours into a large job), plain or compressed; equal headers build
printf 'id,name\n1,x\n' > "$T/h2.csv"
gzip -c "$T/h2.csv" > "$T/h2.csv.gz"
for second in h2.csv h2.csv.gz; do
  "$H" build --rowkey '{id}' --out "$T/hd" --quiet "$SRC/samples/orders.csv" "$T/$second" 2> "$T/hd.err"
  rc=$?
  check "headers that differ ($second): refused up front (rc $rc), nothing created" \
    '[ $rc -eq 1 ] && grep -qF "$second: header differs from $SRC/samples/orders.csv'"'"'s: 2 columns, not 6: the inputs of one job share one header (checked before any record is read)" "$T/hd.err" && [ ! -e "$T/hd" ]'
done
head -1 "$SRC/samples/orders.csv" > "$T/h3.csv"
printf '99999,1,1720000000000,1.00,PAID,x\n' >> "$T/h3.csv"
check "the same header in two inputs builds" '"$H" build --rowkey "{id}" --out "$T/hs" --quiet "$SRC/samples/orders.csv" "$T/h3.csv" && [ -f "$T/hs/_SUCCESS" ]'
check "a CSV read as TSV: hint at --format csv" 'grep -q "the line holds commas: is it CSV? give --format csv" "$T/k3.err"'
"$H" build --rowkey '{id}' --out "$T/k4" --quiet "$T/case.csv" 2> "$T/k4.err"
check "a column differing in case: did you mean" \
  'grep -q "the columns read are .Id., .x. (2); did you mean .Id.?" "$T/k4.err"'
"$H" build --rowkey '{Id}' --map y=cf:y --out "$T/k5" --quiet "$T/case.csv" 2> "$T/k5.err"
check "unknown --map column lists the columns" 'grep -q "no column named .y.; the columns read are .Id., .x. (2)" "$T/k5.err"'
"$H" build --rowkey '{Id}' --timestamp column:ts --out "$T/k6" --quiet "$T/case.csv" 2> "$T/k6.err"
check "unknown timestamp column lists the columns" \
  'grep -q "timestamp column .ts. is not a column; the columns read are .Id., .x. (2)" "$T/k6.err"'
# a flag naming no column is a usage error (exit 2), as {nope} in the rowkey is (it exited 1)
"$H" build --rowkey '{Id}' --map y=cf:y --out "$T/k5" --quiet "$T/case.csv" 2> /dev/null
check "  --map naming no column: exit 2" '[ $? -eq 2 ]'
"$H" build --rowkey '{Id}' --timestamp column:ts --out "$T/k6" --quiet "$T/case.csv" 2> /dev/null
check "  --timestamp column:ts naming no column: exit 2" '[ $? -eq 2 ]'
"$H" build --rowkey '{Id}' --op-column op --out "$T/k6" --quiet "$T/case.csv" 2> /dev/null
check "  --op-column naming no column: exit 2" '[ $? -eq 2 ]'
"$H" build --rowkey '{Id}' --delete-if gone --out "$T/k6" --quiet "$T/case.csv" 2> /dev/null
check "  --delete-if naming no column: exit 2" '[ $? -eq 2 ]'
"$H" plan --rowkey '{Id}' --map y=cf:y "$T/case.csv" > /dev/null 2> /dev/null
check "  plan --map naming no column: exit 2" '[ $? -eq 2 ]'
"$H" plan --rowkey '{id}' "$T/tab.txt" > /dev/null 2> "$T/k7.err"
check "plan gives the same hint" 'grep -q "give --format tsv" "$T/k7.err"'
"$H" lint --rowkey '{id}' --input "$T/semi.csv" > /dev/null 2> "$T/k8.err"
check "lint gives the same hint" 'grep -q "give --delimiter .;." "$T/k8.err"'
"$H" lint --rowkey '{id}' --delimiter ';' --input "$T/semi.csv" > "$T/k9.out" 2>&1
check "lint --delimiter ';' then reads it" 'grep -q "1 sample record" "$T/k9.out"'

echo "inputs: $passes passed, $fails failed"
[ "$fails" -eq 0 ]

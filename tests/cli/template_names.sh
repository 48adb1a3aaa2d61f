#!/usr/bin/env bash
# CLI scenario (issue #29, item 7): column names that are no identifiers. An
# export's header says "Order Id"; a template names it in double quotes,
# {"Order Id"} ("" for a quote inside; `back quotes` likewise, `` inside),
# in build, plan, lint, key (templates, presets, old-key patterns). Written
# bare, {Order Id}, the error says exactly what to write, against the input's
# columns (build, lint --input) or as a guess without them (key, lint).
# usage: template_names.sh HFILEGEN_BINARY SOURCE_DIR
. "$(dirname "$0")/lib/scratch.sh"
lacks() { ! grep -qF -- "$2" <<<"$1" || fail "$3: output holds [$2]"; }

printf 'id,Order Id,"say ""hi""",Stra\xc3\x9fe,2nd\n1,A-7,x,s1,n1\n2,B-9,y,s2,n2\n3,C-4,z,s3,n3\n' >in.csv

# build keys rows by the quoted names; the cells are the other columns
run "$H" build --rowkey '{"Order Id"}|{"say ""hi"""}' --out o1 --quiet in.csv
[ "$RC" -eq 0 ] || fail "build {\"Order Id\"}: exit $RC: $ERR"
ROWS=$(for f in o1/cf/*; do "$H" inspect --cells --tsv "$f"; done | cut -f1 | sort -u | tr '\n' ' ')
[ "$ROWS" = "A-7|x B-9|y C-4|z " ] || fail "build {\"Order Id\"}: rows [$ROWS]"
QUALS=$(for f in o1/cf/*; do "$H" inspect --cells --tsv "$f"; done | cut -f3 | sort -u | tr '\n' ' ')
[ "$QUALS" = '2nd Stra\xc3\x9fe id ' ] || fail "build {\"Order Id\"}: key columns not dropped: [$QUALS]"
# back quotes, a doubled one inside, and a UTF-8 name
run "$H" build --rowkey '{`Straße`}|{"2nd"}' --out o2 --quiet in.csv
[ "$RC" -eq 0 ] || fail "build {\`Straße\`}: exit $RC: $ERR"
run "$H" key --rowkey '{`a``b`}|{"c""d"}' 'a`b=1' 'c"d=2'
has "$OUT" 'rowkey:  1|2' "key with doubled quotes"

# written bare: the error names the quoted form, for each place a name goes
run "$H" build --rowkey '{Order Id}' --out o3 --quiet in.csv
[ "$RC" -ne 0 ] || fail "build {Order Id}: exit 0"
has "$ERR" "unknown column 'Order'" "build {Order Id}"
has "$ERR" "the column 'Order Id' holds a space, so a template quotes it: write {\"Order Id\"}" "build {Order Id}"
[ ! -e o3 ] || fail "build {Order Id}: published output"
run "$H" build --rowkey '{murmur3(Order Id) % 8 :02}|{id}' --out o4 --quiet in.csv
has "$ERR" 'write {murmur3("Order Id") % 8 :02}' "build: a name inside a call"
run "$H" lint --rowkey '{Straße}|{id}' --input in.csv
[ "$RC" -eq 2 ] || fail "lint {Straße}: exit $RC, want 2"
has "$ERR" "the column 'Straße' holds more than letters, digits, _ . -, so a template quotes it: write {\"Straße\"}" "lint {Straße}"
run "$H" lint --rowkey '{id}|{2nd}' --input in.csv
has "$ERR" "write {\"2nd\"}" "lint {2nd}"
# a name no column has keeps the old error and its list of columns
run "$H" lint --rowkey '{Order Ids}' --input in.csv
has "$ERR" "unknown column 'Order'; the columns read are" "lint {Order Ids}"
lacks "$ERR" "write {" "lint {Order Ids}"
# without the input's columns: a guess
run "$H" key --rowkey '{Order Id}' 'Order Id=5'
[ "$RC" -eq 2 ] || fail "key {Order Id}: exit $RC, want 2"
has "$ERR" "if 'Order Id' is one column name, quote it: write {\"Order Id\"}" "key {Order Id}"
run "$H" key --old-key '{Order Id}|{x}' --rowkey '{x}' 'a|b'
has "$ERR" "write {\"Order Id\"}" "key --old-key {Order Id}"

# lint, key, presets, old-key patterns and plan read the quoted form
run "$H" lint --rowkey '{"Order Id"}|{id}' --input in.csv
[ "$RC" -eq 0 ] || fail "lint {\"Order Id\"}: exit $RC: $ERR"
run "$H" key --rowkey '{"Order Id" % 4}|{"Order Id"}' 'Order Id=13'
has "$OUT" 'rowkey:  1|13' "key {\"Order Id\" % 4}"
run "$H" key --rowkey 'salt:Order Id:4' 'Order Id=13'
has "$OUT" 'rowkey:  1|13' "key salt:Order Id:4"
run "$H" key --old-key '{"Order Id"}|{x}' --rowkey '{x}|{"Order Id"}' 'a|b'
[ "$OUT" = 'b|a' ] || fail "key --old-key {\"Order Id\"}: [$OUT] $ERR"
run "$H" plan --rowkey '{"Order Id"}' --no-raw-key --json in.csv
has "$OUT" '"rows": 3,' "plan {\"Order Id\"}"
run "$H" plan --rowkey '{id}' --json in.csv
has "$OUT" '"key": "{id}"' "plan raw key of a bare first column"
printf 'Order Id,v\n1,a\n' >first.csv
run "$H" plan --rowkey '{v}' --json first.csv
has "$OUT" '"key": "{\"Order Id\"}"' "plan raw key names a quoted first column"

[ "$failures" -eq 0 ] && echo "template_names: all passed"
exit $((failures > 0))

#!/usr/bin/env bash
# CLI scenarios for issue #29 item 6: --flag=value (GNU style) for every flag of every
# command, meaning what --flag value means; --boolflag=x refused; a mistyped flag answered
# with the nearest of the command's own flags.
#   bash tests/cli/flags_gnu.sh HFILEGEN SOURCE_DIR
. "$(dirname "$0")/lib/prologue.sh"
IN="$SRC/samples/orders.csv"
# refused WANT CMD...: exit 2 and a message on stderr naming $WANT
refused() {
  local want=$1
  shift
  "$@" > "$T/out" 2> "$T/err"
  local rc=$?
  if [ $rc -ne 2 ]; then bad "$* exits 2 (got $rc: $(head -c 200 "$T/err"))"; return; fi
  if ! grep -qF -- "$want" "$T/err"; then bad "$* says '$want' (got: $(head -c 300 "$T/err"))"; return; fi
  ok
}
# same NAME CMD1... -- CMD2...: both exit 0 with the same stdout
same() {
  local name=$1 a=() b=()
  shift
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  "${a[@]}" > "$T/a.out" 2> "$T/a.err"
  local ra=$?
  "$@" > "$T/b.out" 2> "$T/b.err"
  local rb=$?
  if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
    bad "$name: both succeed (rc $ra: $(head -c 200 "$T/a.err") / rc $rb: $(head -c 200 "$T/b.err"))"
  elif ! cmp -s "$T/a.out" "$T/b.out"; then bad "$name: the same output"
  else ok; fi
}

# ---- 1. build: --flag=value is --flag value, byte for byte ----------------------------
printf '1\n2\n3\n' > "$T/sp.txt"
"$H" build --rowkey '{id % 4}|{id}' --splits "$T/sp.txt" --out "$T/two" --codec lz4 --map note=d:note --timestamp 7 \
  --family-option d:codec=gz --block-size 8k --quiet "$IN"
"$H" build --rowkey='{id % 4}|{id}' --splits="$T/sp.txt" --out="$T/gnu" --codec=lz4 --map=note=d:note --timestamp=7 \
  --family-option=d:codec=gz --block-size=8k --quiet "$IN" 2> "$T/gnu.err"
check "build --codec=lz4 ... succeeds ($(head -c 200 "$T/gnu.err"))" '[ -f "$T/gnu/_SUCCESS" ]'
check "build --flag=value writes the bytes --flag value writes" \
  'diff -r "$T/two/cf" "$T/gnu/cf" && diff -r "$T/two/d" "$T/gnu/d"'
printf 'rowkey: "{id}"\ntimestamp: 7\n' > "$T/job.yaml"
"$H" build --job="$T/job.yaml" --out="$T/job" --quiet "$IN" 2> "$T/job.err"
check "build --job=FILE reads the job file ($(head -c 200 "$T/job.err"))" '[ -f "$T/job/_SUCCESS" ]'
"$H" build --rowkey='{id}' --out="$T/empty_ns" --null-string= --quiet --timestamp=7 "$IN" 2> "$T/ns.err"
check "--null-string= is the empty string, as --null-string '' ($(head -c 200 "$T/ns.err"))" \
  '[ -f "$T/empty_ns/_SUCCESS" ]'

# a flag's value is left as it is, even when it looks like --flag=value
"$H" key --rowkey '--x={id}' id=5 > "$T/k.out" 2> "$T/k.err"
check "key --rowkey '--x={id}': the value is not split ($(head -c 200 "$T/k.err"))" \
  'grep -qx "rowkey:  --x=5" "$T/k.out"'
"$H" key --old-key '{id}' --rowkey '{id}' -- --a=b > "$T/kk.out" 2> "$T/kk.err"
check "after --, a --x=y word is an argument ($(head -c 200 "$T/kk.err"))" 'grep -qx -- "--a=b" "$T/kk.out"'

# ---- 2. every other command -------------------------------------------------------------
"$H" inspect --cells --tsv --limit 3 "$T"/two/d/* > "$T/lim2.out"
same "inspect --limit=3" "$H" inspect --cells --tsv --limit 3 "$T"/two/d/* -- \
  "$H" inspect --cells --tsv --limit=3 "$T"/two/d/*
same "verify --splits=FILE" "$H" verify --splits "$T/sp.txt" "$T/two" -- \
  "$H" verify --splits="$T/sp.txt" "$T/two"
same "splits --regions=4 --algo=uniform --format=json" \
  "$H" splits --regions 4 --algo uniform --format json -- \
  "$H" splits --regions=4 --algo=uniform --format=json
same "splits --table=t --family=f (shell)" \
  "$H" splits --regions 3 --format shell --table t --family f -- \
  "$H" splits --regions=3 --format=shell --table=t --family=f
same "plan --sample=1 --regions=4 --json" \
  "$H" plan --rowkey '{id % 4}|{id}' --regions 4 --sample 1 --json "$IN" -- \
  "$H" plan --rowkey='{id % 4}|{id}' --regions=4 --sample=1 --json "$IN"
same "lint --rowkey= --regions= --input=" \
  "$H" lint --rowkey '{id % 4}|{id}' --regions 4 --input "$IN" -- \
  "$H" lint --rowkey='{id % 4}|{id}' --regions=4 --input="$IN"
same "key --rowkey= --table=" "$H" key --rowkey '{id % 4}|{id}' --table t2 id=9 -- \
  "$H" key --rowkey='{id % 4}|{id}' --table=t2 id=9
same "key --old-key= --rowkey=" "$H" key --old-key '{_}|{id}' --rowkey '{id}' '1|9' -- \
  "$H" key --old-key='{_}|{id}' --rowkey='{id}' '1|9'
same "scan-ranges --from=id=1 (a value holding =)" \
  "$H" scan-ranges --rowkey '{id :010}' --from id=1 --to id=5 --format json -- \
  "$H" scan-ranges --rowkey='{id :010}' --from=id=1 --to=id=5 --format=json
"$H" rekey --from="$T/nope" --old-key='{id}' --rowkey='{id}' --out="$T/rk" > /dev/null 2> "$T/rk.err"
check "rekey --from=DIR reads DIR as --from DIR ($(head -c 200 "$T/rk.err"))" \
  'grep -q "$T/nope" "$T/rk.err" && ! grep -q "unknown option" "$T/rk.err"'
"$H" verify --splits="$T/sp.txt" --table=t "$T/two" > /dev/null 2> "$T/vt.err"
check "verify --table=T is the live flag (excludes --splits=)" \
  'grep -q "exclude each other" "$T/vt.err"'

# ---- 3. a value for a flag that takes none ----------------------------------------------
B=("$H" build --rowkey '{id}' --out "$T/never")
refused "--quiet takes no value (got '--quiet=yes')" "${B[@]}" --quiet=yes "$IN"
refused "--no-header takes no value" "${B[@]}" --no-header=1 "$IN"
refused "--keep-key-columns takes no value" "${B[@]}" --keep-key-columns=true "$IN"
refused "--json takes no value" "$H" plan --rowkey '{id}' --json=1 "$IN"
refused "--cells takes no value" "$H" inspect --cells=5 "$T"/two/d/*
refused "--quiet takes no value" "$H" verify --quiet=1 "$T/two"
refused "--to-inclusive takes no value" "$H" scan-ranges --rowkey '{id}' --from id=1 --to id=2 \
  --to-inclusive=yes
refused "--raw takes no value" "$H" rekey --raw=1
refused "--header takes no value" "$H" splits --regions 2 --header=x
check "nothing was written for a refused flag" '[ ! -e "$T/never" ]'

# ---- 4. a mistyped flag: the nearest of the command's own -------------------------------
refused "unknown option '--split' (did you mean --splits?)" "${B[@]}" --split "$T/sp.txt" "$IN"
refused "unknown option '--split' (did you mean --splits?)" "${B[@]}" --split="$T/sp.txt" "$IN"
refused "(did you mean --codec?)" "${B[@]}" --codce lz4 "$IN"
refused "(did you mean --threads?)" "${B[@]}" --thread=2 "$IN"
refused "(did you mean --sample?)" "$H" plan --rowkey '{id}' --smaple 0.1 "$IN"
refused "(did you mean --regions?)" "$H" splits --regoins 3
refused "(did you mean --cells?)" "$H" inspect --cell "$T"/two/d/*
refused "(did you mean --splits?)" "$H" verify --split "$T/sp.txt" "$T/two"
refused "(did you mean --rowkey?)" "$H" lint --rowky '{id}'
refused "(did you mean --table?)" "$H" key --rowkey '{id}' --tabel t id=1
refused "(did you mean --rowkey?)" "$H" key --old-key '{id}' --rowky '{id}' 1
refused "(did you mean --to-inclusive?)" "$H" scan-ranges --rowkey '{id}' --from id=1 --to id=2 \
  --to-inclusiv
refused "(did you mean --snapshot?)" "$H" rekey --from "$T/x" --snapshto s
# over the command's own flags: splits has no --threads, so no guess for --thread
refused "unknown option '--thread'" "$H" splits --regions 2 --thread 2
check "  (and no guess from another command's flags)" '! grep -q "did you mean" "$T/err"'
refused "unknown option '--frobnicate' (see hfilegen build --help)" "${B[@]}" --frobnicate "$IN"

# ---- 5. the tables know every flag each --help names ------------------------------------
# (a flag missing from src/cli/cli_flags.c still works, but gets no typo hint and its
# --flag=value is not checked: add it there)
for c in build plan rekey splits lint key scan-ranges verify inspect; do
  for f in $("$H" $c --help | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
    case "$c $f" in "lint --bloom" | "rekey --algo") continue ;; esac # lint's help suggests build's --bloom, rekey's names splits --algo sample
    "$H" $c "${f}q" > /dev/null 2> "$T/typo.err"
    if grep -qE -- "did you mean ([-a-z0-9]+ or )*$f[? ]" "$T/typo.err"; then ok
    else bad "$c: ${f}q suggests $f (got: $(head -c 200 "$T/typo.err"))"; fi
  done
done

# ---- 5. another command's flag, a mistyped command, a flag before the command -------------
# 'build --regions 10' (plan's and splits' flag, in docs/migrate.md next to build) said only
# "unknown option '--regions' (see hfilegen build --help)"; 'hfilegen biuld' and 'hfilegen
# --rowkey ...' said "unknown command" without the nearest one or where the command goes.
refused "unknown option '--regions' (a flag of plan, splits, lint, not of build: build takes the split keys, --splits FILE from 'hfilegen splits --rowkey T --regions N > FILE', or --table NAME)" \
  "${B[@]}" --regions 10 "$IN"
refused "unknown option '--snapshot' (a flag of plan, rekey, splits, lint, not of build)" \
  "${B[@]}" --snapshot s1 "$IN"
refused "unknown command 'biuld' (did you mean build?)" "$H" biuld --rowkey '{id}' "$IN"
refused "unknown command 'rekye' (did you mean rekey?)" "$H" help rekye
refused "unknown command '--snapshot' (the command comes first: hfilegen COMMAND --snapshot ..., where plan, rekey, splits, lint take it)" \
  "$H" --snapshot s1 rekey
refused "unknown command '--job' (the command comes first: hfilegen COMMAND --job" "$H" --job j.yaml build
check "a word far from every command: no guess" \
  '"$H" zzzzz 2> "$T/err"; [ $? -eq 2 ] && grep -q "^hfilegen: unknown command .zzzzz.$" "$T/err"'

echo "flags_gnu: $passes passed, $fails failed"
[ $fails -eq 0 ]

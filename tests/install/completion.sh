#!/usr/bin/env bash
# The bash completion (completion/hfilegen.bash, issue #28): commands, each command's flags
# (from its --help), the values of enumerated flags; the zsh one parses (when zsh is here).
#   tests/install/completion.sh HFILEGEN SOURCE_DIR
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
complete() { :; } # the file registers itself; not needed here
# shellcheck source=/dev/null
source "$src/completion/hfilegen.bash"
comp() { # words of the command line, the last one being completed
  COMP_WORDS=("$bin" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _hfilegen
  printf '%s\n' "${COMPREPLY[@]}" | sort
}
expect() { # expect "WORDS..." -- WANTED...: every wanted word offered
  local args=() want
  while [ "$1" != "--" ]; do args+=("$1"); shift; done
  shift
  local got
  got=$(comp "${args[@]}")
  for want in "$@"; do
    grep -qxF -- "$want" <<< "$got" || fail "'hfilegen ${args[*]}<TAB>' offers no '$want' (got: $(tr '\n' ' ' <<< "$got"))"
  done
}
expect "" -- build rekey inspect verify splits plan lint key scan-ranges --help
expect sc -- scan-ranges
expect help ve -- verify
expect build --c -- --codec --columns --create-time --checksum --check-column
expect build --no-h -- --no-header
expect build --codec zstd -- zstd-hadoop zstd-hbase
expect build --encoding "" -- fast_diff row_index_v1
expect splits --format "" -- lines shell json
expect splits --algo h -- hex hex-legacy
expect verify --sp -- --splits
expect scan-ranges --to- -- --to-inclusive
[ "$(comp build --on-duplicate l)" = "last" ] || fail "build --on-duplicate l: $(comp build --on-duplicate l)"
[ -z "$(comp build --rowkey "")" ] || fail "build --rowkey: a template is the user's, nothing offered"
# the nightly and snapshot-source flags (issue #29's features): a mode, column names, a directory
expect build --incremental "" -- append lastmodified
for f in --delete-if --op-column --deletes-time; do
  [ -z "$(comp build "$f" "")" ] || fail "build $f: a column name is the user's, nothing offered"
done
cd "$(mktemp -d)" && mkdir hroot && : > hroot.txt
for c in rekey plan splits lint; do
  [ "$(comp "$c" --from h)" = "hroot" ] || fail "$c --from h: the directory hroot only, got: $(comp "$c" --from h | tr '\n' ' ')"
done
[ "$(comp build --deletes hroot.t)" = "hroot.txt" ] || fail "build --deletes hroot.t: a file, got: $(comp build --deletes hroot.t)"
# every flag of every command's --help is offered after '--'
for c in $("$bin" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
  n_help=$("$bin" "$c" --help | sed 's/--\[no-\]\([a-z][a-z0-9-]*\)/--\1 --no-\1/g' |
    grep -oE '(^|[^A-Za-z0-9_-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u | wc -l)
  n_comp=$(comp "$c" -- | grep -c '^--' || true)
  [ "$n_comp" -ge "$n_help" ] && [ "$n_help" -gt 0 ] ||
    fail "hfilegen $c --<TAB>: $n_comp flags offered, its --help has $n_help"
done
if command -v zsh > /dev/null; then
  zsh -n "$src/completion/_hfilegen" || fail "completion/_hfilegen does not parse (zsh -n)"
fi
if [ $fails -gt 0 ]; then
  echo "completion: $fails check(s) failed"
  exit 1
fi
echo "completion: all checks passed"

# Sourced by the CLI scenario scripts that work in a scratch directory of their own (bash
# tests/cli/NAME.sh HFILEGEN SOURCE_DIR): H the binary and SRC the source tree, both
# absolute; W the scratch directory, made the current one and removed on exit; the failure
# tally (fail MESSAGE adds one to $failures, which the script ends on); and what most of
# them check with: run CMD... (its exit code, stdout and stderr in RC, OUT, ERR), has TEXT
# NEEDLE WHAT (TEXT holds NEEDLE), summary NAME (the number on build's summary line NAME).
# (tests/cli/lib/prologue.sh is the other convention: T, ok/bad/check.)
set -u
H=$(readlink -f "${1:?hfilegen binary}")
SRC=$(readlink -f "${2:?source dir}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() {
  "$@" >"$W/run.out" 2>"$W/run.err"
  RC=$?
  OUT=$(cat "$W/run.out")
  ERR=$(cat "$W/run.err")
}
has() { grep -qF -- "$2" <<<"$1" || fail "$3: output lacks [$2]: $1"; }
summary() { sed -n "s/^  $1 *\([0-9][0-9]*\).*/\1/p" <<<"$OUT" | head -1; }

# Sourced by the CLI scenario scripts (bash tests/cli/NAME.sh HFILEGEN SOURCE_DIR): their
# two arguments (H, SRC), a scratch directory T removed on exit, and the pass/fail tally
# (ok, bad, check NAME EXPR) that each script prints at its end.
set -u
H=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
passes=0
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { if eval "$2"; then ok; else bad "$1"; fi; }

#!/usr/bin/env bash
# The man pages (issue #28): hfilegen(1) names every command of `hfilegen --help`, each
# command has its page hfilegen-CMD(1), every flag its --help prints appears in that page
# (as rendered), and every page renders without a warning (`man --warnings`).
#   tests/install/man.sh HFILEGEN MAN_DIR (the rendered pages, build/man)
# A flag missing from a page is named with the page: add it to man/hfilegen-CMD.1.scd.
set -euo pipefail
bin=$1
mandir=$2
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# flags are looked for in a wide rendering (no line breaks inside them); warnings at 80 columns
render() { MANWIDTH=300 LC_ALL=C.UTF-8 man --nh --nj --warnings -E UTF-8 -l "$1" 2>"$tmp/warn" | col -b; }
lint() { MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l "$1" 2>"$tmp/warn" >/dev/null; }
srcman=$(cd "$(dirname "$0")/../../man" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmds=$("$bin" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}')
[ -n "$cmds" ] || { echo "FAIL: no commands in '$bin --help'"; exit 1; }
pages=("$mandir/hfilegen.1")
for c in $cmds; do pages+=("$mandir/hfilegen-$c.1"); done

for p in "${pages[@]}"; do
  [ -f "$p" ] || { fail "no man page $(basename "$p") (add man/$(basename "$p").scd)"; continue; }
  render "$p" > "$tmp/page"
  [ -s "$tmp/page" ] || fail "$(basename "$p") renders empty"
  lint "$p"
  if [ -s "$tmp/warn" ]; then fail "$(basename "$p"): man --warnings: $(head -5 "$tmp/warn")"; fi
  # an example's continued command line keeps its backslash (scdoc takes a lone '\' as an
  # escape: the rendered example, pasted, ran its first line alone); write '\\' in the .scd
  scd=$srcman/$(basename "$p").scd
  if [ -f "$scd" ]; then
    want=$(grep -c '\\$' "$scd" || true)
    got=$(grep -c '\\$' "$tmp/page" || true)
    [ "$want" = "$got" ] ||
      fail "$(basename "$p"): $want example line(s) end in a backslash in $(basename "$scd"), $got as rendered (write \\\\ at the line's end)"
  fi
done

render "$mandir/hfilegen.1" > "$tmp/top" 2>/dev/null || true
for c in $cmds; do
  grep -qE "^ +$c\$|^ +$c " "$tmp/top" || fail "hfilegen(1) does not list the command '$c'"
  page=$mandir/hfilegen-$c.1
  [ -f "$page" ] || continue
  render "$page" > "$tmp/page"
  "$bin" "$c" --help > "$tmp/help" 2>&1 || true
  # every --flag (and -o style short option) the help prints; --[no-]x means --x and --no-x
  sed 's/--\[no-\]\([a-z][a-z0-9-]*\)/--\1 --no-\1/g' "$tmp/help" |
    grep -oE '(^|[^A-Za-z0-9_-])--?[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u > "$tmp/flags"
  missing=()
  while read -r f; do
    [ "$f" = "--help" ] && continue
    grep -qE -- "(^|[^A-Za-z0-9_-])$f([^A-Za-z0-9_-]|\$)" "$tmp/page" || missing+=("$f")
  done < "$tmp/flags"
  if [ ${#missing[@]} -gt 0 ]; then
    fail "hfilegen-$c(1) lacks ${#missing[@]} flag(s) of 'hfilegen $c --help': ${missing[*]}"
  fi
  echo "ok: hfilegen-$c(1): $(wc -l < "$tmp/flags") flags of --help"
done

if [ $fails -gt 0 ]; then
  echo "man: $fails check(s) failed"
  exit 1
fi
echo "man: $(echo "$cmds" | wc -w) command pages and hfilegen(1) pass"

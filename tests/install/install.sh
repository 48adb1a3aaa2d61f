#!/usr/bin/env bash
# The installed tree (issue #28): `cmake --install` into a staging prefix gives the tool, the
# versioned shared library and the static one, the headers, hfilegen.pc, the man pages, the
# completions and the samples; the shared library exports the public API (hfg_*) and nothing
# else; a C program built with `pkg-config --cflags --libs hfilegen` (and one linked statically
# with --static) writes an HFile that the installed `hfilegen verify` passes; the sample job
# runs from the installed binary and samples.
#   tests/install/install.sh BUILD_DIR SOURCE_DIR [WORK_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=${3:-$build/install-test}
rm -rf "$work"
mkdir -p "$work"
stage=$work/stage
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

cmake --install "$build" --prefix "$stage" > "$work/install.log"
ok "cmake --install --prefix $stage"

# ---- the tree
ver=$(sed -n 's/^project(hfilegen VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
major=${ver%%.*}
for f in bin/hfilegen lib/libhfilegen.a lib/libhfilegen.so "lib/libhfilegen.so.$major" \
         "lib/libhfilegen.so.$ver" lib/pkgconfig/hfilegen.pc include/hfilegen/writer.h \
         share/bash-completion/completions/hfilegen share/zsh/vendor-completions/_hfilegen \
         share/doc/hfilegen/README.md share/doc/hfilegen/samples/jobs/orders_salt10.yaml; do
  [ -e "$stage/$f" ] || fail "not installed: $f"
done
if grep -q '^HFG_MAN:BOOL=ON' "$build/CMakeCache.txt"; then
  for c in $("$build/hfilegen" --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
    [ -f "$stage/share/man/man1/hfilegen-$c.1" ] || fail "not installed: share/man/man1/hfilegen-$c.1"
  done
  [ -f "$stage/share/man/man1/hfilegen.1" ] || fail "not installed: share/man/man1/hfilegen.1"
fi
for h in "$src"/include/hfilegen/*.h; do
  cmp -s "$h" "$stage/include/hfilegen/$(basename "$h")" || fail "header not installed: $h"
done
soname=$(readelf -d "$stage/lib/libhfilegen.so.$ver" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[ "$soname" = "libhfilegen.so.$major" ] || fail "soname is '$soname', expected libhfilegen.so.$major"
[ "$(readlink "$stage/lib/libhfilegen.so")" = "libhfilegen.so.$major" ] ||
  fail "libhfilegen.so does not link to the soname"
ok "tree: binary, libhfilegen.so.$ver (soname $soname), .a, headers, .pc, man, completion, docs"

# ---- exported symbols: the public API only, all of it
nm -D --defined-only "$stage/lib/libhfilegen.so.$ver" | awk '{print $3}' | sort > "$work/exported"
grep -v '^hfg_' "$work/exported" > "$work/not_api" || true
if [ -s "$work/not_api" ]; then
  fail "libhfilegen.so exports $(wc -l < "$work/not_api") names outside hfg_*: $(head -10 "$work/not_api" | tr '\n' ' ')"
fi
# every function the installed headers declare (comments and macros gone through cpp)
for h in "$stage"/include/hfilegen/*.h; do echo "#include <hfilegen/$(basename "$h")>"; done > "$work/all.c"
cc -E -P -I"$stage/include" "$work/all.c" > "$work/all.i"
grep -o 'static [^;{(]*\bhfg_[A-Za-z0-9_]* *(' "$work/all.i" | grep -o 'hfg_[A-Za-z0-9_]*' |
  sort -u > "$work/inline" || true   # static inline helpers: in the header, not the library
grep -o '\bhfg_[A-Za-z0-9_]* *(' "$work/all.i" | tr -d ' (' | sort -u | comm -23 - "$work/inline" \
  > "$work/declared"
comm -23 "$work/declared" "$work/exported" > "$work/missing"
if [ -s "$work/missing" ]; then
  fail "declared in include/hfilegen but not exported: $(tr '\n' ' ' < "$work/missing")"
fi
ok "exports: $(wc -l < "$work/exported") hfg_ functions, $(wc -l < "$work/declared") declared"

# ---- a program on the installed library, through pkg-config
export PKG_CONFIG_PATH=$stage/lib/pkgconfig
pcver=$(pkg-config --modversion hfilegen)
[ "$pcver" = "$ver" ] || fail "hfilegen.pc says version $pcver, the project $ver"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$work/write_hfile" "$src/samples/c/write_hfile.c" \
  $(pkg-config --cflags --libs hfilegen)
LD_LIBRARY_PATH=$stage/lib ldd "$work/write_hfile" > "$work/ldd.out"
grep -q "libhfilegen.so.$major => $stage/lib/" "$work/ldd.out" ||
  fail "write_hfile does not load $stage/lib/libhfilegen.so.$major: $(grep hfilegen "$work/ldd.out")"
LD_LIBRARY_PATH=$stage/lib "$work/write_hfile" "$work/shared.hfile" 5000 > "$work/write.out" ||
  fail "write_hfile (shared) failed: $(cat "$work/write.out")"
grep -q "5000 cells" "$work/write.out" || fail "write_hfile: $(cat "$work/write.out")"
"$stage/bin/hfilegen" verify "$work/shared.hfile" > "$work/verify.out" 2>&1 ||
  fail "hfilegen verify of the pkg-config program's HFile: $(cat "$work/verify.out")"
grep -q "OK .*5000 cells, 5000 rows" "$work/verify.out" || fail "verify: $(cat "$work/verify.out")"
ok "pkg-config program (shared): $(cat "$work/write.out"); verify passes"
# libhfilegen.a linked in through `pkg-config --static` (its Libs.private); hfilegen.pc
# needs no other module (Requires would need every dependency's -dev package on the node)
requires=$(pkg-config --print-requires --print-requires-private hfilegen)
[ -z "$requires" ] || fail "hfilegen.pc requires other modules: $(echo $requires)"
# shellcheck disable=SC2046
cc -Wall -Wextra -Werror -o "$work/write_hfile_static" "$src/samples/c/write_hfile.c" \
  $(pkg-config --cflags hfilegen) "$stage/lib/libhfilegen.a" \
  $(pkg-config --static --libs hfilegen | sed 's/ -lhfilegen / /')
LD_LIBRARY_PATH=$stage/lib ldd "$work/write_hfile_static" > "$work/ldd_static.out"
if grep -q libhfilegen "$work/ldd_static.out"; then fail "static program loads libhfilegen.so"; fi
"$work/write_hfile_static" "$work/static.hfile" 5000 > /dev/null || fail "write_hfile (static) failed"
cmp -s "$work/shared.hfile" "$work/static.hfile" || fail "static and shared programs wrote different bytes"
"$stage/bin/hfilegen" verify "$work/static.hfile" > /dev/null 2>&1 || fail "verify of the static program's HFile"
ok "pkg-config --static program: same bytes, verify passes"

# ---- the sample job, from the installed binary and samples
run=$work/run
mkdir -p "$run"
cp -r "$stage/share/doc/hfilegen/samples" "$run/"
(cd "$run" && "$stage/bin/hfilegen" build --quiet --job samples/jobs/orders_salt10.yaml &&
  "$stage/bin/hfilegen" verify --quiet --splits samples/splits/salt10.txt out/orders_salt10) \
  > "$work/sample.out" 2>&1 || fail "sample job from the installed tree: $(tail -5 "$work/sample.out")"
[ -f "$run/out/orders_salt10/_SUCCESS" ] || fail "sample job: no _SUCCESS"
ok "sample job (orders_salt10) built and verified from the installed tree"

if [ $fails -gt 0 ]; then
  echo "install: $fails check(s) failed"
  exit 1
fi
echo "install: all checks passed"

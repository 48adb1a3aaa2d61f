#!/usr/bin/env bash
# The Debian package (issue #28): `cpack -G DEB` gives hfilegen_<version>_<arch>.deb whose
# Depends name the package of every library the tool and libhfilegen.so link (dpkg-shlibdeps),
# that holds the whole installed tree under /usr, that apt can install here (simulated), and
# whose unpacked tree runs the sample job and builds a pkg-config program.
#   tests/install/deb.sh BUILD_DIR SOURCE_DIR [WORK_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=${3:-$build/deb-test}
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
for t in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$t" > /dev/null || { echo "SKIP: $t not found (tools/setup.sh)"; exit 77; }
done

(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg") > "$work/cpack.log" 2>&1 ||
  { tail -20 "$work/cpack.log"; echo "FAIL: cpack -G DEB"; exit 1; }
ver=$(sed -n 's/^project(hfilegen VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(dpkg --print-architecture)
deb=$work/pkg/hfilegen_${ver}_${arch}.deb
[ -f "$deb" ] || { ls "$work/pkg"; echo "FAIL: no $deb"; exit 1; }
ok "cpack: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"

dpkg-deb -f "$deb" Package Version Architecture Depends > "$work/control"
grep -qx "Package: hfilegen" "$work/control" || fail "Package: $(cat "$work/control")"
grep -qx "Version: $ver" "$work/control" || fail "Version is not $ver"
depends=$(dpkg-deb -f "$deb" Depends)
[ -n "$depends" ] || fail "no Depends"
dpkg-deb -e "$deb" "$work/control.d"
grep -q "^libhfilegen ${ver%%.*} hfilegen" "$work/control.d/shlibs" 2>/dev/null ||
  fail "no shlibs entry for libhfilegen.so.${ver%%.*} (for packages linking it)"
grep -qs ldconfig "$work/control.d/postinst" "$work/control.d/triggers" ||
  fail "the package does not run ldconfig (postinst or triggers)"

# the tree
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/contents"
for f in /usr/bin/hfilegen /usr/lib/libhfilegen.so /usr/lib/libhfilegen.so.${ver%%.*} \
         /usr/lib/libhfilegen.so.$ver /usr/lib/libhfilegen.a /usr/lib/pkgconfig/hfilegen.pc \
         /usr/include/hfilegen/writer.h /usr/share/man/man1/hfilegen.1 \
         /usr/share/man/man1/hfilegen-build.1 /usr/share/bash-completion/completions/hfilegen \
         /usr/share/zsh/vendor-completions/_hfilegen /usr/share/doc/hfilegen/README.md \
         /usr/share/doc/hfilegen/samples/orders.csv; do
  grep -qx "$f" "$work/contents" || fail "$(basename "$deb") lacks $f"
done
ok "contents: $(wc -l < "$work/contents") entries, tool, libraries, headers, .pc, man, completion, docs"

# Depends: the package of every library the ELF files link, found independently of
# dpkg-shlibdeps (readelf NEEDED -> the loader's path -> dpkg -S)
dpkg-deb -x "$deb" "$work/root"
for elf in "$work/root/usr/bin/hfilegen" "$work/root/usr/lib/libhfilegen.so.$ver"; do
  readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
done | sort -u | grep -v '^libhfilegen\.' > "$work/needed"
ldconfig -p > "$work/ldconfig"
while read -r lib; do
  path=$(awk -v l="$lib" '$1 == l {print $NF; exit}' "$work/ldconfig")
  [ -n "$path" ] || { fail "$lib (NEEDED) not found by the loader"; continue; }
  real=$(readlink -f "$path")
  pkg=$( (dpkg -S "$real" || dpkg -S "$path") 2>/dev/null | sed -n '1s/:.*//p')
  [ -n "$pkg" ] || { fail "no package holds $path ($lib)"; continue; }
  echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//; s/:.*//' | grep -qx "$pkg" ||
    fail "Depends lacks $pkg (for $lib): $depends"
done < "$work/needed"
ok "Depends ($depends) covers the $(wc -l < "$work/needed") libraries linked"

# apt would install it here (dependencies resolvable; simulated, nothing changes)
if command -v apt-get > /dev/null; then
  apt-get install -s "$deb" > "$work/apt.log" 2>&1 || fail "apt-get install -s: $(tail -5 "$work/apt.log")"
  grep -qE "^Inst hfilegen |hfilegen is already the newest" "$work/apt.log" ||
    fail "apt-get install -s does not install hfilegen: $(tail -5 "$work/apt.log")"
  ok "apt-get install -s ./$(basename "$deb"): resolvable"
fi

# the unpacked tree works: the sample job from its binary and samples, a pkg-config program
root=$work/root
mkdir -p "$work/run"
cp -r "$root/usr/share/doc/hfilegen/samples" "$work/run/"
(cd "$work/run" && "$root/usr/bin/hfilegen" build --quiet --job samples/jobs/orders_salt10.yaml &&
  "$root/usr/bin/hfilegen" verify --quiet --splits samples/splits/salt10.txt out/orders_salt10) \
  > "$work/sample.out" 2>&1 || fail "sample job from the package: $(tail -5 "$work/sample.out")"
[ -f "$work/run/out/orders_salt10/_SUCCESS" ] || fail "sample job from the package: no _SUCCESS"
# shellcheck disable=SC2046
cc -o "$work/write_hfile" "$src/samples/c/write_hfile.c" \
  $(PKG_CONFIG_PATH=$root/usr/lib/pkgconfig pkg-config --cflags --libs hfilegen) &&
  LD_LIBRARY_PATH=$root/usr/lib "$work/write_hfile" "$work/x.hfile" 100 > /dev/null &&
  "$root/usr/bin/hfilegen" verify "$work/x.hfile" > /dev/null 2>&1 ||
  fail "pkg-config program on the package's tree"
ok "unpacked package: sample job built and verified, pkg-config program's HFile verified"

if [ $fails -gt 0 ]; then
  echo "deb: $fails check(s) failed"
  exit 1
fi
echo "deb: all checks passed"

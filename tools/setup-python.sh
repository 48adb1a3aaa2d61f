#!/usr/bin/env bash
# Creates .venv at the repository root with what the Python package and the
# Spark job need (pyspark 3.5 for parity with hbase-spark 1.0.1, pyarrow,
# pytest) and installs python/ into it (editable). Idempotent: a venv that
# already has them is left alone (a stamp file records what was installed).
# Java 17 is needed by Spark (apt-get install openjdk-17-jre-headless).
# Usage: tools/setup-python.sh [VENV_DIR]   (default: .venv)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${1:-$root/.venv}
want="pyspark==3.5.9 pyarrow==17.0.0 pandas==2.2.3 numpy==1.26.4 pytest==8.3.3 pyyaml==6.0.2"
stamp=$venv/.hfilegen-setup
if [[ -x $venv/bin/python && -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
if ! command -v java >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    apt-get install -y -q openjdk-17-jre-headless >/dev/null || {
      apt-get update -q >/dev/null && apt-get install -y -q openjdk-17-jre-headless >/dev/null; }
  fi
fi
py=${PYTHON:-python3}
[[ -x $venv/bin/python ]] || "$py" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check $want
"$venv/bin/pip" install -q --disable-pip-version-check --no-deps --no-build-isolation -e "$root/python" \
  2>/dev/null || "$venv/bin/pip" install -q --disable-pip-version-check --no-deps -e "$root/python"
echo "$want" > "$stamp"

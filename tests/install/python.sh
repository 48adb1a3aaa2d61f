#!/usr/bin/env bash
# The Python package on an installed library (issue #28): `pip install ./python` (into a
# directory of its own, outside the source tree) declares every third-party module its code
# imports; from there it finds libhfilegen through pkg-config (a staging prefix on
# PKG_CONFIG_PATH) and through the loader (LD_LIBRARY_PATH), imports hfilegen.spark, and
# keys the sample input. Uses the venv of tools/setup-python.sh (numpy, pyarrow, pandas,
# pyspark); skipped (77) only when that venv cannot be made.
#   tests/install/python.sh BUILD_DIR SOURCE_DIR [WORK_DIR]
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=${3:-$build/python-install-test}
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
if ! "$src/tools/setup-python.sh" > "$work/setup.log" 2>&1; then
  echo "SKIPPED: the Python venv could not be created:"; tail -5 "$work/setup.log"
  exit 77
fi
py=$src/.venv/bin/python
unset HFILEGEN_LIB PYTHONPATH
stage=$work/stage
cmake --install "$build" --prefix "$stage" > "$work/install.log"
major=$(sed -n 's/^project(hfilegen VERSION \([0-9]*\).*/\1/p' "$src/CMakeLists.txt")

# pip install ./python: the package alone, outside the source tree (its dependencies are
# the venv's; whether they are declared is checked below)
# (from a copy: setuptools writes build/ and *.egg-info beside the sources)
cp -r "$src/python" "$work/python-src"
rm -rf "$work/python-src/build" "$work/python-src"/*.egg-info
"$py" -m pip install -q --disable-pip-version-check --no-deps \
  --target "$work/site" "$work/python-src" > "$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; echo "FAIL: pip install ./python"; exit 1; }
ok "pip install ./python -> $work/site"
cd "$work"
export PYTHONPATH=$work/site

# every third-party module the package imports is declared (dependencies or the spark extra)
"$py" - "$work/site" > "$work/deps.out" 2>&1 <<'PY' || fail "dependencies: $(cat "$work/deps.out")"
import ast, glob, importlib.metadata as md, os, re, sys
site = sys.argv[1]
dist = md.Distribution.at(glob.glob(os.path.join(site, "hfilegen-*.dist-info"))[0])
declared = set()
for r in dist.requires or []:
    declared.add(re.split(r"[ ;<>=!~\[(]", r, 1)[0].lower().replace("_", "-"))
imported = set()
for f in glob.glob(os.path.join(site, "hfilegen", "*.py")):
    for node in ast.walk(ast.parse(open(f).read())):
        if isinstance(node, ast.Import):
            imported.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
third = sorted(m for m in imported
               if m not in sys.stdlib_module_names and m != "hfilegen")
owners = md.packages_distributions()
missing = []
for m in third:
    dists = {d.lower().replace("_", "-") for d in owners.get(m, [m])}
    if not dists & declared:
        missing.append("%s (distribution %s)" % (m, "/".join(sorted(dists))))
# pyspark's mapInArrow needs pandas (pandas_udf requires it): the spark extra must say so
if "pyspark" in third and "pandas" not in declared:
    missing.append("pandas (pyspark's mapInArrow requires it)")
print("imports", third, "declared", sorted(declared))
if missing:
    print("undeclared:", ", ".join(missing))
    sys.exit(1)
PY
ok "dependencies: $(head -1 "$work/deps.out")"

# the library through pkg-config (the staging prefix), and through the loader
got=$(PKG_CONFIG_PATH=$stage/lib/pkgconfig "$py" -c 'import hfilegen.spark, hfilegen._lib as l; print(l.path)' 2>&1) ||
  fail "import hfilegen.spark with PKG_CONFIG_PATH: $got"
[ "$got" = "$stage/lib/libhfilegen.so.$major" ] || fail "pkg-config: loaded '$got', not $stage/lib/libhfilegen.so.$major"
ok "pkg-config: $got"
got=$(PKG_CONFIG_PATH=/nonexistent LD_LIBRARY_PATH=$stage/lib "$py" -c 'import hfilegen._lib as l; print(l.path)' 2>&1) ||
  fail "import with LD_LIBRARY_PATH: $got"
[ "$got" = "libhfilegen.so.$major" ] || fail "loader: '$got'"
ok "loader: $got"
# without any: a message that says what to do (unless the library is installed system-wide)
if ! ldconfig -p | grep -q "libhfilegen.so.$major "; then
  msg=$(PKG_CONFIG_PATH=/nonexistent "$py" -c 'import hfilegen' 2>&1) && fail "import without a library succeeded"
  grep -q "libhfilegen not found: install it" <<< "$msg" || fail "no library: $msg"
fi

# a job through the installed package: the sample keyed by the installed library
cp -r "$src/samples" "$work/"
"$stage/bin/hfilegen" build --job samples/jobs/orders_salt10.yaml --out "$work/cli-out" > "$work/cli.out" 2>&1
written=$(awk '/records written/ {print $3}' "$work/cli.out")
WRITTEN=$written PKG_CONFIG_PATH=$stage/lib/pkgconfig "$py" - > "$work/job.out" 2>&1 <<'PY' ||
import os
import hfilegen
job = hfilegen.Job(["--job", "samples/jobs/orders_salt10.yaml"], timestamp=1700000000000)
keyed, rejects, stats = job.read_file(0)
n = int(os.environ["WRITTEN"])  # what the installed `hfilegen build` wrote
assert keyed.num_rows == n and stats["records_read"] == n, (keyed.num_rows, stats, n)
assert len(set(keyed.column("region").to_pylist())) == 10
print("keyed", keyed.num_rows, "records into 10 regions, as hfilegen build wrote")
PY
  fail "sample job: $(cat "$work/job.out")"
ok "sample: $(cat "$work/job.out")"

# the wheel that bundles the library (tools/build-wheel.sh: auditwheel): installed alone, it
# loads its own copy, whose dependencies resolve inside the wheel, and keys the sample
whl=$("$src/tools/build-wheel.sh" "$build" "$work/wheel" 2> "$work/wheel.log") ||
  fail "tools/build-wheel.sh: $(tail -5 "$work/wheel.log")"
if [ -n "$whl" ] && [ -f "$whl" ]; then
  "$py" -m pip install -q --disable-pip-version-check --no-deps --target "$work/wsite" "$whl" \
    > "$work/wpip.log" 2>&1 || fail "pip install $(basename "$whl"): $(tail -3 "$work/wpip.log")"
  got=$(env -u LD_LIBRARY_PATH PKG_CONFIG_PATH=/nonexistent PYTHONPATH=$work/wsite \
    "$py" -c 'import hfilegen._lib as l; print(l.path)' 2>&1) || fail "import from the wheel: $got"
  [ "$got" = "$work/wsite/hfilegen/libhfilegen.so.$major" ] || fail "the wheel loaded '$got'"
  ldd "$work/wsite/hfilegen/libhfilegen.so.$major" > "$work/wldd" 2>&1 || true
  if grep -q "not found" "$work/wldd"; then fail "the wheel's library: $(grep 'not found' "$work/wldd")"; fi
  for l in liblz4 libzstd libprotobuf-c libpq libmariadb libzookeeper_mt; do
    grep -q "^[[:space:]]*$l-[0-9a-f]*\.so[^ ]* => $work/wsite/hfilegen/\.\./hfilegen\.libs/" "$work/wldd" ||
      fail "the wheel does not bundle $l: $(grep "$l" "$work/wldd")"
  done
  WRITTEN=$written PYTHONPATH=$work/wsite PKG_CONFIG_PATH=/nonexistent "$py" -c '
import os, hfilegen
job = hfilegen.Job(["--job", "samples/jobs/orders_salt10.yaml"], timestamp=1700000000000)
keyed, rejects, stats = job.read_file(0)
assert keyed.num_rows == int(os.environ["WRITTEN"]), keyed.num_rows' > "$work/wjob.out" 2>&1 ||
    fail "the sample through the wheel: $(tail -3 "$work/wjob.out")"
  ok "wheel $(basename "$whl"): its own libhfilegen, $(grep -c hfilegen.libs "$work/wldd") libraries from hfilegen.libs, the sample keyed"
fi

# python/README.md's spark-submit line: the installed package's job file on local[2], the
# library through pkg-config; the output equals the installed `hfilegen build`'s
if command -v java > /dev/null && [ -x "$src/.venv/bin/spark-submit" ]; then
  job_py=$(PKG_CONFIG_PATH=$stage/lib/pkgconfig "$py" -c 'import hfilegen.spark as s; print(s.__file__)')
  "$stage/bin/hfilegen" build --quiet --job samples/jobs/orders_salt10.yaml --out "$work/build-out" \
    --job-timestamp 1700000000000 > /dev/null 2>&1 || fail "hfilegen build at a fixed timestamp"
  PKG_CONFIG_PATH=$stage/lib/pkgconfig PATH=$src/.venv/bin:$PATH \
    "$src/.venv/bin/spark-submit" --master 'local[2]' --conf spark.pyspark.python="$py" \
    --conf spark.ui.enabled=false "$job_py" --job samples/jobs/orders_salt10.yaml \
    --out "$work/spark-out" --job-timestamp 1700000000000 > "$work/spark-submit.log" 2>&1 ||
    fail "spark-submit: $(grep -v ' INFO \| WARN ' "$work/spark-submit.log" | tail -5)"
  diff -r "$work/build-out" "$work/spark-out" > "$work/spark.diff" 2>&1 ||
    fail "spark-submit output differs from hfilegen build's: $(head -5 "$work/spark.diff")"
  ok "spark-submit $(basename "$job_py") on local[2]: byte-identical to hfilegen build"
else
  echo "not run: spark-submit (no java or no .venv/bin/spark-submit)"
fi

if [ $fails -gt 0 ]; then
  echo "python: $fails check(s) failed"
  exit 1
fi
echo "python: all checks passed"

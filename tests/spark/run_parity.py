#!/usr/bin/env python3
"""Spark parity test (ctest label `spark`): in one local SparkSession, the bundled sample
job and two harder jobs (tests/spark/jobs: spills, several families, rolling, duplicates
last/first, rejects, TSV, gzip input, marker rows) run by hfilegen.spark are compared byte
for byte (file names, bytes, manifest.json, _rejects.tsv) with `hfilegen build` at the same
timestamp; the two harder jobs again with --split-size (big CSV/TSV files read in byte
ranges by several tasks), output and rejects byte-identical. Parquet and ORC inputs (tests/spark/typed_inputs.py, read by Spark's readers in
several splits per file) give HFiles and manifest byte-identical to build on the same rows as
CSV (NULLs as \\N with --null-string), with the same rejects (reasons; row numbers in the
file). Then failure injection on the hard job: a task that raises once and a Python
worker killed once (Spark retries; output identical, no second copy), and a job whose task
always fails (nothing loadable left; the rerun is identical). `hfilegen.spark rekey` over a
snapshot layout (tests/spark/rekey_case.py): visible, --raw and rejects byte-identical to
`hfilegen rekey`, a merging re-key failing as rekey fails, a missing snapshot refused
before Spark starts.

usage: run_parity.py REPO_ROOT HFILEGEN_BIN WORK_DIR
"""
import os
import shutil
import subprocess
import sys
import time

from hfilegen.core import HfilegenError

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rekey_case  # noqa: E402  (tests/spark/rekey_case.py)

TS = "1700000000000"


def tree(d):
    out = {}
    for root, dirs, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = fh.read()
    return out


def compare(a, b, skip=None):
    ta, tb = tree(a), tree(b)
    ta.pop(skip, None)
    tb.pop(skip, None)
    if set(ta) != set(tb):
        return "file lists differ: only in build %s, only in spark %s" % (
            sorted(set(ta) - set(tb))[:5], sorted(set(tb) - set(ta))[:5])
    for k in sorted(ta):
        if ta[k] != tb[k]:
            return "%s differs (%d vs %d bytes)" % (k, len(ta[k]), len(tb[k]))
    return None


def loadable(out):
    """What completebulkload would load from out: files without a leading '_' or '.' in
    family directories, and _SUCCESS."""
    found = []
    if not os.path.isdir(out):
        return found
    for e in os.listdir(out):
        p = os.path.join(out, e)
        if e == "_SUCCESS" or e == "manifest.json":
            found.append(e)
        elif os.path.isdir(p) and not e.startswith(("_", ".")):
            found += [e + "/" + f for f in os.listdir(p) if not f.startswith(("_", "."))]
    return found


TYPED_FLAGS = ["--rowkey", "{id % 4}|{id}", "--splits", "splits4.txt", "--family", "d",
               "--map", "score=d:score:double", "--map", "flag=d:flag:boolean",
               "--map", "small=d:small:short", "--map", "qty=d:qty:long",
               "--timestamp", "column:ts", "--on-duplicate", "last", "--max-rejects", "1000",
               "--codec", "snappy", "--block-size", "8k", "--max-file-size", "64k",
               "--job-timestamp", TS]


def rejects(d, kind):
    """(file with the kind's name made generic, row or line, reason) of a rejects file."""
    p = os.path.join(d, "_rejects.tsv")
    if not os.path.exists(p):
        return []
    with open(p, "rb") as f:
        return [tuple(ln.split(b"\t")[:3]) for ln in f.read().replace(kind.encode(), b"K")
                .splitlines()]


def split_case(spark, hs, jobs, work, check):
    """--split-size: big uncompressed CSV/TSV files read in byte ranges by several tasks
    (quoted newlines, short rows, bad values, CRLF): the output and the rejects file
    byte-identical to build's (same lines), the gzip input still one task."""
    for (name, cwd, jobf, tsf), size in ((jobs[1], 512 << 10), (jobs[2], 128 << 10)):
        os.chdir(cwd)
        cli = os.path.join(work, name + ".build")
        sp = os.path.join(work, name + ".split")
        from hfilegen.core import Job
        j = Job(["--job", jobf, "--out", sp] + tsf)
        ntasks = len(hs._read_tasks(j, size))
        j.close()
        t0 = time.time()
        hs.run(spark, ["--job", jobf, "--out", sp] + tsf, split_size=size)
        diff = compare(cli, sp)
        check(name, diff is None and ntasks > 3,
              "split in %d read tasks: identical (%.1fs)" % (ntasks, time.time() - t0)
              if diff is None else diff)


def typed_case(spark, hs, repo, hfg, work, check):
    d = os.path.join(work, "typed")
    subprocess.check_call([sys.executable, os.path.join(repo, "tests/spark/typed_inputs.py"),
                           d, "3000"])
    with open(os.path.join(d, "splits4.txt"), "w") as f:
        f.write("1|\n2|\n3|\n")
    os.chdir(d)
    cli = os.path.join(d, "out.build")
    subprocess.check_call([hfg, "build"] + TYPED_FLAGS + ["--null-string", "\\N", "--out", cli,
                                                          "-q", "csv/a.csv", "csv/b.csv"])
    got = {}
    # small splits: each file is read by several tasks (row numbers across splits)
    spark.conf.set("spark.sql.files.maxPartitionBytes", "48k")
    try:
        for kind in ("parquet", "orc"):
            sp = os.path.join(d, "out." + kind)
            t0 = time.time()
            s = hs.run(spark, TYPED_FLAGS + ["--out", sp, kind])
            ntasks = spark.read.format(kind).load(os.path.join(d, kind)).rdd.getNumPartitions()
            diff = compare(cli, sp, skip="_rejects.tsv")
            check(kind + "_typed", diff is None and ntasks > 2 and s["null_values"] > 0,
                  "HFiles, manifest identical to build on CSV (%d files, %d tasks, %.1fs)"
                  % (s["files"], ntasks, time.time() - t0) if diff is None
                  else diff or "only %d read tasks" % ntasks)
            got[kind] = rejects(sp, kind)
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    want = [r[2] for r in rejects(cli, "csv")]
    check("typed_rejects", [r[2] for r in got["parquet"]] == want and got["orc"] ==
          got["parquet"] and len(want) > 10,
          "%d rejects, same reasons as build, same rows in Parquet and ORC" % len(want))
    # refusals: a NULL marker has no meaning for typed inputs; columns of complex types
    try:
        hs.run(spark, TYPED_FLAGS + ["--null-string", "x", "--out", os.path.join(d, "o2"),
                                     "parquet"])
        check("typed_refusals", False, "--null-string with Parquet was accepted")
    except HfilegenError as e:
        check("typed_refusals", "--null-string" in str(e) and
              not os.path.exists(os.path.join(d, "o2")), "--null-string with Parquet refused")


def main():
    repo, hfg, work = sys.argv[1:4]
    repo = os.path.abspath(repo)
    hfg = os.path.abspath(hfg)
    work = os.path.abspath(work)
    shutil.rmtree(work, ignore_errors=True)
    data = os.path.join(work, "in")
    subprocess.check_call([sys.executable, os.path.join(repo, "tests/spark/make_inputs.py"),
                           data, "60000"])
    for f in ("splits8.txt", "splits_long.txt"):
        shutil.copy(os.path.join(repo, "tests/spark", f), data)
    jobs = [  # (name, cwd, job file, timestamp flag)
        ("sample_salt10", repo, os.path.join(repo, "samples/jobs/orders_salt10.yaml"),
         ["--job-timestamp", TS]),
        ("families_rolling_last", data,
         os.path.join(repo, "tests/spark/jobs/families_rolling_last.yaml"),
         ["--job-timestamp", TS]),
        ("tsv_first_marker", data, os.path.join(repo, "tests/spark/jobs/tsv_first_marker.yaml"),
         []),
    ]
    from hfilegen import spark as hs
    # local[2, 4]: two cores, and a task may fail up to 4 times (retries, as on a cluster)
    spark = hs.session("local[2,4]", "hfilegen-parity")
    spark.sparkContext.setLogLevel("ERROR")
    failures = []

    def check(name, ok, what):
        print("%-28s %-40s %s" % (name, what, "ok" if ok else "FAILED"), flush=True)
        if not ok:
            failures.append("%s: %s" % (name, what))

    try:
        for name, cwd, jobf, tsf in jobs:
            os.chdir(cwd)
            cli = os.path.join(work, name + ".build")
            sp = os.path.join(work, name + ".spark")
            subprocess.check_call([hfg, "build", "--job", jobf, "--out", cli, "-q"] + tsf)
            t0 = time.time()
            s = hs.run(spark, ["--job", jobf, "--out", sp] + tsf)
            diff = compare(cli, sp)
            check(name, diff is None, "byte-identical (%d files, %.1fs)" % (s["files"],
                                                                         time.time() - t0)
                  if diff is None else diff)
        split_case(spark, hs, jobs, work, check)
        rekey_case.run_case(spark, repo, hfg, work, compare, check)
        typed_case(spark, hs, repo, hfg, work, check)
        # failure injection on the hard job
        name, cwd, jobf, tsf = jobs[1]
        os.chdir(cwd)
        cli = os.path.join(work, name + ".build")
        for kind, kw in (("task raises once", {"fail_once_region": 3}),
                         ("worker killed once", {"kill_once_region": 5})):
            sp = os.path.join(work, name + ".retry")
            shutil.rmtree(sp, ignore_errors=True)
            hs.run(spark, ["--job", jobf, "--out", sp] + tsf, **kw)
            diff = compare(cli, sp)
            check(name, diff is None, kind + ": identical" if diff is None else kind + ": " + diff)
        sp = os.path.join(work, name + ".failed")
        try:
            hs.run(spark, ["--job", jobf, "--out", sp] + tsf, fail_region=2)
            check(name, False, "always-failing task: the job succeeded")
        except Exception:
            left = loadable(sp)
            leftovers = [e for e in os.listdir(work) if e.startswith(".")]
            check(name, not left and not leftovers,
                  "failed job: nothing loadable" if not left and not leftovers
                  else "failed job left %s %s" % (left[:5], leftovers))
        hs.run(spark, ["--job", jobf, "--out", sp] + tsf)
        diff = compare(cli, sp)
        check(name, diff is None, "rerun after failure: identical" if diff is None else diff)
    finally:
        spark.stop()
    if failures:
        print("FAILED: " + "; ".join(failures))
        return 1
    print("identical: all %d jobs and the failure cases" % len(jobs))
    return 0


if __name__ == "__main__":
    sys.exit(main())

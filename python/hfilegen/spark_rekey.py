"""`hfilegen rekey` on Spark, byte-identical to the single machine with the same flags,
--job-timestamp and --as-of (the default --as-of, now, is fixed once by the driver).

    python -m hfilegen.spark rekey --master 'local[2]' --from DIR [--snapshot NAME]
        --old-key PATTERN [--raw] [--as-of MILLIS] --rowkey TEMPLATE --splits FILE --out DIR
        [rekey's other flags]

Stages: the driver opens the old table (the snapshot, the patterns, the families' HFile
options: every refusal before Spark starts) and lists its regions; (1) one task per old
region reads its store files through rekey's row iterator restricted to that region
(libhfilegen: hfg_rekey_batch_read_region), re-keys every row and hands back the new-key
rows, their cells as typed-cell payloads, as Arrow batches, with the region's rejects and
counts as a META row; (2)-(4) as for build (hfilegen.spark): partitioned by new region, each
region's rows ordered and written by the C emit (two old rows with one new key fail the
job as rekey fails), the driver publishing with manifest.json's "rekey" member. Old rows
read = written + rejected + without visible cells, as rekey counts them.
"""
import argparse
import functools
import json
import os
import sys

from hfilegen import driver as drv
from hfilegen import spark as hs
from hfilegen.core import HfilegenError
from hfilegen.rekey import EINVAL, RekeyJob, finish, refused_flag

_jobs = {}


def _worker_job(args, rekey, ts, cwd):
    """The job in a Python worker, opened once per worker process."""
    k = (tuple(args), tuple(sorted(rekey.items())), ts, cwd)
    if cwd and os.getcwd() != cwd:
        os.chdir(cwd)  # relative paths mean what they mean to the driver
    if k not in _jobs:
        _jobs[k] = RekeyJob(args, rekey, ts)
    return _jobs[k]


def _read_fn(args, rekey, ts, cwd, batch_rows):
    def fn(it):
        import pyarrow as pa
        from hfilegen.core import KEYED_SCHEMA
        job = _worker_job(args, rekey, ts, cwd)
        for b in it:
            for region in b.column(0).to_pylist():
                t, rej, st = job.read_region(region)
                for rb in t.to_batches(max_chunksize=batch_rows):
                    yield rb
                meta = pa.table([pa.array([hs.META], pa.int32()), pa.array([rej], pa.binary()),
                                 pa.array([region], pa.int64()),
                                 pa.array([json.dumps(st).encode()], pa.binary())],
                                schema=KEYED_SCHEMA)
                yield meta.to_batches()[0]
    return fn


def run(spark, rekey, args, timestamp=None, partitions=None, fail_once_region=None,
        fail_region=None, kill_once_region=None, batch_rows=65536):
    """Runs `hfilegen rekey` with rekey ({from_dir, snapshot, old_key, raw, as_of}) and the
    build flags args on spark; returns the summary dict. Raises on failure (HfilegenError
    for the job's own refusals), with nothing loadable left in the output directory."""
    cwd = os.getcwd()
    job = RekeyJob(args, rekey, timestamp)
    ts = job.timestamp
    rk = dict(rekey, as_of=job.as_of)  # every task scans as of the driver's "now"
    wd = drv.work_dir(job.out_dir)
    drv.clean_work(wd)
    out_existed = os.path.exists(job.out_dir)
    job.begin()
    try:
        os.makedirs(wd, exist_ok=True)
        n = job.old_regions
        regions = spark.createDataFrame([(i,) for i in range(n)], "region long").repartition(n)
        schema = "region int, key binary, ord long, payload binary"
        keyed = regions.mapInArrow(_read_fn(job.args, rk, ts, cwd, batch_rows), schema)
        parts = keyed.repartition(partitions or job.regions, "region")
        opener = functools.partial(_worker_job, job.args, rk, ts, cwd)
        results = parts.mapInArrow(hs._emit_fn(job.args, ts, cwd, wd, fail_once_region,
                                               fail_region, kill_once_region,
                                               open_job=opener),
                                   hs.RESULT_SCHEMA).collect()
        reads, emits = hs.collect(results)
        s = finish(job, reads, emits)
        s["warning"] = job.warning
        return s
    except BaseException:
        job.abort()
        if not out_existed:
            _tidy_failed_out(job.out_dir)
        raise
    finally:
        drv.clean_work(wd)
        job.close()


def _tidy_failed_out(out):
    """As hfilegen rekey leaves a failed job's output directory it created: its empty family
    folders, then the directory, removed; anything else (the rejects file a --max-rejects
    failure points to) stays, and with it the directory."""
    if not os.path.isdir(out):
        return
    for e in os.listdir(out):
        try:
            os.rmdir(os.path.join(out, e))  # only an empty directory goes
        except OSError:
            pass
    try:
        os.rmdir(out)
    except OSError:
        pass


def check_args(mine, rest):
    """rekey's arguments checked before Spark starts, as `hfilegen rekey` checks them: the
    flags, then the job opened (the snapshot, the patterns, the re-keying, the families'
    HFile options, the splits) and closed. (0, the rekey dict) or (exit code, None): 2 for
    a usage error or a refused re-keying, 1 for a snapshot that cannot be read."""
    bad = refused_flag(rest)
    if bad:
        print("hfilegen rekey: %s is not a rekey option (cells keep their families, "
              "qualifiers and timestamps)" % bad, file=sys.stderr)
        return 2, None
    as_of = None
    if mine.as_of is not None:
        if not mine.as_of.isdigit() or int(mine.as_of) > (1 << 63) - 1:
            print("hfilegen rekey: --as-of needs epoch milliseconds, got '%s'" % mine.as_of,
                  file=sys.stderr)
            return 2, None
        as_of = int(mine.as_of)
    if not mine.from_dir or not mine.old_key:
        print("hfilegen rekey: needs --from, --old-key, --rowkey and --out", file=sys.stderr)
        return 2, None
    rekey = {"from_dir": mine.from_dir, "snapshot": mine.snapshot, "old_key": mine.old_key,
             "raw": bool(mine.raw), "as_of": as_of}
    try:
        RekeyJob(rest, rekey).close()
    except HfilegenError as e:
        print("hfilegen rekey: %s" % e, file=sys.stderr)
        return (2 if e.code in (EINVAL, None) else 1), None
    return 0, rekey


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="hfilegen spark rekey", add_help=False, allow_abbrev=False,
        description="hfilegen rekey on Spark: every other flag is a `hfilegen rekey` flag")
    p.add_argument("--master", help="Spark master when not under spark-submit, e.g. local[2]")
    p.add_argument("--spark-partitions", type=int, help="write tasks (default: new regions)")
    p.add_argument("--from", dest="from_dir", metavar="DIR")
    p.add_argument("--snapshot", metavar="NAME")
    p.add_argument("--old-key", metavar="PATTERN")
    p.add_argument("--raw", action="store_true")
    p.add_argument("--as-of", metavar="MILLIS")
    p.add_argument("--inject-fail-once", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--inject-fail", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--inject-kill-once", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--help-spark", action="help")
    mine, rest = p.parse_known_args(argv)
    rc, rekey = check_args(mine, rest)  # before Spark starts
    if rc:
        return rc
    spark = hs.session(mine.master, "hfilegen-rekey")
    spark.sparkContext.setLogLevel("ERROR")
    try:
        s = run(spark, rekey, rest, partitions=mine.spark_partitions,
                fail_once_region=mine.inject_fail_once, fail_region=mine.inject_fail,
                kill_once_region=mine.inject_kill_once)
    except HfilegenError as e:
        print("hfilegen spark rekey: FAILED: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # a failed Spark job: the output holds nothing loadable
        msg = str(e).strip().splitlines()
        print("hfilegen spark rekey: job failed, nothing published: %s"
              % (msg[0] if msg else e), file=sys.stderr)
        return 1
    finally:
        spark.stop()
    if s.get("warning"):
        print("hfilegen rekey: warning: %s" % s["warning"], file=sys.stderr)
    print("hfilegen spark rekey: old rows %(records_read)d read = %(records_written)d written "
          "+ %(records_rejected)d rejected + %(records_without_cells)d without visible cells; "
          "%(store_files)d store files, %(cells_read)d cells read, %(cells)d written; "
          "%(files)d files; as of %(as_of)d, timestamp %(timestamp)d" % s, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

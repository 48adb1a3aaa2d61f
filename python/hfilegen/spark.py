"""The hfilegen build job on Spark, byte-identical to `hfilegen build` with the same
job file, flags and timestamp.

    spark-submit --master yarn ... .../hfilegen/spark.py --job job.yaml [build flags]
        (this file, installed; python/README.md says what each node needs)
    python -m hfilegen.spark --master 'local[2]' --job job.yaml [build flags]
    python -m hfilegen.spark rekey --master 'local[2]' --from DIR [--snapshot NAME] ...
        (hfilegen rekey on Spark: hfilegen.spark_rekey)

Stages: (1) one task per input file reads it with hfilegen's own record reader (the CSV/TSV
dialect, compression, line numbers and rejects exactly as build's) and keys every record
through libhfilegen, as Arrow batches (mapInArrow); (2) the keyed records are partitioned by
region (the job's split points: hash-partitioned on the region number), not sorted by
Spark: the write task groups its rows by region and the C emit's sorter orders each region by
rowkey (unsigned bytes: HBase's row order) and input order; (3) one task per partition writes
each of its regions' HFiles through the C writer (rolling, duplicate policy, file names as build's) into
its own attempt directory, and hands back its files and the read tasks' rejects and
counters (META rows, shuffled with the records: one Spark job, nothing cached or read twice);
(4) the driver collects the successful attempts' file lists and counts, writes the rejects
file, and publishes: files renamed into the staged output,
manifest.json, _SUCCESS last, then the staging directory renamed to the output. A failed
job leaves nothing loadable; a retried task's earlier attempt is never published.
"""
import argparse
import json
import os
import sys

import numpy as np

from hfilegen.core import Job, HfilegenError, job_inputs, parse_size
from hfilegen.core import check_args as check_build_args
from hfilegen import driver as drv

META = -1  # region of the rows that carry a file's rejects and counters
RESULT_NAMES = ["region", "ord", "rejects", "result"]
RESULT_SCHEMA = "region int, ord long, rejects binary, result binary"

_jobs = {}


def _worker_job(args, ts, cwd, source=None):
    """The job in a Python worker, opened once per worker process."""
    k = (tuple(args), ts, cwd, source)
    if cwd and os.getcwd() != cwd:
        os.chdir(cwd)  # relative paths mean what they mean to the driver
    if k not in _jobs:
        _jobs[k] = Job(args, ts, source=source)
    return _jobs[k]


def _read_fn(args, ts, cwd, batch_rows):
    def fn(it):
        import pyarrow as pa
        from hfilegen.core import KEYED_SCHEMA
        job = _worker_job(args, ts, cwd)
        for b in it:
            for i, start, end, line, seq in zip(*[b.column(k).to_pylist() for k in range(5)]):
                if start < 0:
                    t, rej, st = job.read_file(i)
                else:  # one byte range of a big file (--split-size)
                    t, rej, st = job.read_range(i, start, end, line, seq)
                for rb in t.to_batches(max_chunksize=batch_rows):
                    yield rb
                meta = pa.table([pa.array([META], pa.int32()), pa.array([rej], pa.binary()),
                                 pa.array([i << 40 | max(seq, 0)], pa.int64()),
                                 pa.array([json.dumps(st).encode()], pa.binary())],
                                schema=KEYED_SCHEMA)
                yield meta.to_batches()[0]
    return fn


_COMPRESSED = (b"\x1f\x8b", b"\x28\xb5\x2f\xfd", b"BZh", b"\xfd7zXZ\x00")


def _read_tasks(job, split_size):
    """The read tasks: (file, start, end, line, seq), start -1 for a whole file. With
    split_size, an uncompressed file of at least 2 * split_size is cut at record starts by
    one sequential read in the driver (the C reader: quoted newlines, blank lines, rejects
    and line numbers as build's), so that every range's records, lines and numbers are those
    of the whole file's read."""
    tasks = []
    # the dump formats (3 and up: mysql, pg-text, pg-csv) are read whole, one task a file:
    # a byte range starts a CSV/TSV part only (as build's parallel ingest reads dumps whole)
    dump = job_inputs(job.args)["format"] >= 3
    for i, path in enumerate(job.inputs):
        big = False
        if split_size and not dump and path != "-" and os.path.isfile(path) and \
                os.path.getsize(path) >= 2 * split_size:
            with open(path, "rb") as f:
                head = f.read(6)
            big = not any(head.startswith(m) for m in _COMPRESSED)
        if not big:
            tasks.append((i, -1, 0, 0, 0))
            continue
        ranges = job.scan_file(i, split_size)
        for k, (start, line, seq) in enumerate(ranges):
            end = ranges[k + 1][0] if k + 1 < len(ranges) else 0
            tasks.append((i, start, end, line, seq))
    return tasks


def _emit_fn(args, ts, cwd, wd, fail_once, fail_always, kill_once, source=None,
             open_job=None):
    """open_job: the worker's job when it is not build's (rekey: spark_rekey)."""
    def fn(it):
        import pyarrow as pa
        from pyspark import TaskContext
        job = open_job() if open_job else _worker_job(args, ts, cwd, source)
        ctx = TaskContext.get()
        attempt = "p%d-a%d" % (ctx.partitionId(), ctx.taskAttemptId())

        def emit(region, batches):
            d = os.path.join(wd, "r%d-%s" % (region, attempt))
            os.makedirs(d, exist_ok=True)
            files, c = job.emit(region, d, pa.Table.from_batches(batches))
            if region == kill_once and ctx.attemptNumber() == 0:
                os.kill(os.getpid(), 9)  # a worker killed after writing its files
            if region == fail_always or (region == fail_once and ctx.attemptNumber() == 0):
                raise RuntimeError("hfilegen.spark: failure injected in region %d (attempt %d)"
                                   % (region, ctx.attemptNumber()))
            c["region"] = region
            for f in files:
                f["first_row"] = f["first_row"].hex()
                f["last_row"] = f["last_row"].hex()
            res = json.dumps({"files": files, "counts": c}).encode()
            return pa.RecordBatch.from_arrays([pa.array([region], pa.int32()),
                                               pa.array([0], pa.int64()),
                                               pa.array([b""], pa.binary()),
                                               pa.array([res], pa.binary())],
                                              names=RESULT_NAMES)

        def meta(rows):
            """A read task's rejects and counters, handed back to the driver as they are."""
            return pa.RecordBatch.from_arrays([rows.column(0), rows.column(2), rows.column(1),
                                               rows.column(3)], names=RESULT_NAMES)
        # The partition's rows in any order (hash-partitioned by region): grouped here by
        # region; each region's records go to the C emit, whose sorter orders them by
        # rowkey and input order itself, so Spark does not sort them.
        held = {}
        for b in it:
            if b.num_rows == 0:
                continue
            vals = b.column(0).to_numpy(zero_copy_only=False)
            regions = np.unique(vals)
            if len(regions) > 1:
                idx = np.argsort(vals, kind="stable")
                b = b.take(pa.array(idx))
                vals = vals[idx]
            bounds = np.searchsorted(vals, regions, side="left").tolist() + [len(vals)]
            for k, r in enumerate(regions.tolist()):
                part = b.slice(bounds[k], bounds[k + 1] - bounds[k])
                if r == META:
                    yield meta(part)
                else:
                    held.setdefault(r, []).append(part)
        for r in sorted(held):
            yield emit(r, held.pop(r))
    return fn


def collect(results):
    """The write tasks' rows: (reads: the read tasks' (order, rejects, counters), emits:
    per region (files, counts))."""
    emits, reads = [], []
    for row in results:
        if row["region"] == META:
            reads.append((row["ord"], bytes(row["rejects"]),
                          json.loads(bytes(row["result"]))))
            continue
        r = json.loads(bytes(row["result"]))
        for f in r["files"]:
            f["first_row"] = bytes.fromhex(f["first_row"])
            f["last_row"] = bytes.fromhex(f["last_row"])
        emits.append((r["files"], r["counts"]))
    return reads, emits


def run(spark, args, timestamp=None, fail_once_region=None, fail_region=None,
        batch_rows=65536, partitions=None, kill_once_region=None, input_format=None,
        split_size=None):
    """Runs the job `hfilegen build ARGS` on spark; returns the summary dict. Raises on
    failure, with nothing loadable left in the output directory. input_format: None (by
    the inputs' names: .parquet, .orc, directories of them are read by Spark, see
    hfilegen.spark_typed; others by hfilegen's reader), 'parquet', 'orc' or 'csv'.
    split_size: bytes; an uncompressed CSV/TSV file of at least twice that is read in byte
    ranges of about that size by several tasks (see _read_tasks), else one task a file."""
    from hfilegen import spark_typed
    cwd = os.getcwd()
    typed = spark_typed.keyed(spark, args, timestamp, cwd, input_format, _worker_job)
    job = typed[0] if typed else Job(args, timestamp)
    ts = job.timestamp
    wd = drv.work_dir(job.out_dir)
    drv.clean_work(wd)  # a killed job's attempts
    keyed_all = None
    job.begin()
    try:
        os.makedirs(wd, exist_ok=True)
        n = len(job.inputs)
        schema = "region int, key binary, ord long, payload binary"
        if typed:
            keyed_all = typed[1]
        else:
            tasks = _read_tasks(job, split_size)
            files_df = spark.createDataFrame(
                tasks, "file long, start long, stop long, line long, seq long") \
                .repartition(len(tasks))
            keyed_all = files_df.mapInArrow(_read_fn(job.args, ts, cwd, batch_rows), schema)
        # One Spark job: the read tasks' rows (and their META rows: rejects, counters) are
        # shuffled by region, and the write tasks hand back both their files and
        # the META rows, so that nothing is read twice or cached.
        nparts = partitions or job.regions
        parts = keyed_all.repartition(nparts, "region")
        results = parts.mapInArrow(_emit_fn(job.args, ts, cwd, wd, fail_once_region,
                                            fail_region, kill_once_region,
                                            typed[2] if typed else None),
                                   RESULT_SCHEMA).collect()
        reads, emits = collect(results)
        return drv.finish(job, reads, emits)
    except BaseException:
        job.abort()
        raise
    finally:
        drv.clean_work(wd)
        job.close()


def session(master=None, app="hfilegen"):
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from hfilegen import _lib
    os.environ.setdefault("HFILEGEN_LIB", _lib.path)
    from pyspark.sql import SparkSession
    b = SparkSession.builder.appName(app)
    if master:
        b = b.master(master)
    b = b.config("spark.sql.execution.arrow.maxRecordsPerBatch", "65536") \
         .config("spark.executorEnv.HFILEGEN_LIB", os.environ["HFILEGEN_LIB"]) \
         .config("spark.ui.enabled", "false") \
         .config("spark.ui.showConsoleProgress", "false") \
         .config("spark.sql.shuffle.partitions", "8")
    return b.getOrCreate()


def check_args(mine, rest):
    """The job's arguments checked before Spark starts, as `hfilegen build` checks its own
    and with its messages (on stderr): (0, the split size in bytes or None), or (the exit
    code, None): 2 for a usage error, 1 for an input file that cannot be opened."""
    split = None
    if mine.split_size is not None:  # as build reads --memory: 256m, 1.5g, 64kb
        split = parse_size(mine.split_size)
        if not split:
            print("hfilegen spark: --split-size %s: expected a size (e.g. 256m)"
                  % mine.split_size, file=sys.stderr)
            return 2, None
    rc = check_build_args(rest, files=False)  # build's flags, the ones it needs, the rowkey
    if rc:
        return rc, None
    ins = job_inputs(rest)["inputs"]
    for k, path in enumerate(ins):
        where = "input %d of %d" % (k + 1, len(ins))
        if path == "-":
            print("hfilegen spark: - (stdin, %s): Spark's tasks open each input by its path; "
                  "give a file (hfilegen build reads stdin)" % where, file=sys.stderr)
            return 2, None
        if "://" not in path and os.path.exists(path) and not os.path.isfile(path) and \
                not os.path.isdir(path):
            print("hfilegen spark: %s (%s) is a pipe or a device: Spark's tasks open each input "
                  "by its path; give a file (hfilegen build reads pipes)" % (path, where),
                  file=sys.stderr)
            return 2, None
    from hfilegen import spark_typed
    try:
        typed = spark_typed.kind_of(ins, mine.input_format)
    except HfilegenError as e:
        print("hfilegen spark: %s" % e, file=sys.stderr)
        return 2, None
    if typed is None:  # text inputs: files build opens (Spark lists Parquet and ORC ones)
        rc = check_build_args(rest, files=True)
    return (rc, None) if rc else (0, split)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["rekey"]:  # hfilegen rekey on Spark: spark_rekey.py
        from hfilegen import spark_rekey
        return spark_rekey.main(argv[1:])
    p = argparse.ArgumentParser(
        prog="hfilegen spark", add_help=False, allow_abbrev=False,  # --input is build's
        description="hfilegen build on Spark: every other flag is a `hfilegen build` flag")
    p.add_argument("--master", help="Spark master when not under spark-submit, e.g. local[2]")
    p.add_argument("--spark-partitions", type=int, help="write tasks (default: regions)")
    p.add_argument("--split-size", metavar="SIZE",
                   help="read an uncompressed CSV/TSV input of at least twice SIZE (e.g. 256m) "
                        "in byte ranges of about SIZE by several tasks")
    p.add_argument("--input-format", choices=["parquet", "orc", "csv"],
                   help="how Spark reads the inputs (default: by name: .parquet, .orc and "
                        "directories of them through Spark's readers, others as build reads "
                        "them)")
    p.add_argument("--inject-fail-once", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--inject-fail", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--inject-kill-once", type=int, metavar="REGION", help=argparse.SUPPRESS)
    p.add_argument("--help-spark", action="help")
    mine, rest = p.parse_known_args(argv)
    rc, split_size = check_args(mine, rest)  # before Spark starts: its errors are build's
    if rc:
        return rc
    spark = session(mine.master)
    spark.sparkContext.setLogLevel("ERROR")
    try:
        s = run(spark, rest, fail_once_region=mine.inject_fail_once,
                fail_region=mine.inject_fail, partitions=mine.spark_partitions,
                kill_once_region=mine.inject_kill_once, input_format=mine.input_format,
                split_size=split_size)
    except HfilegenError as e:
        print("hfilegen spark: %s" % e, file=sys.stderr)
        return 1
    except Exception as e:  # a failed Spark job: the output holds nothing loadable
        msg = str(e).strip().splitlines()
        print("hfilegen spark: job failed, nothing published: %s" % (msg[0] if msg else e),
              file=sys.stderr)
        return 1
    finally:
        spark.stop()
    print("hfilegen spark: records read %(records_read)d, written %(records_written)d, "
          "rejected %(records_rejected)d, duplicates dropped %(duplicates_dropped)d, "
          "without cells %(records_without_cells)d; null values %(null_values)d; "
          "%(files)d files, %(cells)d cells; "
          "timestamp %(timestamp)d" % s, file=sys.stderr)
    if s.get("blank_lines"):
        print("hfilegen spark: blank lines %d (skipped: not records)" % s["blank_lines"],
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

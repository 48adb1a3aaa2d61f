"""What a driver does around the tasks, whatever runs them (Spark, or one process):
stage the output, gather the tasks' rejects, files and counts, then fail or publish as
`hfilegen build` does (src/build/build.c)."""
import os
import shutil

from hfilegen.core import HfilegenError


def work_dir(out_dir):
    """Where tasks write their region files before publish: a hidden sibling of the output
    directory (completebulkload skips dot-names), so that nothing a task writes is ever
    inside the output, and a retried or killed task's attempt stays out of it."""
    out = os.path.abspath(out_dir.rstrip("/"))
    return os.path.join(os.path.dirname(out), "." + os.path.basename(out) + ".hfilegen-tasks")


def clean_work(wd):
    if os.path.isdir(wd):
        shutil.rmtree(wd, ignore_errors=True)


def check_rejects(job, reads, read, rejected, what="records"):
    """Writes the tasks' rejects (reads: sorted (index, rejects bytes, counters)), then
    fails as build does: more than --max-rejects, or every record rejected."""
    rejects_path = job.rejects_path
    if rejected:
        with open(job.work_path(rejects_path), "wb") as f:
            for r in reads:
                f.write(r[1])
    if rejected > job.max_rejects:
        raise HfilegenError("%d %s rejected > --max-rejects %d (see %s)"
                            % (rejected, what, job.max_rejects, rejects_path))
    if read == 1 and rejected == 1:
        raise HfilegenError("the one record read was rejected (see %s): nothing to publish"
                            % rejects_path)
    if read > 0 and rejected == read:
        raise HfilegenError("all %d records were rejected (see %s): nothing to publish"
                            % (read, rejects_path))


def gather_emits(emits):
    """The write tasks' (files, counts) as one file list and counts by region."""
    files, counts = [], {}
    for fl, c in emits:
        files.extend(fl)
        counts[c["region"]] = c
    return files, counts


def finish(job, reads, emits):
    """reads: per input file (file index, rejects bytes, stats); emits: per region
    (files, counts). Writes the rejects file, applies --max-rejects and the all-rejected
    rule, publishes. Returns the summary; raises HfilegenError (the caller aborts)."""
    reads = sorted(reads, key=lambda r: r[0])  # input order (file << 40 | first record)
    read = sum(r[2]["records_read"] for r in reads)
    rejected = sum(r[2]["records_rejected"] for r in reads)
    check_rejects(job, reads, read, rejected)
    files, counts = gather_emits(emits)
    s = job.publish(files, counts, read, rejected,
                    sum(r[2].get("null_values", 0) for r in reads),
                    sum(r[2].get("blank_lines", 0) for r in reads))
    s["timestamp"] = job.timestamp
    s["input_bytes"] = sum(r[2]["input_bytes"] for r in reads)
    s["long_keys"] = sum(r[2]["long_keys"] for r in reads)
    return s


def remove_rejects_if_none(job, rejected):
    if not rejected:
        p = job.work_path(job.rejects_path)
        if os.path.exists(p):
            os.unlink(p)


def run_parts_local(job, nparts, read_part, finish_job):
    """A job in this process through the bindings: every part read in order
    (read_part(i) -> (table, rejects, stats)), every region emitted, then
    finish_job(job, reads, emits), whose summary it returns; on any failure the
    job is aborted (nothing loadable is left) and the error raised."""
    import pyarrow as pa
    import pyarrow.compute as pc
    wd = work_dir(job.out_dir)
    clean_work(wd)
    job.begin()
    try:
        reads, tables = [], []
        for i in range(nparts):
            t, rej, st = read_part(i)
            reads.append((i, rej, st))
            tables.append(t)
        keyed = pa.concat_tables(tables)
        emits = []
        for r in range(job.regions):
            part = keyed.filter(pc.equal(keyed["region"], r))
            d = os.path.join(wd, "r%d" % r)
            os.makedirs(d, exist_ok=True)
            files, c = job.emit(r, d, part)
            c["region"] = r
            emits.append((files, c))
        return finish_job(job, reads, emits)
    except BaseException:
        job.abort()
        raise
    finally:
        clean_work(wd)
        job.close()


def run_local(args, timestamp=None):
    """The whole job in this process through the bindings (for notebooks and tests)."""
    from hfilegen.core import Job
    job = Job(args, timestamp)
    return run_parts_local(job, len(job.inputs), job.read_file, finish)

"""Parquet and ORC inputs of hfilegen.spark, read by Spark's own readers (spark.read.parquet
/ orc, split as Spark splits them) and keyed in the tasks through libhfilegen.

Which inputs: every input ending in .parquet or .orc (any case), or a directory (its files,
as Spark lists them: hidden and '_' names skipped, partition directories included), or any
input with --input-format parquet|orc. A job's inputs are all of one kind; text inputs (CSV,
TSV) go through hfilegen's own reader (hfilegen.spark) and cannot be mixed with these.

Columns: the file's, by name (--columns picks some of them, in that order; a header or
--no-header means nothing here); every type becomes text by the rules of hfilegen.typed.

Input order (which record wins with --on-duplicate, and the order of the rejects file):
input files in the job's order, a directory's files sorted by path, then the row number in
the file: Parquet's own (Spark's _metadata.row_index); ORC has none in Spark 3.5, so a first,
cheap pass counts the rows of every split (file, block start) and each row's number is its
split's base plus its place in the split (a split is read by one task, in file order).

Rejects: the rejects file as build writes it; its second column is the row number in the
file counted from 1 (there are no lines), the raw record the row's fields as text joined by
the delimiter (a NULL as nothing).
"""
import json
import os
import urllib.parse

import numpy as np

from hfilegen.core import HfilegenError, Job, job_inputs

KINDS = ("parquet", "orc")
FILE_COL, ROW_COL, BLK_COL = "__hfg_file", "__hfg_row", "__hfg_blk"


def kind_of(inputs, input_format=None):
    """None for text inputs; 'parquet' or 'orc' when the job's inputs are such files."""
    if input_format:
        f = input_format.lower()
        if f in ("csv", "tsv", "text"):
            return None
        if f not in KINDS:
            raise HfilegenError("--input-format %s: expected parquet, orc or csv" % input_format)
        return f
    kinds = []
    for p in inputs:
        low = p.lower().rstrip("/")
        k = next((x for x in KINDS if low.endswith("." + x)), None)
        if k is None and _is_local(p) and os.path.isdir(_local(p)):
            for _root, _dirs, names in os.walk(_local(p)):  # partition directories too
                low = [n.lower() for n in names if not n.startswith(("_", "."))]
                k = next((x for x in KINDS if any(n.endswith("." + x) for n in low)), None)
                if k:
                    break
            if k is None:
                raise HfilegenError("input %s: a directory without .parquet or .orc files "
                                    "(give --input-format)" % p)
        kinds.append(k)
    if all(k is None for k in kinds):
        return None
    if len(set(kinds)) > 1:
        raise HfilegenError("inputs of one job must be of one kind (%s): %s"
                            % (", ".join(sorted(str(k or "text") for k in set(kinds))),
                               ", ".join(inputs)))
    return kinds[0]


def _is_local(p):
    return "://" not in p and not p.startswith("file:")


def _local(p):
    return p[5:] if p.startswith("file:") else p


def norm_uri(u):
    """Spark's file URIs in one spelling (inputFiles() says file:///x, _metadata file:/x)."""
    u = urllib.parse.unquote(u)
    if u.startswith("file://"):
        u = "file:" + u[7:]
    while u.startswith("file://"):
        u = "file:" + u[6:]
    return u


def plan(spark, args, input_format=None):
    """Lists the files and columns of a typed job: (kind, reader paths, file URIs in input
    order, display names, columns, DataFrame). None for a text job."""
    info = job_inputs(args)
    kind = kind_of(info["inputs"], input_format)
    if kind is None:
        return None
    if info["format"] > 2:  # HFG_BUILD_MYSQL and after
        raise HfilegenError("the dump formats (--format mysql, pg-text, pg-csv) are text; "
                            "%s inputs are read by Spark" % kind)
    if info["null_string"] is not None:
        raise HfilegenError("--null-string is for text inputs: %s files carry their NULLs "
                            "(a NULL makes no cell)" % kind)
    paths = [os.path.abspath(p) if _is_local(p) else p for p in info["inputs"]]
    reader = spark.read.format(kind)
    uris, shown = [], []
    for given, p in zip(info["inputs"], paths):
        listed = sorted(reader.load(p).inputFiles(), key=norm_uri)
        for u in listed:
            n = norm_uri(u)
            if n in uris:  # Spark would read it twice: every row a duplicate of itself
                raise HfilegenError("input file %s is named twice in the job's inputs" % n)
            uris.append(n)
            if _is_local(given) and n.startswith("file:"):
                rel = os.path.relpath(n[5:], p)
                shown.append(given if rel == "." else os.path.join(given, rel))
            else:
                shown.append(n)
    if not uris:
        raise HfilegenError("no %s files in %s" % (kind, ", ".join(info["inputs"])))
    df = reader.load(paths)
    cols = info["columns"] or [f.name for f in df.schema.fields]
    if len(set(cols)) != len(cols):
        raise HfilegenError("column names repeat: %s" % ", ".join(cols))
    return kind, paths, uris, shown, cols, df


def orc_bases(df, uris):
    """ORC: the first row number of every split (file index, block start)."""
    idx = {u: i for i, u in enumerate(uris)}
    counts = df.selectExpr("_metadata.file_path AS f", "_metadata.file_block_start AS b") \
        .groupBy("f", "b").count().collect()
    per = {}
    for r in counts:
        fi = idx.get(norm_uri(r["f"]))
        if fi is None:
            raise HfilegenError("Spark read %s, which the job did not list" % r["f"])
        per.setdefault(fi, []).append((r["b"], r["count"]))
    bases = {}
    for fi, blocks in per.items():
        at = 0
        for b, c in sorted(blocks):
            bases[(fi, b)] = at
            at += c
    return bases


def key_fn(args, ts, cwd, source, kind, uris, bases, worker_job):
    """The mapInArrow function: typed rows in, keyed rows and META rows out (hfilegen.spark's
    KEYED schema); one META row per run of consecutive rows of one file."""
    def fn(it):
        import pyarrow as pa
        from hfilegen.core import KEYED_SCHEMA
        from hfilegen.typed import text_column
        job = worker_job(args, ts, cwd, source)
        cols = source[1]
        idx = {u: i for i, u in enumerate(uris)}
        seen = {}  # ORC: rows of each split so far in this task
        for b in it:
            if b.num_rows == 0:
                continue
            names = b.schema.names
            fcol = b.column(names.index(FILE_COL))
            denc = fcol.dictionary_encode()
            fidx = np.array([idx.get(norm_uri(u), -1) for u in denc.dictionary.to_pylist()])
            if (fidx < 0).any():
                raise HfilegenError("Spark read a file the job did not list: %s"
                                    % denc.dictionary.to_pylist())
            files = fidx[denc.indices.to_numpy(zero_copy_only=False)]
            if kind == "parquet":
                rows = b.column(names.index(ROW_COL)).to_numpy(zero_copy_only=False)
                cut = (np.diff(files) != 0) | (np.diff(rows) != 1)
            else:
                blk = b.column(names.index(BLK_COL)).to_numpy(zero_copy_only=False)
                cut = (np.diff(files) != 0) | (np.diff(blk) != 0)
            starts = [0] + list(np.flatnonzero(cut) + 1) + [b.num_rows]
            text = [text_column(b.column(names.index(c)), c) for c in cols]
            for s, e in zip(starts[:-1], starts[1:]):
                fi = int(files[s])
                if kind == "parquet":
                    first = int(rows[s])
                else:
                    k = (fi, int(blk[s]))
                    if k not in bases:
                        raise HfilegenError("ORC split %s at %d was not counted"
                                            % (uris[fi], k[1]))
                    first = bases[k] + seen.get(k, 0)
                    seen[k] = seen.get(k, 0) + (e - s)
                part = pa.RecordBatch.from_arrays([t.slice(s, e - s) for t in text], names=cols)
                keyed, rej, st = job.key(part, file=fi, first_seq=first, nulls=True)
                for rb in keyed.to_batches(max_chunksize=65536):
                    yield rb
                meta = pa.table([pa.array([-1], pa.int32()), pa.array([rej], pa.binary()),
                                 pa.array([fi << 40 | first], pa.int64()),
                                 pa.array([json.dumps(st).encode()], pa.binary())],
                                schema=KEYED_SCHEMA)
                yield meta.to_batches()[0]
    return fn


def keyed(spark, args, ts, cwd, input_format, worker_job):
    """Stage 1 of a typed job: (the driver's Job, the keyed DataFrame, the source the
    workers open the job with) or None (a text job)."""
    p = plan(spark, args, input_format)
    if p is None:
        return None
    kind, paths, uris, shown, cols, df = p
    from hfilegen.typed import spark_select
    source = (tuple(shown), tuple(cols))
    job = Job(args, ts, source=source)
    try:
        if list(job.columns) != list(cols):
            raise HfilegenError("the job's columns are not the file's")
        sel = spark_select(df.schema, cols) + ["_metadata.file_path AS `%s`" % FILE_COL]
        sel.append("_metadata.row_index AS `%s`" % ROW_COL if kind == "parquet"
                   else "_metadata.file_block_start AS `%s`" % BLK_COL)
        bases = orc_bases(df, uris) if kind == "orc" else {}
        schema = "region int, key binary, ord long, payload binary"
        kdf = df.selectExpr(*sel).mapInArrow(
            key_fn(job.args, job.timestamp, cwd, source, kind, uris, bases, worker_job), schema)
    except BaseException:
        job.close()
        raise
    return job, kdf, source

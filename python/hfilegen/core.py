"""The hfilegen job as Python objects over libhfilegen.so (include/hfilegen/batch.h).

Nothing of the logic is here: options are parsed by the CLI's own parser (the same job file
and flags as `hfilegen build`), keys, payloads, rejects, HFiles and the manifest come from C.
"""
import ctypes as C
import json
import os

import pyarrow as pa

from hfilegen import _lib
from hfilegen._lib import lib

KEYED_SCHEMA = pa.schema([("region", pa.int32()), ("key", pa.binary()),
                          ("ord", pa.int64()), ("payload", pa.binary())])


class HfilegenError(RuntimeError):
    """code: the library's status code when one is known (-3, HFG_EINVAL: a usage error)."""

    def __init__(self, msg, code=None):
        super().__init__(msg)
        self.code = code


def _cbuf(addr, size):
    return C.string_at(addr, size) if size else b""


def compare_rows(a: bytes, b: bytes) -> int:
    """HBase's order of two rows: -1, 0 or 1 (unsigned bytes, a prefix first)."""
    return lib.hfg_batch_compare_rows(a, len(a), b, len(b))


def _parse(args):
    argv = (C.c_char_p * (len(args) + 1))(b"build", *[a.encode() for a in args])
    a = lib.hfg_build_args_parse(len(args) + 1, argv)
    if not a:
        raise HfilegenError("hfilegen build: bad flags or job file (see stderr): %s"
                            % " ".join(args))
    return a, argv  # argv outlives a (the options copy their strings; kept to be safe)


def job_inputs(args):
    """What the flags and job file say, without opening anything: {inputs, columns,
    format (0 csv, 1 tsv, 2 by name, 3.. dumps), null_string, out}."""
    a, _argv = _parse(list(args))
    try:
        ns = lib.hfg_build_args_null_string(a)
        out = lib.hfg_build_args_out(a)
        return {"inputs": [lib.hfg_build_args_input(a, i).decode()
                           for i in range(lib.hfg_build_args_ninputs(a))],
                "columns": [lib.hfg_build_args_column(a, i).decode()
                            for i in range(lib.hfg_build_args_ncolumns(a))],
                "format": lib.hfg_build_args_format(a),
                "null_string": ns.decode() if ns else None,
                "out": out.decode() if out else None}
    finally:
        lib.hfg_build_args_free(a)


def check_args(args, files=True):
    """What `hfilegen build ARGS` checks before it reads anything, with its messages on
    stderr (the flags, the ones it needs, the rowkey; with files, that every input file can
    be opened): 0, or the exit code build gives (2: a usage error, 1: an input that cannot
    be opened). files=False for inputs that are not files to open (Parquet, ORC)."""
    args = list(args)
    try:
        a, _argv = _parse(args)
    except HfilegenError:
        return 2  # the parser said why
    try:
        job = None  # the last --job FILE or --job=FILE, as the C parser takes it
        for i, w in enumerate(args):
            if w == "--job" and i + 1 < len(args):
                job = args[i + 1]
            elif w.startswith("--job="):
                job = w[len("--job="):]
            elif w == "--":
                break
        return lib.hfg_build_args_check(a, job.encode() if job else None, 1 if files else 0)
    finally:
        lib.hfg_build_args_free(a)


def parse_size(s):
    """A size as `hfilegen build` reads one (--memory, --max-file-size): digits, an optional
    fraction, k/m/g/t and an optional b (256m, 1.5g, 64kb), nothing else; None if not one."""
    n = C.c_uint64()
    return None if lib.hfg_parse_size(s.encode(), C.byref(n)) else n.value


class Job:
    """A job as `hfilegen build ARGS` would run it. args: the CLI's flags and inputs, e.g.
    ["--job", "job.yaml", "--codec", "gz"]. timestamp: the job timestamp (None: as build
    picks it: --job-timestamp, --timestamp MILLIS, else now)."""

    def __init__(self, args, timestamp=None, source=None):
        """source: (inputs, columns) that replace the job's inputs and column names (no
        header read): inputs that Spark reads (Parquet, ORC), keyed with key(nulls=True)."""
        self.args = list(args)
        self._a, self._argv = _parse(self.args)
        if source is not None:
            ins, cols = source
            ia = (C.c_char_p * len(ins))(*[s.encode() for s in ins])
            ca = (C.c_char_p * max(len(cols), 1))(*[s.encode() for s in cols])
            if lib.hfg_build_args_set_source(self._a, len(ins), ia, len(cols), ca):
                lib.hfg_build_args_free(self._a)
                self._a = None
                raise MemoryError("hfilegen: out of memory")
        if not lib.hfg_build_args_ninputs(self._a) or not lib.hfg_build_args_out(self._a):
            lib.hfg_build_args_free(self._a)
            self._a = None
            raise HfilegenError("hfilegen build: needs --rowkey, --out and at least one input")
        b = C.c_void_p()
        err = C.create_string_buffer(1024)
        rc = lib.hfg_batch_open(lib.hfg_build_args_options(self._a),
                                -1 if timestamp is None else int(timestamp), C.byref(b), err,
                                len(err))
        if rc:
            lib.hfg_build_args_free(self._a)
            self._a = None
            raise HfilegenError(err.value.decode(errors="replace"))
        self._b = b

    def close(self):
        if getattr(self, "_b", None):
            lib.hfg_batch_free(self._b)
            self._b = None
        if getattr(self, "_a", None):
            lib.hfg_build_args_free(self._a)
            self._a = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _err(self, rc, what):
        msg = lib.hfg_batch_errmsg(self._b).decode(errors="replace")
        raise HfilegenError("%s: %s" % (what, msg or lib.hfg_strerror(rc).decode()), rc)

    # ---- what the job is ----
    @property
    def timestamp(self):
        return lib.hfg_batch_timestamp(self._b)

    @property
    def regions(self):
        return lib.hfg_batch_regions(self._b)

    @property
    def inputs(self):
        return [lib.hfg_build_args_input(self._a, i).decode()
                for i in range(lib.hfg_build_args_ninputs(self._a))]

    @property
    def out_dir(self):
        return lib.hfg_build_args_out(self._a).decode()

    @property
    def rejects_path(self):
        r = lib.hfg_build_args_rejects(self._a)
        return r.decode() if r else os.path.join(self.out_dir, "_rejects.tsv")

    @property
    def max_rejects(self):
        return lib.hfg_build_args_max_rejects(self._a)

    @property
    def columns(self):
        names = C.POINTER(C.c_char_p)()
        n = lib.hfg_batch_columns(self._b, C.byref(names))
        return [names[i].decode() for i in range(n)]

    def family(self, i):
        return lib.hfg_batch_family(self._b, i).decode()

    # ---- keying ----
    def _keyed(self, out):
        o = out.contents
        n = o.n
        stats = {"records_read": o.records_read, "records_rejected": o.records_rejected,
                 "long_keys": o.long_keys, "input_bytes": o.input_bytes,
                 "null_values": o.null_values, "blank_lines": o.blank_lines}
        rejects = _cbuf(o.rejects, o.rejects_len)
        if n == 0:
            return KEYED_SCHEMA.empty_table(), rejects, stats
        ko = (C.c_int64 * (n + 1)).from_address(C.addressof(o.key_off.contents))
        po = (C.c_int64 * (n + 1)).from_address(C.addressof(o.pl_off.contents))
        keys = pa.Array.from_buffers(pa.large_binary(), n, [
            None, pa.py_buffer(bytes(ko)), pa.py_buffer(_cbuf(C.addressof(o.key_data.contents),
                                                             ko[n]))])
        pls = pa.Array.from_buffers(pa.large_binary(), n, [
            None, pa.py_buffer(bytes(po)), pa.py_buffer(_cbuf(C.addressof(o.pl_data.contents),
                                                             po[n]))])
        region = pa.Array.from_buffers(pa.int32(), n, [
            None, pa.py_buffer(_cbuf(C.addressof(o.region.contents), 4 * n))])
        order = pa.Array.from_buffers(pa.int64(), n, [
            None, pa.py_buffer(_cbuf(C.addressof(o.order.contents), 8 * n))])
        t = pa.table([region, keys.cast(pa.binary()), order, pls.cast(pa.binary())],
                     schema=KEYED_SCHEMA)
        return t, rejects, stats

    def read_file(self, i):
        """Reads input i with the C record reader and keys every record: (table of region,
        key, ord, payload; the rejects file's lines for it; counters)."""
        out = C.POINTER(_lib.BatchOut)()
        rc = lib.hfg_batch_read_file(self._b, i, C.byref(out))
        if rc:
            self._err(rc, "read %s" % self.inputs[i])
        return self._keyed(out)

    def scan_file(self, i, split):
        """Cuts input i (one uncompressed CSV/TSV file) into byte ranges of about `split`
        bytes at record starts, reading it once: [(start offset, first line, first record
        number)], the first (0, 1, 0)."""
        n = C.c_size_t()
        st = _lib.u64p()
        rc = lib.hfg_batch_scan_file(self._b, i, int(split), C.byref(n), C.byref(st))
        if rc:
            self._err(rc, "scan %s" % self.inputs[i])
        return [(st[3 * k], st[3 * k + 1], st[3 * k + 2]) for k in range(n.value)]

    def read_range(self, i, start, end, line, seq):
        """read_file for one range scan_file gave (end 0: to the file's end)."""
        out = C.POINTER(_lib.BatchOut)()
        rc = lib.hfg_batch_read_range(self._b, i, start, end, line, seq, C.byref(out))
        if rc:
            self._err(rc, "read %s from byte %d" % (self.inputs[i], start))
        return self._keyed(out)

    def key(self, batch, file=0, first_seq=0, lines=None, nulls=False):
        """Keys a pyarrow RecordBatch or Table holding the job's columns (by name; any type,
        cast to text; null as empty, or with nulls=True a NULL: no cell, and a rejected
        record in a rowkey column): (keyed table, rejects lines, counters). lines: the
        record numbers the rejects file names (default first_seq + i + 1)."""
        if isinstance(batch, pa.Table):
            batch = batch.combine_chunks().to_batches()[0] if batch.num_rows else None
            if batch is None:
                return KEYED_SCHEMA.empty_table(), b"", {"records_read": 0,
                                                         "records_rejected": 0,
                                                         "long_keys": 0, "input_bytes": 0,
                                                         "null_values": 0,
                                                         "blank_lines": 0}
        cols = self.columns
        n = batch.num_rows
        arrs = []
        for c in cols:
            a = batch.column(batch.schema.get_field_index(c)) if c in batch.schema.names \
                else None
            if a is None:
                raise HfilegenError("batch has no column '%s' (the job's: %s)"
                                    % (c, ", ".join(cols)))
            if a.type not in (pa.string(), pa.binary()):  # binary: its bytes, as they are
                a = a.cast(pa.string())
            if a.null_count and not nulls:
                a = a.fill_null("")
            a = pa.concat_arrays([a]) if a.offset else a
            arrs.append(a)
        offs = (C.POINTER(C.c_int32) * len(cols))()
        datas = (_lib.u8p * len(cols))()
        valid = (_lib.u8p * len(cols))()
        empty = (C.c_uint8 * 1)()
        for k, a in enumerate(arrs):
            bufs = a.buffers()
            offs[k] = C.cast(C.c_void_p(bufs[1].address), C.POINTER(C.c_int32))
            datas[k] = C.cast(C.c_void_p(bufs[2].address), _lib.u8p) \
                if bufs[2] is not None and bufs[2].size else C.cast(empty, _lib.u8p)
            if nulls and a.null_count and bufs[0] is not None:
                valid[k] = C.cast(C.c_void_p(bufs[0].address), _lib.u8p)
        ln = None
        if lines is not None:
            ln = (C.c_uint64 * n)(*lines)
        out = C.POINTER(_lib.BatchOut)()
        rc = lib.hfg_batch_key_nulls(self._b, n, len(cols), offs, datas,
                                     valid if nulls else None, ln, file, first_seq,
                                     C.byref(out))
        if rc:
            self._err(rc, "key")
        return self._keyed(out)

    # ---- one region's files ----
    def emit(self, region, dir, keyed):
        """Writes region's HFiles from its keyed records (a table as key/read_file give,
        any order) under dir/<family>/_<name>: (files as dicts, counts)."""
        t = keyed.combine_chunks() if keyed.num_rows else keyed
        n = t.num_rows
        if n:
            keys = t.column("key").chunk(0).cast(pa.large_binary())
            pls = t.column("payload").chunk(0).cast(pa.large_binary())
            order = t.column("ord").chunk(0)
            keys = pa.concat_arrays([keys])
            pls = pa.concat_arrays([pls])
            order = pa.concat_arrays([order])

            def ptr(buf, typ):
                return C.cast(C.c_void_p(buf.address if buf is not None and buf.size else 0),
                              typ)
            kb, pb, ob = keys.buffers(), pls.buffers(), order.buffers()
            args = (ptr(kb[1], _lib.i64p), ptr(kb[2], _lib.u8p), ptr(ob[1], _lib.u64p),
                    ptr(pb[1], _lib.i64p), ptr(pb[2], _lib.u8p))
        else:
            args = (None, None, None, None, None)
        rc = lib.hfg_batch_emit(self._b, region, dir.encode(), n, *args)
        if rc:
            self._err(rc, "region %d" % region)
        files = []
        f = _lib.BatchFile()
        for i in range(lib.hfg_batch_nfiles(self._b)):
            lib.hfg_batch_get_file(self._b, i, C.byref(f))
            files.append({"region": f.region, "family": f.family, "seq": f.seq,
                          "name": f.name.decode(), "path": f.path.decode(),
                          "first_row": _cbuf(C.addressof(f.first_row.contents), f.first_len)
                          if f.first_len else b"",
                          "last_row": _cbuf(C.addressof(f.last_row.contents), f.last_len)
                          if f.last_len else b"",
                          "cells": f.cells, "bytes": f.bytes})
        c = (C.c_uint64 * 6)()
        lib.hfg_batch_region_counts(self._b, region, c)
        counts = dict(zip(["rows", "cells", "files", "duplicates_dropped",
                           "records_without_cells", "marker_rows"], list(c)))
        return files, counts

    # ---- the driver ----
    def begin(self):
        """Checks, locks and stages the output directory as build does: where the job
        writes until publish."""
        d = C.c_char_p()
        rc = lib.hfg_batch_begin(self._b, C.byref(d))
        if rc:
            self._err(rc, "output")
        return d.value.decode()

    def work_path(self, path):
        buf = C.create_string_buffer(4200)
        lib.hfg_batch_work_path(self._b, path.encode(), buf, len(buf))
        return buf.value.decode()

    def publish(self, files, counts, records_read, records_rejected, null_values=0,
                blank_lines=0, without_cells=0):
        """files: what emit returned, from every region; counts: region -> emit's counts;
        null_values: the NULL fields the tasks' key calls counted; blank_lines: the blank
        lines their reads skipped; without_cells: records the read tasks counted without
        cells (rekey's old rows with no visible cell), besides emit's."""
        for d in files:
            f = _lib.BatchFile(d["region"], d["family"], d["seq"], d["name"].encode(),
                               d["path"].encode(), C.cast(C.c_char_p(d["first_row"]), _lib.u8p),
                               C.cast(C.c_char_p(d["last_row"]), _lib.u8p),
                               len(d["first_row"]), len(d["last_row"]), d["cells"], d["bytes"])
            rc = lib.hfg_batch_add_file(self._b, C.byref(f))
            if rc:
                self._err(rc, "publish")
        nr = self.regions
        rows = (C.c_uint64 * nr)()
        cells = (C.c_uint64 * nr)()
        nfiles = (C.c_uint64 * nr)()
        dups = markers = 0
        without = without_cells
        for r, c in counts.items():
            rows[r], cells[r], nfiles[r] = c["rows"], c["cells"], c["files"]
            dups += c["duplicates_dropped"]
            without += c["records_without_cells"]
            markers += c["marker_rows"]
        lib.hfg_batch_set_counts(self._b, records_read, records_rejected, rows, cells, nfiles,
                                 dups, without, markers)
        lib.hfg_batch_set_nulls(self._b, null_values)
        lib.hfg_batch_set_blank_lines(self._b, blank_lines)
        rc = lib.hfg_batch_publish(self._b)
        if rc:
            self._err(rc, "publish")
        return {"records_read": records_read, "records_written": sum(rows),
                "records_rejected": records_rejected, "duplicates_dropped": dups,
                "records_without_cells": without, "marker_rows": markers,
                "files": len(files), "cells": sum(cells), "null_values": null_values,
                "blank_lines": blank_lines}

    def abort(self):
        lib.hfg_batch_abort(self._b)


def manifest(out_dir):
    with open(os.path.join(out_dir, "manifest.json")) as f:
        return json.load(f)

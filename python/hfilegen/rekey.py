"""`hfilegen rekey` as Python objects over libhfilegen.so (include/hfilegen/rekey.h:
hfg_rekey_batch): an old table's snapshot (or family folders of HFiles) re-keyed one old
region at a time, then emitted and published by the build job's pieces (core.Job). The
logic is C's: the rows are rekey's row iterator, the payloads its typed cells, the HFiles,
rejects and manifest.json (with its "rekey" member) those `hfilegen rekey` writes.
"""
import ctypes as C

from hfilegen import _lib
from hfilegen._lib import lib
from hfilegen.core import HfilegenError, Job, _parse

EINVAL = -3  # HFG_EINVAL: options, patterns or a re-keying refused (rekey exits 2)

# rekey's own flags; the build flags it refuses (cmd_rekey.c's list), with its message
NOT_REKEY = ("--map", "--columns", "--input", "--job", "--on-duplicate", "--timestamp")
# the flags that choose an HFile setting for every family, over the snapshot's schema
GIVEN = {"--codec": 1, "--bloom": 2, "--block-size": 4, "--encoding": 8}


def _given(args):
    m = 0
    for w in args:
        if w == "--":
            break
        for flag, bit in GIVEN.items():
            if w == flag or w.startswith(flag + "="):
                m |= bit
    return m


def refused_flag(args):
    """The first build flag rekey refuses, or None."""
    for w in args:
        if w == "--":
            break
        for flag in NOT_REKEY:
            if w == flag or w.startswith(flag + "="):
                return flag
    return None


class RekeyJob(Job):
    """A job as `hfilegen rekey` would run it. args: the build flags rekey takes (--rowkey,
    --splits, --out, --codec, --family-option, --max-rejects, --job-timestamp, ...);
    rekey: {from_dir, snapshot (or None), old_key, raw, as_of (ms, or None: now)};
    timestamp: the job timestamp (None: --job-timestamp, else now)."""

    def __init__(self, args, rekey, timestamp=None):
        self.args = list(args)
        self.rekey = dict(rekey)
        self._k = self._ro = self._b = None
        self._a, self._argv = _parse(self.args)
        if lib.hfg_build_args_ninputs(self._a):
            self.close()
            raise HfilegenError("'%s': rekey reads --from DIR, not inputs"
                                % " ".join(self.args), EINVAL)
        ro = lib.hfg_rekey_options_new(lib.hfg_build_args_options(self._a))
        if not ro:
            self.close()
            raise MemoryError("hfilegen: out of memory")
        self._ro = ro
        head = _lib.RekeyHead.from_address(ro)
        self._keep = [None if v is None else str(v).encode()
                      for v in (rekey["from_dir"], rekey.get("snapshot"), rekey["old_key"])]
        head.from_dir, head.snapshot, head.old_key = self._keep
        head.raw = 1 if rekey.get("raw") else 0
        head.as_of = -1 if rekey.get("as_of") is None else int(rekey["as_of"])
        head.hfile_given = _given(self.args)
        k = C.c_void_p()
        err = C.create_string_buffer(1024)
        rc = lib.hfg_rekey_batch_open(ro, -1 if timestamp is None else int(timestamp),
                                      C.byref(k), err, len(err))
        if rc:
            self.close()
            raise HfilegenError(err.value.decode(errors="replace"), rc)
        self._k = k
        self._b = C.c_void_p(lib.hfg_rekey_batch_batch(k))

    def close(self):
        self._b = None  # the rekey batch's
        if getattr(self, "_k", None):
            lib.hfg_rekey_batch_free(self._k)
            self._k = None
        if getattr(self, "_ro", None):
            lib.hfg_rekey_options_free(self._ro)
            self._ro = None
        if getattr(self, "_a", None):
            lib.hfg_build_args_free(self._a)
            self._a = None

    @property
    def as_of(self):
        """The scan's "now" (ms): the given --as-of, or the time the job opened."""
        return lib.hfg_rekey_batch_as_of(self._k)

    @property
    def warning(self):
        return lib.hfg_rekey_batch_warning(self._k).decode(errors="replace")

    @property
    def old_regions(self):
        return lib.hfg_rekey_batch_nregions(self._k)

    def old_region_name(self, i):
        return lib.hfg_rekey_batch_region_name(self._k, i).decode(errors="replace")

    def read_region(self, i):
        """Old region i's rows, re-keyed: (keyed table of region, key, ord, payload; the
        rejects file's lines for it; counters: rekey's (_lib.REKEY_COUNTS) and the
        build reads' names)."""
        out = C.POINTER(_lib.BatchOut)()
        c = _lib.RekeyCounts()
        rc = lib.hfg_rekey_batch_read_region(self._k, i, C.byref(out), C.byref(c))
        if rc:
            self._err(rc, "old region %s" % (self.old_region_name(i) or i))
        t, rej, st = self._keyed(out)
        st.update({n: getattr(c, n) for n in _lib.REKEY_COUNTS})
        return t, rej, st

    def set_rekey_counts(self, sums):
        """The tasks' summed counts (REKEY_COUNTS names), for manifest.json's "rekey"."""
        c = _lib.RekeyCounts(*[int(sums.get(n, 0)) for n in _lib.REKEY_COUNTS])
        lib.hfg_rekey_batch_set_counts(self._k, C.byref(c))


def finish(job, reads, emits):
    """reads: per old region (region index, rejects bytes, counters); emits: per new region
    (files, counts). The rejects file, --max-rejects and the all-rejected rule on the
    sums, rekey's counts, publish. Returns the summary; raises HfilegenError."""
    reads = sorted(reads, key=lambda r: r[0])  # old regions in start-key order
    sums = {n: sum(r[2].get(n, 0) for r in reads) for n in _lib.REKEY_COUNTS}
    read, rejected = sums["rows_read"], sums["rows_rejected"]
    from hfilegen import driver as drv
    drv.check_rejects(job, reads, read, rejected, "old rows")
    files, counts = drv.gather_emits(emits)
    job.set_rekey_counts(sums)
    s = job.publish(files, counts, read, rejected, without_cells=sums["rows_without_cells"])
    s.update(sums)
    s["timestamp"] = job.timestamp
    s["as_of"] = job.as_of
    return s


def run_local(rekey, args, timestamp=None):
    """The whole re-keying in this process through the bindings, old region by old region
    (for notebooks and tests): what hfilegen.spark rekey runs in tasks. Returns the
    summary; raises HfilegenError with nothing loadable left in the output."""
    from hfilegen import driver as drv
    job = RekeyJob(args, rekey, timestamp)
    return drv.run_parts_local(job, job.old_regions, job.read_region, finish)

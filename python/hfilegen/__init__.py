"""hfilegen: Python bindings (ctypes) over libhfilegen.so, and a Spark job (hfilegen.spark).

    import hfilegen
    job = hfilegen.Job(["--job", "samples/jobs/orders_salt10.yaml"], timestamp=1700000000000)
    keyed, rejects, stats = job.read_file(0)          # or job.key(pyarrow_batch)
"""
from hfilegen.core import Job, HfilegenError, compare_rows, manifest, KEYED_SCHEMA  # noqa: F401

__all__ = ["Job", "HfilegenError", "compare_rows", "manifest", "KEYED_SCHEMA"]

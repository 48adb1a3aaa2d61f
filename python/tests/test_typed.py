"""hfilegen.typed: the text forms of typed (Parquet/ORC) columns, and NULLs through the batch
API (hfg_batch_key_nulls): no cell, counted; a NULL rowkey field rejects."""
import datetime
import decimal
import os

import pyarrow as pa

import hfilegen
from hfilegen.typed import text_column

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_text_forms():
    D = decimal.Decimal
    assert text_column(pa.array([D("12.50"), D("0.00000001"), D("-1.0E-7"), None],
                                pa.decimal128(20, 8))).to_pylist() == \
        ["12.50000000", "0.00000001", "-0.00000010", None]
    assert text_column(pa.array([-1500, -1000, 1, 1999, None], pa.timestamp("us"))) \
        .to_pylist() == ["-2", "-1", "0", "1", None]
    assert text_column(pa.array([5, -1], pa.timestamp("s", tz="UTC"))).to_pylist() == \
        ["5000", "-1000"]
    assert text_column(pa.array([1700000000123456789], pa.timestamp("ns"))).to_pylist() == \
        ["1700000000123"]
    assert text_column(pa.array([datetime.date(2024, 1, 31)])).to_pylist() == ["2024-01-31"]
    assert text_column(pa.array([True, False])).to_pylist() == ["true", "false"]
    assert text_column(pa.array([-7, 42], pa.int8())).to_pylist() == ["-7", "42"]
    b = pa.array([b"\xff\x00"], pa.binary())
    assert text_column(b) is b


def test_nulls_no_cell_and_rejected_key(tmp_path):
    job = hfilegen.Job(["--rowkey", "{id}", "--out", str(tmp_path / "o"), "x.parquet"],
                       timestamp=1700000000000, source=(["x.parquet"], ["id", "v", "w"]))
    batch = pa.RecordBatch.from_pydict({"id": pa.array(["1", None, "3"]),
                                        "v": pa.array([None, "b", ""]),
                                        "w": pa.array([b"\xff", b"z", None], pa.binary())})
    keyed, rejects, st = job.key(batch, first_seq=10, nulls=True)
    assert keyed.column("key").to_pylist() == [b"1", b"3"]
    assert st["records_read"] == 3 and st["records_rejected"] == 1
    assert st["null_values"] == 2  # v of row 1, w of row 3 (row 2 is rejected)
    assert rejects == b"x.parquet\t12\tkey column 'id' is NULL\t,b,z\n"
    # without nulls=True a NULL is an empty field, as before
    keyed, rejects, st = job.key(batch)
    assert st["null_values"] == 0 and st["records_rejected"] == 1  # the empty id

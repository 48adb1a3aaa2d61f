#!/usr/bin/env python3
"""Inputs of the Parquet/ORC parity case (tests/spark/run_parity.py), deterministic: the same
rows as typed columns in Parquet and ORC (written by pyarrow, several row groups / stripes,
two files) and as text in two CSV files, each value written as hfilegen.typed's rules say
Spark's readers give it (decimals plain with their scale, floats as Java prints them, dates
ISO, timestamps epoch milliseconds, floored), NULLs as \\N (build reads them with
--null-string '\\N'). Rows with a NULL id (a rowkey column), a NULL ts (the timestamp column)
and a qty that is not a long are rejected on both sides; ids repeat (--on-duplicate last,
across the two files).

usage: typed_inputs.py DIR [ROWS_PER_FILE]   -> DIR/csv/{a,b}.csv DIR/parquet/ DIR/orc/
"""
import datetime
import decimal
import os
import random
import sys

import pyarrow as pa
import pyarrow.orc as po
import pyarrow.parquet as pq

EPOCH = datetime.datetime(1970, 1, 1)
SCHEMA = pa.schema([("id", pa.int64()), ("user", pa.string()),
                    ("amount", pa.decimal128(12, 4)), ("score", pa.float64()),
                    ("flag", pa.bool_()), ("day", pa.date32()), ("ts", pa.timestamp("us")),
                    ("qty", pa.string()), ("note", pa.binary()), ("small", pa.int16())])


def java_double(x):
    """Double.toString for the values this file makes (exactly representable k/8 and a few
    large ones): what Spark's CAST(double AS STRING) prints."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    if 1e-3 <= abs(x) < 1e7:
        r = repr(x)
        return r if "." in r else r + ".0"
    m, e = ("%.17e" % x).split("e")
    m = repr(float(m)).rstrip("0")  # noqa: the large values here have short mantissas
    m = m if not m.endswith(".") else m + "0"
    return "%sE%d" % (m, int(e))


def q(s):
    return b'"' + s.replace(b'"', b'""') + b'"' if any(c in s for c in b',"\r\n') else s


def rows(rng, n, start):
    for k in range(n):
        rid = start + rng.randrange(n)
        amount = decimal.Decimal(rng.randrange(-10 ** 7, 10 ** 7)).scaleb(-4)
        if k % 97 == 0:
            amount = decimal.Decimal("0.0001")
        score = rng.randrange(-4000, 4000) / 8
        if k % 101 == 0:
            score = rng.choice([1e20, -2.5e-5, float("nan"), -0.0, 1.5e300])
        ts = datetime.datetime(2024, 1, 1) + datetime.timedelta(
            seconds=rng.randrange(10 ** 7), microseconds=rng.randrange(10 ** 6))
        r = rng.random()
        yield {"id": None if r < 0.003 else rid,
               "user": rng.choice(["u%03d" % rng.randrange(50), "", None, "Müller, \"K\""]),
               "amount": None if r > 0.99 else amount,
               "score": score, "flag": rng.choice([True, False, None]),
               "day": datetime.date(2000, 1, 1) + datetime.timedelta(days=rng.randrange(9000)),
               "ts": None if 0.003 <= r < 0.005 else ts,
               "qty": "12x" if 0.005 <= r < 0.01 else str(rng.randrange(100)),
               "note": rng.choice([b"", b"plain", b"two\nlines", b"\xff\xfebytes", None]),
               "small": rng.randrange(-300, 300)}


def text(col, v):
    """The CSV bytes of one value."""
    if isinstance(v, bytes):
        return v
    return _text(col, v).encode("utf-8")


def _text(col, v):
    if v is None:
        return "\\N"
    if col == "amount":
        return format(v, "f")
    if col == "score":
        return java_double(v)
    if col == "flag":
        return "true" if v else "false"
    if col == "day":
        return v.isoformat()
    if col == "ts":
        d = v - EPOCH
        return str((d.days * 86400 + d.seconds) * 1000 + d.microseconds // 1000)
    return str(v)


def main():
    d = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(1616)
    for sub in ("csv", "parquet", "orc"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    for name, start in (("a", 1), ("b", n // 2)):
        rs = list(rows(rng, n, start))
        with open(os.path.join(d, "csv", name + ".csv"), "wb") as f:
            f.write(",".join(SCHEMA.names).encode() + b"\n")
            for r in rs:
                f.write(b",".join(q(text(c, r[c])) for c in SCHEMA.names) + b"\n")
        t = pa.Table.from_pylist(rs, schema=SCHEMA)
        pq.write_table(t, os.path.join(d, "parquet", "part-%s.parquet" % name),
                       row_group_size=400)
        po.write_table(t, os.path.join(d, "orc", "part-%s.orc" % name), stripe_size=16384,
                       batch_size=256)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Independent oracle for `hfilegen build` on the sample: reads the CSV with Python's csv
module, builds the '{id % 10}|{id}' rowkey, maps every other non-empty column to cf:<column>
as text, one timestamp for all, and prints the cells TSV (row, family, qualifier, ts, type,
value, tags) in HBase order, escaped as hfilegen's TSV format. Shares no code with hfilegen.

usage: expected_cells.py CSV TIMESTAMP [--salt N]
"""
import csv
import sys


def esc(b):
    out = []
    for c in b:
        if c == 0x5C:
            out.append("\\\\")
        elif 0x20 <= c <= 0x7E:
            out.append(chr(c))
        else:
            out.append("\\x%02x" % c)
    return "".join(out)


def main():
    path, ts = sys.argv[1], int(sys.argv[2])
    salt = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    cells = []
    with open(path, newline="", encoding="utf-8") as f:
        r = csv.reader(f)
        header = next(r)
        for rec in r:
            row = ("%d|%s" % (int(rec[0]) % salt, rec[0])).encode()
            for name, value in zip(header[1:], rec[1:]):
                if value == "":
                    continue
                cells.append((row, b"cf", name.encode(), value.encode("utf-8")))
    cells.sort(key=lambda c: (c[0], c[1], c[2]))
    out = sys.stdout
    for row, fam, q, v in cells:
        out.write("%s\t%s\t%s\t%d\tPut\t%s\t\n" % (esc(row), esc(fam), esc(q), ts, esc(v)))


if __name__ == "__main__":
    main()

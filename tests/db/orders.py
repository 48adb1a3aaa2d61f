#!/usr/bin/env python3
"""The legacy `orders` table of the dump tests (tests/db/dumps.sh), and the cell check.

  orders.py sql pg|mariadb     CREATE TABLE + INSERTs for that server
  orders.py expected-sql pg|mariadb
                               a SELECT that makes the server report every value as hex of
                               its text (PostgreSQL) or of its bytes (MariaDB), '-' for NULL,
                               one row per record: id, then the columns in table order
  orders.py compare EXPECTED CELLS SUMMARY
                               EXPECTED: that SELECT's output (tab-separated); CELLS:
                               `hfilegen inspect --cells --tsv` of every file; SUMMARY:
                               `hfilegen build` stdout. Passes when the cells are exactly the
                               non-NULL values (rowkey {id}, family cf, qualifier = column,
                               empty strings stored) and the summary counts every record and
                               every NULL.

The rows hold what breaks naive dump readers: NULLs next to empty strings, TABs, LF, CR LF,
backslashes, the two bytes \\N as data, the word NULL, quotes, commas, the dump terminators
used by the tests (| || ## '), \\. alone, UTF-8, decimals, datetimes and binary blobs.
Shares no code with hfilegen.
"""
import sys

COLUMNS = ["id", "user_id", "created_at", "amount", "status", "note", "payload"]

ROWS = [
    (1, 42, "2024-07-11 12:00:00.123", "12.50", "paid", "plain note", b"\x00\x01\x02\xff"),
    (2, None, None, None, None, None, None),
    (3, 7, "1999-12-31 23:59:59.000", "-0.01", "", "", b""),
    (4, 0, "2000-01-01 00:00:00.000", "99999.99", "tab\there", "line1\nline2\r\nline3\rend",
     b"\t\n\r\\"),
    (5, -5, "2024-02-29 08:30:00.500", "0.00", "back\\slash", "\\N", b"\\N"),
    (6, 6, None, "1.00", "NULL", "NULL", b"NULL"),
    (7, 2147483647, "2038-01-19 03:14:07.999", "-99999.99", 'quote "x", comma',
     "it's; \\. and \\\\ and \\", b'"\',;'),
    (8, 8, "1970-01-01 00:00:01.000", "3.14", "\u00e9\u65e5\u672c", "Gr\u00fc\u00dfe \U0001F642 \u2028",
     "\u00e9".encode("utf-8")),
    (9, 9, "2024-07-11 12:00:00.000", "10.10", "\\.", "\\.", b"\\."),
    (10, 10, "2024-07-11 12:00:00.000", "1.10", "|", "a||b##\n#c'd''", b"##\n||'"),
    (11, None, "2024-07-11 12:00:00.001", None, "\\", "ends with backslash\\",
     b"\x1a\x08\x00\\0"),
    (12, 12, "2024-07-11 12:00:00.000", "2.00", '"', "\t", b"\n"),
]


def hexs(b):
    return b.hex()


def sql_pg():
    out = ["CREATE TABLE orders (id bigint PRIMARY KEY, user_id integer, "
           "created_at timestamp(3), amount numeric(12,2), status text, note text, "
           "payload bytea);"]
    for r in ROWS:
        v = [str(r[0])]
        v.append("NULL" if r[1] is None else str(r[1]))
        v.append("NULL" if r[2] is None else "'%s'" % r[2])
        v.append("NULL" if r[3] is None else r[3])
        for s in (r[4], r[5]):
            v.append("NULL" if s is None else
                     "convert_from(decode('%s', 'hex'), 'UTF8')" % hexs(s.encode("utf-8")))
        v.append("NULL" if r[6] is None else "decode('%s', 'hex')" % hexs(r[6]))
        out.append("INSERT INTO orders VALUES (%s);" % ", ".join(v))
    return "\n".join(out) + "\n"


def sql_mariadb():
    out = ["CREATE TABLE orders (id BIGINT PRIMARY KEY, user_id INT NULL, "
           "created_at DATETIME(3) NULL, amount DECIMAL(12,2) NULL, status VARCHAR(40) NULL, "
           "note TEXT NULL, payload BLOB NULL) CHARACTER SET utf8mb4;"]
    for r in ROWS:
        v = [str(r[0])]
        v.append("NULL" if r[1] is None else str(r[1]))
        v.append("NULL" if r[2] is None else "'%s'" % r[2])
        v.append("NULL" if r[3] is None else r[3])
        for s in (r[4], r[5]):
            v.append("NULL" if s is None else
                     "CONVERT(X'%s' USING utf8mb4)" % hexs(s.encode("utf-8")))
        v.append("NULL" if r[6] is None else "X'%s'" % hexs(r[6]))
        out.append("INSERT INTO orders VALUES (%s);" % ", ".join(v))
    return "\n".join(out) + "\n"


def expected_sql(server):
    if server == "pg":
        cols = ["coalesce(encode(convert_to(%s::text, 'UTF8'), 'hex'), '-')" % c
                for c in COLUMNS[1:]]
    else:  # the bytes MariaDB holds; CONCAT gives a number or datetime its text
        cols = ["IFNULL(HEX(CONCAT(%s)), '-')" % c for c in COLUMNS[1:]]
    return "SELECT id, %s FROM orders ORDER BY id;\n" % ", ".join(cols)


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "\\":
            if s[i + 1] == "\\":
                out.append(0x5C)
                i += 2
                continue
            out.append(int(s[i + 2:i + 4], 16))
            i += 4
            continue
        out.extend(s[i].encode("ascii"))
        i += 1
    return bytes(out)


def compare(expected_path, cells_path, summary_path):
    want = set()
    nulls = 0
    nrows = 0
    empty_rows = 0
    with open(expected_path, encoding="ascii") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) != len(COLUMNS):
                print("bad expected line: %r" % line)
                return 1
            nrows += 1
            cells_in_row = 0
            for name, h in zip(COLUMNS[1:], parts[1:]):
                if h == "-":
                    nulls += 1
                    continue
                cells_in_row += 1
                want.add((parts[0].encode(), name.encode(), bytes.fromhex(h)))
            if cells_in_row == 0:
                empty_rows += 1  # every value NULL: no cell, so no row in HBase
    if nrows != len(ROWS):
        print("the server reported %d rows, the table has %d" % (nrows, len(ROWS)))
        return 1
    got = set()
    with open(cells_path, encoding="ascii") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 6 or p[1] != "cf" or p[4] != "Put":
                print("unexpected cell line: %r" % line)
                return 1
            got.add((unescape(p[0]), unescape(p[2]), unescape(p[5])))
    rc = 0
    for c in sorted(want - got):
        print("missing cell: row %r %s = %r" % (c[0], c[1].decode(), c[2]))
        rc = 1
    for c in sorted(got - want):
        print("unexpected cell: row %r %s = %r" % (c[0], c[1].decode(), c[2]))
        rc = 1
    summary = open(summary_path, encoding="utf-8", errors="replace").read()
    for label, n in (("records read", nrows), ("records written", nrows - empty_rows),
                     ("records without cells", empty_rows),
                     ("records rejected", 0), ("null values", nulls), ("cells", len(want))):
        line = [ln for ln in summary.splitlines() if ln.strip().startswith(label + " ")]
        if not line or int(line[0].split()[len(label.split())]) != n:
            print("summary: expected %s %d, got %r" % (label, n, line))
            rc = 1
    if rc == 0:
        print("ok: %d records, %d cells, %d NULLs, all exactly as the server holds them"
              % (nrows, len(want), nulls))
    return rc


def main():
    a = sys.argv[1:]
    if a[:1] == ["sql"]:
        sys.stdout.write(sql_pg() if a[1] == "pg" else sql_mariadb())
    elif a[:1] == ["expected-sql"]:
        sys.stdout.write(expected_sql(a[1]))
    elif a[:1] == ["compare"]:
        return compare(a[1], a[2], a[3])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The MariaDB `bits` table of the dump tests (tests/db/dumps.sh): BIT columns, which the
server writes into SELECT ... INTO OUTFILE (and mysqldump --tab) unescaped, beside binary
columns, which it escapes.

  bits.py sql                  CREATE TABLE + INSERTs
  bits.py expected-sql         a SELECT that makes the server report every value as hex of its
                               bytes, '-' for NULL: id, then the columns in table order
  bits.py compare MODE EXPECTED CELLS SUMMARY
                               EXPECTED: that SELECT's output; CELLS: `hfilegen inspect --cells
                               --tsv` of every file; SUMMARY: `hfilegen build` stdout.
      exact    every value exactly (a direct mysql:// read; mysqldump --tab with its TABLE.sql
               beside and FIELDS ENCLOSED BY, which encloses BIT values but not NULL)
      tab      every value exactly but one: a nullable BIT(16) holding 0x5c4e, the bytes of the
               NULL marker \\N, reads as NULL (mysqldump --tab with its TABLE.sql beside)
      outfile  no cell differs from the table: each row the server wrote unreadable (HOSTILE) is
               rejected, each other row (BENIGN) loaded exactly; rows whose bytes read as other
               valid escapes (UNDETECTABLE, said in the README) are not judged (a dump read
               without the TABLE.sql)
Shares no code with hfilegen.
"""
import sys

COLUMNS = ["id", "b1", "b8", "b16", "b64", "nn", "vb", "bl"]

N = None
ROWS = [  # id, BIT(1), BIT(8), BIT(16), BIT(64), BIT(16) NOT NULL, VARBINARY(8), BLOB
    (1, 0x0, 0x00, 0x0000, 0x0, 0x0001, b"\x00", b"\x00\\N"),  # raw NULs, read as they are
    (2, 0x1, 0xFF, 0x2222, 0x4142434445464748, 0x4E4E, b"\\N", b"\t\n\\"),
    (3, N, N, N, N, 0x0000, N, N),
    (4, 0x1, 0x41, 0x4142, 0x5C4E, 0x4141, b"x", b"y"),  # b64 ends in \N after raw NULs
    (5, 0x1, 0x5C, 0x4142, 0x1, 0x4141, b"x", b"y"),  # b8 a backslash before the TAB
    (6, 0x1, 0x09, 0x4142, 0x1, 0x4141, b"x", b"y"),  # b8 a TAB
    (7, 0x1, 0x41, 0x0A41, 0x1, 0x4141, b"x", b"y"),  # b16 an LF
    (8, 0x1, 0x41, 0x5C71, 0x1, 0x4141, b"x", b"y"),  # b16 \q, an escape never written
    (9, 0x1, 0x41, 0x4142, 0x5C4E000000000000, 0x4141, b"x", b"y"),  # b64 \N then NULs
    (10, 0x1, 0x41, 0x4142, 0x1, 0x5C4E, b"x", b"y"),  # nn \N (NOT NULL)
    (11, 0x1, 0x41, 0x5C5C, 0x1, 0x5C30, b"x", b"y"),  # b16 \\, nn \0: valid escapes
    (12, 0x1, 0x41, 0x5C4E, 0x1, 0x4141, b"x", b"y"),  # b16 \N (nullable)
    (13, 0x1, 0x22, 0x0D22, 0x0A09005C00000000, 0x0A0A, b"\x00\x09", b"\\0"),
    (14, 0x1, 0x41, 0x4142, 0x5C5C, 0x4141, b"x", b"y"),  # b64 raw NULs, then \\ (one \ read)
]
HOSTILE = {4, 5, 6, 7, 8, 9, 13, 14}
UNDETECTABLE = {10, 11, 12}
BENIGN = {r[0] for r in ROWS} - HOSTILE - UNDETECTABLE
NULL_READ = {(12, "b16")}  # tab mode: the one value the dump cannot tell from NULL
WIDTH = {"b1": 1, "b8": 1, "b16": 2, "b64": 8, "nn": 2}


def sql():
    out = ["CREATE TABLE bits (id INT PRIMARY KEY, b1 BIT(1) NULL, b8 BIT(8) NULL, "
           "b16 BIT(16) NULL, b64 BIT(64) NULL, nn BIT(16) NOT NULL, vb VARBINARY(8) NULL, "
           "bl BLOB NULL);"]
    for r in ROWS:
        v = [str(r[0])]
        for name, x in zip(COLUMNS[1:6], r[1:6]):
            v.append("NULL" if x is None else "X'%0*x'" % (2 * WIDTH[name], x))
        for b in r[6:]:
            v.append("NULL" if b is None else "X'%s'" % b.hex())
        out.append("INSERT INTO bits VALUES (%s);" % ", ".join(v))
    return "\n".join(out) + "\n"


def expected_sql():
    cols = ["IFNULL(HEX(CONCAT(%s)), '-')" % c for c in COLUMNS[1:]]
    return "SELECT id, %s FROM bits ORDER BY id;\n" % ", ".join(cols)


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


def summary_count(summary, label):
    for ln in summary.splitlines():
        if ln.strip().startswith(label + " "):
            return int(ln.split()[len(label.split())])
    return None


def compare(mode, expected_path, cells_path, summary_path):
    want = {}  # (row, column) -> bytes
    with open(expected_path, encoding="ascii") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != len(COLUMNS):
                print("bad expected line: %r" % line)
                return 1
            for name, h in zip(COLUMNS[1:], parts[1:]):
                if h != "-":
                    want[(int(parts[0]), name)] = bytes.fromhex(h)
    if len({k[0] for k in want}) != len(ROWS):
        print("the server reported %d rows, the table has %d" % (len({k[0] for k in want}), len(ROWS)))
        return 1
    got = {}
    with open(cells_path, encoding="ascii") as f:
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 6 or p[1] != "cf" or p[4] != "Put":
                print("unexpected cell line: %r" % line)
                return 1
            got[(int(unescape(p[0])), unescape(p[2]).decode())] = unescape(p[5])
    summary = open(summary_path, encoding="utf-8", errors="replace").read()
    rc = 0
    if mode in ("exact", "tab"):
        expect = {k: v for k, v in want.items() if mode == "exact" or k not in NULL_READ}
        for k in sorted(set(expect) | set(got)):
            if expect.get(k) != got.get(k):
                print("row %d %s: got %r, the table holds %r" % (k[0], k[1], got.get(k), expect.get(k)))
                rc = 1
        if mode == "tab":
            for k in NULL_READ:
                if k not in want:
                    print("the table lacks the value %r the check is about" % (k,))
                    rc = 1
        for label, n in (("records read", len(ROWS)), ("records rejected", 0)):
            if summary_count(summary, label) != n:
                print("summary: expected %s %d, got %r" % (label, n, summary_count(summary, label)))
                rc = 1
    else:  # outfile
        for k, v in sorted(got.items()):
            if want.get(k) != v and k[0] not in UNDETECTABLE:
                print("row %d %s: got %r, the table holds %r (a silent misread)" % (k[0], k[1], v, want.get(k)))
                rc = 1
        rows_got = {k[0] for k in got}
        for r in sorted(HOSTILE & rows_got):
            print("row %d: loaded, but its BIT bytes were written unreadably" % r)
            rc = 1
        for r in sorted(BENIGN):
            for k in [k for k in want if k[0] == r]:
                if got.get(k) != want[k]:
                    print("row %d %s: got %r, the table holds %r" % (r, k[1], got.get(k), want[k]))
                    rc = 1
        read, written, rejected = (summary_count(summary, x) for x in
                                   ("records read", "records written", "records rejected"))
        empty = summary_count(summary, "records without cells") or 0
        if None in (read, written, rejected) or read != written + rejected + empty or rejected < len(HOSTILE):
            print("summary: read %r written %r rejected %r without cells %r (want >= %d rejected)"
                  % (read, written, rejected, empty, len(HOSTILE)))
            rc = 1
    if rc == 0:
        print("ok: %d cells as the table holds them (%s)" % (len(got), mode))
    return rc


def main():
    a = sys.argv[1:]
    if a[:1] == ["sql"]:
        sys.stdout.write(sql())
    elif a[:1] == ["expected-sql"]:
        sys.stdout.write(expected_sql())
    elif a[:1] == ["compare"] and len(a) == 5:
        return compare(a[1], a[2], a[3], a[4])
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

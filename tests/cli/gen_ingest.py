#!/usr/bin/env python3
"""Hostile CSV/TSV for the parallel ingest test (tests/cli/build_ingest.sh).

usage: gen_ingest.py csv|tsv ROWS SEED OUT [--unterminated]

Records with quoted newlines (LF and CRLF), doubled quotes, embedded
delimiters, long quoted notes whose lines look like records (so that a part
guessed to start inside one starts wrongly and is read again), blank lines,
and malformed records of every kind the reader rejects (a quote in an unquoted
field, a character after a closing quote, a wrong field count, a key that
cannot be built), plus repeated ids for --on-duplicate. --unterminated ends
the file inside a quoted field (one reject up to the end of the file).
"""
import random
import sys

fmt, rows, seed, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
unterminated = "--unterminated" in sys.argv[5:]
rnd = random.Random(seed)
words = ["alpha", "beta", "gamma", "café", "配送", "x,y", "1,2,3,NEW,z", "ring twice", "ok"]


def csv_note(i):
    r = rnd.random()
    if r < 0.25:
        return ""
    if r < 0.45:
        return " ".join(rnd.choice(words[:5]) for _ in range(rnd.randint(1, 4))).replace(",", ";")
    if r < 0.60:
        return '"%s, ""quoted"" %d"' % (rnd.choice(words), i)
    if r < 0.80:
        nl = rnd.choice(["\n", "\r\n"])
        return '"%s"' % nl.join(rnd.choice(words) for _ in range(rnd.randint(2, 5)))
    if i in (rows // 3, rows // 2):
        # longer than the 64 KiB a part's start is guessed in: that part is read again
        lines = ["%d,%d,1720000000000,1.00,NEW,fake %d" % (i + k, k, k) for k in range(2500)]
        return '"' + "\n".join(lines) + '"'
    if r < 0.83:
        # a long quoted note whose lines look like records, no quote inside
        lines = ["%d,%d,1720000000000,1.00,NEW,fake %d" % (i + k, k, k)
                 for k in range(rnd.randint(50, 400))]
        return '"' + "\n".join(lines) + '"'
    return "plain %d" % i


with open(out, "w", newline="") as f:
    if fmt == "csv":
        f.write("id,user_id,created_at,amount,status,note\n")
    else:
        f.write("id\tuser_id\tcreated_at\tamount\tstatus\tnote\n")
    for i in range(1, rows + 1):
        rid = i if rnd.random() > 0.03 else max(1, i - rnd.randint(1, 50))  # repeated ids
        base = [str(rid), str(rnd.randint(1, 5000)), str(1720000000000 + i), "%.2f" % (i / 7),
                rnd.choice(["NEW", "PAID", "SHIPPED"])]
        r = rnd.random()
        if fmt == "tsv":
            if r < 0.02:
                f.write("\t".join(base) + "\n")  # 5 fields
            elif r < 0.04:
                f.write("x%d\t" % i + "\t".join(base[1:]) + "\tbad key\n")
            else:
                f.write("\t".join(base) + "\tnote %d %s\n" % (i, rnd.choice(words)))
            if rnd.random() < 0.02:
                f.write("\n")
            continue
        if r < 0.01:
            f.write(",".join(base) + ',ab"c\n')                      # quote in unquoted field
        elif r < 0.02:
            f.write(",".join(base) + ',"closed"x\n')                 # after a closing quote
        elif r < 0.03:
            f.write(",".join(base[:4]) + "\n")                        # 4 fields
        elif r < 0.04:
            f.write("id%d," % i + ",".join(base[1:]) + ",bad key\n")  # {id % 10} fails
        else:
            f.write(",".join(base) + "," + csv_note(i) + rnd.choice(["\n", "\n", "\r\n"]))
        if rnd.random() < 0.02:
            f.write(rnd.choice(["\n", "\r\n", "\n\n"]))
    if unterminated and fmt == "csv":
        f.write('999999,1,1720000000000,1.00,NEW,"never closed\nmore,1,2\n')

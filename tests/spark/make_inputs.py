#!/usr/bin/env python3
"""Inputs of the harder Spark parity jobs (tests/spark/jobs/*.yaml), deterministic:
  events_a.csv, events_b.csv.gz  CSV, ids repeat across and within files (duplicates),
                                 bad amounts and short rows (rejects), quoted newlines,
                                 empty fields, UTF-8
  events_c.tsv                   TSV (no quoting), more duplicates
usage: make_inputs.py DIR [ROWS]
"""
import gzip
import os
import random
import sys

NOTES = ["", "plain", 'said "hi", then left', "two\nlines", "Müller – ok", "配送", "a,b,c"]


def q(s):
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\r\n') else s


def rows(rng, n, start):
    for k in range(n):
        rid = start + rng.randrange(n)  # repeats: duplicates
        user = "u%03d" % rng.randrange(200)
        ts = 1720000000000 + rid * 1000 + k
        amount = "%.2f" % (rng.random() * 1000)
        r = rng.random()
        if r < 0.01:
            amount = "12,5x"  # not a double: rejected
        region = rng.choice(["eu", "us", "apac", ""])
        yield rid, user, ts, amount, region, rng.choice(NOTES), r


def main():
    d = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    os.makedirs(d, exist_ok=True)
    rng = random.Random(16)
    hdr = "id,user_id,ts,amount,region,note\n"
    with open(os.path.join(d, "events_a.csv"), "w", encoding="utf-8", newline="") as f:
        f.write(hdr)
        for rid, user, ts, amount, region, note, r in rows(rng, n, 1):
            if r > 0.998:
                f.write("%d,%s\n" % (rid, user))  # short row: rejected
                continue
            f.write("%d,%s,%d,%s,%s,%s\n" % (rid, user, ts, q(amount), region, q(note)))
    with gzip.open(os.path.join(d, "events_b.csv.gz"), "wt", encoding="utf-8", newline="") as f:
        f.write(hdr)
        for rid, user, ts, amount, region, note, r in rows(rng, n, n // 2):
            f.write("%d,%s,%d,%s,%s,%s\r\n" % (rid, user, ts, q(amount), region, q(note)))
    with open(os.path.join(d, "events_c.tsv"), "w", encoding="utf-8", newline="") as f:
        f.write(hdr.replace(",", "\t"))
        for rid, user, ts, amount, region, note, r in rows(rng, n // 4, 1):
            note = note.replace("\n", " ").replace("\t", " ")
            f.write("%d\t%s\t%d\t%s\t%s\t%s\n" % (rid, user, ts, amount, region, note))


if __name__ == "__main__":
    main()

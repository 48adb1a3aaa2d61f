#!/usr/bin/env python3
"""Writes a deterministic export of a legacy 'orders' table as CSV (RFC 4180).

Columns: id (auto-increment from 1), user_id (skewed: a few heavy users), created_at (epoch
milliseconds, increasing), amount (decimal), status, note (free text with commas, quotes,
newlines and UTF-8). Used for samples/orders.csv and, at larger sizes, by bench/run.sh.

usage: make_sample.py ROWS [OUT]   (OUT defaults to stdout)
"""
import random
import sys

STATUSES = ["NEW", "PAID", "SHIPPED", "DELIVERED", "CANCELLED", "RETURNED"]
NOTES = [
    "", "", "", "leave at the door", "gift, please wrap", 'customer said "urgent"',
    "call before delivery,\nring twice", "Zustellung bitte an Nachbarn – Müller",
    "配送前に電話してください", "fragile; handle with care", "ref: PO-1234, PO-5678",
    "señal: \"código\" 42", "two lines\r\nwith CRLF",
]


def quote(s):
    if any(c in s for c in ',"\r\n'):
        return '"' + s.replace('"', '""') + '"'
    return s


def main():
    rows = int(sys.argv[1])
    out = open(sys.argv[2], "w", encoding="utf-8", newline="") if len(sys.argv) > 2 else sys.stdout
    rnd = random.Random(20240711)
    heavy = [rnd.randrange(1, 50000) for _ in range(5)]
    ts = 1720000000000
    out.write("id,user_id,created_at,amount,status,note\r\n")
    for i in range(1, rows + 1):
        user = heavy[rnd.randrange(5)] if rnd.random() < 0.3 else rnd.randrange(1, 50000)
        ts += rnd.randrange(1, 2000)
        amount = "%d.%02d" % (rnd.randrange(1, 2000), rnd.randrange(100))
        note = NOTES[rnd.randrange(len(NOTES))]
        out.write("%d,%d,%d,%s,%s,%s\r\n" % (i, user, ts, amount,
                                           STATUSES[rnd.randrange(len(STATUSES))], quote(note)))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes bulk-load cases for the HBase interop harness from `hfilegen build` output.

For each scheme it runs `hfilegen build` on samples/orders.csv and writes, next to the
output, what BulkLoadCheck needs: splits.txt, table.props, gets.txt and expected.tsv.
expected.tsv comes from an independent oracle in this file (Python's csv module, hashlib,
a MurmurHash3 written here): the rows HBase must return after the bulk load, in scan order.

usage: build_cases.py HFILEGEN SOURCE_DIR OUT_DIR
"""
import csv
import hashlib
import os
import shutil
import subprocess
import sys

# the escaping of hfilegen's text formats, shared with the build CLI test's oracle
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from expected_cells import esc  # noqa: E402

TS = 1720695600000
HEAVY_USER = None  # set from the sample: its most frequent user_id
# the client's filter of a superset: a group capturing the range field from the row key
BUCKET16_TS = r"^[0-9]{2}_([0-9]+)_"
SALT10_ID = r"^[0-9]\|([0-9]+)$"


def murmur3_32(data, seed=0):
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & 0xFFFFFFFF
    n = len(data) // 4 * 4
    for i in range(0, n, 4):
        k = int.from_bytes(data[i:i + 4], "little")
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
        h = ((h << 13) | (h >> 19)) & 0xFFFFFFFF
        h = (h * 5 + 0xE6546B64) & 0xFFFFFFFF
    k = 0
    tail = data[n:]
    if len(tail) >= 3:
        k ^= tail[2] << 16
    if len(tail) >= 2:
        k ^= tail[1] << 8
    if len(tail) >= 1:
        k ^= tail[0]
        k = (k * c1) & 0xFFFFFFFF
        k = ((k << 15) | (k >> 17)) & 0xFFFFFFFF
        k = (k * c2) & 0xFFFFFFFF
        h ^= k
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


# name -> (template, key function, families of non-key columns, key columns, extra flags,
#          splits, table props)
SCHEMES = {
    "build_salt10_lz4": dict(
        template="{id % 10}|{id}",
        key=lambda r: ("%d|%s" % (int(r["id"]) % 10, r["id"])).encode(),
        keycols={"id"}, families={}, ts=lambda r: TS,
        splits=[str(i) for i in range(1, 10)], codec="lz4", bloom="ROW",
        flags=["--timestamp", str(TS), "--codec", "lz4", "--bloom", "row"]),
    "build_md5hex16_gz": dict(
        template="{hex(md5(id), 1)}|{id}",
        key=lambda r: ("%s|%s" % (hashlib.md5(r["id"].encode()).hexdigest()[0], r["id"])).encode(),
        keycols={"id"}, families={}, ts=lambda r: TS,
        splits=list("123456789abcdef"), codec="gz", bloom="ROW",
        flags=["--timestamp", str(TS), "--codec", "gz", "--memory", "8m", "--threads", "1"]),
    "build_bucket16_two_families": dict(
        template="{murmur3(user_id) % 16 :02}_{created_at}_{id}",
        key=lambda r: ("%02d_%s_%s" % (murmur3_32(r["user_id"].encode()) % 16, r["created_at"],
                                      r["id"])).encode(),
        keycols={"user_id", "created_at", "id"}, families={"note": "d", "status": "d"},
        ts=lambda r: int(r["created_at"]),
        splits=["%02d" % i for i in range(1, 16)], codec="snappy", bloom="ROWCOL",
        flags=["--timestamp", "column:created_at", "--job-timestamp", str(TS), "--codec", "snappy",
               "--bloom", "rowcol", "--map", "note=d:note", "--map", "status=d:status"],
        bucket=lambda r: murmur3_32(r["user_id"].encode()) % 16,
        # "orders of user U between t1 and t2" (one range: U's bucket, which the client then
        # filters by user), and "all orders between t1 and t2" (one range per bucket).
        # {created_at} is decimal of varying width: hfilegen says superset (exit 3) and the
        # client filters created_at; 5..10 is issue #11's "empty" range (compared as strings)
        scans=[dict(name="one_user", field="created_at", fixed={"user_id": HEAVY_USER},
                    lo=1720000500000, hi=1720004000000, exact=False, regex=BUCKET16_TS),
               dict(name="all_users_window", field="created_at", fixed={},
                    lo=1720001000000, hi=1720001200000, exact=False, regex=BUCKET16_TS),
               dict(name="issue11_5_10", field="created_at", fixed={}, lo=5, hi=10,
                    exact=False, regex=BUCKET16_TS)]),
    # issue #11: `{id % 10}|{id :010}`, the exact alternative hfilegen offers for the
    # superset of `{id % 10}|{id}`
    "build_salt10_padded": dict(
        template="{id % 10}|{id :010}",
        key=lambda r: ("%d|%010d" % (int(r["id"]) % 10, int(r["id"]))).encode(),
        keycols={"id"}, families={}, ts=lambda r: TS,
        splits=[str(i) for i in range(1, 10)], codec="none", bloom="ROW",
        flags=["--timestamp", str(TS), "--codec", "none", "--bloom", "row"],
        bucket=None,
        scans=[dict(name="ids_100_200", field="id", fixed={}, lo=100, hi=200, exact=True),
               dict(name="ids_1_5000_incl", field="id", fixed={}, lo=1, hi=5000, incl=True,
                    exact=True)]),
}

# `{id % 10}|{id}`, issue #11: 100..200 is 10 ranges holding 1111 ids of the sample (1000..1999
# sort inside as bytes); the superset plus the filter, and the point gets (--gets), are exact
SCHEMES["build_salt10_lz4"]["bucket"] = None
SCHEMES["build_salt10_lz4"]["scans"] = [
    dict(name="ids_100_200", field="id", fixed={}, lo=100, hi=200, exact=False, regex=SALT10_ID),
    dict(name="ids_5_10_incl", field="id", fixed={}, lo=5, hi=10, incl=True, exact=False,
         regex=SALT10_ID),
    dict(name="ids_100_200_gets", field="id", fixed={}, lo=100, hi=200, exact=False, gets=True)]


def main():
    hfilegen, src, out = sys.argv[1], sys.argv[2], sys.argv[3]
    sample = os.path.join(src, "samples", "orders.csv")
    with open(sample, newline="", encoding="utf-8") as f:
        records = list(csv.DictReader(f))
    counts = {}
    for r in records:
        counts[r["user_id"]] = counts.get(r["user_id"], 0) + 1
    heavy = max(counts, key=lambda u: (counts[u], u))
    for _, sch in SCHEMES.items():
        for q in sch.get("scans", []):
            if "user_id" in q["fixed"] and q["fixed"]["user_id"] is None:
                q["fixed"]["user_id"] = heavy
    for name, s in SCHEMES.items():
        case = os.path.join(out, name)
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        with open(os.path.join(case, "splits.txt"), "w") as f:
            f.write("".join(k + "\n" for k in s["splits"]))
        cmd = [hfilegen, "build", "--rowkey", s["template"], "--splits",
               os.path.join(case, "splits.txt"), "--out", os.path.join(case, "out"), "--quiet",
               "--tmp-dir", case] + s["flags"] + [sample]
        subprocess.run(cmd, check=True)
        fams = sorted({"cf"} | set(s["families"].values()))
        with open(os.path.join(case, "table.props"), "w") as f:
            f.write("families=%s\n" % ",".join(fams))
            for fam in fams:
                f.write("%s.codec=%s\n%s.bloom=%s\n%s.block_size=65536\n"
                        % (fam, s["codec"], fam, s["bloom"], fam))
        cells = []
        for r in records:
            row = s["key"](r)
            for col, val in r.items():
                if col in s["keycols"] or val == "":
                    continue
                fam = s["families"].get(col, "cf")
                cells.append((row, fam.encode(), col.encode(), s["ts"](r), val.encode("utf-8")))
        cells.sort(key=lambda c: (c[0], c[1], c[2]))
        with open(os.path.join(case, "expected.tsv"), "w") as f:
            for row, fam, q, ts, v in cells:
                f.write("%s\t%s\t%s\t%d\tPut\t%s\t\n" % (esc(row), esc(fam), esc(q), ts, esc(v)))
        # "how do I still get by the old id?": keys computed here for sampled ids
        with open(os.path.join(case, "gets.txt"), "w") as f:
            for r in records[::487]:
                f.write(esc(s["key"](r)) + "\n")
        scans = s.get("scans", [])
        if scans:
            os.makedirs(os.path.join(case, "scans"))
        for q in scans:
            qname, field, fixed, lo, hi = q["name"], q["field"], q["fixed"], q["lo"], q["hi"]
            incl = q.get("incl", False)
            # the client's ranges (or gets) come from hfilegen; the rows they must return from
            # the oracle
            args = [hfilegen, "scan-ranges", "--rowkey", s["template"],
                    "--from", "%s=%d" % (field, lo), "--to", "%s=%d" % (field, hi)]
            args += ["--to-inclusive"] if incl else []
            args += ["--gets"] if q.get("gets") else []
            args += ["%s=%s" % kv for kv in fixed.items()]
            res = subprocess.run(args, capture_output=True, text=True)
            # exact ranges and point gets exit 0, a superset exits 3 (the client must filter)
            want_rc = 0 if q["exact"] or q.get("gets") else 3
            if res.returncode != want_rc:
                sys.exit("%s %s: hfilegen scan-ranges exited %d, expected %d: %s"
                         % (name, qname, res.returncode, want_rc, res.stderr))
            if not q["exact"] and not q.get("gets") and "NOT EXACT" not in res.stderr:
                sys.exit("%s %s: no NOT EXACT notice: %s" % (name, qname, res.stderr))
            ext = ".gets" if q.get("gets") else ".ranges"
            with open(os.path.join(case, "scans", qname + ext), "w") as f:
                f.write(res.stdout)
            if not q["exact"] and not q.get("gets"):
                with open(os.path.join(case, "scans", qname + ".filter"), "w") as f:
                    f.write("regex=%s\nfrom=%d\nto=%d\ninclusive=%d\n"
                            % (q["regex"], lo, hi, 1 if incl else 0))
            # a range covers a whole bucket: every user whose bucket is the given user's
            want_bucket = s["bucket"](fixed) if fixed else None
            rows = sorted({s["key"](r) for r in records
                           if lo <= int(r[field]) and (int(r[field]) <= hi if incl
                                                       else int(r[field]) < hi)
                           and (want_bucket is None or s["bucket"](r) == want_bucket)})
            with open(os.path.join(case, "scans", qname + ".rows"), "w") as f:
                f.write("".join(esc(r) + "\n" for r in rows))
        print("case %s: %d cells, %d scan queries" % (name, len(cells), len(scans)))


if __name__ == "__main__":
    main()

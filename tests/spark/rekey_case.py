"""The rekey cases of the Spark parity test (run_parity.py): `hfilegen.spark rekey` against
`hfilegen rekey` on a snapshot laid out by tests/cli/rekey_snapshot.py (a plain store file,
an HFileLink, references into a split parent; three live old regions).

  visible  both families' TTL expiring the older half of the rows at --as-of: the output
           (HFiles, manifest.json with its rekey member) byte-identical, fewer write tasks
           than new regions, old rows read = written + rejected + without visible cells
  raw      every cell: byte-identical, no row without cells
  rejects  an old-key pattern most rows do not parse (nothing expired): output and
           _rejects.tsv identical
  retry    the visible case with a write task that raises once: identical
  merge    a new rowkey that merges old rows: both fail, nothing published
  refusal  a missing snapshot: exit 1 naming it, before Spark starts (no Spark log line)
"""
import csv
import json
import os
import subprocess
import sys

TS = 1720695600000


def run_case(spark, repo, hfg, work, compare, check):
    from hfilegen import spark_rekey
    d = os.path.join(work, "rekey")
    os.makedirs(d, exist_ok=True)
    os.chdir(d)
    subprocess.check_call([sys.executable, os.path.join(repo, "tools/make_sample.py"), "3000",
                           "small.csv"])
    with open("split5.txt", "w") as f:
        f.write("5\n")
    subprocess.check_call([hfg, "build", "--rowkey", "{id}", "--splits", "split5.txt", "--out",
                           "old", "--timestamp", "column:created_at", "--quiet", "--map",
                           "note=d:note", "small.csv"])
    with open("root.files", "w") as f:
        subprocess.check_call([sys.executable, os.path.join(repo, "tests/cli/rekey_snapshot.py"),
                               "old", "root", "--family-attr", "cf:TTL=1000", "--family-attr",
                               "d:TTL=1000"], stdout=f)
    with open("small.csv") as f:  # a cut between two created_at values: older rows expire
        ts = sorted(int(r["created_at"]) for r in csv.DictReader(f))
    k = next(i for i in range(len(ts) // 2, len(ts) - 1) if ts[i + 1] - ts[i] >= 2)
    as_of = ts[k] + 1 + 1000 * 1000
    salt10 = os.path.join(repo, "samples/splits/salt10.txt")
    base = {"from_dir": "root", "snapshot": "s1", "old_key": "{id}", "raw": False,
            "as_of": as_of}
    flags = ["--rowkey", "{id % 10}|{id}", "--splits", salt10, "--job-timestamp", str(TS)]

    def cli_args(rk, out, fl):
        a = [hfg, "rekey", "--from", rk["from_dir"], "--snapshot", rk["snapshot"], "--old-key",
             rk["old_key"], "--as-of", str(rk["as_of"]), "--out", out, "-q"] + fl
        return a + (["--raw"] if rk["raw"] else [])

    cases = [("visible", base, flags, 3),
             ("raw", dict(base, raw=True), flags, None),
             ("rejects", dict(base, old_key="{id:short}", as_of=ts[0]),
              ["--rowkey", "{id}", "--max-rejects", "100000", "--job-timestamp", str(TS)], None)]
    for name, rk, fl, parts in cases:
        cli, sp = "cli." + name, "spark." + name
        subprocess.check_call(cli_args(rk, cli, fl))
        s = spark_rekey.run(spark, rk, fl + ["--out", sp], partitions=parts)
        diff = compare(cli, sp)
        with open(os.path.join(cli, "manifest.json")) as f:
            m = json.load(f)
        inv = s["records_read"] == 3000 == (s["records_written"] + s["records_rejected"] +
                                            s["records_without_cells"])
        shape = {"visible": 0 < s["records_without_cells"] < 3000 and s["files"] > 0,
                 "raw": s["records_without_cells"] == 0 and s["records_written"] == 3000,
                 "rejects": s["records_rejected"] > 0 and s["records_written"] > 0 and
                 os.path.exists(os.path.join(sp, "_rejects.tsv"))}[name]
        check("rekey_" + name, diff is None and inv and shape and "rekey" in m,
              "identical to hfilegen rekey (%d written, %d rejected, %d without cells)"
              % (s["records_written"], s["records_rejected"], s["records_without_cells"])
              if diff is None else diff)
    # a write task that raises once after writing its files: Spark retries it, the output is
    # still rekey's (the earlier attempt's files never published)
    s = spark_rekey.run(spark, base, flags + ["--out", "spark.retry"], fail_once_region=3)
    diff = compare("cli.visible", "spark.retry")
    check("rekey_retry", diff is None, "task raises once: identical" if diff is None else diff)
    # two old rows with one new key: rekey fails, so does the Spark job, nothing published
    merge = ["--rowkey", "{id % 10}", "--job-timestamp", str(TS)]
    r = subprocess.run(cli_args(base, "cli.merge", merge), capture_output=True, text=True)
    try:
        spark_rekey.run(spark, base, merge + ["--out", "spark.merge"])
        check("rekey_merge", False, "a merging re-key succeeded on Spark")
    except Exception as e:
        check("rekey_merge", r.returncode == 1 and "duplicate new rowkey" in str(e) and
              not os.path.exists("spark.merge") and not os.path.exists("cli.merge"),
              "both fail: duplicate new rowkey, no output directory left")
    # a missing snapshot: refused by the argument check, before Spark starts
    r = subprocess.run([sys.executable, "-m", "hfilegen.spark", "rekey", "--master", "local[1]",
                        "--from", "root", "--snapshot", "nosuch", "--old-key", "{id}",
                        "--out", "spark.nosuch"] + flags, capture_output=True, text=True)
    check("rekey_refusal", r.returncode == 1 and "no snapshot nosuch" in r.stderr and
          "Spark" not in r.stderr and not os.path.exists("spark.nosuch"),
          "missing snapshot: exit %d before Spark starts: %s"
          % (r.returncode, r.stderr.strip().splitlines()[-1:] if r.stderr else ""))

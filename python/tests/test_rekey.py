"""hfilegen.rekey (the bindings over hfg_rekey_batch) in one process, old region by old
region, against `hfilegen rekey`: the same output byte for byte (HFiles, manifest.json with
its rekey member, _rejects.tsv) over family folders of HFiles, visible and raw; the counts;
a merging re-key failing with rekey's message and publishing nothing."""
import filecmp
import os
import subprocess

import pytest

from hfilegen.core import HfilegenError, manifest
from hfilegen.rekey import RekeyJob, run_local

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HFG = os.path.abspath(os.environ.get("HFILEGEN_BIN", os.path.join(REPO, "build", "hfilegen")))
TS = "1720695600000"


def same_tree(a, b):
    fa = sorted(os.path.relpath(os.path.join(r, f), a) for r, _, fs in os.walk(a) for f in fs)
    fb = sorted(os.path.relpath(os.path.join(r, f), b) for r, _, fs in os.walk(b) for f in fs)
    assert fa == fb
    for f in fa:
        assert filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False), f


@pytest.fixture
def old(tmp_path):
    csv = tmp_path / "in.csv"
    rows = ["id,note"] + ["%d,n%d" % (i, i % 7) for i in range(1, 400)]
    csv.write_text("\n".join(rows) + "\n")
    subprocess.check_call([HFG, "build", "--rowkey", "{id}", "--out", str(tmp_path / "old"),
                           "--map", "note=d:note", "--timestamp", TS, "--quiet", str(csv)])
    return str(tmp_path / "old")


@pytest.mark.parametrize("raw", [False, True])
def test_identical_to_rekey(old, tmp_path, raw):
    splits = tmp_path / "splits.txt"
    splits.write_text("2|\n5|\n")
    flags = ["--rowkey", "{id % 7}|{id}", "--splits", str(splits), "--job-timestamp", TS]
    cli = str(tmp_path / "cli")
    subprocess.check_call([HFG, "rekey", "--from", old, "--old-key", "{id:short}",
                           "--max-rejects", "1000", "--as-of", TS, "--out", cli, "-q"] + flags +
                          (["--raw"] if raw else []))
    rk = {"from_dir": old, "snapshot": None, "old_key": "{id:short}", "raw": raw,
          "as_of": int(TS)}
    s = run_local(rk, flags + ["--max-rejects", "1000", "--out", str(tmp_path / "py")])
    same_tree(cli, str(tmp_path / "py"))
    assert s["records_read"] == 399 == s["records_written"] + s["records_rejected"]
    assert s["records_rejected"] == 399 - 90  # ids 10..99 are two bytes: they parse as short
    m = manifest(cli)["rekey"]  # the summary's counts are the manifest's
    assert s["store_files"] == m["store_files"] >= 1 and s["cells_read"] == m["cells_read"] > 0


def test_merging_rekey_fails_and_publishes_nothing(old, tmp_path):
    rk = {"from_dir": old, "snapshot": None, "old_key": "{id}", "raw": False, "as_of": None}
    with pytest.raises(HfilegenError, match="duplicate new rowkey"):
        run_local(rk, ["--rowkey", "{id % 7}", "--out", str(tmp_path / "o")])
    assert not os.path.exists(tmp_path / "o" / "_SUCCESS")
    with RekeyJob(["--rowkey", "{id % 7}", "--out", str(tmp_path / "o")], rk) as job:
        assert "reaches the new key only through %" in job.warning
        assert job.old_regions == 1 and job.as_of > 0

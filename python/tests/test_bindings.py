"""The bindings against the CLI: keys as `hfilegen key` prints them, the row order, and the
whole job through the bindings (hfilegen.driver.run_local) byte-identical to `hfilegen build`.
HFILEGEN_BIN names the CLI (default: build/hfilegen)."""
import os
import re
import subprocess

import pyarrow as pa
import pytest

import hfilegen
from hfilegen.driver import run_local

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HFG = os.path.abspath(os.environ.get("HFILEGEN_BIN", os.path.join(REPO, "build", "hfilegen")))
SPLITS = os.path.join(REPO, "samples", "splits", "salt10.txt")
ORDERS = os.path.join(REPO, "samples", "orders.csv")


def cli_key(template, **vals):
    used = [kv for kv in vals.items() if re.search(r"\b%s\b" % kv[0], template)]
    out = subprocess.check_output([HFG, "key", "--rowkey", template] +
                                  ["%s=%s" % kv for kv in used], text=True)
    hexline = [ln for ln in out.splitlines() if ln.startswith("hex:")][0]
    return bytes.fromhex(hexline.split()[1])


def tree(d):
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            with open(os.path.join(root, f), "rb") as fh:
                out[os.path.relpath(os.path.join(root, f), d)] = fh.read()
    return out


@pytest.mark.parametrize("template", ["{id % 10}|{id}", "{murmur3(user_id) % 16 :02}_{id}",
                                      "{hex(md5(user_id), 4)}|{reverse(id)}", "{long(id)}",
                                      "{user_id}_{desc(created_at)}"])
def test_key_batch_matches_cli(tmp_path, template):
    job = hfilegen.Job(["--rowkey", template, "--splits", SPLITS, "--out",
                        str(tmp_path / "o"), ORDERS], timestamp=1700000000000)
    ids = ["1", "42", "1420008", "999999999"]
    users = ["7", "u-x", "", "12345"]
    created = ["1720000000000", "1720000000001", "1", "1720999999999"]
    cols = {c: pa.array([""] * len(ids)) for c in job.columns}
    cols["id"], cols["user_id"], cols["created_at"] = (pa.array(ids), pa.array(users),
                                                       pa.array(created))
    keyed, rejects, st = job.key(pa.RecordBatch.from_pydict(cols))
    assert st["records_read"] == 4
    got = {}
    for r, k in zip(keyed.column("ord").to_pylist(), keyed.column("key").to_pylist()):
        got[r] = k
    for i in range(4):
        if i not in got:  # rejected (e.g. an empty field a function needs): the CLI agrees
            with pytest.raises(subprocess.CalledProcessError):
                cli_key(template, id=ids[i], user_id=users[i], created_at=created[i])
            continue
        assert got[i] == cli_key(template, id=ids[i], user_id=users[i],
                                 created_at=created[i]), template
    # regions by the split points 1..9: the first byte's digit for the salted key
    if template == "{id % 10}|{id}":
        assert keyed.column("region").to_pylist() == [1, 2, 8, 9]


def test_key_rejects_name_file_and_line(tmp_path):
    job = hfilegen.Job(["--rowkey", "{id % 10}|{id}", "--out", str(tmp_path / "o"),
                        "--map", "amount=cf:amount:double", ORDERS], timestamp=1)
    b = {c: pa.array(["1", "2"]) for c in job.columns}
    b["amount"] = pa.array(["1.5", "x"])
    keyed, rejects, st = job.key(pa.RecordBatch.from_pydict(b), lines=[10, 11])
    assert keyed.num_rows == 1 and st["records_rejected"] == 1
    line = rejects.decode().rstrip("\n").split("\t")
    assert line[0] == ORDERS and line[1] == "11" and "amount" in line[2]


def test_compare_rows_is_hbase_order():
    assert hfilegen.compare_rows(b"a", b"b") < 0
    assert hfilegen.compare_rows(b"\xff", b"\x01") > 0  # unsigned
    assert hfilegen.compare_rows(b"ab", b"a") > 0       # a prefix first
    assert hfilegen.compare_rows(b"", b"") == 0


def test_bad_flag_is_refused(tmp_path):
    with pytest.raises(hfilegen.HfilegenError):
        hfilegen.Job(["--rowkey", "{id}", "--out", str(tmp_path), "--codec", "zstd", ORDERS])


@pytest.mark.parametrize("extra", [[], ["--on-duplicate", "last", "--max-file-size", "16k",
                                        "--family-option", "cf:codec=gz", "--memory", "8m"]])
def test_run_local_identical_to_build(tmp_path, extra):
    os.chdir(REPO)
    args = ["--job", "samples/jobs/orders_salt10.yaml", "--job-timestamp", "1700000000000"]
    cli, py = str(tmp_path / "cli"), str(tmp_path / "py")
    subprocess.check_call([HFG, "build"] + args + extra + ["--out", cli, "-q"])
    s = run_local(args + extra + ["--out", py])
    assert s["records_read"] == 5000
    assert tree(cli) == tree(py)
    assert not [e for e in os.listdir(tmp_path) if e.startswith(".")]


def test_failed_publish_leaves_nothing(tmp_path):
    os.chdir(REPO)
    out = tmp_path / "o"
    # every record rejected: the job fails as build fails, nothing loadable
    with pytest.raises(hfilegen.HfilegenError, match="rejected"):
        run_local(["--job", "samples/jobs/orders_salt10.yaml", "--map",
                   "status=cf:status:long", "--max-rejects", "100000", "--out", str(out)])
    assert not (out / "_SUCCESS").exists() and not (out / "manifest.json").exists()
    assert not any(f for f in os.listdir(out / "cf") if not f.startswith("_")) \
        if (out / "cf").exists() else True


@pytest.mark.parametrize("jobname,tsflag", [
    ("families_rolling_last", ["--job-timestamp", "1700000000000"]),
    ("tsv_first_marker", [])])
def test_hard_jobs_through_bindings(tmp_path, jobname, tsflag):
    """Duplicates (last/first by input order across files), rejects, gzip and TSV input,
    several families, rolling, marker rows: the bindings' pieces give build's bytes."""
    import shutil
    import sys
    data = tmp_path / "in"
    subprocess.check_call([sys.executable, os.path.join(REPO, "tests/spark/make_inputs.py"),
                           str(data), "3000"])
    for f in ("splits8.txt", "splits_long.txt"):
        shutil.copy(os.path.join(REPO, "tests/spark", f), data)
    os.chdir(data)
    jobf = os.path.join(REPO, "tests/spark/jobs", jobname + ".yaml")
    args = ["--job", jobf, "--max-file-size", "8k"] + tsflag
    cli, py = str(tmp_path / "cli"), str(tmp_path / "py")
    subprocess.check_call([HFG, "build"] + args + ["--out", cli, "-q"])
    s = run_local(args + ["--out", py])
    assert s["duplicates_dropped"] > 0
    t1, t2 = tree(cli), tree(py)
    assert sorted(t1) == sorted(t2)
    for k in t1:
        assert t1[k] == t2[k], k


DUMPS = {  # SQL dumps with NULLs, escapes, a NULL key and a bad escape (rejects)
    "mysql": ("my.txt", ["--columns", "id,a,b"],
              b"1\ta\\\tb\t\\N\n2\t\\N\tx\\\ny\n\\N\tz\tw\n7\t\\\\N\tq\n3\t\tend\\"),
    "pg-text": ("pg.txt", ["--columns", "id,a,b"],
                b"1\t\\N\t\n2\t\\\\N\tx\\ty\n\\N\tk\tv\n4\t\\101\\x42\t\\N\n"),
    "pg-csv": ("pg.csv", [], b'id,a,b\n1,,""\n2,"x\ny",\n,k,v\n'),
    "csv-null": ("n.csv", ["--null-string", "\\N"], b'id,a,b\n1,\\N,"\\N"\n\\N,a,b\n5,c,d\n'),
}


@pytest.mark.parametrize("fmt", sorted(DUMPS))
def test_dumps_through_bindings(tmp_path, fmt):
    """SQL dumps (NULL = no cell, a NULL key rejected, the servers' escapes) and
    --null-string through the batch API: build's bytes, rejects and counts."""
    name, extra, data = DUMPS[fmt]
    (tmp_path / name).write_bytes(data)
    os.chdir(tmp_path)
    args = ["--rowkey", "{id}", "--timestamp", "1", "--max-rejects", "10"] + extra + [name]
    if fmt != "csv-null":
        args = ["--format", fmt] + args
    cli, py = str(tmp_path / "cli"), str(tmp_path / "py")
    subprocess.check_call([HFG, "build"] + args + ["--out", cli, "-q"])
    s = run_local(args + ["--out", py])
    assert s["null_values"] > 0 and s["records_rejected"] >= 1
    assert tree(cli) == tree(py)


def test_dump_is_read_whole_by_spark_tasks(tmp_path):
    """--split-size cuts a big CSV at record starts, never a dump (byte ranges are for
    CSV/TSV: a range read of a dump would fail the task)."""
    from hfilegen.spark import _read_tasks
    rows = b"".join(b"%d\tvalue\\\tx\t\\N\n" % i for i in range(1, 3001))
    (tmp_path / "d.txt").write_bytes(rows)
    (tmp_path / "c.csv").write_bytes(b"id,a,b\n" + rows.replace(b"\t", b","))
    os.chdir(tmp_path)
    common = ["--rowkey", "{id}", "--out", str(tmp_path / "o"), "--timestamp", "1"]
    dump = hfilegen.Job(["--format", "mysql", "--columns", "id,a,b"] + common + ["d.txt"])
    assert _read_tasks(dump, 4096) == [(0, -1, 0, 0, 0)]
    csv = hfilegen.Job(common + ["c.csv"])
    assert len(_read_tasks(csv, 4096)) > 2


def test_blank_lines_counted_as_build_counts(tmp_path):
    """Blank lines (LF, CRLF, a last CR) are skipped and counted: a whole-file read and the
    byte ranges of --split-size each give the true count, and run_local's manifest (its
    blank_lines) is build's."""
    from hfilegen.spark import _read_tasks
    body, blanks = b"id,a\n\r\n", 1
    for i in range(1, 3001):
        body += b"%d,v%d\r\n" % (i, i)
        k = i % 7
        body += b"\n" * k + b"\r\n" * (i % 3 == 0)
        blanks += k + (i % 3 == 0)
    body += b"\r"
    blanks += 1
    (tmp_path / "c.csv").write_bytes(body)
    os.chdir(tmp_path)
    args = ["--rowkey", "{id}", "--timestamp", "1", "c.csv"]
    job = hfilegen.Job(args + ["--out", str(tmp_path / "o")])
    assert job.read_file(0)[2]["blank_lines"] == blanks
    tasks = _read_tasks(job, 4096)
    assert len(tasks) > 4
    assert sum(job.read_range(i, s, e, ln, q)[2]["blank_lines"] for i, s, e, ln, q in tasks) \
        == blanks
    job.close()
    cli, py = str(tmp_path / "cli"), str(tmp_path / "py")
    subprocess.check_call([HFG, "build"] + args + ["--out", cli, "-q"])
    s = run_local(args + ["--out", py])
    assert s["blank_lines"] == blanks and s["records_read"] == 3000
    assert tree(cli) == tree(py)

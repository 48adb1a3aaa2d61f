"""hfilegen.spark rekey checks its arguments before Spark starts, as `hfilegen rekey`
checks its own: the same exit codes (2 for a usage error or a refused re-keying, 1 for an
old table that cannot be read) and the message's substance. No SparkSession is created:
the session is replaced by one that fails the test."""
import os
import subprocess

import pytest

from hfilegen import spark, spark_rekey

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HFG = os.path.abspath(os.environ.get("HFILEGEN_BIN", os.path.join(REPO, "build", "hfilegen")))


class SparkStarted(Exception):
    pass


@pytest.fixture
def no_spark(monkeypatch):
    def session(*a, **k):
        raise SparkStarted("a SparkSession was asked for")
    monkeypatch.setattr(spark, "session", session)


def cases(tmp):
    old = str(tmp / "old")  # family folders of HFiles: a one-region old table
    base = ["--old-key", "{id}", "--rowkey", "{id % 10}|{id}", "--out", str(tmp / "o")]
    return [
        (["--from", str(tmp / "nosuch")] + base, "nosuch"),
        (["--from", old, "--snapshot", "nosuch"] + base, "no .hbase-snapshot directory"),
        (["--from", old, "--rowkey", "{id}", "--out", str(tmp / "o")], "needs --from, --old-key"),
        (["--from", old, "--map", "a=b:c"] + base, "--map is not a rekey option"),
        (["--from", old, "--on-duplicate", "last"] + base, "--on-duplicate is not a rekey"),
        (["--from", old, "--as-of", "soon"] + base, "--as-of needs epoch milliseconds"),
        (["--from", old, "--old-key", "{user}", "--rowkey", "{id}", "--out", str(tmp / "o")],
         "id"),
        (["--from", old, "--old-key", "{id", "--rowkey", "{id}", "--out", str(tmp / "o")],
         "--old-key"),
    ]


def test_refusals_before_spark_as_rekey(no_spark, capfd, tmp_path):
    csv = tmp_path / "in.csv"
    csv.write_text("id,note\n1,a\n2,b\n")
    subprocess.check_call([HFG, "build", "--rowkey", "{id}", "--out", str(tmp_path / "old"),
                           "--map", "note=d:note", "--quiet", str(csv)])
    for argv, want in cases(tmp_path):
        cli = subprocess.run([HFG, "rekey"] + argv, capture_output=True, text=True)
        rc = spark.main(["rekey"] + argv)
        err = capfd.readouterr().err
        assert rc == cli.returncode and rc in (1, 2), (argv, rc, cli.returncode, err, cli.stderr)
        assert want in err and want in cli.stderr, (argv, err, cli.stderr)
        assert not os.path.exists(tmp_path / "o"), argv


def test_the_job_opens_and_runs_with_the_check_s_options(monkeypatch, tmp_path):
    """A good command line reaches run() with rekey's own flags taken apart from build's."""
    got = {}

    class FakeSpark:
        class sparkContext:
            @staticmethod
            def setLogLevel(level):
                pass

        def stop(self):
            pass
    monkeypatch.setattr(spark, "session", lambda *a, **k: FakeSpark())

    def run(session, rekey, args, **kw):
        got.update(rekey=rekey, args=args)
        raise spark_rekey.HfilegenError("stop here")
    monkeypatch.setattr(spark_rekey, "run", run)
    csv = tmp_path / "in.csv"
    csv.write_text("id,note\n1,a\n")
    subprocess.check_call([HFG, "build", "--rowkey", "{id}", "--out", str(tmp_path / "old"),
                           "--quiet", str(csv)])
    rc = spark.main(["rekey", "--from", str(tmp_path / "old"), "--old-key", "{id}", "--raw",
                     "--as-of", "5", "--rowkey", "{id}", "--out", str(tmp_path / "o")])
    assert rc == 1
    assert got["rekey"] == {"from_dir": str(tmp_path / "old"), "snapshot": None,
                            "old_key": "{id}", "raw": True, "as_of": 5}
    assert got["args"] == ["--rowkey", "{id}", "--out", str(tmp_path / "o")]

"""hfilegen.spark checks its arguments before Spark starts, as `hfilegen build` checks its
own: the same messages and exit codes (2 for a usage error), sizes read as build reads them.
No SparkSession is created here: the session is replaced by one that fails the test."""
import os
import subprocess

import pytest

from hfilegen import spark

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HFG = os.path.abspath(os.environ.get("HFILEGEN_BIN", os.path.join(REPO, "build", "hfilegen")))
ORDERS = os.path.join(REPO, "samples", "orders.csv")
SUMMARY = dict(records_read=1, records_written=1, records_rejected=0, duplicates_dropped=0,
               records_without_cells=0, null_values=0, files=1, cells=1, timestamp=1)


class SparkStarted(Exception):
    pass


@pytest.fixture
def no_spark(monkeypatch):
    """spark.session fails: the arguments must have been refused before it."""
    def session(*a, **k):
        raise SparkStarted("a SparkSession was asked for")
    monkeypatch.setattr(spark, "session", session)


class FakeSpark:
    class sparkContext:
        @staticmethod
        def setLogLevel(level):
            pass

    def stop(self):
        pass


@pytest.fixture
def fake_spark(monkeypatch):
    """A session that does nothing and a run that records its keyword arguments."""
    got = {}
    monkeypatch.setattr(spark, "session", lambda *a, **k: FakeSpark())

    def run(session, args, **kw):
        got.update(kw, args=args)
        return dict(SUMMARY)
    monkeypatch.setattr(spark, "run", run)
    return got


@pytest.mark.parametrize("size", ["256x", "0", "-1", "1e3", "256 m", "", "0x10", "1.5", "m",
                                  "256mbb", " 256m"])
def test_bad_split_size_is_refused_before_spark(no_spark, capfd, tmp_path, size):
    rc = spark.main(["--split-size", size, "--rowkey", "{id}", "--out", str(tmp_path / "o"),
                     ORDERS])
    err = capfd.readouterr().err
    assert rc == 2, err
    assert "hfilegen spark: --split-size %s: expected a size (e.g. 256m)\n" % size in err


@pytest.mark.parametrize("size,want", [("256mb", 256 << 20), ("256m", 256 << 20),
                                       ("256MB", 256 << 20), ("64KB", 64 << 10),
                                       ("1.5g", 3 << 29), ("1t", 1 << 40), ("4096", 4096),
                                       ("4096b", 4096)])
def test_split_size_reads_as_build_reads_sizes(fake_spark, tmp_path, size, want):
    rc = spark.main(["--split-size", size, "--rowkey", "{id}", "--out", str(tmp_path / "o"),
                     ORDERS])
    assert rc == 0 and fake_spark["split_size"] == want


@pytest.mark.parametrize("how,k,n", [(["-"], 1, 1), (["--input", "-"], 1, 1),
                                     ([ORDERS, "-"], 2, 2)])
def test_stdin_is_refused_before_spark(no_spark, capfd, tmp_path, how, k, n):
    rc = spark.main(["--rowkey", "{id}", "--out", str(tmp_path / "o")] + how)
    err = capfd.readouterr().err
    assert rc == 2, err
    assert ("hfilegen spark: - (stdin, input %d of %d): Spark's tasks open each input by its "
            "path; give a file (hfilegen build reads stdin)\n" % (k, n)) in err


def test_a_fifo_is_refused_before_spark(no_spark, capfd, tmp_path):
    fifo = str(tmp_path / "in.csv")
    os.mkfifo(fifo)
    rc = spark.main(["--rowkey", "{id}", "--out", str(tmp_path / "o"), fifo])
    err = capfd.readouterr().err
    assert rc == 2, err
    assert "hfilegen spark: %s (input 1 of 1) is a pipe or a device" % fifo in err


@pytest.mark.parametrize("args", [
    ["--rowkey", "{id}", "--out", "OUT", ORDERS, "nope.csv"],         # an input is missing
    ["--rowkey", "{id}", "--out", "OUT", "--memory", "1k", ORDERS],   # a bad build flag
    ["--rowkey", "{id}", "--out", "OUT", "--codec", "zip", ORDERS],
    ["--out", "OUT", ORDERS],                                         # no --rowkey
    ["--rowkey", "{id}", ORDERS],                                     # no --out
    ["--rowkey", "{id}", "--out", "OUT"],                             # no input
    ["--rowkey", "x", "--out", "OUT", ORDERS],                        # a rowkey of no column
    ["--rowkey", "{id}", "--out", "OUT", "--rejects", ORDERS, ORDERS],  # rejects over an input
    ["--rowkey={id}", "--out=OUT", "--codec=zip", ORDERS],            # --flag=value, as build
    ["--rowkey={id}", "--out=OUT", "--quiet=yes", ORDERS],            # a value for no-value flag
    ["--rowkey={id}", "--out=OUT", "--split=x", ORDERS],              # a typo: did you mean
    ["--rowkey", "{id}", "--out", "OUT", "--family-option", "x:codec=gz", ORDERS],  # no column
    ["--rowkey", "{id", "--out", "OUT", ORDERS],                      # a template syntax error
])
def test_build_errors_come_before_spark_as_build_gives_them(no_spark, capfd, tmp_path, args):
    o = str(tmp_path / "o")
    args = [o if a == "OUT" else "--out=" + o if a == "--out=OUT" else a for a in args]
    rc = spark.main(args)
    err = capfd.readouterr().err
    cli = subprocess.run([HFG, "build"] + args, capture_output=True, text=True)
    assert rc == cli.returncode and rc in (1, 2), (err, cli.stderr)
    first = cli.stderr.splitlines()[0]
    assert first.startswith("hfilegen build: ") and first + "\n" in err, (first, err)
    assert not os.path.exists(str(tmp_path / "o"))


def test_gnu_flags_and_job_file_start_spark(no_spark, tmp_path):
    """--flag=value and --job=FILE read as by `hfilegen build` (the job's inputs checked)."""
    job = tmp_path / "j.yaml"
    job.write_text('rowkey: "{id}"\ninputs: [%s]\n' % ORDERS)
    with pytest.raises(SparkStarted):
        spark.main(["--split-size=1m", "--job=%s" % job, "--out=%s" % (tmp_path / "o"),
                    "--codec=gz"])


def test_good_arguments_start_spark(no_spark, tmp_path):
    with pytest.raises(SparkStarted):
        spark.main(["--split-size", "1m", "--rowkey", "{id}", "--out", str(tmp_path / "o"),
                    ORDERS])

"""bench.durable (issue 16): one durable write's CPU, made several ways, on real files.

Timings are the benchmark's to print, never a test's to assert: this checks that every way runs
and is printed (or says why it cannot run on this file system), that the SQLite way really commits
every write durably to its file, and that the bench refuses nonsense.
"""

from __future__ import annotations

import re
import sqlite3

from bench import durable


def test_bench_durable_prints_every_way_in_every_round(capsys, tmp_path):
    assert durable.main(["--writes", "20", "--warmup", "2", "--rounds", "2", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    for way in durable.WAYS:
        rows = re.findall(rf"round (\d)  {re.escape(way)} +(CPU +[\d.]+ µs +wall +[\d.]+ µs a write|not here: .+)", out)
        assert [round_ for round_, _ in rows] == ["1", "2"], (way, out)
    assert "load average" in out


def test_bench_durable_sqlite_way_commits_each_write(tmp_path):
    write, close = durable.WAYS["sqlite-full"](str(tmp_path))
    for n in range(5):
        write(n)
    close()
    connection = sqlite3.connect(tmp_path / "bench.db")
    assert connection.execute("SELECT count(*) FROM events").fetchone() == (10,)
    assert connection.execute("SELECT length FROM games").fetchone() == (10,)
    assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_bench_durable_refuses_an_unknown_way_and_a_count_of_nothing(capsys):
    assert durable.main(["--ways", "sqlite-full,floppy"]) == 2
    assert "unknown ways ['floppy']" in capsys.readouterr().err
    assert durable.main(["--writes", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err

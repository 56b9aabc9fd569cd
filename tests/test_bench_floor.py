"""bench.floor (issue 16): the stack's own cost per command, under Chronicle's figure.

Timings are the benchmark's to print, never a test's to assert: this checks that the floor's server
really makes its durable appends (two rows a command in its SQLite file, committed, the head kept),
that its clients count commands, and that a run without a store writes no file.
"""

from __future__ import annotations

import sqlite3

from bench import floor


def test_bench_floor_commits_two_rows_a_command_in_its_sqlite_file(tmp_path):
    result = floor.run_floor("sqlite", games=2, spectators=1, warmup=0.2, seconds=0.4, scratch=tmp_path)
    assert result["commands_per_s"] > 0 and result["server_cpu_us_per_command"] > 0
    [path] = tmp_path.glob("floor-*.db")
    with sqlite3.connect(path) as db:
        heads = dict(db.execute("SELECT id, head FROM games"))
        counts = dict(db.execute("SELECT game, count(*) FROM events GROUP BY game"))
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert sorted(heads) == ["g0", "g1"]
    assert all(heads[game] == counts[game] > 0 and heads[game] % 2 == 0 for game in heads), (heads, counts)
    assert journal == "wal"


def test_bench_floor_without_a_store_writes_no_file(tmp_path):
    result = floor.run_floor("none", games=1, spectators=0, warmup=0.2, seconds=0.3, scratch=tmp_path)
    assert result["commands_per_s"] > 0
    assert list(tmp_path.iterdir()) == []

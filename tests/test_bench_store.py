"""bench.store (issue 16): durable appends per second with and without group commit, on a real SQLite file.

Timings are the benchmark's to print, never a test's to assert: this checks that it runs each
shape, that the database's own count of transactions is one per append with group commit off,
and that it refuses nonsense.
"""

from __future__ import annotations

import re

from bench import store


def test_bench_store_counts_one_transaction_per_append_with_group_commit_off(capsys):
    assert store.main(["--games", "1,3", "--seconds", "0.2", "--no-group-commit"]) == 0
    out = capsys.readouterr().out
    assert "SQLite (synchronous=FULL), group commit off" in out
    rows = re.findall(r"(\d+) games: +[\d,]+ appends/s .* ([\d,]+) transactions \( *([\d.]+) appends each\)", out)
    assert [games for games, _, _ in rows] == ["1", "3"]
    assert all(each == "1.0" and int(count.replace(",", "")) > 0 for _, count, each in rows), out


def test_bench_store_with_group_commit_on_says_so(capsys):
    assert store.main(["--games", "4", "--seconds", "0.2", "--group-commit", "--sqlite-sync", "NORMAL"]) == 0
    out = capsys.readouterr().out
    assert "SQLite (synchronous=NORMAL), group commit on" in out and "4 games:" in out


def test_bench_store_catch_up_reads_the_long_game_while_the_others_append(capsys):
    assert store.main(["--games", "2", "--seconds", "0.3", "--catch-up", "50"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"2 games: .* \((\d+) reads of 50 events\)", out), out


def test_bench_store_refuses_a_shape_of_no_games(capsys):
    assert store.main(["--games", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err

"""bench.fold --corpus folds recorded logs of any game (issue 13: each game's fold against its pre-``but`` figure).

Timings are the benchmark's to print, never a test's to assert: this checks that it reads the
logs it is pointed at, counts their events, and refuses a directory without a log.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bench import fold

CORPUS = Path(__file__).parent / "corpus"


def test_bench_fold_corpus_folds_the_logs_of_two_games_and_counts_their_events(tmp_path, capsys):
    logs = [sorted((CORPUS / "skirmish" / "skirmish-2").glob("*-1.jsonl"))[0],
            sorted((CORPUS / "echo" / "echo-2").glob("*-1.jsonl"))[0]]
    for index, path in enumerate(logs):
        shutil.copy(path, tmp_path / f"{index}.jsonl")
    # A version's refusals.jsonl (refused commands, not a log) sits beside its games: it is skipped.
    shutil.copy(CORPUS / "skirmish" / "skirmish-2" / "refusals.jsonl", tmp_path / "refusals.jsonl")
    events = sum(1 for path in logs for line in path.read_text().split("\n") if line.strip())
    assert fold.main(["--corpus", str(tmp_path), "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert f"2 logs of echo echo-2, skirmish skirmish-2, {events:,} events" in out
    assert "fold (evolve only)" in out and f"({events:,} in " in out
    assert "fold after the start" in out and f"({events - 2:,} in " in out


def test_bench_fold_corpus_refuses_a_directory_without_a_log(tmp_path, capsys):
    assert fold.main(["--corpus", str(tmp_path)]) == 2
    assert "no .jsonl log under" in capsys.readouterr().err

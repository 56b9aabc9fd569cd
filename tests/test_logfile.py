"""server.logfile: JSON Lines logs read into envelopes and written back, byte for byte."""

from __future__ import annotations

import json

import pytest

from events.bots import random_step
from events.games.mecha import GAME
from events.games.mecha.model import Move
from events.log import LogError, Table
from events.rng import LoadedRng, Rng
from server import logfile, scenarios
from server.logfile import LogFileError


def played_table() -> Table:
    """A sample game with a few moves, loaded dice on one, and a command id beyond ASCII."""
    _game, scenario = scenarios.load("mecha/sample")
    table = Table.create(GAME, "t-1", scenario, 5, at="2025-01-01T00:00:00Z")
    dice = LoadedRng((1, 2), fallback=table.rng())  # MV-6c: level 3 takes two draws
    table.submit("red", Move(8), "cmd 0 \u2028 é", at="2025-01-01T00:00:01Z", rng=dice)
    chooser = Rng(5)
    for number in range(1, 6):
        seat, command = random_step(GAME, table.state, chooser)
        table.submit(seat, command, f"cmd {number}", at="2025-01-01T00:00:01Z")
    return table


def test_write_read_write_gives_the_same_bytes(tmp_path):
    table = played_table()
    first = tmp_path / "a.jsonl"
    logfile.write(first, table.envelopes)
    game, envelopes = logfile.read(first)
    assert game is GAME
    assert [envelope.to_dict() for envelope in envelopes] == [envelope.to_dict() for envelope in table.envelopes]
    second = tmp_path / "b.jsonl"
    logfile.write(second, envelopes)
    assert second.read_bytes() == first.read_bytes()
    assert first.read_bytes().count(b"\n") == len(table.envelopes)  # U+2028 stays inside its line
    assert envelopes[1].dice == (1, 2) and envelopes[1].command_id == "cmd 0 \u2028 é"


def test_one_spelling_sorted_keys_no_spaces_utf8(tmp_path):
    table = played_table()
    line = logfile.dumps(table.envelopes[1])
    assert line == json.dumps(json.loads(line), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert "é" in line and "\\u00e9" not in line


def test_restore_folds_the_read_log_to_the_same_hash(tmp_path):
    table = played_table()
    logfile.write(tmp_path / "g.jsonl", table.envelopes)
    game, envelopes = logfile.read(tmp_path / "g.jsonl")
    assert logfile.restore(game, envelopes, "g.jsonl").envelopes[-1].hash == table.envelopes[-1].hash


def test_restore_names_the_file_and_seq_of_a_wrong_hash(tmp_path):
    lines = _lines(played_table())
    lines[3]["hash"] = "0" * 64
    game, envelopes = logfile.parse(_dump(lines), "g.jsonl")
    with pytest.raises(LogError, match=r"^g\.jsonl: seq 4: the logged hash does not match"):
        logfile.restore(game, envelopes, "g.jsonl")


def _lines(table: Table) -> list[dict]:
    return [envelope.to_dict() for envelope in table.envelopes]


def _dump(lines: list) -> list[str]:
    return [line if isinstance(line, str) else json.dumps(line) for line in lines]


def _broken(change) -> list[str]:
    lines = _lines(played_table())[:4]
    change(lines)
    return _dump(lines)


def _retype(index, name):
    def change(lines):
        lines[index]["type"] = name

    return change


def _set(index, key, value):
    def change(lines):
        lines[index][key] = value

    return change


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: lines.__setitem__(2, '{"seq": 3,'), r"^g\.jsonl line 3: not valid JSON: "),
        (
            lambda lines: lines.__setitem__(2, "[1, 2]"),
            r"^g\.jsonl line 3: expected an envelope \(a JSON object\), got a list",
        ),
        (_retype(2, "Teleported"), r"^g\.jsonl line 3: \$\.data\.type: unknown event type 'Teleported'"),
        (_set(2, "seq", 5), r"^g\.jsonl line 3: seq 5 follows seq 2: expected seq 3"),
        (_set(0, "seq", 2), r"^g\.jsonl line 1: a log starts at seq 1, got seq 2"),
        (lambda lines: lines.pop(0), r"^g\.jsonl line 1: the first event must be GameStarted, got 'MechMoved'"),
        (
            lambda lines: lines[0]["data"].__setitem__("game", "chess"),
            r"^g\.jsonl line 1: \$\.data\.game: unknown game 'chess'",
        ),
        (_set(2, "game", "other"), r"^g\.jsonl line 3: game 'other' differs from 't-1' on line 1"),
        (_set(2, "surprise", 1), r"^g\.jsonl line 3: \$: envelope has unknown field 'surprise'"),
        (
            lambda lines: lines.__setitem__(2, dict(lines[0], seq=3)),
            r"^g\.jsonl line 3: GameStarted may only be the first",
        ),
    ],
    ids=[
        "bad JSON",
        "not an object",
        "unknown event type",
        "seq gap",
        "not from 1",
        "first not GameStarted",
        "unknown game",
        "two games",
        "unknown field",
        "second GameStarted",
    ],
)
def test_a_bad_line_is_refused_naming_file_and_line(change, message):
    with pytest.raises(LogFileError, match=message):
        logfile.parse(_broken(change), "g.jsonl")


def test_blank_lines_are_skipped_but_counted():
    lines = _dump(_lines(played_table())[:3])
    lines.insert(1, "")
    lines[3] = "{"
    with pytest.raises(LogFileError, match=r"^g\.jsonl line 4: not valid JSON"):
        logfile.parse(lines, "g.jsonl")


def test_an_empty_file_is_refused(tmp_path):
    (tmp_path / "e.jsonl").write_text("\n\n")
    with pytest.raises(LogFileError, match=r"e\.jsonl: the log is empty: expected a GameStarted envelope on line 1"):
        logfile.read(tmp_path / "e.jsonl")


def test_a_missing_file_is_refused_naming_it(tmp_path):
    with pytest.raises(LogFileError, match=r"none\.jsonl: cannot read: No such file"):
        logfile.read(tmp_path / "none.jsonl")


def test_a_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "b.jsonl"
    logfile.write(path, played_table().envelopes[:2])
    path.write_bytes(path.read_bytes() + b'{"seq": "\xff"}\n')
    with pytest.raises(LogFileError, match=r"b\.jsonl line 3: not UTF-8 text \(byte 0xff\)"):
        logfile.read(path)


def test_a_failed_write_leaves_no_file(tmp_path):
    with pytest.raises(LogFileError, match="cannot write"):
        logfile.write(tmp_path / "no-such-dir" / "g.jsonl", played_table().envelopes)
    assert list(tmp_path.iterdir()) == []

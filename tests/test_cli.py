"""The ``chronicle`` command line, run for real as a subprocess in a scratch directory (as pip's
functional tests do): play, replay, explain, audit, fork, and the one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from events.dice import commitment, local_secret
from events.games.mecha import GAME
from server.cli import COMMANDS, CommandInfo
from server.cli.main import main
from server.cli.status import BAD_ARGS, BAD_INPUT, DIVERGED, LOADED, SUCCESS, UNAVAILABLE, UNREVEALED

REPO = Path(__file__).resolve().parents[1]
BOARDS = REPO / "events" / "games" / "mecha" / "boards"


@pytest.fixture
def chronicle(tmp_path):
    """Run ``python -m server.cli.main ARGS`` in tmp_path (no installed console script needed)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))

    def run(*args: object) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "server.cli.main", *map(str, args)],
            cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120,
        )

    return run


def scenario(tmp_path: Path, name: str = "s.json", **changes: object) -> Path:
    """A two-seat scenario on the sample board with board and bag inlined, plus ``changes``."""
    data = {
        "game": "mecha",
        "title": "A test table",
        "board": json.loads((BOARDS / "tunguska-sample.json").read_text()),
        "bag": json.loads((BOARDS / "corruption-bag.json").read_text()),
        "seats": [{"seat": "red", "mech": "Olga & Changa"}, {"seat": "blue", "mech": "Gunter & Nacht"}],
        "rounds": 4,
    }
    data.update(changes)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def commands(tmp_path: Path, *lines: dict, name: str = "c.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_log(path: Path, envelopes: list[dict]) -> None:
    path.write_text("".join(json.dumps(envelope) + "\n" for envelope in envelopes), encoding="utf-8")


def assert_one_line_error(result: subprocess.CompletedProcess) -> str:
    assert result.returncode not in (SUCCESS, 1), result.stderr  # a named status, not a crash
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("chronicle: error: ")
    return lines[0]


# --- play, audit, replay ---------------------------------------------------------------------------


def test_random_game_audits_clean_and_replay_prints_the_last_hash(chronicle, tmp_path):
    # Check a random game is played to its end and logged.
    played = chronicle("play", "mecha/sample", "--random", 300, "--seed", 1, "--log", "g.jsonl")
    assert played.returncode == SUCCESS, played.stderr
    lines = [json.loads(line) for line in played.stdout.splitlines()]
    assert lines and all(line["ok"] for line in lines)
    log = read_log(tmp_path / "g.jsonl")
    assert log[0]["type"] == "GameStarted" and log[0]["data"]["commitment"] == commitment(local_secret(1), "local")
    assert log[-2]["type"] == "GameEnded"  # stopped early: 2 seats x 12 rounds < 300
    assert log[-1]["type"] == "SecretRevealed" and log[-1]["data"]["secret"] == local_secret(1)  # CORE-2
    assert [entry["seq"] for entry in log] == list(range(1, len(log) + 1))
    # Check the audit re-decides every command and agrees.
    audited = chronicle("audit", "g.jsonl")
    assert audited.returncode == SUCCESS, audited.stdout + audited.stderr
    assert audited.stdout.splitlines()[0] == f"{len(log)} events verified"
    # Check replay proves it reached the logged final state.
    replayed = chronicle("replay", "g.jsonl")
    assert replayed.returncode == SUCCESS, replayed.stderr
    assert json.loads(replayed.stdout) == {"seq": len(log), "hash": log[-1]["hash"]}  # what the README says
    # Check --state adds the state itself.
    with_state = chronicle("replay", "g.jsonl", "--state")
    result = json.loads(with_state.stdout)
    assert result["hash"] == log[-1]["hash"]
    assert result["state"]["over"] is True


def test_same_seed_plays_the_same_game(chronicle, tmp_path):
    first = chronicle("play", "mecha/sample", "--random", 10, "--seed", 7)
    second = chronicle("play", "mecha/sample", "--random", 10, "--seed", 7)
    other = chronicle("play", "mecha/sample", "--random", 10, "--seed", 8)
    assert first.stdout == second.stdout
    assert first.stdout != other.stdout


def test_replay_to_a_seq_prints_that_envelopes_hash(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 6, "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    result = chronicle("replay", "g.jsonl", "--to", 3)
    assert result.returncode == SUCCESS, result.stderr
    assert json.loads(result.stdout)["hash"] == log[2]["hash"]
    beyond = chronicle("replay", "g.jsonl", "--to", len(log) + 1)
    assert f"holds seq 1 to {len(log)}" in assert_one_line_error(beyond)


def test_rejected_command_is_reported_with_its_clause_and_changes_nothing(chronicle, tmp_path):
    moves = commands(
        tmp_path,
        {"seat": "blue", "type": "Move", "data": {"to": 3}},  # not blue's turn
        {"seat": "red", "type": "Move", "data": {"to": 12}},  # out of range from the Camp
        {"seat": "red", "type": "Move", "data": {"to": 3}},
    )
    result = chronicle("play", "mecha/sample", "--commands", moves, "--log", "g.jsonl")
    assert result.returncode == SUCCESS, result.stderr
    turn, reach, move = (json.loads(line) for line in result.stdout.splitlines())
    assert turn == {"seq": None, "ok": False, "rule": "MV-C3", "reason": "it is red's turn, not blue's"}
    assert reach["ok"] is False and reach["rule"] in ("MV-2", "MV-3", "MV-6") and "12" in reach["reason"]
    assert move["seq"] == 2 and move["ok"] is True
    assert [event["type"] for event in move["events"]] == ["MechMoved", "TurnEnded"]
    assert move["events"][0]["rule"] == "MV-1"
    assert len(read_log(tmp_path / "g.jsonl")) == 3


def test_repeated_command_id_is_answered_with_its_earlier_events(chronicle, tmp_path):
    move = {"seat": "red", "type": "Move", "data": {"to": 3}, "id": "m1"}
    result = chronicle("play", "mecha/sample", "--commands", commands(tmp_path, move, move), "--log", "g.jsonl")
    first, again = (json.loads(line) for line in result.stdout.splitlines())
    assert again["repeated"] is True and again["events"] == first["events"]
    assert len(read_log(tmp_path / "g.jsonl")) == 3


# --- tampering -------------------------------------------------------------------------------------


def test_audit_names_the_seq_of_a_tampered_event(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 300, "--seed", 1, "--log", "g.jsonl")  # to the end: revealed
    log = read_log(tmp_path / "g.jsonl")
    # Check a change the fold cannot see (a Mecha's recorded route, MV-C4) is still caught.
    moved = next(entry for entry in log if entry["type"] == "MechMoved" and len(entry["data"]["path"]) > 1)
    moved["data"]["path"] = list(reversed(moved["data"]["path"]))
    write_log(tmp_path / "t.jsonl", log)
    assert chronicle("replay", "t.jsonl").returncode == SUCCESS  # the state (and so the hash) is unchanged
    result = chronicle("audit", "t.jsonl")
    assert result.returncode == DIVERGED
    assert result.stdout.strip().startswith(f"seq {moved['seq']}: logged ")
    assert ", produced " in result.stdout


def test_replay_refuses_a_tampered_hash_naming_the_seq(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 6, "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    log[4]["hash"] = "0" * 64
    write_log(tmp_path / "t.jsonl", log)
    result = chronicle("replay", "t.jsonl")
    assert result.returncode == DIVERGED
    assert "seq 5: the logged hash does not match" in assert_one_line_error(result)
    assert "seq 5:" in chronicle("audit", "t.jsonl").stdout
    assert chronicle("replay", "t.jsonl", "--to", 4).returncode == SUCCESS  # the fold stops before it


def test_audit_names_a_rules_version_mismatch_whether_or_not_it_diverges(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 300, "--seed", 2, "--log", "g.jsonl")  # to the end: revealed
    log = read_log(tmp_path / "g.jsonl")
    log[0]["data"]["rules_version"] = "mecha-0"
    write_log(tmp_path / "old.jsonl", log)
    note = f"log was played under mecha-0, today's rules are {GAME.rules_version}"
    clean = chronicle("audit", "old.jsonl")
    assert clean.returncode == SUCCESS
    assert clean.stdout.splitlines()[:2] == [note, f"{len(log)} events verified"]
    log[1]["data"]["to"] = 99
    write_log(tmp_path / "old.jsonl", log)
    diverged = chronicle("audit", "old.jsonl")
    assert diverged.returncode == DIVERGED
    assert diverged.stdout.splitlines()[0] == note
    assert diverged.stdout.splitlines()[1].startswith("seq 2: logged ")


def test_audit_reports_an_event_todays_rules_cannot_fold(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    log[0]["data"]["scenario"] = "{}"
    write_log(tmp_path / "t.jsonl", log)
    result = chronicle("audit", "t.jsonl")
    assert result.returncode == DIVERGED
    assert result.stdout.startswith("seq 1: logged GameStarted folded, produced an error: $: missing required key 'game'")


# --- loaded dice -----------------------------------------------------------------------------------


def test_dice_loaded_values_are_the_drawn_tokens_and_the_log_still_audits(chronicle, tmp_path):
    """MV-6c: entering face-down Location 8 (level 3) draws until the sum reaches 3. The log replays,
    and its audit says that seq 2's outcomes were loaded, not drawn from the secret (CORE-1): exit 7."""
    table = scenario(tmp_path, start={"red": 3})
    move = commands(tmp_path, {"seat": "red", "type": "Move", "data": {"to": 8}})
    result = chronicle("play", table, "--commands", move, "--dice", "1,2", "--log", "g.jsonl")
    assert result.returncode == SUCCESS, result.stderr
    assert result.stderr == ""  # every loaded value was used
    events = json.loads(result.stdout)["events"]
    draws = [event["data"] for event in events if event["type"] == "CorruptionDrawn"]
    assert [(draw["value"], draw["total"]) for draw in draws] == [(1, 1), (2, 3)]
    log = read_log(tmp_path / "g.jsonl")
    assert log[1]["dice"] == [1, 2]
    audited = chronicle("audit", "g.jsonl")
    assert audited.returncode == LOADED, audited.stdout
    out = audited.stdout.splitlines()
    assert out[0].endswith("NOT fully verified:") and "verified" not in out[0].split(";")[0]
    assert out[1] == ("  1 command took loaded dice, chosen by whoever made the log and not drawn from the game's "
                      f"secret (CORE-1): seq {log[1]['seq']}")


def test_dice_queue_is_shared_across_commands(chronicle, tmp_path):
    table = scenario(tmp_path, start={"red": 3, "blue": 4})
    moves = commands(
        tmp_path,
        {"seat": "red", "type": "Move", "data": {"to": 7}},  # level 2: the 2 is enough
        {"seat": "blue", "type": "Move", "data": {"to": 8}},  # level 3: 1, then 2
    )
    result = chronicle("play", table, "--commands", moves, "--dice", "2,1,2,4", "--log", "g.jsonl")
    assert result.returncode == SUCCESS, result.stderr
    red, blue = (json.loads(line)["events"] for line in result.stdout.splitlines())
    assert [e["data"]["value"] for e in red if e["type"] == "CorruptionDrawn"] == [2]
    assert [e["data"]["value"] for e in blue if e["type"] == "CorruptionDrawn"] == [1, 2]
    assert [entry["dice"] for entry in read_log(tmp_path / "g.jsonl") if entry["dice"]] == [[2], [1, 2]]
    assert result.stderr.strip() == "chronicle: note: 1 loaded dice value(s) were not used: 4"
    audited = chronicle("audit", "g.jsonl")
    seqs = [entry["seq"] for entry in read_log(tmp_path / "g.jsonl") if entry["dice"]]
    assert audited.returncode == LOADED
    assert audited.stdout.splitlines()[1].endswith(f"(CORE-1): seq {seqs[0]}, {seqs[1]}")


def test_dice_value_no_token_has_is_a_one_line_error(chronicle, tmp_path):
    table = scenario(tmp_path, start={"red": 3})
    move = commands(tmp_path, {"seat": "red", "type": "Move", "data": {"to": 8}})
    result = chronicle("play", table, "--commands", move, "--dice", "17")
    assert result.returncode == BAD_ARGS
    assert "loaded value 17" in assert_one_line_error(result)


# --- bad arguments and files -----------------------------------------------------------------------


BAD_CASES = {
    "missing scenario file": (("play", "missing.json"), BAD_INPUT, "'missing.json'"),
    "scenario not JSON": (("play", "not-json.json"), BAD_INPUT, "not valid JSON"),
    "scenario not UTF-8": (("play", "latin-1.json"), BAD_INPUT, "latin-1.json: not UTF-8"),
    "board breaks MV-2": (("play", "broken.json"), BAD_INPUT, "MV-2"),
    "unknown built-in": (("play", "mecha/nope"), BAD_INPUT, "mecha/sample"),
    "bad --dice": (("play", "mecha/sample", "--dice", "5,x,2"), BAD_ARGS, "--dice"),
    "bad --random": (("play", "mecha/sample", "--random", "many"), BAD_ARGS, "--random"),
    "commands line not JSON": (("play", "mecha/sample", "--commands", "bad-line.jsonl"), BAD_INPUT, "line 2"),
    "commands line bad type": (("play", "mecha/sample", "--commands", "bad-type.jsonl"), BAD_INPUT, "line 2"),
    "commands line bad field": (("play", "mecha/sample", "--commands", "bad-field.jsonl"), BAD_INPUT, "'to'"),
    "commands line wrong kind": (("play", "mecha/sample", "--commands", "bad-kind.jsonl"), BAD_INPUT,
                                 "line 2: $.data.to: expected an integer, a string or null, got a list of 1"),
    "missing commands file": (("play", "mecha/sample", "--commands", "none.jsonl"), BAD_INPUT, "none.jsonl"),
    "no scenario": (("play",), BAD_ARGS, "SCENARIO"),
    "scenario and --continue": (("play", "mecha/sample", "--continue", "g.jsonl"), BAD_ARGS, "--continue"),
    "missing log": (("replay", "none.jsonl"), BAD_INPUT, "none.jsonl"),
    "log not JSON": (("audit", "text.jsonl"), BAD_INPUT, "text.jsonl line 1"),
    "explain without seq": (("explain", "text.jsonl"), BAD_ARGS, "SEQ"),
    "fork without --out": (("fork", "text.jsonl", "--at", "1"), BAD_ARGS, "--out"),
    "misspelt command": (("pley",), BAD_ARGS, "maybe you meant 'play'"),
    "no command": ((), BAD_ARGS, "no command"),
}


def write_bad_files(tmp_path: Path) -> None:
    """The files BAD_CASES name."""
    (tmp_path / "not-json.json").write_text("{ nope")
    (tmp_path / "latin-1.json").write_bytes('{"title": "Forêt"}'.encode("latin-1"))
    broken = json.loads((BOARDS / "tunguska-sample.json").read_text())
    broken["camp"]["adjacent"] = [2, 3]
    scenario(tmp_path, "broken.json", board=broken)
    good = {"seat": "red", "type": "Move", "data": {"to": 3}}
    (tmp_path / "bad-line.jsonl").write_text(json.dumps(good) + "\n" + '{"seat": "red", "type": \n')
    commands(tmp_path, good, {"seat": "red", "type": "Jump"}, name="bad-type.jsonl")
    commands(tmp_path, good, {"seat": "red", "type": "Move", "data": {}}, name="bad-field.jsonl")
    commands(tmp_path, good, {"seat": "blue", "type": "Move", "data": {"to": [3]}}, name="bad-kind.jsonl")
    (tmp_path / "text.jsonl").write_text("hello\n")


@pytest.mark.parametrize(("args", "status", "fact"), BAD_CASES.values(), ids=BAD_CASES.keys())
def test_bad_input_is_one_line_error_with_named_status(chronicle, tmp_path, args, status, fact):
    write_bad_files(tmp_path)
    result = chronicle(*args)
    line = assert_one_line_error(result)
    assert result.returncode == status, line
    assert fact in line
    assert result.stdout == ""


def test_debug_adds_the_traceback(chronicle, tmp_path):
    result = chronicle("--debug", "play", "missing.json")
    assert result.returncode == BAD_INPUT
    assert "Traceback" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("chronicle: error: no scenario file")


def test_help_lists_every_registered_command(chronicle, tmp_path):
    result = chronicle("--help")
    assert result.returncode == SUCCESS
    for name, info in COMMANDS.items():
        assert f"  {name}" in result.stdout and info.summary in result.stdout
    assert "serve" in COMMANDS and COMMANDS["serve"].module == "server.cli.serve"


def test_command_help_exits_zero(chronicle, tmp_path):
    for name in ("play", "replay", "explain", "audit", "fork"):
        result = chronicle(name, "--help")
        assert result.returncode == SUCCESS, result.stderr
        assert result.stdout.startswith(f"usage: chronicle {name}")


def test_command_whose_module_is_missing_is_a_one_line_error(monkeypatch, capsys):
    # (In process: `serve` lives in a module another engineer writes, so a ghost stands in for it.)
    monkeypatch.setitem(COMMANDS, "ghost", CommandInfo("server.cli.ghost", "not written yet"))
    assert main(["ghost", "--port", "1"]) == UNAVAILABLE
    err = capsys.readouterr().err
    assert err == "chronicle: error: command 'ghost' is not available: module server.cli.ghost is not installed\n"


def test_command_module_without_run_is_a_one_line_error(monkeypatch, capsys):
    monkeypatch.setitem(COMMANDS, "status", CommandInfo("server.cli.status", "a module that is not a command"))
    assert main(["status"]) == UNAVAILABLE
    assert capsys.readouterr().err == (
        "chronicle: error: command 'status' is not available: server.cli.status has no add_arguments()\n"
    )


# --- explain ---------------------------------------------------------------------------------------


def test_explain_shows_clause_text_and_the_path_trace_of_a_move(chronicle, tmp_path):
    """MV-4 / MV-9: blue enters Location 8 from the Camp through Location 3, where red stands."""
    table = scenario(tmp_path, start={"red": 3})
    moves = commands(
        tmp_path,
        {"seat": "red", "type": "Pass"},
        {"seat": "blue", "type": "Move", "data": {"to": 8}},
    )
    played = chronicle("play", table, "--commands", moves, "--log", "g.jsonl")
    seq = json.loads(played.stdout.splitlines()[1])["seq"]
    text = chronicle("explain", "g.jsonl", seq)
    assert text.returncode == SUCCESS, text.stderr
    clause = GAME.catalogue["MV-1"]
    assert f"seq {seq} came from blue's command Move" in text.stdout
    assert f"MV-1 {clause.title}: {clause.text}" in text.stdout
    assert "blue's Mecha: the Camp → 3 → 8" in text.stdout
    assert "passed through occupied Location 3 (MV-4" in text.stdout
    assert GAME.catalogue["MV-6c"].text in text.stdout  # the other events of the command are shown too
    # Check the JSON form carries the same facts.
    report = json.loads(chronicle("explain", "g.jsonl", seq, "--json").stdout)
    assert report["seat"] == "blue" and report["command"] == {"type": "Move", "data": {"to": 8}}
    moved = next(event for event in report["events"] if event["seq"] == seq)
    assert moved["type"] == "MechMoved" and moved["clause"]["text"] == clause.text
    assert any("passed through occupied Location 3" in line for line in moved["trace"])


def test_explain_seq_1_shows_what_the_game_started_from(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--seed", 42, "--game-id", "g-42", "--log", "g.jsonl")
    result = chronicle("explain", "g.jsonl", 1)
    assert result.returncode == SUCCESS, result.stderr
    assert "game 'g-42'" in result.stdout
    assert "scenario: Into the Tunguska: two Mechas" in result.stdout
    assert "seats:    red, blue" in result.stdout
    assert f"dice:     committed to {commitment(local_secret(42), 'g-42')} (CORE-1)" in result.stdout
    assert f"rules:    {GAME.rules_version}" in result.stdout


# --- fork ------------------------------------------------------------------------------------------


def test_fork_inside_a_command_is_refused_naming_its_last_seq(chronicle, tmp_path):
    move = commands(tmp_path, {"seat": "red", "type": "Move", "data": {"to": 3}})  # seq 2 and 3
    chronicle("play", "mecha/sample", "--commands", move, "--log", "g.jsonl")
    result = chronicle("fork", "g.jsonl", "--at", 2, "--out", "b.jsonl")
    assert result.returncode == BAD_ARGS
    assert "fork at seq 3, where it ends" in assert_one_line_error(result)
    assert not (tmp_path / "b.jsonl").exists()


def test_fork_refuses_to_overwrite_the_log_it_forks(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 2, "--log", "g.jsonl")
    before = (tmp_path / "g.jsonl").read_bytes()
    result = chronicle("fork", "g.jsonl", "--at", 1, "--out", "./g.jsonl")
    assert result.returncode == BAD_ARGS
    assert "is the log being forked" in assert_one_line_error(result)
    assert (tmp_path / "g.jsonl").read_bytes() == before


def test_fork_then_continue_plays_a_what_if_branch(chronicle, tmp_path):
    # Check: a game of two commands, forked after the first.
    first = {"seat": "red", "type": "Move", "data": {"to": 3}}
    chronicle("play", "mecha/sample", "--commands", commands(tmp_path, first, {"seat": "blue", "type": "Pass"}),
              "--log", "g.jsonl")
    original = (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    forked = chronicle("fork", "g.jsonl", "--at", 3, "--out", "b.jsonl")
    assert forked.returncode == SUCCESS, forked.stderr
    assert (tmp_path / "b.jsonl").read_text(encoding="utf-8") == "".join(original[:3])
    # Check: the branch continues where the fork ends, with another move for blue.
    other = commands(tmp_path, {"seat": "blue", "type": "Move", "data": {"to": 4}}, name="other.jsonl")
    branch = chronicle("play", "--continue", "b.jsonl", "--commands", other, "--log", "b2.jsonl")
    assert branch.returncode == SUCCESS, branch.stderr
    line = json.loads(branch.stdout)
    assert line["seq"] == 4 and line["events"][0]["data"]["to"] == 4
    branched = (tmp_path / "b2.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    assert branched[:3] == original[:3]
    assert chronicle("audit", "b2.jsonl").returncode == SUCCESS


def test_continue_with_nothing_to_play_says_so_and_fails(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 2, "--log", "g.jsonl")
    before = (tmp_path / "g.jsonl").read_bytes()
    # Check: neither --commands nor --random: refused before anything is read or written.
    result = chronicle("play", "--continue", "g.jsonl", "--log", "g.jsonl")
    assert result.returncode == BAD_ARGS
    assert "nothing to play" in assert_one_line_error(result)
    assert result.stdout == ""
    # Check: a commands file without a command is refused the same way, naming the file.
    empty = commands(tmp_path, name="empty.jsonl")
    result = chronicle("play", "--continue", "g.jsonl", "--commands", empty, "--log", "g.jsonl")
    assert result.returncode == BAD_ARGS
    assert "empty.jsonl holds no command" in assert_one_line_error(result)
    assert (tmp_path / "g.jsonl").read_bytes() == before


def test_play_with_no_commands_says_it_only_started_the_game(chronicle, tmp_path):
    logged = chronicle("play", "mecha/sample", "--log", "g.jsonl")
    assert logged.returncode == SUCCESS and logged.stdout == ""
    assert logged.stderr == "chronicle: note: no commands given: the game was started (1 event) and written to g.jsonl\n"
    bare = chronicle("play", "mecha/sample")
    assert bare.returncode == SUCCESS
    assert "not written (give --log OUT to keep it)" in bare.stderr


def test_continue_refuses_a_log_whose_hash_was_tampered(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 2, "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    log[-1]["hash"] = "f" * 64
    write_log(tmp_path / "t.jsonl", log)
    result = chronicle("play", "--continue", "t.jsonl", "--random", 1)
    assert result.returncode == DIVERGED
    assert f"seq {len(log)}" in assert_one_line_error(result)


# --- the game's secret (CORE-1, CORE-2) -------------------------------------------------------------


def test_core_1_audit_of_an_unfinished_game_says_what_waits_for_the_reveal(chronicle, tmp_path):
    """CORE-1: a log cut before the end folds and hashes in full, and the audit counts the commands
    that drew (exit 6), re-deciding the others; the finished game then audits in full (CORE-2)."""
    chronicle("play", "mecha/sample", "--random", 300, "--seed", 3, "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    cut = next(entry["seq"] for entry in log if entry["type"] == "CorruptionDrawn") + 1
    while log[cut - 1]["command_id"] == log[cut - 2]["command_id"]:
        cut += 1  # cut after a whole command
    write_log(tmp_path / "running.jsonl", log[: cut - 1])
    result = chronicle("audit", "running.jsonl")
    assert result.returncode == UNREVEALED, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(f"{cut - 1} events folded and hashed; ") and lines[0].endswith("NOT fully verified:")
    assert "drew random outcomes that wait for the game's secret" in lines[1]
    # Check: the whole game, its secret revealed, is verified in full.
    done = chronicle("audit", "g.jsonl")
    assert done.returncode == SUCCESS and "with dice from the revealed secret" in done.stdout


def test_core_2_a_tampered_secret_is_a_divergence(chronicle, tmp_path):
    chronicle("play", "mecha/sample", "--random", 300, "--seed", 3, "--log", "g.jsonl")
    log = read_log(tmp_path / "g.jsonl")
    log[-1]["data"]["secret"] = local_secret(4)
    write_log(tmp_path / "t.jsonl", log)
    result = chronicle("audit", "t.jsonl")
    assert result.returncode == DIVERGED
    assert result.stdout.startswith(f"seq {len(log)}: logged a secret that does not match the commitment ")
    assert result.stdout.rstrip().endswith("of GameStarted, produced one that opens the commitment")


def test_core_1_continue_takes_the_local_seed_or_says_what_is_missing(chronicle, tmp_path):
    """CORE-1: a local game's log continues with the --seed it was started with; another seed cannot draw."""
    chronicle("play", "mecha/sample", "--commands", commands(tmp_path, {"seat": "red", "type": "Pass"}),
              "--seed", 9, "--log", "g.jsonl")
    draw = commands(tmp_path, {"seat": "blue", "type": "Move", "data": {"to": 8}}, name="draw.jsonl")  # face down
    good = chronicle("play", "--continue", "g.jsonl", "--seed", 9, "--commands", draw, "--log", "g2.jsonl")
    assert good.returncode == SUCCESS, good.stderr
    assert any(event["type"] == "CorruptionDrawn" for event in json.loads(good.stdout)["events"])
    wrong = chronicle("play", "--continue", "g.jsonl", "--seed", 8, "--commands", draw)
    assert "--seed 8 is not the seed of g.jsonl" in assert_one_line_error(wrong) and wrong.returncode == BAD_ARGS
    unknown = chronicle("play", "--continue", "g.jsonl", "--commands", draw)
    assert "draws, and this log's secret is not known here" in assert_one_line_error(unknown)
    assert unknown.returncode == BAD_ARGS
    # Check: without --seed the game's secret is drawn at random: two such games differ at seq 1.
    first, second = (chronicle("play", "mecha/sample", "--log", f"{name}.jsonl") for name in ("r1", "r2"))
    assert first.returncode == second.returncode == SUCCESS
    assert read_log(tmp_path / "r1.jsonl")[0]["data"]["commitment"] != read_log(tmp_path / "r2.jsonl")[0]["data"][
        "commitment"]


def test_core_2_a_branch_of_a_finished_game_keeps_its_secret_and_audits(chronicle, tmp_path):
    """CORE-2: fork of a finished game copies SecretRevealed after the kept part, so the branch draws from
    the committed secret and audits in full."""
    chronicle("play", "mecha/sample", "--random", 300, "--log", "g.jsonl")  # a drawn secret, revealed at the end
    log = read_log(tmp_path / "g.jsonl")
    at = next(entry["seq"] for entry in log if entry["type"] == "TurnEnded")  # the end of a first command
    forked = chronicle("fork", "g.jsonl", "--at", at, "--out", "b.jsonl")
    assert forked.returncode == SUCCESS and f"follows at seq {at + 1}" in forked.stdout
    branch = read_log(tmp_path / "b.jsonl")
    assert branch[-1]["type"] == "SecretRevealed" and branch[-1]["data"] == log[-1]["data"]
    assert branch[-1]["seq"] == at + 1 and branch[-1]["hash"] == log[at - 1]["hash"]
    # Check: the branch plays on to its end, draws included, and audits in full: one reveal, no second.
    more = chronicle("play", "--continue", "b.jsonl", "--random", 300, "--log", "b2.jsonl")
    assert more.returncode == SUCCESS, more.stderr
    played = read_log(tmp_path / "b2.jsonl")
    assert any(entry["type"] == "CorruptionDrawn" for entry in played[at + 1:])
    assert sum(entry["type"] == "SecretRevealed" for entry in played) == 1
    audited = chronicle("audit", "b2.jsonl")
    assert audited.returncode == SUCCESS, audited.stdout
    assert "with dice from the revealed secret" in audited.stdout


def test_readme_commands_file_example_plays_as_written(chronicle, tmp_path):
    """The commands-file lines the README shows are a real file for mecha/sample."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("A commands file (`--commands F.jsonl`)", 1)[1].split("```json\n", 1)[1].split("```", 1)[0]
    (tmp_path / "c.jsonl").write_text(block, encoding="utf-8")
    result = chronicle("play", "mecha/sample", "--commands", "c.jsonl")
    assert result.returncode == SUCCESS, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == len(block.strip().splitlines()) == 2
    assert all(line["ok"] for line in lines), lines

"""``chronicle ask GAME QUESTION … --log LOG --seq N``: every game's rule questions on a position of a
real game (issue 15), each checked against the state the log folds to, or the events it logged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from events.games import load
from events.geometry.squares import square_name
from server import logfile
from server.cli.main import main
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS


def ask(capsys, *argv: str) -> tuple:
    status = main(["ask", *argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == SUCCESS else None), err


def play(tmp_path, capsys, scenario: str, *extra: str, commands: list | None = None) -> str:
    """A real game's log, played headless by ``chronicle play``."""
    log = tmp_path / f"{scenario.replace('/', '-')}.jsonl"
    argv = ["play", scenario, "--log", str(log), *extra]
    if commands is not None:
        given = tmp_path / "commands.jsonl"
        given.write_text("".join(json.dumps(line) + "\n" for line in commands), encoding="utf-8")
        argv += ["--commands", str(given)]
    assert main(argv) == SUCCESS
    capsys.readouterr()
    return str(log)


def folded(log: str, seq: int):
    game, envelopes = logfile.read(log)
    return logfile.restore(game, envelopes[:seq], log).state, envelopes


def test_ah_2_reachable_at_a_seq_counts_the_points_left_and_where_the_walk_stands(tmp_path, capsys):
    """AH-2 / AH-7: after red walks Graveyard → Rivertown (1 of 4 points), at that seq it can end within
    3 more points from Rivertown; the scenario's own answer still starts at the Graveyard with 4."""
    log = play(tmp_path, capsys, "arkham/crossing",
               commands=[{"seat": "red", "type": "Move", "data": {"to": "rivertown"}}])
    _game, envelopes = logfile.read(log)
    seq = len(envelopes)
    status, answer, _ = ask(capsys, "arkham", "reachable", "--log", log, "--seq", str(seq), "--investigator", "red")
    assert status == SUCCESS and (answer["log"], answer["seq"]) == (log, seq)
    assert answer["at"] == "rivertown" and answer["points_left"] == 3
    costs = {item["area"]: item["cost"] for item in answer["areas"]}
    assert costs["rivertown"] == 0 and costs["french_hill"] == 1 and max(costs.values()) == 3
    assert "library" in costs and "administration" in costs  # 3 lines away from Rivertown
    status, start, _ = ask(capsys, "arkham", "reachable", "arkham/crossing", "--investigator", "red")
    assert start["at"] == "graveyard" and "log" not in start and "points_left" not in start
    status, path, _ = ask(capsys, "arkham", "path", "--log", log, "--seq", "1", "--from", "rivertown", "--to",
                          "library")
    assert (status, path["cost"], path["seq"]) == (SUCCESS, 3, 1)


def test_ec_4_dice_at_a_seq_of_a_real_game(tmp_path, capsys):
    """EC-4: the evasion dice of a logged game's investigator, asked at its last seq (the default)."""
    log = play(tmp_path, capsys, "echo/novice-duel", "--random", "5", "--seed", "2")
    _state, envelopes = folded(log, 1)
    status, answer, _ = ask(capsys, "echo", "dice", "--log", log, "--investigator", "red", "--check", "stealth",
                            "--against", "novice-barking-fish")
    assert status == SUCCESS and answer["seq"] == len(envelopes) and answer["rule"] == "EC-4"
    status, same, _ = ask(capsys, "echo", "dice", "echo/novice-duel", "--investigator", "red", "--check", "stealth",
                          "--against", "novice-barking-fish")
    assert same["dice"] == answer["dice"]


def test_sk_c2_reachable_and_los_from_where_a_figure_stands_at_a_seq(tmp_path, capsys):
    """SK-C2 / SK-C3: after some real moves, ``reachable`` starts where the log put the figure."""
    log = play(tmp_path, capsys, "skirmish/purge", "--random", "12", "--seed", "5")
    state, envelopes = folded(log, 10**6)
    seq = len(envelopes)
    ana = next(item for item in state.figures if item.id == "ana")
    status, answer, _ = ask(capsys, "skirmish", "reachable", "--log", log, "--seq", str(seq), "--figure", "ana")
    assert status == SUCCESS and answer["from"] == square_name(ana.at) and answer["seq"] == seq
    status, sight, _ = ask(capsys, "skirmish", "los", "--log", log, "--seq", "1", "--from", "C2", "--to", "G2")
    status, start, _ = ask(capsys, "skirmish", "los", "skirmish/purge", "--from", "C2", "--to", "G2")
    assert sight["los"] == start["los"] and sight["seq"] == 1


def test_mv_1_destinations_at_every_seq_match_what_the_game_allowed(tmp_path, capsys):
    """MV-1 / MV-C4: at each seq of a real game, the seat to move may end its Move exactly where ``legal``
    lets it, by the paths the engine would walk."""
    log = play(tmp_path, capsys, "mecha/sample", "--random", "6", "--seed", "3")
    game = load("mecha")
    _state, envelopes = folded(log, 1)
    checked = 0
    for seq in range(1, len(envelopes) + 1):
        state, _ = folded(log, seq)
        if game.is_over(state) or not game.turn(state):
            continue
        seat = game.turn(state)[0]
        status, answer, _ = ask(capsys, "mecha", "destinations", "--log", log, "--seq", str(seq), "--seat", seat)
        assert status == SUCCESS and answer["seq"] == seq and answer["turn"] is True
        moves = sorted(move.to for move in game.legal(state, seat) if move.TYPE == "Move" and move.to is not None)
        assert sorted(item["location"] for item in answer["destinations"]) == moves
        checked += 1
    assert checked >= 3


def test_mv_1_destinations_of_the_sample_from_the_camp(capsys):
    """MV-1 / MV-2 / MV-3 / MV-6: from the Camp, Range 1–3, through its three exits; face-down ones reveal."""
    status, answer, _ = ask(capsys, "mecha", "destinations", "mecha/sample", "--seat", "red")
    assert status == SUCCESS and answer["at"] == "camp" and answer["range"] == [1, 3] and answer["rule"] == "MV-1"
    first = {item["location"] for item in answer["destinations"] if item["steps"] == 1}
    assert len(first) == 3  # MV-2: the Camp touches exactly 3 Locations
    from events.games.mecha import rules
    from server.cli.ask_common import initial_state

    face_up = set(initial_state("mecha/sample", "mecha", rules).face_up)
    hidden = [item for item in answer["destinations"] if item["reveals"]]
    assert hidden and all(item["location"] not in face_up for item in hidden)
    assert all(set(item["path"][:-1]) <= face_up for item in answer["destinations"])  # MV-6: never through one
    status, _, err = ask(capsys, "mecha", "destinations", "mecha/sample", "--seat", "green")
    assert status == BAD_ARGS and "no seat 'green'" in err


def test_gh_6_monster_turn_at_a_seq_is_the_plan_the_game_logged(tmp_path, capsys):
    """GH-6 / GH-7: asked just before a logged MonsterTurnPlanned, the answer is that plan: focus and options."""
    log = play(tmp_path, capsys, "gloomhaven/barrow", "--random", "40", "--seed", "3")
    _state, envelopes = folded(log, 1)
    planned = next(envelope for envelope in envelopes if envelope.type == "MonsterTurnPlanned")
    status, answer, _ = ask(capsys, "gloomhaven", "monster-turn", "--log", log, "--seq", str(planned.seq - 1))
    assert status == SUCCESS and answer["monster"] == planned.event.figure
    logged = planned.event.to_data()
    assert answer["focus"] == logged["focus"]
    assert [(o["destination"], o["path"]) for o in answer["options"]] == [
        (o["destination"], o["path"]) for o in logged["options"]]
    status, _, err = ask(capsys, "gloomhaven", "monster-turn", "--log", log, "--seq", "2")
    assert status == BAD_ARGS and "no monster's turn is under way" in err
    status, _, err = ask(capsys, "gloomhaven", "monster-turn", "--log", log, "--seq", "2", "--rules", "jotl")
    assert status == BAD_ARGS and "--rules jotl" in err


@pytest.mark.parametrize("argv, status, message", [
    (["--log", "{log}", "--seq", "0"], BAD_ARGS, "--seq 0: {log} holds seq 1 to"),
    (["--log", "{log}", "--seq", "99999"], BAD_ARGS, "--seq 99999: {log} holds seq 1 to"),
    (["mecha/sample", "--log", "{log}"], BAD_ARGS, "not both"),
    (["--seq", "3"], BAD_ARGS, "--seq: give the log it counts in with --log LOG"),
    ([], BAD_ARGS, "give a SCENARIO, or --log LOG"),
    (["--log", "{other}"], BAD_INPUT, "a mecha question needs a mecha game's log, got a echo one"),
    (["--log", "{missing}"], BAD_INPUT, "cannot read"),
])
def test_mv_c1_a_position_is_a_scenario_or_a_logs_seq_and_nothing_else(tmp_path, capsys, argv, status, message):
    """MV-C1 / STYLE habit 14: a bad position is one line naming the fault, with its status."""
    log = play(tmp_path, capsys, "mecha/sample", "--random", "2")
    other = play(tmp_path, capsys, "echo/novice-duel", "--random", "1")
    names = {"log": log, "other": other, "missing": str(tmp_path / "none.jsonl")}
    got, _, err = ask(capsys, "mecha", "destinations", *[part.format(**names) for part in argv], "--seat", "red")
    assert got == status and message.format(**names) in err, err


def test_gh_6_monster_turn_takes_a_position_file_or_a_log_not_both_nor_neither(tmp_path, capsys):
    """GH-6 / STYLE habit 14: one position per question, each fault one line with BAD_ARGS."""
    log = play(tmp_path, capsys, "gloomhaven/barrow", "--random", "3")
    position = tmp_path / "position.json"
    position.write_text("{}", encoding="utf-8")
    for argv, message in (([], "give a POSITION file, or --log LOG"),
                          ([str(position), "--log", log], "not both"),
                          (["--seq", "2"], "--seq: give the log it counts in with --log LOG")):
        status, _, err = ask(capsys, "gloomhaven", "monster-turn", *argv)
        assert status == BAD_ARGS and message in err, err


def test_gh_v1_monster_turn_at_a_seq_of_a_variant_game_follows_its_rules(capsys):
    """GH-V1 (issue 19): asked just before a corpus jotl-barrow plan that cites GH-V1 (the original rules would
    focus elsewhere), the answer is under the game's own variant: rules "jotl", the logged focus and options."""
    log = str(Path(__file__).parent / "corpus" / "gloomhaven" / "gloomhaven-4" / "jotl-barrow-random-5.jsonl")
    _state, envelopes = folded(log, 1)
    planned = next(envelope for envelope in envelopes if envelope.rule == "GH-V1")
    status, answer, _ = ask(capsys, "gloomhaven", "monster-turn", "--log", log, "--seq", str(planned.seq - 1))
    assert status == SUCCESS and answer["rules"] == "jotl" and answer["monster"] == planned.event.figure
    logged = planned.event.to_data()
    assert answer["focus"] == logged["focus"] and answer["trace"]["decided_by"] == logged["decided_by"]
    assert [o["destination"] for o in answer["options"]] == [o["destination"] for o in logged["options"]]

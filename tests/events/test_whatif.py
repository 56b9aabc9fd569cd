"""events/whatif.py: a logged game branched at a command with other dice or another command (issue 18)."""

from __future__ import annotations

import pytest

import events.games
from events.dice import command_rng, local_secret
from events.games.mecha.model import CorruptionDrawn, Move, Pass
from events.log import Table
from events.rng import LoadedRng, Rng
from events.rules import Rejection
from events.whatif import MAX_DICE, MAX_FACE, RecordingRng, drawn, parse_dice, step
from server import scenarios

SECRET = local_secret(7)


def mecha_table() -> Table:
    _name, data = scenarios.load("mecha/sample")
    return Table.create(events.games.load("mecha"), "g-whatif0000", data, SECRET)


def test_mv_6c_drawn_gives_the_logged_corruption_values_and_loaded_dice_replay_them():
    """MV-6c: the values red's Move draws from the bag, from the revealed secret, are the logged
    CorruptionDrawn values, and decided again with them as loaded dice give the same events."""
    table = mecha_table()
    game, before = table.game, table.state
    values = drawn(game, before, "red", Move(8), command_rng(SECRET, 2))
    accepted = table.submit("red", Move(8), "c1")
    logged = [e.event.value for e in accepted.envelopes if isinstance(e.event, CorruptionDrawn)]
    assert values == logged and values
    again = step(game, before, "red", Move(8), LoadedRng(tuple(values)))
    assert again.events == [e.event for e in accepted.envelopes]
    assert again.state is again.states[-1] and again.dice == tuple(values) and again.seat == "red"


def test_mv_6c_other_dice_give_another_branch_and_faults_are_words():
    """MV-6c with other values: another CorruptionDrawn; too few or impossible values are told."""
    table = mecha_table()
    game, before = table.game, table.state
    logged = drawn(game, before, "red", Move(8), command_rng(SECRET, 2))
    other = 1 if logged[0] != 1 else 2
    branch = step(game, before, "red", Move(8), LoadedRng((other,) * 6))
    assert [e.value for e in branch.events if isinstance(e, CorruptionDrawn)][0] == other
    assert "no loaded value left" in step(game, before, "red", Move(8), LoadedRng(()))
    assert "not among the options" in step(game, before, "red", Move(8), LoadedRng((99,)))


def test_mv_c3_another_command_out_of_turn_is_the_games_rejection():
    """MV-C3: a what-if is decided by the same rules: blue cannot move on red's turn."""
    table = mecha_table()
    refused = step(table.game, table.state, "blue", Pass(), Rng(1))
    assert isinstance(refused, Rejection) and refused.rule.startswith("MV-")


def test_recording_rng_keeps_each_answer_as_loaded_rng_takes_it():
    recorder = RecordingRng(Rng(5))
    answers = [recorder.roll(6), recorder.below(10), recorder.pick((("a", 1), ("b", 2)), face=lambda o: o[0]),
               recorder.pick(("x", "y"))]
    assert recorder.values[:2] == answers[:2] and recorder.values[2] == answers[2][0]
    replay = LoadedRng(tuple(recorder.values))
    assert [replay.roll(6), replay.below(10), replay.pick((("a", 1), ("b", 2)), face=lambda o: o[0]),
            replay.pick(("x", "y"))] == answers


@pytest.mark.parametrize(("text", "values", "fault"), [
    ("5, 2, 6", (5, 2, 6), None),
    ("  3 skull,1 ", (3, "skull", 1), None),
    ("", (), None),
    ("4 -1", (), "value 2 (-1) is below zero"),
    ("x" * (MAX_FACE + 1), (), f"value 1 is longer than {MAX_FACE} characters"),
    ("1 " * (MAX_DICE + 1), (), f"at most {MAX_DICE} values, got {MAX_DICE + 1}"),
    ("9" * 5000, (999999999999,), None),
    ("１", ("１",), None),
])
def test_parse_dice_bounds_and_words(text, values, fault):
    """A reader's dice: numbers and words, bounded in count and length, negatives refused."""
    assert parse_dice(text) == (values, fault)

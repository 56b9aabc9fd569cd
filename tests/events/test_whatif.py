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
    assert step(game, before, "red", Move(8), LoadedRng(())).text.startswith("no loaded value left for a draw")
    assert "not among the options" in step(game, before, "red", Move(8), LoadedRng((99,))).text


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
    found, said = parse_dice(text)
    assert (found, None if said is None else said.text) == (values, fault)


def test_core_7_a_what_if_after_an_undo_rebuilds_the_dice_from_the_commands_place_in_play():
    """CORE-7: after an undo a command's dice are keyed by its position in the effective history,
    not its seq; the Table folded from the log (as the replay page folds it) says which position
    (``Undos.position_of``), and ``drawn`` with that key gives the logged values."""
    from events.undo import AnswerUndo, AskUndo
    from tests.events.toy import TOY, Add, Roll, Rolled

    secret = "5e" * 32
    # A game whose GameStarted names no dice key: keyed as every game made before CORE-12 (CORE-7).
    table = Table.create(TOY, "g-whatif-undo", {"seats": ["a", "b", "c"]}, secret, dice_key=None)
    for seat, command, command_id in (("a", Add(1), "a-1"), ("a", Roll(3), "a-2"), ("a", AskUndo(3), "u-1"),
                                      ("b", AnswerUndo(6, True), "u-2"), ("c", AnswerUndo(6, True), "u-3"),
                                      ("a", Roll(4), "a-3")):
        assert not isinstance(table.submit(seat, command, command_id), Rejection), command
    assert [e.type for e in table.envelopes[2:]] == ["Rolled"] * 3 + ["UndoAsked", "UndoAnswered", "UndoAnswered",
                                                                      "UndoApplied"] + ["Rolled"] * 4
    # Check: the page's fold of the log knows each command's position: the taken-back roll at seq 3
    # had its seq, the roll made again at seq 10 has position 3.
    replayed = Table(TOY, "g-whatif-undo")
    states = []
    for envelope in table.envelopes:
        replayed.absorb(envelope, verify=False)
        states.append(replayed.state)
    assert (replayed.undos.position_of(3), replayed.undos.position_of(10)) == (3, 3)
    logged = [e.event.value for e in table.envelopes[9:] if isinstance(e.event, Rolled)]
    values = drawn(TOY, states[8], "a", Roll(4), command_rng(secret, replayed.undos.position_of(10)))
    assert values == logged
    # Check: the seq as the key (what the what-if used before) gives other dice, so the test can fail.
    assert drawn(TOY, states[8], "a", Roll(4), command_rng(secret, 10)) != logged

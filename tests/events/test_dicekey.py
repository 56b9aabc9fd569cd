"""CORE-12: an undo must not let a seat foresee or steer a roll (events/undo.py ``Undos.key``,
events/log.py ``Table.rng``, events/bots.py ``answer_undo``; docs/protocol.md "Dice").

The probe's cases (mecha/sample: a drawing Move 7 taken back, then Move 8 at the same position drew
Move 7's first token; skirmish: an attack taken back, a free Move, the same attack rolled anew) are
played here under both keyings: CORE-7 (a game whose GameStarted names no dice key) keeps its old
dice, CORE-12 (every game made now) keys each command by its seq in the whole log."""

from __future__ import annotations

import json

import pytest

import events.games
from events.bots import answer_undo
from events.canonical import state_hash
from events.dice import command_rng, local_secret
from events.game import GameStarted, core_words
from events.log import Envelope, LogError, Table, audit_log, decode_envelope, encode_envelope
from events.record import DecodeError
from events.rules import CORE, Rejection
from events.undo import CORE_COMMANDS as UNDO_REGISTRY
from events.undo import AnswerUndo, AskUndo, UndoAnswered, UndoAsked
from events.whatif import drawn
from server import scenarios
from tests.events.toy import TOY, Add, Roll

AT = "2026-12-01T12:00:00.000Z"


def mecha(secret: int, dice_key: object = "CORE-12") -> tuple:
    name, data = scenarios.load("mecha/sample")
    game = events.games.load(name)
    return game, Table.create(game, "g-probe00000", data, local_secret(secret), at=AT, dice_key=dice_key)


def submit(table: Table, seat: str, command: object, command_id: str) -> list:
    result = table.submit(seat, command, command_id)
    assert not isinstance(result, Rejection), result
    return result.envelopes


def undo_with_yes(table: Table, asker: str, back_to: int) -> UndoAsked:
    """``asker`` asks to take back from ``back_to``; every seat it waits for says yes (people, not bots)."""
    submit(table, asker, AskUndo(back_to), f"u-{table.seq + 1}")
    asked = table.undos.requests[max(table.undos.requests)]
    for seat in asked.needs:
        submit(table, seat, AnswerUndo(asked.seq, True), f"y-{table.seq + 1}")
    assert table.envelopes[-1].type == "UndoApplied"
    return table.envelopes[asked.seq - 1].event


def tokens(envelopes: list) -> list:
    return [(e.event.location, e.event.value) for e in envelopes if e.type == "CorruptionDrawn"]


# --- the marker ------------------------------------------------------------------------------------


def test_core_12_a_new_game_names_its_dice_key_and_hashes_as_before():
    _game, new = mecha(1)
    _game, old = mecha(1, None)
    started = new.envelopes[0]
    assert started.event.dice_key == "CORE-12" and old.envelopes[0].event.dice_key is None
    assert started.hash == old.envelopes[0].hash  # the marker is the engine's: no state holds it
    assert json.loads(encode_envelope(started))["data"]["dice_key"] == "CORE-12"
    assert "dice_key" not in json.loads(encode_envelope(old.envelopes[0]))["data"]  # spelt as before CORE-12
    assert new.undos.by_log and not old.undos.by_log
    assert CORE["CORE-12"].title and "CORE-7" in CORE["CORE-12"].text


def test_core_12_a_dice_key_that_is_not_a_clause_of_the_catalogue_is_refused_with_its_path():
    _game, table = mecha(1)
    line = json.loads(encode_envelope(table.envelopes[0]))
    for hostile in ("CORE-7", "core-12", 12, True, ""):
        line["data"]["dice_key"] = hostile
        with pytest.raises(DecodeError) as caught:
            decode_envelope(table.game, json.dumps(line))
        assert str(caught.value).startswith("$.data: event 'GameStarted': dice_key must be CORE-12"), caught.value
    line["data"]["dice_key"] = None  # null: the default, a CORE-7 game
    assert decode_envelope(table.game, json.dumps(line)).event.dice_key is None


def test_core_12_a_redraw_that_is_not_true_or_false_is_refused():
    with pytest.raises(DecodeError) as caught:
        TOY.events.build({"type": "UndoAsked", "seat": "a", "back_to": 2, "needs": ["b"], "redraw": 1})
    assert "redraw must be true or false" in str(caught.value)


# --- no foresight: the probe's steering and re-roll ---------------------------------------------------


def test_core_12_after_an_undo_of_a_draw_another_command_never_gets_the_outcome_shown():
    """The probe's steering (mecha/sample): Move 7 draws at seq 2 and is taken back; Move 8 then draws with
    the key of its own seq, never 2. Under CORE-7 (no dice key) it drew Move 7's first token every time."""
    same = {"CORE-12": 0, None: 0}
    for secret in range(1, 9):
        for key in same:
            game, table = mecha(secret, key)
            first = tokens(submit(table, "red", game.commands.by_type["Move"](7), "c-1"))
            undo_with_yes(table, "red", 2)
            before = table.state
            again = submit(table, "red", game.commands.by_type["Move"](8), "c-2")
            # Check: Move 8's logged events are those its key gives: its own seq (CORE-12), position 2 (CORE-7).
            keyed = command_rng(local_secret(secret), again[0].seq if key else 2)
            assert game.decide(before, "red", game.commands.by_type["Move"](8), keyed) == [e.event for e in again]
            same[key] += tokens(again)[0][1] == first[0][1]
    assert same[None] == 8  # CORE-7, kept for its old logs: the token shown is the token Move 8 gets
    assert same["CORE-12"] < 8


def test_core_12_no_key_is_ever_drawn_from_twice_in_a_game_with_undos():
    game, table = mecha(3)
    Move = game.commands.by_type["Move"]
    submit(table, "red", Move(7), "c-1")
    undo_with_yes(table, "red", 2)
    submit(table, "red", Move(2), "c-2")  # face up: a free move first (the probe's re-roll)
    submit(table, "blue", Move(3), "c-3")
    submit(table, "red", Move(7), "c-4")
    heads = [e for i, e in enumerate(table.envelopes) if e.command_id and e.type not in ("UndoAsked", "UndoAnswered",
             "UndoApplied") and table.envelopes[i - 1].command_id != e.command_id]
    keys = [table.undos.position_of(e.seq) for e in heads]
    assert keys == [e.seq for e in heads] and len(set(keys)) == len(keys)
    # Check: under CORE-7 the free move took the position the taken-back draw had: a key used twice.
    game, old = mecha(3, None)
    for seat, command, command_id in (("red", Move(7), "c-1"),):
        submit(old, seat, command, command_id)
    undo_with_yes(old, "red", 2)
    free = submit(old, "red", Move(2), "c-2")
    assert old.undos.position_of(free[0].seq) == 2


def skirmish_attack(secret: int) -> tuple:
    """A skirmish courtyard game played at random to red's first possible attack (the probe's case)."""
    from events.bots import RandomBot
    from events.rng import Rng

    name, data = scenarios.load("skirmish/courtyard")
    game = events.games.load(name)
    table = Table.create(game, "g-probe00000", data, local_secret(secret), at=AT)
    chooser = Rng(secret)
    for step in range(300):
        seat = game.turn(table.state)[0]
        attacks = [c for c in game.legal(table.state, seat) if c.TYPE == "Attack"]
        if attacks:
            return game, table, seat, attacks[0]
        submit(table, seat, RandomBot().choose(game, table.state, seat, chooser), f"c-{step}")
    raise AssertionError("no attack within 300 commands")


def test_core_12_an_attack_taken_back_is_a_re_roll_asked_of_every_seat_in_words_that_say_so():
    """The probe's re-roll (skirmish d20 8 -> 1): an undo across an attack roll waits for every other seat
    and says the roll is drawn anew; a bot seat says no to it, citing CORE-12, and the roll stands."""
    game, table, seat, attack = skirmish_attack(0)
    rolled = submit(table, seat, attack, "a-1")
    roll = [e.event.roll for e in rolled if e.type == "AttackRolled"]
    submit(table, seat, AskUndo(rolled[0].seq), "u-1")
    asked = table.envelopes[-1]
    others = tuple(sorted(s for s in game.seats(table.state) if s != seat))
    assert asked.event == UndoAsked(seat, rolled[0].seq, others, True)
    words = core_words(asked.event)
    assert words.key == "undo.asked_redraw"
    # Check: a bot answering it says no (CORE-12), and its no refuses the request: the roll stands.
    answer, why = answer_undo(table, others[0])
    assert answer == AnswerUndo(asked.seq, False, "CORE-12")
    assert why.rule == "CORE-12" and "says no to an undo that takes back a draw" in why.reason
    said = submit(table, others[0], answer, "bot-no")
    # Check: the log says why, in the event and in its words (not only in the server's own log).
    assert [e.event for e in said] == [UndoAnswered(others[0], asked.seq, False, "CORE-12")]
    assert '"why":"CORE-12"' in encode_envelope(said[0]) and core_words(said[0].event).key == "undo.answered_no_redraw"
    assert table.undos.open is None and [e.event.roll for e in table.envelopes if e.type == "AttackRolled"] == roll
    assert answer_undo(table, others[0]) is None  # nothing open: nothing to answer


def test_core_12_a_bot_says_yes_to_an_undo_that_drew_nothing_and_no_to_one_that_drew():
    table = Table.create(TOY, "g-undo", {"seats": ["a", "b", "c"]}, "5e" * 32)
    first = submit(table, "a", Add(1), "a-1")[0].seq
    submit(table, "b", Add(2), "b-1")
    submit(table, "a", AskUndo(first), "u-1")
    request = table.undos.open
    assert request.needs == ("b",) and not request.redraw
    assert answer_undo(table, "b") == (AnswerUndo(request.seq, True), None)
    assert answer_undo(table, "c") is None  # not asked
    # Check: across a roll it waits for everyone and the bot says no.
    table = Table.create(TOY, "g-undo", {"seats": ["a", "b", "c"]}, "5e" * 32)
    rolled = submit(table, "a", Roll(2), "a-1")[0].seq
    submit(table, "a", AskUndo(rolled), "u-1")
    assert table.undos.open.redraw and table.undos.open.needs == ("b", "c")
    assert answer_undo(table, "c")[0] == AnswerUndo(table.undos.open.seq, False, "CORE-12")


def test_core_12_in_a_core_7_game_a_bot_says_no_to_a_drawing_undo_too():
    """A running CORE-7 game: its request says nothing of a redraw (that game keys as it always did), but the
    outcome it takes back is public and the asker would choose which command gets it: the bot says no."""
    table = Table.create(TOY, "g-undo", {"seats": ["a", "b"]}, "5e" * 32, dice_key=None)
    rolled = submit(table, "a", Roll(2), "a-1")[0].seq
    submit(table, "a", AskUndo(rolled), "u-1")
    assert table.envelopes[-1].event == UndoAsked("a", rolled, ("b",))  # redraw False: spelt as before
    answer, why = answer_undo(table, "b")
    assert answer.yes is False and why.rule == "CORE-12"
    assert answer.why is None  # its request does not say it draws anew, so the no cannot cite that (spelt as before)


# --- verified after the end: audit -------------------------------------------------------------------


def finished(secret: int = 1) -> Table:
    from events.bots import bot, playout
    from events.rng import Rng

    game, table = mecha(secret)
    Move = game.commands.by_type["Move"]
    submit(table, "red", Move(7), "c-1")
    undo_with_yes(table, "red", 2)
    submit(table, "red", Move(8), "c-2")
    playout(table, {seat: bot(game, "greedy") for seat in game.seats(table.state)}, Rng(1001), 5000)
    assert game.is_over(table.state) and table.revealed
    return table


def test_core_12_audit_of_a_game_with_an_undo_across_a_draw_rederives_every_die():
    table = finished()
    report = audit_log(table.game, table.envelopes)
    assert report.complete and report.revealed and report.with_dice > 0 and report.divergence is None
    # Check: the same log read as CORE-7 (its marker stripped) is caught at the request that said it draws anew,
    # and with that word stripped too, at Move 8's draw: CORE-7 keys it by position 2, not its seq.
    asked = next(e.seq for e in table.envelopes if e.type == "UndoAsked")
    stripped = [Envelope(e.game, e.seq, e.event.but(dice_key=None) if e.seq == 1 else e.event, e.seat, e.command_id,
                         e.command, e.dice, e.rule, e.hash, e.at) for e in table.envelopes]
    divergence = audit_log(table.game, stripped).divergence
    assert (divergence.seq, divergence.clause) == (asked, "CORE-12")
    stripped = [Envelope(e.game, e.seq, e.event.but(redraw=False) if e.seq == asked else e.event, e.seat,
                         e.command_id, e.command, e.dice, e.rule, e.hash, e.at) for e in stripped]
    drew = [e.seq for e in table.envelopes if e.command_id == "c-2" and e.type == "CorruptionDrawn"]
    divergence = audit_log(table.game, stripped).divergence
    assert divergence is not None and divergence.seq == drew[0], divergence


def refolded(envelopes: list, game: object) -> list:
    """The log with every hash recomputed from its (forged) events: what a forger would write."""
    reader = Table(game, envelopes[0].game)
    out = []
    for envelope in envelopes:
        reader.absorb(envelope, verify=False)
        out.append(Envelope(envelope.game, envelope.seq, envelope.event, envelope.seat, envelope.command_id,
                            envelope.command, envelope.dice, envelope.rule, state_hash(reader.state), envelope.at))
    return out


def test_core_12_a_forged_die_after_an_undo_across_a_draw_is_caught():
    table = finished()
    forged_at = next(e.seq for e in table.envelopes if e.command_id == "c-2" and e.type == "CorruptionDrawn")
    envelopes = list(table.envelopes)
    true = envelopes[forged_at - 1].event
    other = next(v for v in (1, 2, 3, 4, 5) if v != true.value)
    forged = envelopes[forged_at - 1]
    envelopes[forged_at - 1] = Envelope(forged.game, forged.seq, true.but(value=other, total=true.total - true.value
                                        + other), forged.seat, forged.command_id, forged.command, forged.dice,
                                        forged.rule, forged.hash, forged.at)
    envelopes = refolded(envelopes, table.game)
    divergence = audit_log(table.game, envelopes).divergence
    assert divergence is not None and divergence.seq == forged_at, divergence


def test_core_12_a_request_that_hides_its_redraw_is_caught_and_a_core_7_one_may_not_claim_it():
    table = finished()
    asked = next(e for e in table.envelopes if e.type == "UndoAsked")
    assert asked.event.redraw is True
    hidden = [Envelope(e.game, e.seq, e.event.but(redraw=False) if e.seq == asked.seq else e.event, e.seat,
                       e.command_id, e.command, e.dice, e.rule, e.hash, e.at) for e in table.envelopes]
    with pytest.raises(LogError) as caught:
        Table.restore(table.game, table.game_id, hidden)
    assert caught.value.rule == "CORE-12" and "draws nothing anew" in str(caught.value)
    divergence = audit_log(table.game, hidden).divergence
    assert (divergence.seq, divergence.clause) == (asked.seq, "CORE-12")
    # A CORE-7 game's request never says it draws anew: its dice are CORE-7's.
    old = Table.create(TOY, "g-undo", {"seats": ["a", "b"]}, "5e" * 32, dice_key=None)
    rolled = submit(old, "a", Roll(2), "a-1")[0].seq
    submit(old, "a", AskUndo(rolled), "u-1")
    claimed = [Envelope(e.game, e.seq, e.event.but(redraw=True) if e.type == "UndoAsked" else e.event, e.seat,
                        e.command_id, e.command, e.dice, e.rule, e.hash, e.at) for e in old.envelopes]
    with pytest.raises(LogError) as caught:
        Table.restore(TOY, "g-undo", claimed)
    assert caught.value.rule == "CORE-12"


def test_core_12_a_what_if_rebuilds_dice_from_the_commands_own_seq():
    """The dispute page's what-if (``Undos.position_of``): under CORE-12 the key of a command is its seq."""
    secret = "5e" * 32
    table = Table.create(TOY, "g-whatif-undo", {"seats": ["a", "b", "c"]}, secret)
    for seat, command, command_id in (("a", Add(1), "a-1"), ("a", Roll(3), "a-2"), ("a", AskUndo(3), "u-1"),
                                      ("b", AnswerUndo(6, True), "u-2"), ("c", AnswerUndo(6, True), "u-3"),
                                      ("a", Roll(4), "a-3")):
        assert not isinstance(table.submit(seat, command, command_id), Rejection), command
    replayed = Table(TOY, "g-whatif-undo")
    states = []
    for envelope in table.envelopes:
        replayed.absorb(envelope, verify=False)
        states.append(replayed.state)
    assert (replayed.undos.position_of(3), replayed.undos.position_of(10)) == (3, 10)
    logged = [e.event.value for e in table.envelopes[9:] if e.type == "Rolled"]
    assert drawn(TOY, states[8], "a", Roll(4), command_rng(secret, 10)) == logged
    assert drawn(TOY, states[8], "a", Roll(4), command_rng(secret, 3)) != logged  # CORE-7's key: not the log's


def test_core_12_started_events_match_the_games_start_but_for_the_marker():
    """``game.start`` is unchanged: Table.create alone adds the marker (an import compares the rest)."""
    game, table = mecha(2)
    started = game.start(json.loads(table.envelopes[0].event.scenario), table.commitment)[0]
    assert isinstance(started, GameStarted) and started.dice_key is None
    assert started.but(dice_key="CORE-12") == table.envelopes[0].event


# --- a no that says why (AnswerUndo.why, UndoAnswered.why) -------------------------------------------


def redraw_request(seats: tuple = ("a", "b", "c")) -> tuple:
    """A toy CORE-12 game whose seat a asked to take back a roll: (table, the open request)."""
    table = Table.create(TOY, "g-undo", {"seats": list(seats)}, "5e" * 32)
    rolled = submit(table, "a", Roll(2), "a-1")[0].seq
    submit(table, "a", AskUndo(rolled), "u-1")
    assert table.undos.open.redraw
    return table, table.undos.open


def test_core_6_an_answer_without_why_is_spelt_as_before_why_existed():
    """Every log made before a no could say why keeps its bytes: neither the command nor its event spells a
    ``why`` that is None, and their older data (with no ``why``) reads back as a no without one."""
    assert AnswerUndo(7, False).to_data() == {"type": "AnswerUndo", "request": 7, "yes": False}
    assert UndoAnswered("b", 7, False).to_data() == {"type": "UndoAnswered", "seat": "b", "request": 7, "yes": False}
    assert UNDO_REGISTRY.build({"type": "AnswerUndo", "request": 7, "yes": True}) == AnswerUndo(7, True, None)
    assert AnswerUndo(7, False, "CORE-12").to_data()["why"] == "CORE-12"


def test_core_12_a_person_may_say_no_citing_core_12_to_a_request_that_draws_anew():
    table, request = redraw_request()
    said = submit(table, "b", AnswerUndo(request.seq, False, "CORE-12"), "b-no")
    assert said[0].event.why == "CORE-12" and table.undos.open is None
    assert audit_log(TOY, table.envelopes).divergence is None


@pytest.mark.parametrize("answer, rule, fact", [
    (lambda seq: AnswerUndo(seq, True, "CORE-12"), "CORE-6", "only a no says why"),
    (lambda seq: AnswerUndo(seq, False, "CORE-99"), "CORE-6", "not CORE-99"),
    (lambda seq: AnswerUndo(seq, False, "x" * 100_000), "CORE-6", "not " + "x" * 40),
])
def test_core_6_a_why_that_is_not_a_clause_a_no_stands_on_is_refused(answer, rule, fact):
    table, request = redraw_request()
    refused = table.submit("b", answer(request.seq), "b-1")
    assert isinstance(refused, Rejection) and refused.rule == rule and fact in refused.reason, refused
    assert len(refused.reason) < 300  # a huge why is not echoed back whole
    assert table.undos.open is request  # nothing logged, the request still waits


def test_core_12_a_no_cannot_cite_core_12_to_a_request_that_draws_nothing_anew():
    table = Table.create(TOY, "g-undo", {"seats": ["a", "b"]}, "5e" * 32)
    first = submit(table, "a", Add(1), "a-1")[0].seq
    submit(table, "b", Add(2), "b-1")
    submit(table, "a", AskUndo(first), "u-1")
    refused = table.submit("b", AnswerUndo(table.undos.open.seq, False, "CORE-12"), "b-no")
    assert isinstance(refused, Rejection) and refused.rule == "CORE-12" and "draws nothing anew" in refused.reason


def test_core_6_a_why_of_another_kind_is_refused_with_its_path():
    with pytest.raises(DecodeError, match=r"why"):
        UNDO_REGISTRY.build({"type": "AnswerUndo", "request": 7, "yes": False, "why": 12})


def test_core_12_a_log_whose_no_claims_a_why_its_command_did_not_say_is_caught():
    """A forger adds a why to a plain no (or takes it from a cited one): the event no longer follows from the
    logged command, and the audit says where."""
    table, request = redraw_request()
    submit(table, "b", AnswerUndo(request.seq, False), "b-no")
    at = len(table.envelopes)
    envelopes = list(table.envelopes)
    plain = envelopes[at - 1]
    envelopes[at - 1] = Envelope(plain.game, plain.seq, plain.event.but(why="CORE-12"), plain.seat, plain.command_id,
                                 plain.command, plain.dice, plain.rule, plain.hash, plain.at)
    divergence = audit_log(TOY, envelopes).divergence  # the game's state is the same: its hashes still hold
    assert divergence is not None and divergence.seq == plain.seq, divergence
    assert '"why":"CORE-12"' in divergence.logged and '"why"' not in divergence.produced, str(divergence)
    # Check: and a why the request cannot bear (a plain request's no citing CORE-12, command and event alike).
    table = Table.create(TOY, "g-undo", {"seats": ["a", "b"]}, "5e" * 32)
    first = submit(table, "a", Add(1), "a-1")[0].seq
    submit(table, "b", Add(2), "b-1")
    submit(table, "a", AskUndo(first), "u-1")
    submit(table, "b", AnswerUndo(table.undos.open.seq, False), "b-no")
    envelopes = list(table.envelopes)
    plain = envelopes[-1]
    envelopes[-1] = Envelope(plain.game, plain.seq, plain.event.but(why="CORE-12"), plain.seat, plain.command_id,
                             plain.command.but(why="CORE-12"), plain.dice, plain.rule, plain.hash, plain.at)
    divergence = audit_log(TOY, envelopes).divergence
    assert divergence is not None and (divergence.seq, divergence.clause) == (plain.seq, "CORE-12"), divergence

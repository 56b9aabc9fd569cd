"""Undo with consent, in the log (issue 18; CORE-4 to CORE-7, events/undo.py), on the toy counter."""

from __future__ import annotations

import pytest

from events.canonical import state_hash
from events.dice import command_rng
from events.log import LogError, Table, audit_log
from events.record import Record
from events.rules import CORE, Rejection
from events.undo import MOST_UNDONE, AnswerUndo, AskUndo, UndoAnswered, UndoApplied, UndoAsked, reveals
from tests.events.toy import TOY, Add, Roll
from tests.test_reject_i18n import check_rejection

SEATS = {"seats": ["a", "b", "c"]}
SECRET = "5e" * 32


def table3() -> Table:
    return Table.create(TOY, "g-undo", SEATS, SECRET)


def played(table: Table, seat: str, command: Record, command_id: str) -> int:
    """Submit; the seq of the command's first event."""
    accepted = table.submit(seat, command, command_id)
    assert not isinstance(accepted, Rejection), accepted
    return accepted.envelopes[0].seq


def logged(table: Table, start: int) -> list:
    return [envelope.event for envelope in table.envelopes[start - 1:]]


def test_core_4_clauses_are_in_the_core_catalogue():
    for clause in ("CORE-4", "CORE-5", "CORE-6", "CORE-7"):
        assert CORE[clause].title and CORE[clause].text
    assert "CORE-5" in TOY.catalogue and "AskUndo" in TOY.commands and "UndoApplied" in TOY.events


def test_core_5_own_commands_since_anothers_decision_are_taken_back_at_once():
    table = table3()
    played(table, "b", Add(5), "b-1")
    before = table.state
    first = played(table, "a", Add(1), "a-1")
    played(table, "a", Add(2), "a-2")
    # Check: a's two commands since b's last decision need nobody's yes, and the state is the one before them.
    seq = played(table, "a", AskUndo(first), "u-1")
    assert logged(table, seq) == [UndoAsked("a", first, ()), UndoApplied(seq, first, ())]
    assert table.state == before and table.envelopes[-1].hash == state_hash(before)
    assert table.undos.undone.keys() == {first, first + 1}


def test_core_5_crossing_another_seats_command_waits_for_that_seats_yes():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    assert logged(table, asked) == [UndoAsked("a", first, ("b",))]
    assert table.state.total == 3  # nothing taken back yet
    seq = played(table, "b", AnswerUndo(asked, True), "u-2")
    assert logged(table, seq) == [UndoAnswered("b", asked, True), UndoApplied(asked, first, ("b",))]
    assert table.state.total == 0


def test_core_5_crossing_a_random_outcome_waits_for_every_seat():
    table = table3()
    first = played(table, "a", Roll(1), "a-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    assert logged(table, asked) == [UndoAsked("a", first, ("b", "c"), True)]  # drawn anew (CORE-12)
    played(table, "c", AnswerUndo(asked, True), "u-2")
    assert table.undos.open is not None  # b's yes is still missing
    played(table, "b", AnswerUndo(asked, True), "u-3")
    assert table.envelopes[-1].event == UndoApplied(asked, first, ("b", "c"))
    assert table.state.total == 0


def test_core_5_a_reveal_of_hidden_information_counts_as_chance():
    class LocationRevealed(Record):
        __slots__ = ()
        TYPE = "LocationRevealed"

    class Declared(Record):
        __slots__ = ()
        TYPE = "Declared"
        REVEALS = True

    assert reveals(LocationRevealed()) and reveals(Declared()) and not reveals(UndoAsked("a", 2, ()))


def test_core_7_the_same_command_made_again_rolls_the_same():
    """CORE-7, in a game whose GameStarted names no dice key (every game made before CORE-12)."""
    table = Table.create(TOY, "g-undo", SEATS, SECRET, dice_key=None)
    played(table, "a", Add(1), "a-1")
    first = played(table, "a", Roll(3), "a-2")
    rolled = [event.value for event in logged(table, first)]
    # Check: with no undo, a command's dice are keyed by its seq, as they always were (CORE-1).
    again = command_rng(SECRET, first)
    assert rolled == [again.roll() for _ in range(3)]
    asked = played(table, "a", AskUndo(first), "u-1")
    played(table, "b", AnswerUndo(asked, True), "u-2")
    played(table, "c", AnswerUndo(asked, True), "u-3")
    remade = played(table, "a", Roll(3), "a-3")
    assert remade > first
    assert [event.value for event in logged(table, remade)] == rolled


def test_core_6_a_no_refuses_and_the_same_undo_waits_for_a_command():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    played(table, "b", AnswerUndo(asked, False), "u-2")
    assert table.state.total == 3 and table.undos.requests[asked].outcome == "refused"
    again = table.submit("a", AskUndo(first), "u-3")
    assert isinstance(again, Rejection) and again.rule == "CORE-6" and "refused" in again.reason
    played(table, "c", Add(1), "c-1")
    assert played(table, "a", AskUndo(first), "u-4")  # a command came between: it may be asked again


def test_core_6_a_new_command_withdraws_the_open_request():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    played(table, "c", Add(4), "c-1")
    assert table.undos.requests[asked].outcome == "withdrawn"
    late = table.submit("b", AnswerUndo(asked, True), "u-2")
    assert (late.rule, late.reason, late.key) == ("CORE-6", f"the undo asked at seq {asked} is withdrawn (seq "
                                                  f"{asked + 1}): it takes no more answers", "reject.undo.closed")
    check_rejection(late)


@pytest.mark.parametrize("case", ["unknown seat", "own request", "not open", "anothers command", "not needed",
                                  "open already", "taken back", "twice yes", "too far"])
def test_core_4_and_core_6_refusals_name_the_fact(case):
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    if case == "unknown seat":
        refused, rule, fact = table.submit("z", AskUndo(first), "u"), "CORE-4", "there is no seat 'z'"
    elif case == "anothers command":
        refused, rule, fact = table.submit("a", AskUndo(first + 1), "u"), "CORE-4", "b's command Add"
    elif case == "not open":
        refused, rule, fact = table.submit("b", AnswerUndo(9, True), "u"), "CORE-6", "seq 9 is no undo request"
    elif case == "too far":
        for number in range(MOST_UNDONE):
            played(table, "a", Add(1), f"x-{number}")
        refused, rule, fact = table.submit("a", AskUndo(first), "u"), "CORE-4", f"at most {MOST_UNDONE}"
    elif case == "taken back":
        mine = played(table, "a", Add(1), "a-2")
        played(table, "a", AskUndo(mine), "u-0")
        refused, rule, fact = table.submit("a", AskUndo(mine), "u"), "CORE-4", "was taken back already"
    else:
        asked = played(table, "a", AskUndo(first), "u-1")
        if case == "own request":
            refused, rule, fact = table.submit("a", AnswerUndo(asked, True), "u"), "CORE-6", "its own yes"
        elif case == "not needed":
            refused, rule, fact = table.submit("c", AnswerUndo(asked, True), "u"), "CORE-6", "waits for b, not c"
        elif case == "open already":
            refused, rule, fact = table.submit("c", AskUndo(first), "u"), "CORE-6", "still open"
        else:
            played(table, "c", Add(0), "c-0")  # withdraws it
            asked = played(table, "a", AskUndo(first), "u-2")
            refused, rule, fact = table.submit("b", AnswerUndo(asked - 5, True), "u"), "CORE-6", "no undo request"
    assert isinstance(refused, Rejection), refused
    assert refused.rule == rule and fact in refused.reason, refused
    check_rejection(refused)  # a catalogue message whose English text is the reason (issue 17)


def test_core_4_no_undo_once_the_game_is_over():
    table = table3()
    first = played(table, "a", Add(100), "a-1")  # the toy game ends at 100: SecretRevealed follows (CORE-2)
    refused = table.submit("a", AskUndo(first), "u-1")
    assert refused == Rejection("CORE-4", "the game is over: nothing can be taken back once its secret is revealed",
                                "reject.undo.over")


def asked_across_b(first_command: object = Add(1)) -> tuple:
    """a plays ``first_command``, b adds 2, a asks to take its command back, b agrees: (table, first, asked)."""
    table = table3()
    first = played(table, "a", first_command, "a-1")
    played(table, "b", Add(2), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    played(table, "b", AnswerUndo(asked, True), "u-2")
    return table, first, asked


def played_with_undos() -> Table:
    table, _first, asked = asked_across_b(Roll(2))
    played(table, "c", AnswerUndo(asked, True), "u-3")
    played(table, "a", Roll(2), "a-2")
    mine = played(table, "b", Add(3), "b-2")
    played(table, "b", AskUndo(mine), "u-4")
    played(table, "c", Add(100), "c-1")
    return table


def test_core_4_restore_resume_and_audit_verify_a_game_with_undos():
    table = played_with_undos()
    restored = Table.restore(TOY, "g-undo", table.envelopes)
    assert restored.state == table.state and [e.hash for e in restored.envelopes] == [e.hash for e in table.envelopes]
    resumed = Table.resume(TOY, "g-undo", table.envelopes, table.state)
    assert resumed.undos.undone.keys() == table.undos.undone.keys()
    report = audit_log(TOY, table.envelopes)
    assert report.revealed and report.complete and report.with_dice == 2  # a-1's roll (taken back) and a-2's, report.divergence


def test_core_5_a_forged_undo_is_a_divergence_naming_its_seq_and_clause():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    # Check: a Table that skipped the consent rules (a forger's) logs an undo b never agreed to.
    table._append(UndoAsked("a", first, ()), "a", "u-1", AskUndo(first), None, None)
    table._append(UndoApplied(table.seq, first, ()), "a", "u-1", AskUndo(first), None, None)
    report = audit_log(TOY, table.envelopes, SECRET)
    assert report.divergence.seq == first + 2 and report.divergence.clause == "CORE-5", str(report.divergence)
    with pytest.raises(LogError, match=f"seq {first + 2}: the undo waits for nobody, the rules say b") as raised:
        Table.restore(TOY, "g-undo", table.envelopes)
    assert raised.value.rule == "CORE-5"


def test_core_4_an_undo_applied_without_its_yes_is_refused_on_restore():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Add(2), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    table._append(UndoApplied(asked, first, ()), None, None, None, None, None)
    report = audit_log(TOY, table.envelopes, SECRET)
    assert report.divergence.seq == asked + 1 and report.divergence.clause == "CORE-4", str(report.divergence)


def test_core_4_an_undo_far_into_a_long_game_refolds_the_states_it_let_go():
    from events.undo import KEEP_STATES

    table = table3()
    for number in range(KEEP_STATES + 20):
        played(table, "b", Add(0), f"b-{number}")  # the toy game ends at 100
    before = table.state
    first = played(table, "a", Add(1), "a-1")
    played(table, "a", Add(2), "a-2")
    assert table.undos.after[0] is None  # let go: the book keeps the newest states only
    table.undos.after[-3] = None  # the state before a-1 too: refolded from the nearest kept one
    played(table, "a", AskUndo(first), "u-1")
    assert table.state == before and table.envelopes[-1].hash == state_hash(before)


def relogged(envelopes: list, seq: int, **changes) -> list:
    """The log with envelope ``seq`` changed (its hash kept: the undo checks run before the hash's)."""
    from events.log import Envelope

    old = envelopes[seq - 1]
    fields = {name: getattr(old, name) for name in Envelope.__slots__}
    fields.update(changes)
    return envelopes[:seq - 1] + [Envelope(**fields)] + envelopes[seq:]


@pytest.mark.parametrize("forgery, rule, fact", [
    ("seat", "CORE-4", "must be logged as its seat's own command"),
    ("command", "CORE-4", "does not follow from the logged command"),
    ("no applied", "CORE-4", "UndoApplied must follow it, not Added"),
    ("applied", "CORE-4", "the rules give UndoApplied(request=4, back_to=2, agreed=('b',))"),
])
def test_core_4_forged_undo_envelopes_are_refused_on_restore_with_their_clause(forgery, rule, fact):
    table, first, asked = asked_across_b()
    envelopes = table.envelopes
    if forgery == "seat":
        envelopes = relogged(envelopes, asked, seat="b")
    elif forgery == "command":
        envelopes = relogged(envelopes, asked, command=AskUndo(first + 1))
    elif forgery == "no applied":
        envelopes = relogged(envelopes, asked + 2, event=table.envelopes[first - 1].event)
    else:
        envelopes = relogged(envelopes, asked + 2, event=UndoApplied(asked, first, ("c",)))
    with pytest.raises(LogError, match="CORE|UndoApplied|command|seat") as raised:
        Table.restore(TOY, "g-undo", envelopes)
    assert raised.value.rule == rule and fact in str(raised.value), str(raised.value)


def test_core_5_a_copy_that_withholds_a_command_accepts_the_needs_it_cannot_check():
    table = table3()
    first = played(table, "a", Add(1), "a-1")
    played(table, "b", Roll(1), "b-1")
    asked = played(table, "a", AskUndo(first), "u-1")
    assert table.envelopes[-1].event.needs == ("b", "c")  # b's roll: every other seat
    # Check: a reader from whom b's command is withheld cannot tell it drew, and takes the logged needs.
    copy = relogged(table.envelopes, first + 1, command=None)
    restored = Table.restore(TOY, "g-undo", copy)
    assert restored.undos.open.needs == ("b", "c") and restored.seq == asked


@pytest.mark.parametrize("scenario", ["mecha/sample", "arkham/other-world", "echo/novice-duel", "gloomhaven/barrow",
                                      "skirmish/courtyard"])
def test_core_4_games_with_undos_replay_for_every_seat_and_spectator(scenario):
    """CORE-4: random play with an undo every few commands, in every game; the log replays for
    restore and for each seat's and the spectator's copy (redacted where the game hides things)."""
    import events.games
    from events.bots import RandomBot
    from events.rng import Rng
    from server import scenarios

    name, data = scenarios.load(scenario)
    game = events.games.load(name)
    table = Table.create(game, "g-every", data, 3)
    chooser = Rng(5)
    for number in range(30):
        movers = [seat for seat in game.turn(table.state) if game.legal(table.state, seat)]
        if game.is_over(table.state) or not movers:
            break
        seat = movers[0]
        played(table, seat, RandomBot().choose(game, table.state, seat, chooser), f"c-{number}")
        if number % 4 == 3 and not table.revealed:
            before = table.undos.state_before(table, table.undos._index(table.undos.last_own(seat)))
            asked = played(table, seat, AskUndo(table.undos.last_own(seat)), f"u-{number}")
            for other in table.envelopes[asked - 1].event.needs:
                played(table, other, AnswerUndo(asked, True), f"a-{number}-{other}")
            assert table.state == before
    assert table.undos.undone
    over = game.is_over(table.state)
    for seat in (None,) + tuple(game.seats(table.state)):
        copy = [game.visible(envelope, seat, over) for envelope in table.envelopes]
        assert Table.restore(game, "g-every", copy).state == table.state

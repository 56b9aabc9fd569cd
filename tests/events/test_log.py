"""The log: Table (submit, idempotency, restore), envelopes on the wire, fold and audit."""

from __future__ import annotations

import json

import pytest

from events.canonical import state_hash
from events.dice import SecretNeeded, command_rng, commitment, local_secret
from events.game import GameStarted, SecretRevealed
from events.log import Accepted, Envelope, LogError, Table, audit, audit_log, command_groups, fold
from events.record import DecodeError
from events.rng import LoadedRng
from events.rules import Rejection
from tests.events.toy import GOAL, TOY, Add, Added, Broken, Count, Roll, Rolled, make

SCENARIO = {"seats": ["a"]}


def toy_table(seed: int = 5) -> Table:
    return Table.create(TOY, "g-1", SCENARIO, seed, at="2026-01-01T00:00:00Z")


def played() -> Table:
    """Check: a game with a plain command, a rolled one and a loaded one."""
    table = toy_table()
    table.submit("a", Add(2), "c-1")
    table.submit("a", Roll(2), "c-2")
    table.submit("a", Roll(1), "c-3", rng=LoadedRng((6,)))
    return table


def finished() -> Table:
    """Check: the same game played to its end, so the secret is revealed (CORE-2)."""
    table = played()
    table.submit("a", Add(GOAL), "c-4")
    assert isinstance(table.envelopes[-1].event, SecretRevealed)
    return table


def roundtrip(envelopes: list) -> list:
    return [Envelope.from_dict(TOY, json.loads(json.dumps(envelope.to_dict()))) for envelope in envelopes]


# --- Table ------------------------------------------------------------------------------------------


def test_create_logs_game_started_first():
    table = toy_table()
    committed = commitment(local_secret(5), "g-1")
    assert table.seq == 1 and table.secret == local_secret(5) and table.commitment == committed
    head = table.envelopes[0]
    assert head.event == GameStarted("toy", "toy-1", committed, ("a",), "{}", dice_key="CORE-12")  # CORE-12
    assert (head.seq, head.seat, head.command_id, head.command, head.dice, head.rule) == (1, None, None, None, None, None)
    assert head.hash == state_hash(Count(0, ("a",), committed))
    assert head.at == "2026-01-01T00:00:00Z"
    assert table.state == Count(0, ("a",), committed)


def test_submit_folds_and_logs_every_event_with_its_command():
    table = toy_table()
    result = table.submit("a", Roll(3), "c-1")
    assert isinstance(result, Accepted)
    assert [envelope.seq for envelope in result.envelopes] == [2, 3, 4]
    assert all(envelope.command == Roll(3) and envelope.command_id == "c-1" for envelope in result.envelopes)
    assert all(envelope.rule == "T-2" for envelope in result.envelopes)
    rng = command_rng(local_secret(5), 2)
    assert [envelope.event for envelope in result.envelopes] == [Rolled(rng.roll()) for _ in range(3)]
    assert table.state.total == sum(envelope.event.value for envelope in result.envelopes)
    assert result.envelopes[-1].hash == state_hash(table.state)


def test_submit_answers_a_repeated_command_id_with_its_earlier_envelopes():
    table = toy_table()
    first = table.submit("a", Add(2), "c-1")
    again = table.submit("a", Add(40), "c-1")
    assert again.envelopes == first.envelopes
    assert table.seq == 2 and table.state.total == 2


def test_a_rejection_changes_nothing():
    table = toy_table()
    result = table.submit("a", Add(-1), "c-1")
    assert result == Rejection("T-1", "cannot add -1: below 0")
    assert table.seq == 1 and "c-1" not in table.by_command
    assert isinstance(table.submit("a", Add(1), "c-1"), Accepted)


def test_loaded_dice_are_recorded_on_the_first_envelope_only():
    table = toy_table()
    result = table.submit("a", Roll(2), "c-1", rng=LoadedRng((6, 1)))
    assert [envelope.event.value for envelope in result.envelopes] == [6, 1]
    assert [envelope.dice for envelope in result.envelopes] == [(6, 1), None]


def test_decide_that_accepts_with_no_event_is_a_bug():
    table = toy_table()
    with pytest.raises(LogError, match="toy: decide accepted Broken\\(how='nothing'\\) but produced no event"):
        table.submit("a", Broken("nothing"), "c-1")


def test_unregistered_events_and_unknown_clauses_are_refused():
    table = toy_table()
    with pytest.raises(LogError, match="event type 'Unregistered' is not registered"):
        table.submit("a", Broken("unregistered"), "c-1")
    with pytest.raises(LogError, match="event Rolled cites unknown clause 'T-99'"):
        table.submit("a", Broken("uncited"), "c-2")
    assert table.seq == 1


# --- restore ----------------------------------------------------------------------------------------


def test_restore_replays_to_the_same_state_and_log():
    live = played()
    restored = Table.restore(TOY, "g-1", roundtrip(live.envelopes), secret=live.secret)
    assert restored.state == live.state
    assert restored.seq == live.seq and restored.secret == live.secret
    assert [e.hash for e in restored.envelopes] == [e.hash for e in live.envelopes]
    assert restored.by_command.keys() == live.by_command.keys()
    # Check: the restored table carries on exactly like the live one, idempotency included.
    assert restored.submit("a", Add(1), "c-1").envelopes[0].seq == 2
    assert restored.submit("a", Roll(1), "c-4").envelopes[0].event == live.submit("a", Roll(1), "c-4").envelopes[0].event


def test_resume_indexes_the_log_and_takes_the_given_state():
    """A snapshot plus its tail (server/snapshots.py): the log indexed, only GameStarted folded again."""
    live = played()
    resumed = Table.resume(TOY, "g-1", roundtrip(live.envelopes), live.state)
    assert resumed.state == live.state and resumed.seq == live.seq and resumed.commitment == live.commitment
    assert resumed.by_command.keys() == live.by_command.keys()
    assert resumed.submit("a", Add(1), "c-1").envelopes[0].seq == 2  # idempotency kept
    assert Table.resume(TOY, "g-1", live.envelopes[:1], None).state == Table.restore(TOY, "g-1", live.envelopes[:1]).state
    assert Table.resume(TOY, "g-1", [], None).seq == 0


def test_resume_refuses_a_state_that_is_not_the_logged_one_and_a_gap():
    live = played()
    with pytest.raises(LogError, match="the given state does not match the logged hash"):
        Table.resume(TOY, "g-1", live.envelopes, Table.restore(TOY, "g-1", live.envelopes[:2]).state)
    with pytest.raises(LogError, match="the log has a gap"):
        Table.resume(TOY, "g-1", [live.envelopes[0], live.envelopes[2]], live.state)


def test_resuming_and_restoring_yield_every_n_envelopes_and_the_whole_table_last():
    live = finished()
    envelopes = roundtrip(live.envelopes)
    assert len(envelopes) >= 5
    for every in (1, 2, 3, len(envelopes), len(envelopes) + 1):
        for steps in (Table.resuming(TOY, "g-1", envelopes, live.state, every=every),
                      Table.restoring(TOY, "g-1", envelopes, every=every)):
            tables = list(steps)
            # Check one step per ``every`` envelopes after the first, and the last one whole.
            assert len(tables) == 1 + (len(envelopes) - 1) // every
            last = tables[-1]
            assert last.seq == live.seq and last.state == live.state and last.revealed
            assert [envelope.seq for envelope in last.envelopes] == [envelope.seq for envelope in live.envelopes]
    assert Table.restore(TOY, "g-1", envelopes).state == Table.resume(TOY, "g-1", envelopes, live.state).state
    # Check the steps raise where restore raises: at the gap, having yielded the steps before it.
    gapped = envelopes[:3] + envelopes[4:]
    steps = Table.restoring(TOY, "g-1", gapped, every=1)
    assert [next(steps).seq for _ in range(2)] == [1, 2]
    with pytest.raises(LogError, match="seq 5 follows seq 3: the log has a gap"):
        list(steps)


def test_restore_refuses_a_gap():
    envelopes = played().envelopes
    with pytest.raises(LogError, match="seq 3 follows seq 1: the log has a gap"):
        Table.restore(TOY, "g-1", [envelopes[0], envelopes[2]])


def test_restore_refuses_a_log_that_does_not_start_with_game_started():
    envelopes = played().envelopes
    with pytest.raises(LogError, match="seq 1: a log starts with one GameStarted, got Added"):
        Table.restore(TOY, "g-1", [_with(envelopes[1], seq=1)])
    with pytest.raises(LogError, match="seq 2: a log starts with one GameStarted, got GameStarted"):
        Table.restore(TOY, "g-1", [envelopes[0], _with(envelopes[0], seq=2)])


def test_restore_refuses_a_bad_hash_unless_told_not_to_verify():
    envelopes = played().envelopes
    envelopes[2] = _with(envelopes[2], hash="0" * 64)
    with pytest.raises(LogError, match="seq 3: the logged hash does not match the replayed state"):
        Table.restore(TOY, "g-1", envelopes)
    assert Table.restore(TOY, "g-1", envelopes, verify=False).seq == len(envelopes)


def test_restore_reports_an_event_todays_rules_cannot_fold_with_its_seq():
    envelopes = played().envelopes
    envelopes[1] = _with(envelopes[1], event=Broken("x"))
    with pytest.raises(LogError, match="seq 2: today's rules cannot fold this event: TypeError: toy cannot fold Broken"):
        Table.restore(TOY, "g-1", envelopes)


def _with(envelope: Envelope, **changes) -> Envelope:
    data = {name: getattr(envelope, name) for name in Envelope.__slots__}
    data.update(changes)
    return Envelope(**data)


# --- fold and audit ---------------------------------------------------------------------------------


def test_fold_is_the_replay():
    live = played()
    assert fold(TOY, [envelope.event for envelope in live.envelopes]) == live.state
    assert fold(TOY, []) is None
    assert fold(TOY, [Added(3)], Count(1, (), "")) == Count(4, (), "")


def test_command_groups_cut_the_log_per_command():
    groups = command_groups(played().envelopes)
    assert [[envelope.seq for envelope in group] for group in groups] == [[1], [2], [3, 4], [5]]


def test_audit_accepts_an_honest_log():
    assert audit(TOY, finished().envelopes) is None
    assert audit(TOY, roundtrip(finished().envelopes)) is None
    assert audit(TOY, []) is None


def test_audit_catches_a_tampered_event():
    envelopes = finished().envelopes
    value = envelopes[2].event.value
    forged = Rolled(value % 6 + 1)
    envelopes[2] = _with(envelopes[2], event=forged)
    divergence = audit(TOY, envelopes)
    assert divergence.seq == 3
    assert divergence.logged == f'{{"rule":"T-2","type":"Rolled","value":{forged.value}}}'
    assert str(divergence).startswith("seq 3: logged {")


def test_audit_catches_a_tampered_hash():
    envelopes = finished().envelopes
    envelopes[1] = _with(envelopes[1], hash="f" * 64)
    divergence = audit(TOY, envelopes)
    assert (divergence.seq, divergence.logged) == (2, "hash ffffffffffff")
    envelopes = finished().envelopes
    envelopes[0] = _with(envelopes[0], hash="e" * 64)
    assert audit(TOY, envelopes).seq == 1


def test_audit_catches_loaded_dice_that_were_not_used():
    envelopes = finished().envelopes
    envelopes[4] = _with(envelopes[4], dice=(2,))
    divergence = audit(TOY, envelopes)
    assert divergence.seq == 5 and "produced" in str(divergence)


def test_audit_catches_missing_and_extra_events():
    envelopes = finished().envelopes
    shorter = envelopes[:3] + envelopes[4:]  # the Roll(2) command lost its second event
    divergence = audit(TOY, shorter)
    assert (divergence.seq, divergence.logged) == (4, "no event")
    assert divergence.produced.startswith('{"rule":"T-2","type":"Rolled"')
    longer = envelopes[:3] + [_with(envelopes[3], seq=4), _with(envelopes[3], seq=5)] + envelopes[-1:]
    divergence = audit(TOY, longer)
    assert (divergence.seq, divergence.produced) == (5, "no event")


def test_audit_reports_a_rules_change_that_now_rejects_or_crashes():
    envelopes = finished().envelopes

    def stricter(state, seat, command, rng):
        return Rejection("T-1", "no more adding") if command == Add(2) else TOY.decide(state, seat, command, rng)

    assert str(audit(make(stricter), envelopes)) == "seq 2: logged Add accepted, produced rejection T-1: no more adding"

    def crashing(state, seat, command, rng):
        raise RuntimeError("the rules crashed")

    assert str(audit(make(crashing), envelopes)) == "seq 2: logged Add accepted, produced an error: the rules crashed"


# --- envelopes on the wire --------------------------------------------------------------------------


def test_envelope_to_dict_is_the_wire_shape():
    envelope = played().envelopes[4]
    data = envelope.to_dict()
    assert list(data) == ["game", "seq", "type", "data", "seat", "command_id", "command", "dice", "rule", "hash", "at"]
    assert data["type"] == "Rolled" and envelope.type == "Rolled"
    assert data["data"] == {"value": 6, "rule": "T-2"}
    assert data["command"] == {"type": "Roll", "data": {"dice": 1}}
    assert data["dice"] == [6]


def test_envelope_round_trips_through_json():
    for envelope, back in zip(played().envelopes, roundtrip(played().envelopes)):
        assert back.to_dict() == envelope.to_dict()
        assert back.event == envelope.event and back.command == envelope.command


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("hash"), "$: envelope is missing 'hash'"),
        (lambda d: [d.pop("seq"), d.pop("data")], "$: envelope is missing 'seq', 'data'"),
        (lambda d: d.update(extra=1), "$: envelope has unknown field 'extra'"),
        (lambda d: d.update(seq=0), "$.seq: expected a positive integer, got 0"),
        (lambda d: d.update(seq=True), "$.seq: expected a positive integer, got True"),
        (lambda d: d.update(seq="2"), "$.seq: expected a positive integer, got '2'"),
        (lambda d: d.update(data=[]), "$.data: expected an object, got list"),
        (lambda d: d["data"].update(type="Added"), "$.data: the event's type belongs in $.type"),
        (lambda d: d.update(type="Exploded"), "$.data.type: unknown event type 'Exploded'"),
        (lambda d: d["data"].update(value=1.0), "$.data.value: floats are not allowed"),
        (lambda d: d["data"].update(colour="red"), "$.data: event 'Rolled' has no field 'colour'"),
        (lambda d: d.update(command={"type": "Roll"}), "$.command: expected {'type': ..., 'data': {...}}"),
        (lambda d: d.update(command={"type": "Roll", "data": {"type": "Add", "dice": 1}}), "$.command: expected"),
        (lambda d: d.update(command={"type": "Fly", "data": {}}), "$.command.type: unknown command type 'Fly'"),
        (lambda d: d.update(dice=[6, "1"]), "$.dice: expected a list of integers, got [6, '1']"),
        (lambda d: d.update(dice=[True]), "$.dice: expected a list of integers"),
        (lambda d: d.update(dice=6), "$.dice: expected a list of integers, got 6"),
        (lambda d: d.update(game=7), "$.game: expected a string, got 7"),
        (lambda d: d.update(hash=None), "$.hash: expected a string, got None"),
        (lambda d: d.update(seat=1), "$.seat: expected a string or null, got 1"),
        (lambda d: d.update(at=[]), "$.at: expected a string or null, got []"),
    ],
)
def test_envelope_from_dict_errors_are_clear(change, message):
    data = played().envelopes[4].to_dict()
    change(data)
    with pytest.raises(DecodeError) as caught:
        Envelope.from_dict(TOY, data)
    assert str(caught.value).startswith(message), str(caught.value)


def test_envelope_from_dict_refuses_a_non_object_and_names_where():
    with pytest.raises(DecodeError, match=r"^line 3: expected an envelope object, got list$"):
        Envelope.from_dict(TOY, [], "line 3")


def test_envelope_optional_fields_may_be_left_out():
    data = played().envelopes[1].to_dict()
    minimal = {name: data[name] for name in ("game", "seq", "type", "data", "hash")}
    envelope = Envelope.from_dict(TOY, minimal)
    assert (envelope.seat, envelope.command_id, envelope.command, envelope.dice, envelope.rule, envelope.at) == (
        None, None, None, None, None, None)


# --- the secret: reveal and audit (CORE-1, CORE-2) --------------------------------------------------


def test_core_2_the_command_that_ends_the_game_is_followed_by_the_secret():
    table = finished()
    last = table.envelopes[-1]
    assert last.event == SecretRevealed(local_secret(5)) and last.rule == "CORE-2"
    assert (last.seat, last.command_id, last.command) == (None, None, None)
    assert last.hash == table.envelopes[-2].hash  # the reveal changes no state
    assert table.revealed and table.by_command["c-4"] == [table.envelopes[-2]]
    # Check: the game being over, nothing more is revealed, whatever comes after.
    table.submit("a", Add(1), "c-5")
    assert sum(isinstance(e.event, SecretRevealed) for e in table.envelopes) == 1


def test_core_2_restore_opens_the_commitment_and_refuses_a_wrong_secret():
    envelopes = finished().envelopes
    restored = Table.restore(TOY, "g-1", roundtrip(envelopes))
    assert restored.secret == local_secret(5) and restored.revealed
    forged = envelopes[:-1] + [_with(envelopes[-1], event=SecretRevealed(local_secret(6)))]
    with pytest.raises(LogError, match="seq 7: SecretRevealed does not match the commitment"):
        Table.restore(TOY, "g-1", forged)
    with pytest.raises(LogError, match="the stored secret does not match the commitment"):
        Table.restore(TOY, "g-1", played().envelopes, secret=local_secret(6))


def test_core_1_a_table_without_the_secret_draws_nothing():
    restored = Table.restore(TOY, "g-1", played().envelopes)
    assert restored.secret is None
    assert isinstance(restored.submit("a", Add(1), "c-9"), Accepted)  # no draw, no secret needed
    with pytest.raises(SecretNeeded):
        restored.submit("a", Roll(1), "c-10")


def test_core_2_audit_of_a_finished_game_re_derives_every_die():
    report = audit_log(TOY, finished().envelopes)
    # Check: the secret's draws re-derived (Roll(2)); the loaded Roll(1) replays from its envelope's
    # dice, which the log chose: named apart, and the audit is not complete (CORE-1).
    assert report.divergence is None and report.revealed and report.over
    assert (report.events, report.redecided, report.with_dice, report.sealed, report.withheld) == (7, 4, 1, 0, 0)
    assert report.loaded == [played().by_command["c-3"][0].seq] and not report.complete
    # Check: the same game without the loaded command is verified in full.
    table = toy_table()
    table.submit("a", Add(2), "c-1")
    table.submit("a", Roll(2), "c-2")
    table.submit("a", Add(GOAL), "c-4")
    clean = audit_log(TOY, table.envelopes)
    assert clean.complete and clean.revealed and clean.loaded == [] and clean.with_dice == 1


def test_core_1_loaded_dice_are_named_even_when_their_command_also_draws_from_the_secret():
    """CORE-1: a loaded command that runs out of loaded values draws the rest from the secret: both counts."""
    table = toy_table()
    table.submit("a", Roll(2), "c-1", rng=LoadedRng((3,), fallback=table.rng()))
    table.submit("a", Add(GOAL), "c-2")
    report = audit_log(TOY, table.envelopes)
    assert report.divergence is None and report.loaded == [2] and report.with_dice == 1 and not report.complete


def test_core_2_a_swapped_secret_is_told_as_logged_against_required():
    """CORE-2: the divergence says what the log holds (a secret that does not open the commitment) and what it
    must hold, in that order; a caller's secret that does not open it is told against the log's commitment."""
    envelopes = finished().envelopes
    forged = envelopes[:-1] + [_with(envelopes[-1], event=SecretRevealed(local_secret(6)))]
    divergence = audit(TOY, forged)
    assert divergence.logged.startswith("a secret that does not match the commitment ")
    assert divergence.produced == "one that opens the commitment"
    given = audit_log(TOY, envelopes[:-1], secret=local_secret(6)).divergence
    assert (given.seq, given.logged) == (1, "a commitment")
    assert given.produced.startswith("a given secret that does not match the commitment ")


def test_core_2_audit_catches_a_tampered_die_whose_hash_was_recomputed():
    envelopes = finished().envelopes
    table = Table(TOY, "g-1")
    forged_list = list(envelopes)
    forged = Rolled(envelopes[2].event.value % 6 + 1)
    table.absorb(envelopes[0])
    table.absorb(envelopes[1])
    state = TOY.evolve(table.state, forged)
    forged_list[2] = _with(envelopes[2], event=forged, hash=state_hash(state))
    # Check: every later hash recomputed too, so only re-deciding with the secret can tell.
    for index in range(3, len(forged_list)):
        state = TOY.evolve(state, forged_list[index].event)
        forged_list[index] = _with(forged_list[index], hash=state_hash(state))
    divergence = audit(TOY, forged_list)
    assert divergence.seq == 3 and f'"value":{forged.value}' in divergence.logged


def test_core_2_audit_catches_a_tampered_secret():
    envelopes = finished().envelopes
    forged = envelopes[:-1] + [_with(envelopes[-1], event=SecretRevealed(local_secret(6)))]
    divergence = audit(TOY, forged)
    assert divergence.seq == 7 and "does not match the commitment" in divergence.logged
    assert audit(TOY, envelopes[:-1] + [_with(envelopes[-1], event=SecretRevealed("1234"))]).seq == 7


def test_core_1_audit_of_a_running_game_counts_what_waits_for_the_reveal():
    report = audit_log(TOY, played().envelopes)
    # Check: every event folded, the Add re-decided, the loaded Roll(1) re-decided from its dice,
    # the Roll(2) drew from the secret: it waits, it is not called a divergence.
    assert report.divergence is None and not report.complete and not report.revealed
    assert (report.events, report.redecided, report.with_dice, report.sealed) == (5, 2, 0, 1)
    assert report.loaded == [played().by_command["c-3"][0].seq]
    # Check: a log of commands that drew nothing is verified in full without any secret.
    table = toy_table()
    table.submit("a", Add(2), "c-1")
    assert audit_log(TOY, table.envelopes).complete


def test_core_1_audit_of_a_running_game_still_catches_what_needs_no_secret():
    envelopes = played().envelopes
    envelopes[1] = _with(envelopes[1], event=Added(3))
    assert audit(TOY, envelopes).seq == 2  # a re-decided command
    envelopes = played().envelopes
    envelopes[3] = _with(envelopes[3], hash="0" * 64)
    assert audit(TOY, envelopes).seq == 4  # a sealed command's hash


# --- one fold-and-verify, one redaction (issue 13) --------------------------------------------------


def test_absorb_is_the_one_fold_and_verify_step():
    """``absorb`` folds, checks the hash (unless told not to), indexes by command id, and refuses what
    does not follow; a refused envelope leaves the table as it was."""
    live = finished()
    table = Table(TOY, "g-1")
    for envelope in live.envelopes[:3]:
        assert table.absorb(envelope) is envelope
    assert table.seq == 3 and table.state == Table.restore(TOY, "g-1", live.envelopes[:3]).state
    assert table.by_command["c-2"] == live.envelopes[2:3] and table.commitment == live.commitment
    before = (table.state, table.seq)
    with pytest.raises(LogError, match="seq 5 follows seq 3"):
        table.absorb(live.envelopes[4])
    with pytest.raises(LogError, match="seq 4: the logged hash does not match"):
        table.absorb(_with(live.envelopes[3], hash="0" * 64))
    assert (table.state, table.seq) == before
    table.absorb(_with(live.envelopes[3], hash="0" * 64), verify=False)  # the page checks hashes itself, later
    assert table.seq == 4


def test_redacted_keeps_the_place_and_the_hash_and_drops_the_dice():
    envelope = played().envelopes[4]
    copy = envelope.redacted(Rolled(1), None)
    assert (copy.game, copy.seq, copy.seat, copy.command_id, copy.rule, copy.hash, copy.at) == (
        envelope.game, envelope.seq, envelope.seat, envelope.command_id, envelope.rule, envelope.hash, envelope.at)
    assert (copy.event, copy.command, copy.dice) == (Rolled(1), None, None) and envelope.dice == (6,)


def test_core_2_audit_names_a_gap_and_an_unknown_clause_is_not_in_the_catalogue():
    envelopes = finished().envelopes
    divergence = audit(TOY, [envelopes[0], _with(envelopes[1], seq=3)])  # the same event, one seq too far
    assert divergence.seq == 3 and "seq 3 follows seq 1: the log has a gap" in divergence.produced
    assert "CORE-2" in TOY.catalogue and TOY.catalogue["CORE-2"].title == "Secret revealed"
    assert TOY.catalogue.get("T-1").title == "Add" and TOY.catalogue.get("X-9") is None
    assert "CORE-2" not in TOY.catalogue.ids()  # the game's own clauses, as its digest lists them
    with pytest.raises(KeyError, match="no clause 'X-9'"):
        TOY.catalogue["X-9"]
    assert "SecretRevealed" in TOY.events and "SecretRevealed" not in TOY.events.names()

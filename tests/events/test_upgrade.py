"""A game moves to a newer rules version by its seats' consent (issue 19; CORE-10, CORE-11, CORE-3).

The toy of ``test_versions``: toy-2 refuses adding more than 5 at once (T-1), so a toy-1 game that
added 7 does not replay unchanged under toy-2, and only its seats may move it.
"""

from __future__ import annotations

import pytest

from events.game import RulesVersionChanged
from events.log import Envelope, LogError, Table, audit_log
from events.rules import Rejection
from events.upgrade import AnswerRulesVersion, ProposeRulesVersion, RulesVersionAnswered, RulesVersionProposed
from tests.events.test_versions import TOY_2
from tests.events.toy import GOAL, TOY, Add
from tests.test_reject_i18n import check_rejection

SEATS = ["a", "b", "c"]


def _diverging(game=TOY, seats=SEATS) -> Table:
    """A toy-1 game whose 7 (seq 3) toy-2 refuses."""
    table = Table.create(game, "g-1", {"seats": seats}, 1)
    for number, k in enumerate([1, 7], 1):
        assert not isinstance(table.submit("a", Add(k), f"c-{number}"), Rejection)
    return table


def _refused(table: Table, seat, command, clause: str, fact: str) -> None:
    before = (table.seq, table.proposal, table.game)
    result = table.submit(seat, command, f"x-{table.seq}")
    assert isinstance(result, Rejection), result
    assert result.rule == clause and fact in result.reason, result
    check_rejection(result)  # a catalogue message whose English text is the reason (issue 17)
    assert (table.seq, table.proposal, table.game) == before  # a refusal changes nothing


# --- hostile: who may propose, what, and when (CORE-10) ---------------------------------------------


def test_core_10_a_spectator_cannot_propose():
    _refused(_diverging(), None, ProposeRulesVersion("toy-2"), "CORE-10", "a spectator cannot propose")


def test_core_10_a_name_that_is_no_seat_cannot_propose():
    _refused(_diverging(), "z", ProposeRulesVersion("toy-2"), "CORE-10", "'z', not a seat of this game")


def test_core_10_a_version_that_is_not_released_cannot_be_proposed():
    _refused(_diverging(), "b", ProposeRulesVersion("toy-9"), "CORE-10", "no rules version 'toy-9'")


def test_core_10_a_version_that_is_not_newer_cannot_be_proposed():
    table = Table.create(TOY_2, "g-1", {"seats": SEATS}, 1)
    _refused(table, "b", ProposeRulesVersion("toy-2"), "CORE-10", "played under toy-2 already")
    _refused(table, "b", ProposeRulesVersion("toy-1"), "CORE-10", "toy-1 is older than toy-2")


def test_core_10_a_game_that_is_over_cannot_be_proposed_a_version():
    table = Table.create(TOY, "g-1", {"seats": SEATS}, 1)
    table.submit("a", Add(GOAL), "c-1")
    _refused(table, "a", ProposeRulesVersion("toy-2"), "CORE-10", "the game is over")


def test_core_10_one_proposal_at_a_time():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    _refused(table, "b", ProposeRulesVersion("toy-2"), "CORE-10", "seat a's proposal at seq 4 to move to toy-2 is "
             "still open")


# --- hostile: who may answer, and what (CORE-11) ----------------------------------------------------


def test_core_11_a_seat_cannot_answer_its_own_proposal():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    _refused(table, "a", AnswerRulesVersion(4, True), "CORE-11", "seat a made the proposal at seq 4")


def test_core_11_a_spectator_cannot_answer():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    _refused(table, None, AnswerRulesVersion(4, True), "CORE-11", "a spectator cannot answer")


def test_core_11_an_answer_to_no_proposal_or_another_one_or_twice_is_refused():
    table = _diverging()
    _refused(table, "b", AnswerRulesVersion(3, True), "CORE-11", "there is no open proposal")
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    _refused(table, "b", AnswerRulesVersion(3, True), "CORE-11", "the one at seq 4, not seq 3")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    _refused(table, "b", AnswerRulesVersion(4, True), "CORE-11", "seat b already said yes")


# --- the consent itself -----------------------------------------------------------------------------


def test_core_11_the_game_moves_when_every_other_seat_says_yes():
    table = _diverging()
    # Check the proposal is logged (CORE-10) and changes no state: its hash is the previous one's.
    proposed = table.submit("a", ProposeRulesVersion("toy-2"), "p-1").envelopes
    assert [e.event for e in proposed] == [RulesVersionProposed("a", "toy-1", "toy-2")]
    assert proposed[0].rule == "CORE-10" and proposed[0].seat == "a" and proposed[0].hash == table.envelopes[2].hash
    # Check one yes of two moves nothing yet.
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    assert table.game is TOY and table.proposal.yes == ("b",)
    # Check the last yes is followed by the move, which records the proposal it carries out (CORE-3).
    answered = table.submit("c", AnswerRulesVersion(4, True), "y-c").envelopes
    assert [e.event for e in answered] == [RulesVersionAnswered("c", 4, True),
                                           RulesVersionChanged("toy-1", "toy-2", 8, agreed=4)]
    assert [e.rule for e in answered] == ["CORE-11", "CORE-3"] and answered[1].seq == 7
    assert answered[1].event.to_data() == {"type": "RulesVersionChanged", "from_version": "toy-1",
                                           "to_version": "toy-2", "since_seq": 8, "agreed": 4}
    assert table.game is TOY_2 and table.proposal is None
    # Check the next command is decided under toy-2 (its T-1 refuses 7 at once).
    refused = table.submit("b", Add(7), "c-3")
    assert isinstance(refused, Rejection) and "more than 5" in refused.reason
    table.submit("b", Add(2), "c-4")
    # Check every reader follows: a restore ends under toy-2, the audit re-decides every command and
    # finds nothing, though the log does not replay unchanged under toy-2 (the 7 at seq 3).
    assert Table.restore(TOY, "g-1", table.envelopes).game is TOY_2
    report = audit_log(TOY, table.envelopes)
    assert report.divergence is None and report.redecided == 6
    assert audit_log(TOY_2, table.envelopes, follow=False).divergence.seq == 3


def test_core_11_a_no_ends_the_proposal_and_the_game_stays():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    assert table.submit("c", AnswerRulesVersion(4, False), "n-c").envelopes[0].event == \
        RulesVersionAnswered("c", 4, False)
    assert table.game is TOY and table.proposal is None
    _refused(table, "b", AnswerRulesVersion(4, True), "CORE-11", "there is no open proposal")
    # Check a new proposal may follow, and the game moves once all agree to it.
    table.submit("c", ProposeRulesVersion("toy-2"), "p-2")
    table.submit("a", AnswerRulesVersion(7, True), "y-a2")
    table.submit("b", AnswerRulesVersion(7, True), "y-b2")
    assert table.game is TOY_2 and table.envelopes[-1].event.agreed == 7
    assert audit_log(TOY, table.envelopes).divergence is None


def test_core_11_a_command_made_meanwhile_ends_the_proposal():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    table.submit("c", Add(1), "c-3")  # the game moved on before c answered
    assert table.proposal is None and table.game is TOY
    _refused(table, "c", AnswerRulesVersion(4, True), "CORE-11", "there is no open proposal")
    assert Table.restore(TOY, "g-1", table.envelopes).proposal is None


def test_core_10_a_game_of_one_seat_moves_with_its_proposal():
    table = _diverging(seats=["a"])
    logged = table.submit("a", ProposeRulesVersion("toy-2"), "p-1").envelopes
    assert [e.type for e in logged] == ["RulesVersionProposed", "RulesVersionChanged"] and table.game is TOY_2


def test_core_10_a_repeated_proposal_id_is_answered_with_its_envelopes_once():
    table = _diverging()
    first = table.submit("a", ProposeRulesVersion("toy-2"), "p-1").envelopes
    assert table.submit("a", ProposeRulesVersion("toy-2"), "p-1").envelopes == first and table.seq == 4


def test_core_10_a_restore_and_a_resume_keep_the_open_proposal():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    for copy in (Table.restore(TOY, "g-1", table.envelopes), Table.resume(TOY, "g-1", table.envelopes, table.state)):
        assert (copy.proposal.seq, copy.proposal.yes) == (4, ("b",))
        copy.submit("c", AnswerRulesVersion(4, True), "y-c")
        assert copy.game is TOY_2


# --- hostile: forged consent in a stored or imported log (CORE-3) -----------------------------------


def _but(envelope, event=None, seat="same"):
    return Envelope(envelope.game, envelope.seq, envelope.event if event is None else event,
                    envelope.seat if seat == "same" else seat, envelope.command_id, envelope.command, envelope.dice,
                    envelope.rule, envelope.hash, envelope.at)


def _agreed() -> Table:
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    table.submit("c", AnswerRulesVersion(4, True), "y-c")
    return table


def test_core_3_a_forged_move_claiming_consent_one_seat_never_gave_is_refused():
    honest = _agreed()
    # The c's yes (seq 6) dropped, the move renumbered after b's: every hash still matches (none changes).
    moved = honest.envelopes[6]
    forged = honest.envelopes[:5] + [Envelope(moved.game, 6, RulesVersionChanged("toy-1", "toy-2", 7, agreed=4),
                                              None, None, None, None, "CORE-3", moved.hash, None)]
    with pytest.raises(LogError, match="seq 6: RulesVersionChanged without the seats' consent: c did not say yes"):
        Table.restore(TOY, "g-1", forged)
    divergence = audit_log(TOY, forged).divergence
    assert divergence.seq == 6 and "c did not say yes" in divergence.produced


def test_core_3_a_forged_move_naming_no_proposal_or_another_version_is_refused():
    honest = _agreed()
    moved = honest.envelopes[6]
    for event, fact in ((moved.event.but(agreed=3), "records the seats' consent to the proposal at seq 3, but no such proposal is open"),
                        (moved.event.but(to_version="toy-9"), "moves to toy-9, but the seats agreed to toy-2")):
        with pytest.raises(LogError, match=f"seq 7: RulesVersionChanged {fact}"):
            Table.restore(TOY, "g-1", honest.envelopes[:6] + [_but(moved, event)])


def test_core_3_a_move_without_consent_of_a_diverging_game_is_a_divergence():
    table = _diverging()
    table.move_to("toy-2")  # what a forged or mistaken store would hold: no seat agreed, and the 7 diverges
    table.submit("a", Add(2), "c-3")
    divergence = audit_log(TOY, table.envelopes).divergence
    assert divergence.seq == 4 and divergence.clause == "T-1"
    assert "without the seats' consent" in divergence.logged and "diverges under it at seq 3" in divergence.produced
    # Check a game that replays unchanged may move without consent (chronicle upgrade's case).
    fine = Table.create(TOY, "g-2", {"seats": SEATS}, 1)
    fine.submit("a", Add(1), "c-1")
    fine.move_to("toy-2")
    assert audit_log(TOY, fine.envelopes).divergence is None


def test_core_10_a_forged_proposal_by_another_seat_or_from_another_version_is_refused():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    proposed = table.envelopes[3]
    cases = ((_but(proposed, seat="b"), "names seat 'a' but was sent by 'b'"),
             (_but(proposed, RulesVersionProposed("a", "toy-0", "toy-2")), "moving from toy-0"),
             (_but(proposed, RulesVersionProposed("z", "toy-1", "toy-2"), seat="z"), "not a seat of this game"))
    for envelope, fact in cases:
        with pytest.raises(LogError, match=f"seq 4: RulesVersionProposed .*{fact}"):
            Table.restore(TOY, "g-1", table.envelopes[:3] + [envelope])


def test_core_11_a_forged_answer_by_the_proposer_is_refused():
    table = _diverging()
    table.submit("a", ProposeRulesVersion("toy-2"), "p-1")
    table.submit("b", AnswerRulesVersion(4, True), "y-b")
    answered = table.envelopes[4]
    forged = _but(answered, RulesVersionAnswered("a", 4, True), seat="a")
    with pytest.raises(LogError, match="seq 5: RulesVersionAnswered refused by CORE-11: seat a made the proposal"):
        Table.restore(TOY, "g-1", table.envelopes[:4] + [forged])
    assert audit_log(TOY, table.envelopes[:4] + [forged]).divergence.seq == 5


def test_core_10_a_game_not_started_cannot_be_proposed_a_version():
    from events import upgrade

    assert upgrade.decide(TOY, None, None, "a", ProposeRulesVersion("toy-2"), 1) == Rejection(
        "CORE-10", "the game has not started", "reject.core.not_started")


def test_core_3_a_resume_from_a_snapshot_refuses_a_forged_consent_too():
    """The Room resumes a stored game from a snapshot without folding the log again: the consent is
    checked all the same (a game's seats are its final state's; it is over once its secret is out)."""
    honest = _agreed()
    moved = honest.envelopes[6]
    forged = honest.envelopes[:5] + [Envelope(moved.game, 6, RulesVersionChanged("toy-1", "toy-2", 7, agreed=4),
                                              None, None, None, None, "CORE-3", moved.hash, None)]
    with pytest.raises(LogError, match="seq 6: RulesVersionChanged without the seats' consent: c did not say yes"):
        Table.resume(TOY, "g-1", forged, honest.state)


def test_core_10_the_pages_word_the_consent_clauses_as_the_catalogue_does_in_english():
    """The play page words CORE-3/10/11 through the message catalogue (client/eventlog.py): the English
    there is the core catalogue's own, so the two cannot drift apart."""
    import json
    from pathlib import Path

    from events.rules import CORE

    english = json.loads((Path(__file__).resolve().parents[2] / "client" / "i18n" / "en.json").read_text("utf-8"))
    worded = [key.rsplit(".", 1)[1] for key in english if key.startswith("consent.clause_title.")]
    assert worded == ["CORE-3", "CORE-10", "CORE-11"]  # client/eventlog.py's CORE_WORDED
    for clause_id in worded:
        assert english[f"consent.clause_title.{clause_id}"] == CORE[clause_id].title
        assert english[f"consent.clause_text.{clause_id}"] == CORE[clause_id].text

"""Undo with consent beside the other features that landed with it (issue 18's integration review):
a rules-version move by consent (CORE-3, CORE-10, CORE-11), ``chronicle audit`` and ``explain`` of a
game with both, and Gloomhaven's sealed picks (GH-C2) when one is taken back."""

from __future__ import annotations

import json

import pytest

import events.games
import events.undo
from events.bots import bot, playout
from events.dice import local_secret
from events.log import Envelope, LogError, Table, audit_log
from events.rng import Rng
from events.rules import Rejection
from events.undo import AnswerUndo, AskUndo
from events.upgrade import AnswerRulesVersion, ProposeRulesVersion
from server import logfile, scenarios
from server.cli.main import main
from server.cli.status import DIVERGED, SUCCESS

SEED = 5


def echo_1_moved() -> Table:
    """An echo-1 game, three commands in, that its seats moved to echo-2: red proposed, blue's yes moved it."""
    echo_1 = events.games.load("echo", "echo-1")
    table = Table.create(echo_1, "g-undomoved", scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(table, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(table.state)}, Rng(1000 + SEED), 3,
            prefix="c")
    proposed = table.seq + 1
    assert not isinstance(table.submit("red", ProposeRulesVersion("echo-2"), "p-1"), Rejection)
    assert not isinstance(table.submit("blue", AnswerRulesVersion(proposed, True), "p-2"), Rejection)
    assert [e.type for e in table.envelopes[-2:]] == ["RulesVersionAnswered", "RulesVersionChanged"]
    assert table.envelopes[-1].command_id == "p-2" and table.game.rules_version == "echo-2"
    return table


def test_core_4_no_undo_takes_back_the_yes_that_moved_the_rules_version():
    """The last yes logs RulesVersionChanged under its own command id: taking back that yes, alone
    and with nobody's consent, took back the move itself (the Table staying on echo-2 meanwhile)."""
    table = echo_1_moved()
    answered, proposed = table.seq - 1, table.seq - 2
    assert table.undos.last_own("blue") is None and table.undos.last_own("red") is None  # no Undo button
    for seat, back_to in (("blue", answered), ("red", proposed)):
        refused = table.submit(seat, AskUndo(back_to), "u-1")
        assert isinstance(refused, Rejection) and refused.rule == "CORE-4", refused
        assert refused.key == "reject.undo.stops_before"
        assert refused.reason == f"seq {table.seq} (RulesVersionChanged) cannot be taken back: an undo stops before it"
    assert table.envelopes[-1].type == "RulesVersionChanged"


def test_core_4_audit_refuses_a_log_whose_undo_took_back_a_rules_move(monkeypatch, tmp_path, capsys):
    table = echo_1_moved()
    monkeypatch.setattr(events.undo, "STOPS", ())  # a forger's engine, as it was before the fix
    assert not isinstance(table.submit("blue", AskUndo(table.seq - 1), "u-1"), Rejection)
    monkeypatch.undo()
    forged = [Envelope.from_dict(events.games.load("echo", "echo-1"), json.loads(json.dumps(e.to_dict())))
              for e in table.envelopes]
    report = audit_log(events.games.load("echo", "echo-1"), forged)
    assert report.divergence is not None and report.divergence.seq == table.seq - 1, report.divergence
    with pytest.raises(LogError, match="RulesVersionChanged"):
        Table.restore(events.games.load("echo", "echo-1"), table.game_id, forged, True)
    path = tmp_path / "forged.jsonl"
    logfile.write(path, table.envelopes)
    assert main(["audit", str(path)]) == DIVERGED
    out = capsys.readouterr().out
    assert out.startswith(f"seq {table.seq - 1}: ") and "CORE-4" in out, out


def test_core_4_audit_and_explain_of_a_game_with_an_undo_and_a_rules_version_move(tmp_path, capsys):
    """An undo before the move and one after it; the game played to its end under echo-2."""
    echo_1 = events.games.load("echo", "echo-1")
    table = Table.create(echo_1, "g-undoboth1", scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(table, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(table.state)}, Rng(1000 + SEED), 3,
            prefix="c")
    last = table.envelopes[-1]
    other = next(seat for seat in echo_1.seats(table.state) if seat != last.seat)
    first_undone = table.undos.last_own(last.seat)
    table.submit(last.seat, AskUndo(first_undone), "u-1")
    if table.undos.open is not None:
        table.submit(other, AnswerUndo(table.undos.open.seq, True), "u-2")
    assert table.envelopes[-1].type == "UndoApplied"
    table.submit("red", ProposeRulesVersion("echo-2"), "p-1")
    table.submit("blue", AnswerRulesVersion(table.seq, True), "p-2")
    assert table.game.rules_version == "echo-2"
    playout(table, {seat: bot(table.game, "greedy") for seat in table.game.seats(table.state)}, Rng(6), 2, prefix="d")
    seat = table.envelopes[-1].seat
    table.submit(seat, AskUndo(table.undos.last_own(seat)), "u-3")
    if table.undos.open is not None:
        table.submit(next(s for s in table.game.seats(table.state) if s != seat),
                     AnswerUndo(table.undos.open.seq, True), "u-4")
    assert table.envelopes[-1].type == "UndoApplied"
    playout(table, {seat: bot(table.game, "greedy") for seat in table.game.seats(table.state)}, Rng(7), 400,
            prefix="e")
    assert table.game.is_over(table.state) and table.revealed
    path = tmp_path / "both.jsonl"
    logfile.write(path, table.envelopes)
    assert main(["audit", str(path)]) == SUCCESS
    assert capsys.readouterr().out.startswith(f"{table.seq} events verified")
    assert main(["explain", str(path), str(first_undone)]) == SUCCESS
    text = capsys.readouterr().out
    assert f"> seq {first_undone} " in text and "undone (struck through): taken back by the undo asked at seq" in text
    moved = next(e.seq for e in table.envelopes if e.type == "RulesVersionChanged")
    assert main(["explain", str(path), str(moved), "--json"]) == SUCCESS
    report = json.loads(capsys.readouterr().out)
    assert report["events"][-1]["type"] == "RulesVersionChanged" and report["events"][-1]["undone"] is None


def test_gh_c2_an_undone_sealed_pick_stays_sealed_for_the_others_and_public_once_over():
    """Game.visible of a taken-back CardsSelected: sealed for the other seat and a spectator while
    the game runs, folding to the same hashes; a spectator's Table follows the undo with the sealed copy."""
    game = events.games.load("gloomhaven")
    table = Table.create(game, "g-undoseal1", scenarios.load("gloomhaven/barrow")[1], local_secret(SEED))
    seat = game.turn(table.state)[0]
    picked = table.seq + 1
    assert not isinstance(table.submit(seat, game.legal(table.state, seat)[0], "r-1"), Rejection)
    assert table.envelopes[picked - 1].type == "CardsSelected"
    assert table.submit(seat, AskUndo(picked), "u-1").__class__.__name__ == "Accepted"  # its own pick: free
    assert [e.type for e in table.envelopes[-2:]] == ["UndoAsked", "UndoApplied"]
    assert picked in table.undos.undone
    other = next(s for s in game.seats(table.state) if s != seat)
    spectator = Table(game, table.game_id)
    for envelope in table.envelopes:
        shown = game.visible(envelope, None)
        assert game.visible(envelope, other).to_dict() == shown.to_dict()
        if envelope.seq == picked:
            assert shown.command is None and shown.event.cards in ((), [])  # the undone pick stays sealed
        spectator.absorb(Envelope.from_dict(game, shown.to_dict()))
    assert spectator.state == table.state and picked in spectator.undos.undone
    assert game.visible(table.envelopes[picked - 1], None, over=True) is table.envelopes[picked - 1]


def test_gh_c2_core_5_an_undo_across_both_picks_and_their_reveal_asks_blue_and_every_copy_follows():
    """Red's pick, blue's pick, their reveal (GH-C2) and the monsters' turns: red's undo back to its
    pick needs blue's yes (a reveal crossed, CORE-5); each seat's and a spectator's copy of the log,
    the other's pick sealed, folds the undo to the same state and the same seqs taken back."""
    game = events.games.load("gloomhaven")
    table = Table.create(game, "g-undoseal2", scenarios.load("gloomhaven/barrow")[1], local_secret(SEED))
    picked = table.seq + 1
    table.submit("red", game.legal(table.state, "red")[0], "r-1")
    table.submit("blue", game.legal(table.state, "blue")[0], "b-1")
    assert any(e.type == "CardsRevealed" for e in table.envelopes)
    table.submit("red", AskUndo(picked), "u-1")
    assert table.envelopes[-1].type == "UndoAsked" and table.envelopes[-1].event.needs == ("blue",)
    table.submit("blue", AnswerUndo(table.seq, True), "u-2")
    assert table.envelopes[-1].type == "UndoApplied" and game.turn(table.state) == ("red", "blue")
    for viewer in (None, "blue", "red"):
        copy = Table(game, table.game_id)
        for envelope in table.envelopes:
            copy.absorb(Envelope.from_dict(game, game.visible(envelope, viewer).to_dict()))
        assert copy.state == table.state and sorted(copy.undos.undone) == sorted(table.undos.undone), viewer

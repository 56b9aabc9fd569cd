"""``chronicle audit`` and ``chronicle explain`` on logs with undos (issue 18; CORE-4, CORE-5)."""

from __future__ import annotations

import json

from events.games.mecha import GAME
from events.games.mecha.model import Move
from events.log import Table
from events.undo import AnswerUndo, AskUndo, UndoApplied, UndoAsked
from server import logfile, scenarios
from server.cli.main import main
from server.cli.status import DIVERGED, SUCCESS


def mecha_table() -> Table:
    _name, data = scenarios.load("mecha/sample")
    table = Table.create(GAME, "g-cli-undo", data, 11, at="2026-12-01T12:00:00Z")
    table.submit("red", Move(2), "c-1")  # seq 2-3, face up: no draw
    table.submit("blue", Move(3), "c-2")  # seq 4-5
    return table


def test_core_4_audit_verifies_and_explain_strikes_through_an_agreed_undo(tmp_path, capsys):
    table = mecha_table()
    table.submit("red", AskUndo(2), "u-1")  # seq 6: waits for blue
    table.submit("blue", AnswerUndo(6, True), "u-2")  # seq 7-8
    path = tmp_path / "undo.jsonl"
    logfile.write(path, table.envelopes)
    assert main(["audit", str(path)]) == SUCCESS
    assert capsys.readouterr().out.startswith("8 events verified")
    assert main(["explain", str(path), "4"]) == SUCCESS
    text = capsys.readouterr().out
    assert "> seq 4 MechMoved" in text and "~ seq 5 TurnEnded" in text
    assert "undone (struck through): taken back by the undo asked at seq 6 by red, agreed by blue (CORE-4)" in text
    assert main(["explain", str(path), "6", "--json"]) == SUCCESS
    report = json.loads(capsys.readouterr().out)
    assert report["command"] == {"type": "AskUndo", "data": {"back_to": 2}}
    assert report["events"][0]["clause"]["id"] == "CORE-4" and report["events"][0]["undone"] is None


def test_core_5_audit_names_the_seq_and_clause_of_a_forged_undo(tmp_path, capsys):
    table = mecha_table()
    # Check: an undo across blue's move logged without blue's yes (a forger's table skips the rules).
    table._append(UndoAsked("red", 2, ()), "red", "u-1", AskUndo(2), None, None)
    table._append(UndoApplied(6, 2, ()), "red", "u-1", AskUndo(2), None, None)
    path = tmp_path / "forged.jsonl"
    logfile.write(path, table.envelopes)
    assert main(["audit", str(path)]) == DIVERGED
    out = capsys.readouterr().out
    assert out.startswith("seq 6: logged ") and "(the undo rules, CORE-5)" in out, out

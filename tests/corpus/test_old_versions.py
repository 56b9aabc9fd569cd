"""Rules versions brought back (issue 19): arkham-1, as released before arkham-2.

Each restored version's corpus folder holds logs written by the old code itself (its own
``chronicle play --random`` run in a checkout of the old commit; ``at`` set to null), byte for
byte as it wrote them: ``test_corpus`` replays and audits each under the version it names. Here:
the version is listed among the game's released ones, and ``chronicle audit --rules`` of one of
its logs under a newer version names the first divergent event and the clause of each outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import events.games
from server import logfile
from server.cli.main import main
from server.cli.status import DIVERGED, SUCCESS

CORPUS = Path(__file__).resolve().parent
# arkham-1: blue, at 0 Stamina after a failed Evade, fails the Horror check at seq 20 and is offered Clue tokens.
ARKHAM_1_COLLAPSING_OFFER = CORPUS / "arkham" / "arkham-1" / "clues-street-random-6.jsonl"


def _audit(capsys, *args):
    status = main(["audit", *map(str, args)])
    return status, capsys.readouterr().out.splitlines()


def test_ah_c4_arkham_1_is_released_again_before_arkham_2_and_arkham_3():
    assert [g.rules_version for g in events.games.load("arkham").versions()] == ["arkham-1", "arkham-2", "arkham-3"]
    assert events.games.load("arkham", "arkham-1").successor is events.games.load("arkham", "arkham-2")
    assert [(v, c) for v, c, _ in events.games.load("arkham").changes_since("arkham-1")] == [
        ("arkham-2", "AH-C1"), ("arkham-3", "AH-C4")]


def test_ah_c1_an_arkham_1_log_made_by_the_old_code_keeps_its_old_shapes_and_audits_under_arkham_1(capsys):
    # Check the file is the old code's: its Move commands have no ``path`` (arkham-3 added it, AH-3).
    lines = [json.loads(line) for line in ARKHAM_1_COLLAPSING_OFFER.read_text().splitlines()]
    moves = [line["command"]["data"] for line in lines if line["command"] and line["command"]["type"] == "Move"]
    assert moves and all("path" not in data for data in moves)
    game, _envelopes = logfile.read(ARKHAM_1_COLLAPSING_OFFER)
    assert game is events.games.load("arkham", "arkham-1")
    status, out = _audit(capsys, ARKHAM_1_COLLAPSING_OFFER)
    assert status == SUCCESS, out


def test_ah_c4_audit_of_an_arkham_1_offer_to_a_collapsing_investigator_under_arkham_2_names_it(capsys):
    status, out = _audit(capsys, ARKHAM_1_COLLAPSING_OFFER, "--rules", "arkham-2")
    assert status == DIVERGED
    assert out[:2] == ["log played under arkham-1, audited under arkham-2", "diverges at seq 20 (AH-C3)"]
    # Check both outcomes: arkham-1 offered Clue tokens (AH-C1), arkham-2 takes the Sanity (AH-C3).
    assert '"type":"ClueSpendOffered"' in out[2] and '"type":"StatLost"' in out[3]
    assert out[4] == "  clause: logged AH-C1, produced AH-C3"
    assert out[5].startswith("  arkham-2 changed AH-C1: an investigator already at 0")


def test_ah_c4_audit_of_an_arkham_1_log_under_the_newest_version_names_the_first_divergent_event(capsys):
    status, out = _audit(capsys, ARKHAM_1_COLLAPSING_OFFER, "--rules", "arkham-3")
    assert status == DIVERGED
    assert out[1] == "diverges at seq 6 (AH-C4)"
    assert '"type":"CombatBegan"' in out[2] and '"type":"KnockedOut"' in out[3]
    assert out[4] == "  clause: logged AH-8, produced AH-C4"

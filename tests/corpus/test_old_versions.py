"""Rules versions brought back (issue 19): arkham-1, mecha-1 and gloomhaven-1, as released before their successors.

Each restored version's corpus folder holds logs written by the old code itself (its own
``chronicle play --random`` run in a checkout of the old commit; ``at`` set to null), byte for
byte as it wrote them: ``test_corpus`` replays and audits each under the version it names. Here:
the version is listed among the game's released ones, and ``chronicle audit --rules`` of one of
its logs under a newer version names the first divergent event and the clause of each outcome.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from events.log import Envelope, Table
from server import logfile
from server.cli.status import SUCCESS
from tests.corpus.audits import assert_diverges, audit

CORPUS = Path(__file__).resolve().parent
# arkham-1: blue, at 0 Stamina after a failed Evade, fails the Horror check at seq 20 and is offered Clue tokens.
ARKHAM_1_COLLAPSING_OFFER = CORPUS / "arkham" / "arkham-1" / "clues-street-random-6.jsonl"
# mecha-1: the last command reveals Location 4, which mecha-1's GameEnded (seq 68) does not count.
MECHA_1_LAST_REVEAL = CORPUS / "mecha" / "mecha-1" / "sample-random-5.jsonl"
# mecha-1: a board without Location 20 (the sample's renumbered 21) keeps the value-20 token in the bag.
MECHA_1_NO_LOCATION_20 = CORPUS / "mecha" / "mecha-1" / "no-location-20-random-2.jsonl"

# gloomhaven-1: the frozen solver's first monster turn (seq 15) logs no destinations weighed (GH-6).
GLOOMHAVEN_1 = CORPUS / "gloomhaven" / "gloomhaven-1" / "drake-den-random-1.jsonl"


def test_ah_c4_arkham_1_is_released_again_before_arkham_2_arkham_3_and_arkham_4():
    assert [g.rules_version for g in events.games.load("arkham").versions()] == [
        "arkham-1", "arkham-2", "arkham-3", "arkham-4", "arkham-5", "arkham-6"]
    assert events.games.load("arkham", "arkham-1").successor is events.games.load("arkham", "arkham-2")
    assert [(v, c) for v, c, _ in events.games.load("arkham").changes_since("arkham-1")] == [
        ("arkham-2", "AH-C1"), ("arkham-3", "AH-C4"), ("arkham-4", "AH-7"), ("arkham-4", "AH-C9"),
        ("arkham-5", "AH-C10"), ("arkham-6", "AH-C6")]


def test_ah_c1_an_arkham_1_log_made_by_the_old_code_keeps_its_old_shapes_and_audits_under_arkham_1(capsys):
    # Check the file is the old code's: its Move commands have no ``path`` (arkham-3 added it, AH-3).
    lines = [json.loads(line) for line in ARKHAM_1_COLLAPSING_OFFER.read_text().splitlines()]
    moves = [line["command"]["data"] for line in lines if line["command"] and line["command"]["type"] == "Move"]
    assert moves and all("path" not in data for data in moves)
    game, _envelopes = logfile.read(ARKHAM_1_COLLAPSING_OFFER)
    assert game is events.games.load("arkham", "arkham-1")
    status, out = audit(capsys, ARKHAM_1_COLLAPSING_OFFER)
    assert status == SUCCESS, out.out


def test_ah_c4_audit_of_an_arkham_1_offer_to_a_collapsing_investigator_under_arkham_2_names_it(capsys):
    # Check both outcomes: arkham-1 offered Clue tokens (AH-C1), arkham-2 takes the Sanity (AH-C3).
    assert_diverges(capsys, ARKHAM_1_COLLAPSING_OFFER, "arkham-2", played="arkham-1", at="seq 20 (AH-C3)",
                    logged='"type":"ClueSpendOffered"', produced='"type":"StatLost"',
                    clause="logged AH-C1, produced AH-C3", changed="AH-C1: an investigator already at 0")


def test_ah_c4_audit_of_an_arkham_1_log_under_the_newest_version_names_the_first_divergent_event(capsys):
    assert_diverges(capsys, ARKHAM_1_COLLAPSING_OFFER, "arkham-3", played="arkham-1", at="seq 6 (AH-C4)",
                    logged='"type":"CombatBegan"', produced='"type":"KnockedOut"',
                    clause="logged AH-8, produced AH-C4", changed="AH-C4: a failed Evade that takes Stamina to 0")


def test_mv_c3_mecha_1_is_released_again_before_mecha_2():
    assert [g.rules_version for g in events.games.load("mecha").versions()] == ["mecha-1", "mecha-2"]
    assert [(v, c) for v, c, _ in events.games.load("mecha").changes_since("mecha-1")] == [
        ("mecha-2", "MV-C3"), ("mecha-2", "MV-C2")]


def test_mv_c3_audit_of_a_mecha_1_game_under_mecha_2_names_the_end_tallies(capsys):
    status, out = audit(capsys, MECHA_1_LAST_REVEAL)
    assert status == SUCCESS, out.out
    # Check both outcomes: mecha-1 missed the last command's reveal of Location 4, mecha-2 counts it.
    assert_diverges(capsys, MECHA_1_LAST_REVEAL, "mecha-2", played="mecha-1", at="seq 68 (MV-C3)",
                    logged='"revealed":[1,3]', produced='"revealed":[1,4]', clause="logged MV-C3, produced MV-C3",
                    changed="MV-C3: the game's end tallies count the last command's")


def test_mv_c2_a_mecha_1_board_without_location_20_draws_the_value_20_token(capsys):
    game, envelopes = logfile.read(MECHA_1_NO_LOCATION_20)
    table = logfile.restore(game, envelopes, "mecha-1")  # every hash as the old code wrote it
    assert game is events.games.load("mecha", "mecha-1") and game.is_over(table.state)
    assert [e.event.value for e in envelopes if e.type == "CorruptionDrawn" and e.event.value == 20] == [20]
    # Check the same start under mecha-2 sets the token aside, so the log's first hash is not mecha-2's.
    scenario = json.loads(envelopes[0].event.scenario)
    old = Table.create(game, "g", scenario, 1)
    new = Table.create(events.games.load("mecha"), "g", scenario, 1)
    assert (old.state.token_20, new.state.token_20) == (None, (20, "orange"))
    assert (20, "orange", 1) in old.state.bag and all(value != 20 for value, _c, _n in new.state.bag)
    text = MECHA_1_NO_LOCATION_20.read_text().replace('"rules_version":"mecha-1"', '"rules_version":"mecha-2"')
    renamed, again = logfile.parse(text.splitlines(), "renamed")
    assert renamed is events.games.load("mecha")
    with pytest.raises(ValueError, match="seq 1: the logged hash does not match"):
        logfile.restore(renamed, again, "renamed")


def test_gh_6_gloomhaven_1_is_released_again_and_frozen_apart_from_gloomhaven_2():
    newest = events.games.load("gloomhaven")
    first = events.games.load("gloomhaven", "gloomhaven-1")
    assert [g.rules_version for g in newest.versions()] == ["gloomhaven-1", "gloomhaven-2", "gloomhaven-3",
                                                            "gloomhaven-4", "gloomhaven-5", "gloomhaven-6",
                                                            "gloomhaven-7"]
    assert first.successor is newest.previous.previous.previous.previous.previous and first.guards is None and newest.guards is not None
    # Check gloomhaven-1's states hold the old Option (no ``toward``: it is hashed with the state).
    assert [cls.TYPE for cls in first.state_records] == ["Option"] and newest.state_records == ()
    assert "toward" not in first.state_records[0].__slots__
    assert "toward" in newest.events.by_type["Option"].__slots__
    assert {c for _v, c, _t in newest.changes_since("gloomhaven-1")} >= {"GH-C7", "GH-C8", "GH-C9", "GH-C10",
                                                                            "GH-C11"}


def test_gh_6_a_gloomhaven_1_log_made_by_the_old_code_audits_under_it_and_not_under_gloomhaven_2(capsys):
    # Check the file is the old code's: its PlayCard commands have no ``to`` (gloomhaven-2 added it, GH-3).
    lines = [json.loads(line) for line in GLOOMHAVEN_1.read_text().splitlines()]
    plays = [line["command"]["data"] for line in lines if line["command"] and line["command"]["type"] == "PlayCard"]
    assert plays and all("to" not in data for data in plays)
    status, out = audit(capsys, GLOOMHAVEN_1)
    assert status == SUCCESS, out.out
    # Check both outcomes: gloomhaven-1 weighed no destinations in the log, gloomhaven-2 lists each one.
    assert_diverges(capsys, GLOOMHAVEN_1, "gloomhaven-2", played="gloomhaven-1", at="seq 15 (GH-6)",
                    logged='"destinations":[]', produced='"destinations":[{', clause="logged GH-6, produced GH-6",
                    changed="GH-6: a monster's plan logs every destination")


def test_gh_c4_a_gloomhaven_1_pending_choice_hashes_as_gloomhaven_1_wrote_it():
    """GH-C4: a log whose monster left the players a choice replays every hash under gloomhaven-1 only."""
    for path in sorted((CORPUS / "gloomhaven" / "gloomhaven-1").glob("*.jsonl")):
        game, envelopes = logfile.read(path)
        if any(e.type == "MonsterTurnPlanned" and len(e.event.options) > 1 for e in envelopes):
            break
    else:
        raise AssertionError("no gloomhaven-1 log of the corpus has a choice made by the players")
    logfile.restore(game, envelopes, path.name)
    # Check the same log read as gloomhaven-2's (its Option has ``toward``) fails where the choice is pending.
    text = path.read_text().replace('"rules_version":"gloomhaven-1"', '"rules_version":"gloomhaven-2"')
    renamed, again = logfile.parse(text.splitlines(), path.name)
    assert renamed is events.games.load("gloomhaven", "gloomhaven-2")
    with pytest.raises(ValueError, match="the logged hash does not match"):
        logfile.restore(renamed, again, path.name)


@pytest.mark.parametrize("path", [MECHA_1_NO_LOCATION_20, CORPUS / "gloomhaven" / "gloomhaven-1" / "barrow-random-1.jsonl",
                                  ARKHAM_1_COLLAPSING_OFFER])
def test_core_3_a_restored_version_s_log_read_as_the_room_and_the_pages_read_it_keeps_every_hash(path):
    """CORE-3: the Room, the play page and the replay page decode a log with the newest version's
    registry and fold it in a Table of the newest version, which follows the version GameStarted
    names: from its very first event (mecha-1's start differs) and through a pending choice
    (gloomhaven-1's Option)."""
    name = json.loads(path.read_text().split("\n", 1)[0])["data"]["game"]
    newest = events.games.load(name)
    envelopes = [Envelope.from_dict(newest, json.loads(line)) for line in path.read_text().splitlines()]
    table = Table.restore(newest, envelopes[0].game, envelopes, verify=True)
    assert table.game.rules_version == envelopes[0].event.rules_version != newest.rules_version


def test_core_3_released_reads_a_first_version_from_its_rules_module_by_name():
    from events.game import released
    from events.games.mecha import rules
    from events.games.mecha.clauses import CATALOGUE
    from events.games.mecha.model import COMMANDS, EVENTS
    from events.games.mecha.view import view

    game = released("mecha", "mecha-0", rules, None, CATALOGUE, EVENTS, COMMANDS, view)
    assert (game.rules_decide, game.evolve, game.legal, game.guards) == (rules.decide, rules.evolve, rules.legal,
                                                                        rules.GUARDS)
    assert game.trace(None) == []  # a part given as None is the Game's default
    # Check its start records the version it was released as, whatever the module starts games under.
    from server import scenarios

    started = game.start(scenarios.load("mecha/sample")[1], "c" * 64)
    assert started[0].rules_version == "mecha-0" and rules.RULES_VERSION == "mecha-2"


def test_gh_6_playing_gloomhaven_2_never_imports_gloomhaven_1_s_frozen_rules():
    """A page of a gloomhaven-2 game compiles no frozen module (Brython compiles what it imports)."""
    import subprocess
    import sys

    code = ("import sys, events.games; g = events.games.load('gloomhaven'); "
            "assert [v.rules_version for v in g.versions()] == ['gloomhaven-1', 'gloomhaven-2', 'gloomhaven-3', 'gloomhaven-4', 'gloomhaven-5', 'gloomhaven-6', 'gloomhaven-7']; "
            "print(sorted(m for m in sys.modules if '.v1.' in m))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=CORPUS.parent.parent).stdout
    assert out.strip() == "['events.games.gloomhaven.v1.model']"


def test_gh_3_gloomhaven_1_refuses_a_move_by_destination_alone_which_gloomhaven_2_walks():
    from events.dice import local_secret
    from events.games.gloomhaven.model import PlayCard
    from events.rules import Rejection
    from server import scenarios

    first = events.games.load("gloomhaven", "gloomhaven-1")
    table = Table.create(first, "g", scenarios.load("gloomhaven/barrow")[1], local_secret(1))
    for number in range(200):  # the first moment a character may move (gloomhaven-1's own legal moves)
        seat = first.turn(table.state)[0]
        legal = first.legal(table.state, seat)
        moves = [c for c in legal if isinstance(c, PlayCard) and len(c.path) > 1]
        if moves:
            break
        table.submit(seat, legal[0], f"c-{number}")
    else:
        raise AssertionError("no character move in 200 commands")
    move = moves[0]
    assert not isinstance(first.decide(table.state, seat, move, None), Rejection)
    refused = first.decide(table.state, seat, move.but(path=(), to=move.path[-1]), None)
    assert refused.rule == "GH-3" and "a destination alone (to) came with gloomhaven-2" in refused.reason

"""gloomhaven-4 (issue 19): a scenario chooses Jaws of the Lion's rules with ``"variant": "jotl"`` (GH-V1 focus
ties skip proximity, GH-V2 a jump's difficult landing costs 1). The hostile values first, then played games:
the same position under the variant and under the original rules, side by side."""

from __future__ import annotations

import copy
import json
import urllib.request

import pytest

import events.games
from events.games.gloomhaven.model import PlayCard, SelectCards, State, VariantState
from events.rules import Rejection
from events.validate import BoundError, ScenarioError
from tests.games.gloomhaven.helpers import builtin, card, first, hero_class, mcard, monster_type, scenario, table
from tests.games.tables import act, rejected
from tests.server_fixture import chronicle_server_factory, post_json  # noqa: F401

GAME_3 = events.games.load("gloomhaven", "gloomhaven-3")
GAME_4 = events.games.load("gloomhaven", "gloomhaven-4")


def with_variant(value: object) -> dict:
    data = copy.deepcopy(builtin("barrow"))
    data["variant"] = value
    return data


# --- hostile scenarios ------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "fact", "bound"), [
    ("gloomhaven", "expected one of jotl, got 'gloomhaven'", False),
    ("JOTL", "expected one of jotl, got 'JOTL'", False),
    ("", "expected a non-empty string", False),
    (1, "expected a non-empty string, got 1", False),
    (True, "expected a non-empty string", False),
    (["jotl"], "expected a non-empty string", False),
    (None, "expected a non-empty string", False),
    ("j" * 201, "at most 200 characters", True),
])
def test_gh_v1_gh_v2_a_wrong_variant_is_refused_with_its_path(value, fact, bound):
    """GH-V1, GH-V2: a variant that is no known name, or no string, is refused at ``$.variant`` (bad-scenario;
    past the text bound scenario-out-of-bounds); nothing starts."""
    with pytest.raises(ScenarioError) as raised:
        GAME_4.start(with_variant(value), "c" * 64)
    assert raised.value.path == "$.variant" and fact in str(raised.value), raised.value
    assert isinstance(raised.value, BoundError) is bound
    assert raised.value.code == ("scenario-out-of-bounds" if bound else "bad-scenario")


def test_gh_v1_gloomhaven_3_refuses_the_variant_key_as_released():
    """GH-V1: gloomhaven-3 never reads a variant: its start refuses the key, and so does its fold of a
    gloomhaven-4 GameStarted holding one (an audit under it refuses the game rather than misreading it)."""
    with pytest.raises(ScenarioError) as raised:
        GAME_3.start(with_variant("jotl"), "c" * 64)
    assert raised.value.path == "$.variant" and "unknown key" in str(raised.value)
    started = GAME_4.start(with_variant("jotl"), "c" * 64)[0]
    assert started.rules_version == "gloomhaven-4" and '"variant":"jotl"' in started.scenario
    with pytest.raises(ScenarioError, match=r"\$\.variant: unknown key"):
        GAME_3.evolve(None, started)


def test_gh_v1_a_variant_scenario_is_refused_and_accepted_over_http(chronicle_server_factory):  # noqa: F811
    """GH-V1, GH-V2: POST /api/games answers a wrong variant with 400 and its ``$`` path, never a 500, and
    starts the built-in ``gloomhaven/jotl-barrow`` under the newest version (gloomhaven-7 reads the variant as
    gloomhaven-4 does), its GameStarted recording the variant."""
    server = chronicle_server_factory()
    status, body = post_json(f"{server.base_url}/api/games", {"scenario": with_variant("lion")})
    assert status == 400 and body["code"] == "bad-scenario" and "$.variant" in body["message"], body
    status, body = post_json(f"{server.base_url}/api/games", {"scenario": with_variant("j" * 300)})
    assert status == 400 and body["code"] == "scenario-out-of-bounds" and "$.variant" in body["message"], body
    status, body = post_json(f"{server.base_url}/api/games", {"scenario": "gloomhaven/jotl-barrow"})
    assert status in (200, 201), body
    with urllib.request.urlopen(f"{server.base_url}/api/games/{body['game']}/log", timeout=10) as response:
        started = json.loads(response.read().decode().splitlines()[0])  # JSON Lines: GameStarted first
    assert started["data"]["rules_version"] == "gloomhaven-7" and '"variant":"jotl"' in started["data"]["scenario"]


# --- played games: the variant and the original rules in the same position ---------------------------------


def _focus_game(variant: str | None) -> tuple:
    """An archer (range 3, initiative 50) at (0, 2); red at (3, 1) 3 hexes off with initiative 60, blue at
    (2, 0) 2 hexes off with initiative 90. Both are in range and sight already (path 0)."""
    archer = monster_type("Archer", [mcard("a-1", 50, {"move": 0}, {"attack": 0})], range=3)
    early = hero_class("Early", 10, [card("e-60", 60, {"attack": 1}, {"move": 2}),
                                     card("e-65", 65, {"attack": 1}, {"move": 2})])
    late = hero_class("Late", 10, [card("l-90", 90, {"attack": 1}, {"move": 2}),
                                   card("l-95", 95, {"attack": 1}, {"move": 2})])
    room = {"name": "room", "regions": [{"corner": [0, 0], "columns": 9, "rows": 5}]}
    data = scenario(room, [("red", "Early", (3, 1)), ("blue", "Late", (2, 0))], [("Archer", "normal", 1, (0, 2))],
                    classes=[early, late], types=[archer])
    if variant is not None:
        data["variant"] = variant
    tab = table(data)
    act(tab, "red", SelectCards(("e-60", "e-65"), "e-60"))
    return tab, act(tab, "blue", SelectCards(("l-90", "l-95"), "l-90"), (50, 0))


def test_gh_v1_a_focus_tie_skips_proximity_in_a_variant_game():
    """GH-V1, GH-6: in the same position the original rules focus blue (proximity 2 before 3) and cite GH-6;
    under Jaws of the Lion's rules the tie goes straight to initiative (red, 60 before 90), the plan cites
    GH-V1 (the original rules would focus elsewhere) and the archer shoots red."""
    original, events = _focus_game(None)
    assert original.game.rules_version == "gloomhaven-7" and type(original.state) is State
    planned = first(events, "MonsterTurnPlanned")
    assert planned.focus == ("blue",) and planned.rule == "GH-6" and "GH-6" in planned.decided_by
    assert first(events, "AttackResolved").target == "blue"
    variant, events = _focus_game("jotl")
    assert type(variant.state) is VariantState and variant.state.variant == "jotl"
    planned = first(events, "MonsterTurnPlanned")
    assert planned.focus == ("red",) and planned.rule == "GH-V1"
    assert planned.decided_by == "initiative order (GH-V1)"
    assert first(events, "AttackResolved").target == "red"
    env = next(e for e in variant.envelopes if e.type == "MonsterTurnPlanned")
    assert env.rule == "GH-V1"


def _jump_game(variant: str | None) -> tuple:
    """A corridor (0, 0) .. (6, 0), difficult at (2, 0): a jumping monster (move 2) at (0, 0) heads for red at
    (5, 0) (initiative 60, after the monster's 50)."""
    hopper = monster_type("Hopper", [mcard("h-1", 50, {"move": 0, "jump": True}, {"attack": 0})], move=2)
    slow = hero_class("Slow", 10, [card("s-60", 60, {"attack": 1}, {"move": 2}),
                                   card("s-65", 65, {"attack": 1}, {"move": 2})])
    corridor = {"name": "corridor", "hexes": [[q, 0] for q in range(7)], "difficult": [[2, 0]]}
    data = scenario(corridor, [("red", "Slow", (5, 0))], [("Hopper", "normal", 1, (0, 0))], classes=[slow],
                    types=[hopper])
    if variant is not None:
        data["variant"] = variant
    tab = table(data)
    return tab, act(tab, "red", SelectCards(("s-60", "s-65"), "s-60"), (50,))


def test_gh_v2_a_monsters_jump_lands_on_difficult_terrain_for_one_in_a_variant_game():
    """GH-V2, GH-5, GH-C9: the original rules make the jump's difficult landing cost 2 + 1 = 3 > move 2, so the
    monster stops at (1, 0) (GH-5); under Jaws of the Lion's rules the landing costs nothing extra: it lands
    on (2, 0), its plan and its FigureMoved citing GH-V2."""
    original, events = _jump_game(None)
    moved = first(events, "FigureMoved")
    assert moved.path[-1] == (1, 0) and moved.rule == "GH-5"
    assert first(events, "MonsterTurnPlanned").rule == "GH-6"
    variant, events = _jump_game("jotl")
    moved = first(events, "FigureMoved")
    assert moved.path[-1] == (2, 0) and moved.rule == "GH-V2" and moved.cost == 2
    assert first(events, "MonsterTurnPlanned").rule == "GH-V2"


def _brute_jump(variant: str | None):
    """red (initiative 10, Jump 2) at (0, 0) in the corridor, difficult at (2, 0), a monster far off at (6, 0)."""
    leaper = hero_class("Leaper", 10, [card("j-10", 10, {"attack": 1}, {"move": 2, "jump": True}),
                                       card("j-20", 20, {"attack": 1}, {"move": 2})])
    guard = monster_type("Guard", [mcard("g-1", 50, {"move": 0}, {"attack": 0})], move=0)
    corridor = {"name": "corridor", "hexes": [[q, 0] for q in range(7)], "difficult": [[2, 0]]}
    data = scenario(corridor, [("red", "Leaper", (0, 0))], [("Guard", "normal", 1, (6, 0))], classes=[leaper],
                    types=[guard])
    if variant is not None:
        data["variant"] = variant
    tab = table(data)
    act(tab, "red", SelectCards(("j-10", "j-20"), "j-10"), (50,))
    return act(tab, "red", PlayCard("j-10", "bottom", path=((1, 0), (2, 0))))


def test_gh_v2_a_characters_jump_lands_on_difficult_terrain_for_one_in_a_variant_game():
    """GH-V2, GH-C1: the same jump of 2 onto difficult terrain is refused by the original rules (the landing
    costs 2, GH-C1) and walked under Jaws of the Lion's, its FigureMoved citing GH-V2."""
    rejected(_brute_jump(None), "GH-C1", "difficult terrain costs 2")
    events = _brute_jump("jotl")
    assert not isinstance(events, Rejection), events
    moved = first(events, "FigureMoved")
    assert moved.path == ((1, 0), (2, 0)) and moved.rule == "GH-V2" and moved.cost == 2


def test_gh_v1_without_a_variant_gloomhaven_4_plays_as_gloomhaven_3():
    """GH-V1, GH-V2: the built-in barrow played by the same bots under gloomhaven-3 and gloomhaven-4 gives the
    same events and every state hash the same; only the version named in GameStarted differs."""
    from events.bots import bot, playout
    from events.log import Table
    from events.rng import Rng

    logs = []
    for game in (GAME_3, GAME_4):
        tab = Table.create(game, "g-same", builtin("barrow"), 7)
        playout(tab, {seat: bot(game, "greedy") for seat in game.seats(tab.state)}, Rng(77), 400)
        logs.append(tab.envelopes)
    three, four = logs
    assert [e.hash for e in three] == [e.hash for e in four] and len(three) > 50
    assert [e.event for e in three[1:]] == [e.event for e in four[1:]]
    assert (three[0].event.rules_version, four[0].event.rules_version) == ("gloomhaven-3", "gloomhaven-4")


def test_gh_v1_barrow_jotl_names_its_variant_and_plays_under_it():
    """GH-V1, GH-V2: the built-in ``gloomhaven/jotl-barrow`` chooses Jaws of the Lion's rules; its state says so."""
    data = builtin("jotl-barrow")
    assert data["variant"] == "jotl"
    tab = table(data)
    assert type(tab.state) is VariantState and tab.state.variant == "jotl"


def test_gh_v1_audits_a_variant_game_parts_at_seq_1_under_gloomhaven_3_and_an_original_one_replays():
    """GH-V1, CORE-3: a corpus jotl-barrow game audited under gloomhaven-3 parts at its GameStarted (the key is
    refused there), while a gloomhaven-3 corpus game replays unchanged under gloomhaven-4 (so it may move)."""
    from pathlib import Path

    from events.log import audit, audit_log
    from server import logfile

    corpus = Path(__file__).resolve().parents[2] / "corpus" / "gloomhaven"
    game, envelopes = logfile.read(corpus / "gloomhaven-4" / "jotl-barrow-random-5.jsonl")
    assert game is GAME_4 and audit(game, envelopes) is None
    assert audit_log(GAME_3, envelopes, follow=False).divergence.seq == 1
    old, logged = logfile.read(corpus / "gloomhaven-3" / "barrow-random-1.jsonl")
    assert old is GAME_3 and audit_log(GAME_4, logged, follow=False).divergence is None

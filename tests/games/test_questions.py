"""The rule questions' core (issue 18): ``events/games/<game>/questions.py``, one implementation
for ``chronicle ask`` and the replay page's "Ask the rules" (client/questions.py)."""

from __future__ import annotations

from events.canonical import state_hash
from events.games.arkham import board as arkham_board
from events.games.arkham import rules as arkham_rules
from events.games.arkham.questions import cheapest_route, monsters_on, not_walkable
from events.games.gloomhaven import rules as gloomhaven_rules
from events.games.gloomhaven.questions import monster_plan, monsters
from events.games.skirmish import rules as skirmish_rules
from events.games.skirmish.questions import judge_path, reachable
from server.cli.ask_common import initial_state


def test_sk_c2_judge_path_gives_the_cost_of_a_legal_path_without_touching_the_state():
    """SK-C2: Trooper 1 of skirmish/hangar from G2 by F1, E1: legal, 3 movement points."""
    state = initial_state("skirmish/hangar", "skirmish", skirmish_rules)
    before = state_hash(state)
    item = skirmish_rules.figure(state, "tk1")
    assert judge_path(state, item, ((5, 0), (4, 0))) == (3, None)
    assert state_hash(state) == before


def test_sk_1_judge_path_refuses_the_first_illegal_step_with_its_clause_and_message():
    """SK-1: F1, E1, D1 crosses the wall D1|E1 at step 3: the Rejection, worded in the catalogue."""
    state = initial_state("skirmish/hangar", "skirmish", skirmish_rules)
    cost, refusal = judge_path(state, skirmish_rules.figure(state, "tk1"), ((5, 0), (4, 0), (3, 0)))
    assert cost is None and refusal.rule == "SK-1" and refusal.reason.startswith("step 3")
    assert refusal.key


def test_sk_c2_reachable_is_twice_the_movement_points():
    """SK-C2: Zombie 1 (4 points) reaches what ``destinations`` gives with a budget of 8."""
    state = initial_state("skirmish/purge", "skirmish", skirmish_rules)
    item = skirmish_rules.figure(state, "z1")
    found = reachable(state, item)
    assert found == skirmish_rules.destinations(state, item, 8)
    assert found[(5, 0)][0] == 1 and max(cost for cost, _path in found.values()) <= 8


def test_ah_3_cheapest_route_includes_both_ends_and_costs_one_point_a_line():
    """AH-3: every area the board's routes reach, from the first investigator's area."""
    state = initial_state("arkham/crossing", "arkham", arkham_rules)
    start = state.investigators[0].where
    routes = arkham_board.routes(state.board, start, arkham_rules.halts(state))
    assert routes
    for goal, path in routes.items():
        assert cheapest_route(state, start, goal) == (start,) + path
    assert cheapest_route(state, start, start) == (start,)


def test_ah_7_monsters_on_a_route_and_areas_no_line_reaches():
    """AH-7: the monsters on a route, area by area; AH-9: an Other World is no walk's end."""
    state = initial_state("arkham/monster-street", "arkham", arkham_rules)
    assert state.monsters
    for monster in state.monsters:
        assert (monster.area, tuple(m.id for m in state.monsters if m.area == monster.area)) in monsters_on(
            state, (monster.area,))
    assert not_walkable(state, state.investigators[0].where) == ""
    assert not_walkable(state, "no-such-area") == "?"
    worlds = [area.id for area in state.board.areas if area.kind == "other_world"]
    assert worlds and all(not_walkable(state, area) == "AH-9" for area in worlds)


def test_gh_c3_a_monster_turn_cannot_be_planned_before_its_card_is_drawn():
    """GH-C3: at the start of gloomhaven/barrow no ability card is drawn; a character is no monster."""
    state = initial_state("gloomhaven/barrow", "gloomhaven", gloomhaven_rules)
    ids = monsters(state)
    assert ids and all(gloomhaven_rules.figure_of(state, i).kind != "character" for i in ids)
    assert monster_plan(state, ids[0]) == (None, "no-card")
    character = next(item.id for item in state.figures if item.kind == "character")
    assert monster_plan(state, character) == (None, "not-a-monster")
    assert monster_plan(state, None) == (None, "not-a-monster")

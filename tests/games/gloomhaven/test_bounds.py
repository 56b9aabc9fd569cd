"""Bounded work (issue 12): every gloomhaven count that sizes work is bounded, documented, refused past it with its path.

Scenarios and the monster-turn positions of ``chronicle ask gloomhaven monster-turn`` alike.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import events.games.gloomhaven
from events.games.gloomhaven.board import BOUNDS, load_position, load_scenario
from events.validate import BoundError
from tests.games.bounds_check import assert_refused_at, builtin, builtin_faults, documented, json_path

BIG = 10**12
LONG = "x" * 5000
SCENARIO = "gloomhaven/barrow"
POSITION = Path(events.games.gloomhaven.__file__).parent / "positions" / "01-focus-by-path-length.json"

#: (keys of the value replaced, the value, the path of the refusal, out of bounds?)
CASES = [
    (("map", "regions", 0, "columns"), BIG, "$.map.regions[0].columns", True),
    (("map", "regions", 0, "columns"), -1, "$.map.regions[0].columns", False),
    (("map", "regions", 0, "rows"), "7", "$.map.regions[0].rows", False),
    (("map", "regions", 0, "corner"), [BIG, 0], "$.map.regions[0].corner[0]", True),
    (("map", "regions"), [{"corner": [0, 40 * i], "columns": 15, "rows": 15} for i in range(2)], "$.map.regions[1]", True),
    (("map", "regions"), [{"corner": [0, 0], "columns": 1, "rows": 1}] * (BOUNDS["regions"] + 1), "$.map.regions", True),
    (("map", "walls"), [[0, 0]] * (BOUNDS["hexes"] + 1), "$.map.walls", True),
    (("map", "traps"), [[3, 2]] * (BOUNDS["hexes"] + 1), "$.map.traps", True),
    (("map", "name"), LONG, "$.map.name", True),
    (("figures",), [{"type": "Bandit Guard", "rank": "normal", "number": 1, "hex": [0, 0]}] * (BOUNDS["figures"] + 1),
     "$.figures", True),
    (("figures", 0, "number"), BIG, "$.figures[0].number", True),
    (("characters",), [{}] * 5, "$.characters", True),
    (("level",), BIG, "$.level", True),
    (("rounds",), BIG, "$.rounds", True),
    (("rounds",), 0, "$.rounds", False),
    (("cards", "classes", 0, "hp"), BIG, "$.cards.classes[0].hp", True),
    (("cards", "classes", 0, "cards", 0, "initiative"), BIG, "$.cards.classes[0].cards[0].initiative", True),
    (("cards", "classes", 0, "cards", 0, "top"), {"move": BIG}, "$.cards.classes[0].cards[0].top.move", True),
    (("cards", "classes", 0, "cards", 0, "top"), {"attack": 2, "range": BIG}, "$.cards.classes[0].cards[0].top.range",
     True),
    (("cards", "classes", 0, "cards", 0, "top"), {"attack": 2, "targets": BIG},
     "$.cards.classes[0].cards[0].top.targets", True),
    (("cards", "classes"), [{}] * (BOUNDS["classes"] + 1), "$.cards.classes", True),
    (("monsters", "types", 0, "normal", "move"), BIG, "$.monsters.types[0].normal.move", True),
    (("monsters", "types", 0, "deck"), [{}] * (BOUNDS["deck"] + 1), "$.monsters.types[0].deck", True),
    (("monsters", "types", 0, "deck", 0, "actions"), [{"move": 1}] * (BOUNDS["actions"] + 1),
     "$.monsters.types[0].deck[0].actions", True),
    (("monsters", "types", 0, "deck", 0, "actions"), [{"attack": 1, "pattern": [[1, 0]] * 20}],
     "$.monsters.types[0].deck[0].actions[0].pattern", True),
    (("monsters", "types"), [{}] * (BOUNDS["types"] + 1), "$.monsters.types", True),
    (("title",), LONG, "$.title", True),
    (("notes",), LONG, "$.notes", True),
    (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes", True),
]


@pytest.mark.parametrize(("keys", "value", "where", "bound"), CASES, ids=[json_path(c[0]) for c in CASES])
def test_gh_c1_hostile_values_are_refused_with_their_path(keys, value, where, bound):
    """GH-C1 / GH-C3: huge, negative, wrongly typed, long or deep values are refused with the value's path."""
    assert_refused_at(load_scenario, SCENARIO, keys, value, where, bound)


def test_gh_c1_a_map_of_more_hexes_than_the_bound_is_refused_at_the_region_that_overflows():
    """GH-C1: listed hexes and regions together hold at most BOUNDS["hexes"] hexes."""
    data = copy.deepcopy(builtin(SCENARIO))
    data["map"]["hexes"] = [[100 + q, r] for q in range(16) for r in range(15)]  # 240 listed, 63 in the region
    with pytest.raises(BoundError) as raised:
        load_scenario(data)
    assert raised.value.path == "$.map.regions[0]" and "at most 250 hexes" in raised.value.message


def _position() -> dict:
    data = json.loads(POSITION.read_text(encoding="utf-8"))
    if isinstance(data["map"], str):
        data["map"] = json.loads((POSITION.parent / data["map"]).read_text(encoding="utf-8"))
    return data


def test_gh_6_a_monster_turn_position_is_bounded_too():
    """GH-6: ``chronicle ask gloomhaven monster-turn`` positions: figures, their numbers, the map and the nesting."""
    load_position(_position())
    for keys, value, where in [
        (("figures",), [{"id": f"f{i}", "side": "character", "hex": [0, 0]} for i in range(BOUNDS["position_figures"] + 1)],
         "$.figures"),
        (("figures", 0, "move"), BIG, "$.figures[0].move"),
        (("figures", 0, "initiative"), BIG, "$.figures[0].initiative"),
        (("figures", 0, "id"), LONG, "$.figures[0].id"),
        (("map", "walls"), [[0, 0]] * (BOUNDS["hexes"] + 1), "$.map.walls"),
        (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes"),
    ]:
        data = _position()
        target = data
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        with pytest.raises(BoundError) as raised:
            load_position(data)
        assert raised.value.path.startswith(where), (keys, raised.value)


def test_gh_c1_every_bound_is_documented_with_its_number():
    """GH-C1: the Bounds table of the format doc lists every bound of BOUNDS, with its number."""
    assert documented("gloomhaven") == BOUNDS


def test_gh_c1_the_builtin_scenarios_and_positions_are_within_the_bounds():
    """GH-C1: every built-in scenario and every test position loads within the bounds (a scenario as the
    newest version reads it, its ``variant`` included: GH-V1, GH-V2)."""
    assert builtin_faults("gloomhaven", lambda data: load_scenario(data, variants=True)) == []
    for path in sorted(POSITION.parent.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data["map"], str):
            data["map"] = json.loads((path.parent / data["map"]).read_text(encoding="utf-8"))
        load_position(data)

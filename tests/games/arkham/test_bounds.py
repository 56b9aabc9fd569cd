"""Bounded work (issue 12): every arkham number that sizes work is bounded, documented, refused past it with its path."""

from __future__ import annotations

import copy

import pytest

from events.games.arkham.board import BOUNDS, load_scenario
from events.validate import BoundError
from tests.games.bounds_check import assert_refused_at, builtin, builtin_faults, documented, json_path

BIG = 10**12
LONG = "x" * 5000
SCENARIO = "arkham/monster-street"
MONSTER = {"id": "m", "name": "M", "at": "rivertown", "awareness": 0, "horror_rating": 0, "horror_damage": 0,
           "combat_rating": 0, "combat_damage": 0, "toughness": 1}

#: (keys of the value replaced, the value, the path of the refusal, out of bounds?)
CASES = [
    (("investigators", 0, "speed"), BIG, "$.investigators[0].speed", True),
    (("investigators", 0, "speed"), -1, "$.investigators[0].speed", False),
    (("investigators", 0, "speed"), "4", "$.investigators[0].speed", False),
    (("investigators", 0, "fight"), BOUNDS["skill"] + 1, "$.investigators[0].fight", True),
    (("investigators", 0, "clues"), BIG, "$.investigators[0].clues", True),
    (("investigators", 0, "items"), ["Derringer"] * (BOUNDS["items"] + 1), "$.investigators[0].items", True),
    (("investigators", 0, "items"), [LONG], "$.investigators[0].items[0]", True),
    (("investigators", 0, "name"), LONG, "$.investigators[0].name", True),
    (("investigators",), [{}] * (BOUNDS["investigators"] + 1), "$.investigators", True),
    (("monsters", 0, "awareness"), BIG, "$.monsters[0].awareness", True),
    (("monsters", 0, "awareness"), -BIG, "$.monsters[0].awareness", False),
    (("monsters", 0, "toughness"), BIG, "$.monsters[0].toughness", True),
    (("monsters", 0, "nightmarish"), BIG, "$.monsters[0].nightmarish", True),
    (("monsters",), [dict(MONSTER, id=f"m{i}") for i in range(BOUNDS["monsters"] + 1)], "$.monsters", True),
    (("clues", 0, "count"), BIG, "$.clues[0].count", True),
    (("rounds",), BIG, "$.rounds", True),
    (("rounds",), 0, "$.rounds", False),
    (("title",), LONG, "$.title", True),
    (("board", "streets", 0, "at"), [BIG, 0], "$.board.streets[0].at[0]", True),
    (("board", "locations", 0, "closes_at_terror"), BIG, "$.board.locations[0].closes_at_terror", True),
    (("board", "worked_examples", 0, "movement_points"), BIG, "$.board.worked_examples[0].movement_points", True),
    (("board", "lines"), [{"a": "rivertown", "b": "graveyard"}] * (BOUNDS["lines"] + 1), "$.board.lines", True),
    (("notes",), LONG, "$.notes", True),
    (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes", True),
]


@pytest.mark.parametrize(("keys", "value", "where", "bound"), CASES, ids=[json_path(c[0]) for c in CASES])
def test_ah_c6_hostile_values_are_refused_with_their_path(keys, value, where, bound):
    """AH-C6: huge, negative, wrongly typed, long or deep values are refused with the value's path."""
    assert_refused_at(load_scenario, SCENARIO, keys, value, where, bound)


def test_ah_3_a_board_of_more_areas_than_the_bounds_is_refused():
    """AH-3: Streets and Locations are bounded, so is what one Street lists."""
    data = copy.deepcopy(builtin(SCENARIO))
    street = data["board"]["streets"][0]
    street["locations"] = street["locations"] + [f"extra{i}" for i in range(BOUNDS["street_locations"])]
    with pytest.raises(BoundError) as raised:
        load_scenario(data)
    assert raised.value.path == "$.board.streets[0].locations"
    data = copy.deepcopy(builtin(SCENARIO))
    data["board"]["streets"] = data["board"]["streets"] * 7
    with pytest.raises(BoundError) as raised:
        load_scenario(data)
    assert raised.value.path == "$.board.streets"


def test_ah_c6_every_bound_is_documented_with_its_number():
    """AH-C6: the Bounds table of the format doc lists every bound of BOUNDS, with its number."""
    assert documented("arkham") == BOUNDS


def test_ah_c6_the_builtin_scenarios_are_within_the_bounds():
    """AH-C6: every built-in scenario loads within the bounds."""
    assert builtin_faults("arkham", load_scenario) == []

"""Bounded work (issue 12): every echo number that sizes work is bounded, documented, refused past it with its path."""

from __future__ import annotations

import pytest

from events.games.echo.board import BOUNDS, load_scenario
from events.validate import BoundError
from tests.games.bounds_check import assert_refused_at, builtin_faults, documented, hostile, json_path

BIG = 10**12
LONG = "x" * 5000
SCENARIO = "echo/first-case"

#: (keys of the value replaced, the value, the path of the refusal, out of bounds?)
CASES = [
    (("cards", "investigators", 0, "speed"), BIG, "$.cards.investigators[0].speed", True),
    (("cards", "investigators", 0, "speed"), -3, "$.cards.investigators[0].speed", False),
    (("cards", "investigators", 0, "speed"), True, "$.cards.investigators[0].speed", False),
    (("cards", "investigators", 0, "sanity"), BOUNDS["track"] + 1, "$.cards.investigators[0].sanity", True),
    (("cards", "investigators", 0, "clues"), BIG, "$.cards.investigators[0].clues", True),
    (("cards", "investigators", 0, "items"), ["dagger"] * (BOUNDS["held"] + 1), "$.cards.investigators[0].items", True),
    (("cards", "investigators", 0, "allies"), [LONG], "$.cards.investigators[0].allies[0]", True),
    (("cards", "investigators", 0, "name_en"), LONG, "$.cards.investigators[0].name_en", True),
    (("cards", "enemies", 0, "evasion"), BIG, "$.cards.enemies[0].evasion", True),
    (("cards", "enemies", 0, "attack", "blue"), BIG, "$.cards.enemies[0].attack.blue", True),
    (("cards", "spells", 0, "difficulty"), BIG, "$.cards.spells[0].difficulty", True),
    (("cards", "spells", 0, "price"), -1, "$.cards.spells[0].price", False),
    (("cards", "items", 0, "damage", "health"), BIG, "$.cards.items[0].damage.health", True),
    (("cards", "items"), [{"id": f"i{n}", "name_ru": "x", "name_en": "x", "damage": {}} for n in range(101)],
     "$.cards.items", True),
    (("map", "locations", 0, "x"), BIG, "$.map.locations[0].x", True),
    (("map", "locations", 0, "id"), "a" * 300, "$.map.locations[0].id", True),
    (("map", "arrows"), [["a", "b"]] * (BOUNDS["links"] + 1), "$.map.arrows", True),
    (("seats",), [{}] * (BOUNDS["seats"] + 1), "$.seats", True),
    (("enemies",), [{}] * (BOUNDS["enemies"] + 1), "$.enemies", True),
    (("rounds",), BIG, "$.rounds", True),
    (("rounds",), "10", "$.rounds", False),
    (("title",), LONG, "$.title", True),
    (("notes",), LONG, "$.notes", True),
    (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes", True),
]


@pytest.mark.parametrize(("keys", "value", "where", "bound"), CASES, ids=[json_path(c[0]) for c in CASES])
def test_ec_c2_hostile_values_are_refused_with_their_path(keys, value, where, bound):
    """EC-C1 / EC-C2: huge, negative, wrongly typed, long or deep values are refused with the value's path."""
    assert_refused_at(load_scenario, SCENARIO, keys, value, where, bound)


def test_ec_c1_a_map_of_more_locations_than_the_bound_is_refused():
    """EC-C1: at most BOUNDS["locations"] places."""
    places = [{"id": f"p{n}", "name_ru": "x", "name_en": "x", "x": 0, "y": 0} for n in range(BOUNDS["locations"] + 1)]
    error = hostile(load_scenario, SCENARIO, ("map", "locations"), places)
    assert isinstance(error, BoundError) and error.path == "$.map.locations", error


def test_ec_c2_every_bound_is_documented_with_its_number():
    """EC-C2: the Bounds table of the format doc lists every bound of BOUNDS, with its number."""
    assert documented("echo") == BOUNDS


def test_ec_c2_the_builtin_scenarios_are_within_the_bounds():
    """EC-C2: every built-in scenario loads within the bounds."""
    assert builtin_faults("echo", load_scenario) == []

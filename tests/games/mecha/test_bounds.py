"""Bounded work (issue 12): every mecha number that sizes work is bounded, documented, refused past it with its path."""

from __future__ import annotations

import pytest

from events.games.mecha.board import BOUNDS, load_scenario
from events.validate import BoundError
from tests.games.bounds_check import assert_refused_at, builtin_faults, documented, hostile, json_path

BIG = 10**12
LONG = "x" * 5000

#: (keys of the value replaced, the value, the path of the refusal, out of bounds?)
CASES = [
    (("seats", 0, "range"), [1, 30_000_000], "$.seats[0].range[1]", True),  # finding 2
    (("seats", 0, "range"), [1, BOUNDS["range"] + 1], "$.seats[0].range[1]", True),
    (("seats", 0, "range"), [-5, 3], "$.seats[0].range", False),
    (("seats", 0, "range"), ["1", 3], "$.seats[0].range[0]", False),
    (("seats", 0, "range"), [1, 2.5], "$.seats[0].range[1]", False),
    (("seats",), [{"seat": f"s{i}", "mech": "M"} for i in range(6)], "$.seats", True),
    (("seats", 0, "mech"), LONG, "$.seats[0].mech", True),
    (("title",), "t" * 201, "$.title", True),
    (("rounds",), BIG, "$.rounds", True),
    (("rounds",), -1, "$.rounds", False),
    (("board", "locations", 0, "level"), BIG, "$.board.locations[0].level", True),
    (("board", "locations", 0, "number"), BIG, "$.board.locations[0].number", True),
    (("board", "locations", 0, "hex"), [BIG, 0], "$.board.locations[0].hex[0]", True),
    (("board", "locations", 0, "hex"), [0, -BIG], "$.board.locations[0].hex[1]", True),
    (("board", "locations", 0, "name"), LONG, "$.board.locations[0].name", True),
    (("board", "card_spaces"), [{"name": f"c{i}", "hex": [i, 50]} for i in range(51)], "$.board.card_spaces", True),
    (("bag", "tokens", 0, "count"), BIG, "$.bag.tokens[0].count", True),
    (("bag", "tokens", 0, "value"), BIG, "$.bag.tokens[0].value", True),
    (("bag", "tokens"), [{"value": 1, "colour": "orange", "count": 100}] * 6, "$.bag.tokens[5].count", True),
    (("bag", "tokens"), [{"value": 1, "colour": "orange", "count": 1}] * 101, "$.bag.tokens", True),
    (("notes",), LONG, "$.notes", True),
    (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes", True),
]


@pytest.mark.parametrize(("keys", "value", "where", "bound"), CASES, ids=[json_path(c[0]) for c in CASES])
def test_mv_c3_hostile_values_are_refused_with_their_path(keys, value, where, bound):
    """MV-C3 / MV-3: huge, negative, wrongly typed, long or deep values are refused with the value's path."""
    assert_refused_at(load_scenario, "mecha/sample", keys, value, where, bound)


def test_mv_c1_a_board_of_more_locations_than_the_bound_is_refused():
    """MV-C1: at most BOUNDS["locations"] Locations; links at most BOUNDS["links"]."""
    locations = [{"number": n, "hex": [n, 0], "level": 0, "face_up": True} for n in range(1, BOUNDS["locations"] + 2)]
    error = hostile(load_scenario, "mecha/sample", ("board", "locations"), locations)
    assert isinstance(error, BoundError) and error.path == "$.board.locations", error
    links = [[1, 2]] * (BOUNDS["links"] + 1)
    error = hostile(load_scenario, "mecha/sample", ("board", "links"), links)
    assert isinstance(error, BoundError) and error.path == "$.board.links", error


def test_mv_c3_every_bound_is_documented_with_its_number():
    """MV-C3: the Bounds table of the format doc lists every bound of BOUNDS, with its number."""
    assert documented("mecha") == BOUNDS


def test_mv_c3_the_builtin_scenarios_are_within_the_bounds():
    """MV-C3: every built-in scenario loads within the bounds."""
    assert builtin_faults("mecha", load_scenario) == []

"""Bounded work (issue 12): every skirmish number that sizes work is bounded, documented, refused past it with its path."""

from __future__ import annotations

import pytest

from events.games.skirmish.board import BOUNDS, load_scenario
from events.validate import BoundError
from tests.games.bounds_check import assert_refused_at, builtin, builtin_faults, documented, hostile, json_path

BIG = 10**12
LONG = "x" * 5000
SCENARIO = "skirmish/purge"
WIDE = "+" + "-+" * (BOUNDS["size"] + 1)

#: (keys of the value replaced, the value, the path of the refusal, out of bounds?)
CASES = [
    (("figures", 0, "speed"), BIG, "$.figures[0].speed", True),
    (("figures", 0, "speed"), 0, "$.figures[0].speed", False),
    (("figures", 0, "speed"), "6", "$.figures[0].speed", False),
    (("figures", 0, "attack"), BIG, "$.figures[0].attack", True),
    (("figures", 0, "attack"), -BIG, "$.figures[0].attack", False),
    (("figures", 0, "hp"), BIG, "$.figures[0].hp", True),
    (("figures", 0, "damage"), BIG, "$.figures[0].damage", True),
    (("figures", 0, "name"), LONG, "$.figures[0].name", True),
    (("figures", 0, "at"), "C" + "9" * 300, "$.figures[0].at", True),
    (("figures", 0, "at"), [BIG, 0], "$.figures[0].at", False),
    (("rounds",), BIG, "$.rounds", True),
    (("title",), LONG, "$.title", True),
    (("map", "rows", 0), WIDE, "$.map.rows[0]", True),
    (("map", "rows", 1), "|" + " " * 4000, "$.map.rows[1]", True),
    (("map", "rows"), ["+-+", "|.|"] * 41 + ["+-+"], "$.map.rows", True),
    (("notes",), LONG, "$.notes", True),
    (("notes",), [[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]], "$.notes", True),
]


@pytest.mark.parametrize(("keys", "value", "where", "bound"), CASES, ids=[json_path(c[0]) for c in CASES])
def test_sk_c1_hostile_values_are_refused_with_their_path(keys, value, where, bound):
    """SK-C1: huge, negative, wrongly typed, long or deep values are refused with the value's path."""
    assert_refused_at(load_scenario, SCENARIO, keys, value, where, bound)


def test_sk_c1_more_figures_than_the_bound_are_refused():
    """SK-C1: at most BOUNDS["figures"] figures, checked before any figure is read."""
    figures = builtin(SCENARIO)["figures"]
    error = hostile(load_scenario, SCENARIO, ("figures",), (figures * 10)[: BOUNDS["figures"] + 1])
    assert isinstance(error, BoundError) and error.path == "$.figures", error


def test_sk_c1_every_bound_is_documented_with_its_number():
    """SK-C1: the Bounds table of the format doc lists every bound of BOUNDS, with its number."""
    assert documented("skirmish") == BOUNDS


def test_sk_c1_the_builtin_scenarios_are_within_the_bounds():
    """SK-C1: every built-in scenario loads within the bounds."""
    assert builtin_faults("skirmish", load_scenario) == []

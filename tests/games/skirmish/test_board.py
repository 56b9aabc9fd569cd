"""Maps and scenarios as data (SK-C1): the ASCII map read into a grid, and every fault named by path."""

from __future__ import annotations

import pytest

from events.games.skirmish import board as boards
from events.validate import ScenarioError
from tests.games.skirmish.helpers import BUILT_INS, builtin, fig, open_rows, scenario

ROWS = [
    "+-+-+-+",
    "|. = ~|",
    "+ +-+D+",
    "|O .|.|",
    "+-+-+-+",
]


def test_sk_c1_the_ascii_map_gives_walls_doors_and_square_features():
    """SK-C1, SK-1, SK-3…SK-6: walls on edges, doors numbered in reading order, features in squares;
    the map's border is no wall (nothing crosses it anyway)."""
    grid = boards.load_map({"name": "m", "rows": ROWS}, 2)
    assert (grid.width, grid.height) == (3, 2)
    assert grid.walls == (((1, 0), (1, 1)), ((1, 1), (2, 1)))
    assert grid.doors == (("door1", ((2, 0), (2, 1))),)
    assert (grid.low, grid.difficult, grid.pits) == (((1, 0),), ((2, 0),), ((0, 1),))


def test_sk_c1_every_built_in_scenario_loads():
    """SK-C1: the built-in scenarios are valid data, one of them a survivors-and-zombies door fight."""
    setups = {name: boards.load_scenario(builtin(name)) for name in BUILT_INS}
    assert setups["purge"].sides == ("survivors", "zombies")
    assert len(setups["purge"].grid.doors) == 2
    assert setups["courtyard"].grid.diagonal_cost == 1


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (lambda d: d["map"]["rows"].pop(), "$.map.rows", "expected an odd number of rows"),
        (lambda d: d["map"]["rows"].__setitem__(1, "|. x ~|"), "$.map.rows[1][3]", "a square is one of"),
        (lambda d: d["map"]["rows"].__setitem__(2, "+ +*+D+"), "$.map.rows[2][3]", "an edge is one of"),
        (lambda d: d["map"]["rows"].__setitem__(0, "+D+-+-+"), "$.map.rows[0][1]", "not on the map's border"),
        (lambda d: d["map"]["rows"].__setitem__(1, 7), "$.map.rows[1]", "expected a string, got 7"),
        (lambda d: d["figures"][0].__setitem__("at", "A2"), "$.figures[0].at", "A2 is a pit"),
        (lambda d: d["figures"][0].__setitem__("at", "Z9"), "$.figures[0].at", "off the 3 × 2 map"),
        (lambda d: d["figures"][1].__setitem__("at", "B1"), "$.figures[1].at", "B1 already holds a"),
        (lambda d: d["figures"][0].__setitem__("attack", "x"), "$.figures[0].attack", 'expected an integer, got \'x\''),
        (lambda d: d["figures"][0].__setitem__("hp", 0), "$.figures[0].hp", "expected an integer >= 1, got 0"),
        (lambda d: d["figures"][0].__setitem__("side", "green"), "$.figures[0].side", "expected one of red, blue"),
        (lambda d: d["figures"][0].__setitem__("speeed", 3), "$.figures[0].speeed", "unknown key"),
        (lambda d: d.__setitem__("diagonal_cost", 3), "$.diagonal_cost", "expected an integer <= 2, got 3"),
        (lambda d: d.__setitem__("sides", ["red"]), "$.sides", "expected at least 2 items"),
        (lambda d: d["figures"].__setitem__(1, fig("a", "blue", "C2")), "$.figures[1].id", "listed twice"),
    ],
)
def test_sk_c1_a_broken_scenario_is_refused_with_the_path_to_the_fault(change, path, message):
    """SK-C1: validation at load names where, what was expected and what was found."""
    data = scenario(list(ROWS), [fig("a", "red", "B1"), fig("b", "blue", "C2")])
    change(data)
    with pytest.raises(ScenarioError) as raised:
        boards.load_scenario(data)
    assert raised.value.path == path and message in raised.value.message


def test_sk_c1_a_side_without_figures_is_refused():
    """SK-C1: each of the two sides needs a figure."""
    with pytest.raises(ScenarioError, match=r"\$.figures: side 'blue' has no figure"):
        boards.load_scenario(scenario(open_rows(3, 1), [fig("a", "red", "A1"), fig("c", "red", "B1")]))

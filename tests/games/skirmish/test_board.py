"""Maps and scenarios as data (SK-C1): the ASCII map read into a grid, and every fault named by path."""

from __future__ import annotations

import pytest

from events.games.skirmish import board as boards
from events.validate import ScenarioError
from tests.games.skirmish.helpers import BUILT_INS, WIDE_DOOR, builtin, fig, open_rows, scenario

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
        (lambda d: d["figures"].__setitem__(1, fig("a", "blue", "C2")), "$.figures[1].id", "figure 'a' is listed twice"),
        (lambda d: d.__setitem__("sides", ["red", "red"]), "$.sides[1]", "side 'red' is listed twice"),
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


# --- doors as one piece: runs of D, labels (SK-6…SK-11) -------------------------------------------------


def door_grid(rows: list) -> object:
    return boards.load_map({"name": "m", "rows": rows}, 2)


def test_sk_6_two_d_edges_on_one_line_are_one_door():
    """SK-6: the D edges B2|C2 and B3|C3 follow each other down one line: one door, two edges."""
    assert door_grid(WIDE_DOOR).doors == (("door1", ((1, 1), (2, 1)), ((1, 2), (2, 2))),)


def test_sk_6_d_edges_side_by_side_on_a_row_are_one_door_and_a_turn_makes_two():
    """SK-6: two horizontal D edges side by side are one door; a D that turns the corner is another."""
    rows = ["+-+-+-+-+", "|. . . .|", "+ +D+D+ +", "|. . .D.|", "+-+-+-+-+"]
    assert door_grid(rows).doors == (
        ("door1", ((1, 0), (1, 1)), ((2, 0), (2, 1))),
        ("door2", ((2, 1), (3, 1))),
    )


def test_sk_6_single_doors_keep_their_names_and_records():
    """SK-6: a map of one-edge doors reads as it always did: (id, edge) pairs in reading order."""
    grid = boards.load_scenario(builtin("purge")).grid
    assert grid.doors == (("door1", ((3, 1), (4, 1))), ("door2", ((2, 2), (2, 3))))


def test_sk_6_a_label_makes_two_doors_side_by_side_and_joins_a_run_of_its_own():
    """SK-6: labels a and b are two one-edge doors next to each other; the c edges are one door,
    and a D next to a label is a door of its own."""
    rows = ["+-+-+-+-+", "|. .a. .|", "+ + + + +", "|. .b. .|", "+ +c+c+D+", "|. . . .|", "+-+-+-+-+"]
    assert door_grid(rows).doors == (
        ("door1", ((1, 0), (2, 0))),
        ("door2", ((1, 1), (2, 1))),
        ("door3", ((1, 1), (1, 2)), ((2, 1), (2, 2))),
        ("door4", ((3, 1), (3, 2))),
    )


@pytest.mark.parametrize(
    ("rows", "path", "message"),
    [
        (["+-+-+-+", "|. .a.|", "+ + +a+", "|. . .|", "+-+-+-+"], "$.map.rows[2][5]",
         "door label 'a' bends: its edges at rows[1][4] and here are not on one line"),
        (["+-+-+-+", "|.a. .|", "+ + + +", "|. . .|", "+ + + +", "|.a. .|", "+-+-+-+"], "$.map.rows[5][2]",
         "door label 'a' is used twice: this edge does not follow its edge at rows[1][2]"),
        (["+-+-+-+", "|.a.a.|", "+ + + +", "|. . .|", "+-+-+-+"], "$.map.rows[1][4]",
         "door label 'a' bends"),
        (["+-+-+-+", "|. . .|", "+ + a +", "|. . .|", "+-+-+-+"], "$.map.rows[2][4]",
         "a corner post is one of '+-| #', got 'a' (door labels go on edges)"),
        (["+-+-+-+", "|. . .|", "+ + + +", "|. .X.|", "+-+-+-+"], "$.map.rows[3][4]",
         "or a door label a–z, got 'X'"),
        (["+-+-+-+", "|. a .|", "+ + + +", "|. . .|", "+-+-+-+"], "$.map.rows[1][3]",
         "a square is one of"),
        (["+-+-+-+", "|.a. .|", "+ + + +", "|. .a.|", "+-+-+-+"], "$.map.rows[3][4]",
         "door label 'a' bends: its edges at rows[1][2] and here are not on one line"),
        (["+-+-+-+", "a. . .|", "+ + + +", "|. . .|", "+-+-+-+"], "$.map.rows[1][0]",
         "a door must lie between two squares, not on the map's border"),
        (["+-+-+-+", "|. . .|", "+ + + +", "|.b. .|", "+-+-+-+"], "$.map.rows[3][2]", None),
    ],
)
def test_sk_c1_a_bad_door_label_is_refused_with_its_place(rows, path, message):
    """SK-C1, SK-6: a label that bends, a label used for two separate runs, a label off an edge,
    an unknown edge character and a label on the border are refused where they stand; a lone
    label is a plain one-edge door."""
    data = scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "C2")])
    if message is None:
        assert boards.load_scenario(data).grid.doors == (("door1", ((0, 1), (1, 1))),)
        return
    with pytest.raises(ScenarioError) as raised:
        boards.load_scenario(data)
    assert raised.value.path == path and message in raised.value.message

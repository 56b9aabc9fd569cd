"""Boards, bags and scenarios as data (MV-C1, MV-C2): loaded once, refused with a path and the fact.

Each broken file is a valid one with one thing changed, so the test shows exactly what a person
editing JSON would get wrong.
"""

from __future__ import annotations

import copy
import json

import pytest

from events.games.mecha.board import load_bag, load_board, load_scenario, neighbours
from events.lookup import by_id
from events.validate import ScenarioError
from tests.games.mecha.helpers import DATA_DIR, MECHA_DIR, builtin, chain, line, read_scenario, scenario


def good_board() -> dict:
    return copy.deepcopy(scenario(line(4, down=(4,)), chain(4), cards=(("A", (9, 9)),))["board"])


def refused(load, data, path: str, fact: str) -> None:
    """Check loading ``data`` raises a ScenarioError at ``path`` whose message holds ``fact``."""
    with pytest.raises(ScenarioError) as caught:
        load(data)
    assert caught.value.path == path, str(caught.value)
    assert fact in caught.value.message, str(caught.value)
    assert str(caught.value) == f"{path}: {caught.value.message}"


# --- MV-C1 Board as data ----------------------------------------------------------------------------


def test_mv_c1_sample_board_has_the_published_shape():
    """MV-C1: 20 Locations, 6 face up, 14 face down with map tokens, 5 card spaces, Camp touching 3."""
    board = load_board(json.loads((MECHA_DIR / "boards" / "tunguska-sample.json").read_text()))
    assert [item.number for item in board.locations] == list(range(1, 21))
    assert sum(item.face_up for item in board.locations) == 6
    assert all(item.map_token for item in board.locations if not item.face_up)
    assert len(board.card_spaces) == 5
    assert board.camp_adjacent == (2, 3, 4)
    assert by_id(board.locations, 20, "number").name == "Impact Site"
    assert by_id(board.locations, 21, "number") is None


def test_mv_c1_adjacency_is_derived_from_touching_hexes():
    """MV-C1: without ``links``, two Locations are adjacent when their hexes touch."""
    board = load_board(json.loads((MECHA_DIR / "boards" / "tunguska-sample.json").read_text()))
    table = neighbours(board)
    assert table[3] == (2, 4, 8)
    assert table[20] == (13, 19)
    assert all(a < b for a, b in board.links)


def test_mv_c1_explicit_links_are_merged_and_sorted():
    """MV-C1: ``links`` pairs are undirected; a repeated or reversed pair counts once."""
    data = good_board()
    data["links"] = [[2, 1], [1, 2], [3, 2], [4, 3]]
    assert load_board(data).links == ((1, 2), (2, 3), (3, 4))


def test_mv_c1_every_builtin_scenario_loads():
    """MV-C1 / MV-C2: the shipped scenarios and the MV-9 fixture are valid."""
    for name in ("sample", "scarce-bag", "three-mechs"):
        setup = load_scenario(builtin(name))
        assert setup.rounds >= 10 and setup.board.name.startswith("Tunguska")
    assert load_scenario(read_scenario(DATA_DIR / "mv9-scenario.json")).starts == (11, 10)


def test_mv_c1_camp_with_two_adjacent_is_refused():
    """MV-C1 / MV-2: the Camp must touch exactly 3 Locations."""
    data = good_board()
    data["camp"]["adjacent"] = [1, 2]
    refused(load_board, data, "$.camp.adjacent", "exactly 3 Locations (MV-2), got 2")


def test_mv_c1_camp_naming_an_unknown_location_is_refused():
    """MV-C1: the Camp's neighbours must be Locations of the board."""
    data = good_board()
    data["camp"]["adjacent"] = [1, 2, 42]
    refused(load_board, data, "$.camp.adjacent[2]", "unknown Location 42: this board's Locations are 1–")
    refused(load_board, data, "$.camp.adjacent[2]", "(MV-C1)")


def test_mv_c1_camp_naming_a_location_twice_is_refused():
    """MV-C1 / MV-2: three different Locations."""
    data = good_board()
    data["camp"]["adjacent"] = [1, 2, 1]
    refused(load_board, data, "$.camp.adjacent[2]", "Location 1 is listed twice")


def test_mv_c1_links_naming_an_unknown_location_are_refused():
    """MV-C1: a link joins two Locations of the board."""
    data = good_board()
    data["links"].append([3, 99])
    refused(load_board, data, "$.links[3][1]", "unknown Location 99: this board's Locations are")
    refused(load_board, data, "$.links[3][1]", "(MV-C1)")


def test_mv_c1_a_location_linked_to_itself_is_refused():
    """MV-C1: a link joins two different Locations."""
    data = good_board()
    data["links"].append([2, 2])
    refused(load_board, data, "$.links[3]", "Location 2 cannot be linked to itself")


def test_mv_c1_duplicate_location_numbers_are_refused():
    """MV-C1: Location numbers are unique."""
    data = good_board()
    data["locations"][2]["number"] = 1
    refused(load_board, data, "$.locations[2].number", "Location 1 is listed twice")


def test_mv_c1_duplicate_hexes_are_refused():
    """MV-C1: one thing per hex: Locations, card spaces and the Camp."""
    data = good_board()
    data["locations"][1]["hex"] = [1, 100]
    refused(load_board, data, "$.locations[1].hex", "hex [1, 100] is already used by Location 1")
    data = good_board()
    data["card_spaces"][0]["hex"] = [3, 100]
    refused(load_board, data, "$.card_spaces[0].hex", "hex [3, 100] is already used by Location 3")
    data = good_board()
    data["camp"]["hex"] = [9, 9]
    refused(load_board, data, "$.camp.hex", "hex [9, 9] is already used by card space 'A'")


def test_mv_c1_map_token_on_a_face_up_location_is_refused():
    """MV-C1: only face-down Locations carry a map token."""
    data = good_board()
    data["locations"][0]["map_token"] = True
    refused(load_board, data, "$.locations[0].map_token", "only a face-down Location carries a map token")


def test_mv_c1_misspelt_keys_are_refused():
    """MV-C1: a misspelt key is an error, never a silent default."""
    data = good_board()
    data["locations"][3]["map_tokens"] = data["locations"][3].pop("map_token")
    refused(load_board, data, "$.locations[3].map_tokens", "unknown key (expected one of: face_up, hex, level")
    data = good_board()
    data["link"] = data.pop("links")
    refused(load_board, data, "$.link", "unknown key")
    data = good_board()
    del data["locations"][0]["face_up"]
    refused(load_board, data, "$.locations[0]", "missing required key 'face_up'")


@pytest.mark.parametrize(
    ("where", "value", "path", "fact"),
    [
        (("locations", 0, "level"), "3", "$.locations[0].level", "expected an integer, got '3'"),
        (("locations", 0, "level"), 2.0, "$.locations[0].level", "expected an integer, got 2.0"),
        (("locations", 0, "level"), -1, "$.locations[0].level", "expected an integer >= 0, got -1"),
        (("locations", 0, "number"), 0, "$.locations[0].number", "expected an integer >= 1, got 0"),
        (("locations", 0, "number"), True, "$.locations[0].number", "expected an integer, got true"),
        (("locations", 0, "face_up"), "yes", "$.locations[0].face_up", "expected true or false, got 'yes'"),
        (("locations", 0, "hex"), [1, 2, 3], "$.locations[0].hex", "expected at most 2 items, got 3"),
        (("locations", 0, "hex"), [1], "$.locations[0].hex", "expected at least 2 items, got 1"),
        (("locations", 0, "hex"), {"q": 1}, "$.locations[0].hex", "expected a list, got an object"),
        (("locations", 0, "name"), "", "$.locations[0].name", "expected a non-empty string, got ''"),
        (("locations", 0), None, "$.locations[0]", "expected an object, got null"),
        (("locations",), [], "$.locations", "expected at least 1 items, got 0"),
        (("name",), 7, "$.name", "expected a non-empty string, got 7"),
        (("camp",), [1, 2, 3], "$.camp", "expected an object, got a list of 3"),
    ],
)
def test_mv_c1_bad_types_are_refused_with_their_path(where, value, path, fact):
    """MV-C1: each value is checked for its type at load, and the error names the path."""
    data = good_board()
    target = data
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    refused(load_board, data, path, fact)


def test_mv_c1_a_board_that_is_not_an_object_is_refused():
    """MV-C1: a board file holds one object."""
    refused(load_board, [], "$", "expected an object, got a list of 0")
    refused(lambda data: load_board(data, "$.board"), "x.json", "$.board", "expected an object, got 'x.json'")


# --- MV-C2 Bag as data ------------------------------------------------------------------------------


def test_mv_c2_bag_counts_are_merged_and_sorted():
    """MV-C2: the bag is a multiset: repeated entries add up, sorted by value then colour."""
    bag = load_bag({"tokens": [
        {"value": 3, "colour": "turquoise", "count": 1},
        {"value": 1, "colour": "orange", "count": 2},
        {"value": 3, "colour": "turquoise", "count": 2},
        {"value": 3, "colour": "orange", "count": 1},
    ]})
    assert bag == ((1, "orange", 2), (3, "orange", 1), (3, "turquoise", 3))


def test_mv_c2_sample_bag_loads():
    """MV-C2: the shipped bag file (the sample's own counts)."""
    bag = load_bag(json.loads((MECHA_DIR / "boards" / "corruption-bag.json").read_text()))
    assert sum(count for _value, _colour, count in bag) == 34
    assert (20, "orange", 1) in bag


@pytest.mark.parametrize(
    ("token", "path", "fact"),
    [
        ({"value": 1, "colour": "red", "count": 1}, "$.tokens[0].colour", "expected one of orange, turquoise, got 'red'"),
        ({"value": 0, "colour": "orange", "count": 1}, "$.tokens[0].value", "expected an integer >= 1, got 0"),
        ({"value": 1, "colour": "orange", "count": 0}, "$.tokens[0].count", "expected an integer >= 1, got 0"),
        ({"value": 1, "colour": "orange"}, "$.tokens[0]", "missing required key 'count'"),
        ({"value": 1, "color": "orange", "count": 1}, "$.tokens[0]", "missing required key 'colour'"),
        ({"value": 1, "colour": "orange", "count": 1, "face": "up"}, "$.tokens[0].face", "unknown key"),
    ],
)
def test_mv_c2_bad_tokens_are_refused(token, path, fact):
    """MV-C2: tokens have a positive value, a known colour and a positive count."""
    refused(load_bag, {"tokens": [token]}, path, fact)


def test_mv_c2_an_empty_bag_is_refused():
    """MV-C2: a bag lists at least one token."""
    refused(load_bag, {"tokens": []}, "$.tokens", "expected at least 1 items, got 0")


# --- scenarios --------------------------------------------------------------------------------------


def good_scenario() -> dict:
    return scenario(line(4), chain(4))


@pytest.mark.parametrize(
    ("change", "path", "fact"),
    [
        (lambda s: s.update(game="arkham"), "$.game", "expected 'mecha', got 'arkham'"),
        (lambda s: s.update(seats=[]), "$.seats", "expected at least 1 items, got 0"),
        (lambda s: s.update(seats=[{"seat": f"s{i}", "mech": "M"} for i in range(6)]), "$.seats",
         "expected at most 5 items, got 6"),
        (lambda s: s["seats"][1].update(seat="red"), "$.seats[1].seat", "seat 'red' is listed twice"),
        (lambda s: s["seats"][0].update(seat="red team"), "$.seats[0].seat", "letters, digits, - or _, got 'red team'"),
        (lambda s: s["seats"][0].update(seat="r" * 25), "$.seats[0].seat", "a seat name is 1–24"),
        (lambda s: s["seats"][0].update(range=[3, 1]), "$.seats[0].range", "expected 1 <= min <= max, got [3, 1] (MV-3)"),
        (lambda s: s["seats"][0].update(range=[0, 3]), "$.seats[0].range", "expected 1 <= min <= max"),
        (lambda s: s["seats"][0].update(mech=""), "$.seats[0].mech", "expected a non-empty string"),
        (lambda s: s.update(rounds=0), "$.rounds", "expected an integer >= 1, got 0"),
        (lambda s: s.update(rounds=10_001), "$.rounds", "expected an integer <= 10000, got 10001"),
        (lambda s: s.update(title=""), "$.title", "expected a non-empty string"),
        (lambda s: s.update(turns=3), "$.turns", "unknown key"),
        (lambda s: s.update(start={"green": 1}), "$.start.green", "unknown key"),
        (lambda s: s.update(start={"red": 7}), "$.start.red", "unknown Location 7: this board's Locations are 1–4 (MV-C1)"),
        (lambda s: s.update(start={"red": "north"}), "$.start.red", "expected an integer, got 'north'"),
        (lambda s: s.update(start={"red": 1, "blue": 1}), "$.start.blue", "Location 1 already holds red's Mecha (MV-1)"),
        (lambda s: s.update(board="board.json"), "$.board", "expected an object, got 'board.json'"),
    ],
)
def test_mv_c1_broken_scenarios_are_refused(change, path, fact):
    """MV-C1 / MV-C3: seats, Ranges, rounds and start positions are checked at load."""
    data = good_scenario()
    change(data)
    refused(load_scenario, data, path, fact)


def test_mv_c1_start_in_the_camp_may_be_written_out():
    """MV-C1 / MV-2: a start of "camp" or null is the Camp."""
    data = good_scenario()
    data["start"] = {"red": "camp", "blue": None}
    assert load_scenario(data).starts == (None, None)

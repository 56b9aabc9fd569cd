"""The board file and scenario files: loaded once, validated with a path to every fault (STYLE habit 5)."""

from __future__ import annotations

import copy

import pytest

from events.games.arkham import board as boards
from events.games.arkham import rules
from events.validate import ScenarioError
from tests.games.arkham.helpers import BOARD, BUILTINS, builtin, inv, mon, scenario, table


def test_ah_c6_the_base_board_holds_the_digests_facts():
    """AH-C6 / AH-3: 9 Streets, 26 Locations (11 unstable), 8 Other Worlds of two areas, the special areas."""
    board = boards.load_board(BOARD)
    kinds: dict = {}
    for area in board.areas:
        kinds.setdefault(area.kind, []).append(area)
    assert (len(kinds["street"]), len(kinds["location"]), len(kinds["other_world"])) == (9, 26, 16)
    assert sorted(area.id for area in kinds["location"] if area.unstable) == [
        "black_cave", "graveyard", "hibbs_roadhouse", "historical_society", "independence_square",
        "science_building", "silver_twilight_lodge", "the_unnamable", "the_witch_house", "unvisited_isle", "woods"]
    assert sorted(area.id for area in kinds["special"]) == ["lost_in_time_and_space", "outskirts", "sky"]
    assert [world.areas for world in board.worlds][5] == ("rlyeh_1", "rlyeh_2")
    assert len(board.lines) == 38


def test_ah_3_every_area_has_a_distinct_drawing_position():
    """AH-3: a renderer draws every area where the board file says ('at', 'areas_at')."""
    board = boards.load_board(BOARD)
    spots = [area.at for area in board.areas]
    assert len(set(spots)) == len(spots) == 54
    missing = copy.deepcopy(BOARD)
    del missing["locations"][3]["at"]
    with pytest.raises(ScenarioError, match=r"^\$\.locations\[3\]: missing required key 'at'$"):
        boards.load_board(missing)


def test_ah_3_the_unverified_line_is_marked_and_a_scenario_may_drop_it():
    """AH-3: Merchant District – Downtown is kept but marked; ``use_unverified_lines: false`` drops it."""
    kept = boards.load_board(BOARD)
    assert kept.unverified == (("downtown", "merchant_district"),)
    assert ("downtown", "merchant_district") in kept.lines
    assert boards.route(kept, "merchant_district", "downtown") == ("downtown",)
    dropped = table(builtin("monster-street")).state.board
    assert ("downtown", "merchant_district") not in dropped.lines
    assert dropped.unverified == (("downtown", "merchant_district"),)
    assert boards.route(dropped, "merchant_district", "downtown") == ("northside", "downtown")


def test_ah_c6_every_built_in_scenario_loads():
    """AH-C6: the built-in scenarios are valid data."""
    for name in BUILTINS:
        setup = boards.load_scenario(builtin(name))
        assert setup.investigators and setup.rounds >= 1, name


@pytest.mark.parametrize(("change", "path", "message"), [
    (lambda s: s.update(investigators=[]), r"\$\.investigators", "expected at least 1 items"),
    (lambda s: s.update(investigators=[inv(f"s{i}", "northside") for i in range(9)]), r"\$\.investigators",
     "expected at most 8 items"),
    (lambda s: s["investigators"].append(inv("red", "downtown")), r"\$\.investigators\[1\]\.seat",
     "seat 'red' is listed twice"),
    (lambda s: s["investigators"][0].update(at="sky"), r"\$\.investigators\[0\]\.at", "Sky holds monsters only"),
    (lambda s: s["investigators"][0].update(speed=-1), r"\$\.investigators\[0\]\.speed", "integer >= 0, got -1"),
    (lambda s: s["investigators"][0].update(blessed=True, cursed=True), r"\$\.investigators\[0\]\.cursed",
     "Blessed or Cursed, not both"),
    (lambda s: s["investigators"][0].update(sped=4), r"\$\.investigators\[0\]\.sped", "unknown key"),
    (lambda s: s.update(gates=[{"location": "library", "world": "rlyeh"}]), r"\$\.gates\[0\]\.location",
     "Library is not an unstable Location"),
    (lambda s: s.update(gates=[{"location": "woods", "world": "kadath"}]), r"\$\.gates\[0\]\.world",
     "unknown Other World 'kadath'"),
    (lambda s: s.update(gates=[{"location": "woods", "world": "rlyeh"}, {"location": "woods", "world": "abyss"}]),
     r"\$\.gates\[1\]\.location", "Woods already has a gate"),
    (lambda s: s.update(clues=[{"area": "sky", "count": 1}]), r"\$\.clues\[0\]\.area", "Location or Street"),
    (lambda s: s.update(clues=[{"area": "library", "count": 0}]), r"\$\.clues\[0\]\.count", ">= 1, got 0"),
    (lambda s: s.update(monsters=[mon("a", "rivertown"), mon("a", "downtown")]), r"\$\.monsters\[1\]\.id",
     "listed twice"),
    (lambda s: s.update(options={"spend_clue": True}), r"\$\.options\.spend_clue", "unknown key"),
    (lambda s: s.update(game="mecha"), r"\$\.game", "expected 'arkham'"),
    (lambda s: s["board"]["lines"].append({"a": "sky", "b": "downtown"}), r"\$\.board\.lines\[38\]\.a",
     "no yellow line reaches it"),
    (lambda s: s["board"]["locations"][0].update(street="downtown"), r"\$\.board\.locations\[0\]\.street",
     "does not list Location 'curiositie_shoppe'"),
])
def test_ah_c6_a_bad_scenario_is_refused_with_a_path(change, path, message):
    """AH-C6: each fault names where it is and what was expected."""
    data = scenario([inv("red", "graveyard")])
    data["board"] = copy.deepcopy(data["board"])
    change(data)
    with pytest.raises(ScenarioError, match=rf"^{path}: .*{message}"):
        boards.load_scenario(data)


def test_ah_12_a_board_without_lost_in_time_and_space_is_refused():
    """AH-12 / AH-C5: the board must have the Lost in Time and Space area."""
    bad = copy.deepcopy(BOARD)
    bad["special_areas"] = [area for area in bad["special_areas"] if area["id"] != "lost_in_time_and_space"]
    with pytest.raises(ScenarioError, match="needs the 'lost_in_time_and_space' area"):
        boards.load_board(bad)


def test_ah_c5_lost_in_time_and_space_in_a_scenario_is_delayed():
    """AH-C5: an investigator that starts Lost is delayed, whatever the file says."""
    tab = table(scenario([inv("red", "lost_in_time_and_space"), inv("blue", "northside")]))
    assert tab.state.investigators[0].delayed
    assert rules.phase(tab.state) == "place"


def test_ah_11_an_investigator_may_start_on_an_explored_marker():
    """AH-11: ``explored: true`` puts an Explored marker under an investigator in a Location; it stays while
    the investigator stays and goes when it walks on."""
    from events.games.arkham.model import Move

    tab = table(scenario([inv("red", "the_witch_house", explored=True), inv("blue", "northside")],
                         gates=(("the_witch_house", "yuggoth"),)))
    assert tab.state.investigators[0].explored == "the_witch_house"
    assert tab.state.investigators[1].explored == ""
    tab.submit("red", Move("french_hill"), "c-move")
    assert tab.state.investigators[0].explored == ""


@pytest.mark.parametrize("where, value, message", [
    ("french_hill", True, r"an Explored marker lies in a Location, and French Hill is not one \(AH-11\)"),
    ("yuggoth_1", True, "Yuggoth .* is not one"),
    ("the_witch_house", "yes", "expected true or false, got .yes."),
])
def test_ah_11_an_explored_marker_outside_a_location_is_refused_with_its_path(where, value, message):
    """AH-11: the marker lies under the investigator in a Location only; the fault is named at its path."""
    with pytest.raises(ScenarioError, match=rf"^\$\.investigators\[0\]\.explored: .*{message}"):
        boards.load_scenario(scenario([inv("red", where, explored=value)]))


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: s["board"]["locations"].append(copy.deepcopy(s["board"]["locations"][0])),
     "$.board.locations[26].id: area 'curiositie_shoppe' is listed twice"),
    (lambda s: s["board"]["other_worlds"].append(dict(s["board"]["other_worlds"][0], areas=["x_1", "x_2"])),
     "$.board.other_worlds[8].id: Other World 'abyss' is listed twice"),
    (lambda s: s["board"]["lines"].append(s["board"]["lines"][0]),
     "$.board.lines[38]: the line curiositie_shoppe–northside is listed twice"),
    (lambda s: s.update(monsters=[mon("a", "rivertown"), mon("a", "downtown")]),
     "$.monsters[1].id: monster 'a' is listed twice"),
    (lambda s: s.update(clues=[{"area": "library", "count": 1}, {"area": "library", "count": 2}]),
     "$.clues[1].area: 'library' is listed twice"),
    (lambda s: s["investigators"][0].update(seat="r d"),
     "$.investigators[0].seat: a seat name is 1–24 letters, digits, - or _, got 'r d'"),
])
def test_ah_c6_an_item_listed_twice_or_a_bad_seat_name_is_refused_at_its_path(change, expected):
    """AH-C6: every id of the board and scenario once (events.validate.listed_once), seat names by seat_name."""
    data = scenario([inv("red", "graveyard")])
    data["board"] = copy.deepcopy(data["board"])
    change(data)
    with pytest.raises(ScenarioError) as error:
        boards.load_scenario(data)
    assert str(error.value) == expected

"""The map, cards and scenarios as data (EC-C1, EC-C2): what the shipped files hold, and every
fault found at load with a path, the expected and the found."""

from __future__ import annotations

import copy

import pytest

from events.games.echo.board import load_cards, load_map, load_scenario, neighbours
from events.validate import ScenarioError
from tests.games.echo.helpers import BUILTINS, CARDS, MAP, builtin, scenario


def error_of(loader, data) -> str:
    with pytest.raises(ScenarioError) as caught:
        loader(data)
    return str(caught.value)


def test_ec_c1_the_sample_map_has_both_names_both_kinds_of_link_and_the_special_places():
    """EC-C1: Russian and English names, white arrows and Dark Path links, the Asylum, the Ministry, the Dark Side."""
    board = load_map(MAP)
    assert all(place.name_ru and place.name_en for place in board.locations)
    kinds = {place.id: place.kind for place in board.locations}
    assert kinds["asylum"] == "asylum" and kinds["dark-side"] == "dark-side"
    assert [place for place, kind in sorted(kinds.items()) if kind == "ministry"] == [
        "hall-of-common-work", "house-by-the-bridge", "juffins-office"]
    assert board.ministry[0] == "house-by-the-bridge"
    links = {link.kind for link in board.links}
    assert links == {"arrow", "dark"}
    assert ("kholomi", "dark") in neighbours(board)["juffins-office"]


def test_ec_c1_every_place_but_the_dark_side_is_reachable_by_links():
    """EC-C1: the sample map is one city: from the Ministry every place can be walked to (EC-19 aside)."""
    board = load_map(MAP)
    table = neighbours(board)
    seen = {"house-by-the-bridge"}
    frontier = ["house-by-the-bridge"]
    while frontier:
        place = frontier.pop()
        for near, _kind in table[place]:
            if near not in seen and near != board.dark_side:
                seen.add(near)
                frontier.append(near)
    assert seen | {board.dark_side} == {place.id for place in board.locations}


@pytest.mark.parametrize(("change", "expected"), [
    (lambda m: m["locations"][1].__setitem__("id", m["locations"][0]["id"]),
     "$.locations[1].id: location 'house-by-the-bridge' is listed twice"),
    (lambda m: m["locations"][2].__setitem__("x", "5"), "$.locations[2].x: expected an integer, got '5'"),
    (lambda m: m["locations"][2].__setitem__("y", 2.0), "$.locations[2].y: expected an integer, got 2.0"),
    (lambda m: m["locations"][0].pop("name_ru"), "$.locations[0]: missing required key 'name_ru'"),
    (lambda m: m["locations"][0].__setitem__("nmae_en", "x"),
     "$.locations[0].nmae_en: unknown key (expected one of: id, name_en, name_ru, notes, x, y)"),
    (lambda m: m["arrows"][3].__setitem__(1, "atlantis"), "$.arrows[3][1]: unknown location 'atlantis'"),
    (lambda m: m["dark_path"].append(["kholomi", "kholomi"]),
     "$.dark_path[5]: location 'kholomi' cannot be linked to itself"),
    (lambda m: m["dark_path"].append(["juffins-office", "house-by-the-bridge"]),
     "$.dark_path[5]: 'juffins-office' and 'house-by-the-bridge' are already linked"),
    (lambda m: m.__setitem__("asylum", "bedlam"), "$.asylum: unknown location 'bedlam'"),
    (lambda m: m.__setitem__("ministry", []), "$.ministry: expected at least 1 items, got 0"),
    (lambda m: m["ministry"].append("asylum"),
     "$.ministry[3]: 'asylum' is the Asylum, not a Ministry location (EC-18)"),
    (lambda m: m.__setitem__("dark_side", "juffins-office"),
     "$.dark_side: 'juffins-office' is already the Asylum or a Ministry location (EC-19)"),
    (lambda m: m["locations"][0].__setitem__("id", "House"),
     "$.locations[0].id: expected an id of 1–48 lower-case letters, digits or '-', got 'House'"),
])
def test_ec_c1_a_broken_map_names_the_place_of_the_fault(change, expected):
    """EC-C1: each fault of a map file is reported with its path, what was expected and what was found."""
    data = copy.deepcopy(MAP)
    change(data)
    assert error_of(load_map, data) == expected


def test_ec_c2_the_worked_examples_carry_the_numbers_of_the_text():
    """EC-C2 (EC-4, EC-13, EC-14, EC-10, EC-11): the Novice has evasion penalty 1, blue 1 and 1 fixed
    Sanity; Banishing Spark is obvious magic of difficulty 3 and price 1, cast in combat."""
    cards, _investigators = load_cards(CARDS)
    novice = next(card for card in cards.enemies if card.id == "novice-barking-fish")
    assert (novice.name_ru, novice.name_en) == ("Послушник Ордена Лающей Рыбы", "Novice of the Order of the Barking Fish")
    assert (novice.kind, novice.evasion, novice.blue, novice.red, novice.fixed_sanity, novice.fixed_health) == (
        "person", 1, 1, 0, 1, 0)
    spark = next(card for card in cards.spells if card.id == "banishing-spark")
    assert (spark.name_ru, spark.name_en) == ("Изгнание искры", "Banishing Spark")
    assert (spark.kind, spark.difficulty, spark.price, spark.combat) == ("obvious", 3, 1, True)


def test_ec_c2_cards_hold_every_field_the_rules_read():
    """EC-C2: enemy (kind, tracks, penalties, attack, fixed damage), spell (kind, difficulty, price,
    effect, in combat), item (damage); the kinds of EC-C4 all appear."""
    cards, investigators = load_cards(CARDS)
    assert {card.kind for card in cards.enemies} == {"person", "undead", "artifact"}
    assert {card.kind for card in cards.spells} == {"obvious", "true"}
    assert any(not card.combat for card in cards.spells)
    assert investigators["melifaro"][1][:2] == (5, 5)  # Speed 5 (EC-2's example), Stealth 5 (EC-4's)


@pytest.mark.parametrize(("change", "expected"), [
    (lambda c: c["enemies"][0].__setitem__("sanity", "x"), "$.enemies[0].sanity: expected an integer, got 'x'"),
    (lambda c: c["enemies"][0].__setitem__("health", 0), "$.enemies[0].health: expected an integer >= 1, got 0"),
    (lambda c: c["enemies"][1].__setitem__("kind", "ghost"),
     "$.enemies[1].kind: expected one of person, undead, artifact, got 'ghost'"),
    (lambda c: c["enemies"][0]["attack"].pop("red"), "$.enemies[0].attack: missing required key 'red'"),
    (lambda c: c["spells"][0].__setitem__("kind", "dark"), "$.spells[0].kind: expected one of obvious, true, got 'dark'"),
    (lambda c: c["spells"][0].__setitem__("combat", 1), "$.spells[0].combat: expected true or false, got 1"),
    (lambda c: c["items"][0]["damage"].__setitem__("health", -1),
     "$.items[0].damage.health: expected an integer >= 0, got -1"),
    (lambda c: c["investigators"][0]["items"].append("sword"), "$.investigators[0].items[1]: unknown item 'sword'"),
    (lambda c: c["investigators"][1]["spells"].append("dagger"),
     "$.investigators[1].spells[3]: unknown spell 'dagger'"),
    (lambda c: c["items"].append(dict(c["items"][0])), "$.items[4].id: card 'dagger' is listed twice"),
])
def test_ec_c2_broken_cards_name_the_place_of_the_fault(change, expected):
    """EC-C2: each fault of a cards file is reported with its path."""
    data = copy.deepcopy(CARDS)
    change(data)
    assert error_of(load_cards, data) == expected


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: s.__setitem__("game", "mecha"), "$.game: expected 'echo', got 'mecha'"),
    (lambda s: s["seats"][0].__setitem__("investigator", "juffin"),
     "$.seats[0].investigator: unknown investigator 'juffin' (known: kofa, lonli-lokli, max, melamori, melifaro)"),
    (lambda s: s["seats"][1].__setitem__("investigator", "melifaro"),
     "$.seats[1].investigator: investigator 'melifaro' already has a seat"),
    (lambda s: s["seats"][1].__setitem__("seat", "red"), "$.seats[1].seat: seat 'red' is listed twice"),
    (lambda s: s["seats"][0].__setitem__("at", "moon"), "$.seats[0].at: unknown location 'moon'"),
    (lambda s: s["enemies"][0].__setitem__("card", "dragon"), "$.enemies[0].card: unknown enemy card 'dragon'"),
    (lambda s: s.__setitem__("rounds", 0), "$.rounds: expected an integer >= 1, got 0"),
    (lambda s: s["map"].__setitem__("asylum", 3), "$.map.asylum: expected a non-empty string, got 3"),
    (lambda s: s["cards"]["enemies"][0].__setitem__("evasion", "1"),
     "$.cards.enemies[0].evasion: expected an integer, got '1'"),
    (lambda s: s["map"]["ministry"].append(s["map"]["ministry"][0]),
     "$.map.ministry[3]: location 'house-by-the-bridge' is listed twice"),
    (lambda s: s["enemies"].append(dict(s["enemies"][0])), "$.enemies[1].id: enemy 'novice-1' is listed twice"),
    (lambda s: s["cards"]["enemies"].append(copy.deepcopy(s["cards"]["enemies"][0])),
     "$.cards.enemies[4].id: card 'novice-barking-fish' is listed twice"),
    (lambda s: s["cards"]["investigators"].append(copy.deepcopy(s["cards"]["investigators"][0])),
     "$.cards.investigators[5].id: card 'melifaro' is listed twice"),
    (lambda s: s["seats"][0].__setitem__("seat", "r d"),
     "$.seats[0].seat: a seat name is 1–24 letters, digits, - or _, got 'r d'"),
])
def test_ec_c1_a_broken_scenario_names_the_place_of_the_fault(change, expected):
    """EC-C1 / EC-C2: scenario faults, down into the inlined map and cards, carry their full path (each id
    listed once: events.validate.listed_once; seat names: seat_name)."""
    data = copy.deepcopy(scenario([("red", "melifaro", "old-city"), ("blue", "max", "old-city")],
                                  [("novice-1", "novice-barking-fish", "old-city")]))
    change(data)
    assert error_of(load_scenario, data) == expected


@pytest.mark.parametrize("name", BUILTINS)
def test_ec_c1_every_builtin_scenario_loads(name):
    """EC-C1: the shipped scenarios load with their map and cards inlined."""
    setup = load_scenario(builtin(name))
    assert setup.seats and setup.rounds >= 1


def test_ec_16_the_group_combat_builtin_has_two_investigators_and_two_enemies_in_one_place():
    """EC-16: the issue asks for a built-in scenario of group combat, two against two."""
    setup = load_scenario(builtin("bunba-brawl"))
    assert {inv.location for inv in setup.investigators} == {"glutton-bunba"} and len(setup.investigators) == 2
    assert {enemy.location for enemy in setup.enemies} == {"glutton-bunba"} and len(setup.enemies) == 2

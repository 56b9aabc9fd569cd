"""Gloomhaven's data files are validated at load, each fault named by its path (STYLE habit 5)."""

from __future__ import annotations

import copy

import pytest

from events.games.gloomhaven.board import load_classes, load_map, load_monsters, load_position, load_scenario
from events.validate import ScenarioError
from tests.games.gloomhaven.helpers import CHARACTERS, MONSTERS, builtin, open_map, scenario


def refuses(loader, data, message):
    with pytest.raises(ScenarioError) as error:
        loader(data)
    assert str(error.value) == message


def test_every_built_in_scenario_loads():
    for name in ("barrow", "drake-den"):
        setup = load_scenario(builtin(name))
        assert setup.characters and setup.monsters


def test_gh_c1_map_faults_are_named_by_path():
    """GH-C1: terrain off the map, two kinds on one hex, a thin wall between strangers."""
    refuses(load_map, {"name": "m", "hexes": [[0, 0]], "traps": [[1, 1]]}, "$.traps[0]: hex [1, 1] is not on the map")
    refuses(load_map, {"name": "m", "hexes": [[0, 0]], "traps": [[0, 0]], "obstacles": [[0, 0]]},
            "$.traps[0]: hex [0, 0] is already listed in obstacles: a hex holds one kind of terrain (GH-C1)")
    refuses(load_map, {"name": "m", "hexes": [[0, 0], [2, 0]], "thin_walls": [[[0, 0], [2, 0]]]},
            "$.thin_walls[0]: a thin wall lies between two neighbouring hexes; [0, 0] and [2, 0] are not neighbours")
    refuses(load_map, {"name": "m"}, "$: a map needs at least one hex (give hexes or regions)")
    refuses(load_map, {"name": "m", "hexes": [[0, 0]], "trap": []},
            "$.trap: unknown key (expected one of: difficult, doors, hazardous, hexes, name, notes, obstacles, regions, "
            "thin_walls, traps, walls)")


def test_regions_lay_out_even_columns_higher():
    game_map = load_map(open_map(3, 2))
    assert game_map.hexes == ((0, 0), (0, 1), (1, 0), (1, 1), (2, -1), (2, 0))


def test_card_and_monster_faults_are_named_by_path():
    bad = copy.deepcopy(MONSTERS)
    bad["types"][0]["normal"]["hp"] = "x"
    refuses(load_monsters, bad, '$.types[0].normal.hp: expected an integer, got \'x\'')
    bad = copy.deepcopy(MONSTERS)
    bad["types"][0]["deck"][0]["actions"][1]["pattern"] = [[2, 0]]
    refuses(load_monsters, bad, "$.types[0].deck[0].actions[1].pattern: a melee area pattern must touch the attacker: "
            "one hex at distance 1")
    bad = copy.deepcopy(CHARACTERS)
    bad["classes"][1]["cards"][0]["id"] = "br-01"
    refuses(load_classes, bad, "$.classes[1].cards[0].id: card id 'br-01' is already used by class 'Brute'")
    bad = copy.deepcopy(CHARACTERS)
    bad["classes"][0]["cards"][0]["top"] = {"attack": 3, "move": 2}
    refuses(load_classes, bad, "$.classes[0].cards[0].top: expected exactly one of move, attack, heal, summon, got 2")


def test_scenario_faults_are_named_by_path():
    data = scenario(open_map(), [("red", "Brute", (0, 0))], [("Bandit Guard", "normal", 1, (0, 0))])
    refuses(load_scenario, data, "$.figures[0].hex: hex [0, 0] already holds character red (GH-4)")
    data = scenario(open_map(obstacles=[[1, 1]]), [("red", "Brute", (1, 1))], [("Bandit Guard", "normal", 1, (0, 0))])
    refuses(load_scenario, data, "$.characters[0].hex: hex [1, 1] holds an obstacle, trap or door: no figure starts there")
    data = scenario(open_map(), [("red", "Wizard", (0, 0))], [("Bandit Guard", "normal", 1, (0, 1))])
    refuses(load_scenario, data, "$.characters[0].class: no class 'Wizard' in the cards (known: Brute, Tinkerer)")
    data = scenario(open_map(), [("red", "Brute", (0, 0)), ("blue", "Brute", (0, 1))], [("Bandit Guard", "normal", 1, (0, 2))])
    refuses(load_scenario, data, "$.characters[1].class: class 'Brute' is already played by red")


def test_position_faults_are_named_by_path():
    refuses(load_position, {"map": {"name": "m", "hexes": [[0, 0], [1, 0]]},
                            "figures": [{"id": "s", "side": "summon", "hex": [0, 0], "summoner": "c"}]},
            "$.figures[0].summoner: no figure 'c'")
    refuses(load_position, {"map": {"name": "m", "hexes": [[0, 0]], "obstacles": [[0, 0]]},
                            "figures": [{"id": "M", "side": "monster", "hex": [0, 0]}]},
            "$.figures[0].hex: hex [0, 0] is an obstacle: only a flying figure stands there")


def _position(attack: dict | None = None, **hero: object) -> dict:
    actor = {"id": "M", "side": "monster", "hex": [0, 0]}
    if attack is not None:
        actor["attack"] = attack
    return {"map": {"name": "m", "hexes": [[q, 0] for q in range(4)]},
            "figures": [actor, {"id": "A", "side": "character", "hex": [3, 0], **hero}]}


def test_gh_c10_area_patterns_are_bounded_and_refused_by_path():
    """GH-C10: a pattern hex listed twice, too far out, ``targets`` with a pattern, ``plus_targets`` without one or
    above 6: each refused with its path; a ranged pattern may hold [0, 0], a melee one never."""
    refuses(load_position, _position({"range": 3, "pattern": [[0, 0], [0, 0]]}),
            "$.figures[0].attack.pattern[1]: hex [0, 0] is listed twice in the pattern")
    refuses(load_position, _position({"pattern": [[1, 0], [8, 0]]}),
            "$.figures[0].attack.pattern[1]: a pattern hex lies at most 7 hexes from [0, 0], got [8, 0]")
    refuses(load_position, _position({"pattern": [[0, 0]]}),
            "$.figures[0].attack.pattern[0]: a melee area pattern never includes the attacker's own hex [0, 0]")
    refuses(load_position, _position({"range": 2, "pattern": [[0, 0]], "plus_targets": 7}),
            "$.figures[0].attack.plus_targets: expected an integer <= 6, got 7")
    refuses(load_position, _position({"range": 2, "targets": 2, "plus_targets": 1}),
            "$.figures[0].attack.plus_targets: plus_targets (\"+N targets\") goes with an area pattern; a single-target "
            "attack names targets")
    _map, _level, figures, _acting = load_position(_position({"range": 3, "pattern": [[0, 0], [1, 0]], "plus_targets": 1}))
    assert figures[0].attack == (3, 1, ((0, 0), (1, 0)), 1)
    bad = copy.deepcopy(MONSTERS)
    bad["types"][0]["deck"][0]["actions"][1] = {"attack": 0, "range": 3, "pattern": [[0, 0], [0, 1]], "targets": 2}
    refuses(load_monsters, bad, "$.types[0].deck[0].actions[1].targets: an area attack's extra single targets are "
            "plus_targets (\"+N targets\" on the card), not targets")
    good = copy.deepcopy(MONSTERS)
    good["types"][0]["deck"][0]["actions"][1] = {"attack": 0, "range": 3, "pattern": [[0, 0], [0, 1]], "plus_targets": 1}
    action = load_monsters(good)[0].deck[0].actions[1]
    assert (action.range, action.targets, action.pattern) == (3, 2, ((0, 0), (0, 1)))


def test_gh_c11_secondary_is_a_characters_and_bounded():
    """GH-C11, GH-2: ``secondary`` (the non-leading card's initiative) only on a character, 1 to 99."""
    refuses(load_position, _position(secondary=0), "$.figures[1].secondary: expected an integer >= 1, got 0")
    data = _position()
    data["figures"][0]["secondary"] = 20
    refuses(load_position, data, "$.figures[0].secondary: only a character has a non-leading card (secondary)")
    assert load_position(_position(secondary=45))[2][1].secondary == 45


@pytest.mark.parametrize(("change", "expected"), [
    (lambda s: s["cards"]["classes"].append(copy.deepcopy(s["cards"]["classes"][0])),
     "$.cards.classes[2].name: class 'Brute' is listed twice"),
    (lambda s: s["monsters"]["types"].append(copy.deepcopy(s["monsters"]["types"][0])),
     "$.monsters.types[3].name: monster type 'Bandit Guard' is listed twice"),
    (lambda s: s["monsters"]["types"][0]["deck"].append(copy.deepcopy(s["monsters"]["types"][0]["deck"][0])),
     "$.monsters.types[0].deck[7].id: card id 'bg-1' is listed twice in this deck"),
    (lambda s: s["characters"][1].update(seat="red"), "$.characters[1].seat: seat 'red' is listed twice"),
    (lambda s: s["characters"][1].update(seat="r" * 25),
     f"$.characters[1].seat: a seat name is 1–24 letters, digits, - or _, got {'r' * 25!r}"),
    (lambda s: s["figures"].append({"type": "Bandit Guard", "rank": "elite", "number": 1, "hex": [0, 3]}),
     "$.figures[1].number: Bandit Guard 1 is listed twice"),
])
def test_gh_c1_an_item_listed_twice_or_a_bad_seat_name_is_refused_by_path(change, expected):
    """GH-C1: every name and id of the cards, monsters and scenario once (events.validate.listed_once)."""
    data = copy.deepcopy(scenario(open_map(), [("red", "Brute", (0, 0)), ("blue", "Tinkerer", (0, 1))],
                                  [("Bandit Guard", "normal", 1, (0, 2))]))
    change(data)
    refuses(load_scenario, data, expected)


def test_gh_c4_a_position_figure_id_listed_twice_is_refused_by_path():
    """GH-C4: a monster-turn position names each figure once."""
    refuses(load_position, {"map": {"name": "m", "hexes": [[0, 0], [1, 0]]},
                            "figures": [{"id": "M", "side": "monster", "hex": [0, 0]},
                                        {"id": "M", "side": "character", "hex": [1, 0]}]},
            "$.figures[1].id: figure id 'M' is listed twice")

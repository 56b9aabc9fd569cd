"""Hand-set Gloomhaven maps and games for the tests (boardgame.io's "start from a hand-set board").

``scenario`` writes the JSON a user would write, so every test goes through the same loader as a
real file. Hexes are given in axial [q, r]. ``act`` submits a command with loaded dice: monster
ability cards are named by their initiative, modifier cards by their value (10 for 2x, -10 for
Null), a short rest's lost card by its initiative.
"""

from __future__ import annotations

import json
from pathlib import Path

from events.games import load
from events.log import Table
from tests.games.tables import act as act
from tests.games.tables import read_scenario as read_scenario

GAME = load("gloomhaven")
GLOOM_DIR = Path(__file__).resolve().parents[3] / "events" / "games" / "gloomhaven"
CHARACTERS = json.loads((GLOOM_DIR / "data" / "characters.json").read_text(encoding="utf-8"))
MONSTERS = json.loads((GLOOM_DIR / "data" / "monsters.json").read_text(encoding="utf-8"))


def card(card_id: str, initiative: int, top: dict, bottom: dict, name: str | None = None) -> dict:
    return {"id": card_id, "name": name or card_id, "initiative": initiative, "top": top, "bottom": bottom}


def hero_class(name: str, hp: int, cards: list, summons: list | None = None) -> dict:
    data = {"name": name, "hp": hp, "cards": cards}
    if summons:
        data["summons"] = summons
    return data


def monster_type(name: str, deck: list, hp: int = 5, move: int = 2, attack: int = 2, range: int = 0,
                 elite_hp: int = 8, flying: bool = False) -> dict:
    normal = {"hp": hp, "move": move, "attack": attack}
    elite = {"hp": elite_hp, "move": move, "attack": attack + 1}
    if range:
        normal["range"] = range
        elite["range"] = range
    data = {"name": name, "normal": normal, "elite": elite, "deck": deck}
    if flying:
        data["flying"] = True
    return data


def mcard(card_id: str, initiative: int, *actions: dict, shuffle: bool = False) -> dict:
    data = {"id": card_id, "initiative": initiative, "actions": list(actions)}
    if shuffle:
        data["shuffle"] = True
    return data


def line_map(length: int = 9, **terrain: list) -> dict:
    """A corridor of hexes (0, 0) .. (length-1, 0) along the SE direction, one hex wide."""
    data = {"name": "corridor", "hexes": [[q, 0] for q in range(length)]}
    data.update(terrain)
    return data


def open_map(columns: int = 9, rows: int = 5, **terrain: list) -> dict:
    data = {"name": "room", "regions": [{"corner": [0, 0], "columns": columns, "rows": rows}]}
    data.update(terrain)
    return data


def scenario(game_map: dict, characters: list, figures: list, classes: list | None = None,
             types: list | None = None, level: int = 1, rounds: int = 8) -> dict:
    """characters: (seat, class, [q, r]); figures: (type, rank, number, [q, r])."""
    return {
        "game": "gloomhaven", "title": "test", "level": level, "rounds": rounds, "map": game_map,
        "cards": {"classes": classes or CHARACTERS["classes"]},
        "monsters": {"types": types or MONSTERS["types"]},
        "characters": [{"seat": seat, "class": cls, "hex": list(hex)} for seat, cls, hex in characters],
        "figures": [{"type": kind, "rank": rank, "number": number, "hex": list(hex)}
                    for kind, rank, number, hex in figures],
    }


def builtin(name: str) -> dict:
    return read_scenario(GLOOM_DIR / "scenarios" / f"{name}.json")


def table(data: dict, seed: int = 1) -> Table:
    return Table.create(GAME, "g-test", data, seed)


def types_of(events: list) -> list:
    return [event.TYPE for event in events]


def first(events: list, tag: str):
    return next(event for event in events if event.TYPE == tag)

"""Hand-set arkham games on the real board (boardgame.io's "start from a hand-set board").

``scenario`` writes the JSON a user would write, with the real board file inlined, so every test
goes through the same loader as a scenario file; ``inv`` and ``mon`` are one investigator and one
monster with plain defaults.
"""

from __future__ import annotations

import json
from pathlib import Path

from events.games import load
from events.log import Accepted, Table
from events.rng import LoadedRng

GAME = load("arkham")
ARKHAM_DIR = Path(__file__).resolve().parents[3] / "events" / "games" / "arkham"
BOARD = json.loads((ARKHAM_DIR / "boards" / "arkham.json").read_text(encoding="utf-8"))
BUILTINS = ("crossing", "monster-street", "other-world")


def inv(seat: str, at: str, speed: int = 4, sneak: int = 2, fight: int = 3, will: int = 3, stamina: int = 5,
        sanity: int = 5, **extra) -> dict:
    data = {"seat": seat, "name": f"{seat.title()} Investigator", "speed": speed, "sneak": sneak, "fight": fight,
            "will": will, "stamina": stamina, "sanity": sanity, "at": at}
    data.update(extra)
    return data


def mon(id: str, at: str, awareness: int = 0, horror_rating: int = 0, horror_damage: int = 1,
        combat_rating: int = 0, combat_damage: int = 1, toughness: int = 1, **extra) -> dict:
    data = {"id": id, "name": id.replace("_", " ").title(), "at": at, "awareness": awareness,
            "horror_rating": horror_rating, "horror_damage": horror_damage, "combat_rating": combat_rating,
            "combat_damage": combat_damage, "toughness": toughness}
    data.update(extra)
    return data


def scenario(investigators: list, monsters: tuple = (), gates: tuple = (), clues: dict | None = None,
             rounds: int = 3, **extra) -> dict:
    """A scenario dict with the real board inlined, as ``server.scenarios.load`` gives one."""
    data = {
        "game": "arkham", "title": "test", "board": BOARD, "rounds": rounds, "investigators": list(investigators),
        "monsters": list(monsters), "gates": [{"location": loc, "world": world} for loc, world in gates],
        "clues": [{"area": area, "count": count} for area, count in (clues or {}).items()],
    }
    data.update(extra)
    return data


def read_scenario(path: Path) -> dict:
    data = json.loads(path.read_text(encoding="utf-8"))
    for key, value in list(data.items()):
        if key in ("board", "monsters") and isinstance(value, str):
            data[key] = json.loads((path.parent / value).read_text(encoding="utf-8"))
    return data


def builtin(name: str) -> dict:
    return read_scenario(ARKHAM_DIR / "scenarios" / f"{name}.json")


def table(data: dict, seed: int = 1) -> Table:
    return Table.create(GAME, "g-test", data, seed)


def act(tab: Table, seat: str, command, dice: tuple = ()):
    """Submit a command with loaded dice (none by default: a roll would raise); events or the Rejection."""
    result = tab.submit(seat, command, f"c-{tab.seq + 1}", rng=LoadedRng(tuple(dice)))
    if isinstance(result, Accepted):
        return [envelope.event for envelope in result.envelopes]
    return result


def investigator(tab: Table, seat: str):
    for item in tab.state.investigators:
        if item.seat == seat:
            return item
    raise KeyError(seat)


def types(events) -> list:
    assert isinstance(events, list), events
    return [event.TYPE for event in events]

"""Hand-set grids and games for the skirmish tests (boardgame.io's "start from a hand-set board").

``scenario`` writes the JSON a user would write, ASCII map included, so every test goes through
the same loader as a real file. ``fig`` is one figure with plain stats unless told otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path

from events.games import load
from events.games.skirmish import rules
from events.games.skirmish.model import Activate, EndActivation
from events.log import Table
from events.rules import Rejection
from tests.games.tables import act as act

GAME = load("skirmish")
SKIRMISH_DIR = Path(__file__).resolve().parents[3] / "events" / "games" / "skirmish"
BUILT_INS = ("purge", "troll-gate", "courtyard", "hangar")


def fig(id: str, side: str, at: str, attack: int = 4, defense: int = 12, speed: int = 6, hp: int = 10,
        **extra) -> dict:
    data = {"id": id, "side": side, "name": id.title(), "attack": attack, "defense": defense, "speed": speed,
            "hp": hp, "at": at}
    data.update(extra)
    return data


def scenario(rows: list, figures: list, sides: tuple = ("red", "blue"), **extra) -> dict:
    data = {"game": "skirmish", "title": "test", "map": {"name": "test map", "rows": rows},
            "sides": list(sides), "figures": figures}
    data.update(extra)
    return data


def open_rows(width: int, height: int) -> list:
    """An empty walled room of ``width`` × ``height`` squares."""
    border = "+" + "-+" * width
    inner = "+" + " +" * width
    square_row = "|" + " ".join("." * width) + "|"
    rows = [border]
    for y in range(height):
        rows.append(square_row)
        rows.append(inner if y < height - 1 else border)
    return rows


def table(data: dict, seed: int = 1) -> Table:
    return Table.create(GAME, "g-test", data, seed)


def read_scenario(path: Path) -> dict:
    """A scenario file with its map file inlined (what the shell does)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data.get("map"), str):
        data["map"] = json.loads((path.parent / data["map"]).read_text(encoding="utf-8"))
    return data


def builtin(name: str) -> dict:
    return read_scenario(SKIRMISH_DIR / "scenarios" / f"{name}.json")


def activate(tab: Table, figure_id: str):
    """Activate a figure of the side on turn, ending other activations of that side's turn first."""
    item = rules.figure(tab.state, figure_id)
    events = act(tab, item.side, Activate(figure_id))
    assert isinstance(events, list), events
    return events


def end(tab: Table, figure_id: str):
    item = rules.figure(tab.state, figure_id)
    return act(tab, item.side, EndActivation(figure_id))


def types(events) -> list:
    return [event.TYPE for event in events]


# A 4 × 4 room cut by a wall at x = 2 with one door two squares high: door1 = B2|C2 and B3|C3
# (a door wider than one square is one door, SK-6…SK-11, SK-C6).
WIDE_DOOR = [
    "+-+-+-+-+",
    "|. .|. .|",
    "+ + + + +",
    "|. .D. .|",
    "+ + + + +",
    "|. .D. .|",
    "+ + + + +",
    "|. .|. .|",
    "+-+-+-+-+",
]


def said(result: object) -> tuple:
    """A refusal's clause and English reason (its message is checked by tests/games/conftest.py)."""
    assert isinstance(result, Rejection), result
    return result.rule, result.reason

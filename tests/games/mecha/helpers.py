"""Small hand-set boards and games for the mecha tests (boardgame.io's "start from a hand-set board").

``scenario`` writes the JSON a user would write, so every test goes through the same loader as a
real file; ``loc`` is one Location, face up unless told otherwise, with a map token when face down.
"""

from __future__ import annotations

from pathlib import Path

from events.games import load
from events.log import Table
from tests.games.tables import act as act
from tests.games.tables import read_scenario as read_scenario

GAME = load("mecha")
MECHA_DIR = Path(__file__).resolve().parents[3] / "events" / "games" / "mecha"
DATA_DIR = Path(__file__).resolve().parent / "data"

BAG = {"tokens": [{"value": v, "colour": "orange", "count": 3} for v in (1, 2, 3, 4, 5)]
       + [{"value": 20, "colour": "orange", "count": 1}]}


def loc(number: int, level: int = 0, up: bool = True, token: bool | None = None, **extra) -> dict:
    data = {"number": number, "hex": [number, 100], "level": level, "face_up": up}
    if token is None:
        token = not up
    if token:
        data["map_token"] = True
    data.update(extra)
    return data


def scenario(
    locations: list,
    links: list | None,
    camp: tuple = (1, 2, 3),
    seats: tuple = ("red", "blue"),
    ranges: dict | None = None,
    start: dict | None = None,
    bag: dict | None = None,
    rounds: int = 10,
    cards: tuple = (),
) -> dict:
    """A scenario dict with its board and bag inlined, as ``server.scenarios.load`` gives one."""
    board: dict = {
        "name": "test board",
        "locations": locations,
        "camp": {"hex": [0, -100], "adjacent": list(camp)},
        "card_spaces": [{"name": name, "hex": list(hex)} for name, hex in cards],
    }
    if links is not None:
        board["links"] = [list(link) for link in links]
    seat_list = []
    for name in seats:
        seat: dict = {"seat": name, "mech": f"{name.title()} Mecha"}
        if ranges and name in ranges:
            seat["range"] = list(ranges[name])
        seat_list.append(seat)
    data: dict = {
        "game": "mecha", "title": "test", "board": board, "bag": bag if bag is not None else BAG,
        "seats": seat_list, "rounds": rounds,
    }
    if start:
        data["start"] = start
    return data


def line(count: int, down: tuple = (), levels: dict | None = None) -> list:
    """Locations 1..count; those in ``down`` face down with a map token."""
    levels = levels or {}
    return [loc(n, levels.get(n, 0), n not in down) for n in range(1, count + 1)]


def chain(count: int) -> list:
    """Links 1-2, 2-3, ... (count-1)-count."""
    return [(n, n + 1) for n in range(1, count)]


def builtin(name: str) -> dict:
    return read_scenario(MECHA_DIR / "scenarios" / f"{name}.json")


def table(data: dict, seed: int = 1) -> Table:
    return Table.create(GAME, "g-test", data, seed)

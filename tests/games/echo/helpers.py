"""Hand-set games for the echo tests (boardgame.io's "start from a hand-set board").

``scenario`` writes the JSON a user would write, inlining the shipped map and cards, so every test
goes through the same loader as a real file; ``extra_cards`` adds test-only cards beside them.
``act`` submits a command with loaded dice and returns its events or its Rejection.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from events.games import load
from events.log import Accepted, Table
from events.lookup import by_id
from events.rng import LoadedRng
from tests.games.tables import read_scenario

GAME = load("echo")
ECHO_DIR = Path(__file__).resolve().parents[3] / "events" / "games" / "echo"
MAP = json.loads((ECHO_DIR / "boards" / "echo-map.json").read_text(encoding="utf-8"))
CARDS = json.loads((ECHO_DIR / "boards" / "cards.json").read_text(encoding="utf-8"))


def investigator_card(cid: str, **values) -> dict:
    """A test investigator: every skill 3, Sanity and Health 5, unless told otherwise."""
    card = {"id": cid, "name_ru": f"сыщик {cid}", "name_en": f"Investigator {cid}", "speed": 3, "stealth": 3,
            "attention": 3, "knowledge": 3, "intuition": 3, "sanity": 5, "health": 5}
    card.update(values)
    return card


def enemy_card(cid: str, **values) -> dict:
    card = {"id": cid, "name_ru": f"враг {cid}", "name_en": f"Enemy {cid}", "kind": "person", "sanity": 3,
            "health": 3, "evasion": 1, "attention": 1, "attack": {"blue": 0, "red": 0}}
    card.update(values)
    return card


def cards(investigators: tuple = (), enemies: tuple = (), spells: tuple = (), items: tuple = ()) -> dict:
    data = copy.deepcopy(CARDS)
    data["investigators"] += list(investigators)
    data["enemies"] += list(enemies)
    data["spells"] += list(spells)
    data["items"] += list(items)
    return data


def scenario(seats: list, enemies: list = (), rounds: int = 3, card_data: dict | None = None,
             map_data: dict | None = None) -> dict:
    """``seats``: (seat, investigator, place); ``enemies``: (id, card, place)."""
    return {
        "game": "echo", "title": "test", "map": map_data or MAP, "cards": card_data or CARDS,
        "seats": [{"seat": s, "investigator": i, "at": a} for s, i, a in seats],
        "enemies": [{"id": i, "card": c, "at": a} for i, c, a in enemies],
        "rounds": rounds,
    }


def builtin(name: str) -> dict:
    return read_scenario(ECHO_DIR / "scenarios" / f"{name}.json")


BUILTINS = tuple(sorted(path.stem for path in (ECHO_DIR / "scenarios").glob("*.json")))


def table(data: dict, seed: int = 1) -> Table:
    return Table.create(GAME, "g-test", data, seed)


def act(tab: Table, seat: str, command, dice: tuple | None = ()):
    """Submit a command with these loaded dice (all must be used; None: the seeded generator)."""
    rng = LoadedRng(tuple(dice)) if dice is not None else None
    result = tab.submit(seat, command, f"c-{tab.seq + 1}", rng=rng)
    if isinstance(result, Accepted):
        if rng is not None:
            assert rng.used == len(rng.values), f"{rng.used} of {len(rng.values)} loaded dice used"
        return [envelope.event for envelope in result.envelopes]
    return result


def types(events) -> list:
    return [event.TYPE for event in events]


def of(events, cls) -> list:
    return [event for event in events if isinstance(event, cls)]


def inv(tab: Table, seat: str):
    from events.games.echo.rules import investigator

    return investigator(tab.state, seat)


def foe(tab: Table, eid: str):
    return by_id(tab.state.enemies, eid)

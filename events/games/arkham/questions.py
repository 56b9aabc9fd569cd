"""Rule questions on an Arkham position (issue 18): one implementation for ``chronicle ask arkham``
and the replay page's "Ask the rules" (``client/questions.py``)."""

from __future__ import annotations

from events.games.arkham import board as boards
from events.games.arkham.rules import halts, monsters_in


def not_walkable(state: object, area_id: str) -> str:
    """Why no yellow line reaches ``area_id``: "" when it is a Street or Location, "AH-9" for an
    Other World, "AH-3" for anything else (Lost in Time and Space), "?" when there is no such area."""
    found = boards.area(state.board, area_id)
    if found is None:
        return "?"
    if found.kind in boards.ARKHAM_KINDS:
        return ""
    return "AH-9" if found.kind == "other_world" else "AH-3"


def cheapest_route(state: object, start: str, goal: str) -> tuple | None:
    """The cheapest route from ``start`` to ``goal``, both included, or None (AH-3): one movement
    point per line, among equal routes the one passing fewest monsters (AH-7)."""
    route = boards.route(state.board, start, goal, halts(state))
    return None if route is None else (start,) + route


def monsters_on(state: object, route: tuple) -> list:
    """``[(area, (monster ids))]`` for every area of ``route`` where monsters stand (AH-7)."""
    out = []
    for place in route:
        there = monsters_in(state, place)
        if there:
            out.append((place, tuple(item.id for item in there)))
    return out

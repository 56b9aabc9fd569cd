"""Paths on a graph of places, with rules for what a move may pass through and where it may stop.

Places are hashable, sortable ids (Location numbers, area names). ``neighbours`` maps each place
to its neighbours. Breadth-first search visits neighbours in sorted order, so among equally short
paths the one returned is always the same in CPython and Brython.

Two predicates shape a move: ``may_enter(place)`` says whether a move can step into a place at
all, and ``may_continue(place)`` whether it can step out of it again (a face-down Location ends a
move; a place with a monster may stop one). The start is always left freely.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Place = Any


def _always(place: Any) -> bool:
    return True


def graph_within(
    neighbours: dict,
    start: Any,
    max_steps: int,
    may_enter: Callable[[Any], bool] = _always,
    may_continue: Callable[[Any], bool] = _always,
    first_steps: tuple | None = None,
) -> dict:
    """Every place reachable from ``start`` in 1..max_steps steps -> its shortest path.

    A path is a tuple of places from the first step to the destination (the start excluded).
    ``first_steps`` replaces the start's neighbours, for a start that is not a node (the Camp).

    Bounded by the graph, never by ``max_steps`` (issue 12): no shortest path is longer than
    the number of places, and the search stops as soon as nothing new is reached.
    """
    paths: dict = {}
    frontier = [(start, ())]
    seen = {start}
    for _ in range(min(max_steps, len(neighbours) + 1)):
        if not frontier:
            break
        next_frontier = []
        for place, path in frontier:
            if path and not may_continue(place):
                continue
            options = first_steps if (not path and first_steps is not None) else neighbours.get(place, ())
            for step in sorted(options):
                if step in seen or not may_enter(step):
                    continue
                seen.add(step)
                paths[step] = path + (step,)
                next_frontier.append((step, path + (step,)))
        frontier = next_frontier
    return paths


def graph_from_links(places: tuple, links: tuple) -> dict:
    """Undirected neighbour table from (a, b) pairs, each neighbour tuple sorted."""
    table: dict = {place: [] for place in places}
    for a, b in links:
        table[a].append(b)
        table[b].append(a)
    return {place: tuple(sorted(set(near))) for place, near in table.items()}

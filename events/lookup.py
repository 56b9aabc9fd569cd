"""Finding one record of a tuple by a field: the lookup every game makes (issue 13).

A state or a board holds its pieces as tuples of records (figures, doors, monsters, cards), and
the rules ask for one of them by its id, its seat, its number or its square. The games call these
two functions directly, in ``evolve`` too, so a lookup costs one call as it did when each game
wrote its own loop; a game's named lookup (``skirmish.rules.figure``) is a one-line wrapper kept
for the pages and the tools that call it. The two fields looked up in ``evolve`` (``id``, and
``seat``: Gloomhaven's heroes) are read as attributes, without ``getattr`` (a builtin call per
item, ~50% more per lookup in CPython); any other field (``number``, ``at``, ``name``, ``owner``)
through ``getattr``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def by_id(items: tuple, ident: Any, key: str = "id") -> Any:
    """The first of ``items`` whose field ``key`` equals ``ident``, or None when none does."""
    if key == "id":
        for item in items:
            if item.id == ident:
                return item
    elif key == "seat":
        for item in items:
            if item.seat == ident:
                return item
    else:
        for item in items:
            if getattr(item, key) == ident:
                return item
    return None


def by_id_or_raise(items: tuple, ident: Any, what: str) -> Any:
    """The one of ``items`` whose ``id`` is ``ident``, where the data promise it (a card a board
    names, checked at load): a missing one is a bug, raised as ``KeyError("no <what> <ident!r>")``."""
    for item in items:
        if item.id == ident:
            return item
    raise KeyError(f"no {what} {ident!r}")

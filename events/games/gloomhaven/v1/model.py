"""gloomhaven-1's records where they differ from gloomhaven-2's (a1151df's model.py): frozen.

Only ``Option`` differs: gloomhaven-2 added ``toward`` (GH-C9), and an Option waiting in
``Pending`` is part of the state, so its field list is part of every state hash of a
gloomhaven-1 game. ``EVENTS`` is gloomhaven-2's registry with this Option as the nested part.
"""

from __future__ import annotations

from events.games.gloomhaven.model import COMMANDS, EVENTS, Candidate, Considered, Figure, Stats, _EventRegistry
from events.record import Record

_set = object.__setattr__


class Option(Record):
    """One equally good way for a monster to act: its focus, destination, path there, and targets."""

    __slots__ = ("focus", "destination", "path", "attacks", "disadvantage", "movement", "negative")
    __match_args__ = __slots__
    TYPE = "Option"
    toward = None  # not a field: gloomhaven-2's code that reads an option finds no hex headed for

    def __init__(self, focus: str, destination: tuple, path: tuple, attacks: tuple, disadvantage: bool,
                 movement: int, negative: int) -> None:
        _set(self, "focus", focus)
        _set(self, "destination", destination)
        _set(self, "path", path)
        _set(self, "attacks", attacks)
        _set(self, "disadvantage", disadvantage)
        _set(self, "movement", movement)
        _set(self, "negative", negative)


EVENTS_1 = _EventRegistry(
    "event",
    tuple(EVENTS.by_type[name] for name in EVENTS.names()),
    (Candidate, Option, Considered, Figure, Stats),
)
COMMANDS_1 = COMMANDS

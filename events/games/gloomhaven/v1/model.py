"""gloomhaven-1's records where they differ from gloomhaven-2's (a1151df's model.py): frozen.

Only ``Option`` differs: gloomhaven-2 added ``toward`` (GH-C9). Events hold gloomhaven-2's
Option (``toward`` None), so a log decodes and audits the same whichever version's registry read
it (the Room and the pages decode with the newest). But an Option waiting in ``Pending`` is part
of the state, so its field list is part of every state hash of a gloomhaven-1 game: ``evolve``
keeps the pending options as this module's ``Option`` (``pending_options``), and the event that
takes one makes it gloomhaven-2's again (``event_option``).
"""

from __future__ import annotations

from events.games.gloomhaven import model
from events.record import Record

_set = object.__setattr__


class Option(Record):
    """One equally good way for a monster to act: its focus, destination, path there, and targets."""

    __slots__ = ("focus", "destination", "path", "attacks", "disadvantage", "movement", "negative")
    __match_args__ = __slots__
    TYPE = "Option"
    toward = None  # not a field: code that reads an option finds no hex headed for (GH-C9 is gloomhaven-2's)

    def __init__(self, focus: str, destination: tuple, path: tuple, attacks: tuple, disadvantage: bool,
                 movement: int, negative: int) -> None:
        _set(self, "focus", focus)
        _set(self, "destination", destination)
        _set(self, "path", path)
        _set(self, "attacks", attacks)
        _set(self, "disadvantage", disadvantage)
        _set(self, "movement", movement)
        _set(self, "negative", negative)


def pending_options(options: tuple) -> tuple:
    """The options of a MonsterTurnPlanned as a gloomhaven-1 state holds them."""
    return tuple(Option(o.focus, o.destination, o.path, o.attacks, o.disadvantage, o.movement, o.negative)
                 for o in options)


def event_option(option: object) -> model.Option:
    """A pending option as the events carry it (gloomhaven-2's record, ``toward`` None)."""
    o = option
    return model.Option(o.focus, o.destination, o.path, o.attacks, o.disadvantage, o.movement, o.negative)  # type: ignore[attr-defined]


#: The records a gloomhaven-1 state holds in place of gloomhaven-2's (``Game.state_records``: snapshots).
STATE_RECORDS = (Option,)

"""The rule systems, by name. Each is a package ``events.games.<name>`` exposing ``GAME``.

Imported lazily so a page or a command pays only for the game it plays.
"""

from __future__ import annotations

NAMES = ("mecha", "echo", "arkham")


def load(name: str):
    """The ``Game`` object of a rule system; ``KeyError`` names the known ones."""
    if name not in NAMES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(NAMES)})")
    return __import__(f"events.games.{name}", fromlist=["GAME"]).GAME

"""The rule systems, by name. Each is a package ``events.games.<name>`` exposing ``GAME``.

Imported lazily so a page or a command pays only for the game it plays.
"""

from __future__ import annotations

NAMES = ("mecha", "echo", "arkham", "skirmish", "gloomhaven")


def load(name: str, rules_version: str | None = None):
    """The ``Game`` object of a rule system, at its newest rules version or at ``rules_version``
    (every released version stays importable: ``Game.revised``); ``KeyError`` names the known ones."""
    if name not in NAMES:
        raise KeyError(f"unknown game {name!r} (known: {', '.join(NAMES)})")
    # Explicit imports, one per game: a bundler sees them and no dynamic import is needed.
    if name == "mecha":
        from events.games.mecha import GAME
    elif name == "arkham":
        from events.games.arkham import GAME
    elif name == "gloomhaven":
        from events.games.gloomhaven import GAME
    elif name == "echo":
        from events.games.echo import GAME
    elif name == "skirmish":
        from events.games.skirmish import GAME
    else:  # pragma: no cover - NAMES and the branches above are kept in step
        raise KeyError(name)
    return GAME if rules_version is None else GAME.version(rules_version)

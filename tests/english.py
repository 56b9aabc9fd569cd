"""A describer's messages in English, as ``chronicle explain`` and the English page log say them."""

from __future__ import annotations

from server import i18n


def trace(game, event, state=None) -> list:
    """The trace lines of ``event`` (``state``: the one before it) in English."""
    return [i18n.say("en", line) for line in game.trace(event, state)]


def describe(game, event, state=None) -> str:
    """The log line of ``event`` in English."""
    return i18n.say("en", game.describe(event, state))

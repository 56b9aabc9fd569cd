"""Gloomhaven (Cephalofair, 2017): a round of initiative, movement, monster focus and summons."""

from __future__ import annotations

from events.game import Game
from events.games.gloomhaven import rules, words
from events.games.gloomhaven.clauses import CATALOGUE
from events.games.gloomhaven.model import COMMANDS, EVENTS
from events.games.gloomhaven.view import redact, view, visibility

GAME = Game(
    name="gloomhaven",
    rules_version=rules.RULES_VERSION,
    catalogue=CATALOGUE,
    events=EVENTS,
    commands=COMMANDS,
    start=rules.start,
    decide=rules.decide,
    evolve=rules.evolve,
    view=view,
    legal=rules.legal,
    is_over=rules.is_over,
    turn=rules.turn,
    seats=rules.seats,
    words=words,
    visibility=visibility,
    redact=redact,
    guards=rules.GUARDS,
)

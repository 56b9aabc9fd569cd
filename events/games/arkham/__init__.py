"""Arkham Horror, 2nd edition (Fantasy Flight Games, 2005): the Movement phase, as ``arkham``."""

from __future__ import annotations

from events.game import Game
from events.games.arkham import rules
from events.games.arkham.clauses import CATALOGUE
from events.games.arkham.model import COMMANDS, EVENTS
from events.games.arkham.view import view

GAME = Game(
    name="arkham",
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
    trace=rules.trace,
)

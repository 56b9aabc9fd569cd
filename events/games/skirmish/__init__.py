"""A tactical grid skirmish (Star Wars Miniatures-style terrain, house rules for doors), as ``skirmish``."""

from __future__ import annotations

from events.game import Game
from events.games.skirmish import rules
from events.games.skirmish.clauses import CATALOGUE
from events.games.skirmish.model import COMMANDS, EVENTS
from events.games.skirmish.view import view

GAME = Game(
    name="skirmish",
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

"""Expeditions (Stonemaier Games, 2023): the Move action, as the ``mecha`` rule system."""

from __future__ import annotations

from events.game import Game
from events.games.mecha import rules, words
from events.games.mecha.clauses import CATALOGUE
from events.games.mecha.model import COMMANDS, EVENTS
from events.games.mecha.view import view

GAME = Game(
    name="mecha",
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
    guards=rules.GUARDS,
)

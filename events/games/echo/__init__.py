""""Echo" («Никогда не знаешь, где тебе повезёт»): the Movement phase, as the ``echo`` rule system."""

from __future__ import annotations

from events.game import Game
from events.games.echo import rules
from events.games.echo.clauses import CATALOGUE
from events.games.echo.model import COMMANDS, EVENTS
from events.games.echo.view import view

GAME = Game(
    name="echo",
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

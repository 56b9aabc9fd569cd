"""Arkham Horror, 2nd edition (Fantasy Flight Games, 2005): the Movement phase, as ``arkham``."""

from __future__ import annotations

from events.game import Game, stamped
from events.games.arkham import rules, words
from events.games.arkham.clauses import CATALOGUE
from events.games.arkham.model import COMMANDS, EVENTS
from events.games.arkham.view import view

#: arkham-2, as released (its logs are played, audited and replayed under it, indefinitely).
GAME_2 = Game(
    name="arkham",
    rules_version="arkham-2",
    catalogue=CATALOGUE,
    events=EVENTS,
    commands=COMMANDS,
    start=stamped(rules.start, "arkham-2"),
    decide=rules.decide_2,
    evolve=rules.evolve,
    view=view,
    legal=rules.legal,
    is_over=rules.is_over,
    turn=rules.turn,
    seats=rules.seats,
    words=words,
    guards=rules.GUARDS,
)
#: arkham-3 (issue 15): what changed, as the pages show it to the players of an arkham-2 game.
GAME = GAME_2.revised(
    rules.RULES_VERSION,
    notes=(("AH-C4", "a failed Evade that takes Stamina to 0 knocks the investigator out at once: no combat, "
                     "no Horror check"),),
    decide=rules.decide,
)

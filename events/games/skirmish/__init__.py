"""A tactical grid skirmish (Star Wars Miniatures-style terrain, house rules for doors), as ``skirmish``."""

from __future__ import annotations

from events.game import Game
from events.games.skirmish import rules
from events.games.skirmish.clauses import CATALOGUE
from events.games.skirmish.model import COMMANDS, EVENTS
from events.games.skirmish.view import view


def _game(rules_version: str, start: object) -> Game:
    return Game(
        name="skirmish",
        rules_version=rules_version,
        catalogue=CATALOGUE,
        events=EVENTS,
        commands=COMMANDS,
        start=start,
        decide=rules.decide,
        evolve=rules.evolve,
        view=view,
        legal=rules.legal,
        is_over=rules.is_over,
        turn=rules.turn,
        seats=rules.seats,
        trace=rules.trace,
    )


#: skirmish-1, as released: the same rules, except that its maps make every ``D`` a door of its
#: own (its logs replay unchanged under either object: the fold reads the version they name).
GAME_1 = _game(rules.RULES_VERSION_1, rules.start_1)
#: skirmish-2 (issue 15): a door wider than one square is one door; Moves may give their path.
GAME = _game(rules.RULES_VERSION, rules.start)
GAME_1.previous = None  # the released versions, oldest first through ``previous`` (issue 19)
GAME.previous = GAME_1

"""A tactical grid skirmish (Star Wars Miniatures-style terrain, house rules for doors), as ``skirmish``."""

from __future__ import annotations

from events.game import released
from events.games.skirmish import rules, words
from events.games.skirmish.clauses import CATALOGUE
from events.games.skirmish.model import COMMANDS, EVENTS
from events.games.skirmish.view import view

#: skirmish-1, as released: its maps make every ``D`` a door of its own.
GAME_1 = released("skirmish", rules.RULES_VERSION_1, rules, words, CATALOGUE, EVENTS, COMMANDS, view, start=rules.start_1)
#: skirmish-2 (issue 15): a door wider than one square is one door; a Move may give its path.
#: Both versions share ``decide``: paths and the refusal order change no logged outcome.
GAME = GAME_1.revised(
    rules.RULES_VERSION,
    notes=(
        ("SK-6", "adjacent collinear D edges (or edges sharing a label) form one door, opened, held and contested as one"),
        ("SK-C2", "a Move may give the path it walks; each step is checked and the first illegal one refused"),
    ),
    start=rules.start,
)

"""A tactical grid skirmish (Star Wars Miniatures-style terrain, house rules for doors), as ``skirmish``."""

from __future__ import annotations

from events.game import released, stamped
from events.games.skirmish import rules, words
from events.games.skirmish.clauses import CATALOGUE
from events.games.skirmish.model import COMMANDS, EVENTS
from events.games.skirmish.view import view

#: skirmish-1, as released: its maps make every ``D`` a door of its own.
GAME_1 = released("skirmish", rules.RULES_VERSION_1, rules, words, CATALOGUE, EVENTS, COMMANDS, view, start=rules.start_1)
#: skirmish-2 (issue 15): a door wider than one square is one door; a Move may give its path.
#: skirmish-1 and -2 share ``decide``: paths and the refusal order change no logged outcome.
GAME_2 = GAME_1.revised(
    rules.RULES_VERSION_2,
    notes=(
        ("SK-6", "adjacent collinear D edges (or edges sharing a label) form one door, opened, held and contested as one"),
        ("SK-C2", "a Move may give the path it walks; each step is checked and the first illegal one refused"),
    ),
    start=stamped(rules.start, rules.RULES_VERSION_2),
)
#: skirmish-3: a defeated holder only stops holding and its door keeps its state (SK-7, not SK-9 at
#: once); the next contest for it is taken without a roll (SK-C4). Every other decision is skirmish-2's.
GAME = GAME_2.revised(
    rules.RULES_VERSION,
    notes=(
        ("SK-7", "a door whose holder is defeated keeps its state (it no longer closes at once); a figure that "
                 "ends its turn in contact with it decides it and holds it"),
        ("SK-C4", "a contest for the door of a defeated holder is taken without a roll: the contesting figure "
                  "sets the door and holds it"),
    ),
    decide=rules.decide_3,
)

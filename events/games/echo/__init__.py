""""Echo" («Никогда не знаешь, где тебе повезёт»): the Movement phase, as the ``echo`` rule system."""

from __future__ import annotations

from events.game import released
from events.games.echo import rules, words
from events.games.echo.clauses import CATALOGUE
from events.games.echo.model import COMMANDS, EVENTS
from events.games.echo.view import view

#: echo-1, as released (its logs are played, audited and replayed under it, indefinitely).
GAME_1 = released("echo", "echo-1", rules, words, CATALOGUE, EVENTS, COMMANDS, view, decide=rules.decide_1,
                  turn=rules.turn_2, legal=rules.legal_2)
#: echo-2 (issue 15): what changed, as the pages show it to the players of an echo-1 game.
GAME_2 = GAME_1.revised(
    "echo-2",
    notes=(
        ("EC-15", "the combat round in which a fight ends costs its movement point too"),
        ("EC-8", "a failed evasion lets the enemies strike first for the whole round"),
        ("EC-16", "in a group fight each enemy strikes each investigator once a round, and the log cites EC-16"),
    ),
    decide=rules.decide_2,
)
#: echo-3 (the rules audit): what changed, as the pages show it to the players of an echo-2 game.
GAME = GAME_2.revised(
    rules.RULES_VERSION,
    notes=(
        ("EC-19", "an investigator that goes to the Dark Side where an enemy stands must still defeat or escape it "
                  "before its move is over"),
        ("EC-16", "an enemy that every fighter has escaped makes no group fight: one investigator against one enemy "
                  "cites EC-3 and EC-13"),
        ("EC-9", "the investigators who strike at the same time may strike in any order, not only in seat order"),
    ),
    decide=rules.decide,
    turn=rules.turn,
    legal=rules.legal,
)

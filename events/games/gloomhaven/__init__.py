"""Gloomhaven (Cephalofair, 2017): a round of initiative, movement, monster focus and summons."""

from __future__ import annotations

from events.game import released
from events.games.gloomhaven import rules, v3, v4, v5, v6, v7, words
from events.games.gloomhaven.clauses import CATALOGUE
from events.games.gloomhaven.model import COMMANDS, EVENTS
from events.games.gloomhaven.v1 import RULES_VERSION as RULES_VERSION_1
from events.games.gloomhaven.v1 import LazyRules, decide_1
from events.games.gloomhaven.v1 import model as model_1
from events.games.gloomhaven.view import redact, view, visibility

#: gloomhaven-1, as released (a1151df, frozen in ``v1``): its logs are played, audited and replayed
#: under it, indefinitely. Its rules check their own opening conditions (no ``GUARDS``).
_LAZY_1 = LazyRules()
GAME_1 = _LAZY_1.bind(released("gloomhaven", RULES_VERSION_1, _LAZY_1, words, CATALOGUE, EVENTS, COMMANDS, view,
                               decide=decide_1, guards=None, visibility=visibility, redact=redact))
GAME_1.state_records = model_1.STATE_RECORDS  # its pending Option, as its states hold it (snapshots)
#: gloomhaven-2 (issues 14, 15): what changed, as the pages show it to the players of a gloomhaven-1 game.
GAME_2 = GAME_1.revised(
    rules.RULES_VERSION,
    notes=(
        ("GH-6", "a monster's plan logs every destination it weighed and the step that kept or dropped it"),
        ("GH-C7", "line of sight is exact: a line touching a wall, its corners included, is blocked"),
        ("GH-C8", "a monster ranks extra targets as a focus, from where it starts, and the log cites GH-C8"),
        ("GH-C9", "a monster that cannot attack heads for each tied hex on its own stops (never pooled)"),
        ("GH-C10", "area patterns mirror, and a ranged area reaches a target from any hex in range"),
        ("GH-C11", "characters tied on initiative share a rank: a focus tie between them is their seats' choice"),
        ("GH-3", "a character's move may name its destination alone (PlayCard.to): the rules walk the cheapest route"),
    ),
    start=rules.start, decide=rules.decide, evolve=rules.evolve,
    legal=rules.legal, is_over=rules.is_over, turn=rules.turn, seats=rules.seats,
    guards=rules.GUARDS,
)
#: gloomhaven-3 (issue 19): gloomhaven-2's decisions, each monster's plan citing the clause that decided it.
GAME_3 = GAME_2.revised(
    v3.RULES_VERSION,
    notes=(
        ("GH-C11", "a monster's plan cites GH-C11 when its focus is tied between characters tied on initiative"),
        ("GH-C10", "a monster's plan cites GH-C10 when its attack is an area"),
    ),
    decide=v3.decide_3,
)
#: gloomhaven-4 (issue 19): a scenario may choose Jaws of the Lion's rules ("variant": "jotl"); without one,
#: gloomhaven-3's games exactly (the same events and hashes).
GAME_4 = GAME_3.revised(
    v4.RULES_VERSION,
    notes=(
        ("GH-V1", "a scenario may choose Jaws of the Lion's rules (\"variant\": \"jotl\"): focus ties skip proximity"),
        ("GH-V2", "under Jaws of the Lion's rules a jump's landing on difficult terrain costs 1, not 2"),
    ),
    start=v4.start_4, decide=v4.decide_4, evolve=v4.evolve_4,
)
#: gloomhaven-5 (the hard-case audit): the players' choice of acting order reaches summons; otherwise gloomhaven-4.
GAME_5 = GAME_4.revised(
    v5.RULES_VERSION,
    notes=(
        ("GH-C11", "a summon of a character tied on initiative is tied with the other characters too: a monster's "
                   "focus between them is the players' choice"),
    ),
    decide=v5.decide_5,
)
#: gloomhaven-6 (the hard cases left open): the players' order of tied characters ranks extra targets (GH-C8 (3)).
GAME_6 = GAME_5.revised(
    v6.RULES_VERSION,
    notes=(
        ("GH-C8", "characters tied on initiative rank as the players order them among a monster's extra targets: "
                  "a group holding either may be best, and their seats choose"),
    ),
    decide=v6.decide_6,
)
#: gloomhaven-7 (the player's own route): a move by destination alone between walks that enter different traps,
#: hazardous hexes or doors is refused; the player gives the path (GH-4, GH-C1). The tied seats agree on their
#: order, and that order is their initiative order for the monsters (GH-2, GH-6).
GAME = GAME_6.revised(
    v7.RULES_VERSION,
    notes=(
        ("GH-2", "characters tied on both cards act in the order all their players agree on, and monsters break "
                 "their ties by that order"),
        ("GH-4", "a move naming its destination alone is refused where walks there within the move, as few traps "
                 "and hazards entered, enter different traps, hazardous hexes or doors: the player gives the path"),
    ),
    decide=v7.decide_7,
)

"""Arkham Horror, 2nd edition (Fantasy Flight Games, 2005): the Movement phase, as ``arkham``."""

from __future__ import annotations

from events.game import released
from events.games.arkham import rules, words
from events.games.arkham.clauses import CATALOGUE
from events.games.arkham.model import COMMANDS, EVENTS
from events.games.arkham.view import view

#: arkham-1, as released (b9ad4cd … a5350b8): its logs are played, audited and replayed under it, indefinitely.
GAME_1 = released("arkham", "arkham-1", rules, words, CATALOGUE, EVENTS, COMMANDS, view, decide=rules.decide_1,
                  legal=rules.legal_3, start=rules.start_5)
#: arkham-2 (f49ff79): what changed, as the pages show it to the players of an arkham-1 game.
GAME_2 = GAME_1.revised(
    "arkham-2",
    notes=(("AH-C1", "an investigator already at 0 Stamina or Sanity is offered no Clue tokens after a failed "
                     "roll: it collapses (AH-C4) in the command that brought it to 0"),),
    decide=rules.decide_2,
)
#: arkham-3 (issue 15): what changed, as the pages show it to the players of an arkham-2 game.
GAME_3 = GAME_2.revised(
    "arkham-3",
    notes=(("AH-C4", "a failed Evade that takes Stamina to 0 knocks the investigator out at once: no combat, "
                     "no Horror check"),),
    decide=rules.decide_3,
)
#: arkham-4 (the rules audit): what changed, as the pages show it to the players of an arkham-3 game.
GAME_4 = GAME_3.revised(
    "arkham-4",
    notes=(("AH-7", "a Move to an area without a chosen path goes round monsters when a way round fits in the "
                    "points left, instead of stopping at the first monster on the cheapest way; when no way round "
                    "fits and the cheapest ways stop at different monsters, the player chooses by moving to one"),
           ("AH-C9", "back through a gate, the investigator may still evade or fight the monsters there: it "
                     "need not, but it may"),),
    decide=rules.decide_4,
    legal=rules.legal_4,
)
#: arkham-5 (the hard cases left open): a waiting investigator may offer a trade too (AH-C10).
GAME_5 = GAME_4.revised(
    "arkham-5",
    notes=(("AH-C10", "any investigator may offer a trade to another in its area while the mover moves, not only "
                      "the moving investigator; the partner answers"),),
    decide=rules.decide_5,
    legal=rules.legal,
)
#: arkham-6 (a battle that never ended): fleeing an Elusive monster needs no roll (AH-C6, AH-C3).
GAME = GAME_5.revised(
    rules.RULES_VERSION,
    notes=(("AH-C6", "fleeing an Elusive monster always works, with no roll: the battle ends as after a "
                     "successful flee, so an investigator without the dice to flee or win is no longer stuck in "
                     "it for ever; a new game refuses a scenario where a battle could still never end"),),
    decide=rules.decide,
    start=rules.start,
)

"""The clauses of Arkham Horror's Movement phase, in our own words (digest: shared/rules/arkham.md).

AH-1…AH-12 come from the rule text; AH-C1…AH-C10 are the published game's facts the engine
needs around them to be playable.
"""

from __future__ import annotations

from events.rules import Catalogue, Clause

CATALOGUE = Catalogue(
    (
        Clause("AH-1", "Two kinds of movement", "Each player moves once in the phase: in Arkham with movement "
               "points, or in an Other World by its card."),
        Clause("AH-2", "Movement points", "An investigator in Arkham gets as many movement points as its Speed."),
        Clause("AH-3", "Yellow lines", "One movement point takes the investigator along one yellow line: "
               "Location to its Street, Street to a Location, or Street to Street."),
        Clause("AH-4", "Worked example", "From the Graveyard to the Administration Building costs 4 movement "
               "points."),
        Clause("AH-5", "Clues", "Ending its movement where Clue tokens lie, the investigator may take one, "
               "several or all of them."),
        Clause("AH-6", "Only at the end", "No Clue token is taken in an area the investigator moves on from: "
               "it must end its movement there."),
        Clause("AH-7", "Monsters", "Leaving, or ending its movement in, an area with monsters, the investigator "
               "must fight or evade each of them."),
        Clause("AH-8", "Combat ends movement", "Once a combat starts, for whatever reason, the movement is over: "
               "remaining points are lost and the investigator stays where it is."),
        Clause("AH-9", "Other Worlds", "An investigator in an Other World gets no movement points; where it goes "
               "depends on the area of the card it is in."),
        Clause("AH-10", "First area", "From the first (left) area it moves to the second (right) area."),
        Clause("AH-11", "Second area", "From the second area it returns to Arkham: its player picks a Location "
               "with an open gate to that Other World, and an Explored marker goes under it for as long as it "
               "stays there."),
        Clause("AH-12", "Lost", "With no open gate to that Other World, it is Lost in Time and Space instead."),
        Clause("AH-C1", "Checks", "Roll skill + modifier dice; each 5 or 6 succeeds (Blessed 4-6, Cursed 6); "
               "pass with successes >= difficulty (1 unless stated); zero dice fail unrolled. Optionally a Clue "
               "token spent after a roll adds one die."),
        Clause("AH-C2", "Evade", "Evade check: Sneak + Awareness. Pass: go on or stay without fighting. Fail: "
               "the monster deals its combat damage, combat begins, and the Horror check still follows."),
        Clause("AH-C3", "Combat", "Once per battle a Horror check (Will + horror rating; fail: lose horror damage "
               "in Sanity); then each round flee (Evade check; pass ends the battle, fail costs combat damage) or "
               "fight (Fight + combat rating against toughness; pass: trophy; fail: combat damage in Stamina)."),
        Clause("AH-C4", "Knocked out, insane, devoured", "0 Sanity in Arkham: insane, to Arkham Asylum; 0 "
               "Stamina: unconscious, to St. Mary's Hospital; either way half the Clue tokens (rounded down) are "
               "lost, the stat becomes 1 and the movement ends. In an Other World: Lost in Time and Space. Both "
               "at 0: devoured."),
        Clause("AH-C5", "Lost in Time and Space", "The investigator goes to Lost in Time and Space, delayed; at "
               "the start of the next turn its player puts it in any Location or Street area."),
        Clause("AH-C6", "Scenario data", "Investigators, monsters (with Elusive, Ambush, Nightmarish N and "
               "Overwhelming N), open gates, clue tokens and monster positions come from the scenario file."),
        Clause("AH-C7", "Delayed", "A delayed investigator gets no movement points: it stands up. It may still "
               "trade and must still deal with the monsters in its area."),
        Clause("AH-C8", "Several monsters", "With several monsters the player picks the order; a failed evade "
               "starts combat with that one and the others are dealt with afterwards."),
        Clause("AH-C9", "Through a gate", "In the phase it returns from an Other World, the investigator need not "
               "fight or evade the monsters at the gate's Location."),
        Clause("AH-C10", "Trading", "Investigators in the same area may trade items before, during or after "
               "movement, never during combat."),
    )
)

"""The clauses of Gloomhaven's round, in our own words (digest: shared/rules/gloomhaven.md).

Where the text leaves a reading open, the clause says which one the engine builds, so a
rejection or a trace that cites it also cites the choice.
"""

from __future__ import annotations

from events.rules import Catalogue, Clause

CATALOGUE = Catalogue(
    (
        Clause("GH-1", "Exhaustion", "A character is exhausted when its hit points drop below 1, or when a round "
               "starts with at most one card in its hand and at most one in its discard pile (it can neither play "
               "two cards nor rest). Its cards all go to the lost pile and its figure leaves the map (its summons "
               "with it)."),
        Clause("GH-2", "Initiative", "The leading card alone sets a character's initiative. Characters tied on it "
               "compare their other card; still tied, the players decide (the engine asks the tied seats and any "
               "of them enters the order they agreed). A character tied with a monster goes first."),
        Clause("GH-3", "Card actions", "On its turn a character performs the top action of one of its two cards "
               "and the bottom action of the other, in either order; which card led no longer matters. Both cards "
               "then go to the discard pile, or to the lost pile for an action marked lost."),
        Clause("GH-4", "Movement", "A figure moves through allies but never through enemies or obstacles, and "
               "never ends in an occupied hex. Entering a trap, hazardous or difficult hex applies it at once."),
        Clause("GH-5", "Jump and Flying", "A jump ignores figures and terrain on the way, but its last hex follows "
               "the normal rules (a trap there springs, difficult terrain costs 2, it must be free of figures and "
               "obstacles). Flying ignores figures and terrain all the way, its last hex included: a flyer may end "
               "on an obstacle, never on a figure."),
        Clause("GH-6", "Monster focus", "A monster focuses on the enemy it can attack with its current attack for "
               "the least movement: the cheapest path to a hex in range and line of sight. Ties go to proximity "
               "(hexes counted around walls), then to initiative order, summons before their summoner."),
        Clause("GH-7", "Monster movement", "A monster then moves the least needed to attack its focus as well as "
               "it can; without an attack it moves toward its focus."),
        Clause("GH-8", "Summons", "A summon acts on its own turn just before its summoner, never in the round it "
               "was summoned. It is automated like a monster, with its printed stats and its summoner's attack "
               "modifier deck."),
        Clause("GH-C1", "Map", "Hexes are open, obstacles (block movement but not sight), traps (2 + scenario "
               "level damage on entry, then removed), hazardous (half that, rounded down, on each entry), difficult "
               "(entering costs 2) or doors. Walls are the map's edges, wall hexes and thin walls: they block "
               "movement, range and sight. A closed door is a wall for monsters and summons; a character entering "
               "it opens it for good. Line of sight: GH-C7."),
        Clause("GH-C2", "Round", "Each living character secretly picks two cards and its leading card, or a long "
               "rest (initiative 99). No other seat and no spectator learns a pick before all are revealed at once; "
               "then one ability card per monster type on the map is drawn, figures act in initiative order, and "
               "the round ends (short rests, decks reshuffled)."),
        Clause("GH-C3", "Monster abilities", "A monster ability card gives the type's initiative and actions that "
               "add to each monster's printed stats (normal or elite). Within a type elites act first, then "
               "normals, each by standee number. Monster types tied on initiative: the players decide (any seat "
               "enters the order)."),
        Clause("GH-C4", "Focus and movement detail", "Focus assumes unlimited movement. A path's cost is "
               "(negative hexes entered, movement points): traps and hazardous hexes count as obstacles unless no "
               "other path exists, then the path entering fewest. Long rests count as initiative 99. A monster "
               "with no attack focuses as if melee; with no enemy reachable it neither moves nor attacks. It moves "
               "to attack its focus with maximum effect: first no disadvantage (a ranged attack on an adjacent "
               "target), then the most targets (more targets are taken in focus order: proximity, then "
               "initiative), then the fewest movement points; if it cannot attack this turn it moves along the "
               "shortest path toward the nearest attack hexes. It attacks only if it can attack its focus. "
               "Equally good options go to the players, who pick one."),
        Clause("GH-C5", "Attacks", "Each target draws one attack modifier (two with advantage or disadvantage: "
               "the better or the worse). Decks hold 6×+0, 5×+1, 5×-1, +2, -2, 2x and Null; characters have "
               "their own, all monsters share one, summons use their summoner's. A deck that drew 2x or Null is "
               "reshuffled at the end of the round; an empty deck is reshuffled before a draw. A monster or "
               "summon at 0 hit points dies; a character below 1 is exhausted (GH-1)."),
        Clause("GH-C6", "Resting", "Long rest, declared instead of cards: on its turn the character loses one "
               "discarded card of its choice, takes the rest back and heals 2. Short rest, at the end of a round: "
               "one random discarded card is lost and the rest return. Both need two cards in the discard pile."),
        Clause("GH-C7", "Line of sight", "Two hexes see each other when a segment from a corner of one to a corner "
               "of the other touches no wall: wall hexes (corners included), the map's edge and thin walls (their end "
               "points included) all block a line that crosses or merely touches them, so a corner on a wall never "
               "ends a sight line. Figures, obstacles, traps and terrain never block sight. Neighbours across an "
               "open edge always see each other; across a walled edge they do when a neighbouring edge offers a way "
               "around (reading built: at one end of the wall the third hex is open and its edges with both are "
               "open). The corner test is exact, in integers."),
        Clause("GH-C8", "Choosing the destination", "A monster that can attack its focus this turn takes, among the "
               "hexes it can reach and attack it from (entering no more negative hexes than it must): (1) no "
               "disadvantage on the focus; (2) the most targets; (3) among equal counts, the group of extra targets "
               "the focus rules rank best, each ranked as a focus is from its starting hex (groups compared best "
               "member first); (4) the fewest extra targets with disadvantage; (5) the fewest movement points. What "
               "still ties is the players' choice."),
        Clause("GH-C9", "Out of reach this turn", "A monster that cannot attack its focus this turn ranks the hexes it "
               "would attack from with unlimited movement as GH-C8 without (1), and moves toward the best as far as "
               "it can, stopping where (negative hexes on the whole route, path left) is least, then where it spends "
               "least now. Each tied hex yields its own stopping hexes (never pooled): the players choose one. If it "
               "cannot get closer it stays."),
        Clause("GH-C10", "Area attacks", "An area pattern may be placed in any of its six rotations, mirrored or not. "
               "A melee pattern is placed around the monster's hex (never on it); a ranged pattern anywhere one of its "
               "hexes is within range (counted around walls); every target needs line of sight from the monster. "
               "\"+N targets\" adds N single targets beyond the pattern, ranked as GH-C8 (3)."),
        Clause("GH-C11", "Ties the players break", "Characters tied on initiative after their other card are the "
               "players' choice wherever initiative breaks a focus or target tie: the answer offers each, never the "
               "one listed first, and in a game the tied characters' seats choose; every other tie GH-C4, GH-C8 "
               "and GH-C9 leave is offered to the players too."),
        Clause("GH-V1", "Variant: Jaws of the Lion focus", "Under Jaws of the Lion's rules (a scenario's "
               "\"variant\": \"jotl\", or --rules jotl), focus ties go straight to initiative order: no proximity "
               "step."),
        Clause("GH-V2", "Variant: Jaws of the Lion jump", "Under Jaws of the Lion's rules (a scenario's "
               "\"variant\": \"jotl\", or --rules jotl), the landing hex of a jump does not cost 2 for difficult "
               "terrain."),
    )
)

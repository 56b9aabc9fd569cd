"""The clauses of the grid skirmish, in our own words (digest: shared/rules/skirmish.md).

Where the digest names a reading of an ambiguous text, or the engine had to choose one, the
clause says so ("Reading: …"), so that a dispute can find the choice by its clause ID.
"""

from __future__ import annotations

from events.rules import Catalogue, Clause

CATALOGUE = Catalogue(
    (
        Clause("SK-1", "Walls", "Walls (magenta) lie on the edges between squares and stop both movement and "
               "line of sight."),
        Clause("SK-2", "Corners", "No diagonal step past a corner or the end of a wall: a diagonal step is refused "
               "when a wall or a closed door touches the corner point it cuts through."),
        Clause("SK-3", "Low objects", "Entering a square of low objects (green) costs double movement points. Low "
               "objects give cover."),
        Clause("SK-4", "Difficult terrain", "Entering a square of difficult terrain (yellow) costs double movement "
               "points. It gives no cover."),
        Clause("SK-5", "Pits", "Pits (orange) cannot be entered, but line of sight passes over them and they give "
               "no cover."),
        Clause("SK-6", "Doors", "A door (light blue) that is closed is a wall; an open door changes nothing. "
               "Reading: a door wider than one square (a straight run of edges) is one door, with one state and "
               "one holder; SK-7…SK-11 apply to the whole of it."),
        Clause("SK-7", "Opening", "A door nobody holds stays as it is until a figure ends its turn in contact with "
               "it; after all its actions that figure decides whether the door is open, and holds it. Reading: a "
               "door whose holder left is closed and unheld, and the next figure to end its turn in contact with "
               "it decides it the same way. From skirmish-3 a door whose holder is defeated keeps its state (none "
               "of SK-8…SK-11 happened to it), and the next figure to end its turn in contact decides it so too; "
               "skirmish-1 and skirmish-2 close it at once (SK-9)."),
        Clause("SK-8", "Holder's choice", "The holder decides again, at the end of its next activation, to open or "
               "close the door. Reading: a figure that became holder by a contest during an activation decides "
               "(or lets the door close, SK-9) at the end of its following activation, not of the current one; "
               "until then the door keeps the state it won, even if the figure walks away (so SK-C4's contest "
               "without a roll can happen)."),
        Clause("SK-9", "Holder leaves", "If the holder is not in contact with the door at the end of its next "
               "activation, the door closes and nobody holds it. Reading, in skirmish-1 and skirmish-2 "
               "only: a holder that is defeated is no longer in contact, so the door closes at once. From "
               "skirmish-3 a defeated holder has no next activation: it only stops holding (SK-7)."),
        Clause("SK-10", "Enemy contest", "An enemy of the holder in contact with the door may contest it to open or "
               "close it: each rolls d20 + Attack, +2 per other figure of its side in contact with the door; the "
               "higher total wins, a critical beats any total, ties roll again; the winner sets the door and holds "
               "it. Reading: a figure contests a given door once per activation, and a contest is not its attack."),
        Clause("SK-11", "Ally contest", "An ally of the holder in contact with the door who wants it opened or "
               "closed makes the same opposed roll against the holder, with +4. Reading (as the digest asks): a "
               "friendly change of state still goes through the opposed roll, the ally having +4."),
        Clause("SK-12", "Flavour", "The door rules stage a survivor desperately holding a door shut against a horde, "
               "or a Troll holding a passage open for its side."),
        Clause("SK-C1", "Grid as data", "A scenario file gives the grid (an ASCII map: walls and doors on edges, low "
               "objects, difficult terrain and pits in squares), the diagonal cost and the figures with side, "
               "name, Attack, Defense, movement points, hit points and position."),
        Clause("SK-C2", "Steps", "A step goes to one of the 8 neighbouring squares: 1 point orthogonally, the "
               "scenario's diagonal cost (2 by default) diagonally, doubled into low objects or difficult terrain. "
               "Figures pass through allies but never stop on them, and never enter an enemy's square. An "
               "activation is: move up to the figure's movement points then attack, attack then move as much, or "
               "move twice as much. An attack is d20 + Attack against Defense; a hit deals the attacker's damage; "
               "a figure at 0 hit points is defeated. Reading: a figure marked melee attacks adjacent figures only."),
        Clause("SK-C3", "Line of sight and cover", "Line of sight: some line from a point of one square to a point "
               "of the other neither crosses nor touches a wall or closed door; pits, terrain and figures never "
               "block it. Cover (+4 Defense): from a corner of the attacker's square, some line to the target's "
               "square passes a wall, another figure's square or low objects (low objects in the attacker's own or "
               "adjacent squares are ignored); the attacker uses its corner that gives the least cover, and an "
               "adjacent target never has cover. Squares across a wall are not adjacent. Reading: a wall touching "
               "only the far sides of the target's square (behind it) gives no cover; low objects in the target's "
               "own square do."),
        Clause("SK-C4", "Critical", "A natural 20 on the d20 is a critical. In an attack it always hits and deals "
               "double damage (reading, from Star Wars Miniatures). In a door contest a critical beats any total; "
               "two criticals, or equal totals without one, are a tie and both roll again. A contest resolves "
               "when declared; if the holder is no longer in contact, there is no roll and the contesting figure "
               "sets the door and holds it. From skirmish-3 a defeated holder is one no longer in contact: the "
               "next contest for its door has no roll."),
        Clause("SK-C5", "Activation", "Figures activate one at a time, the sides alternating (a side with no figure "
               "left to activate is skipped); an activation is moves and an attack, then the end-of-turn door "
               "decisions of SK-7…SK-9. A round ends when every standing figure has activated; the game ends when "
               "a side has no figure left or after the scenario's rounds."),
        Clause("SK-C6", "Next to a door", "A figure is in contact with a door when its square touches one of the "
               "door's edges, ends included: up to six squares for a one-edge door, three on each side, two more "
               "for each further edge. The +2 of SK-10 counts the other "
               "figures of the roller's side in contact. Keeping a door closed holds it as opening it does."),
    )
)

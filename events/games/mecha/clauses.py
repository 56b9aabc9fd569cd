"""The clauses of Expeditions' Move action, in our own words (digest: shared/rules/mecha.md)."""

from __future__ import annotations

from events.rules import Catalogue, Clause

CATALOGUE = Catalogue(
    (
        Clause("MV-1", "Move", "A Move takes your Mecha to another Location within Range that holds no Mecha."),
        Clause("MV-2", "Camp", "Every Mecha starts in the Camp, which touches 3 Locations. The Camp is not a "
               "Location: once left it is never re-entered, and no route passes through it."),
        Clause("MV-3", "Range", "A Move reaches 1 to 3 Locations away unless its source gives another Range, and "
               "must end in a Location other than the one it began in."),
        Clause("MV-4", "Passing through", "A Mecha may pass through Locations holding other Mechas; they count "
               "towards Range like empty ones. Central card spaces are not Locations: never entered, never counted."),
        Clause("MV-5", "No valid destination", "With no valid destination the Mecha stays put; taking the Move "
               "action then simply passes it."),
        Clause("MV-6", "Face-down Location", "Entering a face-down Location ends the move there: no route passes "
               "through one."),
        Clause("MV-6a", "Map token", "Entering a face-down Location, its player takes the Location's map token."),
        Clause("MV-6b", "Reveal", "Then the Location is turned face up."),
        Clause("MV-6c", "Corruption", "Then Corruption tokens are drawn one by one and stacked until their sum "
               "reaches at least the Location's Corruption level (level 5+, first token 4: draw again)."),
        Clause("MV-7", "Location 20", "Revealing Location 20 places the value-20 token in its square instead of "
               "drawing."),
        Clause("MV-8", "Empty bag", "If the bag empties while drawing, drawing stops and the Location stays as it is."),
        Clause("MV-9", "Worked example", "Blue may move into empty Location 12 by passing through the Location "
               "Red's Mecha occupies."),
        Clause("MV-C1", "Board as data", "The board is a data file: numbered Locations with Corruption level, "
               "side and map token, their adjacency, the Camp's 3 neighbours and the card spaces."),
        Clause("MV-C2", "Bag as data", "The Corruption bag is a multiset of tokens from the scenario; the value-20 "
               "token is set aside for Location 20; every draw is random and written into the log."),
        Clause("MV-C3", "Turns", "Seats act in turn order; on its turn a seat takes a Move action or passes. The "
               "game ends after the scenario's number of rounds."),
        Clause("MV-C4", "Route shown", "A move records the shortest legal path its Mecha took."),
    )
)

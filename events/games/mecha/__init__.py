"""Expeditions (Stonemaier Games, 2023): the Move action, as the ``mecha`` rule system."""

from __future__ import annotations

from events.game import released
from events.games.mecha import rules, v1, words
from events.games.mecha.clauses import CATALOGUE
from events.games.mecha.model import COMMANDS, EVENTS
from events.games.mecha.view import view

#: mecha-1, as released (c1f16d2): its logs are played, audited and replayed under it, indefinitely.
GAME_1 = released("mecha", v1.RULES_VERSION, rules, words, CATALOGUE, EVENTS, COMMANDS, view,
                  decide=v1.decide_1, evolve=v1.evolve_1)
#: mecha-2 (0fd58ea): what changed, as the pages show it to the players of a mecha-1 game.
GAME = GAME_1.revised(
    rules.RULES_VERSION,
    notes=(
        ("MV-C3", "the game's end tallies count the last command's own reveal and map token too"),
        ("MV-C2", "the value-20 token is always set aside, never drawn, even on a board without a Location 20"),
    ),
    decide=rules.decide,
    evolve=rules.evolve,
)

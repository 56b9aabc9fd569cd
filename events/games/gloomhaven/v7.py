"""gloomhaven-7: a move naming its destination alone leaves the route to the player where walks there within the
move do different things (GH-4, GH-C1), and the order tied seats chose is their initiative order (GH-2, GH-6).

GH-4: figures move hex by hex, and traps and terrain take effect when a figure enters their hex; GH-C1: a
character entering a closed door hex opens it. The player chooses the walk. A ``PlayCard`` with ``to`` alone is
the engine's shortcut for the cheapest walk there (fewest traps and hazardous hexes, then fewest points). Up to
gloomhaven-6 the engine walked that one, choosing for the player where other walks within the move, as few
negative hexes entered, entered different traps, hazardous hexes or closed doors (a trap of 2 + level or a
hazard of half that; a door opened or left shut). gloomhaven-7 compares every such walk, whatever its points
(points left at the end of a move are worth nothing), refuses the move where they differ (GH-4, naming what
each walk enters, ``rules.walks_apart``), and the player gives the path; a path, and ``to`` where those walks
all enter the same hexes, are decided as before.

GH-2, GH-6, GH-C11: once the characters tied on initiative have had their order chosen by their seats
(``OrderChosen`` this round), that order is the initiative order by which monsters break focus ties and rank
extra targets (GH-C8 (3)); up to gloomhaven-6 they shared one rank even then, and a monster offered the options
of every order the players might have chosen (``rules.field_of``, ``edition`` 7). And the tied seats agree on
that order (GH-2): one seat's ``ChooseOrder`` is a proposal (``OrderProposed``) until every tied seat has
answered the same order, then ``OrderChosen``; up to gloomhaven-6 the first answer settled it for all.

Nothing else changes: ``legal`` gives paths, never ``to`` alone, so the bots' games without a tie on both cards
replay unchanged, and a gloomhaven-6 game replays unchanged under gloomhaven-7 unless it moved by ``to`` alone
between such walks or had such a tie.
"""

from __future__ import annotations

from events.games.gloomhaven import v4

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "gloomhaven-7"
EDITION = 7


def decide_7(state: Any, seat: str, command: Any, rng: Any) -> list | Any:
    """gloomhaven-6's decision, refusing a move by destination alone between walks apart (``rules.walks_apart``)."""
    return v4.decide_4(state, seat, command, rng, EDITION)

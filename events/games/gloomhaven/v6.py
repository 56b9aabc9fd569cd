"""gloomhaven-6: the players' order of characters tied on initiative ranks extra targets too (GH-C8 (3), GH-C11).

GH-C8 (3) takes "the group of extra targets that the focus rules rank best, each extra target ranked
exactly as a focus is". Ranked one by one, as a focus is, the monster prefers the group holding the
best-ranked target, then the next (best member first). Where two characters tie on initiative the
players order them (GH-2), and that order ranks them as targets too (GH-C11: "the same holds for
every other tie GH-C8 leaves"). Up to gloomhaven-5 the two shared one rank, so a group compared
their shared rank and then its next member: with A and B tied and a monster of three targets able
to hit its focus X with A and x, or with B and a better y, it always took B and y, though had the
players put A first, A is the best extra target and the group holding A wins. gloomhaven-6 lists
every acting order the players may choose for an attack with extra targets (``rules.field_of``),
plans each and joins them (``focus._joined``): both groups are offered, and when each order gives
exactly one option, the choice is the tied characters' seats' (``rules._choosers``; the plan cites
GH-C11), not every player's. So it is where the two groups differ only by the tied characters (from one
hex it hits X and A, from another X and B): gloomhaven-5 offered both hexes too, but to every player,
as a tie of hexes (GH-C4), though it is the choice of the tied characters' order (GH-2).

Nothing else changes: a monster turn without such a tie plans exactly as gloomhaven-5, and a
gloomhaven-5 game replays unchanged under gloomhaven-6.
"""

from __future__ import annotations

from events.games.gloomhaven import v4

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "gloomhaven-6"
EDITION = 6


def decide_6(state: Any, seat: str, command: Any, rng: Any) -> list | Any:
    """gloomhaven-5's decision with gloomhaven-6's acting orders for extra targets (``rules.field_of``, ``edition`` 6)."""
    return v4.decide_4(state, seat, command, rng, EDITION)

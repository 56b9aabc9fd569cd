"""gloomhaven-5: the players' choice of acting order reaches summons (GH-C11, GH-6, GH-8).

Characters tied on initiative (GH-2) act in the order their players choose, and a summon acts just
before its own summoner (GH-8). Up to gloomhaven-4 a monster's focus ranked every summon of the tied
characters before all of them: with A and B tied and A's summon As as cheap and as near as B, it
focused As, though had the players put B first B would act before As. gloomhaven-5 lists every
acting order the players may choose (``focus.tied_orders``) and answers each: the focus is As or B,
the players' choice (``decided_by`` GH-C11's, and so the plan cites GH-C11, ``v3.plan_rule``), and
never A, who always acts after As.

Nothing else changes: a game without such a tie decides exactly as gloomhaven-4, the same events
and states (``rules.field_of`` lists orders only for a tie that holds a summon), so a gloomhaven-4
game without one replays unchanged under gloomhaven-5.
"""

from __future__ import annotations

from events.games.gloomhaven import v4

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_VERSION = "gloomhaven-5"
EDITION = 5


def decide_5(state: Any, seat: str, command: Any, rng: Any) -> list | Any:
    """gloomhaven-4's decision with gloomhaven-5's acting orders (``rules.field_of``, ``edition`` 5)."""
    return v4.decide_4(state, seat, command, rng, EDITION)

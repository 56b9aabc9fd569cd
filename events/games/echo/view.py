"""What a seat or a spectator may see of an ``echo`` game.

Nothing in the Movement phase is secret: the map, every investigator's skills, tracks and cards,
the enemies' cards and tracks and every die rolled are on the table for all (the original text
has the enemy's dice rolled by another player, in the open: EC-13). Every seat and every
spectator sees the whole state.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def view(state: Any, seat: str | None) -> Any:
    return state

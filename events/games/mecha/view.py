"""What a seat or a spectator may see of a ``mecha`` game.

Nothing in the Move action is secret: Locations, stacks, map tokens and the bag's counts are all
public (MV-C2: the bag's order does not exist until a draw), so every seat and every spectator
sees the whole state.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def view(state: Any, seat: str | None) -> Any:
    return state

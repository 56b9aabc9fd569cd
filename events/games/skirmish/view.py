"""What a seat or a spectator may see of a ``skirmish`` game.

Nothing is hidden on a skirmish grid: figures, hit points, doors and their holders are all on
the table, so every seat and every spectator sees the whole state.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def view(state: Any, seat: str | None) -> Any:
    return state

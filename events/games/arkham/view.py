"""What a seat or a spectator may see of an ``arkham`` game.

Nothing in the Movement phase is secret: investigators' sheets, items and Clue tokens, monsters,
gates and every roll are on the table, so every seat and every spectator sees the whole state.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def view(state: Any, seat: str | None) -> Any:
    return state

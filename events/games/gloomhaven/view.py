"""What a seat or a spectator may see of a ``gloomhaven`` game, and what an event shows to whom.

The map, figures, hands, discards and decks are public. A card pick is not (GH-C2): it sits in
the state inside a ``Sealed`` record, which serialises as ``{"type": "Sealed"}`` whatever it
holds, so the state every viewer folds has one JSON and one hash. The pick's own event goes in
full to its seat only; everyone else gets it sealed (no cards, no leading card, no rest flag)
until ``CardsRevealed`` carries every pick in the open. ``GameStarted`` goes to everybody as it
is: it carries only the commitment to the game's secret (CORE-1), from which nobody can compute
the monster cards and modifier draws to come.
"""

from __future__ import annotations

from events.games.gloomhaven.model import CardsSelected, DeclareLongRest, SelectCards

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def view(state: Any, seat: str | None) -> Any:
    """The state is safe to show as it is: its only secret is sealed."""
    return state


def visibility(event: Any) -> tuple | None:
    """The seats that may see this event in full while the game runs (None: everybody)."""
    if isinstance(event, CardsSelected) and not event.sealed:
        return (event.seat,)
    return None


def redact(record: Any) -> Any:
    """The public form of a secret event (or None for a secret command: it is withheld whole)."""
    if isinstance(record, CardsSelected):
        return CardsSelected(record.seat, (), None, False, True)
    if isinstance(record, (SelectCards, DeclareLongRest)):
        return None
    return record

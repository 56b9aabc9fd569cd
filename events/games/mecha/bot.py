"""What a greedy bot wants in Expeditions' Move: map tokens taken and Locations turned face up."""

from __future__ import annotations


def score(state, seat: str) -> int:
    index = next(i for i, item in enumerate(state.seats) if item.seat == seat)
    return 3 * len(state.plans[index]) + 2 * len(state.revealed[index])

"""What a greedy bot wants in Echo: clues and enemies taken, with sanity and health to spare."""

from __future__ import annotations


def score(state, seat: str) -> int:
    me = next(inv for inv in state.investigators if inv.seat == seat)
    if not me.alive:
        return -1000
    return 4 * me.clues + 5 * len(me.detained) + me.sanity + me.health

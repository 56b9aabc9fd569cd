"""What a greedy bot wants in Arkham's Movement phase: clues and trophies, and to stay whole."""

from __future__ import annotations


def score(state, seat: str) -> int:
    me = next(inv for inv in state.investigators if inv.seat == seat)
    if me.devoured:
        return -1000
    return 4 * me.clues + 5 * len(me.trophies) + me.stamina + me.sanity

"""What a greedy bot wants in the skirmish: its side's hit points kept, the others' taken away."""

from __future__ import annotations


def score(state, seat: str) -> int:
    if state.over and state.winner is not None:
        return 1000 if state.winner == seat else -1000
    mine = sum(figure.hp for figure in state.figures if figure.side == seat and figure.at is not None)
    theirs = sum(figure.hp for figure in state.figures if figure.side != seat and figure.at is not None)
    return 2 * mine - 3 * theirs

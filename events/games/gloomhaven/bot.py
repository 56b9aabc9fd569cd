"""What a greedy bot wants in Gloomhaven: monsters' hit points down, its own character's kept."""

from __future__ import annotations


def score(state, seat: str) -> int:
    mine = sum(figure.hp for figure in state.figures if figure.seat == seat and figure.kind == "character")
    monsters = sum(figure.hp for figure in state.figures if figure.kind == "monster")
    return 2 * mine - 3 * monsters

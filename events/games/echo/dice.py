"""The one check of this game: roll (skill − penalty) six-sided dice, succeed on any 5 or 6.

A number of dice below 1 fails without a roll (shared/rules/echo.md, "Dice"). Chances are exact
fractions of integers (no floats leave ``events/``): with n dice, every die misses with
probability 4/6 = 2/3, so success is 1 − (2/3)^n = (3^n − 2^n) / 3^n.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HIT = 5  # a die showing 5 or 6 is a success (EC-4) and, in an attack, a point of damage (EC-13)


def dice_count(value: int, penalty: int) -> int:
    """How many dice a check rolls: the skill minus the penalty, never below 0 (EC-4)."""
    return max(0, value - penalty)


def roll(rng: Any, count: int) -> tuple:
    """``count`` d6 through the game's rng; no dice for a count below 1."""
    return tuple(rng.roll(6) for _ in range(count))


def hits(dice: tuple) -> int:
    """Dice showing 5 or 6: successes of a check, damage of an attack (EC-13)."""
    return sum(1 for value in dice if value >= HIT)


def passed(dice: tuple) -> bool:
    """A check succeeds if at least one die shows 5 or 6; no dice, no success."""
    return hits(dice) > 0


def chance(count: int) -> tuple:
    """(numerator, denominator) of the chance that ``count`` dice pass, in lowest terms."""
    if count < 1:
        return (0, 1)
    denominator = 3**count
    numerator = denominator - 2**count
    # 3^n and 2^n share no factor, so 3^n − 2^n is prime to 3^n: the fraction is already reduced.
    return (numerator, denominator)

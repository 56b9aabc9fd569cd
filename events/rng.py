"""Dice and draws: a small integer-only PRNG that gives the same numbers in CPython and Brython.

All randomness happens in ``decide`` through the generator it is handed, and the outcome is
written into the events, so replaying a log never draws. The shell starts one generator per
command from the game's secret and the command's first sequence number through HMAC-SHA-256
(``events.dice.command_rng``), which is what lets ``audit`` re-decide a logged command, once the
secret is revealed, and get the same events.

The generator is SplitMix64 (Steele, Lea & Flood 2014): a 64-bit counter through a mixing
function. It needs only integer arithmetic, so Python's big integers give identical results in
both runtimes, and it avoids importing ``random`` (hundreds of milliseconds in Brython).
"""

from __future__ import annotations

from events.rules import Phrase, phrase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    """A seeded generator. ``below``, ``roll`` and ``pick`` are all the core ever asks for."""

    loaded = False

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        self.state = seed & MASK

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.next64()
            if value < limit:
                return value % n

    def roll(self, sides: int = 6) -> int:
        """One die: 1..sides."""
        return self.below(sides) + 1

    def pick(self, options: tuple, face: Callable[[Any], Any] | None = None) -> Any:
        """One of ``options`` uniformly (``face`` only matters to a loaded generator)."""
        if not options:
            raise ValueError("pick() from no options")
        return options[self.below(len(options))]


class LoadedRng(Rng):
    """Dice that come up as told, for tests and what-if replays.

    ``roll`` returns the next given value; ``pick`` returns the first option whose face (the
    option itself, or ``face(option)``) equals the next given value. When the given values run
    out, the fallback generator takes over, so a what-if only fixes the throws it cares about.
    """

    loaded = True

    def __init__(self, values: tuple, fallback: Rng | None = None) -> None:
        Rng.__init__(self, 0)
        self.values = list(values)
        self.used = 0
        self.fallback = fallback

    def _next(self, what: Phrase) -> Any:
        if self.used < len(self.values):
            value = self.values[self.used]
            self.used += 1
            return value
        if self.fallback is None:
            raise LoadedDiceExhausted(phrase("dice.no_value_left", NO_VALUE_LEFT, what=what, n=len(self.values)))
        return None

    def below(self, n: int) -> int:
        value = self._next(phrase("dice.what_below", "a number below {below}", below=n))
        if value is None:
            return self.fallback.below(n)  # type: ignore[union-attr]
        if not 0 <= value < n:
            raise LoadedDiceMismatch(phrase("dice.not_below", "loaded value {value} is not in [0, {below})",
                                            value=value, below=n))
        return value

    def roll(self, sides: int = 6) -> int:
        value = self._next(phrase("dice.what_die", "a d{sides}", sides=sides))
        if value is None:
            return self.fallback.roll(sides)  # type: ignore[union-attr]
        if not 1 <= value <= sides:
            raise LoadedDiceMismatch(phrase("dice.not_on_die", "loaded value {value} cannot be rolled on a d{sides}",
                                            value=value, sides=sides))
        return value

    def pick(self, options: tuple, face: Callable[[Any], Any] | None = None) -> Any:
        if not options:
            raise ValueError("pick() from no options")
        value = self._next(phrase("dice.what_draw", "a draw"))
        if value is None:
            return self.fallback.pick(options, face)  # type: ignore[union-attr]
        for option in options:
            if (face(option) if face else option) == value:
                return option
        faces = sorted({face(o) if face else o for o in options})
        raise LoadedDiceMismatch(phrase("dice.not_an_option", "loaded value {value} is not among the options "
                                        "[{faces}]", value=value, faces=tuple(faces)))


# The fault's message (its English text is the exception's), for a page to say in its reader's language.
NO_VALUE_LEFT = {"one": "no loaded value left for {what} (given {n})",
                 "other": "no loaded value left for {what} (given {n})"}


class LoadedDiceFault(ValueError):
    """Loaded dice that do not fit the throws: ``fault`` is the message (a ``Phrase``) it says."""

    def __init__(self, fault: Phrase) -> None:
        ValueError.__init__(self, fault.text)
        self.fault = fault


class LoadedDiceExhausted(LoadedDiceFault):
    """More throws were needed than loaded values were given (and no fallback)."""


class LoadedDiceMismatch(LoadedDiceFault):
    """A loaded value that the throw or draw cannot produce."""

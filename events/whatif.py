"""What if: a logged game branched at a command, with other dice or another command, never stored.

The dispute panel (``client/dispute.py``) asks three things of the core, all pure:

- ``drawn(game, state, seat, command, rng)``: the values a command draws, in the order it draws
  them and in the spelling ``LoadedRng`` takes back (a die's face, ``below``'s number, a pick's
  face): the dice a reader edits. A finished game's log holds its secret (CORE-2), so
  ``events.dice.command_rng`` rebuilds the very generator the server used for that command (CORE-1)
  and the values shown are the logged ones; a running game's stay sealed, and any generator stands in.
- ``parse_dice(text)``: the values a reader typed, ``5, 2, 6`` (numbers) or ``3, skull`` (faces
  that are words), or the first fault in words.
- ``step(game, state, seat, command, rng)``: one command of the branch decided and folded: its
  events and the state after each (the states the game's ``Flow`` already holds, as the Table
  takes them: each event folded once), or the Rejection that refused it (with its clause).
"""

from __future__ import annotations

from events.game import Flow
from events.rng import LoadedDiceFault, Rng
from events.rules import Phrase, Rejection, phrase

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_DICE = 64  # values a reader may type for one command: more than any command of the five games draws
MAX_FACE = 40  # characters of one face that is a word


class RecordingRng(Rng):
    """A generator that answers from ``base`` and keeps each answer as ``LoadedRng`` would take it."""

    def __init__(self, base: Rng) -> None:
        Rng.__init__(self, 0)
        self.base = base
        self.values: list = []

    def below(self, n: int) -> int:
        value = self.base.below(n)
        self.values.append(value)
        return value

    def roll(self, sides: int = 6) -> int:
        value = self.base.roll(sides)
        self.values.append(value)
        return value

    def pick(self, options: tuple, face: Callable[[Any], Any] | None = None) -> Any:
        option = self.base.pick(options, face)
        self.values.append(face(option) if face else option)
        return option


def drawn(game: Any, state: Any, seat: str, command: Any, rng: Rng) -> list:
    """What ``command`` draws when decided with ``rng``, as a list ``LoadedRng`` replays exactly."""
    recorder = RecordingRng(rng)
    game.decide(state, seat, command, recorder)
    return recorder.values


def parse_dice(text: str) -> tuple:
    """``(values, None)`` from ``"5, 2, 6"`` (commas or spaces), or ``((), fault)``: a ``Phrase`` of
    the catalogue (``dice.*``), whose ``text`` is the English.

    A value of ASCII digits is a number; any other is a face that is a word (a token, a card id).
    Bounded: at most ``MAX_DICE`` values, each word at most ``MAX_FACE`` characters.
    """
    parts = [part for part in text.replace(",", " ").split() if part]
    if len(parts) > MAX_DICE:
        return (), phrase("dice.too_many", "at most {most} values, got {got}", most=MAX_DICE, got=len(parts))
    values: list = []
    for index, part in enumerate(parts):
        if part.isascii() and part.isdigit():
            values.append(int(part[:12]))  # a die with more than 12 digits of faces is no die: cut, then refused
        elif part[:1] == "-" and part[1:].isascii() and part[1:].isdigit():
            return (), phrase("dice.below_zero", "value {index} ({value}) is below zero", index=index + 1,
                              value=part[:MAX_FACE])
        elif len(part) > MAX_FACE:
            return (), phrase("dice.too_long", "value {index} is longer than {most} characters", index=index + 1,
                              most=MAX_FACE)
        else:
            values.append(part)
    return tuple(values), None


class Step:
    """One command of a branch, decided and folded: its ``events`` and the ``states`` after each."""

    __slots__ = ("seat", "command", "events", "states", "dice")

    def __init__(self, seat: str, command: Any, events: list, states: list, dice: tuple) -> None:
        self.seat = seat
        self.command = command
        self.events = events
        self.states = states
        self.dice = dice

    @property
    def state(self) -> Any:
        return self.states[-1]


def step(game: Any, state: Any, seat: str, command: Any, rng: Rng) -> Step | Rejection | Phrase:
    """Decide ``command`` for ``seat`` on ``state`` with ``rng`` and fold its events.

    The answer is a ``Step``, the game's Rejection, or, when loaded dice do not fit the command
    (too few, or a value the throw cannot give), that fault as a ``Phrase`` (``dice.*``): the
    reader typed them.
    """
    recorder = RecordingRng(rng)
    try:
        result = game.decide(state, seat, command, recorder)
    except LoadedDiceFault as fault:
        return fault.fault
    if isinstance(result, Rejection):
        return result
    states = result.states_from(state) if isinstance(result, Flow) else None
    if states is None:  # a plain list of events, or a flow that did not begin here: fold it once
        flow = Flow(state, game.evolve)
        flow.emit(*result)
        states = flow.states
    return Step(seat, command, list(result), list(states), tuple(recorder.values))


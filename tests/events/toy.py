"""A toy game for testing the core without any real rules: a counter that adds and rolls dice.

``Add(k)`` adds k (T-1; a negative k is refused); ``Roll(n)`` rolls n dice and adds them (T-2);
``Broken`` makes decide misbehave in the ways the log must catch.
"""

from __future__ import annotations

from events.game import Game, GameStarted, RulesVersionChanged, SecretRevealed
from events.record import Record, Registry
from events.rules import Catalogue, Clause, Rejection
from events.upgrade import RulesVersionAnswered, RulesVersionProposed


class Count(Record):
    __slots__ = ("total", "seats", "commitment")
    __match_args__ = __slots__
    TYPE = "Count"

    def __init__(self, total: int, seats: tuple, commitment: str) -> None:
        object.__setattr__(self, "total", total)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "commitment", commitment)


class Add(Record):
    __slots__ = ("k",)
    __match_args__ = __slots__
    TYPE = "Add"

    def __init__(self, k: int) -> None:
        object.__setattr__(self, "k", k)


class Roll(Record):
    __slots__ = ("dice",)
    __match_args__ = __slots__
    TYPE = "Roll"

    def __init__(self, dice: int) -> None:
        object.__setattr__(self, "dice", dice)


class Broken(Record):
    __slots__ = ("how",)
    __match_args__ = __slots__
    TYPE = "Broken"

    def __init__(self, how: str) -> None:
        object.__setattr__(self, "how", how)


class Added(Record):
    __slots__ = ("k",)
    __match_args__ = __slots__
    TYPE = "Added"
    RULE = "T-1"

    def __init__(self, k: int) -> None:
        object.__setattr__(self, "k", k)


class Rolled(Record):
    __slots__ = ("value", "rule")
    __match_args__ = __slots__
    TYPE = "Rolled"

    def __init__(self, value: int, rule: str = "T-2") -> None:
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "rule", rule)


class Unregistered(Record):
    __slots__ = ()
    TYPE = "Unregistered"


CATALOGUE = Catalogue((Clause("T-1", "Add", "Add a non-negative number."), Clause("T-2", "Roll", "Roll dice.")))
EVENTS = Registry("event", (GameStarted, Added, Rolled))
COMMANDS = Registry("command", (Add, Roll, Broken))


def start(scenario: dict, seed: int) -> list:
    return [GameStarted("toy", "toy-1", seed, tuple(scenario["seats"]), "{}")]


def decide(state, seat, command, rng):
    match command:
        case Add(k):
            if k < 0:
                return Rejection("T-1", f"cannot add {k}: below 0")
            return [Added(k)]
        case Roll(dice):
            return [Rolled(rng.roll()) for _ in range(dice)]
        case Broken("nothing"):
            return []
        case Broken("unregistered"):
            return [Unregistered()]
        case Broken("uncited"):
            return [Rolled(1, rule="T-99")]
        case Broken(_):
            raise RuntimeError("the rules crashed")
    return Rejection("T-1", "unknown command")


def evolve(state, event):
    match event:
        case GameStarted(_game, _version, commitment, seats, _scenario):
            return Count(0, seats, commitment)
        case Added(k) | Rolled(k, _):
            return Count(state.total + k, state.seats, state.commitment)
        case SecretRevealed() | RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return state
    raise TypeError(f"toy cannot fold {type(event).__name__}")


GOAL = 100  # the toy game is over once its total reaches this (and the secret is revealed, CORE-2)


def make(decide=decide) -> Game:
    return Game(
        name="toy", rules_version="toy-1", catalogue=CATALOGUE, events=EVENTS, commands=COMMANDS,
        start=start, decide=decide, evolve=evolve, view=lambda state, seat: state,
        legal=lambda state, seat: [Add(1)], is_over=lambda state: state.total >= GOAL, turn=lambda state: ("a",),
        seats=lambda state: state.seats,
    )


TOY = make()

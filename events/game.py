"""The game contract: a game is a plain object of pure functions and some data.

Modelled on boardgame.io's game definition and the Decider pattern: ``start`` gives the first
events, ``decide`` turns a command into events or a Rejection, ``evolve`` folds one event into a
new state, and ``view``, ``legal``, ``is_over`` and ``turn`` answer the questions the shell, the
browser and bots ask. Every function is pure: no I/O, no clock, and randomness only through
the ``rng`` handed to ``decide``.
"""

from __future__ import annotations

from events.record import Record, Registry
from events.rules import CORE, Catalogue, Rejection

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class GameStarted(Record):
    """The first event of every game: everything it started from, so a log alone replays it.

    ``scenario`` is the validated scenario as canonical JSON text (records hold no dicts), with
    every referenced file already inlined by whoever loaded it. ``commitment`` binds the game to
    the secret its dice come from without telling it (CORE-1, ``events.dice.commitment``).
    """

    __slots__ = ("game", "rules_version", "commitment", "seats", "scenario")
    __match_args__ = __slots__
    TYPE = "GameStarted"

    def __init__(self, game: str, rules_version: str, commitment: str, seats: tuple, scenario: str) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "rules_version", rules_version)
        object.__setattr__(self, "commitment", commitment)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "scenario", scenario)


class SecretRevealed(Record):
    """The game is over: its secret in the open, so anyone can check every die (CORE-2).

    The shell appends it (``events.log.Table``), never a game's ``decide``; folding it changes no
    state: every game's ``evolve`` has the one case ``case SecretRevealed(): return s`` (a wrapper
    around ``evolve`` would cost a call per event in Brython).
    """

    __slots__ = ("secret",)
    __match_args__ = __slots__
    TYPE = "SecretRevealed"
    RULE = "CORE-2"

    def __init__(self, secret: str) -> None:
        object.__setattr__(self, "secret", secret)


CORE_EVENTS = Registry("event", (SecretRevealed,))


class Game:
    """One rule system. Built once per game package; the shell never looks inside."""

    def __init__(
        self,
        name: str,
        rules_version: str,
        catalogue: Catalogue,
        events: Registry,
        commands: Registry,
        start: Callable[[dict, str], list],
        decide: Callable[[Any, str, Any, Any], list | Rejection],
        evolve: Callable[[Any, Any], Any],
        view: Callable[[Any, str | None], Any],
        legal: Callable[[Any, str], list],
        is_over: Callable[[Any], bool],
        turn: Callable[[Any], tuple],
        seats: Callable[[Any], tuple],
        trace: Callable[[Any], list] | None = None,
        visibility: Callable[[Any], tuple | None] | None = None,
        redact: Callable[[Any], Any] | None = None,
    ) -> None:
        if "GameStarted" not in events:
            raise ValueError(f"game {name!r} must register GameStarted among its events")
        self.name = name
        self.rules_version = rules_version
        # The core's clauses (CORE-1, CORE-2) and its event (SecretRevealed) are every game's too.
        self.catalogue = catalogue.with_core(CORE)
        events.core = CORE_EVENTS  # the game's registry itself: a copy made through __dict__ is slow in Brython
        self.events = events
        self.commands = commands
        self.start = start
        self.decide = decide
        self.evolve = evolve  # folds SecretRevealed too: one case of every game's match (CORE-2)
        self.view = view
        self.legal = legal
        self.is_over = is_over
        self.turn = turn
        self.seats = seats
        self.trace = trace or (lambda event: [])
        # Hidden information (optional; a game without it shows every event to everybody):
        # ``visibility(event)`` -> the seats that may see it in full while the game runs, or None
        # for everybody; ``redact(record)`` -> the public form of a secret event or command (None
        # withholds a command). The state every viewer folds must hash the same either way.
        self.visibility = visibility or (lambda event: None)
        self.redact = redact or (lambda record: record)

    def __repr__(self) -> str:
        return f"Game({self.name!r}, rules {self.rules_version})"

    def visible(self, envelope: Any, seat: str | None, over: bool = False) -> Any:
        """What ``seat`` (None: a spectator) may receive of an envelope: itself, or a redacted copy.

        Once the game is over every envelope is public. A redacted copy keeps seq, seat, rule and
        hash, carries the event's public form, and withholds the command and dice behind it.
        """
        if over:
            return envelope
        allowed = self.visibility(envelope.event)
        if allowed is None or (seat is not None and seat in allowed):
            return envelope
        return envelope.redacted(self.redact(envelope.event),
                                 None if envelope.command is None else self.redact(envelope.command))


def rule_of(event: Any) -> str | None:
    """The clause an event cites: its ``rule`` field, or its class's ``RULE``."""
    return getattr(event, "rule", None) or getattr(type(event), "RULE", None)

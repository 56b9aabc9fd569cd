"""How much one client, one game and one server process may take, and the codes that say so.

Four bounds, each a number in ``Limits`` (``create_app(limits=...)``, ``CHRONICLE_*`` variables,
``chronicle serve`` options), each answered with a stable kebab-case code:

- ``max_frame_bytes``      — a client frame larger than this gets ``frame-too-large``; the socket stays open;
- ``commands_per_second``  — per connection, a token bucket refilled at this rate holding at most
  ``command_burst``; a command beyond it gets ``rate-limited`` (with its id) and is not applied;
- ``connections_per_game`` — sockets on one game (seats and spectators) in this process; one more
  gets ``too-many-connections`` and is closed with 1013 (try again later);
- ``games_per_server``     — games open (loaded in memory, somebody connected) in this process; a
  socket that would open one more gets ``too-many-games`` and is closed with 1013.

The defaults are far above what a table of people does (a person clicks a few times a second) and
low enough that one client cannot take a server down.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

DEFAULT_MAX_FRAME_BYTES = 8 * 1024  # a command is ~100 bytes; anything near this is a mistake or abuse
WS_MAX_BYTES = 1024 * 1024  # above this uvicorn closes the socket (1009) without reading the frame
# A person clicks a few times a second; a bot or a bench on loopback may send ~150 per second on
# one socket (one command in flight per game). 200 keeps both working while one connection can
# take only a fraction of a core.
DEFAULT_COMMANDS_PER_SECOND = 200
DEFAULT_COMMAND_BURST = 400
DEFAULT_CONNECTIONS_PER_GAME = 64
DEFAULT_GAMES_PER_SERVER = 10_000

# name in Limits, environment variable, command-line option, what it bounds
SETTINGS = (
    ("max_frame_bytes", "CHRONICLE_MAX_FRAME_BYTES", "--max-frame-bytes", "bytes in one client frame"),
    ("commands_per_second", "CHRONICLE_COMMANDS_PER_SECOND", "--commands-per-second",
     "commands per second one connection may sustain"),
    ("command_burst", "CHRONICLE_COMMAND_BURST", "--command-burst", "commands one connection may send at once"),
    ("connections_per_game", "CHRONICLE_CONNECTIONS_PER_GAME", "--connections-per-game",
     "sockets on one game in this process"),
    ("games_per_server", "CHRONICLE_GAMES_PER_SERVER", "--games-per-server", "games open at once in this process"),
)


class LimitReached(Exception):
    """A bound was hit: the stable code and the fact, for an error frame or an HTTP error."""

    def __init__(self, code: str, message: str) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message


class Limits:
    __slots__ = tuple(name for name, *_ in SETTINGS)

    def __init__(
        self, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        commands_per_second: int = DEFAULT_COMMANDS_PER_SECOND, command_burst: int = DEFAULT_COMMAND_BURST,
        connections_per_game: int = DEFAULT_CONNECTIONS_PER_GAME, games_per_server: int = DEFAULT_GAMES_PER_SERVER,
    ) -> None:
        self.max_frame_bytes = max_frame_bytes
        self.commands_per_second = commands_per_second
        self.command_burst = command_burst
        self.connections_per_game = connections_per_game
        self.games_per_server = games_per_server
        for name, *_ in SETTINGS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        if max_frame_bytes > WS_MAX_BYTES:
            raise ValueError(f"max_frame_bytes: expected at most {WS_MAX_BYTES} (the WebSocket's own bound), "
                             f"got {max_frame_bytes}")

    def __repr__(self) -> str:
        return "Limits(" + ", ".join(f"{name}={getattr(self, name)}" for name, *_ in SETTINGS) + ")"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limits):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name, *_ in SETTINGS)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **given: int | None) -> Limits:
        """Explicit values (``given``, None meaning unset) over ``CHRONICLE_*`` variables over the defaults."""
        values = {}
        for name, variable, *_ in SETTINGS:
            if given.get(name) is not None:
                values[name] = given[name]
            elif environ.get(variable):
                raw = environ[variable]
                if not raw.strip().isdigit():
                    raise ValueError(f"{variable}: expected a positive integer, got {raw!r}")
                values[name] = int(raw)
        return cls(**values)


class CommandRate:
    """One connection's token bucket: ``allow()`` is False once it sent more than the limits let it."""

    __slots__ = ("rate", "burst", "tokens", "last", "clock")

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = limits.commands_per_second
        self.burst = limits.command_burst
        self.tokens = float(self.burst)
        self.clock = clock
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refusal(self) -> str:
        return (f"more than {self.rate} commands per second (bursts of {self.burst}) on one connection: "
                f"this command was not applied; resend it with the same id")

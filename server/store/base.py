"""The store contract: a few methods over games and their events, and one small error family.

A store keeps, per game, a metadata row (rules, title, seats, seat-token hashes, head, over),
its secret (CORE-1) in a table of its own, which seats the server plays (issue 18: seat -> bot
policy, in a table of its own), its table talk (issue 18: ``ChatLine`` rows in a table of their
own, never part of the log or its hashes), and one row per event: ``(seq, command_id, envelope
JSON text)``. It knows nothing of the rules:
the Room encodes envelopes before appending and decodes what it reads. ``append`` is atomic for
the whole batch and optimistic: it names the seq the caller believes is the head, and if any
other writer got there first it raises ``SeqConflict`` and writes nothing, on every back end
(after eventsourcing's recorders). The caller re-reads and re-decides.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Sequence


class StoreError(Exception):
    """Anything a store could not do; the back end's own error is chained as ``__cause__``."""


class SeqConflict(StoreError):
    """Another writer appended first: ``expected`` was not the head any more. Nothing was written."""

    def __init__(self, game_id: str, expected: int, head: int | None = None) -> None:
        where = f", the head is {head}" if head is not None else ""
        StoreError.__init__(self, f"game {game_id}: append expected head {expected}{where}")
        self.game_id = game_id
        self.expected = expected
        self.head = head


class UnknownGame(StoreError):
    """No game with this id in the store."""

    def __init__(self, game_id: str) -> None:
        StoreError.__init__(self, f"no game {game_id!r}")
        self.game_id = game_id


class GameExists(StoreError):
    """``create_game`` with an id the store already holds (ids are random: a retry picks another)."""


class Row:
    """A store's rows compare by value, slot by slot (what a test wrote is what it reads back); with
    an ``__eq__`` and no ``__hash__`` they are not hashable, as each row class was before."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.__slots__)


class Stored(Row):
    """One stored event: its seq, the command id that produced it (None for the start), its JSON."""

    __slots__ = ("seq", "command_id", "envelope")

    def __init__(self, seq: int, command_id: str | None, envelope: str) -> None:
        self.seq = seq
        self.command_id = command_id
        self.envelope = envelope

    def __repr__(self) -> str:
        return f"Stored(seq={self.seq}, command_id={self.command_id!r}, envelope={self.envelope[:40]!r}…)"


class GameMeta(Row):
    """What the lobby lists about a game, plus the sha256 hashes of its seat tokens (never the tokens)."""

    __slots__ = ("game_id", "rules", "title", "seats", "token_hashes", "created", "head", "over")

    def __init__(
        self, game_id: str, rules: str, title: str, seats: tuple, token_hashes: dict, created: str,
        head: int = 0, over: bool = False,
    ) -> None:
        self.game_id = game_id
        self.rules = rules
        self.title = title
        self.seats = tuple(seats)
        self.token_hashes = dict(token_hashes)
        self.created = created
        self.head = head
        self.over = over

    def __repr__(self) -> str:
        return f"GameMeta({self.game_id!r}, {self.rules!r}, head={self.head}, over={self.over})"


class ChatLine(Row):
    """One chat message (server/chat.py): its game, its number ``n`` (dense from 1 per game, over
    both channels), channel (``seats`` or ``spectators``), author (a seat, or ``spectator``), text
    and the server's time. Never an event: it is not in the log, nor in any hash."""

    __slots__ = ("game_id", "n", "channel", "author", "text", "at")

    def __init__(self, game_id: str, n: int, channel: str, author: str, text: str, at: str) -> None:
        self.game_id = game_id
        self.n = n
        self.channel = channel
        self.author = author
        self.text = text
        self.at = at

    def __repr__(self) -> str:
        return f"ChatLine({self.game_id!r}, n={self.n}, {self.channel}, {self.author!r}, {self.text[:40]!r})"


class Store(abc.ABC):
    """The methods every back end implements; all are coroutines (SQLite runs them in a thread)."""

    # The clock of a game's ``moved`` time (whole seconds, read by the store at creation and at each
    # append): ``count_open_games(moved_since=...)`` leaves out games nobody moved since. A test sets its own.
    clock = staticmethod(time.time)

    @abc.abstractmethod
    async def open(self) -> None:
        """Connect and create the schema if missing; called once by the app's lifespan."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Release connections; the store is unusable afterwards."""

    @abc.abstractmethod
    async def create_game(
        self, meta: GameMeta, first: Sequence[Stored], *, over: bool = False, secret: str | None = None,
        bots: dict | None = None, creator: str | None = None,
    ) -> None:
        """Record a new game and its first events (seq 1..n) in one transaction; raises GameExists.

        ``creator`` is the creating client's address key (``open_games_per_address``), None when
        not known; the game's ``moved`` time is the store's clock now, as after each append.

        ``secret`` is the game's secret (CORE-1), kept in a table of its own in the same
        transaction and handed back only by ``secret``: no listing or read of events shows it.
        ``bots`` (seat -> policy name) are the seats the server plays (issue 18), kept in the
        same transaction and handed back by ``bots``.
        """

    @abc.abstractmethod
    async def append(self, game_id: str, expected_seq: int, events: Sequence[Stored], *, over: bool = False) -> None:
        """Append events ``expected_seq + 1 …`` atomically, or raise SeqConflict and write nothing.

        ``over`` marks the game finished in the same transaction (the lobby lists it).
        Raises UnknownGame, and ValueError if the batch's seqs are not dense from expected_seq + 1.
        """

    @abc.abstractmethod
    async def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Stored]:
        """The events with ``after_seq < seq <= upto_seq`` in order; raises UnknownGame."""

    @abc.abstractmethod
    async def get_game(self, game_id: str) -> GameMeta:
        """One game's metadata; raises UnknownGame."""

    @abc.abstractmethod
    async def list_games(self, limit: int | None = None, after: str | None = None) -> list[GameMeta]:
        """Games newest first (``created`` descending, then id): at most ``limit`` of them, and only those
        listed after the game ``after`` (a page's cursor; raises UnknownGame if there is no such game)."""

    @abc.abstractmethod
    async def put_snapshot(self, game_id: str, seq: int, state: str) -> None:
        """Keep the state after ``seq`` (canonical JSON), replacing any earlier one at that seq.

        A snapshot is a cache (``server/snapshots.py``): its reader checks it against the logged
        hash, so a store may lose snapshots at any time. Raises UnknownGame."""

    @abc.abstractmethod
    async def get_snapshot(self, game_id: str, upto_seq: int) -> tuple[int, str] | None:
        """``(seq, state)`` of the snapshot with the highest seq ``<= upto_seq``, or None."""

    @abc.abstractmethod
    async def count_open_games(self, *, moved_since: int = 0, creator: str | None = None) -> int:
        """How many games are not over and were created or appended to at or after ``moved_since``
        (the store's clock, whole seconds), of ``creator`` alone if given (the ``open_games`` and
        ``open_games_per_address`` bounds on creation: a game nobody moved for ``idle_hours`` is
        left out, and counts again when it moves)."""

    @abc.abstractmethod
    async def secret(self, game_id: str) -> str | None:
        """The game's secret (None for a game created without one); raises UnknownGame.

        Only the Room that decides the game's commands asks for it: it leaves the server only in
        SecretRevealed, when the game is over (CORE-2).
        """


    @abc.abstractmethod
    async def bots(self, game_id: str) -> dict:
        """The seats the server plays and their policies (``{}``: only people); raises UnknownGame."""

    @abc.abstractmethod
    async def add_chat(self, game_id: str, channel: str, author: str, text: str, at: str, *,
                       cap: int) -> ChatLine | None:
        """Keep one chat message under the game's next number; None (nothing kept) if its channel
        already holds ``cap`` messages of the game (each channel has its own cap, so the spectators
        never fill the seats'). Raises UnknownGame. Safe against other processes adding at once."""

    @abc.abstractmethod
    async def read_chat(self, game_id: str, channel: str, limit: int) -> list[ChatLine]:
        """The newest ``limit`` messages of one channel, oldest first; raises UnknownGame."""

    @abc.abstractmethod
    async def chat_line(self, game_id: str, n: int) -> ChatLine | None:
        """The game's message number ``n``, or None (another process announced it: server/rooms.py)."""


def check_batch(expected_seq: int, events: Sequence[Stored]) -> None:
    """A programming error, not a conflict: the batch itself must be dense from expected_seq + 1."""
    if not events:
        raise ValueError("append needs at least one event")
    for offset, event in enumerate(events, start=1):
        if event.seq != expected_seq + offset:
            raise ValueError(f"batch seq {event.seq} should be {expected_seq + offset} (expected head {expected_seq})")

"""What the SQLite and PostgreSQL stores share: the schema, the metadata row, the rows they insert.

The two back ends differ in how they talk to their database (one thread on SQLite, a pool of
connections on PostgreSQL), not in what they keep: the tables, the columns of a game's row and how
a row becomes a ``GameMeta`` are written here once; and both group-commit appends the same way
(``group_commit_from_env``, ``MAX_GROUP``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from server.store.base import GameMeta, Stored
from server.switches import switch_from_env

# Group commit (issue 16): appends of different games that arrive while a commit is in flight are
# written together in the next transaction, one fsync for all, each caller told its own outcome.
# At most this many appends share one transaction, so that one commit (and, on SQLite, what waits
# behind it in the store's thread) stays short; the rest go in the next.
MAX_GROUP = 256
GROUP_COMMIT_VARIABLE = "CHRONICLE_GROUP_COMMIT"


def group_commit_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """``CHRONICLE_GROUP_COMMIT``: 1 (the default) group-commits appends, 0 gives each its own
    transaction and fsync (docs/scaling.md, "Group commit")."""
    return switch_from_env(GROUP_COMMIT_VARIABLE, environ)


class CommitCounts:
    """What a store's appends cost in transactions, for tests and benches (``store.commits``):
    ``transactions`` committed (or tried) for appends, ``appends`` they carried, ``largest`` group."""

    __slots__ = ("transactions", "appends", "largest")

    def __init__(self) -> None:
        self.transactions = 0
        self.appends = 0
        self.largest = 0

    def add(self, appends: int) -> None:
        self.transactions += 1
        self.appends += appends
        self.largest = max(self.largest, appends)

    def __repr__(self) -> str:
        return f"CommitCounts(transactions={self.transactions}, appends={self.appends}, largest={self.largest})"


def schema(boolean: str, false: str, events_key: str) -> str:
    """The tables, in the back end's words for a boolean column, its false, and the events' key.

    SQLite keeps ``over`` as ``INTEGER … DEFAULT 0`` and its events under ``UNIQUE (game, seq)``;
    PostgreSQL as ``boolean … DEFAULT false`` under ``PRIMARY KEY (game, seq)``.
    """
    return f"""
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    title TEXT NOT NULL,
    seats TEXT NOT NULL,          -- JSON list of seat names, in order
    token_hashes TEXT NOT NULL,   -- JSON object: seat -> sha256 hex of its token
    created TEXT NOT NULL,
    head INTEGER NOT NULL,
    over {boolean} NOT NULL DEFAULT {false},
    creator TEXT,                 -- the creating client's address key (IPv6 by /64); NULL: not known (an import)
    moved BIGINT                  -- the store's clock (whole seconds) at its creation or last append
);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    command_id TEXT,
    envelope TEXT NOT NULL,       -- the envelope's JSON, exactly as sent to clients
    {events_key} (game, seq)
);
CREATE INDEX IF NOT EXISTS games_created ON games (created DESC, id);
CREATE TABLE IF NOT EXISTS snapshots (
    game TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    state TEXT NOT NULL,          -- the state's canonical JSON: a cache, checked against the log's hash
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS secrets (
    game TEXT PRIMARY KEY REFERENCES games(id),
    secret TEXT NOT NULL          -- 64 hex digits (CORE-1); read only by the game's Room
);
CREATE TABLE IF NOT EXISTS bots (
    game TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    policy TEXT NOT NULL,         -- events.bots.POLICIES: the server plays this seat (issue 18)
    PRIMARY KEY (game, seat)
);
CREATE TABLE IF NOT EXISTS chat (  -- table talk (issue 18, server/chat.py): never in the log or its hashes
    game TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL CHECK (n >= 1),  -- dense from 1 per game, over both channels
    channel TEXT NOT NULL CHECK (channel IN ('seats', 'spectators')),
    author TEXT NOT NULL,         -- a seat, or 'spectator'
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, n)
);
CREATE INDEX IF NOT EXISTS chat_channel ON chat (game, channel, n);
"""


META_COLUMNS = "id, rules, title, seats, token_hashes, created, head, over"
# Added to games after it was first released (gamebounds): a store older than them gets them at open
# (``MIGRATE_COLUMNS``; the games it already holds are given the time of that open, so none is idle at once).
ACTIVITY_COLUMNS = (("creator", "TEXT"), ("moved", "BIGINT"))
ACTIVITY_INDEX = "CREATE INDEX IF NOT EXISTS games_creator ON games (creator)"


def meta_row(meta: GameMeta, head: int, over: Any) -> tuple:
    """The games row for ``create_game``, in ``META_COLUMNS`` order (``over`` in the back end's type)."""
    return (meta.game_id, meta.rules, meta.title, json.dumps(list(meta.seats)),
            json.dumps(meta.token_hashes, sort_keys=True), meta.created, head, over)


def meta_of(row: Any) -> GameMeta:
    """A games row, selected as ``META_COLUMNS``, as a ``GameMeta``."""
    game_id, rules, title, seats, token_hashes, created, head, over = row
    return GameMeta(game_id, rules, title, tuple(json.loads(seats)), json.loads(token_hashes), created, head, bool(over))


def bot_rows(game_id: str, bots: dict | None) -> list[tuple[str, str, str]]:
    """The bots rows ``(game, seat, policy)`` of a game, by seat (none for no bots)."""
    return [(game_id, seat, policy) for seat, policy in sorted((bots or {}).items())]


def event_rows(game_id: str, events: Sequence[Stored]) -> list[tuple[str, int, str | None, str]]:
    """The events rows ``(game, seq, command_id, envelope)`` of a batch."""
    return [(game_id, event.seq, event.command_id, event.envelope) for event in events]

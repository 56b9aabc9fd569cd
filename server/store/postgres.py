"""The store on PostgreSQL (psycopg 3, async): for several server processes sharing one database.

Same contract as SQLite (``base.py``): one row per event, PRIMARY KEY (game, seq), and an append
that is atomic and optimistic. An append is ONE statement, so one round trip and one implicit
transaction: a conditional ``UPDATE games SET head = last WHERE head = expected`` takes the
game's row lock (a concurrent writer waits, then re-checks its WHERE on the new row and matches
nothing), the events go in only if that row moved, and ``pg_notify`` tells every listening
process ``"<game> <last seq>"`` when the transaction commits (and ``"chat <game> <n>"`` for a chat
message: ``add_chat``). If the row did not move, nothing
was written and the caller gets ``SeqConflict``; a duplicate (game, seq), the last line of
defence, is the same ``SeqConflict``.

Connections: a small pool (``CHRONICLE_PG_POOL``, default 4) of autocommit connections, so
appends of different games run side by side; a connection that broke is replaced on next use.
LISTEN runs on its own connection (``server/notify.py``, built by ``feed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable, Sequence
from typing import Any

import psycopg
from psycopg import errors

from server.store.base import (
    ChatLine,
    GameExists,
    GameMeta,
    SeqConflict,
    Store,
    Stored,
    StoreError,
    UnknownGame,
    check_batch,
)
from server.store.common import META_COLUMNS, bot_rows, meta_of, meta_row, schema

CHANNEL = "chronicle_events"
POOL_SIZE = 4
SCHEMA_LOCK = 0x43_48_52_4F  # "CHRO": an advisory lock so that processes starting together create the schema once

SCHEMA = schema(boolean="boolean", false="false", events_key="PRIMARY KEY")

_INSERT_EVENTS = (
    "INSERT INTO events (game, seq, command_id, envelope)"
    " SELECT %(game)s, e.seq, e.command_id, e.envelope"
    " FROM unnest(%(seqs)s::integer[], %(ids)s::text[], %(envelopes)s::text[]) AS e(seq, command_id, envelope)"
)

_APPEND = f"""
WITH moved AS (
    UPDATE games SET head = %(last)s, over = over OR %(over)s
    WHERE id = %(game)s AND head = %(expected)s
    RETURNING id
), inserted AS (
    INSERT INTO events (game, seq, command_id, envelope)
    SELECT moved.id, e.seq, e.command_id, e.envelope
    FROM moved, unnest(%(seqs)s::integer[], %(ids)s::text[], %(envelopes)s::text[]) AS e(seq, command_id, envelope)
    RETURNING 1
), told AS (
    SELECT pg_notify('{CHANNEL}', %(payload)s) FROM moved
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM inserted), (SELECT count(*) FROM told),
       (SELECT head FROM games WHERE id = %(game)s)
"""

# One statement: the next n of the game, if it exists and has fewer than cap messages, and a
# notification "chat <game> <n>" to the other processes when it commits (server/rooms.py). Two
# processes adding at once may pick the same n: the primary key refuses the second, which retries.
_ADD_CHAT = f"""
WITH added AS (
    INSERT INTO chat (game, n, channel, author, text, at)
    SELECT games.id, coalesce((SELECT max(n) FROM chat WHERE game = %(game)s), 0) + 1,
           %(channel)s, %(author)s, %(text)s, %(at)s
    FROM games WHERE games.id = %(game)s
      AND coalesce((SELECT max(n) FROM chat WHERE game = %(game)s), 0) < %(cap)s
    RETURNING n
), told AS (
    SELECT pg_notify('{CHANNEL}', 'chat ' || %(game)s::text || ' ' || added.n::text) FROM added
)
SELECT added.n, (SELECT count(*) FROM told) FROM added
"""
CHAT_RETRIES = 8


class PostgresStore(Store):
    def __init__(self, url: str, pool_size: int | None = None) -> None:
        self.url = url
        self.pool_size = pool_size or int(os.environ.get("CHRONICLE_PG_POOL") or POOL_SIZE)
        if self.pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, got {self.pool_size}")
        self._idle: asyncio.Queue[psycopg.AsyncConnection | None] | None = None
        self._all: set[psycopg.AsyncConnection] = set()
        self._writing: dict[str, list] = {}  # game -> [lock, users]: this store's appends to one game in order

    def __repr__(self) -> str:
        return f"PostgresStore({safe_url(self.url)!r})"

    # --- plumbing -------------------------------------------------------------------------------

    async def _connect(self) -> psycopg.AsyncConnection:
        try:
            connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        except psycopg.Error as error:
            raise StoreError(f"{safe_url(self.url)}: cannot connect: {error}") from error
        self._all.add(connection)
        return connection

    @contextlib.asynccontextmanager
    async def _connection(self):
        """A pooled connection; one that broke is dropped and reopened lazily by the next user."""
        if self._idle is None:
            raise StoreError(f"{self!r} is not open")
        connection = await self._idle.get()
        try:
            if connection is None or connection.closed:
                if connection is not None:
                    self._all.discard(connection)
                connection = None
                connection = await self._connect()
            yield connection
        except (StoreError, ValueError):
            raise
        except psycopg.OperationalError as error:  # the link is gone: do not hand this one out again
            if connection is not None:
                self._all.discard(connection)
                with contextlib.suppress(Exception):
                    await connection.close()
                connection = None
            raise StoreError(f"{safe_url(self.url)}: {error}") from error
        except psycopg.Error as error:
            raise StoreError(f"{safe_url(self.url)}: {error}") from error
        finally:
            if self._idle is not None:
                self._idle.put_nowait(connection)

    async def open(self) -> None:
        if self._idle is not None:
            return
        first = await self._connect()
        try:
            async with first.transaction():
                await first.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                await first.execute(SCHEMA)
        except psycopg.Error as error:
            await first.close()
            self._all.discard(first)
            raise StoreError(f"{safe_url(self.url)}: cannot create the schema: {error}") from error
        self._idle = asyncio.Queue()
        self._idle.put_nowait(first)
        for _ in range(self.pool_size - 1):
            try:
                self._idle.put_nowait(await self._connect())
            except StoreError:
                self._idle.put_nowait(None)  # opened on first use

    async def close(self) -> None:
        if self._idle is None:
            return
        self._idle = None
        for connection in list(self._all):
            with contextlib.suppress(Exception):
                await connection.close()
        self._all.clear()

    async def ping(self) -> None:
        """One round trip, for /healthz; raises StoreError."""
        async with self._connection() as db:
            await db.execute("SELECT 1")

    def feed(self, on_event: Callable[[str, int], Any], on_gap: Callable[[], Any]):
        """A LISTEN connection for this database (not started): see ``server/notify.py``."""
        from server.notify import Feed

        return Feed(self.url, CHANNEL, on_event, on_gap)

    # --- the contract ---------------------------------------------------------------------------

    async def create_game(
        self, meta: GameMeta, first: Sequence[Stored], *, over: bool = False, secret: str | None = None,
        bots: dict | None = None,
    ) -> None:
        check_batch(0, first)
        async with self._connection() as db:
            try:
                async with db.transaction():
                    await db.execute(
                        f"INSERT INTO games ({META_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                        meta_row(meta, len(first), over),
                    )
                    await db.execute(_INSERT_EVENTS, _rows(meta.game_id, first))
                    await _keep_secret(db, meta.game_id, secret)
                    await _keep_bots(db, meta.game_id, bots)
            except errors.UniqueViolation as error:
                raise GameExists(f"game {meta.game_id!r} already exists") from error

    async def append(self, game_id: str, expected_seq: int, events: Sequence[Stored], *, over: bool = False) -> None:
        check_batch(expected_seq, events)
        params = _rows(game_id, events)
        params.update(last=events[-1].seq, over=over, expected=expected_seq, payload=f"{game_id} {events[-1].seq}")
        # Appends to one game from this store go in the order they were asked for (as on SQLite),
        # whichever pooled connection each one gets; other processes race them, and the head decides.
        entry = self._writing.setdefault(game_id, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            async with entry[0], self._connection() as db:
                try:
                    cursor = await db.execute(_APPEND, params)
                except errors.UniqueViolation as error:  # the head said free, the rows say taken
                    raise SeqConflict(game_id, expected_seq) from error
                moved, inserted, _told, head = await cursor.fetchone()
        finally:
            entry[1] -= 1
            if not entry[1]:
                del self._writing[game_id]
        if moved:
            if inserted != len(events):  # cannot happen inside one statement; say so loudly if it does
                raise StoreError(f"game {game_id}: appended {inserted} of {len(events)} events")
            return
        if head is None:
            raise UnknownGame(game_id)
        raise SeqConflict(game_id, expected_seq, head)

    async def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Stored]:
        async with self._connection() as db:
            cursor = await db.execute(
                "SELECT seq, command_id, envelope FROM events WHERE game = %s AND seq > %s AND seq <= %s ORDER BY seq",
                (game_id, after_seq, upto_seq if upto_seq is not None else 2**31 - 1),
            )
            rows = await cursor.fetchall()
            if not rows:  # events exist only for a game that exists (foreign key): ask only when none came back
                cursor = await db.execute("SELECT 1 FROM games WHERE id = %s", (game_id,))
                if await cursor.fetchone() is None:
                    raise UnknownGame(game_id)
        return [Stored(seq, command_id, envelope) for seq, command_id, envelope in rows]

    async def get_game(self, game_id: str) -> GameMeta:
        async with self._connection() as db:
            cursor = await db.execute(f"SELECT {META_COLUMNS} FROM games WHERE id = %s", (game_id,))
            row = await cursor.fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return meta_of(row)

    async def list_games(self, limit: int | None = None, after: str | None = None) -> list[GameMeta]:
        async with self._connection() as db:
            where, params = "", ()
            if after is not None:
                cursor = await db.execute("SELECT created FROM games WHERE id = %s", (after,))
                row = await cursor.fetchone()
                if row is None:
                    raise UnknownGame(after)
                where, params = " WHERE created < %s OR (created = %s AND id > %s)", (row[0], row[0], after)
            cursor = await db.execute(f"SELECT {META_COLUMNS} FROM games{where} ORDER BY created DESC, id LIMIT %s",
                                      (*params, limit))
            rows = await cursor.fetchall()
        return [meta_of(row) for row in rows]

    async def put_snapshot(self, game_id: str, seq: int, state: str) -> None:
        async with self._connection() as db:
            try:
                await db.execute("INSERT INTO snapshots (game, seq, state) VALUES (%s, %s, %s)"
                                 " ON CONFLICT (game, seq) DO UPDATE SET state = excluded.state", (game_id, seq, state))
            except errors.ForeignKeyViolation as error:
                raise UnknownGame(game_id) from error

    async def get_snapshot(self, game_id: str, upto_seq: int) -> tuple[int, str] | None:
        async with self._connection() as db:
            cursor = await db.execute("SELECT seq, state FROM snapshots WHERE game = %s AND seq <= %s"
                                      " ORDER BY seq DESC LIMIT 1", (game_id, upto_seq))
            row = await cursor.fetchone()
        return None if row is None else (row[0], row[1])

    async def count_open_games(self) -> int:
        async with self._connection() as db:
            cursor = await db.execute("SELECT count(*) FROM games WHERE NOT over")
            return (await cursor.fetchone())[0]


    async def secret(self, game_id: str) -> str | None:
        async with self._connection() as db:
            cursor = await db.execute(
                "SELECT games.id, secrets.secret FROM games LEFT JOIN secrets ON secrets.game = games.id"
                " WHERE games.id = %s", (game_id,),
            )
            row = await cursor.fetchone()
        if row is None:
            raise UnknownGame(game_id)
        return row[1]


    async def bots(self, game_id: str) -> dict:
        async with self._connection() as db:
            cursor = await db.execute(
                "SELECT games.id, bots.seat, bots.policy FROM games LEFT JOIN bots ON bots.game = games.id"
                " WHERE games.id = %s ORDER BY bots.seat", (game_id,),
            )
            rows = await cursor.fetchall()
        if not rows:
            raise UnknownGame(game_id)
        return {seat: policy for _game, seat, policy in rows if seat is not None}

    async def add_chat(self, game_id: str, channel: str, author: str, text: str, at: str, *,
                       cap: int) -> ChatLine | None:
        params = {"game": game_id, "channel": channel, "author": author, "text": text, "at": at, "cap": cap}
        for _attempt in range(CHAT_RETRIES):
            async with self._connection() as db:
                try:
                    cursor = await db.execute(_ADD_CHAT, params)
                except errors.UniqueViolation:
                    continue  # another process took this n first: count again
                row = await cursor.fetchone()
                if row is not None:
                    return ChatLine(game_id, row[0], channel, author, text, at)
                cursor = await db.execute("SELECT 1 FROM games WHERE id = %s", (game_id,))
                if await cursor.fetchone() is None:
                    raise UnknownGame(game_id)
                return None
        raise StoreError(f"game {game_id}: chat message not kept after {CHAT_RETRIES} clashes with other writers")

    async def read_chat(self, game_id: str, channel: str, limit: int) -> list[ChatLine]:
        async with self._connection() as db:
            cursor = await db.execute(
                "SELECT games.id, chat.n, chat.channel, chat.author, chat.text, chat.at FROM games"
                " LEFT JOIN LATERAL (SELECT * FROM chat WHERE chat.game = games.id AND chat.channel = %s"
                " ORDER BY n DESC LIMIT %s) chat ON true WHERE games.id = %s", (channel, limit, game_id))
            rows = await cursor.fetchall()
        if not rows:
            raise UnknownGame(game_id)
        return sorted((ChatLine(game_id, n, channel_, author, text, at) for _g, n, channel_, author, text, at in rows
                       if n is not None), key=lambda line: line.n)

    async def chat_line(self, game_id: str, n: int) -> ChatLine | None:
        async with self._connection() as db:
            cursor = await db.execute("SELECT n, channel, author, text, at FROM chat WHERE game = %s AND n = %s",
                                      (game_id, n))
            row = await cursor.fetchone()
        return None if row is None else ChatLine(game_id, *row)


async def _keep_bots(db: psycopg.AsyncConnection, game_id: str, bots: dict | None) -> None:
    if bots:
        async with db.cursor() as cursor:
            await cursor.executemany("INSERT INTO bots (game, seat, policy) VALUES (%s, %s, %s)",
                                     bot_rows(game_id, bots))


async def _keep_secret(db: psycopg.AsyncConnection, game_id: str, secret: str | None) -> None:
    if secret is not None:
        await db.execute("INSERT INTO secrets (game, secret) VALUES (%s, %s)", (game_id, secret))


def _rows(game_id: str, events: Sequence[Stored]) -> dict:
    return {"game": game_id, "seqs": [e.seq for e in events], "ids": [e.command_id for e in events],
            "envelopes": [e.envelope for e in events]}


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        credentials, _, host = rest.rpartition("@")
        user = credentials.split(":", 1)[0]
        return f"{scheme}{sep}{user}@{host}"
    return url

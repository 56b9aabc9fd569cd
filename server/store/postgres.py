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

Group commit (issue 16; ``CHRONICLE_GROUP_COMMIT=0`` or ``group_commit=False`` switches it off):
the appends of different games that arrive while one is being committed go together in the next
statement (``_APPEND_GROUP``: the same conditional UPDATE, INSERT and NOTIFY over arrays, at most
``MAX_GROUP`` games and one append per game in it), so one round trip and one WAL flush serve
them all. Each game's head is checked on its own row: a stale one moves nothing and only its
append gets ``SeqConflict``; the others are written. The rows are locked in id order, so two
processes' groups never deadlock. If the statement fails, nothing of it is kept and every append
in it gets ``StoreError`` (a duplicate (game, seq) instead replays the group one append at a
time, so that only the guilty one fails). One group is in flight at a time per store; the
appends to one game go in the order they were asked for.

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
from server.store.common import (
    ACTIVITY_COLUMNS,
    ACTIVITY_INDEX,
    MAX_GROUP,
    META_COLUMNS,
    CommitCounts,
    bot_rows,
    group_commit_from_env,
    meta_of,
    meta_row,
    schema,
)

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
    UPDATE games SET head = %(last)s, over = over OR %(over)s, moved = %(moved)s
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

# Group commit: _APPEND for many games in one statement, one row back per game of the group:
# (game, moved 0/1, events inserted, head before). ``locked`` takes the games' row locks in id
# order before any is updated (two groups of two processes never wait on each other in a cycle);
# the UPDATE's own ``head = expected`` is then checked against the newest committed row.
_APPEND_GROUP = f"""
WITH batch AS (
    SELECT * FROM unnest(%(games)s::text[], %(expected)s::integer[], %(last)s::integer[], %(over)s::boolean[])
        AS b(game, expected, last, over)
), locked AS (
    SELECT games.id FROM games JOIN batch ON batch.game = games.id ORDER BY games.id FOR UPDATE OF games
), moved AS (
    UPDATE games SET head = batch.last, over = games.over OR batch.over, moved = %(moved)s
    FROM locked JOIN batch ON batch.game = locked.id
    WHERE games.id = locked.id AND games.head = batch.expected
    RETURNING games.id, batch.last
), inserted AS (
    INSERT INTO events (game, seq, command_id, envelope)
    SELECT moved.id, e.seq, e.command_id, e.envelope
    FROM unnest(%(event_games)s::text[], %(seqs)s::integer[], %(ids)s::text[], %(envelopes)s::text[])
        AS e(game, seq, command_id, envelope)
    JOIN moved ON moved.id = e.game
    RETURNING game
), told AS (
    SELECT pg_notify('{CHANNEL}', moved.id || ' ' || moved.last::text) FROM moved
)
SELECT batch.game,
       (SELECT count(*) FROM moved WHERE moved.id = batch.game),
       (SELECT count(*) FROM inserted WHERE inserted.game = batch.game),
       (SELECT head FROM games WHERE games.id = batch.game),
       (SELECT count(*) FROM told)
FROM batch
"""

# One statement: the next n of the game, if it exists and its channel has fewer than cap messages, and a
# notification "chat <game> <n>" to the other processes when it commits (server/rooms.py). Two
# processes adding at once may pick the same n: the primary key refuses the second, which retries.
_ADD_CHAT = f"""
WITH added AS (
    INSERT INTO chat (game, n, channel, author, text, at)
    SELECT games.id, coalesce((SELECT max(n) FROM chat WHERE game = %(game)s), 0) + 1,
           %(channel)s, %(author)s, %(text)s, %(at)s
    FROM games WHERE games.id = %(game)s
      AND (SELECT count(*) FROM chat WHERE game = %(game)s AND channel = %(channel)s) < %(cap)s
    RETURNING n
), told AS (
    SELECT pg_notify('{CHANNEL}', 'chat ' || %(game)s::text || ' ' || added.n::text) FROM added
)
SELECT added.n, (SELECT count(*) FROM told) FROM added
"""
CHAT_RETRIES = 8


class _Append:
    """One append waiting for the next group: what to write, and its caller's future."""

    __slots__ = ("game_id", "expected", "events", "over", "done")

    def __init__(self, game_id: str, expected: int, events: list[Stored], over: bool, done: asyncio.Future) -> None:
        self.game_id = game_id
        self.expected = expected
        self.events = events
        self.over = over
        self.done = done


class PostgresStore(Store):
    def __init__(self, url: str, pool_size: int | None = None, group_commit: bool | None = None) -> None:
        self.url = url
        self.pool_size = pool_size or int(os.environ.get("CHRONICLE_PG_POOL") or POOL_SIZE)
        if self.pool_size < 1:
            raise ValueError(f"pool_size must be at least 1, got {self.pool_size}")
        self._idle: asyncio.Queue[psycopg.AsyncConnection | None] | None = None
        self._all: set[psycopg.AsyncConnection] = set()
        self._writing: dict[str, list] = {}  # game -> [lock, users]: this store's appends to one game in order
        self.group_commit = group_commit_from_env() if group_commit is None else group_commit
        self.commits = CommitCounts()
        self._pending: list[_Append] = []  # appends waiting for the next group commit
        self._flushing: asyncio.Future | None = None

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
                # A database made before games had its activity columns gets them, its games moved now.
                for name, kind in ACTIVITY_COLUMNS:
                    await first.execute(f"ALTER TABLE games ADD COLUMN IF NOT EXISTS {name} {kind}")
                await first.execute("UPDATE games SET moved = %s WHERE moved IS NULL", (int(self.clock()),))
                await first.execute(ACTIVITY_INDEX)
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
        if self._flushing is not None:
            await asyncio.shield(self._flushing)
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
        bots: dict | None = None, creator: str | None = None,
    ) -> None:
        check_batch(0, first)
        async with self._connection() as db:
            try:
                async with db.transaction():
                    await db.execute(
                        f"INSERT INTO games ({META_COLUMNS}, creator, moved)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        (*meta_row(meta, len(first), over), creator, int(self.clock())),
                    )
                    await db.execute(_INSERT_EVENTS, _rows(meta.game_id, first))
                    await _keep_secret(db, meta.game_id, secret)
                    await _keep_bots(db, meta.game_id, bots)
            except errors.UniqueViolation as error:
                raise GameExists(f"game {meta.game_id!r} already exists") from error

    async def append(self, game_id: str, expected_seq: int, events: Sequence[Stored], *, over: bool = False) -> None:
        check_batch(expected_seq, events)
        if self._idle is None:
            raise StoreError(f"{self!r} is not open")
        if not self.group_commit:
            self.commits.add(1)
            return await self._append_alone(game_id, expected_seq, events, over)
        done = asyncio.get_running_loop().create_future()
        self._pending.append(_Append(game_id, expected_seq, list(events), over, done))
        if self._flushing is None:
            self._flushing = asyncio.ensure_future(self._flush())
        await done

    async def _append_alone(self, game_id: str, expected_seq: int, events: Sequence[Stored], over: bool) -> None:
        """One append, one statement, one transaction (group commit off, or a group replayed)."""
        params = _rows(game_id, events)
        params.update(last=events[-1].seq, over=over, expected=expected_seq, payload=f"{game_id} {events[-1].seq}",
                      moved=int(self.clock()))
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
        _outcome(game_id, expected_seq, len(events), moved, inserted, head, raise_it=True)

    async def _flush(self) -> None:
        """Group commit: the appends waiting while the last group was committed go in the next one
        (the first append of each game; a game's later ones wait for a later group, in order)."""
        try:
            while self._pending:
                group: list[_Append] = []
                later: list[_Append] = []
                games: set[str] = set()
                for one in self._pending:
                    if one.game_id in games or len(group) >= MAX_GROUP:
                        later.append(one)
                    else:
                        games.add(one.game_id)
                        group.append(one)
                self._pending = later
                self.commits.add(len(group))
                try:
                    outcomes = await self._commit_group(group)
                except Exception as error:  # StoreError, or anything else: nobody is left hanging
                    outcomes = [_failure(self.url, error) for _ in group]  # one exception per caller
                for one, outcome in zip(group, outcomes):
                    if one.done.done():  # its caller was cancelled: the outcome has nobody to go to
                        continue
                    if outcome is None:
                        one.done.set_result(None)
                    else:
                        one.done.set_exception(outcome)
        finally:
            self._flushing = None

    async def _commit_group(self, group: list[_Append]) -> list[StoreError | None]:
        """One statement for the whole group; the outcome of each append (None: stored)."""
        params: dict[str, Any] = {"games": [], "expected": [], "last": [], "over": [],
                                  "event_games": [], "seqs": [], "ids": [], "envelopes": [],
                                  "moved": int(self.clock())}
        for one in group:
            params["games"].append(one.game_id)
            params["expected"].append(one.expected)
            params["last"].append(one.events[-1].seq)
            params["over"].append(one.over)
            for event in one.events:
                params["event_games"].append(one.game_id)
                params["seqs"].append(event.seq)
                params["ids"].append(event.command_id)
                params["envelopes"].append(event.envelope)
        try:
            async with self._connection() as db:
                cursor = await db.execute(_APPEND_GROUP, params)
                rows = {row[0]: row[1:4] for row in await cursor.fetchall()}
        except StoreError as error:
            if not isinstance(error.__cause__, errors.UniqueViolation):
                raise
            # Rows beyond a head (the last line of defence): nothing of the group was written;
            # replay it one append at a time, so that only the append they clash with fails.
            return list(await asyncio.gather(*(self._alone_outcome(one) for one in group)))
        return [_outcome(one.game_id, one.expected, len(one.events), *rows[one.game_id]) for one in group]

    async def _alone_outcome(self, one: _Append) -> StoreError | None:
        try:
            await self._append_alone(one.game_id, one.expected, one.events, one.over)
        except StoreError as error:
            return error
        return None

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

    async def count_open_games(self, *, moved_since: int = 0, creator: str | None = None) -> int:
        async with self._connection() as db:
            if creator is None:
                cursor = await db.execute("SELECT count(*) FROM games WHERE NOT over AND moved >= %s", (moved_since,))
            else:
                cursor = await db.execute("SELECT count(*) FROM games WHERE creator = %s AND NOT over AND moved >= %s",
                                          (creator, moved_since))
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


def _outcome(game_id: str, expected_seq: int, count: int, moved: int, inserted: int, head: int | None, *,
             raise_it: bool = False) -> StoreError | None:
    """What one append's row of the statement says: None (stored) or the error for its caller."""
    outcome: StoreError | None = None
    if moved:
        if inserted != count:  # cannot happen inside one statement; say so loudly if it does
            outcome = StoreError(f"game {game_id}: appended {inserted} of {count} events")
    elif head is None:
        outcome = UnknownGame(game_id)
    else:
        outcome = SeqConflict(game_id, expected_seq, head)
    if raise_it and outcome is not None:
        raise outcome
    return outcome


def _failure(url: str, error: Exception) -> StoreError:
    failure = StoreError(str(error) if isinstance(error, StoreError) else f"{safe_url(url)}: {error}")
    failure.__cause__ = error.__cause__ if isinstance(error, StoreError) and error.__cause__ else error
    return failure


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

"""The default store: one SQLite file, WAL mode, one row per event, UNIQUE (game, seq).

Durability: ``synchronous=FULL``. In WAL mode NORMAL already survives a killed process (the WAL
is in the OS's hands once a transaction commits), but only FULL also survives a power cut, and
on this kind of machine it costs ~0.17 ms per commit against ~0.04 ms: cheap next to a
WebSocket round trip, so we take it. ``CHRONICLE_SQLITE_SYNC=NORMAL`` trades it away.

Threading: two connections. The reader's is used from a dedicated thread (a single-worker
executor) for every read (``PRAGMA query_only``): in WAL mode a reader never waits for the writer
nor the writer for a reader, so a catch-up reading a long log does not hold up every game's commit
behind it, and a read begun after a write returned sees it. The writer's runs every write, one at
a time (``_writing``), **on the event loop's thread** while writes are quick: on this machine's
disk a commit with its fsync takes ~0.3 ms (p99 ~0.8–1.7 ms), and handing it to a thread and its
outcome back cost the server more CPU and each command more latency than that (issue 16,
docs/performance.md, "Writes on the loop's thread"). The writer's own thread takes the writes over
for a spell (``FIRST_SPELL_S``, kept going by slow writes there, doubled each time the loop's next
try is slow again) after a write slower than ``SLOW_WRITE_S``, and whenever another connection
holds the file's write lock: the loop's connection waits for no lock (``busy_timeout`` 0), so
``BEGIN IMMEDIATE`` fails at once, having written nothing, and the thread makes the write again,
waiting up to ``BUSY_TIMEOUT_MS``. Quick
writes in a row that do not yield (several snapshots) let the loop run once they have held it
``SLOW_WRITE_S``. What this cannot do: a write that hangs (a network disk whose server is gone)
holds the loop until it returns, and on storage whose commits take a few milliseconds each the
loop spends that long on every commit; there, ``CHRONICLE_SQLITE_LOOP_WRITES=0`` (or
``write_on_loop=False``) keeps every write in the thread, as before. Appends are group-committed
(issue 16): those of any games that arrive while a commit is running share the next transaction
(at most ``MAX_GROUP``; one savepoint each, so a ``SeqConflict`` rolls back only its own append),
and one fsync serves them all; a transaction that fails (its COMMIT included) fails every append
in it with ``StoreError`` and keeps none. ``CHRONICLE_GROUP_COMMIT=0`` (or ``group_commit=False``)
gives each append its own transaction and fsync. ``BEGIN IMMEDIATE`` takes the write lock before
the head is read, so even several processes on one file append safely; the primary key
(game, seq) is the last line of defence, and its IntegrityError is a SeqConflict like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

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
    event_rows,
    group_commit_from_env,
    meta_of,
    meta_row,
    schema,
)
from server.switches import switch_from_env

T = TypeVar("T")

SCHEMA = schema(boolean="INTEGER", false="0", events_key="UNIQUE")
SYNC_MODES = ("FULL", "NORMAL", "EXTRA")
BUSY_TIMEOUT_MS = 5000  # how long a write in the writer's thread, or a read, waits for another connection's lock
LOOP_WRITES_VARIABLE = "CHRONICLE_SQLITE_LOOP_WRITES"
SLOW_WRITE_S = 0.01  # a write on the loop's thread longer than this sends the writes to the thread ...
FIRST_SPELL_S = 1.0  # ... for this long (longer while they stay slow there), then the loop's thread tries again;
LONGEST_SPELL_S = 300.0  # a try that is slow again doubles the spell, up to this; a quick one starts over

log = logging.getLogger("chronicle.store")


class SqliteStore(Store):
    def __init__(self, path: str | os.PathLike, synchronous: str | None = None,
                 group_commit: bool | None = None, write_on_loop: bool | None = None) -> None:
        self.path = os.fspath(path)
        sync = (synchronous or os.environ.get("CHRONICLE_SQLITE_SYNC") or "FULL").upper()
        if sync not in SYNC_MODES:
            raise ValueError(f"synchronous must be one of {', '.join(SYNC_MODES)}, got {sync!r}")
        self.synchronous = sync
        self.group_commit = group_commit_from_env() if group_commit is None else group_commit
        self.write_on_loop = switch_from_env(LOOP_WRITES_VARIABLE) if write_on_loop is None else write_on_loop
        self.commits = CommitCounts()
        self.thread_writes = 0  # writes made in the writer's thread (all of them without write_on_loop)
        self._thread_until = 0.0  # time.monotonic() until which writes go to the writer's thread
        self._spell_s = FIRST_SPELL_S  # how long the next spell in the thread lasts
        self._spell_now = FIRST_SPELL_S  # how long the last one was (a slow write in the thread renews it)
        self._held, self._held_counting = 0.0, False  # the loop's time in writes since it last ran anything else
        self._writing = asyncio.Lock()  # one write at a time on the writer's connection, whichever thread
        self._db: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._reader_db: sqlite3.Connection | None = None  # reads only, in their own thread
        self._reader: ThreadPoolExecutor | None = None
        self._pending: list = []  # appends waiting for the next group commit
        self._flushing: asyncio.Future | None = None

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"

    # --- plumbing -------------------------------------------------------------------------------

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the writer's connection (``_write``), its sqlite3 errors as StoreError."""
        try:
            return await self._write(work)
        except (StoreError, ValueError):
            raise
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: {error}") from error

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the writer's connection: on the loop's thread while writes are quick
        and the file's write lock is free, else in the writer's thread (the module's docstring)."""
        async with self._writing:
            if self.write_on_loop and time.monotonic() >= self._thread_until:
                if self._held > SLOW_WRITE_S:  # quick writes in a row, none yielding: let the loop run first
                    await asyncio.sleep(0)
                db = self._writer()  # after the yield: a close may have come meanwhile
                why = None
                started = time.perf_counter()
                try:
                    return work(db)
                except sqlite3.OperationalError as error:
                    if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:  # BUSY, BUSY_RECOVERY, ...
                        raise
                    # Another connection holds the write lock: BEGIN IMMEDIATE failed having written
                    # nothing (a lock lost later rolls its transaction back), so the thread makes it again.
                    why = "the file's write lock is held by another connection"
                finally:
                    elapsed = time.perf_counter() - started
                    self._hold(elapsed)
                    if why is None and elapsed > SLOW_WRITE_S:
                        why = f"a write took {elapsed * 1000:.0f} ms on the event loop's thread"
                    if why is not None:
                        self._to_thread(why)
                    else:
                        self._spell_s = FIRST_SPELL_S  # quick on the loop: a later slow write is a new story
            return await self._in_thread(work)

    def _writer(self) -> sqlite3.Connection:
        if self._thread is None or self._db is None:
            raise StoreError(f"{self!r} is not open")
        return self._db

    def _hold(self, seconds: float) -> None:
        """Count the loop's time spent writing until the loop next runs something else (``_held``)."""
        self._held += seconds
        if not self._held_counting:
            self._held_counting = True
            asyncio.get_running_loop().call_soon(self._let_go)

    def _let_go(self) -> None:
        self._held, self._held_counting = 0.0, False

    def _to_thread(self, why: str) -> None:
        """Writes to the thread for a spell: ``FIRST_SPELL_S``, doubled (up to ``LONGEST_SPELL_S``) each
        time the loop's first write after a spell is slow again, so that a disk slow now and then costs
        the loop one write now and then, and a disk slow for good one write every few minutes."""
        say = log.info if self._spell_s == FIRST_SPELL_S else log.warning  # once is a hiccup; again, the disk
        say("%s: %s; writes go to the store's thread for %g s", self.path, why, self._spell_s)
        self._spell_now = self._spell_s
        self._thread_until = time.monotonic() + self._spell_now
        self._spell_s = min(2 * self._spell_s, LONGEST_SPELL_S)

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` in the writer's thread. Its caller may be cancelled, not the work: the connection
        stays this write's (``_writing`` held) until the thread is done with it."""
        db = self._writer()
        self.thread_writes += 1
        job = _patiently if self.write_on_loop else _at_once  # the loop's connection waits for no lock; here it may
        done = asyncio.get_running_loop().run_in_executor(self._thread, _timed, job, work, db)
        try:
            result, seconds = await asyncio.shield(done)
        except asyncio.CancelledError:
            while not done.done():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.wait((done,))
            raise
        if seconds > SLOW_WRITE_S and self.write_on_loop:  # timed in the thread: still slow, the spell goes on
            self._thread_until = max(self._thread_until, time.monotonic() + self._spell_now)
        return result

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` in the reader's thread, on the read-only connection."""
        return await self._on(self._reader, self._reader_db, work)

    async def _on(self, thread: ThreadPoolExecutor | None, db: sqlite3.Connection | None,
                  work: Callable[[sqlite3.Connection], T]) -> T:
        if thread is None or db is None:
            raise StoreError(f"{self!r} is not open")
        try:
            return await asyncio.get_running_loop().run_in_executor(thread, work, db)
        except (StoreError, ValueError):
            raise
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: {error}") from error

    async def open(self) -> None:
        if self._thread is not None:
            return
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store-read")
        loop = asyncio.get_running_loop()
        try:
            self._db = await loop.run_in_executor(self._thread, self._connect)
            self._reader_db = await loop.run_in_executor(self._reader, self._connect_reader)
        except sqlite3.Error as error:
            for thread, db in ((self._thread, self._db), (self._reader, self._reader_db)):
                if db is not None:
                    thread.submit(db.close).result()
                thread.shutdown(wait=False)
            self._thread = self._reader = self._db = self._reader_db = None
            raise StoreError(f"{self.path}: cannot open: {error}") from error

    def _connect(self) -> sqlite3.Connection:
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, exist_ok=True)
        # isolation_level=None: we write BEGIN/COMMIT ourselves; check_same_thread off because the
        # loop's thread and the writer's both use it, never at once (``_writing``).
        db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={self.synchronous}")
        db.execute("PRAGMA foreign_keys=ON")
        db.executescript(SCHEMA)
        self._migrate(db)
        if self.write_on_loop:
            db.execute("PRAGMA busy_timeout=0")  # on the loop's thread, a held lock fails at once (``_write``)
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        """A file made before ``games`` had its activity columns gets them, its games moved now (gamebounds).

        Checked again inside the write lock, so two processes opening one old file add them once."""
        if {name for _cid, name, *_ in db.execute("PRAGMA table_info(games)")} >= {n for n, _ in ACTIVITY_COLUMNS}:
            db.execute(ACTIVITY_INDEX)
            return
        with _transaction(db):
            known = {name for _cid, name, *_ in db.execute("PRAGMA table_info(games)")}
            for name, kind in ACTIVITY_COLUMNS:
                if name not in known:
                    db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
            db.execute("UPDATE games SET moved = ? WHERE moved IS NULL", (int(self.clock()),))
            db.execute(ACTIVITY_INDEX)

    def _connect_reader(self) -> sqlite3.Connection:
        """After ``_connect``: the file exists, in WAL mode (kept in the file), with its schema."""
        db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        db.execute("PRAGMA query_only=ON")
        return db

    async def close(self) -> None:
        if self._thread is None:
            return
        if self._flushing is not None:
            await self._flushing
        loop = asyncio.get_running_loop()
        pairs = ((self._thread, self._db), (self._reader, self._reader_db))
        self._thread = self._reader = self._db = self._reader_db = None
        for thread, db in pairs:
            if thread is None:
                continue
            if db is not None:
                await loop.run_in_executor(thread, db.close)
            thread.shutdown(wait=True)

    # --- the contract ---------------------------------------------------------------------------

    async def create_game(
        self, meta: GameMeta, first: Sequence[Stored], *, over: bool = False, secret: str | None = None,
        bots: dict | None = None, creator: str | None = None,
    ) -> None:
        check_batch(0, first)
        moved = int(self.clock())

        def work(db: sqlite3.Connection) -> None:
            with _transaction(db):
                try:
                    db.execute(
                        f"INSERT INTO games ({META_COLUMNS}, creator, moved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (*meta_row(meta, len(first), int(over)), creator, moved),
                    )
                except sqlite3.IntegrityError as error:
                    raise GameExists(f"game {meta.game_id!r} already exists") from error
                _insert(db, meta.game_id, first)
                _keep_secret(db, meta.game_id, secret)
                _keep_bots(db, meta.game_id, bots)

        await self._run(work)

    async def append(self, game_id: str, expected_seq: int, events: Sequence[Stored], *, over: bool = False) -> None:
        check_batch(expected_seq, events)
        if self._thread is None or self._db is None:
            raise StoreError(f"{self!r} is not open")
        one = (game_id, expected_seq, list(events), over, int(self.clock()))
        if not self.group_commit:
            self.commits.add(1)
            outcome = (await self._run(lambda db: _commit_appends(db, [one])))[0]
            if outcome is not None:
                raise outcome
            return
        done = asyncio.get_running_loop().create_future()
        self._pending.append((*one, done))
        if self._flushing is None:
            self._flushing = asyncio.ensure_future(self._flush())
        await done

    async def _flush(self) -> None:
        """Group commit: the appends waiting while the last commit ran go in the next transaction.

        One fsync then serves many games; each append keeps its own atomicity through a savepoint,
        so a conflict in one rolls back only that one. The commit runs where ``_write`` puts it (on the
        loop's thread, the appends of one turn of the loop together; else in the store's thread, the
        appends that arrived meanwhile together), then each caller is woken with its own outcome.
        """
        try:
            while self._pending:
                batch, self._pending = self._pending[:MAX_GROUP], self._pending[MAX_GROUP:]
                self.commits.add(len(batch))
                try:
                    outcomes = await self._write(lambda db, batch=batch: _commit_appends(db, batch))
                except Exception as error:  # sqlite3.Error, or the executor is gone (closed meanwhile)
                    outcomes = [_failed(self.path, error) for _ in batch]  # one exception per caller
                for (*_, done), outcome in zip(batch, outcomes):
                    if done.done():  # its caller was cancelled: the outcome has nobody to go to
                        continue
                    if outcome is None:
                        done.set_result(None)
                    else:
                        done.set_exception(outcome)
        finally:
            self._flushing = None

    async def read(self, game_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[Stored]:
        def work(db: sqlite3.Connection) -> list[Stored]:
            # One read transaction, so the existence check and the rows see the same snapshot.
            with _transaction(db, "BEGIN"):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                rows = db.execute(
                    "SELECT seq, command_id, envelope FROM events WHERE game = ? AND seq > ? AND seq <= ?"
                    " ORDER BY seq",
                    (game_id, after_seq, upto_seq if upto_seq is not None else 2**62),
                ).fetchall()
            return [Stored(seq, command_id, envelope) for seq, command_id, envelope in rows]

        return await self._read(work)

    async def get_game(self, game_id: str) -> GameMeta:
        def work(db: sqlite3.Connection) -> GameMeta:
            row = db.execute(f"SELECT {META_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id)
            return meta_of(row)

        return await self._read(work)

    async def list_games(self, limit: int | None = None, after: str | None = None) -> list[GameMeta]:
        def work(db: sqlite3.Connection) -> list[GameMeta]:
            with _transaction(db, "BEGIN"):
                where, params = "", ()
                if after is not None:
                    row = db.execute("SELECT created FROM games WHERE id = ?", (after,)).fetchone()
                    if row is None:
                        raise UnknownGame(after)
                    where, params = " WHERE created < ? OR (created = ? AND id > ?)", (row[0], row[0], after)
                rows = db.execute(f"SELECT {META_COLUMNS} FROM games{where} ORDER BY created DESC, id LIMIT ?",
                                  (*params, -1 if limit is None else limit)).fetchall()
            return [meta_of(row) for row in rows]

        return await self._read(work)

    async def put_snapshot(self, game_id: str, seq: int, state: str) -> None:
        def work(db: sqlite3.Connection) -> None:
            with _transaction(db):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                db.execute("INSERT OR REPLACE INTO snapshots (game, seq, state) VALUES (?, ?, ?)", (game_id, seq, state))

        await self._run(work)

    async def get_snapshot(self, game_id: str, upto_seq: int) -> tuple[int, str] | None:
        def work(db: sqlite3.Connection) -> tuple[int, str] | None:
            row = db.execute("SELECT seq, state FROM snapshots WHERE game = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
                             (game_id, upto_seq)).fetchone()
            return None if row is None else (row[0], row[1])

        return await self._read(work)

    async def count_open_games(self, *, moved_since: int = 0, creator: str | None = None) -> int:
        if creator is None:
            query, params = "SELECT count(*) FROM games WHERE over = 0 AND moved >= ?", (moved_since,)
        else:
            query = "SELECT count(*) FROM games WHERE creator = ? AND over = 0 AND moved >= ?"
            params = (creator, moved_since)
        return await self._read(lambda db: db.execute(query, params).fetchone()[0])


    async def secret(self, game_id: str) -> str | None:
        def work(db: sqlite3.Connection) -> str | None:
            with _transaction(db, "BEGIN"):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                row = db.execute("SELECT secret FROM secrets WHERE game = ?", (game_id,)).fetchone()
            return None if row is None else row[0]

        return await self._read(work)


    async def bots(self, game_id: str) -> dict:
        def work(db: sqlite3.Connection) -> dict:
            with _transaction(db, "BEGIN"):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                rows = db.execute("SELECT seat, policy FROM bots WHERE game = ? ORDER BY seat", (game_id,)).fetchall()
            return dict(rows)

        return await self._read(work)

    async def add_chat(self, game_id: str, channel: str, author: str, text: str, at: str, *,
                       cap: int) -> ChatLine | None:
        def work(db: sqlite3.Connection) -> ChatLine | None:
            # BEGIN IMMEDIATE: the write lock before the count, so two processes never take one n.
            with _transaction(db):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                # The cap is the channel's (one index range, chat_channel): spectators never fill the seats'.
                kept = db.execute("SELECT count(*) FROM chat WHERE game = ? AND channel = ?",
                                  (game_id, channel)).fetchone()[0]
                if kept >= cap:
                    return None
                last = db.execute("SELECT coalesce(max(n), 0) FROM chat WHERE game = ?", (game_id,)).fetchone()[0]
                db.execute("INSERT INTO chat (game, n, channel, author, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, last + 1, channel, author, text, at))
            return ChatLine(game_id, last + 1, channel, author, text, at)

        return await self._run(work)

    async def read_chat(self, game_id: str, channel: str, limit: int) -> list[ChatLine]:
        def work(db: sqlite3.Connection) -> list[ChatLine]:
            with _transaction(db, "BEGIN"):
                if db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                    raise UnknownGame(game_id)
                rows = db.execute("SELECT n, channel, author, text, at FROM chat WHERE game = ? AND channel = ?"
                                  " ORDER BY n DESC LIMIT ?", (game_id, channel, limit)).fetchall()
            return [ChatLine(game_id, *row) for row in reversed(rows)]

        return await self._read(work)

    async def chat_line(self, game_id: str, n: int) -> ChatLine | None:
        def work(db: sqlite3.Connection) -> ChatLine | None:
            row = db.execute("SELECT n, channel, author, text, at FROM chat WHERE game = ? AND n = ?",
                             (game_id, n)).fetchone()
            return None if row is None else ChatLine(game_id, *row)

        return await self._read(work)


def _at_once(work: Callable[[sqlite3.Connection], T], db: sqlite3.Connection) -> T:
    return work(db)


def _timed(job: Callable, work: Callable[[sqlite3.Connection], T], db: sqlite3.Connection) -> tuple[T, float]:
    """In the writer's thread: ``job(work, db)`` and how long it took there (not the loop's wait to hear of it)."""
    started = time.perf_counter()
    result = job(work, db)
    return result, time.perf_counter() - started


def _patiently(work: Callable[[sqlite3.Connection], T], db: sqlite3.Connection) -> T:
    """In the writer's thread: ``work(db)`` waiting up to ``BUSY_TIMEOUT_MS`` for another connection's
    lock, then the connection back to waiting for none, as the loop's thread uses it."""
    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    try:
        return work(db)
    finally:
        db.execute("PRAGMA busy_timeout=0")


def _keep_bots(db: sqlite3.Connection, game_id: str, bots: dict | None) -> None:
    if bots:
        db.executemany("INSERT INTO bots (game, seat, policy) VALUES (?, ?, ?)", bot_rows(game_id, bots))


def _keep_secret(db: sqlite3.Connection, game_id: str, secret: str | None) -> None:
    if secret is not None:
        db.execute("INSERT INTO secrets (game, secret) VALUES (?, ?)", (game_id, secret))


def _commit_appends(db: sqlite3.Connection, batch: list) -> list:
    """In the store's thread: one transaction, one savepoint per append; the outcome of each
    (None: stored). A failure outside one append's own checks (the disk, the COMMIT) raises, and
    the whole transaction is rolled back: nothing of the batch is kept."""
    outcomes: list = []
    with _transaction(db):
        for game_id, expected_seq, events, over, moved, *_done in batch:
            db.execute("SAVEPOINT one_append")
            try:
                _append_one(db, game_id, expected_seq, events, over, moved)
            except (StoreError, sqlite3.IntegrityError) as error:
                db.execute("ROLLBACK TO one_append")
                if isinstance(error, sqlite3.IntegrityError):
                    error = SeqConflict(game_id, expected_seq)
                outcomes.append(error)
            else:
                outcomes.append(None)
            db.execute("RELEASE one_append")
    return outcomes


def _failed(path: str, error: Exception) -> StoreError:
    failure = StoreError(f"{path}: {error}")
    failure.__cause__ = error
    return failure


def _append_one(db: sqlite3.Connection, game_id: str, expected_seq: int, events: list, over: bool,
                moved: int) -> None:
    row = db.execute("SELECT head FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise UnknownGame(game_id)
    if row[0] != expected_seq:
        raise SeqConflict(game_id, expected_seq, row[0])
    _insert(db, game_id, events)
    db.execute("UPDATE games SET head = ?, over = over OR ?, moved = ? WHERE id = ?",
               (events[-1].seq, int(over), moved, game_id))


def _insert(db: sqlite3.Connection, game_id: str, events: Sequence[Stored]) -> None:
    db.executemany(
        "INSERT INTO events (game, seq, command_id, envelope) VALUES (?, ?, ?, ?)", event_rows(game_id, events),
    )


class _transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception: a batch is all or nothing."""

    def __init__(self, db: sqlite3.Connection, begin: str = "BEGIN IMMEDIATE") -> None:
        self.db = db
        self.begin = begin

    def __enter__(self) -> None:
        self.db.execute(self.begin)

    def __exit__(self, kind: Any, error: Any, trace: Any) -> None:
        if kind is not None:
            if self.db.in_transaction:  # SQLite may have rolled back already (SQLITE_FULL, an I/O error)
                self.db.execute("ROLLBACK")
            return
        try:
            self.db.execute("COMMIT")
        except sqlite3.Error:
            # A COMMIT that failed (a deferred constraint, SQLITE_BUSY, the disk) may leave the
            # transaction open: roll it back, so that nothing of it is kept and the connection
            # can begin the next one.
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

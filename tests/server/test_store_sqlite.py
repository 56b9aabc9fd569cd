"""The store contract on SQLite, plus what only SQLite has: its pragmas and several writers on one file."""

from __future__ import annotations

import sqlite3

import pytest

from server.store import SeqConflict, StoreError, store_for
from server.store.sqlite import SqliteStore
from tests.server.client import run
from tests.server.store_contract import StoreContract, events, meta, opened_with


class TestSqliteStore(StoreContract):
    def make_store(self, tmp_path):
        return SqliteStore(tmp_path / "store.db")


async def _create(path):
    async with opened_with(SqliteStore(path)):
        pass


def test_sqlite_is_wal_with_full_sync(tmp_path):
    run(_create(tmp_path / "store.db"))
    db = sqlite3.connect(tmp_path / "store.db")
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert SqliteStore(tmp_path / "x.db").synchronous == "FULL"


def test_sqlite_unique_game_seq_in_the_schema(tmp_path):
    # Check the database itself refuses a second row for (game, seq), whoever writes it.
    run(_create(tmp_path / "store.db"))
    db = sqlite3.connect(tmp_path / "store.db")
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        db.execute("INSERT INTO events (game, seq, command_id, envelope) VALUES ('g-0000000001', 1, NULL, '{}')")


def test_sqlite_two_writers_on_one_file(tmp_path):
    # Check two stores on one file (as two server processes would be) cannot both append seq 2.
    async def main():
        first, second = SqliteStore(tmp_path / "store.db"), SqliteStore(tmp_path / "store.db")
        await first.open()
        await second.open()
        await first.create_game(meta(), events(1, 1, None))
        await first.append("g-0000000001", 1, events(2, 2, "c-first"))
        with pytest.raises(SeqConflict):
            await second.append("g-0000000001", 1, events(2, 2, "c-second"))
        assert await second.read("g-0000000001") == events(1, 1, None) + events(2, 2, "c-first")
        await first.close()
        await second.close()

    run(main())


def test_store_for_urls(tmp_path):
    assert store_for(str(tmp_path / "a.db")).path == str(tmp_path / "a.db")
    assert store_for(f"sqlite://{tmp_path}/b.db").path == f"{tmp_path}/b.db"
    assert type(store_for("postgresql://localhost/chronicle")).__name__ == "PostgresStore"
    with pytest.raises(StoreError, match="unknown store URL scheme 'mysql'"):
        store_for("mysql://x")


def test_sqlite_closed_store_refuses(tmp_path):
    async def main():
        store = SqliteStore(tmp_path / "store.db")
        with pytest.raises(StoreError, match="is not open"):
            await store.list_games()

    run(main())


def test_sqlite_reads_run_beside_the_writer_so_a_long_read_holds_up_no_commit(tmp_path):
    # Check (issue 16) that reads have a connection and a thread of their own: while a read is
    # still running (here: held open inside its own read transaction), appends commit, and a read
    # begun after an append returned sees it. With one thread for both, the append would wait.
    import asyncio
    import threading

    async def main():
        release, inside = threading.Event(), threading.Event()

        def long_read(db):
            db.execute("BEGIN")
            seqs = [row[0] for row in db.execute("SELECT seq FROM events ORDER BY seq")]
            inside.set()
            release.wait(10)
            db.execute("COMMIT")
            return seqs

        async with opened_with(SqliteStore(tmp_path / "store.db")) as store:
            try:
                reading = asyncio.ensure_future(store._read(long_read))
                while not inside.is_set():
                    await asyncio.sleep(0.01)
                await asyncio.wait_for(store.append("g-0000000001", 1, events(2, 3, "c-2")), 5)
                assert not reading.done()
                release.set()
                assert await reading == [1]  # its snapshot was taken before the append
                assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3]
            finally:
                release.set()  # before the store closes: the read's thread must not be left waiting

    run(main())


def test_sqlite_the_reader_connection_cannot_write(tmp_path):
    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db")) as store:
            with pytest.raises(StoreError, match="readonly"):
                await store._read(lambda db: db.execute("DELETE FROM events"))
            assert [e.seq for e in await store.read("g-0000000001")] == [1]

    run(main())


# --- where the writes run (issue 16: on the loop's thread while quick; the store's thread else) ---


class _Threads:
    """The thread each COMMIT of the writer's connection ran in, and a delay to put in the next ones."""

    def __init__(self) -> None:
        import threading

        self.seen: list[int] = []
        self.delay = 0.0
        self._ident = threading.get_ident

    def __call__(self, statement: str) -> None:
        import time

        if statement.strip().upper().startswith("COMMIT"):
            self.seen.append(self._ident())
            if self.delay:
                time.sleep(self.delay)  # a slow disk, for real: the commit itself takes that long

    def on_loop(self) -> list[bool]:
        import threading

        return [ident == threading.get_ident() for ident in self.seen]


class _Clock:
    """The store module's ``time``: the real ``perf_counter`` (what a write took), and a
    ``monotonic`` the test moves (when a spell in the thread ends), so no test waits out a spell."""

    def __init__(self) -> None:
        import time

        self.now = 1000.0
        self.perf_counter = time.perf_counter

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    from server.store import sqlite as module

    clock = _Clock()
    monkeypatch.setattr(module, "time", clock)
    monkeypatch.setattr(module, "SLOW_WRITE_S", 0.1)  # well above a quick write on a loaded machine
    return clock


def _store(tmp_path, **options) -> SqliteStore:
    # NORMAL: no fsync, so the writes not slowed on purpose stay far below SLOW_WRITE_S on a busy CI
    return SqliteStore(tmp_path / "store.db", synchronous="NORMAL", write_on_loop=True, **options)


async def _traced(store) -> _Threads:
    threads = _Threads()
    await store._run(lambda db: db.set_trace_callback(threads))
    return threads


async def _append(store, seq: int) -> None:
    await store.append("g-0000000001", seq - 1, events(seq, seq, f"c-{seq}"))


class _Ticks:
    """``async with _Ticks(every) as ticks``: how many times the loop ran a task that sleeps ``every``
    seconds (0: every turn of the loop) while the block ran (``ticks.count``). A loop held by a write
    counts none."""

    def __init__(self, every: float) -> None:
        self.every, self.count, self._task = every, 0, None

    async def _tick(self) -> None:
        import asyncio

        while True:
            await asyncio.sleep(self.every)
            self.count += 1

    async def __aenter__(self) -> _Ticks:
        import asyncio

        self._task = asyncio.ensure_future(self._tick())
        await asyncio.sleep(0)  # started: it counts from here
        self.count = 0
        return self

    async def __aexit__(self, *_exc) -> None:
        self._task.cancel()


def test_sqlite_writes_run_on_the_event_loops_thread(tmp_path, clock):
    # Check (issue 16) that a quick write is made on the loop's own thread: no hand-off to the
    # store's thread and back. (NORMAL and the clock's 100 ms threshold: a loaded machine's fsync
    # hiccup must not make this test see a spell.)
    async def main():
        async with opened_with(_store(tmp_path)) as store:
            threads = await _traced(store)
            for seq in range(2, 6):
                await _append(store, seq)
            await store.put_snapshot("g-0000000001", 5, "{}")
            assert threads.on_loop() == [True] * 5
            assert store.thread_writes == 0
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3, 4, 5]

    run(main())


def test_sqlite_a_write_that_yields_while_the_store_closes_is_told_so(tmp_path):
    # Hostile (found in review): a write that yields to the loop before it starts (after quick
    # writes in a row) while the store closes gets StoreError "is not open", not an AttributeError
    # from a connection gone.
    import asyncio

    async def main():
        store = _store(tmp_path)
        await store.open()
        await store.create_game(meta(), events(1, 1, None))
        await asyncio.sleep(0)  # the loop runs once: what counted create_game's time is done
        store._held, store._held_counting = 1.0, True  # as after a run of quick writes: the next one yields first
        writing = asyncio.ensure_future(store.put_snapshot("g-0000000001", 1, "{}"))
        await asyncio.sleep(0)  # it takes the lock and yields
        await store.close()
        with pytest.raises(StoreError, match="is not open"):
            await writing

    run(main())


SLOW, QUICK = True, False


async def _timed_appends(store, clock, steps) -> list[bool]:
    """One append per step ``(spells, slow)``, seq 2 onwards: first the clock moves on ``spells`` ×
    FIRST_SPELL_S, then the append, its COMMIT held up 150 ms (a real slow disk) if ``slow``. Where
    each COMMIT ran, in order (True: the loop's thread)."""
    from server.store import sqlite as module

    threads = await _traced(store)
    for seq, (spells, slow) in enumerate(steps, start=2):
        clock.now += module.FIRST_SPELL_S * spells
        threads.delay = 0.15 if slow else 0
        await _append(store, seq)
    return threads.on_loop()


def test_sqlite_a_slow_write_sends_the_writes_to_the_stores_thread_for_a_spell(tmp_path, clock):
    # Check that one write slower than SLOW_WRITE_S (a real commit held up 150 ms) sends the writes
    # to the store's thread for FIRST_SPELL_S, so a slow disk stops holding the loop, and that the
    # loop's thread takes them back when the spell is over.
    async def main():
        async with opened_with(_store(tmp_path)) as store:
            steps = [(0, SLOW), (0, QUICK), (0.9, QUICK), (0.2, QUICK)]  # slow on the loop; in the spell twice; after it
            assert await _timed_appends(store, clock, steps) == [True, False, False, True]
            assert store.thread_writes == 2
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3, 4, 5]

    run(main())


def test_sqlite_a_slow_write_in_the_thread_keeps_the_spell_going(tmp_path, clock):
    # Check that a disk still slow is not given back to the loop's thread at the spell's end: the
    # second append, slow in the thread just before the spell's end, keeps it going.
    async def main():
        async with opened_with(_store(tmp_path)) as store:
            steps = [(0, SLOW), (0.9, SLOW), (0.9, QUICK), (0.2, QUICK)]
            assert await _timed_appends(store, clock, steps) == [True, False, False, True]

    run(main())


def test_sqlite_a_disk_slow_again_after_a_spell_doubles_the_next_one(tmp_path, clock):
    # Check the backing off: a disk slow for good costs the loop one write per spell, the spells
    # doubling up to LONGEST_SPELL_S; once a try on the loop is quick, a later slow write starts over.
    from server.store import sqlite as module

    async def main():
        async with opened_with(_store(tmp_path)) as store:
            steps = [
                (0, SLOW),  # slow on the loop: a spell of FIRST_SPELL_S
                (1.1, SLOW),  # the loop tries again, slow again: a spell of 2 × FIRST_SPELL_S
                (0.8, QUICK),  # still in it
                (1.3, QUICK),  # quick on the loop: the next spell is FIRST_SPELL_S again
                (0, SLOW),
                (1.1, QUICK),
            ]
            assert await _timed_appends(store, clock, steps) == [True, True, False, True, True, True]
            assert store._spell_s == module.FIRST_SPELL_S  # the last was quick on the loop: the next spell starts over
            for _ in range(20):
                store._to_thread("a test")
            assert store._spell_s == module.LONGEST_SPELL_S

    run(main())


def test_sqlite_a_write_lock_held_by_another_connection_does_not_freeze_the_loop(tmp_path, clock):
    # Hostile: another process (here a second connection on the file) holds the write lock for
    # 0.4 s. The loop's connection waits for no lock, so the append goes to the store's thread,
    # which waits for it (busy_timeout 5 s there), while the loop goes on serving (it ticks every
    # 10 ms); once the lock is released the append is stored whole, and after the spell the loop's
    # connection again waits for no lock. Waiting on the loop's thread would stop the ticks.
    import asyncio
    import threading

    from server.store import sqlite as module

    async def main():
        async with opened_with(_store(tmp_path)) as store:
            other = sqlite3.connect(tmp_path / "store.db", isolation_level=None, check_same_thread=False)
            other.execute("BEGIN IMMEDIATE")
            release = threading.Timer(0.4, lambda: other.execute("COMMIT"))
            release.start()
            try:
                async with _Ticks(0.01) as ticks:
                    await asyncio.wait_for(store.append("g-0000000001", 1, events(2, 3, "c-2")), 5)
            finally:
                release.join()
                other.close()
            assert ticks.count >= 10, ticks.count
            assert store.thread_writes == 1  # the append, made again in the thread
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3]
            busy = "PRAGMA busy_timeout"
            assert await store._run(lambda db: db.execute(busy).fetchone()[0]) == module.BUSY_TIMEOUT_MS  # the spell
            clock.now += module.FIRST_SPELL_S * 1.1
            assert await store._run(lambda db: db.execute(busy).fetchone()[0]) == 0  # back on the loop
            assert store.thread_writes == 2

    run(main())


def test_sqlite_a_cancelled_write_keeps_the_connection_until_its_thread_is_done(tmp_path, clock, monkeypatch):
    # Hostile (found in review): a write in the thread whose caller is cancelled runs on there; the
    # next write must wait for it, not run on the loop's thread on the same connection meanwhile
    # (which blocked the loop on the connection and failed with "cannot start a transaction within
    # a transaction"), and the loop goes on serving while it waits.
    import asyncio
    import time

    from server.store import sqlite as module

    monkeypatch.setattr(module, "SLOW_WRITE_S", 1.0)  # the 0.5 s write below starts no new spell

    async def main():
        async with opened_with(_store(tmp_path)) as store:
            threads = await _traced(store)

            def long_write(db):  # a write that holds its transaction 0.5 s, in the thread
                with module._transaction(db):
                    db.execute("INSERT INTO snapshots (game, seq, state) VALUES ('g-0000000001', 1, '{}')")
                    time.sleep(0.5)

            store._to_thread("a test's spell")
            first = asyncio.ensure_future(store._run(long_write))
            await asyncio.sleep(0.1)
            first.cancel()
            clock.now += module.FIRST_SPELL_S * 1.1  # the spell over: the next write is the loop's
            async with _Ticks(0.01) as ticks:
                await asyncio.wait_for(_append(store, 2), 5)
            with pytest.raises(asyncio.CancelledError):
                await first
            assert threads.on_loop() == [False, True]  # the thread's COMMIT, then the append's on the loop
            assert ticks.count >= 5, ticks.count  # ~40 in the 0.4 s it waited; a loop blocked on the connection ticks none
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2]
            assert await store.get_snapshot("g-0000000001", 1) == (1, "{}")  # the cancelled write was made whole

    run(main())


def test_sqlite_quick_writes_in_a_row_let_the_loop_run(tmp_path, monkeypatch):
    # Hostile (found in review): writes that are each quick but never yield (a Room saving many
    # snapshots in a row) would hold the loop for their sum. After SLOW_WRITE_S of them the store
    # yields once before the next, so the loop runs in between; the writes stay on the loop.

    from server.store import sqlite as module

    monkeypatch.setattr(module, "SLOW_WRITE_S", 0.05)

    async def main():
        async with opened_with(_store(tmp_path)) as store:
            threads = await _traced(store)
            threads.delay = 0.01  # each write ~10 ms: quick, but 40 of them hold the loop 400 ms
            async with _Ticks(0) as passes:
                for seq in range(1, 41):
                    await store.put_snapshot("g-0000000001", seq, "{}")
            assert passes.count >= 4, passes.count  # a pass per ~50 ms of writes (~8); none without the yield
            assert store.thread_writes == 0 and all(threads.on_loop())

    run(main())


def test_sqlite_loop_writes_off_keeps_every_write_in_the_stores_thread(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONICLE_SQLITE_LOOP_WRITES", "0")
    assert SqliteStore(tmp_path / "x.db").write_on_loop is False
    monkeypatch.setenv("CHRONICLE_SQLITE_LOOP_WRITES", "sometimes")
    with pytest.raises(ValueError, match="CHRONICLE_SQLITE_LOOP_WRITES"):
        SqliteStore(tmp_path / "x.db")
    with pytest.raises(StoreError, match="CHRONICLE_SQLITE_LOOP_WRITES: expected 1 or 0, got 'sometimes'"):
        store_for(str(tmp_path / "x.db"))  # what every command taking --db turns into one line
    monkeypatch.delenv("CHRONICLE_SQLITE_LOOP_WRITES")
    assert SqliteStore(tmp_path / "x.db").write_on_loop is True

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=False)) as store:
            threads = await _traced(store)
            await _append(store, 2)
            await _append(store, 3)
            assert threads.on_loop() == [False, False]
            assert store.thread_writes == 4  # the game created, the trace set, the two appends

    run(main())


@pytest.mark.parametrize("command", ["serve", "rules-check"])
@pytest.mark.parametrize("variable, value, said", [
    ("CHRONICLE_SQLITE_LOOP_WRITES", "sometimes", "CHRONICLE_SQLITE_LOOP_WRITES: expected 1 or 0, got 'sometimes'"),
    ("CHRONICLE_SQLITE_SYNC", "ALWAYS", "synchronous must be one of FULL, NORMAL, EXTRA, got 'ALWAYS'"),
])
def test_a_command_refuses_a_bad_sqlite_setting_in_one_line(tmp_path, command, variable, value, said):
    import subprocess
    import sys

    from tests.server_fixture import ROOT

    run(_create(tmp_path / "x.db"))  # rules-check reads an existing store
    where = ["--port", "0"] if command == "serve" else []
    done = subprocess.run([sys.executable, "-m", "server.cli.main", command, *where, "--db",
                           str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), variable: value})
    assert done.returncode == 4 and said in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_sqlite_a_file_made_before_the_activity_columns_gets_them_its_games_open(tmp_path):
    """gamebounds: a games table without ``creator`` and ``moved`` (a file of an older server) gets them
    at open, every game it holds moved at that time, so none is idle at once; its rows are unchanged."""
    path = tmp_path / "old.db"

    async def make() -> None:
        store = SqliteStore(path)
        await store.open()
        await store.create_game(meta(), events(1, 1, None), creator="198.51.100.7")
        await store.close()

    run(make())
    db = sqlite3.connect(path)  # as the older schema had it
    db.execute("DROP INDEX games_creator")
    db.execute("ALTER TABLE games DROP COLUMN creator")
    db.execute("ALTER TABLE games DROP COLUMN moved")
    db.commit()
    db.close()

    async def reopen() -> None:
        store = SqliteStore(path)
        store.clock = lambda: 5_000_000
        async with opened_with(store, "g-0000000002"):  # a new game too: open, moved now
            assert await store.count_open_games(moved_since=5_000_000) == 2
            assert await store.count_open_games(moved_since=5_000_001) == 0
            assert await store.count_open_games() == 2
            assert await store.count_open_games(creator="198.51.100.7") == 0  # not known any more: global only
            assert await store.read("g-0000000001") == events(1, 1, None)
        async with opened_with(SqliteStore(path), "g-0000000003") as again:  # opened again: nothing to add
            assert await again.count_open_games() == 3

    run(reopen())

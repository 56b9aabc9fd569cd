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
    """The thread each of the writer connection's statements ran in, and a delay to put in them."""

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


async def _traced(store) -> _Threads:
    threads = _Threads()
    await store._run(lambda db: db.set_trace_callback(threads))
    return threads


def test_sqlite_writes_run_on_the_event_loops_thread(tmp_path):
    # Check (issue 16) that a quick write is made on the loop's own thread: no hand-off to the
    # store's thread and back, whose wake-ups cost more than the commit.
    import threading

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=True)) as store:
            threads = await _traced(store)
            for seq in range(2, 6):
                await store.append("g-0000000001", seq - 1, events(seq, seq, f"c-{seq}"))
            await store.put_snapshot("g-0000000001", 5, "{}")
            assert threads.seen == [threading.get_ident()] * 5
            assert store.thread_writes == 0
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3, 4, 5]

    run(main())


def test_sqlite_a_slow_write_sends_the_next_ones_to_the_stores_thread_then_back(tmp_path, monkeypatch):
    # Check that one write slower than SLOW_WRITE_S (a real commit held up 40 ms) sends the next
    # THREAD_SPELL writes to the store's thread, so a slow disk stops freezing the loop, and that
    # the loop's thread takes them back once that many in a row were quick.
    import threading

    from server.store import sqlite as module

    monkeypatch.setattr(module, "THREAD_SPELL", 3)

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=True)) as store:
            threads = await _traced(store)
            loop_thread = threading.get_ident()
            threads.delay = 0.04
            await store.append("g-0000000001", 1, events(2, 2, "c-2"))  # slow, on the loop
            threads.delay = 0
            for seq in range(3, 8):
                await store.append("g-0000000001", seq - 1, events(seq, seq, f"c-{seq}"))
            on_loop = [ident == loop_thread for ident in threads.seen]
            assert on_loop == [True, False, False, False, True, True]
            assert store.thread_writes == 3
            assert [e.seq for e in await store.read("g-0000000001")] == list(range(1, 8))

    run(main())


def test_sqlite_a_slow_write_in_the_thread_keeps_the_writes_there(tmp_path, monkeypatch):
    # Check that the spell starts again from a slow write in the thread: a disk still slow is not
    # given back to the loop's thread.
    import threading

    from server.store import sqlite as module

    monkeypatch.setattr(module, "THREAD_SPELL", 2)

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=True)) as store:
            threads = await _traced(store)
            threads.delay = 0.04
            for seq in range(2, 5):  # slow on the loop, then slow twice in the thread
                await store.append("g-0000000001", seq - 1, events(seq, seq, f"c-{seq}"))
            threads.delay = 0
            for seq in range(5, 8):
                await store.append("g-0000000001", seq - 1, events(seq, seq, f"c-{seq}"))
            loop_thread = threading.get_ident()
            assert [ident == loop_thread for ident in threads.seen] == [True, False, False, False, False, True]

    run(main())


def test_sqlite_a_write_lock_held_by_another_connection_does_not_freeze_the_loop(tmp_path):
    # Hostile: another process (here a second connection on the file) holds the write lock for
    # 0.4 s. The loop's connection waits for no lock, so the append goes to the store's thread,
    # which waits for it, while the loop goes on serving (it ticks every 10 ms); once the lock is
    # released the append is stored whole. Waiting on the loop's thread would stop the ticks.
    import asyncio
    import threading

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=True)) as store:
            other = sqlite3.connect(tmp_path / "store.db", isolation_level=None, check_same_thread=False)
            other.execute("BEGIN IMMEDIATE")
            release = threading.Timer(0.4, lambda: other.execute("COMMIT"))
            ticks = 0

            async def tick():
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            ticker = asyncio.ensure_future(tick())
            release.start()
            try:
                await asyncio.wait_for(store.append("g-0000000001", 1, events(2, 3, "c-2")), 5)
            finally:
                ticker.cancel()
                release.join()
                other.close()
            assert ticks >= 10, ticks
            assert store.thread_writes == 1
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3]

    run(main())


def test_sqlite_loop_writes_off_keeps_every_write_in_the_stores_thread(tmp_path, monkeypatch):
    import threading

    monkeypatch.setenv("CHRONICLE_SQLITE_LOOP_WRITES", "0")
    assert SqliteStore(tmp_path / "x.db").write_on_loop is False
    monkeypatch.setenv("CHRONICLE_SQLITE_LOOP_WRITES", "sometimes")
    with pytest.raises(ValueError, match="CHRONICLE_SQLITE_LOOP_WRITES"):
        SqliteStore(tmp_path / "x.db")
    monkeypatch.delenv("CHRONICLE_SQLITE_LOOP_WRITES")
    assert SqliteStore(tmp_path / "x.db").write_on_loop is True

    async def main():
        async with opened_with(SqliteStore(tmp_path / "store.db", write_on_loop=False)) as store:
            threads = await _traced(store)
            await store.append("g-0000000001", 1, events(2, 2, "c-2"))
            await store.append("g-0000000001", 2, events(3, 3, "c-3"))
            assert len(threads.seen) == 2 and threading.get_ident() not in threads.seen
            assert store.thread_writes == 4  # the game created, the trace set, the two appends

    run(main())


@pytest.mark.parametrize("variable, value, said", [
    ("CHRONICLE_SQLITE_LOOP_WRITES", "sometimes", "CHRONICLE_SQLITE_LOOP_WRITES: expected 1 or 0, got 'sometimes'"),
    ("CHRONICLE_SQLITE_SYNC", "ALWAYS", "synchronous must be one of FULL, NORMAL, EXTRA, got 'ALWAYS'"),
])
def test_chronicle_serve_refuses_a_bad_sqlite_setting_in_one_line(tmp_path, variable, value, said):
    import subprocess
    import sys

    from tests.server_fixture import ROOT

    done = subprocess.run([sys.executable, "-m", "server.cli.main", "serve", "--port", "0", "--db",
                           str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), variable: value})
    assert done.returncode == 4 and said in done.stderr and "Traceback" not in done.stderr, done.stderr

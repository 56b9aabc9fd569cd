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

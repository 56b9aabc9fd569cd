"""The store contract on SQLite, plus what only SQLite has: its pragmas and several writers on one file."""

from __future__ import annotations

import sqlite3

import pytest

from server.store import SeqConflict, StoreError, store_for
from server.store.sqlite import SqliteStore
from tests.server.client import run
from tests.server.store_contract import StoreContract, events, meta


class TestSqliteStore(StoreContract):
    def make_store(self, tmp_path):
        return SqliteStore(tmp_path / "store.db")


def test_sqlite_is_wal_with_full_sync(tmp_path):
    async def main():
        store = SqliteStore(tmp_path / "store.db")
        await store.open()
        await store.create_game(meta(), events(1, 1, None))
        await store.close()

    run(main())
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


async def _create(path):
    store = SqliteStore(path)
    await store.open()
    await store.create_game(meta(), events(1, 1, None))
    await store.close()

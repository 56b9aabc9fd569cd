"""The store contract on a real PostgreSQL (tests/postgres_fixture.py), plus what only it has.

``make_store`` is the only thing the contract needs: a database per test directory, so that
``test_survives_reopening`` opens the same one twice and every other test starts empty.
"""

from __future__ import annotations

import asyncio
import hashlib

import psycopg
import pytest

from server.store import SeqConflict, StoreError, UnknownGame, store_for
from server.store.postgres import CHANNEL, PostgresStore
from tests.postgres_fixture import postgres_database, postgres_server  # noqa: F401
from tests.server.client import run
from tests.server.store_contract import StoreContract, events, meta, opened_with


class TestPostgresStore(StoreContract):
    @pytest.fixture(autouse=True)
    def _database(self, postgres_database):  # noqa: F811
        self._make_url = postgres_database

    def make_store(self, tmp_path):
        name = "c_" + hashlib.sha256(str(tmp_path).encode()).hexdigest()[:16]
        return PostgresStore(self._make_url(name))


def test_postgres_unique_game_seq_in_the_schema(postgres_database):  # noqa: F811
    # Check the database itself refuses a second row for (game, seq), whoever writes it.
    url = postgres_database()
    run(_create(url))
    with psycopg.connect(url) as db, pytest.raises(psycopg.errors.UniqueViolation):
        db.execute("INSERT INTO events (game, seq, command_id, envelope) VALUES ('g-0000000001', 1, NULL, '{}')")


def test_postgres_racing_writers_one_wins(postgres_database):  # noqa: F811
    # Check eight stores (as eight processes would be) racing for seq 2: exactly one writes, seven conflict.
    url = postgres_database()

    async def main():
        stores = [PostgresStore(url, pool_size=1) for _ in range(8)]
        for store in stores:
            await store.open()
        await stores[0].create_game(meta(), events(1, 1, None))
        outcomes = await asyncio.gather(*(store.append("g-0000000001", 1, events(2, 3, f"c-{i}"))
                                          for i, store in enumerate(stores)), return_exceptions=True)
        winners = [i for i, outcome in enumerate(outcomes) if outcome is None]
        assert len(winners) == 1 and all(isinstance(o, SeqConflict) for o in outcomes if o is not None)
        assert await stores[1].read("g-0000000001") == events(1, 1, None) + events(2, 3, f"c-{winners[0]}")
        for store in stores:
            await store.close()

    run(main())


def test_postgres_append_notifies_game_and_seq(postgres_database):  # noqa: F811
    # Check a committed append is announced as "<game> <last seq>", and a conflicting one is not.
    url = postgres_database()

    async def main():
        async with opened_with(PostgresStore(url)) as store:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as listener:
                await listener.execute(f"LISTEN {CHANNEL}")
                await store.append("g-0000000001", 1, events(2, 3, "c-1"))
                with pytest.raises(SeqConflict):
                    await store.append("g-0000000001", 1, events(2, 2, "c-2"))
                await store.append("g-0000000001", 3, events(4, 4, "c-3"))
                heard = [note.payload async for note in listener.notifies(timeout=2.0, stop_after=2)]
        assert heard == ["g-0000000001 3", "g-0000000001 4"]

    run(main())


def test_postgres_feed_reconnects_and_reports_the_gap(postgres_database):  # noqa: F811
    # Check the listener hears appends, and after its connection drops it reconnects and calls on_gap.
    url = postgres_database()

    async def main():
        async with opened_with(PostgresStore(url)) as store:
            heard, gaps = [], []
            feed = store.feed(lambda game, seq: heard.append((game, seq)), lambda: gaps.append(1))
            await feed.start()
            await store.append("g-0000000001", 1, events(2, 2, "c-1"))
            await _until(lambda: heard == [("g-0000000001", 2)])
            await feed.drop()
            await _until(lambda: feed.connects == 2 and feed.connected.is_set())
            assert len(gaps) == 2  # once at the first LISTEN, once after the reconnect
            await store.append("g-0000000001", 2, events(3, 3, "c-2"))
            await _until(lambda: heard[-1] == ("g-0000000001", 3))
            await feed.stop()

    run(main())


def test_postgres_unreachable_is_a_store_error():
    async def main():
        from tests.server_fixture import free_port

        store = store_for(f"postgresql://postgres@127.0.0.1:{free_port()}/nothing")
        with pytest.raises(StoreError, match="cannot connect"):
            await store.open()
        with pytest.raises(StoreError, match="is not open"):
            await store.get_game("g-x")

    run(main())


def test_postgres_unknown_game_after_reading_nothing(postgres_database):  # noqa: F811
    async def main():
        store = PostgresStore(postgres_database())
        await store.open()
        await store.create_game(meta(), events(1, 2, None))
        assert await store.read("g-0000000001", after_seq=2) == []  # known game, nothing after 2
        with pytest.raises(UnknownGame):
            await store.read("g-none", after_seq=2)
        await store.close()

    run(main())


async def _until(check, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.02)


async def _create(url: str) -> None:
    async with opened_with(PostgresStore(url)):
        pass


def test_postgres_a_database_made_before_the_activity_columns_gets_them_its_games_open(postgres_database):  # noqa: F811
    """gamebounds: as on SQLite, a games table without ``creator`` and ``moved`` gets them at open."""
    url = postgres_database()

    async def make() -> None:
        store = PostgresStore(url)
        await store.open()
        await store.create_game(meta(), events(1, 1, None), creator="198.51.100.7")
        await store.close()

    run(make())
    with psycopg.connect(url) as db:  # as the older schema had it
        db.execute("DROP INDEX games_creator")
        db.execute("ALTER TABLE games DROP COLUMN creator, DROP COLUMN moved")

    async def reopen() -> None:
        store = PostgresStore(url)
        store.clock = lambda: 5_000_000
        async with opened_with(store, "g-0000000002"):  # a new game too: open, moved now
            assert await store.count_open_games(moved_since=5_000_000) == 2
            assert await store.count_open_games(moved_since=5_000_001) == 0
            assert await store.count_open_games() == 2
            assert await store.count_open_games(creator="198.51.100.7") == 0
            assert await store.read("g-0000000001") == events(1, 1, None)
        async with opened_with(PostgresStore(url), "g-0000000003") as again:
            assert await again.count_open_games() == 3

    run(reopen())

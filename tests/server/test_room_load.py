"""A Room's load of a long game leaves the event loop running (``server.room.decoded``).

Anyone may open a socket on any game, and a game not in memory is loaded for it. Decoding a
10,000-event log at once held the loop ~55 ms at every load: a stranger reconnecting in a loop to
a long idle game kept every other game ~50-75 ms late (docs/bounds.md). The envelopes are now
decoded, then indexed (``Table.resuming``), ``DECODE_SLICE`` at a time with a yield between; the
Room is the same.
"""

from __future__ import annotations

import asyncio

import pytest

from events.log import Table
from server import room as room_module
from server.room import Room
from server.rooms import Rooms
from server.store.sqlite import SqliteStore
from tests.server.test_log_cache import count_decodes, meta_of, played, rows
from tests.server_fixture import take_back


@pytest.mark.parametrize("undo", [False, True], ids=["indexed", "core_4_folded_whole"])
def test_a_long_games_load_yields_to_the_loop_between_slices(tmp_path, monkeypatch, undo):
    monkeypatch.setattr(room_module, "DECODE_SLICE", 100)
    table = played("mecha", "mecha/sample", 7, 1500)
    if undo:  # CORE-4: a log with an undo is folded whole (Table.restoring), not indexed from a snapshot
        take_back(table)
    decoded = count_decodes(monkeypatch)
    indexed = []
    steps = Table.restoring if undo else Table.resuming

    def stepped(*args, **kwargs):
        for step in steps(*args, **kwargs):
            indexed.append(1)
            yield step

    monkeypatch.setattr(Table, "restoring" if undo else "resuming", stepped)  # the real steps, each counted

    async def main():
        store = SqliteStore(tmp_path / "load.db")
        await store.open()
        try:
            await store.create_game(meta_of(table), rows(table, 1, table.seq))
            ticks, done = [], asyncio.Event()

            async def ticker():
                while not done.is_set():
                    ticks.append((len(decoded), len(indexed)))
                    await asyncio.sleep(0)

            ticking = asyncio.ensure_future(ticker())
            await asyncio.sleep(0)
            loaded = await Room.load(store, table.game_id)
            done.set()
            await ticking
            return loaded, ticks
        finally:
            await store.close()

    loaded, ticks = asyncio.run(main())
    # Check the Room is the game as played, and the ticker ran between the slices: it saw the
    # decoding part done (not only none, then all), once at least after each slice.
    assert loaded.table.seq == table.seq and loaded.table.envelopes[-1].hash == table.envelopes[-1].hash
    assert [envelope.event for envelope in loaded.table.envelopes] == [envelope.event for envelope in table.envelopes]
    slices = table.seq // 100 - 1
    assert len({done for done, _ in ticks if 0 < done < table.seq}) >= slices
    assert len({steps for done, steps in ticks if done == table.seq and steps}) >= slices  # indexed in steps too


def test_what_another_process_appends_while_a_game_loads_reaches_its_room(tmp_path, monkeypatch):
    """A notification (another process's append) that comes while the Room is loading, after its log
    was read, was dropped: the Room stayed one command behind the store until the next one."""
    monkeypatch.setattr(room_module, "DECODE_SLICE", 100)
    table = played("mecha", "mecha/sample", 8, 1500)
    decoded = count_decodes(monkeypatch)

    async def main():
        store, other = SqliteStore(tmp_path / "n.db"), SqliteStore(tmp_path / "n.db")  # "another process"
        await store.open()
        await other.open()
        try:
            await store.create_game(meta_of(table), rows(table, 1, table.seq - 1))
            rooms = Rooms(store)
            entering = asyncio.ensure_future(rooms.enter(table.game_id))
            while not decoded:  # the load has read the log and is decoding it
                await asyncio.sleep(0)
            await other.append(table.game_id, table.seq - 1, rows(table, table.seq, table.seq))
            rooms.notified(table.game_id, table.seq)  # what server/notify.py does on a NOTIFY
            room = await entering
            for _ in range(200):
                if room.table.seq == table.seq:
                    break
                await asyncio.sleep(0.01)
            return room.table.seq, (await store.get_game(table.game_id)).head
        finally:
            await store.close()
            await other.close()

    seq, head = asyncio.run(main())
    assert seq == head == table.seq

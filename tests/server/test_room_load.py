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
from server import frames
from server import room as room_module
from server.room import Room
from server.store.sqlite import SqliteStore
from tests.server.test_log_cache import meta_of, played, rows
from tests.server_fixture import take_back


@pytest.mark.parametrize("undo", [False, True], ids=["indexed", "core_4_folded_whole"])
def test_a_long_games_load_yields_to_the_loop_between_slices(tmp_path, monkeypatch, undo):
    monkeypatch.setattr(room_module, "DECODE_SLICE", 100)
    table = played("mecha", "mecha/sample", 7, 1500)
    if undo:  # CORE-4: a log with an undo is folded whole (Table.restoring), not indexed from a snapshot
        take_back(table)
    decode, decoded = frames.decode_envelope, []

    def counted(game, text):
        decoded.append(1)
        return decode(game, text)

    monkeypatch.setattr(frames, "decode_envelope", counted)  # the real decoder, each call counted
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

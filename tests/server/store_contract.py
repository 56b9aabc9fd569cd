"""The store contract as one abstract test class; each back end subclasses it with a factory.

After eventsourcing's recorder suite: a subclass supplies only ``make_store`` (SQLite in
``test_store_sqlite.py``, PostgreSQL in ``test_store_postgres.py``), and every back end must pass
the same checks, down to "a batch with one conflicting seq writes nothing".
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from server.store import ChatLine, GameExists, GameMeta, SeqConflict, Store, Stored, UnknownGame
from tests.server.client import run


def meta(game_id: str = "g-0000000001", created: str = "2026-01-01T00:00:00Z") -> GameMeta:
    return GameMeta(game_id, "mecha", "A title", ("red", "blue"), {"red": "a" * 64, "blue": "b" * 64}, created)


def events(first: int, last: int, command_id: str | None = "c-1") -> list[Stored]:
    return [Stored(seq, command_id, f'{{"seq":{seq},"cmd":"{command_id}"}}') for seq in range(first, last + 1)]


@contextlib.asynccontextmanager
async def opened_with(store: Store, *game_ids: str):
    """``store`` opened, holding a game for each of ``game_ids`` (``meta(game_id)`` and its first
    event; the one game of ``meta()`` when none is named); closed at the end."""
    await store.open()
    try:
        for game_id in game_ids or (meta().game_id,):
            await store.create_game(meta(game_id), events(1, 1, None))
        yield store
    finally:
        await store.close()


class StoreContract:
    """Subclasses define ``make_store(tmp_path) -> Store`` (not opened) and inherit every check."""

    def make_store(self, tmp_path) -> Store:
        raise NotImplementedError

    def using(self, tmp_path, body) -> None:
        async def main():
            store = self.make_store(tmp_path)
            await store.open()
            try:
                await body(store)
            finally:
                await store.close()

        run(main())

    def test_create_read_list(self, tmp_path):
        async def body(store: Store):
            # Check a new game is listed with its metadata and head, and its first events read back.
            await store.create_game(meta(), events(1, 1, None))
            got = await store.get_game("g-0000000001")
            assert (got.game_id, got.rules, got.title, got.seats, got.head, got.over) == (
                "g-0000000001", "mecha", "A title", ("red", "blue"), 1, False)
            assert got.token_hashes == {"red": "a" * 64, "blue": "b" * 64}
            assert await store.read("g-0000000001") == events(1, 1, None)
            # Check the listing is newest first.
            await store.create_game(meta("g-0000000002", "2026-01-02T00:00:00Z"), events(1, 2, None))
            assert [m.game_id for m in await store.list_games()] == ["g-0000000002", "g-0000000001"]

        self.using(tmp_path, body)

    def test_core_1_the_secret_is_kept_apart_and_only_secret_gives_it(self, tmp_path):
        """CORE-1: the game's secret goes in with the game, in the same transaction, and out only by ``secret``."""
        async def body(store: Store):
            secret = "5e" * 32
            await store.create_game(meta(), events(1, 1, None), secret=secret)
            await store.create_game(meta("g-0000000002"), events(1, 1, None))
            assert await store.secret("g-0000000001") == secret
            assert await store.secret("g-0000000002") is None
            # Check: no listing, metadata or event row shows it.
            listed = await store.list_games() + [await store.get_game("g-0000000001")]
            shown = repr([[getattr(m, name) for name in GameMeta.__slots__] for m in listed])
            shown += "".join(item.envelope for item in await store.read("g-0000000001"))
            assert secret not in shown
            with pytest.raises(UnknownGame):
                await store.secret("g-nope")
            # Check: a game whose creation failed keeps no secret (all or nothing).
            with pytest.raises(GameExists):
                await store.create_game(meta(), events(1, 1, None), secret="6f" * 32)
            assert await store.secret("g-0000000001") == secret

        self.using(tmp_path, body)

    def test_the_bot_seats_go_in_with_the_game_and_come_back_by_bots(self, tmp_path):
        """Issue 18: which seats the server plays is kept with the game, in the same transaction."""
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None), bots={"blue": "greedy"})
            await store.create_game(meta("g-0000000002"), events(1, 1, None))
            assert await store.bots("g-0000000001") == {"blue": "greedy"}
            assert await store.bots("g-0000000002") == {}
            with pytest.raises(UnknownGame):
                await store.bots("g-nope")
            # Check: a game whose creation failed leaves its bots out (all or nothing).
            with pytest.raises(GameExists):
                await store.create_game(meta(), events(1, 1, None), bots={"red": "random"})
            assert await store.bots("g-0000000001") == {"blue": "greedy"}

        self.using(tmp_path, body)

    def test_unknown_game(self, tmp_path):
        async def body(store: Store):
            for call in (store.get_game("g-nope"), store.read("g-nope"), store.append("g-nope", 0, events(1, 1))):
                with pytest.raises(UnknownGame):
                    await call

        self.using(tmp_path, body)

    def test_create_twice_raises_game_exists(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            with pytest.raises(GameExists):
                await store.create_game(meta(), events(1, 1, None))

        self.using(tmp_path, body)

    def test_append_with_expected_seq(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            # Check appends at the head go in, in order, and move the head.
            await store.append("g-0000000001", 1, events(2, 3, "c-1"))
            await store.append("g-0000000001", 3, events(4, 4, "c-2"))
            assert await store.read("g-0000000001") == events(1, 1, None) + events(2, 3, "c-1") + events(4, 4, "c-2")
            assert (await store.get_game("g-0000000001")).head == 4
            # Check reading a window.
            assert [e.seq for e in await store.read("g-0000000001", after_seq=2)] == [3, 4]
            assert [e.seq for e in await store.read("g-0000000001", 1, 3)] == [2, 3]

        self.using(tmp_path, body)

    def test_conflicting_append_raises_seq_conflict(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            await store.append("g-0000000001", 1, events(2, 2, "c-1"))
            # Check a writer that still believes the head is 1 is refused, and nothing changed.
            with pytest.raises(SeqConflict) as raised:
                await store.append("g-0000000001", 1, events(2, 2, "c-other"))
            assert raised.value.expected == 1
            assert await store.read("g-0000000001") == events(1, 1, None) + events(2, 2, "c-1")

        self.using(tmp_path, body)

    def test_batch_with_one_conflicting_seq_writes_nothing(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            await store.append("g-0000000001", 1, events(2, 3, "c-1"))
            # Check a batch 3..5 (3 is taken, 4 and 5 are free) writes none of its events.
            with pytest.raises(SeqConflict):
                await store.append("g-0000000001", 2, events(3, 5, "c-2"))
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3]
            assert (await store.get_game("g-0000000001")).head == 3
            # Check the game still takes the right next batch.
            await store.append("g-0000000001", 3, events(4, 5, "c-2"))
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3, 4, 5]

        self.using(tmp_path, body)

    def test_unique_game_seq(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta("g-a"), events(1, 1, None))
            await store.create_game(meta("g-b"), events(1, 1, None))
            # Check the same seq exists once per game, and two games have their own seq 2.
            await store.append("g-a", 1, events(2, 2, "c-a"))
            await store.append("g-b", 1, events(2, 2, "c-b"))
            with pytest.raises(SeqConflict):
                await store.append("g-a", 1, events(2, 2, "c-a2"))
            assert await store.read("g-a") == events(1, 1, None) + events(2, 2, "c-a")
            assert await store.read("g-b") == events(1, 1, None) + events(2, 2, "c-b")

        self.using(tmp_path, body)

    def test_batch_must_be_dense(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            # Check a batch that skips a seq is a programming error, not a conflict.
            with pytest.raises(ValueError, match="should be 2"):
                await store.append("g-0000000001", 1, events(3, 3))
            with pytest.raises(ValueError, match="at least one"):
                await store.append("g-0000000001", 1, [])

        self.using(tmp_path, body)

    def test_over_is_recorded_with_the_append(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            await store.append("g-0000000001", 1, events(2, 2), over=True)
            assert (await store.get_game("g-0000000001")).over is True
            assert [m.over for m in await store.list_games()] == [True]

        self.using(tmp_path, body)

    def test_survives_reopening(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            await store.append("g-0000000001", 1, events(2, 3))

        self.using(tmp_path, body)

        async def again(store: Store):
            assert [e.seq for e in await store.read("g-0000000001")] == [1, 2, 3]
            assert (await store.get_game("g-0000000001")).head == 3

        self.using(tmp_path, again)

    def test_concurrent_appends_each_stand_alone(self, tmp_path):
        import asyncio

        async def body(store: Store):
            for name in ("g-a", "g-b", "g-c"):
                await store.create_game(meta(name), events(1, 1, None))
            # Check appends to several games at once all land, and a conflicting one among them fails alone.
            outcomes = await asyncio.gather(
                store.append("g-a", 1, events(2, 3, "c-a")),
                store.append("g-b", 1, events(2, 2, "c-b")),
                store.append("g-c", 5, events(6, 6, "c-c")),
                store.append("g-a", 1, events(2, 2, "c-late")),
                return_exceptions=True,
            )
            assert outcomes[:2] == [None, None]
            assert isinstance(outcomes[2], SeqConflict) and isinstance(outcomes[3], SeqConflict)
            assert await store.read("g-a") == events(1, 1, None) + events(2, 3, "c-a")
            assert [e.seq for e in await store.read("g-b")] == [1, 2]
            assert [e.seq for e in await store.read("g-c")] == [1]

        self.using(tmp_path, body)

    def test_list_games_pages_with_a_cursor(self, tmp_path):
        """Issue 12, finding 4: GET /api/games pages; the cursor is the last game of the previous page."""

        async def body(store: Store):
            # Check five games (two created at the same instant) come back newest first in pages of two.
            stamps = ["2026-01-01", "2026-01-03", "2026-01-03", "2026-01-02", "2026-01-05"]
            for number, stamp in enumerate(stamps, start=1):
                await store.create_game(meta(f"g-000000000{number}", stamp + "T00:00:00Z"), events(1, 1, None))
            everything = [m.game_id for m in await store.list_games()]
            assert everything == ["g-0000000005", "g-0000000002", "g-0000000003", "g-0000000004", "g-0000000001"]
            pages, after = [], None
            while True:
                page = [m.game_id for m in await store.list_games(limit=2, after=after)]
                pages.append(page)
                if len(page) < 2:
                    break
                after = page[-1]
            assert pages == [everything[0:2], everything[2:4], everything[4:]]
            # Check a cursor naming no game is UnknownGame, not an empty page.
            with pytest.raises(UnknownGame):
                await store.list_games(limit=2, after="g-nosuchgame")

        self.using(tmp_path, body)

    def test_count_open_games(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta("g-0000000001"), events(1, 1, None))
            await store.create_game(meta("g-0000000002"), events(1, 1, None), over=True)
            await store.create_game(meta("g-0000000003"), events(1, 1, None))
            assert await store.count_open_games() == 2
            await store.append("g-0000000003", 1, events(2, 2), over=True)
            assert await store.count_open_games() == 1

        self.using(tmp_path, body)

    def test_count_open_games_leaves_out_the_idle_and_counts_one_creator(self, tmp_path):
        """gamebounds (/tmp probe opengames): a game nobody moved since ``moved_since`` (the store's
        clock, in seconds) does not count as open; ``creator`` counts one client address's games.
        Nothing of the game changes: an idle game counts again when it moves."""

        async def body(store: Store):
            clock = [1_000_000]
            store.clock = lambda: clock[0]
            await store.create_game(meta("g-0000000001"), events(1, 1, None), creator="198.51.100.7")
            clock[0] += 100
            await store.create_game(meta("g-0000000002"), events(1, 1, None), creator="2001:db8::/64")
            await store.create_game(meta("g-0000000003"), events(1, 1, None))  # no creator known (an old game)
            await store.create_game(meta("g-0000000004"), events(1, 1, None), over=True, creator="198.51.100.7")
            # Check every game not over counts when nothing is idle, and one creator's alone.
            assert await store.count_open_games() == 3
            assert await store.count_open_games(creator="198.51.100.7") == 1
            assert await store.count_open_games(creator="2001:db8::/64") == 1
            assert await store.count_open_games(creator="203.0.113.9") == 0
            # Check a game created before moved_since is idle: left out, whoever counts.
            assert await store.count_open_games(moved_since=1_000_050) == 2
            assert await store.count_open_games(moved_since=1_000_050, creator="198.51.100.7") == 0
            assert await store.count_open_games(moved_since=1_000_100) == 2  # moved at the second itself: open
            # Check an append moves it: it counts again, and its log is what was appended.
            clock[0] += 100
            await store.append("g-0000000001", 1, events(2, 3))
            assert await store.count_open_games(moved_since=1_000_150) == 1
            assert await store.count_open_games(moved_since=1_000_150, creator="198.51.100.7") == 1
            assert await store.read("g-0000000001") == events(1, 1, None) + events(2, 3)
            assert (await store.get_game("g-0000000001")).head == 3

        self.using(tmp_path, body)

    def test_snapshots_newest_at_or_before_a_seq(self, tmp_path):
        """Issue 12, finding 5: the store keeps snapshots beside the log, the newest at or before a seq."""

        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            assert await store.get_snapshot("g-0000000001", 1000) is None
            await store.put_snapshot("g-0000000001", 256, '{"a":1}')
            await store.put_snapshot("g-0000000001", 512, '{"a":2}')
            assert await store.get_snapshot("g-0000000001", 255) is None
            assert await store.get_snapshot("g-0000000001", 256) == (256, '{"a":1}')
            assert await store.get_snapshot("g-0000000001", 511) == (256, '{"a":1}')
            assert await store.get_snapshot("g-0000000001", 10**6) == (512, '{"a":2}')
            # Check a snapshot written again at the same seq replaces the old one (a rebuilt cache).
            await store.put_snapshot("g-0000000001", 512, '{"a":3}')
            assert await store.get_snapshot("g-0000000001", 512) == (512, '{"a":3}')
            with pytest.raises(UnknownGame):
                await store.put_snapshot("g-nope", 256, "{}")

        self.using(tmp_path, body)

    def test_chat_is_numbered_per_game_and_read_per_channel(self, tmp_path):
        """Issue 18: chat lines in a table of their own, numbered from 1 per game over both channels,
        the newest ``limit`` of one channel read back oldest first; the log is untouched."""

        async def body(store: Store):
            await store.create_game(meta("g-0000000001"), events(1, 1, None))
            await store.create_game(meta("g-0000000002"), events(1, 1, None))
            at = "2026-12-01T12:00:00.000000Z"
            # Check the counter is per game, and shared by the game's two channels.
            said = [await store.add_chat("g-0000000001", "seats", "red", "hi", at, cap=100),
                    await store.add_chat("g-0000000001", "spectators", "spectator", "go red", at, cap=100),
                    await store.add_chat("g-0000000001", "seats", "blue", "hello", at, cap=100),
                    await store.add_chat("g-0000000002", "seats", "red", "other game", at, cap=100)]
            assert [(line.game_id, line.n) for line in said] == [
                ("g-0000000001", 1), ("g-0000000001", 2), ("g-0000000001", 3), ("g-0000000002", 1)]
            assert said[0] == ChatLine("g-0000000001", 1, "seats", "red", "hi", at)
            # Check a channel reads only its own lines, the newest first cut at the limit, oldest first.
            assert await store.read_chat("g-0000000001", "seats", 10) == [said[0], said[2]]
            assert await store.read_chat("g-0000000001", "seats", 1) == [said[2]]
            assert await store.read_chat("g-0000000001", "spectators", 10) == [said[1]]
            assert await store.read_chat("g-0000000002", "spectators", 10) == []
            # Check one line reads back by its number (a notification from another process names it).
            assert await store.chat_line("g-0000000001", 2) == said[1]
            assert await store.chat_line("g-0000000001", 4) is None
            # Check the log and the head do not move: chat is never an event.
            assert await store.read("g-0000000001") == events(1, 1, None)
            assert (await store.get_game("g-0000000001")).head == 1
            # Check an unknown game is UnknownGame both ways.
            with pytest.raises(UnknownGame):
                await store.add_chat("g-nope", "seats", "red", "x", at, cap=100)
            with pytest.raises(UnknownGame):
                await store.read_chat("g-nope", "seats", 10)

        self.using(tmp_path, body)

    def test_chat_keeps_at_most_cap_lines_per_game_and_channel(self, tmp_path):
        """The cap is each channel's: spectators filling theirs never refuse a seat's line (gamebounds)."""

        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            at = "2026-12-01T12:00:00Z"
            for n in range(1, 4):
                assert (await store.add_chat("g-0000000001", "spectators", "spectator", f"s{n}", at, cap=3)).n == n
            # Check the spectators' cap-th line was their last: the next one is not kept (None).
            assert await store.add_chat("g-0000000001", "spectators", "spectator", "s4", at, cap=3) is None
            # Check the seats' channel still takes its own cap, numbered on after the spectators'.
            for n in range(4, 7):
                assert (await store.add_chat("g-0000000001", "seats", "red", f"m{n}", at, cap=3)).n == n
            assert await store.add_chat("g-0000000001", "seats", "blue", "m7", at, cap=3) is None
            assert [line.text for line in await store.read_chat("g-0000000001", "seats", 10)] == ["m4", "m5", "m6"]
            assert [line.text for line in await store.read_chat("g-0000000001", "spectators", 10)] == [
                "s1", "s2", "s3"]

        self.using(tmp_path, body)

    def test_chat_lines_added_at_once_get_distinct_numbers(self, tmp_path):
        async def body(store: Store):
            await store.create_game(meta(), events(1, 1, None))
            at = "2026-12-01T12:00:00Z"
            lines = await asyncio.gather(*(store.add_chat("g-0000000001", "seats", "red", f"m{i}", at, cap=100)
                                           for i in range(12)))
            assert sorted(line.n for line in lines) == list(range(1, 13))
            assert len(await store.read_chat("g-0000000001", "seats", 100)) == 12

        self.using(tmp_path, body)

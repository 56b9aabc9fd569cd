"""``GET /api/games/{id}/log`` made once (``server/logs.py``).

A stranger may ask for any game's log as often as he likes; before, every request decoded and
redacted every envelope again (~1.4 s of server CPU for 10,000 events). These tests check that
the lines are still exactly every envelope as a spectator may see it (``Game.visible``: sealed
Gloomhaven picks redacted while the game runs, everything public once it is over, each envelope
under the rules version in force at it, CORE-3), however the log grew between requests, and that
each line is made once per game however many ask, within a bounded memory, without holding the
event loop.
"""

from __future__ import annotations

import asyncio
import json
import threading
import urllib.request
from typing import Any

import pytest

import events.games
from events.dice import local_secret
from events.game import _PARTS, Game, GameStarted, RulesVersionChanged, stamped
from events.log import Table
from server import frames, logs, scenarios
from server.logs import LogCache
from server.store import GameMeta, Stored, StoreError
from server.store.sqlite import SqliteStore
from tests.server_fixture import random_table, seeded_game

AT = "2026-12-01T00:00:00.000000Z"


def played(name: str, scenario: str, seed: int, envelopes: int, version: str | None = None,
           move_at: int | None = None) -> Table:
    """A Table of ``name`` played by random legal commands up to ``envelopes`` (or its end); with
    ``move_at``, moved to the newest rules version once it holds that many (RulesVersionChanged)."""
    _, data = scenarios.load(scenario)
    return random_table(events.games.load(name, version), f"g-{name[:4]}{seed:06d}", data, local_secret(seed), seed,
                        envelopes, AT, move_at=move_at)


def spectators_log(table: Table, upto: int, over: bool, game: Any = None) -> bytes:
    """The spectator's JSON Lines of ``table``'s first ``upto`` envelopes, from the Table itself:
    each through the version in force at it (GameStarted's, then each RulesVersionChanged's) of
    ``game``'s versions (default: the released game of that name)."""
    rules = (game or events.games.load(table.game.name)).version(table.envelopes[0].event.rules_version)
    lines = []
    for envelope in table.envelopes[:upto]:
        if isinstance(envelope.event, RulesVersionChanged):
            rules = rules.version(envelope.event.to_version)
        visible = rules.visible(envelope, None, over)
        if visible is not None:
            lines.append(frames.encode_envelope(visible) + "\n")
    return "".join(lines).encode()


def meta_of(table: Table) -> GameMeta:
    return GameMeta(table.game_id, table.game.name, "a test", ("red", "blue"), {}, AT)


def rows(table: Table, first: int, last: int) -> list[Stored]:
    return [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in table.envelopes[first - 1:last]]


@pytest.fixture
def store(tmp_path):
    async def opened():
        store = SqliteStore(tmp_path / "logs.db")
        await store.open()
        return store

    return opened


def grown(store_opener, table: Table, steps: list[int], cache: LogCache, over_at_end: bool = False,
          game: Any = None) -> list:
    """Store ``table`` in ``steps`` (heads), asking ``cache`` for its log after each: (head, over, answer, made).
    ``game``: the rules the route would pass (default: the released game the store names)."""
    async def main():
        store = await store_opener()
        try:
            answers, head = [], 0
            for step in steps:
                if head == 0:
                    await store.create_game(meta_of(table), rows(table, 1, step))
                else:
                    over = over_at_end and step == table.seq
                    await store.append(table.game_id, head, rows(table, head + 1, step), over=over)
                head = step
                meta = await store.get_game(table.game_id)
                chunks = await cache.lines(store, meta, game or events.games.load(meta.rules))
                answers.append((head, meta.over, b"".join(chunks), cache.made))
            return answers
        finally:
            await store.close()

    return asyncio.run(main())


@pytest.mark.parametrize("name, scenario", [
    ("mecha", "mecha/sample"), ("arkham", "arkham/crossing"), ("echo", "echo/first-case"),
    ("skirmish", "skirmish/courtyard"), ("gloomhaven", "gloomhaven/barrow"),
])
def test_core_3_the_log_is_every_envelope_as_a_spectator_sees_it_as_it_grows(store, name, scenario):
    table = played(name, scenario, 5, 400)
    steps = sorted({1, 2, 3, 40, 41, 250, table.seq} & set(range(1, table.seq + 1)))
    cache = LogCache()
    for head, over, answer, _made in grown(store, table, steps, cache):
        assert answer == spectators_log(table, head, over), (name, head)
    assert cache.made == table.seq  # each envelope made once, whatever the steps


def test_gh_c2_sealed_picks_are_redacted_while_it_runs_and_public_once_it_is_over(store):
    table = played("gloomhaven", "gloomhaven/barrow", 8, 5000)
    assert table.game.is_over(table.state), "the sample game should end well within 5,000 envelopes"
    cache = LogCache()
    middle = table.seq // 2
    (_, running, during, made_during), (_, over, after, made_after) = grown(
        store, table, [middle, table.seq], cache, over_at_end=True)
    assert not running and over
    assert during == spectators_log(table, middle, False) and after == spectators_log(table, table.seq, True)
    sealed = [json.loads(line) for line in during.decode().splitlines() if json.loads(line)["type"] == "CardsSelected"]
    assert sealed and all(line["data"]["cards"] == [] and line["command"] is None for line in sealed)
    assert middle < after.count(b"\n") and b'"cards":[]' not in after
    # Check the end makes the whole log again, once: every line is public now.
    assert made_during == middle and made_after == middle + table.seq


def versions_that_differ() -> Any:
    """A made-up game of two versions on mecha's parts, whose spectators see every command under the
    first and none under the second (every Gloomhaven version hides the same things, and the other
    games hide nothing, so only such a pair tells which version a line was made under)."""
    mecha = events.games.load("mecha")
    parts = {name: getattr(mecha, name) for name in _PARTS}  # as Game.revised copies them
    parts.update(decide=mecha.rules_decide, start=stamped(mecha.start, "made-up-1"))
    first = Game("mecha", "made-up-1", **parts)
    commands = mecha.commands.by_type
    return first.revised("made-up-2", visibility=lambda event: None if isinstance(event, GameStarted) else ("red",),
                         redact=lambda record: None if record.TYPE in commands else record)


def test_core_3_each_line_under_the_rules_version_in_force_at_it(store):
    newest = versions_that_differ()
    table = random_table(newest.versions()[0], "g-madeup0001", scenarios.load("mecha/sample")[1], local_secret(9), 9,
                         120, AT, move_at=30)
    moved = [e.seq for e in table.envelopes if isinstance(e.event, RulesVersionChanged)]
    assert moved, "the game should have moved to its newer version"
    cache = LogCache()
    steps = [moved[0] - 1, moved[0], moved[0] + 5, table.seq]
    for head, over, answer, _made in grown(store, table, steps, cache, game=newest):
        assert answer == spectators_log(table, head, over, newest)
    lines = [json.loads(line) for line in answer.decode().splitlines()]
    # Check both versions showed: commands in full before the move, withheld after it.
    before, after = lines[1:moved[0] - 1], lines[moved[0]:]
    assert before and all(line["command"] is not None for line in before if line["command_id"])
    assert after and all(line["command"] is None for line in after)


def test_the_log_is_made_once_however_many_ask_at_once(store):
    table = played("gloomhaven", "gloomhaven/barrow", 4, 200)
    cache = LogCache()

    async def main():
        opened = await store()
        try:
            await opened.create_game(meta_of(table), rows(table, 1, table.seq))
            meta = await opened.get_game(table.game_id)
            game = events.games.load(meta.rules)
            answers = await asyncio.gather(*(cache.lines(opened, meta, game) for _ in range(20)))
            again = await cache.lines(opened, meta, game)
            return {b"".join(chunks) for chunks in answers + [again]}
        finally:
            await opened.close()

    answers = asyncio.run(main())
    assert answers == {spectators_log(table, table.seq, False)}
    assert cache.made == table.seq


class CountedStore(SqliteStore):
    """The real store, counting the reads it has answered; its ``fail_at``-th read fails, as a disk
    or a lost connection would (0: none)."""

    answered, reads, fail_at = 0, 0, 0

    async def read(self, *args, **kwargs):
        self.reads += 1
        if self.reads == self.fail_at:
            raise StoreError(f"{self.path}: the read failed (read {self.reads} of the test)")
        rows = await super().read(*args, **kwargs)
        self.answered += 1
        return rows


async def stored(path, table: Table) -> tuple:
    """A CountedStore at ``path`` holding ``table``'s whole log, open, and the game's meta."""
    store = CountedStore(path)
    await store.open()
    await store.create_game(meta_of(table), rows(table, 1, table.seq))
    return store, await store.get_game(table.game_id)


def count_decodes(monkeypatch) -> list:
    """The server's envelope decoder, the real one, each call counted in the list returned."""
    decode, decoded = frames.decode_envelope, []

    def counted(game, text):
        decoded.append(1)
        return decode(game, text)

    monkeypatch.setattr(frames, "decode_envelope", counted)
    return decoded


def test_the_log_is_made_in_slices_with_the_loop_running_between(tmp_path, monkeypatch):
    monkeypatch.setattr(logs, "SLICE", 50)
    table = played("mecha", "mecha/sample", 3, 1000)
    cache = LogCache()

    async def main():
        store, meta = await stored(tmp_path / "slices.db", table)
        try:
            answered, ticks, done = store.answered, [], asyncio.Event()

            async def ticker():
                while not done.is_set():
                    ticks.append(store.answered - answered)
                    await asyncio.sleep(0)

            ticking = asyncio.ensure_future(ticker())
            await asyncio.sleep(0)
            await cache.lines(store, meta, events.games.load(meta.rules))
            done.set()
            await ticking
            return ticks
        finally:
            await store.close()

    ticks = asyncio.run(main())
    # Check the ticker ran between the slices made after the log's one read (PAGE > its length).
    assert ticks.count(1) >= table.seq // 50 - 1


def test_the_lines_kept_stay_within_the_budget(store):
    first, second = played("mecha", "mecha/sample", 1, 300), played("mecha", "mecha/sample", 2, 300)
    longer = played("mecha", "mecha/sample", 3, 900)
    size = len(spectators_log(first, first.seq, False))
    cache = LogCache(budget=size + size // 2)  # room for one of the short logs, not two, nor the long one

    async def main():
        opened = await store()
        try:
            for table in (first, second, longer):
                await opened.create_game(meta_of(table), rows(table, 1, table.seq))
            out = []
            for table in (first, second, first, longer, first):
                meta = await opened.get_game(table.game_id)
                out.append((b"".join(await cache.lines(opened, meta, events.games.load(meta.rules))), cache.size, cache.made))
            return out
        finally:
            await opened.close()

    answers = asyncio.run(main())
    for (answer, size_now, _), table in zip(answers, (first, second, first, longer, first)):
        assert answer == spectators_log(table, table.seq, False) and size_now <= cache.budget
    made = [made for _, _, made in answers]
    # The second log pushed the first out, so the first was made again; the long one, longer than
    # the whole budget, was answered and not kept, and pushed nothing out: the first was still there.
    assert made == [first.seq, first.seq + second.seq, 2 * first.seq + second.seq,
                    2 * first.seq + second.seq + longer.seq, 2 * first.seq + second.seq + longer.seq]
    assert len(spectators_log(longer, longer.seq, False)) > cache.budget


def test_a_store_that_fails_midway_is_said_and_the_whole_lines_made_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(logs, "PAGE", 100)
    table = played("mecha", "mecha/sample", 6, 500)
    cache = LogCache()

    async def main():
        store, meta = await stored(tmp_path / "fails.db", table)
        try:
            game = events.games.load(meta.rules)
            store.fail_at = 3  # the third page of 100
            with pytest.raises(StoreError):
                await cache.lines(store, meta, game)
            failed = (cache.made, cache.size)
            answer = b"".join(await cache.lines(store, meta, game))
            return failed, answer
        finally:
            await store.close()

    (made_before, size_before), answer = asyncio.run(main())
    # Check the two pages read before the failure were kept, and only the rest was made after.
    assert made_before == 200 and size_before == len(spectators_log(table, 200, False))
    assert answer == spectators_log(table, table.seq, False) and cache.made == table.seq


def test_a_game_that_hides_nothing_or_is_over_goes_out_as_stored_without_a_decode(store, monkeypatch):
    decoded = count_decodes(monkeypatch)
    plain, hiding = played("mecha", "mecha/sample", 2, 300), played("gloomhaven", "gloomhaven/barrow", 2, 5000)
    middle = hiding.seq // 2
    made = {}
    for table, steps, over in ((plain, [plain.seq], False), (hiding, [middle, hiding.seq], True)):
        before = len(decoded)
        answers = grown(store, table, steps, LogCache(), over_at_end=over)
        made[table.game.name] = len(decoded) - before
        for head, is_over, answer, _made in answers:
            assert answer == spectators_log(table, head, is_over)
    # Check mecha's lines were its stored envelopes as they are; Gloomhaven's decoded while it ran
    # (its sealed picks), not once it was over (all public).
    assert made == {"mecha": 0, "gloomhaven": middle}


def test_a_log_longer_than_the_budget_is_made_once_for_everybody_asking_at_once(store):
    table = played("mecha", "mecha/sample", 5, 1000)
    cache = LogCache(budget=1000)

    async def main():
        opened = await store()
        try:
            await opened.create_game(meta_of(table), rows(table, 1, table.seq))
            meta = await opened.get_game(table.game_id)
            answers = await asyncio.gather(*(cache.lines(opened, meta, events.games.load(meta.rules)) for _ in range(8)))
            return {b"".join(chunks) for chunks in answers}
        finally:
            await opened.close()

    assert asyncio.run(main()) == {spectators_log(table, table.seq, False)}
    assert cache.made == table.seq and cache.size == 0  # made once, for all eight, and not kept


def test_an_older_meta_of_a_running_game_is_served_the_public_log_of_its_end(store):
    table = played("gloomhaven", "gloomhaven/barrow", 8, 5000)
    cache = LogCache()

    async def main():
        opened = await store()
        try:
            await opened.create_game(meta_of(table), rows(table, 1, table.seq - 1))
            running = await opened.get_game(table.game_id)
            await opened.append(table.game_id, table.seq - 1, rows(table, table.seq, table.seq), over=True)
            over = await opened.get_game(table.game_id)
            game = events.games.load(over.rules)
            answers = [b"".join(await cache.lines(opened, meta, game)) for meta in (over, running, over, running)]
            return answers
        finally:
            await opened.close()

    answers = asyncio.run(main())
    # A game never stops being over: a request that read the meta before the end gets the end's log.
    assert set(answers) == {spectators_log(table, table.seq, True)} and cache.made == table.seq


def test_a_flood_of_log_requests_makes_each_line_once(chronicle_server):
    game = seeded_game(chronicle_server, "mecha/sample", 12, envelopes=2000)
    url = f"{chronicle_server.base_url}/api/games/{game['game']}/log"
    bodies, failures = [], []

    def ask():
        try:
            for _ in range(3):
                with urllib.request.urlopen(url, timeout=30) as response:
                    assert response.headers["content-type"] == "application/x-ndjson"
                    assert int(response.headers["content-length"]) == len(body := response.read())
                    bodies.append(body)
        except Exception as error:  # noqa: BLE001 - reported below, with the others
            failures.append(error)

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert not failures and len(bodies) == 24 and len(set(bodies)) == 1
    lines = [json.loads(line) for line in bodies[0].decode().splitlines()]
    assert len(lines) >= 2000 and [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    with urllib.request.urlopen(f"{chronicle_server.base_url}/metrics", timeout=10) as response:
        metrics = response.read().decode()
    made = [line for line in metrics.splitlines() if line.startswith("chronicle_log_lines_made_total ")]
    assert made == [f"chronicle_log_lines_made_total {len(lines)}.0"]

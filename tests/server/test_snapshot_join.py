"""A long game joined from a snapshot (issue 16, docs/protocol.md "Joining from a snapshot").

``hello`` with ``"snapshot": true`` and ``since`` 0 gets the ``snapshot`` frame (the state in memory,
or the newest stored one when that holds a secret; its logged hash; the log's first frame), the
``events`` frames after it, then the frames before it in ``history`` frames; what the page does with them is ``events/snapshot.py`` and ``events.log.Table.from_snapshot``,
run here in CPython as the browser runs them.
"""

from __future__ import annotations

import asyncio
import json

import pytest

import events.games
from events.canonical import record_json, state_hash
from events.log import ELIDED, Table
from events.record import DecodeError
from events.snapshot import SnapshotError, decode_snapshot
from events.wire import frame_envelopes, hash_matches
from server.snapshots import SNAPSHOT_EVERY
from tests.server.client import TIMEOUT, Client, run
from tests.server_fixture import seeded_game

pytestmark = pytest.mark.server

ENVELOPES = SNAPSHOT_EVERY + 40  # a long game: joined from a snapshot


async def _join(ws_url: str, game_id: str, token: str | None = None, since: int = 0) -> tuple[dict, list]:
    """hello with snapshot true; the welcome and every frame up to the last history frame (or the head)."""
    client = await Client.connect(ws_url, game_id)
    await client.send({"type": "hello", "since": since, "token": token, "snapshot": True})
    welcome = json.loads(await asyncio.wait_for(client.socket.recv(), TIMEOUT))
    assert welcome["type"] == "welcome", welcome
    frames: list = []
    while True:
        try:
            frames.append(json.loads(await asyncio.wait_for(client.socket.recv(), 2.0)))
        except TimeoutError:
            return welcome, frames


def _split(frames: list) -> tuple:
    snapshot = [frame for frame in frames if type(frame) is dict and frame["type"] == "snapshot"]
    tail = [frame for frame in frames if type(frame) is list]  # events frames
    history = [inner for frame in frames if type(frame) is dict and frame["type"] == "history"
               for inner in frame["frames"]]
    return snapshot, tail, history


def test_core_snapshot_join_starts_at_the_head_and_sends_the_history_after(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 5, envelopes=ENVELOPES)
    game_id = created["game"]
    seat, link = next(iter(created["seats"].items()))
    game = events.games.load("mecha")
    for token in (None, link["token"]):  # a spectator, then a seat: each as it may see the log
        welcome, frames = run(_join(shared_server.ws_url, game_id, token))
        head = welcome["head"]
        snapshot, tail, history = _split(frames)
        # Check the order: the snapshot of the state in memory (mecha hides nothing), then the history.
        assert [frame["type"] for frame in frames] == ["snapshot"] + ["history"] * (len(frames) - 1)
        assert snapshot[0]["seq"] == head and tail == []
        # Check the page's step: the snapshot decoded and its hash recomputed.
        started, seq, state, logged = decode_snapshot(game, game_id, snapshot[0])
        table = Table.from_snapshot(game, game_id, started, seq, state)
        assert table.envelopes[1] is ELIDED and table.seq == seq == head
        assert logged == json.loads(_get(shared_server, f"/api/games/{game_id}/state"))["hash"]
        # Check the history: every envelope from 1 to the snapshot, folding to the snapshot's hash.
        whole = Table(game, game_id)
        for frame in history:
            for envelope in frame_envelopes(game, game_id, frame, welcome["started"], seats=welcome["seats"]):
                whole.absorb(envelope, verify=False)
                assert envelope.hash is None or hash_matches(state_hash(whole.state), envelope.hash)
        assert whole.seq == seq and state_hash(whole.state) == logged
        assert welcome["seat"] == (seat if token else None)


def _get(server, path: str) -> str:
    import urllib.request

    with urllib.request.urlopen(server.base_url + path, timeout=TIMEOUT) as response:
        return response.read().decode()


def test_core_snapshot_join_refuses_a_state_that_does_not_hash_to_the_logged_hash(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 6, envelopes=SNAPSHOT_EVERY + 10)
    game = events.games.load("mecha")
    welcome, frames = run(_join(shared_server.ws_url, created["game"]))
    snapshot = _split(frames)[0][0]
    forged = dict(snapshot, state=dict(snapshot["state"], round=snapshot["state"]["round"] + 1))
    head = snapshot["seq"]
    with pytest.raises(SnapshotError, match=f"the snapshot at seq {head} does not match its logged hash"):
        decode_snapshot(game, created["game"], forged)
    with pytest.raises(DecodeError, match=r"\$\.state\.type: unknown state type 'Nothing'"):
        decode_snapshot(game, created["game"], dict(snapshot, state=dict(snapshot["state"], type="Nothing")))
    with pytest.raises(DecodeError, match=r"\$\.start\[2\]\[4\]: event '\w+' has \d+ fields .*, got 2 values"):
        start = [*snapshot["start"][:2], [None, None, None, None, [1, None, {}]]]
        decode_snapshot(game, created["game"], dict(snapshot, start=start))
    with pytest.raises(DecodeError, match=r"\$: snapshot frame has unknown field 'extra'"):
        decode_snapshot(game, created["game"], dict(snapshot, extra=1))


def test_core_snapshot_join_hello_field_is_a_boolean(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 8)

    async def body() -> tuple:
        client = await Client.connect(shared_server.ws_url, created["game"])
        await client.send({"type": "hello", "since": 0, "snapshot": "yes"})
        refused = json.loads(await asyncio.wait_for(client.socket.recv(), TIMEOUT))
        await client.send({"type": "hello", "since": 0, "snapshot": True})  # the socket stayed up
        welcome = json.loads(await asyncio.wait_for(client.socket.recv(), TIMEOUT))
        first = json.loads(await asyncio.wait_for(client.socket.recv(), TIMEOUT))
        return refused, welcome, first

    refused, welcome, first = run(body())
    assert refused["code"] == "bad-frame" and "$.snapshot" in refused["message"]
    assert welcome["type"] == "welcome"
    assert type(first) is list and first[0] == 1  # an events frame: a short game has no snapshot, the whole log


def test_gh_c2_a_snapshot_join_tells_a_viewer_nothing_its_own_fold_would_not(tmp_path):
    """GH-C2: picks are sealed until the reveal. With a pick sealed in the state in memory, a join
    starts from the newest stored snapshot (none holds a secret) and gets the frames after it as
    that viewer (a spectator, each seat) gets them; the snapshot's state is the one the viewer's own
    fold reaches there. A stored snapshot that does not hash to its logged hash is never sent.
    (In process: random play of the barrow reaches no sealed pick past seq 256, so the Room joins
    from seq 8 here.)"""
    from events.bots import random_step
    from events.dice import local_secret
    from events.rng import Rng
    from server import frames as server_frames
    from server.room import Room, now
    from server.scenarios import load
    from server.snapshots import encode_state, holds_hidden
    from server.store import GameMeta, Stored
    from server.store.sqlite import SqliteStore

    game = events.games.load("gloomhaven")
    _, scenario = load("gloomhaven/barrow")
    table = Table.create(game, "g-sealed000", scenario, local_secret(15), at=now())
    picker = Rng(15)
    while not holds_hidden(table.state) or table.seq < 20:  # the second round's first pick: sealed
        step = random_step(game, table.state, picker)
        table.submit(step[0], step[1], f"c-{table.seq + 1}", at=now())
    head = table.seq
    base = max(seq for seq in range(2, head) if not holds_hidden(Table.restore(game, "g", table.envelopes[:seq]).state))

    async def main() -> list:
        store = SqliteStore(tmp_path / "store.db")
        await store.open()
        await store.create_game(GameMeta("g-sealed000", "gloomhaven", "t", tuple(game.seats(table.state)), {}, now()),
                                [Stored(e.seq, e.command_id, server_frames.encode_envelope(e)) for e in table.envelopes])
        restored = Table.restore(game, "g-sealed000", table.envelopes[:base])
        await store.put_snapshot("g-sealed000", base, encode_state(restored.state))
        room = await Room.load(store, "g-sealed000")
        room.join_from = 8
        joins = [(seat, await room._snapshot_join(seat)) for seat in (None, *game.seats(table.state))]
        earlier = Table.restore(game, "g-sealed000", table.envelopes[: base - 1]).state
        await store.put_snapshot("g-sealed000", base, encode_state(earlier))  # forged: another seq's state
        joins.append(("forged", await room._snapshot_join(None)))
        await store.close()
        return joins

    joins = run(main())
    assert joins.pop() == ("forged", None)
    for seat, (sent, seq) in joins:
        snapshot = json.loads(sent[0])
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == seq == base < head
        started, seq, state, logged = decode_snapshot(game, "g-sealed000", snapshot)
        # Check: the tail as this viewer sees it, folded on the snapshot, reaches the head's hash.
        mine = Table.from_snapshot(game, "g-sealed000", started, seq, state)
        for text in sent[1:]:
            for envelope in frame_envelopes(game, "g-sealed000", json.loads(text), started.at,
                                            seats=started.event.seats):
                mine.absorb(envelope, verify=False)
                assert envelope.hash is None or hash_matches(state_hash(mine.state), envelope.hash)
        assert mine.seq == head and state_hash(mine.state) == table.envelopes[-1].hash
        last = table.envelopes[-1]
        sealed_for_me = game.visible(last, seat) is not last
        assert (mine.envelopes[-1].command is None) == sealed_for_me  # the pick's command: only its own seat's
        # Check: the snapshot is what this viewer's own fold of what it may see reaches at its seq.
        own = Table(game, "g-sealed000")
        for envelope in table.envelopes[:seq]:
            own.absorb(game.visible(envelope, seat), verify=False)
        assert json.loads(record_json(own.state)) == snapshot["state"] and state_hash(own.state) == logged
    assert any(game.visible(table.envelopes[-1], seat) is not table.envelopes[-1] for seat, _ in joins)

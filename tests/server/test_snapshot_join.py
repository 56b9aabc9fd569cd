"""A long game joined from its newest snapshot (issue 16, docs/protocol.md "Joining from a snapshot").

``hello`` with ``"snapshot": true`` and ``since`` 0 gets the ``snapshot`` frame (the state, its logged
hash, the log's first frame), the ``events`` frames after it, then the frames before it in
``history`` frames; what the page does with them is ``events/snapshot.py`` and ``events.log.Table.from_snapshot``,
run here in CPython as the browser runs them.
"""

from __future__ import annotations

import asyncio
import json

import pytest

import events.games
from events.canonical import state_hash
from events.log import ELIDED, Table
from events.record import DecodeError
from events.snapshot import SnapshotError, decode_snapshot
from events.wire import frame_envelopes
from server.snapshots import SNAPSHOT_EVERY
from tests.server.client import TIMEOUT, Client, run
from tests.server_fixture import _run_apart, seeded_game

pytestmark = pytest.mark.server

ENVELOPES = 2 * SNAPSHOT_EVERY + 40  # snapshots at 256 and 512, and a tail after the newest


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
    snapshot = [frame for frame in frames if frame["type"] == "snapshot"]
    tail = [frame for frame in frames if frame["type"] == "events"]
    history = [inner for frame in frames if frame["type"] == "history" for inner in frame["frames"]]
    return snapshot, tail, history


def test_core_snapshot_join_folds_the_tail_on_the_snapshot_and_sends_the_history_after(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 5, envelopes=ENVELOPES)
    game_id = created["game"]
    seat, link = next(iter(created["seats"].items()))
    game = events.games.load("mecha")
    for token in (None, link["token"]):  # a spectator, then a seat: each as it may see the log
        welcome, frames = run(_join(shared_server.ws_url, game_id, token))
        head = welcome["head"]
        snapshot, tail, history = _split(frames)
        # Check the order: the snapshot first, then the frames after it, then the history.
        assert [frame["type"] for frame in frames][0] == "snapshot"
        assert frames.index(snapshot[0]) < frames.index(tail[0]) < [f["type"] for f in frames].index("history")
        assert len(snapshot) == 1 and snapshot[0]["seq"] == 2 * SNAPSHOT_EVERY
        # Check the page's step: the snapshot decoded, its hash recomputed, the tail folded on it.
        started, seq, state, logged = decode_snapshot(game, game_id, snapshot[0])
        table = Table.from_snapshot(game, game_id, started, seq, state)
        assert table.envelopes[1] is ELIDED and table.seq == seq
        for frame in tail:
            for envelope in frame_envelopes(game, game_id, frame):
                table.absorb(envelope, verify=envelope.hash is not None)
        assert table.seq == head and state_hash(table.state) == tail[-1]["hash"]
        # Check the history: every envelope from 1 to the snapshot, folding to the snapshot's hash.
        whole = Table(game, game_id)
        for frame in history:
            for envelope in frame_envelopes(game, game_id, frame):
                whole.absorb(envelope, verify=envelope.hash is not None)
        assert whole.seq == seq and state_hash(whole.state) == logged
        assert welcome["seat"] == (seat if token else None)


def test_core_snapshot_join_refuses_a_state_that_does_not_hash_to_the_logged_hash(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 6, envelopes=SNAPSHOT_EVERY + 10)
    game = events.games.load("mecha")
    welcome, frames = run(_join(shared_server.ws_url, created["game"]))
    snapshot = _split(frames)[0][0]
    forged = dict(snapshot, state=dict(snapshot["state"], round=snapshot["state"]["round"] + 1))
    with pytest.raises(SnapshotError, match=f"the snapshot at seq {SNAPSHOT_EVERY} does not match its logged hash"):
        decode_snapshot(game, created["game"], forged)
    with pytest.raises(DecodeError, match=r"\$\.state\.type: unknown state type 'Nothing'"):
        decode_snapshot(game, created["game"], dict(snapshot, state=dict(snapshot["state"], type="Nothing")))
    with pytest.raises(DecodeError, match=r"\$\.start\.runs\[0\]\[4\]\[0\]\[0\]: expected a string"):
        start = dict(snapshot["start"], runs=[[None, None, None, None, [[1, None, {}]]]])
        decode_snapshot(game, created["game"], dict(snapshot, start=start))
    with pytest.raises(DecodeError, match=r"\$: snapshot frame has unknown field 'extra'"):
        decode_snapshot(game, created["game"], dict(snapshot, extra=1))


def test_core_snapshot_join_not_offered_from_a_forged_snapshot_nor_past_since(shared_server):
    created = seeded_game(shared_server, "mecha/sample", 7, envelopes=SNAPSHOT_EVERY + 10)
    game_id = created["game"]
    welcome, frames = run(_join(shared_server.ws_url, game_id))  # the Room loads: its snapshot at 256 is written
    head = welcome["head"]
    assert frames[0]["type"] == "snapshot"

    async def forge() -> None:  # a snapshot at the head whose text is not the state logged there
        from server.store.sqlite import SqliteStore

        store = SqliteStore(shared_server.db_path)
        await store.open()
        try:
            await store.put_snapshot(game_id, head, json.dumps(frames[0]["state"], sort_keys=True))
        finally:
            await store.close()

    _run_apart(forge)
    welcome, frames = run(_join(shared_server.ws_url, game_id))
    assert [frame["type"] for frame in frames] == ["events"] * len(frames) and frames[0]["seq"] == 1
    # A client that holds some of the log gets what follows it, never a snapshot.
    welcome, frames = run(_join(shared_server.ws_url, game_id, since=3))
    assert frames[0]["type"] == "events" and frames[0]["seq"] == 4


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
    assert first["type"] == "events" and first["seq"] == 1  # a short game has no snapshot: the whole log

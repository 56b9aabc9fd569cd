"""Issue 12, finding 5: reads of a long game cost at most SNAPSHOT_EVERY folds.

Before: every ``/api/games/{id}/state?seq=`` replayed the whole log (0.93 s of event loop on a
9,253-event game) and so did a Room's first load. Now the store keeps the state at every
SNAPSHOT_EVERY-th seq (server/snapshots.py): a read folds only from the newest snapshot at or
before its seq, a Room loads from the newest one plus the tail. The server counts its folds
(``chronicle_folds_total`` on /metrics): the test counts them, it does not time them. A snapshot
is a cache: one tampered with in the SQLite file, or deleted, is noticed against the logged hash,
the state comes from the log, and the snapshot is written again.
"""

from __future__ import annotations

import asyncio
import random
import re
import sqlite3
import urllib.request

import pytest

from server import scenarios
from server.snapshots import SNAPSHOT_EVERY
from tests.reliability import report
from tests.reliability.players import http_json
from tests.server.client import Client, run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

EVENTS = report.count(3000, 9300)
READS = report.count(24, 200)


def folds(base_url: str, reason: str) -> int:
    with urllib.request.urlopen(f"{base_url}/metrics", timeout=10) as response:
        text = response.read().decode()
    found = re.search(r'^chronicle_folds_total\{reason="' + reason + r'"\} ([0-9.e+]+)$', text, re.M)
    if found is None:  # the counter appears with the first fold of its kind
        assert "chronicle_folds_total" in text, "the server does not count its folds"
        return 0
    return int(float(found.group(1)))


def long_game(server) -> tuple[str, list[dict]]:
    """A mecha game of EVENTS events (two seats passing: two events a turn), played through the server."""
    _, scenario = scenarios.load("mecha/sample")
    scenario["rounds"] = EVENTS // 4 + 10
    game = create_game(server.base_url, scenario)

    async def main():
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await Client.join(server.ws_url, game["game"], game["seats"]["blue"]["token"])
        number = 0
        while red.head < EVENTS:
            for seat in (red, blue):
                number += 1
                answer = await seat.command(f"p-{number}", "Pass")
                assert answer["type"] == "ack", answer
        await blue.events_until(red.head)
        await red.close()
        await blue.close()

    run(main(), 300)
    status, log = http_json(f"{server.base_url}/api/games/{game['game']}/log")
    assert status == 200 and len(log) >= EVENTS
    return game["game"], log


def test_state_at_any_seq_and_a_room_load_fold_at_most_k_events(quiet_server):
    server = quiet_server
    game_id, log = long_game(server)
    head = len(log)
    chooser = random.Random(12)
    seqs = [1, SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1, head] + [chooser.randint(1, head)
                                                                           for _ in range(READS - 5)]
    worst = 0
    # Check: each read answers the logged hash at its seq, after at most SNAPSHOT_EVERY folds.
    for seq in seqs:
        before = folds(server.base_url, "state")
        status, body = http_json(f"{server.base_url}/api/games/{game_id}/state?seq={seq}")
        assert status == 200 and body["hash"] == log[seq - 1]["hash"], (seq, body)
        took = folds(server.base_url, "state") - before
        assert took <= SNAPSHOT_EVERY, (seq, took)
        worst = max(worst, took)
    # Check: a Room's load (nobody connected, then a spectator) folds at most SNAPSHOT_EVERY events too.
    before = folds(server.base_url, "room")

    async def watch():
        spectator = await Client.join(server.ws_url, game_id)
        assert spectator.head == head and spectator.envelopes[-1]["hash"] == log[-1]["hash"]
        await spectator.close()

    run(watch())
    room = folds(server.base_url, "room") - before
    assert room <= SNAPSHOT_EVERY, room
    # Check: a tampered snapshot and a deleted one are noticed; the answer comes from the log; the
    # snapshot is rebuilt, so the next read is cheap again.
    seq = (head // SNAPSHOT_EVERY) * SNAPSHOT_EVERY + 1
    rebuilt = []
    for damage in ("UPDATE snapshots SET state = replace(state, '\"round\":', '\"round\":1') WHERE game = ?",
                   "DELETE FROM snapshots WHERE game = ?"):
        db = sqlite3.connect(server.db_path, timeout=10)
        with db:
            changed = db.execute(damage, (game_id,)).rowcount
        db.close()
        assert changed >= head // SNAPSHOT_EVERY, (damage, changed)
        before = folds(server.base_url, "state")
        status, body = http_json(f"{server.base_url}/api/games/{game_id}/state?seq={seq}")
        assert status == 200 and body["hash"] == log[seq - 1]["hash"]
        rebuilt.append(folds(server.base_url, "state") - before)
        assert rebuilt[-1] == seq, rebuilt  # from the start of the log
        before = folds(server.base_url, "state")
        status, body = http_json(f"{server.base_url}/api/games/{game_id}/state?seq={seq}")
        assert status == 200 and body["hash"] == log[seq - 1]["hash"]
        assert folds(server.base_url, "state") - before <= 1
    report.record("reads", f"/state?seq= at random seqs of a {head:,}-event game, a Room's load of it, then its "
                  "snapshots tampered with and deleted in the SQLite file", len(seqs) + 3, len(seqs) + 3,
                  f"each the logged hash; at most {worst} folds per read and {room} for the load (K = "
                  f"{SNAPSHOT_EVERY}); the damaged snapshots fell back to the log ({rebuilt[0]:,} folds) and were "
                  "written again (the next read: 1 fold)")


def test_snapshots_are_written_while_playing(quiet_server):
    """The Room keeps the state at every multiple of SNAPSHOT_EVERY as it appends (nobody read the game)."""
    server = quiet_server
    _, scenario = scenarios.load("mecha/sample")
    scenario["rounds"] = 200
    game = create_game(server.base_url, scenario)

    async def main():
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await Client.join(server.ws_url, game["game"], game["seats"]["blue"]["token"])
        number = 0
        while red.head < 2 * SNAPSHOT_EVERY + 3:
            for seat in (red, blue):
                number += 1
                assert (await seat.command(f"w-{number}", "Pass"))["type"] == "ack"
        await red.close()
        await blue.close()

    run(main(), 120)
    asyncio.run(asyncio.sleep(0.2))
    db = sqlite3.connect(server.db_path, timeout=10)
    kept = [row[0] for row in db.execute("SELECT seq FROM snapshots WHERE game = ? ORDER BY seq", (game["game"],))]
    db.close()
    assert kept == [SNAPSHOT_EVERY, 2 * SNAPSHOT_EVERY], kept

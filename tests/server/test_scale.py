"""Two ``chronicle serve`` processes on one real PostgreSQL: one game, no owner, nothing lost.

Seats and spectators sit on different processes; every round, both seats send at the same
moment, and the seat on turn sends from both processes at once, so the two processes race for
the same seq. The loser re-reads and re-decides; each sender gets its ack or its rejection;
LISTEN/NOTIFY brings each process the other's events. At the end every client holds the same
log with the same hashes, both processes serve it, and every acknowledged command is in it
exactly once.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import urllib.request

import psycopg
import pytest

from server.scenarios import load
from tests.postgres_fixture import CliServer, postgres_database, postgres_server  # noqa: F401
from tests.server.client import Client, command_json, run
from tests.server_fixture import create_game, get_json

pytestmark = pytest.mark.server

ROUNDS = 50
RACING = {"CHRONICLE_REFUSAL_COST": "1"}


@pytest.fixture
def two_servers(tmp_path, postgres_database):  # noqa: F811
    url = postgres_database()
    # The seats race at machine speed and are refused about every other command (a stale turn): lift the
    # seats' budget of refusals (server/limits.py, refusal_cost), as tests/reliability lifts the rate.
    first = CliServer(tmp_path, url, env=RACING)
    second = CliServer(tmp_path, url, env=RACING)
    try:
        yield first.start(), second.start(), url
    finally:
        first.stop()
        second.stop()


def test_two_processes_one_game_every_client_agrees(two_servers):
    a, b, _url = two_servers
    _, scenario = load("mecha/sample")
    created = create_game(a.base_url, dict(scenario, rounds=1000))  # no end inside the test
    game_id, tokens = created["game"], {seat: link["token"] for seat, link in created["seats"].items()}
    rng = random.Random(3)

    async def main():
        # Check the seats join on different processes (red on A and, a second socket, on B; blue on B),
        # with a spectator on each.
        red_a = await Client.join(a.ws_url, game_id, tokens["red"])
        red_b = await Client.join(b.ws_url, game_id, tokens["red"])
        blue_b = await Client.join(b.ws_url, game_id, tokens["blue"])
        watch_a = await Client.join(a.ws_url, game_id)
        watch_b = await Client.join(b.ws_url, game_id)
        clients = [red_a, red_b, blue_b, watch_a, watch_b]
        senders = {"red": [red_a, red_b], "blue": [blue_b]}
        answers: dict[str, dict] = {}
        for number in range(ROUNDS):
            # Check everyone sends at the same moment: both seats, the seat on turn from both processes.
            sent = []
            for seat, sockets in senders.items():
                for index, client in enumerate(sockets):
                    if client.state.over:
                        continue
                    options = client.legal(seat) or client.game.legal(client.state, client.game.turn(client.state)[0])
                    kind, data = command_json(rng.choice(options))
                    command_id = f"r{number}-{seat}-{index}"
                    await client.send({"type": "command", "id": command_id, "command": {"type": kind, "data": data}})
                    sent.append((client, command_id))
            replies = await asyncio.gather(*(client.answer() for client, _ in sent))
            for (_, command_id), reply in zip(sent, replies):
                assert reply["type"] in ("ack", "rejected"), reply  # never silence, never a store error
                assert reply["id"] == command_id
                answers[command_id] = reply
            head = max(client.head for client in clients)
            await asyncio.gather(*(client.events_until(head) for client in clients))
        # Check every client reached the store's head, with the same envelopes (hashes folded on the way).
        _, listed = get_json(f"{a.base_url}/api/games")
        head = next(item["head"] for item in listed if item["game"] == game_id)
        await asyncio.gather(*(client.events_until(head) for client in clients))
        for client in clients:
            assert client.envelopes == red_a.envelopes
            assert client.head == head
        return red_a.envelopes, answers, [_metrics(server.base_url) for server in (a, b)]

    envelopes, answers, counted = run(main(), timeout=60)
    acks = {command_id: reply for command_id, reply in answers.items() if reply["type"] == "ack"}
    assert len(acks) >= ROUNDS  # the seat on turn always gets one of its two commands in
    assert any(reply["type"] == "rejected" for reply in answers.values())
    # Check every acknowledged command is in the log exactly once, at the seqs its ack named,
    # and no rejected command left an event.
    by_command: dict[str, list[int]] = {}
    for envelope in envelopes:
        if envelope["command_id"] is not None:
            by_command.setdefault(envelope["command_id"], []).append(envelope["seq"])
    assert set(by_command) == set(acks)
    for command_id, ack in acks.items():
        assert by_command[command_id] == list(range(ack["first"], ack["last"] + 1))
    # Check both processes serve the same log and state, and it matches what the clients folded.
    for server in (a, b):
        log = urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10).read().decode()
        assert [json.loads(line) for line in log.splitlines()] == envelopes
        status, state = get_json(f"{server.base_url}/api/games/{game_id}/state")
        assert status == 200 and state["hash"] == envelopes[-1]["hash"]
    # Check the processes raced for seqs, and counted it: conflicts, commands, rejections, latency.
    assert sum(m["chronicle_append_conflicts_total"] for m in counted) >= 1
    assert sum(m["chronicle_commands_total"] for m in counted) == len(answers)
    assert sum(m['chronicle_rejections_total{code="rejected"}'] for m in counted) == len(answers) - len(acks)
    assert sum(m["chronicle_command_broadcast_seconds_count"] for m in counted) == len(acks)
    assert sum(m["chronicle_events_followed_total"] for m in counted) >= 1
    assert all(m["chronicle_connections"] == (2 if server is a else 3) for m, server in zip(counted, (a, b)))


def test_a_process_that_missed_notifications_catches_up(two_servers):
    a, b, url = two_servers
    created = create_game(a.base_url)
    game_id, tokens = created["game"], {seat: link["token"] for seat, link in created["seats"].items()}

    async def main():
        red = await Client.join(a.ws_url, game_id, tokens["red"])
        blue = await Client.join(a.ws_url, game_id, tokens["blue"])
        watch_b = await Client.join(b.ws_url, game_id)
        # Check: cut B's LISTEN connection (as a network fault would); A keeps playing meanwhile.
        with psycopg.connect(url, autocommit=True) as db:
            cut = db.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                             "WHERE query LIKE 'LISTEN%' AND datname = current_database()").fetchall()
        assert len(cut) == 2  # one listener per process
        for number in range(6):
            seat, client = ("red", red) if number % 2 == 0 else ("blue", blue)
            await client.events_until(max(red.head, blue.head))
            kind, data = command_json(client.legal(seat)[-1])  # Pass: always legal
            assert (await client.command(f"m{number}", kind, data))["type"] == "ack"
        # Check B's spectator gets every event A appended, in order, hashes checked: after its
        # listener reconnects B reads from its last known seq, whatever notification it missed.
        await watch_b.events_until(red.head)
        assert watch_b.envelopes == red.envelopes
        status, health = get_json(f"{b.base_url}/healthz")
        assert status == 200 and health == {"status": "ok", "store": "ok", "listening": True}

    run(main(), timeout=30)


def test_healthz_and_metrics_on_sqlite(chronicle_server):
    status, health = get_json(f"{chronicle_server.base_url}/healthz")
    assert status == 200 and health == {"status": "ok", "store": "ok"}
    with urllib.request.urlopen(f"{chronicle_server.base_url}/metrics", timeout=10) as response:
        assert response.headers["content-type"].startswith("text/plain")
        text = response.read().decode()
    for name in ("chronicle_connections", "chronicle_commands_total", "chronicle_rejections_total",
                 "chronicle_append_conflicts_total", "chronicle_command_broadcast_seconds_bucket"):
        assert f"# TYPE {name.removesuffix('_bucket').removesuffix('_total')}" in text or name in text


def _metrics(base_url: str) -> dict:
    """The samples of /metrics as {name{labels}: value}; absent labelled counters read as 0."""
    text = urllib.request.urlopen(f"{base_url}/metrics", timeout=10).read().decode()
    samples: dict = {}
    for line in text.splitlines():
        match = re.match(r"^([a-z_]+(?:\{[^}]*\})?) (\S+)$", line)
        if match:
            samples[match.group(1)] = float(match.group(2))
    samples.setdefault('chronicle_rejections_total{code="rejected"}', 0.0)
    return samples


def test_a_missed_notification_is_filled_by_the_next(postgres_database):  # noqa: F811
    """A Room told only of seq 5 reads 2–5 (it never heard of 2–3): a notification triggers a read from its own seq."""
    from events.games import load as load_game
    from events.log import Table
    from server import frames
    from server.room import Room, now
    from server.store import GameMeta, Stored
    from server.store.postgres import PostgresStore

    async def main():
        store = PostgresStore(postgres_database())
        await store.open()
        game = load_game("mecha")
        _, scenario = load("mecha/sample")
        table = Table.create(game, "g-missed0001", scenario, 5, at=now())
        await store.create_game(GameMeta("g-missed0001", "mecha", "t", ("red", "blue"), {}, now()),
                                [Stored(e.seq, None, frames.encode_envelope(e)) for e in table.envelopes])
        writer, follower = await Room.load(store, "g-missed0001"), await Room.load(store, "g-missed0001")
        # Check: the writer appends twice; the follower hears only of the second append.
        assert json.loads(await writer.submit("red", game.commands.build({"type": "Pass"}), "c-1"))["type"] == "ack"
        assert json.loads(await writer.submit("blue", game.commands.build({"type": "Pass"}), "c-2"))["type"] == "ack"
        follower.follow(writer.table.seq)
        while follower._follower is not None:
            await asyncio.sleep(0.01)
        assert follower.table.seq == writer.table.seq
        assert [e.hash for e in follower.table.envelopes] == [e.hash for e in writer.table.envelopes]
        assert set(follower.table.by_command) == {"c-1", "c-2"}
        # Check an old notification (already read) costs nothing: no task, no read.
        follower.follow(2)
        assert follower._follower is None
        await store.close()

    run(main())

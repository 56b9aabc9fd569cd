"""Network faults: connections cut at random points, mid-frame included; a client that stops reading.

Every case is one connection that goes through ``CuttingProxy`` and is cut after a random number
of bytes in one direction or both (so in the handshake, inside a frame, or between frames; with
an orderly FIN or a reset), or a hand-made socket that sends part of a WebSocket frame and
vanishes. Seats of two ``mecha`` games and a spectator play through such connections; after each
cut the client reconnects directly, says hello with the last seq it holds, resends the command
whose answer it lost (same id) and must then hold exactly the server's envelope and hash for its
seq. At the end every acknowledged command is in the log exactly once and the log audits clean.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
import websockets

from events.log import Envelope, audit
from events.wire import frame_ack
from tests.reliability import report
from tests.reliability.players import (
    DROPPED,
    CuttingProxy,
    Player,
    command_json,
    http_json,
    raw_socket,
    read_ws_frame,
    server_head,
    ws_frame,
)
from tests.server.client import run
from tests.server_fixture import create_game, stored_secrets

pytestmark = pytest.mark.server

CASES = report.count(100, 1000)
RULES = "mecha"


class Tally:
    def __init__(self) -> None:
        self.cases = 0
        self.held = 0
        self.cut = 0  # connections the proxy actually cut
        self.half_frames = 0
        self.resent = 0
        self.acks: dict = {}
        self.players: list[Player] = []


async def converge(player: Player, server, tally: Tally) -> None:
    """Reconnect directly, resend the lost command, and hold the server's envelope for our seq."""
    await player.connect()
    answer = await player.resend()
    if answer is not None:
        tally.resent += 1
        if answer["type"] == "ack":
            tally.acks[(player.game_id, answer["id"])] = (answer["first"], answer["last"])
    status, state = await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{player.game_id}/state?seq={player.head}")
    assert status == 200 and state["hash"] == player.hash, (player.seat, player.head, state)


async def one_case(player: Player, server, proxy: CuttingProxy, rng: random.Random, tally: Tally, counter: list) -> None:
    tally.cases += 1
    if rng.random() < 0.15 and player.token is not None:
        await half_frame_case(player, server, rng)
        tally.half_frames += 1
    else:
        up = rng.choice([None, rng.randrange(0, 450)])
        down = rng.randrange(0, 1500) if up is None or rng.random() < 0.5 else None
        proxy.plans.append((up, down, rng.random() < 0.5))
        try:
            await player.connect(via=proxy.ws_url)
            if player.in_flight is not None:
                answer = await player.resend()
                if answer and answer["type"] == "ack":
                    tally.acks[(player.game_id, answer["id"])] = (answer["first"], answer["last"])
            for _ in range(rng.randrange(1, 12)):
                if player.game.is_over(player.state):
                    break
                legal = player.legal()
                if not legal:
                    await player.wait_events(0.05)
                    continue
                counter[0] += 1
                type_, data = command_json(rng.choice(legal))
                answer = await player.send(f"n-{player.seat}-{counter[0]}", type_, data)
                if answer["type"] == "ack":
                    tally.acks[(player.game_id, answer["id"])] = (answer["first"], answer["last"])
            # Uncut so far: cut it ourselves, abruptly, with whatever is in flight.
            player.abort()
        except (*DROPPED, ConnectionError):
            player.abort()
    await converge(player, server, tally)
    tally.held += 1


async def half_frame_case(player: Player, server, rng: random.Random) -> None:
    """A socket of this seat that sends a prefix of a command frame and vanishes."""
    reader, writer = await raw_socket(server.port, f"/ws/{player.game_id}")
    writer.write(ws_frame(json.dumps({"type": "hello", "since": player.head, "token": player.token}).encode()))
    opcode, payload = await read_ws_frame(reader)
    assert opcode == 1 and json.loads(payload)["type"] == "welcome", payload
    frame = ws_frame(json.dumps({"type": "command", "id": f"half-{rng.randrange(10**9)}",
                                 "command": {"type": "Pass", "data": {}}}).encode())
    writer.write(frame[: rng.randrange(1, len(frame))])
    await writer.drain()
    if rng.random() < 0.5:
        writer.transport.abort()
    else:
        writer.close()


def test_connections_cut_at_random_points_reconnect_and_converge(quiet_server):
    """CASES cuts (proxy byte budgets both ways, FIN or RST, half frames): every client converges, nothing twice."""
    server = quiet_server
    rng = random.Random(99)
    tally = Tally()

    async def seat_worker(seats: dict[str, Player], seat: str | None, proxy, seed: int, counter: list, quota: list):
        wrng = random.Random(seed)
        while quota[0] > 0:
            player = seats[seat]
            if player.game.is_over(player.state) and player.head:
                return
            quota[0] -= 1
            await one_case(player, server, proxy, wrng, tally, counter)

    async def table_worker(proxy, seed: int, quota: list):
        trng = random.Random(seed)
        counter = [0]
        while quota[0] > 0:
            game = await asyncio.to_thread(create_game, server.base_url, "mecha/sample")
            seats = {seat: Player(server.ws_url, game["game"], link["token"], seat, RULES)
                     for seat, link in game["seats"].items()}
            seats[None] = Player(server.ws_url, game["game"], None, None, RULES)
            tally.players.extend(seats.values())
            await asyncio.gather(*(seat_worker(seats, seat, proxy, trng.randrange(2**31), counter, quota)
                                   for seat in seats))

    async def main():
        proxy = await CuttingProxy(server.port).start()
        quota = [CASES]
        try:
            await asyncio.gather(*(table_worker(proxy, rng.randrange(2**31), quota) for _ in range(2)))
        finally:
            tally.cut = proxy.cuts
            await proxy.close()
        for player in tally.players:  # the last word: everybody on the head
            await player.connect()
            head, hash_ = await asyncio.to_thread(server_head, server.base_url, player.game_id)
            await player.catch_up(head)
            assert player.hash == hash_
            await player.drop()

    started = time.monotonic()
    run(main(), timeout=60 + CASES)
    games = sorted({p.game_id for p in tally.players})
    game = tally.players[0].game
    logs = {}
    secrets = stored_secrets(server.db_path, games)  # as the store's operator: every die re-derived (CORE-1)
    for game_id in games:
        status, log = http_json(f"{server.base_url}/api/games/{game_id}/log")
        logs[game_id] = log
        assert audit(game, [Envelope.from_dict(game, raw) for raw in log], secrets[game_id]) is None
    for (game_id, command_id), (first, last) in tally.acks.items():
        own = [seq for seq in range(first, last + 1) if logs[game_id][seq - 1]["type"] != "SecretRevealed"]
        assert [e["seq"] for e in logs[game_id] if e["command_id"] == command_id] == own
    assert tally.held == tally.cases >= CASES
    report.record("network", "connection cut at a random byte (handshake, mid-frame, between frames; FIN or RST, "
                  "either direction) or a half frame then gone; reconnect with the last seq, resend the lost command",
                  tally.cases, tally.held,
                  f"{tally.cut} cut by the proxy, {tally.half_frames} half frames; {tally.resent} commands resent "
                  f"after a cut; {len(tally.acks):,} acknowledged commands each in the log exactly once; "
                  f"{len(games)} games audited; every client on the server's hash after each case "
                  f"({time.monotonic() - started:.0f} s)")


def test_clients_that_stop_reading_are_dropped_without_stalling_the_game(tmp_path, chronicle_server_factory):
    """Three spectators stop reading a long game's catch-up: the seats' commands stay prompt, all three are dropped."""
    from server.connection import CLOSE_TOO_SLOW
    from tests.server.test_play import stalling_game

    game_id, tokens, head = stalling_game(tmp_path / "long.db")  # its catch-up fills the socket buffers
    server = chronicle_server_factory(tmp_path / "long.db", env={"CHRONICLE_SEND_QUEUE": "4"})
    commands = report.count(20, 100)
    slowest = []

    async def main():
        import socket as socket_

        stalled = []
        for _ in range(3):
            raw = socket_.socket()
            raw.setsockopt(socket_.SOL_SOCKET, socket_.SO_RCVBUF, 1024)
            raw.connect(("127.0.0.1", server.port))
            slow = await websockets.connect(f"{server.ws_url}/ws/{game_id}", sock=raw, max_queue=1, compression=None)
            await slow.send('{"type": "hello", "since": 0, "token": null}')
            stalled.append(slow)
        await asyncio.sleep(0.5)
        clients = []
        for token in tokens.values():
            client = await websockets.connect(f"{server.ws_url}/ws/{game_id}")
            await client.send(json.dumps({"type": "hello", "since": head, "token": token}))
            assert json.loads(await client.recv())["type"] == "welcome"
            clients.append(client)
        for number in range(commands):
            client = clients[number % 2]
            started = time.monotonic()
            await client.send(json.dumps({"type": "command", "id": f"p-{number}", "command": {"type": "Pass", "data": {}}}))
            while True:
                frame = json.loads(await asyncio.wait_for(client.recv(), 10))
                if type(frame) is not list:  # not an events frame
                    break
                if frame_ack(frame) is not None:  # the sender's copy of its command's frame carries the ack
                    frame = frame_ack(frame)
                    break
            assert frame["type"] == "ack", frame
            slowest.append(time.monotonic() - started)
        dropped = 0
        for slow in stalled:
            try:
                while True:
                    await asyncio.wait_for(slow.recv(), 10)
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == CLOSE_TOO_SLOW
                dropped += 1
        for client in clients + stalled:
            await client.close()
        return dropped

    dropped = run(main(), timeout=120)
    assert max(slowest) < 2.0
    report.record("network", "3 clients stop reading a 38,000-event game; its seats keep playing",
                  commands, sum(1 for s in slowest if s < 2.0),
                  f"every command acknowledged within {max(slowest) * 1000:.0f} ms (limit 2 s); "
                  f"{dropped} of 3 stalled clients closed with {CLOSE_TOO_SLOW}", unit="commands")

"""Limits (server/limits.py): each bounded, set from the environment here, answered with its code.

One server with small limits: frames of at most 1,024 bytes, 5 commands per second in bursts of
5, 3 sockets without a seat per game, 2 games open at once. Each limit is hit and must answer with its
stable code while the socket (or the server) goes on serving the others. Also the HTTP body
bound (413 ``body-too-large``) and the WebSocket's own bound (close 1009 beyond 1 MiB).
"""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets

from events.wire import frame_ack
from server.connection import CLOSE_TRY_AGAIN_LATER
from server.limits import Limits
from tests.reliability import report
from tests.reliability.players import http_json
from tests.server.client import read_catch_up, run
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

SMALL = {"CHRONICLE_MAX_FRAME_BYTES": "1024", "CHRONICLE_COMMANDS_PER_SECOND": "5", "CHRONICLE_COMMAND_BURST": "5",
         "CHRONICLE_CONNECTIONS_PER_GAME": "3", "CHRONICLE_GAMES_PER_SERVER": "2"}


small_server = server_fixture("limits", SMALL)


async def greeted(server, game_id: str, token=None):
    socket = await websockets.connect(f"{server.ws_url}/ws/{game_id}", max_size=2**22)
    await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
    welcome = json.loads(await socket.recv())
    assert welcome["type"] == "welcome", welcome
    await read_catch_up(socket, game_id, 0, welcome)
    return socket


async def answer(socket) -> dict:
    while True:
        frame = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if type(frame) is not list:  # not an events frame
            return frame
        if frame_ack(frame) is not None:  # the sender's copy of its command's frame carries the ack
            return frame_ack(frame)


def test_limits_configuration_is_checked():
    assert Limits.from_env({"CHRONICLE_MAX_FRAME_BYTES": "2048"}).max_frame_bytes == 2048
    assert Limits.from_env({"CHRONICLE_MAX_FRAME_BYTES": "2048"}, max_frame_bytes=4096).max_frame_bytes == 4096
    for bad in ({"CHRONICLE_COMMANDS_PER_SECOND": "0"}, {"CHRONICLE_COMMAND_BURST": "many"},
                {"CHRONICLE_MAX_FRAME_BYTES": str(2 * 1024 * 1024)}):
        with pytest.raises(ValueError, match="CHRONICLE_|expected"):
            Limits.from_env(bad)


def test_each_limit_is_answered_with_its_code(small_server):
    """frame-too-large, rate-limited, too-many-connections, too-many-games; body-too-large; 1009 past 1 MiB."""
    server = small_server
    hits: dict[str, int] = {}

    def hit(code: str) -> None:
        hits[code] = hits.get(code, 0) + 1

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        game_id, red_token = game["game"], game["seats"]["red"]["token"]
        red = await greeted(server, game_id, red_token)
        # Frame size: one byte over is refused with its code; the socket stays usable.
        await red.send(json.dumps({"type": "hello", "since": 0, "token": "x" * 1024}))
        reply = await answer(red)
        assert reply["code"] == "frame-too-large" and "1024" in reply["message"], reply
        hit("frame-too-large")
        # Commands per second: a burst of 5 passes the limiter (the rules answer), the 6th and on are refused.
        answers = []
        for number in range(12):
            await red.send(json.dumps({"type": "command", "id": f"r-{number}", "command": {"type": "Pass", "data": {}}}))
        for _ in range(12):
            answers.append(await answer(red))
        limited = [a for a in answers if a.get("code") == "rate-limited"]
        assert len(limited) >= 6 and all(a["id"] and "resend" in a["message"] for a in limited), answers
        assert all(a["type"] != "error" or a["code"] == "rate-limited" for a in answers), answers
        for _ in limited:
            hit("rate-limited")
        # After a pause the bucket has refilled: a command goes through to the rules again.
        await asyncio.sleep(1.1)
        await red.send(json.dumps({"type": "command", "id": "r-late", "command": {"type": "Pass", "data": {}}}))
        assert (await answer(red)).get("code") != "rate-limited"
        # Connections per game: 3 sockets without a seat (red's does not count); a 4th spectator's hello
        # is refused and closed with 1013, while blue's token still gets in (issue 12, finding 3).
        others = [await greeted(server, game_id) for _ in range(3)]
        fourth = await websockets.connect(f"{server.ws_url}/ws/{game_id}")
        await fourth.send(json.dumps({"type": "hello", "since": 0, "token": None}))
        reply = json.loads(await fourth.recv())
        assert reply["code"] == "too-many-connections", reply
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await fourth.recv()
        assert closed.value.rcvd.code == CLOSE_TRY_AGAIN_LATER
        hit("too-many-connections")
        others.append(await greeted(server, game_id, game["seats"]["blue"]["token"]))
        # Games open per server: this game and one more are open, each with a seat connected; a third is
        # refused until one closes.
        second = create_game(server.base_url, "mecha/sample")
        held_open = await greeted(server, second["game"], second["seats"]["red"]["token"])
        third = create_game(server.base_url, "mecha/sample")
        refused = await websockets.connect(f"{server.ws_url}/ws/{third['game']}")
        reply = json.loads(await refused.recv())
        assert reply["code"] == "too-many-games", reply
        hit("too-many-games")
        await refused.close()
        await held_open.close()
        await asyncio.sleep(0.3)
        opened = await greeted(server, third["game"])  # the second game closed: room for the third
        # Past the WebSocket's own bound (1 MiB) the server closes with 1009 without reading the frame.
        big = await websockets.connect(f"{server.ws_url}/ws/{third['game']}", max_size=2**22)
        await big.send("x" * (1024 * 1024 + 1))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(big.recv(), 10)
        assert closed.value.rcvd.code == 1009
        hit("close 1009")
        for socket in (red, *others, opened):
            await socket.close()

    run(main())
    status, body = http_json(f"{server.base_url}/api/games", "POST", {"scenario": "mecha/sample", "pad": "x" * 300_000})
    assert status == 413 and body["code"] == "body-too-large", body
    hit("body-too-large")
    status, _ = http_json(f"{server.base_url}/api/games")
    assert status == 200  # still serving
    report.record("limits", "frame size (1,024 B here), commands per second per connection (5, bursts of 5), "
                  "sockets without a seat per game (3), games open per server (2), HTTP body (256 KiB), WebSocket frame (1 MiB)",
                  len(hits), len(hits), "answered: " + ", ".join(f"{code} ×{n}" for code, n in hits.items())
                  + "; the connection or server went on serving", unit="limits")


def test_command_rate_is_a_token_bucket():
    from server.limits import CommandRate

    now = [0.0]
    rate = CommandRate(Limits(commands_per_second=4, command_burst=2), clock=lambda: now[0])
    assert [rate.allow() for _ in range(3)] == [True, True, False]  # the burst, then refused
    now[0] += 0.25  # a quarter second refills one command at 4 per second
    assert [rate.allow(), rate.allow()] == [True, False]
    now[0] += 10  # a long pause refills only up to the burst
    assert [rate.allow() for _ in range(3)] == [True, True, False]
    assert "4 commands per second" in rate.refusal()


def test_game_creation_is_a_token_bucket_per_address():
    """games_per_minute: each address its own bucket; the refusal says how many seconds to wait."""
    from server.limits import CreationRate

    now = [0.0]
    rate = CreationRate(Limits(games_per_minute=3), clock=lambda: now[0])
    assert [rate.take("10.0.0.1") for _ in range(3)] == [0, 0, 0]
    wait = rate.take("10.0.0.1")
    assert 1 <= wait <= 20, wait  # one game refills in 20 s at 3 per minute
    assert rate.take("10.0.0.2") == 0  # another address is not held back
    now[0] += 20.5
    assert rate.take("10.0.0.1") == 0 and rate.take("10.0.0.1") > 0
    assert "3 games" in rate.refusal(wait) and f"{wait} s" in rate.refusal(wait)

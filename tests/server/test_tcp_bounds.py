"""TCP connections before their request (docs/bounds.md, "Below the application"; server/httpprotocol.py).

Found by a hostile probe of main (2026-12-02): a connection that sends nothing, or half a request line a
byte every few seconds (slowloris), was held for ever by uvicorn, so one stranger's thousand of them took
a thousand of the server's file descriptors. Now a request head has ``head_timeout`` seconds (408 if any
of it came, else a silent close), and one address holds at most ``tcp_connections_per_address`` open
connections, HTTP and WebSocket alike (429 ``too-many-connections-per-address``). Real uvicorn
subprocesses (tests/server_fixture.py), raw sockets from 127.0.0.1, the hostile cases first.
"""

from __future__ import annotations

import asyncio
import random
import select
import shutil
import socket
import time
import urllib.request

import pytest
import websockets

from server.httpprotocol import FILES_KEPT
from tests.server.client import Client, command_json, run
from tests.server.test_transport_bounds import cut
from tests.server_fixture import ServerProcess, create_game, server_fixture

pytestmark = pytest.mark.server

HEAD_TIMEOUT = 1  # seconds, in these servers (the default is 10)
CAP = 16  # connections per address, in the capped server
# A short head timeout, the cap lifted (the fixture's default); uvicorn's keep-alive left at its 5 s.
timed = server_fixture("tcp-head-timeout", env={"CHRONICLE_HEAD_TIMEOUT": str(HEAD_TIMEOUT)})
# The head timeout above uvicorn's keep-alive (1 s here, set through uvicorn's own variable), as at the defaults.
keep_alive = server_fixture("tcp-keep-alive", env={"CHRONICLE_HEAD_TIMEOUT": "3", "UVICORN_TIMEOUT_KEEP_ALIVE": "1"})
# A small cap, and idle sockets kept long enough to hold it (the head timeout and the hello timeout).
capped = server_fixture("tcp-capped", env={"CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS": str(CAP),
                                           "CHRONICLE_HEAD_TIMEOUT": "60", "CHRONICLE_HELLO_TIMEOUT": "60"})


STRANGER = "127.0.0.2"  # a loopback address of its own (the players' is 127.0.0.1)


def opened(port: int, source: str = "127.0.0.1") -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))


def read_to_end(connection: socket.socket, seconds: float) -> tuple[bytes, bool]:
    """What the server sends within ``seconds`` and whether it closed the connection (end of stream or reset)."""
    data, deadline = b"", time.monotonic() + seconds
    while time.monotonic() < deadline:
        connection.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            chunk = connection.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            return data, True
        if not chunk:
            return data, True
        data += chunk
    return data, False


def dribble(connection: socket.socket, text: bytes, pause: float) -> tuple[int, bytes, bool]:
    """Send ``text`` one byte every ``pause`` s until the server closes: (bytes sent, what it said, closed)."""
    sent = 0
    for byte in text:
        readable, _, _ = select.select([connection], [], [], pause)
        if readable:
            break
        try:
            connection.send(bytes((byte,)))
        except (BrokenPipeError, ConnectionResetError):
            return sent, b"", True
        sent += 1
    answer, closed = read_to_end(connection, 5)
    return sent, answer, closed


def request(connection: socket.socket, path: str = "/api/games") -> bytes:
    """One keep-alive GET on ``connection``: its whole response (a JSON body, read to its length)."""
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(65536)
    head, body = data.split(b"\r\n\r\n", 1)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += connection.recv(65536)
    return head


def test_tcp_bounds_settings_zero_is_no_cap_only_for_the_cap(tmp_path):
    """``tcp_connections_per_address`` takes 0 (no cap, behind a reverse proxy); a zero head timeout is
    refused, as every other bound's zero; ``chronicle serve`` takes both options."""
    import argparse

    from server.cli import serve
    from server.limits import Limits

    assert Limits(tcp_connections_per_address=0).tcp_connections_per_address == 0
    assert Limits.from_env({"CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS": "0"}).tcp_connections_per_address == 0
    for bad in ({"head_timeout": 0}, {"tcp_connections_per_address": -1}, {"connections_per_address": 0}):
        with pytest.raises(ValueError):
            Limits(**bad)
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    args = parser.parse_args(["--head-timeout", "3", "--tcp-connections-per-address", "0"])
    assert (args.head_timeout, args.tcp_connections_per_address) == (3, 0)


def test_tcp_idle_connection_closed_at_the_head_timeout(timed):
    """A connection that sends nothing is closed, silently, once ``head_timeout`` passed (main held it for ever)."""
    before = cut(timed, "head-timeout")
    with opened(timed.port) as idle:
        said, closed = read_to_end(idle, HEAD_TIMEOUT + 9)
    assert closed and said == b""
    assert cut(timed, "head-timeout") == before + 1


def test_tcp_slowloris_request_line_closed_408_at_the_head_timeout(timed):
    """Half a request line one byte every 0.2 s: its bytes do not keep it open; at the timeout it is
    answered 408 ``head-timeout`` and closed, long before the line would end."""
    line = b"GET /api/games?" + b"a" * 60 + b" HTTP/1.1\r\nHost: x\r\n"  # ~16 s at 0.2 s a byte
    with opened(timed.port) as slow:
        sent, said, closed = dribble(slow, line, 0.2)
    assert closed and sent < len(line)
    assert said.startswith(b"HTTP/1.1 408 ") and b"head-timeout" in said, said


def test_tcp_keep_alive_is_uvicorns_and_a_dribble_after_a_response_408(keep_alive):
    """Between requests uvicorn's keep-alive (1 s here, under the 3 s head timeout) still governs: a
    second request on the connection is served, and the idle connection is closed silently by uvicorn's
    timer, not counted as a head timeout. But uvicorn's timer is cancelled by the next byte and never
    armed again: a connection dribbling after its response was held for ever (main); its head timeout
    starts at the response's end, and it is answered 408."""
    before = cut(keep_alive, "head-timeout")
    with opened(keep_alive.port) as kept:
        assert request(kept).startswith(b"HTTP/1.1 200")
        time.sleep(0.3)
        assert request(kept).startswith(b"HTTP/1.1 200")
        said, closed = read_to_end(kept, 2.5)  # closed at uvicorn's 1 s, before the head timeout's 3 s
    assert closed and said == b""
    assert cut(keep_alive, "head-timeout") == before
    with opened(keep_alive.port) as slow:
        assert request(slow).startswith(b"HTTP/1.1 200")
        sent, said, closed = dribble(slow, b"GET /api/games?" + b"a" * 80, 0.2)
    assert closed and sent < 95
    assert said.startswith(b"HTTP/1.1 408 ") and b"head-timeout" in said, said
    assert cut(keep_alive, "head-timeout") == before + 1


def test_tcp_a_body_that_stops_coming_is_answered_408_body_timeout(timed):
    """A whole head, then a body that never comes (``content-length: 40``, nothing sent): the app waits on
    its stream, so this was the slowloris with one line more, held for ever (review of the head timeout,
    2026-12-02). The body's bytes may not stop for ``head_timeout``: answered 408 ``body-timeout``."""
    before = cut(timed, "body-timeout")
    with opened(timed.port) as stalled:
        stalled.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                        b"content-length: 40\r\n\r\n{\"scenario\"")
        said, closed = read_to_end(stalled, HEAD_TIMEOUT + 9)
    assert closed and said.startswith(b"HTTP/1.1 408 ") and b"body-timeout" in said, said
    assert cut(timed, "body-timeout") == before + 1


def test_tcp_a_slow_body_that_keeps_coming_is_served(timed):
    """A slow upload is not cut while its bytes keep coming: a body sent in pieces 0.4 s apart over more than
    two head timeouts is read whole and answered by the app."""
    body = b'{"scenario": "mecha/sample"}'
    with opened(timed.port) as slow:
        slow.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                     b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body))
        for start in range(0, len(body), 5):
            time.sleep(0.4)
            slow.sendall(body[start:start + 5])
        said, closed = read_to_end(slow, 10)
    assert said.startswith(b"HTTP/1.1 201 "), said[:200]


def test_tcp_an_upgrade_websockets_refuses_is_answered_and_closed(timed):
    """An upgrade head httptools takes but websockets refuses (a header line over 8,192 bytes, or more than
    128 headers) was never answered: Chronicle's WebSocket protocol had dropped uvicorn's check of the
    failed handshake, the head timer had stopped at the head, and the connection stayed open for ever
    (review). It is answered (4xx) and closed, as uvicorn's own protocols do."""
    created = create_game(timed.base_url)
    base = (f"GET /ws/{created['game']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n").encode()
    for extra in (b"X-Long: " + b"a" * 9000 + b"\r\n", b"".join(b"X-%d: 1\r\n" % n for n in range(130))):
        with opened(timed.port) as upgrade:
            upgrade.sendall(base + extra + b"\r\n")
            said, closed = read_to_end(upgrade, HEAD_TIMEOUT + 9)
        assert closed and said.startswith(b"HTTP/1.1 4"), said[:200]


def test_tcp_honest_websocket_game_outlives_the_head_timeout(timed):
    """A game's socket after its upgrade is not bounded by the head timeout: two seats play, wait
    three head timeouts, and play again; a stranger's idle connection opened beside them is closed."""
    created = create_game(timed.base_url)

    async def body() -> None:
        seats = await Client.join_seats(timed.ws_url, created)
        rng = random.Random(7)
        idle = opened(timed.port)
        try:
            for step in range(2):
                anyone = next(iter(seats.values()))
                seat = anyone.game.turn(anyone.state)[0]
                type_, data = command_json(rng.choice(seats[seat].legal(seat)))
                answer = await seats[seat].command(f"c-{step}", type_, data)
                assert answer["type"] == "ack", answer
                for client in seats.values():
                    await client.events_until(answer["last"])
                if step == 0:
                    await asyncio.sleep(3 * HEAD_TIMEOUT)
            said, closed = read_to_end(idle, 1)
            assert closed and said == b""
        finally:
            idle.close()

    run(body())


def test_tcp_past_the_per_address_cap_429_then_players_get_in(capped):
    """A stranger holds ``CAP`` idle connections: the next one (and a request sent at once from the same
    address) reads 429 ``too-many-connections-per-address`` and is closed, without reaching the app,
    while players at other addresses are served; once the stranger's connections close, a player's HTTP
    request and WebSocket game work from the stranger's address too."""
    before = cut(capped, "too-many-connections-per-address")
    held = [opened(capped.port, STRANGER) for _ in range(CAP)]
    try:
        with opened(capped.port, STRANGER) as one_more:
            said, closed = read_to_end(one_more, 5)
        assert closed and said.startswith(b"HTTP/1.1 429 "), said
        assert b"too-many-connections-per-address" in said and b"retry-after: 10" in said.lower()
        # Written before any head is read, so in every language of the catalogue: a browser shows them all.
        text = said.decode("utf-8")
        for words in (f"Open connections from this address to this server: {CAP}, at most {CAP}.",
                      f"Connexions ouvertes par cette adresse avec ce serveur : {CAP}, {CAP} au plus.",
                      f"Открытых соединений с этого адреса: {CAP}, допустимо не больше {CAP}."):
            assert words in text, text
        assert answered(capped, 5)  # from 127.0.0.1
        with opened(capped.port, STRANGER) as player:  # a request sent at once: the 429 is still read, not a reset
            player.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\ncontent-length: 2\r\n\r\n{}")
            said, closed = read_to_end(player, 5)
        assert closed and said.startswith(b"HTTP/1.1 429 "), said
    finally:
        for connection in held:
            connection.close()
    assert cut(capped, "too-many-connections-per-address") == before + 2
    deadline = time.monotonic() + 10
    while True:  # the server sees the stranger's connections closed within moments
        with opened(capped.port, STRANGER) as again:
            if request(again).startswith(b"HTTP/1.1 200"):
                break
        assert time.monotonic() < deadline, "the stranger's address was still refused 10 s after its connections closed"
        time.sleep(0.1)
    created = create_game(capped.base_url)

    async def body() -> None:
        seats = await Client.join_seats(capped.ws_url, created)
        assert all(client.welcome for client in seats.values())

    run(body())


def answered(server, seconds: float) -> bool:
    """Whether GET /api/games answers 200 within ``seconds`` (the server notices closed connections soon)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{server.base_url}/api/games", timeout=5) as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def test_tcp_websockets_count_until_they_close(capped):
    """Upgraded game sockets count in their address's cap (uvicorn hands the transport to the WebSocket
    protocol at the upgrade, so the count must follow it there), and give their place back when they close."""
    game_id = create_game(capped.base_url)["game"]

    async def body() -> None:
        sockets = [await websockets.connect(f"{capped.ws_url}/ws/{game_id}") for _ in range(CAP)]
        try:
            with opened(capped.port) as one_more:
                said, closed = read_to_end(one_more, 5)
            assert closed and said.startswith(b"HTTP/1.1 429 "), said
        finally:
            for connection in sockets:
                await connection.close()
        for _ in range(3):  # more than the cap, one after another: each closed socket gave its place back
            again = [await websockets.connect(f"{capped.ws_url}/ws/{game_id}") for _ in range(CAP)]
            for connection in again:
                await connection.close()

    run(body())


class FewFiles(ServerProcess):
    """A server whose file limit is 320 (soft and hard, ``prlimit``): its connections' budget is 64
    (``files_budget``: the soft limit less ``FILES_KEPT``, 256)."""

    def _command(self) -> list[str]:
        return ["prlimit", f"--nofile={FILES_KEPT + 64}:{FILES_KEPT + 64}", "--", *super()._command()]


@pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs util-linux's prlimit")
def test_tcp_past_the_file_budget_503_too_many_connections(tmp_path):
    """Past the process's budget of connections (its file limit less what the store and logs keep), from
    any address, one more reads 503 ``too-many-connections`` before it takes the files the store needs;
    once they close, requests are served."""
    with FewFiles(tmp_path / "few.db", env={"CHRONICLE_HEAD_TIMEOUT": "60"}).start() as server:
        before = cut(server, "too-many-connections")
        held = [opened(server.port) for _ in range(64)]
        try:
            with opened(server.port) as one_more:
                said, closed = read_to_end(one_more, 5)
            assert closed and said.startswith(b"HTTP/1.1 503 ") and b"too-many-connections:" in said, said
        finally:
            for connection in held:
                connection.close()
        assert answered(server, 10)
        assert cut(server, "too-many-connections") >= before + 1

"""Issue 12, finding 3: strangers cannot lock the players out of their game.

Before: 64 sockets that never said hello filled ``connections_per_game`` and the real seats got
``too-many-connections``; no hello timeout; any ``Origin`` accepted; the same against
``games_per_server``. Now: sockets without a seat are what the bounds count, the oldest silent one
makes room for a newcomer, a seat's hello gets in past spectators, silent sockets are closed after
the hello timeout, games without a seat make room for one that has, and a page of another origin
cannot open a socket at all (docs/protocol.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import pytest
import websockets

from server.connection import CLOSE_EVICTED, CLOSE_HELLO_TIMEOUT, CLOSE_TRY_AGAIN_LATER
from tests.reliability import report
from tests.server.client import run as run_async
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

SILENT = report.count(64, 256)  # the default connections_per_game, then four times it under soak
HELLO_TIMEOUT = 6  # long enough for the per-address step to open its 17 silent sockets on a busy machine
ALLOWED = "https://tables.example"
SMALL = {"CHRONICLE_HELLO_TIMEOUT": str(HELLO_TIMEOUT), "CHRONICLE_CONNECTIONS_PER_ADDRESS": "8",
         "CHRONICLE_GAMES_PER_SERVER": "2", "CHRONICLE_ALLOWED_ORIGINS": f"{ALLOWED}, https://other.example"}


small_server = server_fixture("seats", SMALL)


OPENED: list = []  # every socket a test opened: closed at its end even when it fails (no leak into the next test)


async def silent(server, game_id: str, **kwargs):
    socket = await websockets.connect(f"{server.ws_url}/ws/{game_id}", **kwargs)
    OPENED.append(socket)
    return socket


async def close_all() -> None:
    while OPENED:
        with contextlib.suppress(Exception):
            await OPENED.pop().close()


def run(main, timeout: float = 30) -> None:
    """``tests.server.client.run``, then every socket the test opened closed, whatever happened."""

    async def guarded():
        try:
            await main
        finally:
            await close_all()

    run_async(guarded(), timeout)


async def hello(server, game_id: str, token=None, **kwargs) -> tuple[dict, object]:
    socket = await websockets.connect(f"{server.ws_url}/ws/{game_id}", max_size=2**22, **kwargs)
    OPENED.append(socket)
    await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
    return json.loads(await asyncio.wait_for(socket.recv(), 10)), socket


async def closing(socket) -> tuple[list[dict], int]:
    """Every frame until the server closes the socket, and the close code."""
    seen = []
    try:
        while True:
            seen.append(json.loads(await asyncio.wait_for(socket.recv(), 15)))
    except websockets.ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None


def test_seats_get_in_past_silent_sockets_and_spectators(quiet_server):
    """64 silent sockets (the default connections_per_game), then both seats; then a full house of
    spectators, and the seats again (issue 12, finding 3)."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    game_id, seats = game["game"], {seat: info["token"] for seat, info in game["seats"].items()}
    outcome = {}

    async def main():
        held = 0
        # Check: SILENT sockets that never say hello, then each seat's hello is welcomed.
        quiet = [await silent(server, game_id) for _ in range(SILENT)]
        for seat, token in seats.items():
            welcome, socket = await hello(server, game_id, token)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
            held += 1
            await socket.close()
        await asyncio.sleep(0.3)
        evicted = sum(socket.close_code == CLOSE_EVICTED for socket in quiet)
        # Each silent socket past the 64th made room for itself, then the first seat's made room too;
        # the second seat's found it (a seat's socket leaves the count once greeted).
        assert evicted == max(0, SILENT - 64) + 1, evicted
        for socket in quiet:
            await socket.close()
        # Check: 64 greeted spectators (none silent to evict): a 65th spectator is refused, a seat is not.
        watchers = []
        for _ in range(64):
            welcome, socket = await hello(server, game_id)
            assert welcome["type"] == "welcome", welcome
            watchers.append(socket)
        refused, extra = await hello(server, game_id)
        assert refused["code"] == "too-many-connections", refused
        _, code = await closing(extra)
        assert code == CLOSE_TRY_AGAIN_LATER
        for seat, token in seats.items():
            welcome, socket = await hello(server, game_id, token)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
            held += 1
            watchers.append(socket)
        for socket in watchers:
            await socket.close()
        outcome.update(held=held, evicted=evicted)

    run(main(), 120)
    report.record("seats", f"{SILENT} sockets that never say hello on one game, then each seat; then 64 greeted "
                  "spectators, then each seat again", 4, outcome["held"],
                  f"every seat welcomed; {outcome['evicted']} of the silent sockets evicted (4011) to make room; a 65th "
                  "spectator got too-many-connections (1013)")


def test_a_seat_past_its_sockets_replaces_its_oldest(quiet_server):
    """connections_per_seat (8): a 9th socket of a seat is welcomed and that seat's oldest gets
    ``replaced`` (4011); the seat's other sockets and the other seat's are untouched."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    outcome = {"replaced": 0}

    async def main():
        sockets: dict[str, list] = {"red": [], "blue": []}
        for _ in range(9):
            for seat in sockets:
                welcome, socket = await hello(server, game["game"], game["seats"][seat]["token"])
                assert welcome["type"] == "welcome" and welcome["seat"] == seat, welcome
                sockets[seat].append(socket)
        for seat, held in sockets.items():
            seen, code = await closing(held[0])
            assert code == CLOSE_EVICTED and seen[-1]["code"] == "replaced", (seat, seen, code)
            outcome["replaced"] += 1
        await asyncio.sleep(0.2)
        assert all(socket.close_code is None for held in sockets.values() for socket in held[1:])
        for held in sockets.values():
            for socket in held[1:]:
                await socket.close()

    run(main())
    report.record("seats", "a 9th socket of each seat (connections_per_seat 8)", 2, outcome["replaced"],
                  "each welcomed; that seat's oldest socket got replaced (4011), its 8 others untouched",
                  unit="seats")


def test_silent_sockets_are_closed_after_the_hello_timeout(small_server):
    """hello-timeout and close 4010 after CHRONICLE_HELLO_TIMEOUT seconds, whatever was sent meanwhile."""
    server = small_server
    game = create_game(server.base_url, "mecha/sample")
    tried = report.count(6, 24)
    outcome = {}

    async def main():
        started = time.monotonic()
        sockets = [await silent(server, game["game"], local_addr=(f"127.0.0.{3 + n // 4}", 0)) for n in range(tried)]
        for number, socket in enumerate(sockets):
            if number % 2:  # half of them send frames that are not a successful hello
                await socket.send(json.dumps({"type": "hello", "since": 0, "token": "not-a-token"}))
                await socket.send("{not json")
        results = await asyncio.gather(*(closing(socket) for socket in sockets))
        elapsed = time.monotonic() - started
        closed = sum(code == CLOSE_HELLO_TIMEOUT and seen[-1]["code"] == "hello-timeout" for seen, code in results)
        assert closed == tried, results
        assert HELLO_TIMEOUT - 0.5 <= elapsed < HELLO_TIMEOUT + 5, elapsed
        outcome.update(closed=closed, elapsed=elapsed)

    run(main())
    report.record("seats", f"sockets that never say hello successfully (silent, or a bad token and bad JSON), "
                  f"hello timeout {HELLO_TIMEOUT} s here (10 s by default)", tried, outcome["closed"],
                  f"each got hello-timeout and close 4010, all within {outcome['elapsed']:.1f} s")


def test_connections_count_per_address_and_games_make_room_for_seats(small_server):
    """connections_per_address (8 here) evicts that address's oldest silent socket, not another
    address's; games_per_server (2 here) evicts a game without seats for a seat's game."""
    server = small_server
    first, second, third, fourth = (create_game(server.base_url, "mecha/sample") for n in range(4))
    checks = {}

    async def main():
        # Check: 8 silent sockets from 127.0.0.1 and 8 from 127.0.0.2 on one game; a 9th from .1
        # evicts .1's oldest only.
        ones = [await silent(server, first["game"]) for _ in range(8)]
        twos = [await silent(server, first["game"], local_addr=("127.0.0.2", 0)) for _ in range(8)]
        ninth = await silent(server, first["game"])
        seen, code = await closing(ones[0])
        checks["per address"] = code == CLOSE_EVICTED and seen[-1]["code"] == "evicted"
        assert checks["per address"], (seen, code)
        await asyncio.sleep(0.2)
        assert all(socket.state.name == "OPEN" for socket in ones[1:] + twos + [ninth])
        for socket in ones + twos + [ninth]:
            await socket.close()
        await asyncio.sleep(0.3)
        # Check: two games open, held by spectators only; a seat of a third game gets in, and one of them
        # is evicted.
        held = [(await hello(server, game["game"]))[1] for game in (first, second)]
        welcome, seat = await hello(server, third["game"], third["seats"]["red"]["token"])
        checks["games for a seat"] = welcome["type"] == "welcome" and welcome["seat"] == "red"
        assert checks["games for a seat"], welcome
        codes = []
        for socket in held:
            try:
                await asyncio.wait_for(socket.recv(), 1)
            except (websockets.ConnectionClosed, TimeoutError):
                pass
            codes.append(socket.close_code)
        assert codes.count(CLOSE_EVICTED) == 1, codes
        # Check: every open game now has a seat connected: a spectator of a fourth game is refused.
        other = next(socket for socket, code in zip(held, codes) if code != CLOSE_EVICTED)
        await other.close()
        await asyncio.sleep(0.3)
        _, blue = await hello(server, first["game"], first["seats"]["blue"]["token"])
        refused = await silent(server, fourth["game"])
        seen, code = await closing(refused)
        checks["games full of seats"] = seen[0]["code"] == "too-many-games" and code == CLOSE_TRY_AGAIN_LATER
        assert checks["games full of seats"], (seen, code)
        for socket in (seat, blue):
            await socket.close()

    run(main(), 60)
    report.record("seats", "connections per client address (8 here, two addresses), games open per server (2 here) "
                  "held by spectators, then by seats", len(checks), sum(checks.values()),
                  "the 9th socket from one address evicted that address's oldest silent one (4011), the other "
                  "address's untouched; a seat's game evicted a game without seats; with seats in both, "
                  "too-many-games (1013)")


def test_a_foreign_origin_cannot_open_a_socket(small_server):
    """403 unless Origin is the server's own or in CHRONICLE_ALLOWED_ORIGINS; no Origin stays allowed."""
    server = small_server
    game = create_game(server.base_url, "mecha/sample")
    foreign = ["https://evil.example", "http://127.0.0.1.evil.example", f"http://127.0.0.1:{server.port + 1}",
               "null", "https://tables.example.evil", f"{server.base_url}.evil"]
    allowed = [server.base_url, ALLOWED, "https://other.example", None]
    outcome = {"refused": 0, "allowed": 0}

    async def main():
        for origin in foreign:
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(f"{server.ws_url}/ws/{game['game']}", origin=origin)
            assert refused.value.response.status_code == 403, origin
            outcome["refused"] += 1
        for origin in allowed:
            welcome, socket = await hello(server, game["game"], origin=origin)
            assert welcome["type"] == "welcome", (origin, welcome)
            outcome["allowed"] += 1
            await socket.close()

    run(main())
    report.record("seats", "WebSocket upgrades from foreign origins (another site, look-alike hosts, another port, "
                  "null) and from allowed ones (the server's own, CHRONICLE_ALLOWED_ORIGINS, none)",
                  len(foreign) + len(allowed), outcome["refused"] + outcome["allowed"],
                  f"{outcome['refused']} refused with HTTP 403 before any frame, {outcome['allowed']} welcomed",
                  unit="origins")


def test_allowed_origins_are_read_from_the_environment_and_the_command_line():
    """CHRONICLE_ALLOWED_ORIGINS and ``chronicle serve --allowed-origins`` take the same comma-separated list."""
    import argparse

    from server.app import allowed_origins_from_env
    from server.cli import serve
    from server.rooms import Rooms

    given = " https://a.example/ , https://b.example:8443,,"
    assert allowed_origins_from_env({"CHRONICLE_ALLOWED_ORIGINS": given}) == ("https://a.example",
                                                                              "https://b.example:8443")
    assert allowed_origins_from_env({}) == ()
    rooms = Rooms(None, allowed_origins=allowed_origins_from_env({"CHRONICLE_ALLOWED_ORIGINS": given}))
    assert rooms.origin_allowed("https://a.example", "chronicle.test")
    assert rooms.origin_allowed("http://chronicle.test:8000", "chronicle.test:8000")
    assert not rooms.origin_allowed("https://a.example.evil", "chronicle.test")
    assert not rooms.origin_allowed("http://chronicle.test:8000", None)
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert parser.parse_args(["--allowed-origins", given]).allowed_origins == given
    assert parser.parse_args([]).allowed_origins is None

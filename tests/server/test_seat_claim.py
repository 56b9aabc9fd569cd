"""A seat's token named at the upgrade: past its address's opens, a seat gets in however strangers flood.

Past ``opens_per_minute``, a socket waits for its first frame among at most ``PAST_BOUND_WAITING`` of its
address's sockets, one more evicting one at random (``seat_past_bound``): a stranger flooding from a
player's own address (one NAT, one mobile carrier's gateway) could evict the player's socket before its
hello arrived, about one try in three at 1,250 sockets a second and a 60-ms round trip. A page now offers
the subprotocols ``chronicle`` and ``chronicle.seat.<token>``: the server answers ``chronicle``, and past
the bound checks the claimed token before reading anything (one indexed read), so a seat spends its own
opens and never waits among the others; a claim of no seat is refused at once. Real servers with small
bounds (server/limits.py); the hostile cases first.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets

import pytest
import websockets

from server.connection import CLOSE_TRY_AGAIN_LATER
from server.limits import SEAT_OPENS_SHARE
from server.serve_socket import PAST_BOUND_WAITING, SEAT_CLAIM, SUBPROTOCOL
from tests.server.client import run
from tests.server.test_read_routes import counted
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

OPENS = 30
claim_server = server_fixture("seat-claim", {"CHRONICLE_OPENS_PER_MINUTE": str(OPENS)})


async def connect(server, game_id: str, source: str, token: str | None = None, offer: bool = True):
    """A socket from ``source``; with ``offer``, the pages' subprotocols (and the seat's claim for ``token``)."""
    protocols = None
    if offer:
        protocols = [SUBPROTOCOL] + ([] if token is None else [SEAT_CLAIM + token])
    return await websockets.connect(f"{server.ws_url}/ws/{game_id}", local_addr=(source, 0), subprotocols=protocols)


async def answer_to_hello(socket, token: str | None = None) -> dict:
    """Say hello from seq 0 with ``token`` and read the first frame (a refused socket may be closed before)."""
    with contextlib.suppress(websockets.ConnectionClosed):
        await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
    return json.loads(await asyncio.wait_for(socket.recv(), 20))


async def spend_opens(server, game_id: str, source: str) -> None:
    """Open and close spectators' sockets from ``source`` until one is refused too-many-opens."""
    for _ in range(OPENS + 5):
        socket = await connect(server, game_id, source, offer=False)
        first = await answer_to_hello(socket)
        await socket.close()
        if first.get("code") == "too-many-opens":
            return
        assert first["type"] == "welcome", first
    raise AssertionError("the address's opens never ran out")


async def refused_at_once(socket, first: dict | None = None) -> dict:
    """The socket's first frame (read here without saying anything, unless given): a too-many-opens refusal,
    then the close 1013."""
    if first is None:
        first = json.loads(await asyncio.wait_for(socket.recv(), 5))
    assert first["type"] == "error" and first["code"] == "too-many-opens", first
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(socket.recv(), 5)
    assert closed.value.rcvd.code == CLOSE_TRY_AGAIN_LATER
    return first


def test_a_claim_of_no_seat_past_the_bound_is_refused_at_once_without_a_frame_waited_for(claim_server):
    """A forged token, a seat token of another game, an empty claim: each refused too-many-opens before the
    socket says anything (no place among the waiting sockets is taken), and the game it named, not in memory,
    is not loaded. The address's opens are spent again before each (they refill half a token a second)."""
    server = claim_server
    spent, game, other = (create_game(server.base_url, "mecha/sample") for _ in range(3))
    source = "127.0.1.1"

    async def main():
        await spend_opens(server, spent["game"], source)
        loads = counted(server, "chronicle_games_loaded_total")
        for token in (secrets.token_urlsafe(32), other["seats"]["red"]["token"]):
            await spend_opens(server, spent["game"], source)
            await refused_at_once(await connect(server, game["game"], source, token))
        await spend_opens(server, spent["game"], source)
        empty = await websockets.connect(f"{server.ws_url}/ws/{game['game']}", local_addr=(source, 0),
                                         subprotocols=[SUBPROTOCOL, SEAT_CLAIM])  # "chronicle.seat." and nothing
        # An empty claim is no claim: the socket waits for its hello as before, and a spectator's is refused.
        await refused_at_once(empty, await answer_to_hello(empty))
        assert counted(server, "chronicle_games_loaded_total") == loads

    run(main())


def test_a_seat_claimed_at_the_upgrade_takes_no_place_among_its_address_s_waiting_sockets(claim_server):
    """Past its address's opens, the seat's claiming socket is opened, then PAST_BOUND_WAITING silent
    sockets from the same address: none of them is evicted (the claim took no place among them: without it,
    the 64th would have evicted one, told too-many-opens), and 2 x PAST_BOUND_WAITING more (each evicting one
    of the waiting at random) do not reach the seat, whose hello, sent last, is welcomed; the server answered
    the ``chronicle`` subprotocol."""
    server = claim_server
    game = create_game(server.base_url, "mecha/sample")
    source = "127.0.1.2"
    token = game["seats"]["blue"]["token"]

    async def silent(count: int) -> list:
        return [await connect(server, game["game"], source, offer=False) for _ in range(count)]

    async def main():
        await spend_opens(server, game["game"], source)
        seat = await connect(server, game["game"], source, token)
        assert seat.subprotocol == SUBPROTOCOL
        flood = await silent(PAST_BOUND_WAITING)
        await asyncio.sleep(0.2)  # any eviction said by now
        for socket in flood:
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(socket.recv(), 0.01)
        flood += await silent(2 * PAST_BOUND_WAITING)
        first = await answer_to_hello(seat, token)
        assert first["type"] == "welcome" and first["seat"] == "blue", first
        await asyncio.gather(*(socket.close() for socket in [*flood, seat]))

    run(main())


def test_a_claiming_seat_spends_its_own_opens_and_is_refused_past_them_before_any_frame(claim_server):
    """Past its address's opens (spent again before each try), a seat's claims each spend one of the seat's
    own (a tenth: 3) and wait for its hello, which is welcomed; then a claim is refused too-many-opens naming
    the seat, unasked, before the socket said anything."""
    server = claim_server
    game = create_game(server.base_url, "mecha/sample")
    source = "127.0.1.3"
    token = game["seats"]["red"]["token"]

    async def main():
        for seated in range(OPENS // SEAT_OPENS_SHARE + 3):
            await spend_opens(server, game["game"], source)
            socket = await connect(server, game["game"], source, token)
            try:
                first = json.loads(await asyncio.wait_for(socket.recv(), 0.5))  # said unasked: refused
            except TimeoutError:  # let in: waiting for its hello
                first = await answer_to_hello(socket, token)
                assert first["type"] == "welcome", first
                await socket.close()
                continue
            assert first["code"] == "too-many-opens", first
            assert f"seat red of game {game['game']} opened more" in first["message"], first
            await refused_at_once(socket, first)
            return seated
        raise AssertionError("the seat's own opens never ran out")

    assert OPENS // SEAT_OPENS_SHARE <= run(main()) <= OPENS // SEAT_OPENS_SHARE + 1


def test_the_server_answers_chronicle_when_offered_and_no_subprotocol_otherwise(claim_server):
    """Offered ``chronicle`` (a spectator's page, a seat's with its claim): answered ``chronicle``; a client
    that offers none, or only others, gets none, and plays as before. Within its opens a claim changes
    nothing: the hello decides the seat."""
    server = claim_server
    game = create_game(server.base_url, "mecha/sample")
    source = "127.0.1.4"

    async def main():
        for offered, answered in (([SUBPROTOCOL], SUBPROTOCOL), (None, None), (["graphql-ws"], None),
                                  ([SUBPROTOCOL, SEAT_CLAIM + game["seats"]["red"]["token"]], SUBPROTOCOL)):
            socket = await websockets.connect(f"{server.ws_url}/ws/{game['game']}", local_addr=(source, 0),
                                              subprotocols=offered)
            assert socket.subprotocol == answered, offered
            first = await answer_to_hello(socket)
            assert first["type"] == "welcome" and first["seat"] is None, first  # the hello's seat, not the claim's
            await socket.close()

    run(main())

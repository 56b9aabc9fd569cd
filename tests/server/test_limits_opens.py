"""Opening sockets: a game stays loaded a while after its last socket, and one address opens a bounded number.

Anyone may open a socket on any game, and a game that is not in memory is loaded for it: its whole
log read, decoded and folded, ~95 ms of CPU for 10,000 envelopes. When a game left memory with its
last socket, a stranger reconnecting in a loop to a long idle game took most of a core, and a phone
reconnecting after every change of network paid the load each time. Now a game stays in memory
``room_linger`` seconds after its last socket left, and one address may open ``opens_per_minute``
sockets a minute, a load of a game that was not in memory costing one open more per
``LOAD_ENVELOPES_PER_OPEN`` envelopes of its log (``server.limits.OpenRate``). Loads are counted in
``/metrics`` (``chronicle_games_loaded_total``). Real servers with small bounds (server/limits.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re

import pytest
import websockets

from server.connection import CLOSE_TRY_AGAIN_LATER
from server.limits import (
    CATCH_UP_ENVELOPES_PER_OPEN,
    LOAD_ENVELOPES_PER_OPEN,
    SEAT_OPENS_SHARE,
    LimitReached,
    Limits,
    OpenRate,
    Payer,
    client_key,
)
from tests.server.client import Client, run
from tests.server.test_read_routes import counted
from tests.server_fixture import create_game, get_json, seeded_game, server_fixture

pytestmark = pytest.mark.server

LOADS = "chronicle_games_loaded_total"
LONG = 2_500  # envelopes: a load charges LONG // LOAD_ENVELOPES_PER_OPEN = 10 opens more
OPENS = 30  # a minute: half a token a second, so a test of a few seconds refills at most a token or two

linger_server = server_fixture("limits-linger", {"CHRONICLE_ROOM_LINGER": "1"})
lingering_server = server_fixture("limits-lingering")  # room_linger as it comes (60 s)
opens_server = server_fixture("limits-opens", {"CHRONICLE_OPENS_PER_MINUTE": str(OPENS)})
evicting_server = server_fixture("limits-evict-lingering", {"CHRONICLE_GAMES_PER_SERVER": "2"})


async def hello(ws_url: str, game_id: str, source: str = "127.0.0.1", token: str | None = None, since: int = 0):
    """Open a socket from ``source`` (another loopback address is another client address) and say hello:
    (its first frame, the socket)."""
    socket = await websockets.connect(f"{ws_url}/ws/{game_id}", local_addr=(source, 0), max_size=2**24,
                                    max_queue=None)  # never stops reading: its close is not stuck behind a catch-up
    with contextlib.suppress(websockets.ConnectionClosed):  # a refused socket may be closed before the hello
        await socket.send(json.dumps({"type": "hello", "since": since, "token": token}))
    return json.loads(await asyncio.wait_for(socket.recv(), 20)), socket


async def welcomed(ws_url: str, game_id: str, source: str = "127.0.0.1", since: int = 0) -> bool:
    """One socket opened, greeted from ``since`` and closed: True if welcomed, False if refused ``too-many-opens``
    (then closed 1013)."""
    first, socket = await hello(ws_url, game_id, source, since=since)
    if first["type"] == "welcome":
        await socket.close()
        return True
    assert first == {"type": "error", "code": "too-many-opens", "id": None, "message": first["message"]}, first
    assert re.search(rf"address {re.escape(source)} opened more sockets .* try again in \d+ s$", first["message"]), first
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(socket.recv(), 20)
    assert closed.value.rcvd.code == CLOSE_TRY_AGAIN_LATER
    return False


def test_a_reconnection_within_room_linger_finds_the_game_loaded(lingering_server):
    """A long game opened, left and opened again four times is loaded once; a spectator and a seat alike."""
    server = lingering_server
    game = seeded_game(server, "mecha/sample", 5, envelopes=600)
    before = counted(server, LOADS)

    async def main():
        for _ in range(4):
            assert await welcomed(server.ws_url, game["game"])
        seat = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert seat.welcome["head"] == seat.head >= 600, seat.welcome  # the whole log caught up
        await seat.close()
        assert await welcomed(server.ws_url, game["game"])

    run(main())
    assert counted(server, LOADS) - before == 1


def test_a_game_leaves_memory_room_linger_seconds_after_its_last_socket_and_not_while_one_is_open(linger_server):
    """room_linger 1 s: left for 2 s, the game is loaded again; with one socket kept open meanwhile, it is not."""
    server = linger_server
    left, kept = (create_game(server.base_url, "mecha/sample") for _ in range(2))

    async def main():
        assert await welcomed(server.ws_url, left["game"])
        watcher = await Client.join(server.ws_url, kept["game"])
        assert await welcomed(server.ws_url, kept["game"])  # a second socket comes and goes
        loads = counted(server, LOADS)
        await asyncio.sleep(2.0)
        assert await welcomed(server.ws_url, kept["game"])  # still loaded: its watcher never left
        assert counted(server, LOADS) == loads
        assert await welcomed(server.ws_url, left["game"])  # left 2 s ago: loaded again
        assert counted(server, LOADS) == loads + 1
        # Check the watcher was served all along: a seat's move reaches it.
        red = await Client.join(server.ws_url, kept["game"], kept["seats"]["red"]["token"])
        moved = await red.command("m-1", "Move", {"to": 2})
        assert moved["type"] == "ack", moved
        await watcher.events_until(moved["last"])
        assert watcher.head == moved["last"]

    run(main())


def test_too_many_opens_from_one_address_is_refused_with_its_code_and_another_address_is_not(opens_server):
    """opens_per_minute 30: the 31st socket from one address in a few seconds gets too-many-opens and the
    close 1013 before it looks its game up; another address opens its own 30; a refused socket loads nothing."""
    server = opens_server
    game = create_game(server.base_url, "mecha/sample")

    async def main():
        source = "127.0.0.2"
        opened = 0
        while await welcomed(server.ws_url, game["game"], source):
            opened += 1
            assert opened <= OPENS + 3, "the bound never answered"
        assert OPENS <= opened <= OPENS + 2, opened  # half a token a second refills meanwhile
        loads = counted(server, LOADS)
        assert not await welcomed(server.ws_url, "g-not-there", source)  # refused before the game is looked up
        assert await welcomed(server.ws_url, game["game"], "127.0.0.3")
        assert counted(server, LOADS) == loads
        assert counted(server, "chronicle_rejections_total", code="too-many-opens") >= 2

    run(main())


def test_a_load_of_a_long_game_and_a_catch_up_from_seq_0_cost_one_open_per_load_envelopes_per_open(opens_server):
    """The address whose socket loaded a 2,500-envelope game gets 10 fewer opens (one per 250 envelopes)
    than an address whose sockets found it loaded, each saying hello from the head; an address saying
    hello from seq 0 (the whole log sent) spends 3 a socket (its open, and one per 1,000 envelopes sent):
    10 sockets of its 30 opens."""
    server = opens_server
    game = seeded_game(server, "mecha/sample", 11, envelopes=LONG)
    head = game_head(server, game["game"])
    assert head >= LONG
    loads = counted(server, LOADS)

    async def opens(source: str, since: int) -> int:
        opened = 0
        while await welcomed(server.ws_url, game["game"], source, since):
            opened += 1
            assert opened <= OPENS + 3, "the bound never answered"
        return opened

    async def main():
        loader = await opens("127.0.0.4", head)  # its first socket loads the game
        assert counted(server, LOADS) == loads + 1
        finder = await opens("127.0.0.5", head)  # the game lingers: each socket finds it loaded
        catcher = await opens("127.0.0.6", 0)  # 1 open and 2 for its catch-up each: 10 of 30
        assert counted(server, LOADS) == loads + 1
        return loader, finder, catcher

    loader, finder, catcher = run(main())
    charged = LONG // LOAD_ENVELOPES_PER_OPEN
    assert charged - 1 <= finder - loader <= charged + 1, (loader, finder)  # ± what refilled meanwhile
    assert OPENS // (1 + LONG // CATCH_UP_ENVELOPES_PER_OPEN) <= catcher <= OPENS // 3 + 1, catcher


def game_head(server, game_id: str) -> int:
    status, listed = get_json(f"{server.base_url}/api/games?limit=200")
    assert status == 200, listed
    return next(item["head"] for item in listed if item["game"] == game_id)


def test_a_lingering_game_is_the_first_evicted_and_never_keeps_a_seats_game_out(evicting_server):
    """games_per_server 2: a game left by its seat lingers; a third game evicts it, not the game whose seat is
    connected, and it is loaded again when opened again."""
    server = evicting_server
    left, seated, third = (create_game(server.base_url, "mecha/sample") for _ in range(3))

    async def main():
        red = await Client.join(server.ws_url, left["game"], left["seats"]["red"]["token"])
        await red.close()  # lingers: in memory, nobody connected
        blue = await Client.join(server.ws_url, seated["game"], seated["seats"]["blue"]["token"])
        loads = counted(server, LOADS)
        watcher = await Client.join(server.ws_url, third["game"])  # evicts the lingering game
        assert counted(server, LOADS) == loads + 1
        first, socket = await hello(server.ws_url, seated["game"])  # the seated game is still loaded
        assert first["type"] == "welcome", first
        await socket.close()
        assert counted(server, LOADS) == loads + 1
        again = await Client.join(server.ws_url, left["game"], left["seats"]["red"]["token"])
        assert counted(server, LOADS) == loads + 2  # evicted: loaded again (the watcher's game made room)
        for client in (blue, watcher, again):
            await client.close()

    run(main())


def test_open_rate_and_its_payer_count_opens_loads_and_catch_ups_per_address_exactly():
    """OpenRate with a clock that stands still, then moves: exact counts and waits; a Payer's open takes
    one, its share of a load or a catch-up one per ``per`` envelopes, at most half a full bucket less the
    open (so the longest game can still be opened, loaded and caught up with), or raises too-many-opens."""
    now = [100.0]
    rate = OpenRate(Limits(opens_per_minute=12), clock=lambda: now[0])
    assert [rate.take("a") for _ in range(12)] == [0] * 12
    assert rate.take("a") == 5  # one token a 5 s
    b = Payer(rate, "b", "address b")
    b.open()  # 11 left
    b.spend(4 * LOAD_ENVELOPES_PER_OPEN - 1, LOAD_ENVELOPES_PER_OPEN)  # three: 8 left
    b.spend(4 * CATCH_UP_ENVELOPES_PER_OPEN, CATCH_UP_ENVELOPES_PER_OPEN)  # four: 4 left
    with pytest.raises(LimitReached) as refused:
        b.spend(100 * LOAD_ENVELOPES_PER_OPEN, LOAD_ENVELOPES_PER_OPEN)  # capped at (12 - 1) // 2 = 5: 4 there
    assert refused.value.code == "too-many-opens" and refused.value.message.startswith("address b opened more")
    assert refused.value.message.endswith("try again in 5 s")
    assert [rate.take("b") for _ in range(5)] == [0, 0, 0, 0, 5]  # the refusal spent nothing
    c = Payer(rate, "c", "seat red of game g-x")
    c.open()
    c.spend(10**6, LOAD_ENVELOPES_PER_OPEN)  # the longest load: 5 of a full bucket less the open
    c.spend(10**6, CATCH_UP_ENVELOPES_PER_OPEN)  # and its catch-up: 5 more, 1 left
    c.open()
    with pytest.raises(LimitReached, match="seat red of game g-x opened more.*try again in 5 s"):
        c.open()
    Payer(rate, "d", "address d").spend(LOAD_ENVELOPES_PER_OPEN - 1, LOAD_ENVELOPES_PER_OPEN)  # costs nothing
    assert [rate.take("d") for _ in range(12)] == [0] * 12
    now[0] += 5
    assert rate.take("a") == 0 and rate.take("a") == 5


def test_client_key_gives_an_ipv6_address_by_its_64_and_others_as_they_are():
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff::2") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") == "2001:db8:1:3::/64"
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key("192.0.2.7") == "192.0.2.7" and client_key("testclient") == "testclient"


def test_sockets_opened_at_once_on_many_long_games_are_charged_their_loads_before_any_load(opens_server):
    """Six sockets at once from one address, each on its own 2,500-envelope game not in memory: each load
    spends 10 opens before it starts, so of the 30, two loads start (6 opens, then 10 and 10) and the four
    others are refused too-many-opens without a load. Charged after the load, all six loaded first."""
    server = opens_server
    games = [seeded_game(server, "mecha/sample", 40 + number, envelopes=LONG)["game"] for number in range(6)]
    heads = [game_head(server, game_id) for game_id in games]
    loads = counted(server, LOADS)

    async def main():
        return await asyncio.gather(*(welcomed(server.ws_url, game_id, "127.0.0.10", head)
                                      for game_id, head in zip(games, heads)))

    answered = run(main())
    assert sorted(answered) == [False] * 4 + [True] * 2, answered
    assert counted(server, LOADS) == loads + 2


def test_past_its_addresss_opens_a_seats_hello_still_gets_in_on_that_seats_own_opens(opens_server):
    """A seat's token always gets in: past its address's 30 opens (spent by strangers behind the same
    address), a seat's hello is welcomed and spends the seat's own 3 (SEAT_OPENS_SHARE: a tenth); a
    spectator's hello, a bad token or a command first is refused too-many-opens; the seat looping alone is
    refused too, on its own bound."""
    server = opens_server
    game = create_game(server.base_url, "mecha/sample")
    red = game["seats"]["red"]["token"]
    source = "127.0.0.8"

    async def first_frame(token: str | None = None, frame: dict | None = None) -> dict:
        socket = await websockets.connect(f"{server.ws_url}/ws/{game['game']}", local_addr=(source, 0), max_queue=None)
        try:
            await socket.send(json.dumps(frame or {"type": "hello", "since": 0, "token": token}))
            return json.loads(await asyncio.wait_for(socket.recv(), 20))
        finally:
            await socket.close()

    async def main():
        strangers = 0
        while await welcomed(server.ws_url, game["game"], source):
            strangers += 1
            assert strangers <= OPENS + 3, "the bound never answered"
        assert (await first_frame(red))["type"] == "welcome"
        assert (await first_frame(None))["code"] == "too-many-opens"
        assert (await first_frame("not-a-token-of-this-game"))["code"] == "too-many-opens"
        assert (await first_frame(frame={"type": "command", "id": "c-1", "command": {"type": "Pass", "data": {}}}
                                  ))["code"] == "too-many-opens"
        seated = 1
        while True:
            answer = await first_frame(red)
            if answer["type"] != "welcome":
                break
            seated += 1
            assert seated <= OPENS + 3, "the seat's bound never answered"
        assert answer["code"] == "too-many-opens" and f"seat red of game {game['game']} opened more" in answer["message"]
        return seated

    seated = run(main())
    assert seated == OPENS // SEAT_OPENS_SHARE, seated  # its own 3 (a tenth as many; 0.05 a second refill)


def test_past_its_addresss_opens_a_stranger_s_silent_sockets_cannot_keep_a_seat_out(opens_server):
    """Sockets past the bound wait for their hello (a seat's may come), at most PAST_BOUND_WAITING (64) of
    an address: one more evicts one of them at random, told too-many-opens at once. So a stranger holding
    64 silent sockets behind a player's address does not keep the player's seat out: its socket, the 65th,
    is welcomed, and one of the stranger's is refused."""
    from server.serve_socket import PAST_BOUND_WAITING

    server = opens_server
    game = create_game(server.base_url, "mecha/sample")
    source = "127.0.0.9"

    async def main():
        while await welcomed(server.ws_url, game["game"], source):
            pass
        url = f"{server.ws_url}/ws/{game['game']}"
        held = [await websockets.connect(url, local_addr=(source, 0)) for _ in range(PAST_BOUND_WAITING)]
        await asyncio.sleep(0.2)  # each is past the bound and waiting
        for socket in held[1:]:  # still waiting: nothing said to them yet
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(socket.recv(), 0.01)
        first, seat = await hello(server.ws_url, game["game"], source, game["seats"]["blue"]["token"])
        assert first["type"] == "welcome", first
        told = []
        for socket in held:  # one of them, at random, made room, without a hello
            with contextlib.suppress(TimeoutError):
                told.append(json.loads(await asyncio.wait_for(socket.recv(), 0.05))["code"])
        assert told == ["too-many-opens"], told
        for socket in [*held, seat]:
            await socket.close()

    run(main())


def test_sockets_arriving_together_on_a_game_not_in_memory_pay_its_load_once(opens_server):
    """Three sockets at once from one address on one 2,500-envelope game not in memory: one load, paid once
    (10), so all three are welcomed (3 opens), and the address has 17 of its 30 left (each paying the load,
    the third was refused)."""
    server = opens_server
    game_id = seeded_game(server, "mecha/sample", 50, envelopes=LONG)["game"]
    head = game_head(server, game_id)
    loads = counted(server, LOADS)

    async def main():
        together = await asyncio.gather(*(welcomed(server.ws_url, game_id, "127.0.0.11", head) for _ in range(3)))
        left = 0
        while await welcomed(server.ws_url, game_id, "127.0.0.11", head):
            left += 1
            assert left <= OPENS, "the bound never answered"
        return together, left

    together, left = run(main())
    assert together == [True, True, True] and counted(server, LOADS) == loads + 1
    assert OPENS - 3 - LONG // LOAD_ENVELOPES_PER_OPEN <= left <= OPENS - 3 - LONG // LOAD_ENVELOPES_PER_OPEN + 2, left


def test_a_seat_is_not_refused_on_its_address_s_share_of_a_load_nor_charged_its_catch_up(opens_server):
    """With 5 opens left at its address (strangers spent the rest), a seat's socket on a 2,500-envelope game
    not in memory cannot be paid by the address (its load's share is 10): it goes the seat's way, and the
    seat's own 3 pay its open, the load (capped at 1) and its catch-up (capped at 1). Its catch-ups never
    spend the address's opens: a hello with a token of no seat pays none either (it is refused bad-token)."""
    server = opens_server
    game = seeded_game(server, "mecha/sample", 51, envelopes=LONG)
    game_id, source = game["game"], "127.0.0.12"
    small = create_game(server.base_url, "mecha/sample")

    async def main():
        for _ in range(OPENS - 5):
            assert await welcomed(server.ws_url, small["game"], source)  # strangers: 5 left
        first, socket = await hello(server.ws_url, game_id, source, game["seats"]["red"]["token"])
        assert first["type"] == "welcome", first
        await socket.close()
        bad = 0
        for _ in range(3):  # a bad token from seq 0 on the long game: the open only (3 of the 4 left)
            first, socket = await hello(server.ws_url, game_id, source, "not-a-token-of-this-game")
            assert first["code"] == "bad-token", first
            bad += 1
            await socket.close()
        left = 0
        while await welcomed(server.ws_url, small["game"], source):
            left += 1
            assert left <= OPENS, "the bound never answered"
        return left

    left = run(main())
    assert 1 <= left <= 3, left  # 5 - the seat's socket's open - 3, and what refilled (with catch-ups: none)


def test_a_seat_s_eight_tabs_from_seq_0_on_a_long_game_spend_its_address_s_opens_first(opens_server):
    """A player's normal life, alone at its address: eight tabs of one seat, each joining a 2,500-envelope
    game from seq 0 (3 opens each of the address's 30: its open and its catch-up), are all welcomed; a
    seat's own opens (3) are spent only once its address cannot pay."""
    server = opens_server
    game = seeded_game(server, "mecha/sample", 52, envelopes=LONG)
    token = game["seats"]["blue"]["token"]

    async def main():
        answers = []
        for _ in range(8):
            first, socket = await hello(server.ws_url, game["game"], "127.0.0.13", token)
            answers.append(first.get("code", first["type"]))
            await socket.close()
        return answers

    assert run(main()) == ["welcome"] * 8

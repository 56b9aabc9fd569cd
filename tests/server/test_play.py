"""Whole games over the wire: seats and spectators agree, reconnects catch up exactly, commands
apply once, and a server killed with SIGKILL resumes every game from its SQLite file."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request

from tests.server.client import Client, agree, command_json, run
from tests.server_fixture import create_game, get_json


async def play_turn(clients: dict, rng: random.Random, command_id: str) -> dict:
    """The seat whose turn it is plays a random legal command; everyone reads up to the ack's last seq."""
    anyone = next(iter(clients.values()))
    seat = anyone.game.turn(anyone.state)[0]
    mover = clients[seat]
    type_, data = command_json(rng.choice(mover.legal(seat)))
    answer = await mover.command(command_id, type_, data)
    assert answer["type"] == "ack", answer
    for client in clients.values():
        await client.events_until(answer["last"])
    return answer


def test_two_seats_and_a_spectator_see_the_same_events_in_order(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        seats, spectator = await Client.join_all(shared_server.ws_url, game)
        rng = random.Random(21)
        # Check a whole game, to its end, played with random legal moves.
        number = 0
        while not spectator.game.is_over(seats["red"].state):
            number += 1
            answer = await play_turn(seats, rng, f"c-{number}")
            for client in (*seats.values(), spectator):
                await client.events_until(answer["last"])
        # Check all three received the same envelopes, in the same order, every hash verified on the way.
        assert seats["red"].envelopes == seats["blue"].envelopes == spectator.envelopes
        assert [e["seq"] for e in spectator.envelopes] == list(range(1, spectator.head + 1))
        assert spectator.envelopes[-2]["type"] == "GameEnded"
        # Check the last command's ack covered the SecretRevealed that followed it (CORE-2).
        assert spectator.envelopes[-1]["type"] == "SecretRevealed" and spectator.head == answer["last"]
        # Check the lobby lists it as over, with its head.
        _, games = get_json(f"{shared_server.base_url}/api/games")
        listed = next(g for g in games if g["game"] == game["game"])
        assert (listed["over"], listed["head"]) == (True, spectator.head)
        # Check a command after the end is refused with its clause.
        seat = "red"
        answer = await seats[seat].command("c-late", "Pass")
        assert answer["type"] == "rejected" and answer["rule"] == "MV-C3" and "over" in answer["reason"]
        for client in (*seats.values(), spectator):
            await client.close()

    run(main())


def test_reconnect_with_an_old_seq_gets_exactly_the_missing_events(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, game)
        rng = random.Random(22)
        for number in range(1, 4):
            answer = await play_turn(seats, rng, f"c-{number}")
            await seats["red"].events_until(answer["last"])
            await seats["blue"].events_until(answer["last"])
        everything = list(seats["red"].envelopes)
        # Check a client that holds seq 3 gets 4..head and nothing else, in order.
        late = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"], since=3)
        assert late.welcome["head"] == everything[-1]["seq"]
        assert agree(late.envelopes, everything[3:])
        # Check it then gets live events like everyone else.
        answer = await play_turn(seats, rng, "c-4")
        await late.events_until(answer["last"])
        await seats["red"].events_until(answer["last"])
        assert agree(late.envelopes, seats["red"].envelopes[3:])
        # Check a client that is up to date gets the welcome and no event.
        current = await Client.join(shared_server.ws_url, game["game"], since=late.head)
        assert current.envelopes == [] and current.welcome["head"] == late.head
        for client in (*seats.values(), late, current):
            await client.close()

    run(main())


def test_server_killed_mid_game_resumes_from_the_store(chronicle_server):
    server = chronicle_server

    async def before():
        game = create_game(server.base_url)
        seats = await Client.join_seats(server.ws_url, game)
        rng = random.Random(23)
        answers = []
        for number in range(1, 6):
            answers.append(await play_turn(seats, rng, f"c-{number}"))
        await seats["red"].events_until(answers[-1]["last"])
        return game, seats["red"].envelopes, answers

    game, envelopes, answers = run(before())
    _, state_before = get_json(f"{server.base_url}/api/games/{game['game']}/state")
    # Check: SIGKILL, no shutdown, then a restart on the same database.
    server.restart()
    _, state_after = get_json(f"{server.base_url}/api/games/{game['game']}/state")
    assert state_after == state_before
    assert state_after["hash"] == envelopes[-1]["hash"]

    async def after():
        seats = await Client.join_seats(server.ws_url, game)
        # Check the whole log came back, envelope for envelope.
        assert seats["red"].envelopes == envelopes
        # Check a command sent before the kill and resent now is not applied twice (same ack).
        again = await seats["red"].command("c-5", "Pass")
        assert again == answers[-1]
        # Check play continues from where it stopped.
        answer = await play_turn(seats, random.Random(5), "c-6")
        assert answer["first"] == envelopes[-1]["seq"] + 1
        for client in seats.values():
            await client.close()

    run(after())


def stalling_game(path) -> tuple[str, dict, int]:
    """A game whose catch-up (~2.4 MB: 19,000 commands, their ids as long as ids may be, for the frames
    are small) is more than the kernel's socket buffers hold for a client that does not read."""
    return _long_game(path, 19_000, lambda number: f"c-{number:062d}")


def _long_game(path, commands: int, id_of=lambda number: f"c-{number}") -> tuple[str, dict, int]:
    """A real game of ``commands`` passes written to a SQLite file before the server starts (the
    command ids ``id_of(number)``)."""
    import events.games
    from events.games.mecha.model import Pass
    from events.log import Table
    from server import frames
    from server.room import now
    from server.scenarios import load
    from server.store import GameMeta, Stored
    from server.store.sqlite import SqliteStore
    from server.tokens import new_token, token_hash

    game = events.games.load("mecha")
    _, scenario = load("mecha/sample")
    table = Table.create(game, "g-longgame01", dict(scenario, rounds=10_000), 3, at=now())
    for number in range(commands):
        table.submit(game.turn(table.state)[0], Pass(), id_of(number), at=now())
    tokens = {"red": new_token(), "blue": new_token()}
    stored = [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in table.envelopes]

    async def write():
        store = SqliteStore(path)
        await store.open()
        meta = GameMeta("g-longgame01", "mecha", "long", ("red", "blue"),
                        {seat: token_hash(token) for seat, token in tokens.items()}, now())
        await store.create_game(meta, stored)
        await store.close()

    run(write())
    return "g-longgame01", tokens, table.seq


def test_slow_client_is_dropped_without_stalling_the_others(tmp_path, chronicle_server_factory):
    import socket
    import time

    import websockets

    from server.connection import CLOSE_TOO_SLOW

    game_id, tokens, head = stalling_game(tmp_path / "long.db")  # its catch-up fills the socket buffers
    server = chronicle_server_factory(tmp_path / "long.db", env={"CHRONICLE_SEND_QUEUE": "4"})

    async def main():
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        raw.connect(("127.0.0.1", server.port))
        slow = await websockets.connect(f"{server.ws_url}/ws/{game_id}", sock=raw, max_queue=1, compression=None)
        await slow.send('{"type": "hello", "since": 0, "token": null}')
        await asyncio.sleep(0.5)  # the server's writer for it is now stuck
        seats = {seat: await Client.join(server.ws_url, game_id, token, since=head) for seat, token in tokens.items()}
        # Check the seats keep playing promptly while the slow spectator reads nothing.
        for number in range(10):
            started = time.monotonic()
            answer = await seats["red" if number % 2 == 0 else "blue"].command(f"p-{number}", "Pass")
            assert answer["type"] == "ack", answer
            assert time.monotonic() - started < 2.0
        # Check the slow one, once it reads, finds itself dropped with the named close code, short of the head.
        received = 0
        try:
            while True:
                await asyncio.wait_for(slow.recv(), 10)
                received += 1
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == CLOSE_TOO_SLOW
        assert received < head + 20
        await slow.close()

    run(main())


def test_reader_that_pauses_gets_every_frame_in_order_once_it_reads(tmp_path, chronicle_server_factory):
    """A send that waits on a paused transport is finished by the socket's writer, and what came
    after it goes out behind it (server/connection.py writes in the caller's step while idle)."""
    import socket

    import websockets

    import events.games
    from events.wire import frame_dicts

    game_id, tokens, head = _long_game(tmp_path / "long.db", 12_000)
    server = chronicle_server_factory(tmp_path / "long.db")

    async def main():
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        raw.connect(("127.0.0.1", server.port))
        paused = await websockets.connect(f"{server.ws_url}/ws/{game_id}", sock=raw, max_queue=1, compression=None,
                                          max_size=2**22)
        await paused.send('{"type": "hello", "since": 0, "token": null}')
        await asyncio.sleep(0.5)  # its catch-up has filled the socket buffers: the server's send waits
        seats = {seat: await Client.join(server.ws_url, game_id, token, since=head) for seat, token in tokens.items()}
        last = head
        for number in range(10):  # live frames queued behind the waiting send
            answer = await seats["red" if number % 2 == 0 else "blue"].command(f"p-{number}", "Pass")
            assert answer["type"] == "ack", answer
            last = answer["last"]
        # Check the paused reader, once it reads, gets the welcome, then every seq from 1 to the last, in order.
        first = json.loads(await asyncio.wait_for(paused.recv(), 10))
        assert first["type"] == "welcome" and first["head"] == head
        game = events.games.load(first["rules"])
        seqs: list = []
        while not seqs or seqs[-1] < last:
            frame = json.loads(await asyncio.wait_for(paused.recv(), 10))
            assert type(frame) is list, frame  # an events frame
            seqs += [envelope["seq"] for envelope in frame_dicts(game, game_id, frame, first["started"],
                                                                  seats=first["seats"])]
        assert seqs == list(range(1, last + 1))
        await paused.close()

    run(main())


def test_two_server_processes_on_one_sqlite_file(tmp_path, chronicle_server_factory):
    """Two servers over one file, as behind a load balancer: neither ever overwrites the other."""
    first = chronicle_server_factory(tmp_path / "one.db")
    second = chronicle_server_factory(tmp_path / "one.db")

    async def main():
        game = create_game(first.base_url)
        red = await Client.join(first.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await Client.join(second.ws_url, game["game"], game["seats"]["blue"]["token"])
        # Check red's move through the first server is stored...
        moved = await red.command("c-1", "Move", {"to": 2})
        assert moved["type"] == "ack"
        # ...and blue's move through the second, whose room had not heard of it, is decided after it:
        # blue first receives red's events, then its own, then its ack.
        answer = await blue.command("c-2", "Pass")
        assert answer["type"] == "ack" and answer["first"] == moved["last"] + 1, answer
        assert [e["seq"] for e in blue.envelopes] == list(range(1, answer["last"] + 1))
        # Check a resend of red's id through the second server is answered with the first's ack.
        red_there = await Client.join(second.ws_url, game["game"], game["seats"]["red"]["token"])
        assert await red_there.command("c-1", "Pass") == moved
        # Check the log is the same from both servers.
        assert get_json(f"{first.base_url}/api/games/{game['game']}/state") == \
            get_json(f"{second.base_url}/api/games/{game['game']}/state")

    run(main())


def test_server_killed_during_play_loses_nothing_anyone_saw(chronicle_server):
    """SIGKILL while commands are in flight: every event any client received is in the log afterwards."""
    import websockets

    from server.scenarios import load

    server = chronicle_server
    _, scenario = load("mecha/sample")
    game = create_game(server.base_url, dict(scenario, rounds=1000))

    async def play(client: Client, seat: str, seen: dict) -> None:
        rng = random.Random(seat)
        number = 0
        try:
            while True:
                if client.state is not None and seat in client.game.turn(client.state):
                    number += 1
                    type_, data = command_json(rng.choice(client.legal(seat)))
                    await client.send({"type": "command", "id": f"{seat}-{number}",
                                       "command": {"type": type_, "data": data}})
                await client.recv()
        except (TimeoutError, websockets.ConnectionClosed):
            seen[seat] = client.envelopes

    async def main():
        seen: dict = {}
        seats = await Client.join_seats(server.ws_url, game)
        players = [asyncio.create_task(play(client, seat, seen)) for seat, client in seats.items()]
        while min(len(client.envelopes) for client in seats.values()) < 12:  # well into the game, still playing
            await asyncio.sleep(0.005)
        await asyncio.to_thread(server.kill)
        await asyncio.gather(*players)
        return seen

    seen = run(main())
    server.start()
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game['game']}/log") as response:
        log = [json.loads(line) for line in response.read().decode().splitlines()]
    # Check each client's envelopes are exactly a prefix of the stored log.
    for envelopes in seen.values():
        assert log[: len(envelopes)] == envelopes
    # Check the stored log replays (every hash) and play goes on.
    status, state = get_json(f"{server.base_url}/api/games/{game['game']}/state")
    assert status == 200 and state["hash"] == log[-1]["hash"]

    async def after():
        seats = await Client.join_seats(server.ws_url, game)
        await play_turn(seats, random.Random(1), "after-1")

    run(after())

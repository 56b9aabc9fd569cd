"""bench.load's clients: they offer permessage-deflate or not, and count the bytes on the wire (issue 16).

The figures are the benchmark's to print; this checks only what its counters add up: with deflate
offered and negotiated the TCP bytes of a catch-up are well under its payload, without it a little
over (frame headers).
"""

from __future__ import annotations

import asyncio
import random

from bench.load import Game, join
from tests.server.client import Client, command_json, run
from tests.server_fixture import create_game


def test_bench_load_clients_count_wire_bytes_with_and_without_deflate(shared_server):
    async def main():
        created = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, created)
        rng = random.Random(5)
        for number in range(20):  # a game long enough that its catch-up is worth compressing
            anyone = next(iter(seats.values()))
            seat = anyone.game.turn(anyone.state)[0]
            answer = await seats[seat].command(f"b-{number}", *command_json(rng.choice(seats[seat].legal(seat))))
            assert answer["type"] == "ack", answer
            for client in seats.values():
                await client.events_until(answer["last"])
        head = answer["last"]
        counted = {}
        for deflate in (False, True):
            counting = {"on": True}
            game = Game(created["game"])
            client = await join(shared_server.ws_url, game, None, None, deflate, counting)
            reader = asyncio.create_task(client.read(counting))
            while client.head < head:
                await asyncio.sleep(0.01)
            counting["on"] = False
            reader.cancel()
            await client.socket.close()
            counted[deflate] = (client.bytes, client.wire)
        return counted

    counted = run(main())
    (plain_payload, plain_wire), (deflated_payload, deflated_wire) = counted[False], counted[True]
    assert plain_payload == deflated_payload > 2000  # the same frames, read back whole
    assert plain_payload < plain_wire < plain_payload * 1.2  # frame headers (the HTTP upgrade is before counting)
    assert deflated_wire < deflated_payload * 0.6


def test_bench_load_clients_read_frames_at_once_the_same_as_through_websockets(shared_server):
    """issue 16: a client hooked to take whole text frames in data_received reads what an unhooked one reads."""
    async def main():
        created = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, created)
        counting = {"on": True}
        game = Game(created["game"])
        hooked = await join(shared_server.ws_url, game, None, None, False, counting)  # read at once
        plain = await join(shared_server.ws_url, game, None, None, False)  # websockets' assembler, its task
        readers = [asyncio.create_task(client.read(counting)) for client in (hooked, plain)]
        rng = random.Random(7)
        for number in range(12):
            anyone = next(iter(seats.values()))
            seat = anyone.game.turn(anyone.state)[0]
            answer = await seats[seat].command(f"b-{number}", *command_json(rng.choice(seats[seat].legal(seat))))
            assert answer["type"] == "ack", answer
            for client in seats.values():
                await client.events_until(answer["last"])
            while hooked.head < answer["last"] or plain.head < answer["last"]:
                await asyncio.sleep(0.01)
        for reader in readers:
            reader.cancel()
        for client in (hooked, plain):
            await client.socket.close()
        return hooked, plain, answer["last"]

    hooked, plain, last = run(main())
    assert hooked.head == plain.head == last and hooked.bytes == plain.bytes > 1000
    assert hooked.started == plain.started is not None and hooked.wire > hooked.bytes and plain.wire == 0

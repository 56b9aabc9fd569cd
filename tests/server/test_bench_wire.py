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


async def play_random(seats: dict, count: int, rng: random.Random, then=None) -> int:
    """``count`` random legal commands, each acked and read by every seat (then ``await then(last)``); the last seq."""
    for number in range(count):
        anyone = next(iter(seats.values()))
        seat = anyone.game.turn(anyone.state)[0]
        answer = await seats[seat].command(f"b-{number}", *command_json(rng.choice(seats[seat].legal(seat))))
        assert answer["type"] == "ack", answer
        for client in seats.values():
            await client.events_until(answer["last"])
        if then is not None:
            await then(answer["last"])
    return answer["last"]


def test_bench_load_clients_count_wire_bytes_with_and_without_deflate(shared_server):
    async def main():
        created = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, created)
        head = await play_random(seats, 20, random.Random(5))  # a game long enough that its catch-up is worth compressing
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
        async def both_read(last):
            while hooked.head < last or plain.head < last:
                await asyncio.sleep(0.01)

        last = await play_random(seats, 12, random.Random(7), both_read)
        for reader in readers:
            reader.cancel()
        for client in (hooked, plain):
            await client.socket.close()
        return hooked, plain, last

    hooked, plain, last = run(main())
    assert hooked.head == plain.head == last and hooked.bytes == plain.bytes > 1000
    assert hooked.started == plain.started is not None and hooked.wire > hooked.bytes and plain.wire == 0

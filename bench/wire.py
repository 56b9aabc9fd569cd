"""The events frame by itself: its bytes per command, and the CPU to spell and to read it (issue 16).

``python -m bench.wire [--games mecha,echo,...] [--commands 400] [--repeat 5]``

Plays each game in process (random legal commands, two seconds of play per command at most,
times spelt as the server spells them, ids as ``bench.load``'s ``b-N`` and as the browser's
``c-<ms>-<n>-<16 hex>``), cuts its log into the frames a spectator gets (one per command,
``events.wire.frame_batches``), and prints per command: the frame's payload bytes, the bytes
permessage-deflate makes of it on one connection (zlib with uvicorn's parameters: 12-bit window,
memLevel 5, the context kept from frame to frame, each frame flushed), and the CPU time
(``time.process_time``, best of ``--repeat``) the server takes to spell the frame
(``server.frames.events_frame``: the frame built and encoded by msgspec) and the page's reader takes
to read it back (``json.loads`` and ``events.wire.frame_envelopes``) in CPython. Neither needs a
socket, so the figures do not move with the machine's load the way ``bench.load``'s do; a
socket's own costs (the ack, WebSocket headers, the send) are ``bench.load``'s.

It runs unchanged on a checkout from before the wire schema (``events_frame(envelopes)``), so
``PYTHONPATH=OLD python OLD/bench/wire.py`` with this file copied there gives the before figures.
It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import sys
import time
import zlib

import events.games
from events import wire
from events.log import Table
from server import frames
from server.scenarios import builtin_scenarios, load

START_US = 1_764_597_600_000_000  # 2025-12-01T14:00:00Z, in µs since 1970


def spelt(micros: int) -> str:
    """A time as the server's ``room.now()`` spells it."""
    seconds, fraction = divmod(micros, 1_000_000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{fraction:06d}Z"


def played(name: str, commands: int, browser_ids: bool, seed: int) -> Table:
    game = events.games.load(name)
    scenario = load(next(s for s in builtin_scenarios() if s.startswith(f"{name}/")))[1]
    clock = START_US
    table = Table.create(game, "g-0123456789abcdef", scenario, seed, at=spelt(clock))
    rng = random.Random(seed)
    for number in range(commands):
        seats = [seat for seat in game.turn(table.state) if game.legal(table.state, seat)]
        if not seats or game.is_over(table.state):
            break
        seat = rng.choice(seats)
        clock += rng.randrange(1_000, 2_000_000)
        command_id = f"c-{clock // 1000}-{number}-{rng.getrandbits(64):016x}" if browser_ids else f"b-{number}"
        table.submit(seat, rng.choice(game.legal(table.state, seat)), command_id, at=spelt(clock))
    return table


def encoder(game: object, started: str | None, seats: tuple):
    """``server.frames.events_frame`` as this checkout spells it (before the wire schema: envelopes
    only; before the positional frame: no seats)."""
    parameters = inspect.signature(frames.events_frame).parameters
    if "started" not in parameters:
        return frames.events_frame
    if "seats" not in parameters:
        return lambda batch: frames.events_frame(game, batch, started)
    return lambda batch: frames.events_frame(game, batch, started, seats)


def reader(game: object, game_id: str, started: str | None, seats: tuple):
    parameters = inspect.signature(wire.frame_envelopes).parameters
    if "started" not in parameters:
        return lambda text: wire.frame_envelopes(game, game_id, json.loads(text))
    if "seats" not in parameters:
        return lambda text: wire.frame_envelopes(game, game_id, json.loads(text), started)
    return lambda text: wire.frame_envelopes(game, game_id, json.loads(text), started, seats=seats)


def best(function, items: list, repeat: int) -> float:
    """The least CPU seconds of ``repeat`` passes of ``function`` over ``items``."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        for item in items:
            function(item)
        times.append(time.process_time() - started)
    return min(times)


def measure(name: str, commands: int, browser_ids: bool, repeat: int) -> dict:
    """Games of ``name`` played one after the other until ``commands`` commands; each game one connection."""
    spelt_frames, read_frames, payload, deflated, count, events_count, seed = [], [], 0, 0, 0, 0, 16
    while count < commands:
        table = played(name, commands - count, browser_ids, seed)
        seed += 1
        game = table.game
        started, seats = table.envelopes[0].at, table.envelopes[0].event.seats
        batches = [[game.visible(e, None) for e in batch] for batch in wire.frame_batches(table.envelopes)]
        live = batches[1:]  # the frames of commands: the first is GameStarted's, once per game
        spell = encoder(game, started, seats)
        texts = [spell(batch) for batch in live]
        deflate = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -12, 5)
        for text in texts:
            payload += len(text.encode())
            deflated += len(deflate.compress(text.encode()) + deflate.flush(zlib.Z_SYNC_FLUSH)) - 4  # RFC 7692
        read = reader(game, table.game_id, started, seats)
        spelt_frames += [(spell, batch) for batch in live]
        read_frames += [(read, text) for text in texts]
        count += len(live)
        events_count += sum(len(batch) for batch in live)
    return {
        "game": name, "commands": count, "events": events_count, "payload": payload / count,
        "deflated": deflated / count,
        "spell_us": best(lambda pair: pair[0](pair[1]), spelt_frames, repeat) / count * 1e6,
        "read_us": best(lambda pair: pair[0](pair[1]), read_frames, repeat) / count * 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wire", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(events.games.NAMES))
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    print(f"{'game':<11}{'ids':<9}{'commands':>9}{'events':>8}{'payload B':>11}{'deflated B':>12}"
          f"{'spell µs':>10}{'read µs':>9}   (per command; CPU, best of {args.repeat})")
    for name in args.games.split(","):
        for browser_ids in (False, True):
            row = measure(name, args.commands, browser_ids, args.repeat)
            print(f"{name:<11}{'browser' if browser_ids else 'b-N':<9}{row['commands']:>9}{row['events']:>8}"
                  f"{row['payload']:>11.1f}{row['deflated']:>12.1f}{row['spell_us']:>10.1f}{row['read_us']:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

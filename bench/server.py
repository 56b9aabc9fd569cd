"""Load a real server: N games × M WebSocket clients, seats playing random legal moves.

``python -m bench.server [--games 10] [--spectators 2] [--seconds 10] [--warmup 2]``

A real ``uvicorn`` subprocess (the one from ``tests/server_fixture.py``) on a free port over a
fresh SQLite file; real ``websockets`` clients in this process. Each game has two seats and
``--spectators`` watchers. The seat whose turn it is sends a random legal command as soon as
the previous one reached every client of its game (the seats fold the events with ``events/``
to know what is legal), so each game has one command in flight, like people taking turns fast.

A command counts when every client of its game has received its last event; its latency runs
from the send to that moment (as PEERS.md measures boardgame.io). Bytes are the frames' payload
received per client (before any permessage-deflate). Only the measuring window counts, after a
warm-up. It prints figures and asserts nothing; it ends within ``warmup + seconds + 30`` s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.load import BIG, Game, cpu_seconds, drive, join, percentile, until_started, wind_down
from server.scenarios import load
from tests.server_fixture import ServerProcess, create_game


async def bench(args: argparse.Namespace, server: ServerProcess) -> dict:
    _, scenario = load("mecha/sample")
    scenario = dict(scenario, rounds=10_000)  # long enough that no game ends inside the window
    rng = random.Random(args.seed)
    counting = {"on": False}
    results: dict = {"latencies": [], "refused": 0}
    tables, drivers, readers = [], [], []
    stop = asyncio.Event()
    for _index in range(args.games):
        created = create_game(server.base_url, scenario)
        table = Game(created["game"])
        seats = {seat: await join(server.ws_url, table, link["token"], seat, args.deflate)
                 for seat, link in created["seats"].items()}
        for _ in range(args.spectators):
            await join(server.ws_url, table, None, None, args.deflate)
        readers += [asyncio.create_task(client.read(counting)) for client in table.clients]
        tables.append((table, seats))
    await until_started(tables)
    for table, seats in tables:
        drivers.append(asyncio.create_task(drive(table, seats, 0, random.Random(rng.random()), results, counting, stop)))
    await asyncio.sleep(args.warmup)
    counting["on"] = True
    cpu_before, own_before, started = cpu_seconds(server.pid), time.process_time(), time.perf_counter()
    await asyncio.sleep(args.seconds)
    counting["on"] = False
    window, cpu = time.perf_counter() - started, cpu_seconds(server.pid) - cpu_before
    own = time.process_time() - own_before
    clients = await wind_down(stop, drivers + readers, tables)
    done = len(results["latencies"])
    return {
        "commands": done, "window": window, "server_cpu": cpu, "own_cpu": own, "refused": results["refused"],
        "latencies": sorted(results["latencies"]),
        # each command reaches the clients of its own game only
        "bytes_per_command_per_client": sum(c.bytes for c in clients) / max(done, 1) / (2 + args.spectators),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.server", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=2, help="watchers per game, besides its 2 seats")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measuring window")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deflate", action=argparse.BooleanOptionalAction, default=True,
                        help="negotiate permessage-deflate, as browsers do (default on)")
    parser.add_argument("--sqlite-sync", choices=("FULL", "NORMAL"), default="FULL")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as scratch:
        env = {"CHRONICLE_SQLITE_SYNC": args.sqlite_sync, "CHRONICLE_COMMANDS_PER_SECOND": BIG,
               "CHRONICLE_COMMAND_BURST": BIG, "CHRONICLE_CONNECTIONS_PER_GAME": BIG, "CHRONICLE_GAMES_PER_SERVER": BIG,
               "CHRONICLE_CONNECTIONS_PER_ADDRESS": BIG, "CHRONICLE_GAMES_PER_MINUTE": BIG}
        with ServerProcess(Path(scratch) / "bench.db", env=env).start() as server:
            result = asyncio.run(asyncio.wait_for(bench(args, server), args.warmup + args.seconds + 30))
    latencies = result["latencies"]
    clients = 2 + args.spectators
    print(f"chronicle server bench: {args.games} games x {clients} clients (2 seats + {args.spectators} spectators), "
          f"deflate {'on' if args.deflate else 'off'}, SQLite synchronous={args.sqlite_sync}, "
          f"{result['window']:.1f} s window after {args.warmup:.0f} s warm-up")
    refused = f", {result['refused']} refused" if result["refused"] else ""
    print(f"  commands/s            {result['commands'] / result['window']:,.0f}  ({result['commands']} commands{refused})")
    if latencies:
        print(f"  latency p50/p95/p99   {percentile(latencies, .5):.1f} / {percentile(latencies, .95):.1f} / "
              f"{percentile(latencies, .99):.1f} ms  (mean {statistics.fmean(latencies) * 1000:.1f}, "
              f"max {latencies[-1] * 1000:.1f})")
    print(f"  bytes/command/client  {result['bytes_per_command_per_client']:,.0f}  (frame payload)")
    print(f"  CPU                   server {result['server_cpu'] / result['window'] * 100:.0f} %, "
          f"load generator {result['own_cpu'] / result['window'] * 100:.0f} % of one core "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

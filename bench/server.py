"""Load a real server: N games × M WebSocket clients, seats playing random legal moves.

``python -m bench.server [--games 10] [--spectators 2] [--seconds 10] [--warmup 2]``

A real ``uvicorn`` subprocess (the one from ``tests/server_fixture.py``) on a free port over a
fresh SQLite file; real ``websockets`` clients in this process. Each game has two seats and
``--spectators`` watchers. The crowd, its figures and their printing are ``bench.load``'s
(``run_load``, ``describe``), unpaced: the seat whose turn it is sends a random legal command as
soon as the previous one reached every client of its game, so each game has one command in flight,
like people taking turns fast. What this bench adds is the server: uvicorn as the tests start it,
not ``chronicle serve``, and permessage-deflate offered by default.

A command counts when every client of its game has received its last event; its latency runs
from the send to that moment (as PEERS.md measures boardgame.io). Only the measuring window counts,
after a warm-up. It prints figures and asserts nothing; it ends within ``warmup + seconds + 30`` s.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

from bench.load import UNLIMITED, describe, run_load
from tests.server_fixture import ServerProcess


async def bench(args: argparse.Namespace, server: ServerProcess) -> dict:
    """bench.load's crowd (``run_load``) on this one server: two seats a game, unpaced."""
    return await run_load(argparse.Namespace(**vars(args), players=2, rate=0.0, db="sqlite"), [server])


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
        env = dict(UNLIMITED, CHRONICLE_SQLITE_SYNC=args.sqlite_sync)
        with ServerProcess(Path(scratch) / "bench.db", env=env).start() as server:
            result = asyncio.run(asyncio.wait_for(bench(args, server), args.warmup + args.seconds + 30))
    print(f"chronicle server bench: {args.games} games x {2 + args.spectators} clients (2 seats + {args.spectators} "
          f"spectators), deflate {'on' if args.deflate else 'off'}, SQLite synchronous={args.sqlite_sync}, "
          f"{result['window_s']:.1f} s window after {args.warmup:.0f} s warm-up")
    print(describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

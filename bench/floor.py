"""What the stack costs before Chronicle does anything: the floor under a command's server CPU.

``python -m bench.floor [--shapes 1x0,10x2] [--seconds 6] [--warmup 2] [--repeat 2] [--json]``

Issue 16 asks for a server CPU per command at most half of boardgame.io's. This bench measures how
much of Chronicle's figure the stack alone takes, so a reader can see what is left to the rules and
the log. It serves a Starlette app under uvicorn with the options ``chronicle serve`` uses (uvloop,
httptools, ``server.wsprotocol.PROTOCOL``, one process) whose one WebSocket route does the least a
durable referee must: decode the client's JSON text with msgspec, append two rows (Chronicle's two
envelopes a move, ~300 bytes each) to a SQLite file with ``synchronous=FULL`` in WAL mode, the
appends of one turn of the loop in one ``BEGIN IMMEDIATE … COMMIT`` on the loop's thread (the group
commit ``server/store/sqlite.py`` makes while writes are quick), then send one ~90-byte text (Chronicle's frame size, docs/performance.md) to
every socket of the game, its frame bytes built once and written at once through the
``chronicle.frame`` extension as ``server/connection.py`` does (else Starlette's ``send_text``). No rules, no hash, no checks, no guards.
``--store none`` drops the commit too: what uvicorn, Starlette and the sockets alone cost.

Its clients are shaped like ``bench.load``'s (G games × 2 seats + S spectators, the seat on turn
sends as soon as the previous reply reached every client of its game, uvloop, websockets without
compression) but fold nothing. Each shape runs the floor with SQLite, the floor without a store,
and Chronicle itself (``bench.load``: ``chronicle serve`` on SQLite FULL), one after the other
(``--repeat`` times), and prints the server's CPU per command (user + system from ``/proc``,
children included) and commands/s of each, with the median and what Chronicle adds over the
floor. It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
import uvloop
import websockets

from bench import load

ENVELOPE = "x" * 300  # a stored envelope's size, about
REPLY = '{"t":"events","s":1,"e":[[7,"Moved",{"f":3,"t":4}],[8,"TurnEnded",{}]],"h":"q2Zc9xYvB1w"}'


# --- the floor's server --------------------------------------------------------------------------

def floor_app(db_path: str | None):
    """The Starlette app: one route, ``/ws/{game}``; each text frame decoded, committed, echoed to the game."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute

    from server.wsprotocol import EXTENSION

    db = None
    if db_path is not None:
        db = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, head INTEGER NOT NULL)")
        db.execute("CREATE TABLE IF NOT EXISTS events (game TEXT NOT NULL, seq INTEGER NOT NULL, "
                   "envelope TEXT NOT NULL, UNIQUE (game, seq))")
    games: dict[str, list] = {}
    heads: dict[str, int] = {}
    decoder = msgspec.json.Decoder()
    pending: list = []  # (game, future) waiting for the next group commit, as server/store/sqlite.py groups them

    def commit() -> None:
        """The appends of one turn of the loop in one transaction and one fsync; each caller woken."""
        batch = pending[:]
        del pending[:]
        db.execute("BEGIN IMMEDIATE")
        for game, _ in batch:
            head = heads[game]
            db.executemany("INSERT INTO events VALUES (?, ?, ?)", ((game, head + 1, ENVELOPE), (game, head + 2, ENVELOPE)))
            db.execute("UPDATE games SET head = ? WHERE id = ?", (head + 2, game))
            heads[game] = head + 2
        db.execute("COMMIT")
        for _, done in batch:
            done.set_result(None)

    async def append(game: str) -> None:
        done = asyncio.get_running_loop().create_future()
        pending.append((game, done))
        if len(pending) == 1:
            asyncio.get_running_loop().call_soon(commit)
        await done

    async def socket_route(websocket) -> None:
        await websocket.accept()
        game = websocket.path_params["game"]
        clients = games.setdefault(game, [])
        clients.append(websocket)
        if db is not None and game not in heads:
            db.execute("INSERT OR IGNORE INTO games VALUES (?, 0)", (game,))
            heads[game] = 0
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                decoder.decode(message["text"])
                if db is not None:
                    await append(game)
                for client in clients:  # the frame's bytes written at once where they can be, as Chronicle's are
                    writer = client.scope["extensions"].get(EXTENSION)
                    if writer is None or not writer.write(REPLY):
                        await client.send_text(REPLY)
        finally:
            clients.remove(websocket)

    return Starlette(routes=[WebSocketRoute("/ws/{game}", socket_route)])


def serve(port: int, db_path: str | None) -> None:
    import uvicorn

    from server import gcpolicy
    from server.wsprotocol import PROTOCOL

    gcpolicy.install()  # as chronicle serve does
    config = uvicorn.Config(floor_app(db_path), host="127.0.0.1", port=port, log_level="warning",
                            ws=PROTOCOL, ws_per_message_deflate=False, lifespan="off")
    uvicorn.Server(config).run()


# --- its load --------------------------------------------------------------------------------------

async def drive(port: int, pid: int, games: int, spectators: int, warmup: float, seconds: float) -> dict:
    """G games of 2 seats + S spectators; the seat on turn sends once the last reply reached its whole game."""
    url = f"ws://127.0.0.1:{port}/ws/"
    tables = []
    for game in range(games):
        clients = [await websockets.connect(f"{url}g{game}", compression=None) for _ in range(2 + spectators)]
        tables.append(clients)
    await asyncio.sleep(0.3)  # every socket accepted and in its game
    counted = {"commands": 0, "counting": False}

    async def play(clients: list) -> None:
        turn = 0
        while True:
            await clients[turn % 2].send(json.dumps({"type": "command", "id": f"c{turn}",
                                                     "command": {"type": "Move", "to": "B3"}}))
            for client in clients:
                await client.recv()
            turn += 1
            if counted["counting"]:
                counted["commands"] += 1

    tasks = [asyncio.ensure_future(play(clients)) for clients in tables]
    await asyncio.sleep(warmup)
    counted["counting"], started, cpu = True, time.monotonic(), load.cpu_seconds(pid)
    await asyncio.sleep(seconds)
    counted["counting"] = False
    window, used, commands = time.monotonic() - started, load.cpu_seconds(pid) - cpu, counted["commands"]
    for task in tasks:
        task.cancel()
    for clients in tables:
        for client in clients:
            await client.close()
    return {"commands_per_s": commands / window, "server_cpu_us_per_command": used / max(commands, 1) * 1e6}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def run_floor(store: str, games: int, spectators: int, warmup: float, seconds: float, scratch: Path) -> dict:
    port = free_port()
    db = str(scratch / f"floor-{port}.db") if store == "sqlite" else "-"
    server = subprocess.Popen([sys.executable, "-m", "bench.floor", "--serve", str(port), "--db", db],
                              cwd=Path(__file__).resolve().parent.parent)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("bench.floor: its server did not start") from None
                time.sleep(0.05)
        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(drive(port, server.pid, games, spectators, warmup, seconds))
    finally:
        server.terminate()
        server.wait(10)


def run_chronicle(games: int, spectators: int, warmup: float, seconds: float) -> dict:
    args = load.parser().parse_args(["--games", str(games), "--spectators", str(spectators),
                                     "--seconds", str(seconds), "--warmup", str(warmup)])
    return load.measure(args)


# --- the table --------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="1x0,10x2", help="games x spectators, comma-separated")
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)  # the floor's server process
    parser.add_argument("--db", default="-", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve is not None:
        serve(args.serve, None if args.db == "-" else args.db)
        return 0
    shapes = [tuple(int(n) for n in shape.split("x")) for shape in args.shapes.split(",")]
    results = []
    with tempfile.TemporaryDirectory(prefix="chronicle-floor-") as scratch:
        for games, spectators in shapes:
            runs: dict[str, list] = {"floor, SQLite FULL": [], "floor, no store": [], "chronicle": []}
            for _ in range(args.repeat):
                runs["floor, SQLite FULL"].append(
                    run_floor("sqlite", games, spectators, args.warmup, args.seconds, Path(scratch)))
                runs["floor, no store"].append(
                    run_floor("none", games, spectators, args.warmup, args.seconds, Path(scratch)))
                runs["chronicle"].append(run_chronicle(games, spectators, args.warmup, args.seconds))
            results.append({"games": games, "spectators": spectators, "loadavg": os.getloadavg()[0],
                            "runs": {name: [{key: run[key] for key in ("commands_per_s", "server_cpu_us_per_command")}
                                            for run in each] for name, each in runs.items()}})
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"bench.floor: {args.seconds:g} s windows after {args.warmup:g} s, {args.repeat} runs of each, "
          f"on {os.cpu_count()} cores")
    for result in results:
        print(f"\n{result['games']} x {result['spectators']} (load average {result['loadavg']:.1f} at the end)")
        medians = {}
        for name, each in result["runs"].items():
            cpu = [run["server_cpu_us_per_command"] for run in each]
            rate = [run["commands_per_s"] for run in each]
            medians[name] = statistics.median(cpu)
            print(f"  {name:<20} server µs/command {', '.join(f'{n:,.0f}' for n in cpu):<16} "
                  f"commands/s {', '.join(f'{n:,.0f}' for n in rate)}")
        print(f"  Chronicle over the floor with SQLite: "
              f"{medians['chronicle'] - medians['floor, SQLite FULL']:,.0f} µs/command (medians)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

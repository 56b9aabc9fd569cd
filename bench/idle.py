"""A stranger's idle TCP connections against ``chronicle serve`` under a file limit, and a player beside them.

``python -m bench.idle [--connections 1000] [--files 1024] [--head-timeout 10] [--root CHECKOUT]``

Starts ``chronicle serve`` (from ``--root``, for a before/after comparison, else this checkout) under
``prlimit --nofile=FILES:FILES`` with the defaults of its bounds, opens ``--connections`` TCP connections
from 127.0.0.2 that send nothing, then, while they are held, a player (from 127.0.0.1) asks ``GET /api/games`` and opens a
game's WebSocket and says hello; after the head timeout (plus 3 s) it counts again. Prints what it saw
and the load average (docs/bounds.md, "Below the application"). Bounded: every connection is closed at
the end, and the server stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import select
import socket
import sys
import tempfile
import time
import urllib.request

from bench.load import _elsewhere

STRANGER = "127.0.0.2"  # the stranger's address (loopback); the player's is 127.0.0.1


def player(base_url: str, ws_url: str) -> str:
    """What a player gets now: the lobby's status, and whether a game's socket says welcome."""
    try:
        with urllib.request.urlopen(f"{base_url}/api/games", timeout=5) as response:
            lobby = str(response.status)
    except urllib.error.HTTPError as error:
        lobby = f"{error.code} {error.read()[:60]!r}"
    except OSError as error:
        return f"GET /api/games failed: {error!r}"[:120]

    async def hello() -> str:
        import websockets

        request = urllib.request.Request(f"{base_url}/api/games", data=b'{"scenario": "mecha/sample"}',
                                         headers={"content-type": "application/json"}, method="POST")
        game = json.loads(urllib.request.urlopen(request, timeout=5).read())["game"]
        async with websockets.connect(f"{ws_url}/ws/{game}", open_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello", "since": 0, "token": None}))
            return json.loads(await asyncio.wait_for(ws.recv(), 5))["type"]

    try:
        socket_said = asyncio.run(hello())
    except Exception as error:  # what the player sees, whatever it is
        socket_said = f"failed: {error!r}"[:120]
    return f"GET /api/games {lobby}; game socket {socket_said}"


def cuts(base_url: str) -> str:
    """The server's ``chronicle_transport_cut_total`` lines on /metrics, by reason."""
    try:
        text = urllib.request.urlopen(f"{base_url}/metrics", timeout=5).read().decode()
    except OSError as error:
        return f"/metrics failed: {error!r}"
    found = [line.split("{", 1)[1] for line in text.splitlines() if line.startswith("chronicle_transport_cut_total{")]
    return ", ".join(found) or "none"


def census(connections: list) -> dict:
    """How many of the idle connections the server closed or answered (429, 503), and how many it holds."""
    counts = {"held": 0, "closed": 0, "429": 0, "503": 0, "408": 0}
    readable = set(select.select(connections, [], [], 0)[0])
    for connection in connections:
        if connection not in readable:
            counts["held"] += 1
            continue
        try:
            data = connection.recv(4096, socket.MSG_PEEK)
        except OSError:
            data = b""
        status = data[9:12].decode(errors="replace") if data.startswith(b"HTTP/1.1 ") else ""
        counts[status if status in counts else "closed"] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.idle", description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--files", type=int, default=1024, help="the server's file limit, soft and hard")
    parser.add_argument("--head-timeout", type=int, default=10, help="the server's (ignored by a checkout without one)")
    parser.add_argument("--root", default=None, help="run the server from this checkout (before/after comparisons)")
    args = parser.parse_args(argv)
    from tests.postgres_fixture import CliServer

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # this client's own sockets
    scratch = tempfile.mkdtemp(prefix="bench-idle-")
    env = {"CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS": "", "CHRONICLE_HEAD_TIMEOUT": str(args.head_timeout)}
    server = CliServer(scratch, os.path.join(scratch, "idle.db"), env=env)  # "" : serve's default cap
    command = server._command
    server._command = lambda: ["prlimit", f"--nofile={args.files}:{args.files}", "--", *command()]
    if args.root is not None:
        server = _elsewhere(server, args.root, None)
    connections: list = []
    with server.start():
        print(f"bench.idle: chronicle serve from {args.root or 'this checkout'}, file limit {args.files}, "
              f"{args.connections} idle connections from {STRANGER}")
        print(f"  before: {player(server.base_url, server.ws_url)}")
        for _ in range(args.connections):
            try:
                connections.append(socket.create_connection(("127.0.0.1", server.port), timeout=5,
                                                            source_address=(STRANGER, 0)))
            except OSError as error:
                print(f"  connect {len(connections) + 1} failed: {error!r}")
                break
        time.sleep(1)
        print(f"  1 s after: {census(connections)}; player: {player(server.base_url, server.ws_url)}")
        time.sleep(args.head_timeout + 2)
        print(f"  {args.head_timeout + 3} s after: {census(connections)}; "
              f"player: {player(server.base_url, server.ws_url)}")
        print(f"  cuts: {cuts(server.base_url)}")
        print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        for connection in connections:
            connection.close()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return 0


if __name__ == "__main__":
    sys.exit(main())

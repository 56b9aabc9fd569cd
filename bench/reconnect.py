"""A stranger reconnecting in a loop to a long idle game: what it costs the server and every other game.

``python -m bench.reconnect [--envelopes 10000] [--seconds 4] [--opens-per-minute 600]``

Starts one server (``tests/server_fixture.py``'s, on a fresh SQLite file, with the server's own bound
on opening sockets unless ``--opens-per-minute`` says otherwise), writes a long game nobody holds,
then one client opens a socket on it, says hello, reads its first frame and closes, again and again,
for ``--seconds``; meanwhile another client asks ``/healthz`` every 10 ms (what every other game's
requests would wait). Prints the loop's latency quiet and under the loop, the sockets welcomed and
refused (``too-many-opens``), the games loaded (``/metrics``), and the server's CPU a socket and in
all, as a share of one core. Run it from a checkout to measure that checkout (before/after pairs:
from a ``git archive`` of the other revision, this file copied in).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import websockets

from tests.server_fixture import ServerProcess, seeded_game


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def loads(base: str) -> int:
    text = urllib.request.urlopen(f"{base}/metrics", timeout=10).read().decode()
    found = re.search(r"^chronicle_games_loaded_total ([0-9.e+]+)$", text, re.M)
    return int(float(found.group(1))) if found else -1  # -1: a server that does not count them


def healthz(base: str, seconds: float) -> str:
    waits, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        began = time.perf_counter()
        urllib.request.urlopen(f"{base}/healthz", timeout=10).read()
        waits.append((time.perf_counter() - began) * 1e3)
        time.sleep(0.01)
    waits.sort()
    return (f"/healthz p50 {waits[len(waits) // 2]:.1f}, p99 {waits[int(len(waits) * 0.99)]:.1f}, "
            f"max {waits[-1]:.1f} ms ({len(waits)} asked)")


async def reconnect(url: str, seconds: float, answers: dict) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        try:
            async with websockets.connect(url, max_queue=None) as socket:
                try:
                    await socket.send(json.dumps({"type": "hello", "since": 0, "token": None}))
                    first = json.loads(await socket.recv())
                except websockets.ConnectionClosed:
                    first = {"code": "closed"}
        except websockets.InvalidStatus as refused:  # refused before the upgrade (HTTP 429: too-many-opens)
            first = {"code": f"HTTP {refused.response.status_code}"}
        kind = first.get("code") or first["type"]
        answers[kind] = answers.get(kind, 0) + 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reconnect", description=__doc__.splitlines()[0])
    parser.add_argument("--envelopes", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--opens-per-minute", default="600", help="the server's bound (600: its default)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        env = {"CHRONICLE_OPENS_PER_MINUTE": args.opens_per_minute}
        with ServerProcess(Path(scratch) / "bench.db", env=env).start() as server:
            game_id = seeded_game(server, "mecha/sample", 11, envelopes=args.envelopes)["game"]
            print(f"bench.reconnect: a {args.envelopes}-envelope game, load average "
                  f"{os.getloadavg()[0]:.1f}; quiet: {healthz(server.base_url, 2)}", flush=True)
            answers: dict = {}
            loaded = loads(server.base_url)
            worker = threading.Thread(target=lambda: asyncio.run(
                reconnect(f"{server.ws_url}/ws/{game_id}", args.seconds, answers)))
            spent = cpu_seconds(server.pid)
            began = time.perf_counter()
            worker.start()
            time.sleep(0.3)
            under = healthz(server.base_url, args.seconds - 0.6)
            worker.join()
            wall = time.perf_counter() - began
            spent = cpu_seconds(server.pid) - spent
            sockets = sum(answers.values())
            print(f"  reconnecting in a loop: {under}", flush=True)
            print(f"  {sockets} sockets in {wall:.1f} s: {answers}; games loaded {loads(server.base_url) - loaded}; "
                  f"server CPU {spent * 1e3 / max(1, sockets):.1f} ms a socket, {spent / wall:.0%} of a core "
                  f"(load average {os.getloadavg()[0]:.1f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

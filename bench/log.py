"""What ``GET /api/games/{id}/log`` costs the server, and what it costs every other client meanwhile.

``python -m bench.log [--events 10000] [--parallel 4] [--seconds 3] [--root DIR]``

A real ``chronicle serve`` (``tests/server_fixture.py``, SQLite) holding two games written into its
store beside it (``seeded_game``: random legal commands): a mecha game of ``--events`` envelopes
(no hidden information: its stored lines go out as they are) and a Gloomhaven game still running
(sealed card picks: every line decoded and redacted for a spectator) of 99 envelopes (its
rounds' bound is 99). For each, the log is asked for three times in a row: the wall clock of each
answer, and the server's CPU for it (``/proc/<pid>/stat``, user + system, 10-ms ticks). Then
``--parallel`` clients ask for the mecha log in a loop for ``--seconds`` while another asks for
``/healthz`` every 10 ms: the logs answered, the server's CPU per log, and ``/healthz``'s latency
(the event loop's, and the interpreter lock's, as any other game's command would see them),
beside the same ``/healthz`` with nobody asking for a log. ``--root DIR`` runs the server of
another checkout (``git archive`` of an older commit), to compare before and after in the same
minute. Prints figures; asserts nothing; loopback only; ends by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import tests.server_fixture as fixture
from tests.server_fixture import ServerProcess, seeded_game


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        return response.read()


def _healthz(base: str, seconds: float) -> list[float]:
    waits, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        _get(f"{base}/healthz")
        waits.append((time.perf_counter() - started) * 1000)
        time.sleep(0.01)
    return sorted(waits)


def _spread(waits: list[float]) -> str:
    return (f"p50 {statistics.median(waits):.1f}, p99 {waits[int(len(waits) * 0.99)]:.1f}, "
            f"max {waits[-1]:.1f} ms ({len(waits)} asked)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="envelopes of the mecha game (default 10000)")
    parser.add_argument("--parallel", type=int, default=4, help="clients asking for the log at once (default 4)")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--root", default=None, help="run the server of this checkout (before/after)")
    args = parser.parse_args()
    if args.root is not None:
        fixture.ROOT = Path(args.root).resolve()
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-log-") as scratch, \
            ServerProcess(Path(scratch) / "bench.db").start() as server:
        base = server.base_url
        long = seeded_game(server, "mecha/sample", 11, envelopes=args.events)["game"]
        running = _running_gloomhaven(server)
        print(f"bench.log: server of {fixture.ROOT}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        for what, game_id in ((f"mecha, {args.events:,} envelopes", long), ("gloomhaven, running", running)):
            for attempt in ("first", "again", "again"):
                cpu, started = _cpu(server.pid), time.perf_counter()
                body = _get(f"{base}/api/games/{game_id}/log")
                wall, spent = (time.perf_counter() - started) * 1000, (_cpu(server.pid) - cpu) * 1000
                lines = body.count(b"\n")
                print(f"  GET /log, {what} ({lines:,} lines, {len(body) // 1024:,} KB), {attempt}: "
                      f"{wall:,.0f} ms, server CPU {spent:,.0f} ms")
        print(f"  /healthz, nobody asking for a log: {_spread(_healthz(base, args.seconds))}")
        answered, stop = [], threading.Event()

        def ask() -> None:
            while not stop.is_set():
                _get(f"{base}/api/games/{long}/log")
                answered.append(1)

        askers = [threading.Thread(target=ask, daemon=True) for _ in range(args.parallel)]
        cpu = _cpu(server.pid)
        for asker in askers:
            asker.start()
        waits = _healthz(base, args.seconds)
        stop.set()
        for asker in askers:
            asker.join(120)
        spent = _cpu(server.pid) - cpu
        print(f"  /healthz, {args.parallel} clients asking for the mecha log in a loop: {_spread(waits)}; "
              f"{len(answered)} logs answered, server CPU {spent / max(1, len(answered)) * 1000:,.0f} ms a log, "
              f"{spent / args.seconds * 100:.0f} % of a core")


def _running_gloomhaven(server: ServerProcess) -> str:
    """A Gloomhaven game of 99 envelopes, still running (seeded_game gives it as many rounds, its bound)."""
    game_id = seeded_game(server, "gloomhaven/barrow", 5, envelopes=99)["game"]
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/state", timeout=30) as response:
        json.loads(response.read())  # it loads and folds
    return game_id


if __name__ == "__main__":
    main()

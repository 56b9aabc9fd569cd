"""What a stranger's whole-log reads cost everybody else's games: the loop's answers while they run (issue 16).

``python -m bench.offloop [--envelopes 10000] [--games 12] [--seconds 6] [--seed 11] [--root DIR] [--uvicorn]``
``[--env NAME=VALUE] [--memory]``

A real server (``chronicle serve``, as an operator runs it: ``--uvicorn`` for the test fixture's
``uvicorn --factory`` instead; ``--root DIR`` runs it from another checkout, e.g. ``git archive main``,
as ``bench.load`` does) over a fresh SQLite file. ``--games`` mecha games of ``--envelopes``
envelopes each, with one command taken back near the start (CORE-4: the log takes no snapshots, so
a ``/state?seq=`` of it refolds from seq 1), are written into its store (``tests.server_fixture.
seeded_game``). Then, phase after phase, one client (a stranger: no token, a kept-alive
connection) asks back to back:

* ``idle``: nothing, for ``--seconds`` (the baseline);
* ``audit``: ``GET /api/games/{id}/audit`` of each game once (every answer is kept per game and
  head, so each is asked once: a new game is a new whole-log re-decide);
* ``rules``: ``GET /api/games/{id}/rules`` of each game once, likewise;
* ``state``: ``GET /api/games/{id}/state?seq=N`` of the first game, a new seq each time (a fold from
  seq 1 each), for ``--seconds``.

Meanwhile two other clients measure what the other games see: one asks ``/healthz`` every 20 ms on
a kept-alive connection, one plays a live mecha game over a real WebSocket (two seats, each passing
in turn: ``Pass`` is always legal on one's turn, MV-C3), a command every 20 ms, timed from the
frame sent to its ack. Each phase prints p50 / p99 / worst of both, the whole-log requests answered,
and the server's CPU as a share of one core: its own threads (``/proc/<pid>/task/*/schedstat``) and,
apart, its child processes' (a worker process, if it has one), with their resident memory.
It prints the load average before and after, and asserts nothing. ``--memory`` then asks the largest
whole-log requests the bounds allow (``bench.costs``' largest skirmish map, 2,000 envelopes: /rules
and /audit; a 30,000-envelope mecha game with an undo: /audit and /state; the import of a finished
mecha log cut to the import's bounds) and prints each child's resident size and its peak after each.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

from websockets.sync.client import connect

from tests.server_fixture import ServerProcess, cpu_ns, descendants, rounds_bound, seeded_game

EVERY_S = 0.02


def resident_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Timings:
    """A thread doing ``once()`` every EVERY_S, each answer's time kept (ms)."""

    def __init__(self, once) -> None:
        self.once = once
        self.times: list[float] = []
        self.running = False

    def __enter__(self) -> Timings:
        self.times, self.running = [], True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        while self.running:
            began = time.perf_counter()
            if self.once():
                self.times.append((time.perf_counter() - began) * 1e3)
            time.sleep(EVERY_S)

    def __exit__(self, *exc: object) -> None:
        self.running = False
        self.thread.join()

    def figures(self) -> str:
        if not self.times:
            return "none"
        ordered = sorted(self.times)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return f"p50 {statistics.median(ordered):6.1f} p99 {p99:6.1f} max {ordered[-1]:6.1f} ms (n={len(ordered)})"


class Healthz:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def __call__(self) -> bool:
        try:
            self.connection.request("GET", "/healthz")
            self.connection.getresponse().read()
            return True
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            return False


class Player:
    """Both seats of a live mecha game on their own sockets, passing in turn: one command a call, timed to its ack."""

    def __init__(self, server: ServerProcess, answer: dict) -> None:
        self.sockets = {}
        for seat, held in answer["seats"].items():
            socket = connect(f"{server.ws_url}/ws/{answer['game']}", origin=server.base_url, max_size=None).__enter__()
            socket.send(json.dumps({"type": "hello", "since": 0, "token": held["token"]}))
            self._until(socket, lambda text: '"welcome"' in text[:40])
            self.sockets[seat] = socket
        self.order = list(self.sockets)
        self.turn = 0
        self.sent = 0
        self.refused = 0

    @staticmethod
    def _until(socket, done) -> str:
        while True:
            text = socket.recv(timeout=30)
            if done(text):
                return text

    def __call__(self) -> bool:
        seat = self.order[self.turn % len(self.order)]
        self.sent += 1
        command_id = f"p-{self.sent}"
        self.sockets[seat].send(json.dumps({"type": "command", "id": command_id,
                                            "command": {"type": "Pass", "data": {}}}))
        text = self._until(self.sockets[seat], lambda text: text.endswith(",1]") or f'"{command_id}"' in text)
        self.turn += 1
        if '"rejected"' in text[:20]:  # not this seat's turn after all: the next one's
            self.refused += 1
            return False
        return True

    def close(self) -> None:
        for socket in self.sockets.values():
            socket.close()


def ask(connection: http.client.HTTPConnection, path: str) -> int:
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status


def phase(server: ServerProcess, name: str, requests, seconds: float, player: Player) -> None:
    """Run ``requests`` (paths, asked back to back until done or ``seconds`` passed) while both probes time."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    kids_before = {pid: cpu_ns(pid) for pid in descendants(server.pid)}
    own_before = cpu_ns(server.pid)
    statuses: dict[int, int] = {}
    with Timings(Healthz(server.port)) as health, Timings(player) as commands:
        time.sleep(0.2)
        began = time.perf_counter()
        for path in requests:
            if path is None:
                time.sleep(seconds)
                break
            status = ask(connection, path)
            statuses[status] = statuses.get(status, 0) + 1
            if time.perf_counter() - began > seconds:
                break
        wall = time.perf_counter() - began
        time.sleep(0.2)
    own = (cpu_ns(server.pid) - own_before) / 1e9
    kids = {pid: cpu_ns(pid) for pid in descendants(server.pid)}
    child = sum(kids[pid] - kids_before.get(pid, 0) for pid in kids) / 1e9
    span = wall + 0.4
    resident = ", ".join(f"{pid}: {resident_kib(pid) // 1024} MiB" for pid in kids) or "no child"
    print(f"{name:6s} {sum(statuses.values()):4d} answered {statuses} in {wall:5.2f} s | server {100 * own / span:5.1f} % "
          f"of a core, children {100 * child / span:5.1f} % ({resident})", flush=True)
    print(f"       /healthz {health.figures()}", flush=True)
    print(f"       command  {commands.figures()}", flush=True)
    connection.close()


def peaks(pid: int) -> str:
    """``VmRSS`` and ``VmHWM`` (the peak) of each process ``pid`` started, in MiB."""
    out = []
    for child in descendants(pid):
        fields = {}
        try:
            for line in Path(f"/proc/{child}/status").read_text().splitlines():
                if line.startswith(("VmRSS:", "VmHWM:")):
                    fields[line[:5]] = int(line.split()[1]) // 1024
        except OSError:
            continue
        out.append(f"{child}: {fields.get('VmRSS', 0)} MiB, peak {fields.get('VmHWM', 0)} MiB")
    return "; ".join(out) or "no child"


def memory(server: ServerProcess, seed: int) -> None:
    """``--memory``: the largest whole-log requests the bounds allow, one by one, and what the children hold after each."""
    import urllib.request

    from bench.costs import finished_log, fitting, long_game, scenario_of

    print(f"before: {peaks(server.pid)}", flush=True)
    skirmish = long_game(server, "skirmish", scenario_of("skirmish", "largest"), seed, 2_000)
    mecha = long_game(server, "mecha", scenario_of("mecha", "sample"), seed, 30_000, undo=True)
    body, lines = finished_log("mecha", seed)
    body = fitting(body)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=300)
    for what, path in (("skirmish largest, 2,000 envelopes: /rules", f"/api/games/{skirmish}/rules"),
                       ("the same: /audit", f"/api/games/{skirmish}/audit"),
                       ("mecha 30,000 with an undo: /audit", f"/api/games/{mecha}/audit"),
                       ("the same: /state?seq=29999", f"/api/games/{mecha}/state?seq=29999")):
        began = time.perf_counter()
        status = ask(connection, path)
        print(f"{what:44s} {status} in {time.perf_counter() - began:6.2f} s | {peaks(server.pid)}", flush=True)
    request = urllib.request.Request(f"{server.base_url}/api/games/import", data=body, method="POST",
                                     headers={"content-type": "application/x-ndjson"})
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as response:
        status = response.status
    print(f"{'import of a finished mecha log, ' + str(len(body) // 1024) + ' KiB':44s} {status} in "
          f"{time.perf_counter() - began:6.2f} s | {peaks(server.pid)}", flush=True)
    connection.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.offloop", description=__doc__.split("\n\n")[0])
    parser.add_argument("--envelopes", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--root", default=None, help="run the server from this checkout (before/after comparisons)")
    parser.add_argument("--uvicorn", action="store_true", help="the test fixture's uvicorn --factory, not chronicle serve")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server's environment")
    parser.add_argument("--memory", action="store_true", help="then the largest requests, and the children's size")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()}, {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)
    env = dict(item.split("=", 1) for item in args.env)
    with tempfile.TemporaryDirectory(prefix="chronicle-offloop-") as scratch:
        server = ServerProcess(Path(scratch) / "chronicle.db", via_cli=not args.uvicorn, env=env)
        if args.root is not None:
            from bench.load import _elsewhere

            server = _elsewhere(server, args.root, None)
        with server.start():
            from server import scenarios

            games = [seeded_game(server, "mecha/sample", args.seed + index, envelopes=args.envelopes, undo_after=5)["game"]
                     for index in range(args.games)]
            data = dict(scenarios.load("mecha/sample")[1], rounds=rounds_bound("mecha"))
            player = Player(server, seeded_game(server, dict(data, game="mecha"), args.seed))
            time.sleep(1.0)
            print(f"server pid {server.pid}, children {descendants(server.pid)}: "
                  f"{resident_kib(server.pid) // 1024} MiB resident; {args.games} games of {args.envelopes} envelopes",
                  flush=True)
            from tests.server_fixture import get_json

            head = next(item["head"] for item in get_json(f"{server.base_url}/api/games?limit=200")[1]
                        if item["game"] == games[0])
            seqs = [f"/api/games/{games[0]}/state?seq={head - 1 - 3 * index}" for index in range(head // 4)]
            phase(server, "idle", [None], args.seconds, player)
            phase(server, "audit", [f"/api/games/{game}/audit" for game in games], args.seconds, player)
            phase(server, "rules", [f"/api/games/{game}/rules" for game in games], args.seconds, player)
            phase(server, "state", seqs, args.seconds, player)
            print(f"{player.sent} commands sent, {player.refused} refused (a seat out of turn)", flush=True)
            player.close()
            if args.memory:
                memory(server, args.seed)
    print(f"load average {os.getloadavg()}, {time.strftime('%H:%M:%S', time.gmtime())} UTC", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

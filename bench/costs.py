"""What one stranger can make the server spend: its CPU per request, for what any client can ask.

``python -m bench.costs [--games mecha,arkham,...] [--envelopes 2000,10000] [--scenarios sample,largest]``
``[--undo] [--seed 11] [--again 2] [--no-log] [--no-import] [--no-floods] [--no-server-wide]``

A real server (``tests/server_fixture.py``: uvicorn in its own process, over a fresh SQLite file,
its default limits but games per minute). For each game, each ``--scenarios`` (``sample``: the
built-in scenario of ``SCENARIOS``; ``largest``: ``bench.decide``'s largest scenario the bounds
allow) and each ``--envelopes`` length, a long game is written into its store (``long_game``, as
``seeded_game``: random legal commands, rounds raised up to the game's bound; a game that ends
sooner is as long as it gets), and with ``--undo`` the same game once more with one command taken
back near its start (CORE-4: such a log takes no snapshots). Then each request is made as a stranger
makes it (a new connection, no token) and timed twice over: the wall clock here, and the **server
process's CPU** (the sum of ``/proc/<pid>/task/*/schedstat``, ns, over its threads and its child
processes' (its worker process); the ticks of ``/proc/<pid>/stat`` when a thread ended meanwhile),
first and then ``--again`` times more:

* a game's HTTP routes: ``/state`` at the head and at seqs k*256+255 (255 folds past a snapshot,
  the most ``server/snapshots.py`` allows), ``/rules``, ``/audit``, ``/log`` (``--no-log``), its
  pages, and ``POST /api/games/import`` of its own log cut to the import's bounds (409
  ``game-exists`` from its first line, the game being stored: ``--no-import``); once per server the lobby's routes, the static
  files, ``/healthz`` and ``/metrics``;
* a WebSocket to the game not in memory (each one loads its Room): opened and closed without a
  hello, and a spectator's hello (as docs/protocol.md says it) holding everything (``since`` = head),
  from seq 0 (the whole log as events frames) and from a snapshot (``snapshot`` true: the state,
  then the history frames), each timed until the last frame it waits for; then the same three
  while another spectator holds the game in memory;
* ``POST /api/games`` of each game's built-in and largest scenario, and ``POST /api/games/import``
  of the longest finished game of the built-in one that fits the import's bounds (5,000 lines,
  1 MiB), posted ``--again`` times more: those answer 409 ``game-exists`` before any audit;
* ``--floods``: one socket's frames sent at once: a seat's refused command (a Move into a pit on
  ``bench.decide``'s largest skirmish map, refused after the whole movement search), once 300 at
  at once, then for ``SUSTAINED`` seconds 20 at a time on a new socket each time, a spectator
  holding the game in memory (the server's CPU as a share of one core: what ``refusal_cost`` bounds),
  and faults before the hello (not JSON, deep nesting, ``bad-since``,
  ``bad-token``), sent until answered or the socket is closed (``faults_per_minute``).

While each request runs, a thread here asks ``/healthz`` every 20 ms on one kept-alive connection;
the slowest answer says where the work ran: as long as the request, on the event loop (every game
waits); a few ms, in a thread (it competes for the GIL). Those probes' own CPU (measured first) is
taken off the figures. It prints one line per request and asserts nothing; it ends by itself
(the defaults: about two minutes; ``--scenarios largest`` adds ~30 s to write the skirmish game).
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import re
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import websockets

from tests.server_fixture import ServerProcess, rounds_bound, seeded_game

# The built-in scenario of each game whose random games last longest (seeds 11 and 12: echo's first-case
# ends near 4,200 envelopes, bunba-brawl near 6,900; skirmish's courtyard at 362-1,331, troll-gate
# near 3,200; every gloomhaven scenario within 250).
SCENARIOS = {"mecha": "mecha/sample", "arkham": "arkham/crossing", "echo": "echo/bunba-brawl",
             "gloomhaven": "gloomhaven/barrow", "skirmish": "skirmish/troll-gate"}
PROBE_EVERY_S = 0.02
SNAPSHOT_EVERY = 256  # server/snapshots.py: a seq of k*256+255 is the most folds a /state may take
MAX_IMPORT_BYTES = 1024 * 1024  # server/importlog.py
MAX_IMPORT_LINES = 5_000


# --- the server's CPU ----------------------------------------------------------------------------------


def _tasks(pid: int) -> dict:
    """Each thread's CPU time so far (ns, /proc/<pid>/task/<tid>/schedstat), the threads of the processes
    it started included (the server's worker process, server/workers.py, does its whole-log work)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out[task.name] = int((task / "schedstat").read_text().split()[0])
            for child in (task / "children").read_text().split():
                out.update(_tasks(int(child)))
        except (OSError, IndexError, ValueError):
            pass
    return out


def _ticks(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """The server's CPU (ms) between ``start`` and ``stop``, less the /healthz probes' own."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.probe_ms = 0.0
        self.coarse = False  # the last figure came from the ticks (a thread ended meanwhile)

    def start(self) -> None:
        self.tasks, self.ticks = _tasks(self.pid), _ticks(self.pid)

    def stop(self, probes: int = 0) -> float:
        tasks, ticks = _tasks(self.pid), _ticks(self.pid)
        self.coarse = not set(self.tasks) <= set(tasks)
        if not self.coarse:
            used_ms = (sum(tasks.values()) - sum(self.tasks.values())) / 1e6
        else:  # a thread ended meanwhile: its time is only in the process's ticks (10 ms each)
            used_ms = (ticks - self.ticks) * 1e3
        return max(0.0, used_ms - probes * self.probe_ms)


class Prober:
    """A thread asking /healthz every PROBE_EVERY_S on one kept-alive connection: the slowest answer."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.running = False
        self.slowest = 0.0
        self.count = 0

    def ask(self) -> float:
        began = time.perf_counter()
        try:
            self.connection.request("GET", "/healthz")
            self.connection.getresponse().read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        return time.perf_counter() - began

    def __enter__(self) -> Prober:
        self.running, self.slowest, self.count = True, 0.0, 0
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self) -> None:
        while self.running:
            self.slowest = max(self.slowest, self.ask())
            self.count += 1
            time.sleep(PROBE_EVERY_S)

    def __exit__(self, *exc: object) -> None:
        self.running = False
        self.thread.join()


class Bench:
    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.meter = Meter(server.pid)
        self.prober = Prober(server.port)
        self.rows: list[dict] = []
        samples = []
        for _ in range(30):  # what one probe costs the server, taken off every figure
            self.meter.start()
            self.prober.ask()
            samples.append(self.meter.stop())
        self.meter.probe_ms = sorted(samples)[len(samples) // 2]
        print(f"one /healthz probe: {self.meter.probe_ms:.2f} ms of server CPU (median of 30), taken off below")

    def measured(self, run):
        """(server CPU ms, wall ms, slowest /healthz ms, run's answer) of one ``run()``."""
        with self.prober as probe:
            self.meter.start()
            began = time.perf_counter()
            out = run()
            wall = (time.perf_counter() - began) * 1e3
            time.sleep(0.001)
        return self.meter.stop(probe.count), wall, probe.slowest * 1e3, out

    def timed(self, what: str, run, again: int = 0) -> list:
        """``run()`` once and ``again`` times more, each timed; prints one line; the first run's answer."""
        figures, answer, coarse = [], None, False
        for index in range(1 + again):
            cpu, wall, slowest, out = self.measured(run)
            figures.append((cpu, wall, slowest))
            coarse = coarse or self.meter.coarse
            if index == 0:
                answer = out
        first = figures[0]
        text = f"{what:58s} first {first[0]:7.1f} ms CPU {first[1]:7.1f} ms wall, healthz {first[2]:6.1f} ms"
        if again:
            cpus = sorted(f[0] for f in figures[1:])
            text += (f" | again x{again}: {cpus[0]:6.1f}-{cpus[-1]:6.1f} ms CPU, healthz "
                     f"{max(f[2] for f in figures[1:]):6.1f} ms")
        last = f" then [{out}]" if again and str(out)[:3] != str(answer)[:3] else ""  # another status
        print(f"{text}  [{answer}]{last}{' (ticks: a thread ended)' if coarse else ''}", flush=True)
        self.rows.append({"what": what, "figures": figures, "answer": answer})
        return answer


# --- requests ------------------------------------------------------------------------------------------


def http_get(base: str, path: str, headers: dict | None = None):
    def run() -> str:
        request = urllib.request.Request(base + path, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return f"{response.status} {len(response.read()) / 1024:.0f} KB"
        except urllib.error.HTTPError as error:
            body = error.read()
            return f"{error.code} {body[:80]!r}"
    return run


def http_post(base: str, path: str, body: bytes, kind: str = "application/json"):
    def run() -> str:
        request = urllib.request.Request(base + path, data=body, method="POST", headers={"content-type": kind})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return f"{response.status} {response.read()[:60]!r}"
        except urllib.error.HTTPError as error:
            return f"{error.code} {error.read()[:120]!r}"
    return run


def events_in(frame: list) -> int:
    return sum(len(run) - 4 for run in frame[2:] if type(run) is list)


async def _join(url: str, since: int, snapshot: bool) -> str:
    """A spectator's hello; read until the last frame it waits for (the head, and the history)."""
    async with websockets.connect(url, max_size=2**24) as socket:
        hello = {"type": "hello", "since": since, "token": None}
        if snapshot:
            hello["snapshot"] = True
        await socket.send(json.dumps(hello))
        welcome = json.loads(await socket.recv())
        if welcome.get("type") != "welcome":
            return f"no welcome: {str(welcome)[:100]}"
        head, upto, history, want_history, count = welcome["head"], since, 0, 0, 0
        while upto < head or history < want_history:
            frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
            count += 1
            if type(frame) is list:
                upto = frame[0] + events_in(frame) - 1
            elif frame.get("type") == "snapshot":
                upto = want_history = frame["seq"]
            elif frame.get("type") == "history":
                history += sum(events_in(each) for each in frame["frames"])
            elif frame.get("type") == "error":
                return f"error {frame}"
        return f"{count} frames to seq {upto}" + (f", history of {history}" if want_history else "")


async def _open_close(url: str) -> str:
    """A socket opened and closed without a hello: the server loads the game's Room on the upgrade."""
    async with websockets.connect(url) as socket:
        await socket.ping()
    await asyncio.sleep(0.3)  # the load goes on after the close: its wall time is 300 ms more than it took
    return "closed"


def ws_open_close(server: ServerProcess, game_id: str):
    return lambda: asyncio.run(_open_close(f"{server.ws_url}/ws/{game_id}"))


def ws_join(server: ServerProcess, game_id: str, since: int, snapshot: bool = False):
    return lambda: asyncio.run(_join(f"{server.ws_url}/ws/{game_id}", since, snapshot))


class Holder:
    """A spectator holding the game in memory (its Room) while other sockets come and go."""

    def __init__(self, server: ServerProcess, game_id: str, head: int) -> None:
        self.url, self.head = f"{server.ws_url}/ws/{game_id}", head
        self.ready, self.done = threading.Event(), threading.Event()

    async def _hold(self) -> None:
        async with websockets.connect(self.url) as socket:
            await socket.send(json.dumps({"type": "hello", "since": self.head, "token": None}))
            await socket.recv()
            self.ready.set()
            while not self.done.is_set():
                try:
                    await asyncio.wait_for(socket.recv(), 0.05)
                except TimeoutError:
                    pass

    def __enter__(self) -> Holder:
        self.thread = threading.Thread(target=lambda: asyncio.run(self._hold()), daemon=True)
        self.thread.start()
        self.ready.wait(60)
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.thread.join()
        time.sleep(0.1)  # the server drops the Room once its last socket has gone


def scenario_of(name: str, kind: str) -> dict:
    """``sample``: the built-in scenario of ``SCENARIOS``; ``largest``: ``bench.decide``'s largest one."""
    if kind == "largest":
        import bench.decide as decide

        return getattr(decide, f"largest_{name}")()
    from server import scenarios

    return scenarios.load(SCENARIOS[name])[1]


def long_game(server: ServerProcess, name: str, data: dict, seed: int, envelopes: int, undo: bool = False) -> str:
    """``tests.server_fixture.seeded_game``'s long game of ``data`` (its rounds raised up to the game's
    bound; stored as over once it ended), with ``undo`` one command taken back after the fourth
    (``take_back``). Its id."""
    return seeded_game(server, dict(data, game=name), seed, envelopes=envelopes, undo_after=4 if undo else None)["game"]


# --- what is measured ----------------------------------------------------------------------------------


def server_wide(bench: Bench) -> None:
    base = bench.server.base_url
    bench.timed("GET / (the lobby page: the first page builds the bundle)", http_get(base, "/"), 2)
    page = urllib.request.urlopen(base + "/").read().decode()
    for path in ("/offline", "/healthz", "/metrics", "/api/scenarios", "/api/scenarios/full", "/api/games?limit=200",
                 "/api/nothing", "/static/nothing", "/play/g-0000000000"):
        bench.timed(f"GET {path}", http_get(base, path), 2)
    for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page)[:3]:
        bench.timed(f"GET {src[:50]} (gzip)", http_get(base, src, {"Accept-Encoding": "gzip"}), 2)


def seqs_to_ask(head: int, count: int = 8) -> list:
    """Seqs at k*256+255 spread over the log (each the most folds a /state may take), then 1 and head-1."""
    worst = [k * SNAPSHOT_EVERY + SNAPSHOT_EVERY - 1 for k in range(head // SNAPSHOT_EVERY)]
    worst = [seq for seq in worst if seq < head]
    step = max(1, len(worst) // count)
    return worst[::step][:count] + [1, head - 1]


def fitting(log: bytes) -> bytes:
    """The first lines of a JSON Lines log that fit the import's bounds (MAX_IMPORT_LINES, MAX_IMPORT_BYTES)."""
    lines = log.splitlines(keepends=True)[:MAX_IMPORT_LINES]
    while sum(len(line) for line in lines) > MAX_IMPORT_BYTES:
        lines = lines[: len(lines) * 9 // 10]
    return b"".join(lines)


def one_game(bench: Bench, name: str, kind: str, envelopes: int, seed: int, again: int, with_log: bool,
             undo: bool = False, with_import: bool = True) -> None:
    server, base = bench.server, bench.server.base_url
    began = time.perf_counter()
    game_id = long_game(server, name, scenario_of(name, kind), seed, envelopes, undo)
    head = [g for g in json.loads(urllib.request.urlopen(base + "/api/games?limit=200").read())
            if g["game"] == game_id][0]["head"]
    scenario = SCENARIOS[name] if kind == "sample" else f"{name}, bench.decide's largest scenario"
    print(f"\n== {scenario}{', one undo at seq ~10' if undo else ''}: {head} envelopes (asked {envelopes}), "
          f"written in {time.perf_counter() - began:.1f} s, game {game_id}", flush=True)
    name = f"{name}{'*' if kind == 'largest' else ''}{' undo' if undo else ''}"
    api = f"/api/games/{game_id}"
    bench.timed(f"{name} {head}: GET /state (head; folds from 0, writes snapshots)", http_get(base, f"{api}/state"),
                again)
    firsts, agains = [], []
    for seq in seqs_to_ask(head):
        bench.timed(f"{name} {head}: GET /state?seq={seq}", http_get(base, f"{api}/state?seq={seq}"), 1)
        firsts.append(bench.rows[-1]["figures"][0][0])
        agains.append(bench.rows[-1]["figures"][1][0])
    print(f"   /state?seq= over {len(firsts)} seqs: first {min(firsts):.1f}-{max(firsts):.1f} ms, "
          f"again {min(agains):.1f}-{max(agains):.1f} ms CPU")
    bench.timed(f"{name} {head}: GET /rules", http_get(base, f"{api}/rules"), again)
    bench.timed(f"{name} {head}: GET /audit", http_get(base, f"{api}/audit"), again)
    if with_log:
        bench.timed(f"{name} {head}: GET /log", http_get(base, f"{api}/log"), 1)
    for kind in ("play", "watch", "replay"):
        bench.timed(f"{name} {head}: GET /{kind}/id", http_get(base, f"/{kind}/{game_id}"), again)
    if with_import:  # its own log posted back: 409, the game is stored (before 2026-12-02: audited whole first)
        log = fitting(urllib.request.urlopen(f"{base}{api}/log").read())
        lines = len(log.splitlines())
        bench.timed(f"{name} {head}: POST /import of its log ({lines} lines, {len(log) // 1024} KB)",
                    http_post(base, "/api/games/import", log, "application/x-ndjson"), again)
    # The socket: the game not in memory (each join loads its Room: nobody else holds it), then held.
    bench.timed(f"{name} {head}: WS opened and closed, no hello (Room.load)", ws_open_close(server, game_id), again)
    for label, since, snapshot in (("since=head", head, False), ("since=0", 0, False),
                                   ("since=0 snapshot", 0, True)):
        bench.timed(f"{name} {head}: WS {label}, not in memory (Room.load)", ws_join(server, game_id, since, snapshot),
                    again)
    with Holder(server, game_id, head):
        for label, since, snapshot in (("since=head", head, False), ("since=0", 0, False),
                                       ("since=0 snapshot", 0, True)):
            bench.timed(f"{name} {head}: WS {label}, in memory", ws_join(server, game_id, since, snapshot), again)


def finished_log(name: str, seed: int) -> tuple[bytes, int]:
    """The longest finished game of the sample scenario that fits the import's bounds, as JSON Lines."""
    import events.games
    from events.bots import random_step
    from events.dice import local_secret
    from events.log import Table
    from events.rng import Rng
    from server import frames, scenarios
    from server.tokens import new_game_id

    game_name, data = scenarios.load(SCENARIOS[name])
    game = events.games.load(game_name)
    rounds = data.get("rounds")
    best = None
    for _attempt in range(6):
        scenario = dict(data, rounds=rounds) if rounds else data
        table = Table.create(game, new_game_id(), scenario, local_secret(seed), at="2026-12-01T00:00:00.000000Z")
        picker = Rng(seed)
        while not game.is_over(table.state) and table.seq < MAX_IMPORT_LINES + 1:
            step = random_step(game, table.state, picker)
            if step is None:
                break
            table.submit(step[0], step[1], f"c-{table.seq + 1}", at="2026-12-01T00:00:01.000000Z")
        body = "".join(frames.encode_envelope(e) + "\n" for e in table.envelopes).encode()
        fits = len(body) <= MAX_IMPORT_BYTES and table.seq <= MAX_IMPORT_LINES
        if fits and game.is_over(table.state) and (best is None or table.seq > best[1]):
            best = (body, table.seq)
        if not rounds:
            break
        if fits:  # longer: as many rounds as the bounds leave room for, with a margin
            grow = min(MAX_IMPORT_LINES / table.seq, MAX_IMPORT_BYTES / len(body)) * 0.9
            if grow < 1.1:
                break
            rounds = min(rounds_bound(name), int(rounds * grow))
        else:
            rounds = max(1, int(rounds * 0.8))
    if best is None:
        return body, table.seq  # not over or too large: the server says so (and what it cost)
    return best


def creations(bench: Bench, names: list, seed: int, again: int, with_import: bool) -> None:
    import bench.decide as decide

    base = bench.server.base_url
    print("\n== POST /api/games (the largest scenario of each game's bounds) and POST /api/games/import")
    for name in names:
        scenario = getattr(decide, f"largest_{name}")()
        body = json.dumps({"scenario": scenario}).encode()
        bench.timed(f"{name}: POST /api/games largest ({len(body) // 1024} KB)", http_post(base, "/api/games", body),
                    again)
        bench.timed(f"{name}: POST /api/games {SCENARIOS[name]}",
                    http_post(base, "/api/games", json.dumps({"scenario": SCENARIOS[name]}).encode()), again)
        if with_import:
            log, lines = finished_log(name, seed)
            post = http_post(base, "/api/games/import", log, "application/x-ndjson")
            bench.timed(f"{name}: POST /import {lines} lines {len(log) // 1024} KB (then 409 again)", post, again)


FLOOD = 300  # frames a flood sends on one socket, without waiting (the command burst allows 400)
SUSTAINED = 5.0  # seconds a sustained flood of refused commands runs


async def _socket_flood(bench: Bench, url: str, token: str | None, setup: list, flood: list) -> str:
    """Say hello, send ``setup`` (answered one by one), then time ``flood`` sent at once until every
    frame of it is answered (an error, a rejection, an ack) or the socket is closed (past its fault
    bound, server/limits.py); the answers' codes, counted."""
    async with websockets.connect(url, max_size=2**24) as socket:
        await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
        done: dict = {}

        async def answers(count: int) -> None:
            while count:
                frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
                if type(frame) is list:
                    if frame[-1] != 1:
                        continue  # another's events, or the catch-up
                    code = "ack"
                elif frame.get("type") in ("welcome", "chat-history"):
                    continue
                else:
                    code = frame.get("code") or frame.get("rule") or frame.get("type")
                done[code] = done.get(code, 0) + 1
                count -= 1

        for frame in setup:
            await socket.send(json.dumps(frame))
            await answers(1)
        done.clear()

        async def run() -> None:
            try:
                for frame in flood:
                    await socket.send(frame if isinstance(frame, str) else json.dumps(frame))
                await answers(len(flood))
            except websockets.ConnectionClosed as error:
                done[f"closed {error.rcvd.code if error.rcvd else None}"] = 1

        loop = asyncio.get_running_loop()
        cpu, wall, slowest, _ = await loop.run_in_executor(None, bench.measured,
                                                           lambda: asyncio.run_coroutine_threadsafe(run(), loop).result())
        return (f"{cpu / len(flood):6.2f} ms CPU per frame ({cpu:.0f} ms for {len(flood)}, {wall:.0f} ms wall, "
                f"healthz {slowest:.0f} ms) answers {done}")


def floods(bench: Bench) -> None:
    """What one socket can make the loop do per frame: the costliest refusal found, and cheap faults."""
    import bench.decide as decide
    from server.limits import Limits

    limits = Limits()
    base = bench.server.base_url
    print(f"\n== One socket's frames, sent at once (commands are limited to {limits.commands_per_second}/s, "
          f"bursts of {limits.command_burst}, a refused one counting as {limits.refusal_cost}; faulty frames to "
          f"{limits.faults_per_minute} a minute, then too-many-faults and the close)")
    body = json.dumps({"scenario": decide.largest_skirmish()}).encode()
    created = json.loads(urllib.request.urlopen(urllib.request.Request(
        base + "/api/games", data=body, headers={"content-type": "application/json"})).read())
    url = f"{bench.server.ws_url}/ws/{created['game']}"
    red = created["seats"]["red"]["token"]
    # bench.decide's 40 x 40 map: a Move into the pit at (0, 0) is refused (SK-5) after the whole movement
    # search of a speed-40 figure; the state does not change, so the same refusal can be asked again and again.
    setup = [{"type": "command", "id": "c-setup", "command": {"type": "Activate", "data": {"figure": "f0"}}}]
    moves = [{"type": "command", "id": f"c-{n}", "command": {"type": "Move", "data": {"figure": "f0", "to": [0, 0]}}}
             for n in range(FLOOD)]
    print("skirmish largest, seat red: Move f0 into a pit (SK-5)  ",
          asyncio.run(_socket_flood(bench, url, red, setup, moves)), flush=True)
    print(f"  the same for {SUSTAINED:.0f} s, 20 at once on a new socket each time  ",
          asyncio.run(_reconnect_flood(bench, url, red, moves[:20], SUSTAINED)), flush=True)
    cheap = [("not JSON", ["x" * 100] * FLOOD),
             ("8 KiB frames nested 32 deep", ['{"type":"chat","text":' + "[" * 31 + "0" + "]" * 31 + "}" + " " * 8000]
              * FLOOD),
             ("hello since beyond the head (bad-since)", [{"type": "hello", "since": 10**9, "token": None}] * FLOOD),
             ("hello with a wrong token (bad-token)", [{"type": "hello", "since": 0, "token": "x" * 40}] * FLOOD)]
    for label, flood in cheap:
        print(f"skirmish largest, before hello: {label:40s}", asyncio.run(_unhello_flood(bench, url, flood)), flush=True)


async def _reconnect_flood(bench: Bench, url: str, token: str, flood: list, seconds: float) -> str:
    """For ``seconds``: a socket says hello with ``token``, sends ``flood`` at once, reads the answers (or
    until it is closed), closes; again. A spectator holds the game in memory meanwhile (else each socket
    would load it again). The server's CPU as a share of one core."""
    codes: dict = {}
    sockets = [0]
    watcher = await websockets.connect(url, max_size=2**24)
    await watcher.send(json.dumps({"type": "hello", "since": 0, "token": None}))
    await watcher.recv()  # the welcome: the game is in memory

    async def one() -> None:
        async with websockets.connect(url, max_size=2**24) as socket:
            await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
            for frame in flood:
                await socket.send(json.dumps(frame))
            count = len(flood)
            try:
                while count:
                    frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
                    if type(frame) is list or frame.get("type") in ("welcome", "chat-history"):
                        continue
                    code = frame.get("code") or frame.get("rule")
                    codes[code] = codes.get(code, 0) + 1
                    count -= 1
            except websockets.ConnectionClosed:
                codes["closed"] = codes.get("closed", 0) + 1
        sockets[0] += 1

    async def run() -> None:
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            await one()

    loop = asyncio.get_running_loop()
    try:
        cpu, wall, slowest, _ = await loop.run_in_executor(
            None, bench.measured, lambda: asyncio.run_coroutine_threadsafe(run(), loop).result())
    finally:
        await watcher.close()
    return (f"{cpu / wall * 100:.1f} % of a core ({cpu:.0f} ms CPU in {wall:.0f} ms wall, {sockets[0]} sockets, "
            f"healthz {slowest:.0f} ms) answers {codes}")


async def _unhello_flood(bench: Bench, url: str, flood: list) -> str:
    """``flood`` on a socket that has not said hello (each frame is answered with an error), until every
    frame is answered or the server closes the socket (past its fault bound)."""
    async with websockets.connect(url, max_size=2**24) as socket:
        codes: dict = {}
        closed: list = []

        async def run() -> None:
            try:
                for frame in flood:
                    await socket.send(frame if isinstance(frame, str) else json.dumps(frame))
                while sum(codes.values()) < len(flood):
                    frame = json.loads(await asyncio.wait_for(socket.recv(), 60))
                    codes[frame.get("code")] = codes.get(frame.get("code"), 0) + 1
            except websockets.ConnectionClosed as error:
                closed.append(error.rcvd.code if error.rcvd is not None else None)

        loop = asyncio.get_running_loop()
        cpu, wall, slowest, _ = await loop.run_in_executor(None, bench.measured,
                                                           lambda: asyncio.run_coroutine_threadsafe(run(), loop).result())
        answered = sum(codes.values())
        ending = f", closed {closed[0]} after {answered} answers" if closed else ""
        return (f"{cpu / len(flood):6.2f} ms CPU per frame sent ({cpu:.0f} ms for {len(flood)}, {wall:.0f} ms wall, "
                f"healthz {slowest:.0f} ms) answers {codes}{ending}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.costs", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SCENARIOS))
    parser.add_argument("--scenarios", default="sample", help="sample and/or largest (bench.decide's), comma-separated")
    parser.add_argument("--undo", action=argparse.BooleanOptionalAction, default=False,
                        help="each long game once more with one command taken back near its start (CORE-4)")
    parser.add_argument("--envelopes", default="2000,10000", help="lengths of the long games, comma-separated")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--again", type=int, default=2, help="repeats after the first request")
    parser.add_argument("--log", action=argparse.BooleanOptionalAction, default=True, help="time GET /log too")
    parser.add_argument("--import", dest="imports", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--server-wide", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--floods", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args(argv)
    names = [name for name in args.games.split(",") if name]
    print(f"chronicle costs: {os.uname().nodename}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="chronicle-costs-") as scratch:
        with ServerProcess(Path(scratch) / "costs.db").start() as server:
            bench = Bench(server)
            if args.server_wide:
                server_wide(bench)
            for name in names:
                for kind in args.scenarios.split(","):
                    for envelopes in (int(n) for n in args.envelopes.split(",") if n):
                        for undo in (False, True) if args.undo else (False,):
                            one_game(bench, name, kind, envelopes, args.seed, args.again, args.log, undo,
                                     args.imports)
            creations(bench, names, args.seed, args.again, args.imports)
            if args.floods:
                floods(bench)
    print(f"\nload at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

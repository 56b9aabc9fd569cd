"""Load Chronicle like a crowd: G games × (P players + S spectators), real WebSocket clients.

``python -m bench.load [--games 10] [--players 2] [--spectators 2] [--rate 0] [--processes 1|2]
[--db sqlite|postgres] [--seconds 10] [--warmup 3]``

Real ``chronicle serve`` subprocesses (1 or 2, on one store) on free loopback ports; with
``--db postgres`` the bench starts its own PostgreSQL from Debian's binaries in a temporary
directory (``tests/postgres_fixture.py``, PostgreSQL's durable defaults), with ``sqlite`` a
fresh file (``synchronous=FULL``). With two processes each game's clients alternate between
them, so every command crosses processes through LISTEN/NOTIFY (SQLite cannot do that: two
processes need ``--db postgres``).

Each game plays the Expeditions Move (mecha, the sample board, rounds enough to never end).
The seat on turn sends a random legal command once the previous one reached every client of
its game (seats fold the events with ``events/`` to know what is legal), no sooner than its
game's share of ``--rate`` commands/s allows (0: as fast as turns go, as people clicking
instantly would). A command counts when every client of its game has received its last event:
its latency runs from the send to that moment. Bytes are WebSocket payload received per client
(permessage-deflate off by default, as boardgame.io's socket.io ships; ``--deflate`` offers it, as
browsers do), and bytes on the wire: what the TCP socket delivered (frame headers included, after
compression). ``--root DIR`` runs the server from another checkout (e.g. ``git archive`` of an
older commit), to compare before and after a change in the same minute; the clients read the
per-command ``events`` frame by the wire schema, the same frame from before it (72ddf48: field
names, hex hashes) and the older per-envelope ``event`` frame. Only the window after the warm-up
counts; CPU is read from ``/proc/<pid>/stat`` at its start and end (each server with its
children, the load generator on its own). The clients run on uvloop, as the server does (and as
boardgame.io's run on node's libuv); each client takes a whole text frame in its socket's
``data_received``, in the order uvloop reads the sockets, rather than through websockets'
assembler and a reader task (fragments, pings and closes still go websockets' way). Once every
socket is set up the generator freezes its objects for the cyclic collector and then keeps its
full collections short as ``chronicle serve`` does (``server/gcpolicy.py``; ``--no-gc-freeze``
does not): with 1,200 sockets a full collection of them all stopped every client for 15–170 ms,
frames read late that the server did not delay (docs/performance.md, "The latency tail"). It
prints figures and asserts nothing; it stops by itself within
``warmup + seconds + 60`` s. ``--json`` prints one JSON object instead (for bench.compare).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import msgspec
import uvloop
import websockets
from websockets.frames import Opcode

import events.games
from events.log import Envelope
from server import frames, gcpolicy
from server.scenarios import load

GAME = events.games.load("mecha")
SEAT_NAMES = ("red", "blue", "green", "white", "black")
BIG = str(10**6)
# The limits of server/limits.py are for people, not for a bench: every server a bench starts lifts them.
UNLIMITED = {"CHRONICLE_COMMANDS_PER_SECOND": BIG, "CHRONICLE_COMMAND_BURST": BIG,
             "CHRONICLE_CONNECTIONS_PER_GAME": BIG, "CHRONICLE_GAMES_PER_SERVER": BIG,
             "CHRONICLE_CONNECTIONS_PER_ADDRESS": BIG, "CHRONICLE_GAMES_PER_MINUTE": BIG,
             "CHRONICLE_OPENS_PER_MINUTE": BIG, "CHRONICLE_OPEN_GAMES_PER_ADDRESS": BIG,
             "CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS": "0"}  # no cap: every socket comes from 127.0.0.1


class Game:
    """One game under load: its clients, and the one command in flight."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.clients: list[Client] = []
        self.target = 1 << 62
        self.reached: asyncio.Future | None = None
        # The seats' fold, shared: the last seq folded and the state there. Every seat of the bench's
        # game receives the same envelopes (mecha hides nothing), so the first seat to read a frame
        # folds it and the others take the state it reached, as people's browsers would each have.
        self.folded: tuple[int, object] = (0, None)

    def progressed(self) -> None:
        if self.reached is not None and not self.reached.done() and all(c.head >= self.target for c in self.clients):
            self.reached.set_result(time.perf_counter())


class Client:
    def __init__(self, game: Game, socket, seat: str | None) -> None:
        self.game = game
        self.socket = socket
        self.seat = seat
        self.head = 0
        self.state = None
        self.bytes = 0
        self.wire = 0  # bytes the TCP socket delivered (after permessage-deflate, with frame headers)
        self.answers: asyncio.Queue = asyncio.Queue()
        self.started: str | None = None  # the welcome's: the base of the events frames' times
        self.seats = None  # the welcome's: what the events frames' seat indexes name

    def count_wire(self, counting: dict) -> None:
        """Count what the TCP transport hands the socket's protocol, while ``counting["on"]``."""
        received = self.socket.data_received

        def data_received(data: bytes) -> None:
            if counting["on"]:
                self.wire += len(data)
            received(data)

        self.socket.data_received = data_received  # the transport calls its protocol's attribute,
        self.socket.transport.set_protocol(self.socket)  # which uvloop's looks up again only here

    def read_at_once(self, counting: dict) -> None:
        """Take each whole text frame as it arrives, in the socket's ``data_received``, instead of
        through websockets' assembler and the reader's task: one pass through the loop's ready queue
        fewer per frame and client, in the order uvloop reads the sockets (docs/performance.md, "The
        latency tail"). Other frames (fragments, pings, a close) go websockets' way, to ``read``."""
        process = self.socket.process_event

        def process_event(event) -> None:
            if event.opcode is Opcode.TEXT and event.fin:
                self.take(bytes(event.data).decode(), counting)
            else:
                process(event)

        self.socket.process_event = process_event

    async def read(self, counting: dict) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for message in self.socket:
                self.take(message, counting)

    def take(self, message: str, counting: dict) -> None:
        """One whole message from the server: count it, fold it if a seat, note how far this client has."""
        if counting["on"]:
            self.bytes += len(message)
        if '"type":"event"' in message[:16]:  # a server from before one frame per command (--root)
            self.old_frame(msgspec.json.decode(message))
            return
        if message.startswith('{"type":"events"'):  # a server from before the events array (--root)
            frame = self.before_array(msgspec.json.decode(message))
        else:
            frame = frames.decode_server_frame(message)
        if isinstance(frame, frames.Events):
            last = frame.seq + frame.count() - 1
            if self.seat is not None:  # a seat folds, to know its legal commands
                self.fold(frame, last)
            self.head = last
            self.game.progressed()
            if frame.ack:  # the sender's copy of its command's frame carries the ack
                self.answers.put_nowait(frame.ack_frame())
        elif isinstance(frame, frames.Welcome):
            self.started, self.seats = frame.started, frame.seats
        else:
            self.answers.put_nowait(frame)

    def fold(self, frame: frames.Events, last: int) -> None:
        """This seat's state after ``frame``: the one another seat of the game reached there, else folded
        here (from that seat's state when it is where this one stands) and shared (``Game.folded``)."""
        head, state = self.game.folded
        if head == last and self.head == frame.seq - 1:
            self.state = state  # another seat folded this frame already
            return
        if head == self.head:
            self.state = state
        if isinstance(frame.hash, str) and len(frame.hash) == 64:  # before the wire schema (--root)
            records = [self.named_event(event) for run in frame.runs for event in run[4:]]
        else:
            records = [envelope.event for envelope in frames.frame_envelopes(
                GAME, self.game.game_id, frame, self.started, self.seats)]
        for record in records:
            self.state = GAME.evolve(self.state, record)
        self.game.folded = (last, self.state)

    @staticmethod
    def before_array(frame: dict) -> frames.Events:
        """An ``events`` object frame of a server from before the events array (72c0794: seats by name,
        events in a list at a run's [4], the whole hash in 43 base64url characters) as this one's."""
        hash_ = frame["hash"]
        if isinstance(hash_, str) and len(hash_) == 43:
            hash_ = base64.urlsafe_b64encode(base64.urlsafe_b64decode(hash_ + "=")[:12]).decode("ascii")
        return frames.Events(frame["seq"], hash_, [run[:4] + run[4] for run in frame["runs"]])

    @staticmethod
    def named_event(event: list) -> object:
        """An event of an ``events`` frame from before the wire schema (72ddf48): ``[type, rule, data(, dice)]``."""
        return GAME.events.build(dict(event[2], type=event[0]))

    def old_frame(self, frame: dict) -> None:
        envelope = frame["envelope"]
        if self.seat is not None:
            self.state = GAME.evolve(self.state, Envelope.from_dict(GAME, envelope).event)
        self.head = envelope["seq"]
        self.game.progressed()


def scenario_for(players: int) -> dict:
    _, scenario = load("mecha/sample")
    mechs = [seat["mech"] for seat in scenario["seats"]]
    seats = [{"seat": SEAT_NAMES[i], "mech": mechs[i % len(mechs)]} for i in range(players)]
    return dict(scenario, seats=seats, rounds=10_000)  # long enough that no game ends inside the window


async def join(ws_url: str, game: Game, token: str | None, seat: str | None, deflate: bool = False,
               counting: dict | None = None) -> Client:
    socket = await websockets.connect(f"{ws_url}/ws/{game.game_id}", max_size=2**24,
                                      compression="deflate" if deflate else None)
    client = Client(game, socket, seat)
    if counting is not None:
        client.count_wire(counting)
        client.read_at_once(counting)
    await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
    game.clients.append(client)
    return client


async def drive(game: Game, seats: dict, interval: float, rng: random.Random, results: dict, counting: dict,
                stop: asyncio.Event) -> None:
    number = 0
    anyone = next(iter(seats.values()))
    next_at = time.perf_counter()
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        if interval:
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            next_at = max(next_at + interval, time.perf_counter() - interval)  # no catch-up burst after a stall
        seat = GAME.turn(anyone.state)[0]
        mover = seats[seat]
        command = rng.choice(GAME.legal(mover.state, seat)).to_data()
        kind = command.pop("type")
        number += 1
        started = time.perf_counter()
        game.reached = loop.create_future()
        game.target = 1 << 62  # not known until the ack
        await mover.socket.send(json.dumps({"type": "command", "id": f"b-{number}",
                                            "command": {"type": kind, "data": command}}))
        answer = await mover.answers.get()
        if not isinstance(answer, frames.Ack):
            results["refused"] += 1
            continue
        game.target = answer.last
        game.progressed()
        finished = await game.reached
        if counting["on"]:
            results["latencies"].append(finished - started)


async def until_started(games: list) -> None:
    """Wait until every client of the ``(game, seats)`` pairs has the game's first event."""
    while any(client.head < 1 for game, _ in games for client in game.clients):
        await asyncio.sleep(0.01)


async def wind_down(stop: asyncio.Event, tasks: list, games: list) -> list:
    """Stop the drivers and readers, close every socket of the ``(game, seats)`` pairs; their clients."""
    stop.set()
    for task in tasks:
        task.cancel()
    for game, _ in games:
        for client in game.clients:
            await client.socket.close()
    return [client for game, _ in games for client in game.clients]


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()  # after "pid (comm)": state, ppid, …


def cpu_seconds(pid: int, tree: bool = True) -> float:
    """CPU time (user + system, s) of ``pid`` from /proc/<pid>/stat; with ``tree``, also its reaped children's
    (cutime + cstime) and every live descendant's, so a server that forks is counted whole."""
    pids = [pid]
    if tree:
        parents = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError, IndexError):
                    parents.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
        for parent in pids:  # grows while it walks: breadth first over the descendants
            pids.extend(parents.get(parent, ()))
    ticks = 0
    for each in pids:
        with contextlib.suppress(OSError):  # a descendant may end while we look
            fields = _stat(each)
            ticks += sum(int(n) for n in fields[11:15 if tree else 13])
    return ticks / os.sysconf("SC_CLK_TCK")


async def run_load(args: argparse.Namespace, servers: list) -> dict:
    from tests.server_fixture import create_game

    scenario = scenario_for(args.players)
    rng = random.Random(args.seed)
    counting = {"on": False}
    results: dict = {"latencies": [], "refused": 0}
    games, drivers, readers = [], [], []
    stop = asyncio.Event()
    for index in range(args.games):
        created = create_game(servers[index % len(servers)].base_url, scenario)
        game = Game(created["game"])
        place = index  # clients alternate between processes, seats included
        seats = {}
        for seat, link in created["seats"].items():
            seats[seat] = await join(servers[place % len(servers)].ws_url, game, link["token"], seat, args.deflate,
                                     counting)
            place += 1
        for _ in range(args.spectators):
            await join(servers[place % len(servers)].ws_url, game, None, None, args.deflate, counting)
            place += 1
        readers += [asyncio.create_task(client.read(counting)) for client in game.clients]
        games.append((game, seats))
    await until_started(games)
    freeze = getattr(args, "gc_freeze", True)  # bench.server builds its own arguments
    if freeze:  # the sockets set up, frozen: the generator's full collections skip them (module doc)
        gc.collect()
        gc.freeze()
        gcpolicy.install({})
    try:  # the policy is uninstalled however the run ends (bench.server runs several in one process)
        interval = args.games / args.rate if args.rate else 0.0
        for game, seats in games:
            drivers.append(asyncio.create_task(drive(game, seats, interval, random.Random(rng.random()), results,
                                                     counting, stop)))
        await asyncio.sleep(args.warmup)
        pauses: list = []  # the generator's own GC pauses in the window (s): frames it read that late
        gc.callbacks.append(gc_timer := collector_pauses(pauses))
        counting["on"] = True
        cpu_before = [cpu_seconds(server.pid) for server in servers]
        own_before, started = cpu_seconds(os.getpid(), tree=False), time.perf_counter()  # the servers are our children
        await asyncio.sleep(args.seconds)
        counting["on"] = False
        gc.callbacks.remove(gc_timer)
        window = time.perf_counter() - started
        cpu = sum(cpu_seconds(server.pid) for server in servers) - sum(cpu_before)
        own = cpu_seconds(os.getpid(), tree=False) - own_before
        clients = await wind_down(stop, drivers + readers, games)
    finally:
        if freeze:
            gcpolicy.uninstall()
    done = len(results["latencies"])
    latencies = sorted(results["latencies"])
    return {
        "engine": "chronicle", "games": args.games, "players": args.players, "spectators": args.spectators,
        "processes": len(servers), "db": args.db, "window_s": window, "commands": done,
        "commands_per_s": done / window, "refused": results["refused"],
        "p50_ms": percentile(latencies, .50), "p95_ms": percentile(latencies, .95), "p99_ms": percentile(latencies, .99),
        # each command reaches the clients of its own game only
        "bytes_per_command_per_client": sum(c.bytes for c in clients) / max(done, 1) / (args.players + args.spectators),
        "wire_bytes_per_command_per_client": sum(c.wire for c in clients) / max(done, 1) / (args.players + args.spectators),
        "deflate": args.deflate,
        "server_cpu_pct": cpu / window * 100, "server_cpu_us_per_command": cpu / max(done, 1) * 1e6,
        "driver_cpu_pct": own / window * 100,
        "driver_gc_ms": sum(pauses) * 1000, "driver_gc_max_ms": max(pauses, default=0.0) * 1000,
        "loadavg": os.getloadavg()[0],
    }


def collector_pauses(pauses: list):
    """A ``gc.callbacks`` entry appending each collection's wall-clock time (s) to ``pauses``."""
    began = [0.0]

    def timer(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.perf_counter()
        else:
            pauses.append(time.perf_counter() - began[0])

    return timer


def percentile(values: list, fraction: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(fraction * len(values)))] * 1000


@contextlib.contextmanager
def chronicle_servers(processes: int, db: str, scratch: Path, sqlite_sync: str = "FULL", root: str | None = None,
                      profile: str | None = None):
    """``processes`` chronicle serve subprocesses on one fresh store; stopped (and PostgreSQL with them) on exit."""
    from tests.postgres_fixture import CliServer, PostgresServer

    with contextlib.ExitStack() as stack:
        if db == "postgres":
            postgres = stack.enter_context(PostgresServer(durable=True).start())
            store = postgres.create_database("bench")
        else:
            store = str(scratch / "bench.db")
        env = dict(UNLIMITED, CHRONICLE_SQLITE_SYNC=sqlite_sync)
        servers = []
        for _ in range(processes):
            server = CliServer(scratch, store, env=env)
            if root is not None or profile is not None:
                server = _elsewhere(server, root, profile)
            servers.append(stack.enter_context(server.start()))
        yield servers


# The server's module run as __main__ under cProfile timed by the thread's own CPU clock (not the wall
# clock of ``python -m cProfile``, which on a shared machine counts the time other processes took).
_PROFILED = """
import cProfile, runpy, sys, time
out, module = sys.argv[1], sys.argv[2]
sys.argv = [module] + sys.argv[3:]
profile = cProfile.Profile(time.thread_time)
try:
    profile.runcall(runpy.run_module, module, run_name="__main__", alter_sys=True)
except SystemExit:
    pass
finally:
    profile.dump_stats(out)
"""


def _elsewhere(server, root: str | None, profile: str | None):
    """``server`` run from the checkout ``root`` (its own PYTHONPATH and cwd), and/or under cProfile
    writing ``profile`` when it is stopped (SIGINT: uvicorn shuts down, cProfile writes)."""
    command = server._command

    def _command() -> list[str]:
        argv = command()
        if profile is not None:  # argv[1:3] is "-m server.cli.main" (or "-m uvicorn")
            argv = [argv[0], "-c", _PROFILED, profile, *argv[2:]]
        return argv

    server._command = _command
    if profile is not None:  # uvicorn re-raises a SIGTERM after its shutdown (no profile written); a SIGINT
        def stop() -> None:  # ends as KeyboardInterrupt, which chronicle serve takes as a normal end
            if server.process is not None and server.process.poll() is None:
                server.process.send_signal(signal.SIGINT)
                try:
                    server.process.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()

        server.stop = stop
    if root is not None:
        import tests.server_fixture as fixture

        start = server.start

        def started(timeout: float = 20.0):
            saved = fixture.ROOT
            fixture.ROOT = Path(root).resolve()
            try:
                return start(timeout)
            finally:
                fixture.ROOT = saved

        server.start = started
    return server


def measure(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="chronicle-load-") as scratch:
        with chronicle_servers(args.processes, args.db, Path(scratch), args.sqlite_sync, args.root,
                               args.profile) as servers:
            # uvloop, as the server runs on, and as boardgame.io's clients run on node's libuv
            with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
                return runner.run(asyncio.wait_for(run_load(args, servers), args.warmup + args.seconds + 60))


def describe(result: dict) -> str:
    refused = f", {result['refused']} refused" if result["refused"] else ""
    return "\n".join([
        f"  commands/s                 {result['commands_per_s']:,.0f}  ({result['commands']} in "
        f"{result['window_s']:.1f} s{refused})",
        f"  latency p50/p95/p99 ms     {result['p50_ms']:.1f} / {result['p95_ms']:.1f} / {result['p99_ms']:.1f}"
        "  (send to every client of the game)",
        f"  bytes/command/client       {result['bytes_per_command_per_client']:,.0f}  (payload received), "
        f"{result['wire_bytes_per_command_per_client']:,.0f} on the wire (deflate {'on' if result['deflate'] else 'off'})",
        f"  CPU                        server {result['server_cpu_pct']:.0f} %, load generator "
        f"{result['driver_cpu_pct']:.0f} % of one core (its GC {result['driver_gc_ms']:.0f} ms, longest pause "
        f"{result['driver_gc_max_ms']:.0f} ms); server {result['server_cpu_us_per_command']:,.0f} µs/command "
        f"(load average {result['loadavg']:.1f} on {os.cpu_count()} cores)",
    ])


def _store(args: argparse.Namespace) -> str:
    return "PostgreSQL (durable defaults)" if args.db == "postgres" else f"SQLite (synchronous={args.sqlite_sync})"


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    out.add_argument("--games", type=int, default=10)
    out.add_argument("--players", type=int, default=2, choices=range(1, 6), metavar="1-5", help="seats per game")
    out.add_argument("--spectators", type=int, default=2, help="watchers per game, besides its seats")
    out.add_argument("--rate", type=float, default=0.0, help="target commands/s over all games (0: as fast as turns go)")
    out.add_argument("--processes", type=int, default=1, choices=(1, 2))
    out.add_argument("--db", default="sqlite", choices=("sqlite", "postgres"))
    out.add_argument("--sqlite-sync", choices=("FULL", "NORMAL"), default="FULL",
                     help="SQLite's synchronous (FULL: an fsync per group commit, survives a power cut)")
    out.add_argument("--seconds", type=float, default=10.0, help="the measuring window")
    out.add_argument("--warmup", type=float, default=3.0)
    out.add_argument("--seed", type=int, default=1)
    out.add_argument("--deflate", action=argparse.BooleanOptionalAction, default=False,
                     help="the clients offer permessage-deflate, as browsers do (default off, as socket.io ships)")
    out.add_argument("--gc-freeze", action=argparse.BooleanOptionalAction, default=True,
                     help="freeze the generator's objects once its sockets are set up, and then the survivors of "
                          "each full collection (server/gcpolicy.py), so that its collector's pauses stay short")
    out.add_argument("--root", default=None, help="run the server from this checkout (before/after comparisons)")
    out.add_argument("--profile", default=None, help="run the server under cProfile, writing this file at its end")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    return out


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.processes == 2 and args.db != "postgres":
        print("bench.load: two processes share games only through PostgreSQL: add --db postgres", file=sys.stderr)
        return 2
    result = measure(args)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"chronicle load: {args.games} games x ({args.players} players + {args.spectators} spectators), "
          f"{args.processes} process{'es' if args.processes > 1 else ''} on {_store(args)}, "
          f"rate {'unpaced' if not args.rate else f'{args.rate:g}/s'}, {args.seconds:g} s window after "
          f"{args.warmup:g} s warm-up")
    print(describe(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())

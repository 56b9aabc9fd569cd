"""How many durable appends a store takes per second, with and without group commit (issue 16).

``python -m bench.store [--games 1,10,100] [--db sqlite|postgres] [--sqlite-sync FULL|NORMAL]
[--group-commit|--no-group-commit] [--seconds 3] [--events 2] [--catch-up N]``

No server, no WebSocket, no rules: G games, each a single writer as a Room is (its next append
waits for its last), append ``--events`` mecha-sized envelopes (~300 bytes) per command to one
fresh store, as fast as the store answers, for ``--seconds`` per shape. So it measures what the
store costs a command, apart from the server's CPU (``bench.load`` measures them together). It
prints, per shape, appends/s, the append's latency p50/p99 (its call to its return, i.e. until it
is durable), the write transactions the database committed (counted by the database: SQLite's
COMMITs after ``BEGIN IMMEDIATE`` on the store's connection, PostgreSQL's distinct ``xmin`` of
the event rows) and so appends per transaction, and this process's CPU per append (user +
system: the event loop, the store's thread, psycopg; PostgreSQL's own processes not included).
``--catch-up N`` adds, during each window, a reader that reads a game of N events from the start
every 50 ms (a browser catching up on a long game), and prints the reads it made: what a long
read costs the appends of every other game.

SQLite is a fresh file in a temporary directory (``synchronous=FULL`` by default); PostgreSQL is
started by the bench from Debian's binaries with its durable defaults (``tests/postgres_fixture.py``).
It runs any checkout's store: ``PYTHONPATH=/tmp/old python /path/to/bench/store.py`` measures the
``server/store`` of ``/tmp/old`` (a store without the knob is measured as it is, and says so).
Loopback and temporary files only; it ends by itself; it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a file: bench/server.py must not shadow PYTHONPATH's server/
    del sys.path[0]

from server.store import GameMeta, Stored  # noqa: E402

ENVELOPE = "x" * 300  # about one mecha envelope's JSON


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _meta(game_id: str) -> GameMeta:
    return GameMeta(game_id, "mecha", "bench", ("red", "blue"), {"red": "a" * 64, "blue": "b" * 64},
                    "2026-01-01T00:00:00Z")


def _make(kind: str, where: str, group_commit: bool | None, sync: str):
    from server.store.postgres import PostgresStore
    from server.store.sqlite import SqliteStore

    cls = SqliteStore if kind == "sqlite" else PostgresStore
    keywords = {"synchronous": sync} if kind == "sqlite" else {}
    knob = "group_commit" in inspect.signature(cls.__init__).parameters
    if knob and group_commit is not None:
        keywords["group_commit"] = group_commit
    return cls(where, **keywords), knob


class Committed:
    """The write transactions the database itself committed, counted its own way."""

    def __init__(self, kind: str, where: str, store) -> None:
        self.kind, self.where, self.store = kind, where, store
        self.sqlite = [0]

    async def start(self) -> None:
        if self.kind != "sqlite":
            return
        began = [""]

        def trace(statement: str) -> None:
            words = statement.lstrip()[:15].upper()
            if words.startswith("BEGIN"):
                began[0] = words
            elif words.startswith("COMMIT") and began[0] == "BEGIN IMMEDIATE":
                self.sqlite[0] += 1

        await self.store._run(lambda db: db.set_trace_callback(trace))

    async def count(self, prefix: str) -> int:
        if self.kind == "sqlite":
            return self.sqlite[0]
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.where, autocommit=True) as db:
            cursor = await db.execute("SELECT count(DISTINCT xmin::text) FROM events WHERE game LIKE %s AND seq > 1",
                                      (prefix + "%",))
            return (await cursor.fetchone())[0]


async def shape(kind: str, where: str, games: int, seconds: float, per_command: int, group_commit: bool | None,
                sync: str, catch_up: int = 0) -> dict:
    store, knob = _make(kind, where, group_commit, sync)
    await store.open()
    try:
        prefix = f"b{games}-{time.monotonic_ns() % 10**9}-"
        ids = [f"{prefix}{n}" for n in range(games)]
        for game_id in ids:
            await store.create_game(_meta(game_id), [Stored(1, None, ENVELOPE)])
        if catch_up:
            await store.create_game(_meta(prefix + "long"), [Stored(seq, None if seq == 1 else f"c-{seq}", ENVELOPE)
                                                           for seq in range(1, catch_up + 1)])
        committed = Committed(kind, where, store)
        await committed.start()
        latencies: list[float] = []
        stop = time.monotonic() + seconds

        async def writer(game_id: str) -> None:
            head, n = 1, 0
            while time.monotonic() < stop:
                n += 1
                batch = [Stored(head + k, f"c-{n}", ENVELOPE) for k in range(1, per_command + 1)]
                began = time.perf_counter()
                await store.append(game_id, head, batch)
                latencies.append(time.perf_counter() - began)
                head += per_command

        reads = [0]

        async def reader() -> None:
            while time.monotonic() < stop:
                if len(await store.read(prefix + "long")) != catch_up:
                    raise RuntimeError(f"the long game read back short of {catch_up} events")
                reads[0] += 1
                await asyncio.sleep(0.05)

        cpu, wall = _cpu(), time.perf_counter()
        await asyncio.gather(*(writer(game_id) for game_id in ids), *([reader()] if catch_up else []))
        cpu, wall = _cpu() - cpu, time.perf_counter() - wall
        transactions = await committed.count(prefix)
    finally:
        await store.close()
    latencies.sort()
    appends = len(latencies)
    return {"games": games, "appends": appends, "appends_per_s": appends / wall, "window_s": wall,
            "p50_ms": latencies[appends // 2] * 1000, "p99_ms": latencies[min(appends - 1, int(appends * 0.99))] * 1000,
            "transactions": transactions, "per_transaction": appends / max(1, transactions),
            "cpu_us_per_append": cpu / appends * 1e6, "group_commit": getattr(store, "group_commit", None),
            "knob": knob, "reads": reads[0]}


async def measure(args: argparse.Namespace, where: str) -> list[dict]:
    return [await shape(args.db, where, games, args.seconds, args.events, args.group_commit, args.sqlite_sync,
                        args.catch_up) for games in args.games]


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__.split("\n\n")[0])
    out.add_argument("--games", type=lambda text: [int(n) for n in text.split(",")], default=[1, 10, 100],
                     help="comma-separated numbers of games appending at once (default 1,10,100)")
    out.add_argument("--db", default="sqlite", choices=("sqlite", "postgres"))
    out.add_argument("--sqlite-sync", choices=("FULL", "NORMAL"), default="FULL")
    out.add_argument("--group-commit", action=argparse.BooleanOptionalAction, default=None,
                     help="default: the store's own (CHRONICLE_GROUP_COMMIT, else on)")
    out.add_argument("--seconds", type=float, default=3.0, help="per shape")
    out.add_argument("--events", type=int, default=2, help="events per append (a mecha command logs ~2.3)")
    out.add_argument("--catch-up", type=int, default=0, metavar="N",
                     help="also read a game of N events from the start every 50 ms (0: no reader)")
    return out


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if min(args.games) < 1 or args.seconds <= 0 or args.events < 1 or args.catch_up < 0:
        print("bench.store: --games, --seconds and --events must be positive, --catch-up not negative",
              file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        if args.db == "postgres":
            from tests.postgres_fixture import PostgresServer

            where = stack.enter_context(PostgresServer(durable=True).start()).create_database("bench")
            what = "PostgreSQL (durable defaults)"
        else:
            where = str(Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="chronicle-store-"))) / "bench.db")
            what = f"SQLite (synchronous={args.sqlite_sync})"
        results = asyncio.run(measure(args, where))
    import server.store

    knob = results[0]["knob"]
    mode = {True: "on", False: "off", None: "the store's default"}[results[0]["group_commit"]] if knob else \
        "this store has no group_commit knob: measured as it is"
    print(f"bench.store: {what}, group commit {mode}; server/store from {Path(server.store.__file__).parents[1]}; "
          f"{args.events} events/append; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for r in results:
        print(f"  {r['games']:>4} games: {r['appends_per_s']:8,.0f} appends/s  p50/p99 {r['p50_ms']:6.2f} / "
              f"{r['p99_ms']:6.2f} ms  {r['transactions']:6,} transactions ({r['per_transaction']:5.1f} appends each)  "
              f"CPU {r['cpu_us_per_append']:5.0f} µs/append"
              + (f"  ({r['reads']} reads of {args.catch_up:,} events)" if args.catch_up else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Where the server's time goes per command: ``bench.load`` with its server under cProfile.

``python -m bench.profile [--games 10] [--spectators 2] [--seconds 8] [--warmup 2] [--deflate]
[--root DIR] [--top 0]``

Runs ``bench.load`` (one ``chronicle serve`` on SQLite ``synchronous=FULL``) with the server run
under cProfile timed by its thread's CPU clock (``time.thread_time``: on a shared machine the wall
clock would count what other processes took); when the load ends the server gets SIGINT, shuts
down, and the profile is written. It then adds up the cumulative time of the functions of each step
of a command's hot path and divides by the commands the server decided (calls of
``Table.submit``, warm-up included, since the profile covers the server's whole life). Only plain
functions are counted (a coroutine's cumulative time restarts at every await; uvicorn's ``send``
is one, but it awaits nothing on its way to the transport; the writer's ``_pump`` counts only
what it does when it wakes), and only the event loop's thread
(uvloop's own C code is not seen, only what it calls back). The SQLite commit runs on that thread
while writes are quick (``server/store/sqlite.py``), so it is a step here: its statements, its
fsync's CPU (thread time does not count the wait for the disk), and its savepoints; when the
store has sent its writes to its own thread (after a slow one) it is not seen. cProfile slows every Python call, so the microseconds are inflated alike;
compare steps with each other and before with after (``--root`` of an older checkout), not with
the unprofiled figures of ``bench.load``. Prints a table and asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import pstats
import sys
import tempfile
from pathlib import Path

from bench import load

# step -> (path suffix, function name) of the plain functions that make it (none nested in another of the step)
STEPS = (
    ("receive: WebSocket frames read (and inflated)", (("websockets_sansio_impl.py", "data_received"),)),
    ("decode: client frame JSON, checked", (("server/frames.py", "decode_client_frame"),)),
    ("guards: command built, kinds checked", (("server/frames.py", "build_command"),)),
    ("guards: seat token checked", (("server/tokens.py", "seat_for_token"),)),
    ("Table.submit: decide + fold + hash, in all", (("events/log.py", "submit"),)),
    ("  decide (the rules)", (("events/games/mecha/rules.py", "decide"),)),
    ("  fold (evolve, every caller)", (("events/games/mecha/rules.py", "evolve"),)),
    ("  hash (state_hash)", (("events/canonical.py", "state_hash"),)),
    ("encode: Envelope.to_dict (every caller)", (("events/log.py", "to_dict"),)),
    ("encode: envelopes for the store", (("server/frames.py", "encode_envelope"),)),
    ("encode: frames for the clients", (("server/room.py", "_frames_for"),)),
    ("send: each client's batch queued, or written at once", (("server/connection.py", "send_batch"),)),
    ("send: frames built (and deflated), written", (("websockets_sansio_impl.py", "send"),)),
    ("send: prebuilt frames written at once (wsprotocol)", (("server/wsprotocol.py", "write"),)),
    ("send: the writer tasks, when woken (their sends included)", (("server/connection.py", "_pump"),)),
    ("store: the group commit (on the loop's thread)", (("server/store/sqlite.py", "_commit_appends"),)),
    ("metrics (Prometheus counters)", (("prometheus_client/metrics.py", "inc"),
                                       ("prometheus_client/metrics.py", "observe"))),
)


def steps(stats: pstats.Stats) -> tuple[int, float, list]:
    """(commands, total seconds of the loop's thread, [(step, seconds, calls)])."""
    table = stats.stats  # (file, line, name) -> (primitive calls, calls, own time, cumulative time, callers)
    commands = sum(value[1] for (file, _, name), value in table.items()
                   if file.endswith("events/log.py") and name == "submit")
    out = []
    for label, parts in STEPS:
        seconds, calls = 0.0, 0
        for suffix, function in parts:
            for (file, _, name), value in table.items():
                if name == function and file.endswith(suffix):
                    seconds += value[3]
                    calls += value[1]
        out.append((label, seconds, calls))
    return commands, stats.total_tt, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--spectators", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--deflate", action=argparse.BooleanOptionalAction, default=False)
    parser.add_argument("--root", default=None, help="profile the server of this checkout (before/after)")
    parser.add_argument("--top", type=int, default=0, help="also print the N functions of most own time")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="chronicle-profile-") as scratch:
        out = str(Path(scratch) / "server.prof")
        shape = load.parser().parse_args([
            "--games", str(args.games), "--spectators", str(args.spectators), "--seconds", str(args.seconds),
            "--warmup", str(args.warmup), "--profile", out, *(["--root", args.root] if args.root else []),
            "--deflate" if args.deflate else "--no-deflate"])
        result = load.measure(shape)
        stats = pstats.Stats(out)
    commands, total, rows = steps(stats)
    print(f"bench.profile: {args.games} games x (2 players + {args.spectators} spectators), server "
          f"{'from ' + args.root if args.root else 'of this checkout'}, deflate {'on' if args.deflate else 'off'}, "
          f"under cProfile; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  {commands:,} commands decided; the loop's thread {total / max(commands, 1) * 1e6:,.0f} µs/command "
          f"in all (profiled); {result['commands_per_s']:,.0f} commands/s in the window, "
          f"{result['bytes_per_command_per_client']:,.0f} bytes/command/client")
    print(f"  {'step':<56}{'µs/command':>11}{'share':>8}{'calls/command':>15}")
    for label, seconds, calls in rows:
        print(f"  {label:<56}{seconds / max(commands, 1) * 1e6:>11,.0f}{seconds / total * 100:>7.0f}%"
              f"{calls / max(commands, 1):>15.1f}")
    if args.top:
        stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

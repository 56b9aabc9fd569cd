"""Chronicle and boardgame.io side by side, one run, one machine, the same game and load shape.

``python -m bench.compare [--shapes 1x0,10x2,100x10] [--seconds 10] [--warmup 3] [--repeat 3]
[--db sqlite|postgres] [--sqlite-sync FULL|NORMAL] [--deflate off|on|both]``

The peer is ``bench/peers/boardgameio/``: the Expeditions Move (the rules of
``events/games/mecha/rules.py``, on the same board and bag files) written for boardgame.io 0.50,
served by its own server (Koa, socket.io, in-memory storage) and driven by its own clients
(``load.js``) in the shape of ``bench.load``: G matches × (2 players + S spectators), the player on
turn moves as soon as the previous move reached every client of its match. Each shape runs both
engines on fresh servers, one after the other (``--repeat`` times, alternating), and prints the
median of every figure for both and the ratio. Chronicle writes every command to its store
before anyone hears of it (SQLite ``synchronous=FULL`` by default: an fsync per group commit);
boardgame.io keeps its matches in memory and broadcasts before it stores.

Beside throughput, latency and bytes it prints, per engine, which side was the bottleneck: the
server's CPU over the window (user + system from ``/proc/<pid>/stat`` at the window's start and
end, with its reaped children and live descendants, as % of a core and µs per command) and the
load generator's own CPU (% of a core, the same way: this process for Chronicle's Python clients,
``load.js`` reading its own and the peer server's ``/proc`` entries for boardgame.io's).

Bytes are counted twice per engine (issue 16): the payload the clients read, and the bytes on
the wire (what each client's TCP socket read: WebSocket headers included, after compression).
``--deflate both`` (the default) runs each engine without compression and with
permessage-deflate: Chronicle's clients offer it, as browsers always do, and ``chronicle serve``
negotiates it by default; socket.io's clients always offer it but its server declines unless
configured, so the peer's "deflate" runs switch it on (``perMessageDeflate``). Both servers then
compress by the same rule: a message of 1,024 bytes or more is compressed, a smaller one goes as
it is (ws's default ``threshold``; Chronicle's ``DEFLATE_MIN_BYTES`` in ``server/wsprotocol.py``). ``off`` and ``on`` run one of the two.

Node's packages are installed here, by npm, into a cache directory (``$CHRONICLE_BENCH_CACHE``,
else ``~/.cache/chronicle/boardgameio``), never into the repository; if node or npm is missing
or the install fails, the bench says why and exits 1. Loopback only; it ends by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench import load

PEER = Path(__file__).resolve().parent / "peers" / "boardgameio"
BOARDS = Path(__file__).resolve().parent.parent / "events" / "games" / "mecha" / "boards"
FILES = ("package.json", "game.js", "server.js", "load.js", "same-rules.js")
ROUNDS = 100_000  # no match ends inside a window


class PeerUnavailable(Exception):
    pass


def cache_dir() -> Path:
    return Path(os.environ.get("CHRONICLE_BENCH_CACHE") or Path.home() / ".cache" / "chronicle" / "boardgameio")


def install_peer() -> Path:
    """The peer's files in the cache directory, with its npm packages; installs them when missing or changed."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            raise PeerUnavailable(f"{tool} is not installed: the peer runs on Node.js (apt-get install nodejs npm)")
    where = cache_dir()
    where.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        shutil.copyfile(PEER / name, where / name)
    wanted = hashlib.sha256((PEER / "package.json").read_bytes()).hexdigest()
    stamp = where / "node_modules" / ".chronicle-installed"
    if stamp.exists() and stamp.read_text() == wanted:
        return where
    print(f"bench.compare: installing boardgame.io with npm into {where} …", file=sys.stderr, flush=True)
    try:
        done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"],
                              cwd=where, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        raise PeerUnavailable("npm install did not finish within 600 s (is the npm registry reachable?)") from None
    if done.returncode != 0:
        raise PeerUnavailable(f"npm install failed with status {done.returncode}:\n{(done.stderr or done.stdout)[-2000:]}")
    stamp.write_text(wanted)
    return where


def check_same_rules(where: Path, count: int = 300, seed: int = 5) -> int:
    """The peer offers exactly Chronicle's legal commands on every state of a random peer game; the count checked."""
    from events.games.mecha import rules
    from events.games.mecha.model import Move, State
    from server.scenarios import load as load_scenario

    done = subprocess.run(["node", "same-rules.js", str(BOARDS / "tunguska-sample.json"),
                           str(BOARDS / "corruption-bag.json"), str(count), str(seed)],
                          cwd=where, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise PeerUnavailable(f"same-rules.js failed:\n{done.stderr[-2000:]}")
    _, scenario = load_scenario("mecha/sample")
    s = rules.initial_state(rules.start(scenario, "")[0])  # no dice drawn here: no commitment needed
    for number, peer in enumerate(json.loads(done.stdout)):
        state = State(s.title, s.board, s.seats, tuple(peer["positions"]), tuple(peer["faceUp"]), s.map_tokens,
                      s.stacks, s.bag, s.token_20, s.plans, s.revealed, peer["player"], 1, ROUNDS, False)
        ours = [["move", c.to] if isinstance(c, Move) else ["pass"]
                for c in rules.legal(state, s.seats[peer["player"]].seat)]
        if ours != peer["legal"]:
            raise PeerUnavailable(f"the peer's rules differ at its state {number}: Chronicle offers {ours}, "
                                  f"the peer {peer['legal']}")
    return count


@contextlib.contextmanager
def peer_server(where: Path, port: int, deflate: bool = False):
    log = open(where / f"server.{port}.log", "wb")
    process = subprocess.Popen(["node", "server.js", str(port), str(BOARDS / "tunguska-sample.json"),
                                str(BOARDS / "corruption-bag.json"), str(ROUNDS)] + (["deflate"] if deflate else []),
                               cwd=where, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    log.close()
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise PeerUnavailable(f"the boardgame.io server exited with status {process.returncode}:\n"
                                      f"{(where / f'server.{port}.log').read_text(errors='replace')[-2000:]}")
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/games", timeout=1) as answer:
                    if answer.status == 200:
                        break
            if time.monotonic() > deadline:
                raise PeerUnavailable("the boardgame.io server did not answer within 30 s")
            time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def run_peer(where: Path, games: int, spectators: int, args: argparse.Namespace, deflate: bool = False) -> dict:
    from tests.server_fixture import free_port

    port = free_port()
    with peer_server(where, port, deflate) as server:
        options = {"url": f"http://127.0.0.1:{port}", "games": games, "players": 2, "spectators": spectators,
                   "warmup": args.warmup, "seconds": args.seconds, "rate": 0, "rounds": ROUNDS, "seed": args.seed,
                   "board": str(BOARDS / "tunguska-sample.json"), "bag": str(BOARDS / "corruption-bag.json"),
                   # load.js reads the server's and its own /proc/<pid>/stat at the window's start and end
                   "serverPid": server.pid, "clkTck": os.sysconf("SC_CLK_TCK")}
        done = subprocess.run(["node", "load.js", json.dumps(options)], cwd=where, capture_output=True, text=True,
                              timeout=args.warmup + args.seconds + 120)
    if done.returncode != 0:
        raise PeerUnavailable(f"the boardgame.io load driver failed:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["loadavg"] = os.getloadavg()[0]
    result["deflate"] = deflate
    return result


def run_chronicle(games: int, spectators: int, args: argparse.Namespace, deflate: bool = False) -> dict:
    shape = load.parser().parse_args([
        "--games", str(games), "--players", "2", "--spectators", str(spectators), "--db", args.db,
        "--seconds", str(args.seconds), "--warmup", str(args.warmup), "--seed", str(args.seed),
        "--sqlite-sync", args.sqlite_sync, "--deflate" if deflate else "--no-deflate",
    ])
    return load.measure(shape)


FIGURES = (  # key, label, format, a note (which way is better)
    ("commands_per_s", "commands/s", "{:,.0f}", "higher is better"),
    ("p50_ms", "p50 ms", "{:.1f}", "lower is better"),
    ("p95_ms", "p95 ms", "{:.1f}", "lower is better"),
    ("p99_ms", "p99 ms", "{:.1f}", "lower is better"),
    ("bytes_per_command_per_client", "bytes/command/client", "{:,.0f}", "payload read; lower is better"),
    ("wire_bytes_per_command_per_client", "  on the wire", "{:,.0f}", "TCP bytes read (headers in, compressed)"),
    ("server_cpu_pct", "server CPU % of a core", "{:.0f}", "near 100: the server is the bottleneck"),
    ("server_cpu_us_per_command", "server CPU µs/command", "{:,.0f}", "lower is better"),
    ("driver_cpu_pct", "load gen. CPU % of a core", "{:.0f}", "near 100: the load generator is the bottleneck"),
)


def medians(results: list[dict]) -> dict:
    return {key: statistics.median(result[key] for result in results) for key, *_ in FIGURES}


TARGET_BYTES = 100  # issue 16: at most 100 bytes per command per client, at every shape


def table(games: int, spectators: int, ours: dict, theirs: dict, repeat: int = 1, deflate: bool = False) -> str:
    how = ("permessage-deflate offered by the clients (as browsers do) and negotiated by both servers" if deflate
           else "no compression (socket.io's server default; Chronicle's clients not offering it)")
    lines = [f"{games} games x (2 players + {spectators} spectators), {how}"
             + (f", medians of {repeat}" if repeat > 1 else ""),
             f"  {'figure':<26}{'chronicle':>10}{'boardgame.io':>14}{'ratio':>9}   (chronicle / boardgame.io)"]
    for key, label, fmt, note in FIGURES:
        a, b = ours[key], theirs[key]
        ratio = a / b if b else float("nan")
        lines.append(f"  {label:<26}{fmt.format(a):>10}{fmt.format(b):>14}{ratio:>8.2f}x   {note}")
    wire = ours["wire_bytes_per_command_per_client"]
    lines.append(f"  Chronicle's bytes on the wire: {wire:,.0f} per command per client, "
                 + ("within" if wire <= TARGET_BYTES else "above") + f" issue 16's target of {TARGET_BYTES}")
    lines.append(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default="1x0,10x2,100x10",
                        help="comma-separated GAMESxSPECTATORS (each game also has 2 players)")
    parser.add_argument("--seconds", type=float, default=10.0, help="the measuring window of each run")
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="sqlite", choices=("sqlite", "postgres"), help="Chronicle's store")
    parser.add_argument("--sqlite-sync", choices=("FULL", "NORMAL"), default="FULL",
                        help="SQLite's synchronous for Chronicle (boardgame.io's in-memory store never syncs)")
    parser.add_argument("--deflate", choices=("off", "on", "both"), default="both",
                        help="run without compression, with permessage-deflate (Chronicle's clients offer it as "
                             "browsers do; the peer's server switched to negotiate it), or both (default)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each engine per shape, alternating; medians")
    parser.add_argument("--json", action="store_true", help="also print every result as a JSON line")
    args = parser.parse_args(argv)
    try:
        shapes = [tuple(int(n) for n in shape.split("x")) for shape in args.shapes.split(",")]
    except ValueError:
        print(f"bench.compare: --shapes: expected e.g. 1x0,10x2, got {args.shapes!r}", file=sys.stderr)
        return 2
    try:
        where = install_peer()
        checked = check_same_rules(where)
    except PeerUnavailable as error:
        print(f"bench.compare: boardgame.io cannot run here: {error}", file=sys.stderr)
        return 1
    store = "PostgreSQL" if args.db == "postgres" else f"SQLite synchronous={args.sqlite_sync}"
    print(f"bench.compare: Chronicle (1 process, {store}) and boardgame.io 0.50.2 (in-memory) on "
          f"{os.cpu_count()} cores, {args.seconds:g} s window after {args.warmup:g} s warm-up, "
          f"load average {os.getloadavg()[0]:.1f} at the start; the peer offers Chronicle's legal commands "
          f"on all {checked} states of a random game", flush=True)
    modes = {"off": (False,), "on": (True,), "both": (False, True)}[args.deflate]
    for games, spectators in shapes:
        runs: dict = {(engine, deflate): [] for engine in ("chronicle", "boardgameio") for deflate in modes}
        for _ in range(args.repeat):  # alternating, so a burst of load elsewhere hits both engines alike
            for deflate in modes:
                runs["chronicle", deflate].append(run_chronicle(games, spectators, args, deflate))
                try:
                    runs["boardgameio", deflate].append(run_peer(where, games, spectators, args, deflate))
                except (PeerUnavailable, subprocess.TimeoutExpired) as error:
                    print(f"bench.compare: boardgame.io failed: {error}", file=sys.stderr)
                    return 1
                if args.json:
                    print(json.dumps({"shape": [games, spectators], "deflate": deflate,
                                      "chronicle": runs["chronicle", deflate][-1],
                                      "boardgameio": runs["boardgameio", deflate][-1]}), flush=True)
        for deflate in modes:
            print(table(games, spectators, medians(runs["chronicle", deflate]), medians(runs["boardgameio", deflate]),
                        args.repeat, deflate), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

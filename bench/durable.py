"""What one durable write costs this machine's CPU, whatever its format (issue 16, a lone game's floor).

``python -m bench.durable [--writes 3000] [--warmup 200] [--rounds 2] [--dir DIR]``

A lone game's command ends with one durable commit of its ~two 300-byte envelopes, and on this VM the
kernel's side of that commit (the flush, the disk's notification, the wake-ups) is a large part of the
server's CPU per command at 1 × 0 (docs/performance.md, "A lone game's command, once more"). This
measures, in a process of its own and with no server, the CPU (user + system) and wall time of one
such write made several ways, so a reader can see what the store's format adds to the kernel's own
durable write and what no format can save:

- ``sqlite-full``: SQLite in WAL mode, ``BEGIN IMMEDIATE; INSERT ×2; UPDATE; COMMIT`` with
  ``synchronous=FULL`` (what Chronicle's store does per group commit, in fewer statements);
- ``sqlite-normal``: the same with ``synchronous=NORMAL`` (no flush: survives a killed process only);
- ``append-fdatasync``: the two rows appended to a plain file, then ``fdatasync``;
- ``prealloc-fdatasync``: ``pwrite`` into a preallocated file, then ``fdatasync``;
- ``odsync``: ``pwrite`` into a preallocated file opened ``O_DSYNC``;
- ``odirect-odsync``: a 4 KiB block written ``O_DIRECT | O_DSYNC`` (where the file system allows it).

The files live in a fresh temporary directory under ``--dir`` (the system's default temporary
directory by default: give a directory on the disk whose cost you want). Asserts nothing about time.
"""

from __future__ import annotations

import argparse
import mmap
import os
import resource
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable

ROW = "x" * 300  # about one mecha envelope's JSON
PREALLOCATED = 64 << 20  # bytes: more than the writes of one way at the largest default


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _sqlite(folder: str, sync: str) -> tuple[Callable[[int], None], Callable[[], None]]:
    connection = sqlite3.connect(os.path.join(folder, "bench.db"), isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={sync}")
    connection.execute("CREATE TABLE events (game TEXT, seq INTEGER, body TEXT, PRIMARY KEY (game, seq))")
    connection.execute("CREATE TABLE games (id TEXT PRIMARY KEY, moved TEXT, length INTEGER)")
    connection.execute("INSERT INTO games VALUES ('g', '', 0)")

    def write(n: int) -> None:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", ("g", 2 * n, ROW))
        connection.execute("INSERT INTO events VALUES (?, ?, ?)", ("g", 2 * n + 1, ROW))
        connection.execute("UPDATE games SET moved = ?, length = ? WHERE id = 'g'", (str(n), 2 * n + 2))
        connection.execute("COMMIT")

    return write, connection.close


def _rows() -> bytes:
    return (ROW + "\n").encode() * 2


def _append(folder: str) -> tuple[Callable[[int], None], Callable[[], None]]:
    fd = os.open(os.path.join(folder, "log"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    rows = _rows()

    def write(n: int) -> None:
        os.write(fd, rows)
        os.fdatasync(fd)

    return write, lambda: os.close(fd)


def _preallocated(folder: str, flags: int = 0) -> int:
    path = os.path.join(folder, "log")
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.posix_fallocate(fd, 0, PREALLOCATED)
    os.fsync(fd)
    if not flags:
        return fd
    os.close(fd)
    return os.open(path, os.O_RDWR | flags)


def _prealloc(folder: str, flags: int = 0) -> tuple[Callable[[int], None], Callable[[], None]]:
    fd = _preallocated(folder, flags)
    rows = _rows()

    def write(n: int) -> None:
        os.pwrite(fd, rows, (n * len(rows)) % PREALLOCATED)
        if not flags:
            os.fdatasync(fd)

    return write, lambda: os.close(fd)


def _direct(folder: str) -> tuple[Callable[[int], None], Callable[[], None]]:
    fd = _preallocated(folder, os.O_DSYNC | os.O_DIRECT)
    block = mmap.mmap(-1, 4096)  # page-aligned, as O_DIRECT wants
    block.write(_rows())

    def write(n: int) -> None:
        os.pwritev(fd, [block], (n * 4096) % PREALLOCATED)

    return write, lambda: os.close(fd)


WAYS: dict[str, Callable[[str], tuple]] = {
    "sqlite-full": lambda folder: _sqlite(folder, "FULL"),
    "sqlite-normal": lambda folder: _sqlite(folder, "NORMAL"),
    "append-fdatasync": _append,
    "prealloc-fdatasync": _prealloc,
    "odsync": lambda folder: _prealloc(folder, os.O_DSYNC),
    "odirect-odsync": _direct,
}


def measure(way: str, writes: int, warmup: int, where: str | None) -> tuple[float, float] | str:
    """(CPU µs, wall µs) per write of ``way``, or why it could not run here."""
    with tempfile.TemporaryDirectory(prefix="chronicle-durable-", dir=where) as folder:
        try:
            write, close = WAYS[way](folder)
        except OSError as error:  # O_DIRECT on a file system without it, say
            return f"not here: {error.strerror}"
        try:
            for n in range(warmup):
                write(n)
            cpu, wall = _cpu(), time.perf_counter()
            for n in range(warmup, warmup + writes):
                write(n)
            return 1e6 * (_cpu() - cpu) / writes, 1e6 * (time.perf_counter() - wall) / writes
        except OSError as error:
            return f"not here: {error.strerror}"
        finally:
            close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.durable", description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=3000)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--dir", default=None, help="where the temporary files go (default: the system's)")
    parser.add_argument("--ways", default=",".join(WAYS), help="comma-separated, among: " + ", ".join(WAYS))
    args = parser.parse_args(argv)
    ways = [way for way in args.ways.split(",") if way]
    unknown = [way for way in ways if way not in WAYS]
    if unknown or not ways:
        print(f"bench.durable: unknown ways {unknown}; choose among {', '.join(WAYS)}", file=sys.stderr)
        return 2
    if args.writes < 1 or args.warmup < 0 or args.rounds < 1:
        print("bench.durable: --writes and --rounds must be positive, --warmup not negative", file=sys.stderr)
        return 2
    where = args.dir or tempfile.gettempdir()
    print(f"bench.durable: {args.writes} writes after {args.warmup}, {args.rounds} rounds, in {where}; "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for round_ in range(1, args.rounds + 1):
        for way in ways:
            result = measure(way, args.writes, args.warmup, args.dir)
            if isinstance(result, str):
                print(f"  round {round_}  {way:20s} {result}")
            else:
                print(f"  round {round_}  {way:20s} CPU {result[0]:7.1f} µs  wall {result[1]:7.1f} µs a write")
    print(f"  load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

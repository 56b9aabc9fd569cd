"""How fast the core folds, hashes and decides a long mecha game, in this process.

``python -m bench.fold [--commands N] [--seed S] [--scenario NAME] [--repeat R]``
``python -m bench.fold --corpus DIR [--repeat R]``

It plays one long random game in memory (a built-in scenario with its rounds raised; each
command a seat that may act and one of its ``legal()`` commands, by ``events.bots.random_step``),
then times, best of ``--repeat`` runs:

* **fold**: ``evolve`` over every event from nothing (what a replay or a browser page does);
* **fold + hash**: the same with ``state_hash`` after every event (what ``Table.restore`` and the
  page's hash check do);
* **decide**: ``decide`` for every logged command on the state it was decided on (the server's
  per-command work, without storage or network);
* **legal**: ``legal()`` on those same states (the UI's hints and the bots).

With ``--corpus DIR`` it reads every log under DIR instead (``tests/corpus/<game>/<version>``:
any game) and times the **fold** alone, ``evolve`` over each log's decoded events from nothing,
and the decode of its lines before it (issue 13 compares games' folds on their recorded corpus).

Times are this process's CPU time (``time.process_time``), which the other work on the machine
disturbs far less than the wall clock. Figures vary with the machine and its load: it prints them
with the platform, Python and CPU count and asserts nothing about time.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from events.bots import random_step
from events.canonical import state_hash
from events.dice import command_rng, local_secret
from events.games import load as load_game
from events.log import Accepted, Table
from events.rng import Rng

MAX_ROUNDS = 10_000  # load_scenario's bound on "rounds"


def read_scenario(name: str) -> dict:
    """The scenario with its files inlined, read the way the server reads it."""
    from server.scenarios import load

    _game, scenario = load(name)
    return scenario


def play(game, scenario: dict, commands: int, seed: int) -> tuple[list, list]:
    """One long random game: (events, [(state, seat, command, rng seed seq)] for every command)."""
    scenario = dict(scenario, rounds=min(MAX_ROUNDS, commands // len(scenario["seats"]) + 1))
    table = Table.create(game, "bench", scenario, seed)
    picker = Rng(seed)
    decided = []
    while len(decided) < commands and not game.is_over(table.state):
        seat, command = random_step(game, table.state, picker)
        decided.append((table.state, seat, command, table.seq + 1))
        result = table.submit(seat, command, f"c-{len(decided)}")
        assert isinstance(result, Accepted), result
    return [envelope.event for envelope in table.envelopes], decided


def best(repeat: int, run) -> float:
    """The fastest of ``repeat`` runs, in seconds of this process's CPU time (the least disturbed by
    the rest of the machine: on 2 cores shared with other work, wall time counts the waits for a core)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fold", description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=10_000, help="commands in the game (default 10000)")
    parser.add_argument("--seed", type=int, default=7, help="game seed and command picker seed (default 7)")
    parser.add_argument("--scenario", default="mecha/sample", help="built-in name or path (default mecha/sample)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measure; the best counts (default 3)")
    parser.add_argument("--corpus", help="fold every .jsonl log under this directory instead (any game)")
    args = parser.parse_args(argv)
    if args.corpus:
        return corpus(args.corpus, args.repeat)

    game = load_game("mecha")
    start = time.perf_counter()
    events, decided = play(game, read_scenario(args.scenario), args.commands, args.seed)
    built = time.perf_counter() - start

    def fold() -> None:
        state = None
        for event in events:
            state = game.evolve(state, event)

    def fold_and_hash() -> None:
        state = None
        for event in events:
            state = game.evolve(state, event)
            state_hash(state)

    secret = local_secret(args.seed)  # the table's secret (CORE-1): each command's dice as the server derives them

    def decide() -> None:
        for state, seat, command, seq in decided:
            game.decide(state, seat, command, command_rng(secret, seq))

    def legal() -> None:
        for state, seat, _command, _seq in decided:
            game.legal(state, seat)

    rows = [
        ("fold (evolve only)", len(events), "events", best(args.repeat, fold)),
        ("fold + state_hash", len(events), "events", best(args.repeat, fold_and_hash)),
        ("decide", len(decided), "commands", best(args.repeat, decide)),
        ("legal", len(decided), "states", best(args.repeat, legal)),
    ]
    print(f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")
    print(f"game:    {args.scenario}, seed {args.seed}: {len(decided)} commands, {len(events)} events "
          f"(built and logged with hashes in {built:.2f} s)")
    print(f"timing:  best of {args.repeat}, CPU time")
    for label, count, unit, seconds in rows:
        rate = count / seconds if seconds else float("inf")
        print(f"  {label:<20} {rate:>12,.0f} {unit}/s  ({count:,} in {seconds * 1000:,.1f} ms)")
    return 0


def corpus(directory: str, repeat: int) -> int:
    """Time the fold alone of every recorded log under ``directory``, best of ``repeat``."""
    from pathlib import Path

    from server import logfile

    # A corpus directory also holds refusals.jsonl files (commands the rules refused, not logs).
    paths = sorted(path for path in Path(directory).rglob("*.jsonl") if path.name != "refusals.jsonl")
    if not paths:
        print(f"no .jsonl log under {directory}", file=sys.stderr)
        return 2
    logs = [logfile.read(path) for path in paths]

    def decode() -> None:
        for path in paths:
            logfile.read(path)

    def fold() -> None:
        for game, envelopes in logs:
            state = None
            for envelope in envelopes:
                state = game.evolve(state, envelope.event)

    # The first event (GameStarted) reads and checks the scenario: most of a short log's fold, and
    # no copy of a record. The rest is timed apart, from each log's state after its first event.
    started = [(game, game.evolve(None, envelopes[0].event), envelopes[1:]) for game, envelopes in logs]

    def fold_rest() -> None:
        for game, state, envelopes in started:
            for envelope in envelopes:
                state = game.evolve(state, envelope.event)

    count = sum(len(envelopes) for _game, envelopes in logs)
    rest = count - len(logs)
    games = sorted({f"{game.name} {game.rules_version}" for game, _envelopes in logs})
    print(f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs")
    print(f"python:  {platform.python_implementation()} {sys.version.split()[0]}")
    print(f"corpus:  {directory}: {len(logs)} logs of {', '.join(games)}, {count:,} events")
    print(f"timing:  best of {repeat}, CPU time")
    for label, events, run in (("read + decode", count, decode), ("fold (evolve only)", count, fold),
                               ("fold after the start", rest, fold_rest)):
        seconds = best(repeat, run)
        print(f"  {label:<20} {events / seconds:>12,.0f} events/s  ({events:,} in {seconds * 1000:,.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

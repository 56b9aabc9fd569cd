"""How long a Gloomhaven monster turn takes to decide, on every built-in map.

``python -m bench.gloomhaven [--games N] [--seed S]``

For each built-in scenario it plays ``--games`` random games (legal commands picked with
``events.rng.Rng``) and collects every monster or summon turn that happened: the state just
before it and the acting figure. It then times ``rules.plan_for`` (focus, every equally good
option and the trace: GH-6, GH-7, GH-C4) on each, and prints the median and the slowest per
map. Figures vary with the machine and its load; nothing about time is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from events.games import load as load_game
from events.games.gloomhaven import rules
from events.log import Table
from events.rng import Rng
from server.scenarios import builtin_scenarios, load


def monster_turns(name: str, games: int, seed: int) -> list:
    """(state, figure) before every monster or summon turn of ``games`` random games."""
    game = load_game("gloomhaven")
    _name, scenario = load(name)
    found = []
    for number in range(games):
        table = Table.create(game, "bench", scenario, seed + number)
        chooser = Rng(seed + number)
        for step in range(300):
            if game.is_over(table.state):
                break
            seats = tuple(seat for seat in game.turn(table.state) if game.legal(table.state, seat))
            if not seats:
                break
            seat = chooser.pick(seats)
            table.submit(seat, chooser.pick(tuple(game.legal(table.state, seat))), f"b-{step}")
        # Re-fold the log and keep the state at each monster turn's start.
        state = None
        for envelope in table.envelopes:
            event = envelope.event
            if event.TYPE == "TurnStarted" and state is not None:
                figure = rules.figure_of(state, event.figure)
                if figure is not None and figure.kind != "character":
                    found.append((state, figure))
            state = game.evolve(state, event)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gloomhaven", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="random games per map (default 6)")
    parser.add_argument("--seed", type=int, default=3, help="first game seed (default 3)")
    args = parser.parse_args(argv)
    print(f"gloomhaven monster turns · Python {platform.python_version()} · {platform.machine()} · "
          f"{os.cpu_count()} CPU(s)")
    print(f"{'map':<24}{'turns':>7}{'median ms':>12}{'max ms':>10}")
    every = []
    for name in builtin_scenarios():
        if not name.startswith("gloomhaven/"):
            continue
        samples = []
        for state, figure in monster_turns(name, args.games, args.seed):
            started = time.perf_counter()
            rules.plan_for(state, figure)
            samples.append((time.perf_counter() - started) * 1000)
        every += samples
        if samples:
            print(f"{name:<24}{len(samples):>7}{statistics.median(samples):>12.2f}{max(samples):>10.2f}")
    if every:
        print(f"{'all maps':<24}{len(every):>7}{statistics.median(every):>12.2f}{max(every):>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

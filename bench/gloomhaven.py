"""How long ``chronicle ask gloomhaven monster-turn`` takes to decide, in process.

``python -m bench.gloomhaven [--repeat N] [--games N] [--seed S]``

**16 × 7.** A 16-column, 7-row room with wall hexes, thin walls, obstacles, traps, hazardous and
difficult terrain, four characters (two tied on initiative, GH-C11) and an allied monster. The
acting monster stands on each of a spread of open hexes with each kind of attack in turn (melee,
ranged, two targets, melee area, ranged area with "+1 target", jump, flying, muddled, none), and
every position is answered through ``server.cli.ask_gloomhaven.answer``: validation of the
position, the map's geometry, focus and every option with its trace (GH-6, GH-7, GH-C4,
GH-C7…GH-C11), everything the command does but start Python and print. It prints the median and
the worst wall time, and the same in CPU time (which the load of other work on the cores does not
inflate); the targets (issue 14) are a median under 10 ms and a worst under 50 ms.

**Built-in maps** (``--games N``, 0 to skip): every monster or summon turn of N random games per
built-in scenario, timed through ``rules.plan_for`` (the same solver a game's turn uses).
Figures vary with the machine and its load; nothing about time is asserted.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from events.bots import playout
from events.games import load as load_game
from events.games.gloomhaven import rules
from events.log import Table
from events.rng import Rng
from server.cli.ask_gloomhaven import answer
from server.scenarios import builtin_scenarios, load

COLUMNS, ROWS = 16, 7

#: Walls and terrain of the 16 x 7 room, by (column, row) of the printed map (even columns half a hex up).
WALLS = ((4, 0), (4, 1), (4, 2), (4, 3), (9, 3), (9, 4), (9, 5), (9, 6), (12, 1), (13, 1))
THIN = (((6, 4), (6, 5)), ((7, 4), (7, 5)), ((2, 5), (3, 5)), ((11, 2), (12, 2)))
OBSTACLES = ((2, 2), (7, 1), (14, 4))
TRAPS = ((6, 2), (11, 5))
HAZARDOUS = ((3, 4),)
DIFFICULT = ((5, 5), (6, 6), (10, 1), (10, 2))
HEROES = (("A", (1, 0), 30), ("B", (15, 6), 30), ("C", (8, 3), 45), ("D", (13, 0), 12))
ALLY = (11, 3)
STARTS = ((0, 6), (2, 0), (3, 3), (5, 6), (6, 0), (7, 3), (8, 6), (10, 0), (11, 4), (14, 2), (15, 0), (12, 6))
ATTACKS = (
    ("melee", {"move": 3, "attack": {}}),
    ("ranged 3", {"move": 2, "attack": {"range": 3}}),
    ("ranged 4, 2 targets", {"move": 3, "attack": {"range": 4, "targets": 2}}),
    ("melee area", {"move": 2, "attack": {"pattern": [[1, 0], [2, -1], [2, 0]]}}),
    ("ranged area +1", {"move": 2, "attack": {"range": 3, "pattern": [[0, 0], [1, 0], [0, 1]], "plus_targets": 1}}),
    ("jump", {"move": 4, "jump": True, "attack": {}}),
    ("flying", {"move": 4, "flying": True, "attack": {"range": 2}}),
    ("muddled archer", {"move": 2, "muddled": True, "attack": {"range": 3}}),
    ("no attack", {"move": 3}),
)


def axial(cell: tuple) -> list:
    """A printed-map cell (column, row) as axial [q, r] (the region rule of docs/gloomhaven-format.md)."""
    column, row = cell
    return [column, row - column // 2]


def room() -> dict:
    return {
        "name": "bench 16 x 7", "regions": [{"corner": [0, 0], "columns": COLUMNS, "rows": ROWS}],
        "walls": [axial(cell) for cell in WALLS], "thin_walls": [[axial(a), axial(b)] for a, b in THIN],
        "obstacles": [axial(cell) for cell in OBSTACLES], "traps": [axial(cell) for cell in TRAPS],
        "hazardous": [axial(cell) for cell in HAZARDOUS], "difficult": [axial(cell) for cell in DIFFICULT],
    }


def positions() -> list:
    """(label, position dict) for every start and kind of attack."""
    game_map = room()
    heroes = [{"id": name, "side": "character", "hex": axial(cell), "initiative": initiative}
              for name, cell, initiative in HEROES]
    out = []
    for kind, spec in ATTACKS:
        for start in STARTS:
            actor = {"id": "M", "side": "monster", "hex": axial(start), "initiative": 50, **spec}
            ally = {"id": "m2", "side": "monster", "hex": axial(ALLY), "initiative": 50}
            out.append((kind, {"map": game_map, "figures": [actor, ally] + heroes, "monster": "M"}))
    return out


def time_room(repeat: int) -> tuple:
    """(wall ms, CPU ms) per answer, every position ``repeat`` times (no cache outlives a call, so none warms up).

    Wall time is what a user waits; CPU time (this process's) is what the answer costs, and stays
    meaningful when other work shares the cores.
    """
    wall, cpu = [], []
    for _ in range(repeat):
        for _kind, position in positions():
            started, used = time.perf_counter(), time.process_time()
            answer(position)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - used) * 1000)
    return wall, cpu


def monster_turns(name: str, games: int, seed: int) -> list:
    """(state, figure) before every monster or summon turn of ``games`` random games."""
    game = load_game("gloomhaven")
    _name, scenario = load(name)
    found = []
    for number in range(games):
        table = Table.create(game, "bench", scenario, seed + number)
        chooser = Rng(seed + number)
        playout(table, {}, chooser, 300, prefix="b")
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


def row(name: str, samples: list) -> str:
    return f"{name:<24}{len(samples):>7}{statistics.median(samples):>12.2f}{max(samples):>10.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.gloomhaven", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds over the 16 x 7 positions (default 3)")
    parser.add_argument("--games", type=int, default=2, help="random games per built-in map, 0 to skip (default 2)")
    parser.add_argument("--seed", type=int, default=3, help="first game seed (default 3)")
    args = parser.parse_args(argv)
    load_average = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"gloomhaven monster turns · Python {platform.python_version()} · {platform.machine()} · "
          f"{os.cpu_count()} CPU(s) · load average {load_average}")
    print(f"{'case':<24}{'turns':>7}{'median ms':>12}{'max ms':>10}")
    samples, cpu = time_room(args.repeat)
    print(row(f"{COLUMNS} x {ROWS} with walls", samples))
    print(row(f"{COLUMNS} x {ROWS}, CPU time", cpu))
    every = []
    for name in builtin_scenarios() if args.games else ():
        if not name.startswith("gloomhaven/"):
            continue
        timed = []
        for state, figure in monster_turns(name, args.games, args.seed):
            started = time.perf_counter()
            rules.plan_for(state, figure)
            timed.append((time.perf_counter() - started) * 1000)
        every += timed
        if timed:
            print(row(name, timed))
    if every:
        print(row("all built-in maps", every))
    verdict = "within" if statistics.median(samples) < 10 and max(samples) < 50 else "OUTSIDE"
    print(f"16 x 7: median {statistics.median(samples):.2f} ms, worst {max(samples):.2f} ms wall: {verdict} the "
          "targets (median < 10 ms, worst < 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

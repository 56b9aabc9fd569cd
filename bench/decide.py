"""How long one command holds the event loop, on the largest scenario each game's bounds allow.

``python -m bench.decide [--steps N] [--seed S] [--games mecha,arkham,...] [--budget MS]``

For each game it builds the largest scenario ``BOUNDS`` (``events/games/<g>/board.py``) and
``events.validate.SHAPE`` allow where size costs work: the biggest board or map, the most seats,
monsters and figures, the largest ranges, speeds and movement points. Then it plays ``--steps``
commands (random ones, or for gloomhaven the latest initiative, so that every monster acts in one
command) and, on every state on the way, times:

* **legal**: ``legal(state, seat)`` for each seat that may act (the browser's hints and the bots);
* **decide**: ``decide(state, seat, command, rng)`` for *every* legal command of that state (what
  the Room runs on the event loop for one command);
* **submit**: decide, evolve and hash of the command actually played (the Room's whole work for it,
  storage and network aside);
* **start**: validating the scenario and folding the first event (``POST /api/games``).

Each call is timed in CPU time of this process (``time.process_time``), ``--repeat`` times, and
its fastest run kept (the one least disturbed by the rest of a shared machine); it prints the worst and the median of those per game, with the
platform and the load average, and flags any worst above ``--budget`` (50 ms: issue 12's bound).
It asserts nothing: timings vary with the machine and its load; a figure over the budget means a
bound to tighten or a search to make cheaper.
"""

from __future__ import annotations

import argparse
import copy
import os
import platform
import sys
import time

from events.games import load as load_game
from events.log import Accepted, Table
from events.rng import Rng

BUDGET_MS = 50
#: CPU time of this process: what a command costs the event loop's core, not counting the time the
#: machine's other work takes it away (on a shared 2-core machine, wall time mostly measures them).
CLOCK = time.process_time


# --- the largest scenarios ---------------------------------------------------------------------------


def largest_mecha() -> dict:
    """200 Locations (112 face up, the rest face down at level 99), 5 seats of Range 1–20, a bag of 496 tokens."""
    from events.games.mecha.board import BOUNDS

    locations = []
    number = 0
    for r in range(15):
        for q in range(14):
            number += 1
            if number > BOUNDS["locations"]:
                break
            up = r < 8
            locations.append({"number": number, "hex": [q, r], "level": 0 if up else BOUNDS["level"], "face_up": up,
                              **({} if up else {"map_token": True})})
    # Value-1 tokens, so that filling a level-99 Location draws 99 times from a bag of 500 (MV-6c).
    per = BOUNDS["bag_tokens"] // BOUNDS["bag_entries"]
    tokens = [{"value": 1, "colour": ("orange", "turquoise")[i % 2], "count": per}
              for i in range(BOUNDS["bag_entries"] - 1)] + [{"value": 20, "colour": "orange", "count": 1}]
    seats = [{"seat": f"s{i}", "mech": f"Mecha {i}", "range": [1, BOUNDS["range"]]} for i in range(BOUNDS["seats"])]
    return {
        "game": "mecha", "title": "bench: largest", "rounds": BOUNDS["rounds"], "seats": seats,
        "board": {"name": "largest", "locations": locations, "camp": {"hex": [-3, -3], "adjacent": [1, 2, 3]},
                  "card_spaces": [{"name": f"c{i}", "hex": [100 + i, 100]} for i in range(BOUNDS["card_spaces"])]},
        "bag": {"tokens": tokens},
    }


def largest_arkham() -> dict:
    """60 Streets in a ring with chords, 120 Locations, 30 Other Worlds, 8 investigators of Speed 20, 60 monsters."""
    from events.games.arkham.board import BOUNDS
    from events.games.arkham.model import LOST

    streets, locations, lines = [], [], []
    count = BOUNDS["streets"]
    per = BOUNDS["locations"] // count
    for s in range(count):
        names = [f"l{s}_{k}" for k in range(per)]
        if s == 0:
            names = ["st_marys_hospital", "arkham_asylum"][:per] + names[2:]
        streets.append({"id": f"s{s}", "name": f"Street {s}", "locations": names, "at": [s * 10, 0]})
        for k, name in enumerate(names):
            locations.append({"id": name, "name": name, "street": f"s{s}", "unstable": k == per - 1, "at": [s * 10, k + 1]})
            lines.append({"a": name, "b": f"s{s}"})
        lines.append({"a": f"s{s}", "b": f"s{(s + 1) % count}"})
    for s in range(0, count, 3):  # chords make many routes of equal cost
        if len(lines) < BOUNDS["lines"]:
            lines.append({"a": f"s{s}", "b": f"s{(s + count // 2 + 1) % count}"})
    worlds = [{"id": f"w{i}", "name": f"World {i}", "areas": [f"w{i}_1", f"w{i}_2"], "areas_at": [[i, 90], [i, 91]]}
              for i in range(BOUNDS["other_worlds"])]
    specials = [{"id": "sky", "name": "Sky", "at": [0, 95]}, {"id": "outskirts", "name": "Outskirts", "at": [1, 95]},
                {"id": LOST, "name": "Lost", "at": [2, 95]}]
    skill = BOUNDS["skill"]
    investigators = [{"seat": f"s{i}", "name": f"Investigator {i}", "speed": skill, "sneak": skill, "fight": skill,
                      "will": skill, "stamina": skill, "sanity": skill, "at": f"s{i * 7}", "clues": BOUNDS["clues"],
                      "items": [f"item {k}" for k in range(BOUNDS["items"])]}
                     for i in range(BOUNDS["investigators"])]
    mod, value = BOUNDS["monster_modifier"], BOUNDS["monster_value"]
    monsters = [{"id": f"m{i}", "name": f"Monster {i}", "at": f"s{(i * 5 + 3) % count}", "awareness": mod,
                 "horror_rating": mod, "horror_damage": 1, "combat_rating": mod, "combat_damage": 1,
                 "toughness": value, "ambush": i % 4 == 0, "nightmarish": i % 3, "overwhelming": i % 2}
                for i in range(BOUNDS["monsters"])]
    unstable = [loc["id"] for loc in locations if loc["unstable"]]
    gates = [{"location": unstable[i], "world": f"w{i}"} for i in range(min(BOUNDS["gates"], len(unstable)))]
    clues = [{"area": loc["id"], "count": BOUNDS["clues"]} for loc in locations[: BOUNDS["clue_areas"]]]
    return {
        "game": "arkham", "title": "bench: largest", "rounds": BOUNDS["rounds"], "investigators": investigators,
        "monsters": monsters, "gates": gates, "clues": clues, "options": {"spend_clues": True},
        "board": {"streets": streets, "locations": locations, "lines": lines, "other_worlds": worlds,
                  "special_areas": specials},
    }


def largest_echo() -> dict:
    """150 places joined by 600 arrows and 150 Dark Path links, 8 investigators of Speed 20, 40 enemies."""
    from events.games.echo.board import BOUNDS
    from server.scenarios import load

    _, sample = load("echo/first-case")
    count = BOUNDS["locations"]
    ids = [f"p{i}" for i in range(count)]
    places = [{"id": pid, "name_ru": pid, "name_en": pid, "x": i * 10, "y": i * 5} for i, pid in enumerate(ids)]
    picker = Rng(12)
    arrows: set = set()
    for i in range(count):
        arrows.add((ids[i], ids[(i + 1) % count]))
    while len(arrows) < BOUNDS["links"]:
        a, b = picker.below(count), picker.below(count)
        if a != b and (ids[a], ids[b]) not in arrows and (ids[b], ids[a]) not in arrows:
            arrows.add((ids[a], ids[b]))
    dark: set = set()
    while len(dark) < count:
        a, b = picker.below(count), picker.below(count)
        pairs = {(ids[a], ids[b]), (ids[b], ids[a])}
        if a != b and not pairs & arrows and not pairs & dark:
            dark.add((ids[a], ids[b]))
    cards = copy.deepcopy(sample["cards"])
    template = cards["investigators"][0]
    skill, track = BOUNDS["skill"], BOUNDS["track"]
    spells = [spell["id"] for spell in cards["spells"]]
    items = [item["id"] for item in cards["items"]]
    cards["investigators"] = [
        dict(template, id=f"inv{i}", speed=skill, stealth=skill, attention=skill, knowledge=skill, intuition=skill,
             sanity=track, health=track, clues=BOUNDS["clues"], spells=spells, items=items,
             allies=[f"ally {k}" for k in range(BOUNDS["held"])])
        for i in range(BOUNDS["seats"])
    ]
    enemy_cards = [card["id"] for card in cards["enemies"]]
    ministry = ids[1: 1 + BOUNDS["ministry"]]
    seats = [{"seat": f"s{i}", "investigator": f"inv{i}", "at": ids[(i * 3) % count]} for i in range(BOUNDS["seats"])]
    enemies = [{"id": f"e{i}", "card": enemy_cards[i % len(enemy_cards)], "at": ids[(i * 7 + 2) % count]}
               for i in range(BOUNDS["enemies"])]
    return {
        "game": "echo", "title": "bench: largest", "rounds": BOUNDS["rounds"], "seats": seats, "enemies": enemies,
        "cards": cards,
        "map": {"name_ru": "largest", "name_en": "largest", "locations": places, "arrows": [list(p) for p in sorted(arrows)],
                "dark_path": [list(p) for p in sorted(dark)], "asylum": ids[0], "ministry": ministry,
                "dark_side": ids[-1]},
    }


def largest_skirmish() -> dict:
    """A 40 × 40 grid with walls, doors, low and difficult squares and pits; 32 figures of speed 40."""
    from events.games.skirmish.board import BOUNDS

    size = BOUNDS["size"]
    rows = []
    for y in range(size):
        edge = "+"
        line = "|"
        for x in range(size):
            wall_below = y % 8 == 7 and x % 5 != 2 and y < size - 1
            door_below = y % 8 == 7 and x % 10 == 2 and y < size - 1
            edge_below = "D" if door_below else ("-" if wall_below else " ")
            square = "O" if (x * 7 + y * 3) % 53 == 0 else ("~" if (x + y) % 11 == 0 else ("=" if (x * y) % 17 == 5 else "."))
            right = "|" if (x % 9 == 8 and y % 4 != 1 and x < size - 1) else " "
            if x == size - 1:
                right = "|"
            line += square + right
            edge += edge_below + "+"
        if y == 0:
            rows.append("+" + "-+" * size)
        rows.append(line)
        rows.append(edge if y < size - 1 else "+" + "-+" * size)
    figures = []
    half = BOUNDS["figures"] // 2
    for i in range(BOUNDS["figures"]):
        side = "red" if i < half else "blue"
        x = (i % half) * 2 + 1
        y = 1 if side == "red" else size - 2
        figures.append({"id": f"f{i}", "side": side, "name": f"Figure {i}", "attack": 5, "defense": 12,
                        "speed": BOUNDS["speed"], "hp": 30, "at": [x, y], "melee": i % 3 == 0})
    return {"game": "skirmish", "title": "bench: largest", "rounds": BOUNDS["rounds"], "sides": ["red", "blue"],
            "figures": figures, "map": {"name": "largest", "rows": rows}}


def largest_gloomhaven() -> dict:
    """A 300-hex map with walls, thin walls and terrain; 4 characters; 30 monsters, ranged and melee."""
    from events.games.gloomhaven.board import BOUNDS
    from server.scenarios import load

    _, sample = load("gloomhaven/barrow")
    side = BOUNDS["region_side"]
    width = 25
    depth = BOUNDS["hexes"] // width
    assert width <= side and depth <= side
    region = {"corner": [0, 0], "columns": width, "rows": depth}
    hexes = []
    for column in range(width):
        for row in range(depth):
            hexes.append((column, row - (column + 0) // 2))
    walls = [list(h) for i, h in enumerate(hexes) if i % 23 == 11]
    terrain = {"obstacles": [], "traps": [], "hazardous": [], "difficult": []}
    kinds = list(terrain)
    open_hexes = [h for i, h in enumerate(hexes) if i % 23 != 11]
    for i, h in enumerate(open_hexes):
        if i % 19 == 7:
            terrain[kinds[(i // 19) % 4]].append(list(h))
    special = {tuple(h) for key in terrain for h in terrain[key]}
    free = [h for h in open_hexes if h not in special]
    characters = [{"seat": seat, "class": cls, "hex": list(free[k * 3])}
                  for k, (seat, cls) in enumerate((("red", "Brute"), ("blue", "Tinkerer")))]
    cards = sample["cards"]
    monsters = sample["monsters"]
    names = [t["name"] for t in monsters["types"]]
    figures = []
    taken = len(free) - 1
    for i in range(BOUNDS["figures"]):
        figures.append({"type": names[i % len(names)], "rank": ("normal", "elite")[i % 2], "number": i // len(names) + 1,
                        "hex": list(free[taken - i * 5])})
    return {"game": "gloomhaven", "title": "bench: largest", "level": 7, "rounds": 99, "cards": cards,
            "monsters": monsters, "characters": characters, "figures": figures,
            "map": dict({"name": "largest", "regions": [region], "walls": walls}, **terrain)}


def slowest_gloomhaven(state, options: list, picker: Rng):
    """Pick the latest initiative (a long rest counts 99): every monster before it acts in one command."""
    from events.games.gloomhaven.rules import LONG_REST_INITIATIVE, _card

    def initiative(command) -> int:
        kind = type(command).__name__
        if kind == "DeclareLongRest":
            return LONG_REST_INITIATIVE
        if kind == "SelectCards":
            return _card(state, command.leading).initiative
        return -1

    latest = max(initiative(command) for command in options)
    if latest < 0:
        return options[picker.below(len(options))]
    return next(command for command in options if initiative(command) == latest)


#: How each game's walk picks the command it plays (random unless a game has a slower choice).
PICKERS = {"gloomhaven": slowest_gloomhaven}

BUILDERS = {"mecha": largest_mecha, "arkham": largest_arkham, "echo": largest_echo, "skirmish": largest_skirmish,
            "gloomhaven": largest_gloomhaven}


# --- timing ------------------------------------------------------------------------------------------


def _ms(start: float) -> float:
    return (CLOCK() - start) * 1000


def timed(repeat: int, run, *args) -> float:
    """The fastest of ``repeat`` runs of ``run(*args)``, in ms."""
    fastest = None
    for _ in range(repeat):
        began = CLOCK()
        run(*args)
        ms = _ms(began)
        fastest = ms if fastest is None else min(fastest, ms)
    return fastest


def _decide(game, state, seat: str, command, rng_seed: int) -> None:
    game.decide(state, seat, command, Rng(rng_seed))  # a fresh rng each run: every run draws the same


def measure(name: str, steps: int, seed: int, repeat: int = 3) -> dict:
    """Play ``steps`` random commands on the largest scenario; time legal and decide on every state passed."""
    game = load_game(name)
    scenario = BUILDERS[name]()
    began = CLOCK()
    table = Table.create(game, "bench", scenario, seed)
    figures = {"start": [_ms(began)], "legal": [], "decide": [], "submit": []}
    worst = {"legal": ("", 0.0), "decide": ("", 0.0), "submit": ("", 0.0)}
    slowest: list = [0.0, None]  # the slowest decide: its ms and (state, seat, command, rng seed)
    picker = Rng(seed)

    def note(kind: str, ms: float, what: object, call: tuple | None = None) -> None:
        figures[kind].append(ms)
        if ms > worst[kind][1]:
            worst[kind] = (type(what).__name__ if not isinstance(what, str) else what, ms)
        if call is not None and ms > slowest[0]:
            slowest[:] = [ms, call]

    for step in range(steps):
        if game.is_over(table.state):
            break
        seats = list(game.turn(table.state))
        options_by_seat = {}
        state = table.state
        for seat in seats:
            options = game.legal(state, seat)
            note("legal", timed(repeat, game.legal, state, seat), f"legal({seat})")
            options_by_seat[seat] = options
            for command in options:
                rng_seed = seed * 1_000_003 + step
                note("decide", timed(repeat, _decide, game, state, seat, command, rng_seed), command,
                     (state, seat, command, rng_seed))
        seat = seats[picker.below(len(seats))]
        options = options_by_seat[seat]
        if not options:
            break
        pick = PICKERS.get(name)
        command = pick(table.state, options, picker) if pick else options[picker.below(len(options))]
        began = CLOCK()
        result = table.submit(seat, command, f"c-{step}", rng=Rng(seed * 7 + step))
        note("submit", _ms(began), command)
        if not isinstance(result, Accepted):  # pragma: no cover - a legal command the rules refuse is a bug
            raise SystemExit(f"{name}: legal command {command!r} was refused: {result}")
    return {"figures": figures, "worst": worst, "seq": table.seq, "slowest": slowest[1], "game": game}


def explain(game, call: tuple) -> None:
    """Where the slowest decide spends its time (``--explain``): the top of its profile."""
    import cProfile
    import pstats

    state, seat, command, rng_seed = call
    profile = cProfile.Profile()
    profile.runcall(_decide, game, state, seat, command, rng_seed)
    print(f"\n## {game.name}: the slowest decide, {command!r}")
    pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def median(values: list) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.decide", description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=40, help="random commands played per game (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default=",".join(BUILDERS), help="comma-separated games (default: all five)")
    parser.add_argument("--budget", type=float, default=BUDGET_MS, help="flag a worst time above this (ms)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each call, the fastest kept (default 3)")
    parser.add_argument("--explain", action="store_true", help="print the profile of each game's slowest decide")
    args = parser.parse_args(argv)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    print(f"# bench.decide: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.steps} steps, seed {args.seed}, "
          f"best of {args.repeat}")
    print("| game | states | legal worst / median ms | decide worst / median ms (commands) | "
          "submit worst / median ms | start ms | worst decide |")
    print("|---|---:|---:|---:|---:|---:|---|")
    over = []
    for name in args.games.split(","):
        result = measure(name, args.steps, args.seed, args.repeat)
        f, w = result["figures"], result["worst"]
        print(f"| {name} | {len(f['legal'])} | {w['legal'][1]:.1f} / {median(f['legal']):.2f} | "
              f"{w['decide'][1]:.1f} / {median(f['decide']):.2f} ({len(f['decide'])}) | "
              f"{w['submit'][1]:.1f} / {median(f['submit']):.2f} | {f['start'][0]:.0f} | {w['decide'][0]} |")
        sys.stdout.flush()
        if args.explain and result["slowest"] is not None:
            explain(result["game"], result["slowest"])
        for kind in ("legal", "decide", "submit"):
            if w[kind][1] > args.budget:
                over.append(f"{name} {kind} {w[kind][1]:.1f} ms ({w[kind][0]})")
    if over:
        print(f"\nover the {args.budget:.0f} ms budget: " + "; ".join(over))
    else:
        print(f"\nevery worst time is within the {args.budget:.0f} ms budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())

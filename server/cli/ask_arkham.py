"""Arkham Horror: movement questions (cheapest route, areas reachable this Movement phase).

    chronicle ask arkham path SCENARIO --from AREA --to AREA
    chronicle ask arkham reachable SCENARIO --investigator SEAT
    chronicle ask arkham reachable --log LOG --seq N --investigator SEAT

Both print JSON, on the scenario as it starts or, with ``--log LOG --seq N``, on the state after
event N of a real game (its monsters where they stand then; during the investigator's own
movement, with the points it has left). ``path`` answers on the scenario's board (its yellow lines, the unverified one
included unless the scenario drops it): the cheapest route and its cost in movement points, one
per line (AH-2, AH-3), preferring among equal routes the one that passes fewest monsters (AH-7):
the cheapest route, not always the way a Move without a path walks (from arkham-4 that Move goes
round monsters when a way round fits, AH-7). ``reachable`` lists every area the investigator can
end its next movement in, with the route a Move there walks under the game's rules version (the
log's ``rules_version``, else the newest), its cost and the clause that decides it (AH-2 in Arkham, AH-C7 delayed, AH-10/AH-11/AH-12 in an Other World,
AH-C5 after Lost in Time and Space), and the monsters it would have to face on the way.
"""

from __future__ import annotations

import argparse
import difflib

from events.games.arkham import board as boards
from events.games.arkham import rules
from events.games.arkham.questions import cheapest_route, monsters_on, not_walkable
from server import logfile
from server.cli.ask_common import add_question, position, reply
from server.cli.status import BAD_ARGS, CommandError


def add_questions(subparsers: argparse._SubParsersAction) -> None:
    path = add_question(subparsers, "path", "the cheapest route between two areas and its cost in movement points",
                        "arkham/crossing", run_path)
    path.add_argument("--from", dest="start", required=True, metavar="AREA", help="an area id, e.g. graveyard")
    path.add_argument("--to", dest="goal", required=True, metavar="AREA", help="an area id, e.g. administration")
    reach = add_question(subparsers, "reachable", "every area an investigator can end its next movement in",
                         "arkham/crossing", run_reachable)
    reach.add_argument("--investigator", required=True, metavar="SEAT", help="the investigator's seat (or name)")


def _area(state, area_id: str, option: str):
    found = boards.area(state.board, area_id)
    clause = not_walkable(state, area_id)
    if clause == "?":
        known = [item.id for item in state.board.areas]
        close = difflib.get_close_matches(area_id, known, 3)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        raise CommandError(f"{option}: no area {area_id!r} on {state.board.name}{hint}", BAD_ARGS)
    if clause:
        raise CommandError(f"{option}: {found.name} is not a Street or Location: no yellow line reaches it ({clause})",
                           BAD_ARGS)
    return found


def _monsters_on(state, route: tuple) -> list:
    return [{"area": place, "monsters": list(ids)} for place, ids in monsters_on(state, route)]


def run_path(args: argparse.Namespace) -> int:
    state, origin = position(args, "arkham", rules)
    start = _area(state, args.start, "--from")
    goal = _area(state, args.goal, "--to")
    full = cheapest_route(state, start.id, goal.id)
    answer: dict = {"from": start.id, "to": goal.id, "rule": "AH-3"}
    if full is None:
        answer.update(cost=None, route=None, reason=f"no yellow line route joins {start.name} to {goal.name}")
    else:
        answer.update(cost=len(full) - 1, route=list(full),
                      names=[boards.area(state.board, place).name for place in full],
                      monsters=_monsters_on(state, full))
    answer["unverified_lines"] = [list(line) for line in state.board.unverified]
    steps = zip(answer["route"], answer["route"][1:]) if full is not None else ()
    answer["unverified_used"] = any((min(a, b), max(a, b)) in state.board.unverified for a, b in steps)
    return reply(answer, origin)


def run_reachable(args: argparse.Namespace) -> int:
    state, origin = position(args, "arkham", rules)
    index = rules.seat_index(state, args.investigator)
    if index < 0:
        lowered = args.investigator.lower()
        index = next((i for i, inv in enumerate(state.investigators) if inv.name.lower() == lowered), -1)
    if index < 0:
        known = ", ".join(f"{inv.seat} ({inv.name})" for inv in state.investigators)
        raise CommandError(f"--investigator: no investigator {args.investigator!r} (known: {known})", BAD_ARGS)
    inv = state.investigators[index]
    areas = []
    version = logfile.read(args.log)[0].rules_version if origin else rules.RULES_VERSION  # the game's own walk
    found = rules.reach(state, index, rules.edition(version))
    for place, (cost, route, rule) in sorted(found.items(), key=lambda item: (item[1][0], item[0])):
        areas.append({
            "area": place, "name": boards.area(state.board, place).name, "cost": cost,
            "route": [inv.where] + list(route) if rule == "AH-2" else _unique([inv.where, place]),
            "rule": rule, "monsters": _monsters_on(state, (inv.where,) + route) if rule == "AH-2" else [],
        })
    answer = {"investigator": inv.seat, "name": inv.name, "at": inv.where, "speed": inv.speed,
              "delayed": inv.delayed, "areas": areas}
    if origin and index == state.active and state.step == "move":  # its movement is under way (AH-2)
        answer["points_left"] = state.points
    return reply(answer, origin)


def _unique(places: list) -> list:
    return places[:1] if places[0] == places[-1] else places

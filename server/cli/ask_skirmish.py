"""Grid skirmish: line of sight, cover and reachable squares on a scenario's map.

    chronicle ask skirmish los SCENARIO --from SQUARE --to SQUARE
    chronicle ask skirmish reachable SCENARIO --figure ID
    chronicle ask skirmish path SCENARIO --figure ID --path SQUARE,SQUARE,...

Both print JSON and answer on the scenario as it starts (every door closed, figures where the
scenario puts them) or, with ``--log LOG --seq N`` instead of SCENARIO, on the state after event N
of a real game (its doors and figures as they are then). Squares are written ``C3`` (column letter, row number) or ``x,y`` from 0.

``los`` prints ``{"los": bool, "cover": bool, ...}``: line of sight exists when some line from a
point of one square to a point of the other neither crosses nor touches a wall or closed door
(SK-1, SK-6, SK-C3); without it, ``blocking_edge`` names the wall or door the line between the
centres meets first. ``cover`` is what an attacker on the first square would face (SK-C3): the
other figures and the low objects of the map screen, the figures on the two squares do not.
``reachable`` lists every square the figure can end a move on this activation (up to twice its
movement points, SK-C2) with the cost and the cheapest path; ``attack_after`` tells whether it
could still attack there (cost within its movement points). ``path`` judges the way a player says
the figure went, as a Move with that path at the start of its activation would be judged (issue
15): ``{"legal": true, "cost": …}``, or ``{"legal": false, "rule": "SK-1", "reason": "step 3, …"}``
naming the first illegal step and its clause. Squares are separated by commas or spaces
(``F1,E1,D1``; ``x,y`` squares need spaces: ``"5,0 4,0"``).
"""

from __future__ import annotations

import argparse

from events.games.skirmish import rules
from events.games.skirmish.questions import judge_path, reachable
from events.geometry.squares import square_edge_name, square_inside, square_name, square_parse
from server.cli.ask_common import add_question, position, reply
from server.cli.status import BAD_ARGS, CommandError


def add_questions(subparsers: argparse._SubParsersAction) -> None:
    los = add_question(subparsers, "los", "line of sight and cover between two squares", "skirmish/purge", run_los)
    los.add_argument("--from", dest="start", required=True, metavar="SQUARE", help="e.g. C2 or 2,1")
    los.add_argument("--to", dest="goal", required=True, metavar="SQUARE", help="e.g. G2 or 6,1")
    reach = add_question(subparsers, "reachable", "every square a figure can move to, with the cost",
                         "skirmish/purge", run_reachable)
    reach.add_argument("--figure", required=True, metavar="ID", help="a figure id, e.g. ana")
    walk = add_question(subparsers, "path", "is this path legal for a figure, and if not, which step and rule",
                        "skirmish/purge", run_path)
    walk.add_argument("--figure", required=True, metavar="ID", help="a figure id, e.g. z3")
    walk.add_argument("--path", required=True, metavar="SQUARES", help="the squares entered, e.g. C5,C4")


def _square(state, text: str, option: str) -> tuple:
    square = square_parse(text)
    if square is None:
        raise CommandError(f"{option}: expected a square such as C3 or 2,2, got {text!r}", BAD_ARGS)
    if not square_inside(square, state.grid.width, state.grid.height):
        raise CommandError(f"{option}: {text} is off the {state.grid.width} × {state.grid.height} map", BAD_ARGS)
    return square


def run_los(args: argparse.Namespace) -> int:
    state, origin = position(args, "skirmish", rules)
    start = _square(state, args.start, "--from")
    goal = _square(state, args.goal, "--to")
    seen, edge, cover, corner, screens = rules.sight(state, start, goal)
    answer: dict = {"from": square_name(start), "to": square_name(goal), "los": seen, "cover": cover}
    if edge is not None:
        answer["blocking_edge"] = square_edge_name(edge)
        answer["blocking"] = rules.edge_label(state, edge)
    if cover:
        answer["corner"] = list(corner)
        answer["screens"] = list(screens)
    answer["rule"] = "SK-C3"
    return reply(answer, origin)


def _figure(state, figure_id: str):
    item = rules.figure(state, figure_id)
    if item is None:
        known = ", ".join(f.id for f in state.figures)
        raise CommandError(f"--figure: no figure {figure_id!r} in this scenario (figures: {known})", BAD_ARGS)
    return item


def run_path(args: argparse.Namespace) -> int:
    state, origin = position(args, "skirmish", rules)
    item = _figure(state, args.figure)
    words = args.path.split() if " " in args.path.strip() else args.path.split(",")
    path = tuple(_square(state, word, "--path") for word in words if word)
    if not path:
        raise CommandError("--path: expected the squares entered, such as C5,C4, got nothing", BAD_ARGS)
    cost, refusal = judge_path(state, item, path)  # as at the start of its activation (SK-C2)
    answer: dict = {"figure": item.id, "from": square_name(item.at), "path": [square_name(sq) for sq in path],
                    "movement_points": item.speed}
    if refusal is None:
        answer.update({"legal": True, "cost": cost, "rule": "SK-C2"})
    else:
        answer.update({"legal": False, "rule": refusal.rule, "reason": refusal.reason})
    return reply(answer, origin)


def run_reachable(args: argparse.Namespace) -> int:
    state, origin = position(args, "skirmish", rules)
    item = _figure(state, args.figure)
    options = reachable(state, item)
    squares = [
        {"square": square_name(square), "cost": cost, "path": [square_name(step) for step in path],
         "attack_after": cost <= item.speed}
        for square, (cost, path) in sorted(options.items(), key=lambda pair: (pair[1][0], pair[0][1], pair[0][0]))
    ]
    answer = {"figure": item.id, "from": square_name(item.at), "movement_points": item.speed,
              "diagonal_cost": state.grid.diagonal_cost, "reachable": squares, "rule": "SK-C2"}
    return reply(answer, origin)

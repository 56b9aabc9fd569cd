"""Expeditions: where a Mecha may end its Move now.

    chronicle ask mecha destinations SCENARIO --seat SEAT
    chronicle ask mecha destinations --log LOG --seq N --seat SEAT

Prints JSON, on the scenario as it starts (every Mecha in the Camp unless it says otherwise) or,
with ``--log LOG --seq N``, on the state after event N of a real game. The answer is the seat's
Mecha's every valid destination with the shortest legal path (MV-C4) and its length: an *empty*
Location (MV-1) within its Range, other than where it stands (MV-3), by a route that may pass
occupied Locations (MV-4, named in ``passes``), never the Camp (MV-2) and never through a
face-down Location, whose entering ends the move and reveals it (MV-6: ``reveals``). With no valid
destination the list is empty and ``rule`` is MV-5: the Mecha stays.
"""

from __future__ import annotations

import argparse

from events.games.mecha import rules
from server.cli.ask_common import add_question, position, reply
from server.cli.status import BAD_ARGS, CommandError


def add_questions(subparsers: argparse._SubParsersAction) -> None:
    where = add_question(subparsers, "destinations", "every Location a seat's Mecha may end its Move in now",
                         "mecha/sample", run_destinations)
    where.add_argument("--seat", required=True, metavar="SEAT", help="the seat whose Mecha moves, e.g. red")


def run_destinations(args: argparse.Namespace) -> int:
    state, origin = position(args, "mecha", rules)
    index = rules.seat_index(state, args.seat)
    if index < 0:
        known = ", ".join(f"{seat.seat} ({seat.mech})" for seat in state.seats)
        raise CommandError(f"--seat: no seat {args.seat!r} (seats: {known})", BAD_ARGS)
    seat = state.seats[index]
    here = state.positions[index]
    occupied = {place for place in state.positions if place is not None}
    face_up = set(state.face_up)
    options = rules.destinations(state, index)
    places = [
        {"location": place, "steps": len(path), "path": list(path),
         "passes": [step for step in path[:-1] if step in occupied], "reveals": place not in face_up}
        for place, path in sorted(options.items(), key=lambda item: (len(item[1]), item[0]))
    ]
    answer = {"seat": seat.seat, "mech": seat.mech, "at": "camp" if here is None else here,
              "range": [seat.range_min, seat.range_max], "destinations": places,
              "rule": "MV-1" if places else "MV-5", "turn": rules.current_seat(state) == seat.seat}
    return reply(answer, origin)

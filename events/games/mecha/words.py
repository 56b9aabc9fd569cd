"""What each ``mecha`` event says, as messages (``events/words.py``): the log line and the trace.

One describer for the browser's log (``client/eventlog.py``, in the reader's language) and
``chronicle explain`` (English, ``server/cli/explain.py``). No event here needs the state before it.
"""

from __future__ import annotations

from events.words import Join, Msg, Seat, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _where(position: object) -> Msg:
    return Msg("mecha.camp") if position is None else Msg("mecha.location", number=position)


def _numbers(numbers: tuple, separator: str = ", ") -> Join:
    return Join(separator, [str(number) for number in numbers])


def describe(event: Any, state: Any = None) -> Msg | None:
    """The log line of an event (MV-C4 move, MV-6 corruption, MV-7 plans, MV-8 the bag, MV-C3 turns)."""
    kind = event.TYPE
    if kind == "MechMoved":
        return Msg("mecha.moved", seat=Seat(event.seat), start=_where(event.start), route=_numbers(event.path, " → "))
    if kind == "MechStayed":
        return Msg("mecha.stayed", seat=Seat(event.seat), at=_where(event.at))
    if kind == "PlanTokenGained":
        return Msg("mecha.plan_token", seat=Seat(event.seat), location=event.location)
    if kind == "LocationRevealed":
        return Msg("mecha.revealed", seat=Seat(event.seat), location=event.location)
    if kind == "CorruptionDrawn":
        return Msg("mecha.drawn", location=event.location, value=event.value, colour=Word("mecha.colour_", event.colour),
                   total=event.total, level=event.level)
    if kind == "CorruptionPlaced":
        return Msg("mecha.placed", location=event.location, value=event.value)
    if kind == "BagRanOut":
        return Msg("mecha.bag_out", location=event.location, total=event.total, level=event.level)
    if kind == "TurnPassed":
        return Msg("mecha.passes", seat=Seat(event.seat))
    if kind == "TurnEnded":
        if state is not None and event.round > state.rounds:  # the last turn of the last round: no round follows
            return Msg("mecha.turn_ended_last", seat=Seat(event.seat), rounds=state.rounds)
        return Msg("mecha.turn_ended", seat=Seat(event.seat), next=Seat(event.next_seat), round=event.round)
    if kind == "GameEnded":
        return Msg("mecha.game_ended", n=event.rounds, plans=_numbers(event.plans), revealed=_numbers(event.revealed))
    return None


def trace(event: Any, state: Any = None) -> list:
    """The rules' reasoning: the shortest legal path (MV-C4), each draw against the level (MV-6c, MV-8)."""
    kind = event.TYPE
    if kind == "MechMoved":
        route = Join(" → ", [_where(event.start)] + [str(place) for place in event.path])
        lines = [Msg("mecha.trace_moved", seat=Seat(event.seat), route=route, n=len(event.path))]
        for place in event.passed_through:
            lines.append(Msg("mecha.trace_passed", location=place))
        return lines
    if kind == "CorruptionDrawn":
        more = Msg("mecha.trace_level") if event.total >= event.level else Msg("mecha.trace_again")
        return [Msg("mecha.trace_drawn", location=event.location, value=event.value, total=event.total,
                    level=event.level, more=more)]
    if kind == "BagRanOut":
        return [Msg("mecha.trace_bag_out", location=event.location, total=event.total, level=event.level)]
    return []

"""The time each seat has spent (issue 18), from the envelopes' ``at`` alone.

``at`` is the server's UTC time of logging, ``YYYY-MM-DDTHH:MM:SS[.ffffff]Z``: informative, never
read by a reducer, kept by redacted envelopes. The page never reads its own clock for this.

The rule (docs/client.md, "Time spent"): a seat's clock runs from the moment it became one of the
seats to move (``game.turn(state)``) until the first envelope of its next command. A seat becomes
to move at the ``at`` of the envelope after which it is in the turn and was not before, or after
its own command if it is still to move. In a game where one seat moves at a time this is "from the
previous command's last envelope (or GameStarted) to this command's first envelope"; in a
simultaneous-pick round every seat counts from the round's start. Times are integer milliseconds
(no float: Brython); an ``at`` that does not parse is skipped, and a clock that went backwards
counts as zero.
"""

from __future__ import annotations

DAYS_BEFORE_MONTH = (0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334)


_MINUTES: dict = {}  # "YYYY-MM-DDTHH:MM" -> its milliseconds, or -1 if it is no time
_MINUTES_KEPT = 4096


def millis(at: object) -> int | None:
    """Milliseconds since 1970-01-01T00:00:00Z of a logged ``at``; None if it is not one.

    A page catching up reads one per envelope (10,000 for a long game, issue 16), and in Brython
    each string slice and ``int`` costs microseconds: the date-and-minute part is worked out once
    per minute (``_MINUTES``), the seconds and their fraction for each envelope.
    """
    if not isinstance(at, str) or len(at) < 20 or at[-1] != "Z" or at[16] != ":":
        return None
    head = at[:16]
    if head in _MINUTES:
        base = _MINUTES[head]
    else:
        base = _minute(head)
        if len(_MINUTES) >= _MINUTES_KEPT:
            _MINUTES.clear()
        _MINUTES[head] = base
    second_text = at[17:19]
    if base < 0 or not second_text.isdigit() or not second_text.isascii():
        return None
    second = int(second_text)
    fraction = at[19:-1]
    if fraction:
        digits = fraction[1:]
        if fraction[0] != "." or not digits or not digits.isdigit() or not digits.isascii():
            return None
        milli = int((digits + "00")[:3])
    else:
        milli = 0
    if second >= 61:
        return None
    return base + second * 1000 + milli


def _minute(head: str) -> int:
    """Milliseconds of ``YYYY-MM-DDTHH:MM`` since 1970-01-01T00:00Z; -1 if it is not one."""
    if head[4] != "-" or head[7] != "-" or head[10] != "T" or head[13] != ":":
        return -1
    parts = (head[0:4], head[5:7], head[8:10], head[11:13], head[14:16])
    for part in parts:
        if not part.isdigit() or not part.isascii():
            return -1
    year, month, day, hour, minute = int(parts[0]), int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4])
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60):
        return -1
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    before = year - 1
    days = (before * 365 + before // 4 - before // 100 + before // 400 - 719162
            + DAYS_BEFORE_MONTH[month - 1] + (1 if leap and month > 2 else 0) + day - 1)
    return ((days * 24 + hour) * 60 + minute) * 60000


def clock_text(ms: int) -> str:
    """``m:ss`` of a duration in milliseconds (whole seconds, rounded down)."""
    total = ms // 1000
    return f"{total // 60}:{total % 60:02d}"


class SeatClock:
    """Folds envelopes, each with the seats to move after it, into each seat's time spent."""

    __slots__ = ("spent", "since", "turn", "command_id", "last_at", "order")

    def __init__(self) -> None:
        self.spent: dict = {}  # seat -> milliseconds spent so far
        self.since: dict = {}  # seat -> when its clock started (it became to move)
        self.turn: tuple = ()  # the seats to move after the last envelope
        self.command_id = None  # the command of the last envelope
        self.last_at = None
        self.order: list = []  # seats in the order the log first named them

    def add(self, envelope: object, turn_after: object) -> None:
        """One envelope (its ``seat``, ``command_id``, ``at``) and ``game.turn`` of the state after it."""
        at = millis(envelope.at)
        seat = envelope.seat
        if seat is not None and seat not in self.order:
            self.order.append(seat)
            self.spent[seat] = 0
        if at is not None and seat is not None and envelope.command_id is not None \
                and envelope.command_id != self.command_id:  # the first envelope of a seat's command
            start = self.since.get(seat, self.last_at)
            if start is not None and at > start:
                self.spent[seat] += at - start
        self.command_id = envelope.command_id
        turn = tuple(turn_after or ())
        if at is not None:
            for waiting in turn:
                if waiting not in self.turn or waiting == seat:
                    self.since[waiting] = at
                if waiting not in self.order:
                    self.order.append(waiting)
                    self.spent[waiting] = 0
            self.last_at = at
        self.turn = turn

    def times(self) -> list:
        """``[(seat, milliseconds)]`` in the order the log first named the seats."""
        return [(seat, self.spent[seat]) for seat in self.order]


def seat_times(envelopes: list, turns: list) -> list:
    """``[(seat, milliseconds)]`` of a whole log; ``turns[i]``: the seats to move after envelopes[i]."""
    clock = SeatClock()
    for envelope, turn in zip(envelopes, turns):
        clock.add(envelope, turn)
    return clock.times()

"""Each seat's time spent, from the envelopes' ``at`` (issue 18; client/seatclock.py), folded in
CPython over hand-made envelopes: no page, no clock read."""

from __future__ import annotations

from client.seatclock import SeatClock, clock_text, millis, seat_times
from events.log import Envelope
from tests.events.toy import Add, Added


def envelope(seq: int, seat: str | None, command_id: str | None, at: str | None) -> Envelope:
    return Envelope("g1", seq, Added(1), seat, command_id, Add(1) if command_id else None, None, "T-1", "0" * 64, at)


def at(seconds: int, millis_part: int = 0) -> str:
    return f"2026-12-01T11:{seconds // 60:02d}:{seconds % 60:02d}.{millis_part:03d}000Z"


def test_millis_reads_the_servers_at_to_integer_milliseconds_and_refuses_anything_else():
    assert millis("1970-01-01T00:00:00Z") == 0
    assert millis("2024-02-29T23:59:59.999999Z") == 1709251199999  # a leap day, microseconds cut to ms
    assert millis("2000-03-01T00:00:00.5Z") == 951868800500
    for bad in (None, 17, "", "2026-12-01", "2026-12-01T11:00:00", "2026-12-01T11:00:00+01:00",
                "2026-13-01T11:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T11:00:00.Z", "2026-12-01T11:00:00,5Z",
                "２０26-12-01T11:00:00Z", "2026-12-01T11:0a:00Z"):
        assert millis(bad) is None, bad


def test_millis_answers_the_same_when_its_minute_was_read_before():
    """The date and minute of an ``at`` are worked out once per minute (a 10,000-envelope
    catch-up, issue 16): a minute seen before, good or bad, answers as it did the first time."""
    first = millis("2026-12-01T11:59:07.250Z")
    assert first == millis("2026-12-01T11:59:07.250Z")
    assert millis("2026-12-01T11:59:58Z") - first == 50_750
    for _ in range(2):
        assert millis("2026-12-01T11:60:00Z") is None  # no minute 60, cached as no time
        assert millis("2026-12-01T11:59:61Z") is None  # its minute is good, its second is not
        assert millis("2026-12-01T11:59:0xZ") is None


def test_clock_text_is_minutes_and_two_digit_seconds_rounded_down():
    assert clock_text(0) == "0:00"
    assert clock_text(59999) == "0:59"
    assert clock_text(61000) == "1:01"
    assert clock_text(3600000) == "60:00"


def test_turn_by_turn_each_command_counts_from_the_previous_commands_last_envelope():
    log = [envelope(1, None, None, at(0)),  # GameStarted: red to move
           envelope(2, "red", "c1", at(5)), envelope(3, "red", "c1", at(5)),  # red took 5 s; blue to move
           envelope(4, "blue", "c2", at(12, 500)),  # blue took 7.5 s; red to move
           envelope(5, "red", "c3", at(20))]  # red took 7.5 s more
    turns = [("red",), ("red",), ("blue",), ("red",), ("blue",)]
    assert seat_times(log, turns) == [("red", 12500), ("blue", 7500)]


def test_a_seat_still_to_move_after_its_command_counts_from_that_commands_end():
    log = [envelope(1, None, None, at(0)), envelope(2, "red", "c1", at(3)), envelope(3, "red", "c2", at(10))]
    assert seat_times(log, [("red",), ("red",), ("blue",)]) == [("red", 10000), ("blue", 0)]


def test_a_simultaneous_pick_round_counts_every_seat_from_the_rounds_start():
    log = [envelope(1, None, None, at(0)),  # both pick
           envelope(2, "red", "p1", at(4)),  # red picked after 4 s; blue still picking
           envelope(3, "blue", "p2", at(9)),  # blue picked after 9 s (not 5); the round resolves
           envelope(4, None, None, at(9)),  # a serverless event: a new round, both pick again
           envelope(5, "blue", "p3", at(11)), envelope(6, "red", "p4", at(15))]
    turns = [("red", "blue"), ("blue",), (), ("red", "blue"), ("red",), ("red", "blue")]
    assert seat_times(log, turns) == [("red", 10000), ("blue", 11000)]


def test_a_redacted_envelope_keeps_at_and_counts_the_same():
    log = [envelope(1, None, None, at(0)), envelope(2, "red", "c1", at(6))]
    redacted = [log[0], log[1].redacted(Added(0), None)]
    assert seat_times(redacted, [("red",), ("blue",)]) == seat_times(log, [("red",), ("blue",)]) == [
        ("red", 6000), ("blue", 0)]


def test_an_at_that_does_not_parse_is_skipped_and_a_clock_going_backwards_counts_zero():
    log = [envelope(1, None, None, at(10)), envelope(2, "red", "c1", "yesterday"),
           envelope(3, "red", "c2", at(4)), envelope(4, "blue", "c3", at(8))]
    turns = [("red",), ("red",), ("blue",), ("red",)]
    assert seat_times(log, turns) == [("red", 0), ("blue", 4000)]


def test_the_clock_grows_as_envelopes_arrive_and_leaves_them_unchanged():
    clock = SeatClock()
    first = envelope(1, None, None, at(0))
    clock.add(first, ("red",))
    assert clock.times() == [("red", 0)]
    clock.add(envelope(2, "red", "c1", at(65)), ("blue",))
    assert clock.times() == [("red", 65000), ("blue", 0)]
    assert first.at == at(0) and first.seat is None

"""The events frame's compact spelling (events/wire.py, issue 16): the wire schema, times and hashes,
the reader's refusals with their ``$`` paths, and envelopes read back equal to the store's, field for
field, in every game: redacted copies (GH-C2), undo events (CORE-4, CORE-6), SecretRevealed (CORE-2),
RulesVersionChanged (CORE-3) with and without the seats' consent (CORE-10, CORE-11)."""

from __future__ import annotations

import json
import random

import pytest

import events.games
from events import wire
from events.bots import bot, playout
from events.dice import local_secret
from events.game import RulesVersionChanged, SecretRevealed
from events.log import Envelope, Table
from events.record import DecodeError
from events.rng import Rng
from events.undo import AnswerUndo, AskUndo, is_undo_event
from events.upgrade import AnswerRulesVersion, ProposeRulesVersion
from server import frames
from server.scenarios import builtin_scenarios, load

MECHA = events.games.load("mecha")
START = "2026-12-01T14:00:00.000000Z"
HASH = "ab" * 32
B64 = wire.hash_to_wire(HASH)
SCHEMA = wire.schema(MECHA)
MOVED = SCHEMA.event_at["MechMoved"]
MOVE = SCHEMA.command_at["Move"]


SEATS = ("red", "blue")
CHECK = HASH[:24]  # what a frame carries of HASH: its first 96 bits
ENDED = SCHEMA.event_at["TurnEnded"]


def good() -> list:
    """A frame as the server writes one: red's Move, MechMoved and TurnEnded positional, seats by index,
    its time since the start."""
    return [13, B64, [0, "b-4", [MOVE, 2], 8311, [MOVED, 0, None, 2, [3, 2], [3]], [ENDED, 0, 1, 3]]]


def refused(frame: object, started: str | None = START, seats: object = SEATS) -> str:
    with pytest.raises(DecodeError) as raised:
        wire.frame_envelopes(MECHA, "g", frame, started, seats=seats)
    try:  # the dicts' reader refuses the frame's own faults the same way, at the same place …
        dicts = wire.frame_dicts(MECHA, "g", frame, started, seats=seats)
    except DecodeError as again:
        assert str(again) == str(raised.value)
    else:  # … and leaves a record's to be refused when it is built
        with pytest.raises(DecodeError):
            for raw in dicts:
                Envelope.from_dict(MECHA, dict(raw, hash=raw["hash"] or ""))
    return str(raised.value)


def test_core_wire_the_good_frame_reads_back_as_envelopes():
    first, second = wire.frame_envelopes(MECHA, "g", good(), START, seats=SEATS)
    assert (first.seq, first.type, first.rule, first.seat, first.command_id, first.hash) == (
        13, "MechMoved", "MV-1", "red", "b-4", None)
    assert first.command == MECHA.commands.build({"type": "Move", "to": 2})
    assert first.event.path == (3, 2) and first.at == second.at == "2026-12-01T14:00:00.008311Z"
    assert (second.seq, second.rule, second.hash) == (14, "MV-C3", CHECK)
    assert (second.event.seat, second.event.next_seat) == ("red", "blue")
    assert wire.hash_matches(HASH, second.hash) and not wire.hash_matches("cd" * 32, second.hash)
    assert wire.frame_ack(good()) is None


def _run(frame: list, *run: object) -> list:
    """``frame`` with its one run replaced by ``run``."""
    return [frame[0], frame[1], list(run)]


def _events(frame: list, *entries: object) -> list:
    """``frame`` with its run's events replaced by ``entries``."""
    return [frame[0], frame[1], frame[2][:4] + list(entries)]


@pytest.mark.parametrize("change, path, fact", [
    # the frame itself
    (lambda f: {"type": "events", "seq": 13, "hash": B64, "runs": [f[2]]}, "$", "expected an events frame [seq, hash, run, …], got an object"),
    (lambda f: "events", "$", "got str"),
    (lambda f: f[:2], "$", "got a list of 2"),
    (lambda f: [], "$", "got a list of 0"),
    (lambda f: [0, *f[1:]], "$[0]", "expected a seq, a positive integer"),
    (lambda f: [True, *f[1:]], "$[0]", "got True"),
    (lambda f: [13.0, *f[1:]], "$[0]", "got 13.0"),
    (lambda f: [2**60, *f[1:]], "$[0]", "at most 2**53"),
    (lambda f: [2**53, *f[1:]], "$[0]", "its 2 events would pass seq 2**53"),
    (lambda f: [f[0], HASH, f[2]], "$[1]", "expected a hash prefix as 16 base64url characters"),  # the whole hash
    (lambda f: [f[0], wire.hash_to_wire(HASH)[:15], f[2]], "$[1]", "16 base64url"),  # truncated
    (lambda f: [f[0], wire.hash_to_wire(HASH) + "A", f[2]], "$[1]", "16 base64url"),  # too long
    (lambda f: [f[0], "q6urq6urq6urq6u=", f[2]], "$[1]", "16 base64url"),
    (lambda f: [f[0], "!6urq6urq6urq6ur", f[2]], "$[1]", "16 base64url"),
    (lambda f: [f[0], "q6urq6urq6urq6u\u00e9", f[2]], "$[1]", "16 base64url"),
    (lambda f: [f[0], None, f[2]], "$[1]", "got None"),
    (lambda f: [f[0], [3], f[2]], "$[1]", "got a list of 1"),
    (lambda f: [f[0], {}, f[2]], "$[1]", "got an object"),
    (lambda f: [*f, 2], "$[3]", "or the ack mark 1, got 2"),
    (lambda f: [*f, True], "$[3]", "or the ack mark 1, got True"),
    (lambda f: [*f, "ack"], "$[3]", "or the ack mark 1, got 'ack'"),
    (lambda f: [*f, 1, 1], "$[3]", "expected a run"),
    (lambda f: [*f, {}], "$[3]", "or the ack mark 1, got an object"),
    # a run
    (lambda f: [*f[:2], {}], "$[2]", "expected a run [seat, command_id, command, at, event, …], got an object"),
    (lambda f: [*f[:2], f[2][:4]], "$[2]", "expected a run [seat, command_id, command, at, event, …]"),
    (lambda f: _run(f, 2, *f[2][1:]), "$[2][0]", "no seat 2: the game has 2 seats (red, blue)"),
    (lambda f: _run(f, -1, *f[2][1:]), "$[2][0]", "no seat -1"),
    (lambda f: _run(f, True, *f[2][1:]), "$[2][0]", "expected a seat (its index, a string or null), got True"),
    (lambda f: _run(f, [0], *f[2][1:]), "$[2][0]", "got a list of 1"),
    (lambda f: _run(f, 0, 7, *f[2][2:]), "$[2][1]", "expected a string or null, got 7"),
    (lambda f: _run(f, 0, "b", [], *f[2][3:]), "$[2][2]", "expected a command"),
    (lambda f: _run(f, 0, "b", {"to": 2}, *f[2][3:]), "$[2][2]", "expected a command"),
    (lambda f: _run(f, 0, "b", [99, 2], *f[2][3:]), "$[2][2][0]", "no command type 99"),
    (lambda f: _run(f, 0, "b", [-1, 2], *f[2][3:]), "$[2][2][0]", "no command type -1"),
    (lambda f: _run(f, 0, "b", [True, 2], *f[2][3:]), "$[2][2]", "expected a command"),
    (lambda f: _run(f, 0, "b", ["Move", 2], *f[2][3:]), "$[2][2]", "expected a command"),
    (lambda f: _run(f, 0, "b", [MOVE], *f[2][3:]), "$[2][2]", "command 'Move' has 1 field (to), got 0 values"),
    (lambda f: _run(f, 0, "b", [MOVE, 2, 3], *f[2][3:]), "$[2][2]", "got 2 values"),
    (lambda f: _run(f, 0, "b", [MOVE, True], *f[2][3:]), "$[2][2].to", "expected an integer, a string or null, got true"),
    (lambda f: _run(f, 0, "b", ["Move", {"to": [1]}], *f[2][3:]), "$[2][2].to", "expected an integer, a string or null"),
    (lambda f: _run(f, 0, "b", ["Move", {"type": "Pass"}], *f[2][3:]), "$[2][2][1]", "type belongs in"),
    (lambda f: _run(f, 0, "b", ["Fly", {}], *f[2][3:]), "$[2][2].type", "unknown command type 'Fly'"),
    (lambda f: _run(f, *f[2][:3], [1], *f[2][4:]), "$[2][3]", "expected a time"),
    (lambda f: _run(f, *f[2][:3], 1.5, *f[2][4:]), "$[2][3]", "expected a time"),
    (lambda f: _run(f, *f[2][:3], 10**16, *f[2][4:]), "$[2][3]", "at most 10**15"),
    (lambda f: _run(f, *f[2][:3], 10**400, *f[2][4:]), "$[2][3]", "at most 10**15"),
    (lambda f: _run(f, *f[2][:3], -(10**15) - 1, *f[2][4:]), "$[2][3]", "at most 10**15"),
    # an event
    (lambda f: _events(f, 5), "$[2][4]", "expected an event"),
    (lambda f: _events(f, []), "$[2][4]", "expected an event"),
    (lambda f: _events(f, [999, 0]), "$[2][4][0]", "no event type 999"),
    (lambda f: _events(f, [True, 0]), "$[2][4]", "expected an event"),
    (lambda f: _events(f, [MOVED, 0, None, 2, [3, 2]]), "$[2][4]",
     "event 'MechMoved' has 5 fields (seat, start, to, path, passed_through), got 4 values"),
    (lambda f: _events(f, [MOVED, 0, None, 2, [3, 2], [3], 0]), "$[2][4]", "got 6 values"),
    (lambda f: _events(f, f[2][4], [ENDED, 0, 2, 3]), "$[2][5][2]", "no seat 2: the game has 2 seats"),
    (lambda f: _events(f, [MOVED, 5, None, 2, [3, 2], [3]]), "$[2][4][1]", "no seat 5"),
    (lambda f: _events(f, ["Teleported", {"seat": "red"}, "MV-1"]), "$[2][4].type", "unknown event type 'Teleported'"),
    (lambda f: _events(f, ["MechMoved", {"seat": "red"}, "MV-1"]), "$[2][4]", "missing field 'start'"),
    (lambda f: _events(f, ["TurnPassed", {"seat": "red", "type": "x"}, "MV-C3"]), "$[2][4][1]", "type belongs in"),
    (lambda f: _events(f, ["TurnPassed", {"seat": "red"}, 3]), "$[2][4][2]", "expected a string or null, got 3"),
    (lambda f: _events(f, ["TurnPassed", {"seat": "red"}, "MV-C3", "6"]), "$[2][4][3]", "expected a list of integers"),
    (lambda f: _events(f, ["TurnPassed", {"seat": "red"}, "MV-C3", [6, "x"]]), "$[2][4][3][1]", "expected an integer"),
    (lambda f: _events(f, ["TurnPassed", {"seat": "red"}, "MV-C3", [], 1]), "$[2][4]", "expected an event"),
])
def test_core_wire_the_reader_refuses_a_hostile_frame_with_its_path(change, path, fact):
    message = refused(change(good()))
    assert message.startswith(path + ":") or message.startswith(path + "."), message
    assert fact in message, message


def test_core_wire_a_seat_index_needs_the_games_seats():
    """A reader that does not know the seats (no GameStarted, no welcome's) cannot read an index: refused,
    never guessed; seats that are not a list of distinct strings are as good as none."""
    assert refused(good(), seats=None) == "$[2][0]: a seat's index, but the game's seats are not known"
    assert refused(good(), seats=("red", "red")).startswith("$[2][0]: a seat's index, but")
    assert refused(good(), seats="red").startswith("$[2][0]: a seat's index, but")
    # The log's first frame names its seats in its GameStarted; one that does not start with it names none.
    assert refused([1, *good()[1:]], seats=None).startswith("$[2][0]: a seat's index, but")
    named = _run(good(), "red", *good()[2][1:4], [MOVED, "red", None, 2, [3, 2], [3]])
    assert wire.frame_envelopes(MECHA, "g", named, START)[0].seat == "red"  # names need no seats


def test_core_wire_a_seat_field_holding_a_number_goes_by_its_names():
    """A seat field that held an integer would read back as a seat: that record keeps its names, and
    one holding a string that is no seat keeps the string (either way rebuilt exactly)."""
    envelope = {"game": "g", "seq": 5, "type": "TurnPassed", "data": {"seat": 1}, "seat": "blue",
                "command_id": "c", "command": None, "dice": None, "rule": "MV-C3", "hash": HASH, "at": None}
    other = dict(envelope, seq=6, data={"seat": "green"}, seat="green")
    frame = wire.frame_from_dicts(MECHA, [envelope, other], None, None, SEATS)
    assert frame[2] == [1, "c", None, None, ["TurnPassed", {"seat": 1}, "MV-C3"]]
    assert frame[3] == ["green", "c", None, None, [SCHEMA.event_at["TurnPassed"], "green"]]
    assert wire.frame_dicts(MECHA, "g", frame, seats=SEATS) == [dict(envelope, hash=None), dict(other, hash=CHECK)]


def test_core_wire_the_senders_copy_carries_its_ack():
    """The ack mark, 1, after the runs: the ack of the frame's command, its first and last seq."""
    marked = [*good(), wire.ACK_MARK]
    assert wire.frame_ack(marked) == {"type": "ack", "id": "b-4", "first": 13, "last": 14}
    assert [e.to_dict() for e in wire.frame_envelopes(MECHA, "g", marked, START, seats=SEATS)] == [
        e.to_dict() for e in wire.frame_envelopes(MECHA, "g", good(), START, seats=SEATS)]
    for other in (good(), [*good(), True], [*good(), 2], [1, B64, 5, 1], "x", [*good()[:2], 1]):
        assert wire.frame_ack(other) is None, other


def test_core_wire_a_field_of_the_wrong_kind_in_an_event_is_refused_at_its_event():
    """RulesVersionChanged checks its since_seq (CORE-3); positional or named, the fault names the event."""
    at = wire.schema(MECHA).event_at["RulesVersionChanged"]
    frame = _run(good(), None, None, None, None, [at, "mecha-1", "mecha-2", "two", None])
    assert refused(frame).startswith("$[2][4]: event 'RulesVersionChanged': since_seq must be an integer")


def test_core_wire_a_rule_field_that_is_no_string_is_refused():
    """An event with a field ``rule`` (Echo's EnemyAttacked, EC-13/EC-16) names its own clause: a number there is no clause."""
    echo = events.games.load("echo")
    at = wire.schema(echo).event_at["EnemyAttacked"]
    frame = _run(good(), 0, None, None, None, [at, "red", 0, "e", [1], [2], 0, 1, 3, 2, 16])
    with pytest.raises(DecodeError, match=r"^\$\[2\]\[4\]: the rule its data names is not a string: 16"):
        wire.frame_envelopes(echo, "g", frame, START, seats=SEATS)
    frame[2][4][-1] = "EC-16"
    assert wire.frame_envelopes(echo, "g", frame, START, seats=SEATS)[0].rule == "EC-16"


def test_core_wire_a_time_needs_the_start_and_a_deeply_nested_value_is_refused_not_overflowed():
    # An offset with no start to count from (a reader that joined late without the welcome's).
    message = refused(good(), started=None)
    assert message.startswith("$[2][3]: a time since the game's start, but its start is not known")
    # Nested 40 deep through JSON, and 100,000 deep built in memory: refused at the value, no RecursionError.
    deep: list = [3]
    for _ in range(40):
        deep = [deep]
    frame = good()
    frame[2][4][4] = deep
    assert refused(json.loads(json.dumps(frame))).startswith("$[2][4][4]: nested deeper than 32 levels")
    for _ in range(100_000):
        deep = [deep]
    frame[2][4][4] = deep
    assert refused(frame).startswith("$[2][4][4]: nested deeper than 32 levels")
    named = _events(good(), ["TurnPassed", {"seat": {"a": deep}}, "MV-C3"])
    assert refused(named).startswith("$[2][4][1]: nested deeper than 32 levels")
    # A huge frame is the server's to refuse (1 MiB, docs/protocol.md); the reader reads what it is given.
    many = _events(good(), *[[ENDED, 0, 1, 3]] * 5000)
    assert len(wire.frame_dicts(MECHA, "g", many, START, seats=SEATS)) == 5000


def test_core_wire_times_round_trip_and_only_the_servers_spelling_becomes_an_integer():
    rng = random.Random(16)
    for _ in range(2000):
        micros = rng.randrange(wire.at_micros("0001-01-01T00:00:00.000000Z"), wire.at_micros(
            "9999-12-31T23:59:59.999999Z") + 1)
        text = wire.at_text(micros)
        assert wire.at_micros(text) == micros and len(text) == 27
    assert wire.at_micros("1970-01-01T00:00:00.000000Z") == 0
    assert wire.at_micros("2024-02-29T12:00:00.000001Z") == 1709208000000001
    for other in ("2026-11-29T15:02:11Z", "2026-11-29T15:02:11.402Z", "2025-02-29T00:00:00.000000Z",
                  "2026-13-01T00:00:00.000000Z", "2026-11-29 15:02:11.402113Z", "2026-11-29T24:00:00.000000Z",
                  "２026-11-29T15:02:11.402113Z", "0000-01-01T00:00:00.000000Z", None, 17):
        assert wire.at_micros(other) is None, other
    assert wire.at_text(wire.at_micros("9999-12-31T23:59:59.999999Z") + 1) is None


def test_core_wire_a_games_clock_reads_every_offset_as_the_full_arithmetic_does():
    """The reader counts a frame's time from the game's start minute by minute (``_Clock``): the same text
    as ``at_text`` of the whole sum, across minutes, days, leap days, years, and both ends of the range."""
    rng = random.Random(3)
    starts = ["2026-12-31T23:59:59.999999Z", "2024-02-28T23:59:00.000000Z", "0001-01-01T00:00:00.000000Z",
              "9999-12-31T23:59:59.999999Z"] + [wire.at_text(rng.randrange(0, 2 * 10**17)) for _ in range(80)]
    for started in starts:  # more starts than the reader remembers (64): it forgets and rebuilds them
        base, clock = wire.at_micros(started), wire._clock(started)
        offsets = [0, 1, -1, 59_999_999, 60_000_000, 86_400_000_000, 10**15, -(10**15)]
        offsets += [rng.randrange(-(10**12), 10**12) for _ in range(30)]
        for offset in offsets:
            assert clock.text(offset) == wire.at_text(base + offset), (started, offset)
    clock = wire._clock(START)
    assert [clock.text(minute * 60_000_000 + 7) for minute in range(600)][-1] == "2026-12-01T23:59:00.000007Z"
    assert wire._clock("2026-11-29T15:02:11Z") is None and wire._clock(None) is None


def test_core_wire_hashes_go_as_their_first_96_bits_in_base64url_and_any_other_string_as_itself():
    for hash_ in (HASH, "0" * 64, "f" * 64, "0123456789abcdef" * 4):
        sent = wire.hash_to_wire(hash_)
        assert len(sent) == 16 and wire.hash_from_wire(sent, "$.hash") == hash_[:24]
        assert wire.hash_matches(hash_, wire.hash_from_wire(sent, "$"))
    import base64
    assert wire.hash_to_wire(HASH) == base64.urlsafe_b64encode(bytes.fromhex(HASH)[:12]).decode()
    # A check names one hash: another whose first 96 bits differ, by one bit anywhere, does not match it.
    check = wire.hash_from_wire(wire.hash_to_wire(HASH), "$")
    for bit in range(96):
        other = f"{int(HASH, 16) ^ (1 << (255 - bit)):064x}"
        assert not wire.hash_matches(other, check)
    assert not wire.hash_matches(HASH[:24], check) and not wire.hash_matches(None, check)
    assert wire.hash_matches("x", "x") and not wire.hash_matches(HASH, HASH[:23])
    for other in ("AB" * 32, "0x" + "a" * 62, "a_" * 32, "", "h", "-" + "a" * 63, " " + "a" * 63, "a" * 62 + "\u00e9",
                  "a" * 63 + "G", None):
        assert wire.hash_to_wire(other) == [other] == frames.hash_to_wire(other)
        assert other is None or wire.hash_from_wire([other], "$") == other
    # The server's C spelling is the same as the page's pure one.
    rng = random.Random(2)
    for _ in range(500):
        hash_ = f"{rng.getrandbits(256):064x}"
        assert frames.hash_to_wire(hash_) == wire.hash_to_wire(hash_)


# --- envelopes read back equal to the store's, in every game -------------------------------------------


def _same(mine: Envelope, theirs: Envelope) -> bool:
    """Equal envelopes but the hash a frame does not carry (None) or carries as its first 96 bits."""
    return ((mine.hash is None or wire.hash_matches(theirs.hash, mine.hash)) and type(mine.event) is type(theirs.event)
            and mine.event == theirs.event and mine.command == theirs.command and mine.dice == theirs.dice
            and dict(mine.to_dict(), hash=theirs.hash) == theirs.to_dict())


def _check_frames(game, table: Table, viewers: tuple) -> dict:
    """Every batch of ``table``'s log as each viewer sees it, while the game ran and once over; how often
    each spelling was used."""
    started, seats = table.envelopes[0].at, table.envelopes[0].event.seats
    used = {"positional": 0, "named": 0, "integer time": 0, "seat index": 0}
    for batch in wire.frame_batches(table.envelopes):
        for seat in (None, *viewers):
            for over in (False, True):
                sent = [game.visible(envelope, seat, over) for envelope in batch]
                text = frames.events_frame(game, sent, started, seats)
                frame = json.loads(text)
                for run in frame[2:]:
                    used["integer time"] += type(run[3]) is int
                    used["seat index"] += type(run[0]) is int
                    for event in run[4:]:
                        used["positional" if type(event[0]) is int else "named"] += 1
                # The browser's reader (json.loads, then events/) and the server's (msgspec, then events/);
                # the log's first frame names its own start and seats.
                first = batch[0].seq == 1
                for read in (wire.frame_envelopes(game, table.game_id, frame, None if first else started,
                                                  seats=None if first else seats),
                             frames.frame_envelopes(game, table.game_id, frames.decode_server_frame(text),
                                                    started, seats)):
                    assert len(read) == len(sent) and wire.hash_matches(sent[-1].hash, read[-1].hash)
                    assert read[-1].hash == sent[-1].hash[:24]
                    for mine, theirs in zip(read, sent):
                        assert _same(mine, theirs), (mine.to_dict(), theirs.to_dict())
                dicts = wire.frame_dicts(game, table.game_id, frame, started, seats=seats)
                assert [dict(d, hash=e.hash) for d, e in zip(dicts, sent)] == [e.to_dict() for e in sent]
    return used


def _at(number: int) -> str:
    return f"2026-12-01T{14 + number // 3600:02d}:{number // 60 % 60:02d}:{number % 60:02d}.{number * 7919 % 10**6:06d}Z"


@pytest.mark.parametrize("name", events.games.NAMES)
def test_core_2_wire_whole_games_to_their_secret_read_back_the_stores_envelopes(name):
    """Every game played to its end (SecretRevealed, CORE-2), each frame as a spectator and as each seat
    sees it while it runs (Gloomhaven's picks sealed, GH-C2) and once it is over."""
    game = events.games.load(name)
    scenario = load(next(s for s in builtin_scenarios() if s.startswith(f"{name}/")))[1]
    table = Table.create(game, "g-wire", scenario, local_secret(3), at=START)
    clock = iter(range(1, 10**6))

    class Timed:  # playout's submit, with the server's times
        def __getattr__(self, attribute):
            return getattr(table, attribute)

        def submit(self, seat, command, command_id, at=None, rng=None):
            return table.submit(seat, command, command_id, at=_at(next(clock)), rng=rng)

    playout(Timed(), {}, Rng(3), 2000, prefix="c")
    assert isinstance(table.envelopes[-1].event, SecretRevealed)
    used = _check_frames(game, table, game.seats(table.state))
    assert used["positional"] > used["named"] and used["integer time"] > 0 and used["seat index"] > 0, used


def test_core_4_wire_undo_events_and_a_rules_version_moved_by_consent_read_back_the_stores_envelopes():
    """echo-1 moved to echo-2 by its seats (CORE-10, CORE-11: RulesVersionChanged with ``agreed``), an undo
    asked, answered and applied on each side of the move (CORE-4, CORE-6), played to its end."""
    echo_1 = events.games.load("echo", "echo-1")
    table = Table.create(echo_1, "g-undowire", load("echo/novice-duel")[1], local_secret(5), at=START)
    bots = lambda: {seat: bot(table.game, "greedy") for seat in table.game.seats(table.state)}  # noqa: E731
    playout(table, bots(), Rng(1005), 3, prefix="c")
    last = table.envelopes[-1]
    other = next(seat for seat in echo_1.seats(table.state) if seat != last.seat)
    table.submit(last.seat, AskUndo(table.undos.last_own(last.seat)), "u-1", at=_at(1))
    if table.undos.open is not None:
        table.submit(other, AnswerUndo(table.undos.open.seq, True), "u-2", at=_at(2))
    table.submit("red", ProposeRulesVersion("echo-2"), "p-1", at=_at(3))
    table.submit("blue", AnswerRulesVersion(table.seq, True), "p-2", at=_at(4))
    assert table.game.rules_version == "echo-2"
    playout(table, bots(), Rng(7), 400, prefix="e")
    kinds = {type(envelope.event).__name__ for envelope in table.envelopes}
    assert {"UndoAsked", "UndoApplied", "RulesVersionProposed", "RulesVersionAnswered", "RulesVersionChanged",
            "SecretRevealed"} <= kinds, kinds
    assert any(is_undo_event(envelope.event) for envelope in table.envelopes)
    # Read with the newest version's registry (as the Room and the page read), and with echo-1's.
    for game in (events.games.load("echo"), echo_1):
        _check_frames(game, table, ("red",))


def test_core_3_wire_a_move_without_consent_keeps_its_names_and_reads_back():
    """A RulesVersionChanged without ``agreed`` (``chronicle upgrade``) leaves that field out of its data:
    it goes with its names, and is read back exactly (so is GameStarted, which keeps one of two spellings)."""
    mecha_1 = events.games.load("mecha", "mecha-1")
    table = Table.create(mecha_1, "g-upgrade", load("mecha/sample")[1], local_secret(2), at=START)
    playout(table, {}, Rng(2), 2, prefix="c")
    moved = table.move_to("mecha-2", at=_at(9))
    assert isinstance(moved.event, RulesVersionChanged) and "agreed" not in moved.to_dict()["data"]
    frame = json.loads(frames.events_frame(MECHA, [moved], START, SEATS))
    assert frame[2][4][0] == "RulesVersionChanged" and frame[2][3] == wire.at_micros(_at(9)) - wire.at_micros(START)
    first = json.loads(frames.events_frame(MECHA, table.envelopes[:1], START, SEATS))
    assert first[2][4][0] == "GameStarted" and first[2][3] == START and first[2][4][1]["seats"] == list(SEATS)
    _check_frames(MECHA, table, ("red",))


def test_core_wire_loaded_dice_and_a_rule_cited_otherwise_keep_their_names():
    envelope = {"game": "g", "seq": 5, "type": "TurnPassed", "data": {"seat": "red"}, "seat": "red",
                "command_id": "c", "command": {"type": "Pass", "data": {}}, "dice": [6, 1], "rule": "MV-C3",
                "hash": HASH, "at": START}
    frame = wire.frame_from_dicts(MECHA, [envelope, dict(envelope, seq=6, dice=None, rule="MV-9")], START)
    assert frame[2][4:] == [["TurnPassed", {"seat": "red"}, "MV-C3", [6, 1]], ["TurnPassed", {"seat": "red"}, "MV-9"]]
    assert frame[2][2] == [SCHEMA.command_at["Pass"]] and frame[2][3] == 0
    back = wire.frame_dicts(MECHA, "g", frame, START)
    assert back == [dict(envelope, hash=None), dict(envelope, seq=6, dice=None, rule="MV-9", hash=CHECK)]


def test_core_wire_a_command_of_another_shape_keeps_its_names_and_frame_data_spells_records():
    envelope = {"game": "g", "seq": 5, "type": "TurnPassed", "data": {"seat": "red"}, "seat": "red",
                "command_id": "c", "command": {"type": "Move", "data": {}}, "dice": None, "rule": "MV-C3",
                "hash": HASH, "at": None}
    frame = wire.frame_from_dicts(MECHA, [envelope])
    assert frame[2][2] == ["Move", {}] and frame[2][3] is None
    assert wire.frame_dicts(MECHA, "g", frame) == [dict(envelope, hash=CHECK)]
    with pytest.raises(ValueError, match="at least one envelope"):
        wire.frame_from_dicts(MECHA, [])
    table = Table.create(MECHA, "g-data", load("mecha/sample")[1], local_secret(1), at=START)
    assert wire.frame_data(MECHA, table.envelopes, START) == wire.frame_from_dicts(
        MECHA, [e.to_dict() for e in table.envelopes], START)


def test_core_3_wire_a_rules_version_whose_record_is_another_class_reads_it_by_its_names():
    """A frozen version keeps its own record class for a type (with the newest's fields): the frame is
    spelt by the newest's schema, and a reader under the old version builds the old class from the names."""
    from events.record import Record, Registry
    from tests.events import toy

    class Added(Record):  # toy-2's own record for "Added", of the same fields
        __slots__ = ("k",)
        TYPE = "Added"
        RULE = "T-1"

        def __init__(self, k: int) -> None:
            object.__setattr__(self, "k", k)

    old = toy.make()
    new = old.revised("toy-2", events=Registry("event", (toy.GameStarted, Added, toy.Rolled)))
    table = Table.create(old, "g-toy", {"seats": ["a"]}, 1, at=START)
    table.submit("a", toy.Add(3), "c-1", at=_at(1))
    frame = json.loads(frames.events_frame(old, table.envelopes[1:], START))
    assert frame[2][4][0] == wire.schema(new).event_at["Added"]  # positional, by toy-2's schema
    mine, = wire.frame_envelopes(old, "g-toy", frame, START)
    assert type(mine.event) is toy.Added and mine.event.k == 3 and _same(mine, table.envelopes[1])
    theirs, = wire.frame_envelopes(new, "g-toy", frame, START)
    assert type(theirs.event) is Added and theirs.event.k == 3


def test_core_wire_the_schema_is_as_docs_protocol_spells_mechas():
    """docs/protocol.md's example frame and its list of mecha's indices, checked against the schema."""
    events_at, commands_at = SCHEMA.event_at, SCHEMA.command_at
    assert (events_at["BagRanOut"], events_at["MechMoved"], events_at["SecretRevealed"], events_at["TurnEnded"]) == (
        0, 6, 12, 13)
    assert (commands_at["AnswerRulesVersion"], commands_at["Move"], commands_at["Pass"]) == (0, 3, 4)
    assert [cls.TYPE for cls in SCHEMA.events] == sorted(cls.TYPE for cls in SCHEMA.events)
    documented = [13, B64, [1, "c-17", [3, 2], 8311402113, [6, 1, None, 2, [2], []], [13, 1, 0, 2]],
                  [None, None, None, 8311402113, [12, "ab" * 32]]]
    read = wire.frame_dicts(MECHA, "g", documented, "2026-11-29T15:02:11.402113Z", seats=SEATS)
    assert [(e["seq"], e["type"], e["rule"], e["command"]) for e in read] == [
        (13, "MechMoved", "MV-1", {"type": "Move", "data": {"to": 2}}),
        (14, "TurnEnded", "MV-C3", {"type": "Move", "data": {"to": 2}}), (15, "SecretRevealed", "CORE-2", None)]
    assert read[0]["at"] == "2026-11-29T17:20:42.804226Z" and read[-1]["hash"] == CHECK
    assert (read[0]["seat"], read[1]["data"]["next_seat"]) == ("blue", "red")

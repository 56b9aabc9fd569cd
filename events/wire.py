"""One frame per command on the wire: the envelopes of a command spelt compactly, and read back.

The store and the log keep one envelope per event (``events.log``), each with its command, its
hash and its time. On the wire a client gets one ``events`` frame per accepted command
(``docs/protocol.md``): the command, its seat, its id and its time written once per *run* (the
envelopes that share them), the state hash once (after the frame's last event), and each record
by the **wire schema** both ends know from ``events/``: the event and command types of the game's
newest rules version, sorted by name, each with its field list (``Schema``)::

    {"type": "events", "seq": 13, "hash": "<43 base64url>",
     "runs": [["blue", "c-17", [2, 2], 1402113,
               [[4, "blue", null, 2, [2], []], [9, "blue", "red", 2]]]]}

- a record whose data is exactly its class's fields, in order, and whose envelope cites the
  clause the record itself names (its ``rule`` field, else its class's ``RULE``), goes as
  ``[index, value, …]``: its type's index in the schema, then its fields' values; any other (a
  rules version's record of another shape, a ``GameStarted`` that keeps only one of its two
  spellings, dice a loaded generator forced, a rule cited otherwise) keeps its names:
  ``[type, data, rule]`` or ``[type, data, rule, dice]`` for an event, ``[type, data]`` for a
  command. Nothing is inferred that the reader cannot check: the reader rebuilds exactly the
  envelope's data, and ``Envelope.from_dict`` checks every field.
- the time is an integer, the microseconds since the game's start (its ``GameStarted``'s
  ``at``, which the ``welcome`` names as ``started``, and the log's first frame spells), when
  both are spelt as the server spells them (``2026-11-29T15:02:11.402113Z``); any other time is
  the string itself, none is null.
- the hash is the SHA-256's 32 bytes in base64url without padding (43 characters, RFC 4648 §5)
  when the envelope's hash is 64 lowercase hex digits, else ``[the string]``.

``frame_data`` is the one spelling (the server encodes its result with msgspec); ``frame_dicts``
and ``frame_envelopes`` read a frame back into envelopes, every field checked, with the frame's
hash on its last envelope and ``None`` on the others (a reader that wants them folds and hashes:
``client/follow.py`` checks the frame's hash once). A fault raises ``DecodeError`` with its ``$``
path, never another exception. Standard library only; runs in Brython.
"""

from __future__ import annotations

from events.log import Envelope
from events.record import DecodeError, from_data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from events.game import Game

FRAME_TYPE = "events"
FRAME_FIELDS = ("type", "seq", "hash", "runs")
MOST_SEQ = 2**53  # beyond it a browser's JSON numbers are no longer exact
MOST_OFFSET = 10**15  # µs, ~31 years: a time offset beyond it is no game's
MOST_DEPTH = 32  # nesting of one field's value (server/frames.py's MAX_JSON_DEPTH for a whole frame)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_B64_AT = {char: index for index, char in enumerate(_B64)}


# --- the wire schema --------------------------------------------------------------------------------


class Schema:
    """A game's records on the wire: the event and command types of its newest rules version
    (the game's own and the core's), sorted by name, each with its class (its ``__slots__`` are
    its fields in wire order). Every version's records read through it, as every reader decodes
    logs with the newest registry (``docs/protocol.md``, "Rules versions")."""

    __slots__ = ("events", "event_at", "commands", "command_at", "rule_at", "rules")

    def __init__(self, game: Game) -> None:
        newest = game.newest()
        self.events = _classes(newest.events)
        self.event_at = {cls.TYPE: index for index, cls in enumerate(self.events)}
        self.commands = _classes(newest.commands)
        self.command_at = {cls.TYPE: index for index, cls in enumerate(self.commands)}
        # Per event type: the place of its ``rule`` field among its values (-1: none), for the rule it names.
        self.rule_at = tuple([cls.__slots__.index("rule") if "rule" in cls.__slots__ else -1 for cls in self.events])
        self.rules = tuple([getattr(cls, "RULE", None) for cls in self.events])  # each type's own clause


def _classes(registry: Any) -> tuple:
    by_type = dict(registry.core.by_type) if registry.core is not None else {}
    by_type.update(registry.by_type)
    return tuple([by_type[name] for name in sorted(by_type)])


_SCHEMAS: dict = {}


def schema(game: Game) -> Schema:
    """The wire schema of ``game``'s newest rules version (built once per game)."""
    newest = game.newest()
    found = _SCHEMAS.get(newest.name)
    if found is None or found[0] is not newest:
        found = _SCHEMAS[newest.name] = (newest, Schema(newest))
    return found[1]


# --- times and hashes ----------------------------------------------------------------------------


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm, integers only)."""
    year -= month <= 2
    era = year // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    of_cycle = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_cycle - 719468


def _civil_from_days(days: int) -> tuple:
    days += 719468
    era = days // 146097
    of_cycle = days - era * 146097
    of_era = (of_cycle - of_cycle // 1460 + of_cycle // 36524 - of_cycle // 146096) // 365
    of_year = of_cycle - (365 * of_era + of_era // 4 - of_era // 100)
    shifted = (5 * of_year + 2) // 153
    day = of_year - (153 * shifted + 2) // 5 + 1
    month = shifted + (3 if shifted < 10 else -9)
    return of_era + era * 400 + (month <= 2), month, day


_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_HEX = "0123456789abcdef"
_DECIMAL = "0123456789"
# Times share their minute from frame to frame: the µs of "YYYY-MM-DDTHH:MM" and back, remembered
# (a few hundred entries at most before they are dropped), so a time costs two small integers.
_MINUTES: dict = {}  # "2026-11-29T15:02" -> µs since 1970 (None: not a valid minute)
_MINUTE_TEXTS: dict = {}  # µs since 1970 of a minute -> "2026-11-29T15:02:"
_REMEMBERED = 512


def _minute_micros(prefix: str) -> int | None:
    """``2026-11-29T15:02`` -> its µs since 1970 (None: no such minute), remembered in _MINUTES."""
    if len(_MINUTES) >= _REMEMBERED:
        _MINUTES.clear()
    digits = prefix[0:4] + prefix[5:7] + prefix[8:10] + prefix[11:13] + prefix[14:16]
    micros = None
    if prefix[4] == "-" and prefix[7] == "-" and prefix[10] == "T" and prefix[13] == ":" and not digits.strip(_DECIMAL):
        year, month, day = int(prefix[0:4]), int(prefix[5:7]), int(prefix[8:10])
        hour, minute = int(prefix[11:13]), int(prefix[14:16])
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        if (year >= 1 and 1 <= month <= 12 and 1 <= day <= _MONTH_DAYS[month - 1] and hour <= 23 and minute <= 59
                and (month != 2 or day != 29 or leap)):
            micros = ((_days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60000000
    _MINUTES[prefix] = micros
    return micros


_SECONDS = {f"{second:02d}": second * 1000000 for second in range(60)}  # "00" … "59" -> µs


def at_micros(text: Any) -> int | None:
    """``2026-11-29T15:02:11.402113Z`` (the server's spelling of ``at``) -> µs since 1970; None for any other."""
    if type(text) is not str or len(text) != 27 or text[16] != ":" or text[19] != "." or text[26] != "Z":
        return None
    minute = _MINUTES.get(text[:16], False)
    if minute is False:
        minute = _minute_micros(text[:16])
    second = _SECONDS.get(text[17:19])
    fraction = text[20:26]
    if minute is None or second is None or fraction.strip(_DECIMAL):  # ASCII digits only: int() takes others
        return None
    return minute + second + int(fraction)


_TWO = tuple([f"{number:02d}" for number in range(60)])


def _minute_text(minute: int) -> str | None:
    """µs since 1970 of a minute -> ``2026-11-29T15:02:``; None outside years 1–9999."""
    prefix = _MINUTE_TEXTS.get(minute)
    if prefix is None:
        year, month, day = _civil_from_days(minute // 86400000000)
        if not 1 <= year <= 9999:
            return None
        of_day = minute // 60000000 % 1440
        prefix = f"{year:04d}-{_TWO[month]}-{_TWO[day]}T{_TWO[of_day // 60]}:{_TWO[of_day % 60]}:"
        if len(_MINUTE_TEXTS) >= _REMEMBERED:
            _MINUTE_TEXTS.clear()
        _MINUTE_TEXTS[minute] = prefix
    return prefix


def _tail(rest: int) -> str:
    """µs within a minute -> ``11.402113Z`` (no format specs: each costs microseconds in Brython)."""
    second = rest // 1000000
    return _TWO[second] + "." + str(1000000 + rest - second * 1000000)[1:] + "Z"


def at_text(micros: int) -> str | None:
    """µs since 1970 -> the server's spelling of ``at``; None outside years 1–9999."""
    within = micros % 60000000
    prefix = _minute_text(micros - within)
    return None if prefix is None else prefix + _tail(within)


class _Clock:
    """One game's times on the wire, read: its start, and the text of each minute its frames fall in.

    A frame's time is a small offset from the start; the start's own µs since 1970 (~1.8e15) are big
    enough that Brython's arithmetic on them costs ~0.1 ms a time, so only the minutes (once each)
    touch them."""

    __slots__ = ("minute0", "within", "minutes")

    def __init__(self, base: int) -> None:
        self.within = base % 60000000
        self.minute0 = base - self.within
        self.minutes: dict = {}

    def text(self, offset: int) -> str | None:
        total = self.within + offset
        minute = total // 60000000
        prefix = self.minutes.get(minute)
        if prefix is None:
            prefix = _minute_text(self.minute0 + minute * 60000000)
            if prefix is None:
                return None
            if len(self.minutes) >= _REMEMBERED:
                self.minutes.clear()
            self.minutes[minute] = prefix
        return prefix + _tail(total - minute * 60000000)


_CLOCKS: dict = {}  # a game's started -> its _Clock (None: not the server's spelling)


def _clock(started: Any) -> _Clock | None:
    clock = _CLOCKS.get(started, False) if type(started) is str else None
    if clock is False:
        base = at_micros(started)
        clock = None if base is None else _Clock(base)
        if len(_CLOCKS) >= 64:
            _CLOCKS.clear()
        _CLOCKS[started] = clock
    return clock


_TRIPLES: dict = {}  # 3 lowercase hex digits -> 2 base64url characters, built by the first hash spelt


def hash_to_wire(hash_: Any) -> Any:
    """A 64-lowercase-hex SHA-256 -> its 32 bytes in base64url, unpadded (43 characters); another string -> [it].

    Three hex digits (12 bits) are two base64url characters; the 64th digit's 4 bits and two zero
    bits, as RFC 4648 pads, the 43rd."""
    if type(hash_) is str and len(hash_) == 64:
        triples = _TRIPLES
        if not triples:
            for number in range(4096):
                triples[_HEX[number >> 8] + _HEX[(number >> 4) & 15] + _HEX[number & 15]] = (
                    _B64[number >> 6] + _B64[number & 63])
        parts = [triples.get(hash_[index:index + 3]) for index in range(0, 63, 3)]
        last = _HEX.find(hash_[63])
        if last >= 0 and None not in parts:
            parts.append(_B64[last << 2])
            return "".join(parts)
    return [hash_]


_SIXBITS = {ord(char): f"{index:06b}" for index, char in enumerate(_B64)}  # str.translate: a character -> its bits


def hash_from_wire(value: Any, where: str) -> str:
    """``hash_to_wire``'s inverse; DecodeError with ``where`` for anything it cannot have made.

    Through builtins (``str.translate``, ``int``, ``format``), not a loop over the characters: in
    Brython that loop cost ~0.3–0.6 ms a hash, most of a catch-up's reading (docs/performance.md)."""
    if type(value) is str:
        if len(value) == 43:
            bits = value.translate(_SIXBITS)
            # A character outside the alphabet stays one character: then there are fewer than 258 bits.
            if len(bits) == 258 and bits[256:] == "00":
                return hex(int(bits[:256], 2) | 1 << 256)[3:]  # 64 digits, leading zeros kept
        raise DecodeError(f"{where}: expected a hash as 43 base64url characters, got {_shown(value)}")
    if type(value) is list and len(value) == 1 and type(value[0]) is str:
        return value[0]
    raise DecodeError(f"{where}: expected a hash (43 base64url characters, or [a string]), got {_shown(value)}")


def _shown(value: Any) -> str:
    if type(value) is str:
        return repr(value[:40] + ("…" if len(value) > 40 else ""))
    if type(value) is list:
        return f"a list of {len(value)}"
    if type(value) is dict:
        return "an object"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


# --- spelling ---------------------------------------------------------------------------------------


def frame_data(game: Game, envelopes: list, started: str | None = None) -> dict:
    """The ``events`` frame (a dict, ready to encode) of consecutive envelopes, as one viewer may see
    them; ``started`` is the game's GameStarted ``at`` (the base of the frame's times)."""
    return frame_from_dicts(game, [envelope.to_dict() for envelope in envelopes], started)


def frame_from_dicts(game: Game, envelopes: list, started: str | None = None, spell_hash: Any = None) -> dict:
    """``frame_data`` from the envelopes' ``Envelope.to_dict()`` (the shell has them from encoding
    them for its store: not built twice). The dicts are read, not changed. ``spell_hash`` may replace
    ``hash_to_wire`` by a faster function giving the same (the server's, with CPython's base64)."""
    if not envelopes:
        raise ValueError("an events frame holds at least one envelope")
    wire = schema(game)
    base = at_micros(started)
    low, high = (0, 0) if base is None else (base - MOST_OFFSET, base + MOST_OFFSET)
    runs: list = []
    key = None
    for envelope in envelopes:
        body = envelope["command"]
        at = envelope["at"]
        here = (envelope["seat"], envelope["command_id"], body, at)
        if here != key:
            key = here
            # The log's first run (GameStarted's) spells its time: a reader from seq 1 finds the base there.
            when = at
            if base is not None and envelope["seq"] != 1:
                micros = at_micros(at)
                if micros is not None and low <= micros <= high:
                    when = micros - base
            runs.append([envelope["seat"], envelope["command_id"], _command_entry(wire, body), when, []])
        runs[-1][4].append(_event_entry(wire, envelope))
    hash_ = (spell_hash or hash_to_wire)(envelopes[-1]["hash"])
    return {"type": FRAME_TYPE, "seq": envelopes[0]["seq"], "hash": hash_, "runs": runs}


def _command_entry(wire: Schema, body: Any) -> Any:
    if body is None:
        return None
    name, data = body["type"], body["data"]
    index = wire.command_at.get(name)
    if index is not None and tuple(data) == wire.commands[index].__slots__:
        entry = [index]
        entry.extend(data.values())
        return entry
    return [name, data]


def _event_entry(wire: Schema, envelope: dict) -> list:
    name, data = envelope["type"], envelope["data"]
    index = wire.event_at.get(name)
    if index is not None and envelope["dice"] is None and tuple(data) == wire.events[index].__slots__:
        entry = [index]
        entry.extend(data.values())
        at = wire.rule_at[index]
        # The clause the record names itself (``events.game.rule_of``): its rule field, else its class's RULE.
        if envelope["rule"] == ((entry[at + 1] if at >= 0 else None) or wire.rules[index]):
            return entry
    entry = [name, data, envelope["rule"]]
    if envelope["dice"] is not None:
        entry.append(envelope["dice"])
    return entry


def frame_batches(envelopes: list) -> list:
    """Consecutive ``envelopes`` cut into the batches that go out as one frame each: the envelopes
    of one command, with the commandless ones right after it (SecretRevealed, CORE-2); the
    commandless envelopes a log starts with (GameStarted and what the start logs) are one batch."""
    batches: list = []
    for envelope in envelopes:
        if batches and (envelope.command_id is None or envelope.command_id == batches[-1][-1].command_id):
            batches[-1].append(envelope)
        else:
            batches.append([envelope])
    return batches


# --- reading ----------------------------------------------------------------------------------------


def _string(value: Any, where: str, nullable: bool = True) -> None:
    if value is None and nullable:
        return
    if type(value) is not str:
        raise DecodeError(f"{where}: expected a string{' or null' if nullable else ''}, got {_shown(value)}")


def _too_deep(value: Any, where: str) -> None:
    """DecodeError if a field's value nests lists and objects deeper than MOST_DEPTH (the builders
    recurse: a value thousands deep would overflow the stack instead of being refused). A list of
    scalars, the usual value, costs one look at each item."""
    inner = value if type(value) is list else list(value.values())
    for item in inner:
        if type(item) is list or type(item) is dict:
            break
    else:
        return
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is list or kind is dict:
            if depth > MOST_DEPTH:
                raise DecodeError(f"{where}: nested deeper than {MOST_DEPTH} levels")
            for inner in (item if kind is list else item.values()):
                if type(inner) is list or type(inner) is dict:
                    stack.append((inner, depth + 1))


def frame_dicts(game: Game, game_id: str, frame: Any, started: str | None = None, where: str = "$") -> list:
    """An ``events`` frame -> its envelopes as ``Envelope.to_dict()`` dicts (hash: the frame's on the
    last, None on the others); DecodeError with the ``$`` path of the first fault. ``started`` is
    the game's GameStarted ``at`` (the welcome's ``started``), the base of the frame's times."""
    seq, hash_, runs = _read(game, frame, started, where)
    out: list = []
    for seat, command_id, command, _, at, events in runs:
        for cls, name, data, rule, dice, _ in events:
            if cls is not None:
                data = dict(zip(cls.__slots__, data))
            out.append({"game": game_id, "seq": seq + len(out), "type": name, "data": data, "seat": seat,
                        "command_id": command_id, "command": command, "dice": dice, "rule": rule, "hash": None,
                        "at": at})
    out[-1]["hash"] = hash_
    return out


def frame_envelopes(game: Game, game_id: str, frame: Any, started: str | None = None, where: str = "$") -> list:
    """An ``events`` frame -> its Envelopes, every field checked as ``Envelope.from_dict`` checks it
    (each record built as the game's registry builds it, a run's command once); the hash is the
    frame's on the last envelope, None on the others."""
    seq, hash_, runs = _read(game, frame, started, where)
    registry = game.events
    mine = registry.by_type
    out: list = []
    for seat, command_id, command, command_path, at, events in runs:
        if command is not None:
            command = game.commands.build(dict(command["data"], type=command["type"]), command_path)
        for cls, name, data, rule, dice, path in events:
            if cls is not None and (mine.get(name) or registry.core.by_type.get(name)) is cls:
                event = _record(registry, cls, data, path)
            else:  # by its names, or a record this reader's rules version spells otherwise
                if cls is not None:
                    data = dict(zip(cls.__slots__, data))
                elif "type" in data:
                    raise DecodeError(f"{path}[1]: the event's type belongs in {path}[0], not in its data")
                event = registry.build(dict(data, type=name), path)
            out.append(Envelope(game_id, seq + len(out), event, seat, command_id, command,
                                None if dice is None else tuple(dice), rule, None, at))
    out[-1].hash = hash_
    return out


def _record(registry: Any, cls: type, values: list, path: str) -> Any:
    """A positional event's record, built as ``Registry.build`` builds it (events declare no KINDS)
    but from its values, without the dict of its fields."""
    args = []
    index = 0
    for value in values:
        kind = type(value)
        if kind is str or kind is int or value is None or kind is bool:
            args.append(value)
        else:
            args.append(from_data(value, registry, f"{path}.{cls.__slots__[index]}"))
        index += 1
    try:
        return cls(*args)
    except (TypeError, ValueError) as error:
        raise DecodeError(f"{path}: event {cls.TYPE!r}: {error}") from None


def _read(game: Game, frame: Any, started: Any, where: str) -> tuple:
    """A frame checked and spelt out: (seq, hash, runs), each run (seat, command_id, command as
    ``{"type", "data"}`` or None, the command's path, at, events), each event (its class if it came
    positional else None, type, its values or its data, rule, dice, its path)."""
    if type(frame) is not dict:
        raise DecodeError(f"{where}: expected an events frame object, got {type(frame).__name__}")
    if len(frame) != 4 or "type" not in frame or "seq" not in frame or "hash" not in frame or "runs" not in frame:
        unknown = sorted(name for name in frame if name not in FRAME_FIELDS)
        if unknown:
            raise DecodeError(f"{where}: events frame has unknown field {_shown(unknown[0])}")
        missing = [name for name in FRAME_FIELDS if name not in frame]
        raise DecodeError(f"{where}: events frame is missing {', '.join(repr(m) for m in missing)}")
    if frame["type"] != FRAME_TYPE:
        raise DecodeError(f"{where}.type: expected 'events', got {_shown(frame['type'])}")
    seq = frame["seq"]
    if type(seq) is not int or not 1 <= seq <= MOST_SEQ:
        raise DecodeError(f"{where}.seq: expected a positive integer of at most 2**53, got {_shown(seq)}")
    hash_ = hash_from_wire(frame["hash"], f"{where}.hash")
    runs = frame["runs"]
    if type(runs) is not list or not runs:
        raise DecodeError(f"{where}.runs: expected a non-empty list of runs, got {_shown(runs)}")
    wire = schema(game)
    if started is None and seq == 1 and type(runs[0]) is list and len(runs[0]) == 5:
        started = runs[0][3]  # the log's first frame: GameStarted's own time is the base
    clock = _clock(started)
    out: list = []
    count = 0
    r = 0
    for run in runs:
        at_run = f"{where}.runs[{r}]"
        if type(run) is not list or len(run) != 5:
            raise DecodeError(f"{at_run}: expected [seat, command_id, command, at, events], got {_shown(run)}")
        seat, command_id, command, at, events = run
        if seat is not None and type(seat) is not str:
            _string(seat, f"{at_run}[0]")
        if command_id is not None and type(command_id) is not str:
            _string(command_id, f"{at_run}[1]")
        if command is not None:
            command = _read_command(wire, command, f"{at_run}[2]")
        if at is not None and type(at) is not str:
            at = _read_at(at, clock, started, f"{at_run}[3]")
        if type(events) is not list or not events:
            raise DecodeError(f"{at_run}[4]: expected a non-empty list of events, got {_shown(events)}")
        read = []
        e = 0
        for event in events:
            read.append(_read_event(wire, event, f"{at_run}[4][{e}]"))
            e += 1
        count += e
        out.append((seat, command_id, command, f"{at_run}[2]", at, read))
        r += 1
    if seq + count - 1 > MOST_SEQ:
        raise DecodeError(f"{where}.seq: its {count} events would pass seq 2**53")
    return seq, hash_, out


def _arity(cls: type, values: list, kind: str, where: str) -> list:
    """A positional record's values, checked for their number and their depth."""
    slots = cls.__slots__
    if len(values) != len(slots):
        raise DecodeError(f"{where}: {kind} {cls.TYPE!r} has {len(slots)} field{'s' if len(slots) != 1 else ''} "
                          f"({', '.join(slots)}), got {len(values)} value{'s' if len(values) != 1 else ''}")
    index = 1
    for value in values:
        if type(value) is list or type(value) is dict:
            _too_deep(value, f"{where}[{index}]")
        index += 1
    return values


def _read_command(wire: Schema, entry: Any, where: str) -> Any:
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected a command ([index, value, …] or [type, data]) or null, got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.commands):
            raise DecodeError(f"{where}[0]: no command type {head} in the wire schema ({len(wire.commands)} types)")
        cls = wire.commands[head]
        return {"type": cls.TYPE, "data": dict(zip(cls.__slots__, _arity(cls, entry[1:], "command", where)))}
    if type(head) is str and len(entry) == 2 and type(entry[1]) is dict:
        if "type" in entry[1]:
            raise DecodeError(f"{where}[1]: the command's type belongs in {where}[0], not in its data")
        _too_deep(entry[1], f"{where}[1]")
        return {"type": head, "data": entry[1]}
    raise DecodeError(f"{where}: expected a command ([index, value, …] or [type, data]) or null, got {_shown(entry)}")


def _read_at(at: Any, clock: _Clock | None, started: Any, where: str) -> Any:
    """A time that is neither null nor a string: an offset from the game's start, or a fault."""
    if type(at) is int:
        if clock is None:
            raise DecodeError(f"{where}: a time since the game's start, but its start is not known "
                              f"(started: {_shown(started)})")
        text = clock.text(at) if -MOST_OFFSET <= at <= MOST_OFFSET else None
        if text is None:
            raise DecodeError(f"{where}: expected a time offset of at most 10**15 µs from the start, got {_shown(at)}")
        return text
    raise DecodeError(f"{where}: expected a time (µs since the start, a string or null), got {_shown(at)}")


def _read_event(wire: Schema, entry: Any, where: str) -> tuple:
    """An event entry -> (its class if positional else None, type, values or data, rule, dice, where)."""
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected an event ([index, value, …] or [type, data, rule(, dice)]), "
                          f"got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.events):
            raise DecodeError(f"{where}[0]: no event type {head} in the wire schema ({len(wire.events)} types)")
        cls = wire.events[head]
        values = _arity(cls, entry[1:], "event", where)
        at = wire.rule_at[head]
        rule = (values[at] if at >= 0 else None) or wire.rules[head]  # as the encoder infers it
        if rule is not None and type(rule) is not str:
            raise DecodeError(f"{where}: the rule its data names is not a string: {_shown(rule)}")
        return cls, cls.TYPE, values, rule, None, where
    if type(head) is str and len(entry) in (3, 4) and type(entry[1]) is dict:
        _too_deep(entry[1], f"{where}[1]")
        _string(entry[2], f"{where}[2]")
        dice = None
        if len(entry) == 4:
            dice = entry[3]
            if type(dice) is not list:
                raise DecodeError(f"{where}[3]: expected a list of integers, got {_shown(dice)}")
            for index, value in enumerate(dice):
                if type(value) is not int:
                    raise DecodeError(f"{where}[3][{index}]: expected an integer, got {_shown(value)}")
        return None, head, entry[1], entry[2], dice, where
    raise DecodeError(f"{where}: expected an event ([index, value, …] or [type, data, rule(, dice)]), "
                      f"got {_shown(entry)}")

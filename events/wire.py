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
from events.record import DecodeError

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
_DIGITS = "0123456789"


# --- the wire schema --------------------------------------------------------------------------------


class Schema:
    """A game's records on the wire: the event and command types of its newest rules version
    (the game's own and the core's), sorted by name, each with its class (its ``__slots__`` are
    its fields in wire order). Every version's records read through it, as every reader decodes
    logs with the newest registry (``docs/protocol.md``, "Rules versions")."""

    __slots__ = ("events", "event_at", "commands", "command_at")

    def __init__(self, game: Game) -> None:
        newest = game.newest()
        self.events = _classes(newest.events)
        self.event_at = {cls.TYPE: index for index, cls in enumerate(self.events)}
        self.commands = _classes(newest.commands)
        self.command_at = {cls.TYPE: index for index, cls in enumerate(self.commands)}


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


def _inferred_rule(cls: type, data: dict) -> Any:
    """The clause a record of ``cls`` with ``data`` names itself (``events.game.rule_of``)."""
    return (data.get("rule") if "rule" in cls.__slots__ else None) or getattr(cls, "RULE", None)


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
_SHAPE = "dddd-dd-ddTdd:dd:dd.ddddddZ"


def at_micros(text: Any) -> int | None:
    """``2026-11-29T15:02:11.402113Z`` (the server's spelling of ``at``) -> µs since 1970; None for any other."""
    if type(text) is not str or len(text) != 27:
        return None
    for index in range(27):
        char, shape = text[index], _SHAPE[index]
        if shape == "d":
            if char not in _DIGITS:
                return None
        elif char != shape:
            return None
    year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
    hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    if year < 1 or not 1 <= month <= 12 or day < 1 or hour > 23 or minute > 59 or second > 59:
        return None
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    if day > _MONTH_DAYS[month - 1] or (month == 2 and day == 29 and not leap):
        return None
    seconds = ((_days_from_civil(year, month, day) * 24 + hour) * 60 + minute) * 60 + second
    return seconds * 1000000 + int(text[20:26])


def at_text(micros: int) -> str | None:
    """µs since 1970 -> the server's spelling of ``at``; None outside years 1–9999."""
    seconds, fraction = divmod(micros, 1000000)
    days, second = divmod(seconds, 86400)
    year, month, day = _civil_from_days(days)
    if not 1 <= year <= 9999:
        return None
    return (f"{year:04d}-{month:02d}-{day:02d}T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}"
            f".{fraction:06d}Z")


def hash_to_wire(hash_: Any) -> Any:
    """A 64-lowercase-hex SHA-256 -> its 32 bytes in base64url, unpadded (43 characters); another string -> [it]."""
    if type(hash_) is str and len(hash_) == 64:
        try:
            number = int(hash_, 16)
        except ValueError:
            number = -1
        if number >= 0 and f"{number:064x}" == hash_:  # refuses "0x…", "_", upper case, signs
            number <<= 2  # 256 bits as 43 sextets: two zero bits at the end, as RFC 4648 pads
            chars = []
            for shift in range(252, -1, -6):
                chars.append(_B64[(number >> shift) & 63])
            return "".join(chars)
    return [hash_]


def hash_from_wire(value: Any, where: str) -> str:
    """``hash_to_wire``'s inverse; DecodeError with ``where`` for anything it cannot have made."""
    if type(value) is str:
        if len(value) == 43:
            number = 0
            for char in value:
                index = _B64_AT.get(char)
                if index is None:
                    break
                number = (number << 6) | index
            else:
                if number & 3 == 0:
                    return f"{number >> 2:064x}"
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


def frame_from_dicts(game: Game, envelopes: list, started: str | None = None) -> dict:
    """``frame_data`` from the envelopes' ``Envelope.to_dict()`` (the shell has them from encoding
    them for its store: not built twice). The dicts are read, not changed."""
    if not envelopes:
        raise ValueError("an events frame holds at least one envelope")
    wire = schema(game)
    base = at_micros(started)
    runs: list = []
    key = None
    for envelope in envelopes:
        body = envelope["command"]
        at = envelope["at"]
        here = (envelope["seat"], envelope["command_id"], body, at)
        if here != key:
            key = here
            # The log's first run (GameStarted's) spells its time: a reader from seq 1 finds the base there.
            when = at if envelope["seq"] == 1 else _at_entry(at, base)
            runs.append([envelope["seat"], envelope["command_id"], _command_entry(wire, body), when, []])
        runs[-1][4].append(_event_entry(wire, envelope))
    return {"type": FRAME_TYPE, "seq": envelopes[0]["seq"], "hash": hash_to_wire(envelopes[-1]["hash"]), "runs": runs}


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
    if index is not None and envelope["dice"] is None:
        cls = wire.events[index]
        if tuple(data) == cls.__slots__ and envelope["rule"] == _inferred_rule(cls, data):
            entry = [index]
            entry.extend(data.values())
            return entry
    entry = [name, data, envelope["rule"]]
    if envelope["dice"] is not None:
        entry.append(envelope["dice"])
    return entry


def _at_entry(at: Any, base: int | None) -> Any:
    if base is not None:
        micros = at_micros(at)
        if micros is not None and -MOST_OFFSET <= micros - base <= MOST_OFFSET:
            return micros - base
    return at


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
    recurse: a value thousands deep would overflow the stack instead of being refused)."""
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
        for name, data, rule, dice, _ in events:
            out.append({"game": game_id, "seq": seq + len(out), "type": name, "data": data, "seat": seat,
                        "command_id": command_id, "command": command, "dice": dice, "rule": rule, "hash": None,
                        "at": at})
    out[-1]["hash"] = hash_
    return out


def frame_envelopes(game: Game, game_id: str, frame: Any, started: str | None = None, where: str = "$") -> list:
    """An ``events`` frame -> its Envelopes, every field checked as ``Envelope.from_dict`` checks it
    (each record built by the game's registry, a run's command once); the hash is the frame's on the
    last envelope, None on the others."""
    seq, hash_, runs = _read(game, frame, started, where)
    out: list = []
    for seat, command_id, command, command_path, at, events in runs:
        if command is not None:
            command = game.commands.build(dict(command["data"], type=command["type"]), command_path)
        for name, data, rule, dice, path in events:
            if "type" in data:
                raise DecodeError(f"{path}: the event's type belongs in its entry, not in its data")
            event = game.events.build(dict(data, type=name), path)
            out.append(Envelope(game_id, seq + len(out), event, seat, command_id, command,
                                None if dice is None else tuple(dice), rule, None, at))
    out[-1].hash = hash_
    return out


def _read(game: Game, frame: Any, started: Any, where: str) -> tuple:
    """A frame checked and spelt out: (seq, hash, runs), each run (seat, command_id, command as
    ``{"type", "data"}`` or None, the command's path, at, events), each event (type, data, rule,
    dice, its path)."""
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
    base = None if started is None else at_micros(started)
    out: list = []
    count = 0
    for r, run in enumerate(runs):
        at_run = f"{where}.runs[{r}]"
        if type(run) is not list or len(run) != 5:
            raise DecodeError(f"{at_run}: expected [seat, command_id, command, at, events], got {_shown(run)}")
        seat, command_id, command, at, events = run
        _string(seat, f"{at_run}[0]")
        _string(command_id, f"{at_run}[1]")
        command = _read_command(wire, command, f"{at_run}[2]")
        at = _read_at(at, base, started, f"{at_run}[3]")
        if type(events) is not list or not events:
            raise DecodeError(f"{at_run}[4]: expected a non-empty list of events, got {_shown(events)}")
        read = []
        for e, event in enumerate(events):
            at_event = f"{at_run}[4][{e}]"
            read.append(_read_event(wire, event, at_event) + (at_event,))
        count += len(read)
        out.append((seat, command_id, command, f"{at_run}[2]", at, read))
    if seq + count - 1 > MOST_SEQ:
        raise DecodeError(f"{where}.seq: its {count} events would pass seq 2**53")
    return seq, hash_, out


def _fields(cls: type, values: list, kind: str, where: str) -> dict:
    """A positional record's data: its class's field names with ``values`` (checked for arity and depth)."""
    slots = cls.__slots__
    if len(values) != len(slots):
        raise DecodeError(f"{where}: {kind} {cls.TYPE!r} has {len(slots)} field{'s' if len(slots) != 1 else ''} "
                          f"({', '.join(slots)}), got {len(values)} value{'s' if len(values) != 1 else ''}")
    data = {}
    for index, name in enumerate(slots):
        value = values[index]
        if type(value) is list or type(value) is dict:
            _too_deep(value, f"{where}[{index + 1}]")
        data[name] = value
    return data


def _read_command(wire: Schema, entry: Any, where: str) -> Any:
    if entry is None:
        return None
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected a command ([index, value, …] or [type, data]) or null, got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.commands):
            raise DecodeError(f"{where}[0]: no command type {head} in the wire schema ({len(wire.commands)} types)")
        cls = wire.commands[head]
        return {"type": cls.TYPE, "data": _fields(cls, entry[1:], "command", where)}
    if type(head) is str and len(entry) == 2 and type(entry[1]) is dict:
        if "type" in entry[1]:
            raise DecodeError(f"{where}[1]: the command's type belongs in {where}[0], not in its data")
        _too_deep(entry[1], f"{where}[1]")
        return {"type": head, "data": entry[1]}
    raise DecodeError(f"{where}: expected a command ([index, value, …] or [type, data]) or null, got {_shown(entry)}")


def _read_at(at: Any, base: int | None, started: Any, where: str) -> Any:
    if at is None or type(at) is str:
        return at
    if type(at) is int:
        if base is None:
            raise DecodeError(f"{where}: a time since the game's start, but its start is not known "
                              f"(started: {_shown(started)})")
        text = at_text(base + at) if -MOST_OFFSET <= at <= MOST_OFFSET else None
        if text is None:
            raise DecodeError(f"{where}: expected a time offset of at most 10**15 µs from the start, got {_shown(at)}")
        return text
    raise DecodeError(f"{where}: expected a time (µs since the start, a string or null), got {_shown(at)}")


def _read_event(wire: Schema, entry: Any, where: str) -> tuple:
    """An event entry -> (type, data, rule, dice)."""
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected an event ([index, value, …] or [type, data, rule(, dice)]), "
                          f"got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.events):
            raise DecodeError(f"{where}[0]: no event type {head} in the wire schema ({len(wire.events)} types)")
        cls = wire.events[head]
        data = _fields(cls, entry[1:], "event", where)
        rule = _inferred_rule(cls, data)
        if rule is not None and type(rule) is not str:
            raise DecodeError(f"{where}: the rule its data names is not a string: {_shown(rule)}")
        return cls.TYPE, data, rule, None
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
        return head, entry[1], entry[2], dice
    raise DecodeError(f"{where}: expected an event ([index, value, …] or [type, data, rule(, dice)]), "
                      f"got {_shown(entry)}")

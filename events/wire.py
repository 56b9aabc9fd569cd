"""One frame per command on the wire: the envelopes of a command spelt compactly, and read back.

The store and the log keep one envelope per event (``events.log``), each with its command, its
hash and its time. On the wire a client gets one ``events`` frame per accepted command
(``docs/protocol.md``), the one server frame that is a JSON array, ``[seq, hash, run, …]``: the
command, its seat, its id and its time written once per *run* (the envelopes that share them),
``[seat, command_id, command, at, event, …]``, the state hash's first 96 bits once (after the
frame's last event), and each record by the **wire schema** both ends know from ``events/``: the
event and command types of the game's newest rules version, sorted by name, each with its field
list (``Schema``)::

    [13, "<16 base64url>", [1, "c-17", [3, 2], 1402113, [6, 1, null, 2, [2], []], [13, 1, 0, 2]]]

- a record whose data is exactly its class's fields, in order, and whose envelope cites the
  clause the record itself names (its ``rule`` field, else its class's ``RULE``), goes as
  ``[index, value, …]``: its type's index in the schema, then its fields' values; any other (a
  rules version's record of another shape, a ``GameStarted`` that keeps only one of its two
  spellings, dice a loaded generator forced, a rule cited otherwise) keeps its names:
  ``[type, data, rule]`` or ``[type, data, rule, dice]`` for an event, ``[type, data]`` for a
  command. Nothing is inferred that the reader cannot check: the reader rebuilds exactly the
  envelope's data, and ``Envelope.from_dict`` checks every field.
- a seat (a run's, and a positional record's seat field: ``seat``, ``…_seat``, ``winner``) is its
  index in GameStarted's ``seats`` (which the ``welcome`` repeats, and the log's first frame
  spells); a seat field holding an integer sends its record by its names, so an index always
  reads back as the seat it was.
- the time is an integer, the microseconds since the game's start (its ``GameStarted``'s
  ``at``, which the ``welcome`` names as ``started``, and the log's first frame spells), when
  both are spelt as the server spells them (``2026-11-29T15:02:11.402113Z``); any other time is
  the string itself, none is null.
- the hash is the first 12 of the SHA-256's 32 bytes in base64url (16 characters, RFC 4648 §5)
  when the envelope's hash is 64 lowercase hex digits, else ``[the string]``: a check that the
  reader compares with the hash it computes (``hash_matches``), not the hash itself.
- the sender's copy of its command's frame ends with ``ACK_MARK`` (1): it is also the command's
  ``ack`` (``frame_ack``), and no ack frame follows it.

``frame_data`` is the one spelling (the server encodes its result with msgspec); ``frame_dicts``
and ``frame_envelopes`` read a frame back into envelopes, every field checked, with the frame's
check (24 hex digits) on its last envelope and ``None`` on the others (a reader folds and hashes:
``client/follow.py`` compares once, then keeps the whole hash it computed). A fault raises
``DecodeError`` with its ``$`` path, never another exception. Standard library only; runs in Brython.
"""

from __future__ import annotations

from events.log import Envelope
from events.record import DecodeError, from_data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from events.game import Game

ACK_MARK = 1  # an events frame's last item when it is also the sender's ack of its command
ACK_TAIL = ",1]"  # the mark, as the server appends it to the frame's text
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

    __slots__ = ("events", "event_at", "commands", "command_at", "rule_at", "rules", "event_seats", "command_seats")

    def __init__(self, game: Game) -> None:
        newest = game.newest()
        self.events = _classes(newest.events)
        self.event_at = {cls.TYPE: index for index, cls in enumerate(self.events)}
        self.commands = _classes(newest.commands)
        self.command_at = {cls.TYPE: index for index, cls in enumerate(self.commands)}
        # Per event type: the place of its ``rule`` field among its values (-1: none), for the rule it names.
        self.rule_at = tuple([cls.__slots__.index("rule") if "rule" in cls.__slots__ else -1 for cls in self.events])
        self.rules = tuple([getattr(cls, "RULE", None) for cls in self.events])  # each type's own clause
        # Per type: the places of its seat fields among its values, spelt as the seat's index (_seat_places).
        self.event_seats = tuple([_seat_places(cls) for cls in self.events])
        self.command_seats = tuple([_seat_places(cls) for cls in self.commands])


def _seat_places(cls: type) -> tuple:
    """The places of a record's seat fields (``seat``, ``…_seat``, ``winner``) among its fields.

    By name: a field so named that holds a seat of the game goes as the seat's index in the game's
    seat list (GameStarted's ``seats``); one holding an integer sends its record by its names, so an
    index read back is always a seat (docs/protocol.md)."""
    return tuple([place for place, name in enumerate(cls.__slots__)
                  if name == "seat" or name == "winner" or name.endswith("_seat")])


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
PREFIX_DIGITS = 24  # hex digits of the hash an events frame carries: 96 bits (docs/protocol.md, "the hash")
PREFIX_CHARS = 16  # the same 96 bits in base64url


def hash_to_wire(hash_: Any) -> Any:
    """A 64-lowercase-hex SHA-256 -> its first 96 bits (24 hex digits) in base64url, 16 characters;
    another string (or None) -> [it], whole.

    Three hex digits (12 bits) are two base64url characters, so 24 digits are 16 characters and no
    padding. The frame's check, not the hash: the reader compares it with the prefix of the hash it
    computes itself (``hash_matches``), and takes its own whole hash once they agree."""
    if type(hash_) is str and len(hash_) == 64 and not hash_.strip(_HEX):
        triples = _TRIPLES
        if not triples:
            for number in range(4096):
                triples[_HEX[number >> 8] + _HEX[(number >> 4) & 15] + _HEX[number & 15]] = (
                    _B64[number >> 6] + _B64[number & 63])
        return "".join([triples[hash_[index:index + 3]] for index in range(0, PREFIX_DIGITS, 3)])
    return [hash_]


_SIXBITS = {ord(char): f"{index:06b}" for index, char in enumerate(_B64)}  # str.translate: a character -> its bits


def hash_from_wire(value: Any, where: str) -> Any:
    """``hash_to_wire``'s inverse: the 24 hex digits of a 16-character check, or the string of
    ``[a string]``; DecodeError with ``where`` for anything it cannot have made.

    Through builtins (``str.translate``, ``int``, ``hex``), not a loop over the characters: in
    Brython that loop cost ~0.3–0.6 ms a hash (docs/performance.md)."""
    if type(value) is str:
        if len(value) == PREFIX_CHARS:
            bits = value.translate(_SIXBITS)
            # A character outside the alphabet stays one character: then there are fewer than 96 bits.
            if len(bits) == 6 * PREFIX_CHARS:
                return hex(int(bits, 2) | 1 << 96)[3:]  # 24 digits, leading zeros kept
        raise DecodeError(f"{where}: expected a hash prefix as {PREFIX_CHARS} base64url characters, got {_shown(value)}")
    if type(value) is list and len(value) == 1 and (type(value[0]) is str or value[0] is None):
        return value[0]
    raise DecodeError(f"{where}: expected a hash ({PREFIX_CHARS} base64url characters, or [a string]), "
                      f"got {_shown(value)}")


def hash_matches(full: Any, check: Any) -> bool:
    """Whether the whole hash ``full`` (64 hex digits, as ``state_hash`` gives it) is the one a frame's
    check names: its first 24 digits, or, from ``[a string]``, the whole string."""
    if type(full) is not str or type(check) is not str:
        return full is None and check is None
    if len(check) == PREFIX_DIGITS:
        return len(full) == 64 and full[:PREFIX_DIGITS] == check
    return full == check


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


def frame_data(game: Game, envelopes: list, started: str | None = None, seats: Any = None) -> list:
    """The ``events`` frame (a list, ready to encode) of consecutive envelopes, as one viewer may see
    them; ``started`` is the game's GameStarted ``at`` (the base of the frame's times), ``seats`` its
    ``seats`` (each seat goes as its index there)."""
    return frame_from_dicts(game, [envelope.to_dict() for envelope in envelopes], started, None, seats)


def frame_from_dicts(game: Game, envelopes: list, started: str | None = None, spell_hash: Any = None,
                     seats: Any = None) -> list:
    """``frame_data`` from the envelopes' ``Envelope.to_dict()`` (the shell has them from encoding
    them for its store: not built twice). The dicts are read, not changed. ``spell_hash`` may replace
    ``hash_to_wire`` by a faster function giving the same (the server's, with CPython's base64)."""
    if not envelopes:
        raise ValueError("an events frame holds at least one envelope")
    wire = schema(game)
    base = at_micros(started)
    low, high = (0, 0) if base is None else (base - MOST_OFFSET, base + MOST_OFFSET)
    seat_at = _seat_index(seats)
    frame: list = [envelopes[0]["seq"], None]
    run: list = []
    key = None
    for envelope in envelopes:
        body = envelope["command"]
        at = envelope["at"]
        seat = envelope["seat"]
        here = (seat, envelope["command_id"], body, at)
        if here != key:
            key = here
            # The log's first run (GameStarted's) spells its time: a reader from seq 1 finds the base there.
            when = at
            if base is not None and envelope["seq"] != 1:
                micros = at_micros(at)
                if micros is not None and low <= micros <= high:
                    when = micros - base
            run = [seat_at.get(seat, seat) if type(seat) is str else seat, envelope["command_id"],
                   _command_entry(wire, body, seat_at), when]
            frame.append(run)
        run.append(_event_entry(wire, envelope, seat_at))
    frame[1] = (spell_hash or hash_to_wire)(envelopes[-1]["hash"])
    return frame


def _seat_index(seats: Any) -> dict:
    """A game's seat -> its index in GameStarted's ``seats`` ({} when they are not known or not strings)."""
    if type(seats) is not tuple and type(seats) is not list:
        return {}
    found = {}
    for index, seat in enumerate(seats):
        if type(seat) is not str or seat in found:
            return {}
        found[seat] = index
    return found


def _positional(index: int, values: Any, places: tuple, seat_at: dict) -> list | None:
    """``[index, value, …]`` with each seat field's seat as its index; None if a seat field holds an
    integer (the reader would take it for an index: the record goes by its names)."""
    entry = [index]
    entry.extend(values)
    for place in places:
        value = entry[place + 1]
        kind = type(value)
        if kind is str:
            found = seat_at.get(value)
            if found is not None:
                entry[place + 1] = found
        elif kind is int:
            return None
    return entry


def _command_entry(wire: Schema, body: Any, seat_at: dict) -> Any:
    if body is None:
        return None
    name, data = body["type"], body["data"]
    index = wire.command_at.get(name)
    if index is not None and tuple(data) == wire.commands[index].__slots__:
        entry = _positional(index, data.values(), wire.command_seats[index], seat_at)
        if entry is not None:
            return entry
    return [name, data]


def _event_entry(wire: Schema, envelope: dict, seat_at: dict) -> list:
    name, data = envelope["type"], envelope["data"]
    index = wire.event_at.get(name)
    if index is not None and envelope["dice"] is None and tuple(data) == wire.events[index].__slots__:
        at = wire.rule_at[index]
        # The clause the record names itself (``events.game.rule_of``): its rule field, else its class's RULE.
        if envelope["rule"] == ((data["rule"] if at >= 0 else None) or wire.rules[index]):
            entry = _positional(index, data.values(), wire.event_seats[index], seat_at)
            if entry is not None:
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


def frame_dicts(game: Game, game_id: str, frame: Any, started: str | None = None, where: str = "$",
                seats: Any = None) -> list:
    """An ``events`` frame -> its envelopes as ``Envelope.to_dict()`` dicts (hash: the frame's check on
    the last, ``hash_from_wire``'s, None on the others); DecodeError with the ``$`` path of the first
    fault. ``started`` is the game's GameStarted ``at`` (the welcome's ``started``), the base of the
    frame's times; ``seats`` its ``seats`` (the welcome's), what the seat indexes name."""
    seq, hash_, runs = _read(game, frame, started, seats, where)
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


def frame_envelopes(game: Game, game_id: str, frame: Any, started: str | None = None, where: str = "$",
                    seats: Any = None) -> list:
    """An ``events`` frame -> its Envelopes, every field checked as ``Envelope.from_dict`` checks it
    (each record built as the game's registry builds it, a run's command once); the last envelope's
    hash is the frame's check (``hash_matches`` compares a whole hash with it), None on the others."""
    seq, hash_, runs = _read(game, frame, started, seats, where)
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


def frame_ack(frame: list) -> dict | None:
    """The ack an events frame carries (its last item ``ACK_MARK``: the sender's copy of its command's
    frame), as the ``ack`` frame spells it: the first run's command id, the frame's first and last
    seq; None for a frame without it. For a frame ``frame_envelopes`` read (the mark checked there)."""
    if type(frame) is not list or len(frame) < 4 or frame[-1] != ACK_MARK or type(frame[-1]) is not int \
            or type(frame[0]) is not int:
        return None
    count = 0
    for run in frame[2:-1]:
        if type(run) is not list or len(run) < 5:
            return None
        count += len(run) - 4
    return {"type": "ack", "id": frame[2][1], "first": frame[0], "last": frame[0] + count - 1}


def _first_seats(runs: list) -> Any:
    """GameStarted's ``seats`` in the log's first frame (its first event, by its names), else None."""
    run = runs[0]
    if type(run) is list and len(run) >= 5 and type(run[4]) is list and len(run[4]) >= 2 \
            and run[4][0] == "GameStarted" and type(run[4][1]) is dict:
        return run[4][1].get("seats")
    return None


def _read(game: Game, frame: Any, started: Any, seats: Any, where: str) -> tuple:
    """A frame checked and spelt out: (seq, hash, runs), each run (seat, command_id, command as
    ``{"type", "data"}`` or None, the command's path, at, events), each event (its class if it came
    positional else None, type, its values or its data, rule, dice, its path)."""
    if type(frame) is not list:
        raise DecodeError(f"{where}: expected an events frame [seq, hash, run, …], got {_kind(frame)}")
    if len(frame) < 3:
        raise DecodeError(f"{where}: expected an events frame [seq, hash, run, …], got a list of {len(frame)}")
    if type(frame[-1]) is not list and len(frame) >= 4:
        if frame[-1] != ACK_MARK or type(frame[-1]) is not int:
            raise DecodeError(f"{where}[{len(frame) - 1}]: expected a run [seat, command_id, command, at, event, …] "
                              f"or the ack mark {ACK_MARK}, got {_shown(frame[-1])}")
        frame = frame[:-1]
    seq = frame[0]
    if type(seq) is not int or not 1 <= seq <= MOST_SEQ:
        raise DecodeError(f"{where}[0]: expected a seq, a positive integer of at most 2**53, got {_shown(seq)}")
    hash_ = hash_from_wire(frame[1], f"{where}[1]")
    runs = frame[2:]
    wire = schema(game)
    if seq == 1:
        if started is None and type(runs[0]) is list and len(runs[0]) >= 5:
            started = runs[0][3]  # the log's first frame: GameStarted's own time is the base
        if seats is None:
            seats = _first_seats(runs)
    clock = _clock(started)
    seat_list = seats if _seat_index(seats) else None
    out: list = []
    count = 0
    r = 2
    for run in runs:
        at_run = f"{where}[{r}]"
        if type(run) is not list or len(run) < 5:
            raise DecodeError(f"{at_run}: expected a run [seat, command_id, command, at, event, …], got {_shown(run)}")
        seat, command_id, command, at = run[0], run[1], run[2], run[3]
        if seat is not None and type(seat) is not str:
            seat = _read_seat(seat, seat_list, f"{at_run}[0]")
        if command_id is not None and type(command_id) is not str:
            _string(command_id, f"{at_run}[1]")
        if command is not None:
            command = _read_command(wire, command, seat_list, f"{at_run}[2]")
        if at is not None and type(at) is not str:
            at = _read_at(at, clock, started, f"{at_run}[3]")
        read = []
        e = 4
        for event in run[4:]:
            read.append(_read_event(wire, event, seat_list, f"{at_run}[{e}]"))
            e += 1
        count += e - 4
        out.append((seat, command_id, command, f"{at_run}[2]", at, read))
        r += 1
    if seq + count - 1 > MOST_SEQ:
        raise DecodeError(f"{where}[0]: its {count} events would pass seq 2**53")
    return seq, hash_, out


def _kind(value: Any) -> str:
    return "an object" if type(value) is dict else type(value).__name__


def _read_seat(value: Any, seats: Any, where: str) -> str:
    """A seat field that is not a string or null: the index of a seat in GameStarted's ``seats``."""
    if type(value) is not int:
        raise DecodeError(f"{where}: expected a seat (its index, a string or null), got {_shown(value)}")
    if seats is None:
        raise DecodeError(f"{where}: a seat's index, but the game's seats are not known")
    if not 0 <= value < len(seats):
        raise DecodeError(f"{where}: no seat {value}: the game has {len(seats)} seats ({', '.join(seats)})")
    return seats[value]


def _seats_read(values: list, places: tuple, seats: Any, where: str) -> list:
    """A positional record's values with each seat field's index read as its seat (``values`` is the
    reader's own copy of the entry's)."""
    for place in places:
        if type(values[place]) is int:  # only an index: a seat field's other values are as they were
            values[place] = _read_seat(values[place], seats, f"{where}[{place + 1}]")
    return values


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


def _read_command(wire: Schema, entry: Any, seats: Any, where: str) -> Any:
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected a command ([index, value, …] or [type, data]) or null, got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.commands):
            raise DecodeError(f"{where}[0]: no command type {head} in the wire schema ({len(wire.commands)} types)")
        cls = wire.commands[head]
        values = _seats_read(_arity(cls, entry[1:], "command", where), wire.command_seats[head], seats, where)
        return {"type": cls.TYPE, "data": dict(zip(cls.__slots__, values))}
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


def _read_event(wire: Schema, entry: Any, seats: Any, where: str) -> tuple:
    """An event entry -> (its class if positional else None, type, values or data, rule, dice, where)."""
    if type(entry) is not list or not entry:
        raise DecodeError(f"{where}: expected an event ([index, value, …] or [type, data, rule(, dice)]), "
                          f"got {_shown(entry)}")
    head = entry[0]
    if type(head) is int:
        if not 0 <= head < len(wire.events):
            raise DecodeError(f"{where}[0]: no event type {head} in the wire schema ({len(wire.events)} types)")
        cls = wire.events[head]
        values = _seats_read(_arity(cls, entry[1:], "event", where), wire.event_seats[head], seats, where)
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

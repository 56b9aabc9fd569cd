"""Canonical JSON and the state hash that proves two runtimes folded the same game.

BRYTHON.md checked that ``hashlib.sha256`` over JSON with sorted keys, no spaces and only
ints, strings, booleans, None, lists and objects gives the same digest in CPython and Brython.
"""

from __future__ import annotations

import hashlib
import json

from events.record import IN_BRYTHON, Record, layout, to_data

if IN_BRYTHON:
    _compress = _is_not = None
else:
    from itertools import compress as _compress
    from operator import is_not as _is_not

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_set = object.__setattr__
_sha256 = hashlib.sha256
_marked = not IN_BRYTHON  # state_hash resumes a copied sha256 state (CPython: ``_record_hash``)


def canonical_json(data: Any) -> str:
    """One spelling per value: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(state: Any) -> str:
    """sha256 of the state's canonical JSON, in hex: ``canonical_json(to_data(state))``, spelt faster.

    In CPython a record's digest goes on from a copy of its source's sha256 state wherever the
    text's beginning is unchanged (``_record_hash``); Brython's ``hashlib`` has no usable ``copy``
    (it returns the JavaScript object behind the hash), so there the whole text is hashed.
    """
    if _marked and isinstance(state, Record):
        return _record_hash(state)
    return _sha256(record_json(state).encode("ascii")).hexdigest()


def record_json(value: Any) -> str:
    """``canonical_json(to_data(value))`` for a record, tuple or scalar, built piece by piece.

    Records are immutable, so each one's text is computed once and kept in its ``_json`` slot (and
    each field's in ``_parts``, reused by the copies ``but`` makes: ``_record_text``): the states
    of a game share their board, seats and Locations, and hashing after every event then costs
    only the fields that changed (``bench/fold.py`` measures it; in Brython 3.15 a mecha state
    took ~11 ms through ``canonical_json(to_data(...))`` and ~4.5 ms this way). Strings are escaped
    here rather than by ``json``, whose Brython version leaves DEL (U+007F) unescaped where CPython
    writes ``\\u007f``: the same state would hash differently in the browser.
    """
    kind = type(value)
    if kind is int:
        return str(value)  # json spells an int as repr() does
    if kind is str:
        return _quote(value)
    if kind is tuple:
        parts = []
        for item in value:
            kind = type(item)
            if kind is int:
                parts.append(str(item))
            elif kind is str:
                parts.append(_quote(item))
            else:
                parts.append(record_json(item))
        return "[" + _comma(parts) + "]"
    if isinstance(value, Record):
        text = getattr(value, "_json", None)
        if text is None:
            text = _record_text(value)
        return text
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, int):  # subclasses (an IntEnum) are spelt as their base type, as json does
        return str(int(value))
    if isinstance(value, str):
        return _quote(str.__str__(value))
    if isinstance(value, tuple):
        return record_json(tuple(value))
    return canonical_json(to_data(value))  # raises the TypeError that names what a record may hold


def _joined(parts: Any) -> str:
    """``",".join(parts)`` as Brython runs it fastest: its ``str.join`` ends every call with a
    StopIteration it raises and catches, ~12 µs, more than the pieces of a record's few fields cost
    to add (an in-page micro-benchmark: 3 pieces 15.7 µs joined, 2.4 µs added; 10 pieces 25 against
    17 µs). A snapshot join's hash spells a whole state: hundreds of records (issue 16)."""
    count = len(parts)
    if not count:
        return ""
    text = parts[0]
    index = 1
    while index < count:
        text += "," + parts[index]
        index += 1
    return text


_comma = _joined if IN_BRYTHON else ",".join  # CPython's join is C and beats any loop


def _record_text(record: Any) -> str:
    """A record's canonical JSON, memoised in its ``_json`` slot (its ``"key":value`` pieces in
    ``_parts``: ``_record_parts``). The text, and so the hash, is the same as a full spelling:
    ``canonical_json(to_data(record))``.
    """
    parts = getattr(record, "_parts", None)
    if type(parts) is not tuple:
        parts = _record_parts(record, parts)[0]
    text = "{" + _comma(parts) + "}"
    _set(record, "_json", text)
    return text


def _record_parts(record: Any, link: Any) -> tuple:
    """``(parts, first, source)``: the record's ``"key":value`` pieces in the text's order (kept
    in its ``_parts`` slot), the place of the first piece that may differ from ``source``'s, and
    ``source``, the hashed record they were compared with (None: every piece was spelt).

    ``link`` is what ``_parts`` held: a copy made by ``but`` names there the record it came from
    (issue 16). If that one was hashed, every field that still holds the very object the source
    held (immutable, so the same text) takes the source's text, and only the others are spelt: a
    state after an event costs the fields the event changed, not the whole state. CPython finds
    them in C (the fields read at once and compared by identity, ``compress`` yielding the changed
    ones); Brython reads them one by one (no ``operator``/``itertools`` at page load: BRYTHON.md).
    """
    cls = type(record)
    if cls._keyed is None:  # the class's first record hashed
        layout(cls)
    names = None
    if type(link) is dict:  # a copy that says which fields it was given (CPython's ``but``)
        names = link
        link = names[""]
    old = getattr(link, "_parts", None) if link is not None else None
    if type(old) is not tuple:  # no source, or one never hashed: spell every field
        tag = _quote(cls.TYPE)
        parts = tuple([key + (tag if name is None else record_json(getattr(record, name))) for name, key in cls._keyed])
        _set(record, "_parts", parts)
        return parts, 0, None
    read = cls._read
    listed = list(old)
    first = len(listed)
    if names is not None:
        where = cls._where
        for name in names:
            if name:  # "" names the source
                item = getattr(record, name)
                before = getattr(link, name)
                if before is not item:
                    place, key = where[name]
                    listed[place] = key + _spelt_like(item, before)
                    if place < first:
                        first = place
    elif read is not None and _compress is not None:
        for name, place, key in _compress(cls._placed, map(_is_not, read(record), read(link))):
            listed[place] = key + _spelt_like(getattr(record, name), getattr(link, name))
            if place < first:
                first = place
    else:
        for name, place, key in cls._placed:
            item = getattr(record, name)
            before = getattr(link, name)
            if before is not item:
                listed[place] = key + _spelt_like(item, before)
                if place < first:
                    first = place
    parts = tuple(listed)
    _set(record, "_parts", parts)
    return parts, first, link


def _spelt_like(item: Any, before: Any) -> str:
    """``record_json(item)`` for a field that held ``before`` in the hashed source.

    A record built by its constructor where a fold would have called ``but`` (skirmish's commonest
    events, issue 13) says nothing of where it came from: one of ``before``'s type, with no memo of
    its own, is spelt against ``before`` (its fields compared by identity, the unchanged ones'
    texts reused), and so is each such item of a tuple against the item at its place in ``before``.
    """
    kind = type(item)
    if kind is tuple:
        if type(before) is not tuple or len(before) != len(item):
            return record_json(item)
        parts = []
        index = 0
        count = len(item)
        while index < count:  # not a ``for``: Brython ends one with a StopIteration it raises (~7 µs)
            new = item[index]
            old = before[index]
            index += 1
            kind = type(new)
            if kind is int:  # scalars as record_json spells them, without a call (Brython pays for each)
                parts.append(str(new))
            elif kind is str:
                parts.append(_quote(new))
            elif new is old or kind is not type(old):
                parts.append(record_json(new))
            else:
                parts.append(_spelt_like(new, old))
        return "[" + _comma(parts) + "]"
    if kind is type(before) and isinstance(item, Record) and getattr(item, "_parts", None) is None:
        if type(getattr(before, "_parts", None)) is tuple:
            _set(item, "_parts", before)  # as if ``before.but(...)`` had made it
    return record_json(item)


#: A sha256 state is kept for a stable beginning of a state's text only if it spares hashing at
#: least this many bytes each time it is used (a copy of a sha256 state costs ~0.1 µs, as much
#: as hashing ~170 bytes, in CPython 3.11).
MARK_BYTES = 1024


def _record_hash(record: Any) -> str:
    """``state_hash`` of a record in CPython, hashing only the part of its text that follows the
    longest beginning it shares with its source (issue 16).

    A record hashed here keeps in its ``_sha`` slot its hex digest and its *marks*: ``(place,
    sha256 state)`` pairs, the state having been fed the text before piece ``place`` (``{`` and
    every piece before it, each with its comma). A copy whose first changed piece is at ``first``
    inherits every mark at or before ``first`` (the same objects: the text before them is the
    same), copies the last one and hashes the rest of its text from there. Where the pieces
    between that mark and ``first`` are long (``MARK_BYTES``), it marks ``first`` for its own
    copies: so a game whose board sorts before what its events change (mecha's ``bag``, ``board``,
    then ``positions``, ``turn``) hashes ~1 KB of its ~3.7 KB per event, and one whose changing
    fields sort first (skirmish's ``active``) keeps no mark and pays nothing for them. The value is
    sha256 of the very same text: ``canonical_json(to_data(record))``.
    """
    link = getattr(record, "_parts", None)
    if type(link) is tuple:  # its pieces are spelt already (as a field of another record, or hashed)
        memo = getattr(record, "_sha", None)
        if memo is not None:
            return memo[1]
        parts, first, source = link, 0, None
    else:
        parts, first, source = _record_parts(record, link)
    marks: tuple = ()
    if source is not None:
        inherited = getattr(source, "_sha", None)
        if inherited is not None:
            if first == len(parts):  # nothing changed: the same text
                _set(record, "_sha", inherited)
                return inherited[1]
            marks = inherited[0]
            if marks and marks[-1][0] > first:
                marks = tuple([mark for mark in marks if mark[0] <= first])
    if marks:
        place, digest = marks[-1]
        digest = digest.copy()
        head = ""
    else:
        place, digest, head = 0, None, "{"
    if first > place:
        segment = head + ",".join(parts[place:first]) + ","
        if len(segment) >= MARK_BYTES:
            if digest is None:
                digest = _sha256(segment.encode("ascii"))
            else:
                digest.update(segment.encode("ascii"))
            marks = marks + ((first, digest.copy()),)
            place, head = first, ""
    tail = (head + ",".join(parts[place:]) + "}").encode("ascii")
    if digest is None:
        digest = _sha256(tail)
    else:
        digest.update(tail)
    value = digest.hexdigest()
    _set(record, "_sha", (marks, value))
    return value


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def _quote(text: str) -> str:
    """A JSON string exactly as CPython's ``json.dumps(text, ensure_ascii=True)`` spells it."""
    if text.isascii() and text.isprintable() and '"' not in text and "\\" not in text:
        return '"' + text + '"'
    out = []
    for char in text:
        code = ord(char)
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif 0x20 <= code < 0x7F:
            out.append(char)
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            code -= 0x10000
            out.append(f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}")
    return '"' + "".join(out) + '"'

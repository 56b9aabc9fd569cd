"""Canonical JSON and the state hash that proves two runtimes folded the same game.

BRYTHON.md checked that ``hashlib.sha256`` over JSON with sorted keys, no spaces and only
ints, strings, booleans, None, lists and objects gives the same digest in CPython and Brython.
"""

from __future__ import annotations

import hashlib
import json

from events.record import Record, to_data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_set = object.__setattr__


def canonical_json(data: Any) -> str:
    """One spelling per value: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_hash(state: Any) -> str:
    """sha256 of the state's canonical JSON, in hex: ``canonical_json(to_data(state))``, spelt faster."""
    return hashlib.sha256(record_json(state).encode("ascii")).hexdigest()


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
        return "[" + ",".join(parts) + "]"
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


def _record_text(record: Any) -> str:
    """A record's canonical JSON, memoised in its ``_json`` slot and each ``"key":value`` in ``_parts``.

    A copy made by ``but`` names in ``_parts`` the record it came from: if that one was hashed,
    every field that still holds the very object the source held (immutable, so the same text) takes the source's
    text, and only the others are spelt. A state after an event thus costs the fields the event
    changed, a few identity checks and one join, not the whole state (issue 16). The text, and so
    the hash, is the same as a full spelling: ``canonical_json(to_data(record))``.
    """
    cls = type(record)
    source = getattr(record, "_parts", None)
    old = getattr(source, "_parts", None) if source is not None else None
    if type(old) is not tuple:  # no source, or one never hashed: spell every field
        tag = _quote(cls.TYPE)
        parts = [key + (tag if name is None else record_json(getattr(record, name))) for name, key in cls._keyed]
    else:
        parts = list(old)
        for name, place, key in cls._placed:
            item = getattr(record, name)
            if getattr(source, name) is not item:
                parts[place] = key + record_json(item)
    text = "{" + ",".join(parts) + "}"
    _set(record, "_parts", tuple(parts))
    _set(record, "_json", text)
    return text


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

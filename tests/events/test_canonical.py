"""Canonical JSON and the state hash: one spelling per value, so two runtimes agree on a digest."""

from __future__ import annotations

import hashlib
import json

import pytest

from events.canonical import canonical_json, state_hash
from events.rules import Rejection


def test_canonical_json_sorts_keys_drops_spaces_and_escapes_non_ascii():
    data = {"b": [1, "é", None, True], "a": {"z": 1, "y": 2}}
    assert canonical_json(data) == '{"a":{"y":2,"z":1},"b":[1,"\\u00e9",null,true]}'
    assert canonical_json({"a": 1, "b": 2}) == canonical_json({"b": 2, "a": 1})


def test_state_hash_is_pinned():
    """A pinned digest: changing the encoding or the hash would split CPython and Brython logs."""
    # The digest of the text a two-field Rejection had (the record gained key and params, issue 17),
    # pinned on that very text, and the record's own digest now.
    old = canonical_json({"type": "Rejection", "rule": "MV-1", "reason": "Location 3 is occupied"})
    assert hashlib.sha256(old.encode("ascii")).hexdigest() == (
        "aba0bf58314cdbd6561063acce25103eead3e25cfdc5a359a136e47e3dea5a22"
    )
    assert state_hash(Rejection("MV-1", "Location 3 is occupied")) == (
        "a97e2fabb2cd269bae93bb03b0aba5dd293340b29e82bca15aec9b3cc8276742"
    )
    assert state_hash(None) == "74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b"


def test_state_hash_follows_the_value_not_the_object():
    assert state_hash(Rejection("MV-1", "x")) == state_hash(Rejection("MV-1", "x"))
    assert state_hash(Rejection("MV-1", "x")) != state_hash(Rejection("MV-2", "x"))
    assert state_hash((1, 2)) == state_hash((1, 2)) != state_hash((2, 1))


def test_state_hash_refuses_floats():
    with pytest.raises(TypeError, match="not float"):
        state_hash(Rejection("MV-1", 0.5))


# --- the fast spelling used by state_hash -----------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from events.canonical import record_json  # noqa: E402
from events.record import Record, to_data  # noqa: E402


class Pair(Record):
    __slots__ = ("left", "right")
    __match_args__ = __slots__
    TYPE = "Pair"

    def __init__(self, left, right) -> None:
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "right", right)


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text())
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4).map(tuple), st.tuples(inner, inner).map(lambda t: Pair(*t))),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(values)
def test_record_json_spells_exactly_what_canonical_json_does(value):
    """state_hash builds the text itself (and escapes strings itself): it must equal the reference."""
    assert record_json(value) == canonical_json(to_data(value))
    assert record_json(value) == canonical_json(to_data(value))  # again, from the memo


def test_strings_are_escaped_as_cpython_json_does():
    """The characters where Brython's json differs: DEL, controls, non-ASCII, above U+FFFF."""
    for text in ("plain", 'a"b', "a\\b", "\x7f\x00\x1f", "\n\r\t\b\f", "é€\u2028", "😀 Mecha", ""):
        assert record_json(text) == json.dumps(text, ensure_ascii=True)
    assert record_json("😀") == '"\\ud83d\\ude00"'


def test_subclasses_of_scalars_and_tuples_are_spelt_as_their_base():
    import enum

    class Level(enum.IntEnum):
        HIGH = 5

    class Name(str):
        def __str__(self) -> str:
            return "not this"

    class Row(tuple):
        pass

    value = (Level.HIGH, Name("x"), Row((1, "é")), True, False)
    assert record_json(value) == '[5,"x",[1,"\\u00e9"],true,false]' == canonical_json(to_data(value))
    assert record_json(Name("é")) == '"\\u00e9"'


def test_a_record_text_is_memoised_without_changing_the_record():
    pair = Pair(1, ("a", None))
    before = pair.to_data()
    text = record_json(pair)
    assert text == '{"left":1,"right":["a",null],"type":"Pair"}'
    assert pair._json == text
    assert pair.to_data() == before and pair == Pair(1, ("a", None)) and pair.fields() == (1, ("a", None))
    assert repr(pair) == "Pair(left=1, right=('a', None))"


def test_record_json_refuses_what_a_record_may_not_hold():
    with pytest.raises(TypeError, match="not float"):
        record_json((1, 2.5))
    with pytest.raises(TypeError, match="not list"):
        record_json(Pair([1], 2))


@pytest.mark.parametrize("parts", [(), ("a",), ("a", "b"), ['"x":1', '"y":[1,2]', '"z":null'], tuple(str(n) for n in range(12))])
def test_the_brython_join_spells_as_str_join(parts):
    """Issue 16: Brython's record texts are joined by ``_joined`` (its ``str.join`` raises a
    StopIteration per call); the text, and so every hash, must be the one ``",".join`` gives."""
    from events.canonical import _joined

    assert _joined(parts) == ",".join(parts)

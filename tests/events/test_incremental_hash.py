"""The state hash in proportion to the change (issue 16) is the same value as a full recomputation.

``state_hash`` reuses, for a copy made by ``but``, the text of every field that still holds the
object its hashed source held (``events.canonical._record_parts``: in CPython only the fields
``but`` was given are looked at), and in CPython hashes on from a copy of its source's sha256
state over the beginning of the text they share (``_record_hash``). Checked here against sha256 of
``canonical_json(to_data(state))``, which memoises nothing, on random games of every game, hashed
after every event (the Table, a following page) and only now and then (a replay).
"""

from __future__ import annotations

import hashlib

import pytest

import events.games
from events.bots import playout
from events.canonical import canonical_json, record_json, state_hash
from events.log import Table
from events.record import Record, to_data
from events.rng import Rng
from server.scenarios import builtin_scenarios, load

_set = object.__setattr__


def source_of(record):
    """The record a copy reuses the texts of: CPython's ``but`` keeps it in the dict of the names it was given."""
    link = record._parts
    return link[""] if type(link) is dict else link


def full_hash(state) -> str:
    """The hash with no memo at all: the plain encoding of the whole state."""
    return hashlib.sha256(canonical_json(to_data(state)).encode("ascii")).hexdigest()


@pytest.mark.parametrize("name", events.games.NAMES)
def test_core_1_the_incremental_hash_of_every_state_of_random_games_is_the_full_one(name):
    game = events.games.load(name)
    scenarios = [item for item in builtin_scenarios() if item.startswith(name + "/")][:2]
    assert scenarios, name
    for number, scenario in enumerate(scenarios):
        table = Table.create(game, "g", load(scenario)[1], number + 5)
        playout(table, {}, Rng(number + 11), 120)
        assert table.seq > 2, scenario
        events_ = [envelope.event for envelope in table.envelopes]
        logged = [envelope.hash for envelope in table.envelopes]  # hashed incrementally by the Table
        state, full = None, []
        for event in events_:
            state = game.evolve(state, event)
            full.append(full_hash(state))
        assert logged == full, scenario
        # A replay hashes now and then: copies of copies that were never hashed still agree.
        state = None
        for index, event in enumerate(events_):
            state = game.evolve(state, event)
            if index % 7 == 3:
                assert state_hash(state) == full[index], f"{scenario} at event {index + 1}"
        assert state_hash(state) == full[-1], scenario


class Pair(Record):
    __slots__ = ("left", "right")
    TYPE = "Pair"

    def __init__(self, left, right) -> None:
        _set(self, "left", left)
        _set(self, "right", right)


class Sorted(Record):
    """A record whose ``__init__`` changes what it is given (the same value, a new object): a copy
    reuses the texts of the fields it was not given, which hold the same values, and spells those
    it was given from what it holds, not from what was passed."""

    __slots__ = ("items", "label")
    TYPE = "Sorted"

    def __init__(self, items, label) -> None:
        _set(self, "items", tuple(sorted(items)))
        _set(self, "label", label)


def test_core_1_a_copy_reuses_the_text_of_every_unchanged_field_and_spells_only_the_changed_one():
    board = Pair("b" * 50, (1, 2, 3))
    first = Pair(board, 1)
    state_hash(first)
    second = first.but(right=2)
    assert source_of(second) is first and second._parts == {"right": 2, "": first}  # not yet a text
    assert state_hash(second) == full_hash(second)
    kept = [part for part in second._parts if part.startswith('"left":')]
    assert kept[0] is [part for part in first._parts if part.startswith('"left":')][0]  # the same string
    assert record_json(second) == '{"left":' + record_json(board) + ',"right":2,"type":"Pair"}'


def test_core_1_a_copy_of_an_unhashed_copy_points_at_the_last_hashed_record():
    first = Pair(Pair("x", 1), 1)
    state_hash(first)
    second = first.but(right=2)
    third = second.but(left=Pair("y", 2))
    assert source_of(third) is first  # never a chain of states kept alive
    assert state_hash(third) == full_hash(third)
    assert state_hash(second) == full_hash(second)
    root = Pair(1, (2,))
    never, later = root.but(left=3), root.but(left=4)
    assert source_of(never) is root and source_of(later.but(left=5)) is root  # a record made by its constructor
    assert state_hash(never) == full_hash(never)  # its source never hashed: every field spelt
    state_hash(root)
    assert state_hash(later) == full_hash(later)  # hashed since: its texts are reused
    assert [part for part in later._parts if part.startswith('"right":')][0] is root._parts[1]


def test_core_1_a_copy_whose_init_changes_its_fields_is_spelt_from_what_it_holds():
    first = Sorted((3, 1, 2), "a")
    state_hash(first)
    second = first.but(label="b")  # __init__ builds a new (equal) tuple: its text is spelt again
    assert second.items == first.items and second.items is not first.items
    assert state_hash(second) == full_hash(second)
    third = second.but(items=(9, 0))
    assert state_hash(third) == full_hash(third)
    assert record_json(third) == '{"items":[0,9],"label":"b","type":"Sorted"}'


def test_core_1_a_field_given_its_own_value_again_keeps_its_text_and_hash():
    first = Pair("é\x7f", (None, True, "z"))
    state_hash(first)
    second = first.but(left=first.left)
    assert state_hash(second) == state_hash(first) == full_hash(first)


def test_core_1_a_record_built_by_its_constructor_in_place_of_a_hashed_one_is_spelt_against_it():
    first = Pair(Pair("x" * 40, 1), (Pair("a" * 40, 1), Pair("b" * 40, 2)))
    state_hash(first)
    left, item = Pair(first.left.left, 2), Pair(first.right[1].left, 3)  # no memo, no source
    second = first.but(left=left, right=(first.right[0], item))
    assert state_hash(second) == full_hash(second)
    assert left._parts[0] is first.left._parts[0] and item._parts[0] is first.right[1]._parts[0]
    odd = first.but(right=(Pair("c", 1),))  # a tuple of another length: spelt as it is
    assert state_hash(odd) == full_hash(odd)


def test_core_1_a_copy_hashes_on_from_the_sha256_state_of_the_text_its_source_shares_with_it():
    long = Pair("k" * 2000, ())
    first = Pair(long, 0)
    assert state_hash(first) == full_hash(first) and first._sha[0] == ()  # built whole: no source
    second = first.but(right=1)
    assert state_hash(second) == full_hash(second)
    assert [place for place, _mark in second._sha[0]] == [1]  # after '{"left":{...},': over MARK_BYTES
    third = second.but(right=2)
    assert state_hash(third) == full_hash(third) and third._sha[0] is second._sha[0]  # the same marks
    same = third.but(right=third.right)
    assert state_hash(same) == state_hash(third) and same._sha is third._sha  # nothing changed
    moved = third.but(left=Pair("m" * 2000, ()))  # the beginning changed: its marks are dropped
    assert state_hash(moved) == full_hash(moved) and moved._sha[0] == ()
    assert state_hash(moved.but(right=3)) == full_hash(moved.but(right=3))
    short = Pair(Pair("s", ()), 0)
    state_hash(short)
    after = short.but(right=1)
    assert state_hash(after) == full_hash(after) and after._sha[0] == ()  # too short to keep a mark


@pytest.mark.parametrize("name", ["mecha", "skirmish"])
def test_core_1_without_cpythons_shortcuts_the_incremental_hash_is_the_full_one(name, monkeypatch):
    """Brython's path (no sha256 copies, every field compared one by one), run here: the same values."""
    import events.canonical as canonical

    monkeypatch.setattr(canonical, "_marked", False)
    monkeypatch.setattr(canonical, "_compress", None)
    game = events.games.load(name)
    scenario = [item for item in builtin_scenarios() if item.startswith(name + "/")][0]
    table = Table.create(game, "g", load(scenario)[1], 3)
    playout(table, {}, Rng(4), 60)
    state = None
    for envelope in table.envelopes:
        state = game.evolve(state, envelope.event)
        assert state_hash(state) == full_hash(state) == envelope.hash

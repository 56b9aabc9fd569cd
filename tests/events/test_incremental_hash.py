"""The state hash in proportion to the change (issue 16) is the same value as a full recomputation.

``state_hash`` reuses, for a copy made by ``but``, the text of every field that still holds the
object its hashed source held (``events.canonical._record_text``). Checked here against sha256 of
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
    """A record whose ``__init__`` changes what it is given: a copy must not trust the field names."""

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

"""events/statediff.py: the dispute panel's field-by-field difference of two folded states."""

from __future__ import annotations

import events.games
from events.dice import local_secret
from events.games.mecha.model import Move
from events.log import Table
from events.statediff import Change, diff
from server import scenarios


def mecha_table() -> Table:
    _name, data = scenarios.load("mecha/sample")
    return Table.create(events.games.load("mecha"), "g-statediff", data, local_secret(3))


def test_mv_1_a_move_shows_as_the_position_that_changed_and_nothing_else_of_the_board():
    """MV-1: red's Mecha leaves the Camp; the diff names ``positions[0]`` with old → new, and the
    board (the same object before and after) contributes nothing."""
    table = mecha_table()
    before = table.state
    table.submit("red", Move(8), "c1")
    after = table.state
    changes = diff(before, after)
    paths = [change.path for change in changes]
    assert Change("positions[0]", "null", "8") in changes
    assert not any(path.startswith("board") for path in paths)
    assert "turn" in paths
    # Check: each change is shown as path: old → new, and nothing differs from a state to itself.
    assert str(Change("positions[0]", "null", "8")) == "positions[0]: null → 8"
    assert diff(after, after) == []


def test_mv_6c_a_stack_that_grows_is_an_added_index_and_a_shrinking_bag_a_changed_count():
    """MV-6c: drawing Corruption onto a Location adds to ``stacks`` (absent before: shown as —)."""
    table = mecha_table()
    before = table.state
    table.submit("red", Move(8), "c1")
    changes = diff(before, table.state)
    added = [c for c in changes if c.path.startswith("stacks[") and c.before is None]
    assert added and added[0].after.startswith("[8,")
    assert str(added[0]).startswith(f"{added[0].path}: — → [8,")
    assert any(c.path.startswith("bag[") for c in changes)
    # Check: the other way round the same index is removed (after absent).
    removed = [c for c in diff(table.state, before) if c.path == added[0].path]
    assert removed == [Change(added[0].path, added[0].after, None)]


def test_statediff_scalars_tuples_and_types():
    """Scalars at the top are path ``$``; a bool is not the int 1; a record of another type is a whole change."""
    assert diff(1, 2) == [Change("$", "1", "2")]
    assert diff(1, True) == [Change("$", "1", "true")]
    assert diff((1, (2, 3)), (1, (2, 4))) == [Change("[1][1]", "3", "4")]
    assert diff("a", "a") == []
    table = mecha_table()
    changed = diff(table.state, table.state.board)
    assert len(changed) == 1 and changed[0].path == "$"
    assert changed[0] != Change("$", "1", "2") and hash(changed[0]) == hash(Change("$", changed[0].before, changed[0].after))


def test_statediff_lines_up_a_tuple_that_grew_or_shrank_on_what_both_keep():
    """One token taken from the front of a list is one change, not one per element that moved up."""
    assert diff((8, 9, 10, 11), (9, 10, 11)) == [Change("[0]", "8", None)]
    assert diff((9, 10, 11), (8, 9, 10, 11)) == [Change("[0]", None, "8")]
    assert diff((1, 2, 3), (1, 3)) == [Change("[1]", "2", None)]
    assert diff((1, 2), (1, 2, 3)) == [Change("[2]", None, "3")]
    assert diff((1, 1), (1,)) == [Change("[1]", "1", None)]
    assert diff((1, 2, 3), (4, 5)) == [Change("[0]", "1", "4"), Change("[1]", "2", "5"), Change("[2]", "3", None)]


def test_statediff_is_bounded_and_counts_what_it_left_out():
    changes = diff(tuple(range(10)), tuple(range(1, 11)), limit=3)
    assert [c.path for c in changes] == ["[0]", "[1]", "[2]"]
    assert changes.more == 7
    assert repr(changes[0]) == "Change('[0]', '0', '1')"

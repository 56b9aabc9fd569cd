"""The store's rows (``server.store.base.Row``): equal slot by slot, never across row classes, unhashable."""

from __future__ import annotations

import pytest

from server.store import ChatLine, GameMeta, Stored


def test_rows_are_equal_when_every_slot_is():
    meta = GameMeta("g-1", "mecha", "t", ("red", "blue"), {"red": "a" * 64}, "2026-12-01T00:00:00Z", head=3)
    assert meta == GameMeta("g-1", "mecha", "t", ("red", "blue"), {"red": "a" * 64}, "2026-12-01T00:00:00Z", head=3)
    assert meta != GameMeta("g-1", "mecha", "t", ("red", "blue"), {"red": "a" * 64}, "2026-12-01T00:00:00Z",
                            head=3, over=True)  # the last slot counts too
    assert Stored(1, None, "{}") == Stored(1, None, "{}")
    assert Stored(1, None, "{}") != Stored(1, "c-1", "{}")
    line = ChatLine("g-1", 1, "seats", "red", "hi", "at")
    assert line == ChatLine("g-1", 1, "seats", "red", "hi", "at")
    assert line != ChatLine("g-1", 1, "seats", "red", "hi!", "at")


def test_rows_of_different_classes_are_never_equal():
    assert Stored(1, None, "{}") != ChatLine("g-1", 1, "seats", "red", "hi", "at")
    assert Stored(1, None, "{}") != (1, None, "{}")


@pytest.mark.parametrize("row", [Stored(1, None, "{}"), ChatLine("g-1", 1, "seats", "red", "hi", "at")])
def test_rows_are_not_hashable(row):
    with pytest.raises(TypeError):
        hash(row)

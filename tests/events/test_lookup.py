"""``events.lookup``: the one lookup by a field that every game calls (issue 13), on the games' own records."""

from __future__ import annotations

import pytest

from events.games.gloomhaven.model import Hero
from events.games.skirmish.model import Figure
from events.lookup import by_id, by_id_or_raise


def _figure(figure_id: str, side: str, at: tuple | None) -> Figure:
    return Figure(figure_id, side, figure_id.title(), 10, 10, 5, 3, 3, 1, False, at)


FIGURES = (_figure("ana", "rebels", (0, 0)), _figure("tk1", "empire", (1, 0)), _figure("leia", "rebels", None))


def _hero(seat: str) -> Hero:
    return Hero(seat, "Tester", (), (), (), (), None, False, None, None, (), False)


def test_by_id_finds_the_first_record_with_that_id_or_none():
    assert by_id(FIGURES, "tk1") is FIGURES[1]
    assert by_id(FIGURES, "z1") is None
    assert by_id((), "ana") is None


def test_by_id_never_matches_an_id_of_another_type():
    assert by_id((_figure("1", "rebels", None),), 1) is None


@pytest.mark.parametrize("key, value, index", [("side", "rebels", 0), ("side", "empire", 1), ("at", (1, 0), 1),
                                                ("at", None, 2)])
def test_by_id_reads_another_field_and_returns_the_first_match(key, value, index):
    assert by_id(FIGURES, value, key) is FIGURES[index]
    assert by_id(FIGURES, "nobody" if key == "side" else (9, 9), key) is None


def test_by_id_finds_a_seat():
    heroes = (_hero("red"), _hero("blue"))
    assert by_id(heroes, "blue", "seat") is heroes[1]
    assert by_id(heroes, "green", "seat") is None


def test_by_id_or_raise_names_what_is_missing():
    assert by_id_or_raise(FIGURES, "leia", "figure") is FIGURES[2]
    with pytest.raises(KeyError, match=r"no enemy card 'z1'"):
        by_id_or_raise(FIGURES, "z1", "enemy card")

"""Hexes in axial coordinates: the direction table, neighbours, distance and offset conversion."""

from __future__ import annotations

import pytest

from events.geometry.hexgrid import (
    HEX_DIRECTIONS,
    hex_add,
    hex_direction,
    hex_distance,
    hex_from_column_offset,
    hex_from_offset,
    hex_length,
    hex_neighbor,
    hex_neighbors,
    hex_to_column_offset,
    hex_to_offset,
)


def test_directions_are_the_six_unit_hexes():
    assert len(set(HEX_DIRECTIONS)) == 6
    assert all(hex_length(direction) == 1 for direction in HEX_DIRECTIONS)
    assert hex_direction(0) == (1, 0) and hex_direction(5) == (0, 1)
    for bad in (-1, 6):
        with pytest.raises(ValueError, match=f"hex direction must be 0..5, got {bad}"):
            hex_direction(bad)


def test_neighbours_are_one_step_away():
    centre = (2, -1)
    assert hex_add(centre, (1, 1)) == (3, 0)
    assert hex_neighbor(centre, 2) == (2, -2)
    assert hex_neighbors(centre) == ((3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0))
    assert all(hex_distance(centre, near) == 1 for near in hex_neighbors(centre))


def test_distance_counts_steps():
    assert hex_length((0, 0)) == 0
    assert hex_distance((0, 0), (3, -3)) == 3
    assert hex_distance((0, 5), (-1, 4)) == 2
    assert hex_distance((-2, 4), (4, 0)) == hex_distance((4, 0), (-2, 4)) == 6


@pytest.mark.parametrize(("offset", "axial"), [((0, 0), (0, 0)), ((1, 1), (1, 1)), ((0, 2), (-1, 2)),
                                                ((3, 3), (2, 3)), ((2, -1), (3, -1))])
def test_odd_r_offset_round_trip(offset, axial):
    assert hex_from_offset(*offset) == axial
    assert hex_to_offset(axial) == offset


@pytest.mark.parametrize(("offset", "axial"), [((0, 0), (0, 0)), ((1, 0), (1, 0)), ((2, 0), (2, -1)),
                                                ((3, 2), (3, 1)), ((-1, 0), (-1, 1)), ((-2, 1), (-2, 2))])
def test_odd_q_column_offset_round_trip(offset, axial):
    """Odd columns sit half a hex lower: (2, 0) is NE of (1, 0), whose SE neighbour is (2, 1) -> axial (2, 0)."""
    assert hex_from_column_offset(*offset) == axial
    assert hex_to_column_offset(axial) == offset

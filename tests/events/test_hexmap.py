"""A hex map: walls and thin walls, corner-to-corner line of sight, range around walls, costed paths (GH-C1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.geometry.hexgrid import hex_distance
from events.geometry.hexmap import (
    HexMap,
    hexmap_corners,
    hexmap_edge,
    hexmap_path_to,
    hexmap_paths,
    hexmap_rotate,
    segments_touch,
)

DISC = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]


def test_gh_c1_neighbours_follow_the_flat_top_directions():
    """GH-C1: N (q, r-1), S (q, r+1), NE (q+1, r-1), SE (q+1, r), NW (q-1, r), SW (q-1, r+1)."""
    assert HexMap(DISC).adjacent((0, 0)) == ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0))


def test_neighbours_share_exactly_one_edge():
    for near in HexMap(DISC).adjacent((0, 0)):
        a, b = hexmap_edge((0, 0), near)
        assert a in hexmap_corners(near) and b in hexmap_corners(near)
    with pytest.raises(ValueError, match="not neighbours"):
        hexmap_edge((0, 0), (2, 0))


def test_gh_c1_a_thin_wall_cuts_adjacency_and_range_goes_around():
    """GH-C1: across a thin wall two hexes are not adjacent; range counts around it (2, not 1)."""
    hexmap = HexMap(DISC, thin_walls=[((0, 0), (0, 1))])
    assert not hexmap.are_adjacent((0, 0), (0, 1))
    assert hexmap.range_between((0, 0), (0, 1)) == 2


def test_gh_c1_a_wall_hex_blocks_sight_straight_through_it():
    """GH-C1: with (0, 0) a wall, (-1, 0) and (1, 0) on either side cannot see each other; range goes round."""
    hexmap = HexMap([hex for hex in DISC if hex != (0, 0)])
    assert not hexmap.line_of_sight((-1, 0), (1, 0))
    assert hexmap.range_between((-1, 0), (1, 0)) == 3


def test_gh_c1_open_ground_always_sees():
    """GH-C1: with no wall, every pair of hexes sees each other."""
    hexmap = HexMap(DISC)
    assert all(hexmap.line_of_sight((-3, 0), hex) for hex in DISC)


def test_gh_c1_a_corridor_one_hex_wide_still_sees_along_itself():
    """GH-C1: a wall touched only at a line's own end corners does not block it."""
    corridor = HexMap([(q, 0) for q in range(6)])
    assert corridor.line_of_sight((0, 0), (1, 0)) and corridor.line_of_sight((0, 0), (5, 0))


def test_gh_c1_a_line_through_solid_ground_is_blocked():
    """GH-C1: two hexes joined only by a chord across a missing hex do not see each other."""
    hexmap = HexMap([(0, 0), (2, -1), (1, -1), (1, 1)][:1] + [(2, -1)])
    assert not hexmap.line_of_sight((0, 0), (2, -1))


def test_gh_c1_closed_doors_are_walls_until_opened():
    """GH-C1: a closed door hex blocks adjacency and sight; the same map with it open does not."""
    line = [(q, 0) for q in range(5)]
    closed = HexMap(line, closed=[(2, 0)])
    assert closed.range_between((0, 0), (4, 0)) is None and not closed.line_of_sight((0, 0), (4, 0))
    assert closed.adjacent((1, 0), through_closed=True) == ((0, 0), (2, 0))
    assert HexMap(line).range_between((0, 0), (4, 0)) == 4


def test_segments_touch_counts_end_points_and_overlaps():
    assert segments_touch((0, 0), (4, 0), (2, 0), (6, 0))
    assert segments_touch((0, 0), (2, 2), (2, 2), (4, 0))
    assert not segments_touch((0, 0), (1, 0), (0, 1), (1, 1))


def test_paths_are_cheapest_lexicographically():
    """A cost (negative hexes, movement) prefers no trap over fewer steps."""
    hexmap = HexMap(DISC)
    trap = (1, 0)

    def step(here, there):
        return (1 if there == trap else 0, 1)

    cost, parent = hexmap_paths(((0, 0),), hexmap.adjacent, step, (0, 0))
    # The straight 2-step path enters the trap; the trap-free one takes 3 and wins.
    assert cost[(2, 0)] == (0, 3) and trap not in hexmap_path_to(parent, (2, 0))


def test_rotations_cycle_through_six_directions():
    assert [hexmap_rotate((1, 0), turns) for turns in range(6)] == [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
    for offset in ((2, -1), (0, 3), (-2, -1), (1, 1)):  # each closed form is that many single turns
        turned = offset
        for turns in range(13):
            assert hexmap_rotate(offset, turns) == turned
            turned = (-turned[1], turned[0] + turned[1])


@given(st.sampled_from(DISC), st.sampled_from(DISC))
def test_open_range_equals_hex_distance_and_sight_is_symmetric(a, b):
    hexmap = HexMap(DISC)
    assert hexmap.range_between(a, b) == hex_distance(a, b)
    walled = HexMap([hex for hex in DISC if hex not in ((0, 0), (1, -1))])
    if a in walled and b in walled:
        assert walled.line_of_sight(a, b) == walled.line_of_sight(b, a)

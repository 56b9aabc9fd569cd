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


def test_gh_c7_a_corridor_one_hex_wide_sees_only_next_door():
    """GH-C7: in a corridor one hex wide every corner lies on a wall, so no sight line exists; neighbours
    across their open edge still see each other (the clause's last sentence)."""
    corridor = HexMap([(q, 0) for q in range(6)])
    assert all(corridor.corner_on_wall(corner) for q in range(6) for corner in hexmap_corners((q, 0)))
    assert corridor.line_of_sight((0, 0), (1, 0)) and corridor.line_of_sight((4, 0), (5, 0))
    assert not corridor.line_of_sight((0, 0), (2, 0)) and not corridor.line_of_sight((0, 0), (5, 0))


def test_gh_c7_a_hex_whose_corners_all_touch_walls_sees_only_its_open_neighbours():
    """GH-C7: a corner on a wall never ends a sight line. Map (W wall, * the hex):

          .
        W   W      walls at every other neighbour of (0, 0): NE (1, -1), NW (-1, 0), S (0, 1);
          *        every corner of (0, 0) touches one of them.
        .   .
          W
    """
    hexmap = HexMap([hex for hex in DISC if hex not in ((1, -1), (-1, 0), (0, 1))])
    assert all(hexmap.corner_on_wall(corner) for corner in hexmap_corners((0, 0)))
    seen = sorted(hex for hex in hexmap.open if hexmap.line_of_sight((0, 0), hex))
    assert seen == [(-1, 1), (0, -1), (0, 0), (1, 0)]


def test_gh_c7_no_sight_round_the_end_of_a_thin_wall():
    """GH-C7: a thin wall blocks lines touching its end points. Two thin edges bend round the top
    right of (0, 1): its corners (1, 1) and (2, 2) lie on the wall, so it does not see (1, -1)
    beyond (the old reading let a line start on the wall's end corner and saw it)."""
    hexmap = HexMap(DISC, thin_walls=[((0, 0), (0, 1)), ((0, 1), (1, 0))])
    assert hexmap.corner_on_wall((1, 1)) and hexmap.corner_on_wall((2, 2))
    assert not hexmap.line_of_sight((0, 1), (1, -1)) and not hexmap.line_of_sight((1, -1), (0, 1))
    # A line passing exactly through the wall's far end (2, 2) is blocked too: (0, 3) to (1, -3) is unseen.
    assert not hexmap.line_of_sight((0, 3), (1, -3))
    assert HexMap(DISC).line_of_sight((0, 3), (1, -3))


def test_gh_c7_neighbours_across_a_thin_wall_see_each_other_round_an_open_end():
    """GH-C7: adjacent hexes across a walled edge see each other when a neighbouring edge offers a way
    round (through the hex at one end of the wall); with both ends shut they do not."""
    single = HexMap(DISC, thin_walls=[((0, 0), (0, 1))])
    assert single.line_of_sight((0, 0), (0, 1)) and single.sight_line((0, 0), (0, 1)) == ((-2, 0), (-2, 2))
    shut = HexMap(DISC, thin_walls=[((-1, 0), (-1, 1)), ((-1, 1), (0, 0)), ((0, 0), (0, 1)), ((0, 1), (1, 0)),
                                    ((1, 0), (1, 1))])
    assert not shut.line_of_sight((0, 0), (0, 1))


def test_gh_c7_the_way_round_a_thin_wall_between_neighbours_is_read_by_edges():
    """GH-C7: neighbours (0, 0) and (0, 1) across a thin wall see each other when a neighbouring edge offers a way
    around, here through (1, 0) at its east end, even though walls at (1, -1), (1, 1) and (-1, 1) leave each of
    them one free corner and the segment between those two touches the wall's west end. Wall (1, 0) as well and
    no way round is left."""
    walls = [(1, -1), (1, 1), (-1, 1)]
    hexmap = HexMap([hex for hex in DISC if hex not in walls], thin_walls=[((0, 0), (0, 1))])
    assert hexmap.sight_line((0, 0), (0, 1)) is None  # no corner-to-corner segment is clear
    assert hexmap.line_of_sight((0, 0), (0, 1)) and hexmap.line_of_sight((0, 1), (0, 0))
    shut = HexMap([hex for hex in DISC if hex not in walls + [(1, 0)]], thin_walls=[((0, 0), (0, 1))])
    assert not shut.line_of_sight((0, 0), (0, 1))


def test_gh_c7_a_line_grazing_a_wall_hex_corner_is_blocked():
    """GH-C7: a wall hex blocks a line that merely touches it, its corners included. With (0, 0) a wall,
    the segment from (-2, 0)'s corner (-4, -2) ... every line from (-1, 0) to (1, 0) crosses or grazes it."""
    hexmap = HexMap([hex for hex in DISC if hex != (0, 0)])
    assert not hexmap.line_of_sight((-1, 0), (1, 0))
    assert not hexmap.line_of_sight((0, -1), (0, 1))
    # The corner (2, 0) of the wall hex lies on the segment (-1, -3) .. (5, 3): it is touched, so blocked.
    walls = hexmap.walls
    assert any(segments_touch((-1, -3), (5, 3), c, d) for c, d in walls)


def test_gh_c7_long_diagonals_on_a_wide_room():
    """GH-C7: across a 16 x 7 room the far corners see each other; one wall hex on the straight line between
    two hexes of a row blocks them while its neighbours in the row still see round it."""
    room = [(q, r - q // 2) for q in range(16) for r in range(7)]
    hexmap = HexMap(room)
    assert hexmap.line_of_sight((0, 0), (15, -1)) and hexmap.line_of_sight((0, 6), (15, -7))
    line = [(q, 3 - q // 2) for q in (0, 2, 4, 6)]  # every second column, the same height
    blocked = HexMap([hex for hex in room if hex != line[2]])
    assert hexmap.line_of_sight(line[0], line[3]) and not blocked.line_of_sight(line[1], line[3])


def test_gh_c7_the_view_through_a_gap_one_hex_wide():
    """GH-C7: a wall column (q = 0) with one gap at (0, 0). The gap hex's four corners on the wall never end a
    line, so a sight line must pass inside its window (y strictly between -1 and 1 in the lattice):

        W |     .         from (-1, 0) (just left of the gap) the view fans out to the right;
        . (gap) .         from (-2, 1), lower down, the view is the mirror of (-1, 0)'s narrower upper half.
        W |     .
    """
    hexes = [(q, r) for q in range(-4, 5) for r in range(-5, 6) if abs(q + r) <= 6]
    hexmap = HexMap([hex for hex in hexes if hex[0] != 0 or hex == (0, 0)])
    assert [c for c in hexmap_corners((0, 0)) if not hexmap.corner_on_wall(c)] == [(2, 0), (-2, 0)]
    assert hexmap.sight_line((-1, 0), (1, 1)) == ((-4, -2), (4, 2))  # inside the window: y -0.5 .. 0.5
    seen = sorted(hex for hex in hexmap.open if hex[0] > 0 and hexmap.line_of_sight((-2, 1), hex))
    assert seen == [(1, -1), (1, 0), (2, -2), (2, -1), (2, 0), (3, -3), (3, -2), (3, -1), (3, 0), (4, -4), (4, -3),
                    (4, -2), (4, -1), (4, 0)]
    # (1, 1) is seen from (-1, 0) but not from (-2, 1): every line from there hits the gap's lower wall.
    assert hexmap.line_of_sight((-1, 0), (1, 1)) and not hexmap.line_of_sight((-2, 1), (1, 1))


def _brute_sight(hexmap: HexMap, a: tuple, b: tuple) -> bool:
    """GH-C7 read literally, against every wall of the map (no filing by cells)."""
    if a == b:
        return a in hexmap.open
    if hexmap.are_adjacent(a, b):
        return True
    if hex_distance(a, b) == 1:  # across a walled edge: round one of its ends, through the hex there
        return any(hex_distance(c, a) == hex_distance(c, b) == 1 and hexmap.are_adjacent(a, c)
                   and hexmap.are_adjacent(c, b) for c in hexmap.hexes)
    ends = {point for wall in hexmap.walls for point in wall}
    return any(not any(segments_touch(p, q, c, d) for c, d in hexmap.walls)
               for p in hexmap_corners(a) if p not in ends for q in hexmap_corners(b) if q not in ends)


@given(st.sets(st.sampled_from(DISC), max_size=8), st.sets(st.sampled_from(DISC), max_size=4),
       st.sampled_from(DISC), st.sampled_from(DISC))
def test_gh_c7_sight_matches_the_literal_rule_and_is_symmetric(walls, thin_at, a, b):
    """GH-C7: the filed-by-cell search answers exactly as the literal rule, both ways."""
    thin = [((q, r), (q, r + 1)) for q, r in sorted(thin_at) if (q, r + 1) in DISC]
    hexmap = HexMap([hex for hex in DISC if hex not in walls], thin_walls=thin)
    if a in hexmap and b in hexmap:
        assert hexmap.line_of_sight(a, b) == hexmap.line_of_sight(b, a) == _brute_sight(hexmap, a, b)


def test_gh_c1_a_line_through_solid_ground_is_blocked():
    """GH-C1: two hexes joined only by a chord across a missing hex do not see each other."""
    hexmap = HexMap([(0, 0), (2, -1)])
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


def _touch_by_fractions(a, b, c, d) -> bool:
    """Closed segments a-b and c-d share a point, solved with exact fractions (independent of the orientation test)."""
    from fractions import Fraction

    if a == b or c == d:  # a point: on the other segment, in fractions of its length
        (p,), (e, f) = ((a,), (c, d)) if a == b else ((c,), (a, b))
        if e == f:
            return p == e
        ex, ey = f[0] - e[0], f[1] - e[1]
        if (p[0] - e[0]) * ey - (p[1] - e[1]) * ex != 0:
            return False
        t = Fraction((p[0] - e[0]) * ex + (p[1] - e[1]) * ey, ex * ex + ey * ey)
        return 0 <= t <= 1
    rx, ry = b[0] - a[0], b[1] - a[1]
    sx, sy = d[0] - c[0], d[1] - c[1]
    denominator = rx * sy - ry * sx
    qx, qy = c[0] - a[0], c[1] - a[1]
    if denominator != 0:
        t = Fraction(qx * sy - qy * sx, denominator)
        u = Fraction(qx * ry - qy * rx, denominator)
        return 0 <= t <= 1 and 0 <= u <= 1
    if qx * ry - qy * rx != 0:
        return False  # parallel, not collinear
    length = rx * rx + ry * ry
    t0 = Fraction((c[0] - a[0]) * rx + (c[1] - a[1]) * ry, length)
    t1 = Fraction((d[0] - a[0]) * rx + (d[1] - a[1]) * ry, length)
    return max(min(t0, t1), 0) <= min(max(t0, t1), 1)


POINT = st.tuples(st.integers(-4, 4), st.integers(-4, 4))


@given(POINT, POINT, POINT, POINT)
def test_gh_c7_segments_touch_agrees_with_exact_fractions(a, b, c, d):
    """GH-C7: the integer orientation test says two closed segments touch exactly when exact fractions do."""
    assert segments_touch(a, b, c, d) == _touch_by_fractions(a, b, c, d)

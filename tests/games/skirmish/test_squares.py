"""``events.geometry.squares``: names, steps and the corner rule, costs, line of sight, cover.

Line of sight is exact; a hypothesis property checks it against a brute-force search over a fine
grid of points (which can only find fewer lines, never more).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.geometry.squares import (
    _blocked_segments,
    _segments_meet,
    square_adjacent,
    square_costs,
    square_cover,
    square_edge,
    square_first_blocking_edge,
    square_line_of_sight,
    square_name,
    square_neighbours,
    square_parse,
    square_step_block,
    square_step_cost,
    square_touched_points,
)


def wall(a: tuple, b: tuple) -> tuple:
    return square_edge(a, b)


def test_square_names_read_both_ways():
    assert [square_name(sq) for sq in ((0, 0), (2, 4), (25, 0), (26, 9))] == ["A1", "C5", "Z1", "AA10"]
    assert [square_parse(text) for text in ("A1", "c5", "AA10", "3,4", "A0", "11", "")] == [
        (0, 0), (2, 4), (26, 9), (3, 4), None, None, None]
    assert square_parse("C" + "9" * 5000) is None and square_parse("1," + "2" * 5000) is None  # never a ValueError


def test_sk_c2_a_square_has_up_to_8_neighbours():
    """SK-C2: 8 around a middle square, 3 in a corner of the grid."""
    assert len(square_neighbours((1, 1), 3, 3)) == 8
    assert sorted(square_neighbours((0, 0), 3, 3)) == [(0, 1), (1, 0), (1, 1)]


def test_sk_2_a_diagonal_is_refused_where_a_wall_ends_or_turns_a_corner():
    """SK-2: the wall between (1,0) and (1,1) (a horizontal edge from point (1,1) to (2,1)) ends at
    (2,1) and (1,1): the diagonals cutting those points are refused; others are free."""
    blocked = {wall((1, 0), (1, 1))}
    assert square_step_block((1, 0), (2, 1), blocked) == ("corner", (2, 1))
    assert square_step_block((0, 0), (1, 1), blocked) == ("corner", (1, 1))
    assert square_step_block((2, 0), (1, 1), blocked) == ("corner", (2, 1))
    assert square_step_block((2, 1), (3, 2), blocked) is None
    assert square_step_block((1, 0), (1, 1), blocked) == ("edge", wall((1, 0), (1, 1)))


def test_sk_c2_costs_double_into_doubled_squares_and_diagonals_cost_as_told():
    """SK-C2, SK-3, SK-4: cheapest costs on an open 3 × 3 grid, (1, 0) doubled."""
    costs = square_costs((0, 0), 3, 3, set(), 2, {(1, 0)}, 10, lambda sq: True)
    assert costs[(1, 0)] == (2, ((1, 0),))
    assert costs[(2, 0)][0] == 3
    assert costs[(1, 1)] == (2, ((1, 1),))
    ones = square_costs((0, 0), 3, 3, set(), 1, set(), 10, lambda sq: True)
    assert ones[(2, 2)] == (2, ((1, 1), (2, 2)))
    assert (2, 2) not in square_costs((0, 0), 3, 3, set(), 2, set(), 3, lambda sq: True)


def test_sk_c2_a_huge_budget_reaches_what_the_grid_holds_and_no_more():
    """SK-C2 (issue 12): the search is bounded by the grid; a budget of 10**18 finds what any ample one finds."""
    walls = {((0, 1), (1, 1)), ((1, 0), (1, 1))}
    huge = square_costs((0, 0), 4, 4, walls, 2, {(2, 2), (3, 3)}, 10**18, lambda sq: sq != (3, 0))
    ample = square_costs((0, 0), 4, 4, walls, 2, {(2, 2), (3, 3)}, 4 * 4 * 4, lambda sq: sq != (3, 0))
    assert huge == ample and len(huge) == 14  # every square but the start and the refused (3, 0)


def test_sk_c3_squares_across_a_wall_are_not_adjacent():
    """SK-C3: orthogonal neighbours with a wall between, or diagonal ones past a wall's end."""
    blocked = {wall((0, 0), (1, 0))}
    assert not square_adjacent((0, 0), (1, 0), blocked)
    assert not square_adjacent((0, 1), (1, 0), blocked)  # cuts (1, 1), the wall's lower end
    assert square_adjacent((0, 0), (0, 1), blocked)
    assert not square_adjacent((0, 0), (2, 0), set())


def test_sk_c3_a_line_that_only_touches_a_wall_is_blocked():
    """SK-C3: (0,0) and (2,2) meet only through the point (1,1)-(2,2) diagonal band; walls round
    (1,1) on all four sides touch every line that gets through."""
    ring = {wall((1, 1), (0, 1)), wall((1, 1), (2, 1)), wall((1, 1), (1, 0)), wall((1, 1), (1, 2))}
    assert not square_line_of_sight((0, 0), (2, 2), ring)
    assert square_line_of_sight((0, 0), (2, 0), ring)  # along the top row, above the ring
    # Diagonal neighbours: with walls on both sides of their shared point, every way is touched.
    corner = {wall((1, 0), (1, 1)), wall((0, 1), (1, 1))}
    assert not square_line_of_sight((0, 0), (1, 1), corner)
    assert square_line_of_sight((0, 0), (1, 1), {wall((1, 0), (1, 1))})  # past (0, 1)'s side


def test_sk_c3_sight_goes_from_any_point_to_any_point():
    """SK-C3: the line between the centres of (0,0) and (3,1) touches the end of the wall
    (1,1)|(2,1), but a line from lower in the first square to lower in the second passes."""
    blocked = {wall((1, 1), (2, 1))}
    assert square_first_blocking_edge((0, 0), (3, 1), blocked) == wall((1, 1), (2, 1))
    assert square_line_of_sight((0, 0), (3, 1), blocked)
    assert not square_line_of_sight((0, 1), (3, 1), blocked)  # both in row 1: every line crosses x = 2


def test_sk_c3_a_narrow_opening_is_found_exactly():
    """SK-C3: from (0,4) to (5,0) between these walls only a thin family of lines passes: a
    search over quarter points of the squares finds none, one over eighths does, and the exact
    search finds it without any grid of points."""
    blocked = {
        ((0, 1), (1, 1)), ((0, 3), (1, 3)), ((0, 4), (0, 5)), ((1, 1), (2, 1)), ((1, 3), (2, 3)), ((2, 1), (2, 2)),
        ((3, 0), (3, 1)), ((3, 1), (4, 1)), ((3, 6), (4, 6)), ((5, 5), (6, 5)), ((6, 2), (6, 3)),
    }
    assert not brute_sight((0, 4), (5, 0), blocked, 4)
    assert brute_sight((0, 4), (5, 0), blocked, 8)
    assert square_line_of_sight((0, 4), (5, 0), blocked)
    assert square_line_of_sight((5, 0), (0, 4), blocked)


def test_sk_c3_cover_from_the_best_corner():
    """SK-C3: a wall stub beside the line gives cover only if it screens from every corner."""
    # Target (4, 0); a wall on the right side of (2, 1) … below the line from the top corners.
    low_stub = {wall((2, 1), (2, 2))}
    cover, corner, edges, squares = square_cover((0, 0), (4, 0), low_stub, set())
    assert cover is False and corner is not None
    # A figure's square right between them screens every corner's fan.
    cover, _corner, edges, squares = square_cover((0, 0), (4, 0), set(), {(2, 0)})
    assert cover is True and squares == ((2, 0),)
    # An adjacent target never has cover, whatever stands around.
    assert square_cover((0, 0), (1, 1), set(), {(1, 0), (0, 1)})[0] is False


def test_sk_c3_a_wall_behind_the_target_gives_no_cover_but_one_in_front_does():
    """SK-C3 (reading): the target's far side against a wall is harmless; its near side is not."""
    behind = {wall((4, 0), (5, 0))}
    assert square_cover((0, 0), (4, 0), behind, set())[0] is False
    front = {wall((3, 0), (4, 0))}
    assert square_line_of_sight((0, 0), (4, 0), front) is False
    half = {wall((4, 0), (4, 1))}  # the target's bottom side, seen from above-left: a near side? no: far
    assert square_cover((0, 0), (4, 0), half, set())[0] is False


# --- properties --------------------------------------------------------------------------------------

W = H = 5
EDGES = sorted(
    [((x, y), (x + 1, y)) for x in range(W - 1) for y in range(H)]
    + [((x, y), (x, y + 1)) for x in range(W) for y in range(H - 1)]
)
SQUARES = st.tuples(st.integers(0, W - 1), st.integers(0, H - 1))


def brute_sight(a: tuple, b: tuple, blocked: set, k: int = 4) -> bool:
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0], b[0]) + 1, max(a[1], b[1]) + 1
    walls = _blocked_segments(blocked, k, (x0, y0, x1, y1))
    points_a = [(a[0] * k + i, a[1] * k + j, 1) for i in range(k + 1) for j in range(k + 1)]
    points_b = [(b[0] * k + i, b[1] * k + j, 1) for i in range(k + 1) for j in range(k + 1)]
    return any(
        not any(_segments_meet(p, q, f, s) for f, s, _e in walls) for p in points_a for q in points_b
    )


@settings(max_examples=120, deadline=None)
@given(st.sets(st.sampled_from(EDGES), max_size=18), SQUARES, SQUARES)
def test_sk_c3_line_of_sight_is_symmetric_and_never_misses_a_line_a_brute_search_finds(blocked, a, b):
    """SK-C3: exact LOS is symmetric, and whenever a brute search on a 1/4 grid of points finds a
    free segment, the exact search says there is line of sight."""
    seen = square_line_of_sight(a, b, blocked)
    assert seen == square_line_of_sight(b, a, blocked)
    if a != b and brute_sight(a, b, blocked):
        assert seen
    if not blocked:
        assert seen


def _reference_costs(start, width, height, blocked, diagonal_cost, doubled, budget, may_enter, corner_rule):
    """square_costs written with the step helpers it inlines (the behaviour it must keep)."""
    touched = square_touched_points(blocked) if corner_rule else set()
    best, buckets, done, cost = {start: (0, ())}, [[start]], set(), 0
    while cost < len(buckets):
        for square in sorted(set(buckets[cost])):
            if square in done or best[square][0] != cost:
                continue
            done.add(square)
            for near in square_neighbours(square, width, height):
                if near in done or not may_enter(near) or square_step_block(square, near, blocked, touched):
                    continue
                total = cost + square_step_cost(square, near, diagonal_cost, near in doubled)
                if total <= budget and (near not in best or best[near][0] > total):
                    best[near] = (total, best[square][1] + (near,))
                    buckets.extend([] for _ in range(total + 1 - len(buckets)))
                    buckets[total].append(near)
        cost += 1
    del best[start]
    return best


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 2), st.booleans(), st.integers(0, 14))
def test_sk_c2_square_costs_finds_the_same_costs_and_paths_as_its_step_helpers(seed, diagonal_cost, corner_rule, budget):
    """SK-C2, SK-2: the inlined search keeps every cost, path and tie of the step helpers on random 7 × 6 grids."""
    from events.rng import Rng

    rng = Rng(seed)
    width, height = 7, 6
    squares = [(x, y) for x in range(width) for y in range(height)]
    edges = [square_edge(a, b) for a in squares for b in squares if a < b and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1]
    blocked = {edge for edge in edges if rng.below(4) == 0}
    doubled = {sq for sq in squares if rng.below(5) == 0}
    avoid = {sq for sq in squares if rng.below(7) == 0} - {(3, 3)}
    args = ((3, 3), width, height, blocked, diagonal_cost, doubled, budget, lambda sq: sq not in avoid, corner_rule)
    assert square_costs(*args) == _reference_costs(*args)

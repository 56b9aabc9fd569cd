"""Squares on a grid with walls on their edges: steps, costs, line of sight and cover.

A square is ``(x, y)``: column ``x`` from 0 at the left, row ``y`` from 0 at the top. Square
``(x, y)`` covers the points ``[x, x+1] × [y, y+1]``; its four corners are integer *points*.
An *edge* is the side two orthogonally neighbouring squares share, written as the sorted pair of
those squares; its segment runs between two corner points. Walls and closed doors are sets of
edges ("blocked" edges below).

Every function is integer-only: no float ever appears. Line of sight works on exact rational
points written as homogeneous integer triples ``(X, Y, W)`` with ``W > 0`` (the point
``(X/W, Y/W)``), so CPython and Brython agree on every answer.

Rules of the skirmish system (``events/games/skirmish``) these functions implement:

- a diagonal step is refused when a blocked edge touches the corner point it cuts (SK-2);
- line of sight exists when *some* segment from a point of one square to a point of the other
  neither crosses nor touches a blocked edge (SK-C3); the search is exact (see
  ``square_line_of_sight``);
- cover is traced from a corner of the attacker's square (SK-C3; see ``square_cover``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

#: The 8 steps, orthogonal first, each as (dx, dy).
SQUARE_DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _gcd(a: int, b: int) -> int:
    """Euclid's algorithm (``math`` is not in the browser's trimmed standard library)."""
    a, b = abs(a), abs(b)
    while b:
        a, b = b, a % b
    return a


# --- names -------------------------------------------------------------------------------------------


def square_name(square: tuple) -> str:
    """``(2, 0)`` -> ``"C1"``: column letters (A…Z, AA…), row numbers from 1."""
    x, y = square
    letters = ""
    x += 1
    while x > 0:
        x, rest = divmod(x - 1, 26)
        letters = LETTERS[rest] + letters
    return f"{letters}{y + 1}"


def square_parse(text: str) -> tuple | None:
    """``"C1"`` or ``"2,0"`` -> ``(2, 0)``; None if the text names no square (nor does one of over 16 characters)."""
    text = text.strip()
    if len(text) > 16:  # no grid has names that long, and int() of thousands of digits raises
        return None
    if "," in text:
        left, _, right = text.partition(",")
        try:
            return (int(left), int(right))
        except ValueError:
            return None
    letters = ""
    index = 0
    while index < len(text) and text[index].upper() in LETTERS:
        letters += text[index].upper()
        index += 1
    digits = text[index:]
    if not letters or not digits.isdigit() or int(digits) < 1:
        return None
    x = 0
    for letter in letters:
        x = x * 26 + LETTERS.index(letter) + 1
    return (x - 1, int(digits) - 1)


def square_edge_name(edge: tuple) -> str:
    """``((2, 0), (3, 0))`` -> ``"C1|D1"``."""
    return f"{square_name(edge[0])}|{square_name(edge[1])}"


# --- squares, edges, points --------------------------------------------------------------------------


def square_inside(square: tuple, width: int, height: int) -> bool:
    return 0 <= square[0] < width and 0 <= square[1] < height


def square_neighbours(square: tuple, width: int, height: int) -> tuple:
    """The up to 8 squares around ``square`` on a ``width`` × ``height`` grid, ignoring walls."""
    x, y = square
    return tuple(
        (x + dx, y + dy) for dx, dy in SQUARE_DIRECTIONS if 0 <= x + dx < width and 0 <= y + dy < height
    )


def square_is_diagonal(a: tuple, b: tuple) -> bool:
    return a[0] != b[0] and a[1] != b[1]


def square_edge(a: tuple, b: tuple) -> tuple:
    """The edge two orthogonal neighbours share, as the sorted pair of squares."""
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        raise ValueError(f"{square_name(a)} and {square_name(b)} are not orthogonal neighbours")
    return (a, b) if a < b else (b, a)


def square_edge_points(edge: tuple) -> tuple:
    """The two corner points an edge runs between, sorted."""
    (x1, y1), (x2, y2) = edge
    if x1 != x2:  # side by side: a vertical edge at x = max
        x = max(x1, x2)
        return ((x, y1), (x, y1 + 1))
    y = max(y1, y2)
    return ((x1, y), (x1 + 1, y))


def square_corners(square: tuple) -> tuple:
    """The four corner points of a square, clockwise from the top left."""
    x, y = square
    return ((x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1))


def square_cut_point(a: tuple, b: tuple) -> tuple:
    """The corner point a diagonal step from ``a`` to ``b`` passes through."""
    return (max(a[0], b[0]), max(a[1], b[1]))


def square_touched_points(blocked: Any) -> set:
    """Every corner point that a blocked edge touches (its two ends)."""
    points = set()
    for edge in blocked:
        first, second = square_edge_points(edge)
        points.add(first)
        points.add(second)
    return points


def square_edges_at(point: tuple, blocked: Any) -> list:
    """The blocked edges that touch a corner point, sorted."""
    return sorted(edge for edge in blocked if point in square_edge_points(edge))


# --- steps and costs ---------------------------------------------------------------------------------


def square_step_block(a: tuple, b: tuple, blocked: Any, touched: set | None = None) -> tuple | None:
    """Why a step between neighbours is impossible, or None.

    ``("edge", edge)``: an orthogonal step through a blocked edge (SK-1, SK-6).
    ``("corner", point)``: a diagonal step cutting a corner point that a blocked edge touches
    (SK-2: past a corner or the end of a wall).
    """
    if square_is_diagonal(a, b):
        point = square_cut_point(a, b)
        if touched is None:
            touched = square_touched_points(blocked)
        return ("corner", point) if point in touched else None
    edge = square_edge(a, b)
    return ("edge", edge) if edge in blocked else None


def square_adjacent(a: tuple, b: tuple, blocked: Any, touched: set | None = None) -> bool:
    """Neighbours that no wall separates: orthogonal through a free edge, diagonal past a free
    corner point (squares across a wall are not adjacent, SK-C3)."""
    if a == b or max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
        return False
    return square_step_block(a, b, blocked, touched) is None


def square_step_cost(a: tuple, b: tuple, diagonal_cost: int, doubled: bool) -> int:
    """Movement points of one step: 1 orthogonal, ``diagonal_cost`` diagonal, ×2 into ``doubled``."""
    cost = diagonal_cost if square_is_diagonal(a, b) else 1
    return cost * 2 if doubled else cost


def square_costs(
    start: tuple,
    width: int,
    height: int,
    blocked: Any,
    diagonal_cost: int,
    doubled: Any,
    budget: int,
    may_enter: Callable[[tuple], bool],
    corner_rule: bool = True,
) -> dict:
    """Cheapest cost and path to every square reachable from ``start`` within ``budget``.

    Returns ``{square: (cost, path)}`` with the path from the first step to the square (start
    excluded); ``start`` itself is not included. ``doubled`` holds the squares whose entry costs
    double; ``may_enter(square)`` refuses pits, enemies and the like; ``corner_rule=False`` lets
    diagonal steps cut corners (only to explain a refusal, SK-2). Dijkstra with one bucket per
    cost (costs are small integers, so no heap is needed); squares are settled in sorted order
    within a bucket and a path is only replaced by a strictly cheaper one, so among equally cheap
    paths the same one is found in every runtime.
    """
    # Bounded by the grid, never by ``budget`` (issue 12): no cheapest path takes more steps than
    # there are squares, nor costs more than that many of the dearest step (a doubled diagonal).
    budget = min(budget, width * height * 2 * max(1, diagonal_cost))
    touched = square_touched_points(blocked) if corner_rule else set()
    best: dict = {start: (0, ())}
    buckets: list = [[start]]
    cost = 0
    done = set()
    # The steps of square_neighbours, square_step_block and square_step_cost, inlined: this loop
    # runs for every square of the grid on every Move (issue 12's 50 ms budget).
    while cost < len(buckets):
        bucket = sorted(set(buckets[cost]))
        for square in bucket:
            if square in done or best[square][0] != cost:
                continue
            done.add(square)
            path = best[square][1]
            x, y = square
            for dx, dy in SQUARE_DIRECTIONS:
                nx, ny = x + dx, y + dy
                if not (0 <= nx < width and 0 <= ny < height):
                    continue
                near = (nx, ny)
                if near in done or not may_enter(near):
                    continue
                if dx and dy:  # diagonal: refused past a corner point a blocked edge touches (SK-2)
                    if (x if dx < 0 else nx, y if dy < 0 else ny) in touched:
                        continue
                    step = diagonal_cost
                else:
                    if ((square, near) if square < near else (near, square)) in blocked:
                        continue
                    step = 1
                total = cost + (2 * step if near in doubled else step)
                if total > budget:
                    continue
                known = best.get(near)
                if known is not None and known[0] <= total:
                    continue
                best[near] = (total, path + (near,))
                while len(buckets) <= total:
                    buckets.append([])
                buckets[total].append(near)
        cost += 1
    del best[start]
    return best


# --- exact rational geometry (homogeneous integer points) ----------------------------------------------


def _orient(p: tuple, q: tuple, r: tuple) -> int:
    """Sign of the turn p -> q -> r for homogeneous points with positive weights: 1, 0 or -1."""
    px, py, pw = p
    qx, qy, qw = q
    rx, ry, rw = r
    det = px * (qy * rw - qw * ry) - py * (qx * rw - qw * rx) + pw * (qx * ry - qy * rx)
    return (det > 0) - (det < 0)


def _between(value: tuple, low: tuple, high: tuple) -> bool:
    """low <= value <= high for fractions (n, d) with d > 0, in either order of low/high."""
    if low[0] * high[1] > high[0] * low[1]:
        low, high = high, low
    return low[0] * value[1] <= value[0] * low[1] and value[0] * high[1] <= high[0] * value[1]


def _segments_meet(p: tuple, q: tuple, a: tuple, b: tuple) -> bool:
    """Do the closed segments pq and ab share a point? (Touching counts.)"""
    o1, o2 = _orient(p, q, a), _orient(p, q, b)
    o3, o4 = _orient(a, b, p), _orient(a, b, q)
    if p[0] * q[2] == q[0] * p[2] and p[1] * q[2] == q[1] * p[2]:  # pq is a single point
        if o3 != 0:
            return False
        return _between((p[0], p[2]), (a[0], a[2]), (b[0], b[2])) and _between(
            (p[1], p[2]), (a[1], a[2]), (b[1], b[2])
        )
    if o1 == 0 and o2 == 0:  # collinear: the projections must overlap
        axis = 0 if p[0] * q[2] != q[0] * p[2] else 1
        lo1, hi1 = (p[axis], p[2]), (q[axis], q[2])
        if lo1[0] * hi1[1] > hi1[0] * lo1[1]:
            lo1, hi1 = hi1, lo1
        lo2, hi2 = (a[axis], a[2]), (b[axis], b[2])
        if lo2[0] * hi2[1] > hi2[0] * lo2[1]:
            lo2, hi2 = hi2, lo2
        return lo1[0] * hi2[1] <= hi2[0] * lo1[1] and lo2[0] * hi1[1] <= hi1[0] * lo2[1]
    return o1 * o2 <= 0 and o3 * o4 <= 0


def _hits_wall(p: tuple, q: tuple, first: tuple, second: tuple) -> bool:
    """``_segments_meet`` for an axis-parallel wall with integer ends (weight 1), faster: the
    segment's ends on one denominator, then one crossing point compared with the wall's span."""
    px, py, pw = p
    qx, qy, qw = q
    d = pw * qw
    if first[0] == second[0]:  # a vertical wall x = c
        c, lo, hi = first[0] * d, first[1] * d, second[1] * d
        u0, u1, v0, v1 = px * qw, qx * pw, py * qw, qy * pw
    else:  # a horizontal wall y = c
        c, lo, hi = first[1] * d, first[0] * d, second[0] * d
        u0, u1, v0, v1 = py * qw, qy * pw, px * qw, qx * pw
    s0, s1 = u0 - c, u1 - c
    if (s0 > 0 and s1 > 0) or (s0 < 0 and s1 < 0):
        return False
    if s0 == 0 and s1 == 0:  # along the wall's line: the spans must overlap
        return min(v0, v1) <= hi and max(v0, v1) >= lo
    num = v0 * (u1 - u0) + (c - u0) * (v1 - v0)
    den = u1 - u0
    if den < 0:
        num, den = -num, -den
    return lo * den <= num <= hi * den


def _clip_line(point: tuple, direction: tuple, box: tuple) -> tuple | None:
    """The parameters (t_in, t_out), as fractions, where point + t·direction crosses a closed box."""
    low: tuple | None = None
    high: tuple | None = None
    for axis in (0, 1):
        start, step = point[axis], direction[axis]
        b0, b1 = box[axis], box[axis + 2]
        if step == 0:
            if start < b0 or start > b1:
                return None
            continue
        t0, t1 = (b0 - start, step), (b1 - start, step)
        if step < 0:
            t0, t1 = (-t0[0], -step), (-t1[0], -step)
            t0, t1 = t1, t0
        if low is None or t0[0] * low[1] > low[0] * t0[1]:
            low = t0
        if high is None or t1[0] * high[1] < high[0] * t1[1]:
            high = t1
    if low is None or high is None or low[0] * high[1] > high[0] * low[1]:
        return None
    return (low, high)


def _at(point: tuple, direction: tuple, t: tuple) -> tuple:
    n, d = t
    return (d * point[0] + n * direction[0], d * point[1] + n * direction[1], d)


def _blocked_segments(blocked: Any, scale: int, box: tuple) -> list:
    """Blocked edges meeting a closed box (base units), as scaled homogeneous endpoint pairs."""
    x0, y0, x1, y1 = box
    out = []
    for edge in sorted(blocked):
        (ax, ay), (bx, by) = square_edge_points(edge)
        if bx < x0 or ax > x1 or by < y0 or ay > y1:
            continue
        out.append(((ax * scale, ay * scale, 1), (bx * scale, by * scale, 1), edge))
    return out


def _free_between(point: tuple, direction: tuple, box_a: tuple, box_b: tuple, walls: list) -> bool:
    """Along the line point + t·direction: is the stretch joining the two boxes free of walls?"""
    ta = _clip_line(point, direction, box_a)
    tb = _clip_line(point, direction, box_b)
    if ta is None or tb is None:
        return False
    (a_in, a_out), (b_in, b_out) = ta, tb
    if a_out[0] * b_in[1] <= b_in[0] * a_out[1]:
        p, q = _at(point, direction, a_out), _at(point, direction, b_in)
    elif b_out[0] * a_in[1] <= a_in[0] * b_out[1]:
        p, q = _at(point, direction, b_out), _at(point, direction, a_in)
    else:  # the boxes overlap along the line
        later = a_in if a_in[0] * b_in[1] >= b_in[0] * a_in[1] else b_in
        p = q = _at(point, direction, later)
    for first, second, _edge in walls:
        if _hits_wall(p, q, first, second):
            return False
    return True


def square_line_of_sight(a: tuple, b: tuple, blocked: Any) -> bool:
    """Is there a segment from a point of square ``a`` to a point of square ``b`` that neither
    crosses nor touches a blocked edge (SK-1, SK-6, SK-C3)? Pits, terrain and figures never block.

    Exact. The segments that avoid every (closed) wall form an open set, so if one exists a whole
    family does, and among the lines that carry them is one arbitrarily close to a line through
    two *critical points* (corners of the two squares and ends of the walls in between). So the
    search takes every line through two critical points that meets both squares and nudges it by
    a rational amount too small to pass any other critical point: turned a little either way
    about a point between two consecutive critical points on it, or shifted a little either way.
    Each nudged line is then checked exactly. A few sample segments (centres, corners, midpoints)
    are tried first, since a visible square is usually found by one of them at once.
    """
    if a == b:
        return True
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:  # the only way across is the shared edge
        return square_edge(a, b) not in blocked
    # Every segment from a point of a to a point of b lies in the convex hull of the two squares, so
    # a wall that does not meet that hull can neither block one nor shape the critical lines: only
    # the walls meeting it are searched (the same answer; a thin band, not the whole bounding box).
    hull = _hull(list(square_corners(a) + square_corners(b)))
    blocked = [edge for edge in blocked if _clip_segment(hull, *square_edge_points(edge)) is not None]
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0], b[0]) + 1, max(a[1], b[1]) + 1
    span2 = (x1 - x0) ** 2 + (y1 - y0) ** 2
    nudge = 4 * (span2 + 1)  # one part in ``nudge`` moves a line less than any critical point's distance
    scale = 4 * nudge
    walls = _blocked_segments(blocked, scale, (x0, y0, x1, y1))
    if not walls:
        return True
    box_a = (a[0] * scale, a[1] * scale, (a[0] + 1) * scale, (a[1] + 1) * scale)
    box_b = (b[0] * scale, b[1] * scale, (b[0] + 1) * scale, (b[1] + 1) * scale)
    # Sample segments first: the centre and the corners of each square, centre first.
    quarter = scale // 4
    samples_a = _samples(a, scale, quarter)
    samples_b = _samples(b, scale, quarter)
    for p in samples_a:
        for q in samples_b:
            if not any(_hits_wall(p, q, first, second) for first, second, _edge in walls):
                return True
    # The exact search over nudged critical lines.
    points = set(square_corners(a)) | set(square_corners(b))
    for first, second, _edge in walls:
        points.add((first[0] // scale, first[1] // scale))
        points.add((second[0] // scale, second[1] // scale))
    critical = sorted(points)
    corners_a, corners_b = square_corners(a), square_corners(b)
    seen = set()
    for i, u in enumerate(critical):
        for v in critical[i + 1 :]:
            la, lb = v[1] - u[1], u[0] - v[0]
            lc = -(la * u[0] + lb * u[1])
            g = _gcd(_gcd(la, lb), lc)
            key = (la // g, lb // g, lc // g)
            if key[0] < 0 or (key[0] == 0 and key[1] < 0):
                key = (-key[0], -key[1], -key[2])
            if key in seen:
                continue
            seen.add(key)
            if not (_line_meets(la, lb, lc, corners_a) and _line_meets(la, lb, lc, corners_b)):
                continue
            if _nudged_free(u, (v[0] - u[0], v[1] - u[1]), (la, lb, lc), critical, nudge, scale, box_a, box_b, walls):
                return True
    return False


def _samples(square: tuple, scale: int, quarter: int) -> list:
    x, y = square[0] * scale, square[1] * scale
    centre = (x + 2 * quarter, y + 2 * quarter, 1)
    others = [(x + i * quarter, y + j * quarter, 1) for i in (0, 4) for j in (0, 4)]
    return [centre] + others


def _line_meets(la: int, lb: int, lc: int, corners: tuple) -> bool:
    signs = {(la * x + lb * y + lc > 0) - (la * x + lb * y + lc < 0) for x, y in corners}
    return not (signs == {1} or signs == {-1})


def _nudged_free(
    u: tuple, d: tuple, line: tuple, critical: list, nudge: int, scale: int, box_a: tuple, box_b: tuple, walls: list
) -> bool:
    la, lb, lc = line
    on_line = sorted(
        {(p[0] - u[0]) * d[0] + (p[1] - u[1]) * d[1] for p in critical if la * p[0] + lb * p[1] + lc == 0}
    )
    perp = (-d[1], d[0])
    ux, uy = u[0] * scale, u[1] * scale
    dd = d[0] * d[0] + d[1] * d[1]
    candidates = []
    shift = scale // nudge
    for sign in (1, -1):  # shifted a little either way
        candidates.append(((ux + sign * perp[0] * shift, uy + sign * perp[1] * shift), d))
    for first, second in zip(on_line, on_line[1:]):  # turned a little about a point between two
        # The pivot u + d·(first + second) / (2·|d|²), scaled; ``scale`` is a multiple of 2, not of
        # |d|², so the pivot is kept as a homogeneous point and the line through it as such.
        num = first + second
        den = 2 * dd
        pivot = (ux * den + d[0] * num * scale, uy * den + d[1] * num * scale, den)
        for sign in (1, -1):
            turned = (nudge * d[0] + sign * perp[0], nudge * d[1] + sign * perp[1])
            candidates.append((pivot, turned))
    for origin, direction in candidates:
        if len(origin) == 3:
            # Scale the boxes and walls to the pivot's denominator instead of dividing.
            w = origin[2]
            point = (origin[0], origin[1])
            ba = tuple(c * w for c in box_a)
            bb = tuple(c * w for c in box_b)
            ws = [((f[0] * w, f[1] * w, 1), (s[0] * w, s[1] * w, 1), e) for f, s, e in walls]
            if _free_between(point, direction, ba, bb, ws):
                return True
        elif _free_between(origin, direction, box_a, box_b, walls):
            return True
    return False


def square_first_blocking_edge(a: tuple, b: tuple, blocked: Any) -> tuple | None:
    """The blocked edge the centre-to-centre segment meets first (for explaining a missing line)."""
    scale = 2
    p = (a[0] * 2 + 1, a[1] * 2 + 1, 1)
    q = (b[0] * 2 + 1, b[1] * 2 + 1, 1)
    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
    x1, y1 = max(a[0], b[0]) + 1, max(a[1], b[1]) + 1
    hits = []
    for first, second, edge in _blocked_segments(blocked, scale, (x0, y0, x1, y1)):
        if _hits_wall(p, q, first, second):
            mx, my = (first[0] + second[0]), (first[1] + second[1])  # twice the edge's midpoint
            hits.append(((mx - 2 * p[0]) ** 2 + (my - 2 * p[1]) ** 2, edge))
    return min(hits)[1] if hits else None


# --- cover -------------------------------------------------------------------------------------------


def _hull(points: list) -> list:
    """Convex hull of integer points, counter-clockwise in (x, y) (monotone chain)."""
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o: tuple, a: tuple, b: tuple) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def _clip_segment(hull: list, a: tuple, b: tuple) -> tuple | None:
    """The part of segment ab (integer points) inside a closed convex polygon: (s_in, s_out)
    fractions of the way from a to b, or None."""
    low, high = (0, 1), (1, 1)
    dx, dy = b[0] - a[0], b[1] - a[1]
    for i, v in enumerate(hull):
        w = hull[(i + 1) % len(hull)]
        ex, ey = w[0] - v[0], w[1] - v[1]
        # inside: cross(e, z - v) >= 0 with z = a + s·(b - a)
        base = ex * (a[1] - v[1]) - ey * (a[0] - v[0])
        slope = ex * dy - ey * dx
        if slope == 0:
            if base < 0:
                return None
            continue
        bound = (-base, slope) if slope > 0 else (base, -slope)
        if slope > 0:  # s >= bound
            if bound[0] * low[1] > low[0] * bound[1]:
                low = bound
        elif bound[0] * high[1] < high[0] * bound[1]:  # s <= bound
            high = bound
    if low[0] * high[1] > high[0] * low[1]:
        return None
    return (low, high)


def _far_sides(corner: tuple, target: tuple) -> set:
    """The sides of the target square that face away from ``corner`` (rays leave the square there)."""
    x, y = target
    cx, cy = corner
    far = set()
    if cx > x:
        far.add("left")
    if cx < x + 1:
        far.add("right")
    if cy > y:
        far.add("top")
    if cy < y + 1:
        far.add("bottom")
    return far


def _sides_at(point: tuple, target: tuple) -> set:
    """The sides of the target square a rational point ``(X, Y, D)`` lies on."""
    x, y = target
    px, py, d = point
    sides = set()
    if y * d <= py <= (y + 1) * d:
        if px == x * d:
            sides.add("left")
        if px == (x + 1) * d:
            sides.add("right")
    if x * d <= px <= (x + 1) * d:
        if py == y * d:
            sides.add("top")
        if py == (y + 1) * d:
            sides.add("bottom")
    return sides


def _wall_screens(corner: tuple, target: tuple, hull: list, edge: tuple) -> bool:
    """Does a line from ``corner`` to some point of ``target`` pass this blocked edge (SK-C3)?

    Such a line meets the edge somewhere before it ends in the target square. Its end may lie on
    the square's far sides, the ones facing away from the corner, so a wall touching only those
    (a wall behind the target) gives no cover; anything else the fan of lines meets does.
    """
    a, b = square_edge_points(edge)
    clipped = _clip_segment(hull, a, b)
    if clipped is None:
        return False
    (n0, d0), (n1, d1) = clipped
    far = _far_sides(corner, target)
    tx, ty = target
    target_sides = {
        ((tx, ty), (tx + 1, ty)): "top", ((tx + 1, ty), (tx + 1, ty + 1)): "right",
        ((tx, ty + 1), (tx + 1, ty + 1)): "bottom", ((tx, ty), (tx, ty + 1)): "left",
    }
    if n0 * d1 != n1 * d0:  # a stretch of the edge: only a far side of the target is harmless
        side = target_sides.get((a, b))
        return side is None or side not in far
    # A single point (X/D, Y/D) of the edge: harmless only if it lies on a far side of the target.
    px, py, den = a[0] * d0 + n0 * (b[0] - a[0]), a[1] * d0 + n0 * (b[1] - a[1]), d0
    sides = _sides_at((px, py, den), target)
    return not sides or not (sides & far)


def _square_screens(hull: list, square: tuple) -> bool:
    """Does the fan from a corner to the target pass through the inside of ``square``?

    Separating axes on the closed fan and the open square: touching is not passing.
    """
    corners = square_corners(square)
    axes = [(1, 0), (0, 1)]
    for i, v in enumerate(hull):
        w = hull[(i + 1) % len(hull)]
        axes.append((-(w[1] - v[1]), w[0] - v[0]))
    for ax, ay in axes:
        fan = [ax * x + ay * y for x, y in hull]
        box = [ax * x + ay * y for x, y in corners]
        if max(fan) <= min(box) or max(box) <= min(fan):
            return False
    return True


def square_cover_from(corner: tuple, target: tuple, blocked: Any, screens: Any) -> tuple:
    """What gives ``target`` cover against lines drawn from one corner point (SK-C3).

    Returns the sorted blocked edges and screening squares (figures, low objects) that some line
    from ``corner`` to a point of ``target`` passes; empty means no cover from this corner.
    """
    hull = _hull([corner] + list(square_corners(target)))
    edges = tuple(edge for edge in sorted(blocked) if _wall_screens(corner, target, hull, edge))
    squares = tuple(square for square in sorted(screens) if square != target and _square_screens(hull, square))
    if target in screens:
        squares = squares + (target,)
    return edges, squares


def square_cover(attacker: tuple, target: tuple, blocked: Any, screens: Any) -> tuple:
    """Cover of ``target`` against ``attacker`` (SK-C3): ``(cover, corner, edges, squares)``.

    The attacker picks the corner of its square that gives the least cover, so the target has
    cover only if every corner's lines pass something; ``corner`` is the attacker's best corner
    (the first clear one, else the one with the fewest things in the way) and ``edges``/``squares``
    what its lines pass. An adjacent target (not across a wall) never has cover. ``screens`` are
    the squares whose inside blocks a cover line: other figures' squares and low objects, minus
    the low objects the caller must ignore (the attacker's own and adjacent squares).
    """
    if square_adjacent(attacker, target, blocked):
        return (False, None, (), ())
    best = None
    for corner in square_corners(attacker):
        edges, squares = square_cover_from(corner, target, blocked, screens)
        if not edges and not squares:
            return (False, corner, (), ())
        count = len(edges) + len(squares)
        if best is None or count < best[0]:
            best = (count, corner, edges, squares)
    return (True, best[1], best[2], best[3])  # type: ignore[index]

"""A hex *map*: which hexes exist, walls between them, line of sight, range and costed paths.

gloomhaven-1, frozen: a1151df's ``events/geometry/hexmap.py``, its imports pointed at ``events.games.gloomhaven.v1``
(see its docstring). Never edit it: gloomhaven-1 logs replay and audit through it, indefinitely.

``hexgrid`` knows the infinite grid; a map is a finite set of hexes on it. Everything off the map
(and every hex listed as a wall) is solid: an edge between a map hex and a solid hex is a wall,
and so is each *thin wall* listed as a pair of map hexes. Two hexes across a wall are not
adjacent, so range counts around walls (Gloomhaven GH-C1).

Hexes are flat-topped and axial (q, r); the neighbours of (q, r) are N (q, r-1), S (q, r+1),
NE (q+1, r-1), SE (q+1, r), NW (q-1, r), SW (q-1, r+1) — the six ``HEX_DIRECTIONS``.

Line of sight is traced corner to corner with integers only. A hex's centre is (3q, 2r + q) in
units of half a side across and half a height down; its corners are the centre plus
(±2, 0) and (±1, ±1). That is an affine image of the real drawing, and affine maps keep which
segments cross, so exact integer orientation tests decide line of sight in CPython and Brython
alike (no float leaves this module).
"""

from __future__ import annotations

from events.geometry.hexgrid import HEX_DIRECTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

CORNER_OFFSETS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
DIRECTION_NAMES = {(0, -1): "N", (0, 1): "S", (1, -1): "NE", (1, 0): "SE", (-1, 0): "NW", (-1, 1): "SW"}


def hexmap_center(hex: tuple) -> tuple:
    """The hex's centre in the integer corner lattice (not pixels: see the module docstring)."""
    q, r = hex
    return (3 * q, 2 * r + q)


def hexmap_corners(hex: tuple) -> tuple:
    x, y = hexmap_center(hex)
    return tuple((x + dx, y + dy) for dx, dy in CORNER_OFFSETS)


def hexmap_edge(a: tuple, b: tuple) -> tuple:
    """The two corners two neighbouring hexes share, sorted (the edge between them)."""
    shared = sorted(set(hexmap_corners(a)) & set(hexmap_corners(b)))
    if len(shared) != 2:
        raise ValueError(f"hexes {list(a)} and {list(b)} are not neighbours")
    return (shared[0], shared[1])


def _orient(a: tuple, b: tuple, c: tuple) -> int:
    value = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (value > 0) - (value < 0)


def _on_segment(a: tuple, b: tuple, p: tuple) -> bool:
    """p (collinear with a-b) lies on the closed segment a-b."""
    return min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


def segments_touch(a: tuple, b: tuple, c: tuple, d: tuple) -> bool:
    """The closed segments a-b and c-d share at least one point (crossing, touching or overlapping)."""
    o1, o2, o3, o4 = _orient(a, b, c), _orient(a, b, d), _orient(c, d, a), _orient(c, d, b)
    if o1 != o2 and o3 != o4:
        return True
    return (
        (o1 == 0 and _on_segment(a, b, c)) or (o2 == 0 and _on_segment(a, b, d))
        or (o3 == 0 and _on_segment(c, d, a)) or (o4 == 0 and _on_segment(c, d, b))
    )


def _round_axial(qn: int, rn: int, den: int) -> tuple:
    """Cube rounding of the fractional hex (qn/den, rn/den), in integers (Red Blob Games)."""
    sn = -qn - rn

    def nearest(n: int) -> int:
        return (2 * n + den) // (2 * den)

    q, r, s = nearest(qn), nearest(rn), nearest(sn)
    dq, dr, ds = abs(q * den - qn), abs(r * den - rn), abs(s * den - sn)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return (q, r)


class HexMap:
    """The hexes of a map, its walls, and questions about them.

    ``closed`` hexes (closed doors) are on the map but act as walls for line of sight and range,
    and are never passed by ``adjacent`` unless asked (``through_closed``).
    """

    def __init__(self, hexes: Iterable, thin_walls: Iterable = (), closed: Iterable = ()) -> None:
        self.hexes = frozenset(hexes)
        self.closed = frozenset(closed)
        self.thin = frozenset(frozenset(pair) for pair in thin_walls)
        open_hexes = self.hexes - self.closed
        self.open = open_hexes
        near: dict = {}
        near_all: dict = {}
        for hex in sorted(self.hexes):
            steps = []
            steps_all = []
            for dq, dr in HEX_DIRECTIONS:
                other = (hex[0] + dq, hex[1] + dr)
                if other not in self.hexes or frozenset((hex, other)) in self.thin:
                    continue
                steps_all.append(other)
                if hex not in self.closed and other not in self.closed:
                    steps.append(other)
            near[hex] = tuple(sorted(steps))
            near_all[hex] = tuple(sorted(steps_all))
        self._near = near
        self._near_all = near_all
        walls = set()
        for hex in sorted(open_hexes):
            for dq, dr in HEX_DIRECTIONS:
                other = (hex[0] + dq, hex[1] + dr)
                if other not in open_hexes or frozenset((hex, other)) in self.thin:
                    walls.add(hexmap_edge(hex, other))
        self.walls = tuple(sorted(walls))
        self._los: dict = {}
        self._dist: dict = {}

    def __contains__(self, hex: tuple) -> bool:
        return hex in self.hexes

    def adjacent(self, hex: tuple, through_closed: bool = False) -> tuple:
        """Neighbours on the map not across a wall, sorted (closed doors only if asked)."""
        table = self._near_all if through_closed else self._near
        return table.get(hex, ())

    def are_adjacent(self, a: tuple, b: tuple) -> bool:
        return b in self._near.get(a, ())

    def distances(self, start: tuple) -> dict:
        """Hexes counted around walls (not through them) from ``start``: hex -> steps (range, proximity)."""
        known = self._dist.get(start)
        if known is not None:
            return known
        out = {start: 0}
        frontier = [start]
        while frontier:
            following = []
            for hex in frontier:
                for step in self._near.get(hex, ()):
                    if step not in out:
                        out[step] = out[hex] + 1
                        following.append(step)
            frontier = following
        self._dist[start] = out
        return out

    def range_between(self, a: tuple, b: tuple) -> int | None:
        """Range from a to b counted around walls; None if walls separate them entirely."""
        return self.distances(a).get(b)

    def line_of_sight(self, a: tuple, b: tuple) -> bool:
        """Some line from a corner of ``a`` to a corner of ``b`` touches no wall (GH-C1).

        A wall touched only at the line's own end corners does not block (two hexes side by side
        in a corridor one hex wide see each other); a wall touched anywhere else does, and so does
        a line whose inside runs through solid ground.
        """
        if a == b:
            return True
        key = (a, b) if a <= b else (b, a)
        known = self._los.get(key)
        if known is None:
            known = any(
                self._clear(p, q) for p in hexmap_corners(key[0]) for q in hexmap_corners(key[1])
            )
            self._los[key] = known
        return known

    def line_of_sight_pairs(self, a: tuple, b: tuple) -> tuple:
        """Every clear corner-to-corner line between two hexes (for showing *why* they see each other)."""
        return tuple((p, q) for p in hexmap_corners(a) for q in hexmap_corners(b) if self._clear(p, q))

    def _clear(self, p: tuple, q: tuple) -> bool:
        low_x, high_x = min(p[0], q[0]), max(p[0], q[0])
        low_y, high_y = min(p[1], q[1]), max(p[1], q[1])
        for c, d in self.walls:
            if max(c[0], d[0]) < low_x or min(c[0], d[0]) > high_x or max(c[1], d[1]) < low_y or min(c[1], d[1]) > high_y:
                continue
            if not segments_touch(p, q, c, d):
                continue
            # Touching at an end corner of the line is allowed; anywhere else blocks.
            if p == q:
                continue
            if _touches_inside(p, q, c, d):
                return False
        if p == q:
            return True
        # No wall touched inside the line: it lies wholly on the map or wholly off it.
        mx, my = p[0] + q[0], p[1] + q[1]  # twice the midpoint
        hex = _round_axial(2 * mx, 3 * my - mx, 12)
        return hex in self.open


def _touches_inside(p: tuple, q: tuple, c: tuple, d: tuple) -> bool:
    """Segment p-q meets segment c-d at a point other than p or q."""
    if _orient(p, q, c) == 0 and _orient(p, q, d) == 0:
        # Collinear: they overlap on more than an end point iff the overlap has length.
        axis = 0 if p[0] != q[0] else 1
        lo1, hi1 = sorted((p[axis], q[axis]))
        lo2, hi2 = sorted((c[axis], d[axis]))
        return max(lo1, lo2) < min(hi1, hi2)
    # Not collinear: they meet in one point; it is an end of p-q only if p or q lies on c-d.
    for end in (p, q):
        if _orient(c, d, end) == 0 and _on_segment(c, d, end):
            return False
    return True


def hexmap_paths(
    starts: tuple,
    neighbours: Callable[[tuple], Iterable],
    step_cost: Callable[[tuple, tuple], tuple | None],
    zero: tuple,
) -> tuple:
    """Cheapest paths from any of ``starts`` under a lexicographic cost: (cost by hex, parent by hex).

    ``step_cost(here, there)`` is the cost tuple of entering ``there`` from ``here`` (None: it
    cannot be entered). Costs add component by component and compare as tuples, so a cost
    (negative hexes entered, movement points) avoids traps before it saves movement (GH-C4).
    Among equally cheap paths the parent kept is the first found in sorted order, so the path
    shown is the same in every runtime.
    """
    best = {start: zero for start in starts}
    parent: dict = {start: None for start in starts}
    heap: list = []
    for start in sorted(best):
        _push(heap, (zero, start))
    while heap:
        cost, hex = _pop(heap)
        if cost != best.get(hex):
            continue
        for step in neighbours(hex):
            extra = step_cost(hex, step)
            if extra is None:
                continue
            total = tuple(a + b for a, b in zip(cost, extra))
            known = best.get(step)
            if known is None or total < known:
                best[step] = total
                parent[step] = hex
                _push(heap, (total, step))
    return best, parent


def _push(heap: list, item: tuple) -> None:
    """A binary min-heap, here rather than ``heapq`` so the browser's trimmed standard library need not ship it."""
    heap.append(item)
    index = len(heap) - 1
    while index:
        up = (index - 1) // 2
        if heap[up] <= item:
            break
        heap[index] = heap[up]
        index = up
    heap[index] = item


def _pop(heap: list) -> tuple:
    top = heap[0]
    last = heap.pop()
    if heap:
        size = len(heap)
        index = 0
        while True:
            child = 2 * index + 1
            if child >= size:
                break
            if child + 1 < size and heap[child + 1] < heap[child]:
                child += 1
            if heap[child] >= last:
                break
            heap[index] = heap[child]
            index = child
        heap[index] = last
    return top


def hexmap_path_to(parent: dict, goal: tuple) -> tuple:
    """The path from the search's start to ``goal`` (the start excluded), from ``hexmap_paths``' parents."""
    path = []
    hex = goal
    while parent.get(hex) is not None:
        path.append(hex)
        hex = parent[hex]
    path.reverse()
    return tuple(path)


def hexmap_rotate(offset: tuple, turns: int) -> tuple:
    """An axial offset turned 60 degrees clockwise ``turns`` times (area patterns)."""
    q, r = offset
    for _ in range(turns % 6):
        s = -q - r
        q, r = -r, -s
    return (q, r)

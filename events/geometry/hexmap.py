"""A hex *map*: which hexes exist, walls between them, line of sight, range and costed paths.

``hexgrid`` knows the infinite grid; a map is a finite set of hexes on it. Everything off the map
(and every hex listed as a wall) is solid: an edge between a map hex and a solid hex is a wall,
and so is each *thin wall* listed as a pair of map hexes. Two hexes across a wall are not
adjacent, so range counts around walls (Gloomhaven GH-C1).

Hexes are flat-topped and axial (q, r); the neighbours of (q, r) are N (q, r-1), S (q, r+1),
NE (q+1, r-1), SE (q+1, r), NW (q-1, r), SW (q-1, r+1) — the six ``HEX_DIRECTIONS``.

Line of sight (Gloomhaven GH-C7) is traced corner to corner with integers only. A hex's centre
is (3q, 2r + q) in units of half a side across and half a height down; its corners are the
centre plus (±2, 0) and (±1, ±1). That is an affine image of the real drawing, and affine maps
keep which segments cross or touch, so exact integer orientation tests decide line of sight in
CPython and Brython alike (no float, no fraction, leaves this module).

A wall is a closed segment: an edge between a map hex and a solid hex (off the map, a wall hex
or a closed door), or a thin wall, its two end points included. A sight line is a segment from
a corner of one hex to a corner of the other that touches no wall at all, so a corner lying on a
wall never ends one. Two neighbours whose shared edge is open always see each other; across a
walled edge they do when a neighbouring edge offers a way around (the hex at one of its ends is
open and its edges with both are open).
"""

from __future__ import annotations

from events.geometry.hexgrid import HEX_DIRECTIONS, hex_distance, hex_neighbors

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

CORNER_OFFSETS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))
#: Side of the square cells walls are filed in, in lattice units (about one hex), so a sight line
#: is tested only against the walls near it.
BUCKET = 4


def hexmap_center(hex: tuple) -> tuple:
    """The hex's centre in the integer corner lattice (not pixels: see the module docstring)."""
    q, r = hex
    return (3 * q, 2 * r + q)


def hexmap_corners(hex: tuple) -> tuple:
    x, y = hexmap_center(hex)
    return tuple((x + dx, y + dy) for dx, dy in CORNER_OFFSETS)


#: Direction (dq, dr) -> the offsets from a hex's centre of the two corners it shares with that neighbour, sorted.
EDGE_OFFSETS = {(0, 1): ((-1, 1), (1, 1)), (1, 0): ((1, 1), (2, 0)), (1, -1): ((1, -1), (2, 0)),
                (0, -1): ((-1, -1), (1, -1)), (-1, 0): ((-2, 0), (-1, -1)), (-1, 1): ((-2, 0), (-1, 1))}


def hexmap_edge(a: tuple, b: tuple) -> tuple:
    """The two corners two neighbouring hexes share, sorted (the edge between them)."""
    offsets = EDGE_OFFSETS.get((b[0] - a[0], b[1] - a[1]))
    if offsets is None:
        raise ValueError(f"hexes {list(a)} and {list(b)} are not neighbours")
    x, y = hexmap_center(a)
    (dx1, dy1), (dx2, dy2) = offsets
    return ((x + dx1, y + dy1), (x + dx2, y + dy2))


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


class HexMap:
    """The hexes of a map, its walls, and questions about them.

    ``closed`` hexes (closed doors) are on the map but act as walls for line of sight and range,
    and are never passed by ``adjacent`` unless asked (``through_closed``).
    """

    def __init__(self, hexes: Iterable, thin_walls: Iterable = (), closed: Iterable = ()) -> None:
        self.hexes = frozenset(hexes)
        self.closed = frozenset(closed)
        self.thin = frozenset(frozenset(pair) for pair in thin_walls)
        thin = set()
        for a, b in thin_walls:
            thin.add((tuple(a), tuple(b)))
            thin.add((tuple(b), tuple(a)))
        open_hexes = self.hexes - self.closed
        self.open = open_hexes
        near: dict = {}
        near_all: dict = {}
        for hex in sorted(self.hexes):
            steps = []
            steps_all = []
            for dq, dr in HEX_DIRECTIONS:
                other = (hex[0] + dq, hex[1] + dr)
                if other not in self.hexes or (hex, other) in thin:
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
                if other not in open_hexes or (hex, other) in thin:
                    walls.add(hexmap_edge(hex, other))
        self.walls = tuple(sorted(walls))
        points: set = set()
        buckets: dict = {}
        for wall in self.walls:
            (cx, cy), (dx, dy) = wall
            points.add(wall[0])
            points.add(wall[1])
            for i in range(min(cx, dx) // BUCKET, max(cx, dx) // BUCKET + 1):
                for j in range(min(cy, dy) // BUCKET, max(cy, dy) // BUCKET + 1):
                    buckets.setdefault((i, j), []).append(wall)
        self._wall_points = frozenset(points)
        self._buckets = buckets
        self._los: dict = {}
        self._dist: dict = {}
        self._near_dist: dict = {}
        self._free: dict = {}

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

    def within(self, start: tuple, limit: int) -> dict:
        """The hexes at most ``limit`` steps from ``start`` around walls: hex -> steps (a range check's search)."""
        key = (start, limit)
        known = self._near_dist.get(key)
        if known is not None:
            return known
        full = self._dist.get(start)
        if full is not None:
            out = {hex: steps for hex, steps in full.items() if steps <= limit}
        else:
            out = {start: 0}
            frontier = [start]
            for depth in range(1, limit + 1):
                following = []
                for hex in frontier:
                    for step in self._near.get(hex, ()):
                        if step not in out:
                            out[step] = depth
                            following.append(step)
                frontier = following
        self._near_dist[key] = out
        return out

    def in_range(self, a: tuple, b: tuple, limit: int) -> bool:
        """``b`` is at most ``limit`` hexes from ``a``, counted around walls (GH-C1)."""
        return b in self.within(a, limit)

    def range_between(self, a: tuple, b: tuple) -> int | None:
        """Range from a to b counted around walls; None if walls separate them entirely."""
        return self.distances(a).get(b)

    def line_of_sight(self, a: tuple, b: tuple) -> bool:
        """Some segment from a corner of ``a`` to a corner of ``b`` touches no wall (GH-C7).

        Neighbours are GH-C7's last sentence: across an open edge they see each other (in a
        corridor one hex wide every corner touches a wall, yet two hexes side by side see each
        other); across a walled edge only if a neighbouring edge offers a way around: at one of
        its ends the third hex is open and its edges with both are open. Any other pair needs a
        corner-to-corner segment that touches no wall, its own end points included. A hex that is
        not open (a closed door) sees nothing.
        """
        if a == b:
            return a in self.open
        key = (a, b) if a <= b else (b, a)
        known = self._los.get(key)
        if known is None:
            known = self._sight(key[0], key[1])
            self._los[key] = known
        return known

    def sight_line(self, a: tuple, b: tuple) -> tuple | None:
        """The first clear corner-to-corner segment from ``a`` to ``b`` in sorted order, or None (GH-C7).

        For showing a player *why* two hexes see each other; None also for neighbours that see
        each other only through their open shared edge (no corner of theirs is free).
        """
        if a not in self.open or b not in self.open:
            return None
        walls = self._walls_near(a, b)
        for p in self._free_corners(a):
            for q in self._free_corners(b):
                if _clear(p, q, walls):
                    return (p, q)
        return None

    def corner_on_wall(self, corner: tuple) -> bool:
        """A corner that lies on a wall, its end points included: never the end of a sight line (GH-C7)."""
        return corner in self._wall_points

    def _sight(self, a: tuple, b: tuple) -> bool:
        if a not in self.open or b not in self.open:
            return False
        if b in self._near.get(a, ()):
            return True  # neighbours across an open edge (GH-C7)
        if (b[0] - a[0], b[1] - a[1]) in EDGE_OFFSETS:
            return self._way_around(a, b)
        return self.sight_line(a, b) is not None

    def _way_around(self, a: tuple, b: tuple) -> bool:
        """Neighbours across a walled edge (GH-C7): some end of it has an open hex whose edges with both are open."""
        common = [hex for hex in hex_neighbors(a) if hex_distance(hex, b) == 1]
        return any(hex in self.open and hex in self._near.get(a, ()) and b in self._near.get(hex, ())
                   for hex in common)

    def _free_corners(self, hex: tuple) -> tuple:
        known = self._free.get(hex)
        if known is None:
            points = self._wall_points
            known = tuple(corner for corner in sorted(hexmap_corners(hex)) if corner not in points)
            self._free[hex] = known
        return known

    def _walls_near(self, a: tuple, b: tuple) -> tuple:
        """The wall segments whose boxes meet the box of both hexes (every wall a sight line between them could touch)."""
        (ax, ay), (bx, by) = hexmap_center(a), hexmap_center(b)
        low_x, high_x = min(ax, bx) - 2, max(ax, bx) + 2
        low_y, high_y = min(ay, by) - 1, max(ay, by) + 1
        found: dict = {}
        buckets = self._buckets
        for i in range(low_x // BUCKET, high_x // BUCKET + 1):
            for j in range(low_y // BUCKET, high_y // BUCKET + 1):
                for wall in buckets.get((i, j), ()):
                    (cx, cy), (dx, dy) = wall
                    if max(cx, dx) < low_x or min(cx, dx) > high_x or max(cy, dy) < low_y or min(cy, dy) > high_y:
                        continue
                    found[wall] = True
        return tuple(found)


def _clear(p: tuple, q: tuple, walls: tuple) -> bool:
    """The closed segment p-q touches none of ``walls`` (closed segments)."""
    low_x, high_x = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    low_y, high_y = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    for wall in walls:
        c, d = wall
        if (c[0] < low_x and d[0] < low_x) or (c[0] > high_x and d[0] > high_x) \
                or (c[1] < low_y and d[1] < low_y) or (c[1] > high_y and d[1] > high_y):
            continue
        if segments_touch(p, q, c, d):
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
            if len(cost) == 2:  # the usual (negative hexes, movement points): no generator per step
                total = (cost[0] + extra[0], cost[1] + extra[1])
            else:
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

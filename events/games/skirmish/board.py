"""Maps and scenarios of ``skirmish`` as data: validated once, with a path to every fault (SK-C1).

The formats are documented in ``docs/skirmish-format.md``. A map is an ASCII drawing on a doubled
grid: square ``(x, y)`` is the character at row ``2y+1``, column ``2x+1`` of the drawing; the
characters between two squares are their edge, and the characters at even row and even column are
corner posts (decoration). A scenario arrives here as one dict with its map already inlined (the
shell reads files; the core does not).

A door is one piece (SK-6…SK-11): a straight run of edges with one state and one holder. ``D``
edges that follow each other on one line form one door; a lowercase letter on edges labels a door
whose edges are exactly those with that letter (one straight run), so a map can draw two doors side
by side, or a door next to a ``D``. A label joins nothing else, and a lone ``D`` is a one-edge door
as it always was.
"""

from __future__ import annotations

from events.games.skirmish.model import Figure, Grid
from events.geometry.squares import square_edge, square_name, square_parse
from events.validate import (
    BoundError,
    ScenarioError,
    array,
    boolean,
    check_shape,
    found,
    integer,
    listed_once,
    obj,
    text,
)
from events.validate import titles as scenario_titles

#: What a square's character means.
SQUARE_CHARS = {".": "floor", " ": "floor", "=": "low", "~": "difficult", "O": "pit"}
#: What an edge's character means.
EDGE_CHARS = {" ": None, "|": "wall", "-": "wall", "#": "wall", "D": "door"}
#: A lowercase letter on an edge labels the door it belongs to (every edge with that letter).
LABEL_CHARS = "abcdefghijklmnopqrstuvwxyz"
POST_CHARS = "+-| #"
NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
MAX_SIZE = 40
NAME_LIMIT = 24

#: Every number of a skirmish map or scenario that sizes work, and its upper bound
#: (docs/skirmish-format.md, "Bounds"); beyond one, the scenario is refused with ``BoundError``.
BOUNDS = {
    "size": MAX_SIZE,  # squares across and down
    "row": 2 * MAX_SIZE + 1,  # characters in one row of the drawing, and rows in the drawing
    "figures": 32,
    "attack": 100,  # from -20
    "defense": 100,
    "speed": 40,  # movement points of an activation (SK-C2)
    "hp": 10_000,
    "damage": 10_000,
    "rounds": 1000,
}


class Setup:
    """A validated scenario: what ``start`` turns into the first state."""

    __slots__ = ("title", "grid", "sides", "figures", "rounds", "first")

    def __init__(self, title: str, grid: Grid, sides: tuple, figures: tuple, rounds: int, first: int) -> None:
        self.title = title
        self.grid = grid
        self.sides = sides
        self.figures = figures
        self.rounds = rounds
        self.first = first


def load_map(raw: object, diagonal_cost: int, path: str = "$", wide_doors: bool = True) -> Grid:
    """A grid from its ASCII drawing (SK-C1): walls (SK-1), doors (SK-6), low objects (SK-3),
    difficult terrain (SK-4) and pits (SK-5).

    ``wide_doors=False`` reads a map as rules version skirmish-1 did, for its logged games: every
    ``D`` is a door of its own and a door label is no edge character."""
    data = obj(raw, path, ("name", "rows"), ("notes",))
    name = text(data["name"], f"{path}.name")
    rows = array(data["rows"], f"{path}.rows", 3, BOUNDS["row"])
    for i, row in enumerate(rows):
        if not isinstance(row, str):
            raise ScenarioError(f"{path}.rows[{i}]", f"expected a string, got {found(row)}")
        if len(row) > BOUNDS["row"]:
            raise BoundError(f"{path}.rows[{i}]", f"a row holds at most {BOUNDS['row']} characters "
                             f"({MAX_SIZE} squares), got {len(row)}")
    if len(rows) % 2 == 0:
        raise ScenarioError(f"{path}.rows", f"expected an odd number of rows (2 × height + 1), got {len(rows)}")
    longest = max(len(row.rstrip()) for row in rows)
    width = longest // 2
    height = len(rows) // 2
    if width < 1:
        raise ScenarioError(f"{path}.rows", "the drawing holds no square (a square is at odd row, odd column)")
    # At most BOUNDS["row"] rows of at most BOUNDS["row"] characters: at most MAX_SIZE × MAX_SIZE squares.
    cells = [row.ljust(2 * width + 1) for row in rows]
    walls = []
    door_marks: list = []
    low, difficult, pits = [], [], []
    for r, row in enumerate(cells):
        for c, char in enumerate(row):
            where = f"{path}.rows[{r}][{c}]"
            if c > 2 * width:
                if char != " ":
                    raise ScenarioError(where, f"{found(char)} lies right of the last square column")
                continue
            if r % 2 == 0 and c % 2 == 0:
                if char not in POST_CHARS:
                    raise ScenarioError(where, f"a corner post is one of {POST_CHARS!r}, got {found(char)}"
                                        + (" (door labels go on edges)" if char in LABEL_CHARS else ""))
                continue
            if r % 2 == 1 and c % 2 == 1:
                kind = SQUARE_CHARS.get(char)
                if kind is None:
                    raise ScenarioError(where, f"a square is one of {''.join(SQUARE_CHARS)!r} "
                                        f"(floor, low objects, difficult terrain, pit), got {found(char)}")
                square = (c // 2, r // 2)
                {"low": low, "difficult": difficult, "pit": pits}.get(kind, []).append(square)
                continue
            if char not in EDGE_CHARS and (char not in LABEL_CHARS or not wide_doors):
                raise ScenarioError(where, f"an edge is one of {''.join(EDGE_CHARS)!r} "
                                    f"(nothing, wall, wall, wall, door) or a door label a–z, got {found(char)}")
            kind = EDGE_CHARS.get(char, "door")
            if kind is None:
                continue
            if r % 2 == 1:  # between (c//2 - 1, r//2) and (c//2, r//2)
                a, b = (c // 2 - 1, r // 2), (c // 2, r // 2)
                border = c == 0 or c == 2 * width
            else:
                a, b = (c // 2, r // 2 - 1), (c // 2, r // 2)
                border = r == 0 or r == 2 * height
            if border:
                if kind == "door":
                    raise ScenarioError(where, "a door must lie between two squares, not on the map's border")
                continue  # the border already stops everything
            edge = square_edge(a, b)
            if kind == "wall":
                walls.append(edge)
            else:
                door_marks.append((r, c, char, edge))
    return Grid(name, width, height, tuple(sorted(walls)), _doors(door_marks, f"{path}.rows", wide_doors), tuple(sorted(low)),
                tuple(sorted(difficult)), tuple(sorted(pits)), diagonal_cost)


def _doors(marks: list, path: str, wide_doors: bool = True) -> tuple:
    """The doors of a map from its door edges ``(row, column, character, edge)`` in reading order.

    Each door is ``(id, edge, edge, …)``: its id, then its edges in reading order. Doors are named
    ``door1``, ``door2``, … in the reading order of their first edge, so a map whose doors are
    all one edge wide names them as it always did. ``D`` edges next to each other on one line (a
    vertical edge and the one below it, a horizontal edge and the one right of it) are one door;
    the edges with one label are one door and must be one straight run, with no gap.
    """
    at = {(r, c): char for r, c, char, _edge in marks}
    group: dict = {}  # (row, column) -> the (row, column) of the door's first edge
    labelled: dict = {}  # label -> (row, column) of its first edge
    for r, c, char, _edge in marks:
        if char == "D" and not wide_doors:
            group[(r, c)] = (r, c)
            continue
        if char == "D":
            before = (r - 2, c) if r % 2 == 1 else (r, c - 2)  # the edge before it on its line
            group[(r, c)] = group[before] if at.get(before) == "D" else (r, c)
            continue
        first = labelled.get(char)
        if first is None:
            labelled[char] = (r, c)
            group[(r, c)] = (r, c)
            continue
        group[(r, c)] = first
        _check_run(char, first, (r, c), [key for key, head in group.items() if head == first], path)
    doors: dict = {}
    for r, c, _char, edge in marks:
        doors.setdefault(group[(r, c)], []).append(edge)
    return tuple((f"door{number}",) + tuple(edges) for number, edges in enumerate(doors.values(), 1))


def _check_run(label: str, first: tuple, new: tuple, run: list, path: str) -> None:
    """A label's edges so far (``run``, reading order, ``new`` last) must be one straight run."""
    (r0, c0), (r, c) = first, new
    where = f"{path}[{r}][{c}]"
    if r0 % 2 != r % 2 or (r % 2 == 1 and c != c0) or (r % 2 == 0 and r != r0):
        raise ScenarioError(where, f"door label {label!r} bends: its edges at rows[{r0}][{c0}] and here are not "
                            "on one line (a door is one straight run of edges)")
    previous = run[-2]
    step = (r - previous[0], c - previous[1])
    if step not in ((2, 0), (0, 2)):
        raise ScenarioError(where, f"door label {label!r} is used twice: this edge does not follow its edge at "
                            f"rows[{previous[0]}][{previous[1]}] (a label names one door: one run of edges "
                            "side by side)")


def load_scenario(raw: object, path: str = "$", wide_doors: bool = True) -> Setup:
    """A whole scenario: map, two sides, figures, rounds, diagonal cost (SK-C1, SK-C2, SK-C5);
    ``wide_doors`` as in ``load_map``."""
    check_shape(raw, path)
    data = obj(raw, path, ("game", "title", "map", "sides", "figures"),
               ("rounds", "first", "diagonal_cost", "notes", "titles"))
    if "titles" in data:  # the title in the readers' languages (docs/skirmish-format.md)
        scenario_titles(data["titles"], f"{path}.titles")
    if data["game"] != "skirmish":
        raise ScenarioError(f"{path}.game", f"expected 'skirmish', got {found(data['game'])}")
    diagonal_cost = integer(data.get("diagonal_cost", 2), f"{path}.diagonal_cost", 1, 2)
    grid = load_map(data["map"], diagonal_cost, f"{path}.map", wide_doors)
    sides = []
    for i, item in enumerate(array(data["sides"], f"{path}.sides", 2, 2)):
        side = _name(item, f"{path}.sides[{i}]")
        listed_once(side, sides, f"{path}.sides[{i}]", f"side {side!r}")
        sides.append(side)
    first = sides.index(text(data.get("first", sides[0]), f"{path}.first", tuple(sides)))
    rounds = integer(data.get("rounds", 10), f"{path}.rounds", 1, BOUNDS["rounds"])
    figures = []
    taken: dict = {}
    for i, item in enumerate(array(data["figures"], f"{path}.figures", 2, BOUNDS["figures"])):
        where = f"{path}.figures[{i}]"
        fig = obj(item, where, ("id", "side", "name", "attack", "defense", "speed", "hp", "at"),
                  ("damage", "melee", "notes"))
        figure_id = _name(fig["id"], f"{where}.id")
        listed_once(figure_id, [other.id for other in figures], f"{where}.id", f"figure {figure_id!r}")
        side = text(fig["side"], f"{where}.side", tuple(sides))
        at = _square(fig["at"], f"{where}.at", grid)
        if at in grid.pits:
            raise ScenarioError(f"{where}.at", f"{square_name(at)} is a pit: no figure stands in one (SK-5)")
        if at in taken:
            raise ScenarioError(f"{where}.at", f"{square_name(at)} already holds {taken[at]} (SK-C2)")
        taken[at] = figure_id
        hp = integer(fig["hp"], f"{where}.hp", 1, BOUNDS["hp"])
        figures.append(Figure(
            figure_id, side, text(fig["name"], f"{where}.name"),
            integer(fig["attack"], f"{where}.attack", -20, BOUNDS["attack"]),
            integer(fig["defense"], f"{where}.defense", 0, BOUNDS["defense"]),
            integer(fig["speed"], f"{where}.speed", 1, BOUNDS["speed"]),
            hp, hp, integer(fig.get("damage", 10), f"{where}.damage", 1, BOUNDS["damage"]),
            boolean(fig.get("melee", False), f"{where}.melee"), at,
        ))
    for side in sides:
        if not any(figure.side == side for figure in figures):
            raise ScenarioError(f"{path}.figures", f"side {side!r} has no figure")
    return Setup(text(data["title"], f"{path}.title"), grid, tuple(sides), tuple(figures), rounds, first)


def _name(value: object, path: str) -> str:
    name = text(value, path)
    if len(name) > NAME_LIMIT or not all(ch in NAME_CHARS for ch in name):
        raise ScenarioError(path, f"a name is 1–{NAME_LIMIT} letters, digits, - or _, got {found(name)}")
    return name


def _square(value: object, path: str, grid: Grid) -> tuple:
    """A square as ``"C3"`` or ``[x, y]``, inside the grid."""
    if isinstance(value, str):
        square = square_parse(text(value, path, limit=8))  # "AN40" is the longest name a 40 × 40 grid needs
        if square is None or "," in value:
            raise ScenarioError(path, f"expected a square such as \"C3\" or [2, 2], got {found(value)}")
    elif isinstance(value, list):
        items = array(value, path, 2, 2)
        square = (integer(items[0], f"{path}[0]"), integer(items[1], f"{path}[1]"))
    else:
        raise ScenarioError(path, f"expected a square such as \"C3\" or [2, 2], got {found(value)}")
    if not (0 <= square[0] < grid.width and 0 <= square[1] < grid.height):
        raise ScenarioError(path, f"{found(value)} is off the {grid.width} × {grid.height} map")
    return square

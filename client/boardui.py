"""What every board gets whatever its game: zoom and pan (buttons, touch, Ctrl+wheel), keyboard access
to the legal destinations and targets, a legend of terrain and markers, and what the game leaves out.

Zoom and pan change only the SVG's ``viewBox`` (a renderer sets it once, when it builds its board):
pixels stay the renderer's business and a redraw keeps the view. One finger drags the board once it
is zoomed (until then it scrolls the page, ``touch-action: pan-y``), two fingers pinch; a drag never
counts as a click on a place.

The places a click would act on are found by the classes the renderers already give them
(``PICKABLE``); each becomes focusable (``tabindex``) with the role of a button, and Enter or Space
on it is the click. Every word shown comes from the catalogue: the zoom buttons ``ui.*``, each
legend entry ``legend.<game>.<slug>`` (``LEGENDS`` holds the slugs and the drawing), and
``not_modelled.<game>`` for the games in ``NOT_MODELLED``.
"""

from __future__ import annotations

from browser import timer, window

from client.dom import add, clear, el, listen, svg
from client.i18n import t

# The elements a click on the board acts on, per the classes each renderer sets when interactive.
PICKABLE = (".mecha-board g.loc.dest.clickable, svg.arkham g.area.dest.clickable, svg.echo-map g.echo-loc.dest.clickable,"
            " .skirmish-board g.sq.reach.clickable, .gloomhaven-board g.cell:has(> .hex.reach, > .hex.target, > .hex.option)")
MAX_ZOOM = 6
NARROW = "(max-width: 600px)"  # where style.css lets a wide table scroll inside its panel
TOUCH = "(pointer: coarse)"  # a finger, not a mouse
# Every place of a board, tappable now or later: on a phone each is drawn at least TAP_PX CSS pixels
# across (WCAG 2.5.5, Apple's HIG: 44), the board scrolling inside its box when that makes it wider.
PLACES = (".mecha-board g.loc, svg.arkham g.area, svg.echo-map g.echo-loc, .skirmish-board g.sq,"
          " .gloomhaven-board g.cell")
TAP_PX = 44
# Every text of a board is drawn at least READ_PX CSS pixels high on a phone in its default view (mecha's
# hex names were ~6 px fitted to 375 px, echo's 9.7, skirmish's hit points 8.6): "show the whole board"
# fits it to the screen, where text may be smaller.
READ_PX = 11
DRAG_PX = 6  # a pointer that moves less than this is a click, not a drag

# Inline SVG icons (font glyphs such as ⏮ draw as empty boxes with Debian's fonts): 24 × 24 paths.
ICONS = {
    "first": "M6 5h2v14H6zM20 5v14L9 12z",
    "last": "M16 5h2v14h-2zM4 5v14l11-7z",
    "back": "M18 5v14L7 12z",
    "forward": "M6 5v14l11-7z",
    "play": "M7 5v14l12-7z",
    "pause": "M7 5h4v14H7zM13 5h4v14h-4z",
    "plus": "M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z",
    "minus": "M5 11h14v2H5z",
    "fit": "M4 4h6v2H6v4H4zM14 4h6v6h-2V6h-4zM4 14h2v4h4v2H4zM18 14h2v6h-6v-2h4z",
}


def icon(name: str) -> object:
    """An icon as inline SVG, hidden from screen readers (its button carries the words)."""
    node = svg("svg", "icon", (("viewBox", "0 0 24 24"), ("aria-hidden", "true"), ("focusable", "false")))
    return add(node, svg("path", None, (("d", ICONS[name]),)))


def icon_button(name: str, label: str, cls: str, attrs: tuple = (), text: str | None = None) -> object:
    """A button with an SVG icon; ``label`` is its accessible name, ``text`` optional visible words."""
    button = el("button", None, cls, (("type", "button"), ("aria-label", label), ("title", label)) + attrs)
    add(button, icon(name))
    if text:
        add(button, el("span", " " + text))
    return button


# --- legends -------------------------------------------------------------------------------------------
# Each entry: (shape, attributes, the slug of what it means: ``legend.<game>.<slug>``). Shapes:
# "rect", "circle", "hex", "diamond", "line", "dash" (a dashed line), "ring" (a dashed circle).
# Colours are the renderers' own.

LEGENDS = {
    "mecha": (
        ("hex", (("fill", "#eae2c8"), ("stroke", "#5b5446")), "face_up"),
        ("hex", (("fill", "#5e6b73"), ("stroke", "#5b5446")), "face_down"),
        ("hex", (("fill", "#ffd84d"), ("stroke", "#d19a00")), "destination"),
        ("hex", (("fill", "#eae2c8"), ("stroke", "#d19a00"), ("stroke-dasharray", "3 2")), "others"),
        ("hex", (("fill", "#c9b68f"), ("stroke", "#7a6a4f")), "camp"),
        ("diamond", (("fill", "#f2e7b0"), ("stroke", "#8a6d00")), "map_token"),
        ("circle", (("fill", "#f08c2e"), ("stroke", "#333")), "corruption"),
        ("rect", (("fill", "#d9d4f0"), ("stroke", "#7b72b0")), "central"),
        ("line", (("stroke", "#e4572e"),), "last_path"),
    ),
    "arkham": (
        ("rect", (("fill", "#e9dfc6"), ("stroke", "#6d6250")), "street"),
        ("circle", (("fill", "#f7f1e1"), ("stroke", "#6d6250")), "location"),
        ("rect", (("fill", "#d9d2ef"), ("stroke", "#7a6aa8")), "other_world"),
        ("rect", (("fill", "#fff2b8"), ("stroke", "#b8860b"), ("stroke-width", "3")), "destination"),
        ("rect", (("fill", "#e9dfc6"), ("stroke", "#b8860b"), ("stroke-width", "3"), ("stroke-dasharray", "3 2")), "others"),
        ("line", (("stroke", "#e3b300"),), "yellow_line"),
        ("ring", (("stroke", "#7a2bb5"),), "gate"),
        ("circle", (("fill", "#2f9e44"), ("stroke", "#fff")), "clues"),
        ("rect", (("fill", "#5b1a1a"), ("stroke", "#fff")), "monster"),
        ("diamond", (("fill", "#7a2bb5"),), "unstable"),
        ("dash", (("stroke", "#c0392b"),), "last_path"),
    ),
    "gloomhaven": (
        ("hex", (("fill", "#f3efe4"), ("stroke", "#9a9080")), "open"),
        ("hex", (("fill", "#6b6b6b"), ("stroke", "#9a9080")), "obstacle"),
        ("hex", (("fill", "#f2b8b5"), ("stroke", "#9a9080")), "trap"),
        ("hex", (("fill", "#f4a259"), ("stroke", "#9a9080")), "hazardous"),
        ("hex", (("fill", "#b9d7a8"), ("stroke", "#9a9080")), "difficult"),
        ("hex", (("fill", "#a0522d"), ("stroke", "#9a9080")), "door"),
        ("line", (("stroke", "#2b2b2b"),), "wall"),
        ("hex", (("fill", "#ffd84d"), ("stroke", "#8a5d00")), "reach"),
        ("hex", (("fill", "#f7c4c4"), ("stroke", "#c62828")), "target"),
        ("hex", (("fill", "#cdeedd"), ("stroke", "#0b6e4f")), "option"),
        ("circle", (("fill", "#ffffff"), ("stroke", "#222")), "normal"),
        ("circle", (("fill", "#f2c94c"), ("stroke", "#222")), "elite"),
    ),
    "echo": (
        ("rect", (("fill", "#eae2c8"), ("stroke", "#5b5446")), "location"),
        ("rect", (("fill", "#d6e2f3"), ("stroke", "#2f4f86")), "ministry"),
        ("rect", (("fill", "#f1dcdc"), ("stroke", "#8a3b3b")), "asylum"),
        ("rect", (("fill", "#3a3145"), ("stroke", "#1b1424")), "dark_side"),
        ("rect", (("fill", "#ffd84d"), ("stroke", "#d19a00")), "destination"),
        ("rect", (("fill", "#eae2c8"), ("stroke", "#d19a00"), ("stroke-dasharray", "3 2")), "others"),
        ("line", (("stroke", "#7d776a"),), "white_arrow"),
        ("dash", (("stroke", "#4b2a6b"),), "dark_path"),
        ("diamond", (("fill", "#7a1f1f"), ("stroke", "#111")), "enemy"),
    ),
    "skirmish": (
        ("rect", (("fill", "#f3efe4"), ("stroke", "#b9b2a0")), "floor"),
        ("rect", (("fill", "#7ccf6b"), ("stroke", "#b9b2a0")), "low"),
        ("rect", (("fill", "#f2d64b"), ("stroke", "#b9b2a0")), "difficult"),
        ("rect", (("fill", "#f08c2e"), ("stroke", "#b9b2a0")), "pit"),
        ("line", (("stroke", "#d61fd6"),), "wall"),
        ("line", (("stroke", "#7cc8f2"),), "door"),
        ("rect", (("fill", "#fff1a8"), ("stroke", "#1d3f88")), "reach"),
        ("rect", (("fill", "#f3efe4"), ("stroke", "#1d3f88"), ("stroke-dasharray", "3 2")), "others"),
        ("line", (("stroke", "#1f8a4c"),), "sight"),
        ("dash", (("stroke", "#d19a00"),), "sight_cover"),
        ("dash", (("stroke", "#c62828"),), "no_sight"),
    ),
}
# The games whose limits are said under the board (``not_modelled.<game>`` in the catalogue).
NOT_MODELLED = ("mecha", "arkham", "gloomhaven", "echo", "skirmish")

_HEX = ((11, 2), (19, 6.5), (19, 15.5), (11, 20), (3, 15.5), (3, 6.5))


def _sample(shape: str, attrs: tuple) -> object:
    box = svg("svg", None, (("viewBox", "0 0 22 22"), ("aria-hidden", "true"), ("focusable", "false")))
    if shape == "rect":
        node = svg("rect", None, (("x", "2"), ("y", "4"), ("width", "18"), ("height", "14"), ("rx", "3"),
                                  ("stroke-width", "1.5")) + attrs)
    elif shape == "circle":
        node = svg("circle", None, (("cx", "11"), ("cy", "11"), ("r", "7"), ("stroke-width", "1.5")) + attrs)
    elif shape == "ring":
        node = svg("circle", None, (("cx", "11"), ("cy", "11"), ("r", "8"), ("fill", "none"), ("stroke-width", "2.5"),
                                    ("stroke-dasharray", "3 2")) + attrs)
    elif shape == "hex":
        node = svg("polygon", None, (("points", " ".join(f"{x},{y}" for x, y in _HEX)), ("stroke-width", "1.5")) + attrs)
    elif shape == "diamond":
        node = svg("polygon", None, (("points", "11,3 19,11 11,19 3,11"), ("stroke-width", "1.5")) + attrs)
    else:
        dash = (("stroke-dasharray", "4 3"),) if shape == "dash" else ()
        node = svg("line", None, (("x1", "1"), ("y1", "11"), ("x2", "21"), ("y2", "11"), ("stroke-width", "4"),
                                  ("stroke-linecap", "round")) + dash + attrs)
    return add(box, node)


def show_legend(node: object, game_name: str) -> None:
    """The game's legend and what it does not model, into ``node`` (once per page)."""
    if node is None or node.getAttribute("data-game") == game_name:
        return
    clear(node)
    node.setAttribute("data-game", game_name)
    entries = LEGENDS.get(game_name, ())
    if entries:
        listing = el("ul", None, "legend", (("aria-label", t("ui.legend")),))
        for shape, attrs, slug in entries:
            add(listing, add(el("li"), _sample(shape, attrs), el("span", t(f"legend.{game_name}.{slug}"))))
        add(node, listing)
    if game_name in NOT_MODELLED:
        note = el("p", None, "not-modelled")
        add(note, el("b", t("ui.not_modelled")), el("span", t("not_modelled." + game_name)))
        add(node, note)


# --- keyboard ---------------------------------------------------------------------------------------


def mark_pickable(board_node: object, interactive: bool) -> int:
    """Make the places a click acts on focusable buttons (and only those); returns how many there are.
    A place that stays pickable is left alone, so the focus stays where the keyboard put it."""
    root = board_node.querySelector("svg.board")
    if root is not None:
        role = "group" if interactive else "img"
        if root.getAttribute("role") != role:
            root.setAttribute("role", role)
        title = root.querySelector("title")
        if title is not None and root.getAttribute("aria-label") is None:
            root.setAttribute("aria-label", title.textContent)
    found = list(board_node.querySelectorAll(PICKABLE)) if interactive else []
    for node in found:
        if node.getAttribute("data-pickable") != "1":
            node.setAttribute("tabindex", "0")
            node.setAttribute("role", "button")
        node.setAttribute("data-pickable", "1")
    # Places marked before and not found now: pickable no longer.
    selector = f"[data-pickable]:not({PICKABLE})" if interactive else "[data-pickable]"
    for node in list(board_node.querySelectorAll(selector)):
        node.removeAttribute("tabindex")
        node.removeAttribute("role")
        node.removeAttribute("data-pickable")
    return len(found)


def listen_keys(board_node: object) -> None:
    """Enter or Space on a focused place is a click on it."""

    def pressed(event: object) -> None:
        if event.key not in ("Enter", " "):
            return
        target = event.target
        if target is None or not target.getAttribute or target.getAttribute("data-pickable") != "1":
            return
        event.preventDefault()
        target.dispatchEvent(window.MouseEvent.new("click", window.JSON.parse('{"bubbles": true}')))

    listen(board_node, "keydown", pressed)


# --- zoom and pan -----------------------------------------------------------------------------------


def _smallest_text(root: object) -> float:
    """The smallest font size of the board's texts, in board units (their computed ``font-size``: the
    board's stylesheet or the renderer's attribute); 0 for a board without text."""
    smallest = 0.0
    style = window.getComputedStyle
    for node in root.querySelectorAll("text"):
        size = str(style(node).fontSize)
        value = float(size[:-2]) if size.endswith("px") else 0.0
        if value > 0 and (smallest == 0 or value < smallest):
            smallest = value
    return smallest


class Zoom:
    """Zoom and pan of the board's SVG through its ``viewBox`` (the renderer's box is the whole board)."""

    def __init__(self, board_node: object, bar_parent: object) -> None:
        self.node = board_node
        self.root = None
        self.base = None  # (x, y, w, h) the renderer set
        self.view = None  # the box shown now
        self.pointers: dict = {}  # pointer id -> (x, y)
        self.start = None  # (view, pointers, midpoint, distance) when a gesture began
        self.dragged = False
        self.scaled = False  # on a phone: drawn larger than its box, so every place is TAP_PX across
        self.overview = False  # a scaled board shown whole for a moment ("show the whole board" again)
        self.fresh = False  # a new board scaled: the page scrolls it to the places to tap, once
        self.width = 0  # the viewport's width the scale was chosen for
        self.bar = el("div", None, "zoom-bar")
        buttons = (("plus", "zoom-in", lambda e: self.by(0.5)), ("minus", "zoom-out", lambda e: self.by(2)),
                   ("fit", "zoom-reset", lambda e: self.reset()))
        for name, key, handler in buttons:
            button = icon_button(name, t("ui." + key.replace("-", "_")), "zoom", (("data-zoom", key),))
            listen(button, "click", handler)
            add(self.bar, button)
        bar_parent.insertBefore(self.bar, board_node)
        listen(board_node, "pointerdown", self.down)
        listen(board_node, "pointermove", self.move)
        listen(board_node, "pointerup", self.up)
        listen(board_node, "pointercancel", self.up)
        listen(board_node, "wheel", self.wheel)
        board_node.addEventListener("click", self.swallow, True)  # capture: a drag is not a click

    def sync(self) -> None:
        """After a draw: a new SVG root (a new board) starts from its whole box; the same keeps the view."""
        root = self.node.querySelector("svg.board")
        if root is None or root is self.root:
            if root is not None and self.view is not None:
                self.apply()
            return
        self.root = root
        parts = [float(part) for part in str(root.getAttribute("viewBox") or "0 0 100 100").split()]
        self.base = tuple(parts) if len(parts) == 4 else (0.0, 0.0, 100.0, 100.0)
        self.view = self.base
        self.overview = False
        self.fit_taps()
        self.apply()

    def fit_taps(self) -> None:
        """On a phone (narrow, or a finger), a board whose smallest place would be drawn under TAP_PX
        CSS pixels across, or whose smallest text would be under READ_PX high, is drawn larger (the SVG's
        ``width``/``height``), and scrolls inside its box: arkham's 54 areas were 10-15 px at 375 px wide,
        echo's 19, skirmish's 35, gloomhaven's 39; mecha's hexes were 53 px but their names 6 px."""
        root = self.root
        self.width = window.innerWidth
        self.scaled = False
        self.node.setAttribute("class", "board-box")  # measured fitted to its box (``apply`` sets the class after)
        root.removeAttribute("width")
        root.removeAttribute("height")
        if not (window.matchMedia(NARROW).matches or window.matchMedia(TOUCH).matches):
            return
        smallest = 0
        for node in root.querySelectorAll(PLACES):
            box = node.getBBox()
            side = min(box.width, box.height)
            if side > 0 and (smallest == 0 or side < smallest):
                smallest = side
        shown = root.getBoundingClientRect().width  # CSS px of the whole board, fitted to its box
        if not smallest or not shown:
            return
        need = TAP_PX / smallest  # CSS px per board unit for the smallest place to be TAP_PX
        letters = _smallest_text(root)
        if letters and READ_PX / letters > need:  # and for its smallest text to be READ_PX high
            need = READ_PX / letters
        if need * self.base[2] <= shown + 0.5:
            return
        root.setAttribute("width", str(int(need * self.base[2]) + 1))
        root.setAttribute("height", str(int(need * self.base[3]) + 1))
        self.scaled = self.fresh = True

    def refit(self) -> None:
        """The viewport changed width (a phone turned): the scale is chosen again."""
        if self.root is not None and window.innerWidth != self.width:
            self.overview = False
            self.fit_taps()
            self.apply()

    def apply(self) -> None:
        x, y, w, h = self.view
        self.root.setAttribute("viewBox", f"{round(x, 2)} {round(y, 2)} {round(w, 2)} {round(h, 2)}")
        zoomed = w < self.base[2] - 0.01
        cls = "board-box zoomed" if zoomed else "board-box"
        if self.scaled and not self.overview:
            cls += " tap-scaled"
        scrolls = "tap-scaled" in cls
        if scrolls != (self.node.getAttribute("tabindex") is not None):
            # A box that scrolls is a region a keyboard can reach and scroll (axe: scrollable-region-focusable).
            if scrolls:
                self.node.setAttribute("tabindex", "0")
                self.node.setAttribute("role", "region")
                self.node.setAttribute("aria-label", t("tableux.board_scrolls"))
            else:
                for name in ("tabindex", "role", "aria-label"):
                    self.node.removeAttribute(name)
        if self.node.getAttribute("class") != cls:
            self.node.setAttribute("class", cls)
        self.node.setAttribute("data-zoom", str(round(self.base[2] / w, 2)))

    def clamp(self, x: float, y: float, w: float) -> tuple:
        bx, by, bw, bh = self.base
        w = max(bw / MAX_ZOOM, min(bw, w))
        h = w * bh / bw
        x = max(bx, min(bx + bw - w, x))
        y = max(by, min(by + bh - h, y))
        return (x, y, w, h)

    def by(self, factor: float, cx: float | None = None, cy: float | None = None) -> None:
        """Scale the shown box by ``factor`` (< 1 zooms in) around (cx, cy) in board units (default: centre)."""
        if self.view is None:
            return
        x, y, w, h = self.view
        cx = x + w / 2 if cx is None else cx
        cy = y + h / 2 if cy is None else cy
        nw = w * factor
        self.view = self.clamp(cx - (cx - x) * factor, cy - (cy - y) * factor, nw)
        self.apply()

    def reset(self) -> None:
        """The whole board: a zoomed one back to its box; a board scaled for fingers, already whole,
        shown fitted to the screen, and at the next press at its tappable size again."""
        if self.base is not None:
            if self.view == self.base and self.scaled:
                self.overview = not self.overview
            self.view = self.base
            self.apply()

    def units(self) -> float:
        """Board units per CSS pixel now."""
        rect = self.root.getBoundingClientRect()
        return self.view[2] / rect.width if rect.width else 1.0

    def to_board(self, px: float, py: float) -> tuple:
        rect = self.root.getBoundingClientRect()
        scale = self.units()
        return (self.view[0] + (px - rect.left) * scale, self.view[1] + (py - rect.top) * scale)

    # pointers

    def down(self, event: object) -> None:
        if self.root is None or (event.pointerType == "mouse" and event.button != 0):
            return
        self.pointers[event.pointerId] = (event.clientX, event.clientY)
        self.begin()
        if len(self.pointers) == 1:
            self.dragged = False

    def begin(self) -> None:
        points = list(self.pointers.values())
        mid = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        distance = _distance(points[0], points[1]) if len(points) > 1 else 0
        self.start = (self.view, mid, distance)

    def move(self, event: object) -> None:
        if event.pointerId not in self.pointers or self.start is None:
            return
        self.pointers[event.pointerId] = (event.clientX, event.clientY)
        view, mid, distance = self.start
        points = list(self.pointers.values())
        now = (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
        zoomed = view[2] < self.base[2] - 0.01
        if len(points) == 1 and not zoomed and event.pointerType != "mouse":
            return  # one finger on the whole board scrolls the page
        if not self.dragged and _distance(mid, now) < DRAG_PX and len(points) == 1:
            return
        if not self.dragged:
            self.dragged = True
            try:
                self.node.setPointerCapture(event.pointerId)
            except Exception:  # the pointer is already gone (a synthetic or cancelled one): pan anyway
                pass
        scale = view[2] / self.root.getBoundingClientRect().width
        w = view[2]
        if len(points) > 1 and distance > 0:
            w = view[2] * distance / max(1, _distance(points[0], points[1]))
        # keep the board point under the gesture's start under its midpoint now
        rect = self.root.getBoundingClientRect()
        ax = view[0] + (mid[0] - rect.left) * scale
        ay = view[1] + (mid[1] - rect.top) * scale
        nscale = w / rect.width
        self.view = self.clamp(ax - (now[0] - rect.left) * nscale, ay - (now[1] - rect.top) * nscale, w)
        self.apply()

    def up(self, event: object) -> None:
        if event.pointerId in self.pointers:
            self.pointers.pop(event.pointerId)
        if self.pointers:
            self.begin()
        else:
            self.start = None

    def swallow(self, event: object) -> None:
        if self.dragged:
            self.dragged = False
            event.stopPropagation()
            event.preventDefault()

    def wheel(self, event: object) -> None:
        """Ctrl + wheel (and a touchpad's pinch) zooms around the pointer; the plain wheel scrolls the page."""
        if not event.ctrlKey or self.root is None:
            return
        event.preventDefault()
        cx, cy = self.to_board(event.clientX, event.clientY)
        self.by(1.15 if event.deltaY > 0 else 1 / 1.15, cx, cy)


def _distance(a: tuple, b: tuple) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


class BoardUI:
    """The zoom bar, the legend and keyboard access of one page's board."""

    def __init__(self, board_node: object) -> None:
        self.node = board_node
        self.zoom = Zoom(board_node, board_node.parentNode)
        listen_keys(board_node)
        listen(window, "resize", self.resized)
        self.interactive = False
        self.found = 0  # places to tap at the last draw
        self.pending = False
        # A renderer may redraw on its own (gloomhaven marks hexes when a card half is clicked): a
        # change of class on the board marks the pickable places again, once per burst of changes.
        self.observer = window.MutationObserver.new(self.changed)
        self.observer.observe(board_node, window.JSON.parse('{"subtree": true, "attributes": true, '
                                                           '"attributeFilter": ["class"]}'))

    def resized(self, event: object) -> None:
        scrollable_tables(window.document.getElementById("info"))
        self.zoom.refit()

    def scroll_to_taps(self) -> None:
        """A board scaled for fingers opens scrolled to the piece of the seat to play where its renderer marks
        it (``data-mover="1"``: arkham's investigator, mecha's Mecha, whose nearest destinations are around
        it; the middle of all of arkham's showed the Sky, and an investigator fighting in the Graveyard was
        off screen), else to the places a tap acts on, else to its middle."""
        box = self.node
        rects = [node.getBoundingClientRect() for node in box.querySelectorAll("[data-mover='1']")]
        if not rects:
            rects = [node.getBoundingClientRect() for node in box.querySelectorAll("[data-pickable='1']")]
        outer = box.getBoundingClientRect()
        if rects:
            x = (min([r.left for r in rects]) + max([r.right for r in rects])) / 2 - outer.left + box.scrollLeft
            y = (min([r.top for r in rects]) + max([r.bottom for r in rects])) / 2 - outer.top + box.scrollTop
        else:
            x, y = box.scrollWidth / 2, box.scrollHeight / 2
        box.scrollLeft = max(0, x - box.clientWidth / 2)
        box.scrollTop = max(0, y - box.clientHeight / 2)

    def changed(self, records: object, observer: object) -> None:
        if not self.pending:
            self.pending = True
            timer.set_timeout(self.remark, 0)

    def remark(self) -> None:
        self.pending = False
        mark_pickable(self.node, self.interactive)
        scrollable_tables(window.document.getElementById("info"))  # a panel the renderer redrew may be wider now

    def drawn(self, game_name: str, interactive: bool) -> int:
        """After every draw; returns how many places a click would act on."""
        self.zoom.sync()
        show_legend(window.document.getElementById("legend"), game_name)
        scrollable_tables(window.document.getElementById("info"))
        self.interactive = interactive
        found = mark_pickable(self.node, interactive)
        if self.zoom.fresh or (found and not self.found):  # a new board, or the seat's turn has come
            self.zoom.fresh = False
            self.scroll_to_taps()
        self.found = found
        return found


def scrollable_tables(node: object) -> None:
    """A table wider than the panel (a phone) scrolls inside it (style.css); one that does is focusable,
    so a keyboard can scroll it too, and only then (a tab stop that does nothing is noise)."""
    if node is None:
        return
    if not window.matchMedia(NARROW).matches:  # wide: no table scrolls (and reading widths costs a layout)
        for table in list(node.querySelectorAll("table[tabindex]")):
            table.removeAttribute("tabindex")
        return
    for table in list(node.querySelectorAll("table")):
        if table.scrollWidth > table.clientWidth + 1:
            table.setAttribute("tabindex", "0")
        elif table.getAttribute("tabindex") is not None:
            table.removeAttribute("tabindex")


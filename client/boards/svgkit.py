"""What several board renderers draw the same way: the view they all start from, a place's nodes, seat colours,
swatches, wrapped labels, polygon points, the last move and its route, a click that picks, the side
panel's tables with their column heads, and what a tap on a piece tells (``tell_on_tap``).

Kept small and free of imports beyond ``client.dom`` and ``client.i18n`` (which every page loads):
it is part of the core script (not a game's), and a renderer pays for it once (docs/client.md: in
Brython, imports are the cost).
"""

from __future__ import annotations

from browser import timer, window

from client.dom import add, byid, el, listen, set_text, svg
from client.i18n import scenario_title, scenario_titles, t

SEAT_COLOURS = {
    "red": "#d63c3c", "blue": "#3c6fd6", "green": "#2f9e44", "yellow": "#e0b000", "purple": "#8a4fd0",
    "orange": "#e8730c", "black": "#333333", "white": "#f4f4f4", "pink": "#e05fa8", "teal": "#159a9c",
}


class View:
    """What every renderer holds: its game, the board node (SVG inside) and the info node (HTML),
    and, from the last ``draw``, whether a click acts (``interactive``) and what it calls (``on_pick``,
    see ``pick_on_click``). A game's view sets its own fields after ``View.__init__``."""

    BUILT_FROM = "board"  # the state's field that never changes during a game, whose SVG ``_build`` makes

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        self.game = game
        # The rules version in force, which the page sets from its Table (GameStarted's, or a
        # RulesVersionChanged's): a click sends what that version takes (gloomhaven-1: a path, not ``to``).
        self.in_force = game
        self.board_node = board_node
        self.info_node = info_node
        self.interactive = False
        self.on_pick = None
        self.built = None  # the state's ``BUILT_FROM`` the SVG was last built from
        self.titled = None  # the GameStarted whose scenario ``titles`` were last read, and the title found
        self.title_found = None
        tell_on_tap(board_node)
        _told[3] = self  # the page's view now (an offline game's new one): whose ``told_with`` adds facts

    def begin_draw(self, state: object, interactive: bool, on_pick: object) -> bool:
        """The opening of a ``draw``: nothing to draw (False) without a state; the SVG built anew (the
        view's ``_build``) when the state's ``BUILT_FROM`` is not the one it was built from (a new game);
        this draw's clicks set."""
        if state is None:
            return False
        part = getattr(state, self.BUILT_FROM)
        if part is not self.built:
            self.built = part
            self._build(state)
        self.set_clicks(interactive, on_pick)
        if _told[0] is not None:  # once this draw is done: the tapped piece's facts as they are now
            timer.set_timeout(_retell, 0)
        return True

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        """A logged command in the reader's words, as its button or click says it (``state``: the state it
        was decided on), for the dispute panel; None: this view has no words for it."""
        return None

    def set_clicks(self, interactive: bool, on_pick: object) -> None:
        """What this draw's clicks do: nothing (``interactive`` false) or call ``on_pick``."""
        self.interactive = interactive
        self.on_pick = on_pick


    def title_node(self, state: object, envelopes: list) -> object:
        """The side panel's heading: the scenario's title in the reader's language (its ``titles``,
        docs/<game>-format.md), else its ``title`` as the data gives it (echo's "Первое дело · The first
        case" on a French page); read once per game from the GameStarted's scenario."""
        started = envelopes[0].event if envelopes else None
        if started is not self.titled:
            self.titled = started
            self.title_found = scenario_title(scenario_titles(getattr(started, "scenario", None)), state.title)
        return el("h2", self.title_found or state.title, "game-title", (("translate", "no"),))


class Place:
    """One place of a board as its view drew it: its group and ``<title>`` nodes, its words (``label``)
    and the class the group has now (``cls``, so a redraw touches only what changed). A view whose
    places hold more nodes or shown values adds them in a subclass (arkham's areas, mecha's Locations)."""

    __slots__ = ("group", "title", "label", "cls")

    def __init__(self, group: object, title: object, label: str) -> None:
        self.group = group
        self.title = title
        self.label = label
        self.cls = ""


def seat_colour(state: object, seat: str, seat_index: object, palette: tuple) -> str:
    """A seat named for a colour gets it; another the ``palette`` entry of its place (``seat_index``,
    the game's own), grey when it has none."""
    if seat in SEAT_COLOURS:
        return SEAT_COLOURS[seat]
    index = seat_index(state, seat)
    return palette[index % len(palette)] if index >= 0 else "#888888"


def swatch(colour: str) -> object:
    """A seat's colour as a small SVG dot (a style attribute would need CSP 'unsafe-inline')."""
    dot = svg("svg", "swatch", (("viewBox", "0 0 10 10"), ("width", "12"), ("height", "12")))
    return add(dot, svg("circle", None, (("cx", "5"), ("cy", "5"), ("r", "4.5"), ("fill", colour))))


def wrap(text: str, width: int) -> list:
    """Words into lines of about ``width`` characters (SVG text does not wrap); none for no words."""
    lines: list = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def wrap_lines(text: str, width: int, count: int) -> list:
    """At most ``count`` lines of ``wrap``; a name that needs more ends its last line with "…" (it was
    cut without a sign: arkham's "Lost in Time and" on a phone; the whole name is in the tooltip)."""
    lines = wrap(text, width)
    if len(lines) > count:
        lines = lines[:count]
        lines[-1] += "…"
    return lines


def polygon_points(x: float, y: float, radius: float, corners: tuple) -> str:
    """An SVG ``points`` value: unit ``corners`` scaled by ``radius`` around (x, y), to 0.1."""
    return " ".join([f"{round(x + dx * radius, 1)},{round(y + dy * radius, 1)}" for dx, dy in corners])


def show_route(route: object, points: list, names: list) -> None:
    """Draw the ``route`` polyline through ``points``; ``names`` (the path's places) go in ``data-path``."""
    route.setAttribute("points", " ".join([f"{x},{y}" for x, y in points]))
    route.setAttribute("data-path", " ".join(names))
    route.setAttribute("visibility", "visible")


def last_event(envelopes: list, kind: str, since: object = None) -> object:
    """The newest event of type ``kind`` in ``envelopes`` (the last move, whose route a view draws),
    or None; with ``since``, None too once an event of that type is newer (arkham: this turn's only).

    A snapshot join's envelopes before the snapshot are ``events.log.ELIDED`` until the whole log is
    folded: what they held is not known yet, so the search stops at the first one (None) instead of
    reading a thousand placeholders at the first draw (~13 ms of a warm play page, issue 16)."""
    for envelope in reversed(envelopes):
        event = envelope.event
        if event.TYPE == kind:
            return event
        if event.TYPE == since or event.TYPE == "Elided":
            return None
    return None


def pick_on_click(view: object, node: object, value: object) -> None:
    """A click on ``node`` hands ``value`` to the view's ``on_pick`` while the view is interactive."""

    def clicked(event: object) -> None:
        if view.interactive and view.on_pick is not None:
            view.on_pick(value)

    listen(node, "click", clicked)


def headed_table(cls: str, keys: str, columns: tuple) -> object:
    """A ``<table class="cls">`` whose first row heads each column with the message ``keys + column``."""
    head = el("tr")
    for column in columns:
        add(head, el("th", t(keys + column)))
    return add(el("table", None, cls), head)


# --- what a tap tells (no hover on a touch screen) ------------------------------------------------

FACTS_ID = "piece-facts"
_told = [None, None, None, None]  # the board node, the selector finding the tapped piece again, the piece, the view


def tell_on_tap(board_node: object) -> object:
    """The panel under the board (``#piece-facts``) that shows, in visible text, the ``<title>`` of the
    board piece a tap (or a click) lands on: a monster's stats, an investigator, a gate, a figure's hit
    points, a square's cost (a phone never shows a tooltip: the arkham table probe). The tap still does
    what it did (a destination is still moved to: its own listener runs first); the panel only tells.
    Made once per page; a view built again on the same board (a new offline game) reuses it."""
    panel = byid(FACTS_ID)
    if panel is None and board_node is not None and board_node.parentNode is not None:
        panel = el("p", None, "piece-facts", (("id", FACTS_ID), ("role", "status"), ("hidden", "")))
        board_node.parentNode.insertBefore(panel, board_node.nextSibling)
        listen(board_node, "click", _tapped)
    return panel


def _key(node: object) -> str | None:
    """A selector finding ``node`` again once the board is redrawn: its tag, first class and first
    ``data-`` attribute (a monster's ``g.monster[data-monster="ghoul"]``); None without one."""
    names = [str(name) for name in node.getAttributeNames() if str(name).startswith("data-")]
    if not names:
        return None
    classes = str(node.getAttribute("class") or "").split()
    value = window.CSS.escape(str(node.getAttribute(names[0])))
    return str(node.tagName) + ("." + window.CSS.escape(classes[0]) if classes else "") + f'[{names[0]}="{value}"]'


def _tapped(event: object) -> None:
    """The nearest piece around the tapped node that has a ``<title>`` of its own (the board's own, on
    its ``<svg>``, names the board: not a piece) goes into the panel."""
    board = event.currentTarget
    node = event.target
    while node is not None and node is not board:
        if str(node.tagName).lower() == "svg":
            break
        text = _facts(node)
        if text:
            _told[0], _told[1], _told[2] = board, _key(node), node
            _show(text)
            byid(FACTS_ID).scrollIntoView(window.JSON.parse('{"block": "nearest"}'))  # below a phone's fold
            return
        node = node.parentNode


def _facts(node: object) -> str:
    """A piece's own ``<title>``, and what its view adds (``told_with(node)``: a tooltip on a layer no pointer
    reaches, skirmish's line of sight to a figure, SK-C3); "" for a node without a title."""
    title = node.querySelector(":scope > title")
    text = str(title.textContent).strip() if title is not None else ""
    more = getattr(_told[3], "told_with", None)
    extra = more(node) if text and more is not None else ""
    return text + (" · " + extra if extra else "")


def _show(text: object) -> None:
    panel = byid(FACTS_ID)
    if panel is None:
        return
    if text:
        set_text(panel, text)
        panel.removeAttribute("hidden")
    else:
        _told[0] = _told[1] = _told[2] = None
        set_text(panel, "")
        panel.setAttribute("hidden", "")


def _retell() -> None:
    """After a draw: the tapped piece's facts as the board now says them (a monster's new area, an
    area's cost); hidden once it is gone (a monster defeated, an investigator devoured)."""
    board, key, node = _told[0], _told[1], _told[2]
    if board is None:
        return
    found = board.querySelector(key) if key is not None else (node if node.isConnected else None)
    _show(_facts(found) if found is not None else "")

"""The ``mecha`` board as SVG: hex Locations, the Camp, card spaces, Mechas, Corruption, the route.

Hexes are axial ``[q, r]`` and drawn pointy-top (Red Blob Games' layout): pixels exist only here.
Everything shown is read from the folded state; the legal destinations come from the game's own
``legal`` and ``destinations``, never from a second copy of the rules.

DOM calls are the expensive part of a page in Brython, so the board is built once per game (hexes,
links, labels) and each later ``draw`` only changes what differs: classes, stacks, Mechas, route.
"""

from __future__ import annotations

from client.boards import svgkit
from client.boards.svgkit import View, headed_table, pick_on_click, polygon_points, show_route, swatch, wrap, wrap_lines
from client.dom import add, clear, el, markup, set_text, svg
from client.i18n import MARK, again, local_name, seat_initials, seat_name, t
from events.games.mecha.model import Move
from events.games.mecha.rules import destinations, seat_index, turn

SIZE = 50  # hex radius in SVG units
NAME_ROOM = 74  # SVG units a line of a Location's name may take: its hex is 78 wide where the name sits
SQRT3 = 1.7320508075688772
# Pointy-top corner offsets for a unit hex, from -30 degrees clockwise.
CORNERS = ((0.866, -0.5), (0.866, 0.5), (0.0, 1.0), (-0.866, 0.5), (-0.866, -0.5), (0.0, -1.0))
PALETTE = ("#d63c3c", "#3c6fd6", "#2f9e44", "#e0b000", "#8a4fd0")
TOKEN_COLOURS = {"orange": "#f08c2e", "turquoise": "#2bb5b0"}


def hex_center(hex: tuple) -> tuple:
    q, r = hex
    return (round(SIZE * SQRT3 * (q + r / 2), 1), SIZE * 1.5 * r)


def _colour(colour: str) -> str:
    """A Corruption token's colour (orange, turquoise) in the reader's language."""
    return t("mecha.colour_" + colour) if colour in TOKEN_COLOURS else colour


def hex_points(center: tuple, scale: float = 0.9) -> str:
    return polygon_points(center[0], center[1], SIZE * scale, CORNERS)


# A Location's hex around (0, 0), placed with a translate: one text for every Location's polygon
# instead of twelve roundings each at the first draw (issue 16).
HEX_AT_ORIGIN = hex_points((0, 0))


def seat_colour(state: object, seat: str) -> str:
    return svgkit.seat_colour(state, seat, seat_index, PALETTE)


def _where(position: object) -> str:
    return t("mecha.camp") if position is None else t("mecha.location", number=position)


class _Place(svgkit.Place):
    """A Location as drawn: a place with its token nodes, and the stack, title text and map token it
    shows now (to skip unchanged updates)."""

    __slots__ = ("tokens", "map_token", "stack", "text", "mapped")

    def __init__(self, group: object, title: object, tokens: object, map_token: object, label: str) -> None:
        svgkit.Place.__init__(self, group, title, label)
        self.tokens = tokens
        self.map_token = map_token
        self.stack = ()
        self.text = ""
        self.mapped = False


class MechaView(View):
    """Draws one ``mecha`` state into a board node (SVG inside) and an info node (HTML)."""

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        View.__init__(self, game, board_node, info_node)
        self.places: dict = {}
        self.mechs: dict = {}
        self.route = None
        self.centres: dict = {}
        self.camp = (0, 0)

    # --- what the page asks -----------------------------------------------------------------------

    def hints(self, state: object, seat: object) -> dict:
        """Legal destinations of ``seat`` now -> shortest legal path, from the game's own rules."""
        if state is None or seat is None or seat not in turn(state):
            return {}
        paths = destinations(state, seat_index(state, seat))
        legal = self.game.legal(state, seat)
        return {cmd.to: paths.get(cmd.to, ()) for cmd in legal if isinstance(cmd, Move) and cmd.to is not None}

    def actions(self, state: object, seat: object) -> list:
        """Buttons: Pass always; a Move that stays put when no destination exists (MV-5)."""
        out = [(t("mecha.pass"), "Pass", {})]
        if state is not None and seat in turn(state):
            if any([isinstance(cmd, Move) and cmd.to is None for cmd in self.game.legal(state, seat)]):
                out.insert(0, (t("mecha.stay"), "Move", {"to": None}))
        return out

    def pick_command(self, state: object, seat: object, place: object) -> tuple:
        """A click on a Location sends ``Move`` to it (the rules decide); the label names the Location."""
        return "Move", {"to": place}, t("play.move_to", place=_where(place))

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        if command.TYPE == "Move":
            return t("mecha.stay") if command.to is None else t("play.move_to", place=_where(command.to))
        return t("mecha.pass") if command.TYPE == "Pass" else None

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if not self.begin_draw(state, interactive, on_pick):
            return
        hints = self.hints(state, seat)
        face_up = state.face_up
        map_tokens = state.map_tokens
        stacks = dict(state.stacks)
        for number, place in self.places.items():
            up = number in face_up
            hint = hints.get(number)
            cls = "loc face-up" if up else "loc face-down"
            if hint is not None:
                cls += " dest"
            if interactive:
                cls += " clickable"
            if cls != place.cls:
                place.group.setAttribute("class", cls)
                place.group.setAttribute("data-dest", "1" if hint is not None else "0")
                place.cls = cls
            text = place.label + ", " + (t("mecha.face_up") if up else t("mecha.face_down"))
            if hint is not None:
                text += " · " + t("mecha.via", route=" → ".join([str(step) for step in hint]))
            if text != place.text:
                set_text(place.title, text)
                place.text = text
            mapped = number in map_tokens
            if mapped != place.mapped:
                place.map_token.setAttribute("visibility", "visible" if mapped else "hidden")
                place.mapped = mapped
            stack = stacks.get(number, ())
            if stack != place.stack:
                self._tokens(place, stack)
        self._draw_mechs(state, seat)
        self._draw_route(envelopes)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes))

    def _build(self, state: object) -> None:
        """The parts that never change during a game: hexes, links, labels, card spaces, the Camp.

        Written as one SVG text and parsed by the browser at once (``board_node.innerHTML``), then the
        nodes a redraw changes are found by their place in it: ~330 elements built one by one cost
        ~45 ms of a warm play page's first draw in Brython (issue 16). Every text and attribute value
        in it goes through ``markup`` (scenario data is a user's: a name is never markup)."""
        board = state.board
        self.centres = {location.number: hex_center(location.hex) for location in board.locations}
        self.camp = camp = hex_center(board.camp_hex)
        points = list(self.centres.values()) + [hex_center(hex) for _, hex in board.card_spaces] + [camp]
        xs = [x for x, _ in points]
        ys = [y for _, y in points]
        pad = SIZE * 1.2
        box = f"{round(min(xs) - pad)} {round(min(ys) - pad)} {round(max(xs) - min(xs) + 2 * pad)} " \
              f"{round(max(ys) - min(ys) + 2 * pad)}"
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board mecha-board" viewBox="{box}" role="img" '
                 f'data-board="{markup(board.name)}"><title>{markup(local_name("mecha", board.name, board.name))}'
                 '</title><defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
                 'markerHeight="5" orient="auto-start-reverse"><path class="arrow-head" d="M 0 0 L 10 5 L 0 10 z">'
                 '</path></marker></defs><g class="links">']
        for a, b in board.links:
            (x1, y1), (x2, y2) = self.centres[a], self.centres[b]
            parts.append(f'<line class="link" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"></line>')
        for number in board.camp_adjacent:
            x2, y2 = self.centres[number]
            parts.append(f'<line class="link camp-link" x1="{camp[0]}" y1="{camp[1]}" x2="{x2}" y2="{y2}"></line>')
        parts.append("</g>")
        for name, hex in board.card_spaces:
            x, y = hex_center(hex)
            parts.append(f'<g class="card-space" data-card="{markup(name)}"><polygon class="card" '
                         f'points="{hex_points((x, y), 0.8)}"></polygon><text class="card-label" x="{x}" y="{y + 4}">'
                         f'{markup(t("mecha.card", name=name))}</text></g>')
        parts.append(f'<g class="camp"><polygon class="camp-hex" points="{hex_points(camp, 0.9)}"></polygon>'
                     f'<text class="camp-label" x="{camp[0]}" y="{camp[1] - SIZE * 0.45}">'
                     f'{markup(t("mecha.camp_label"))}</text></g>')
        labels = []
        levels: dict = {}  # a level's words, once per level
        for location in board.locations:
            labels.append(self._location_markup(location, parts, levels))
        parts.append('<g class="last-move"><polyline class="route" marker-end="url(#arrow)" points=""></polyline>'
                     '</g><g class="mechs">')
        for seat in state.seats:
            parts.append(f'<g class="mech" data-seat="{markup(seat.seat)}"><title></title><circle class="mech-body" '
                         f'r="10" fill="{markup(seat_colour(state, seat.seat))}"></circle><text class="mech-label" '
                         f'y="4">{markup(seat_initials(seat.seat))}</text></g>')
        parts.append("</g></svg>")
        self.board_node.innerHTML = "".join(parts)
        root = self.board_node.firstElementChild
        # The nodes a redraw changes, in the order they were written: each Location's group (its
        # <title> first, its map token and token stack last), the route, each seat's Mecha.
        self.places = {}
        groups = root.querySelectorAll("g.loc")
        for index, location in enumerate(board.locations):
            group = groups.item(index)
            tokens = group.lastElementChild
            pick_on_click(self, group, location.number)
            self.places[location.number] = _Place(group, group.firstElementChild, tokens,
                                                  tokens.previousElementSibling, labels[index])
        self._fit_names(groups, board)
        self.route = root.querySelector("polyline.route")
        self.mechs = {}
        mechs = root.querySelectorAll("g.mech")
        for index, seat in enumerate(state.seats):
            mech = mechs.item(index)
            self.mechs[seat.seat] = (mech, mech.firstElementChild, [None])

    def _fit_names(self, groups: object, board: object) -> None:
        """Wrap again, narrower, a Location's name with a line wider than its hex (Russian "Шепчущие сосны" took 87
        of its 78 units, over the next hexes; wrapping counts characters, and Cyrillic letters are wider): every
        line measured once per board (``getComputedTextLength``, one layout), read before any is changed; a name
        is wrapped again only where two lines of the narrower width hold it (else the tooltip has it whole)."""
        wide = []
        for index, location in enumerate(board.locations):
            lines = groups.item(index).querySelectorAll("text.loc-name")
            widths = [lines.item(i).getComputedTextLength() for i in range(lines.length)]
            if widths and max(widths) > NAME_ROOM:
                wide.append((groups.item(index), location, lines, widths))
        for group, location, lines, widths in wide:
            per_letter = max(width / max(1, len(lines.item(i).textContent.replace(MARK, "")))
                             for i, width in enumerate(widths))
            room = int(NAME_ROOM / per_letter)
            fitted = wrap(local_name("mecha", location.name, location.name).replace(MARK, ""), room)
            if len(fitted) > 2 or any(len(line) > room for line in fitted):
                continue
            x, y = self.centres[location.number]
            level = group.querySelector("text.loc-level")
            for i in range(lines.length):
                group.removeChild(lines.item(i))
            for i, line in enumerate(fitted):
                group.insertBefore(svg("text", "loc-name", (("x", x), ("y", y - 12 + i * 11)), again(line)), level)

    def _location_markup(self, location: object, parts: list, levels: dict) -> str:
        """A Location's group as SVG text, appended to ``parts``; returns its label (its words for a reader)."""
        number = location.number
        x, y = self.centres[number]
        shown = local_name("mecha", location.name, location.name)
        parts.append(f'<g class="loc" data-number="{number}"><title></title><polygon class="hex" '
                     f'points="{HEX_AT_ORIGIN}" transform="translate({x} {y})"></polygon><text class="loc-number" '
                     f'x="{x}" y="{y - SIZE * 0.54}">{number}</text>')
        for i, line in enumerate(wrap_lines(shown, 14, 2)):
            parts.append(f'<text class="loc-name" x="{x}" y="{y - 12 + i * 11}">{markup(again(line))}</text>')
        # Top to bottom: the number (the map token beside it), the name, the level, then one row of the
        # Corruption stack and the Mecha: on a phone the stack and the Mecha covered the name's second line.
        mx, my = x + SIZE * 0.44, y - SIZE * 0.58
        if location.level not in levels:  # ``in``, not a missed ``get``: Brython raises a KeyError for that
            levels[location.level] = markup(t("mecha.level", level=location.level))
        level = levels[location.level]
        parts.append(f'<text class="loc-level" x="{x}" y="{y + SIZE * 0.22}">'
                     f'{level}</text><rect class="map-token" x="{mx - 6}" '
                     f'y="{my - 6}" width="12" height="12" transform="rotate(45 {mx} {my})" visibility="hidden"></rect>'
                     f'<g class="stack" data-location="{number}"></g></g>')
        return t("mecha.location_label", number=number, name=shown, level=location.level)

    def _tokens(self, place: object, stack: tuple) -> None:
        """A Location's Corruption stack: one coloured disc per token, bottom first, value inside."""
        clear(place.tokens)
        number = int(place.group.getAttribute("data-number"))
        x, y = self.centres[number]
        for i, (value, colour) in enumerate(stack):
            tx = x - SIZE * 0.56 + i * 12
            ty = y + SIZE * 0.5
            token = svg("g", f"token token-{colour}", (("data-value", value),))
            add(token, svg("circle", None, (("cx", tx), ("cy", ty), ("r", "6.5"),
                                            ("fill", TOKEN_COLOURS.get(colour, "#999999")))),
                svg("text", "token-value", (("x", tx), ("y", ty + 3)), value))
            add(place.tokens, token)
        place.stack = stack

    def _draw_mechs(self, state: object, current: object) -> None:
        in_camp = 0
        for index, seat in enumerate(state.seats):
            position = state.positions[index]
            if position is None:
                x = self.camp[0] - SIZE * 0.45 + in_camp * SIZE * 0.3
                y = self.camp[1] + SIZE * 0.1
                in_camp += 1
            else:
                x, y = self.centres[position]
                x += SIZE * 0.54  # lower right: the stack's row, clear of the name and the level
                y += SIZE * 0.5
            node, title, shown = self.mechs[seat.seat]
            mover = "1" if seat.seat == current else "0"  # the piece a phone's scaled board opens on
            if node.getAttribute("data-mover") != mover:
                node.setAttribute("data-mover", mover)
            if shown[0] != (x, y):
                node.setAttribute("transform", f"translate({round(x, 1)} {round(y, 1)})")
                node.setAttribute("data-at", "camp" if position is None else position)
                set_text(title, t("mecha.mech_title", seat=seat_name(seat.seat), mech=seat.mech, at=_where(position)))
                shown[0] = (x, y)

    def _draw_route(self, envelopes: list) -> None:
        """The last move's path (MV-C4), from where it started, drawn as a line with an arrow."""
        moved = svgkit.last_event(envelopes, "MechMoved")
        if moved is None:
            self.route.setAttribute("visibility", "hidden")
            return
        points = [self.camp if moved.start is None else self.centres[moved.start]]
        points += [self.centres[place] for place in moved.path if place in self.centres]
        show_route(self.route, points, [str(place) for place in moved.path])

    def _info(self, state: object, envelopes: list) -> list:
        nodes = [self.title_node(state, envelopes)]  # the scenario's own title
        if state.over:
            nodes.append(el("p", t("mecha.over", n=state.rounds), "turn over"))
        else:
            seat = state.seats[state.turn]
            line = el("p", None, "turn")
            add(line, el("span", t("mecha.round")), el("b", f"{state.round} / {state.rounds}", "round"),
                el("span", t("mecha.turn")), swatch(seat_colour(state, seat.seat)),
                el("b", t("mecha.seat_mech", seat=seat_name(seat.seat), mech=seat.mech), "turn-seat"))
            nodes.append(line)
        table = headed_table("seats", "mecha.col_", ("seat", "mech", "at", "range", "plans", "revealed"))
        for index, seat in enumerate(state.seats):
            row = el("tr", None, "seat-row", (("data-seat", seat.seat),))
            name = add(el("td", None, "seat-name"), swatch(seat_colour(state, seat.seat)), el("span", " " + seat_name(seat.seat)))
            plans = state.plans[index]
            add(row, name, el("td", seat.mech, None, (("translate", "no"),)), el("td", _where(state.positions[index])),
                el("td", f"{seat.range_min}–{seat.range_max}"),
                el("td", f"{len(plans)}: {', '.join([str(p) for p in plans]) or '—'}", "plans"),
                el("td", len(state.revealed[index])))
            add(table, row)
        nodes.append(table)
        total = sum([count for _, _, count in state.bag])
        parts = [f"{value} {_colour(colour)} ×{count}" for value, colour, count in state.bag]
        bag = add(el("p", None, "bag"), el("b", t("mecha.bag")), el("span", t("mecha.tokens", n=total), "bag-total"),
                  el("span", " (" + ", ".join(parts) + ")" if parts else t("mecha.empty")))
        if state.token_20 is not None:
            add(bag, el("span", t("mecha.token_20", value=state.token_20[0], colour=_colour(state.token_20[1]))))
        nodes.append(bag)
        nodes.append(el("p", t("mecha.map_left", n=len(state.map_tokens)), "map-left"))
        return nodes

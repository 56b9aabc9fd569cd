"""The ``skirmish`` board as SVG: the square grid, its walls, doors and terrain, figures, sight lines.

Colours follow the rule text: magenta walls (SK-1), green low objects (SK-3), yellow difficult
terrain (SK-4), orange pits (SK-5), light-blue doors (SK-6), drawn solid when closed and as an open
leaf when open. Colours are SVG presentation attributes, not CSS, so the page needs no stylesheet
change and no inline style (the CSP forbids those).

Everything shown is read from the folded state and the log: reachable squares and their costs come
from the game's own ``destinations`` (the cost shows on the square and in its tooltip on hover),
line of sight and cover from its ``sight`` (SK-C3), drawn from the selected figure (the active one
unless another is clicked) to every other figure. The buttons are the game's ``legal`` commands
except moves, which are clicks on a highlighted square: one click moves there by the cheapest
legal path. To choose the way instead (issue 15), the acting seat presses "Plan a path by
waypoints", clicks squares one after another (each leg from ``path_leg``: a neighbour is the step
asked, legal or not; a farther square the cheapest way there), sees the running cost on every
square of the path (``path_costs``), and confirms: the Move carries the path, and the rules check
each step and refuse the first illegal one with its clause. A door wider than one square is one
door, drawn as one leaf along all its edges. The side panel lists figures and doors and the door
contests with both rolls and both bonuses (SK-10, SK-11, SK-C4).
"""

from __future__ import annotations

from client.boards.svgkit import View, headed_table, last_event, show_route
from client.dom import add, clear, el, listen, set_text, svg
from client.i18n import MARK, command_name, local_name, seat_name, t
from events.games.skirmish.model import Move
from events.games.skirmish.rules import (
    destinations,
    figure,
    legal,
    may_attack,
    movement_left,
    path_costs,
    path_leg,
    sight,
    turn,
)
from events.geometry.squares import square_edge_points, square_name

S = 46  # a square's side in SVG units
MARGIN = 22
WALL = "#d61fd6"  # magenta
DOOR = "#7cc8f2"  # light blue
FILL = {"floor": "#f3efe4", "low": "#7ccf6b", "difficult": "#f2d64b", "pit": "#f08c2e"}
SIDE_COLOURS = ("#d63c3c", "#3c6fd6")
SIGHT = {"clear": "#1f8a4c", "cover": "#d19a00", "blocked": "#c62828"}
PLAN = "#2b59c3"  # the path being planned


def _pt(value: int) -> int:
    return MARGIN + value * S


def _centre(square: tuple) -> tuple:
    return (MARGIN + square[0] * S + S // 2, MARGIN + square[1] * S + S // 2)


class SkirmishView(View):
    """Draws one ``skirmish`` state into a board node (SVG inside) and an info node (HTML)."""

    BUILT_FROM = "grid"

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        View.__init__(self, game, board_node, info_node)
        self.squares: dict = {}
        self.doors: dict = {}
        self.figures: dict = {}
        self.sight_layer = None
        self.route = None
        self.selected = None  # a figure id clicked by the viewer, or None: the active figure
        self.state = None
        self.known = None  # the first state: every figure, for names in the log
        self.envelopes: list = []
        self.seat = None  # this page's seat, as ``actions`` and ``prompt_text`` learn it
        self.hint_map: dict = {}
        self.plan = None  # a path being planned: {"figure", "start", "path": [squares], "legs": [lengths]}
        self.plan_line = None
        self.planner = None  # the planner's node in the side panel

    # --- what the page asks -------------------------------------------------------------------------

    def hints(self, state: object, seat: object) -> dict:
        """Squares the acting figure can move to now -> (cost, path), from the game's own rules."""
        if state is None or state.over or state.active is None or state.active.pending:
            return {}
        if seat is not None and seat not in turn(state):
            return {}
        item = figure(state, state.active.figure)
        return destinations(state, item)

    def actions(self, state: object, seat: object) -> list:
        """One button per legal command of ``seat`` except moves (those are clicks on squares)."""
        self._learn_seat(seat)
        if state is None or seat is None:
            return []
        out = []
        for command in legal(state, seat):
            if isinstance(command, Move):
                continue
            data = command.to_data()
            kind = data.pop("type")
            out.append((self._label(state, command), kind, data))
        return out

    def _learn_seat(self, seat: object) -> None:
        """The page tells its seat to ``actions`` and ``prompt_text``, after a draw: the planner
        (which only the acting seat sees) is drawn again when it first learns it."""
        if seat is not None and seat != self.seat:
            self.seat = seat
            if self.planner is not None and self.state is not None:
                self._draw_planner()

    def prompt_text(self, state: object, seat: object, current: object) -> str:
        """The line before the buttons, in this game's words (a square, a figure; not mecha's Location)."""
        self._learn_seat(seat)
        if seat not in turn(state):
            return t("play.waiting", seat=seat_name(current))
        if state.active is None:
            return t("sk.prompt_activate")
        if state.active.pending:
            return t("sk.prompt_doors")
        return t("sk.prompt_move") if self.hints(state, seat) else t("sk.prompt_choice")

    def pick_command(self, state: object, seat: object, place: object) -> tuple:
        """A click on a square moves the acting figure there by its cheapest path; a planned path
        (``{"path": [...]}`` from the planner) moves it along that path (the rules say if it may)."""
        if isinstance(place, dict):
            item = figure(state, state.active.figure) if state is not None and state.active is not None else None
            path = [list(square) for square in place["path"]]
            route = " → ".join(square_name(tuple(square)) for square in [place["start"]] + path)
            data = {"to": path[-1], "path": path}
            if item is not None:
                data["figure"] = item.id
            return ("Move", data, t("sk.move_along", figure=self.name(item) if item is not None else "", route=route))
        square = tuple(place)
        name = square_name(square)
        if state is not None and state.active is not None:
            item = figure(state, state.active.figure)
            return ("Move", {"figure": item.id, "to": list(square)}, t("sk.move_figure", figure=self.name(item), to=name))
        return ("Move", {"to": list(square)}, t("play.move_to", place=name))

    def name(self, item: object) -> str:
        """A figure by its name in the reader's language (client/i18n/names/skirmish.<lang>.json)."""
        return local_name("skirmish", item.name, item.name)

    def fig(self, figure_id: object) -> str:
        """A figure id from an event, by name: looked up in the newest state, else the first."""
        for known in (self.state, self.known):
            if known is not None:
                item = figure(known, figure_id)
                if item is not None:
                    return self.name(item)
        return str(figure_id)

    def door(self, door_id: object) -> str:
        """A door by name: ``door2`` is "door 2" in the reader's language."""
        text = str(door_id)
        return t("sk.door_name", door=text[4:] if text.startswith("door") and text[4:].isdigit() else text)

    def _label(self, state: object, command: object) -> str:
        kind = command.TYPE
        item = figure(state, command.figure)
        who = self.name(item) if item is not None else command.figure
        if kind == "Activate":
            return t("sk.activate", figure=who)
        if kind == "Attack":
            return t("sk.attack", figure=who, target=self.name(figure(state, command.target)))
        if kind == "ContestDoor":
            key = "sk.contest_open" if command.open else "sk.contest_close"
            return t(key, figure=who, door=self.door(command.door))
        if kind == "EndActivation":
            return t("sk.end_activation", figure=who)
        if kind == "DecideDoor":
            if command.open:
                return t("sk.decide_open", figure=who, door=self.door(command.door))
            key = "sk.decide_close" if self._open(state, command.door) else "sk.decide_keep_closed"
            return t(key, figure=who, door=self.door(command.door))
        return command_name(self.game.name, kind)

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        if command.TYPE == "Move":
            who = self.fig(command.figure)
            if command.path:
                return t("sk.move_along", figure=who, route=" → ".join(square_name(tuple(square)) for square in command.path))
            return t("sk.move_figure", figure=who, to=square_name(tuple(command.to)))
        words = self._label(state, command)
        return None if words == command.TYPE else words

    @staticmethod
    def _open(state: object, door_id: str) -> bool:
        for item in state.doors:
            if item.id == door_id:
                return item.open
        return False

    # --- drawing --------------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if not self.begin_draw(state, interactive, on_pick):
            return
        self.state = state
        self.envelopes = envelopes
        self.hint_map = self.hints(state, seat)
        if not self._may_plan(state) or self.plan is not None and (
                self.plan["figure"] != state.active.figure
                or self.plan["start"] != figure(state, state.active.figure).at):
            self.plan = None  # it moved, or its activation is over: the plan is spent
        self._draw_squares(state)
        for item in state.doors:
            self._draw_door(state, item)
        self._draw_figures(state)
        self._draw_sight(state)
        self._draw_route(envelopes)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes))
        self._draw_planner()

    def _draw_squares(self, state: object) -> None:
        """Reachable squares with their cost (SK-C2); while a path is planned, the running cost
        on each square of the path instead."""
        hints = self.hint_map
        acting = figure(state, state.active.figure) if state.active is not None else None
        planned: dict = {}
        if self.plan is not None:
            for square, total in zip(self.plan["path"], path_costs(state, self.plan["start"], tuple(self.plan["path"]))):
                planned[square] = total
        for square, (group, title, cost_text, base) in self.squares.items():
            found = hints.get(square)
            if found is not None:
                cost = found[0]
                then = "" if acting is None or not may_attack(state, acting) or cost > acting.speed \
                    else t("sk.then_attack")
                set_text(title, t("sk.square_cost", square=square_name(square), n=cost) + then)
                set_text(cost_text, cost if self.plan is None else "")
                group.setAttribute("data-cost", cost)
                kind = "sq reach" + (" clickable" if self.interactive else "")
            else:
                set_text(title, base)
                set_text(cost_text, "")
                group.setAttribute("data-cost", "")
                kind = "sq"
            total = planned.get(square)
            if total is not None:
                set_text(cost_text, total)
                kind += " plan-step"
            group.setAttribute("data-plan-cost", "" if total is None else total)
            group.setAttribute("class", kind)
        self._show_plan(state)

    def _may_plan(self, state: object) -> bool:
        """Whether this page may plan a path now: its seat's figure is acting, its actions not over."""
        if not self.interactive or state is None or state.over or state.active is None or state.active.pending:
            return False
        item = figure(state, state.active.figure)
        return item is not None and item.side == self.seat and movement_left(state, item) > 0

    def _show_plan(self, state: object) -> None:
        if self.plan_line is None:
            return
        if self.plan is None or not self.plan["path"]:
            self.plan_line.setAttribute("visibility", "hidden")
            self.plan_line.setAttribute("data-path", "")
            return
        squares = [self.plan["start"]] + self.plan["path"]
        self.plan_line.setAttribute("points", " ".join([f"{_centre(sq)[0]},{_centre(sq)[1]}" for sq in squares]))
        self.plan_line.setAttribute("data-path", " ".join(square_name(sq) for sq in self.plan["path"]))
        self.plan_line.setAttribute("visibility", "visible")

    def _draw_planner(self) -> None:
        """The planner in the side panel: start planning, or the path so far with its cost, undo,
        stop, and the button that sends the Move along it."""
        node = self.planner
        if node is None:
            return
        clear(node)
        state = self.state
        if not self._may_plan(state):
            node.setAttribute("data-planning", "")
            return
        item = figure(state, state.active.figure)
        if self.plan is None:
            node.setAttribute("data-planning", "0")
            add(node, self._button(t("sk.plan_start"), "plan-start", self._start_plan))
            return
        node.setAttribute("data-planning", "1")
        path = self.plan["path"]
        left = movement_left(state, item)
        if path:
            cost = path_costs(state, self.plan["start"], tuple(path))[-1]
            route = " → ".join(square_name(sq) for sq in [self.plan["start"]] + path)
            text = t("sk.plan_line", figure=self.name(item), route=route, cost=cost, n=left)
        else:
            text = t("sk.plan_empty", figure=self.name(item), square=square_name(self.plan["start"]))
        add(node, el("p", text, "plan-summary", (("data-steps", len(path)),)))
        go = self._button(t("sk.plan_go"), "plan-go", self._send_plan)
        if not path:
            go.setAttribute("disabled", "disabled")
        add(node, go, self._button(t("sk.plan_undo"), "plan-undo", self._undo_plan),
            self._button(t("sk.plan_stop"), "plan-stop", self._stop_plan))

    def _button(self, label: str, cls: str, action: object) -> object:
        button = el("button", label, cls)

        def clicked(event: object) -> None:
            action()

        listen(button, "click", clicked)
        return button

    def _start_plan(self) -> None:
        state = self.state
        if not self._may_plan(state):
            return
        item = figure(state, state.active.figure)
        self.plan = {"figure": item.id, "start": item.at, "path": [], "legs": []}
        self._replan()

    def _stop_plan(self) -> None:
        self.plan = None
        self._replan()

    def _undo_plan(self) -> None:
        if self.plan is not None and self.plan["legs"]:
            count = self.plan["legs"].pop()
            self.plan["path"] = self.plan["path"][:-count]
            self._replan()

    def _add_waypoint(self, square: tuple) -> None:
        state = self.state
        item = figure(state, self.plan["figure"])
        here = self.plan["path"][-1] if self.plan["path"] else self.plan["start"]
        leg = path_leg(state, item, here, square)
        if leg:
            self.plan["path"] = self.plan["path"] + list(leg)
            self.plan["legs"].append(len(leg))
            self._replan()

    def _send_plan(self) -> None:
        if self.plan is not None and self.plan["path"] and self.on_pick is not None:
            self.on_pick({"start": self.plan["start"], "path": list(self.plan["path"])})

    def _replan(self) -> None:
        if self.state is not None:
            self._draw_squares(self.state)
            self._draw_planner()

    def _square_handler(self, square: tuple) -> object:
        def handler(event: object) -> None:
            if not self.interactive or self.on_pick is None:
                return
            if self.plan is not None:
                self._add_waypoint(square)
            else:
                self.on_pick(square)

        return handler

    def _build(self, state: object) -> None:
        grid = state.grid
        width, height = 2 * MARGIN + grid.width * S, 2 * MARGIN + grid.height * S
        root = svg("svg", "board skirmish-board", (("viewBox", f"0 0 {width} {height}"), ("role", "img"),
                                                   ("data-board", grid.name)))
        add(root, svg("title", None, (), local_name("skirmish", grid.name, grid.name)))
        kinds = {}
        for square in grid.low:
            kinds[square] = "low"
        for square in grid.difficult:
            kinds[square] = "difficult"
        for square in grid.pits:
            kinds[square] = "pit"
        names = {"floor": "", "low": ", " + t("sk.terrain_low"), "difficult": ", " + t("sk.terrain_difficult"),
                 "pit": ", " + t("sk.terrain_pit")}
        layer = svg("g", "squares")
        self.squares = {}
        for y in range(grid.height):
            for x in range(grid.width):
                square = (x, y)
                kind = kinds.get(square, "floor")
                group = svg("g", "sq", (("data-square", square_name(square)), ("data-x", x), ("data-y", y),
                                        ("data-kind", kind)))
                title = svg("title")
                cx, cy = _centre(square)
                cost = svg("text", "cost", (("x", cx), ("y", cy + 5), ("text-anchor", "middle"), ("font-size", "14"),
                                            ("font-weight", "700"), ("fill", "#1d2330")))
                add(group, title, svg("rect", "sq-" + kind, (
                    ("x", _pt(x)), ("y", _pt(y)), ("width", S), ("height", S), ("fill", FILL[kind]),
                    ("stroke", "#b9b2a0"), ("stroke-width", "1"))), cost)
                listen(group, "click", self._square_handler(square))
                self.squares[square] = (group, title, cost, square_name(square) + names[kind])
                add(layer, group)
        add(root, layer)
        reach = svg("g", "reach-marks")
        add(root, reach)
        labels = svg("g", "labels")
        for x in range(grid.width):
            add(labels, svg("text", "col", (("x", _pt(x) + S // 2), ("y", MARGIN - 7), ("text-anchor", "middle"),
                                            ("font-size", "11"), ("fill", "#667085")), square_name((x, 0))[:-1]))
        for y in range(grid.height):
            add(labels, svg("text", "row", (("x", MARGIN - 6), ("y", _pt(y) + S // 2 + 4), ("text-anchor", "end"),
                                            ("font-size", "11"), ("fill", "#667085")), y + 1))
        add(root, labels)
        walls = svg("g", "walls")
        for edge in grid.walls:
            (ax, ay), (bx, by) = square_edge_points(edge)
            add(walls, svg("line", "wall", (("x1", _pt(ax)), ("y1", _pt(ay)), ("x2", _pt(bx)), ("y2", _pt(by)),
                                            ("stroke", WALL), ("stroke-width", "7"), ("stroke-linecap", "round"))))
        add(root, walls)
        doors = svg("g", "doors")
        self.doors = {}
        for entry in grid.doors:  # one door, however many edges: one leaf along all of them (SK-6)
            door_id, edges = entry[0], entry[1:]
            group = svg("g", "door", (("data-door", door_id), ("data-edges", len(edges))))
            title = svg("title")
            ax, ay = square_edge_points(edges[0])[0]
            bx, by = square_edge_points(edges[-1])[1]
            leaf = svg("line", "leaf", (("x1", _pt(ax)), ("y1", _pt(ay)), ("x2", _pt(bx)), ("y2", _pt(by)),
                                        ("stroke", DOOR), ("stroke-width", "8"), ("stroke-linecap", "butt")))
            label = svg("text", "door-label", (("x", (_pt(ax) + _pt(bx)) // 2 + 4), ("y", (_pt(ay) + _pt(by)) // 2 - 4),
                                               ("font-size", "10"), ("fill", "#1b5d85")), self.door(door_id))
            add(group, title, leaf, label)
            self.doors[door_id] = (group, title, leaf, (ax, ay, bx, by), [None])
            add(doors, group)
        add(root, doors)
        self.route = svg("polyline", "route", (("points", ""), ("fill", "none"), ("stroke", "#e4572e"),
                                               ("stroke-width", "3"), ("stroke-opacity", "0.8"),
                                               ("pointer-events", "none")))
        add(root, self.route)
        self.plan_line = svg("polyline", "plan", (("points", ""), ("fill", "none"), ("stroke", PLAN),
                                                  ("stroke-width", "4"), ("stroke-dasharray", "7 4"),
                                                  ("visibility", "hidden"), ("pointer-events", "none")))
        add(root, self.plan_line)
        self.sight_layer = svg("g", "sight", (("pointer-events", "none"),))
        add(root, self.sight_layer)
        figures = svg("g", "figures")
        self.figures = {}
        for item in state.figures:
            colour = SIDE_COLOURS[state.sides.index(item.side) % 2]
            group = svg("g", "fig", (("data-figure", item.id), ("data-side", item.side)))
            title = svg("title")
            ring = svg("circle", "ring", (("r", S // 2 - 3), ("fill", "none"), ("stroke", "#111"), ("stroke-width", "0")))
            body = svg("circle", "body", (("r", S // 2 - 8), ("fill", colour), ("stroke", "#111"), ("stroke-width", "1.5")))
            letter = svg("text", "fig-label", (("y", "4"), ("text-anchor", "middle"), ("font-size", "11"),
                                               ("font-weight", "800"), ("fill", "#fff"), ("translate", "no")),
                         _initials(self.name(item)))
            hp = svg("text", "fig-hp", (("y", S // 2 - 1), ("text-anchor", "middle"), ("font-size", "9"),
                                        ("fill", "#1d2330")))
            add(group, title, ring, body, letter, hp)
            listen(group, "click", self._figure_handler(item.id))
            self.figures[item.id] = (group, title, ring, hp, [None])
            add(figures, group)
        add(root, figures)
        clear(self.board_node)
        add(self.board_node, root)

    def _figure_handler(self, figure_id: str) -> object:
        def handler(event: object) -> None:
            if self.plan is not None and self.interactive and self.state is not None:
                item = figure(self.state, figure_id)  # a waypoint on its square: through an ally, say
                if item is not None and item.at is not None:
                    self._add_waypoint(item.at)
                return
            self.selected = figure_id
            if self.state is not None:
                self._draw_figures(self.state)
                self._draw_sight(self.state)

        return handler

    def _draw_door(self, state: object, item: object) -> None:
        group, title, leaf, (ax, ay, bx, by), shown = self.doors[item.id]
        holder = figure(state, item.holder) if item.holder else None
        standing = holder is not None and holder.at is not None  # a defeated holder holds nothing (skirmish-3)
        now = (item.open, item.holder, standing)
        if shown[0] == now:
            return
        shown[0] = now
        group.setAttribute("data-open", "1" if item.open else "0")
        group.setAttribute("data-holder", item.holder if standing else "")
        if item.open:  # the leaf swung open: a dashed line square to the door at its first end
            span = 2 * (abs(bx - ax) + abs(by - ay)) * S // 3
            leaf.setAttribute("x2", _pt(ax) + (span if ax == bx else 0))
            leaf.setAttribute("y2", _pt(ay) + (0 if ax == bx else span))
            leaf.setAttribute("stroke-dasharray", "4 3")
        else:
            leaf.setAttribute("x2", _pt(bx))
            leaf.setAttribute("y2", _pt(by))
            leaf.setAttribute("stroke-dasharray", "none")
        wide = abs(bx - ax) + abs(by - ay)
        set_text(title, self._door_text(item, holder) + (t("sk.door_wide", n=wide) if wide > 1 else ""))

    def _selected(self, state: object) -> object:
        if self.selected is not None:
            item = figure(state, self.selected)
            if item is not None and item.at is not None:
                return item
        if state.active is not None:
            return figure(state, state.active.figure)
        return None

    def _draw_figures(self, state: object) -> None:
        chosen = self._selected(state)
        active = state.active.figure if state.active is not None else None
        done = set(state.activated)
        for item in state.figures:
            group, title, ring, hp, shown = self.figures[item.id]
            look = (item.at, item.hp, item.id == active, item.id in done, chosen is not None and chosen.id == item.id)
            if shown[0] == look:
                continue
            shown[0] = look
            if item.at is None:
                group.setAttribute("visibility", "hidden")
                group.setAttribute("data-at", "")
                continue
            x, y = _centre(item.at)
            group.setAttribute("visibility", "visible")
            group.setAttribute("transform", f"translate({x} {y})")
            group.setAttribute("data-at", square_name(item.at))
            group.setAttribute("opacity", "0.55" if item.id in done else "1")
            group.setAttribute("class", "fig" + (" active" if item.id == active else "")
                               + (" selected" if look[4] else ""))
            ring.setAttribute("stroke-width", "3" if item.id == active or look[4] else "0")
            ring.setAttribute("stroke", "#e4572e" if item.id == active else "#3c6fd6")
            set_text(hp, f"{item.hp}/{item.max_hp}")
            set_text(title, t("sk.figure_title", figure=self.name(item), side=seat_name(item.side),
                              at=square_name(item.at), attack=item.attack, defense=item.defense, speed=item.speed,
                              hp=item.hp, max_hp=item.max_hp) + (t("sk.melee") if item.melee else ""))

    def told_with(self, node: object) -> str:
        """What a tap on a figure tells besides its own tooltip (svgkit.tell_on_tap): the tap selects it, and
        its lines of sight to every other figure, with the screens giving cover (SK-C3), are told too (their
        tooltips sit on the sight layer, which no pointer reaches)."""
        if not str(node.getAttribute("class") or "").startswith("fig"):
            return ""
        if node.getAttribute("data-figure") != self.sight_layer.getAttribute("data-from"):
            return ""
        lines = self.sight_layer.querySelectorAll("line.sight-line > title")
        return " · ".join([str(title.textContent).strip() for title in lines])

    def _draw_sight(self, state: object) -> None:
        """Lines of sight from the selected figure to every other standing figure (SK-C3)."""
        layer = clear(self.sight_layer)
        chosen = self._selected(state)
        if chosen is None:
            layer.setAttribute("data-from", "")
            return
        layer.setAttribute("data-from", chosen.id)
        x1, y1 = _centre(chosen.at)
        for other in state.figures:
            if other.at is None or other.id == chosen.id:
                continue
            seen, _edge, cover, corner, screens = sight(state, chosen.at, other.at)
            kind = "blocked" if not seen else "cover" if cover else "clear"
            sx, sy = (_pt(corner[0]), _pt(corner[1])) if cover and corner is not None else (x1, y1)
            x2, y2 = _centre(other.at)
            line = svg("line", f"sight-line {kind}", (
                ("x1", sx), ("y1", sy), ("x2", x2), ("y2", y2), ("stroke", SIGHT[kind]),
                ("stroke-width", "2.5" if seen else "1.5"), ("stroke-dasharray", "none" if kind == "clear" else "6 4"),
                ("data-target", other.id), ("data-los", "1" if seen else "0"), ("data-cover", "1" if cover else "0")))
            why = t("sk.no_los") if not seen else t("sk.cover", screens="; ".join(screens)) if cover \
                else t("sk.los_no_cover")
            add(line, svg("title", None, (), f"{self.name(chosen)} → {self.name(other)}: {why}"))
            add(layer, line)
            if kind != "clear":
                add(layer, svg("text", f"sight-mark {kind}", (("x", x2), ("y", y2 - S // 2 + 9), ("text-anchor", "middle"),
                                                              ("font-size", "10"), ("font-weight", "700"),
                                                              ("fill", SIGHT[kind])),
                               t("sk.mark_cover") if seen else t("sk.mark_no_los")))

    def _draw_route(self, envelopes: list) -> None:
        moved = last_event(envelopes, "FigureMoved")
        if moved is None:
            self.route.setAttribute("visibility", "hidden")
        else:
            show_route(self.route, [_centre(sq) for sq in (moved.start,) + moved.path],
                       [square_name(sq) for sq in moved.path])

    # --- the side panel -------------------------------------------------------------------------------

    def _door_text(self, item: object, holder: object) -> str:
        state = t("sk.open") if item.open else t("sk.closed")
        if holder is not None and holder.at is None:  # skirmish-3: a defeated holder holds nothing (SK-7)
            return t("sk.door_fallen", door=self.door(item.id), state=state, holder=self.name(holder))
        if holder is not None:
            return t("sk.door_held", door=self.door(item.id), state=state, holder=self.name(holder))
        return t("sk.door_free", door=self.door(item.id), state=state)

    def _info(self, state: object, envelopes: list) -> list:
        nodes = [self.title_node(state, envelopes)]
        if state.over:
            text = t("sk.over_won", side=seat_name(state.winner)) if state.winner else t("sk.over_drawn")
            nodes.append(el("p", text, "turn over"))
        else:
            line = el("p", None, "turn")
            add(line, el("span", t("sk.round_line", round=state.round, rounds=state.rounds)),
                el("b", seat_name(state.sides[state.turn]), "turn-seat"))
            if state.active is not None:
                item = figure(state, state.active.figure)
                add(line, el("span", t("sk.acting", figure=self.name(item), n=movement_left(state, item))
                             + ("" if may_attack(state, item) else t("sk.no_attack_left"))))
                if state.active.pending:
                    add(line, el("b", t("sk.must_decide", doors=", ".join(self.door(d) for d in state.active.pending)),
                                 "pending"))
            nodes.append(line)
        self.planner = el("div", None, "planner")
        nodes.append(self.planner)
        table = headed_table("seats figures", "sk.col_", ("figure", "side", "at", "hp", "attack", "defense", "move"))
        for item in state.figures:
            row = el("tr", None, "figure-row", (("data-figure", item.id),))
            add(row, el("td", self.name(item)), el("td", seat_name(item.side)),
                el("td", square_name(item.at) if item.at is not None else t("sk.defeated_at")),
                el("td", f"{item.hp}/{item.max_hp}"), el("td", item.attack), el("td", item.defense), el("td", item.speed))
            add(table, row)
        nodes.append(table)
        if state.doors:
            doors = el("ul", None, "door-list")
            for item in state.doors:
                holder = figure(state, item.holder) if item.holder else None
                add(doors, el("li", self._door_text(item, holder), "door-state",
                              (("data-door", item.id), ("data-open", "1" if item.open else "0"))))
            nodes.append(add(el("div", None), el("h3", t("sk.doors")), doors))
        contests = [envelope for envelope in envelopes if envelope.event.TYPE in ("DoorContested", "DoorTaken")]
        if contests:
            box = el("ol", None, "contests")
            for envelope in contests[-4:]:
                add(box, self._contest(state, envelope))
            nodes.append(add(el("div", None), el("h3", t("sk.door_contests")), box))
        return nodes

    def _contest(self, state: object, envelope: object) -> object:
        event = envelope.event
        row = el("li", None, "contest", (("data-seq", envelope.seq), ("data-door", event.door),
                                         ("data-winner", event.figure if event.TYPE == "DoorTaken" else event.winner)))
        who, door = self.fig(event.figure), self.door(event.door)
        if event.TYPE == "DoorTaken":
            add(row, el("span", t("sk.contest_taken", seq=envelope.seq, figure=who, door=door,
                                  holder=self.fig(event.holder))))
            return row
        holder = self.fig(event.holder)
        want = t("sk.want_open") if event.want_open else t("sk.want_closed")
        add(row, el("div", t("sk.contest_head", seq=envelope.seq, door=door, figure=who, want=want, holder=holder,
                              rule=event.rule), "contest-head"))
        add(row, el("div", t("sk.contest_bonus", figure=who, attack=event.figure_attack, bonus=event.figure_bonus,
                              holder=holder, holder_attack=event.holder_attack, holder_bonus=event.holder_bonus),
                    "contest-bonus"))
        for mine, my_total, theirs, their_total in event.throws:
            note = ""
            if mine == 20 and theirs == 20:
                note = t("sk.two_criticals")
            elif mine == 20 or theirs == 20:
                note = t("sk.one_critical")
            elif my_total == their_total:
                note = t("sk.tie")
            add(row, el("div", t("sk.throw", figure=who, mine=mine, my_total=my_total, holder=holder, theirs=theirs,
                                 their_total=their_total) + note, "throw", (("data-rolls", f"{mine} {theirs}"),)))
        state_word = t("sk.open") if event.open else t("sk.closed")
        add(row, el("div", t("sk.contest_result", winner=self.fig(event.winner), door=door, state=state_word),
                    "contest-result"))
        return row


def _initials(name: str) -> str:
    """A figure's token: the initials of its name in the reader's language, with any number
    ("Zombie 3" "Z3", "Sir Aldo" "SA"), never its id."""
    words = name.replace(MARK, "").split()
    return "".join(word if word.isdigit() else word[:1].upper() for word in words[:3]) or "?"

"""The ``gloomhaven`` board as SVG: the hex map, walls, terrain, figures; the round beside it.

Hexes are flat-topped and axial; pixels exist only here. Walls are drawn from the game's own
``HexMap`` (map edges, wall hexes, thin walls), so the picture is the geometry the rules use.
Beside the map: the initiative track, every character's cards (a pick shows only as "has
chosen" until the reveal: the page never holds another seat's pick), the last monster turn's
focus trace (every enemy considered, its path cost, proximity and initiative, and the rule that
decided) and, when the rules leave a choice to the players, the options, drawn on the map too.

A seat plays from the side panel: click two cards and a leading one; on its turn click a card
half, then a highlighted hex or figure. For a move, one click on a destination walks the cheapest
path (the rules find it: ``PlayCard.to``); "Build a path" instead collects waypoints, each click
adding the step to it (or the cheapest way there), with the route's cost shown as it grows, until
"Confirm path" sends the path as built (issue 15: the rules check every step and refuse the first
illegal one with its clause). The command goes through the page's ``pick_command`` hook; the
server's rules decide and a refusal comes back with its clause. A monster's move is animated hex
by hex when it arrives.
"""

from __future__ import annotations

from browser import timer

from client.boards.svgkit import polygon_points
from client.dom import add, clear, el, listen, set_text, svg
from events.games.gloomhaven import rules
from events.geometry.hexgrid import hex_distance
from events.geometry.hexmap import HexMap, hexmap_center

SIZE = 26  # hex radius in SVG units
SQRT3 = 1.7320508075688772
CORNERS = ((1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866))
TERRAIN = {"obstacles": "#6b6b6b", "traps": "#f2b8b5", "hazardous": "#f4a259", "difficult": "#b9d7a8",
           "doors": "#a0522d"}
SEAT_COLOURS = ("#d63c3c", "#3c6fd6", "#2f9e44", "#8a4fd0")
TERRAIN_NAMES = {"obstacles": "obstacle", "traps": "trap", "hazardous": "hazardous terrain",
                 "difficult": "difficult terrain", "doors": "door"}
MARK_TIPS = {"reach": "a legal hex for the chosen card half: click it",
             "target": "a target of the chosen card half: click it"}
STEP_MS = 180


def centre(hex: tuple) -> tuple:
    """A hex's centre in pixels: its centre in the geometry's corner lattice, through the one layout below."""
    return lattice(hexmap_center(hex))


def lattice(point: tuple) -> tuple:
    """A corner of ``events.geometry.hexmap``'s integer lattice, in pixels."""
    return (round(point[0] * SIZE / 2, 1), round(point[1] * SIZE * SQRT3 / 2, 1))


def points(hex: tuple, scale: float = 0.96) -> str:
    x, y = centre(hex)
    return polygon_points(x, y, SIZE * scale, CORNERS)


def hex_name(hex: tuple) -> str:
    return f"[{hex[0]}, {hex[1]}]"


class GloomhavenView:
    """Draws one ``gloomhaven`` state into a board node (SVG) and an info node (HTML)."""

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        self.game = game
        self.board_node = board_node
        self.info_node = info_node
        self.map = None
        self.cells: dict = {}  # hex -> (polygon, title, label)
        self.terrain: dict = {}  # hex -> its terrain key (open hexes are absent)
        self.figures: dict = {}  # figure id -> (group, title, circle, text)
        self.figure_layer = None
        self.viewer = None  # the seat this page plays (None: a spectator)
        self.chosen: list = []  # cards clicked for this round's pick
        self.half = None  # (card, half) clicked for the next action
        self.building = None  # the path being built by waypoints for a move half (None: one click moves)
        self.animated = 0  # the last seq whose move was animated
        self.moving: dict = {}  # figure id -> hex shown while animating
        self.last = None  # (state, envelopes, seat, interactive, on_pick) of the last draw

    # --- what the page asks -------------------------------------------------------------------------

    def prompt_text(self, state: object, seat: object, current: object) -> str:
        if seat != self.viewer:  # the page tells the seat here first: draw its cards now
            self.viewer = seat
            self._redraw()
        if state is None or rules.is_over(state):
            return "The scenario is over."
        turn = rules.turn(state)
        if seat not in turn:
            return f"Waiting for {', '.join(turn) or 'the monsters'}…"
        pending = state.pending
        if pending is not None:
            return {"initiative": "Initiative tie: agree on an order (GH-2):",
                    "monster-order": "Monster types tied: choose their order (GH-C3):",
                    "monster": "Equally good monster options: choose one (GH-C4), on the map or here:",
                    "short-rest": "End of round: short rest? (GH-C6)"}.get(pending.kind, "Choose:")
        # "or" only when buttons follow it (a long rest needs two discarded cards: GH-C6)
        more = ", or" if self.actions(state, seat) else "."
        if state.phase == "select":
            return "Pick two cards and the leading one in the panel (secret until all have chosen)" + more
        return "Your turn: click a card half in the panel, then a highlighted hex or figure" + more

    def actions(self, state: object, seat: object) -> list:
        """Buttons for the choices that are not clicks on the map: ties, options, rests, skips."""
        self.viewer = seat
        if state is None or seat is None or seat not in rules.turn(state):
            return []
        out = []
        for command in rules.legal(state, seat):
            kind = command.TYPE
            data = command.to_data()
            data.pop("type")
            if kind == "ChooseOrder":
                out.append(("Order: " + " → ".join(command.order), kind, data))
            elif kind == "ChooseOption":
                out.append((self._option_label(state, command.index), kind, data))
            elif kind == "ShortRest":
                out.append(("Short rest" if command.rest else "No short rest", kind, data))
            elif kind == "DeclareLongRest":
                out.append(("Long rest (initiative 99)", kind, data))
            elif kind == "RestLose":
                out.append((f"Long rest: lose {command.card}", kind, data))
            elif kind == "PlayCard" and command.skip:
                out.append((f"Skip {command.card} {command.half}", kind, data))
        return out

    def pick_command(self, state: object, seat: object, place: object) -> tuple:
        """A click: a panel command passes through; a hex means an option, a move, a summon or a target."""
        if isinstance(place, tuple) and place and place[0] == "cmd":
            return place[1], place[2], place[3]
        hex = tuple(place)
        if state is not None and state.pending is not None and state.pending.kind == "monster":
            for index, option in enumerate(state.pending.options):
                if option.destination == hex:
                    return "ChooseOption", {"index": index}, self._option_label(state, index)
        if state is not None and self.half is not None and seat is not None:
            card_id, half = self.half
            action = self._action(state, card_id, half)
            if action is not None:
                if action.kind == "move":  # one click: the rules walk the cheapest path (issue 15)
                    data = {"card": card_id, "half": half, "to": list(hex)}
                    return "PlayCard", data, f"{card_id} {half}: move to {hex_name(hex)}"
                if action.kind == "summon":
                    return "PlayCard", {"card": card_id, "half": half, "path": [list(hex)]}, f"summon at {hex_name(hex)}"
                target = next((f for f in state.figures if f.hex == hex), None)
                if target is not None:
                    return ("PlayCard", {"card": card_id, "half": half, "targets": [target.id]},
                            f"{card_id} {half}: {action.kind} {target.id}")
        return "PlayCard", {"card": "", "half": "top"}, f"click on {hex_name(hex)}"

    def describe(self, event: object) -> str:
        kind = event.TYPE
        if kind == "GameStarted":
            return f"game started: {', '.join(event.seats)} (rules {event.rules_version})"
        if kind == "RoundStarted":
            return f"round {event.round}: every character picks in secret"
        if kind == "CardsSelected":
            if event.sealed:
                return f"{event.seat} has chosen (hidden until the reveal)"
            if event.long_rest:
                return f"{event.seat} chose a long rest (only you see this until the reveal)"
            return f"{event.seat} chose {', '.join(event.cards)}, leading {event.leading} (only you see this)"
        if kind == "CardsRevealed":
            parts = [f"{seat}: long rest" if rest else f"{seat}: {' + '.join(cards)} (lead {leading})"
                     for seat, cards, leading, rest in event.picks]
            return "revealed: " + "; ".join(parts)
        if kind == "MonsterCardDrawn":
            return f"{event.group} draws {event.card} (initiative {event.initiative})"
        if kind == "InitiativeSet":
            return "order: " + ", ".join(f"{figure} {initiative}" for figure, initiative in event.order)
        if kind == "TieOffered":
            return f"tie between {', '.join(event.group)}: {', '.join(event.seats)} decide"
        if kind == "OrderChosen":
            return f"{event.seat} orders {' → '.join(event.order)}"
        if kind == "TurnStarted":
            return f"{event.figure}'s turn"
        if kind == "CardPlayed":
            verb = "plays without its action" if event.skipped else f"performs the {event.action}"
            return f"{event.seat} {verb}: {event.card} {event.half}"
        if kind == "FigureMoved":
            route = " → ".join(hex_name(hex) for hex in (event.start,) + event.path)
            return f"{event.figure} {event.mode}s {route} ({event.cost} movement)"
        if kind == "MonsterTurnPlanned":
            if not event.focus:
                return f"{event.figure} has no focus: no enemy can be reached"
            return (f"{event.figure} focuses on {', '.join(event.focus)} ({event.decided_by}); "
                    f"{len(event.options)} option(s)")
        if kind == "OptionChosen":
            who = f"{event.seat} chose" if event.seat else "the rules give"
            return f"{who} option {event.index} for {event.figure}: {hex_name(event.option.destination)}"
        if kind == "AttackResolved":
            how = f" ({event.effect}: {', '.join(event.drawn)})" if event.effect else ""
            return (f"{event.attacker} attacks {event.target} for {event.value}, draws {event.used}{how}: "
                    f"{event.damage} damage, {event.hp} hit points left")
        if kind == "TrapSprung":
            return f"{event.figure} springs the trap at {hex_name(event.hex)}: {event.damage} damage"
        if kind == "HazardEntered":
            return f"{event.figure} enters hazardous terrain: {event.damage} damage"
        if kind == "DoorOpened":
            return f"{event.figure} opens the door at {hex_name(event.hex)}"
        if kind == "FigureDied":
            return f"{event.figure} dies"
        if kind == "FigureHealed":
            return f"{event.figure} heals {event.amount} ({event.hp} hit points)"
        if kind == "FigureSummoned":
            return f"{event.seat} summons {event.figure.name} at {hex_name(event.figure.hex)}"
        if kind == "CharacterExhausted":
            return f"{event.seat} is exhausted ({event.cause})"
        if kind == "CardsDiscarded":
            lost = f", lost {', '.join(event.lost)}" if event.lost else ""
            return f"{event.seat} discards {', '.join(event.discarded) or 'nothing'}{lost}"
        if kind == "LongRested":
            return f"{event.seat} long rests: loses {event.lost}, heals {event.healed}"
        if kind == "ShortRestOffered":
            return f"short rest offered to {', '.join(event.seats)}"
        if kind == "ShortRested":
            return f"{event.seat} short rests: loses {event.lost} at random"
        if kind == "ShortRestDeclined":
            return f"{event.seat} does not short rest"
        if kind == "DeckReshuffled":
            return f"the {event.deck} modifier deck is reshuffled"
        if kind == "RoundEnded":
            extra = f"; reshuffled: {', '.join(event.reshuffled)}" if event.reshuffled else ""
            return f"round {event.round} ends{extra}"
        if kind == "TurnEnded":
            return f"{event.figure}'s turn ends"
        if kind == "GameEnded":
            return f"the scenario ends: {event.outcome} (round {event.round})"
        return kind

    # --- drawing --------------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if state is None:
            return
        self.last = (state, envelopes, seat, interactive, on_pick)
        if self.map is not state.map:
            self._build(state)
        mine = self.viewer is not None and self.viewer in rules.turn(state)
        if not mine or state.phase != "act":
            self.half = None
        if self.half is None or getattr(self._action(state, *self.half), "kind", None) != "move":
            self.building = None
        if state.phase != "select":
            self.chosen = []
        marks = self._marks(state) if mine else {}
        options = {}
        if state.pending is not None and state.pending.kind == "monster":
            for index, option in enumerate(state.pending.options):
                options.setdefault(option.destination, []).append(str(index))
        traps = set(state.traps)
        opened = set(state.open_doors)
        standing = {figure.hex: figure for figure in state.figures}
        for hex, (polygon, title, label) in self.cells.items():
            cls = "hex"
            text = hex_name(hex)
            kind = self.terrain.get(hex)
            if kind == "traps" and hex not in traps:
                kind = None  # sprung
            if kind == "doors":
                text += " · open door" if hex in opened else " · closed door"
            elif kind is not None:
                text += f" · {TERRAIN_NAMES[kind]}"
            if hex in standing:
                text += f" · {standing[hex].name} ({standing[hex].id})"
            if hex in state.map.traps and hex not in traps:
                polygon.setAttribute("fill", "#f3efe4")
            if hex in state.map.doors:
                polygon.setAttribute("fill", "#e8c9a8" if hex in opened else TERRAIN["doors"])
            mark = marks.get(hex)
            if mark is not None:
                cls += f" {mark}"
                text += f" · {MARK_TIPS.get(mark, mark)}"
            if hex in options:
                cls += " option"
                text += f" · the players' option {', '.join(options[hex])} for the monster: click to choose it"
            steps = [str(i + 1) for i, step in enumerate(self.building or ()) if step == hex]
            if steps:
                cls += " path"
                mark = "path"
            polygon.setAttribute("stroke", "#0b6e4f" if steps else "#9a9080")
            polygon.setAttribute("stroke-width", "3" if steps else "1")
            polygon.setAttribute("class", cls)
            polygon.setAttribute("data-mark", mark or ("option" if hex in options else ""))
            set_text(title, text)
            set_text(label, ",".join(options[hex]) if hex in options else ",".join(steps))
        self._draw_figures(state)
        self._animate(state, envelopes)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes, on_pick))

    def _build(self, state: object) -> None:
        game_map = state.map
        self.map = game_map
        xs = [centre(hex)[0] for hex in game_map.hexes]
        ys = [centre(hex)[1] for hex in game_map.hexes]
        pad = SIZE * 1.3
        box = f"{round(min(xs) - pad)} {round(min(ys) - pad)} {round(max(xs) - min(xs) + 2 * pad)} " \
              f"{round(max(ys) - min(ys) + 2 * pad)}"
        root = svg("svg", "board gloomhaven-board", (("viewBox", box), ("role", "img"), ("data-board", game_map.name)))
        add(root, svg("title", None, (), game_map.name))
        kinds = {}
        for key in ("obstacles", "traps", "hazardous", "difficult", "doors"):
            for hex in getattr(game_map, key):
                kinds[hex] = key
        self.terrain = kinds
        self.cells = {}
        layer = svg("g", "hexes")
        for hex in game_map.hexes:
            kind = kinds.get(hex)
            group = svg("g", "cell", (("data-hex", f"{hex[0]},{hex[1]}"), ("data-terrain", kind or "open")))
            polygon = svg("polygon", "hex", (("points", points(hex)), ("fill", TERRAIN.get(kind, "#f3efe4")),
                                             ("stroke", "#9a9080"), ("stroke-width", "1")))
            title = svg("title", None, (), hex_name(hex))
            x, y = centre(hex)
            label = svg("text", "option-label", (("x", x), ("y", y + 5), ("text-anchor", "middle"),
                                                  ("font-size", "13"), ("fill", "#0b6e4f")))
            add(group, polygon, title)
            if kind == "traps":
                add(group, svg("text", "trap-mark", (("x", x), ("y", y - 9), ("text-anchor", "middle"),
                                                     ("font-size", "9"), ("fill", "#9b1c1c")), "trap"))
            add(group, label)
            listen(group, "click", self._click(hex))
            self.cells[hex] = (polygon, title, label)
            add(layer, group)
        add(root, layer)
        walls = svg("g", "walls")
        for a, b in HexMap(game_map.hexes, game_map.thin_walls).walls:
            (x1, y1), (x2, y2) = lattice(a), lattice(b)
            add(walls, svg("line", "wall", (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2), ("stroke", "#2b2b2b"),
                                            ("stroke-width", "4"), ("stroke-linecap", "round"))))
        add(root, walls)
        self.figure_layer = svg("g", "figures")
        add(root, self.figure_layer)
        self.figures = {}
        clear(self.board_node)
        add(self.board_node, root)

    def _click(self, hex: tuple) -> object:
        def handler(event: object) -> None:
            if self.last is None or not self.last[3] or self.last[4] is None:
                return
            if self.building is not None:
                self._add_waypoint(self.last[0], hex)
                self._redraw()
                return
            self.last[4](hex)

        return handler

    def _add_waypoint(self, state: object, hex: tuple) -> None:
        """The next waypoint: a neighbour is one step; farther, the cheapest way there (or the bare hex, for the
        rules to refuse with its clause)."""
        me = rules.figure_of(state, self.viewer)
        action = self._action(state, *self.half) if self.half is not None else None
        if me is None or action is None:
            return
        start = self.building[-1] if self.building else me.hex
        if hex == start:
            return
        if hex_distance(start, hex) == 1:
            self.building.append(hex)
            return
        there = rules.character_moves(state, me.but(hex=start), action.but(value=rules.PATH_LIMIT)).get(hex)
        self.building.extend(there or (hex,))

    def _path_costs(self, state: object, action: object) -> list:
        """Movement points spent after each step of the path built so far (GH-4: difficult terrain costs 2;
        GH-5: a jump pays 1 a hex and 2 only to land on difficult terrain)."""
        difficult = set(state.map.difficult)
        spent, out = 0, []
        path = self.building or []
        for i, hex in enumerate(path):
            last = i == len(path) - 1
            spent += 2 if hex in difficult and (last or not action.jump) else 1
            out.append(spent)
        return out

    def _path_cost(self, state: object, action: object) -> int:
        costs = self._path_costs(state, action)
        return costs[-1] if costs else 0

    def _marks(self, state: object) -> dict:
        """Hexes to highlight for the viewer's chosen card half: destinations, targets, summon hexes."""
        if self.half is None:
            return {}
        action = self._action(state, *self.half)
        me = rules.figure_of(state, self.viewer)
        if action is None or me is None:
            return {}
        if action.kind == "move":
            if self.building:  # building a path: what the points left reach from its last hex
                left = max(0, action.value - self._path_cost(state, action))
                me, action = me.but(hex=self.building[-1]), action.but(value=left)
            return {hex: "reach" for hex in rules.character_moves(state, me, action)}
        marks = {}
        for path, targets in rules._action_options(state, me, action):
            if path:
                marks[path[0]] = "reach"
            for target in targets:
                figure = rules.figure_of(state, target)
                if figure is not None:
                    marks[figure.hex] = "target"
        return marks

    @staticmethod
    def _action(state: object, card_id: str, half: str) -> object:
        card = rules._card(state, card_id)
        if card is None:
            return None
        return card.top if half == "top" else card.bottom

    def _draw_figures(self, state: object) -> None:
        present = set()
        colours = {hero.seat: SEAT_COLOURS[i % len(SEAT_COLOURS)] for i, hero in enumerate(state.heroes)}
        for figure in state.figures:
            present.add(figure.id)
            entry = self.figures.get(figure.id)
            if entry is None:
                group = svg("g", f"figure {figure.kind}", (("data-figure", figure.id), ("data-kind", figure.kind)))
                title = svg("title")
                radius = "9" if figure.kind == "summon" else "12"
                if figure.kind == "monster":
                    fill = "#f2c94c" if figure.rank == "elite" else "#ffffff"
                else:
                    fill = colours.get(figure.seat, "#888888")
                circle = svg("circle", "token", (("r", radius), ("fill", fill), ("stroke", "#222222"),
                                                 ("stroke-width", "2" if figure.kind == "monster" else "1")))
                text = svg("text", "token-label", (("y", "4"), ("text-anchor", "middle"), ("font-size", "9")))
                add(group, title, circle, text)
                listen(group, "click", self._figure_click(figure.id))
                add(self.figure_layer, group)
                entry = self.figures[figure.id] = (group, title, circle, text)
            group, title, circle, text = entry
            label = figure.id[:2].upper() if figure.kind == "character" else (
                f"{figure.name[:1]}{figure.number}" if figure.kind == "monster" else f"s{figure.number}")
            set_text(text, label)
            set_text(title, f"{figure.id} ({figure.name}{', ' + figure.rank if figure.rank else ''}): "
                            f"{figure.hp}/{figure.max_hp} hit points at {hex_name(figure.hex)}")
            group.setAttribute("data-hp", figure.hp)
            hex = self.moving.get(figure.id, figure.hex)
            x, y = centre(hex)
            group.setAttribute("transform", f"translate({x} {y})")
            group.setAttribute("data-at", f"{hex[0]},{hex[1]}")
        for figure_id in list(self.figures):
            if figure_id not in present:
                self.figures.pop(figure_id)[0].remove()

    def _figure_click(self, figure_id: str) -> object:
        def handler(event: object) -> None:
            if self.last is None:
                return
            figure = rules.figure_of(self.last[0], figure_id)
            if figure is not None and self.last[3] and self.last[4] is not None:
                self.last[4](figure.hex)

        return handler

    def _animate(self, state: object, envelopes: list) -> None:
        """Walk the newest monster or summon move hex by hex (once per move)."""
        if not envelopes or envelopes[-1].seq <= self.animated:
            return
        start = self.animated
        self.animated = envelopes[-1].seq
        if start == 0:
            return  # a catch-up: show where everything is now
        moves = [e.event for e in envelopes if e.seq > start and e.event.TYPE == "FigureMoved"
                 and e.event.figure in self.figures and rules.figure_of(state, e.event.figure) is not None
                 and rules.figure_of(state, e.event.figure).kind != "character"]
        if not moves:
            return
        move = moves[-1]
        steps = (move.start,) + move.path
        group = self.figures[move.figure][0]
        group.setAttribute("data-animating", "1")

        def show(index: int) -> None:
            x, y = centre(steps[index])
            group.setAttribute("transform", f"translate({x} {y})")
            if index + 1 < len(steps):
                timer.set_timeout(lambda: show(index + 1), STEP_MS)
            else:
                group.setAttribute("data-animating", "0")

        show(0)

    # --- the side panel --------------------------------------------------------------------------------

    def _info(self, state: object, envelopes: list, on_pick: object) -> list:
        nodes = [el("h2", state.title, "game-title")]
        status = f"Round {state.round} of {state.rounds} · {state.phase}"
        if state.outcome:
            status = f"Scenario over: {state.outcome} (round {state.round})"
        nodes.append(el("p", status, "turn", (("data-phase", state.phase),)))
        nodes.append(self._track(state))
        nodes.append(self._heroes(state))
        if self.viewer is not None and self.viewer in rules.turn(state) and state.pending is None:
            panel = self._my_cards(state, on_pick)
            if panel is not None:
                nodes.append(panel)
        nodes.append(self._focus_trace(state, envelopes))
        return nodes

    def _track(self, state: object) -> object:
        box = el("div", None, "initiative-track")
        add(box, el("b", "Initiative: "))
        if not state.order:
            add(box, el("span", "set when every pick is revealed", "muted"))
        for index, (figure_id, initiative) in enumerate(state.order):
            gone = rules.figure_of(state, figure_id) is None
            cls = "slot" + (" current" if index == state.current and not gone else "") + (" gone" if gone else "")
            add(box, el("span", f"{initiative} {figure_id}", cls, (("data-figure", figure_id),)), el("span", " "))
        return box

    def _heroes(self, state: object) -> object:
        table = el("table", None, "seats")
        head = el("tr")
        for title in ("seat", "class", "hp", "hand", "discard", "lost", "this round"):
            add(head, el("th", title))
        add(table, head)
        for hero in state.heroes:
            figure = rules.figure_of(state, hero.seat)
            row = el("tr", None, "seat-row", (("data-seat", hero.seat),))
            if hero.exhausted:
                now = "exhausted"
            elif hero.pick is not None:
                own = hero.pick.content if hero.seat == self.viewer else None
                now = "has chosen" if own is None else (
                    "has chosen: long rest" if own.long_rest else f"has chosen: {' + '.join(own.cards)}, "
                                                                   f"lead {own.leading}")
            elif state.phase == "select":
                now = "choosing…"
            elif hero.long_rest:
                now = "long rest (99)"
            elif hero.initiative is not None:
                now = f"initiative {hero.initiative}: {' + '.join(hero.active) or 'played'}"
            else:
                now = ""
            add(row, el("td", hero.seat), el("td", hero.cls),
                el("td", f"{figure.hp}/{figure.max_hp}" if figure is not None else "—"),
                el("td", len(hero.hand)), el("td", len(hero.discard)), el("td", len(hero.lost)),
                el("td", now, "pick-status", (("data-status", now.split(":")[0]),)))
            add(table, row)
        return table

    def _my_cards(self, state: object, on_pick: object) -> object:
        hero = rules.hero_of(state, self.viewer)
        if hero is None or hero.exhausted:
            return None
        box = el("div", None, "my-cards")
        if state.phase == "select" and hero.pick is None and len(hero.hand) >= 2:
            add(box, el("p", "Your hand: click two cards (your pick stays secret until everyone has chosen).",
                        "hint"))
            for card_id in hero.hand:
                add(box, self._card_button(state, card_id, card_id in self.chosen, self._toggle(card_id)))
            if len(self.chosen) == 2:
                for lead in self.chosen:
                    data = {"cards": list(self.chosen), "leading": lead}
                    initiative = rules._card(state, lead).initiative
                    button = el("button", f"Play {' + '.join(self.chosen)}, leading {lead} ({initiative})",
                                "action confirm-pick", (("data-leading", lead),))
                    listen(button, "click", self._send(on_pick, ("cmd", "SelectCards", data, f"pick {lead}")))
                    add(box, button)
            return box
        if state.phase == "act" and state.acting == self.viewer and not hero.long_rest:
            add(box, el("p", "Your cards in play: click a half, then the map.", "hint"))
            used = {card for card, _half in hero.used}
            used_halves = {half for _card, half in hero.used}
            for card_id in hero.active:
                if card_id in used:
                    continue
                card = rules._card(state, card_id)
                line = el("div", None, "card-line", (("data-card", card_id),))
                add(line, el("b", f"{card.name} ({card.initiative}) "))
                for half, action in (("top", card.top), ("bottom", card.bottom)):
                    if half in used_halves:
                        continue
                    label = f"{half}: {self._action_text(action)}"
                    chosen = self.half == (card_id, half)
                    button = el("button", label, "half" + (" chosen" if chosen else ""),
                                (("data-card", card_id), ("data-half", half), ("aria-pressed", "true" if chosen else "false")))
                    listen(button, "click", self._choose_half(card_id, half))
                    add(line, button)
                add(box, line)
            if self.half is not None:
                action = self._action(state, *self.half)
                me = rules.figure_of(state, self.viewer)
                if action is not None and action.kind == "move":
                    add(box, self._path_panel(state, action, on_pick))
                if action is not None and action.kind == "attack" and action.targets > 1 and me is not None:
                    for _path, targets in rules._action_options(state, me, action):
                        if len(targets) > 1:
                            data = {"card": self.half[0], "half": self.half[1], "targets": list(targets)}
                            button = el("button", f"Attack {', '.join(targets)}", "action")
                            listen(button, "click", self._send(on_pick, ("cmd", "PlayCard", data, "attack all")))
                            add(box, button)
            return box
        return None

    def _path_panel(self, state: object, action: object, on_pick: object) -> object:
        """Build a path by waypoints, its cost as it grows, then confirm (issue 15)."""
        panel = el("div", None, "path-builder")
        if self.building is None:
            button = el("button", "Build a path", "action build-path")
            listen(button, "click", self._start_path())
            add(panel, button)
            return panel
        costs = self._path_costs(state, action)
        cost = costs[-1] if costs else 0
        route = " → ".join(f"{hex_name(hex)} ({spent})" for hex, spent in zip(self.building, costs)) \
            or "click hexes in order"
        add(panel, el("p", f"Path: {route} · {cost} of {action.value} movement points", "path-cost",
                      (("data-cost", str(cost)), ("data-steps", str(len(self.building))))))
        if self.building:
            data = {"card": self.half[0], "half": self.half[1], "path": [list(hex) for hex in self.building]}
            confirm = el("button", "Confirm path", "action confirm-path")
            label = "move along " + " → ".join(hex_name(hex) for hex in self.building)
            listen(confirm, "click", self._confirm_path(on_pick, ("cmd", "PlayCard", data, label)))
            add(panel, confirm)
        again = el("button", "Clear path", "action clear-path")
        listen(again, "click", self._start_path())
        add(panel, again)
        return panel

    def _confirm_path(self, on_pick: object, place: tuple) -> object:
        def handler(event: object) -> None:
            self.building = None  # sent: the rules walk it or refuse its first illegal step
            if on_pick is not None:
                on_pick(place)
            self._redraw()

        return handler

    def _start_path(self) -> object:
        def handler(event: object) -> None:
            self.building = []
            self._redraw()

        return handler

    @staticmethod
    def _action_text(action: object) -> str:
        if action.kind == "move":
            return f"move {action.value}" + (" jump" if action.jump else "")
        if action.kind == "attack":
            extra = f" range {action.range}" if action.range else ""
            extra += f" targets {action.targets}" if action.targets > 1 else ""
            return f"attack {action.value}{extra}" + (" advantage" if action.advantage else "")
        if action.kind == "heal":
            return f"heal {action.value}" + (f" range {action.range}" if action.range else " self")
        return f"summon {action.summon}"

    def _card_button(self, state: object, card_id: str, chosen: bool, handler: object) -> object:
        card = rules._card(state, card_id)
        text = f"{card.initiative} {card.name}: {self._action_text(card.top)} / {self._action_text(card.bottom)}"
        button = el("button", text, "card" + (" chosen" if chosen else ""),
                    (("data-card", card_id), ("aria-pressed", "true" if chosen else "false")))
        listen(button, "click", handler)
        return button

    def _toggle(self, card_id: str) -> object:
        def handler(event: object) -> None:
            if card_id in self.chosen:
                self.chosen.remove(card_id)
            else:
                self.chosen = (self.chosen + [card_id])[-2:]
            self._redraw()

        return handler

    def _choose_half(self, card_id: str, half: str) -> object:
        def handler(event: object) -> None:
            self.half = None if self.half == (card_id, half) else (card_id, half)
            self._redraw()

        return handler

    def _send(self, on_pick: object, place: tuple) -> object:
        def handler(event: object) -> None:
            if on_pick is not None:
                on_pick(place)

        return handler

    def _redraw(self) -> None:
        if self.last is not None:
            self.draw(*self.last)

    def _option_label(self, state: object, index: int) -> str:
        option = state.pending.options[index]
        hits = ", ".join(option.attacks) or "no attack"
        return f"Option {index}: {option.focus} → {hex_name(option.destination)}, attacks {hits}"

    def _focus_trace(self, state: object, envelopes: list) -> object:
        """The newest monster turn: who it considered, at what cost, why it chose, and its options."""
        box = el("div", None, "focus-trace")
        planned = None
        for envelope in reversed(envelopes):
            if envelope.event.TYPE == "MonsterTurnPlanned":
                planned = envelope.event
                break
        if planned is None:
            add(box, el("p", "No monster has acted yet.", "muted"))
            return box
        box.setAttribute("data-figure", planned.figure)
        add(box, el("h3", f"{planned.figure}'s focus (GH-6, GH-C4)"))
        table = el("table", None, "candidates")
        head = el("tr")
        for title in ("enemy", "negative hexes", "movement", "proximity", "initiative", ""):
            add(head, el("th", title))
        add(table, head)
        for c in planned.candidates:
            row = el("tr", None, "candidate" + (" focus" if c.figure in planned.focus else ""),
                     (("data-figure", c.figure),))
            add(row, el("td", c.figure), el("td", "—" if c.negative is None else c.negative),
                el("td", "unreachable" if c.movement is None else c.movement),
                el("td", "—" if c.proximity is None else c.proximity), el("td", c.initiative),
                el("td", "focus" if c.figure in planned.focus else ""))
            add(table, row)
        add(box, table)
        add(box, el("p", f"Decided by: {planned.decided_by}", "decided-by"))
        if planned.options:
            listing = el("ol", None, "options", (("start", "0"),))
            for option in planned.options:
                hits = ", ".join(option.attacks) or "no attack"
                add(listing, el("li", f"{hex_name(option.destination)} via "
                                      f"{' → '.join(hex_name(h) for h in option.path) or 'no move'}; attacks {hits}"
                                      + (" (disadvantage)" if option.disadvantage else ""), "option"))
            add(box, listing)
            if len(planned.options) > 1:
                add(box, el("p", "These options are equally good: the players choose (GH-C4).", "hint"))
        if planned.destinations:
            # Every hex weighed and the GH-C8/GH-C9 step that kept or dropped it (the step names come from the core).
            weighed = el("details", None, "destinations")
            add(weighed, el("summary", f"Destinations weighed: {len(planned.destinations)}"))
            listing = el("ul")
            for d in planned.destinations:
                toward = f" → {hex_name(d.toward)}" if d.toward is not None else ""
                verdict = "kept" if d.kept else "dropped"
                add(listing, el("li", f"{hex_name(d.hex)}{toward}: {verdict}, {d.step} {d.detail}",
                                "destination " + verdict, (("data-hex", f"{d.hex[0]},{d.hex[1]}"),)))
            add(weighed, listing)
            add(box, weighed)
        return box

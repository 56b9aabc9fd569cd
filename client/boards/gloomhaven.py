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

from client.boards.svgkit import View, headed_table, polygon_points
from client.dom import add, clear, el, listen, set_text, svg
from client.i18n import local_name, say, seat_initials, seat_name, t, word
from events.games.gloomhaven import rules, words
from events.games.gloomhaven.v1 import RULES_VERSION as RULES_VERSION_1
from events.geometry.hexgrid import hex_distance
from events.geometry.hexmap import HexMap, hexmap_center

SIZE = 26  # hex radius in SVG units
SQRT3 = 1.7320508075688772
CORNERS = ((1.0, 0.0), (0.5, 0.866), (-0.5, 0.866), (-1.0, 0.0), (-0.5, -0.866), (0.5, -0.866))
TERRAIN = {"obstacles": "#6b6b6b", "traps": "#f2b8b5", "hazardous": "#f4a259", "difficult": "#b9d7a8",
           "doors": "#a0522d"}
SEAT_COLOURS = ("#d63c3c", "#3c6fd6", "#2f9e44", "#8a4fd0")
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


PENDING = ("initiative", "monster-order", "monster", "short-rest")


def hex_name(hex: tuple) -> str:
    return f"[{hex[0]}, {hex[1]}]"


class GloomhavenView(View):
    """Draws one ``gloomhaven`` state into a board node (SVG) and an info node (HTML). Its ``draw``
    opens in its own way (not ``begin_draw``): it keeps the draw's arguments for the redraws a card
    click makes, and a new map's first state names every card and figure (``known``); ``built`` is
    the map its SVG was built from."""

    def option_line(self, option: object) -> str:
        """One equally good option of a monster's turn: where it ends, by which hexes, whom it attacks;
        a monster that stays or attacks nobody is said so, not "via no move; attacks no attack"."""
        where, hits = hex_name(option.destination), self.figs(option.attacks)
        path = " → ".join(hex_name(h) for h in option.path)
        if path:
            if hits:
                return t("gh.option_line", hex=where, path=path, hits=hits)
            return t("gh.option_moves_only", hex=where, path=path)
        return t("gh.option_stays", hex=where, hits=hits) if hits else t("gh.option_stays_only", hex=where)

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        View.__init__(self, game, board_node, info_node)
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
        self.known = None  # the first state: every card and the starting figures, for names

    # --- names -------------------------------------------------------------------------------------

    def card(self, card_id: object) -> str:
        """A card's name in the reader's language (never its id)."""
        found = rules._card(self.known, card_id) if self.known is not None and card_id else None
        return local_name("gloomhaven", found.name, found.name) if found is not None else str(card_id)

    def cards(self, card_ids: object) -> str:
        return " + ".join(self.card(card_id) for card_id in card_ids)

    def fig(self, figure_id: object, state: object = None) -> str:
        """A figure by name: a seat, "Bandit Guard 2 (elite)", a summon's name; never its id."""
        found = None
        for known in (state, self.known):
            if known is not None and found is None:
                found = rules.figure_of(known, figure_id)
        if found is None:
            return str(figure_id)
        if found.kind == "character":
            return seat_name(found.seat or figure_id)
        name = local_name("gloomhaven", found.name, found.name)
        if found.kind == "monster":
            key = "gh.elite_monster" if found.rank == "elite" else "gh.monster"
            return t(key, name=name, number=found.number)
        return name

    def figs(self, figure_ids: object) -> str:
        return ", ".join(self.fig(figure_id) for figure_id in figure_ids)

    def half_name(self, half: str) -> str:
        return word("gh.half_", half)

    # --- what the page asks -------------------------------------------------------------------------

    def prompt_text(self, state: object, seat: object, current: object) -> str:
        if seat != self.viewer:  # the page tells the seat here first: draw its cards now
            self._view_for(seat)
            self._redraw()
        if state is None or rules.is_over(state):
            return t("gh.over")
        turn = rules.turn(state)
        if seat not in turn:
            return t("play.waiting", seat=", ".join(seat_name(s) for s in turn) or t("gh.the_monsters"))
        pending = state.pending
        if pending is not None:
            return word("gh.pending_", pending.kind) if pending.kind in PENDING else t("gh.choose")
        # "or" only when buttons follow it (a long rest needs two discarded cards: GH-C6)
        more = bool(self.actions(state, seat))
        if state.phase == "select":
            return t("gh.pick_or") if more else t("gh.pick")
        return t("gh.your_turn_or") if more else t("gh.your_turn")

    def actions(self, state: object, seat: object) -> list:
        """Buttons for the choices that are not clicks on the map: ties, options, rests, skips."""
        self._view_for(seat)
        if state is None or seat is None or seat not in rules.turn(state):
            return []
        out = []
        for command in rules.legal(state, seat):
            kind = command.TYPE
            data = command.to_data()
            data.pop("type")
            if kind == "ChooseOrder":
                out.append((t("gh.order_button", order=" → ".join(self._orderable(state, item) for item in command.order)),
                            kind, data))
            elif kind == "ChooseOption":
                out.append((self._option_label(state, command.index), kind, data))
            elif kind == "ShortRest":
                out.append((t("gh.short_rest") if command.rest else t("gh.no_short_rest"), kind, data))
            elif kind == "DeclareLongRest":
                out.append((t("gh.long_rest"), kind, data))
            elif kind == "RestLose":
                out.append((t("gh.rest_lose", card=self.card(command.card)), kind, data))
            elif kind == "PlayCard" and command.skip:
                out.append((t("gh.skip", card=self.card(command.card), half=self.half_name(command.half)), kind, data))
        return out

    def _view_for(self, seat: object) -> None:
        """Draw for ``seat`` from now on. On a shared device (pass-and-play) the next seat does not
        inherit the previous one's taps: two cards clicked for a pick name that seat's choice (GH-C2)."""
        if seat != self.viewer:
            self.chosen = []
            self.half = None
            self.building = None
        self.viewer = seat

    def holds_secret(self, state: object, seat: object) -> bool:
        """Whether ``seat``'s screen shows what no other seat may see yet: its pick, sealed until the
        reveal (GH-C2; the heroes table words it for its own seat). The offline page asks it to hand
        the device over behind a screen."""
        hero = rules.hero_of(state, seat) if state is not None and seat is not None else None
        return hero is not None and hero.pick is not None

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
                    if getattr(self.in_force, "rules_version", None) == RULES_VERSION_1:
                        data = self._path_1(state, seat, card_id, half, hex)
                    return "PlayCard", data, t("gh.pick_move", card=self.card(card_id), half=self.half_name(half),
                                                hex=hex_name(hex))
                if action.kind == "summon":
                    return ("PlayCard", {"card": card_id, "half": half, "path": [list(hex)]},
                            t("gh.pick_summon", hex=hex_name(hex)))
                target = next((f for f in state.figures if f.hex == hex), None)
                if target is not None:
                    return ("PlayCard", {"card": card_id, "half": half, "targets": [target.id]},
                            t("gh.pick_target", card=self.card(card_id), half=self.half_name(half),
                              action=word("gh.action_", action.kind), target=self.fig(target.id, state)))
        if state is not None and state.phase == "select":  # cards are picked in the panel: a hex means nothing yet
            return None
        return "PlayCard", {"card": "", "half": "top"}, t("gh.pick_hex", hex=hex_name(hex))

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        """A logged command as this page's buttons and clicks word it (the dispute panel)."""
        kind = command.TYPE
        if kind == "SelectCards":
            lead = rules._card(state, command.leading) if command.leading else None
            return t("gh.play_pick", cards=self.cards(command.cards), leading=self.card(command.leading),
                     initiative=lead.initiative if lead is not None else "?")
        if kind == "PlayCard":
            card, half = self.card(command.card), self.half_name(command.half)
            if command.skip:
                return t("gh.skip", card=card, half=half)
            if command.targets:
                action = self._action(state, command.card, command.half)
                verb = word("gh.action_", action.kind) if action is not None else ""
                return t("gh.pick_target", card=card, half=half, action=verb, target=self.figs(command.targets))
            end = command.to if command.to else (command.path[-1] if command.path else None)
            if end:
                return t("gh.pick_move", card=card, half=half, hex=hex_name(tuple(end)))
            return None
        if kind == "ChooseOption" and state.pending is not None and command.index < len(state.pending.options):
            return self._option_label(state, command.index)
        if kind == "ChooseOrder":
            return t("gh.order_button", order=" → ".join(self._orderable(state, item) for item in command.order))
        if kind == "ShortRest":
            return t("gh.short_rest") if command.rest else t("gh.no_short_rest")
        if kind == "DeclareLongRest":
            return t("gh.long_rest")
        if kind == "RestLose":
            return t("gh.rest_lose", card=self.card(command.card))
        return None

    def _path_1(self, state: object, seat: object, card_id: str, half: str, hex: tuple) -> dict:
        """A one-click move under gloomhaven-1, whose PlayCard has no ``to`` (it refuses one, GH-3): the path
        its own rules offer to that hex (``legal``: one path per reachable hex), or the bare hex as a
        one-step path, which its rules then refuse with their own clause and reason."""
        for command in self.in_force.legal(state, seat):
            path = getattr(command, "path", ())
            if command.TYPE == "PlayCard" and command.card == card_id and command.half == half and path \
                    and tuple(path[-1]) == hex:
                return {"card": card_id, "half": half, "path": [list(step) for step in path]}
        return {"card": card_id, "half": half, "path": [list(hex)]}

    def _orderable(self, state: object, item: str) -> str:
        """An item of a tie's order: a seat, or a monster type by name."""
        return seat_name(item) if rules.hero_of(state, item) is not None else local_name("gloomhaven", item, item)

    # --- drawing --------------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if state is None:
            return
        self.last = (state, envelopes, seat, interactive, on_pick)
        if self.built is not state.map:
            self._build(state)
            if envelopes and envelopes[0].type == "GameStarted":  # every card and the starting figures, for names
                self.known = self.game.evolve(None, envelopes[0].event)
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
                text += " · " + (t("gh.door_open") if hex in opened else t("gh.door_closed"))
            elif kind is not None:
                text += " · " + word("gh.terrain_", kind)
            if hex in standing:
                text += " · " + self.fig(standing[hex].id, state)
            if hex in state.map.traps and hex not in traps:
                polygon.setAttribute("fill", "#f3efe4")
            if hex in state.map.doors:
                polygon.setAttribute("fill", "#e8c9a8" if hex in opened else TERRAIN["doors"])
            mark = marks.get(hex)
            if mark is not None:
                cls += f" {mark}"
                text += " · " + word("gh.tip_", mark)
            if hex in options:
                cls += " option"
                text += " · " + t("gh.option_tip", options=", ".join(options[hex]))
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
        self.built = game_map
        xs = [centre(hex)[0] for hex in game_map.hexes]
        ys = [centre(hex)[1] for hex in game_map.hexes]
        pad = SIZE * 1.3
        box = f"{round(min(xs) - pad)} {round(min(ys) - pad)} {round(max(xs) - min(xs) + 2 * pad)} " \
              f"{round(max(ys) - min(ys) + 2 * pad)}"
        root = svg("svg", "board gloomhaven-board", (("viewBox", box), ("role", "img"), ("data-board", game_map.name)))
        add(root, svg("title", None, (), local_name("gloomhaven", game_map.name, game_map.name)))
        kinds = {}
        for key in ("obstacles", "traps", "hazardous", "difficult", "doors"):
            for hex in getattr(game_map, key):
                kinds[hex] = key
        self.cells = {}
        self.terrain = kinds
        layer = svg("g", "hexes")
        for hex in game_map.hexes:
            kind = kinds.get(hex)
            group = svg("g", "cell", (("data-hex", f"{hex[0]},{hex[1]}"), ("data-terrain", kind or "open")))
            polygon = svg("polygon", "hex", (("points", points(hex)), ("fill", TERRAIN.get(kind, "#f3efe4")),
                                             ("stroke", "#9a9080"), ("stroke-width", "1")))
            title = svg("title", None, (), hex_name(hex) + (" · " + word("gh.terrain_", kind) if kind else ""))
            x, y = centre(hex)
            label = svg("text", "option-label", (("x", x), ("y", y + 5), ("text-anchor", "middle"),
                                                  ("font-size", "13"), ("fill", "#0b6e4f")))
            add(group, polygon, title)
            if kind == "traps":
                add(group, svg("text", "trap-mark", (("x", x), ("y", y - 9), ("text-anchor", "middle"),
                                                     ("font-size", "9"), ("fill", "#9b1c1c")), t("gh.trap_mark")))
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
        GH-5: a jump pays 1 a hex and 2 only to land on difficult terrain; GH-V2, Jaws of the Lion's rules: 1)."""
        difficult = set(state.map.difficult)
        landing = getattr(state, "variant", "") != "jotl"  # a gloomhaven-1 state has no variant
        spent, out = 0, []
        path = self.building or []
        for i, hex in enumerate(path):
            last = i == len(path) - 1
            spent += 2 if hex in difficult and ((last and landing) or not action.jump) else 1
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
                # An abbreviation on the token (its title names the figure in full): not a message.
                text = svg("text", "token-label", (("y", "4"), ("text-anchor", "middle"), ("font-size", "9"),
                                                   ("translate", "no")))
                add(group, title, circle, text)
                listen(group, "click", self._figure_click(figure.id))
                add(self.figure_layer, group)
                entry = self.figures[figure.id] = (group, title, circle, text)
            group, title, circle, text = entry
            set_text(text, self._token_label(figure))
            set_text(title, t("gh.figure_title", name=self.fig(figure.id, state), hp=figure.hp, max_hp=figure.max_hp,
                              hex=hex_name(figure.hex)))
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

    @staticmethod
    def _token_label(figure: object) -> str:
        """A figure's token: a character's seat initials; a monster's type initials and standee number
        (Bandit Guard 1 "BG1", Bandit Archer 1 "BA1": never both "B1"; elites are drawn gold); a summon's."""
        if figure.kind == "character":
            return seat_initials(figure.seat or figure.id, 2)
        initials = "".join(part[:1] for part in figure.name.split()[:2]).upper()
        return f"{initials}{figure.number}" if figure.kind == "monster" else f"{initials.lower()[:1]}{figure.number}"

    def _info(self, state: object, envelopes: list, on_pick: object) -> list:
        nodes = [self.title_node(state, envelopes)]
        status = t("gh.status", round=state.round, rounds=state.rounds, phase=word("gh.phase_", state.phase))
        if state.outcome:
            status = t("gh.status_over", outcome=word("gh.outcome_", state.outcome), round=state.round)
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
        add(box, el("b", t("gh.initiative")))
        if not state.order:
            add(box, el("span", t("gh.initiative_unset"), "muted"))
        for index, (figure_id, initiative) in enumerate(state.order):
            gone = rules.figure_of(state, figure_id) is None
            cls = "slot" + (" current" if index == state.current and not gone else "") + (" gone" if gone else "")
            add(box, el("span", f"{initiative} {self.fig(figure_id, state)}", cls, (("data-figure", figure_id),)),
                el("span", " "))
        return box

    def _heroes(self, state: object) -> object:
        table = headed_table("seats", "gh.col_", ("seat", "class", "hp", "hand", "discard", "lost", "round"))
        for hero in state.heroes:
            figure = rules.figure_of(state, hero.seat)
            row = el("tr", None, "seat-row", (("data-seat", hero.seat),))
            status = ""
            if hero.exhausted:
                status, now = "exhausted", t("gh.exhausted_now")
            elif hero.pick is not None:
                own = hero.pick.content if hero.seat == self.viewer else None
                status = "has chosen"
                now = t("gh.has_chosen_now") if own is None else (
                    t("gh.has_chosen_rest") if own.long_rest else
                    t("gh.has_chosen_cards", cards=self.cards(own.cards), leading=self.card(own.leading)))
            elif state.phase == "select":
                status, now = "choosing…", t("gh.choosing")
            elif hero.long_rest:
                status, now = "long rest (99)", t("gh.long_rest_now")
            elif hero.initiative is not None:
                status = "initiative"
                now = t("gh.initiative_now", initiative=hero.initiative, cards=self.cards(hero.active) or t("gh.played_all"))
            else:
                now = ""
            add(row, el("td", seat_name(hero.seat)), el("td", local_name("gloomhaven", hero.cls, hero.cls)),
                el("td", f"{figure.hp}/{figure.max_hp}" if figure is not None else "—"),
                el("td", len(hero.hand)), el("td", len(hero.discard)), el("td", len(hero.lost)),
                el("td", now, "pick-status", (("data-status", status),)))
            add(table, row)
        return table

    def _my_cards(self, state: object, on_pick: object) -> object:
        hero = rules.hero_of(state, self.viewer)
        if hero is None or hero.exhausted:
            return None
        box = el("div", None, "my-cards")
        if state.phase == "select" and hero.pick is None and len(hero.hand) >= 2:
            add(box, el("p", t("gh.your_hand"), "hint"))
            for card_id in hero.hand:
                add(box, self._card_button(state, card_id, card_id in self.chosen, self._toggle(card_id)))
            if len(self.chosen) == 2:
                for lead in self.chosen:
                    data = {"cards": list(self.chosen), "leading": lead}
                    initiative = rules._card(state, lead).initiative
                    text = t("gh.play_pick", cards=self.cards(self.chosen), leading=self.card(lead), initiative=initiative)
                    button = el("button", text, "action confirm-pick", (("data-leading", lead),))
                    tried = t("gh.tried_pick", leading=self.card(lead))
                    listen(button, "click", self._send(on_pick, ("cmd", "SelectCards", data, tried)))
                    add(box, button)
            return box
        if state.phase == "act" and state.acting == self.viewer and not hero.long_rest:
            add(box, el("p", t("gh.in_play"), "hint"))
            used = {card for card, _half in hero.used}
            used_halves = {half for _card, half in hero.used}
            for card_id in hero.active:
                if card_id in used:
                    continue
                card = rules._card(state, card_id)
                line = el("div", None, "card-line", (("data-card", card_id),))
                add(line, el("b", f"{self.card(card_id)} ({card.initiative}) "))
                for half, action in (("top", card.top), ("bottom", card.bottom)):
                    if half in used_halves:
                        continue
                    label = f"{self.half_name(half)}: {self._action_text(action)}"
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
                            button = el("button", t("gh.attack_all", targets=self.figs(targets)), "action")
                            tried = t("gh.tried_attack_all")
                            listen(button, "click", self._send(on_pick, ("cmd", "PlayCard", data, tried)))
                            add(box, button)
            return box
        return None

    def _path_panel(self, state: object, action: object, on_pick: object) -> object:
        """Build a path by waypoints, its cost as it grows, then confirm (issue 15)."""
        panel = el("div", None, "path-builder")
        if self.building is None:
            button = el("button", t("path.build"), "action build-path")
            listen(button, "click", self._start_path())
            add(panel, button)
            return panel
        costs = self._path_costs(state, action)
        cost = costs[-1] if costs else 0
        route = " → ".join(f"{hex_name(hex)} ({spent})" for hex, spent in zip(self.building, costs)) \
            or t("gh.path_empty")
        add(panel, el("p", t("gh.path_line", route=route, cost=cost, n=action.value), "path-cost",
                      (("data-cost", str(cost)), ("data-steps", str(len(self.building))))))
        if self.building:
            data = {"card": self.half[0], "half": self.half[1], "path": [list(hex) for hex in self.building]}
            confirm = el("button", t("gh.confirm_path"), "action confirm-path")
            label = t("path.move_along", route=" → ".join(hex_name(hex) for hex in self.building))
            listen(confirm, "click", self._confirm_path(on_pick, ("cmd", "PlayCard", data, label)))
            add(panel, confirm)
        again = el("button", t("gh.clear_path"), "action clear-path")
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
            return t("gh.act_move", value=action.value) + (t("gh.act_jump") if action.jump else "")
        if action.kind == "attack":
            extra = t("gh.act_range", range=action.range) if action.range else ""
            extra += t("gh.act_targets", targets=action.targets) if action.targets > 1 else ""
            return t("gh.act_attack", value=action.value) + extra + (t("gh.act_advantage") if action.advantage else "")
        if action.kind == "heal":
            return t("gh.act_heal", value=action.value) + (t("gh.act_range", range=action.range) if action.range
                                                           else t("gh.act_self"))
        return t("gh.act_summon", name=local_name("gloomhaven", action.summon, action.summon))

    def _card_button(self, state: object, card_id: str, chosen: bool, handler: object) -> object:
        card = rules._card(state, card_id)
        text = t("gh.card_button", initiative=card.initiative, card=self.card(card_id),
                 top=self._action_text(card.top), bottom=self._action_text(card.bottom))
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
        hits = self.figs(option.attacks) or t("gh.no_attack")
        return t("gh.option", index=index, focus=self.fig(option.focus, state), hex=hex_name(option.destination),
                 hits=hits)

    def _focus_trace(self, state: object, envelopes: list) -> object:
        """The newest monster turn: who it considered, at what cost, why it chose, and its options."""
        box = el("div", None, "focus-trace")
        planned = None
        for envelope in reversed(envelopes):
            if envelope.event.TYPE == "MonsterTurnPlanned":
                planned = envelope.event
                break
        if planned is None:
            add(box, el("p", t("gh.no_monster_yet"), "muted"))
            return box
        return self.plan_trace(state, planned, box)

    def plan_trace(self, state: object, planned: object, box: object = None) -> object:
        """A MonsterTurnPlanned's trace: the candidates, the rule that chose, the options, every hex
        weighed (also the replay page's "Ask the rules" answer to a monster turn, client/questions.py)."""
        if box is None:
            box = el("div", None, "focus-trace")
        box.setAttribute("data-figure", planned.figure)
        add(box, el("h3", t("gh.focus_of", figure=self.fig(planned.figure, state))))
        table = el("table", None, "candidates")
        head = el("tr")
        for title in ("enemy", "negative", "movement", "proximity", "initiative"):
            add(head, el("th", t("gh.col_" + title)))
        add(head, el("th"))
        add(table, head)
        for c in planned.candidates:
            row = el("tr", None, "candidate" + (" focus" if c.figure in planned.focus else ""),
                     (("data-figure", c.figure),))
            add(row, el("td", self.fig(c.figure, state)), el("td", "—" if c.negative is None else c.negative),
                el("td", t("gh.unreachable") if c.movement is None else c.movement),
                el("td", "—" if c.proximity is None else c.proximity), el("td", c.initiative),
                el("td", t("gh.focus_mark") if c.figure in planned.focus else ""))
            add(table, row)
        add(box, table)
        add(box, el("p", t("gh.decided_by", why=say(words.decided(planned.decided_by))), "decided-by"))
        if planned.options:
            listing = el("ol", None, "options", (("start", "0"),))
            for option in planned.options:
                add(listing, el("li", self.option_line(option) + (t("gh.disadvantage") if option.disadvantage else ""),
                                "option"))
            add(box, listing)
            if len(planned.options) > 1:
                add(box, el("p", t("gh.equally_good"), "hint"))
        if planned.destinations:
            # Every hex weighed and the GH-C8/GH-C9 step that kept or dropped it (the step names come from
            # the core in English; the describer's step and detail say them in the reader's language).
            weighed = el("details", None, "destinations")
            add(weighed, el("summary", t("gh.weighed", n=len(planned.destinations))))
            listing = el("ul")
            for d in planned.destinations:
                toward = f" → {hex_name(d.toward)}" if d.toward is not None else ""
                verdict = "kept" if d.kept else "dropped"
                line = t("gh.weighed_line", hex=hex_name(d.hex), toward=toward,
                         verdict=t("gh.kept") if d.kept else t("gh.dropped"), step=say(words.step(d.step)),
                         detail=say(words.detail(d.detail)))
                add(listing, el("li", line, "destination " + verdict, (("data-hex", f"{d.hex[0]},{d.hex[1]}"),)))
            add(weighed, listing)
            add(box, weighed)
        return box

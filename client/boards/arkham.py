"""The ``arkham`` board as SVG: Streets, Locations and yellow lines, the Other World cards, the Lost
in Time and Space box, gates, Clue tokens, monsters and investigators; the last roll as dice.

Positions come from the board data (``at`` of every area): pixels exist only here. Legal
destinations and their costs come from the game's own ``rules.destinations``; what a click means
(Move, Place after Lost in Time and Space, Return through a gate) from its ``phase``. One click
on a destination sends a Move without a path, which walks the route the game's rules version
gives (``rules.destinations`` under the version in force: the cheapest up to arkham-3, round
monsters when that fits from arkham-4, AH-7); "Build a path" turns clicks into waypoints instead:
an area joined to the path's end is its next step, a farther one adds the cheapest route to it
(an area no line reaches is added as it is, for the server to refuse with its clause), each step
shows its cost as the path grows, and "Confirm path" sends ``Move(to, path)`` (AH-3). A destination
whose cheapest ways stop at different monsters (arkham-4, AH-7: ``rules.ways_apart``) is not moved to at
a tap, which the rules would refuse: the tap draws each way to the monster it meets, lists them in words
with a button each, and a tap on a way's end (or its button) sends ``Move(to, path)`` along it. The static
board is built once per game; each ``draw`` rebuilds only the pieces layer and the side panel.
Colours are SVG presentation attributes (no style attributes: the page's CSP forbids them).
"""

from __future__ import annotations

from client.boards import svgkit
from client.boards.svgkit import Place, View, headed_table, last_event, pick_on_click, show_route, swatch, wrap
from client.dom import add, clear, el, set_text, svg
from client.i18n import MARK, again, command_name, local_name, seat_initials, seat_name, t, word
from events.games.arkham import board as boards
from events.games.arkham import rules

PALETTE = ("#d63c3c", "#3c6fd6", "#2f9e44", "#e0b000", "#8a4fd0", "#e8730c", "#e05fa8", "#159a9c")
FILL = {"street": "#e9dfc6", "location": "#f7f1e1", "other_world": "#d9d2ef", "special": "#dde3ea"}
LINE = "#e3b300"
DEST = "#ffe066"
WAYS = ("#1f5fbf", "#b0308a", "#0f7f5f", "#8a4b00")  # one colour per tied way (AH-7), numbered on the board
STATS = ("speed", "sneak", "fight", "will", "stamina", "sanity")
# Where the n-th piece in an area sits, relative to the area's centre.
SLOTS = ((-22, 20), (0, 24), (22, 20), (-30, 0), (30, 0), (-22, -22), (22, -22), (0, -28))


def _signed(value: int) -> str:
    return ("+" if value >= 0 else "") + str(value)


def seat_colour(state: object, seat: str) -> str:
    return svgkit.seat_colour(state, seat, rules.seat_index, PALETTE)


def check_dice(state: object, check: str, found: object) -> str:
    """The dice a check would roll, shown before it is asked for (AH-C1: skill + the monster's modifier)."""
    inv = rules.active(state)
    modifier = {"evade": found.awareness, "flee": found.awareness, "horror": found.horror_rating,
                "combat": found.combat_rating}[check]
    dice = getattr(inv, rules.SKILLS[check]) + modifier
    if dice <= 0:
        return t("arkham.dice_none")
    needed = found.toughness if check == "combat" else 1
    return t("arkham.dice_needed", dice=t("arkham.dice_count", n=dice), needed=t("arkham.successes_needed", n=needed))


class _Area(Place):
    """An area as drawn: a place with its shape (whose outline marks a destination) and its cost's text."""

    __slots__ = ("shape", "cost")

    def __init__(self, group: object, shape: object, title: object, cost: object, label: str) -> None:
        Place.__init__(self, group, title, label)
        self.shape = shape
        self.cost = cost


class ArkhamView(View):
    """Draws one ``arkham`` state into a board node (SVG) and an info node (HTML)."""

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        View.__init__(self, game, board_node, info_node)
        self.areas: dict = {}
        self.centres: dict = {}
        self.names: dict = {}  # area id -> its name in the reader's language
        self.monster_names: dict = {}  # monster id -> its name in the reader's language
        self.pieces = None
        self.route = None
        self.building = False  # "Build a path": clicks are waypoints, not moves
        self.steps: list = []  # the path built so far (areas entered, start excluded)
        self.building_from = None  # (seat, area, points) the path starts from; it ends when they change
        self.choosing = None  # (goal, ways, (seat, area, points)) while the mover picks one of a goal's tied ways
        self.ways_layer = None
        self.ways_under = None
        self.name_tops: dict = {}  # area id -> the top of its name's first line (a tied way's number sits above)

    # --- what the page asks -----------------------------------------------------------------------

    def hints(self, state: object, seat: object) -> dict:
        """Areas a click would act on now -> the cost in movement points (None: no cost)."""
        if state is None or seat is None or seat not in rules.turn(state):
            return {}
        now = rules.phase(state)
        if now == "move":
            return {place: len(path) for place, path in self.destinations(state).items()}
        if now == "place":
            return {command.area: None for command in self.game.legal(state, seat)}
        if now == "return":
            return {command.location: None for command in self.game.legal(state, seat)}
        return {}

    def tied(self, state: object, place: str) -> bool:
        """A Move to ``place`` without a path is refused: its cheapest ways meet different monsters
        (``rules.ways_apart``, arkham-4, AH-7); its hint says to move to the monster chosen."""
        return bool(rules.ways_apart(state, place, rules.edition(self.in_force.rules_version)))

    def destinations(self, state: object) -> dict:
        """``rules.destinations`` under the rules version in force (``in_force``, which the page sets
        from its Table): an arkham-3 game's hints are the routes its own Move walks (AH-7)."""
        return rules.destinations(state, rules.edition(self.in_force.rules_version))

    def prompt_text(self, state: object, seat: object, current: object) -> str:
        """The line before the buttons: what this seat's click or buttons do now, or whom it waits for."""
        if current != seat:
            return t("play.waiting", seat=seat_name(current))
        now = rules.phase(state)
        if now == "move" and self._planning(state, seat):
            return t("arkham.path_prompt")
        if now == "move" and self._choosing(state, seat):
            return t("tablefix.ways_prompt", area=self.area(self.choosing[0]))
        if now == "move":
            facing = rules.undealt(state)
            if facing:  # AH-7: no step before every monster here is fought or evaded
                names = ", ".join(self.monster_name(item.id) for item in facing)
                return t("arkham.your_movement_monsters", monsters=names)
            if not self.destinations(state):
                return t("arkham.your_movement_no_points") if state.points <= 0 else t("arkham.your_movement_nowhere")
            return t("arkham.your_movement")
        if now in ("place", "return"):
            return t("arkham.come_back")
        return t("arkham.your_choice")

    def pick_command(self, state: object, seat: object, place: str) -> tuple | None:
        """A click: Place after Lost in Time and Space (AH-C5), Return through a gate (AH-11), else Move;
        while a path is being built, a waypoint (None: nothing to send yet)."""
        now = rules.phase(state) if state is not None else ""
        if self._planning(state, seat):
            self._add_waypoint(state, place)
            return None
        if self._choosing(state, seat):
            for stop, path in self.choosing[1]:
                if stop == place:
                    return self._take_way(path)
            self.choosing = None  # another area: the choice is dropped, the tap acts as it would
        if now == "move" and self.tied(state, place):
            ways = self._ways(state, place)
            if ways:  # AH-7: which monster the walk meets is the player's: show the ways, send nothing yet
                inv = rules.active(state)
                self.choosing = (place, ways, (inv.seat, inv.where, state.points))
                return None
        name = self.area(place)
        if now == "place":
            return "Place", {"area": place}, t("arkham.place_in", area=name)
        if now == "return":
            return "Return", {"location": place}, t("arkham.return_at", area=name)
        return "Move", {"to": place}, t("play.move_to", place=name)

    def area(self, area_id: object) -> str:
        return self.names.get(area_id) or local_name("arkham", str(area_id), area_id)

    def monster_name(self, monster_id: object) -> str:
        return self.monster_names.get(monster_id) or str(monster_id)

    def learn(self, state: object) -> None:
        """Area and monster names in the reader's language (client/i18n/names/arkham.<lang>.json)."""
        self.names = {area.id: local_name("arkham", area.id, area.name) for area in state.board.areas}
        self.monster_names = {m.id: local_name("arkham", m.name, m.name) for m in state.monsters}

    # --- tied ways (arkham-4, AH-7: the cheapest ways to a goal stop at different monsters) ---------

    def _ways(self, state: object, goal: str) -> list:
        """(stop, path) for each area where one of the cheapest ways to ``goal`` stops at a monster
        (``rules.ways_apart``), the path the cheapest route there that passes no other monster."""
        here = rules.active(state).where
        stops = rules.halts(state)
        out = []
        for stop in rules.ways_apart(state, goal, rules.edition(self.in_force.rules_version)):
            path = boards.route(state.board, here, stop, stops)
            if path:
                out.append((stop, tuple(path)))
        return out

    def asking(self, state: object, seat: object) -> object:
        """What this seat is asked to choose now (a key, new for each choice), or None: while it picks one of
        a goal's tied ways, the page brings their buttons into view once (on a phone they were below the
        fold, under the board the tap was on)."""
        if not self._choosing(state, seat):
            return None
        return "ways " + self.choosing[0] + " " + " ".join(stop for stop, _path in self.choosing[1])

    def _choosing(self, state: object, seat: object) -> bool:
        """True while this seat picks one of a goal's tied ways from where it stands; dropped when the
        mover, its area or its points change (a command was made)."""
        if self.choosing is None:
            return False
        inv = rules.active(state) if state is not None and not state.over else None
        if not self._may_walk(state, seat) or (inv.seat, inv.where, state.points) != self.choosing[2]:
            self.choosing = None
            return False
        return True

    def _take_way(self, path: tuple) -> tuple:
        self.choosing = None
        steps = list(path)
        label = t("path.move_along", route=" → ".join(self.area(place) for place in steps))
        return "Move", {"to": steps[-1], "path": steps}, label

    def _way_words(self, state: object, number: int, stop: str, path: tuple) -> str:
        start = rules.active(state).where
        monsters = ", ".join(self.monster_name(item.id) for item in rules.monsters_in(state, stop))
        route = " → ".join(self.area(place) for place in (start,) + tuple(path))
        return t("tablefix.way_line", number=number, route=route, monsters=monsters, stop=self.area(stop), n=len(path))

    def _ways_list(self, state: object) -> object:
        goal, ways, _key = self.choosing
        box = el("div", None, "ways", (("id", "ways"), ("data-goal", goal)))
        cost = len(self.destinations(state).get(goal) or ())  # the goal's, not a way's end's
        add(box, el("p", t("tablefix.ways_intro", area=self.area(goal), n=cost), "ways-intro", (("data-cost", cost),)))
        listed = el("ol", None, "ways-list")
        for number, (stop, path) in enumerate(ways, 1):
            add(listed, el("li", self._way_words(state, number, stop, path), "way-words",
                           (("data-way", stop), ("data-path", " ".join(path)))))
        add(box, listed)
        return box

    def _draw_ways(self, state: object) -> None:
        """Each tied way as a line from the mover to the monster that stops it, numbered at its end. The
        lines run beneath the areas (``ways_under``: a line through an area's centre crossed its name, on
        a phone "Quartier du Fleuve" under a thick stroke), their numbers and the goal's ring above."""
        layer = clear(self.ways_layer)
        under = clear(self.ways_under)
        if not self.choosing:
            return
        start = rules.active(state).where
        gx, gy = self.centres[self.choosing[0]]  # the goal the ways lead toward, ringed
        add(layer, svg("circle", "way-goal", (("cx", gx), ("cy", gy), ("r", "46"), ("fill", "none"), ("stroke", WAYS[0]),
                                              ("stroke-width", "3"), ("stroke-dasharray", "8 5"),
                                              ("data-goal", self.choosing[0]))))
        for number, (stop, path) in enumerate(self.choosing[1], 1):
            colour = WAYS[(number - 1) % len(WAYS)]
            points = " ".join(f"{x},{y}" for x, y in [self.centres[start]] + [self.centres[p] for p in path])
            x, y = self.centres[stop]
            line = svg("g", "way-line", (("data-way", stop),))
            add(line, svg("polyline", None, (("points", points), ("fill", "none"), ("stroke", colour),
                                             ("stroke-width", "9"), ("stroke-linecap", "round"),
                                             ("stroke-linejoin", "round"))))
            add(under, line)
            way = svg("g", "way", (("data-way", stop), ("data-path", " ".join(path))))
            badge = min(y - 30, self.name_tops.get(stop, y) - 15)  # over the stop's name, never on its first line
            add(way, svg("circle", None, (("cx", x + 30), ("cy", badge), ("r", "13"), ("fill", colour), ("stroke", "#fff"),
                                          ("stroke-width", "2"))),
                svg("text", None, (("x", x + 30), ("y", badge + 5), ("text-anchor", "middle"), ("font-size", "14"),
                                   ("font-weight", "bold"), ("fill", "#fff")), number))
            add(layer, way)

    # --- building a path (AH-3: "I went this way") ------------------------------------------------

    def _may_walk(self, state: object, seat: object) -> bool:
        return (state is not None and seat is not None and seat in rules.turn(state) and rules.phase(state) == "move"
                and state.points > 0 and not rules.undealt(state))

    def _planning(self, state: object, seat: object) -> bool:
        """True while this seat builds a path from where it stands; a path left behind is dropped."""
        if not self.building:
            return False
        inv = rules.active(state) if state is not None and not state.over else None
        if not self._may_walk(state, seat) or (inv.seat, inv.where, state.points) != self.building_from:
            self.building = False
            self.steps = []
            return False
        return True

    def _end(self, state: object) -> str:
        return self.steps[-1] if self.steps else rules.active(state).where

    def _add_waypoint(self, state: object, place: str) -> None:
        end = self._end(state)
        if place == end:
            return
        if place in boards.neighbours(state.board).get(end, ()):
            self.steps.append(place)
            return
        route = boards.route(state.board, end, place, rules.halts(state))
        self.steps.extend(route if route else (place,))  # no line reaches it: the server says why (AH-3, AH-9)

    def local_actions(self, state: object, seat: object) -> list:
        """Buttons the page handles itself, (label, key): start, confirm, undo or cancel a path."""
        if not self._may_walk(state, seat):
            return []
        if self._choosing(state, seat):
            out = [(t("tablefix.way_take", number=number, stop=self.area(stop)), "way:" + stop)
                   for number, (stop, _path) in enumerate(self.choosing[1], 1)]
            return out + [(t("tablefix.way_cancel"), "way-cancel")]
        if not self._planning(state, seat):
            return [(t("path.build"), "start")]
        out = []
        if self.steps:
            cost = len(self.steps)
            out.append((t("arkham.confirm_path", n=cost), "confirm"))
            out.append((t("path.undo"), "undo"))
        out.append((t("path.cancel"), "cancel"))
        return out

    def path_action(self, state: object, seat: object, key: str) -> tuple | None:
        """A path button: None, or the command to send (kind, data, label) once the path is confirmed."""
        if key.startswith("way") and self._choosing(state, seat):
            for stop, path in self.choosing[1]:
                if key == "way:" + stop:
                    return self._take_way(path)
            self.choosing = None  # "way-cancel"
            return None
        if key == "start" and self._may_walk(state, seat):
            self.choosing = None
            inv = rules.active(state)
            self.building, self.steps, self.building_from = True, [], (inv.seat, inv.where, state.points)
        elif key == "undo" and self.steps:
            self.steps.pop()
        elif key == "cancel":
            self.building, self.steps = False, []
        elif key == "confirm" and self._planning(state, seat) and self.steps:
            steps = list(self.steps)
            self.building, self.steps = False, []
            label = t("path.move_along", route=" → ".join(self.area(place) for place in steps))
            return "Move", {"to": steps[-1], "path": steps}, label
        return None

    def actions(self, state: object, seat: object) -> list:
        """Every legal command a click on the board does not give, as a button."""
        if state is None or seat is None or seat not in rules.turn(state):
            return []
        out = []
        for command in self.game.legal(state, seat):
            kind = command.TYPE
            if kind in ("Move", "Place", "Return"):
                continue
            data = command.to_data()
            data.pop("type")
            out.append((self._label(state, command), kind, data))
        return out

    def off_turn_actions(self, state: object, seat: object) -> list:
        """A waiting investigator's trade offers, as buttons it may press while another moves: arkham-5 lets
        any investigator in the area trade during the movement (AH-C10); the version in force decides."""
        if state is None or seat is None or seat in rules.turn(state):
            return []
        out = []
        for command in self.in_force.legal(state, seat):
            if command.TYPE == "OfferTrade":
                data = command.to_data()
                data.pop("type")
                out.append((self._label(state, command), command.TYPE, data))
        return out

    def _label(self, state: object, command: object) -> str:
        kind = command.TYPE
        if kind in ("Evade", "Fight"):
            found = rules.monster(state, command.monster)
            name = self.monster_name(command.monster)
            if found is None:
                return t("arkham.evade", monster=name) if kind == "Evade" else t("arkham.fight", monster=name)
            check = "evade" if kind == "Evade" else "combat" if state.combat else "horror"
            dice = check_dice(state, check, found)
            if kind == "Fight" and state.combat:
                return t("arkham.fight_check_dice", monster=name, dice=dice)
            if kind == "Fight":
                return t("arkham.fight_horror_dice", monster=name, dice=dice)
            if found.elusive:
                return t("arkham.evade_elusive", monster=name)
            return t("arkham.evade_dice", monster=name, dice=dice)
        if kind == "Stop":
            return t("arkham.stop")
        if kind == "TakeClues":
            return t("arkham.take_clues", n=command.count)
        if kind == "Flee":
            found = rules.monster(state, state.combat)
            if found is None:
                return t("arkham.flee")
            if found.elusive and rules.edition(self.in_force.rules_version) > 5:  # arkham-6: no roll (AH-C6)
                return t("arkham.flee_elusive", monster=self.monster_name(found.id))
            dice = check_dice(state, "flee", found)
            return t("arkham.flee_dice", dice=dice)
        if kind == "SpendClue":
            return t("arkham.spend_clue")
        if kind == "AcceptRoll":
            return t("arkham.accept_roll")
        if kind == "OfferTrade":
            partner = seat_name(command.partner)
            if command.give:
                return t("arkham.give", items=self.items(command.give), partner=partner)
            return t("arkham.ask", items=self.items(command.take), partner=partner)
        if kind == "AnswerTrade":
            offer = state.offer
            key = "arkham.accept_trade" if command.accept else "arkham.decline_trade"
            return t(key, seat=seat_name(offer.seat))
        return command_name(self.game.name, kind)

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        kind = command.TYPE
        if kind == "Move":
            return t("play.move_to", place=self.area(command.to))
        if kind == "Place":
            return t("arkham.place_in", area=self.area(command.area))
        if kind == "Return":
            return t("arkham.return_at", area=self.area(command.location))
        if kind == "AnswerTrade" and (state is None or state.offer is None):
            return None
        return self._label(state, command)

    def items(self, names: object) -> str:
        return ", ".join(local_name("arkham", item, item) for item in names) or "—"

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if not self.begin_draw(state, interactive, on_pick):
            return
        planning = self._planning(state, seat)
        choosing = not planning and self._choosing(state, seat)
        if planning:
            hints = self._path_hints(state)
        elif choosing:  # only the ends of the tied ways take a tap, each at its cost
            hints = {stop: len(path) for stop, path in self.choosing[1]}
        else:
            hints = self.hints(state, seat)
        numbered = self._numbered() if planning else {}
        for area_id, place in self.areas.items():
            step = numbered.get(area_id)
            cost = step if step is not None else hints.get(area_id, -1)
            dest = area_id in hints or step is not None
            place.group.setAttribute("data-step", "" if step is None else str(step))
            cls = "area dest" if dest else "area"
            if interactive:
                cls += " clickable"
            if cls != place.cls:
                place.group.setAttribute("class", cls)
                place.group.setAttribute("data-dest", "1" if dest else "0")
                place.shape.setAttribute("stroke", "#b8860b" if dest else "#6d6250")
                place.shape.setAttribute("stroke-width", "4" if dest else "1.5")
                place.cls = cls
            shown = "" if cost is None or cost < 0 else str(cost)
            if place.cost.textContent != shown:
                set_text(place.cost, shown)
            place.group.setAttribute("data-cost", shown)
            said = "arkham.way_choice" if dest and not planning and not choosing and self.tied(state, area_id) else "arkham.reachable"
            text = place.label + (" · " + t(said, n=cost) if dest and cost is not None else "")
            set_text(place.title, text)
        self._draw_pieces(state)
        self._draw_ways(state)
        if planning:
            self._draw_plan(state)
        else:
            self._draw_route(envelopes)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes))

    def _build(self, state: object) -> None:
        board = state.board
        self.centres = {area.id: area.at for area in board.areas}
        self.learn(state)
        xs = [x for x, _ in self.centres.values()]
        ys = [y for _, y in self.centres.values()]
        box = f"{min(xs) - 90} {min(ys) - 60} {max(xs) - min(xs) + 180} {max(ys) - min(ys) + 120}"
        root = svg("svg", "board arkham", (("viewBox", box), ("role", "img"), ("data-board", board.name)))
        add(root, svg("title", None, (), local_name("arkham", "board", board.name)))
        lines = svg("g", "lines")
        for a, b in board.lines:
            (x1, y1), (x2, y2) = self.centres[a], self.centres[b]
            unverified = (a, b) in board.unverified
            attrs = (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2), ("stroke", LINE), ("stroke-width", "7"),
                     ("data-line", f"{a} {b}"))
            if unverified:
                attrs += (("stroke-dasharray", "14 8"),)
            line = svg("line", "yellow-line unverified" if unverified else "yellow-line", attrs)
            if unverified:
                add(line, svg("title", None, (), t("arkham.unverified")))
            add(lines, line)
        add(root, lines)
        self.ways_under = svg("g", "ways-under", (("pointer-events", "none"),))  # tied ways' lines: over the yellow, under the areas
        add(root, self.ways_under)
        # The last move's route runs through the centres of the areas it crossed: beneath them, as the tied ways, it
        # crossed their names ("Кладбище" under the dashed line on a phone).
        self.route = svg("polyline", "route", (("points", ""), ("fill", "none"), ("stroke", "#c0392b"),
                                               ("stroke-width", "3"), ("stroke-dasharray", "6 4")))
        add(root, self.route)
        for world in board.worlds:
            (x1, y1), (x2, y2) = self.centres[world.areas[0]], self.centres[world.areas[1]]
            card = svg("g", "world-card", (("data-world", world.id),))
            add(card, svg("rect", "card", (("x", x1 - 60), ("y", y1 - 42), ("width", x2 - x1 + 120), ("height", 88),
                                            ("rx", "8"), ("fill", "#efeaf8"), ("stroke", "#7a6aa8"))),
                svg("text", "world-name", (("x", (x1 + x2) // 2), ("y", y1 - 27), ("text-anchor", "middle"),
                                           ("font-size", "13"), ("font-weight", "bold")), local_name("arkham", world.id, world.name)))
            add(root, card)
        self.areas = {}
        for area in board.areas:
            add(root, self._build_area(area))
        self.ways_layer = svg("g", "ways-layer", (("pointer-events", "none"),))
        add(root, self.ways_layer)
        self.pieces = svg("g", "pieces")
        add(root, self.pieces)
        clear(self.board_node)
        add(self.board_node, root)

    def _build_area(self, area: object) -> object:
        x, y = area.at
        group = svg("g", "area", (("data-area", area.id), ("data-kind", area.kind)))
        title = svg("title")
        fill = FILL[area.kind]
        if area.kind == "street":
            shape = svg("rect", "shape", (("x", x - 62), ("y", y - 24), ("width", "124"), ("height", "48"),
                                          ("rx", "12"), ("fill", fill)))
        elif area.kind == "special":
            shape = svg("rect", "shape", (("x", x - 78), ("y", y - 34), ("width", "156"), ("height", "68"),
                                          ("rx", "4"), ("fill", fill)))
        else:
            shape = svg("circle", "shape", (("cx", x), ("cy", y), ("r", "34" if area.kind == "location" else "22"),
                                            ("fill", fill)))
        add(group, title, shape)
        name = self.area(area.id)
        label = name if area.kind != "other_world" else ("1" if area.order == 1 else "2")
        # The whole name, on as many lines as it needs (a phone cannot hover a tooltip: "Loge du
        # Crépuscule d'Argent" ended in "…"), lifted clear of the cost under it.
        # Each line has a backing in the area's colour (its stroke, painted under its letters): a yellow line
        # or a tied way passing under a name wider than its circle does not cross the letters.
        words = wrap(label.replace(" (Administration Building)", ""), 13)
        lift = 6 + (len(words) - 2) * 12 if len(words) > 1 else 0
        self.name_tops[area.id] = y - 4 - lift - 12
        if area.unstable:  # its mark above the name (a three-line name's first line covered it)
            top = min(y - 44, self.name_tops[area.id] - 21)
            add(group, svg("polygon", "unstable", (("points", f"{x},{top} {x + 8},{top + 10} {x},{top + 20} "
                                                              f"{x - 8},{top + 10}"), ("fill", "#7a2bb5")),
                           ))
        last = y - 4
        for i, part in enumerate(words):
            last = y - 4 + i * 12 - lift
            add(group, svg("text", "area-name", (("x", x), ("y", last), ("text-anchor", "middle"), ("font-size", "11"),
                                                 ("stroke", fill), ("stroke-width", "3"), ("stroke-linejoin", "round"),
                                                 ("paint-order", "stroke")), again(part)))
        # The cost 18 units under the name's last line (its 13 px letters' box ends 3 under the line, the 15 px
        # digit's starts 14 over its own): clear of a wrapped name, whose second line it overlapped.
        cost = svg("text", "cost", (("x", x), ("y", last + 18), ("text-anchor", "middle"), ("font-size", "15"),
                                    ("font-weight", "bold"), ("fill", "#8a5a00")))
        add(group, cost)
        kind = "" if area.kind == "special" else word("arkham.kind_", area.kind)
        # One " · " between the parts: a name holding its own brackets ("L'Abîme (première zone)") read
        # "(première zone) (zone d'un Autre Monde)" with the kind in brackets after it.
        text = " · ".join([name] + ([kind] if kind else []) + ([t("arkham.unstable")] if area.unstable else []))
        pick_on_click(self, group, area.id)
        self.areas[area.id] = _Area(group, shape, title, cost, text)
        return group

    def _draw_pieces(self, state: object) -> None:
        """Gates, Clue tokens, monsters, investigators (and Explored markers): rebuilt each draw."""
        layer = clear(self.pieces)
        used: dict = {}

        def slot(area_id: str) -> tuple:
            n = used.get(area_id, 0)
            used[area_id] = n + 1
            x, y = self.centres[area_id]
            dx, dy = SLOTS[n % len(SLOTS)]
            return x + dx, y + dy

        for location, world in state.gates:
            x, y = self.centres[location]
            gate = svg("g", "gate", (("data-gate", location), ("data-world", world)))
            add(gate, svg("circle", None, (("cx", x), ("cy", y), ("r", "40"), ("fill", "none"), ("stroke", "#7a2bb5"),
                                           ("stroke-width", "4"), ("stroke-dasharray", "4 3"))),
                svg("title", None, (), t("arkham.gate_to", world=local_name("arkham", world, world))))
            add(layer, gate)
        for area_id, count in state.clues:
            x, y = slot(area_id)
            token = svg("g", "clue", (("data-area", area_id), ("data-count", count)))
            add(token, svg("circle", None, (("cx", x), ("cy", y), ("r", "9"), ("fill", "#2f9e44"), ("stroke", "#fff"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), count),
                svg("title", None, (), t("arkham.clue_tokens", n=count)))
            add(layer, token)
        for monster in state.monsters:
            x, y = slot(monster.area)
            flags = [t("arkham.flag_" + flag) for flag, on in (("elusive", monster.elusive), ("ambush", monster.ambush))
                     if on]
            flags += [t("arkham.flag_" + flag, value=value) for flag, value in (("nightmarish", monster.nightmarish),
                                                                             ("overwhelming", monster.overwhelming))
                      if value]
            name = self.monster_name(monster.id)
            node = svg("g", "monster", (("data-monster", monster.id), ("data-at", monster.area)))
            add(node, svg("rect", None, (("x", x - 9), ("y", y - 9), ("width", "18"), ("height", "18"),
                                         ("fill", "#5b1a1a"), ("stroke", "#fff"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), name.lstrip(MARK)[:1]),
                svg("title", None, (), t("arkham.monster_title", name=name, awareness=_signed(monster.awareness),
                                         horror=_signed(monster.horror_rating), horror_damage=monster.horror_damage,
                                         combat=_signed(monster.combat_rating), combat_damage=monster.combat_damage,
                                         toughness=monster.toughness)
                    + (" · " + ", ".join(flags) if flags else "")))
            add(layer, node)
        for index, inv in enumerate(state.investigators):
            if inv.devoured:
                continue
            x, y = slot(inv.where)
            mover = index == state.active and not state.over  # the piece a phone's scaled board opens on
            node = svg("g", "investigator", (("data-seat", inv.seat), ("data-at", inv.where),
                                             ("data-mover", "1" if mover else "0")))
            ring = "#000" if index == state.active and not state.over else "#fff"
            add(node, svg("circle", None, (("cx", x), ("cy", y), ("r", "11"), ("fill", seat_colour(state, inv.seat)),
                                           ("stroke", ring), ("stroke-width", "2.5"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), seat_initials(inv.seat)),
                svg("title", None, (), f"{seat_name(inv.seat)}: {inv.name}" + (t("arkham.delayed") if inv.delayed else "")))
            if inv.explored:
                add(node, svg("text", "explored", (("x", x + 12), ("y", y - 8), ("font-size", "10"),
                                                   ("font-weight", "bold"), ("fill", "#7a2bb5")), "E"))
            add(layer, node)

    def _path_hints(self, state: object) -> dict:
        """While building: the areas one more step away from the path's end -> that step's cost."""
        end = self._end(state)
        following = len(self.steps) + 1
        return {place: following for place in boards.neighbours(state.board).get(end, ())}

    def _numbered(self) -> dict:
        """Each area of the path built so far -> the cost of reaching it (its last step number)."""
        return {place: number for number, place in enumerate(self.steps, 1)}

    def _draw_plan(self, state: object) -> None:
        start = rules.active(state).where
        points = [self.centres[start]] + [self.centres[place] for place in self.steps if place in self.centres]
        show_route(self.route, points, self.steps)
        self.route.setAttribute("data-building", "1")

    def _plan_line(self, state: object) -> object:
        """The path being built, its cost and the points left (AH-2), or what a click does."""
        cost = len(self.steps)
        start = rules.active(state).where
        names = " → ".join(self.area(place) for place in [start] + self.steps)
        over = cost > state.points
        text = (t("arkham.path_line", route=names, cost=cost, n=state.points) + (t("arkham.path_too_many") if over else "")
                if self.steps else t("arkham.path_empty"))
        return el("p", text, "path-plan", (("id", "path-plan"), ("data-steps", cost), ("data-over", "1" if over else "0")))

    def _draw_route(self, envelopes: list) -> None:
        self.route.setAttribute("data-building", "0")
        moved = last_event(envelopes, "InvestigatorMoved", since="TurnEnded")
        if moved is None:
            self.route.setAttribute("visibility", "hidden")
        else:
            show_route(self.route, [self.centres[moved.start]] + [self.centres[place] for place in moved.path], moved.path)

    def _info(self, state: object, envelopes: list) -> list:
        nodes = [self.title_node(state, envelopes)]
        if state.over:
            nodes.append(el("p", t("arkham.over"), "turn over"))
        else:
            mover = rules.active(state)
            line = el("p", None, "turn")
            add(line, el("span", t("arkham.phase")), el("b", f"{min(state.round, state.rounds)} / {state.rounds}"),
                el("span", t("arkham.moving")), swatch(seat_colour(state, mover.seat)),
                el("b", f" {seat_name(mover.seat)} ({mover.name})", "turn-seat"),
                el("span", t("arkham.points_left", n=state.points), "points"))
            nodes.append(line)
            nodes.append(el("p", self._prompt(state), "prompt", (("data-phase", rules.phase(state)),)))
            if self.building:
                nodes.append(self._plan_line(state))
            if self.choosing:
                nodes.append(self._ways_list(state))
        nodes.append(self._dice(state, envelopes))
        table = headed_table("seats", "arkham.col_", ("seat", "investigator", "in", "speed", "sneak", "fight", "will",
                                                      "stamina", "sanity", "clues", "items", "trophies"))
        for inv in state.investigators:
            row = el("tr", None, "seat-row", (("data-seat", inv.seat),))
            where = t("arkham.devoured_where") if inv.devoured else self.area(inv.where)
            if inv.delayed:
                where += t("arkham.delayed")
            if inv.explored:
                where += " · " + t("arkham.explored")
            add(row, add(el("td"), swatch(seat_colour(state, inv.seat)), el("span", " " + seat_name(inv.seat))),
                el("td", inv.name, None, (("translate", "no"),)), el("td", where, "where"), el("td", inv.speed),
                el("td", inv.sneak), el("td", inv.fight), el("td", inv.will), el("td", inv.stamina, "stamina"),
                el("td", inv.sanity, "sanity"), el("td", inv.clues, "clues"),
                el("td", self.items(inv.items), "items"),
                el("td", ", ".join(local_name("arkham", name, name) for _id, name in inv.trophies) or "—", "trophies"))
            add(table, row)
        nodes.append(table)
        lost = [seat_name(inv.seat) for inv in state.investigators if inv.where == rules.LOST]
        nodes.append(el("p", t("arkham.lost_box", seats=", ".join(lost) if lost else t("arkham.nobody")), "lost-box"))
        return nodes

    def _prompt(self, state: object) -> str:
        now = rules.phase(state)
        mover = rules.active(state)
        seat = seat_name(mover.seat)
        if now == "trade":
            return t("arkham.prompt_trade", partner=seat_name(state.offer.partner), seat=seat_name(state.offer.seat))
        if now == "spend":
            return t("arkham.prompt_spend", seat=seat)
        if now == "combat":  # an Ambush monster is fought to the end (AH-C3): no "or flee" then
            fought = rules.monster(state, state.combat)
            key = "tablefix.prompt_combat_ambush" if fought is not None and fought.ambush else "arkham.prompt_combat"
            return t(key, seat=seat, monster=self.monster_name(state.combat))
        if now == "clues":
            return t("arkham.prompt_clues", seat=seat, n=rules.clues_at(state, mover.where))
        if now == "return":
            return t("arkham.prompt_return", seat=seat)
        if now == "place":
            return t("arkham.prompt_place", seat=seat)
        facing = rules.undealt(state)
        if facing:
            return t("arkham.prompt_monsters", seat=seat, monsters=", ".join(self.monster_name(m.id) for m in facing))
        if state.points <= 0:
            return t("arkham.prompt_no_points", seat=seat)
        return t("arkham.prompt_move", seat=seat)

    def _dice(self, state: object, envelopes: list) -> object:
        """The last roll of the current movement: each die with its face, successes highlighted (AH-C1)."""
        box = el("div", None, "dice", (("id", "dice"),))
        for envelope in reversed(envelopes):
            event = envelope.event
            if event.TYPE == "TurnEnded":
                break
            if event.TYPE in ("CheckRolled", "ClueSpent"):
                self._roll(box, envelopes, envelope)
                return box
        add(box, el("span", t("arkham.no_roll"), "no-roll"))
        return box

    def _roll(self, box: object, envelopes: list, envelope: object) -> None:
        event = envelope.event
        if event.TYPE == "ClueSpent":  # the check's dice, then the extra ones
            rolls = []
            check = None
            for item in envelopes[: envelope.seq]:
                if item.event.TYPE == "CheckRolled":
                    check = item.event
                    rolls = list(item.event.rolls)
                elif item.event.TYPE == "ClueSpent":
                    rolls.append(item.event.roll)
            face = check.threshold if check is not None else 5
            name, successes, difficulty, passed = event.check, event.successes, event.difficulty, event.passed
        else:
            rolls, face = list(event.rolls), event.threshold
            name, successes, difficulty, passed = event.check, event.successes, event.difficulty, event.passed
        box.setAttribute("data-seq", envelope.seq)
        add(box, el("b", t("arkham.check_name", check=word("arkham.check_", name)), "check-name"))
        dice = svg("svg", "dice-row", (("viewBox", f"0 0 {max(1, len(rolls)) * 30} 28"),
                                       ("width", str(max(1, len(rolls)) * 30)), ("height", "28")))
        for i, value in enumerate(rolls):
            hit = value >= face
            die = svg("g", "die success" if hit else "die", (("data-face", value), ("data-success", "1" if hit else "0")))
            add(die, svg("rect", None, (("x", i * 30 + 2), ("y", "2"), ("width", "24"), ("height", "24"), ("rx", "4"),
                                        ("fill", "#2f9e44" if hit else "#ffffff"), ("stroke", "#333"))),
                svg("text", None, (("x", i * 30 + 14), ("y", "19"), ("text-anchor", "middle"), ("font-size", "14"),
                                   ("fill", "#fff" if hit else "#333")), value))
            add(dice, die)
        add(box, dice)
        verdict = t("arkham.passed") if passed else t("arkham.failed")
        summary = t("arkham.no_dice") if not rolls else t("tablefix.summary", n=successes, face=face,
                                                           difficulty=difficulty, verdict=verdict)
        add(box, el("span", summary, "dice-summary", (("data-passed", "1" if passed else "0"),
                                                      ("data-successes", successes))))

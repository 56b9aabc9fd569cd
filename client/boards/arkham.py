"""The ``arkham`` board as SVG: Streets, Locations and yellow lines, the Other World cards, the Lost
in Time and Space box, gates, Clue tokens, monsters and investigators; the last roll as dice.

Positions come from the board data (``at`` of every area): pixels exist only here. Legal
destinations and their costs come from the game's own ``rules.destinations``; what a click means
(Move, Place after Lost in Time and Space, Return through a gate) from its ``phase``. One click
on a destination walks the cheapest route; "Build a path" turns clicks into waypoints instead:
an area joined to the path's end is its next step, a farther one adds the cheapest route to it
(an area no line reaches is added as it is, for the server to refuse with its clause), each step
shows its cost as the path grows, and "Confirm path" sends ``Move(to, path)`` (AH-3). The static
board is built once per game; each ``draw`` rebuilds only the pieces layer and the side panel.
Colours are SVG presentation attributes (no style attributes: the page's CSP forbids them).
"""

from __future__ import annotations

from client.boards import svgkit
from client.boards.svgkit import pick_on_click, show_route, swatch, wrap
from client.dom import add, clear, el, set_text, svg
from events.games.arkham import board as boards
from events.games.arkham import rules

PALETTE = ("#d63c3c", "#3c6fd6", "#2f9e44", "#e0b000", "#8a4fd0", "#e8730c", "#e05fa8", "#159a9c")
FILL = {"street": "#e9dfc6", "location": "#f7f1e1", "other_world": "#d9d2ef", "special": "#dde3ea"}
LINE = "#e3b300"
DEST = "#ffe066"
CHECKS = {"evade": "Evade", "flee": "Flee (Evade)", "horror": "Horror", "combat": "Combat"}
# Where the n-th piece in an area sits, relative to the area's centre.
SLOTS = ((-22, 20), (0, 24), (22, 20), (-30, 0), (30, 0), (-22, -22), (22, -22), (0, -28))


def seat_colour(state: object, seat: str) -> str:
    return svgkit.seat_colour(state, seat, rules.seat_index, PALETTE)


def check_dice(state: object, check: str, found: object) -> str:
    """The dice a check would roll, shown before it is asked for (AH-C1: skill + the monster's modifier)."""
    inv = rules.active(state)
    modifier = {"evade": found.awareness, "flee": found.awareness, "horror": found.horror_rating,
                "combat": found.combat_rating}[check]
    dice = getattr(inv, rules.SKILLS[check]) + modifier
    if dice <= 0:
        return "0 dice: fails without a roll"
    needed = found.toughness if check == "combat" else 1
    return f"{dice} {'die' if dice == 1 else 'dice'}, {needed} success{'' if needed == 1 else 'es'} needed"


class _Area:
    __slots__ = ("group", "shape", "title", "cost", "label", "cls")

    def __init__(self, group: object, shape: object, title: object, cost: object, label: str) -> None:
        self.group = group
        self.shape = shape
        self.title = title
        self.cost = cost
        self.label = label
        self.cls = ""


class ArkhamView:
    """Draws one ``arkham`` state into a board node (SVG) and an info node (HTML)."""

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        self.game = game
        self.board_node = board_node
        self.info_node = info_node
        self.board = None
        self.areas: dict = {}
        self.centres: dict = {}
        self.names: dict = {}
        self.pieces = None
        self.route = None
        self.interactive = False
        self.on_pick = None
        self.building = False  # "Build a path": clicks are waypoints, not moves
        self.steps: list = []  # the path built so far (areas entered, start excluded)
        self.building_from = None  # (seat, area, points) the path starts from; it ends when they change

    # --- what the page asks -----------------------------------------------------------------------

    def hints(self, state: object, seat: object) -> dict:
        """Areas a click would act on now -> the cost in movement points (None: no cost)."""
        if state is None or seat is None or seat not in rules.turn(state):
            return {}
        now = rules.phase(state)
        if now == "move":
            return {place: len(path) for place, path in rules.destinations(state).items()}
        if now == "place":
            return {command.area: None for command in self.game.legal(state, seat)}
        if now == "return":
            return {command.location: None for command in self.game.legal(state, seat)}
        return {}

    def prompt_text(self, state: object, seat: object, current: object) -> str:
        """The line before the buttons: what this seat's click or buttons do now, or whom it waits for."""
        if current != seat:
            return f"Waiting for {current}…"
        now = rules.phase(state)
        if now == "move" and self._planning(state, seat):
            return "Your path: click each area to walk through in order (a farther one adds its cheapest way), then"
        if now == "move":
            facing = rules.undealt(state)
            if facing:  # AH-7: no step before every monster here is fought or evaded
                names = ", ".join(item.name for item in facing)
                return f"Your movement: first fight or evade each monster here ({names}):"
            if not rules.destinations(state):
                return "Your movement: no movement points left:" if state.points <= 0 else \
                    "Your movement: no area can be reached from here:"
            return "Your movement: click a highlighted area (its cost in movement points is shown), or"
        if now in ("place", "return"):
            return "Click a highlighted area to come back to Arkham"
        return "Your choice:"

    def pick_command(self, state: object, seat: object, place: str) -> tuple | None:
        """A click: Place after Lost in Time and Space (AH-C5), Return through a gate (AH-11), else Move;
        while a path is being built, a waypoint (None: nothing to send yet)."""
        now = rules.phase(state) if state is not None else ""
        if self._planning(state, seat):
            self._add_waypoint(state, place)
            return None
        name = self.names.get(place, place)
        if now == "place":
            return "Place", {"area": place}, f"Place in {name}"
        if now == "return":
            return "Return", {"location": place}, f"Return through the gate at {name}"
        return "Move", {"to": place}, f"Move to {name}"

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
        if not self._planning(state, seat):
            return [("Build a path", "start")]
        out = []
        if self.steps:
            cost = len(self.steps)
            out.append((f"Confirm path ({cost} point{'' if cost == 1 else 's'})", "confirm"))
            out.append(("Undo last step", "undo"))
        out.append(("Cancel path", "cancel"))
        return out

    def path_action(self, state: object, seat: object, key: str) -> tuple | None:
        """A path button: None, or the command to send (kind, data, label) once the path is confirmed."""
        if key == "start" and self._may_walk(state, seat):
            inv = rules.active(state)
            self.building, self.steps, self.building_from = True, [], (inv.seat, inv.where, state.points)
        elif key == "undo" and self.steps:
            self.steps.pop()
        elif key == "cancel":
            self.building, self.steps = False, []
        elif key == "confirm" and self._planning(state, seat) and self.steps:
            steps = list(self.steps)
            self.building, self.steps = False, []
            label = "Move along " + " → ".join(self.names.get(place, place) for place in steps)
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

    def _label(self, state: object, command: object) -> str:
        kind = command.TYPE
        if kind in ("Evade", "Fight"):
            found = rules.monster(state, command.monster)
            if found is None:
                return f"{kind} {command.monster}"
            name = found.name
            if kind == "Fight" and state.combat:
                return f"Fight {name} (Combat check: {check_dice(state, 'combat', found)})"
            if kind == "Fight":
                return f"Fight {name} (Horror check first: {check_dice(state, 'horror', found)})"
            if found.elusive:
                return f"Evade {name} (Elusive: no roll, AH-C6)"
            return f"Evade {name} ({check_dice(state, 'evade', found)})"
        if kind == "Stop":
            return "End movement here"
        if kind == "TakeClues":
            return f"Take {command.count} Clue token{'' if command.count == 1 else 's'}"
        if kind == "Flee":
            found = rules.monster(state, state.combat)
            return f"Flee (Evade check: {check_dice(state, 'flee', found)})" if found is not None else "Flee (Evade check)"
        if kind == "SpendClue":
            return "Spend a Clue token: one more die"
        if kind == "AcceptRoll":
            return "Accept the failed roll"
        if kind == "OfferTrade":
            partner = state.investigators[rules.seat_index(state, command.partner)].name
            if command.give:
                return f"Give {', '.join(command.give)} to {partner}"
            return f"Ask {partner} for {', '.join(command.take)}"
        if kind == "AnswerTrade":
            offer = state.offer
            return f"{'Accept' if command.accept else 'Decline'} {offer.seat}'s trade"
        return kind

    def describe(self, event: object) -> str:
        kind = event.TYPE
        n = self.names.get
        if kind == "GameStarted":
            return f"game started: {', '.join(event.seats)} (seed {event.seed}, rules {event.rules_version})"
        if kind == "MovementBegan":
            return f"{event.seat}'s movement begins in {n(event.area, event.area)}: {event.points} movement points"
        if kind == "StoodUp":
            return f"{event.seat} stands up (delayed: no movement)"
        if kind == "InvestigatorMoved":
            route = " → ".join(n(place, place) for place in event.path)
            stop = f" (stopped short of {n(event.aim, event.aim)}: monsters)" if event.to != event.aim else ""
            return f"{event.seat} walks {n(event.start, event.start)} → {route}, {event.points_left} points left{stop}"
        if kind == "MovedInOtherWorld":
            return f"{event.seat} moves on to {n(event.to, event.to)}"
        if kind == "GateChoiceOffered":
            return f"{event.seat} may return through the gate at " + " or ".join(n(g, g) for g in event.gates)
        if kind == "ReturnedThroughGate":
            return f"{event.seat} returns through the gate at {n(event.location, event.location)} (Explored)"
        if kind == "MonstersIgnored":
            return f"{event.seat} need not face {', '.join(event.monsters)} at the gate"
        if kind == "LostInTimeAndSpace":
            return f"{event.seat} is Lost in Time and Space (delayed)"
        if kind == "PlacementOffered":
            return f"{event.seat} chooses where to come back to Arkham"
        if kind == "PlacedInArkham":
            return f"{event.seat} comes back in {n(event.area, event.area)}"
        if kind == "MonsterEvaded":
            return f"{event.seat} evades {event.monster}"
        if kind == "CheckRolled":
            name = CHECKS.get(event.check, event.check)
            if event.dice <= 0:
                return f"{event.seat}: {name} check with {event.dice} dice fails without a roll"
            rolls = " ".join(str(value) for value in event.rolls)
            verdict = "passed" if event.passed else "failed"
            return (f"{event.seat}: {name} check vs {event.monster}, {event.dice} dice [{rolls}] → "
                    f"{event.successes} success{'' if event.successes == 1 else 'es'} of {event.difficulty}: {verdict}")
        if kind == "ClueSpendOffered":
            return f"{event.seat} may spend Clue tokens on the failed {CHECKS.get(event.check, event.check)} check"
        if kind == "ClueSpent":
            return f"{event.seat} spends a Clue token: rolls {event.roll}, {event.successes} of {event.difficulty}"
        if kind == "RollAccepted":
            return f"{event.seat} accepts the failed roll"
        if kind == "StatLost":
            return f"{event.seat} loses {event.amount} {event.stat.title()} ({event.left} left)"
        if kind == "CombatBegan":
            return f"{event.seat} is in combat with {event.monster} ({event.cause}): movement over"
        if kind == "MonsterDefeated":
            return f"{event.seat} defeats {event.name}: a trophy"
        if kind == "CombatEnded":
            return f"the combat with {event.monster} ends: {event.outcome}"
        if kind == "KnockedOut":
            return f"{event.seat} is {event.condition}: to {n(event.to, event.to)}, loses {event.clues_lost} Clue tokens"
        if kind == "Devoured":
            return f"{event.seat} is devoured"
        if kind == "MovementEnded":
            more = f"; {event.clues} Clue tokens here" if event.clues else ""
            return f"{event.seat} ends its movement in {n(event.area, event.area)}{more}"
        if kind == "CluesTaken":
            return f"{event.seat} takes {event.count} Clue token{'' if event.count == 1 else 's'} ({event.left} left)"
        if kind == "TradeOffered":
            return f"{event.seat} offers {event.partner}: gives {list(event.give)}, takes {list(event.take)}"
        if kind == "TradeAnswered":
            return f"{event.partner} {'accepts' if event.accepted else 'declines'} {event.seat}'s trade"
        if kind == "TurnEnded":
            return f"{event.seat}'s movement is over; {event.next_seat} moves (round {event.round})"
        if kind == "GameEnded":
            return f"game over: {event.reason}"
        return kind

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if state is None:
            return
        if self.board is not state.board:
            self._build(state)
        self.interactive = interactive
        self.on_pick = on_pick
        planning = self._planning(state, seat)
        hints = self._path_hints(state) if planning else self.hints(state, seat)
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
            text = place.label + (f" · reachable for {cost} movement points" if dest and cost is not None else "")
            set_text(place.title, text)
        self._draw_pieces(state)
        if planning:
            self._draw_plan(state)
        else:
            self._draw_route(envelopes)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes))

    def _build(self, state: object) -> None:
        board = state.board
        self.board = board
        self.centres = {area.id: area.at for area in board.areas}
        self.names = {area.id: area.name for area in board.areas}
        xs = [x for x, _ in self.centres.values()]
        ys = [y for _, y in self.centres.values()]
        box = f"{min(xs) - 90} {min(ys) - 60} {max(xs) - min(xs) + 180} {max(ys) - min(ys) + 120}"
        root = svg("svg", "board arkham", (("viewBox", box), ("role", "img"), ("data-board", board.name)))
        add(root, svg("title", None, (), board.name))
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
                add(line, svg("title", None, (), "unverified line (one source only)"))
            add(lines, line)
        add(root, lines)
        for world in board.worlds:
            (x1, y1), (x2, y2) = self.centres[world.areas[0]], self.centres[world.areas[1]]
            card = svg("g", "world-card", (("data-world", world.id),))
            add(card, svg("rect", "card", (("x", x1 - 60), ("y", y1 - 42), ("width", x2 - x1 + 120), ("height", 88),
                                            ("rx", "8"), ("fill", "#efeaf8"), ("stroke", "#7a6aa8"))),
                svg("text", "world-name", (("x", (x1 + x2) // 2), ("y", y1 - 27), ("text-anchor", "middle"),
                                           ("font-size", "13"), ("font-weight", "bold")), world.name))
            add(root, card)
        self.areas = {}
        for area in board.areas:
            add(root, self._build_area(area))
        self.route = svg("polyline", "route", (("points", ""), ("fill", "none"), ("stroke", "#c0392b"),
                                               ("stroke-width", "3"), ("stroke-dasharray", "6 4")))
        add(root, self.route)
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
        if area.unstable:
            add(group, svg("polygon", "unstable", (("points", f"{x},{y - 44} {x + 8},{y - 34} {x},{y - 24} "
                                                              f"{x - 8},{y - 34}"), ("fill", "#7a2bb5")),
                           ))
        label = area.name if area.kind != "other_world" else ("1" if area.order == 1 else "2")
        words = wrap(label.replace(" (Administration Building)", ""), 13)[:2]
        for i, word in enumerate(words):
            add(group, svg("text", "area-name", (("x", x), ("y", y - 4 + i * 12 - (6 if len(words) > 1 else 0)),
                                                 ("text-anchor", "middle"), ("font-size", "11")), word))
        cost = svg("text", "cost", (("x", x), ("y", y + 14), ("text-anchor", "middle"), ("font-size", "15"),
                                    ("font-weight", "bold"), ("fill", "#8a5a00")))
        add(group, cost)
        kind = {"street": "Street", "location": "Location", "other_world": "Other World area", "special": ""}[area.kind]
        text = f"{area.name}" + (f" ({kind})" if kind else "") + (" · unstable" if area.unstable else "")
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
                svg("title", None, (), f"open gate to {self.names.get(world, world)}"))
            add(layer, gate)
        for area_id, count in state.clues:
            x, y = slot(area_id)
            token = svg("g", "clue", (("data-area", area_id), ("data-count", count)))
            add(token, svg("circle", None, (("cx", x), ("cy", y), ("r", "9"), ("fill", "#2f9e44"), ("stroke", "#fff"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), count),
                svg("title", None, (), f"{count} Clue token{'' if count == 1 else 's'}"))
            add(layer, token)
        for monster in state.monsters:
            x, y = slot(monster.area)
            flags = [flag for flag, on in (("Elusive", monster.elusive), ("Ambush", monster.ambush)) if on]
            flags += [f"{name} {value}" for name, value in (("Nightmarish", monster.nightmarish),
                                                           ("Overwhelming", monster.overwhelming)) if value]
            node = svg("g", "monster", (("data-monster", monster.id), ("data-at", monster.area)))
            add(node, svg("rect", None, (("x", x - 9), ("y", y - 9), ("width", "18"), ("height", "18"),
                                         ("fill", "#5b1a1a"), ("stroke", "#fff"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), monster.name[:1]),
                svg("title", None, (), f"{monster.name}: awareness {monster.awareness:+d}, horror "
                    f"{monster.horror_rating:+d}/{monster.horror_damage}, combat {monster.combat_rating:+d}/"
                    f"{monster.combat_damage}, toughness {monster.toughness}" + (f" ({', '.join(flags)})" if flags else "")))
            add(layer, node)
        for index, inv in enumerate(state.investigators):
            if inv.devoured:
                continue
            x, y = slot(inv.where)
            node = svg("g", "investigator", (("data-seat", inv.seat), ("data-at", inv.where)))
            ring = "#000" if index == state.active and not state.over else "#fff"
            add(node, svg("circle", None, (("cx", x), ("cy", y), ("r", "11"), ("fill", seat_colour(state, inv.seat)),
                                           ("stroke", ring), ("stroke-width", "2.5"))),
                svg("text", None, (("x", x), ("y", y + 4), ("text-anchor", "middle"), ("font-size", "11"),
                                   ("fill", "#fff")), inv.seat[:1].upper()),
                svg("title", None, (), f"{inv.seat}: {inv.name}" + (" (delayed)" if inv.delayed else "")))
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
        names = " → ".join(self.names.get(place, place) for place in [start] + self.steps)
        over = cost > state.points
        text = (f"Path: {names}: {cost} of {state.points} movement points" + (" (too many)" if over else "")
                if self.steps else "Path: click the areas to walk through, in order")
        return el("p", text, "path-plan", (("id", "path-plan"), ("data-steps", cost), ("data-over", "1" if over else "0")))

    def _draw_route(self, envelopes: list) -> None:
        self.route.setAttribute("data-building", "0")
        for envelope in reversed(envelopes):
            event = envelope.event
            if event.TYPE == "InvestigatorMoved":
                points = [self.centres[event.start]] + [self.centres[place] for place in event.path]
                show_route(self.route, points, event.path)
                return
            if event.TYPE == "TurnEnded":
                break
        self.route.setAttribute("visibility", "hidden")

    def _info(self, state: object, envelopes: list) -> list:
        nodes = [el("h2", state.title, "game-title")]
        if state.over:
            nodes.append(el("p", "Game over", "turn over"))
        else:
            mover = rules.active(state)
            line = el("p", None, "turn")
            add(line, el("span", "Movement phase "), el("b", f"{min(state.round, state.rounds)} / {state.rounds}"),
                el("span", " · moving: "), swatch(seat_colour(state, mover.seat)),
                el("b", f" {mover.seat} ({mover.name})", "turn-seat"),
                el("span", f" · {state.points} movement points left", "points"))
            nodes.append(line)
            nodes.append(el("p", self._prompt(state), "prompt", (("data-phase", rules.phase(state)),)))
            if self.building:
                nodes.append(self._plan_line(state))
        nodes.append(self._dice(state, envelopes))
        table = el("table", None, "seats")
        head = el("tr")
        for title in ("seat", "investigator", "in", "Spd", "Snk", "Fgt", "Wil", "Sta", "San", "clues", "items",
                      "trophies"):
            add(head, el("th", title))
        add(table, head)
        for inv in state.investigators:
            row = el("tr", None, "seat-row", (("data-seat", inv.seat),))
            where = "devoured" if inv.devoured else self.names.get(inv.where, inv.where)
            if inv.delayed:
                where += " (delayed)"
            if inv.explored:
                where += " · Explored"
            add(row, add(el("td"), swatch(seat_colour(state, inv.seat)), el("span", f" {inv.seat}")),
                el("td", inv.name), el("td", where, "where"), el("td", inv.speed), el("td", inv.sneak),
                el("td", inv.fight), el("td", inv.will), el("td", inv.stamina, "stamina"),
                el("td", inv.sanity, "sanity"), el("td", inv.clues, "clues"),
                el("td", ", ".join(inv.items) or "—", "items"),
                el("td", ", ".join(name for _id, name in inv.trophies) or "—", "trophies"))
            add(table, row)
        nodes.append(table)
        lost = [inv.seat for inv in state.investigators if inv.where == rules.LOST]
        nodes.append(el("p", "Lost in Time and Space: " + (", ".join(lost) if lost else "nobody"), "lost-box"))
        return nodes

    def _prompt(self, state: object) -> str:
        now = rules.phase(state)
        mover = rules.active(state)
        if now == "trade":
            return f"{state.offer.partner} is asked about {state.offer.seat}'s trade offer (AH-C10)"
        if now == "spend":
            return f"{mover.seat}: spend a Clue token on the failed roll, or accept it (AH-C1)"
        if now == "combat":
            found = rules.monster(state, state.combat)
            name = found.name if found is not None else state.combat
            return f"{mover.seat} is in combat with {name}: fight or flee (AH-C3)"
        if now == "clues":
            return f"{mover.seat}: take 0 to {rules.clues_at(state, mover.where)} Clue tokens (AH-5)"
        if now == "return":
            return f"{mover.seat}: click the gate to return through (AH-11)"
        if now == "place":
            return f"{mover.seat}: click the Street or Location to come back to (AH-C5)"
        facing = rules.undealt(state)
        if facing:
            names = ", ".join(item.name for item in facing)
            return f"{mover.seat} must fight or evade each monster here, in any order: {names} (AH-7)"
        if state.points <= 0:
            return f"{mover.seat}: no movement points left: end the movement (AH-2)"
        return f"{mover.seat}: click a highlighted area (cost shown) or end the movement (AH-2)"

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
        add(box, el("span", "no roll yet this movement", "no-roll"))
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
        add(box, el("b", f"{CHECKS.get(name, name)} check: ", "check-name"))
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
        summary = "no dice: fails without a roll" if not rolls else (
            f"{successes} success{'' if successes == 1 else 'es'} (on {face}+) of {difficulty} needed: "
            f"{'passed' if passed else 'failed'}")
        add(box, el("span", summary, "dice-summary", (("data-passed", "1" if passed else "0"),
                                                      ("data-successes", successes))))

"""Rule questions answered on the board of the replay page (issue 18, docs/disputes.md).

"Ask the rules" lists the questions the game has, the same set as ``chronicle ask <game>``, and
answers them on the position the board shows (any seq, or a what-if branch of the dispute panel),
in the browser and from the same pure core functions as the CLI (``events.games.<game>.questions``
and the rules' own ``sight``, ``reach``, ``destinations``): nothing is sent to the server.

The answer is drawn over the renderer's board: CSS classes on its own squares, areas, hexes and
figures (``ask-reach``, ``ask-path``, ``ask-los``, ``ask-focus``, ``ask-dest``, ``ask-pick``) and one
layer of lines and costs (``#ask-layer``), with a legend and the answer in words beside it. While a
question waits for a click on the board, the click is the question's, not a move.
"""

from __future__ import annotations

from client.dom import add, byid, clear, el, listen, set_text, svg
from client.i18n import message, say, seat_name, t

QUESTIONS = {  # per game, as ``chronicle ask <game>`` lists them
    "arkham": ("path", "reachable"),
    "echo": ("dice",),
    "gloomhaven": ("monster-turn",),
    "mecha": ("destinations",),
    "skirmish": ("path", "reachable", "los"),
}
CLASSES = ("ask-reach", "ask-path", "ask-los", "ask-focus", "ask-dest", "ask-pick")
ECHO_CHECKS = (("stealth", "stealth", "evasion", "EC-4"), ("attention", "attention", "attention", "EC-7"),
               ("order-stealth", "stealth", "attention", "EC-8"))


class Questions:
    """The "Ask the rules" box of a ``ReplayPage`` (``page``): one question at a time."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.kind = None  # the question being answered
        self.picks: list = []  # what the reader clicked for it so far
        self.marked: list = []  # the board's nodes this answer classed
        self.hooked = False

    # --- the box -----------------------------------------------------------------------------------

    def build(self) -> None:
        """Put the box on the page, below the board (once the game is known)."""
        kinds = QUESTIONS.get(self.page.game.name, ())
        if not kinds or byid("ask") is not None:
            return
        box = el("section", None, "ask", (("id", "ask"), ("aria-labelledby", "ask-title")))
        add(box, el("h2", t("ask.title"), None, (("id", "ask-title"),)))
        row = el("div", None, "controls")
        add(row, el("label", t("ask.question"), None, (("for", "ask-question"),)))
        select = el("select", None, "ask-question", (("id", "ask-question"),))
        for kind in kinds:
            add(select, el("option", t("ask.q_" + kind.replace("-", "_")), None, (("value", kind),)))
        ask = el("button", t("ask.ask"), "ask-start", (("type", "button"), ("id", "ask-start")))
        listen(ask, "click", lambda e: self.start(str(select.value)))
        done = el("button", t("ask.clear"), "ask-clear", (("type", "button"), ("id", "ask-clear")))
        listen(done, "click", lambda e: self.reset())
        add(row, select, ask, done)
        add(box, row, el("p", None, "ask-prompt", (("id", "ask-prompt"), ("role", "status"))),
            el("div", None, "ask-answer", (("id", "ask-answer"),)), el("p", None, "ask-legend", (("id", "ask-legend"),)))
        legend = byid("legend")
        legend.parentNode.insertBefore(box, legend)
        if not self.hooked:  # clicks on the board while a question waits for them are the question's
            byid("board").addEventListener("click", self.clicked, True)
            self.hooked = True

    def state(self) -> object:
        """The position shown: the what-if branch's, else the replay's at its seq."""
        branch = getattr(self.page.dispute, "branch", None)
        return branch.state if branch is not None else self.page.states[self.page.seq - 1]

    def rules_version(self) -> str:
        """The rules version of the position shown (the what-if branch's, else the replay's at its
        seq): a game's answers are its own version's (README "Rules versions")."""
        branch = getattr(self.page.dispute, "branch", None)
        game = branch.game if branch is not None else self.page.versions[self.page.seq - 1]
        return game.rules_version

    def reset(self) -> None:
        """No question: the board as the renderer drew it, the box empty."""
        self.kind = None
        self.picks = []
        self.unmark()
        if byid("ask") is None:
            return
        for name in ("ask-prompt", "ask-legend"):
            set_text(byid(name), "")
        clear(byid("ask-answer"))
        byid("ask").removeAttribute("data-kind")

    def unmark(self) -> None:
        for node, cls in self.marked:
            node.classList.remove(cls)
            node.removeAttribute("data-ask-cost")
        self.marked = []
        layer = byid("ask-layer")
        if layer is not None:
            layer.remove()

    def start(self, kind: str) -> None:
        self.reset()
        self.kind = kind
        byid("ask").setAttribute("data-kind", kind)
        if kind == "monster-turn":
            acting = getattr(self.state(), "acting", None)
            if acting is not None and self.page.game.name == "gloomhaven":
                from events.games.gloomhaven.questions import monsters
                if acting in monsters(self.state()):
                    self.picks = [acting]
                    self.answer()
                    return
        if kind == "dice":
            self.echo_form()
            return
        self.prompt()

    def prompt(self) -> None:
        game = self.page.game.name
        first = {"path": "ask.pick_from_figure" if game == "skirmish" else "ask.pick_from_area",
                 "reachable": "ask.pick_figure" if game == "skirmish" else "ask.pick_investigator",
                 "los": "ask.pick_square", "monster-turn": "ask.pick_monster", "destinations": "ask.pick_mech"}
        if not self.picks:
            key = first[self.kind]
        elif self.kind == "los":
            key = "ask.pick_target" if len(self.picks) == 1 else "ask.pick_again"
        elif self.kind == "path":
            key = "ask.pick_to" if len(self.picks) == 1 else "ask.pick_more" if game == "skirmish" else "ask.pick_again"
        else:
            key = "ask.pick_again"
        set_text(byid("ask-prompt"), t(key))

    # --- clicks ------------------------------------------------------------------------------------

    def clicked(self, event: object) -> None:
        if self.kind is None or self.kind == "dice":
            return
        place = self.place_of(event.target)
        if place is None:
            return
        event.stopPropagation()
        event.preventDefault()
        if self.kind in ("reachable", "monster-turn", "destinations") or (self.kind == "los" and len(self.picks) >= 2):
            self.picks = []
        if self.kind == "path" and self.page.game.name == "arkham" and len(self.picks) >= 2:
            self.picks = []
        self.picks.append(place)
        self.answer()

    def place_of(self, target: object) -> object:
        """What a click on the board picks for the question: a square, an area, a figure, a seat."""
        game, state = self.page.game.name, self.state()
        if game == "skirmish":
            from events.games.skirmish.rules import figure
            node = closest(target, "[data-figure]")
            if node is not None:
                item = figure(state, node.getAttribute("data-figure"))
                if item is not None and item.at is not None:
                    return item.at
            node = closest(target, "[data-square]")
            return None if node is None else (int(node.getAttribute("data-x")), int(node.getAttribute("data-y")))
        if game == "arkham":
            node = closest(target, "[data-seat]")
            if node is not None and self.kind == "reachable":
                return ("seat", node.getAttribute("data-seat"))
            node = closest(target, "[data-area],[data-at]")
            if node is None:
                return None
            return node.getAttribute("data-area") or node.getAttribute("data-at")
        if game == "gloomhaven":
            node = closest(target, "[data-figure]")
            return None if node is None else node.getAttribute("data-figure")
        if game == "mecha":  # a Mecha, or the Location it stands on (the Mechas let clicks through)
            node = closest(target, "[data-seat]")
            if node is not None:
                return node.getAttribute("data-seat")
            node = closest(target, "g.loc[data-number]")
            number = None if node is None else int(node.getAttribute("data-number"))
            for index, place in enumerate(state.positions):
                if number is not None and place == number:
                    return state.seats[index].seat
            return None
        return None

    # --- answers -----------------------------------------------------------------------------------

    def answer(self) -> None:
        self.unmark()
        box = clear(byid("ask-answer"))
        lines = getattr(self, "answer_" + self.page.game.name)(self.state())
        for line in lines:
            add(box, line if not isinstance(line, str) else el("p", line))
        self.prompt()

    def mark(self, node: object, cls: str, cost: object = None) -> None:
        if node is None:
            return
        node.classList.add(cls)
        if cost is not None:
            node.setAttribute("data-ask-cost", str(cost))
        self.marked.append((node, cls))

    def layer(self) -> object:
        """The answer's layer of lines and costs, on top of the renderer's board."""
        found = byid("ask-layer")
        if found is not None:
            return found
        root = byid("board").querySelector("svg")
        layer = svg("g", "ask-layer", (("id", "ask-layer"), ("pointer-events", "none")))
        add(root, layer)
        return layer

    def line(self, points: list, cls: str, attrs: tuple = ()) -> object:
        text = " ".join(f"{x},{y}" for x, y in points)
        node = svg("polyline", cls, (("points", text), ("fill", "none")) + attrs)
        add(self.layer(), node)
        return node

    def cost(self, point: tuple, value: object) -> None:
        add(self.layer(), svg("text", "ask-cost", (("x", point[0]), ("y", point[1] + 5), ("text-anchor", "middle")), value))

    def legend(self, *classes: str) -> None:
        node = clear(byid("ask-legend"))
        for cls in classes:
            add(node, el("span", t("ask.legend_" + cls[4:]), "ask-key " + cls))

    # skirmish: path, reachable, line of sight (SK-C2, SK-C3) ---------------------------------------

    def answer_skirmish(self, state: object) -> list:
        from client.boards.skirmish import _centre
        from events.games.skirmish.questions import judge_path, reachable
        from events.games.skirmish.rules import edge_label, occupant, sight
        from events.games.skirmish.words import screen
        from events.geometry.squares import square_name

        view = self.page.view

        def node(square: tuple) -> object:
            return byid("board").querySelector(f'[data-square="{square_name(square)}"]')

        if self.kind == "los":
            self.mark(node(self.picks[0]), "ask-pick")
            if len(self.picks) < 2:
                return []
            start, goal = self.picks[0], self.picks[1]
            self.mark(node(goal), "ask-los")
            seen, edge, cover, corner, screens = sight(state, start, goal)
            kind = "blocked" if not seen else "cover" if cover else "clear"
            self.line([_centre(start), _centre(goal)], "ask-line " + kind,
                      (("id", "ask-line"), ("data-los", "1" if seen else "0"), ("data-cover", "1" if cover else "0")))
            self.legend("ask-pick", "ask-los")
            words = [t("ask.los_" + kind, start=square_name(start), goal=square_name(goal))]
            if edge is not None:
                words.append(t("ask.los_blocking", edge=say(screen(state, edge_label(state, edge)))))
            if cover:  # the walls, doors, figures and low objects in the reader's words, as the log's trace
                words.append(t("ask.los_screens", screens="; ".join(say(screen(state, str(item))) for item in screens)))
            words.append(t("ask.clause", rule="SK-C3"))
            return words
        item = occupant(state, self.picks[0])
        if item is None:
            square, self.picks = self.picks[0], []
            return [t("ask.no_figure", square=square_name(square))]
        name = view.name(item)
        self.mark(node(item.at), "ask-pick")
        options = reachable(state, item)
        if self.kind == "reachable":
            for square, (cost, _path) in options.items():
                self.mark(node(square), "ask-reach", cost)
                self.cost(_centre(square), cost)
            self.legend("ask-pick", "ask-reach")
            return [t("ask.sk_reachable", figure=name, n=len(options), speed=item.speed), t("ask.clause", rule="SK-C2")]
        # path: the squares clicked after the figure are waypoints, each leg the cheapest way there
        if len(self.picks) < 2:
            self.legend("ask-pick")
            return []
        from events.games.skirmish.rules import path_leg
        path: list = []
        here = item.at
        for waypoint in self.picks[1:]:
            path.extend(path_leg(state, item, here, waypoint))
            here = waypoint
        if not path:
            self.picks = self.picks[:1]
            return [t("ask.sk_path_empty", figure=name)]
        for square in path:
            self.mark(node(square), "ask-path")
        self.line([_centre(square) for square in [item.at] + path], "ask-route", (("id", "ask-route"),))
        cost, refusal = judge_path(state, item, tuple(path))
        self.legend("ask-pick", "ask-path")
        route = " → ".join(square_name(square) for square in [item.at] + path)
        byid("ask-answer").setAttribute("data-legal", "1" if refusal is None else "0")
        if refusal is None:
            return [t("ask.sk_path_legal", figure=name, route=route, n=cost), t("ask.clause", rule="SK-C2")]
        return [t("ask.sk_path_illegal", figure=name, route=route),
                el("p", reason_text(self.page.game.name, refusal), "bad", (("data-rule", refusal.rule),)),
                t("ask.clause", rule=refusal.rule)]

    # arkham: path, reachable (AH-2, AH-3, AH-7) -----------------------------------------------------

    def answer_arkham(self, state: object) -> list:
        from events.games.arkham import board as boards
        from events.games.arkham.questions import cheapest_route, monsters_on, not_walkable
        from events.games.arkham.rules import edition, reach, seat_index

        view = self.page.view

        def node(area_id: str) -> object:
            return byid("board").querySelector(f'g.area[data-area="{area_id}"]')

        def at(area_id: str) -> tuple:
            return boards.area(state.board, area_id).at

        if self.kind == "reachable":
            pick = self.picks[0]
            if isinstance(pick, tuple):
                index = seat_index(state, pick[1])
            else:
                index = next((i for i, inv in enumerate(state.investigators) if inv.where == pick), -1)
            if index < 0:
                self.picks = []
                return [t("ask.no_investigator", area=view.area(pick))]
            inv = state.investigators[index]
            self.mark(node(inv.where), "ask-pick")
            found = reach(state, index, edition(self.rules_version()))
            for place, (cost, _route, _rule) in found.items():
                self.mark(node(place), "ask-reach", cost)
                if boards.area(state.board, place) is not None:
                    self.cost(at(place), cost)
            self.legend("ask-pick", "ask-reach")
            rules_used = sorted({rule for _cost, _route, rule in found.values()})
            return [t("ask.ah_reachable", seat=seat_name(inv.seat), n=len(found)),
                    t("ask.clause", rule=", ".join(rules_used) or "AH-2")]
        for place in self.picks:
            clause = not_walkable(state, place)
            if clause:
                self.picks = []
                return [t("ask.ah_not_walkable", area=view.area(place), rule=clause)]
        self.mark(node(self.picks[0]), "ask-pick")
        if len(self.picks) < 2:
            self.legend("ask-pick")
            return []
        start, goal = self.picks[0], self.picks[1]
        route = cheapest_route(state, start, goal)
        self.legend("ask-pick", "ask-path")
        if route is None:
            return [t("ask.ah_no_route", start=view.area(start), goal=view.area(goal)), t("ask.clause", rule="AH-3")]
        for place in route[1:]:
            self.mark(node(place), "ask-path")
        self.line([at(place) for place in route], "ask-route", (("id", "ask-route"),))
        words = [t("ask.ah_path", route=" → ".join(view.area(place) for place in route), n=len(route) - 1)]
        for place, ids in monsters_on(state, route):
            words.append(t("ask.ah_monsters", area=view.area(place),
                           monsters=", ".join(view.monster_name(item) for item in ids)))
        words.append(t("ask.clause", rule="AH-3, AH-7"))
        return words

    # gloomhaven: a monster's turn (GH-6, GH-7, GH-C8, GH-C9) ----------------------------------------

    def answer_gloomhaven(self, state: object) -> list:
        from client.boards.gloomhaven import hex_name
        from events.games.gloomhaven.model import MonsterTurnPlanned
        from events.games.gloomhaven.questions import monster_plan

        view = self.page.view
        acting = self.picks[0]
        plan, problem = monster_plan(state, acting, self.rules_version())  # the game's own rules (GH-C11)
        if problem:
            self.picks = []
            return [t("ask.gh_" + problem.replace("-", "_"), figure=view.fig(acting, state))]
        board = byid("board")
        self.mark(board.querySelector(f'[data-figure="{acting}"]'), "ask-pick")
        for figure_id in plan.focus:
            self.mark(board.querySelector(f'[data-figure="{figure_id}"]'), "ask-focus")
        for option in plan.options:
            for hex in option.path[:-1]:
                self.mark(board.querySelector(f'[data-hex="{hex[0]},{hex[1]}"]'), "ask-path")
            self.mark(board.querySelector(f'[data-hex="{option.destination[0]},{option.destination[1]}"]'), "ask-dest")
        self.legend("ask-pick", "ask-focus", "ask-dest", "ask-path")
        focus = ", ".join(view.fig(item, state) for item in plan.focus)
        words = [t("ask.gh_focus", figure=view.fig(acting, state), focus=focus) if plan.focus
                 else t("ask.gh_no_focus", figure=view.fig(acting, state))]
        words.append(t("ask.gh_options", n=len(plan.options),
                       hexes=", ".join(hex_name(option.destination) for option in plan.options)))
        planned = MonsterTurnPlanned(acting, plan.focus, plan.candidates, plan.decided_by, plan.options, "GH-6",
                                     plan.destinations)
        words.append(view.plan_trace(state, planned))
        return words

    # mecha: destinations (MV-1 to MV-6) --------------------------------------------------------------

    def answer_mecha(self, state: object) -> list:
        from events.games.mecha.rules import destinations, seat_index

        index = seat_index(state, self.picks[0])
        if index < 0:
            self.picks = []
            return []
        board = byid("board")
        self.mark(board.querySelector(f'g.mech[data-seat="{self.picks[0]}"]'), "ask-pick")
        options = destinations(state, index)
        for place, path in options.items():
            self.mark(board.querySelector(f'g.loc[data-number="{place}"]'), "ask-reach", len(path))
        self.legend("ask-pick", "ask-reach")
        return [t("ask.mv_destinations", seat=seat_name(self.picks[0]), n=len(options)),
                t("ask.clause", rule="MV-1" if options else "MV-5")]

    # echo: the dice of a check (EC-4, EC-7, EC-8, EC-10) ---------------------------------------------

    def echo_form(self) -> None:
        from events.games.echo.words import name

        state = self.state()
        box = clear(byid("ask-answer"))
        form = el("div", None, "controls ask-echo")
        who = el("select", None, None, (("id", "ask-investigator"), ("aria-label", t("ask.echo_investigator"))))
        for inv in state.investigators:
            add(who, el("option", seat_name(inv.seat), None, (("value", inv.id),)))
        what = el("select", None, None, (("id", "ask-check"), ("aria-label", t("ask.echo_check"))))
        for key, _skill, _penalty, _rule in ECHO_CHECKS:
            for enemy in state.enemies:
                add(what, el("option", t("ask.echo_" + key.replace("-", "_"), enemy=say(name(state, enemy.id))), None,
                             (("value", f"{key}|{enemy.id}"),)))
        for spell in state.cards.spells:
            add(what, el("option", t("ask.echo_spell", spell=say(name(state, spell.id))), None,
                         (("value", f"spell|{spell.id}"),)))
        go = el("button", t("ask.ask"), None, (("type", "button"), ("id", "ask-dice")))
        listen(go, "click", lambda e: self.echo_answer(str(who.value), str(what.value)))
        add(form, who, what, go)
        add(box, form, el("div", None, None, (("id", "ask-dice-answer"),)))
        set_text(byid("ask-prompt"), t("ask.pick_check"))

    def echo_answer(self, investigator: str, choice: str) -> None:
        from events.games.echo import board as boards
        from events.games.echo.dice import chance, dice_count

        state = self.state()
        inv = next(item for item in state.investigators if item.id == investigator)
        key, target = choice.split("|", 1)
        if key == "spell":
            spell = boards.spell(state.cards, target)
            skill = "knowledge" if spell.kind == "obvious" else "intuition"
            penalty, rule = spell.difficulty, "EC-10"
        else:
            found = next(row for row in ECHO_CHECKS if row[0] == key)
            skill, rule = found[1], found[3]
            enemy = next(item for item in state.enemies if item.id == target)
            penalty = getattr(boards.enemy_card(state.cards, enemy.card), found[2])
        count = dice_count(getattr(inv, skill), penalty)
        numerator, denominator = chance(count)
        tenths = (1000 * numerator + denominator // 2) // denominator
        box = clear(byid("ask-dice-answer"))
        box.setAttribute("data-dice", str(count))
        box.setAttribute("data-chance", f"{numerator}/{denominator}")
        if count:
            add(box, el("p", t("ask.echo_dice", n=count, skill=t("echo.skill_" + skill), value=getattr(inv, skill),
                                penalty=penalty, chance=f"{numerator}/{denominator}",
                                percent=f"{tenths // 10}.{tenths % 10}")))
        else:
            add(box, el("p", t("ask.echo_no_dice", skill=t("echo.skill_" + skill), value=getattr(inv, skill),
                                penalty=penalty)))
        add(box, el("p", t("ask.clause", rule=rule)))


def closest(node: object, selector: str) -> object:
    """The nearest ancestor-or-self matching ``selector``, or None (Brython raises KeyError for none)."""
    try:
        return node.closest(selector)
    except Exception:
        return None


def reason_text(game: str, refusal: object) -> str:
    """A refusal's fact in the reader's language (its catalogue message), else the English one."""
    from events.rules import message_data
    if refusal.key:
        try:
            return message(game, refusal.key, {name: message_data(value) for name, value in refusal.params})
        except Exception:  # a message the catalogue words differently: the English fact
            pass
    return refusal.reason

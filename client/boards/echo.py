"""The ``echo`` board: the map of Echo, investigators with skills and tracks, enemy cards, the fight.

Names (places, cards, enemies, investigators) are shown in the reader's language: the data has
Russian and English ones, ``client/i18n/names/echo.fr.json`` adds French where it can. The map is
built once per game (places, white arrows, the Dark Path, labels); each ``draw`` moves the figures,
marks the legal steps of the moving seat, and rebuilds the side panel: whose move it is, the
combat panel (the round's steps, who strikes first and why, the dice, the damage, and which seat
must act now: the enemy's dice are rolled from the page of the seat to the fighter's left, EC-13),
the investigators and the enemy cards. Everything is read from the folded state and the log; the
legal steps and the buttons come from the game's own ``legal``.
"""

from __future__ import annotations

from client.boards import svgkit
from client.boards.svgkit import View, pick_on_click, swatch, wrap_lines
from client.dom import add, clear, el, svg
from client.i18n import again, lang, local_name, say, seat_initials, seat_name, t
from events.games.echo.model import (
    CheckOrder,
    EndMove,
    Evade,
    Exchange,
    Fight,
    Move,
    Pass,
    RollAttack,
    Strike,
    Trade,
)
from events.games.echo.rules import card_of, investigator, legal, prompt, seat_index, turn
from events.games.echo.words import order_why

BOX_W = 150
BOX_H = 50
PALETTE = ("#d63c3c", "#3c6fd6", "#2f9e44", "#e0b000", "#8a4fd0", "#e8730c", "#159a9c", "#e05fa8")
SKILLS = ("speed", "stealth", "attention", "knowledge", "intuition")
STEPS = (("order", "EC-7"), ("first", "EC-9"), ("attack", "EC-13"), ("second", "EC-9"), ("after", "EC-5"))
KINDS = ("person", "undead", "artifact")
STATUS = ("active", "detained", "exchanged", "dead")
LINKS = ("arrow", "dark", "dark-side")


def seat_colour(state: object, seat: str) -> str:
    return svgkit.seat_colour(state, seat, seat_index, PALETTE)


def both(ru: str, en: str) -> str:
    """One name in the reader's language: Russian or English from the data, French from
    ``client/i18n/names/echo.fr.json`` (keyed by the English name), else English. Never both."""
    if lang() == "ru":
        return local_name("echo", "", ru)
    return local_name("echo", en, en)


class EchoView(View):
    """Draws one ``echo`` state into a board node (SVG inside) and an info node (HTML)."""

    BUILT_FROM = "map"

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        View.__init__(self, game, board_node, info_node)
        self.places: dict = {}
        self.figures: dict = {}
        self.foes: dict = {}
        self.centres: dict = {}
        self.kinds: dict = {}
        self.names: dict = {}  # id -> (ru, en): places, cards, enemies, seats' investigators

    # --- names -------------------------------------------------------------------------------------

    def learn(self, state: object) -> None:
        """Every id's Russian and English names, from a state (the map and cards never change)."""
        names = {}
        for place in state.map.locations:
            names[place.id] = (place.name_ru, place.name_en)
        for group in (state.cards.enemies, state.cards.spells, state.cards.items):
            for card in group:
                names[card.id] = (card.name_ru, card.name_en)
        for foe in state.enemies:
            names[foe.id] = names.get(foe.card, (foe.card, foe.card))
        for inv in state.investigators:
            names["seat:" + inv.seat] = (inv.name_ru, inv.name_en)
        self.names = names

    def name(self, key: object) -> str:
        pair = self.names.get(key)
        if not pair:
            return str(key)
        return both(pair[0], pair[1])

    def ru(self, key: object) -> str:
        return self.name(key)

    def who(self, seat: str) -> str:
        pair = self.names.get("seat:" + seat)
        return t("echo.who", seat=seat_name(seat), name=both(pair[0], pair[1])) if pair else seat_name(seat)

    # --- what the page asks -----------------------------------------------------------------------

    def hints(self, state: object, seat: object) -> dict:
        """Legal steps of the moving seat now -> True, from the game's own rules."""
        if state is None or seat is None or seat not in turn(state) or state.combat is not None:
            return {}
        return {cmd.to: True for cmd in legal(state, seat) if isinstance(cmd, Move)}

    def actions(self, state: object, seat: object) -> list:
        """One button per legal command of ``seat`` except steps (clicked on the map)."""
        if state is None or seat is None or seat not in turn(state):
            return []
        out = []
        for command in legal(state, seat):
            if isinstance(command, Move):
                continue
            data = command.to_data()
            kind = data.pop("type")
            out.append((self.label(state, seat, command), kind, data))
        return out

    def prompt_text(self, state: object, seat: str, current: object) -> str:
        """The line before the buttons (``client/pages/play.py`` asks): whose step, and why this seat."""
        waiting = prompt(state)
        if current != seat:
            if waiting is not None and waiting[0] == "attack":
                return t("echo.wait_attack", seat=seat_name(current), fighter=seat_name(waiting[2]))
            return t("play.waiting", seat=seat_name(current))
        if waiting is None:
            if not self.hints(state, seat):
                return t("echo.your_move")
            return t("echo.your_move_click")
        kind = waiting[0]
        if kind == "attack":
            return t("echo.you_roll", fighter=seat_name(waiting[2]))
        if kind == "order":
            return t("echo.prompt_order")
        if kind == "strike":
            return t("echo.prompt_strike")
        return t("echo.prompt_after")

    def label(self, state: object, seat: str, command: object) -> str:
        inv = investigator(state, seat)
        if isinstance(command, EndMove):
            return t("echo.end_move")
        if isinstance(command, Fight):
            return t("echo.fight")
        if isinstance(command, Evade):
            card = card_of(state, command.enemy)
            return t("echo.evade", enemy=self.name(command.enemy), n=max(0, inv.stealth - card.evasion))
        if isinstance(command, CheckOrder):
            value = getattr(inv, command.skill)
            return t("echo.check_order", skill=t("echo.skill_" + command.skill), value=value)
        if isinstance(command, Strike):
            return t("echo.strike", enemy=self.name(command.enemy), card=self.name(command.card))
        if isinstance(command, Pass):
            return t("echo.pass")
        if isinstance(command, RollAttack):
            waiting = prompt(state)
            card = card_of(state, waiting[3])
            return t("echo.roll_attack", enemy=self.name(waiting[3]), fighter=seat_name(waiting[2]), blue=card.blue,
                     red=card.red)
        if isinstance(command, Exchange):
            return t("echo.exchange", enemy=self.name(command.enemy))
        if isinstance(command, Trade):
            return t("echo.trade", item=self.name(command.item), to=seat_name(command.to))
        return command.TYPE

    def command_words(self, state: object, seat: object, command: object) -> str | None:
        if isinstance(command, Move):
            return t("play.move_to", place=self.name(command.to))
        words = self.label(state, seat, command)
        return None if words == command.TYPE else words

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if not self.begin_draw(state, interactive, on_pick):
            return
        hints = self.hints(state, seat)
        for lid, (group, _title, shown) in self.places.items():
            cls = "echo-loc " + self.kinds[lid] + (" dest" if lid in hints else "") + (
                " clickable" if interactive else "")
            if cls != shown[0]:
                group.setAttribute("class", cls)
                group.setAttribute("data-dest", "1" if lid in hints else "0")
                shown[0] = cls
        self._draw_figures(state)
        clear(self.info_node)
        add(self.info_node, *self._info(state, envelopes))

    def _build(self, state: object) -> None:
        self.learn(state)
        board = state.map
        self.kinds = {place.id: place.kind for place in board.locations}
        self.centres = {place.id: (place.x, place.y) for place in board.locations}
        xs = [x for x, _ in self.centres.values()]
        ys = [y for _, y in self.centres.values()]
        pad_x, pad_y = BOX_W // 2 + 20, BOX_H // 2 + 30
        box = f"{min(xs) - pad_x} {min(ys) - pad_y} {max(xs) - min(xs) + 2 * pad_x} {max(ys) - min(ys) + 2 * pad_y}"
        root = svg("svg", "board echo-map", (("viewBox", box), ("role", "img"), ("data-board", board.name_en)))
        add(root, svg("title", None, (), both(board.name_ru, board.name_en)))
        links = svg("g", "echo-links")
        for link in board.links:
            (x1, y1), (x2, y2) = self.centres[link.a], self.centres[link.b]
            ends = (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2))
            if link.kind == "arrow":
                add(links, svg("line", "echo-arrow-edge", ends), svg("line", "echo-arrow", ends,))
            else:
                add(links, svg("line", "echo-dark", ends))
        add(root, links)
        self.places = {}
        for place in board.locations:
            x, y = place.x, place.y
            group = svg("g", "echo-loc " + place.kind, (("data-id", place.id),))
            shown = self.name(place.id)
            title = svg("title", None, (), shown)
            add(group, title, svg("rect", "echo-box", (("x", x - BOX_W // 2), ("y", y - BOX_H // 2),
                                                       ("width", BOX_W), ("height", BOX_H), ("rx", 8))))
            lines = wrap_lines(shown, 22, 3) or [""]
            for i, line in enumerate(lines):
                add(group, svg("text", "echo-ru", (("x", x), ("y", y + 4 - 6 * (len(lines) - 1) + i * 12)), again(line)))
            pick_on_click(self, group, place.id)
            self.places[place.id] = (group, title, [""])
            add(root, group)
        self.foes = {}
        foes = svg("g", "echo-enemies")
        for number, foe in enumerate(state.enemies, 1):
            node = svg("g", "echo-enemy", (("data-enemy", foe.id),))
            # Numbered, not lettered: a letter read as a seat's initial ("В" looked like blue's "B").
            add(node, svg("title", None, (), t("echo.enemy_title", number=number, name=self.name(foe.id))),
                svg("polygon", "echo-enemy-body", (("points", "0,-11 11,0 0,11 -11,0"),)),
                svg("text", "echo-enemy-label", (("y", "4"),), str(number)))
            self.foes[foe.id] = (node, [None])
            add(foes, node)
        add(root, foes)
        self.figures = {}
        figures = svg("g", "echo-figures")
        for inv in state.investigators:
            node = svg("g", "echo-figure", (("data-seat", inv.seat),))
            add(node, svg("title", None, (), self.who(inv.seat)),
                svg("circle", "echo-figure-body", (("r", "11"), ("fill", seat_colour(state, inv.seat)))),
                svg("text", "echo-figure-label", (("y", "4"),), seat_initials(inv.seat)))
            self.figures[inv.seat] = (node, [None])
            add(figures, node)
        add(root, figures)
        clear(self.board_node)
        add(self.board_node, root)

    def _draw_figures(self, state: object) -> None:
        count: dict = {}
        for inv in state.investigators:
            x, y = self.centres[inv.location]
            n = count.get(inv.location, 0)
            count[inv.location] = n + 1
            spot = (x - BOX_W // 2 + 14 + n * 24, y - BOX_H // 2 - 8)
            node, shown = self.figures[inv.seat]
            key = (spot, inv.alive)
            if shown[0] != key:
                node.setAttribute("transform", f"translate({spot[0]} {spot[1]})")
                node.setAttribute("data-at", inv.location)
                node.setAttribute("visibility", "visible" if inv.alive else "hidden")
                shown[0] = key
        placed: dict = {}
        for foe in state.enemies:
            x, y = self.centres[foe.location]
            n = placed.get(foe.location, 0)
            placed[foe.location] = n + 1
            spot = (x + BOX_W // 2 - 14 - n * 24, y + BOX_H // 2 + 6)
            node, shown = self.foes[foe.id]
            key = (spot, foe.status)
            if shown[0] != key:
                node.setAttribute("transform", f"translate({spot[0]} {spot[1]})")
                node.setAttribute("data-at", foe.location)
                node.setAttribute("data-status", foe.status)
                node.setAttribute("visibility", "visible" if foe.status == "active" else "hidden")
                shown[0] = key

    # --- the side panel ----------------------------------------------------------------------------

    def _info(self, state: object, envelopes: list) -> list:
        nodes = [self.title_node(state, envelopes)]
        line = el("p", None, "turn")
        if state.over:
            add(line, el("b", t("echo.over"), "over"))
        else:
            mover = state.seats[state.turn]
            add(line, el("span", t("echo.round_line", round=state.round, rounds=state.rounds)),
                el("b", self.who(mover), "turn-seat"))
            waiting = turn(state)
            if waiting and waiting[0] != mover:
                add(line, el("span", t("echo.waiting_for", seat=seat_name(waiting[0])), "waiting"))
        nodes.append(line)
        panel = self._combat(state, envelopes)
        if panel is not None:
            nodes.append(panel)
        nodes.append(self._investigators(state))
        nodes.append(self._enemies(state))
        return nodes

    def _combat(self, state: object, envelopes: list) -> object:
        """The fight under way (or the last one): steps, order and why, dice, damage, who acts now."""
        began = None
        for index in range(len(envelopes) - 1, -1, -1):
            if envelopes[index].event.TYPE == "CombatBegan":
                began = index
                break
        if began is None:
            return None
        fight = [envelope.event for envelope in envelopes[began:]]
        combat = state.combat
        if combat is None:  # the last fight is over: keep its record on screen
            ended = [event for event in fight if event.TYPE == "CombatEnded"]
            if not ended:
                return None
        box = el("section", None, "echo-combat", (("data-over", "1" if combat is None else "0"),
                                                   ("data-step", combat.step if combat else "over"),
                                                   ("data-round", combat.round if combat else 0)))
        start = fight[0]
        where = self.name(start.location)
        add(box, el("h3", t("echo.combat_round", location=where, round=combat.round) if combat
                    else t("echo.combat_over", location=where)))
        add(box, el("p", t("echo.sides", seats=", ".join(self.who(s) for s in start.seats),
                           enemies=", ".join(self.name(e) for e in start.enemies)), "echo-sides"))
        steps = el("ol", None, "echo-steps")
        for key, rule in STEPS:
            current = combat is not None and combat.step == key
            add(steps, el("li", f"{_step_name(key)} ({rule})", "current" if current else None, (("data-step", key),)))
        add(box, steps)
        round_events = fight
        for index in range(len(fight) - 1, -1, -1):
            event = fight[index]
            if event.TYPE == "CombatStepBegan" and event.step == "order":
                round_events = fight[index:]
                break
        orders = [event for event in round_events if event.TYPE == "StrikeOrderSet"]
        if orders:
            who = el("ul", None, "echo-order")
            for event in orders:
                first = t("echo.first") if event.first else t("echo.after_enemies")
                reason = say(order_why(state, event.reason))  # a failed check names its enemies (EC-7, EC-16)
                add(who, el("li", t("echo.order_line", seat=seat_name(event.seat), first=first, reason=reason,
                                    rule=event.rule), None,
                            (("data-seat", event.seat), ("data-first", "1" if event.first else "0"))))
            add(box, el("h4", t("echo.who_first")), who)
        rolls = [event for event in fight if event.TYPE in ("EvasionRolled", "StrikeOrderRolled", "SpellCast",
                                                             "EnemyAttacked")][-6:]
        if rolls:
            dice = el("ul", None, "echo-dice")
            for event in rolls:
                add(dice, self._roll(event))
            add(box, el("h4", t("echo.dice")), dice)
        hurts = [event for event in round_events if event.TYPE in ("EnemyDamaged", "EnemyAttacked", "FixedDamageDealt",
                                                                    "PowerPaid", "EnemyDetained", "EnemyKilled",
                                                                    "InvestigatorSentAway", "InvestigatorDied")]
        if hurts:
            damage = el("ul", None, "echo-damage")
            for event in hurts:
                add(damage, el("li", say(self.game.describe(event, state)), None, (("data-type", event.TYPE),)))
            add(box, el("h4", t("echo.damage")), damage)
        waiting = prompt(state)
        if waiting is not None:
            kind, actor, fighter, eid = waiting
            names = {"actor": seat_name(actor), "fighter": seat_name(fighter), "enemy": self.name(eid)}
            text = t("echo.waiting_" + kind, **names) if kind in ("attack", "order", "strike") else \
                t("echo.waiting_after", **names)
            add(box, el("p", text, "echo-waiting", (("data-actor", actor), ("data-kind", kind))))
        return box

    def _roll(self, event: object) -> object:
        kind = event.TYPE
        item = el("li", None, "echo-roll", (("data-type", kind),))
        if kind == "EnemyAttacked":
            add(item, el("span", t("echo.roll_for", roller=seat_name(event.roller), enemy=self.name(event.enemy),
                                   seat=seat_name(event.seat))))
            add(item, el("span", t("echo.blue_dice")), *_die_nodes(event.blue, "blue"))
            add(item, el("span", t("echo.red_dice")), *_die_nodes(event.red, "red"))
            return item
        if kind == "EvasionRolled":
            text = t("echo.roll_evasion", seat=seat_name(event.seat), stealth=event.stealth, penalty=event.penalty)
        elif kind == "StrikeOrderRolled":
            text = t("echo.roll_order", seat=seat_name(event.seat), skill=_skill(event.skill), value=event.value,
                     penalty=event.penalty, enemy=self.name(event.enemy))
        else:
            text = t("echo.roll_spell", seat=seat_name(event.seat), spell=self.name(event.spell), value=event.value,
                     difficulty=event.difficulty)
        add(item, el("span", text), *_die_nodes(event.dice, None))
        if not event.dice:
            add(item, el("span", t("echo.no_dice"), "echo-nodice"))
        add(item, el("b", " ✓" if event.success else " ✗", "ok" if event.success else "bad"))
        return item

    def _investigators(self, state: object) -> object:
        """One card per investigator: names, place and movement points, the five skills, the tracks."""
        box = el("section", None, "echo-investigators")
        add(box, el("h3", t("echo.investigators")))
        for inv in state.investigators:
            card = el("div", None, "echo-inv seat-row" + ("" if inv.alive else " dead"), (("data-seat", inv.seat),))
            head = el("div", None, "echo-inv-head")
            add(head, swatch(seat_colour(state, inv.seat)), el("b", t("echo.inv_head", seat=seat_name(inv.seat))),
                el("span", both(inv.name_ru, inv.name_en) + ("" if inv.alive else t("echo.dead_mark"))))
            add(card, head, el("div", t("echo.where", place=self.name(inv.location), n=inv.mp),
                                "echo-inv-where", (("data-mp", inv.mp),)))
            skills = el("table", None, "echo-skills")
            names = el("tr")
            values = el("tr")
            for key in SKILLS:
                add(names, el("th", t("echo.skill_short_" + key)))
                add(values, el("td", getattr(inv, key), "skill", (("data-skill", key),)))
            add(names, el("th", t("echo.sanity_head")), el("th", t("echo.health_head")))
            add(values, el("td", _track(inv.sanity), "track sanity", (("data-value", inv.sanity),)),
                el("td", _track(inv.health), "track health", (("data-value", inv.health),)))
            add(skills, names, values)
            add(card, skills)
            held = [self.name(cid) for cid in inv.items + inv.spells]
            extra = t("echo.held", items=", ".join(held) or "—", clues=inv.clues)
            if inv.detained:
                extra += t("echo.held_detained", enemies=", ".join(self.name(eid) for eid in inv.detained))
            add(card, el("div", extra, "echo-inv-held"))
            add(box, card)
        return box

    def _enemies(self, state: object) -> object:
        box = el("section", None, "echo-enemies")
        add(box, el("h3", t("echo.enemies")))
        for number, foe in enumerate(state.enemies, 1):
            card = card_of(state, foe.id)
            item = el("div", None, f"echo-card {foe.status}", (("data-enemy", foe.id), ("data-status", foe.status)))
            kind = t("echo.kind_" + card.kind) if card.kind in KINDS else card.kind
            add(item, el("b", t("echo.enemy_title", number=number, name=both(card.name_ru, card.name_en))),
                el("span", f" ({kind})"))
            status = t("echo.status_" + foe.status) if foe.status in STATUS else foe.status
            add(item, el("div", f"{self.name(foe.location)} — {status}"))
            add(item, el("div", t("echo.foe_tracks", sanity=foe.sanity, max_sanity=card.sanity, health=foe.health,
                                  max_health=card.health), "echo-foe-tracks"))
            text = t("echo.foe_card", evasion=card.evasion, attention=card.attention, blue=card.blue, red=card.red)
            if card.fixed_sanity or card.fixed_health:
                text += t("echo.foe_fixed", sanity=card.fixed_sanity, health=card.fixed_health)
            add(item, el("div", text))
            add(box, item)
        return box


def _skill(skill: str) -> str:
    return t("echo.skill_" + skill) if skill in SKILLS else skill


def _faces(dice: tuple) -> str:
    return "[" + ", ".join(str(value) for value in dice) + "]" if dice else "[—]"


def _die_nodes(dice: tuple, colour: object) -> list:
    nodes = []
    for value in dice:
        cls = "echo-die" + (" hit" if value >= 5 else "") + (f" {colour}" if colour else "")
        nodes.append(el("span", value, cls, (("data-value", value),)))
    return nodes


def _step_name(step: str) -> str:
    for key, _rule in STEPS:
        if key == step:
            return t("echo.step_" + key)
    return step


def _track(value: int) -> str:
    return f"{value} " + ("●" * max(0, min(value, 12)))


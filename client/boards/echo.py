"""The ``echo`` board: the map of Echo, investigators with skills and tracks, enemy cards, the fight.

Names are shown in Russian with English beside them (the game's players read Russian). The map is
built once per game (places, white arrows, the Dark Path, labels); each ``draw`` moves the figures,
marks the legal steps of the moving seat, and rebuilds the side panel: whose move it is, the
combat panel (the round's steps, who strikes first and why, the dice, the damage, and which seat
must act now: the enemy's dice are rolled from the page of the seat to the fighter's left, EC-13),
the investigators and the enemy cards. Everything is read from the folded state and the log; the
legal steps and the buttons come from the game's own ``legal``.
"""

from __future__ import annotations

from client.boards import svgkit
from client.boards.svgkit import pick_on_click, swatch, wrap
from client.dom import add, clear, el, svg
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

BOX_W = 150
BOX_H = 50
PALETTE = ("#d63c3c", "#3c6fd6", "#2f9e44", "#e0b000", "#8a4fd0", "#e8730c", "#159a9c", "#e05fa8")
SKILLS = (("speed", "Скор.", "Speed"), ("stealth", "Скрыт.", "Stealth"), ("attention", "Вним.", "Attention"),
          ("knowledge", "Знан.", "Knowledge"), ("intuition", "Инт.", "Intuition"))
STEPS = (("order", "Очерёдность ударов", "Strike order", "EC-7"),
         ("first", "Удар первых", "First strikes", "EC-9"),
         ("attack", "Атака врагов", "Enemies attack", "EC-13"),
         ("second", "Удар вторых", "Second strikes", "EC-9"),
         ("after", "После раунда: уйти или биться", "After the round: evade or fight on", "EC-5"))
KINDS = {"person": "человек · person", "undead": "нежить · undead", "artifact": "артефакт · artifact"}
STATUS = {"active": "на свободе · at large", "detained": "задержан · detained", "exchanged": "обменян · exchanged",
          "dead": "мёртв · dead"}


def seat_colour(state: object, seat: str) -> str:
    return svgkit.seat_colour(state, seat, seat_index, PALETTE)


def both(ru: str, en: str) -> str:
    return f"{ru} · {en}"


class EchoView:
    """Draws one ``echo`` state into a board node (SVG inside) and an info node (HTML)."""

    def __init__(self, game: object, board_node: object, info_node: object) -> None:
        self.game = game
        self.board_node = board_node
        self.info_node = info_node
        self.map = None
        self.places: dict = {}
        self.figures: dict = {}
        self.foes: dict = {}
        self.centres: dict = {}
        self.kinds: dict = {}
        self.names: dict = {}  # id -> (ru, en): places, cards, enemies, seats' investigators
        self.interactive = False
        self.on_pick = None

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
            card = names.get(foe.card, (foe.card, foe.card))
            names[foe.id] = card
        for inv in state.investigators:
            names["seat:" + inv.seat] = (inv.name_ru, inv.name_en)
        self.names = names

    def name(self, key: object) -> str:
        pair = self.names.get(key)
        return both(pair[0], pair[1]) if pair else str(key)

    def ru(self, key: object) -> str:
        pair = self.names.get(key)
        return pair[0] if pair else str(key)

    def who(self, seat: str) -> str:
        pair = self.names.get("seat:" + seat)
        return f"{seat} ({pair[0]} · {pair[1]})" if pair else seat

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
                return (f"Ждём · Waiting: {current} бросает кубики врага · rolls the enemy's dice against "
                        f"{waiting[2]} (EC-13)")
            return f"Ждём · Waiting for {current}…"
        if waiting is None:
            if not self.hints(state, seat):
                return "Ваш ход · Your move:"
            return "Ваш ход: щёлкните подсвеченное место или · Your move: click a highlighted place, or"
        kind = waiting[0]
        if kind == "attack":
            return (f"Вы сидите слева от {waiting[2]}: бросьте кубики врага · You sit to {waiting[2]}'s left: "
                    "roll the enemy's dice (EC-13)")
        if kind == "order":
            return "Проверка очерёдности ударов · Strike-order check (EC-7, EC-8):"
        if kind == "strike":
            return "Ваш удар · Your strike (EC-9):"
        return "После раунда · After the round (EC-5):"

    def label(self, state: object, seat: str, command: object) -> str:
        inv = investigator(state, seat)
        if isinstance(command, EndMove):
            return "Закончить движение · End move"
        if isinstance(command, Fight):
            return "Биться · Fight"
        if isinstance(command, Evade):
            card = card_of(state, command.enemy)
            return f"Уйти от: {self.ru(command.enemy)} · Evade {command.enemy} ({_dice(inv.stealth - card.evasion)})"
        if isinstance(command, CheckOrder):
            value = getattr(inv, command.skill)
            ru = "внимательность" if command.skill == "attention" else "скрытность"
            return f"Проверка: {ru} · {command.skill.title()} check ({value} − штраф врага · − enemy penalty)"
        if isinstance(command, Strike):
            return f"Удар: {self.ru(command.card)} → {self.ru(command.enemy)} · Strike {command.enemy} with {command.card}"
        if isinstance(command, Pass):
            return "Пропустить удар · Pass"
        if isinstance(command, RollAttack):
            waiting = prompt(state)
            card = card_of(state, waiting[3])
            return (f"Бросить кубики врага · Roll {waiting[3]}'s dice against {waiting[2]} "
                    f"(синие · blue {card.blue}, красные · red {card.red})")
        if isinstance(command, Exchange):
            return f"Обменять на улики: {self.ru(command.enemy)} · Exchange {command.enemy} for clues"
        if isinstance(command, Trade):
            return f"Отдать {self.ru(command.item)} → {command.to} · Give {command.item} to {command.to}"
        return command.TYPE

    def describe(self, event: object) -> str:
        kind = event.TYPE
        if kind == "GameStarted":
            self.learn(self.game.evolve(None, event))
            return f"game started: {', '.join(self.who(seat) for seat in event.seats)}"
        if kind == "RoundBegan":
            points = ", ".join(f"{seat} {mp}" for seat, mp in event.points)
            return f"раунд · round {event.round}: очки движения · movement points {points}; {event.first} moves"
        if kind == "InvestigatorMoved":
            how = {"arrow": "белая стрелка · white arrow", "dark": "Тёмный Путь · Dark Path",
                   "dark-side": "на Тёмную Сторону · to the Dark Side"}.get(event.link, event.link)
            return f"{event.seat}: {self.name(event.start)} → {self.name(event.to)} ({how}; осталось · left {event.mp})"
        if kind == "EvasionRolled":
            outcome = "ушёл · evaded" if event.success else "не ушёл · failed"
            return (f"{event.seat} уходит от · evades {self.name(event.enemy)}: {event.stealth} − {event.penalty} "
                    f"= {len(event.dice)} {_faces(event.dice)} → {outcome}")
        if kind == "CombatBegan":
            return (f"битва · combat in {self.name(event.location)}: {', '.join(event.seats)} против · against "
                    f"{', '.join(self.name(eid) for eid in event.enemies)}")
        if kind == "CombatStepBegan":
            return f"раунд · round {event.round}: {_step_name(event.step)}"
        if kind == "StrikeOrderRolled":
            outcome = "успех · success" if event.success else "провал · failure"
            return (f"{event.seat} vs {self.name(event.enemy)}: {event.skill} {event.value} − {event.penalty} "
                    f"{_faces(event.dice)} → {outcome}")
        if kind == "StrikeOrderSet":
            first = "бьёт первым · strikes first" if event.first else "враги бьют первыми · the enemies strike first"
            return f"{event.seat}: {first} ({event.reason})"
        if kind == "ItemStruck":
            return f"{event.seat} бьёт · strikes {self.name(event.enemy)} with {self.name(event.item)}"
        if kind == "SpellCast":
            outcome = "успех · success" if event.success else "провал · failure"
            return (f"{event.seat} колдует · casts {self.name(event.spell)} ({event.skill} {event.value} − "
                    f"{event.difficulty}) {_faces(event.dice)} → {outcome}")
        if kind == "PowerPaid":
            return f"{event.seat} платит цену могущества · pays the price of power: −{event.price} рассудка · Sanity"
        if kind == "StrikePassed":
            return f"{event.seat} пропускает удар · lets the strike go by"
        if kind == "EnemyDamaged":
            return (f"{self.name(event.enemy)}: −{event.sanity_loss} рассудка · Sanity, −{event.health_loss} "
                    f"здоровья · Health → {event.sanity}/{event.health}")
        if kind == "EnemyAttacked":
            return (f"{event.roller} бросает за · rolls for {self.name(event.enemy)} против · against {event.seat}: "
                    f"синие · blue {_faces(event.blue)} −{event.sanity_loss}, красные · red {_faces(event.red)} "
                    f"−{event.health_loss} → {event.sanity}/{event.health}")
        if kind == "FixedDamageDealt":
            return (f"{self.name(event.enemy)} без броска · without a roll: −{event.sanity_loss} Sanity, "
                    f"−{event.health_loss} Health → {event.seat} {event.sanity}/{event.health}")
        if kind == "EnemyDetained":
            return f"{self.name(event.enemy)} задержан · detained: {event.seat} takes its card"
        if kind == "EnemyKilled":
            return f"{self.name(event.enemy)} мёртв · dead ({event.reason})"
        if kind == "InvestigatorDied":
            return f"{self.who(event.seat)} погиб · died ({event.reason})"
        if kind == "InvestigatorSentAway":
            track = "рассудок · Sanity" if event.track == "sanity" else "здоровье · Health"
            return f"{self.who(event.seat)} → {self.name(event.to)} ({track} 1)"
        if kind == "FightContinued":
            return f"{event.seat} бьётся дальше · fights on"
        if kind == "CombatLeft":
            return f"{event.seat} ускользнул от всех · escaped them all"
        if kind == "CombatRoundEnded":
            points = ", ".join(f"{seat} {mp}" for seat, mp in event.points)
            return f"раунд {event.round} окончен · round over: −1 очко движения · movement point ({points})"
        if kind == "CombatEnded":
            return f"битва окончена · combat over: {event.reason}"
        if kind == "DetainedExchanged":
            return f"{event.seat}: {self.name(event.enemy)} → +{event.clues} улик · clues"
        if kind == "ItemTraded":
            return f"{event.seat} → {event.to}: {self.name(event.item)}"
        if kind == "TurnEnded":
            return f"{event.seat} закончил движение · ends its move" + (f"; {event.next_seat} moves"
                                                                        if event.next_seat else "")
        if kind == "GameEnded":
            return f"игра окончена · game over: {event.reason}"
        return kind

    # --- drawing -----------------------------------------------------------------------------------

    def draw(self, state: object, envelopes: list, seat: object, interactive: bool, on_pick: object) -> None:
        if state is None:
            return
        if self.map is not state.map:
            self.learn(state)
            self._build(state)
        self.interactive = interactive
        self.on_pick = on_pick
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
        board = state.map
        self.map = board
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
            title = svg("title", None, (), both(place.name_ru, place.name_en))
            add(group, title, svg("rect", "echo-box", (("x", x - BOX_W // 2), ("y", y - BOX_H // 2),
                                                       ("width", BOX_W), ("height", BOX_H), ("rx", 8))))
            for i, line in enumerate(_wrap(place.name_ru, 24)[:2]):
                add(group, svg("text", "echo-ru", (("x", x), ("y", y - 9 + i * 12)), line))
            add(group, svg("text", "echo-en", (("x", x), ("y", y + 19)), _wrap(place.name_en, 30)[0]))
            pick_on_click(self, group, place.id)
            self.places[place.id] = (group, title, [""])
            add(root, group)
        self.foes = {}
        foes = svg("g", "echo-enemies")
        for foe in state.enemies:
            node = svg("g", "echo-enemy", (("data-enemy", foe.id),))
            add(node, svg("title", None, (), self.name(foe.id)),
                svg("polygon", "echo-enemy-body", (("points", "0,-11 11,0 0,11 -11,0"),)),
                svg("text", "echo-enemy-label", (("y", "4"),), "В"))
            self.foes[foe.id] = (node, [None])
            add(foes, node)
        add(root, foes)
        self.figures = {}
        figures = svg("g", "echo-figures")
        for inv in state.investigators:
            node = svg("g", "echo-figure", (("data-seat", inv.seat),))
            add(node, svg("title", None, (), self.who(inv.seat)),
                svg("circle", "echo-figure-body", (("r", "11"), ("fill", seat_colour(state, inv.seat)))),
                svg("text", "echo-figure-label", (("y", "4"),), inv.seat[:1].upper()))
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
        nodes = [el("h2", state.title, "game-title")]
        line = el("p", None, "turn")
        if state.over:
            add(line, el("b", "Игра окончена · Game over", "over"))
        else:
            mover = state.seats[state.turn]
            add(line, el("span", f"Раунд · Round {state.round} / {state.rounds} · ходит · moving: "),
                el("b", self.who(mover), "turn-seat"))
            waiting = turn(state)
            if waiting and waiting[0] != mover:
                add(line, el("span", f" · ждём · waiting for: {waiting[0]}", "waiting"))
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
        add(box, el("h3", f"Битва · Combat — {self.name(start.location)}"
                    + (f", раунд · round {combat.round}" if combat else ", окончена · over")))
        add(box, el("p", f"Сыщики · Investigators: {', '.join(self.who(s) for s in start.seats)} — "
                    f"враги · enemies: {', '.join(self.name(e) for e in start.enemies)}", "echo-sides"))
        steps = el("ol", None, "echo-steps")
        for key, ru, en, rule in STEPS:
            current = combat is not None and combat.step == key
            add(steps, el("li", f"{ru} · {en} ({rule})", "current" if current else None, (("data-step", key),)))
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
                first = "первым · first" if event.first else "после врагов · after the enemies"
                add(who, el("li", f"{event.seat}: {first} — {event.reason} ({event.rule})", None,
                            (("data-seat", event.seat), ("data-first", "1" if event.first else "0"))))
            add(box, el("h4", "Кто бьёт первым · Who strikes first"), who)
        rolls = [event for event in fight if event.TYPE in ("EvasionRolled", "StrikeOrderRolled", "SpellCast",
                                                             "EnemyAttacked")][-6:]
        if rolls:
            dice = el("ul", None, "echo-dice")
            for event in rolls:
                add(dice, self._roll(event))
            add(box, el("h4", "Кубики · Dice"), dice)
        hurts = [event for event in round_events if event.TYPE in ("EnemyDamaged", "EnemyAttacked", "FixedDamageDealt",
                                                                    "PowerPaid", "EnemyDetained", "EnemyKilled",
                                                                    "InvestigatorSentAway", "InvestigatorDied")]
        if hurts:
            damage = el("ul", None, "echo-damage")
            for event in hurts:
                add(damage, el("li", self.describe(event), None, (("data-type", event.TYPE),)))
            add(box, el("h4", "Урон · Damage"), damage)
        waiting = prompt(state)
        if waiting is not None:
            kind, actor, fighter, eid = waiting
            if kind == "attack":
                text = (f"{actor} бросает кубики врага {self.ru(eid)} против {fighter} — игрок слева (EC-13) · "
                        f"{actor} rolls {eid}'s dice against {fighter}: the seat to {fighter}'s left")
            elif kind == "order":
                text = f"{actor}: проверка очерёдности · strike-order check"
            elif kind == "strike":
                text = f"{actor}: удар · strike"
            else:
                text = f"{actor}: уйти снова или биться · evade again or fight on"
            add(box, el("p", "Ждём · Waiting: " + text, "echo-waiting", (("data-actor", actor), ("data-kind", kind))))
        return box

    def _roll(self, event: object) -> object:
        kind = event.TYPE
        item = el("li", None, "echo-roll", (("data-type", kind),))
        if kind == "EnemyAttacked":
            add(item, el("span", f"{event.roller} за · for {self.ru(event.enemy)} → {event.seat}: "))
            add(item, el("span", "синие · blue "), *_die_nodes(event.blue, "blue"))
            add(item, el("span", " красные · red "), *_die_nodes(event.red, "red"))
            return item
        if kind == "EvasionRolled":
            text = f"{event.seat} уход · evasion {event.stealth}−{event.penalty}: "
        elif kind == "StrikeOrderRolled":
            text = f"{event.seat} {event.skill} {event.value}−{event.penalty} vs {self.ru(event.enemy)}: "
        else:
            text = f"{event.seat} {self.ru(event.spell)} {event.value}−{event.difficulty}: "
        add(item, el("span", text), *_die_nodes(event.dice, None))
        if not event.dice:
            add(item, el("span", "нет кубиков · no dice", "echo-nodice"))
        add(item, el("b", " ✓" if event.success else " ✗", "ok" if event.success else "bad"))
        return item

    def _investigators(self, state: object) -> object:
        """One card per investigator: names, place and movement points, the five skills, the tracks."""
        box = el("section", None, "echo-investigators")
        add(box, el("h3", "Сыщики · Investigators"))
        for inv in state.investigators:
            card = el("div", None, "echo-inv seat-row" + ("" if inv.alive else " dead"), (("data-seat", inv.seat),))
            head = el("div", None, "echo-inv-head")
            add(head, swatch(seat_colour(state, inv.seat)), el("b", f" {inv.seat}: "),
                el("span", both(inv.name_ru, inv.name_en) + ("" if inv.alive else " † погиб · dead")))
            add(card, head, el("div", f"{self.name(inv.location)} · очки движения · movement points {inv.mp}",
                                "echo-inv-where", (("data-mp", inv.mp),)))
            skills = el("table", None, "echo-skills")
            names = el("tr")
            values = el("tr")
            for key, ru, en in SKILLS:
                add(names, el("th", f"{ru} {en}"))
                add(values, el("td", getattr(inv, key), "skill", (("data-skill", key),)))
            add(names, el("th", "Рассудок Sanity"), el("th", "Здоровье Health"))
            add(values, el("td", _track(inv.sanity), "track sanity", (("data-value", inv.sanity),)),
                el("td", _track(inv.health), "track health", (("data-value", inv.health),)))
            add(skills, names, values)
            add(card, skills)
            held = [self.name(cid) for cid in inv.items + inv.spells]
            extra = f"Вещи, заклинания · Items, spells: {', '.join(held) or '—'} · улики · clues {inv.clues}"
            if inv.detained:
                extra += f" · задержаны · detained: {', '.join(self.name(eid) for eid in inv.detained)}"
            add(card, el("div", extra, "echo-inv-held"))
            add(box, card)
        return box

    def _enemies(self, state: object) -> object:
        box = el("section", None, "echo-enemies")
        add(box, el("h3", "Враги · Enemies"))
        for foe in state.enemies:
            card = card_of(state, foe.id)
            item = el("div", None, f"echo-card {foe.status}", (("data-enemy", foe.id), ("data-status", foe.status)))
            add(item, el("b", both(card.name_ru, card.name_en)), el("span", f" ({foe.id}, {KINDS.get(card.kind)})"))
            add(item, el("div", f"{self.name(foe.location)} — {STATUS.get(foe.status, foe.status)}"))
            add(item, el("div", f"Рассудок · Sanity {foe.sanity}/{card.sanity}, здоровье · Health "
                         f"{foe.health}/{card.health}", "echo-foe-tracks"))
            add(item, el("div", f"Штраф ухода · evasion penalty {card.evasion}, штраф внимательности · attention "
                         f"penalty {card.attention}; атака · attack: синие · blue {card.blue}, красные · red "
                         f"{card.red}" + (f"; без броска · fixed: {card.fixed_sanity} Sanity, {card.fixed_health} Health"
                                          if card.fixed_sanity or card.fixed_health else "")))
            add(box, item)
        return box


def _dice(count: int) -> str:
    return f"{max(0, count)} dice"


def _faces(dice: tuple) -> str:
    return "[" + ", ".join(str(value) for value in dice) + "]" if dice else "[—]"


def _die_nodes(dice: tuple, colour: object) -> list:
    nodes = []
    for value in dice:
        cls = "echo-die" + (" hit" if value >= 5 else "") + (f" {colour}" if colour else "")
        nodes.append(el("span", value, cls, (("data-value", value),)))
    return nodes


def _step_name(step: str) -> str:
    for key, ru, en, _rule in STEPS:
        if key == step:
            return f"{ru} · {en}"
    return step


def _track(value: int) -> str:
    return f"{value} " + ("●" * max(0, min(value, 12)))


def _wrap(text: str, width: int) -> list:
    return wrap(text, width) or [""]

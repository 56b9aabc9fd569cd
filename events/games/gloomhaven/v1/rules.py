"""Gloomhaven's round as a decider: start, decide, evolve, legal (shared/rules/gloomhaven.md).

gloomhaven-1, frozen: a1151df's ``events/games/gloomhaven/rules.py``, its imports pointed at ``events.games.gloomhaven.v1``
(see its docstring). Never edit it: gloomhaven-1 logs replay and audit through it, indefinitely.

A round: every living character picks two cards and a leading one, or a long rest, in secret
(GH-C2); the last pick reveals them all, draws one ability card per monster type and sets the
initiative order (GH-2, GH-8, GH-C3), asking the players to settle ties. Figures then act in
order: characters by command (GH-3), monsters and summons by ``focus.monster_turn`` (GH-6,
GH-7, GH-C4), asking the players whenever the rules leave equally good options. The end of a
round offers short rests and reshuffles decks (GH-C5, GH-C6); exhaustion is checked as it
happens (GH-1).
"""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import GameStarted, RulesVersionChanged, SecretRevealed
from events.games.gloomhaven import board as boards
from events.games.gloomhaven.model import (
    AttackResolved,
    CardPlayed,
    CardsDiscarded,
    CardsRevealed,
    CardsSelected,
    CharacterExhausted,
    ChooseOption,
    ChooseOrder,
    Deck,
    DeckReshuffled,
    DeclareLongRest,
    DoorOpened,
    Figure,
    FigureDied,
    FigureHealed,
    FigureMoved,
    FigureSummoned,
    GameEnded,
    Group,
    HazardEntered,
    Hero,
    InitiativeSet,
    LongRested,
    MonsterCardDrawn,
    MonsterTurnPlanned,
    OptionChosen,
    OrderChosen,
    Pending,
    Pick,
    PlayCard,
    RestLose,
    RoundEnded,
    RoundStarted,
    Sealed,
    SelectCards,
    ShortRest,
    ShortRestDeclined,
    ShortRested,
    ShortRestOffered,
    State,
    TieOffered,
    TrapSprung,
    TurnEnded,
    TurnStarted,
)
from events.games.gloomhaven.v1.focus import Attack, Body, Field, monster_turn
from events.games.gloomhaven.v1.hexmap import HexMap, hexmap_path_to, hexmap_paths
from events.games.gloomhaven.v1.model import event_option, pending_options
from events.geometry.hexgrid import hex_distance
from events.rules import Rejection
from events.upgrade import RulesVersionAnswered, RulesVersionProposed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted.
RULES_VERSION = "gloomhaven-1"

MONSTERS = "monsters"
MODIFIERS = (("+0", 6), ("+1", 5), ("-1", 5), ("+2", 1), ("-2", 1), ("x2", 1), ("null", 1))
#: How a loaded die names a modifier card (``chronicle play --dice``, tests): its value, 10 for 2x, -10 for Null.
MODIFIER_FACES = {"+0": 0, "+1": 1, "-1": -1, "+2": 2, "-2": -2, "x2": 10, "null": -10}
LONG_REST_INITIATIVE = 99


# --- start --------------------------------------------------------------------------------------------


def start(scenario: dict, seed: str) -> list:
    """The first events: the scenario validated (raises ScenarioError) and recorded whole; round 1."""
    setup = boards.load_scenario(scenario)
    seats = tuple(seat for seat, _cls, _hex in setup.characters)
    return [GameStarted("gloomhaven", RULES_VERSION, seed, seats, canonical_json(scenario)), RoundStarted(1)]


def initial_state(event: GameStarted) -> State:
    import json

    setup = boards.load_scenario(json.loads(event.scenario))
    classes = {cls.name: cls for cls in setup.classes}
    types = {monster_type.name: monster_type for monster_type in setup.types}
    figures = []
    heroes = []
    for seat, cls_name, hex in setup.characters:
        cls = classes[cls_name]
        figures.append(Figure(seat, "character", cls_name, "", 0, seat, hex, cls.hp, cls.hp, None, False, 0))
        heroes.append(Hero(seat, cls_name, tuple(card.id for card in cls.cards), (), (), (), None, False, None, None,
                           (), False))
    for name, rank, number, hex in setup.monsters:
        stats = types[name].elite if rank == "elite" else types[name].normal
        figures.append(Figure(boards.monster_id(name, number), "monster", name, rank, number, "", hex, stats.hp,
                              stats.hp, stats, types[name].flying, 0))
    used = tuple(sorted({name for name, _rank, _number, _hex in setup.monsters}))
    return State(
        setup.title, setup.level, setup.map, tuple(classes[name] for _s, name, _h in setup.characters),
        tuple(types[name] for name in used), tuple(figures), tuple(heroes),
        tuple(Group(name, None, ()) for name in used),
        (Deck(MONSTERS, ()),) + tuple(Deck(seat, ()) for seat, _c, _h in setup.characters),
        setup.map.traps, (), 0, setup.rounds, "select", (), 0, None, (), None, None,
    )


# --- small helpers -------------------------------------------------------------------------------------


def _state(s: State, **changes: Any) -> State:
    return State(*[changes[name] if name in changes else getattr(s, name) for name in State.__slots__])


def _hero(h: Hero, **changes: Any) -> Hero:
    return Hero(*[changes[name] if name in changes else getattr(h, name) for name in Hero.__slots__])


def _figure(f: Figure, **changes: Any) -> Figure:
    return Figure(*[changes[name] if name in changes else getattr(f, name) for name in Figure.__slots__])


def hero_of(state: State, seat: str) -> Hero | None:
    for hero in state.heroes:
        if hero.seat == seat:
            return hero
    return None


def figure_of(state: State, figure_id: str) -> Figure | None:
    for figure in state.figures:
        if figure.id == figure_id:
            return figure
    return None


def _card(state: State, card_id: str) -> Any:
    for cls in state.classes:
        for card in cls.cards:
            if card.id == card_id:
                return card
    return None


def _class(state: State, name: str) -> Any:
    return next(cls for cls in state.classes if cls.name == name)


def _type(state: State, name: str) -> Any:
    return next(monster_type for monster_type in state.types if monster_type.name == name)


def _group(state: State, name: str) -> Group:
    return next(group for group in state.groups if group.name == name)


def _deck(state: State, owner: str) -> Deck:
    return next(deck for deck in state.decks if deck.owner == owner)


def _living_heroes(state: State) -> tuple:
    return tuple(hero for hero in state.heroes if not hero.exhausted)


def _monsters(state: State) -> tuple:
    return tuple(figure for figure in state.figures if figure.kind == "monster")


def hexmap_of(state: State) -> HexMap:
    """The map's geometry now: doors not yet opened are closed (GH-C1)."""
    closed = tuple(hex for hex in state.map.doors if hex not in state.open_doors)
    return HexMap(state.map.hexes, state.map.thin_walls, closed)


def _team(figure: Figure) -> str:
    return MONSTERS if figure.kind == "monster" else "players"


def trap_damage(state: State) -> int:
    """GH-C1: a trap deals 2 + the scenario level."""
    return 2 + state.level


def seats(state: Any) -> tuple:
    return () if state is None else tuple(hero.seat for hero in state.heroes)


def is_over(state: Any) -> bool:
    return state is not None and state.phase == "over"


def turn(state: Any) -> tuple:
    """The seats that may act now: secret picks are simultaneous; a pending choice names its seats."""
    if state is None or state.phase == "over":
        return ()
    if state.pending is not None:
        return state.pending.seats
    if state.phase == "select":
        return tuple(hero.seat for hero in state.heroes if not hero.exhausted and hero.pick is None)
    if state.phase == "act" and state.acting is not None:
        figure = figure_of(state, state.acting)
        if figure is not None and figure.kind == "character":
            return (figure.seat,)
    return ()


# --- decide --------------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it."""
    if state is None:
        return Rejection("GH-C2", "the game has not started")
    if state.phase == "over":
        return Rejection("GH-C2", f"the scenario is over ({state.outcome})")
    hero = hero_of(state, seat)
    if hero is None:
        return Rejection("GH-C2", f"there is no seat {seat!r} in this game")
    if isinstance(command, (SelectCards, DeclareLongRest)):
        outcome = _decide_pick(state, hero, command)
    elif isinstance(command, ChooseOrder):
        outcome = _decide_order(state, seat, command)
    elif isinstance(command, PlayCard):
        outcome = _decide_play(state, hero, command, rng)
    elif isinstance(command, RestLose):
        outcome = _decide_rest_lose(state, hero, command)
    elif isinstance(command, ChooseOption):
        outcome = _decide_option(state, seat, command, rng)
    elif isinstance(command, ShortRest):
        outcome = _decide_short_rest(state, hero, command, rng)
    else:
        return Rejection("GH-C2", f"{type(command).__name__} is not a command of this game")
    if isinstance(outcome, Rejection):
        return outcome
    events, after = outcome
    return events + _advance(after, rng)


def _apply(state: State, events: list) -> State:
    for event in events:
        state = evolve(state, event)
    return state


# --- picks and the reveal (GH-C2, GH-2, GH-C3) ---------------------------------------------------------


def _decide_pick(state: State, hero: Hero, command: Any) -> tuple | Rejection:
    if state.phase != "select":
        return Rejection("GH-C2", f"cards are picked at the start of a round; round {state.round} is under way")
    if hero.exhausted:
        return Rejection("GH-1", f"{hero.seat} is exhausted and takes no further part")
    if hero.pick is not None:
        return Rejection("GH-C2", f"{hero.seat} has already chosen for round {state.round}")
    if isinstance(command, DeclareLongRest):
        if len(hero.discard) < 2:
            return Rejection("GH-C6", f"a long rest needs two cards in the discard pile; {hero.seat} has "
                             f"{len(hero.discard)}")
        event = CardsSelected(hero.seat, (), None, True, False)
    else:
        cards = command.cards
        if not isinstance(cards, tuple) or len(cards) != 2 or not all(isinstance(c, str) for c in cards):
            return Rejection("GH-C2", f"pick exactly two card ids, got {cards!r}")
        if len(hero.hand) < 2:
            return Rejection("GH-C6", f"{hero.seat} holds {len(hero.hand)} card(s): it cannot play two and must "
                             "long rest")
        if cards[0] == cards[1]:
            return Rejection("GH-C2", f"the two cards must differ, got {cards[0]} twice")
        for card in cards:
            if card not in hero.hand:
                return Rejection("GH-C2", f"card {card} is not in {hero.seat}'s hand ({', '.join(hero.hand)})")
        if command.leading not in cards:
            return Rejection("GH-2", f"the leading card must be one of the two picked, got {command.leading!r}")
        event = CardsSelected(hero.seat, tuple(cards), command.leading, False, False)
    return [event], evolve(state, event)


def _reveal(state: State, rng: Any) -> list:
    """GH-C2: everything revealed at once, one ability card per monster type on the map, then order."""
    picks = []
    for hero in state.heroes:
        if hero.exhausted:
            continue
        pick = hero.pick.content
        picks.append((hero.seat, pick.cards, pick.leading, pick.long_rest))
    events: list = [CardsRevealed(tuple(picks))]
    on_map = {figure.name for figure in _monsters(state)}
    for group in state.groups:
        if group.name not in on_map:
            continue
        monster_type = _type(state, group.name)
        left = tuple(card.id for card in monster_type.deck if card.id not in group.drawn)
        if not left:
            left = tuple(card.id for card in monster_type.deck)
        initiative = {card.id: card.initiative for card in monster_type.deck}
        chosen = rng.pick(left, face=initiative.get)  # a loaded die names the initiative
        card = next(card for card in monster_type.deck if card.id == chosen)
        events.append(MonsterCardDrawn(group.name, chosen, card.initiative))
    return events


def _slots(state: State) -> list:
    """The round's acting units with their sort keys: (key, kind, ids)."""
    slots = []
    for hero in state.heroes:
        if hero.exhausted:
            continue
        slots.append(((hero.initiative, 0, hero.secondary), "hero", hero.seat))
    for group in state.groups:
        if group.card is None or not any(f.name == group.name for f in _monsters(state)):
            continue
        card = next(card for card in _type(state, group.name).deck if card.id == group.card)
        slots.append(((card.initiative, 1, 0), "group", group.name))
    return slots


def _next_tie(state: State) -> tuple | None:
    """The first tie still to settle: (kind, tied ids, seats who answer), or None."""
    slots = _slots(state)
    settled = {tuple(sorted(order)) for order in state.settled}
    for kind in ("hero", "group"):
        keys: dict = {}
        for key, slot_kind, name in slots:
            if slot_kind != kind:
                continue
            keys.setdefault(key if kind == "hero" else key[0], []).append(name)
        for key in sorted(keys):
            names = tuple(sorted(keys[key]))
            if len(names) > 1 and names not in settled:
                if kind == "hero":
                    return ("initiative", names, names)
                return ("monster-order", names, tuple(hero.seat for hero in _living_heroes(state)))
    return None


def _order(state: State) -> tuple:
    """GH-2, GH-8, GH-C3: (figure, initiative) in acting order, and notes on how ties were placed."""
    slots = _slots(state)
    rank: dict = {}
    for order in state.settled:
        for i, name in enumerate(order):
            rank[name] = i
    slots.sort(key=lambda slot: (slot[0], rank.get(slot[2], 0), slot[2]))
    notes = []
    for (key_a, kind_a, a), (key_b, kind_b, b) in zip(slots, slots[1:]):
        if key_a[0] != key_b[0]:
            continue
        if kind_a == "hero" and kind_b == "group":
            notes.append(f"{a} and {b} both have initiative {key_a[0]}: the character acts first (GH-2)")
        elif kind_a == "hero" and key_a[2] != key_b[2]:
            notes.append(f"{a} and {b} tie at {key_a[0]}: their other cards ({key_a[2]} < {key_b[2]}) decide (GH-2)")
        elif kind_a == "hero":
            notes.append(f"{a} and {b} tie at {key_a[0]} and on their other cards: the players put {a} first (GH-2)")
        else:
            notes.append(f"{a} and {b} tie at {key_a[0]}: the players put {a} first (GH-C3)")
    order = []
    for key, kind, name in slots:
        if kind == "hero":
            summons = sorted((f for f in state.figures if f.kind == "summon" and f.seat == name
                              and f.summoned < state.round), key=lambda f: f.number)
            for summon in summons:
                order.append((summon.id, key[0]))
            order.append((name, key[0]))
        else:
            members = [f for f in _monsters(state) if f.name == name]
            members.sort(key=lambda f: (0 if f.rank == "elite" else 1, f.number))  # GH-C3
            for member in members:
                order.append((member.id, key[0]))
    return tuple(order), tuple(notes)


def _order_or_tie(state: State) -> list:
    tie = _next_tie(state)
    if tie is not None:
        kind, group, who = tie
        return [TieOffered(kind, group, who, "GH-2" if kind == "initiative" else "GH-C3")]
    order, notes = _order(state)
    return [InitiativeSet(order, notes, "GH-2")]


def _decide_order(state: State, seat: str, command: ChooseOrder) -> tuple | Rejection:
    pending = state.pending
    if pending is None or pending.kind not in ("initiative", "monster-order"):
        return Rejection("GH-2", "no initiative tie is waiting for the players")
    rule = "GH-2" if pending.kind == "initiative" else "GH-C3"
    if seat not in pending.seats:
        return Rejection(rule, f"the tie between {', '.join(pending.about)} is settled by {', '.join(pending.seats)}")
    order = command.order
    if not isinstance(order, tuple) or tuple(sorted(order)) != pending.about:
        return Rejection(rule, f"give an order of exactly {', '.join(pending.about)}, got {order!r}")
    event = OrderChosen(seat, pending.about, order, rule)
    after = evolve(state, event)
    more = _order_or_tie(after)
    return [event] + more, _apply(after, more)


# --- characters' turns (GH-3, GH-4, GH-5) -------------------------------------------------------------


def _not_your_turn(state: State, seat: str) -> Rejection:
    """Why ``seat`` cannot act now, naming what the round is waiting for (GH-C2)."""
    if state.phase == "select":
        return Rejection("GH-C2", f"round {state.round} is still at card selection (waiting for "
                         f"{', '.join(turn(state)) or 'nobody'}): no figure acts yet")
    if state.pending is not None:
        return Rejection("GH-C2", f"the players must first settle a {state.pending.kind} choice "
                         f"({', '.join(state.pending.seats)})")
    return Rejection("GH-C2", f"it is {state.acting or 'no character'}'s turn, not {seat}'s")


def _decide_play(state: State, hero: Hero, command: PlayCard, rng: Any) -> tuple | Rejection:
    if state.phase != "act" or state.acting != hero.seat or state.pending is not None:
        return _not_your_turn(state, hero.seat)
    if hero.long_rest:
        return Rejection("GH-C6", f"{hero.seat} is on a long rest: choose the discarded card to lose")
    if command.card not in hero.active:
        return Rejection("GH-3", f"card {command.card!r} is not one of {hero.seat}'s two cards in play "
                         f"({', '.join(hero.active)})")
    if command.half not in ("top", "bottom"):
        return Rejection("GH-3", f"half must be top or bottom, got {command.half!r}")
    for card_id, half in hero.used:
        if card_id == command.card:
            return Rejection("GH-3", f"{card_id} was already used this turn: play the other card")
        if half == command.half:
            return Rejection("GH-3", f"the {half} action was already performed this turn (from {card_id}): "
                             f"now the {'bottom' if half == 'top' else 'top'} of the other card")
    card = _card(state, command.card)
    action = card.top if command.half == "top" else card.bottom
    me = figure_of(state, hero.seat)
    events: list = [CardPlayed(hero.seat, card.id, command.half, action.kind, bool(command.skip))]
    after = evolve(state, events[0])
    if not command.skip:
        effect = _character_action(after, me, action, command, rng)
        if isinstance(effect, Rejection):
            return effect
        events += effect
        after = _apply(after, effect)
    hero_now = hero_of(after, hero.seat)
    if not hero_now.exhausted and len(hero_now.used) == 2:
        closing = [_discard(after, hero_now), TurnEnded(hero.seat)]
        events += closing
        after = _apply(after, closing)
    return events, after


def _discard(state: State, hero: Hero) -> CardsDiscarded:
    """GH-3: both cards to the discard pile, or lost when the action performed was a lost one."""
    discarded, lost = [], []
    for card_id, half in hero.used:
        card = _card(state, card_id)
        (lost if (card.top_lost if half == "top" else card.bottom_lost) else discarded).append(card_id)
    return CardsDiscarded(hero.seat, tuple(discarded), tuple(lost))


def _character_action(state: State, me: Figure, action: Any, command: PlayCard, rng: Any) -> list | Rejection:
    if action.kind == "move":
        return _character_move(state, me, action, command.path)
    if action.kind == "attack":
        return _character_attack(state, me, action, command.targets, rng)
    if action.kind == "heal":
        return _character_heal(state, me, action, command.targets)
    return _character_summon(state, me, action, command.path)


def _hex(value: Any) -> tuple | None:
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None


def _character_move(state: State, me: Figure, action: Any, path: tuple) -> list | Rejection:
    """A character's move along the hexes it names (GH-4; GH-5 with jump)."""
    if not path:
        return []
    hexmap = hexmap_of(state)
    occupied = {f.hex: f for f in state.figures if f.id != me.id}
    jump = action.jump
    rule = "GH-5" if jump else "GH-4"
    here = me.hex
    spent = 0
    for i, step in enumerate(path):
        hex = _hex(step)
        if hex is None:
            return Rejection("GH-4", f"path[{i}] must be a hex [q, r], got {step!r}")
        if hex not in hexmap:
            return Rejection("GH-C1", f"hex {list(hex)} is not on the map")
        if hex not in hexmap.adjacent(here, through_closed=True):
            if hex_distance(here, hex) == 1:
                return Rejection("GH-C1", f"a wall lies between {list(here)} and {list(hex)}")
            return Rejection(rule, f"{list(hex)} is not next to {list(here)}: a path goes one hex at a time")
        last = i == len(path) - 1
        if not jump:
            if hex in state.map.obstacles:
                return Rejection("GH-4", f"hex {list(hex)} holds an obstacle")
            other = occupied.get(hex)
            if other is not None and _team(other) != _team(me):
                return Rejection("GH-4", f"hex {list(hex)} holds an enemy, {other.id}: no figure moves through enemies")
            spent += 2 if hex in state.map.difficult else 1
        else:
            spent += 2 if last and hex in state.map.difficult else 1
        here = hex
    if spent > action.value:
        return Rejection(rule, f"that path costs {spent} movement points; the move is {action.value}")
    end = here
    if end in occupied:
        return Rejection(rule, f"a move cannot end in an occupied hex: {list(end)} holds {occupied[end].id}")
    if end in state.map.obstacles:
        return Rejection(rule, f"a {'jump' if jump else 'move'} cannot end on the obstacle at {list(end)}")
    return _movement_events(state, me, tuple(path), "jump" if jump else "walk", spent, rule)


def _movement_events(state: State, mover: Figure, path: tuple, mode: str, cost: int, rule: str) -> list:
    """FigureMoved, then what the hexes entered do (GH-4, GH-5, GH-C1); stops where the mover falls."""
    if mode == "walk":
        entered = tuple(enumerate(path))
    else:
        entered = ((len(path) - 1, path[-1]),) if mode == "jump" else ()
    hp = mover.hp
    effects: list = []
    stop = len(path)
    traps = set(state.traps)
    for index, hex in entered:
        if mover.kind == "character" and hex in state.map.doors and hex not in state.open_doors:
            effects.append(DoorOpened(mover.id, hex))
        damage = 0
        if hex in traps:
            damage = trap_damage(state)
            traps.discard(hex)
            effects.append(TrapSprung(mover.id, hex, damage, "GH-5" if mode == "jump" else "GH-4"))
        elif hex in state.map.hazardous:
            damage = trap_damage(state) // 2
            effects.append(HazardEntered(mover.id, hex, damage, "GH-4"))
        hp -= damage
        if damage and (hp < 1 if mover.kind == "character" else hp <= 0):
            stop = index + 1
            break
    events: list = [FigureMoved(mover.id, mover.hex, path[:stop], mode, cost, rule)] + effects
    if mover.kind == "character" and hp < 1:
        events.append(CharacterExhausted(mover.seat, "damage", "GH-1"))
    elif mover.kind != "character" and hp <= 0:
        events.append(FigureDied(mover.id))
    return events


def _in_range(hexmap: HexMap, here: tuple, there: tuple, reach: int) -> bool:
    """In range counted around walls and in line of sight; reach 1 is adjacency (GH-C1)."""
    if reach <= 1:
        return hexmap.are_adjacent(here, there)
    distance = hexmap.range_between(here, there)
    return distance is not None and distance <= reach and hexmap.line_of_sight(here, there)


def _character_attack(state: State, me: Figure, action: Any, targets: tuple, rng: Any) -> list | Rejection:
    if not targets:
        return Rejection("GH-C5", "an attack names at least one target (or play the card with skip)")
    if len(targets) > action.targets:
        return Rejection("GH-C5", f"this attack has {action.targets} target(s), got {len(targets)}")
    if len(set(targets)) != len(targets):
        return Rejection("GH-C5", "a target is named twice")
    hexmap = hexmap_of(state)
    reach = max(1, action.range)
    for target_id in targets:
        target = figure_of(state, target_id) if isinstance(target_id, str) else None
        if target is None or target.kind != "monster":
            return Rejection("GH-C5", f"{target_id!r} is not a monster on the map")
        if not _in_range(hexmap, me.hex, target.hex, reach):
            distance = hexmap.range_between(me.hex, target.hex)
            if action.range == 0:
                return Rejection("GH-C5", f"{target_id} is not adjacent (a melee attack)")
            if distance is None or distance > reach:
                return Rejection("GH-C5", f"{target_id} is {distance} hexes away around walls; range is {reach}")
            return Rejection("GH-C1", f"no line from a corner of {list(me.hex)} to a corner of {list(target.hex)} "
                             "clears the walls")
    return _attacks(state, me, action.value, action.range, targets, me.seat, rng, action.advantage)


def _character_heal(state: State, me: Figure, action: Any, targets: tuple) -> list | Rejection:
    if len(targets) != 1:
        return Rejection("GH-C3", f"a heal names one figure, got {len(targets)}")
    target = figure_of(state, targets[0]) if isinstance(targets[0], str) else None
    if target is None or _team(target) != _team(me):
        return Rejection("GH-C3", f"{targets[0]!r} is not an ally on the map")
    if target.id != me.id:
        if action.range == 0:
            return Rejection("GH-C3", "this heal is on self only")
        if not _in_range(hexmap_of(state), me.hex, target.hex, action.range):
            return Rejection("GH-C3", f"{target.id} is out of range {action.range} or out of sight")
    amount = min(action.value, target.max_hp - target.hp)
    return [FigureHealed(target.id, amount, target.hp + amount)]


def _character_summon(state: State, me: Figure, action: Any, path: tuple) -> list | Rejection:
    if len(path) != 1 or _hex(path[0]) is None:
        return Rejection("GH-8", "a summon names the one hex [q, r] it appears in")
    hex = path[0]
    hexmap = hexmap_of(state)
    if not hexmap.are_adjacent(me.hex, hex):
        return Rejection("GH-8", f"a summon appears next to its summoner; {list(hex)} is not")
    if hex in state.map.obstacles or any(f.hex == hex for f in state.figures):
        return Rejection("GH-4", f"hex {list(hex)} is not free")
    summon = next(s for s in _class(state, me.name).summons if s.name == action.summon)
    number = 1 + max([f.number for f in state.figures if f.kind == "summon" and f.seat == me.seat] + [0])
    figure = Figure(f"{me.seat}-s{number}", "summon", summon.name, "", number, me.seat, hex, summon.stats.hp,
                    summon.stats.hp, summon.stats, summon.flying, state.round)
    return [FigureSummoned(me.seat, figure)]


def _decide_rest_lose(state: State, hero: Hero, command: RestLose) -> tuple | Rejection:
    if state.phase != "act" or state.acting != hero.seat or state.pending is not None:
        return _not_your_turn(state, hero.seat)
    if not hero.long_rest:
        return Rejection("GH-C6", f"{hero.seat} is not on a long rest this round")
    if command.card not in hero.discard:
        return Rejection("GH-C6", f"card {command.card!r} is not in {hero.seat}'s discard pile "
                         f"({', '.join(hero.discard)})")
    me = figure_of(state, hero.seat)
    returned = tuple(card for card in hero.discard if card != command.card)
    events = [LongRested(hero.seat, command.card, returned, min(2, me.max_hp - me.hp)), TurnEnded(hero.seat)]
    return events, _apply(state, events)


# --- attacks (GH-C5) ------------------------------------------------------------------------------------


def _remaining(deck: Deck) -> tuple:
    """The cards left in a modifier deck, one entry per physical card, in a fixed order."""
    left = []
    for name, count in MODIFIERS:
        left += [name] * (count - deck.drawn.count(name))
    return tuple(left)


def _effect(card: str, value: int) -> int:
    if card == "null":
        return 0
    if card == "x2":
        return value * 2
    return max(0, value + int(card))


def _attacks(state: State, attacker: Figure, value: int, range: int, targets: tuple, owner: str, rng: Any,
             advantage: bool = False) -> list:
    """One modifier draw per target (two with advantage or disadvantage), damage, and what it does (GH-C5).

    A ranged attack on an adjacent target has disadvantage; advantage and disadvantage together
    cancel (rulebook p. 20). A deck with fewer cards left than the draw needs is shuffled whole
    first, so every draw of one attack comes from one deck.
    """
    events: list = []
    after = state
    for target_id in targets:
        target = figure_of(after, target_id)
        if target is None:
            continue
        disadvantage = range > 0 and hexmap_of(after).are_adjacent(attacker.hex, target.hex)
        two = advantage != disadvantage
        left = _remaining(_deck(after, owner))
        if len(left) < (2 if two else 1):
            shuffle = DeckReshuffled(owner)
            events.append(shuffle)
            after = evolve(after, shuffle)
            left = _remaining(_deck(after, owner))
        first = rng.pick(left, face=MODIFIER_FACES.get)
        drawn = (first,)
        if two:
            rest = list(left)
            rest.remove(first)
            drawn = (first, rng.pick(tuple(rest), face=MODIFIER_FACES.get))
        if not two:
            used, effect = first, ""
        elif advantage:
            used, effect = max(drawn, key=lambda card: _effect(card, value)), "advantage"
        else:
            used, effect = min(drawn, key=lambda card: _effect(card, value)), "disadvantage"
        damage = _effect(used, value)
        hp = target.hp - damage
        event = AttackResolved(attacker.id, target.id, owner, value, drawn, used, effect, damage, hp)
        events.append(event)
        after = evolve(after, event)
        if target.kind == "character" and hp < 1:
            exhausted = CharacterExhausted(target.seat, "damage", "GH-1")
            events.append(exhausted)
            after = evolve(after, exhausted)
        elif target.kind != "character" and hp <= 0:
            died = FigureDied(target.id)
            events.append(died)
            after = evolve(after, died)
    return events


# --- monsters' and summons' turns (GH-6, GH-7, GH-8, GH-C3, GH-C4) --------------------------------------


def _card_of(state: State, figure: Figure) -> Any:
    group = _group(state, figure.name)
    return next(card for card in _type(state, figure.name).deck if card.id == group.card)


def _abilities(state: State, figure: Figure) -> tuple:
    """(move or None, jump, Attack or None, attack value, heal): a monster's card on its stats, or a summon's stats."""
    stats = figure.stats
    if figure.kind == "summon":
        return stats.move, False, Attack(stats.range, 1, ()), stats.attack, 0
    move = None
    jump = False
    attack = None
    value = 0
    heal = 0
    for action in _card_of(state, figure).actions:
        if action.kind == "move" and move is None:
            move = max(0, stats.move + action.value)
            jump = action.jump
        elif action.kind == "attack" and attack is None:
            reach = stats.range if action.range is None else action.range
            attack = Attack(0 if action.pattern else reach, action.targets, action.pattern)
            value = max(0, stats.attack + action.value)
        elif action.kind == "heal":
            heal += action.value
    return move, jump, attack, value, heal


def field_of(state: State) -> Field:
    """The map and figures as a monster's turn sees them; ``order`` ranks initiative order (GH-6)."""
    index = {figure_id: i for i, (figure_id, _init) in enumerate(state.order)}
    initiative = dict(state.order)
    raw = []
    for figure in state.figures:
        if figure.id in index:
            rank = (index[figure.id], 1, 0)
        elif figure.kind == "summon" and figure.seat in index:
            rank = (index[figure.seat], 0, figure.number)  # GH-6: summons before their summoner
        else:
            rank = (len(state.order), 1, 0)
        init = initiative.get(figure.id, initiative.get(figure.seat, LONG_REST_INITIATIVE))
        raw.append((rank, figure, init))
    raw.sort(key=lambda item: (item[0], item[1].id))
    closed = tuple(hex for hex in state.map.doors if hex not in state.open_doors)
    bodies = tuple(Body(figure.id, figure.hex, _team(figure), position, init)
                   for position, (_rank, figure, init) in enumerate(raw))
    return Field(HexMap(state.map.hexes, state.map.thin_walls, closed), frozenset(state.map.obstacles),
                 frozenset(state.traps), frozenset(state.map.hazardous), frozenset(state.map.difficult), bodies)


def plan_for(state: State, figure: Figure) -> Any:
    move, jump, attack, _value, _heal = _abilities(state, figure)
    mode = "fly" if figure.flying else ("jump" if jump else "walk")
    return monster_turn(field_of(state), figure.id, move or 0, attack, mode)


def _monster_turn(state: State, figure: Figure, rng: Any) -> list:
    """TurnStarted, the plan with its trace, and the act itself unless the players must choose."""
    plan = plan_for(state, figure)
    events: list = [TurnStarted(figure.id),
                    MonsterTurnPlanned(figure.id, plan.focus, plan.candidates, plan.decided_by, plan.options, "GH-6")]
    if len(plan.options) > 1:
        return events  # evolve sets the pending choice: ties go to the players (GH-C4)
    after = _apply(state, events)
    if plan.options:
        chosen = OptionChosen("", figure.id, 0, plan.options[0], "GH-7")
        events.append(chosen)
        events += _execute(evolve(after, chosen), figure, plan.options[0], rng)
    else:
        events += _other_abilities(after, figure) + [TurnEnded(figure.id)]
    return events


def _other_abilities(state: State, figure: Figure) -> list:
    _move, _jump, _attack, _value, heal = _abilities(state, figure)
    if heal and figure.kind == "monster":
        amount = min(heal, figure.max_hp - figure.hp)
        return [FigureHealed(figure.id, amount, figure.hp + amount)]
    return []


def _execute(state: State, figure: Figure, option: Any, rng: Any) -> list:
    """Move along the option's path (GH-7), then attack its targets (GH-C5), then the card's other lines."""
    move, jump, attack, value, _heal = _abilities(state, figure)
    events: list = []
    after = state
    if option.path:
        mode = "fly" if figure.flying else ("jump" if jump else "walk")
        moved = _movement_events(after, figure, option.path, mode, option.movement,
                                 "GH-5" if mode != "walk" else "GH-7")
        events += moved
        after = _apply(after, moved)
    me = figure_of(after, figure.id)
    if me is not None and attack is not None and option.attacks:
        owner = MONSTERS if figure.kind == "monster" else figure.seat  # GH-8: the summoner's deck
        hits = _attacks(after, me, value, attack.range, option.attacks, owner, rng)
        events += hits
        after = _apply(after, hits)
    me = figure_of(after, figure.id)
    if me is not None:
        extra = _other_abilities(after, me)
        events += extra
    events.append(TurnEnded(figure.id))
    return events


def _decide_option(state: State, seat: str, command: ChooseOption, rng: Any) -> tuple | Rejection:
    pending = state.pending
    if pending is None or pending.kind != "monster":
        return Rejection("GH-C4", "no monster is waiting for the players to choose")
    if seat not in pending.seats:
        return Rejection("GH-C4", f"{seat} is exhausted and takes no part in this choice")
    index = command.index
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(pending.options):
        return Rejection("GH-C4", f"choose an option from 0 to {len(pending.options) - 1}, got {index!r}")
    figure = figure_of(state, pending.about[0])
    option = pending.options[index]
    chosen = OptionChosen(seat, figure.id, index, event_option(option), "GH-C4")
    after = evolve(state, chosen)
    events = [chosen] + _execute(after, figure, option, rng)
    return events, _apply(after, events[1:])


# --- the end of a round (GH-C2, GH-C5, GH-C6) -----------------------------------------------------------


def _decide_short_rest(state: State, hero: Hero, command: ShortRest, rng: Any) -> tuple | Rejection:
    pending = state.pending
    if pending is None or pending.kind != "short-rest":
        return Rejection("GH-C6", "short rests are offered at the end of a round only")
    if hero.seat not in pending.seats:
        return Rejection("GH-C6", f"{hero.seat} has no short rest to take or decline now")
    if command.rest is True:
        lost = rng.pick(hero.discard, face=lambda card_id: _card(state, card_id).initiative)
        event = ShortRested(hero.seat, lost, tuple(card for card in hero.discard if card != lost))
    elif command.rest is False:
        event = ShortRestDeclined(hero.seat)
    else:
        return Rejection("GH-C6", f"rest must be true or false, got {command.rest!r}")
    after = evolve(state, event)
    events = [event]
    if after.pending is None:
        closing = _end_round(after)
        events += closing
        after = _apply(after, closing)
    return events, after


def _end_round(state: State) -> list:
    reshuffled = []
    for deck in state.decks:
        if "x2" in deck.drawn or "null" in deck.drawn:
            reshuffled.append(deck.owner)
    for group in state.groups:
        if group.card is not None and next(c for c in _type(state, group.name).deck if c.id == group.card).shuffle:
            reshuffled.append(group.name)
    events: list = [RoundEnded(state.round, tuple(reshuffled))]
    if state.round >= state.rounds:
        events.append(GameEnded("out of rounds", state.round))
        return events
    events.append(RoundStarted(state.round + 1))
    return events


def _round_start_exhaustion(state: State) -> list:
    """GH-1: a round starts; whoever can neither play two cards nor rest is exhausted."""
    return [CharacterExhausted(hero.seat, "cards", "GH-1") for hero in _living_heroes(state)
            if len(hero.hand) < 2 and len(hero.discard) < 2]


def _advance(state: State, rng: Any) -> list:
    """Run everything that needs no player: reveals, monster turns, round ends, until someone must act."""
    events: list = []
    for _guard in range(500):
        step = _next_step(state, rng)
        if not step:
            return events
        events += step
        state = _apply(state, step)
    raise RuntimeError("gloomhaven: the round did not settle after 500 automatic steps")


def _next_step(state: State, rng: Any) -> list:
    if state.phase == "over" or state.pending is not None:
        return []
    if not _living_heroes(state):
        return [GameEnded("lost", state.round)]
    if not _monsters(state):
        return [GameEnded("won", state.round)]
    if state.phase == "select":
        exhausted = _round_start_exhaustion(state)
        if exhausted:
            return exhausted
        waiting = [hero for hero in _living_heroes(state) if hero.pick is None]
        if waiting:
            return []
        events = _reveal(state, rng)
        return events + _order_or_tie(_apply(state, events))
    if state.phase != "act":
        return []
    if state.acting is not None:
        figure = figure_of(state, state.acting)
        if figure is None:  # it fell during its own turn
            return [TurnEnded(state.acting)]
        return []  # a character's turn under way
    if state.current >= len(state.order):
        offers = tuple(hero.seat for hero in _living_heroes(state) if len(hero.discard) >= 2)
        if offers:
            return [ShortRestOffered(offers)]
        return _end_round(state)
    figure_id = state.order[state.current][0]
    figure = figure_of(state, figure_id)
    if figure.kind == "character":
        return [TurnStarted(figure_id)]
    return _monster_turn(state, figure, rng)


# --- evolve ----------------------------------------------------------------------------------------------


def _replace_hero(state: State, seat: str, **changes: Any) -> tuple:
    return tuple(_hero(h, **changes) if h.seat == seat else h for h in state.heroes)


def _replace_figure(state: State, figure_id: str, **changes: Any) -> tuple:
    return tuple(_figure(f, **changes) if f.id == figure_id else f for f in state.figures)


def _next_alive(state: State, start: int) -> int:
    ids = {f.id for f in state.figures}
    index = start
    while index < len(state.order) and state.order[index][0] not in ids:
        index += 1
    return index


def evolve(state: Any, event: Any) -> State:
    """One event folded into a new state; the input is never touched."""
    s = state
    match event:
        case GameStarted():
            return initial_state(event)
        case RoundStarted(round):
            heroes = tuple(_hero(h, active=(), pick=None, long_rest=False, initiative=None, secondary=None, used=())
                           for h in s.heroes)
            groups = tuple(Group(g.name, None, g.drawn) for g in s.groups)
            after = _state(s, heroes=heroes, groups=groups, round=round, phase="select", order=(), current=0,
                           acting=None, settled=(), pending=None)
            return after
        case CharacterExhausted(seat, _cause, _rule):
            hero = hero_of(s, seat)
            cards = hero.hand + hero.discard + hero.lost + hero.active
            heroes = _replace_hero(s, seat, hand=(), discard=(), lost=cards, active=(), pick=None, exhausted=True)
            figures = tuple(f for f in s.figures if f.seat != seat)  # the figure and its summons leave
            return _state(s, heroes=heroes, figures=figures, pending=_without_seat(s.pending, seat))
        case CardsSelected(seat, cards, leading, long_rest, sealed):
            pick = None if sealed else Pick(cards, leading, long_rest)
            return _state(s, heroes=_replace_hero(s, seat, pick=Sealed(pick)))
        case CardsRevealed(picks):
            heroes = s.heroes
            for seat, cards, leading, long_rest in picks:
                hero = next(h for h in heroes if h.seat == seat)
                if long_rest:
                    changes = {"long_rest": True, "initiative": LONG_REST_INITIATIVE, "secondary": LONG_REST_INITIATIVE}
                else:
                    other = cards[1] if cards[0] == leading else cards[0]
                    changes = {"initiative": _card(s, leading).initiative, "secondary": _card(s, other).initiative,
                               "active": cards, "hand": tuple(c for c in hero.hand if c not in cards)}
                heroes = tuple(_hero(h, pick=None, **changes) if h.seat == seat else h for h in heroes)
            return _state(s, heroes=heroes)
        case MonsterCardDrawn(name, card, _initiative):
            monster_type = _type(s, name)
            groups = []
            for g in s.groups:
                if g.name == name:
                    drawn = g.drawn if len(g.drawn) < len(monster_type.deck) else ()
                    g = Group(name, card, drawn + (card,))
                groups.append(g)
            return _state(s, groups=tuple(groups))
        case TieOffered(kind, group, seats_, _rule):
            return _state(s, phase="order", pending=Pending(kind, seats_, group, ()))
        case OrderChosen(_seat, _group, order, _rule):
            return _state(s, settled=s.settled + (order,), pending=None)
        case InitiativeSet(order, _notes, _rule):
            after = _state(s, phase="act", order=order, current=0, acting=None, pending=None)
            return _state(after, current=_next_alive(after, 0))
        case TurnStarted(figure):
            after = _state(s, acting=figure)
            if figure in {h.seat for h in s.heroes}:
                after = _state(after, heroes=_replace_hero(after, figure, used=()))
            return after
        case CardPlayed(seat, card, half, _action, _skipped):
            hero = hero_of(s, seat)
            return _state(s, heroes=_replace_hero(s, seat, used=hero.used + ((card, half),)))
        case FigureMoved(figure, _start, path, _mode, _cost, _rule):
            if not path:
                return s
            return _state(s, figures=_replace_figure(s, figure, hex=path[-1]))
        case DoorOpened(_figure, hex):
            return _state(s, open_doors=tuple(sorted(s.open_doors + (hex,))))
        case TrapSprung(figure, hex, damage, _rule):
            f = figure_of(s, figure)
            return _state(s, figures=_replace_figure(s, figure, hp=f.hp - damage),
                          traps=tuple(t for t in s.traps if t != hex))
        case HazardEntered(figure, _hex, damage, _rule):
            f = figure_of(s, figure)
            return _state(s, figures=_replace_figure(s, figure, hp=f.hp - damage))
        case AttackResolved(_attacker, target, deck, _value, drawn, _used, _effect, _damage, hp):
            decks = tuple(Deck(d.owner, d.drawn + drawn) if d.owner == deck else d for d in s.decks)
            return _state(s, decks=decks, figures=_replace_figure(s, target, hp=hp))
        case DeckReshuffled(deck):
            return _state(s, decks=tuple(Deck(d.owner, ()) if d.owner == deck else d for d in s.decks))
        case FigureDied(figure):
            return _state(s, figures=tuple(f for f in s.figures if f.id != figure))
        case FigureHealed(figure, _amount, hp):
            return _state(s, figures=_replace_figure(s, figure, hp=hp))
        case FigureSummoned(_seat, figure):
            return _state(s, figures=s.figures + (figure,))
        case MonsterTurnPlanned(figure, _focus, _candidates, _decided, options, _rule):
            if len(options) > 1:
                who = tuple(h.seat for h in _living_heroes(s))
                return _state(s, pending=Pending("monster", who, (figure,), pending_options(options)))
            return s
        case OptionChosen():
            return _state(s, pending=None)
        case TurnEnded(figure):
            hero = hero_of(s, figure)
            after = s
            if hero is not None:
                after = _state(s, heroes=_replace_hero(s, figure, used=()))
            return _state(after, acting=None, current=_next_alive(after, s.current + 1))
        case CardsDiscarded(seat, discarded, lost):
            hero = hero_of(s, seat)
            return _state(s, heroes=_replace_hero(s, seat, active=(), discard=hero.discard + discarded,
                                                  lost=hero.lost + lost))
        case LongRested(seat, lost, returned, healed):
            hero = hero_of(s, seat)
            f = figure_of(s, seat)
            heroes = _replace_hero(s, seat, discard=(), lost=hero.lost + (lost,), hand=hero.hand + returned)
            return _state(s, heroes=heroes, figures=_replace_figure(s, seat, hp=f.hp + healed))
        case ShortRestOffered(seats_):
            return _state(s, phase="rest", pending=Pending("short-rest", seats_, (), ()))
        case ShortRested(seat, lost, returned):
            hero = hero_of(s, seat)
            heroes = _replace_hero(s, seat, discard=(), lost=hero.lost + (lost,), hand=hero.hand + returned)
            return _state(s, heroes=heroes, pending=_without_seat(s.pending, seat))
        case ShortRestDeclined(seat):
            return _state(s, pending=_without_seat(s.pending, seat))
        case RoundEnded(_round, reshuffled):
            decks = tuple(Deck(d.owner, ()) if d.owner in reshuffled else d for d in s.decks)
            groups = tuple(Group(g.name, None, () if g.name in reshuffled else g.drawn) for g in s.groups)
            return _state(s, decks=decks, groups=groups, phase="ended", order=(), current=0, acting=None,
                          pending=None)
        case GameEnded(outcome, _round):
            return _state(s, phase="over", outcome=outcome, pending=None, acting=None)
    if isinstance(event, (SecretRevealed, RulesVersionChanged, RulesVersionProposed, RulesVersionAnswered)):
        return s  # CORE-2, CORE-3: the core's events (later than a1151df); they change no state
    raise TypeError(f"gloomhaven cannot fold an event of type {type(event).__name__}")


def _without_seat(pending: Pending | None, seat: str) -> Pending | None:
    if pending is None or seat not in pending.seats:
        return pending
    seats_ = tuple(s for s in pending.seats if s != seat)
    if not seats_:
        return None
    return Pending(pending.kind, seats_, pending.about, pending.options)


# --- legal -----------------------------------------------------------------------------------------------


def legal(state: Any, seat: str) -> list:
    """The commands ``decide`` accepts from ``seat`` now (one path per reachable hex, for bots and hints)."""
    if seat not in turn(state):
        return []
    hero = hero_of(state, seat)
    pending = state.pending
    if pending is not None:
        if pending.kind in ("initiative", "monster-order"):
            return [ChooseOrder(order) for order in _permutations(pending.about)]
        if pending.kind == "monster":
            return [ChooseOption(index) for index in range(len(pending.options))]
        return [ShortRest(True), ShortRest(False)]
    if state.phase == "select":
        out: list = []
        if len(hero.hand) >= 2:
            for i, a in enumerate(hero.hand):
                for b in hero.hand[i + 1:]:
                    out += [SelectCards((a, b), a), SelectCards((a, b), b)]
        if len(hero.discard) >= 2:
            out.append(DeclareLongRest())
        return out
    if hero.long_rest:
        return [RestLose(card) for card in hero.discard]
    out = []
    me = figure_of(state, seat)
    for card_id in hero.active:
        if any(used == card_id for used, _half in hero.used):
            continue
        card = _card(state, card_id)
        for half, action in (("top", card.top), ("bottom", card.bottom)):
            if any(used_half == half for _used, used_half in hero.used):
                continue
            out.append(PlayCard(card_id, half, skip=True))
            out += [PlayCard(card_id, half, path=path) if action.kind in ("move", "summon")
                    else PlayCard(card_id, half, targets=targets)
                    for path, targets in _action_options(state, me, action)]
    return out


def _permutations(items: tuple) -> list:
    if len(items) <= 1:
        return [items]
    out = []
    for i, item in enumerate(items):
        for rest in _permutations(items[:i] + items[i + 1:]):
            out.append((item,) + rest)
    return out


def _action_options(state: State, me: Figure, action: Any) -> list:
    """(path, targets) pairs a character's action may take now."""
    hexmap = hexmap_of(state)
    if action.kind == "move":
        return [(path, ()) for _hex, path in sorted(character_moves(state, me, action).items())]
    if action.kind == "attack":
        reach = max(1, action.range)
        enemies = [f for f in state.figures if f.kind == "monster" and _in_range(hexmap, me.hex, f.hex, reach)]
        options = [((), (f.id,)) for f in enemies]
        if action.targets > 1 and len(enemies) > 1:
            options.append(((), tuple(f.id for f in enemies[: action.targets])))
        return options
    if action.kind == "heal":
        allies = [f for f in state.figures if _team(f) == "players"
                  and (f.id == me.id or (action.range > 0 and _in_range(hexmap, me.hex, f.hex, action.range)))]
        return [((), (f.id,)) for f in allies]
    taken = {f.hex for f in state.figures}
    return [((hex,), ()) for hex in hexmap.adjacent(me.hex)
            if hex not in taken and hex not in state.map.obstacles]


def character_moves(state: State, me: Figure, action: Any) -> dict:
    """Every hex a character's move can end in -> a path there entering the fewest negative hexes (GH-4, GH-5)."""
    hexmap = hexmap_of(state)
    others = {f.hex: f for f in state.figures if f.id != me.id}
    negative = set(state.traps) | set(state.map.hazardous)

    def through(hex: tuple) -> tuple:
        return hexmap.adjacent(hex, through_closed=True)

    if action.jump:
        cost, parent = hexmap_paths((me.hex,), through, lambda a, b: (0, 1), (0, 0))
    else:
        def step(here: tuple, there: tuple) -> tuple | None:
            other = others.get(there)
            if there in state.map.obstacles or (other is not None and _team(other) != _team(me)):
                return None
            return (1 if there in negative else 0, 2 if there in state.map.difficult else 1)

        cost, parent = hexmap_paths((me.hex,), through, step, (0, 0))
    out = {}
    for hex, (_negative, spent) in cost.items():
        if hex == me.hex or hex in others or hex in state.map.obstacles:
            continue
        if action.jump and hex in state.map.difficult:
            spent += 1
        if spent <= action.value:
            out[hex] = hexmap_path_to(parent, hex)
    return out


# --- explain -----------------------------------------------------------------------------------------------


def trace(event: Any) -> list:
    """The reasoning behind an event, for ``chronicle explain`` and the log panel."""
    match event:
        case MonsterTurnPlanned(figure, focus, candidates, decided_by, options, _rule):
            lines = []
            for c in candidates:
                if c.reachable:
                    lines.append(f"{figure} considers {c.figure}: path to an attack hex enters {c.negative} negative "
                                 f"hex(es) and costs {c.movement} movement; proximity {c.proximity}; initiative "
                                 f"{c.initiative} (order {c.order})")
                else:
                    lines.append(f"{figure} considers {c.figure}: no hex to attack it from can be reached (GH-C4)")
            if not focus:
                lines.append(f"{figure} has no focus: it neither moves nor attacks (GH-C4)")
                return lines
            lines.append(f"focus {', '.join(focus)}: decided by {decided_by}")
            for i, option in enumerate(options):
                where = " → ".join(f"[{q}, {r}]" for q, r in option.path) or "stays"
                hits = ", ".join(option.attacks) or "no attack"
                lines.append(f"option {i}: {where}; attacks {hits}"
                             + ("; with disadvantage" if option.disadvantage else ""))
            if len(options) > 1:
                lines.append("these options are equally good: the players choose (GH-C4)")
            return lines
        case InitiativeSet(order, notes, _rule):
            return [" → ".join(f"{figure} ({initiative})" for figure, initiative in order)] + list(notes)
        case AttackResolved(attacker, target, deck, value, drawn, used, effect, damage, hp):
            how = f" ({effect}: drew {', '.join(drawn)}, used {used})" if effect else f" (drew {used})"
            return [f"{attacker} attacks {target} for {value}{how} from the {deck} deck: {damage} damage, "
                    f"{hp} hit points left"]
        case FigureMoved(figure, start, path, mode, cost, _rule):
            route = " → ".join(f"[{q}, {r}]" for q, r in (start,) + path)
            return [f"{figure} {mode}s {route} for {cost} movement point(s)"]
    return []

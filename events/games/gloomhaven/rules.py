"""Gloomhaven's round as a decider: start, decide, evolve, legal (shared/rules/gloomhaven.md).

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
from events.game import Flow, GameStarted, Guards, RulesVersionChanged, SecretRevealed
from events.games.gloomhaven import board as boards
from events.games.gloomhaven.focus import Attack, Body, Field, monster_turn, tied_orders
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
    OrderProposed,
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
    VariantState,
)
from events.geometry.hexgrid import hex_distance
from events.geometry.hexmap import HexMap, hexmap_path_to, hexmap_paths
from events.lookup import by_id
from events.rules import Rejection, named, phrase, refuse
from events.upgrade import RulesVersionAnswered, RulesVersionProposed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted.
RULES_VERSION = "gloomhaven-2"  # 2: GH-C7 sight, GH-C8…GH-C11 monster turns, PlayCard.to (issues 14, 15)

MONSTERS = "monsters"
MODIFIERS = (("+0", 6), ("+1", 5), ("-1", 5), ("+2", 1), ("-2", 1), ("x2", 1), ("null", 1))
#: How a loaded die names a modifier card (``chronicle play --dice``, tests): its value, 10 for 2x, -10 for Null.
MODIFIER_FACES = {"+0": 0, "+1": 1, "-1": -1, "+2": 2, "-2": -2, "x2": 10, "null": -10}
LONG_REST_INITIATIVE = 99
#: The opening checks of every decide (events.game.Guards): not started, over, unknown seat, foreign command.
GUARDS = Guards("GH-C2", over="the scenario is over ({outcome})", keys="reject.gloomhaven",
                words={"outcome": ("won", "lost", "out of rounds")})


# --- start --------------------------------------------------------------------------------------------


def start(scenario: dict, commitment: str) -> list:
    """The first events: the scenario validated (raises ScenarioError) and recorded whole; round 1."""
    setup = boards.load_scenario(scenario)
    seats = tuple(seat for seat, _cls, _hex in setup.characters)
    return [GameStarted("gloomhaven", RULES_VERSION, commitment, seats, canonical_json(scenario)), RoundStarted(1)]


def initial_state(event: GameStarted, variants: bool = False) -> State:
    """The first state; ``variants``: the version folding it knows a scenario's ``variant`` (gloomhaven-4),
    which makes the state a ``VariantState`` (GH-V1, GH-V2). Without it the key is refused, as released."""
    import json

    setup = boards.load_scenario(json.loads(event.scenario), variants=variants)
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
    state = State(
        setup.title, setup.level, setup.map, tuple(classes[name] for _s, name, _h in setup.characters),
        tuple(types[name] for name in used), tuple(figures), tuple(heroes),
        tuple(Group(name, None, ()) for name in used),
        (Deck(MONSTERS, ()),) + tuple(Deck(seat, ()) for seat, _c, _h in setup.characters),
        setup.map.traps, (), 0, setup.rounds, "select", (), 0, None, (), None, None,
    )
    return VariantState(*state.fields(), setup.variant) if setup.variant else state


# --- small helpers -------------------------------------------------------------------------------------


def hero_of(state: State, seat: str) -> Hero | None:
    return by_id(state.heroes, seat, "seat")


def figure_of(state: State, figure_id: str) -> Figure | None:
    return by_id(state.figures, figure_id)


def _card(state: State, card_id: str) -> Any:
    """A character's ability card by its id, whichever class's it is."""
    for cls in state.classes:
        card = by_id(cls.cards, card_id)
        if card is not None:
            return card
    return None


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
        figure = by_id(state.figures, state.acting)
        if figure is not None and figure.kind == "character":
            return (figure.seat,)
    return ()


# --- decide --------------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any, edition: int = 2) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it.

    ``edition`` the released rules version whose monster turns are played (``plan_for``): gloomhaven-2
    (also 3 and 4) or 5, which lets the players' choice of acting order reach summons (GH-C11); from 7 a
    move naming its destination alone is refused where equally cheap walks there do different things
    (``walks_apart``, GH-4)."""
    hero = by_id(state.heroes, seat, "seat")  # a seat of a game under way, a command of ours: GUARDS ran first
    flow = Flow(state, evolve)  # every event folded once, here; the Table keeps the states
    if isinstance(command, (SelectCards, DeclareLongRest)):
        refused = _decide_pick(flow, hero, command)
    elif isinstance(command, ChooseOrder):
        refused = _decide_order(flow, seat, command, edition)
    elif isinstance(command, PlayCard):
        refused = _decide_play(flow, hero, command, rng, edition)
    elif isinstance(command, RestLose):
        refused = _decide_rest_lose(flow, hero, command)
    elif isinstance(command, ChooseOption):
        refused = _decide_option(flow, seat, command, rng)
    else:
        refused = _decide_short_rest(flow, hero, command, rng)
    if refused is not None:
        return refused
    _advance(flow, rng, edition)
    return flow


# --- picks and the reveal (GH-C2, GH-2, GH-C3) ---------------------------------------------------------


def _decide_pick(flow: Flow, hero: Hero, command: Any) -> Rejection | None:
    state = flow.state
    if state.phase != "select":
        return refuse("GH-C2", "reject.gloomhaven.pick_later", "cards are picked at the start of a round; round "
                      "{round} is under way", round=state.round)
    if hero.exhausted:
        return refuse("GH-1", "reject.gloomhaven.exhausted", "{seat} is exhausted and takes no further part",
                      seat=hero.seat)
    if hero.pick is not None:
        return refuse("GH-C2", "reject.gloomhaven.already_chosen", "{seat} has already chosen for round {round}",
                      seat=hero.seat, round=state.round)
    if isinstance(command, DeclareLongRest):
        if len(hero.discard) < 2:
            return refuse("GH-C6", "reject.gloomhaven.long_rest_needs", "a long rest needs two cards in the discard "
                          "pile; {seat} has {count}", seat=hero.seat, count=len(hero.discard))
        event = CardsSelected(hero.seat, (), None, True, False)
    else:
        cards = command.cards
        if len(cards) != 2:
            return refuse("GH-C2", "reject.gloomhaven.pick_two", "pick exactly two card ids, got {cards}",
                          cards=repr(cards))
        if len(hero.hand) < 2:
            return refuse("GH-C6", "reject.gloomhaven.must_long_rest", {
                "one": "{seat} holds {n} card: it cannot play two and must long rest",
                "other": "{seat} holds {n} cards: it cannot play two and must long rest"}, seat=hero.seat, n=len(hero.hand))
        if cards[0] == cards[1]:
            return refuse("GH-C2", "reject.gloomhaven.same_card", "the two cards must differ, got {card} twice",
                          card=_card_named(state, cards[0]))
        for card in cards:
            if card not in hero.hand:
                return refuse("GH-C2", "reject.gloomhaven.not_in_hand", "card {card} is not in {seat}'s hand "
                              "({cards})", card=_card_named(state, card), seat=hero.seat,
                              cards=_cards_named(state, hero.hand))
        if command.leading not in cards:
            return refuse("GH-2", "reject.gloomhaven.leading", "the leading card must be one of the two picked, got "
                          "{leading}", leading=_card_named(state, command.leading))
        event = CardsSelected(hero.seat, tuple(cards), command.leading, False, False)
    flow.emit(event)
    return None


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
        monster_type = by_id(state.types, group.name, "name")
        left = tuple(card.id for card in monster_type.deck if card.id not in group.drawn)
        if not left:
            left = tuple(card.id for card in monster_type.deck)
        initiative = {card.id: card.initiative for card in monster_type.deck}
        chosen = rng.pick(left, face=initiative.get)  # a loaded die names the initiative
        card = by_id(monster_type.deck, chosen)
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
        card = by_id(by_id(state.types, group.name, "name").deck, group.card)
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


def _decide_order(flow: Flow, seat: str, command: ChooseOrder, edition: int = 2) -> Rejection | None:
    pending = flow.state.pending
    if pending is None or pending.kind not in ("initiative", "monster-order"):
        return refuse("GH-2", "reject.gloomhaven.no_tie", "no initiative tie is waiting for the players")
    rule = "GH-2" if pending.kind == "initiative" else "GH-C3"
    if seat not in pending.seats:
        return refuse(rule, "reject.gloomhaven.tie_settled_by", "the tie between {tied} is settled by {seats}",
                      tied=pending.about, seats=pending.seats)
    order = command.order
    if tuple(sorted(order)) != pending.about:
        return refuse(rule, "reject.gloomhaven.tie_order", "give an order of exactly {tied}, got {order}",
                      tied=pending.about, order=repr(order))
    if edition >= 7 and pending.kind == "initiative" and _still_to_agree(pending, seat, order):
        flow.emit(OrderProposed(seat, pending.about, order, rule))  # GH-2: the tied seats agree on an order
        return None
    flow.emit(OrderChosen(seat, pending.about, order, rule))
    flow.emit(*_order_or_tie(flow.state))
    return None


def _still_to_agree(pending: Pending, seat: str, order: tuple) -> tuple:
    """gloomhaven-7 (GH-2): the tied seats that have not yet answered ``order`` once ``seat`` answers it: the
    others who answered the order proposed so far (``pending.options``) keep their answer when it is the same,
    and must answer again when ``seat`` proposes another."""
    if pending.options == (order,):
        return tuple(other for other in pending.seats if other != seat)
    return tuple(other for other in pending.about if other != seat)


# --- characters' turns (GH-3, GH-4, GH-5) -------------------------------------------------------------


#: Words of a reason: a card's half (GH-3), a move or a jump (GH-4, GH-5), what the players settle (GH-C2).
HALVES = {"top": ("reject.gloomhaven.half_top", "top"), "bottom": ("reject.gloomhaven.half_bottom", "bottom")}
MOVES = {False: ("reject.gloomhaven.a_move", "move"), True: ("reject.gloomhaven.a_jump", "jump")}
CHOICES = {"initiative": ("reject.gloomhaven.choice_initiative", "an initiative choice"),
           "monster-order": ("reject.gloomhaven.choice_monster_order", "a monster order choice"),
           "monster": ("reject.gloomhaven.choice_monster", "a monster choice"),
           "short-rest": ("reject.gloomhaven.choice_short_rest", "a short rest choice")}


def _card_named(state: State, card_id: object) -> object:
    """A card in a reason: its name (issue 17: names, never ids), or what the client sent if no card has that id."""
    found = _card(state, card_id) if isinstance(card_id, str) else None
    return named(found.name, found.name) if found is not None else repr(card_id)


def _cards_named(state: State, card_ids: tuple) -> tuple:
    return tuple(_card_named(state, card_id) for card_id in card_ids)


def _figure_named(state: State, figure_id: object) -> object:
    """A figure in a reason as the log names it (words.fig): a seat, "Bandit Guard 2 (elite)", a summon's name;
    what the client sent if no figure has that id."""
    found = by_id(state.figures, figure_id) if isinstance(figure_id, str) else None
    if found is None:
        return repr(figure_id)
    if found.kind == "character":
        return phrase("reject.gloomhaven.character", "{seat}", seat=found.seat or found.id)
    if found.kind == "monster" and found.rank == "elite":
        return phrase("reject.gloomhaven.elite_monster", "{name} {number} (elite)", name=named(found.name, found.name),
                      number=found.number)
    if found.kind == "monster":
        return phrase("reject.gloomhaven.monster", "{name} {number}", name=named(found.name, found.name),
                      number=found.number)
    return named(found.name, found.name)


def _not_your_turn(state: State, seat: str) -> Rejection:
    """Why ``seat`` cannot act now, naming what the round is waiting for (GH-C2)."""
    if state.phase == "select":
        if not turn(state):
            return refuse("GH-C2", "reject.gloomhaven.selecting_nobody", "round {round} is still at card selection "
                          "(waiting for nobody): no figure acts yet", round=state.round)
        return refuse("GH-C2", "reject.gloomhaven.selecting", "round {round} is still at card selection (waiting for "
                      "{seats}): no figure acts yet", round=state.round, seats=tuple(turn(state)))
    if state.pending is not None:
        return refuse("GH-C2", "reject.gloomhaven.settle_first", "the players must first settle {kind} ({seats})",
                      kind=phrase(*CHOICES[state.pending.kind]), seats=state.pending.seats)
    if not state.acting:
        return refuse("GH-C2", "reject.gloomhaven.turn_nobody", "it is no character's turn, not {seat}'s", seat=seat)
    return refuse("GH-C2", "reject.gloomhaven.turn", "it is {seat}'s turn, not {other_seat}'s", seat=state.acting,
                  other_seat=seat)


def _decide_play(flow: Flow, hero: Hero, command: PlayCard, rng: Any, edition: int = 2) -> Rejection | None:
    state = flow.state
    if state.phase != "act" or state.acting != hero.seat or state.pending is not None:
        return _not_your_turn(state, hero.seat)
    if hero.long_rest:
        return refuse("GH-C6", "reject.gloomhaven.on_long_rest", "{seat} is on a long rest: choose the discarded card "
                      "to lose", seat=hero.seat)
    if command.card == "":  # a hex clicked before a half was chosen (client/boards/gloomhaven.py)
        return refuse("GH-3", "reject.gloomhaven.no_card", "no card is chosen: first choose the top or bottom half of "
                      "one of {seat}'s cards in play ({cards})", seat=hero.seat, cards=_cards_named(state, hero.active))
    if command.card not in hero.active:
        return refuse("GH-3", "reject.gloomhaven.not_in_play", "card {card} is not one of {seat}'s two cards in play "
                      "({cards})", card=_card_named(state, command.card), seat=hero.seat,
                      cards=_cards_named(state, hero.active))
    if command.half not in ("top", "bottom"):
        return refuse("GH-3", "reject.gloomhaven.half", "half must be top or bottom, got {half}",
                      half=repr(command.half))
    for card_id, half in hero.used:
        if card_id == command.card:
            return refuse("GH-3", "reject.gloomhaven.card_used", "{card} was already used this turn: play the other "
                          "card", card=_card_named(state, card_id))
        if half == command.half:
            other = "bottom" if half == "top" else "top"
            return refuse("GH-3", "reject.gloomhaven.half_used", "the {half} action was already performed this turn "
                          "(from {card}): now the {other} of the other card", half=phrase(*HALVES[half]),
                          card=_card_named(state, card_id),
                          other=phrase(*HALVES[other]))
    card = _card(state, command.card)
    action = card.top if command.half == "top" else card.bottom
    me = by_id(state.figures, hero.seat)
    flow.emit(CardPlayed(hero.seat, card.id, command.half, action.kind, bool(command.skip)))
    if not command.skip:
        refused = _character_action(flow, me, action, command, rng, edition)
        if refused is not None:
            return refused
    hero_now = by_id(flow.state.heroes, hero.seat, "seat")
    if not hero_now.exhausted and len(hero_now.used) == 2:
        flow.emit(_discard(flow.state, hero_now), TurnEnded(hero.seat))
    return None


def _discard(state: State, hero: Hero) -> CardsDiscarded:
    """GH-3: both cards to the discard pile, or lost when the action performed was a lost one."""
    discarded, lost = [], []
    for card_id, half in hero.used:
        card = _card(state, card_id)
        (lost if (card.top_lost if half == "top" else card.bottom_lost) else discarded).append(card_id)
    return CardsDiscarded(hero.seat, tuple(discarded), tuple(lost))


def _character_action(flow: Flow, me: Figure, action: Any, command: PlayCard, rng: Any,
                      edition: int = 2) -> Rejection | None:
    state = flow.state
    if action.kind == "attack":
        return _character_attack(flow, me, action, command.targets, rng)
    if action.kind == "move":
        effect = _character_move(state, me, action, command.path, command.to, edition)
    elif action.kind == "heal":
        effect = _character_heal(state, me, action, command.targets)
    else:
        effect = _character_summon(state, me, action, command.path)
    if isinstance(effect, Rejection):
        return effect
    flow.emit(*effect)
    return None


#: The longest explicit path a move may name: no printed move is longer, and a step costs at least 1.
PATH_LIMIT = 20


def _character_move(state: State, me: Figure, action: Any, path: tuple, to: Any = None,
                    edition: int = 2) -> list | Rejection:
    """A character's move (GH-4; GH-5 with jump): along the hexes it names, or the cheapest way to ``to``.

    With a path every step is checked in order and the first illegal one is refused, naming the
    step and its clause; without one the engine walks the cheapest legal path (the one
    ``character_moves`` offers). The log's FigureMoved records the path walked.
    """
    rule = "GH-5" if action.jump else "GH-4"
    if to is not None:  # hexes of two integers: PlayCard.KINDS (the edge refuses any other shape)
        if not path:
            return _cheapest_move(state, me, action, to, edition)
        if path[-1] != to:
            return refuse(rule, "reject.gloomhaven.path_end", "the path ends at {end}, not at {hex}, where the move goes",
                          end=str(list(path[-1])), hex=str(list(to)))
    if not path:
        return []
    if len(path) > PATH_LIMIT:
        return refuse(rule, "reject.gloomhaven.path_long", "a path names at most {limit} hexes, got {count}",
                      limit=PATH_LIMIT, count=len(path))
    hexmap = hexmap_of(state)
    occupied = {f.hex: f for f in state.figures if f.id != me.id}
    jump = action.jump
    here = me.hex
    spent = 0
    for i, hex in enumerate(path):
        move = phrase("reject.gloomhaven.step", "step {number} ({start} → {hex})", number=i + 1,
                      start=str(list(here)), hex=str(list(hex)))
        if hex not in hexmap:
            return refuse("GH-C1", "reject.gloomhaven.step_off_map", "{step}: hex {hex} is not on the map", step=move,
                          hex=str(list(hex)))
        if hex not in hexmap.adjacent(here, through_closed=True):
            if hex_distance(here, hex) == 1:
                return refuse("GH-C1", "reject.gloomhaven.step_wall", "{step}: a wall lies between {start} and {hex}",
                              step=move, start=str(list(here)), hex=str(list(hex)))
            return refuse(rule, "reject.gloomhaven.step_not_next", "{step}: {hex} is not next to {start}; a path goes "
                          "one hex at a time", step=move, hex=str(list(hex)), start=str(list(here)))
        last = i == len(path) - 1
        difficult = hex in state.map.difficult
        if not jump:
            if hex in state.map.obstacles:
                return refuse("GH-4", "reject.gloomhaven.step_obstacle", "{step}: hex {hex} holds an obstacle",
                              step=move, hex=str(list(hex)))
            other = occupied.get(hex)
            if other is not None and _team(other) != _team(me):
                return refuse("GH-4", "reject.gloomhaven.step_enemy", "{step}: hex {hex} holds an enemy, {figure}: no "
                              "figure moves through enemies", step=move, hex=str(list(hex)),
                              figure=_figure_named(state, other.id))
            cost = 2 if difficult else 1
        else:
            cost = 2 if last and difficult and state.variant != "jotl" else 1  # GH-5; GH-V2: 1
        if spent + cost > action.value:
            if cost == 2:
                return refuse("GH-C1", "reject.gloomhaven.step_difficult", {
                    "one": "{step}: the move is {value} and {n} is spent, difficult terrain costs 2 (GH-C1): this "
                           "step costs {cost}",
                    "other": "{step}: the move is {value} and {n} are spent, difficult terrain costs 2 (GH-C1): this "
                             "step costs {cost}"}, step=move, value=action.value, n=spent, cost=cost)
            return refuse(rule, "reject.gloomhaven.step_cost", {
                "one": "{step}: the move is {value} and {n} is spent: this step costs {cost}",
                "other": "{step}: the move is {value} and {n} are spent: this step costs {cost}"}, step=move,
                value=action.value, n=spent, cost=cost)
        spent += cost
        here = hex
    end = here
    at = phrase("reject.gloomhaven.last_step", "step {number} ({hex})", number=len(path), hex=str(list(end)))
    if end in occupied:
        return refuse(rule, "reject.gloomhaven.step_end_occupied", "{step}: a move cannot end in an occupied hex: "
                      "{hex} holds {figure}", step=at, hex=str(list(end)),
                      figure=_figure_named(state, occupied[end].id))
    if end in state.map.obstacles:
        return refuse(rule, "reject.gloomhaven.step_end_obstacle", "{step}: a {move} cannot end on the obstacle at "
                      "{hex}", step=at, move=phrase(*MOVES[jump]), hex=str(list(end)))
    mode = "jump" if jump else "walk"
    return _movement_events(state, me, tuple(path), mode, spent, landing_rule(state, tuple(path), mode, rule))


def _cheapest_move(state: State, me: Figure, action: Any, goal: tuple, edition: int = 2) -> list | Rejection:
    """GH-4, GH-5: no path given: the cheapest legal one to ``goal`` (fewest negative hexes, then points); from
    gloomhaven-7 (``edition`` 7) refused where equally cheap walks there do different things (``walks_apart``)."""
    rule = "GH-5" if action.jump else "GH-4"
    if goal == me.hex:
        return []
    if goal not in hexmap_of(state):
        return refuse("GH-C1", "reject.gloomhaven.off_map", "hex {hex} is not on the map", hex=str(list(goal)))
    holder = next((f for f in state.figures if f.hex == goal and f.id != me.id), None)
    if holder is not None:
        return refuse(rule, "reject.gloomhaven.end_occupied", "a move cannot end in an occupied hex: {hex} holds "
                      "{figure}", hex=str(list(goal)),
                      figure=_figure_named(state, holder.id))
    if goal in state.map.obstacles:
        return refuse(rule, "reject.gloomhaven.end_obstacle", "a {move} cannot end on the obstacle at {hex}",
                      move=phrase(*MOVES[action.jump]), hex=str(list(goal)))
    path = character_moves(state, me, action).get(goal)
    if path is None:
        return refuse(rule, "reject.gloomhaven.no_path", {
            "one": "no legal path of at most {n} movement point leads from {start} to {hex}",
            "other": "no legal path of at most {n} movement points leads from {start} to {hex}"}, n=action.value,
            start=str(list(me.hex)), hex=str(list(goal)))
    apart = walks_apart(state, me, action, goal) if edition >= 7 else ()
    if apart:
        ways = tuple(phrase("reject.gloomhaven.way_through", "one enters {hexes}",
                            hexes=tuple(_marked_hex(state, hex) for hex in way))
                     if way else phrase("reject.gloomhaven.way_clear", "one enters no trap, hazardous terrain or "
                                        "closed door") for way in apart)
        return refuse("GH-4", "reject.gloomhaven.walks_apart", "several walks to {hex} fit in this move and do "
                      "different things ({ways}): the route is yours to choose. Press “Build a path”, choose the "
                      "hexes of your route in order, then “Confirm path”", hex=str(list(goal)), ways=ways)
    return _character_move(state, me, action, path)


def _marked_hex(state: State, hex: tuple) -> Any:
    """A hex a walk enters that does something (``walks_apart``), named by what it holds (a trap, a closed door,
    hazardous terrain) and where, for a refusal a player reads."""
    where = str(list(hex))
    if hex in state.traps:
        return phrase("reject.gloomhaven.mark_trap", "the trap at {hex}", hex=where)
    if hex in state.map.doors:
        return phrase("reject.gloomhaven.mark_door", "the closed door at {hex}", hex=where)
    return phrase("reject.gloomhaven.mark_hazardous", "the hazardous terrain at {hex}", hex=where)


def walks_apart(state: State, me: Figure, action: Any, goal: tuple) -> tuple:
    """gloomhaven-7 (GH-4, GH-C1): the traps, hazardous hexes and closed doors entered by the cheapest walks to
    ``goal`` (fewest negative hexes, whatever their points within the move: points left at the end of a move are
    worth nothing), one sorted tuple of hexes per walk, when those walks do not all enter the same ones; () when
    they do. Which trap springs, which hazard hurts or which door
    opens is then the player's choice, not the engine's: a move naming its destination alone is refused and the
    player gives the path. But when the cheapest walks (fewest negative hexes, then fewest points: what a move by
    its destination alone walks) enter nothing that acts, the move goes: a destination alone is not asked to open
    a door that only a detour would open (the player who wants it gives that path). A jump enters its landing hex
    alone, so its walks never differ.

    The walks are filled level by level of points spent, as in ``_walks_within``, each (hex, points) keeping its
    fewest negative hexes and the hexes with an effect its best walks entered: two of those sets at most, enough
    to know that they differ (a set stays apart from the other whatever the rest of the walk adds)."""
    if action.jump:
        return ()
    hexmap = hexmap_of(state)
    others = {f.hex: f for f in state.figures if f.id != me.id}
    negative = set(state.traps) | set(state.map.hazardous)
    marked = negative | {hex for hex in state.map.doors if hex not in state.open_doors}
    if not marked:
        return ()
    levels: list = [{} for _ in range(action.value + 1)]  # points spent -> {hex: (negative hexes, effect sets)}
    levels[0][me.hex] = (0, ((),))
    for spent in range(action.value + 1):
        for here in sorted(levels[spent]):
            hurt, ways = levels[spent][here]
            for there in hexmap.adjacent(here, through_closed=True):
                other = others.get(there)
                if there in state.map.obstacles or (other is not None and _team(other) != _team(me)):
                    continue
                cost = 2 if there in state.map.difficult else 1
                if spent + cost > action.value:
                    continue
                total = hurt + (1 if there in negative else 0)
                entered = tuple(tuple(sorted(set(way) | {there})) if there in marked else way for way in ways)
                level = levels[spent + cost]
                known = level.get(there)
                if known is not None and known[0] < total:
                    continue
                pool = set(entered) if known is None or total < known[0] else set(known[1]) | set(entered)
                level[there] = (total, tuple(sorted(pool))[:2])
    reached = [levels[spent][goal] for spent in range(action.value + 1) if goal in levels[spent]]
    if not reached:
        return ()
    fewest = min(hurt for hurt, _ways in reached)
    cheapest = next(found for hurt, found in reached if hurt == fewest)  # the walks a destination alone takes
    if cheapest == ((),):  # they enter nothing that acts: a longer walk that would open a door is asked by its path
        return ()
    ways = tuple(sorted({way for hurt, found in reached if hurt == fewest for way in found}))
    return ways if len(ways) > 1 else ()


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
    """In range counted around walls (GH-C1) and in line of sight (GH-C7); reach 1 is adjacency."""
    if reach <= 1:
        return hexmap.are_adjacent(here, there)
    distance = hexmap.range_between(here, there)
    return distance is not None and distance <= reach and hexmap.line_of_sight(here, there)


def _character_attack(flow: Flow, me: Figure, action: Any, targets: tuple, rng: Any) -> Rejection | None:
    state = flow.state
    if not targets:
        return refuse("GH-C5", "reject.gloomhaven.no_target", "an attack names at least one target (or play the card "
                      "with skip)")
    if len(targets) > action.targets:
        return refuse("GH-C5", "reject.gloomhaven.too_many_targets", {
            "one": "this attack has {n} target, got {count}", "other": "this attack has {n} targets, got {count}"},
            n=action.targets, count=len(targets))
    if len(set(targets)) != len(targets):
        return refuse("GH-C5", "reject.gloomhaven.target_twice", "a target is named twice")
    hexmap = hexmap_of(state)
    reach = max(1, action.range)
    for target_id in targets:
        target = by_id(state.figures, target_id)
        if target is None or target.kind != "monster":
            return refuse("GH-C5", "reject.gloomhaven.not_a_monster", "{figure} is not a monster on the map",
                          figure=_figure_named(state, target_id))
        if not _in_range(hexmap, me.hex, target.hex, reach):
            distance = hexmap.range_between(me.hex, target.hex)
            if action.range == 0:
                return refuse("GH-C5", "reject.gloomhaven.not_adjacent", "{figure} is not adjacent (a melee attack)",
                              figure=_figure_named(state, target_id))
            if distance is None:
                return refuse("GH-C5", "reject.gloomhaven.unreachable", "no way around the walls leads to {figure}; "
                              "range is {reach}", figure=_figure_named(state, target_id), reach=reach)
            if distance > reach:
                return refuse("GH-C5", "reject.gloomhaven.out_of_range", {
                    "one": "{figure} is {n} hex away around walls; range is {reach}",
                    "other": "{figure} is {n} hexes away around walls; range is {reach}"},
                    figure=_figure_named(state, target_id), n=distance, reach=reach)
            return refuse("GH-C7", "reject.gloomhaven.no_line", "no line from a corner of {start} to a corner of {hex} "
                          "clears the walls (a corner on a wall never ends one)", start=str(list(me.hex)),
                          hex=str(list(target.hex)))
    _attacks(flow, me, action.value, action.range, targets, me.seat, rng, action.advantage)
    return None


def _character_heal(state: State, me: Figure, action: Any, targets: tuple) -> list | Rejection:
    if len(targets) != 1:
        return refuse("GH-C3", "reject.gloomhaven.heal_one", "a heal names one figure, got {count}", count=len(targets))
    target = by_id(state.figures, targets[0])
    if target is None or _team(target) != _team(me):
        return refuse("GH-C3", "reject.gloomhaven.not_an_ally", "{figure} is not an ally on the map",
                      figure=_figure_named(state, targets[0]))
    if target.id != me.id:
        if action.range == 0:
            return refuse("GH-C3", "reject.gloomhaven.self_heal", "this heal is on self only")
        if not _in_range(hexmap_of(state), me.hex, target.hex, action.range):
            return refuse("GH-C3", "reject.gloomhaven.heal_range", "{figure} is out of range {range} or out of sight",
                          figure=_figure_named(state, target.id), range=action.range)
    amount = min(action.value, target.max_hp - target.hp)
    return [FigureHealed(target.id, amount, target.hp + amount)]


def _character_summon(state: State, me: Figure, action: Any, path: tuple) -> list | Rejection:
    if len(path) != 1:
        return refuse("GH-8", "reject.gloomhaven.summon_hex", "a summon names the one hex [q, r] it appears in")
    hex = path[0]
    hexmap = hexmap_of(state)
    if not hexmap.are_adjacent(me.hex, hex):
        return refuse("GH-8", "reject.gloomhaven.summon_next", "a summon appears next to its summoner; {hex} is not",
                      hex=str(list(hex)))
    if hex in state.map.obstacles or any(f.hex == hex for f in state.figures):
        return refuse("GH-4", "reject.gloomhaven.not_free", "hex {hex} is not free", hex=str(list(hex)))
    summon = by_id(by_id(state.classes, me.name, "name").summons, action.summon, "name")
    number = 1 + max([f.number for f in state.figures if f.kind == "summon" and f.seat == me.seat] + [0])
    figure = Figure(f"{me.seat}-s{number}", "summon", summon.name, "", number, me.seat, hex, summon.stats.hp,
                    summon.stats.hp, summon.stats, summon.flying, state.round)
    return [FigureSummoned(me.seat, figure)]


def _decide_rest_lose(flow: Flow, hero: Hero, command: RestLose) -> Rejection | None:
    state = flow.state
    if state.phase != "act" or state.acting != hero.seat or state.pending is not None:
        return _not_your_turn(state, hero.seat)
    if not hero.long_rest:
        return refuse("GH-C6", "reject.gloomhaven.no_long_rest", "{seat} is not on a long rest this round",
                      seat=hero.seat)
    if command.card not in hero.discard:
        return refuse("GH-C6", "reject.gloomhaven.not_discarded", "card {card} is not in {seat}'s discard pile "
                      "({cards})", card=_card_named(state, command.card), seat=hero.seat,
                      cards=_cards_named(state, hero.discard))
    me = by_id(state.figures, hero.seat)
    returned = tuple(card for card in hero.discard if card != command.card)
    flow.emit(LongRested(hero.seat, command.card, returned, min(2, me.max_hp - me.hp)), TurnEnded(hero.seat))
    return None


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


def _attacks(flow: Flow, attacker: Figure, value: int, range: int, targets: tuple, owner: str, rng: Any,
             advantage: bool = False) -> None:
    """One modifier draw per target (two with advantage or disadvantage), damage, and what it does (GH-C5).

    A ranged attack on an adjacent target has disadvantage; advantage and disadvantage together
    cancel (rulebook p. 20). A deck with fewer cards left than the draw needs is shuffled whole
    first, so every draw of one attack comes from one deck.
    """
    for target_id in targets:
        target = by_id(flow.state.figures, target_id)
        if target is None:
            continue
        disadvantage = range > 0 and hexmap_of(flow.state).are_adjacent(attacker.hex, target.hex)
        two = advantage != disadvantage
        left = _remaining(by_id(flow.state.decks, owner, "owner"))
        if len(left) < (2 if two else 1):
            flow.emit(DeckReshuffled(owner))
            left = _remaining(by_id(flow.state.decks, owner, "owner"))
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
        flow.emit(AttackResolved(attacker.id, target.id, owner, value, drawn, used, effect, damage, hp))
        if target.kind == "character" and hp < 1:
            flow.emit(CharacterExhausted(target.seat, "damage", "GH-1"))
        elif target.kind != "character" and hp <= 0:
            flow.emit(FigureDied(target.id))


# --- monsters' and summons' turns (GH-6, GH-7, GH-8, GH-C3, GH-C4) --------------------------------------


def _card_of(state: State, figure: Figure) -> Any:
    group = by_id(state.groups, figure.name, "name")
    return by_id(by_id(state.types, figure.name, "name").deck, group.card)


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
            if action.pattern:
                # GH-C10: a pattern with a range is a ranged area; its "+N targets" is ``targets`` - 1.
                attack = Attack(action.range or 0, 1, action.pattern, action.targets - 1)
            else:
                attack = Attack(reach, action.targets, ())
            value = max(0, stats.attack + action.value)
        elif action.kind == "heal":
            heal += action.value
    return move, jump, attack, value, heal


def field_of(state: State, edition: int = 2, extras: bool = False) -> Field:
    """The map and figures as a monster's turn sees them; ``order`` ranks initiative order (GH-6, GH-C11).

    Characters tied on initiative and on their other card (GH-2) share one rank, and so do their
    summons: whatever order the players chose to act in, a focus tie between them is theirs to
    break again (GH-C11), so the monster's turn offers each. Up to gloomhaven-4 every summon of a
    tied character ranks before all of them; from gloomhaven-5 (``edition`` 5) a summon acts just
    before its own summoner, so it ties with the other characters of its summoner's tie: the field
    then lists every order the players may choose (``Field.orders``, ``focus.tied_orders``). From
    gloomhaven-6 (``edition`` 6) it lists them too for an attack with extra targets (``extras``): the
    players' order of the tied characters ranks the extra targets (GH-C8 (3), GH-C11), which one shared
    place cannot say (A first, a group holding A beats one holding B and a better third; B first, the
    other way round). From gloomhaven-7 (``edition`` 7) an order the tied seats chose this round (``OrderChosen``,
    ``state.settled``) is their initiative order (GH-2: "the players decide"; GH-6: focus ties go by initiative
    order): they rank as characters that never tied, by ``state.order``, for focus ties and extra targets alike,
    and no option that only another order of them would give is offered.
    """
    index = {figure_id: i for i, (figure_id, _init) in enumerate(state.order)}
    initiative = dict(state.order)
    chosen = tuple(frozenset(order) for order in state.settled) if edition >= 7 else ()
    tied: dict = {}  # seat -> the first acting position among the characters it ties with
    for hero in state.heroes:
        if hero.seat not in index or hero.exhausted:
            continue
        mates = [other.seat for other in state.heroes if other.seat in index and not other.exhausted
                 and (other.initiative, other.secondary) == (hero.initiative, hero.secondary)]
        if len(mates) > 1 and any(set(mates) <= order for order in chosen):
            continue  # gloomhaven-7: the players' order is the initiative order
        tied[hero.seat] = min(index[seat] for seat in mates)
    raw = []
    for figure in state.figures:
        if figure.kind == "character" and figure.id in tied:
            rank = (tied[figure.id], 1, 0)
        elif figure.kind == "summon" and figure.seat in tied:
            rank = (tied[figure.seat], 0, figure.number)  # GH-6: summons before their summoner
        elif figure.id in index:
            rank = (index[figure.id], 1, 0)
        else:
            rank = (len(state.order), 1, 0)
        init = initiative.get(figure.id, initiative.get(figure.seat, LONG_REST_INITIATIVE))
        raw.append((rank, figure, init))
    raw.sort(key=lambda item: (item[0], item[1].id))
    ranks = sorted({item[0] for item in raw})
    place = {rank: position for position, rank in enumerate(ranks)}
    closed = tuple(hex for hex in state.map.doors if hex not in state.open_doors)
    bodies = tuple(Body(figure.id, figure.hex, _team(figure), place[rank], init) for rank, figure, init in raw)
    orders = ()
    if edition >= 5:
        summoner = {figure.id: figure.seat for figure in state.figures if figure.kind == "summon"}
        blocks = {}
        for seat, first_place in tied.items():
            blocks.setdefault(first_place, []).append(seat)
        open_blocks = tuple(tuple(seats) for _place, seats in sorted(blocks.items())
                            if len(seats) > 1 and ((edition >= 6 and extras)
                                                   or any(owner in seats for owner in summoner.values())))
        if open_blocks:
            orders = tied_orders(bodies, open_blocks, summoner)
    return Field(HexMap(state.map.hexes, state.map.thin_walls, closed), frozenset(state.map.obstacles),
                 frozenset(state.traps), frozenset(state.map.hazardous), frozenset(state.map.difficult), bodies,
                 orders)


def plan_for(state: State, figure: Figure, jotl: bool | None = None, edition: int = 2) -> Any:
    """The monster's plan under the game's rules: Jaws of the Lion's (GH-V1, GH-V2) in a game whose scenario
    chose them (``jotl`` None), or under the rules ``jotl`` names (to show where the variant decided);
    ``edition`` 5 for gloomhaven-5's acting orders (``field_of``), 6 for gloomhaven-6's (extra targets too)."""
    move, jump, attack, _value, _heal = _abilities(state, figure)
    mode = "fly" if figure.flying else ("jump" if jump else "walk")
    if jotl is None:
        jotl = state.variant == "jotl"
    extras = attack is not None and (bool(attack.pattern) or attack.targets > 1)
    return monster_turn(field_of(state, edition, extras), figure.id, move or 0, attack, mode, jotl=jotl)


def landing_rule(state: State, path: tuple, mode: str, rule: str) -> str:
    """GH-V2 for a jump that lands on difficult terrain under Jaws of the Lion's rules (it pays 1 there,
    not 2); ``rule`` otherwise."""
    if mode == "jump" and path and path[-1] in state.map.difficult and state.variant == "jotl":
        return "GH-V2"
    return rule


def _monster_turn(flow: Flow, figure: Figure, rng: Any, edition: int) -> None:
    """TurnStarted, the plan with its trace, and the act itself unless the players must choose."""
    plan = plan_for(flow.state, figure, edition=edition)
    # gloomhaven-6: options that only the tied characters' order tells apart are theirs to choose (GH-C11), where
    # the options attack them (a monster out of reach, GH-C9, heads for hexes: every player chooses, as before).
    tied = edition >= 6 and plan.order_tie and _order_choosers(flow.state, plan.options)
    rule = "GH-C11" if tied else "GH-6"
    flow.emit(TurnStarted(figure.id),
              MonsterTurnPlanned(figure.id, plan.focus, plan.candidates, plan.decided_by, plan.options, rule,
                                 plan.destinations))
    if len(plan.options) > 1:
        return  # evolve sets the pending choice: ties go to the players (GH-C4)
    if plan.options:
        option = plan.options[0]
        rule = "GH-C9" if option.toward is not None else ("GH-C8" if option.attacks else "GH-7")
        flow.emit(OptionChosen("", figure.id, 0, option, rule))
        _execute(flow, figure, option, rng)
    else:
        flow.emit(*_other_abilities(flow.state, figure), TurnEnded(figure.id))


def _other_abilities(state: State, figure: Figure) -> list:
    _move, _jump, _attack, _value, heal = _abilities(state, figure)
    if heal and figure.kind == "monster":
        amount = min(heal, figure.max_hp - figure.hp)
        return [FigureHealed(figure.id, amount, figure.hp + amount)]
    return []


def _execute(flow: Flow, figure: Figure, option: Any, rng: Any) -> None:
    """Move along the option's path (GH-7), then attack its targets (GH-C5), then the card's other lines."""
    move, jump, attack, value, _heal = _abilities(flow.state, figure)
    if option.path:
        mode = "fly" if figure.flying else ("jump" if jump else "walk")
        flow.emit(*_movement_events(flow.state, figure, option.path, mode, option.movement,
                                    landing_rule(flow.state, option.path, mode,
                                                 "GH-5" if mode != "walk" else "GH-7")))
    me = by_id(flow.state.figures, figure.id)
    if me is not None and attack is not None and option.attacks:
        owner = MONSTERS if figure.kind == "monster" else figure.seat  # GH-8: the summoner's deck
        _attacks(flow, me, value, attack.range, option.attacks, owner, rng)
    me = by_id(flow.state.figures, figure.id)
    if me is not None:
        flow.emit(*_other_abilities(flow.state, me))
    flow.emit(TurnEnded(figure.id))


def _choosers(state: State, focus: tuple, rule: str = "GH-6", options: tuple = ()) -> tuple:
    """Who chooses among a monster's tied options (GH-C4, GH-C11).

    A focus tie between characters (tied on initiative, GH-C11) is the tied characters' to settle,
    as GH-2 asks the tied seats; so are options of one focus that only their order tells apart (a
    gloomhaven-6 plan citing GH-C11 with one focus: the extra targets, GH-C8 (3)); any other tie is
    every living character's.
    """
    living = tuple(h.seat for h in _living_heroes(state))
    if rule == "GH-C11" and len(focus) == 1:
        return _order_choosers(state, options) or living
    if len(focus) > 1:
        seats = set()
        for figure_id in focus:
            figure = by_id(state.figures, figure_id)
            if figure is None or figure.kind == "monster":
                return living
            seats.add(figure.seat)
        tied = tuple(seat for seat in living if seat in seats)
        if tied:
            return tied
    return living


def _order_choosers(state: State, options: tuple) -> tuple:
    """The living seats whose characters (or summons) the options attack and who tie on initiative with
    another of them (GH-2, GH-C11): the players whose acting order decides between the options."""
    heroes = {h.seat: h for h in _living_heroes(state)}
    owners = set()
    for option in options:
        for figure_id in option.attacks:
            figure = by_id(state.figures, figure_id)
            if figure is not None and figure.kind != "monster" and figure.seat in heroes:
                owners.add(figure.seat)
    key = {seat: (heroes[seat].initiative, heroes[seat].secondary) for seat in owners}
    return tuple(seat for seat in heroes if seat in owners
                 and any(other != seat and key[other] == key[seat] for other in owners))


def _decide_option(flow: Flow, seat: str, command: ChooseOption, rng: Any) -> Rejection | None:
    state = flow.state
    pending = state.pending
    if pending is None or pending.kind != "monster":
        return refuse("GH-C4", "reject.gloomhaven.no_choice", "no monster is waiting for the players to choose")
    if seat not in pending.seats:
        hero = by_id(state.heroes, seat, "seat")
        if hero is not None and not hero.exhausted:
            return refuse("GH-C11", "reject.gloomhaven.focus_tied", "the characters tied for {figure}'s focus "
                          "choose: {seats}, not {seat}", figure=_figure_named(state, pending.about[0]),
                          seats=pending.seats, seat=seat)
        return refuse("GH-C4", "reject.gloomhaven.exhausted_choice", "{seat} is exhausted and takes no part in this "
                      "choice", seat=seat)
    index = command.index
    if not 0 <= index < len(pending.options):
        return refuse("GH-C4", "reject.gloomhaven.option", "choose an option from 0 to {last}, got {index}",
                      last=len(pending.options) - 1, index=index)
    figure = by_id(state.figures, pending.about[0])
    option = pending.options[index]
    flow.emit(OptionChosen(seat, figure.id, index, option, "GH-C4"))
    _execute(flow, figure, option, rng)
    return None


# --- the end of a round (GH-C2, GH-C5, GH-C6) -----------------------------------------------------------


def _decide_short_rest(flow: Flow, hero: Hero, command: ShortRest, rng: Any) -> Rejection | None:
    state = flow.state
    pending = state.pending
    if pending is None or pending.kind != "short-rest":
        return refuse("GH-C6", "reject.gloomhaven.short_rest_when", "short rests are offered at the end of a round "
                      "only")
    if hero.seat not in pending.seats:
        return refuse("GH-C6", "reject.gloomhaven.no_short_rest", "{seat} has no short rest to take or decline now",
                      seat=hero.seat)
    if command.rest:
        lost = rng.pick(hero.discard, face=lambda card_id: _card(state, card_id).initiative)
        event = ShortRested(hero.seat, lost, tuple(card for card in hero.discard if card != lost))
    else:
        event = ShortRestDeclined(hero.seat)
    flow.emit(event)
    if flow.state.pending is None:
        flow.emit(*_end_round(flow.state))
    return None


def _end_round(state: State) -> list:
    reshuffled = []
    for deck in state.decks:
        if "x2" in deck.drawn or "null" in deck.drawn:
            reshuffled.append(deck.owner)
    for group in state.groups:
        if group.card is not None and by_id(by_id(state.types, group.name, "name").deck, group.card).shuffle:
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


def _advance(flow: Flow, rng: Any, edition: int = 2) -> None:
    """Run everything that needs no player: reveals, monster turns, round ends, until someone must act."""
    for _guard in range(500):
        if not _next_step(flow, rng, edition):
            return
    raise RuntimeError("gloomhaven: the round did not settle after 500 automatic steps")


def _next_step(flow: Flow, rng: Any, edition: int) -> bool:
    """One automatic step, emitted; False when a player must act now (or the game is over)."""
    state = flow.state
    if state.phase == "over" or state.pending is not None:
        return False
    if not _living_heroes(state):
        flow.emit(GameEnded("lost", state.round))
        return True
    if not _monsters(state):
        flow.emit(GameEnded("won", state.round))
        return True
    if state.phase == "select":
        exhausted = _round_start_exhaustion(state)
        if exhausted:
            flow.emit(*exhausted)
            return True
        waiting = [hero for hero in _living_heroes(state) if hero.pick is None]
        if waiting:
            return False
        flow.emit(*_reveal(state, rng))
        flow.emit(*_order_or_tie(flow.state))
        return True
    if state.phase != "act":
        return False
    if state.acting is not None:
        figure = by_id(state.figures, state.acting)
        if figure is None:  # it fell during its own turn
            flow.emit(TurnEnded(state.acting))
            return True
        return False  # a character's turn under way
    if state.current >= len(state.order):
        offers = tuple(hero.seat for hero in _living_heroes(state) if len(hero.discard) >= 2)
        if offers:
            flow.emit(ShortRestOffered(offers))
        else:
            flow.emit(*_end_round(state))
        return True
    figure_id = state.order[state.current][0]
    figure = by_id(state.figures, figure_id)
    if figure.kind == "character":
        flow.emit(TurnStarted(figure_id))
    else:
        _monster_turn(flow, figure, rng, edition)
    return True


# --- evolve ----------------------------------------------------------------------------------------------


def _replace_hero(state: State, seat: str, **changes: Any) -> tuple:
    return tuple(h.but(**changes) if h.seat == seat else h for h in state.heroes)


def _replace_figure(state: State, figure_id: str, **changes: Any) -> tuple:
    return tuple(f.but(**changes) if f.id == figure_id else f for f in state.figures)


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
            heroes = tuple(h.but(active=(), pick=None, long_rest=False, initiative=None, secondary=None, used=())
                           for h in s.heroes)
            groups = tuple(g.but(card=None) for g in s.groups)
            after = s.but(heroes=heroes, groups=groups, round=round, phase="select", order=(), current=0,
                           acting=None, settled=(), pending=None)
            return after
        case CharacterExhausted(seat, _cause, _rule):
            hero = by_id(s.heroes, seat, "seat")
            cards = hero.hand + hero.discard + hero.lost + hero.active
            heroes = _replace_hero(s, seat, hand=(), discard=(), lost=cards, active=(), pick=None, exhausted=True)
            figures = tuple(f for f in s.figures if f.seat != seat)  # the figure and its summons leave
            return s.but(heroes=heroes, figures=figures, pending=_without_seat(s.pending, seat))
        case CardsSelected(seat, cards, leading, long_rest, sealed):
            pick = None if sealed else Pick(cards, leading, long_rest)
            return s.but(heroes=_replace_hero(s, seat, pick=Sealed(pick)))
        case CardsRevealed(picks):
            heroes = s.heroes
            for seat, cards, leading, long_rest in picks:
                hero = by_id(heroes, seat, "seat")
                if long_rest:
                    changes = {"long_rest": True, "initiative": LONG_REST_INITIATIVE, "secondary": LONG_REST_INITIATIVE}
                else:
                    other = cards[1] if cards[0] == leading else cards[0]
                    changes = {"initiative": _card(s, leading).initiative, "secondary": _card(s, other).initiative,
                               "active": cards, "hand": tuple(c for c in hero.hand if c not in cards)}
                heroes = tuple(h.but(pick=None, **changes) if h.seat == seat else h for h in heroes)
            return s.but(heroes=heroes)
        case MonsterCardDrawn(name, card, _initiative):
            monster_type = by_id(s.types, name, "name")
            groups = []
            for g in s.groups:
                if g.name == name:
                    drawn = g.drawn if len(g.drawn) < len(monster_type.deck) else ()
                    g = Group(name, card, drawn + (card,))
                groups.append(g)
            return s.but(groups=tuple(groups))
        case TieOffered(kind, group, seats_, _rule):
            return s.but(phase="order", pending=Pending(kind, seats_, group, ()))
        case OrderChosen(_seat, _group, order, _rule):
            return s.but(settled=s.settled + (order,), pending=None)
        case OrderProposed(seat, _group, order, _rule):
            pending = s.pending
            if pending is None:
                return s  # only ever logged while a tie waits (TieOffered); a stray one changes nothing
            return s.but(pending=pending.but(seats=_still_to_agree(pending, seat, order), options=(order,)))
        case InitiativeSet(order, _notes, _rule):
            after = s.but(phase="act", order=order, current=0, acting=None, pending=None)
            return after.but(current=_next_alive(after, 0))
        case TurnStarted(figure):
            after = s.but(acting=figure)
            if figure in {h.seat for h in s.heroes}:
                after = after.but(heroes=_replace_hero(after, figure, used=()))
            return after
        case CardPlayed(seat, card, half, _action, _skipped):
            hero = by_id(s.heroes, seat, "seat")
            return s.but(heroes=_replace_hero(s, seat, used=hero.used + ((card, half),)))
        case FigureMoved(figure, _start, path, _mode, _cost, _rule):
            if not path:
                return s
            return s.but(figures=_replace_figure(s, figure, hex=path[-1]))
        case DoorOpened(_figure, hex):
            return s.but(open_doors=tuple(sorted(s.open_doors + (hex,))))
        case TrapSprung(figure, hex, damage, _rule):
            f = by_id(s.figures, figure)
            return s.but(figures=_replace_figure(s, figure, hp=f.hp - damage),
                          traps=tuple(t for t in s.traps if t != hex))
        case HazardEntered(figure, _hex, damage, _rule):
            f = by_id(s.figures, figure)
            return s.but(figures=_replace_figure(s, figure, hp=f.hp - damage))
        case AttackResolved(_attacker, target, deck, _value, drawn, _used, _effect, _damage, hp):
            decks = tuple(d.but(drawn=d.drawn + drawn) if d.owner == deck else d for d in s.decks)
            return s.but(decks=decks, figures=_replace_figure(s, target, hp=hp))
        case DeckReshuffled(deck):
            return s.but(decks=tuple(d.but(drawn=()) if d.owner == deck else d for d in s.decks))
        case FigureDied(figure):
            return s.but(figures=tuple(f for f in s.figures if f.id != figure))
        case FigureHealed(figure, _amount, hp):
            return s.but(figures=_replace_figure(s, figure, hp=hp))
        case FigureSummoned(_seat, figure):
            return s.but(figures=s.figures + (figure,))
        case MonsterTurnPlanned(figure, focus, _candidates, _decided, options, rule):
            if len(options) > 1:
                return s.but(pending=Pending("monster", _choosers(s, focus, rule, options), (figure,), options))
            return s
        case OptionChosen():
            return s.but(pending=None)
        case TurnEnded(figure):
            hero = by_id(s.heroes, figure, "seat")
            after = s
            if hero is not None:
                after = s.but(heroes=_replace_hero(s, figure, used=()))
            return after.but(acting=None, current=_next_alive(after, s.current + 1))
        case CardsDiscarded(seat, discarded, lost):
            hero = by_id(s.heroes, seat, "seat")
            return s.but(heroes=_replace_hero(s, seat, active=(), discard=hero.discard + discarded,
                                                  lost=hero.lost + lost))
        case LongRested(seat, lost, returned, healed):
            hero = by_id(s.heroes, seat, "seat")
            f = by_id(s.figures, seat)
            heroes = _replace_hero(s, seat, discard=(), lost=hero.lost + (lost,), hand=hero.hand + returned)
            return s.but(heroes=heroes, figures=_replace_figure(s, seat, hp=f.hp + healed))
        case ShortRestOffered(seats_):
            return s.but(phase="rest", pending=Pending("short-rest", seats_, (), ()))
        case ShortRested(seat, lost, returned):
            hero = by_id(s.heroes, seat, "seat")
            heroes = _replace_hero(s, seat, discard=(), lost=hero.lost + (lost,), hand=hero.hand + returned)
            return s.but(heroes=heroes, pending=_without_seat(s.pending, seat))
        case ShortRestDeclined(seat):
            return s.but(pending=_without_seat(s.pending, seat))
        case RoundEnded(_round, reshuffled):
            decks = tuple(d.but(drawn=()) if d.owner in reshuffled else d for d in s.decks)
            groups = tuple(g.but(card=None, drawn=() if g.name in reshuffled else g.drawn) for g in s.groups)
            return s.but(decks=decks, groups=groups, phase="ended", order=(), current=0, acting=None,
                          pending=None)
        case GameEnded(outcome, _round):
            return s.but(phase="over", outcome=outcome, pending=None, acting=None)
        case SecretRevealed():
            return s  # CORE-2: the core's own event, after the last command; it changes no state
        case RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return s  # CORE-3, CORE-10, CORE-11: the core's own events; they change rules, not state
    raise TypeError(f"gloomhaven cannot fold an event of type {type(event).__name__}")


def _without_seat(pending: Pending | None, seat: str) -> Pending | None:
    if pending is None or seat not in pending.seats:
        return pending
    seats_ = tuple(s for s in pending.seats if s != seat)
    if not seats_:
        return None
    return pending.but(seats=seats_)


# --- legal -----------------------------------------------------------------------------------------------


def legal(state: Any, seat: str) -> list:
    """The commands ``decide`` accepts from ``seat`` now (one path per reachable hex, for bots and hints)."""
    if seat not in turn(state):
        return []
    hero = by_id(state.heroes, seat, "seat")
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
    me = by_id(state.figures, seat)
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
        if action.jump and hex in state.map.difficult and state.variant != "jotl":  # GH-5; GH-V2: no extra
            spent += 1
        if spent <= action.value:
            out[hex] = hexmap_path_to(parent, hex)
    if negative and not action.jump:
        for hex, path in _walks_within(me.hex, action.value, through, step).items():
            if hex not in out and hex not in others and hex not in state.map.obstacles:
                out[hex] = path
    return out


def _walks_within(start: tuple, budget: int, through: Any, step: Any) -> dict:
    """Hex -> a walk from ``start`` of at most ``budget`` movement points entering the fewest negative hexes,
    then the fewest points (GH-4: a character may walk through a trap or hazardous terrain; it takes effect).

    ``character_moves`` first takes the path that avoids negative hexes whatever it costs (the paths it has
    always offered); where that path is beyond the move, one entering more negative hexes may still fit, and
    this finds it. Points are few, so the walks are filled in order of points spent, one level per point;
    among equal walks the first found in sorted order is kept, the same in every runtime."""
    levels: list = [{} for _ in range(budget + 1)]  # points spent -> {hex: fewest negative hexes entered}
    levels[0][start] = 0
    parent: dict = {(start, 0): None}
    chosen: dict = {}  # hex -> (negative hexes, points) of the best walk there
    for spent in range(budget + 1):
        for here in sorted(levels[spent]):
            negative = levels[spent][here]
            if here != start and (here not in chosen or (negative, spent) < chosen[here]):
                chosen[here] = (negative, spent)
            for there in through(here):
                extra = step(here, there)
                if extra is None or spent + extra[1] > budget:
                    continue
                level = levels[spent + extra[1]]
                total = negative + extra[0]
                if there not in level or total < level[there]:
                    level[there] = total
                    parent[(there, spent + extra[1])] = (here, spent)
    out = {}
    for hex, (_negative, spent) in chosen.items():
        path = []
        key = (hex, spent)
        while parent[key] is not None:
            path.append(key[0])
            key = parent[key]
        out[hex] = tuple(reversed(path))
    return out

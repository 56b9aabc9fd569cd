"""Gloomhaven's records: the map and the printed data, the state, events and commands.

Figures are known by string ids (``red``, ``guard-1``, ``red-s1``); hexes are axial ``(q, r)``
tuples. A card pick is secret until the reveal (GH-C2): the state keeps it in a ``Sealed``
record, which the rules can read in memory but whose JSON never shows what it holds, so the
state hash is the same whether a viewer received the pick or only its redacted announcement.
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry

# --- printed data (static for a whole game) ---------------------------------------------------------


class Map(Record):
    """A scenario map (GH-C1): its hexes and terrain. Traps sprung and doors opened live in State."""

    __slots__ = ("name", "hexes", "thin_walls", "obstacles", "traps", "hazardous", "difficult", "doors")
    __match_args__ = __slots__
    TYPE = "Map"

    def __init__(self, name: str, hexes: tuple, thin_walls: tuple, obstacles: tuple, traps: tuple,
                 hazardous: tuple, difficult: tuple, doors: tuple) -> None:
        self.name = name
        self.hexes = hexes
        self.thin_walls = thin_walls
        self.obstacles = obstacles
        self.traps = traps
        self.hazardous = hazardous
        self.difficult = difficult
        self.doors = doors


class Action(Record):
    """One ability: ``move`` (value, jump), ``attack`` (value, range 0 = melee, targets, advantage),
    ``heal`` (value, range), or ``summon`` (the summon's name)."""

    __slots__ = ("kind", "value", "range", "targets", "jump", "advantage", "summon")
    __match_args__ = __slots__
    TYPE = "Action"

    def __init__(self, kind: str, value: int, range: int, targets: int, jump: bool, advantage: bool,
                 summon: str) -> None:
        self.kind = kind
        self.value = value
        self.range = range
        self.targets = targets
        self.jump = jump
        self.advantage = advantage
        self.summon = summon


class Card(Record):
    """A character's ability card: initiative, a top and a bottom action, each perhaps lost when used."""

    __slots__ = ("id", "name", "initiative", "top", "bottom", "top_lost", "bottom_lost")
    __match_args__ = __slots__
    TYPE = "Card"

    def __init__(self, id: str, name: str, initiative: int, top: Action, bottom: Action, top_lost: bool,
                 bottom_lost: bool) -> None:
        self.id = id
        self.name = name
        self.initiative = initiative
        self.top = top
        self.bottom = bottom
        self.top_lost = top_lost
        self.bottom_lost = bottom_lost


class Stats(Record):
    """Printed stats of a monster rank or a summon: hit points, move, attack, range (0 = melee)."""

    __slots__ = ("hp", "move", "attack", "range")
    __match_args__ = __slots__
    TYPE = "Stats"

    def __init__(self, hp: int, move: int, attack: int, range: int) -> None:
        self.hp = hp
        self.move = move
        self.attack = attack
        self.range = range


class Summon(Record):
    """A summon a character's card can bring in (GH-8): its name, printed stats, and flying."""

    __slots__ = ("name", "stats", "flying")
    __match_args__ = __slots__
    TYPE = "Summon"

    def __init__(self, name: str, stats: Stats, flying: bool) -> None:
        self.name = name
        self.stats = stats
        self.flying = flying


class CharacterClass(Record):
    """A character class: hit points, its ability cards (the whole hand) and its summons."""

    __slots__ = ("name", "hp", "cards", "summons")
    __match_args__ = __slots__
    TYPE = "CharacterClass"

    def __init__(self, name: str, hp: int, cards: tuple, summons: tuple) -> None:
        self.name = name
        self.hp = hp
        self.cards = cards
        self.summons = summons


class MonsterAction(Record):
    """A line of a monster ability card (GH-C3): ``move``/``attack`` add ``value`` to the printed stat;
    ``range`` None keeps the printed range; ``heal`` heals the monster itself by ``value``."""

    __slots__ = ("kind", "value", "range", "targets", "pattern", "jump")
    __match_args__ = __slots__
    TYPE = "MonsterAction"

    def __init__(self, kind: str, value: int, range: int | None, targets: int, pattern: tuple, jump: bool) -> None:
        self.kind = kind
        self.value = value
        self.range = range
        self.targets = targets
        self.pattern = pattern
        self.jump = jump


class MonsterCard(Record):
    """A monster ability card: initiative, actions in order, and whether it reshuffles the deck."""

    __slots__ = ("id", "initiative", "actions", "shuffle")
    __match_args__ = __slots__
    TYPE = "MonsterCard"

    def __init__(self, id: str, initiative: int, actions: tuple, shuffle: bool) -> None:
        self.id = id
        self.initiative = initiative
        self.actions = actions
        self.shuffle = shuffle


class MonsterType(Record):
    """A monster type: normal and elite stats, flying, and its ability deck (GH-C3)."""

    __slots__ = ("name", "normal", "elite", "flying", "deck")
    __match_args__ = __slots__
    TYPE = "MonsterType"

    def __init__(self, name: str, normal: Stats, elite: Stats, flying: bool, deck: tuple) -> None:
        self.name = name
        self.normal = normal
        self.elite = elite
        self.flying = flying
        self.deck = deck


# --- the state --------------------------------------------------------------------------------------


class Figure(Record):
    """A figure on the map. ``kind`` is character, monster or summon; ``seat`` its player (monsters: '').

    ``rank`` is elite or normal for monsters ('' otherwise); ``number`` the standee or summon
    number; ``summoned`` the round a summon came in (GH-8: it does not act in that round).
    """

    __slots__ = ("id", "kind", "name", "rank", "number", "seat", "hex", "hp", "max_hp", "stats", "flying",
                 "summoned")
    __match_args__ = __slots__
    TYPE = "Figure"

    def __init__(self, id: str, kind: str, name: str, rank: str, number: int, seat: str, hex: tuple, hp: int,
                 max_hp: int, stats: Stats | None, flying: bool, summoned: int) -> None:
        self.id = id
        self.kind = kind
        self.name = name
        self.rank = rank
        self.number = number
        self.seat = seat
        self.hex = hex
        self.hp = hp
        self.max_hp = max_hp
        self.stats = stats
        self.flying = flying
        self.summoned = summoned


class Pick(Record):
    """A character's secret choice for a round: two cards and the leading one, or a long rest."""

    __slots__ = ("cards", "leading", "long_rest")
    __match_args__ = __slots__
    TYPE = "Pick"

    def __init__(self, cards: tuple, leading: str | None, long_rest: bool) -> None:
        self.cards = cards
        self.leading = leading
        self.long_rest = long_rest


class _SealedBase(Record):
    __slots__ = ("content",)


class Sealed(_SealedBase):
    """A secret the rules hold in memory: its JSON (hence the state hash) is always ``{"type": "Sealed"}``.

    Its own field list is empty, so ``to_data`` and the canonical JSON see nothing of ``content``:
    a spectator who folded only the redacted pick and the server that holds it hash the same
    state (GH-C2: a pick is hidden until the reveal, which carries it in the open).
    """

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Sealed"

    def __init__(self, content: Pick | None) -> None:
        self.content = content


class Hero(Record):
    """A character's cards and round: hand, discard, lost, the two cards in play, pick, initiative.

    ``pick`` is None until the seat chooses, then a ``Sealed`` until the reveal. ``secondary`` is
    the other card's initiative (GH-2's first tie-break); ``used`` the halves played this turn.
    """

    __slots__ = ("seat", "cls", "hand", "discard", "lost", "active", "pick", "long_rest", "initiative",
                 "secondary", "used", "exhausted")
    __match_args__ = __slots__
    TYPE = "Hero"

    def __init__(self, seat: str, cls: str, hand: tuple, discard: tuple, lost: tuple, active: tuple,
                 pick: Sealed | None, long_rest: bool, initiative: int | None, secondary: int | None, used: tuple,
                 exhausted: bool) -> None:
        self.seat = seat
        self.cls = cls
        self.hand = hand
        self.discard = discard
        self.lost = lost
        self.active = active
        self.pick = pick
        self.long_rest = long_rest
        self.initiative = initiative
        self.secondary = secondary
        self.used = used
        self.exhausted = exhausted


class Group(Record):
    """A monster type in play: its card this round and the cards drawn since its deck was shuffled."""

    __slots__ = ("name", "card", "drawn")
    __match_args__ = __slots__
    TYPE = "Group"

    def __init__(self, name: str, card: str | None, drawn: tuple) -> None:
        self.name = name
        self.card = card
        self.drawn = drawn


class Deck(Record):
    """An attack modifier deck (GH-C5): its owner (a seat, or ``monsters``) and the cards drawn so far."""

    __slots__ = ("owner", "drawn")
    __match_args__ = __slots__
    TYPE = "Deck"

    def __init__(self, owner: str, drawn: tuple) -> None:
        self.owner = owner
        self.drawn = drawn


class Pending(Record):
    """A choice the rules leave to players: who may answer, what about, and the options.

    ``kind`` is ``initiative`` (GH-2), ``monster-order`` (GH-C3), ``monster`` (GH-C4: equally good
    focus, destination or targets) or ``short-rest`` (GH-C6).
    """

    __slots__ = ("kind", "seats", "about", "options")
    __match_args__ = __slots__
    TYPE = "Pending"

    def __init__(self, kind: str, seats: tuple, about: tuple, options: tuple) -> None:
        self.kind = kind
        self.seats = seats
        self.about = about
        self.options = options


class State(Record):
    """Everything true after some events.

    ``phase``: select (secret picks), order (ties to settle), act, rest (end-of-round short
    rests) or over. ``order``: figure ids in initiative order for this round, ``current`` the
    index acting and ``acting`` the figure whose turn is under way. ``settled``: ties the players
    ordered this round. ``traps``: traps not yet sprung; ``open_doors``: doors opened.
    """

    __slots__ = ("title", "level", "map", "classes", "types", "figures", "heroes", "groups", "decks", "traps",
                 "open_doors", "round", "rounds", "phase", "order", "current", "acting", "settled", "pending",
                 "outcome")
    __match_args__ = __slots__
    TYPE = "GloomhavenState"
    #: The original rules: a game under a variant folds to a ``VariantState`` instead (GH-V1, GH-V2).
    variant = ""

    def __init__(self, title: str, level: int, map: Map, classes: tuple, types: tuple, figures: tuple,
                 heroes: tuple, groups: tuple, decks: tuple, traps: tuple, open_doors: tuple, round: int,
                 rounds: int, phase: str, order: tuple, current: int, acting: str | None, settled: tuple,
                 pending: Pending | None, outcome: str | None) -> None:
        self.title = title
        self.level = level
        self.map = map
        self.classes = classes
        self.types = types
        self.figures = figures
        self.heroes = heroes
        self.groups = groups
        self.decks = decks
        self.traps = traps
        self.open_doors = open_doors
        self.round = round
        self.rounds = rounds
        self.phase = phase
        self.order = order
        self.current = current
        self.acting = acting
        self.settled = settled
        self.pending = pending
        self.outcome = outcome


class VariantState(Record):
    """A ``State`` of a game whose scenario chose a rules variant (gloomhaven-4: ``"variant": "jotl"``,
    GH-V1, GH-V2): the same fields and the variant. A game without one keeps the plain ``State``, so
    its states, and every hash, are those of gloomhaven-3. ``but`` keeps the class, so every state
    the rules fold from this one holds the variant too.
    """

    __slots__ = State.__slots__ + ("variant",)
    __match_args__ = __slots__
    TYPE = "GloomhavenVariantState"

    def __init__(self, title: str, level: int, map: Map, classes: tuple, types: tuple, figures: tuple,
                 heroes: tuple, groups: tuple, decks: tuple, traps: tuple, open_doors: tuple, round: int,
                 rounds: int, phase: str, order: tuple, current: int, acting: str | None, settled: tuple,
                 pending: Pending | None, outcome: str | None, variant: str) -> None:
        self.title = title
        self.level = level
        self.map = map
        self.classes = classes
        self.types = types
        self.figures = figures
        self.heroes = heroes
        self.groups = groups
        self.decks = decks
        self.traps = traps
        self.open_doors = open_doors
        self.round = round
        self.rounds = rounds
        self.phase = phase
        self.order = order
        self.current = current
        self.acting = acting
        self.settled = settled
        self.pending = pending
        self.outcome = outcome
        self.variant = variant


# --- the monster-turn trace -------------------------------------------------------------------------


class Candidate(Record):
    """One enemy a monster considered for focus (GH-6, GH-C4): the cost of its best path to an attack
    hex (negative hexes entered, movement points; None when unreachable), proximity in hexes around
    walls, and its place in initiative order (``initiative`` as printed, ``order`` the rank used)."""

    __slots__ = ("figure", "reachable", "negative", "movement", "proximity", "initiative", "order", "attack_hex")
    __match_args__ = __slots__
    TYPE = "Candidate"

    def __init__(self, figure: str, reachable: bool, negative: int | None, movement: int | None,
                 proximity: int | None, initiative: int, order: int, attack_hex: tuple | None) -> None:
        self.figure = figure
        self.reachable = reachable
        self.negative = negative
        self.movement = movement
        self.proximity = proximity
        self.initiative = initiative
        self.order = order
        self.attack_hex = attack_hex


class Option(Record):
    """One equally good way for a monster to act: its focus, destination, path there, and targets.

    ``toward`` is the hex it heads for when it cannot attack this turn (GH-C9: each tied hex the
    players may choose yields its own stopping hexes), None when it attacks from ``destination``.
    """

    __slots__ = ("focus", "destination", "path", "attacks", "disadvantage", "movement", "negative", "toward")
    __match_args__ = __slots__
    TYPE = "Option"
    DEFAULTS = {"toward": None}

    def __init__(self, focus: str, destination: tuple, path: tuple, attacks: tuple, disadvantage: bool,
                 movement: int, negative: int, toward: tuple | None = None) -> None:
        self.focus = focus
        self.destination = destination
        self.path = path
        self.attacks = attacks
        self.disadvantage = disadvantage
        self.movement = movement
        self.negative = negative
        self.toward = toward


class Considered(Record):
    """A destination a monster weighed (GH-C8, GH-C9), and the priority step that kept or dropped it.

    ``hex`` is a hex it could attack its focus from this turn (GH-C8), a hex it would attack from
    with unlimited movement (GH-C9, ``toward`` None), or a hex it could stop on this turn on its way
    to ``toward`` (GH-C9). ``step`` names the clause and step, e.g. ``GH-C8 (2) most targets``;
    ``detail`` gives the values compared there.
    """

    __slots__ = ("focus", "hex", "toward", "kept", "step", "detail")
    __match_args__ = __slots__
    TYPE = "Considered"

    def __init__(self, focus: str, hex: tuple, toward: tuple | None, kept: bool, step: str, detail: str) -> None:
        self.focus = focus
        self.hex = hex
        self.toward = toward
        self.kept = kept
        self.step = step
        self.detail = detail


# --- commands ---------------------------------------------------------------------------------------


class SelectCards(Record):
    """Secretly pick two ability cards for this round, ``leading`` setting initiative (GH-C2, GH-2)."""

    __slots__ = ("cards", "leading")
    __match_args__ = __slots__
    TYPE = "SelectCards"
    KINDS = {"cards": "tuple[str, ...]", "leading": "str"}

    def __init__(self, cards: tuple, leading: str) -> None:
        self.cards = cards
        self.leading = leading


class DeclareLongRest(Record):
    """Secretly declare a long rest for this round: initiative 99 (GH-C2, GH-C6)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "DeclareLongRest"
    KINDS = {}


class ChooseOrder(Record):
    """Settle a tie the players decide (GH-2 between characters, GH-C3 between monster types)."""

    __slots__ = ("order",)
    __match_args__ = __slots__
    TYPE = "ChooseOrder"
    KINDS = {"order": "tuple[str, ...]"}

    def __init__(self, order: tuple) -> None:
        self.order = order


class PlayCard(Record):
    """Perform the top or bottom action of one of the two cards in play (GH-3).

    A move gives ``path``, the hexes entered in order (the last is where it ends: the player's
    own route, each step checked, issue 15), or ``to``, a destination the engine walks by the
    cheapest legal route; with both, the path must end at ``to``. A summon gives its one hex as
    ``path``. ``targets``: figure ids, for an attack or a heal; ``skip``: play the card without
    its action.
    """

    __slots__ = ("card", "half", "path", "targets", "skip", "to")
    __match_args__ = __slots__
    TYPE = "PlayCard"
    DEFAULTS = {"path": (), "targets": (), "skip": False, "to": None}
    KINDS = {"card": "str", "half": "str", "path": "tuple[tuple[int, int], ...]", "targets": "tuple[str, ...]",
             "skip": "bool", "to": "tuple[int, int] | None"}

    def __init__(self, card: str, half: str, path: tuple = (), targets: tuple = (), skip: bool = False,
                 to: tuple | None = None) -> None:
        self.card = card
        self.half = half
        self.path = path
        self.targets = targets
        self.skip = skip
        self.to = to


class RestLose(Record):
    """On a long-resting character's turn: the discarded card it chooses to lose (GH-C6)."""

    __slots__ = ("card",)
    __match_args__ = __slots__
    TYPE = "RestLose"
    KINDS = {"card": "str"}

    def __init__(self, card: str) -> None:
        self.card = card


class ChooseOption(Record):
    """Pick one of the equally good options a monster's turn offers (GH-C4: ties go to the players)."""

    __slots__ = ("index",)
    __match_args__ = __slots__
    TYPE = "ChooseOption"
    KINDS = {"index": "int"}

    def __init__(self, index: int) -> None:
        self.index = index


class ShortRest(Record):
    """At the end of a round: short rest (``rest``: lose a random discarded card) or not (GH-C6)."""

    __slots__ = ("rest",)
    __match_args__ = __slots__
    TYPE = "ShortRest"
    KINDS = {"rest": "bool"}

    def __init__(self, rest: bool) -> None:
        self.rest = rest


# --- events -----------------------------------------------------------------------------------------



class RoundStarted(Record):
    """A new round began; every living character now picks secretly (GH-C2)."""

    __slots__ = ("round",)
    __match_args__ = __slots__
    TYPE = "RoundStarted"
    RULE = "GH-C2"

    def __init__(self, round) -> None:
        self.round = round


class CharacterExhausted(Record):
    """A character is exhausted (GH-1): ``cause`` is damage (below 1 hit point) or cards (cannot play two nor rest); its cards go to the lost pile and its figure leaves the map."""

    __slots__ = ("seat", "cause", "rule")
    __match_args__ = __slots__
    TYPE = "CharacterExhausted"

    def __init__(self, seat, cause, rule) -> None:
        self.seat = seat
        self.cause = cause
        self.rule = rule


class CardsSelected(Record):
    """A seat made its secret choice (GH-C2). Sent in full to that seat only; everyone else gets it ``sealed`` with no cards, no leading card and no rest flag, until the reveal."""

    __slots__ = ("seat", "cards", "leading", "long_rest", "sealed")
    __match_args__ = __slots__
    TYPE = "CardsSelected"
    RULE = "GH-C2"

    def __init__(self, seat, cards, leading, long_rest, sealed) -> None:
        self.seat = seat
        self.cards = cards
        self.leading = leading
        self.long_rest = long_rest
        self.sealed = sealed


class CardsRevealed(Record):
    """All choices revealed at once (GH-C2): ``picks`` is (seat, cards, leading, long rest) per living character."""

    __slots__ = ("picks",)
    __match_args__ = __slots__
    TYPE = "CardsRevealed"
    RULE = "GH-C2"

    def __init__(self, picks) -> None:
        self.picks = picks


class MonsterCardDrawn(Record):
    """One ability card revealed for a monster type on the map (GH-C3)."""

    __slots__ = ("group", "card", "initiative")
    __match_args__ = __slots__
    TYPE = "MonsterCardDrawn"
    RULE = "GH-C3"

    def __init__(self, group, card, initiative) -> None:
        self.group = group
        self.card = card
        self.initiative = initiative


class InitiativeSet(Record):
    """The round's acting order (GH-2, GH-8, GH-C3): ``order`` is (figure, initiative) pairs; ``notes`` say which rule placed tied figures."""

    __slots__ = ("order", "notes", "rule")
    __match_args__ = __slots__
    TYPE = "InitiativeSet"

    def __init__(self, order, notes, rule) -> None:
        self.order = order
        self.notes = notes
        self.rule = rule


class TieOffered(Record):
    """A tie the players decide (GH-2 between characters, GH-C3 between monster types): ``group`` the tied ids, ``seats`` who may answer."""

    __slots__ = ("kind", "group", "seats", "rule")
    __match_args__ = __slots__
    TYPE = "TieOffered"

    def __init__(self, kind, group, seats, rule) -> None:
        self.kind = kind
        self.group = group
        self.seats = seats
        self.rule = rule


class OrderChosen(Record):
    """The players settled a tie: ``order`` replaces ``group`` in the acting order (GH-2, GH-C3)."""

    __slots__ = ("seat", "group", "order", "rule")
    __match_args__ = __slots__
    TYPE = "OrderChosen"

    def __init__(self, seat, group, order, rule) -> None:
        self.seat = seat
        self.group = group
        self.order = order
        self.rule = rule


class OrderProposed(Record):
    """gloomhaven-7 (GH-2: the tied seats agree on an order): ``seat`` answered a tie between characters with
    ``order``, which the other tied seats have not all given yet; once every tied seat has answered the same order
    the tie is settled (``OrderChosen``). A different order answered since starts the agreement again."""

    __slots__ = ("seat", "group", "order", "rule")
    __match_args__ = __slots__
    TYPE = "OrderProposed"

    def __init__(self, seat, group, order, rule) -> None:
        self.seat = seat
        self.group = group
        self.order = order
        self.rule = rule


class TurnStarted(Record):
    """A figure's turn began, in initiative order (GH-C2)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "TurnStarted"
    RULE = "GH-C2"

    def __init__(self, figure) -> None:
        self.figure = figure


class CardPlayed(Record):
    """A character performed the top or bottom action of a card in play (GH-3), or played it without its action (``skipped``)."""

    __slots__ = ("seat", "card", "half", "action", "skipped")
    __match_args__ = __slots__
    TYPE = "CardPlayed"
    RULE = "GH-3"

    def __init__(self, seat, card, half, action, skipped) -> None:
        self.seat = seat
        self.card = card
        self.half = half
        self.action = action
        self.skipped = skipped


class FigureMoved(Record):
    """A figure moved along ``path`` (start excluded) by walk, jump or fly, spending ``cost`` movement points (GH-4, GH-5)."""

    __slots__ = ("figure", "start", "path", "mode", "cost", "rule")
    __match_args__ = __slots__
    TYPE = "FigureMoved"

    def __init__(self, figure, start, path, mode, cost, rule) -> None:
        self.figure = figure
        self.start = start
        self.path = path
        self.mode = mode
        self.cost = cost
        self.rule = rule


class DoorOpened(Record):
    """A character entered a closed door, which opens for good (GH-C1)."""

    __slots__ = ("figure", "hex")
    __match_args__ = __slots__
    TYPE = "DoorOpened"
    RULE = "GH-C1"

    def __init__(self, figure, hex) -> None:
        self.figure = figure
        self.hex = hex


class TrapSprung(Record):
    """A figure entered a trap and took its damage; the trap is removed (GH-4, GH-5, GH-C1)."""

    __slots__ = ("figure", "hex", "damage", "rule")
    __match_args__ = __slots__
    TYPE = "TrapSprung"

    def __init__(self, figure, hex, damage, rule) -> None:
        self.figure = figure
        self.hex = hex
        self.damage = damage
        self.rule = rule


class HazardEntered(Record):
    """A figure entered hazardous terrain and took half trap damage; it stays (GH-4, GH-C1)."""

    __slots__ = ("figure", "hex", "damage", "rule")
    __match_args__ = __slots__
    TYPE = "HazardEntered"

    def __init__(self, figure, hex, damage, rule) -> None:
        self.figure = figure
        self.hex = hex
        self.damage = damage
        self.rule = rule


class AttackResolved(Record):
    """One attack on one target (GH-C5): modifier cards ``drawn`` from ``deck`` (two with advantage or disadvantage, ``effect``), the one ``used``, the damage dealt and the target's hit points after."""

    __slots__ = ("attacker", "target", "deck", "value", "drawn", "used", "effect", "damage", "hp")
    __match_args__ = __slots__
    TYPE = "AttackResolved"
    RULE = "GH-C5"

    def __init__(self, attacker, target, deck, value, drawn, used, effect, damage, hp) -> None:
        self.attacker = attacker
        self.target = target
        self.deck = deck
        self.value = value
        self.drawn = drawn
        self.used = used
        self.effect = effect
        self.damage = damage
        self.hp = hp


class DeckReshuffled(Record):
    """An attack modifier deck ran out mid-round and was shuffled whole again before a draw (GH-C5)."""

    __slots__ = ("deck",)
    __match_args__ = __slots__
    TYPE = "DeckReshuffled"
    RULE = "GH-C5"

    def __init__(self, deck) -> None:
        self.deck = deck


class FigureDied(Record):
    """A monster or summon at 0 hit points is removed (GH-C5)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "FigureDied"
    RULE = "GH-C5"

    def __init__(self, figure) -> None:
        self.figure = figure


class FigureHealed(Record):
    """A figure healed ``amount`` (up to its maximum)."""

    __slots__ = ("figure", "amount", "hp")
    __match_args__ = __slots__
    TYPE = "FigureHealed"
    RULE = "GH-C3"

    def __init__(self, figure, amount, hp) -> None:
        self.figure = figure
        self.amount = amount
        self.hp = hp


class FigureSummoned(Record):
    """A character's summon entered the map; it acts from the next round, before its summoner (GH-8)."""

    __slots__ = ("seat", "figure")
    __match_args__ = __slots__
    TYPE = "FigureSummoned"
    RULE = "GH-8"

    def __init__(self, seat, figure) -> None:
        self.seat = seat
        self.figure = figure


class MonsterTurnPlanned(Record):
    """A monster (or summon) chose its focus and its equally good options (GH-6, GH-7, GH-C4, GH-C8…GH-C11):
    every enemy ``candidates`` considered, the tie-break that decided (``decided_by``), the options it
    acts from, and every destination it weighed with the step that kept or dropped it (``destinations``)."""

    __slots__ = ("figure", "focus", "candidates", "decided_by", "options", "rule", "destinations")
    __match_args__ = __slots__
    TYPE = "MonsterTurnPlanned"
    DEFAULTS = {"destinations": ()}

    def __init__(self, figure, focus, candidates, decided_by, options, rule, destinations=()) -> None:
        self.figure = figure
        self.focus = focus
        self.candidates = candidates
        self.decided_by = decided_by
        self.options = options
        self.rule = rule
        self.destinations = destinations


class OptionChosen(Record):
    """The option a monster's turn takes: the rules' only one (``seat`` '') or the players' pick among tied ones (GH-C4)."""

    __slots__ = ("seat", "figure", "index", "option", "rule")
    __match_args__ = __slots__
    TYPE = "OptionChosen"

    def __init__(self, seat, figure, index, option, rule) -> None:
        self.seat = seat
        self.figure = figure
        self.index = index
        self.option = option
        self.rule = rule


class TurnEnded(Record):
    """A figure's turn is over."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "TurnEnded"
    RULE = "GH-C2"

    def __init__(self, figure) -> None:
        self.figure = figure


class CardsDiscarded(Record):
    """At the end of a character's turn its two cards go to the discard pile, or the lost pile for a lost action (GH-3)."""

    __slots__ = ("seat", "discarded", "lost")
    __match_args__ = __slots__
    TYPE = "CardsDiscarded"
    RULE = "GH-3"

    def __init__(self, seat, discarded, lost) -> None:
        self.seat = seat
        self.discarded = discarded
        self.lost = lost


class LongRested(Record):
    """A long rest on the character's turn: the chosen card lost, the rest of the discard back to hand, 2 hit points healed (GH-C6)."""

    __slots__ = ("seat", "lost", "returned", "healed")
    __match_args__ = __slots__
    TYPE = "LongRested"
    RULE = "GH-C6"

    def __init__(self, seat, lost, returned, healed) -> None:
        self.seat = seat
        self.lost = lost
        self.returned = returned
        self.healed = healed


class ShortRestOffered(Record):
    """End of round: these characters may short rest (GH-C6)."""

    __slots__ = ("seats",)
    __match_args__ = __slots__
    TYPE = "ShortRestOffered"
    RULE = "GH-C6"

    def __init__(self, seats) -> None:
        self.seats = seats


class ShortRested(Record):
    """A short rest: one random discarded card lost, the others back to hand (GH-C6)."""

    __slots__ = ("seat", "lost", "returned")
    __match_args__ = __slots__
    TYPE = "ShortRested"
    RULE = "GH-C6"

    def __init__(self, seat, lost, returned) -> None:
        self.seat = seat
        self.lost = lost
        self.returned = returned


class ShortRestDeclined(Record):
    """A character chose not to short rest this round (GH-C6)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "ShortRestDeclined"
    RULE = "GH-C6"

    def __init__(self, seat) -> None:
        self.seat = seat


class RoundEnded(Record):
    """The round is over (GH-C2): ``reshuffled`` names the decks shuffled back (a modifier deck that drew 2x or Null, a monster deck whose card says so)."""

    __slots__ = ("round", "reshuffled")
    __match_args__ = __slots__
    TYPE = "RoundEnded"
    RULE = "GH-C2"

    def __init__(self, round, reshuffled) -> None:
        self.round = round
        self.reshuffled = reshuffled


class GameEnded(Record):
    """The scenario is over: won (no monster left), lost (every character exhausted), or out of rounds."""

    __slots__ = ("outcome", "round")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "GH-C2"

    def __init__(self, outcome, round) -> None:
        self.outcome = outcome
        self.round = round


class _EventRegistry(Registry):
    """The events, plus the records nested in them (a focus Candidate, an Option, a summoned Figure).

    Nested records decode through the same registry as the event that holds them, so they are in
    ``by_type``; but they are parts, not events: ``names`` and ``in`` leave them out, so no log can
    hold one as an event and every listed name is an event that cites a clause.
    """

    def __init__(self, kind: str, classes: tuple, parts: tuple) -> None:
        Registry.__init__(self, kind, classes + parts)
        self.parts = tuple(cls.TYPE for cls in parts)

    def names(self) -> list:
        return sorted(tag for tag in self.by_type if tag not in self.parts)

    def __contains__(self, tag: str) -> bool:
        return Registry.__contains__(self, tag) and tag not in self.parts


EVENTS = _EventRegistry(
    "event",
    (
        GameStarted,
        RoundStarted,
        CharacterExhausted,
        CardsSelected,
        CardsRevealed,
        MonsterCardDrawn,
        InitiativeSet,
        TieOffered,
        OrderChosen,
        OrderProposed,
        TurnStarted,
        CardPlayed,
        FigureMoved,
        DoorOpened,
        TrapSprung,
        HazardEntered,
        AttackResolved,
        DeckReshuffled,
        FigureDied,
        FigureHealed,
        FigureSummoned,
        MonsterTurnPlanned,
        OptionChosen,
        TurnEnded,
        CardsDiscarded,
        LongRested,
        ShortRestOffered,
        ShortRested,
        ShortRestDeclined,
        RoundEnded,
        GameEnded,
    ),
    (Candidate, Option, Considered, Figure, Stats),
)
COMMANDS = Registry("command", (SelectCards, DeclareLongRest, ChooseOrder, PlayCard, RestLose, ChooseOption, ShortRest))
STATES = Registry(
    "state",
    (State, VariantState, Map, Action, Card, Stats, Summon, CharacterClass, MonsterAction, MonsterCard, MonsterType, Figure, Pick, Sealed,
     Hero, Group, Deck, Pending, Candidate, Option, Considered),
)

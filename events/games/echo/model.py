"""The Movement phase of "Echo": the records (map, cards, state, events, commands).

Places, cards and enemies are known by string ids from the data files (``juffins-office``,
``novice-barking-fish``); names come in pairs, Russian first (``name_ru``) and English beside it
(``name_en``), because the game's players read Russian. Tuples indexed like ``state.seats`` hold
per-seat facts. Skill and track values are plain integers; Sanity and Health may go below zero
(EC-17, EC-18 read thresholds of 0, −1 and −2).
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry, Worked

# --- the map and the cards (static for a whole game) -----------------------------------------------


class Location(Record):
    """A place of the map (EC-C1). ``kind``: ``street``, ``ministry``, ``asylum`` or ``dark-side``."""

    __slots__ = ("id", "name_ru", "name_en", "kind", "x", "y")
    __match_args__ = __slots__
    TYPE = "Location"

    def __init__(self, id: str, name_ru: str, name_en: str, kind: str, x: int, y: int) -> None:
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.kind = kind
        self.x = x
        self.y = y


class Link(Record):
    """Two places joined by a white arrow (``arrow``) or by the Dark Path (``dark``); each costs 1 (EC-2)."""

    __slots__ = ("a", "b", "kind")
    __match_args__ = __slots__
    TYPE = "Link"

    def __init__(self, a: str, b: str, kind: str) -> None:
        self.a = a
        self.b = b
        self.kind = kind


class Map(Worked):
    """Locations and links; the Asylum, the Ministry of Perfect Order locations and the Dark Side (EC-C1).

    ``ministry[0]`` is where an injured investigator's figure goes (EC-18).
    """

    __slots__ = ("name_ru", "name_en", "locations", "links", "asylum", "ministry", "dark_side")
    __match_args__ = __slots__
    TYPE = "Map"

    def __init__(
        self, name_ru: str, name_en: str, locations: tuple, links: tuple, asylum: str, ministry: tuple, dark_side: str
    ) -> None:
        self.name_ru = name_ru
        self.name_en = name_en
        self.locations = locations
        self.links = links
        self.asylum = asylum
        self.ministry = ministry
        self.dark_side = dark_side


class EnemyCard(Record):
    """An enemy card (EC-C2): front (Sanity, Health, evasion and attention penalties), back (attack).

    ``kind`` is ``person``, ``undead`` or ``artifact`` (EC-C4); ``blue``/``red`` are attack dice for
    Sanity/Health (EC-13); ``fixed_sanity``/``fixed_health`` are dealt without a roll (EC-14);
    ``clues`` is what a detained enemy is exchanged for (EC-17).
    """

    __slots__ = ("id", "name_ru", "name_en", "kind", "sanity", "health", "evasion", "attention", "blue", "red",
                 "fixed_sanity", "fixed_health", "clues")
    __match_args__ = __slots__
    TYPE = "EnemyCard"

    def __init__(
        self, id: str, name_ru: str, name_en: str, kind: str, sanity: int, health: int, evasion: int,
        attention: int, blue: int, red: int, fixed_sanity: int, fixed_health: int, clues: int,
    ) -> None:
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.kind = kind
        self.sanity = sanity
        self.health = health
        self.evasion = evasion
        self.attention = attention
        self.blue = blue
        self.red = red
        self.fixed_sanity = fixed_sanity
        self.fixed_health = fixed_health
        self.clues = clues


class Spell(Record):
    """A spell card (EC-C2): ``kind`` ``obvious`` (Knowledge) or ``true`` (Intuition) (EC-10),
    difficulty, price of power in Sanity (EC-11), damage to the enemy (EC-12), usable in combat."""

    __slots__ = ("id", "name_ru", "name_en", "kind", "difficulty", "price", "sanity", "health", "combat")
    __match_args__ = __slots__
    TYPE = "Spell"

    def __init__(
        self, id: str, name_ru: str, name_en: str, kind: str, difficulty: int, price: int, sanity: int,
        health: int, combat: bool,
    ) -> None:
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.kind = kind
        self.difficulty = difficulty
        self.price = price
        self.sanity = sanity
        self.health = health
        self.combat = combat


class Item(Record):
    """An item card (EC-C2): the damage it deals when the investigator strikes with it (EC-9)."""

    __slots__ = ("id", "name_ru", "name_en", "sanity", "health")
    __match_args__ = __slots__
    TYPE = "Item"

    def __init__(self, id: str, name_ru: str, name_en: str, sanity: int, health: int) -> None:
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.sanity = sanity
        self.health = health


class Cards(Record):
    """Every enemy, spell and item card a scenario may use, each tuple sorted by id."""

    __slots__ = ("enemies", "spells", "items")
    __match_args__ = __slots__
    TYPE = "Cards"

    def __init__(self, enemies: tuple, spells: tuple, items: tuple) -> None:
        self.enemies = enemies
        self.spells = spells
        self.items = items


# --- the changing parts of a game ------------------------------------------------------------------


class Investigator(Record):
    """One seat's investigator (сыщик): skills, tracks, where it is and what it holds.

    ``mp``: movement points left this round (EC-2). ``escaped``: enemy ids it has evaded in its
    location since it came there or since the round began (EC-3, EC-5). ``detained``: enemy cards
    it took (EC-17). ``allies`` are names (Russian / English), only so that EC-20 can refuse them.
    """

    __slots__ = ("seat", "id", "name_ru", "name_en", "speed", "stealth", "attention", "knowledge", "intuition",
                 "sanity", "health", "location", "mp", "items", "spells", "clues", "allies", "detained",
                 "escaped", "alive")
    __match_args__ = __slots__
    TYPE = "Investigator"

    def __init__(
        self, seat: str, id: str, name_ru: str, name_en: str, speed: int, stealth: int, attention: int,
        knowledge: int, intuition: int, sanity: int, health: int, location: str, mp: int, items: tuple,
        spells: tuple, clues: int, allies: tuple, detained: tuple, escaped: tuple, alive: bool,
    ) -> None:
        self.seat = seat
        self.id = id
        self.name_ru = name_ru
        self.name_en = name_en
        self.speed = speed
        self.stealth = stealth
        self.attention = attention
        self.knowledge = knowledge
        self.intuition = intuition
        self.sanity = sanity
        self.health = health
        self.location = location
        self.mp = mp
        self.items = items
        self.spells = spells
        self.clues = clues
        self.allies = allies
        self.detained = detained
        self.escaped = escaped
        self.alive = alive


class Enemy(Record):
    """An enemy on the map: its card, place and tracks; ``status`` ``active``, ``detained``,
    ``exchanged`` (handed in for clues) or ``dead`` (EC-17)."""

    __slots__ = ("id", "card", "location", "sanity", "health", "status")
    __match_args__ = __slots__
    TYPE = "Enemy"

    def __init__(self, id: str, card: str, location: str, sanity: int, health: int, status: str) -> None:
        self.id = id
        self.card = card
        self.location = location
        self.sanity = sanity
        self.health = health
        self.status = status


class Combat(Record):
    """A fight in one location between the investigators and enemies there (EC-6, EC-16).

    ``seats`` in fight order (from the moving investigator's seat, clockwise); ``round`` counts from
    1 (0 before the first); ``step``: ``order``, ``first``, ``attack``, ``second`` or ``after``;
    ``first``: seats that strike before the enemies this round; ``forced``: seats whose last
    evasion failed, so the enemies strike first without a check (EC-8); ``queue``: the prompts
    left in this step, the first one waiting (EC-C3).

    A prompt is a tuple ``(kind, actor, seat, enemy)``: ``kind`` is ``order`` (the strike-order
    check, EC-7), ``strike`` (EC-9), ``attack`` (the enemy's dice, rolled by ``actor``, the seat to
    the left of ``seat``: EC-13) or ``after`` (evade again or fight on, EC-5); ``seat`` is the
    fighting investigator's seat; ``enemy`` names the attacker of an ``attack`` prompt, else None.
    """

    __slots__ = ("location", "seats", "enemies", "round", "step", "first", "forced", "queue")
    __match_args__ = __slots__
    TYPE = "Combat"

    def __init__(
        self, location: str, seats: tuple, enemies: tuple, round: int, step: str, first: tuple, forced: tuple,
        queue: tuple,
    ) -> None:
        self.location = location
        self.seats = seats
        self.enemies = enemies
        self.round = round
        self.step = step
        self.first = first
        self.forced = forced
        self.queue = queue


class State(Record):
    """Everything true after some events. ``turn`` indexes ``seats`` (whose movement it is, EC-C3);
    ``finished``: seats whose movement is over this round; ``combat``: the fight under way, or None."""

    __slots__ = ("title", "map", "cards", "seats", "investigators", "enemies", "turn", "round", "rounds",
                 "finished", "combat", "over")
    __match_args__ = __slots__
    TYPE = "EchoState"

    def __init__(
        self, title: str, map: Map, cards: Cards, seats: tuple, investigators: tuple, enemies: tuple, turn: int,
        round: int, rounds: int, finished: tuple, combat: Combat | None, over: bool,
    ) -> None:
        self.title = title
        self.map = map
        self.cards = cards
        self.seats = seats
        self.investigators = investigators
        self.enemies = enemies
        self.turn = turn
        self.round = round
        self.rounds = rounds
        self.finished = finished
        self.combat = combat
        self.over = over


# --- commands --------------------------------------------------------------------------------------


class Move(Record):
    """Step to a neighbouring place along a white arrow or the Dark Path, or to the Dark Side (EC-2, EC-19)."""

    __slots__ = ("to",)
    __match_args__ = __slots__
    TYPE = "Move"
    KINDS = {"to": "str"}

    def __init__(self, to: str) -> None:
        self.to = to


class EndMove(Record):
    """End this investigator's movement for the round (EC-C3)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "EndMove"
    KINDS = {}


class Evade(Record):
    """Try to slip away from one enemy with a Stealth check (EC-4; after a round, EC-5)."""

    __slots__ = ("enemy",)
    __match_args__ = __slots__
    TYPE = "Evade"
    KINDS = {"enemy": "str"}

    def __init__(self, enemy: str) -> None:
        self.enemy = enemy


class Fight(Record):
    """Fight the enemies here (EC-3, EC-6), or, after a round, fight on without evading (EC-5)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Fight"
    KINDS = {}


class CheckOrder(Record):
    """The strike-order check with ``attention`` or, in the first round, ``stealth`` (EC-7, EC-8)."""

    __slots__ = ("skill",)
    __match_args__ = __slots__
    TYPE = "CheckOrder"
    KINDS = {"skill": "str"}

    def __init__(self, skill: str) -> None:
        self.skill = skill


class Strike(Record):
    """Strike ``enemy`` with an item or a spell (``card``) (EC-9, EC-10)."""

    __slots__ = ("enemy", "card")
    __match_args__ = __slots__
    TYPE = "Strike"
    KINDS = {"enemy": "str", "card": "str"}

    def __init__(self, enemy: str, card: str) -> None:
        self.enemy = enemy
        self.card = card


class Pass(Record):
    """Let this strike go by: with no item or combat spell there is nothing to strike with (EC-9)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Pass"
    KINDS = {}


class RollAttack(Record):
    """Roll the waiting enemy attack's dice: only the seat to the fighter's left may (EC-13)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "RollAttack"
    KINDS = {}


class Trade(Record):
    """Hand one of this investigator's items to the investigator of seat ``to`` here (EC-20)."""

    __slots__ = ("item", "to")
    __match_args__ = __slots__
    TYPE = "Trade"
    KINDS = {"item": "str", "to": "str"}

    def __init__(self, item: str, to: str) -> None:
        self.item = item
        self.to = to


class Exchange(Record):
    """Exchange a detained enemy's card for clues (EC-17)."""

    __slots__ = ("enemy",)
    __match_args__ = __slots__
    TYPE = "Exchange"
    KINDS = {"enemy": "str"}

    def __init__(self, enemy: str) -> None:
        self.enemy = enemy


# --- events ----------------------------------------------------------------------------------------


class RoundBegan(Record):
    """A movement round begins: each living investigator gets Speed movement points (EC-2);
    ``points`` is ((seat, points), ...); ``first`` is the seat that moves first (EC-C3)."""

    __slots__ = ("round", "points", "first")
    __match_args__ = __slots__
    TYPE = "RoundBegan"
    RULE = "EC-2"

    def __init__(self, round: int, points: tuple, first: str) -> None:
        self.round = round
        self.points = points
        self.first = first


class InvestigatorMoved(Record):
    """One step along a link (EC-2) or to the Dark Side (EC-19); ``cost`` movement points, ``mp`` left."""

    __slots__ = ("seat", "start", "to", "link", "cost", "mp", "rule")
    __match_args__ = __slots__
    TYPE = "InvestigatorMoved"

    def __init__(self, seat: str, start: str, to: str, link: str, cost: int, mp: int, rule: str) -> None:
        self.seat = seat
        self.start = start
        self.to = to
        self.link = link
        self.cost = cost
        self.mp = mp
        self.rule = rule


class EvasionRolled(Record):
    """A Stealth check against an enemy's evasion penalty: ``stealth − penalty`` dice (EC-4, EC-5)."""

    __slots__ = ("seat", "enemy", "stealth", "penalty", "dice", "success", "rule")
    __match_args__ = __slots__
    TYPE = "EvasionRolled"

    def __init__(
        self, seat: str, enemy: str, stealth: int, penalty: int, dice: tuple, success: bool, rule: str
    ) -> None:
        self.seat = seat
        self.enemy = enemy
        self.stealth = stealth
        self.penalty = penalty
        self.dice = dice
        self.success = success
        self.rule = rule


class CombatBegan(Record):
    """A fight begins in ``location``: these investigators (fight order) against these enemies
    (EC-6; all together, EC-16). ``forced``: seats whose evasion just failed (EC-4, EC-8)."""

    __slots__ = ("location", "seats", "enemies", "forced", "rule")
    __match_args__ = __slots__
    TYPE = "CombatBegan"

    def __init__(self, location: str, seats: tuple, enemies: tuple, forced: tuple, rule: str) -> None:
        self.location = location
        self.seats = seats
        self.enemies = enemies
        self.forced = forced
        self.rule = rule


class CombatStepBegan(Record):
    """A step of round ``round`` begins with these prompts waiting, in order (EC-6)."""

    __slots__ = ("round", "step", "queue")
    __match_args__ = __slots__
    TYPE = "CombatStepBegan"
    RULE = "EC-6"

    def __init__(self, round: int, step: str, queue: tuple) -> None:
        self.round = round
        self.step = step
        self.queue = queue


class StrikeOrderRolled(Record):
    """The strike-order check against one enemy: ``skill`` value − the enemy's attention penalty
    dice (EC-7; with Stealth the first time, EC-8)."""

    __slots__ = ("seat", "enemy", "skill", "value", "penalty", "dice", "success", "rule")
    __match_args__ = __slots__
    TYPE = "StrikeOrderRolled"

    def __init__(
        self, seat: str, enemy: str, skill: str, value: int, penalty: int, dice: tuple, success: bool, rule: str
    ) -> None:
        self.seat = seat
        self.enemy = enemy
        self.skill = skill
        self.value = value
        self.penalty = penalty
        self.dice = dice
        self.success = success
        self.rule = rule


class StrikeOrderSet(Record):
    """Whether ``seat`` strikes before the enemies this round, and why (EC-7, EC-8, EC-16).

    ``holds``: EC-8's failed evasion holds for the whole round (the seat stays in ``Combat.forced``
    until the round's ``after`` step, so a check or an early strike is refused under EC-8). False
    in every log before echo-2, which folds as it did then.
    """

    __slots__ = ("seat", "first", "reason", "rule", "holds")
    __match_args__ = __slots__
    TYPE = "StrikeOrderSet"
    DEFAULTS = {"holds": False}

    def __init__(self, seat: str, first: bool, reason: str, rule: str, holds: bool = False) -> None:
        self.seat = seat
        self.first = first
        self.reason = reason
        self.rule = rule
        self.holds = holds


class ItemStruck(Record):
    """The investigator struck with an item: its damage, no roll (EC-9, EC-C2)."""

    __slots__ = ("seat", "enemy", "item", "sanity", "health")
    __match_args__ = __slots__
    TYPE = "ItemStruck"
    RULE = "EC-9"

    def __init__(self, seat: str, enemy: str, item: str, sanity: int, health: int) -> None:
        self.seat = seat
        self.enemy = enemy
        self.item = item
        self.sanity = sanity
        self.health = health


class SpellCast(Record):
    """A cast: ``skill`` (Knowledge for obvious, Intuition for true magic) − difficulty dice (EC-10)."""

    __slots__ = ("seat", "enemy", "spell", "skill", "value", "difficulty", "dice", "success")
    __match_args__ = __slots__
    TYPE = "SpellCast"
    RULE = "EC-10"

    def __init__(
        self, seat: str, enemy: str, spell: str, skill: str, value: int, difficulty: int, dice: tuple, success: bool
    ) -> None:
        self.seat = seat
        self.enemy = enemy
        self.spell = spell
        self.skill = skill
        self.value = value
        self.difficulty = difficulty
        self.dice = dice
        self.success = success


class PowerPaid(Record):
    """The spell's price of power, paid in Sanity whatever the outcome (EC-11)."""

    __slots__ = ("seat", "spell", "price", "sanity")
    __match_args__ = __slots__
    TYPE = "PowerPaid"
    RULE = "EC-11"

    def __init__(self, seat: str, spell: str, price: int, sanity: int) -> None:
        self.seat = seat
        self.spell = spell
        self.price = price
        self.sanity = sanity


class StrikePassed(Record):
    """The investigator let its strike go by (EC-9)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "StrikePassed"
    RULE = "EC-9"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class EnemyDamaged(Record):
    """An enemy lost Sanity and/or Health (EC-12); ``sanity``/``health`` are its values after."""

    __slots__ = ("enemy", "by", "sanity_loss", "health_loss", "sanity", "health", "rule")
    __match_args__ = __slots__
    TYPE = "EnemyDamaged"

    def __init__(
        self, enemy: str, by: str, sanity_loss: int, health_loss: int, sanity: int, health: int, rule: str
    ) -> None:
        self.enemy = enemy
        self.by = by
        self.sanity_loss = sanity_loss
        self.health_loss = health_loss
        self.sanity = sanity
        self.health = health
        self.rule = rule


class EnemyAttacked(Record):
    """An enemy's attack dice, rolled by ``roller`` (the seat to ``seat``'s left): blue for Sanity,
    red for Health, each 5 or 6 a point lost (EC-13); ``sanity``/``health`` are the victim's after.

    ``rule`` is EC-13, or EC-16 in a group fight, where by the digest's reading each enemy that
    strikes strikes each investigator of the fight once a round (logs before echo-2: EC-13).
    """

    __slots__ = ("roller", "seat", "enemy", "blue", "red", "sanity_loss", "health_loss", "sanity", "health", "rule")
    __match_args__ = __slots__
    TYPE = "EnemyAttacked"
    DEFAULTS = {"rule": "EC-13"}

    def __init__(
        self, roller: str, seat: str, enemy: str, blue: tuple, red: tuple, sanity_loss: int, health_loss: int,
        sanity: int, health: int, rule: str = "EC-13",
    ) -> None:
        self.roller = roller
        self.seat = seat
        self.enemy = enemy
        self.blue = blue
        self.red = red
        self.sanity_loss = sanity_loss
        self.health_loss = health_loss
        self.sanity = sanity
        self.health = health
        self.rule = rule


class FixedDamageDealt(Record):
    """Damage the enemy card deals with every attack, without a roll (EC-14)."""

    __slots__ = ("seat", "enemy", "sanity_loss", "health_loss", "sanity", "health")
    __match_args__ = __slots__
    TYPE = "FixedDamageDealt"
    RULE = "EC-14"

    def __init__(
        self, seat: str, enemy: str, sanity_loss: int, health_loss: int, sanity: int, health: int
    ) -> None:
        self.seat = seat
        self.enemy = enemy
        self.sanity_loss = sanity_loss
        self.health_loss = health_loss
        self.sanity = sanity
        self.health = health


class EnemyDetained(Record):
    """The enemy is detained: ``seat``'s investigator takes its card (EC-17)."""

    __slots__ = ("enemy", "seat", "sanity", "health")
    __match_args__ = __slots__
    TYPE = "EnemyDetained"
    RULE = "EC-17"

    def __init__(self, enemy: str, seat: str, sanity: int, health: int) -> None:
        self.enemy = enemy
        self.seat = seat
        self.sanity = sanity
        self.health = health


class EnemyKilled(Record):
    """The enemy is dead: its card leaves the game (EC-17; undead and artifacts, EC-C4)."""

    __slots__ = ("enemy", "seat", "sanity", "health", "reason", "rule")
    __match_args__ = __slots__
    TYPE = "EnemyKilled"

    def __init__(self, enemy: str, seat: str, sanity: int, health: int, reason: str, rule: str) -> None:
        self.enemy = enemy
        self.seat = seat
        self.sanity = sanity
        self.health = health
        self.reason = reason
        self.rule = rule


class InvestigatorDied(Record):
    """The investigator died (EC-18)."""

    __slots__ = ("seat", "sanity", "health", "reason")
    __match_args__ = __slots__
    TYPE = "InvestigatorDied"
    RULE = "EC-18"

    def __init__(self, seat: str, sanity: int, health: int, reason: str) -> None:
        self.seat = seat
        self.sanity = sanity
        self.health = health
        self.reason = reason


class InvestigatorSentAway(Record):
    """The investigator survives: to the Asylum with Sanity 1, or the Ministry with Health 1 (EC-18).

    ``track`` is the one reset to 1 (``sanity`` or ``health``); its movement this round is over.
    """

    __slots__ = ("seat", "start", "to", "track")
    __match_args__ = __slots__
    TYPE = "InvestigatorSentAway"
    RULE = "EC-18"

    def __init__(self, seat: str, start: str, to: str, track: str) -> None:
        self.seat = seat
        self.start = start
        self.to = to
        self.track = track


class FightContinued(Record):
    """After a round the investigator chose to fight on rather than evade again (EC-5)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "FightContinued"
    RULE = "EC-5"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class CombatLeft(Record):
    """The investigator has escaped every enemy left in the fight and leaves it (EC-5, EC-15)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "CombatLeft"
    RULE = "EC-15"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class CombatRoundEnded(Record):
    """The round cost each fighter 1 movement point; ``points``: (seat, points left) (EC-15)."""

    __slots__ = ("round", "points")
    __match_args__ = __slots__
    TYPE = "CombatRoundEnded"
    RULE = "EC-15"

    def __init__(self, round: int, points: tuple) -> None:
        self.round = round
        self.points = points


class CombatEnded(Record):
    """The fight is over: every enemy defeated, or no investigator left in it (EC-6, EC-15)."""

    __slots__ = ("location", "reason")
    __match_args__ = __slots__
    TYPE = "CombatEnded"
    RULE = "EC-15"

    def __init__(self, location: str, reason: str) -> None:
        self.location = location
        self.reason = reason


class DetainedExchanged(Record):
    """A detained enemy's card exchanged for clues (EC-17)."""

    __slots__ = ("seat", "enemy", "clues")
    __match_args__ = __slots__
    TYPE = "DetainedExchanged"
    RULE = "EC-17"

    def __init__(self, seat: str, enemy: str, clues: int) -> None:
        self.seat = seat
        self.enemy = enemy
        self.clues = clues


class ItemTraded(Record):
    """An item changed hands between investigators in the same place (EC-20)."""

    __slots__ = ("seat", "to", "item")
    __match_args__ = __slots__
    TYPE = "ItemTraded"
    RULE = "EC-20"

    def __init__(self, seat: str, to: str, item: str) -> None:
        self.seat = seat
        self.to = to
        self.item = item


class TurnEnded(Record):
    """A seat's movement is over; ``next_seat`` moves in ``round`` (None: the game ends) (EC-C3)."""

    __slots__ = ("seat", "next_seat", "round")
    __match_args__ = __slots__
    TYPE = "TurnEnded"
    RULE = "EC-C3"

    def __init__(self, seat: str, next_seat: str | None, round: int) -> None:
        self.seat = seat
        self.next_seat = next_seat
        self.round = round


class GameEnded(Record):
    """The scenario's rounds are played, or no investigator is alive (EC-C3)."""

    __slots__ = ("round", "reason")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "EC-C3"

    def __init__(self, round: int, reason: str) -> None:
        self.round = round
        self.reason = reason


EVENTS = Registry(
    "event",
    (
        GameStarted, RoundBegan, InvestigatorMoved, EvasionRolled, CombatBegan, CombatStepBegan, StrikeOrderRolled,
        StrikeOrderSet, ItemStruck, SpellCast, PowerPaid, StrikePassed, EnemyDamaged, EnemyAttacked,
        FixedDamageDealt, EnemyDetained, EnemyKilled, InvestigatorDied, InvestigatorSentAway, FightContinued,
        CombatLeft, CombatRoundEnded, CombatEnded, DetainedExchanged, ItemTraded, TurnEnded, GameEnded,
    ),
)
COMMANDS = Registry("command", (Move, EndMove, Evade, Fight, CheckOrder, Strike, Pass, RollAttack, Trade, Exchange))
# What a state is made of, for the shell's snapshots (server/snapshots.py decodes a state with it).
STATES = Registry(
    "state", (State, Map, Location, Link, Cards, EnemyCard, Spell, Item, Investigator, Enemy, Combat)
)

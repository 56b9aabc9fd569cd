"""Arkham Horror's Movement phase: the records (board, state, events, commands).

Areas are known by their id (``graveyard``, ``rivertown``, ``rlyeh_2``). Per-seat facts live in
``Investigator`` records, one per seat in seat order; monsters, gates and clue tokens are tuples
sorted by id or area, so a state has one spelling in CPython and Brython.
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry, Worked

LOST = "lost_in_time_and_space"

# --- the board (static for a whole game) -----------------------------------------------------------


class Area(Record):
    """One area of the board: a Street, a Location, an Other World area or a special area.

    ``kind`` is ``street``, ``location``, ``other_world`` or ``special``; ``street`` is a Location's
    own Street area (AH-3); ``world``/``order`` place an Other World area on its card (AH-9);
    ``at`` is where a renderer draws it.
    """

    __slots__ = ("id", "name", "kind", "street", "unstable", "world", "order", "at")
    __match_args__ = __slots__
    TYPE = "Area"

    def __init__(
        self, id: str, name: str, kind: str, street: str, unstable: bool, world: str, order: int, at: tuple
    ) -> None:
        self.id = id
        self.name = name
        self.kind = kind
        self.street = street
        self.unstable = unstable
        self.world = world
        self.order = order
        self.at = at


class OtherWorld(Record):
    """An Other World card: its first (left) and second (right) areas (AH-9)."""

    __slots__ = ("id", "name", "areas")
    __match_args__ = __slots__
    TYPE = "OtherWorld"

    def __init__(self, id: str, name: str, areas: tuple) -> None:
        self.id = id
        self.name = name
        self.areas = areas


class Board(Worked):
    """Every area, the yellow lines in play (sorted pairs), the lines a source could not confirm."""

    __slots__ = ("name", "areas", "lines", "unverified", "worlds")
    __match_args__ = __slots__
    TYPE = "ArkhamBoard"

    def __init__(self, name: str, areas: tuple, lines: tuple, unverified: tuple, worlds: tuple) -> None:
        self.name = name
        self.areas = areas
        self.lines = lines
        self.unverified = unverified
        self.worlds = worlds


class Investigator(Record):
    """One seat's investigator (AH-C6): skills, what it carries, where it is and how it stands.

    ``where`` is an area id (``LOST`` for Lost in Time and Space, "" once devoured); ``explored``
    is the Location whose Explored marker lies under it (AH-11), else ""; ``trophies`` are
    ``(monster id, name)`` pairs of defeated monsters (AH-C3).
    """

    __slots__ = (
        "seat", "name", "speed", "sneak", "fight", "will", "stamina", "sanity", "clues", "items", "trophies",
        "where", "delayed", "explored", "blessed", "cursed", "devoured",
    )
    __match_args__ = __slots__
    TYPE = "Investigator"

    def __init__(
        self, seat: str, name: str, speed: int, sneak: int, fight: int, will: int, stamina: int, sanity: int,
        clues: int, items: tuple, trophies: tuple, where: str, delayed: bool, explored: str, blessed: bool,
        cursed: bool, devoured: bool,
    ) -> None:
        self.seat = seat
        self.name = name
        self.speed = speed
        self.sneak = sneak
        self.fight = fight
        self.will = will
        self.stamina = stamina
        self.sanity = sanity
        self.clues = clues
        self.items = items
        self.trophies = trophies
        self.where = where
        self.delayed = delayed
        self.explored = explored
        self.blessed = blessed
        self.cursed = cursed
        self.devoured = devoured



class Monster(Record):
    """A monster on the board (AH-C6): its ratings, damage, toughness and ability flags.

    Ratings are modifiers to the investigator's dice (usually negative); ``nightmarish`` and
    ``overwhelming`` are N (0: the monster lacks the ability).
    """

    __slots__ = (
        "id", "name", "area", "awareness", "horror_rating", "horror_damage", "combat_rating", "combat_damage",
        "toughness", "elusive", "ambush", "nightmarish", "overwhelming",
    )
    __match_args__ = __slots__
    TYPE = "Monster"

    def __init__(
        self, id: str, name: str, area: str, awareness: int, horror_rating: int, horror_damage: int,
        combat_rating: int, combat_damage: int, toughness: int, elusive: bool, ambush: bool, nightmarish: int,
        overwhelming: int,
    ) -> None:
        self.id = id
        self.name = name
        self.area = area
        self.awareness = awareness
        self.horror_rating = horror_rating
        self.horror_damage = horror_damage
        self.combat_rating = combat_rating
        self.combat_damage = combat_damage
        self.toughness = toughness
        self.elusive = elusive
        self.ambush = ambush
        self.nightmarish = nightmarish
        self.overwhelming = overwhelming


class Pending(Record):
    """A failed check waiting for its player: spend a Clue token for one more die, or accept (AH-C1)."""

    __slots__ = ("check", "monster", "rolls", "successes", "difficulty", "threshold")
    __match_args__ = __slots__
    TYPE = "PendingCheck"

    def __init__(
        self, check: str, monster: str, rolls: tuple, successes: int, difficulty: int, threshold: int
    ) -> None:
        self.check = check
        self.monster = monster
        self.rolls = rolls
        self.successes = successes
        self.difficulty = difficulty
        self.threshold = threshold


class Offer(Record):
    """A trade the moving investigator proposed; its partner's seat must answer (AH-C10)."""

    __slots__ = ("seat", "partner", "give", "take")
    __match_args__ = __slots__
    TYPE = "TradeOffer"

    def __init__(self, seat: str, partner: str, give: tuple, take: tuple) -> None:
        self.seat = seat
        self.partner = partner
        self.give = give
        self.take = take


class State(Record):
    """Everything true after some events.

    ``active`` indexes the seat whose movement it is; ``step`` what that seat is doing when no
    trade offer, pending check or combat takes precedence: ``begin`` (nothing yet), ``move``,
    ``return`` (choose a gate, AH-11), ``place`` (after Lost in Time and Space, AH-C5), ``clues``
    (AH-5) or ``done``. ``points`` are the movement points left; ``halt`` the clause that took them
    (AH-8 after a combat, AH-C7 when delayed, AH-9 after an Other World), "" otherwise. ``dealt``
    lists the monsters of the current area already evaded or set aside in this movement (AH-7,
    AH-C8, AH-C9); ``combat`` the monster being fought, "" if none.
    """

    __slots__ = (
        "title", "board", "investigators", "monsters", "gates", "clues", "spend_clues", "round", "rounds",
        "active", "step", "points", "halt", "dealt", "combat", "pending", "offer", "over",
    )
    __match_args__ = __slots__
    TYPE = "ArkhamState"

    def __init__(
        self, title: str, board: Board, investigators: tuple, monsters: tuple, gates: tuple, clues: tuple,
        spend_clues: bool, round: int, rounds: int, active: int, step: str, points: int, halt: str, dealt: tuple,
        combat: str, pending: Pending | None, offer: Offer | None, over: bool,
    ) -> None:
        self.title = title
        self.board = board
        self.investigators = investigators
        self.monsters = monsters
        self.gates = gates
        self.clues = clues
        self.spend_clues = spend_clues
        self.round = round
        self.rounds = rounds
        self.active = active
        self.step = step
        self.points = points
        self.halt = halt
        self.dealt = dealt
        self.combat = combat
        self.pending = pending
        self.offer = offer
        self.over = over



# --- commands --------------------------------------------------------------------------------------


class Move(Record):
    """Walk to area ``to``, one movement point per yellow line (AH-2, AH-3).

    ``path`` is the route the player chose: the areas entered in order (start excluded), ending in
    ``to``; each step is checked and the first illegal one refused. Empty (the default, and what a
    log written before arkham-3 holds): the cheapest route.
    """

    __slots__ = ("to", "path")
    __match_args__ = __slots__
    TYPE = "Move"
    KINDS = {"to": "str", "path": "tuple[str, ...]"}
    DEFAULTS = {"path": ()}

    def __init__(self, to: str, path: tuple = ()) -> None:
        self.to = to
        self.path = path


class Stop(Record):
    """End this movement where the investigator stands (remaining points are lost)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Stop"
    KINDS = {}


class TakeClues(Record):
    """Take ``count`` of the Clue tokens where the movement ended, 0 to all (AH-5)."""

    __slots__ = ("count",)
    __match_args__ = __slots__
    TYPE = "TakeClues"
    KINDS = {"count": "int"}

    def __init__(self, count: int) -> None:
        self.count = count


class Evade(Record):
    """Try to evade this monster of the investigator's area (AH-7, AH-C2)."""

    __slots__ = ("monster",)
    __match_args__ = __slots__
    TYPE = "Evade"
    KINDS = {"monster": "str"}

    def __init__(self, monster: str) -> None:
        self.monster = monster


class Fight(Record):
    """Fight this monster: start a combat with it (AH-8), or fight one more round of it (AH-C3)."""

    __slots__ = ("monster",)
    __match_args__ = __slots__
    TYPE = "Fight"
    KINDS = {"monster": "str"}

    def __init__(self, monster: str) -> None:
        self.monster = monster


class Flee(Record):
    """In combat, flee instead of fighting this round: an Evade check (AH-C3)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Flee"
    KINDS = {}


class SpendClue(Record):
    """After a failed roll, spend one Clue token to roll one more die (AH-C1, a scenario option)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "SpendClue"
    KINDS = {}


class AcceptRoll(Record):
    """Keep the failed roll as it is (AH-C1)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "AcceptRoll"
    KINDS = {}


class Return(Record):
    """From an Other World's second area, come back through the open gate at ``location`` (AH-11)."""

    __slots__ = ("location",)
    __match_args__ = __slots__
    TYPE = "Return"
    KINDS = {"location": "str"}

    def __init__(self, location: str) -> None:
        self.location = location


class Place(Record):
    """Leave Lost in Time and Space for any Location or Street area of Arkham (AH-C5)."""

    __slots__ = ("area",)
    __match_args__ = __slots__
    TYPE = "Place"
    KINDS = {"area": "str"}

    def __init__(self, area: str) -> None:
        self.area = area


class OfferTrade(Record):
    """Offer ``partner`` (same area) the items ``give`` for its items ``take`` (AH-C10)."""

    __slots__ = ("partner", "give", "take")
    __match_args__ = __slots__
    TYPE = "OfferTrade"
    KINDS = {"partner": "str", "give": "tuple[str, ...]", "take": "tuple[str, ...]"}

    def __init__(self, partner: str, give: tuple, take: tuple) -> None:
        self.partner = partner
        self.give = give
        self.take = take


class AnswerTrade(Record):
    """The partner of a trade offer accepts it or declines it (AH-C10)."""

    __slots__ = ("accept",)
    __match_args__ = __slots__
    TYPE = "AnswerTrade"
    KINDS = {"accept": "bool"}

    def __init__(self, accept: bool) -> None:
        self.accept = accept


# --- events ----------------------------------------------------------------------------------------


class MovementBegan(Record):
    """A seat's movement began with ``points`` movement points; ``rule`` says why that many."""

    __slots__ = ("seat", "area", "points", "rule")
    __match_args__ = __slots__
    TYPE = "MovementBegan"

    def __init__(self, seat: str, area: str, points: int, rule: str) -> None:
        self.seat = seat
        self.area = area
        self.points = points
        self.rule = rule


class StoodUp(Record):
    """A delayed investigator stood up instead of moving (AH-C7)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "StoodUp"
    RULE = "AH-C7"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class InvestigatorMoved(Record):
    """The investigator walked ``path`` (start excluded), one point a line; ``aim`` was the area asked.

    ``to`` differs from ``aim`` when monsters on the way stopped the walk (AH-7).
    """

    __slots__ = ("seat", "start", "to", "aim", "path", "points_left")
    __match_args__ = __slots__
    TYPE = "InvestigatorMoved"
    RULE = "AH-3"

    def __init__(self, seat: str, start: str, to: str, aim: str, path: tuple, points_left: int) -> None:
        self.seat = seat
        self.start = start
        self.to = to
        self.aim = aim
        self.path = path
        self.points_left = points_left


class MovedInOtherWorld(Record):
    """From an Other World's first area to its second (AH-10)."""

    __slots__ = ("seat", "start", "to")
    __match_args__ = __slots__
    TYPE = "MovedInOtherWorld"
    RULE = "AH-10"

    def __init__(self, seat: str, start: str, to: str) -> None:
        self.seat = seat
        self.start = start
        self.to = to


class GateChoiceOffered(Record):
    """In an Other World's second area: the open gates its player may return through (AH-11)."""

    __slots__ = ("seat", "world", "gates")
    __match_args__ = __slots__
    TYPE = "GateChoiceOffered"
    RULE = "AH-11"

    def __init__(self, seat: str, world: str, gates: tuple) -> None:
        self.seat = seat
        self.world = world
        self.gates = gates


class ReturnedThroughGate(Record):
    """Back in Arkham at the chosen gate's Location, an Explored marker under it (AH-11)."""

    __slots__ = ("seat", "world", "start", "location")
    __match_args__ = __slots__
    TYPE = "ReturnedThroughGate"
    RULE = "AH-11"

    def __init__(self, seat: str, world: str, start: str, location: str) -> None:
        self.seat = seat
        self.world = world
        self.start = start
        self.location = location


class MonstersIgnored(Record):
    """Returning through a gate, the investigator need not face the monsters there (AH-C9)."""

    __slots__ = ("seat", "location", "monsters")
    __match_args__ = __slots__
    TYPE = "MonstersIgnored"
    RULE = "AH-C9"

    def __init__(self, seat: str, location: str, monsters: tuple) -> None:
        self.seat = seat
        self.location = location
        self.monsters = monsters


class LostInTimeAndSpace(Record):
    """The investigator went to Lost in Time and Space, delayed (AH-12, AH-C5)."""

    __slots__ = ("seat", "start", "rule")
    __match_args__ = __slots__
    TYPE = "LostInTimeAndSpace"

    def __init__(self, seat: str, start: str, rule: str) -> None:
        self.seat = seat
        self.start = start
        self.rule = rule


class PlacementOffered(Record):
    """A Lost investigator's turn: its player picks a Location or Street area of Arkham (AH-C5)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "PlacementOffered"
    RULE = "AH-C5"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class PlacedInArkham(Record):
    """The Lost investigator was put in the area its player chose (AH-C5)."""

    __slots__ = ("seat", "area")
    __match_args__ = __slots__
    TYPE = "PlacedInArkham"
    RULE = "AH-C5"

    def __init__(self, seat: str, area: str) -> None:
        self.seat = seat
        self.area = area


class MonsterEvaded(Record):
    """The investigator evaded a monster of its area (AH-C2; AH-C6 when the monster is Elusive)."""

    __slots__ = ("seat", "monster", "rule")
    __match_args__ = __slots__
    TYPE = "MonsterEvaded"

    def __init__(self, seat: str, monster: str, rule: str) -> None:
        self.seat = seat
        self.monster = monster
        self.rule = rule


class CheckRolled(Record):
    """A skill check (AH-C1): ``dice`` = skill + modifier, each roll >= ``threshold`` a success.

    ``check`` is ``evade``, ``horror``, ``combat`` or ``flee``; with ``dice`` <= 0 nothing is rolled
    and the check fails.
    """

    __slots__ = ("seat", "check", "monster", "skill", "modifier", "dice", "rolls", "threshold", "successes",
                 "difficulty", "passed")
    __match_args__ = __slots__
    TYPE = "CheckRolled"
    RULE = "AH-C1"

    def __init__(
        self, seat: str, check: str, monster: str, skill: int, modifier: int, dice: int, rolls: tuple,
        threshold: int, successes: int, difficulty: int, passed: bool,
    ) -> None:
        self.seat = seat
        self.check = check
        self.monster = monster
        self.skill = skill
        self.modifier = modifier
        self.dice = dice
        self.rolls = rolls
        self.threshold = threshold
        self.successes = successes
        self.difficulty = difficulty
        self.passed = passed


class ClueSpendOffered(Record):
    """A failed roll its player may improve with Clue tokens, one die each (AH-C1)."""

    __slots__ = ("seat", "check", "monster", "rolls", "successes", "difficulty", "threshold")
    __match_args__ = __slots__
    TYPE = "ClueSpendOffered"
    RULE = "AH-C1"

    def __init__(
        self, seat: str, check: str, monster: str, rolls: tuple, successes: int, difficulty: int, threshold: int
    ) -> None:
        self.seat = seat
        self.check = check
        self.monster = monster
        self.rolls = rolls
        self.successes = successes
        self.difficulty = difficulty
        self.threshold = threshold


class ClueSpent(Record):
    """One Clue token spent for one more die; ``settled`` once the check passes or no Clue is left."""

    __slots__ = ("seat", "check", "roll", "successes", "difficulty", "passed", "settled")
    __match_args__ = __slots__
    TYPE = "ClueSpent"
    RULE = "AH-C1"

    def __init__(
        self, seat: str, check: str, roll: int, successes: int, difficulty: int, passed: bool, settled: bool
    ) -> None:
        self.seat = seat
        self.check = check
        self.roll = roll
        self.successes = successes
        self.difficulty = difficulty
        self.passed = passed
        self.settled = settled


class RollAccepted(Record):
    """The player kept a failed roll without spending (more) Clue tokens (AH-C1)."""

    __slots__ = ("seat", "check", "successes", "difficulty")
    __match_args__ = __slots__
    TYPE = "RollAccepted"
    RULE = "AH-C1"

    def __init__(self, seat: str, check: str, successes: int, difficulty: int) -> None:
        self.seat = seat
        self.check = check
        self.successes = successes
        self.difficulty = difficulty


class StatLost(Record):
    """Stamina or Sanity lost (``stat``), ``left`` after it; ``rule`` the clause that dealt it."""

    __slots__ = ("seat", "stat", "amount", "left", "monster", "rule")
    __match_args__ = __slots__
    TYPE = "StatLost"

    def __init__(self, seat: str, stat: str, amount: int, left: int, monster: str, rule: str) -> None:
        self.seat = seat
        self.stat = stat
        self.amount = amount
        self.left = left
        self.monster = monster
        self.rule = rule


class CombatBegan(Record):
    """A combat with ``monster`` began (``cause``: ``fight`` or ``evade failed``); movement is over (AH-8)."""

    __slots__ = ("seat", "monster", "cause", "points_lost")
    __match_args__ = __slots__
    TYPE = "CombatBegan"
    RULE = "AH-8"

    def __init__(self, seat: str, monster: str, cause: str, points_lost: int) -> None:
        self.seat = seat
        self.monster = monster
        self.cause = cause
        self.points_lost = points_lost


class MonsterDefeated(Record):
    """The monster was defeated and taken as a trophy (AH-C3)."""

    __slots__ = ("seat", "monster", "name")
    __match_args__ = __slots__
    TYPE = "MonsterDefeated"
    RULE = "AH-C3"

    def __init__(self, seat: str, monster: str, name: str) -> None:
        self.seat = seat
        self.monster = monster
        self.name = name


class CombatEnded(Record):
    """The battle is over: ``outcome`` is ``defeated``, ``fled`` or ``collapsed`` (AH-C3, AH-C4)."""

    __slots__ = ("seat", "monster", "outcome")
    __match_args__ = __slots__
    TYPE = "CombatEnded"
    RULE = "AH-C3"

    def __init__(self, seat: str, monster: str, outcome: str) -> None:
        self.seat = seat
        self.monster = monster
        self.outcome = outcome


class KnockedOut(Record):
    """At 0 Stamina (``unconscious``) or Sanity (``insane``): moved to ``to``, clues halved, stat 1 (AH-C4)."""

    __slots__ = ("seat", "condition", "start", "to", "clues_lost", "stat")
    __match_args__ = __slots__
    TYPE = "KnockedOut"
    RULE = "AH-C4"

    def __init__(self, seat: str, condition: str, start: str, to: str, clues_lost: int, stat: str) -> None:
        self.seat = seat
        self.condition = condition
        self.start = start
        self.to = to
        self.clues_lost = clues_lost
        self.stat = stat


class Devoured(Record):
    """Stamina and Sanity both at 0: the investigator is devoured, out of the game (AH-C4)."""

    __slots__ = ("seat", "start")
    __match_args__ = __slots__
    TYPE = "Devoured"
    RULE = "AH-C4"

    def __init__(self, seat: str, start: str) -> None:
        self.seat = seat
        self.start = start


class MovementEnded(Record):
    """The seat ended its movement in ``area``, where ``clues`` Clue tokens lie (AH-5, AH-6)."""

    __slots__ = ("seat", "area", "points_lost", "clues")
    __match_args__ = __slots__
    TYPE = "MovementEnded"
    RULE = "AH-6"

    def __init__(self, seat: str, area: str, points_lost: int, clues: int) -> None:
        self.seat = seat
        self.area = area
        self.points_lost = points_lost
        self.clues = clues


class CluesTaken(Record):
    """The player took ``count`` of the Clue tokens where the movement ended; ``left`` remain (AH-5)."""

    __slots__ = ("seat", "area", "count", "left")
    __match_args__ = __slots__
    TYPE = "CluesTaken"
    RULE = "AH-5"

    def __init__(self, seat: str, area: str, count: int, left: int) -> None:
        self.seat = seat
        self.area = area
        self.count = count
        self.left = left


class TradeOffered(Record):
    """The moving investigator offered a trade to an investigator in its area (AH-C10)."""

    __slots__ = ("seat", "partner", "give", "take")
    __match_args__ = __slots__
    TYPE = "TradeOffered"
    RULE = "AH-C10"

    def __init__(self, seat: str, partner: str, give: tuple, take: tuple) -> None:
        self.seat = seat
        self.partner = partner
        self.give = give
        self.take = take


class TradeAnswered(Record):
    """The partner accepted (items change hands) or declined the offer (AH-C10)."""

    __slots__ = ("seat", "partner", "give", "take", "accepted")
    __match_args__ = __slots__
    TYPE = "TradeAnswered"
    RULE = "AH-C10"

    def __init__(self, seat: str, partner: str, give: tuple, take: tuple, accepted: bool) -> None:
        self.seat = seat
        self.partner = partner
        self.give = give
        self.take = take
        self.accepted = accepted


class TurnEnded(Record):
    """A seat's movement is over; ``next_seat`` moves next, in ``round`` (AH-1: one movement each)."""

    __slots__ = ("seat", "next_seat", "round")
    __match_args__ = __slots__
    TYPE = "TurnEnded"
    RULE = "AH-1"

    def __init__(self, seat: str, next_seat: str, round: int) -> None:
        self.seat = seat
        self.next_seat = next_seat
        self.round = round


class GameEnded(Record):
    """The scenario's last Movement phase is over, or no investigator is left (AH-1, AH-C4)."""

    __slots__ = ("rounds", "reason")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "AH-1"

    def __init__(self, rounds: int, reason: str) -> None:
        self.rounds = rounds
        self.reason = reason


EVENTS = Registry(
    "event",
    (
        GameStarted, MovementBegan, StoodUp, InvestigatorMoved, MovedInOtherWorld, GateChoiceOffered,
        ReturnedThroughGate, MonstersIgnored, LostInTimeAndSpace, PlacementOffered, PlacedInArkham, MonsterEvaded,
        CheckRolled, ClueSpendOffered, ClueSpent, RollAccepted, StatLost, CombatBegan, MonsterDefeated,
        CombatEnded, KnockedOut, Devoured, MovementEnded, CluesTaken, TradeOffered, TradeAnswered, TurnEnded,
        GameEnded,
    ),
)
COMMANDS = Registry(
    "command",
    (Move, Stop, TakeClues, Evade, Fight, Flee, SpendClue, AcceptRoll, Return, Place, OfferTrade, AnswerTrade),
)
# What a state is made of, for the shell's snapshots (server/snapshots.py decodes a state with it).
STATES = Registry("state", (State, Board, Area, OtherWorld, Investigator, Monster, Pending, Offer))

"""The grid skirmish's records: grid, figures, doors, state, commands and events.

Squares are ``(x, y)`` tuples (``events.geometry.squares``), named ``A1``-style in every message.
An edge is the sorted pair of the two squares it separates. A figure's ``at`` is None once it is
defeated. Nothing here is secret.
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry

# --- the grid and the setup (static for a whole game) ------------------------------------------------


class _Memoised(Record):
    """A record with one more hidden slot, ``_memo``: not a field (never hashed, compared or
    serialised), a cache of answers computed from the record's own fields. Like the ``_json`` slot
    of every record, it is safe because a record never changes."""

    __slots__ = ("_memo",)


class Grid(_Memoised):
    """The map (SK-C1): size, wall edges (SK-1), door edges by id (SK-6), square features.

    ``low``: squares with low objects (SK-3); ``difficult``: difficult terrain (SK-4); ``pits``
    (SK-5); ``diagonal_cost``: what a diagonal step costs (SK-C2). ``doors``: one ``(id, edge,
    edge, …)`` tuple per door, its edges (one straight run) in reading order: a door is one piece
    however wide it is (SK-6…SK-11), and a one-edge door is the ``(id, edge)`` pair it always was.
    Line of sight between two squares depends only on the grid and which doors are closed, so
    the rules keep those answers in the grid's ``_memo`` (every state of a game shares its grid).
    """

    __slots__ = ("name", "width", "height", "walls", "doors", "low", "difficult", "pits", "diagonal_cost")
    __match_args__ = __slots__
    TYPE = "Grid"

    def __init__(
        self, name: str, width: int, height: int, walls: tuple, doors: tuple, low: tuple, difficult: tuple,
        pits: tuple, diagonal_cost: int,
    ) -> None:
        self.name = name
        self.width = width
        self.height = height
        self.walls = walls
        self.doors = doors
        self.low = low
        self.difficult = difficult
        self.pits = pits
        self.diagonal_cost = diagonal_cost


class Figure(Record):
    """A figure (SK-C1): side, name, Attack, Defense, movement points (``speed``), hit points,
    the damage its attacks deal, whether it only attacks adjacent figures, and where it stands."""

    __slots__ = ("id", "side", "name", "attack", "defense", "speed", "hp", "max_hp", "damage", "melee", "at")
    __match_args__ = __slots__
    TYPE = "Figure"

    def __init__(
        self, id: str, side: str, name: str, attack: int, defense: int, speed: int, hp: int, max_hp: int,
        damage: int, melee: bool, at: tuple | None,
    ) -> None:
        self.id = id
        self.side = side
        self.name = name
        self.attack = attack
        self.defense = defense
        self.speed = speed
        self.hp = hp
        self.max_hp = max_hp
        self.damage = damage
        self.melee = melee
        self.at = at


class Door(Record):
    """A door (SK-6): open or closed, and the figure holding it (SK-7…SK-11), if any.

    ``edge`` is the door's first edge; the grid lists all of them (``Grid.doors``), and the door's
    state and holder are those of every one of its edges."""

    __slots__ = ("id", "edge", "open", "holder")
    __match_args__ = __slots__
    TYPE = "Door"

    def __init__(self, id: str, edge: tuple, open: bool, holder: str | None) -> None:
        self.id = id
        self.edge = edge
        self.open = open
        self.holder = holder


class Activation(Record):
    """The figure acting now (SK-C5) and what it has done: movement points spent before and
    after its attack, whether it attacked, doors it contested, door decisions still owed."""

    __slots__ = ("figure", "moved_before", "moved_after", "attacked", "contested", "pending")
    __match_args__ = __slots__
    TYPE = "Activation"

    def __init__(
        self, figure: str, moved_before: int, moved_after: int, attacked: bool, contested: tuple, pending: tuple
    ) -> None:
        self.figure = figure
        self.moved_before = moved_before
        self.moved_after = moved_after
        self.attacked = attacked
        self.contested = contested
        self.pending = pending


class State(Record):
    """Everything true after some events.

    ``sides``: the side names, which are the seats, in activation order. ``turn``: index of the
    side whose figure activates next (or is active). ``activated``: ids of the figures that have
    activated this round. ``active``: the current Activation or None. ``winner``: a side, or None
    (a draw, or the game is not over).
    """

    __slots__ = (
        "title", "grid", "sides", "figures", "doors", "round", "rounds", "turn", "activated", "active", "over",
        "winner",
    )
    __match_args__ = __slots__
    TYPE = "SkirmishState"

    def __init__(
        self, title: str, grid: Grid, sides: tuple, figures: tuple, doors: tuple, round: int, rounds: int, turn: int,
        activated: tuple, active: Activation | None, over: bool, winner: str | None,
    ) -> None:
        self.title = title
        self.grid = grid
        self.sides = sides
        self.figures = figures
        self.doors = doors
        self.round = round
        self.rounds = rounds
        self.turn = turn
        self.activated = activated
        self.active = active
        self.over = over
        self.winner = winner


# --- commands ----------------------------------------------------------------------------------------


class Activate(Record):
    """Start the activation of one of your figures that has not activated this round (SK-C5)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "Activate"
    KINDS = {"figure": "str"}

    def __init__(self, figure: str) -> None:
        self.figure = figure


class Move(Record):
    """Move the active figure to square ``to`` (SK-C2). ``figure`` may be left out (None): the
    figure acting now, so a click on a square is a whole command. ``path``, if given, is the way
    its side chose: the squares entered, in order, ending at ``to``; each step is checked and the
    first illegal one refused with its clause. Without it the figure takes its cheapest legal path."""

    __slots__ = ("figure", "to", "path")
    __match_args__ = __slots__
    TYPE = "Move"
    KINDS = {"figure": "str | None", "to": "tuple[int, int]", "path": "tuple[tuple[int, int], ...] | None"}
    DEFAULTS = {"figure": None, "path": None}

    def __init__(self, figure: str, to: tuple, path: tuple | None = None) -> None:
        self.figure = figure
        self.to = to
        self.path = path


class Attack(Record):
    """The active figure attacks ``target`` (SK-C2, SK-C3, SK-C4)."""

    __slots__ = ("figure", "target")
    __match_args__ = __slots__
    TYPE = "Attack"
    KINDS = {"figure": "str", "target": "str"}

    def __init__(self, figure: str, target: str) -> None:
        self.figure = figure
        self.target = target


class ContestDoor(Record):
    """The active figure, in contact with a held door, wants it open (or closed) (SK-10, SK-11)."""

    __slots__ = ("figure", "door", "open")
    __match_args__ = __slots__
    TYPE = "ContestDoor"
    KINDS = {"figure": "str", "door": "str", "open": "bool"}

    def __init__(self, figure: str, door: str, open: bool) -> None:
        self.figure = figure
        self.door = door
        self.open = open


class EndActivation(Record):
    """The active figure's actions are over; its end-of-turn door decisions follow (SK-C5)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "EndActivation"
    KINDS = {"figure": "str"}

    def __init__(self, figure: str) -> None:
        self.figure = figure


class DecideDoor(Record):
    """The end-of-turn decision on one door: open it, or keep/make it closed (SK-7, SK-8)."""

    __slots__ = ("figure", "door", "open")
    __match_args__ = __slots__
    TYPE = "DecideDoor"
    KINDS = {"figure": "str", "door": "str", "open": "bool"}

    def __init__(self, figure: str, door: str, open: bool) -> None:
        self.figure = figure
        self.door = door
        self.open = open


# --- events ------------------------------------------------------------------------------------------


class FigureActivated(Record):
    """A figure of the side on turn starts its activation (SK-C5)."""

    __slots__ = ("figure", "side", "round")
    __match_args__ = __slots__
    TYPE = "FigureActivated"
    RULE = "SK-C5"

    def __init__(self, figure: str, side: str, round: int) -> None:
        self.figure = figure
        self.side = side
        self.round = round


class FigureMoved(Record):
    """A figure moved along ``path`` for ``cost`` movement points (SK-C2); ``doubled``: the
    squares of the path whose entry cost double (SK-3, SK-4); ``passed``: allies passed through;
    ``chosen``: the path was the one its side gave (else the engine's cheapest legal path)."""

    __slots__ = ("figure", "start", "to", "path", "cost", "doubled", "passed", "chosen")
    __match_args__ = __slots__
    TYPE = "FigureMoved"
    RULE = "SK-C2"
    DEFAULTS = {"chosen": False}  # logs of skirmish-1 have no chosen paths

    def __init__(
        self, figure: str, start: tuple, to: tuple, path: tuple, cost: int, doubled: tuple, passed: tuple,
        chosen: bool = False,
    ) -> None:
        self.figure = figure
        self.start = start
        self.to = to
        self.path = path
        self.cost = cost
        self.doubled = doubled
        self.passed = passed
        self.chosen = chosen


class AttackRolled(Record):
    """d20 + Attack against Defense (+4 with cover, SK-C3); a natural 20 is a critical (SK-C4).

    ``corner``: the attacker's corner the cover was traced from (None for an adjacent target);
    ``screens``: square names and edges that gave cover, as text.
    """

    __slots__ = ("figure", "target", "roll", "attack", "total", "defense", "cover", "corner", "screens",
                 "critical", "hit", "damage")
    __match_args__ = __slots__
    TYPE = "AttackRolled"
    RULE = "SK-C4"

    def __init__(
        self, figure: str, target: str, roll: int, attack: int, total: int, defense: int, cover: bool,
        corner: tuple | None, screens: tuple, critical: bool, hit: bool, damage: int,
    ) -> None:
        self.figure = figure
        self.target = target
        self.roll = roll
        self.attack = attack
        self.total = total
        self.defense = defense
        self.cover = cover
        self.corner = corner
        self.screens = screens
        self.critical = critical
        self.hit = hit
        self.damage = damage


class FigureDefeated(Record):
    """A figure's hit points reached 0: it leaves the grid (SK-C2)."""

    __slots__ = ("figure", "at")
    __match_args__ = __slots__
    TYPE = "FigureDefeated"
    RULE = "SK-C2"

    def __init__(self, figure: str, at: tuple) -> None:
        self.figure = figure
        self.at = at


class DoorContested(Record):
    """An opposed roll for a held door (SK-10 by an enemy, SK-11 by the holder's ally).

    ``throws``: one (contester d20, contester total, holder d20, holder total) per throw; every
    throw but the last is a tie (SK-C4). ``*_bonus`` sums +2 per other adjacent figure of the
    roller's side (SK-10, SK-C6) and, for an ally, +4 (SK-11). ``winner`` becomes the holder.
    """

    __slots__ = ("door", "figure", "holder", "want_open", "figure_attack", "figure_bonus", "holder_attack",
                 "holder_bonus", "throws", "winner", "open", "rule")
    __match_args__ = __slots__
    TYPE = "DoorContested"

    def __init__(
        self, door: str, figure: str, holder: str, want_open: bool, figure_attack: int, figure_bonus: int,
        holder_attack: int, holder_bonus: int, throws: tuple, winner: str, open: bool, rule: str,
    ) -> None:
        self.door = door
        self.figure = figure
        self.holder = holder
        self.want_open = want_open
        self.figure_attack = figure_attack
        self.figure_bonus = figure_bonus
        self.holder_attack = holder_attack
        self.holder_bonus = holder_bonus
        self.throws = throws
        self.winner = winner
        self.open = open
        self.rule = rule


class DoorTaken(Record):
    """A contest declared when the holder is no longer in contact: no roll, the contesting figure
    sets the door and becomes its holder (SK-C4)."""

    __slots__ = ("door", "figure", "holder", "open")
    __match_args__ = __slots__
    TYPE = "DoorTaken"
    RULE = "SK-C4"

    def __init__(self, door: str, figure: str, holder: str, open: bool) -> None:
        self.door = door
        self.figure = figure
        self.holder = holder
        self.open = open


class DoorDecisionsDue(Record):
    """The active figure ended its actions in contact with these doors and must decide each
    (SK-7 for a door nobody holds, SK-8 for one it holds); the engine waits for its seat."""

    __slots__ = ("figure", "doors")
    __match_args__ = __slots__
    TYPE = "DoorDecisionsDue"
    RULE = "SK-7"

    def __init__(self, figure: str, doors: tuple) -> None:
        self.figure = figure
        self.doors = doors


class DoorDecided(Record):
    """A figure decided a door's state at the end of its turn and holds it (SK-7, SK-8, SK-C6)."""

    __slots__ = ("door", "figure", "open", "was_open", "rule")
    __match_args__ = __slots__
    TYPE = "DoorDecided"

    def __init__(self, door: str, figure: str, open: bool, was_open: bool, rule: str) -> None:
        self.door = door
        self.figure = figure
        self.open = open
        self.was_open = was_open
        self.rule = rule


class DoorReleased(Record):
    """The holder is gone from the door (not in contact at the end of its activation, or, under
    skirmish-1 and skirmish-2, defeated): the door closes and nobody holds it (SK-9)."""

    __slots__ = ("door", "figure", "was_open")
    __match_args__ = __slots__
    TYPE = "DoorReleased"
    RULE = "SK-9"

    def __init__(self, door: str, figure: str, was_open: bool) -> None:
        self.door = door
        self.figure = figure
        self.was_open = was_open


class DoorHolderDefeated(Record):
    """skirmish-3: the holder of the door is defeated. It no longer holds it, and the door keeps its
    state, ``open`` (SK-7: none of SK-8…SK-11 has happened to it). The next contest for it is taken
    without a roll (SK-C4), and a figure ending its turn in contact decides it (SK-7)."""

    __slots__ = ("door", "figure", "open")
    __match_args__ = __slots__
    TYPE = "DoorHolderDefeated"
    RULE = "SK-7"

    def __init__(self, door: str, figure: str, open: bool) -> None:
        self.door = door
        self.figure = figure
        self.open = open


class ActivationEnded(Record):
    """The figure's activation is over; ``next_side`` is on turn (SK-C5)."""

    __slots__ = ("figure", "next_side")
    __match_args__ = __slots__
    TYPE = "ActivationEnded"
    RULE = "SK-C5"

    def __init__(self, figure: str, next_side: str) -> None:
        self.figure = figure
        self.next_side = next_side


class RoundEnded(Record):
    """Every standing figure has activated: round ``round`` is over (SK-C5)."""

    __slots__ = ("round", "next_side")
    __match_args__ = __slots__
    TYPE = "RoundEnded"
    RULE = "SK-C5"

    def __init__(self, round: int, next_side: str) -> None:
        self.round = round
        self.next_side = next_side


class GameEnded(Record):
    """The game is over: one side has no figure left, or the last round is played (SK-C5)."""

    __slots__ = ("winner", "reason")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "SK-C5"

    def __init__(self, winner: str | None, reason: str) -> None:
        self.winner = winner
        self.reason = reason


EVENTS = Registry(
    "event",
    (
        GameStarted, FigureActivated, FigureMoved, AttackRolled, FigureDefeated, DoorContested, DoorTaken,
        DoorDecisionsDue, DoorDecided, DoorReleased, ActivationEnded, RoundEnded, GameEnded, DoorHolderDefeated,
    ),
)
COMMANDS = Registry("command", (Activate, Move, Attack, ContestDoor, EndActivation, DecideDoor))
# What a state is made of, for the shell's snapshots (server/snapshots.py decodes a state with it).
STATES = Registry("state", (State, Grid, Figure, Door, Activation))

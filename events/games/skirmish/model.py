"""The grid skirmish's records: grid, figures, doors, state, commands and events.

Squares are ``(x, y)`` tuples (``events.geometry.squares``), named ``A1``-style in every message.
An edge is the sorted pair of the two squares it separates. A figure's ``at`` is None once it is
defeated. Nothing here is secret.
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry

_set = object.__setattr__


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
        _set(self, "name", name)
        _set(self, "width", width)
        _set(self, "height", height)
        _set(self, "walls", walls)
        _set(self, "doors", doors)
        _set(self, "low", low)
        _set(self, "difficult", difficult)
        _set(self, "pits", pits)
        _set(self, "diagonal_cost", diagonal_cost)


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
        _set(self, "id", id)
        _set(self, "side", side)
        _set(self, "name", name)
        _set(self, "attack", attack)
        _set(self, "defense", defense)
        _set(self, "speed", speed)
        _set(self, "hp", hp)
        _set(self, "max_hp", max_hp)
        _set(self, "damage", damage)
        _set(self, "melee", melee)
        _set(self, "at", at)


class Door(Record):
    """A door (SK-6): open or closed, and the figure holding it (SK-7…SK-11), if any.

    ``edge`` is the door's first edge; the grid lists all of them (``Grid.doors``), and the door's
    state and holder are those of every one of its edges."""

    __slots__ = ("id", "edge", "open", "holder")
    __match_args__ = __slots__
    TYPE = "Door"

    def __init__(self, id: str, edge: tuple, open: bool, holder: str | None) -> None:
        _set(self, "id", id)
        _set(self, "edge", edge)
        _set(self, "open", open)
        _set(self, "holder", holder)


class Activation(Record):
    """The figure acting now (SK-C5) and what it has done: movement points spent before and
    after its attack, whether it attacked, doors it contested, door decisions still owed."""

    __slots__ = ("figure", "moved_before", "moved_after", "attacked", "contested", "pending")
    __match_args__ = __slots__
    TYPE = "Activation"

    def __init__(
        self, figure: str, moved_before: int, moved_after: int, attacked: bool, contested: tuple, pending: tuple
    ) -> None:
        _set(self, "figure", figure)
        _set(self, "moved_before", moved_before)
        _set(self, "moved_after", moved_after)
        _set(self, "attacked", attacked)
        _set(self, "contested", contested)
        _set(self, "pending", pending)


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
        _set(self, "title", title)
        _set(self, "grid", grid)
        _set(self, "sides", sides)
        _set(self, "figures", figures)
        _set(self, "doors", doors)
        _set(self, "round", round)
        _set(self, "rounds", rounds)
        _set(self, "turn", turn)
        _set(self, "activated", activated)
        _set(self, "active", active)
        _set(self, "over", over)
        _set(self, "winner", winner)


# --- commands ----------------------------------------------------------------------------------------


class Activate(Record):
    """Start the activation of one of your figures that has not activated this round (SK-C5)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "Activate"
    KINDS = {"figure": "str"}

    def __init__(self, figure: str) -> None:
        _set(self, "figure", figure)


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
        _set(self, "figure", figure)
        _set(self, "to", to)
        _set(self, "path", path)


class Attack(Record):
    """The active figure attacks ``target`` (SK-C2, SK-C3, SK-C4)."""

    __slots__ = ("figure", "target")
    __match_args__ = __slots__
    TYPE = "Attack"
    KINDS = {"figure": "str", "target": "str"}

    def __init__(self, figure: str, target: str) -> None:
        _set(self, "figure", figure)
        _set(self, "target", target)


class ContestDoor(Record):
    """The active figure, in contact with a held door, wants it open (or closed) (SK-10, SK-11)."""

    __slots__ = ("figure", "door", "open")
    __match_args__ = __slots__
    TYPE = "ContestDoor"
    KINDS = {"figure": "str", "door": "str", "open": "bool"}

    def __init__(self, figure: str, door: str, open: bool) -> None:
        _set(self, "figure", figure)
        _set(self, "door", door)
        _set(self, "open", open)


class EndActivation(Record):
    """The active figure's actions are over; its end-of-turn door decisions follow (SK-C5)."""

    __slots__ = ("figure",)
    __match_args__ = __slots__
    TYPE = "EndActivation"
    KINDS = {"figure": "str"}

    def __init__(self, figure: str) -> None:
        _set(self, "figure", figure)


class DecideDoor(Record):
    """The end-of-turn decision on one door: open it, or keep/make it closed (SK-7, SK-8)."""

    __slots__ = ("figure", "door", "open")
    __match_args__ = __slots__
    TYPE = "DecideDoor"
    KINDS = {"figure": "str", "door": "str", "open": "bool"}

    def __init__(self, figure: str, door: str, open: bool) -> None:
        _set(self, "figure", figure)
        _set(self, "door", door)
        _set(self, "open", open)


# --- events ------------------------------------------------------------------------------------------


class FigureActivated(Record):
    """A figure of the side on turn starts its activation (SK-C5)."""

    __slots__ = ("figure", "side", "round")
    __match_args__ = __slots__
    TYPE = "FigureActivated"
    RULE = "SK-C5"

    def __init__(self, figure: str, side: str, round: int) -> None:
        _set(self, "figure", figure)
        _set(self, "side", side)
        _set(self, "round", round)


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
        _set(self, "figure", figure)
        _set(self, "start", start)
        _set(self, "to", to)
        _set(self, "path", path)
        _set(self, "cost", cost)
        _set(self, "doubled", doubled)
        _set(self, "passed", passed)
        _set(self, "chosen", chosen)


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
        _set(self, "figure", figure)
        _set(self, "target", target)
        _set(self, "roll", roll)
        _set(self, "attack", attack)
        _set(self, "total", total)
        _set(self, "defense", defense)
        _set(self, "cover", cover)
        _set(self, "corner", corner)
        _set(self, "screens", screens)
        _set(self, "critical", critical)
        _set(self, "hit", hit)
        _set(self, "damage", damage)


class FigureDefeated(Record):
    """A figure's hit points reached 0: it leaves the grid (SK-C2)."""

    __slots__ = ("figure", "at")
    __match_args__ = __slots__
    TYPE = "FigureDefeated"
    RULE = "SK-C2"

    def __init__(self, figure: str, at: tuple) -> None:
        _set(self, "figure", figure)
        _set(self, "at", at)


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
        _set(self, "door", door)
        _set(self, "figure", figure)
        _set(self, "holder", holder)
        _set(self, "want_open", want_open)
        _set(self, "figure_attack", figure_attack)
        _set(self, "figure_bonus", figure_bonus)
        _set(self, "holder_attack", holder_attack)
        _set(self, "holder_bonus", holder_bonus)
        _set(self, "throws", throws)
        _set(self, "winner", winner)
        _set(self, "open", open)
        _set(self, "rule", rule)


class DoorTaken(Record):
    """A contest declared when the holder is no longer in contact: no roll, the contesting figure
    sets the door and becomes its holder (SK-C4)."""

    __slots__ = ("door", "figure", "holder", "open")
    __match_args__ = __slots__
    TYPE = "DoorTaken"
    RULE = "SK-C4"

    def __init__(self, door: str, figure: str, holder: str, open: bool) -> None:
        _set(self, "door", door)
        _set(self, "figure", figure)
        _set(self, "holder", holder)
        _set(self, "open", open)


class DoorDecisionsDue(Record):
    """The active figure ended its actions in contact with these doors and must decide each
    (SK-7 for a door nobody holds, SK-8 for one it holds); the engine waits for its seat."""

    __slots__ = ("figure", "doors")
    __match_args__ = __slots__
    TYPE = "DoorDecisionsDue"
    RULE = "SK-7"

    def __init__(self, figure: str, doors: tuple) -> None:
        _set(self, "figure", figure)
        _set(self, "doors", doors)


class DoorDecided(Record):
    """A figure decided a door's state at the end of its turn and holds it (SK-7, SK-8, SK-C6)."""

    __slots__ = ("door", "figure", "open", "was_open", "rule")
    __match_args__ = __slots__
    TYPE = "DoorDecided"

    def __init__(self, door: str, figure: str, open: bool, was_open: bool, rule: str) -> None:
        _set(self, "door", door)
        _set(self, "figure", figure)
        _set(self, "open", open)
        _set(self, "was_open", was_open)
        _set(self, "rule", rule)


class DoorReleased(Record):
    """The holder is gone from the door (not in contact at the end of its activation, or
    defeated): the door closes and nobody holds it (SK-9)."""

    __slots__ = ("door", "figure", "was_open")
    __match_args__ = __slots__
    TYPE = "DoorReleased"
    RULE = "SK-9"

    def __init__(self, door: str, figure: str, was_open: bool) -> None:
        _set(self, "door", door)
        _set(self, "figure", figure)
        _set(self, "was_open", was_open)


class ActivationEnded(Record):
    """The figure's activation is over; ``next_side`` is on turn (SK-C5)."""

    __slots__ = ("figure", "next_side")
    __match_args__ = __slots__
    TYPE = "ActivationEnded"
    RULE = "SK-C5"

    def __init__(self, figure: str, next_side: str) -> None:
        _set(self, "figure", figure)
        _set(self, "next_side", next_side)


class RoundEnded(Record):
    """Every standing figure has activated: round ``round`` is over (SK-C5)."""

    __slots__ = ("round", "next_side")
    __match_args__ = __slots__
    TYPE = "RoundEnded"
    RULE = "SK-C5"

    def __init__(self, round: int, next_side: str) -> None:
        _set(self, "round", round)
        _set(self, "next_side", next_side)


class GameEnded(Record):
    """The game is over: one side has no figure left, or the last round is played (SK-C5)."""

    __slots__ = ("winner", "reason")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "SK-C5"

    def __init__(self, winner: str | None, reason: str) -> None:
        _set(self, "winner", winner)
        _set(self, "reason", reason)


EVENTS = Registry(
    "event",
    (
        GameStarted, FigureActivated, FigureMoved, AttackRolled, FigureDefeated, DoorContested, DoorTaken,
        DoorDecisionsDue, DoorDecided, DoorReleased, ActivationEnded, RoundEnded, GameEnded,
    ),
)
COMMANDS = Registry("command", (Activate, Move, Attack, ContestDoor, EndActivation, DecideDoor))
# What a state is made of, for the shell's snapshots (server/snapshots.py decodes a state with it).
STATES = Registry("state", (State, Grid, Figure, Door, Activation))

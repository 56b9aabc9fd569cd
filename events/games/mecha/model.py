"""Expeditions' Move action: the records (board, state, events, commands).

A Location is known by its number; the Camp is not a Location (MV-2) and is written ``None``
wherever a Mecha's position is asked for. Tuples indexed like ``state.seats`` hold per-seat facts.
"""

from __future__ import annotations

from events.game import GameStarted
from events.record import Record, Registry, Worked

# --- the board and the setup (static for a whole game) -------------------------------------------


class Location(Record):
    """One Location tile (MV-C1): number, Corruption level, side shown at the start, map token."""

    __slots__ = ("number", "name", "hex", "level", "face_up", "map_token")
    __match_args__ = __slots__
    TYPE = "Location"

    def __init__(self, number: int, name: str, hex: tuple, level: int, face_up: bool, map_token: bool) -> None:
        self.number = number
        self.name = name
        self.hex = hex
        self.level = level
        self.face_up = face_up
        self.map_token = map_token


class Board(Worked):
    """Locations, their links, the 3 Locations the Camp touches (MV-2) and the card spaces.

    ``_near`` keeps what ``events.games.mecha.board`` works out of it once (``events.record.Worked``):
    its neighbour table and the Move reaches asked of it (``board.reach``)."""

    __slots__ = ("name", "locations", "links", "camp_hex", "camp_adjacent", "card_spaces")
    __match_args__ = __slots__
    TYPE = "Board"

    def __init__(
        self, name: str, locations: tuple, links: tuple, camp_hex: tuple, camp_adjacent: tuple, card_spaces: tuple
    ) -> None:
        self.name = name
        self.locations = locations
        self.links = links
        self.camp_hex = camp_hex
        self.camp_adjacent = camp_adjacent
        self.card_spaces = card_spaces


class Seat(Record):
    """A player's seat, the Mecha it pilots and that Mecha's Move range (MV-3, MV-C3)."""

    __slots__ = ("seat", "mech", "range_min", "range_max")
    __match_args__ = __slots__
    TYPE = "Seat"

    def __init__(self, seat: str, mech: str, range_min: int, range_max: int) -> None:
        self.seat = seat
        self.mech = mech
        self.range_min = range_min
        self.range_max = range_max


class State(Record):
    """Everything true after some events.

    ``positions[i]``: Location of seat i's Mecha, None in the Camp. ``stacks``: (Location, tokens)
    for each Location with Corruption on it, tokens bottom first as (value, colour). ``bag``:
    (value, colour, count) sorted, counts above zero. ``token_20``: the
    (value, colour) token set aside for Location 20 until it is placed (MV-7), else None. ``plans[i]`` / ``revealed[i]``: Locations
    whose map token seat i took / that seat i turned face up.
    """

    __slots__ = (
        "title", "board", "seats", "positions", "face_up", "map_tokens", "stacks", "bag", "token_20",
        "plans", "revealed", "turn", "round", "rounds", "over",
    )
    __match_args__ = __slots__
    TYPE = "MechaState"

    def __init__(
        self, title: str, board: Board, seats: tuple, positions: tuple, face_up: tuple, map_tokens: tuple,
        stacks: tuple, bag: tuple, token_20: tuple | None, plans: tuple, revealed: tuple, turn: int, round: int,
        rounds: int, over: bool,
    ) -> None:
        self.title = title
        self.board = board
        self.seats = seats
        self.positions = positions
        self.face_up = face_up
        self.map_tokens = map_tokens
        self.stacks = stacks
        self.bag = bag
        self.token_20 = token_20
        self.plans = plans
        self.revealed = revealed
        self.turn = turn
        self.round = round
        self.rounds = rounds
        self.over = over


# --- commands --------------------------------------------------------------------------------------


class Move(Record):
    """Take the Move action to Location ``to``; ``to=None`` only when no destination exists (MV-5)."""

    __slots__ = ("to",)
    __match_args__ = __slots__
    TYPE = "Move"
    KINDS = {"to": "int | str | None"}

    def __init__(self, to: int | None) -> None:
        self.to = to


class Pass(Record):
    """Take no Move this turn (MV-C3)."""

    __slots__ = ()
    __match_args__ = ()
    TYPE = "Pass"
    KINDS = {}


# --- events ----------------------------------------------------------------------------------------


class MechMoved(Record):
    """A Mecha moved (MV-1) along ``path`` (MV-C4), passing the occupied Locations listed (MV-4)."""

    __slots__ = ("seat", "start", "to", "path", "passed_through")
    __match_args__ = __slots__
    TYPE = "MechMoved"
    RULE = "MV-1"

    def __init__(self, seat: str, start: int | None, to: int, path: tuple, passed_through: tuple) -> None:
        self.seat = seat
        self.start = start
        self.to = to
        self.path = path
        self.passed_through = passed_through


class MechStayed(Record):
    """The Move action was taken but no destination existed, so the Mecha did not move (MV-5)."""

    __slots__ = ("seat", "at")
    __match_args__ = __slots__
    TYPE = "MechStayed"
    RULE = "MV-5"

    def __init__(self, seat: str, at: int | None) -> None:
        self.seat = seat
        self.at = at


class PlanTokenGained(Record):
    """The mover's player took the map token of the face-down Location it entered (MV-6a)."""

    __slots__ = ("seat", "location")
    __match_args__ = __slots__
    TYPE = "PlanTokenGained"
    RULE = "MV-6a"

    def __init__(self, seat: str, location: int) -> None:
        self.seat = seat
        self.location = location


class LocationRevealed(Record):
    """A face-down Location was turned face up by the Mecha that entered it (MV-6b)."""

    __slots__ = ("seat", "location")
    __match_args__ = __slots__
    TYPE = "LocationRevealed"
    RULE = "MV-6b"

    def __init__(self, seat: str, location: int) -> None:
        self.seat = seat
        self.location = location


class CorruptionDrawn(Record):
    """One token drawn from the bag and stacked; ``total`` is the stack's sum after it (MV-6c)."""

    __slots__ = ("location", "value", "colour", "total", "level")
    __match_args__ = __slots__
    TYPE = "CorruptionDrawn"
    RULE = "MV-6c"

    def __init__(self, location: int, value: int, colour: str, total: int, level: int) -> None:
        self.location = location
        self.value = value
        self.colour = colour
        self.total = total
        self.level = level


class CorruptionPlaced(Record):
    """Location 20's square got the set-aside value-20 token instead of a draw (MV-7)."""

    __slots__ = ("location", "value", "colour")
    __match_args__ = __slots__
    TYPE = "CorruptionPlaced"
    RULE = "MV-7"

    def __init__(self, location: int, value: int, colour: str) -> None:
        self.location = location
        self.value = value
        self.colour = colour


class BagRanOut(Record):
    """The bag emptied while filling a Location: drawing stopped below its level (MV-8)."""

    __slots__ = ("location", "total", "level")
    __match_args__ = __slots__
    TYPE = "BagRanOut"
    RULE = "MV-8"

    def __init__(self, location: int, total: int, level: int) -> None:
        self.location = location
        self.total = total
        self.level = level


class TurnPassed(Record):
    """A seat passed its turn without taking the Move action (MV-C3)."""

    __slots__ = ("seat",)
    __match_args__ = __slots__
    TYPE = "TurnPassed"
    RULE = "MV-C3"

    def __init__(self, seat: str) -> None:
        self.seat = seat


class TurnEnded(Record):
    """A seat's turn is over; ``next_seat`` acts in ``round`` (MV-C3)."""

    __slots__ = ("seat", "next_seat", "round")
    __match_args__ = __slots__
    TYPE = "TurnEnded"
    RULE = "MV-C3"

    def __init__(self, seat: str, next_seat: str, round: int) -> None:
        self.seat = seat
        self.next_seat = next_seat
        self.round = round


class GameEnded(Record):
    """The scenario's last round is over (MV-C3); ``plans`` and ``revealed`` are the per-seat tallies."""

    __slots__ = ("rounds", "plans", "revealed")
    __match_args__ = __slots__
    TYPE = "GameEnded"
    RULE = "MV-C3"

    def __init__(self, rounds: int, plans: tuple, revealed: tuple) -> None:
        self.rounds = rounds
        self.plans = plans
        self.revealed = revealed


EVENTS = Registry(
    "event",
    (
        GameStarted, MechMoved, MechStayed, PlanTokenGained, LocationRevealed, CorruptionDrawn,
        CorruptionPlaced, BagRanOut, TurnPassed, TurnEnded, GameEnded,
    ),
)
COMMANDS = Registry("command", (Move, Pass))
# What a state is made of, for the shell's snapshots (server/snapshots.py decodes a state with it).
STATES = Registry("state", (State, Board, Location, Seat))

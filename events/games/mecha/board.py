"""Boards, bags and scenarios of ``mecha`` as data: validated once, with a path to every fault.

The file formats are documented in ``docs/mecha-format.md``. A scenario arrives here as one
dict with its board and bag already inlined (the shell reads files; the core does not).
"""

from __future__ import annotations

from events.games.mecha.model import Board, Location, Seat
from events.geometry.graph import graph_from_links, graph_within
from events.geometry.hexgrid import hex_neighbors
from events.record import worked_out
from events.validate import (
    BoundError,
    ScenarioError,
    array,
    boolean,
    check_shape,
    integer,
    listed_once,
    obj,
    pair,
    seat_name,
    text,
)
from events.validate import titles as scenario_titles

COLOURS = ("orange", "turquoise")

#: Every number of a mecha scenario that sizes work, and its upper bound (docs/mecha-format.md,
#: "Bounds"); beyond one, the scenario is refused with ``BoundError`` and the value's path.
BOUNDS = {
    "locations": 200,  # Location tiles on a board
    "location_number": 999,  # a Location's printed number
    "level": 99,  # a Location's Corruption level
    "card_spaces": 50,
    "links": 1000,  # adjacency pairs
    "bag_entries": 100,  # token objects in the bag
    "token_value": 99,
    "token_count": 100,  # tokens of one entry
    "bag_tokens": 500,  # tokens in the whole bag
    "seats": 5,
    "range": 20,  # a Move Range's maximum (MV-3)
    "rounds": 10_000,
}


class Setup:
    """A validated scenario: what ``start`` turns into the first state."""

    __slots__ = ("title", "board", "seats", "bag", "rounds", "starts")

    def __init__(self, title: str, board: Board, seats: tuple, bag: tuple, rounds: int, starts: tuple) -> None:
        self.title = title
        self.board = board
        self.seats = seats
        self.bag = bag
        self.rounds = rounds
        self.starts = starts


def load_board(raw: object, path: str = "$") -> Board:
    """A board from its JSON data (MV-C1); refuses a Camp not adjacent to exactly 3 Locations (MV-2)."""
    data = obj(raw, path, ("name", "locations", "camp", "card_spaces"), ("links", "notes"))
    name = text(data["name"], f"{path}.name")
    locations = []
    numbers: set = set()
    hexes: dict = {}
    for i, item in enumerate(array(data["locations"], f"{path}.locations", 1, BOUNDS["locations"])):
        where = f"{path}.locations[{i}]"
        loc = obj(item, where, ("number", "hex", "level", "face_up"), ("name", "map_token"))
        number = integer(loc["number"], f"{where}.number", 1, BOUNDS["location_number"])
        listed_once(number, numbers, f"{where}.number", f"Location {number}")
        numbers.add(number)
        hex = pair(loc["hex"], f"{where}.hex")
        if hex in hexes:
            raise ScenarioError(f"{where}.hex", f"hex {list(hex)} is already used by {hexes[hex]}")
        hexes[hex] = f"Location {number}"
        face_up = boolean(loc["face_up"], f"{where}.face_up")
        map_token = boolean(loc.get("map_token", False), f"{where}.map_token")
        if face_up and map_token:
            raise ScenarioError(f"{where}.map_token", "only a face-down Location carries a map token (MV-C1)")
        locations.append(
            Location(
                number, text(loc.get("name", f"Location {number}"), f"{where}.name"), hex,
                integer(loc["level"], f"{where}.level", 0, BOUNDS["level"]), face_up, map_token,
            )
        )
    cards = []
    for i, item in enumerate(array(data["card_spaces"], f"{path}.card_spaces", 0, BOUNDS["card_spaces"])):
        where = f"{path}.card_spaces[{i}]"
        card = obj(item, where, ("name", "hex"))
        hex = pair(card["hex"], f"{where}.hex")
        if hex in hexes:
            raise ScenarioError(f"{where}.hex", f"hex {list(hex)} is already used by {hexes[hex]}")
        card_name = text(card["name"], f"{where}.name")
        hexes[hex] = f"card space {card_name!r}"
        cards.append((card_name, hex))
    camp = obj(data["camp"], f"{path}.camp", ("hex", "adjacent"))
    camp_hex = pair(camp["hex"], f"{path}.camp.hex")
    if camp_hex in hexes:
        raise ScenarioError(f"{path}.camp.hex", f"hex {list(camp_hex)} is already used by {hexes[camp_hex]}")
    adjacent = array(camp["adjacent"], f"{path}.camp.adjacent")
    if len(adjacent) != 3:
        raise ScenarioError(
            f"{path}.camp.adjacent", f"the Camp must be adjacent to exactly 3 Locations (MV-2), got {len(adjacent)}"
        )
    camp_adjacent = []
    for i, number in enumerate(adjacent):
        number = integer(number, f"{path}.camp.adjacent[{i}]")
        if number not in numbers:
            raise ScenarioError(f"{path}.camp.adjacent[{i}]", _unknown(number, numbers))
        listed_once(number, camp_adjacent, f"{path}.camp.adjacent[{i}]", f"Location {number}")
        camp_adjacent.append(number)
    if "links" in data:
        links = _explicit_links(data["links"], numbers, f"{path}.links")
    else:
        links = _hex_links(locations)
    locations.sort(key=lambda location: location.number)
    return Board(name, tuple(locations), links, camp_hex, tuple(sorted(camp_adjacent)), tuple(cards))


def _unknown(number: int, known: object) -> str:
    """MV-C1: a board names only its own Locations; the error says which exist."""
    return f"unknown Location {number}: this board's Locations are {_ranges(sorted(known))} (MV-C1)"


def _ranges(numbers: list) -> str:
    """1, 2, 3, 5 -> '1–3, 5': a board of 20 Locations fits on one line."""
    spans: list = []
    for number in numbers:
        if spans and number == spans[-1][1] + 1:
            spans[-1][1] = number
        else:
            spans.append([number, number])
    return ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in spans)


def _explicit_links(raw: object, numbers: set, path: str) -> tuple:
    links = set()
    for i, item in enumerate(array(raw, path, 0, BOUNDS["links"])):
        a, b = pair(item, f"{path}[{i}]")
        for j, number in enumerate((a, b)):
            if number not in numbers:
                raise ScenarioError(f"{path}[{i}][{j}]", _unknown(number, numbers))
        if a == b:
            raise ScenarioError(f"{path}[{i}]", f"Location {a} cannot be linked to itself")
        links.add((min(a, b), max(a, b)))
    return tuple(sorted(links))


def _hex_links(locations: list) -> tuple:
    """Two Locations are adjacent when their hexes touch (card spaces are not nodes: MV-4)."""
    by_hex = {location.hex: location.number for location in locations}
    links = set()
    for location in locations:
        for near in hex_neighbors(location.hex):
            other = by_hex.get(near)
            if other is not None:
                links.add((min(location.number, other), max(location.number, other)))
    return tuple(sorted(links))


def load_bag(raw: object, path: str = "$") -> tuple:
    """The Corruption bag (MV-C2): sorted (value, colour, count) with counts merged.

    MV-7 speaks of *the* value-20 token: a bag holds at most one, and it is set aside for
    Location 20, never drawn.
    """
    data = obj(raw, path, ("tokens",), ("notes",))
    counts: dict = {}
    twenties = 0
    total = 0
    for i, item in enumerate(array(data["tokens"], f"{path}.tokens", 1, BOUNDS["bag_entries"])):
        where = f"{path}.tokens[{i}]"
        token = obj(item, where, ("value", "colour", "count"))
        key = (integer(token["value"], f"{where}.value", 1, BOUNDS["token_value"]),
               text(token["colour"], f"{where}.colour", COLOURS))
        count = integer(token["count"], f"{where}.count", 1, BOUNDS["token_count"])
        total += count
        if total > BOUNDS["bag_tokens"]:
            raise BoundError(f"{where}.count", f"a bag holds at most {BOUNDS['bag_tokens']} tokens, got {total} "
                             "so far")
        if key[0] == 20:
            twenties += count
            if twenties > 1:
                raise ScenarioError(f"{where}.count", f"the bag holds one value-20 token (MV-7), got {twenties}")
        counts[key] = counts.get(key, 0) + count
    return tuple((value, colour, count) for (value, colour), count in sorted(counts.items()))


def load_scenario(raw: object, path: str = "$") -> Setup:
    """A whole scenario: board, bag, 1–5 seats with their Mechas, rounds, optional start positions."""
    check_shape(raw, path)
    data = obj(raw, path, ("game", "title", "board", "bag", "seats", "rounds"), ("start", "notes", "titles"))
    if "titles" in data:  # the title in the readers' languages (docs/mecha-format.md)
        scenario_titles(data["titles"], f"{path}.titles")
    if data["game"] != "mecha":
        raise ScenarioError(f"{path}.game", f"expected 'mecha', got {data['game']!r}")
    board = load_board(data["board"], f"{path}.board")
    bag = load_bag(data["bag"], f"{path}.bag")
    numbers = {location.number for location in board.locations}
    if 20 in numbers and not any(value == 20 for value, _, _ in bag):
        raise ScenarioError(f"{path}.bag", "the board has Location 20, so the bag needs its value-20 token (MV-7)")
    seats = []
    for i, item in enumerate(array(data["seats"], f"{path}.seats", 1, BOUNDS["seats"])):
        where = f"{path}.seats[{i}]"
        seat = obj(item, where, ("seat", "mech"), ("range",))
        name = seat_name(seat["seat"], f"{where}.seat")
        listed_once(name, [other.seat for other in seats], f"{where}.seat", f"seat {name!r}")
        given = array(seat.get("range", [1, 3]), f"{where}.range", 2, 2)
        low, high = (integer(given[j], f"{where}.range[{j}]") for j in (0, 1))
        if not 1 <= low <= high:
            raise ScenarioError(f"{where}.range", f"expected 1 <= min <= max, got [{low}, {high}] (MV-3)")
        if high > BOUNDS["range"]:
            raise BoundError(f"{where}.range[1]", f"a Move Range reaches at most {BOUNDS['range']} Locations (MV-3), "
                             f"got {high}")
        seats.append(Seat(name, text(seat["mech"], f"{where}.mech"), low, high))
    starts = _starts(data.get("start", {}), seats, board, f"{path}.start")
    rounds = integer(data["rounds"], f"{path}.rounds", 1, BOUNDS["rounds"])
    return Setup(text(data["title"], f"{path}.title"), board, tuple(seats), bag, rounds, starts)


def _starts(raw: object, seats: list, board: Board, path: str) -> tuple:
    """Where each Mecha begins: the Camp (MV-2) unless a test scenario places it in a Location.

    A Location given here must be face up: a Mecha that enters a face-down Location reveals it
    (MV-6), so no Mecha can stand on one.
    """
    names = tuple(seat.seat for seat in seats)
    data = obj(raw, path, (), names)
    by_number = {item.number: item for item in board.locations}
    positions = []
    taken: dict = {}
    for name in names:
        where = data.get(name)
        if where is None or where == "camp":
            positions.append(None)
            continue
        number = integer(where, f"{path}.{name}")
        if number not in by_number:
            raise ScenarioError(f"{path}.{name}", _unknown(number, by_number))
        if not by_number[number].face_up:
            raise ScenarioError(f"{path}.{name}", f"Location {number} is face down: a Mecha starts in the Camp "
                                "or on a face-up Location (MV-6)")
        if number in taken:
            raise ScenarioError(f"{path}.{name}", f"Location {number} already holds {taken[number]}'s Mecha (MV-1)")
        taken[number] = name
        positions.append(number)
    return tuple(positions)


REACH_REMEMBERED = 256  # (start, range, face-up Locations) whose reach a board remembers; then it starts afresh


def neighbours(board: Board) -> dict:
    """Location number -> sorted adjacent Location numbers: built once per board (``worked_out``)."""
    return worked_out(board, _worked)[0]


def reach(board: Board, here: int | None, steps: int, face_up: tuple) -> dict:
    """Every Location a Mecha at ``here`` (None: the Camp) reaches in 1..``steps`` steps -> its shortest
    path, entering face-down Locations but never leaving them (MV-2, MV-3, MV-6; ``graph_within``).

    It depends only on the board and these three, so each board remembers the reaches asked of it
    (at most ``REACH_REMEMBERED``): every ``decide`` and ``legal`` of a Move asks for one, and a game
    goes back to the same places (issue 16). Callers only read what it returns."""
    worked = worked_out(board, _worked)
    key = (here, steps, face_up)
    found = worked[1].get(key)
    if found is None:
        shown = set(face_up)
        found = graph_within(worked[0], here, steps, may_continue=lambda place: place in shown,
                             first_steps=board.camp_adjacent if here is None else None)
        if len(worked[1]) >= REACH_REMEMBERED:
            worked[1].clear()
        worked[1][key] = found
    return found


def _worked(board: Board) -> tuple:
    """A board's neighbour table and the reaches it remembers (``reach``)."""
    return graph_from_links(tuple(location.number for location in board.locations), board.links), {}


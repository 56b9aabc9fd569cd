"""The Arkham board and ``arkham`` scenarios as data: validated once, with a path to every fault.

The formats are documented in ``docs/arkham-format.md``. A scenario reaches the core as one dict
with its board (and monsters, if given as a file) already inlined by the shell. Routes are here
too: the cheapest walk between two areas, one movement point per yellow line (AH-2, AH-3).
"""

from __future__ import annotations

from events.games.arkham.model import LOST, Area, Board, Investigator, Monster, OtherWorld
from events.lookup import by_id
from events.record import worked_out
from events.validate import ScenarioError, array, boolean, check_shape, integer, listed_once, obj, pair, seat_name, text
from events.validate import titles as scenario_titles

MAX_INVESTIGATORS = 8

#: Every number of an arkham board or scenario that sizes work, and its upper bound
#: (docs/arkham-format.md, "Bounds"); beyond one, the scenario is refused with ``BoundError``.
BOUNDS = {
    "streets": 60,
    "locations": 120,
    "street_locations": 12,  # Locations one Street lists
    "lines": 400,  # yellow lines
    "other_worlds": 30,
    "special_areas": 20,
    "worked_examples": 50,
    "movement_points": 99,  # in a worked example
    "closes_at_terror": 10,
    "investigators": MAX_INVESTIGATORS,
    "skill": 20,  # Speed, Sneak, Fight, Will, Stamina, Sanity: also the dice of a check (AH-C1)
    "clues": 99,  # Clue tokens of an investigator, or lying in one area
    "items": 20,  # items of one investigator
    "monsters": 60,
    "monster_modifier": 10,  # awareness, horror and combat ratings, from -10 to 10
    "monster_value": 20,  # damage, toughness, nightmarish, overwhelming
    "gates": 30,
    "clue_areas": 120,  # entries of $.clues
    "rounds": 1000,
}
ARKHAM_KINDS = ("street", "location")
MONSTER_ONLY = ("sky", "outskirts")
HOSPITAL = "st_marys_hospital"  # AH-C4: where the unconscious wake
ASYLUM = "arkham_asylum"  # AH-C4: where the insane are taken


class Setup:
    """A validated scenario: what ``start`` turns into the first state."""

    __slots__ = ("title", "board", "investigators", "monsters", "gates", "clues", "rounds", "spend_clues")

    def __init__(
        self, title: str, board: Board, investigators: tuple, monsters: tuple, gates: tuple, clues: tuple,
        rounds: int, spend_clues: bool,
    ) -> None:
        self.title = title
        self.board = board
        self.investigators = investigators
        self.monsters = monsters
        self.gates = gates
        self.clues = clues
        self.rounds = rounds
        self.spend_clues = spend_clues


# --- the board --------------------------------------------------------------------------------------


def _ident(value: object, path: str) -> str:
    name = text(value, path)
    if not all(ch.isalnum() or ch == "_" for ch in name):
        raise ScenarioError(path, f"an id is letters, digits and _, got {name!r}")
    return name


def load_board(raw: object, path: str = "$", use_unverified: bool = True) -> Board:
    """The board (AH-3, AH-9): Streets, Locations, yellow lines, Other Worlds, special areas.

    Every Location is joined only to its own Street; a line marked ``"verified": false`` is kept
    unless ``use_unverified`` is false (a scenario may drop it).
    """
    data = obj(raw, path, ("streets", "locations", "lines", "other_worlds", "special_areas"),
               ("name", "about", "worked_examples"))
    areas: dict = {}

    def add(area: Area, where: str) -> None:
        listed_once(area.id, areas, f"{where}.id", f"area {area.id!r}")
        areas[area.id] = area

    street_locations: dict = {}
    for i, item in enumerate(array(data["streets"], f"{path}.streets", 1, BOUNDS["streets"])):
        where = f"{path}.streets[{i}]"
        street = obj(item, where, ("id", "name", "locations", "at"), ("monster_arrows",))
        street_id = _ident(street["id"], f"{where}.id")
        add(Area(street_id, text(street["name"], f"{where}.name"), "street", "", False, "", 0,
                 pair(street["at"], f"{where}.at")), where)
        listed = array(street["locations"], f"{where}.locations", 0, BOUNDS["street_locations"])
        street_locations[street_id] = [text(name, f"{where}.locations[{j}]") for j, name in enumerate(listed)]
    for i, item in enumerate(array(data["locations"], f"{path}.locations", 1, BOUNDS["locations"])):
        where = f"{path}.locations[{i}]"
        location = obj(item, where, ("id", "name", "street", "unstable", "at"), ("closes_at_terror",))
        location_id = _ident(location["id"], f"{where}.id")
        street_id = text(location["street"], f"{where}.street")
        if street_id not in street_locations:
            raise ScenarioError(f"{where}.street", f"unknown Street area {street_id!r}")
        if location_id not in street_locations[street_id]:
            raise ScenarioError(f"{where}.street", f"Street {street_id!r} does not list Location {location_id!r}")
        if "closes_at_terror" in location:
            integer(location["closes_at_terror"], f"{where}.closes_at_terror", 0, BOUNDS["closes_at_terror"])
        add(Area(location_id, text(location["name"], f"{where}.name"), "location", street_id,
                 boolean(location["unstable"], f"{where}.unstable"), "", 0, pair(location["at"], f"{where}.at")),
            where)
    for street_id, names in street_locations.items():
        for name in names:
            if name not in areas or areas[name].street != street_id:
                raise ScenarioError(f"{path}.streets", f"Street {street_id!r} lists {name!r}, which is not one of "
                                    "its Locations")
    worlds = []
    for i, item in enumerate(array(data["other_worlds"], f"{path}.other_worlds", 0, BOUNDS["other_worlds"])):
        where = f"{path}.other_worlds[{i}]"
        world = obj(item, where, ("id", "name", "areas", "areas_at"))
        world_id = _ident(world["id"], f"{where}.id")
        name = text(world["name"], f"{where}.name")
        ids = array(world["areas"], f"{where}.areas", 2, 2)
        spots = array(world["areas_at"], f"{where}.areas_at", 2, 2)
        pieces = []
        for order in (1, 2):
            area_id = _ident(ids[order - 1], f"{where}.areas[{order - 1}]")
            add(Area(area_id, f"{name} ({'first' if order == 1 else 'second'} area)", "other_world", "", False,
                     world_id, order, pair(spots[order - 1], f"{where}.areas_at[{order - 1}]")),
                f"{where}.areas[{order - 1}]")
            pieces.append(area_id)
        listed_once(world_id, [other.id for other in worlds], f"{where}.id", f"Other World {world_id!r}")
        worlds.append(OtherWorld(world_id, name, tuple(pieces)))
    for i, item in enumerate(array(data["special_areas"], f"{path}.special_areas", 0, BOUNDS["special_areas"])):
        where = f"{path}.special_areas[{i}]"
        special = obj(item, where, ("id", "name", "at"))
        add(Area(_ident(special["id"], f"{where}.id"), text(special["name"], f"{where}.name"), "special", "",
                 False, "", 0, pair(special["at"], f"{where}.at")), where)
    if LOST not in areas:
        raise ScenarioError(f"{path}.special_areas", f"the board needs the {LOST!r} area (AH-12, AH-C5)")
    for needed in (HOSPITAL, ASYLUM):
        if needed not in areas or areas[needed].kind != "location":
            raise ScenarioError(f"{path}.locations", f"the board needs the Location {needed!r} (AH-C4)")
    lines = []
    unverified = []
    seen: set = set()
    for i, item in enumerate(array(data["lines"], f"{path}.lines", 1, BOUNDS["lines"])):
        where = f"{path}.lines[{i}]"
        line = obj(item, where, ("a", "b"), ("verified",))
        ends = []
        for key in ("a", "b"):
            area_id = text(line[key], f"{where}.{key}")
            if area_id not in areas:
                raise ScenarioError(f"{where}.{key}", f"unknown area {area_id!r}")
            if areas[area_id].kind not in ARKHAM_KINDS:
                raise ScenarioError(f"{where}.{key}", f"{area_id!r} is not a Street or Location: no yellow line "
                                    "reaches it (AH-3)")
            ends.append(areas[area_id])
        a, b = ends
        if a.id == b.id:
            raise ScenarioError(where, f"a line joins two areas, got {a.id!r} twice")
        if a.kind == "location" and b.kind == "location":
            raise ScenarioError(where, f"Locations {a.id!r} and {b.id!r} cannot be joined: a Location joins only "
                                "its own Street (AH-3)")
        for location, other in ((a, b), (b, a)):
            if location.kind == "location" and location.street != other.id:
                raise ScenarioError(where, f"Location {location.id!r} joins only its own Street "
                                    f"{location.street!r}, not {other.id!r} (AH-3)")
        key = (min(a.id, b.id), max(a.id, b.id))
        listed_once(key, seen, where, f"the line {key[0]}–{key[1]}")
        seen.add(key)
        if not boolean(line.get("verified", True), f"{where}.verified"):
            unverified.append(key)
            if not use_unverified:
                continue
        lines.append(key)
    if "worked_examples" in data:
        for i, item in enumerate(array(data["worked_examples"], f"{path}.worked_examples", 0,
                                       BOUNDS["worked_examples"])):
            where = f"{path}.worked_examples[{i}]"
            example = obj(item, where, ("from", "to", "movement_points"))
            for key in ("from", "to"):
                if text(example[key], f"{where}.{key}") not in areas:
                    raise ScenarioError(f"{where}.{key}", f"unknown area {example[key]!r}")
            integer(example["movement_points"], f"{where}.movement_points", 0, BOUNDS["movement_points"])
    ordered = tuple(areas[key] for key in sorted(areas))
    name = text(data.get("name", "Arkham"), f"{path}.name")
    return Board(name, ordered, tuple(sorted(lines)), tuple(sorted(unverified)), tuple(worlds))


# --- the scenario -----------------------------------------------------------------------------------


def load_scenario(raw: object, path: str = "$") -> Setup:
    """A whole scenario (AH-C6): board, 1–8 investigators, monsters, open gates, clue tokens, rounds."""
    check_shape(raw, path)
    data = obj(raw, path, ("game", "title", "board", "investigators", "rounds"),
               ("monsters", "gates", "clues", "use_unverified_lines", "options", "notes", "titles"))
    if "titles" in data:  # the title in the readers' languages (docs/arkham-format.md)
        scenario_titles(data["titles"], f"{path}.titles")
    if data["game"] != "arkham":
        raise ScenarioError(f"{path}.game", f"expected 'arkham', got {data['game']!r}")
    use_unverified = boolean(data.get("use_unverified_lines", True), f"{path}.use_unverified_lines")
    board = load_board(data["board"], f"{path}.board", use_unverified)
    areas = {area.id: area for area in board.areas}
    worlds = {world.id: world for world in board.worlds}
    options = obj(data.get("options", {}), f"{path}.options", (), ("spend_clues",))
    spend_clues = boolean(options.get("spend_clues", False), f"{path}.options.spend_clues")
    investigators = []
    for i, item in enumerate(array(data["investigators"], f"{path}.investigators", 1, MAX_INVESTIGATORS)):
        investigators.append(_investigator(item, f"{path}.investigators[{i}]", areas, investigators))
    monsters = []
    for i, item in enumerate(array(data.get("monsters", []), f"{path}.monsters", 0, BOUNDS["monsters"])):
        monster = _monster(item, f"{path}.monsters[{i}]", areas)
        listed_once(monster.id, [other.id for other in monsters], f"{path}.monsters[{i}].id", f"monster {monster.id!r}")
        monsters.append(monster)
    gates: dict = {}
    for i, item in enumerate(array(data.get("gates", []), f"{path}.gates", 0, BOUNDS["gates"])):
        where = f"{path}.gates[{i}]"
        gate = obj(item, where, ("location", "world"))
        location = text(gate["location"], f"{where}.location")
        if location not in areas or areas[location].kind != "location":
            raise ScenarioError(f"{where}.location", f"expected a Location of the board, got {location!r}")
        if not areas[location].unstable:
            raise ScenarioError(f"{where}.location", f"{areas[location].name} is not an unstable Location: no gate "
                                "opens there")
        if location in gates:
            raise ScenarioError(f"{where}.location", f"{areas[location].name} already has a gate")
        world = text(gate["world"], f"{where}.world")
        if world not in worlds:
            raise ScenarioError(f"{where}.world", f"unknown Other World {world!r} (known: {', '.join(sorted(worlds))})")
        gates[location] = world
    clues: dict = {}
    for i, item in enumerate(array(data.get("clues", []), f"{path}.clues", 0, BOUNDS["clue_areas"])):
        where = f"{path}.clues[{i}]"
        clue = obj(item, where, ("area", "count"))
        area = text(clue["area"], f"{where}.area")
        if area not in areas or areas[area].kind not in ARKHAM_KINDS:
            raise ScenarioError(f"{where}.area", f"Clue tokens lie in a Location or Street area, got {area!r}")
        listed_once(area, clues, f"{where}.area", f"{area!r}")
        clues[area] = integer(clue["count"], f"{where}.count", 1, BOUNDS["clues"])
    rounds = integer(data["rounds"], f"{path}.rounds", 1, BOUNDS["rounds"])
    return Setup(
        text(data["title"], f"{path}.title"), board, tuple(investigators),
        tuple(sorted(monsters, key=lambda monster: monster.id)), tuple(sorted(gates.items())),
        tuple(sorted(clues.items())), rounds, spend_clues,
    )


def _investigator(raw: object, path: str, areas: dict, earlier: list) -> Investigator:
    data = obj(raw, path, ("seat", "name", "speed", "sneak", "fight", "will", "stamina", "sanity", "at"),
               ("clues", "items", "delayed", "blessed", "cursed", "explored"))
    seat = seat_name(data["seat"], f"{path}.seat")
    listed_once(seat, [other.seat for other in earlier], f"{path}.seat", f"seat {seat!r}")
    where = text(data["at"], f"{path}.at")
    if where not in areas:
        raise ScenarioError(f"{path}.at", f"unknown area {where!r}")
    if areas[where].id in MONSTER_ONLY:
        raise ScenarioError(f"{path}.at", f"{areas[where].name} holds monsters only")
    items = tuple(text(item, f"{path}.items[{j}]")
                  for j, item in enumerate(array(data.get("items", []), f"{path}.items", 0, BOUNDS["items"])))
    blessed = boolean(data.get("blessed", False), f"{path}.blessed")
    cursed = boolean(data.get("cursed", False), f"{path}.cursed")
    if blessed and cursed:
        raise ScenarioError(f"{path}.cursed", "an investigator is Blessed or Cursed, not both (AH-C1)")
    delayed = boolean(data.get("delayed", False), f"{path}.delayed") or where == LOST  # AH-C5: Lost is delayed
    explored = boolean(data.get("explored", False), f"{path}.explored")
    if explored and areas[where].kind != "location":  # AH-11: the marker lies under it in a Location
        raise ScenarioError(f"{path}.explored", f"an Explored marker lies in a Location, and {areas[where].name} is "
                            "not one (AH-11)")
    skill = BOUNDS["skill"]
    return Investigator(
        seat, text(data["name"], f"{path}.name"), integer(data["speed"], f"{path}.speed", 0, skill),
        integer(data["sneak"], f"{path}.sneak", 0, skill), integer(data["fight"], f"{path}.fight", 0, skill),
        integer(data["will"], f"{path}.will", 0, skill), integer(data["stamina"], f"{path}.stamina", 1, skill),
        integer(data["sanity"], f"{path}.sanity", 1, skill),
        integer(data.get("clues", 0), f"{path}.clues", 0, BOUNDS["clues"]),
        items, (), where, delayed, where if explored else "", blessed, cursed, False,
    )


def _monster(raw: object, path: str, areas: dict) -> Monster:
    data = obj(raw, path, ("id", "name", "at", "awareness", "horror_rating", "horror_damage", "combat_rating",
                           "combat_damage", "toughness"),
               ("elusive", "ambush", "nightmarish", "overwhelming"))
    where = text(data["at"], f"{path}.at")
    if where not in areas or (areas[where].kind not in ARKHAM_KINDS and where not in MONSTER_ONLY):
        raise ScenarioError(f"{path}.at", f"a monster stands in a Street, a Location, the Sky or the Outskirts, "
                            f"got {where!r}")
    modifier, value = BOUNDS["monster_modifier"], BOUNDS["monster_value"]
    return Monster(
        _ident(data["id"], f"{path}.id"), text(data["name"], f"{path}.name"), where,
        integer(data["awareness"], f"{path}.awareness", -modifier, modifier),
        integer(data["horror_rating"], f"{path}.horror_rating", -modifier, modifier),
        integer(data["horror_damage"], f"{path}.horror_damage", 0, value),
        integer(data["combat_rating"], f"{path}.combat_rating", -modifier, modifier),
        integer(data["combat_damage"], f"{path}.combat_damage", 0, value),
        integer(data["toughness"], f"{path}.toughness", 1, value),
        boolean(data.get("elusive", False), f"{path}.elusive"), boolean(data.get("ambush", False), f"{path}.ambush"),
        integer(data.get("nightmarish", 0), f"{path}.nightmarish", 0, value),
        integer(data.get("overwhelming", 0), f"{path}.overwhelming", 0, value),
    )


# --- questions about the board ----------------------------------------------------------------------


def area(board: Board, area_id: object) -> Area | None:
    return by_id(board.areas, area_id)


def neighbours(board: Board) -> dict:
    """Street or Location id -> sorted ids joined to it by a yellow line (AH-3): built once per board
    (``worked_out``)."""
    return worked_out(board, _neighbour_table)


def _neighbour_table(board: Board) -> dict:
    table: dict = {item.id: [] for item in board.areas if item.kind in ARKHAM_KINDS}
    for a, b in board.lines:
        table[a].append(b)
        table[b].append(a)
    return {key: tuple(sorted(near)) for key, near in table.items()}


def routes(board: Board, start: str, halts: tuple = ()) -> dict:
    """Every Street or Location reachable from ``start`` -> its cheapest route (start excluded).

    One movement point per line (AH-3), so a route costs its length. Among routes of equal cost
    the one passing fewest ``halts`` (areas whose monsters stop a walk, AH-7) wins, then the
    alphabetically first: the same route in CPython and Brython.
    """
    table = neighbours(board)
    best: dict = {start: (0, 0, ())}
    frontier = [start]
    while frontier:
        following = []
        for place in sorted(frontier):
            cost, stops, path = best[place]
            passing = 1 if (path and place in halts) else 0
            for step in table.get(place, ()):
                candidate = (cost + 1, stops + passing, path + (step,))
                if step not in best or candidate < best[step]:
                    if step not in best:
                        following.append(step)
                    best[step] = candidate
        frontier = following
    return {place: path for place, (_cost, _stops, path) in best.items() if place != start}


def clear_routes(board: Board, start: str, halts: tuple) -> dict:
    """Every Street or Location reachable from ``start`` without leaving an area of ``halts`` on the
    way -> its cheapest such route (start excluded; an area of ``halts`` may end a route, AH-7).

    The way a Move asked to reach an area walks when it can (arkham-4): a route that meets no
    monster before its end arrives where the player asked, whatever a cheaper one would cost.
    Among equal routes the alphabetically first, as ``routes``.
    """
    table = neighbours(board)
    stopping = set(halts)
    best: dict = {start: ()}
    frontier = [start]
    while frontier:
        following = []
        for place in sorted(frontier):
            if place != start and place in stopping:
                continue  # AH-7: monsters here stop the walk; nothing beyond is reached this way
            path = best[place]
            for step in table.get(place, ()):
                candidate = path + (step,)
                if step not in best or (len(candidate) == len(best[step]) and candidate < best[step]):
                    if step not in best:
                        following.append(step)
                    best[step] = candidate
        frontier = following
    del best[start]
    return best


def walk_route(board: Board, start: str, goal: str, halts: tuple, points: int) -> tuple | None:
    """The route a Move without a path walks (arkham-4, AH-3, AH-7): the cheapest one that meets no
    monster before ``goal`` if it fits in ``points``, else the cheapest route (which stops at the
    first monster on the way), or None."""
    clear = clear_routes(board, start, halts).get(goal)
    if clear is not None and len(clear) <= points:
        return clear
    return route(board, start, goal, halts)


def route(board: Board, start: str, goal: str, halts: tuple = ()) -> tuple | None:
    """The cheapest route from ``start`` to ``goal`` (start excluded), or None (AH-3, AH-4)."""
    if start == goal:
        return ()
    return routes(board, start, halts).get(goal)

"""Gloomhaven's data files, validated once at load with a path to every fault.

Maps, character cards, monster types, scenarios and the monster-turn positions that
``chronicle ask gloomhaven monster-turn`` reads are all JSON (``docs/gloomhaven-format.md``).
A scenario arrives here as one dict with its map, cards and monsters already inlined (the shell
reads files; the core does not).
"""

from __future__ import annotations

from events.games.gloomhaven.model import (
    Action,
    Card,
    CharacterClass,
    Map,
    MonsterAction,
    MonsterCard,
    MonsterType,
    Stats,
    Summon,
)
from events.geometry.hexgrid import hex_distance, hex_from_column_offset
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

TERRAIN = ("obstacles", "traps", "hazardous", "difficult", "doors")
#: How far from [0, 0] an area pattern's hexes may lie (GH-C10): wider than any printed card.
PATTERN_REACH = 7
RANKS = ("normal", "elite")
#: The rules variants a scenario may choose with its ``variant`` key (gloomhaven-4 on): Jaws of the
#: Lion's focus and jump (GH-V1, GH-V2). Without the key a scenario plays the original rules.
VARIANTS = ("jotl",)

#: Every count of a gloomhaven map, cards file, monster file, scenario or monster-turn position
#: that sizes work, and its upper bound (docs/gloomhaven-format.md, "Bounds"); beyond one, the file
#: is refused with ``BoundError`` and the value's path. (Printed values, such as a move or a range
#: of at most 20, are bounded where they are read.)
BOUNDS = {
    "hexes": 250,  # hexes of a map, and each of its lists (walls, thin walls, each terrain)
    "regions": 10,
    "region_side": 30,  # a region's columns and rows
    "classes": 12,
    "cards": 40,  # ability cards of one class
    "summons": 8,  # summons of one class
    "types": 12,  # monster types
    "deck": 20,  # ability cards of one monster type
    "actions": 6,  # lines of one monster ability card
    "figures": 12,  # monsters a scenario places
    "position_figures": 40,  # figures of a monster-turn position
}


class Setup:
    """A validated scenario: what ``start`` turns into the first state."""

    __slots__ = ("title", "level", "rounds", "map", "classes", "types", "characters", "monsters", "variant")

    def __init__(self, title: str, level: int, rounds: int, map: Map, classes: tuple, types: tuple,
                 characters: tuple, monsters: tuple, variant: str = "") -> None:
        self.title = title
        self.level = level
        self.rounds = rounds
        self.map = map
        self.classes = classes
        self.types = types
        self.characters = characters  # (seat, class name, hex)
        self.monsters = monsters  # (type name, rank, number, hex)
        self.variant = variant  # "" for the original rules, else one of VARIANTS (GH-V1, GH-V2)


# --- maps ---------------------------------------------------------------------------------------------


def load_map(raw: object, path: str = "$") -> Map:
    """A map (GH-C1): hexes (listed or as regions), wall hexes, thin walls, and terrain by hex."""
    data = obj(raw, path, ("name",), ("hexes", "regions", "walls", "thin_walls", "notes") + TERRAIN)
    hexes: set = set()
    most = BOUNDS["hexes"]
    for i, item in enumerate(array(data.get("hexes", []), f"{path}.hexes", 0, most)):
        hexes.add(pair(item, f"{path}.hexes[{i}]"))
    for i, item in enumerate(array(data.get("regions", []), f"{path}.regions", 0, BOUNDS["regions"])):
        where = f"{path}.regions[{i}]"
        region = obj(item, where, ("corner", "columns", "rows"))
        q0, r0 = pair(region["corner"], f"{where}.corner")
        columns = integer(region["columns"], f"{where}.columns", 1, BOUNDS["region_side"])
        rows = integer(region["rows"], f"{where}.rows", 1, BOUNDS["region_side"])
        top = r0 + (q0 - (q0 & 1)) // 2  # the corner's row in odd-q offset coordinates
        for column in range(columns):
            for row in range(rows):
                hexes.add(hex_from_column_offset(q0 + column, top + row))
        if len(hexes) > most:
            raise BoundError(where, f"a map holds at most {most} hexes, got {len(hexes)} with this region")
    if not hexes:
        raise ScenarioError(path, "a map needs at least one hex (give hexes or regions)")
    for i, item in enumerate(array(data.get("walls", []), f"{path}.walls", 0, most)):
        hex = pair(item, f"{path}.walls[{i}]")
        if hex not in hexes:
            raise ScenarioError(f"{path}.walls[{i}]", f"hex {list(hex)} is not on the map")
        hexes.discard(hex)
    thin = []
    for i, item in enumerate(array(data.get("thin_walls", []), f"{path}.thin_walls", 0, most)):
        where = f"{path}.thin_walls[{i}]"
        ends = array(item, where, 2, 2)
        a, b = pair(ends[0], f"{where}[0]"), pair(ends[1], f"{where}[1]")
        for j, hex in enumerate((a, b)):
            if hex not in hexes:
                raise ScenarioError(f"{where}[{j}]", f"hex {list(hex)} is not on the map")
        if hex_distance(a, b) != 1:
            raise ScenarioError(where, f"a thin wall lies between two neighbouring hexes; {list(a)} and {list(b)} "
                                "are not neighbours")
        thin.append((min(a, b), max(a, b)))
    taken: dict = {}
    terrain: dict = {}
    for key in TERRAIN:
        found = []
        for i, item in enumerate(array(data.get(key, []), f"{path}.{key}", 0, most)):
            hex = pair(item, f"{path}.{key}[{i}]")
            if hex not in hexes:
                raise ScenarioError(f"{path}.{key}[{i}]", f"hex {list(hex)} is not on the map")
            if hex in taken:
                raise ScenarioError(f"{path}.{key}[{i}]", f"hex {list(hex)} is already {taken[hex]}: a hex holds "
                                    "one kind of terrain (GH-C1)")
            taken[hex] = f"listed in {key}"
            found.append(hex)
        terrain[key] = tuple(sorted(found))
    return Map(
        text(data["name"], f"{path}.name"), tuple(sorted(hexes)), tuple(sorted(set(thin))), terrain["obstacles"],
        terrain["traps"], terrain["hazardous"], terrain["difficult"], terrain["doors"],
    )


# --- printed data -------------------------------------------------------------------------------------


def _pattern(raw: object, path: str, ranged: bool = False) -> tuple:
    """An area pattern (GH-C10): 1–19 distinct hexes.

    A melee pattern is relative to the attacker at [0, 0] (never included, one hex adjacent); a
    ranged pattern is a shape whose origin means nothing (it is placed anywhere in range), so
    [0, 0] is a hex like any other and at most 7 hexes from it.
    """
    cells = []
    for i, item in enumerate(array(raw, path, 1, 19)):
        cell = pair(item, f"{path}[{i}]")
        if not ranged and cell == (0, 0):
            raise ScenarioError(f"{path}[{i}]", "a melee area pattern never includes the attacker's own hex [0, 0]")
        if hex_distance(cell, (0, 0)) > PATTERN_REACH:
            raise ScenarioError(f"{path}[{i}]", f"a pattern hex lies at most {PATTERN_REACH} hexes from [0, 0], got "
                                f"{list(cell)}")
        listed_once(cell, cells, f"{path}[{i}]", f"hex {list(cell)}", among="the pattern")
        cells.append(cell)
    if not ranged and not any(hex_distance(cell, (0, 0)) == 1 for cell in cells):
        raise ScenarioError(path, "a melee area pattern must touch the attacker: one hex at distance 1")
    return tuple(sorted(cells))


def _area(data: dict, path: str) -> tuple:
    """(range, pattern, extra single targets) of an attack with a ``pattern`` (GH-C10)."""
    reach = integer(data.get("range", 0), f"{path}.range", 0, 20)
    if "targets" in data:
        raise ScenarioError(f"{path}.targets", "an area attack's extra single targets are plus_targets "
                            "(\"+N targets\" on the card), not targets")
    return reach, _pattern(data["pattern"], f"{path}.pattern", reach > 0), \
        integer(data.get("plus_targets", 0), f"{path}.plus_targets", 0, 6)


def load_action(raw: object, path: str) -> tuple:
    """A card half: (Action, lost). Exactly one of move, attack, heal, summon."""
    data = obj(raw, path, (), ("move", "attack", "heal", "summon", "range", "targets", "jump", "advantage", "pattern",
                               "lost"))
    kinds = [kind for kind in ("move", "attack", "heal", "summon") if kind in data]
    if len(kinds) != 1:
        raise ScenarioError(path, f"expected exactly one of move, attack, heal, summon, got {len(kinds)}")
    kind = kinds[0]
    # Area patterns are printed on monster cards only here: a character's attack names its targets.
    allowed = {"move": ("jump",), "attack": ("range", "targets", "advantage"), "heal": ("range",), "summon": ()}[kind]
    for key in ("range", "targets", "jump", "advantage", "pattern"):
        if key in data and key not in allowed:
            raise ScenarioError(f"{path}.{key}", f"a {kind} action has no {key}")
    value = 0
    summon = ""
    if kind == "summon":
        summon = text(data["summon"], f"{path}.summon")
    else:
        value = integer(data[kind], f"{path}.{kind}", 0 if kind == "move" else 1, 20)
    action = Action(
        kind, value, integer(data.get("range", 0), f"{path}.range", 0, 20),
        integer(data.get("targets", 1), f"{path}.targets", 1, 6), boolean(data.get("jump", False), f"{path}.jump"),
        boolean(data.get("advantage", False), f"{path}.advantage"), summon,
    )
    return action, boolean(data.get("lost", False), f"{path}.lost")


def _stats(raw: object, path: str) -> Stats:
    data = obj(raw, path, ("hp", "move", "attack"), ("range",))
    return Stats(integer(data["hp"], f"{path}.hp", 1, 99), integer(data["move"], f"{path}.move", 0, 20),
                 integer(data["attack"], f"{path}.attack", 0, 20), integer(data.get("range", 0), f"{path}.range", 0, 20))


def load_classes(raw: object, path: str = "$") -> tuple:
    """Character classes with their ability cards and summons; card ids unique across classes."""
    data = obj(raw, path, ("classes",), ("notes",))
    classes = []
    ids: dict = {}
    for i, item in enumerate(array(data["classes"], f"{path}.classes", 1, BOUNDS["classes"])):
        where = f"{path}.classes[{i}]"
        cls = obj(item, where, ("name", "hp", "cards"), ("summons",))
        name = text(cls["name"], f"{where}.name")
        listed_once(name, [other.name for other in classes], f"{where}.name", f"class {name!r}")
        summons = []
        for j, entry in enumerate(array(cls.get("summons", []), f"{where}.summons", 0, BOUNDS["summons"])):
            at = f"{where}.summons[{j}]"
            summon = obj(entry, at, ("name", "hp", "move", "attack"), ("range", "flying"))
            stats = _stats({key: summon[key] for key in ("hp", "move", "attack", "range") if key in summon}, at)
            summons.append(Summon(text(summon["name"], f"{at}.name"), stats, boolean(summon.get("flying", False),
                                                                                     f"{at}.flying")))
        names = {summon.name for summon in summons}
        cards = []
        for j, entry in enumerate(array(cls["cards"], f"{where}.cards", 2, BOUNDS["cards"])):
            at = f"{where}.cards[{j}]"
            card = obj(entry, at, ("id", "name", "initiative", "top", "bottom"))
            card_id = text(card["id"], f"{at}.id")
            if card_id in ids:
                raise ScenarioError(f"{at}.id", f"card id {card_id!r} is already used by {ids[card_id]}")
            ids[card_id] = f"class {name!r}"
            top, top_lost = load_action(card["top"], f"{at}.top")
            bottom, bottom_lost = load_action(card["bottom"], f"{at}.bottom")
            for half, action in (("top", top), ("bottom", bottom)):
                if action.kind == "summon" and action.summon not in names:
                    raise ScenarioError(f"{at}.{half}.summon", f"class {name!r} has no summon {action.summon!r}")
            cards.append(Card(card_id, text(card["name"], f"{at}.name"),
                              integer(card["initiative"], f"{at}.initiative", 1, 99), top, bottom, top_lost, bottom_lost))
        classes.append(CharacterClass(name, integer(cls["hp"], f"{where}.hp", 1, 99), tuple(cards), tuple(summons)))
    return tuple(classes)


def _monster_action(raw: object, path: str) -> MonsterAction:
    data = obj(raw, path, (), ("move", "attack", "heal", "range", "targets", "pattern", "plus_targets", "jump"))
    kinds = [kind for kind in ("move", "attack", "heal") if kind in data]
    if len(kinds) != 1:
        raise ScenarioError(path, f"expected exactly one of move, attack, heal, got {len(kinds)}")
    kind = kinds[0]
    low = 1 if kind == "heal" else -9
    value = integer(data[kind], f"{path}.{kind}", low, 20)
    if kind != "attack":
        for key in ("range", "targets", "pattern", "plus_targets"):
            if key in data:
                raise ScenarioError(f"{path}.{key}", f"a {kind} line has no {key}")
    if kind != "move" and "jump" in data:
        raise ScenarioError(f"{path}.jump", f"a {kind} line has no jump")
    if "pattern" in data:
        # GH-C10: with a range the area is ranged; the record keeps "+N targets" as targets = 1 + N.
        reach, pattern, plus = _area(data, path)
        return MonsterAction(kind, value, reach if "range" in data else None, 1 + plus, pattern,
                             boolean(data.get("jump", False), f"{path}.jump"))
    if "plus_targets" in data:
        raise ScenarioError(f"{path}.plus_targets", "plus_targets (\"+N targets\") goes with an area pattern; "
                            "a single-target attack names targets")
    return MonsterAction(
        kind, value, integer(data["range"], f"{path}.range", 0, 20) if "range" in data else None,
        integer(data.get("targets", 1), f"{path}.targets", 1, 6), (),
        boolean(data.get("jump", False), f"{path}.jump"),
    )


def load_monsters(raw: object, path: str = "$") -> tuple:
    """Monster types: normal and elite stats, flying, and an ability deck of at least one card."""
    data = obj(raw, path, ("types",), ("notes",))
    types = []
    for i, item in enumerate(array(data["types"], f"{path}.types", 1, BOUNDS["types"])):
        where = f"{path}.types[{i}]"
        entry = obj(item, where, ("name", "normal", "elite", "deck"), ("flying",))
        name = text(entry["name"], f"{where}.name")
        listed_once(name, [other.name for other in types], f"{where}.name", f"monster type {name!r}")
        deck = []
        for j, card in enumerate(array(entry["deck"], f"{where}.deck", 1, BOUNDS["deck"])):
            at = f"{where}.deck[{j}]"
            data_card = obj(card, at, ("id", "initiative", "actions"), ("shuffle",))
            card_id = text(data_card["id"], f"{at}.id")
            listed_once(card_id, [other.id for other in deck], f"{at}.id", f"card id {card_id!r}", among="this deck")
            actions = tuple(_monster_action(action, f"{at}.actions[{k}]")
                            for k, action in enumerate(array(data_card["actions"], f"{at}.actions", 1, BOUNDS["actions"])))
            deck.append(MonsterCard(card_id, integer(data_card["initiative"], f"{at}.initiative", 1, 99), actions,
                                    boolean(data_card.get("shuffle", False), f"{at}.shuffle")))
        types.append(MonsterType(name, _stats(entry["normal"], f"{where}.normal"), _stats(entry["elite"], f"{where}.elite"),
                                 boolean(entry.get("flying", False), f"{where}.flying"), tuple(deck)))
    return tuple(types)


# --- scenarios ----------------------------------------------------------------------------------------


def load_scenario(raw: object, path: str = "$", variants: bool = False) -> Setup:
    """A whole scenario: map, cards, monster types, 1–4 characters and the monsters on the map.

    ``variants``: whether the rules version reading it knows the ``variant`` key (gloomhaven-4 on);
    gloomhaven-2 and gloomhaven-3 refuse it as an unknown key, as they were released.
    """
    check_shape(raw, path)
    data = obj(raw, path, ("game", "title", "map", "cards", "monsters", "characters", "figures"),
               ("level", "rounds", "notes", "titles") + (("variant",) if variants else ()))
    if "titles" in data:  # the title in the readers' languages (docs/gloomhaven-format.md)
        scenario_titles(data["titles"], f"{path}.titles")
    if data["game"] != "gloomhaven":
        raise ScenarioError(f"{path}.game", f"expected 'gloomhaven', got {data['game']!r}")
    game_map = load_map(data["map"], f"{path}.map")
    classes = load_classes(data["cards"], f"{path}.cards")
    types = load_monsters(data["monsters"], f"{path}.monsters")
    on_map = set(game_map.hexes)
    blocked = set(game_map.obstacles) | set(game_map.traps) | set(game_map.doors)
    taken: dict = {}

    def place(hex: tuple, where: str, who: str) -> None:
        if hex not in on_map:
            raise ScenarioError(where, f"hex {list(hex)} is not on the map")
        if hex in blocked:
            raise ScenarioError(where, f"hex {list(hex)} holds an obstacle, trap or door: no figure starts there")
        if hex in taken:
            raise ScenarioError(where, f"hex {list(hex)} already holds {taken[hex]} (GH-4)")
        taken[hex] = who

    characters = []
    class_names = {cls.name for cls in classes}
    for i, item in enumerate(array(data["characters"], f"{path}.characters", 1, 4)):
        where = f"{path}.characters[{i}]"
        entry = obj(item, where, ("seat", "class", "hex"))
        seat = seat_name(entry["seat"], f"{where}.seat")
        listed_once(seat, [other[0] for other in characters], f"{where}.seat", f"seat {seat!r}")
        cls = text(entry["class"], f"{where}.class")
        if cls not in class_names:
            raise ScenarioError(f"{where}.class", f"no class {cls!r} in the cards (known: {', '.join(sorted(class_names))})")
        if any(cls == other[1] for other in characters):
            raise ScenarioError(f"{where}.class", f"class {cls!r} is already played by {next(o[0] for o in characters if o[1] == cls)}")
        hex = pair(entry["hex"], f"{where}.hex")
        place(hex, f"{where}.hex", f"character {seat}")
        characters.append((seat, cls, hex))
    monsters = []
    type_names = {monster_type.name for monster_type in types}
    for i, item in enumerate(array(data["figures"], f"{path}.figures", 1, BOUNDS["figures"])):
        where = f"{path}.figures[{i}]"
        entry = obj(item, where, ("type", "rank", "number", "hex"))
        name = text(entry["type"], f"{where}.type")
        if name not in type_names:
            raise ScenarioError(f"{where}.type", f"no monster type {name!r} (known: {', '.join(sorted(type_names))})")
        rank = text(entry["rank"], f"{where}.rank", RANKS)
        number = integer(entry["number"], f"{where}.number", 1, 10)
        listed_once((name, number), [(other[0], other[2]) for other in monsters], f"{where}.number", f"{name} {number}")
        hex = pair(entry["hex"], f"{where}.hex")
        place(hex, f"{where}.hex", f"{name} {number}")
        monsters.append((name, rank, number, hex))
    return Setup(
        text(data["title"], f"{path}.title"), integer(data.get("level", 1), f"{path}.level", 0, 7),
        integer(data.get("rounds", 12), f"{path}.rounds", 1, 99), game_map, classes, types, tuple(characters),
        tuple(monsters), text(data["variant"], f"{path}.variant", VARIANTS) if "variant" in data else "",
    )


def monster_id(name: str, number: int) -> str:
    """``Bandit Guard`` 2 -> ``bandit-guard-2``."""
    return "-".join(name.lower().split()) + f"-{number}"


# --- monster-turn positions (chronicle ask) -----------------------------------------------------------


class PositionFigure:
    """A figure of a position file: side, hex, initiative, and (for the actor) its move and attack."""

    __slots__ = ("id", "side", "hex", "initiative", "secondary", "long_rest", "summoner", "rank", "number", "move",
                 "attack", "flying", "jump", "muddled")

    def __init__(self, **fields: object) -> None:
        for name in self.__slots__:
            setattr(self, name, fields[name])


def _secondary(entry: dict, side: str, where: str) -> int | None:
    """A character's non-leading card initiative (GH-2): breaks an initiative tie; absent, a tie stays the players'."""
    if "secondary" not in entry:
        return None
    if side != "character":
        raise ScenarioError(f"{where}.secondary", "only a character has a non-leading card (secondary)")
    return integer(entry["secondary"], f"{where}.secondary", 1, 99)


def load_position(raw: object, path: str = "$") -> tuple:
    """A monster-turn question: (Map, level, figures, acting figure id or None)."""
    check_shape(raw, path)
    data = obj(raw, path, ("map", "figures"), ("level", "monster", "title", "notes", "expect", "expect_jotl"))
    game_map = load_map(data["map"], f"{path}.map")
    on_map = set(game_map.hexes)
    figures = []
    taken: dict = {}
    for i, item in enumerate(array(data["figures"], f"{path}.figures", 1, BOUNDS["position_figures"])):
        where = f"{path}.figures[{i}]"
        entry = obj(item, where, ("id", "side", "hex"),
                    ("initiative", "secondary", "long_rest", "summoner", "rank", "number", "move", "attack", "flying",
                     "jump", "muddled"))
        figure_id = text(entry["id"], f"{where}.id")
        listed_once(figure_id, taken.values(), f"{where}.id", f"figure id {figure_id!r}")
        side = text(entry["side"], f"{where}.side", ("monster", "character", "summon"))
        hex = pair(entry["hex"], f"{where}.hex")
        if hex not in on_map:
            raise ScenarioError(f"{where}.hex", f"hex {list(hex)} is not on the map")
        if hex in taken:
            raise ScenarioError(f"{where}.hex", f"hex {list(hex)} already holds {taken[hex]} (GH-4)")
        if hex in game_map.obstacles and not boolean(entry.get("flying", False), f"{where}.flying"):
            raise ScenarioError(f"{where}.hex", f"hex {list(hex)} is an obstacle: only a flying figure stands there")
        taken[hex] = figure_id
        attack = None
        if "attack" in entry:
            at = f"{where}.attack"
            spec = obj(entry["attack"], at, (), ("range", "targets", "pattern", "plus_targets"))
            if "pattern" in spec:
                reach, pattern, plus = _area(spec, at)
                attack = (reach, 1, pattern, plus)
            elif "plus_targets" in spec:
                raise ScenarioError(f"{at}.plus_targets", "plus_targets (\"+N targets\") goes with an area pattern; "
                                    "a single-target attack names targets")
            else:
                attack = (integer(spec.get("range", 0), f"{at}.range", 0, 20),
                          integer(spec.get("targets", 1), f"{at}.targets", 1, 6), (), 0)
        summoner = entry.get("summoner")
        if side == "summon":
            summoner = text(summoner, f"{where}.summoner")
        elif summoner is not None:
            raise ScenarioError(f"{where}.summoner", "only a summon has a summoner")
        figures.append(PositionFigure(
            id=figure_id, side=side, hex=hex, initiative=integer(entry.get("initiative", 50), f"{where}.initiative", 1, 99),
            secondary=_secondary(entry, side, where),
            long_rest=boolean(entry.get("long_rest", False), f"{where}.long_rest"), summoner=summoner,
            rank=text(entry.get("rank", "normal"), f"{where}.rank", RANKS),
            number=integer(entry.get("number", i + 1), f"{where}.number", 1, 99),
            move=integer(entry.get("move", 0), f"{where}.move", 0, 20), attack=attack,
            flying=boolean(entry.get("flying", False), f"{where}.flying"),
            jump=boolean(entry.get("jump", False), f"{where}.jump"),
            muddled=boolean(entry.get("muddled", False), f"{where}.muddled"),
        ))
    ids = {figure.id for figure in figures}
    for i, figure in enumerate(figures):
        if figure.summoner is not None and figure.summoner not in ids:
            raise ScenarioError(f"{path}.figures[{i}].summoner", f"no figure {figure.summoner!r}")
    acting = None
    if "monster" in data:
        acting = text(data["monster"], f"{path}.monster")
        if acting not in ids:
            raise ScenarioError(f"{path}.monster", f"no figure {acting!r}")
    return game_map, integer(data.get("level", 1), f"{path}.level", 0, 7), tuple(figures), acting

"""The map, the cards and the scenarios of ``echo`` as data: validated once, with a path to every fault.

The file formats are documented in ``docs/echo-format.md``. A scenario arrives here as one dict
with its map and cards already inlined (the shell reads files; the core does not).
"""

from __future__ import annotations

from events.games.echo.model import Cards, Enemy, EnemyCard, Investigator, Item, Link, Location, Map, Spell
from events.lookup import by_id, by_id_or_raise
from events.record import worked_out
from events.validate import (
    ScenarioError,
    array,
    boolean,
    check_shape,
    found,
    integer,
    listed_once,
    obj,
    seat_name,
    text,
)
from events.validate import titles as scenario_titles

ENEMY_KINDS = ("person", "undead", "artifact")  # EC-C4
SPELL_KINDS = ("obvious", "true")  # EC-10
SKILL_LIMIT = 20
TRACK_LIMIT = 20

#: Every number of an echo map, cards file or scenario that sizes work, and its upper bound
#: (docs/echo-format.md, "Bounds"); beyond one, the scenario is refused with ``BoundError``.
BOUNDS = {
    "locations": 150,
    "links": 600,  # white arrows, and Dark Path links, each
    "ministry": 20,  # Ministry locations
    "position": 10_000,  # a location's x and y
    "item_cards": 100,
    "spell_cards": 100,
    "enemy_cards": 100,
    "investigator_cards": 50,
    "held": 20,  # items, spells or allies on one investigator card
    "skill": SKILL_LIMIT,  # Speed (movement points, EC-2), Stealth, ...; also dice of a check
    "track": TRACK_LIMIT,  # Sanity, Health, damage, price
    "clues": 100,
    "seats": 8,
    "enemies": 40,  # enemies placed by the scenario
    "rounds": 1000,
}


class Setup:
    """A validated scenario: what ``start`` turns into the first state."""

    __slots__ = ("title", "map", "cards", "seats", "investigators", "enemies", "rounds")

    def __init__(
        self, title: str, map: Map, cards: Cards, seats: tuple, investigators: tuple, enemies: tuple, rounds: int
    ) -> None:
        self.title = title
        self.map = map
        self.cards = cards
        self.seats = seats
        self.investigators = investigators
        self.enemies = enemies
        self.rounds = rounds


def _ident(value: object, path: str) -> str:
    """An id: lower-case letters, digits and ``-`` (it travels in commands and URLs)."""
    name = text(value, path)
    if len(name) > 48 or not all(ch.isascii() and (ch.islower() or ch.isdigit() or ch == "-") for ch in name):
        raise ScenarioError(path, f"expected an id of 1–48 lower-case letters, digits or '-', got {found(value)}")
    return name


def _place(value: object, path: str, ids: dict) -> str:
    name = text(value, path)
    if name not in ids:
        raise ScenarioError(path, f"unknown location {found(value)}")
    return name


def load_map(raw: object, path: str = "$") -> Map:
    """A map from its JSON data (EC-C1): places, white arrows, the Dark Path and the special places."""
    data = obj(raw, path, ("name_ru", "name_en", "locations", "arrows", "dark_path", "asylum", "ministry",
                           "dark_side"), ("notes",))
    ids: dict = {}
    raw_locations = []
    for i, item in enumerate(array(data["locations"], f"{path}.locations", 2, BOUNDS["locations"])):
        where = f"{path}.locations[{i}]"
        loc = obj(item, where, ("id", "name_ru", "name_en", "x", "y"), ("notes",))
        lid = _ident(loc["id"], f"{where}.id")
        listed_once(lid, ids, f"{where}.id", f"location {lid!r}")
        ids[lid] = where
        raw_locations.append((lid, text(loc["name_ru"], f"{where}.name_ru"), text(loc["name_en"], f"{where}.name_en"),
                              integer(loc["x"], f"{where}.x", 0, BOUNDS["position"]),
                              integer(loc["y"], f"{where}.y", 0, BOUNDS["position"])))
    asylum = _place(data["asylum"], f"{path}.asylum", ids)
    ministry = []
    for i, item in enumerate(array(data["ministry"], f"{path}.ministry", 1, BOUNDS["ministry"])):
        place = _place(item, f"{path}.ministry[{i}]", ids)
        listed_once(place, ministry, f"{path}.ministry[{i}]", f"location {place!r}")
        if place == asylum:
            raise ScenarioError(f"{path}.ministry[{i}]", f"{place!r} is the Asylum, not a Ministry location (EC-18)")
        ministry.append(place)
    dark_side = _place(data["dark_side"], f"{path}.dark_side", ids)
    if dark_side == asylum or dark_side in ministry:
        raise ScenarioError(f"{path}.dark_side", f"{dark_side!r} is already the Asylum or a Ministry location (EC-19)")
    links: dict = {}
    for key, kind in (("arrows", "arrow"), ("dark_path", "dark")):
        for i, item in enumerate(array(data[key], f"{path}.{key}", 0, BOUNDS["links"])):
            where = f"{path}.{key}[{i}]"
            pair = array(item, where, 2, 2)
            a = _place(pair[0], f"{where}[0]", ids)
            b = _place(pair[1], f"{where}[1]", ids)
            if a == b:
                raise ScenarioError(where, f"location {a!r} cannot be linked to itself")
            key_pair = (min(a, b), max(a, b))
            if key_pair in links:
                raise ScenarioError(where, f"{a!r} and {b!r} are already linked")
            links[key_pair] = kind
    kinds = {asylum: "asylum", dark_side: "dark-side"}
    for place in ministry:
        kinds[place] = "ministry"
    locations = tuple(sorted((Location(lid, ru, en, kinds.get(lid, "street"), x, y)
                              for lid, ru, en, x, y in raw_locations), key=lambda loc: loc.id))
    return Map(
        text(data["name_ru"], f"{path}.name_ru"), text(data["name_en"], f"{path}.name_en"), locations,
        tuple(Link(a, b, kind) for (a, b), kind in sorted(links.items())), asylum, tuple(ministry), dark_side,
    )


def _damage(raw: object, path: str) -> tuple:
    data = obj(raw, path, (), ("sanity", "health"))
    return (integer(data.get("sanity", 0), f"{path}.sanity", 0, TRACK_LIMIT),
            integer(data.get("health", 0), f"{path}.health", 0, TRACK_LIMIT))


def _names(data: dict, where: str) -> tuple:
    return (text(data["name_ru"], f"{where}.name_ru"), text(data["name_en"], f"{where}.name_en"))


def _new_card(seen: set, cid: str, path: str) -> None:
    """A card id that no card of the file holds yet (items, spells, enemies and investigators share one space)."""
    listed_once(cid, seen, path, f"card {cid!r}")
    seen.add(cid)


def load_cards(raw: object, path: str = "$") -> tuple:
    """(Cards, investigator templates by id) from the cards file (EC-C2)."""
    data = obj(raw, path, ("investigators", "enemies", "spells", "items"), ("notes",))
    seen: set = set()
    items = []
    for i, item in enumerate(array(data["items"], f"{path}.items", 0, BOUNDS["item_cards"])):
        where = f"{path}.items[{i}]"
        card = obj(item, where, ("id", "name_ru", "name_en", "damage"), ("notes",))
        cid = _ident(card["id"], f"{where}.id")
        _new_card(seen, cid, f"{where}.id")
        items.append(Item(cid, *_names(card, where), *_damage(card["damage"], f"{where}.damage")))
    spells = []
    for i, item in enumerate(array(data["spells"], f"{path}.spells", 0, BOUNDS["spell_cards"])):
        where = f"{path}.spells[{i}]"
        card = obj(item, where, ("id", "name_ru", "name_en", "kind", "difficulty", "price", "damage", "combat"),
                   ("notes",))
        cid = _ident(card["id"], f"{where}.id")
        _new_card(seen, cid, f"{where}.id")
        spells.append(Spell(
            cid, *_names(card, where), text(card["kind"], f"{where}.kind", SPELL_KINDS),
            integer(card["difficulty"], f"{where}.difficulty", 0, SKILL_LIMIT),
            integer(card["price"], f"{where}.price", 0, TRACK_LIMIT), *_damage(card["damage"], f"{where}.damage"),
            boolean(card["combat"], f"{where}.combat"),
        ))
    enemies = []
    for i, item in enumerate(array(data["enemies"], f"{path}.enemies", 0, BOUNDS["enemy_cards"])):
        where = f"{path}.enemies[{i}]"
        card = obj(item, where, ("id", "name_ru", "name_en", "kind", "sanity", "health", "evasion", "attention",
                                 "attack"), ("fixed", "clues", "notes"))
        cid = _ident(card["id"], f"{where}.id")
        _new_card(seen, cid, f"{where}.id")
        attack = obj(card["attack"], f"{where}.attack", ("blue", "red"))
        fixed = _damage(card.get("fixed", {}), f"{where}.fixed")
        enemies.append(EnemyCard(
            cid, *_names(card, where), text(card["kind"], f"{where}.kind", ENEMY_KINDS),
            integer(card["sanity"], f"{where}.sanity", 1, TRACK_LIMIT),
            integer(card["health"], f"{where}.health", 1, TRACK_LIMIT),
            integer(card["evasion"], f"{where}.evasion", 0, SKILL_LIMIT),
            integer(card["attention"], f"{where}.attention", 0, SKILL_LIMIT),
            integer(attack["blue"], f"{where}.attack.blue", 0, SKILL_LIMIT),
            integer(attack["red"], f"{where}.attack.red", 0, SKILL_LIMIT),
            fixed[0], fixed[1], integer(card.get("clues", 1), f"{where}.clues", 0, TRACK_LIMIT),
        ))
    item_ids = {card.id for card in items}
    spell_ids = {card.id for card in spells}
    investigators: dict = {}
    for i, item in enumerate(array(data["investigators"], f"{path}.investigators", 1, BOUNDS["investigator_cards"])):
        where = f"{path}.investigators[{i}]"
        card = obj(item, where, ("id", "name_ru", "name_en", "speed", "stealth", "attention", "knowledge",
                                 "intuition", "sanity", "health"), ("items", "spells", "clues", "allies", "notes"))
        cid = _ident(card["id"], f"{where}.id")
        _new_card(seen, cid, f"{where}.id")
        skills = tuple(integer(card[name], f"{where}.{name}", 0, SKILL_LIMIT)
                       for name in ("speed", "stealth", "attention", "knowledge", "intuition"))
        tracks = tuple(integer(card[name], f"{where}.{name}", 1, TRACK_LIMIT) for name in ("sanity", "health"))
        held = _refs(card.get("items", []), f"{where}.items", item_ids, "item")
        known = _refs(card.get("spells", []), f"{where}.spells", spell_ids, "spell")
        allies = tuple(text(ally, f"{where}.allies[{j}]")
                       for j, ally in enumerate(array(card.get("allies", []), f"{where}.allies", 0, BOUNDS["held"])))
        investigators[cid] = (
            _names(card, where), skills, tracks, held, known,
            integer(card.get("clues", 0), f"{where}.clues", 0, BOUNDS["clues"]), allies,
        )
    cards = Cards(
        tuple(sorted(enemies, key=lambda c: c.id)), tuple(sorted(spells, key=lambda c: c.id)),
        tuple(sorted(items, key=lambda c: c.id)),
    )
    return cards, investigators


def _refs(raw: object, path: str, known: set, what: str) -> tuple:
    out = []
    for i, value in enumerate(array(raw, path, 0, BOUNDS["held"])):
        name = text(value, f"{path}[{i}]")
        if name not in known:
            raise ScenarioError(f"{path}[{i}]", f"unknown {what} {found(value)}")
        out.append(name)
    return tuple(out)


def load_scenario(raw: object, path: str = "$") -> Setup:
    """A whole scenario: map, cards, 1–8 seats with their investigators, enemies, rounds."""
    check_shape(raw, path)
    data = obj(raw, path, ("game", "title", "map", "cards", "seats", "enemies", "rounds"), ("notes", "titles"))
    if "titles" in data:  # the title in the readers' languages (docs/echo-format.md)
        scenario_titles(data["titles"], f"{path}.titles")
    if data["game"] != "echo":
        raise ScenarioError(f"{path}.game", f"expected 'echo', got {found(data['game'])}")
    board = load_map(data["map"], f"{path}.map")
    cards, templates = load_cards(data["cards"], f"{path}.cards")
    places = {location.id for location in board.locations}
    seats: list = []
    investigators = []
    for i, item in enumerate(array(data["seats"], f"{path}.seats", 1, BOUNDS["seats"])):
        where = f"{path}.seats[{i}]"
        seat = obj(item, where, ("seat", "investigator", "at"))
        name = seat_name(seat["seat"], f"{where}.seat")
        listed_once(name, seats, f"{where}.seat", f"seat {name!r}")
        who = text(seat["investigator"], f"{where}.investigator")
        if who not in templates:
            raise ScenarioError(f"{where}.investigator", f"unknown investigator {found(who)} "
                                f"(known: {', '.join(sorted(templates))})")
        if any(other.id == who for other in investigators):
            raise ScenarioError(f"{where}.investigator", f"investigator {who!r} already has a seat")
        at = text(seat["at"], f"{where}.at")
        if at not in places:
            raise ScenarioError(f"{where}.at", f"unknown location {found(at)}")
        (ru, en), skills, tracks, held, known, clues, allies = templates[who]
        seats.append(name)
        investigators.append(Investigator(name, who, ru, en, *skills, *tracks, at, 0, held, known, clues, allies,
                                          (), (), True))
    enemy_cards = {card.id: card for card in cards.enemies}
    enemies: list = []
    for i, item in enumerate(array(data["enemies"], f"{path}.enemies", 0, BOUNDS["enemies"])):
        where = f"{path}.enemies[{i}]"
        enemy = obj(item, where, ("id", "card", "at"))
        eid = _ident(enemy["id"], f"{where}.id")
        listed_once(eid, [other.id for other in enemies], f"{where}.id", f"enemy {eid!r}")
        card = text(enemy["card"], f"{where}.card")
        if card not in enemy_cards:
            raise ScenarioError(f"{where}.card", f"unknown enemy card {found(card)}")
        at = text(enemy["at"], f"{where}.at")
        if at not in places:
            raise ScenarioError(f"{where}.at", f"unknown location {found(at)}")
        enemies.append(Enemy(eid, card, at, enemy_cards[card].sanity, enemy_cards[card].health, "active"))
    rounds = integer(data["rounds"], f"{path}.rounds", 1, BOUNDS["rounds"])
    return Setup(text(data["title"], f"{path}.title"), board, cards, tuple(seats), tuple(investigators),
                 tuple(enemies), rounds)


# --- questions about the map -----------------------------------------------------------------------


def neighbours(board: Map) -> dict:
    """Location id -> ((neighbour id, link kind), ...) sorted by id: built once per map (``worked_out``)."""
    return worked_out(board, _neighbour_table)


def _neighbour_table(board: Map) -> dict:
    table: dict = {location.id: [] for location in board.locations}
    for link in board.links:
        table[link.a].append((link.b, link.kind))
        table[link.b].append((link.a, link.kind))
    return {place: tuple(sorted(near)) for place, near in table.items()}


def enemy_card(cards: Cards, cid: str) -> EnemyCard:
    return by_id_or_raise(cards.enemies, cid, "enemy card")


def spell(cards: Cards, cid: str) -> Spell | None:
    return by_id(cards.spells, cid)

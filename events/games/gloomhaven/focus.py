"""A monster's turn, decided: focus (GH-6, GH-C11), destination (GH-7, GH-C8, GH-C9) and targets
(GH-C10), with the trace of why.

The same function answers ``chronicle ask gloomhaven monster-turn`` and plays every monster and
summon turn of a game, so the answer a player checks is the move the engine makes.

**Focus (GH-6, GH-C4, GH-C7, GH-C11).** For every enemy, the monster looks for the hexes it could
end on and attack that enemy from (in range counted around walls and in line of sight, GH-C7;
with an area pattern, a placement covering it, GH-C10), and for the cheapest path to one of them
*assuming unlimited movement*. A path's cost is (negative hexes entered, movement points): traps
and hazardous hexes count as obstacles unless no other path exists. The focus is the enemy with
the cheapest such path; ties go to proximity (counted around walls from where the monster
stands), then to initiative order (summons just before their summoner, long rests at 99).
Characters tied on initiative share one place in that order (GH-C11): a tie they leave is the
players' choice, and every focus it allows is answered. Where one shared place cannot say it (a
summon of a tied character acts just before its own summoner, so it ties with the others:
gloomhaven-5), the field lists every acting order the players may choose and the turn is planned
for each and joined (``Field.orders``, ``tied_orders``). Jaws of the Lion (GH-V1) skips proximity.
A monster without an attack focuses as if it had a melee attack. No enemy reachable: no focus.

**Destination (GH-C8).** Among the hexes it can reach this turn, entering no more negative hexes
than it must, and attack its focus from, it ranks (1) no disadvantage on the focus, (2) most
targets, (3) the best group of extra targets (each ranked exactly as a focus is, from the
starting hex; groups compared best member first), (4) fewest extra targets with disadvantage,
(5) fewest movement points. **Out of reach (GH-C9):** it ranks the hexes it would attack from
with unlimited movement by (2)…(5), and for *each* hex that ties moves as far as it can toward
it, stopping where (negative hexes on the whole route, path left) is least, then where it spends
least now; tied hexes are never pooled. Every hex weighed is in the trace with the step that kept
or dropped it; whatever still ties is an option for the players (GH-C4, GH-C11).

**Targets (GH-C10).** The focus and as many extra targets as the attack allows; an area pattern
in any of its six rotations, mirrored or not, around the monster (melee) or anywhere one of its
hexes is within range (ranged), every target in line of sight; "+N targets" on an area attack
adds N single targets beyond the pattern. A monster attacks only if it can attack its focus.

Everything here is integer and sorted, so a plan is the same in CPython and Brython.
"""

from __future__ import annotations

from events.games.gloomhaven.model import Candidate, Considered, Option
from events.geometry.hexgrid import hex_distance, hex_length
from events.geometry.hexmap import hexmap_path_to, hexmap_paths, hexmap_rotate
from events.lookup import by_id

FAR = 10_000  # proximity of an enemy walls cut off entirely: it sorts last


class Body:
    """A figure as a monster's turn sees it: where, which team, and its place in initiative order."""

    __slots__ = ("id", "hex", "team", "order", "initiative")

    def __init__(self, id: str, hex: tuple, team: str, order: int, initiative: int) -> None:
        self.id = id
        self.hex = hex
        self.team = team
        self.order = order
        self.initiative = initiative


class Field:
    """The map and its figures for one monster turn. ``hexmap`` has closed doors marked closed.

    ``orders`` (gloomhaven-5, GH-C11): when the players' choice of acting order cannot be written as
    shared places in one order (a summon of a character tied on initiative acts just before its own
    summoner, not before the character it ties with), every order they may choose, each a tuple of
    (body id, order) pairs (``tied_orders``); empty, ``bodies``' own order is the only one.
    """

    __slots__ = ("hexmap", "obstacles", "negative", "difficult", "bodies", "by_hex", "orders")

    def __init__(self, hexmap: object, obstacles: frozenset, traps: frozenset, hazardous: frozenset,
                 difficult: frozenset, bodies: tuple, orders: tuple = ()) -> None:
        self.hexmap = hexmap
        self.obstacles = obstacles
        self.negative = traps | hazardous
        self.difficult = difficult
        self.bodies = bodies
        self.by_hex = {body.hex: body for body in bodies}
        self.orders = orders

    def ordered(self, order: tuple) -> Field:
        """The same field with the bodies ranked by one acting order (``orders``' entry), no other."""
        rank = dict(order)
        bodies = tuple(Body(b.id, b.hex, b.team, rank.get(b.id, b.order), b.initiative) for b in self.bodies)
        return Field(self.hexmap, self.obstacles, self.negative, frozenset(), self.difficult, bodies)


class Attack:
    """The attack a monster would make (GH-C3, GH-C10).

    ``range`` 0 is melee; ``targets`` the number of single targets (no pattern); ``pattern`` an area's
    hexes (relative to the monster for a melee area, to any one of them for a ranged one); ``plus``
    the "+N targets" of an area attack.
    """

    __slots__ = ("range", "targets", "pattern", "plus")

    def __init__(self, range: int, targets: int, pattern: tuple, plus: int = 0) -> None:
        self.range = range
        self.targets = targets
        self.pattern = pattern
        self.plus = plus


MELEE = Attack(0, 1, ())


class Plan:
    """What a monster's turn comes to: focus ids, the trace of every candidate and destination, the options.

    ``order_tie`` (GH-C11): one focus, several options, and each acting order the players may choose
    (``Field.orders``) gives exactly one of them: the options are the choice of that order, and so the
    tied characters' (gloomhaven-6 asks their seats, ``rules._choosers``).
    """

    __slots__ = ("focus", "candidates", "decided_by", "options", "destinations", "order_tie")

    def __init__(self, focus: tuple, candidates: tuple, decided_by: str, options: tuple,
                 destinations: tuple = (), order_tie: bool = False) -> None:
        self.focus = focus
        self.candidates = candidates
        self.decided_by = decided_by
        self.options = options
        self.destinations = destinations
        self.order_tie = order_tie

    def to_data(self) -> dict:
        return {
            "focus": list(self.focus),
            "options": [
                {"focus": option.focus, "destination": list(option.destination),
                 "path": [list(hex) for hex in option.path], "attacks": list(option.attacks),
                 "disadvantage": option.disadvantage, "movement": option.movement, "negative": option.negative,
                 "toward": list(option.toward) if option.toward is not None else None}
                for option in self.options
            ],
            "trace": {
                "decided_by": self.decided_by,
                "candidates": [
                    {"figure": c.figure, "reachable": c.reachable, "negative": c.negative, "movement": c.movement,
                     "proximity": c.proximity, "initiative": c.initiative, "order": c.order,
                     "attack_hex": list(c.attack_hex) if c.attack_hex is not None else None}
                    for c in self.candidates
                ],
                "destinations": [
                    {"focus": d.focus, "hex": list(d.hex), "toward": list(d.toward) if d.toward is not None else None,
                     "kept": d.kept, "step": d.step, "detail": d.detail}
                    for d in self.destinations
                ],
            },
        }


#: GH-C8's order of priority, one name per component of a destination's score.
C8_STEPS = ("GH-C8 (1) no disadvantage on the focus", "GH-C8 (2) most targets",
            "GH-C8 (3) best group of extra targets", "GH-C8 (4) fewest extra targets with disadvantage",
            "GH-C8 (5) fewest movement points")
#: GH-C9 ranks the hexes it would attack from as GH-C8 without (1); its cost compares negative hexes first.
C9_STEPS = ("GH-C9 as GH-C8 (2) most targets", "GH-C9 as GH-C8 (3) best group of extra targets",
            "GH-C9 as GH-C8 (4) fewest extra targets with disadvantage",
            "GH-C9 as GH-C8 (5) fewest movement points (negative hexes first)")
#: Where it stops on its way (GH-C9).
STOP_STEPS = ("GH-C9 fewest negative hexes on the route", "GH-C9 least path left",
              "GH-C9 fewest movement points now")


def monster_turn(field: Field, actor_id: str, move: int, attack: Attack | None, mode: str = "walk",
                 muddled: bool = False, jotl: bool = False) -> Plan:
    """Focus, then every equally good (destination, path, targets) for this turn (GH-6…GH-7, GH-C4, GH-C8…GH-C11).

    With ``field.orders`` (GH-C11, gloomhaven-5) the turn is planned for every acting order the players may
    choose and the plans joined (``_joined``); the map's paths and sight are worked out once for all of them.
    """
    actor = by_id(field.bodies, actor_id)
    reach_attack = attack or MELEE  # GH-C4: no attack, focus as if melee
    walker = _Mover(field, actor, mode, jotl)
    reach = _Reach(field, reach_attack)
    attack_hexes = {body.id: tuple(sorted(hex for hex in walker.ends if reach.attacks(hex, body.hex)))
                    for body in field.bodies if body.team != actor.team}
    if not field.orders:
        return _plan(field, field.bodies, actor, walker, reach, attack_hexes, move, attack, muddled, jotl, {})
    known: dict = {}  # one focus's options under the same ranks are the same in every order
    plans = [_plan(field, field.ordered(order).bodies, actor, walker, reach, attack_hexes, move, attack, muddled, jotl,
                   known) for order in _distinct_orders(field, actor, walker, attack_hexes, jotl)]
    return _joined(field, plans)


def _distinct_orders(field: Field, actor: Body, walker: _Mover, attack_hexes: dict, jotl: bool) -> list:
    """``field.orders`` less those that plan alike: an order matters only where it ranks enemies tied on
    every step before initiative (negative hexes, movement points, proximity; GH-V1 without proximity),
    so one order per way of ranking each such tie is planned (the work stays bounded with four tied
    characters and their summons)."""
    ties: dict = {}
    for body in field.bodies:
        hexes = attack_hexes.get(body.id) if body.team != actor.team else None
        if hexes:
            negative, movement = min(walker.cost[hex] for hex in hexes)
            proximity = field.hexmap.range_between(actor.hex, body.hex)
            step = (negative, movement) if jotl else (negative, movement, FAR if proximity is None else proximity)
            ties.setdefault(step, []).append(body.id)
    groups = [tuple(sorted(ids)) for _step, ids in sorted(ties.items()) if len(ids) > 1]
    out, seen = [], set()
    for order in field.orders:
        place = dict(order)
        ranking = tuple(tuple(sorted(group, key=lambda figure: place[figure])) for group in groups)
        if ranking not in seen:
            seen.add(ranking)
            out.append(order)
    return out


def _plan(field: Field, bodies: tuple, actor: Body, walker: _Mover, reach: _Reach, attack_hexes: dict, move: int,
          attack: Attack | None, muddled: bool, jotl: bool, known: dict) -> Plan:
    """The plan with ``bodies`` ranked in one initiative order (``Body.order``): focus, then options.

    ``known`` remembers each focus's (options, destinations weighed) by the ranks its extra targets are
    chosen by (none for an attack on one target), for the next order (``monster_turn``)."""
    enemies = tuple(sorted((body for body in bodies if body.team != actor.team), key=lambda b: (b.order, b.id)))
    candidates = []
    for enemy in enemies:
        hexes = attack_hexes[enemy.id]
        proximity = field.hexmap.range_between(actor.hex, enemy.hex)
        if hexes:
            best = min(hexes, key=lambda hex: (walker.cost[hex], hex))
            negative, movement = walker.cost[best]
            candidates.append(Candidate(enemy.id, True, negative, movement, proximity, enemy.initiative, enemy.order,
                                        best))
        else:
            candidates.append(Candidate(enemy.id, False, None, None, proximity, enemy.initiative, enemy.order, None))
    reachable = [c for c in candidates if c.reachable]
    if not reachable:
        return Plan((), tuple(candidates), "none reachable: no hex it could end on has an enemy in range and line of "
                    "sight (GH-C4, GH-C7)", ())

    def key(c: Candidate) -> tuple:
        proximity = FAR if c.proximity is None else c.proximity
        return (c.negative, c.movement, c.order) if jotl else (c.negative, c.movement, proximity, c.order)

    ranked = sorted(reachable, key=lambda c: (key(c), c.figure))
    best_key = key(ranked[0])
    foci = tuple(c.figure for c in ranked if key(c) == best_key)
    rank = {c.figure: key(c) for c in reachable}  # GH-C8 (3): extra targets ranked exactly as a focus is
    turn = _Turn(field, walker, actor, enemies, attack, reach, rank, move, muddled)
    extras = attack is not None and (bool(attack.pattern) or attack.targets > 1)
    ranks = tuple(sorted(rank.items())) if extras else ()
    options: list = []
    destinations: list = []
    for focus_id in foci:
        found_weighed = known.get((focus_id, ranks))
        if found_weighed is None:
            found_weighed = turn.options(by_id(enemies, focus_id), attack_hexes[focus_id])
            known[(focus_id, ranks)] = found_weighed
        found, weighed = found_weighed
        options += found
        destinations += weighed
    return Plan(foci, tuple(candidates), _decided_by(ranked, key, jotl), tuple(options), tuple(destinations))


#: ``decided_by`` of a focus the players choose between characters tied on initiative (GH-C11).
TIED = "tied on initiative: the players choose (GH-C11)"


def _joined(field: Field, plans: list) -> Plan:
    """GH-C11 (gloomhaven-5): the plans of every acting order the players may choose, joined.

    Each order gives its own focus and options; the answer is all of them (the players choose the
    order, and so the focus). The trace keeps each candidate's place in the field's own order, and
    every destination any order weighed.
    """
    foci: list = []
    options: list = []
    destinations: list = []
    seen: set = set()
    for plan in plans:
        foci += [figure for figure in plan.focus if figure not in foci]
        for part, items in ((options, plan.options), (destinations, plan.destinations)):
            for item in items:
                if item not in seen:  # records hash by their fields
                    seen.add(item)
                    part.append(item)
    place = {body.id: body.order for body in field.bodies}
    candidates = tuple(c.but(order=place[c.figure]) for c in plans[0].candidates)
    decided_by = TIED if len(foci) > 1 else plans[0].decided_by
    order_tie = len(foci) == 1 and len(options) > 1 and all(len(plan.options) == 1 for plan in plans)
    return Plan(tuple(foci), candidates, decided_by, tuple(options), tuple(destinations), order_tie)


def tied_orders(bodies: tuple, blocks: tuple, summoner: dict, before: frozenset = frozenset()) -> tuple:
    """Every acting order the players may choose (GH-2, GH-6, GH-8, GH-C11), for ``Field.orders``.

    ``bodies`` in their order (``Body.order``, ties by id); ``blocks`` the groups of character ids tied
    on initiative, which the players order as they like, except that ``before`` pairs (a, b) put a
    ahead of b (a lower non-leading card, GH-2); ``summoner`` maps a summon's id to its summoner's.
    In every order a summon acts just before its own summoner, after any character tied with it
    that the players put first. Returns a tuple of orders, each a tuple of (body id, place) pairs.
    """
    ranked = sorted(bodies, key=lambda body: (body.order, body.id))
    block_of = {member: i for i, block in enumerate(blocks) for member in block}
    choices = [[perm for perm in _orderings(tuple(sorted(block)))
                if not any((b, a) in before for i, a in enumerate(perm) for b in perm[i + 1:])] for block in blocks]
    out = []
    for pick in _product(choices):
        sequence: list = []
        done: set = set()
        for body in ranked:
            owner = summoner.get(body.id, body.id)
            if owner not in block_of:
                sequence.append(body.id)
                continue
            block = block_of[owner]
            if block in done:
                continue
            done.add(block)
            for member in pick[block]:
                sequence += [b.id for b in ranked if summoner.get(b.id) == member]
                sequence.append(member)
        out.append(tuple((figure, place) for place, figure in enumerate(sequence)))
    return tuple(out)


def _orderings(items: tuple) -> list:
    """Every ordering of ``items`` (itertools costs an import in Brython)."""
    if len(items) <= 1:
        return [items]
    return [(item,) + rest for i, item in enumerate(items) for rest in _orderings(items[:i] + items[i + 1:])]


def _product(choices: list) -> list:
    """One pick from each list, every way."""
    out: list = [()]
    for options in choices:
        out = [done + (option,) for done in out for option in options]
    return out


def _decided_by(ranked: list, key: object, jotl: bool) -> str:
    """Which step of GH-6 separated the focus from the runner-up."""
    if len(ranked) == 1:
        return "only enemy reachable"
    first, second = key(ranked[0]), key(ranked[1])  # type: ignore[operator]
    if first == second:
        return TIED
    if first[0] != second[0]:
        return "negative hexes on the path (GH-C4)"
    if first[1] != second[1]:
        return "path length (GH-6)"
    if not jotl and first[2] != second[2]:
        return "proximity (GH-6)"
    return "initiative order (GH-V1)" if jotl else "initiative order (GH-6)"


def orientations(pattern: tuple) -> tuple:
    """An area pattern in its six rotations, mirrored and not, each a sorted tuple of cells, duplicates dropped (GH-C10)."""
    out = []
    for mirrored in (False, True):
        cells = tuple((r, q) for q, r in pattern) if mirrored else tuple(pattern)  # swapping two cube axes mirrors
        for turns in range(6):
            placed = tuple(sorted(hexmap_rotate(cell, turns) for cell in cells))
            if placed not in out:
                out.append(placed)
    return tuple(out)


class _Reach:
    """Who an attack from a hex can reach (GH-C7 sight, GH-C10 areas), remembered per hex and target."""

    def __init__(self, field: Field, attack: Attack) -> None:
        self.field = field
        self.attack = attack
        self.shapes = orientations(attack.pattern) if attack.pattern else ()
        # The farthest a pattern can reach from the attacker's hex, as the crow flies: a cheap bound
        # before any sight line is traced (range around walls is never shorter than hex distance).
        cells = attack.pattern
        if attack.range == 0:
            self.span = max((hex_length(cell) for cell in cells), default=1)
        else:
            self.span = attack.range + max((hex_distance(a, b) for a in cells for b in cells), default=0)
        self._known: dict = {}

    def in_range(self, hex: tuple, target: tuple) -> bool:
        """A single target: adjacent for melee, else in range around walls and in sight (GH-C1, GH-C7)."""
        hexmap = self.field.hexmap
        if self.attack.range == 0:
            return hexmap.are_adjacent(hex, target)
        if hex_distance(hex, target) > self.attack.range:
            return False
        return hexmap.in_range(hex, target, self.attack.range) and hexmap.line_of_sight(hex, target)

    def covering(self, target: tuple) -> tuple:
        """Every placement of a ranged pattern that covers ``target``, wherever the attacker stands (GH-C10)."""
        key = ("covering", target)
        known = self._known.get(key)
        if known is None:
            out: list = []
            for shape in self.shapes:
                for dq, dr in shape:
                    anchor = (target[0] - dq, target[1] - dr)
                    cells = tuple(sorted((anchor[0] + cq, anchor[1] + cr) for cq, cr in shape))
                    if cells not in out:
                        out.append(cells)
            cover = sorted({cell for cells in out for cell in cells})
            known = (tuple(out), tuple(cover))
            self._known[key] = known
        return known

    def placements(self, hex: tuple, target: tuple) -> tuple:
        """Every placement of the area pattern from ``hex`` that covers ``target`` (GH-C10), as sorted cell tuples."""
        key = (hex, target)
        known = self._known.get(key)
        if known is not None:
            return known
        out: list = []
        if self._may_cover(hex, target):
            if self.attack.range == 0:
                for shape in self.shapes:
                    cells = tuple((hex[0] + dq, hex[1] + dr) for dq, dr in shape)
                    if target in cells and cells not in out:
                        out.append(cells)
            else:
                near = self.field.hexmap.within(hex, self.attack.range)
                out = [cells for cells in self.covering(target)[0] if any(cell in near for cell in cells)]
        known = tuple(out)
        self._known[key] = known
        return known

    def _may_cover(self, hex: tuple, target: tuple) -> bool:
        """Cheap tests first: near enough as the crow flies, in sight (GH-C7)."""
        return hex_distance(hex, target) <= self.span and self.field.hexmap.line_of_sight(hex, target)

    def attacks(self, hex: tuple, target: tuple) -> bool:
        if not self.attack.pattern:
            return self.in_range(hex, target)
        if self.attack.range == 0:
            return bool(self.placements(hex, target))
        # A ranged area reaches the target if any hex of a placement covering it is within range (GH-C10).
        if not self._may_cover(hex, target):
            return False
        near = self.field.hexmap.within(hex, self.attack.range)
        return any(cell in near for cell in self.covering(target)[1])


class _Turn:
    """One monster turn's destinations for a given focus, ranked by GH-C8 or GH-C9."""

    def __init__(self, field: Field, walker: _Mover, actor: Body, enemies: tuple, attack: Attack | None,
                 reach: _Reach, rank: dict, move: int, muddled: bool) -> None:
        self.field = field
        self.walker = walker
        self.actor = actor
        self.enemies = enemies
        self.attack = attack
        self.reach = reach
        self.rank = rank
        self.move = move
        self.muddled = muddled

    def _disadvantaged(self, hex: tuple, target: tuple) -> bool:
        """GH-C5: a ranged attack on an adjacent target has disadvantage; muddled, every attack has."""
        if self.attack is None:
            return False
        return self.muddled or (self.attack.range > 0 and self.field.hexmap.are_adjacent(hex, target))

    def _best_groups(self, pool: list, size: int) -> list:
        """The groups of ``size`` from ``pool`` that the focus rules rank best (GH-C8 (3)), ties all kept (GH-C11)."""
        if size <= 0:
            return [()]
        ordered = sorted(pool, key=lambda enemy: (self.rank[enemy.id], enemy.id))
        cut = self.rank[ordered[size - 1].id]
        sure = [enemy for enemy in ordered if self.rank[enemy.id] < cut]
        tied = [enemy for enemy in ordered if self.rank[enemy.id] == cut]
        return [tuple(sure) + extra for extra in _combinations(tuple(tied), size - len(sure))]

    def arrangements(self, hex: tuple, focus: Body) -> list:
        """Every (targets, score without movement) the attack can make from ``hex`` on ``focus`` (GH-C8 (1)-(4), GH-C10)."""
        attack = self.attack
        if attack is None:
            return [((), (False, -1, (), 0))]
        reach = self.reach
        out = []
        if attack.pattern:
            hexmap = self.field.hexmap
            for cells in reach.placements(hex, focus.hex):
                inside = set(cells)
                hit = [enemy for enemy in self.enemies if enemy.id != focus.id and enemy.hex in inside
                       and hexmap.line_of_sight(hex, enemy.hex)]
                rest = [enemy for enemy in self.enemies if enemy.id != focus.id and enemy.hex not in inside
                        and reach.in_range(hex, enemy.hex)]
                for group in self._best_groups(rest, min(attack.plus, len(rest))):
                    out.append(tuple(hit) + group)
        else:
            others = [enemy for enemy in self.enemies if enemy.id != focus.id and reach.in_range(hex, enemy.hex)]
            out = self._best_groups(others, min(attack.targets - 1, len(others)))
        scored = []
        seen: set = set()
        for extra in out:
            ids = tuple(sorted(enemy.id for enemy in extra))
            if ids in seen:
                continue
            seen.add(ids)
            targets = (focus.id,) + tuple(enemy.id for enemy in sorted(extra, key=lambda e: (self.rank[e.id], e.id)))
            score = (self._disadvantaged(hex, focus.hex), -len(targets),
                     tuple(sorted(self.rank[enemy.id] for enemy in extra)),
                     sum(1 for enemy in extra if self._disadvantaged(hex, enemy.hex)))
            scored.append((targets, score))
        return scored

    def _cite(self, steps: tuple) -> tuple:
        """Step names, citing GH-C10 when the targets counted come from an area pattern."""
        if self.attack is None or not self.attack.pattern:
            return steps
        return tuple(f"{step} (area, GH-C10)" for step in steps)

    def options(self, focus: Body, attack_hexes: tuple) -> tuple:
        """(options, destinations weighed) for ``focus``: GH-C8 if it can attack this turn, else GH-C9."""
        walker = self.walker
        cost = walker.cost
        actor = self.actor
        fewest_negative = min(cost[hex][0] for hex in attack_hexes)
        now_all = [hex for hex in attack_hexes if hex == actor.hex or cost[hex][1] <= self.move]
        weighed = [Considered(focus.id, hex, None, False, "GH-C4 negative hexes",
                              f"enters {cost[hex][0]} negative hex(es); {fewest_negative} is the fewest")
                   for hex in now_all if cost[hex][0] != fewest_negative]
        now = [hex for hex in now_all if cost[hex][0] == fewest_negative]
        if now:
            scored = []
            for hex in now:
                for targets, score in self.arrangements(hex, focus):
                    scored.append((score + (cost[hex][1],), hex, targets))
            kept = _rank(scored, self._cite(C8_STEPS), focus.id, None, weighed)
            options = [Option(focus.id, hex, walker.path(hex) if hex != actor.hex else (), targets, score[0],
                              cost[hex][1], cost[hex][0]) for score, hex, targets in kept]
            return options, weighed
        # GH-C9: the hexes it would attack from with unlimited movement, ranked as GH-C8 without (1).
        scored = []
        for hex in attack_hexes:
            if cost[hex][0] != fewest_negative:
                continue
            for targets, score in self.arrangements(hex, focus):
                scored.append((score[1:] + (cost[hex],), hex, targets))
        goals = sorted({hex for _score, hex, _targets in _rank(scored, self._cite(C9_STEPS), focus.id, None, weighed)})
        reach_now = [hex for hex in sorted(walker.ends) if hex == actor.hex or cost[hex][1] <= self.move]
        options: list = []
        taken: set = set()
        for goal in goals:
            left = walker.remaining((goal,))
            stops = [((cost[hex][0] + left[hex][0], left[hex][1], cost[hex][1]), hex, ())
                     for hex in reach_now if hex in left]
            if not stops:
                continue
            for _score, hex, _targets in _rank(stops, STOP_STEPS, focus.id, goal, weighed):
                if hex in taken:
                    continue
                taken.add(hex)
                options.append(Option(focus.id, hex, walker.path(hex) if hex != actor.hex else (), (), False,
                                      cost[hex][1], cost[hex][0], goal))
        if not options:
            options.append(Option(focus.id, actor.hex, (), (), False, 0, 0))
        return options, weighed


def _rank(scored: list, steps: tuple, focus: str, toward: tuple | None, weighed: list) -> list:
    """The best (score, hex, targets) entries; each hex's best entry goes into ``weighed`` with its deciding step.

    Scores compare lexicographically, component i being ``steps[i]``: a hex is dropped at the first
    component where its best score is worse than the best of all, and kept if it equals it.
    """
    best = min(score for score, _hex, _targets in scored)
    per_hex: dict = {}
    for score, hex, _targets in scored:
        if hex not in per_hex or score < per_hex[hex]:
            per_hex[hex] = score
    kept_hexes = [hex for hex in sorted(per_hex) if per_hex[hex] == best]
    for hex in sorted(per_hex):
        score = per_hex[hex]
        if score == best:
            step = steps[-1] if len(kept_hexes) == 1 else f"{steps[-1]}: tied, the players choose (GH-C11)"
            weighed.append(Considered(focus, hex, toward, True, step, _detail(score, steps)))
            continue
        index = next(i for i in range(len(steps)) if score[i] != best[i])
        weighed.append(Considered(focus, hex, toward, False, steps[index],
                                  f"{_detail(score, steps)} (best: {_detail(best, steps)})"))
    return [(score, hex, targets) for score, hex, targets in scored if score == best]


#: How each score component reads in a trace, by the step it belongs to (the first word of its name).
LABELS = {"GH-C8 (1)": "disadvantage", "GH-C8 (2)": "targets", "GH-C8 (3)": "group", "GH-C8 (4)": "extras at disadvantage",
          "GH-C8 (5)": "movement", "GH-C9 as GH-C8 (2)": "targets", "GH-C9 as GH-C8 (3)": "group",
          "GH-C9 as GH-C8 (4)": "extras at disadvantage", "GH-C9 as GH-C8 (5)": "negative/movement",
          "GH-C9 fewest negative": "negative on the route", "GH-C9 least path": "path left",
          "GH-C9 fewest movement": "movement now"}


def _detail(score: tuple, steps: tuple) -> str:
    """``targets 2; group [0/2/3/2]; ...``: each compared value named (a group lists its members' focus ranks)."""
    parts = []
    for step, value in zip(steps, score):
        label = next((name for prefix, name in LABELS.items() if step.startswith(prefix)), "value")
        if label == "targets":
            value = -value  # scored negated so that more sorts first
        parts.append(f"{label} {_plain(value)}")
    return "; ".join(parts)


def _plain(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        if value and isinstance(value[0], tuple):
            return "[" + " ".join(_plain(part) for part in value) + "]"
        return "/".join(str(part) for part in value) if value else "none"
    return str(value)


def _combinations(items: tuple, size: int) -> list:
    """Every ``size``-subset of ``items``, in order (itertools costs an import in Brython)."""
    if size == 0:
        return [()]
    if size > len(items):
        return []
    first, rest = items[0], items[1:]
    return [(first,) + tail for tail in _combinations(rest, size - 1)] + _combinations(rest, size)


class _Mover:
    """How the acting figure moves: cheapest cost to every hex, and where it may end (GH-4, GH-5)."""

    def __init__(self, field: Field, actor: Body, mode: str, jotl: bool) -> None:
        self.field = field
        self.actor = actor
        self.mode = mode
        self.jotl = jotl
        hexmap = field.hexmap
        occupied = {hex for hex, body in field.by_hex.items() if body.id != actor.id}
        self.enemy_hexes = {hex for hex, body in field.by_hex.items() if body.team != actor.team}
        if mode == "walk":
            self.cost, self.parent = hexmap_paths((actor.hex,), hexmap.adjacent, self._walk_step, (0, 0))
        else:
            plain, self.parent = hexmap_paths((actor.hex,), hexmap.adjacent, lambda a, b: (1,), (0,))
            self.cost = {hex: self._landing(hex, steps[0]) for hex, steps in plain.items()}
            self.cost[actor.hex] = (0, 0)
        self.ends = {
            hex for hex in self.cost
            if hex == actor.hex or (hex not in occupied and (mode == "fly" or hex not in field.obstacles))
        }

    def _walk_step(self, here: tuple, there: tuple) -> tuple | None:
        field = self.field
        if there in field.obstacles or there in self.enemy_hexes:
            return None  # GH-4: never through obstacles or enemies (allies are passed)
        return (1 if there in field.negative else 0, 2 if there in field.difficult else 1)

    def _landing(self, hex: tuple, steps: int) -> tuple:
        """GH-5: a jump pays for its landing hex's terrain (GH-V2: not for difficult); flying pays nothing."""
        if self.mode == "fly":
            return (0, steps)
        field = self.field
        extra = 1 if hex in field.difficult and not self.jotl else 0
        return (1 if hex in field.negative else 0, steps + extra)

    def path(self, hex: tuple) -> tuple:
        return hexmap_path_to(self.parent, hex)

    def remaining(self, goals: tuple) -> dict:
        """Cheapest cost from every hex to the nearest of ``goals``, by this mover's rules."""
        field = self.field
        if self.mode == "walk":
            def back_step(there: tuple, here: tuple) -> tuple | None:
                # Walking here -> there costs entering ``there``; ``here`` must be passable.
                if here in field.obstacles or here in self.enemy_hexes:
                    return None
                return (1 if there in field.negative else 0, 2 if there in field.difficult else 1)

            cost, _ = hexmap_paths(goals, field.hexmap.adjacent, back_step, (0, 0))
            return cost
        plain, _ = hexmap_paths(goals, field.hexmap.adjacent, lambda a, b: (1,), (0,))
        out = {}
        for hex, steps in plain.items():
            out[hex] = (0, steps[0])  # the landing's own cost is already in the goal's full cost
        return out

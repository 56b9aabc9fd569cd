"""A monster's turn, decided: focus (GH-6), movement (GH-7) and targets, with the trace of why.

gloomhaven-1, frozen: a1151df's ``events/games/gloomhaven/focus.py``, its imports pointed at ``events.games.gloomhaven.v1``
(see its docstring). Never edit it: gloomhaven-1 logs replay and audit through it, indefinitely.

The same function answers ``chronicle ask gloomhaven monster-turn`` and plays every monster and
summon turn of a game, so the answer a player checks is the move the engine makes.

**Focus (GH-6, GH-C4).** For every enemy, the monster looks for the hexes it could end on and
attack that enemy from (in range, in line of sight; with an area pattern, a rotation covering
it), and for the cheapest path to one of them *assuming unlimited movement*. A path's cost is
(negative hexes entered, movement points), compared in that order: traps and hazardous hexes
count as obstacles unless no other path exists, and then the path entering the fewest wins.
The focus is the enemy with the cheapest such path; ties go to proximity (range counted around
walls from where the monster stands), then to initiative order (summons just before their
summoner, long rests at 99). The Jaws of the Lion variant (GH-V1) skips proximity. A monster
without an attack focuses as if it had a melee attack. No enemy reachable: no focus, no move,
no attack.

**Movement (GH-7, GH-C4).** Let N be the fewest negative hexes any path to an attack hex for the
focus must enter. If some attack hex can be reached this turn entering only N, the monster goes
to the best of those: first one without disadvantage on the focus (a ranged attack on an
adjacent target), then the most targets, then the fewest movement points. Otherwise it moves
toward the nearest attack hexes: to the hex it can reach this turn that lies on a route entering
the fewest negative hexes, then leaves the least path still to go, then costs the least now.
Every hex that ties is an option; more than one option and the players choose (p. 32).

**Targets.** The focus, then as many other enemies as the attack's targets allow, taken in
focus order (proximity from the attacking hex, then initiative). An area attack hits every
enemy in the rotation of its pattern that covers the focus and hits the most; each such
rotation with a different set of targets is an option. A monster attacks only if it can attack
its focus.

Everything here is integer and sorted, so a plan is the same in CPython and Brython.
"""

from __future__ import annotations

from events.games.gloomhaven.model import Candidate, Option
from events.games.gloomhaven.v1.hexmap import hexmap_path_to, hexmap_paths, hexmap_rotate

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
    """The map and its figures for one monster turn. ``hexmap`` has closed doors marked closed."""

    __slots__ = ("hexmap", "obstacles", "negative", "difficult", "bodies", "by_hex")

    def __init__(self, hexmap: object, obstacles: frozenset, traps: frozenset, hazardous: frozenset,
                 difficult: frozenset, bodies: tuple) -> None:
        self.hexmap = hexmap
        self.obstacles = obstacles
        self.negative = traps | hazardous
        self.difficult = difficult
        self.bodies = bodies
        self.by_hex = {body.hex: body for body in bodies}


class Attack:
    """The attack a monster would make: range (0 = melee), targets, area pattern (melee only)."""

    __slots__ = ("range", "targets", "pattern")

    def __init__(self, range: int, targets: int, pattern: tuple) -> None:
        self.range = range
        self.targets = targets
        self.pattern = pattern


MELEE = Attack(0, 1, ())


class Plan:
    """What a monster's turn comes to: focus ids, the trace of every candidate, and the options."""

    __slots__ = ("focus", "candidates", "decided_by", "options")

    def __init__(self, focus: tuple, candidates: tuple, decided_by: str, options: tuple) -> None:
        self.focus = focus
        self.candidates = candidates
        self.decided_by = decided_by
        self.options = options

    def to_data(self) -> dict:
        return {
            "focus": list(self.focus),
            "options": [
                {"focus": option.focus, "destination": list(option.destination),
                 "path": [list(hex) for hex in option.path], "attacks": list(option.attacks),
                 "disadvantage": option.disadvantage, "movement": option.movement, "negative": option.negative}
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
            },
        }


def monster_turn(field: Field, actor_id: str, move: int, attack: Attack | None, mode: str = "walk",
                 muddled: bool = False, jotl: bool = False) -> Plan:
    """Focus, then every equally good (destination, path, targets) for this turn (GH-6, GH-7, GH-C4)."""
    actor = next(body for body in field.bodies if body.id == actor_id)
    reach_attack = attack or MELEE  # GH-C4: no attack, focus as if melee
    enemies = tuple(sorted((body for body in field.bodies if body.team != actor.team), key=lambda b: b.order))
    walker = _Mover(field, actor, mode, jotl)
    attack_hexes = {enemy.id: _attack_hexes(field, walker, enemy, reach_attack) for enemy in enemies}
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
        return Plan((), tuple(candidates), "none reachable", ())

    def key(c: Candidate) -> tuple:
        proximity = FAR if c.proximity is None else c.proximity
        return (c.negative, c.movement, c.order) if jotl else (c.negative, c.movement, proximity, c.order)

    ranked = sorted(reachable, key=key)
    best_key = key(ranked[0])
    foci = tuple(c.figure for c in ranked if key(c) == best_key)
    decided_by = _decided_by(ranked, key, jotl)
    options = []
    for focus_id in foci:
        focus = next(enemy for enemy in enemies if enemy.id == focus_id)
        options += _options(field, walker, actor, focus, enemies, attack, reach_attack, attack_hexes[focus_id],
                            move, muddled)
    return Plan(foci, tuple(candidates), decided_by, tuple(options))


def _decided_by(ranked: list, key: object, jotl: bool) -> str:
    """Which step of GH-6 separated the focus from the runner-up."""
    if len(ranked) == 1:
        return "only enemy reachable"
    first, second = key(ranked[0]), key(ranked[1])  # type: ignore[operator]
    if first == second:
        return "tied: the players choose (GH-C4)"
    if first[0] != second[0]:
        return "negative hexes on the path (GH-C4)"
    if first[1] != second[1]:
        return "path length (GH-6)"
    if not jotl and first[2] != second[2]:
        return "proximity (GH-6)"
    return "initiative order (GH-V1)" if jotl else "initiative order (GH-6)"


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


def _in_reach(field: Field, hex: tuple, target: tuple, attack: Attack) -> bool:
    """Can an attack from ``hex`` reach ``target`` (range around walls, line of sight)?"""
    hexmap = field.hexmap
    if attack.pattern:
        return any(target in cells and hexmap.line_of_sight(hex, target) for cells in _placements(hex, attack.pattern))
    if attack.range == 0:
        return hexmap.are_adjacent(hex, target)
    distance = hexmap.range_between(hex, target)
    return distance is not None and distance <= attack.range and hexmap.line_of_sight(hex, target)


def _placements(hex: tuple, pattern: tuple) -> tuple:
    """The six rotations of an area pattern around an attacker in ``hex``."""
    out = []
    for turns in range(6):
        out.append(frozenset((hex[0] + dq, hex[1] + dr) for dq, dr in (hexmap_rotate(c, turns) for c in pattern)))
    return tuple(out)


def _attack_hexes(field: Field, walker: _Mover, enemy: Body, attack: Attack) -> tuple:
    return tuple(sorted(hex for hex in walker.ends if _in_reach(field, hex, enemy.hex, attack)))


def _target_sets(field: Field, hex: tuple, focus: Body, enemies: tuple, attack: Attack) -> list:
    """Every best set of targets from ``hex`` that includes the focus (focus first)."""
    hexmap = field.hexmap
    if attack.pattern:
        best: list = []
        best_count = 0
        for cells in _placements(hex, attack.pattern):
            if focus.hex not in cells or not hexmap.line_of_sight(hex, focus.hex):
                continue
            hit = tuple(enemy.id for enemy in enemies
                        if enemy.hex in cells and enemy.id != focus.id and hexmap.line_of_sight(hex, enemy.hex))
            targets = (focus.id,) + hit
            if len(targets) > best_count:
                best, best_count = [targets], len(targets)
            elif len(targets) == best_count and targets not in best:
                best.append(targets)
        return best
    others = [enemy for enemy in enemies if enemy.id != focus.id and _in_reach(field, hex, enemy.hex, attack)]
    others.sort(key=lambda enemy: (_proximity(field, hex, enemy.hex), enemy.order))
    return [(focus.id,) + tuple(enemy.id for enemy in others[: attack.targets - 1])]


def _proximity(field: Field, a: tuple, b: tuple) -> int:
    distance = field.hexmap.range_between(a, b)
    return FAR if distance is None else distance


def _disadvantage(field: Field, hex: tuple, focus: Body, attack: Attack | None, muddled: bool) -> bool:
    if attack is None:
        return False
    ranged = attack.range > 0 and not attack.pattern
    return muddled or (ranged and field.hexmap.are_adjacent(hex, focus.hex))


def _options(field: Field, walker: _Mover, actor: Body, focus: Body, enemies: tuple, attack: Attack | None,
             reach_attack: Attack, attack_hexes: tuple, move: int, muddled: bool) -> list:
    cost = walker.cost
    fewest_negative = min(cost[hex][0] for hex in attack_hexes)
    reach = [hex for hex in sorted(walker.ends) if hex == actor.hex or cost[hex][1] <= move]
    now = [hex for hex in attack_hexes if hex in reach and cost[hex][0] == fewest_negative]
    options = []
    if now:
        # GH-C4: attack the focus with maximum effect (no disadvantage, then most targets), fewest points.
        scored = []
        for hex in now:
            sets = _target_sets(field, hex, focus, enemies, reach_attack)
            count = max(len(targets) for targets in sets)
            scored.append(((_disadvantage(field, hex, focus, attack, muddled), -count, cost[hex][1]), hex, sets))
        best = min(score for score, _, _ in scored)
        for score, hex, sets in scored:
            if score != best:
                continue
            for targets in sets:
                if len(targets) == -score[1]:
                    options.append(Option(focus.id, hex, walker.path(hex) if hex != actor.hex else (),
                                          targets if attack is not None else (), score[0], cost[hex][1], cost[hex][0]))
        return options
    # GH-C4: cannot attack this turn: move along the shortest path toward the nearest attack hexes.
    nearest = min(cost[hex] for hex in attack_hexes)
    goals = tuple(hex for hex in attack_hexes if cost[hex] == nearest)
    left = walker.remaining(goals)
    scored = []
    for hex in reach:
        if hex not in left:
            continue
        scored.append(((cost[hex][0] + left[hex][0], left[hex][1], cost[hex][1]), hex))
    if not scored:
        return [Option(focus.id, actor.hex, (), (), False, 0, 0)]
    best = min(score for score, _ in scored)
    for score, hex in scored:
        if score == best:
            options.append(Option(focus.id, hex, walker.path(hex) if hex != actor.hex else (), (), False,
                                  cost[hex][1], cost[hex][0]))
    return options

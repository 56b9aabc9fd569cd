"""The grid skirmish as a decider: start, decide, evolve, legal (shared/rules/skirmish.md).

Sides are the seats. A side on turn activates one figure (SK-C5); the figure moves (SK-C2, with
SK-1…SK-6 shaping its steps), attacks (SK-C2…SK-C4) and contests doors (SK-10, SK-11), then ends
its actions, and the seat answers the door decisions the end of its turn calls for (SK-7, SK-8)
before play passes on. Dice are d20s from the ``rng`` handed to ``decide``, written into events.
"""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import Flow, GameStarted, Guards, RulesVersionChanged, SecretRevealed, over_flag
from events.games.skirmish import board as boards
from events.games.skirmish.model import (
    Activate,
    Activation,
    ActivationEnded,
    Attack,
    AttackRolled,
    ContestDoor,
    DecideDoor,
    Door,
    DoorContested,
    DoorDecided,
    DoorDecisionsDue,
    DoorHolderDefeated,
    DoorReleased,
    DoorTaken,
    EndActivation,
    Figure,
    FigureActivated,
    FigureDefeated,
    FigureMoved,
    GameEnded,
    Move,
    RoundEnded,
    State,
)
from events.geometry.squares import (
    square_adjacent,
    square_costs,
    square_cover,
    square_cut_point,
    square_edge_name,
    square_edge_points,
    square_edges_at,
    square_first_blocking_edge,
    square_inside,
    square_is_diagonal,
    square_line_of_sight,
    square_name,
    square_step_block,
    square_step_cost,
)
from events.lookup import by_id
from events.rules import Phrase, Rejection, named, phrase, refuse
from events.upgrade import RulesVersionAnswered, RulesVersionProposed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted. skirmish-2 (issue 15): ``D`` edges side by side on one line are
#: one door, and labels name doors. A game started under skirmish-1 keeps its doors as that
#: version read them (every ``D`` a door of its own), so its log replays
#: to the same events and state hashes; paths and the refusal order add nothing to a log.
#: skirmish-3 (``decide_3``): a defeated holder only stops holding; its door keeps its state (SK-7).
RULES_VERSION = "skirmish-3"
RULES_VERSION_2 = "skirmish-2"
RULES_VERSION_1 = "skirmish-1"

#: The checks before every decide (events.game.Guards): not started, over, unknown side, not a command (SK-C5).
GUARDS = Guards("SK-C5", no_seat="there is no side '{seat}' in this game (sides: {seats})", keys="reject.skirmish")
COVER_BONUS = 4  # SK-C3
ALLY_BONUS = 4  # SK-11
CONTACT_BONUS = 2  # SK-10, per other figure of the roller's side in contact


# --- start -------------------------------------------------------------------------------------------


def start(scenario: dict, commitment: str) -> list:
    """The first event: the scenario validated (raises ScenarioError) and recorded whole."""
    setup = boards.load_scenario(scenario)
    return [GameStarted("skirmish", RULES_VERSION, commitment, setup.sides, canonical_json(scenario))]


def start_1(scenario: dict, seed: int) -> list:
    """``start`` of rules version skirmish-1: its maps have no labels, and each ``D`` is a door."""
    setup = boards.load_scenario(scenario, wide_doors=False)
    return [GameStarted("skirmish", RULES_VERSION_1, seed, setup.sides, canonical_json(scenario))]


def initial_state(event: GameStarted) -> State:
    """Figures where the scenario puts them; every door closed and held by nobody (SK-7)."""
    import json

    setup = boards.load_scenario(json.loads(event.scenario), wide_doors=event.rules_version != RULES_VERSION_1)
    doors = tuple(Door(entry[0], entry[1], False, None) for entry in setup.grid.doors)
    return State(setup.title, setup.grid, setup.sides, setup.figures, doors, 1, setup.rounds, setup.first, (),
                 None, False, None)


# --- questions about a state -------------------------------------------------------------------------


def figure(state: State, figure_id: Any) -> Figure | None:
    return by_id(state.figures, figure_id)


def door(state: State, door_id: Any) -> Door | None:
    return by_id(state.doors, door_id)


def door_edges(state: State, item: Door) -> tuple:
    """Every edge of a door, in reading order: the door is one piece (SK-6…SK-11)."""
    return next(entry[1:] for entry in state.grid.doors if entry[0] == item.id)


def blocked_edges(state: State) -> set:
    """Walls (SK-1) and every edge of each closed door, which counts as a wall (SK-6)."""
    edges = set(state.grid.walls)
    for item in state.doors:
        if not item.open:
            edges.update(door_edges(state, item))
    return edges


MEMO_LIMIT = 20_000  # answers kept per grid before the memo starts afresh


def line_of_sight(state: State, a: tuple, b: tuple) -> bool:
    """``square_line_of_sight`` with the walls and closed doors of ``state`` (SK-1, SK-6, SK-C3),
    remembered in the grid's memo under the set of closed doors (it is symmetric)."""
    memo = getattr(state.grid, "_memo", None)
    if memo is None or len(memo) > MEMO_LIMIT:
        memo = {}
        object.__setattr__(state.grid, "_memo", memo)
    closed = tuple(item.id for item in state.doors if not item.open)
    key = (closed, a, b) if a <= b else (closed, b, a)
    seen = memo.get(key)
    if seen is None:
        seen = square_line_of_sight(a, b, blocked_edges(state))
        memo[key] = seen
    return seen


def edge_label(state: State, edge: tuple) -> str:
    """``the wall C2|D2`` or ``the closed door door1 (C2|D2)``."""
    return _edge(state, edge).text


def _edge(state: State, edge: tuple) -> Phrase:
    """``edge_label`` as a message (in a reason, said in the reader's language)."""
    for item in state.doors:
        if edge in door_edges(state, item):
            return phrase("reject.skirmish.door_edge", "the closed door {door} ({edges})", door=item.id,
                          edges=square_edge_name(edge))
    return phrase("reject.skirmish.wall_edge", "the wall {edges}", edges=square_edge_name(edge))


def _labels(state: State, edges: list) -> tuple:
    """``_edge`` of each edge, a door named once with the edges of it in the list."""
    out: list = []
    seen: dict = {}
    for edge in edges:
        entry = next((item for item in state.doors if edge in door_edges(state, item)), None)
        if entry is None:
            out.append(_edge(state, edge))
        elif entry.id in seen:
            seen[entry.id].append(square_edge_name(edge))
        else:
            seen[entry.id] = [square_edge_name(edge)]
            out.append(entry.id)
    return tuple(phrase("reject.skirmish.door_edge", "the closed door {door} ({edges})", door=label,
                        edges=tuple(seen[label])) if isinstance(label, str) else label for label in out)


def contact_squares(state: State, edge: tuple) -> tuple:
    """The squares in contact with a door: those touching its edge, ends included (SK-C6)."""
    (ax, ay), (bx, by) = square_edge_points(edge)
    squares = set()
    for px, py in ((ax, ay), (bx, by)):
        for sq in ((px - 1, py - 1), (px, py - 1), (px - 1, py), (px, py)):
            if square_inside(sq, state.grid.width, state.grid.height):
                squares.add(sq)
    return tuple(sorted(squares))


def door_contact(state: State, entry: Door) -> tuple:
    """The squares in contact with a door: those touching any of its edges (SK-C6)."""
    squares = set()
    for edge in door_edges(state, entry):
        squares.update(contact_squares(state, edge))
    return tuple(sorted(squares))


def in_contact(state: State, item: Figure, entry: Door) -> bool:
    """SK-C6: the figure's square touches one of the door's edges, ends included."""
    return item.at is not None and item.at in door_contact(state, entry)


def standing(state: State, side: str | None = None) -> tuple:
    return tuple(item for item in state.figures if item.at is not None and (side is None or item.side == side))


def occupant(state: State, square: tuple) -> Figure | None:
    return by_id(state.figures, square, "at")


def side_of(state: State, seat: str) -> int:
    return state.sides.index(seat) if seat in state.sides else -1


def movement_left(state: State, item: Figure) -> int:
    """What the active figure may still move (SK-C2): up to twice its movement points if it has
    not attacked; after an attack made before any move, its movement points again; else none."""
    active = state.active
    if not active.attacked:
        return 2 * item.speed - active.moved_before
    if active.moved_before == 0:
        return item.speed - active.moved_after
    return 0


def may_attack(state: State, item: Figure) -> bool:
    """SK-C2: one attack per activation, and not after moving more than its movement points."""
    return not state.active.attacked and state.active.moved_before <= item.speed


def destinations(state: State, item: Figure, budget: int | None = None) -> dict:
    """Legal destinations of a figure -> (cost, path): through allies, never into enemies or pits,
    never stopping on another figure, within ``budget`` (default: what it has left)."""
    if budget is None:
        budget = movement_left(state, item)
    grid = state.grid
    enemies = {other.at for other in state.figures if other.at is not None and other.side != item.side}
    pits = set(grid.pits)
    doubled = set(grid.low) | set(grid.difficult)
    reach = square_costs(item.at, grid.width, grid.height, blocked_edges(state), grid.diagonal_cost, doubled,
                         budget, lambda sq: sq not in pits and sq not in enemies)
    taken = {other.at for other in state.figures if other.at is not None}
    return {square: found for square, found in reach.items() if square not in taken}


def path_leg(state: State, item: Figure, start: tuple, goal: tuple) -> tuple:
    """The squares from ``start`` to ``goal`` for a waypoint of a path being planned (issue 15).

    A neighbour is one step as asked, legal or not (the rules judge it when the path is sent);
    a farther square is reached by the cheapest legal way from ``start`` whatever it costs, or,
    with none, by the straight line of steps (diagonal first), so that the illegal step is the
    one refused, with its clause. Never empty unless ``goal`` is ``start``.
    """
    if goal == start:
        return ()
    if max(abs(goal[0] - start[0]), abs(goal[1] - start[1])) == 1:
        return (goal,)
    grid = state.grid
    enemies = {o.at for o in state.figures if o.at is not None and o.side != item.side}
    pits = set(grid.pits)
    big = 4 * grid.diagonal_cost * grid.width * grid.height  # more than any winding way costs
    found = square_costs(start, grid.width, grid.height, blocked_edges(state), grid.diagonal_cost,
                         set(grid.low) | set(grid.difficult), big,
                         lambda sq: sq not in pits and sq not in enemies).get(goal)
    if found is not None:
        return found[1]
    line = []
    x, y = start
    while (x, y) != goal:
        x += (goal[0] > x) - (goal[0] < x)
        y += (goal[1] > y) - (goal[1] < y)
        line.append((x, y))
    return tuple(line)


def path_costs(state: State, start: tuple, path: tuple) -> tuple:
    """The running total of movement points after each step of ``path`` (SK-C2, SK-3, SK-4),
    what a path being planned shows on its squares."""
    grid = state.grid
    doubled = set(grid.low) | set(grid.difficult)
    totals = []
    total = 0
    here = start
    for square in path:
        total += square_step_cost(here, square, grid.diagonal_cost, square in doubled)
        totals.append(total)
        here = square
    return tuple(totals)


def sight(state: State, attacker: tuple, target: tuple) -> tuple:
    """(line of sight, blocking edge or None, cover, corner, screens) between two squares (SK-C3).

    Screens are other figures' squares and low objects, except low objects in the attacker's own
    square or adjacent to it; the figures standing on the two squares never screen.
    """
    blocked = blocked_edges(state)
    if not line_of_sight(state, attacker, target):
        return (False, square_first_blocking_edge(attacker, target, blocked), False, None, ())
    screens = {other.at for other in state.figures if other.at is not None and other.at not in (attacker, target)}
    for square in state.grid.low:
        if square != attacker and not square_adjacent(attacker, square, blocked):
            screens.add(square)
    cover, corner, edges, squares = square_cover(attacker, target, blocked, screens)
    named = tuple(edge_label(state, edge) for edge in edges) + tuple(_screen_label(state, sq) for sq in squares)
    return (True, None, cover, corner, named)


def _screen_label(state: State, square: tuple) -> str:
    item = by_id(state.figures, square, "at")
    parts = []
    if item is not None:
        parts.append(f"{item.name} ({item.id})")
    if square in state.grid.low:
        parts.append("low objects")
    return f"{' and '.join(parts)} at {square_name(square)}"


def current_side(state: State) -> str:
    return state.sides[state.turn]


def turn(state: Any) -> tuple:
    """The seats that may act now: the side on turn."""
    if state is None or state.over:
        return ()
    return (current_side(state),)


def seats(state: Any) -> tuple:
    return () if state is None else state.sides


#: Over once GameEnded set the state's ``over`` flag (events.game.over_flag).
is_over = over_flag


def legal(state: Any, seat: str) -> list:
    """Every command ``decide`` accepts from ``seat`` now (for hints, bots and fuzzing)."""
    if seat not in turn(state):
        return []
    active = state.active
    if active is None:
        done = set(state.activated)
        return [Activate(item.id) for item in standing(state, seat) if item.id not in done]
    item = by_id(state.figures, active.figure)
    if active.pending:
        return [DecideDoor(item.id, door_id, choice) for door_id in active.pending for choice in (True, False)]
    out: list = [Move(item.id, square) for square in sorted(destinations(state, item))]
    if may_attack(state, item):
        for other in standing(state):
            if other.side != item.side and _attack_problem(state, item, other) is None:
                out.append(Attack(item.id, other.id))
    for entry in state.doors:
        if _contest_problem(state, item, entry, not entry.open) is None:
            out.append(ContestDoor(item.id, entry.id, not entry.open))
    out.append(EndActivation(item.id))
    return out


# --- decide ------------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """``decide`` of skirmish-1 and skirmish-2: a defeated holder's door closes at once (SK-9, as they read it)."""
    return _decide(state, seat, command, rng, 2)


def decide_3(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """``decide`` of skirmish-3: a defeated holder only stops holding, and its door keeps its state
    (SK-7); the next contest for it is taken without a roll (SK-C4), and a figure ending its turn
    in contact with it decides it as a door nobody holds (SK-7)."""
    return _decide(state, seat, command, rng, 3)


def _decide(state: Any, seat: str, command: Any, rng: Any, edition: int) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it (``edition``: 2 for
    skirmish-1 and skirmish-2, 3 for skirmish-3).

    Refusal order (issue 15): what the rules forbid comes before whose turn it is. A command of a
    figure that may not act now (another side's turn, another figure acting, none activated) is
    first decided as if that figure's activation had just begun; if a rule refuses it then (a pit,
    a wall, no line of sight, no contact with the door…), that rule is cited, and "not your turn"
    (SK-C5) only when nothing else forbids it.
    """
    active = state.active
    if isinstance(command, Move) and command.figure is None:  # the figure acting now
        if seat != current_side(state):
            return _not_your_turn(state, seat)
        if active is None:
            return refuse("SK-C5", "reject.skirmish.none_acting",
                          "no figure is acting: activate one of {seat}'s figures first", seat=seat)
        command = Move(active.figure, command.to, command.path)
    item = by_id(state.figures, command.figure)
    if item is None:
        return refuse("SK-C1", "reject.skirmish.no_figure", "there is no figure {figure}",
                      figure=_shown(command.figure))
    if item.side != seat:
        return refuse("SK-C5", "reject.skirmish.not_yours", "{who} is a {figure_seat} figure, not one of {seat}'s",
                      who=_named(item), figure_seat=item.side, seat=seat)
    if item.at is None:
        return refuse("SK-C2", "reject.skirmish.defeated", "{who} is defeated", who=_named(item))
    turn_problem = _turn_problem(state, seat, item, command)
    if turn_problem is not None:
        return _forbidden_anyway(state, seat, item, command) or turn_problem
    if isinstance(command, Activate):
        return [FigureActivated(item.id, item.side, state.round)]
    if isinstance(command, DecideDoor):
        return _decide_door(state, item, command)
    if active.pending:
        return refuse("SK-7", "reject.skirmish.decide_doors_first",
                      "{name}'s actions are over: decide {doors} first (open or closed)", name=item.name,
                      doors=tuple(phrase("reject.skirmish.door_name", "door {door}", door=_door_label(door_id))
                                  for door_id in active.pending))
    if isinstance(command, Move):
        return _move(state, item, command.to, command.path)
    if isinstance(command, Attack):
        return _attack_refusal(state, item, command.target) or _attack(state, item, command.target, rng, edition)
    if isinstance(command, ContestDoor):
        return _contest_refusal(state, item, command) or _contest(state, item, command, rng)
    return _end_actions(state, item, edition)


def _not_your_turn(state: State, seat: str) -> Rejection:
    return refuse("SK-C5", "reject.skirmish.turn", "it is {seat}'s turn, not {other_seat}'s",
                  seat=current_side(state), other_seat=seat)


def _turn_problem(state: State, seat: str, item: Figure, command: Any) -> Rejection | None:
    """Whose turn it is (SK-C5): the side on turn, and the figure acting (or none, to activate)."""
    if seat != current_side(state):
        return _not_your_turn(state, seat)
    active = state.active
    if isinstance(command, Activate):
        if active is not None:
            return refuse("SK-C5", "reject.skirmish.other_acting", "{who} is acting: its activation must end first",
                          who=_who(state, active.figure))
        if item.id in state.activated:
            return _activated(state, item)
        return None
    if active is None:
        return refuse("SK-C5", "reject.skirmish.none_acting",
                      "no figure is acting: activate one of {seat}'s figures first", seat=seat)
    if active.figure != item.id:
        return refuse("SK-C5", "reject.skirmish.acting_not", "{who} is acting, not {other}",
                      who=_who(state, active.figure), other=_named(item))
    return None


def _forbidden_anyway(state: State, seat: str, item: Figure, command: Any) -> Rejection | None:
    """What a rule says of the command if ``item``'s activation had just begun (no dice rolled).

    Asked of a move, an attack, a door contest, and of an activation (a figure activates once a
    round, SK-C5); ending an activation and door decisions are matters of turn order only."""
    if isinstance(command, Activate):
        if item.id in state.activated:
            return _activated(state, item)
        return None
    if not isinstance(command, (Move, Attack, ContestDoor)):
        return None
    fresh = state.but(turn=side_of(state, seat), active=Activation(item.id, 0, 0, False, (), ()))
    if isinstance(command, Move):
        result = _move(fresh, item, command.to, command.path)
        return result if isinstance(result, Rejection) else None
    if isinstance(command, Attack):
        return _attack_refusal(fresh, item, command.target)
    return _contest_refusal(fresh, item, command)


def _activated(state: State, item: Figure) -> Rejection:
    return refuse("SK-C5", "reject.skirmish.activated", "{who} has already activated in round {round}",
                  who=_named(item), round=state.round)


def _who(state: State, figure_id: str) -> Phrase | str:
    item = by_id(state.figures, figure_id)
    return _named(item) if item is not None else figure_id


def _named(item: Figure) -> Phrase:
    """A figure in a reason: its name in the reader's language, as the log says it (issue 17: never its id)."""
    return phrase("reject.skirmish.figure", "{name}", name=named(item.name, item.name))


# --- moving ------------------------------------------------------------------------------------------


def _move(state: State, item: Figure, to: tuple, path: tuple | None = None) -> list | Rejection:
    if path is not None:
        return _walk(state, item, to, path)
    options = destinations(state, item)
    if to in options:
        cost, path = options[to]
        return [_moved_along(state, item, to, path, cost, False)]
    return _why_not(state, item, to)


def _moved_along(state: State, item: Figure, to: tuple, path: tuple, cost: int, chosen: bool) -> FigureMoved:
    doubling = set(state.grid.low) | set(state.grid.difficult)
    allies = {other.at for other in state.figures if other.at is not None and other.id != item.id}
    return FigureMoved(item.id, item.at, to, path, cost, tuple(sq for sq in path if sq in doubling),
                       tuple(sq for sq in path[:-1] if sq in allies), chosen)


def _shown(value: Any) -> str:
    """A value from a command, as a message quotes it (a hostile one is cut short)."""
    text = repr(list(value) if isinstance(value, tuple) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def _walk(state: State, item: Figure, to: tuple, path: tuple) -> list | Rejection:
    """A Move along the path its side chose (SK-C2): every step checked in order, and the first
    illegal one refused with its clause and the step (Move.KINDS makes every entry a square [x, y]);
    a path cannot be longer than the points left (each step costs at least 1), so the step where
    the points run out is refused (SK-C2) however long the path is."""
    grid = state.grid
    who = _named(item)
    if not path:
        return refuse("SK-C1", "reject.skirmish.empty_path",
                      "a Move's path is a list of the squares entered, [[x, y], ...], at least one, got []")
    if path[-1] != to:
        return refuse("SK-C2", "reject.skirmish.path_end", "the path ends on {end}, not on {square}, where the "
                      "Move goes", end=_place(grid, path[-1]), square=_place(grid, to))
    budget = movement_left(state, item)
    blocked = blocked_edges(state)
    walls = set(grid.walls)
    doubling = set(grid.low) | set(grid.difficult)
    cost = 0
    here = item.at
    for index, square in enumerate(path):
        step = phrase("reject.skirmish.step", "step {number}, {start}→{square}", number=index + 1,
                      start=square_name(here), square=_place(grid, square))
        if not square_inside(square, grid.width, grid.height):
            return refuse("SK-C1", "reject.skirmish.step_off_map", "{step}: {square} is off the {width} × {height} map",
                          step=step, square=str(list(square)), width=grid.width, height=grid.height)
        if max(abs(here[0] - square[0]), abs(here[1] - square[1])) != 1:
            return refuse("SK-C2", "reject.skirmish.step_not_neighbour",
                          "{step}: a step goes to one of the 8 neighbouring squares", step=step)
        block = square_step_block(here, square, blocked)
        if block is not None and block[0] == "corner":
            return refuse("SK-2", "reject.skirmish.step_corner",
                          "{step}: the diagonal step cuts the corner point ({x}, {y}), which {what} touches", step=step,
                          x=block[1][0], y=block[1][1], what=_labels(state, square_edges_at(block[1], blocked)))
        if block is not None:
            clause = "SK-1" if block[1] in walls else "SK-6"
            return refuse(clause, "reject.skirmish.step_crosses", "{step}: crosses {edge}: {stop}", step=step,
                          edge=_edge(state, block[1]), stop=phrase(*STOPS[clause]))
        if square in grid.pits:
            return refuse("SK-5", "reject.skirmish.step_pit", "{step}: {square} is a pit: no figure may enter it",
                          step=step, square=square_name(square))
        other = by_id(state.figures, square, "at")
        if other is not None and other.id != item.id and other.side != item.side:
            return refuse("SK-C2", "reject.skirmish.step_enemy",
                          "{step}: {square} holds the enemy {who}: no figure enters an enemy's square", step=step,
                          square=square_name(square), who=_named(other))
        price = square_step_cost(here, square, grid.diagonal_cost, square in doubling)
        cost += price
        if cost > budget:
            if square in doubling and cost - price // 2 <= budget:
                clause = "SK-3" if square in grid.low else "SK-4"
                return refuse(clause, "reject.skirmish.step_double", {
                    "one": "{step}: entering {what} costs double ({price}), {cost} in all; {who} has {n} movement "
                           "point left",
                    "other": "{step}: entering {what} costs double ({price}), {cost} in all; {who} has {n} movement "
                             "points left"}, step=step, what=phrase(*DOUBLING[clause]), price=price, cost=cost,
                    who=who, n=budget)
            return refuse("SK-C2", "reject.skirmish.step_cost", {
                "one": "{step}: costs {price}, {cost} in all; {who} has {n} movement point left",
                "other": "{step}: costs {price}, {cost} in all; {who} has {n} movement points left"}, step=step,
                price=price, cost=cost, who=who, n=budget)
        here = square
    if to == item.at:
        return refuse("SK-C2", "reject.skirmish.path_ends_at_start",
                      "the path ends on {square}, where {who} started: a move ends elsewhere", square=square_name(to),
                      who=who)
    other = by_id(state.figures, to, "at")
    if other is not None:
        return _ally_there(square_name(to), other)
    return [_moved_along(state, item, to, path, cost, True)]


def _place(grid: Any, square: tuple) -> str:
    """A square's name, or ``[x, y]`` for one off the map (whose name would mislead)."""
    return square_name(square) if square_inside(square, grid.width, grid.height) else str(list(square))


def _way_round(full: tuple | None, budget: int) -> Phrase | str:
    """`` (the way round costs 7; 4 left)``, when a way round exists (else nothing)."""
    if full is None:
        return ""
    return phrase("reject.skirmish.way_round", " (the way round costs {cost}; {budget} left)", cost=full[0],
                  budget=budget)


#: What doubles a step's cost, and what stops a step (SK-1, SK-3, SK-4, SK-6), in reasons.
DOUBLING = {"SK-3": ("reject.skirmish.low_objects", "low objects"),
            "SK-4": ("reject.skirmish.difficult_terrain", "difficult terrain")}
STOPS = {"SK-1": ("reject.skirmish.wall_stops", "a wall stops movement"),
         "SK-6": ("reject.skirmish.door_is_wall", "a closed door is a wall")}


def _ally_there(name: str, other: Figure) -> Rejection:
    return refuse("SK-C2", "reject.skirmish.ally_there",
                  "{square} holds {who}: a figure may pass through an ally but not stop on it", square=name,
                  who=_named(other))


def _why_not(state: State, item: Figure, to: tuple) -> Rejection:
    """The most specific reason a square is not a legal destination, with its clause.

    First what is at the square (off the map, a pit, a figure), then what the path needs: each
    rule is lifted in turn (the corner rule, closed doors, walls, pits, enemies, double costs) and
    the first whose lifting would let the figure arrive within its points is the one cited.
    """
    grid = state.grid
    name = square_name(to)
    who = _named(item)
    if not square_inside(to, grid.width, grid.height):
        return refuse("SK-C1", "reject.skirmish.off_map", "{square} is off the {width} × {height} map",
                      square=str(list(to)), width=grid.width, height=grid.height)
    if to == item.at:
        return refuse("SK-C2", "reject.skirmish.already_on", "{who} is already on {square}", who=who, square=name)
    if to in grid.pits:
        return refuse("SK-5", "reject.skirmish.pit", "{square} is a pit: no figure may enter it", square=name)
    other = by_id(state.figures, to, "at")
    if other is not None and other.side != item.side:
        return refuse("SK-C2", "reject.skirmish.enemy_there",
                      "{square} holds the enemy {who}: no figure enters an enemy's square", square=name,
                      who=_named(other))
    if other is not None:
        return _ally_there(name, other)
    budget = movement_left(state, item)
    if budget <= 0:
        return refuse("SK-C2", "reject.skirmish.no_points", "{who} has no movement points left this activation",
                      who=who)
    blocked = blocked_edges(state)
    walls = set(grid.walls)
    pits = set(grid.pits)
    enemies = {o.at for o in state.figures if o.at is not None and o.side != item.side}
    doubled = set(grid.low) | set(grid.difficult)

    def reach(edges: set, corner_rule: bool, avoid: set, double: set, limit: int) -> dict:
        return square_costs(item.at, grid.width, grid.height, edges, grid.diagonal_cost, double, limit,
                            lambda sq: sq not in avoid, corner_rule)

    big = 4 * grid.diagonal_cost * (grid.width + grid.height) * 2
    full = reach(blocked, True, pits | enemies, doubled, big).get(to)
    if max(abs(item.at[0] - to[0]), abs(item.at[1] - to[1])) == 1:  # a single step: what stops it
        block = square_step_block(item.at, to, blocked)
        if block is not None and block[0] == "corner":
            return _corner_refusal(state, item, to, blocked, full, budget)
        if block is not None:
            clause = "SK-1" if block[1] in walls else "SK-6"
            return refuse(clause, "reject.skirmish.crosses", "the step {start}→{square} crosses {edge}: {stop}{tail}",
                          start=square_name(item.at), square=name, edge=_edge(state, block[1]),
                          stop=phrase(*STOPS[clause]), tail=_way_round(full, budget))
    start = square_name(item.at)
    if reach(blocked, False, pits | enemies, doubled, budget).get(to) is not None:
        return _corner_refusal(state, item, to, blocked, full, budget)
    if reach(walls, False, pits | enemies, doubled, budget).get(to) is not None:
        return refuse("SK-6", "reject.skirmish.through_door", {
            "one": "every way of at most {n} movement point from {start} to {square} goes through a closed door, and "
                   "a closed door is a wall",
            "other": "every way of at most {n} movement points from {start} to {square} goes through a closed door, "
                     "and a closed door is a wall"}, n=budget, start=start, square=name)
    if reach(set(), False, pits | enemies, doubled, budget).get(to) is not None:
        return refuse("SK-1", "reject.skirmish.walls_between", {
            "one": "walls stand between {start} and {square}: no way of at most {n} movement point goes round them",
            "other": "walls stand between {start} and {square}: no way of at most {n} movement points goes round "
                     "them"}, start=start, square=name, n=budget)
    if reach(set(), False, enemies, doubled, budget).get(to) is not None:
        return refuse("SK-5", "reject.skirmish.pits_between", {
            "one": "pits lie between {start} and {square}: no way of at most {n} movement point goes round them (a "
                   "pit blocks movement, not sight)",
            "other": "pits lie between {start} and {square}: no way of at most {n} movement points goes round them "
                     "(a pit blocks movement, not sight)"}, start=start, square=name, n=budget)
    if reach(set(), False, set(), doubled, budget).get(to) is not None:
        return refuse("SK-C2", "reject.skirmish.enemies_bar", {
            "one": "enemies bar every way of at most {n} movement point to {square}",
            "other": "enemies bar every way of at most {n} movement points to {square}"}, n=budget, square=name)
    if full is not None:
        cost, path = full
        plain = reach(blocked, True, pits | enemies, set(), budget).get(to)
        if plain is not None:
            clause = "SK-3" if any(sq in grid.low for sq in path) else "SK-4"
            return refuse(clause, "reject.skirmish.costs_double", "{square} costs {cost} movement points: entering "
                          "{what} costs double; {who} has {budget} left", square=name, cost=cost,
                          what=phrase(*DOUBLING[clause]), who=who, budget=budget)
        return refuse("SK-C2", "reject.skirmish.costs", "{square} costs {cost} movement points from {start}; {who} "
                      "has {budget} left", square=name, cost=cost, start=start, who=who, budget=budget)
    return refuse("SK-C2", "reject.skirmish.no_way", "no way leads from {start} to {square}", start=start, square=name)


def _corner_refusal(state: State, item: Figure, to: tuple, blocked: set, full: tuple | None, budget: int) -> Rejection:
    start = item.at
    if max(abs(start[0] - to[0]), abs(start[1] - to[1])) == 1 and square_is_diagonal(start, to):
        block = square_step_block(start, to, blocked)
        if block is not None:
            point = square_cut_point(start, to)
            return refuse("SK-2", "reject.skirmish.corner_step", "the diagonal step {start}→{square} cuts the corner "
                          "point ({x}, {y}), which {what} touches{tail}", start=square_name(start),
                          square=square_name(to), x=point[0], y=point[1],
                          what=_labels(state, square_edges_at(point, blocked)), tail=_way_round(full, budget))
    tail = "" if full is None else phrase("reject.skirmish.way_round_costs", "; the way round costs {cost}",
                                          cost=full[0])
    return refuse("SK-2", "reject.skirmish.corner_way", {
        "one": "every way of at most {n} movement point from {start} to {square} cuts a corner past a wall or closed "
               "door{tail}",
        "other": "every way of at most {n} movement points from {start} to {square} cuts a corner past a wall or "
                 "closed door{tail}"}, n=budget, start=square_name(start), square=square_name(to), tail=tail)


# --- attacking ---------------------------------------------------------------------------------------


def _attack_problem(state: State, item: Figure, target: Figure) -> Rejection | None:
    if target.side == item.side:
        return refuse("SK-C2", "reject.skirmish.same_side", "{who} is on {name}'s side", who=_named(target),
                      name=item.name)
    blocked = blocked_edges(state)
    if item.melee and not square_adjacent(item.at, target.at, blocked):
        return refuse("SK-C2", "reject.skirmish.melee", "{who} fights in melee only, and {name} at {square} is not "
                      "adjacent to {start}", who=_named(item), name=target.name, square=square_name(target.at),
                      start=square_name(item.at))
    if not line_of_sight(state, item.at, target.at):
        edge = square_first_blocking_edge(item.at, target.at, blocked)
        where = "" if edge is None else phrase("reject.skirmish.centres_meet",
                                               " (the line between the centres meets {edge})", edge=_edge(state, edge))
        return refuse("SK-C3", "reject.skirmish.no_sight", "no line of sight from {start} to {name} at {square}: "
                      "every line crosses or touches a wall or closed door{where}", start=square_name(item.at),
                      name=target.name, square=square_name(target.at), where=where)
    return None


def _attack_refusal(state: State, item: Figure, target_id: Any) -> Rejection | None:
    """Why ``item`` may not attack ``target_id`` now, or None (SK-C2, SK-C3)."""
    if state.active.attacked:
        return refuse("SK-C2", "reject.skirmish.attacked", "{who} has already attacked this activation",
                      who=_named(item))
    if state.active.moved_before > item.speed:
        return refuse("SK-C2", "reject.skirmish.moved_too_far", "{who} moved {moved} movement points, more than its "
                      "{speed}: no attack after that", who=_named(item), moved=state.active.moved_before,
                      speed=item.speed)
    target = by_id(state.figures, target_id)
    if target is None:
        return refuse("SK-C1", "reject.skirmish.no_figure", "there is no figure {figure}", figure=_shown(target_id))
    if target.at is None:
        return refuse("SK-C2", "reject.skirmish.already_defeated", "{who} is already defeated", who=_named(target))
    return _attack_problem(state, item, target)


def _attack(state: State, item: Figure, target_id: str, rng: Any, edition: int) -> list:
    """The attack roll of an attack ``_attack_refusal`` allows (SK-C2, SK-C3, SK-C4).

    A defeated holder's doors: under skirmish-1 and skirmish-2 each closes at once (``DoorReleased``,
    SK-9 as they read it); under skirmish-3 the holder only stops holding and each door keeps its
    state (``DoorHolderDefeated``, SK-7: nothing of SK-8…SK-11 happened to it). The door's record
    keeps the fallen figure as its holder, which no longer stands: SK-C4 reads it as a holder no
    longer in contact, and SK-7 lets a figure ending its turn in contact decide it (``_end_actions``)."""
    target = by_id(state.figures, target_id)
    _los, _edge, cover, corner, screens = sight(state, item.at, target.at)
    defense = target.defense + (COVER_BONUS if cover else 0)
    roll = rng.roll(20)
    critical = roll == 20
    total = roll + item.attack
    hit = critical or total >= defense
    damage = (item.damage * (2 if critical else 1)) if hit else 0
    events: list = [AttackRolled(item.id, target.id, roll, item.attack, total, defense, cover,
                                 corner if cover else None, screens if cover else (), critical, hit, damage)]
    if hit and damage >= target.hp:
        events.append(FigureDefeated(target.id, target.at))
        for entry in state.doors:
            if entry.holder == target.id and edition >= 3:
                events.append(DoorHolderDefeated(entry.id, target.id, entry.open))
            elif entry.holder == target.id:
                events.append(DoorReleased(entry.id, target.id, entry.open))
        if not any(other.id != target.id for other in standing(state, target.side)):
            events.append(GameEnded(item.side, f"{target.side} has no figure left"))
    return events


# --- doors -------------------------------------------------------------------------------------------


def _door_label(door_id: str) -> str:
    """A door in a reason as the log says it (words.door): ``door1`` is door "1" (issue 17: never its id)."""
    return door_id[4:] if door_id.startswith("door") and door_id[4:].isdigit() else door_id


def _contest_problem(state: State, item: Figure, entry: Door, want_open: bool) -> Rejection | None:
    clause = "SK-11" if entry.holder is not None and _side(state, entry.holder) == item.side else "SK-10"
    if not in_contact(state, item, entry):  # what "in contact" means is SK-C6's: the door's edge, ends included
        return refuse("SK-C6", "reject.skirmish.no_contact", "{name} at {square} is not in contact with door {door} "
                      "(in contact: {squares})", name=item.name, square=square_name(item.at),
                      door=_door_label(entry.id),
                      squares=tuple(square_name(sq) for sq in door_contact(state, entry)))
    if entry.holder is None:
        return refuse("SK-7", "reject.skirmish.nobody_holds",
                      "nobody holds door {door}: it is decided by a figure ending its turn in contact with it",
                      door=_door_label(entry.id))
    if entry.holder == item.id:
        return refuse("SK-8", "reject.skirmish.holds", "{name} holds door {door}: it decides at the end of its "
                      "activation", name=item.name, door=_door_label(entry.id))
    if entry.open == want_open:
        if want_open:
            return refuse(clause, "reject.skirmish.already_open", "door {door} is already open",
                          door=_door_label(entry.id))
        return refuse(clause, "reject.skirmish.already_closed", "door {door} is already closed",
                      door=_door_label(entry.id))
    if entry.id in state.active.contested:
        return refuse("SK-10", "reject.skirmish.contested", "{name} has already contested door {door} this "
                      "activation", name=item.name, door=_door_label(entry.id))
    return None


def _fallen(state: State, entry: Door) -> bool:
    """The door's holder is defeated (skirmish-3 keeps it as the door's last holder, SK-7, SK-C4)."""
    holder = by_id(state.figures, entry.holder) if entry.holder is not None else None
    return holder is not None and holder.at is None


def _side(state: State, figure_id: str) -> str | None:
    item = by_id(state.figures, figure_id)
    return item.side if item is not None else None


def _contest_refusal(state: State, item: Figure, command: ContestDoor) -> Rejection | None:
    """Why ``item`` may not contest the door now, or None (SK-6, SK-7, SK-8, SK-10, SK-11)."""
    entry = by_id(state.doors, command.door)
    if entry is None:
        if not state.doors:
            return refuse("SK-6", "reject.skirmish.no_doors", "there is no door {door} (doors: none)",
                          door=_shown(command.door))
        return refuse("SK-6", "reject.skirmish.no_door", "there is no door {door} (doors: {doors})",
                      door=_shown(command.door), doors=tuple(d.id for d in state.doors))
    return _contest_problem(state, item, entry, command.open)


def _contest(state: State, item: Figure, command: ContestDoor, rng: Any) -> list:
    """The opposed roll (or SK-C4's taking) of a contest ``_contest_refusal`` allows."""
    entry = by_id(state.doors, command.door)
    holder = by_id(state.figures, entry.holder)
    if not in_contact(state, holder, entry):  # SK-C4: no roll
        return [DoorTaken(entry.id, item.id, holder.id, command.open)]
    ally = holder.side == item.side
    in_touch = [other for other in standing(state) if in_contact(state, other, entry)]
    figure_bonus = CONTACT_BONUS * sum(1 for o in in_touch if o.side == item.side and o.id != item.id)
    holder_bonus = CONTACT_BONUS * sum(1 for o in in_touch if o.side == holder.side and o.id != holder.id)
    if ally:
        figure_bonus += ALLY_BONUS
    throws = []
    while True:
        mine, theirs = rng.roll(20), rng.roll(20)
        my_total = mine + item.attack + figure_bonus
        their_total = theirs + holder.attack + holder_bonus
        throws.append((mine, my_total, theirs, their_total))
        if mine == 20 and theirs == 20:
            continue
        if mine == 20 or theirs == 20:
            won = mine == 20
            break
        if my_total != their_total:
            won = my_total > their_total
            break
    winner = item.id if won else holder.id
    return [DoorContested(entry.id, item.id, holder.id, command.open, item.attack, figure_bonus, holder.attack,
                          holder_bonus, tuple(throws), winner, command.open if won else entry.open,
                          "SK-11" if ally else "SK-10")]


def _end_actions(state: State, item: Figure, edition: int = 2) -> list:
    """SK-9 for the doors it holds and has left; then the decisions SK-7/SK-8 call for, if any.

    Under skirmish-3 a door whose holder was defeated is held by nobody who stands: a figure ending
    its turn in contact decides it as SK-7 decides a door nobody holds (no roll; it then holds it).

    A door the figure won (or took) by a contest during this activation is left as won: the
    holder's decision comes at the end of its next activation (SK-8), so a winner that walks away
    leaves a held door with nobody in contact, which SK-C4's contest without a roll is about.
    """
    events: list = []
    due = []
    for entry in state.doors:
        if entry.holder == item.id and entry.id in state.active.contested:
            continue  # won this activation: its "next activation" is the following one (SK-8, SK-C4)
        touching = in_contact(state, item, entry)
        if entry.holder == item.id and not touching:
            events.append(DoorReleased(entry.id, item.id, entry.open))
        elif touching and (entry.holder in (None, item.id) or (edition >= 3 and _fallen(state, entry))):
            due.append(entry.id)
    if due:
        return events + [DoorDecisionsDue(item.id, tuple(due))]
    flow = Flow(state, evolve)
    flow.emit(*events)
    flow.emit(*_finish(flow.state, item))
    return flow


def _decide_door(state: State, item: Figure, command: DecideDoor) -> list | Rejection:
    pending = state.active.pending
    if command.door not in pending:
        if not pending:
            return refuse("SK-7", "reject.skirmish.nothing_to_decide",
                          "{name} has no door to decide: door decisions come at the end of its actions", name=item.name)
        return refuse("SK-7", "reject.skirmish.not_pending", "'{door}' is not among the doors {name} must decide "
                      "({doors})", door=command.door, name=item.name, doors=pending)
    entry = by_id(state.doors, command.door)
    rule = "SK-8" if entry.holder == item.id else "SK-7"
    event = DoorDecided(entry.id, item.id, command.open, entry.open, rule)
    if len(pending) > 1:
        return [event]
    flow = Flow(state, evolve)
    flow.emit(event)
    flow.emit(*_finish(flow.state, item))
    return flow


def _finish(state: State, item: Figure) -> list:
    """SK-C5: the activation ends; the other side goes next if it has a figure left to activate,
    else this side again; when nobody has, the round ends (and after the last, the game)."""
    done = set(state.activated) | {item.id}
    mine = side_of(state, item.side)
    other = 1 - mine
    waiting = [any(f.id not in done for f in standing(state, side)) for side in state.sides]
    if waiting[other]:
        return [ActivationEnded(item.id, state.sides[other])]
    if waiting[mine]:
        return [ActivationEnded(item.id, state.sides[mine])]
    opener = state.sides[other] if standing(state, state.sides[other]) else state.sides[mine]
    events: list = [ActivationEnded(item.id, opener), RoundEnded(state.round, opener)]
    if state.round >= state.rounds:
        events.append(GameEnded(None, f"all {state.rounds} rounds are played and both sides still stand"))
    return events


# --- evolve ------------------------------------------------------------------------------------------


def _with_figure(s: State, figure_id: str, **changes: Any) -> tuple:
    """``s.figures`` with one figure's fields changed."""
    return _with_one(s.figures, figure_id, changes)


def _with_door(s: State, door_id: str, **changes: Any) -> tuple:
    """``s.doors`` with one door's fields changed."""
    return _with_one(s.doors, door_id, changes)


def _with_one(items: tuple, item_id: str, changes: dict) -> tuple:
    """``items`` with the one whose ``id`` is ``item_id`` copied with ``changes``: the scan stops
    there and the rest is sliced, not rebuilt item by item (issue 13: a fold no slower than before
    ``Record.but``); the loop ends by a return, so Brython raises no StopIteration."""
    index = 0
    for item in items:
        if item.id == item_id:
            return items[:index] + (item.but(**changes),) + items[index + 1:]
        index += 1
    return items


def _figure_moved(s: State, event: FigureMoved) -> State:
    """SK-C2: the figure at ``event.to``, its points spent before or after its attack."""
    a = s.active
    if a.attacked:
        active = a.but(moved_after=a.moved_after + event.cost)
    else:
        active = a.but(moved_before=a.moved_before + event.cost)
    return s.but(figures=_with_figure(s, event.figure, at=event.to), active=active)


def evolve(state: Any, event: Any) -> State:
    """One event folded into a new state; the input is never touched."""
    s = state
    # The commonest events first, their fields read by name: a class pattern tests the classes in
    # order and reads every positional field it lists, ``_`` too (issue 13: the fold no slower
    # than before ``Record.but``; docs/performance.md).
    match event:
        case FigureMoved():
            return _figure_moved(s, event)
        case FigureActivated():
            return s.but(active=Activation(event.figure, 0, 0, False, (), ()))
        case ActivationEnded(figure_id, next_side):
            return s.but(turn=s.sides.index(next_side), activated=s.activated + (figure_id,), active=None)
        case RoundEnded(number, next_side):
            return s.but(round=number + 1, turn=s.sides.index(next_side), activated=(), active=None)
        case AttackRolled():
            hp = max(0, by_id(s.figures, event.target).hp - event.damage)
            return s.but(figures=_with_figure(s, event.target, hp=hp), active=s.active.but(attacked=True))
        case GameStarted():
            return initial_state(event)
        case FigureDefeated(figure_id, _at):
            return s.but(figures=_with_figure(s, figure_id, hp=0, at=None))
        case DoorContested(door_id, _figure, _holder, _want, _fa, _fb, _ha, _hb, _throws, winner, is_open, _rule):
            return s.but(doors=_with_door(s, door_id, open=is_open, holder=winner),
                         active=s.active.but(contested=s.active.contested + (door_id,)))
        case DoorTaken(door_id, figure_id, _holder, is_open):
            return s.but(doors=_with_door(s, door_id, open=is_open, holder=figure_id),
                         active=s.active.but(contested=s.active.contested + (door_id,)))
        case DoorDecisionsDue(_figure, doors):
            return s.but(active=s.active.but(pending=doors))
        case DoorDecided(door_id, figure_id, is_open, _was, _rule):
            pending = tuple(d for d in s.active.pending if d != door_id)
            return s.but(doors=_with_door(s, door_id, open=is_open, holder=figure_id),
                         active=s.active.but(pending=pending))
        case DoorReleased(door_id, _figure, _was_open):
            return s.but(doors=_with_door(s, door_id, open=False, holder=None))
        case DoorHolderDefeated():
            return s  # SK-7: the door keeps its state; its fallen holder no longer stands (FigureDefeated)
        case GameEnded(winner, _reason):
            return s.but(over=True, winner=winner)
        case SecretRevealed():
            return s  # CORE-2: the core's own event, after the last command; it changes no state
        case RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return s  # CORE-3, CORE-10, CORE-11: the core's own events; they change rules, not state
    raise TypeError(f"skirmish cannot fold an event of type {type(event).__name__}")

"""Expeditions' Move action as a decider: start, decide, evolve, legal (shared/rules/mecha.md)."""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import Flow, GameStarted, Guards, RulesVersionChanged, SecretRevealed, over_flag
from events.games.mecha import board as boards
from events.games.mecha.model import (
    BagRanOut,
    CorruptionDrawn,
    CorruptionPlaced,
    GameEnded,
    LocationRevealed,
    MechMoved,
    MechStayed,
    Move,
    Pass,
    PlanTokenGained,
    State,
    TurnEnded,
    TurnPassed,
)
from events.geometry.graph import graph_within
from events.lookup import by_id
from events.rules import Phrase, Rejection, phrase, refuse
from events.upgrade import RulesVersionAnswered, RulesVersionProposed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted. mecha-2: GameEnded tallies include the last command's own
#: reveal, a value-20 token never comes out of the bag, a non-integer destination is refused.
RULES_VERSION = "mecha-2"

#: The checks before every decide (events.game.Guards): not started, over, unknown seat (MV-C3).
GUARDS = Guards("MV-C3", over="the game is over: all {rounds} rounds are played", keys="reject.mecha")


# --- start -----------------------------------------------------------------------------------------


def start(scenario: dict, commitment: str) -> list:
    """The first event: the scenario validated (raises ScenarioError) and recorded whole."""
    setup = boards.load_scenario(scenario)
    seats = tuple(seat.seat for seat in setup.seats)
    return [GameStarted("mecha", RULES_VERSION, commitment, seats, canonical_json(scenario))]


def initial_state(event: GameStarted) -> State:
    """The state a GameStarted describes: Mechas in the Camp (MV-2), the 20-token set aside (MV-C2).

    The value-20 token is set aside whether or not the board has a Location 20: the digest's
    MV-C2 sets it aside "for Location 20", so no draw (MV-6c) can ever produce it.
    """
    import json

    setup = boards.load_scenario(json.loads(event.scenario))
    bag = setup.bag
    token_20 = _token_20(bag)
    if token_20 is not None:
        bag = _take(bag, token_20)
    return State(
        setup.title, setup.board, setup.seats, setup.starts,
        tuple(location.number for location in setup.board.locations if location.face_up),
        tuple(location.number for location in setup.board.locations if location.map_token),
        (), bag, token_20, tuple(() for _ in setup.seats), tuple(() for _ in setup.seats), 0, 1, setup.rounds, False,
    )


def _token_20(bag: tuple) -> tuple | None:
    """The one value-20 token (``load_bag`` refuses a second), or None if the bag has none."""
    for value, colour, _count in bag:
        if value == 20:
            return (value, colour)
    return None


# --- questions about a state -----------------------------------------------------------------------


def seat_index(state: State, seat: str) -> int:
    for index, item in enumerate(state.seats):
        if item.seat == seat:
            return index
    return -1


def destinations(state: State, index: int) -> dict:
    """Every valid destination of seat ``index``'s Mecha -> its shortest legal path (MV-1…MV-6).

    Range counts the shortest legal route (MV-3, MV-C4): with Range 2–3 an adjacent Location is
    one step away even if a detour of two exists. Occupied Locations are passed and counted
    (MV-4), a face-down one is entered but never left (MV-6), and the Camp is only ever a start
    whose three exits are the first steps (MV-2).
    """
    seat = state.seats[index]
    here = state.positions[index]
    occupied = {position for position in state.positions if position is not None}
    # MV-2: the Camp only leads out; MV-6: a face-down Location ends the move (remembered per board)
    reach = boards.reach(state.board, here, seat.range_max, state.face_up)
    return {
        place: path for place, path in reach.items()
        if place not in occupied and place != here and len(path) >= seat.range_min  # MV-1, MV-3
    }


def current_seat(state: State) -> str:
    return state.seats[state.turn].seat


def turn(state: Any) -> tuple:
    """The seats that may act now."""
    if state is None or state.over:
        return ()
    return (current_seat(state),)


def seats(state: Any) -> tuple:
    return () if state is None else tuple(seat.seat for seat in state.seats)


#: Over once GameEnded set the state's ``over`` flag (events.game.over_flag).
is_over = over_flag


def legal(state: Any, seat: str) -> list:
    """The commands ``decide`` accepts from ``seat`` now: each destination, or Move(None) (MV-5), and Pass."""
    if seat not in turn(state):
        return []
    options = destinations(state, seat_index(state, seat))
    moves = [Move(place) for place in sorted(options)] or [Move(None)]
    return moves + [Pass()]


# --- decide ----------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it (after ``GUARDS``)."""
    index = seat_index(state, seat)
    if index != state.turn:
        refused = _forbidden_anyway(state, index, command)
        if refused is not None:
            return refused
        return refuse("MV-C3", "reject.mecha.turn", "it is {seat}'s turn, not {other_seat}'s",
                      seat=current_seat(state), other_seat=seat)
    outcome = _decide_move(state, index, command, rng) if isinstance(command, Move) else [TurnPassed(seat)]
    if isinstance(outcome, Rejection):
        return outcome
    # The turn ends on the state the action left, so GameEnded's tallies count this action too.
    flow = Flow(state, evolve)
    flow.emit(*outcome)
    flow.emit(*_end_turn(flow.state, index))
    return flow


#: What no other seat's turn can change for a Mecha that is not moving: the kind of place named and
#: where this Mecha stands (MV-1, MV-2, MV-4), and the routes of the board from there, face-down
#: Locations and other Mechas aside (MV-1 for no route: no Range reaches it, MV-2, MV-3). An occupied
#: Location (MV-1) or a face-down one on the way (MV-6) may change before this seat's turn, so they wait for it.
FIXED = ("MV-1", "MV-2", "MV-3", "MV-4")


def _forbidden_anyway(state: State, index: int, command: Any) -> Rejection | None:
    """The rule that refuses a Move of a seat not on turn whatever happens before its turn, or None
    (issue 15's order: the rule first, MV-C3 only for what the rules allow)."""
    if not isinstance(command, Move) or command.to is None:
        return None
    to = command.to
    if isinstance(to, str) or by_id(state.board.locations, to, "number") is None or to == state.positions[index]:
        return _why_not(state, index, to)
    if to in destinations(state, index) or any(position == to for position in state.positions):
        return None
    refused = _why_not(state, index, to)
    return refused if refused.rule in FIXED else None


def _decide_move(state: State, index: int, command: Move, rng: Any) -> list | Rejection:
    seat = state.seats[index]
    here = state.positions[index]
    options = destinations(state, index)
    to = command.to
    if to is None:
        if options:
            return refuse("MV-5", "reject.mecha.no_destination",
                          "a Move needs a destination while valid ones exist: {places}", places=tuple(sorted(options)))
        return [MechStayed(seat.seat, here)]
    if to not in options:  # a name (Move.KINDS: a number, a name or None) is never a destination
        return _why_not(state, index, to)
    path = options[to]
    occupied = {position for position in state.positions if position is not None}
    passed = tuple(place for place in path[:-1] if place in occupied)
    events: list = [MechMoved(seat.seat, here, to, path, passed)]
    if to not in state.face_up:
        events += _reveal(state, seat.seat, to, rng)
    return events


def _why_not(state: State, index: int, to: Any) -> Rejection:
    """The most specific reason a destination is not valid, with the clause that says so.

    The checks run from the kind of place named to the route: not a Location at all (MV-4 for a
    card space, MV-2 for the Camp, MV-1 otherwise), where the Mecha already is (MV-3), occupied
    (MV-1), unreachable except through the Camp (MV-2) or at all (MV-1: no Range reaches it), out of Range by the
    shortest route (MV-3), and last blocked by face-down Locations (MV-6), which is the only
    restriction left once the others pass.
    """
    seat = state.seats[index]
    here = state.positions[index]
    cards = tuple(name for name, _hex in state.board.card_spaces)
    if isinstance(to, str):
        if to in cards:
            return refuse("MV-4", "reject.mecha.card_space",
                          "card space {space} holds a central card, not a Location: no Mecha enters it", space=to)
        if to.lower() == "camp":
            return refuse("MV-2", "reject.mecha.camp", "the Camp is not a Location: a Mecha that has left it never returns")
        return refuse("MV-1", "reject.mecha.not_a_number", "a Move goes to a Location number, got '{to}'", to=to)
    if by_id(state.board.locations, to, "number") is None:
        return refuse("MV-1", "reject.mecha.no_location", "there is no Location {to} on this board", to=to)
    if to == here:
        return refuse("MV-3", "reject.mecha.already_there",
                      "the Mecha is already in Location {to}: a move must end elsewhere", to=to)
    for i, position in enumerate(state.positions):
        if position == to:
            return refuse("MV-1", "reject.mecha.occupied", "Location {to} is occupied by {seat}'s Mecha",
                          to=to, seat=state.seats[i].seat)
    table = boards.neighbours(state.board)
    camp_exits = state.board.camp_adjacent
    unrestricted = graph_within(
        table, here, len(table), first_steps=camp_exits if here is None else None,
    )
    if to not in unrestricted:
        if to in graph_within(_with_camp(table, camp_exits), here, len(table) + 1):
            return refuse("MV-2", "reject.mecha.through_camp", "every route from {here} to Location {to} passes "
                          "through the Camp, and no route passes through the Camp", here=_place(here), to=to)
        return refuse("MV-1", "reject.mecha.no_route", "no route on this board links {here} to Location {to}",
                      here=_place(here), to=to)
    route = unrestricted[to]
    if len(route) > seat.range_max or len(route) < seat.range_min:
        return refuse("MV-3", "reject.mecha.range", "Location {to} is {steps} from {here}; {mech}'s Range is "
                      "{low}–{high}", to=to, here=_place(here), mech=seat.mech, low=seat.range_min,
                      high=seat.range_max, steps=phrase("reject.mecha.steps", STEPS, n=len(route)))
    face_up = set(state.face_up)
    hidden = tuple(place for place in route[:-1] if place not in face_up)
    path = " → ".join(str(place) for place in route)
    shortest = (phrase("reject.mecha.route_from_camp", "the Camp → {path}", path=path) if here is None
                else phrase("reject.mecha.route", "Location {start} → {path}", start=here, path=path))
    return refuse("MV-6", "reject.mecha.face_down", "every route of at most {high} steps to Location {to} passes "
                  "through a face-down Location (the shortest, {route}, through {hidden}), and entering one ends "
                  "the move", high=seat.range_max, to=to, route=shortest, hidden=hidden)


def _with_camp(table: dict, camp_exits: tuple) -> dict:
    """The Location graph plus the Camp as node 0 (Location numbers start at 1): only to ask MV-2."""
    out = dict(table)
    out[0] = camp_exits
    for number in camp_exits:
        out[number] = tuple(sorted(table[number] + (0,)))
    return out


def _steps(count: int) -> str:
    return f"{count} step" if count == 1 else f"{count} steps"


def _route(here: int | None, path: tuple) -> str:
    return " → ".join([_where(here)] + [str(place) for place in path])


#: A count of steps, in a reason (the message reject.mecha.steps).
STEPS = {"one": "{n} step", "other": "{n} steps"}


def _place(position: int | None) -> Phrase:
    """Where a Mecha stands, as a reason says a route goes from it: the Camp or a Location (as
    ``_where`` says it; "from" in the wording of each language: Russian's genitive)."""
    if position is None:
        return phrase("reject.mecha.from_camp", "the Camp")
    return phrase("reject.mecha.from_location", "Location {to}", to=position)


def _where(position: int | None) -> str:
    return "the Camp" if position is None else f"Location {position}"


def _reveal(state: State, seat: str, number: int, rng: Any) -> list:
    """MV-6a…MV-8, in order: map token, face up, then Corruption until the level is reached."""
    location = by_id(state.board.locations, number, "number")
    events: list = []
    if number in state.map_tokens:
        events.append(PlanTokenGained(seat, number))
    events.append(LocationRevealed(seat, number))
    if number == 20 and state.token_20 is not None:
        value, colour = state.token_20
        events.append(CorruptionPlaced(number, value, colour))
        return events
    total = 0  # a face-down Location has no Corruption yet: its stack starts here
    bag = state.bag
    while total < location.level:
        tokens = _tokens(bag)
        if not tokens:
            events.append(BagRanOut(number, total, location.level))
            break
        value, colour = rng.pick(tokens, face=lambda token: token[0])
        bag = _take(bag, (value, colour))
        total += value
        events.append(CorruptionDrawn(number, value, colour, total, location.level))
    return events


def _tokens(bag: tuple) -> tuple:
    """One entry per physical token, in a fixed order, so a draw is uniform over tokens."""
    return tuple((value, colour) for value, colour, count in bag for _ in range(count))


def _take(bag: tuple, token: tuple) -> tuple:
    out = []
    for value, colour, count in bag:
        if (value, colour) == token:
            count -= 1
        if count:
            out.append((value, colour, count))
    return tuple(out)


def _end_turn(state: State, index: int) -> list:
    """MV-C3: play passes to the next seat; after the last seat of the last round, the game ends."""
    next_index = (index + 1) % len(state.seats)
    next_round = state.round + (1 if next_index == 0 else 0)
    events: list = [TurnEnded(state.seats[index].seat, state.seats[next_index].seat, next_round)]
    if next_round > state.rounds:
        events.append(GameEnded(state.rounds, _tally(state.plans), _tally(state.revealed)))
    return events


def _tally(per_seat: tuple) -> tuple:
    return tuple(len(items) for items in per_seat)


# --- evolve ----------------------------------------------------------------------------------------


def evolve(state: Any, event: Any) -> State:
    """One event folded into a new state; the input is never touched."""
    s = state
    match event:
        case GameStarted():
            return initial_state(event)
        case MechMoved(seat, _start, to, _path, _passed):
            return s.but(positions=_put(s.positions, seat_index(s, seat), to))
        case MechStayed() | TurnPassed():
            return s
        case PlanTokenGained(seat, location):
            i = seat_index(s, seat)
            return s.but(map_tokens=tuple(place for place in s.map_tokens if place != location),
                         plans=_put(s.plans, i, s.plans[i] + (location,)))
        case LocationRevealed(seat, location):
            i = seat_index(s, seat)
            return s.but(face_up=tuple(sorted(s.face_up + (location,))),
                         revealed=_put(s.revealed, i, s.revealed[i] + (location,)))
        case CorruptionDrawn(location, value, colour, _total, _level):
            return s.but(stacks=_stack(s.stacks, location, (value, colour)), bag=_take(s.bag, (value, colour)))
        case CorruptionPlaced(location, value, colour):
            return s.but(stacks=_stack(s.stacks, location, (value, colour)), token_20=None)
        case BagRanOut():
            return s
        case TurnEnded(_seat, next_seat, round):
            return s.but(turn=seat_index(s, next_seat), round=round)
        case GameEnded():
            return s.but(over=True)
        case SecretRevealed():
            return s  # CORE-2: the core's own event, after the last command; it changes no state
        case RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return s  # CORE-3, CORE-10, CORE-11: the core's own events; they change rules, not state
    raise TypeError(f"mecha cannot fold an event of type {type(event).__name__}")


def _put(items: tuple, index: int, value: Any) -> tuple:
    """``items`` with the one at ``index`` (a seat's) replaced by ``value``."""
    if index < 0:  # no such seat (seat_index's -1): the slices' own answer, kept as it was
        return items[:index] + (value,) + items[index + 1 :]
    out = list(items)  # in Brython 3.15 slicing and adding tuples costs ~8× a list copy (docs/performance.md)
    out[index] = value
    return tuple(out)


def _stack(stacks: tuple, location: int, token: tuple) -> tuple:
    """Put a token on top of a Location's stack; stacks stay sorted by Location."""
    found = False
    out = []
    for place, tokens in stacks:
        if place == location:
            tokens = tokens + (token,)
            found = True
        out.append((place, tokens))
    if not found:
        out.append((location, (token,)))
        out.sort(key=lambda item: item[0])
    return tuple(out)

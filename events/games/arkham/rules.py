"""Arkham Horror's Movement phase as a decider: start, decide, evolve, legal (shared/rules/arkham.md).

A round is one Movement phase: each seat in turn makes its movement (AH-1). Every choice the rules
leave to a player is a command of that seat: where to walk, which monster to face first and how,
fight or flee, how many Clue tokens to take, which gate to return through, where to reappear
after Lost in Time and Space, whether to spend a Clue token on a failed roll, what to trade.
Whatever follows without a choice (an Other World's first area, a missing gate, dice, damage,
being knocked out) the engine does at once and writes into the log.
"""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import Flow, GameStarted, Guards, RulesVersionChanged, SecretRevealed, over_flag
from events.games.arkham import board as boards
from events.games.arkham.model import (
    LOST,
    AcceptRoll,
    AnswerTrade,
    CheckRolled,
    ClueSpendOffered,
    ClueSpent,
    CluesTaken,
    CombatBegan,
    CombatEnded,
    Devoured,
    Evade,
    Fight,
    Flee,
    GameEnded,
    GateChoiceOffered,
    InvestigatorMoved,
    KnockedOut,
    LostInTimeAndSpace,
    MonsterDefeated,
    MonsterEvaded,
    MonstersIgnored,
    Move,
    MovedInOtherWorld,
    MovementBegan,
    MovementEnded,
    Offer,
    OfferTrade,
    Pending,
    Place,
    PlacedInArkham,
    PlacementOffered,
    Return,
    ReturnedThroughGate,
    RollAccepted,
    SpendClue,
    State,
    StatLost,
    StoodUp,
    Stop,
    TakeClues,
    TradeAnswered,
    TradeOffered,
    TurnEnded,
)
from events.lookup import by_id
from events.rules import Named, Phrase, Rejection, named, phrase, refuse
from events.upgrade import RulesVersionAnswered, RulesVersionProposed
from events.validate import ScenarioError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted.
RULES_VERSION = "arkham-6"

#: The checks before every decide (events.game.Guards): not started, over, unknown seat, not a command (AH-1).
GUARDS = Guards("AH-1", over="the game is over: all {rounds} Movement phases are played", keys="reject.arkham")
# arkham-2: no Clue token is offered on a check rolled at 0 (AH-C4).
# arkham-3: a failed Evade that takes Stamina to 0 knocks out at once, with no Horror check (AH-C4);
# Move takes an optional path, recorded as walked (AH-3).
# arkham-4: a Move without a path walks the cheapest route that meets no monster before its end when
# one fits in the points left, not a cheaper one that stops at a monster on the way (AH-7, AH-3).
# arkham-5: any investigator may offer a trade to another in its area while the mover moves, not only
# the mover (AH-C10: "investigators in the same area may trade ... before, during or after movement").
# arkham-6: a flee is an Evade check (AH-C3), and an Elusive monster is evaded automatically (AH-C6): fleeing
# one ends the battle without a roll; a new game refuses a scenario where a battle could never end
# (``endless_battles``: no flee out, no Fight win, no Stamina loss).

HOSPITAL = boards.HOSPITAL
ASYLUM = boards.ASYLUM
SKILLS = {"evade": "sneak", "flee": "sneak", "horror": "will", "combat": "fight"}
CHECK_NAMES = {"evade": "Evade", "flee": "Evade (flee)", "horror": "Horror", "combat": "Combat"}


# --- start -----------------------------------------------------------------------------------------


def start(scenario: dict, commitment: str) -> list:
    """arkham-6: as ``start_5``, and a scenario where an investigator could be locked in a battle that never
    ends (``endless_battles``) is refused (ScenarioError, ``bad-scenario``)."""
    setup = boards.load_scenario(scenario)
    refused = endless_battles(setup, scenario)
    if refused is not None:
        raise refused
    return _started(setup, scenario, commitment)


def start_5(scenario: dict, commitment: str) -> list:
    """GameStarted (the scenario validated, raising ScenarioError, and recorded whole), then the first
    seat's movement begins (AH-1); up to arkham-5, whatever battles the scenario allows."""
    return _started(boards.load_scenario(scenario), scenario, commitment)


def _started(setup: Any, scenario: dict, commitment: str) -> list:
    seats = tuple(inv.seat for inv in setup.investigators)
    first = GameStarted("arkham", RULES_VERSION, commitment, seats, canonical_json(scenario))
    flow = _Flow(None)
    flow.emit(first)
    if not _begin(flow):
        _end_turn(flow)
    return flow


def initial_state(event: GameStarted) -> State:
    """The state a GameStarted describes: the first seat about to move in round 1."""
    import json

    setup = boards.load_scenario(json.loads(event.scenario))
    return State(
        setup.title, setup.board, setup.investigators, setup.monsters, setup.gates, setup.clues, setup.spend_clues,
        1, setup.rounds, 0, "begin", 0, "", (), "", None, None, False,
    )


class _Flow(Flow):
    """A Flow (events.game) that also knows the rules edition deciding: 1 to 6 (arkham-1 … arkham-6)."""

    def __init__(self, state: State | None, edition: int = 6) -> None:
        Flow.__init__(self, state, evolve)
        self.edition = edition


# --- questions about a state -----------------------------------------------------------------------


def seat_index(state: State, seat: object) -> int:
    for index, inv in enumerate(state.investigators):
        if inv.seat == seat:
            return index
    return -1


def active(state: State) -> Any:
    return state.investigators[state.active]


def phase(state: Any) -> str:
    """What the game waits for: ``over``, ``trade`` (the partner answers), ``spend`` (AH-C1),
    ``combat``, or the active seat's step (``move``, ``clues``, ``return``, ``place``)."""
    if state.over:
        return "over"
    if state.offer is not None:
        return "trade"
    if state.pending is not None:
        return "spend"
    if state.combat:
        return "combat"
    return state.step


def monster(state: State, monster_id: object) -> Any:
    return by_id(state.monsters, monster_id)


def monsters_in(state: State, area: str) -> tuple:
    return tuple(item for item in state.monsters if item.area == area)


def undealt(state: State) -> tuple:
    """The monsters of the active investigator's area it has yet to fight or evade (AH-7, AH-C8)."""
    return tuple(item for item in monsters_in(state, active(state).where) if item.id not in state.dealt)


def clues_at(state: State, area: str) -> int:
    for place, count in state.clues:
        if place == area:
            return count
    return 0


def gates_to(state: State, world: str) -> tuple:
    """Locations with an open gate to ``world`` (AH-11)."""
    return tuple(location for location, to in state.gates if to == world)


def halts(state: State) -> tuple:
    """Areas whose monsters stop a walk: leaving them means fighting or evading (AH-7)."""
    return tuple(sorted({item.area for item in state.monsters}))


def threshold(inv: Any) -> int:
    """The lowest die face that is a success (AH-C1): 5, or 4 Blessed, or 6 Cursed."""
    return 4 if inv.blessed else 6 if inv.cursed else 5


def edition(rules_version: str) -> int:
    """The edition (1 to 6) a game of ``rules_version`` is decided under (``_Flow``): its number for
    arkham-1 … arkham-6, the newest for anything else (a scenario asked about with no game)."""
    number = str(rules_version).rsplit("-", 1)[-1]
    return int(number) if number.isdigit() and 1 <= int(number) <= 6 else 6


def destinations(state: Any, edition: int = 4) -> dict:
    """Where the active seat may Move now -> the route a Move there without a path walks under the
    game's ``edition`` (AH-2, AH-3, AH-7; arkham-4 goes round monsters when that fits, ``_within``)."""
    if state is None or phase(state) != "move" or state.points <= 0 or undealt(state):
        return {}
    return _within(state.board, active(state).where, halts(state), state.points, edition)


def _within(board: Any, here: str, stops: tuple, points: int, edition: int = 4) -> dict:
    """Every area a Move without a path can be aimed at within ``points`` -> the route it walks:
    arkham-4's (``boards.walk_route``: one meeting no monster before its end if one fits, else the
    cheapest), or up to arkham-3 the cheapest (``boards.route``)."""
    clear = boards.clear_routes(board, here, stops) if edition > 3 else {}
    out = {}
    for place, path in boards.routes(board, here, stops).items():
        way = clear.get(place)
        if way is not None and len(way) <= points:
            out[place] = way
        elif len(path) <= points:
            out[place] = path
    return out


def ways_apart(state: State, goal: str, edition: int = 4) -> tuple:
    """arkham-4: the areas where the cheapest ways to ``goal`` stop at a monster (AH-7), when a Move
    there without a path would walk one of them (no way round fits in the points left) and they stop
    at different areas, so at different monsters: the rules leave that choice to the player, who
    chooses by moving to that area (AH-3). () when the way is not the player's choice (one stop, a way round, out of reach)."""
    if edition < 4:
        return ()
    here = active(state).where
    stops = halts(state)
    clear = boards.clear_routes(state.board, here, stops).get(goal)
    path = boards.route(state.board, here, goal, stops)
    if path is None or len(path) > state.points or (clear is not None and len(clear) <= state.points):
        return ()
    near = boards.neighbours(state.board)
    to_goal = _distances(near, goal)
    found: set = set()
    frontier = [here]
    seen = {here}
    for cost in range(len(path)):  # along the cheapest ways only: each step one point nearer the goal
        following = []
        for place in frontier:
            for step in near.get(place, ()):
                if step in seen or to_goal.get(step) != len(path) - cost - 1:
                    continue
                seen.add(step)
                if step != goal and monsters_in(state, step):
                    found.add(step)  # AH-7: the walk stops here
                elif step != goal:
                    following.append(step)
        frontier = following
    return tuple(sorted(found)) if len(found) > 1 else ()


def _distances(near: dict, start: str) -> dict:
    """Area -> the fewest yellow lines from ``start`` (AH-3: one movement point each)."""
    out = {start: 0}
    frontier = [start]
    while frontier:
        following = []
        for place in frontier:
            for step in near.get(place, ()):
                if step not in out:
                    out[step] = out[place] + 1
                    following.append(step)
        frontier = following
    return out


def reach(state: State, index: int, edition: int = 4) -> dict:
    """Every area seat ``index`` can end in during its next movement -> (cost, route, clause).

    Answers ``chronicle ask arkham reachable``: in Arkham every area within Speed (AH-2) by the
    route a Move there without a path walks under the game's ``edition`` (``destinations``: the
    cheapest up to arkham-3, round monsters when that fits from arkham-4, AH-3, AH-7), staying put
    included; delayed, only where it is (AH-C7); in an Other World's first area its second (AH-10), in the second each gate's Location (AH-11) or Lost in
    Time and Space (AH-12); Lost, any Street or Location (AH-C5). While its own movement is under
    way, with the points left (none after a combat, AH-8, or a return, AH-9).
    """
    inv = state.investigators[index]
    if inv.devoured:
        return {}
    if inv.where == LOST:
        return {item.id: (0, (), "AH-C5") for item in state.board.areas if item.kind in boards.ARKHAM_KINDS}
    here = by_id(state.board.areas, inv.where)
    if here.kind == "other_world":
        if inv.delayed:
            return {here.id: (0, (), "AH-C7")}
        world = by_id(state.board.worlds, here.world)
        if here.order == 1:
            return {world.areas[1]: (0, (world.areas[1],), "AH-10")}
        gates = gates_to(state, world.id)
        if not gates:
            return {LOST: (0, (LOST,), "AH-12")}
        return {location: (0, (location,), "AH-11") for location in gates}
    if inv.delayed:
        return {here.id: (0, (), "AH-C7")}
    points = inv.speed
    out = {here.id: (0, (), "AH-2")}
    if index == state.active and state.step == "move" and not state.over:  # its movement is under way
        points = state.points
        out = {here.id: (0, (), state.halt or "AH-2")}
    for place, path in _within(state.board, here.id, halts(state), points, edition).items():
        out[place] = (len(path), path, "AH-2")
    return out


def turn(state: Any) -> tuple:
    """The seat that must act now: a trade's partner while it is asked, else the moving seat."""
    if state is None or state.over:
        return ()
    if state.offer is not None:
        return (state.offer.partner,)
    return (active(state).seat,)


def seats(state: Any) -> tuple:
    return () if state is None else tuple(inv.seat for inv in state.investigators)


#: Over once GameEnded set the state's ``over`` flag (events.game.over_flag).
is_over = over_flag


def legal(state: Any, seat: str) -> list:
    """The commands ``decide`` accepts from ``seat`` now (trades: the one-item offers only; arkham-5: a
    waiting investigator's offers to those in its area while the mover moves, AH-C10)."""
    return _legal(state, seat, 5)


def legal_4(state: Any, seat: str) -> list:
    """``legal`` of arkham-4: only the moving investigator offers trades (AH-C10)."""
    return _legal(state, seat, 4)


def legal_3(state: Any, seat: str) -> list:
    """``legal`` up to arkham-3: no Evade or Fight against a gate's monsters set aside (AH-C9)."""
    return _legal(state, seat, 3)


def set_aside(state: State) -> tuple:
    """The monsters of the gate's Location the active investigator returned through this phase and has
    neither evaded nor fought since (AH-C9): MonstersIgnored put each in ``dealt`` once, a passed Evade
    puts it there again (so it counts twice), a Fight ends the movement (halt AH-8)."""
    if state.halt != "AH-9":
        return ()
    return tuple(item for item in monsters_in(state, active(state).where) if state.dealt.count(item.id) == 1)


def _legal(state: Any, seat: str, edition: int) -> list:
    if state is None or state.over:
        return []
    now = phase(state)
    if seat not in turn(state):
        if edition > 4 and now in TRADE_STEPS and seat in seats(state):
            return _trade_offers(state, seat_index(state, seat))  # AH-C10: any investigator in the same area
        return []
    if edition > 4 and now in TRADE_STEPS and now != "move":
        return _legal_step(state, now) + _trade_offers(state)  # AH-C10: after movement too
    return _legal_step(state, now, edition)


def _legal_step(state: Any, now: str, edition: int = 5) -> list:
    """The mover's commands for the step ``now`` (trades included in the move step)."""
    if now == "trade":
        return [AnswerTrade(True), AnswerTrade(False)]
    if now == "spend":
        return [SpendClue(), AcceptRoll()]
    if now == "combat":
        fought = by_id(state.monsters, state.combat)
        return [Fight(fought.id)] + ([] if fought.ambush else [Flee()])
    if now == "clues":
        return [TakeClues(count) for count in range(clues_at(state, active(state).where) + 1)]
    if now == "return":
        world = by_id(state.board.areas, active(state).where).world
        return [Return(location) for location in gates_to(state, world)]
    if now == "place":
        return [Place(item.id) for item in state.board.areas if item.kind in boards.ARKHAM_KINDS]
    if now != "move":
        return []  # pragma: no cover - begin/done never last past a command
    facing = undealt(state)
    out: list = []
    for item in facing:
        out += [Evade(item.id), Fight(item.id)]
    if not facing:
        for item in set_aside(state) if edition > 3 else ():  # AH-C9: it need not, but may
            out += [Evade(item.id), Fight(item.id)]
        out += [Move(place) for place in sorted(destinations(state, edition)) if not ways_apart(state, place, edition)]
        out += [Stop()]
    return out + _trade_offers(state)


def _trade_offers(state: State, offerer: int | None = None) -> list:
    """One-item offers to every investigator in the offerer's area (AH-C10); the offerer is the mover
    unless ``offerer`` names another investigator's index (arkham-5)."""
    mover = active(state) if offerer is None else state.investigators[offerer]
    if mover.devoured or mover.where == LOST:
        return []
    out = []
    for partner in state.investigators:
        if partner.seat == mover.seat or partner.devoured or partner.where != mover.where:
            continue
        for item in sorted(set(mover.items)):
            out.append(OfferTrade(partner.seat, (item,), ()))
        for item in sorted(set(partner.items)):
            out.append(OfferTrade(partner.seat, (), (item,)))
    return out


# --- decide ----------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it (arkham-6)."""
    return _decide(state, seat, command, rng, 6)


def decide_5(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """arkham-5 as released: a Flee from an Elusive monster is rolled as any Evade check (Sneak + Awareness),
    though AH-C6 evades an Elusive monster automatically; with no die it always fails."""
    return _decide(state, seat, command, rng, 5)


def decide_4(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """arkham-4 as released: only the moving investigator may offer a trade; another seat's offer is
    refused as out of turn (AH-1), though AH-C10 lets any investigators in the same area trade."""
    return _decide(state, seat, command, rng, 4)


def decide_3(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """arkham-3 as released: a Move without a path walks the cheapest route even when it stops at a
    monster on the way and a dearer route within the points left would meet none."""
    return _decide(state, seat, command, rng, 3)


def decide_2(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """arkham-2 as released: a failed Evade that takes Stamina to 0 still opens its combat and rolls
    the Horror check before the investigator collapses."""
    return _decide(state, seat, command, rng, 2)


def decide_1(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """arkham-1 as released: a failed check still offers Clue tokens to an investigator already at 0
    (the Horror check after a failed evade), who collapses only once that check settles."""
    return _decide(state, seat, command, rng, 1)


def _decide(state: Any, seat: str, command: Any, rng: Any, edition: int) -> list | Rejection:
    index = seat_index(state, seat)  # a seat of a game under way: GUARDS ran first
    now = phase(state)
    if now == "trade":
        if seat != state.offer.partner:
            return refuse("AH-C10", "reject.arkham.answer_first", "{partner_seat} must first answer {seat}'s trade offer",
                          partner_seat=state.offer.partner, seat=state.offer.seat)
        if not isinstance(command, AnswerTrade):
            return refuse("AH-C10", "reject.arkham.asked", "{asked_seat} is asked about {seat}'s trade offer: accept or "
                          "decline", asked_seat=seat, seat=state.offer.seat)
        return _answer_trade(state, command)
    if edition > 4 and isinstance(command, OfferTrade):
        return _any_offer(state, index, command, edition)
    if index != state.active:
        return _out_of_turn(state, index, command)
    flow = _Flow(state, edition)
    handlers = {
        "move": _MOVE_PHASE, "combat": _COMBAT_PHASE, "spend": _SPEND_PHASE, "clues": _CLUES_PHASE,
        "return": _RETURN_PHASE, "place": _PLACE_PHASE,
    }
    handler = handlers.get(now, {}).get(type(command))
    if handler is None:
        return _not_now(state, command, now)
    refused = handler(flow, command, rng)
    if refused is not None:
        return refused
    return flow


def _out_of_turn(state: State, index: int, command: Any) -> Rejection:
    """A seat whose movement it is not: the rule that would forbid the command anyway, else AH-1.

    Only what holds whoever moves is checked here: a devoured investigator (AH-C4), an investigator
    Lost in Time and Space (AH-C5) or in an Other World (AH-9) that gets no walk, a destination
    no yellow line reaches (AH-3, AH-9), a trade while the mover is in combat (AH-C10).
    """
    inv = state.investigators[index]
    if inv.devoured:
        return refuse("AH-C4", "reject.arkham.devoured", "{name} was devoured: it is out of the game", name=inv.name)
    if isinstance(command, Move):
        if inv.where == LOST:
            return refuse("AH-C5", "reject.arkham.lost_walks", "{name} is Lost in Time and Space: it comes back by "
                          "being placed, not by walking", name=inv.name)
        here = by_id(state.board.areas, inv.where)
        if here.kind == "other_world":
            return refuse("AH-9", "reject.arkham.in_other_world", "{name} is in an Other World: it gets no movement "
                          "points and moves by its card", name=inv.name)
        target = by_id(state.board.areas, command.to)
        if target is None:
            return _no_area(command.to)
        if target.kind in ("other_world", "special"):
            return _unreachable(target)
        fixed = _fixed_move_refusal(state, inv, command, target)
        if fixed is not None:
            return fixed
    if isinstance(command, (OfferTrade, AnswerTrade)) and state.combat:
        return _no_trading(active(state).name, by_id(state.monsters, state.combat).name)
    return refuse("AH-1", "reject.arkham.turn", "it is {seat}'s movement, not {other_seat}'s", seat=active(state).seat,
                  other_seat=inv.seat)


#: The steps of the phase in which arkham-5 takes a trade offer from any investigator (AH-C10): all but a
#: combat (refused, AH-C10) and a failed roll waiting for a Clue token (AH-C1: a check is under way).
TRADE_STEPS = ("move", "clues", "return", "place")


def _any_offer(state: State, index: int, command: OfferTrade, edition: int) -> list | Rejection:
    """arkham-5: an investigator, moving or waiting, offers a trade to another in its area (AH-C10: "investigators
    in the same area may trade items before, during or after movement, but not during combat"). Lost in Time and
    Space is no area of the board: nobody there trades. A combat refuses every offer under AH-C10 whatever it waits
    for, a failed roll's Clue token (AH-C1) included."""
    inv = state.investigators[index]
    if inv.devoured:
        return refuse("AH-C4", "reject.arkham.devoured", "{name} was devoured: it is out of the game", name=inv.name)
    if state.combat:
        return _no_trading(active(state).name, by_id(state.monsters, state.combat).name)
    now = phase(state)
    if now not in TRADE_STEPS:
        return _not_now(state, command, now)
    if inv.where == LOST:
        return refuse("AH-C10", "reject.arkham.lost_trades", "{name} is Lost in Time and Space: it trades with "
                      "nobody there", name=inv.name)
    flow = _Flow(state, edition)
    refused = _offer_trade(flow, command, None, index)
    return flow if refused is None else refused


def _fixed_move_refusal(state: State, inv: Any, command: Move, target: Any) -> Rejection | None:
    """What refuses a waiting investigator's Move whatever happens before its movement begins (the
    rules audit; issue 15's order): nothing moves it or changes its Speed or the yellow lines before
    then, so the area where it stands (AH-3), a delay (AH-C7: no movement points), no route (AH-3), a
    route or chosen path beyond its Speed (AH-2) or a chosen step with no yellow line (AH-3) hold
    already. Monsters (AH-7) may be gone by then, so they are not asked here."""
    if command.to == inv.where:
        return refuse("AH-3", "reject.arkham.already_there", "{name} is already in {area}", name=inv.name,
                      area=named(target.id, target.name))
    if inv.delayed:
        return refuse("AH-C7", "reject.arkham.delayed", "{name} was delayed: it only stands up this phase (no "
                      "movement points)", name=inv.name)
    if command.path == ():
        path = boards.route(state.board, inv.where, command.to)
        if path is None:
            return refuse("AH-3", "reject.arkham.no_route", "no yellow line route joins {start} to {area}",
                          start=_area(state, inv.where), area=named(target.id, target.name))
        if len(path) > inv.speed:
            return refuse("AH-2", "reject.arkham.too_far", "{area} is {cost} points away; Speed is {speed}",
                          area=named(target.id, target.name), cost=len(path), speed=inv.speed)
        return None
    return _path_refusal(state, inv, command, inv.speed, facing=False)


def _no_area(area: str, number: int = 0) -> Rejection:
    if number:
        return refuse("AH-3", "reject.arkham.step_no_area", "step {number}: there is no area '{area}' on the board",
                      number=number, area=area)
    return refuse("AH-3", "reject.arkham.no_area", "there is no area '{area}' on the board", area=area)


def _unreachable(target: Any, number: int = 0) -> Rejection:
    """AH-9 for an Other World area, AH-3 for a special one (Lost in Time and Space): no yellow line."""
    step = phrase("reject.arkham.step", "step {number}: ", number=number) if number else ""
    area = named(target.id, target.name)
    if target.kind == "other_world":
        return refuse("AH-9", "reject.arkham.other_world_area", "{step}{area} is an Other World area: no yellow line "
                      "leads there", step=step, area=area)
    return refuse("AH-3", "reject.arkham.not_joined", "{step}{area} is not joined to Arkham by any yellow line",
                  step=step, area=area)


def _no_trading(name: str, monster_name: str) -> Rejection:
    return refuse("AH-C10", "reject.arkham.no_trading", "no trading during combat ({name} is fighting {monster})",
                  name=name, monster=monster_name)


def _not_now(state: State, command: Any, now: str) -> Rejection:
    """The command exists but the moment is wrong: say what the game waits for, citing its clause."""
    kind = type(command).__name__
    inv = active(state)
    if now == "spend":
        if kind == "OfferTrade" and state.combat:
            return _no_trading(inv.name, by_id(state.monsters, state.combat).name)  # AH-C10 before AH-C1
        pending = state.pending
        return refuse("AH-C1", "reject.arkham.roll_waits", {
            "one": "the failed {check} check ({successes} of {n} success) waits: spend a Clue token or accept the roll",
            "other": "the failed {check} check ({successes} of {n} successes) waits: spend a Clue token or accept the "
                     "roll"}, check=phrase(*CHECKS[pending.check]), successes=pending.successes, n=pending.difficulty)
    if now == "combat":
        name = by_id(state.monsters, state.combat).name
        if kind in ("Move", "Stop"):
            return refuse("AH-8", "reject.arkham.combat_movement_over", "{name} is in combat with {monster}: the "
                          "movement is over; fight or flee", name=inv.name, monster=name)
        if kind == "OfferTrade":
            return _no_trading(inv.name, name)
        return refuse("AH-C3", "reject.arkham.in_combat", "{name} is in combat with {monster}: fight or flee",
                      name=inv.name, monster=name)
    if now == "clues":
        count = clues_at(state, inv.where)
        return refuse("AH-5", "reject.arkham.take_clues_first", "the movement ended in {area}: take 0 to {count} of "
                      "its Clue tokens first", area=_area(state, inv.where), count=count)
    if now == "return":
        world = by_id(state.board.worlds, by_id(state.board.areas, inv.where).world)
        return refuse("AH-11", "reject.arkham.choose_gate", "{name} returns from {world}: choose the gate to come "
                      "back through ({gates})", name=inv.name, world=named(world.id, world.name),
                      gates=tuple(_area(state, location) for location in gates_to(state, world.id)))
    if now == "place":
        return refuse("AH-C5", "reject.arkham.place_first", "{name} is Lost in Time and Space: first put it in a "
                      "Location or Street area of Arkham", name=inv.name)
    # now == "move"
    if kind == "TakeClues":
        return refuse("AH-6", "reject.arkham.clues_where_ended", "Clue tokens are taken only where the movement "
                      "ends: {name} has not ended it in {area} (Stop first)", name=inv.name,
                      area=_area(state, inv.where))
    if kind in ("SpendClue", "AcceptRoll"):
        return refuse("AH-C1", "reject.arkham.no_failed_roll", "no failed roll is waiting for a Clue token")
    if kind == "Flee":
        return refuse("AH-C3", "reject.arkham.not_in_combat", "{name} is not in combat: nothing to flee", name=inv.name)
    if kind == "Return":
        return refuse("AH-11", "reject.arkham.not_second_area", "{name} is not in the second area of an Other World",
                      name=inv.name)
    if kind == "Place":
        return refuse("AH-C5", "reject.arkham.not_lost", "{name} is not Lost in Time and Space", name=inv.name)
    return refuse("AH-C10", "reject.arkham.no_offer", "no trade offer is waiting for an answer")


def _name(state: State, area_id: str) -> str:
    item = by_id(state.board.areas, area_id)
    return item.name if item is not None else repr(area_id)


def _area(state: State, area_id: str) -> Named | str:
    """An area in a reason: its id and name (``_name``), said in the reader's language."""
    item = by_id(state.board.areas, area_id)
    return named(item.id, item.name) if item is not None else repr(area_id)


def _monster_list(items: tuple) -> Phrase:
    """``Ghoul``, or ``Ghoul, Zombie and Cultist``, in a reason: names as the log says them (issue 17: never ids)."""
    names = tuple(phrase("reject.arkham.monster", "{monster}", monster=named(item.name, item.name)) for item in items)
    if len(names) == 1:
        return names[0]
    return phrase("reject.arkham.monsters", "{some} and {last}", some=names[:-1], last=names[-1])


#: The checks of AH-C1..AH-C3, named in a reason (as CHECK_NAMES).
CHECKS = {"evade": ("reject.arkham.check_evade", "Evade"), "flee": ("reject.arkham.check_flee", "Evade (flee)"),
          "horror": ("reject.arkham.check_horror", "Horror"), "combat": ("reject.arkham.check_combat", "Combat")}



# --- moving in Arkham ------------------------------------------------------------------------------


def _move(flow: _Flow, command: Move, rng: Any) -> Rejection | None:
    state = flow.state
    inv = active(state)
    to = command.to
    target = by_id(state.board.areas, to)
    if target is None:
        return _no_area(to)
    if target.kind in ("other_world", "special"):
        return _unreachable(target)
    if to == inv.where:
        return refuse("AH-3", "reject.arkham.already_there", "{name} is already in {area}", name=inv.name,
                      area=named(target.id, target.name))
    facing = undealt(state)
    if facing:
        if len(facing) == 1:
            return refuse("AH-7", "reject.arkham.facing", "{monsters} is in {area}: fight or evade each before "
                          "leaving", monsters=_monster_list(facing), area=_area(state, inv.where))
        return refuse("AH-7", "reject.arkham.facing_several", "{monsters} are in {area}: fight or evade each before "
                      "leaving", monsters=_monster_list(facing), area=_area(state, inv.where))
    if state.points <= 0:
        return _no_points(state)
    if command.path != ():
        return _walk(flow, command)
    if flow.edition > 3:
        path = boards.walk_route(state.board, inv.where, to, halts(state), state.points)
    else:
        path = boards.route(state.board, inv.where, to, halts(state))
    if path is None:
        return refuse("AH-3", "reject.arkham.no_route", "no yellow line route joins {start} to {area}",
                      start=_area(state, inv.where), area=named(target.id, target.name))
    if len(path) > state.points:
        if state.points == inv.speed:
            return refuse("AH-2", "reject.arkham.too_far", "{area} is {cost} points away; Speed is {speed}",
                          area=named(target.id, target.name), cost=len(path), speed=inv.speed)
        return refuse("AH-2", "reject.arkham.too_far_left", {
            "one": "{area} is {cost} points away; {n} movement point is left of Speed {speed}",
            "other": "{area} is {cost} points away; {n} movement points are left of Speed {speed}"},
            area=named(target.id, target.name), cost=len(path), n=state.points, speed=inv.speed)
    apart = ways_apart(state, to, flow.edition)
    if apart:  # AH-7, AH-3: which monster the walk meets is the player's choice
        ways = tuple(phrase("reject.arkham.way", "{monsters} in {area}", monsters=_monster_list(monsters_in(state, place)),
                            area=_area(state, place)) for place in apart)
        return refuse("AH-7", "reject.arkham.choose_way", "the ways of cost {cost} to {area} stop at different "
                      "monsters, {ways}: move to the one of those areas you choose",
                      cost=len(path), area=named(target.id, target.name),
                      ways=phrase("reject.arkham.ways_or", "{some} or {last}", some=ways[:-1], last=ways[-1]))
    walked = []
    for place in path:  # AH-7: monsters in an area on the way stop the walk there
        walked.append(place)
        if place != to and monsters_in(state, place):
            break
    flow.emit(InvestigatorMoved(inv.seat, inv.where, walked[-1], to, tuple(walked), state.points - len(walked)))
    return None


#: A step past the points left (AH-2), said by their number.
STEP_POINT = {"one": "step {number} ({start} → {area}) needs a movement point: the path costs {cost}, {n} is left of "
                     "Speed {speed}",
              "other": "step {number} ({start} → {area}) needs a movement point: the path costs {cost}, {n} are left "
                       "of Speed {speed}"}

#: The most steps a chosen path may list: no Speed exceeds 20 (board.py), so a longer one is refused unread.
PATH_LIMIT = 20


def _walk(flow: _Flow, command: Move) -> Rejection | None:
    """The player's own route: every step checked in order, the first illegal one refused with its clause."""
    state = flow.state
    inv = active(state)
    refusal = _path_refusal(state, inv, command, state.points, facing=True)
    if refusal is not None:
        return refusal
    path = command.path
    flow.emit(InvestigatorMoved(inv.seat, inv.where, command.to, command.to, path, state.points - len(path)))
    return None


def _path_refusal(state: State, inv: Any, command: Move, points: int, facing: bool) -> Rejection | None:
    """A chosen path's first illegal step, in walking order, refused with its clause; None: every step holds.

    ``points`` is what the walk may spend (the moving investigator's points left; a waiting one's Speed),
    and with ``facing`` a step out of an area with monsters stops the walk (AH-7): asked only of the
    investigator moving now, since monsters may be gone by a waiting one's movement."""
    path = command.path
    if len(path) > PATH_LIMIT:
        return refuse("AH-2", "reject.arkham.path_too_long", "a path of {steps} steps is longer than any Speed (at "
                      "most {limit})", steps=len(path), limit=PATH_LIMIT)
    if path[-1] != command.to:
        return refuse("AH-3", "reject.arkham.path_end", "the path ends in {end}, not in {area}",
                      end=_area(state, path[-1]), area=_area(state, command.to))
    near = boards.neighbours(state.board)
    here = inv.where
    for number, step in enumerate(path, 1):
        target = by_id(state.board.areas, step)
        if target is None:
            return _no_area(step, number)
        there = monsters_in(state, here) if facing and number > 1 else ()
        if there:
            if len(there) == 1:
                return refuse("AH-7", "reject.arkham.step_facing", "step {number}: {monsters} is in {area}: the walk "
                              "stops there; fight or evade before leaving", number=number,
                              monsters=_monster_list(there), area=_area(state, here))
            return refuse("AH-7", "reject.arkham.step_facing_several", "step {number}: {monsters} are in {area}: the "
                          "walk stops there; fight or evade before leaving", number=number,
                          monsters=_monster_list(there), area=_area(state, here))
        if step not in near.get(here, ()):
            return _no_line(state, number, here, target)
        if number > points:
            return refuse("AH-2", "reject.arkham.step_point", STEP_POINT, number=number, start=_area(state, here),
                          area=named(target.id, target.name), cost=len(path), n=points, speed=inv.speed)
        here = step
    return None


def _no_line(state: State, number: int, here: str, target: Any) -> Rejection:
    """Why no yellow line joins ``here`` to ``target``: the clause of the kinds of the two areas."""
    start = by_id(state.board.areas, here)
    if target.kind in ("other_world", "special"):
        return _unreachable(target, number)
    area = named(target.id, target.name)
    if target.id == here:
        return refuse("AH-3", "reject.arkham.step_same", "step {number}: {area} is where the path already is",
                      number=number, area=area)
    begin = named(start.id, start.name)
    if start.kind == "location" and target.kind == "location":
        return refuse("AH-3", "reject.arkham.step_locations", "step {number}: {start} → {area}: Locations never join "
                      "each other; a Location joins only its own Street area", number=number, start=begin, area=area)
    if start.kind == "location":
        return refuse("AH-3", "reject.arkham.step_from_location", "step {number}: {start} has no yellow line to "
                      "{area}: it joins only its own Street area, {street}", number=number, start=begin, area=area,
                      street=_area(state, start.street))
    if target.kind == "location":
        return refuse("AH-3", "reject.arkham.step_to_location", "step {number}: {start} has no yellow line to "
                      "{area}: that Location joins only its own Street area, {street}", number=number, start=begin,
                      area=area, street=_area(state, target.street))
    return refuse("AH-3", "reject.arkham.step_no_line", "step {number}: no yellow line joins {start} to {area}",
                  number=number, start=begin, area=area)


def _no_points(state: State) -> Rejection:
    inv = active(state)
    if state.halt == "AH-8":
        return refuse("AH-8", "reject.arkham.combat_ended_move", "a combat ended {name}'s movement: its remaining "
                      "points are lost", name=inv.name)
    if state.halt == "AH-C7":
        return refuse("AH-C7", "reject.arkham.delayed", "{name} was delayed: it only stands up this phase (no "
                      "movement points)", name=inv.name)
    if state.halt == "AH-9":
        return refuse("AH-9", "reject.arkham.came_back", "{name} came back from an Other World this phase: no "
                      "movement points", name=inv.name)
    return refuse("AH-2", "reject.arkham.spent", {
        "one": "{name} has spent the {n} movement point of its Speed",
        "other": "{name} has spent all {n} movement points of its Speed"}, name=inv.name, n=inv.speed)


def _stop(flow: _Flow, command: Stop, rng: Any) -> Rejection | None:
    state = flow.state
    inv = active(state)
    facing = undealt(state)
    if facing:
        if len(facing) == 1:
            return refuse("AH-7", "reject.arkham.facing_stop", "{monsters} is in {area}: fight or evade each before "
                          "ending the movement there", monsters=_monster_list(facing), area=_area(state, inv.where))
        return refuse("AH-7", "reject.arkham.facing_stop_several", "{monsters} are in {area}: fight or evade each "
                      "before ending the movement there", monsters=_monster_list(facing), area=_area(state, inv.where))
    count = clues_at(state, inv.where)
    flow.emit(MovementEnded(inv.seat, inv.where, state.points, count))
    if count == 0:
        _end_turn(flow)
    return None


def _take_clues(flow: _Flow, command: TakeClues, rng: Any) -> Rejection | None:
    state = flow.state
    inv = active(state)
    available = clues_at(state, inv.where)
    count = command.count
    if not 0 <= count <= available:
        return refuse("AH-5", "reject.arkham.clue_count", {
            "one": "{area} holds {n} Clue token: take 0 to {n}, got {count}",
            "other": "{area} holds {n} Clue tokens: take 0 to {n}, got {count}"}, area=_area(state, inv.where),
            n=available, count=count)
    flow.emit(CluesTaken(inv.seat, inv.where, count, available - count))
    _end_turn(flow)
    return None


# --- monsters, checks and combat -------------------------------------------------------------------


def _facing(state: State, monster_id: object, edition: int = 4) -> Any:
    """The monster of the mover's area it may still face, or a Rejection saying why not.

    Back through a gate (AH-C9) the investigator "need not" face the monsters there: from arkham-4
    that is a choice, and it may still evade or fight one it has not yet (``set_aside``); up to
    arkham-3 they are refused as set aside."""
    inv = active(state)
    found = by_id(state.monsters, monster_id)
    if found is None:
        return refuse("AH-7", "reject.arkham.no_monster", "there is no monster '{id}' on the board", id=monster_id)
    if found.area != inv.where:
        return refuse("AH-7", "reject.arkham.monster_elsewhere", "{monster} is in {area}, not in {here} with "
                      "{name}", monster=named(found.name, found.name), area=_area(state, found.area),
                      here=_area(state, inv.where), name=inv.name)
    if found.id in state.dealt:
        if edition > 3 and found in set_aside(state):
            return found
        if state.halt == "AH-9" and edition < 4:
            return refuse("AH-C9", "reject.arkham.through_gate", "{name} came back through the gate: {monster} need "
                          "not be faced", name=inv.name, monster=found.name)
        return refuse("AH-C8", "reject.arkham.got_past", "{name} already got past {monster} in this movement",
                      name=inv.name, monster=named(found.name, found.name))
    return found


def _evade(flow: _Flow, command: Evade, rng: Any) -> Rejection | None:
    found = _facing(flow.state, command.monster, flow.edition)
    if isinstance(found, Rejection):
        return found
    seat = active(flow.state).seat
    if found.elusive:  # AH-C6: an Elusive monster is evaded without a roll
        flow.emit(MonsterEvaded(seat, found.id, "AH-C6"))
        return None
    passed = _check(flow, "evade", found, rng)
    if passed is not None:
        _after_check(flow, "evade", found, passed, rng)
    return None


def _fight(flow: _Flow, command: Fight, rng: Any) -> Rejection | None:
    state = flow.state
    if state.combat:
        if command.monster != state.combat:
            fought = by_id(state.monsters, state.combat)
            return refuse("AH-C3", "reject.arkham.fighting_other", "{name} is in combat with {monster}, not "
                          "'{other}'", name=active(state).name, monster=named(fought.name, fought.name),
                          other=command.monster)
        fought = by_id(state.monsters, state.combat)
        passed = _check(flow, "combat", fought, rng)
        if passed is not None:
            _after_check(flow, "combat", fought, passed, rng)
        return None
    found = _facing(state, command.monster, flow.edition)
    if isinstance(found, Rejection):
        return found
    flow.emit(CombatBegan(active(state).seat, found.id, "fight", state.points))
    _horror(flow, found, rng)
    return None


def _flee(flow: _Flow, command: Flee, rng: Any) -> Rejection | None:
    fought = by_id(flow.state.monsters, flow.state.combat)
    if fought.ambush:
        return refuse("AH-C6", "reject.arkham.ambush", "{monster} has Ambush: once combat began, no fleeing",
                      monster=fought.name)
    if fought.elusive and flow.edition > 5:
        # AH-C3: a flee is an Evade check; AH-C6: an Elusive monster is evaded automatically, so no roll: the
        # battle ends as a passed flee ends it (arkham-6; up to arkham-5 it was rolled)
        seat = active(flow.state).seat
        flow.emit(MonsterEvaded(seat, fought.id, "AH-C6"), CombatEnded(seat, fought.id, "fled"))
        return None
    passed = _check(flow, "flee", fought, rng)
    if passed is not None:
        _after_check(flow, "flee", fought, passed, rng)
    return None


def endless_battles(setup: Any, raw: dict, path: str = "$") -> ScenarioError | None:
    """arkham-6: the first monster (in the scenario's order) that some investigator could be locked in a battle
    with for ever, as a ScenarioError at its path (``bad-scenario``); None when every battle can end.

    A battle ends when the investigator defeats the monster, flees it, or collapses (AH-C3, AH-C4); it goes on
    for ever when all three are out of reach: no flee (Ambush, AH-C6; or an Evade check of no die, Sneak +
    Awareness <= 0, AH-C1, against a monster that is not Elusive, AH-C6), fewer Combat dice (Fight + combat
    rating) than the monster's toughness (Clue tokens are not counted: they run out, AH-C1), and combat damage 0
    (a failed round costs no Stamina, so it is never knocked out, AH-C4), unless the battle's opening Horror
    check surely drives it insane (``_horror_certainly_breaks``). A failed Evade starts that battle
    whether or not the investigator chose it (AH-C2), so every investigator is asked about every monster
    that stands where investigators go (not the Sky or the Outskirts)."""
    order = [item.get("id") if isinstance(item, dict) else None for item in raw.get("monsters", [])]
    for fought in sorted(setup.monsters, key=lambda item: order.index(item.id)):
        if fought.combat_damage > 0 or fought.area in boards.MONSTER_ONLY:
            continue
        for inv in setup.investigators:
            dice = inv.fight + fought.combat_rating
            evade = inv.sneak + fought.awareness
            if dice >= fought.toughness or (not fought.ambush and (fought.elusive or evade > 0)):
                continue
            if _horror_certainly_breaks(inv, fought):  # the battle's opening Horror check ends it (AH-C4)
                continue
            why = ("it has Ambush: no fleeing" if fought.ambush else
                   f"a flee rolls Sneak {inv.sneak} {fought.awareness:+d} = {evade} dice and it is not Elusive")
            return ScenarioError(f"{path}.monsters[{order.index(fought.id)}]", (
                f"{inv.name} ({inv.seat}) could be locked for ever in a battle with {fought.name}: {why}; Fight "
                f"{inv.fight} {fought.combat_rating:+d} = {dice} dice can never reach its toughness "
                f"{fought.toughness}; and its combat damage 0 never knocks the investigator out (AH-C3, AH-C4, "
                "AH-C6)"))
    return None


def _horror_certainly_breaks(inv: Any, fought: Any) -> bool:
    """Whether the Horror check that opens every battle with ``fought`` (AH-C3) surely takes ``inv`` to 0
    Sanity, so the battle ends there, the investigator driven insane (AH-C4): a check of no die fails without
    a roll (AH-C1) and costs the horror damage; a pass still costs Nightmarish N (AH-C6). Its Sanity only falls
    from the scenario's, so a loss that reaches the scenario's reaches any later one."""
    dice = inv.will + fought.horror_rating
    least = fought.horror_damage if dice <= 0 else min(fought.horror_damage, fought.nightmarish)
    return least >= inv.sanity


def _horror(flow: _Flow, fought: Any, rng: Any) -> None:
    """The once-per-battle Horror check that opens every combat (AH-C2, AH-C3)."""
    passed = _check(flow, "horror", fought, rng)
    if passed is not None:
        _after_check(flow, "horror", fought, passed, rng)


def _check(flow: _Flow, check: str, fought: Any, rng: Any) -> bool | None:
    """Roll a check (AH-C1); None when a failed roll waits for its player to spend Clue tokens."""
    inv = active(flow.state)
    skill = getattr(inv, SKILLS[check])
    modifier = {"evade": fought.awareness, "flee": fought.awareness, "horror": fought.horror_rating,
                "combat": fought.combat_rating}[check]
    difficulty = fought.toughness if check == "combat" else 1
    dice = skill + modifier
    face = threshold(inv)
    rolls = tuple(rng.roll(6) for _ in range(dice)) if dice > 0 else ()
    successes = sum(1 for value in rolls if value >= face)
    passed = successes >= difficulty
    flow.emit(CheckRolled(inv.seat, check, fought.id, skill, modifier, dice, rolls, face, successes, difficulty,
                          passed))
    # AH-C4: an investigator already at 0 (the Horror check after a failed evade) is collapsing and chooses
    # nothing more: its roll settles in this command, so AH-C4 applies before the command ends
    # (arkham-1 still offered it the tokens)
    offered = flow.edition < 2 or not collapsing(inv)
    if not passed and rolls and flow.state.spend_clues and inv.clues > 0 and offered:
        flow.emit(ClueSpendOffered(inv.seat, check, fought.id, rolls, successes, difficulty, face))
        return None
    return passed


def _spend_clue(flow: _Flow, command: SpendClue, rng: Any) -> Rejection | None:
    state = flow.state
    pending = state.pending
    inv = active(state)
    roll = rng.roll(6)
    successes = pending.successes + (1 if roll >= pending.threshold else 0)
    passed = successes >= pending.difficulty
    settled = passed or inv.clues - 1 == 0
    flow.emit(ClueSpent(inv.seat, pending.check, roll, successes, pending.difficulty, passed, settled))
    if settled:
        _after_check(flow, pending.check, by_id(state.monsters, pending.monster), passed, rng)
    return None


def _accept_roll(flow: _Flow, command: AcceptRoll, rng: Any) -> Rejection | None:
    pending = flow.state.pending
    fought = by_id(flow.state.monsters, pending.monster)
    flow.emit(RollAccepted(active(flow.state).seat, pending.check, pending.successes, pending.difficulty))
    _after_check(flow, pending.check, fought, False, rng)
    return None


def _after_check(flow: _Flow, check: str, fought: Any, passed: bool, rng: Any) -> None:
    """What a settled check leads to (AH-C2, AH-C3, AH-C6), then AH-C4 once the dust settles."""
    seat = active(flow.state).seat
    if check == "evade":
        if passed:
            flow.emit(MonsterEvaded(seat, fought.id, "AH-C2"))
            return
        _lose(flow, "stamina", fought.combat_damage, fought, "AH-C2")
        if flow.edition > 2 and collapsing(active(flow.state)):
            # AH-C4: at 0 Stamina it is knocked unconscious at once and its movement ends: the battle
            # the failed evade would open is never fought, so no Horror check is rolled (arkham-3)
            _settle(flow)
            return
        flow.emit(CombatBegan(seat, fought.id, "evade failed", flow.state.points))
        _horror(flow, fought, rng)  # AH-C2: the Horror check still follows
        return
    if check == "horror":
        if not passed:
            _lose(flow, "sanity", fought.horror_damage, fought, "AH-C3")
        elif fought.nightmarish:
            _lose(flow, "sanity", fought.nightmarish, fought, "AH-C6")
    elif check == "combat":
        if passed:
            flow.emit(MonsterDefeated(seat, fought.id, fought.name))
            if fought.overwhelming:
                _lose(flow, "stamina", fought.overwhelming, fought, "AH-C6")
            flow.emit(CombatEnded(seat, fought.id, "defeated"))
        else:
            _lose(flow, "stamina", fought.combat_damage, fought, "AH-C3")
    elif check == "flee":
        if passed:
            flow.emit(CombatEnded(seat, fought.id, "fled"))
        else:
            _lose(flow, "stamina", fought.combat_damage, fought, "AH-C3")
    _settle(flow)


def _lose(flow: _Flow, stat: str, amount: int, fought: Any, rule: str) -> None:
    if amount <= 0:
        return
    inv = active(flow.state)
    left = max(0, getattr(inv, stat) - amount)
    flow.emit(StatLost(inv.seat, stat, amount, left, fought.id, rule))


def collapsing(inv: Any) -> bool:
    """AH-C4: at 0 Stamina or Sanity; it collapses once the check under way has settled (``_settle``)."""
    return inv.stamina <= 0 or inv.sanity <= 0


def _settle(flow: _Flow) -> None:
    """AH-C4: at 0 Stamina or Sanity the investigator collapses, and its movement ends."""
    inv = active(flow.state)
    if not collapsing(inv):
        return
    if flow.state.combat:
        flow.emit(CombatEnded(inv.seat, flow.state.combat, "collapsed"))
    flow.emit(*collapse(flow.state, flow.state.active))
    _end_turn(flow)


def collapse(state: State, index: int) -> list:
    """The events of AH-C4 for an investigator at 0 Stamina and/or Sanity, wherever it is."""
    inv = state.investigators[index]
    if inv.stamina <= 0 and inv.sanity <= 0:
        return [Devoured(inv.seat, inv.where)]
    stat = "sanity" if inv.sanity <= 0 else "stamina"
    condition = "insane" if stat == "sanity" else "unconscious"
    here = by_id(state.board.areas, inv.where)
    if here is None or here.kind not in boards.ARKHAM_KINDS:  # AH-C4: in an Other World, Lost in Time and Space
        return [KnockedOut(inv.seat, condition, inv.where, LOST, 0, stat)]
    to = ASYLUM if stat == "sanity" else HOSPITAL
    return [KnockedOut(inv.seat, condition, inv.where, to, inv.clues // 2, stat)]


# --- Other Worlds and Lost in Time and Space --------------------------------------------------------


def _return(flow: _Flow, command: Return, rng: Any) -> Rejection | None:
    state = flow.state
    inv = active(state)
    world = by_id(state.board.worlds, by_id(state.board.areas, inv.where).world)
    gates = gates_to(state, world.id)
    if command.location not in gates:
        return refuse("AH-11", "reject.arkham.no_gate", "no open gate to {world} at {area} (open gates to it: "
                      "{gates})", world=named(world.id, world.name), area=_area(state, command.location),
                      gates=tuple(_area(state, location) for location in gates))
    flow.emit(ReturnedThroughGate(inv.seat, world.id, inv.where, command.location))
    there = tuple(item.id for item in monsters_in(flow.state, command.location))
    if there:
        flow.emit(MonstersIgnored(inv.seat, command.location, there))
    return None


def _place(flow: _Flow, command: Place, rng: Any) -> Rejection | None:
    state = flow.state
    target = by_id(state.board.areas, command.area)
    if target is None or target.kind not in boards.ARKHAM_KINDS:
        shown = named(target.id, target.name) if target is not None else repr(command.area)
        return refuse("AH-C5", "reject.arkham.place_where", "a Lost investigator comes back to a Location or Street "
                      "area of Arkham, not {area}", area=shown)
    seat = active(state).seat
    flow.emit(PlacedInArkham(seat, target.id), StoodUp(seat))
    return None


# --- trading ----------------------------------------------------------------------------------------


def _offer_trade(flow: _Flow, command: OfferTrade, rng: Any, offerer: int | None = None) -> Rejection | None:
    """The offer of the mover, or (arkham-5) of the investigator at index ``offerer`` (AH-C10)."""
    state = flow.state
    own = state.active if offerer is None else offerer
    mover = state.investigators[own]
    index = seat_index(state, command.partner)
    if index < 0 or index == own:
        return refuse("AH-C10", "reject.arkham.trade_partner", "a trade needs another investigator's seat, got "
                      "'{partner_seat}'", partner_seat=command.partner)
    partner = state.investigators[index]
    if partner.devoured or partner.where != mover.where:
        return refuse("AH-C10", "reject.arkham.trade_apart", "{name} is not in {area} with {mover}: only investigators "
                      "in the same area trade", name=partner.name, area=_area(state, mover.where), mover=mover.name)
    for items, owner in ((command.give, mover), (command.take, partner)):
        missing = _missing(owner.items, items)
        if missing:
            return refuse("AH-C10", "reject.arkham.not_carried", "{name} does not carry '{item}' to trade",
                          name=owner.name, item=missing)
    if not command.give and not command.take:
        return refuse("AH-C10", "reject.arkham.empty_trade", "a trade gives or takes at least one item")
    flow.emit(TradeOffered(mover.seat, partner.seat, command.give, command.take))
    return None


def _missing(items: tuple, wanted: tuple) -> str:
    left = list(items)
    for item in wanted:
        if item not in left:
            return item
        left.remove(item)
    return ""


def _answer_trade(state: State, command: AnswerTrade) -> list | Rejection:
    offer = state.offer
    return [TradeAnswered(offer.seat, offer.partner, offer.give, offer.take, command.accept)]


_MOVE_PHASE = {Move: _move, Stop: _stop, Evade: _evade, Fight: _fight, OfferTrade: _offer_trade}
_COMBAT_PHASE = {Fight: _fight, Flee: _flee}
_SPEND_PHASE = {SpendClue: _spend_clue, AcceptRoll: _accept_roll}
_CLUES_PHASE = {TakeClues: _take_clues}
_RETURN_PHASE = {Return: _return}
_PLACE_PHASE = {Place: _place}


# --- turns -----------------------------------------------------------------------------------------


def _begin(flow: _Flow) -> bool:
    """The active seat's movement begins (AH-1); False if it was over at once (nothing to choose)."""
    state = flow.state
    inv = active(state)
    if inv.where == LOST:
        flow.emit(PlacementOffered(inv.seat))  # AH-C5: its player picks where it comes back
        return True
    here = by_id(state.board.areas, inv.where)
    if here.kind == "other_world":
        flow.emit(MovementBegan(inv.seat, inv.where, 0, "AH-9"))
        if inv.delayed:
            flow.emit(StoodUp(inv.seat))
            return False
        world = by_id(state.board.worlds, here.world)
        if here.order == 1:
            flow.emit(MovedInOtherWorld(inv.seat, inv.where, world.areas[1]))
            return False
        gates = gates_to(state, world.id)
        if gates:
            flow.emit(GateChoiceOffered(inv.seat, world.id, gates))
            return True
        flow.emit(LostInTimeAndSpace(inv.seat, inv.where, "AH-12"))
        return False
    if inv.delayed:
        flow.emit(MovementBegan(inv.seat, inv.where, 0, "AH-C7"), StoodUp(inv.seat))
        return True
    flow.emit(MovementBegan(inv.seat, inv.where, inv.speed, "AH-2"))
    return True


def _end_turn(flow: _Flow) -> None:
    """AH-1: the next investigator moves; after the last one the next round (Movement phase) begins."""
    while True:
        state = flow.state
        count = len(state.investigators)
        if all(inv.devoured for inv in state.investigators):
            flow.emit(GameEnded(state.round, "every investigator is devoured"))
            return
        for step in range(1, count + 1):
            index = (state.active + step) % count
            if not state.investigators[index].devoured:
                break
        round = state.round + (state.active + step) // count
        flow.emit(TurnEnded(active(state).seat, state.investigators[index].seat, round))
        if round > state.rounds:
            flow.emit(GameEnded(state.rounds, "the last Movement phase is over"))
            return
        if _begin(flow):
            return


# --- evolve ----------------------------------------------------------------------------------------


def _with_investigator(s: State, seat: str, **changes: Any) -> tuple:
    i = seat_index(s, seat)
    return s.investigators[:i] + (s.investigators[i].but(**changes),) + s.investigators[i + 1 :]


def _set_clues(clues: tuple, area: str, count: int) -> tuple:
    return tuple(sorted([(place, n) for place, n in clues if place != area] + ([(area, count)] if count else [])))


def evolve(state: Any, event: Any) -> State:
    """One event folded into a new state; the input is never touched."""
    s = state
    match event:
        case GameStarted():
            return initial_state(event)
        case MovementBegan(seat, _area, points, rule):
            return s.but(step="move", points=points, halt="" if rule == "AH-2" else rule, dealt=(), combat="",
                         pending=None)
        case StoodUp(seat):
            return s.but(investigators=_with_investigator(s, seat, delayed=False))
        case InvestigatorMoved(seat, _start, to, _aim, _path, points_left):
            return s.but(investigators=_with_investigator(s, seat, where=to, explored=""), points=points_left,
                         dealt=())
        case MovedInOtherWorld(seat, _start, to):
            return s.but(investigators=_with_investigator(s, seat, where=to))
        case GateChoiceOffered():
            return s.but(step="return")
        case ReturnedThroughGate(seat, _world, _start, location):
            return s.but(investigators=_with_investigator(s, seat, where=location, explored=location), step="move",
                         points=0, halt="AH-9", dealt=())
        case MonstersIgnored(_seat, _location, monsters):
            return s.but(dealt=tuple(sorted(set(s.dealt) | set(monsters))))
        case LostInTimeAndSpace(seat, _start, _rule):
            return s.but(investigators=_with_investigator(s, seat, where=LOST, delayed=True, explored=""), step="done")
        case PlacementOffered():
            return s.but(step="place")
        case PlacedInArkham(seat, area):
            return s.but(investigators=_with_investigator(s, seat, where=area), step="move", points=0, halt="AH-C7",
                         dealt=())
        case MonsterEvaded(_seat, monster_id, _rule):
            if s.combat == monster_id:
                return s  # arkham-6's flee from an Elusive monster (AH-C6): its CombatEnded marks it got past
            return s.but(dealt=tuple(sorted(s.dealt + (monster_id,))))
        case CheckRolled():
            return s
        case ClueSpendOffered(_seat, check, monster_id, rolls, successes, difficulty, face):
            return s.but(pending=Pending(check, monster_id, rolls, successes, difficulty, face))
        case ClueSpent(seat, _check, roll, successes, _difficulty, _passed, settled):
            inv = s.investigators[seat_index(s, seat)]
            p = s.pending
            pending = None if settled else p.but(rolls=p.rolls + (roll,), successes=successes)
            return s.but(investigators=_with_investigator(s, seat, clues=inv.clues - 1), pending=pending)
        case RollAccepted():
            return s.but(pending=None)
        case StatLost(seat, stat, _amount, left, _monster, _rule):
            return s.but(investigators=_with_investigator(s, seat, **{stat: left}))
        case CombatBegan(_seat, monster_id, _cause, _points_lost):
            return s.but(combat=monster_id, points=0, halt="AH-8")
        case MonsterDefeated(seat, monster_id, name):
            inv = s.investigators[seat_index(s, seat)]
            return s.but(investigators=_with_investigator(s, seat, trophies=inv.trophies + ((monster_id, name),)),
                         monsters=tuple(item for item in s.monsters if item.id != monster_id), combat="")
        case CombatEnded(_seat, monster_id, outcome):
            dealt = tuple(sorted(s.dealt + (monster_id,))) if outcome == "fled" else s.dealt
            return s.but(combat="", dealt=dealt)
        case KnockedOut(seat, _condition, _start, to, clues_lost, stat):
            inv = s.investigators[seat_index(s, seat)]
            return s.but(investigators=_with_investigator(s, seat, where=to, clues=inv.clues - clues_lost,
                                                          explored="", delayed=inv.delayed or to == LOST,
                                                          **{stat: 1}),
                         step="done", points=0, combat="", pending=None, dealt=())
        case Devoured(seat, _start):
            return s.but(investigators=_with_investigator(s, seat, where="", explored="", devoured=True),
                         step="done", points=0, combat="", pending=None, dealt=())
        case MovementEnded(_seat, _area, _points_lost, clues):
            return s.but(step="clues" if clues else "done", points=0)
        case CluesTaken(seat, area, count, left):
            inv = s.investigators[seat_index(s, seat)]
            return s.but(investigators=_with_investigator(s, seat, clues=inv.clues + count),
                         clues=_set_clues(s.clues, area, left), step="done")
        case TradeOffered(seat, partner, give, take):
            return s.but(offer=Offer(seat, partner, give, take))
        case TradeAnswered(seat, partner, give, take, accepted):
            if not accepted:
                return s.but(offer=None)
            mover = s.investigators[seat_index(s, seat)]
            other = s.investigators[seat_index(s, partner)]
            after = s.but(investigators=_with_investigator(s, seat, items=_swap(mover.items, give, take)))
            return after.but(investigators=_with_investigator(after, partner, items=_swap(other.items, take, give)),
                             offer=None)
        case TurnEnded(_seat, next_seat, round):
            return s.but(active=seat_index(s, next_seat), round=round, step="begin", points=0, halt="", dealt=(),
                         combat="", pending=None, offer=None)
        case GameEnded():
            return s.but(over=True)
        case SecretRevealed():
            return s  # CORE-2: the core's own event, after the last command; it changes no state
        case RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return s  # CORE-3, CORE-10, CORE-11: the core's own events; they change rules, not state
    raise TypeError(f"arkham cannot fold an event of type {type(event).__name__}")


def _swap(items: tuple, out: tuple, into: tuple) -> tuple:
    left = list(items)
    for item in out:
        left.remove(item)
    return tuple(left) + into

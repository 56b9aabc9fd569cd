"""Echo's Movement phase as a decider: start, decide, evolve, legal, turn (shared/rules/echo.md).

A round (EC-2, EC-C3): every living investigator gets Speed movement points, then the seats move
one after another, a step per ``Move``, until each sends ``EndMove``. An investigator in a place
with enemies it has not evaded must evade (EC-4) or fight (EC-3) before it may leave or end its
move (EC-15). A fight (``Combat``) is a series of rounds whose steps wait for one seat's command
at a time (the prompt queue, EC-C3): the strike-order check (EC-7, EC-8, EC-16), the first
strikes (EC-9…EC-12), the enemies' attacks, each rolled by the seat to the fighter's left (EC-13,
EC-14), the strikes of those who go second, the round's movement cost (EC-15) and, after it, a
new evasion or fighting on (EC-5). Whatever follows a command without a choice (the next step,
the end of a fight, the next seat's turn, a new round) is decided in the same ``decide`` call and
written as events, so ``evolve`` only applies facts.
"""

from __future__ import annotations

from events.canonical import canonical_json
from events.game import Flow, GameStarted, Guards, RulesVersionChanged, SecretRevealed, over_flag
from events.games.echo import board as boards
from events.games.echo.dice import dice_count, hits, passed, roll
from events.games.echo.model import (
    CheckOrder,
    Combat,
    CombatBegan,
    CombatEnded,
    CombatLeft,
    CombatRoundEnded,
    CombatStepBegan,
    DetainedExchanged,
    EndMove,
    EnemyAttacked,
    EnemyDamaged,
    EnemyDetained,
    EnemyKilled,
    Evade,
    EvasionRolled,
    Exchange,
    Fight,
    FightContinued,
    FixedDamageDealt,
    GameEnded,
    InvestigatorDied,
    InvestigatorMoved,
    InvestigatorSentAway,
    ItemStruck,
    ItemTraded,
    Move,
    Pass,
    PowerPaid,
    RollAttack,
    RoundBegan,
    SpellCast,
    State,
    Strike,
    StrikeOrderRolled,
    StrikeOrderSet,
    StrikePassed,
    Trade,
    TurnEnded,
)
from events.lookup import by_id, by_id_or_raise
from events.rules import Named, Phrase, Rejection, named, phrase, refuse
from events.upgrade import RulesVersionAnswered, RulesVersionProposed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Recorded in every GameStarted.
RULES_VERSION = "echo-3"
# echo-2: the round in which a fight ends costs 1 movement point too (EC-15); a failed evasion's EC-8 lasts
# its whole round (StrikeOrderSet.holds); enemy attacks in a group fight cite EC-16's reading. An echo-1 log
# still folds to the very states (and hashes) it logged: both new fields default to echo-1's meaning.
# echo-3: an investigator that goes to the Dark Side (EC-19) where an enemy stands must still defeat or
# escape it before its move is over (EC-15, EC-3), as anywhere else; echo-2 ended its turn at once. An
# enemy every fighter has escaped makes no group fight (EC-16 only for several investigators or enemies fought).

#: The checks before every decide (events.game.Guards): not started, over, unknown seat (EC-C3), and a
#: command of no Movement phase (EC-1).
GUARDS = Guards(
    "EC-C3", over="the game is over after round {round}", foreign_rule="EC-1", keys="reject.echo",
    foreign="{command} is not a command of the Movement phase: investigators move, evade, fight and trade items",
)

SKILLS = ("speed", "stealth", "attention", "knowledge", "intuition")
SKILL_NAMES = {"speed": "Speed", "stealth": "Stealth", "attention": "Attention", "knowledge": "Knowledge",
               "intuition": "Intuition"}


# --- start -----------------------------------------------------------------------------------------


def start(scenario: dict, commitment: str) -> list:
    """The first events: the scenario validated (raises ScenarioError) and recorded whole, then round 1."""
    setup = boards.load_scenario(scenario)
    flow = Flow(None, evolve)
    flow.emit(GameStarted("echo", RULES_VERSION, commitment, setup.seats, canonical_json(scenario)))
    flow.emit(_round_began(flow.state, 1))
    return flow


def initial_state(event: GameStarted) -> State:
    """The state a GameStarted describes: investigators and enemies where the scenario puts them."""
    import json

    setup = boards.load_scenario(json.loads(event.scenario))
    return State(setup.title, setup.map, setup.cards, setup.seats, setup.investigators, setup.enemies, 0, 0,
                 setup.rounds, (), None, False)


def _round_began(state: State, number: int) -> RoundBegan:
    """EC-2: each living investigator's movement points are its Speed; the first living seat moves."""
    alive = [inv for inv in state.investigators if inv.alive]
    return RoundBegan(number, tuple((inv.seat, inv.speed) for inv in alive), alive[0].seat)


# --- questions about a state -----------------------------------------------------------------------


def seat_index(state: State, seat: str) -> int:
    for index, name in enumerate(state.seats):
        if name == seat:
            return index
    return -1


def investigator(state: State, seat: str) -> Any:
    return state.investigators[seat_index(state, seat)]


def left_of(state: State, seat: str) -> str:
    """The seat to the left of ``seat``: the next one in seat order, wrapping round (EC-13, EC-C3)."""
    return state.seats[(seat_index(state, seat) + 1) % len(state.seats)]


def card_of(state: State, eid: str) -> Any:
    return by_id_or_raise(state.cards.enemies, by_id(state.enemies, eid).card, "enemy card")


def enemy_name(state: State, eid: str) -> str:
    card = card_of(state, eid)
    return f"{card.name_en} ({eid})"


def place_name(state: State, lid: str) -> str:
    place = by_id(state.map.locations, lid)
    return f"{place.name_en} / {place.name_ru}" if place is not None else repr(lid)


# --- names in a refusal (said by the page in its reader's language, issue 17) ------------------------


def _place(state: State, lid: str) -> Named | str:
    """``place_name`` as a thing of the data: English and Russian from the map, French from its names."""
    place = by_id(state.map.locations, lid)
    if place is None:
        return repr(lid)
    return named(place.name_en, f"{place.name_en} / {place.name_ru}", ru=place.name_ru)


def _card(card: Any) -> Named:
    """An investigator's, an item's or a spell's name (the data's English and Russian)."""
    return named(card.name_en, card.name_en, ru=card.name_ru)


def _enemy(state: State, eid: str) -> Phrase:
    """An enemy by its card's name, as the log names it (issue 17: never its id)."""
    return phrase("reject.echo.enemy", "{card}", card=_card(card_of(state, eid)))


def _enemies(state: State, ids: tuple) -> tuple:
    """Enemies by name; an id no enemy of the state has stays as it is."""
    return tuple(_enemy(state, eid) if by_id(state.enemies, eid) is not None else eid for eid in ids)


def _awaited(state: State, edition: int = 2) -> Phrase:
    """What the fight waits for (``_waiting``), as a message. From echo-3 (``edition`` 3) several
    investigators may strike at the same time, in any order (EC-9): the message names them all."""
    kind, actor, fighter, eid = prompt(state)
    if kind == "order":
        return phrase("reject.echo.waits_order", "{seat} must make the strike-order check", seat=actor)
    if kind == "strike":
        several = strikers(state) if edition > 2 else ()
        if len(several) > 1:
            return phrase("reject.echo.waits_strikers", "{seats} may strike now, in any order", seats=several)
        return phrase("reject.echo.waits_strike", "{seat} must strike", seat=actor)
    if kind == "attack":
        return phrase("reject.echo.waits_attack", "{seat} must roll the dice of {enemy} against {fighter_seat}'s "
                      "investigator", seat=actor, enemy=_enemy(state, eid), fighter_seat=fighter)
    return phrase("reject.echo.waits_after", "{seat} must choose to evade again or fight on", seat=actor)


def _dead(seat: str) -> Rejection:
    return refuse("EC-18", "reject.echo.dead", "{seat}'s investigator is dead", seat=seat)


#: A skill, and a combat round's step (EC-6), named in a reason.
SKILL_WORDS = {"speed": ("reject.echo.skill_speed", "Speed"), "stealth": ("reject.echo.skill_stealth", "Stealth"),
               "attention": ("reject.echo.skill_attention", "Attention"),
               "knowledge": ("reject.echo.skill_knowledge", "Knowledge"),
               "intuition": ("reject.echo.skill_intuition", "Intuition")}  # SKILL_NAMES, as messages
STEP_WORDS = {"order": ("reject.echo.step_order", "order"), "first": ("reject.echo.step_first", "first"),
              "attack": ("reject.echo.step_attack", "attack"), "second": ("reject.echo.step_second", "second")}


def enemies_at(state: State, lid: str) -> tuple:
    """The active enemies in a place, in scenario order."""
    return tuple(item for item in state.enemies if item.location == lid and item.status == "active")


def unescaped(state: State, seat: str) -> tuple:
    """Active enemies in the investigator's place that it has not evaded (EC-3)."""
    inv = investigator(state, seat)
    return tuple(item for item in enemies_at(state, inv.location) if item.id not in inv.escaped)


def combat_enemies(state: State) -> tuple:
    """Ids of the enemies still in the fight (active), in the fight's order."""
    combat = state.combat
    return tuple(eid for eid in combat.enemies if by_id(state.enemies, eid).status == "active")


def targets(state: State, seat: str) -> tuple:
    """The enemies of the fight that this investigator has not escaped: those it fights (EC-16)."""
    escaped = investigator(state, seat).escaped
    return tuple(eid for eid in combat_enemies(state) if eid not in escaped)


def weapons(state: State, seat: str) -> tuple:
    """Cards this investigator can strike with: items that deal damage, spells castable in combat (EC-9, EC-11)."""
    inv = investigator(state, seat)
    out = []
    for cid in inv.items:
        card = by_id(state.cards.items, cid)
        if card.sanity or card.health:
            out.append(cid)
    for cid in inv.spells:
        if by_id(state.cards.spells, cid).combat:
            out.append(cid)
    return tuple(out)


def prompt(state: Any) -> tuple | None:
    """The combat step waiting now, ``(kind, actor, seat, enemy)``, or None."""
    if state is None or state.combat is None or not state.combat.queue:
        return None
    return state.combat.queue[0]


def current_seat(state: State) -> str:
    return state.seats[state.turn]


def turn(state: Any) -> tuple:
    """The seats that may act now: the prompt's actor during a fight, else the moving seat (EC-C3);
    while investigators strike (EC-7, EC-9), every seat whose strike is waiting (echo-3: the text
    sets no order among those who strike at the same time)."""
    return _turn(state, 3)


def turn_2(state: Any) -> tuple:
    """``turn`` up to echo-2: the strikes too one seat at a time, in seat order."""
    return _turn(state, 2)


def strikers(state: State) -> tuple:
    """The seats of the strike prompts at the head of the queue (EC-7, EC-9), in seat order."""
    out = []
    for kind, _actor, seat, _enemy in state.combat.queue if state.combat is not None else ():
        if kind != "strike":
            break
        out.append(seat)
    return tuple(out)


def _turn(state: Any, edition: int) -> tuple:
    if state is None or state.over:
        return ()
    waiting = prompt(state)
    if waiting is not None:
        if edition > 2 and waiting[0] == "strike":
            return strikers(state)
        return (waiting[1],)
    return (current_seat(state),)


def seats(state: Any) -> tuple:
    return () if state is None else state.seats


#: Over once GameEnded set the state's ``over`` flag (events.game.over_flag).
is_over = over_flag


def legal(state: Any, seat: str) -> list:
    """The commands ``decide`` accepts from ``seat`` now (Trade and Exchange only on its own turn here; echo-3)."""
    return _legal(state, seat, 3)


def legal_2(state: Any, seat: str) -> list:
    """``legal`` up to echo-2: only the first striker in seat order may strike."""
    return _legal(state, seat, 2)


def _legal(state: Any, seat: str, edition: int) -> list:
    if seat not in _turn(state, edition):
        return []
    waiting = prompt(state)
    if waiting is not None:
        kind = waiting[0]
        if kind == "order":
            return [CheckOrder("attention")] + ([CheckOrder("stealth")] if state.combat.round == 1 else [])
        if kind == "strike":
            return [Strike(eid, cid) for eid in targets(state, seat) for cid in weapons(state, seat)] + [Pass()]
        if kind == "attack":
            return [RollAttack()]
        return [Evade(eid) for eid in targets(state, seat)] + [Fight()]
    inv = investigator(state, seat)
    blocking = unescaped(state, seat)
    if blocking:
        return [Evade(item.id) for item in blocking] + [Fight()]
    out: list = []
    if inv.mp >= 1:
        out += [Move(place) for place, _kind in boards.neighbours(state.map)[inv.location]
                if place != state.map.dark_side]
        if inv.location in state.map.ministry:
            out.append(Move(state.map.dark_side))
    out.append(EndMove())
    out += [Exchange(eid) for eid in inv.detained]
    for other in state.investigators:
        if other.seat != seat and other.alive and other.location == inv.location:
            out += [Trade(cid, other.seat) for cid in inv.items]
    return out


# --- decide ----------------------------------------------------------------------------------------


def decide(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """A command becomes events, or a Rejection citing the clause that forbids it (echo-3)."""
    return _decide(state, seat, command, rng, 3)


def decide_2(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """echo-2 as released: going to the Dark Side ends the turn at once, even with an enemy there."""
    return _decide(state, seat, command, rng, 2)


def decide_1(state: Any, seat: str, command: Any, rng: Any) -> list | Rejection:
    """echo-1 as released: the round in which a fight ends costs no movement point, a failed
    evasion's EC-8 lasts only until its strike order is set, every enemy attack cites EC-13."""
    return _decide(state, seat, command, rng, 1)


def _decide(state: Any, seat: str, command: Any, rng: Any, edition: int) -> list | Rejection:
    """``decide`` of rules edition 1 (echo-1) to 3 (echo-3): the editions differ only where ``edition`` is read."""
    if isinstance(command, Trade):
        outcome = _trade(state, seat, command)
    elif isinstance(command, Exchange):
        outcome = _exchange(state, seat, command)
    elif not investigator(state, seat).alive and not isinstance(command, RollAttack):
        return _dead(seat)
    elif state.combat is not None:
        outcome = _in_combat(state, seat, command, rng, edition)
    else:
        outcome = _moving(state, seat, command, rng, edition)
    if isinstance(outcome, Rejection):
        return outcome
    flow = Flow(state, evolve)
    flow.emit(*outcome)
    _follow(flow, edition)
    return flow


def _follow(flow: Flow, edition: int) -> None:
    """Everything that happens next without anyone's choice, until a seat must act."""
    while True:
        more = _automatic(flow.state, edition)
        if not more:
            return
        flow.emit(*more)


def _automatic(state: State, edition: int) -> list:
    if state.over:
        return []
    combat = state.combat
    if combat is not None:
        live = combat_enemies(state)
        for seat in combat.seats:
            escaped = investigator(state, seat).escaped
            if live and all(eid in escaped for eid in live):
                return [CombatLeft(seat)]
        if not live:  # enemies fall only to strikes, so always within a round that is not paid yet
            ended = CombatEnded(combat.location, "every enemy of the fight is detained or dead")
            return [ended] if edition == 1 else [_round_cost(state), ended]
        if not combat.seats:
            return [CombatEnded(combat.location, "no investigator is left in the fight")]
        if combat.queue:
            return []
        return _next_step(state, edition)
    current = state.investigators[state.turn]
    if not current.alive:
        return _end_turn(state)
    if current.seat in state.finished:
        if edition > 2 and current.location == state.map.dark_side and unescaped(state, current.seat):
            return []  # EC-19 ended the move, but EC-15: every enemy here is defeated or escaped first
        return _end_turn(state)
    return []


def _next_step(state: State, edition: int) -> list:
    """EC-6: order, first strikes, the enemies' attacks, second strikes, the round's cost, then after."""
    combat = state.combat
    step = combat.step
    number = combat.round
    if step == "after":
        number += 1
        queue = tuple(("order", seat, seat, None) for seat in combat.seats if seat not in combat.forced)
        events: list = [CombatStepBegan(number, "order", queue)]
        for seat in combat.seats:
            if seat in combat.forced:
                events.append(StrikeOrderSet(seat, False, "its evasion failed: no strike-order check, the enemies "
                                             "strike first", "EC-8", edition > 1))
        return events
    if step == "order":
        return [CombatStepBegan(number, "first", tuple(("strike", seat, seat, None) for seat in combat.seats
                                                       if seat in combat.first))]
    if step == "first":
        queue = tuple(("attack", left_of(state, seat), seat, eid) for seat in combat.seats
                      for eid in targets(state, seat))
        return [CombatStepBegan(number, "attack", queue)]
    if step == "attack":
        return [CombatStepBegan(number, "second", tuple(("strike", seat, seat, None) for seat in combat.seats
                                                        if seat not in combat.first))]
    return [_round_cost(state),
            CombatStepBegan(number, "after", tuple(("after", seat, seat, None) for seat in combat.seats))]


def _round_cost(state: State) -> CombatRoundEnded:
    """EC-15: each combat round costs every investigator still in the fight 1 movement point (never below 0)."""
    combat = state.combat
    return CombatRoundEnded(combat.round, tuple((seat, max(0, investigator(state, seat).mp - 1))
                                                for seat in combat.seats))


def _end_turn(state: State) -> list:
    """EC-C3: the next living seat that has not finished moves; after the last, a new round or the end."""
    index = state.turn
    seat = state.seats[index]
    for later in range(index + 1, len(state.seats)):
        other = state.investigators[later]
        if other.alive and other.seat not in state.finished:
            return [TurnEnded(seat, other.seat, state.round)]
    if not any(inv.alive for inv in state.investigators):
        return [TurnEnded(seat, None, state.round), GameEnded(state.round, "no investigator is alive")]
    if state.round >= state.rounds:
        return [TurnEnded(seat, None, state.round), GameEnded(state.round, f"all {state.rounds} rounds are played")]
    began = _round_began(state, state.round + 1)
    return [TurnEnded(seat, began.first, began.round), began]


# --- moving (no fight under way) -------------------------------------------------------------------


def _moving(state: State, seat: str, command: Any, rng: Any, edition: int = 3) -> list | Rejection:
    """A command outside any fight. Its rules are checked first, for any seat; only a command that no
    rule forbids is refused for being out of turn (EC-C3), so a seat learns why it could never do it."""
    current = current_seat(state)
    if isinstance(command, RollAttack):
        return refuse("EC-13", "reject.echo.no_fight_roll", "no enemy attack is waiting to be rolled: no fight is "
                      "under way")
    if isinstance(command, (CheckOrder, Strike, Pass)):
        return refuse("EC-6", "reject.echo.no_fight", "no fight is under way: {command} belongs to a combat round",
                      command=type(command).__name__)
    inv = investigator(state, seat)
    blocking = unescaped(state, seat)
    here = _place(state, inv.location)
    refused = None
    moved: list | Rejection = []
    if isinstance(command, Move):
        moved = _move(state, inv, command.to, blocking)
        refused = moved if isinstance(moved, Rejection) else None
    elif isinstance(command, EndMove):
        if blocking:
            names = _enemies(state, tuple(item.id for item in blocking))
            if len(blocking) == 1:
                refused = refuse("EC-15", "reject.echo.end_blocked", {
                    "one": "{enemies} is in {place}: even with {n} movement point left, {name} must defeat every "
                           "enemy here or escape them all",
                    "other": "{enemies} is in {place}: even with {n} movement points left, {name} must defeat every "
                             "enemy here or escape them all"}, enemies=names, place=here, n=inv.mp, name=_card(inv))
            else:
                refused = refuse("EC-15", "reject.echo.end_blocked_several", {
                    "one": "{enemies} are in {place}: even with {n} movement point left, {name} must defeat every "
                           "enemy here or escape them all",
                    "other": "{enemies} are in {place}: even with {n} movement points left, {name} must defeat every "
                             "enemy here or escape them all"}, enemies=names, place=here, n=inv.mp, name=_card(inv))
    elif isinstance(command, Evade):
        target = by_id(state.enemies, command.enemy)
        if target is None or target.status != "active" or target.location != inv.location:
            refused = refuse("EC-4", "reject.echo.no_enemy_to_evade", "there is no enemy '{id}' to evade in {place}",
                             id=command.enemy, place=here)
        elif target.id in inv.escaped:
            refused = refuse("EC-4", "reject.echo.already_evaded", "{name} has already evaded {enemy}",
                             name=_card(inv), enemy=_enemy(state, target.id))
    elif not blocking:  # Fight
        refused = refuse("EC-3", "reject.echo.no_enemy_to_fight", "there is no enemy to fight in {place}", place=here)
    if refused is not None:
        return refused
    if seat != current:
        return refuse("EC-C3", "reject.echo.turn", "it is {seat}'s movement, not {other_seat}'s", seat=current,
                      other_seat=seat)
    if isinstance(command, Move):
        return moved
    if isinstance(command, EndMove):
        return _end_turn(state)
    if isinstance(command, Evade):
        rolled = _evasion(state, inv, command.enemy, rng, "EC-4")
        if rolled.success:
            return [rolled]
        return [rolled, _begin_combat(state, seat, (seat,), "EC-4", edition)]
    return [_begin_combat(state, seat, (), "EC-3", edition)]


def _move(state: State, inv: Any, to: Any, blocking: tuple) -> list | Rejection:
    here = _place(state, inv.location)
    if by_id(state.map.locations, to) is None:
        return refuse("EC-C1", "reject.echo.no_location", "there is no location '{id}' on this map", id=to)
    if blocking:
        names = _enemies(state, tuple(item.id for item in blocking))
        if len(blocking) == 1:
            return refuse("EC-3", "reject.echo.leave_blocked", "{enemies} is in {place}: to leave, {name} must evade "
                          "or defeat it", enemies=names, place=here, name=_card(inv))
        return refuse("EC-3", "reject.echo.leave_blocked_several", "{enemies} are in {place}: to leave, {name} must "
                      "evade or defeat each of them", enemies=names, place=here, name=_card(inv))
    board = state.map
    if to == board.dark_side:
        if inv.location not in board.ministry:
            return refuse("EC-19", "reject.echo.dark_side_from", "the Dark Side is reached only from a Ministry of "
                          "Perfect Order location, and {place} is not one", place=here)
        if inv.mp < 1:
            return refuse("EC-19", "reject.echo.dark_side_cost", "going to the Dark Side costs 1 movement point; "
                          "{name} has none left", name=_card(inv))
        return [InvestigatorMoved(inv.seat, inv.location, to, "dark-side", 1, inv.mp - 1, "EC-19")]
    links = dict(boards.neighbours(board)[inv.location])
    if to not in links:
        return refuse("EC-2", "reject.echo.not_joined", "{to} is not joined to {place} by a white arrow or the Dark "
                      "Path", to=_place(state, to), place=here)
    if inv.mp < 1:
        return refuse("EC-2", "reject.echo.no_mp", "a step costs 1 movement point; {name} has spent all {speed} "
                      "(Speed {speed})", name=_card(inv), speed=inv.speed)
    return [InvestigatorMoved(inv.seat, inv.location, to, links[to], 1, inv.mp - 1, "EC-2")]


def _evasion(state: State, inv: Any, eid: str, rng: Any, rule: str) -> EvasionRolled:
    """EC-4: Stealth − the enemy's evasion penalty dice; a 5 or 6 succeeds; no dice fails."""
    penalty = card_of(state, eid).evasion
    dice = roll(rng, dice_count(inv.stealth, penalty))
    return EvasionRolled(inv.seat, eid, inv.stealth, penalty, dice, passed(dice), rule)


def _begin_combat(state: State, seat: str, forced: tuple, rule: str, edition: int = 3) -> CombatBegan:
    """EC-16: every investigator here that has not escaped all enemies here fights, in seat order from ``seat``."""
    here = investigator(state, seat).location
    present = tuple(item.id for item in enemies_at(state, here))
    start = seat_index(state, seat)
    order = state.seats[start:] + state.seats[:start]
    fighters = []
    for name in order:
        other = investigator(state, name)
        if other.alive and other.location == here and not all(eid in other.escaped for eid in present):
            fighters.append(name)
    # EC-16 for a group: several investigators, or several enemies fought (echo-3: an enemy every fighter
    # has escaped fights nobody, so it makes no group; echo-2 counted every enemy present)
    fought = present if edition < 3 else tuple(
        eid for eid in present if any(eid not in investigator(state, name).escaped for name in fighters))
    if rule == "EC-3" and (len(fighters) > 1 or len(fought) > 1):
        rule = "EC-16"
    return CombatBegan(here, tuple(fighters), present, forced, rule)


# --- a fight under way -----------------------------------------------------------------------------


def _no_roll_waits(state: State, edition: int = 2) -> Rejection:
    return refuse("EC-13", "reject.echo.no_roll_waits", "no enemy attack is waiting to be rolled: {waits}",
                  waits=_awaited(state, edition))


def _in_combat(state: State, seat: str, command: Any, rng: Any, edition: int) -> list | Rejection:
    kind, actor, fighter, eid = prompt(state)
    if edition > 2 and kind == "strike" and seat != actor and seat in strikers(state):
        actor = fighter = seat  # echo-3: those who strike at the same time strike in any order (EC-9)
    refused = _forbidden_in_fight(state, seat, command)
    if refused is not None:  # a rule forbids it whoever's command the fight waits for: cite that rule
        return refused
    if seat != actor:
        if isinstance(command, RollAttack):
            if kind == "attack":
                return refuse("EC-13", "reject.echo.left_rolls", "the dice of {enemy} against {fighter_seat}'s "
                              "investigator are rolled by {actor_seat}, the seat to {fighter_seat}'s left, not by "
                              "{seat}", enemy=_enemy(state, eid), fighter_seat=fighter, actor_seat=actor, seat=seat)
            return _no_roll_waits(state, edition)
        return refuse("EC-C3", "reject.echo.awaited", "{waits}, not {seat}", waits=_awaited(state, edition), seat=seat)
    if kind == "attack":
        if not isinstance(command, RollAttack):
            return refuse("EC-13", "reject.echo.only_roll", "{waits}: only rolling the enemy's dice answers it",
                          waits=_awaited(state))
        return _attack(state, actor, fighter, eid, rng, edition)
    if isinstance(command, RollAttack):
        return _no_roll_waits(state, edition)
    # The fighter's own prompt, answered by a command of its kind (_forbidden_in_fight refused the rest).
    if kind == "order":
        return _check_order(state, seat, command.skill, rng)
    if kind == "strike":
        if isinstance(command, Pass):
            return [StrikePassed(seat)]
        return _strike(state, seat, command, rng)
    # after a round: evade again or fight on (EC-5)
    if isinstance(command, Fight):
        return [FightContinued(seat)]
    if command.enemy not in targets(state, seat):
        return refuse("EC-5", "reject.echo.not_fighting", "'{id}' is not an enemy {seat}'s investigator is fighting",
                      id=command.enemy, seat=seat)
    rolled = _evasion(state, investigator(state, seat), command.enemy, rng, "EC-5")
    return [rolled]


_ANSWERS = {"order": (CheckOrder,), "strike": (Strike, Pass), "after": (Evade, Fight)}


def _forbidden_in_fight(state: State, seat: str, command: Any) -> Rejection | None:
    """The rule that forbids a fighting investigator's command now, whether or not the fight waits for its seat.

    Only when nothing here forbids it does ``_in_combat`` fall back on whose command is awaited
    (EC-C3). None for a seat outside the fight and for RollAttack (EC-13 is checked there).
    """
    combat = state.combat
    if seat not in combat.seats or isinstance(command, RollAttack):
        return None
    inv = investigator(state, seat)
    here = _place(state, combat.location)
    if isinstance(command, Move):
        return refuse("EC-3", "reject.echo.fight_leave", "a fight is under way in {place}: to leave, {name} must "
                      "escape every enemy of it (evade after a round, EC-5) or defeat it", place=here, name=_card(inv))
    if isinstance(command, EndMove):
        return refuse("EC-15", "reject.echo.fight_end", "a fight is under way in {place}: every enemy must be "
                      "defeated or escaped first, even with no movement points left", place=here)
    own = [p for p in combat.queue if p[2] == seat and p[0] != "attack"]
    step = combat.step
    number = combat.round
    forced = seat in combat.forced
    if forced and isinstance(command, CheckOrder):
        return refuse("EC-8", "reject.echo.forced_order", "{name}'s evasion failed: no strike-order check, the "
                      "enemies strike first", name=_card(inv))
    if own:
        mine = own[0][0]
        if isinstance(command, _ANSWERS[mine]):
            return None
        if mine == "order":
            return refuse("EC-7", "reject.echo.order_first", "round {round} begins with {seat}'s strike-order check",
                          round=number, seat=seat)
        if mine == "strike":
            return refuse("EC-9", "reject.echo.strike_now", "{seat} strikes now in round {round}: with an item or a "
                          "spell, or pass", seat=seat, round=number)
        return refuse("EC-5", "reject.echo.round_over", "round {round} is over: {seat} may evade again or fight "
                      "on", round=number, seat=seat)
    failed = seat not in combat.first and step in ("order", "first", "attack")
    if isinstance(command, CheckOrder):
        if step == "after":
            return refuse("EC-6", "reject.echo.next_order", "the next round's strike-order check comes once every "
                          "fighter has chosen to evade again or fight on (round {round} is over)", round=number)
        return refuse("EC-6", "reject.echo.order_decided", "the strike order of round {round} is already decided for "
                      "{seat}", round=number, seat=seat)
    if isinstance(command, (Strike, Pass)):
        if failed and forced:
            return refuse("EC-8", "reject.echo.forced_strike", "{name}'s evasion failed: the enemies strike first "
                          "this round", name=_card(inv))
        if failed:
            fought = targets(state, seat)
            if len(fought) > 1:
                return refuse("EC-16", "reject.echo.failed_group", "{name} failed the strike-order check against "
                              "one of {count} enemies: that counts as failing against all, every enemy strikes before "
                              "it", name=_card(inv), count=len(fought))
            return refuse("EC-7", "reject.echo.failed_order", "{name} failed the strike-order check: {enemies} strikes "
                          "first", name=_card(inv), enemies=_enemies(state, fought))
        if step == "after":
            return refuse("EC-5", "reject.echo.over_not_strike", "round {round} is over: {seat} may evade again or "
                          "fight on, not strike", round=number, seat=seat)
        return refuse("EC-6", "reject.echo.no_strike_left", "{seat} has no strike left in round {round}: one strike "
                      "a round", seat=seat, round=number)
    # Evade or Fight: the last commands a fight takes
    if step == "after":
        return refuse("EC-5", "reject.echo.already_chosen", "{seat} has already chosen after round {round}", seat=seat,
                      round=number)
    return refuse("EC-5", "reject.echo.chosen_after", "evading again or fighting on is chosen after a round; round "
                  "{round} is at its {step} step", round=number, step=phrase(*STEP_WORDS[step]))


def _check_order(state: State, seat: str, skill: Any, rng: Any) -> list | Rejection:
    """EC-7 (Attention), EC-8 (Stealth in the first round), EC-16 (against every enemy or none)."""
    if skill not in ("attention", "stealth"):
        return refuse("EC-7", "reject.echo.order_skill", "the strike-order check uses attention (or stealth the "
                      "first time), not '{skill}'", skill=skill)
    combat = state.combat
    if skill == "stealth" and combat.round != 1:
        return refuse("EC-8", "reject.echo.stealth_once", "Stealth replaces Attention only the first time; this is "
                      "round {round}", round=combat.round)
    inv = investigator(state, seat)
    value = getattr(inv, skill)
    rule = "EC-8" if skill == "stealth" else "EC-7"
    events: list = []
    failed = []
    for eid in targets(state, seat):
        penalty = card_of(state, eid).attention
        dice = roll(rng, dice_count(value, penalty))
        ok = passed(dice)
        events.append(StrikeOrderRolled(seat, eid, skill, value, penalty, dice, ok, rule))
        if not ok:
            failed.append(eid)
    group = len(events) > 1
    if not failed:
        reason = "passed against every enemy: strikes first" if group else "passed: strikes first"
        events.append(StrikeOrderSet(seat, True, reason, "EC-16" if group else rule))
    else:
        names = ", ".join(enemy_name(state, eid) for eid in failed)
        if group:
            reason = f"failed against {names}: counts as failing against all, every enemy strikes first"
        else:
            reason = f"failed: {names} strikes first"
        events.append(StrikeOrderSet(seat, False, reason, "EC-16" if group else rule))
    return events


def _strike(state: State, seat: str, command: Strike, rng: Any) -> list | Rejection:
    inv = investigator(state, seat)
    if command.enemy not in targets(state, seat):
        return refuse("EC-9", "reject.echo.not_a_target", "'{id}' is not an enemy {name} is fighting (fighting: "
                      "{ids})", id=command.enemy, name=_card(inv), ids=_enemies(state, targets(state, seat)))
    cid = command.card
    item = by_id(state.cards.items, cid)
    if item is not None and cid in inv.items:
        if not (item.sanity or item.health):
            return refuse("EC-9", "reject.echo.no_damage", "{card} deals no damage: it is nothing to strike with",
                          card=_card(item))
        events: list = [ItemStruck(seat, command.enemy, cid, item.sanity, item.health)]
        return events + _hurt_enemy(state, seat, command.enemy, item.sanity, item.health, "EC-9")
    spell = by_id(state.cards.spells, cid)
    if item is None and spell is None:  # no card of the game's data at all: EC-C2's cards are all there is
        return refuse("EC-C2", "reject.echo.unknown_card", "'{id}' is no item or spell of this game's cards", id=cid)
    if spell is None or cid not in inv.spells:
        return refuse("EC-9", "reject.echo.no_card", "{name} holds no item and knows no spell '{id}'", name=_card(inv),
                      id=cid)
    if not spell.combat:
        return refuse("EC-11", "reject.echo.not_in_combat", "{card} cannot be cast in combat: its card says so",
                      card=_card(spell))
    skill = "knowledge" if spell.kind == "obvious" else "intuition"
    value = getattr(inv, skill)
    dice = roll(rng, dice_count(value, spell.difficulty))
    success = passed(dice)
    events = [SpellCast(seat, command.enemy, cid, skill, value, spell.difficulty, dice, success)]
    if success and (spell.sanity or spell.health):
        events += _hurt_enemy(state, seat, command.enemy, spell.sanity, spell.health, "EC-12")
    if spell.price:
        sanity = inv.sanity - spell.price
        events.append(PowerPaid(seat, cid, spell.price, sanity))
        events += _fate(state, seat, sanity, inv.health)
    return events


def _hurt_enemy(state: State, seat: str, eid: str, sanity_loss: int, health_loss: int, rule: str) -> list:
    """EC-12 damage, then EC-17 (and EC-C4): detained or dead."""
    target = by_id(state.enemies, eid)
    sanity = target.sanity - sanity_loss
    health = target.health - health_loss
    events: list = [EnemyDamaged(eid, seat, sanity_loss, health_loss, sanity, health, rule)]
    card = card_of(state, eid)
    if sanity <= -2 or health <= -2:
        events.append(EnemyKilled(eid, seat, sanity, health, "Sanity or Health at −2 or below", "EC-17"))
    elif sanity <= 0 and health <= 0:
        events.append(EnemyKilled(eid, seat, sanity, health, "Sanity and Health both at 0 or below", "EC-17"))
    elif sanity <= 0 or health <= 0:
        if card.kind == "person":
            events.append(EnemyDetained(eid, seat, sanity, health))
        else:
            events.append(EnemyKilled(eid, seat, sanity, health, f"a {card.kind} cannot be detained: destroyed at "
                                      "the detaining threshold", "EC-C4"))
    return events


def _attack(state: State, roller: str, seat: str, eid: str, rng: Any, edition: int) -> list:
    """EC-13: blue dice for Sanity, red for Health, each 5 or 6 a point; EC-14 fixed damage; EC-18."""
    card = card_of(state, eid)
    inv = investigator(state, seat)
    blue = roll(rng, card.blue)
    red = roll(rng, card.red)
    sanity = inv.sanity - hits(blue)
    health = inv.health - hits(red)
    # EC-16 Reading: in a group fight each enemy that strikes strikes each investigator of the fight once
    # (a group: several investigators, or several enemies fought; echo-3 leaves out the enemies escaped)
    if edition < 3:
        group = len(state.combat.seats) > 1 or len(combat_enemies(state)) > 1
    else:
        fought = {eid for name in state.combat.seats for eid in targets(state, name)}
        group = len(state.combat.seats) > 1 or len(fought) > 1
    events: list = [EnemyAttacked(roller, seat, eid, blue, red, hits(blue), hits(red), sanity, health,
                                  "EC-16" if group and edition > 1 else "EC-13")]
    if card.fixed_sanity or card.fixed_health:
        sanity -= card.fixed_sanity
        health -= card.fixed_health
        events.append(FixedDamageDealt(seat, eid, card.fixed_sanity, card.fixed_health, sanity, health))
    return events + _fate(state, seat, sanity, health)


def _fate(state: State, seat: str, sanity: int, health: int) -> list:
    """EC-18: below −1 in either, or 0/−1 in both: dead; one track at 0/−1: the Asylum or the Ministry."""
    inv = investigator(state, seat)
    if sanity < -1 or health < -1:
        return [InvestigatorDied(seat, sanity, health, "Sanity or Health below −1")]
    if sanity <= 0 and health <= 0:
        return [InvestigatorDied(seat, sanity, health, "Sanity and Health both at 0 or −1")]
    if sanity <= 0:
        return [InvestigatorSentAway(seat, inv.location, state.map.asylum, "sanity")]
    if health <= 0:
        return [InvestigatorSentAway(seat, inv.location, state.map.ministry[0], "health")]
    return []


# --- any time: trading items, exchanging detained enemies ------------------------------------------


def _trade(state: State, seat: str, command: Trade) -> list | Rejection:
    """EC-20: items only, between living investigators in the same location."""
    giver = investigator(state, seat)
    what = command.item
    if not giver.alive:
        return _dead(seat)
    if seat_index(state, command.to) < 0:
        return refuse("EC-20", "reject.echo.no_partner", "there is no seat '{seat}' to trade with", seat=command.to)
    if command.to == seat:
        return refuse("EC-20", "reject.echo.self_trade", "an investigator cannot trade with itself")
    taker = investigator(state, command.to)
    if not taker.alive:
        return refuse("EC-20", "reject.echo.partner_dead", "{seat}'s investigator is dead", seat=command.to)
    if taker.location != giver.location:
        return refuse("EC-20", "reject.echo.trade_apart", "{name} is in {place} and {other} in {there}: only "
                      "investigators in the same location trade", name=_card(giver),
                      place=_place(state, giver.location), other=_card(taker), there=_place(state, taker.location))
    if what in giver.items:
        return [ItemTraded(seat, command.to, what)]
    if what in giver.spells:
        known = by_id(state.cards.spells, what)
        return refuse("EC-20", "reject.echo.spell_trade", "{spell} is a spell: spells cannot be traded, only items",
                      spell=_card(known) if known is not None else repr(what))
    if what in giver.allies:
        return refuse("EC-20", "reject.echo.ally_trade", "'{id}' is an ally: allies cannot be traded, only items",
                      id=what)
    if what in ("clue", "clues"):
        return refuse("EC-20", "reject.echo.clue_trade", "clues cannot be traded, only items ({name} has {clues})",
                      name=_card(giver), clues=giver.clues)
    if what in SKILLS:
        return refuse("EC-20", "reject.echo.skill_trade", "{skill} is a skill: skills cannot be traded, only items",
                      skill=phrase(*SKILL_WORDS[what]))
    if what in giver.detained:
        return refuse("EC-20", "reject.echo.detained_trade", "{enemy} is a detained enemy's card, not an item: "
                      "exchange it for clues (EC-17)", enemy=_enemies(state, (what,))[0])
    return refuse("EC-20", "reject.echo.no_item", "{name} holds no item '{id}'", name=_card(giver), id=what)


def _exchange(state: State, seat: str, command: Exchange) -> list | Rejection:
    inv = investigator(state, seat)
    if not inv.alive:
        return _dead(seat)
    if command.enemy not in inv.detained:
        if not inv.detained:
            return refuse("EC-17", "reject.echo.none_detained", "{name} holds no detained enemy '{id}' (detained: "
                          "none)", name=_card(inv), id=command.enemy)
        return refuse("EC-17", "reject.echo.not_detained", "{name} holds no detained enemy '{id}' (detained: {ids})",
                      name=_card(inv), id=command.enemy, ids=_enemies(state, inv.detained))
    return [DetainedExchanged(seat, command.enemy, card_of(state, command.enemy).clues)]


# --- evolve ----------------------------------------------------------------------------------------


def _with(state: State, seat: str, **changes: Any) -> tuple:
    """``state.investigators`` with one investigator's fields changed."""
    index = seat_index(state, seat)
    invs = state.investigators
    return invs[:index] + (invs[index].but(**changes),) + invs[index + 1 :]


def _with_enemy(state: State, eid: str, **changes: Any) -> tuple:
    return tuple(item.but(**changes) if item.id == eid else item for item in state.enemies)


def _pop(combat: Combat, kind: str, seat: str) -> tuple:
    """The queue without its head, if the head is this seat's prompt of this kind."""
    queue = combat.queue
    if queue and queue[0][0] == kind and queue[0][2] == seat:
        return queue[1:]
    return queue


def _pop_strike(combat: Combat, seat: str) -> tuple:
    """The queue without this seat's strike prompt among those at its head (echo-3: any of them may
    strike first; up to echo-2 it was always the head's, so old logs fold as before)."""
    queue = combat.queue
    for index, (kind, _actor, owner, _enemy) in enumerate(queue):
        if kind != "strike":
            break
        if owner == seat:
            return queue[:index] + queue[index + 1:]
    return queue


def _leave(combat: Combat | None, seat: str) -> Combat | None:
    """The fight without this investigator and the prompts about it (its left neighbour still rolls for others)."""
    if combat is None or seat not in combat.seats:
        return combat
    return combat.but(seats=tuple(s for s in combat.seats if s != seat),
                      queue=tuple(p for p in combat.queue if p[2] != seat),
                      first=tuple(s for s in combat.first if s != seat),
                      forced=tuple(s for s in combat.forced if s != seat))


def _drop_enemy(combat: Combat | None, eid: str) -> Combat | None:
    if combat is None:
        return None
    return combat.but(queue=tuple(p for p in combat.queue if p[3] != eid))


def evolve(state: Any, event: Any) -> State:
    """One event folded into a new state; the input is never touched."""
    s = state
    match event:
        case GameStarted():
            return initial_state(event)
        case RoundBegan(number, points, first):
            mp = dict(points)
            invs = tuple(inv.but(mp=mp.get(inv.seat, 0), escaped=()) for inv in s.investigators)
            return s.but(investigators=invs, turn=seat_index(s, first), round=number, finished=())
        case InvestigatorMoved(seat, _start, to, link, _cost, mp, _rule):
            finished = s.finished + (seat,) if link == "dark-side" else s.finished  # EC-19 ends the move
            return s.but(investigators=_with(s, seat, location=to, mp=mp, escaped=()), finished=finished)
        case EvasionRolled(seat, eid, _stealth, _penalty, _dice, success, _rule):
            inv = investigator(s, seat)
            if success:
                return s.but(investigators=_with(s, seat, escaped=inv.escaped + (eid,)))
            if s.combat is not None:
                combat = s.combat.but(queue=_pop(s.combat, "after", seat), forced=s.combat.forced + (seat,))
                return s.but(combat=combat)
            return s
        case CombatBegan(location, fighters, enemies, forced, _rule):
            return s.but(combat=Combat(location, fighters, enemies, 0, "after", (), forced, ()))
        case CombatStepBegan(number, step, queue):
            first = () if step == "order" else s.combat.first
            forced = () if step == "after" else s.combat.forced  # EC-8 holds until the round ends (always () in echo-1)
            return s.but(combat=s.combat.but(round=number, step=step, queue=queue, first=first, forced=forced))
        case StrikeOrderRolled():
            return s
        case StrikeOrderSet(seat, first, _reason, _rule, holds):
            combat = s.combat
            forced = combat.forced if holds else tuple(name for name in combat.forced if name != seat)  # echo-1 logs
            combat = combat.but(queue=_pop(combat, "order", seat),
                                first=combat.first + (seat,) if first else combat.first, forced=forced)
            return s.but(combat=combat)
        case ItemStruck(seat) | SpellCast(seat) | StrikePassed(seat):
            return s.but(combat=s.combat.but(queue=_pop_strike(s.combat, seat)))
        case PowerPaid(seat, _spell, _price, sanity):
            return s.but(investigators=_with(s, seat, sanity=sanity))
        case EnemyDamaged(eid, _by, _sl, _hl, sanity, health, _rule):
            return s.but(enemies=_with_enemy(s, eid, sanity=sanity, health=health))
        case EnemyAttacked(_roller, seat, _eid, _blue, _red, _sl, _hl, sanity, health):
            combat = s.combat.but(queue=s.combat.queue[1:])
            return s.but(investigators=_with(s, seat, sanity=sanity, health=health), combat=combat)
        case FixedDamageDealt(seat, _eid, _sl, _hl, sanity, health):
            return s.but(investigators=_with(s, seat, sanity=sanity, health=health))
        case EnemyDetained(eid, seat):
            inv = investigator(s, seat)
            return s.but(enemies=_with_enemy(s, eid, status="detained"),
                         investigators=_with(s, seat, detained=inv.detained + (eid,)), combat=_drop_enemy(s.combat, eid))
        case EnemyKilled(eid):
            return s.but(enemies=_with_enemy(s, eid, status="dead"), combat=_drop_enemy(s.combat, eid))
        case InvestigatorDied(seat):
            finished = s.finished if seat in s.finished else s.finished + (seat,)
            return s.but(investigators=_with(s, seat, alive=False, mp=0, escaped=()), finished=finished,
                         combat=_leave(s.combat, seat))
        case InvestigatorSentAway(seat, _start, to, track):
            changes = {"location": to, "mp": 0, "escaped": (), track: 1}
            finished = s.finished if seat in s.finished else s.finished + (seat,)
            return s.but(investigators=_with(s, seat, **changes), finished=finished, combat=_leave(s.combat, seat))
        case FightContinued(seat):
            return s.but(combat=s.combat.but(queue=_pop(s.combat, "after", seat)))
        case CombatLeft(seat):
            return s.but(combat=_leave(s.combat, seat))
        case CombatRoundEnded(_number, points):
            mp = dict(points)
            return s.but(investigators=tuple(inv.but(mp=mp[inv.seat]) if inv.seat in mp else inv
                                             for inv in s.investigators))
        case CombatEnded():
            return s.but(combat=None)
        case DetainedExchanged(seat, eid, clues):
            inv = investigator(s, seat)
            return s.but(investigators=_with(s, seat, detained=tuple(d for d in inv.detained if d != eid),
                                             clues=inv.clues + clues),
                         enemies=_with_enemy(s, eid, status="exchanged"))
        case ItemTraded(seat, to, item):
            giver = investigator(s, seat)
            index = list(giver.items).index(item)
            s = s.but(investigators=_with(s, seat, items=giver.items[:index] + giver.items[index + 1 :]))
            return s.but(investigators=_with(s, to, items=investigator(s, to).items + (item,)))
        case TurnEnded(seat, next_seat, _round):
            finished = s.finished if seat in s.finished else s.finished + (seat,)
            return s.but(finished=finished, turn=s.turn if next_seat is None else seat_index(s, next_seat))
        case GameEnded():
            return s.but(over=True)
        case SecretRevealed():
            return s  # CORE-2: the core's own event, after the last command; it changes no state
        case RulesVersionChanged() | RulesVersionProposed() | RulesVersionAnswered():
            return s  # CORE-3, CORE-10, CORE-11: the core's own events; they change rules, not state
    raise TypeError(f"echo cannot fold an event of type {type(event).__name__}")

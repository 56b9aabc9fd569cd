"""What each ``arkham`` event says, as messages (``events/words.py``): the log line and the trace.

One describer for the browser's log (``client/eventlog.py``, in the reader's language) and
``chronicle explain`` (English). Areas and monsters are named from the state before the event:
an area by its id (``client/i18n/names/arkham.<lang>.json``, else the board's English name), a
monster by its name (a defeated one from the trophy its investigator took, AH-C6).
"""

from __future__ import annotations

from events.lookup import by_id
from events.words import Join, Msg, Name, Seat, Word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GAME = "arkham"


def area(state: Any, area_id: object) -> Name:
    """An area or Other World by its id, named in the reader's language (the board's name in English)."""
    item = by_id(state.board.areas, area_id) if state is not None else None
    return Name(GAME, area_id) if item is None else Name(GAME, item.id, item.name)


def monster(state: Any, monster_id: object) -> object:
    """A monster by its id: the name of the monster on the board, or of the trophy taken from it."""
    if state is not None:
        item = by_id(state.monsters, monster_id)
        if item is not None:
            return Name(GAME, item.name)
        for investigator in state.investigators:
            for trophy_id, name in investigator.trophies:
                if trophy_id == monster_id:
                    return Name(GAME, name)
    return str(monster_id)


def _route(state: Any, start: str, path: tuple) -> Join:
    return Join(" → ", [area(state, start)] + [area(state, place) for place in path])


def _items(names: tuple) -> object:
    return Join(", ", [Name(GAME, item) for item in names]) if names else "—"


def _verdict(passed: bool) -> Msg:
    return Msg("arkham.passed") if passed else Msg("arkham.failed")


def describe(event: Any, state: Any = None) -> Msg | None:
    """The log line of an event."""
    kind = event.TYPE
    s = state
    seat = Seat(getattr(event, "seat", ""))
    if kind == "MovementBegan":
        return Msg("arkham.began", seat=seat, area=area(s, event.area), n=event.points)
    if kind == "StoodUp":
        return Msg("arkham.stood_up", seat=seat)
    if kind == "InvestigatorMoved":
        route = _route(s, event.start, event.path)
        if event.to != event.aim:
            return Msg("arkham.moved_short", seat=seat, route=route, n=event.points_left, aim=area(s, event.aim))
        return Msg("arkham.moved", seat=seat, route=route, n=event.points_left)
    if kind == "MovedInOtherWorld":
        return Msg("arkham.moved_world", seat=seat, to=area(s, event.to))
    if kind == "GateChoiceOffered":
        return Msg("arkham.gate_choice", seat=seat, gates=Join(Msg("arkham.or"), [area(s, g) for g in event.gates]))
    if kind == "ReturnedThroughGate":
        return Msg("arkham.returned", seat=seat, area=area(s, event.location))
    if kind == "MonstersIgnored":
        return Msg("arkham.ignored", seat=seat, monsters=Join(", ", [monster(s, m) for m in event.monsters]))
    if kind == "LostInTimeAndSpace":
        return Msg("arkham.lost", seat=seat)
    if kind == "PlacementOffered":
        return Msg("arkham.placement", seat=seat)
    if kind == "PlacedInArkham":
        return Msg("arkham.placed", seat=seat, area=area(s, event.area))
    if kind == "MonsterEvaded":
        return Msg("arkham.evaded", seat=seat, monster=monster(s, event.monster))
    if kind == "CheckRolled":
        check = Word("arkham.check_", event.check)
        if event.dice <= 0:
            return Msg("arkham.check_unrolled", seat=seat, check=check, n=event.dice)
        return Msg("arkham.check", seat=seat, check=check, monster=monster(s, event.monster), dice=event.dice,
                   rolls=Join(" ", [str(value) for value in event.rolls]), n=event.successes,
                   difficulty=event.difficulty, verdict=_verdict(event.passed))
    if kind == "ClueSpendOffered":
        return Msg("arkham.spend_offered", seat=seat, check=Word("arkham.check_", event.check))
    if kind == "ClueSpent":
        return Msg("arkham.clue_spent", seat=seat, roll=event.roll, successes=event.successes,
                   difficulty=event.difficulty)
    if kind == "RollAccepted":
        return Msg("arkham.roll_accepted", seat=seat)
    if kind == "StatLost":
        return Msg("arkham.stat_lost", seat=seat, n=event.amount, stat=Word("arkham.stat_", event.stat),
                   left=event.left)
    if kind == "CombatBegan":
        return Msg("arkham.combat_began", seat=seat, monster=monster(s, event.monster),
                   cause=Word("arkham.cause_", event.cause))
    if kind == "MonsterDefeated":
        return Msg("arkham.defeated", seat=seat, monster=Name(GAME, event.name))
    if kind == "CombatEnded":
        return Msg("arkham.combat_ended", monster=monster(s, event.monster),
                   outcome=Word("arkham.outcome_", event.outcome))
    if kind == "KnockedOut":
        return Msg("arkham.knocked_out", seat=seat, condition=Word("arkham.condition_", event.condition),
                   to=area(s, event.to), n=event.clues_lost)
    if kind == "Devoured":
        return Msg("arkham.devoured", seat=seat)
    if kind == "MovementEnded":
        if event.clues:
            return Msg("arkham.ended_clues", seat=seat, area=area(s, event.area), n=event.clues)
        return Msg("arkham.ended", seat=seat, area=area(s, event.area))
    if kind == "CluesTaken":
        return Msg("arkham.clues_taken", seat=seat, n=event.count, left=event.left)
    if kind == "TradeOffered":
        return Msg("arkham.trade_offered", seat=seat, partner=Seat(event.partner), give=_items(event.give),
                   take=_items(event.take))
    if kind == "TradeAnswered":
        key = "arkham.trade_accepted" if event.accepted else "arkham.trade_declined"
        return Msg(key, partner=Seat(event.partner), seat=seat)
    if kind == "TurnEnded":
        if state is not None and event.round > state.rounds:  # the last Movement phase's last turn: none follows
            return Msg("arkham.turn_ended_last", seat=seat, rounds=state.rounds)
        return Msg("arkham.turn_ended", seat=seat, next=Seat(event.next_seat), round=event.round)
    if kind == "GameEnded":
        return Msg("arkham.game_ended", reason=Word("arkham.end_", event.reason))
    return None


def _signed(value: int) -> str:
    return ("+" if value >= 0 else "") + str(value)


def trace(event: Any, state: Any = None) -> list:
    """The rules' reasoning: movement points (AH-2, AH-C7, AH-9), the path (AH-3, AH-7), checks
    (AH-C1), knock-outs (AH-C4) and combats that end a movement (AH-8)."""
    kind = event.TYPE
    s = state
    seat = Seat(getattr(event, "seat", ""))
    if kind == "MovementBegan":
        return [Msg("arkham.trace_began", seat=seat, n=event.points, why=Word("arkham.why_", event.rule),
                    rule=event.rule)]
    if kind == "InvestigatorMoved":
        lines = [Msg("arkham.trace_moved", seat=seat, route=_route(s, event.start, event.path), n=len(event.path),
                     left=event.points_left)]
        if event.to != event.aim:
            lines.append(Msg("arkham.trace_stopped", to=area(s, event.to), aim=area(s, event.aim)))
        return lines
    if kind == "CheckRolled":
        check = Word("arkham.check_", event.check)
        skill = Word("arkham.stat_", event.skill)
        if event.dice <= 0:
            return [Msg("arkham.trace_unrolled", check=check, skill=skill, modifier=_signed(event.modifier),
                        n=event.dice)]
        return [Msg("arkham.trace_check", check=check, skill=skill, modifier=_signed(event.modifier), n=event.dice,
                    rolls=Join(", ", [str(value) for value in event.rolls]), face=event.threshold,
                    successes=event.successes, difficulty=event.difficulty, verdict=_verdict(event.passed))]
    if kind == "KnockedOut":
        return [Msg("arkham.trace_knocked_out", seat=seat, stat=Word("arkham.stat_", event.stat),
                    start=area(s, event.start), condition=Word("arkham.condition_", event.condition),
                    to=area(s, event.to), n=event.clues_lost)]
    if kind == "CombatBegan":
        return [Msg("arkham.trace_combat", seat=seat, monster=monster(s, event.monster),
                    cause=Word("arkham.cause_", event.cause), n=event.points_lost)]
    return []

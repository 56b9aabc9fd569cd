"""What each ``skirmish`` event says, as messages (``events/words.py``): the log line and the trace.

One describer for the browser's log (``client/eventlog.py``, in the reader's language) and
``chronicle explain`` (English). Figures are named from the state before the event (a defeated
figure stays in it at 0 hp): ``client/i18n/names/skirmish.<lang>.json``, else the scenario's name.
"""

from __future__ import annotations

from events.games.skirmish.rules import COVER_BONUS
from events.geometry.squares import square_name
from events.lookup import by_id
from events.words import Join, Msg, Name, Seat

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

GAME = "skirmish"


def fig(state: Any, figure_id: object) -> object:
    """A figure by its name in the reader's language, or its id where the state lacks it."""
    item = by_id(state.figures, figure_id) if state is not None else None
    return str(figure_id) if item is None else Name(GAME, item.name)


def door(door_id: object) -> Msg:
    """``door2`` as "door 2" in the reader's language."""
    text = str(door_id)
    return Msg("sk.door_name", door=text[4:] if text.startswith("door") and text[4:].isdigit() else text)


def _squares(squares: tuple, separator: str = ", ") -> Join:
    return Join(separator, [square_name(square) for square in squares])


def _open(is_open: bool) -> Msg:
    return Msg("sk.open") if is_open else Msg("sk.closed")


def describe(event: Any, state: Any = None) -> Msg | None:
    """The log line of an event (GameStarted too: the sides, against each other)."""
    kind = event.TYPE
    s = state
    who = fig(s, event.figure) if isinstance(getattr(event, "figure", None), str) else ""
    if kind == "GameStarted":
        return Msg("sk.started", sides=Join(Msg("sk.vs"), [Seat(side) for side in event.seats]),
                   version=event.rules_version)
    if kind == "FigureActivated":
        return Msg("sk.activated", figure=who, side=Seat(event.side), round=event.round)
    if kind == "FigureMoved":
        route = _squares((event.start,) + event.path, " → ")
        return Msg("sk.moved_chosen" if event.chosen else "sk.moved", figure=who, route=route, n=event.cost)
    if kind == "AttackRolled":
        result = Msg("sk.critical") if event.critical else Msg("sk.hit") if event.hit else Msg("sk.miss")
        return Msg("sk.attack_rolled", figure=who, target=fig(s, event.target), roll=event.roll, attack=event.attack,
                   total=event.total, defense=event.defense, cover=Msg("sk.with_cover") if event.cover else "",
                   result=result, damage=Msg("sk.damage", damage=event.damage) if event.hit else "")
    if kind == "FigureDefeated":
        return Msg("sk.defeated", figure=who, at=square_name(event.at))
    if kind == "DoorContested":
        last = event.throws[-1]
        want = Msg("sk.want_open") if event.want_open else Msg("sk.want_closed")
        return Msg("sk.contested", figure=who, door=door(event.door), want=want, holder=fig(s, event.holder),
                   mine=last[1], theirs=last[3], n=len(event.throws), winner=fig(s, event.winner),
                   state=_open(event.open))
    if kind == "DoorTaken":
        return Msg("sk.taken", figure=who, door=door(event.door), holder=fig(s, event.holder), state=_open(event.open))
    if kind == "DoorDecisionsDue":
        return Msg("sk.decisions_due", figure=who, doors=Join(", ", [door(item) for item in event.doors]))
    if kind == "DoorDecided":
        key = "sk.decided_open" if event.open else "sk.decided_close" if event.was_open else "sk.decided_keep"
        return Msg(key, figure=who, door=door(event.door))
    if kind == "DoorReleased":
        return Msg("sk.released", door=door(event.door), figure=who)
    if kind == "DoorHolderDefeated":
        return Msg("sk.holder_defeated", figure=who, door=door(event.door), state=_open(event.open))
    if kind == "ActivationEnded":
        return Msg("sk.activation_ended", figure=who, side=Seat(event.next_side))
    if kind == "RoundEnded":
        if state is not None and event.round >= state.rounds:  # the last round: no next one to open
            return Msg("sk.round_ended_last", round=event.round)
        return Msg("sk.round_ended", round=event.round, side=Seat(event.next_side))
    if kind == "GameEnded":
        if event.winner:
            return Msg("sk.game_won", side=Seat(event.winner), reason=_ended_why(event.reason))
        return Msg("sk.game_drawn", reason=_ended_why(event.reason))
    return None


def screen(state: Any, text: str) -> object:
    """A screen the rules write into AttackRolled (rules.py ``sight``: ``edge_label``, ``_screen_label``)
    in the reader's words, "the wall C2|D2", "the closed door door1 (C2|D2)", "C (c) at C1", "low
    objects at C1", "C (c) and low objects at C1"; else as written (plain string work, no ``re``). The log's
    trace and the rules questions' line-of-sight answer (client/questions.py) say them with it."""
    if text.startswith("the wall ") and _edge_name(text[9:]):
        return Msg("sk.screen_wall", edges=text[9:])
    if text.startswith("the closed door ") and text.endswith(")"):
        door_id, _, edges = text[16:len(text) - 1].partition(" (")
        if door_id and state is not None and any(item.id == door_id for item in state.doors) and _edge_name(edges):
            return Msg("sk.screen_door", door=door(door_id), edges=edges)
    head, _, at = text.rpartition(" at ")
    if not (head and at and at.isalnum() and at == at.upper()):
        return text
    if head == "low objects":
        return Msg("sk.screen_low", at=at)
    low = head.endswith(" and low objects")
    label = head[:len(head) - 16] if low else head
    for item in state.figures if state is not None else ():
        if label == f"{item.name} ({item.id})":
            return Msg("sk.screen_figure_low" if low else "sk.screen_figure", figure=fig(state, item.id), at=at)
    return text


def _edge_name(text: str) -> bool:
    """``C2|D2``: two square names (square_edge_name)."""
    first, bar, second = text.partition("|")
    return bool(bar) and all(part.isalnum() and part == part.upper() for part in (first, second))


#: The two reasons SK-C5 writes into GameEnded (rules.py): "<side> has no figure left" and
#: "all <rounds> rounds are played and both sides still stand".
_NO_FIGURE = " has no figure left"
_ROUNDS = ("all ", " rounds are played and both sides still stand")


def _ended_why(reason: str) -> object:
    """A GameEnded reason in the reader's words where it reads as the rules write it, else as written
    (plain string work: ``re`` costs page load in Brython)."""
    side = reason[:len(reason) - len(_NO_FIGURE)]
    if reason.endswith(_NO_FIGURE) and side and " " not in side:
        return Msg("sk.why_no_figure", side=Seat(side))
    head, tail = _ROUNDS
    rounds = reason[len(head):len(reason) - len(tail)]
    if reason.startswith(head) and reason.endswith(tail) and rounds.isdigit() and rounds[0] != "0":
        return Msg("sk.why_rounds_played", n=int(rounds))
    return reason


def _tie(mine: int, my_total: int, theirs: int, their_total: int) -> bool:
    if mine == 20 and theirs == 20:
        return True
    return mine != 20 and theirs != 20 and my_total == their_total


def trace(event: Any, state: Any = None) -> list:
    """The rules' reasoning: the path and its costs (SK-C2, SK-3, SK-4), the attack roll against
    Defense and cover (SK-C3, SK-C4), each throw of a door contest (SK-C4)."""
    kind = event.TYPE
    s = state
    if kind == "FigureMoved":
        how = Msg("sk.trace_chosen") if event.chosen else Msg("sk.trace_cheapest")
        lines = [Msg("sk.trace_moved", figure=fig(s, event.figure), route=_squares((event.start,) + event.path, " → "),
                     n=event.cost, how=how)]
        if event.doubled:
            lines.append(Msg("sk.trace_doubled", squares=_squares(event.doubled)))
        if event.passed:
            lines.append(Msg("sk.trace_passed", squares=_squares(event.passed)))
        return lines
    if kind == "AttackRolled":
        if event.cover:
            against = Msg("sk.trace_defense_cover", base=event.defense - COVER_BONUS, bonus=COVER_BONUS,
                          defense=event.defense)
        else:
            against = Msg("sk.trace_defense", defense=event.defense)
        result = Msg("sk.trace_critical") if event.critical else Msg("sk.hit") if event.hit else Msg("sk.miss")
        lines = [Msg("sk.trace_attack", figure=fig(s, event.figure), target=fig(s, event.target), roll=event.roll,
                     attack=event.attack, total=event.total, against=against, result=result,
                     damage=Msg("sk.damage", damage=event.damage) if event.hit else "")]
        if event.cover:
            lines.append(Msg("sk.trace_cover", x=event.corner[0], y=event.corner[1],
                             screens=Join("; ", [screen(s, str(item)) for item in event.screens])))
        return lines
    if kind == "DoorContested":
        want = Msg("sk.want_open") if event.want_open else Msg("sk.want_closed")
        lines = [Msg("sk.trace_contest", figure=fig(s, event.figure), door=door(event.door), want=want,
                     holder=fig(s, event.holder), rule=event.rule, fa=event.figure_attack, fb=event.figure_bonus,
                     ha=event.holder_attack, hb=event.holder_bonus)]
        for mine, my_total, theirs, their_total in event.throws:
            critical = Msg("sk.trace_throw_critical") if 20 in (mine, theirs) and mine != theirs else ""
            tie = Msg("sk.trace_tie") if _tie(mine, my_total, theirs, their_total) else ""
            lines.append(Msg("sk.trace_throw", mine=mine, my_total=my_total, theirs=theirs, their_total=their_total,
                             critical=critical, tie=tie))
        lines.append(Msg("sk.trace_wins", winner=fig(s, event.winner), door=door(event.door)))
        return lines
    return []

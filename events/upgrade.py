"""A game moves to a newer rules version when its seats agree (CORE-10, CORE-11; issue 19).

A game that does not replay unchanged under a newer version (``chronicle upgrade`` refuses it) may
still move to it, by consent. It takes two core commands, sent like any command of the game:

- ``ProposeRulesVersion(to_version)``: a seat proposes moving to a newer released version; logged
  as ``RulesVersionProposed(seat, from_version, to_version)`` (CORE-10). At most one proposal is
  open at a time; a spectator cannot propose, nor can anyone in a game that is over.
- ``AnswerRulesVersion(proposal, yes)``: every *other* seat answers the proposal logged at seq
  ``proposal``; logged as ``RulesVersionAnswered(seat, proposal, yes)`` (CORE-11). When the last
  other seat says yes, ``RulesVersionChanged(from, to, since_seq, agreed=proposal)`` follows in the
  same batch (CORE-3): ``agreed`` records that the seats agreed, and to which proposal.

A proposal ends, without moving the game, at the first event logged after it that is not a yes to
it: a no, the events of any game command (whoever made it), a RulesVersionChanged of another
origin, the game's end. So the seats agree on the game as it stands when they answer.

The Table (``events.log``) keeps the open proposal (``Table.proposal``): its ``submit`` sends these
two commands here rather than to the game's ``decide``, its ``absorb`` checks every logged one with
``follow``, and ``audit_log`` decides them again. None of these events changes the game's state
(every game's ``evolve`` folds them as itself), so each envelope's hash is the previous one's.
"""

from __future__ import annotations

from events.record import Record, Registry
from events.rules import refuse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class ProposeRulesVersion(Record):
    """A seat proposes moving the game to the released rules version ``to_version`` (CORE-10)."""

    __slots__ = ("to_version",)
    __match_args__ = __slots__
    TYPE = "ProposeRulesVersion"
    KINDS = {"to_version": "str"}

    def __init__(self, to_version: str) -> None:
        object.__setattr__(self, "to_version", to_version)


class AnswerRulesVersion(Record):
    """A seat answers the proposal logged at seq ``proposal``: ``yes`` or no (CORE-11)."""

    __slots__ = ("proposal", "yes")
    __match_args__ = __slots__
    TYPE = "AnswerRulesVersion"
    KINDS = {"proposal": "int", "yes": "bool"}

    def __init__(self, proposal: int, yes: bool) -> None:
        object.__setattr__(self, "proposal", proposal)
        object.__setattr__(self, "yes", yes)


class RulesVersionProposed(Record):
    """``seat`` proposed moving the game from ``from_version`` to ``to_version`` (CORE-10)."""

    __slots__ = ("seat", "from_version", "to_version")
    __match_args__ = __slots__
    TYPE = "RulesVersionProposed"
    RULE = "CORE-10"

    def __init__(self, seat: str, from_version: str, to_version: str) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "from_version", from_version)
        object.__setattr__(self, "to_version", to_version)


class RulesVersionAnswered(Record):
    """``seat`` answered the proposal logged at seq ``proposal``: ``yes`` or no (CORE-11)."""

    __slots__ = ("seat", "proposal", "yes")
    __match_args__ = __slots__
    TYPE = "RulesVersionAnswered"
    RULE = "CORE-11"

    def __init__(self, seat: str, proposal: int, yes: bool) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "proposal", proposal)
        object.__setattr__(self, "yes", yes)


COMMANDS = (ProposeRulesVersion, AnswerRulesVersion)
CORE_COMMANDS = Registry("command", COMMANDS)
EVENTS = (RulesVersionProposed, RulesVersionAnswered)


class Proposal:
    """The open proposal, as a Table keeps it: where it was logged, by whom, from and to which
    version, and the seats that said yes so far (in the order they answered)."""

    __slots__ = ("seq", "seat", "from_version", "to_version", "yes")

    def __init__(self, seq: int, seat: str, from_version: str, to_version: str, yes: tuple = ()) -> None:
        self.seq = seq
        self.seat = seat
        self.from_version = from_version
        self.to_version = to_version
        self.yes = yes

    def waiting(self, seats: tuple) -> tuple:
        """The seats whose yes the move still needs: every seat but the proposer's and those that agreed."""
        return tuple(seat for seat in seats if seat != self.seat and seat not in self.yes)


class ConsentError(ValueError):
    """A logged consent event that the rules would not have produced (``Table.absorb`` makes it a LogError)."""


def decide(game: Any, state: Any, proposal: Proposal | None, seat: str | None, command: Any, seq: int) -> Any:
    """The events of a consent command whose first event gets ``seq``, or the Rejection citing why not.

    ``game`` is the rules version in force, ``proposal`` the open one (None: none)."""
    if state is None:
        return refuse("CORE-10", "reject.core.not_started", "the game has not started")
    over, seats = bool(game.is_over(state)), game.seats(state)
    if isinstance(command, ProposeRulesVersion):
        refused = _proposal_refused(game, over, seats, proposal, seat, command.to_version)
        if refused is not None:
            return refused
        made = [RulesVersionProposed(seat, game.rules_version, command.to_version)]
        opened = Proposal(seq, seat, game.rules_version, command.to_version)
        if not opened.waiting(seats):  # a game of one seat: its proposal is everyone's yes
            made.append(_moved(opened, seq))
        return made
    refused = _answer_refused(seats, proposal, seat, command.proposal)
    if refused is not None:
        return refused
    made = [RulesVersionAnswered(seat, command.proposal, command.yes)]
    if command.yes and proposal.waiting(seats) == (seat,):
        made.append(_moved(proposal, seq))
    return made


def follow(game: Any, over: bool, seats: tuple, proposal: Proposal | None, seq: int, seat: str | None,
           event: Any) -> Any:
    """The open proposal after the logged ``event`` at ``seq`` (by envelope ``seat``), in a game
    that is ``over`` or not before it, of ``seats``; ConsentError if the rules would not have logged it there.

    A RulesVersionChanged that records the seats' consent (``agreed``) must follow the last yes
    its proposal needed; one without is not checked here (``events.log.audit_log`` re-decides the
    log under its version)."""
    kind = type(event)
    if kind is RulesVersionProposed:
        if seat != event.seat:
            raise ConsentError(f"seq {seq}: RulesVersionProposed names seat {event.seat!r} but was sent by {seat!r}")
        refused = _proposal_refused(game, over, seats, proposal, event.seat, event.to_version)
        if refused is None and event.from_version != game.rules_version:
            refused = refuse("CORE-10", "reject.consent.from_version", "it proposes moving from {proposed}, but the "
                             "game is played under {version}", proposed=event.from_version, version=game.rules_version)
        if refused is not None:
            raise ConsentError(f"seq {seq}: RulesVersionProposed refused by {refused}")
    elif kind is RulesVersionAnswered:
        if seat != event.seat:
            raise ConsentError(f"seq {seq}: RulesVersionAnswered names seat {event.seat!r} but was sent by {seat!r}")
        refused = _answer_refused(seats, proposal, event.seat, event.proposal)
        if refused is not None:
            raise ConsentError(f"seq {seq}: RulesVersionAnswered refused by {refused}")
    elif kind.TYPE == "RulesVersionChanged" and event.agreed is not None:
        agreed = event.agreed
        if proposal is None or proposal.seq != agreed:
            raise ConsentError(f"seq {seq}: RulesVersionChanged records the seats' consent to the proposal at seq "
                               f"{agreed}, but no such proposal is open (CORE-3)")
        if proposal.to_version != event.to_version:
            raise ConsentError(f"seq {seq}: RulesVersionChanged moves to {event.to_version}, but the seats agreed "
                               f"to {proposal.to_version} (CORE-3)")
        waiting = proposal.waiting(seats)
        if waiting:
            raise ConsentError(f"seq {seq}: RulesVersionChanged without the seats' consent: "
                               f"{', '.join(waiting)} did not say yes (CORE-3)")
    return track(proposal, seq, event)


def track(proposal: Proposal | None, seq: int, event: Any) -> Proposal | None:
    """The open proposal after ``event`` at ``seq``, without checks (events this Table made itself)."""
    kind = type(event)
    if kind is RulesVersionProposed:
        return Proposal(seq, event.seat, event.from_version, event.to_version)
    if kind is RulesVersionAnswered and event.yes and proposal is not None:
        return Proposal(proposal.seq, proposal.seat, proposal.from_version, proposal.to_version,
                        proposal.yes + (event.seat,))
    return None  # a no, or anything else, ends the open proposal


def _moved(proposal: Proposal, seq: int) -> Any:
    """The move the seats agreed to, logged right after the event at ``seq`` (CORE-3)."""
    from events.game import RulesVersionChanged  # events.game registers this module's events

    return RulesVersionChanged(proposal.from_version, proposal.to_version, seq + 2, proposal.seq)


def _proposal_refused(game: Any, over: bool, seats: tuple, proposal: Proposal | None, seat: str | None,
                      to: str) -> Any:
    """Why ``seat`` may not propose moving to ``to`` now (CORE-10), or None."""
    if over:
        return refuse("CORE-10", "reject.consent.over", "the game is over: its rules version ({version}) no longer "
                      "matters", version=game.rules_version)
    if seat is None:
        return refuse("CORE-10", "reject.consent.propose_spectator", "a spectator cannot propose a rules version: "
                      "only the seats ({seats}) may", seats=seats)
    if seat not in seats:
        return refuse("CORE-10", "reject.consent.propose_no_seat", "'{seat}', not a seat of this game, cannot "
                      "propose a rules version: only the seats ({seats}) may", seat=seat, seats=seats)
    if proposal is not None:
        return refuse("CORE-10", "reject.consent.still_open", "seat {seat}'s proposal at seq {seq} to move to "
                      "{version} is still open: it must be answered first", seat=proposal.seat, seq=proposal.seq,
                      version=proposal.to_version)
    released = game.newest().versions()
    target = next((version for version in released if version.rules_version == to), None)
    if target is None:
        return refuse("CORE-10", "reject.consent.unknown", "{game} has no rules version '{version}' (released: "
                      "{released}): a game moves only to a released version", game=game.name, version=to,
                      released=tuple(version.rules_version for version in released))
    if target is game:
        return refuse("CORE-10", "reject.consent.already", "the game is played under {version} already", version=to)
    if target in game.versions():
        return refuse("CORE-10", "reject.consent.older", "{version} is older than {current}, the version in force: "
                      "a game only moves forward", version=to, current=game.rules_version)
    return None


def _answer_refused(seats: tuple, proposal: Proposal | None, seat: str | None, asked: int) -> Any:
    """Why ``seat`` may not answer the proposal at seq ``asked`` now (CORE-11), or None."""
    if proposal is None:
        return refuse("CORE-11", "reject.consent.none_open", "there is no open proposal to answer (none at seq "
                      "{asked}): a no, or any command made since, ended it", asked=asked)
    if asked != proposal.seq:
        return refuse("CORE-11", "reject.consent.not_the_open_one", "the open proposal is the one at seq {seq}, not "
                      "seq {asked}", seq=proposal.seq, asked=asked)
    if seat is None:
        return refuse("CORE-11", "reject.consent.answer_spectator", "a spectator cannot answer a proposal: only the "
                      "seats ({seats}) may", seats=seats)
    if seat not in seats:
        return refuse("CORE-11", "reject.consent.answer_no_seat", "'{seat}', not a seat of this game, cannot answer "
                      "a proposal: only the seats ({seats}) may", seat=seat, seats=seats)
    if seat == proposal.seat:
        return refuse("CORE-11", "reject.consent.own_proposal", "seat {seat} made the proposal at seq {seq}: its "
                      "proposal is its yes, the other seats answer", seat=seat, seq=proposal.seq)
    if seat in proposal.yes:
        return refuse("CORE-11", "reject.consent.said_yes", "seat {seat} already said yes to the proposal at seq "
                      "{seq}", seat=seat, seq=proposal.seq)
    return None

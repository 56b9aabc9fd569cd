"""Undo with consent, in the log (issue 18; clauses CORE-4 to CORE-7 and CORE-12 of ``events.rules.CORE``).

A seat asks to take back its own last command(s) with the core command ``AskUndo(back_to)``:
``back_to`` is the seq of the first event of one of its own commands still in play, and every
command from there to the end of the game so far is taken back. Another seat answers with
``AnswerUndo(request, yes)``. Both are commands like any other (the Room's guard ladder, command
ids, rate limits), decided here rather than by the game, and their events are the engine's own:

- ``UndoAsked(seat, back_to, needs, redraw)`` (CORE-4): ``needs`` are the seats whose yes it waits for
  (CORE-5): none when the stretch holds only the asker's own commands; each other seat with a
  command in it; every other seat when it holds a random outcome (a command that drew) or a
  reveal of hidden information (an event whose type ends in ``Revealed``, or whose class says
  ``REVEALS = True``). ``redraw`` (CORE-12 games only; else False and absent from the data) says
  that the stretch holds such an outcome, which is drawn anew if it is taken back: the words every
  seat answers by say so. The asker's request is its own yes;
- ``UndoAnswered(seat, request, yes)`` (CORE-6): a ``no`` refuses the request; a new command
  by anyone while it is open withdraws it (no event: the command's own envelope says so), and a
  seat refused may not ask for the same ``back_to`` again until some command is made;
- ``UndoApplied(request, back_to, agreed)`` (CORE-4) follows at once, in the same batch, the
  request needing nobody or the last yes: the state becomes the state before ``back_to``.

The undone events stay in the log (struck through on pages); the *effective history* is the log
without the undo events and without what was taken back. Which key a command's dice have
(``Undos.key``) is what its GameStarted names (``dice_key``):

- CORE-12 (every game made since): the seq of the command's first event in the whole log, undo
  events and what was taken back included. No key is ever drawn from twice, so no outcome an undo
  showed can be handed to another command, and an undo across a draw draws that stretch anew: a
  re-roll, which is why it needs every seat's yes, asked in words that say so (``redraw``), and why
  a bot says no to it (``events.bots.answer_undo``);
- CORE-7 (a game whose GameStarted names no key: every game made before CORE-12): the command's
  position in the effective history. With no undo both are its seq, so every log keeps its dice and
  hashes. After an undo across a draw, the outcome at that position is known to all, and the asker
  chooses which command gets it, or spends the position on a free command and draws afresh
  (docs/protocol.md, "Dice"): kept only so that those games replay and audit exactly.

Nothing can be taken back once the game is over (its SecretRevealed logged), across a rules
version move (RulesVersionChanged) or more than ``MOST_UNDONE`` commands back.

``Undos`` is the book a ``events.log.Table`` keeps: it decides the two commands, checks every
undo event it absorbs against these rules (``UndoError``, a ``LogError`` citing the clause), and
gives the state an UndoApplied leads to. It imports nothing of ``events.log``.
"""

from __future__ import annotations

from events.dice import SealedRng, SecretNeeded
from events.record import Record, Registry
from events.rules import Rejection, phrase, refuse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STOPS = ("RulesVersionChanged",)  # events no undo crosses, whoever's command logged them (CORE-4)
MOST_UNDONE = 16  # commands one undo may take back: each is re-decided (sealed) to see if it drew
KEEP_STATES = 512  # states kept after the newest envelopes in play; older ones are refolded if ever needed

# How a closed request ended, as a refusal says it (CORE-6), and the count of commands too far back (CORE-4).
OUTCOMES = {"applied": ("reject.undo.outcome_applied", "applied"),
            "refused": ("reject.undo.outcome_refused", "refused"),
            "withdrawn": ("reject.undo.outcome_withdrawn", "withdrawn")}
TOO_FAR = {"one": "seq {back_to} is {n} command back: an undo takes back at most {most}",
           "other": "seq {back_to} is {n} commands back: an undo takes back at most {most}"}


# --- commands ---------------------------------------------------------------------------------------


class AskUndo(Record):
    """Take back my commands from seq ``back_to`` (the first event of one of mine) to the end (CORE-4)."""

    __slots__ = ("back_to",)
    __match_args__ = __slots__
    TYPE = "AskUndo"
    KINDS = {"back_to": "int"}

    def __init__(self, back_to: int) -> None:
        self.back_to = back_to


class AnswerUndo(Record):
    """Yes or no to the open undo request asked at seq ``request`` (CORE-6); a no may say ``why``: the clause
    it stands on, which the log then cites (``WHYS``: today CORE-12, a no to a request that draws anew,
    which is what a bot says to one, ``events.bots.answer_undo``)."""

    __slots__ = ("request", "yes", "why")
    __match_args__ = __slots__
    TYPE = "AnswerUndo"
    KINDS = {"request": "int", "yes": "bool", "why": "str | None"}
    DEFAULTS = {"why": None}

    def __init__(self, request: int, yes: bool, why: str | None = None) -> None:
        self.request = request
        self.yes = yes
        self.why = why

    def to_data(self) -> dict:
        return _without_why(self)


# --- events -----------------------------------------------------------------------------------------


class UndoAsked(Record):
    """``seat`` asked to take back everything from seq ``back_to``; it waits for ``needs``' yes (CORE-4, CORE-5);
    with ``redraw``, what it takes back holds a draw or a reveal, drawn anew once taken back (CORE-12)."""

    __slots__ = ("seat", "back_to", "needs", "redraw")
    __match_args__ = __slots__
    TYPE = "UndoAsked"
    RULE = "CORE-4"
    DEFAULTS = {"redraw": False}

    def __init__(self, seat: str, back_to: int, needs: tuple, redraw: bool = False) -> None:
        if type(redraw) is not bool:
            raise TypeError(f"redraw must be true or false, got {redraw!r}")
        self.seat = seat
        self.back_to = back_to
        self.needs = needs
        self.redraw = redraw

    def to_data(self) -> dict:
        data = Record.to_data(self)
        if not self.redraw:  # a CORE-7 game's request, or one that draws nothing anew: spelt as before CORE-12
            del data["redraw"]
        return data


class UndoAnswered(Record):
    """``seat`` said yes (or no) to the undo asked at seq ``request`` (CORE-6); ``why``, the clause its no
    stands on, when its command said one (``AnswerUndo.why``)."""

    __slots__ = ("seat", "request", "yes", "why")
    __match_args__ = __slots__
    TYPE = "UndoAnswered"
    RULE = "CORE-6"
    DEFAULTS = {"why": None}

    def __init__(self, seat: str, request: int, yes: bool, why: str | None = None) -> None:
        self.seat = seat
        self.request = request
        self.yes = yes
        self.why = why

    def to_data(self) -> dict:
        return _without_why(self)


# The clauses a no may stand on (``AnswerUndo.why``): only what the request itself shows, so the log can
# check it. CORE-12: the request draws anew what it takes back (its ``redraw``).
WHYS = ("CORE-12",)


def _without_why(record: Record) -> dict:
    """A record's data with ``why`` left out when it is None: spelt as before answers could say why, so every
    older log keeps its bytes."""
    data = Record.to_data(record)
    if record.why is None:
        del data["why"]
    return data


class UndoApplied(Record):
    """The undo asked at seq ``request`` is done: the state is the one before seq ``back_to`` again;
    ``agreed`` are the seats that said yes (none when nobody's was needed) (CORE-4)."""

    __slots__ = ("request", "back_to", "agreed")
    __match_args__ = __slots__
    TYPE = "UndoApplied"
    RULE = "CORE-4"

    def __init__(self, request: int, back_to: int, agreed: tuple) -> None:
        self.request = request
        self.back_to = back_to
        self.agreed = agreed


UNDO_EVENTS = (UndoAsked, UndoAnswered, UndoApplied)
UNDO_COMMANDS = (AskUndo, AnswerUndo)
CORE_COMMANDS = Registry("command", UNDO_COMMANDS)


def is_undo_event(event: Any) -> bool:
    return type(event) in UNDO_EVENTS


def is_undo_command(command: Any) -> bool:
    return type(command) in UNDO_COMMANDS


def reveals(event: Any) -> bool:
    """Whether an event reveals hidden information (CORE-5): its class says so, or its type ends in ``Revealed``."""
    said = getattr(type(event), "REVEALS", None)
    if said is not None:
        return bool(said)
    return event.TYPE.endswith("Revealed") and event.TYPE != "SecretRevealed"


class UndoError(ValueError):
    """A logged undo event the rules would not have produced; ``rule`` is the clause it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        ValueError.__init__(self, message)
        self.rule = rule


class Request:
    """One undo request as the book follows it: who asked, from where, whose yes it needs, and how it ended."""

    __slots__ = ("seq", "seat", "back_to", "needs", "redraw", "agreed", "outcome", "closed_at")

    def __init__(self, seq: int, seat: str, back_to: int, needs: tuple, redraw: bool = False) -> None:
        self.seq = seq
        self.seat = seat
        self.back_to = back_to
        self.needs = needs
        self.redraw = redraw  # CORE-12: what it takes back is drawn anew (the words of the question say so)
        self.agreed: list = []
        self.outcome = "open"  # "open", "applied", "refused" (a no) or "withdrawn" (a command came first)
        self.closed_at = 0  # the seq that closed it

    def complete(self) -> bool:
        return len(self.agreed) == len(self.needs)


class Undos:
    """A Table's book of undos: the effective history and the state after each of its envelopes,
    the requests and what was taken back (``undone``: seq -> the Request that took it back)."""

    __slots__ = ("effective", "after", "requests", "undone", "open", "refused", "positions", "by_log")

    def __init__(self) -> None:
        self.effective: list = []  # the envelopes in play, in order (no undo event, nothing taken back)
        self.after: list = []  # after[i]: the state after effective[i] (None: not kept, refolded if needed)
        self.requests: dict = {}  # request seq -> Request
        self.undone: dict = {}  # seq -> the Request that took it back
        self.open: Request | None = None
        self.refused: list = []  # (seat, back_to) refused since the last command (CORE-6)
        self.positions: dict = {}  # seq -> its position in the effective history, where that is not its seq
        self.by_log = False  # CORE-12: the GameStarted names dice_key "CORE-12" (``events.log.Table`` sets it)

    def key(self, seq: int) -> int:
        """The key of the dice of the next command, whose first event gets ``seq``: ``seq`` itself (CORE-12),
        or in a game that names no dice key its position in the effective history (CORE-7)."""
        return seq if self.by_log else len(self.effective) + 1

    def position_of(self, seq: int) -> int:
        """The key the dice of the command whose first event is at ``seq`` had, in play or taken back since
        (a what-if rebuilds its dice): ``seq`` (CORE-12), or the position it took in the effective history (CORE-7)."""
        return seq if self.by_log else self.positions.get(seq, seq)

    # --- deciding the two commands ------------------------------------------------------------------

    def decide(self, table: Any, seat: str, command: Any) -> list | Rejection:
        if table.revealed or table.state is None or table.game.is_over(table.state):
            return refuse("CORE-4", "reject.undo.over", "the game is over: nothing can be taken back once its secret "
                          "is revealed")
        if seat not in table.game.seats(table.state):
            return refuse("CORE-4", "reject.core.no_seat", "there is no seat '{seat}' in this game", seat=seat)
        if isinstance(command, AskUndo):
            return self._ask(table, seat, command.back_to)
        return self._answer(seat, command)

    def _ask(self, table: Any, seat: str, back_to: int) -> list | Rejection:
        if self.open is not None:
            return refuse("CORE-6", "reject.undo.still_open", "the undo {seat} asked at seq {seq} is still open: it "
                          "is answered, or withdrawn by the next command", seat=self.open.seat, seq=self.open.seq)
        found = self._stretch(seat, back_to)
        if isinstance(found, Rejection):
            return found
        if (seat, back_to) in self.refused:
            return refuse("CORE-6", "reject.undo.refused_again", "an undo back to seq {back_to} was refused: make a "
                          "command before asking again", back_to=back_to)
        needs, exact, chance = self.weigh(table, seat, found)
        if not exact:  # whether some command drew is not known here: ask everyone (CORE-5)
            needs = tuple(sorted(other for other in table.game.seats(table.state) if other != seat))
        # CORE-12: a draw or a reveal taken back is drawn anew, and the question says so (when unknown
        # here, it says so too: a seat is told too much rather than too little).
        asked = UndoAsked(seat, back_to, needs, self.by_log and (chance or not exact))
        return [asked] if needs else [asked, UndoApplied(table.seq + 1, back_to, ())]

    def _answer(self, seat: str, command: AnswerUndo) -> list | Rejection:
        request = self.open
        if request is None or request.seq != command.request:
            known = self.requests.get(command.request)
            if known is not None:
                return refuse("CORE-6", "reject.undo.closed", "the undo asked at seq {request} is {outcome} (seq "
                              "{closed_at}): it takes no more answers", request=command.request,
                              outcome=phrase(*OUTCOMES[known.outcome]), closed_at=known.closed_at)
            if request is None:
                return refuse("CORE-6", "reject.undo.no_request", "seq {request} is no undo request (none is)",
                              request=command.request)
            return refuse("CORE-6", "reject.undo.not_the_open_one", "seq {request} is no undo request (the open one "
                          "is seq {open})", request=command.request, open=request.seq)
        if seat == request.seat:
            return refuse("CORE-6", "reject.undo.own_request", "{seat} asked this undo: its request is its own yes",
                          seat=seat)
        if seat not in request.needs:
            return refuse("CORE-6", "reject.undo.not_needed", "the undo asked at seq {seq} waits for {seats}, not "
                          "{seat}", seq=request.seq, seats=request.needs, seat=seat)
        if seat in request.agreed:
            return refuse("CORE-6", "reject.undo.said_yes", "{seat} already said yes to the undo asked at seq {seq}",
                          seat=seat, seq=request.seq)
        if command.why is not None:
            if command.why not in WHYS:
                return refuse("CORE-6", "reject.undo.why_unknown", "an answer's why names a clause a no may stand on "
                              "({whys}), not {why}", whys=", ".join(WHYS), why=command.why[:40])
            if command.yes:
                return refuse("CORE-6", "reject.undo.why_with_yes", "only a no says why")
            if not request.redraw:
                return refuse("CORE-12", "reject.undo.why_not_redraw", "the undo asked at seq {seq} draws nothing "
                              "anew: a no to it cannot stand on CORE-12", seq=request.seq)
        answered = UndoAnswered(seat, request.seq, command.yes, command.why)
        if command.yes and len(request.agreed) + 1 == len(request.needs):
            return [answered, UndoApplied(request.seq, request.back_to, tuple(sorted(request.agreed + [seat])))]
        return [answered]

    def _stretch(self, seat: str, back_to: int) -> int | Rejection:
        """The index in ``effective`` of the command at ``back_to`` that ``seat`` may take back (CORE-4)."""
        index = self._index(back_to)
        if index is None:
            taken = self.undone.get(back_to)
            if taken is not None:
                return refuse("CORE-4", "reject.undo.taken_back", "seq {back_to} was taken back already (undo asked "
                              "at seq {request})", back_to=back_to, request=taken.seq)
            return refuse("CORE-4", "reject.undo.not_in_play", "seq {back_to} is not an event of this game in play",
                          back_to=back_to)
        head = self.effective[index]
        if head.command_id is None or (index and self.effective[index - 1].command_id == head.command_id):
            return refuse("CORE-4", "reject.undo.not_a_command", "seq {back_to} is not the first event of a command",
                          back_to=back_to)
        if head.seat != seat:
            return refuse("CORE-4", "reject.undo.not_own", "seq {back_to} is {seat}'s command {command}: a seat "
                          "takes back only its own commands", back_to=back_to, seat=head.seat,
                          command=_type(head.command))
        commands = 0
        previous = None
        for envelope in self.effective[index:]:
            # A rules-version move stops an undo even when a seat's yes made it (its command id is that
            # answer's): taking back the yes would take back the move the seats agreed to (CORE-3, CORE-11).
            if envelope.command_id is None or envelope.type in STOPS:
                return refuse("CORE-4", "reject.undo.stops_before", "seq {seq} ({event}) cannot be taken back: an "
                              "undo stops before it", seq=envelope.seq, event=envelope.type)
            if envelope.command_id != previous:
                commands += 1
                previous = envelope.command_id
        if commands > MOST_UNDONE:
            return refuse("CORE-4", "reject.undo.too_far", TOO_FAR, back_to=back_to, n=commands, most=MOST_UNDONE)
        return index

    def _index(self, seq: int) -> int | None:
        """Where seq is in ``effective`` (None: not in play); a bisection, the seqs being in order."""
        low, high = 0, len(self.effective)
        while low < high:
            middle = (low + high) // 2
            if self.effective[middle].seq < seq:
                low = middle + 1
            else:
                high = middle
        if low < len(self.effective) and self.effective[low].seq == seq:
            return low
        return None

    def crosses_chance(self, table: Any, request: Request) -> bool:
        """Whether the stretch the open ``request`` takes back holds a random outcome or a reveal, or
        whether it does is not known here (what a bot says no to, ``events.bots.answer_undo``)."""
        index = self._index(request.back_to)
        if index is None:
            return True
        _needs, exact, chance = self.weigh(table, request.seat, index)
        return chance or not exact

    def needs(self, table: Any, seat: str, index: int) -> tuple:
        """(the seats whose yes an undo of ``effective[index:]`` by ``seat`` needs, whether that is exact) (CORE-5)."""
        needs, exact, _chance = self.weigh(table, seat, index)
        return needs, exact

    def weigh(self, table: Any, seat: str, index: int) -> tuple:
        """(the seats whose yes an undo of ``effective[index:]`` by ``seat`` needs, whether that is exact,
        whether the stretch holds a random outcome or a reveal) (CORE-5, CORE-12).

        Not exact when a command of the stretch is withheld from this copy of the log (a sealed
        pick a spectator may not see): then whether it drew is not known here.
        """
        others = set()
        chance = False
        exact = True
        for place in range(index, len(self.effective)):
            envelope = self.effective[place]
            if envelope.seat != seat:
                others.add(envelope.seat)
            if reveals(envelope.event):
                chance = True
            if place == index or envelope.command_id != self.effective[place - 1].command_id:
                drew = self._drew(table, place)
                if drew is None:
                    exact = False
                chance = chance or bool(drew)
        if chance:
            others = set(table.game.seats(table.state))
        others.discard(seat)
        others.discard(None)
        return tuple(sorted(others)), exact, chance

    def _drew(self, table: Any, place: int) -> bool | None:
        """Whether the command whose first event is ``effective[place]`` drew (None: withheld here)."""
        head = self.effective[place]
        if head.dice is not None:
            return True
        if head.command is None:
            return None
        try:
            table.game.decide(self.state_before(table, place), head.seat, head.command, SealedRng())
        except SecretNeeded:
            return True
        except Exception:  # a copy of the state missing what it may not see: not known here
            return None
        return False

    def state_before(self, table: Any, place: int) -> Any:
        """The state after ``effective[place - 1]``: kept, or refolded from the effective history."""
        if place == 0:
            return None
        kept = self.after[place - 1]
        if kept is not None:
            return kept
        base = place - 1  # a resumed table (snapshot) or an old state let go: fold on from the nearest kept
        while base >= 0 and self.after[base] is None:
            base -= 1
        state = None if base < 0 else self.after[base]
        for envelope in self.effective[base + 1:place]:
            state = table.game.evolve(state, envelope.event)
        self.after[place - 1] = state
        return state

    # --- following the log -------------------------------------------------------------------------

    def check(self, table: Any, envelope: Any) -> None:
        """An undo event read from a log must be what the rules give at that point (UndoError otherwise)."""
        event = envelope.event
        where = f"seq {envelope.seq}"
        request = self.open
        if isinstance(event, UndoApplied):
            if request is None or not request.complete() or event.request != request.seq:
                raise UndoError("CORE-4", f"{where}: UndoApplied for an undo that is not agreed by every seat it needs")
            expected = UndoApplied(request.seq, request.back_to, tuple(sorted(request.agreed)))
            if event != expected:
                raise UndoError("CORE-4", f"{where}: logged {event!r}, the rules give {expected!r}")
            return
        if request is not None and request.complete():
            raise UndoError("CORE-4", f"{where}: the undo asked at seq {request.seq} had every yes it needed, so "
                                      f"UndoApplied must follow it, not {envelope.type}")
        if envelope.seat is None or envelope.seat != getattr(event, "seat", None):
            raise UndoError(event.RULE, f"{where}: {envelope.type} must be logged as its seat's own command")
        command = AskUndo(event.back_to) if isinstance(event, UndoAsked) else AnswerUndo(event.request, event.yes, event.why)
        if envelope.command is not None and envelope.command != command:
            raise UndoError(event.RULE, f"{where}: {envelope.type} does not follow from the logged command")
        decided = self.decide(table, envelope.seat, command)
        if isinstance(decided, Rejection):
            raise UndoError(decided.rule, f"{where}: {decided.reason}")
        produced = decided[0]
        if isinstance(event, UndoAsked) and produced != event:
            index = self._index(event.back_to)
            least, exact = self.needs(table, event.seat, index)
            # CORE-12: the words the seats answered say whether it draws anew; a copy that cannot tell
            # (a withheld command in the stretch) takes the log's word, a CORE-7 game never says so.
            if event.redraw != produced.redraw and (exact or not self.by_log):
                said = "draws anew" if event.redraw else "draws nothing anew"
                raise UndoError("CORE-12", f"{where}: the undo says it {said}, the rules say "
                                           f"{'it does' if produced.redraw else 'it does not'}")
            produced = produced.but(redraw=event.redraw)
            everyone = set(table.game.seats(table.state)) - {event.seat}
            if produced != event and (exact or event.seat != produced.seat or event.back_to != produced.back_to or
                                      not set(least) <= set(event.needs) <= everyone or
                                      list(event.needs) != sorted(event.needs)):
                raise UndoError("CORE-5", f"{where}: the undo waits for {', '.join(event.needs) or 'nobody'}, "
                                          f"the rules say {', '.join(produced.needs) or 'nobody'}")
        elif produced != event:
            raise UndoError(event.RULE, f"{where}: logged {event!r}, the rules give {produced!r}")

    def state_after(self, table: Any, event: Any) -> Any:
        """The state an undo event leads to: the same, or for UndoApplied the one before ``back_to``."""
        if isinstance(event, UndoApplied):
            return self.state_before(table, self._index(event.back_to))
        return table.state

    def note(self, envelope: Any, state: Any) -> None:
        """Follow one logged envelope (checked already); ``state`` is the state after it, if kept."""
        event = envelope.event
        if isinstance(event, UndoAsked):
            self.open = self.requests[envelope.seq] = Request(envelope.seq, event.seat, event.back_to, event.needs,
                                                              event.redraw)
        elif isinstance(event, UndoAnswered):
            request = self.open
            if event.yes:
                request.agreed.append(event.seat)
            else:
                request.outcome, request.closed_at = "refused", envelope.seq
                self.refused.append((request.seat, request.back_to))
                self.open = None
        elif isinstance(event, UndoApplied):
            request = self.open
            request.outcome, request.closed_at = "applied", envelope.seq
            index = self._index(event.back_to)
            for taken in self.effective[index:]:
                self.undone[taken.seq] = request
            del self.effective[index:]
            del self.after[index:]
            self.open = None
        else:
            if self.open is not None:  # a command by anyone withdraws the open request (CORE-6)
                self.open.outcome, self.open.closed_at = "withdrawn", envelope.seq
                self.open = None
            if envelope.command_id is not None:
                self.refused = []
            if len(self.effective) + 1 != envelope.seq:  # after an undo: kept, as few as there are such
                self.positions[envelope.seq] = len(self.effective) + 1
            self.effective.append(envelope)
            self.after.append(state)
            if len(self.after) > KEEP_STATES:
                self.after[len(self.after) - KEEP_STATES - 1] = None

    def due(self) -> bool:
        """Whether the open request has every yes it needs: only its UndoApplied may come next."""
        return self.open is not None and self.open.complete()

    def any(self) -> bool:
        return bool(self.requests)

    def last_own(self, seat: str) -> int | None:
        """The seq of the first event of ``seat``'s last command in play (what an Undo button takes back)."""
        for place in range(len(self.effective) - 1, -1, -1):
            envelope = self.effective[place]
            if envelope.command_id is None or envelope.type in STOPS:
                return None  # a rules move or the game's end: nothing before it can be taken back
            if envelope.seat == seat and (place == 0 or self.effective[place - 1].command_id != envelope.command_id):
                return envelope.seq
        return None


def _type(command: Any) -> Any:
    return phrase("reject.undo.withheld", "(withheld)") if command is None else command.TYPE

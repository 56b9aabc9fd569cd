"""The log: envelopes, folding, replay, and applying a command to a game in memory.

One envelope per event: ``{game, seq, type, data, seat, command_id, command, dice, rule, hash,
at}``. ``seq`` is dense from 1; the first envelope holds ``GameStarted``; every envelope of an
accepted command carries that command (type and data), so ``audit`` can re-decide it from the log
alone; ``dice`` lists the values a loaded generator forced, if any; ``hash`` is the state hash
after the event; ``at`` is informative and never read here. ``encode_envelope`` and
``decode_envelope`` are the one codec (``server.frames`` has msgspec's fast path to the same bytes).

``Table`` is one game in memory with its log: the shell (CLI or server Room) hands it commands
and stores what it returns, and ``Table.absorb`` is the one fold-and-verify step of every reader
(restore, audit, the Room, the browser). The dice of each command come from the game's secret
(CORE-1, ``events.dice``), keyed by its seq in the whole log (CORE-12: a game made now) or by its
position in the effective history (CORE-7: a game whose GameStarted names no dice key); the command
that ends the game is followed by SecretRevealed (CORE-2).
It never does I/O.
"""

from __future__ import annotations

import json

from events import upgrade
from events.canonical import state_hash
from events.dice import SealedRng, SecretNeeded, check_secret, command_rng, commitment, legacy_rng, local_secret
from events.game import DICE_KEYS, Flow, GameStarted, RulesVersionChanged, SecretRevealed, rule_of
from events.record import DecodeError, Record
from events.rng import LoadedRng, Rng
from events.rules import Rejection
from events.undo import UndoAsked, UndoError, Undos, is_undo_command, is_undo_event

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from events.game import Game

ENVELOPE_FIELDS = ("game", "seq", "type", "data", "seat", "command_id", "command", "dice", "rule", "hash", "at")


class Envelope:
    """One logged event and its context. ``event`` is the decoded record (not serialised twice)."""

    __slots__ = ("game", "seq", "event", "seat", "command_id", "command", "dice", "rule", "hash", "at")

    def __init__(
        self,
        game: str,
        seq: int,
        event: Record,
        seat: str | None,
        command_id: str | None,
        command: Record | None,
        dice: tuple | None,
        rule: str | None,
        hash: str,
        at: str | None = None,
    ) -> None:
        self.game = game
        self.seq = seq
        self.event = event
        self.seat = seat
        self.command_id = command_id
        self.command = command
        self.dice = dice
        self.rule = rule
        self.hash = hash
        self.at = at

    @property
    def type(self) -> str:
        return self.event.TYPE

    def redacted(self, event: Record, command: Record | None) -> Envelope:
        """A copy for a viewer who may not see it all: ``event``'s public form in place of the event,
        ``command``'s (None: withheld) in place of the command, and no dice; seq, seat, command id,
        rule and hash stay (the hash is the same: the state every viewer folds is the same)."""
        return Envelope(self.game, self.seq, event, self.seat, self.command_id, command, None, self.rule, self.hash,
                        self.at)

    def to_dict(self) -> dict:
        event = self.event.to_data()
        event.pop("type")
        command = None
        if self.command is not None:
            command_data = self.command.to_data()
            command = {"type": command_data.pop("type"), "data": command_data}
        return {
            "game": self.game,
            "seq": self.seq,
            "type": self.event.TYPE,
            "data": event,
            "seat": self.seat,
            "command_id": self.command_id,
            "command": command,
            "dice": list(self.dice) if self.dice is not None else None,
            "rule": self.rule,
            "hash": self.hash,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, game: Game, raw: Any, where: str = "$") -> Envelope:
        """Validate one envelope; errors name the field and what was found."""
        # Written as plain tests, not comprehensions, sets or sorts: in Brython each of those costs
        # microseconds per envelope, and a page catching up decodes 10,000 (docs/performance.md).
        if type(raw) is not dict and not isinstance(raw, dict):
            raise DecodeError(f"{where}: expected an envelope object, got {type(raw).__name__}")
        if "game" not in raw or "seq" not in raw or "type" not in raw or "data" not in raw or "hash" not in raw:
            missing = [name for name in ("game", "seq", "type", "data", "hash") if name not in raw]
            raise DecodeError(f"{where}: envelope is missing {', '.join(repr(m) for m in missing)}")
        known = 5 + ("seat" in raw) + ("command_id" in raw) + ("command" in raw) + ("dice" in raw) + ("rule" in raw) \
            + ("at" in raw)
        if len(raw) != known:  # some key is none of ENVELOPE_FIELDS
            unknown = sorted(set(raw) - set(ENVELOPE_FIELDS))
            raise DecodeError(f"{where}: envelope has unknown field {unknown[0]!r}")
        seq = raw["seq"]
        if type(seq) is not int and (not isinstance(seq, int) or isinstance(seq, bool)) or seq < 1:
            raise DecodeError(f"{where}.seq: expected a positive integer, got {seq!r}")
        data = raw["data"]
        if not isinstance(data, dict):
            raise DecodeError(f"{where}.data: expected an object, got {type(data).__name__}")
        if "type" in data:
            raise DecodeError(f"{where}.data: the event's type belongs in {where}.type, not in its data")
        event = game.events.build(dict(data, type=raw["type"]), where + ".data")
        command = None
        body = raw.get("command")
        if body is not None:
            if (
                not isinstance(body, dict) or len(body) != 2 or "type" not in body or "data" not in body
                or not isinstance(body["data"], dict) or "type" in body["data"]
            ):
                raise DecodeError(f"{where}.command: expected {{'type': ..., 'data': {{...}}}}, got {body!r}")
            command = game.commands.build(dict(body["data"], type=body["type"]), where + ".command")
        dice = raw.get("dice")
        if dice is not None:
            if not isinstance(dice, list):
                raise DecodeError(f"{where}.dice: expected a list of integers, got {dice!r}")
            for value in dice:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise DecodeError(f"{where}.dice: expected a list of integers, got {dice!r}")
            dice = tuple(dice)
        if type(raw["game"]) is not str or type(raw["hash"]) is not str:
            for name in ("game", "hash"):
                if not isinstance(raw[name], str):
                    raise DecodeError(f"{where}.{name}: expected a string, got {raw[name]!r}")
        seat, command_id, rule, at = raw.get("seat"), raw.get("command_id"), raw.get("rule"), raw.get("at")
        if (
            (seat is not None and type(seat) is not str) or (command_id is not None and type(command_id) is not str)
            or (rule is not None and type(rule) is not str) or (at is not None and type(at) is not str)
        ):
            for name in ("seat", "command_id", "rule", "at"):
                if raw.get(name) is not None and not isinstance(raw[name], str):
                    raise DecodeError(f"{where}.{name}: expected a string or null, got {raw[name]!r}")
        return cls(raw["game"], seq, event, seat, command_id, command, dice, rule, raw["hash"], at)


def encode_envelope(envelope: Envelope) -> str:
    """The one spelling of an envelope, wherever it goes (store, wire, log file): ``to_dict()`` as JSON
    with keys sorted, no spaces and non-ASCII text as itself. ``server.frames.encode_envelope`` is
    msgspec's fast path to the same bytes (``tests/server/test_frames.py`` proves it on every game)."""
    return json.dumps(envelope.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def decode_envelope(game: Game, text: str | bytes, where: str = "$") -> Envelope:
    """The reference decoder: JSON text -> Envelope, every field checked (``Envelope.from_dict``)."""
    try:
        raw = json.loads(text)
    except ValueError as error:
        raise DecodeError(f"{where}: not valid JSON: {error}") from None
    return Envelope.from_dict(game, raw, where)


def started_under(game: Game, envelopes: list) -> Game:
    """The rules version a log starts under: the released version of ``game`` its GameStarted names
    (issue 19), else ``game`` itself (a log this code never released a version for, or no log)."""
    if not envelopes or not isinstance(envelopes[0].event, GameStarted):
        return game
    try:
        return game.version(envelopes[0].event.rules_version)
    except KeyError:
        return game


def rules_in_force(game: Game, envelopes: list) -> Game:
    """The rules version a game is played under after ``envelopes`` (a log from its start): the one
    its GameStarted names (``started_under``), then each RulesVersionChanged's (CORE-3)."""
    game = started_under(game, envelopes[:1])
    for envelope in envelopes:
        if isinstance(envelope.event, RulesVersionChanged):
            game = game.version(envelope.event.to_version)
    return game


def fold(game: Game, events: Any, state: Any = None) -> Any:
    """``reduce(evolve, events, state)``: replay is a fold."""
    for event in events:
        state = game.evolve(state, event)
    return state


class Elided(Record):
    """What stands in a Table for an envelope it has not read yet (``Table.from_snapshot``)."""

    __slots__ = ()
    TYPE = "Elided"


# One placeholder for every such envelope: no seq, no seat, no command (an undo stops at it).
ELIDED = Envelope("", 0, Elided(), None, None, None, None, None, None)


class Accepted:
    """What an accepted command produced: its envelopes, ready to store.

    ``revealed`` is the SecretRevealed envelope that followed it when it ended the game (CORE-2),
    else None; ``logged`` is everything to store and broadcast, the command's envelopes then it.
    """

    __slots__ = ("envelopes", "revealed")

    def __init__(self, envelopes: list, revealed: Envelope | None = None) -> None:
        self.envelopes = envelopes
        self.revealed = revealed

    @property
    def logged(self) -> list:
        return self.envelopes if self.revealed is None else self.envelopes + [self.revealed]


class Table:
    """One game in memory: its state, its log, and the one way to change them (``submit``).

    ``secret`` is the game's secret (CORE-1) where this table may draw: the shell's, after
    ``create`` or a restore it handed the secret to, or anyone's once the log holds
    SecretRevealed. Without it (a browser, an audit of a running game) a command that draws
    raises ``SecretNeeded``. ``commitment`` is what GameStarted committed to.
    """

    def __init__(self, game: Game, game_id: str, follow: bool = True) -> None:
        self.game = game
        # With ``follow``, ``game`` becomes the released version GameStarted names (any version of the
        # game may be given: a page knows only the game's name), then each RulesVersionChanged's
        # (CORE-3); an audit under another version (``audit_log(..., follow=False)``) keeps the given one.
        self.follow = follow
        self.game_id = game_id
        self.state: Any = None
        self.envelopes: list[Envelope] = []
        self.secret: str | None = None
        self.commitment: str | None = None
        self.legacy_seed: int | None = None  # a log made before commitments names its seed (GameStarted.seed)
        self.revealed = False
        self.by_command: dict[str, list[Envelope]] = {}
        self.proposal: upgrade.Proposal | None = None  # the open proposal of a newer rules version (CORE-10)
        self.undos = Undos()  # the effective history and the undo requests (CORE-4 to CORE-7, events/undo.py)

    @property
    def seq(self) -> int:
        return len(self.envelopes)

    @classmethod
    def create(cls, game: Game, game_id: str, scenario: dict, secret: str | int, at: str | None = None,
               dice_key: str | None = DICE_KEYS[-1]) -> Table:
        """A new game from a scenario (a dict already read by the shell); raises ScenarioError.

        ``secret`` is the game's secret (64 hex digits, drawn by the shell from ``secrets``), or a
        local game's integer seed, turned into its secret by ``local_secret`` (``chronicle play``).
        Its GameStarted names ``dice_key`` (CORE-12); None makes a game keyed as every game made before
        CORE-12 was (CORE-7), which only tests of those games' logs want.
        """
        if isinstance(secret, int) and not isinstance(secret, bool):
            secret = local_secret(secret)
        table = cls(game, game_id)
        table.secret = check_secret(secret)
        started = game.start(scenario, commitment(secret, game_id))
        states = started.states_from(None) if isinstance(started, Flow) else None
        if dice_key is not None:  # the engine's marker, not the game's: ``start`` makes the same events as before
            started = [started[0].but(dice_key=dice_key)] + list(started[1:])
        for index, event in enumerate(started):
            table._append(event, None, None, None, None, at, None if states is None else states[index])
        table._reveal_if_over(at)
        return table

    @classmethod
    def restore(
        cls, game: Game, game_id: str, envelopes: list, verify: bool = True, secret: str | None = None
    ) -> Table:
        """Rebuild from stored envelopes (each through ``absorb``); with ``verify``, every hash must match.

        ``secret``, if the shell keeps it, must be the one GameStarted committed to (LogError if not).
        """
        *_, table = cls.restoring(game, game_id, envelopes, verify, secret)
        return table

    @classmethod
    def restoring(
        cls, game: Game, game_id: str, envelopes: list, verify: bool = True, secret: str | None = None,
        every: int = 1000,
    ) -> Any:
        """``restore`` in steps: yields the Table being built after every ``every`` envelopes, then the
        finished Table last (as ``resuming``), so that a shell can let other work run between steps."""
        table = cls(game, game_id)
        for index, envelope in enumerate(envelopes):
            if index and index % every == 0:
                yield table
            table.absorb(envelope, verify)
        if secret is not None:
            table.adopt(secret)
        yield table

    @classmethod
    def from_snapshot(cls, game: Game, game_id: str, started: Envelope, seq: int, state: Any) -> Table:
        """A Table at ``seq`` whose state a checked snapshot gave (``events.snapshot``): a page joining a
        long game folds only what follows it (issue 16, docs/client.md).

        GameStarted is read (its commitment, the rules version it names), not folded; the envelopes
        between are ``ELIDED`` until the reader has folded the log itself. Only for a log with no undo,
        no SecretRevealed and no rules-version event up to ``seq``: the server offers a snapshot only then.
        """
        if started.seq != 1 or not isinstance(started.event, GameStarted) or seq < 2:
            raise LogError(f"a Table from a snapshot at seq {seq} needs GameStarted at seq 1")
        table = cls(game, game_id)
        table.game = started_under(game, [started])
        table.commitment, table.legacy_seed = started.event.commitment, started.event.seed
        table.undos.by_log = started.event.dice_key is not None  # CORE-12
        table.envelopes = [started] + [ELIDED] * (seq - 1)
        table.undos.effective = list(table.envelopes)
        table.undos.after = [None] * (seq - 1) + [state]
        table.state = state
        return table

    @classmethod
    def resume(cls, game: Game, game_id: str, envelopes: list, state: Any, secret: str | None = None) -> Table:
        """A Table at the end of ``envelopes`` whose state the caller already holds (a snapshot checked
        against its logged hash, then the tail folded): the log is indexed, not folded again.

        Only the first envelope (the GameStarted) is folded, as ``restore`` does; ``state`` must hash
        to the last envelope's hash (LogError otherwise).
        """
        *_, table = cls.resuming(game, game_id, envelopes, state, secret)
        return table

    @classmethod
    def resuming(cls, game: Game, game_id: str, envelopes: list, state: Any, secret: str | None = None,
                 every: int = 1000) -> Any:
        """``resume`` in steps: yields the Table being built after every ``every`` envelopes, then the
        finished Table last, so that a shell can let other work run between steps (a Room's load,
        server/room.py). Only the last Table yielded is whole."""
        if any(is_undo_event(envelope.event) for envelope in envelopes):  # undos need the states: fold it all
            yield from cls.restoring(game, game_id, envelopes, secret=secret, every=every)
            return
        table = cls.restore(game, game_id, envelopes[:1])
        for index, envelope in enumerate(envelopes[1:], 1):
            if index % every == 0:
                yield table
            if envelope.seq != table.seq + 1:
                raise LogError(f"seq {envelope.seq} follows seq {table.seq}: the log has a gap")
            if isinstance(envelope.event, SecretRevealed):  # a finished game: its secret is public
                opened = _opens(envelope.event.secret, game_id, table.commitment)
                if opened is not None:
                    raise LogError(f"seq {envelope.seq}: SecretRevealed {opened}")
                table.secret, table.revealed = envelope.event.secret, True
            elif isinstance(envelope.event, RulesVersionChanged):
                table._move(envelope)
            try:  # the consent as absorb checks it: a game's seats never change, and it is over once revealed
                table.proposal = upgrade.follow(table.game, table.revealed, game.seats(state), table.proposal,
                                                envelope.seq, envelope.seat, envelope.event)
            except upgrade.ConsentError as error:
                raise LogError(str(error)) from None
            table.envelopes.append(envelope)
            table.undos.note(envelope, None)  # its state is refolded only if an undo ever needs it
            if envelope.command_id is not None:
                table.by_command.setdefault(envelope.command_id, []).append(envelope)
        if len(envelopes) > 1:
            if state_hash(state) != envelopes[-1].hash:
                raise LogError(f"seq {envelopes[-1].seq}: the given state does not match the logged hash")
            table.state = state
            table.undos.after[-1] = state
        if secret is not None:
            table.adopt(secret)
        yield table

    def absorb(self, envelope: Envelope, verify: bool = True) -> Envelope:
        """The one fold-and-verify step: seq continuity, GameStarted first, fold, hash, index by command id.

        A SecretRevealed must open GameStarted's commitment (CORE-2). Raises LogError, naming the seq,
        and leaves the table as it was.
        """
        if envelope.seq != self.seq + 1:
            raise LogError(f"seq {envelope.seq} follows seq {self.seq}: the log has a gap")
        event = envelope.event
        if (envelope.seq == 1) != isinstance(event, GameStarted):
            raise LogError(f"seq {envelope.seq}: a log starts with one GameStarted, got {envelope.type}")
        if is_undo_event(event) or self.undos.due():  # CORE-4 to CORE-6: checked against the rules
            try:
                self.undos.check(self, envelope)
            except UndoError as error:
                raise LogError(str(error), error.rule) from None
        if is_undo_event(event):  # folded by the book: UndoApplied goes back to the state before back_to
            state = self.undos.state_after(self, event)
        else:
            game = self.game
            if self.follow and isinstance(event, GameStarted):  # its own version folds it (mecha-1's start differs)
                game = started_under(game, [envelope])
            try:
                state = game.evolve(self.state, event)
            except Exception as error:  # a tampered event, or one today's rules no longer know
                raise LogError(
                    f"seq {envelope.seq}: today's rules cannot fold this event: {type(error).__name__}: {error}"
                ) from error
        if verify and state_hash(state) != envelope.hash:
            raise LogError(f"seq {envelope.seq}: the logged hash does not match the replayed state")
        proposal = None
        # The seats' consent to a newer version, checked as the rules would decide it (CORE-10, CORE-11).
        # Any other event closes an open proposal without a check (``upgrade.track``): the seats and
        # whether the game is over, which a page paid for at every envelope, are read only for these.
        if self.follow and event.TYPE.startswith("RulesVersion"):
            try:
                proposal = upgrade.follow(self.game, self.state is not None and bool(self.game.is_over(self.state)),
                                          () if self.state is None else self.game.seats(self.state), self.proposal,
                                          envelope.seq, envelope.seat, event)
            except upgrade.ConsentError as error:
                raise LogError(str(error)) from None
        if isinstance(event, SecretRevealed):
            opened = _opens(event.secret, self.game_id, self.commitment)
            if opened is not None:
                raise LogError(f"seq {envelope.seq}: SecretRevealed {opened}")
        elif isinstance(event, RulesVersionChanged):
            self._move(envelope)
        self.state = state
        self.proposal = proposal
        if isinstance(event, GameStarted):
            self.commitment, self.legacy_seed = event.commitment, event.seed
            self.undos.by_log = event.dice_key is not None  # CORE-12: dice keyed by seq in the whole log
            self.game = game
        elif isinstance(event, SecretRevealed):
            self.secret, self.revealed = event.secret, True
        self.envelopes.append(envelope)
        self.undos.note(envelope, state)
        if envelope.command_id is not None:
            self.by_command.setdefault(envelope.command_id, []).append(envelope)
        return envelope

    def _move(self, envelope: Envelope) -> None:
        """Follow a logged RulesVersionChanged (CORE-3): from the version in force, to a released one,
        starting at the next seq; LogError otherwise. Checked before anything of the table changes."""
        if not self.follow:
            return
        event = envelope.event
        if event.from_version != self.game.rules_version:
            raise LogError(f"seq {envelope.seq}: RulesVersionChanged from {event.from_version}, but the game is "
                           f"played under {self.game.rules_version}")
        if event.since_seq != envelope.seq + 1:
            raise LogError(f"seq {envelope.seq}: RulesVersionChanged must start at seq {envelope.seq + 1}, "
                           f"not {event.since_seq}")
        try:
            self.game = self.game.version(event.to_version)
        except KeyError as error:
            raise LogError(f"seq {envelope.seq}: RulesVersionChanged to {error.args[0]}") from None

    def move_to(self, rules_version: str, at: str | None = None) -> Envelope:
        """Append RulesVersionChanged and decide every later command under ``rules_version`` (CORE-3).

        The shell calls it only for a game that replays unchanged under that version (``audit_log``
        checks it: a move without the seats' consent of a game that diverges is a divergence); a move
        the seats agreed to is appended by ``submit`` after the last yes (``events/upgrade.py``).
        ValueError names what is wrong: an unreleased or older version, a game that is over.
        """
        target = self.game.version(rules_version)  # KeyError names the released ones
        if target is self.game:
            raise ValueError(f"game {self.game_id} is played under {rules_version} already")
        if target in self.game.versions():
            raise ValueError(f"{rules_version} is older than {self.game.rules_version}: a game only moves forward")
        if self.state is None or self.game.is_over(self.state):
            raise ValueError(f"game {self.game_id} is over: its rules version no longer matters")
        self._append(RulesVersionChanged(self.game.rules_version, rules_version, self.seq + 2), None, None, None,
                     None, at)
        self.game = target
        return self.envelopes[-1]

    def adopt(self, secret: str) -> None:
        """Take the secret the shell kept for this game, once it is checked against the commitment."""
        opened = _opens(secret, self.game_id, self.commitment)
        if opened is not None:
            raise LogError(f"game {self.game_id}: the stored secret {opened}")
        self.secret = secret

    def submit(
        self, seat: str, command: Record, command_id: str, at: str | None = None, rng: Rng | None = None
    ) -> Accepted | Rejection:
        """Decide a command and, if accepted, log its events, each folded once: by the game's
        ``decide`` into its Flow (whose states are kept), or here when it answered a plain list.

        A command id already in the log answers with its earlier envelopes (applied once). The
        command that ends the game is followed by SecretRevealed (CORE-2), in the same batch.
        """
        if command_id in self.by_command:
            return Accepted(self.by_command[command_id])
        if is_undo_command(command):  # AskUndo, AnswerUndo: the engine's own (CORE-4, CORE-6), they never draw
            decided = self.undos.decide(self, seat, command)
            if isinstance(decided, Rejection):
                return decided
            first = self.seq + 1
            for event in decided:
                self._append(event, seat, command_id, command, None, at)
            return Accepted(self.envelopes[first - 1 :])
        if rng is None:
            rng = self.rng()
        if command.TYPE in upgrade.CORE_COMMANDS.by_type:  # a seat's consent to a newer version (CORE-10, CORE-11)
            result = upgrade.decide(self.game, self.state, self.proposal, seat, command, self.seq + 1)
        else:
            result = self.game.decide(self.state, seat, command, rng)
        if isinstance(result, Rejection):
            return result
        if not result:
            raise LogError(f"{self.game.name}: decide accepted {command!r} but produced no event")
        dice = tuple(rng.values[: rng.used]) if isinstance(rng, LoadedRng) and rng.used else None
        first = self.seq + 1
        states = result.states_from(self.state) if isinstance(result, Flow) else None  # folded once, by decide
        for index, event in enumerate(result):
            self._append(event, seat, command_id, command, dice, at, None if states is None else states[index])
            dice = None
        produced = self.envelopes[first - 1 :]
        if isinstance(produced[-1].event, RulesVersionChanged):  # the seats agreed: later commands, new rules
            self.game = self.game.version(produced[-1].event.to_version)
        return Accepted(produced, self.envelopes[-1] if self._reveal_if_over(at) else None)

    def caused_upto(self, last: int) -> int:
        """The last seq a command whose own events end at ``last`` caused: SecretRevealed's if it follows."""
        if last < self.seq and isinstance(self.envelopes[last].event, SecretRevealed):
            return last + 1
        return last

    def rng(self) -> Rng:
        """The generator of the next command (CORE-1): derived from the secret, or sealed without it.

        Keyed by the seq its first event gets (CORE-12), or in a game that names no dice key by its
        position in the effective history (CORE-7): with no undo logged, both are that seq."""
        position = self.undos.key(self.seq + 1)
        if self.legacy_seed is not None:  # a game from before commitments: its dice were always public
            return legacy_rng(self.legacy_seed, position)
        return command_rng(self.secret, position) if self.secret is not None else SealedRng()

    def _reveal_if_over(self, at: str | None) -> bool:
        """Append SecretRevealed if the game is over and its secret still unpublished (CORE-2)."""
        if self.revealed or self.secret is None or not self.game.is_over(self.state):
            return False
        self._append(SecretRevealed(self.secret), None, None, None, None, at)
        return True

    def _append(self, event, seat, command_id, command, dice, at, state: Any = None) -> None:
        """Log one event; ``state`` is the state it leads to when its Flow folded it already."""
        if event.TYPE not in self.game.events:
            raise LogError(f"{self.game.name}: event type {event.TYPE!r} is not registered")
        rule = rule_of(event)
        if rule is not None and rule not in self.game.catalogue:
            raise LogError(f"{self.game.name}: event {event.TYPE} cites unknown clause {rule!r}")
        if is_undo_event(event):
            self.state = self.undos.state_after(self, event)  # CORE-4: UndoApplied restores the state before back_to
        else:
            self.state = self.game.evolve(self.state, event) if state is None else state
        if isinstance(event, GameStarted):
            self.commitment, self.legacy_seed = event.commitment, event.seed
            self.undos.by_log = event.dice_key is not None  # CORE-12: dice keyed by seq in the whole log
        elif isinstance(event, SecretRevealed):
            self.revealed = True
        self.proposal = upgrade.track(self.proposal, self.seq + 1, event)
        envelope = Envelope(
            self.game_id, self.seq + 1, event, seat, command_id, command, dice, rule, state_hash(self.state), at
        )
        self.envelopes.append(envelope)
        self.undos.note(envelope, self.state)
        if command_id is not None:
            self.by_command.setdefault(command_id, []).append(envelope)


def _opens(secret: Any, game_id: str, committed: str | None) -> str | None:
    """None if ``secret`` is the one ``committed`` binds this game to; else what is wrong with it."""
    try:
        check_secret(secret)
    except ValueError as error:
        return f"is no secret: {error}"
    if committed is None or commitment(secret, game_id) != committed:
        return f"does not match the commitment {str(committed)[:12]}… of GameStarted"
    return None


def command_groups(envelopes: list) -> list[list]:
    """The log cut into runs of envelopes that one command produced (GameStarted alone first)."""
    groups: list[list] = []
    for envelope in envelopes:
        if groups and envelope.command_id is not None and groups[-1][0].command_id == envelope.command_id:
            groups[-1].append(envelope)
        else:
            groups.append([envelope])
    return groups


class Divergence:
    """Where an audit found the log and today's rules disagree.

    ``logged_rule`` and ``produced_rule`` are the clauses behind each outcome, where there is one:
    the logged event's ``rule`` and the produced event's, or the clause of the rejection that
    refused the logged command (issue 19), so that a rules change names the clause it changed.
    """

    __slots__ = ("seq", "logged", "produced", "logged_rule", "produced_rule")

    def __init__(
        self, seq: int, logged: str, produced: str, logged_rule: str | None = None, produced_rule: str | None = None
    ) -> None:
        self.seq = seq
        self.logged = logged
        self.produced = produced
        self.logged_rule = logged_rule
        self.produced_rule = produced_rule

    @property
    def clause(self) -> str | None:
        """The clause that decided differently: the produced outcome's, else the logged one's."""
        return self.produced_rule or self.logged_rule

    def __str__(self) -> str:
        return f"seq {self.seq}: logged {self.logged}, produced {self.produced}"


class Audit:
    """What an audit established: the first divergence (None: none), and exactly what it checked.

    ``events`` were folded and their hashes checked; ``redecided`` commands were decided again and
    gave the logged events (``with_dice`` of them drew from the game's secret, or its open seed);
    ``loaded`` are the seqs of the commands that took outcomes from their envelope's ``dice``:
    values chosen by whoever made the log (``chronicle play --dice``), not drawn from the secret
    (CORE-1), so the log proves nothing about them; ``sealed`` commands draw and wait for the
    secret's reveal (their events folded and hashed, their outcomes not re-derived); ``withheld``
    commands are not in this copy of the log (a sealed pick a spectator may not see).
    ``revealed``: the log holds SecretRevealed and its secret matched the commitment; ``over``:
    the game is over.
    """

    __slots__ = ("divergence", "events", "redecided", "with_dice", "loaded", "sealed", "withheld", "revealed",
                 "over")

    def __init__(self) -> None:
        self.divergence: Divergence | None = None
        self.events = 0
        self.redecided = 0
        self.with_dice = 0
        self.loaded: list = []
        self.sealed = 0
        self.withheld = 0
        self.revealed = False
        self.over = False

    @property
    def complete(self) -> bool:
        """Nothing diverged, nothing is left unchecked, and every outcome came from the secret."""
        return self.divergence is None and not self.sealed and not self.withheld and not self.loaded


def audit(game: Game, envelopes: list, secret: str | None = None) -> Divergence | None:
    """The first divergence of the log from today's rules, or None: ``audit_log(...).divergence``."""
    return audit_log(game, envelopes, secret).divergence


def audit_log(game: Game, envelopes: list, secret: str | None = None, follow: bool = True) -> Audit:
    """Re-decide every logged command and re-fold every event; say exactly what was checked.

    The dice of a command come from the game's secret (CORE-1): once the log holds SecretRevealed
    (CORE-2), its secret must open GameStarted's commitment and every command is re-decided with
    ``command_rng(secret, key)`` (and its loaded dice), ``key`` as CORE-12 or CORE-7 says (``Undos.key``). Before the reveal a command is decided
    with a ``SealedRng``: one that draws nothing is re-decided all the same, one that draws is
    counted in ``sealed`` and its logged events are folded and hashed, never guessed at.

    ``secret`` is for whoever holds the game's secret before the reveal (the server's operator, a
    test reading its store): it must open the commitment too, and then every die is re-derived.

    Each command is re-decided under ``game`` and, with ``follow``, under the version a logged
    RulesVersionChanged moved the game to (CORE-3); without it, under ``game`` throughout: what the
    whole game would have been under another version (``chronicle audit --rules``).
    """
    report = Audit()
    table = Table(game, envelopes[0].game if envelopes else "", follow)
    revealed = next((e for e in envelopes if isinstance(e.event, SecretRevealed)), None)
    committed = envelopes[0].event.commitment if envelopes and isinstance(envelopes[0].event, GameStarted) else None
    for where, candidate in ((revealed, None if revealed is None else revealed.event.secret), (None, secret)):
        if candidate is None or not committed:
            continue
        opened = _opens(candidate, table.game_id, committed)
        if opened is not None:
            if where is not None:  # the log's own SecretRevealed: what it holds against what CORE-2 requires
                report.divergence = Divergence(where.seq, f"a secret that {opened}",
                                               "one that opens the commitment", "CORE-2")
            else:  # the caller's secret: the log's commitment against what that secret gives
                report.divergence = Divergence(1, "a commitment", f"a given secret that {opened}", "CORE-2")
            return report
        report.revealed = report.revealed or where is not None
        secret = candidate
    legacy = envelopes[0].event.seed if envelopes and isinstance(envelopes[0].event, GameStarted) else None
    if legacy is not None:  # a log from before commitments: every die re-derived from its open seed
        report.revealed = True
    for group in command_groups(envelopes):
        if table.seq == 1:  # the caller chose the version that decides from seq 1 on, whatever GameStarted names
            table.game = game
        head = group[0]
        if head.command is not None:
            report.divergence = _redecide(table.game, table, group, secret, report, legacy)
            if report.divergence is not None:
                return report
        elif head.command_id is not None:
            report.withheld += 1
        elif follow and isinstance(head.event, RulesVersionChanged) and head.event.agreed is None:
            report.divergence = _unconsented(game, envelopes[: head.seq - 1], head, secret)
            if report.divergence is not None:
                return report
        for envelope in group:
            try:
                table.absorb(envelope)
            except LogError as error:
                report.divergence = _unfolded(envelope, table, error)
                return report
            report.events += 1
    report.over = bool(envelopes) and bool(table.game.is_over(table.state))
    return report


def _redecide(
    game: Game, table: Table, group: list, secret: str | None, report: Audit, legacy: int | None = None
) -> Divergence | None:
    """Decide a logged command again on the state before it; its events must be the logged ones."""
    head = group[0]
    if is_undo_command(head.command):  # CORE-4, CORE-6: decided by the Table's book of undos, never drawing
        produced = table.undos.decide(table, head.seat, head.command)
        if isinstance(produced, Rejection):
            return Divergence(head.seq, f"{head.command.TYPE} accepted", f"rejection {produced}", head.rule,
                              produced.rule)
        divergence = _compare(group, produced, report)
        if divergence is not None:
            if divergence.seq == head.seq and isinstance(head.event, UndoAsked):
                # the same request: whose yes it needs (CORE-5), or only whether it says it draws anew (CORE-12)
                alike = isinstance(produced[0], UndoAsked) and produced[0].but(redraw=head.event.redraw) == head.event
                divergence.produced_rule = "CORE-12" if alike else "CORE-5"
            divergence.produced += f" (the undo rules, {divergence.clause})"  # printed by ``chronicle audit``
        return divergence
    base: Rng
    position = table.undos.key(head.seq)  # CORE-12: its seq; CORE-7: its position in the effective history
    if legacy is not None:
        base = legacy_rng(legacy, position)
    else:
        base = command_rng(secret, position) if secret is not None else SealedRng()
    rng = LoadedRng(head.dice, fallback=base) if head.dice is not None else base
    untouched = base.state
    consent = head.command.TYPE in upgrade.CORE_COMMANDS.by_type  # a seat's consent (CORE-10, CORE-11)
    if consent and not table.follow:
        return None  # a proposal names the log's versions: under another version it is folded, not re-decided
    try:
        if consent:
            produced = upgrade.decide(game, table.state, table.proposal, head.seat, head.command, head.seq)
        else:
            produced = game.decide(table.state, head.seat, head.command, rng)
    except SecretNeeded:
        report.sealed += 1
        return None
    except Exception as error:  # a rules change can make old commands crash: that is a finding
        return Divergence(head.seq, f"{head.command.TYPE} accepted", f"an error: {error}", head.rule)
    if isinstance(produced, Rejection):
        return Divergence(head.seq, f"{head.command.TYPE} accepted", f"rejection {produced}", head.rule, produced.rule)
    divergence = _compare(group, produced, report)
    if divergence is None:
        if base.state != untouched:
            report.with_dice += 1
        if head.dice is not None and rng.used:
            report.loaded.append(head.seq)
    return divergence


def _compare(group: list, produced: list, report: Audit) -> Divergence | None:
    """The logged events of a command against those deciding it again produced."""
    for index, envelope in enumerate(group):
        if index >= len(produced):
            return Divergence(envelope.seq, _describe(envelope.event), "no event", envelope.rule)
        if produced[index] != envelope.event:
            return Divergence(envelope.seq, _describe(envelope.event), _describe(produced[index]), envelope.rule,
                              rule_of(produced[index]))
    if len(produced) > len(group):
        extra = produced[len(group)]
        return Divergence(group[-1].seq + 1, "no event", _describe(extra), None, rule_of(extra))
    report.redecided += 1
    return None


def _unconsented(game: Game, before: list, moved: Envelope, secret: str | None) -> Divergence | None:
    """A move no seat agreed to stands only if the log before it replays unchanged under its version
    (CORE-3: ``chronicle upgrade``'s own check, with the dice this audit can derive)."""
    try:
        target = game.version(moved.event.to_version)
    except KeyError:
        return None  # an unreleased version: ``Table.absorb`` refuses the move itself
    parted = audit_log(target, before, secret, follow=False).divergence
    if parted is None:
        return None
    return Divergence(moved.seq, f"a move to {target.rules_version} without the seats' consent",
                      f"a log that diverges under it at seq {parted.seq} ({parted}): only its seats may agree to "
                      "that move", moved.rule, parted.clause)


def _unfolded(envelope: Envelope, table: Table, error: LogError) -> Divergence:
    """An envelope ``absorb`` refused, as a divergence: what the log says against what folding gives."""
    if error.rule is not None:  # an undo event the consent rules would not give (CORE-4 to CORE-6)
        return Divergence(envelope.seq, f"{envelope.type} as logged", str(error), envelope.rule, error.rule)
    try:
        state = table.game.evolve(table.state, envelope.event)
    except Exception as failure:  # an event today's rules cannot fold is a finding too
        return Divergence(envelope.seq, f"{envelope.type} folded", f"an error: {failure}", envelope.rule)
    produced = state_hash(state)
    if produced != envelope.hash:
        return Divergence(envelope.seq, f"hash {envelope.hash[:12]}", f"hash {produced[:12]}", envelope.rule)
    return Divergence(envelope.seq, f"{envelope.type} as logged", str(error), envelope.rule)


def _describe(event: Record) -> str:
    from events.canonical import canonical_json

    return canonical_json(event.to_data())


class LogError(ValueError):
    """A log that cannot be replayed as it stands: a gap, a wrong hash, an unknown event; ``rule`` is the
    clause a logged undo event breaks (CORE-4 to CORE-6), else None."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        ValueError.__init__(self, message)
        self.rule = rule

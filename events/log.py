"""The log: envelopes, folding, replay, and applying a command to a game in memory.

One envelope per event: ``{game, seq, type, data, seat, command_id, command, dice, rule, hash,
at}``. ``seq`` is dense from 1; the first envelope holds ``GameStarted``; every envelope of an
accepted command carries that command (type and data), so ``audit`` can re-decide it from the log
alone; ``dice`` lists the values a loaded generator forced, if any; ``hash`` is the state hash
after the event; ``at`` is informative and never read here.

``Table`` is one game in memory with its log: the shell (CLI or server Room) hands it commands
and stores what it returns. It never does I/O.
"""

from __future__ import annotations

from events.canonical import state_hash
from events.game import GameStarted, rule_of
from events.record import DecodeError, Record
from events.rng import LoadedRng, Rng
from events.rules import Rejection

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
        if not isinstance(raw, dict):
            raise DecodeError(f"{where}: expected an envelope object, got {type(raw).__name__}")
        missing = [name for name in ("game", "seq", "type", "data", "hash") if name not in raw]
        if missing:
            raise DecodeError(f"{where}: envelope is missing {', '.join(repr(m) for m in missing)}")
        unknown = sorted(set(raw) - set(ENVELOPE_FIELDS))
        if unknown:
            raise DecodeError(f"{where}: envelope has unknown field {unknown[0]!r}")
        seq = raw["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise DecodeError(f"{where}.seq: expected a positive integer, got {seq!r}")
        if not isinstance(raw["data"], dict):
            raise DecodeError(f"{where}.data: expected an object, got {type(raw['data']).__name__}")
        if "type" in raw["data"]:
            raise DecodeError(f"{where}.data: the event's type belongs in {where}.type, not in its data")
        event = game.events.build(dict(raw["data"], type=raw["type"]), f"{where}.data")
        command = None
        if raw.get("command") is not None:
            body = raw["command"]
            if (
                not isinstance(body, dict) or set(body) != {"type", "data"} or not isinstance(body["data"], dict)
                or "type" in body["data"]
            ):
                raise DecodeError(f"{where}.command: expected {{'type': ..., 'data': {{...}}}}, got {body!r}")
            command = game.commands.build(dict(body["data"], type=body["type"]), f"{where}.command")
        dice = raw.get("dice")
        if dice is not None:
            if not isinstance(dice, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in dice):
                raise DecodeError(f"{where}.dice: expected a list of integers, got {dice!r}")
            dice = tuple(dice)
        for name in ("game", "hash"):
            if not isinstance(raw[name], str):
                raise DecodeError(f"{where}.{name}: expected a string, got {raw[name]!r}")
        for name in ("seat", "command_id", "rule", "at"):
            if raw.get(name) is not None and not isinstance(raw[name], str):
                raise DecodeError(f"{where}.{name}: expected a string or null, got {raw[name]!r}")
        return cls(
            raw["game"], seq, event, raw.get("seat"), raw.get("command_id"), command, dice,
            raw.get("rule"), raw["hash"], raw.get("at"),
        )


def fold(game: Game, events: Any, state: Any = None) -> Any:
    """``reduce(evolve, events, state)``: replay is a fold."""
    for event in events:
        state = game.evolve(state, event)
    return state


class Accepted:
    """What an accepted command produced: its envelopes, ready to store."""

    __slots__ = ("envelopes",)

    def __init__(self, envelopes: list) -> None:
        self.envelopes = envelopes


class Table:
    """One game in memory: its state, its log, and the one way to change them (``submit``)."""

    def __init__(self, game: Game, game_id: str) -> None:
        self.game = game
        self.game_id = game_id
        self.state: Any = None
        self.envelopes: list[Envelope] = []
        self.seed = 0
        self.by_command: dict[str, list[Envelope]] = {}

    @property
    def seq(self) -> int:
        return len(self.envelopes)

    @classmethod
    def create(cls, game: Game, game_id: str, scenario: dict, seed: int, at: str | None = None) -> Table:
        """A new game from a scenario (a dict already read by the shell); raises ScenarioError."""
        table = cls(game, game_id)
        for event in game.start(scenario, seed):
            table._append(event, None, None, None, None, at)
        return table

    @classmethod
    def restore(cls, game: Game, game_id: str, envelopes: list, verify: bool = True) -> Table:
        """Rebuild from stored envelopes; with ``verify``, every hash must match the fold."""
        table = cls(game, game_id)
        for envelope in envelopes:
            if envelope.seq != table.seq + 1:
                raise LogError(f"seq {envelope.seq} follows seq {table.seq}: the log has a gap")
            if (envelope.seq == 1) != isinstance(envelope.event, GameStarted):
                raise LogError(f"seq {envelope.seq}: a log starts with one GameStarted, got {envelope.type}")
            try:
                table.state = game.evolve(table.state, envelope.event)
            except Exception as error:  # a tampered event, or one today's rules no longer know
                raise LogError(
                    f"seq {envelope.seq}: today's rules cannot fold this event: {type(error).__name__}: {error}"
                ) from error
            if isinstance(envelope.event, GameStarted):
                table.seed = envelope.event.seed
            if verify and state_hash(table.state) != envelope.hash:
                raise LogError(f"seq {envelope.seq}: the logged hash does not match the replayed state")
            table.envelopes.append(envelope)
            if envelope.command_id is not None:
                table.by_command.setdefault(envelope.command_id, []).append(envelope)
        return table

    @classmethod
    def resume(cls, game: Game, game_id: str, envelopes: list, state: Any) -> Table:
        """A Table at the end of ``envelopes`` whose state the caller already holds (a snapshot checked
        against its logged hash, then the tail folded): the log is indexed, not folded again.

        Only the first envelope (the GameStarted) is folded, as ``restore`` does; ``state`` must hash
        to the last envelope's hash (LogError otherwise).
        """
        table = cls.restore(game, game_id, envelopes[:1])
        for envelope in envelopes[1:]:
            if envelope.seq != table.seq + 1:
                raise LogError(f"seq {envelope.seq} follows seq {table.seq}: the log has a gap")
            table.envelopes.append(envelope)
            if envelope.command_id is not None:
                table.by_command.setdefault(envelope.command_id, []).append(envelope)
        if len(envelopes) > 1:
            if state_hash(state) != envelopes[-1].hash:
                raise LogError(f"seq {envelopes[-1].seq}: the given state does not match the logged hash")
            table.state = state
        return table

    def submit(
        self, seat: str, command: Record, command_id: str, at: str | None = None, rng: Rng | None = None
    ) -> Accepted | Rejection:
        """Decide a command and, if accepted, fold and log its events.

        A command id already in the log answers with its earlier envelopes (applied once).
        """
        if command_id in self.by_command:
            return Accepted(self.by_command[command_id])
        if rng is None:
            rng = Rng.for_command(self.seed, self.seq + 1)
        result = self.game.decide(self.state, seat, command, rng)
        if isinstance(result, Rejection):
            return result
        if not result:
            raise LogError(f"{self.game.name}: decide accepted {command!r} but produced no event")
        dice = tuple(rng.values[: rng.used]) if isinstance(rng, LoadedRng) and rng.used else None
        first = self.seq + 1
        for event in result:
            self._append(event, seat, command_id, command, dice, at)
            dice = None
        return Accepted(self.envelopes[first - 1 :])

    def _append(self, event, seat, command_id, command, dice, at) -> None:
        if event.TYPE not in self.game.events:
            raise LogError(f"{self.game.name}: event type {event.TYPE!r} is not registered")
        rule = rule_of(event)
        if rule is not None and rule not in self.game.catalogue:
            raise LogError(f"{self.game.name}: event {event.TYPE} cites unknown clause {rule!r}")
        self.state = self.game.evolve(self.state, event)
        if isinstance(event, GameStarted):
            self.seed = event.seed
        envelope = Envelope(
            self.game_id, self.seq + 1, event, seat, command_id, command, dice, rule, state_hash(self.state), at
        )
        self.envelopes.append(envelope)
        if command_id is not None:
            self.by_command.setdefault(command_id, []).append(envelope)


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
    """Where an audit found the log and today's rules disagree."""

    __slots__ = ("seq", "logged", "produced")

    def __init__(self, seq: int, logged: str, produced: str) -> None:
        self.seq = seq
        self.logged = logged
        self.produced = produced

    def __str__(self) -> str:
        return f"seq {self.seq}: logged {self.logged}, produced {self.produced}"


def audit(game: Game, envelopes: list) -> Divergence | None:
    """Re-decide every logged command with its recorded seed (and loaded dice); first divergence.

    Also checks that every logged hash is the hash of the re-folded state.
    """
    state: Any = None
    seed = 0
    for group in command_groups(envelopes):
        head = group[0]
        if head.command is None:
            for envelope in group:
                try:
                    state = game.evolve(state, envelope.event)
                except Exception as error:  # an event today's rules cannot fold is a finding too
                    return Divergence(envelope.seq, f"{envelope.type} folded", f"an error: {error}")
                if isinstance(envelope.event, GameStarted):
                    seed = envelope.event.seed
                if state_hash(state) != envelope.hash:
                    return Divergence(envelope.seq, f"hash {envelope.hash[:12]}", f"hash {state_hash(state)[:12]}")
            continue
        rng: Rng = Rng.for_command(seed, head.seq)
        if head.dice is not None:
            rng = LoadedRng(head.dice, fallback=rng)
        try:
            produced = game.decide(state, head.seat, head.command, rng)
        except Exception as error:  # a rules change can make old commands crash: that is a finding
            return Divergence(head.seq, f"{head.command.TYPE} accepted", f"an error: {error}")
        if isinstance(produced, Rejection):
            return Divergence(head.seq, f"{head.command.TYPE} accepted", f"rejection {produced}")
        for index, envelope in enumerate(group):
            if index >= len(produced):
                return Divergence(envelope.seq, _describe(envelope.event), "no event")
            if produced[index] != envelope.event:
                return Divergence(envelope.seq, _describe(envelope.event), _describe(produced[index]))
            try:
                state = game.evolve(state, envelope.event)
            except Exception as error:  # pragma: no cover - decide produced it, so evolve folds it
                return Divergence(envelope.seq, f"{envelope.type} folded", f"an error: {error}")
            if state_hash(state) != envelope.hash:
                return Divergence(envelope.seq, f"hash {envelope.hash[:12]}", f"hash {state_hash(state)[:12]}")
        if len(produced) > len(group):
            return Divergence(group[-1].seq + 1, "no event", _describe(produced[len(group)]))
    return None


def _describe(event: Record) -> str:
    from events.canonical import canonical_json

    return canonical_json(event.to_data())


class LogError(ValueError):
    """A log that cannot be replayed as it stands: a gap, a wrong hash, an unknown event."""

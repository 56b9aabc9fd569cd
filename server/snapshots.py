"""Snapshots: the state at every ``SNAPSHOT_EVERY``-th seq, a cache that makes reads cheap (issue 12, finding 5).

Replaying a 9,253-event log took 0.93 s of event loop per ``/state?seq=``. With a snapshot at
every multiple of ``SNAPSHOT_EVERY`` (256), the state at any seq is the newest snapshot at or
before it plus at most 255 folds, and a Room loads from the newest snapshot plus the tail.

A state that holds something its hash does not cover (Gloomhaven's sealed picks: ``Sealed`` keeps
its content outside its field list, GH-C2) cannot be checked, so it is never snapshotted: the
snapshot due at a multiple is taken at the first seq at or after it whose state holds nothing
hidden (in Gloomhaven, once the round's picks are revealed), and the next one is due at the
next multiple after that.

A snapshot is never the truth: it is the state's canonical JSON (``record_json``, whose sha256
*is* the state hash), kept by the store beside the log. Before use its sha256 must equal the
hash logged in the envelope at its seq, and the state decoded from it must hash the same again;
a snapshot that is missing, unreadable or wrong is ignored and the state is folded from the log
(the snapshots passed on the way are written again). Snapshots are written by whoever folded
past a multiple: the Room after an append, a read that had to fold, a Room that loaded.

An undo (CORE-4, ``events.undo``) folds back to an earlier state, which only the whole log gives:
``fold`` raises ``UndoInLog`` at an undo event, and whoever called it folds the log from its start
through ``Table.restore`` (a Room's load, ``state_at``); a game with undos takes no more snapshots.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from events.canonical import record_json, state_hash
from events.game import GameStarted, RulesVersionChanged, SecretRevealed
from events.log import Envelope, LogError, Table, rules_in_force
from events.record import DecodeError, Record, Registry
from events.snapshot import state_registry
from events.undo import is_undo_event
from server import frames
from server.store import Store, StoreError

SNAPSHOT_EVERY = 256
log = logging.getLogger("chronicle.snapshots")
_registries: dict[str, Registry] = {}


def registry(game: Any) -> Registry:
    """Every record a state of ``game`` may hold (``events.snapshot.state_registry``), built once per version."""
    key = f"{game.name} {game.rules_version}"
    found = _registries.get(key)
    if found is None:
        found = _registries[key] = state_registry(game)
    return found


def encode_state(state: Any) -> str:
    return record_json(state)


def decode_state(game: Any, text: str, logged_hash: str) -> Any | None:
    """The state a snapshot holds, or None if it does not match the logged hash (or does not decode)."""
    if hashlib.sha256(text.encode("ascii", "replace")).hexdigest() != logged_hash:
        return None
    try:
        state = registry(game).build(msgspec.json.decode(text), "$snapshot")
    except (msgspec.DecodeError, DecodeError, TypeError, ValueError):
        return None
    return state if state_hash(state) == logged_hash else None


_hidden: dict[type, tuple[str, ...]] = {}


def holds_hidden(value: Any) -> bool:
    """Whether a record (or a tuple of them) holds data outside the fields its hash covers."""
    if isinstance(value, tuple):
        return any(holds_hidden(item) for item in value)
    if not isinstance(value, Record):
        return False
    kind = type(value)
    extra = _hidden.get(kind)
    if extra is None:
        inherited = {name for cls in kind.__mro__ for name in cls.__dict__.get("__slots__", ())}
        # Slots named with an underscore are caches of what the fields say (``_json``, a grid's ``_memo``).
        extra = _hidden[kind] = tuple(sorted(name for name in inherited - set(kind.__slots__)
                                             if not name.startswith("_")))
    if any(getattr(value, name, None) is not None for name in extra):
        return True
    return any(holds_hidden(getattr(value, name)) for name in kind.__slots__)


def due_after(seq: int) -> int:
    """The seq from which the next snapshot is due, after one at ``seq`` (0: none yet)."""
    return (seq // SNAPSHOT_EVERY + 1) * SNAPSHOT_EVERY


def fold(game: Any, envelopes: list[Envelope], state: Any, counted: Callable[[int], None],
         keep: list[tuple[int, str]] | None = None, since: int = 0) -> Any:
    """Fold ``envelopes`` onto ``state`` (the state after seq ``since``, whose snapshot is the last one),
    every hash checked (LogError names the seq). Each snapshot due on the way (module docstring) is
    added to ``keep``; ``counted(n)`` hears how many folds it took."""
    due = due_after(since)
    for offset, envelope in enumerate(envelopes):
        if offset and envelope.seq != envelopes[offset - 1].seq + 1:
            raise LogError(f"seq {envelope.seq} follows seq {envelopes[offset - 1].seq}: the log has a gap")
        if (envelope.seq == 1) != isinstance(envelope.event, GameStarted):
            raise LogError(f"seq {envelope.seq}: a log starts with one GameStarted, got {envelope.type}")
        if is_undo_event(envelope.event):
            raise UndoInLog(f"seq {envelope.seq}: {envelope.type} folds from the whole log (CORE-4)")
        if isinstance(envelope.event, RulesVersionChanged):  # CORE-3: the later events fold under its version
            game = game.version(envelope.event.to_version)
        try:
            state = game.evolve(state, envelope.event)
        except Exception as error:
            raise LogError(f"seq {envelope.seq}: today's rules cannot fold this event: "
                           f"{type(error).__name__}: {error}") from error
        if state_hash(state) != envelope.hash:
            raise LogError(f"seq {envelope.seq}: the logged hash does not match the replayed state")
        if keep is not None and envelope.seq >= due and not holds_hidden(state):
            keep.append((envelope.seq, encode_state(state)))
            due = due_after(envelope.seq)
    counted(len(envelopes))
    return state


async def save(store: Store, game_id: str, kept: list[tuple[int, str]]) -> None:
    """Write snapshots; a failure only costs folds later, so it is logged, never raised."""
    for seq, text in kept:
        try:
            await store.put_snapshot(game_id, seq, text)
        except StoreError as error:
            log.warning("game %s: snapshot at seq %d not written: %s", game_id, seq, error)
            return


async def state_at(store: Store, game: Any, game_id: str, seq: int, counted: Callable[[int], None],
                   run: Callable[..., Awaitable[Any]] | None = None, undone: list | None = None,
                   whole: Callable[[list], Awaitable[Any]] | None = None) -> Any:
    """The state after ``seq``: the newest good snapshot at or before it, plus at most SNAPSHOT_EVERY - 1 folds
    (more only while sealed secrets delayed a snapshot, module docstring). Folded under the rules version
    in force at the snapshot (``game_at``), then each version a RulesVersionChanged moves it to (CORE-3).

    A log with an undo (CORE-4) takes no snapshots after it, so its state is folded from seq 1 by a Table:
    whole-log work. ``run(work, *args)`` runs such work where it cannot hold the event loop (a worker
    thread behind a gate, say; ``GET .../state`` gives ``whole`` instead); every step of at most SNAPSHOT_EVERY
    envelopes runs here, every longer one through ``run`` (default: here too, as the CLI wants). Folded
    from seq 1 for an undo, it appends ``seq`` to ``undone``: such a state costs as much the next time.

    ``whole(stored)``, if given, takes over every step longer than SNAPSHOT_EVERY: it is handed the
    stored log from seq 1 to ``seq`` (``folded`` is its work: ``GET .../state`` runs it in the worker
    process) and ``state_at`` returns its answer as it is, whatever it is."""
    base, state = 0, None
    snapshot = await store.get_snapshot(game_id, seq)
    if snapshot is not None:
        base = snapshot[0]
        stored = await store.read(game_id, base - 1, seq)
        if whole is not None and len(stored) > SNAPSHOT_EVERY:
            return await whole(await store.read(game_id, 0, seq))
        state, envelopes = await _off(run, len(stored), _from_snapshot, game, base, snapshot[1], stored)
        if state is None:
            log.warning("game %s: the snapshot at seq %d does not match its log; folding from the start", game_id, base)
            base = 0
    if base == 0:
        stored = await store.read(game_id, 0, seq)
        if whole is not None and len(stored) > SNAPSHOT_EVERY:
            return await whole(stored)
        envelopes = await _off(run, len(stored), _decoded, game, stored)
    game = await game_at(store, game, game_id, max(base, 1))
    kept: list[tuple[int, str]] = []
    try:
        if any(is_undo_event(envelope.event) for envelope in envelopes):  # fold would meet it: no fold twice
            raise UndoInLog(f"seq {seq}: an undo before it folds from the whole log (CORE-4)")
        state = await _off(run, len(envelopes), fold, game, envelopes, state, counted, kept, base)
    except UndoInLog:  # an undo needs the states before it: the whole log up to seq, folded by a Table
        if undone is not None:
            undone.append(seq)
        if base:  # only the envelopes after the snapshot were read
            stored = await store.read(game_id, 0, seq)
        if whole is not None and len(stored) > SNAPSHOT_EVERY:
            return await whole(stored)
        if base:
            envelopes = await _off(run, len(stored), _decoded, game, stored)
        return await _off(run, len(envelopes), _restored, game, game_id, envelopes, counted)
    await save(store, game_id, kept)
    return state


async def _off(run: Callable[..., Awaitable[Any]] | None, size: int, work: Callable[..., Any], *args: Any) -> Any:
    """``work(*args)`` here if it spans at most SNAPSHOT_EVERY envelopes (or no ``run`` is given), else through ``run``."""
    if run is None or size <= SNAPSHOT_EVERY:
        return work(*args)
    return await run(work, *args)


def _decoded(game: Any, stored: list) -> list[Envelope]:
    return [frames.decode_envelope(game, item.envelope) for item in stored]


def _from_snapshot(game: Any, base: int, text: str, stored: list) -> tuple[Any, list[Envelope]]:
    """The snapshot's state (None if it does not match its envelope) and the envelopes after it."""
    envelopes = _decoded(game, stored)
    if not envelopes or envelopes[0].seq != base:
        return None, envelopes
    state = decode_state(game, text, envelopes[0].hash)
    return state, envelopes[1:] if state is not None else envelopes


def _restored(game: Any, game_id: str, envelopes: list[Envelope], counted: Callable[[int], None]) -> Any:
    counted(len(envelopes))
    return Table.restore(game, game_id, envelopes).state


def folded(rules: str, game_id: str, seq: int, texts: list) -> tuple[bytes, bool, list, int]:
    """The worker's job for ``state_at``'s ``whole`` (``GET .../state``, server/api.py): the stored log's JSON
    ``texts`` (seq 1 to ``seq``) decoded under the rule system named ``rules`` and folded from seq 1, as
    ``state_at`` folds them (every hash checked; a log with an undo through a Table, CORE-4). Plain data back:
    the route's body, whether an undo made it fold from seq 1, the snapshots due on the way (none after an
    undo) and the folds it took."""
    import events.games
    from events.record import to_data

    game = events.games.load(rules)
    envelopes = _decoded(game, [_Text(text) for text in texts])
    folding = rules_in_force(game, envelopes[:1])  # game_at(seq 1): GameStarted's version
    folds: list[int] = []
    kept: list[tuple[int, str]] = []
    undone = False
    try:
        if any(is_undo_event(envelope.event) for envelope in envelopes):
            raise UndoInLog(f"seq {seq}: an undo before it folds from the whole log (CORE-4)")
        state = fold(folding, envelopes, None, folds.append, kept, 0)
    except UndoInLog:
        kept, undone = [], True
        state = _restored(folding, game_id, envelopes, folds.append)
    view = rules_in_force(game, envelopes)  # game_at(seq): the version in force there (CORE-3)
    body = msgspec.json.encode({"seq": seq, "hash": state_hash(state), "state": to_data(view.view(state, None))})
    return body, undone, kept, sum(folds)


class _Text:
    """A stored envelope's JSON as ``_decoded`` reads it (``item.envelope``)."""

    __slots__ = ("envelope",)

    def __init__(self, envelope: str) -> None:
        self.envelope = envelope


class UndoInLog(LogError):
    """``fold`` met an undo event: the state it leads to comes from the whole log (``Table.restore``)."""


async def game_at(store: Store, game: Any, game_id: str, seq: int) -> Any:
    """The rules version in force after ``seq`` (issue 19, CORE-3): GameStarted's, then each move's.

    The log up to ``seq`` is read, but only GameStarted and the envelopes whose text names
    RulesVersionChanged are decoded: a read, not a fold."""
    stored = await store.read(game_id, 0, seq)
    if not stored:
        return game
    envelopes = [frames.decode_envelope(game, stored[0].envelope)]
    envelopes += [frames.decode_envelope(game, item.envelope) for item in stored[1:]
                  if '"RulesVersionChanged"' in item.envelope]
    return rules_in_force(game, envelopes)


async def newest(store: Store, game: Any, game_id: str, envelopes: list[Envelope]) -> tuple[int, Any]:
    """For a Room's load: (seq, state) of the newest good snapshot of ``envelopes`` (the whole log), or (0, None)."""
    if not envelopes:
        return 0, None
    snapshot = await store.get_snapshot(game_id, envelopes[-1].seq)
    if snapshot is None:
        return 0, None
    seq, text = snapshot
    state = decode_state(game, text, envelopes[seq - 1].hash) if 1 <= seq <= len(envelopes) else None
    if state is None:
        log.warning("game %s: the snapshot at seq %d does not match its log; folding from the start", game_id, seq)
        return 0, None
    return seq, state


def joinable(envelopes: list[Envelope], seq: int) -> bool:
    """Whether a reader may start from the snapshot at ``seq`` (``events.log.Table.from_snapshot``): no
    undo anywhere in the log (an UndoApplied goes back to states only the whole log gives, CORE-4), and
    no SecretRevealed or rules-version event up to ``seq`` (a Table from a snapshot starts with none)."""
    for index, envelope in enumerate(envelopes):
        event = envelope.event
        if is_undo_event(event):
            return False
        if index < seq and (type(event) is SecretRevealed or event.TYPE.startswith("RulesVersion")):
            return False
    return True


def matches(text: str, logged_hash: str) -> bool:
    """Whether a snapshot's text is the canonical JSON of the state with ``logged_hash`` (its sha256)."""
    return hashlib.sha256(text.encode("ascii", "replace")).hexdigest() == logged_hash

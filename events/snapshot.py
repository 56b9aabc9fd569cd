"""A reader joining a long game from a snapshot of its state instead of its whole log (issue 16).

The server keeps the state at every 256th seq (``server/snapshots.py``), as its canonical JSON,
whose sha256 is the state hash logged in the envelope at that seq. A page that joins a game of
10,000 envelopes may ask for it (``hello`` with ``"snapshot": true``, docs/protocol.md) and get a
``snapshot`` frame: the seq, the logged hash there, the state as JSON, and the log's first frame
(``GameStarted``: the commitment and the rules version). ``decode_snapshot`` checks it all, with
the ``$`` path of the first fault, and refuses a state whose hash, recomputed here from the
decoded records, is not the logged one (``SnapshotError``): a snapshot is never taken on trust.

The state a snapshot holds is what every viewer folds (a state's hash covers all it holds, and
every viewer's fold hashes the same: a spectator's redacted envelopes fold to the same state);
a state that holds a secret outside its hash (a sealed pick, GH-C2) is never snapshotted.

Standard library only; runs in Brython.
"""

from __future__ import annotations

from events.canonical import state_hash
from events.game import GameStarted
from events.log import started_under
from events.record import DecodeError, Registry
from events.wire import frame_envelopes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from events.game import Game

SNAPSHOT_FIELDS = ("type", "seq", "hash", "start", "state")


class SnapshotError(ValueError):
    """A snapshot whose state does not hash to the hash the server logged at its seq."""

    def __init__(self, seq: int, logged: str, folded: str) -> None:
        ValueError.__init__(self, f"the snapshot at seq {seq} does not match its logged hash: server {logged[:12]}…, "
                                  f"page {folded[:12]}…")
        self.seq = seq
        self.logged = logged
        self.folded = folded


def state_registry(game: Game) -> Registry:
    """Every record a state of ``game`` may hold: its rules version's own state records first (a
    frozen version may keep an older record, as gloomhaven-1 keeps its Option: ``Game.state_records``),
    then its model's STATES, EVENTS and COMMANDS."""
    model = _model(game.name)
    found = Registry("state", tuple(game.state_records))
    for part in (model.STATES, model.EVENTS, model.COMMANDS):
        for tag, cls in part.by_type.items():
            if tag not in found:
                found.add(cls)
    return found


def _model(name: str) -> Any:
    """The ``model`` module of a game, by explicit import (as ``events.games.load``: no dynamic import)."""
    if name == "mecha":
        from events.games.mecha import model
    elif name == "arkham":
        from events.games.arkham import model
    elif name == "gloomhaven":
        from events.games.gloomhaven import model
    elif name == "echo":
        from events.games.echo import model
    elif name == "skirmish":
        from events.games.skirmish import model
    else:
        raise KeyError(f"unknown game {name!r}")
    return model


def decode_snapshot(game: Game, game_id: str, frame: Any, where: str = "$") -> tuple:
    """A ``snapshot`` frame -> ``(GameStarted's envelope, seq, state, hash)``, every field checked.

    DecodeError names the ``$`` path of the first fault; SnapshotError says the state does not
    hash to the logged hash (both hashes in its message)."""
    if not isinstance(frame, dict):
        raise DecodeError(f"{where}: expected a snapshot frame object, got {type(frame).__name__}")
    for name in SNAPSHOT_FIELDS:
        if name not in frame:
            raise DecodeError(f"{where}: snapshot frame is missing {name!r}")
    if len(frame) != len(SNAPSHOT_FIELDS):
        unknown = sorted(set(frame) - set(SNAPSHOT_FIELDS))
        raise DecodeError(f"{where}: snapshot frame has unknown field {unknown[0]!r}")
    seq, logged = frame["seq"], frame["hash"]
    if type(seq) is not int or seq < 2:
        raise DecodeError(f"{where}.seq: expected an integer of at least 2, got {seq!r}"[:200])
    if type(logged) is not str or len(logged) != 64:
        raise DecodeError(f"{where}.hash: expected 64 hex digits, got {logged!r}"[:200])
    started = frame_envelopes(game, game_id, frame["start"], None, where + ".start")
    if len(started) != 1 or started[0].seq != 1 or not isinstance(started[0].event, GameStarted):
        raise DecodeError(f"{where}.start: expected the log's first frame, GameStarted alone at seq 1")
    under = started_under(game, started)  # the version GameStarted names decodes the state (its records)
    state = state_registry(under).build(frame["state"], where + ".state")
    folded = state_hash(state)
    if folded != logged:
        raise SnapshotError(seq, logged, folded)
    return started[0], seq, state, logged

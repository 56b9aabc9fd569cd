"""One frame per command on the wire: the envelopes of a command spelt compactly, and read back.

The store and the log keep one envelope per event (``events.log``), each with its command, its
hash and its time. On the wire a client gets one ``events`` frame per accepted command
(``docs/protocol.md``): the command, its seat, its id and its time written once per *run* (the
envelopes that share them), each event as ``[type, rule, data]`` (``[type, rule, data, dice]``
when a loaded generator forced dice), and the state hash once, the hash after the frame's last
event::

    {"type": "events", "seq": 13, "hash": "<64 hex>",
     "runs": [["blue", "c-17", ["Move", {"to": 2}], "2026-…Z",
               [["MechMoved", "MV-1", {"seat": "blue", …}], ["TurnEnded", "TN-1", {…}]]],
              [null, null, null, "2026-…Z", [["SecretRevealed", "CORE-2", {"secret": "…"}]]]]}

``frame_data`` is the one spelling (the server encodes its result with msgspec); ``frame_dicts``
and ``frame_envelopes`` read a frame back into envelopes, every field checked, with the frame's
hash on its last envelope and ``None`` on the others (a reader that wants them folds and hashes:
``client/follow.py`` checks the frame's hash once). Standard library only; runs in Brython.
"""

from __future__ import annotations

from events.log import Envelope
from events.record import DecodeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from events.game import Game

FRAME_TYPE = "events"
FRAME_FIELDS = ("type", "seq", "hash", "runs")


def frame_data(envelopes: list) -> dict:
    """The ``events`` frame (a dict, ready to encode) of consecutive envelopes, as one viewer may see them."""
    return frame_from_dicts([envelope.to_dict() for envelope in envelopes])


def frame_from_dicts(envelopes: list) -> dict:
    """``frame_data`` from the envelopes' ``Envelope.to_dict()`` (the shell has them from encoding
    them for its store: not built twice). The dicts are read, not changed."""
    if not envelopes:
        raise ValueError("an events frame holds at least one envelope")
    runs: list = []
    key = None
    for envelope in envelopes:
        body = envelope["command"]
        command = None if body is None else [body["type"], body["data"]]
        here = (envelope["seat"], envelope["command_id"], command, envelope["at"])
        if here != key:
            key = here
            runs.append([envelope["seat"], envelope["command_id"], command, envelope["at"], []])
        event = [envelope["type"], envelope["rule"], envelope["data"]]
        if envelope["dice"] is not None:
            event.append(envelope["dice"])
        runs[-1][4].append(event)
    return {"type": FRAME_TYPE, "seq": envelopes[0]["seq"], "hash": envelopes[-1]["hash"], "runs": runs}


def frame_batches(envelopes: list) -> list:
    """Consecutive ``envelopes`` cut into the batches that go out as one frame each: the envelopes
    of one command, with the commandless ones right after it (SecretRevealed, CORE-2); the
    commandless envelopes a log starts with (GameStarted and what the start logs) are one batch."""
    batches: list = []
    for envelope in envelopes:
        if batches and (envelope.command_id is None or envelope.command_id == batches[-1][-1].command_id):
            batches[-1].append(envelope)
        else:
            batches.append([envelope])
    return batches


def _string(value: Any, where: str, nullable: bool = True) -> None:
    if value is None and nullable:
        return
    if not isinstance(value, str):
        raise DecodeError(f"{where}: expected a string{' or null' if nullable else ''}, got {value!r}"[:200])


def frame_dicts(game_id: str, frame: Any, where: str = "$") -> list:
    """An ``events`` frame -> its envelopes as ``Envelope.to_dict()`` dicts (hash: the frame's on the
    last, None on the others); DecodeError with the ``$`` path of the first fault."""
    return _expand(game_id, frame, where)[0]


def _expand(game_id: str, frame: Any, where: str) -> tuple:
    """The envelope dicts of a frame, and the ``$`` path of each event in it."""
    if not isinstance(frame, dict):
        raise DecodeError(f"{where}: expected an events frame object, got {type(frame).__name__}")
    unknown = sorted(set(frame) - set(FRAME_FIELDS))
    if unknown:
        raise DecodeError(f"{where}: events frame has unknown field {unknown[0]!r}")
    missing = [name for name in FRAME_FIELDS if name not in frame]
    if missing:
        raise DecodeError(f"{where}: events frame is missing {', '.join(repr(m) for m in missing)}")
    seq = frame["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise DecodeError(f"{where}.seq: expected a positive integer, got {seq!r}"[:200])
    _string(frame["hash"], f"{where}.hash", False)
    runs = frame["runs"]
    if not isinstance(runs, list) or not runs:
        raise DecodeError(f"{where}.runs: expected a non-empty list of runs")
    out: list = []
    paths: list = []
    for r, run in enumerate(runs):
        at_run = f"{where}.runs[{r}]"
        if not isinstance(run, list) or len(run) != 5:
            raise DecodeError(f"{at_run}: expected [seat, command_id, command, at, events]")
        seat, command_id, command, at, events = run
        _string(seat, f"{at_run}[0]")
        _string(command_id, f"{at_run}[1]")
        if command is not None:
            if not (isinstance(command, list) and len(command) == 2 and isinstance(command[0], str)
                    and isinstance(command[1], dict)):
                raise DecodeError(f"{at_run}[2]: expected [type, data] or null")
            command = {"type": command[0], "data": command[1]}
        _string(at, f"{at_run}[3]")
        if not isinstance(events, list) or not events:
            raise DecodeError(f"{at_run}[4]: expected a non-empty list of events")
        for e, event in enumerate(events):
            at_event = f"{at_run}[4][{e}]"
            if not isinstance(event, list) or len(event) not in (3, 4):
                raise DecodeError(f"{at_event}: expected [type, rule, data] or [type, rule, data, dice]")
            _string(event[0], f"{at_event}[0]", False)
            _string(event[1], f"{at_event}[1]")
            out.append({"game": game_id, "seq": seq + len(out), "type": event[0], "data": event[2], "seat": seat,
                        "command_id": command_id, "command": command,
                        "dice": event[3] if len(event) == 4 else None, "rule": event[1], "hash": None, "at": at})
            paths.append(at_event)
    out[-1]["hash"] = frame["hash"]
    return out, paths


def frame_envelopes(game: Game, game_id: str, frame: Any, where: str = "$") -> list:
    """An ``events`` frame -> its Envelopes, every field checked (``Envelope.from_dict``); the hash is
    the frame's on the last envelope, None on the others."""
    out = []
    raws, paths = _expand(game_id, frame, where)
    for raw, path in zip(raws, paths):
        hash_ = raw["hash"]
        envelope = Envelope.from_dict(game, raw if hash_ is not None else dict(raw, hash=""), path)
        if hash_ is None:
            envelope.hash = None
        out.append(envelope)
    return out

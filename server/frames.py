"""The wire at the server's edge: client frames decoded strictly, server frames and envelopes encoded.

After msgspec's asyncio example: message types are Structs, a tagged union on ``type`` with
unknown fields forbidden, one decoder built at import. A frame that does not decode is answered
with an error frame carrying msgspec's own message (expected type, found type, ``$.path``); the
connection stays open. ``events/`` never sees msgspec: a command's body is checked here for
shape, then built into a record by the game's registry.

Envelopes are encoded once, as JSON text, for the store and the log. Clients get one ``events``
frame per command instead (``events/wire.py`` spells it: the command, its seat, id and time once,
the hash once), encoded once for every client who may see the same envelopes.
"""

from __future__ import annotations

import base64
import re
from typing import Annotated, Any

import msgspec

from events import wire
from events.log import Envelope
from events.record import DecodeError, Record

MAX_FRAME_BYTES = 8 * 1024  # a command is ~100 bytes; anything near this is a mistake or abuse
# JSON nesting: a command is 4 levels deep, the deepest built-in scenario (Gloomhaven's) 10, so 32
# leaves room for any honest document, and stays far below the depth at which msgspec raises
# RecursionError (~1,000) or Python's validators would.
MAX_JSON_DEPTH = 32
COMMAND_ID = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


# --- client -> server ------------------------------------------------------------------------------


class CommandBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    type: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    data: dict[str, Any] = msgspec.field(default_factory=dict)


class Hello(msgspec.Struct, tag="hello", tag_field="type", forbid_unknown_fields=True, frozen=True):
    since: Annotated[int, msgspec.Meta(ge=0)]
    token: str | None = None
    snapshot: bool = False  # a client with since 0 that can start from a snapshot (issue 16, docs/protocol.md)


class Command(msgspec.Struct, tag="command", tag_field="type", forbid_unknown_fields=True, frozen=True):
    id: COMMAND_ID
    command: CommandBody


class Chat(msgspec.Struct, tag="chat", tag_field="type", forbid_unknown_fields=True, frozen=True):
    """Table talk (server/chat.py): only the text; the channel and the author come from the hello."""

    text: str


ClientFrame = Hello | Command | Chat
CLIENT_TAGS = ("hello", "command", "chat")
_client_decoder = msgspec.json.Decoder(ClientFrame)


class _Tag(msgspec.Struct):
    """Only on the error path: was it an object with a ``type`` we do not know?"""

    type: Any = None


_tag_decoder = msgspec.json.Decoder(_Tag)


class FrameError(Exception):
    """A frame the server cannot take: a stable code and the fact, for the error frame."""

    def __init__(self, code: str, message: str, command_id: str | None = None) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.command_id = command_id


_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{},]')


def nesting_fault(raw: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """None if ``raw`` nests at most ``max_depth`` arrays and objects, else the fact with its ``$`` path.

    Checked before decoding, because decoders recurse: JSON 1,200 levels deep (under 8 KiB) made
    msgspec raise RecursionError (issue 12, finding 6). Counting brackets is C-speed, so an honest
    frame never pays for the scan that builds the path.
    """
    data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return None
    path: list = []  # per open container: [is_object, key or index, expecting a key]
    for match in _TOKENS.finditer(data):
        token = match.group()
        first = token[:1]
        if first == b'"':
            if path and path[-1][0] and path[-1][2]:
                path[-1][1] = token[1:-1].decode("utf-8", "replace")[:40]
                path[-1][2] = False
        elif first in b"[{":
            if len(path) >= max_depth:
                where = "$" + "".join(f".{key}" if is_object else f"[{key}]" for is_object, key, _ in path
                                      if key is not None)
                return f"{where}: JSON nested deeper than {max_depth} levels"
            path.append([True, None, True] if first == b"{" else [False, 0, False])
        elif first in b"]}":
            if path:
                path.pop()
        elif path:  # a comma
            if path[-1][0]:
                path[-1][2] = True
            else:
                path[-1][1] += 1
    return None


def decode_client_frame(raw: str | bytes, max_bytes: int = MAX_FRAME_BYTES) -> Hello | Command | Chat:
    """One client frame, or FrameError (``frame-too-large``, ``bad-frame``, ``unknown-frame``)."""
    data = raw.encode("utf-8") if isinstance(raw, str) else raw  # measured and scanned once
    size = len(data)
    if size > max_bytes:
        raise FrameError("frame-too-large", f"a frame may hold at most {max_bytes} bytes, got {size}")
    fault = nesting_fault(data)
    if fault is not None:
        raise FrameError("bad-frame", fault)
    try:
        return _client_decoder.decode(raw)
    except msgspec.ValidationError as error:
        tag = _frame_tag(raw)
        if isinstance(tag, str) and tag not in CLIENT_TAGS:
            raise FrameError(
                "unknown-frame", f"expected a frame type in {', '.join(CLIENT_TAGS)}, got {tag!r}"
            ) from None
        raise FrameError("bad-frame", str(error)) from None
    except msgspec.DecodeError as error:
        raise FrameError("bad-frame", f"not JSON: {error}") from None


def _frame_tag(raw: str | bytes) -> Any:
    try:
        return _tag_decoder.decode(raw).type
    except msgspec.DecodeError:
        return None


def build_command(game: Any, frame: Command) -> Record:
    """The command's record, via the game's registry (``unknown-command`` / ``bad-frame``)."""
    body = frame.command
    if body.type not in game.commands:
        known = ", ".join(game.commands.names())
        raise FrameError(
            "unknown-command", f"{game.name} has no command {body.type!r} (known: {known})", frame.id
        )
    if "type" in body.data:
        raise FrameError("bad-frame", "$.command.data: the command's type belongs in $.command.type", frame.id)
    try:
        return game.commands.build(dict(body.data, type=body.type), "$.command.data")
    except DecodeError as error:
        raise FrameError("bad-frame", str(error), frame.id) from None


# --- server -> client ------------------------------------------------------------------------------


class Welcome(msgspec.Struct, tag="welcome", tag_field="type"):
    game: str
    rules: str
    seat: str | None
    head: int
    started: str | None = None  # GameStarted's ``at``: the base of the events frames' times (events/wire.py)
    seats: Any = None  # GameStarted's ``seats``: what the events frames' seat indexes name (events/wire.py)
    build: str | None = None  # the page assets served now (server/bundle.py build_id): a page of another reloads


class Events(msgspec.Struct):
    """One command's envelopes, ``[seq, hash, run, …]`` on the wire (``events/wire.py``): the one
    server frame that is a JSON array, not an object with a ``type``. Read by ``decode_server_frame``
    (tests and the bench; the page reads it with ``events/wire.py``)."""

    seq: int
    hash: Any  # 16 base64url characters (the hash's first 96 bits), or [a string] (events/wire.py)
    runs: list  # each [seat, command_id, command, at, event, …]
    ack: bool = False  # the sender's copy: it acknowledges the frame's command (docs/protocol.md)

    def count(self) -> int:
        return sum(len(run) - 4 for run in self.runs)

    def as_list(self) -> list:
        return [self.seq, self.hash, *self.runs, wire.ACK_MARK] if self.ack else [self.seq, self.hash, *self.runs]

    def ack_frame(self) -> Ack | None:
        """The ``Ack`` this frame carries (the sender's copy of its command's frame), else None."""
        return Ack(self.runs[0][1], self.seq, self.seq + self.count() - 1) if self.ack else None


class Ack(msgspec.Struct, tag="ack", tag_field="type"):
    id: str
    first: int
    last: int


class Rejected(msgspec.Struct, tag="rejected", tag_field="type"):
    id: str
    rule: str
    reason: str  # in English: for the CLI and clients older than the message below
    key: str = ""  # the reason as a message of the catalogue (client/i18n/*.json), "" if it has none
    params: dict = {}  # its named parameters (docs/protocol.md)


class Error(msgspec.Struct, tag="error", tag_field="type"):
    code: str
    message: str
    id: str | None = None


ServerFrame = Welcome | Ack | Rejected | Error
_encoder = msgspec.json.Encoder()
_sorted_encoder = msgspec.json.Encoder(order="sorted")  # envelopes: the reference spelling's key order
server_frame_decoder = msgspec.json.Decoder(ServerFrame)  # for tests and the bench's clients
_list_decoder = msgspec.json.Decoder(list)


def decode_server_frame(text: str | bytes) -> Any:
    """A server frame for tests and the bench: an ``Events`` (a JSON array), else the tagged union's."""
    first = text[:1]
    if first == "[" or first == b"[":
        items = _list_decoder.decode(text)
        if len(items) < 3:
            raise msgspec.ValidationError(f"expected an events frame [seq, hash, run, …], got a list of {len(items)} - at `$`")
        if len(items) > 3 and items[-1] == wire.ACK_MARK and type(items[-1]) is int:
            return Events(items[0], items[1], items[2:-1], True)
        return Events(items[0], items[1], items[2:])
    return server_frame_decoder.decode(text)


def encode(frame: msgspec.Struct) -> str:
    return _encoder.encode(frame).decode("utf-8")


def error_frame(code: str, message: str, command_id: str | None = None) -> str:
    return encode(Error(code, message, command_id))


# --- envelopes -------------------------------------------------------------------------------------


def encode_envelope(envelope: Envelope | dict) -> str:
    """The envelope's JSON text (given the envelope or its ``to_dict()``): what the store keeps.

    msgspec's fast path to ``events.log.encode_envelope``, the reference spelling (keys sorted, no
    spaces, UTF-8): ``tests/server/test_frames.py`` proves the bytes equal on envelopes of every game.
    """
    return _sorted_encoder.encode(envelope if isinstance(envelope, dict) else envelope.to_dict()).decode("utf-8")


def events_frame(game: Any, envelopes: list, started: str | None = None, seats: Any = None) -> str:
    """The ``events`` frame of consecutive envelopes (``events.wire.frame_data``: the wire schema of
    ``game``, times since ``started``, GameStarted's ``at``, seats as their index in ``seats``,
    GameStarted's), as JSON text; an item may be the envelope's ``to_dict()`` already
    (``events.wire.frame_from_dicts``)."""
    dicts = [item if isinstance(item, dict) else item.to_dict() for item in envelopes]
    return _encoder.encode(wire.frame_from_dicts(game, dicts, started, hash_to_wire, seats)).decode("utf-8")


def hash_to_wire(hash_: Any) -> Any:
    """``events.wire.hash_to_wire`` in C (base64 and bytes.hex): the same 16 characters (the first 96
    bits), several times faster."""
    if type(hash_) is str and len(hash_) == 64:
        try:
            digest = bytes.fromhex(hash_)
        except ValueError:
            return [hash_]
        if digest.hex() == hash_:  # 64 lowercase hex digits, nothing else (fromhex takes upper case, spaces)
            return base64.urlsafe_b64encode(digest[:12]).decode("ascii")
    return [hash_]


def snapshot_frame(seq: int, logged_hash: str, start: str, state: str) -> str:
    """The ``snapshot`` frame (docs/protocol.md, ``events/snapshot.py``): the state after ``seq`` as the
    store keeps it (its canonical JSON), the hash logged there, and the log's first ``events`` frame."""
    return _encoder.encode({"type": "snapshot", "seq": seq, "hash": logged_hash, "start": msgspec.Raw(start),
                            "state": msgspec.Raw(state)}).decode("utf-8")


def history_frame(events_frames: list[str]) -> str:
    """A ``history`` frame: consecutive ``events`` frames (their text) before a snapshot the client started from."""
    return _encoder.encode({"type": "history", "frames": [msgspec.Raw(text) for text in events_frames]}).decode("utf-8")


def frame_envelopes(game: Any, game_id: str, frame: Events, started: str | None = None, seats: Any = None) -> list:
    """A decoded ``events`` frame -> its Envelopes (``events.wire.frame_envelopes``)."""
    return wire.frame_envelopes(game, game_id, frame.as_list(), started, seats=seats)


class EnvelopeWire(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """An envelope's shape on the wire (``Envelope.to_dict()``); records are built after."""

    game: str
    seq: Annotated[int, msgspec.Meta(ge=1)]
    type: str
    data: dict[str, Any]
    seat: str | None = None
    command_id: str | None = None
    command: CommandBody | None = None
    dice: list[int] | None = None
    rule: str | None = None
    hash: str
    at: str | None = None


_envelope_decoder = msgspec.json.Decoder(EnvelopeWire)


def decode_envelope(game: Any, text: str | bytes) -> Envelope:
    """Envelope JSON -> ``events.log.Envelope``; raises DecodeError with a path.

    msgspec's fast path to ``events.log.decode_envelope`` (the same envelope from the same text,
    ``tests/server/test_frames.py``), for the store's rows and the room's reloads.
    """
    try:
        wire = _envelope_decoder.decode(text)
    except msgspec.DecodeError as error:
        raise DecodeError(f"envelope: {error}") from None
    if "type" in wire.data:
        raise DecodeError("$.data: the event's type belongs in $.type, not in its data")
    event = game.events.build(dict(wire.data, type=wire.type), "$.data")
    command = None
    if wire.command is not None:
        if "type" in wire.command.data:
            raise DecodeError("$.command.data: the command's type belongs in $.command.type")
        command = game.commands.build(dict(wire.command.data, type=wire.command.type), "$.command")
    dice = tuple(wire.dice) if wire.dice is not None else None
    return Envelope(wire.game, wire.seq, event, wire.seat, wire.command_id, command, dice, wire.rule, wire.hash, wire.at)

"""uvicorn's sans-I/O WebSocket protocol: a text frame's bytes built once, and small frames uncompressed.

A server's frames are not masked (RFC 6455 §5.1), so the same uncompressed text sent to four sockets
is the same bytes on each. ``FrameProtocol`` offers the ASGI app a scope extension,
``scope["extensions"]["chronicle.frame"]``: an object whose ``write(text)`` writes the bytes of one
whole text frame (``text_frame``, remembered for the next sockets) to the transport in the caller's
step and returns True, but only when that is exactly what uvicorn's ``send`` of that text would do at
once: the socket is open (handshake done, no close sent or received, not disconnected, transport not
closing), the transport is not paused, websockets is not logging each frame (``--log-level debug``),
and either no extension was negotiated, or only permessage-deflate (``PlainBelowDeflate``, below) and
the text's UTF-8 payload is under ``DEFLATE_MIN_BYTES``. Otherwise it writes nothing and returns False,
and the caller sends the text the ordinary way (Starlette's ``send_text``), which waits for the
transport, compresses, or raises as before: uvicorn's close, back-pressure and size handling stay
uvicorn's (issue 16, docs/performance.md).

**Small frames uncompressed under permessage-deflate.** RFC 7692 §6 lets a sender send any message
uncompressed (RSV1 clear) on a connection that negotiated permessage-deflate, and such a message enters
neither side's LZ77 window. ``FrameProtocol`` negotiates permessage-deflate with websockets' own factory
and uvicorn's parameters (``PlainBelowDeflateFactory`` only changes the extension it returns), and its
``PlainBelowDeflate`` sends a whole (final, unfragmented) text message whose UTF-8 payload is below
``DEFLATE_MIN_BYTES`` (1024 bytes, as the ``ws`` library's ``perMessageDeflate.threshold``) as it is;
larger ones, fragmented messages (a continuation follows its first frame, which is compressed), binary
messages and control frames keep websockets' rules, and what clients send is decoded by websockets
unchanged. Below 1 KB a frame and its TCP/IP headers (~52-66 bytes) fit one packet whether compressed
or not, so zlib there (17-23 µs per socket and frame in the running server) saves ~40 bytes within a
packet sent anyway: a live command's frame (~85-250 bytes) costs no zlib, while catch-ups, snapshots
and long monster turns (2 KB and more, 80-90 % saved) stay compressed with the socket's context. Both send
paths agree: the shortcut writes the same plain bytes to a deflate socket that uvicorn's ``send`` would.

**What one socket may make the server spend below the application** (docs/bounds.md, "Below the
application"). uvicorn answers every ping with a pong written at once and never pauses reading while
writing is paused, and websockets parses every frame a read brings before anyone looks: a socket
sending pings and never reading grew the server by ~30 MiB a second, and one read of 1,000,000 one-byte
continuation frames held the loop for 3 s (a hostile probe of main, 2026-12-02). So every frame a socket
sends, pings, pongs, continuations and data alike, is counted as websockets parses it
(``BoundedServerProtocol.recv_frame``: a generic cell rate, a few integer operations a frame), at most
``ws_frames_per_second`` a second in bursts of ``WS_FRAME_BURST_SECONDS`` times as many; the first frame
past it stops the parse there, the rest of the read is discarded, and the socket is closed 1008
``too-many-frames``. And what the server writes on the socket's own behalf (pongs) while the transport's
buffer is over its high-water mark is counted (``owed``, zeroed when the buffer drains): past
``ws_write_buffer_bytes`` the socket is not reading, no close could reach it, and the transport is
aborted. Both count in ``chronicle_transport_cut_total{reason}`` (server/metrics.py).

``chronicle serve`` runs uvicorn with it (``server/cli/serve.py``, with its own ``Limits``:
``FrameProtocol.with_limits``); the uvicorn command line takes ``--ws server.wsprotocol:FrameProtocol``,
whose bounds are then the ``CHRONICLE_*`` variables' (``limits_from_env_once``). Under any other protocol the extension is absent,
``server/connection.py`` sends every frame the ordinary way, and permessage-deflate compresses every
frame (websockets' default).
"""

from __future__ import annotations

from http import HTTPStatus
from time import monotonic_ns
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import ProtocolError
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN
from websockets.server import ServerProtocol

from server.httpprotocol import release
from server.limits import WS_FRAME_BURST_SECONDS, Limits, limits_from_env_once
from server.metrics import transport_cut

EXTENSION = "chronicle.frame"
PROTOCOL = "server.wsprotocol:FrameProtocol"  # what uvicorn's --ws (or Config(ws=...)) is given
# websockets parses the offered subprotocols and extensions in time that grows faster than their length
# (~0.5 s of CPU for one upgrade offering ~1 MB of them, measured in review, 2026-12-02), before any of
# Chronicle's bounds: past this many bytes in all, the upgrade is answered 431 before they are parsed.
# A page offers ~70 bytes of subprotocols and a browser ~70 of extensions.
NEGOTIATED = ("sec-websocket-protocol", "sec-websocket-extensions")
NEGOTIATED_BYTES = 4096
BUILT_LIMIT = 64  # texts whose frame bytes are remembered (a broadcast sends a few texts to many sockets)
BUILT_LARGEST = 16384  # characters: a longer text (a catch-up) is built for each socket, not remembered
DEFLATE_MIN_BYTES = 1024  # a whole text message's UTF-8 payload below this goes uncompressed under permessage-deflate

CLOSE_POLICY_VIOLATION = 1008  # too many frames (server/connection.py names the same code for its own closes)
CLOSE_GRACE_S = 1  # a socket told 1008 that has not taken its close within this is aborted

_built: dict[str, bytes] = {}  # text -> its whole frame's bytes, the newest last


def text_frame(text: str) -> bytes:
    """The bytes of one final, unmasked text frame carrying ``text`` (RFC 6455 §5.2), as
    websockets' ``Frame(TEXT, text.encode()).serialize(mask=False)`` spells them."""
    data = text.encode()
    length = len(data)
    if length < 126:
        return bytes((0x81, length)) + data
    if length < 65536:
        return bytes((0x81, 126)) + length.to_bytes(2, "big") + data
    return bytes((0x81, 127)) + length.to_bytes(8, "big") + data


def frame_bytes(text: str) -> bytes:
    """``text_frame(text)``, built once for all the sockets a broadcast sends it to (``_built``)."""
    data = _built.get(text)
    if data is None:
        data = text_frame(text)
        if len(text) <= BUILT_LARGEST:
            if len(_built) >= BUILT_LIMIT:
                del _built[next(iter(_built))]
            _built[text] = data
    return data


class PlainBelowDeflate(PerMessageDeflate):
    """websockets' permessage-deflate, except that a whole text message whose UTF-8 payload is below
    ``DEFLATE_MIN_BYTES`` is sent uncompressed (RSV1 clear, RFC 7692 §6): it enters no LZ77 window, so
    the next compressed message still refers to what both sides last compressed. Decoding is websockets'."""

    def encode(self, frame: Frame) -> Frame:
        if frame.opcode is Opcode.TEXT and frame.fin and len(frame.data) < DEFLATE_MIN_BYTES:
            return frame  # a non-final first frame is compressed, so its continuations are too (websockets' rule)
        return super().encode(frame)


class PlainBelowDeflateFactory(ServerPerMessageDeflateFactory):
    """websockets' negotiation of permessage-deflate, with the same settings, giving ``PlainBelowDeflate``."""

    @classmethod
    def like(cls, factory: ServerPerMessageDeflateFactory) -> PlainBelowDeflateFactory:
        return cls(factory.server_no_context_takeover, factory.client_no_context_takeover,
                   factory.server_max_window_bits, factory.client_max_window_bits, factory.compress_settings,
                   factory.require_client_max_window_bits)

    def process_request_params(self, params: Any, accepted_extensions: Any) -> tuple[list, PlainBelowDeflate]:
        response, negotiated = super().process_request_params(params, accepted_extensions)
        # The extension websockets negotiated, made ours: PlainBelowDeflate adds behaviour, no state, so
        # the same object serves (building another would make a second zlib pair, ~40 KB, per handshake).
        negotiated.__class__ = PlainBelowDeflate
        return response, negotiated


def plain_below(extensions: list) -> int | None:
    """The UTF-8 payload bytes below which a text frame goes out as ``text_frame`` spells it on a socket
    that negotiated ``extensions``: no bound (None) without any, ``DEFLATE_MIN_BYTES`` with only
    ``PlainBelowDeflate``, and 0 (never) with any other extension, which may change any frame."""
    if not extensions:
        return None
    if len(extensions) == 1 and type(extensions[0]) is PlainBelowDeflate:
        return DEFLATE_MIN_BYTES
    return 0


class FrameWriter:
    """What the extension hands the app: ``write`` one text as a prebuilt frame, if uvicorn would send it at once."""

    __slots__ = ("protocol", "below")

    def __init__(self, protocol: FrameProtocol) -> None:
        self.protocol = protocol
        self.below = plain_below(protocol.conn.extensions)  # fixed once the handshake negotiated them

    def write(self, text: str) -> bool:
        """Write ``text``'s frame (``frame_bytes``) to the transport and return True, or, unless uvicorn's
        ``send`` would write it at once and as it is, write nothing and return False."""
        protocol = self.protocol
        if protocol is None:  # the connection was lost (``FrameProtocol.connection_lost``)
            return False
        conn = protocol.conn
        if (protocol.close_sent or protocol.disconnected or not protocol.handshake_complete
                or protocol.initial_response is not None or not protocol.writable.is_set()
                or conn.state is not OPEN or conn.debug or protocol.transport.is_closing()):
            return False  # conn.debug: websockets logs each frame it sends; let it
        below = self.below
        if below is not None and len(text) >= below:  # at least as many bytes: compressed (or an unknown extension)
            return False
        try:
            data = frame_bytes(text)
        except UnicodeEncodeError:  # a lone surrogate: the ordinary send raises, and the caller handles it
            return False
        if below is not None and len(data) - (2 if data[1] < 126 else 4) >= below:  # the bound is in bytes
            return False
        protocol.transport.write(data)
        return True


class FrameFlood(ProtocolError):
    """The frame past a socket's rate: raised in websockets' parser, which stops there and fails the
    connection (``BoundedServerProtocol.fail`` makes that a 1008 saying why)."""


class BoundedServerProtocol(ServerProtocol):
    """websockets' server protocol, each frame it parses counted before it is handled: a frame is due
    ``frame_interval`` ns after the one before (or now, if that is past), and one due more than
    ``frame_limit`` ns ahead (the burst) is refused (a generic cell rate: integers, one clock read).
    FrameProtocol sets the four attributes when it takes uvicorn's instance into this class."""

    frame_interval: int
    frame_limit: int
    frame_due: int
    flood: str | None

    def recv_frame(self, frame: Frame) -> None:
        now = monotonic_ns()
        due = self.frame_due
        due = (due if due > now else now) + self.frame_interval
        if due - now > self.frame_limit:
            per_second = 10**9 // self.frame_interval
            self.flood = (f"too-many-frames: more than {per_second} a second (bursts of "
                          f"{per_second * WS_FRAME_BURST_SECONDS}) on one socket")
            raise FrameFlood(self.flood)
        self.frame_due = due
        super().recv_frame(frame)

    def fail(self, code: int, reason: str = "") -> None:
        if self.flood is not None:  # the parser fails the connection for the FrameFlood it caught
            code, reason = CLOSE_POLICY_VIOLATION, self.flood
        super().fail(code, reason)


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the ``chronicle.frame`` scope extension, small text
    frames uncompressed when permessage-deflate is negotiated (``PlainBelowDeflate``), and a socket's
    frames and unread replies bounded (``BoundedServerProtocol``, ``owed``)."""

    limits: Limits | None = None  # None: the CHRONICLE_* variables' (``with_limits`` gives others)
    tcp_address: str | None = None  # the address counted for this connection (server/httpprotocol.py's hand_over)

    @classmethod
    def with_limits(cls, limits: Limits) -> type[FrameProtocol]:
        """This protocol with ``limits``' bounds: what ``chronicle serve`` gives uvicorn as ``ws``."""
        return type(cls.__name__, (cls,), {"limits": limits})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        limits = self.limits or limits_from_env_once()
        conn = self.conn  # uvicorn's factory (its window bits and memLevel) in websockets' own class, or none
        conn.available_extensions = [
            PlainBelowDeflateFactory.like(factory) if type(factory) is ServerPerMessageDeflateFactory else factory
            for factory in conn.available_extensions or ()]
        conn.__class__ = BoundedServerProtocol  # adds behaviour and the four attributes below
        conn.frame_interval = 10**9 // limits.ws_frames_per_second
        conn.frame_limit = conn.frame_interval * limits.ws_frames_per_second * WS_FRAME_BURST_SECONDS
        conn.frame_due = 0
        conn.flood = None
        self.owed = 0  # bytes written for the socket's own frames while the buffer was over its high-water mark
        self.owed_bound = limits.ws_write_buffer_bytes

    def data_received(self, data: bytes) -> None:
        """uvicorn's (websockets parses, then the events are handled), with the two bounds: a flood of
        frames stops the parse and closes 1008; replies piling up unread abort the transport."""
        paused = not self.writable.is_set()
        if paused:
            before = self.transport.get_write_buffer_size()
        conn = self.conn
        conn.receive_data(data)
        if conn.flood is not None:
            self._cut_flood()
            return
        if conn.parser_exc is not None:
            self.handle_parser_exception()
            return
        if conn.handshake_exc is not None and not self.handshake_initiated:  # uvicorn's: an upgrade websockets
            self.handle_handshake_exception()  # refused (a header line over 8 KiB, over 128 headers) is answered
            return  # and closed; without it the connection waited for ever (review, 2026-12-02)
        self.handle_events()
        if paused and not self.disconnected:
            self.owed += max(0, self.transport.get_write_buffer_size() - before)
            if self.owed > self.owed_bound:
                transport_cut("write-buffer")
                self.close_sent = True
                self.transport.abort()  # nothing written now would be read: uvicorn's connection_lost follows

    def resume_writing(self) -> None:
        self.owed = 0
        super().resume_writing()

    def _cut_flood(self) -> None:
        """The socket sent frames past its rate: its close (1008, why) written if the handshake is done
        (the pongs parsed before it go first), then the transport closed, or aborted if it is not draining."""
        transport_cut("too-many-frames")
        conn = self.conn
        self.queue.put_nowait({"type": "websocket.disconnect", "code": CLOSE_POLICY_VIOLATION, "reason": conn.flood})
        output = b"".join(conn.data_to_send())
        if conn.close_sent is not None and not self.transport.is_closing():
            self.transport.write(output)
        self.close_sent = True
        if not self.writable.is_set():
            self.transport.abort()
            return
        self.transport.close()
        self.loop.call_later(CLOSE_GRACE_S, self._abort_if_open)

    def _abort_if_open(self) -> None:
        if not self.disconnected:
            self.transport.abort()

    def handle_connect(self, event: Any) -> None:
        listed = sum(len(value) for key, value in event.headers.raw_items() if key.lower() in NEGOTIATED)
        if listed > NEGOTIATED_BYTES:
            self._refuse_oversized(event, listed)
            return
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # absent when the upgrade was refused (no app call)
        if scope is not None and self.response.status_code == 101:
            scope["extensions"][EXTENSION] = FrameWriter(self)

    def _refuse_oversized(self, event: Any, listed: int) -> None:
        """HTTP 431 for an upgrade whose negotiated lists are too long, written and closed as uvicorn answers
        any refused upgrade (its ``handle_connect`` for a status other than 101), with no app called."""
        self.request = event
        self.response = self.conn.reject(
            HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
            f"Sec-WebSocket-Protocol and Sec-WebSocket-Extensions hold {listed} bytes; at most {NEGOTIATED_BYTES}\n")
        self.handshake_initiated = self.handshake_complete = self.close_sent = True
        self.conn.send_response(self.response)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's, then the writer forgets the protocol: the protocol holds the scope, the scope the
        writer, so without this a closed socket (and with permessage-deflate its ~40 KB of zlib state,
        measured for uvicorn's window bits 12 and memLevel 5)
        would wait for the cyclic GC instead of going with its last reference. The connection's address
        count (server/httpprotocol.py, handed over at the upgrade) drops here."""
        address, self.tcp_address = self.tcp_address, None
        release(address)
        super().connection_lost(exc)
        scope = getattr(self, "scope", None)
        writer = scope["extensions"].get(EXTENSION) if scope is not None else None
        if writer is not None:
            writer.protocol = None

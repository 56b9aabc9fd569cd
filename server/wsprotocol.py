"""uvicorn's sans-I/O WebSocket protocol, offering one shortcut: a text frame's bytes built once.

A server's frames are not masked (RFC 6455 §5.1), so without a negotiated extension the same text
sent to four sockets is the same bytes on each. ``FrameProtocol`` offers the ASGI app a scope
extension, ``scope["extensions"]["chronicle.frame"]``: an object whose ``write(text)`` writes the
bytes of one whole text frame (``text_frame``, remembered for the next sockets) to the transport
in the caller's step and returns True, but only when that is exactly what uvicorn's ``send`` of
that text would do at once: the socket is open (handshake done, no close sent or received, not
disconnected, transport not closing), no extension such as permessage-deflate was negotiated, the
transport is not paused, and websockets is not logging each frame (``--log-level debug``).
Otherwise it writes nothing and returns False, and the caller sends the text the ordinary way
(Starlette's ``send_text``), which waits for the transport, compresses, or raises as before:
uvicorn's close, back-pressure and size handling stay uvicorn's (issue 16, docs/performance.md).

``chronicle serve`` runs uvicorn with it (``server/cli/serve.py``); the uvicorn command line takes
``--ws server.wsprotocol:FrameProtocol``. Under any other protocol the extension is absent and
``server/connection.py`` sends every frame the ordinary way.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import OPEN

EXTENSION = "chronicle.frame"
PROTOCOL = "server.wsprotocol:FrameProtocol"  # what uvicorn's --ws (or Config(ws=...)) is given
BUILT_LIMIT = 64  # texts whose frame bytes are remembered (a broadcast sends a few texts to many sockets)
BUILT_LARGEST = 16384  # characters: a longer text (a catch-up) is built for each socket, not remembered

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


class FrameWriter:
    """What the extension hands the app: ``write`` one text as a prebuilt frame, if uvicorn would send it at once."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: FrameProtocol) -> None:
        self.protocol = protocol

    def write(self, text: str) -> bool:
        """Write ``text``'s frame (``frame_bytes``) to the transport and return True, or, unless uvicorn's
        ``send`` would write it at once and as it is, write nothing and return False."""
        protocol = self.protocol
        if protocol is None:  # the connection was lost (``FrameProtocol.connection_lost``)
            return False
        conn = protocol.conn
        if (protocol.close_sent or protocol.disconnected or not protocol.handshake_complete
                or protocol.initial_response is not None or not protocol.writable.is_set()
                or conn.extensions or conn.state is not OPEN or conn.debug or protocol.transport.is_closing()):
            return False  # conn.debug: websockets logs each frame it sends; let it
        try:
            data = frame_bytes(text)
        except UnicodeEncodeError:  # a lone surrogate: the ordinary send raises, and the caller handles it
            return False
        protocol.transport.write(data)
        return True


class FrameProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with the ``chronicle.frame`` scope extension."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # absent when the upgrade was refused (no app call)
        if scope is not None and self.response.status_code == 101:
            scope["extensions"][EXTENSION] = FrameWriter(self)

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's, then the writer forgets the protocol: the protocol holds the scope, the scope the
        writer, so without this a closed socket (and with permessage-deflate its ~100 KB of zlib state)
        would wait for the cyclic GC instead of going with its last reference."""
        super().connection_lost(exc)
        scope = getattr(self, "scope", None)
        writer = scope["extensions"].get(EXTENSION) if scope is not None else None
        if writer is not None:
            writer.protocol = None

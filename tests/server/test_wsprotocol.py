"""server/wsprotocol.py: a text frame's bytes built once, written only when uvicorn's send would write them.

The frame bytes are checked against websockets' own serializer; the shortcut is checked on a real
uvicorn (in this process, on a loopback socket) with real websockets clients: taken on a plain
socket, refused (and the ordinary send used) after a close, and under permessage-deflate taken only
for a text under ``DEFLATE_MIN_BYTES`` bytes, so the client reads the same text every way. Under
permessage-deflate the client's own extension notes each frame as it came off the wire (RSV1 and
payload, before decoding): a small text arrives uncompressed on both send paths, a large one
compressed, interleaved, with every negotiable window.
"""

from __future__ import annotations

import asyncio
import gc
import json
import socket
import weakref

import pytest
import uvicorn
import websockets
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory, PerMessageDeflate
from websockets.frames import CTRL_OPCODES, Frame, Opcode

from server import wsprotocol
from server.wsprotocol import (
    DEFLATE_MIN_BYTES,
    EXTENSION,
    FrameProtocol,
    PlainBelowDeflate,
    PlainBelowDeflateFactory,
    frame_bytes,
    text_frame,
)


@pytest.mark.parametrize("length", [0, 1, 125, 126, 127, 65535, 65536, 70001])
def test_core_wire_text_frame_is_websockets_unmasked_frame(length):
    text = ("é" * (length // 2) + "a" * (length % 2)) if length > 200 else "a" * length
    assert text_frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def test_core_wire_frame_bytes_remembered_within_bounds():
    wsprotocol._built.clear()
    first = '{"a":1}'
    assert frame_bytes(first) is frame_bytes(first)  # built once, for every socket
    for number in range(wsprotocol.BUILT_LIMIT + 10):
        frame_bytes(f"[{number}]")
    assert len(wsprotocol._built) == wsprotocol.BUILT_LIMIT and first not in wsprotocol._built
    long = "x" * (wsprotocol.BUILT_LARGEST + 1)  # a catch-up: built per socket, never remembered
    assert frame_bytes(long) == text_frame(long) and long not in wsprotocol._built


async def _echo(scope, receive, send):
    """Echoes each text through the shortcut when it is taken, else the ordinary send; then says which."""
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    writer = scope["extensions"].get(EXTENSION)
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message["text"] == "close then write":
            await send({"type": "websocket.close", "code": 4000})
            assert writer.write("after the close") is False  # the close went out: nothing more is written
            return
        if message["text"] == "surrogate":
            assert writer.write("\ud800") is False  # not UTF-8: left to the ordinary send, which raises
            await send({"type": "websocket.send", "text": json.dumps({"taken": False})})
            continue
        taken = writer is not None and writer.write(message["text"])
        if not taken:
            await send({"type": "websocket.send", "text": message["text"]})
        await send({"type": "websocket.send", "text": json.dumps({"taken": taken})})


async def _served(deflate: bool, app=_echo):
    """A real uvicorn in this process, with FrameProtocol, serving ``app``: (server, its task, port)."""
    listener = socket.create_server(("127.0.0.1", 0))
    config = uvicorn.Config(app, ws=FrameProtocol, ws_per_message_deflate=deflate, log_level="warning",
                            lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        await asyncio.sleep(0.01)
    return server, task, listener.getsockname()[1]


@pytest.mark.parametrize("deflate", [False, True])
def test_core_wire_frame_shortcut_only_where_uvicorn_would_write_as_is(deflate):
    async def main():
        server, task, port = await _served(deflate)
        try:
            for offer in (False, True):
                async with websockets.connect(f"ws://127.0.0.1:{port}/", compression="deflate" if offer else None) as ws:
                    negotiated = ws.response.headers.get("Sec-WebSocket-Extensions") is not None
                    assert negotiated is (deflate and offer)
                    for text in ("short", "é" * 200, "x" * 70_000):
                        await ws.send(text)
                        assert await ws.recv() == text  # the same text either way
                        small = len(text.encode()) < DEFLATE_MIN_BYTES  # sent uncompressed under deflate
                        assert json.loads(await ws.recv()) == {"taken": not negotiated or small}
                async with websockets.connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
                    await ws.send("surrogate")
                    assert json.loads(await ws.recv()) == {"taken": False}
                    await ws.send("close then write")
                    with pytest.raises(websockets.ConnectionClosed) as closed:
                        await ws.recv()
                    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
        finally:
            server.should_exit = True
            await task

    asyncio.run(main())


def test_core_wire_a_closed_socket_goes_with_its_last_reference():
    """The writer forgets its protocol when the connection is lost: no cycle (protocol -> scope ->
    writer -> protocol) keeps a closed socket for the cyclic GC, and the writer then writes nothing."""
    held = {}

    async def app(scope, receive, send):
        if scope["type"] != "websocket":
            return
        await receive()
        await send({"type": "websocket.accept"})
        writer = scope["extensions"][EXTENSION]
        held["writer"], held["protocol"] = writer, weakref.ref(writer.protocol)
        while (await receive())["type"] != "websocket.disconnect":
            pass

    async def main():
        server, task, port = await _served(False, app)
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
                await ws.send("hello")
                while "writer" not in held:
                    await asyncio.sleep(0.01)
            for _ in range(200):  # uvicorn drops its own references once the app's task is done
                if held["protocol"]() is None:
                    break
                await asyncio.sleep(0.01)
            assert held["writer"].protocol is None
            assert held["protocol"]() is None  # freed by its reference count: the GC is off
            assert held["writer"].write("late") is False
        finally:
            server.should_exit = True
            await task

    gc.disable()
    try:
        asyncio.run(main())
    finally:
        gc.enable()


@pytest.mark.parametrize("deflate", [False, True])
def test_core_wire_a_connection_sends_through_the_shortcut_under_frame_protocol(monkeypatch, deflate):
    """server/connection.py finds the extension in a Starlette WebSocket's scope and its frames take
    the shortcut (the golden's bytes are the same either way, so only this shows the path taken); under
    permessage-deflate a frame of DEFLATE_MIN_BYTES bytes or more goes the ordinary way, compressed,
    between small ones sent uncompressed, and the client reads them all in order (issue 16)."""
    from starlette.websockets import WebSocket

    from server.connection import Connection

    taken = []
    write = wsprotocol.FrameWriter.write

    def counting(self, text):
        done = write(self, text)
        taken.append(done)
        return done

    monkeypatch.setattr(wsprotocol.FrameWriter, "write", counting)
    held = {}
    batch = ["one", json.dumps({"log": ["x" * 40] * 40}), "two", "é" * (DEFLATE_MIN_BYTES // 2), "three"]

    async def app(scope, receive, send):
        if scope["type"] != "websocket":
            return
        websocket = WebSocket(scope, receive, send)
        await websocket.accept()
        connection = Connection(websocket, 16, "127.0.0.1", 0)
        held["found"] = connection._frame_writer is scope["extensions"][EXTENSION]
        for _ in range(2):  # let the writer task start and wait on its empty backlog
            await asyncio.sleep(0)
        assert connection.send_batch(batch)
        await websocket.receive()  # the client's goodbye
        await connection.finish()

    async def main():
        server, task, port = await _served(deflate, app)
        noted: list = []
        offer = {"extensions": [_NotingFactory(noted, client_max_window_bits=True)]} if deflate else {}
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/", compression=None, **offer) as ws:
                assert [await ws.recv() for _ in batch] == batch
        finally:
            server.should_exit = True
            await task
        if deflate:
            _check_arrived(noted, [("s", text) for text in batch])

    asyncio.run(main())
    assert held["found"] is True
    # every frame written by the shortcut, none by the ordinary send; under deflate all but the large ones
    assert taken == [not deflate or len(text.encode()) < DEFLATE_MIN_BYTES for text in batch]
    assert taken.count(False) == (2 if deflate else 0)


# Small frames uncompressed under permessage-deflate (issue 16, RFC 7692 §6).


class _Noted(PerMessageDeflate):
    """A client's permessage-deflate that notes each data frame as it came off the wire, before decoding."""

    def __init__(self, noted: list, *args) -> None:
        super().__init__(*args)
        self.noted = noted

    def decode(self, frame, *, max_size=None):
        if frame.opcode not in CTRL_OPCODES:
            self.noted.append((frame.opcode, frame.fin, frame.rsv1, bytes(frame.data)))
        return super().decode(frame, max_size=max_size)


class _NotingFactory(ClientPerMessageDeflateFactory):
    """websockets' client negotiation of permessage-deflate (any offer), giving ``_Noted``."""

    def __init__(self, noted: list, **offer) -> None:
        super().__init__(**offer)
        self.noted = noted

    def process_response_params(self, params, accepted_extensions):
        got = super().process_response_params(params, accepted_extensions)
        return _Noted(self.noted, got.remote_no_context_takeover, got.local_no_context_takeover,
                      got.remote_max_window_bits, got.local_max_window_bits, got.compress_settings)


async def _sender(scope, receive, send):
    """Sends each ``[path, text]`` of a JSON list by the shortcut ("s": the ordinary send when it is
    refused, as server/connection.py does) or the ordinary send ("o"), then which the shortcut took."""
    if scope["type"] != "websocket":
        return
    await receive()
    await send({"type": "websocket.accept"})
    writer = scope["extensions"][EXTENSION]
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        taken = []
        for path, text in json.loads(message["text"]):
            taken.append(path == "s" and writer.write(text))
            if not taken[-1]:
                await send({"type": "websocket.send", "text": text})
        await send({"type": "websocket.send", "text": json.dumps(taken)})


async def _sent_through(port: int, pairs: list, offer: dict | None = None) -> tuple[list, list, str]:
    """What a client offering permessage-deflate (``offer``: its parameters) read of ``pairs``: the
    texts, the frames as they arrived (opcode, fin, RSV1, payload), and the negotiated header."""
    noted: list = []
    factory = _NotingFactory(noted, **(offer or {"client_max_window_bits": True}))
    async with websockets.connect(f"ws://127.0.0.1:{port}/", compression=None, extensions=[factory],
                                  max_size=None) as ws:
        await ws.send(json.dumps(pairs))
        texts = [await ws.recv() for _ in range(len(pairs) + 1)]
        header = ws.response.headers["Sec-WebSocket-Extensions"]
    taken = json.loads(texts.pop())
    assert texts == [text for _, text in pairs]  # every text exact and in order, whatever went compressed
    expected_taken = [path == "s" and len(text.encode()) < DEFLATE_MIN_BYTES for path, text in pairs]
    assert taken == expected_taken
    return noted[:-1], taken, header


def _check_arrived(noted: list, pairs: list) -> None:
    """Check each text's frame: whole, uncompressed (RSV1 clear, its own UTF-8 bytes: what ``text_frame``
    writes) below ``DEFLATE_MIN_BYTES`` bytes, compressed (RSV1 set, fewer bytes) from it on."""
    assert len(noted) == len(pairs)
    for (opcode, fin, rsv1, data), (_, text) in zip(noted, pairs):
        raw = text.encode()
        assert opcode is Opcode.TEXT and fin
        if len(raw) < DEFLATE_MIN_BYTES:
            assert rsv1 is False and data == raw, (len(raw), rsv1)
        else:
            assert rsv1 is True and len(data) < len(raw), (len(raw), rsv1)


def _mixed(rounds: int) -> list:
    """Small command-like frames and large catch-up-like ones, interleaved, on both paths; each large text
    repeats earlier small and large ones, so a window out of step would decode it wrongly."""
    pairs, history = [], []
    for number in range(rounds):
        for small in range(5):
            text = f'[{number * 5 + small},"Sl{number:03d}Vl",[0,"b-{number}",[3,{small}],{number * 7919},[6,0,8,2]]]'
            pairs.append(("s" if (number + small) % 2 else "o", text))
            history.append(text)
        large = "[" + ",".join(history[-40:]) + f',"ходы {number}"]'  # non-ASCII inside, over the threshold
        pairs.append(("s" if number % 2 else "o", large))
        history.append(large[:300])
    return pairs


def test_core_wire_deflate_small_frames_plain_large_compressed_on_both_paths():
    """Issue 16: under permessage-deflate a text under DEFLATE_MIN_BYTES bytes arrives with RSV1 clear,
    on the shortcut and on uvicorn's send alike, a larger one compressed with the socket's context; sixty
    rounds interleaved decode exactly, so no plain frame entered either side's window."""
    async def main():
        server, task, port = await _served(True, _sender)
        try:
            pairs = _mixed(60)
            noted, taken, header = await _sent_through(port, pairs)
            _check_arrived(noted, pairs)
            assert any(taken) and not all(taken)
            # uvicorn's parameters, negotiated by websockets' own factory
            assert header == "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"
        finally:
            server.should_exit = True
            await task

    asyncio.run(main())


@pytest.mark.parametrize("offer", [
    {"server_no_context_takeover": True},
    {"client_no_context_takeover": True},
    {"server_no_context_takeover": True, "client_no_context_takeover": True},
    {"server_max_window_bits": 9, "client_max_window_bits": 9},
    {"server_max_window_bits": 10, "client_max_window_bits": True, "client_no_context_takeover": True},
])
def test_core_wire_deflate_every_negotiable_window_reads_everything(offer):
    """Issue 16: a client that negotiated no context takeover or smaller windows reads every text, small
    ones uncompressed and large ones compressed, as the server's encoder and its decoder agree."""
    async def main():
        server, task, port = await _served(True, _sender)
        try:
            pairs = _mixed(12)
            noted, _, header = await _sent_through(port, pairs, offer)
            _check_arrived(noted, pairs)
            for name, value in offer.items():
                if name.endswith("no_context_takeover"):
                    assert name in header
                elif name == "server_max_window_bits":
                    assert f"{name}={value}" in header
        finally:
            server.should_exit = True
            await task

    asyncio.run(main())


@pytest.mark.parametrize("text", [
    "a" * (DEFLATE_MIN_BYTES - 1), "a" * DEFLATE_MIN_BYTES,
    "я" * (DEFLATE_MIN_BYTES // 2 - 1) + "a", "я" * (DEFLATE_MIN_BYTES // 2),  # 1,023 and 1,024 bytes, 512 characters
    "€" * ((DEFLATE_MIN_BYTES - 1) // 3), "€" * ((DEFLATE_MIN_BYTES - 1) // 3) + "a",  # 1,023 and 1,024 bytes
    "🎲" * (DEFLATE_MIN_BYTES // 4 - 1) + "abc", "🎲" * (DEFLATE_MIN_BYTES // 4),  # 1,023 and 1,024 bytes
])
def test_core_wire_deflate_threshold_counts_utf8_bytes_not_characters(text):
    """Issue 16: the threshold is the UTF-8 payload's bytes: 512 Cyrillic letters (1,024 bytes) go
    compressed and the shortcut refuses them, though they are fewer characters than the bound."""
    async def main():
        server, task, port = await _served(True, _sender)
        try:
            pairs = [("s", text), ("o", text), ("s", "short"), ("s", text)]
            noted, _, _ = await _sent_through(port, pairs)
            _check_arrived(noted, pairs)
        finally:
            server.should_exit = True
            await task

    assert len(text.encode()) in (DEFLATE_MIN_BYTES - 1, DEFLATE_MIN_BYTES)
    asyncio.run(main())


def test_core_wire_deflate_threshold_is_there():
    """Issue 16: the bound the tests above check sits where docs/protocol.md says (1 KB), and live command
    frames (~85-250 bytes) fall below it."""
    assert DEFLATE_MIN_BYTES == 1024


def test_core_wire_deflate_a_handshake_builds_one_zlib_pair(monkeypatch):
    """Each socket's permessage-deflate costs one compressor and one decompressor (~40 KB): the
    negotiated extension is websockets' own object made a PlainBelowDeflate, not a second one."""
    import websockets.extensions.permessage_deflate as deflate_module

    made = []
    real = deflate_module.zlib

    class CountedZlib:  # the real zlib, its compressor and decompressor makers counted
        def __getattr__(self, name):
            return getattr(real, name)

        def compressobj(self, *args, **kwargs):
            made.append("compress")
            return real.compressobj(*args, **kwargs)

        def decompressobj(self, *args, **kwargs):
            made.append("decompress")
            return real.decompressobj(*args, **kwargs)

    monkeypatch.setattr(deflate_module, "zlib", CountedZlib())
    factory = PlainBelowDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                       compress_settings={"memLevel": 5})
    offer = ClientPerMessageDeflateFactory(client_max_window_bits=True).get_request_params()
    _, extension = factory.process_request_params(offer, [])
    assert type(extension) is PlainBelowDeflate and isinstance(extension, PerMessageDeflate)
    assert sorted(made) == ["compress", "decompress"]
    # Check it still compresses and inflates as websockets' own (a large frame goes compressed).
    text = "x" * (2 * DEFLATE_MIN_BYTES)
    sent = extension.encode(Frame(Opcode.TEXT, text.encode()))
    assert sent.rsv1 and len(sent.data) < len(text)


def test_core_wire_deflate_fragments_and_control_frames_keep_websockets_rules():
    """Issue 16: only a whole text message goes uncompressed; a fragmented one is compressed from its
    first frame (its continuations follow, RSV1 clear as RFC 7692 §6.1 says), binary and control frames
    as websockets does; a reader (websockets' decoder) gets every payload back, in step."""
    server = PlainBelowDeflate(False, False, 12, 12, {"memLevel": 5})
    client = PerMessageDeflate(False, False, 12, 12)  # its decoder reads what the server's encoder wrote
    big = b'{"log":"' + b"x" * 3000 + b'"}'
    sent = [
        (Frame(Opcode.TEXT, b"small", fin=False), True),  # a first frame, not final: compressed
        (Frame(Opcode.CONT, b" more", fin=False), False),  # its continuations: compressed, RSV1 clear
        (Frame(Opcode.CONT, b" end", fin=True), False),
        (Frame(Opcode.PING, b"ping"), False),  # control: untouched
        (Frame(Opcode.TEXT, b"small"), False),  # whole and small: plain
        (Frame(Opcode.BINARY, b"small"), True),  # binary: websockets' rule, compressed
        (Frame(Opcode.TEXT, big), True),
        (Frame(Opcode.TEXT, b"small" * 10), False),
        (Frame(Opcode.TEXT, big + b"!"), True),  # refers back to the first big one: the windows agree
    ]
    read = []
    for frame, compressed in sent:
        encoded = server.encode(frame)
        assert encoded.rsv1 is compressed, frame
        if frame.opcode is Opcode.PING or (frame.opcode is Opcode.TEXT and frame.fin and not compressed):
            assert encoded is frame  # sent as it is
        read.append(bytes(client.decode(encoded).data))
    assert read == [bytes(frame.data) for frame, _ in sent]
    assert len(server.encode(Frame(Opcode.TEXT, big + b"!")).data) < 100  # the context was kept

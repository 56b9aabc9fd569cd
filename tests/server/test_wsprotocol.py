"""server/wsprotocol.py: a text frame's bytes built once, written only when uvicorn's send would write them.

The frame bytes are checked against websockets' own serializer; the shortcut is checked on a real
uvicorn (in this process, on a loopback socket) with real websockets clients: taken on a plain
socket, refused (and the ordinary send used) when permessage-deflate was negotiated or a close was
sent, so the client reads the same text every way.
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
from websockets.frames import Frame, Opcode

from server import wsprotocol
from server.wsprotocol import EXTENSION, FrameProtocol, frame_bytes, text_frame


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
                        assert json.loads(await ws.recv()) == {"taken": not negotiated}
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


def test_core_wire_a_connection_sends_through_the_shortcut_under_frame_protocol(monkeypatch):
    """server/connection.py finds the extension in a Starlette WebSocket's scope and its frames take
    the shortcut (the golden's bytes are the same either way, so only this shows the path taken)."""
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

    async def app(scope, receive, send):
        if scope["type"] != "websocket":
            return
        websocket = WebSocket(scope, receive, send)
        await websocket.accept()
        connection = Connection(websocket, 16, "127.0.0.1", 0)
        held["found"] = connection._frame_writer is scope["extensions"][EXTENSION]
        for _ in range(2):  # let the writer task start and wait on its empty backlog
            await asyncio.sleep(0)
        assert connection.send_batch(["one", "two"])
        await websocket.receive()  # the client's goodbye
        await connection.finish()

    async def main():
        server, task, port = await _served(False, app)
        try:
            async with websockets.connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
                assert [await ws.recv(), await ws.recv()] == ["one", "two"]
        finally:
            server.should_exit = True
            await task

    asyncio.run(main())
    assert held["found"] is True
    assert taken == [True, True]  # both frames written by the shortcut, none by the ordinary send

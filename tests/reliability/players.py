"""Clients that outlive their sockets, a loopback proxy that cuts connections, a raw WebSocket.

``Player`` keeps its folded state, its envelopes and its command in flight across sockets: after
a drop it reconnects, says hello with the last seq it holds, and resends the command whose
answer it never got, with the same id (docs/protocol.md: ids make commands idempotent).

``CuttingProxy`` forwards loopback TCP to the server and cuts each connection after a byte
budget chosen per connection, in either direction, so a cut lands anywhere: in the handshake,
mid-frame, between frames. ``raw_socket`` speaks just enough WebSocket (RFC 6455) by hand to
send a frame in pieces or a broken one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import struct
import urllib.request
from typing import Any

import websockets

import events.games
from events.canonical import state_hash
from events.log import Envelope
from events.wire import frame_ack, frame_dicts, hash_matches

TIMEOUT = 10.0
DROPPED = (websockets.WebSocketException, OSError, asyncio.IncompleteReadError, EOFError, asyncio.TimeoutError)


def http_json(url: str, method: str = "GET", body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            raw = response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        raw, status = error.read(), error.code
    text = raw.decode()
    if "ndjson" in url or url.endswith("/log"):
        return status, [json.loads(line) for line in text.splitlines()]
    return status, json.loads(text)


class Player:
    """One seat (or a spectator: token None) of one game, across any number of sockets."""

    def __init__(self, ws_url: str, game_id: str, token: str | None, seat: str | None, rules: str) -> None:
        self.ws_url = ws_url
        self.game_id = game_id
        self.token = token
        self.seat = seat
        self.game = events.games.load(rules)
        self.state: Any = None
        self.envelopes: list[dict] = []
        self.socket: Any = None
        self.in_flight: tuple[str, str, dict] | None = None  # (id, type, data) sent, answer not yet read
        self.answers: dict[str, dict] = {}  # command id -> its final answer (ack, rejected, error)
        self.reconnects = 0
        self.resent = 0  # commands sent again after a drop, their first answer lost

    @property
    def head(self) -> int:
        return len(self.envelopes)

    @property
    def hash(self) -> str | None:
        return self.envelopes[-1]["hash"] if self.envelopes else None

    async def connect(self, via: str | None = None) -> dict:
        """A new socket (through ``via``, a ws:// base URL, if given): hello with the last seq held."""
        await self.drop()
        self.reconnects += 1
        try:
            self.socket = await websockets.connect(f"{via or self.ws_url}/ws/{self.game_id}", max_size=2**24,
                                                   open_timeout=TIMEOUT, close_timeout=1)
            await self.socket.send(json.dumps({"type": "hello", "since": self.head, "token": self.token}))
            welcome = await self._next()
            assert welcome["type"] == "welcome", welcome
            while self.head < welcome["head"]:
                frame = await self._next()
                assert type(frame) is list, frame
        except DROPPED as error:
            self.abort()
            raise ConnectionError(f"connecting failed: {error!r}") from error
        return welcome

    async def wait_events(self, seconds: float) -> None:
        """Fold the next event, if one arrives within ``seconds`` (nothing else is expected meanwhile)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                frame = await self._next()
                assert type(frame) is list or frame.get("type") == "ack", frame

    async def drop(self) -> None:
        if self.socket is not None:
            socket, self.socket = self.socket, None
            with contextlib.suppress(Exception):
                await asyncio.wait_for(socket.close(), 2)

    def abort(self) -> None:
        """Cut our own socket without a closing handshake (as a vanished phone would)."""
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self.socket.transport.abort()
            self.socket = None

    async def _next(self) -> dict:
        frame = json.loads(await asyncio.wait_for(self.socket.recv(), TIMEOUT))
        if type(frame) is list:  # an events frame
            first = self.envelopes[0] if self.envelopes else None  # the base of its times, its seat indexes
            started, seats = (first["at"], first["data"].get("seats")) if first else (None, None)
            for raw in frame_dicts(self.game, self.game_id, frame, started, seats=seats):
                self._fold(raw)
            ack = frame_ack(frame)  # the sender's copy of its command's frame carries the ack
            if ack is not None:
                return ack
        return frame

    def _fold(self, raw: dict) -> None:
        """One envelope of an events frame; the hashes the frame did not send (None) are computed."""
        assert raw["seq"] == self.head + 1, f"{self.seat}: expected seq {self.head + 1}, got {raw['seq']}"
        self.envelopes.append(raw)
        self.state = self.game.evolve(self.state, Envelope.from_dict(self.game, dict(raw, hash="")).event)
        folded = state_hash(self.state)
        assert raw["hash"] is None or hash_matches(folded, raw["hash"]), f"{self.seat}: hash differs at seq {raw['seq']}"
        raw["hash"] = folded  # not sent (None), or sent as its first 96 bits

    async def send(self, command_id: str, type_: str, data: dict) -> dict:
        """Send a command (remembered as in flight until answered); its answer."""
        self.in_flight = (command_id, type_, data)
        await self.socket.send(json.dumps({"type": "command", "id": command_id,
                                           "command": {"type": type_, "data": data}}))
        return await self.answer()

    async def answer(self) -> dict:
        while True:
            frame = await self._next()
            if type(frame) is not list:  # not an events frame (an ack it carried comes as the ack)
                if self.in_flight is not None and frame.get("id") == self.in_flight[0]:
                    self.answers[frame["id"]] = frame
                    self.in_flight = None
                return frame

    async def resend(self) -> dict | None:
        """After a reconnect: the command whose answer was lost, again with the same id."""
        if self.in_flight is None:
            return None
        self.resent += 1
        return await self.send(*self.in_flight)

    async def catch_up(self, head: int) -> None:
        while self.head < head:
            frame = await self._next()
            assert type(frame) is list or frame.get("type") == "ack", frame

    def legal(self) -> list:
        if self.seat is None or self.game.is_over(self.state) or self.seat not in self.game.turn(self.state):
            return []
        return self.game.legal(self.state, self.seat)


def command_json(command: Any) -> tuple[str, dict]:
    data = command.to_data()
    return data.pop("type"), data


def server_head(base_url: str, game_id: str) -> tuple[int, str]:
    status, state = http_json(f"{base_url}/api/games/{game_id}/state")
    assert status == 200, state
    return state["seq"], state["hash"]


# --- a proxy that cuts connections ---------------------------------------------------------------


class CuttingProxy:
    """Loopback TCP proxy: connection n is cut after ``plans[n]`` = (bytes up, bytes down, abort?)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.plans: list[tuple[int | None, int | None, bool]] = []
        self.cuts = 0
        self.server: asyncio.AbstractServer | None = None
        self.port = 0

    async def start(self) -> CuttingProxy:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    async def _serve(self, client_reader, client_writer) -> None:
        up, down, abort = self.plans.pop(0) if self.plans else (None, None, False)
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            client_writer.transport.abort()
            return
        done = asyncio.Event()

        async def pipe(reader, writer, budget):
            try:
                while not done.is_set():
                    chunk = await reader.read(4096)
                    if not chunk:
                        break
                    if budget is not None:
                        if len(chunk) >= budget:
                            writer.write(chunk[:budget])
                            with contextlib.suppress(Exception):
                                await writer.drain()
                            self.cuts += 1
                            break
                        budget -= len(chunk)
                    writer.write(chunk)
                    await writer.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                done.set()

        tasks = [asyncio.ensure_future(pipe(client_reader, server_writer, up)),
                 asyncio.ensure_future(pipe(server_reader, client_writer, down))]
        await done.wait()
        for task in tasks:
            task.cancel()
        for writer in (client_writer, server_writer):
            if abort:
                writer.transport.abort()  # RST: the peer learns nothing of an orderly end
            else:
                with contextlib.suppress(Exception):
                    writer.close()


# --- WebSocket by hand ----------------------------------------------------------------------------


async def raw_socket(port: int, path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that has done the WebSocket handshake and nothing else."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), TIMEOUT)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


def ws_frame(payload: bytes, opcode: int = 1, fin: bool = True, mask: bytes | None = None) -> bytes:
    """One client frame (clients must mask)."""
    mask = mask if mask is not None else os.urandom(4)
    first = (0x80 if fin else 0) | opcode
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", first, 0x80 | size)
    elif size < 2**16:
        header = struct.pack("!BBH", first, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", first, 0x80 | 127, size)
    return header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def read_ws_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """(opcode, payload) of the next server frame (servers do not mask)."""
    first, second = await asyncio.wait_for(reader.readexactly(2), TIMEOUT)
    size = second & 0x7F
    if size == 126:
        (size,) = struct.unpack("!H", await reader.readexactly(2))
    elif size == 127:
        (size,) = struct.unpack("!Q", await reader.readexactly(8))
    return first & 0x0F, await reader.readexactly(size)


def chooser(seed: int) -> random.Random:
    return random.Random(seed)

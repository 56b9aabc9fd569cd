"""One client's socket: its state machine, its bounded send queue and the writer task that drains it.

Each connection has a bounded send queue drained by its own task; a client that cannot keep up
is dropped (``CLOSE_TOO_SLOW``) instead of stalling its game's other clients. While that task is
idle (nothing queued, nothing in flight) a batch is written at once, in the caller's step: a
WebSocket send only waits when the transport is paused (the peer reads slowly), so the common
case needs no task switch per socket and per command; a send that does wait is handed to the
task, with what follows it queued behind (issue 16, docs/performance.md). The close codes
live here, with the socket they close; ``server/room.py``, ``server/rooms.py`` and
``server/serve_socket.py`` use them.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import itertools
import logging
from typing import Any

from starlette.websockets import WebSocket

from server.wsprotocol import EXTENSION

log = logging.getLogger("chronicle.room")

# Close codes: number and meaning in one name (4000-4999 are ours to define).
CLOSE_GOING_AWAY = 1001  # the server is shutting down
CLOSE_SERVER_ERROR = 1011  # the game cannot be rebuilt from its log (see the error frame)
CLOSE_TRY_AGAIN_LATER = 1013  # the store failed; reconnect later and say hello with your seq
CLOSE_NO_SUCH_GAME = 4004  # the URL names no game in the store
CLOSE_TOO_SLOW = 4008  # the client's send queue overflowed: it read too slowly
CLOSE_HELLO_TIMEOUT = 4010  # no successful hello within the hello timeout (server/limits.py)
CLOSE_EVICTED = 4011  # made room for a newer socket, a seat, or another game (see the error frame)
CLOSE_POLICY_VIOLATION = 1008  # too many faulty frames on one socket (``too-many-faults``, server/limits.py)
CLOSE_FORBIDDEN_ORIGIN = CLOSE_POLICY_VIOLATION  # before the upgrade: uvicorn answers it with HTTP 403

SEND_QUEUE_LIMIT = 256  # queued items (one per command, or one catch-up batch) per connection


class ConnectionState(enum.Enum):
    AWAITING_HELLO = "awaiting-hello"
    GREETED = "greeted"
    CLOSED = "closed"


_TRANSITIONS = {
    ConnectionState.AWAITING_HELLO: (ConnectionState.GREETED, ConnectionState.CLOSED),
    ConnectionState.GREETED: (ConnectionState.CLOSED,),
    ConnectionState.CLOSED: (),
}


_opened = itertools.count()


def next_order() -> int:
    """The ``order`` of the socket opened now: a smaller one is older (the oldest is evicted first)."""
    return next(_opened)


class Connection:
    """One client's socket: its state, its seat, and the bounded queue its writer task drains.

    ``address`` is the client's; ``order`` says which socket is older (the oldest is evicted
    first); ``seat_only`` marks a socket admitted beyond a full bound, which may only say hello
    with a seat's token (issue 12, finding 3).
    """

    def __init__(
        self, websocket: WebSocket, queue_limit: int = SEND_QUEUE_LIMIT, address: str = "unknown",
        order: int | None = None,
    ) -> None:
        self.websocket = websocket
        self.state = ConnectionState.AWAITING_HELLO
        self.seat: str | None = None
        self.token: str | None = None
        self.close_code: int | None = None
        self.address = address
        self.order = next_order() if order is None else order
        self.seat_only = False
        self.placed = False  # counted among its seat's sockets (Rooms.greeted)
        # What the writer has still to send, oldest first: batches of frames, then maybe a close code. A
        # deque and one future to wake the writer, not an asyncio.Queue: a command puts one batch per
        # socket, and the Queue's bookkeeping in Python was a tenth of a command's CPU (docs/performance.md).
        self._backlog: collections.deque[list[str] | int | _Started] = collections.deque()
        self._waiting: asyncio.Future | None = None  # the writer's, while the backlog is empty
        self._idle = False  # the writer waits on an empty backlog, with no send in flight: write at once
        self._limit = queue_limit
        # uvicorn's protocol's shortcut (server/wsprotocol.py): prebuilt frame bytes written at once when
        # that is what its send would do; None under another server (every frame sent the ordinary way).
        self._frame_writer = ((getattr(websocket, "scope", None) or {}).get("extensions") or {}).get(EXTENSION)
        self._writer = asyncio.create_task(self._pump())

    def __repr__(self) -> str:
        return f"Connection({self.state.value}, seat={self.seat!r})"

    def transition(self, to: ConnectionState) -> None:
        if to not in _TRANSITIONS[self.state]:
            raise RuntimeError(f"connection cannot go from {self.state.value} to {to.value}")
        self.state = to

    def send(self, *frames_: str) -> bool:
        """Send frames in order (at once while the writer is idle, else queued); False (and the
        connection is dropped) if the queue overflowed or the socket is closed."""
        return self.send_batch(list(frames_))

    def send_batch(self, batch: list[str]) -> bool:
        if self.state is ConnectionState.CLOSED:
            return False
        if len(self._backlog) >= self._limit:
            log.warning("dropping a client too slow to read (%s): %d items queued", self, self._limit)
            self.close(CLOSE_TOO_SLOW)
            return False
        if not batch:
            return True
        if self._idle and not self._backlog:
            return self._write_now(batch)
        self._backlog.append(batch)
        self._wake()
        return True

    def _write_now(self, batch: list[str]) -> bool:
        """Send ``batch`` in the caller's step; a send that must wait goes to the writer, the rest behind it."""
        writer = self._frame_writer
        for index, frame in enumerate(batch):
            if writer is not None and writer.write(frame):
                continue  # written to the transport, as send_text would have
            sending = self.websocket.send_text(frame)
            try:
                waits_on = sending.send(None)
            except StopIteration:
                continue  # written to the transport
            except Exception:  # the peer went away: as the writer does, nothing left to tell it
                self.transition(ConnectionState.CLOSED)
                return False
            self._idle = False
            if index + 1 < len(batch):
                self._backlog.appendleft(batch[index + 1:])
            self._backlog.appendleft(_Started(sending, waits_on))
            self._wake()
            return True
        return True

    def _wake(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def close(self, code: int) -> None:
        """Stop accepting frames; the writer sends what is queued before it (unless too slow), then closes."""
        if self.state is ConnectionState.CLOSED:
            return
        self.transition(ConnectionState.CLOSED)
        self.close_code = code
        if code == CLOSE_TOO_SLOW:  # its backlog is the problem: drop it, close at once
            self._backlog.clear()
        self._backlog.append(code)
        self._wake()

    async def _pump(self) -> None:
        backlog = self._backlog
        try:
            while True:
                while not backlog:
                    self._idle = True
                    self._waiting = asyncio.get_running_loop().create_future()
                    await self._waiting
                self._idle = False
                item = backlog.popleft()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.websocket.close(item), 5)
                    return
                if isinstance(item, _Started):
                    await item
                    continue
                writer = self._frame_writer
                for frame in item:
                    if writer is None or not writer.write(frame):
                        await self.websocket.send_text(frame)
        except Exception:  # the peer went away mid-send: nothing left to tell it
            if self.state is not ConnectionState.CLOSED:
                self.transition(ConnectionState.CLOSED)

    async def finish(self) -> None:
        """After the socket's receive loop ended: let a pending close go out, then stop the writer."""
        if self.close_code is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), 5)
        if self.state is not ConnectionState.CLOSED:
            self.transition(ConnectionState.CLOSED)
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer
        for item in self._backlog:  # a send begun in a caller's step and never finished: end it quietly
            if isinstance(item, _Started):
                item.sending.close()


class _Started:
    """A send begun in a caller's step (``Connection._write_now``) that had to wait on ``waits_on``
    (the transport paused): awaiting this finishes it in the writer task, as if it had begun there."""

    __slots__ = ("sending", "waits_on")

    def __init__(self, sending: Any, waits_on: Any) -> None:
        self.sending = sending
        self.waits_on = waits_on

    def __await__(self) -> Any:
        sending, waits_on = self.sending, self.waits_on
        while True:
            try:
                resumed = yield waits_on  # the task waits on what the send waited on, then resumes it
            except BaseException as error:  # a cancellation: hand it to the send, as the task would
                try:
                    waits_on = sending.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waits_on = sending.send(resumed)
                except StopIteration as done:
                    return done.value

"""One client's socket: its state machine, its bounded send queue and the writer task that drains it.

Each connection has a bounded send queue drained by its own task; a client that cannot keep up
is dropped (``CLOSE_TOO_SLOW``) instead of stalling its game's other clients. The close codes
live here, with the socket they close; ``server/room.py``, ``server/rooms.py`` and
``server/serve_socket.py`` use them.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import logging

from starlette.websockets import WebSocket

log = logging.getLogger("chronicle.room")

# Close codes: number and meaning in one name (4000-4999 are ours to define).
CLOSE_GOING_AWAY = 1001  # the server is shutting down
CLOSE_SERVER_ERROR = 1011  # the game cannot be rebuilt from its log (see the error frame)
CLOSE_TRY_AGAIN_LATER = 1013  # the store failed; reconnect later and say hello with your seq
CLOSE_NO_SUCH_GAME = 4004  # the URL names no game in the store
CLOSE_TOO_SLOW = 4008  # the client's send queue overflowed: it read too slowly
CLOSE_HELLO_TIMEOUT = 4010  # no successful hello within the hello timeout (server/limits.py)
CLOSE_EVICTED = 4011  # made room for a newer socket, a seat, or another game (see the error frame)
CLOSE_FORBIDDEN_ORIGIN = 1008  # before the upgrade: uvicorn answers it with HTTP 403

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
        self._queue: asyncio.Queue[list[str] | int] = asyncio.Queue(queue_limit + 1)  # +1: room for the close
        self._limit = queue_limit
        self._writer = asyncio.create_task(self._pump())

    def __repr__(self) -> str:
        return f"Connection({self.state.value}, seat={self.seat!r})"

    def transition(self, to: ConnectionState) -> None:
        if to not in _TRANSITIONS[self.state]:
            raise RuntimeError(f"connection cannot go from {self.state.value} to {to.value}")
        self.state = to

    def send(self, *frames_: str) -> bool:
        """Queue frames to go out in order; False (and the connection is dropped) if it overflowed."""
        return self.send_batch(list(frames_))

    def send_batch(self, batch: list[str]) -> bool:
        if self.state is ConnectionState.CLOSED:
            return False
        if self._queue.qsize() >= self._limit:
            log.warning("dropping a client too slow to read (%s): %d items queued", self, self._limit)
            self.close(CLOSE_TOO_SLOW)
            return False
        if batch:
            self._queue.put_nowait(batch)
        return True

    def close(self, code: int) -> None:
        """Stop accepting frames; the writer sends what is queued before it (unless too slow), then closes."""
        if self.state is ConnectionState.CLOSED:
            return
        self.transition(ConnectionState.CLOSED)
        self.close_code = code
        if code == CLOSE_TOO_SLOW:  # its backlog is the problem: drop it, close at once
            while not self._queue.empty():
                self._queue.get_nowait()
        self._queue.put_nowait(code)

    async def _pump(self) -> None:
        try:
            while True:
                item = await self._queue.get()
                if isinstance(item, int):
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(self.websocket.close(item), 5)
                    return
                for frame in item:
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

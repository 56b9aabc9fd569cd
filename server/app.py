"""The Starlette application: a route list and one lifespan that opens and closes the store.

``create_app`` is what tests, ``chronicle serve`` and ``uvicorn --factory server.app:app_from_env``
all build; nothing is registered by decorator and nothing happens at import.
"""

from __future__ import annotations

import contextlib
import os

from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from server import api, pages
from server.limits import Limits
from server.metrics import Metrics, operations_routes
from server.room import CLOSE_GOING_AWAY, SEND_QUEUE_LIMIT, Rooms, serve_socket
from server.store import store_for

DEFAULT_DB = "chronicle.db"


def create_app(store_url_or_path: str, *, send_queue_limit: int = SEND_QUEUE_LIMIT,
               limits: Limits | None = None) -> Starlette:
    """The app over one store.

    ``store_url_or_path``: a SQLite file path, ``sqlite:///path``, or ``postgresql://…`` (several processes).
    ``send_queue_limit``: items queued per connection before a slow client is dropped.
    ``limits``: frame size, command rate, connections per game, games open (server/limits.py).
    """
    assert send_queue_limit >= 1, f"send_queue_limit must be at least 1, got {send_queue_limit}"
    store = store_for(store_url_or_path)
    metrics = Metrics()
    rooms = Rooms(store, limits, metrics=metrics)
    # PostgreSQL: hear other processes' appends (LISTEN/NOTIFY); SQLite serves one process alone.
    feed = store.feed(rooms.notified, rooms.follow_all) if hasattr(store, "feed") else None

    async def game_socket(websocket: WebSocket) -> None:
        await serve_socket(websocket, rooms, send_queue_limit)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await store.open()
        if feed is not None:
            await feed.start()
        app.state.store = store
        app.state.rooms = rooms
        app.state.metrics = metrics
        app.state.feed = feed
        try:
            yield
        finally:
            rooms.close_all(CLOSE_GOING_AWAY)
            if feed is not None:
                await feed.stop()
            await store.close()

    routes = [*operations_routes(store, metrics, feed), *api.routes, WebSocketRoute("/ws/{game_id}", game_socket),
              *pages.routes]
    return Starlette(routes=routes, lifespan=lifespan)


def app_from_env() -> Starlette:
    """For ``uvicorn --factory``: the store from ``CHRONICLE_DB``, the queue limit from ``CHRONICLE_SEND_QUEUE``,
    the limits from ``CHRONICLE_MAX_FRAME_BYTES`` and the others of server/limits.py."""
    limit = int(os.environ.get("CHRONICLE_SEND_QUEUE") or SEND_QUEUE_LIMIT)
    return create_app(os.environ.get("CHRONICLE_DB") or DEFAULT_DB, send_queue_limit=limit, limits=Limits.from_env())

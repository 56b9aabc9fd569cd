"""The Starlette application: a route list and one lifespan that opens and closes the store.

``create_app`` is what tests, ``chronicle serve`` and ``uvicorn --factory server.app:app_from_env``
all build; nothing is registered by decorator and nothing happens at import.
"""

from __future__ import annotations

import contextlib
import os

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from server import api, pages
from server.connection import CLOSE_GOING_AWAY, SEND_QUEUE_LIMIT
from server.limits import CreationRate, Limits
from server.logs import LogCache
from server.metrics import Metrics, operations_routes
from server.rooms import Rooms
from server.serve_socket import serve_socket
from server.store import store_for
from server.workers import Worker, processes_from_env, resident_kib_from_env

DEFAULT_DB = "chronicle.db"


class Nosniff:
    """Every HTTP answer carries ``X-Content-Type-Options: nosniff`` (issue 12, finding 6): no
    browser may read a JSON answer or a log as HTML or script, whatever its bytes look like."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"x-content-type-options" for name, _ in headers):
                    headers.append((b"x-content-type-options", b"nosniff"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, sending)


async def _http_error(request: Request, error: HTTPException):
    """Starlette's own 404/405 as JSON problems, like every other error of the API; a browser's navigation
    to a path that is no page gets a 404 page in its language instead (``pages.missing_page``)."""
    if error.status_code == 404 and pages.wants_page(request):
        return pages.missing_page(request)
    code = {404: "not-found", 405: "method-not-allowed"}.get(error.status_code, "bad-request")
    return api.problem(error.status_code, code, f"{request.method} {request.url.path}: {error.detail}",
                       dict(error.headers or {}))


async def _server_error(request: Request, error: Exception):
    """A bug, never an input's fault: still a JSON problem with a code (no plain-text 500)."""
    api.log.exception("%s %s failed", request.method, request.url.path)
    return api.problem(500, "internal-error", f"the server failed to answer: {type(error).__name__}")


def allowed_origins_from_env(environ=os.environ) -> tuple[str, ...]:
    """``CHRONICLE_ALLOWED_ORIGINS``: comma-separated origins (``https://example.org``) whose pages may
    open game sockets, besides the server's own."""
    return tuple(item.strip().rstrip("/") for item in environ.get("CHRONICLE_ALLOWED_ORIGINS", "").split(",")
                 if item.strip())


def create_app(store_url_or_path: str, *, send_queue_limit: int = SEND_QUEUE_LIMIT,
               limits: Limits | None = None, allowed_origins: tuple[str, ...] | None = None,
               group_commit: bool | None = None, worker_process: bool | None = None) -> Starlette:
    """The app over one store.

    ``store_url_or_path``: a SQLite file path, ``sqlite:///path``, or ``postgresql://…`` (several processes).
    ``send_queue_limit``: items queued per connection before a slow client is dropped.
    ``limits``: frame size, command rate, connections, hello timeout, games open and created (server/limits.py).
    ``allowed_origins``: other origins whose pages may open sockets (default: ``CHRONICLE_ALLOWED_ORIGINS``).
    ``worker_process``: whole-log work in a worker process (default: ``CHRONICLE_WORKER_PROCESS``, else on),
    or in threads (server/workers.py).
    """
    assert send_queue_limit >= 1, f"send_queue_limit must be at least 1, got {send_queue_limit}"
    store = store_for(store_url_or_path, group_commit=group_commit)  # None: CHRONICLE_GROUP_COMMIT, else on
    metrics = Metrics()
    limits = limits or Limits()
    origins = allowed_origins_from_env() if allowed_origins is None else tuple(allowed_origins)
    rooms = Rooms(store, limits, metrics=metrics, allowed_origins=origins)
    # PostgreSQL: hear other processes' appends (LISTEN/NOTIFY); SQLite serves one process alone.
    feed = store.feed(rooms.notified, rooms.follow_all) if hasattr(store, "feed") else None
    worker = Worker(processes_from_env() if worker_process is None else worker_process, metrics,
                    resident_kib_from_env())

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
        app.state.limits = limits
        app.state.creations = CreationRate(limits)
        app.state.logs = LogCache(counted=metrics.log_lines.inc)  # GET /api/games/{id}/log's lines, made once
        await worker.start()  # whole-log work's process, warm before the first request (server/workers.py)
        app.state.worker = worker
        try:
            yield
        finally:
            worker.close()
            rooms.close_all(CLOSE_GOING_AWAY)
            if feed is not None:
                await feed.stop()
            await store.close()

    routes = [*operations_routes(store, metrics, feed), *api.routes, WebSocketRoute("/ws/{game_id}", game_socket),
              *pages.routes]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Nosniff)],
                     exception_handlers={HTTPException: _http_error, Exception: _server_error})


def app_from_env() -> Starlette:
    """For ``uvicorn --factory``: the store from ``CHRONICLE_DB``, the queue limit from ``CHRONICLE_SEND_QUEUE``,
    the limits from ``CHRONICLE_MAX_FRAME_BYTES`` and the others of server/limits.py."""
    limit = int(os.environ.get("CHRONICLE_SEND_QUEUE") or SEND_QUEUE_LIMIT)
    return create_app(os.environ.get("CHRONICLE_DB") or DEFAULT_DB, send_queue_limit=limit, limits=Limits.from_env())

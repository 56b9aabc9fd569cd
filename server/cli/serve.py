"""Serve the lobby, the pages and the games over HTTP and WebSocket, with uvicorn.

The store is --db, else $CHRONICLE_DB, else ./chronicle.db: a SQLite file (created if missing),
or a PostgreSQL URL ``postgresql://user@host:port/db``, on which any number of these processes
serve the same games side by side (behind a load balancer; docs/scaling.md). A server killed
and restarted on the same store resumes every game where it stopped.
"""

from __future__ import annotations

import argparse
import os
import socket

from server.cli.status import BAD_INPUT, SUCCESS, UNAVAILABLE, CommandError
from server.limits import WS_MAX_BYTES  # above it uvicorn closes the socket (1009); below, frames.py answers

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def deflate_from_env(environ: dict | None = None) -> bool:
    """``CHRONICLE_WS_DEFLATE``: 1 (the default) negotiates permessage-deflate with a client that
    offers it (browsers do), 0 never; measured in docs/performance.md (30 % of the bytes on the
    wire, about a fifth more server CPU per command)."""
    value = (os.environ if environ is None else environ).get("CHRONICLE_WS_DEFLATE", "1").strip().lower()
    if value in ("1", "on", "true", "yes"):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"CHRONICLE_WS_DEFLATE: expected 1 or 0, got {value!r}")


def group_commit_of(args: argparse.Namespace, environ: dict | None = None) -> bool:
    """``--group-commit``/``--no-group-commit``, else ``CHRONICLE_GROUP_COMMIT`` (1 or 0), else on;
    raises ValueError for a value that is neither."""
    from server.store.common import group_commit_from_env

    chosen = getattr(args, "group_commit", None)
    return group_commit_from_env(environ) if chosen is None else chosen


def raise_file_limit() -> str:
    """The soft RLIMIT_NOFILE raised to the hard one (each open TCP connection holds a file descriptor,
    and 1,024, a common soft default, is 1,024 idle connections: docs/bounds.md, "Below the application"),
    and a line saying both and what the connections may hold (``server.httpprotocol.files_budget``)."""
    import resource

    from server.httpprotocol import files_budget

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    raised = soft
    if soft != hard and hard != resource.RLIM_INFINITY:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            raised = hard
        except (OSError, ValueError):
            pass
    shown = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    return (f"chronicle: open files: soft limit {soft} -> {raised} (hard limit {shown}); "
            f"at most {files_budget()} TCP connections at once")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"interface to listen on (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT}; 0 picks one)")
    parser.add_argument("--db", default=None,
                        help="SQLite file, sqlite:///path, or postgresql://user@host:port/db for several processes "
                             "(default: $CHRONICLE_DB, else ./chronicle.db)")
    from server.limits import SETTINGS

    for name, variable, option, what in SETTINGS:
        parser.add_argument(option, dest=name, type=int, default=None, metavar="N",
                            help=f"at most N {what} (default: ${variable}, else server/limits.py's)")
    parser.add_argument("--allowed-origins", default=None, metavar="ORIGINS",
                        help="comma-separated origins (https://tables.example.org) whose pages may open game sockets "
                             "besides this server's own (default: $CHRONICLE_ALLOWED_ORIGINS)")
    parser.add_argument("--ws-deflate", action=argparse.BooleanOptionalAction, default=None,
                        help="negotiate WebSocket permessage-deflate when a client offers it (default: "
                             "$CHRONICLE_WS_DEFLATE, else on; docs/performance.md has what it costs and saves)")
    parser.add_argument("--group-commit", action=argparse.BooleanOptionalAction, default=None,
                        help="write the appends of many games in one transaction, one fsync for all (default: "
                             "$CHRONICLE_GROUP_COMMIT, else on; docs/scaling.md, \"Group commit\")")
    parser.add_argument("--log-level", default="info", choices=("critical", "error", "warning", "info", "debug"),
                        help="uvicorn's log level (default info)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from server.app import DEFAULT_DB, allowed_origins_from_env, create_app
    from server.limits import SETTINGS, Limits
    from server.store import StoreError

    db = args.db or os.environ.get("CHRONICLE_DB") or DEFAULT_DB
    try:
        limits = Limits.from_env(**{name: getattr(args, name, None) for name, *_ in SETTINGS})
        deflate = deflate_from_env() if getattr(args, "ws_deflate", None) is None else args.ws_deflate
        group_commit = group_commit_of(args)
        from server import gcpolicy

        gcpolicy.install()  # the cyclic GC's full collections kept short (issue 16, docs/performance.md)
        from server.workers import processes_from_env, resident_kib_from_env

        processes_from_env(), resident_kib_from_env()  # a bad value is a one-line error here, not a traceback
    except ValueError as error:
        raise CommandError(str(error), BAD_INPUT) from None
    try:
        origins = None
        if getattr(args, "allowed_origins", None) is not None:
            origins = allowed_origins_from_env({"CHRONICLE_ALLOWED_ORIGINS": args.allowed_origins})
        app = create_app(db, limits=limits, allowed_origins=origins, group_commit=group_commit)
    except StoreError as error:
        raise CommandError(f"--db {db}: {error}", BAD_INPUT) from None
    # We bind the socket ourselves so that a busy port is a one-line error, not a log and an exit.
    try:
        listener = socket.create_server((args.host, args.port), reuse_port=False)
    except OSError as error:
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}", UNAVAILABLE) from None
    host, port = listener.getsockname()[:2]
    from server.store.postgres import safe_url

    print(f"chronicle: serving http://{host}:{port}/ with store {safe_url(db)}", flush=True)
    print(raise_file_limit(), flush=True)
    from server.httpprotocol import HeadBoundProtocol
    from server.wsprotocol import FrameProtocol

    # uvicorn's sans-I/O WebSocket protocol, with a broadcast's frames built once for all their sockets and
    # a socket's frames and unread pongs bounded by these limits, and its httptools HTTP protocol with a
    # request-head timeout and caps on open connections (docs/bounds.md, "Below the application")
    config = uvicorn.Config(app, log_level=args.log_level, ws_max_size=WS_MAX_BYTES, lifespan="on",
                            ws_per_message_deflate=deflate, ws=FrameProtocol.with_limits(limits),
                            http=HeadBoundProtocol.with_limits(limits))
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn shut down cleanly, then re-raised the Ctrl-C: a normal end
        pass
    return SUCCESS

"""Server tests: real uvicorn subprocesses (tests/server_fixture.py), real websockets, real SQLite."""

from __future__ import annotations

from tests.server_fixture import chronicle_server, chronicle_server_factory, server_fixture  # noqa: F401

#: One server for the tests that only need fresh games, not a fresh process.
shared_server = server_fixture("shared", scope="session")

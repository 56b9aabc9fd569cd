"""Server tests: real uvicorn subprocesses (tests/server_fixture.py), real websockets, real SQLite."""

from __future__ import annotations

import pytest

from tests.server_fixture import ServerProcess, chronicle_server, chronicle_server_factory  # noqa: F401


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory) -> ServerProcess:
    """One server for the tests that only need fresh games, not a fresh process."""
    with ServerProcess(tmp_path_factory.mktemp("shared") / "chronicle.db").start() as started:
        yield started

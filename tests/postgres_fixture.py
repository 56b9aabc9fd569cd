"""A real PostgreSQL server for tests and benches: Debian's binaries, a temp directory, a free port.

Nothing is mocked and no system service is used: ``initdb`` makes a cluster in a fresh
temporary directory and ``postgres`` serves it on 127.0.0.1 and a free port, until ``stop``.
As root, both run as the unprivileged ``postgres`` user (created if missing), since PostgreSQL
refuses to run as root: the child switches user itself (``Popen(user=…)``, like ``runuser`` but
with no process in between, so ``stop`` signals the postmaster directly). The binaries are found under
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package; ``make test`` installs it).

API::

    from tests.postgres_fixture import PostgresServer, postgres_server, postgres_database

    PostgresServer(durable=False).start() -> self    initdb + postgres, waits until it answers
        .url(dbname="postgres")                       "postgresql://postgres@127.0.0.1:PORT/dbname"
        .create_database(name) -> url                 CREATE DATABASE (if missing)
        .stop()                                       fast shutdown, then the directory is removed
    shared_server() -> PostgresServer                 one per test process, stopped at exit
    CliServer(scratch, store, env=None)               a ServerProcess running ``chronicle serve --db STORE``
                                                      (a SQLite path or a postgresql:// URL)

    pytest fixtures (import them where used):
      postgres_server      session-scoped: the shared server
      postgres_database    a function name -> url of a fresh (or, same name, the same) database

``durable=False`` (tests) turns fsync off: a test database need not survive a power cut, and a
commit costs no disk flush. Benches start it with ``durable=True``, PostgreSQL's defaults.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.server_fixture import ServerProcess, free_port, spawn_logged, wait_answering

USER = "postgres"


class PostgresMissing(RuntimeError):
    pass


def find_bin() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding initdb, or a clear error."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3].split(".")[0]))
    if not found:
        raise PostgresMissing("PostgreSQL is not installed: no /usr/lib/postgresql/*/bin/initdb. "
                              "Install Debian's package (`apt-get install -y postgresql`; `make test` does it).")
    return Path(found[-1]).parent


def _ensure_user() -> tuple[int, int] | None:
    if os.geteuid() != 0:
        return None
    try:
        entry = pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER], check=True)
        entry = pwd.getpwnam(USER)
    return entry.pw_uid, entry.pw_gid


class PostgresServer:
    def __init__(self, durable: bool = False) -> None:
        self.durable = durable
        self.port = free_port()
        self.root: Path | None = None
        self.process: subprocess.Popen | None = None

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{dbname}"

    @property
    def log_path(self) -> Path:
        assert self.root is not None
        return self.root / "postgres.log"

    def start(self, timeout: float = 30.0) -> PostgresServer:
        bindir = find_bin()
        owner = _ensure_user()
        # Not under pytest's tmp (mode 700, owned by root): the postgres user must reach it.
        self.root = Path(tempfile.mkdtemp(prefix="chronicle-pg-"))
        data, sockets = self.root / "data", self.root / "sockets"
        sockets.mkdir()
        if owner is not None:
            for path in (self.root, sockets):
                os.chown(path, *owner)
        as_user = {} if owner is None else {"user": owner[0], "group": owner[1], "extra_groups": []}
        subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", USER, "--auth=trust",
                        "--encoding=UTF8", "--locale=C", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root, **as_user)
        settings = ["-c", "listen_addresses=127.0.0.1", "-p", str(self.port), "-k", str(sockets),
                    "-c", "max_connections=200", "-c", "shared_buffers=64MB"]
        if not self.durable:
            settings += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        self.process = spawn_logged([str(bindir / "postgres"), "-D", str(data), *settings], self.log_path,
                                    cwd=self.root, **as_user)
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        import psycopg

        def answers() -> bool:
            try:
                with psycopg.connect(self.url(), connect_timeout=2):
                    return True
            except psycopg.OperationalError:
                return False

        wait_answering(self.process, "postgres", answers, timeout, 0.1, self.stop,
                       lambda: self.log_path.read_text(errors="replace"))

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as db:
            if db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                db.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(2)  # SIGINT: fast shutdown
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class CliServer(ServerProcess):
    """``chronicle serve --db STORE`` in a subprocess: the store given on the command line, any URL."""

    def __init__(self, scratch: str | os.PathLike, store: str, env: dict | None = None) -> None:
        ServerProcess.__init__(self, Path(scratch) / "unused.db", env=env, via_cli=True)
        self.store = store

    def _command(self) -> list[str]:
        return [*ServerProcess._command(self)[:-2], "--db", self.store, "--log-level", "warning"]


_shared: PostgresServer | None = None


def shared_server() -> PostgresServer:
    """One server per test process, whichever module asks first; stopped when the process exits."""
    global _shared
    if _shared is None:
        _shared = PostgresServer(durable=False).start()
        atexit.register(_shared.stop)
    return _shared


@pytest.fixture(scope="session")
def postgres_server() -> PostgresServer:
    return shared_server()


_counter = [0]


@pytest.fixture
def postgres_database(postgres_server):
    """``make(name=None) -> url``: a database per name (a fresh one when no name is given)."""

    def make(name: str | None = None) -> str:
        if name is None:
            _counter[0] += 1
            name = f"t{os.getpid()}_{_counter[0]}"
        return postgres_server.create_database(name)

    return make

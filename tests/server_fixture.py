"""One factory for a real Chronicle server: a uvicorn subprocess on a free port over a SQLite file.

Every test that needs a server gets it from here, so the store back end is chosen in one place
(STYLE habit 13). Nothing is mocked: the server is the real app in its own process, so a test
can kill it with SIGKILL and start it again on the same database.

API::

    from tests.server_fixture import ServerProcess, chronicle_server, chronicle_server_factory

    ServerProcess(db_path, *, port=None, env=None, via_cli=False)
        .start(timeout=20.0) -> self   spawn, then wait until GET /api/games answers 200
        .base_url                      "http://127.0.0.1:PORT"
        .ws_url                        "ws://127.0.0.1:PORT"  (a game's socket: f"{ws_url}/ws/{game_id}")
        .kill()                        SIGKILL (nothing flushed, nothing closed), wait for the exit
        .stop()                        SIGTERM, SIGKILL after 10 s
        .restart(timeout=20.0)         kill -9, then start again: same port, same db
        .port, .db_path, .pid, .log_path (the server's stdout and stderr), .log_text()
        with ServerProcess(...).start() as server: ...   (stops on exit)

    free_port() -> int
    get_json(url) -> (status, data);  post_json(url, data) -> (status, data)
    create_game(base_url, scenario="mecha/sample") -> the POST /api/games answer (dict)

    pytest fixtures (import them into a conftest.py to use them there):
      chronicle_server_factory   a function start(**ServerProcess kwargs) -> started ServerProcess;
                                 db_path defaults to a fresh file under tmp_path; all are stopped
                                 at teardown
      chronicle_server           one started server on a fresh database

``via_cli=True`` runs ``python -m server.cli.main serve --host 127.0.0.1 --port P --db PATH``
instead of ``python -m uvicorn --factory server.app:app_from_env``; both serve the same app.
``env`` adds environment variables (e.g. ``{"CHRONICLE_SEND_QUEUE": "8"}``). Test servers create
games and open sockets from one address far faster than a person does, so ``CHRONICLE_GAMES_PER_MINUTE``,
``CHRONICLE_OPENS_PER_MINUTE``, ``CHRONICLE_OPEN_GAMES_PER_ADDRESS`` and ``CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS``
default to ``TEST_GAMES_PER_MINUTE``, ``TEST_OPENS_PER_MINUTE``, ``TEST_OPEN_GAMES_PER_ADDRESS`` and
``TEST_TCP_CONNECTIONS_PER_ADDRESS`` (no cap) here (a test of a bound sets its own).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_GAMES_PER_MINUTE = "1000000"
TEST_OPENS_PER_MINUTE = "1000000"
TEST_OPEN_GAMES_PER_ADDRESS = "1000000"  # a session's tests create hundreds of games from 127.0.0.1
TEST_TCP_CONNECTIONS_PER_ADDRESS = "0"  # no cap: tests open thousands of sockets from 127.0.0.1


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ws_protocol(root: Path) -> list[str]:
    """uvicorn's ``--ws`` and ``--http`` for the checkout ``root``: its own protocols (``server/wsprotocol.py``,
    ``server/httpprotocol.py``, as ``chronicle serve`` runs), or none for an older checkout without them."""
    chosen = []
    if (Path(root) / "server" / "wsprotocol.py").exists():
        chosen += ["--ws", "server.wsprotocol:FrameProtocol"]
    if (Path(root) / "server" / "httpprotocol.py").exists():
        chosen += ["--http", "server.httpprotocol:HeadBoundProtocol"]
    return chosen


def _request(url: str, method: str = "GET", body: bytes | None = None, timeout: float = 10.0) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"content-type": "application/json"} if body is not None else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def get_json(url: str) -> tuple[int, Any]:
    status, body = _request(url)
    return status, json.loads(body)


def post_json(url: str, data: Any) -> tuple[int, Any]:
    status, body = _request(url, "POST", json.dumps(data).encode())
    return status, json.loads(body)


def create_game(base_url: str, scenario: Any = "mecha/sample") -> dict:
    status, data = post_json(f"{base_url}/api/games", {"scenario": scenario})
    if status != 201:
        raise AssertionError(f"POST /api/games answered {status}: {data}")
    return data


def seeded_game(server: ServerProcess, scenario: Any, seed: int, rules_version: str | None = None,
                envelopes: int = 0, undo_after: int | None = None) -> dict:
    """A game whose dice a test knows: written into the server's own SQLite store, as POST would.

    The HTTP API lets nobody choose a game's dice (CORE-1: ``seed-not-allowed``). A test that
    needs a story (an evade that fails) picks a local seed in process and stores the game with
    ``local_secret(seed)`` as its secret through the real store, beside the running server (SQLite
    in WAL mode takes a second writer); the server then plays it like any other. The answer has
    the POST's shape. ``rules_version`` stores it under an older released version of its game, as
    a game started before a rule fix was released (issue 19).

    ``envelopes`` > 0 plays random legal commands (``events.bots.random_step``, from the seed) until
    the log holds that many envelopes or the game ends, with the scenario's rounds raised to let it
    run (up to the game's bound, ``rounds_bound``): a long game in seconds, where a test playing it
    over the socket would wait minutes (the browser's 10,000-event catch-up, issue 16). A game that
    ended is stored as over, as the server would have. ``undo_after``: see ``random_table``.
    """
    import events.games
    from events.dice import local_secret
    from server import scenarios
    from server.room import now
    from server.store import GameMeta
    from server.tokens import new_game_id, new_token, token_hash

    name, data = scenarios.load(scenario) if isinstance(scenario, str) else (scenario["game"], scenario)
    game = events.games.load(name, rules_version)
    game_id, secret = new_game_id(), local_secret(seed)
    created = now()  # as a POST: listed newest first, its seats' clocks start now
    table = random_table(game, game_id, data, secret, seed, envelopes, created, undo_after=undo_after)
    tokens = {seat: new_token() for seat in game.seats(table.state)}
    meta = GameMeta(game_id, name, str(data.get("title") or game_id), tuple(tokens),
                    {seat: token_hash(token) for seat, token in tokens.items()}, created)

    store_log(server.db_path, meta, table.envelopes, over=bool(game.is_over(table.state)), secret=secret)
    return {"game": game_id,
            "seats": {seat: {"token": token, "link": f"/play/{game_id}#token={token}"} for seat, token in tokens.items()},
            "spectate": f"/watch/{game_id}", "replay": f"/replay/{game_id}"}


def random_table(game: Any, game_id: str, data: dict, secret: str, seed: int, envelopes: int, at: str, *,
                 undo_after: int | None = None, move_at: int | None = None) -> Any:
    """A Table of ``game`` from the scenario ``data``, played by random legal commands
    (``events.bots.random_step``, from ``seed``) until it holds ``envelopes`` envelopes or the game
    ends, the scenario's rounds raised to let it run (up to the game's bound, ``rounds_bound``).
    With ``undo_after``, the last command is taken back (``take_back``, CORE-4) once that many
    commands were played; with ``move_at``, the game moves to its newest rules version (CORE-3)
    once it holds that many envelopes."""
    from events.bots import random_step
    from events.log import Accepted, Table
    from events.rng import Rng

    if envelopes and "rounds" in data:
        data = dict(data, rounds=min(rounds_bound(game.name), max(data["rounds"], envelopes)))
    table = Table.create(game, game_id, data, secret, at=at)
    picker = Rng(seed)
    while table.seq < envelopes and not table.game.is_over(table.state):
        if move_at is not None and table.seq >= move_at and table.game.successor is not None:
            table.move_to(table.game.newest().rules_version, at=at)
            continue
        step = random_step(table.game, table.state, picker)
        if step is None:
            break
        result = table.submit(step[0], step[1], f"c-{table.seq + 1}", at=at)
        if not isinstance(result, Accepted):
            raise AssertionError(f"a random legal command was refused: {result}")
        if undo_after is not None and len(table.by_command) == undo_after:
            take_back(table)
    return table


def take_back(table: Any) -> None:
    """The last command taken back by its seat (AskUndo, CORE-4), every seat it needs saying yes (CORE-6)."""
    from events.undo import AnswerUndo, AskUndo, UndoApplied

    last = table.envelopes[-1]
    back_to = min(envelope.seq for envelope in table.envelopes if envelope.command_id == last.command_id)
    asked = table.submit(last.seat, AskUndo(back_to), "c-undo").logged[0]
    for seat in getattr(asked.event, "needs", ()):
        if isinstance(table.envelopes[-1].event, UndoApplied):
            break
        table.submit(seat, AnswerUndo(asked.seq, True), f"c-yes-{seat}")
    if not isinstance(table.envelopes[-1].event, UndoApplied):
        raise AssertionError(f"the undo back to seq {back_to} was not applied")


def rounds_bound(name: str) -> int:
    """The most rounds a scenario of game ``name`` may ask: its ``BOUNDS["rounds"]`` (gloomhaven's 99
    is checked where its ``load_scenario`` reads it; 10,000 for a game without a bound)."""
    import importlib

    if name == "gloomhaven":
        return 99
    return importlib.import_module(f"events.games.{name}.board").BOUNDS.get("rounds", 10_000)


def store_log(db_path: str | os.PathLike, meta: Any, envelopes: list, *, over: bool = False,
              secret: str | None = None) -> None:
    """Write a game (its ``GameMeta`` and envelopes) into the SQLite store at ``db_path``, as the
    server would have; a running server beside it reads it like any other (WAL takes a second writer)."""
    from server import frames
    from server.store import Stored
    from server.store.sqlite import SqliteStore

    async def write() -> None:
        store = SqliteStore(db_path)
        await store.open()
        try:
            await store.create_game(meta, [Stored(e.seq, e.command_id, frames.encode_envelope(e)) for e in envelopes],
                                    over=over, secret=secret)
        finally:
            await store.close()

    _run_apart(write)


def stored_secrets(store: str | os.PathLike, game_ids: list) -> dict:
    """The games' secrets (CORE-1) as the store holds them: a SQLite path or a postgresql:// URL.

    Only a test (or an operator) that can read the server's store has them before the reveal:
    it lets a crash test audit every die of a running game (``events.log.audit(..., secret)``).
    """
    from server.store import store_for

    async def read() -> dict:
        opened = store_for(str(store))
        await opened.open()
        try:
            return {game_id: await opened.secret(game_id) for game_id in game_ids}
        finally:
            await opened.close()

    return _run_apart(read)


def _run_apart(coroutine_function: Any) -> Any:
    """Run a coroutine to its end in a thread of its own (the caller may be inside an event loop)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(lambda: asyncio.run(coroutine_function())).result()


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (``/proc/<pid>/task/*/children``): a server's worker
    process and its forkserver (server/workers.py); [] for a process that is gone."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(item) for item in (task / "children").read_text().split()]
        except (OSError, ValueError):
            pass
    return found + [grandchild for child in found for grandchild in descendants(child)]


def cpu_ns(pid: int) -> int:
    """The CPU ``pid`` spent so far, ns, over its threads (``/proc/<pid>/task/*/schedstat``); 0 once it is gone."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return 0
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, IndexError, ValueError):
            pass
    return total


def spawn_logged(command: list, log_path: Path, **options: Any) -> subprocess.Popen:
    """Start ``command`` with no stdin and its stdout and stderr appended to ``log_path``
    (``options`` go to ``Popen``): a server here, PostgreSQL in ``tests/postgres_fixture.py``."""
    log = open(log_path, "ab")
    try:
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, **options)
    finally:
        log.close()


def wait_answering(process: subprocess.Popen, what: str, answers: Any, timeout: float, pause: float,
                   give_up: Any, log_text: Any) -> None:
    """Wait until ``answers()`` is true, checking every ``pause`` s that ``process`` still runs; past
    ``timeout`` s, ``give_up()`` (stop it) and raise. Either failure quotes the end of ``log_text()``."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with status {process.returncode}:\n{log_text()[-3000:]}")
        if answers():
            return
        if time.monotonic() > deadline:
            tail = log_text()[-3000:]  # before give_up, which may remove the log (PostgreSQL's directory)
            give_up()
            raise RuntimeError(f"{what} did not answer within {timeout} s:\n{tail}")
        time.sleep(pause)


class ServerProcess:
    """A real server in a subprocess; see the module docstring."""

    def __init__(self, db_path: str | os.PathLike, *, port: int | None = None, env: dict | None = None,
                 via_cli: bool = False) -> None:
        self.db_path = Path(db_path)
        self.port = port or free_port()
        self.env = dict(env or {})
        self.via_cli = via_cli
        self.log_path = self.db_path.with_name(self.db_path.name + f".{self.port}.log")
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def _command(self) -> list[str]:
        if self.via_cli:
            return [sys.executable, "-m", "server.cli.main", "serve", "--host", "127.0.0.1",
                    "--port", str(self.port), "--db", str(self.db_path)]
        return [sys.executable, "-m", "uvicorn", "--factory", "server.app:app_from_env", "--host", "127.0.0.1",
                "--port", str(self.port), "--log-level", "warning", "--no-access-log",
                "--ws-max-size", str(64 * 1024), *ws_protocol(ROOT)]  # as chronicle serve (server/limits.py WS_MAX_BYTES)

    def start(self, timeout: float = 20.0) -> ServerProcess:
        if self.process is not None and self.process.poll() is None:
            raise RuntimeError(f"the server on port {self.port} is already running (pid {self.pid})")
        env = dict(os.environ, CHRONICLE_DB=str(self.db_path), PYTHONPATH=str(ROOT),
                   CHRONICLE_GAMES_PER_MINUTE=TEST_GAMES_PER_MINUTE, CHRONICLE_OPENS_PER_MINUTE=TEST_OPENS_PER_MINUTE,
                   CHRONICLE_OPEN_GAMES_PER_ADDRESS=TEST_OPEN_GAMES_PER_ADDRESS,
                   CHRONICLE_TCP_CONNECTIONS_PER_ADDRESS=TEST_TCP_CONNECTIONS_PER_ADDRESS)
        env.update(self.env)
        self.process = spawn_logged(self._command(), self.log_path, cwd=ROOT, env=env)
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        def answers() -> bool:
            try:
                return _request(f"{self.base_url}/api/games", timeout=1.0)[0] == 200
            except (OSError, urllib.error.URLError):
                return False

        wait_answering(self.process, "the server", answers, timeout, 0.05, self.kill, self.log_text)

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to flush or close anything."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def restart(self, timeout: float = 20.0) -> ServerProcess:
        self.kill()
        return self.start(timeout)

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def chronicle_server_factory(tmp_path):
    started: list[ServerProcess] = []

    def start(db_path: str | os.PathLike | None = None, **kwargs: Any) -> ServerProcess:
        path = db_path or tmp_path / f"chronicle-{len(started)}.db"
        server = ServerProcess(path, **kwargs)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
def chronicle_server(chronicle_server_factory) -> ServerProcess:
    return chronicle_server_factory()


def server_fixture(name: str, env: dict | None = None, scope: str = "module"):
    """A fixture (named by the variable it is assigned to) that starts one server of its own for
    ``scope``: its own SQLite file in a ``name`` folder, ``env`` the bounds its tests reach."""

    @pytest.fixture(scope=scope)
    def started(tmp_path_factory):
        with ServerProcess(tmp_path_factory.mktemp(name) / "chronicle.db", env=env).start() as server:
            yield server

    return started

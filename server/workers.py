"""Whole-log work in a worker process, so that no stranger's request slows the games (issue 16, Trust).

``GET /api/games/{id}/audit``, ``GET .../rules``, the audit of ``POST /api/games/import`` and a
``GET .../state?seq=N`` folded from seq 1 (a log holding an undo, CORE-4) re-decide or refold a
whole log: up to seconds of CPU. In a thread of the server they shared its interpreter lock and
its cyclic collector with the event loop, so while one ran every game's commands waited tens of ms
for their turns (docs/performance.md, "Whole-log work in a worker process"). Here they run in
**one worker process** (``concurrent.futures.ProcessPoolExecutor`` of one, started by a
``forkserver`` where the platform has one, else ``spawn``: never ``fork`` from a process running
an event loop and threads), behind the same gates as before (``server.audits.gate``, the /state
fold gate), so the bound stays one at a time.

* Only plain data crosses: the game's id, its rule system's name, whether it is over, the stored
  envelopes' JSON text (or an import's body bytes); the child looks the rule system up itself and
  sends back the route's answer (a dict, or a /state's body bytes), never a live record. A refusal
  raised in the child (``ImportProblem``, ``LogError``, ``DecodeError``, ``KeyError``) comes back as
  data and is raised again here as the same exception (``_outcome``), so every answer's code and
  body are what they were in the thread.
* ``Worker.start`` (the app's lifespan, ``server/app.py``) makes the pool and waits for the child
  to answer a first job: it has imported every rule system (the forkserver preloads them, so a
  replacement is a fork, not an import), and the first request does not pay for it.
  ``Worker.close`` (the lifespan's end) stops it. The child also leaves by itself when the
  server's process is gone (``_watch``: its parent changed), so a server killed with SIGKILL
  leaves no process behind.
* A child that dies (killed, out of memory, a crash on a hostile log) breaks the pool: the request
  it was working for raises ``WorkerLost`` (503 ``worker-lost``, docs/protocol.md), the pool is
  replaced at once, and the next request is served by the new child. A pool whose child is found
  dead before a job is handed to it (it died idle: ``_died``, or the pool already says it is broken)
  is replaced and the job given to the new one.
* Memory: the child's peak resident size comes back with every answer; past ``MAX_RESIDENT_MIB``
  (``CHRONICLE_WORKER_RESIDENT_MIB``) the pool is replaced after that answer (docs/bounds.md). CPython 3.11's ``max_tasks_per_child``
  hangs with work queued behind the last task, so the bound is kept here.
* The child runs at ``NICE`` 10: where the cores are contended the kernel serves the server's loop first.
* ``CHRONICLE_WORKER_PROCESS=0`` runs the same jobs in a worker thread of the server, as before
  (for a platform without processes to spare); the default is the process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from server.switches import switch_from_env

VARIABLE = "CHRONICLE_WORKER_PROCESS"
RESIDENT_VARIABLE = "CHRONICLE_WORKER_RESIDENT_MIB"
MAX_RESIDENT_MIB = 256  # the child's peak resident size past which it is replaced (docs/bounds.md)
WATCH_EVERY_S = 1.0  # how often the child checks that the server's process is still there
NICE = 10  # the child's scheduling priority below the server's: on busy cores the kernel serves the loop first
log = logging.getLogger("chronicle.workers")


class WorkerLost(Exception):
    """The worker process stopped (killed, out of memory, a crash) while it held this request's job."""

    code = "worker-lost"


def processes_from_env(environ: Mapping[str, str] | None = None) -> bool:
    """``CHRONICLE_WORKER_PROCESS``: 1 (the default) works in a worker process, 0 in a thread of the server."""
    return switch_from_env(VARIABLE, environ)


def resident_kib_from_env(environ: Mapping[str, str] | None = None) -> int:
    """``CHRONICLE_WORKER_RESIDENT_MIB`` (default ``MAX_RESIDENT_MIB``), in KiB: a whole number of MiB, at least 1."""
    raw = (os.environ if environ is None else environ).get(RESIDENT_VARIABLE, "").strip()
    if not raw:
        return MAX_RESIDENT_MIB * 1024
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 1 << 20:
        raise ValueError(f"{RESIDENT_VARIABLE}: expected a whole number of MiB from 1 to {1 << 20}, got {raw[:40]!r}")
    return int(raw) * 1024


def _context() -> Any:
    """``forkserver`` where the platform has it (a replacement is a fork of a warm process), else ``spawn``."""
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        import events.games

        context.set_forkserver_preload(["server.workers", "server.audits", "server.rulescheck", "server.importlog",
                                        "server.snapshots",
                                        *(f"events.games.{name}" for name in events.games.NAMES)])
    return context


class Worker:
    """One worker process (or, with ``processes`` false, worker threads) for whole-log jobs."""

    __slots__ = ("processes", "pool", "pid", "peak_kib", "replaced", "context", "metrics", "max_resident_kib")

    def __init__(self, processes: bool = True, metrics: Any = None, max_resident_kib: int = MAX_RESIDENT_MIB * 1024) -> None:
        self.processes = processes
        self.max_resident_kib = max_resident_kib
        self.metrics = metrics  # server.metrics.Metrics: the worker's pid and its replacements
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        self.pid = 0
        self.peak_kib = 0
        self.replaced: dict[str, int] = {"lost": 0, "resident": 0}
        self.context = None
        self._worked_in(os.getpid())  # the process doing the work: the child's once it has answered

    def _worked_in(self, pid: int) -> None:
        self.pid = pid
        if self.metrics is not None:
            self.metrics.worker_pid.set(pid)

    async def start(self) -> None:
        """Make the pool and wait for its child's first answer (its imports done: the first request pays none).
        A platform that cannot start it works in threads, and says so in the log."""
        if not self.processes:
            return
        try:
            self.context = self.context or _context()
            self._new_pool()
            await self.run(_ready)
        except (OSError, BrokenProcessPool, WorkerLost) as error:
            log.warning("no worker process (%s: %s): whole-log work runs in threads", type(error).__name__, error)
            self.close()
            self.processes = False
            self._worked_in(os.getpid())

    def _new_pool(self) -> None:
        self.pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=self.context, initializer=_started,
                                                           initargs=(os.getpid(),))

    def _replace(self, broken: Any, reason: str) -> None:
        """A new pool for the next job (once per broken pool, however many of its jobs fail); the old one
        ends its queued work, if it can, and then its child."""
        if self.pool is not broken:
            return
        self.replaced[reason] += 1
        if self.metrics is not None:
            self.metrics.worker_replaced.labels(reason).inc()
        self._new_pool()
        broken.shutdown(wait=False, cancel_futures=False)

    async def run(self, job: Callable[..., Any], *args: Any) -> Any:
        """``job(*args)`` in the child (or a thread), its answer or its refusal raised again here."""
        if not self.processes or self.pool is None:
            outcome = await asyncio.to_thread(_call, job, args)
        else:
            pool = self.pool
            if _died(pool):  # killed while idle, and the pool's own thread has not seen it yet
                self._replace(pool, "lost")
                pool = self.pool
            try:
                try:
                    future = pool.submit(_call, job, args)
                except BrokenProcessPool:  # the child died idle: this job never reached it, the next child takes it
                    self._replace(pool, "lost")
                    pool = self.pool
                    future = pool.submit(_call, job, args)
                outcome = await asyncio.wrap_future(future)
            except BrokenProcessPool:
                self._replace(pool, "lost")
                raise WorkerLost("the process working out this request stopped before it was done (killed, or out "
                                 "of memory); it was replaced: try again") from None
            if outcome[1] > self.max_resident_kib:
                self._replace(pool, "resident")
        self._worked_in(outcome[0])
        self.peak_kib = outcome[1]
        return _outcome(outcome[2], outcome[3])

    def close(self) -> None:
        """Stop the child now (a job it works on is abandoned: the server is stopping)."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        children = list((getattr(pool, "_processes", None) or {}).values())  # no public way to name them
        pool.shutdown(wait=False, cancel_futures=True)
        for process in children:
            process.terminate()
        deadline = time.monotonic() + 5
        for process in children:
            process.join(max(0.0, deadline - time.monotonic()))


def _died(pool: concurrent.futures.ProcessPoolExecutor) -> bool:
    """Whether a child of ``pool`` has ended: a job handed to it would be lost, where a new child takes it.
    Its exit code comes through the forkserver once it has reaped the child; before that, on Linux, the
    kernel already shows it a zombie (or gone) in ``/proc``. The pool names its children only in a private
    attribute (as ``Worker.close`` reads it); without it, the pool's own check stands."""
    return any(process.exitcode is not None or _ended(process.pid)
               for process in (getattr(pool, "_processes", None) or {}).values())


def _ended(pid: int | None) -> bool:
    """A zombie or no process at all in ``/proc`` (Linux); False where there is no ``/proc`` to ask."""
    if pid is None or not os.path.isdir("/proc/self"):
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def worker_of(state: Any) -> Worker:
    """The app's Worker (made by the lifespan); an app run without its lifespan works in threads."""
    found = getattr(state, "worker", None)
    if found is None:
        found = state.worker = Worker(processes=False)
    return found


# --- in the child --------------------------------------------------------------------------------------


def _started(server_pid: int) -> None:
    """The child's initializer: Ctrl-C is the server's to handle, its work yields the cores to the server's
    (``NICE``), and the child leaves when the server has gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICE)
    except (AttributeError, OSError):  # no nice on this platform: the same priority as the server
        pass
    parent = os.getppid()
    threading.Thread(target=_watch, args=(parent, server_pid), daemon=True, name="chronicle-watch").start()


def _watch(parent: int, server_pid: int) -> None:
    """Exit once the parent (the server, or the forkserver the server started) is gone."""
    while True:
        time.sleep(WATCH_EVERY_S)
        if os.getppid() != parent or not _alive(server_pid):
            os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process of that pid: alive as far as we can tell
        return True
    return True


def _ready() -> str:
    import events.games

    for name in events.games.NAMES:
        events.games.load(name)
    return "ready"


def _peak_kib() -> int:
    try:
        import resource
    except ImportError:  # no resource module (Windows): no bound on the child's size
        return 0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def _call(job: Callable[..., Any], args: tuple) -> tuple:
    """``job(*args)`` as data: (pid, peak KiB, "done", answer) or (pid, peak KiB, kind, what to raise again)."""
    from events.log import LogError
    from events.record import DecodeError
    from server.importlog import ImportProblem

    try:
        answer: tuple = ("done", job(*args))
    except ImportProblem as error:
        answer = ("ImportProblem", (error.status, error.code, error.message, error.seq, error.clause))
    except LogError as error:
        answer = ("LogError", (str(error), error.rule))
    except DecodeError as error:
        answer = ("DecodeError", (str(error),))
    except KeyError as error:
        answer = ("KeyError", error.args)
    except Exception as error:  # a bug: raised again as it was if it pickles, else by its name
        log.exception("a whole-log job (%s) failed", getattr(job, "__name__", job))  # its traceback, here
        try:
            answer = ("raised", pickle.loads(pickle.dumps(error)))
        except Exception:
            answer = ("raised", RuntimeError(f"{type(error).__name__}: {error}"))
    return os.getpid(), _peak_kib(), *answer


def _outcome(kind: str, payload: Any) -> Any:
    from events.log import LogError
    from events.record import DecodeError
    from server.importlog import ImportProblem

    if kind == "done":
        return payload
    if kind == "ImportProblem":
        raise ImportProblem(*payload)
    if kind == "LogError":
        raise LogError(*payload)
    if kind == "DecodeError":
        raise DecodeError(*payload)
    if kind == "KeyError":
        raise KeyError(*payload)
    raise payload

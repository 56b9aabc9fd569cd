"""Whole-log work in a worker process (server/workers.py, issue 16 "Trust"), on a real server.

``/audit``, ``/rules``, the import's audit and ``/state`` folded from seq 1 (CORE-4) run in one
child process of the server. That it is another process is told by its pid (``/metrics``'
``chronicle_worker_pid``) and by an ordering: stopped with SIGSTOP in the middle of an audit, the
child holds nothing of the server's, so ``/healthz`` answers while the audit waits. Killed there,
the audit is answered 503 ``worker-lost``, the child is replaced, and the next audit is served.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.server.test_read_routes import counted
from tests.server_fixture import ServerProcess, _request, cpu_ns, descendants, seeded_game, server_fixture

workers_server = server_fixture("workers")
threads_server = server_fixture("worker-threads", {"CHRONICLE_WORKER_PROCESS": "0"})
small_worker_server = server_fixture("worker-small", {"CHRONICLE_WORKER_RESIDENT_MIB": "1"})
LONG = 10_000  # envelopes: audited in ~0.3 s by the child (2 cores, 2026-12-02)
UNDER_WAY_NS = 60_000_000  # the child's CPU on the audit before it is stopped


def worker_pid(server) -> int:
    """The pid ``/metrics`` names for the worker, checked to be one of the server's child processes
    (never 0 nor the server itself: a signal is sent to it)."""
    pid = int(counted(server, "chronicle_worker_pid"))
    assert pid > 1 and pid in descendants(server.pid), f"the worker's pid {pid} is no child of the server {server.pid}"
    return pid


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie waiting to be reaped has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def ask(server, path: str) -> tuple[int, dict, str | None]:
    try:
        with urllib.request.urlopen(f"{server.base_url}{path}", timeout=60) as response:
            return response.status, json.loads(response.read()), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


def test_core_2_the_audit_works_in_another_process_which_stopped_or_killed_holds_no_game_back(workers_server):
    """An audit's re-decide (CORE-2) runs in the server's child: stopped mid-audit, the loop still
    answers; killed there, the audit is 503 worker-lost, a new child takes the next one."""
    game_id = seeded_game(workers_server, "mecha/sample", 11, envelopes=LONG, undo_after=5)["game"]
    child = worker_pid(workers_server)
    lost = counted(workers_server, "chronicle_worker_replaced_total", reason="lost")
    answers: list = []
    audit = threading.Thread(target=lambda: answers.append(ask(workers_server, f"/api/games/{game_id}/audit")))
    began = cpu_ns(child)
    audit.start()
    while cpu_ns(child) - began < UNDER_WAY_NS and audit.is_alive():
        time.sleep(0.002)
    os.kill(child, signal.SIGSTOP)
    try:
        assert not answers, "the audit was done before the child was stopped: make the game longer"
        # Check: the loop answers while the child that holds the audit is stopped (an ordering).
        assert _request(f"{workers_server.base_url}/healthz", timeout=10)[0] == 200
        assert audit.is_alive() and not answers
    finally:
        os.kill(child, signal.SIGKILL)
    audit.join(30)
    status, body, retry = answers[0]
    assert (status, body["code"], retry) == (503, "worker-lost", "1") and "try again" in body["message"], answers
    assert counted(workers_server, "chronicle_worker_replaced_total", reason="lost") == lost + 1
    # Check: the next audit is served by a new child, and the failure was not kept as the answer.
    status, body, _ = ask(workers_server, f"/api/games/{game_id}/audit")
    with urllib.request.urlopen(f"{workers_server.base_url}/api/games/{game_id}/log", timeout=60) as response:
        logged = len(response.read().splitlines())  # at least LONG: the last command may log more than one event
    assert logged >= LONG
    assert status == 200 and body["events"] == logged and body["divergence"] is None, body
    assert worker_pid(workers_server) not in (child, workers_server.pid)


def test_a_child_killed_while_idle_is_replaced_before_the_next_request(workers_server):
    """A child that died between requests costs nobody an error: the next request finds it gone
    and is handed to a new one (CORE-4: a /state folded from seq 1 of a log with an undo). The
    forkserver is stopped meanwhile, so that it cannot reap the child and tell the pool: the server
    must see the death itself (``workers._died``), or the job goes to the dead child (worker-lost)."""
    game_id = seeded_game(workers_server, "mecha/sample", 12, envelopes=2_000, undo_after=5)["game"]
    child = worker_pid(workers_server)
    forkserver = int(Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[1])
    assert forkserver in descendants(workers_server.pid) and forkserver != workers_server.pid
    answers: list = []
    os.kill(forkserver, signal.SIGSTOP)
    try:
        os.kill(child, signal.SIGKILL)
        while running(child):  # a zombie nobody reaps
            time.sleep(0.001)
        asking = threading.Thread(target=lambda: answers.append(
            ask(workers_server, f"/api/games/{game_id}/state?seq=1999")))
        asking.start()
        time.sleep(0.3)  # the job is handed over (to a new pool, whose child waits for the forkserver)
    finally:
        os.kill(forkserver, signal.SIGCONT)
    asking.join(30)
    status, body, _ = answers[0]
    assert status == 200 and body["seq"] == 1999, body
    assert worker_pid(workers_server) not in (child, workers_server.pid)


def test_no_process_is_left_when_the_server_stops_or_is_killed(tmp_path):
    """Stopped (SIGTERM: the lifespan's end) or killed (SIGKILL: nothing runs), the server leaves no
    child behind: the worker, the forkserver and multiprocessing's resource tracker all end."""
    for end in ("stop", "kill"):
        server = ServerProcess(tmp_path / f"{end}.db").start()
        try:
            started = descendants(server.pid)
            assert worker_pid(server) in started, started  # warm: the child answered before any request
        finally:
            getattr(server, end)()
        deadline = time.monotonic() + 10
        while any(running(pid) for pid in started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in started if running(pid)], f"{end}: left running of {started}"


def test_a_worker_past_its_resident_bound_is_replaced_after_its_answer(small_worker_server):
    """CHRONICLE_WORKER_RESIDENT_MIB: a child whose peak resident size passed the bound is replaced
    once it has answered, and the answers are the same (CORE-3: /rules re-decides the whole log)."""
    game_id = seeded_game(small_worker_server, "mecha/sample", 13, envelopes=600)["game"]
    replaced = counted(small_worker_server, "chronicle_worker_replaced_total", reason="resident")
    status, body, _ = ask(small_worker_server, f"/api/games/{game_id}/rules")
    first = counted(small_worker_server, "chronicle_worker_pid")  # replaced since: no child of the server now
    assert status == 200 and body["unchanged"] is True, body
    assert counted(small_worker_server, "chronicle_worker_replaced_total", reason="resident") == replaced + 1
    status, body, _ = ask(small_worker_server, f"/api/games/{game_id}/audit")
    assert status == 200 and body["events"] >= 600 and body["divergence"] is None, body
    assert counted(small_worker_server, "chronicle_worker_pid") not in (first, small_worker_server.pid)


def test_core_4_with_worker_process_0_the_work_stays_in_the_server_s_threads(threads_server):
    """CHRONICLE_WORKER_PROCESS=0: no child; /state of a log with an undo (CORE-4) and /audit are served
    from the server's own process, the same answers."""
    game_id = seeded_game(threads_server, "mecha/sample", 11, envelopes=1_000, undo_after=5)["game"]
    assert descendants(threads_server.pid) == []
    status, body, _ = ask(threads_server, f"/api/games/{game_id}/state?seq=999")
    assert status == 200 and body["seq"] == 999
    status, body, _ = ask(threads_server, f"/api/games/{game_id}/audit")
    assert status == 200 and body["events"] >= 1_000 and body["divergence"] is None
    assert counted(threads_server, "chronicle_worker_pid") == threads_server.pid
    assert descendants(threads_server.pid) == []


def napping(seconds: float) -> str:
    """A job for the child (it imports this module by name): it works ``seconds``."""
    time.sleep(seconds)
    return "done"


def test_a_cancelled_request_keeps_the_gate_until_its_child_is_done():
    """A request cancelled while its job works in the child cannot stop the child: the gate stays held
    until the child is done with it, so never more than AUDITS_AT_ONCE jobs are handed over at once."""
    from types import SimpleNamespace

    from server.audits import gate, in_worker
    from server.workers import Worker

    async def main():
        state = SimpleNamespace(worker=Worker())
        await state.worker.start()
        try:
            first = asyncio.ensure_future(in_worker(state, "audit", napping, 0.6))
            await asyncio.sleep(0.2)  # the child is working on it
            first.cancel()
            await asyncio.sleep(0.05)
            held = gate(state).locked()
            second = await in_worker(state, "audit", napping, 0.0)
            return first.cancelled(), held, second, gate(state).locked()
        finally:
            state.worker.close()

    assert asyncio.run(main()) == (True, True, "done", False)

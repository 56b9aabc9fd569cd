"""No read route may freeze the event loop or be repeated at full cost (issue 16, Trust), on a real server.

``GET .../rules`` re-decides a whole log, ``GET .../state?seq=N`` of a log with an undo (CORE-4)
folds it from seq 1, ``POST /api/games/import`` audits a whole posted log: each of them in a
worker thread behind a gate (docs/bounds.md, "Reads that re-decide or refold a whole log").

That work ran off the event loop is told by an ordering, not a duration: the slow request is
sent, and once the server has spent ``UNDER_WAY_NS`` of CPU on it (``/proc``: well past its
store reads, inside the long computation, which takes twice that or more), ``/healthz`` is asked
on another connection. Served from the loop, the slow request answers first (the loop is busy
until it is done); served from a thread, ``/healthz`` does. Counting is read from ``/metrics``.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bench.costs import finished_log as longest_finished_log
from bench.costs import long_game, scenario_of
from tests.server.test_import import body_of, finished_log, post
from tests.server_fixture import _request, get_json, server_fixture

LONG = 30_000  # envelopes of the game with an undo: folded in ~0.6 s, re-decided in ~0.8 s (2 cores, 2026-12-02)
UNDO_AT = LONG - 1_000  # its undo, late: the snapshots before it make the code before the change read little first
UNDER_WAY_NS = 300_000_000  # server CPU spent on the slow request before /healthz is asked

readroutes_server = server_fixture("readroutes")


def game_with_undo(server, envelopes: int, undo_at: int, seed: int):
    """A mecha game of ``envelopes`` envelopes whose last command at ``undo_at`` is taken back (CORE-4),
    stored beside the running server; its Table (the envelopes as logged)."""
    import events.games
    from events.bots import random_step
    from events.dice import local_secret
    from events.log import Table
    from events.rng import Rng
    from server.room import now
    from server.store import GameMeta
    from server.tokens import new_game_id
    from tests.server_fixture import store_log, take_back

    game = events.games.load("mecha")
    data = dict(scenario_of("mecha", "sample"), rounds=10_000)
    table = Table.create(game, new_game_id(), data, local_secret(seed), at=now())
    picker = Rng(seed)
    while table.seq < envelopes:
        table.submit(*random_step(game, table.state, picker), f"c-{table.seq + 1}", at=now())
        if table.seq >= undo_at and not any(e.type == "UndoApplied" for e in table.envelopes[undo_at - 1:]):
            take_back(table)
    meta = GameMeta(table.game_id, "mecha", "an undo", tuple(game.seats(table.state)), {}, now())
    store_log(server.db_path, meta, table.envelopes)
    return table


@pytest.fixture(scope="module")
def undo_game(readroutes_server) -> str:
    """A 30,000-envelope mecha game with one command taken back near its end, read once before the
    undo (so its snapshots up to there are written, as a game's Room would have); its id."""
    game_id = game_with_undo(readroutes_server, LONG, UNDO_AT, 11).game_id
    assert get_json(f"{readroutes_server.base_url}/api/games/{game_id}/state?seq={UNDO_AT - 1}")[0] == 200
    return game_id


def server_cpu(pid: int) -> int:
    """The server's CPU so far, ns, over all its threads (``/proc/<pid>/task/*/schedstat``) and those of
    the processes it started (its worker process, server/workers.py, does the whole-log work)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            total += int((task / "schedstat").read_text().split()[0])
            total += sum(server_cpu(int(child)) for child in (task / "children").read_text().split())
        except (OSError, ValueError, IndexError):  # a thread or a process that ended meanwhile
            pass
    return total


def answered_first(server, slow: str) -> list:
    """The order in which ``slow`` and ``/healthz`` (asked once ``slow`` is well under way) answered."""
    order, statuses = [], {}

    def ask(path: str, name: str) -> None:
        statuses[name] = _request(f"{server.base_url}{path}", timeout=120)[0]
        order.append(name)

    began = server_cpu(server.pid)
    thread = threading.Thread(target=ask, args=(slow, "slow"))
    thread.start()
    while server_cpu(server.pid) - began < UNDER_WAY_NS and thread.is_alive():
        time.sleep(0.002)
    assert not order, f"{slow} answered before the server spent {UNDER_WAY_NS // 10**6} ms on it: make it slower"
    ask("/healthz", "healthz")
    thread.join(120)
    assert statuses == {"slow": 200, "healthz": 200}, statuses
    return order


def counted(server, name: str, **labels: str) -> float:
    """A counter of ``/metrics`` (0 when it has not been counted yet)."""
    with urllib.request.urlopen(f"{server.base_url}/metrics", timeout=10) as response:
        text = response.read().decode()
    spelled = ",".join(f'{key}="{value}"' for key, value in labels.items())
    found = re.search(rf"^{name}{{{re.escape(spelled)}}} ([0-9.e+]+)$" if labels else rf"^{name} ([0-9.e+]+)$",
                      text, re.M)
    return float(found.group(1)) if found else 0.0


# --- GET /api/games/{id}/rules ----------------------------------------------------------------------


def test_core_3_rules_re_decides_off_the_event_loop(readroutes_server, undo_game):
    """GET .../rules re-decides the whole log (CORE-3) in a thread: /healthz answers meanwhile."""
    assert answered_first(readroutes_server, f"/api/games/{undo_game}/rules") == ["healthz", "slow"]


def test_core_3_rules_asked_again_and_at_once_is_decided_once(readroutes_server):
    """Three strangers asking GET .../rules of one (game, head) at once cost one re-decide (CORE-3), and
    the same answer; asked again, it is the kept answer."""
    game_id = long_game(readroutes_server, "mecha", scenario_of("mecha", "sample"), 12, 10_000)
    before = counted(readroutes_server, "chronicle_audits_total", route="rules")
    answers = []

    def ask() -> None:
        answers.append(get_json(f"{readroutes_server.base_url}/api/games/{game_id}/rules"))

    first = threading.Thread(target=ask)
    first.start()
    # Check the others ask while the first is being decided (its re-decide has begun, not ended).
    while counted(readroutes_server, "chronicle_audits_total", route="rules") == before and first.is_alive():
        time.sleep(0.002)
    assert not answers, "the first answer came before the others were asked: make the game longer"
    others = [threading.Thread(target=ask) for _ in range(2)]
    for thread in others:
        thread.start()
    for thread in [first, *others]:
        thread.join(60)
    assert len(answers) == 3 and all(answer == answers[0] for answer in answers), answers
    assert answers[0][0] == 200 and answers[0][1]["unchanged"] is True, answers[0]
    assert counted(readroutes_server, "chronicle_audits_total", route="rules") == before + 1
    assert get_json(f"{readroutes_server.base_url}/api/games/{game_id}/rules") == answers[0]
    assert counted(readroutes_server, "chronicle_audits_total", route="rules") == before + 1


# --- GET /api/games/{id}/state?seq=N of a log with an undo -------------------------------------------


def test_core_4_state_of_a_log_with_an_undo_folds_off_the_event_loop(readroutes_server, undo_game):
    """GET .../state?seq=N of a log holding an undo (CORE-4) folds from seq 1 in a thread: /healthz meanwhile."""
    assert answered_first(readroutes_server, f"/api/games/{undo_game}/state?seq={LONG - 1}") == ["healthz", "slow"]


def test_core_4_state_of_a_log_with_an_undo_asked_again_folds_nothing(readroutes_server, undo_game):
    """The same (game, seq) asked again is the kept answer: not one more fold (CORE-4 logs take no snapshots)."""
    url = f"{readroutes_server.base_url}/api/games/{undo_game}/state?seq={LONG - 2}"
    first = get_json(url)
    assert first[0] == 200 and first[1]["seq"] == LONG - 2, first[0]
    folds = counted(readroutes_server, "chronicle_folds_total", reason="state")
    for _ in range(3):
        assert get_json(url) == first
    assert counted(readroutes_server, "chronicle_folds_total", reason="state") == folds
    # Check the kept answer is the one a fold gives: the state after LONG - 2 hashes as its envelope says.
    with urllib.request.urlopen(f"{readroutes_server.base_url}/api/games/{undo_game}/log", timeout=60) as response:
        lines = response.read().decode().splitlines()
    assert first[1]["hash"] == json.loads(lines[LONG - 3])["hash"]


def test_core_4_state_past_a_snapshot_and_an_undo_after_it_is_the_logged_state(readroutes_server):
    """A snapshot at seq 256, an undo after it (CORE-4): /state before the undo asked folds from the
    snapshot, from it on from seq 1 (the whole log read again); every answer is the state its envelope
    hashes."""
    table = game_with_undo(readroutes_server, 600, 400, 5)
    undo = next(e.seq for e in table.envelopes if e.type.startswith("Undo"))  # UndoAsked: the first undo event
    base = f"{readroutes_server.base_url}/api/games/{table.game_id}/state?seq="
    # Check how many folds each took: 300 from seq 1 (writing the snapshot at 256), then from it, then whole.
    for seq, folds in ((300, 300), (undo - 1, undo - 1 - 256), (undo, undo), (undo + 2, undo + 2),
                       (table.seq, table.seq)):
        before = counted(readroutes_server, "chronicle_folds_total", reason="state")
        status, answer = get_json(f"{base}{seq}")
        assert status == 200 and answer["hash"] == table.envelopes[seq - 1].hash, (seq, undo, answer.get("hash"))
        assert counted(readroutes_server, "chronicle_folds_total", reason="state") - before == folds, (seq, undo)


# --- POST /api/games/import ----------------------------------------------------------------------------


def test_core_2_a_log_posted_again_is_a_409_without_an_audit(readroutes_server):
    """A stored game's log posted again is 409 ``game-exists`` from its GameStarted line, before any audit."""
    lines = finished_log(seed=21)
    body = body_of(lines)
    audits = counted(readroutes_server, "chronicle_audits_total", route="import")
    status, answer = post(readroutes_server, body)
    assert status == 201, answer
    assert counted(readroutes_server, "chronicle_audits_total", route="import") == audits + 1
    for _ in range(3):
        status, answer = post(readroutes_server, body)
        assert (status, answer) == (409, {"code": "game-exists", "message": f"game {lines[0]['game']} is stored "
                                          "already: a log is imported once"})
    assert counted(readroutes_server, "chronicle_audits_total", route="import") == audits + 1


def test_core_2_imports_at_once_are_audited_one_at_a_time(readroutes_server):
    """A small log posted while a long one is being audited waits for it: it answers second (one audit at once)."""
    long_body, lines = longest_finished_log("mecha", 13)
    short_body = body_of(finished_log(seed=22))
    audits = counted(readroutes_server, "chronicle_audits_total", route="import")
    order, statuses = [], {}

    def send(body: bytes, name: str) -> None:
        statuses[name] = post(readroutes_server, body)[0]
        order.append(name)

    long = threading.Thread(target=send, args=(long_body, "long"))
    long.start()
    while counted(readroutes_server, "chronicle_audits_total", route="import") == audits and long.is_alive():
        time.sleep(0.002)
    assert not order, f"the long log ({lines} lines) was audited before the short one was posted"
    send(short_body, "short")
    long.join(60)
    assert statuses == {"long": 201, "short": 201}, statuses
    assert order == ["long", "short"]
    assert counted(readroutes_server, "chronicle_audits_total", route="import") == audits + 2


def test_a_cancelled_request_keeps_the_gate_until_its_thread_is_done():
    """A request cancelled while its audit works in the thread cannot stop the thread: the next one
    waits for the gate until that thread is done, so never two threads at once (AUDITS_AT_ONCE 1)."""
    import asyncio
    import threading
    import time
    from types import SimpleNamespace

    from server.audits import in_thread

    busy, most, lock = [0], [0], threading.Lock()

    def work(seconds: float) -> str:
        with lock:
            busy[0] += 1
            most[0] = max(most[0], busy[0])
        time.sleep(seconds)
        with lock:
            busy[0] -= 1
        return "done"

    async def main():
        state = SimpleNamespace()
        first = asyncio.ensure_future(in_thread(state, "audit", work, 0.3))
        await asyncio.sleep(0.05)  # the first thread is working
        first.cancel()
        second = await in_thread(state, "audit", work, 0.01)
        return first.cancelled(), second

    assert asyncio.run(main()) == (True, "done")
    assert most[0] == 1


busy_server = server_fixture("whole-log-reads", {"CHRONICLE_WHOLE_LOG_READS": "2"})


def test_whole_log_reads_past_the_bound_are_503_too_busy_before_reading(busy_server):
    """Sixteen strangers ask /state of sixteen seqs past an undo at once (each folds the whole log, CORE-4):
    two are taken in (whole_log_reads 2: one folds, one waits), the others are told 503 too-busy with
    Retry-After at once, holding no log; every answer given is the logged state, and once the two
    are done the server takes requests again."""
    import urllib.error

    table = game_with_undo(busy_server, 10_000, 9_000, 21)
    base = f"{busy_server.base_url}/api/games/{table.game_id}/state"
    seqs = list(range(table.seq - 15, table.seq + 1))
    answers: dict = {}

    def ask(seq: int) -> None:
        try:
            with urllib.request.urlopen(f"{base}?seq={seq}", timeout=60) as response:
                answers[seq] = (response.status, json.loads(response.read()), None)
        except urllib.error.HTTPError as error:
            answers[seq] = (error.code, json.loads(error.read()), error.headers.get("Retry-After"))

    askers = [threading.Thread(target=ask, args=(seq,)) for seq in seqs]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    busy = [seq for seq, (status, _, _) in answers.items() if status == 503]
    assert 1 <= len(busy) <= 14 and len(answers) == 16
    for seq, (status, body, retry) in answers.items():
        if status == 503:
            assert body["code"] == "too-busy" and "try again" in body["message"] and retry == "5"
        else:
            assert status == 200 and body["hash"] == table.envelopes[seq - 1].hash
    # Check the bound is let go: the seqs told too-busy are answered now, one at a time.
    for seq in busy:
        status, body = get_json(f"{base}?seq={seq}")
        assert status == 200 and body["hash"] == table.envelopes[seq - 1].hash


reads_server = server_fixture("whole-log-reads-per-address", {"CHRONICLE_WHOLE_LOG_READS": "3",
                                                              "CHRONICLE_WHOLE_LOG_READS_PER_ADDRESS": "2"})


def test_whole_log_reads_of_one_address_past_its_share_are_429_too_many_reads_and_others_still_get_in(reads_server):
    """One address asks /state of eight seqs past an undo at once (each folds the whole log, CORE-4): two
    are taken in (whole_log_reads_per_address 2), the others are told 429 too-many-reads with Retry-After
    at once; meanwhile another address's request is taken in (the third place) and answered 200 with the
    logged state, never too-busy."""
    import http.client

    table = game_with_undo(reads_server, 10_000, 9_000, 23)
    path = f"/api/games/{table.game_id}/state"
    host, port = reads_server.base_url.removeprefix("http://").split(":")
    answers: dict = {}

    def ask(seq: int, source: str) -> None:
        connection = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(source, 0))
        try:
            connection.request("GET", f"{path}?seq={seq}")
            response = connection.getresponse()
            answers[seq] = (source, response.status, json.loads(response.read()), response.getheader("Retry-After"))
        finally:
            connection.close()

    mine = [threading.Thread(target=ask, args=(seq, "127.0.0.2")) for seq in range(table.seq - 7, table.seq + 1)]
    for asker in mine:
        asker.start()
    time.sleep(0.05)  # the stranger's two are in (each folds 10,000 envelopes, one after the other)
    other = threading.Thread(target=ask, args=(table.seq - 8, "127.0.0.3"))
    other.start()
    for asker in [*mine, other]:
        asker.join()
    refused = [seq for seq, (_, status, _, _) in answers.items() if status == 429]
    assert 1 <= len(refused) <= 6 and len(answers) == 9, answers
    for seq, (source, status, body, retry) in answers.items():
        if status == 429:
            assert source == "127.0.0.2" and body["code"] == "too-many-reads" and retry == "5", body
            assert "address 127.0.0.2 has 2 requests that read a whole log" in body["message"], body
        else:
            assert status == 200 and body["hash"] == table.envelopes[seq - 1].hash, (seq, status, body)
    assert answers[table.seq - 8][1] == 200

"""A long game joined from the server's snapshot (issue 16, docs/client.md "Joining a long game").

The page folds only what follows the newest snapshot, its hash recomputed and checked first, draws,
then folds the whole log in the background and checks every hash; a snapshot whose state does not
hash to the logged hash is refused in words and the whole log read instead.
"""

from __future__ import annotations

import json
import re

import pytest

from server.snapshots import SNAPSHOT_EVERY
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import get_json, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

ENVELOPES = SNAPSHOT_EVERY + 30  # a long game: joined from a snapshot of the state at its head

ALL_CHECKED = ("() => { const m = document.getElementById('hash').title.match(/^(\\d+) of (\\d+) /);"
               " return m !== null && m[1] === m[2]; }")


def _server_hash(server, game_id: str) -> tuple:
    status, state = get_json(f"{server.base_url}/api/games/{game_id}/state")
    assert status == 200, state
    return state["seq"], state["hash"]


@pytest.mark.parametrize("who", ["spectator", "seat"])
def test_core_a_long_game_joined_from_its_snapshot_folds_to_the_servers_state(server, new_context, who):
    created = seeded_game(server, "mecha/sample", 9, envelopes=ENVELOPES)
    game_id = created["game"]
    seat, link = next(iter(created["seats"].items()))
    url = f"{server.base_url}/watch/{game_id}" if who == "spectator" else f"{server.base_url}{link['link']}"
    page = open_page(new_context(), url)
    head, logged = _server_hash(server, game_id)
    # Check the first draw: from the snapshot, the newest hash checked and equal to the server's.
    marks = page.evaluate("window.chronicle_marks")
    assert "snapshot" in marks and marks["snapshot"] <= marks["hashed"], marks
    assert hash_seq(page) == head and page.text_content("#hash") == f"hash ✓ seq {head}"
    assert page.get_attribute("#hash", "data-hash") == logged
    if who == "seat":
        assert page.text_content("#who").endswith(seat)
    # Until the history is folded the log says so (it may be folded already: read in one step).
    pending = page.evaluate("() => { const row = document.querySelector('#log li.log-pending');"
                            " return row ? row.textContent : null; }")
    assert pending is None or pending.startswith("Reading the earlier events (1–"), pending
    # Check: commands played meanwhile fold on the snapshot's state (or on the whole log's, if first).
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
        head = script.table.seq
    wait_seq(page, head)
    assert (head, page.get_attribute("#hash", "data-hash")) == _server_hash(server, game_id)
    # Check the background: the whole log folded, every hash sent checked, every log row, the seat clock.
    page.wait_for_function("window.chronicle_marks.history !== undefined", timeout=60_000)
    assert page.locator("#log li.log-pending").count() == 0
    page.wait_for_function(ALL_CHECKED, timeout=60_000)
    page.wait_for_function("document.getElementById('seat-times').dataset.counted === 'yes'", timeout=60_000)
    assert page.text_content("#hash") == f"hash ✓ seq {head}"
    page.wait_for_function(f"document.querySelectorAll('#log li.event').length === {head}", timeout=60_000)
    seqs = page.eval_on_selector_all("#log li.event", "items => items.map(li => Number(li.dataset.seq))")
    assert seqs == list(range(1, head + 1))
    assert page.locator("#seat-times li.seat-time").count() == len(created["seats"])
    assert page.problems == [], "\n".join(page.problems)


def test_core_a_forged_snapshot_is_refused_and_the_whole_log_read(server, new_context):
    created = seeded_game(server, "mecha/sample", 10, envelopes=SNAPSHOT_EVERY + 2)
    game_id = created["game"]
    context = new_context()
    forged: list = []

    def route(socket) -> None:  # between the page and the real server: the snapshot's state altered
        upstream = socket.connect_to_server()

        def from_server(message) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            if isinstance(frame, dict) and frame.get("type") == "snapshot":  # events frames are arrays
                frame["state"]["round"] += 1
                forged.append(frame["seq"])
                message = json.dumps(frame)
            socket.send(message)

        upstream.on_message(from_server)

    context.route_web_socket(re.compile(r".*/ws/.*"), route)
    page = open_page(context, f"{server.base_url}/watch/{game_id}")
    head, logged = _server_hash(server, game_id)
    # Check: refused in words, then the whole log folded to the server's hash, from no snapshot.
    assert forged == [head]
    assert page.text_content("#hash") == f"hash ✓ seq {head}"
    assert page.get_attribute("#hash", "data-hash") == logged
    refusal = page.locator("#log li.error").first.text_content()
    assert refusal.startswith("The server's snapshot of this game was refused"), refusal
    assert "snapshot" not in page.evaluate("window.chronicle_marks")
    page.wait_for_function(ALL_CHECKED, timeout=60_000)
    assert [p for p in page.problems if "WebSocket" not in p] == []


def test_core_a_snapshot_join_cut_before_its_history_starts_again_from_nothing(server, new_context):
    created = seeded_game(server, "mecha/sample", 12, envelopes=SNAPSHOT_EVERY + 5)
    game_id = created["game"]
    context = new_context()
    sockets: list = []

    def route(socket) -> None:  # the first socket loses its history frames, then drops
        upstream = socket.connect_to_server()
        first = not sockets
        sockets.append(socket)

        def from_server(message) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            if first and isinstance(frame, dict) and frame.get("type") == "history":  # events frames are arrays
                socket.close()
                return
            socket.send(message)

        upstream.on_message(from_server)

    context.route_web_socket(re.compile(r".*/ws/.*"), route)
    page = open_page(context, f"{server.base_url}/watch/{game_id}")
    head, logged = _server_hash(server, game_id)
    # Check: the second hello started from nothing again, and the page ends as if it had read the whole log once.
    page.wait_for_function("window.chronicle_marks.history !== undefined", timeout=60_000)
    page.wait_for_function(ALL_CHECKED, timeout=60_000)
    assert len(sockets) >= 2
    assert page.text_content("#hash") == f"hash ✓ seq {head}" and page.get_attribute("#hash", "data-hash") == logged
    page.wait_for_function(f"document.querySelectorAll('#log li.event').length === {head}", timeout=60_000)
    seqs = page.eval_on_selector_all("#log li.event", "items => items.map(li => Number(li.dataset.seq))")
    assert seqs == list(range(1, head + 1))
    assert [p for p in page.problems if "WebSocket" not in p] == []

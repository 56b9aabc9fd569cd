"""The replay page (client/pages/replay.py): the hash it shows is the CLI's, step by step."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from tests.browser.conftest import open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import ROOT, create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


def cli_replay(log_path, seq: int) -> dict:
    done = subprocess.run([sys.executable, "-m", "server.cli.main", "replay", str(log_path), "--to", str(seq)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def test_replay_at_seq_shows_the_hash_the_cli_computes_from_the_downloaded_log(server, new_context, tmp_path):
    """``/replay/{id}?seq=N`` shows the same state hash as ``chronicle replay LOG --to N``."""
    created = create_game(server.base_url)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(5)
    game_id = created["game"]
    log_path = tmp_path / "game.jsonl"
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        log_path.write_bytes(response.read())
    logged = [json.loads(line) for line in log_path.read_text().splitlines()]
    seq = len(logged) // 2

    page = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={seq}")
    expected = cli_replay(log_path, seq)
    assert expected["seq"] == seq
    assert page.get_attribute("#hash", "data-seq") == str(seq)
    assert page.get_attribute("#hash", "data-hash") == expected["hash"] == logged[seq - 1]["hash"]
    assert page.text_content("#hash") == f"hash ✓ seq {seq}: {expected['hash']}"

    # Check a step forward: the URL follows (history.replaceState), the hash is the CLI's again.
    page.click("button[data-step='forward']")
    page.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=seq + 1)
    assert page.url.endswith(f"/replay/{game_id}?seq={seq + 1}")
    assert page.get_attribute("#hash", "data-hash") == cli_replay(log_path, seq + 1)["hash"]
    # The shared URL opens at that seq.
    again = open_page(new_context(), page.url)
    assert again.get_attribute("#hash", "data-seq") == str(seq + 1)
    assert page.problems == [] and again.problems == []


def test_replay_scrub_and_play(server, new_context):
    """The slider jumps to any seq; play advances on its own and stops at the end."""
    created = create_game(server.base_url)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(3)
        last = script.table.seq
    page = open_page(new_context(), f"{server.base_url}/replay/{created['game']}")
    assert page.get_attribute("#hash", "data-seq") == str(last)  # without ?seq: the end
    page.eval_on_selector("#scrub", "el => { el.value = 2; el.dispatchEvent(new Event('input')); }")
    page.wait_for_function("() => document.getElementById('hash').dataset.seq === '2'")
    assert page.text_content("#position") == f"seq 2 / {last}"
    assert page.locator("#log li.event").count() == 2
    page.select_option("#speed", "31")
    page.click("#play")
    page.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=last)
    page.wait_for_function("() => document.getElementById('play').textContent === '▶ play'")
    assert page.text_content("#hash").startswith(f"hash ✓ seq {last}")
    assert page.problems == []

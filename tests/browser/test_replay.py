"""The replay page (client/pages/replay.py): the hash it shows is the CLI's, step by step."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request

import pytest

from tests.browser.conftest import open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import ROOT, create_game, seeded_game

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
    page.wait_for_function("() => document.getElementById('play').dataset.playing === '0'")
    assert page.text_content("#play").strip() == "play"
    assert page.text_content("#hash").startswith(f"hash ✓ seq {last}")
    assert page.problems == []


@pytest.mark.parametrize(("given", "opens_at", "said"), [
    ("999", "last", "?seq=999: this game has {last} events: showing the last one (seq {last})."),
    ("abc", "last", "?seq=abc is not an event number: showing the last event (seq {last})."),
    ("0", 1, "?seq=0: events are numbered from 1: showing the first event."),
    ("<b>x</b>", "last", "?seq=<b>x</b> is not an event number: showing the last event (seq {last})."),
    ("%ZZ", "last", "?seq=%ZZ is not an event number: showing the last event (seq {last})."),
    ("-3", "last", "?seq=-3 is not an event number: showing the last event (seq {last})."),
])
def test_a_bad_seq_in_the_replay_url_is_said_not_silently_jumped_over(server, new_context, given, opens_at, said):
    created = seeded_game(server, "mecha/sample", 23)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
        last = script.table.seq
    page = open_page(new_context(), f"{server.base_url}/replay/{created['game']}?seq={given}")
    seq = last if opens_at == "last" else opens_at
    assert page.get_attribute("#hash", "data-seq") == str(seq)
    assert page.text_content("#notice") == said.format(last=last)
    assert page.locator("#notice b").count() == 0  # the query is shown as text
    assert page.problems == []


def test_an_unknown_games_replay_says_so_and_its_icons_are_svg(server, new_context):
    page = open_page(new_context(), f"{server.base_url}/replay/g-no-such-game")
    assert page.text_content("#notice") == "There is no game g-no-such-game on this server: check the link."
    assert page.text_content("#hash") == "no such game"
    assert [p for p in page.problems if "404" not in p] == []  # the log's 404 is the answer itself
    # Check: the step buttons draw inline SVG icons with words for screen readers, no font glyphs.
    created = seeded_game(server, "mecha/sample", 24)
    replay = open_page(new_context(), f"{server.base_url}/replay/{created['game']}")
    for step, label in (("first", "First event"), ("back", "Step back"), ("forward", "Step forward"),
                        ("last", "Last event")):
        button = replay.locator(f"button[data-step='{step}']")
        assert button.get_attribute("aria-label") == label
        assert button.locator("svg.icon path").count() == 1
        assert not any(glyph in button.text_content() for glyph in "⏮⏭◀▶⏸")
    assert replay.locator("#play svg.icon").count() == 1
    assert replay.problems == []

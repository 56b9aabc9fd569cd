"""Undo with consent on the pages (issue 18's "done when"; CORE-4 to CORE-7), two seats of a Mecha game
in real Chromium: a free undo, an undo waiting for the other seat's yes, an undo across a die draw that
draws the same again, and the replay striking through what was taken back."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.conftest import open_page
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

FACE_DOWN = 7  # revealed on entry, its Corruption drawn from the bag (MV-6a, MV-6c)


def wait_seq(page, seq: int) -> None:
    page.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=seq)


def hash_at(page) -> str:
    return page.get_attribute("#hash", "data-hash")


def log_of(server, game_id: str) -> list:
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        return [json.loads(line) for line in response.read().decode().splitlines() if line.strip()]


def drawn_after(log: list, first: int) -> list:
    """The Corruption drawn by the command whose first event is seq ``first``."""
    command_id = log[first - 1]["command_id"]
    return [e["data"] for e in log[first - 1:] if e["command_id"] == command_id and e["type"] == "CorruptionDrawn"]


def test_core_5_core_7_undo_free_with_a_yes_and_across_a_draw_then_struck_through_in_the_replay(server, new_context):
    created = seeded_game(server, "mecha/sample", 11)
    game_id = created["game"]
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    start = hash_at(red)
    assert red.locator("button.undo-ask").count() == 0  # nothing of red's to take back yet

    # Check: red moves, then takes it back alone (its own command, nobody else's since): applied at once.
    red.click("g.loc[data-number='2']")
    wait_seq(red, 3)
    red.click("button.undo-ask")
    wait_seq(red, 5)
    wait_seq(blue, 5)
    assert hash_at(red) == hash_at(blue) == start
    for page in (red, blue):
        assert page.locator("#log li.event.undone").count() == 2  # MechMoved, TurnEnded
        assert "undone by red" in page.text_content("#log li.event[data-seq='2']")

    # Check: across blue's move the undo waits for blue, who sees yes/no; red only sees it wait.
    red.click("g.loc[data-number='2']")
    wait_seq(blue, 7)
    blue.click("g.loc[data-number='3']")
    wait_seq(red, 9)
    red.click("button.undo-ask")
    wait_seq(blue, 10)
    wait_seq(red, 10)
    assert "waiting for blue" in red.text_content("#undo .undo-pending")
    assert red.locator("button.undo-answer").count() == 0
    assert blue.locator("button.undo-answer").count() == 2
    assert hash_at(blue) != start  # nothing taken back before blue's yes
    blue.click("button.undo-answer[data-answer='yes']")
    wait_seq(red, 12)
    assert hash_at(red) == start
    assert "asked by red, agreed by blue" in red.text_content("#log li.event[data-seq='8']")

    # Check: across red's own draw, every other seat's yes is needed, and the same move draws the same.
    red.click(f"g.loc[data-number='{FACE_DOWN}']")
    red.wait_for_function("() => document.querySelector('button.undo-ask') !== null")
    first = int(red.get_attribute("button.undo-ask", "data-back-to"))
    red.click("button.undo-ask")
    blue.wait_for_function("() => document.querySelector('button.undo-answer') !== null")
    assert "waiting for blue" in blue.text_content("#undo .undo-pending")
    blue.click("button.undo-answer[data-answer='yes']")
    red.wait_for_function("h => document.getElementById('hash').dataset.hash === h", arg=start)
    red.wait_for_function("() => document.querySelector(\"g.loc[data-number='7'].clickable\") !== null")
    red.click(f"g.loc[data-number='{FACE_DOWN}']")
    red.wait_for_function("() => document.querySelector('button.undo-ask') !== null")
    again = int(red.get_attribute("button.undo-ask", "data-back-to"))
    log = log_of(server, game_id)
    # CORE-12: the move made again draws anew, keyed by its own seq, never the one whose outcome was shown
    assert again > first and drawn_after(log, first) and drawn_after(log, again)
    assert log[0]["data"]["dice_key"] == "CORE-12"

    # Check: the replay shows every undone event struck through, with who asked and who agreed.
    undone = [e["seq"] for e in log if e["seq"] < again and e["command_id"] and e["type"] not in
              ("UndoAsked", "UndoAnswered", "UndoApplied")]
    replay = open_page(new_context(), f"{server.base_url}/replay/{game_id}")
    struck = [int(seq) for seq in replay.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => r.dataset.seq)")]
    assert struck == undone
    style = replay.eval_on_selector(f"#log li.event[data-seq='{first}']", "r => getComputedStyle(r).textDecorationLine")
    assert style == "line-through"
    assert "asked by red, agreed by blue" in replay.text_content(f"#log li.event[data-seq='{first}']")
    assert red.problems == [] and blue.problems == [] and replay.problems == []

"""A dispute link and a what-if on a game with an undo (issue 18's integration review; CORE-4,
CORE-7): the branch's board draws the history still in play at its seq, never a move taken back."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_page
from tests.server.test_import import body_of, post
from tests.server.test_undo_integration import finished_with_undo

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_core_4_a_what_if_after_an_undo_draws_no_move_it_took_back(server, new_context):
    lines = finished_with_undo()
    status, answer = post(server, body_of(lines))
    assert status == 201, answer
    game_id = lines[0]["game"]
    applied = next(line for line in lines if line["type"] == "UndoApplied")
    undone = [line for line in lines[:applied["seq"]] if line["type"] == "MechMoved"]
    assert len(undone) == 1 and undone[0]["seq"] < applied["seq"]  # red's Move to 7, the only one before
    after = lines[applied["seq"]]  # the first event of the next command: red's again, in play
    assert after["seat"] == "red" and after["command_id"]
    page = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={after['seq']}")
    assert page.get_attribute("#dispute", "data-seq") == str(after["seq"])
    # Check: the state before it is the game's start again; the replay's board shows no last move.
    page.goto(f"{server.base_url}/replay/{game_id}?seq={applied['seq']}")
    page.wait_for_function("() => window.chronicle_ready === true")
    assert page.get_attribute("polyline.route", "visibility") == "hidden"
    page.goto(f"{server.base_url}/replay/{game_id}?seq={after['seq']}")
    page.wait_for_function("() => window.chronicle_ready === true")
    # Check: the rule question at that seq branches from the state before it, whose board draws no
    # route either (the Move to 7 was taken back before it).
    page.click("#whatif-ask")
    page.wait_for_selector("body[data-branch='1']")
    assert page.get_attribute("#hash", "data-branch") == "0"
    assert page.get_attribute("polyline.route", "visibility") == "hidden", page.get_attribute(
        "polyline.route", "data-path")
    # Check: a move of the branch is drawn as the last move.
    page.locator("g.loc.dest").first.click()
    page.wait_for_selector("#hash[data-branch='1']")
    assert page.get_attribute("polyline.route", "visibility") == "visible"
    assert page.problems == []


def test_core_4_the_dispute_of_an_undo_request_offers_no_dice_branch_but_another_command(server, new_context):
    """The what-if of an AskUndo: the game's rules cannot decide it (before: a dice field whose
    branch was refused as "AskUndo is not a command of this game", MV-C3); now it says why, and the
    rule question on that position still branches (red asked on blue's turn: no other command of red's)."""
    lines = finished_with_undo(seed=10)
    status, answer = post(server, body_of(lines))
    assert status == 201, answer
    game_id = lines[0]["game"]
    asked = next(line for line in lines if line["type"] == "UndoAsked")
    page = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={asked['seq']}")
    assert page.get_attribute("#dispute", "data-seq") == str(asked["seq"])
    assert page.text_content("#dispute-command .command") == f"Asks to take back everything from #{asked['data']['back_to']} on"
    assert page.get_attribute("#dispute-command .command", "data-command").startswith("AskUndo")
    assert page.locator("#whatif-dice").count() == 0
    assert "Ask to undo is the engine's own command" in page.text_content("#whatif-core")
    assert page.locator("#whatif-command-play").count() == 0  # red asked on blue's turn
    page.click("#whatif-ask")
    page.wait_for_selector("body[data-branch='1']")
    assert page.get_attribute("#hash", "data-branch") == "0"
    page.locator("g.loc.dest").first.click()  # blue's move on the branch's board
    page.wait_for_selector("#hash[data-branch='1']")
    assert page.problems == []

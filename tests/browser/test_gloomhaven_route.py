"""Gloomhaven in the browser: a move by destination alone refused because walks within the move do different
things (GH-4, gloomhaven-7) says how to choose the route on the page, and the route is then built and walked."""

from __future__ import annotations

import copy

import pytest

from server import scenarios
from tests.browser.test_gloomhaven import red_holding_move_3

pytestmark = [pytest.mark.browser, pytest.mark.server]


def barrow_with_a_trap_at_1_2() -> dict:
    """The barrow with one more trap, at [1, 2]: red, at [0, 2] with a move 3, reaches [2, 2] through that trap
    (2 points) or through the hazardous terrain at [2, 1] (3 points), one negative hex each."""
    _name, data = scenarios.load("gloomhaven/barrow")
    data = copy.deepcopy(data)
    data["map"]["traps"] = data["map"]["traps"] + [[1, 2]]
    return data


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR", "ru-RU"])
def test_gh_4_a_refused_move_by_destination_is_then_made_by_building_its_path(server, new_context, locale):
    """GH-4, GH-C1 (gloomhaven-7, review D6): red clicks [2, 2] with its move 3: refused, the walks there doing
    different things. The refusal names what each walk enters (the trap at [1, 2], the hazardous terrain at
    [2, 1]) and the page's own buttons, in the reader's language, as the way to choose: red presses the
    "Build a path" button the refusal names, clicks [1, 1], [2, 1], [2, 2], presses the "Confirm path" button it
    names, and walks exactly that route, through the hazard and round the trap (which stays)."""
    red, blue = red_holding_move_3(server, new_context, barrow_with_a_trap_at_1_2(), locale)

    # Check: one click on [2, 2] is refused (GH-4), naming both walks' hexes and the two buttons as labelled here.
    red.click("g.cell[data-hex='2,2']")
    rejected = red.locator("#log li.rejected")
    rejected.wait_for()
    assert rejected.get_attribute("data-rule") == "GH-4"
    notice = red.text_content("#notice")
    build = red.text_content("button.build-path").strip()
    for words in (build, "[1, 2]", "[2, 1]", "[2, 2]"):
        assert words in notice, (words, notice)
    assert red.locator("#log li[data-type='FigureMoved']").count() == 0

    # Check: the route built by the button the refusal names, confirmed by the other one it names, is walked.
    red.click("button.build-path")
    for hex in ("1,1", "2,1", "2,2"):
        red.click(f"g.cell[data-hex='{hex}']")
    red.wait_for_selector(".path-cost[data-cost='3'][data-steps='3']")
    confirm = red.text_content("button.confirm-path").strip()
    assert confirm in notice, (confirm, notice)
    red.click("button.confirm-path")
    red.wait_for_selector("#log li[data-type='FigureMoved']")
    assert "[0, 2] → [1, 1] → [2, 1] → [2, 2]" in red.text_content("#log li[data-type='FigureMoved']")
    red.wait_for_function("() => document.querySelector(\"g.figure[data-figure='red']\").dataset.at === '2,2'")
    assert red.locator("#log li[data-type='TrapSprung']").count() == 0
    assert red.problems == [] and blue.problems == []

"""Gloomhaven in the browser: characters tied on both cards, whose seats agree on an order (GH-2, gloomhaven-7)."""

from __future__ import annotations

import copy

import pytest

from server import scenarios
from tests.browser.conftest import open_page
from tests.browser.test_gloomhaven import pick_in_panel
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

ORDER = "#actions button[data-command='ChooseOrder']"


def barrow_all_at_50() -> dict:
    """The barrow with every character card at initiative 50 (as the corpus's tied-initiative games): red and blue
    tie on both cards every round."""
    _name, data = scenarios.load("gloomhaven/barrow")
    data = copy.deepcopy(data)
    for character in data["cards"]["classes"]:
        for card in character["cards"]:
            card["initiative"] = 50
    return data


def test_gh_2_on_the_page_one_tied_seat_proposes_and_the_other_agrees(server, new_context):
    """GH-2 ("the tied seats agree on an order"): after the reveal both tied seats see the order buttons. blue
    presses "blue → red": the log says blue proposes it, blue's buttons go, red's stay (red must agree); red
    presses the same order and the tie is settled (OrderChosen, then the initiative track), blue first."""
    created = seeded_game(server, barrow_all_at_50(), 1)
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    pick_in_panel(red, ("br-08", "br-07"))
    pick_in_panel(blue, ("ti-04", "ti-05"))
    for page in (red, blue):
        page.wait_for_selector(ORDER)
        assert page.locator(ORDER).count() == 2
    blue.click(f"{ORDER}:has-text('blue → red')")
    for page in (red, blue):
        page.wait_for_selector("#log li[data-type='OrderProposed']")
    assert "blue proposes" in red.text_content("#log li[data-type='OrderProposed']")
    blue.wait_for_function(f"() => document.querySelectorAll(\"{ORDER}\").length === 0")
    assert red.locator(ORDER).count() == 2 and red.locator("#log li[data-type='OrderChosen']").count() == 0
    red.click(f"{ORDER}:has-text('blue → red')")
    for page in (red, blue):
        page.wait_for_selector("#log li[data-type='OrderChosen']")
        page.wait_for_selector("#log li[data-type='InitiativeSet']")
    slots = [red.get_attribute(f".initiative-track span[data-figure='{seat}']", "class") for seat in ("blue", "red")]
    assert all(slot is not None for slot in slots)
    track = red.text_content(".initiative-track")
    assert track.index("blue") < track.index("red"), track
    assert red.problems == [] and blue.problems == []

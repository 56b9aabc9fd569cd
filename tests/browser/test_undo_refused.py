"""CORE-6, CORE-12 on the play page against a bot: once the bot has said no to the seat's undo across a draw,
the page says who refused it and why (the clause its no cites in the log), and offers no Undo button that
the server would refuse ("make a command before asking again"), until the seat makes a move. A table
probe found the page offering the same undo again, under a notice that only said "accepted"."""

from __future__ import annotations

import pytest

from client import i18n
from tests.browser.conftest import open_page
from tests.server_fixture import post_json

pytestmark = [pytest.mark.browser, pytest.mark.server]


def text(page, selector: str) -> str:
    return (page.text_content(selector) or "").replace(i18n.MARK, "")


@pytest.mark.parametrize("locale, refused_words", [
    ("en-GB", "refused your undo back to #"),
    ("ru-RU", "отказало в вашей отмене до №"),
])
def test_core_6_core_12_a_bots_no_is_shown_with_its_clause_and_the_same_undo_is_not_offered_again(
        server, new_context, locale, refused_words):
    status, created = post_json(f"{server.base_url}/api/games", {"scenario": "mecha/sample", "bots": {"blue": "greedy"}})
    assert status == 201, created
    red = open_page(new_context(locale=locale), f"{server.base_url}{created['seats']['red']['link']}")
    # Red moves onto a face-down Location: it is revealed and its Corruption drawn (MV-6a, MV-6c).
    red.click("g.loc.face-down[data-dest='1']")
    red.wait_for_function("() => document.querySelector('button.undo-ask') !== null")
    back_to = red.get_attribute("button.undo-ask", "data-back-to")
    red.wait_for_function("() => document.querySelector(\"g.loc[data-dest='1']\") !== null")  # the bot has moved
    red.click("button.undo-ask")
    # Check: the bot's no arrives, cites CORE-12 in the log, and the panel says who and why, with no button.
    red.wait_for_function("() => document.querySelector('#undo .undo-refused') !== null")
    said = text(red, "#undo .undo-refused")
    assert refused_words in said and "CORE-12" in said and (f"#{back_to}" in said or f"№ {back_to}" in said), said
    assert red.locator("button.undo-ask").count() == 0
    assert red.get_attribute("#undo .undo-refused", "data-back-to") == back_to

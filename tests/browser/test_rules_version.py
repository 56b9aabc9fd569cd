"""The page says which rules version a game is played under and, when that is not the newest the
page knows, what the newer rules changed (issue 19, CORE-3): clause id and title in the reader's
language, and the note in the reader's language too (``notes.<version>.<clause>``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from client import i18n
from tests.browser.conftest import open_page
from tests.browser.test_i18n import CHECK, untranslated
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

NEWEST = events.games.load("echo")
ECHO_2 = NEWEST.version("echo-2")
EC_15_NOTE = dict(ECHO_2.notes)["EC-15"]
#: every note of every version after echo-1, each listed once on an echo-1 game's page
NEWER_NOTES = [note for version, _clause, note in NEWEST.changes_since("echo-1")]
RU = json.loads((Path(__file__).parents[2] / "client" / "i18n" / "ru.json").read_text("utf-8"))


def test_core_3_an_echo_1_game_shows_echo_1_and_the_ec_15_change_and_a_newest_game_no_list(server, new_context):
    old = seeded_game(server, "echo/first-case", 3, rules_version="echo-1")
    new = seeded_game(server, "echo/first-case", 3)
    context = new_context()
    page = open_page(context, f"{server.base_url}/watch/{old['game']}")
    box = page.locator("#rules-version")
    assert box.get_attribute("data-version") == "echo-1" and box.get_attribute("data-newest") == NEWEST.rules_version
    assert page.text_content("#rules-version .version") == "echo-1"
    change = box.locator("li.rules-change[data-rule='EC-15']")
    assert change.locator(".clause-id").text_content() == "EC-15"
    assert change.locator(".clause-title").text_content() == "Rounds cost movement"  # the English title alone
    assert change.locator(".note").get_attribute("lang") is None  # the catalogue's English, the page's language
    assert change.locator(".note").text_content() == EC_15_NOTE
    # every note of the newer versions (echo-2's three, echo-3's three) is listed, once
    assert box.locator("li.rules-change").count() == len(NEWER_NOTES) == 6
    assert f"({NEWEST.rules_version})" in page.text_content("#rules-version .rules-newer")
    current = open_page(context, f"{server.base_url}/watch/{new['game']}")
    assert current.get_attribute("#rules-version", "data-version") == NEWEST.rules_version
    assert current.text_content("#rules-version .version") == NEWEST.rules_version
    assert current.locator("#rules-version .rules-changes, #rules-version .rules-newer").count() == 0
    assert page.problems == [] and current.problems == []


def test_core_3_the_replay_of_an_echo_1_game_lists_the_changes_in_russian_with_nothing_untranslated(server,
                                                                                                    new_context):
    old = seeded_game(server, "echo/first-case", 3, rules_version="echo-1")
    context = new_context(locale="ru-RU")
    context.add_init_script(CHECK)
    page = open_page(context, f"{server.base_url}/replay/{old['game']}")
    assert page.get_attribute("#rules-version", "data-version") == "echo-1"
    change = page.locator("#rules-version li.rules-change[data-rule='EC-15']")
    assert change.locator(".clause-title").text_content().replace(i18n.MARK, "") == "Раунды стоят движения"
    assert change.locator(".note").get_attribute("lang") is None
    assert change.locator(".note").text_content().replace(i18n.MARK, "") == RU["notes.echo-2.EC-15"]
    # six notes (echo-2's three, echo-3's three): the "many" form of Russian
    assert "изменено 6 пунктов" in page.text_content("#rules-version .rules-newer")
    assert untranslated(page, "ru") == {"lang": "ru", "bad": []}
    assert page.problems == []

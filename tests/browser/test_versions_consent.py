"""Two seats agree in their browsers to move an echo-1 game to the newest echo version (issue 19: CORE-10, CORE-11, CORE-3).

One seat proposes from the rules box, the other sees the proposal with yes and no and says yes; both
pages, and a watcher, then show it (echo-3). The second seat reads French: every word through the catalogue.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser.conftest import open_page
from tests.browser.test_i18n import CHECK, untranslated
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]



def test_core_11_two_seats_agree_in_the_browser_and_the_game_moves_to_the_newest(server, new_context):
    created = seeded_game(server, "echo/first-case", 3, rules_version="echo-1")
    game_id = created["game"]
    (first, first_link), (second, second_link) = list(created["seats"].items())[:2]
    proposer = open_page(new_context(), f"{server.base_url}/play/{game_id}#token={first_link['token']}")
    french = new_context(locale="fr-FR")
    french.add_init_script(CHECK)
    answerer = open_page(french, f"{server.base_url}/play/{game_id}#token={second_link['token']}")
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    # Check every page is under echo-1; the seats may propose echo-3, the watcher may not.
    for page in (proposer, answerer, watcher):
        assert page.get_attribute("#rules-version", "data-version") == "echo-1"
    assert proposer.locator("#rules-consent button[data-consent='propose']").text_content().endswith(
        "Propose moving to echo-3")
    assert watcher.locator("#rules-consent button").count() == 0
    # Check the proposal reaches the other seat with yes and no, and the watcher without buttons.
    proposer.click("#rules-consent button[data-consent='propose']")
    for page in (proposer, answerer, watcher):
        page.wait_for_function("document.getElementById('rules-consent').dataset.state === 'open'")
    assert proposer.locator("#rules-consent button").count() == 0  # the proposer does not answer itself
    assert answerer.locator("#rules-consent button[data-consent='yes']").count() == 1
    assert answerer.locator("#rules-consent button[data-consent='no']").count() == 1
    assert "propose de faire passer cette partie à echo-3" in answerer.text_content("#rules-consent .consent-line")
    assert watcher.locator("#rules-consent button").count() == 0
    # Check the yes moves the game: every page shows echo-3, no change list, and nothing left to propose.
    answerer.click("#rules-consent button[data-consent='yes']")
    for page in (proposer, answerer, watcher):
        page.wait_for_function("document.getElementById('rules-version').dataset.version === 'echo-3'")
        page.wait_for_function("document.getElementById('rules-consent').dataset.state === 'none'")
        assert page.locator("#rules-version .rules-changes").count() == 0
        assert page.locator("#rules-consent button").count() == 0
        assert page.locator("#log li.event[data-type='RulesVersionChanged']").count() == 1
    moved = answerer.text_content("#log li.event[data-type='RulesVersionChanged'] .what")
    assert "toutes les places ont accepté" in moved and "echo-3" in moved
    assert untranslated(answerer, "fr") == {"lang": "fr", "bad": []}
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        raws = [json.loads(line) for line in response.read().decode().splitlines()]
    assert [raw["type"] for raw in raws[-3:]] == ["RulesVersionProposed", "RulesVersionAnswered", "RulesVersionChanged"]
    assert raws[-1]["data"]["agreed"] == raws[-3]["seq"] and raws[-2]["seat"] == second and raws[-3]["seat"] == first
    for page in (proposer, answerer, watcher):
        assert page.problems == []

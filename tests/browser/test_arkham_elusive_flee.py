"""arkham-6 in the browser (AH-C3, AH-C6): in a battle with the Elusive Nightgaunt, the seat's Flee button says it
needs no roll, and pressing it ends the battle; an arkham-5 game's page still offers the rolled flee with its dice."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_page, wait_seq
from tests.games.arkham.helpers import inv, mon, scenario
from tests.server_fixture import create_game, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


def _woods() -> dict:
    """Red (Fight 1, Sneak 1, Will 4) in the Woods with the Nightgaunt: combat -2, awareness -2, damage 0, Elusive."""
    return scenario([inv("red", "woods", speed=2, sneak=1, fight=1, will=4, stamina=5, sanity=7),
                     inv("blue", "northside")],
                    [mon("nightgaunt", "woods", awareness=-2, horror_rating=-1, combat_rating=-2, combat_damage=0,
                         toughness=2, elusive=True)])


def _in_battle(page) -> None:
    page.locator("#actions button[data-command='Fight']:has-text('Nightgaunt')").first.click()
    page.wait_for_selector("#actions button[data-command='Flee']")


def test_ah_c6_the_flee_from_an_elusive_monster_needs_no_roll_and_ends_the_battle(server, new_context):
    """AH-C3, AH-C6 (arkham-6): red fights the Nightgaunt (the battle begins whatever its Horror check gives:
    Sanity 7, horror damage 1); its Flee button reads "Flee Nightgaunt (Elusive: no roll, AH-C6)"; pressed, the log
    shows the Nightgaunt evaded and the battle ended (fled), and red's page offers only Stop."""
    created = create_game(server.base_url, scenario=_woods())
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    _in_battle(red)
    flee = red.locator("#actions button[data-command='Flee']")
    assert flee.text_content() == "Flee Nightgaunt (Elusive: no roll, AH-C6)"
    flee.click()
    red.wait_for_function("() => document.querySelectorAll(\"#log li[data-type='CombatEnded']\").length === 1")
    assert "AH-C6" in red.locator("#log li[data-type='MonsterEvaded']").text_content()
    red.wait_for_selector("#actions button[data-command='Stop']")
    assert red.locator("#actions button[data-command='Flee']").count() == 0
    assert red.problems == []


def test_ah_c6_an_arkham_5_page_still_offers_the_rolled_flee(server, new_context):
    """AH-C1, AH-C3 (arkham-5 as released): the same battle's Flee is an Evade check of Sneak 1 - 2 = -1 dice,
    and the button says so; pressed, the battle goes on (the button is offered again)."""
    created = seeded_game(server, _woods(), 1, rules_version="arkham-5")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    _in_battle(red)
    flee = red.locator("#actions button[data-command='Flee']")
    assert flee.text_content().startswith("Flee (Evade check: ")
    seq = int(red.get_attribute("#hash", "data-seq"))
    flee.click()
    wait_seq(red, seq + 1)
    red.wait_for_selector("#actions button[data-command='Flee']")
    assert red.locator("#log li[data-type='CombatEnded']").count() == 0
    assert red.problems == []

"""Gloomhaven in the browser: secret picks, the initiative track, a monster's turn with its focus
trace and animated move, and the options offered when the players must choose (GH-C2, GH-6, GH-C4)."""

from __future__ import annotations

import pytest

import events.games
from events.games.gloomhaven.model import SelectCards
from events.log import Table
from server import scenarios
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

RED_PICK = ("br-06", "br-01")  # leading 87: the bandits act first
BLUE_PICK = ("ti-05", "ti-08")  # leading 85


def a_seed_with_a_choice() -> int:
    """A seed whose first round, after these two picks, makes a monster offer equally good options.

    The server seeds each command's draws from the game seed and the seq, so folding the same
    commands here gives the very game the pages will show.
    """
    game = events.games.load("gloomhaven")
    _name, data = scenarios.load("gloomhaven/barrow")
    for seed in range(1, 500):
        table = Table.create(game, "probe", data, seed)
        table.submit("red", SelectCards(RED_PICK, RED_PICK[0]), "a")
        table.submit("blue", SelectCards(BLUE_PICK, BLUE_PICK[0]), "b")
        pending = table.state.pending
        if pending is not None and pending.kind == "monster":
            return seed
    raise AssertionError("no seed offers a choice")  # pragma: no cover


def pick_in_panel(page, cards: tuple) -> None:
    for card in cards:
        page.click(f".my-cards button.card[data-card='{card}']")
    page.click(f".my-cards button.confirm-pick[data-leading='{cards[0]}']")


def test_gh_c2_secret_picks_then_a_monster_turn_with_its_trace_and_the_players_choice(server, new_context):
    """GH-C2, GH-6, GH-C4: red's pick stays hidden on blue's and the spectator's pages; after the
    reveal a bandit's turn shows its focus trace; its tied options are offered and chosen by click."""
    seed = a_seed_with_a_choice()
    created = create_game(server.base_url, "gloomhaven/barrow", seed=seed)
    game_id = created["game"]
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    # Check: the map is drawn with its walls, terrain and figures.
    assert watcher.locator("svg.gloomhaven-board line.wall").count() > 20
    assert watcher.locator("g.cell[data-terrain='traps']").count() == 2
    assert watcher.locator("g.figure").count() == 6

    # Check: red picks in its panel; only red's page shows the cards.
    pick_in_panel(red, RED_PICK)
    row = "tr.seat-row[data-seat='red'] td.pick-status"
    # Cards are shown by name (br-06 is Grab and Go, br-01 Trample), never by id.
    red.wait_for_function(f"() => document.querySelector(\"{row}\").textContent.includes('Grab and Go')")
    for page in (blue, watcher):
        page.wait_for_function(f"() => document.querySelector(\"{row}\").textContent === 'has chosen'")
        assert "Grab and Go" not in page.text_content("#log") and "Trample" not in page.text_content("#info")

    # Check: blue's pick reveals both; bandits act; one offers equally good options to the players.
    pick_in_panel(blue, BLUE_PICK)
    for page in (red, blue, watcher):
        page.wait_for_selector("#log li[data-type='CardsRevealed']")
        page.wait_for_selector(".focus-trace tr.candidate[data-figure='red']")
    assert "Grab and Go" in watcher.text_content("#log")  # revealed now, to everyone
    assert "br-06" not in watcher.text_content("#log") and "br-06" not in red.text_content("#info")
    assert watcher.locator(".initiative-track .slot").count() >= 6
    trace = watcher.locator(".focus-trace")
    assert trace.locator("tr.candidate").count() == 2 and "Decided by" in trace.text_content()
    red.wait_for_selector("polygon.option")
    options = red.locator("polygon.option").count()
    assert options >= 2 and red.locator("button[data-command='ChooseOption']").count() >= options
    assert watcher.locator("button[data-command='ChooseOption']").count() == 0
    # Check: a click on an option's hex chooses it; the archer walks there on every page.
    chosen = red.locator("g.cell:has(polygon.option)").first
    target = chosen.get_attribute("data-hex")
    chosen.click()
    for page in (red, blue, watcher):
        page.wait_for_selector("#log li[data-type='OptionChosen']")
        page.wait_for_function("at => document.querySelector(\"g.figure[data-figure='bandit-archer-2']\")"
                               ".dataset.at === at", arg=target)
    # Check: the spectator saw a monster's move animated hex by hex (it ends at rest).
    watcher.wait_for_function("() => document.querySelectorAll('g.figure[data-animating]').length > 0"
                              " && document.querySelectorAll(\"g.figure[data-animating='1']\").length === 0")
    seq = hash_seq(red)
    for page in (blue, watcher):
        wait_seq(page, seq)
    assert red.text_content("#hash") == blue.text_content("#hash") == watcher.text_content("#hash") == f"hash ✓ seq {seq}"
    assert red.problems == [] and blue.problems == [] and watcher.problems == []

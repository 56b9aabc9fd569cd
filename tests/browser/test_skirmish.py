"""The skirmish pages against a real server and Chromium: a door contest between two seats, watched.

In skirmish/purge the zombies' seat moves Zombie 3 next to the safe room's south door by clicking a
highlighted square, ends its activation and opens the door (SK-7); the survivors' seat activates Ben
and contests the door to shut it (SK-10). A spectator's page shows the grid, the costs, the sight
lines and the contest with both rolls and both bonuses, and every page's hash matches.
"""

from __future__ import annotations

import pytest

from events.games import load
from events.games.skirmish.model import Activate, ContestDoor, DecideDoor, EndActivation, Move
from events.log import Table
from server.scenarios import load as load_scenario
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

GAME = load("skirmish")
SEED = 7
SCRIPT = [
    ("zombies", Activate("z3")),
    ("zombies", Move("z3", (2, 3))),
    ("zombies", EndActivation("z3")),
    ("zombies", DecideDoor("z3", "door2", True)),
    ("survivors", Activate("ben")),
    ("survivors", ContestDoor("ben", "door2", False)),
]


def expected_contest():
    """The server seeds each command's dice from the game seed and its first seq, as
    ``Table.submit`` does, so the same commands played here give the server's contest."""
    _game, scenario = load_scenario("skirmish/purge")
    table = Table.create(GAME, "probe", scenario, SEED)
    for number, (seat, command) in enumerate(SCRIPT):
        result = table.submit(seat, command, f"probe-{number}")
    return result.envelopes[0].event, table.seq


def click_button(page, text: str) -> None:
    page.locator("#actions button", has_text=text).first.click()


def test_sk_10_a_door_contest_between_two_seats_seen_by_a_spectator(server, new_context):
    """SK-10, SK-7, SK-C2, SK-C3: zombies open door2 from C4; survivors contest it from B3; the
    contest's rolls and bonuses show on all three pages, and their hashes agree."""
    contest, last_seq = expected_contest()
    created = create_game(server.base_url, scenario="skirmish/purge", seed=SEED)
    game_id = created["game"]
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    zombies = open_page(new_context(), f"{server.base_url}{created['seats']['zombies']['link']}")
    survivors = open_page(new_context(), f"{server.base_url}{created['seats']['survivors']['link']}")
    # Check the grid: 10 × 5 squares, magenta walls, light-blue closed doors, coloured terrain.
    for page in (watcher, zombies):
        assert page.locator("svg.skirmish-board g.sq").count() == 50
        assert page.get_attribute("line.wall", "stroke") == "#d61fd6"
        assert page.get_attribute("g.door[data-door='door2'] line.leaf", "stroke") == "#7cc8f2"
        assert page.get_attribute("g.door[data-door='door2']", "data-open") == "0"
        assert page.get_attribute("g.sq[data-square='F5'] rect", "fill") == "#f08c2e"  # a pit
        assert page.get_attribute("g.sq[data-square='B2'] rect", "fill") == "#7ccf6b"  # low objects
    assert watcher.locator("#actions button").count() == 0
    assert survivors.locator("#actions button").count() == 0  # not its turn: no command to offer

    # Check the zombies' seat activates Zombie 3: reachable squares show their cost, on hover too.
    click_button(zombies, "Activate Zombie 3")
    zombies.wait_for_selector("g.sq.reach[data-square='C4']")
    assert zombies.get_attribute("g.sq[data-square='C4']", "data-cost") == "2"
    assert zombies.text_content("g.sq[data-square='C4'] title") == "C4: 2 movement points, then it may still attack"
    watcher.wait_for_selector("g.sq.reach[data-square='C4']")
    # Sight lines from the acting figure: Ana is behind walls, Ben sees through nothing.
    assert watcher.get_attribute("g.sight", "data-from") == "z3"
    assert watcher.get_attribute("line.sight-line[data-target='ana']", "data-los") == "0"

    # Check a click on the highlighted square moves it, then it ends and opens door2 (SK-7).
    zombies.click("g.sq[data-square='C4']")
    zombies.wait_for_function("document.querySelector(\"g.fig[data-figure='z3']\").dataset.at === 'C4'")
    click_button(zombies, "End Zombie 3's activation")
    click_button(zombies, "Zombie 3: open door 2")
    watcher.wait_for_function("document.querySelector(\"g.door[data-door='door2']\").dataset.open === '1'")

    # Check the survivors' seat contests the door from B3 (SK-10).
    click_button(survivors, "Activate Ben")
    click_button(survivors, "Ben: contest door 2 (close it)")
    for page in (watcher, zombies, survivors):
        wait_seq(page, last_seq)
        row = page.locator("ol.contests li.contest").last
        assert row.get_attribute("data-winner") == contest.winner
        bonus = row.locator(".contest-bonus").text_content()
        assert bonus == (f"Ben: d20 + Attack 4 + bonus {contest.figure_bonus} · "
                         f"Zombie 3: d20 + Attack 3 + bonus {contest.holder_bonus}")
        rolls = row.locator(".throw").evaluate_all("rows => rows.map(r => r.dataset.rolls)")
        assert rolls == [f"{mine} {theirs}" for mine, _m, theirs, _t in contest.throws]
        assert page.get_attribute("g.door[data-door='door2']", "data-open") == ("1" if contest.open else "0")
        assert page.get_attribute("g.door[data-door='door2']", "data-holder") == contest.winner
    assert hash_seq(watcher) == hash_seq(zombies) == hash_seq(survivors) == last_seq
    assert watcher.text_content("#hash") == survivors.text_content("#hash") == f"hash ✓ seq {last_seq}"
    logged = watcher.locator("#log li[data-type='DoorContested']")
    assert logged.count() == 1 and "SK-10" in logged.text_content()
    assert watcher.problems == [] and zombies.problems == [] and survivors.problems == []

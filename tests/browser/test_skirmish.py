"""The skirmish pages against a real server and Chromium: a door contest between two seats, watched;
a path planned by waypoints, refused at its illegal step, then walked; a door whose holder falls
(skirmish-3, SK-7).

In skirmish/purge the zombies' seat moves Zombie 3 next to the safe room's south door by clicking a
highlighted square, ends its activation and opens the door (SK-7); the survivors' seat activates Ben
and contests the door to shut it (SK-10). A spectator's page shows the grid, the costs, the sight
lines and the contest with both rolls and both bonuses, and every page's hash matches.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from events.games import load
from events.games.skirmish.model import Activate, Attack, ContestDoor, DecideDoor, EndActivation, Move
from events.log import Table
from server.scenarios import load as load_scenario
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.server.client import Client, command_json
from tests.server_fixture import seeded_game

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
    """The server derives each command's dice from the game's secret and its first seq (CORE-1), and
    ``seeded_game`` stores the game with SEED's secret, so the same commands played here give the
    server's contest."""
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
    created = seeded_game(server, "skirmish/purge", SEED)
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


def test_sk_1_a_path_built_by_waypoints_is_refused_at_its_illegal_step_then_walked(server, new_context):
    """SK-1, SK-C2, SK-6 in skirmish/hangar: the troopers' seat activates Trooper 1 at G2 and plans
    G2 → F1 → E1 → D1 by clicking squares, each step's running cost on its square (2, 3, 4);
    sent, the path is refused at step 3, across the wall D1|E1, with SK-1; the last waypoint
    undone, the path G2 → F1 → E1 is walked as chosen. The blast door two squares wide is one door,
    drawn as one leaf along both its edges; a single click still moves by the cheapest path, and a
    click on an ally while planning is a waypoint on its square (SK-C2: through allies)."""
    created = seeded_game(server, "skirmish/hangar", SEED)
    troopers = open_page(new_context(), f"{server.base_url}{created['seats']['troopers']['link']}")
    # Check the blast door is one door: one leaf two squares long (D2|E2 and D3|E3), three doors in all.
    assert troopers.locator("g.door").count() == 3
    door1 = "g.door[data-door='door1']"
    assert troopers.get_attribute(door1, "data-edges") == "2"
    y1, y2 = (int(troopers.get_attribute(f"{door1} line.leaf", name)) for name in ("y1", "y2"))
    assert y2 - y1 == 2 * 46
    assert troopers.text_content(f"{door1} title") == "door 1: closed, held by nobody, 2 squares wide"  # the name i18n gives it

    # Check the planner: only once a figure of this seat acts; then waypoints and running costs.
    assert troopers.locator("#info .planner button").count() == 0
    click_button(troopers, "Activate Trooper 1")
    troopers.wait_for_selector("#info .planner button.plan-start")
    assert "choose a highlighted square" in troopers.text_content("#actions .prompt")
    troopers.click("#info .planner button.plan-start")
    for square, cost in (("F1", "2"), ("E1", "3"), ("D1", "4")):
        troopers.click(f"g.sq[data-square='{square}']")
        troopers.wait_for_selector(f"g.sq[data-square='{square}'][data-plan-cost='{cost}']")
        assert troopers.text_content(f"g.sq[data-square='{square}'] text.cost") == cost
    assert troopers.text_content("#info .plan-summary") == "Trooper 1: G2 → F1 → E1 → D1, 4 of 12 movement points"
    assert troopers.get_attribute("polyline.plan", "data-path") == "F1 E1 D1"

    # Check the engine refuses the illegal step with its clause and the step, and nothing moves.
    troopers.click("#info .planner button.plan-go")
    troopers.wait_for_selector("#log li.rejected[data-rule='SK-1']")
    reason = troopers.text_content("#log li.rejected[data-rule='SK-1'] .reason")
    assert reason == "step 3, E1→D1: crosses the wall D1|E1: a wall stops movement"
    assert troopers.get_attribute("g.fig[data-figure='tk1']", "data-at") == "G2"

    # Check undoing the last waypoint and sending walks the chosen path, logged as chosen.
    troopers.click("#info .planner button.plan-undo")
    troopers.wait_for_function("document.querySelector(\"g.sq[data-square='D1']\").dataset.planCost === ''")
    troopers.click("#info .planner button.plan-go")
    troopers.wait_for_function("document.querySelector(\"g.fig[data-figure='tk1']\").dataset.at === 'E1'")
    moved = troopers.locator("#log li[data-type='FigureMoved']").last.text_content()
    assert "Trooper 1 moves G2 → F1 → E1 (3 movement points, the path its side chose)" in moved
    assert troopers.get_attribute("polyline.route", "data-path") == "F1 E1"
    assert troopers.get_attribute("#info .planner", "data-planning") == "0"  # the plan is spent

    # Check one click on a highlighted square still moves by the cheapest path.
    troopers.click("g.sq[data-square='F1']")
    troopers.wait_for_function("document.querySelector(\"g.fig[data-figure='tk1']\").dataset.at === 'F1'")

    # Check a waypoint on an ally (a click on Trooper 2's figure at G4) plans a path through it.
    troopers.click("#info .planner button.plan-start")
    for square in ("F2", "F3"):
        troopers.click(f"g.sq[data-square='{square}']")
    troopers.click("g.fig[data-figure='tk2']")
    troopers.click("g.sq[data-square='G5']")
    troopers.wait_for_selector("g.sq[data-square='G5'][data-plan-cost='5']")
    troopers.click("#info .planner button.plan-go")
    troopers.wait_for_function("document.querySelector(\"g.fig[data-figure='tk1']\").dataset.at === 'G5'")
    assert troopers.get_attribute("polyline.route", "data-path") == "F2 F3 G4 G5"
    assert troopers.problems == []


# A 4 × 3 room with door1 between B2 and C2; b's Attack 60 hits whatever its d20 shows, and its 10 damage
# takes all of a's 10 hit points.
FALLEN = {"game": "skirmish", "title": "A door held to the last", "sides": ["red", "blue"],
          "map": {"name": "one door", "rows": ["+-+-+-+-+", "|. . . .|", "+ + + + +", "|. .D. .|", "+ + + + +",
                                                "|. . . .|", "+-+-+-+-+"]},
          "figures": [{"id": "a", "side": "red", "name": "Ada", "attack": 4, "defense": 12, "speed": 6, "hp": 10,
                       "at": "B2"},
                      {"id": "r", "side": "red", "name": "Rob", "attack": 4, "defense": 12, "speed": 6, "hp": 10,
                       "at": "A1"},
                      {"id": "b", "side": "blue", "name": "Bea", "attack": 60, "defense": 12, "speed": 6, "hp": 10,
                       "at": "C2", "damage": 10}]}


def test_sk_7_a_watcher_sees_a_defeated_holders_door_stay_open_and_held_by_nobody(server, new_context):
    """SK-7 (skirmish-3): Ada opens door1 and holds it; Bea defeats her. The watch page's log says Ada no
    longer holds door 1, which stays open, citing SK-7; the door is drawn open with no holder, and the
    side panel says it is held by nobody, Ada being defeated. The page's hash matches the server's."""
    created = seeded_game(server, FALLEN, SEED)
    script = [("red", Activate("a")), ("red", EndActivation("a")), ("red", DecideDoor("a", "door1", True)),
              ("blue", Activate("b")), ("blue", Attack("b", "a"))]

    async def play() -> int:
        seats = await Client.join_seats(server.ws_url, created)
        last = 0
        for number, (seat, command) in enumerate(script):
            answer = await seats[seat].command(f"f-{number}", *command_json(command))
            assert answer["type"] == "ack", answer
            last = answer["last"]
        for client in seats.values():
            await client.close()
        return last

    # Playwright's sync API holds this thread's event loop: the seats play in a thread of their own.
    with ThreadPoolExecutor(1) as thread:
        last_seq = thread.submit(asyncio.run, play()).result()
    watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    wait_seq(watcher, last_seq)
    logged = watcher.locator("#log li[data-type='DoorHolderDefeated']")
    assert logged.count() == 1
    assert "Ada no longer holds door 1, which stays open" in logged.text_content()
    assert "SK-7" in logged.text_content()
    assert watcher.locator("#log li[data-type='DoorReleased']").count() == 0
    assert watcher.get_attribute("g.door[data-door='door1']", "data-open") == "1"
    assert watcher.get_attribute("g.door[data-door='door1']", "data-holder") == ""
    assert watcher.text_content("li.door-state[data-door='door1']") == "door 1: open, held by nobody (Ada is defeated)"
    assert watcher.text_content("#hash") == f"hash ✓ seq {last_seq}"
    assert watcher.problems == []

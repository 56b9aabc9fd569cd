"""The arkham board in the browser: a move with monsters in the way (evade, then combat) played by
two seats and watched by a spectator; then the replay page reproduces it event by event.

The server draws each command's dice from the game's secret and its seq (CORE-1), so the test
first finds, in process, a local seed whose secret gives the story it wants (the Zombie evaded,
the Ghoul beaten in one round), stores the game with that secret (``seeded_game``), then plays it
through the real pages.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

import events.games
from events.games.arkham.model import Evade, Fight, Move
from events.log import Accepted, Table
from server import scenarios
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.server_fixture import create_game, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

GAME = events.games.load("arkham")
SCENARIO = "arkham/monster-street"


def story_seed() -> int:
    """A seed where red's Zombie evade passes and its first Combat check beats the Ghoul."""
    _name, data = scenarios.load(SCENARIO)
    for seed in range(1, 500):
        table = Table.create(GAME, "probe", data, seed)
        steps = [Move("french_hill"), Evade("zombie"), Evade("ghoul"), Fight("ghoul")]
        outcomes = []
        for number, command in enumerate(steps):
            result = table.submit("red", command, f"probe-{number}")
            if not isinstance(result, Accepted):
                break  # the Zombie's evade failed: red is fighting it, not the Ghoul
            outcomes.append([envelope.type for envelope in result.envelopes])
        if len(outcomes) < len(steps):
            continue
        if outcomes[1][-1] == "MonsterEvaded" and "CombatBegan" in outcomes[2] and "MonsterDefeated" in outcomes[3]:
            return seed
    raise AssertionError("no seed in 1..499 gives the story")


def click_action(page, kind: str, label_part: str) -> None:
    page.click(f"#actions button[data-command='{kind}']:has-text('{label_part}')")


def test_ah_7_evade_then_combat_seen_by_two_seats_and_a_spectator_then_replayed(server, new_context):
    """AH-7 / AH-8 / AH-C1: red walks toward French Hill and stops among Rivertown's monsters (AH-7),
    evades the Zombie with dice shown, fails to evade the Ghoul (zero dice), fights it (AH-8) and wins;
    blue then ends its movement. Every page folds the same events with matching hashes, the log cites
    the clauses, and the replay page reproduces each seq's hash."""
    seed = story_seed()
    created = seeded_game(server, SCENARIO, seed)
    game_id = created["game"]
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    assert red.text_content("#who") == "You play red" and watcher.text_content("#who") == "Spectating"

    # Check the board: Streets, Locations, yellow lines (the unverified one dropped by this scenario),
    # the Other World cards, the Lost in Time and Space box, gates, clues, monsters, investigators.
    assert red.locator("g.area[data-kind='street']").count() == 9
    assert red.locator("g.area[data-kind='location']").count() == 26
    assert red.locator("g.world-card").count() == 8
    assert red.locator("g.area[data-area='lost_in_time_and_space']").count() == 1
    assert red.locator("line.yellow-line").count() == 37
    assert red.locator("line[data-line='downtown merchant_district']").count() == 0
    assert red.locator("g.gate[data-gate='black_cave']").count() == 1
    assert red.get_attribute("g.clue[data-area='library']", "data-count") == "2"
    assert red.get_attribute("g.monster[data-monster='ghoul']", "data-at") == "rivertown"

    # Check the reachable areas are highlighted with their cost (AH-2, AH-3), from the game's rules.
    assert red.get_attribute("g.area[data-area='rivertown']", "data-cost") == "1"
    assert red.get_attribute("g.area[data-area='french_hill']", "data-cost") == "2"
    assert red.get_attribute("g.area[data-area='library']", "data-cost") == "4"
    assert red.get_attribute("g.area[data-area='woods']", "data-dest") == "0"
    assert watcher.locator("g.area.clickable").count() == 0

    # Red clicks French Hill: the walk stops in Rivertown, where the monsters are (AH-7).
    red.click("g.area[data-area='french_hill']")
    for page in (red, blue, watcher):
        page.wait_for_function("() => document.querySelector(\"g.investigator[data-seat='red']\").dataset.at"
                               " === 'rivertown'")
    assert "AH-7" in red.text_content("p.prompt")

    # The evade: dice shown with their successes on every page.
    seq = hash_seq(red)
    click_action(red, "Evade", "Zombie")
    red.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=seq)
    wait_seq(watcher, hash_seq(red))
    dice = watcher.locator("#dice g.die")
    assert dice.count() == 3  # Sneak 2 + Awareness 1
    successes = watcher.locator("#dice g.die[data-success='1']").count()
    assert successes >= 1
    assert watcher.get_attribute("#dice .dice-summary", "data-successes") == str(successes)
    assert "passed" in watcher.text_content("#dice .dice-summary")

    # The Ghoul: Sneak 2 - 3 = no dice, the evade fails, combat begins (AH-8), the Horror check follows.
    click_action(red, "Evade", "Ghoul")
    red.wait_for_function("() => document.querySelector('p.prompt').dataset.phase === 'combat'")
    click_action(red, "Fight", "Ghoul")
    red.wait_for_function("() => document.querySelectorAll(\"g.monster[data-monster='ghoul']\").length === 0")
    assert "Ghoul" in red.text_content("tr.seat-row[data-seat='red'] td.trophies")
    click_action(red, "Stop", "End movement")
    blue.wait_for_function("() => { const b = document.querySelector(\"#actions button[data-command='Stop']\");"
                           " return b !== null && !b.disabled; }")

    # Blue, the second seat, ends its movement where it is.
    seq = hash_seq(blue)
    click_action(blue, "Stop", "End movement")
    blue.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=seq)
    # One command can log several events (the last Stop ends the phase): wait for the server's whole log,
    # not for the first of them to arrive.
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        head = sum(1 for line in response.read().decode().splitlines() if line.strip())
    for page in (red, blue, watcher):
        wait_seq(page, head)
    assert red.text_content("#hash") == blue.text_content("#hash") == watcher.text_content("#hash")

    # The log cites the clauses.
    combat = watcher.locator("#log li[data-type='CombatBegan']")
    assert combat.count() == 1 and "AH-8" in combat.text_content()
    assert "AH-C1" in watcher.locator("#log li[data-type='CheckRolled']").first.text_content()

    # The replay page reproduces every event, with the logged hash at each seq.
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        logged = [json.loads(line) for line in response.read().decode().splitlines() if line.strip()]
    assert len(logged) == head
    replay = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq=1")
    for envelope in logged:
        seq = envelope["seq"]
        if seq > 1:
            replay.click("button[data-step='forward']")
        try:
            replay.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=seq)
        except Exception:
            raise AssertionError(f"seq {seq}: {replay.problems} {replay.text_content('#hash')}") from None
        assert replay.get_attribute("#hash", "data-hash") == envelope["hash"], seq
        assert replay.get_attribute("#log li.event:last-child", "data-type") == envelope["type"]
    assert replay.text_content("#hash").startswith(f"hash ✓ seq {head}")
    for page in (red, blue, watcher, replay):
        assert page.problems == [], page.problems


def test_ah_11_a_click_on_a_highlighted_gate_returns_through_it(server, new_context):
    """AH-11: back from R'lyeh, the two gates are highlighted; a click sends Return (not Move) and the
    investigator comes back with its Explored marker; Lost in Time and Space holds blue (AH-12)."""
    created = create_game(server.base_url, scenario="arkham/other-world")
    watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    shown = sorted(red.eval_on_selector_all("g.area[data-dest='1']", "gs => gs.map(g => g.dataset.area)"))
    assert shown == ["graveyard", "the_witch_house"]
    assert red.get_attribute("p.prompt", "data-phase") == "return"
    red.click("g.area[data-area='the_witch_house']")
    watcher.wait_for_function("() => document.querySelector(\"g.investigator[data-seat='red']\").dataset.at"
                              " === 'the_witch_house'")
    assert watcher.locator("g.investigator[data-seat='red'] text.explored").count() == 1
    returned = watcher.locator("#log li[data-type='ReturnedThroughGate']")
    assert returned.count() == 1 and "AH-11" in returned.text_content()
    red.click("#actions button[data-command='Stop']")
    watcher.wait_for_function("() => document.querySelector(\"g.investigator[data-seat='blue']\").dataset.at"
                              " === 'lost_in_time_and_space'")
    assert "blue" in watcher.text_content("p.lost-box")
    assert red.problems == [] and watcher.problems == []


def test_ah_3_a_path_built_by_waypoints_shows_each_steps_cost_and_its_illegal_step_is_refused(server, new_context):
    """AH-3 / AH-7: red builds a path by clicking waypoints: Rivertown (step 1), then the Library, whose
    cheapest way from there fills in steps 2-4 (each area showing its cost as the path grows); undo
    and re-click; on confirm the server refuses step 2 under AH-7 (Rivertown's monsters stop the walk)
    and the page shows the clause. One click on Rivertown then still walks the cheapest route."""
    created = create_game(server.base_url, scenario=SCENARIO)
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")

    # Check a one-click move is still on offer, then start building a path.
    assert red.get_attribute("g.area[data-area='rivertown']", "data-cost") == "1"
    red.click("#actions button[data-path-action='start']")
    red.wait_for_selector("#path-plan")
    assert red.locator("#actions button[data-path-action='cancel']").count() == 1

    # Waypoint 1: Rivertown, one step; its neighbours now offer step 2.
    red.click("g.area[data-area='rivertown']")
    red.wait_for_function("() => document.querySelector(\"g.area[data-area='rivertown']\").dataset.step === '1'")
    assert red.get_attribute("g.area[data-area='french_hill']", "data-cost") == "2"
    assert red.get_attribute("g.investigator[data-seat='red']", "data-at") == "graveyard"  # nothing sent yet

    # Waypoint 2: the Library, three lines on: its cheapest way (past French Hill's Cultist) fills in.
    red.click("g.area[data-area='library']")
    red.wait_for_function("() => document.getElementById('path-plan').dataset.steps === '4'")
    steps = {area: red.get_attribute(f"g.area[data-area='{area}']", "data-step")
             for area in ("rivertown", "merchant_district", "miskatonic_u", "library")}
    assert steps == {"rivertown": "1", "merchant_district": "2", "miskatonic_u": "3", "library": "4"}
    assert red.get_attribute("g.area[data-area='library']", "data-cost") == "4"
    assert "4 of 4 movement points" in red.text_content("#path-plan")
    assert red.get_attribute("polyline.route", "data-path") == "rivertown merchant_district miskatonic_u library"

    # Undo the last step, then click the Library again (now one line from the path's end).
    red.click("#actions button[data-path-action='undo']")
    red.wait_for_function("() => document.getElementById('path-plan').dataset.steps === '3'")
    assert red.get_attribute("g.area[data-area='library']", "data-step") == ""
    red.click("g.area[data-area='library']")
    red.wait_for_function("() => document.getElementById('path-plan').dataset.steps === '4'")

    # Confirm: the server refuses the first illegal step, step 2, with its clause.
    red.click("#actions button[data-path-action='confirm']")
    red.wait_for_selector("#log li.rejected[data-rule='AH-7']")
    refused = red.locator("#log li.rejected[data-rule='AH-7']").text_content()
    assert "step 2" in refused and "Rivertown" in refused and "Move along" in refused
    assert "AH-7" in red.text_content("#notice")
    assert red.get_attribute("g.investigator[data-seat='red']", "data-at") == "graveyard"
    assert red.locator("#path-plan").count() == 0  # the confirmed path is gone

    # One click on a destination still takes the cheapest route.
    red.click("g.area[data-area='rivertown']")
    red.wait_for_function("() => document.querySelector(\"g.investigator[data-seat='red']\").dataset.at"
                          " === 'rivertown'")
    # The move's route is drawn (the newest InvestigatorMoved of this turn), no longer a plan.
    assert red.get_attribute("polyline.route", "data-path") == "rivertown"
    assert red.get_attribute("polyline.route", "visibility") == "visible"
    assert red.get_attribute("polyline.route", "data-building") == "0"
    assert red.problems == [], red.problems


def test_ah_3_a_tap_on_the_last_moves_route_reaches_the_area_under_it(server, new_context):
    """AH-3: the dashed route of the last move runs through the centres of the areas it crossed; it was
    drawn over them and took the taps, so on a phone a tap at an area's centre on the route did nothing.
    The route lets every tap through to the area below (as mecha's last move does)."""
    created = seeded_game(server, "arkham/crossing", 3)
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    before = hash_seq(red)
    red.locator("svg.arkham g.area.dest.clickable").first.click()
    red.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=before)
    red.wait_for_selector("svg.arkham polyline.route[visibility='visible']", state="attached")
    under = red.evaluate("""() => {
        const route = document.querySelector('svg.arkham polyline.route');
        const matrix = route.getScreenCTM();
        return [...route.points].map(point => {
            const at = new DOMPoint(point.x, point.y).matrixTransform(matrix);
            const hit = document.elementFromPoint(at.x, at.y);
            return hit === route ? 'route' : (hit && hit.closest('g.area') ? 'area' : String(hit && hit.tagName));
        }); }""")
    assert len(under) >= 2 and "route" not in under, under
    assert red.problems == []


def test_ah_c10_a_waiting_investigator_offers_a_trade_from_its_page_and_the_mover_answers(server, new_context):
    """AH-C10 (arkham-5): 'investigators in the same area may trade items before, during or after movement'.
    With red and blue both in the Graveyard, blue's page (red is moving) offers blue's Old Journal to red with a
    button it may press; red's page then asks red to answer; the watcher's log shows the offer and the answer."""
    _name, data = scenarios.load("arkham/crossing")
    data = json.loads(json.dumps(data))
    for investigator in data["investigators"]:
        investigator["at"] = "graveyard"
    created = create_game(server.base_url, scenario=data)
    game_id = created["game"]
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    assert blue.get_attribute("#actions .prompt", "data-turn") == "waiting"
    offers = blue.locator("#actions button[data-command='OfferTrade'][data-off-turn='1']")
    assert offers.count() >= 1
    assert all(offers.nth(i).get_attribute("disabled") is None for i in range(offers.count()))
    assert red.locator("#actions button[data-off-turn='1']").count() == 0  # the mover's own buttons are its turn's
    blue.locator("#actions button[data-command='OfferTrade'][data-off-turn='1']:has-text('Old Journal')").first.click()
    wait_seq(watcher, 2)
    assert watcher.locator("#log li[data-type='TradeOffered']").count() == 1
    red.wait_for_selector("#actions button[data-command='AnswerTrade']")
    red.locator("#actions button[data-command='AnswerTrade']").first.click()
    watcher.wait_for_function("() => document.querySelectorAll(\"#log li[data-type='TradeAnswered']\").length === 1")
    assert "AH-C10" in watcher.locator("#log li[data-type='TradeOffered']").text_content()
    wait_seq(red, hash_seq(watcher))
    wait_seq(blue, hash_seq(watcher))
    assert red.get_attribute("#hash", "data-hash") == blue.get_attribute("#hash", "data-hash") == \
        watcher.get_attribute("#hash", "data-hash")
    assert red.problems == [] and blue.problems == [] and watcher.problems == []


def test_ah_c10_under_arkham_4_a_waiting_investigator_is_offered_no_trade(server, new_context):
    """AH-C10 as arkham-4 built it: only the moving investigator offers trades, so a waiting seat's page shows
    no trade button for a game played under arkham-4 (the version in force decides, not the newest)."""
    _name, data = scenarios.load("arkham/crossing")
    data = json.loads(json.dumps(data))
    for investigator in data["investigators"]:
        investigator["at"] = "graveyard"
    created = seeded_game(server, data, 1, rules_version="arkham-4")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    assert blue.get_attribute("#actions .prompt", "data-turn") == "waiting"
    assert blue.locator("#actions button[data-off-turn='1']").count() == 0
    assert blue.problems == []

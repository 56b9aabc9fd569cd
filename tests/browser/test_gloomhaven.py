"""Gloomhaven in the browser: secret picks, the initiative track, a monster's turn with its focus
trace and animated move, and the options offered when the players must choose (GH-C2, GH-6, GH-C4)."""

from __future__ import annotations

import json

import pytest

import events.games
from events.games.gloomhaven.model import SelectCards
from events.log import Table
from server import scenarios
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

RED_PICK = ("br-06", "br-01")  # leading 87: the bandits act first
BLUE_PICK = ("ti-05", "ti-08")  # leading 85


def a_seed_with_a_choice() -> int:
    """A seed whose first round, after these two picks, makes a monster offer equally good options.

    The server derives each command's draws from the game's secret and the seq (CORE-1), and
    ``seeded_game`` stores the game with this seed's secret, so playing the same commands here
    gives the very game the pages will show.
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


def red_holding_move_3(server, new_context, scenario, locale: str | None = None) -> tuple:
    """A game of ``scenario`` (a barrow), seed 1, on red's and blue's pages (red's in ``locale``), both picked,
    red first (15) with its move 3 (br-07's bottom half) chosen: (red's page, blue's page)."""
    created = seeded_game(server, scenario, 1)  # red (15) acts first after these picks
    options = {"locale": locale} if locale else {}
    red = open_page(new_context(**options), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    pick_in_panel(red, ("br-08", "br-07"))
    pick_in_panel(blue, ("ti-04", "ti-05"))
    half = ".my-cards button.half[data-card='br-07'][data-half='bottom']"  # move 3
    red.wait_for_selector(half)
    red.click(half)
    return red, blue


def test_gh_c2_secret_picks_then_a_monster_turn_with_its_trace_and_the_players_choice(server, new_context):
    """GH-C2, GH-6, GH-C4: red's pick stays hidden on blue's and the spectator's pages; after the
    reveal a bandit's turn shows its focus trace; its tied options are offered and chosen by click."""
    seed = a_seed_with_a_choice()
    created = seeded_game(server, "gloomhaven/barrow", seed)
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
    # Check: every destination weighed is listed with the step that kept or dropped it (GH-C8, GH-C9).
    assert trace.locator("li.destination.kept").count() >= 1 and "GH-C" in trace.locator("li.destination").first.text_content()
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


def test_gh_4_a_path_built_by_waypoints_with_its_cost_then_an_illegal_step_refused(server, new_context):
    """GH-4 (issue 15): red builds a path by clicking waypoints, the cost growing as it goes; a path into the
    obstacle at [1, 3] is refused at that step with its clause; a costlier route than the cheapest is walked as
    built; a single click on a destination still takes the cheapest path."""
    red, blue = red_holding_move_3(server, new_context, "gloomhaven/barrow")

    # Check: waypoints: [0, 3] is one step (cost 1), then [1, 3], the obstacle, one more (cost 2): refused there.
    red.click("button.build-path")
    red.click("g.cell[data-hex='0,3']")
    red.wait_for_selector(".path-cost[data-cost='1']")
    red.click("g.cell[data-hex='1,3']")
    red.wait_for_selector(".path-cost[data-cost='2'][data-steps='2']")
    assert red.locator("polygon.path").count() == 2
    red.click("button.confirm-path")
    red.wait_for_function("() => document.querySelector('#notice').textContent.includes('step 2')")
    notice = red.text_content("#notice")
    assert "GH-4" in notice and "step 2 ([0, 3] → [1, 3]): hex [1, 3] holds an obstacle" in notice

    # Check: [0, 3], then a click on [2, 2] two hexes on adds the cheapest way there: 3 points, not the 2 of the
    # direct route; confirmed, red walks exactly that and the log shows it.
    red.click("button.build-path")
    red.click("g.cell[data-hex='0,3']")
    red.click("g.cell[data-hex='2,2']")
    red.wait_for_selector(".path-cost[data-cost='3'][data-steps='3']")
    assert "[0, 3] (1) → [1, 2] (2) → [2, 2] (3) · 3 of 3 movement points" in red.text_content(".path-cost")
    red.click("button.confirm-path")
    red.wait_for_selector("#log li[data-type='FigureMoved']")
    assert "[0, 2] → [0, 3] → [1, 2] → [2, 2]" in red.text_content("#log li[data-type='FigureMoved']")
    red.wait_for_function("() => document.querySelector(\"g.figure[data-figure='red']\").dataset.at === '2,2'")
    assert red.problems == [] and blue.problems == []


SOLVE = '''
import json
from events.canonical import canonical_json
from events.games.gloomhaven.board import load_position
from events.games.gloomhaven.focus import Attack, Body, Field, monster_turn
from events.geometry.hexmap import HexMap


def solve(position):
    game_map, _level, figures, _acting = load_position(position)
    bodies = tuple(Body(f.id, f.hex, "monsters" if f.side == "monster" else "players", i + 1, f.initiative)
                   for i, f in enumerate(figures))
    field = Field(HexMap(game_map.hexes, game_map.thin_walls, game_map.doors), frozenset(game_map.obstacles),
                  frozenset(game_map.traps), frozenset(game_map.hazardous), frozenset(game_map.difficult), bodies)
    actor = figures[0]
    attack = None if actor.attack is None else Attack(*actor.attack)
    mode = "fly" if actor.flying else ("jump" if actor.jump else "walk")
    return monster_turn(field, actor.id, actor.move, attack, mode, actor.muddled).to_data()


RESULT = canonical_json([solve(position) for position in json.loads(POSITIONS)])
'''


def test_gh_c7_the_browser_plans_monster_turns_exactly_as_cpython(server, new_context):
    """GH-C7…GH-C10 run unchanged in Brython: the same positions (sight round walls, areas, extra targets, a
    jump, a flyer) give the same plans, traces included, byte for byte, in the page and in CPython."""
    from bench.gloomhaven import positions

    chosen = [position for index, (_kind, position) in enumerate(positions()) if index % 12 in (1, 6)]
    source = "POSITIONS = " + repr(json.dumps(chosen)) + "\n" + SOLVE
    scope: dict = {}
    exec(source, scope)  # noqa: S102 - the very source the page runs
    created = seeded_game(server, "gloomhaven/barrow", 1)
    page = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    page.evaluate("src => __BRYTHON__.runPythonSource(src + '\\nfrom browser import window\\n"
                  "window.chronicle_probe = RESULT\\n', {id: 'probe'})", source)
    page.wait_for_function("() => typeof window.chronicle_probe === 'string'", timeout=120_000)
    assert page.evaluate("() => window.chronicle_probe") == scope["RESULT"]
    assert page.problems == []


def test_gh_3_a_one_click_move_in_a_gloomhaven_1_game_sends_the_path_its_rules_take(server, new_context):
    """GH-3 (issue 19): gloomhaven-1's PlayCard names its path (a destination alone, ``to``, came with
    gloomhaven-2 and is refused there), so one click on a destination in a gloomhaven-1 game sends the path
    that version's own rules offer to it; the move is accepted and walked, and the log holds that path."""
    import urllib.request

    created = seeded_game(server, "gloomhaven/barrow", 1, rules_version="gloomhaven-1")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    assert red.get_attribute("#rules-version", "data-version") == "gloomhaven-1"
    pick_in_panel(red, ("br-08", "br-07"))  # red (15) acts first, as in the gloomhaven-2 test above
    pick_in_panel(blue, ("ti-04", "ti-05"))
    half = ".my-cards button.half[data-card='br-07'][data-half='bottom']"  # move 3
    red.wait_for_selector(half)
    red.click(half)
    # Check: one click on [2, 2], two hexes away: red walks gloomhaven-1's path there, refused nowhere.
    red.click("g.cell[data-hex='2,2']")
    red.wait_for_selector("#log li[data-type='FigureMoved']")
    assert "[0, 2] → [1, 2] → [2, 2]" in red.text_content("#log li[data-type='FigureMoved']")
    red.wait_for_function("() => document.querySelector(\"g.figure[data-figure='red']\").dataset.at === '2,2'")
    assert "GH-3" not in red.text_content("#notice")
    # Check: the logged command is gloomhaven-1's own shape: a path, no destination.
    with urllib.request.urlopen(f"{server.base_url}/api/games/{created['game']}/log", timeout=10) as response:
        raws = [json.loads(line) for line in response.read().decode().splitlines()]
    moved = next(raw for raw in raws if raw["type"] == "FigureMoved")
    assert moved["command"]["data"]["path"] == [[1, 2], [2, 2]] and moved["command"]["data"].get("to") is None
    assert red.problems == [] and blue.problems == []


def test_gh_v1_gh_v2_a_variant_game_says_its_rules_and_the_page_folds_them(server, new_context):
    """GH-V1, GH-V2 (issue 19): a game of ``gloomhaven/jotl-barrow`` (newest rules, gloomhaven-7, ``"variant": "jotl"``)
    says on the play page and the watch page that Jaws of the Lion's rules are in force, with both clauses;
    red's jump built onto the difficult hex [1, 2] costs 1 (GH-V2, not GH-5's 2) and its move cites GH-V2;
    the pages fold every turn under the variant and every hash matches the server's."""
    created = seeded_game(server, "gloomhaven/jotl-barrow", 1)
    watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    for page in (watcher, red):
        box = "#rules-version"
        assert page.get_attribute(box, "data-version") == "gloomhaven-7"
        assert page.get_attribute(box, "data-variant") == "jotl"
        line = page.text_content(f"{box} .rules-variant")
        assert "Rules variant: Jaws of the Lion" in line and "GH-V1" in line and "GH-V2" in line
        assert page.locator(f"{box} .rules-variant .clause[data-rule='GH-V2']").count() == 1
    pick_in_panel(red, ("br-04", "br-08"))  # leading Provoking Roar (10): red acts first
    pick_in_panel(blue, ("ti-04", "ti-05"))
    half = ".my-cards button.half[data-card='br-04'][data-half='bottom']"  # jump 2
    red.wait_for_selector(half)
    red.click(half)
    red.click("button.build-path")
    red.click("g.cell[data-hex='1,2']")
    red.wait_for_selector(".path-cost[data-cost='1'][data-steps='1']")
    red.click("button.confirm-path")
    red.wait_for_selector("#log li[data-type='FigureMoved']")
    assert "GH-V2" in red.text_content("#log li[data-type='FigureMoved']")
    import urllib.request

    with urllib.request.urlopen(f"{server.base_url}/api/games/{created['game']}/log", timeout=10) as response:
        raws = [json.loads(line) for line in response.read().decode().splitlines()]
    moved = next(raw for raw in raws if raw["type"] == "FigureMoved")
    assert moved["rule"] == "GH-V2" and moved["data"]["path"] == [[1, 2]] and moved["data"]["cost"] == 1
    wait_seq(watcher, len(raws))  # every event the server logged, folded under the variant, its hash checked
    assert watcher.get_attribute("#rules-version", "data-variant") == "jotl"
    assert watcher.problems == [] and red.problems == [] and blue.problems == []


@pytest.mark.parametrize("locale, words", [
    ("fr-FR", "aucune carte n’est choisie : choisissez d’abord la moitié haute ou basse"),
    ("ru-RU", "карта не выбрана: сначала выберите верхнюю или нижнюю половину"),
])
def test_gh_3_a_hex_tapped_before_a_half_is_chosen_says_to_choose_a_half(server, new_context, locale, words):
    """GH-3: red's turn, no half chosen yet, and red taps a hex: the refusal says to choose a half of one
    of its two cards first (it said "card '' is not one of red's two cards in play", the empty card the
    page sends for a hex tapped with no half)."""
    created = seeded_game(server, "gloomhaven/barrow", 1)  # red (15) acts first after these picks
    red = open_page(new_context(locale=locale), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    pick_in_panel(red, ("br-08", "br-07"))
    pick_in_panel(blue, ("ti-04", "ti-05"))
    red.wait_for_selector(".my-cards button.half[data-card='br-07'][data-half='bottom']")
    red.click("g.cell[data-hex='0,3']")
    rejected = red.locator("#log li.rejected")
    rejected.wait_for()
    assert rejected.get_attribute("data-rule") == "GH-3"
    notice = red.text_content("#notice")
    assert words in notice and "''" not in notice, notice
    assert red.problems == [] and blue.problems == []


def test_gh_c2_the_russian_seats_table_stays_in_its_panel_on_a_desktop_and_a_tablet(server, new_context):
    """GH-C2's picking round, watched in Russian: the seats table (seat, class, health, hand, discard, lost,
    "выбирает…") is wider than the panel's share of the page and overflowed it, past the window's edge,
    at 1280 px (11 px) and 1024 px (114 px). The panel now takes its table's width and the board the rest."""
    created = seeded_game(server, "gloomhaven/barrow", 1)
    page = open_page(new_context(locale="ru-RU"), f"{server.base_url}{created['spectate']}")
    for width in (1280, 1024, 901):
        page.set_viewport_size({"width": width, "height": 800})
        page.wait_for_timeout(100)
        table, side, board = page.evaluate("""() => [document.querySelector('table.seats'),
            document.querySelector('.side'), document.querySelector('.board-area')]
            .map(node => Math.round(node.getBoundingClientRect().right))""")
        assert page.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0, width
        assert table <= side <= width and board < side, (width, table, side, board)
    assert page.problems == []

"""Clear at a glance (issue 17, part B): what a player may click is marked, what a button will roll
is said before it is pressed, the prompt's words are the game's, the board zooms by touch.

Each test plays a real game on the real server and reads what Chromium drew (computed styles, the
SVG's own geometry), not the page's source.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import READY_TIMEOUT_MS, open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

DEST_FILL = "rgb(255, 216, 77)"  # --dest in style.css


def fill_of(page, selector: str) -> list:
    return page.eval_on_selector_all(selector, "nodes => nodes.map(n => getComputedStyle(n).fill)")


def test_gh_4_the_chosen_half_marks_its_legal_hexes_and_is_shown_chosen(server, new_context):
    """GH-4, GH-C2: after the picks, the acting seat clicks a move half: the half reads as pressed and
    the hexes it can reach are filled (style.css had no rule for ``.hex.reach``), with a tooltip
    that says what a click does."""
    created = seeded_game(server, "gloomhaven/barrow", 3)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)  # both secret picks: the first character acts
        seat = script.current_seat()
    page = open_page(new_context(), f"{server.base_url}{created['seats'][seat]['link']}")
    assert page.locator(".gloomhaven-board .hex.reach").count() == 0
    half = page.locator(".my-cards button.half", has_text="move").first
    half.click()
    page.wait_for_function("() => document.querySelectorAll('.gloomhaven-board .hex.reach').length > 0")
    # Check: the half is pressed, for the eye (its colours) and for a screen reader (aria-pressed).
    chosen = page.locator(".my-cards button.half.chosen")
    assert chosen.count() == 1 and chosen.get_attribute("aria-pressed") == "true"
    assert chosen.evaluate("n => getComputedStyle(n).backgroundColor") == "rgb(47, 95, 196)"
    # Check: every reachable open hex is drawn in the destination colour, the others are not;
    # reachable hazardous or difficult terrain keeps its colour inside a ring of it.
    assert set(fill_of(page, ".gloomhaven-board g.cell[data-terrain='open'] > .hex.reach")) == {DEST_FILL}
    assert DEST_FILL not in fill_of(page, ".gloomhaven-board .hex:not(.reach)")
    rings = page.eval_on_selector_all(
        ".gloomhaven-board g.cell:is([data-terrain='hazardous'], [data-terrain='difficult']) > .hex.reach",
        "nodes => nodes.map(n => [getComputedStyle(n).fill, getComputedStyle(n).stroke])")
    assert all(fill != DEST_FILL and stroke == "rgb(217, 164, 0)" for fill, stroke in rings), rings
    # Check: the tooltip names the hex and what a click does; the cell is reachable by keyboard.
    cell = page.locator(".gloomhaven-board g.cell:has(> .hex.reach)").first
    assert "a legal hex for the chosen card half: choose it" in cell.locator("title").text_content()
    assert cell.get_attribute("tabindex") == "0" and cell.get_attribute("role") == "button"
    assert page.problems == []


def test_ah_c1_evade_buttons_show_their_dice_and_the_prompt_says_fight_first(server, new_context):
    """AH-7, AH-C1: red walks into Rivertown (a Ghoul and a Zombie): the prompt says to face them
    first, not to click an area, and each Evade button says its dice before it is pressed."""
    created = seeded_game(server, "arkham/monster-street", 3)
    page = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    page.click("g.area[data-area='rivertown']")
    page.locator("button[data-command='Evade']").first.wait_for()
    labels = sorted(page.eval_on_selector_all("button[data-command='Evade']", "bs => bs.map(b => b.textContent)"))
    # Sneak 2 + awareness: the Ghoul's -3 leaves no die; the Zombie's +1 gives 3.
    assert labels == ["Evade Ghoul (0 dice: fails without a roll)", "Evade Zombie (3 dice, 1 success needed)"]
    prompt = page.text_content("#actions .prompt")
    assert prompt == "Your movement: first fight or evade each monster here (Ghoul, Zombie):"
    assert "highlighted" not in prompt
    assert page.locator("g.area.dest").count() == 0
    assert page.problems == []


def test_ah_board_labels_read_at_11_px_at_1440_and_the_investigators_table_is_whole(server, new_context):
    created = seeded_game(server, "arkham/crossing", 3)
    page = open_page(new_context(), f"{server.base_url}{created['spectate']}")
    page.set_viewport_size({"width": 1440, "height": 900})
    page.wait_for_timeout(100)
    smallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll('svg.arkham text.area-name')]
        .map(t => parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))""")
    assert smallest >= 11, f"the smallest area label draws at {smallest:.1f} px"
    # Check: the last column of the investigators table is inside its panel.
    table, panel = page.evaluate("""() => [document.querySelector('table.seats').getBoundingClientRect().right,
        document.querySelector('aside.side').getBoundingClientRect().right]""")
    assert table <= panel
    assert page.problems == []


def test_sk_the_default_prompt_speaks_of_squares_not_locations(server, new_context):
    created = seeded_game(server, "skirmish/courtyard", 3)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(1)  # red activates a figure (SK-C5): its reachable squares are marked
        seat = script.current_seat()
    page = open_page(new_context(), f"{server.base_url}{created['seats'][seat]['link']}")
    prompt = page.text_content("#actions .prompt")
    assert "Location" not in prompt
    assert prompt.startswith("Your turn: choose a highlighted square")
    assert page.locator(".skirmish-board g.sq.reach").count() > 0
    assert set(fill_of(page, ".skirmish-board g.sq.reach rect.sq-floor")) == {"rgb(255, 241, 168)"}
    assert page.problems == []


def test_every_board_has_a_legend_and_says_what_it_does_not_model(server, new_context):
    for scenario in ("mecha/sample", "arkham/crossing", "gloomhaven/barrow", "echo/first-case", "skirmish/courtyard"):
        created = seeded_game(server, scenario, 3)
        page = open_page(new_context(), f"{server.base_url}{created['spectate']}")
        assert page.locator("#legend ul.legend li").count() >= 6, scenario
        assert page.locator("#legend .not-modelled").count() == 1, scenario
        page.close()
    arkham = open_page(new_context(), f"{server.base_url}{create_game(server.base_url, 'arkham/crossing')['spectate']}")
    assert "items carry no game effect" in arkham.text_content("#legend .not-modelled")


def test_zoom_buttons_and_a_two_finger_pinch_change_the_boards_view_a_drag_is_not_a_click(server, browser):
    """Zoom by buttons, pan by dragging, pinch by two touches (real touch events through Chromium's
    DevTools protocol); a drag that ends on a Location sends no move."""
    created = seeded_game(server, "mecha/sample", 11)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
        # On a phone mecha's board is drawn larger than the screen for its text (client/boardui.py READ_PX):
        # "show the whole board" fits it, and the zoom and the gestures start from there.
        assert page.get_attribute("#board", "class") == "board-box tap-scaled"
        page.click("button[data-zoom='zoom-reset']")
        assert page.get_attribute("#board", "class") == "board-box"
        box = page.get_attribute("svg.board", "viewBox")
        width = float(box.split()[2])
        # Check: the buttons zoom in, out, and back to the whole board.
        page.click("button[data-zoom='zoom-in']")
        assert float(page.get_attribute("svg.board", "viewBox").split()[2]) == pytest.approx(width / 2, rel=0.01)
        assert page.get_attribute("#board", "class") == "board-box zoomed"
        page.click("button[data-zoom='zoom-reset']")
        assert page.get_attribute("svg.board", "viewBox") == box
        # Check: two fingers moving apart zoom in around them.
        cdp = context.new_cdp_session(page)
        rect = page.locator("svg.board").bounding_box()
        cx, cy = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] / 2

        def touch(kind: str, spread: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": cx - spread, "y": cy, "id": 1}, {"x": cx + spread, "y": cy, "id": 2}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", 20)
        for spread in (30, 45, 60, 80):
            touch("touchMove", spread)
        touch("touchEnd", 0)
        zoomed = float(page.get_attribute("svg.board", "viewBox").split()[2])
        assert zoomed < width * 0.5, (zoomed, width)
        # Check: a one-finger drag that starts and ends on Locations pans and sends nothing (a click
        # on any Location sends Move: the server would answer with an event or a rejection).
        before = page.get_attribute("svg.board", "viewBox")
        seq = page.get_attribute("#hash", "data-seq")
        tx, ty = page.evaluate("""() => { const board = document.querySelector('svg.board').getBoundingClientRect();
            for (const node of document.querySelectorAll('g.loc')) {
                const r = node.getBoundingClientRect(), x = r.x + r.width / 2, y = r.y + r.height / 2;
                if (x > board.left + 10 && x < board.right - 60 && y > board.top && y < board.bottom
                    && document.elementFromPoint(x, y).closest('g.loc') === node) return [x, y];
            }
            return null; }""")
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": tx, "y": ty, "id": 3}]})
        for step in range(1, 6):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": tx + 8 * step, "y": ty, "id": 3}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        page.wait_for_timeout(300)
        assert page.get_attribute("svg.board", "viewBox") != before
        assert page.get_attribute("#hash", "data-seq") == seq
        assert page.locator("#log li.rejected").count() == 0
        assert page.problems == []
    finally:
        context.close()


def test_enter_on_a_focused_destination_moves_like_a_click(server, new_context):
    created = seeded_game(server, "mecha/sample", 11)
    page = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    target = page.locator("g.loc.dest[tabindex='0']").first
    number = target.get_attribute("data-number")
    target.focus()
    # Check: the focused destination shows it (the focus ring's colour, over the game's own stroke).
    assert target.locator("polygon.hex").evaluate("n => getComputedStyle(n).stroke") == "rgb(11, 87, 208)"
    page.keyboard.press("Enter")
    page.wait_for_function("n => document.querySelector(\"g.mech[data-seat='red']\").dataset.at === n", arg=number,
                           timeout=READY_TIMEOUT_MS)
    assert page.problems == []


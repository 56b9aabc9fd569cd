"""The table on a phone (375 × 667 CSS px, device scale 2, touch): every place of every game's board is
big enough for a finger, and a waiting seat's board has nothing to tap (client/boardui.py ``Zoom.fit_taps``,
client/pages/play.py). Real server, real Chromium, the boards as drawn: bounding boxes, not source."""

from __future__ import annotations

import pytest

from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True}
# Each game's places (client/boardui.py PLACES), with a scenario.
BOARDS = (("mecha/sample", "g.loc"), ("arkham/crossing", "g.area"), ("echo/first-case", "g.echo-loc"),
          ("skirmish/courtyard", "g.sq"), ("gloomhaven/barrow", "g.cell"))
TAP_PX = 44  # client/boardui.py TAP_PX (a Brython module: not importable here)
SIDES = "ns => ns.map(n => { const r = n.getBoundingClientRect(); return Math.min(r.width, r.height); })"


def test_every_place_of_the_five_boards_is_a_finger_wide_on_a_phone(server, browser):
    """WCAG 2.5.5 / Apple's HIG (44 CSS px): at 375 px wide arkham's areas were drawn 10-15 px across,
    echo's 19, skirmish's 35, gloomhaven's 39. A board whose smallest place would be under 44 px is
    drawn larger and scrolls inside its box; the page itself never scrolls sideways."""
    context = browser.new_context(locale="fr-FR", **PHONE)
    try:
        for scenario, places in BOARDS:
            created = seeded_game(server, scenario, 3)
            with ScriptedGame(server.ws_url, created) as script:
                seat = script.current_seat()
            page = open_page(context, f"{server.base_url}{created['seats'][seat]['link']}")
            sides = page.eval_on_selector_all(places, SIDES)
            assert sides and min(sides) >= TAP_PX - 0.5, (scenario, sorted(sides)[:3])
            assert page.evaluate("document.documentElement.scrollWidth") <= 375, scenario
            # Every board is drawn larger than the screen: mecha's hexes are 53 px, but its names were 6 px
            # (client/boardui.py READ_PX; tests/browser/test_phone_reading.py).
            scaled = page.get_attribute("#board", "class") == "board-box tap-scaled"
            assert scaled, scenario
            if scaled:
                # Check: "show the whole board" fits it to the screen, and pressed again gives it back to fingers.
                page.tap("button[data-zoom='zoom-reset']")
                assert page.get_attribute("#board", "class") == "board-box"
                assert page.locator("svg.board").bounding_box()["width"] <= 375
                page.tap("button[data-zoom='zoom-reset']")
                assert page.get_attribute("#board", "class") == "board-box tap-scaled"
            if scenario == "arkham/crossing":
                # Check: every name is drawn whole ("Perdu dans le Temps et" was cut without a sign, then "Loge du
                # Crépuscule…" with one): its tooltip starts with it; an Other World's two areas are numbered 1 and 2.
                labels = page.eval_on_selector_all("svg.arkham g.area", """gs => gs.map(g => [
                    [...g.querySelectorAll('text.area-name')].map(t => t.textContent).join(' '),
                    g.querySelector('title').textContent])""")
                cut = [(shown, title) for shown, title in labels if shown and not shown.isdigit()
                       and (shown.endswith("…") or not (title == shown or title.startswith(shown + " (")
                                                        or title.startswith(shown + " ·")))]
                assert cut == [], cut
            assert page.problems == [], scenario
            page.close()
    finally:
        context.close()


def test_ec_2_a_tap_on_a_scaled_board_moves_and_the_waiting_seat_reads_it_is_not_its_turn(server, browser):
    """EC-2 on a phone: the seat to play taps a highlighted location of echo's scaled board (the box
    opens scrolled to its options) and moves; the other seat's board, in Russian, has nothing to tap and
    says whom it waits for in the bar above the board."""
    created = seeded_game(server, "echo/first-case", 3)
    with ScriptedGame(server.ws_url, created) as script:
        seat = script.current_seat()
    other = next(name for name in created["seats"] if name != seat)
    mover_context = browser.new_context(locale="fr-FR", **PHONE)
    other_context = browser.new_context(locale="ru-RU", **PHONE)
    try:
        mover = open_page(mover_context, f"{server.base_url}{created['seats'][seat]['link']}")
        waiting = open_page(other_context, f"{server.base_url}{created['seats'][other]['link']}")
        assert waiting.locator("[data-pickable]").count() == 0
        assert waiting.locator("#board .clickable").count() == 0  # nothing drawn as its own to take
        assert waiting.get_attribute("#turn", "data-turn") == "waiting"
        assert waiting.text_content("#turn").startswith("Ждём:")
        # A tap on the waiting board sends nothing and says whom the game waits for.
        held = hash_seq(waiting)
        waiting.locator("#board g.echo-loc").first.tap()
        waiting.wait_for_selector("#notice.waiting")
        assert waiting.text_content("#notice").startswith("Сейчас не ваш ход"), waiting.text_content("#notice")
        assert hash_seq(waiting) == held and waiting.locator("#log li.rejected").count() == 0
        target = mover.locator("g.echo-loc[data-pickable='1']").first
        assert target.is_visible()
        before = hash_seq(mover)
        target.tap()
        mover.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=before)
        wait_seq(waiting, hash_seq(mover))
        assert mover.locator("#log li.rejected").count() == 0
        assert mover.problems == [] and waiting.problems == []
    finally:
        mover_context.close()
        other_context.close()


VISIBLE_TAPS = """() => { const box = document.getElementById('board'); const o = box.getBoundingClientRect();
  return [...box.querySelectorAll("[data-pickable='1']")].map(n => n.getBoundingClientRect())
    .filter(r => r.right > o.left && r.left < o.right && r.bottom > o.top && r.top < o.bottom).length; }"""


def test_ah_2_a_scaled_board_scrolls_to_the_seat_s_places_when_its_turn_comes(server, browser):
    """AH-2 on a phone: the seat opened its page while waiting (arkham's board, scaled for fingers,
    scrolled to its middle); when its turn comes the box scrolls to the areas its Move may reach, as a
    page opened then would (client/boardui.py ``BoardUI.drawn``)."""
    created = seeded_game(server, "arkham/crossing", 3)
    context = browser.new_context(locale="fr-FR", **PHONE)
    try:
        with ScriptedGame(server.ws_url, created) as script:
            mover = script.current_seat()
            other = next(name for name in created["seats"] if name != mover)
            page = open_page(context, f"{server.base_url}{created['seats'][other]['link']}")
            assert page.locator("#board.tap-scaled").count() == 1
            for _ in range(20):
                if script.current_seat() == other:
                    break
                script.play(1)
            wait_seq(page, script.table.seq)
            page.wait_for_selector("#board [data-pickable='1']")
            turned = page.evaluate(VISIBLE_TAPS)
            fresh = open_page(context, f"{server.base_url}{created['seats'][other]['link']}")
            assert turned == fresh.evaluate(VISIBLE_TAPS) > 0, (turned, fresh.evaluate(VISIBLE_TAPS))
            assert page.problems == [] and fresh.problems == []
    finally:
        context.close()


def test_gh_c2_a_tap_on_a_hex_while_cards_are_picked_sends_nothing_and_the_phone_page_passes_axe(server, browser):
    """GH-C2 on a phone: while the seats pick their cards a hex means nothing yet, so a tap on one sends no
    command the rules would refuse; and the seats table, wider than the panel, scrolls by keyboard too
    (axe's scrollable-region-focusable)."""
    from tests.browser import axe

    created = seeded_game(server, "gloomhaven/barrow", 3)
    context = browser.new_context(locale="ru-RU", **PHONE)
    try:
        page = open_page(context, f"{server.base_url}{created['seats']['blue']['link']}")
        held = hash_seq(page)
        page.locator("#board g.cell").nth(5).tap()
        page.wait_for_timeout(500)
        assert page.locator("#log li.rejected").count() == 0 and hash_seq(page) == held
        assert axe.serious(page) == []
        assert page.problems == []
    finally:
        context.close()

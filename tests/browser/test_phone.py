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
            scaled = page.get_attribute("#board", "class") == "board-box tap-scaled"
            assert scaled == (scenario != "mecha/sample"), scenario  # mecha's hexes are 53 px: drawn as they were
            if scaled:
                # Check: "show the whole board" fits it to the screen, and pressed again gives it back to fingers.
                page.tap("button[data-zoom='zoom-reset']")
                assert page.get_attribute("#board", "class") == "board-box"
                assert page.locator("svg.board").bounding_box()["width"] <= 375
                page.tap("button[data-zoom='zoom-reset']")
                assert page.get_attribute("#board", "class") == "board-box tap-scaled"
            if scenario == "arkham/crossing":
                # Check: a name longer than its shape's lines ends in "…" ("Perdu dans le Temps et" was cut
                # without a sign); every other name is drawn whole (its tooltip starts with it; an Other World's two
                # areas are numbered 1 and 2).
                labels = page.eval_on_selector_all("svg.arkham g.area", """gs => gs.map(g => [
                    [...g.querySelectorAll('text.area-name')].map(t => t.textContent).join(' '),
                    g.querySelector('title').textContent])""")
                cut = [(shown, title) for shown, title in labels if shown and not shown.isdigit() and not shown.endswith("…")
                       and not (title == shown or title.startswith(shown + " (") or title.startswith(shown + " ·"))]
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
        assert waiting.get_attribute("#turn", "data-turn") == "waiting"
        assert waiting.text_content("#turn").startswith("Ждём:")
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

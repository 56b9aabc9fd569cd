"""No hover-only facts (the arkham table probe): on a phone (375 × 667 CSS px, touch), a monster's stats,
an investigator, a Mecha, a figure's hit points were only in SVG ``<title>`` tooltips, which a touch screen
never shows. A tap on a board piece now shows its facts in visible text (``#piece-facts`` under the board,
client/boards/svgkit.py ``tell_on_tap``) in the reader's language, and a tap on a destination still moves.
Real server, real headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.browser.test_i18n import CHECK, untranslated
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True}
I18N = Path(__file__).resolve().parents[2] / "client" / "i18n"
MARK = "\u2063"  # the catalogue's mark on CHECK pages (client/i18n MARK)
IN_VIEW = """sel => { const n = document.querySelector(sel); if (!n || n.hidden) return false;
  const r = n.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 1; }"""  # scrolled to: 667.4 of 667
TITLE = "sel => document.querySelector(sel).querySelector(':scope > title').textContent"
SHOWN = "() => document.body.innerText"
SAME = """([sel, mark]) => { const t = document.querySelector(sel).querySelector(':scope > title').textContent;
  const p = document.getElementById('piece-facts');
  return !p.hidden && p.innerText.replaceAll(mark, '').trim() === t.replaceAll(mark, '').trim(); }"""


def catalogue(lang: str) -> dict:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def plain(text: str) -> str:
    return text.replace(MARK, "").strip()


def facts(page) -> str:
    """The panel's visible text (``innerText``: what is rendered, not what is hidden)."""
    return plain(page.inner_text("#piece-facts"))


@pytest.mark.parametrize("lang", ["fr", "ru", "en"])
def test_ah_c6_a_tap_on_the_nightgaunt_shows_its_stats_in_visible_text_on_a_phone(server, browser, lang):
    """AH-C6 (a monster's data: awareness, horror rating and damage, combat rating and damage, toughness,
    Elusive): red's phone on arkham/other-world. Before, the Nightgaunt's numbers were nowhere in the page's
    visible text; a tap shows them, worded by the catalogue, in view, and sends nothing (the log and the
    hash stay); a tap on a destination (Return through a gate, AH-11) still acts, its area told too."""
    words = catalogue(lang)
    found = I18N / "names" / f"arkham.{lang}.json"  # English keeps the data's names: no file
    names = json.loads(found.read_text(encoding="utf-8")) if found.exists() else {}
    stats = words["arkham.monster_title"].format(
        name=names.get("Nightgaunt", "Nightgaunt"), awareness="-2", horror="-1", horror_damage=1, combat="-2",
        combat_damage=0, toughness=2)
    expected = stats + " · " + words["arkham.flag_elusive"]
    context = browser.new_context(locale={"fr": "fr-FR", "ru": "ru-RU", "en": "en-US"}[lang], **PHONE)
    context.add_init_script(CHECK)
    try:
        created = create_game(server.base_url, "arkham/other-world")
        page = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
        assert stats not in plain(page.evaluate(SHOWN))
        seq = hash_seq(page)
        page.tap("g.monster[data-monster='nightgaunt']")
        page.wait_for_function("() => !document.getElementById('piece-facts').hidden")
        assert facts(page) == expected
        assert page.evaluate(IN_VIEW, "#piece-facts")
        assert expected in plain(page.evaluate(SHOWN))
        assert hash_seq(page) == seq  # the game is unchanged: the tap sent nothing
        assert untranslated(page, lang) == {"lang": lang, "bad": []}
        # A destination: the tap still acts (red returns through a gate to R'lyeh, AH-11), and its area is told.
        dest = page.locator("g.area.dest").first
        area = dest.get_attribute("data-area")
        dest.tap()
        wait_seq(page, seq + 1)
        page.wait_for_function(SAME, arg=[f"g.area[data-area='{area}']", MARK])  # its title after the Return's redraw
        assert facts(page)
        assert untranslated(page, lang) == {"lang": lang, "bad": []}
        assert page.problems == []
    finally:
        context.close()


# Per board: a scenario, the seat whose phone taps, and a piece whose facts were only in its tooltip.
PIECES = (
    ("mecha/sample", "g.loc"),  # MV-6: a Location's number, name and face (up or down)
    ("skirmish/courtyard", "g.fig"),  # a figure's Attack, Defense, movement, hit points
    ("gloomhaven/barrow", "g.figure"),  # GH-1: a figure's hit points and hex
)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_every_other_board_s_pieces_tell_their_tooltip_facts_on_a_tap(server, browser, lang):
    """Mecha's Locations (MV-6: face up or down), skirmish's and gloomhaven's figures (GH-1:
    hit points): their tooltip's words were not in the page's visible text on a phone; a tap on the piece
    shows them under the board, in view, in the reader's language."""
    context = browser.new_context(locale={"fr": "fr-FR", "ru": "ru-RU"}[lang], **PHONE)
    context.add_init_script(CHECK)
    try:
        for name, selector in PIECES:
            created = create_game(server.base_url, name)
            page = open_page(context, f"{server.base_url}/watch/{created['game']}")
            told = plain(page.evaluate(TITLE, selector))
            assert told and told not in plain(page.evaluate(SHOWN)), (name, told)
            page.locator(selector).first.tap()
            page.wait_for_function("() => !document.getElementById('piece-facts').hidden")
            assert facts(page).startswith(told), name  # skirmish's adds its lines of sight (below)
            assert page.evaluate(IN_VIEW, "#piece-facts"), name
            assert untranslated(page, lang) == {"lang": lang, "bad": []}, name
            assert page.problems == [], name
            page.close()
    finally:
        context.close()


SIGHT = "() => [...document.querySelectorAll('#board line.sight-line > title')].map(t => t.textContent)"


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_sk_c3_a_tapped_figure_tells_its_lines_of_sight_and_cover(server, browser, lang):
    """SK-C3 on a phone: a figure's lines of sight to the others, and the screens that give cover, were only in
    the tooltips of the sight layer, which no pointer reaches (``pointer-events: none``, so not even a mouse
    could read them); a tap on a figure selects it (as before) and tells them under the board."""
    context = browser.new_context(locale={"fr": "fr-FR", "ru": "ru-RU"}[lang], **PHONE)
    context.add_init_script(CHECK)
    try:
        created = create_game(server.base_url, "skirmish/courtyard")
        page = open_page(context, f"{server.base_url}/watch/{created['game']}")
        tapped = page.locator("g.fig").last
        figure = tapped.get_attribute("data-figure")
        tapped.tap()
        page.wait_for_function("() => !document.getElementById('piece-facts').hidden")
        assert page.get_attribute("#board g.sight", "data-from") == figure  # the tap selected it
        lines = [plain(text) for text in page.evaluate(SIGHT)]
        assert lines
        shown = facts(page)
        for line in lines:
            assert line in shown
            assert line not in plain(page.inner_text("#info"))
        assert untranslated(page, lang) == {"lang": lang, "bad": []}
        assert page.problems == []
    finally:
        context.close()

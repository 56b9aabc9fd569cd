"""Every page kind of every game, as a phone and a desktop see it (issue 17, part B).

One game per rule system is brought a few moves in by scripted players; then its play page (the
seat whose turn it is), watch page and replay page are opened once each, at 1440 × 900 and, the
same page resized, at 390 × 844. On each page and size:

- no horizontal scroll (the document is no wider than the viewport);
- on the phone, every button, field and link at least 40 px high (buttons and fields 40 px wide);
- axe-core (``tests/browser/axe.py``) finds no serious or critical violation;
- a screenshot goes to ``docs/screenshots/<game>-<kind>-<width>.png`` under ``make screenshots``
  (CHRONICLE_SCREENSHOTS=1: the committed ones the README shows), else to
  ``.pytest_cache/screenshots/`` (``make test`` leaves the repository as it was).

On each page (at phone size) Tab, pressed from the top, focuses every enabled control on the way:
buttons, links, fields, the board's legal destinations, the log.

The lobby, the play page of each game and mecha's watch and replay pages are also opened in French and in Russian (a browser
context whose ``locale`` sends that Accept-Language, pages run with ``chronicle_i18n_check``), at
both sizes: the same checks, plus no untranslated text as ``tests/browser/test_i18n.py`` finds it,
and a screenshot to ``<screenshots>/fr/`` and ``<screenshots>/ru/`` (``lobby-1440.png``,
``arkham-play-390.png``, ...).

The panels that came later are shot too, in English, French and Russian, with the same checks: the
chat with the undo request waiting for an answer (``mecha-undo-chat``) and the rules-version consent
box (``mecha-consent``) here, the pass-and-play page in ``test_offline.py`` (``offline-mecha``) and
the dispute panel with a what-if branch in ``test_disputes.py`` (``mecha-dispute``).
"""

from __future__ import annotations

import os

import pytest

from tests.browser import axe
from tests.browser.conftest import open_page, wait_ready
from tests.browser.driver import ScriptedGame
from tests.browser.test_i18n import CATALOGUES, CHECK, LOCALES, untranslated
from tests.server_fixture import ROOT, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

SHOTS = ROOT / ("docs" if os.environ.get("CHRONICLE_SCREENSHOTS") == "1" else ".pytest_cache") / "screenshots"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
# A built-in scenario per rule system, its seed and how many commands the scripted players make.
GAMES = {
    "mecha": ("mecha/sample", 7, 6),
    "arkham": ("arkham/crossing", 3, 0),  # red about to move: its destinations and their costs
    "gloomhaven": ("gloomhaven/barrow", 3, 2),
    "echo": ("echo/first-case", 3, 2),
    "skirmish": ("skirmish/courtyard", 3, 2),
}
KINDS = ("play", "watch", "replay")
# The languages besides English whose lobby and play pages are checked and shot at both sizes.
OTHER_LANGUAGES = ("fr", "ru")


def choose_a_move_half(page, lang: str = "en") -> None:
    """Gloomhaven's seat picks a move half, so its page shows (and axe checks) the marked hexes."""
    move = CATALOGUES[lang]["gh.act_move"].split(" {")[0]  # "move", "déplacement", "движение"
    page.locator(".my-cards button.half", has_text=move).first.click()
    page.wait_for_function("() => document.querySelectorAll('.gloomhaven-board .hex.reach').length > 0")


PREPARE_PLAY = {"gloomhaven": choose_a_move_half}


@pytest.fixture(scope="module")
def games(server) -> dict:
    """game name -> (created, the seat whose turn it is), each a few commands in."""
    made = {}
    for name, (scenario, seed, moves) in GAMES.items():
        created = seeded_game(server, scenario, seed)
        with ScriptedGame(server.ws_url, created) as script:
            script.play(moves)
            made[name] = (created, script.current_seat())
    return made


def url_of(kind: str, created: dict, seat: str | None) -> str:
    if kind == "play":
        return created["seats"][seat]["link"]
    return created["spectate"] if kind == "watch" else created["replay"]


def overflow(page) -> int:
    """How many CSS pixels the document is wider than the viewport (0: no horizontal scroll)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def small_targets(page) -> list:
    """Controls a finger must hit (buttons, fields, links) drawn smaller than 40 px."""
    return page.evaluate("""() => [...document.querySelectorAll('button, select, input, a[href]')]
        .filter(node => node.getClientRects().length > 0)
        .map(node => [node, node.getBoundingClientRect()])
        .filter(([node, r]) => r.height < 40 || (node.tagName !== 'A' && r.width < 40))
        .map(([node, r]) => `${node.outerHTML.slice(0, 80)} ${Math.round(r.width)}x${Math.round(r.height)}`)""")


def check_sizes(page, name: str, lang: str | None = None) -> list:
    """At desktop then phone size: a screenshot, and what is wrong (sideways scroll, serious axe
    findings; with ``lang``, a page not in that language or a text that bypassed its catalogue).
    ``name`` may start with a directory (``fr/lobby``)."""
    (SHOTS / name).parent.mkdir(parents=True, exist_ok=True)
    wrong = []
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)  # one layout after the resize
        page.screenshot(path=str(SHOTS / f"{name}-{size['width']}.png"))
        where = f"{name} at {size['width']} px"
        if overflow(page) > 0:
            wrong.append(f"{where}: scrolls sideways by {overflow(page)} px")
        if size is PHONE:
            wrong += [f"{where}: touch target under 40 px: {small}" for small in small_targets(page)]
        wrong += [f"{where}: axe {finding}" for finding in axe.serious(page)]
        if lang is not None:
            found = untranslated(page, lang)
            if found["lang"] != lang:
                wrong.append(f"{where}: the page is in {found['lang']!r}, not {lang!r}")
            wrong += [f"{where}: untranslated: {text!r}" for text in found["bad"]]
    return wrong


def test_lobby_fits_a_phone_and_passes_axe(server, new_context, games):
    page = open_page(new_context(), f"{server.base_url}/")
    page.locator("tr.game").first.wait_for()
    assert check_sizes(page, "lobby") == []
    assert page.problems == []


def focusable(page) -> list:
    """A description of every enabled, visible control of the page."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex="0"]')]
        .filter(node => node.getClientRects().length > 0)
        .map(node => node.outerHTML.slice(0, 120))""")


def tab_through(page, count: int) -> list:
    seen = []
    for _ in range(count):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ''"))
    return seen


def unreached(page) -> list:
    """The controls that pressing Tab from the top of the page never focuses."""
    controls = focusable(page)
    page.evaluate("document.activeElement && document.activeElement.blur()")
    reached = set(tab_through(page, len(controls) + 3))
    return [control for control in controls if control not in reached]


@pytest.mark.parametrize("game", list(GAMES))
def test_every_page_kind_fits_a_phone_passes_axe_and_is_reached_by_tab(server, new_context, games, game):
    created, seat = games[game]
    wrong = []
    for kind in KINDS:
        page = open_page(new_context(), f"{server.base_url}{url_of(kind, created, seat)}")
        if kind == "play" and game in PREPARE_PLAY:
            PREPARE_PLAY[game](page)
        wrong += check_sizes(page, f"{game}-{kind}")
        wrong += [f"{game}-{kind}: not reached by Tab: {control}" for control in unreached(page)]
        wrong += [f"{game}-{kind}: {problem}" for problem in page.problems]
        page.close()
    assert wrong == [], "\n".join(str(item) for item in wrong)


def test_the_lobby_controls_are_reached_by_tab(server, new_context, games):
    page = open_page(new_context(), f"{server.base_url}/")
    page.locator("tr.game").first.wait_for()
    wait_ready(page)
    assert focusable(page), "the lobby has controls"
    assert unreached(page) == []


@pytest.mark.parametrize("page_name", ["lobby", *GAMES, "mecha-watch", "mecha-replay"])
@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_the_lobby_and_each_play_page_in_french_and_russian_fit_a_phone_and_are_translated(
        server, new_context, games, lang, page_name):
    """Issue 17: the lobby and a seat's page of each game (the same games and moves as above) as a
    French or Russian browser sees them, at 1440 × 900 and 390 × 844; and the watch and replay page
    kinds, once each (mecha's)."""
    context = new_context(locale=LOCALES[lang])
    context.add_init_script(CHECK)
    if page_name == "lobby":
        page = open_page(context, f"{server.base_url}/")
        page.locator("tr.game").first.wait_for()
        name = f"{lang}/lobby"
    elif page_name.endswith(("-watch", "-replay")):
        game, kind = page_name.split("-")
        created, seat = games[game]
        page = open_page(context, f"{server.base_url}{url_of(kind, created, seat)}")
        name = f"{lang}/{page_name}"
    else:
        created, seat = games[page_name]
        page = open_page(context, f"{server.base_url}{url_of('play', created, seat)}")
        if page_name in PREPARE_PLAY:
            PREPARE_PLAY[page_name](page, lang)
        name = f"{lang}/{page_name}-play"
    wrong = check_sizes(page, name, lang)
    wrong += [f"{name}: {problem}" for problem in page.problems]
    assert wrong == [], "\n".join(str(item) for item in wrong)


def _prefix(lang: str) -> str:
    """Where a language's shots go: English at the top of the screenshots, the others in ``fr/``, ``ru/``."""
    return "" if lang == "en" else f"{lang}/"


@pytest.mark.parametrize("lang", ["en", *OTHER_LANGUAGES])
def test_core_5_core_11_the_chat_the_undo_request_and_the_consent_box_fit_a_phone_and_are_translated(
        server, new_context, lang):
    """Issue 17's checks on the panels that came after the first shots, one mecha-1 game per language:
    blue's page with red's chat line and red's undo request waiting for blue's answer (CORE-5), then,
    the undo agreed, with red's proposal to move to mecha-2 open (CORE-10, CORE-11). Each at 1440 × 900
    and 390 × 844: no sideways scroll, 40 px targets, no serious axe finding, nothing untranslated."""
    created = seeded_game(server, "mecha/sample", 11, rules_version="mecha-1")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    context = new_context(locale=LOCALES[lang])
    context.add_init_script(CHECK)
    blue = open_page(context, f"{server.base_url}{created['seats']['blue']['link']}")
    red.fill("#chat-text", "gg")
    red.click("#chat-send")
    blue.wait_for_selector("#chat-lines li", timeout=10_000)
    red.click("g.loc[data-number='2']")
    blue.wait_for_function("() => document.getElementById('hash').dataset.seq === '3'")
    blue.click("g.loc[data-number='3']")
    red.wait_for_function("() => document.getElementById('hash').dataset.seq === '5'")
    red.click("button.undo-ask")
    blue.wait_for_selector("button.undo-answer")
    wrong = check_sizes(blue, f"{_prefix(lang)}mecha-undo-chat", lang)
    blue.click("button.undo-answer[data-answer='yes']")
    red.wait_for_selector("#rules-consent button[data-consent='propose']")
    red.click("#rules-consent button[data-consent='propose']")
    blue.wait_for_selector("#rules-consent button[data-consent='yes']")
    wrong += check_sizes(blue, f"{_prefix(lang)}mecha-consent", lang)
    wrong += [f"blue: {problem}" for problem in blue.problems] + [f"red: {problem}" for problem in red.problems]
    assert wrong == [], "\n".join(str(item) for item in wrong)

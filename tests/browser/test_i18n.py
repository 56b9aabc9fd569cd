"""Issue 17: every page in the reader's language (English, French, Russian).

One move of each game in each language, from a seat's page whose browser asks for that language
(``Accept-Language`` through Playwright's ``locale``). The page runs with
``window.chronicle_i18n_check``, so every text ``client.i18n.t`` gives starts with an invisible
mark: afterwards every text node and tooltip of the page must carry the mark, or come from the
server's catalogue (``data-i18n``, checked against the catalogue), or be marked as data
(``translate="no"``: names, ids, hashes) or as another language (``lang``: a rejection's reason
as the rules wrote it, the language names in the switcher). Then the switcher and the cookie.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from client import i18n
from tests.browser.conftest import open_page, wait_ready
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

ROOT = Path(__file__).resolve().parent.parent.parent
CATALOGUES = {lang: json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text("utf-8"))
              for lang in i18n.LANGUAGES}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "ru": "ru-RU"}
CHECK = "window.chronicle_i18n_check = true;"

# Every text a person reads on the page that did not come from the catalogue.
UNTRANSLATED = r"""
([mark, catalogue]) => {
  const lang = document.documentElement.lang;
  const words = /\p{L}{2,}/u;
  const exempt = (el) => el.closest('[translate="no"], script, style')
      || (el.closest('[lang]') && el.closest('[lang]').getAttribute('lang') !== lang);
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode, text = node.nodeValue, el = node.parentElement;
    if (!words.test(text) || text.includes(mark) || exempt(el)) continue;
    const from = el.closest('[data-i18n]');
    if (from && catalogue[from.dataset.i18n] === text) continue;
    bad.push(text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label]')) {
    for (const name of ['title', 'aria-label']) {
      const text = el.getAttribute(name);
      if (text && words.test(text) && !text.includes(mark) && !exempt(el)
          && !Object.values(catalogue).includes(text)) bad.push(name + '=' + text);
    }
  }
  return {lang, bad};
}
"""

# Per game: a scenario, a seat, and how to make one move from that seat's page.
GAMES = {
    "mecha": ("mecha/sample", "red", "g.loc.dest"),
    "arkham": ("arkham/crossing", "red", "g.area.dest"),
    "echo": ("echo/first-case", "red", "g.echo-loc.dest"),
    "skirmish": ("skirmish/purge", "zombies", None),
    "gloomhaven": ("gloomhaven/barrow", "red", None),
}


def untranslated(page, lang: str) -> dict:
    return page.evaluate(UNTRANSLATED, [i18n.MARK, CATALOGUES[lang]])


def one_move(page, game: str, target: object) -> None:
    """A first command from this seat: a click on a highlighted place, a pick, or an action button."""
    before = page.locator("#log li.event").count()
    if game == "gloomhaven":
        cards = page.locator(".my-cards button.card")
        cards.nth(0).click()
        cards.nth(1).click()
        page.locator(".my-cards button.confirm-pick").first.click()
    elif target is not None and page.locator(target).count():
        page.locator(target).first.click()
    else:
        page.locator("#actions button.action:enabled").first.click()
    page.wait_for_function("n => document.querySelectorAll('#log li.event').length > n", arg=before)
    wait_ready(page)


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_move_of_each_game_in_each_language_leaves_no_untranslated_text(server, browser, game, lang):
    scenario, seat, target = GAMES[game]
    created = seeded_game(server, scenario, 3)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1400, "height": 900})
    try:
        context.add_init_script(CHECK)
        page = open_page(context, f"{server.base_url}{created['seats'][seat]['link']}")
        one_move(page, game, target)
        found = untranslated(page, lang)
        assert found == {"lang": lang, "bad": []}
        watcher = open_page(context, f"{server.base_url}/watch/{created['game']}")
        assert untranslated(watcher, lang) == {"lang": lang, "bad": []}
        assert page.problems == [] and watcher.problems == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_lobby_and_the_replay_in_each_language_leave_no_untranslated_text(server, browser, lang):
    created = seeded_game(server, "mecha/sample", 4)
    context = browser.new_context(locale=LOCALES[lang])
    try:
        context.add_init_script(CHECK)
        lobby = open_page(context, f"{server.base_url}/")
        assert untranslated(lobby, lang) == {"lang": lang, "bad": []}
        replay = open_page(context, f"{server.base_url}/replay/{created['game']}")
        assert untranslated(replay, lang) == {"lang": lang, "bad": []}
        assert lobby.problems == [] and replay.problems == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_the_waypoint_planner_my_games_and_error_words_in_the_readers_language(server, browser, lang):
    """What main and ux added (issue 15's paths by waypoints, My games, errors in words) reads in
    French and Russian: a path being built on the arkham board, the lobby once a game is created
    there, and the words of a game that does not exist."""
    created = seeded_game(server, "arkham/monster-street", 1)
    context = browser.new_context(locale=LOCALES[lang], viewport={"width": 1400, "height": 900})
    words = CATALOGUES[lang]
    try:
        context.add_init_script(CHECK)
        # Check: AH-3's planner, one waypoint in: its buttons and its line in the reader's words.
        red = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
        red.click("#actions button[data-path-action='start']")
        red.wait_for_selector("#path-plan")
        red.locator("g.area.dest").first.click()
        red.wait_for_function("() => document.getElementById('path-plan').dataset.steps === '1'")
        assert red.text_content("#actions button[data-path-action='cancel']").endswith(words["path.cancel"])
        assert words["arkham.confirm_path"]["one"].split(" (")[0] in red.text_content(
            "#actions button[data-path-action='confirm']")
        assert untranslated(red, lang) == {"lang": lang, "bad": []}
        # Check: the lobby with a game under My games (its date as Intl writes it in this language).
        lobby = open_page(context, f"{server.base_url}/")
        lobby.click("#create-button")
        lobby.locator("#created .seat-link").first.wait_for()
        lobby.locator("#my-games li.my-game").first.wait_for()
        assert untranslated(lobby, lang) == {"lang": lang, "bad": []}
        # Check: an unknown game in words, with its id.
        missing = open_page(context, f"{server.base_url}/watch/g-no-such-game")
        assert missing.text_content("#notice").replace(i18n.MARK, "") == words["error.no-such-game"].replace(
            "{game}", "g-no-such-game")
        assert untranslated(missing, lang) == {"lang": lang, "bad": []}
        assert red.problems == [] and lobby.problems == [] and missing.problems == []
    finally:
        context.close()


def test_accept_language_picks_the_page_language_and_the_switcher_choice_is_remembered(server, browser):
    """Accept-Language decides the first visit; the switcher's choice (a cookie) wins from then on,
    on every page, and the server honours it on a fresh request too."""
    created = seeded_game(server, "mecha/sample", 5)
    context = browser.new_context(locale="fr-CH")  # Accept-Language: fr-CH, fr;q=0.9
    try:
        lobby = open_page(context, f"{server.base_url}/")
        assert lobby.get_attribute("html", "lang") == "fr"
        assert lobby.text_content("h2 [data-i18n='lobby.new_game']") == "Nouvelle partie"
        assert lobby.input_value("#lang") == "fr"
        with lobby.expect_navigation():
            lobby.select_option("#lang", "ru")
        wait_ready(lobby)
        assert lobby.get_attribute("html", "lang") == "ru"
        assert lobby.text_content("h2 [data-i18n='lobby.new_game']") == "Новая партия"
        # Remembered: another page of the same browser, and the cookie on a plain request.
        watch = open_page(context, f"{server.base_url}/watch/{created['game']}")
        assert watch.get_attribute("html", "lang") == "ru" and watch.text_content("#who") == "Просмотр"
        assert [c["value"] for c in context.cookies() if c["name"] == "chronicle-lang"] == ["ru"]
        answer = context.request.get(f"{server.base_url}/replay/{created['game']}",
                                     headers={"Accept-Language": "fr"})
        assert '<html lang="ru">' in answer.text() and answer.headers["content-language"] == "ru"
        assert "Accept-Language" in answer.headers["vary"] and "Cookie" in answer.headers["vary"]
        assert lobby.problems == [] and watch.problems == []
    finally:
        context.close()


@pytest.mark.parametrize("accept, cookie, expected", [
    ("fr;q=abc, ru;q=0.5", None, "fr"),
    ("x" * 100_000, None, "en"),
    (",".join(["de"] * 5_000) + ",ru", None, "en"),  # past MAX_RANGES: not read
    ("ru", "fr; chronicle-lang=de", "ru"),  # the last of two cookies of that name counts: none of ours
    ("ru", "<script>", "ru"),
    ("", "ru" * 1000, "en"),
])
def test_hostile_language_headers_and_cookies_answer_a_page_in_one_of_the_languages(server, accept, cookie,
                                                                                     expected):
    """Any Accept-Language or chronicle-lang cookie a client sends gets a page (never a 500), in
    one of en/fr/ru; nothing from them is written into the page but that language code."""
    headers = {"Accept-Language": accept}
    if cookie is not None:
        headers["Cookie"] = f"chronicle-lang={cookie}"
    request = urllib.request.Request(f"{server.base_url}/", headers=headers)
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200 and response.headers["Content-Language"] == expected
        body = response.read().decode()
    assert f'<html lang="{expected}">' in body and "<script>" not in body.replace("<script src=", "")


@pytest.mark.parametrize("name", ["i18n-fr.000000000000.js", "i18n-de.js", "..%2F..%2Fserver%2Fi18n.py", "x" * 300])
def test_an_unknown_catalogue_script_is_a_404_not_an_error(server, name):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{server.base_url}/static/i18n/{name}", timeout=30)
    assert refused.value.code == 404
    refused.value.close()

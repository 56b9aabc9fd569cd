"""The lobby (client/pages/lobby.py), then a whole game played from browser pages, then replayed."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from server import scenarios
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.corpus.make import save_browser_game
from tests.server_fixture import create_game, post_json

pytestmark = [pytest.mark.browser, pytest.mark.server]

PAYLOAD = "<img src=x onerror=alert(1)>"


def _move(page) -> None:
    """The seat whose turn it is clicks its first highlighted Location, or passes (MV-5)."""
    dests = page.locator("g.loc.dest.clickable")
    if dests.count():
        dests.first.click()
    else:
        page.click("button[data-command='Pass']")


def test_a_game_made_in_the_lobby_is_played_to_its_end_in_two_pages_watched_and_replayed(server, new_context):
    """MV-C3: 12 rounds x 2 seats = 24 turns, each a click in the page of the seat whose turn it is."""
    context = new_context()
    lobby = open_page(context, f"{server.base_url}/")
    lobby.select_option("#scenario", "mecha/sample")
    assert lobby.locator("#seed").count() == 0  # CORE-1: nobody chooses the dice
    lobby.click("#create-button")
    lobby.locator("#created .seat-link").nth(1).wait_for()
    links = {item.get_attribute("data-seat"): item.locator("a").get_attribute("href")
             for item in lobby.locator("#created .seat-link").all()}
    assert sorted(links) == ["blue", "red"]
    spectate = lobby.get_attribute("#created a.watch", "href")
    replay = lobby.get_attribute("#created a.replay", "href")
    game_id = spectate.rsplit("/", 1)[1]
    assert all(link.startswith(f"/play/{game_id}#token=") for link in links.values())
    assert replay == f"/replay/{game_id}"
    # The new game is listed with its spectate and replay links.
    lobby.locator(f"tr.game[data-game='{game_id}']").wait_for()

    seats = {seat: open_page(new_context(), f"{server.base_url}{link}") for seat, link in links.items()}
    watcher = open_page(context, f"{server.base_url}{spectate}")
    turns = 0
    while not watcher.locator(".turn.over").count():
        current = watcher.text_content(".turn-seat").split(" ")[0]
        before = hash_seq(watcher)
        _move(seats[current])
        watcher.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=before)
        seq = hash_seq(watcher)
        for page in seats.values():
            wait_seq(page, seq)
        wait_seq(watcher, seq)
        turns += 1
        assert turns <= 24
    assert turns == 24
    last = hash_seq(watcher)
    for page in [watcher, *seats.values()]:
        wait_seq(page, last)
        assert page.text_content("#hash") == f"hash ✓ seq {last}"
        assert page.text_content(".turn.over") == "Game over after 12 rounds"
    assert watcher.locator("#log li[data-type='GameEnded']").count() == 1
    # The pages' command ids carry 64 random bits after time and counter (docs/protocol.md, issue 12).
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        text = response.read().decode().splitlines()
    save_browser_game(text, "lobby-mecha-sample")  # CHRONICLE_CORPUS_SAVE=1: into tests/corpus
    ids = {json.loads(line)["command_id"] for line in text} - {None}
    assert len(ids) == 24 and all(re.fullmatch(r"c-[0-9]+-[0-9]+-[0-9a-f]{16}", item) for item in ids), ids

    # Replay it step by step from the start.
    page = open_page(context, f"{server.base_url}{replay}?seq=1")
    assert page.get_attribute("#hash", "data-seq") == "1"
    for seq in range(2, 8):
        page.click("button[data-step='forward']")
        page.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=seq)
        assert page.text_content("#hash").startswith(f"hash ✓ seq {seq}:")
    page.click("button[data-step='back']")
    page.wait_for_function("() => document.getElementById('hash').dataset.seq === '6'")
    page.click("button[data-step='last']")
    page.wait_for_function("n => document.getElementById('hash').dataset.seq === String(n)", arg=last)
    assert page.text_content(".turn.over") == "Game over after 12 rounds"
    for item in [lobby, watcher, page, *seats.values()]:
        assert item.problems == []


def test_names_from_a_scenario_show_as_text_never_as_markup(server, new_context):
    """A title and a Mecha name holding HTML reach every page as text: no element, no script."""
    _, scenario = scenarios.load("mecha/sample")
    scenario["title"] = PAYLOAD
    scenario["seats"][0]["mech"] = "<script>alert(2)</script>"
    status, created = post_json(f"{server.base_url}/api/games", {"scenario": scenario})
    assert status == 201, created
    context = new_context()
    lobby = open_page(context, f"{server.base_url}/")
    row = lobby.locator(f"tr.game[data-game='{created['game']}'] td.title")
    assert row.text_content() == PAYLOAD
    play = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
    assert play.text_content("h2.game-title") == PAYLOAD
    assert "<script>alert(2)</script>" in play.text_content("table.seats")
    replay = open_page(context, f"{server.base_url}{created['replay']}")
    assert replay.text_content("h2.game-title") == PAYLOAD
    for page in (lobby, play, replay):
        assert page.locator("img").count() == 0
        assert page.locator("main script").count() == 0
        assert page.problems == []  # no alert() dialog, no error


def test_pages_send_a_content_security_policy_and_hashed_cached_scripts(server, new_context):
    """No inline script: the CSP allows scripts from this origin (plus eval, for Brython) only."""
    page = new_context().new_page()
    response = page.goto(f"{server.base_url}/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self' 'unsafe-eval'" in policy and "unsafe-inline" not in policy
    scripts = page.eval_on_selector_all("script[src]", "s => s.map(x => x.getAttribute('src'))")
    assert len(scripts) == 5 and scripts[0].startswith("/static/i18n/i18n-en.")  # the catalogue first
    for src in scripts:
        asset = page.request.get(f"{server.base_url}{src}", headers={"Accept-Encoding": "gzip"})
        assert asset.status == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert asset.headers["content-encoding"] == "gzip"


def test_the_lobby_pages_through_the_games(server, new_context):
    """Issue 12, finding 4: the lobby asks for 50 games at a time and "More games" brings the next page."""
    made = [create_game(server.base_url, "mecha/sample")["game"] for number in range(51)]
    lobby = open_page(new_context(), f"{server.base_url}/")
    assert lobby.locator("tr.game").count() == 50
    assert lobby.locator(f"tr.game[data-game='{made[0]}']").count() == 0  # the oldest of them: on page two
    lobby.click("#more-games")
    lobby.locator(f"tr.game[data-game='{made[0]}']").wait_for()
    assert lobby.locator("tr.game").count() > 50
    assert lobby.problems == []


def test_the_created_games_spectate_and_replay_links_are_finger_sized_on_a_phone(server, browser):
    """The links under a game just created ("spectate · replay") were 16 px high on a 360 px phone:
    every other link of the lobby is at least 40 px (docs/client.md, touch targets)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    lobby = open_page(context, f"{server.base_url}/")
    lobby.select_option("#scenario", "mecha/sample")
    lobby.tap("#create-button")
    lobby.locator("#created a.replay").wait_for()
    sizes = lobby.eval_on_selector_all("#created a", "links => links.map(a => [a.className, "
                                       "Math.round(a.getBoundingClientRect().height)])")
    assert [cls for cls, height in sizes if height < 40] == [], sizes
    assert {"watch", "replay"} <= {cls for cls, height in sizes}
    assert lobby.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    assert lobby.problems == []
    context.close()

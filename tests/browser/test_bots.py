"""One person against the server's bots, from the lobby to the end of the game, in every rule system
(issue 18): the lobby's per-seat choice makes blue a bot, red's page gets the only join link, and
red plays by clicking its page's buttons and highlighted places until the page says the game is over.

Which click to make is the page's own offer: the test only reads the game's log (as any spectator
may) to know whether it is red's turn, then clicks the first enabled command button, else the first
highlighted place on the board, else (Gloomhaven's secret pick, GH-C2) two cards of the hand panel
and the first "Play …" button.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

import events.games
from events.log import Envelope
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.corpus.make import save_browser_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

GAMES = ("mecha/sample", "echo/novice-duel", "arkham/crossing", "skirmish/courtyard", "gloomhaven/barrow")
CLICKS = 250  # far above what the person needs in any of these games (the longest took ~60)
BUTTONS = "#actions button.action:not(.local):not([disabled])"
# Highlighted places only (a page makes every place clickable, and a click elsewhere is refused).
PLACES = "svg .dest.clickable, svg .reach.clickable, svg g.cell:has(polygon.reach), svg g.cell:has(polygon.target)"


class Log:
    """The game's log as a spectator reads it (``GET /api/games/{id}/log``), folded."""

    def __init__(self, base_url: str, game_id: str, rules: str) -> None:
        self.url = f"{base_url}/api/games/{game_id}/log"
        self.game = events.games.load(rules)
        self.state = None
        self.seq = 0

    def read(self) -> None:
        with urllib.request.urlopen(self.url, timeout=10) as response:
            lines = response.read().decode().splitlines()
        for line in lines[self.seq:]:
            self.state = self.game.evolve(self.state, Envelope.from_dict(self.game, json.loads(line)).event)
        self.seq = len(lines)

    def my_turn(self, seat: str) -> bool:
        return seat in self.game.turn(self.state) and bool(self.game.legal(self.state, seat))


def click_something(page) -> str:
    """The first thing the page offers red to do; what was clicked, for the failure message."""
    buttons = page.locator(BUTTONS)
    if buttons.count():
        label = buttons.first.text_content()
        buttons.first.click()
        return f"button {label!r}"
    places = page.locator(PLACES)
    if places.count():
        places.first.click()
        return "a highlighted place"
    cards = page.locator(".my-cards button.card")
    if cards.count() >= 2:
        for index in range(2):
            page.locator(".my-cards button.card:not(.chosen)").first.click()
            if index == 0:
                page.locator(".my-cards button.card.chosen").first.wait_for()
        page.locator(".my-cards button.confirm-pick").first.click()
        return "two cards"
    return ""


@pytest.mark.parametrize("scenario", GAMES)
def test_a_person_plays_a_whole_game_against_a_bot_from_the_lobby(server, new_context, scenario):
    lobby = open_page(new_context(), f"{server.base_url}/")
    lobby.select_option("#scenario", scenario)
    # Check the lobby offers a person or a bot for each seat of the scenario; blue becomes a greedy bot.
    choices = lobby.locator("#seat-choices select.seat-player")
    assert [choice.get_attribute("data-seat") for choice in choices.all()] == ["red", "blue"]
    assert [o.get_attribute("value") for o in choices.first.locator("option").all()] == ["person", "random", "greedy"]
    lobby.select_option("#seat-choices select[data-seat='blue']", "greedy")
    lobby.click("#create-button")
    lobby.locator("#created .seat-bot[data-seat='blue']").wait_for()
    # Check only red, the person, gets a join link; blue is said to be the server's.
    assert [item.get_attribute("data-seat") for item in lobby.locator("#created .seat-link").all()] == ["red"]
    assert "greedy bot, played by the server" in lobby.text_content("#created .seat-bot")
    link = lobby.locator("#created .seat-link a").get_attribute("href")
    game_id = link.split("/")[2].split("#")[0]

    red = open_page(new_context(), f"{server.base_url}{link}")
    log = Log(server.base_url, game_id, scenario.split("/")[0])
    clicks = 0
    while True:
        log.read()
        if log.game.is_over(log.state):
            break
        wait_seq(red, log.seq)  # the page shows what the log holds before red acts on it
        if not log.my_turn("red"):
            red.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=log.seq)
            continue
        assert clicks < CLICKS, f"{scenario}: not over after {clicks} clicks"
        before = hash_seq(red)
        clicked = click_something(red)
        assert clicked, f"{scenario}: red's turn at seq {log.seq} but its page offers nothing to click"
        clicks += 1
        red.wait_for_function("n => Number(document.getElementById('hash').dataset.seq) > n", arg=before)
    # Check the page says it is over, its hash matches the server's, and the bot's commands are marked.
    red.locator("#actions .over").wait_for()
    wait_seq(red, log.seq)
    with urllib.request.urlopen(log.url, timeout=10) as response:
        text = response.read().decode().splitlines()
    lines = [json.loads(line) for line in text]
    save_browser_game(text, f"bots-{scenario.replace('/', '-')}")  # CHRONICLE_CORPUS_SAVE=1: into tests/corpus
    assert red.text_content("#hash") == f"hash ✓ seq {len(lines)}"
    blue = [line for line in lines if line["seat"] == "blue" and line["command_id"] is not None]
    assert blue and all(line["command_id"].startswith("bot-") for line in blue)
    red_commands = {line["command_id"] for line in lines if line["seat"] == "red" and line["command_id"] is not None}
    assert red_commands and not any(command.startswith("bot-") for command in red_commands)
    assert red.problems == [] and lobby.problems == []


@pytest.mark.parametrize("locale, words", [
    ("fr-FR", "impossible de créer la partie : au moins une place doit être jouée par une personne"),
    ("ru-RU", "не удалось создать партию: хотя бы одно место должен занять человек"),
])
def test_a_lobby_game_of_bots_only_is_refused_in_the_readers_words(server, new_context, locale, words):
    """Every seat a bot: the server's 400 no-person-seat was shown as its English message ("HTTP 400 $.bots:
    every seat (rebels, troopers) would be a bot; ...") on French and Russian lobbies."""
    lobby = open_page(new_context(locale=locale), f"{server.base_url}/")
    lobby.select_option("#scenario", "skirmish/hangar")
    for choice in lobby.locator("#seat-choices select.seat-player").all():
        choice.select_option("greedy")
    lobby.click("#create-button")
    lobby.locator("#notice.error").wait_for()
    text = lobby.text_content("#notice").replace("\u2063", "")
    assert words in text and "$.bots" not in text and "every seat" not in text, text
    assert lobby.locator("#created .seat-link").count() == 0
    assert [problem for problem in lobby.problems if "400" not in problem] == []

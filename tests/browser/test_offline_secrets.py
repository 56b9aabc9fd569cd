"""Pass-and-play keeps each seat's secret from the next seat on the same device (GH-C2, CORE-2;
client/pages/offline.py, docs/offline.md "Secrets on one device"). Real server, real Chromium, a phone
(375 × 667, touch), French and Russian: what the page holds, not what it paints (``page.content()``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import events.games
from events.bots import RandomBot
from events.dice import local_secret
from events.games.gloomhaven import rules
from events.log import Table, encode_envelope
from events.rng import Rng
from server.scenarios import load
from tests.browser.axe import serious
from tests.browser.conftest import READY_TIMEOUT_MS, open_page, wait_ready

pytestmark = [pytest.mark.browser, pytest.mark.server]

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"viewport": {"width": 375, "height": 667}, "device_scale_factor": 2, "has_touch": True, "is_mobile": True}
LOCALES = {"fr": "fr-FR", "ru": "ru-RU"}
HIDDEN_WHILE_HANDING_OVER = ("#board", ".zoom-bar", "#actions", "#undo", "#notice", "#info", "#log")


def catalogue(lang: str) -> dict:
    return json.loads((ROOT / "client" / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


def card_names(lang: str) -> dict:
    """Every barrow card id -> its name as the page writes it in ``lang`` (client/i18n/names)."""
    names = json.loads((ROOT / "client" / "i18n" / "names" / f"gloomhaven.{lang}.json").read_text(encoding="utf-8"))
    state = Table.create(events.games.load("gloomhaven"), "g-AAAAAAAAAA", load("gloomhaven/barrow")[1], "0" * 64).state
    found = {}
    for hero in state.heroes:
        for card_id in hero.hand:
            name = rules._card(state, card_id).name
            found[card_id] = names.get(name, name)
    return found


def start_barrow(page) -> None:
    page.select_option("#offline-scenario", "gloomhaven/barrow")
    page.tap("#offline-start")
    page.wait_for_selector("#offline-export")


def pick_two(page, seat: str) -> list:
    """Tap the first two cards of the hand shown, confirm the first as leading; their ids."""
    assert page.get_attribute("#who", "data-seat") == seat
    cards = page.locator(".my-cards button.card")
    ids = [cards.nth(index).get_attribute("data-card") for index in range(2)]
    cards.nth(0).tap()
    cards.nth(1).tap()
    page.locator(".my-cards button.confirm-pick").first.tap()
    return ids


def wait_seat(page, seat: str) -> None:
    page.wait_for_function("s => document.getElementById('who').dataset.seat === s", arg=seat,
                           timeout=READY_TIMEOUT_MS)


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_gh_c2_offline_blue_never_holds_reds_pick_until_the_reveal(server, browser, lang):
    """GH-C2: red picks two cards on the shared phone; the device goes to blue. Before, blue's first
    screen had red's log row "rouge a choisi Piétinement, … (vous seul le voyez)". Now a hand-over
    screen hides the board and the log until tapped, and neither it nor blue's own screen, nor the
    page after blue reloads it, holds red's card names or the "only you" words; after the reveal
    (CardsRevealed, in the step of blue's pick) red's picks are shown."""
    words = catalogue(lang)
    names = card_names(lang)
    only_you = words["gh.chose"].rsplit("(", 1)[1].rstrip(")")  # "vous seul le voyez", "видите только вы"
    blue = words["seat.blue"]
    context = browser.new_context(locale=LOCALES[lang], **PHONE)
    try:
        page = open_page(context, f"{server.base_url}/offline")
        start_barrow(page)
        red_ids = pick_two(page, "red")
        red_names = [names[card_id] for card_id in red_ids]
        wait_seat(page, "blue")

        # The hand-over screen: blue's name, in the page's language, and nothing else of the game.
        handover = page.locator("#handover")
        assert handover.is_visible()
        expected = words["offline.handover"].replace("{seat}", blue)
        assert expected in handover.inner_text()
        assert words["offline.handover_ready"].replace("{seat}", blue) in page.inner_text("#handover-ready")
        for selector in HIDDEN_WHILE_HANDING_OVER:
            assert not page.locator(selector).is_visible(), selector
        held = page.content()
        assert [name for name in red_names if name in held] == []
        assert only_you not in held
        # The screen is for fingers and for every reader: its button has the focus and is a finger wide.
        assert page.evaluate("document.activeElement.id") == "handover-ready"
        box = page.locator("#handover-ready").bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box
        assert serious(page) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 375

        # Blue taps: its own screen, its own hand, and still nothing of red's pick.
        page.tap("#handover-ready")
        assert not handover.is_visible()
        assert page.locator("#board").is_visible() and page.locator("#log").is_visible()
        blue_cards = page.eval_on_selector_all(".my-cards button.card", "bs => bs.map(b => b.dataset.card)")
        assert blue_cards and all(card_id.startswith("ti-") for card_id in blue_cards), blue_cards
        assert page.locator(".my-cards button.confirm-pick").count() == 0  # red's two taps are not blue's
        held = page.content()
        assert [name for name in red_names if name in held] == []
        assert only_you not in held
        row = page.locator("#log li.event[data-type='CardsSelected']")
        assert row.count() == 1
        assert words["gh.has_chosen"].replace("{seat}", words["seat.red"]) in row.inner_text()

        # A curious blue reloads the page: the game resumes on blue's screen, red's pick still sealed.
        page.reload()
        wait_ready(page)
        page.wait_for_selector("#offline-export")
        wait_seat(page, "blue")
        held = page.content()
        assert [name for name in red_names if name in held] == []
        assert only_you not in held

        # Blue picks: every pick is revealed at once, and red's are shown.
        pick_two(page, "blue")
        page.wait_for_selector("#log li.event[data-type='CardsRevealed']", timeout=READY_TIMEOUT_MS)
        shown = page.inner_text("body")
        assert [name for name in red_names if name not in shown] == []
        assert not page.locator("#handover").is_visible()
        assert page.problems == []
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_gh_c2_core_4_a_pick_taken_back_from_blues_screen_stays_sealed(server, browser, lang):
    """GH-C2, CORE-4: red picks; blue, holding the phone, takes red's pick back (red's own command, nobody's
    yes needed). A table probe saw the page then draw red's screen with no hand-over, its struck-through row
    "rouge a choisi Piétinement, … (vous seul le voyez) annulé par rouge" in blue's hands, and again after a
    reload. A secret taken back before its reveal stays sealed for every seat, so nothing of it is in the page."""
    words = catalogue(lang)
    names = card_names(lang)
    only_you = words["gh.chose"].rsplit("(", 1)[1].rstrip(")")
    context = browser.new_context(locale=LOCALES[lang], **PHONE)
    try:
        page = open_page(context, f"{server.base_url}/offline")
        start_barrow(page)
        red_names = [names[card_id] for card_id in pick_two(page, "red")]
        wait_seat(page, "blue")
        page.tap("#handover-ready")
        page.locator("#undo button.undo-ask[data-seat='red']").tap()
        wait_seat(page, "red")  # taken back: red picks again
        page.wait_for_selector("#log li.event.undone[data-type='CardsSelected']", timeout=READY_TIMEOUT_MS)
        sealed = words["gh.has_chosen"].replace("{seat}", words["seat.red"])
        for moment in ("after the undo", "after a reload"):
            # Red's screen again (its whole hand, to pick anew: every seat's screen shows its hand), but no
            # word of which two it had picked: the struck-through row is sealed, no card is marked picked.
            row = page.locator("#log li.event.undone[data-type='CardsSelected'] .what").inner_text()
            assert sealed in row and [name for name in red_names if name in row] == [], (moment, row)
            assert only_you not in page.content(), moment
            assert page.locator(".my-cards button.confirm-pick").count() == 0, moment
            if moment == "after the undo":
                page.reload()
                wait_ready(page)
                page.wait_for_selector("#offline-export")
        assert page.problems == []
    finally:
        context.close()


def barrow_saves(seed: int = 3) -> tuple:
    """A barrow game played by random legal commands, as the page saves it (``chronicle-offline``):
    at round 2 once red has picked and blue is to pick, and at its end; and red's round-2 cards."""
    game = events.games.load("gloomhaven")
    table = Table.create(game, "g-SecretSave", load("gloomhaven/barrow")[1], local_secret(seed),
                         at="2026-12-02T12:00:00.000Z")
    chooser, bot, middle, picked = Rng(seed), RandomBot(), None, ()
    while not game.is_over(table.state):
        state = table.state
        if middle is None and state.round == 2 and state.phase == "select" and game.turn(state) == ("blue",):
            middle = list(table.envelopes)
            picked = rules.hero_of(state, "red").pick.content.cards
        seat = game.turn(state)[0]
        table.submit(seat, bot.choose(game, game.view(state, seat), seat, chooser), f"offline-{table.seq + 1}",
                     at="2026-12-02T12:00:01.000Z")

    def saved(envelopes: list) -> str:
        lines = "".join(encode_envelope(envelope) + "\n" for envelope in envelopes)
        return json.dumps({"format": 1, "secret": table.secret, "lines": lines})

    assert middle is not None and table.revealed
    return saved(middle), saved(table.envelopes), picked


def shown_before(saved: str) -> set:
    """The cards a saved game's log shows to every seat: revealed picks and cards played."""
    shown = set()
    for line in json.loads(saved)["lines"].splitlines():
        envelope = json.loads(line)
        if envelope["type"] == "CardsRevealed":
            shown.update(card for pick in envelope["data"]["picks"] for card in pick[1])
        elif envelope["type"] == "CardPlayed":
            shown.add(envelope["data"]["card"])
    return shown


def resume(page, saved: str) -> None:
    page.evaluate("s => localStorage.setItem('chronicle-offline', s)", saved)
    page.reload()
    wait_ready(page)
    page.wait_for_selector("#offline-export")


def test_gh_c2_a_resumed_offline_game_seals_reds_pick_and_once_over_shows_every_pick(server, browser):
    """GH-C2, CORE-2: a game saved in round 2 after red's pick resumes on blue's screen with red's pick
    sealed (before: "красный выбрал …, ведущая … (видите только вы)" in blue's log) and red's earlier
    picks sealed too, blue's own words left to blue; the finished game shows every pick in full,
    as the play page does once the secret is revealed."""
    words = catalogue("ru")
    names = card_names("ru")
    only_you = words["gh.chose"].rsplit("(", 1)[1].rstrip(")")
    red, blue = words["seat.red"], words["seat.blue"]
    middle, finished, picked = barrow_saves()
    context = browser.new_context(locale="ru-RU", **PHONE)
    try:
        page = open_page(context, f"{server.base_url}/offline")
        resume(page, middle)
        assert page.get_attribute("#who", "data-seat") == "blue"
        assert not page.locator("#handover").is_visible()  # blue holds no secret of its own yet
        held = page.content()
        # A card red picks again (played in round 1, back from a rest) was public then: its name may show.
        sealed = [card_id for card_id in picked if card_id not in shown_before(middle)]
        assert sealed, "the seed's round-2 pick holds no card unseen before: the check would be empty"
        assert [names[card_id] for card_id in sealed if names[card_id] in held] == []
        rows = page.locator("#log li.event[data-type='CardsSelected'] .what").all_inner_texts()
        reds = [row for row in rows if row.startswith(red)]
        blues = [row for row in rows if row.startswith(blue)]
        assert len(reds) == 2 and len(blues) == 1, rows  # red's picks of rounds 1 and 2, blue's of round 1
        assert reds == [words["gh.has_chosen"].replace("{seat}", red)] * 2
        assert only_you in blues[0]  # blue's own pick, on blue's own screen

        resume(page, finished)
        assert page.get_attribute("body", "data-over") == "1"
        assert not page.locator("#handover").is_visible()
        rows = page.locator("#log li.event[data-type='CardsSelected'] .what").all_inner_texts()
        assert rows and all(words["gh.has_chosen"].replace("{seat}", "") not in row for row in rows), rows
        assert any(row.startswith(red) for row in rows) and any(row.startswith(blue) for row in rows)
        assert [names[card_id] for card_id in picked if names[card_id] not in page.inner_text("#log")] == []
        assert page.problems == []
    finally:
        context.close()

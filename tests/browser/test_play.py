"""The play and spectate pages (client/pages/play.py) against a real server and Chromium."""

from __future__ import annotations

import pytest

import events.games
from events.games.mecha.model import Move
from events.rng import Rng
from tests.browser.conftest import hash_seq, open_page, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_mv_1_click_on_a_highlighted_destination_moves_the_mecha_on_every_page(server, new_context):
    """MV-1: red clicks a highlighted Location; the spectator's page shows the Mecha there, and
    both pages show hash ✓ at the same seq."""
    created = create_game(server.base_url)
    game_id = created["game"]
    # Check the spectator and the red seat both start at seq 1 with a verified hash.
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    assert red.text_content("#who") == "You play red"
    assert watcher.text_content("#who") == "Spectating"
    assert watcher.text_content("#turn") == "Waiting for red…" and watcher.get_attribute("#turn", "data-turn") == "watching"
    assert red.text_content("#hash") == watcher.text_content("#hash") == "hash ✓ seq 1"

    # Check the highlighted Locations are exactly the game's own legal destinations (MV-2: the
    # Camp leads to 2, 3 and 4; MV-3: up to 3 steps).
    with ScriptedGame(server.ws_url, created) as script:
        script.current_seat()
        legal = sorted(command.to for command in script.legal_moves("red") if isinstance(command, Move))
    shown = sorted(int(n) for n in red.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)"))
    assert shown == legal
    # The spectator sees the same hints, but nothing is clickable and there is no Pass button.
    assert watcher.locator("g.loc.clickable").count() == 0
    assert watcher.locator("button[data-command='Pass']").count() == 0

    # Check a click sends Move and every page folds the resulting events.
    target = legal[0]
    red.click(f"g.loc[data-number='{target}']")
    red.wait_for_function("n => document.querySelector(\"g.mech[data-seat='red']\").dataset.at === String(n)",
                          arg=target)
    watcher.wait_for_function("n => document.querySelector(\"g.mech[data-seat='red']\").dataset.at === String(n)",
                              arg=target)
    seq = hash_seq(red)
    assert seq > 1
    wait_seq(watcher, seq)
    assert red.text_content("#hash") == watcher.text_content("#hash") == f"hash ✓ seq {seq}"
    # Check the last move's path is drawn (MV-C4) and logged with its clause.
    assert watcher.get_attribute("polyline.route", "data-path").split()[-1] == str(target)
    moved = watcher.locator("#log li[data-type='MechMoved']")
    assert moved.count() == 1
    assert "MV-1" in moved.text_content() and "Move" in moved.text_content()
    assert red.problems == [] and watcher.problems == []


def test_mv_3_a_refused_move_is_shown_to_its_player_only_with_clause_and_reason(server, new_context):
    """A click on a Location out of reach is sent as Move; the rejection (clause + reason) shows
    on the page of the player who tried, and not on the spectator's."""
    created = create_game(server.base_url)
    game_id = created["game"]
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    # Location 17 is far from the Camp: the rules refuse it. Ask them which clause and why.
    with ScriptedGame(server.ws_url, created) as script:
        script.current_seat()
        game = events.games.load("mecha")
        expected = game.decide(script.state, "red", Move(17), Rng(0))
    assert red.get_attribute("g.loc[data-number='17']", "data-dest") == "0"

    red.click("g.loc[data-number='17']")
    rejected = red.locator("#log li.rejected")
    rejected.wait_for()
    assert rejected.get_attribute("data-rule") == expected.rule
    text = rejected.text_content()
    assert expected.rule in text and expected.reason in text
    title = game.catalogue[expected.rule].title
    assert title in text
    assert f"rejected {expected.rule}: {expected.reason}" == red.text_content("#notice")

    # Nothing changed, and the spectator never heard of it.
    watcher.wait_for_timeout(300)
    assert watcher.locator("#log li.rejected").count() == 0
    assert hash_seq(red) == hash_seq(watcher) == 1
    assert red.problems == [] and watcher.problems == []


def test_mv_c3_a_waiting_seat_sees_the_movers_options_as_the_other_seats_and_a_tap_sends_nothing(server, new_context):
    """MV-C3: on red's turn blue's board marks no place as blue's to take (until now it drew red's
    destinations as "allowed" and a tap came back refused with MV-C3); red's options are drawn as the
    other seat's (``dest`` without ``clickable``: dashed, as a spectator sees them), the bar says whom
    the game waits for, and a tap says so again instead of sending a move the rules refuse."""
    created = create_game(server.base_url)
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    assert blue.is_disabled("button[data-command='Pass']")
    # Check: red's destinations are shown on blue's board, none of them blue's to tap or to focus.
    mover = sorted(red.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)"))
    assert mover and sorted(blue.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")) == mover
    assert blue.locator("g.loc.clickable, [data-pickable]").count() == 0
    assert red.locator("g.loc.dest.clickable").count() == len(mover)
    # Check: the bar above the board says whose turn it is, on both pages.
    assert blue.get_attribute("#turn", "data-turn") == "waiting" and blue.text_content("#turn") == "Waiting for red…"
    assert blue.get_attribute("#actions .prompt", "data-turn") == "waiting"
    assert red.get_attribute("#turn", "data-turn") == "mine" and red.text_content("#turn") == "Your turn"
    # Check: a tap on one of red's destinations sends nothing and says whom the game waits for.
    blue.click(f"g.loc[data-number='{mover[0]}']")
    blue.wait_for_function("() => document.getElementById('notice').classList.contains('waiting')")
    assert blue.text_content("#notice") == "Not your turn. Waiting for red…"
    blue.wait_for_timeout(300)
    assert blue.locator("#log li.rejected").count() == 0 and hash_seq(blue) == 1
    assert blue.problems == [] and red.problems == []


def test_the_page_catches_up_reconnects_and_keeps_folding(server, new_context):
    """A spectator joining mid-game folds the whole log; after the socket drops it says hello with
    the seq it holds and gets only what it missed."""
    created = create_game(server.base_url)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(12)  # over 40 envelopes: the oldest log rows are drawn after the page is ready
        watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
        assert hash_seq(watcher) == script.table.seq > 40
        # Drop the socket from the server side by restarting the server (same port, same db).
        server.restart()
    watcher.wait_for_function("document.getElementById('connection').textContent === 'open'", timeout=20_000)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
        wait_seq(watcher, script.table.seq)
        assert watcher.text_content("#hash") == f"hash ✓ seq {script.table.seq}"
    # Every hash of the catch-up was checked (one per command's frame), in the background after the newest.
    watcher.wait_for_function(
        "() => { const m = document.getElementById('hash').title.match(/^(\\d+) of (\\d+) /);"
        " return m !== null && m[1] === m[2] && Number(m[1]) > 14; }")
    seqs = watcher.eval_on_selector_all("#log li.event", "items => items.map(li => Number(li.dataset.seq))")
    assert seqs == list(range(1, hash_seq(watcher) + 1))
    assert [p for p in watcher.problems if "WebSocket" not in p] == []


def test_a_refused_seat_token_watches_instead_and_a_missing_game_says_so(server, new_context):
    """``bad-token``: the page says so and says hello again as a spectator; ``no-such-game`` stops."""
    created = create_game(server.base_url)
    page = open_page(new_context(), f"{server.base_url}/play/{created['game']}#token=not-a-token")
    assert page.text_content("#who") == "Spectating: this link's seat token is not valid"
    assert page.text_content("#hash") == "hash ✓ seq 1"
    # Check: the player reads words, not the protocol; the log keeps the server's code for a bug report.
    notice = page.text_content("#notice")
    assert notice.startswith("This link's seat token is not valid") and "say hello" not in notice
    assert "bad-token" in page.locator("#log li[data-code='bad-token']").text_content()
    assert page.locator("g.loc.clickable").count() == 0
    # Check: an unknown game says so in words, and the hash badge does not stay at "loading…".
    missing = open_page(new_context(), f"{server.base_url}/watch/g-no-such-game")
    assert missing.text_content("#notice") == "There is no game g-no-such-game on this server: check the link."
    assert missing.get_attribute("#notice", "data-code") == "no-such-game"
    assert missing.text_content("#hash") == "no such game"  # not "loading…" forever
    assert page.problems == [] and missing.problems == []


def test_a_token_with_a_broken_escape_is_refused_in_words_not_a_crash(server, new_context):
    created = seeded_game(server, "mecha/sample", 9)
    page = open_page(new_context(), f"{server.base_url}/play/{created['game']}#token=%E0%A4%A&x=%ZZ")
    assert page.text_content("#who") == "Spectating: this link's seat token is not valid"
    assert page.text_content("#hash") == "hash ✓ seq 1"
    assert page.problems == []


def test_a_link_without_a_token_says_it_has_none_not_that_it_was_refused(server, new_context):
    created = seeded_game(server, "mecha/sample", 9)
    for url in (f"/play/{created['game']}", f"/play/{created['game']}#token="):
        page = open_page(new_context(), f"{server.base_url}{url}")
        assert page.text_content("#who") == "Spectating: this link has no seat token", url
        assert "refused" not in page.text_content("#who") and "not valid" not in page.text_content("#who")
        assert page.text_content("#notice").startswith("This link has no seat token")
        assert page.text_content("#hash") == "hash ✓ seq 1"
        assert page.problems == [], url


@pytest.mark.parametrize("lang, locale", [("fr", "fr-FR"), ("ru", "ru-RU")])
def test_mv_3_mv_c3_a_refused_move_reads_in_the_players_language(server, new_context, lang, locale):
    """Issue 17: the reasons of a refused move (MV-3: out of Range, a nested count of steps; MV-C3:
    out of turn, seat names) are in French and in Russian, shown in the log and the notice with no
    English left on them (no ``lang="en"``). MV-C3's is worded by the catalogue; the page itself no
    longer sends a waiting seat's tap (test_mv_c3_a_waiting_seat_...), and says in its language whom
    the game waits for instead."""
    from client import i18n
    from events.rules import message_data
    from server.i18n import payload

    created = create_game(server.base_url)
    red = open_page(new_context(locale=locale), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(locale=locale), f"{server.base_url}{created['seats']['blue']['link']}")
    with ScriptedGame(server.ws_url, created) as script:
        script.current_seat()
        game = events.games.load("mecha")
        far = game.decide(script.state, "red", Move(17), Rng(0))
        turn = game.decide(script.state, "blue", Move(3), Rng(0))
    try:
        i18n.install(payload(lang))
        expected = [i18n.message("mecha", refusal.key, {name: message_data(value) for name, value in refusal.params})
                    for refusal in (far, turn)]
    finally:
        i18n.install(payload("en"))
    assert expected[0] != far.reason and expected[1] != turn.reason  # said in the page's language, not English
    red.click("g.loc[data-number='17']")
    row = red.locator(f"#log li.rejected[data-rule='{far.rule}']")
    row.wait_for()
    assert row.locator(".reason").text_content() == expected[0]
    assert red.locator("#notice .reason").text_content() == expected[0]
    assert red.locator("#log li.rejected [lang], #notice [lang]").count() == 0
    assert "Лагеря" in expected[0] if lang == "ru" else "Campement" in expected[0]
    assert ("красный" if lang == "ru" else "rouge") in expected[1]
    # Check: blue's tap out of turn is answered on its page, in its language, and nothing is refused.
    blue.click("g.loc[data-number='3']")
    blue.wait_for_function("() => document.getElementById('notice').classList.contains('waiting')")
    waiting = {"fr": "Ce n’est pas à vous de jouer. En attente de rouge…", "ru": "Сейчас не ваш ход. Ждём: красный…"}
    assert blue.text_content("#notice") == waiting[lang]
    assert blue.locator("#notice [lang], #log li.rejected").count() == 0
    assert red.problems == [] and blue.problems == []


@pytest.mark.parametrize("name, scenario, lang, locale, selector", [
    ("arkham", "arkham/crossing", "fr", "fr-FR", "g.area[data-area='{}']"),
    ("echo", "echo/first-case", "ru", "ru-RU", "g.echo-loc[data-id='{}']"),
])
def test_ah_2_ah_3_ec_2_a_refused_move_names_places_in_the_players_language(server, new_context, name, scenario, lang,
                                                                            locale, selector):
    """Issue 17: a refusal naming places (arkham's areas, echo's locations: ``Named`` params) shows
    them as the page names them: from the names catalogue (French) or the data's own (Russian)."""
    from client import i18n
    from events.rules import Named, message_data
    from server.i18n import payload

    created = create_game(server.base_url, scenario)
    with ScriptedGame(server.ws_url, created) as script:
        seat = script.current_seat()
        game = events.games.load(name)
        state = script.state
    places = [area.id for area in state.board.areas] if name == "arkham" else [place.id for place in state.map.locations]
    model = __import__(f"events.games.{name}.model", fromlist=["Move"])
    refusal = None
    for place in places:  # the first place a Move to is refused with a place named in the reason
        result = game.decide(state, seat, model.Move(place), Rng(0))
        if hasattr(result, "params") and any(isinstance(value, Named) for _key, value in result.params):
            refusal, target = result, place
            break
    assert refusal is not None
    try:
        i18n.install(payload(lang))
        words = i18n.message(name, refusal.key, {key: message_data(value) for key, value in refusal.params})
    finally:
        i18n.install(payload("en"))
    english = next(value.text for _key, value in refusal.params if isinstance(value, Named))
    assert english not in words  # the place is said in the page's language, not as the data's English
    page = open_page(new_context(locale=locale), f"{server.base_url}{created['seats'][seat]['link']}")
    page.click(selector.format(target))
    row = page.locator(f"#log li.rejected[data-rule='{refusal.rule}']")
    row.wait_for()
    assert row.locator(".reason").text_content() == words
    assert page.locator("#log li.rejected [lang], #notice [lang]").count() == 0
    assert page.problems == []


@pytest.mark.parametrize("locale, many, one", [
    ("en-GB", "accepted: events 2–3", "accepted: event {seq}"),
    ("fr-FR", "accepté : événements 2–3", "accepté : événement {seq}"),
    ("ru-RU", "принято: события 2–3", "принято: событие {seq}"),
])
def test_core_4_a_command_that_made_one_event_is_accepted_as_one_event_not_a_range(server, new_context, locale,
                                                                                   many, one):
    """A move makes two events (MV-1, MV-C3: "events 2–3"); an undo asked across the other seat's move
    makes one, UndoAsked (CORE-4), which the notice said as a range of one: "events 6–6"."""
    created = seeded_game(server, "mecha/sample", 11)
    red = open_page(new_context(locale=locale), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    red.click("g.loc[data-number='2']")
    wait_seq(red, 3)
    assert red.text_content("#notice").replace("\u2063", "") == many
    blue.click("g.loc[data-number='3']")
    wait_seq(red, 5)
    red.click("button.undo-ask")
    wait_seq(red, 6)
    red.wait_for_function("() => document.getElementById('notice').textContent.includes('6')")
    assert red.text_content("#notice").replace("\u2063", "") == one.format(seq=6)
    assert red.problems == [] and blue.problems == []

"""Table talk in the browser (issue 18, client/chat.py): two seats and two spectators on their pages;
a seat's line reaches the other seat and no spectator, a spectator's the spectators and no seat;
lines are text, never HTML; the log and the state hash are what they were."""

from __future__ import annotations

import pytest

from tests.browser.conftest import open_page, wait_ready
from tests.server_fixture import create_game, server_fixture

pytestmark = [pytest.mark.browser, pytest.mark.server]


def lines(page) -> list:
    return page.eval_on_selector_all(
        "#chat-lines li.chat-line",
        "lis => lis.map(li => [Number(li.dataset.n), li.dataset.channel, li.dataset.author,"
        " li.querySelector('.chat-text').textContent])")


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def wait_line(page, n: int) -> None:
    page.wait_for_selector(f"#chat-lines li[data-n='{n}']", timeout=10_000)


def board_state(page) -> tuple:
    return (page.get_attribute("#hash", "data-seq"), page.get_attribute("#hash", "data-hash"),
            page.locator("#log li").count())


def test_chat_seats_and_spectators_talk_apart_and_the_game_is_untouched(server, new_context):
    created = create_game(server.base_url)
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    blue = open_page(new_context(), f"{server.base_url}{created['seats']['blue']['link']}")
    watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    other = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    pages = (red, blue, watcher, other)
    before = [board_state(page) for page in pages]
    assert red.get_attribute("#chat", "data-channel") == "seats"
    assert watcher.get_attribute("#chat", "data-channel") == "spectators"
    assert red.text_content("#chat h3") == "Table talk"

    # Check a seat's line reaches both seats, as red's, in the seats' channel.
    say(red, "good luck <b>blue</b>")
    wait_line(red, 1)
    wait_line(blue, 1)
    assert lines(blue) == lines(red) == [[1, "seats", "red", "good luck <b>blue</b>"]]
    assert red.input_value("#chat-text") == ""  # sent: the field is cleared
    # Check it is text, not markup: no <b> was made from it.
    assert blue.locator("#chat-lines b.chat-author").count() == 1 and blue.locator("#chat-lines .chat-text b").count() == 0

    # Check a spectator's line reaches the spectators, authored "spectator", and no seat.
    say(watcher, "red will win <img src=x onerror=window.pwned=1>")
    wait_line(watcher, 2)
    wait_line(other, 2)
    assert lines(other) == lines(watcher) == [[2, "spectators", "spectator",
                                               "red will win <img src=x onerror=window.pwned=1>"]]
    assert watcher.locator("#chat-lines img").count() == 0 and not watcher.evaluate("window.pwned === 1")
    # A later seat line (n=3) arriving proves the seats' pages are past n=2, which never came to them.
    say(blue, "thanks")
    wait_line(red, 3)
    wait_line(blue, 3)
    assert [line[0] for line in lines(red)] == [line[0] for line in lines(blue)] == [1, 3]
    assert [line[0] for line in lines(watcher)] == [line[0] for line in lines(other)] == [2]

    # Check a refused line says why in the reader's words, and keeps nothing.
    red.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")  # the server decides
    say(red, "x" * 501)
    red.wait_for_selector("#chat-status[data-code='chat-too-long']", timeout=10_000)
    assert red.text_content("#chat-status") == "That message is too long: at most 500 characters."

    # Check the log and the state hash are what they were on every page: chat is never folded.
    assert [board_state(page) for page in pages] == before

    # Check a reloaded seat page gets its channel's history, and only that.
    blue.reload()
    wait_ready(blue)
    wait_line(blue, 3)
    assert [line[0] for line in lines(blue)] == [1, 3]
    assert board_state(blue) == before[1]
    for page in pages:
        assert page.problems == [], page.problems


# Each channel's game bucket holds 2 here, so a spectator's third line meets it (gamebounds).
channel_server = server_fixture("chat-channels", {"CHRONICLE_CHAT_GAME_PER_MINUTE": "2"})


def test_chat_spectators_past_their_channels_rate_read_so_and_a_seat_still_talks(channel_server, new_context):
    created = create_game(channel_server.base_url)
    red = open_page(new_context(), f"{channel_server.base_url}{created['seats']['red']['link']}")
    watcher = open_page(new_context(), f"{channel_server.base_url}/watch/{created['game']}")
    # Check the spectators' channel takes its 2, then the page says the spectators write too fast.
    for n, text in ((1, "go red"), (2, "go blue")):
        say(watcher, text)
        wait_line(watcher, n)
    say(watcher, "one more")
    watcher.wait_for_selector("#chat-status[data-code='chat-game-rate-limited']", timeout=10_000)
    assert watcher.text_content("#chat-status") == "The spectators are writing too fast: wait a few seconds."
    # Check a seat's line still goes out: its channel's bucket is its own.
    say(red, "good luck")
    wait_line(red, 3)
    assert lines(red) == [[3, "seats", "red", "good luck"]]
    assert red.get_attribute("#chat-status", "data-code") in (None, "")
    for page in (red, watcher):
        assert page.problems == [], page.problems

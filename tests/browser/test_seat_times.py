"""The play and watch pages show each seat's time spent, from the envelopes' ``at`` (issue 18;
client/seatclock.py), updated as envelopes arrive."""

from __future__ import annotations

import re
import time

import pytest

from client.seatclock import clock_text, seat_times
from tests.browser.conftest import open_page, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


def expected_times(script: ScriptedGame) -> list:
    """What CPython computes from the very envelopes the script folded."""
    game = script.table.game
    state, turns = None, []
    for envelope in script.table.envelopes:
        state = game.evolve(state, envelope.event)
        turns.append(tuple(game.turn(state)))
    return seat_times(script.table.envelopes, turns)


def shown_times(page) -> list:
    return page.eval_on_selector_all(
        "#seat-times li.seat-time", "lis => lis.map(li => [li.dataset.seat, Number(li.dataset.ms), li.textContent])")


def test_a_seats_time_is_shown_after_two_commands_as_the_log_says(server, new_context):
    created = create_game(server.base_url)
    watcher = open_page(new_context(), f"{server.base_url}/watch/{created['game']}")
    red = open_page(new_context(), f"{server.base_url}{created['seats']['red']['link']}")
    assert [seat for seat, _ms, _text in shown_times(watcher)] == ["red"]  # to move since GameStarted
    assert watcher.text_content("#seat-times h3") == "Time spent"
    time.sleep(1.1)  # red thinks for over a second before its first command
    with ScriptedGame(server.ws_url, created) as script:
        first = script.current_seat()
        script.play(1)
        wait_seq(watcher, script.table.seq)
        after_one = dict((seat, ms) for seat, ms in expected_times(script))
        assert after_one[first] >= 1000
        assert {seat: ms for seat, ms, _text in shown_times(watcher)} == after_one
        script.play(1)
        wait_seq(watcher, script.table.seq)
        wait_seq(red, script.table.seq)
        expected = expected_times(script)
    for page in (watcher, red):
        shown = shown_times(page)
        assert [(seat, ms) for seat, ms, _text in shown] == expected
        assert [text for _seat, _ms, text in shown] == [f"{seat}: {clock_text(ms)}" for seat, ms in expected]
    assert dict(expected)[first] >= after_one[first]
    assert re.fullmatch(first + r": \d+:[0-5]\d", watcher.text_content(f"#seat-times li[data-seat='{first}']"))
    assert watcher.problems == [] and red.problems == []

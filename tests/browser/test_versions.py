"""A game moved to a newer rules version (CORE-3) is followed in the browser, with the same events/ code."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

import events.games
from events.bots import bot
from events.rng import Rng
from server.cli.main import main
from tests.browser.conftest import open_page, wait_seq
from tests.server.client import Client, command_json
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

# Run inside the page (Brython): restore the log given the newest version, as a page does (it knows only the
# game's name), every hash checked: it starts under skirmish-1, as GameStarted says, and the move switches it.
RESTORE = r"""
import json
from browser import window
import events.games
from events.log import Envelope, Table

game = events.games.load("skirmish")
envelopes = [Envelope.from_dict(game, raw) for raw in json.loads(window.test_log)]
table = Table.restore(game, envelopes[0].game, envelopes)
window.test_result = json.dumps({"rules": table.game.rules_version, "seq": table.seq})
"""


def test_core_3_the_page_follows_a_game_moved_from_skirmish_1_to_the_newest_skirmish_3(server, new_context):
    created = seeded_game(server, "skirmish/purge", 1, rules_version="skirmish-1")
    game_id = created["game"]
    skirmish = events.games.load("skirmish")

    async def play(commands: int, prefix: str) -> None:
        seats = await Client.join_seats(server.ws_url, created)
        anyone = next(iter(seats.values()))
        for number in range(commands):
            seat = skirmish.turn(anyone.state)[0]
            command = bot(skirmish, "greedy").choose(skirmish, anyone.state, seat, Rng(number))
            answer = await seats[seat].command(f"{prefix}-{number}", *command_json(command))
            assert answer["type"] == "ack", answer
            for client in seats.values():
                await client.events_until(answer["last"])
        for client in seats.values():
            await client.close()

    # Playwright's sync API holds this thread's event loop: the clients and the CLI run in threads of their own.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, play(2, "a")).result()
        # A watcher opened before the move sees skirmish-1 and what skirmish-2 and skirmish-3 changed (issue 19) ...
        live = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
        assert live.get_attribute("#rules-version", "data-version") == "skirmish-1"
        assert live.locator("#rules-version li.rules-change").count() == len(skirmish.changes_since("skirmish-1"))
        assert thread.submit(main, ["upgrade", "--db", str(server.db_path), game_id]).result() == 0
        thread.submit(asyncio.run, play(2, "b")).result()
    # ... and, once the RulesVersionChanged reaches it, skirmish-3 and no list.
    live.wait_for_function("document.getElementById('rules-version').dataset.version === 'skirmish-3'")
    assert live.locator("#rules-version .rules-changes").count() == 0
    assert live.problems == []
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        raws = [json.loads(line) for line in response.read().decode().splitlines()]
    assert [raw["type"] for raw in raws].count("RulesVersionChanged") == 1
    # Check the watch page folds the whole log, the move included, and its hash matches the server's.
    page = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    wait_seq(page, len(raws))
    # Check events/ in Brython restores it from skirmish-1 and ends under skirmish-3.
    page.evaluate("log => { window.test_log = log; }", json.dumps(raws))
    page.evaluate("source => __BRYTHON__.runPythonSource(source)", RESTORE)
    page.wait_for_function("window.test_result !== undefined")
    assert json.loads(page.evaluate("window.test_result")) == {"rules": "skirmish-3", "seq": len(raws)}
    assert page.problems == []

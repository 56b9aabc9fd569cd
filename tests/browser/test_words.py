"""The English page log says what ``chronicle explain`` says (issues 13, 17): one describer per event.

For one game of each rule system, played over the socket, the replay page's log rows (description
and trace lines, rendered in Brython by ``client.i18n.say`` in English) equal ``chronicle explain
--json``'s ``what`` and ``trace`` for the same events of the downloaded log."""

from __future__ import annotations

import json
import urllib.request

import pytest

from server.cli.main import main
from tests.browser.conftest import open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

ROWS = """() => [...document.querySelectorAll('#log li.event')].map(row => [
  Number(row.dataset.seq), row.querySelector('.what').textContent,
  [...row.querySelectorAll('.trace')].map(line => line.textContent),
  [...row.querySelectorAll('[lang]')].length])"""


@pytest.mark.parametrize("scenario", ["mecha/sample", "arkham/crossing", "echo/first-case", "skirmish/purge",
                                      "gloomhaven/barrow"])
def test_the_english_replay_log_says_what_chronicle_explain_says(server, new_context, tmp_path, capsys, scenario):
    created = create_game(server.base_url, scenario)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(8)
        last = script.table.seq
    path = tmp_path / "game.jsonl"
    with urllib.request.urlopen(f"{server.base_url}/api/games/{created['game']}/log", timeout=10) as response:
        path.write_bytes(response.read())

    page = open_page(new_context(locale="en-GB"), f"{server.base_url}/replay/{created['game']}?seq={last}")
    rows = page.evaluate(ROWS)
    explained = {}
    for seq, _what, _trace, _marked in rows:
        if seq not in explained and seq > 1:
            assert main(["explain", str(path), str(seq), "--json"]) == 0
            for event in json.loads(capsys.readouterr().out)["events"]:
                explained[event["seq"]] = (event["what"], event["trace"])
    compared = [(seq, (what, trace)) for seq, what, trace, _marked in rows if seq in explained]
    assert len(compared) >= 8 and any(trace for _seq, (_what, trace) in compared)
    assert [(seq, explained[seq]) for seq, _said in compared] == compared
    assert [marked for *_, marked in rows] == [0] * len(rows)  # no line is marked as English any more
    assert page.problems == []

"""A creator sends an arkham scenario where a battle could never end (arkham-6, AH-C3, AH-C4, AH-C6): a real
server answers 400 ``bad-scenario`` naming the monster's path, and keeps no game; the same scenario with an
Elusive monster (fleeing it always works under arkham-6) is created."""

from __future__ import annotations

import copy
import json
import urllib.request

from server.scenarios import load
from tests.server_fixture import get_json, post_json


def _other_world(title: str, **nightgaunt) -> dict:
    _, scenario = load("arkham/other-world")
    scenario = dict(copy.deepcopy(scenario), title=title)
    scenario["monsters"][1].update(nightgaunt)  # the Nightgaunt: combat -2, combat damage 0, toughness 2
    return scenario


def test_ah_c6_a_scenario_with_an_endless_battle_is_a_400_bad_scenario_with_its_path(shared_server):
    """AH-C3, AH-C4, AH-C6: other-world's Nightgaunt made not Elusive: Harvey Walters (Sneak 1 - 2, Fight 1 - 2)
    could neither flee nor win, and combat damage 0 never knocks him out. The server refuses it and lists no
    new game; with the Nightgaunt Elusive (as bundled) the game is created under arkham-6."""
    url = f"{shared_server.base_url}/api/games"
    _, before = get_json(url)
    status, answer = post_json(url, {"scenario": _other_world("Endless", elusive=False)})
    assert status == 400 and answer["code"] == "bad-scenario", answer
    assert answer["message"].startswith("scenario: $.monsters[1]: Harvey Walters (red) could be locked for ever in "
                                        "a battle with Nightgaunt"), answer
    _, after = get_json(url)
    assert not any(item["title"] == "Endless" for item in after) and len(after) == len(before)
    status, game = post_json(url, {"scenario": _other_world("Ends")})
    assert status == 201, game
    with urllib.request.urlopen(f"{shared_server.base_url}/api/games/{game['game']}/log") as answer:
        first = json.loads(answer.read().decode("utf-8").splitlines()[0])
    assert first["data"]["rules_version"] == "arkham-6", first


def test_ah_c6_an_imported_arkham_6_log_of_a_scenario_with_an_endless_battle_is_a_422_bad_scenario(shared_server):
    """AH-C3, AH-C4, AH-C6: an arkham-6 game of other-world played to its end, its GameStarted's scenario then
    edited so that the Nightgaunt is not Elusive: arkham-6's start refuses that scenario, so the import answers
    422 ``bad-scenario`` with the monster's path (the import re-starts the game from its scenario)."""
    from tests.server.test_import import body_of, finished_log, post

    lines = finished_log("arkham/other-world", seed=6)
    assert lines[0]["data"]["rules_version"] == "arkham-6"
    scenario = json.loads(lines[0]["data"]["scenario"])
    scenario["monsters"][1]["elusive"] = False
    edited = dict(lines[0], data=dict(lines[0]["data"], scenario=json.dumps(scenario)))
    status, answer = post(shared_server, body_of([edited] + lines[1:]))
    assert (status, answer["code"]) == (422, "bad-scenario"), answer
    assert "$.monsters[1]: Harvey Walters (red) could be locked for ever" in answer["message"], answer

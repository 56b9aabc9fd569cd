"""Bounded work (issue 12, finding 2): no scenario a client posts can make a command hold the event loop.

Before the bounds, a mecha seat's ``range`` had no upper bound and the Move search looped that
many times on the event loop: ``range: [1, 30000000]`` and one ``Move{to: 999}`` held every game
and ``/healthz`` for seconds. Now every number, list and string of a scenario that sizes work has
a documented bound (``BOUNDS`` in each game's ``board.py``, ``SHAPE`` in ``events/validate.py``),
and a scenario past one is refused with 400 ``scenario-out-of-bounds`` and the value's ``$`` path.
"""

from __future__ import annotations

import copy
import json
import urllib.error
import urllib.request

import pytest

from events.games.mecha.board import BOUNDS as MECHA
from server import scenarios
from tests.reliability import report
from tests.reliability.players import http_json
from tests.server.client import Client, run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server


def _post(server, scenario) -> tuple[int, dict]:
    return http_json(f"{server.base_url}/api/games", "POST", {"scenario": scenario})


def test_finding_2_a_huge_mecha_range_is_refused_with_its_path(quiet_server):
    """MV-3: ``range: [1, 30000000]`` is refused; the largest Range allowed plays and the server answers."""
    _, sample = scenarios.load("mecha/sample")
    # Check the hostile scenario of finding 2 is refused with its own code and the path of the value.
    hostile = copy.deepcopy(sample)
    hostile["seats"][0]["range"] = [1, 30_000_000]
    status, body = _post(quiet_server, hostile)
    assert status == 400 and body["code"] == "scenario-out-of-bounds", body
    assert "$.seats[0].range[1]" in body["message"] and "30000000" in body["message"], body
    # Check the largest Range the bounds allow is accepted, and its Move{to: 999} refused by the rules.
    largest = copy.deepcopy(sample)
    largest["seats"][0]["range"] = [1, MECHA["range"]]
    game = create_game(quiet_server.base_url, largest)

    async def main():
        red = await Client.join(quiet_server.ws_url, game["game"], game["seats"]["red"]["token"])
        answer = await red.command("bounds-1", "Move", {"to": 999})
        await red.close()
        return answer

    answer = run(main())
    assert answer["type"] == "rejected" and answer["rule"].startswith("MV-"), answer
    status, _ = http_json(f"{quiet_server.base_url}/healthz")
    assert status == 200
    report.record("bounds", "mecha/sample posted with range [1, 30000000] (finding 2), then with the largest "
                  f"Range allowed ({MECHA['range']}) and Move{{to: 999}}", 2, 2,
                  "the first refused 400 scenario-out-of-bounds at $.seats[0].range[1]; the second played, "
                  "its Move refused by the rules, /healthz 200")


def test_deep_nesting_in_a_scenario_is_refused_with_its_path(quiet_server):
    """A scenario's ``notes`` may hold anything, but not 900 levels of nesting: refused, never a 500."""
    _, sample = scenarios.load("mecha/sample")
    hostile = copy.deepcopy(sample)
    hostile["notes"] = "DEEP"
    text = json.dumps({"scenario": hostile}).replace('"DEEP"', "[" * 900 + "1" + "]" * 900)
    assert len(text) < 8 * 1024
    request = urllib.request.Request(f"{quiet_server.base_url}/api/games", data=text.encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            status, answer = response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        status, answer = error.code, json.loads(error.read())
    # The shell may refuse the depth first (bad-request, issue 12 finding 6); else the scenario's bound does.
    assert status == 400 and answer["code"] in ("scenario-out-of-bounds", "bad-request"), answer
    if answer["code"] == "scenario-out-of-bounds":
        assert "$.notes" in answer["message"] and "nesting" in answer["message"], answer
    status, _ = http_json(f"{quiet_server.base_url}/healthz")
    assert status == 200
    report.record("bounds", "a scenario nested 900 deep in its notes (under 8 KiB) posted", 1, 1,
                  f"400 {answer['code']} with its path, never a RecursionError or a 500; /healthz 200")


def _deep(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


BIG = 10**9
#: (built-in scenario, keys of the value replaced, the value, the path the refusal names)
HOSTILE = [
    ("mecha/sample", ("seats", 0, "range"), [1, 30_000_000], "$.seats[0].range[1]"),
    ("mecha/sample", ("bag", "tokens", 0, "count"), BIG, "$.bag.tokens[0].count"),
    ("mecha/sample", ("board", "locations", 0, "level"), BIG, "$.board.locations[0].level"),
    ("arkham/crossing", ("investigators", 0, "speed"), BIG, "$.investigators[0].speed"),
    ("arkham/crossing", ("rounds",), BIG, "$.rounds"),
    ("arkham/crossing", ("board", "streets", 0, "at"), [BIG, 0], "$.board.streets[0].at[0]"),
    ("echo/first-case", ("cards", "investigators", 0, "speed"), BIG, "$.cards.investigators[0].speed"),
    ("echo/first-case", ("map", "arrows"), [["a", "b"]] * 601, "$.map.arrows"),
    ("skirmish/purge", ("figures", 0, "speed"), BIG, "$.figures[0].speed"),
    ("skirmish/purge", ("map", "rows", 1), "|" + " " * 1500, "$.map.rows[1]"),
    ("gloomhaven/barrow", ("map", "regions", 0, "columns"), BIG, "$.map.regions[0].columns"),
    ("gloomhaven/barrow", ("figures",), [{"type": "Bandit Guard", "rank": "normal", "number": 1, "hex": [0, 0]}] * 13,
     "$.figures"),
] + [(name, ("title",), "t" * 201, "$.title") for name in
     ("mecha/sample", "arkham/crossing", "echo/first-case", "skirmish/purge", "gloomhaven/barrow")] + [
    (name, ("notes",), _deep(17), "$.notes") for name in
    ("mecha/sample", "arkham/crossing", "echo/first-case", "skirmish/purge", "gloomhaven/barrow")]


def test_every_game_refuses_a_scenario_past_its_bounds_with_the_path(quiet_server):
    """Each game: a number, list, string or nesting past its bound, posted inline, answers 400 with its path."""
    refused = 0
    for name, keys, value, where in HOSTILE:
        scenario = copy.deepcopy(scenarios.load(name)[1])
        target = scenario
        for key in keys[:-1]:
            target = target[key]
        target[keys[-1]] = value
        status, body = _post(quiet_server, scenario)
        assert status == 400 and body["code"] == "scenario-out-of-bounds", (name, keys, body)
        assert f"scenario: {where}" in body["message"], (name, where, body)
        refused += 1
    # A value below its lower bound is a plain fault of the scenario: bad-scenario, with its path.
    scenario = copy.deepcopy(scenarios.load("skirmish/purge")[1])
    scenario["figures"][0]["speed"] = -1
    status, body = _post(quiet_server, scenario)
    assert status == 400 and body["code"] == "bad-scenario" and "$.figures[0].speed" in body["message"], body
    status, _ = http_json(f"{quiet_server.base_url}/healthz")
    assert status == 200
    report.record("bounds", "scenarios of all five games posted with one value past its bound (ranges, speeds, "
                  "counts, map sizes, coordinates, row length, titles, nesting)", len(HOSTILE), refused,
                  "each 400 scenario-out-of-bounds naming the value's $ path; a negative speed 400 bad-scenario; "
                  "/healthz 200")

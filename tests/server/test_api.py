"""The HTTP endpoints of docs/protocol.md against a real server."""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

import events.games
from server.scenarios import load
from tests.server.client import Client, command_json, run
from tests.server_fixture import create_game, get_json, post_json


def test_scenarios_are_listed(shared_server):
    status, listing = get_json(f"{shared_server.base_url}/api/scenarios")
    assert status == 200
    sample = next(item for item in listing if item["name"] == "mecha/sample")
    assert sample == {"name": "mecha/sample", "game": "mecha", "title": "Into the Tunguska: two Mechas",
                      "titles": {"en": "Into the Tunguska: two Mechas", "fr": "Vers la Toungouska : deux Mechas",
                                 "ru": "В Тунгуску: две Мехи"},
                      "seats": ["red", "blue"]}


def test_create_game_answers_links_per_seat(shared_server):
    status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": "mecha/sample"})
    assert status == 201
    game_id = game["game"]
    assert game_id.startswith("g-") and len(game_id) == 12
    assert set(game["seats"]) == {"red", "blue"}
    tokens = [link["token"] for link in game["seats"].values()]
    assert len(set(tokens)) == 2 and all(len(token) >= 43 for token in tokens)
    assert game["seats"]["red"]["link"] == f"/play/{game_id}#token={game['seats']['red']['token']}"
    assert (game["spectate"], game["replay"]) == (f"/watch/{game_id}", f"/replay/{game_id}")
    # Check the lobby lists it, without any token or hash.
    _, games = get_json(f"{shared_server.base_url}/api/games")
    listed = next(item for item in games if item["game"] == game_id)
    assert set(listed) == {"game", "rules", "title", "seats", "head", "over", "created"}
    assert (listed["rules"], listed["seats"], listed["head"], listed["over"]) == ("mecha", ["red", "blue"], 1, False)
    assert not any(token in json.dumps(games) for token in tokens)


def test_create_game_from_an_inline_scenario(shared_server):
    _, scenario = load("mecha/sample")
    scenario = dict(scenario, title="Inline", rounds=2)
    status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": scenario})
    assert status == 201, game
    _, state = get_json(f"{shared_server.base_url}/api/games/{game['game']}/state")
    assert state["state"]["title"] == "Inline" and state["state"]["rounds"] == 2


def test_create_game_bad_scenario_is_a_400_with_the_fact(shared_server):
    url = f"{shared_server.base_url}/api/games"
    status, answer = post_json(url, {"scenario": "mecha/nope"})
    assert status == 400 and answer["code"] == "bad-scenario"
    assert "no built-in scenario 'mecha/nope'" in answer["message"] and "mecha/sample" in answer["message"]
    # Check a server file path is not a scenario name.
    status, answer = post_json(url, {"scenario": "/etc/passwd"})
    assert status == 400 and answer["code"] == "bad-scenario"
    # Check an inline scenario's fault is named by its path.
    _, scenario = load("mecha/sample")
    status, answer = post_json(url, {"scenario": dict(scenario, rounds=0)})
    assert status == 400 and answer["code"] == "bad-scenario" and "$.rounds" in answer["message"], answer
    status, answer = post_json(url, {"scenario": {"game": "chess"}})
    assert status == 400 and "$.scenario.game" in answer["message"] and "'chess'" in answer["message"]
    # Check a body of the wrong shape.
    status, answer = post_json(url, {"scenario": 7})
    assert status == 400 and answer["code"] == "bad-request" and "$.scenario" in answer["message"], answer
    status, answer = post_json(url, {"scenrio": "mecha/sample"})
    assert status == 400 and "scenrio" in answer["message"]


def test_unknown_game_is_a_404_json_error(shared_server):
    for path in ("log", "state"):
        status, answer = get_json(f"{shared_server.base_url}/api/games/g-unknown123/{path}")
        assert status == 404
        assert answer == {"code": "no-such-game", "message": "there is no game 'g-unknown123'"}
    status, answer = get_json(f"{shared_server.base_url}/api/nothing/here")
    assert status == 404 and answer["code"] == "not-found"


def test_log_and_state_equal_what_clients_got(shared_server):
    base = shared_server.base_url

    async def main():
        game = create_game(base)
        seats = await Client.join_seats(shared_server.ws_url, game)
        rng = random.Random(31)
        for number in range(1, 9):
            seat = seats["red"].game.turn(seats["red"].state)[0]
            type_, data = command_json(rng.choice(seats[seat].legal(seat)))
            answer = await seats[seat].command(f"c-{number}", type_, data)
            for client in seats.values():
                await client.events_until(answer["last"])
        return game["game"], seats["blue"].envelopes

    game_id, received = run(main())
    # Check the JSON Lines log is, line for line, what the clients received.
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/log") as response:
        assert response.headers["content-type"] == "application/x-ndjson"
        lines = response.read().decode().splitlines()
    assert [json.loads(line) for line in lines] == received
    # Check state?seq=N carries the hash of envelope N, for every N.
    for envelope in received:
        status, state = get_json(f"{base}/api/games/{game_id}/state?seq={envelope['seq']}")
        assert status == 200 and state["seq"] == envelope["seq"] and state["hash"] == envelope["hash"]
    status, latest = get_json(f"{base}/api/games/{game_id}/state")
    assert latest["seq"] == received[-1]["seq"] and latest["hash"] == received[-1]["hash"]
    # Check a seq outside the log is a 400 that says which seqs exist.
    for bad in ("0", str(len(received) + 1), "x", "-1"):
        status, answer = get_json(f"{base}/api/games/{game_id}/state?seq={bad}")
        assert status == 400 and answer["code"] == "bad-seq"
        assert f"from 1 to {len(received)}" in answer["message"]


def test_every_listed_scenario_creates_a_playable_game(shared_server):
    _, listing = get_json(f"{shared_server.base_url}/api/scenarios")
    assert {item["game"] for item in listing} == set(events.games.NAMES)
    for item in listing:
        status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": item["name"]})
        assert status == 201, (item, game)
        status, state = get_json(f"{shared_server.base_url}/api/games/{game['game']}/state")
        assert status == 200 and state["seq"] >= 1, (item, state)


def test_core_1_a_creator_cannot_choose_the_dice(shared_server):
    """CORE-1: a seed in the POST is refused with its own code and path, whatever its value."""
    url = f"{shared_server.base_url}/api/games"
    for seed in (7, 0, "7", None, -1, 2**80):
        status, answer = post_json(url, {"scenario": "mecha/sample", "seed": seed})
        assert status == 400 and answer["code"] == "seed-not-allowed", (seed, answer)
        assert answer["message"].startswith("$.seed: ") and "CORE-1" in answer["message"]


def test_a_browser_s_navigation_to_a_path_that_is_no_page_gets_a_404_page_in_its_language(shared_server):
    """/dispute/<id> typed by a person (no such page): a 404 page in the reader's language with the way to
    the lobby; asked as JSON, or under /api/, the same 404 is the API's JSON problem."""
    import urllib.error

    def ask(path: str, accept: str, language: str = "fr") -> tuple:
        request = urllib.request.Request(f"{shared_server.base_url}{path}",
                                         headers={"Accept": accept, "Accept-Language": language})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        return refused.value.code, refused.value.headers.get("Content-Type"), refused.value.read().decode()

    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    status, kind, body = ask("/dispute/g-abcdefghij", browser)
    assert status == 404 and kind.startswith("text/html"), (status, kind)
    assert '<html lang="fr">' in body and "Page introuvable" in body and '<a href="/">' in body
    assert "Voir les parties" in body
    status, kind, body = ask("/dispute/g-abcdefghij", browser, "ru")
    assert status == 404 and "Страница не найдена" in body and "К списку партий" in body
    for path, accept in (("/dispute/g-abcdefghij", "application/json"), ("/api/nothing/here", browser)):
        status, kind, body = ask(path, accept)
        assert status == 404 and kind.startswith("application/json") and json.loads(body)["code"] == "not-found"

"""Open games bounded per client address, and abandoned games freed (gamebounds; /tmp probe opengames).

Before: with ``open_games`` 30, thirty creations by one stranger, nobody ever playing them, left every
later creation 503 ``too-many-open-games``, 65 s later and after a restart, for good. Now one address
holds at most ``open_games_per_address`` games that are not over, and a game nobody moved for
``idle_hours`` does not count as open (its log untouched: it can still be joined and played, and it
counts again when it moves). A real server over a real SQLite file; each client address is one of
127.0.0.0/8, and idleness is made by moving a game's last-moved time back in the file."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.reliability.test_floods import post
from tests.server.client import Client, run
from tests.server_fixture import get_json, server_fixture

pytestmark = pytest.mark.server

BOUNDS = {"CHRONICLE_OPEN_GAMES": "8", "CHRONICLE_OPEN_GAMES_PER_ADDRESS": "3", "CHRONICLE_IDLE_HOURS": "2"}
open_server = server_fixture("open-games", BOUNDS)
STRANGER, PLAYER, OTHER = "127.0.0.2", "127.0.0.3", "127.0.0.4"


def created(server, source: str) -> dict:
    status, _headers, body = post(server.port, {"scenario": "mecha/sample"}, source)
    assert status == 201, (status, body)
    return json.loads(body)


def refused(server, source: str) -> tuple[int, dict, dict]:
    status, headers, body = post(server.port, {"scenario": "mecha/sample"}, source)
    assert status != 201, body
    return status, headers, json.loads(body)


def idle_for(server, game_ids: list, hours: int) -> None:
    """Nobody moved these games for ``hours`` (as if): their last-moved time, moved back in the file."""
    db = sqlite3.connect(server.db_path, timeout=10)
    with db:
        db.executemany("UPDATE games SET moved = moved - ? WHERE id = ?", [(hours * 3600, g) for g in game_ids])
    db.close()


def test_open_games_one_address_holds_at_most_its_share_and_idle_games_stop_counting(open_server):
    server = open_server
    # Check: one address creates 3 (open_games_per_address), then is refused with its own code.
    strangers = [created(server, STRANGER) for _ in range(3)]
    status, headers, body = refused(server, STRANGER)
    assert (status, body["code"]) == (429, "too-many-open-games-per-address"), body
    assert "3 games that are not over" in body["message"] and int(headers["retry-after"]) >= 1
    # Check: others go on until open_games (8) in all, then everybody is told too-many-open-games.
    players = [created(server, PLAYER) for _ in range(3)] + [created(server, OTHER) for _ in range(2)]
    status, _headers, body = refused(server, OTHER)
    assert (status, body["code"]) == (503, "too-many-open-games"), body
    # Check: the stranger's games, nobody moving them for 3 hours (idle_hours 2), count no more.
    _, log_before = get_json(f"{server.base_url}/api/games/{strangers[0]['game']}/log")
    idle_for(server, [game["game"] for game in strangers], 3)
    assert created(server, STRANGER)["game"]  # 1 of its 3, 6 of the 8
    # Check: an idle game is untouched: its log is what it was, and it can be joined and played.
    _, log_after = get_json(f"{server.base_url}/api/games/{strangers[0]['game']}/log")
    assert log_after == log_before

    async def play() -> None:
        red = await Client.join(server.ws_url, strangers[0]["game"], strangers[0]["seats"]["red"]["token"])
        assert (await red.command("c-1", "Move", {"to": 2}))["type"] == "ack"
        await red.close()

    run(play())
    # Check: it counts again once it moved: the stranger holds 2 now, so one more (8 of 8), then refused.
    assert created(server, STRANGER)["game"]
    assert refused(server, STRANGER)[2]["code"] == "too-many-open-games-per-address"
    assert refused(server, OTHER)[2]["code"] == "too-many-open-games"
    # Check: a restart counts the same (the store keeps who created each game and when it last moved).
    server.restart()
    assert refused(server, STRANGER)[2]["code"] == "too-many-open-games-per-address"
    assert refused(server, OTHER)[2]["code"] == "too-many-open-games"
    assert len(players) == 5

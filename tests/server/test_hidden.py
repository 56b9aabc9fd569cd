"""Hidden information on the wire: every envelope goes through ``visible_to`` (``Game.visible``).

Gloomhaven's card picks are secret until revealed (GH-C2): the picking seat gets its
``CardsSelected`` in full, the other seat and spectators a sealed copy with the same hash, and
the game's secret (CORE-1) reaches nobody while the game runs: GameStarted carries only its commitment.
"""

from __future__ import annotations

import json
import urllib.request

from tests.server.client import Client, command_json, run
from tests.server_fixture import create_game


def test_gh_c2_a_card_pick_reaches_only_its_seat(shared_server):
    async def main():
        game = create_game(shared_server.base_url, "gloomhaven/barrow")
        seats, spectator = await Client.join_all(shared_server.ws_url, game)
        red, blue = seats["red"], seats["blue"]
        # Check everyone gets the same GameStarted, with the commitment and no secret (CORE-1).
        for client in (red, blue, spectator):
            assert client.envelopes[0] == spectator.envelopes[0]
            assert set(client.envelopes[0]["data"]) == {"game", "rules_version", "commitment", "seats", "scenario", "dice_key"}
        # Check red's pick: red sees its cards; blue and the spectator see it sealed, with the same hash.
        type_, data = command_json(red.legal("red")[0])
        answer = await red.command("r-1", type_, data)
        assert answer["type"] == "ack", answer
        await blue.events_until(answer["last"])
        await spectator.events_until(answer["last"])
        mine, theirs, watched = (client.envelopes[answer["first"] - 1] for client in (red, blue, spectator))
        assert mine["type"] == theirs["type"] == "CardsSelected"
        assert mine["data"]["cards"] == data["cards"] and mine["command"] == {"type": type_, "data": data}
        assert theirs == watched and theirs["data"]["cards"] == [] and theirs["command"] is None
        assert theirs["hash"] == mine["hash"]
        return game["game"], watched

    game_id, watched = run(main())
    # Check the public log shows what the spectator saw.
    with urllib.request.urlopen(f"{shared_server.base_url}/api/games/{game_id}/log") as response:
        log = [json.loads(line) for line in response.read().decode().splitlines()]
    assert "commitment" in log[0]["data"] and log[watched["seq"] - 1] == watched

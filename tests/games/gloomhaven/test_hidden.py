"""Hidden card picks over the wire, as a property over random rounds (GH-C2).

A real server (``tests/server_fixture.py``); two seats and a spectator on WebSockets; random legal
commands until the scenario ends. Until ``CardsRevealed`` carries them, no pick may reach the
spectator or the other seat: not in an event, not in the envelope's command, not in the catch-up
of a late spectator, not in ``/api/games/{id}/log`` or ``/state``. Every page still folds what it
gets and checks every hash. Once the game is over, the whole log is public.
"""

from __future__ import annotations

import json
import random
import urllib.request

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.client import Client, command_json, run
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server


server = server_fixture("gloomhaven-hidden")


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode()


def sealed(envelope: dict) -> bool:
    data = envelope["data"]
    return data["sealed"] and data["cards"] == [] and data["leading"] is None and not data["long_rest"] \
        and envelope["command"] is None and envelope["dice"] is None


def no_pick_shown(envelopes: list, seat: str | None) -> None:
    """Every CardsSelected this viewer holds is sealed unless it is the viewer's own."""
    for envelope in envelopes:
        if envelope["type"] == "CardsSelected" and envelope["data"]["seat"] != seat:
            assert sealed(envelope), envelope


def pending_picks(state) -> bool:
    return any(hero.pick is not None for hero in state.heroes)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(1, 10_000))
def test_gh_c2_no_pick_reaches_a_spectator_before_the_reveal(server, seed):
    """GH-C2: property over random rounds: picks stay sealed for others until revealed; public after the game."""
    chooser = random.Random(seed)

    async def main():
        game = create_game(server.base_url, "gloomhaven/barrow")
        game_id = game["game"]
        seats, spectator = await Client.join_all(server.ws_url, game)
        clients = list(seats.values()) + [spectator]
        checked_http = False
        for number in range(400):
            state = spectator.state
            if spectator.game.is_over(state):
                break
            movers = [seat for seat in spectator.game.turn(state) if seats[seat].legal(seat)]
            assert movers, f"nobody can act (phase {state.phase})"
            seat = chooser.choice(movers)
            type_, data = command_json(chooser.choice(seats[seat].legal(seat)))
            answer = await seats[seat].command(f"c-{number}", type_, data)
            assert answer["type"] == "ack", answer
            for client in clients:
                await client.events_until(answer["last"])
            # Check: the spectator and each seat see no pick but their own (every hash was checked on the way).
            # A command that ends the game makes its own envelopes public at once: the log is public then.
            if not spectator.game.is_over(spectator.state):
                no_pick_shown(spectator.envelopes, None)
                for name, client in seats.items():
                    no_pick_shown(client.envelopes, name)
            if pending_picks(spectator.state) and not checked_http:
                # Check: mid-selection, the HTTP log and state hide the picks, and a late spectator's catch-up too.
                checked_http = True
                log = [json.loads(line) for line in get(f"{server.base_url}/api/games/{game_id}/log").splitlines()]
                no_pick_shown(log, None)
                assert "commitment" in log[0]["data"] and all(e["type"] != "SecretRevealed" for e in log)
                state_json = get(f"{server.base_url}/api/games/{game_id}/state")
                assert '"leading"' not in state_json and '"Pick"' not in state_json
                late = await Client.join(server.ws_url, game_id)
                no_pick_shown(late.envelopes, None)
                assert late.envelopes[-1]["hash"] == spectator.envelopes[-1]["hash"]
                await late.close()
        assert spectator.game.is_over(spectator.state)
        for client in clients:
            await client.close()
        return game_id

    game_id = run(main(), timeout=120)
    # Check: after the game the full log is public: every pick, every command, the secret (CORE-2).
    log = [json.loads(line) for line in get(f"{server.base_url}/api/games/{game_id}/log").splitlines()]
    picks = [envelope for envelope in log if envelope["type"] == "CardsSelected"]
    assert picks and all(not e["data"]["sealed"] and e["command"] is not None for e in picks)
    assert all(e["data"]["cards"] or e["data"]["long_rest"] for e in picks)
    assert log[-1]["type"] == "SecretRevealed" and log[-1]["rule"] == "CORE-2"

"""Hidden information over many random Gloomhaven rounds (GH-C2), counted.

``tests/games/gloomhaven/test_hidden.py`` checks a few games, the spectator's live stream and one
mid-selection look at the HTTP log and state. This extends it to a counted number of rounds (a
round ends with ``CardsRevealed``) on both built-in maps, and looks at every way a pick could
leave the server before its reveal, at random moments while picks are pending:

- the live stream of the other seat and of a spectator;
- catch-up from a random ``since``, for a late spectator and for the other seat reconnecting;
- ``/api/games/{id}/log`` and ``/api/games/{id}/state`` (the snapshot, at the head and at a random seq);

while the picking seat itself gets its own pick in full (the check sees the secret at all).
After each game the whole log is public: every pick, every command, the game's secret (CORE-2).
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
import websockets

from tests.reliability import report
from tests.reliability.players import Player, command_json, http_json
from tests.server.client import agree, read_catch_up, run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

ROUNDS = report.count(20, 1000)
MAPS = ("gloomhaven/barrow", "gloomhaven/drake-den")


def sealed(envelope: dict) -> bool:
    data = envelope["data"]
    return data["sealed"] and data["cards"] == [] and data["leading"] is None and not data["long_rest"] \
        and envelope["command"] is None and envelope["dice"] is None


def picks_hidden(envelopes: list, seat: str | None) -> int:
    """Every CardsSelected of another seat is sealed; the number checked."""
    checked = 0
    for envelope in envelopes:
        if envelope["type"] == "CardsSelected" and envelope["data"]["seat"] != seat:
            assert sealed(envelope), (seat, envelope)
            checked += 1
        assert envelope["type"] != "SecretRevealed", envelope  # CORE-2: not while the game runs
    return checked


async def peek(ws_url: str, game_id: str, token: str | None, since: int) -> list[dict]:
    """A fresh socket's catch-up from ``since``: the envelopes it was sent."""
    socket = await websockets.connect(f"{ws_url}/ws/{game_id}", max_size=2**24)
    try:
        await socket.send(json.dumps({"type": "hello", "since": since, "token": token}))
        welcome = json.loads(await socket.recv())
        assert welcome["type"] == "welcome", welcome
        return await read_catch_up(socket, game_id, since, welcome)
    finally:
        await socket.close()


class Tally:
    rounds = 0
    games = 0
    looks = 0  # catch-ups, logs and states examined while picks were pending
    sealed_seen = 0
    own_seen = 0


def test_gh_c2_no_pick_leaves_the_server_before_its_reveal(quiet_server):
    """GH-C2 over ROUNDS random rounds: sealed everywhere for others until revealed; all public after the game."""
    server = quiet_server
    rng = random.Random(2026)

    async def one_game(scenario: str) -> None:
        game = await asyncio.to_thread(create_game, server.base_url, scenario)
        game_id = game["game"]
        tokens = {seat: link["token"] for seat, link in game["seats"].items()}
        seats = {seat: Player(server.ws_url, game_id, token, seat, "gloomhaven") for seat, token in tokens.items()}
        watcher = Player(server.ws_url, game_id, None, None, "gloomhaven")
        for player in (*seats.values(), watcher):
            await player.connect()
        number = 0
        while not watcher.game.is_over(watcher.state) and number < 1000:
            movers = [p for p in seats.values() if p.legal()]
            assert movers, "nobody can act"
            mover = rng.choice(movers)
            number += 1
            answer = await mover.send(f"c-{number}", *command_json(rng.choice(mover.legal())))
            assert answer["type"] == "ack", answer
            for player in (*seats.values(), watcher):
                await player.catch_up(answer["last"])
            Tally.rounds += sum(1 for e in watcher.envelopes[answer["first"] - 1:] if e["type"] == "CardsRevealed")
            if watcher.game.is_over(watcher.state):
                break
            Tally.sealed_seen += picks_hidden(watcher.envelopes[answer["first"] - 1:], None)
            for seat, player in seats.items():
                picks_hidden(player.envelopes[answer["first"] - 1:], seat)
            pending = [hero.seat for hero in watcher.state.heroes if hero.pick is not None]
            if pending:
                await look_while_pending(game_id, tokens, seats, watcher, pending)
        assert watcher.game.is_over(watcher.state)
        for player in (*seats.values(), watcher):
            await player.drop()
        # After the game: the whole log is public, also to a spectator's catch-up.
        status, log = await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{game_id}/log")
        picks = [e for e in log if e["type"] == "CardsSelected"]
        assert picks and all(not e["data"]["sealed"] and e["command"] is not None for e in picks)
        assert log[-1]["type"] == "SecretRevealed" and len(log[-1]["data"]["secret"]) == 64  # CORE-2
        assert agree(await peek(server.ws_url, game_id, None, 0), log)
        Tally.games += 1

    async def look_while_pending(game_id, tokens, seats, watcher, pending):
        head = watcher.head
        picker = rng.choice(pending)
        # Check: the picker's own catch-up carries its pick in full (the secret is there to be hidden).
        own = await peek(server.ws_url, game_id, tokens[picker], 0)
        last_pick = [e for e in own if e["type"] == "CardsSelected" and e["data"]["seat"] == picker][-1]
        assert not last_pick["data"]["sealed"] and (last_pick["data"]["cards"] or last_pick["data"]["long_rest"])
        Tally.own_seen += 1
        # Check: a late spectator and the other seat, reconnecting from a random since, get it sealed.
        since = rng.randrange(0, head)
        picks_hidden(await peek(server.ws_url, game_id, None, since), None)
        for seat in seats:
            if seat != picker:
                picks_hidden(await peek(server.ws_url, game_id, tokens[seat], rng.randrange(0, head)), seat)
        # Check: the HTTP log, and the state snapshot at the head and at a random seq.
        status, log = await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{game_id}/log")
        assert status == 200 and len(log) >= head
        picks_hidden(log, None)
        for seq in (head, rng.randrange(1, head + 1)):
            status, state = await asyncio.to_thread(http_json, f"{server.base_url}/api/games/{game_id}/state?seq={seq}")
            text = json.dumps(state["state"])
            assert status == 200 and '"leading"' not in text and '"Pick"' not in text, text[:300]
        Tally.looks += 1

    async def main():
        while Tally.rounds < ROUNDS:
            await one_game(MAPS[Tally.games % len(MAPS)])

    run(main(), timeout=120 + ROUNDS * 3)
    report.record("hidden information", "random Gloomhaven rounds (both maps) played by two seats and watched by a "
                  "spectator", Tally.rounds, Tally.rounds,
                  f"{Tally.games} games; {Tally.sealed_seen:,} picks arrived sealed live; {Tally.looks} looks while "
                  f"picks were pending (catch-up from a random seq for a late spectator and the other seat, HTTP log, "
                  f"state at the head and a random seq) found none; the picker's own catch-up had it in full "
                  f"({Tally.own_seen}×); after each game the whole log public, the secret revealed", unit="rounds")

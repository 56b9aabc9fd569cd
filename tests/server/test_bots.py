"""Bots for empty seats, played by the server (issue 18): the API that asks for them, the Room
that plays them with only what their seat may see, and a person playing each game against one
to its end over real uvicorn and WebSockets."""

from __future__ import annotations

import json
import urllib.request

import pytest

import events.games
from events.canonical import state_hash
from events.log import Table
from events.rng import Rng
from server import frames
from server.room import BOT_PREFIX, Room, now
from server.scenarios import load
from server.store import GameMeta, Stored
from server.store.sqlite import SqliteStore
from tests.postgres_fixture import CliServer, postgres_database, postgres_server  # noqa: F401
from tests.server.client import Client, command_json, run
from tests.server_fixture import post_json

# One small scenario of every rule system (each has the seats red and blue: a person plays red).
GAMES = ("mecha/sample", "echo/novice-duel", "arkham/crossing", "skirmish/courtyard", "gloomhaven/barrow")
PERSON_COMMANDS = 300  # far above the ~120 commands of the longest of these games


def create(base_url: str, scenario: str, bots) -> tuple[int, dict]:
    return post_json(f"{base_url}/api/games", {"scenario": scenario, "bots": bots})


# --- the API: hostile first -----------------------------------------------------------------------


def test_an_unknown_bot_seat_is_refused_with_its_path(shared_server):
    status, answer = create(shared_server.base_url, "mecha/sample", {"green": "random"})
    assert status == 400 and answer["code"] == "unknown-bot-seat", answer
    assert answer["message"].startswith("$.bots.green: ") and "seats: red, blue" in answer["message"]


def test_an_unknown_bot_policy_is_refused_with_its_path(shared_server):
    for policy, shown in (("smart", "'smart'"), (7, "int"), (None, "NoneType"), (["greedy"], "list")):
        status, answer = create(shared_server.base_url, "mecha/sample", {"blue": policy})
        assert status == 400 and answer["code"] == "unknown-bot-policy", answer
        assert answer["message"] == f"$.bots.blue: expected one of random, greedy, got {shown}"


def test_bots_of_the_wrong_shape_are_a_bad_request(shared_server):
    for bots in (["blue"], "greedy", 3):
        status, answer = create(shared_server.base_url, "mecha/sample", bots)
        assert status == 400 and answer["code"] == "bad-request" and answer["message"].startswith("$.bots: "), answer


def test_a_game_of_bots_only_is_refused(shared_server):
    status, answer = create(shared_server.base_url, "mecha/sample", {"red": "greedy", "blue": "random"})
    assert status == 400 and answer["code"] == "no-person-seat", answer
    assert answer["message"].startswith("$.bots: every seat (red, blue) would be a bot")


def test_a_bot_seat_gets_no_join_link(shared_server):
    status, answer = create(shared_server.base_url, "mecha/sample", {"blue": "greedy"})
    assert status == 201, answer
    assert set(answer["seats"]) == {"red"} and answer["bots"] == {"blue": "greedy"}
    # Check the scenario listing names each scenario's seats, for the lobby's choice of bots.
    with urllib.request.urlopen(f"{shared_server.base_url}/api/scenarios", timeout=10) as response:
        listing = json.loads(response.read())
    assert {item["name"]: item["seats"] for item in listing}["gloomhaven/barrow"] == ["red", "blue"]


def test_a_client_cannot_mark_its_command_as_a_bots(shared_server):
    async def main():
        _, game = create(shared_server.base_url, "mecha/sample", {"blue": "random"})
        red = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        type_, data = command_json(red.legal("red")[0])
        answer = await red.command("bot-2", type_, data)
        assert answer["type"] == "error" and answer["code"] == "reserved-id", answer
        assert answer["message"].startswith("$.id: command ids beginning 'bot-' mark the server's bots")
        assert red.head == 1  # nothing was played

    run(main())


# --- the Room: a bot sees only its seat's view ----------------------------------------------------


class Watched:
    """The real greedy bot, keeping the states it was handed (to check what it saw)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.seen: list = []

    def choose(self, game, state, seat, chooser):
        self.seen.append(state)
        return self.inner.choose(game, state, seat, chooser)


async def room_with_bots(tmp_path, scenario_name: str, game_id: str, secret: str, bots: dict) -> tuple:
    """(store, game, Room) of a new game of ``scenario_name`` (seats red and blue) whose ``bots`` seats
    the server plays, in a real SQLite store under ``tmp_path`` (the caller closes the store)."""
    store = SqliteStore(tmp_path / "store.db")
    await store.open()
    name, scenario = load(scenario_name)
    game = events.games.load(name)
    table = Table.create(game, game_id, scenario, secret, at=now())
    await store.create_game(GameMeta(game_id, name, "t", ("red", "blue"), {}, now()),
                            [Stored(e.seq, None, frames.encode_envelope(e)) for e in table.envelopes],
                            secret=secret, bots=bots)
    return store, game, await Room.load(store, game_id)


def test_gh_c2_a_bot_chooses_on_its_seats_view_with_the_persons_pick_sealed(tmp_path):
    """GH-C2: the person's card pick is secret; the bot playing blue decides on the state folded
    from what blue may see, where red's pick is sealed with nothing inside, and which hashes the same."""

    async def main():
        store, game, room = await room_with_bots(tmp_path, "gloomhaven/barrow", "g-botview00", "ab" * 32,
                                                 {"blue": "greedy"})
        watched = room.bots["blue"] = Watched(room.bots["blue"])
        pick = game.legal(room.table.state, "red")[0]
        async with room.lock:
            assert json.loads(await room.submit("red", pick, "c-1"))["type"] == "ack"
        room.wake_bots()
        await room._bot_task
        # Check the bot picked (its command is logged as a bot's) and the picks were revealed.
        picked = [e for e in room.table.envelopes if e.seat == "blue"]
        assert picked and picked[0].command_id.startswith(BOT_PREFIX)
        assert any(e.type == "CardsRevealed" for e in room.table.envelopes)
        # Check what it saw: red's pick sealed with nothing inside, the same hash as the server's state.
        seen = watched.seen[0]
        red_there = next(hero for hero in seen.heroes if hero.seat == "red")
        assert red_there.pick is not None and red_there.pick.content is None
        assert state_hash(seen) == room.table.envelopes[picked[0].seq - 2].hash  # the state just before its pick
        red_pick = next(e for e in room.table.envelopes if e.type == "CardsSelected" and e.seat == "red")
        assert red_pick.event.cards == pick.cards != ()  # the server's own state holds them
        await store.close()

    run(main())


# --- a person against a bot, to the end, in every game --------------------------------------------


async def play_against_a_bot(ws_url: str, base_url: str, scenario: str, person: str, policy: str) -> None:
    bots = {"blue": policy}
    status, game = create(base_url, scenario, bots)
    assert status == 201, game
    me = await Client.join(ws_url, game["game"], game["seats"][person]["token"])
    chooser = Rng(18)
    sent = 0
    while not me.game.is_over(me.state):
        options = me.legal(person) if person in me.game.turn(me.state) else []
        if not options:
            await me.recv()  # the bot's events, folded with their hashes checked
            continue
        assert sent < PERSON_COMMANDS, f"{scenario}: not over after {sent} commands"
        type_, data = command_json(chooser.pick(tuple(options)))
        sent += 1
        answer = await me.command(f"p-{sent}", type_, data)
        # A simultaneous choice (Gloomhaven's picks) may cross the bot's: then it is simply refused.
        assert answer["type"] in ("ack", "rejected"), answer
    # Check the log: every bot command is marked as one, every person's is not, and the game is over.
    with urllib.request.urlopen(f"{base_url}/api/games/{game['game']}/log", timeout=10) as response:
        log = [json.loads(line) for line in response.read().decode().splitlines()]
    commanded = [line for line in log if line["command_id"] is not None]
    assert {line["seat"] for line in commanded if line["command_id"].startswith(BOT_PREFIX)} <= set(bots)
    assert all(line["command_id"].startswith(BOT_PREFIX) for line in commanded if line["seat"] in bots)
    assert any(line["seat"] in bots for line in commanded), f"{scenario}: the bot never played"
    assert log[-1]["type"] == "SecretRevealed"
    await me.events_until(log[-1]["seq"])  # the person's socket got all of it, every hash checked
    assert [line["hash"] for line in me.envelopes] == [line["hash"] for line in log]
    # Check a bot's secret is kept from the person as anyone's is (GH-C2): its picks came sealed.
    # The command that ended the game is sent once the game is over, when every envelope is public
    # (Game.visible): a last pick that revealed the cards and ended the game comes in the open.
    ending = next(line["command_id"] for line in reversed(log) if line["command_id"] is not None)
    secret = [line for line in me.envelopes
              if line["type"] == "CardsSelected" and line["seat"] in bots and line["command_id"] != ending]
    assert all(line["data"]["sealed"] and line["command"] is None for line in secret)


@pytest.mark.parametrize("scenario", GAMES)
def test_a_person_plays_a_whole_game_against_a_bot(shared_server, scenario):
    policy = "random" if scenario.startswith("skirmish") else "greedy"
    run(play_against_a_bot(shared_server.ws_url, shared_server.base_url, scenario, "red", policy), timeout=120)


def test_mv_c3_a_bot_that_opens_the_game_plays_when_its_room_is_built(shared_server):
    """MV-C3: red moves first; with red a bot, the person at blue finds red's first turn played as
    soon as the game's Room is built (the first socket), and then it is blue's turn."""

    async def main():
        status, game = create(shared_server.base_url, "mecha/sample", {"red": "random"})
        assert status == 201 and set(game["seats"]) == {"blue"}
        blue = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        while "blue" not in blue.game.turn(blue.state):
            await blue.recv()
        assert blue.envelopes[1]["seat"] == "red" and blue.envelopes[1]["command_id"] == "bot-2"

    run(main())


class Slow:
    """A policy that thinks too long: a real choice, made after ``seconds`` of sleep."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose(self, game, state, seat, chooser):
        import time

        time.sleep(self.seconds)
        return game.legal(state, seat)[-1]


def test_a_bot_that_thinks_past_its_bound_plays_a_random_legal_command(tmp_path, monkeypatch):
    """BOT_CHOICE_SECONDS bounds a choice: past it the Room plays a random legal command of the
    seat instead, and the event loop kept serving meanwhile (the choice runs in a thread)."""
    import asyncio

    import server.room

    monkeypatch.setattr(server.room, "BOT_CHOICE_SECONDS", 0.2)

    async def main():
        store, game, room = await room_with_bots(tmp_path, "mecha/sample", "g-slowbot00", "cd" * 32, {"red": "random"})
        room.bots["red"] = Slow(1.0)
        ticks = 0

        async def ticking():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.02)
                ticks += 1

        ticker = asyncio.create_task(ticking())
        room.wake_bots()
        await asyncio.wait_for(asyncio.shield(room._bot_task), 0.8)  # before the slow choice ends
        ticker.cancel()
        # Check red's turn was played, as a bot's, within the bound, and the loop ticked meanwhile.
        assert room.table.envelopes[1].seat == "red" and room.table.envelopes[1].command_id == "bot-2"
        assert "blue" in game.turn(room.table.state)
        assert ticks >= 5
        await store.close()

    run(main())


def test_mv_c3_two_processes_with_the_game_open_play_each_bot_turn_once(tmp_path, postgres_database):  # noqa: F811
    """MV-C3: with PostgreSQL and the game open on two processes (the person on one, a spectator on
    the other), both Rooms run the bot; each of blue's turns is played once (the loser of an append
    re-reads and finds its ``bot-<seq>`` already logged), and both sockets fold the same log."""
    url = postgres_database()
    first, second = CliServer(tmp_path, url), CliServer(tmp_path, url)
    try:
        first.start()
        second.start()

        async def main():
            status, game = create(first.base_url, "mecha/sample", {"blue": "greedy"})
            assert status == 201, game
            red = await Client.join(first.ws_url, game["game"], game["seats"]["red"]["token"])
            watcher = await Client.join(second.ws_url, game["game"])
            chooser = Rng(5)
            sent = 0
            while not red.game.is_over(red.state):
                if "red" not in red.game.turn(red.state):
                    await red.recv()
                    continue
                sent += 1
                type_, data = command_json(chooser.pick(tuple(red.legal("red"))))
                answer = await red.command(f"p-{sent}", type_, data)
                # Folding one event at a time, red may act between the bot's TurnEnded and GameEnded.
                assert answer["type"] == "ack" or red.game.is_over(red.state), answer
            await watcher.events_until(red.head)
            # Check: 12 rounds, each with one turn of red and one of blue (MV-C3), whoever's Room played it.
            turns = [(e["seat"], e["command_id"]) for e in red.envelopes if e["command_id"] is not None]
            blue = sorted({command_id for seat, command_id in turns if seat == "blue"})
            assert len(blue) == 12 and all(command_id.startswith(BOT_PREFIX) for command_id in blue)
            assert [e["hash"] for e in watcher.envelopes[: red.head]] == [e["hash"] for e in red.envelopes]

        run(main(), timeout=120)
    finally:
        first.stop()
        second.stop()

"""Undo with consent beside this morning's other features, against a real server over real
WebSockets (issue 18's integration review; CORE-4 to CORE-7): a taken-back sealed pick on the wire
(GH-C2), a reconnect catch-up across an UndoApplied (one frame per command), an imported game with
undos (audited, then chatted about), and a bot seat while a request waits for it."""

from __future__ import annotations

import json
import urllib.request

import websockets

import events.games
from client import i18n
from client.follow import Follower
from events.bots import RandomBot
from events.dice import local_secret
from events.games.mecha.model import Move
from events.log import Table, encode_envelope
from events.rng import Rng
from events.undo import AnswerUndo, AskUndo
from events.wire import hash_matches
from server import scenarios
from server.tokens import new_game_id
from tests.server.client import Client, command_json, events_in, run
from tests.server.test_chat import next_chat, say
from tests.server.test_import import body_of, post
from tests.server.test_undo import BLUE_FACE_UP, MOVE_FACE_DOWN, MOVE_FACE_UP, UndoClient, answer, ask
from tests.server.test_wire import CATALOGUE
from tests.server_fixture import create_game, post_json


def log_of(server, game_id: str) -> list:
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        return [json.loads(line) for line in response.read().decode().splitlines() if line.strip()]


def test_gh_c2_core_4_a_taken_back_pick_stays_sealed_on_the_wire_and_the_spectator_follows_the_undo(shared_server):
    async def main():
        game = create_game(shared_server.base_url, "gloomhaven/barrow")
        seats, spectator = await UndoClient.join_all(shared_server.ws_url, game)
        red, blue = seats["red"], seats["blue"]
        type_, data = command_json(red.legal("red")[0])
        picked = await red.command("r-1", type_, data)
        assert picked["type"] == "ack", picked
        # Check: red takes back its own sealed pick freely; every copy of the log folds the undo to one state.
        taken = await ask(red, "u-1", picked["first"])
        assert taken["type"] == "ack" and taken["last"] == taken["first"] + 1, taken
        for client in (blue, spectator):
            await client.events_until(taken["last"])
        assert red.state == blue.state == spectator.state and picked["first"] in spectator.table.undos.undone
        assert red.envelopes[-1]["type"] == "UndoApplied" and spectator.envelopes[-1] == red.envelopes[-1]
        # Check: the undone pick stays sealed for blue and the spectator (its cards were never played).
        mine, theirs, watched = (c.envelopes[picked["first"] - 1] for c in (red, blue, spectator))
        assert mine["data"]["cards"] == data["cards"] and theirs == watched and watched["data"]["cards"] == []
        assert watched["command"] is None
        # Check: red picks other cards; the game goes on, each seat's copy folding the same hashes.
        other = next(command for command in red.legal("red") if command_json(command)[1] != data)
        again = await red.command("r-2", *command_json(other))
        assert again["type"] == "ack", again
        await spectator.events_until(again["last"])
        assert spectator.state == red.state
        public = log_of(shared_server, game["game"])
        assert public[picked["first"] - 1] == watched

    run(main())


def test_core_4_wire_a_reconnect_catches_up_across_an_undo_one_frame_per_command(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        red = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        answers = [await red.command("c-1", *MOVE_FACE_UP)]
        await blue.events_until(answers[-1]["last"])
        answers.append(await ask(red, "u-1", 2))  # free: UndoAsked and UndoApplied, one command
        await blue.events_until(answers[-1]["last"])
        answers.append(await red.command("c-2", *MOVE_FACE_DOWN))  # draws, keyed by its seq 6 (CORE-12)
        await blue.events_until(answers[-1]["last"])
        answers.append(await ask(red, "u-2", answers[-1]["first"]))  # across a draw: waits for blue
        answers.append(await answer(blue, "u-3", answers[-1]["first"], True))
        await red.events_until(answers[-1]["last"])
        answers.append(await red.command("c-3", *MOVE_FACE_DOWN))
        await blue.events_until(answers[-1]["last"])
        assert all(a["type"] == "ack" for a in answers), answers
        log = log_of(shared_server, game["game"])
        assert sum(e["type"] == "UndoApplied" for e in log) == 2
        # Check: a page that held seq 3 catches up one frame per command, its last hash the log's.
        late = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"], since=3)
        ends = [f[0] + events_in(f) - 1 for f in late.frames]
        assert ends == [a["last"] for a in answers if a["last"] > 3]
        assert [e["seq"] for e in late.envelopes] == list(range(4, len(log) + 1))
        assert all(hash_matches(log[end - 1]["hash"], late.envelopes[end - 4]["hash"]) for end in ends)
        # Check: a page from nothing folds every frame through its Table (undos checked), to red's state.
        fresh = await UndoClient.join(shared_server.ws_url, game["game"])
        assert fresh.state == red.state and len(fresh.table.undos.undone) > 0
        # Check: the undo across c-2's draw told blue it would be drawn anew (CORE-12), and c-3 drew.
        asked = log[answers[3]["first"] - 1]
        assert asked["type"] == "UndoAsked" and asked["data"]["redraw"] is True
        assert any(e["type"] == "CorruptionDrawn" for e in log if e["command_id"] == "c-3")

    run(main())


def finished_with_undo(seed: int = 9) -> list:
    """A mecha game played to its end in process with an undo across a draw (agreed) and a free one."""
    name, data = scenarios.load("mecha/sample")
    game = events.games.load(name)
    table = Table.create(game, new_game_id(), data, local_secret(seed), at="2026-12-01T12:00:00.000Z")
    table.submit("red", Move(7), "c-1")  # face down: its reveal draws (MV-6a, MV-6c)
    table.submit("red", AskUndo(2), "u-1")
    table.submit("blue", AnswerUndo(table.seq, True), "u-2")
    assert table.envelopes[-1].type == "UndoApplied"
    chooser, bot, count = Rng(seed), RandomBot(), 0
    while not game.is_over(table.state):
        seat = game.turn(table.state)[0]
        table.submit(seat, bot.choose(game, game.view(table.state, seat), seat, chooser), f"c-{count + 2}")
        count += 1
        if count == 3:  # the seat that just moved takes it back, on its own
            last = table.envelopes[-1].seat
            table.submit(last, AskUndo(table.undos.last_own(last)), "u-3")
    assert table.revealed and len(table.undos.undone) > 0
    return [json.loads(encode_envelope(envelope)) for envelope in table.envelopes]


def test_core_4_an_imported_game_with_undos_audits_replays_and_takes_spectator_chat(shared_server):
    lines = finished_with_undo()
    status, answer_ = post(shared_server, body_of(lines))
    assert status == 201, answer_
    game_id = lines[0]["game"]
    assert log_of(shared_server, game_id) == lines

    async def main():
        spectator = await UndoClient.join(shared_server.ws_url, game_id)  # the whole log folded, undos checked
        assert spectator.head == len(lines) and spectator.envelopes[-1]["hash"] == lines[-1]["hash"]
        # Check: chat beside an imported game, in the spectators' channel; the log untouched.
        await say(spectator, "what a take-back")
        line = await next_chat(spectator)
        assert (line["type"], line["channel"], line["text"]) == ("chat", "spectators", "what a take-back"), line
        # Check: nobody can command it (no seat tokens): an undo from a spectator is refused.
        refused = await ask(spectator, "u-9", 2)
        assert refused["type"] in ("error", "rejected") and refused.get("code", refused.get("rule")), refused
        assert log_of(shared_server, game_id) == lines

    run(main())


def test_core_6_a_bot_seat_is_not_held_by_an_open_request_it_is_not_asked(shared_server):
    """Red asks to take back its drawing move and the bot's move after it: the bot's no comes at once
    (CORE-12: taken back, the draw would be drawn anew), red's draw stands, and the bot plays its turn
    after red's next command."""
    async def main():
        status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": "mecha/sample",
                                                                         "bots": {"blue": "random"}})
        assert status == 201, game
        red = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert (await red.command("c-1", *MOVE_FACE_DOWN))["type"] == "ack"
        await red.events_until(red.head + 1)
        while red.envelopes[-1]["command_id"] is None or not red.envelopes[-1]["command_id"].startswith("bot-"):
            await red.events_until(red.head + 1)
        # The bot has moved: it is red's turn. Red's undo back to its draw needs the bot's yes (CORE-5)
        # and says the draw would be drawn anew (CORE-12): the bot says no at once.
        before = red.state
        asked = await ask(red, "u-1", 2)
        assert asked["type"] == "ack", asked
        await red.events_until(asked["first"] + 1)
        request, answered = red.envelopes[asked["first"] - 1:asked["first"] + 1]
        assert request["data"]["needs"] == ["blue"] and request["data"]["redraw"] is True
        assert (answered["type"], answered["seat"], answered["data"]["yes"]) == ("UndoAnswered", "blue", False)
        assert red.table.undos.open is None and red.state == before  # refused: the draw stands
        # Red plays on (a Pass), and the bot plays its turn after it.
        again = await red.command("c-2", "Pass", {})
        assert again["type"] == "ack", again
        await red.events_until(again["last"] + 1)
        assert red.envelopes[again["last"]]["command_id"].startswith("bot-")

    run(main())


def test_core_12_a_bots_no_refuses_a_drawing_undo_the_person_it_also_waits_for_cannot_answer(shared_server):
    """Three seats, green a bot: red's undo across its draw waits for blue and green (CORE-5) and says
    it is drawn anew (CORE-12); green's no comes at once, which refuses it (CORE-6): blue's answer finds
    the request closed, and red's draw stands."""
    async def main():
        status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": "mecha/three-mechs",
                                                                         "bots": {"green": "random"}})
        assert status == 201, game
        red = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        moved = await red.command("c-1", *MOVE_FACE_DOWN)
        assert moved["type"] == "ack", moved
        await blue.events_until(moved["last"])
        asked = await ask(red, "u-1", 2)  # blue to move: it is asked, and the bot green
        assert asked["type"] == "ack", asked
        await blue.events_until(asked["first"] + 1)
        request, no = blue.envelopes[asked["first"] - 1:asked["first"] + 1]
        assert request["data"]["needs"] == ["blue", "green"] and request["data"]["redraw"] is True
        assert (no["type"], no["seat"], no["command_id"], no["data"]["yes"]) == \
            ("UndoAnswered", "green", f"bot-{no['seq']}", False)
        assert blue.table.undos.open is None
        answered = await answer(blue, "u-2", request["seq"], True)
        assert (answered["type"], answered.get("rule")) == ("rejected", "CORE-6"), answered
        # Red's draw stands; blue moves; then the bot plays its turn.
        log = log_of(shared_server, game["game"])
        assert not any(e["type"] == "UndoApplied" for e in log)
        assert (await blue.command("c-3", *BLUE_FACE_UP))["type"] == "ack"
        await blue.events_until(blue.head + 1)
        while not (blue.envelopes[-1]["command_id"] or "").startswith("bot-"):
            await blue.events_until(blue.head + 1)
        assert blue.envelopes[-1]["seat"] == "green"

    run(main())


async def frames_since(server, game_id: str, since: int) -> list:
    """The events frames a page saying hello with ``since`` gets, up to the head."""
    socket = await websockets.connect(f"{server.ws_url}/ws/{game_id}")
    await socket.send(json.dumps({"type": "hello", "since": since, "token": None}))
    welcome = json.loads(await socket.recv())
    received = []
    while since + sum(events_in(f) for f in received) < welcome["head"]:
        frame = json.loads(await socket.recv())
        if type(frame) is list:  # an events frame
            received.append(frame)
    await socket.close()
    return received


def test_core_4_wire_the_pages_follower_reconnects_across_an_undo_and_checks_every_hash(shared_server):
    """The browser's own code (client/follow.py) on a real server's frames: the first catch-up stops
    before an agreed undo, the reconnect from its seq brings the undo and the command made again
    (one frame per command), a frame resent folds nothing, and every hash is checked."""
    async def main():
        game = create_game(shared_server.base_url)
        red = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        moved = await red.command("c-1", *MOVE_FACE_DOWN)
        await blue.events_until(moved["last"])
        first = await frames_since(shared_server, game["game"], 0)  # the page's first visit
        asked = await ask(red, "u-1", 2)
        agreed = await answer(blue, "u-2", asked["first"], True)
        await red.events_until(agreed["last"])
        again = await red.command("c-2", *MOVE_FACE_DOWN)
        held = sum(events_in(f) for f in first)
        later = await frames_since(shared_server, game["game"], held)  # the reconnect
        return red, first, later, [asked, agreed, again]

    red, first, later, answers = run(main())
    i18n.install({"lang": "en", "messages": json.loads(CATALOGUE.read_text(encoding="utf-8"))})
    try:
        follower = Follower(red.game)
        for frame in first:
            follower.add_frame(frame, red.game_id)
        assert [f[0] + events_in(f) - 1 for f in later] == [a["last"] for a in answers]
        for frame in later:
            follower.add_frame(frame, red.game_id)
        assert follower.add_frame(later[0], red.game_id) == []  # resent after a reconnect: nothing folded
        follower.check_latest()
        while follower.check_some(5):
            pass
        assert follower.mismatch is None and follower.status() == f"hash ✓ seq {follower.seq}"
        assert follower.seq == red.head and follower.state == red.state
        assert sorted(follower.table.undos.undone) == sorted(red.table.undos.undone)
    finally:
        i18n.install({})

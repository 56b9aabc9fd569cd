"""The Room's guard ladder, one test per rung (frame, token, seat, repeated command id, decide),
and the connection's state machine, against a real server over real WebSockets."""

from __future__ import annotations

import json

import websockets

import events.games
from events.log import Table
from events.rules import Rejection
from events.wire import at_micros
from server import frames
from server.connection import CLOSE_NO_SUCH_GAME
from server.room import Room, now
from server.store.sqlite import SqliteStore
from tests.server.client import Client, run
from tests.server_fixture import create_game

MOVE_RED = ("Move", {"to": 2})  # red opens: from the Camp to Location 2


def test_guard_frame_hello_first(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        client = await Client.connect(shared_server.ws_url, game["game"])
        # Check a command before hello is refused and names what was expected.
        answer = await client.command("c-1", *MOVE_RED)
        assert answer == {"type": "error", "code": "hello-first",
                          "message": "expected a hello frame before any command", "id": "c-1"}
        # Check the socket is still open and a hello now works.
        await client.send({"type": "hello", "since": 0, "token": game["seats"]["red"]["token"]})
        assert (await client.recv())["type"] == "welcome"
        await client.close()

    run(main())


def test_guard_frame_bad_frames_keep_the_socket_open(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        client = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        cases = [
            ("not json {", "bad-frame", "not JSON"),
            (json.dumps({"type": "command", "id": 5, "command": {"type": "Move", "data": {}}}), "bad-frame",
             "Expected `str`, got `int` - at `$.id`"),
            (json.dumps({"type": "hello", "since": "0"}), "bad-frame", "Expected `int`, got `str` - at `$.since`"),
            (json.dumps({"type": "command", "id": "c", "command": {"type": "Move", "data": {}}, "x": 1}),
             "bad-frame", "unknown field `x`"),
            (json.dumps({"type": "dance"}), "unknown-frame", "got 'dance'"),
            (json.dumps([1, 2]), "bad-frame", "Expected `object`, got `array`"),
            ("x" * (frames.MAX_FRAME_BYTES + 1), "frame-too-large", f"got {frames.MAX_FRAME_BYTES + 1}"),
            (json.dumps({"type": "command", "id": "c-9", "command": {"type": "Move", "data": {"to": 1.5}}}),
             "bad-frame", "floats are not allowed"),
            (json.dumps({"type": "command", "id": "c-9", "command": {"type": "Move", "data": {"too": 2}}}),
             "bad-frame", "has no field 'too'"),
            # Check a field of the wrong kind (Move.KINDS: a Location number, a name or null) names its path.
            (json.dumps({"type": "command", "id": "c-9", "command": {"type": "Move", "data": {"to": True}}}),
             "bad-frame", "$.command.data.to: expected an integer, a string or null, got true"),
            (json.dumps({"type": "command", "id": "c-9", "command": {"type": "Move", "data": {"to": [2]}}}),
             "bad-frame", "$.command.data.to: expected an integer, a string or null, got a list of 1"),
        ]
        for raw, code, fact in cases:
            await client.send(raw)
            answer = await client.recv()
            assert answer["type"] == "error" and answer["code"] == code, (raw[:60], answer)
            assert fact in answer["message"], (raw[:60], answer)
        # Check a binary frame is read like a text frame.
        await client.send(b'{"type": "dance"}')
        assert (await client.recv())["code"] == "unknown-frame"
        # Check a valid command afterwards works.
        assert (await client.command("c-1", *MOVE_RED))["type"] == "ack"
        await client.close()

    run(main())


def test_guard_frame_fields_of_the_wrong_kind_are_refused_with_their_path(shared_server):
    """Issue 13: a command's declared kinds (skirmish's Move, DecideDoor) are checked at the edge: ``bad-frame``
    with the ``$`` path of the first fault and the command's id, the socket open, nothing decided."""
    async def main():
        game = create_game(shared_server.base_url, "skirmish/courtyard")
        token = next(iter(game["seats"].values()))["token"]
        client = await Client.join(shared_server.ws_url, game["game"], token)
        head = client.head
        cases = [
            ("Move", {"figure": "x", "to": [1, 1], "path": [[1, 1], [2, "3"]]},
             '$.command.data.path[1][1]: expected an integer, got "3"'),
            ("Move", {"to": "B2"}, '$.command.data.to: expected a list of 2, got "B2"'),
            ("DecideDoor", {"figure": "x", "door": "d", "open": "yes"},
             '$.command.data.open: expected true or false, got "yes"'),
            ("Activate", {"figure": 7}, "$.command.data.figure: expected a string, got 7"),
        ]
        for number, (kind, data, message) in enumerate(cases, 1):
            answer = await client.command(f"c-{number}", kind, data)
            assert answer == {"type": "error", "code": "bad-frame", "message": message, "id": f"c-{number}"}, answer
        assert client.head == head
        await client.close()

    run(main())


def test_guard_frame_unknown_command(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        client = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        answer = await client.command("c-1", "Fly", {"to": 2})
        assert answer["code"] == "unknown-command" and answer["id"] == "c-1"
        assert "mecha has no command 'Fly' (known: Move, Pass)" in answer["message"]
        await client.close()

    run(main())


def test_guard_token_forged_token_at_hello(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        client = await Client.connect(shared_server.ws_url, game["game"])
        # Check a forged token is refused and the socket stays open, still awaiting a hello.
        await client.send({"type": "hello", "since": 0, "token": "forged-" + game["seats"]["red"]["token"][7:]})
        answer = await client.recv()
        assert answer["type"] == "error" and answer["code"] == "bad-token", answer
        assert (await client.command("c-1", *MOVE_RED))["code"] == "hello-first"
        # Check a token of another game is as forged as any.
        other = create_game(shared_server.base_url)
        await client.send({"type": "hello", "since": 0, "token": other["seats"]["red"]["token"]})
        assert (await client.recv())["code"] == "bad-token"
        # Check the right token is then accepted and plays.
        await client.send({"type": "hello", "since": 0, "token": game["seats"]["red"]["token"]})
        welcome = await client.recv()
        assert welcome == {"type": "welcome", "game": game["game"], "rules": "mecha", "seat": "red", "head": 1,
                           "started": welcome["started"], "seats": ["red", "blue"], "build": welcome["build"]}
        await client.events_until(1)
        # The start the events frames' times count from: GameStarted's time, as the server spells it.
        assert welcome["started"] == client.envelopes[0]["at"] and at_micros(welcome["started"]) is not None
        assert (await client.command("c-1", *MOVE_RED))["type"] == "ack"
        await client.close()

    run(main())


def test_guard_seat_spectator_cannot_command(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        spectator = await Client.join(shared_server.ws_url, game["game"])
        assert spectator.welcome["seat"] is None
        answer = await spectator.command("c-1", *MOVE_RED)
        assert answer["code"] == "spectator" and answer["id"] == "c-1"
        assert "spectators can only read" in answer["message"]
        # Check nothing was applied: a seat joining now sees only the start.
        red = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert red.welcome["head"] == 1
        await spectator.close()
        await red.close()

    run(main())


def test_guard_repeated_command_id_is_applied_once(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        red = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        spectator = await Client.join(shared_server.ws_url, game["game"])
        first = await red.command("c-1", *MOVE_RED)
        assert first == {"type": "ack", "id": "c-1", "first": 2, "last": 3}
        # Check the same id resent (even with another body) gets the same ack and no new event.
        again = await red.command("c-1", "Pass", {})
        assert again == first
        assert red.head == 3
        # Check the spectator saw the events once: the next thing it gets is blue's move.
        blue = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        assert (await blue.command("c-2", "Pass"))["first"] == 4
        await spectator.events_until(5)
        assert [e["seq"] for e in spectator.envelopes] == [1, 2, 3, 4, 5]
        # Check another seat cannot reuse an id: it is refused, not answered with red's ack.
        await red.events_until(5)
        taken = await blue.command("c-1", "Pass")
        assert taken["code"] == "id-taken" and "already used by seat red" in taken["message"]
        for client in (red, blue, spectator):
            await client.close()

    run(main())


def test_guard_decide_rejection_cites_the_clause(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        blue = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        # Check a command out of turn is rejected with the clause and the fact, and nothing changes.
        answer = await blue.command("c-1", "Move", {"to": 2})
        assert answer == {"type": "rejected", "id": "c-1", "rule": "MV-C3", "reason": "it is red's turn, not blue's",
                          "key": "reject.mecha.turn", "params": {"other_seat": "blue", "seat": "red"}}
        red = await Client.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        answer = await red.command("c-2", "Move", {"to": 99})
        assert answer["type"] == "rejected" and answer["rule"].startswith("MV-") and "99" in answer["reason"], answer
        # The same fact as a message of the catalogue (issue 17), its nested phrases as objects.
        assert answer["key"] == "reject.mecha.no_location" and answer["params"] == {"to": 99}, answer
        assert red.head == 1
        await blue.close()
        await red.close()

    run(main())


def test_connection_already_greeted_and_bad_since(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        client = await Client.connect(shared_server.ws_url, game["game"])
        # Check a hello beyond the head is refused; the socket still awaits a hello.
        await client.send({"type": "hello", "since": 5, "token": None})
        answer = await client.recv()
        assert answer["code"] == "bad-since" and "beyond the last seq 1" in answer["message"]
        await client.send({"type": "hello", "since": 1, "token": None})
        assert (await client.recv())["type"] == "welcome"
        # Check a second hello is refused.
        await client.send({"type": "hello", "since": 0, "token": None})
        assert (await client.recv())["code"] == "already-greeted"
        await client.close()

    run(main())


def test_connection_to_an_unknown_game_is_closed(shared_server):
    async def main():
        async with websockets.connect(f"{shared_server.ws_url}/ws/g-nonexistent") as socket:
            answer = json.loads(await socket.recv())
            assert answer["code"] == "no-such-game" and "g-nonexistent" in answer["message"]
            try:
                await socket.recv()
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd.code == CLOSE_NO_SUCH_GAME
            else:
                raise AssertionError("the socket stayed open")

    run(main())


def test_seq_conflict_re_reads_and_re_decides(tmp_path):
    """Two Rooms over one SQLite file, as two server processes would be: the loser re-decides."""

    async def main():
        store = SqliteStore(tmp_path / "store.db")
        await store.open()
        game = events.games.load("mecha")
        from server.scenarios import load

        _, scenario = load("mecha/sample")
        table = Table.create(game, "g-conflict0", scenario, 11, at=now())
        from server.store import GameMeta, Stored

        await store.create_game(
            GameMeta("g-conflict0", "mecha", "t", ("red", "blue"), {}, now()),
            [Stored(e.seq, None, frames.encode_envelope(e)) for e in table.envelopes],
        )
        first, second = await Room.load(store, "g-conflict0"), await Room.load(store, "g-conflict0")
        move = game.commands.build({"type": "Move", "to": 2})
        # Check the first room's move is stored.
        assert json.loads(await first.submit("red", move, "c-1"))["type"] == "ack"
        # Check the stale room, deciding red's move to 3 on its old state, conflicts, re-reads, and then
        # finds it is blue's turn: rejected, with nothing written.
        other = game.commands.build({"type": "Move", "to": 3})
        answer = json.loads(await second.submit("red", other, "c-2"))
        assert answer["type"] == "rejected" and answer["rule"] == "MV-C3", answer
        assert second.table.seq == first.table.seq == 3
        # Check a resend of c-1 through the other room, after the conflict, gets c-1's ack.
        assert json.loads(await second.submit("red", move, "c-1")) == {"type": "ack", "id": "c-1", "first": 2, "last": 3}
        # Check a stale room whose command is still valid after re-reading appends after the other's events.
        third = await Room.load(store, "g-conflict0")
        await first.submit("blue", game.commands.build({"type": "Pass"}), "c-3")
        answer = json.loads(await third.submit("red", game.commands.build({"type": "Pass"}), "c-4"))
        assert answer == {"type": "ack", "id": "c-4", "first": 6, "last": 7}, answer
        assert [item.seq for item in await store.read("g-conflict0")] == [1, 2, 3, 4, 5, 6, 7]
        assert not isinstance(answer, Rejection)
        await store.close()

    run(main())


def test_a_log_that_no_longer_replays_is_refused_clearly(shared_server):
    import sqlite3

    from server.connection import CLOSE_SERVER_ERROR

    game = create_game(shared_server.base_url)
    # Tamper with the stored hash of seq 1, as a rules change that alters states would.
    db = sqlite3.connect(shared_server.db_path)
    with db:
        db.execute("UPDATE events SET envelope = replace(envelope, '\"hash\":\"', '\"hash\":\"0') "
                   "WHERE game = ? AND seq = 1", (game["game"],))
    db.close()

    async def main():
        async with websockets.connect(f"{shared_server.ws_url}/ws/{game['game']}") as socket:
            answer = json.loads(await socket.recv())
            assert answer["code"] == "game-unavailable" and "seq 1" in answer["message"], answer
            try:
                await socket.recv()
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd.code == CLOSE_SERVER_ERROR

    run(main())
    from tests.server_fixture import get_json

    status, answer = get_json(f"{shared_server.base_url}/api/games/{game['game']}/state")
    assert status == 500 and answer["code"] == "game-unavailable"

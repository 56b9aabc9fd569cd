"""Undo with consent over the wire (issue 18; CORE-4 to CORE-7): hostile frames first, then the story,
against a real server over real WebSockets, every envelope folded and verified by a ``Table``."""

from __future__ import annotations

import asyncio

from events.canonical import state_hash
from events.dice import command_rng, local_secret
from events.log import Envelope, Table
from events.wire import hash_matches
from server import frames, scenarios
from tests.server.client import Client, run
from tests.server_fixture import create_game, get_json, post_json, seeded_game, server_fixture

MOVE_FACE_UP = ("Move", {"to": 2})  # red opens to Location 2, face up: no draw
BLUE_FACE_UP = ("Move", {"to": 3})
MOVE_FACE_DOWN = ("Move", {"to": 7})  # face down: revealed, Corruption drawn (MV-6a, MV-6c)


class UndoClient(Client):
    """Folds through ``Table.absorb``, as the browser does: undo events are checked and folded by its book."""

    table: Table | None = None

    def _fold(self, raw: dict) -> None:
        assert raw["seq"] == self.head + 1, f"expected seq {self.head + 1}, got {raw['seq']}"
        self.envelopes.append(raw)
        if self.table is None:
            self.table = Table(self.game, self.game_id)
        # One hash a frame (issue 16): the states between are hashed here, the frame's own (its first
        # 96 bits) is checked, and the whole hash computed kept.
        sent = raw["hash"]
        self.table.absorb(Envelope.from_dict(self.game, dict(raw, hash=sent or "")), verify=False)
        folded = state_hash(self.table.state)
        assert sent is None or hash_matches(folded, sent), f"hash differs at seq {raw['seq']}"
        raw["hash"] = self.table.envelopes[-1].hash = folded
        self.state = self.table.state


async def seats(server, game: dict) -> tuple:
    red = await UndoClient.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
    blue = await UndoClient.join(server.ws_url, game["game"], game["seats"]["blue"]["token"])
    return red, blue


async def ask(client: Client, command_id: str, back_to: int) -> dict:
    return await client.command(command_id, "AskUndo", {"back_to": back_to})


async def answer(client: Client, command_id: str, request: int, yes: bool) -> dict:
    return await client.command(command_id, "AnswerUndo", {"request": request, "yes": yes})


def test_core_4_a_spectator_cannot_ask_or_answer(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        red, _blue = await seats(shared_server, game)
        await red.command("c-1", *MOVE_FACE_UP)
        spectator = await UndoClient.join(shared_server.ws_url, game["game"])
        for reply in (await ask(spectator, "u-1", 2), await answer(spectator, "u-2", 4, True)):
            assert reply["code"] == "spectator" and "spectators can only read" in reply["message"]
        assert (await red.command("c-2", "Pass"))["type"] == "rejected"  # still blue's turn: nothing was undone

    run(main())


def test_core_4_and_core_6_hostile_undo_commands_are_refused_with_clause_and_fact(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        red, blue = await seats(shared_server, game)
        assert (await red.command("c-1", *MOVE_FACE_UP))["first"] == 2
        await blue.events_until(3)
        # Check: another seat's command is not blue's to take back.
        reply = await ask(blue, "u-1", 2)
        assert reply["type"] == "rejected" and reply["rule"] == "CORE-4" and "red's command Move" in reply["reason"]
        assert (reply["key"], reply["params"]) == ("reject.undo.not_own", {"back_to": 2, "seat": "red", "command": "Move"})
        # Check: answering a request that is not open.
        reply = await answer(blue, "u-2", 3, True)
        assert reply == {"type": "rejected", "id": "u-2", "rule": "CORE-6",
                         "reason": "seq 3 is no undo request (none is)",
                         "key": "reject.undo.no_request", "params": {"request": 3}}
        assert (await blue.command("c-2", *BLUE_FACE_UP))["first"] == 4
        await red.events_until(5)
        asked = await ask(red, "u-3", 2)
        assert asked["first"] == 6 and asked["last"] == 6  # waits for blue
        # Check: a seat answering its own request; a seat the request does not wait for is the same fact.
        reply = await answer(red, "u-4", 6, True)
        assert reply["rule"] == "CORE-6" and reply["reason"] == "red asked this undo: its request is its own yes"
        assert (reply["key"], reply["params"]) == ("reject.undo.own_request", {"seat": "red"})
        # Check: a flood of requests while one is open is refused, each without an event.
        for number in range(5):
            reply = await ask(red, f"u-flood-{number}", 2)
            assert reply["type"] == "rejected" and reply["rule"] == "CORE-6" and "still open" in reply["reason"]
            assert (reply["key"], reply["params"]) == ("reject.undo.still_open", {"seat": "red", "seq": 6})
        assert red.head == 6
        # Check: a frame of the wrong shape is refused with its path, the socket stays up.
        reply = await red.command("u-5", "AskUndo", {"back_to": "two"})
        assert reply["code"] == "bad-frame" and "$.command.data.back_to" in reply["message"], reply
        # Check: a no refuses it, and asking the same again before any command is refused too.
        assert (await answer(blue, "u-6", 6, False))["first"] == 7
        reply = await ask(red, "u-7", 2)
        assert reply["rule"] == "CORE-6" and "refused" in reply["reason"]
        assert (reply["key"], reply["params"]) == ("reject.undo.refused_again", {"back_to": 2})

    run(main())


def test_core_4_no_undo_after_the_game_is_over(shared_server):
    async def main():
        _name, data = scenarios.load("mecha/sample")
        game = create_game(shared_server.base_url, dict(data, rounds=1))  # one round: two passes end it
        red, blue = await seats(shared_server, game)
        await red.command("c-1", "Pass")
        last = await blue.command("c-2", "Pass")
        assert red.table is not None
        await red.events_until(last["last"])
        assert red.envelopes[-1]["type"] == "SecretRevealed"
        reply = await ask(blue, "u-1", last["first"])
        assert reply["rule"] == "CORE-4" and "the game is over" in reply["reason"]

    run(main())


def test_core_5_to_core_7_the_story_free_with_a_yes_and_across_dice(chronicle_server):
    async def main():
        game = seeded_game(chronicle_server, "mecha/sample", 11)
        red, blue = await seats(chronicle_server, game)
        start = red.state
        # Check: red takes back its own move at once (CORE-5): UndoAsked then UndoApplied, back to the start.
        assert (await red.command("c-1", *MOVE_FACE_UP))["first"] == 2
        assert await ask(red, "u-1", 2) == {"type": "ack", "id": "u-1", "first": 4, "last": 5}
        assert red.state == start and [e["type"] for e in red.envelopes[3:]] == ["UndoAsked", "UndoApplied"]
        # Check: across blue's move it waits for blue's yes.
        assert (await red.command("c-2", *MOVE_FACE_UP))["first"] == 6
        await blue.events_until(7)
        assert (await blue.command("c-3", *BLUE_FACE_UP))["first"] == 8
        await red.events_until(9)
        asked = await ask(red, "u-2", 6)
        assert asked["first"] == asked["last"] == 10 and red.envelopes[-1]["data"]["needs"] == ["blue"]
        await blue.events_until(10)
        assert blue.table.undos.open.seq == 10
        assert (await answer(blue, "u-3", 10, True))["last"] == 12
        await red.events_until(12)
        assert red.state == start and red.envelopes[-1]["data"]["agreed"] == ["blue"]
        # Check: across red's own die draw it waits for every other seat and says the draw is drawn anew
        # (CORE-12); the same move made again draws with the key of its own seq, never the one shown.
        drew = await red.command("c-4", *MOVE_FACE_DOWN)
        drawn = [e["data"] for e in red.envelopes[drew["first"] - 1:] if e["type"] == "CorruptionDrawn"]
        assert drawn, "Location 7 is face down: its Corruption is drawn"
        asked = await ask(red, "u-4", drew["first"])
        assert red.envelopes[-1]["data"]["needs"] == ["blue"] and red.envelopes[-1]["data"]["redraw"] is True
        await blue.events_until(asked["last"])
        await answer(blue, "u-5", asked["first"], True)
        await red.events_until(asked["last"] + 2)
        before = red.state
        again = await red.command("c-5", *MOVE_FACE_DOWN)
        game_rules = red.table.game
        keyed = game_rules.decide(before, "red", game_rules.commands.build({"type": "Move", "to": 7}),
                                  command_rng(local_secret(11), again["first"]))
        redrawn = [e["data"] for e in red.envelopes[again["first"] - 1:] if e["type"] == "CorruptionDrawn"]
        assert redrawn == [{k: v for k, v in event.to_data().items() if k != "type"}
                           for event in keyed if event.TYPE == "CorruptionDrawn"]
        shown = game_rules.decide(before, "red", game_rules.commands.build({"type": "Move", "to": 7}),
                                  command_rng(local_secret(11), drew["first"]))
        assert [e for e in keyed if e.TYPE == "CorruptionDrawn"] != [e for e in shown if e.TYPE == "CorruptionDrawn"]
        # Check: a server restarted mid-game folds the undos from its log (no snapshot) and plays on.
        chronicle_server.restart()
        await asyncio.sleep(0)
        late = await UndoClient.join(chronicle_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        assert late.state == red.state and late.head == red.head
        assert (await late.command("c-6", "Pass"))["type"] == "ack"
        # Check: the state at a seq after an undo is the state before what it took back (folded from seq 1).
        status, body = get_json(f"{chronicle_server.base_url}/api/games/{game['game']}/state?seq=5")
        assert status == 200 and body["hash"] == red.envelopes[0]["hash"]

    run(main())


def test_undo_frames_are_commands_of_every_game():
    import events.games

    for name in ("mecha", "skirmish", "arkham", "echo", "gloomhaven"):
        game = events.games.load(name)
        frame = frames.decode_client_frame('{"type":"command","id":"u","command":{"type":"AskUndo","data":'
                                           '{"back_to":2}}}')
        assert frames.build_command(game, frame).TYPE == "AskUndo"


def test_core_12_a_bot_says_yes_to_an_undo_across_its_move_unless_it_drew(shared_server):
    """CORE-6, CORE-12: the bot's random move may draw (a face-down Location): its answer is yes when the
    stretch drew nothing, no when it did (drawn anew, it would be a re-roll)."""
    async def main():
        status, game = post_json(f"{shared_server.base_url}/api/games", {"scenario": "mecha/sample",
                                                                         "bots": {"blue": "random"}})
        assert status == 201, game
        red = await UndoClient.join(shared_server.ws_url, game["game"], game["seats"]["red"]["token"])
        start = red.state
        assert (await red.command("c-1", *MOVE_FACE_UP))["first"] == 2
        await red.events_until(5)  # the bot's move
        assert red.envelopes[3]["command_id"] == "bot-4"
        drew = any(e["type"] in ("CorruptionDrawn", "LocationRevealed") for e in red.envelopes[3:])
        asked = await ask(red, "u-1", 2)
        await red.events_until(asked["first"])
        assert red.envelopes[asked["first"] - 1]["data"].get("redraw", False) is drew
        await red.events_until(asked["first"] + 1)
        answered = red.envelopes[asked["first"]]
        assert answered["type"] == "UndoAnswered" and answered["seat"] == "blue"
        assert answered["data"]["yes"] is not drew
        assert answered["data"].get("why") == ("CORE-12" if drew else None)  # its no cites the clause, in the log
        if not drew:
            await red.events_until(asked["first"] + 2)
            applied = red.envelopes[asked["first"] + 1]
            assert applied["type"] == "UndoApplied" and red.state == start  # red's turn again: the bot waits

    run(main())


# gamebounds (/tmp probe undogrow): a seat looping Move then its own free AskUndo grew its live log by
# 11,401 envelopes in 30 s, the rounds never advancing. The server bounds the undo requests of a seat
# in a game (undos_per_seat); 3 here, so the bound is met in a few commands.
undo_server = server_fixture("undos", {"CHRONICLE_UNDOS_PER_SEAT": "3"})


def test_core_4_a_seats_undo_requests_are_bounded_per_game_and_the_game_goes_on(undo_server):
    async def main():
        game = seeded_game(undo_server, "mecha/sample", 11)
        red, blue = await seats(undo_server, game)
        # Check: red's first 3 requests are its own free undos (CORE-5), each applied.
        for number in range(3):
            moved = await red.command(f"m-{number}", *MOVE_FACE_UP)
            assert (await ask(red, f"u-{number}", moved["first"]))["type"] == "ack"
        kept = (await red.command("m-3", *MOVE_FACE_UP))["first"]
        head = red.head
        # Check: the 4th is refused with its own code and the fact, and nothing is appended.
        refused = await ask(red, "u-3", kept)
        assert refused["type"] == "error" and refused["code"] == "too-many-undos", refused
        assert refused["id"] == "u-3"
        assert "red asked 3 undos in this game, the most this server takes from one seat" in refused["message"]
        assert (await red.command("m-4", "Pass"))["type"] == "rejected"  # still blue's turn: nothing undone
        assert red.head == head and [e["type"] for e in red.envelopes[-2:]] != ["UndoAsked", "UndoApplied"]
        # Check: the bound is red's: blue still asks its own, and the game goes on.
        await blue.events_until(head)
        moved = await blue.command("b-1", *BLUE_FACE_UP)
        assert (await ask(blue, "bu-1", moved["first"]))["type"] == "ack"
        # Check: it is counted from the log, so a restarted server holds red to it too.
        undo_server.restart()
        again = await UndoClient.join(undo_server.ws_url, game["game"], game["seats"]["red"]["token"])
        refused = await ask(again, "u-5", kept)
        assert refused["code"] == "too-many-undos", refused

    run(main())

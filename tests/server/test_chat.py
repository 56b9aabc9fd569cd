"""Table talk (issue 18, server/chat.py) over real WebSockets against a real server: channels,
every bound with its own code, history on join, and the log and its hashes untouched by chat."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest
import websockets

from server.store.sqlite import SqliteStore
from tests.postgres_fixture import CliServer, postgres_database, postgres_server  # noqa: F401
from tests.server.client import Client, run
from tests.server_fixture import ServerProcess, _run_apart, create_game, get_json, server_fixture

pytestmark = pytest.mark.server

# Small chat bounds, so that a flood, a game's rate and its cap are reached in a few messages.
CHAT = {"CHRONICLE_CHAT_BURST": "3", "CHRONICLE_CHAT_PER_MINUTE": "6", "CHRONICLE_CHAT_GAME_PER_MINUTE": "8",
        "CHRONICLE_CHAT_HISTORY": "4", "CHRONICLE_CHAT_PER_GAME": "12"}


chat_server = server_fixture("chat", CHAT)


async def say(client: Client, text: object) -> None:
    await client.send({"type": "chat", "text": text})


async def next_chat(client: Client) -> dict:
    """The next frame that is not an event (a chat, a history or an error)."""
    return await client.answer()


async def said(client: Client, text: str) -> dict:
    """Send ``text``; read until its own copy comes back (others' messages may come first)."""
    await say(client, text)
    while True:
        frame = await next_chat(client)
        if frame["type"] != "chat" or frame["text"] == text:
            return frame


async def silent(client: Client, seconds: float = 0.3) -> bool:
    """True if nothing but events arrives for ``seconds``."""
    try:
        frame = await asyncio.wait_for(client.answer(), seconds)
    except TimeoutError:
        return True
    raise AssertionError(f"expected nothing, got {frame}")


async def table(server: ServerProcess) -> tuple[dict, Client, Client, Client]:
    game = create_game(server.base_url)
    seats, spectator = await Client.join_all(server.ws_url, game)
    return game, seats["red"], seats["blue"], spectator


def test_chat_a_seats_message_reaches_the_seats_and_a_spectators_the_spectators(chat_server):
    async def main():
        game, red, blue, spectator = await table(chat_server)
        other = await Client.join(chat_server.ws_url, game["game"])
        # Check a seat's message goes to every seat (its sender included), in the seats' channel, as red.
        await say(red, "  good luck, blue  ")
        for client in (red, blue):
            line = await next_chat(client)
            assert (line["type"], line["n"], line["channel"], line["author"], line["text"]) == (
                "chat", 1, "seats", "red", "good luck, blue")
            assert line["at"].endswith("Z")
        # Check a spectator's goes to the spectators only, authored "spectator", numbered after it.
        await say(spectator, "red is brave")
        for client in (spectator, other):
            line = await next_chat(client)
            assert (line["n"], line["channel"], line["author"], line["text"]) == (
                2, "spectators", "spectator", "red is brave")
        # Check neither crossed: the spectators never got n=1, the seats never get n=2.
        await say(blue, "thanks")
        assert (await next_chat(red))["n"] == 3 and (await next_chat(blue))["n"] == 3
        assert await silent(spectator) and await silent(other)

    run(main())


def test_chat_never_enters_the_log_or_its_hashes(chat_server):
    async def main():
        game, red, blue, spectator = await table(chat_server)
        _, log_before = get_json(f"{chat_server.base_url}/api/games/{game['game']}/log")
        head = red.head
        for client, text in ((red, "one"), (blue, "two"), (spectator, "three")):
            await say(client, text)
            await next_chat(client)
        assert (await next_chat(red))["text"] == "two"  # blue's, to the seats
        # Check the log, its head and the hash of its last envelope are what they were.
        _, log_after = get_json(f"{chat_server.base_url}/api/games/{game['game']}/log")
        assert log_after == log_before
        _, games = get_json(f"{chat_server.base_url}/api/games")
        assert next(g for g in games if g["game"] == game["game"])["head"] == head
        # Check a page joining now folds the same envelopes to the same hash (Client checks each hash).
        late = await Client.join(chat_server.ws_url, game["game"])
        assert late.envelopes == red.envelopes and late.envelopes[-1]["hash"] == red.envelopes[-1]["hash"]
        # Check the game goes on: a command after chat is acknowledged at the next seq.
        answer = await red.command("c-1", "Move", {"to": 2})
        assert answer["type"] == "ack" and answer["first"] == head + 1

    run(main())


@pytest.mark.parametrize("text, code, fact", [
    ("", "chat-empty", "$.text: a chat message needs at least one character"),
    (" \u3000 ", "chat-empty", "$.text"),
    ("x" * 501, "chat-too-long", "at most 500 characters (after normalising), got 501"),
    ("\u00e9" * 1000, "chat-too-long", "got 1000"),  # a huge message, 6,000 bytes as sent: under the frame bound
    ("ding\x07", "chat-control-character", "$.text[4]: a chat message may hold no control character, got U+0007"),
    ("two\nlines", "chat-control-character", "$.text[3]"),
    ("trailing\n", "chat-control-character", "$.text[8]"),
    ("evil\u202etxt.exe", "chat-control-character", "got U+202E"),
    ("\x1b[31mred", "chat-control-character", "$.text[0]"),
])
def test_chat_bad_text_is_refused_with_its_code_and_kept_nowhere(chat_server, text, code, fact):
    async def main():
        game, red, blue, _spectator = await table(chat_server)
        await say(red, text)
        answer = await next_chat(red)
        assert answer["type"] == "error" and answer["code"] == code, answer
        assert fact in answer["message"], answer
        # Check nothing was kept or sent, and the socket still talks.
        assert await silent(blue, 0.1)
        await say(red, "fine")
        assert (await next_chat(blue))["n"] == 1

    run(main())


def test_chat_bound_counts_characters_after_normalising(chat_server):
    async def main():
        _game, red, _blue, _spectator = await table(chat_server)
        # Check 500 "é" typed as e + combining acute (1,000 code points) is 500 after NFC: accepted.
        await say(red, "e\u0301" * 500)
        line = await next_chat(red)
        assert line["type"] == "chat" and line["text"] == "\u00e9" * 500
        # Check markup is kept as the text it is (the page shows it with textContent).
        await say(red, "<img src=x onerror=alert(1)>")
        assert (await next_chat(red))["text"] == "<img src=x onerror=alert(1)>"

    run(main())


@pytest.mark.parametrize("frame, code, fact", [
    ({"type": "chat", "text": "I am red", "seat": "red"}, "bad-frame", "unknown field `seat`"),
    ({"type": "chat", "text": "into the seats", "channel": "seats"}, "bad-frame", "unknown field `channel`"),
    ({"type": "chat", "text": "as red", "author": "red"}, "bad-frame", "unknown field `author`"),
    ({"type": "chat", "text": 5}, "bad-frame", "Expected `str`, got `int` - at `$.text`"),
    ({"type": "chat"}, "bad-frame", "missing required field `text`"),
])
def test_chat_a_spectator_cannot_forge_a_seat_or_a_channel(chat_server, frame, code, fact):
    async def main():
        _game, red, _blue, spectator = await table(chat_server)
        await spectator.send(frame)
        answer = await next_chat(spectator)
        assert (answer["type"], answer["code"]) == ("error", code) and fact in answer["message"], answer
        assert await silent(red, 0.1)

    run(main())


def test_chat_a_huge_frame_is_refused_before_it_is_read(chat_server):
    async def main():
        _game, red, _blue, _spectator = await table(chat_server)
        await say(red, "x" * 9000)
        answer = await next_chat(red)
        assert answer["code"] == "frame-too-large", answer
        await say(red, "still here")
        assert (await next_chat(red))["type"] == "chat"

    run(main())


def test_chat_before_hello_is_refused(chat_server):
    async def main():
        game = create_game(chat_server.base_url)
        client = await Client.connect(chat_server.ws_url, game["game"])
        await say(client, "hi")
        assert await client.recv() == {"type": "error", "code": "hello-first",
                                       "message": "expected a hello frame before any chat message", "id": None}

    run(main())


def test_chat_on_an_unknown_game_gets_no_such_game_and_the_socket_closes(chat_server):
    async def main():
        socket = await websockets.connect(f"{chat_server.ws_url}/ws/g-nosuchgame0")
        # The server answers an unknown game at once and closes: under load the close may come
        # before this send goes out, and the answer is still there to read.
        with contextlib.suppress(websockets.ConnectionClosed):
            await socket.send(json.dumps({"type": "chat", "text": "anyone?"}))
        assert json.loads(await socket.recv())["code"] == "no-such-game"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(socket.recv(), 10)
        assert closed.value.rcvd.code == 4004

    run(main())


def test_chat_flood_from_one_socket_is_rate_limited_and_the_socket_stays_up(chat_server):
    async def main():
        _game, red, blue, _spectator = await table(chat_server)
        # Check a burst of 10: the first 3 (chat_burst) go out, the other 7 get chat-rate-limited.
        for number in range(10):
            await say(red, f"spam {number}")
        answers = [await next_chat(red) for _ in range(10)]
        assert [a["type"] for a in answers] == ["chat"] * 3 + ["error"] * 7
        assert {a["code"] for a in answers[3:]} == {"chat-rate-limited"}
        assert "more than 6 chat messages a minute (bursts of 3) on one connection" in answers[3]["message"]
        assert [(await next_chat(blue))["text"] for _ in range(3)] == ["spam 0", "spam 1", "spam 2"]
        assert await silent(blue, 0.2)
        # Check commands are not rate-limited by chat: the game goes on.
        assert (await red.command("c-1", "Move", {"to": 2}))["type"] == "ack"

    run(main())


def test_chat_game_rate_bounds_many_sockets_together(chat_server):
    async def main():
        game = create_game(chat_server.base_url)
        watchers = [await Client.join(chat_server.ws_url, game["game"]) for _ in range(3)]
        # Check 3 sockets x 3 messages (each within its own burst): the game's 8 a minute take 8, the 9th is refused.
        codes = []
        for number in range(9):
            sender = watchers[number // 3]
            await say(sender, f"m{number}")
            while True:
                frame = await next_chat(sender)
                if frame["type"] == "error" or frame["text"] == f"m{number}":
                    break
            codes.append(frame.get("code", "chat"))
        assert codes == ["chat"] * 8 + ["chat-game-rate-limited"]

    run(main())


def test_chat_spectators_never_take_the_seats_game_rate(chat_server):
    """gamebounds, /tmp probe chatlock: one game bucket per channel. Spectators (each within its own
    socket's rate) spending the whole game rate of theirs leave the seats' channel its own."""

    async def main():
        game = create_game(chat_server.base_url)
        red = await Client.join(chat_server.ws_url, game["game"], game["seats"]["red"]["token"])
        blue = await Client.join(chat_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        watchers = [await Client.join(chat_server.ws_url, game["game"]) for _ in range(3)]
        # Check 3 spectators x 3 lines: their channel's 8 a minute take 8, the 9th is chat-game-rate-limited.
        codes = []
        for number in range(9):
            sender = watchers[number // 3]
            frame = await said(sender, f"w{number}")
            codes.append(frame.get("code", "chat"))
        assert codes == ["chat"] * 8 + ["chat-game-rate-limited"]
        # Check the seats still have their channel's 8 (four sockets, each within its burst), then theirs is spent.
        seats = (red, blue, await Client.join(chat_server.ws_url, game["game"], game["seats"]["red"]["token"]),
                 await Client.join(chat_server.ws_url, game["game"], game["seats"]["blue"]["token"]))
        for number in range(8):
            frame = await said(seats[number % 4], f"s{number}")
            assert frame["type"] == "chat" and frame["channel"] == "seats", frame
        refused = await said(seats[0], "s8")
        assert refused["code"] == "chat-game-rate-limited" and "seats' channel" in refused["message"], refused

    run(main())


def test_chat_spectators_filling_their_cap_leave_the_seats_channel_open(chat_server):
    """gamebounds, /tmp probe chatfull: chat_per_game is each channel's cap."""
    game = create_game(chat_server.base_url)

    async def fill() -> None:  # 12 (chat_per_game) spectators' lines kept beside the running server
        store = SqliteStore(chat_server.db_path)
        await store.open()
        try:
            for n in range(12):
                await store.add_chat(game["game"], "spectators", "spectator", f"spam {n}", "2026-12-01T00:00:00Z",
                                     cap=12)
        finally:
            await store.close()

    _run_apart(fill)

    async def main():
        red = await Client.join(chat_server.ws_url, game["game"], game["seats"]["red"]["token"])
        watcher = await Client.join(chat_server.ws_url, game["game"])
        assert len((await next_chat(watcher))["messages"]) == 4  # the spectators' history
        # Check a spectator's next line is chat-full, naming the spectators' channel.
        await say(watcher, "one more")
        answer = await next_chat(watcher)
        assert answer["code"] == "chat-full" and "spectators' channel" in answer["message"], answer
        # Check red's line is kept, numbered after the spectators'.
        line = await said(red, "good luck, blue")
        assert (line["type"], line["n"], line["channel"]) == ("chat", 13, "seats"), line

    run(main())


def test_chat_history_on_join_is_the_newest_of_ones_channel(chat_server):
    async def main():
        game, red, blue, spectator = await table(chat_server)
        for client, text in ((red, "a"), (blue, "b"), (spectator, "watching"), (red, "c"), (blue, "d"), (red, "e")):
            assert (await said(client, text))["type"] == "chat"
        # Check a seat joining gets the newest 4 (chat_history) of the seats' channel, oldest first.
        late = await Client.join(chat_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        history = await next_chat(late)
        assert history["type"] == "chat-history" and history["channel"] == "seats"
        assert [(m["n"], m["author"], m["text"]) for m in history["messages"]] == [
            (2, "blue", "b"), (4, "red", "c"), (5, "blue", "d"), (6, "red", "e")]
        # Check a spectator joining gets the spectators' only.
        watcher = await Client.join(chat_server.ws_url, game["game"])
        history = await next_chat(watcher)
        assert [(m["n"], m["channel"], m["text"]) for m in history["messages"]] == [(3, "spectators", "watching")]
        # Check a game without chat sends no history at all.
        quiet = create_game(chat_server.base_url)
        assert await silent(await Client.join(chat_server.ws_url, quiet["game"]), 0.2)

    run(main())


def test_chat_full_game_keeps_no_more(chat_server):
    game = create_game(chat_server.base_url)

    async def fill() -> None:  # 12 (chat_per_game) messages kept beside the running server
        store = SqliteStore(chat_server.db_path)
        await store.open()
        try:
            for n in range(12):
                await store.add_chat(game["game"], "seats", "red", f"old {n}", "2026-12-01T00:00:00Z", cap=12)
        finally:
            await store.close()

    _run_apart(fill)

    async def main():
        red = await Client.join(chat_server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert len((await next_chat(red))["messages"]) == 4  # the history
        await say(red, "one more")
        answer = await next_chat(red)
        assert answer["code"] == "chat-full" and "12 chat messages in its seats' channel" in answer["message"], answer

    run(main())


def test_chat_survives_a_restart(chronicle_server):
    async def main():
        game, red, _blue, _spectator = await table(chronicle_server)
        await say(red, "before the crash")
        await next_chat(red)
        await red.close()
        chronicle_server.restart()
        again = await Client.join(chronicle_server.ws_url, game["game"], game["seats"]["blue"]["token"])
        history = await next_chat(again)
        assert [(m["n"], m["author"], m["text"]) for m in history["messages"]] == [(1, "red", "before the crash")]

    run(main())


def test_chat_reaches_the_channel_on_another_process_sharing_postgresql(tmp_path, postgres_database):  # noqa: F811
    """Two ``chronicle serve`` processes on one PostgreSQL: a message kept by one reaches its channel's
    sockets on the other (NOTIFY ``chat <game> <n>``), once each, and never the other channel."""
    url = postgres_database()
    first, second = CliServer(tmp_path, url).start(), CliServer(tmp_path, url).start()
    try:
        async def main():
            game = create_game(first.base_url)
            red = await Client.join(first.ws_url, game["game"], game["seats"]["red"]["token"])
            blue = await Client.join(second.ws_url, game["game"], game["seats"]["blue"]["token"])
            watcher_one = await Client.join(first.ws_url, game["game"])
            watcher_two = await Client.join(second.ws_url, game["game"])
            # Check red's line (kept by the first process) reaches blue on the second, and red once.
            await say(red, "across the wire")
            assert (await next_chat(red))["n"] == 1
            line = await next_chat(blue)
            assert (line["type"], line["n"], line["author"], line["text"]) == ("chat", 1, "red", "across the wire")
            # Check a spectator's line on the second reaches the spectator on the first, and no seat.
            await say(watcher_two, "seen from afar")
            assert (await next_chat(watcher_two))["n"] == 2
            assert (await next_chat(watcher_one))["text"] == "seen from afar"
            await say(blue, "and back")
            assert (await next_chat(red))["n"] == 3 and (await next_chat(blue))["n"] == 3
            assert await silent(red) and await silent(blue) and await silent(watcher_one)

        run(main())
    finally:
        first.stop()
        second.stop()


def test_chat_rate_is_a_token_bucket_refilled_per_minute():
    from server.chat import ChatRate

    now = [100.0]
    rate = ChatRate(6, 3, clock=lambda: now[0])
    # Check a burst of 3, then refusal, with the wait until the next token (6 a minute: one per 10 s).
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    assert rate.wait() == 10
    now[0] += 9.9
    assert not rate.allow()
    now[0] += 0.2
    assert rate.allow() and not rate.allow()
    # Check a long silence refills only up to the burst.
    now[0] += 3600
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]

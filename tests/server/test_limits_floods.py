"""One socket's flood of refused commands or faulty frames costs the server a bounded share (issue 16, "Trust").

A refused command changes nothing, so it can be sent again and again, and the rules may search a
whole board before they refuse it (~6 ms on bench.decide's largest skirmish map): it spends
``refusal_cost`` tokens of its seat's budget (``RefusalRate``, over all the seat's sockets, new ones
too), an accepted command 1 token of its connection's bucket. A frame that never reaches the rules
(it does not decode, a hello is refused, a command past the rate) costs little but was not counted
at all: ``faults_per_minute`` of them on one socket, and the one after is followed by
``too-many-faults`` and the close 1008. One real server with small bounds (server/limits.py).
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request

import pytest
import websockets

from server.chat import ChatRate
from server.connection import CLOSE_POLICY_VIOLATION
from server.limits import FaultRate, Limits, RefusalRate
from tests.server.client import Client, run
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

BURST, COST, FAULTS = 40, 10, 5
# One token a second: nothing refills while a flood is answered, so the counts below are exact.
FLOODS = {"CHRONICLE_COMMANDS_PER_SECOND": "1", "CHRONICLE_COMMAND_BURST": str(BURST),
          "CHRONICLE_REFUSAL_COST": str(COST), "CHRONICLE_FAULTS_PER_MINUTE": str(FAULTS)}
MOVE_RED = ("Move", {"to": 2})  # red opens mecha/sample: from the Camp to Location 2

flood_server = server_fixture("limits-floods", FLOODS)


def command(command_id: str, type_: str = "Pass", data: dict | None = None) -> dict:
    return {"type": "command", "id": command_id, "command": {"type": type_, "data": data or {}}}


async def answers(client: Client, count: int) -> list[dict]:
    return [await client.answer() for _ in range(count)]


async def closed_with(socket) -> int:
    """Read until the server closes ``socket``; its close code."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(socket.recv(), 10)
    return closed.value.rcvd.code


def test_rate_a_refused_command_spends_refusal_cost_of_its_seats_budget_an_accepted_one_one(flood_server):
    """9 refused commands at once on a budget of 40: the rules answer 4 (refusals cost 10 each), the other 5
    are rate-limited with their ids; on another seat, 30 answers that are acks all pass."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        seats = await Client.join_seats(server.ws_url, game)
        red, blue = seats["red"], seats["blue"]
        head = red.head
        # Check: blue is not on turn, so each Pass is refused by the rules (MV-C3); 4 spend the 40 tokens.
        for number in range(9):
            await blue.send(command(f"b-{number}"))
        got = await answers(blue, 9)
        assert [answer["type"] for answer in got[:4]] == ["rejected"] * 4, got
        assert all(answer["rule"] and answer["reason"] for answer in got[:4]), got
        limited = got[4:]
        assert [(answer.get("code"), answer.get("id")) for answer in limited] == \
            [("rate-limited", f"b-{number}") for number in range(4, 9)], limited
        assert all("seat blue sent more commands the rules refused" in answer["message"]
                   and f"counts as {COST}" in answer["message"] and "resend" in answer["message"] for answer in limited)
        # Check: nothing was applied, and red's budget is its own.
        moved = await red.command("r-1", *MOVE_RED)
        assert moved["type"] == "ack" and moved["first"] == head + 1, moved
        # Check: answers that are acks (the same id again: its earlier ack) cost 1 each, of the connection's bucket.
        for _ in range(30):
            await red.send(command("r-1", *MOVE_RED))
        again = await answers(red, 30)
        assert all(answer["type"] == "ack" and answer["first"] == head + 1 for answer in again), again
        # Check: blue's socket is still open (5 faults, its bound) and folds red's move.
        await blue.events_until(moved["last"])

    run(main())


def test_rate_the_refusal_budget_is_the_seats_over_its_sockets_and_goes_into_debt(flood_server):
    """A new socket of the same seat starts with the budget its last one left (none), and after one token
    back one refused command gets in and leaves the budget 9 below zero: the next one is rate-limited."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        blue_token = game["seats"]["blue"]["token"]
        blue = await Client.join(server.ws_url, game["game"], blue_token)
        for number in range(BURST // COST):
            await blue.send(command(f"b-{number}"))
        assert [answer["type"] for answer in await answers(blue, BURST // COST)] == ["rejected"] * (BURST // COST)
        await blue.close()
        # Check: reconnecting does not refill it; nor does a second socket of the seat.
        again = await Client.join(server.ws_url, game["game"], blue_token)
        other = await Client.join(server.ws_url, game["game"], blue_token)
        for client in (again, other):
            refused = await client.command("b-new", "Pass")
            assert refused.get("code") == "rate-limited" and refused["id"] == "b-new", refused
        await asyncio.sleep(1.3)  # one token back (1 a second)
        assert (await again.command("b-late", "Pass"))["type"] == "rejected"
        refused = await other.command("b-later", "Pass")
        assert refused.get("code") == "rate-limited" and refused["id"] == "b-later", refused

    run(main())


def test_rate_a_socket_sending_on_past_rate_limited_is_closed_with_1008(flood_server):
    """``rate-limited`` is a tenth of a fault: the 51st (FAULTS 5) is followed by too-many-faults and the
    close, so a flood of refused commands cannot go on as a flood of cheap answers (~25,000 a second
    took 46 % of a core)."""
    server = flood_server
    past = FAULTS * 10  # answers past the rate the bound takes

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        blue = await Client.join(server.ws_url, game["game"], game["seats"]["blue"]["token"])
        for number in range(BURST // COST + past + 3):
            await blue.send(command(f"b-{number}"))
        got = await answers(blue, BURST // COST + past + 2)
        assert [answer.get("code", answer["type"]) for answer in got] == \
            ["rejected"] * (BURST // COST) + ["rate-limited"] * (past + 1) + ["too-many-faults"], got
        assert await closed_with(blue.socket) == CLOSE_POLICY_VIOLATION

    run(main())
    # Check: an operator sees both in /metrics (server/metrics.py, docs/scaling.md).
    with urllib.request.urlopen(f"{server.base_url}/metrics", timeout=10) as response:
        text = response.read().decode()
    counted = {code: float(value) for code, value in
               re.findall(r'^chronicle_rejections_total\{code="([a-z-]+)"\} (\S+)$', text, re.MULTILINE)}
    assert counted.get("rate-limited", 0) >= FAULTS + 1 and counted.get("too-many-faults", 0) >= 1, counted


def test_faults_before_hello_close_the_socket_with_1008_past_faults_per_minute(flood_server):
    """Not JSON, unknown frames, too large, bad-token and bad-since hellos all count: the 6th fault is
    answered, then too-many-faults, then the close 1008; the same seat then joins and plays on a new socket."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        socket = (await Client.connect(server.ws_url, game["game"])).socket
        flood = ["not json {", json.dumps({"type": "dance"}), "x" * 9000,
                 json.dumps({"type": "hello", "since": 0, "token": "x" * 40}),
                 json.dumps({"type": "hello", "since": 10**9, "token": None}),
                 "[" * 100 + "]" * 100, "not json either", "and a third"]
        for frame in flood:
            await socket.send(frame)
        got = [json.loads(await asyncio.wait_for(socket.recv(), 10)) for _ in range(FAULTS + 2)]
        assert [answer["code"] for answer in got] == ["bad-frame", "unknown-frame", "frame-too-large", "bad-token",
                                                      "bad-since", "bad-frame", "too-many-faults"], got
        assert f"more than {FAULTS} faulty frames a minute" in got[-1]["message"], got[-1]
        assert await closed_with(socket) == CLOSE_POLICY_VIOLATION == 1008
        # Check: the server serves the game as before, to a new socket of the same client.
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert (await red.command("r-1", *MOVE_RED))["type"] == "ack"

    run(main())


def test_faults_after_hello_close_a_seats_socket_and_no_other(flood_server):
    """A greeted seat's socket: hellos again (already-greeted) and chat frames of the wrong shape count;
    past the bound it is closed with 1008, while a spectator of the same game goes on receiving events."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        watcher = await Client.join(server.ws_url, game["game"])
        for number in range(FAULTS + 1):
            await red.send({"type": "hello", "since": 0, "token": None} if number % 2 else {"type": "chat", "text": 5})
        got = [await red.answer() for _ in range(FAULTS + 2)]
        assert [answer["code"] for answer in got] == ["bad-frame", "already-greeted"] * 3 + ["too-many-faults"], got
        assert await closed_with(red.socket) == CLOSE_POLICY_VIOLATION
        blue = await Client.join(server.ws_url, game["game"], game["seats"]["blue"]["token"])
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert (await red.command("r-1", *MOVE_RED))["type"] == "ack"
        await watcher.events_until(red.head)
        await blue.events_until(red.head)

    run(main())


def test_faults_chat_past_its_rate_counts_and_closes_the_socket_with_1008(flood_server):
    """5 chat messages pass (chat_burst), then chat-rate-limited is a tenth of a fault: the 51st
    (FAULTS 5) is followed by too-many-faults and the close, and nothing more was kept."""
    server = flood_server
    past = FAULTS * 10

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        for number in range(5 + past + 2):
            await red.send({"type": "chat", "text": f"line {number}"})
        got = [await red.answer() for _ in range(5 + past + 2)]
        assert [answer.get("code", answer["type"]) for answer in got] == \
            ["chat"] * 5 + ["chat-rate-limited"] * (past + 1) + ["too-many-faults"], got
        assert await closed_with(red.socket) == CLOSE_POLICY_VIOLATION

    run(main())


def test_faults_command_answers_before_the_rules_spend_the_command_rate_not_the_fault_bound(flood_server):
    """A spectator's commands (``spectator``) and unknown commands are the command ladder's: each spends one
    token of the command bucket, and 8 of them (more than the fault bound) leave the socket open."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        watcher = await Client.join(server.ws_url, game["game"])
        for number in range(FAULTS + 3):
            await watcher.send(command(f"w-{number}", "Pass" if number % 2 else "Dance"))
        got = await answers(watcher, FAULTS + 3)
        assert [answer["code"] for answer in got] == ["unknown-command", "spectator"] * 4, got
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        assert (await red.command("r-1", *MOVE_RED))["type"] == "ack"
        await watcher.events_until(red.head)

    run(main())


def test_refusal_rate_spends_the_cost_per_seat_and_at_most_the_burst():
    now = [0.0]
    refusals = RefusalRate(Limits(commands_per_second=10, command_burst=30, refusal_cost=12), clock=lambda: now[0])
    assert refusals.allow("g-1", "red")
    refusals.refused("g-1", "red")
    refusals.refused("g-1", "red")
    assert refusals.tokens("g-1", "red") == 6 and refusals.allow("g-1", "red")
    refusals.refused("g-1", "red")
    assert refusals.tokens("g-1", "red") == -6 and not refusals.allow("g-1", "red")  # in debt: every command waits
    assert refusals.allow("g-1", "blue") and refusals.allow("g-2", "red")  # another seat, another game
    now[0] = 0.65  # 6.5 tokens back: 0.5
    assert not refusals.allow("g-1", "red")
    now[0] = 0.75
    assert refusals.allow("g-1", "red")
    small = RefusalRate(Limits(commands_per_second=5, command_burst=5, refusal_cost=40), clock=lambda: now[0])
    assert small.cost == 5
    small.refused("g-1", "red")
    assert small.tokens("g-1", "red") == 0  # the whole burst, never more: one second of the rate buys it back
    assert "counts as 5" in small.refusal("red") and "in 1000 ms" in small.refusal("red")


def test_refusal_rate_forgets_seats_whose_budget_is_full_again():
    now = [0.0]
    refusals = RefusalRate(Limits(commands_per_second=100, command_burst=100, refusal_cost=10), clock=lambda: now[0])
    for number in range(4096):
        refusals.refused(f"g-{number}", "red")
    now[0] = 1.0  # every one of them full again
    refusals.refused("g-last", "red")
    assert list(refusals.buckets) == [("g-last", "red")]


def test_fault_rate_refills_by_the_minute():
    now = [0.0]
    faults = FaultRate(Limits(faults_per_minute=3), clock=lambda: now[0])
    assert [faults.spend("bad-frame") for _ in range(4)] == [True, True, True, False]
    now[0] = 20.0  # one fault back
    assert [faults.spend("bad-frame"), faults.spend("bad-frame")] == [True, False]
    assert "more than 3 faulty frames a minute" in faults.refusal()


def test_faults_a_person_chatting_faster_than_the_chat_rate_is_never_closed():
    """A line a second for ten minutes against chat's 30 a minute (bursts of 5): the lines past the
    rate are answered chat-rate-limited, a tenth of a fault each, and the socket stays open; a machine
    sending on past a rate is closed after ten times faults_per_minute such answers."""
    now = [0.0]
    limits = Limits()
    chat, faults = ChatRate(limits.chat_per_minute, limits.chat_burst, clock=lambda: now[0]), FaultRate(limits,
                                                                                                       clock=lambda: now[0])
    past = 0
    for second in range(600):
        now[0] = float(second)
        if not chat.allow():
            past += 1
            assert faults.spend("chat-rate-limited"), f"closed after {second} s"
    assert past >= 250  # half the lines went past the rate, and not one closed the socket
    flood = FaultRate(limits, clock=lambda: 0.0)
    assert sum(flood.spend("rate-limited") for _ in range(1000)) == 10 * limits.faults_per_minute


def test_limits_refusal_cost_and_faults_per_minute_from_the_environment():
    limits = Limits.from_env({"CHRONICLE_REFUSAL_COST": "7", "CHRONICLE_FAULTS_PER_MINUTE": "9"})
    assert (limits.refusal_cost, limits.faults_per_minute) == (7, 9)
    assert (Limits().refusal_cost, Limits().faults_per_minute) == (40, 20)
    for bad in ({"CHRONICLE_REFUSAL_COST": "0"}, {"CHRONICLE_FAULTS_PER_MINUTE": "-1"}):
        with pytest.raises(ValueError, match="CHRONICLE_|expected"):
            Limits.from_env(bad)


@pytest.mark.parametrize("frame, code", [
    ({"type": "chat", "text": ""}, "chat-empty"),
    ({"type": "chat", "text": "x" * 501}, "chat-too-long"),
    ({"type": "chat", "text": "a\u0007b"}, "chat-control-character"),
], ids=["chat-empty", "chat-too-long", "chat-control-character"])
def test_faults_each_chat_refused_before_its_rate_counts_a_whole_fault(flood_server, frame, code):
    """Each chat refused before the chat rate (server.limits.FAULTS) is a whole fault: the 6th (FAULTS 5)
    is followed by too-many-faults and the close, and no line was kept."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        red = await Client.join(server.ws_url, game["game"], game["seats"]["red"]["token"])
        for _ in range(FAULTS + 1):
            await red.send(frame)
        got = [await red.answer() for _ in range(FAULTS + 2)]
        assert [answer["code"] for answer in got] == [code] * (FAULTS + 1) + ["too-many-faults"], got
        assert await closed_with(red.socket) == CLOSE_POLICY_VIOLATION

    run(main())


def test_faults_chat_before_hello_counts_a_whole_fault(flood_server):
    """A chat frame before any hello (hello-first) is a whole fault, as a command's is not (it spends the rate)."""
    server = flood_server

    async def main():
        game = create_game(server.base_url, "mecha/sample")
        socket = (await Client.connect(server.ws_url, game["game"])).socket
        for number in range(FAULTS + 1):
            await socket.send(json.dumps({"type": "chat", "text": f"line {number}"}))
        got = [json.loads(await asyncio.wait_for(socket.recv(), 10)) for _ in range(FAULTS + 2)]
        assert [answer["code"] for answer in got] == ["hello-first"] * (FAULTS + 1) + ["too-many-faults"], got
        assert await closed_with(socket) == CLOSE_POLICY_VIOLATION

    run(main())

"""A game that diverges under a newer rules version moves only by its seats' consent, over a real
WebSocket and a real SQLite store (issue 19: CORE-10, CORE-11, CORE-3).

echo-2 changed EC-15 (the combat round in which a fight ends costs its movement point too): the
echo-1 game of ``test_versions`` ends its first fight at seq 15, where echo-2 parts from it. So
``chronicle upgrade`` leaves it where it is, and its seats may still agree to move it.
"""

from __future__ import annotations

import asyncio
from urllib.request import urlopen

import events.games
from events.bots import bot, playout
from events.dice import local_secret
from events.game import RulesVersionChanged
from events.log import Envelope, Table, audit_log
from events.rng import Rng
from server import logfile, scenarios
from tests.server.client import Client, command_json, run
from tests.server.test_versions import SEED, _commands
from tests.server_fixture import get_json, seeded_game


def _played_echo_1(server) -> tuple[str, dict, Table]:
    """The echo-1 game stored, and the same game in process after its first 12 commands."""
    echo_1 = events.games.load("echo", "echo-1")
    created = seeded_game(server, "echo/novice-duel", SEED, rules_version="echo-1")
    expected = Table.create(echo_1, created["game"], scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    playout(expected, {seat: bot(echo_1, "greedy") for seat in echo_1.seats(expected.state)}, Rng(1000 + SEED), 12,
            prefix="c")
    return created["game"], created, expected


def test_core_11_a_diverging_game_stays_without_consent_and_moves_with_it(shared_server, capsys):
    from server.cli.main import main

    game_id, created, expected = _played_echo_1(shared_server)
    first, second = list(created["seats"])

    async def body():
        seats = await Client.join_seats(shared_server.ws_url, created)
        watcher = await Client.join(shared_server.ws_url, game_id)
        for envelope in _commands(expected):
            type_, data = command_json(envelope.command)
            assert (await seats[envelope.seat].command(envelope.command_id, type_, data))["type"] == "ack"
        head = expected.seq
        # Check the operator cannot move it: it diverges under echo-2 at seq 15 (EC-15), so it stays.
        assert await asyncio.to_thread(main, ["upgrade", "--db", str(shared_server.db_path), game_id]) == 3
        assert f"{game_id} stays under echo-1" in capsys.readouterr().out
        # Check a spectator cannot propose (the Room's seat rung), and a seat's no leaves the game where it is.
        answer = await watcher.command("w-1", "ProposeRulesVersion", {"to_version": "echo-2"})
        assert (answer["type"], answer["code"]) == ("error", "spectator"), answer
        answer = await seats[first].command("p-1", "ProposeRulesVersion", {"to_version": "echo-2"})
        assert answer == {"type": "ack", "id": "p-1", "first": head + 1, "last": head + 1}, answer
        answer = await seats[second].command("n-1", "AnswerRulesVersion", {"proposal": head + 1, "yes": False})
        assert answer["type"] == "ack", answer
        assert get_json(f"{shared_server.base_url}/api/games/{game_id}/rules")[1]["rules_version"] == "echo-1"
        # Check the proposer's own answer is refused with its clause (CORE-11).
        await seats[first].command("p-2", "ProposeRulesVersion", {"to_version": "echo-2"})
        answer = await seats[first].command("y-0", "AnswerRulesVersion", {"proposal": head + 3, "yes": True})
        assert (answer["type"], answer["rule"]) == ("rejected", "CORE-11") and "made the proposal" in answer["reason"]
        # Check the other seat's yes moves the game: its answer, then the move that records the proposal.
        answer = await seats[second].command("y-1", "AnswerRulesVersion", {"proposal": head + 3, "yes": True})
        assert answer == {"type": "ack", "id": "y-1", "first": head + 4, "last": head + 5}, answer
        for client in (*seats.values(), watcher):
            await client.events_until(head + 5)
        return seats, watcher, head

    seats, watcher, head = run(body())
    moved = watcher.envelopes[-1]
    assert (moved["type"], moved["rule"], moved["seq"]) == ("RulesVersionChanged", "CORE-3", head + 5)
    assert moved["data"] == {"from_version": "echo-1", "to_version": "echo-2", "since_seq": head + 6,
                             "agreed": head + 3}
    assert [e["type"] for e in watcher.envelopes[head:]] == [
        "RulesVersionProposed", "RulesVersionAnswered", "RulesVersionProposed", "RulesVersionAnswered",
        "RulesVersionChanged"]
    assert all(e["hash"] == watcher.envelopes[head - 1]["hash"] for e in watcher.envelopes[head:])  # no state changed
    # Check the server says echo-2 now, and the stored log audits clean, every command re-decided under
    # the version in force at its seq, though under echo-2 throughout it still parts at seq 15.
    status, answer = get_json(f"{shared_server.base_url}/api/games/{game_id}/rules")
    assert (status, answer["rules_version"]) == (200, "echo-2")
    with urlopen(f"{shared_server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        game, envelopes = logfile.parse(response.read().decode().splitlines(), "api-log")
    assert audit_log(game, envelopes, local_secret(SEED)).divergence is None
    echo_2 = events.games.load("echo", "echo-2")
    assert audit_log(echo_2, envelopes, local_secret(SEED), follow=False).divergence.seq == 15


def test_core_10_a_proposal_frame_is_checked_at_the_edge_and_by_the_rules(shared_server):
    game_id, created, expected = _played_echo_1(shared_server)
    first = list(created["seats"])[0]

    async def body():
        seat = await Client.join(shared_server.ws_url, game_id, created["seats"][first]["token"])
        started = seat.head
        answers = [await seat.command("b-1", "ProposeRulesVersion", {"to_version": 2}),
                   await seat.command("b-2", "ProposeRulesVersion", {"to": "echo-2"}),
                   await seat.command("b-3", "ProposeRulesVersion", {"to_version": "echo-9"}),
                   await seat.command("b-4", "ProposeRulesVersion", {"to_version": "echo-1"}),
                   await seat.command("b-5", "AnswerRulesVersion", {"proposal": 2, "yes": "yes"}),
                   await seat.command("b-6", "AnswerRulesVersion", {"proposal": 2, "yes": True})]
        return answers, started, seat.head

    answers, started, head = run(body())
    assert head == started  # nothing was logged
    assert (answers[0]["code"], answers[1]["code"]) == ("bad-frame", "bad-frame")
    assert "$.command.data.to_version" in answers[0]["message"] and "'to'" in answers[1]["message"]
    assert (answers[2]["rule"], answers[3]["rule"]) == ("CORE-10", "CORE-10")
    assert "no rules version 'echo-9'" in answers[2]["reason"] and "under echo-1 already" in answers[3]["reason"]
    assert answers[4]["code"] == "bad-frame" and "$.command.data.yes" in answers[4]["message"]
    assert answers[5]["rule"] == "CORE-11" and "no open proposal" in answers[5]["reason"]
    # Check each refusal is a catalogue message with its facts as data, which the page says in its language.
    assert (answers[2]["key"], answers[2]["params"]["game"], answers[2]["params"]["version"]) == (
        "reject.consent.unknown", "echo", "echo-9")
    assert "echo-1" in answers[2]["params"]["released"]
    assert (answers[3]["key"], answers[3]["params"]) == ("reject.consent.already", {"version": "echo-1"})
    assert (answers[5]["key"], answers[5]["params"]) == ("reject.consent.none_open", {"asked": 2})


def test_core_3_a_stored_log_with_a_forged_consent_is_game_unavailable(shared_server):
    """A move recording the seats' consent that one seat never gave, written straight into the store
    (every hash still matches: consent changes no state): the Room refuses to rebuild the game."""
    import json

    import websockets

    from server.store import GameMeta
    from server.tokens import new_game_id
    from tests.server_fixture import store_log

    echo_1 = events.games.load("echo", "echo-1")
    game_id = new_game_id()
    table = Table.create(echo_1, game_id, scenarios.load("echo/novice-duel")[1], local_secret(SEED))
    first = echo_1.seats(table.state)[0]
    proposed = table.submit(first, events.games.load("echo").commands.build(
        {"type": "ProposeRulesVersion", "to_version": "echo-2"}), "p-1").envelopes[0]
    forged = Envelope(game_id, proposed.seq + 1, RulesVersionChanged("echo-1", "echo-2", proposed.seq + 2,
                                                                     agreed=proposed.seq),
                      None, None, None, None, "CORE-3", proposed.hash, None)
    seats = echo_1.seats(table.state)
    meta = GameMeta(game_id, "echo", game_id, seats, {seat: "0" * 64 for seat in seats}, "2026-01-01T00:00:00.000000Z")
    store_log(shared_server.db_path, meta, table.envelopes + [forged], secret=table.secret)

    async def main():
        async with websockets.connect(f"{shared_server.ws_url}/ws/{game_id}") as socket:
            return json.loads(await socket.recv())

    answer = run(main())
    assert answer["code"] == "game-unavailable", answer
    assert f"seq {forged.seq}: RulesVersionChanged without the seats' consent" in answer["message"], answer

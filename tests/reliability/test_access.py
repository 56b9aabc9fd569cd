"""Access: forged tokens, another game's token, a seat acting for another, a spectator's command, a
command id replayed by another seat: all refused, nothing changes. Tokens have at least 128 random
bits, the store keeps only their hashes (checked by reading the SQLite files' bytes), and the
comparison goes through ``hmac.compare_digest`` for every seat.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import random
import secrets
import sqlite3

import pytest
import websockets

import events.games
from server import scenarios, tokens
from tests.reliability import report
from tests.reliability.players import Player, command_json, http_json, server_head
from tests.server.client import run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

ROUNDS = report.count(3, 25)  # random states per built-in scenario for the seat-for-seat property


async def hello(ws_url: str, game_id: str, token) -> tuple[dict, object]:
    socket = await websockets.connect(f"{ws_url}/ws/{game_id}")
    await socket.send(json.dumps({"type": "hello", "since": 0, "token": token}))
    return json.loads(await asyncio.wait_for(socket.recv(), 10)), socket


def test_forged_and_foreign_tokens_are_refused(quiet_server):
    """bad-token for: random, one character changed, empty, the stored hash, another game's, huge, non-ASCII."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    other = create_game(server.base_url, "mecha/sample")
    red = game["seats"]["red"]["token"]
    stored = _stored_hashes(server.db_path, game["game"])
    forged = {
        "random": secrets.token_urlsafe(32),
        "one character changed": red[:-1] + ("A" if red[-1] != "A" else "B"),
        "empty": "",
        "the stored hash": stored["red"],
        "another game's red": other["seats"]["red"]["token"],
        "another game's blue": other["seats"]["blue"]["token"],
        "a prefix": red[:16],
        "4 KiB": "x" * 4096,
        "non-ASCII": "ключ-" + red,
    }

    async def main():
        held = 0
        for name, token in forged.items():
            answer, socket = await hello(server.ws_url, game["game"], token)
            assert answer["type"] == "error" and answer["code"] == "bad-token", (name, answer)
            # Check the socket still awaits a hello, and a command is refused before one.
            await socket.send(json.dumps({"type": "command", "id": "x-1", "command": {"type": "Pass", "data": {}}}))
            answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert answer["code"] == "hello-first", (name, answer)
            await socket.close()
            held += 1
        return held

    held = run(main())
    assert server_head(server.base_url, game["game"])[0] == 1  # nothing happened
    report.record("access", "hello with a forged or foreign token (" + ", ".join(forged) + ")",
                  len(forged), held, "each answered bad-token; the socket then still refuses commands (hello-first)")


def _stored_hashes(db_path, game_id: str) -> dict:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
        (raw,) = db.execute("SELECT token_hashes FROM games WHERE id = ?", (game_id,)).fetchone()
    return json.loads(raw)


def test_a_seat_cannot_act_for_another_seat(quiet_server):
    """Every built-in scenario, random states: commands legal only for seat X, sent from seat Y's socket, are refused."""
    server = quiet_server
    tally = {"tried": 0, "held": 0, "scenarios": 0}
    rng = random.Random(4)

    async def main():
        for name in scenarios.builtin_scenarios():
            game = create_game(server.base_url, name)
            rules = game_rules(name)
            seats = {seat: Player(server.ws_url, game["game"], link["token"], seat, rules)
                     for seat, link in game["seats"].items()}
            if len(seats) < 2:
                continue
            tally["scenarios"] += 1
            for player in seats.values():
                await player.connect()
            number = 0
            for _ in range(ROUNDS):
                some = next(iter(seats.values()))
                state = some.state
                if some.game.is_over(state):
                    break
                for actor in seats.values():
                    theirs = [c for c in actor.game.legal(state, actor.seat)] if actor.seat in some.game.turn(state) else []
                    for command in rng.sample(theirs, min(3, len(theirs))):
                        for intruder in seats.values():
                            if intruder is actor or command in intruder.game.legal(state, intruder.seat):
                                continue
                            number += 1
                            type_, data = command_json(command)
                            answer = await intruder.send(f"intrude-{number}", type_, data)
                            tally["tried"] += 1
                            assert answer["type"] in ("rejected", "error") and answer["type"] != "ack", (name, answer)
                            if answer["type"] == "rejected":
                                assert answer["rule"] and answer["reason"]
                            assert (await asyncio.to_thread(server_head, server.base_url, game["game"]))[0] == some.head
                            tally["held"] += 1
                # Move the game on: a random legal command of a seat on turn.
                movers = [p for p in seats.values() if p.legal()]
                if not movers:
                    break
                mover = rng.choice(movers)
                number += 1
                answer = await mover.send(f"move-{number}", *command_json(rng.choice(mover.legal())))
                assert answer["type"] == "ack", answer
                for player in seats.values():
                    await player.catch_up(answer["last"])
            for player in seats.values():
                await player.drop()

    run(main(), timeout=300)
    assert tally["tried"] > 0 and tally["held"] == tally["tried"]
    report.record("access", "a seat sends a command legal only for another seat (every built-in scenario, "
                  "random states)", tally["tried"], tally["held"],
                  f"{tally['scenarios']} scenarios; each refused by the rules with its clause, nothing stored")


def game_rules(name: str) -> str:
    return name.split("/")[0]


def test_spectator_commands_and_replayed_ids_are_refused(quiet_server):
    """A spectator's command: spectator. Another seat's command id: id-taken. Own id again: the first ack, once."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    game_id = game["game"]
    counts = {"spectator": 0, "id-taken": 0, "same ack": 0}
    n = report.count(20, 200)

    async def main():
        red = Player(server.ws_url, game_id, game["seats"]["red"]["token"], "red", "mecha")
        blue = Player(server.ws_url, game_id, game["seats"]["blue"]["token"], "blue", "mecha")
        watcher = Player(server.ws_url, game_id, None, None, "mecha")
        for player in (red, blue, watcher):
            await player.connect()
        seats = {"red": red, "blue": blue}
        rng = random.Random(5)
        for number in range(n):
            mover = next((p for p in seats.values() if p.legal()), None)
            if mover is None:
                break
            command = rng.choice(mover.legal())
            # Check the spectator cannot send the very command the seat on turn may.
            answer = await watcher.send(f"w-{number}", *command_json(command))
            assert answer["type"] == "error" and answer["code"] == "spectator", answer
            counts["spectator"] += 1
            ack = await mover.send(f"m-{number}", *command_json(command))
            assert ack["type"] == "ack", ack
            for player in (red, blue, watcher):
                await player.catch_up(ack["last"])
            other = blue if mover is red else red
            # Check the other seat replaying that id is refused, and the mover resending it gets the same ack.
            answer = await other.send(f"m-{number}", "Pass", {})
            assert answer["type"] == "error" and answer["code"] == "id-taken", answer
            counts["id-taken"] += 1
            again = await mover.send(f"m-{number}", *command_json(command))
            assert (again["type"], again["first"], again["last"]) == ("ack", ack["first"], ack["last"]), again
            counts["same ack"] += 1
            assert (await asyncio.to_thread(server_head, server.base_url, game_id))[0] == ack["last"]
        for player in (red, blue, watcher):
            await player.drop()

    run(main())
    status, log = http_json(f"{server.base_url}/api/games/{game_id}/log")
    ids = [e["command_id"] for e in log if e["command_id"]]
    assert not any(i.startswith("w-") for i in ids)
    report.record("access", "a spectator sends the command the seat on turn may send", counts["spectator"],
                  counts["spectator"], "each answered spectator; nothing stored")
    report.record("access", "another seat replays an applied command's id", counts["id-taken"], counts["id-taken"],
                  f"each answered id-taken; the owner's resend got its first ack ({counts['same ack']}×), applied once")


def test_tokens_are_random_stored_hashed_and_compared_in_constant_time(quiet_server, monkeypatch):
    """≥128 random bits each, all distinct; only sha256 in the SQLite files; hmac.compare_digest for every seat."""
    server = quiet_server
    games = [create_game(server.base_url, "mecha/sample") for n in range(report.count(20, 200))]
    issued = [link["token"] for game in games for link in game["seats"].values()]
    # Check: each token decodes to at least 16 random bytes, and none repeats.
    for token in issued:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        assert len(raw) * 8 >= 128, token
    assert len(set(issued)) == len(issued)
    assert tokens.TOKEN_BYTES * 8 >= 128
    # Check: the store's files hold the hashes and never a token (main file and write-ahead log).
    files = [server.db_path, server.db_path.with_name(server.db_path.name + "-wal")]
    stored = b"".join(path.read_bytes() for path in files if path.exists())
    leaked = [token for token in issued if token.encode() in stored]
    hashed = [token for token in issued if hashlib.sha256(token.encode()).hexdigest().encode() in stored]
    assert not leaked and len(hashed) == len(issued)
    # Check: a lookup compares the presented token's hash with every seat's through compare_digest.
    calls = []

    def spy(a, b):
        calls.append((a, b))
        return a == b

    monkeypatch.setattr(tokens.hmac, "compare_digest", spy)
    hashes = {seat: tokens.token_hash(link["token"]) for seat, link in games[0]["seats"].items()}
    first = next(iter(games[0]["seats"].values()))["token"]
    for presented in (first, "forged"):
        calls.clear()
        tokens.seat_for_token(presented, hashes)
        assert len(calls) == len(hashes) and all(a == tokens.token_hash(presented) for a, _ in calls)
    report.record("access", "tokens issued, read back from the SQLite files", len(issued), len(hashed),
                  "each ≥128 random bits (32 bytes), all distinct; the files hold every sha256 and no token; "
                  "a lookup runs hmac.compare_digest on every seat's hash, match or not", unit="tokens")


_ = events.games  # the rules each Player folds with are loaded by name

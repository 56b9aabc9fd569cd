"""One frame per command on the wire (issue 16), with real WebSocket clients on a real server.

Each accepted command reaches each client as one ``events`` frame (``events/wire.py``): the
command, seat, id and time once, the hash once; a spectator's copy redacted (GH-C2); a reconnect
catches up one frame per command; a tampered hash is caught by the page's own code
(``client/follow.py``, run here under CPython as the browser runs it); and no client can make
the server send a big frame.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import websockets

from client import i18n
from client.follow import Follower
from events import wire
from events.canonical import state_hash
from server.frames import MAX_FRAME_BYTES
from tests.server.client import Client, agree, command_json, events_in, read_catch_up, run
from tests.server_fixture import create_game, get_json

CATALOGUE = Path(__file__).resolve().parents[2] / "client" / "i18n" / "en.json"


async def play(seats: dict, moves: int, rng: random.Random, prefix: str = "w") -> list[dict]:
    """``moves`` random legal commands by whichever seat is on turn; their acks."""
    answers = []
    for number in range(moves):
        anyone = next(iter(seats.values()))
        turn = anyone.game.turn(anyone.state)
        if not turn:
            break
        mover = seats[turn[0]]
        type_, data = command_json(rng.choice(mover.legal(turn[0])))
        answer = await mover.command(f"{prefix}-{number}", type_, data)
        assert answer["type"] == "ack", answer
        for client in seats.values():
            await client.events_until(answer["last"])
        answers.append(answer)
    return answers


def log_of(server, game_id: str) -> list[dict]:
    import urllib.request

    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        return [json.loads(line) for line in response.read().decode().splitlines()]


def test_core_wire_each_command_is_one_frame_with_its_events_and_one_hash(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        seats, spectator = await Client.join_all(shared_server.ws_url, game)
        before = {name: len(client.frames) for name, client in (*seats.items(), ("watch", spectator))}
        answers = await play(seats, 12, random.Random(16))
        await spectator.events_until(answers[-1]["last"])
        log = log_of(shared_server, game["game"])
        for name, client in (*seats.items(), ("watch", spectator)):
            live = client.frames[before[name]:]
            # Check one frame per command, holding exactly its events first … last, the hash of the last.
            assert [(f[0], f[0] + events_in(f) - 1) for f in live] == [(a["first"], a["last"]) for a in answers]
            for frame, answer in zip(live, answers):
                assert wire.hash_matches(log[frame[0] + events_in(frame) - 2]["hash"], wire.hash_from_wire(frame[1], "$[1]"))
                # Check the sender's copy, and only it, carries the ack (wire.ACK_MARK): no ack frame was sent.
                runs = frame[2:-1] if wire.frame_ack(frame) else frame[2:]
                assert (wire.frame_ack(frame) is not None) == (log[frame[0] - 1]["seat"] == name)
                assert len(runs) == 1 and runs[0][1] == answer["id"]
                # Check the wire schema's spelling: the command and events positional, seats by index, the time
                # µs since the start.
                run = runs[0]
                assert type(run[2][0]) is int and all(type(event[0]) is int for event in run[4:]), run
                assert ["red", "blue"][run[0]] == log[frame[0] - 1]["seat"]
                assert wire.at_micros(log[frame[0] - 1]["at"]) - wire.at_micros(log[0]["at"]) == run[3]
            # Check the envelopes read back from the frames are the store's, field for field.
            assert client.envelopes == log
            # … one ack per command it sent, the one its frame carried: no ack frame came besides.
            sent_here = sum(1 for frame in live if log[frame[0] - 1]["seat"] == name)
            assert len([reply for reply in client.replies if reply.get("type") == "ack"]) == sent_here
        # Check the same frame text went to every client who may see the same (encoded once; the ack mark after).
        unmarked = [[f[:-1] if wire.frame_ack(f) else f for f in c.frames[-12:]] for c in (*seats.values(), spectator)]
        assert unmarked[0] == unmarked[1] == unmarked[2] == spectator.frames[-12:]
        # Check it is smaller than the envelopes it carries: the command, id, time and hash written once.
        for frame in spectator.frames[-12:]:
            first = frame[0]
            stored = sum(len(encode_envelope_dict(raw)) for raw in log[first - 1: first - 1 + events_in(frame)])
            sent = len(json.dumps(frame, separators=(",", ":"), ensure_ascii=False))
            assert sent < stored * 0.6 or events_in(frame) == 1, (sent, stored)

    run(main())


def test_core_wire_the_ack_rides_in_the_senders_frame_and_a_repeated_id_gets_the_ack_frame(shared_server):
    """The sender's copy of its command's frame ends with the ack mark and no ack frame follows; the
    same id sent again changes nothing and is answered with the ``ack`` frame, the same first and last."""

    async def main():
        game = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, game)
        red = seats["red"]
        type_, data = command_json(red.legal("red")[0])
        frames_before = len(red.frames)
        answer = await red.command("a-1", type_, data)
        marked = red.frames[frames_before]
        assert wire.frame_ack(marked) == answer and marked[-1] == wire.ACK_MARK
        try:  # … and nothing after it: no ack frame besides
            extra = await asyncio.wait_for(red.socket.recv(), 0.3)
        except TimeoutError:
            extra = None
        assert extra is None, extra
        blue = seats["blue"]
        await blue.events_until(answer["last"])  # blue got the same frame, unmarked, and no ack
        assert wire.frame_ack(blue.frames[-1]) is None and blue.frames[-1] == marked[:-1]
        assert not [reply for reply in blue.replies if reply.get("type") == "ack"]
        again = await red.command("a-1", type_, data)
        assert again == answer and red.replies[-1] == answer and len(red.frames) == frames_before + 1
        # Check the plain ack frame it was: on the socket, not read out of an events frame.
        assert red.texts[-1] == json.dumps(answer, separators=(",", ":"))

    run(main())


def encode_envelope_dict(raw: dict) -> str:
    return json.dumps(raw, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_gh_c2_wire_a_pick_is_one_frame_sealed_for_the_others_and_the_spectator(shared_server):
    async def main():
        game = create_game(shared_server.base_url, "gloomhaven/barrow")
        seats, spectator = await Client.join_all(shared_server.ws_url, game)
        red, blue = seats["red"], seats["blue"]
        type_, data = command_json(red.legal("red")[0])
        answer = await red.command("r-1", type_, data)
        assert answer["type"] == "ack", answer
        await blue.events_until(answer["last"])
        await spectator.events_until(answer["last"])
        mine, theirs, watched = red.frames[-1], blue.frames[-1], spectator.frames[-1]
        # Check red's frame carries its command and cards; the others' the sealed copy, one text for both.
        started = red.welcome["started"]
        seat_list = red.welcome["seats"]
        picked = wire.frame_dicts(red.game, game["game"], mine, started, seats=seat_list)[0]
        sealed = wire.frame_dicts(red.game, game["game"], theirs, started, seats=seat_list)[0]
        assert picked["command"] == {"type": type_, "data": data} and picked["data"]["cards"] == data["cards"]
        assert theirs == watched and theirs[2][2] is None and sealed["data"]["cards"] == []
        assert theirs[1] == mine[1] and theirs[0] == mine[0] == answer["first"]
        # Check a spectator that reconnects from seq 1 is caught up sealed too, one frame per command.
        socket = await websockets.connect(f"{shared_server.ws_url}/ws/{game['game']}")
        await socket.send(json.dumps({"type": "hello", "since": 1, "token": None}))
        welcome = json.loads(await socket.recv())
        caught = await read_catch_up(socket, game["game"], 1, welcome)
        await socket.close()
        assert agree(caught, spectator.envelopes[1:])
        assert caught[answer["first"] - 2]["data"]["cards"] == []

    run(main())


def test_core_wire_a_reconnect_catches_up_one_frame_per_command_from_its_seq(shared_server):
    async def main():
        game = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, game)
        answers = await play(seats, 10, random.Random(7))
        log = log_of(shared_server, game["game"])
        # A page that held seq 5 (maybe mid-command) says hello with it and gets 6 … head.
        late = await Client.join(shared_server.ws_url, game["game"], game["seats"]["blue"]["token"], since=5)
        assert late.envelopes[0]["seq"] == 6 and late.head == log[-1]["seq"] == answers[-1]["last"]
        assert agree(late.envelopes, log[5:])
        # Check: one frame per command (the first may start mid-command), each ending on a command's last event.
        ends = [f[0] + events_in(f) - 1 for f in late.frames]
        assert ends == [a["last"] for a in answers if a["last"] > 5]
        assert all(wire.hash_matches(log[end - 1]["hash"], late.envelopes[end - 6]["hash"]) for end in ends)
        # Check it then follows live like the others.
        more = await play({**seats}, 2, random.Random(8), prefix="x")
        await late.events_until(more[-1]["last"])
        assert agree(late.envelopes, log_of(shared_server, game["game"])[5:])

    run(main())


def test_core_wire_a_tampered_frame_hash_is_caught_by_the_page_follower(shared_server):
    """The browser's own code (client/follow.py) on frames from a real server, one hash altered."""

    async def main():
        game = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, game)
        await play(seats, 6, random.Random(3))
        socket = await websockets.connect(f"{shared_server.ws_url}/ws/{game['game']}")
        await socket.send(json.dumps({"type": "hello", "since": 0, "token": None}))
        welcome = json.loads(await socket.recv())
        received = []
        while sum(events_in(f) for f in received) < welcome["head"]:
            received.append(json.loads(await socket.recv()))
        await socket.close()
        return seats["red"], received

    red, received = run(main())
    i18n.install({"lang": "en", "messages": json.loads(CATALOGUE.read_text(encoding="utf-8"))})
    follower = Follower(red.game)
    for frame in received:
        follower.add_frame(frame, red.game_id)
    follower.check_latest()
    while follower.check_some(5):
        pass
    assert follower.mismatch is None and follower.checked_count() == len(received)
    assert follower.status() == f"hash ✓ seq {follower.seq}"
    # One frame's hash altered (the third): found at that frame's last seq, both hashes named.
    tampered = [list(frame) for frame in received]
    logged = state_hash(follower.states[tampered[2][0] + events_in(tampered[2]) - 2])  # the whole hash
    assert wire.hash_matches(logged, wire.hash_from_wire(tampered[2][1], "$[1]"))
    tampered[2][1] = wire.hash_to_wire("0" * 64)
    follower = Follower(red.game)
    for frame in tampered:
        follower.add_frame(frame, red.game_id)
    follower.check_latest()
    assert follower.mismatch is None  # the newest state matches: the page shows the right game …
    while follower.check_some(5):
        pass
    at = tampered[2][0] + events_in(tampered[2]) - 1
    assert follower.mismatch == (at, "0" * 24, logged)  # … and the background pass finds the altered one
    assert follower.status() == f"hash ✗ MISMATCH at seq {at}: server {'0' * 12}…, page {logged[:12]}…"
    # A frame resent after a reconnect folds nothing.
    assert follower.add_frame(tampered[1], red.game_id) == []
    i18n.install({})


def test_core_wire_a_client_cannot_make_the_server_send_a_big_frame(shared_server):
    """Hostile: the biggest commands a client can send (8 KiB, the longest id, a long name of the right
    kind) and a catch-up of a long game never make a frame beyond one command's. The answers go to
    the sender only and quote at most what it sent (mecha's MV-1 reason quotes the name it got, so an
    answer is bounded by the 8 KiB a client frame may hold); what everyone receives is one frame per
    accepted command, whose command the rules accepted."""

    async def main():
        game = create_game(shared_server.base_url)
        seats = await Client.join_seats(shared_server.ws_url, game)
        red = seats["red"]
        sizes = []
        # Commands at the frame bound: a 64-character id, a Move to a long name (refused under MV-1),
        # a body padded to the limit (bad-frame), a type too long, a second hello: only the sender is answered.
        hostile = [
            {"type": "command", "id": "i" * 64, "command": {"type": "Move", "data": {"to": "x" * 8000}}},
            {"type": "command", "id": "j" * 64, "command": {"type": "Move", "data": {"to": 2, "pad": "y" * 8000}}},
            {"type": "command", "id": "k" * 64, "command": {"type": "Move" * 2000, "data": {}}},
            {"type": "hello", "since": 10**15, "token": "t" * 8000},
        ]
        for frame in hostile:
            await red.send(frame)
            answer = await red.answer()
            sizes.append(len(json.dumps(answer)))
            assert answer["type"] in ("rejected", "error"), answer
            assert answer.get("rule") in (None, "MV-1") and answer.get("code") != "internal-error", answer
        assert max(sizes) < MAX_FRAME_BYTES + 256 and sorted(sizes)[-2] < 512, sizes
        answers = await play(seats, 60, random.Random(11))
        # A catch-up from 0 of the whole game: one frame per command, none big.
        socket = await websockets.connect(f"{shared_server.ws_url}/ws/{game['game']}", max_size=2**22)
        await socket.send(json.dumps({"type": "hello", "since": 0, "token": None}))
        welcome = json.loads(await socket.recv())
        texts = []
        while sum(events_in(json.loads(t)) for t in texts) < welcome["head"]:
            texts.append(await socket.recv())
        await socket.close()
        assert len(texts) == len(answers) + 1  # GameStarted's frame, then one per command
        assert not [r for r in seats["blue"].replies if r["type"] in ("error", "rejected")]  # only the sender heard
        assert max(len(t.encode()) for t in texts) < MAX_FRAME_BYTES
        return game["game"]

    game_id = run(main())
    _, state = get_json(f"{shared_server.base_url}/api/games/{game_id}/state")
    assert state["seq"] > 60


def test_core_wire_permessage_deflate_is_negotiated_when_offered_unless_switched_off(tmp_path):
    """``chronicle serve`` negotiates permessage-deflate with a client that offers it (browsers do),
    not with one that does not; ``CHRONICLE_WS_DEFLATE=0`` (or ``--no-ws-deflate``) never; a value
    that is neither is refused at start, naming the variable."""
    import subprocess
    import sys

    from tests.server_fixture import ROOT, ServerProcess

    async def extensions(server, offer: bool) -> str | None:
        game = create_game(server.base_url)
        socket = await websockets.connect(f"{server.ws_url}/ws/{game['game']}",
                                          compression="deflate" if offer else None)
        try:
            await socket.send(json.dumps({"type": "hello", "since": 0, "token": None}))
            assert json.loads(await socket.recv())["type"] == "welcome"
            return socket.response.headers.get("Sec-WebSocket-Extensions")
        finally:
            await socket.close()

    for env, offered, refused in (({}, "permessage-deflate", None), ({"CHRONICLE_WS_DEFLATE": "0"}, None, None)):
        with ServerProcess(tmp_path / f"d{len(env)}.db", env=env, via_cli=True).start() as server:
            got = run(extensions(server, True))
            assert (got or "").startswith(offered) if offered else got is None, got
            assert run(extensions(server, False)) is refused
    done = subprocess.run([sys.executable, "-m", "server.cli.main", "serve", "--port", "0", "--db",
                           str(tmp_path / "x.db")], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "CHRONICLE_WS_DEFLATE": "maybe"})
    assert done.returncode != 0 and "CHRONICLE_WS_DEFLATE: expected 1 or 0, got 'maybe'" in done.stderr

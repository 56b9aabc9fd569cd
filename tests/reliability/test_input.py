"""Issue 12, finding 6: every input is answered, with a code, never a 500 or a dropped socket.

Before: a frame nested 1,200 deep (under 8 KiB, even before hello) raised RecursionError and the
socket dropped with a traceback logged; a deeply nested POST answered a plain-text 500; a seq of
5,000 digits answered 500 and a full-width digit was taken for a seq. Now nesting is bounded
(``frames.MAX_JSON_DEPTH``, bad-frame / 400 with a ``$`` path), seqs are 1 to 10 ASCII digits,
every HTTP answer carries ``nosniff``, and errors are JSON problems with codes.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import string
import urllib.parse

import pytest
import websockets

from events.wire import frame_ack
from server.frames import MAX_JSON_DEPTH
from tests.reliability import report
from tests.server.client import run
from tests.server_fixture import create_game

pytestmark = pytest.mark.server

DEPTHS = (MAX_JSON_DEPTH + 1, 100, 1200, 3000)
FUZZ = report.count(200, 5000)


def request(port: int, method: str, path: str, body: bytes | None = None,
            kind: str | None = "application/json") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=body, headers={"Content-Type": kind} if kind else {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_deep_nesting_is_a_bad_frame_and_the_socket_stays_up(quiet_server):
    """Before hello and after: bad-frame with the path where the bound was passed; then the socket works."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    answered = 0

    async def main():
        nonlocal answered
        socket = await websockets.connect(f"{server.ws_url}/ws/{game['game']}", max_size=2**22)
        for depth in DEPTHS:  # before hello: the frame is a whole nested array, or a hello's token
            for frame in (nested(depth), '{"type":"hello","since":0,"token":' + nested(depth) + "}"):
                await socket.send(frame)
                reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
                assert reply["code"] in ("bad-frame", "frame-too-large"), reply
                if reply["code"] == "bad-frame":
                    assert reply["message"].startswith("$") and f"deeper than {MAX_JSON_DEPTH}" in reply["message"]
                answered += 1
        await socket.send(json.dumps({"type": "hello", "since": 0, "token": game["seats"]["red"]["token"]}))
        welcome = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert welcome["type"] == "welcome", welcome
        for _ in range(welcome["head"]):
            await socket.recv()
        for depth in DEPTHS:  # after hello: deep command data
            await socket.send('{"type":"command","id":"d-1","command":{"type":"Move","data":{"to":'
                              + nested(depth) + "}}}")
            reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            assert reply["code"] in ("bad-frame", "frame-too-large"), reply
            if reply["code"] == "bad-frame":
                assert reply["message"].startswith("$.command.data.to["), reply
            answered += 1
        await socket.send(json.dumps({"type": "command", "id": "d-2", "command": {"type": "Pass", "data": {}}}))
        while True:
            reply = json.loads(await asyncio.wait_for(socket.recv(), 10))
            if type(reply) is not list:  # not an events frame
                break
            if frame_ack(reply) is not None:  # the sender's copy of its command's frame carries the ack
                reply = frame_ack(reply)
                break
        assert reply["type"] == "ack", reply  # still up, still playing
        await socket.close()

    run(main())
    assert "RecursionError" not in server.log_text()
    report.record("input", f"frames nested {', '.join(map(str, DEPTHS))} deep, before hello (alone, in a hello) "
                  "and after (in a command's data)", 3 * len(DEPTHS), answered,
                  f"each bad-frame with the $ path at which depth {MAX_JSON_DEPTH} was passed (or frame-too-large); "
                  "the socket then said hello and played; no RecursionError logged")


def test_deep_posts_and_bad_seqs_are_400_with_their_codes(quiet_server):
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")
    cases = 0
    for depth in DEPTHS:
        body = ('{"scenario":{"game":"mecha","title":' + nested(depth) + "}}").encode()
        status, headers, data = request(server.port, "POST", "/api/games", body)
        problem = json.loads(data)
        assert status == 400 and problem["code"] == "bad-request", (depth, status, data[:200])
        assert problem["message"].startswith("$.scenario.title[") and headers["x-content-type-options"] == "nosniff"
        cases += 1
    _, _, data = request(server.port, "GET", f"/api/games/{game['game']}/state")
    beyond = str(json.loads(data)["seq"] + 1)
    bad = ["１", "²", "٣", "9" * 5000, "1" * 11, "-1", "0", "+1", " 1", "1 ", "1e3", "0x1", "", beyond, "1.0",
           "\x00", "１２"]
    for seq in bad:
        status, headers, data = request(server.port, "GET", f"/api/games/{game['game']}/state?seq="
                                        + urllib.parse.quote(seq, safe=""))
        problem = json.loads(data)
        assert status == 400 and problem["code"] == "bad-seq", (seq, status, data[:200])
        assert len(problem["message"]) < 300  # 5,000 digits are not echoed back
        cases += 1
    status, _, data = request(server.port, "GET", f"/api/games/{game['game']}/state?seq=1")
    assert status == 200
    report.record("input", "POST bodies nested too deep; seqs that are not 1 to 10 ASCII digits up to the head "
                  "(full-width, superscript and Arabic-Indic digits, 5,000 digits, signs, spaces, exponents, "
                  "beyond the head)", cases, cases, "each 400: bad-request with its $ path, bad-seq; seq=1 still 200")


def test_every_http_answer_is_json_with_nosniff_and_no_input_gets_a_500(quiet_server):
    """The routes, their errors, and random paths, queries and bodies: never a 500, always nosniff,
    every /api error a JSON problem with a code."""
    server = quiet_server
    game = create_game(server.base_url, "mecha/sample")["game"]
    fixed = [("GET", "/api/scenarios"), ("GET", "/api/games"), ("GET", f"/api/games/{game}/log"),
             ("GET", f"/api/games/{game}/state"), ("GET", "/api/games/g-nosuchgame/state"), ("GET", "/healthz"),
             ("GET", "/metrics"), ("PUT", "/api/games"), ("DELETE", f"/api/games/{game}/log"), ("GET", "/api/x"),
             ("POST", "/api/games"), ("GET", "/nowhere")]
    chooser = random.Random(6)
    alphabet = string.printable + "１²ключ\u202e\x00{}[]\"\\"

    def garbage(size: int) -> str:
        return "".join(chooser.choice(alphabet) for _ in range(size))

    def quoted(text: str) -> str:
        return "".join(c if c.isascii() and c.isalnum() else "%" + "%".join(f"{b:02X}" for b in c.encode())
                       for c in text)

    tried = 0
    for number in range(len(fixed) + FUZZ):
        if number < len(fixed):
            method, path = fixed[number]
            body = b"{}" if method == "POST" else None
        else:
            method = chooser.choice(["GET", "POST", "GET"])
            path = chooser.choice([f"/api/games/{game}/state?seq=", "/api/games?limit=", "/api/games?cursor=",
                                   f"/api/games/{quoted(garbage(12))}/state", "/api/games/", f"/api/games/{game}/log?"])
            path += quoted(garbage(chooser.randint(0, 30)))
            body = None
            if method == "POST":
                path = "/api/games"
                body = chooser.choice([garbage(chooser.randint(0, 200)), json.dumps({"scenario": garbage(10)}),
                                       '{"scenario":' + nested(chooser.randint(1, 60)) + "}",
                                       json.dumps({"scenario": {"game": "mecha", "title": garbage(5)}})]).encode()
        status, headers, data = request(server.port, method, path, body)
        assert status < 500, (method, path, body[:100] if body else None, status, data[:300])
        assert headers.get("x-content-type-options") == "nosniff", (method, path, headers)
        if status >= 400 and path.startswith("/api/"):
            problem = json.loads(data)
            assert isinstance(problem["code"], str) and problem["message"], problem
        tried += 1
    status, _, _ = request(server.port, "GET", "/healthz")
    assert status == 200
    report.record("input", "HTTP requests: every route and its errors, then random paths, queries (seq, limit, "
                  "cursor, game ids) and bodies", tried, tried,
                  "never a 500; each answer with nosniff; each /api error JSON {code, message}", unit="requests")

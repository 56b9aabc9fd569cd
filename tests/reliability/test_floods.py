"""Issue 12, finding 4: floods of games, bodies and listings.

Before: 207 games a second from one client, 256 KiB titles, ``text/plain`` bodies (so any web page
could create games without a preflight), the whole list of games in one answer, and a 300 MiB
chunked POST buffered (63 MB -> 657 MB) before its 413. Now each is bounded and answered with
its own code (docs/protocol.md).
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import time
from pathlib import Path

import pytest

from events.validate import TEXT_LIMIT as MAX_TITLE_CHARS
from server import scenarios
from server.api import MAX_BODY_BYTES, MAX_PAGE_SIZE
from tests.reliability import report
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

PER_MINUTE = 5
OPEN_GAMES = 20
FLOOD = {"CHRONICLE_GAMES_PER_MINUTE": str(PER_MINUTE), "CHRONICLE_OPEN_GAMES": str(OPEN_GAMES)}
HUGE = report.count(64, 300) * 1024 * 1024  # what the chunked body would hold if nobody stopped it


flood_server = server_fixture("floods", FLOOD)


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
            source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, data


def post(port: int, body: object, source: str = "127.0.0.1", kind: str = "application/json"):
    return request(port, "POST", "/api/games", json.dumps(body).encode(), {"Content-Type": kind}, source)


def test_game_creation_is_limited_per_address_and_in_total(flood_server):
    """429 too-many-creations past games_per_minute from one address; 503 too-many-open-games past
    open_games in total; both with Retry-After."""
    port = flood_server.port
    answers: dict[str, int] = {}
    # Check: one address creates PER_MINUTE games, then is refused with a Retry-After in seconds.
    for _ in range(PER_MINUTE):
        status, _, body = post(port, {"scenario": "mecha/sample"})
        assert status == 201, body
    for _ in range(3):
        status, headers, body = post(port, {"scenario": "mecha/sample"})
        assert status == 429 and json.loads(body)["code"] == "too-many-creations", (status, body)
        assert 1 <= int(headers["retry-after"]) <= 60, headers
        answers["too-many-creations"] = answers.get("too-many-creations", 0) + 1
    # Check: other addresses go on until OPEN_GAMES games are open, then everybody waits.
    created, source = PER_MINUTE, 2
    while created < OPEN_GAMES:
        status, _, body = post(port, {"scenario": "mecha/sample"}, f"127.0.0.{source}")
        if status == 429:
            source += 1
            continue
        assert status == 201, body
        created += 1
    status, headers, body = post(port, {"scenario": "mecha/sample"}, f"127.0.0.{source + 1}")
    assert status == 503 and json.loads(body)["code"] == "too-many-open-games", (status, body)
    assert int(headers["retry-after"]) >= 1
    answers["too-many-open-games"] = 1
    status, _, _ = request(port, "GET", "/api/games")
    assert status == 200  # still serving
    report.record("floods", f"game creation: one address past games_per_minute ({PER_MINUTE} here), then every "
                  f"address past open_games ({OPEN_GAMES} here)", 4, len(answers) + 2,
                  "answered: " + ", ".join(f"{code} ×{n}" for code, n in answers.items())
                  + ", each with Retry-After; the games before the bound were created", unit="checks")


def test_posts_take_json_only_and_titles_are_bounded(quiet_server):
    """415 for any other Content-Type (a web page's form or text/plain needs no preflight); a title over
    MAX_TITLE_CHARS is scenario-out-of-bounds with its path."""
    port = quiet_server.port
    body = json.dumps({"scenario": "mecha/sample"}).encode()
    kinds = ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data",
             "application/jsonp", "", None]
    refused = 0
    for kind in kinds:
        headers = {} if kind is None else {"Content-Type": kind}
        status, answer_headers, data = request(port, "POST", "/api/games", body, headers)
        assert status == 415 and json.loads(data)["code"] == "unsupported-media-type", (kind, status, data)
        assert answer_headers["x-content-type-options"] == "nosniff"
        refused += 1
    status, _, _ = request(port, "POST", "/api/games", body, {"Content-Type": "application/json; charset=utf-8"})
    assert status == 201
    _, scenario = scenarios.load("mecha/sample")
    scenario["title"] = "t" * (MAX_TITLE_CHARS + 1)
    status, _, data = post(port, {"scenario": scenario})
    assert status == 400 and json.loads(data)["code"] == "scenario-out-of-bounds" and "$.title" in json.loads(data)["message"]
    scenario["title"] = "t" * MAX_TITLE_CHARS
    status, _, data = post(port, {"scenario": scenario})
    assert status == 201, data
    report.record("floods", "POST /api/games with other Content-Types (text/plain, forms, multipart, none), and "
                  f"titles of {MAX_TITLE_CHARS + 1} characters", len(kinds) + 1, refused + 1,
                  "each other type answered 415 unsupported-media-type; the long title scenario-out-of-bounds at "
                  "$.title; application/json and a 200-character title still created")


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_huge_chunked_body_is_refused_as_it_arrives(quiet_server):
    """The body is counted as it arrives: 413 once past 256 KiB, long before HUGE bytes, and the
    server's memory barely moves (before: +594 MB for 300 MiB)."""
    server = quiet_server
    before = _rss_kb(server.pid)
    chunk = b"x" * (1024 * 1024)
    sent = 0
    raw = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    raw.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n")
    answered = b""
    started = time.monotonic()
    raw.settimeout(2)
    try:
        while sent < HUGE:
            raw.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
            sent += len(chunk)
            if select.select([raw], [], [], 0)[0]:
                break
    except (TimeoutError, BrokenPipeError, ConnectionResetError):
        pass  # the server stopped reading: that is the point
    raw.settimeout(10)
    try:
        while b"\r\n\r\n" not in answered:
            piece = raw.recv(65536)
            if not piece:
                break
            answered += piece
    except (TimeoutError, ConnectionResetError):
        pass
    raw.close()
    grown = _rss_kb(server.pid) - before
    head, _, body = answered.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), answered[:300]
    assert b"body-too-large" in body or b"body-too-large" in answered
    assert sent < HUGE // 4, f"the client could send {sent} bytes"
    assert grown < 32 * 1024, f"the server grew by {grown} KiB"
    # Check: a declared Content-Length over the bound is refused without reading the body.
    status, _, data = request(server.port, "POST", "/api/games", b"{}", {"Content-Type": "application/json",
                                                                      "Content-Length": str(HUGE)})
    assert status == 413 and json.loads(data)["code"] == "body-too-large"
    report.record("floods", f"a chunked POST of {HUGE // 2**20} MiB, and a Content-Length of as much", 2, 2,
                  f"413 body-too-large after the client sent {sent // 2**20} MiB (socket buffers) in "
                  f"{time.monotonic() - started:.1f} s; the server grew by {grown // 1024} MB (bound "
                  f"{MAX_BODY_BYTES // 1024} KiB)")


def test_the_list_of_games_pages(quiet_server):
    """GET /api/games?limit=&cursor=: pages of at most MAX_PAGE_SIZE, Link rel=next on full pages, every game once;
    bad limits and cursors answered 400 with their codes."""
    port = quiet_server.port
    for _number in range(7):
        create_game(quiet_server.base_url, "mecha/sample")

    def walk(limit: int) -> list[str]:
        seen, path, pages = [], f"/api/games?limit={limit}", 0
        while path is not None:
            status, headers, data = request(port, "GET", path)
            assert status == 200, data
            page = json.loads(data)
            assert len(page) <= limit
            seen += [item["game"] for item in page]
            pages += 1
            link = headers.get("link")
            assert (link is not None) == (len(page) == limit), (len(page), link)
            path = link[1:link.index(">")] if link else None
        return seen

    everything = walk(MAX_PAGE_SIZE)
    small = walk(3)
    assert small == everything and len(set(everything)) == len(everything) >= 7
    status, _, data = request(port, "GET", "/api/games")
    assert status == 200 and len(json.loads(data)) <= 50
    bad = {"limit=0": "bad-limit", f"limit={MAX_PAGE_SIZE + 1}": "bad-limit", "limit=abc": "bad-limit",
           "limit=%EF%BC%93": "bad-limit", "limit=" + "9" * 5000: "bad-limit", "cursor=g-nosuchgam1": "bad-cursor",
           "cursor=../../etc": "bad-cursor", "cursor=" + "g" * 5000: "bad-cursor"}
    for query, code in bad.items():
        status, headers, data = request(port, "GET", f"/api/games?{query}")
        assert status == 400 and json.loads(data)["code"] == code, (query, status, data[:200])
    report.record("floods", "GET /api/games walked in pages of 3 and of 200; bad limits and cursors (0, 201, "
                  "letters, a full-width digit, 5,000 digits, unknown or malformed ids)", 2 + len(bad), 2 + len(bad),
                  f"the same {len(everything)} games in the same order either way, each once, Link rel=next on "
                  "every full page; 50 without ?limit=; each bad query 400 bad-limit or bad-cursor")

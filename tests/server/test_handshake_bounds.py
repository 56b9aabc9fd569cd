"""An upgrade's negotiated lists are bounded before websockets parses them (server/wsprotocol.py).

websockets parses ``Sec-WebSocket-Protocol`` and ``Sec-WebSocket-Extensions`` in time that grows faster
than their length: one upgrade offering ~1 MB of subprotocols took ~0.5 s of the server's CPU (found in
review, 2026-12-02), before any of Chronicle's own bounds, so a stranger could stall the loop with a few
requests a second. Past ``NEGOTIATED_BYTES`` in all the upgrade is answered 431, saying why, with no app
called; a page's own offer (``chronicle`` and a seat's claim) and a browser's extensions are far below.
Raw upgrades on a real server, the hostile ones first.
"""

from __future__ import annotations

import base64
import os
import socket

import pytest

from server.serve_socket import SEAT_CLAIM, SUBPROTOCOL
from server.wsprotocol import NEGOTIATED_BYTES
from tests.server_fixture import create_game, server_fixture

pytestmark = pytest.mark.server

server = server_fixture("handshake-bounds")


def upgrade(server, game_id: str, lines: list) -> tuple[str, bytes]:
    """A raw upgrade with these extra header lines: (the status line, the whole answer's head)."""
    key = base64.b64encode(os.urandom(16)).decode()
    head = (f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n").encode()
    head += b"".join(line + b"\r\n" for line in lines)
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as connection:
        connection.sendall(head + b"\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = connection.recv(65536)
            if not chunk:
                break
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode("latin-1"), answer


@pytest.mark.parametrize("header", [b"Sec-WebSocket-Protocol", b"Sec-WebSocket-Extensions"])
def test_an_upgrade_offering_a_megabyte_of_subprotocols_or_extensions_is_refused_431_unparsed(server, header):
    game = create_game(server.base_url)
    line = header + b": " + b"a" + b",a" * 4000
    status, answer = upgrade(server, game["game"], [line] * 120)
    assert status == "HTTP/1.1 431 Request Header Fields Too Large", answer[:300]
    assert f"at most {NEGOTIATED_BYTES}".encode() in answer  # its body says why
    # Just past the bound in one line, as at any size.
    status, _ = upgrade(server, game["game"], [header + b": " + b"x" * (NEGOTIATED_BYTES + 1)])
    assert status.startswith("HTTP/1.1 431"), status


def test_a_page_s_offer_and_a_browser_s_extensions_are_under_the_bound_and_answered(server):
    game = create_game(server.base_url)
    token = game["seats"]["red"]["token"]
    status, answer = upgrade(server, game["game"], [
        f"Sec-WebSocket-Protocol: {SUBPROTOCOL}, {SEAT_CLAIM}{token}".encode(),
        b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"])
    assert status == "HTTP/1.1 101 Switching Protocols", answer[:300]
    assert b"sec-websocket-protocol: chronicle\r\n" in answer.lower()

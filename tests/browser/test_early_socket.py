"""A live game's socket opened from the page's head, before Brython starts (issue 16, docs/client.md
"The socket before Python").

``static/socket.js`` opens the play or watch page's WebSocket and says the hello client/net.py would
say; the server's welcome and snapshot arrive while the scripts run, and ``net.Connection`` takes the
socket over with the frames it kept. A socket closed before Python starts is replaced by one of its own.
"""

from __future__ import annotations

import json
import re

import pytest

from server.snapshots import SNAPSHOT_EVERY
from tests.browser.conftest import open_page, wait_ready, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game, seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


class FirstClosed:
    """A WebSocket route: the pages' first socket is closed at once (as by a server restarting), the
    others pass through to the server; ``sent`` holds each socket's frames from the page."""

    def __init__(self, context) -> None:
        self.sent: list = []
        context.route_web_socket(re.compile(r".*/ws/.*"), self.route)

    def route(self, socket) -> None:
        frames: list = []
        self.sent.append(frames)
        if len(self.sent) == 1:
            socket.close()
            return
        upstream = socket.connect_to_server()
        socket.on_message(lambda message: (frames.append(json.loads(message)), upstream.send(message)))
        upstream.on_message(socket.send)


def watch_sockets(page) -> list:
    """One list per WebSocket the page opens (Playwright's event: nothing in between), of the frames it sent."""
    sent: list = []

    def opened(socket) -> None:
        frames: list = []
        sent.append(frames)
        socket.on("framesent", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", opened)
    return sent


# Every WebSocket the page makes, kept with the subprotocols it offered (a Proxy: the constructor, its
# prototype and its constants stay the browser's own).
KEEP_SOCKETS = """
window.__sockets = [];
window.WebSocket = new Proxy(window.WebSocket, {construct(target, args) {
  const socket = Reflect.construct(target, args);
  socket.__offered = Array.from(args[1] || []);
  window.__sockets.push(socket);
  return socket;
}});
"""


def offered(page) -> list:
    """[(subprotocols offered, subprotocol the server answered)] of each socket the page made."""
    return [tuple(pair) for pair in page.evaluate("window.__sockets.map(s => [s.__offered, s.protocol])")]


@pytest.mark.parametrize("who", ["spectator", "seat"])
def test_core_the_hello_is_said_before_python_starts_and_python_keeps_that_socket(server, new_context, who):
    created = seeded_game(server, "mecha/sample", 12, envelopes=SNAPSHOT_EVERY + 10)  # joined from a snapshot
    seat, link = next(iter(created["seats"].items()))
    url = f"{server.base_url}/watch/{created['game']}" if who == "spectator" else f"{server.base_url}{link['link']}"
    page = open_page(new_context(), "about:blank", wait=False)
    page.add_init_script(KEEP_SOCKETS)
    sent = watch_sockets(page)
    page.goto(url)
    wait_ready(page)
    marks = page.evaluate("window.chronicle_marks")
    # Check: the hello left before Brython ran any Python, and it is the hello net.py would say.
    assert marks["hello"] < marks["python"], marks
    token = link["link"].split("#token=", 1)[1] if who == "seat" else None
    assert len(sent) == 1, sent
    assert sent[0][0] == {"type": "hello", "since": 0, "token": token, "snapshot": True}
    # Check: a seat's socket names its token at the upgrade too, and the server answers ``chronicle``
    # (past its address's bound on opens, the seat is let in before any frame: docs/protocol.md).
    if who == "seat":
        assert offered(page) == [(["chronicle", f"chronicle.seat.{token}"], "chronicle")]
    else:
        assert offered(page) == [([], "")]
    assert page.text_content("#hash").startswith("hash ✓")
    if who == "seat":
        assert page.text_content("#who").endswith(seat)
    # Check: frames after the takeover reach the page on that same socket.
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
        head = script.table.seq
    wait_seq(page, head)
    assert len(sent) == 1 and page.text_content("#connection") == "open"
    assert page.evaluate("window.chronicle_socket") == 0  # taken: a reconnection opens its own
    assert page.problems == [], "\n".join(page.problems)


def test_core_an_early_socket_the_server_closes_is_replaced_by_one_of_the_pages_own(server, new_context):
    created = create_game(server.base_url)
    context = new_context()
    context.add_init_script(KEEP_SOCKETS)
    sockets = FirstClosed(context)
    page = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
    assert len(sockets.sent) == 2, sockets.sent
    claim = ["chronicle", "chronicle.seat." + created["seats"]["red"]["token"]]
    # net.py's own socket names the seat's token at the upgrade as socket.js's does, and the server answers
    # (Playwright's routing puts its own WebSocket in front of the page's: only the socket it let through to
    # the server is seen here).
    assert offered(page)[-1] == (claim, "chronicle"), offered(page)
    assert sockets.sent[1][0]["type"] == "hello" and sockets.sent[1][0]["since"] == 0
    assert page.text_content("#hash").startswith("hash ✓")
    assert page.problems == [], "\n".join(page.problems)

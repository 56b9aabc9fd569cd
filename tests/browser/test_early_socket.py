"""A live game's socket opened from the page's head, before Brython starts (issue 16, docs/client.md
"The socket before Python").

``static/socket.js`` opens the play or watch page's WebSocket and says the hello client/net.py would
say; the server's welcome and snapshot arrive while the scripts run, and ``net.Connection`` takes the
socket over with the frames it kept. A socket closed before Python starts is replaced by one of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading

import pytest

from server.snapshots import SNAPSHOT_EVERY
from tests.browser.conftest import open_page, wait_ready, wait_seq
from tests.browser.driver import ScriptedGame
from tests.server_fixture import create_game, free_port, seeded_game

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


class StrippingProxy:
    """A TCP proxy in front of the server that drops ``Sec-WebSocket-Protocol`` from the server's answers to
    WebSocket upgrades, as some proxies do: Chromium then fails every handshake that offered a subprotocol."""

    def __init__(self, port: int) -> None:
        self.port, self.listening = port, free_port()
        self.loop = asyncio.new_event_loop()
        self.writers: set = set()  # every connection's two ends, closed at stop
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.started.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", self.listening))
        self.started.set()
        self.loop.run_forever()
        server.close()
        for writer in self.writers:
            writer.close()
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(server.wait_closed())
            self.loop.run_until_complete(asyncio.sleep(0.05))  # the transports' closes run
        for task in asyncio.all_tasks(self.loop):
            task.cancel()
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(asyncio.gather(*asyncio.all_tasks(self.loop), return_exceptions=True))
        self.loop.close()

    async def _handle(self, client_reader, client_writer) -> None:
        self.writers.add(client_writer)
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writers.add(server_writer)
        request = await client_reader.readuntil(b"\r\n\r\n")
        server_writer.write(request)
        upgrade = b"upgrade: websocket" in request.lower()
        await asyncio.gather(self._pipe(client_reader, server_writer), self._pipe(server_reader, client_writer, upgrade))

    @staticmethod
    async def _pipe(reader, writer, strip: bool = False) -> None:
        try:
            if strip:
                head = await reader.readuntil(b"\r\n\r\n")
                writer.write(b"\r\n".join(line for line in head.split(b"\r\n")
                                            if not line.lower().startswith(b"sec-websocket-protocol:")))
            while data := await reader.read(65536):
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_core_a_seat_page_behind_a_proxy_that_drops_the_subprotocol_connects_without_its_claim(server, new_context):
    """Behind a proxy that drops the server's ``Sec-WebSocket-Protocol``, Chromium fails each handshake that
    offered the seat's claim; the page's next try offers none (``Connection.protocols``), and the seat plays,
    its token said in the hello alone, as before the claim existed."""
    created = create_game(server.base_url)
    proxy = StrippingProxy(server.port)
    try:
        context = new_context()
        context.add_init_script(KEEP_SOCKETS)
        link = created["seats"]["red"]["link"]
        page = open_page(context, f"http://127.0.0.1:{proxy.listening}{link}")
        wait_seq(page, 1)
        assert page.text_content("#hash").startswith("hash ✓")
        sockets = offered(page)
        claim = ["chronicle", "chronicle.seat." + created["seats"]["red"]["token"]]
        assert sockets[0] == (claim, "") and sockets[-1] == ([], ""), sockets  # failed with it, then in without
        assert page.text_content("#connection") == "open"
        # The failed handshakes are the only problems the page saw.
        assert all("Sec-WebSocket-Protocol" in problem for problem in page.problems), "\n".join(page.problems)
        context.close()  # its sockets closed before the proxy's
    finally:
        proxy.stop()

"""A page left open across a deployment (docs/protocol.md, the welcome's ``build``; client/net.py).

The deployment is made by a WebSocket route between the page and the real server: from the second
socket on (or from the first, for a page opened stale), the welcome's build is rewritten to another
one, as a redeployed server's would differ from the page's ``<body data-build>``.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.browser.conftest import hash_seq, open_page
from tests.server_fixture import create_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

OTHER_BUILD = "0000deadbeef"
OUTDATED = "document.querySelector('#notice.outdated #deploy-reload') !== null"


class Deployment:
    """The page's sockets through the real server; ``after`` sockets, every welcome names OTHER_BUILD."""

    def __init__(self, context, after: int) -> None:
        self.after = after
        self.sockets: list = []
        self.sent: list = []  # (socket index, frame type) of what the page sent
        context.route_web_socket(re.compile(r".*/ws/.*"), self.route)

    def route(self, socket) -> None:
        upstream = socket.connect_to_server()
        index = len(self.sockets)
        self.sockets.append(socket)

        def from_page(message) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            self.sent.append((index, frame.get("type") if isinstance(frame, dict) else None))
            upstream.send(message)

        def from_server(message) -> None:
            frame = json.loads(message) if isinstance(message, str) else None
            if index >= self.after and isinstance(frame, dict) and frame.get("type") == "welcome":
                assert re.fullmatch("[0-9a-f]{12}", frame["build"]), frame  # the real server names its build
                frame["build"] = OTHER_BUILD
                message = json.dumps(frame)
            socket.send(message)

        socket.on_message(from_page)
        upstream.on_message(from_server)


def test_deploy_a_page_left_open_stops_reading_says_so_and_takes_no_command(server, new_context):
    """Check a seated page that played with its own build, reconnected to a server of another build,
    keeps its board and hash, reads no frame, takes no command and offers the reload, which brings
    a page of the server's build that plays again."""
    created = create_game(server.base_url)
    context = new_context()
    deployment = Deployment(context, after=1)
    page = open_page(context, f"{server.base_url}{created['seats']['red']['link']}")
    # The matching build plays as before: red's Pass goes through and folds.
    assert page.get_attribute("body", "data-build") != OTHER_BUILD
    page.click("button[data-command='Pass']")
    page.wait_for_function("document.querySelector('#notice.ok') !== null")
    seq, shown, board = hash_seq(page), page.text_content("#hash"), page.inner_html("#board")
    assert seq > 1 and (0, "command") in deployment.sent
    # The deployment: the socket drops, the page says hello again, the welcome names another build.
    deployment.sockets[0].close()
    page.wait_for_function(OUTDATED, timeout=20_000)
    notice = page.text_content("#notice")
    assert notice.startswith("The game goes on, but this page is out of date") and notice.endswith("Reload")
    assert page.text_content("#hash") == shown and hash_seq(page) == seq and page.inner_html("#board") == board
    assert page.locator("#log li.error").count() == 0
    enabled = page.eval_on_selector_all("#actions button, #chat-form input, #chat-form button",
                                        "items => items.filter(b => !b.disabled).length")
    assert enabled == 0
    # No command leaves the page (a click on the board, or a button's handler called anyway).
    page.evaluate("document.querySelectorAll('#actions button, g.loc').forEach(n => n.dispatchEvent("
                  "new MouseEvent('click', {bubbles: true})))")
    page.wait_for_timeout(300)
    assert [kind for index, kind in deployment.sent if index >= 1] == ["hello"]
    assert len(deployment.sockets) == 2  # nor does the page connect again
    assert page.text_content("#notice") == notice
    # The reload: the new page's build is the server's own (the route now rewrites nothing it names).
    deployment.after = 99
    with page.expect_navigation():
        page.click("#deploy-reload")
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    assert hash_seq(page) == seq and page.locator("#deploy-reload").count() == 0
    assert [p for p in page.problems if "WebSocket" not in p] == []


@pytest.mark.parametrize("locale, lang, words", [
    ("fr-FR", "fr", "La partie continue, mais cette page n’est plus à jour"),
    ("ru-RU", "ru", "Партия продолжается, но эта страница устарела"),
])
def test_deploy_a_stale_watch_page_says_so_in_the_readers_language(server, new_context, locale, lang, words):
    """Check a watch page whose first welcome names another build folds nothing and says so in its language."""
    created = create_game(server.base_url)
    context = new_context(locale=locale)
    Deployment(context, after=0)
    page = open_page(context, f"{server.base_url}/watch/{created['game']}", wait=False)
    page.wait_for_function(OUTDATED, timeout=60_000)
    assert page.get_attribute("html", "lang") == lang
    assert page.text_content("#notice").startswith(words)
    assert page.locator("#log li.event").count() == 0 and hash_seq(page) == 0
    assert [p for p in page.problems if "WebSocket" not in p] == []

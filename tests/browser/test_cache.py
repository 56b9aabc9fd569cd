"""A warm reload fetches no page asset again (issue 16): every script and the stylesheet have
content-hashed URLs served ``immutable``, so Chromium takes them from its cache without asking the
server, while the HTML (``no-cache``) is asked for again, so a new release is picked up."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import open_page, wait_ready
from tests.server_fixture import create_game

pytestmark = pytest.mark.browser

HASHED = re.compile(r"/static/(js/|i18n/)?[a-z0-9-]+\.[0-9a-f]{12}\.(js|css)$")


class Network:
    """What Chromium's DevTools protocol says about each request: its URL, and whether a cache
    (memory or disk) answered it instead of the server."""

    def __init__(self, context, page) -> None:
        self.urls: dict = {}
        self.cached: set = set()
        self.statuses: dict = {}
        session = context.new_cdp_session(page)
        session.on("Network.requestWillBeSent", lambda e: self.urls.__setitem__(e["requestId"], e["request"]["url"]))
        session.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        session.on("Network.responseReceived", self._response)
        session.send("Network.enable")

    def _response(self, event: dict) -> None:
        self.statuses[event["requestId"]] = event["response"]["status"]
        if event["response"].get("fromDiskCache") or event["response"].get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def clear(self) -> None:
        self.urls.clear()
        self.cached.clear()
        self.statuses.clear()

    def assets(self, from_cache: bool) -> set:
        return {url.split("/", 3)[3] for rid, url in self.urls.items()
                if HASHED.search(url) and (rid in self.cached) == from_cache}

    def from_server(self, path: str) -> bool:
        return any(url.endswith(path) and rid not in self.cached for rid, url in self.urls.items())


def test_a_reload_of_a_play_page_fetches_no_hashed_asset_and_asks_for_the_html_again(server, new_context):
    created = create_game(server.base_url)
    context = new_context()
    page = open_page(context, "about:blank", wait=False)
    network = Network(context, page)
    page.goto(f"{server.base_url}{created['seats']['red']['link']}")
    wait_ready(page)
    fetched = network.assets(from_cache=False)
    names = page.eval_on_selector_all("script[src], link[rel=stylesheet]",
                                      "nodes => nodes.map(n => n.getAttribute('src') || n.getAttribute('href'))")
    # The first load asks the server for every asset the page names: catalogue, Brython, its stdlib,
    # the client, mecha's script, boot.js, socket.js (issue 16) and the stylesheet (the detection works both ways).
    assert fetched == {name.lstrip("/") for name in names} and len(fetched) == 8, (fetched, names)
    assert network.assets(from_cache=True) == set()

    for reload in (page.reload, lambda: page.goto(f"{server.base_url}/watch/{created['game']}")):
        network.clear()
        reload()
        wait_ready(page)
        assert network.assets(from_cache=False) == set(), "asked the server again"
        assert network.assets(from_cache=True) == fetched
        assert network.from_server(created["game"])  # the HTML itself: no-cache, asked for each time
        # Nothing compiled from Python: every Python module the page imported from Brython's VFS
        # (the JavaScript ones, hashlib or _json, run as they are) came with its JavaScript (server/bundle.py, compiled by Node ahead of time).
        compiled_here = page.evaluate("""() => Object.keys(__BRYTHON__.imported).filter(
            name => Object.hasOwn(__BRYTHON__.VFS, name) && __BRYTHON__.VFS[name][0] === ".py"
                && !Object.hasOwn(__BRYTHON__.precompiled, name))""")
        assert compiled_here == [], compiled_here
    assert page.problems == []


# Counts Brython's compiler calls from the moment brython.js has run (DOMContentLoaded comes after
# the page's scripts, before body.onload starts Brython).
COUNT_COMPILES = """document.addEventListener("DOMContentLoaded", () => {
    window.py2js_calls = 0;
    const compile = __BRYTHON__.py2js;
    __BRYTHON__.py2js = function () { window.py2js_calls += 1; return compile.apply(this, arguments); };
});"""


def test_a_page_compiles_no_python_at_all_not_even_its_entry_script(server, new_context):
    """Issue 16: the entry script comes compiled by Node (server/bundle.py, ENTRY), so Brython's
    compiler never runs on a page; the count itself works (a line of Python compiled counts one)."""
    created = create_game(server.base_url)
    context = new_context()
    context.add_init_script(COUNT_COMPILES)
    for url in (f"{server.base_url}{created['seats']['red']['link']}", f"{server.base_url}/"):
        page = open_page(context, url)
        assert page.evaluate("window.py2js_calls") == 0
        assert page.evaluate("Object.hasOwn(__BRYTHON__.imported, 'chronicle-main')")
        assert page.problems == []
    page.evaluate("__BRYTHON__.runPythonSource('x = 1')")
    assert page.evaluate("window.py2js_calls") == 1

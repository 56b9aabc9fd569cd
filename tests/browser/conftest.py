"""Browser tests: one real server and one headless Chromium for the whole session.

The server comes from ``tests/server_fixture.py`` (a uvicorn subprocess over a fresh SQLite file);
Chromium is Debian's (``/usr/bin/chromium``, never ``playwright install``), driven through
Playwright's sync API. Each test gets fresh browser contexts (own cache, own indexedDB) and opens
pages with ``open_page``, which waits for ``window.chronicle_ready`` and collects everything the
page complained about: uncaught errors, console errors (a CSP violation is one), failed requests.
"""

from __future__ import annotations

import os
import urllib.request

import pytest

from tests.server_fixture import ServerProcess

CHROMIUM = "/usr/bin/chromium"
#: Debian's Chromium as it comes, as root on this closed network (what bench.page times by default).
CHROMIUM_PLAIN_ARGS = [
    "--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-quic",
]
#: Chromium 156's headless browser renders two chrome://omnibox-popup pages for every new tab, in a
#: renderer process of their own (docs/performance.md, "The play page's warm load, third pass");
#: these features are those pages, which no test looks at.
NO_OMNIBOX_UI = "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"
#: What the browser tests launch: without the omnibox pages, the suite's browser tests spend about
#: a quarter less CPU (test_play, test_clarity and test_disputes, two pairs on 2026-12-01, 20:16-20:20
#: UTC, load 2.5-6.4: user + system 21.9 and 22.4 s -> 16.1 and 15.9 s; wall 55 and 55 s -> 45 and 39 s).
CHROMIUM_ARGS = CHROMIUM_PLAIN_ARGS + [NO_OMNIBOX_UI]
READY_TIMEOUT_MS = 30_000


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> ServerProcess:
    with ServerProcess(tmp_path_factory.mktemp("browser") / "chronicle.db").start() as started:
        # The first page request builds the script bundle (precompiling with Node takes seconds,
        # more on a busy machine): pay it here, not inside a page's navigation timeout.
        with urllib.request.urlopen(f"{started.base_url}/", timeout=600) as response:
            response.read()
        yield started


# Package scope: Playwright's sync API keeps an event loop running in this thread while it lives,
# and the server tests that run after this package call asyncio.run().
@pytest.fixture(scope="package")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"browser tests need Debian's chromium at {CHROMIUM}: run `make chromium` (make test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def new_context(browser):
    """``new_context(**options)`` -> a fresh browser context (closed at teardown); ``locale="fr-FR"``
    makes its pages ask for French (Accept-Language)."""
    made = []

    def make(**options):
        context = browser.new_context(viewport={"width": 1400, "height": 900}, **options)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


class Problems(list):
    """What a page complained about; a test asserts it stays empty."""


def open_page(context, url: str, wait: bool = True):
    """Open ``url`` in ``context``; ``page.problems`` lists errors; waits for chronicle_ready."""
    page = context.new_page()
    problems = Problems()
    page.problems = problems
    page.on("pageerror", lambda error: problems.append(f"uncaught: {error}"))
    page.on("console", lambda message: problems.append(f"console {message.type}: {message.text}")
            if message.type == "error" else None)
    page.on("response", lambda response: problems.append(f"HTTP {response.status} {response.url}")
            if response.status >= 400 else None)
    page.on("dialog", lambda dialog: (problems.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    page.goto(url)
    if wait:
        wait_ready(page)
    return page


def wait_ready(page) -> None:
    page.wait_for_function("window.chronicle_ready === true", timeout=READY_TIMEOUT_MS)


def hash_seq(page) -> int:
    return int(page.get_attribute("#hash", "data-seq") or 0)


def wait_seq(page, seq: int) -> None:
    """Until the page has folded ``seq`` envelopes and checked the newest hash."""
    page.wait_for_function(
        "seq => { const h = document.getElementById('hash');"
        " return h && Number(h.dataset.seq) >= seq && h.classList.contains('ok'); }",
        arg=seq, timeout=READY_TIMEOUT_MS,
    )

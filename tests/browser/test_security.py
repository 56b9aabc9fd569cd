"""Security in the browser: names holding markup show as text on every page, every page is served
with a Content-Security-Policy, and the static routes refuse path traversal.

``test_lobby.py`` checks one title on three pages; this puts markup in the title and in both
seats' Mecha names and opens every page kind (lobby, each seat's play page, the spectator's
watch page, the replay, and the replay opened at seq 1), with a payload that would set a flag
as well as one that would open a dialog: neither may run, and each name must read as its text.
"""

from __future__ import annotations

import pytest

from server import scenarios
from tests.browser.conftest import open_page
from tests.reliability import report
from tests.reliability.test_http import SECRETS, TRAVERSALS
from tests.server_fixture import post_json

pytestmark = [pytest.mark.browser, pytest.mark.server]

TITLE = "<img src=x onerror=alert(1)>"
RED = "<svg onload=window.__pwned=1>"
BLUE = "<script>window.__pwned=2</script>"


def test_names_with_markup_show_as_text_on_every_page_with_a_csp(server, new_context):
    _, scenario = scenarios.load("mecha/sample")
    scenario["title"] = TITLE
    scenario["seats"][0]["mech"] = RED
    scenario["seats"][1]["mech"] = BLUE
    # The board's static part is one SVG text (client/boards/mecha.py, issue 16): markup as the board's
    # and a Location's names too, which go into it.
    scenario["board"]["name"] = TITLE
    scenario["board"]["locations"][0]["name"] = RED
    status, created = post_json(f"{server.base_url}/api/games", {"scenario": scenario})
    assert status == 201, created
    game_id = created["game"]
    urls = {
        "lobby": "/",
        "red": created["seats"]["red"]["link"],
        "blue": created["seats"]["blue"]["link"],
        "watch": created["spectate"],
        "replay": created["replay"],
        "replay at 1": f"{created['replay']}?seq=1",
    }
    for name, url in urls.items():
        context = new_context()
        policies = []
        context.on("response", lambda response, policies=policies: policies.append(
            response.headers.get("content-security-policy")) if response.request.resource_type == "document" else None)
        page = open_page(context, f"{server.base_url}{url}")
        # Check: the document came with the policy (no inline script, scripts from this origin only).
        assert policies and policies[0] and "script-src 'self'" in policies[0] and "unsafe-inline" not in policies[0]
        # Check: every name reads as its text; no element was made from it; nothing ran.
        if name == "lobby":
            page.locator(f"tr.game[data-game='{game_id}']").wait_for()
            assert page.text_content(f"tr.game[data-game='{game_id}'] td.title") == TITLE
        else:
            assert page.text_content("h2.game-title") == TITLE, name
            seats = page.text_content("table.seats")
            assert RED in seats and BLUE in seats, (name, seats)
            board = page.locator("svg.mecha-board")
            assert board.get_attribute("data-board") == TITLE, name
            assert board.locator("> title").text_content() == TITLE, name
            assert RED in " ".join(board.locator("text.loc-name").all_text_contents()), name
        assert page.locator("img[src='x'], main svg[onload], main script").count() == 0, name
        assert page.evaluate("window.__pwned === undefined"), name
        assert page.problems == [], (name, page.problems)  # no dialog, no error, no CSP violation
    report.record("browser", "markup as a game title and both seats' names (`<img onerror>`, `<svg onload>`, `<script>`), "
                  "opened in Chromium: lobby, both seats' play pages, watch, replay, replay at seq 1", len(urls),
                  len(urls), "each name read as its text; no element made from it, no dialog, no script ran, "
                  "no CSP violation; each document came with the policy", unit="pages")


def test_static_routes_refuse_path_traversal_from_the_browser(server, new_context):
    page = new_context().new_page()
    for path in TRAVERSALS:
        response = page.request.get(f"{server.base_url}{path}")
        assert response.status in (400, 404), (path, response.status)
        assert not any(secret in response.body() for secret in SECRETS), path
    report.record("browser", "path traversal requested by the browser", len(TRAVERSALS), len(TRAVERSALS),
                  "each 404 or 400, no file content", unit="paths")


_OPEN_SOCKET = """url => new Promise(done => {
    const socket = new WebSocket(url);
    socket.onopen = () => { socket.close(); done("open"); };
    socket.onclose = event => done("closed " + event.code);
})"""


def test_a_page_of_another_origin_cannot_open_a_game_socket(server, new_context):
    """Issue 12, finding 3: before, any page a player visited could open 64 silent sockets from their
    browser and lock a game. A page of another origin now gets no socket (the upgrade is answered
    403); a page of the server's own origin opens one."""
    game = post_json(f"{server.base_url}/api/games", {"scenario": "mecha/sample"})[1]["game"]
    url = f"{server.ws_url}/ws/{game}"
    context = new_context()
    context.route("http://elsewhere.test/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>another site</title>"))
    elsewhere = context.new_page()
    elsewhere.goto("http://elsewhere.test/")
    assert elsewhere.evaluate(_OPEN_SOCKET, url) == "closed 1006"  # refused before the upgrade
    own = open_page(context, f"{server.base_url}/")
    assert own.evaluate(_OPEN_SOCKET, url) == "open"


def test_a_titles_key_nested_in_a_scenario_s_notes_never_heads_its_page(server, new_context):
    """The pages review: the board's heading took the first ``"titles"`` of the GameStarted's scenario text,
    and canonical JSON puts ``notes`` (which may hold anything) before ``titles``, so a hostile scenario
    headed every page with a title no game checked. The seat's, the spectator's and the replay page now
    show the scenario's own, in the reader's language."""
    _, scenario = scenarios.load("echo/first-case")
    scenario["notes"] = {"titles": {"en": scenario["titles"]["en"], "fr": "Titre piégé", "ru": "Ловушка"}}
    status, created = post_json(f"{server.base_url}/api/games", {"scenario": scenario})
    assert status == 201, created
    context = new_context(locale="fr-FR")
    for url in (created["seats"][sorted(created["seats"])[0]]["link"], created["spectate"], created["replay"]):
        page = open_page(context, f"{server.base_url}{url}")
        assert page.text_content("h2.game-title") == "La première affaire", url
        assert page.problems == [], (url, page.problems)
        page.close()

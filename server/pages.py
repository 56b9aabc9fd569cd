"""The browser pages and their static files, as a list of Starlette routes (``routes``).

Pages are tiny HTML shells: the Brython client (``client/``) fills them in. Every script and
stylesheet URL carries a hash of its content, so those are served gzipped with a one-year cache,
while the HTML itself is revalidated each time. No inline script exists, so the pages can send a
Content-Security-Policy that allows scripts from this origin only, plus ``'unsafe-eval'``, which
Brython needs to run the JavaScript it compiles from Python. Nothing from the request or the
store is written into the HTML but the URL of its game's script: a page reads its game id from
its own URL.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from server import bundle

STATIC_DIR = Path(__file__).resolve().parent.parent / "client" / "static"
STATIC_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
IMMUTABLE = "public, max-age=31536000, immutable"
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "Cache-Control": "no-cache",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

TITLES = {"lobby": "Games", "play": "Play", "watch": "Spectate", "replay": "Replay"}

# The panels each page kind fills in; ids are what client/pages/*.py look up.
BODIES = {
    "lobby": """
<main class="lobby">
  <section class="new-game">
    <h2>New game</h2>
    <form id="create">
      <label>Scenario <select id="scenario" name="scenario"></select></label>
      <fieldset id="seat-choices" class="seat-choices"></fieldset>
      <button id="create-button" type="submit" disabled>Create</button>
    </form>
    <p id="notice" class="notice"></p>
    <div id="created"></div>
  </section>
  <section class="games">
    <h2>Games</h2>
    <table class="game-list">
      <thead><tr><th>title</th><th>rules</th><th>seats</th><th>log</th><th>created</th><th></th></tr></thead>
      <tbody id="games"></tbody>
    </table>
    <button id="more-games" type="button" hidden>More games</button>
  </section>
</main>""",
    "play": """
<main class="table">
  <section class="board-area">
    <div class="bar"><span id="who" class="who"></span> <span id="hash" class="hash">loading…</span>
      <span id="connection" class="connection"></span></div>
    <div id="board" class="board-box"></div>
    <div id="actions" class="actions"></div>
    <p id="notice" class="notice"></p>
  </section>
  <aside class="side">
    <div id="info" class="info"></div>
    <h3>Event log</h3>
    <div class="log-box"><ol id="log" class="log"></ol></div>
  </aside>
</main>""",
    "replay": """
<main class="table">
  <section class="board-area">
    <div class="bar"><span class="who">Replay</span> <span id="hash" class="hash">loading…</span></div>
    <div id="controls" class="controls"></div>
    <div id="board" class="board-box"></div>
    <p id="notice" class="notice"></p>
  </section>
  <aside class="side">
    <div id="info" class="info"></div>
    <h3>Event log</h3>
    <div class="log-box"><ol id="log" class="log"></ol></div>
  </aside>
</main>""",
}
BODIES["watch"] = BODIES["play"]


class StaticFile:
    __slots__ = ("name", "url", "body", "gzipped", "media_type")

    def __init__(self, path: Path) -> None:
        import gzip

        self.body = path.read_bytes()
        self.gzipped = gzip.compress(self.body, 9, mtime=0)
        digest = hashlib.sha256(self.body).hexdigest()[:12]
        self.name = f"{path.stem}.{digest}{path.suffix}"
        self.url = f"/static/{self.name}"
        self.media_type = STATIC_TYPES[path.suffix]


def static_files() -> dict:
    """boot.js and style.css by file name (read each call: two small files, and edits show at once)."""
    return {path.name: StaticFile(path) for path in sorted(STATIC_DIR.iterdir()) if path.suffix in STATIC_TYPES}


def render_page(kind: str, rules: str | None = None) -> str:
    """The page's HTML. ``rules``: the game's rule system, whose script then loads with the others
    (otherwise the page fetches it once the server's welcome names the game: a round trip later)."""
    built = bundle.current()
    static = static_files()
    scripts = [f"/static/js/{name}" for name in built.scripts]
    if rules in built.games:
        scripts.append(f"/static/js/{built.games[rules]}")
    scripts.append(static["boot.js"].url)
    tags = "\n".join(f'<script src="{url}"></script>' for url in scripts)
    nav = '<a href="/">Chronicle</a>'
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chronicle · {TITLES[kind]}</title>
<link rel="stylesheet" href="{static['style.css'].url}">
<link rel="icon" href="data:,">
</head>
<body data-page="{kind}">
<header><nav>{nav}</nav><h1>{TITLES[kind]} <span id="game-id" class="game-id"></span></h1></header>
{BODIES[kind]}
{tags}
</body>
</html>
"""


def _page(kind: str):
    async def endpoint(request: Request) -> Response:
        rules = await _rules_of(request) if "game" in request.path_params else None
        html = await run_in_threadpool(render_page, kind, rules)  # a first build takes seconds
        return HTMLResponse(html, headers=PAGE_HEADERS)

    endpoint.__name__ = f"{kind}_page"
    return endpoint


async def _rules_of(request: Request) -> str | None:
    """The game's rule system from the store, or None (unknown game, no store): never an error here,
    the page itself reports what the socket or the API says."""
    store = getattr(request.app.state, "store", None)
    if store is None:
        return None
    try:
        meta = await store.get_game(request.path_params["game"])
    except Exception:  # UnknownGame, or a store hiccup: the page still works without the hint
        return None
    return meta.rules


def _send(request: Request, body: bytes, gzipped: bytes, media_type: str) -> Response:
    headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding", "X-Content-Type-Options": "nosniff"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return Response(gzipped, media_type=media_type, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def script(request: Request) -> Response:
    """A bundle script by its hashed name (``/static/js/chronicle.3f9a0c1d2e4b.js``)."""
    asset = bundle.asset(request.path_params["name"])
    if asset is None:
        return PlainTextResponse("no such script (the bundle was rebuilt: reload the page)", status_code=404)
    return _send(request, asset.body, asset.gzipped, STATIC_TYPES[".js"])


def static(request: Request) -> Response:
    name = request.path_params["name"]
    item = next((item for item in static_files().values() if item.name == name), None)
    if item is None:
        return PlainTextResponse("no such file", status_code=404)
    return _send(request, item.body, item.gzipped, item.media_type)


routes: list = [
    Route("/", _page("lobby")),
    Route("/play/{game}", _page("play")),
    Route("/watch/{game}", _page("watch")),
    Route("/replay/{game}", _page("replay")),
    Route("/static/js/{name}", script),
    Route("/static/{name}", static),
]

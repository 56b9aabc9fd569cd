"""The browser pages and their static files, as a list of Starlette routes (``routes``).

Pages are tiny HTML shells: the Brython client (``client/``) fills them in. Every script and
stylesheet URL carries a hash of its content, so those are served gzipped with a one-year cache,
while the HTML itself is revalidated each time. No inline script exists, so the pages can send a
Content-Security-Policy that allows scripts from this origin only, plus ``'unsafe-eval'``, which
Brython needs to run the JavaScript it compiles from Python. Nothing from the request or the
store is written into the HTML but its game's rule system, as the URL of its script and as
``<body data-game>`` (for the game's stylesheet rules), and only when it is one the bundle knows,
and the page's language (one of ``client.i18n.LANGUAGES``, picked by ``server/i18n.py``): a page
reads its game id from its own URL.
"""

from __future__ import annotations

import hashlib
import html
import re
import threading
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from client import i18n as catalogue
from server import bundle, i18n

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

TITLES = {"lobby": "page.lobby", "play": "page.play", "watch": "page.watch", "replay": "page.replay",
          "offline": "offline.title"}

# The panels each page kind fills in; ids are what client/pages/*.py look up. ``{{key}}`` is a
# text of the catalogue in the page's language (``server/i18n.py``), written as
# ``<span data-i18n="key">…</span>`` so a test can tell it came from the catalogue.
_SIDE = """
  <aside class="side">
    <div id="info" class="info"></div>
    <h3 id="log-title">{{page.event_log}}</h3>
    <div class="log-box" tabindex="0" role="region" aria-labelledby="log-title"><ol id="log" class="log"></ol></div>
  </aside>
</main>"""  # the info panel and the event log, beside the board of every table page
BODIES = {
    "lobby": """
<main class="lobby">
  <section class="new-game">
    <h2>{{lobby.new_game}}</h2>
    <form id="create">
      <label>{{lobby.scenario}} <select id="scenario" name="scenario"></select></label>
      <fieldset class="seat-choices"><legend>{{lobby.seat_players}}</legend><div id="seat-choices"></div></fieldset>
      <button id="create-button" type="submit" disabled>{{lobby.create}}</button>
    </form>
    <form id="upload" class="upload">
      <span class="upload-label">{{lobby.upload_label}}</span>
      <label class="file-pick">{{lobby.choose_button}}
        <input id="scenario-file" name="scenario-file" type="file" accept=".json,.jsonl,application/json"></label>
      <span id="file-name" class="file-name" role="status">{{lobby.no_file}}</span>
      <button id="upload-button" type="submit">{{lobby.upload}}</button>
      <span class="hint">{{offline.upload_hint}}</span>
    </form>
    <p id="notice" class="notice" role="status"></p>
    <ul id="scenario-errors" class="scenario-errors"></ul>
    <div id="created"></div>
    <p class="offline-link"><a id="offline-link" href="/offline">{{offline.link}}</a></p>
  </section>
  <section class="my-games">
    <h2>{{lobby.my_games}}</h2>
    <p class="hint">{{lobby.my_games_hint}}</p>
    <ul id="my-games"></ul>
  </section>
  <section class="games">
    <h2>{{lobby.games}}</h2>
    <table class="game-list">
      <thead><tr><th>{{lobby.col_title}}</th><th>{{lobby.col_rules}}</th><th>{{lobby.col_seats}}</th>
        <th>{{lobby.col_log}}</th><th>{{lobby.col_created}}</th><th>{{lobby.col_links}}</th></tr></thead>
      <tbody id="games"></tbody>
    </table>
    <button id="more-games" type="button" hidden>{{lobby.more_games}}</button>
  </section>
</main>""",
    "play": """
<main class="table">
  <section class="board-area">
    <div class="bar"><span id="who" class="who"></span> <span id="hash" class="hash">{{page.loading}}</span>
      <span id="connection" class="connection"></span></div>
    <div id="board" class="board-box"></div>
    <div id="actions" class="actions"></div>
    <p id="notice" class="notice" role="status"></p>
    <div id="legend"></div>
  </section>""" + _SIDE,
    "replay": """
<main class="table">
  <section class="board-area">
    <div class="bar"><span class="who">{{page.replay}}</span> <span id="hash" class="hash">{{page.loading}}</span></div>
    <div id="controls" class="controls"></div>
    <div id="board" class="board-box"></div>
    <p id="notice" class="notice" role="status"></p>
    <div id="legend"></div>
  </section>""" + _SIDE,
}
BODIES["watch"] = BODIES["play"]
# Pass-and-play (client/pages/offline.py, docs/offline.md): the play page's panels, a scenario choice,
# and the tools of a game kept in this browser.
BODIES["offline"] = """
<main class="table offline">
  <section class="board-area">
    <form id="offline-new" class="offline-new">
      <label>{{offline.scenario}} <select id="offline-scenario" name="offline-scenario"></select></label>
      <button id="offline-start" type="submit" disabled>{{offline.start}}</button>
    </form>
    <p class="hint">{{offline.hint}}</p>
    <div class="bar"><span id="who" class="who"></span> <span id="hash" class="hash">{{page.loading}}</span></div>
    <div id="board" class="board-box"></div>
    <div id="actions" class="actions"></div>
    <p id="notice" class="notice" role="status"></p>
    <div id="offline-tools" class="offline-tools"></div>
    <div id="legend"></div>
  </section>""" + _SIDE


class StaticFile:
    __slots__ = ("name", "url", "body", "gzipped", "media_type")

    def __init__(self, path: Path, body: bytes | None = None) -> None:
        import gzip

        self.body = path.read_bytes() if body is None else body
        self.gzipped = gzip.compress(self.body, 9, mtime=0)
        digest = hashlib.sha256(self.body).hexdigest()[:12]
        self.name = f"{path.stem}.{digest}{path.suffix}"
        self.url = f"/static/{self.name}"
        self.media_type = STATIC_TYPES[path.suffix]


def _build_static_files() -> dict:
    files = {path.name: StaticFile(path) for path in sorted(STATIC_DIR.iterdir()) if path.suffix in STATIC_TYPES}
    style = STATIC_DIR / "style.css"
    parts = [style.read_bytes()]
    for path in sorted((STATIC_DIR / "games").glob("*.css")):
        parts.append(f"\n/* ---- games/{path.name} ---- */\n".encode() + path.read_bytes())
    files["style.css"] = StaticFile(style, b"".join(parts))
    return files


def _static_stamp() -> tuple:
    """Sizes and mtimes of the static files (a dozen ``stat``s): an edit shows on the next page."""
    paths = [*STATIC_DIR.iterdir(), *(STATIC_DIR / "games").glob("*.css")]
    return tuple(sorted((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in paths if p.suffix in STATIC_TYPES))


class _Statics:
    """boot.js and style.css as they are now, built (read, hashed, gzipped) once per change.

    As for the bundle's scripts, the files of the last ``KEEP`` versions stay servable by name, so a
    page fetched just before an edit still gets the files it names; an older name is a 404."""

    KEEP = 4

    def __init__(self) -> None:
        self.lock = threading.Lock()  # pages render in Starlette's thread pool
        self.stamp: tuple = ()
        self.recent: list = []  # newest first: {file name: StaticFile}

    def current(self) -> dict:
        stamp = _static_stamp()
        with self.lock:
            if not self.recent or stamp != self.stamp:
                self.recent = [_build_static_files(), *self.recent][: self.KEEP]
                self.stamp = stamp
            return self.recent[0]

    def named(self, name: str) -> StaticFile | None:
        self.current()
        for files in self.recent:
            for item in files.values():
                if item.name == name:
                    return item
        return None


_statics = _Statics()


def static_files() -> dict:
    """boot.js and style.css by file name (rebuilt when a file changed: edits show at once).

    style.css is served with every game's stylesheet (``static/games/<game>.css``) appended: each
    game's rules live in a file of their own, prefixed with its board's class, and a page still
    fetches one stylesheet (its game may be known only after the server's welcome)."""
    return _statics.current()


LANGUAGE_NAMES = (("en", "English"), ("fr", "Français"), ("ru", "Русский"))  # each in its own language
_KEY = re.compile(r"\{\{([a-z0-9_.]+)\}\}")


def _text(lang: str, key: str, messages: dict | None) -> str:
    return i18n.t(lang, key) if messages is None else catalogue.render(messages, lang, key, {})


def translate(template: str, lang: str, messages: dict | None = None) -> str:
    """``{{key}}`` -> the catalogue's text in ``lang`` as ``<span data-i18n="key">``, HTML-escaped.
    ``messages``: the language's catalogue, when the caller has it already (one lookup per page)."""
    return _KEY.sub(lambda found: f'<span data-i18n="{found[1]}">{html.escape(_text(lang, found[1], messages))}</span>',
                    template)


def switcher(lang: str, messages: dict | None = None) -> str:
    """A choice of the three languages, each named in itself (client/main.py sets the cookie and reloads)."""
    options = "".join(f'<option value="{code}" lang="{code}" translate="no"{" selected" if code == lang else ""}>'
                      f'{label}</option>' for code, label in LANGUAGE_NAMES)
    label = html.escape(_text(lang, "page.language", messages))
    return f'<label class="langs"><span data-i18n="page.language">{label}</span> <select id="lang">{options}</select></label>'


def head(lang: str, title: str, style: str, early: str = "") -> str:
    """Every page's start, up to its ``<body>``: its language, its ``title`` (HTML already), the stylesheet
    (``style``, its hashed URL), and ``early`` tags (HTML) at the end of the head."""
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chronicle · {title}</title>
<link rel="stylesheet" href="{style}">
<link rel="icon" href="data:,">
{early}</head>"""


def render_page(kind: str, rules: str | None = None, lang: str = catalogue.DEFAULT) -> str:
    """The page's HTML in ``lang``. ``rules``: the game's rule system, whose script then loads with the
    others (otherwise the page fetches it once the server's welcome names the game: a round trip later)."""
    built = bundle.current()
    static = static_files()
    language = i18n.script(lang)  # its messages serve every text of the page (each lookup stats the catalogues)
    messages = language.messages
    scripts = [language.url] + [f"/static/js/{name}" for name in built.scripts]
    if kind == "offline":  # every rule system up front: once loaded, the page plays with no server at all
        scripts += [f"/static/js/{built.games[game]}" for game in sorted(built.games)]
    elif rules in built.games:
        scripts.append(f"/static/js/{built.games[rules]}")
    scripts.append(static["boot.js"].url)
    tags = "\n".join(f'<script src="{url}"></script>' for url in scripts)
    # A live game's socket opens (and says hello) from the head, before Brython starts: the server's
    # welcome and snapshot come while the scripts run, and client/net.py takes the socket over (issue 16).
    early = f'<script src="{static["socket.js"].url}"></script>\n' if kind in ("play", "watch") else ""
    nav = '<a href="/" translate="no">Chronicle</a>'
    title = html.escape(_text(lang, TITLES[kind], messages))
    # The rule system's name (a key of bundle.games, never request data): the game's stylesheet rules
    # apply from the first paint. Without it the page sets the attribute once the welcome names the game.
    game_attr = f' data-game="{rules}"' if rules in built.games else ""
    return f"""{head(lang, title, static['style.css'].url, early)}
<body data-page="{kind}"{game_attr} data-build="{built.key[:12]}">
<header><nav>{nav}</nav>{switcher(lang, messages)}<h1>{translate("{{" + TITLES[kind] + "}}", lang, messages)} <span id="game-id" class="game-id" translate="no"></span></h1></header>
{translate(BODIES[kind], lang, messages)}
{tags}
</body>
</html>
"""


MISSING = """<p>{{page.missing_text}}</p>
<p><a href="/">{{page.to_lobby}}</a></p>"""


def missing_page(request: Request) -> Response:
    """A 404 a person reads: a browser that asked for a page at a path that is none (a link mistyped, an
    old address) gets a page in its language with the way to the lobby, not the API's JSON problem."""
    lang = page_language(request)
    messages = i18n.script(lang).messages
    title = html.escape(_text(lang, "page.missing", messages))
    body = f"""{head(lang, title, static_files()['style.css'].url)}
<body data-page="missing">
<header><nav><a href="/" translate="no">Chronicle</a></nav><h1>{translate("{{page.missing}}", lang, messages)}</h1></header>
<main>{translate(MISSING, lang, messages)}</main>
</body>
</html>
"""
    return HTMLResponse(body, status_code=404, headers={**NOT_FOUND_HEADERS, "Content-Language": lang,
                                                         "Vary": "Accept, Accept-Language, Cookie"})


def wants_page(request: Request) -> bool:
    """A browser's navigation to a path outside the API, the files and the sockets (it accepts HTML)."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and not path.startswith(("/api/", "/static/", "/ws/"))
            and "text/html" in request.headers.get("accept", ""))


def page_language(request: Request) -> str:
    return i18n.pick(request.headers.get("accept-language"), request.cookies.get(i18n.COOKIE))


def _page(kind: str):
    async def endpoint(request: Request) -> Response:
        rules = await _rules_of(request) if "game" in request.path_params else None
        lang = page_language(request)
        body = await run_in_threadpool(render_page, kind, rules, lang)  # a first build takes seconds
        return HTMLResponse(body, headers={**PAGE_HEADERS, "Content-Language": lang,
                                           "Vary": "Accept-Language, Cookie"})

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


NOT_FOUND_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether ``Accept-Encoding`` allows gzip (RFC 9110 §12.5.3): listed, or ``*``, with a q above 0."""
    allowed = {}
    for item in accept_encoding[:MAX_ACCEPT_ENCODING].split(",")[:MAX_CODINGS]:
        coding, _, params = item.strip().partition(";")
        allowed[coding.strip().lower()] = i18n._quality(params) > 0  # the q parsing of Accept-Language
    return allowed.get("gzip", allowed.get("x-gzip", allowed.get("*", False)))


MAX_ACCEPT_ENCODING = 512  # longer headers are read up to here (browsers send ~30 bytes)
MAX_CODINGS = 32


def _send(request: Request, body: bytes, gzipped: bytes, media_type: str) -> Response:
    headers = {"Cache-Control": IMMUTABLE, "Vary": "Accept-Encoding", "X-Content-Type-Options": "nosniff"}
    if accepts_gzip(request.headers.get("accept-encoding", "")):
        headers["Content-Encoding"] = "gzip"
        return Response(gzipped, media_type=media_type, headers=headers)
    return Response(body, media_type=media_type, headers=headers)


def not_found(message: str) -> Response:
    """A name no build (of the last few) made: a 404 no cache keeps, as the name may exist after a rebuild."""
    return PlainTextResponse(message, status_code=404, headers=NOT_FOUND_HEADERS)


def script(request: Request) -> Response:
    """A bundle script by its hashed name (``/static/js/chronicle.3f9a0c1d2e4b.js``)."""
    asset = bundle.asset(request.path_params["name"])
    if asset is None:
        return not_found("no such script (the bundle was rebuilt: reload the page)")
    return _send(request, asset.body, asset.gzipped, STATIC_TYPES[".js"])


def catalogue_script(request: Request) -> Response:
    """A language's catalogue by its hashed name (``/static/i18n/i18n-fr.3f9a0c1d2e4b.js``)."""
    found = i18n.script_named(request.path_params["name"])
    if found is None:
        return not_found("no such catalogue (it was rebuilt: reload the page)")
    return _send(request, found.body, found.gzipped, STATIC_TYPES[".js"])


def static(request: Request) -> Response:
    """boot.js or style.css by its hashed name (``/static/style.58604c92c5ab.css``)."""
    item = _statics.named(request.path_params["name"])
    if item is None:
        return not_found("no such file")
    return _send(request, item.body, item.gzipped, item.media_type)


def no_static(request: Request) -> Response:
    """Any other path under /static/ (a directory, ``games/x.css``, an escaped ``..``): the same 404."""
    return not_found("no such file")


routes: list = [
    Route("/", _page("lobby")),
    Route("/play/{game}", _page("play")),
    Route("/watch/{game}", _page("watch")),
    Route("/replay/{game}", _page("replay")),
    Route("/offline", _page("offline")),
    Route("/static/js/{name}", script),
    Route("/static/i18n/{name}", catalogue_script),
    Route("/static/{name}", static),
    Route("/static/{rest:path}", no_static),
]

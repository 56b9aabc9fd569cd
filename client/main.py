"""The one entry point: ``static/boot.js`` runs ``client.main.start()`` on every page.

The page kind comes from ``<body data-page="...">`` (set by ``server/pages.py``); each page's
module is imported only on its own page, so the lobby never compiles a game. First the page's
language catalogue is installed (``client/i18n``; the server's script ``i18n-<lang>.js`` put it in
``window.chronicle_i18n``) and the language buttons are wired: a choice is a cookie the server
reads, then a reload.
"""

from __future__ import annotations

import json

from browser import document, window

from client import i18n
from client.dom import byid, listen, mark

COOKIE = "chronicle-lang"
YEAR = 365 * 24 * 3600


def start() -> None:
    mark("python")
    _reflect = window.Reflect
    check = bool(_reflect.has(window, "chronicle_i18n_check")) and bool(window.chronicle_i18n_check)
    i18n.install(json.loads(window.chronicle_i18n), check)
    mark("i18n")
    listen(byid("lang"), "change", choose_language)
    page = document.body.getAttribute("data-page")
    if page == "lobby":
        from client.pages import lobby

        lobby.main()
    elif page in ("play", "watch"):
        from client.pages import play

        play.main(page == "play")
    elif page == "replay":
        from client.pages import replay

        replay.main()
    elif page == "offline":
        from client.pages import offline

        offline.main()
    else:
        raise ValueError(f"unknown page kind {page!r} (expected lobby, play, watch, replay or offline)")


def choose_language(event: object) -> None:
    """Remember the reader's language (the server honours the cookie) and show the page in it."""
    code = event.currentTarget.value
    if code not in i18n.LANGUAGES:
        return
    document.cookie = f"{COOKIE}={code}; path=/; max-age={YEAR}; samesite=lax"
    window.location.reload()

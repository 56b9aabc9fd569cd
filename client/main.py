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
    i18n.install(catalogue(window.chronicle_i18n), check)
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


def catalogue(text: str) -> dict:
    """The catalogue script's text as ``i18n.install`` takes it, parsed by the browser (``JSON.parse``)
    and made Python only where it is read: Brython's ``json.loads`` of the whole ~120 KB took ~25 ms
    of every page's start (issue 16), where a page reads a few hundred of its ~1,500 messages."""
    data = _json.parse(text)
    return {"lang": str(data.lang), "messages": _Part(data.messages), "clauses": _Part(data.clauses),
            "names": _Part(data.names)}


_json = window.JSON
_get = window.Reflect.get
_own = window.Object.hasOwn  # a key of the data itself, never one of every object's ("constructor")


class _Part:
    """One part of the catalogue (a JavaScript object), read as the dict it stands for: a message's
    text at once; anything else (plural forms, one game's clauses or names) made Python on first use,
    through ``json.loads``, so it is the very value the whole catalogue's ``json.loads`` gave."""

    __slots__ = ("data", "made")

    def __init__(self, data: object) -> None:
        self.data = data
        self.made: dict = {}

    def __bool__(self) -> bool:
        return True

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and bool(_own(self.data, key))

    def get(self, key: object, default: object = None) -> object:
        if not isinstance(key, str):
            return default
        value = _get(self.data, key)
        if isinstance(value, str):  # no string is any object's own: a message of the data
            return value
        if key in self.made:
            return self.made[key]
        if not _own(self.data, key):
            return default
        made = self.made[key] = json.loads(_json.stringify(value))
        return made


def choose_language(event: object) -> None:
    """Remember the reader's language (the server honours the cookie) and show the page in it."""
    code = event.currentTarget.value
    if code not in i18n.LANGUAGES:
        return
    document.cookie = f"{COOKIE}={code}; path=/; max-age={YEAR}; samesite=lax"
    window.location.reload()

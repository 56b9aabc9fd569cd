"""A rule system's scripts, loaded when a page learns which game it shows.

Each game's modules (``events.games.<name>``, ``client.boards.<name>``) ship in a script of their
own (``server/bundle.py``); the core script lists them in ``__BRYTHON__.chronicle_games``. Once
that script has run, the game's modules are in Brython's VFS and import like any other, so a
page pays only for its own game.
"""

from __future__ import annotations

from browser import window

from client.i18n import t

_document = window.document
_reflect = window.Reflect  # Reflect.has(object, key): no method bound to the wrong object (client/net.py)


def loaded(name: str) -> bool:
    return bool(_reflect.has(window.__BRYTHON__.VFS, f"events.games.{name}"))


def load_game(name: str, then: object, failed: object) -> None:
    """Call ``then()`` once the game's modules can be imported, or ``failed(message)``."""
    if loaded(name):
        then()
        return
    games = window.__BRYTHON__.chronicle_games
    if not games or not _reflect.has(games, name):
        failed(t("load.no_scripts", game=name))
        return
    script = _document.createElement("script")
    script.addEventListener("load", lambda event: then() if loaded(name) else failed(t("load.empty", game=name)))
    script.addEventListener("error", lambda event: failed(t("load.failed", game=name)))
    script.setAttribute("src", games[name])
    _document.head.appendChild(script)

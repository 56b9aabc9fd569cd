"""The one entry point: ``static/boot.js`` runs ``client.main.start()`` on every page.

The page kind comes from ``<body data-page="...">`` (set by ``server/pages.py``); each page's
module is imported only on its own page, so the lobby never compiles a game.
"""

from __future__ import annotations

from browser import document

from client.dom import mark


def start() -> None:
    mark("python")
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
    else:
        raise ValueError(f"unknown page kind {page!r} (expected lobby, play, watch or replay)")

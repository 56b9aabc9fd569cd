"""Take docs/screenshot-play.png: the play page of a real game, mid-game, on a real server.

    python -m tests.browser.screenshot [OUTPUT]

Scripted players make ten moves (reveals, map tokens, Corruption stacks), then the page of the
seat whose turn it is is opened in headless Chromium and captured with its highlights.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.driver import ScriptedGame
from tests.server_fixture import ROOT, ServerProcess, create_game


def _explore(options: list):
    """Prefer moves into face-down Locations nearest the Camp, so the board fills with tokens."""
    moves = [command for command in options if getattr(command, "to", None) is not None]
    return min(moves, key=lambda command: (command.to <= 6, command.to)) if moves else options[0]


def take(output: Path, moves: int = 10) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="chronicle-shot-") as tmp, \
            ServerProcess(Path(tmp) / "shot.db").start() as server, sync_playwright() as playwright:
        created = create_game(server.base_url)
        with ScriptedGame(server.ws_url, created) as script:
            script.play(moves, _explore)
            seat = script.current_seat()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1440, "height": 960})
        page.goto(f"{server.base_url}{created['seats'][seat]['link']}")
        page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
        page.hover("g.loc.dest >> nth=0")
        page.wait_for_timeout(300)
        page.screenshot(path=str(output), full_page=True)
        browser.close()


if __name__ == "__main__":
    take(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshot-play.png")

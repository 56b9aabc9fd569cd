"""What a board's heading costs in the browser: ``client.i18n.scenario_titles`` on each built-in scenario.

    python -m bench.titles [--runs 20]

Starts a real server (tests/server_fixture.py) on a scratch database, opens a seat's page of one game per
built-in scenario in headless Chromium (Debian's, ``/usr/bin/chromium``), and in that page (Brython, through
``__BRYTHON__.runPythonSource``) times ``scenario_titles`` on the game's GameStarted scenario, and
``json.loads`` of the same text for comparison, ``--runs`` calls each: ms per call, with the load average.
The page reads the titles once per game (``View.title_node``), so this is what a page's load pays for them.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from server import scenarios
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.server_fixture import ServerProcess, create_game

TIMER = """
from browser import window
import json
from client.i18n import scenario_titles


def bench_titles(text, runs):
    start = window.performance.now()
    for _ in range(runs):
        scenario_titles(text)
    middle = window.performance.now()
    for _ in range(runs):
        json.loads(text)
    end = window.performance.now()
    return [(middle - start) / runs, (end - middle) / runs]


window.bench_titles = bench_titles
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {args.runs} calls each, ms per call")
    print(f"{'scenario':28} {'chars':>7} {'scenario_titles':>16} {'json.loads':>11}")
    with tempfile.TemporaryDirectory(prefix="chronicle-titles-") as tmp, \
            ServerProcess(Path(tmp) / "titles.db").start() as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        for name in scenarios.builtin_scenarios():
            created = create_game(server.base_url, name)
            page = browser.new_page()
            page.goto(f"{server.base_url}{created['seats'][sorted(created['seats'])[0]]['link']}")
            page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
            log = page.evaluate("id => fetch('/api/games/' + id + '/log').then(r => r.text())", created["game"])
            text = json.loads(log.split("\n")[0])["data"]["scenario"]
            page.evaluate("code => __BRYTHON__.runPythonSource(code)", TIMER)
            titles, whole = page.evaluate("([text, runs]) => window.bench_titles(text, runs)", [text, args.runs])
            print(f"{name:28} {len(text):7} {titles:16.2f} {whole:11.2f}")
            page.close()
        browser.close()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

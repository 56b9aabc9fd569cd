"""The events frame read in the browser: the page's own reader (``events/wire.py`` in Brython) on one game's frames.

``python -m bench.wire_page [--commands 1300] [--passes 9]``

Plays mecha in process as ``bench.wire`` does (random legal commands, ``b-N`` ids, times spelt as
the server spells them), spells a spectator's frames with this checkout's
``server.frames.events_frame``, starts a real server (tests/server_fixture.py), opens a watch page
in headless Chromium (Debian's) so the page's modules are loaded, hands it the frames' texts, and
times in the page ``json.loads`` and ``events.wire.frame_envelopes`` of every frame, ``--passes``
times (``performance.now``; the first pass compiles, so it is not counted). It runs unchanged on a
checkout from before the events array (copy this file there, run it with that tree's
``PYTHONPATH``), so the before and the after read the frames their own server sends. Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
from pathlib import Path

from bench.wire import encoder, played
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.server_fixture import ServerProcess, create_game

READ = r"""
import json
from browser import window
import events.games
from events.wire import frame_envelopes

game = events.games.load("mecha")
frames = json.loads(window.bench_frames)  # [game id, its start, its seats, a frame's text]


def read(item):
    game_id, started, seats, text = item
    try:
        return frame_envelopes(game, game_id, json.loads(text), started, seats=seats)
    except TypeError:  # a reader from before the events array: no seats
        return frame_envelopes(game, game_id, json.loads(text), started)


times = []
count = 0
for number in range(window.bench_passes + 1):
    began = window.performance.now()
    count = 0
    for item in frames:
        count += len(read(item))
    times.append(window.performance.now() - began)
window.bench_result = json.dumps({"times": times[1:], "events": count})
"""


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.wire_page", description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=1300)
    parser.add_argument("--passes", type=int, default=9)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from events import wire

    items, count, seed = [], 0, 16
    while count < args.commands:  # games one after the other, as bench.wire plays them
        table = played("mecha", args.commands - count, False, seed)
        seed += 1
        game, first = table.game, table.envelopes[0]
        spell = encoder(game, first.at, first.event.seats)
        batches = [[game.visible(e, None) for e in batch] for batch in wire.frame_batches(table.envelopes)][1:]
        items += [[table.game_id, first.at, list(first.event.seats), spell(batch)] for batch in batches]
        count += len(batches)
    texts = [item[3] for item in items]
    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp, \
            ServerProcess(Path(tmp) / "bench.db").start() as server, sync_playwright() as playwright:
        created = create_game(server.base_url)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_context().new_page()
        page.goto(f"{server.base_url}/watch/{created['game']}")
        page.wait_for_function("window.chronicle_ready === true", timeout=120_000)
        page.evaluate("([frames, passes]) => { window.bench_frames = frames; window.bench_passes = passes; }",
                      [json.dumps(items), args.passes])
        page.evaluate("source => __BRYTHON__.runPythonSource(source)", READ)
        page.wait_for_function("window.bench_result !== undefined", timeout=600_000)
        result = json.loads(page.evaluate("window.bench_result"))
        browser.close()
    times = result["times"]
    print(f"{len(texts)} frames, {result['events']} events, {sum(len(t) for t in texts):,} bytes; ms per pass over them "
          f"(json.loads + frame_envelopes in Brython), {len(times)} passes: min {min(times):.0f}, "
          f"median {statistics.median(times):.0f}, max {max(times):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

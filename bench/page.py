"""Time to interactive of the pages, cold and warm, and events folded per second in the browser.

    python -m bench.page [--runs 3] [--events 1000] [--long 10000] [--parts pages,cpu,catchup,fold]
                         [--pages play,watch,replay,lobby]

Starts a real server (tests/server_fixture.py) on a scratch database, stores a game of
``--events`` envelopes played by random legal commands (``seeded_game``: issue 16 times the play
page "with a 1,000-event game") and one played to its end by scripted players, then loads pages
in headless Chromium (Debian's, ``/usr/bin/chromium``):

- **cold**: a new browser context (no HTTP cache, no indexedDB, so every Python module is
  compiled in the page), first load;
- **warm**: the same context, loaded again (scripts from the HTTP cache, compiled modules from
  Brython's indexedDB cache);
- **disk**: warm in a browser with a profile on disk, as a reader's is (``launch_persistent_context``;
  the first load not counted, then three): Playwright's contexts keep their cache in memory, and
  V8 keeps its code cache of the scripts only with a disk cache, so only this row shows a reader's
  reload without the scripts compiled again (issue 16);
- **reload**: the warm page reloaded in its own tab (``page.reload()``, a reader's F5), in the same
  in-memory context. Every other row opens a new tab, that is a new renderer process (V8's
  in-memory caches start empty) and, in Chromium 156's headless browser, two ``chrome://omnibox-popup``
  pages rendered in a process of their own for that tab (docs/performance.md, "third pass").

``--no-omnibox-ui`` launches Chromium with ``--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup``:
no omnibox pages per new tab, whose ~150–290 ms of CPU during a page's load compete with the page
for this machine's two cores. Off by default: the issue's figures are with Chromium as it comes.

"Interactive" is ``window.chronicle_ready``: the page has folded every envelope it was sent,
checked the newest hash and drawn the board. The marks the page records on the way
(``window.chronicle_marks``, ms since navigation) are printed too. Then:

- **catch-up**: a watch page joins a game of ``--long`` envelopes (warm: its scripts cached): the
  time from the first envelope received to the newest hash checked (marks ``first-event`` to
  ``hashed``), the figure issue 16 wants under 1 s for 10,000. Since the snapshot join the first
  thing received is the ``snapshot`` frame (``first-event`` is marked there); ``--parts whole``
  also times the same page with ``snapshot`` dropped from its hello by a WebSocket route (the
  whole log folded, as before the snapshot join);
- **folding**: in a page, that long game's log is decoded and folded in a loop to give events/s
  (GameStarted, folded once per pass, is ~1/10,000 of it), and the finished game's too.

- **cpu** (``--parts cpu``): the page's main-thread CPU time from navigation to ready, warm (the
  same context reloaded), from a DevTools trace: the thread time (``tdur``) of every top-level task
  of the page's renderer main thread that starts before ``ready``, split at the ``brython`` mark
  (before: the HTML, the first layout, brython.js and the scripts evaluated; after: Python). The
  marks are wall-clock, which the machine's load stretches (two cores shared with other test runs
  here); the thread's CPU time moves far less, so a change's before/after pair reads best there.
  It does not count work on other threads (V8 compiling a script while it streams in).

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

from tests.browser.conftest import CHROMIUM, CHROMIUM_PLAIN_ARGS, NO_OMNIBOX_UI
from tests.browser.driver import ScriptedGame
from tests.server_fixture import ServerProcess, create_game, seeded_game

MARKS = ("hello", "scripts", "python", "i18n", "imported", "welcome", "game-loaded", "first-event", "snapshot", "folded", "hashed",
         "ready")

FOLD_BENCH = r"""
import json
from browser import ajax, window
import events.games
from events.canonical import state_hash
from events.log import Envelope

now = window.performance.now


def measure(request):
    raws = [json.loads(line) for line in request.text.split("\n") if line.strip()]
    game = events.games.load(raws[0]["data"]["game"])
    out = {"events": len(raws)}
    t = now()
    rounds = 0
    while rounds < 3 or now() - t < 400:
        envelopes = [Envelope.from_dict(game, raw) for raw in raws]
        rounds += 1
    out["decode_per_s"] = round(rounds * len(raws) / ((now() - t) / 1000))
    events_ = [envelope.event for envelope in envelopes]
    t = now()
    rounds = 0
    while rounds < 3 or now() - t < 400:
        state = None
        for event in events_:
            state = game.evolve(state, event)
        rounds += 1
    out["fold_per_s"] = round(rounds * len(raws) / ((now() - t) / 1000))
    t = now()
    state = None
    for event in events_:
        state = game.evolve(state, event)
        state_hash(state)
    out["fold_and_hash_per_s"] = round(len(raws) / ((now() - t) / 1000))
    out["matches_log"] = state_hash(state) == raws[-1]["hash"]
    window.bench_fold = json.dumps(out)


ajax.get("/api/games/GAME_ID/log", mode="text", oncomplete=measure)
"""


def load(context, url: str) -> dict:
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    wall = (time.perf_counter() - started) * 1000
    marks = page.evaluate("window.chronicle_marks")
    page.wait_for_timeout(1000)  # let Brython finish storing compiled modules in indexedDB, as a reader would
    page.close()
    if errors:
        raise RuntimeError(f"{url}: {errors[0]}")
    return {"wall": wall, **marks}


def reloaded(context, url: str) -> dict:
    """The page loaded, then reloaded in the same tab: the reload's marks (see ``load``)."""
    page = context.new_page()
    errors: list = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    page.wait_for_timeout(1000)
    started = time.perf_counter()
    page.reload()
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    wall = (time.perf_counter() - started) * 1000
    marks = page.evaluate("window.chronicle_marks")
    page.wait_for_timeout(1000)
    page.close()
    if errors:
        raise RuntimeError(f"{url}: {errors[0]}")
    return {"wall": wall, **marks}


def time_pages(browser, url: str, runs: int) -> tuple[list, list, list]:
    cold, warm, again = [], [], []
    for _ in range(runs):
        context = browser.new_context()
        cold.append(load(context, url))
        warm.append(load(context, url))
        warm.append(load(context, url))
        again.append(reloaded(context, url))
        context.close()
    return cold, warm, again


def time_with_profile(playwright, url: str, runs: int, chromium_args: list) -> list:
    warm = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="chronicle-profile-") as profile:
            context = playwright.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=chromium_args, headless=True)
            load(context, url)
            warm.extend(load(context, url) for _ in range(3))
            context.close()
    return warm


def summary(label: str, samples: list) -> str:
    ready = statistics.median(sample["ready"] for sample in samples)
    parts = []
    for mark in MARKS:
        values = [sample[mark] for sample in samples if mark in sample]
        if values and mark != "ready":
            parts.append(f"{mark} {statistics.median(values):.0f}")
    spread = f"{min(s['ready'] for s in samples):.0f}–{max(s['ready'] for s in samples):.0f}"
    return f"  {label:6} ready {ready:6.0f} ms (range {spread}, n={len(samples)})   marks: {', '.join(parts)}"


def without_snapshot(socket) -> None:
    """A WebSocket route that drops ``snapshot`` from the page's hello: the whole log is sent and folded."""
    upstream = socket.connect_to_server()

    def from_page(message) -> None:
        frame = json.loads(message) if isinstance(message, str) else None
        if isinstance(frame, dict) and frame.get("type") == "hello":
            frame.pop("snapshot", None)
            message = json.dumps(frame)
        upstream.send(message)

    socket.on_message(from_page)
    upstream.on_message(socket.send)


def catch_up(browser, url: str, runs: int, whole: bool = False) -> list:
    """Milliseconds from the first envelope to the newest hash checked, once per warm load; ``whole``:
    without a snapshot (the page's hello stripped of it), as a page before issue 16's snapshot join."""
    context = browser.new_context()
    if whole:
        context.route_web_socket(re.compile(r".*/ws/.*"), without_snapshot)
    load(context, url)  # scripts into the cache
    spans = []
    for _ in range(runs):
        marks = load(context, url)
        spans.append(marks["hashed"] - marks["first-event"])
        steps = [f"{name} {marks[name] - marks['first-event']:.0f}" for name in MARKS if name in marks
                 and marks[name] >= marks["first-event"]]
        print(f"  catch-up marks, ms after first-event: {', '.join(steps)}")
    context.close()
    return spans


TRACE_CATEGORIES = "toplevel,devtools.timeline,loading,blink.user_timing"


def cpu_load(context, url: str) -> dict:
    """One load traced: main-thread CPU ms before the ``brython`` mark and from it to ``ready``, and
    the wall-clock ``ready`` (see the module's docstring, ``cpu``)."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    events: list = []
    done: list = []
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
    cdp.send("Tracing.start", {"categories": TRACE_CATEGORIES, "transferMode": "ReportEvents"})
    page.goto(url)
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    marks = page.evaluate("window.chronicle_marks")
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(20)
    page.close()
    # The page's document: its navigationStart names its URL (the renderer may hold others).
    navigation = [event for event in events if event.get("name") == "navigationStart"
                  and str(event.get("args", {}).get("data", {}).get("documentLoaderURL", "")).startswith("http")][-1]
    thread, start = (navigation["pid"], navigation["tid"]), navigation["ts"]
    python, ready = start + marks["brython"] * 1000, start + marks["ready"] * 1000
    tasks = sorted((event for event in events if (event.get("pid"), event.get("tid")) == thread
                    and event.get("ph") == "X" and event.get("name") in ("RunTask", "ThreadControllerImpl::RunTask")
                    and start <= event["ts"] < ready), key=lambda event: (event["ts"], -event.get("dur", 0)))
    before = after = 0.0
    end = 0
    for task in tasks:
        if task["ts"] < end:  # nested in the task before it
            continue
        end = task["ts"] + task.get("dur", 0)
        if end <= python:  # the task that holds the mark (body.onload: brython()) is Python's
            before += task.get("tdur", 0) / 1000
        else:
            after += task.get("tdur", 0) / 1000
    return {"before": before, "after": after, "cpu": before + after, "ready": marks["ready"]}


def time_cpu(browser, url: str, runs: int) -> list:
    samples = []
    for _ in range(runs):
        context = browser.new_context()
        load(context, url)  # the scripts into the cache
        samples.extend(cpu_load(context, url) for _ in range(2))
        context.close()
    return samples


def fold_rate(browser, server: ServerProcess, game_id: str) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base_url}/watch/{game_id}")
    page.wait_for_function("window.chronicle_ready === true", timeout=60_000)
    page.evaluate("source => __BRYTHON__.runPythonSource(source)", FOLD_BENCH.replace("GAME_ID", game_id))
    page.wait_for_function("window.bench_fold !== undefined", timeout=120_000)
    result = json.loads(page.evaluate("window.bench_fold"))
    context.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh browser contexts per page (default 3)")
    parser.add_argument("--events", type=int, default=1000, help="envelopes of the play and watch pages' game (default 1000)")
    parser.add_argument("--long", type=int, default=10_000, help="envelopes of the catch-up's game (default 10000)")
    parser.add_argument("--pages", default="play,watch,replay,lobby",
                        help="which pages the 'pages' part times, comma-separated (default: play,watch,replay,lobby)")
    parser.add_argument("--parts", default="pages,catchup,fold",
                        help="what to measure, comma-separated: pages, cpu (main-thread CPU to ready, warm), catchup, "
                        "whole (the catch-up without a snapshot), fold (default: pages,catchup,fold)")
    parser.add_argument("--no-omnibox-ui", action="store_true",
                        help=f"launch Chromium with {NO_OMNIBOX_UI} (no omnibox popup pages rendered for each new tab)")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    chromium_args = CHROMIUM_PLAIN_ARGS + ([NO_OMNIBOX_UI] if args.no_omnibox_ui else [])
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="chronicle-bench-") as tmp, \
            ServerProcess(Path(tmp) / "bench.db").start() as server, sync_playwright() as playwright:
        mid = seeded_game(server, "mecha/sample", 7, envelopes=args.events)
        seat = next(iter(mid["seats"]))
        head = args.events
        # the long game only for the parts that use it (seeding 10,000 envelopes takes a while)
        long = seeded_game(server, "mecha/sample", 11, envelopes=args.long) if parts & {"catchup", "whole", "fold"} else None
        done = create_game(server.base_url)
        with ScriptedGame(server.ws_url, done) as script:
            script.play_to_end()
            finished = script.table.seq
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=chromium_args, headless=True)
        load(browser.new_context(), f"{server.base_url}/")  # the first page of a browser pays its start-up
        print(f"Chronicle pages, {args.runs} fresh contexts each (cold = first load, warm = 2 loads in new tabs, "
              f"reload = 1 reload in its tab; disk = 3 loads in each of {args.runs} browsers with a profile on disk); "
              f"ms since navigation, medians{'; Chromium ' + NO_OMNIBOX_UI if args.no_omnibox_ui else ''}")
        pages = (
            ("play", f"play page, {seat}'s seat, ≥{head} events", f"{server.base_url}{mid['seats'][seat]['link']}"),
            ("watch", f"watch page, ≥{head} events", f"{server.base_url}/watch/{mid['game']}"),
            ("replay", f"replay page, {finished} events", f"{server.base_url}/replay/{done['game']}"),
            ("lobby", "lobby", f"{server.base_url}/"),
        )
        wanted = set(args.pages.split(","))
        for kind, label, url in pages if "pages" in parts else ():
            if kind not in wanted:
                continue
            cold, warm, again = time_pages(browser, url, args.runs)
            print(label)
            print(summary("cold", cold))
            print(summary("warm", warm))
            print(summary("disk", time_with_profile(playwright, url, args.runs, chromium_args)))
            print(summary("reload", again))
        for kind, label, url in pages if "cpu" in parts else ():
            if kind not in wanted:
                continue
            samples = time_cpu(browser, url, args.runs)
            median = {key: statistics.median(sample[key] for sample in samples) for key in ("before", "after", "cpu", "ready")}
            print(f"{label}, warm, main-thread CPU to ready (n={len(samples)}, medians): {median['cpu']:.0f} ms "
                  f"(before Python {median['before']:.0f}, Python {median['after']:.0f}; "
                  f"range {min(s['cpu'] for s in samples):.0f}–{max(s['cpu'] for s in samples):.0f}); "
                  f"ready {median['ready']:.0f} ms wall")
        if "catchup" in parts:
            spans = catch_up(browser, f"{server.base_url}/watch/{long['game']}", args.runs)
            print(f"catch-up of a {args.long}-event game (watch page, warm), first envelope to newest hash checked: "
                  f"{statistics.median(spans):.0f} ms (range {min(spans):.0f}–{max(spans):.0f}, n={len(spans)})")
        if "whole" in parts:
            spans = catch_up(browser, f"{server.base_url}/watch/{long['game']}", args.runs, whole=True)
            print(f"the same, the whole log (no snapshot asked): "
                  f"{statistics.median(spans):.0f} ms (range {min(spans):.0f}–{max(spans):.0f}, n={len(spans)})")
        for game_id in (long["game"], done["game"]) if "fold" in parts else ():
            rates = fold_rate(browser, server, game_id)
            print(f"folding in the browser, a game of {rates['events']} events:")
            print(f"  decode (Envelope.from_dict)      {rates['decode_per_s']:>8} events/s")
            print(f"  fold (evolve)                    {rates['fold_per_s']:>8} events/s")
            print(f"  fold + state_hash every event    {rates['fold_and_hash_per_s']:>8} events/s"
                  f"   (final hash matches the log: {rates['matches_log']})")
        browser.close()


if __name__ == "__main__":
    main()

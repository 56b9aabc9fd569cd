"""Undo on the pass-and-play page (issue 18; CORE-4 to CORE-7, client/pages/offline.py): with the
server stopped, an undo across a die draw asks the other seat, named, on the same device; the same
move made again draws the same; a seat takes back its own pass freely; the export imports and
audits on the server, and a spectator replays it with the undone rows struck through, hashes matching."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

import events.games
from events.log import Envelope, audit_log
from tests.browser.conftest import READY_TIMEOUT_MS, open_page, wait_ready
from tests.browser.test_offline import MAX_CLICKS, import_log, seq_of
from tests.server_fixture import chronicle_server_factory  # noqa: F401 - the fixture, used below

pytestmark = [pytest.mark.browser, pytest.mark.server]

UNDO_TYPES = ("UndoAsked", "UndoAnswered", "UndoApplied")


def after(page, seq: int) -> None:
    page.wait_for_function("s => Number(document.getElementById('hash').dataset.seq) > s", arg=seq,
                           timeout=READY_TIMEOUT_MS)


def saved_lines(page) -> list:
    return [json.loads(line) for line in
            json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))["lines"].splitlines()]


def drawn(lines: list, first: int) -> list:
    """The events (type and data) of the command whose first event is seq ``first``."""
    command_id = lines[first - 1]["command_id"]
    return [(e["type"], e["data"]) for e in lines[first - 1:] if e["command_id"] == command_id]


def test_core_5_core_7_offline_undo_across_a_draw_asks_the_other_seat_then_imports_and_replays(
        chronicle_server_factory, new_context):  # noqa: F811 - the fixture imported above
    server = chronicle_server_factory()
    with urllib.request.urlopen(f"{server.base_url}/offline", timeout=600) as response:  # builds the bundle
        response.read()
    page = open_page(new_context(), f"{server.base_url}/offline")
    server.stop()
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    assert page.locator("button.undo-ask").count() == 0  # nobody has a command to take back yet

    # Red moves to the farthest highlighted Location: face down, its reveal draws from the bag.
    destinations = page.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")
    page.click(f"g.loc[data-number='{destinations[-1]}']")
    after(page, 1)
    moved_hash_seq = seq_of(page)
    first_try = drawn(saved_lines(page), 2)
    assert first_try[0][0] == "MechMoved" and any(kind == "CorruptionDrawn" for kind, _ in first_try), first_try
    assert page.get_attribute("#who", "data-seat") == "blue"

    # Check: red's undo crosses a draw, so it waits for blue's yes (CORE-5), and the page names blue.
    assert page.get_attribute("button.undo-ask[data-seat='red']", "data-back-to") == "2"
    page.click("button.undo-ask[data-seat='red']")
    after(page, moved_hash_seq)
    assert "blue" in page.text_content("#undo .undo-pending")
    assert page.get_attribute("#undo .undo-pass", "data-seat") == "blue"
    assert page.locator("button.undo-answer[data-seat='blue']").count() == 2
    asked = seq_of(page)
    page.click("button.undo-answer[data-seat='blue'][data-answer='yes']")
    after(page, asked)
    lines = saved_lines(page)
    assert [line["type"] for line in lines[asked:]] == ["UndoAnswered", "UndoApplied"]
    assert page.get_attribute("#who", "data-seat") == "red"  # back before red's move
    assert page.get_attribute("#hash", "data-hash") == lines[0]["hash"]  # the state before seq 2
    struck = page.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => Number(r.dataset.seq))")
    assert struck == list(range(2, moved_hash_seq + 1))
    assert "blue" in page.text_content("#log li.event.undone .undone-by")

    # Check: the same move made again draws anew (CORE-12: keyed by its own seq, never the one shown).
    again = seq_of(page)
    page.click(f"g.loc[data-number='{destinations[-1]}']")
    after(page, again)
    assert any(kind == "CorruptionDrawn" for kind, _data in drawn(saved_lines(page), again + 1))
    assert saved_lines(page)[0]["data"]["dice_key"] == "CORE-12"

    # Check: blue takes back its own pass freely (CORE-5: only its own command), no one asked.
    passed = seq_of(page)
    page.click("button[data-command='Pass']")
    after(page, passed)
    assert page.get_attribute("#who", "data-seat") == "red"
    back_to = page.get_attribute("button.undo-ask[data-seat='blue']", "data-back-to")
    assert back_to == str(passed + 1)
    undone_at = seq_of(page)
    page.click("button.undo-ask[data-seat='blue']")
    after(page, undone_at)
    assert [line["type"] for line in saved_lines(page)[undone_at:]] == ["UndoAsked", "UndoApplied"]
    assert page.locator("#undo .undo-pending").count() == 0
    assert page.get_attribute("#who", "data-seat") == "blue"
    undone = page.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => Number(r.dataset.seq))")
    assert undone[:len(struck)] == struck and undone[len(struck)] == passed + 1

    # Check: a reload resumes the game with its undos (every hash checked), struck rows and all.
    server.start()
    page.reload()
    wait_ready(page)
    assert page.get_attribute("#notice", "class") == "notice ok"
    assert page.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => Number(r.dataset.seq))") == undone
    # Then every seat passes, each in its turn, until the game is over: nothing to undo then.
    for _click in range(MAX_CLICKS):
        if page.get_attribute("body", "data-over") == "1":
            break
        seq = seq_of(page)
        page.click("button[data-command='Pass']")
        after(page, seq)
    assert page.get_attribute("body", "data-over") == "1", "the game did not end"
    assert page.locator("button.undo-ask").count() == 0
    final_seq, final_hash = seq_of(page), page.get_attribute("#hash", "data-hash")

    # Check the export holds the undos and audits here, in CPython, to the same hash.
    with page.expect_download() as download:
        page.click("#offline-export")
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    lines = [json.loads(line) for line in exported.splitlines()]
    assert sum(line["type"] == "UndoApplied" for line in lines) == 2
    assert all(lines[seq - 1]["type"] not in UNDO_TYPES for seq in undone)
    game = events.games.load("mecha")
    report = audit_log(game, [Envelope.from_dict(game, line) for line in lines])
    assert report.divergence is None and report.over and report.revealed
    assert lines[-1]["hash"] == final_hash

    # Check the server imports it (its audit passes) and a spectator replays it, undone rows struck through.
    status, answer = import_log(server.base_url, exported.encode())
    assert status == 201, answer
    game_id = lines[0]["game"]
    watcher = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={final_seq}")
    assert watcher.get_attribute("#hash", "class") == "hash ok"
    assert (seq_of(watcher), watcher.get_attribute("#hash", "data-hash")) == (final_seq, final_hash)
    replayed = watcher.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => Number(r.dataset.seq))")
    assert replayed == [seq for seq in undone if seq > final_seq - 60]  # the replay's log shows the last 60 rows
    middle = next(line for line in lines if line["type"] == "UndoApplied")  # right after the first undo
    watcher.goto(f"{server.base_url}/replay/{game_id}?seq={middle['seq']}")
    wait_ready(watcher)
    assert (watcher.get_attribute("#hash", "data-hash"), watcher.get_attribute("#hash", "class")) == (
        middle["hash"], "hash ok")
    assert watcher.eval_on_selector_all("#log li.event.undone", "rows => rows.map(r => Number(r.dataset.seq))") == struck
    assert "blue" in watcher.text_content("#log li.event.undone .undone-by")  # who agreed
    assert page.problems == [] and watcher.problems == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_offline_undo_panel_fits_a_phone_passes_axe_and_speaks_the_readers_language(server, new_context, lang):
    """The panel with a request open (the pass-the-device line, yes and no as blue), at 1440 and 390 px:
    no sideways scroll, touch targets of 40 px, no serious axe finding, and in Russian no text that
    bypassed the catalogue."""
    from tests.browser.test_i18n import CHECK
    from tests.browser.test_pages import check_sizes

    context = new_context(locale="ru-RU") if lang == "ru" else new_context()
    context.add_init_script(CHECK)
    page = open_page(context, f"{server.base_url}/offline")
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    destinations = page.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")
    page.click(f"g.loc[data-number='{destinations[-1]}']")
    page.wait_for_selector("button.undo-ask[data-seat='red']")
    assert check_sizes(page, "offline-undo" if lang == "en" else f"{lang}/offline-undo",
                       None if lang == "en" else lang) == []
    page.click("button.undo-ask[data-seat='red']")
    page.wait_for_selector("button.undo-answer[data-seat='blue']")
    found = check_sizes(page, "offline-undo-asked" if lang == "en" else f"{lang}/offline-undo-asked",
                        None if lang == "en" else lang)
    assert found == []
    assert page.problems == []

"""Pass-and-play offline (issue 18, client/pages/offline.py): a game played with the server stopped,
exported, imported (POST /api/games/import) and replayed by a spectator, hashes matching."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import events.games
from events.dice import commitment
from events.log import Envelope, audit_log
from tests.browser.conftest import READY_TIMEOUT_MS, open_page, wait_ready
from tests.server_fixture import chronicle_server_factory, get_json  # noqa: F401 - the fixture, used below

pytestmark = [pytest.mark.browser, pytest.mark.server]

MAX_CLICKS = 80  # mecha/sample: 12 rounds of two seats, one Move then Passes


def import_log(base_url: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(f"{base_url}/api/games/import", data=body, method="POST",
                                     headers={"content-type": "application/x-ndjson"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def seq_of(page) -> int:
    return int(page.get_attribute("#hash", "data-seq") or 0)


def test_core_2_a_game_played_offline_is_exported_imported_and_replayed_with_matching_hashes(
        chronicle_server_factory, new_context):  # noqa: F811 - the fixture imported above
    """CORE-1, CORE-2: the page draws the secret, commits to it, rolls from it and reveals it; the
    server audits the export and a spectator replays it; a tampered export is refused with its seq."""
    server = chronicle_server_factory()
    with urllib.request.urlopen(f"{server.base_url}/", timeout=600) as response:  # builds the bundle
        assert b'href="/offline"' in response.read()  # the lobby links to the page
    context = new_context()
    page = open_page(context, f"{server.base_url}/offline")
    assert page.locator("#offline-scenario option[value='mecha/sample']").count() == 1

    # Check the page plays on with the server stopped: no request is made from here on.
    server.stop()
    requests: list = []
    page.on("request", lambda request: requests.append(request.url) if not request.url.startswith("blob:") else None)
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    assert seq_of(page) == 1 and page.get_attribute("#who", "data-seat") == "red"
    # Red moves to the farthest highlighted Location (a face-down one: its reveal draws from the bag).
    destinations = page.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")
    page.click(f"g.loc[data-number='{destinations[-1]}']")
    page.wait_for_function("() => Number(document.getElementById('hash').dataset.seq) > 1", timeout=READY_TIMEOUT_MS)
    assert page.get_attribute("#who", "data-seat") == "blue"
    # Then every seat passes, each in its turn, until the game is over.
    for _click in range(MAX_CLICKS):
        if page.get_attribute("body", "data-over") == "1":
            break
        seq = seq_of(page)
        page.click("button[data-command='Pass']")
        page.wait_for_function("s => Number(document.getElementById('hash').dataset.seq) > s", arg=seq,
                               timeout=READY_TIMEOUT_MS)
    assert page.get_attribute("body", "data-over") == "1", "the game did not end"
    assert page.locator("#log li[data-type='SecretRevealed']").count() == 1
    assert requests == []
    final_seq, final_hash = seq_of(page), page.get_attribute("#hash", "data-hash")

    # Check the export: the log as JSON Lines, from a Blob.
    with page.expect_download() as download:
        page.click("#offline-export")
    assert download.value.suggested_filename.endswith(".jsonl")
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    lines = [json.loads(line) for line in exported.splitlines()]
    assert len(lines) == final_seq and lines[-1]["hash"] == final_hash
    game_id = lines[0]["game"]
    started, revealed = lines[0]["data"], lines[-1]
    # Check the page committed to the secret it revealed, as the server would (CORE-1, CORE-2), and
    # that the dice of at least one command came from it (re-derived here, in CPython).
    assert revealed["type"] == "SecretRevealed" and len(revealed["data"]["secret"]) == 64
    assert started["commitment"] == commitment(revealed["data"]["secret"], game_id)
    game = events.games.load("mecha")
    report = audit_log(game, [Envelope.from_dict(game, line) for line in lines])
    assert report.divergence is None and report.over and report.revealed and report.with_dice >= 1

    # Check a reload (the server running again) resumes the saved game, every hash checked.
    server.start()
    page.reload()
    wait_ready(page)
    assert (seq_of(page), page.get_attribute("#hash", "data-hash")) == (final_seq, final_hash)
    assert page.get_attribute("#notice", "class") == "notice ok"

    # Check a tampered export is refused with the seq it diverges at, and stores nothing.
    moved = next(index for index, line in enumerate(lines) if line["type"] == "MechMoved")
    tampered = [dict(line) for line in lines]
    tampered[moved] = dict(tampered[moved], data=dict(tampered[moved]["data"], to=tampered[moved]["data"]["to"] + 1))
    lobby = open_page(new_context(), f"{server.base_url}/")  # through the lobby's upload
    lobby.set_input_files("#scenario-file", files=[{
        "name": "tampered.jsonl", "mimeType": "application/x-ndjson",
        "buffer": "".join(json.dumps(line) + "\n" for line in tampered).encode()}])
    lobby.click("#upload-button")
    lobby.wait_for_selector("#notice[data-code='log-diverges']")
    assert f"seq {lines[moved]['seq']} (MV-1)" in lobby.text_content("#notice")
    # The refusal is the only thing the lobby complained of (Chromium logs a 4xx answer as a console error).
    assert f"HTTP 422 {server.base_url}/api/games/import" in lobby.problems
    assert all("422" in problem for problem in lobby.problems), lobby.problems
    assert get_json(f"{server.base_url}/api/games/{game_id}/log")[0] == 404

    # Check the page's own button imports the game under its own id, the exported bytes stored as they are.
    page.click("#offline-publish")
    page.wait_for_selector("#offline-replay")
    assert page.get_attribute("#offline-replay", "href") == f"/replay/{game_id}"
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        assert response.read().decode() == exported
    status, answer = import_log(server.base_url, exported.encode())
    assert (status, answer["code"]) == (409, "game-exists"), answer
    # Check a spectator replays it to the same hashes, at the end and on the way.
    watcher = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={final_seq}")
    assert watcher.get_attribute("#hash", "class") == "hash ok"
    assert (seq_of(watcher), watcher.get_attribute("#hash", "data-hash")) == (final_seq, final_hash)
    middle = lines[len(lines) // 2]
    watcher.goto(f"{server.base_url}/replay/{game_id}?seq={middle['seq']}")
    wait_ready(watcher)
    assert (watcher.get_attribute("#hash", "data-hash"), watcher.get_attribute("#hash", "class")) == (
        middle["hash"], "hash ok")
    assert page.problems == [] and watcher.problems == []


def test_every_rule_system_starts_on_the_page_with_the_server_stopped(chronicle_server_factory, new_context):  # noqa: F811
    """The page loads every game's script and every scenario up front: each rule system starts, draws
    its board, checks its first hash and takes a first command with no server to ask."""
    from tests.browser.test_i18n import GAMES, one_move

    server = chronicle_server_factory()
    with urllib.request.urlopen(f"{server.base_url}/offline", timeout=600) as response:  # builds the bundle
        response.read()
    first = {game: scenario for game, (scenario, _seat, _target) in GAMES.items()}
    page = open_page(new_context(), f"{server.base_url}/offline")
    server.stop()
    requests: list = []
    page.on("request", lambda request: requests.append(request.url) if not request.url.startswith("blob:") else None)
    for game, scenario in sorted(first.items()):
        if page.locator("#offline-abandon").count():
            page.click("#offline-abandon")
        page.select_option("#offline-scenario", scenario)
        page.click("#offline-start")
        page.wait_for_function("g => document.body.dataset.game === g && document.getElementById('hash').dataset.seq",
                               arg=game, timeout=READY_TIMEOUT_MS)
        assert page.get_attribute("#hash", "class") == "hash ok", scenario
        assert page.locator("#board svg").count() >= 1, scenario
        assert page.get_attribute("#who", "data-seat") == GAMES[game][1], scenario
        one_move(page, game, GAMES[game][2])
        assert page.get_attribute("#hash", "class") == "hash ok" and seq_of(page) > 1, scenario
    assert sorted(first) == sorted(events.games.NAMES)
    assert page.problems == [] and requests == []  # no module, scenario or script was fetched

    # Check a save that does not restore is reported, not played and not a crash.
    server.start()
    saved = json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))
    lines = saved["lines"].splitlines()
    lines[0] = lines[0].replace('"hash":"', '"hash":"0')
    page.evaluate("s => localStorage.setItem('chronicle-offline', s)", json.dumps(dict(saved, lines="\n".join(lines))))
    page.reload()
    wait_ready(page)
    assert page.get_attribute("#notice", "class") == "notice error"
    assert "seq 1" in page.text_content("#notice")
    # the reader's words (issue 17): where and what kind of fault; the LogError's English only as a tooltip
    assert "at seq 1: the state hash does not match the replayed state" in page.text_content("#notice")
    assert page.get_attribute("#notice .fault-detail", "lang") == "en"
    assert "logged hash" in page.get_attribute("#notice .fault-detail", "title")
    assert page.locator("#offline-export").count() == 0 and page.locator("#offline-start[disabled]").count() == 0


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_offline_page_fits_a_phone_passes_axe_and_speaks_the_readers_language(server, new_context, lang):
    """The page with a game started, at 1440 and 390 px: no sideways scroll, touch targets of 40 px,
    no serious axe finding, and no text that bypassed the catalogue (en, fr, ru)."""
    from tests.browser.test_i18n import CHECK, LOCALES
    from tests.browser.test_pages import check_sizes

    context = new_context(locale=LOCALES[lang])
    context.add_init_script(CHECK)  # marks every text the catalogue gave, so the scan sees the rest
    page = open_page(context, f"{server.base_url}/offline")
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-abandon")
    assert check_sizes(page, "offline-mecha" if lang == "en" else f"{lang}/offline-mecha", lang) == []
    assert page.problems == []


def test_a_browser_that_keeps_nothing_plays_on_and_says_so(server, new_context):
    """localStorage refusing to store (a full quota, storage switched off): the game goes on, warned."""
    context = new_context()
    context.add_init_script("Storage.prototype.setItem = function () {"
                            " throw new DOMException('the quota is full', 'QuotaExceededError'); };")
    page = open_page(context, f"{server.base_url}/offline")
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    assert page.get_attribute("#notice", "class") == "notice warning"
    assert "the quota is full" in page.text_content("#notice")
    page.click("button[data-command='Pass']")
    page.wait_for_function("() => Number(document.getElementById('hash').dataset.seq) > 1", timeout=READY_TIMEOUT_MS)
    assert page.get_attribute("#who", "data-seat") == "blue"
    assert page.problems == []


def test_core_1_a_reload_mid_game_resumes_with_the_same_secret_and_the_export_hides_it(server, new_context):
    """CORE-1: the saved game resumes at its seq and hash, the next command's dice come from the same
    secret, and until the game ends neither the export nor the page shows that secret."""
    page = open_page(new_context(), f"{server.base_url}/offline")
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    # A Location out of reach is refused on the page with its clause (MV-3), and logs nothing.
    page.click("g.loc[data-number='16']")
    page.wait_for_selector("#log li.rejected[data-rule='MV-3']")
    assert seq_of(page) == 1
    # Its reason is the refusal's message in the page's language, not an English fact marked lang="en".
    assert page.get_attribute("#log li.rejected .reason", "lang") is None
    assert page.get_attribute("#notice .reason", "lang") is None
    destinations = page.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")
    page.click(f"g.loc[data-number='{destinations[-1]}']")
    page.wait_for_function("() => Number(document.getElementById('hash').dataset.seq) > 1", timeout=READY_TIMEOUT_MS)
    seq, hash_ = seq_of(page), page.get_attribute("#hash", "data-hash")
    secret = json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))["secret"]
    assert len(secret) == 64
    with page.expect_download() as download:
        page.click("#offline-export")
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert secret not in exported and secret not in page.content()
    # Check the reload resumes exactly there, and play goes on from it.
    page.reload()
    wait_ready(page)
    assert (seq_of(page), page.get_attribute("#hash", "data-hash")) == (seq, hash_)
    assert page.get_attribute("#who", "data-seat") == "blue"
    destinations = page.eval_on_selector_all("g.loc[data-dest='1']", "gs => gs.map(g => g.dataset.number)")
    page.click(f"g.loc[data-number='{destinations[0]}']")
    page.wait_for_function("s => Number(document.getElementById('hash').dataset.seq) > s", arg=seq,
                           timeout=READY_TIMEOUT_MS)
    # Check every command so far re-decides with this secret's dice, here in CPython.
    lines = [json.loads(line) for line in
             json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))["lines"].splitlines()]
    game = events.games.load("mecha")
    report = audit_log(game, [Envelope.from_dict(game, line) for line in lines], secret)
    assert report.divergence is None and report.redecided == 2 and report.with_dice >= 1
    # Check each command's id names the seq of its first event: unique, refusals and reloads or not.
    heads = [line for line in lines if line["command_id"] is not None]
    assert {line["command_id"] for line in heads} == {"offline-2", f"offline-{seq + 1}"}
    assert page.problems == []


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_ah_c10_pass_and_play_offers_the_waiting_investigator_s_trade_and_the_mover_answers(server, new_context, lang):
    """AH-C10 (arkham-5) on one device: 'investigators in the same area may trade items before, during or after
    movement'. The pass-and-play page showed only the mover's buttons. Red walks into Rivertown, where blue
    stands: blue's offers appear (``data-off-turn``, named for blue, as the play page's ``off_turn_actions``),
    blue's "give the Old Journal" is logged as blue's, red answers with its own button, and the item changes
    hands; no text bypassed the catalogue."""
    from tests.browser.test_i18n import CHECK, LOCALES, untranslated

    context = new_context(locale=LOCALES[lang])
    context.add_init_script(CHECK)
    page = open_page(context, f"{server.base_url}/offline")
    page.select_option("#offline-scenario", "arkham/crossing")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    assert page.locator("#actions button[data-off-turn='1']").count() == 0  # red in the Graveyard, blue elsewhere
    page.click("g.area[data-area='rivertown']")
    page.wait_for_selector("g.investigator[data-seat='red'][data-at='rivertown']")
    assert page.get_attribute("#who", "data-seat") == "red"  # still red's movement
    offers = page.locator("#actions button[data-command='OfferTrade'][data-off-turn='1']")
    assert offers.count() == 3, offers.all_text_contents()  # blue gives its Old Journal, or asks for either item
    assert {offers.nth(i).get_attribute("data-seat") for i in range(3)} == {"blue"}
    blue = "синий" if lang == "ru" else "blue"
    assert all(text.replace("\u2063", "").startswith(blue) for text in offers.all_text_contents())
    assert untranslated(page, lang) == {"lang": lang, "bad": []}
    journal = "Старый дневник" if lang == "ru" else "Old Journal"
    before = seq_of(page)
    offers.filter(has_text=journal).first.click()
    page.wait_for_function("s => Number(document.getElementById('hash').dataset.seq) > s", arg=before)
    lines = [json.loads(line) for line in
             json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))["lines"].splitlines()]
    offered = [line for line in lines if line["type"] == "TradeOffered"]
    assert len(offered) == 1 and offered[0]["data"]["seat"] == "blue", offered
    answer = page.locator("#actions button[data-command='AnswerTrade']")
    assert answer.count() == 2 and page.locator("#actions button[data-off-turn='1']").count() == 0
    before = seq_of(page)
    answer.first.click()  # accept
    page.wait_for_function("s => Number(document.getElementById('hash').dataset.seq) > s", arg=before)
    lines = [json.loads(line) for line in
             json.loads(page.evaluate("localStorage.getItem('chronicle-offline')"))["lines"].splitlines()]
    answered = [line for line in lines if line["type"] == "TradeAnswered"]
    assert len(answered) == 1 and answered[0]["data"]["accepted"] is True, answered
    assert answered[0]["data"]["give"] == ["Old Journal"] and answered[0]["data"]["partner"] == "red", answered
    assert page.problems == []


@pytest.mark.parametrize("kept", ["not json{", "[" * 100_000 + "]" * 100_000,
                                  json.dumps({"format": 1, "secret": 5, "lines": 7})])
def test_a_save_that_does_not_restore_is_reported_and_the_page_still_starts_games(server, new_context, kept):
    """docs/offline.md: "a save that does not restore is reported, and left alone". A table probe found a save
    that is not JSON, or 100,000 levels deep, raised out of the page's start: never ready, Start disabled for
    good (the save is left alone, so until the player cleared the site's data). Now it is said, in the
    reader's language, and a new game starts."""
    page = open_page(new_context(locale="ru-RU"), f"{server.base_url}/offline")
    page.evaluate("v => localStorage.setItem('chronicle-offline', v)", kept)
    page.problems.clear()
    page.reload()
    wait_ready(page)
    words = json.loads((Path(__file__).resolve().parents[2] / "client" / "i18n" / "ru.json").read_text("utf-8"))
    assert words["offline.bad_save"].split("{")[0].strip() in page.inner_text("#notice")
    page.wait_for_function("() => !document.getElementById('offline-start').disabled", timeout=READY_TIMEOUT_MS)
    page.select_option("#offline-scenario", "mecha/sample")
    page.click("#offline-start")
    page.wait_for_selector("#offline-export")
    assert page.evaluate("localStorage.getItem('chronicle-offline')") != kept  # the new game is kept now
    assert [problem for problem in page.problems if "uncaught" in problem] == []

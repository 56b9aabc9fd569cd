"""Disputes in the browser (issue 18, client/dispute.py): a shared ``?seq=N`` link opens the panel
with the command, its events' clause texts and trace, and the state before and after; the audit
runs on the server; a what-if branch with other dice, then another command, plays on the board."""

from __future__ import annotations

import json
import urllib.request

import pytest

import events.games
from events.canonical import state_hash
from events.log import Envelope, Table
from events.rng import LoadedRng, Rng
from events.whatif import step
from tests.browser.conftest import open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]

SEED = 7


def public_log(server, game_id: str) -> list:
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        return [json.loads(line) for line in response.read().decode().splitlines()]


def test_mv_6c_a_dispute_link_shows_clause_and_trace_audits_and_plays_what_if_branches(server, new_context):
    """MV-6c: red's first Move into a face-down Location drew Corruption. Its ``?seq=N`` link, from
    the watch page's log line, opens the panel: the command and seat, MV-6c's text, the trace of the
    draw and the changed stack; the audit of the finished game is complete; the same Move with
    another value drawn is a branch the board draws (its state hash is CPython's), more moves
    follow on the board, and another legal command branches too."""
    created = seeded_game(server, "mecha/sample", SEED)
    game_id = created["game"]
    with ScriptedGame(server.ws_url, created) as script:
        script.play_to_end()
    game = events.games.load("mecha")
    raw = public_log(server, game_id)
    envelopes = [Envelope.from_dict(game, item) for item in raw]
    drawn_at = next(e for e in envelopes if e.type == "CorruptionDrawn")
    head = next(e for e in envelopes if e.command_id == drawn_at.command_id)
    table = Table(game, game_id)
    for envelope in envelopes[: head.seq - 1]:
        table.absorb(envelope)
    before = table.state

    # Check: the watch page's log line links to the dispute panel of its seq.
    watcher = open_page(new_context(), f"{server.base_url}/watch/{game_id}")
    link = watcher.locator(f"#log li.event[data-seq='{drawn_at.seq}'] a.dispute-link")
    assert link.get_attribute("href") == f"/replay/{game_id}?seq={drawn_at.seq}"
    page = open_page(new_context(), f"{server.base_url}{link.get_attribute('href')}")
    panel = page.locator("#dispute")
    assert panel.get_attribute("data-seq") == str(drawn_at.seq)

    # Check: the command and its seat, each event with its clause, MV-6c's text and the draw's trace.
    # The command in words, as the play page's click says it; the log's data stays in the tooltip (issue 18).
    assert page.text_content("#dispute-command .command") == f"Move to Location {head.event.to}"
    assert page.get_attribute("#dispute-command .command", "data-command") == f"Move to={head.event.to}"
    assert "red" in page.text_content("#dispute-command .label")
    rows = page.locator("#dispute-events li.event")
    assert rows.count() == len([e for e in envelopes if e.command_id == head.command_id])
    focus = page.locator("#dispute-events li.event.focus")
    assert focus.get_attribute("data-seq") == str(drawn_at.seq)
    assert focus.locator(".clause-text").text_content() == game.catalogue.get("MV-6c").text
    assert f"drew {drawn_at.event.value}" in focus.locator(".trace").first.text_content()
    stack_rows = page.locator("#dispute-diff tr[data-path^='stacks[']")
    assert stack_rows.count() >= 1 and stack_rows.first.locator("td.after").text_content().startswith(
        f"[{head.event.to},")

    # Check: the audit of the finished game, in words.
    page.click("#audit-button")
    page.wait_for_selector("#audit-result[data-verdict='complete']")
    assert page.text_content("#audit-result").startswith(f"Verified: all {len(envelopes)} events replay exactly")

    # Check: the dice field holds the values the Move drew (from the revealed secret, in Brython).
    logged = [e.event.value for e in envelopes if e.command_id == head.command_id and e.type == "CorruptionDrawn"]
    assert page.input_value("#whatif-dice").split() == [str(value) for value in logged]
    other = next(value for value, _colour, _count in before.bag if value != logged[0])
    expected = step(game, before, "red", head.command, LoadedRng((other,) * 8))
    page.fill("#whatif-dice", " ".join([str(other)] * 8))
    page.click("#whatif-dice-play")
    page.wait_for_selector("body[data-branch='1']")
    assert page.get_attribute("#hash", "data-hash") == state_hash(expected.state)
    assert page.get_attribute("#hash", "data-branch") == "1"
    tokens = page.locator(f"g.stack[data-location='{head.event.to}'] g.token")
    assert tokens.first.get_attribute("data-value") == str(other)
    assert page.locator("#whatif-log li.event[data-type='CorruptionDrawn']").first.locator(".trace").text_content() \
        .startswith(f"Location {head.event.to}: drew {other}")

    # Check: the branch goes on from the board: blue's turn, a highlighted destination clicked.
    page.locator("g.loc.dest").first.click()
    page.wait_for_selector("#hash[data-branch='2']")
    assert page.locator("#whatif-log li.event[data-type='MechMoved']").count() == 2

    # Check: back to the real game: the logged hash at that seq again, no branch.
    page.click("#whatif-back")
    page.wait_for_selector("body:not([data-branch])")
    assert page.get_attribute("#hash", "class") == "hash ok"
    assert page.get_attribute("#hash", "data-hash") == raw[page_seq(page) - 1]["hash"]

    # Check: the rule question on the position: where could red go before its Move? The board
    # highlights exactly the destinations Game.legal gives (MV-1, MV-3), and a click plays one.
    destinations = sorted({c.to for c in game.legal(before, "red") if getattr(c, "to", None) is not None})
    page.click("#whatif-ask")
    page.wait_for_selector("#hash[data-branch='0']")
    assert page.get_attribute("#hash", "data-hash") == state_hash(before)
    shown = page.locator("g.loc.dest").evaluate_all("nodes => nodes.map(n => Number(n.dataset.number))")
    assert sorted(shown) == destinations
    page.locator(f"g.loc.dest[data-number='{destinations[0]}']").click()
    page.wait_for_selector("#hash[data-branch='1']")
    assert page.locator("#whatif-log li.event").first.get_attribute("data-type") == "MechMoved"
    page.click("#whatif-back")
    page.wait_for_selector("body:not([data-branch])")

    # Check: another legal command instead (the first offered), decided by the same rules.
    option = page.locator("#whatif-command option").first
    page.select_option("#whatif-command", option.get_attribute("value"))
    chosen, data = option.text_content(), option.get_attribute("data-command")
    page.click("#whatif-command-play")
    page.wait_for_selector("#hash[data-branch='1']")
    assert page.locator("#whatif-log li.event").first.get_attribute("data-type") in ("MechMoved", "MechStayed")
    assert data.startswith("Move to=") and data != f"Move to={head.event.to}"  # the log's data, in data-command
    assert chosen.startswith("Move") and "=" not in chosen  # in words: "Move to Location 4", "Move (no destination: stay)"

    # Check: a line of the replay's own log opens the panel in place, at its seq.
    page.click("#whatif-back")
    page.locator("#log li.event[data-seq='2'] a.dispute-link").click()
    page.wait_for_selector("#dispute[data-seq='2']")
    assert page.url.endswith(f"/replay/{game_id}?seq=2")
    assert page.problems == [] and watcher.problems == []


def page_seq(page) -> int:
    return int(page.get_attribute("#hash", "data-seq"))


def test_core_1_a_running_games_dispute_offers_stand_in_dice_and_its_audit_waits_for_the_secret(server, new_context):
    """CORE-1: while the game runs the page cannot know the dice; it says so, and the audit says
    how many commands wait for the reveal."""
    created = seeded_game(server, "mecha/sample", SEED)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
    page = open_page(new_context(), f"{server.base_url}/replay/{created['game']}?seq=3")
    assert page.text_content("#whatif-dice-source").startswith("The real dice stay sealed until the game ends")
    page.click("#audit-button")
    page.wait_for_selector("#audit-result[data-verdict='partial']")
    assert "2 commands drew random outcomes that wait for the game's secret" in page.text_content("#audit-result")
    assert page.problems == []


@pytest.mark.parametrize("lang", ["en", "fr", "ru"])
def test_the_dispute_panel_and_a_branch_fit_a_phone_pass_axe_and_are_translated(server, new_context, lang):
    """Issue 17's checks on the panel, opened and branched: no sideways scroll, 40 px targets on a
    phone, no serious axe finding, every word from the reader's catalogue."""
    from tests.browser.test_i18n import CHECK, LOCALES
    from tests.browser.test_pages import check_sizes

    created = seeded_game(server, "mecha/sample", SEED)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
    context = new_context(locale=LOCALES[lang])
    context.add_init_script(CHECK)
    page = open_page(context, f"{server.base_url}/replay/{created['game']}?seq=3")
    page.click("#audit-button")
    page.wait_for_selector("#audit-result[data-verdict='partial']")
    page.click("#whatif-dice-play")
    page.wait_for_selector("body[data-branch='1']")
    wrong = check_sizes(page, "mecha-dispute" if lang == "en" else f"{lang}/mecha-dispute", lang)
    assert wrong == [], "\n".join(wrong)
    # Check: the command is in words, in the reader's language, not the log's data ("Move to=8").
    moved = page.get_attribute("#dispute-command .command", "data-command")
    to = moved.split("=")[1]
    words = {"en": f"Move to Location {to}", "fr": f"Déplacement : Lieu {to}", "ru": f"Переход: Локация {to}"}
    assert page.text_content("#dispute-command .command").replace("\u2063", "") == words[lang]
    options = page.eval_on_selector_all("#whatif-command option", "os => os.map(o => o.textContent)")
    assert options and not any("=" in option for option in options), options
    assert page.problems == []


def test_mv_3_a_what_if_refusal_is_said_in_the_readers_language(server, new_context):
    """MV-3 (issue 17): a branch's move the rules refuse is said with the refusal's message in the
    page's language (French here), as the play page says a rejection frame, not its English reason."""
    from client import i18n
    from events.rules import Rejection, message_data
    from server.i18n import payload
    from tests.browser.test_i18n import LOCALES

    created = seeded_game(server, "mecha/sample", SEED)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(2)
    game = events.games.load("mecha")
    table = Table(game, created["game"])
    table.absorb(Envelope.from_dict(game, public_log(server, created["game"])[0]))
    page = open_page(new_context(locale=LOCALES["fr"]), f"{server.base_url}/replay/{created['game']}?seq=2")
    page.click("#whatif-ask")
    page.wait_for_selector("#hash[data-branch='0']")
    far = page.locator("g.loc.clickable:not(.dest)").first
    number = int(far.get_attribute("data-number"))
    seat = game.turn(table.state)[0]
    refused = step(game, table.state, seat, game.commands.build({"type": "Move", "to": number}, "$"), Rng(1))
    assert isinstance(refused, Rejection) and refused.key.startswith("reject.mecha."), refused
    far.click()
    page.wait_for_selector("#whatif-status.bad")
    try:
        i18n.install(payload("fr"))
        said = i18n.t("dispute.whatif_refused", rule=refused.rule, reason=i18n.message(
            "mecha", refused.key, {name: message_data(value) for name, value in refused.params}))
    finally:
        i18n.install(payload("en"))
    assert page.text_content("#whatif-status") == said
    assert refused.reason not in said  # the English fact is not what the reader gets
    assert page.problems == []


def test_gh_6_a_monster_turns_dispute_shows_its_focus_trace_and_a_secret_pick_stays_out_of_reach(server, new_context):
    """GH-6: blue's pick revealed both hands and the bandits acted; the dispute of a bandit's
    MonsterTurnPlanned shows blue's command, GH-6's text and the focus trace, each candidate with
    its path, proximity and initiative. Red's pick is still secret to a spectator (GH-C2), so a
    what-if of blue's command cannot be decided from the public log, and the page says so."""
    from events.games.gloomhaven.model import SelectCards

    created = seeded_game(server, "gloomhaven/barrow", 1)
    game_id = created["game"]
    with ScriptedGame(server.ws_url, created) as script:
        for seat, cards in (("red", ("br-06", "br-01")), ("blue", ("ti-05", "ti-08"))):
            data = SelectCards(cards, cards[0]).to_data()
            data.pop("type")
            assert script.send(seat, "SelectCards", data)["type"] == "ack"
    game = events.games.load("gloomhaven")
    envelopes = [Envelope.from_dict(game, item) for item in public_log(server, game_id)]
    planned = next(e for e in envelopes if e.type == "MonsterTurnPlanned")
    page = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={planned.seq}")
    said = page.text_content("#dispute-command .command")  # in words: the cards by name, not their ids
    assert said.startswith("Play ") and ", leading " in said and "ti-05" not in said, said
    assert page.get_attribute("#dispute-command .command", "data-command").startswith("SelectCards cards=[\"ti-05\",\"ti-08\"]")
    focus = page.locator("#dispute-events li.event.focus")
    assert focus.get_attribute("data-type") == "MonsterTurnPlanned"
    assert focus.locator(".clause-text").text_content() == game.catalogue.get(planned.rule).text
    lines = focus.locator(".trace").all_text_contents()
    assert sum("considers" in line and "proximity" in line and "initiative" in line for line in lines) == len(
        planned.event.candidates)
    assert any(line.startswith("focus ") for line in lines)
    page.click("#whatif-dice-play")
    page.wait_for_selector("#whatif-status.bad")
    assert page.text_content("#whatif-status").startswith("This branch cannot be decided from the public log")
    assert page.locator("body[data-branch]").count() == 0
    assert page.problems == []


def test_mv_6c_the_audit_of_a_tampered_game_names_the_seq_and_clause_where_it_diverges(server, new_context):
    """MV-6c: a finished game whose first drawn Corruption value was changed in the store; the
    panel's audit says where the log parts from the rules, and what each says."""
    from tests.server.test_audit import finished_mecha, stored_game

    table = finished_mecha()
    drawn_at = next(e for e in table.envelopes if e.type == "CorruptionDrawn")
    raw = drawn_at.to_dict()
    raw["data"]["value"] = raw["data"]["value"] % 4 + 1
    table.envelopes[drawn_at.seq - 1] = Envelope.from_dict(table.game, raw)
    game_id = stored_game(server, table, over=True)
    page = open_page(new_context(), f"{server.base_url}/replay/{game_id}?seq={drawn_at.seq}")
    page.click("#audit-button")
    page.wait_for_selector("#audit-result[data-verdict='diverged']")
    assert page.text_content("#audit-result p.bad") == (
        f"The log does NOT replay: it first diverges at seq {drawn_at.seq} (clause MV-6c).")
    assert f'"value":{raw["data"]["value"]}' in page.text_content("#audit-result code.logged")
    assert f'"value":{drawn_at.event.value}' in page.text_content("#audit-result code.produced")
    assert page.problems == []


def test_ec_2_a_move_that_drew_no_dice_says_so_not_zero_stand_in_values(server, new_context):
    """EC-2: an investigator's step draws nothing; the dice field said "0 stand-in values, edit them
    freely" (found playing echo on a phone, in Russian). It says the command drew no dice."""
    created = seeded_game(server, "echo/first-case", SEED)
    with ScriptedGame(server.ws_url, created) as script:
        seat = script.current_seat()
        move = next(c for c in script.legal_moves(seat) if c.TYPE == "Move")
        data = move.to_data()
        data.pop("type")
        assert script.send(seat, "Move", data)["type"] == "ack"
    game = events.games.load("echo")
    moved = next(e for e in (Envelope.from_dict(game, item) for item in public_log(server, created["game"]))
                 if e.type == "InvestigatorMoved")
    page = open_page(new_context(locale="ru-RU"), f"{server.base_url}/replay/{created['game']}?seq={moved.seq}")
    assert page.text_content("#whatif-dice-source").replace("\u2063", "").startswith("Эта команда не бросала кубиков")
    assert page.problems == []

"""Rule questions answered on the replay page's board (issue 18, client/questions.py): open a
replay at a seq, ask, and the highlighted squares, areas and hexes are what the core answers in
CPython (the same functions as ``chronicle ask``)."""

from __future__ import annotations

import json
import urllib.request

import pytest

import events.games
from events.geometry.squares import square_name
from events.log import Envelope, Table
from tests.browser.conftest import open_page
from tests.browser.driver import ScriptedGame
from tests.server_fixture import seeded_game

pytestmark = [pytest.mark.browser, pytest.mark.server]


def logged(server, game_id: str, name: str) -> tuple:
    """(game, envelopes, states) of a game's public log, folded in CPython."""
    with urllib.request.urlopen(f"{server.base_url}/api/games/{game_id}/log", timeout=10) as response:
        raw = [json.loads(line) for line in response.read().decode().splitlines()]
    game = events.games.load(name)
    table = Table(game, game_id)
    states = []
    for item in raw:
        table.absorb(Envelope.from_dict(game, item))
        states.append(table.state)
    return game, table.envelopes, states


def played(server, scenario: str, seed: int, commands: int) -> tuple:
    """A seeded game of ``scenario`` with ``commands`` scripted commands played: (created, envelopes, states)."""
    created = seeded_game(server, scenario, seed)
    with ScriptedGame(server.ws_url, created) as script:
        script.play(commands)
    _game, envelopes, states = logged(server, created["game"], scenario.split("/")[0])
    return created, envelopes, states


def replay_at(server, new_context, created: dict, seq: int):
    """The replay page of the created game, opened at ``seq``."""
    return open_page(new_context(), f"{server.base_url}/replay/{created['game']}?seq={seq}")


def ask(page, kind: str) -> None:
    page.select_option("#ask-question", kind)
    page.click("#ask-start")
    page.wait_for_selector(f"#ask[data-kind='{kind}']")


def marked(page, cls: str, attr: str) -> list:
    return sorted(page.locator(f"#board .{cls}").evaluate_all(f"ns => ns.map(n => n.getAttribute('{attr}'))"))


def test_sk_c2_sk_c3_skirmish_reachable_los_and_path_on_the_board(server, new_context):
    """SK-C2, SK-C3: at seq 2 of a skirmish, a figure's reachable squares carry the costs of
    ``questions.reachable``; the line between two figures says ``sight``'s answer; a path clicked
    square by square is judged as ``judge_path`` judges it, legal with its cost, then illegal
    with the failing step's clause."""
    from events.games.skirmish.questions import judge_path, reachable
    from events.games.skirmish.rules import path_leg, sight

    created, envelopes, states = played(server, "skirmish/purge", 3, 3)
    seq = 2
    state = states[seq - 1]
    page = replay_at(server, new_context, created, seq)
    standing = [item for item in state.figures if item.at is not None]
    item = standing[0]
    enemy = next(other for other in standing if other.side != item.side)

    # Check: reachable: every square highlighted with its cost, nothing else.
    ask(page, "reachable")
    page.click(f"g.fig[data-figure='{item.id}']")
    page.wait_for_selector("#board .ask-reach")
    options = reachable(state, item)
    costs = page.locator("#board .ask-reach").evaluate_all(
        "ns => ns.map(n => [n.dataset.square, Number(n.getAttribute('data-ask-cost'))])")
    assert sorted(map(tuple, costs)) == sorted((square_name(sq), cost) for sq, (cost, _p) in options.items())
    assert "SK-C2" in page.text_content("#ask-answer")

    # Check: line of sight between two figures: the line's verdict and cover are sight()'s.
    ask(page, "los")
    assert page.locator("#board .ask-reach").count() == 0  # a new question clears the last answer
    page.click(f"g.fig[data-figure='{item.id}']")
    page.click(f"g.fig[data-figure='{enemy.id}']")
    page.wait_for_selector("#ask-line")
    seen, _edge, cover, _corner, _screens = sight(state, item.at, enemy.at)
    assert page.get_attribute("#ask-line", "data-los") == ("1" if seen else "0")
    assert page.get_attribute("#ask-line", "data-cover") == ("1" if cover else "0")
    assert marked(page, "ask-los", "data-square") == [square_name(enemy.at)]
    assert "SK-C3" in page.text_content("#ask-answer")

    # Check: a path to the farthest free square: the cheapest route, legal, with its cost.
    ask(page, "path")
    page.click(f"g.fig[data-figure='{item.id}']")
    goal = max(options, key=lambda sq: (options[sq][0], sq))
    page.click(f"g.sq[data-square='{square_name(goal)}']")
    page.wait_for_selector("#ask-answer[data-legal]")
    leg = path_leg(state, item, item.at, goal)
    cost, refusal = judge_path(state, item, leg)
    assert refusal is None
    assert marked(page, "ask-path", "data-square") == sorted(square_name(sq) for sq in leg)
    assert page.get_attribute("#ask-answer", "data-legal") == "1"
    assert f"{cost} movement point" in page.text_content("#ask-answer")

    # Check: one more waypoint past what it may walk: illegal, the failing step and its clause.
    taken = {other.at for other in standing}
    width, height = state.grid.width, state.grid.height
    far = next(sq for sq in sorted(((x, y) for x in range(width) for y in range(height)), reverse=True)
               if sq not in taken and sq != goal
               and judge_path(state, item, leg + path_leg(state, item, goal, sq))[1] is not None)
    page.click(f"g.sq[data-square='{square_name(far)}']")
    page.wait_for_selector("#ask-answer[data-legal='0']")
    _cost, refusal = judge_path(state, item, leg + path_leg(state, item, goal, far))
    assert page.get_attribute("#ask-answer p.bad", "data-rule") == refusal.rule
    assert page.text_content("#ask-answer p.bad") == refusal.reason  # the English page words it as the CLI

    # Check: another seq clears the answer; the board is the renderer's again.
    page.click("button[data-step='forward']")
    page.wait_for_selector("#hash[data-seq='3']")
    assert page.locator("#ask-layer").count() == 0 and page.locator("#board .ask-path").count() == 0
    assert page.problems == []


def test_gh_c8_a_monster_turn_on_the_board_is_monster_plan(server, new_context):
    """GH-6, GH-C8, GH-C9: at the seq before a monster's turn is planned, asking highlights its
    focus and every equally good destination of ``monster_plan`` and shows its trace."""
    from events.games.gloomhaven.model import SelectCards
    from events.games.gloomhaven.questions import monster_plan

    created = seeded_game(server, "gloomhaven/barrow", 1)
    with ScriptedGame(server.ws_url, created) as script:
        for seat, cards in (("red", ("br-06", "br-01")), ("blue", ("ti-05", "ti-08"))):
            data = SelectCards(cards, cards[0]).to_data()
            data.pop("type")
            assert script.send(seat, "SelectCards", data)["type"] == "ack"
    _game, envelopes, states = logged(server, created["game"], "gloomhaven")
    planned = next(e for e in envelopes if e.type == "MonsterTurnPlanned")
    seq = planned.seq - 1
    state = states[seq - 1]
    plan, problem = monster_plan(state, planned.event.figure)
    assert problem == ""
    page = replay_at(server, new_context, created, seq)
    ask(page, "monster-turn")
    page.click(f"#board g.figure[data-figure='{planned.event.figure}']")
    page.wait_for_selector("#board .ask-focus")
    assert marked(page, "ask-focus", "data-figure") == sorted(plan.focus)
    assert marked(page, "ask-dest", "data-hex") == sorted({f"{o.destination[0]},{o.destination[1]}"
                                                           for o in plan.options})
    trace = page.locator("#ask-answer .focus-trace")
    assert trace.locator("tr.candidate").count() == len(plan.candidates)
    assert trace.get_attribute("data-figure") == planned.event.figure
    # Check: each equally good option is worded for what it does (a monster that stays, or attacks
    # nobody, is said so; never "via no move; attacks no attack").
    lines = trace.locator("ol.options li.option").all_text_contents()
    assert plan.options and len(lines) == len(plan.options)
    for option, line in zip(plan.options, lines):
        where = f"[{option.destination[0]}, {option.destination[1]}]"
        assert line.startswith(f"{where} via " if option.path else f"stays on {where}; "), line
        assert line.endswith("; no attack") == (not option.attacks), line
    assert page.problems == []


def test_ah_3_arkham_path_on_the_board_is_cheapest_route(server, new_context):
    """AH-3, AH-7: the route between an investigator's area and a far Street, clicked on the board,
    is ``cheapest_route``: its areas highlighted, the line drawn, the cost in words."""
    from events.games.arkham.board import ARKHAM_KINDS
    from events.games.arkham.questions import cheapest_route

    created, envelopes, states = played(server, "arkham/crossing", 1, 2)
    seq = 2
    state = states[seq - 1]
    inv = state.investigators[0]
    busy = {i.where for i in state.investigators} | {m.area for m in state.monsters}
    free = [area for area in state.board.areas if area.kind in ARKHAM_KINDS and area.id not in busy]
    goal = max(free, key=lambda area: (len(cheapest_route(state, inv.where, area.id) or ()), area.id))
    route = cheapest_route(state, inv.where, goal.id)
    page = replay_at(server, new_context, created, seq)
    ask(page, "path")
    page.click(f"#board g.investigator[data-seat='{inv.seat}']")
    page.locator(f"#board g.area[data-area='{goal.id}']").click(force=True)  # a clue token may sit on it
    page.wait_for_selector("#ask-route")
    assert marked(page, "ask-path", "data-area") == sorted(route[1:])
    assert marked(page, "ask-pick", "data-area") == [inv.where]
    assert f"{len(route) - 1} movement point" in page.text_content("#ask-answer")
    assert page.problems == []


def test_mv_1_a_mechas_destinations_on_the_board_are_the_rules(server, new_context):
    """MV-1 to MV-6: a Mecha clicked after asking: exactly ``destinations`` highlighted, with their steps."""
    from events.games.mecha.rules import destinations, seat_index

    created, envelopes, states = played(server, "mecha/sample", 7, 2)
    seq = len(envelopes)
    state = states[seq - 1]
    seat = next(item.seat for index, item in enumerate(state.seats) if state.positions[index] is not None)
    expected = destinations(state, seat_index(state, seat))
    assert expected
    page = replay_at(server, new_context, created, seq)
    ask(page, "destinations")
    where = state.positions[seat_index(state, seat)]
    page.locator(f"#board g.loc[data-number='{where}']").click()  # the Location it stands on
    page.wait_for_selector("#board .ask-reach")
    shown = page.locator("#board .ask-reach").evaluate_all(
        "ns => ns.map(n => [Number(n.dataset.number), Number(n.getAttribute('data-ask-cost'))])")
    assert sorted(map(tuple, shown)) == sorted((place, len(path)) for place, path in expected.items())
    assert page.problems == []


def test_ec_4_the_dice_of_an_evasion_in_words_are_dice_count_and_chance(server, new_context):
    """EC-4: Stealth − the enemy's evasion penalty dice, any 5 or 6 a success: the page says
    ``dice_count`` and ``chance`` (exact), computed in the browser."""
    from events.games.echo import board as boards
    from events.games.echo.dice import chance, dice_count

    created = seeded_game(server, "echo/first-case", 1)
    _game, _envelopes, states = logged(server, created["game"], "echo")
    state = states[0]
    inv, enemy = state.investigators[0], state.enemies[0]
    count = dice_count(inv.stealth, boards.enemy_card(state.cards, enemy.card).evasion)
    numerator, denominator = chance(count)
    page = replay_at(server, new_context, created, 1)
    ask(page, "dice")
    page.select_option("#ask-investigator", inv.id)
    page.select_option("#ask-check", f"stealth|{enemy.id}")
    page.click("#ask-dice")
    page.wait_for_selector("#ask-dice-answer[data-dice]")
    assert page.get_attribute("#ask-dice-answer", "data-dice") == str(count)
    assert page.get_attribute("#ask-dice-answer", "data-chance") == f"{numerator}/{denominator}"
    assert "EC-4" in page.text_content("#ask-dice-answer")
    assert page.problems == []


def first_pairs(state) -> tuple:
    """The first two squares whose line a wall blocks, and the first two whose line something screens (SK-C3)."""
    from events.games.skirmish.rules import sight

    squares = [(x, y) for y in range(state.grid.height) for x in range(state.grid.width)]
    blocked = screened = None
    for a in squares:
        for b in squares:
            if a < b:
                seen, edge, cover, _corner, screens = sight(state, a, b)
                blocked = blocked or ((a, b) if edge is not None else None)
                screened = screened or ((a, b) if cover and screens else None)
    return blocked, screened


@pytest.mark.parametrize("locale, wall, screen", [
    ("fr-FR", "rencontre d'abord le mur ", "Masquée par : des objets bas en "),
    ("ru-RU", "сначала упирается в стену ", "Укрытие: линия проходит через низкие предметы"),
])
def test_sk_c3_the_line_of_sight_answer_names_the_wall_and_the_screens_in_the_readers_words(
        server, new_context, locale, wall, screen):
    """SK-C3 asked on the board in French and Russian: the wall that blocks the line and what screens it
    were the rules' English ("rencontre d'abord the wall D1|E1", "low objects at D1")."""
    created = seeded_game(server, "skirmish/courtyard", 1)
    _game, _envelopes, states = logged(server, created["game"], "skirmish")
    blocked, screened = first_pairs(states[0])
    page = open_page(new_context(locale=locale), f"{server.base_url}/replay/{created['game']}?seq=1")
    for (a, b), words in ((blocked, wall), (screened, screen)):
        ask(page, "los")
        page.click(f"g.sq[data-square='{square_name(a)}']", force=True)
        page.click(f"g.sq[data-square='{square_name(b)}']", force=True)
        page.wait_for_selector("#ask-line", state="attached")
        answer = page.text_content("#ask-answer").replace("\u2063", "")
        assert words in answer and "the wall" not in answer and "low objects" not in answer, answer
        page.click("#ask-clear")
    assert page.problems == []


@pytest.mark.parametrize("locale", ["fr-FR", "ru-RU"])
def test_ec_4_the_dice_questions_name_the_enemies_and_spells_not_their_ids(server, new_context, locale):
    """EC-4, EC-7, EC-10: the checks offered ("Stealth against {enemy}") named each enemy and spell by its
    id ("novice-1"); they name it as the log does, in the reader's language."""
    created = seeded_game(server, "echo/first-case", 1)
    _game, _envelopes, states = logged(server, created["game"], "echo")
    ids = [enemy.id for enemy in states[0].enemies] + [spell.id for spell in states[0].cards.spells]
    page = open_page(new_context(locale=locale), f"{server.base_url}/replay/{created['game']}?seq=1")
    ask(page, "dice")
    options = page.locator("#ask-check option").all_text_contents()
    assert options and ids and [text for text in options if any(item in text for item in ids)] == [], options
    assert page.problems == []

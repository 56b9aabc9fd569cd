"""Arkham: the hints and rule answers of a game are its own rules version's (README "Rules versions").

The play page's move hints (``client/boards/arkham.py`` ``ArkhamView.destinations``), the replay page's
"Ask the rules" (``client/questions.py``) and ``chronicle ask arkham reachable --log`` all call
``rules.destinations`` / ``rules.reach`` with the edition of the game they show: an arkham-3 game's
Move without a path walks the cheapest route and stops at the first monster (AH-7), so its hints and
answers must say that route, not arkham-4's way round.
"""

from __future__ import annotations

import json

from events.games import load
from events.games.arkham import model, rules
from events.log import Table, encode_envelope
from server.cli.main import main
from server.cli.status import SUCCESS
from tests.games.arkham.helpers import act, inv, mon, scenario

AROUND = scenario([inv("red", "northside", speed=4)], [mon("zombie", "downtown")])


def _game(version: str) -> Table:
    return Table.create(load("arkham").version(version), "g-t", AROUND, 1)


def _walked(state, route: tuple) -> tuple:
    """The part of ``route`` a walk covers: up to the first area with monsters on the way (AH-7)."""
    for number, place in enumerate(route, 1):
        if number < len(route) and rules.monsters_in(state, place):
            return route[:number]
    return route


def test_ah_7_edition_is_the_rules_versions_number_else_the_newest():
    """AH-7: the walk a version's Move takes is chosen by its number (a scenario with no game: the newest)."""
    assert [rules.edition(f"arkham-{n}") for n in (1, 2, 3, 4, 5, 6)] == [1, 2, 3, 4, 5, 6]
    assert rules.edition(rules.RULES_VERSION) == 6 and rules.edition("") == 6 and rules.edition("arkham-9") == 6


def test_ah_7_an_arkham_3_game_hints_and_reaches_by_the_route_its_own_move_walks():
    """AH-7: Northside → Easttown, a Zombie in Downtown on the cheapest way: arkham-3's Move stops there,
    arkham-4's goes round; each game's destinations and reach give the route its own Move walks."""
    for version in ("arkham-3", "arkham-4"):
        tab = _game(version)
        edition = rules.edition(version)
        hinted = rules.destinations(tab.state, edition)["easttown"]
        reached = rules.reach(tab.state, 0, edition)["easttown"][1]
        before = tab.state
        walked = act(tab, "red", model.Move("easttown"))[0].path
        assert hinted == reached and _walked(before, hinted) == walked, version
    assert rules.destinations(_game("arkham-3").state, 3)["easttown"] != rules.destinations(
        _game("arkham-4").state, 4)["easttown"]  # the two versions do differ here


def test_ah_7_ask_reachable_on_an_arkham_3_log_answers_with_arkham_3s_walk(tmp_path, capsys):
    """AH-7: ``chronicle ask arkham reachable --log`` on an arkham-3 game reads the log's rules_version."""
    for version in ("arkham-3", "arkham-4"):
        tab = _game(version)
        log = tmp_path / f"{version}.jsonl"
        log.write_text("".join(encode_envelope(item) + "\n" for item in tab.envelopes), encoding="utf-8")
        assert main(["ask", "arkham", "reachable", "--log", str(log), "--investigator", "red"]) == SUCCESS
        answer = json.loads(capsys.readouterr().out)
        route = tuple(next(item["route"] for item in answer["areas"] if item["area"] == "easttown"))
        before = tab.state
        walked = act(tab, "red", model.Move("easttown"))[0].path
        assert route[0] == "northside" and _walked(before, route[1:]) == walked, version

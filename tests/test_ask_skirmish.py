"""``chronicle ask skirmish los|reachable``: rule questions on a scenario, answered as JSON."""

from __future__ import annotations

import json

from server.cli.main import main


def ask(capsys, *argv: str) -> tuple:
    status = main(["ask", "skirmish", *argv])
    captured = capsys.readouterr()
    return status, (json.loads(captured.out) if captured.out.strip() else None), captured.err


def test_sk_c3_los_through_a_closed_door_names_the_blocking_edge(capsys):
    """SK-C3, SK-6: Ana at C2 cannot see G2 past the safe room's closed door1."""
    status, answer, _err = ask(capsys, "los", "skirmish/purge", "--from", "C2", "--to", "G2")
    assert status == 0
    assert answer == {"from": "C2", "to": "G2", "los": False, "cover": False, "blocking_edge": "D2|E2",
                      "blocking": "the closed door door1 (D2|E2)", "rule": "SK-C3"}


def test_sk_c3_los_with_cover_lists_what_screens(capsys):
    """SK-C3: across the courtyard the short walls screen every corner of A1: cover."""
    status, answer, _err = ask(capsys, "los", "skirmish/courtyard", "--from", "0,0", "--to", "I5")
    assert status == 0 and answer["los"] is True and answer["cover"] is True
    assert answer["screens"] and "blocking_edge" not in answer


def test_sk_5_los_across_a_pit_is_clear(capsys):
    """SK-5: the pit at F5 in skirmish/purge blocks no sight along row 5."""
    status, answer, _err = ask(capsys, "los", "skirmish/purge", "--from", "E5", "--to", "H5")
    assert status == 0 and answer["los"] is True and answer["cover"] is False


def test_sk_c2_reachable_lists_every_square_and_its_cost(capsys):
    """SK-C2: Zombie 1 (4 movement points, up to 8 this activation) from G1; orthogonal steps cost 1,
    diagonal 2; it never ends on another figure's square."""
    status, answer, _err = ask(capsys, "reachable", "skirmish/purge", "--figure", "z1")
    assert status == 0 and answer["from"] == "G1" and answer["movement_points"] == 4
    costs = {item["square"]: item["cost"] for item in answer["reachable"]}
    assert costs["F1"] == 1 and costs["H2"] == 2 and costs["E1"] == 2
    assert "G2" not in costs  # Zombie 2 stands there
    assert all(item["attack_after"] == (item["cost"] <= 4) for item in answer["reachable"])


def test_ask_skirmish_refuses_a_bad_square_or_figure(capsys):
    status, _answer, err = ask(capsys, "los", "skirmish/purge", "--from", "Z9", "--to", "A1")
    assert status != 0 and "--from: Z9 is off the 10 × 5 map" in err
    status, _answer, err = ask(capsys, "reachable", "skirmish/purge", "--figure", "nobody")
    assert status != 0 and "no figure 'nobody'" in err


def test_sk_1_ask_path_names_the_first_illegal_step_and_its_clause(capsys):
    """SK-1, SK-C2: in skirmish/hangar Trooper 1 from G2: F1, E1 is legal (3 points); F1, E1, D1
    crosses the wall D1|E1 at step 3; x,y squares work too, separated by spaces."""
    status, answer, _err = ask(capsys, "path", "skirmish/hangar", "--figure", "tk1", "--path", "F1,E1")
    assert status == 0
    assert answer == {"figure": "tk1", "from": "G2", "path": ["F1", "E1"], "movement_points": 6, "legal": True,
                      "cost": 3, "rule": "SK-C2"}
    status, answer, _err = ask(capsys, "path", "skirmish/hangar", "--figure", "tk1", "--path", "5,0 4,0 3,0")
    assert status == 0 and answer["legal"] is False and answer["rule"] == "SK-1"
    assert answer["reason"] == "step 3, E1→D1: crosses the wall D1|E1: a wall stops movement"


def test_sk_c2_ask_path_refuses_a_bad_square_or_an_empty_path(capsys):
    """SK-C2: the path's squares are checked as arguments first."""
    status, _answer, err = ask(capsys, "path", "skirmish/hangar", "--figure", "tk1", "--path", "F1,Q99")
    assert status != 0 and "--path: Q99 is off the 10 × 6 map" in err
    status, _answer, err = ask(capsys, "path", "skirmish/hangar", "--figure", "tk1", "--path", ",")
    assert status != 0 and "--path: expected the squares entered" in err

"""``chronicle ask echo dice``: the dice of a check and its chance, as JSON (server/cli/ask_echo.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.main import main
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS

REPO = Path(__file__).resolve().parents[1]


def ask(capsys, *args: str) -> tuple:
    status = main(["ask", "echo", "dice", *args])
    captured = capsys.readouterr()
    return status, (json.loads(captured.out) if status == SUCCESS else captured.err)


def test_ec_4_worked_example_stealth_5_against_the_novice_is_4_dice(capsys):
    """EC-4: Melifaro's Stealth 5 against the Novice's penalty 1: 4 dice, 1 − (2/3)^4 = 65/81."""
    status, answer = ask(capsys, "echo/first-case", "--investigator", "melifaro", "--check", "stealth",
                         "--against", "novice-1")
    assert status == SUCCESS
    assert (answer["dice"], answer["chance"], answer["percent"], answer["rule"]) == (4, "65/81", 80.2, "EC-4")
    assert (answer["skill"], answer["penalty"], answer["penalty_of"]) == (5, 1, "evasion")
    assert answer["enemy_ru"] == "Послушник Ордена Лающей Рыбы"


def test_ec_7_attention_and_ec_8_stealth_for_the_strike_order(capsys):
    """EC-7 / EC-8: the strike-order check uses the enemy's attention penalty, with Attention or Stealth."""
    _, attention = ask(capsys, "echo/bunba-brawl", "--investigator", "blue", "--check", "attention",
                       "--against", "magister-1")
    assert (attention["investigator"], attention["skill"], attention["penalty"], attention["dice"]) == (
        "lonli-lokli", 4, 2, 2)
    assert attention["chance"] == "5/9" and attention["rule"] == "EC-7"
    _, stealth = ask(capsys, "echo/bunba-brawl", "--investigator", "blue", "--check", "order-stealth",
                     "--against", "magister-1")
    assert (stealth["dice"], stealth["chance"], stealth["rule"]) == (0, "0/1", "EC-8")
    assert stealth["success_on"].startswith("nothing")


def test_ec_10_banishing_spark_is_knowledge_minus_3(capsys):
    """EC-10: Lonli-Lokli's Knowledge 6 − 3 = 3 dice (19/27); the price of power is shown (EC-11)."""
    _, answer = ask(capsys, "echo/novice-duel", "--investigator", "lonli-lokli", "--spell", "banishing-spark")
    assert (answer["check"], answer["dice"], answer["chance"], answer["price"], answer["in_combat"]) == (
        "knowledge", 3, "19/27", 1, True)


def test_ec_c2_an_enemy_card_id_works_as_well_as_a_scenario_enemy(capsys):
    """EC-C2: the enemy may be named by its card."""
    _, answer = ask(capsys, "echo/first-case", "--investigator", "red", "--check", "stealth",
                    "--against", "rebel-magister")
    assert (answer["card"], answer["dice"]) == ("rebel-magister", 3)


@pytest.mark.parametrize(("args", "message"), [
    (("--investigator", "melifro", "--check", "stealth", "--against", "novice-1"),
     "--investigator: no investigator or seat 'melifro' (did you mean melifaro?)"),
    (("--investigator", "red", "--check", "stealth", "--against", "novce-1"),
     "--against: no enemy 'novce-1' (did you mean novice-1?)"),
    (("--investigator", "red", "--check", "stealth"), "--against: a --check needs the enemy it is made against"),
    (("--investigator", "red", "--spell", "fireball"), "--spell: no spell 'fireball'"),
])
def test_bad_names_are_one_line_errors(capsys, args, message):
    status, err = ask(capsys, "echo/first-case", *args)
    assert status == BAD_ARGS and message in err and len(err.strip().splitlines()) == 1


def test_a_scenario_of_another_game_is_refused(capsys):
    status, err = ask(capsys, "mecha/sample", "--investigator", "red", "--check", "stealth", "--against", "x")
    assert status == BAD_INPUT and "an echo question needs an echo scenario" in err


def test_the_real_command_prints_json(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(
        [sys.executable, "-m", "server.cli.main", "ask", "echo", "dice", "echo/first-case", "--investigator",
         "melifaro", "--check", "stealth", "--against", "novice-1"],
        cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", timeout=60,
    )
    assert done.returncode == SUCCESS, done.stderr
    assert json.loads(done.stdout)["dice"] == 4

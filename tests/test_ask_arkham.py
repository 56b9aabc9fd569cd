"""``chronicle ask arkham path|reachable``: rule questions answered as JSON (in process, plus one subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from server.cli.main import main
from server.cli.status import BAD_ARGS, BAD_INPUT, SUCCESS

REPO = Path(__file__).resolve().parents[1]


def ask(capsys, *args: str) -> tuple:
    status = main(["ask", "arkham", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == SUCCESS else None), err


def test_ah_4_path_graveyard_to_administration_costs_4(capsys):
    """AH-4: the seed's worked example through the question and the shipped board."""
    status, answer, _ = ask(capsys, "path", "arkham/crossing", "--from", "graveyard", "--to", "administration")
    assert status == SUCCESS
    assert answer["cost"] == 4 and answer["rule"] == "AH-3"
    assert answer["route"] == ["graveyard", "rivertown", "french_hill", "miskatonic_u", "administration"]
    assert answer["names"][-1] == "Administration (Administration Building)"
    assert answer["unverified_used"] is False


def test_ah_4_path_graveyard_to_library_costs_4(capsys):
    """AH-4: the English rulebook's example, 4 points by French Hill."""
    status, answer, _ = ask(capsys, "path", "arkham/crossing", "--from", "graveyard", "--to", "library")
    assert (status, answer["cost"]) == (SUCCESS, 4)
    assert answer["route"][2] == "french_hill"


def test_ah_3_path_uses_the_unverified_line_unless_the_scenario_drops_it(capsys):
    """AH-3: Merchant District → Downtown is 1 with the unverified line, 2 without (monster-street drops it)."""
    _, kept, _ = ask(capsys, "path", "arkham/crossing", "--from", "merchant_district", "--to", "downtown")
    assert (kept["cost"], kept["unverified_used"]) == (1, True)
    assert kept["unverified_lines"] == [["downtown", "merchant_district"]]
    _, dropped, _ = ask(capsys, "path", "arkham/monster-street", "--from", "merchant_district", "--to", "downtown")
    assert (dropped["cost"], dropped["route"], dropped["unverified_used"]) == (
        2, ["merchant_district", "northside", "downtown"], False)


def test_ah_7_path_names_the_monsters_on_the_route(capsys):
    """AH-7: the route avoids French Hill's Cultist at equal cost and lists Rivertown's monsters."""
    _, answer, _ = ask(capsys, "path", "arkham/monster-street", "--from", "graveyard", "--to", "library")
    assert answer["cost"] == 4 and answer["route"][2] == "merchant_district"
    assert answer["monsters"] == [{"area": "rivertown", "monsters": ["ghoul", "zombie"]}]


def test_ah_3_path_refuses_unknown_and_unreachable_areas(capsys):
    """AH-3 / AH-9: a misspelt area gets a suggestion; an Other World area has no yellow line."""
    status, _, err = ask(capsys, "path", "arkham/crossing", "--from", "gravyard", "--to", "library")
    assert status == BAD_ARGS and "no area 'gravyard'" in err and "did you mean graveyard" in err
    status, _, err = ask(capsys, "path", "arkham/crossing", "--from", "graveyard", "--to", "rlyeh_1")
    assert status == BAD_ARGS and "no yellow line reaches it (AH-9)" in err


def test_ah_2_reachable_lists_every_area_within_speed_with_its_cost(capsys):
    """AH-2: red (Speed 4) in the Graveyard: itself at 0, Rivertown at 1, the Library at 4, nothing at 5."""
    status, answer, _ = ask(capsys, "reachable", "arkham/crossing", "--investigator", "red")
    assert status == SUCCESS and (answer["at"], answer["speed"]) == ("graveyard", 4)
    costs = {item["area"]: item["cost"] for item in answer["areas"]}
    assert costs["graveyard"] == 0 and costs["rivertown"] == 1 and costs["library"] == 4
    assert "woods" not in costs and max(costs.values()) == 4
    library = next(item for item in answer["areas"] if item["area"] == "library")
    assert library["route"] == ["graveyard", "rivertown", "french_hill", "miskatonic_u", "library"]
    assert [item["cost"] for item in answer["areas"]] == sorted(item["cost"] for item in answer["areas"])


def test_ah_11_reachable_from_an_other_world(capsys):
    """AH-10 / AH-11 / AH-12: gates to choose, Lost without one, the second area from the first."""
    _, red, _ = ask(capsys, "reachable", "arkham/other-world", "--investigator", "red")
    assert [(item["area"], item["rule"]) for item in red["areas"]] == [("graveyard", "AH-11"), ("the_witch_house", "AH-11")]
    _, blue, _ = ask(capsys, "reachable", "arkham/other-world", "--investigator", "Darrell Simmons")
    assert [(item["area"], item["rule"]) for item in blue["areas"]] == [("lost_in_time_and_space", "AH-12")]
    _, green, _ = ask(capsys, "reachable", "arkham/other-world", "--investigator", "green")
    assert [(item["area"], item["rule"]) for item in green["areas"]] == [("abyss_2", "AH-10")]


def test_ah_c6_reachable_refuses_an_unknown_investigator_and_a_foreign_scenario(capsys):
    """AH-C6: the investigator must be in the scenario; the scenario must be an arkham one."""
    status, _, err = ask(capsys, "reachable", "arkham/crossing", "--investigator", "purple")
    assert status == BAD_ARGS and "known: red (Monterey Jack), blue (Amanda Sharpe)" in err
    status, _, err = ask(capsys, "reachable", "mecha/sample", "--investigator", "red")
    assert status == BAD_INPUT and "needs an arkham scenario" in err


def test_ask_arkham_runs_as_a_command():
    """The real command line prints one JSON object."""
    done = subprocess.run([sys.executable, "-m", "server.cli.main", "ask", "arkham", "path", "arkham/crossing",
                           "--from", "graveyard", "--to", "administration"], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["cost"] == 4

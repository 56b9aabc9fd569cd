"""docs/echo-format.md: its example is a valid scenario and behaves as the text says."""

from __future__ import annotations

from pathlib import Path

from events.games.echo.board import load_scenario
from events.games.echo.model import Evade, Move
from tests.games.echo.helpers import act, table
from tests.games.tables import json_blocks

DOC = Path(__file__).resolve().parents[3] / "docs" / "echo-format.md"


def test_ec_c1_the_documented_example_loads():
    """EC-C1: the example scenario in the format doc loads, with both kinds of link and the special places."""
    (example,) = json_blocks(DOC)
    setup = load_scenario(example)
    assert [(link.a, link.b, link.kind) for link in setup.map.links] == [
        ("asylum", "office", "dark"), ("dark-side", "house", "dark"), ("house", "office", "arrow"),
        ("house", "tavern", "arrow")]
    assert (setup.map.asylum, setup.map.ministry, setup.map.dark_side) == ("asylum", ("house", "office"), "dark-side")


def test_ec_4_the_documented_example_behaves_as_the_doc_says():
    """EC-2 / EC-3 / EC-4 / EC-19: 5 points, the tavern entered freely but left only after a 4-dice evasion."""
    (example,) = json_blocks(DOC)
    tab = table(example)
    assert act(tab, "red", Move("tavern"))[0].mp == 4
    assert act(tab, "red", Move("house")).rule == "EC-3"
    (evaded,) = act(tab, "red", Evade("novice-1"), (6, 1, 1, 1))
    assert len(evaded.dice) == 4
    act(tab, "red", Move("house"))
    act(tab, "red", Move("office"))
    assert act(tab, "red", Move("dark-side"))[0].rule == "EC-19"

"""docs/gloomhaven-format.md: its example is a valid scenario and plays as the text says."""

from __future__ import annotations

from pathlib import Path

from events.games.gloomhaven import rules
from events.games.gloomhaven.board import load_scenario
from events.games.gloomhaven.model import SelectCards
from tests.games.gloomhaven.helpers import act, first, table
from tests.games.tables import json_blocks

DOC = Path(__file__).resolve().parents[3] / "docs" / "gloomhaven-format.md"


def test_gh_c1_the_documented_example_loads():
    """GH-C1: the example's map has its wall hex removed, its terrain and its thin wall."""
    (example,) = json_blocks(DOC)
    setup = load_scenario(example)
    assert (3, 0) not in setup.map.hexes and len(setup.map.hexes) == 17
    assert setup.map.traps == ((2, 1),) and setup.map.thin_walls == (((0, 1), (1, 1)),)
    assert setup.characters == (("red", "Brute", (0, 1)),)
    assert setup.monsters == (("Bandit Guard", "elite", 1, (5, -1)),)


def test_gh_c2_the_documented_example_plays_a_round():
    """GH-C2: picking Shield Bash and Trample reveals initiative 15 before the guard's 30."""
    (example,) = json_blocks(DOC)
    tab = table(example)
    events = act(tab, "red", SelectCards(("b2", "b1"), "b2"), (30,))
    assert first(events, "InitiativeSet").order == (("red", 15), ("bandit-guard-1", 30))
    assert rules.turn(tab.state) == ("red",)

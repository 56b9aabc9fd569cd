"""docs/arkham-format.md: its example is a valid scenario and behaves as the text says."""

from __future__ import annotations

from pathlib import Path

from events.games.arkham import board as boards
from events.games.arkham.model import Evade, InvestigatorMoved, Move, MovementEnded, Stop, TakeClues
from tests.games.arkham.helpers import BOARD, act, table
from tests.games.tables import json_blocks

DOC = Path(__file__).resolve().parents[3] / "docs" / "arkham-format.md"


def example() -> dict:
    (block,) = json_blocks(DOC)
    assert block["board"] == "../boards/arkham.json"
    return dict(block, board=BOARD)  # what server.scenarios.load inlines


def test_ah_c6_the_documented_example_loads():
    """AH-C6: the example scenario in the format doc loads as the doc describes it."""
    setup = boards.load_scenario(example())
    assert [(inv.seat, inv.speed, inv.where) for inv in setup.investigators] == [("red", 4, "graveyard")]
    assert setup.clues == (("library", 2),) and setup.monsters[0].area == "rivertown"
    assert boards.route(setup.board, "graveyard", "library") == ("rivertown", "french_hill", "miskatonic_u", "library")


def test_ah_5_the_documented_example_plays_as_the_doc_says():
    """AH-7 then AH-5: the walk stops in Rivertown, goes on after the evade, and the Library's clues are offered."""
    tab = table(example())
    assert act(tab, "red", Move("library")) == [
        InvestigatorMoved("red", "graveyard", "rivertown", "library", ("rivertown",), 3)]
    act(tab, "red", Evade("zombie"), dice=(5, 1, 1))
    assert act(tab, "red", Move("library"))[0].points_left == 0
    assert act(tab, "red", Stop()) == [MovementEnded("red", "library", 0, 2)]
    assert act(tab, "red", TakeClues(2))[0].left == 0

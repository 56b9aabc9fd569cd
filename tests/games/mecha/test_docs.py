"""docs/mecha-format.md: its example is a valid scenario and behaves as the text says."""

from __future__ import annotations

from pathlib import Path

from events.games.mecha import rules
from events.games.mecha.board import load_scenario
from tests.games.mecha.helpers import table
from tests.games.tables import json_blocks

DOC = Path(__file__).resolve().parents[3] / "docs" / "mecha-format.md"


def test_mv_c1_the_documented_example_loads():
    """MV-C1: the example scenario in the format doc loads, with the adjacency the doc describes."""
    (example,) = json_blocks(DOC)
    setup = load_scenario(example)
    assert setup.board.links == ((1, 2), (1, 4), (2, 3), (2, 20), (3, 20))
    assert [(seat.seat, seat.range_min, seat.range_max) for seat in setup.seats] == [("red", 1, 3), ("blue", 1, 4)]


def test_mv_6_the_documented_example_reaches_what_the_doc_says():
    """MV-2 / MV-6: from the Camp red reaches 1, 2, 3 in one step and face-down 4 and 20 in two."""
    (example,) = json_blocks(DOC)
    state = table(example).state
    reach = rules.destinations(state, 0)
    assert {place: len(path) for place, path in reach.items()} == {1: 1, 2: 1, 3: 1, 4: 2, 20: 2}

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


def test_mv_c4_the_documented_question_answers_what_the_doc_says(tmp_path, capsys):
    """MV-C4 / MV-6: ``chronicle ask mecha destinations example.json --seat red`` on the doc's example."""
    import json

    from server.cli.main import main

    (example,) = json_blocks(DOC)
    path = tmp_path / "example.json"
    path.write_text(json.dumps(example), encoding="utf-8")
    assert main(["ask", "mecha", "destinations", str(path), "--seat", "red"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert {item["location"]: item["steps"] for item in answer["destinations"]} == {1: 1, 2: 1, 3: 1, 4: 2, 20: 2}
    assert {item["location"] for item in answer["destinations"] if item["reveals"]} == {4, 20}

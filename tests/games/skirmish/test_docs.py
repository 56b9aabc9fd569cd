"""docs/skirmish-format.md: its example is a valid scenario and behaves as the text says."""

from __future__ import annotations

from pathlib import Path

from events.games.skirmish import rules
from events.games.skirmish.board import load_scenario
from events.geometry.squares import square_step_block
from tests.games.skirmish.helpers import table
from tests.games.tables import json_blocks

DOC = Path(__file__).resolve().parents[3] / "docs" / "skirmish-format.md"


def test_sk_c1_the_documented_example_loads_as_described():
    """SK-C1: 5 × 3, door1 on C2|D2 in a wall, low objects B2, difficult terrain E2, pit B3."""
    example = json_blocks(DOC)[0]
    grid = load_scenario(example).grid
    assert (grid.width, grid.height) == (5, 3)
    assert grid.doors == (("door1", ((2, 1), (3, 1))),)
    assert grid.walls == (((2, 0), (3, 0)), ((2, 2), (3, 2)))
    assert (grid.low, grid.difficult, grid.pits) == (((1, 1),), ((4, 1),), ((1, 2),))


def test_sk_6_the_documented_example_behaves_as_the_text_says():
    """SK-6, SK-3, SK-5: no sight of Zed and no way to D2 while door1 is closed; B2 costs 2; B3 never."""
    example = json_blocks(DOC)[0]
    state = table(example).state
    ana = rules.figure(state, "ana")
    assert rules.sight(state, (0, 1), (4, 1))[0] is False
    reach = rules.destinations(state, ana, 12)
    assert (3, 1) not in reach and (1, 2) not in reach
    assert reach[(1, 1)][0] == 2


def test_sk_6_the_documented_blast_door_is_one_door_of_two_edges_beside_two_labelled_doors():
    """SK-6, SK-C6, SK-2: door1 is C2|D2 and C3|D3; labels a and b are door2 and door3; Leia at C2
    is in contact with door 1, the trooper at E3 is not; D4 touches all three doors; C2→D3 cuts
    the point between door1's edges."""
    blast = json_blocks(DOC)[1]
    state = table(blast).state
    assert state.grid.doors == (
        ("door1", ((2, 1), (3, 1)), ((2, 2), (3, 2))),
        ("door2", ((2, 3), (3, 3))),
        ("door3", ((2, 4), (3, 4))),
    )
    door1 = rules.door(state, "door1")
    assert rules.in_contact(state, rules.figure(state, "leia"), door1)
    assert not rules.in_contact(state, rules.figure(state, "tk1"), door1)
    assert all((3, 3) in rules.door_contact(state, item) for item in state.doors)
    reach = rules.destinations(state, rules.figure(state, "leia"), 12)
    assert (3, 1) not in reach and (3, 2) not in reach
    assert square_step_block((2, 1), (3, 2), rules.blocked_edges(state)) == ("corner", (3, 2))

"""Rules versions of the skirmish (issue 15, issue 19): skirmish-2 makes a wide door one door; a
game started under skirmish-1 keeps its doors as skirmish-1 read them, so its log replays as it was."""

from __future__ import annotations

import pytest

from events.bots import playout
from events.games import load
from events.games.skirmish import GAME_1, GAME_2, rules
from events.games.skirmish.model import Activate, DecideDoor, EndActivation, Move
from events.log import Accepted, Table, audit
from events.rng import Rng
from events.validate import ScenarioError
from tests.games.skirmish.helpers import BUILT_INS, builtin, fig, scenario

GAME = load("skirmish")
# Two D edges one above the other: one door under skirmish-2, two under skirmish-1.
ROWS = ["+-+-+-+", "|. .D.|", "+ + + +", "|. .D.|", "+-+-+-+"]


def test_sk_6_skirmish_2_joins_the_d_edges_that_skirmish_1_kept_apart():
    """SK-6: the same scenario started under each version: one door of two edges, or two doors."""
    data = scenario(ROWS, [fig("a", "red", "A1"), fig("b", "blue", "C2")])
    now = Table.create(GAME_2, "g-2", data, 1)
    then = Table.create(GAME_1, "g-1", data, 1)
    assert now.envelopes[0].event.rules_version == "skirmish-2"
    assert then.envelopes[0].event.rules_version == "skirmish-1"
    assert [d.id for d in now.state.doors] == ["door1"]
    assert [d.id for d in then.state.doors] == ["door1", "door2"]
    assert now.state.grid.doors == (("door1", ((1, 0), (2, 0)), ((1, 1), (2, 1))),)


def test_sk_6_skirmish_1_refuses_a_door_label_as_it_always_did():
    """SK-6, SK-C1: labels are new in skirmish-2."""
    data = scenario(["+-+-+-+", "|. .a.|", "+-+-+-+"], [fig("a", "red", "A1"), fig("b", "blue", "C1")])
    with pytest.raises(ScenarioError, match=r"\$.map.rows\[1\]\[4\]: an edge is one of"):
        GAME_1.start(data, 1)


def test_sk_6_a_skirmish_1_game_on_side_by_side_doors_replays_and_audits_under_skirmish_2():
    """SK-6, SK-7: a skirmish-1 game whose a opens only the upper of two D doors replays under
    today's object with every hash and audits: its doors stay two."""
    data = scenario(ROWS, [fig("a", "red", "A1"), fig("b", "blue", "C2")])
    table = Table.create(GAME_1, "g-1", data, 1)
    for seat, command in (("red", Activate("a")), ("red", Move("a", (1, 0))), ("red", EndActivation("a")),
                          ("red", DecideDoor("a", "door1", True))):
        assert isinstance(table.submit(seat, command, f"c-{table.seq}"), Accepted)
    assert [(d.id, d.open) for d in table.state.doors] == [("door1", True), ("door2", False)]
    restored = Table.restore(GAME, "g-1", table.envelopes)  # every logged hash checked
    assert restored.state == table.state
    assert audit(GAME, table.envelopes) is None


@pytest.mark.parametrize("name", BUILT_INS[:3])
def test_sk_c5_a_random_skirmish_1_game_on_a_built_in_audits_under_skirmish_2(name):
    """SK-C5: the built-ins of skirmish-1 have one-edge doors only: their games are the same under
    both versions, hash for hash."""
    table = Table.create(GAME_1, "g-1", builtin(name), 3)
    playout(table, {}, Rng(11), 150)
    assert table.envelopes[0].event.rules_version == "skirmish-1"
    assert audit(GAME_2, table.envelopes) is None
    assert Table.restore(GAME, "g-1", table.envelopes).state == table.state
    assert rules.RULES_VERSION == "skirmish-3" and GAME.previous.previous is GAME_1

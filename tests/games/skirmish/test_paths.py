"""A Move along the path its side chose (issue 15): every step checked, the first illegal one
refused with its clause and the step; without a path, the cheapest legal one as before (SK-C2).

The hostile cases come first: a path is data a client sends, so every shape of it is answered
with a Rejection (the frame layer already refuses floats and objects with a ``$`` path).
"""

from __future__ import annotations

import json

import pytest

from events.games.skirmish import rules
from events.games.skirmish.model import Activate, DecideDoor, EndActivation, FigureMoved, Move
from events.log import audit
from events.record import to_data
from events.rules import Rejection
from tests import english
from tests.games.skirmish.helpers import GAME, act, activate, builtin, end, fig, said, scenario, table

# A 5 × 3 room cut at x = 2 by the walls B1|C1 and B3|C3 with door1 (B2|C2) between them; low
# objects at C1, difficult terrain at C3, a pit at E2.
ROOM = [
    "+-+-+-+-+-+",
    "|. .|= . .|",
    "+ + + + + +",
    "|. .D. . O|",
    "+ + + + + +",
    "|. .|~ . .|",
    "+-+-+-+-+-+",
]


def room(*extra, speed: int = 6) -> object:
    """a (red, 6 points, 12 this activation) at A2, acting; blue's b at E1; ``extra`` figures."""
    tab = table(scenario(ROOM, [fig("a", "red", "A2", speed=speed), fig("b", "blue", "E1"), *extra]))
    activate(tab, "a")
    return tab


def walk(tab, *squares, figure: str = "a", to: tuple | None = None):
    return act(tab, "red", Move(figure, to if to is not None else squares[-1], tuple(squares)))


# --- hostile paths -----------------------------------------------------------------------------------


def test_sk_c1_an_empty_path_is_refused():
    """SK-C1: a path is the squares entered, in order, at least one."""
    refused = act(room(), "red", Move("a", (1, 1), ()))
    assert said(refused) == ("SK-C1", "a Move's path is a list of the squares entered, [[x, y], ...], at least "
                                "one, got []")


def test_sk_c2_a_path_must_end_where_the_move_goes():
    """SK-C2: path and destination say the same thing, or the Move is refused."""
    tab = room()
    refused = act(tab, "red", Move("a", (0, 0), ((1, 1),)))
    assert said(refused) == ("SK-C2", "the path ends on B2, not on A1, where the Move goes")
    refused = act(tab, "red", Move("a", (-1, 0), ((1, 1),)))
    assert said(refused) == ("SK-C2", "the path ends on B2, not on [-1, 0], where the Move goes")


def test_sk_c1_a_step_off_the_map_or_to_a_far_square_is_refused_at_that_step():
    """SK-C1, SK-C2: a step goes to one of the 8 neighbours on the map."""
    tab = room()
    assert said(walk(tab, (-1, 1))) == ("SK-C1", "step 1, A2→[-1, 1]: [-1, 1] is off the 5 × 3 map")
    assert said(walk(tab, (0, 0), (0, 2))) == ("SK-C2", "step 2, A1→A3: a step goes to one of the 8 "
                                                  "neighbouring squares")
    assert walk(tab, (0, 0), (0, 0)).reason == "step 2, A1→A1: a step goes to one of the 8 neighbouring squares"


def test_sk_c2_a_path_of_ten_thousand_steps_is_refused_where_the_points_run_out():
    """SK-C2: however long the path, the step past the points left is refused (12 here: A2↔A1)."""
    tab = room()
    path = ((0, 0), (0, 1)) * 5000
    refused = walk(tab, *path)
    assert said(refused) == ("SK-C2", "step 13, A2→A1: costs 1, 13 in all; A has 12 movement points left")


# --- each step checked, with its clause ----------------------------------------------------------------


def test_sk_1_a_chosen_step_across_a_wall_is_refused_not_rerouted():
    """SK-1: B1→C1 crosses the wall B1|C1; without a path the engine would go round by the door
    if it could, with one it refuses the step."""
    tab = room()
    refused = walk(tab, (0, 0), (1, 0), (2, 0))
    assert said(refused) == ("SK-1", "step 3, B1→C1: crosses the wall B1|C1: a wall stops movement")


def test_sk_6_a_chosen_step_through_a_closed_door_is_refused():
    """SK-6: B2→C2 through door1, closed."""
    tab = room()
    assert said(walk(tab, (1, 1), (2, 1))) == ("SK-6", "step 2, B2→C2: crosses the closed door door1 (B2|C2): "
                                                  "a closed door is a wall")


def test_sk_2_a_chosen_diagonal_past_a_walls_end_or_a_closed_doors_corner_is_refused():
    """SK-2: B1→C2 cuts the point (2, 1) where the wall B1|C1 and door1 meet."""
    tab = room()
    refused = walk(tab, (1, 0), (2, 1))
    assert refused.rule == "SK-2"
    assert refused.reason == ("step 2, B1→C2: the diagonal step cuts the corner point (2, 1), which the wall B1|C1, "
                              "the closed door door1 (B2|C2) touches")


def test_sk_5_a_chosen_step_into_a_pit_is_refused():
    """SK-5: after door1 opens, D2→E2 enters the pit."""
    tab = room()
    act(tab, "red", Move("a", (1, 1)))
    end(tab, "a")
    act(tab, "red", DecideDoor("a", "door1", True))
    activate(tab, "b")
    act(tab, "blue", EndActivation("b"))
    act(tab, "red", Activate("a"))
    assert said(walk(tab, (2, 1), (3, 1), (4, 1))) == ("SK-5", "step 3, D2→E2: E2 is a pit: no figure may "
                                                          "enter it")


def test_sk_c2_a_chosen_path_through_an_enemy_is_refused_and_through_an_ally_is_taken():
    """SK-C2: figures pass through allies, never through enemies, and never stop on an ally."""
    tab = room(fig("c", "red", "A1"), fig("e", "blue", "A3"))
    assert said(walk(tab, (0, 2), (1, 2))) == ("SK-C2", "step 1, A2→A3: A3 holds the enemy E: no figure "
                                                  "enters an enemy's square")
    refused = walk(tab, (0, 0))
    assert refused.rule == "SK-C2" and "may pass through an ally but not stop on it" in refused.reason
    moved = walk(tab, (0, 0), (1, 0))
    assert moved[0] == FigureMoved("a", (0, 1), (1, 0), ((0, 0), (1, 0)), 2, (), ((0, 0),), True)


def test_sk_3_a_chosen_step_into_low_objects_costs_double_and_is_refused_past_the_points():
    """SK-3, SK-4: a (speed 1: 2 points this activation) at D2; the diagonal step into C1's low
    objects costs 2 × 2 = 4, and D2→C2→C3 ends with 2 into difficult terrain, 3 in all: each
    refusal names the doubling that made the step too dear."""
    tab = table(scenario(ROOM, [fig("a", "red", "D2", speed=1), fig("b", "blue", "E3")]))
    activate(tab, "a")
    refused = walk(tab, (2, 0))
    assert said(refused) == ("SK-3", "step 1, D2→C1: entering low objects costs double (4), 4 in all; A "
                                "has 2 movement points left")
    refused = walk(tab, (2, 1), (2, 2))
    assert said(refused) == ("SK-4", "step 2, C2→C3: entering difficult terrain costs double (2), 3 in all; "
                                "A has 2 movement points left")


def test_sk_c2_a_chosen_costlier_path_is_walked_and_logged_as_chosen():
    """SK-C2: A2→A1→B1→B2 (3 points) instead of the cheapest (B2 directly, 1): the log records
    the path walked, its cost and that it was chosen; the trace says so; the move audits."""
    tab = room()
    moved = walk(tab, (0, 0), (1, 0), (1, 1))
    assert moved == [FigureMoved("a", (0, 1), (1, 1), ((0, 0), (1, 0), (1, 1)), 3, (), (), True)]
    assert rules.movement_left(tab.state, rules.figure(tab.state, "a")) == 9
    assert english.trace(GAME, moved[0], tab.state) == [
        "A: A2 → A1 → B1 → B2, 3 movement points (the path its side chose, every step checked, SK-C2)"]
    assert to_data(moved[0])["chosen"] is True
    assert audit(GAME, tab.envelopes) is None


def test_sk_c2_without_a_path_the_cheapest_legal_path_is_taken_and_the_path_ends_elsewhere_than_it_began():
    """SK-C2: no path, the engine's cheapest path (chosen false); a path back to the start is refused."""
    tab = room()
    assert said(walk(tab, (0, 0), (0, 1))) == ("SK-C2", "the path ends on A2, where A started: a move ends "
                                                  "elsewhere")
    moved = act(tab, "red", Move("a", (1, 0)))
    assert moved[0].path == ((1, 0),) and moved[0].chosen is False and moved[0].cost == 2


def test_sk_c2_old_moves_and_events_decode_without_the_new_fields():
    """SK-C2: a skirmish-1 log's Move has no path and its FigureMoved no chosen: they decode as
    the cheapest path, not chosen."""
    move = GAME.commands.build({"type": "Move", "figure": "a", "to": [1, 1]})
    assert move == Move("a", (1, 1), None)
    moved = GAME.events.build({"type": "FigureMoved", "figure": "a", "start": [0, 1], "to": [1, 1],
                               "path": [[1, 1]], "cost": 1, "doubled": [], "passed": []})
    assert moved.chosen is False


def test_sk_c2_a_path_in_a_built_in_game_is_legal_where_the_cheapest_path_is():
    """SK-C2: every legal destination of Zombie 3 in skirmish/purge is reached by its own cheapest
    path given explicitly, at the same cost."""
    tab = table(builtin("purge"), seed=5)
    act(tab, "zombies", Activate("z3"))
    item = rules.figure(tab.state, "z3")
    for square, (cost, path) in sorted(rules.destinations(tab.state, item).items()):
        result = GAME.decide(tab.state, "zombies", Move("z3", square, path), None)
        assert isinstance(result, list) and result[0].cost == cost, (square, result)


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("B2", '$.command.data.path: expected a list or null, got "B2"'),
        (7, "$.command.data.path: expected a list or null, got 7"),
        ([[1, 1], [2]], "$.command.data.path[1]: expected a list of 2, got a list of 1"),
        ([[1, 1], ["a", "b"]], '$.command.data.path[1][0]: expected an integer, got "a"'),
        ([[True, False]], "$.command.data.path[0][0]: expected an integer, got true"),
        ([[1, 1], [1, 1, 1]], "$.command.data.path[1]: expected a list of 2, got a list of 3"),
        ([None], "$.command.data.path[0]: expected a list of 2, got null"),
        ([[0, 0]] * 60 + ["x" * 500], '$.command.data.path[60]: expected a list of 2, got "' + "x" * 40 + '…"'),
        ([[1, 1.5]], "$.command.data.path[0][1]: floats are not allowed (got 1.5)"),
        ([{"x": 1}], "$.command.data.path[0]: expected a list of 2, got an object"),
    ],
)
def test_sk_c1_a_path_that_is_not_a_list_of_squares_gets_bad_frame_with_its_path(path, where):
    """SK-C1 at the edge: Move.KINDS makes a path a list of squares [x, y] (or null); the server's
    frame decoder refuses anything else with ``bad-frame`` and the ``$`` path of the fault (a long
    value cut short), before any rule is asked."""
    from server import frames

    frame = frames.decode_client_frame(json.dumps({"type": "command", "id": "c-1", "command": {
        "type": "Move", "data": {"figure": "a", "to": [1, 1], "path": path}}}))
    with pytest.raises(frames.FrameError) as raised:
        frames.build_command(GAME, frame)
    assert raised.value.code == "bad-frame" and raised.value.message == where


# --- what the browser's waypoints are built from ---------------------------------------------------------


def test_sk_c2_a_waypoint_leg_is_the_step_asked_or_the_cheapest_way_or_a_straight_line():
    """SK-C2: a neighbour is one step even across a wall (the rules refuse it when sent); a far
    square is reached the cheapest legal way; one no legal way reaches, by a straight line."""
    tab = room()
    state = tab.state
    item = rules.figure(state, "a")
    assert rules.path_leg(state, item, (1, 0), (2, 0)) == ((2, 0),)  # across the wall B1|C1
    assert rules.path_leg(state, item, (0, 1), (0, 1)) == ()
    assert rules.path_leg(state, item, (0, 1), (1, 2)) == ((1, 2),)
    assert rules.path_leg(state, item, (0, 0), (0, 2)) == ((0, 1), (0, 2))
    assert rules.path_leg(state, item, (0, 1), (3, 1)) == ((1, 1), (2, 1), (3, 1))  # no way: straight on


def test_sk_3_a_planned_path_shows_its_running_cost_doubled_into_low_objects():
    """SK-C2, SK-3, SK-4: D2→C1 (diagonal into low objects: 4), C1→D1 (1), D1→D2 (1), D2→C3
    (diagonal into difficult terrain: 4): 4, 5, 6, 10."""
    tab = room()
    assert rules.path_costs(tab.state, (3, 1), ((2, 0), (3, 0), (3, 1), (2, 2))) == (4, 5, 6, 10)


def test_sk_c2_any_path_a_client_can_send_gets_events_or_a_cited_rejection():
    """SK-C2, SK-C1: random paths (squares on and off the map, repeats, far jumps) never raise:
    each is accepted with the cost of its steps, or refused under a clause of the catalogue."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    tab = room(fig("c", "red", "B1"))
    state = tab.state
    clauses = set(GAME.catalogue.ids())
    squares = st.tuples(st.integers(-2, 6), st.integers(-2, 4))

    @settings(max_examples=300, deadline=None)
    @given(path=st.lists(squares, min_size=1, max_size=14))
    def check(path):
        result = GAME.decide(state, "red", Move("a", path[-1], tuple(path)), None)
        if isinstance(result, Rejection):
            assert result.rule in clauses and result.reason
        else:
            assert result[0].path == tuple(path) and result[0].cost == rules.path_costs(state, (0, 1), tuple(path))[-1]

    check()

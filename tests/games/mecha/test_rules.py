"""Expeditions' Move action, one test per clause (shared/rules/mecha.md).

Each test names its clause (``mv_6a`` in the name, ``MV-6a`` in the docstring) and asserts both the
rule ID and the specific fact of every rejection. Boards are hand-set with ``helpers.scenario``.
"""

from __future__ import annotations

import pytest

from events.canonical import state_hash
from events.games.mecha import model, rules
from events.rng import LoadedDiceMismatch, LoadedRng
from tests import english
from tests.games.mecha.helpers import GAME, act, builtin, chain, line, loc, scenario, table
from tests.games.tables import rejected


def moved(events) -> model.MechMoved:
    assert isinstance(events, list), events
    assert isinstance(events[0], model.MechMoved), events
    return events[0]


# --- MV-1 Move --------------------------------------------------------------------------------------


def test_mv_1_moves_to_an_empty_location_within_range():
    """MV-1: a Move takes the Mecha to another empty Location within Range."""
    tab = table(scenario(line(4), chain(4)))
    events = act(tab, "red", model.Move(2))
    assert events == [model.MechMoved("red", None, 2, (2,), ()), model.TurnEnded("red", "blue", 1)]
    assert tab.state.positions == (2, None)


def test_mv_1_occupied_destination_is_refused():
    """MV-1: the destination must hold no Mecha; the rejection names who is there."""
    tab = table(scenario(line(4), chain(4), start={"red": 1, "blue": 3}))
    before = tab.seq
    rejected(act(tab, "red", model.Move(3)), "MV-1", "Location 3 is occupied by blue's Mecha")
    assert tab.seq == before
    assert model.Move(3) not in GAME.legal(tab.state, "red")


def test_mv_1_unknown_location_is_refused():
    """MV-1: a Move goes to a Location of this board."""
    tab = table(scenario(line(4), chain(4)))
    rejected(act(tab, "red", model.Move(99)), "MV-1", "no Location 99")
    rejected(act(tab, "red", model.Move("north")), "MV-1", "a Location number", "'north'")


# --- MV-2 Camp --------------------------------------------------------------------------------------


def test_mv_2_camp_leads_to_exactly_its_three_locations():
    """MV-2: the Camp touches 3 Locations; with Range 1 only they can be reached from it."""
    locations = line(6)
    tab = table(scenario(locations, chain(6), camp=(2, 4, 6), ranges={"red": (1, 1)}))
    assert GAME.legal(tab.state, "red") == [model.Move(2), model.Move(4), model.Move(6), model.Pass()]
    assert sorted(rules.destinations(tab.state, 0)) == [2, 4, 6]


def test_mv_2_from_the_camp_range_counts_its_first_step():
    """MV-2: the step out of the Camp is the first of the Range (Camp → 1 → 2 → 3, not 4)."""
    tab = table(scenario(line(7), chain(5), camp=(1, 6, 7)))
    options = rules.destinations(tab.state, 0)
    assert options[3] == (1, 2, 3)
    rejected(act(tab, "red", model.Move(4)), "MV-3", "Location 4 is 4 steps from the Camp")


def test_mv_2_the_camp_is_never_reentered():
    """MV-2: the Camp is not a Location; a Mecha that has left it never returns."""
    tab = table(scenario(line(4), chain(4), start={"red": 1}))
    rejected(act(tab, "red", model.Move("camp")), "MV-2", "the Camp is not a Location")
    rejected(act(tab, "red", model.Move("Camp")), "MV-2", "never returns")
    assert all(isinstance(command.to, int) for command in GAME.legal(tab.state, "red")[:-1])


def test_mv_2_no_route_passes_through_the_camp():
    """MV-2: Locations 1 and 3 touch only through the Camp, so 1 cannot reach 3 or 4."""
    tab = table(scenario(line(4), [(1, 2), (3, 4)], start={"red": 1}))
    assert sorted(rules.destinations(tab.state, 0)) == [2]
    rejected(act(tab, "red", model.Move(3)), "MV-2", "from Location 1 to Location 3 passes through the Camp")
    rejected(act(tab, "red", model.Move(4)), "MV-2", "Location 4")


def test_mv_2_mechas_leave_the_camp_one_after_another():
    """MV-2: several Mechas start in the Camp together; a Mecha in the Camp occupies no Location."""
    tab = table(scenario(line(4), chain(4), seats=("red", "blue", "green")))
    assert tab.state.positions == (None, None, None)
    moved(act(tab, "red", model.Move(1)))
    assert moved(act(tab, "blue", model.Move(2))).path == (2,)
    assert model.Move(1) not in GAME.legal(tab.state, "green")


def test_mv_2_a_board_whose_camp_touches_two_locations_is_refused():
    """MV-2: the Camp must be adjacent to exactly 3 Locations (checked at load, MV-C1)."""
    from events.validate import ScenarioError

    with pytest.raises(ScenarioError) as caught:
        table(scenario(line(4), chain(4), camp=(1, 2)))
    assert caught.value.path == "$.board.camp.adjacent"
    assert "exactly 3 Locations (MV-2), got 2" in str(caught.value)


def test_mv_1_a_location_no_route_reaches_is_refused():
    """MV-1: a board may leave a Location unlinked (MV-C1); no route, not even through the Camp, reaches
    it, so it is within no Range: MV-1 ("another Location within Range") refuses it, in turn and out of it."""
    tab = table(scenario(line(4), chain(3), start={"red": 1}))
    rejected(act(tab, "red", model.Move(4)), "MV-1", "no route on this board links Location 1 to Location 4")
    tab = table(scenario(line(4), chain(3)))
    rejected(act(tab, "red", model.Move(4)), "MV-1", "links the Camp to Location 4")
    tab = table(scenario(line(6), chain(4) + [(5, 6)], start={"red": 4, "blue": 1}))
    rejected(act(tab, "blue", model.Move(6)), "MV-1", "no route on this board links Location 1 to Location 6")


# --- MV-3 Range -------------------------------------------------------------------------------------


def test_mv_3_default_range_is_one_to_three():
    """MV-3: by default Locations 1 to 3 steps away; a fourth step is out of Range."""
    tab = table(scenario(line(7), chain(7), camp=(1, 6, 7), start={"red": 1}))
    assert sorted(rules.destinations(tab.state, 0)) == [2, 3, 4]
    rejected(act(tab, "red", model.Move(5)), "MV-3", "Location 5 is 4 steps from Location 1", "Range is 1–3")


def test_mv_3_an_ability_may_give_range_one_to_four():
    """MV-3 / MV-C3: a Move ability states its own Range (one Mecha moves 1–4)."""
    tab = table(scenario(line(7), chain(7), camp=(1, 6, 7), start={"red": 1}, ranges={"red": (1, 4)}))
    assert sorted(rules.destinations(tab.state, 0)) == [2, 3, 4, 5]
    assert moved(act(tab, "red", model.Move(5))).path == (2, 3, 4, 5)


def test_mv_3_three_mechs_scenario_gives_blue_range_four():
    """MV-3 / MV-C3: the built-in three-mechs scenario gives blue's Mecha Range 1–4."""
    state = table(builtin("three-mechs")).state
    assert [(seat.seat, seat.range_min, seat.range_max) for seat in state.seats] == [
        ("red", 1, 3), ("blue", 1, 4), ("green", 1, 3),
    ]


def test_mv_3_a_minimum_range_refuses_nearer_locations():
    """MV-3: with Range 2–3 an adjacent Location is too near, and the reason says how near."""
    tab = table(scenario(line(5), chain(5), camp=(1, 4, 5), start={"red": 1}, ranges={"red": (2, 3)}))
    assert sorted(rules.destinations(tab.state, 0)) == [3, 4]
    rejected(act(tab, "red", model.Move(2)), "MV-3", "Location 2 is 1 step from Location 1", "Range is 2–3")


def test_mv_3_ending_where_the_move_began_is_refused():
    """MV-3: a Move must end in a Location other than the one it began in."""
    tab = table(scenario(line(4), chain(4), start={"red": 2}))
    rejected(act(tab, "red", model.Move(2)), "MV-3", "already in Location 2", "must end elsewhere")
    assert model.Move(2) not in GAME.legal(tab.state, "red")


# --- MV-4 Passing through ---------------------------------------------------------------------------


def test_mv_4_passing_through_an_occupied_location_is_allowed_and_recorded():
    """MV-4: a Mecha may pass through Locations other Mechas hold; the event lists them."""
    tab = table(scenario(line(5), chain(5), camp=(1, 4, 5), start={"red": 1, "blue": 2}))
    event = moved(act(tab, "red", model.Move(4)))
    assert event == model.MechMoved("red", 1, 4, (2, 3, 4), (2,))


def test_mv_4_occupied_locations_count_towards_range():
    """MV-4: the occupied Location 2 counts like an empty one, so Location 5 is 4 steps away."""
    tab = table(scenario(line(6), chain(6), camp=(1, 5, 6), start={"red": 1, "blue": 2}))
    rejected(act(tab, "red", model.Move(5)), "MV-3", "Location 5 is 4 steps")


def test_mv_4_card_spaces_are_never_entered():
    """MV-4: the central cards are not Locations: naming one is refused."""
    tab = table(scenario(line(4), chain(4), cards=(("A", (50, 50)), ("B", (51, 50)))))
    rejected(act(tab, "red", model.Move("A")), "MV-4", "card space A", "not a Location")
    assert all(command.to in (1, 2, 3, 4) for command in GAME.legal(tab.state, "red")[:-1])


def test_mv_4_card_spaces_are_never_counted():
    """MV-4: a card space between two Location hexes does not link them (hex-derived adjacency)."""
    # Check: hexes (0,0) and (1,1) both touch the card at (1,0), but Locations 1 and 2 are only
    # linked round by (0,1), Location 3.
    locations = [loc(1, hex=[0, 0]), loc(2, hex=[1, 1]), loc(3, hex=[0, 1]), loc(4, hex=[5, 5])]
    tab = table(scenario(locations, None, camp=(1, 2, 4), cards=(("A", (1, 0)),), start={"red": 1}))
    assert tab.state.board.links == ((1, 3), (2, 3))
    assert moved(act(tab, "red", model.Move(2))).path == (3, 2)


def test_mv_4_sample_board_card_spaces_are_not_nodes():
    """MV-4: on the sample board no card-space hex is a node, and 3 and 10 (split by card D) are not linked."""
    board = table(builtin("sample")).state.board
    card_hexes = {hex for _name, hex in board.card_spaces}
    assert not card_hexes & {location.hex for location in board.locations}
    assert (3, 10) not in board.links


# --- MV-5 No valid destination ----------------------------------------------------------------------


def boxed_in():
    """Red in Location 1, blue and green on the only two other Locations."""
    return table(scenario(line(3), chain(3), seats=("red", "blue", "green"), start={"red": 1, "blue": 2, "green": 3}))


def test_mv_5_no_destination_offers_move_none():
    """MV-5: with no valid destination, legal() offers the Move action with no destination."""
    tab = boxed_in()
    assert rules.destinations(tab.state, 0) == {}
    assert GAME.legal(tab.state, "red") == [model.Move(None), model.Pass()]


def test_mv_5_move_none_is_accepted_as_staying_put():
    """MV-5: the Mecha does not move; the action simply passes."""
    tab = boxed_in()
    events = act(tab, "red", model.Move(None))
    assert events == [model.MechStayed("red", 1), model.TurnEnded("red", "blue", 1)]
    assert tab.state.positions == (1, 2, 3)
    assert tab.state.turn == 1


def test_mv_5_move_none_is_refused_while_a_destination_exists():
    """MV-5: the "no destination" Move is only for the rare case; the reason lists the options."""
    tab = table(scenario(line(4), chain(4), start={"red": 1}))
    rejected(act(tab, "red", model.Move(None)), "MV-5", "valid ones exist: 2, 3, 4")


# --- MV-6 Face-down Location ------------------------------------------------------------------------


def test_mv_6_entering_a_face_down_location_ends_the_move():
    """MV-6: a face-down Location cannot be passed through: beyond it nothing is reachable."""
    tab = table(scenario(line(5, down=(2,)), chain(5), camp=(1, 4, 5), start={"red": 1}))
    assert sorted(rules.destinations(tab.state, 0)) == [2]
    rejected(act(tab, "red", model.Move(3)), "MV-6", "passes through a face-down Location", "Location 1 → 2 → 3",
             "through 2", "entering one ends the move")


def test_mv_6_shortest_legal_route_goes_round_a_face_down_location():
    """MV-6: 1 → 2 → 4 would cross face-down 2, so the move takes 1 → 3 → 5 → 4 instead."""
    locations = line(5, down=(2,))
    tab = table(scenario(locations, [(1, 2), (2, 4), (1, 3), (3, 5), (5, 4)], start={"red": 1}))
    assert moved(act(tab, "red", model.Move(4))).path == (3, 5, 4)


def test_mv_6_face_down_start_is_refused():
    """MV-6: no Mecha stands on a face-down Location, so a scenario cannot start one there."""
    from events.validate import ScenarioError

    with pytest.raises(ScenarioError) as caught:
        table(scenario(line(4, down=(2,)), chain(4), start={"red": 2}))
    assert caught.value.path == "$.start.red"
    assert "Location 2 is face down" in str(caught.value)


def test_mv_6_reveal_steps_come_in_order():
    """MV-6: map token (MV-6a), then face up (MV-6b), then Corruption (MV-6c), after the move."""
    tab = table(scenario(line(4, down=(2,), levels={2: 3}), chain(4)))
    events = act(tab, "red", model.Move(2), dice=(3,))
    assert [type(event) for event in events] == [
        model.MechMoved, model.PlanTokenGained, model.LocationRevealed, model.CorruptionDrawn, model.TurnEnded,
    ]


def test_mv_6_revealed_location_can_be_passed_through_later():
    """MV-6: once face up, a Location is passed through like any other."""
    tab = table(scenario(line(5, down=(2,)), chain(5), camp=(1, 4, 5), seats=("red",), start={"red": 1}))
    act(tab, "red", model.Move(2))
    act(tab, "red", model.Move(1))
    assert moved(act(tab, "red", model.Move(4))).path == (2, 3, 4)


def test_mv_6a_the_mover_gains_the_map_token():
    """MV-6a: its player gains the map token on that Location."""
    tab = table(scenario(line(4, down=(3,)), chain(4)))
    events = act(tab, "red", model.Move(3))
    assert model.PlanTokenGained("red", 3) in events
    assert tab.state.plans == ((3,), ())
    assert 3 not in tab.state.map_tokens


def test_mv_6a_no_map_token_no_gain():
    """MV-6a: a face-down Location printed without a map token gives none, but is still revealed."""
    locations = [loc(1), loc(2, up=False, token=False), loc(3), loc(4)]
    tab = table(scenario(locations, chain(4)))
    events = act(tab, "red", model.Move(2))
    assert not any(isinstance(event, model.PlanTokenGained) for event in events)
    assert model.LocationRevealed("red", 2) in events
    assert tab.state.plans == ((), ())


def test_mv_6b_the_location_is_turned_face_up():
    """MV-6b: the Location is turned face up and counted for the seat that revealed it."""
    tab = table(scenario(line(4, down=(3,)), chain(4)))
    assert 3 not in tab.state.face_up
    act(tab, "red", model.Move(3))
    assert 3 in tab.state.face_up
    assert tab.state.revealed == ((3,), ())


def test_mv_6b_face_up_destination_reveals_nothing():
    """MV-6b: moving into a face-up Location has no reveal steps."""
    tab = table(scenario(line(4), chain(4)))
    assert act(tab, "red", model.Move(3)) == [model.MechMoved("red", None, 3, (3,), ()), model.TurnEnded("red", "blue", 1)]


def test_mv_6c_worked_example_level_5_first_token_4_draws_again():
    """MV-6c worked example: level 5+, the first token is worth 4, so a second one is drawn."""
    tab = table(scenario(line(4, down=(2,), levels={2: 5}), chain(4)))
    bag_before = dict(((value, colour), count) for value, colour, count in tab.state.bag)
    events = act(tab, "red", model.Move(2), dice=(4, 1))
    assert events[3:5] == [model.CorruptionDrawn(2, 4, "orange", 4, 5), model.CorruptionDrawn(2, 1, "orange", 5, 5)]
    assert len(events) == 6
    assert tab.state.stacks == ((2, ((4, "orange"), (1, "orange"))),)
    bag_after = dict(((value, colour), count) for value, colour, count in tab.state.bag)
    assert bag_after[(4, "orange")] == bag_before[(4, "orange")] - 1
    assert bag_after[(1, "orange")] == bag_before[(1, "orange")] - 1
    assert tab.envelopes[-1].dice is None and tab.envelopes[-6].dice == (4, 1)


def test_mv_6c_drawing_stops_once_the_level_is_reached():
    """MV-6c: a first token of 5 on a level-5 Location is enough: one draw."""
    tab = table(scenario(line(4, down=(2,), levels={2: 5}), chain(4)))
    events = act(tab, "red", model.Move(2), dice=(5,))
    assert [event for event in events if isinstance(event, model.CorruptionDrawn)] == [model.CorruptionDrawn(2, 5, "orange", 5, 5)]


def test_mv_6c_level_0_draws_nothing():
    """MV-6c: a sum of 0 already reaches level 0."""
    tab = table(scenario(line(4, down=(2,)), chain(4)))
    events = act(tab, "red", model.Move(2), dice=())
    assert not any(isinstance(event, model.CorruptionDrawn) for event in events)
    assert tab.state.stacks == ()


def test_mv_6c_draws_are_uniform_over_physical_tokens():
    """MV-6c / MV-C2: each token in the bag is one option, so a value with 3 tokens is 3 times as likely."""
    bag = {"tokens": [{"value": 1, "colour": "orange", "count": 3}, {"value": 2, "colour": "turquoise", "count": 1}]}
    tab = table(scenario(line(4, down=(2,), levels={2: 1}), chain(4), bag=bag))
    assert rules._tokens(tab.state.bag) == ((1, "orange"),) * 3 + ((2, "turquoise"),)


# --- MV-7 Location 20 -------------------------------------------------------------------------------


def board_with_20(bag: dict | None = None):
    locations = [loc(1), loc(2), loc(3), loc(20, level=0, up=False)]
    return table(scenario(locations, [(1, 2), (2, 3), (3, 20)], bag=bag, start={"red": 3}))


def test_mv_7_location_20_gets_the_20_token_instead_of_a_draw():
    """MV-7: revealing Location 20 places the value-20 token; the bag is not drawn from."""
    tab = board_with_20()
    bag_before = tab.state.bag
    events = act(tab, "red", model.Move(20), dice=())
    assert events == [
        model.MechMoved("red", 3, 20, (20,), ()), model.PlanTokenGained("red", 20), model.LocationRevealed("red", 20),
        model.CorruptionPlaced(20, 20, "orange"), model.TurnEnded("red", "blue", 1),
    ]
    assert tab.state.stacks == ((20, ((20, "orange"),)),)
    assert tab.state.token_20 is None
    assert tab.state.bag == bag_before


def test_mv_7_the_bag_never_gives_the_20_token():
    """MV-7 / MV-C2: the value-20 token is set aside at the start, so no draw can produce it."""
    tab = table(scenario(line(4, down=(2,), levels={2: 5}), chain(4)))
    assert tab.state.token_20 == (20, "orange")
    assert all(value != 20 for value, _colour, _count in tab.state.bag)
    with pytest.raises(LoadedDiceMismatch, match="loaded value 20 is not among the options"):
        GAME.decide(tab.state, "red", model.Move(2), LoadedRng((20,)))


def test_mv_7_the_20_token_is_set_aside_even_without_location_20():
    """MV-7 / MV-C2: the digest sets the value-20 token aside for Location 20; a board without it never uses it."""
    tab = table(scenario(line(4), chain(4)))
    assert tab.state.token_20 == (20, "orange")
    assert (20, "orange", 1) not in tab.state.bag


def test_mv_7_a_board_with_location_20_needs_the_token():
    """MV-7: a scenario whose board has Location 20 and whose bag lacks the 20-token is refused."""
    from events.validate import ScenarioError

    with pytest.raises(ScenarioError, match=r"\$\.bag: the board has Location 20, so the bag needs its value-20 token"):
        board_with_20({"tokens": [{"value": 1, "colour": "orange", "count": 3}]})


def test_mv_7_a_bag_holds_one_20_token():
    """MV-7: there is one value-20 token; a second would leave one drawable."""
    from events.validate import ScenarioError

    bag = {"tokens": [{"value": 20, "colour": "orange", "count": 1}, {"value": 20, "colour": "turquoise", "count": 1}]}
    with pytest.raises(ScenarioError) as caught:
        board_with_20(bag)
    assert caught.value.path == "$.bag.tokens[1].count"
    assert "one value-20 token (MV-7), got 2" in str(caught.value)


# --- MV-8 Empty bag ---------------------------------------------------------------------------------


def test_mv_8_empty_bag_stops_drawing_and_leaves_the_location():
    """MV-8: the bag runs out below the level: drawing stops and the Location stays as it is."""
    bag = {"tokens": [{"value": 1, "colour": "turquoise", "count": 2}]}
    tab = table(scenario(line(4, down=(2,), levels={2: 5}), chain(4), bag=bag))
    events = act(tab, "red", model.Move(2))
    assert events[3:] == [
        model.CorruptionDrawn(2, 1, "turquoise", 1, 5), model.CorruptionDrawn(2, 1, "turquoise", 2, 5), model.BagRanOut(2, 2, 5),
        model.TurnEnded("red", "blue", 1),
    ]
    assert tab.state.bag == ()
    assert tab.state.stacks == ((2, ((1, "turquoise"), (1, "turquoise"))),)


def test_mv_8_an_already_empty_bag_draws_nothing():
    """MV-8: revealing with an empty bag records that the bag ran out at sum 0."""
    bag = {"tokens": [{"value": 3, "colour": "orange", "count": 1}]}
    tab = table(scenario(line(4, down=(2, 3), levels={2: 3, 3: 2}), chain(4), bag=bag))
    act(tab, "red", model.Move(2))
    events = act(tab, "blue", model.Move(3))
    assert model.BagRanOut(3, 0, 2) in events
    assert not any(isinstance(event, model.CorruptionDrawn) for event in events)


def test_mv_8_scarce_bag_scenario_runs_out():
    """MV-8: the built-in scarce-bag scenario holds 8 drawable tokens (plus the set-aside 20)."""
    state = table(builtin("scarce-bag")).state
    assert sum(count for _value, _colour, count in state.bag) == 8
    assert state.token_20 == (20, "orange")


# --- MV-9 Worked example ----------------------------------------------------------------------------


def test_mv_9_blue_reaches_empty_location_12_through_reds_location():
    """MV-9: Blue moves into empty Location 12 by passing through the Location Red occupies."""
    from tests.games.mecha.helpers import DATA_DIR, read_scenario

    tab = table(read_scenario(DATA_DIR / "mv9-scenario.json"))
    # Check: red stands in Location 11, the only Location between blue (10) and Location 12.
    assert tab.state.positions == (11, 10)
    act(tab, "red", model.Pass())
    events = act(tab, "blue", model.Move(12))
    assert events[0] == model.MechMoved("blue", 10, 12, (11, 12), (11,))
    assert tab.state.positions == (11, 12)
    assert english.trace(GAME, events[0]) == [
        "blue's Mecha: Location 10 → 11 → 12 (2 steps, shortest legal path: MV-C4)",
        "passed through occupied Location 11 (MV-4, as in MV-9)",
    ]


# --- MV-C2 Bag as data ------------------------------------------------------------------------------


def test_mv_c2_each_draw_is_written_into_the_log():
    """MV-C2: draws are random, decided by the server, and each drawn token is in an event."""
    tab = table(scenario(line(4, down=(2,), levels={2: 6}), chain(4)), seed=11)
    events = act(tab, "red", model.Move(2))
    draws = [event for event in events if isinstance(event, model.CorruptionDrawn)]
    assert draws and draws[-1].total >= 6
    assert [event.value for event in draws] == [value for value, _colour in tab.state.stacks[0][1]]
    assert tab.envelopes[-1].dice is None


def test_mv_c2_the_bag_is_public_as_counts():
    """MV-C2: every seat and spectator sees the bag's counts (and nothing is hidden in this action)."""
    tab = table(scenario(line(4), chain(4)))
    for seat in ("red", "blue", None):
        assert GAME.view(tab.state, seat).bag == tab.state.bag
    assert tab.state.bag == tuple((value, "orange", 3) for value in (1, 2, 3, 4, 5))


# --- MV-C3 Turns ------------------------------------------------------------------------------------


def test_mv_c3_seats_act_in_turn_order():
    """MV-C3: only the seat whose turn it is may act; the others get a reason naming it."""
    tab = table(scenario(line(4), chain(4)))
    assert GAME.turn(tab.state) == ("red",)
    rejected(act(tab, "blue", model.Move(1)), "MV-C3", "it is red's turn, not blue's")
    assert GAME.legal(tab.state, "blue") == []
    act(tab, "red", model.Pass())
    assert GAME.turn(tab.state) == ("blue",)


def test_mv_c3_a_rule_that_forbids_the_move_anyway_is_cited_before_the_turn():
    """MV-1 / MV-2 / MV-4 before MV-C3: blue, out of turn, names a Location the board lacks, the Camp, a
    card space: each is refused under its clause; only a Move the rules allow is out of turn."""
    tab = table(builtin("sample"))
    assert GAME.turn(tab.state) == ("red",)
    rejected(act(tab, "blue", model.Move(42)), "MV-1", "there is no Location 42 on this board")
    rejected(act(tab, "blue", model.Move("camp")), "MV-2", "the Camp is not a Location")
    card = tab.state.board.card_spaces[0][0]
    rejected(act(tab, "blue", model.Move(card)), "MV-4", f"card space {card} holds a central card")
    rejected(act(tab, "blue", model.Move(2)), "MV-C3", "it is red's turn, not blue's")
    rejected(act(tab, "blue", model.Move(None)), "MV-C3", "it is red's turn, not blue's")


def test_mv_c3_pass_takes_no_move():
    """MV-C3: a seat may pass instead of moving."""
    tab = table(scenario(line(4), chain(4)))
    assert act(tab, "red", model.Pass()) == [model.TurnPassed("red"), model.TurnEnded("red", "blue", 1)]
    assert tab.state.positions == (None, None)


def test_mv_c3_rounds_advance_after_the_last_seat():
    """MV-C3: after the last seat, the first seat acts in the next round."""
    tab = table(scenario(line(4), chain(4)))
    act(tab, "red", model.Pass())
    assert act(tab, "blue", model.Pass())[-1] == model.TurnEnded("blue", "red", 2)
    assert (tab.state.turn, tab.state.round) == (0, 2)


def test_mv_c3_game_ends_after_the_last_round_with_tallies():
    """MV-C3: after the scenario's rounds the game is over; the tallies count this last move's reveal."""
    tab = table(scenario(line(4, down=(2,)), chain(4), rounds=1))
    act(tab, "red", model.Pass())
    events = act(tab, "blue", model.Move(2))
    assert events[-2:] == [model.TurnEnded("blue", "red", 2), model.GameEnded(1, (0, 1), (0, 1))]
    assert GAME.is_over(tab.state)
    assert GAME.turn(tab.state) == ()
    assert GAME.legal(tab.state, "red") == []
    rejected(act(tab, "red", model.Pass()), "MV-C3", "the game is over: all 1 rounds are played")


def test_mv_c3_unknown_seat_command_and_unstarted_game_are_refused():
    """MV-C3: only this game's seats and commands, and only once it has started."""
    tab = table(scenario(line(4), chain(4)))
    rejected(act(tab, "purple", model.Pass()), "MV-C3", "no seat 'purple'")
    rejected(act(tab, "red", model.TurnPassed("red")), "MV-C3", "TurnPassed is not a command of this game")
    rejected(GAME.decide(None, "red", model.Pass(), None), "MV-C3", "has not started")
    assert GAME.turn(None) == () and GAME.seats(None) == () and not GAME.is_over(None)
    assert GAME.seats(tab.state) == ("red", "blue")


# --- MV-C4 Route shown ------------------------------------------------------------------------------


def test_mv_c4_move_records_the_shortest_path():
    """MV-C4: the event carries the shortest legal path, not just the destination."""
    tab = table(scenario(line(6), [(1, 2), (2, 3), (3, 4), (1, 5), (5, 4), (4, 6)], start={"red": 1}))
    assert moved(act(tab, "red", model.Move(4))).path == (5, 4)


def test_mv_c4_equal_paths_break_ties_by_location_number():
    """MV-C4: among equally short paths the one through the lower-numbered Locations is recorded."""
    tab = table(scenario(line(5), [(1, 3), (1, 2), (3, 4), (2, 4), (4, 5)], start={"red": 1}))
    assert moved(act(tab, "red", model.Move(4))).path == (2, 4)


def test_mv_c4_trace_explains_draws_and_an_empty_bag():
    """MV-C4 / MV-6c / MV-8: the trace reads the route and every draw back from the log."""
    assert english.trace(GAME, model.CorruptionDrawn(15, 4, "orange", 4, 5)) == [
        "Location 15: drew 4, stack sum 4 against level 5+: below the level: draw again (MV-6c)"
    ]
    assert english.trace(GAME, model.CorruptionDrawn(15, 1, "orange", 5, 5))[0].endswith("level reached")
    assert english.trace(GAME, model.BagRanOut(15, 2, 5)) == [
        "Location 15: the bag is empty at sum 2 < level 5: drawing stops (MV-8)"
    ]
    assert english.trace(GAME, model.MechMoved("red", None, 2, (2,), ())) == [
        "red's Mecha: the Camp → 2 (1 step, shortest legal path: MV-C4)"
    ]
    assert english.trace(GAME, model.TurnPassed("red")) == []


# --- decide is pure ---------------------------------------------------------------------------------


def test_mv_c3_decide_never_changes_the_state_it_is_given():
    """MV-C3 (STYLE habit 2): decide reads the state; hashing it before and after finds no change."""
    tab = table(scenario(line(4, down=(2,), levels={2: 5}), chain(4)))
    before = state_hash(tab.state)
    for command in (model.Move(2), model.Move(4), model.Move(9), model.Move(None), model.Pass()):
        GAME.decide(tab.state, "red", command, LoadedRng((4, 1)))
        assert state_hash(tab.state) == before

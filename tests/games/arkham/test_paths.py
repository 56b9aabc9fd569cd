"""Arkham Horror: a Move along the path the player chose (issue 15), one test per clause it checks.

With ``Move(to, path)`` the engine walks the areas in order and refuses the first illegal step,
citing that step's clause (AH-3 for a missing yellow line, AH-2 for a step beyond the movement
points, AH-7 for a monster that stops the walk, AH-9 for an Other World) and naming the step;
without a path it keeps the cheapest route. The log records the path walked.
"""

from __future__ import annotations

import json

from events.games.arkham import rules
from events.games.arkham.model import Fight, InvestigatorMoved, Move, OfferTrade, Stop
from tests import english
from tests.games.arkham.helpers import GAME, act, inv, mon, scenario, table
from tests.games.tables import rejected


def test_ah_3_a_chosen_costlier_path_is_walked_and_logged():
    """AH-3: Graveyard → Rivertown → Merchant District → Miskatonic U. → Library, 4 points, though the
    cheapest route (through French Hill) costs the same: the player's route is the one recorded."""
    tab = table(scenario([inv("red", "graveyard")]))
    path = ("rivertown", "merchant_district", "miskatonic_u", "library")
    before = tab.state
    events = act(tab, "red", Move("library", path))
    assert events == [InvestigatorMoved("red", "graveyard", "library", "library", path, 0)]
    assert tab.envelopes[-1].command == Move("library", path)
    assert english.trace(GAME, events[0], before)[0] == (
        "red: Graveyard → Rivertown → Merchant Dist. → Miskatonic U. → Library, 4 points, one per yellow line (AH-3); 0 left")


def test_ah_3_a_path_may_wander_on_purpose():
    """AH-3: a longer way than needed is the player's right: Graveyard → Rivertown → Easttown → Rivertown, 3."""
    tab = table(scenario([inv("red", "graveyard")]))
    events = act(tab, "red", Move("rivertown", ("rivertown", "easttown", "rivertown")))
    assert events[0].path == ("rivertown", "easttown", "rivertown") and events[0].points_left == 1


def test_ah_3_a_location_to_a_street_with_no_yellow_line_is_refused_at_that_step():
    """AH-3: the Graveyard joins only Rivertown: a path stepping from it to French Hill is refused at step 1."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("the_witch_house", ("french_hill", "the_witch_house"))), "AH-3",
             "step 1: Graveyard has no yellow line to French Hill", "its own Street area, Rivertown")
    assert tab.state.investigators[0].where == "graveyard" and tab.state.points == 4


def test_ah_3_a_street_to_another_streets_location_is_refused():
    """AH-3: Rivertown → Library skips Miskatonic U.: a Location joins only its own Street area."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("library", ("rivertown", "library"))), "AH-3",
             "step 2: Rivertown has no yellow line to Library", "its own Street area, Miskatonic U.")


def test_ah_3_two_locations_never_join():
    """AH-3: Graveyard → Black Cave (both of Rivertown) is no step: Locations never join each other."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("black_cave", ("black_cave",))), "AH-3",
             "step 1: Graveyard → Black Cave: Locations never join each other")


def test_ah_3_streets_without_a_line_between_them():
    """AH-3: Rivertown and Uptown share no yellow line."""
    tab = table(scenario([inv("red", "rivertown")]))
    rejected(act(tab, "red", Move("uptown", ("uptown",))), "AH-3", "step 1: no yellow line joins Rivertown to Uptown")


def test_ah_3_unknown_areas_and_shapes_of_a_path():
    """AH-3: an unknown area in the path, a path that ends elsewhere than ``to``, a step that stays put:
    each refused with the step (a path that is no list of ids is refused at the edge: test_kinds.py)."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("french_hill", ("rivertown", "atlantis", "french_hill"))), "AH-3",
             "step 2: there is no area 'atlantis'")
    rejected(act(tab, "red", Move("french_hill", ("rivertown",))), "AH-3",
             "the path ends in Rivertown, not in French Hill")
    rejected(act(tab, "red", Move("rivertown", ("rivertown", "rivertown"))), "AH-3",
             "step 2: Rivertown is where the path already is")
    rejected(act(tab, "red", Move("rivertown", ("sky", "rivertown"))), "AH-3",
             "step 1: Sky is not joined to Arkham by any yellow line")


def test_ah_9_a_path_into_an_other_world_is_refused():
    """AH-9: no yellow line leads into an Other World area, even as a step on the way."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("rivertown", ("rlyeh_1", "rivertown"))), "AH-9",
             "step 1: R'lyeh (first area) is an Other World area")


def test_ah_2_more_steps_than_movement_points_is_refused_at_the_first_step_too_many():
    """AH-2: Speed 3: the fourth step of Graveyard → … → Library is refused, naming it and the cost."""
    tab = table(scenario([inv("red", "graveyard", speed=3)]))
    result = act(tab, "red", Move("library", ("rivertown", "french_hill", "miskatonic_u", "library")))
    rejected(result, "AH-2", "step 4 (Miskatonic U. → Library) needs a movement point",
             "the path costs 4, 3 are left of Speed 3")


def test_ah_2_a_path_longer_than_any_speed_is_refused_unread():
    """AH-2: a hostile path of 21+ steps is refused before any step is looked at (bound: PATH_LIMIT)."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", Move("rivertown", ("rivertown", "graveyard") * 10 + ("rivertown",))), "AH-2",
             "a path of 21 steps is longer than any Speed (at most 20)")
    assert rules.PATH_LIMIT == 20


def test_ah_7_a_monster_on_the_path_stops_the_walk_and_the_path_past_it_is_refused():
    """AH-7: a Zombie in Rivertown: a path through it is refused at the step that leaves Rivertown; a path
    ending there is walked; without a path the walk stops there (today's cheapest route)."""
    data = scenario([inv("red", "graveyard")], [mon("zombie", "rivertown")])
    tab = table(data)
    rejected(act(tab, "red", Move("french_hill", ("rivertown", "french_hill"))), "AH-7",
             "step 2: Zombie is in Rivertown: the walk stops there")
    events = act(tab, "red", Move("rivertown", ("rivertown",)))
    assert events == [InvestigatorMoved("red", "graveyard", "rivertown", "rivertown", ("rivertown",), 3)]
    other = table(data)
    events = act(other, "red", Move("french_hill"))
    assert events == [InvestigatorMoved("red", "graveyard", "rivertown", "french_hill", ("rivertown",), 3)]


def test_ah_7_a_path_avoiding_a_monster_street():
    """AH-7: a Zombie in Downtown: Northside → Merchant District → Rivertown → Easttown goes round it."""
    tab = table(scenario([inv("red", "northside")], [mon("zombie", "downtown")]))
    events = act(tab, "red", Move("easttown", ("merchant_district", "rivertown", "easttown")))
    assert events[0].to == "easttown" and events[0].points_left == 1


def test_ah_7_monsters_where_it_stands_are_faced_before_any_path():
    """AH-7: a monster in the start area is faced first, path or not."""
    tab = table(scenario([inv("red", "rivertown")], [mon("zombie", "rivertown")]))
    rejected(act(tab, "red", Move("french_hill", ("french_hill",))), "AH-7", "Zombie is in Rivertown")


def test_ah_3_without_a_path_the_cheapest_route_is_kept():
    """AH-3: Move(to) with no path (and every Move of a log before arkham-3) walks the cheapest route."""
    tab = table(scenario([inv("red", "graveyard")]))
    assert Move("library") == Move("library", ())
    assert act(tab, "red", Move("library"))[0].path == ("rivertown", "french_hill", "miskatonic_u", "library")
    assert GAME.commands.build({"type": "Move", "to": "woods"}) == Move("woods")
    assert act(tab, "red", Stop())[0].TYPE == "MovementEnded"


# --- refusal order: a rule before the turn (AH-1 only when nothing else forbids it) ----------------


def test_ah_1_out_of_turn_commands_cite_the_rule_that_forbids_them_anyway():
    """AH-3 / AH-9 / AH-C5 / AH-C10 before AH-1: blue, whose movement it is not, asks for what no seat could
    do; only a command no rule forbids is refused as out of turn (AH-1)."""
    tab = table(scenario([inv("red", "rivertown"), inv("blue", "rivertown"), inv("green", "yuggoth_1"),
                          inv("white", "lost_in_time_and_space")], [mon("zombie", "rivertown")]))
    rejected(act(tab, "blue", Move("sky")), "AH-3", "Sky is not joined to Arkham")
    rejected(act(tab, "blue", Move("atlantis")), "AH-3", "no area 'atlantis'")
    rejected(act(tab, "blue", Move("rlyeh_1")), "AH-9", "is an Other World area")
    rejected(act(tab, "green", Move("rivertown")), "AH-9", "is in an Other World: it gets no movement points")
    rejected(act(tab, "white", Move("rivertown")), "AH-C5", "is Lost in Time and Space")
    rejected(act(tab, "blue", Move("french_hill")), "AH-1", "it is red's movement, not blue's")
    act(tab, "red", Fight("zombie"), dice=(5, 5, 5))  # horror check passes: combat under way
    rejected(act(tab, "blue", OfferTrade("red", (), ("Lantern",))), "AH-C10", "no trading during combat")


def test_ah_c4_a_devoured_seat_is_told_it_is_out_of_the_game():
    """AH-C4 before AH-1: a devoured investigator's seat is out of the game, whatever it sends."""
    from events.games.arkham.model import Devoured
    from events.rng import LoadedRng

    tab = table(scenario([inv("red", "rivertown"), inv("blue", "northside")]))
    state = GAME.evolve(tab.state, Devoured("blue", "northside"))
    rejected(GAME.decide(state, "blue", Stop(), LoadedRng(())), "AH-C4", "was devoured: it is out of the game")


def test_ah_3_a_hostile_path_in_a_frame_is_refused_at_the_edge_with_its_path():
    """AH-3: what a client can put in ``path``: a float or an object is a bad frame naming
    ``$.command.data.path[i]``; a list of strings becomes the tuple the engine checks step by step;
    the frame's own size bound (MAX_FRAME_BYTES) caps any list before it is read."""
    import pytest

    from server import frames

    def build(data: dict):
        frame = frames.decode_client_frame(json.dumps({"type": "command", "id": "c-1",
                                                       "command": {"type": "Move", "data": data}}))
        return frames.build_command(GAME, frame)

    assert build({"to": "rivertown", "path": ["rivertown"]}) == Move("rivertown", ("rivertown",))
    for bad, where in (([1.5], "$.command.data.path[0]"), (["rivertown", {"x": 1}], "$.command.data.path[1]")):
        with pytest.raises(frames.FrameError) as raised:
            build({"to": "rivertown", "path": bad})
        assert raised.value.code == "bad-frame" and where in raised.value.message
    with pytest.raises(frames.FrameError) as raised:
        build({"to": "rivertown", "path": ["rivertown"] * 10**5})
    assert raised.value.code == "frame-too-large"

"""Arkham Horror's Movement phase, one test per clause (shared/rules/arkham.md).

Each test names its clause (``ah_7`` in the name, ``AH-7`` in the docstring) and asserts both the
clause ID and the specific fact of every rejection. Games are hand-set on the real board with
``helpers.scenario``; dice are loaded (``act(..., dice=(5, 2))``), and a test that gives no dice
proves that no die was rolled.
"""

from __future__ import annotations

import pytest

from events.canonical import state_hash
from events.games import load
from events.games.arkham import board as boards
from events.games.arkham import model, rules
from events.log import Table
from events.rng import LoadedDiceExhausted, LoadedRng
from tests import english
from tests.games.arkham.helpers import GAME, act, builtin, inv, investigator, mon, scenario, table, types
from tests.games.tables import rejected


def zombie_and_ghoul(**extra) -> dict:
    """Red in the Graveyard; a Zombie and a Ghoul hold Rivertown; blue far away in Northside."""
    return scenario(
        [inv("red", "graveyard", sneak=3, fight=4), inv("blue", "northside")],
        [mon("zombie", "rivertown", awareness=1, horror_rating=-1, combat_damage=2),
         mon("ghoul", "rivertown", awareness=-1)],
        **extra,
    )


# --- AH-1 Two kinds of movement -------------------------------------------------------------------


def test_ah_1_each_seat_moves_once_per_phase_in_seat_order():
    """AH-1: red moves, then blue; after the last seat the next Movement phase (round) begins."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], rounds=2))
    assert GAME.turn(tab.state) == ("red",)
    events = act(tab, "red", model.Stop())
    assert types(events) == ["MovementEnded", "TurnEnded", "MovementBegan"]
    assert events[1] == model.TurnEnded("red", "blue", 1)
    events = act(tab, "blue", model.Stop())
    assert events[1] == model.TurnEnded("blue", "red", 2)
    act(tab, "red", model.Stop())
    events = act(tab, "blue", model.Stop())
    assert events[-2:] == [model.TurnEnded("blue", "red", 3), model.GameEnded(2, "the last Movement phase is over")]
    assert GAME.is_over(tab.state) and GAME.turn(tab.state) == ()
    rejected(GAME.decide(tab.state, "red", model.Stop(), LoadedRng(())), "AH-1", "the game is over")


def test_ah_1_a_seat_moves_only_in_its_turn():
    """AH-1: one movement at a time; the refusal names whose movement it is."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")]))
    rejected(act(tab, "blue", model.Move("downtown")), "AH-1", "it is red's movement, not blue's")
    rejected(act(tab, "green", model.Stop()), "AH-1", "no seat 'green'")
    rejected(GAME.decide(None, "red", model.Stop(), LoadedRng(())), "AH-1", "not started")
    assert tab.seq == 2


def test_ah_1_the_kind_of_movement_follows_where_the_investigator_is():
    """AH-1: in Arkham a seat gets movement points; in an Other World it moves by its card."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "rlyeh_1")]))
    assert tab.envelopes[1].event == model.MovementBegan("red", "graveyard", 4, "AH-2")
    events = act(tab, "red", model.Stop())
    assert events[2:5] == [model.MovementBegan("blue", "rlyeh_1", 0, "AH-9"), model.MovedInOtherWorld("blue", "rlyeh_1", "rlyeh_2"),
                           model.TurnEnded("blue", "red", 2)]


# --- AH-2 Movement points -----------------------------------------------------------------------


def test_ah_2_movement_points_equal_speed():
    """AH-2: an investigator in Arkham gets movement points equal to its Speed."""
    tab = table(scenario([inv("red", "graveyard", speed=3)]))
    assert tab.state.points == 3
    assert tab.envelopes[-1].event == model.MovementBegan("red", "graveyard", 3, "AH-2")


def test_ah_2_an_area_beyond_speed_is_refused_with_distance_and_speed():
    """AH-2: "Woods is 5 points away; Speed is 4"."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", model.Move("woods")), "AH-2", "Woods is 5 points away; Speed is 4")
    assert model.Move("woods") not in GAME.legal(tab.state, "red")


def test_ah_2_points_spent_are_gone():
    """AH-2: after 2 of 4 points, a 3-point walk is refused naming the points left; at 0, any walk."""
    tab = table(scenario([inv("red", "graveyard")]))
    assert act(tab, "red", model.Move("french_hill"))[0].points_left == 2
    rejected(act(tab, "red", model.Move("ye_olde_magick_shoppe")), "AH-2",
             "Ye Olde Magick Shoppe is 3 points away; 2 movement points are left of Speed 4")
    act(tab, "red", model.Move("southside"))
    act(tab, "red", model.Move("historical_society"))
    assert tab.state.points == 0
    rejected(act(tab, "red", model.Move("southside")), "AH-2", "spent all 4 movement points")
    assert GAME.legal(tab.state, "red") == [model.Stop()]


def test_ah_2_speed_zero_walks_nowhere():
    """AH-2: Speed 0 gives no movement point: only Stop is legal."""
    tab = table(scenario([inv("red", "graveyard", speed=0)]))
    assert GAME.legal(tab.state, "red") == [model.Stop()]


# --- AH-3 Steps ---------------------------------------------------------------------------------


def test_ah_3_one_point_per_yellow_line():
    """AH-3: Location → Street, Street → Street and Street → Location each cost one point."""
    tab = table(scenario([inv("red", "graveyard")]))
    events = act(tab, "red", model.Move("rivertown"))
    assert events == [model.InvestigatorMoved("red", "graveyard", "rivertown", "rivertown", ("rivertown",), 3)]
    events = act(tab, "red", model.Move("the_witch_house"))
    assert events == [model.InvestigatorMoved("red", "rivertown", "the_witch_house", "the_witch_house",
                                              ("french_hill", "the_witch_house"), 1)]


def test_ah_3_locations_join_only_their_own_street():
    """AH-3: Locations never join each other: Graveyard to Black Cave goes through Rivertown (2 points)."""
    board = rules.initial_state(table(scenario([inv("red", "graveyard")])).envelopes[0].event).board
    assert boards.route(board, "graveyard", "black_cave") == ("rivertown", "black_cave")
    table_ = boards.neighbours(board)
    for area in board.areas:
        if area.kind == "location":
            assert table_[area.id] == (area.street,)


def test_ah_3_places_no_yellow_line_reaches_are_refused():
    """AH-3: the Sky, Lost in Time and Space and unknown ids are no destinations (a non-string is refused
    at the edge: test_kinds.py)."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", model.Move("sky")), "AH-3", "Sky is not joined to Arkham by any yellow line")
    rejected(act(tab, "red", model.Move(model.LOST)), "AH-3", "Lost in Time and Space is not joined")
    rejected(act(tab, "red", model.Move("atlantis")), "AH-3", "no area 'atlantis'")
    rejected(act(tab, "red", model.Move("graveyard")), "AH-3", "already in Graveyard")


def test_ah_3_a_board_joining_two_locations_is_refused():
    """AH-3: a board file that joins two Locations, or a Location to another Street, is refused with a path."""
    import copy

    from events.validate import ScenarioError
    from tests.games.arkham.helpers import BOARD

    bad = copy.deepcopy(BOARD)
    bad["lines"].append({"a": "graveyard", "b": "black_cave"})
    with pytest.raises(ScenarioError, match=r"\$\.lines\[38\]: Locations 'graveyard' and 'black_cave' cannot be joined"):
        boards.load_board(bad)
    bad["lines"][-1] = {"a": "graveyard", "b": "easttown"}
    with pytest.raises(ScenarioError, match=r"Location 'graveyard' joins only its own Street 'rivertown'"):
        boards.load_board(bad)


# --- AH-4 Worked example ------------------------------------------------------------------------


def test_ah_4_graveyard_to_administration_costs_4_on_the_board_data():
    """AH-4: the seed's worked example, from the board file's own ``worked_examples``."""
    from tests.games.arkham.helpers import BOARD

    examples = {(item["from"], item["to"]): item["movement_points"] for item in BOARD["worked_examples"]}
    assert examples[("graveyard", "administration")] == 4
    for use_unverified in (True, False):
        board = boards.load_board(BOARD, use_unverified=use_unverified)
        assert len(boards.route(board, "graveyard", "administration")) == 4


def test_ah_4_graveyard_to_administration_with_speed_4_and_not_3():
    """AH-4: Speed 4 walks Graveyard → Administration in one Move; Speed 3 is refused: 4 points away."""
    tab = table(scenario([inv("red", "graveyard", speed=4)]))
    events = act(tab, "red", model.Move("administration"))
    assert events[0].path == ("rivertown", "french_hill", "miskatonic_u", "administration")
    assert events[0].points_left == 0
    tab = table(scenario([inv("red", "graveyard", speed=3)]))
    rejected(act(tab, "red", model.Move("administration")), "AH-2",
             "Administration (Administration Building) is 4 points away; Speed is 3")


def test_ah_4_graveyard_to_library_costs_4_via_french_hill():
    """AH-4: the English rulebook's example: Graveyard → Rivertown → French Hill → Miskatonic U. → Library, 4."""
    from tests.games.arkham.helpers import BOARD

    examples = {(item["from"], item["to"]): item["movement_points"] for item in BOARD["worked_examples"]}
    assert examples[("graveyard", "library")] == 4
    tab = table(scenario([inv("red", "graveyard", speed=4)]))
    events = act(tab, "red", model.Move("library"))
    assert events[0].path == ("rivertown", "french_hill", "miskatonic_u", "library")
    assert (events[0].to, events[0].points_left) == ("library", 0)


# --- AH-5 Clues ---------------------------------------------------------------------------------


def test_ah_5_ending_on_clues_asks_the_player_how_many():
    """AH-5: the engine asks (TakeClues 0..all); it never takes them for the player."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], clues={"library": 2}))
    act(tab, "red", model.Move("library"))
    events = act(tab, "red", model.Stop())
    assert events == [model.MovementEnded("red", "library", 0, 2)]
    assert GAME.turn(tab.state) == ("red",)
    assert GAME.legal(tab.state, "red") == [model.TakeClues(0), model.TakeClues(1), model.TakeClues(2)]
    rejected(act(tab, "red", model.Move("miskatonic_u")), "AH-5", "the movement ended in Library: take 0 to 2")
    events = act(tab, "red", model.TakeClues(1))
    assert events[0] == model.CluesTaken("red", "library", 1, 1)
    assert investigator(tab, "red").clues == 1
    assert tab.state.clues == (("library", 1),)
    assert GAME.turn(tab.state) == ("blue",)


def test_ah_5_one_several_all_or_none():
    """AH-5: taking all removes the tokens; taking none leaves them; more than there is is refused."""
    tab = table(scenario([inv("red", "library")], clues={"library": 2}))
    act(tab, "red", model.Stop())
    rejected(act(tab, "red", model.TakeClues(3)), "AH-5", "Library holds 2 Clue tokens: take 0 to 2, got 3")
    act(tab, "red", model.TakeClues(2))
    assert tab.state.clues == () and investigator(tab, "red").clues == 2
    tab = table(scenario([inv("red", "library")], clues={"library": 2}))
    act(tab, "red", model.Stop())
    act(tab, "red", model.TakeClues(0))
    assert tab.state.clues == (("library", 2),)


def test_ah_5_a_street_area_holds_clues_too():
    """AH-5: "Location or Street area": ending in Rivertown with its token offers it."""
    tab = table(scenario([inv("red", "graveyard")], clues={"rivertown": 1}))
    act(tab, "red", model.Move("rivertown"))
    assert act(tab, "red", model.Stop()) == [model.MovementEnded("red", "rivertown", 3, 1)]
    assert rules.phase(tab.state) == "clues"


# --- AH-6 Only at the end -----------------------------------------------------------------------


def test_ah_6_no_clue_from_an_area_moved_on_from():
    """AH-6: walking through Rivertown's clue to French Hill takes nothing; asking for it is refused."""
    tab = table(scenario([inv("red", "graveyard")], clues={"rivertown": 1}))
    act(tab, "red", model.Move("rivertown"))
    rejected(act(tab, "red", model.TakeClues(1)), "AH-6", "taken only where the movement ends", "Rivertown")
    act(tab, "red", model.Move("french_hill"))
    events = act(tab, "red", model.Stop())
    assert events[0] == model.MovementEnded("red", "french_hill", 2, 0)
    assert not any(isinstance(event, model.CluesTaken) for event in events)
    assert tab.state.clues == (("rivertown", 1),) and investigator(tab, "red").clues == 0


# --- AH-7 Monsters ------------------------------------------------------------------------------


def test_ah_7_monsters_on_the_way_stop_the_walk_there():
    """AH-7: a walk through Rivertown's monsters stops in Rivertown, points kept, the aim recorded."""
    tab = table(zombie_and_ghoul())
    before = tab.state
    events = act(tab, "red", model.Move("french_hill"))
    assert events == [model.InvestigatorMoved("red", "graveyard", "rivertown", "french_hill", ("rivertown",), 3)]
    assert english.trace(GAME, events[0], before)[1] == (
        "stopped in Rivertown short of French Hill: monsters there must be fought or evaded before leaving (AH-7)")


def test_ah_7_leaving_means_facing_each_monster():
    """AH-7: Move is refused naming every monster not yet faced; legal offers Evade/Fight for each."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    rejected(act(tab, "red", model.Move("french_hill")), "AH-7", "Ghoul and Zombie are in Rivertown",
             "before leaving")
    legal = GAME.legal(tab.state, "red")
    assert [command for command in legal if not isinstance(command, model.OfferTrade)] == [
        model.Evade("ghoul"), model.Fight("ghoul"), model.Evade("zombie"), model.Fight("zombie")]


def test_ah_7_ending_among_monsters_means_facing_each():
    """AH-7: Stop is refused too while a monster there is not faced."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    rejected(act(tab, "red", model.Stop()), "AH-7", "before ending the movement there")


def test_ah_7_a_movement_that_starts_among_monsters_faces_them():
    """AH-7: an investigator beginning its movement with a monster must face it to leave or to stay."""
    tab = table(scenario([inv("red", "rivertown")], [mon("zombie", "rivertown")]))
    rejected(act(tab, "red", model.Move("graveyard")), "AH-7", "Zombie is in Rivertown")
    rejected(act(tab, "red", model.Stop()), "AH-7", "Zombie is in Rivertown")


def test_ah_7_after_evading_every_monster_the_walk_goes_on():
    """AH-7: once both are evaded, the same Move is accepted with the points left."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("french_hill"))
    assert isinstance(act(tab, "red", model.Evade("zombie"), dice=(5, 1, 1, 1))[-1], model.MonsterEvaded)
    assert isinstance(act(tab, "red", model.Evade("ghoul"), dice=(6, 1))[-1], model.MonsterEvaded)
    events = act(tab, "red", model.Move("french_hill"))
    assert events == [model.InvestigatorMoved("red", "rivertown", "french_hill", "french_hill", ("french_hill",), 2)]
    assert tab.state.dealt == ()  # a new area: nothing faced there yet


def test_ah_7_only_monsters_of_the_area_are_faced():
    """AH-7: a monster elsewhere, or one that does not exist, cannot be evaded or fought from here."""
    tab = table(zombie_and_ghoul())
    rejected(act(tab, "red", model.Evade("zombie")), "AH-7", "Zombie is in Rivertown, not in Graveyard")
    rejected(act(tab, "red", model.Fight("shoggoth")), "AH-7", "no monster 'shoggoth'")


def test_ah_7_among_equal_routes_the_one_with_fewer_monsters_is_taken():
    """AH-7: Rivertown → Miskatonic U. costs 2 by French Hill or by Merchant District; a Cultist in French
    Hill makes the walk go by Merchant District."""
    tab = table(scenario([inv("red", "rivertown")], [mon("cultist", "french_hill")]))
    assert act(tab, "red", model.Move("miskatonic_u"))[0].path == ("merchant_district", "miskatonic_u")
    tab = table(scenario([inv("red", "rivertown")], [mon("cultist", "merchant_district")]))
    assert act(tab, "red", model.Move("miskatonic_u"))[0].path == ("french_hill", "miskatonic_u")


# --- AH-8 Combat ends movement --------------------------------------------------------------------


def test_ah_8_a_combat_ends_the_movement_win_or_lose():
    """AH-8: fighting the Zombie loses the 3 points left; after winning, red stays in Rivertown."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("french_hill"))
    events = act(tab, "red", model.Fight("zombie"), dice=(5, 1))  # the Horror check: Will 3 - 1 = 2 dice
    assert events[0] == model.CombatBegan("red", "zombie", "fight", 3)
    assert tab.state.points == 0 and tab.state.combat == "zombie"
    rejected(act(tab, "red", model.Move("french_hill")), "AH-8", "in combat with Zombie: the movement is over")
    act(tab, "red", model.Fight("zombie"), dice=(6, 1, 1, 1))  # Fight 4 + 0 = 4 dice
    assert tab.state.combat == "" and investigator(tab, "red").where == "rivertown"
    assert act(tab, "red", model.Evade("ghoul"), dice=(5, 1))[-1] == model.MonsterEvaded("red", "ghoul", "AH-C2")
    rejected(act(tab, "red", model.Move("french_hill")), "AH-8", "a combat ended Red Investigator's movement")


def test_ah_8_a_failed_evade_starts_a_combat_that_ends_the_movement():
    """AH-8: "for any reason": a failed evade begins combat and the remaining points are lost."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    events = act(tab, "red", model.Evade("ghoul"), dice=(1, 2, 5, 1, 1))
    assert types(events) == ["CheckRolled", "StatLost", "CombatBegan", "CheckRolled"]
    assert events[2] == model.CombatBegan("red", "ghoul", "evade failed", 3)


# --- AH-9…AH-12 Other Worlds -----------------------------------------------------------------------


def test_ah_9_an_investigator_in_an_other_world_gets_no_movement_points():
    """AH-9: MovementBegan with 0 points, citing AH-9; no yellow line leads into an Other World."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "yuggoth_1")]))
    rejected(act(tab, "red", model.Move("yuggoth_1")), "AH-9", "Yuggoth (first area) is an Other World area")
    events = act(tab, "red", model.Stop())
    assert model.MovementBegan("blue", "yuggoth_1", 0, "AH-9") in events


def test_ah_10_the_first_area_leads_to_the_second():
    """AH-10: no choice: the investigator moves from the left area to the right one by itself."""
    tab = table(scenario([inv("red", "abyss_1"), inv("blue", "northside")]))
    assert tab.envelopes[2].event == model.MovedInOtherWorld("red", "abyss_1", "abyss_2")
    assert investigator(tab, "red").where == "abyss_2"
    assert GAME.turn(tab.state) == ("blue",)


def test_ah_11_the_player_chooses_the_gate_and_an_explored_marker_goes_under_it():
    """AH-11: two open gates to R'lyeh: the seat is asked (GateChoiceOffered), picks one, and is Explored."""
    tab = table(builtin("other-world"))
    assert tab.envelopes[-1].event == model.GateChoiceOffered("red", "rlyeh", ("graveyard", "the_witch_house"))
    assert GAME.legal(tab.state, "red") == [model.Return("graveyard"), model.Return("the_witch_house")]
    rejected(act(tab, "red", model.Stop()), "AH-11", "choose the gate to come back through (Graveyard, The Witch House)")
    events = act(tab, "red", model.Return("the_witch_house"))
    assert events == [model.ReturnedThroughGate("red", "rlyeh", "rlyeh_2", "the_witch_house")]
    red = investigator(tab, "red")
    assert (red.where, red.explored) == ("the_witch_house", "the_witch_house")
    rejected(act(tab, "red", model.Move("french_hill")), "AH-9", "came back from an Other World this phase")


def test_ah_11_a_gate_to_another_world_is_no_way_back():
    """AH-11: the gate must lead to the Other World being left."""
    tab = table(builtin("other-world"))
    rejected(act(tab, "red", model.Return("woods")), "AH-11", "no open gate to R'lyeh at Woods",
             "open gates to it: Graveyard, The Witch House")
    rejected(act(tab, "red", model.Return("atlantis")), "AH-11", "no open gate to R'lyeh at 'atlantis'")


def test_ah_11_one_open_gate_is_still_the_players_choice():
    """AH-11: with a single gate the engine still waits for the seat's Return command."""
    tab = table(scenario([inv("red", "rlyeh_2")], gates=(("black_cave", "rlyeh"),)))
    assert rules.phase(tab.state) == "return" and investigator(tab, "red").where == "rlyeh_2"
    assert GAME.legal(tab.state, "red") == [model.Return("black_cave")]


def test_ah_11_the_explored_marker_stays_while_the_investigator_stays():
    """AH-11: the marker stays through the next turn it stays, and goes when it moves away."""
    tab = table(scenario([inv("red", "rlyeh_2")], gates=(("black_cave", "rlyeh"),), rounds=3))
    act(tab, "red", model.Return("black_cave"))
    act(tab, "red", model.Stop())
    assert investigator(tab, "red").explored == "black_cave"
    act(tab, "red", model.Stop())  # round 2: stays
    assert investigator(tab, "red").explored == "black_cave"
    act(tab, "red", model.Move("rivertown"))  # round 3: leaves
    assert investigator(tab, "red").explored == ""


def test_ah_12_no_open_gate_means_lost_in_time_and_space():
    """AH-12: in Yuggoth's second area with no gate to Yuggoth, the investigator is Lost, delayed."""
    tab = table(builtin("other-world"))
    act(tab, "red", model.Return("graveyard"))
    events = act(tab, "red", model.Stop())
    assert model.LostInTimeAndSpace("blue", "yuggoth_2", "AH-12") in events
    blue = investigator(tab, "blue")
    assert (blue.where, blue.delayed) == (model.LOST, True)


# --- AH-C1 Checks ---------------------------------------------------------------------------------


def test_ah_c1_each_5_or_6_is_a_success_against_the_difficulty():
    """AH-C1: Sneak 3 + Awareness 1 = 4 dice; one 5 passes difficulty 1; 1-4 fail."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    check = act(tab, "red", model.Evade("zombie"), dice=(4, 4, 3, 5))[0]
    assert check == model.CheckRolled("red", "evade", "zombie", 3, 1, 4, (4, 4, 3, 5), 5, 1, 1, True)
    assert "4 dice [4, 4, 3, 5], successes on 5+: 1 against difficulty 1: pass" in english.trace(GAME, check, tab.state)[0]
    check = act(tab, "red", model.Evade("ghoul"), dice=(4, 4, 1, 1, 1))[0]  # Sneak 3 - 1 = 2 dice
    assert (check.dice, check.rolls, check.successes, check.passed) == (2, (4, 4), 0, False)


def test_ah_c1_difficulty_is_the_monsters_toughness_in_combat():
    """AH-C1: two successes are needed against toughness 2; one is not enough."""
    tab = table(scenario([inv("red", "rivertown", fight=3, will=3)], [mon("dark_young", "rivertown", toughness=2)]))
    act(tab, "red", model.Fight("dark_young"), dice=(5, 1, 1))
    check = act(tab, "red", model.Fight("dark_young"), dice=(6, 1, 1))[0]
    assert (check.difficulty, check.successes, check.passed) == (2, 1, False)
    check = act(tab, "red", model.Fight("dark_young"), dice=(6, 5, 1))[0]
    assert (check.successes, check.passed) == (2, True)


def test_ah_c1_zero_dice_fail_without_a_roll():
    """AH-C1: Sneak 1 + Awareness -3 = -2 dice: the check fails and no die is rolled."""
    tab = table(scenario([inv("red", "rivertown", sneak=1, will=0)], [mon("ghoul", "rivertown", awareness=-3)]))
    events = act(tab, "red", model.Evade("ghoul"))  # no loaded dice: a roll would raise
    assert events[0] == model.CheckRolled("red", "evade", "ghoul", 1, -3, -2, (), 5, 0, 1, False)
    assert events[3].check == "horror" and events[3].rolls == ()  # Will 0: no die either
    assert "fails without a roll" in english.trace(GAME, events[0], tab.state)[0]


def test_ah_c1_blessed_succeed_on_4_cursed_only_on_6():
    """AH-C1: the threshold is 4 for the Blessed, 6 for the Cursed."""
    for flags, roll, passed in (({"blessed": True}, 4, True), ({}, 4, False), ({"cursed": True}, 5, False),
                                ({"cursed": True}, 6, True)):
        tab = table(scenario([inv("red", "rivertown", sneak=1, **flags)], [mon("zombie", "rivertown")]))
        check = act(tab, "red", model.Evade("zombie"), dice=(roll, 5, 5, 5, 5))[0]
        assert check.passed is passed, (flags, roll)
        assert check.threshold == (4 if flags.get("blessed") else 6 if flags.get("cursed") else 5)


def test_ah_c1_a_clue_spent_after_a_failed_roll_adds_one_die():
    """AH-C1 (option spend_clues): the player is asked; SpendClue rolls one more die and may pass."""
    tab = table(scenario([inv("red", "rivertown", sneak=2, clues=2)], [mon("zombie", "rivertown")],
                         options={"spend_clues": True}))
    events = act(tab, "red", model.Evade("zombie"), dice=(1, 2))
    assert events[1] == model.ClueSpendOffered("red", "evade", "zombie", (1, 2), 0, 1, 5)
    assert GAME.legal(tab.state, "red") == [model.SpendClue(), model.AcceptRoll()]
    rejected(act(tab, "red", model.Move("graveyard")), "AH-C1", "the failed Evade check (0 of 1 success) waits")
    events = act(tab, "red", model.SpendClue(), dice=(3,))
    assert events == [model.ClueSpent("red", "evade", 3, 0, 1, False, False)]
    events = act(tab, "red", model.SpendClue(), dice=(6,))
    assert events == [model.ClueSpent("red", "evade", 6, 1, 1, True, True), model.MonsterEvaded("red", "zombie", "AH-C2")]
    assert investigator(tab, "red").clues == 0


def test_ah_c1_accepting_the_failed_roll_keeps_the_clues():
    """AH-C1: AcceptRoll settles the check as failed, with its consequences."""
    tab = table(scenario([inv("red", "rivertown", sneak=2, clues=1)], [mon("zombie", "rivertown")],
                         options={"spend_clues": True}))
    act(tab, "red", model.Evade("zombie"), dice=(1, 2))
    events = act(tab, "red", model.AcceptRoll(), dice=(5, 5, 5))
    assert events[:3] == [model.RollAccepted("red", "evade", 0, 1),
                          model.StatLost("red", "stamina", 1, 4, "zombie", "AH-C2"), model.CombatBegan("red", "zombie", "evade failed", 4)]
    assert investigator(tab, "red").clues == 1


def test_ah_c1_no_clue_offer_without_the_option_or_without_clues():
    """AH-C1: spending is a scenario option, and needs a Clue token and a roll."""
    for options, clues in (({}, 2), ({"spend_clues": True}, 0)):
        tab = table(scenario([inv("red", "rivertown", sneak=2, clues=clues)], [mon("zombie", "rivertown")],
                             options=options))
        events = act(tab, "red", model.Evade("zombie"), dice=(1, 2, 5, 5, 5))
        assert not any(isinstance(event, model.ClueSpendOffered) for event in events)
        rejected(GAME.decide(tab.state, "red", model.SpendClue(), LoadedRng(())), "AH-C3", "fight or flee")


# --- AH-C2 Evade ----------------------------------------------------------------------------------


def test_ah_c2_a_passed_evade_lets_the_investigator_go_on_or_stay():
    """AH-C2: after the evade, red may walk on, or Stop there without fighting."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], [mon("zombie", "rivertown")]))
    act(tab, "red", model.Move("rivertown"))
    assert act(tab, "red", model.Evade("zombie"), dice=(5, 1)) == [
        model.CheckRolled("red", "evade", "zombie", 2, 0, 2, (5, 1), 5, 1, 1, True), model.MonsterEvaded("red", "zombie", "AH-C2")]
    legal = GAME.legal(tab.state, "red")
    assert model.Move("french_hill") in legal and model.Stop() in legal and model.Fight("zombie") not in legal
    assert types(act(tab, "red", model.Stop()))[:2] == ["MovementEnded", "TurnEnded"]


def test_ah_c2_a_failed_evade_costs_combat_damage_then_combat_and_the_horror_check():
    """AH-C2: the monster deals its combat damage at once, combat begins, the Horror check follows."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    events = act(tab, "red", model.Evade("zombie"), dice=(1, 1, 1, 1, 1, 6))  # 4 evade dice, then Will 3 - 1 = 2
    assert events[1:] == [
        model.StatLost("red", "stamina", 2, 3, "zombie", "AH-C2"), model.CombatBegan("red", "zombie", "evade failed", 3),
        model.CheckRolled("red", "horror", "zombie", 3, -1, 2, (1, 6), 5, 1, 1, True)]
    assert rules.phase(tab.state) == "combat"


# --- AH-C3 Combat ---------------------------------------------------------------------------------


def test_ah_c3_horror_check_once_then_fight_rounds_until_the_monster_falls():
    """AH-C3: one Horror check (failed: Sanity loss), a failed Combat check costs Stamina and the round
    repeats without a second Horror check; a passed one takes the monster as a trophy."""
    tab = table(scenario([inv("red", "rivertown", fight=2, will=1)],
                         [mon("zombie", "rivertown", horror_damage=2, combat_damage=2, combat_rating=-1)]))
    events = act(tab, "red", model.Fight("zombie"), dice=(4,))
    assert events[1:] == [model.CheckRolled("red", "horror", "zombie", 1, 0, 1, (4,), 5, 0, 1, False),
                          model.StatLost("red", "sanity", 2, 3, "zombie", "AH-C3")]
    assert GAME.legal(tab.state, "red") == [model.Fight("zombie"), model.Flee()]
    events = act(tab, "red", model.Fight("zombie"), dice=(3,))
    assert events == [model.CheckRolled("red", "combat", "zombie", 2, -1, 1, (3,), 5, 0, 1, False),
                      model.StatLost("red", "stamina", 2, 3, "zombie", "AH-C3")]
    events = act(tab, "red", model.Fight("zombie"), dice=(5,))
    assert events[1:] == [model.MonsterDefeated("red", "zombie", "Zombie"), model.CombatEnded("red", "zombie", "defeated")]
    red = investigator(tab, "red")
    assert red.trophies == (("zombie", "Zombie"),) and tab.state.monsters == ()
    rejected(act(tab, "red", model.Fight("zombie")), "AH-7", "no monster 'zombie'")


def test_ah_c3_fleeing_is_an_evade_check():
    """AH-C3: a failed flee costs combat damage and the battle goes on; a passed one ends it, the
    monster staying where it is, got past."""
    tab = table(scenario([inv("red", "rivertown", sneak=1, will=3)], [mon("zombie", "rivertown", combat_damage=1)]))
    act(tab, "red", model.Fight("zombie"), dice=(5, 5, 5))
    events = act(tab, "red", model.Flee(), dice=(2,))
    assert events == [model.CheckRolled("red", "flee", "zombie", 1, 0, 1, (2,), 5, 0, 1, False),
                      model.StatLost("red", "stamina", 1, 4, "zombie", "AH-C3")]
    assert tab.state.combat == "zombie"
    events = act(tab, "red", model.Flee(), dice=(6,))
    assert events[1] == model.CombatEnded("red", "zombie", "fled")
    assert tab.state.combat == "" and "zombie" in tab.state.dealt
    assert tab.state.monsters[0].area == "rivertown"
    rejected(act(tab, "red", model.Move("graveyard")), "AH-8", "a combat ended")
    assert types(act(tab, "red", model.Stop()))[0] == "MovementEnded"


def test_ah_c3_in_combat_only_fight_or_flee():
    """AH-C3: evading or fighting another monster mid-battle is refused."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    act(tab, "red", model.Fight("zombie"), dice=(5, 5))
    rejected(act(tab, "red", model.Evade("ghoul")), "AH-C3", "in combat with Zombie: fight or flee")
    rejected(act(tab, "red", model.Fight("ghoul")), "AH-C3", "in combat with Zombie, not 'ghoul'")


# --- AH-C4 Knocked out, insane, devoured ----------------------------------------------------------


def test_ah_c4_zero_stamina_knocks_out_to_st_marys_with_half_the_clues():
    """AH-C4: unconscious: to St. Mary's Hospital, 5 Clue tokens → loses 2, Stamina 1, movement over."""
    tab = table(scenario([inv("red", "rivertown", stamina=2, clues=5, fight=1), inv("blue", "northside")],
                         [mon("zombie", "rivertown", combat_damage=2)]))
    act(tab, "red", model.Fight("zombie"), dice=(5, 5, 5))
    events = act(tab, "red", model.Fight("zombie"), dice=(1,))
    assert events[1:4] == [model.StatLost("red", "stamina", 2, 0, "zombie", "AH-C3"),
                           model.CombatEnded("red", "zombie", "collapsed"),
                           model.KnockedOut("red", "unconscious", "rivertown", "st_marys_hospital", 2, "stamina")]
    red = investigator(tab, "red")
    assert (red.where, red.clues, red.stamina) == ("st_marys_hospital", 3, 1)
    assert GAME.turn(tab.state) == ("blue",)
    assert english.trace(GAME, events[3], tab.state)[0] == (
        "red: 0 Stamina in Rivertown: unconscious, to St. Mary's Hospital, loses 2 Clue tokens, Stamina set to 1 (AH-C4)")


def test_ah_c4_zero_sanity_drives_insane_to_the_asylum():
    """AH-C4: insane: to Arkham Asylum, Sanity set to 1, 3 clues → loses 1."""
    tab = table(scenario([inv("red", "rivertown", sanity=1, clues=3, will=1)], [mon("zombie", "rivertown")]))
    events = act(tab, "red", model.Fight("zombie"), dice=(1,))
    assert model.KnockedOut("red", "insane", "rivertown", "arkham_asylum", 1, "sanity") in events
    red = investigator(tab, "red")
    assert (red.where, red.sanity, red.clues) == ("arkham_asylum", 1, 2)


def test_ah_c4_a_failed_evade_to_zero_stamina_knocks_out_at_once_without_a_horror_check():
    """AH-C4: a failed evade takes Stamina 1 → 0: knocked unconscious at once, its movement over; the battle
    is never fought, so no Horror check is rolled and Sanity 1 is kept: not devoured (arkham-3)."""
    tab = table(scenario([inv("red", "rivertown", stamina=1, sanity=1, sneak=1, will=1), inv("blue", "northside")],
                         [mon("zombie", "rivertown")]))
    events = act(tab, "red", model.Evade("zombie"), dice=(1,))
    assert events[:4] == [
        model.CheckRolled("red", "evade", "zombie", 1, 0, 1, (1,), 5, 0, 1, False),
        model.StatLost("red", "stamina", 1, 0, "zombie", "AH-C2"),
        model.KnockedOut("red", "unconscious", "rivertown", "st_marys_hospital", 0, "stamina"),
        model.TurnEnded("red", "blue", 1),
    ]
    assert "horror" not in [getattr(event, "check", "") for event in events]
    red = investigator(tab, "red")
    assert (red.where, red.stamina, red.sanity, red.devoured) == ("st_marys_hospital", 1, 1, False)


def test_ah_c4_both_at_zero_at_the_same_moment_is_devoured():
    """AH-C4: devoured only when Stamina and Sanity are both at 0 at once (rules.collapse)."""
    tab = table(scenario([inv("red", "rivertown"), inv("blue", "northside")]))
    state = GAME.evolve(tab.state, model.StatLost("red", "sanity", 5, 0, "", "AH-C3"))
    assert rules.collapse(state, 0) == [model.KnockedOut("red", "insane", "rivertown", "arkham_asylum", 0, "sanity")]
    state = GAME.evolve(state, model.StatLost("red", "stamina", 5, 0, "", "AH-C3"))
    assert rules.collapse(state, 0) == [model.Devoured("red", "rivertown")]


def test_ah_c4_zero_stamina_from_a_failed_evade_collapses_in_that_command_without_a_clue_offer():
    """AH-C4: a failed evade leaves Stamina at 0: no Clue token is offered (AH-C1) and no Horror check
    follows: it is knocked out in the same command."""
    tab = table(scenario([inv("red", "rivertown", stamina=1, sneak=0, will=1, clues=3), inv("blue", "northside")],
                         [mon("zombie", "rivertown")], options={"spend_clues": True}))
    events = act(tab, "red", model.Evade("zombie"))
    assert events == [
        model.CheckRolled("red", "evade", "zombie", 0, 0, 0, (), 5, 0, 1, False),
        model.StatLost("red", "stamina", 1, 0, "zombie", "AH-C2"),
        model.KnockedOut("red", "unconscious", "rivertown", "st_marys_hospital", 1, "stamina"),
        model.TurnEnded("red", "blue", 1),
        model.MovementBegan("blue", "northside", 4, "AH-2"),
    ]
    red = investigator(tab, "red")
    assert (red.where, red.stamina, red.sanity, red.clues) == ("st_marys_hospital", 1, 5, 2)
    assert GAME.turn(tab.state) == ("blue",)


def test_ah_c4_a_devoured_investigator_is_skipped_and_the_game_ends_without_investigators():
    """AH-C4: out of the game: the turn passes over it; when none is left, the game ends."""
    tab = table(scenario([inv("red", "northside"), inv("blue", "rivertown"), inv("green", "downtown")]))
    act(tab, "red", model.Stop())
    state = GAME.evolve(tab.state, model.Devoured("blue", "rivertown"))
    flow = rules._Flow(state)
    rules._end_turn(flow)
    assert flow[0] == model.TurnEnded("blue", "green", 1)
    for seat, where in (("red", "northside"), ("green", "downtown")):
        state = GAME.evolve(state, model.Devoured(seat, where))
    flow = rules._Flow(state)
    rules._end_turn(flow)
    assert flow == [model.GameEnded(1, "every investigator is devoured")]


def test_ah_c4_in_an_other_world_collapse_means_lost():
    """AH-C4: at 0 in an Other World the investigator is Lost in Time and Space (rules.collapse)."""
    tab = table(scenario([inv("red", "yuggoth_1"), inv("blue", "northside")]))
    state = GAME.evolve(tab.state, model.StatLost("red", "sanity", 5, 0, "", "AH-C3"))
    events = rules.collapse(state, 0)
    assert events == [model.KnockedOut("red", "insane", "yuggoth_2", model.LOST, 0, "sanity")]
    after = GAME.evolve(state, events[0])
    assert (after.investigators[0].where, after.investigators[0].delayed, after.investigators[0].sanity) == (
        model.LOST, True, 1)


# --- AH-C5 Lost in Time and Space ----------------------------------------------------------------


def test_ah_c5_next_turn_the_player_puts_the_lost_investigator_anywhere_in_arkham():
    """AH-C5: the seat is asked (PlacementOffered); any Street or Location; then it stands up (AH-C7)."""
    tab = table(scenario([inv("red", model.LOST)]))
    assert tab.envelopes[-1].event == model.PlacementOffered("red")
    legal = GAME.legal(tab.state, "red")
    assert len(legal) == 35 and model.Place("woods") in legal and model.Place("sky") not in legal
    rejected(act(tab, "red", model.Place("sky")), "AH-C5", "a Location or Street area of Arkham, not Sky")
    rejected(act(tab, "red", model.Place("rlyeh_1")), "AH-C5", "not R'lyeh (first area)")
    rejected(act(tab, "red", model.Move("woods")), "AH-C5", "is Lost in Time and Space")
    events = act(tab, "red", model.Place("woods"))
    assert events == [model.PlacedInArkham("red", "woods"), model.StoodUp("red")]
    red = investigator(tab, "red")
    assert (red.where, red.delayed, tab.state.points) == ("woods", False, 0)


def test_ah_c5_lost_this_turn_placed_the_next():
    """AH-C5: Lost in round 1 (AH-12), placed in round 2 by its player."""
    tab = table(scenario([inv("red", "yuggoth_2"), inv("blue", "northside")]))
    assert investigator(tab, "red").where == model.LOST and GAME.turn(tab.state) == ("blue",)
    events = act(tab, "blue", model.Stop())
    assert events[-1] == model.PlacementOffered("red")


# --- AH-C6 Scenario data and monster abilities ----------------------------------------------------


def test_ah_c6_an_elusive_monster_is_evaded_without_a_roll():
    """AH-C6: Elusive: evaded automatically (no dice)."""
    tab = table(scenario([inv("red", "woods")], [mon("nightgaunt", "woods", elusive=True)]))
    assert act(tab, "red", model.Evade("nightgaunt")) == [model.MonsterEvaded("red", "nightgaunt", "AH-C6")]


def test_ah_c6_ambush_forbids_fleeing():
    """AH-C6: Ambush: once combat began, no fleeing; legal offers Fight only."""
    tab = table(scenario([inv("red", "rivertown")], [mon("ghoul", "rivertown", ambush=True)]))
    act(tab, "red", model.Fight("ghoul"), dice=(5, 5, 5))
    assert GAME.legal(tab.state, "red") == [model.Fight("ghoul")]
    rejected(act(tab, "red", model.Flee()), "AH-C6", "Ghoul has Ambush")


def test_ah_c6_nightmarish_and_overwhelming_hurt_even_on_a_pass():
    """AH-C6: Nightmarish 1 costs Sanity on a passed Horror check; Overwhelming 1 Stamina on a passed
    Combat check."""
    tab = table(scenario([inv("red", "rivertown", will=1, fight=1)],
                         [mon("dhole", "rivertown", nightmarish=1, overwhelming=1)]))
    events = act(tab, "red", model.Fight("dhole"), dice=(6,))
    assert events[-1] == model.StatLost("red", "sanity", 1, 4, "dhole", "AH-C6")
    events = act(tab, "red", model.Fight("dhole"), dice=(6,))
    assert events[1:] == [model.MonsterDefeated("red", "dhole", "Dhole"), model.StatLost("red", "stamina", 1, 4, "dhole", "AH-C6"),
                          model.CombatEnded("red", "dhole", "defeated")]


def test_ah_c6_scenario_values_are_validated_with_a_path():
    """AH-C6: a monster's toughness must be an integer >= 1; the error names where."""
    from events.validate import ScenarioError

    data = scenario([inv("red", "graveyard")], [mon("zombie", "rivertown"), mon("ghoul", "rivertown", toughness="x")])
    with pytest.raises(ScenarioError, match=r"^\$\.monsters\[1\]\.toughness: expected an integer, got 'x'$"):
        table(data)
    data = scenario([inv("red", "graveyard")], [mon("zombie", "rlyeh_1")])
    with pytest.raises(ScenarioError, match=r"\$\.monsters\[0\]\.at: a monster stands in a Street"):
        table(data)


# --- AH-C7 Delayed --------------------------------------------------------------------------------


def test_ah_c7_a_delayed_investigator_stands_up_instead_of_moving():
    """AH-C7: no movement points; it stands up; Move is refused citing the delay."""
    tab = table(scenario([inv("red", "graveyard", delayed=True)]))
    assert [envelope.event for envelope in tab.envelopes[1:]] == [
        model.MovementBegan("red", "graveyard", 0, "AH-C7"), model.StoodUp("red")]
    rejected(act(tab, "red", model.Move("rivertown")), "AH-C7", "delayed: it only stands up")
    assert not investigator(tab, "red").delayed


def test_ah_c7_delayed_it_still_faces_monsters_and_trades():
    """AH-C7: a delayed investigator must deal with monsters in its area and may trade."""
    tab = table(scenario([inv("red", "rivertown", delayed=True, items=["Lantern"]), inv("blue", "rivertown")],
                         [mon("zombie", "rivertown")]))
    rejected(act(tab, "red", model.Stop()), "AH-7", "Zombie is in Rivertown")
    assert model.OfferTrade("blue", ("Lantern",), ()) in GAME.legal(tab.state, "red")
    assert types(act(tab, "red", model.OfferTrade("blue", ("Lantern",), ()))) == ["TradeOffered"]


def test_ah_c7_delayed_in_an_other_world_it_only_stands_up():
    """AH-C7: delayed in an Other World's first area: it stands up and stays there."""
    tab = table(scenario([inv("red", "abyss_1", delayed=True), inv("blue", "northside")]))
    assert types([envelope.event for envelope in tab.envelopes[1:4]]) == ["MovementBegan", "StoodUp", "TurnEnded"]
    assert investigator(tab, "red").where == "abyss_1"


# --- AH-C8 Several monsters -----------------------------------------------------------------------


def test_ah_c8_the_player_picks_the_order_of_the_monsters():
    """AH-C8: either monster may be faced first: both orders are legal and accepted."""
    for first, second in (("zombie", "ghoul"), ("ghoul", "zombie")):
        tab = table(zombie_and_ghoul())
        act(tab, "red", model.Move("rivertown"))
        assert model.Evade(first) in GAME.legal(tab.state, "red")
        assert act(tab, "red", model.Evade(first), dice=(6, 6, 6, 6))[-1] == model.MonsterEvaded("red", first, "AH-C2")
        assert [c for c in GAME.legal(tab.state, "red") if not isinstance(c, model.OfferTrade)] == [model.Evade(second), model.Fight(second)]


def test_ah_c8_a_failed_evade_fights_that_one_and_the_others_still_wait():
    """AH-C8: combat with the Ghoul, then the Zombie must still be faced before the movement ends."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    act(tab, "red", model.Evade("ghoul"), dice=(1, 1, 5, 5, 5))
    assert tab.state.combat == "ghoul"
    act(tab, "red", model.Fight("ghoul"), dice=(6, 1, 1, 1))
    rejected(act(tab, "red", model.Stop()), "AH-7", "Zombie is in Rivertown")
    rejected(act(tab, "red", model.Evade("ghoul")), "AH-7", "no monster 'ghoul'")
    act(tab, "red", model.Evade("zombie"), dice=(6, 1, 1, 1))
    rejected(act(tab, "red", model.Evade("zombie")), "AH-C8", "already got past Zombie")
    assert types(act(tab, "red", model.Stop()))[0] == "MovementEnded"


# --- AH-C9 Returning through a gate ---------------------------------------------------------------


def test_ah_c9_returning_through_a_gate_need_not_face_its_monsters():
    """AH-C9: the Ghoul at the Graveyard's gate is set aside for this phase; the movement may end, or the
    investigator may still choose to face it (arkham-4)."""
    tab = table(builtin("other-world"))
    events = act(tab, "red", model.Return("graveyard"))
    assert events[1] == model.MonstersIgnored("red", "graveyard", ("ghoul",))
    assert GAME.legal(tab.state, "red") == [model.Evade("ghoul"), model.Fight("ghoul"), model.Stop()]
    assert types(act(tab, "red", model.Stop()))[:2] == ["MovementEnded", "TurnEnded"]


def test_ah_c9_arkham_3_refuses_facing_a_gates_monster_set_aside():
    """AH-C9 as arkham-3 decided it (kept for its logs): the Ghoul set aside cannot be evaded or fought."""
    arkham_3 = load("arkham").version("arkham-3")
    tab = Table.create(arkham_3, "g-t", builtin("other-world"), 1)
    act(tab, "red", model.Return("graveyard"))
    assert arkham_3.legal(tab.state, "red") == [model.Stop()]
    rejected(act(tab, "red", model.Evade("ghoul")), "AH-C9", "came back through the gate")
    rejected(act(tab, "red", model.Fight("ghoul")), "AH-C9", "came back through the gate")


def test_ah_c9_only_in_the_phase_it_returns():
    """AH-C9: the next Movement phase, the Ghoul must be faced like any monster (AH-7)."""
    tab = table(scenario([inv("red", "rlyeh_2")], [mon("ghoul", "graveyard")], gates=(("graveyard", "rlyeh"),)))
    act(tab, "red", model.Return("graveyard"))
    act(tab, "red", model.Stop())
    rejected(act(tab, "red", model.Stop()), "AH-7", "Ghoul is in Graveyard")


# --- AH-C10 Trading -------------------------------------------------------------------------------


def trading() -> dict:
    return scenario([inv("red", "rivertown", items=["Lantern", "Knife"]), inv("blue", "rivertown", items=["Camera"]),
                     inv("green", "northside", items=["Tome"])], [mon("zombie", "graveyard")])


def test_ah_c10_investigators_in_the_same_area_trade_when_the_partner_accepts():
    """AH-C10: red offers; blue (asked) accepts; the items change hands; red's movement goes on."""
    tab = table(trading())
    events = act(tab, "red", model.OfferTrade("blue", ("Lantern",), ("Camera",)))
    assert events == [model.TradeOffered("red", "blue", ("Lantern",), ("Camera",))]
    assert GAME.turn(tab.state) == ("blue",)
    assert GAME.legal(tab.state, "blue") == [model.AnswerTrade(True), model.AnswerTrade(False)]
    rejected(act(tab, "red", model.Move("graveyard")), "AH-C10", "blue must first answer red's trade offer")
    rejected(act(tab, "blue", model.Stop()), "AH-C10", "blue is asked about red's trade offer")
    assert act(tab, "blue", model.AnswerTrade(True)) == [model.TradeAnswered("red", "blue", ("Lantern",), ("Camera",), True)]
    assert investigator(tab, "red").items == ("Knife", "Camera")
    assert investigator(tab, "blue").items == ("Lantern",)
    assert GAME.turn(tab.state) == ("red",) and tab.state.points == 4


def test_ah_c10_a_declined_offer_changes_nothing():
    """AH-C10: the partner may decline: nobody's items change."""
    tab = table(trading())
    act(tab, "red", model.OfferTrade("blue", (), ("Camera",)))
    act(tab, "blue", model.AnswerTrade(False))
    assert investigator(tab, "blue").items == ("Camera",)
    rejected(act(tab, "red", model.AnswerTrade(True)), "AH-C10", "no trade offer is waiting")


def test_ah_c10_only_in_the_same_area_and_only_what_is_carried():
    """AH-C10: not with an investigator elsewhere, not an item nobody carries, not nothing."""
    tab = table(trading())
    rejected(act(tab, "red", model.OfferTrade("green", ("Knife",), ())), "AH-C10", "not in Rivertown with Red Investigator")
    rejected(act(tab, "red", model.OfferTrade("blue", ("Camera",), ())), "AH-C10", "Red Investigator does not carry 'Camera'")
    rejected(act(tab, "red", model.OfferTrade("blue", ("Knife", "Knife"), ())), "AH-C10", "does not carry 'Knife'")
    rejected(act(tab, "red", model.OfferTrade("blue", (), ())), "AH-C10", "at least one item")
    rejected(act(tab, "red", model.OfferTrade("red", ("Knife",), ())), "AH-C10", "another investigator's seat")


def test_ah_c10_before_during_and_after_movement_but_not_in_combat():
    """AH-C10: trade after a walk; not while fighting; again once the combat is over."""
    tab = table(scenario([inv("red", "graveyard", items=["Knife"]), inv("blue", "rivertown")],
                         [mon("zombie", "rivertown")]))
    act(tab, "red", model.Move("rivertown"))
    assert isinstance(act(tab, "red", model.OfferTrade("blue", ("Knife",), ())), list)  # during
    act(tab, "blue", model.AnswerTrade(False))
    act(tab, "red", model.Fight("zombie"), dice=(5, 5, 5))
    rejected(act(tab, "red", model.OfferTrade("blue", ("Knife",), ())), "AH-C10", "no trading during combat")
    act(tab, "red", model.Fight("zombie"), dice=(6, 1, 1))
    assert isinstance(act(tab, "red", model.OfferTrade("blue", ("Knife",), ())), list)  # after


# --- purity ---------------------------------------------------------------------------------------


def test_ah_1_decide_never_changes_the_state_it_is_given():
    """AH-1 / STYLE habit 2: hashing a state before and after deciding every legal command finds it unchanged."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    before = state_hash(tab.state)
    for command in GAME.legal(tab.state, "red"):
        GAME.decide(tab.state, "red", command, LoadedRng((5,) * 12))
    assert state_hash(tab.state) == before


def test_ah_c1_evolve_never_draws():
    """AH-C1: folding the log needs no dice: the rolls are in the events."""
    tab = table(zombie_and_ghoul())
    act(tab, "red", model.Move("rivertown"))
    act(tab, "red", model.Evade("zombie"), dice=(1, 1, 1, 1, 6, 6))
    state = None
    for envelope in tab.envelopes:
        state = GAME.evolve(state, envelope.event)
    assert state == tab.state
    with pytest.raises(LoadedDiceExhausted):
        act(tab, "red", model.Fight("zombie"))

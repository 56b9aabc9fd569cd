"""The skirmish clauses played through ``decide``/``evolve`` on hand-set grids.

Each test names the clause it checks (``test_sk_10_…``, ``SK-10`` in its docstring). Dice are
loaded (``events.rng.LoadedRng``): an attack takes one d20, a door contest two per throw
(contesting figure first, then the holder).
"""

from __future__ import annotations

from events.canonical import state_hash
from events.games.skirmish import GAME_2, model, rules
from events.log import Table
from events.rng import LoadedRng
from tests.games.skirmish.helpers import (
    GAME,
    WIDE_DOOR,
    act,
    activate,
    end,
    fig,
    open_rows,
    said,
    scenario,
    table,
    types,
)

# A 4 × 3 room with a door between B2 and C2 (the edge at x = 2 from y = 1 to y = 2).
DOOR_ROOM = [
    "+-+-+-+-+",
    "|. . . .|",
    "+ + + + +",
    "|. .D. .|",
    "+ + + + +",
    "|. . . .|",
    "+-+-+-+-+",
]


def door_of(tab, door_id: str = "door1"):
    return rules.door(tab.state, door_id)


def hold(tab, figure_id: str, open_: bool):
    """``figure_id`` activates, ends its actions in contact with door 1 and decides it (SK-7)."""
    activate(tab, figure_id)
    due = end(tab, figure_id)
    assert isinstance(due[-1], model.DoorDecisionsDue), due
    side = rules.figure(tab.state, figure_id).side
    return act(tab, side, model.DecideDoor(figure_id, "door1", open_))


def pass_turn(tab, figure_id: str):
    activate(tab, figure_id)
    events = end(tab, figure_id)
    assert isinstance(events, list), events
    return events


# --- SK-1 walls --------------------------------------------------------------------------------------


def test_sk_1_a_wall_stops_a_move_and_line_of_sight():
    """SK-1: no way through the wall B1|C1, and no line of sight across it."""
    tab = table(scenario(["+-+-+-+-+", "|. .|. .|", "+-+-+-+-+"],
                         [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    activate(tab, "a")
    refused = act(tab, "red", model.Move("a", (2, 0)))
    assert refused.rule == "SK-1" and "walls stand between A1 and C1" in refused.reason
    refused = act(tab, "red", model.Attack("a", "b"))
    assert refused.rule == "SK-C3"
    assert "the wall B1|C1" in refused.reason


# --- SK-2 corners ------------------------------------------------------------------------------------


def test_sk_2_a_diagonal_step_is_refused_at_a_walls_end():
    """SK-2: B2→C1 cuts the point (2, 1) where the wall B1|C1 ends; the way round (C2) holds an
    enemy, so the move is refused, citing the corner and the wall."""
    rows = ["+-+-+-+-+", "|. .|. .|", "+ + + + +", "|. . . .|", "+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "B2"), fig("b", "blue", "C2")]))
    activate(tab, "a")
    refused = act(tab, "red", model.Move("a", (2, 0)))
    assert refused.rule == "SK-2"
    assert "the diagonal step B2→C1 cuts the corner point (2, 1), which the wall B1|C1 touches" in refused.reason


def test_sk_2_a_diagonal_step_past_a_wall_end_takes_the_way_round_when_there_is_one():
    """SK-2: with C2 free, B2→C1 goes B2→C2→C1 (2 points), never cutting the wall's end."""
    rows = ["+-+-+-+-+", "|. .|. .|", "+ + + + +", "|. . . .|", "+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "B2"), fig("b", "blue", "D2")]))
    activate(tab, "a")
    moved = act(tab, "red", model.Move("a", (2, 0)))
    assert moved[0] == model.FigureMoved("a", (1, 1), (2, 0), ((2, 1), (2, 0)), 2, (), ())


def test_sk_2_a_diagonal_step_is_refused_at_a_closed_doors_corner_and_allowed_once_it_is_open():
    """SK-2, SK-6: B3→C2 cuts the point (2, 2), the lower end of door1 (B2|C2). Closed, the door
    counts as a wall and the step is refused (the way round by C1 costs 4, a has 2); once open,
    the same step is taken (cost 2)."""
    figures = [fig("a", "red", "B3", speed=1), fig("b", "blue", "C3"), fig("w", "red", "A1")]
    tab = table(scenario(DOOR_ROOM, figures))
    activate(tab, "a")
    refused = act(tab, "red", model.Move("a", (2, 1)))
    assert refused.rule == "SK-2"
    assert "cuts the corner point (2, 2), which the closed door door1 (B2|C2) touches" in refused.reason
    due = end(tab, "a")  # a is in contact with door 1: it decides to open it (SK-7)
    assert due[-1] == model.DoorDecisionsDue("a", ("door1",))
    act(tab, "red", model.DecideDoor("a", "door1", True))
    pass_turn(tab, "b")
    pass_turn(tab, "w")  # round 1 ends after w
    # Round 2: blue first (it did not activate last), then a moves diagonally past the open door.
    activate(tab, "b")
    act(tab, "blue", model.EndActivation("b"))
    activate(tab, "a")
    moved = act(tab, "red", model.Move("a", (2, 1)))
    assert moved[0].path == ((2, 1),) and moved[0].cost == 2


# --- SK-3 low objects, SK-4 difficult terrain, SK-5 pits -----------------------------------------------


def test_sk_3_entering_low_objects_costs_double():
    """SK-3: A1→B1 (low objects, 2 points)→C1 (1 point) costs 3; with 2 points left it is refused."""
    rows = ["+-+-+-+-+-+", "|. = . . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "E1")]))
    activate(tab, "a")
    moved = act(tab, "red", model.Move("a", (2, 0)))
    assert moved[0] == model.FigureMoved("a", (0, 0), (2, 0), ((1, 0), (2, 0)), 3, ((1, 0),), ())
    slow = table(scenario(rows, [fig("a", "red", "A1", speed=1), fig("b", "blue", "E1")]))
    activate(slow, "a")
    refused = act(slow, "red", model.Move("a", (2, 0)))
    assert refused.rule == "SK-3"
    assert "C1 costs 3 movement points: entering low objects costs double; A has 2 left" == refused.reason


def test_sk_3_low_objects_give_cover():
    """SK-3, SK-C3: low objects at C1, between A1 and E1 and not next to the attacker: +4 Defense."""
    rows = ["+-+-+-+-+-+", "|. . = . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "E1", defense=12)]))
    activate(tab, "a")
    rolled = act(tab, "red", model.Attack("a", "b"), dice=(10,))[0]
    assert (rolled.cover, rolled.defense, rolled.total, rolled.hit) == (True, 16, 14, False)
    assert rolled.screens == ("low objects at C1",)


def test_sk_4_difficult_terrain_costs_double_and_gives_no_cover():
    """SK-4: A1→B1 (difficult terrain, 2)→C1 costs 3; a shot over it meets Defense 12, not 16."""
    rows = ["+-+-+-+-+-+", "|. ~ . . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "E1", defense=12)]))
    activate(tab, "a")
    rolled = act(tab, "red", model.Attack("a", "b"), dice=(8,))[0]
    assert (rolled.cover, rolled.defense, rolled.hit) == (False, 12, True)


def test_sk_4_the_move_through_difficult_terrain_costs_double():
    """SK-4: the cost of a path into difficult terrain counts that step twice."""
    rows = ["+-+-+-+-+-+", "|. ~ . . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "E1")]))
    activate(tab, "a")
    moved = act(tab, "red", model.Move("a", (2, 0)))
    assert moved[0].cost == 3 and moved[0].doubled == ((1, 0),)


def test_sk_5_a_pit_is_seen_across_but_not_crossed():
    """SK-5: the pit at B1 cuts A1 from C1 (refused, no way round), but A1 sees D1 across it, and
    the pit gives no cover."""
    rows = ["+-+-+-+-+", "|. O . .|", "+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "D1", defense=12)]))
    activate(tab, "a")
    refused = act(tab, "red", model.Move("a", (2, 0)))
    assert refused.rule == "SK-5" and "pits lie between A1 and C1" in refused.reason
    refused = act(tab, "red", model.Move("a", (1, 0)))
    assert said(refused) == ("SK-5", "B1 is a pit: no figure may enter it")
    assert rules.sight(tab.state, (0, 0), (3, 0))[:3] == (True, None, False)
    rolled = act(tab, "red", model.Attack("a", "b"), dice=(8,))[0]
    assert rolled.cover is False and rolled.defense == 12


# --- SK-6 doors --------------------------------------------------------------------------------------


def test_sk_6_a_closed_door_is_a_wall_and_an_open_door_changes_nothing():
    """SK-6: in a wall with one door, closed, door1 stops the step B2→C2 and every line of sight
    to D2; once a opens it, b at D2 sees and hits a through it."""
    rows = ["+-+-+-+-+", "|. .|. .|", "+ + + + +", "|. .D. .|", "+ + + + +", "|. .|. .|", "+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "B2"), fig("b", "blue", "D2", defense=12)]))
    activate(tab, "a")
    refused = act(tab, "red", model.Move("a", (2, 1)))
    assert said(refused) == ("SK-6", "the step B2→C2 crosses the closed door door1 (B2|C2): a closed door is "
                                "a wall")
    refused = act(tab, "red", model.Attack("a", "b"))
    assert refused.rule == "SK-C3" and "the closed door door1 (B2|C2)" in refused.reason
    end(tab, "a")
    act(tab, "red", model.DecideDoor("a", "door1", True))
    assert door_of(tab).open and door_of(tab).holder == "a"
    activate(tab, "b")
    rolled = act(tab, "blue", model.Attack("b", "a"), dice=(15,))[0]
    assert rolled.hit


# --- SK-7 … SK-9: the holder ---------------------------------------------------------------------------


def test_sk_7_a_figure_ending_its_turn_next_to_a_free_door_decides_it():
    """SK-7: after its actions, a figure in contact with a door nobody holds is asked (its seat
    only); until it answers nothing else is accepted; opening makes it the holder."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "A2"), fig("b", "blue", "D1")]))
    activate(tab, "a")
    act(tab, "red", model.Move("a", (1, 1)))
    due = end(tab, "a")
    assert due == [model.DoorDecisionsDue("a", ("door1",))]
    assert GAME.legal(tab.state, "red") == [model.DecideDoor("a", "door1", True), model.DecideDoor("a", "door1", False)]
    assert GAME.legal(tab.state, "blue") == []
    refused = act(tab, "red", model.Move("a", (1, 0)))
    assert refused.rule == "SK-7" and "decide door 1 first" in refused.reason
    decided = act(tab, "red", model.DecideDoor("a", "door1", True))
    assert decided[0] == model.DoorDecided("door1", "a", True, False, "SK-7")
    assert types(decided)[1:] == ["ActivationEnded"]
    assert (door_of(tab).open, door_of(tab).holder) == (True, "a")


def test_sk_7_a_door_stays_closed_while_figures_only_pass_it():
    """SK-7: a figure that moves through the door's contact squares and ends elsewhere decides
    nothing: the door stays closed and nobody holds it."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    activate(tab, "a")
    act(tab, "red", model.Move("a", (1, 1)))
    act(tab, "red", model.Move("a", (0, 2)))
    events = end(tab, "a")
    assert types(events) == ["ActivationEnded"]
    assert (door_of(tab).open, door_of(tab).holder) == (False, None)


def test_sk_8_the_holder_decides_again_at_the_end_of_its_next_activation():
    """SK-8: a opened door1 in round 1; at the end of its next activation it closes it (rule SK-8)."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("b", "blue", "D1")]))
    hold(tab, "a", True)
    pass_turn(tab, "b")
    activate(tab, "a")
    due = end(tab, "a")
    assert due == [model.DoorDecisionsDue("a", ("door1",))]
    decided = act(tab, "red", model.DecideDoor("a", "door1", False))
    assert decided[0] == model.DoorDecided("door1", "a", False, True, "SK-8")
    assert (door_of(tab).open, door_of(tab).holder) == (False, "a")


def test_sk_9_a_holder_that_is_not_in_contact_at_the_end_of_its_activation_lets_the_door_close():
    """SK-9: a opened door1, then walks to A3 and ends its activation there: the door closes and
    nobody holds it; no decision is asked."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("b", "blue", "D1")]))
    hold(tab, "a", True)
    pass_turn(tab, "b")
    activate(tab, "a")
    act(tab, "red", model.Move("a", (0, 2)))
    events = end(tab, "a")
    assert events[0] == model.DoorReleased("door1", "a", True)
    assert types(events) == ["DoorReleased", "ActivationEnded"]
    assert (door_of(tab).open, door_of(tab).holder) == (False, None)


def test_sk_9_a_defeated_holder_lets_the_door_close_under_skirmish_2():
    """SK-9 (the reading of skirmish-1 and skirmish-2): a holder that falls is no longer in contact; the
    door closes at once. skirmish-3 keeps the door as it is (tests/games/skirmish/test_fallen_holder.py)."""
    tab = Table.create(GAME_2, "g-test", scenario(DOOR_ROOM, [fig("a", "red", "B2", hp=10),
                                                              fig("b", "blue", "C2", damage=10)]), 1)
    hold(tab, "a", True)
    activate(tab, "b")
    events = act(tab, "blue", model.Attack("b", "a"), dice=(18,))
    assert types(events) == ["AttackRolled", "FigureDefeated", "DoorReleased", "GameEnded"]
    assert events[2] == model.DoorReleased("door1", "a", True)
    assert (door_of(tab).open, door_of(tab).holder) == (False, None)


# --- SK-10, SK-11: contests ----------------------------------------------------------------------------


def contest_table(extra: list = (), **stats) -> object:
    """a (red) holds door1 closed from B2; blue's z stands at D2, ready to step into contact."""
    figures = [fig("a", "red", "B2", attack=stats.get("a_attack", 4)), fig("z", "blue", "D2", attack=3)]
    tab = table(scenario(DOOR_ROOM, figures + list(extra)))
    hold(tab, "a", False)
    return tab


def contest_open(tab: object, dice: tuple) -> list:
    """z is activated, steps into contact at C2 and contests door1 open on ``dice`` (SK-10): the events."""
    activate(tab, "z")
    act(tab, "blue", model.Move("z", (2, 1)))
    return act(tab, "blue", model.ContestDoor("z", "door1", True), dice=dice)


def test_sk_10_an_enemy_contest_is_an_opposed_d20_plus_attack_and_the_winner_holds_the_door():
    """SK-10: z (Attack 3) steps to C2 and wants door1 open: 15 + 3 = 18 beats a's 10 + 4 = 14."""
    tab = contest_table()
    events = contest_open(tab, (15, 10))
    assert events == [model.DoorContested("door1", "z", "a", True, 3, 0, 4, 0, ((15, 18, 10, 14),), "z", True, "SK-10")]
    assert (door_of(tab).open, door_of(tab).holder) == (True, "z")


def test_sk_10_the_holder_wins_a_lower_enemy_roll_and_keeps_the_door():
    """SK-10: 5 + 3 = 8 against 12 + 4 = 16: a keeps door1 closed; z cannot try again this activation."""
    tab = contest_table()
    events = contest_open(tab, (5, 12))
    assert events[0].winner == "a" and events[0].open is False
    assert (door_of(tab).open, door_of(tab).holder) == (False, "a")
    again = act(tab, "blue", model.ContestDoor("z", "door1", True))
    assert again.rule == "SK-10" and "already contested door 1 this activation" in again.reason


def test_sk_10_each_side_adds_2_per_other_figure_of_its_side_in_contact():
    """SK-10, SK-C6: blue y at C3 adds +2 to z; red r at B1 adds +2 to a; nobody counts itself."""
    tab = contest_table([fig("r", "red", "B1"), fig("y", "blue", "C3")])
    # Round 1 so far: a (red) held the door. Blue's z acts next.
    event = contest_open(tab, (10, 10))[0]
    assert (event.figure_bonus, event.holder_bonus) == (2, 2)
    assert event.throws[0] == (10, 15, 10, 16)


def test_sk_10_a_critical_beats_a_higher_total():
    """SK-10, SK-C4: z rolls a natural 20 (23) against a's 19 + 10 = 29: the critical wins."""
    tab = contest_table(a_attack=10)
    event = contest_open(tab, (20, 19))[0]
    assert event.throws == ((20, 23, 19, 29),) and event.winner == "z"


def test_sk_10_the_holders_critical_beats_the_contesters_higher_total():
    """SK-10, SK-C4: a's natural 20 (24) is beaten by nothing but a critical: z's 19 + 3 + 4
    (two allies in contact) = 26 loses."""
    tab = contest_table([fig("y1", "blue", "C1"), fig("y2", "blue", "C3")])
    event = contest_open(tab, (19, 20))[0]
    assert event.throws == ((19, 26, 20, 24),) and event.winner == "a"


def test_sk_10_equal_totals_are_a_tie_and_both_roll_again():
    """SK-10, SK-C4: 10 + 3 = 13 against 9 + 4 = 13 is a tie; then 5 + 3 = 8 loses to 12 + 4."""
    tab = contest_table()
    event = contest_open(tab, (10, 9, 5, 12))[0]
    assert event.throws == ((10, 13, 9, 13), (5, 8, 12, 16)) and event.winner == "a"


def test_sk_c4_two_criticals_are_a_tie():
    """SK-C4: both roll a natural 20: a tie, both roll again (then 10 + 3 beats 2 + 4)."""
    tab = contest_table()
    event = contest_open(tab, (20, 20, 10, 2))[0]
    assert event.throws == ((20, 23, 20, 24), (10, 13, 2, 6)) and event.winner == "z"


def test_sk_c6_sk_10_contests_need_contact_a_holder_and_a_change():
    """SK-C6, SK-7, SK-8, SK-10: out of contact (SK-C6), at a free door, by the holder itself, or for the state the
    door already has, a contest is refused with the fact."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("z", "blue", "D2")]))
    activate(tab, "a")
    free = act(tab, "red", model.ContestDoor("a", "door1", True))
    assert free.rule == "SK-7" and "nobody holds door 1" in free.reason
    end(tab, "a")
    act(tab, "red", model.DecideDoor("a", "door1", False))
    activate(tab, "z")
    far = act(tab, "blue", model.ContestDoor("z", "door1", True))
    assert far.rule == "SK-C6" and "D2 is not in contact with door 1" in far.reason  # contact is SK-C6's
    act(tab, "blue", model.Move("z", (2, 1)))
    same = act(tab, "blue", model.ContestDoor("z", "door1", False))
    assert said(same) == ("SK-10", "door 1 is already closed")
    act(tab, "blue", model.EndActivation("z"))
    activate(tab, "a")
    own = act(tab, "red", model.ContestDoor("a", "door1", True))
    assert own.rule == "SK-8"


def test_sk_11_an_ally_of_the_holder_still_rolls_against_it_with_4_more():
    """SK-11 (the digest's reading): red r steps into contact and wants door1 (held closed by its
    ally a) open: the same opposed roll, r with +4; each also counts the other as an ally in
    contact (+2, SK-C6). 6 + 4 + 2 + 4 = 16 beats 9 + 4 + 2 = 15."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("r", "red", "A1"), fig("z", "blue", "D3")]))
    hold(tab, "a", False)
    pass_turn(tab, "z")
    activate(tab, "r")
    act(tab, "red", model.Move("r", (1, 0)))
    event = act(tab, "red", model.ContestDoor("r", "door1", True), dice=(6, 9))[0]
    assert event == model.DoorContested("door1", "r", "a", True, 4, 6, 4, 2, ((6, 16, 9, 15),), "r", True, "SK-11")
    assert (door_of(tab).open, door_of(tab).holder) == (True, "r")


def test_sk_c4_a_contest_declared_when_the_holder_has_left_needs_no_roll():
    """SK-C4, SK-8: z wins door1 open, walks away and ends its activation (the door keeps the
    state it won until z's next activation); a, in contact, wants it closed: no roll, a takes it."""
    tab = contest_table()
    contest_open(tab, (15, 10))
    act(tab, "blue", model.Move("z", (3, 2)))
    events = act(tab, "blue", model.EndActivation("z"))
    assert types(events) == ["ActivationEnded", "RoundEnded"]
    assert (door_of(tab).open, door_of(tab).holder) == (True, "z")
    activate(tab, "a")
    taken = act(tab, "red", model.ContestDoor("a", "door1", False), dice=())
    assert taken == [model.DoorTaken("door1", "a", "z", False)]
    assert (door_of(tab).open, door_of(tab).holder) == (False, "a")


# --- SK-C2 steps and activations -------------------------------------------------------------------------


def test_sk_c2_a_move_without_a_figure_moves_the_figure_acting_now():
    """SK-C2, SK-C5: ``{"to": [1, 0]}`` alone (a click on a square) moves the active figure; with
    nobody acting it is refused."""
    tab = table(scenario(open_rows(3, 1), [fig("a", "red", "A1"), fig("b", "blue", "C1")]))
    command = GAME.commands.build({"type": "Move", "to": [1, 0]})
    assert command == model.Move(None, (1, 0))
    assert act(tab, "red", command).rule == "SK-C5"
    activate(tab, "a")
    assert act(tab, "red", command)[0].figure == "a"


def test_sk_c2_a_diagonal_step_costs_2_by_default_and_1_when_the_scenario_says_so():
    """SK-C2: A1→B2 costs 2, or 1 with "diagonal_cost": 1."""
    rows = open_rows(3, 3)
    figures = [fig("a", "red", "A1"), fig("b", "blue", "C3")]
    for cost, extra in ((2, {}), (1, {"diagonal_cost": 1})):
        tab = table(scenario(rows, figures, **extra))
        activate(tab, "a")
        assert act(tab, "red", model.Move("a", (1, 1)))[0].cost == cost


def test_sk_c2_figures_pass_through_allies_but_never_stop_on_them_nor_enter_enemies():
    """SK-C2: A1→C1 through ally b at B1; B1 itself refused; D1 (enemy) refused; E1 behind the
    enemy needs the way round the corridor, which has none."""
    rows = ["+-+-+-+-+-+", "|. . . . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "red", "B1"), fig("e", "blue", "D1")]))
    activate(tab, "a")
    assert act(tab, "red", model.Move("a", (1, 0))).reason == "B1 holds B: a figure may pass through an ally but " \
                                                         "not stop on it"
    enemy = act(tab, "red", model.Move("a", (3, 0)))
    assert enemy.rule == "SK-C2" and "enemy E: no figure" in enemy.reason
    behind = act(tab, "red", model.Move("a", (4, 0)))
    assert behind.rule == "SK-C2" and "enemies bar every way" in behind.reason
    moved = act(tab, "red", model.Move("a", (2, 0)))
    assert moved[0].passed == ((1, 0),)


def test_sk_c2_move_then_attack_attack_then_move_or_move_twice():
    """SK-C2: speed 3 on a long corridor: 3 then attack then nothing; attack then 3; or 6 and no
    attack after more than 3."""
    rows = ["+" + "-+" * 12, "|" + " ".join("." * 12) + "|", "+" + "-+" * 12]
    figures = [fig("a", "red", "A1", speed=3), fig("b", "blue", "L1", hp=50)]
    tab = table(scenario(rows, figures))
    activate(tab, "a")
    act(tab, "red", model.Move("a", (3, 0)))
    act(tab, "red", model.Attack("a", "b"), dice=(2,))
    assert act(tab, "red", model.Move("a", (4, 0))).reason == "A has no movement points left this activation"
    tab = table(scenario(rows, figures))
    activate(tab, "a")
    act(tab, "red", model.Attack("a", "b"), dice=(2,))
    assert act(tab, "red", model.Move("a", (3, 0)))[0].cost == 3
    assert act(tab, "red", model.Move("a", (4, 0))).rule == "SK-C2"
    tab = table(scenario(rows, figures))
    activate(tab, "a")
    assert act(tab, "red", model.Move("a", (6, 0)))[0].cost == 6
    refused = act(tab, "red", model.Attack("a", "b"))
    assert refused.rule == "SK-C2" and "moved 6 movement points, more than its 3" in refused.reason


def test_sk_c2_a_hit_deals_damage_and_a_figure_at_0_is_defeated():
    """SK-C2: 11 + 4 = 15 >= Defense 12: 10 damage of 15 hit points; then the next hit defeats it."""
    figures = [fig("a", "red", "A1"), fig("c", "red", "A2"), fig("b", "blue", "D1", hp=15)]
    tab = table(scenario(open_rows(4, 2), figures))
    activate(tab, "a")
    rolled = act(tab, "red", model.Attack("a", "b"), dice=(11,))
    assert rolled[0].hit and rolled[0].damage == 10 and rules.figure(tab.state, "b").hp == 5
    end(tab, "a")
    activate(tab, "b")
    end(tab, "b")
    activate(tab, "c")
    events = act(tab, "red", model.Attack("c", "b"), dice=(9,))
    assert events[1] == model.FigureDefeated("b", (3, 0))
    assert events[2] == model.GameEnded("red", "blue has no figure left")
    assert rules.figure(tab.state, "b").at is None and GAME.is_over(tab.state)


def test_sk_c2_a_melee_figure_attacks_only_adjacent_figures():
    """SK-C2 (reading): a melee figure two squares away is refused; adjacent, it attacks."""
    tab = table(scenario(open_rows(4, 1), [fig("a", "red", "A1", melee=True), fig("b", "blue", "C1")]))
    activate(tab, "a")
    refused = act(tab, "red", model.Attack("a", "b"))
    assert refused.rule == "SK-C2" and "fights in melee only" in refused.reason
    act(tab, "red", model.Move("a", (1, 0)))
    assert act(tab, "red", model.Attack("a", "b"), dice=(1,))[0].hit is False


# --- SK-C3 line of sight and cover ----------------------------------------------------------------------


def test_sk_c3_an_adjacent_target_never_has_cover_but_one_across_a_wall_is_not_adjacent():
    """SK-C3: across the wall A1|A2 the squares are not adjacent: a melee attack is refused."""
    rows = ["+-+-+", "|. .|", "+-+ +", "|. .|", "+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1", melee=True), fig("b", "blue", "A2")]))
    activate(tab, "a")
    refused = act(tab, "red", model.Attack("a", "b"))
    assert refused.rule == "SK-C2" and "not adjacent" in refused.reason
    assert rules.sight(tab.state, (0, 0), (0, 1))[0] is False


def test_sk_c3_figures_in_the_way_give_cover_but_not_next_to_the_attacker_low_objects():
    """SK-C3: another figure between attacker and target gives cover; low objects in the
    attacker's own or adjacent squares do not."""
    rows = ["+-+-+-+-+-+", "|. = . . .|", "+-+-+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "E1")]))
    assert rules.sight(tab.state, (0, 0), (4, 0))[2] is False
    crowded = table(scenario(rows, [fig("a", "red", "A1"), fig("c", "red", "C1"), fig("b", "blue", "E1")]))
    seen, _edge, cover, _corner, screens = rules.sight(crowded.state, (0, 0), (4, 0))
    assert seen and cover and screens == ("C (c) at C1",)


# --- SK-C5 activations ----------------------------------------------------------------------------------


def test_sk_c5_sides_alternate_a_side_with_nobody_left_is_skipped_and_rounds_end():
    """SK-C5: red a, blue b, red c; blue has nobody left, so the round ends and blue opens round 2
    (the side that did not act last); after the last round the game ends."""
    tab = table(scenario(open_rows(5, 1), [fig("a", "red", "A1"), fig("c", "red", "B1"), fig("b", "blue", "E1")],
                         rounds=2))
    assert GAME.turn(tab.state) == ("red",)
    assert [cmd.figure for cmd in GAME.legal(tab.state, "red")] == ["a", "c"]
    assert end(tab, "a").rule == "SK-C5"  # nobody is acting yet
    pass_turn(tab, "a")
    assert GAME.turn(tab.state) == ("blue",)
    pass_turn(tab, "b")
    refused = act(tab, "red", model.Activate("a"))
    assert said(refused) == ("SK-C5", "A has already activated in round 1")
    events = pass_turn(tab, "c")
    assert types(events) == ["ActivationEnded", "RoundEnded"] and events[0].next_side == "blue"
    assert (tab.state.round, GAME.turn(tab.state)) == (2, ("blue",))
    pass_turn(tab, "b")
    pass_turn(tab, "a")
    events = pass_turn(tab, "c")
    assert types(events) == ["ActivationEnded", "RoundEnded", "GameEnded"] and events[-1].winner is None
    assert GAME.is_over(tab.state) and GAME.legal(tab.state, "red") == []


def test_sk_c5_only_the_side_on_turn_and_only_the_active_figure_act():
    """SK-C5: blue out of turn is refused naming whose turn it is; another red figure than the
    active one is refused; an enemy's figure is refused."""
    tab = table(scenario(open_rows(4, 1), [fig("a", "red", "A1"), fig("c", "red", "B1"), fig("b", "blue", "D1")]))
    assert said(act(tab, "blue", model.Activate("b"))) == ("SK-C5", "it is red's turn, not blue's")
    assert act(tab, "red", model.Activate("b")).reason == "B is a blue figure, not one of red's"
    activate(tab, "a")
    assert act(tab, "red", model.Move("c", (2, 0))).reason == "A is acting, not C"
    assert act(tab, "red", model.Activate("c")).rule == "SK-C5"


# --- SK-C6 contact --------------------------------------------------------------------------------------


def test_sk_c6_six_squares_are_in_contact_with_a_door_ends_included():
    """SK-C6: door1 (B2|C2) touches B1, C1, B2, C2, B3, C3: three on each side."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    assert rules.contact_squares(tab.state, door_of(tab).edge) == ((1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2))


def test_sk_c6_keeping_a_door_closed_holds_it():
    """SK-C6: deciding to keep door1 closed makes a its holder, so an enemy must roll against a."""
    tab = contest_table()
    assert (door_of(tab).open, door_of(tab).holder) == (False, "a")
    assert isinstance(contest_open(tab, (3, 3))[0], model.DoorContested)


# --- purity ---------------------------------------------------------------------------------------------


def test_decide_never_changes_the_state_it_is_given():
    """STYLE habit 2: hash the state, decide every legal command, the hash is unchanged."""
    tab = contest_table([fig("y", "blue", "C3")])
    activate(tab, "z")
    act(tab, "blue", model.Move("z", (2, 1)))
    before = state_hash(tab.state)
    for command in GAME.legal(tab.state, "blue"):
        GAME.decide(tab.state, "blue", command, LoadedRng((7, 11) * 20))
        assert state_hash(tab.state) == before


# --- a door wider than one square is one door (SK-6…SK-11, SK-C6) ----------------------------------------


def test_sk_6_a_closed_wide_door_is_a_wall_along_every_edge_and_opens_as_one():
    """SK-6, SK-2, SK-7: closed, door1 stops B2→C2 and B3→C3, and B2→C3 cuts the point (2, 2)
    between its two edges; a decides it open from B1 (touching only its top end) and both edges
    open at once."""
    tab = table(scenario(WIDE_DOOR, [fig("a", "red", "B1"), fig("b", "blue", "D4")]))
    assert [d.id for d in tab.state.doors] == ["door1"]
    activate(tab, "a")
    act(tab, "red", model.Move("a", (1, 1)))
    refused = act(tab, "red", model.Move("a", (2, 1)))
    assert refused.rule == "SK-6" and "crosses the closed door door1 (B2|C2)" in refused.reason
    refused = act(tab, "red", model.Move("a", (2, 2)))
    assert refused.rule == "SK-2"
    assert "the corner point (2, 2), which the closed door door1 (B2|C2, B3|C3) touches" in refused.reason
    act(tab, "red", model.Move("a", (1, 0)))
    assert end(tab, "a") == [model.DoorDecisionsDue("a", ("door1",))]
    act(tab, "red", model.DecideDoor("a", "door1", True))
    assert rules.blocked_edges(tab.state) == set(tab.state.grid.walls)
    assert rules.line_of_sight(tab.state, (0, 2), (3, 2))


def test_sk_c6_a_wide_door_is_in_contact_with_every_square_touching_one_of_its_edges():
    """SK-C6: door1 (B2|C2, B3|C3) touches B1…B4 and C1…C4: four squares on each side."""
    tab = table(scenario(WIDE_DOOR, [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    squares = rules.door_contact(tab.state, door_of(tab))
    assert squares == ((1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3))


def test_sk_9_a_holder_leaving_every_edge_of_a_wide_door_closes_all_of_it():
    """SK-9, SK-C6: a opened door1 from B4 (the bottom end); moving to B3 keeps contact, so it
    decides again (SK-8); walking off to A4 closes the whole door and nobody holds it."""
    tab = table(scenario(WIDE_DOOR, [fig("a", "red", "B4"), fig("b", "blue", "D1")]))
    hold(tab, "a", True)
    pass_turn(tab, "b")
    activate(tab, "a")
    act(tab, "red", model.Move("a", (1, 2)))
    assert end(tab, "a") == [model.DoorDecisionsDue("a", ("door1",))]
    act(tab, "red", model.DecideDoor("a", "door1", True))
    pass_turn(tab, "b")
    activate(tab, "a")
    act(tab, "red", model.Move("a", (0, 3)))
    events = end(tab, "a")
    assert events[0] == model.DoorReleased("door1", "a", True)
    assert (door_of(tab).open, door_of(tab).holder) == (False, None)
    assert rules.blocked_edges(tab.state) >= {((1, 1), (2, 1)), ((1, 2), (2, 2))}


def test_sk_10_a_wide_door_is_contested_as_one_with_plus_2_for_contact_at_any_edge():
    """SK-10, SK-C6: a holds door1 closed from B1; z contests it from C4, which touches only the
    lower edge; blue y at C1 and red r at B4 each add +2 to their side: one roll for the door."""
    figures = [fig("a", "red", "B1"), fig("z", "blue", "D4", attack=3), fig("r", "red", "B4"),
               fig("y", "blue", "C1")]
    tab = table(scenario(WIDE_DOOR, figures))
    hold(tab, "a", False)
    activate(tab, "z")
    act(tab, "blue", model.Move("z", (2, 3)))
    event = act(tab, "blue", model.ContestDoor("z", "door1", True), dice=(10, 10))[0]
    assert (event.figure_bonus, event.holder_bonus, event.winner) == (2, 2, "a")
    assert event.throws == ((10, 15, 10, 16),)


# --- refusal order: the rule that forbids a command before whose turn it is (issue 15) ----------------

# A 4 × 3 room: a wall B1|C1, door1 B2|C2, a pit at D3; red's a at A1 opens, blue's z waits at D1.
ORDER_ROOM = [
    "+-+-+-+-+",
    "|. .|. .|",
    "+ + + + +",
    "|. .D. .|",
    "+ + + + +",
    "|. . . O|",
    "+-+-+-+-+",
]


def order_table() -> object:
    return table(scenario(ORDER_ROOM, [fig("a", "red", "A1"), fig("c", "red", "A3"), fig("z", "blue", "D1")]))


def test_sk_5_a_move_into_a_pit_out_of_turn_cites_the_pit_not_the_turn():
    """SK-5 before SK-C5: on red's turn blue's z wants D3, a pit; so does red's c while a acts."""
    tab = order_table()
    assert said(act(tab, "blue", model.Move("z", (3, 2)))) == ("SK-5", "D3 is a pit: no figure may enter it")
    activate(tab, "a")
    assert act(tab, "red", model.Move("c", (3, 2))).rule == "SK-5"
    assert said(act(tab, "blue", model.Move("z", (3, 1), ((3, 1),)))) == ("SK-C5", "it is red's turn, not blue's")


def test_sk_1_a_chosen_step_across_a_wall_out_of_turn_cites_the_wall_and_the_step():
    """SK-1 before SK-C5: z's path D1→C1→B1 crosses the wall, whoever's turn it is."""
    tab = order_table()
    refused = act(tab, "blue", model.Move("z", (1, 0), ((2, 0), (1, 0))))
    assert said(refused) == ("SK-1", "step 2, C1→B1: crosses the wall B1|C1: a wall stops movement")


def test_sk_c3_an_attack_out_of_turn_without_line_of_sight_cites_the_sight_rule():
    """SK-C3 before SK-C5: z at D1 cannot see a at A1 past the wall; c at A3 it can see, so
    attacking c out of turn is only a matter of turn."""
    tab = order_table()
    refused = act(tab, "blue", model.Attack("z", "a"))
    assert refused.rule == "SK-C3" and "no line of sight from D1 to A at A1" in refused.reason
    assert said(act(tab, "blue", model.Attack("z", "c"))) == ("SK-C5", "it is red's turn, not blue's")


def test_sk_10_a_contest_out_of_turn_cites_the_door_rules_before_the_turn():
    """SK-7, SK-10 before SK-C5: z at C1 touches door1 but nobody holds it (SK-7); y at D2 is not
    in contact (SK-C6); once a holds it closed, z's contest out of turn is only a matter of turn."""
    figures = [fig("a", "red", "A1"), fig("c", "red", "A3"), fig("z", "blue", "C1"), fig("y", "blue", "D2")]
    tab = table(scenario(ORDER_ROOM, figures))
    refused = act(tab, "blue", model.ContestDoor("z", "door1", True))
    assert refused.rule == "SK-7" and "nobody holds door 1" in refused.reason
    activate(tab, "a")
    act(tab, "red", model.Move("a", (1, 0)))
    end(tab, "a")
    act(tab, "red", model.DecideDoor("a", "door1", False))
    pass_turn(tab, "y")  # blue's turn passes; red's c is on turn
    refused = act(tab, "blue", model.ContestDoor("y", "door1", True))
    assert refused.rule == "SK-C6" and "Y at D2 is not in contact with door 1" in refused.reason
    assert said(act(tab, "blue", model.ContestDoor("z", "door1", True))) == ("SK-C5", "it is red's turn, not blue's")
    assert said(act(tab, "blue", model.Activate("y"))) == ("SK-C5", "Y has already activated in round 1")


def test_sk_c5_not_your_turn_when_nothing_else_forbids_and_the_state_is_untouched():
    """SK-C5: a legal command of the side not on turn is refused as out of turn; deciding it
    out of turn never changes the state (the hypothetical activation is not kept)."""
    tab = order_table()
    before = state_hash(tab.state)
    for command in (model.Move("z", (2, 0)), model.Move(None, (2, 0)), model.EndActivation("z"),
                    model.DecideDoor("z", "door1", True), model.Activate("z")):
        assert said(act(tab, "blue", command)) == ("SK-C5", "it is red's turn, not blue's"), command
    assert state_hash(tab.state) == before
    assert GAME.legal(tab.state, "blue") == []

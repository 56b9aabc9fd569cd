"""skirmish-3: a defeated holder only stops holding, and its door keeps its state (SK-7, SK-C4).

The original (shared/seeds/004_…): the door "demeure dans cet état jusqu'à ce que" one of four things
happens: the holder decides again or is no longer adjacent "à la fin de sa prochaine activation" (SK-8,
SK-9), or an opposing figure or an ally "arrive au contact" and wants to change it (SK-10, SK-11). A
defeated figure has no next activation, so neither SK-8 nor SK-9 ever happens to its door; SK-C4 says
what a contest is against a holder no longer adjacent: no roll. skirmish-1 and skirmish-2 closed the
door at once (their reading of SK-9): test_rules.py and test_versions.py keep them so.

``DOOR_ROOM`` (test_rules.py) is a 4 × 3 room with door1 between B2 and C2; in contact with it (SK-C6):
B1, C1, B2, C2, B3, C3. Red a holds door1 open from B2; blue b at C2 defeats it with one hit (18 + 4
against Defense 12, 10 damage of a's 10 hit points). Red r keeps red in the game.
"""

from __future__ import annotations

from events.games.skirmish import GAME, GAME_1, GAME_2, model, rules
from events.log import Table, audit
from server.i18n import say
from tests.games.skirmish.helpers import act, activate, end, fig, said, scenario, table, types
from tests.games.skirmish.test_rules import DOOR_ROOM, hold


def door1(tab):
    return rules.door(tab.state, "door1")


def fallen(extra: list = (), game=GAME) -> Table:
    """a holds door1 open; blue's b, activated, defeats it from C2 (the attack's events checked)."""
    figures = [fig("a", "red", "B2"), fig("r", "red", "A1"), fig("b", "blue", "C2", damage=10)]
    tab = Table.create(game, "g-test", scenario(DOOR_ROOM, figures + list(extra)), 1)
    hold(tab, "a", True)
    activate(tab, "b")
    events = act(tab, "blue", model.Attack("b", "a"), dice=(18,))
    assert types(events)[:2] == ["AttackRolled", "FigureDefeated"], events
    return tab


# --- hostile commands first: what a client can send about the door of a defeated holder -------------------


def test_sk_7_commands_naming_the_door_of_a_defeated_holder_are_refused_by_their_clause():
    """SK-7, SK-10, SK-C2, SK-C6, SK-6: after a's fall, door1 is open and a no longer stands. b may not
    decide it before its actions are over (SK-7), nor contest it open, which it is (SK-10); a defeated
    figure commands nothing (SK-C2); y at D3 is out of contact (SK-C6, judged before whose turn it is);
    an unknown door is none (SK-6). Nothing of it changes the door."""
    tab = fallen([fig("y", "blue", "D3")])
    before = tab.state
    assert said(act(tab, "blue", model.DecideDoor("b", "door1", False))) == (
        "SK-7", "B has no door to decide: door decisions come at the end of its actions")
    assert said(act(tab, "blue", model.ContestDoor("b", "door1", True))) == ("SK-10", "door 1 is already open")
    assert said(act(tab, "red", model.ContestDoor("a", "door1", False))) == ("SK-C2", "A is defeated")
    assert said(act(tab, "blue", model.ContestDoor("y", "door1", False)))[0] == "SK-C6"
    assert said(act(tab, "blue", model.ContestDoor("b", "door9", False)))[0] == "SK-6"
    assert tab.state == before


def test_sk_7_a_contest_for_a_door_nobody_ever_held_is_still_refused_under_skirmish_3():
    """SK-7: a door nobody holds (never held) is decided by a figure ending its turn in contact, never by a
    contest: skirmish-3 changes nothing for it."""
    tab = table(scenario(DOOR_ROOM, [fig("a", "red", "B2"), fig("b", "blue", "D1")]))
    assert tab.game is GAME and GAME.rules_version == "skirmish-3"
    activate(tab, "a")
    assert said(act(tab, "red", model.ContestDoor("a", "door1", True))) == (
        "SK-7", "nobody holds door 1: it is decided by a figure ending its turn in contact with it")


# --- what skirmish-3 decides --------------------------------------------------------------------------


def test_sk_7_a_defeated_holder_only_stops_holding_and_the_door_keeps_its_state():
    """SK-7: the attack that defeats a logs DoorHolderDefeated (citing SK-7) and no DoorReleased: door1
    stays open, so it is no wall (SK-6), and a, off the grid, holds nothing that stands."""
    figures = [fig("a", "red", "B2"), fig("r", "red", "A1"), fig("b", "blue", "C2", damage=10)]
    tab = table(scenario(DOOR_ROOM, figures))
    hold(tab, "a", True)
    activate(tab, "b")
    events = act(tab, "blue", model.Attack("b", "a"), dice=(18,))
    assert types(events) == ["AttackRolled", "FigureDefeated", "DoorHolderDefeated"]
    assert events[2] == model.DoorHolderDefeated("door1", "a", True)
    assert model.DoorHolderDefeated.RULE == "SK-7" and tab.envelopes[-1].rule == "SK-7"
    assert door1(tab).open is True
    assert not rules.blocked_edges(tab.state) & {((1, 1), (2, 1))}
    assert rules.figure(tab.state, "a").at is None


def test_sk_7_the_log_says_the_holder_no_longer_holds_and_the_door_stays_as_it_was():
    """SK-7: the log line in English, French and Russian."""
    tab = fallen()
    line = tab.game.describe(tab.envelopes[-1].event, tab.state)
    assert (line.key, say("en", line)) == ("sk.holder_defeated", "A no longer holds door 1, which stays open")
    assert say("fr", line) == "A ne tient plus porte 1, qui reste ouverte"
    assert say("ru", line) == "A больше не держит дверь 1; дверь по-прежнему открыта"


def test_sk_c4_both_sides_in_contact_the_next_contest_has_no_roll_then_the_taker_is_contested():
    """SK-C4, SK-10, SK-C6: red r at B3 and blue y at C3 are in contact with door1 too. b, still acting,
    contests it closed: its holder a is no longer in contact (defeated), so no die is drawn and b sets it
    closed and holds it, whoever else touches the door. In red's turn r contests it open against b, who is
    in contact: an opposed roll, +2 for blue's y (15 + 4 = 19 against 10 + 4 + 2 = 16): r holds it open."""
    tab = fallen([fig("y", "blue", "C3"), fig("r2", "red", "B3")])
    taken = act(tab, "blue", model.ContestDoor("b", "door1", False), dice=())
    assert taken == [model.DoorTaken("door1", "b", "a", False)]
    assert (door1(tab).open, door1(tab).holder) == (False, "b")
    assert types(end(tab, "b")) == ["ActivationEnded"]  # won this activation: decided at its next one (SK-8)
    activate(tab, "r2")
    contest = act(tab, "red", model.ContestDoor("r2", "door1", True), dice=(15, 10))[0]
    assert (contest.rule, contest.figure_bonus, contest.holder_bonus, contest.winner) == ("SK-10", 0, 2, "r2")
    assert (door1(tab).open, door1(tab).holder) == (True, "r2")


def test_sk_c4_an_ally_of_the_defeated_holder_takes_its_door_without_the_sk_11_roll():
    """SK-C4, SK-11: b walks away from door1 after its attack (to D2: out of contact, asked nothing); red
    r2 at B3, a's ally, contests it closed: no roll and no +4, r2 sets it closed and holds it."""
    tab = fallen([fig("r2", "red", "B3")])
    act(tab, "blue", model.Move("b", (3, 1)))
    assert types(end(tab, "b")) == ["ActivationEnded"]
    assert door1(tab).open is True
    activate(tab, "r2")
    assert said(act(tab, "red", model.ContestDoor("r2", "door1", True))) == ("SK-11", "door 1 is already open")
    assert act(tab, "red", model.ContestDoor("r2", "door1", False), dice=()) == [
        model.DoorTaken("door1", "r2", "a", False)]
    assert (door1(tab).open, door1(tab).holder) == (False, "r2")


def test_sk_7_a_figure_ending_its_turn_at_the_door_of_a_defeated_holder_decides_it_and_holds_it():
    """SK-7: b ends its activation at C2, in contact with door1, which no standing figure holds: it is
    asked to decide it, as for a door nobody holds, and closing it makes b its holder (DoorDecided, SK-7)."""
    tab = fallen()
    assert end(tab, "b") == [model.DoorDecisionsDue("b", ("door1",))]
    decided = act(tab, "blue", model.DecideDoor("b", "door1", False))
    assert decided[0] == model.DoorDecided("door1", "b", False, True, "SK-7")
    assert (door1(tab).open, door1(tab).holder) == (False, "b")
    assert rules.legal(tab.state, "red")  # play went on to red


def test_sk_7_keeping_the_door_as_it_is_holds_it_too():
    """SK-7, SK-C6: deciding to keep door1 open holds it as changing it would."""
    tab = fallen()
    end(tab, "b")
    decided = act(tab, "blue", model.DecideDoor("b", "door1", True))
    assert decided[0] == model.DoorDecided("door1", "b", True, True, "SK-7")
    assert door1(tab).holder == "b"


# --- the released versions keep their reading -----------------------------------------------------------


def test_sk_9_skirmish_1_and_skirmish_2_still_close_the_door_of_a_defeated_holder_at_once():
    """SK-9 (their reading): the same attack under skirmish-1 and skirmish-2 logs DoorReleased and the door
    closes; ending b's activation at it then asks for a decision of a door nobody holds (SK-7)."""
    for game in (GAME_1, GAME_2):
        tab = fallen(game=game)
        assert tab.envelopes[0].event.rules_version == game.rules_version
        assert tab.envelopes[-1].event == model.DoorReleased("door1", "a", True)
        assert (door1(tab).open, door1(tab).holder) == (False, None)


def test_sk_7_a_skirmish_3_game_with_a_fallen_holder_replays_and_audits():
    """SK-7, SK-C4: the log of a skirmish-3 game where a holder fell and its door was taken replays to
    every logged hash and audits (no roll was drawn for the taking)."""
    tab = fallen([fig("r2", "red", "B3")])
    act(tab, "blue", model.ContestDoor("b", "door1", False), dice=())
    restored = Table.restore(GAME, "g-test", tab.envelopes)
    assert restored.state == tab.state
    assert audit(GAME, tab.envelopes) is None

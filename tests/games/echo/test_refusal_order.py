"""Echo: a refusal cites the rule that forbids the command before whose turn it is (issue 15).

EC-C3 ("not your turn") answers only a command that no rule forbids; while a fight waits for
another seat (the seat to the left rolling an enemy's attack), the fighting seat's forbidden
commands are refused under their own clauses: leaving (EC-3), ending the move (EC-15), a
strike-order check after a failed evasion (EC-8), striking before the enemies after failing the
check (EC-7, or EC-16 against one of several enemies). The EC-15 round cost and the EC-16 reading
of how often an enemy strikes are here too.
"""

from __future__ import annotations

from events.games.echo import rules
from events.games.echo.model import (
    CheckOrder,
    CombatEnded,
    CombatRoundEnded,
    EndMove,
    EnemyAttacked,
    EnemyDetained,
    Evade,
    Fight,
    Move,
    Pass,
    RollAttack,
    Strike,
)
from events.games.echo.rules import turn
from tests import english
from tests.games.echo.helpers import GAME, act, cards, investigator_card, of, scenario, table
from tests.games.tables import rejected


def duel(**red_values):
    """red fights the Novice (Sanity 2, Health 2) in the Old City; blue, elsewhere, rolls its attacks."""
    red = investigator_card("red-t", items=["gloves-of-death", "dagger"], **red_values)
    return table(scenario([("red", "red-t", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                          [("novice-1", "novice-barking-fish", "old-city")], card_data=cards(investigators=(red,))))


def waiting_for_blue_after_a_failed_check():
    """red fails the strike-order check (Attention 3 − 1 = 2 dice): the fight waits for blue's roll."""
    tab = duel()
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (1, 1))
    assert turn(tab.state) == ("blue",) and tab.state.combat.step == "attack"
    return tab


def brawl_waiting_for_red():
    """red passes against both enemies, blue fails against the Magister only (EC-16): red strikes now."""
    tab = table(scenario([("red", "melifaro", "glutton-bunba"), ("blue", "lonli-lokli", "glutton-bunba")],
                         [("novice-1", "novice-barking-fish", "glutton-bunba"),
                          ("magister-1", "rebel-magister", "glutton-bunba")]))
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (5, 1, 6))
    act(tab, "blue", CheckOrder("attention"), (6, 1, 1, 2, 3))
    assert turn(tab.state) == ("red",) and tab.state.combat.step == "first"
    return tab


# --- while the fight waits for another seat -----------------------------------------------------


def test_ec_3_leaving_during_the_fight_is_refused_under_ec_3_not_ec_c3():
    """EC-3: the fight waits for blue's roll; red's Move out of the Old City cites EC-3, not EC-C3."""
    tab = waiting_for_blue_after_a_failed_check()
    rejected(act(tab, "red", Move("house-by-the-bridge")), "EC-3", "a fight is under way in The Old City",
             "must escape every enemy")


def test_ec_15_ending_the_move_during_the_fight_is_refused_under_ec_15_not_ec_c3():
    """EC-15: the fight waits for blue's roll; red's EndMove cites EC-15."""
    tab = waiting_for_blue_after_a_failed_check()
    rejected(act(tab, "red", EndMove()), "EC-15", "every enemy must be defeated or escaped first")


def test_ec_8_a_strike_order_check_after_a_failed_evasion_is_refused_under_ec_8():
    """EC-8: red's evasion failed, so the Novice strikes first without a check; while blue rolls, red's
    CheckOrder (and a strike) cite EC-8, not EC-C3."""
    tab = duel()
    act(tab, "red", Evade("novice-1"), (1, 1))
    assert turn(tab.state) == ("blue",)
    rejected(act(tab, "red", CheckOrder("attention")), "EC-8", "evasion failed: no strike-order check",
             "the enemies strike first")
    rejected(act(tab, "red", CheckOrder("stealth")), "EC-8", "evasion failed")
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-8", "the enemies strike first this round")


def test_ec_8_a_failed_retry_forbids_the_next_rounds_check_while_the_others_choose():
    """EC-8 with EC-5: after round 1 red's retry fails; the failure holds for round 2, cited while blue rolls."""
    tab = duel()
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (1, 1))
    act(tab, "blue", RollAttack(), (1,))
    act(tab, "red", Pass())
    act(tab, "red", Evade("novice-1"), (1, 1))
    assert tab.state.combat.round == 2 and turn(tab.state) == ("blue",)
    rejected(act(tab, "red", CheckOrder("attention")), "EC-8", "evasion failed")


def test_ec_7_striking_before_the_enemy_after_a_failed_check_is_refused_under_ec_7():
    """EC-7: red failed the check against its one enemy: its strike while blue rolls cites EC-7."""
    tab = waiting_for_blue_after_a_failed_check()
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-7", "failed the strike-order check",
             "Novice of the Order of the Barking Fish strikes first")
    rejected(act(tab, "red", Pass()), "EC-7", "failed the strike-order check")


def test_ec_16_striking_before_the_enemies_after_failing_against_one_of_several_is_refused_under_ec_16():
    """EC-16 / EC-7: blue failed against the Magister only: that is failing against both, so its strike
    while red strikes first, and while the enemies' dice are rolled, cites EC-16."""
    tab = brawl_waiting_for_red()
    rejected(act(tab, "blue", Strike("novice-1", "gloves-of-death")), "EC-16",
             "failed the strike-order check against one of 2 enemies", "every enemy strikes before it")
    act(tab, "red", Strike("magister-1", "dagger"))
    assert tab.state.combat.step == "attack" and turn(tab.state) == ("blue",)  # blue rolls for red first
    act(tab, "blue", RollAttack(), (1,))
    act(tab, "blue", RollAttack(), (1, 1))
    assert turn(tab.state) == ("red",)  # red rolls for blue now
    rejected(act(tab, "blue", Strike("novice-1", "gloves-of-death")), "EC-16", "every enemy strikes before it")


def test_ec_6_other_commands_of_a_fighter_cite_the_step_that_forbids_them():
    """EC-6 / EC-5: a second check in one round, an evasion in the middle of a round: each its clause."""
    tab = waiting_for_blue_after_a_failed_check()
    rejected(act(tab, "red", CheckOrder("attention")), "EC-6", "strike order of round 1 is already decided")
    rejected(act(tab, "red", Evade("novice-1")), "EC-5", "chosen after a round; round 1 is at its attack step")
    rejected(act(tab, "red", Fight()), "EC-5", "chosen after a round")


def test_ec_c3_only_when_nothing_else_forbids_it():
    """EC-C3: a command no rule forbids, from a seat the fight does not wait for, is out of turn; a seat
    outside the fight is out of turn too."""
    tab = brawl_waiting_for_red()
    act(tab, "red", Strike("magister-1", "dagger"))
    act(tab, "blue", RollAttack(), (1,))
    act(tab, "blue", RollAttack(), (1, 1))
    act(tab, "red", RollAttack(), (1,))
    act(tab, "red", RollAttack(), (1, 1))
    assert tab.state.combat.step == "second" and turn(tab.state) == ("blue",)
    act(tab, "blue", Pass())
    assert tab.state.combat.step == "after" and turn(tab.state) == ("red",)
    rejected(act(tab, "blue", Fight()), "EC-C3", "red must choose to evade again or fight on, not blue")
    duel_tab = waiting_for_blue_after_a_failed_check()
    rejected(GAME.decide(duel_tab.state, "red", RollAttack(), None), "EC-13", "rolled by blue")


# --- outside a fight ----------------------------------------------------------------------------


def test_ec_2_and_ec_3_out_of_turn_moves_cite_their_rule_first():
    """EC-2 / EC-3 / EC-15 / EC-4 before EC-C3: red moves now; blue's move to a place not joined to its own,
    its move or EndMove beside an enemy it has not evaded, an evasion of no enemy, each cite their rule; a
    move no rule forbids is only out of turn."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "old-city")],
                         [("novice-1", "novice-barking-fish", "iafakh")]))
    rejected(act(tab, "blue", Move("kholomi")), "EC-2", "is not joined to The Old City")
    rejected(act(tab, "blue", Evade("novice-1")), "EC-4", "no enemy 'novice-1' to evade in The Old City")
    rejected(act(tab, "blue", Fight()), "EC-3", "no enemy to fight in The Old City")
    rejected(act(tab, "blue", Move("iafakh")), "EC-C3", "it is red's movement, not blue's")
    blocked = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "iafakh")],
                             [("novice-1", "novice-barking-fish", "iafakh")]))
    rejected(act(blocked, "blue", Move("old-city")), "EC-3", "must evade or defeat it")
    rejected(act(blocked, "blue", EndMove()), "EC-15", "must defeat every enemy here or escape them all")
    rejected(act(blocked, "blue", Evade("novice-1")), "EC-C3", "it is red's movement")


# --- EC-15: every round costs 1, the last one too ----------------------------------------------


def test_ec_15_the_round_that_ends_the_fight_at_a_first_strike_costs_1():
    """EC-15: round 1 costs 1 (3 → 2); in round 2 red strikes first and the Gloves of Death detain the
    Novice at once: that round costs 1 too (2 → 1), paid before the fight ends."""
    tab = waiting_for_blue_after_a_failed_check()
    act(tab, "blue", RollAttack(), (1,))
    events = act(tab, "red", Pass())
    assert of(events, CombatRoundEnded) == [CombatRoundEnded(1, (("red", 2),))]
    act(tab, "red", Fight())
    act(tab, "red", CheckOrder("attention"), (5, 1))
    events = act(tab, "red", Strike("novice-1", "gloves-of-death"))
    assert of(events, EnemyDetained)[0].enemy == "novice-1"
    assert of(events, CombatRoundEnded) == [CombatRoundEnded(2, (("red", 1),))]
    assert events.index(of(events, CombatRoundEnded)[0]) < events.index(of(events, CombatEnded)[0])
    assert tab.state.combat is None and rules.investigator(tab.state, "red").mp == 1


def test_ec_15_the_round_that_ends_the_fight_at_the_strike_back_costs_1():
    """EC-15: red strikes second in round 1 and its strike-back detains the Novice: round 1 costs 1 (3 → 2)."""
    tab = waiting_for_blue_after_a_failed_check()
    act(tab, "blue", RollAttack(), (1,))
    events = act(tab, "red", Strike("novice-1", "gloves-of-death"))
    assert of(events, CombatRoundEnded) == [CombatRoundEnded(1, (("red", 2),))]
    assert of(events, CombatEnded)[0].reason == "every enemy of the fight is detained or dead"
    assert rules.investigator(tab.state, "red").mp == 2
    assert [m.to for m in rules.legal(tab.state, "red") if isinstance(m, Move)]  # it may walk on with 2


def test_ec_15_a_fight_ending_between_rounds_is_not_charged_twice():
    """EC-15: after a paid round, escaping the last enemy (EC-5) costs nothing more."""
    tab = waiting_for_blue_after_a_failed_check()
    act(tab, "blue", RollAttack(), (1,))
    act(tab, "red", Pass())
    events = act(tab, "red", Evade("novice-1"), (5, 1))
    assert of(events, CombatRoundEnded) == [] and tab.state.combat is None
    assert rules.investigator(tab.state, "red").mp == 2


# --- EC-16 Reading: how often an enemy strikes in a group fight --------------------------------


def test_ec_16_reading_each_enemy_strikes_each_investigator_once_a_round_and_cites_it():
    """EC-16 Reading: two investigators, two enemies: four attacks a round, one per pair, each citing
    EC-16 and saying so in its trace; a duel's attack cites EC-13."""
    tab = brawl_waiting_for_red()
    act(tab, "red", Strike("magister-1", "dagger"))
    attacks = []
    for roller, dice in (("blue", (1,)), ("blue", (1, 1)), ("red", (1,)), ("red", (1, 1))):
        attacks += of(act(tab, roller, RollAttack(), dice), EnemyAttacked)
    assert sorted((a.seat, a.enemy) for a in attacks) == [("blue", "magister-1"), ("blue", "novice-1"),
                                                         ("red", "magister-1"), ("red", "novice-1")]
    assert {a.rule for a in attacks} == {"EC-16"}
    assert "strikes each investigator of the fight once this round" in english.trace(GAME, attacks[0], tab.state)[-1]
    assert tab.state.combat.step == "second"
    duel_tab = waiting_for_blue_after_a_failed_check()
    (attack,) = of(act(duel_tab, "blue", RollAttack(), (1,)), EnemyAttacked)
    assert attack.rule == "EC-13" and len(GAME.trace(attack)) == 2
    assert GAME.events.build({k: v for k, v in attack.to_data().items() if k != "rule"}) == attack  # echo-1 logs


def test_ec_7_ec_9_ec_5_the_seats_own_prompt_takes_only_its_own_kind_of_command():
    """EC-7 / EC-9 / EC-5: when the fight waits for this seat, a command of another step cites that step."""
    tab = duel()
    act(tab, "red", Fight())
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-7", "round 1 begins with red's strike-order check")
    act(tab, "red", CheckOrder("attention"), (1, 1))
    act(tab, "blue", RollAttack(), (1,))
    assert tab.state.combat.step == "second" and turn(tab.state) == ("red",)
    rejected(act(tab, "red", Fight()), "EC-9", "red strikes now in round 1")
    act(tab, "red", Pass())
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-5", "round 1 is over: red may evade again")


def test_ec_6_ec_5_a_fighter_that_has_chosen_waits_under_the_clause_of_its_step():
    """EC-6 / EC-5: red has struck (first) and, later, chosen to fight on; while the others act, another
    strike (EC-6), a strike-order check before the round begins (EC-6), a second choice (EC-5) are refused."""
    tab = brawl_waiting_for_red()
    act(tab, "red", Strike("magister-1", "dagger"))
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-6", "red has no strike left in round 1")
    for roller, dice in (("blue", (1,)), ("blue", (1, 1)), ("red", (1,)), ("red", (1, 1))):
        act(tab, roller, RollAttack(), dice)
    act(tab, "blue", Pass())
    act(tab, "red", Fight())
    assert tab.state.combat.step == "after" and turn(tab.state) == ("blue",)
    rejected(act(tab, "red", CheckOrder("attention")), "EC-6", "the next round's strike-order check comes once")
    rejected(act(tab, "red", Strike("novice-1", "dagger")), "EC-5", "round 1 is over")
    rejected(act(tab, "red", Evade("novice-1")), "EC-5", "red has already chosen after round 1")
    act(tab, "blue", Evade("magister-1"))  # Stealth 2 − 2: no dice, blue's retry fails: EC-8 for round 2
    rejected(act(tab, "blue", CheckOrder("attention")), "EC-8", "evasion failed")


def test_ec_4_an_enemy_already_evaded_is_not_evaded_twice_by_any_seat():
    """EC-4: red slipped past the Novice; a second Evade is refused under EC-4, and so is blue's, out of
    turn, of an enemy that is not where blue stands."""
    tab = duel()
    act(tab, "red", Evade("novice-1"), (5, 1))
    rejected(act(tab, "red", Evade("novice-1")), "EC-4", "has already evaded")
    rejected(act(tab, "blue", Evade("novice-1")), "EC-4", "no enemy 'novice-1' to evade in")


def test_ec_8_an_echo_1_log_folds_as_it_did():
    """EC-8 / EC-13: a log written before echo-2 lacks StrikeOrderSet.holds and EnemyAttacked.rule; it
    decodes with echo-1's meaning (the seat leaves Combat.forced at once; the attack cites EC-13), so its
    states, and the hashes it logged, are what they were."""
    tab = duel()
    act(tab, "red", Evade("novice-1"), (1, 1))
    (order,) = [e.event for e in tab.envelopes if e.type == "StrikeOrderSet"]
    old = {key: value for key, value in order.to_data().items() if key != "holds"}
    decoded = GAME.events.build(old)
    assert decoded.holds is False and order.holds is True
    state = None
    for event in [envelope.event for envelope in tab.envelopes]:
        state = GAME.evolve(state, event if event.TYPE != "StrikeOrderSet" else decoded)
    assert state.combat.forced == ()  # echo-1: forced only until the strike order was set
    assert tab.state.combat.forced == ("red",)  # echo-2: for the whole round

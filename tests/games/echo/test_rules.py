"""The clauses of Echo's Movement phase, one behaviour per test (digest: shared/rules/echo.md).

Dice are loaded (``events.rng.LoadedRng``): ``act(tab, seat, command, dice)`` fails if the
command does not use exactly the dice given, so each test also checks how many dice a check rolls.
"""

from __future__ import annotations

from events.canonical import state_hash
from events.games.echo import model
from events.games.echo.rules import legal, turn
from events.games.mecha.model import Pass as MechaPass
from events.rng import LoadedRng
from events.rules import Rejection
from tests.games.echo.helpers import (
    GAME,
    act,
    cards,
    enemy_card,
    foe,
    inv,
    investigator_card,
    of,
    scenario,
    table,
    types,
)


def duel(**red_values):
    """red: a test investigator in the Old City with the Novice; blue waits at the House by the Bridge."""
    red = investigator_card("red-t", items=["gloves-of-death", "dagger"], spells=["banishing-spark"], **red_values)
    data = cards(investigators=(red,))
    return table(scenario([("red", "red-t", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                          [("novice-1", "novice-barking-fish", "old-city")], card_data=data))


def fight_second(tab, order_dice=(1, 1)):
    """red fights and fails the strike-order check (Attention 3 − 1 = 2 dice): the Novice strikes first."""
    act(tab, "red", model.Fight())
    events = act(tab, "red", model.CheckOrder("attention"), order_dice)
    assert of(events, model.StrikeOrderSet)[0].first is False
    return events


# --- EC-1 scope ---------------------------------------------------------------------------------------


def test_ec_1_the_phase_offers_moving_trading_and_fighting():
    """EC-1: moving and trading where no enemy is; evading or fighting where one is."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "house-by-the-bridge")],
                         [("novice-1", "novice-barking-fish", "armstrong-and-ella")]))
    kinds = {command.TYPE for command in legal(tab.state, "red")}
    assert {"Move", "EndMove", "Trade"} <= kinds
    act(tab, "red", model.Move("armstrong-and-ella"))
    assert {command.TYPE for command in legal(tab.state, "red")} == {"Evade", "Fight"}


def test_ec_1_a_command_of_another_phase_is_refused():
    """EC-1: a command this phase does not know is refused, naming what the phase is for."""
    tab = duel()
    result = act(tab, "red", MechaPass())
    assert isinstance(result, Rejection) and result.rule == "EC-1"
    assert "move, evade, fight and trade" in result.reason


# --- EC-2 movement points -----------------------------------------------------------------------------


def test_ec_2_worked_example_speed_5_gives_five_steps():
    """EC-2 (worked example): Melifaro's Speed 5 is five steps through the city, and no sixth."""
    tab = table(scenario([("red", "melifaro", "street-of-old-coins")], []))
    assert tab.envelopes[1].event == model.RoundBegan(1, (("red", 5),), "red")
    route = ["left-bank", "city-gate", "left-bank", "street-of-old-coins", "armstrong-and-ella"]
    for step, place in enumerate(route, 1):
        (moved,) = act(tab, "red", model.Move(place))
        assert moved.cost == 1 and moved.mp == 5 - step and moved.rule == "EC-2"
    refused = act(tab, "red", model.Move("house-by-the-bridge"))
    assert refused.rule == "EC-2" and "spent all 5 (Speed 5)" in refused.reason


def test_ec_2_a_white_arrow_and_a_dark_path_step_each_cost_1():
    """EC-2: a white arrow costs 1; the Dark Path costs 1 too."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge")], []))
    (arrow,) = act(tab, "red", model.Move("juffins-office"))
    (dark,) = act(tab, "red", model.Move("kholomi"))
    assert (arrow.link, arrow.cost, dark.link, dark.cost) == ("arrow", 1, "dark", 1)
    assert inv(tab, "red").mp == 3


def test_ec_2_a_place_not_linked_is_refused():
    """EC-2: only places joined by a white arrow or the Dark Path are one step away."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge")], []))
    refused = act(tab, "red", model.Move("asylum"))
    assert refused.rule == "EC-2"
    assert refused.reason == ("Asylum for the Insane / Приют Безумных is not joined to The House by the Bridge / "
                              "Дом у Моста by a white arrow or the Dark Path")


# --- EC-3 enemies block -------------------------------------------------------------------------------


def test_ec_3_leaving_a_location_with_an_enemy_is_refused():
    """EC-3: the Novice in the Old City keeps red there until evaded or defeated."""
    tab = duel()
    refused = act(tab, "red", model.Move("house-by-the-bridge"))
    assert refused.rule == "EC-3"
    assert "Novice of the Order of the Barking Fish is in The Old City" in refused.reason


def test_ec_3_passing_through_a_location_with_an_enemy_needs_evasion_too():
    """EC-3: entering is free, but going on through the Novice's place needs an evasion first."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge")],
                         [("novice-1", "novice-barking-fish", "armstrong-and-ella")]))
    act(tab, "red", model.Move("armstrong-and-ella"))
    assert act(tab, "red", model.Move("street-of-old-coins")).rule == "EC-3"
    (evaded,) = act(tab, "red", model.Evade("novice-1"), (5, 1, 1, 1))
    assert evaded.success
    (moved,) = act(tab, "red", model.Move("street-of-old-coins"))
    assert moved.to == "street-of-old-coins"


def test_ec_3_a_defeated_enemy_no_longer_blocks():
    """EC-3: once the Novice is defeated in combat, red may leave."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    events = act(tab, "red", model.Strike("novice-1", "gloves-of-death"))
    assert types(events)[-1] == "CombatEnded"
    assert act(tab, "red", model.Move("house-by-the-bridge"))[0].to == "house-by-the-bridge"


def test_ec_3_fight_with_no_enemy_is_refused():
    """EC-3: there must be an enemy to fight."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge")], []))
    assert act(tab, "red", model.Fight()).rule == "EC-3"


# --- EC-4 evasion -------------------------------------------------------------------------------------


def test_ec_4_worked_example_stealth_5_against_penalty_1_rolls_4_dice():
    """EC-4 (worked example): Stealth 5, the Novice's black 1: 5 − 1 = 4 dice; one 5 succeeds."""
    tab = table(scenario([("red", "melifaro", "old-city")], [("novice-1", "novice-barking-fish", "old-city")]))
    (rolled,) = act(tab, "red", model.Evade("novice-1"), (1, 2, 5, 3))
    assert (rolled.stealth, rolled.penalty, rolled.dice, rolled.success, rolled.rule) == (5, 1, (1, 2, 5, 3), True,
                                                                                          "EC-4")
    assert "novice-1" in inv(tab, "red").escaped


def test_ec_4_no_5_or_6_fails_and_the_investigator_must_fight():
    """EC-4: four dice without a 5 or 6 fail, and a fight begins."""
    tab = table(scenario([("red", "melifaro", "old-city")], [("novice-1", "novice-barking-fish", "old-city")]))
    events = act(tab, "red", model.Evade("novice-1"), (1, 2, 4, 3))
    assert not events[0].success
    assert events[1] == model.CombatBegan("old-city", ("red",), ("novice-1",), ("red",), "EC-4")
    assert tab.state.combat is not None


def test_ec_4_fewer_than_one_die_fails_without_a_roll():
    """EC-4 / Dice: Stealth 2 against penalty 2 is 0 dice: the evasion fails with no roll."""
    tab = table(scenario([("red", "lonli-lokli", "old-city")], [("m-1", "rebel-magister", "old-city")]))
    events = act(tab, "red", model.Evade("m-1"), ())
    assert events[0].dice == () and events[0].success is False
    assert isinstance(events[1], model.CombatBegan)


def test_ec_4_an_enemy_elsewhere_cannot_be_evaded():
    """EC-4: evasion is from an enemy in the investigator's own place."""
    tab = table(scenario([("red", "melifaro", "old-city")], [("novice-1", "novice-barking-fish", "iafakh")]))
    refused = act(tab, "red", model.Evade("novice-1"))
    assert refused.rule == "EC-4" and "no enemy 'novice-1' to evade in The Old City" in refused.reason


# --- EC-5 evading again -------------------------------------------------------------------------------


def test_ec_5_after_a_round_the_investigator_may_evade_again_and_slip_away():
    """EC-5: after round 1, a new Stealth check; success leaves the fight, and the way is free."""
    tab = duel()
    fight_second(tab)
    act(tab, "blue", model.RollAttack(), (1,))
    events = act(tab, "red", model.Pass())
    assert isinstance(events[-1], model.CombatStepBegan) and events[-1].step == "after"
    # Stealth 3 − evasion 1 = 2 dice.
    events = act(tab, "red", model.Evade("novice-1"), (6, 1))
    assert events[0] == model.EvasionRolled("red", "novice-1", 3, 1, (6, 1), True, "EC-5")
    assert types(events)[1:] == ["CombatLeft", "CombatEnded"]
    assert act(tab, "red", model.Move("house-by-the-bridge"))[0].to == "house-by-the-bridge"


def test_ec_5_fighting_on_instead_begins_the_next_round():
    """EC-5: Fight after a round starts round 2 with a new strike-order check."""
    tab = duel()
    fight_second(tab)
    act(tab, "blue", model.RollAttack(), (1,))
    act(tab, "red", model.Pass())
    events = act(tab, "red", model.Fight())
    assert events[0] == model.FightContinued("red")
    assert events[1] == model.CombatStepBegan(2, "order", (("order", "red", "red", None),))


# --- EC-6 combat round --------------------------------------------------------------------------------


def test_ec_6_a_round_is_order_then_first_strike_then_strike_back():
    """EC-6: who strikes first, the first strike, then the other's strike back if it survived."""
    tab = duel()
    events = act(tab, "red", model.Fight())
    assert events[1] == model.CombatStepBegan(1, "order", (("order", "red", "red", None),))
    events = act(tab, "red", model.CheckOrder("attention"), (5, 1))
    assert events[-1] == model.CombatStepBegan(1, "first", (("strike", "red", "red", None),))
    events = act(tab, "red", model.Strike("novice-1", "dagger"))
    # The Novice (Health 2) survives the Dagger's 1, so it strikes back: blue rolls its die.
    assert events[-1] == model.CombatStepBegan(1, "attack", (("attack", "blue", "red", "novice-1"),))
    events = act(tab, "blue", model.RollAttack(), (2,))
    assert [e.step for e in of(events, model.CombatStepBegan)] == ["second", "after"]
    assert of(events, model.CombatRoundEnded) == [model.CombatRoundEnded(1, (("red", 2),))]


def test_ec_6_an_enemy_defeated_by_the_first_strike_does_not_strike_back():
    """EC-6: the strike back comes only from a survivor."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (5, 1))
    events = act(tab, "red", model.Strike("novice-1", "gloves-of-death"))
    assert not of(events, model.EnemyAttacked)
    assert of(events, model.CombatEnded) and tab.state.combat is None


# --- EC-7 strike order --------------------------------------------------------------------------------


def test_ec_7_attention_with_the_enemy_penalty_decides_who_strikes_first():
    """EC-7: Attention 3 − attention penalty 1 = 2 dice; a 5 or 6 and the investigator strikes first."""
    tab = duel()
    act(tab, "red", model.Fight())
    events = act(tab, "red", model.CheckOrder("attention"), (5, 2))
    assert events[0] == model.StrikeOrderRolled("red", "novice-1", "attention", 3, 1, (5, 2), True, "EC-7")
    assert events[1] == model.StrikeOrderSet("red", True, "passed: strikes first", "EC-7")


def test_ec_7_a_failed_check_lets_the_enemy_strike_first():
    """EC-7: no 5 or 6: the enemy attacks first, before red's strike."""
    tab = duel()
    events = fight_second(tab, (4, 4))
    assert of(events, model.StrikeOrderSet)[0].reason == "failed: Novice of the Order of the Barking Fish (novice-1) " \
                                                   "strikes first"
    assert events[-1] == model.CombatStepBegan(1, "attack", (("attack", "blue", "red", "novice-1"),))
    assert turn(tab.state) == ("blue",)


def test_ec_7_the_check_must_come_before_a_strike():
    """EC-7: during the order step, a strike is refused."""
    tab = duel()
    act(tab, "red", model.Fight())
    refused = act(tab, "red", model.Strike("novice-1", "dagger"))
    assert refused.rule == "EC-7" and "strike-order check" in refused.reason


# --- EC-8 stealth the first time ----------------------------------------------------------------------


def test_ec_8_stealth_may_replace_attention_in_the_first_round_only():
    """EC-8: round 1 accepts Stealth; round 2 refuses it and offers Attention alone."""
    tab = duel(stealth=5)
    act(tab, "red", model.Fight())
    assert model.CheckOrder("stealth") in legal(tab.state, "red")
    events = act(tab, "red", model.CheckOrder("stealth"), (1, 1, 1, 1))  # Stealth 5 − 1 = 4 dice
    assert events[0].rule == "EC-8" and events[0].skill == "stealth" and len(events[0].dice) == 4
    act(tab, "blue", model.RollAttack(), (1,))
    act(tab, "red", model.Pass())
    act(tab, "red", model.Fight())
    assert legal(tab.state, "red") == [model.CheckOrder("attention")]
    refused = act(tab, "red", model.CheckOrder("stealth"))
    assert refused.rule == "EC-8" and "only the first time; this is round 2" in refused.reason


def test_ec_8_after_a_failed_evasion_there_is_no_check_and_the_enemy_strikes_first():
    """EC-8: the failed evasion skips the strike-order step: the Novice's attack comes at once."""
    tab = duel()
    events = act(tab, "red", model.Evade("novice-1"), (1, 1))
    assert of(events, model.StrikeOrderRolled) == []
    assert of(events, model.StrikeOrderSet) == [
        model.StrikeOrderSet("red", False, "its evasion failed: no strike-order check, the enemies strike first", "EC-8",
                             True)]
    assert tab.state.combat.step == "attack" and turn(tab.state) == ("blue",)


def test_ec_8_a_failed_evasion_after_a_round_also_skips_the_next_check():
    """EC-8 with EC-5: a failed retry means the enemy strikes first in the next round."""
    tab = duel()
    fight_second(tab)
    act(tab, "blue", model.RollAttack(), (1,))
    act(tab, "red", model.Pass())
    events = act(tab, "red", model.Evade("novice-1"), (1, 1))
    assert of(events, model.StrikeOrderSet)[0].rule == "EC-8"
    assert tab.state.combat.round == 2 and tab.state.combat.step == "attack"


# --- EC-9 striking ------------------------------------------------------------------------------------


def test_ec_9_an_item_strike_deals_the_item_damage():
    """EC-9: the Dagger takes 1 Health from the Novice, no roll."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "dagger"))
    assert events[0] == model.ItemStruck("red", "novice-1", "dagger", 0, 1)
    assert events[1] == model.EnemyDamaged("novice-1", "red", 0, 1, 2, 1, "EC-9")
    assert foe(tab, "novice-1").health == 1


def test_ec_9_a_card_the_investigator_does_not_hold_is_refused():
    """EC-9: only its own items and spells."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    refused = act(tab, "red", model.Strike("novice-1", "cudgel"))
    assert refused.rule == "EC-9" and "holds no item and knows no spell 'cudgel'" in refused.reason
    assert act(tab, "red", model.Strike("nobody", "dagger")).rule == "EC-9"


def test_ec_c2_a_card_the_game_s_cards_do_not_hold_is_refused_as_no_card_at_all():
    """EC-C2: the cards are the game's data; a strike with an id none of them has is refused under EC-C2
    (EC-9 is for a card of the game that this investigator does not hold, as the cudgel above)."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    refused = act(tab, "red", model.Strike("novice-1", "excalibur"))
    assert refused.rule == "EC-C2" and refused.reason == "'excalibur' is no item or spell of this game's cards"
    assert refused.key == "reject.echo.unknown_card"


def test_ec_9_an_item_without_damage_is_not_a_weapon_and_pass_is_always_possible():
    """EC-9: Kachar Balsam deals nothing; an investigator may let the strike go by."""
    balsam = investigator_card("b-t", items=["kachar-balsam"])
    tab = table(scenario([("red", "b-t", "old-city"), ("blue", "kofa", "old-city")],
                         [("novice-1", "novice-barking-fish", "old-city")], card_data=cards(investigators=(balsam,))))
    act(tab, "red", model.Fight())
    # blue (Kofa) is in the Old City too and has not escaped: it fights as well (EC-16).
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    act(tab, "blue", model.CheckOrder("attention"), (1, 1, 1, 1, 1))
    assert legal(tab.state, "red") == [model.Pass()]
    refused = act(tab, "red", model.Strike("novice-1", "kachar-balsam"))
    assert refused.rule == "EC-9" and "deals no damage" in refused.reason
    assert act(tab, "red", model.Pass())[0] == model.StrikePassed("red")


# --- EC-10 casting ------------------------------------------------------------------------------------


def test_ec_10_worked_example_banishing_spark_rolls_knowledge_minus_3():
    """EC-10 (worked example): Banishing Spark is obvious magic, difficulty 3: Knowledge 6 − 3 = 3 dice."""
    tab = duel(knowledge=6)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "banishing-spark"), (4, 6, 1))
    assert events[0] == model.SpellCast("red", "novice-1", "banishing-spark", "knowledge", 6, 3, (4, 6, 1), True)


def test_ec_10_knowledge_3_leaves_no_dice_for_banishing_spark():
    """EC-10: Knowledge 3 − 3 = 0 dice: the cast fails without a roll (and still costs its price)."""
    tab = duel(knowledge=3)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "banishing-spark"), ())
    assert events[0].dice == () and events[0].success is False
    assert of(events, model.PowerPaid) == [model.PowerPaid("red", "banishing-spark", 1, 4)]


def test_ec_10_true_magic_is_cast_with_intuition():
    """EC-10: Lethal Sphere is true magic, difficulty 2: Intuition 5 − 2 = 3 dice."""
    tab = table(scenario([("red", "max", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                         [("novice-1", "novice-barking-fish", "old-city")]))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6, 6))
    events = act(tab, "red", model.Strike("novice-1", "lethal-sphere"), (1, 1, 5))
    assert (events[0].skill, events[0].value, events[0].difficulty, events[0].success) == ("intuition", 5, 2, True)


# --- EC-11 price of power -----------------------------------------------------------------------------


def test_ec_11_worked_example_price_1_is_paid_whether_the_cast_succeeds_or_fails():
    """EC-11 (worked example): Banishing Spark costs 1 Sanity on a failed and on a successful cast."""
    tab = duel(knowledge=6, sanity=5)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    failed = act(tab, "red", model.Strike("novice-1", "banishing-spark"), (1, 2, 3))
    assert not failed[0].success and not of(failed, model.EnemyDamaged)
    assert of(failed, model.PowerPaid) == [model.PowerPaid("red", "banishing-spark", 1, 4)]
    act(tab, "blue", model.RollAttack(), (1,))  # the Novice strikes back: 0 + 1 fixed Sanity
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    succeeded = act(tab, "red", model.Strike("novice-1", "banishing-spark"), (5, 2, 3))
    assert succeeded[0].success
    assert of(succeeded, model.PowerPaid) == [model.PowerPaid("red", "banishing-spark", 1, 2)]
    assert inv(tab, "red").sanity == 2


def test_ec_11_a_spell_not_cast_in_combat_is_refused():
    """EC-11: the card says whether a spell can be cast in combat; Silent Speech cannot."""
    tab = table(scenario([("red", "max", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                         [("novice-1", "novice-barking-fish", "old-city")]))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6, 6))
    refused = act(tab, "red", model.Strike("novice-1", "silent-speech"))
    assert refused.rule == "EC-11" and refused.reason == "Silent Speech cannot be cast in combat: its card says so"
    assert model.Strike("novice-1", "silent-speech") not in legal(tab.state, "red")


# --- EC-12 spell effects ------------------------------------------------------------------------------


def test_ec_12_a_spell_takes_sanity_from_an_enemy_that_starts_with_its_card_values():
    """EC-12: the Magister starts at its card's Sanity 3, Health 3; Lethal Sphere takes 2 Sanity."""
    tab = table(scenario([("red", "max", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                         [("m-1", "rebel-magister", "old-city")]))
    assert (foe(tab, "m-1").sanity, foe(tab, "m-1").health) == (3, 3)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("m-1", "lethal-sphere"), (6, 1, 1))
    assert of(events, model.EnemyDamaged) == [model.EnemyDamaged("m-1", "red", 2, 0, 1, 3, "EC-12")]


# --- EC-13 enemy attack -------------------------------------------------------------------------------


def test_ec_13_worked_example_blue_1_rolls_one_die_for_sanity():
    """EC-13 (worked example): the Novice's blue 1 is one die for Sanity; a 5 costs 1 (plus EC-14's 1)."""
    tab = duel(sanity=5)
    fight_second(tab)
    events = act(tab, "blue", model.RollAttack(), (5,))
    assert events[0] == model.EnemyAttacked("blue", "red", "novice-1", (5,), (), 1, 0, 4, 5)
    assert events[1] == model.FixedDamageDealt("red", "novice-1", 1, 0, 3, 5)
    assert inv(tab, "red").sanity == 3


def test_ec_13_only_the_seat_to_the_left_rolls_the_enemy_dice():
    """EC-13: red fights, so blue (the next seat) rolls; red itself and green are refused."""
    tab = table(scenario([("red", "lonli-lokli", "old-city"), ("blue", "kofa", "house-by-the-bridge"),
                          ("green", "max", "house-by-the-bridge")], [("novice-1", "novice-barking-fish", "old-city")]))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1, 1))
    assert turn(tab.state) == ("blue",)
    for seat in ("red", "green"):
        refused = act(tab, seat, model.RollAttack())
        assert refused.rule == "EC-13"
        assert refused.reason == ("the dice of Novice of the Order of the Barking Fish against red's "
                                  f"investigator are rolled by blue, the seat to red's left, not by {seat}")
    assert legal(tab.state, "blue") == [model.RollAttack()] and legal(tab.state, "red") == []
    assert act(tab, "blue", model.RollAttack(), (3,))[0].roller == "blue"


def test_ec_13_the_left_of_the_last_seat_is_the_first():
    """EC-13 / EC-C3: seats sit clockwise in seat order, so the last seat's left neighbour is the first."""
    tab = table(scenario([("red", "kofa", "house-by-the-bridge"), ("blue", "lonli-lokli", "old-city")],
                         [("novice-1", "novice-barking-fish", "old-city")]))
    act(tab, "red", model.EndMove())
    act(tab, "blue", model.Fight())
    act(tab, "blue", model.CheckOrder("attention"), (1, 1, 1))
    assert turn(tab.state) == ("red",)
    assert act(tab, "red", model.RollAttack(), (6,))[0].roller == "red"


def test_ec_13_with_a_single_seat_that_seat_rolls():
    """EC-13: with one seat there is no one else: that seat rolls."""
    tab = table(scenario([("red", "lonli-lokli", "old-city")], [("novice-1", "novice-barking-fish", "old-city")]))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1, 1))
    assert turn(tab.state) == ("red",)
    assert act(tab, "red", model.RollAttack(), (2,))[0].roller == "red"


def test_ec_13_red_dice_take_health():
    """EC-13: the Restless Dead's red 2 is two dice for Health; each 5 or 6 costs 1."""
    tab = table(scenario([("red", "lonli-lokli", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                         [("dead-1", "restless-dead", "old-city")]))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1, 1))
    events = act(tab, "blue", model.RollAttack(), (6, 5))
    assert events[0] == model.EnemyAttacked("blue", "red", "dead-1", (), (6, 5), 0, 2, 6, 3)


def test_ec_13_no_attack_is_waiting_outside_a_fight():
    """EC-13: RollAttack answers an enemy attack only."""
    tab = duel()
    assert act(tab, "blue", model.RollAttack()).rule == "EC-13"


# --- EC-14 fixed damage -------------------------------------------------------------------------------


def test_ec_14_fixed_damage_comes_with_every_attack_even_when_the_dice_miss():
    """EC-14: the Novice deals 1 Sanity with every attack without a roll, in round 1 and round 2."""
    tab = duel(sanity=5)
    fight_second(tab)
    first = act(tab, "blue", model.RollAttack(), (1,))
    assert of(first, model.FixedDamageDealt) == [model.FixedDamageDealt("red", "novice-1", 1, 0, 4, 5)]
    act(tab, "red", model.Pass())
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    second = act(tab, "blue", model.RollAttack(), (2,))
    assert of(second, model.FixedDamageDealt) == [model.FixedDamageDealt("red", "novice-1", 1, 0, 3, 5)]


# --- EC-15 rounds cost movement -----------------------------------------------------------------------


def test_ec_15_each_round_costs_1_movement_point_and_the_fight_goes_on_at_0():
    """EC-15: Speed 2: rounds 1 and 2 spend both points; round 3 is fought at 0 (never below)."""
    tab = duel(speed=2, sanity=9)
    act(tab, "red", model.Fight())
    for round_number, left in ((1, 1), (2, 0), (3, 0)):
        act(tab, "red", model.CheckOrder("attention"), (1, 1))
        events = act(tab, "blue", model.RollAttack(), (1,))
        events += act(tab, "red", model.Pass())
        assert of(events, model.CombatRoundEnded) == [model.CombatRoundEnded(round_number, (("red", left),))]
        if round_number < 3:
            act(tab, "red", model.Fight())
    assert tab.state.combat is not None and inv(tab, "red").mp == 0


def test_ec_15_ending_the_move_beside_an_undefeated_enemy_is_refused():
    """EC-15: even with points left, every enemy here must be defeated or escaped."""
    tab = duel()
    refused = act(tab, "red", model.EndMove())
    assert refused.rule == "EC-15" and "must defeat every enemy here or escape them all" in refused.reason


def test_ec_15_no_move_while_a_fight_is_under_way():
    """EC-15 / EC-3: during the fight, leaving (EC-3) and ending the move (EC-15) are refused."""
    tab = duel()
    act(tab, "red", model.Fight())
    assert act(tab, "red", model.Move("house-by-the-bridge")).rule == "EC-3"
    assert act(tab, "red", model.EndMove()).rule == "EC-15"


# --- EC-16 group combat -------------------------------------------------------------------------------


def brawl():
    """Two investigators, two enemies, one location (the group-combat built-in's cast)."""
    return table(scenario([("red", "melifaro", "glutton-bunba"), ("blue", "lonli-lokli", "glutton-bunba")],
                          [("novice-1", "novice-barking-fish", "glutton-bunba"),
                           ("magister-1", "rebel-magister", "glutton-bunba")]))


def test_ec_16_everyone_in_the_location_fights_together():
    """EC-16: red's Fight brings blue and both enemies into one fight, red first in the order."""
    tab = brawl()
    events = act(tab, "red", model.Fight())
    assert events[0] == model.CombatBegan("glutton-bunba", ("red", "blue"), ("novice-1", "magister-1"), (), "EC-16")
    assert events[1] == model.CombatStepBegan(1, "order", (("order", "red", "red", None), ("order", "blue", "blue", None)))


def test_ec_16_passing_against_every_enemy_strikes_first_failing_against_one_is_failing_against_all():
    """EC-16: red passes against both and strikes before the enemies; blue passes against the Novice
    but fails against the Magister, so both enemies strike blue before blue strikes."""
    tab = brawl()
    act(tab, "red", model.Fight())
    # red: Attention 3 − 1 = 2 dice vs the Novice, 3 − 2 = 1 die vs the Magister.
    red = act(tab, "red", model.CheckOrder("attention"), (5, 1, 6))
    assert of(red, model.StrikeOrderSet) == [model.StrikeOrderSet("red", True, "passed against every enemy: strikes first",
                                                                  "EC-16")]
    # blue: Attention 4 − 1 = 3 dice vs the Novice (passes), 4 − 2 = 2 vs the Magister (fails).
    blue = act(tab, "blue", model.CheckOrder("attention"), (6, 1, 1, 2, 3))
    assert [e.success for e in of(blue, model.StrikeOrderRolled)] == [True, False]
    (order,) = of(blue, model.StrikeOrderSet)
    assert order.first is False and order.rule == "EC-16"
    assert "counts as failing against all, every enemy strikes first" in order.reason
    assert of(blue, model.CombatStepBegan)[-1] == model.CombatStepBegan(1, "first", (("strike", "red", "red", None),))
    # red strikes first; then every enemy attacks every investigator it fights (rolled by the left seat).
    events = act(tab, "red", model.Strike("magister-1", "dagger"))
    assert of(events, model.CombatStepBegan)[-1].queue == (
        ("attack", "blue", "red", "novice-1"), ("attack", "blue", "red", "magister-1"),
        ("attack", "red", "blue", "novice-1"), ("attack", "red", "blue", "magister-1"))
    for roller in ("blue", "blue", "red"):
        act(tab, roller, model.RollAttack(), _attack_dice(tab))
    events = act(tab, "red", model.RollAttack(), _attack_dice(tab))
    # only now, after both enemies struck it, does blue strike (second).
    assert of(events, model.CombatStepBegan)[-1] == model.CombatStepBegan(1, "second", (("strike", "blue", "blue", None),))


def _attack_dice(tab) -> tuple:
    """Missing dice (all 1) for the attack waiting now: blue + red dice of its enemy."""
    from events.games.echo.rules import card_of, prompt

    card = card_of(tab.state, prompt(tab.state)[3])
    return (1,) * (card.blue + card.red)


def test_ec_16_an_investigator_that_escaped_every_enemy_stays_out_of_the_fight():
    """EC-16: red slipped away from both; blue's failed evasion starts a fight of blue alone."""
    tab = brawl()
    act(tab, "red", model.Evade("novice-1"), (5, 1, 1, 1))
    act(tab, "red", model.Evade("magister-1"), (5, 1, 1))
    act(tab, "red", model.EndMove())
    events = act(tab, "blue", model.Evade("novice-1"), (1,))
    assert of(events, model.CombatBegan)[0].seats == ("blue",)


# --- EC-17 defeated enemies ---------------------------------------------------------------------------


def test_ec_17_an_enemy_at_0_or_minus_1_is_detained_and_its_card_taken():
    """EC-17: the Gloves take 3 Health from the Novice (2): −1, detained; red holds its card."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "gloves-of-death"))
    assert of(events, model.EnemyDetained) == [model.EnemyDetained("novice-1", "red", 2, -1)]
    assert foe(tab, "novice-1").status == "detained" and inv(tab, "red").detained == ("novice-1",)


def test_ec_17_an_enemy_at_minus_2_is_dead():
    """EC-17 (the designers' thresholds): Health −2 or lower: dead, the card leaves the game."""
    club = {"id": "club-t", "name_ru": "дубина", "name_en": "Club", "damage": {"health": 4}}
    red = investigator_card("red-t", items=["club-t"])
    tab = table(scenario([("red", "red-t", "old-city")], [("novice-1", "novice-barking-fish", "old-city")],
                         card_data=cards(investigators=(red,), items=(club,))))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "club-t"))
    (killed,) = of(events, model.EnemyKilled)
    assert (killed.health, killed.rule, killed.reason) == (-2, "EC-17", "Sanity or Health at −2 or below")
    assert foe(tab, "novice-1").status == "dead" and inv(tab, "red").detained == ()


def test_ec_17_an_enemy_at_0_in_both_tracks_is_dead():
    """EC-17: Sanity and Health both at 0 or below: dead, not detained."""
    both = {"id": "both-t", "name_ru": "обух", "name_en": "Both", "damage": {"sanity": 2, "health": 2}}
    red = investigator_card("red-t", items=["both-t"])
    tab = table(scenario([("red", "red-t", "old-city")], [("novice-1", "novice-barking-fish", "old-city")],
                         card_data=cards(investigators=(red,), items=(both,))))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    (killed,) = of(act(tab, "red", model.Strike("novice-1", "both-t")), model.EnemyKilled)
    assert (killed.sanity, killed.health, killed.reason) == (0, 0, "Sanity and Health both at 0 or below")


def test_ec_17_a_detained_enemy_is_exchanged_for_clues():
    """EC-17: the Novice's card is worth 1 clue; a card not held is refused."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    act(tab, "red", model.Strike("novice-1", "gloves-of-death"))
    assert model.Exchange("novice-1") in legal(tab.state, "red")
    assert act(tab, "red", model.Exchange("novice-1")) == [model.DetainedExchanged("red", "novice-1", 1)]
    assert inv(tab, "red").clues == 1 and inv(tab, "red").detained == ()
    refused = act(tab, "red", model.Exchange("novice-1"))
    assert refused.rule == "EC-17" and "holds no detained enemy 'novice-1'" in refused.reason


# --- EC-18 defeated investigators ---------------------------------------------------------------------


def attacked_by(enemy: dict, **red_values):
    """red fights a test enemy and fails the check; blue is to roll."""
    red = investigator_card("red-t", **red_values)
    tab = table(scenario([("red", "red-t", "old-city"), ("blue", "kofa", "house-by-the-bridge")],
                         [("e-1", enemy["id"], "old-city")], card_data=cards(investigators=(red,), enemies=(enemy,))))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    return tab


def test_ec_18_sanity_alone_at_0_sends_the_figure_to_the_asylum_with_sanity_1():
    """EC-18: Sanity 1 − 1 = 0, Health fine: to the Asylum for the Insane, Sanity 1; the fight ends."""
    tab = attacked_by(enemy_card("blue-t", attack={"blue": 1, "red": 0}), sanity=1)
    events = act(tab, "blue", model.RollAttack(), (6,))
    assert of(events, model.InvestigatorSentAway) == [model.InvestigatorSentAway("red", "old-city", "asylum", "sanity")]
    red = inv(tab, "red")
    assert (red.location, red.sanity, red.health, red.mp) == ("asylum", 1, 5, 0)
    assert of(events, model.CombatEnded) and of(events, model.TurnEnded)[0].seat == "red"


def test_ec_18_health_alone_at_minus_1_sends_the_figure_to_the_ministry_with_health_1():
    """EC-18: Health 1 − 2 = −1: to the Ministry of Perfect Order (its first location), Health 1."""
    tab = attacked_by(enemy_card("red-t2", attack={"blue": 0, "red": 2}), health=1)
    events = act(tab, "blue", model.RollAttack(), (5, 6))
    assert of(events, model.InvestigatorSentAway) == [model.InvestigatorSentAway("red", "old-city", "house-by-the-bridge",
                                                                                 "health")]
    assert (inv(tab, "red").location, inv(tab, "red").health) == ("house-by-the-bridge", 1)


def test_ec_18_both_tracks_at_0_or_minus_1_die():
    """EC-18: Sanity 0 and Health −1: the investigator dies."""
    tab = attacked_by(enemy_card("both-t2", attack={"blue": 1, "red": 2}), sanity=1, health=1)
    events = act(tab, "blue", model.RollAttack(), (5, 5, 6))
    assert of(events, model.InvestigatorDied) == [model.InvestigatorDied("red", 0, -1, "Sanity and Health both at 0 or −1")]
    assert inv(tab, "red").alive is False


def test_ec_18_a_track_below_minus_1_dies():
    """EC-18: Health 1 − 3 = −2, below −1: dead even with Sanity whole."""
    tab = attacked_by(enemy_card("big-t", attack={"blue": 0, "red": 3}), health=1)
    events = act(tab, "blue", model.RollAttack(), (5, 5, 6))
    assert of(events, model.InvestigatorDied)[0].reason == "Sanity or Health below −1"


def test_ec_18_the_price_of_power_can_send_the_caster_to_the_asylum():
    """EC-18 with EC-11: a cast at Sanity 1 pays 1 and the caster goes to the Asylum."""
    tab = duel(knowledge=6, sanity=1)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    events = act(tab, "red", model.Strike("novice-1", "banishing-spark"), (1, 1, 1))
    assert of(events, model.InvestigatorSentAway) == [model.InvestigatorSentAway("red", "old-city", "asylum", "sanity")]


def test_ec_18_a_dead_investigators_seat_still_rolls_for_its_neighbour_but_moves_no_more():
    """EC-18 / EC-13: blue's investigator is dead; blue's seat still rolls the dice for red."""
    brute = enemy_card("brute-t", attack={"blue": 0, "red": 6})
    tab = table(scenario([("red", "lonli-lokli", "old-city"), ("blue", "kofa", "iafakh")],
                         [("novice-1", "novice-barking-fish", "old-city"), ("brute-1", "brute-t", "iafakh")],
                         card_data=cards(enemies=(brute,))))
    # Check: red slips away and ends; blue fights the brute, fails the check, and dies (Health 4 − 6).
    act(tab, "red", model.Evade("novice-1"), (5,))
    act(tab, "red", model.EndMove())
    act(tab, "blue", model.Fight())
    act(tab, "blue", model.CheckOrder("attention"), (1, 1, 1, 1, 1))
    events = act(tab, "red", model.RollAttack(), (6, 6, 6, 6, 6, 6))
    assert of(events, model.InvestigatorDied)[0].seat == "blue" and inv(tab, "blue").alive is False
    # Check: round 2 begins with red; blue's seat moves no more, yet it rolls the Novice's dice for red.
    assert of(events, model.RoundBegan) == [model.RoundBegan(2, (("red", 3),), "red")]
    assert act(tab, "blue", model.Move("old-city")).rule == "EC-18"
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1, 1))
    assert act(tab, "blue", model.RollAttack(), (1,))[0].roller == "blue"


# --- EC-19 the Dark Side ------------------------------------------------------------------------------


def test_ec_19_from_a_ministry_location_1_point_takes_the_investigator_to_the_dark_side():
    """EC-19: the move ends in Juffin's office; 1 more point and it is on the Dark Side, its move over."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "old-city")], []))
    act(tab, "red", model.Move("juffins-office"))
    events = act(tab, "red", model.Move("dark-side"))
    assert events[0] == model.InvestigatorMoved("red", "juffins-office", "dark-side", "dark-side", 1, 3, "EC-19")
    assert events[1] == model.TurnEnded("red", "blue", 1)


def test_ec_19_the_dark_side_is_reached_only_from_the_ministry():
    """EC-19: from Kholomi, even along a Dark Path drawn to the Dark Side, the way in is refused."""
    tab = table(scenario([("red", "melifaro", "kholomi")], []))
    refused = act(tab, "red", model.Move("dark-side"))
    assert refused.rule == "EC-19" and "only from a Ministry of Perfect Order location" in refused.reason
    assert model.Move("dark-side") not in legal(tab.state, "red")


def test_ec_19_needs_a_movement_point():
    """EC-19: with no point left the Dark Side is out of reach."""
    tab = table(scenario([("red", "kofa", "old-city")], []))
    for place in ("house-by-the-bridge", "juffins-office", "house-by-the-bridge"):
        act(tab, "red", model.Move(place))
    refused = act(tab, "red", model.Move("dark-side"))
    assert refused.rule == "EC-19" and "has none left" in refused.reason


# --- EC-20 trading ------------------------------------------------------------------------------------


def test_ec_20_investigators_in_the_same_location_trade_items():
    """EC-20: Melifaro hands his Dagger to Max in the House by the Bridge."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "house-by-the-bridge")], []))
    assert act(tab, "red", model.Trade("dagger", "blue")) == [model.ItemTraded("red", "blue", "dagger")]
    assert inv(tab, "red").items == () and inv(tab, "blue").items == ("kachar-balsam", "dagger")
    # Trading is not a movement action: blue may hand something back outside its turn.
    assert act(tab, "blue", model.Trade("kachar-balsam", "red")) == [model.ItemTraded("blue", "red", "kachar-balsam")]


def test_ec_20_skills_allies_clues_and_spells_are_not_traded():
    """EC-20: only items change hands."""
    tab = table(scenario([("red", "max", "house-by-the-bridge"), ("blue", "kofa", "house-by-the-bridge")], []))
    reasons = {}
    for what in ("banishing-spark", "Армстронг / Armstrong", "clues", "stealth"):
        refused = act(tab, "red", model.Trade(what, "blue"))
        assert refused.rule == "EC-20"
        reasons[what] = refused.reason
    assert "spells cannot be traded" in reasons["banishing-spark"]
    assert "allies cannot be traded" in reasons["Армстронг / Armstrong"]
    assert "clues cannot be traded" in reasons["clues"]
    assert "Stealth is a skill" in reasons["stealth"]


def test_ec_20_only_in_the_same_location():
    """EC-20: Melifaro and Max in different places cannot trade."""
    tab = table(scenario([("red", "melifaro", "house-by-the-bridge"), ("blue", "max", "old-city")], []))
    refused = act(tab, "red", model.Trade("dagger", "blue"))
    assert refused.rule == "EC-20" and "only investigators in the same location trade" in refused.reason


# --- EC-C3 who acts -----------------------------------------------------------------------------------


def test_ec_c3_seats_move_in_seat_order_and_rounds_follow():
    """EC-C3: red, then blue, then a new round (EC-2 points again), then the end after the last round."""
    tab = table(scenario([("red", "melifaro", "old-city"), ("blue", "max", "old-city")], [], rounds=2))
    assert turn(tab.state) == ("red",)
    assert act(tab, "blue", model.EndMove()).rule == "EC-C3"
    assert act(tab, "red", model.EndMove()) == [model.TurnEnded("red", "blue", 1)]
    assert act(tab, "blue", model.EndMove()) == [model.TurnEnded("blue", "red", 2), model.RoundBegan(2, (("red", 5), ("blue", 4)), "red")]
    act(tab, "red", model.EndMove())
    assert act(tab, "blue", model.EndMove()) == [model.TurnEnded("blue", None, 2), model.GameEnded(2, "all 2 rounds are played")]
    assert GAME.is_over(tab.state) and turn(tab.state) == ()
    assert act(tab, "red", model.EndMove()).rule == "EC-C3"


def test_ec_c3_during_a_fight_only_the_prompted_seat_acts():
    """EC-C3: the fighting investigator's seat chooses its check and strikes; others wait."""
    tab = duel()
    act(tab, "red", model.Fight())
    refused = act(tab, "blue", model.CheckOrder("attention"))
    assert refused.rule == "EC-C3" and refused.reason == "red must make the strike-order check, not blue"


def test_ec_c3_decide_never_mutates_its_input():
    """EC-C3 / STYLE habit 2: decide is pure: the state's hash is unchanged by deciding."""
    tab = brawl()
    before = state_hash(tab.state)
    GAME.decide(tab.state, "red", model.Fight(), LoadedRng(()))
    GAME.decide(tab.state, "red", model.Evade("novice-1"), LoadedRng((1, 1, 1, 1)))
    assert state_hash(tab.state) == before


# --- EC-C4 enemy kinds --------------------------------------------------------------------------------


def test_ec_c4_undead_at_the_detaining_threshold_are_destroyed():
    """EC-C4: the Restless Dead (undead) at Health 0 is destroyed, not detained."""
    red = investigator_card("red-t", items=["gloves-of-death"])
    tab = table(scenario([("red", "red-t", "old-city")], [("dead-1", "restless-dead", "old-city")],
                         card_data=cards(investigators=(red,))))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    (killed,) = of(act(tab, "red", model.Strike("dead-1", "gloves-of-death")), model.EnemyKilled)
    assert (killed.health, killed.rule) == (0, "EC-C4") and "undead cannot be detained" in killed.reason
    assert inv(tab, "red").detained == ()


def test_ec_c4_an_artifact_is_destroyed_too():
    """EC-C4: the Cursed Mirror (artifact) at Health 0 is destroyed."""
    red = investigator_card("red-t", items=["dagger"])
    tab = table(scenario([("red", "red-t", "iafakh")], [("mirror-1", "cursed-mirror", "iafakh")],
                         card_data=cards(investigators=(red,))))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6,))
    (killed,) = of(act(tab, "red", model.Strike("mirror-1", "dagger")), model.EnemyKilled)
    assert killed.rule == "EC-C4" and foe(tab, "mirror-1").status == "dead"


def test_ec_9_legal_offers_each_target_with_each_weapon_and_pass():
    """EC-9: in a strike step legal() lists every enemy fought with every item and combat spell, and Pass."""
    tab = duel()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 6))
    assert legal(tab.state, "red") == [model.Strike("novice-1", "gloves-of-death"), model.Strike("novice-1", "dagger"),
                                       model.Strike("novice-1", "banishing-spark"), model.Pass()]

"""Echo's hard cases (the rules audit): a fight's last round and the points after it, slipping away,
group fights, a spell's price at the moment of victory, madness and injury mid-fight, each worked
out from shared/rules/echo.md (and the seed where the digest is brief) by hand in its docstring
before the engine ran.

Every check rolls (skill − penalty) dice and passes on a 5 or 6 (the digest's "Dice"). Test
investigators have every skill 3 and Sanity and Health 5 unless told otherwise; test enemies Sanity 3,
Health 3, evasion and attention penalties 1 and no attack dice (helpers).
"""

from __future__ import annotations

from events.games.echo import model
from events.games.echo.rules import prompt
from tests.games.echo.helpers import act, cards, enemy_card, foe, inv, investigator_card, of, scenario, table, types


def one_on_one(enemy: dict | None = None, seats: tuple = (("red", "old-city"),), **red):
    """red (a test investigator with a Dagger) in the Old City with enemy ``e1``; more seats if asked."""
    red.setdefault("items", ["dagger"])
    cast = [investigator_card("red-t", **red)] + [investigator_card(f"{seat}-t") for seat, _ in seats[1:]]
    enemy = enemy or enemy_card("foe")
    data = cards(investigators=tuple(cast), enemies=(enemy,))
    placed = [("red", "red-t", seats[0][1])] + [(seat, f"{seat}-t", at) for seat, at in seats[1:]]
    return table(scenario(placed, [("e1", enemy["id"], "old-city")], card_data=data))


def win_round_one(tab):
    """red fights, passes the strike-order check (Attention 3 − 1: (6, 1)) and strikes with the Dagger."""
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    return act(tab, "red", model.Strike("e1", "dagger"))


# --- EC-15 with EC-2: the round that ends a fight ----------------------------------------------------


def test_ec_15_the_round_won_at_once_costs_its_point_and_the_last_point_still_moves():
    """EC-15, EC-2: Speed 2. The Dagger (1 Health) takes the enemy's Health 1 to 0: detained in round 1.
    That round costs 1 point (EC-15: every round), so 1 is left: one step (Old City → House by the
    Bridge, a white arrow) is taken, and a second step is refused (EC-2)."""
    tab = one_on_one(enemy_card("frail", health=1), speed=2)
    events = win_round_one(tab)
    assert types(events)[-3:] == ["EnemyDetained", "CombatRoundEnded", "CombatEnded"]
    assert inv(tab, "red").mp == 1
    assert act(tab, "red", model.Move("house-by-the-bridge"))[0].mp == 0
    assert act(tab, "red", model.Move("old-city")).rule == "EC-2"


def test_ec_15_with_speed_1_the_winning_round_takes_the_only_point():
    """EC-15: Speed 1: the one round of the fight costs the one point; no step is left (EC-2), though
    the enemy is gone; ending the move is accepted."""
    tab = one_on_one(enemy_card("frail", health=1), speed=1)
    win_round_one(tab)
    assert inv(tab, "red").mp == 0
    assert act(tab, "red", model.Move("house-by-the-bridge")).rule == "EC-2"
    assert types(act(tab, "red", model.EndMove()))[0] == "TurnEnded"


def test_ec_5_slipping_away_after_a_round_leaves_the_enemy_and_keeps_the_points_left():
    """EC-5, EC-3, EC-15: Speed 3. Round 1: the strike-order check fails ((1, 1)), the enemy strikes
    first (no attack dice: its single seat rolls nothing), red passes; the round costs 1 (2 left).
    After it, a new Stealth check (Stealth 3 − evasion 1: (5, 1)) succeeds: red leaves the fight, the
    enemy stays in the Old City, still active, and red may walk away with its 2 points."""
    tab = one_on_one()
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    act(tab, "red", model.RollAttack(), ())
    act(tab, "red", model.Pass())
    events = act(tab, "red", model.Evade("e1"), (5, 1))
    assert types(events) == ["EvasionRolled", "CombatLeft", "CombatEnded"]
    assert foe(tab, "e1").status == "active" and inv(tab, "red").mp == 2
    assert act(tab, "red", model.Move("house-by-the-bridge"))[0].mp == 1


def test_ec_8_a_second_failed_evasion_skips_the_next_check_too():
    """EC-8, EC-5: red evades and fails ((1, 1)): no strike-order check in round 1, the enemy strikes
    first. After the round red tries again and fails ((2, 2)): round 2 opens with no check either;
    red's CheckOrder is refused citing EC-8."""
    tab = one_on_one()
    act(tab, "red", model.Evade("e1"), (1, 1))
    assert prompt(tab.state)[0] == "attack"
    act(tab, "red", model.RollAttack(), ())
    act(tab, "red", model.Pass())
    act(tab, "red", model.Evade("e1"), (2, 2))
    assert tab.state.combat.round == 2 and prompt(tab.state)[0] == "attack"
    assert act(tab, "red", model.CheckOrder("attention")).rule == "EC-8"


# --- EC-16: group fights ------------------------------------------------------------------------------


def test_ec_16_reading_one_enemy_strikes_each_investigator_once_rolled_by_each_ones_left():
    """EC-16 Reading, EC-13: red and blue fight one enemy in the Old City; both fail their checks. The
    enemy strikes each investigator once: against red, rolled by blue (red's left); against blue,
    rolled by red (blue's left, wrapping round). Each attack cites EC-16."""
    tab = one_on_one(enemy_card("biter", attack={"blue": 0, "red": 1}), seats=(("red", "old-city"), ("blue", "old-city")))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    act(tab, "blue", model.CheckOrder("attention"), (1, 1))
    assert tab.state.combat.queue == (("attack", "blue", "red", "e1"), ("attack", "red", "blue", "e1"))
    first = act(tab, "blue", model.RollAttack(), (5,))
    second = act(tab, "red", model.RollAttack(), (2,))
    assert of(first, model.EnemyAttacked)[0].rule == "EC-16" and of(second, model.EnemyAttacked)[0].rule == "EC-16"
    assert (inv(tab, "red").health, inv(tab, "blue").health) == (4, 5)


def test_ec_16_passing_against_every_enemy_is_cited_as_the_group_rule():
    """EC-16: red alone against two enemies passes both checks ((5, 1) and (6, 1)): it strikes before
    the enemies, and the strike order cites EC-16, not EC-7."""
    foe_card = enemy_card("foe")
    data = cards(investigators=(investigator_card("red-t", items=["dagger"]),), enemies=(foe_card,))
    tab = table(scenario([("red", "red-t", "old-city")], [("e1", "foe", "old-city"), ("e2", "foe", "old-city")],
                         card_data=data))
    act(tab, "red", model.Fight())
    events = act(tab, "red", model.CheckOrder("attention"), (5, 1, 6, 1))
    assert of(events, model.StrikeOrderSet)[0].first is True and of(events, model.StrikeOrderSet)[0].rule == "EC-16"
    assert prompt(tab.state)[:2] == ("strike", "red")


# --- EC-10, EC-11 with EC-17, EC-18: spells at their limits -------------------------------------------


def test_ec_10_knowledge_one_above_the_difficulty_rolls_one_die_and_a_4_fails_yet_pays():
    """EC-10, EC-11: Knowledge 4 − difficulty 3 = exactly 1 die; a 4 is no success, and the price of
    power (1 Sanity) is paid anyway: Sanity 5 → 4, the enemy untouched."""
    tab = one_on_one(knowledge=4, spells=["banishing-spark"])
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    events = act(tab, "red", model.Strike("e1", "banishing-spark"), (4,))
    assert of(events, model.SpellCast)[0].dice == (4,) and not of(events, model.SpellCast)[0].success
    assert inv(tab, "red").sanity == 4 and foe(tab, "e1").health == 3


def test_ec_11_the_price_of_the_winning_spell_drives_the_caster_mad_and_the_fight_still_ends():
    """EC-11, EC-17, EC-18: Sanity 1, Knowledge 4: Banishing Spark (3 Health) rolls one die, a 5: the
    enemy's Health 1 falls to −2, dead (−2 or lower, EC-17 Reading). The price (1 Sanity) is paid all
    the same: Sanity 0 alone, so the caster survives in the Asylum with Sanity 1 (EC-18), and the fight
    is over: no enemy is left."""
    tab = one_on_one(enemy_card("frail", health=1), knowledge=4, sanity=1, spells=["banishing-spark"])
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    events = act(tab, "red", model.Strike("e1", "banishing-spark"), (5,))
    assert types(events)[:5] == ["SpellCast", "EnemyDamaged", "EnemyKilled", "PowerPaid", "InvestigatorSentAway"]
    assert of(events, model.InvestigatorSentAway)[0].to == "asylum"
    assert tab.state.combat is None and inv(tab, "red").sanity == 1 and foe(tab, "e1").status == "dead"


def test_ec_17_reading_health_at_minus_1_alone_is_detained_not_dead():
    """EC-17 Reading: the Gloves of Death (3 Health) take Health 2 to −1, Sanity still 3: detained (a
    person), its card taken, not dead (dead needs −2, or both tracks at 0 or below)."""
    tab = one_on_one(enemy_card("tough", health=2), items=["gloves-of-death"])
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    events = act(tab, "red", model.Strike("e1", "gloves-of-death"))
    assert of(events, model.EnemyDetained) and not of(events, model.EnemyKilled)
    assert inv(tab, "red").detained == ("e1",)


def test_ec_17_both_tracks_reaching_0_at_once_is_death_not_detention():
    """EC-17 Reading: "dead when its Sanity and Health are both at 0 or below". A test item dealing 1
    Sanity and 2 Health strikes an enemy of Sanity 1 and Health 2: both fall to 0 in one strike, so it
    dies rather than being detained, though either track alone at 0 would only detain it."""
    blade = {"id": "twin-blade", "name_ru": "двойной клинок", "name_en": "Twin Blade", "damage": {"sanity": 1, "health": 2}}
    data = cards(investigators=(investigator_card("red-t", items=["twin-blade"]),),
                 enemies=(enemy_card("pair", sanity=1, health=2),), items=(blade,))
    tab = table(scenario([("red", "red-t", "old-city")], [("e1", "pair", "old-city")], card_data=data))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    events = act(tab, "red", model.Strike("e1", "twin-blade"))
    assert of(events, model.EnemyKilled) and not of(events, model.EnemyDetained)
    assert foe(tab, "e1").status == "dead" and inv(tab, "red").detained == ()


def test_ec_18_injured_by_the_first_strike_the_investigator_never_strikes_back():
    """EC-18, EC-6: Health 1. The check fails, the enemy strikes first with 2 red dice: (5, 6) is 2
    Health, −1, Health alone at −1: red survives, its figure to the Ministry (House by the Bridge)
    with Health 1. It is out of the fight, so step 3 (the strike back) never comes, and the fight
    ends with the enemy still in the Old City."""
    tab = one_on_one(enemy_card("brute", attack={"blue": 0, "red": 2}), health=1)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    events = act(tab, "red", model.RollAttack(), (5, 6))
    sent = of(events, model.InvestigatorSentAway)
    assert sent == [model.InvestigatorSentAway("red", "old-city", "house-by-the-bridge", "health")]
    assert not of(events, model.ItemStruck) and tab.state.combat is None
    assert inv(tab, "red").health == 1 and foe(tab, "e1").status == "active"


def test_ec_18_health_0_and_sanity_minus_1_from_one_attack_is_death():
    """EC-18, EC-14: Sanity 1, Health 1; one attack of 1 blue and 1 red die, both hit ((5, 5)), plus 1
    fixed Sanity: Sanity −1 and Health 0, both at 0 or −1: the investigator dies."""
    tab = one_on_one(enemy_card("wraith", attack={"blue": 1, "red": 1}, fixed={"sanity": 1}), sanity=1, health=1)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    events = act(tab, "red", model.RollAttack(), (5, 5))
    assert of(events, model.InvestigatorDied) and not inv(tab, "red").alive


# --- EC-19, EC-3, EC-C3: the Dark Side and the end of the phase ----------------------------------------


def test_ec_19_an_enemy_in_the_ministry_bars_the_dark_side_too():
    """EC-19, EC-3: going to the Dark Side is leaving the location; with an enemy in Juffin's office
    not evaded, it is refused under EC-3, before EC-19's point is looked at."""
    data = cards(investigators=(investigator_card("red-t"),), enemies=(enemy_card("foe"),))
    tab = table(scenario([("red", "red-t", "juffins-office")], [("e1", "foe", "juffins-office")], card_data=data))
    assert act(tab, "red", model.Move("dark-side")).rule == "EC-3"


def test_ec_c3_the_last_seat_ending_the_last_round_ends_the_game():
    """EC-C3: one round, one seat: its EndMove ends the round and the game."""
    data = cards(investigators=(investigator_card("red-t"),))
    tab = table(scenario([("red", "red-t", "old-city")], rounds=1, card_data=data))
    events = act(tab, "red", model.EndMove())
    assert types(events) == ["TurnEnded", "GameEnded"] and tab.state.over


def dark_side_lurker(game=None):
    """red in Juffin's office (a Ministry location); an enemy waits on the Dark Side; blue moves next."""
    data = cards(investigators=(investigator_card("red-t"), investigator_card("blue-t")), enemies=(enemy_card("foe"),))
    placed = scenario([("red", "red-t", "juffins-office"), ("blue", "blue-t", "old-city")],
                      [("e1", "foe", "dark-side")], card_data=data)
    if game is None:
        return table(placed)
    from events.log import Table

    return Table.create(game, "g-test", placed, 1)


def test_ec_19_an_enemy_on_the_dark_side_must_still_be_defeated_or_escaped():
    """EC-19, EC-15: red spends 1 point to go from Juffin's office to the Dark Side, which ends its move;
    an enemy stands there. As anywhere else, "even with no movement points left, the investigator must
    defeat every enemy in the location or escape all of them" (EC-15, built as: no move ends among
    enemies not evaded), so red's turn does not end: it must evade or fight. Ending the move is
    refused (EC-15) and leaving is refused (EC-3). A passed evasion (Stealth 3 − 1: (5, 1)) escapes the
    enemy, and only then the turn passes to blue. (echo-2 ended red's turn on arrival: fixed in echo-3.)"""
    tab = dark_side_lurker()
    events = act(tab, "red", model.Move("dark-side"))
    assert types(events) == ["InvestigatorMoved"] and tab.state.seats[tab.state.turn] == "red"
    assert act(tab, "red", model.EndMove()).rule == "EC-15"
    assert act(tab, "red", model.Move("juffins-office")).rule == "EC-3"
    events = act(tab, "red", model.Evade("e1"), (5, 1))
    assert types(events) == ["EvasionRolled", "TurnEnded"] and events[-1].next_seat == "blue"


def test_ec_19_a_fight_on_the_dark_side_ends_the_turn_when_it_ends():
    """EC-19, EC-3, EC-15: on the Dark Side red fights the enemy instead. It strikes first (Attention
    3 − 1: (6, 1)) but holds no weapon and passes; the enemy's attack (no dice) is blue's to roll (EC-13).
    After round 1 red slips away (EC-5, Stealth: (6, 1)): the fight is over, and with it red's move
    (EC-19 had ended it): the turn passes to blue at once."""
    tab = dark_side_lurker()
    act(tab, "red", model.Move("dark-side"))
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    act(tab, "red", model.Pass())
    act(tab, "blue", model.RollAttack(), ())
    events = act(tab, "red", model.Evade("e1"), (6, 1))
    assert types(events)[-2:] == ["CombatEnded", "TurnEnded"] and events[-1].next_seat == "blue"


def test_ec_19_echo_2_still_ends_the_turn_on_arrival():
    """EC-19: a game under echo-2 keeps the rule it was played under: the turn ends on arrival."""
    from events.games import load

    tab = dark_side_lurker(load("echo").version("echo-2"))
    assert types(act(tab, "red", model.Move("dark-side"))) == ["InvestigatorMoved", "TurnEnded"]


def test_ec_2_from_the_dark_side_the_next_round_leaves_by_the_dark_path_for_1_point():
    """EC-19, EC-2: red went to the Dark Side in round 1 (1 point, its move over). In round 2 it leaves
    along the Dark Path to Kholomi: a Dark Path step costs 1, like a white arrow (Speed 3: 2 left)."""
    data = cards(investigators=(investigator_card("red-t"),))
    tab = table(scenario([("red", "red-t", "juffins-office")], card_data=data))
    events = act(tab, "red", model.Move("dark-side"))
    assert types(events) == ["InvestigatorMoved", "TurnEnded", "RoundBegan"]
    moved = act(tab, "red", model.Move("kholomi"))[0]
    assert (moved.link, moved.cost, moved.mp) == ("dark", 1, 2)


def evaded_one_of_two(game=None):
    """red alone with e1 and e2 in the Old City; it evades e1 ((5, 1)) and fights e2, then fails the
    strike-order check ((1, 1)): e2 strikes first with its red die."""
    foe_card = enemy_card("biter", attack={"blue": 0, "red": 1})
    data = cards(investigators=(investigator_card("red-t"),), enemies=(foe_card,))
    placed = scenario([("red", "red-t", "old-city")], [("e1", "biter", "old-city"), ("e2", "biter", "old-city")],
                      card_data=data)
    if game is None:
        tab = table(placed)
    else:
        from events.log import Table

        tab = Table.create(game, "g-test", placed, 1)
    act(tab, "red", model.Evade("e1"), (5, 1))
    began = act(tab, "red", model.Fight())[0]
    act(tab, "red", model.CheckOrder("attention"), (1, 1))
    attacked = of(act(tab, "red", model.RollAttack(), (2,)), model.EnemyAttacked)
    return began, attacked


def test_ec_16_an_enemy_every_fighter_escaped_makes_no_group_fight():
    """EC-3, EC-13, EC-16: red evaded e1, so e1 fights nobody (it only blocks the investigators that did
    not escape it); the fight is red against e2 alone, one investigator and one enemy: it begins under
    EC-3 and e2's attack cites EC-13, not the group rule. (echo-2 cited EC-16 for both, counting every
    enemy present: fixed in echo-3.) e2 alone strikes, once (the queue held one attack)."""
    began, attacked = evaded_one_of_two()
    assert began == model.CombatBegan("old-city", ("red",), ("e1", "e2"), (), "EC-3")
    assert [(event.enemy, event.rule) for event in attacked] == [("e2", "EC-13")]


def test_ec_16_echo_2_still_cites_the_group_rule_there():
    """EC-16: a game under echo-2 keeps the citations it was played with."""
    from events.games import load

    began, attacked = evaded_one_of_two(load("echo").version("echo-2"))
    assert began.rule == "EC-16" and [event.rule for event in attacked] == ["EC-16"]


def test_ec_9_those_who_strike_first_strike_in_any_order():
    """EC-7, EC-9 (echo-3): red and blue both pass the strike-order check, so both strike first; the text
    sets no order between them, so blue's strike (here a Pass) is taken before red's, and ``turn`` and
    ``legal`` offer both. echo-2 still takes them in seat order (its logs)."""
    from events.games import load
    from events.games.echo import rules
    from events.log import Table
    from tests.games.tables import rejected

    def both_first(tab):
        act(tab, "red", model.Fight())
        act(tab, "red", model.CheckOrder("attention"), (6, 1))
        act(tab, "blue", model.CheckOrder("attention"), (6, 1))

    tab = one_on_one(enemy_card("foe", health=2), seats=(("red", "old-city"), ("blue", "old-city")))
    both_first(tab)
    assert rules.turn(tab.state) == ("red", "blue") and model.Pass() in tab.game.legal(tab.state, "blue")
    assert types(act(tab, "blue", model.Pass())) == ["StrikePassed"]
    assert prompt(tab.state)[:3] == ("strike", "red", "red") and rules.turn(tab.state) == ("red",)
    foe_card = enemy_card("foe", health=2)
    data = cards(investigators=(investigator_card("red-t", items=["dagger"]), investigator_card("blue-t")),
                 enemies=(foe_card,))
    old = Table.create(load("echo").version("echo-2"), "g-t", scenario(
        [("red", "red-t", "old-city"), ("blue", "blue-t", "old-city")], [("e1", foe_card["id"], "old-city")],
        card_data=data), 1)
    both_first(old)
    assert old.game.turn(old.state) == ("red",) and old.game.legal(old.state, "blue") == []
    rejected(act(old, "blue", model.Pass()), "EC-C3", "red must strike, not blue")


def test_ec_9_a_seat_not_striking_is_told_every_striker():
    """EC-9, EC-C3 (echo-3): red and blue both pass the strike-order check, green (in the same place, not
    fighting) is not among them. green's Pass is refused naming both red and blue, who may strike in any
    order, in the reader's language (the catalogue's ``reject.echo.waits_strikers``); blue, the second of
    them in seat order, is not refused. After blue's strike only red's is waiting: the refusal names red alone."""
    from tests.games.tables import rejected, said

    seats = (("red", "old-city"), ("blue", "old-city"), ("green", "house-by-the-bridge"))
    tab = one_on_one(enemy_card("foe", health=2), seats=seats)
    act(tab, "red", model.Fight())
    act(tab, "red", model.CheckOrder("attention"), (6, 1))
    act(tab, "blue", model.CheckOrder("attention"), (6, 1))
    refused = act(tab, "green", model.Pass())
    rejected(refused, "EC-C3", "red, blue may strike now, in any order, not green")
    assert said("echo", "fr", refused) == ("rouge, bleu peuvent frapper maintenant, dans l’ordre de leur choix, "
                                           "pas vert")
    assert "красный, синий могут ударить сейчас, в любом порядке" in said("echo", "ru", refused)
    rolled = act(tab, "green", model.RollAttack())
    rejected(rolled, "EC-13", "no enemy attack is waiting to be rolled: red, blue may strike now, in any order")
    assert types(act(tab, "blue", model.Pass())) == ["StrikePassed"]
    rejected(act(tab, "green", model.Pass()), "EC-C3", "red must strike, not green")

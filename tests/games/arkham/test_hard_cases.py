"""Arkham's hard cases (the rules audit): boundaries, two clauses at once, refusal order, the end of a
movement, each worked out from shared/rules/arkham.md by hand in its docstring before the engine ran.

Street lines used below (the digest's "Board"): the ring Northside – Downtown – Easttown – Rivertown –
French Hill – Southside – Uptown – Miskatonic U. – Merchant District – Northside, plus Merchant District
– Rivertown and Miskatonic U. – French Hill (and the unverified Merchant District – Downtown, kept by
default). A Location joins only its own Street area.
"""

from __future__ import annotations

from events.games import load
from events.games.arkham import model, rules
from events.log import Table
from tests.games.arkham.helpers import GAME, act, inv, investigator, mon, scenario, table, types
from tests.games.tables import rejected


def downtown_zombie(speed: int) -> Table:
    """Red in Northside; a Zombie in Downtown, on the cheapest way (2) to Easttown."""
    return table(scenario([inv("red", "northside", speed=speed)], [mon("zombie", "downtown")]))


# --- AH-7 with AH-3: the way a Move takes when the player names only the end -----------------------


def test_ah_7_a_move_goes_round_a_monster_when_the_way_round_fits():
    """AH-7, AH-3: Northside → Easttown costs 2 through Downtown, where a Zombie stands, or 3 through
    Merchant District and Rivertown. With Speed 4 the investigator can arrive without meeting the
    Zombie; AH-7 makes it face a monster only where it tries to leave or ends its movement, and it
    never tried to enter Downtown. So the Move arrives in Easttown by the way round, 1 point left.
    (arkham-3 walked the cheapest way and stopped in Downtown with 3 left: fixed in arkham-4.)"""
    tab = downtown_zombie(4)
    events = act(tab, "red", model.Move("easttown"))
    assert events == [model.InvestigatorMoved("red", "northside", "easttown", "easttown",
                                              ("merchant_district", "rivertown", "easttown"), 1)]


def test_ah_7_the_way_round_that_uses_up_every_point_is_still_taken():
    """AH-7, AH-2: Speed 3 is exactly the way round's cost (3): it still fits, 0 left."""
    tab = downtown_zombie(3)
    assert act(tab, "red", model.Move("easttown"))[0].path == ("merchant_district", "rivertown", "easttown")
    assert tab.state.points == 0


def test_ah_7_with_no_way_round_in_the_points_the_walk_stops_at_the_monster():
    """AH-7: with Speed 2 only the way through Downtown fits; the walk stops there (the aim recorded),
    1 point kept for after the monster is faced."""
    tab = downtown_zombie(2)
    events = act(tab, "red", model.Move("easttown"))
    assert events == [model.InvestigatorMoved("red", "northside", "downtown", "easttown", ("downtown",), 1)]
    rejected(act(tab, "red", model.Move("easttown")), "AH-7", "Zombie is in Downtown", "before leaving")


def test_ah_7_after_a_passed_evade_the_last_point_finishes_the_walk():
    """AH-7, AH-C2: stopped in Downtown with 1 point, Sneak 2 + Awareness 0 = 2 dice, (5, 1) passes;
    the investigator may go on moving: Downtown → Easttown costs the 1 point left."""
    tab = downtown_zombie(2)
    act(tab, "red", model.Move("easttown"))
    assert act(tab, "red", model.Evade("zombie"), dice=(5, 1))[-1] == model.MonsterEvaded("red", "zombie", "AH-C2")
    events = act(tab, "red", model.Move("easttown"))
    assert events == [model.InvestigatorMoved("red", "downtown", "easttown", "easttown", ("easttown",), 0)]


def test_ah_7_the_ask_answer_shows_the_way_the_move_takes():
    """AH-7: ``reachable`` (chronicle ask) gives Easttown at 3 by the way round with Speed 4, and at 2
    through Downtown with Speed 2, the way each Move would walk."""
    tab = downtown_zombie(4)
    assert rules.reach(tab.state, 0)["easttown"] == (3, ("merchant_district", "rivertown", "easttown"), "AH-2")
    assert rules.destinations(tab.state)["easttown"] == ("merchant_district", "rivertown", "easttown")
    tab = downtown_zombie(2)
    assert rules.reach(tab.state, 0)["easttown"] == (2, ("downtown", "easttown"), "AH-2")


def test_ah_7_arkham_3_still_walks_its_cheapest_way():
    """AH-7: a game under arkham-3 keeps the rule it was played under: the walk stops in Downtown."""
    game = load("arkham").version("arkham-3")
    tab = Table.create(game, "g-test", scenario([inv("red", "northside", speed=4)], [mon("zombie", "downtown")]), 1)
    events = act(tab, "red", model.Move("easttown"))
    assert events == [model.InvestigatorMoved("red", "northside", "downtown", "easttown", ("downtown",), 3)]


def test_ah_7_a_monster_at_the_end_is_no_reason_to_go_round():
    """AH-7: a monster in the destination itself is met at the end of any way; the cheapest (2) is
    walked, and the investigator must face it before stopping there."""
    tab = table(scenario([inv("red", "northside", speed=4)], [mon("zombie", "easttown")]))
    assert act(tab, "red", model.Move("easttown"))[0].path == ("downtown", "easttown")
    rejected(act(tab, "red", model.Stop()), "AH-7", "Zombie is in Easttown", "before ending the movement there")


# --- AH-2, AH-3: the player's own route, step by step ----------------------------------------------


def test_ah_2_a_chosen_path_that_uses_every_point_is_walked_and_one_more_step_is_refused():
    """AH-2, AH-3: Speed 3 from Northside: Downtown, Easttown, Rivertown is 3 steps, 0 left; adding
    General Store makes step 4, beyond the 3 points: refused at step 4 (AH-2)."""
    tab = table(scenario([inv("red", "northside", speed=3)]))
    before = tab.state
    rejected(act(tab, "red", model.Move("general_store", ("downtown", "easttown", "rivertown", "general_store"))),
             "AH-2", "step 4")
    assert tab.state is before
    assert act(tab, "red", model.Move("rivertown", ("downtown", "easttown", "rivertown")))[0].points_left == 0


def test_ah_7_a_chosen_path_through_a_monster_is_refused_at_the_step_leaving_it():
    """AH-7: the path Northside → Downtown → Easttown with a Zombie in Downtown: step 2 leaves Downtown,
    where the monster must be faced first: refused citing AH-7 at step 2, nothing walked."""
    tab = downtown_zombie(4)
    rejected(act(tab, "red", model.Move("easttown", ("downtown", "easttown"))), "AH-7", "step 2", "Zombie")
    assert investigator(tab, "red").where == "northside"


def test_ah_3_a_path_from_a_location_straight_to_a_far_street_is_refused_at_step_1():
    """AH-3: a Location joins only its own Street area: Graveyard → French Hill (no yellow line) is
    refused at step 1 even though Rivertown → French Hill exists."""
    tab = table(scenario([inv("red", "graveyard")]))
    rejected(act(tab, "red", model.Move("french_hill", ("french_hill",))), "AH-3", "step 1")


# --- AH-5, AH-6: Clue tokens only where the movement ends ------------------------------------------


def test_ah_6_clues_passed_on_the_way_stay_and_an_end_without_clues_asks_nothing():
    """AH-6: walking Graveyard → Rivertown → French Hill over 2 Clue tokens in Rivertown takes none;
    ending in French Hill (no tokens) ends the movement with no Clue step (AH-5 needs tokens)."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], clues={"rivertown": 2}))
    act(tab, "red", model.Move("french_hill", ("rivertown", "french_hill")))
    events = act(tab, "red", model.Stop())
    assert types(events)[:2] == ["MovementEnded", "TurnEnded"]
    assert rules.clues_at(tab.state, "rivertown") == 2 and investigator(tab, "red").clues == 0


def test_ah_5_all_the_tokens_may_be_taken_and_one_more_is_refused():
    """AH-5: 2 tokens in Rivertown: taking 3 is refused (0 to 2), taking 2 leaves none."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], clues={"rivertown": 2}))
    act(tab, "red", model.Move("rivertown"))
    act(tab, "red", model.Stop())
    rejected(act(tab, "red", model.TakeClues(3)), "AH-5", "take 0 to 2, got 3")
    act(tab, "red", model.TakeClues(2))
    assert rules.clues_at(tab.state, "rivertown") == 0 and investigator(tab, "red").clues == 2


def test_ah_5_a_movement_ended_by_combat_still_ends_on_the_clues():
    """AH-8, AH-5: a combat in Rivertown ends the movement there (points lost); the movement still ends
    in an area holding a Clue token, so the investigator may take it (AH-5 asks where it ends, not how).
    Fight 3 + 0 = 3 dice vs toughness 1: (5, 1, 1) defeats it; Horror: Will 3 + 0, (6, 1, 1) passes."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], [mon("zombie", "rivertown")],
                         clues={"rivertown": 1}))
    act(tab, "red", model.Move("rivertown"))
    act(tab, "red", model.Fight("zombie"), dice=(6, 1, 1))
    act(tab, "red", model.Fight("zombie"), dice=(5, 1, 1))
    rejected(act(tab, "red", model.Move("french_hill")), "AH-8", "remaining points are lost")
    act(tab, "red", model.Stop())
    assert GAME.legal(tab.state, "red") == [model.TakeClues(0), model.TakeClues(1)]


# --- AH-C8, AH-8: several monsters, a combat, the others still faced ------------------------------


def test_ah_c8_after_defeating_one_monster_the_other_must_still_be_faced_with_no_points():
    """AH-C8, AH-8: Zombie and Ghoul in Rivertown. Fighting the Zombie ends the movement (AH-8) but the
    Ghoul must still be dealt with (AH-C8): Stop is refused naming the Ghoul (AH-7); a passed evade
    (Sneak 2 + 0: (6, 1)) lets it stay without fighting (AH-C2), and Stop is then accepted."""
    tab = table(scenario([inv("red", "rivertown"), inv("blue", "northside")],
                         [mon("zombie", "rivertown"), mon("ghoul", "rivertown")]))
    act(tab, "red", model.Fight("zombie"), dice=(6, 1, 1))
    act(tab, "red", model.Fight("zombie"), dice=(5, 1, 1))
    rejected(act(tab, "red", model.Stop()), "AH-7", "Ghoul is in Rivertown")
    act(tab, "red", model.Evade("ghoul"), dice=(6, 1))
    assert types(act(tab, "red", model.Stop()))[0] == "MovementEnded"


def test_ah_c1_zero_dice_fail_the_evade_without_a_roll_then_damage_combat_and_horror():
    """AH-C1, AH-C2: Sneak 1 + Awareness -1 = 0 dice: the Evade fails without a roll; the monster deals
    its combat damage (2: Stamina 5 → 3), combat begins and the Horror check follows (Will 3 + 0:
    (1, 1, 1) fails, Sanity 5 → 4). Only the Horror check's three dice are rolled."""
    tab = table(scenario([inv("red", "rivertown", sneak=1)], [mon("zombie", "rivertown", awareness=-1,
                                                                 combat_damage=2)]))
    events = act(tab, "red", model.Evade("zombie"), dice=(1, 1, 1))
    assert types(events) == ["CheckRolled", "StatLost", "CombatBegan", "CheckRolled", "StatLost"]
    assert events[0].dice == 0 and events[0].rolls == () and not events[0].passed
    red = investigator(tab, "red")
    assert (red.stamina, red.sanity) == (3, 4)


def test_ah_c4_a_horror_check_to_zero_sanity_sends_to_the_asylum_with_half_the_clues():
    """AH-C4: Sanity 1, Horror damage 1, Will 3 + 0 rolls (1, 2, 3): fails, Sanity 0: insane at once,
    to Arkham Asylum, 3 Clue tokens lose half rounded down (1, 2 kept), Sanity set to 1, no combat round."""
    tab = table(scenario([inv("red", "rivertown", sanity=1, clues=3), inv("blue", "northside")],
                         [mon("zombie", "rivertown")]))
    events = act(tab, "red", model.Fight("zombie"), dice=(1, 2, 3))
    knocked = [event for event in events if isinstance(event, model.KnockedOut)]
    assert knocked == [model.KnockedOut("red", "insane", "rivertown", rules.ASYLUM, 1, "sanity")]
    red = investigator(tab, "red")
    assert (red.where, red.clues, red.sanity) == (rules.ASYLUM, 2, 1)
    assert GAME.turn(tab.state) == ("blue",)


def test_ah_c6_ambush_refuses_fleeing_before_any_roll_but_not_evading_before_combat():
    """AH-C6: Ambush forbids fleeing once combat began; evading before combat is still allowed (its
    Evade check rolled: Sneak 2 + 0, (5, 1) passes)."""
    tab = table(scenario([inv("red", "rivertown")], [mon("ghoul", "rivertown", ambush=True)]))
    assert act(tab, "red", model.Evade("ghoul"), dice=(5, 1))[-1] == model.MonsterEvaded("red", "ghoul", "AH-C2")
    tab = table(scenario([inv("red", "rivertown")], [mon("ghoul", "rivertown", ambush=True)]))
    act(tab, "red", model.Fight("ghoul"), dice=(6, 1, 1))
    rejected(act(tab, "red", model.Flee()), "AH-C6", "Ambush")


# --- AH-9 … AH-12, AH-C5, AH-C7, AH-C9: the way back ---------------------------------------------


def test_ah_c9_back_through_a_gate_among_monsters_the_movement_may_end_at_once():
    """AH-11, AH-C9: back from the Abyss's second area to the Black Cave's gate, where a Zombie stands:
    the investigator "need not" fight or evade it, a permission (arkham-4): Stop is accepted, and so are
    Evade and Fight against it, which ``legal`` offers; an Explored marker is under it."""
    gate = scenario([inv("red", "abyss_2"), inv("blue", "northside")], [mon("zombie", "black_cave")],
                    gates=(("black_cave", "abyss"),))
    tab = table(gate)
    act(tab, "red", model.Return("black_cave"))
    assert investigator(tab, "red").explored == "black_cave"
    assert GAME.legal(tab.state, "red") == [model.Evade("zombie"), model.Fight("zombie"), model.Stop()]
    assert types(act(tab, "red", model.Stop()))[0] == "MovementEnded"
    tab = table(gate)
    act(tab, "red", model.Return("black_cave"))
    assert types(act(tab, "red", model.Evade("zombie"), dice=(6, 6)))[-1] == "MonsterEvaded"
    assert GAME.legal(tab.state, "red") == [model.Stop()]  # got past it: not evaded twice (AH-C8)
    rejected(act(tab, "red", model.Evade("zombie")), "AH-C8", "already got past")
    tab = table(gate)
    act(tab, "red", model.Return("black_cave"))
    assert types(act(tab, "red", model.Fight("zombie"), dice=(6, 6, 6)))[0] == "CombatBegan"


def test_ah_c7_placed_from_lost_in_time_among_monsters_it_must_still_face_them():
    """AH-C5, AH-C7: a Lost investigator is put in Rivertown, where a Zombie stands; it is delayed, so it
    has no movement points, but it must still deal with the monster: Stop is refused (AH-7)."""
    tab = table(scenario([inv("red", "lost_in_time_and_space"), inv("blue", "northside")],
                         [mon("zombie", "rivertown")]))
    act(tab, "red", model.Place("rivertown"))
    assert tab.state.points == 0
    rejected(act(tab, "red", model.Stop()), "AH-7", "Zombie is in Rivertown")
    rejected(act(tab, "red", model.Move("graveyard")), "AH-7", "Zombie is in Rivertown")


# --- AH-1 refusal order: what no other seat's movement can change ---------------------------------


def test_ah_1_out_of_turn_a_move_beyond_speed_cites_ah_2_not_the_turn():
    """AH-2 before AH-1 (issue 15's order): on red's movement, blue (Northside, Speed 2) asks for
    Easttown, 2 away: allowed by the rules, so "not your turn" (AH-1). The Graveyard is 3 away
    (Downtown or Merchant District, Rivertown, Graveyard): beyond Speed 2 whatever red does, so AH-2.
    A chosen path with no yellow line (Northside → Rivertown) cites AH-3 at step 1."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside", speed=2)]))
    rejected(act(tab, "blue", model.Move("easttown")), "AH-1", "it is red's movement, not blue's")
    rejected(act(tab, "blue", model.Move("graveyard")), "AH-2", "Graveyard is 3 points away; Speed is 2")
    rejected(act(tab, "blue", model.Move("rivertown", ("rivertown",))), "AH-3", "step 1")
    rejected(act(tab, "blue", model.Move("northside")), "AH-3", "already in Northside")


def test_ah_1_out_of_turn_a_delayed_investigator_cites_ah_c7_and_monsters_wait_for_the_turn():
    """AH-C7 before AH-1: blue is delayed, so its coming movement has no points: any Move now is refused
    under AH-C7. A Zombie in blue's area is not cited out of turn (red may defeat it first): AH-1."""
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside", delayed=True)]))
    rejected(act(tab, "blue", model.Move("downtown")), "AH-C7", "delayed")
    tab = table(scenario([inv("red", "graveyard"), inv("blue", "northside")], [mon("zombie", "northside")]))
    rejected(act(tab, "blue", model.Move("downtown")), "AH-1", "it is red's movement, not blue's")


def test_ah_5_back_through_a_gate_onto_clue_tokens_the_investigator_may_take_them():
    """AH-11, AH-5: back from the Abyss to the Black Cave's gate, where 2 Clue tokens lie: the return
    gives no movement points (AH-9), so its movement ends there at once, in an area holding tokens:
    AH-5 lets it take one, several or all (here 2)."""
    tab = table(scenario([inv("red", "abyss_2"), inv("blue", "northside")], gates=(("black_cave", "abyss"),),
                         clues={"black_cave": 2}))
    act(tab, "red", model.Return("black_cave"))
    rejected(act(tab, "red", model.Move("rivertown")), "AH-9", "came back from an Other World")
    act(tab, "red", model.Stop())
    act(tab, "red", model.TakeClues(2))
    assert investigator(tab, "red").clues == 2 and rules.clues_at(tab.state, "black_cave") == 0


def _brute_walks(near: dict, start: str, monsters: set, points: int) -> dict:
    """Every area a walk of at most ``points`` lines reaches from ``start`` without leaving an area with
    monsters on the way (AH-7) -> the length of the shortest such walk: all walks enumerated."""
    best: dict = {}
    frontier = [(start, 0)]
    while frontier:
        following = []
        for here, length in frontier:
            if length and here in monsters:
                continue  # the walk stops here: leaving means facing them
            if length == points:
                continue
            for step in near[here]:
                if step not in best or best[step] > length + 1:
                    best[step] = length + 1
                following.append((step, length + 1))
        frontier = following
    best.pop(start, None)
    return best


def test_ah_7_a_move_arrives_wherever_some_monster_free_walk_within_speed_does_against_a_brute_search():
    """AH-7, AH-2, AH-3 (arkham-4): on the real board with monsters in 1 to 3 random Street areas, a
    Move to every area that a brute search of all walks within Speed reaches without passing a monster
    arrives there by a walk of that shortest length; a Move to an area within Speed that only walks
    past a monster reach stops in a monster's area. 60 positions, Speed 1 to 5, area by area."""
    import random

    from events.games.arkham import board as boards
    from events.rng import LoadedRng

    chooser = random.Random(15)
    streets = ["northside", "downtown", "easttown", "rivertown", "french_hill", "southside", "uptown",
               "miskatonic_u", "merchant_district"]
    for _ in range(60):
        start = chooser.choice(streets)
        speed = chooser.randint(1, 5)
        lairs = set(chooser.sample([s for s in streets if s != start], chooser.randint(1, 3)))
        tab = table(scenario([inv("red", start, speed=speed)],
                             [mon(f"m{i}", area) for i, area in enumerate(sorted(lairs))]))
        near = boards.neighbours(tab.state.board)
        clear = _brute_walks(near, start, lairs, speed)
        for area in sorted(rules.destinations(tab.state)):
            answer = GAME.decide(tab.state, "red", model.Move(area), LoadedRng(()))
            if not isinstance(answer, list):  # its cheapest ways meet different monsters: the player names one
                assert answer.key == "reject.arkham.choose_way" and area not in clear, (start, speed, lairs, area)
                assert len(set(rules.ways_apart(tab.state, area)) & lairs) > 1
                continue
            moved = answer[0]
            if area in clear:
                assert moved.to == area and len(moved.path) == clear[area], (start, speed, lairs, area, moved)
            else:
                assert moved.to in lairs and moved.to != area, (start, speed, lairs, area, moved)
        assert set(rules.destinations(tab.state)) >= set(clear)


def test_ah_7_cheapest_ways_that_meet_different_monsters_need_a_path():
    """AH-7, AH-3 (arkham-4): red in Merchant District, Speed 2, to Easttown: both ways of cost 2 stop
    at a monster, a Maniac in Downtown or a Zombie in Rivertown, and no way round fits: which monster
    it meets is the player's choice, so a Move there is refused naming both ways, ``legal`` offers
    no such Move, and the player chooses by moving to the monster's area. arkham-3 still picks one (its logs)."""
    from events.games import load
    from events.log import Table

    tied = scenario([inv("red", "merchant_district", speed=2)],
                    [mon("maniac", "downtown", awareness=1), mon("zombie", "rivertown", awareness=-3)])
    tab = table(tied)
    assert rules.ways_apart(tab.state, "easttown") == ("downtown", "rivertown")
    rejected(act(tab, "red", model.Move("easttown")), "AH-7",
             "the ways of cost 2 to Easttown stop at different monsters, Maniac in Downtown or Zombie in Rivertown: "
             "move to the one of those areas you choose")
    assert model.Move("easttown") not in GAME.legal(tab.state, "red")
    rejected(act(tab, "red", model.Move("easttown", ("rivertown", "easttown"))), "AH-7", "the walk stops there")
    assert act(tab, "red", model.Move("rivertown"))[0].to == "rivertown"  # the player's choice
    arkham_3 = Table.create(load("arkham").version("arkham-3"), "g-t", tied, 1)
    assert rules.ways_apart(arkham_3.state, "easttown", 3) == ()
    assert act(arkham_3, "red", model.Move("easttown"))[0].to == "downtown"


# --- AH-C10: who may trade, and when (arkham-5) --------------------------------------------------------------


def three_in_rivertown(version: str = "arkham-5", monsters: tuple = ()) -> Table:
    """red (moving first), blue and green all in Rivertown, each with one item."""
    data = scenario([inv("red", "rivertown", items=["Lantern"]), inv("blue", "rivertown", items=["Camera"]),
                     inv("green", "rivertown", items=["Tome"])], monsters)
    return Table.create(load("arkham", version), "g-test", data, 1)


def test_ah_c10_a_waiting_investigator_may_offer_a_trade_while_another_moves():
    """AH-C10: "Investigators in the same area may trade items before, during or after movement, but not during
    combat": any investigators, not the mover alone. red moves; blue, waiting in the same area, offers green its
    Camera for the Tome, before blue's own movement. green, the partner, is asked (``turn``), red must wait for the
    answer, the items change hands, and red's movement goes on with its points. blue may offer red too. legal
    gives the waiting seats their offers. arkham-4, as released, refused blue as out of turn (AH-1)."""
    tab = three_in_rivertown()
    assert model.OfferTrade("green", ("Camera",), ()) in tab.game.legal(tab.state, "blue")
    assert act(tab, "blue", model.OfferTrade("green", ("Camera",), ("Tome",))) == [
        model.TradeOffered("blue", "green", ("Camera",), ("Tome",))]
    assert tab.game.turn(tab.state) == ("green",)
    rejected(act(tab, "red", model.Move("graveyard")), "AH-C10", "green must first answer blue's trade offer")
    act(tab, "green", model.AnswerTrade(True))
    assert investigator(tab, "blue").items == ("Tome",) and investigator(tab, "green").items == ("Camera",)
    assert tab.game.turn(tab.state) == ("red",) and tab.state.points == 4
    assert types(act(tab, "blue", model.OfferTrade("red", (), ("Lantern",)))) == ["TradeOffered"]
    assert tab.game.turn(tab.state) == ("red",)  # red, the partner, answers
    act(tab, "red", model.AnswerTrade(False))
    assert types(act(tab, "red", model.Move("graveyard")))[0] == "InvestigatorMoved"
    rejected(act(tab, "blue", model.OfferTrade("red", ("Tome",), ())), "AH-C10", "not in Rivertown with Blue")
    old = three_in_rivertown("arkham-4")
    assert old.game.legal(old.state, "blue") == []
    rejected(act(old, "blue", model.OfferTrade("green", ("Camera",), ())), "AH-1", "it is red's movement, not blue's")


def test_ah_c10_no_one_trades_during_combat():
    """AH-C10: red fights the zombie in Rivertown and the fight goes on: "not during combat", so blue's offer
    (blue and green both wait in Rivertown) is refused as red's own would be, and legal offers blue none."""
    tab = three_in_rivertown(monsters=(mon("zombie", "rivertown"),))
    act(tab, "red", model.Fight("zombie"), dice=(5, 5, 5))
    rejected(act(tab, "blue", model.OfferTrade("green", ("Camera",), ())), "AH-C10", "no trading during combat")
    assert tab.game.legal(tab.state, "blue") == []


def test_ah_c10_after_movement_the_mover_and_the_others_may_trade_before_taking_clues():
    """AH-C10 ("after movement"), AH-5: red ends its movement on Rivertown's 2 Clue tokens and is asked how many it
    takes; meanwhile red may offer blue a trade (arkham-4 refused it: take the tokens first, AH-5), and blue may
    offer red. The Clue question waits: once the offer is answered red takes its tokens."""
    data = scenario([inv("red", "rivertown", items=["Lantern"]), inv("blue", "rivertown", items=["Camera"])],
                    clues={"rivertown": 2})
    tab = Table.create(load("arkham"), "g-test", data, 1)
    act(tab, "red", model.Stop())
    assert model.OfferTrade("blue", ("Lantern",), ()) in tab.game.legal(tab.state, "red")
    act(tab, "red", model.OfferTrade("blue", ("Lantern",), ()))
    act(tab, "blue", model.AnswerTrade(True))
    act(tab, "blue", model.OfferTrade("red", (), ("Lantern",)))
    act(tab, "red", model.AnswerTrade(False))
    assert act(tab, "red", model.TakeClues(2))[0] == model.CluesTaken("red", "rivertown", 2, 0)
    old = Table.create(load("arkham", "arkham-4"), "g-test", data, 1)
    act(old, "red", model.Stop())
    rejected(act(old, "red", model.OfferTrade("blue", ("Lantern",), ())), "AH-5", "take 0 to 2")


def test_ah_c10_nobody_trades_from_lost_in_time_and_space():
    """AH-C10, AH-C5: red and blue are both Lost in Time and Space, no area of the board: red, asked where it comes
    back (AH-C5), cannot trade there first, nor can blue, waiting; legal offers neither a trade."""
    data = scenario([inv("red", model.LOST, items=["Lantern"]), inv("blue", model.LOST, items=["Camera"])])
    tab = Table.create(load("arkham"), "g-test", data, 1)
    for seat, partner in (("red", "blue"), ("blue", "red")):
        rejected(act(tab, seat, model.OfferTrade(partner, (), ())), "AH-C10", "is Lost in Time and Space: it trades "
                 "with nobody there")
        assert not any(isinstance(c, model.OfferTrade) for c in tab.game.legal(tab.state, seat))


def test_ah_c10_arkham_5_parts_from_arkham_4_only_at_a_waiting_investigators_offer():
    """AH-C10, CORE-3: the crafted arkham-5 corpus game (``make.waiting_trade``: blue, waiting, offers red a trade)
    audits under its own version, and an audit under arkham-4 parts exactly at blue's offer (arkham-4 refused it
    under AH-1). Every arkham-5 game of the bots replays unchanged under arkham-4."""
    from pathlib import Path

    from events.log import audit, audit_log
    from server import logfile

    folder = Path(__file__).resolve().parents[2] / "corpus" / "arkham" / "arkham-5"
    game, envelopes = logfile.read(folder / "waiting-trade-crafted-1.jsonl")
    assert game.rules_version == "arkham-5" and audit(game, envelopes) is None
    offered = next(e for e in envelopes if e.type == "TradeOffered")
    assert offered.seat == "blue" and offered.event.partner == "red"
    released = load("arkham", "arkham-4")
    parted = audit_log(released, envelopes, follow=False).divergence
    assert parted.seq == offered.seq and (parted.logged_rule, parted.produced_rule) == ("AH-C10", "AH-1")
    for path in sorted(folder.glob("*-[0-9].jsonl")):
        if "crafted" not in path.name:
            assert audit_log(released, logfile.read(path)[1], follow=False).divergence is None, path.name


def test_ah_c10_a_devoured_investigator_trades_no_more():
    """AH-C4 before AH-C10: blue, devoured, is out of the game: its offer is refused as everything it sends, legal
    offers it nothing, and green is offered no trade with it (arkham-5 lets waiting investigators trade, not those
    out of the game). The state is red's move step with blue still marked in Rivertown, so that only the devouring
    keeps the trade out: the same state without it lists blue's offer to green and green's to blue, and takes it."""
    tab = three_in_rivertown()
    assert rules.phase(tab.state) == "move"
    offer = model.OfferTrade("green", ("Camera",), ())
    alive = tab.state
    assert offer in tab.game.legal(alive, "blue")
    assert model.OfferTrade("blue", ("Tome",), ()) in tab.game.legal(alive, "green")
    assert types(tab.game.decide(alive, "blue", offer, None)) == ["TradeOffered"]
    # Check: the devouring alone (same step, same area) takes all of that away
    gone = alive.but(investigators=rules._with_investigator(alive, "blue", devoured=True))
    assert rules.phase(gone) == "move" and investigator(tab, "blue").where == "rivertown"
    assert [i.where for i in gone.investigators] == [i.where for i in alive.investigators]
    rejected(tab.game.decide(gone, "blue", offer, None), "AH-C4", "was devoured: it is out of the game")
    assert tab.game.legal(gone, "blue") == []
    assert not any(isinstance(c, model.OfferTrade) and c.partner == "blue" for c in tab.game.legal(gone, "green"))
    rejected(tab.game.decide(gone, "green", model.OfferTrade("blue", ("Tome",), ()), None), "AH-C10")


def test_ah_c10_a_failed_roll_in_combat_waiting_for_a_clue_is_still_combat():
    """AH-C10 before AH-C1: red fights the zombie in Rivertown (option spend_clues); its Combat check fails and waits
    for a Clue token (AH-C1). The combat is not over, so "not during combat" refuses blue's offer (blue waits in
    Rivertown) and red's own under AH-C10, not AH-C1's "spend a Clue token"; legal lists no offer for either seat.
    arkham-4 refuses both under AH-C10 as well (blue's went to AH-C10 already, red's cited AH-C1)."""
    for version in ("arkham-5", "arkham-4"):
        data = scenario([inv("red", "rivertown", items=["Lantern"], clues=1), inv("blue", "rivertown", items=["Camera"]),
                         inv("green", "rivertown", items=["Tome"])], [mon("zombie", "rivertown")],
                        options={"spend_clues": True})
        tab = Table.create(load("arkham", version), "g-test", data, 1)
        act(tab, "red", model.Fight("zombie"), dice=(5, 1, 1))  # the Horror check passes
        assert types(act(tab, "red", model.Fight("zombie"), dice=(1, 1, 1))) == ["CheckRolled", "ClueSpendOffered"]
        assert rules.phase(tab.state) == "spend" and tab.state.combat == "zombie"
        for seat, offer in (("blue", model.OfferTrade("green", ("Camera",), ())),
                            ("red", model.OfferTrade("blue", ("Lantern",), ()))):
            rejected(act(tab, seat, offer), "AH-C10", "no trading during combat (Red Investigator is fighting Zombie)")
        for seat in ("red", "blue", "green"):
            assert not any(isinstance(c, model.OfferTrade) for c in tab.game.legal(tab.state, seat)), (version, seat)
        assert tab.game.legal(tab.state, "red") == [model.SpendClue(), model.AcceptRoll()]

"""Gloomhaven's clauses, one behaviour per test, on hand-set maps (docstrings cite the clause)."""

from __future__ import annotations

from events.canonical import state_hash
from events.games.gloomhaven import rules
from events.games.gloomhaven.model import (
    ChooseOption,
    ChooseOrder,
    DeclareLongRest,
    PlayCard,
    RestLose,
    SelectCards,
    ShortRest,
)
from events.lookup import by_id
from events.rng import Rng
from events.rules import Rejection
from tests import english
from tests.games.gloomhaven.helpers import (
    act,
    card,
    first,
    hero_class,
    line_map,
    mcard,
    monster_type,
    open_map,
    scenario,
    table,
    types_of,
)

TESTER = hero_class("Tester", 10, [
    card("t-10", 10, {"attack": 2}, {"move": 3}),
    card("t-20", 20, {"attack": 3, "range": 3}, {"move": 3, "jump": True}),
    card("t-30", 30, {"attack": 5, "lost": True}, {"move": 2}),
    card("t-40", 40, {"heal": 2}, {"move": 4}),
    card("t-50", 50, {"summon": "Bot", "lost": True}, {"heal": 1, "range": 2}),
    card("t-60", 60, {"attack": 2, "advantage": True}, {"move": 1}),
], [{"name": "Bot", "hp": 3, "move": 2, "attack": 1}])
OTHER = hero_class("Other", 8, [
    card("o-10", 10, {"attack": 2}, {"move": 3}),
    card("o-20", 20, {"attack": 1, "range": 2}, {"move": 2}),
    card("o-30", 30, {"attack": 2}, {"move": 2}),
    card("o-35", 35, {"heal": 1}, {"move": 2}),
])
IDLE = monster_type("Dummy", [mcard("d-1", 90, {"move": 0})], move=0)
BITER = monster_type("Biter", [mcard("b-1", 50, {"move": 2}, {"attack": 0})], hp=4, attack=2)
ARCHER = monster_type("Shooter", [mcard("s-1", 45, {"move": 1}, {"attack": 0})], hp=4, attack=2, range=3)
FAR = (8, -2)


def solo(game_map=None, figures=None, types=None, hero=(0, 2), level=1, **extra):
    return table(scenario(game_map or open_map(), [("red", "Tester", hero)],
                          figures if figures is not None else [("Dummy", "normal", 1, FAR)],
                          classes=[TESTER, OTHER], types=types or [IDLE, BITER, ARCHER], level=level, **extra))


def duo(figures=None, types=None, red=(0, 2), blue=(0, 3), **extra):
    return table(scenario(open_map(), [("red", "Tester", red), ("blue", "Other", blue)],
                          figures if figures is not None else [("Dummy", "normal", 1, FAR)],
                          classes=[TESTER, OTHER], types=types or [IDLE, BITER, ARCHER], **extra))


def pick(tab, seat="red", cards=("t-10", "t-20"), leading=None, dice=(90,)):
    return act(tab, seat, SelectCards(tuple(cards), leading or cards[0]), dice)


def hp(tab, figure_id):
    return rules.figure_of(tab.state, figure_id).hp


def at(tab, figure_id):
    return rules.figure_of(tab.state, figure_id).hex


# --- GH-1 exhaustion ------------------------------------------------------------------------------------


def test_gh_1_exhausted_by_damage_loses_every_card_and_leaves_the_map():
    """GH-1: below 1 hit point the character is exhausted: all its cards lost, its figure removed."""
    tab = solo(figures=[("Biter", "normal", 1, (2, 2))], types=[BITER])
    # Check: red at 1 hit point is bitten (2 + 0 modifier) on the Biter's turn (initiative 50 after red's 10).
    tab.state = tab.state.but(figures=rules._replace_figure(tab.state, "red", hp=1))
    events = pick(tab, dice=(50,))
    assert types_of(events)[-1] == "TurnStarted"
    events = act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    events = act(tab, "red", PlayCard("t-20", "top", skip=True), dice=(0,))
    exhausted = first(events, "CharacterExhausted")
    assert (exhausted.seat, exhausted.cause, exhausted.rule) == ("red", "damage", "GH-1")
    hero = rules.hero_of(tab.state, "red")
    assert hero.exhausted and hero.hand == () and hero.discard == () and len(hero.lost) == 6
    assert rules.figure_of(tab.state, "red") is None
    assert tab.state.phase == "over" and tab.state.outcome == "lost"


def test_gh_1_exhausted_by_cards_at_the_start_of_a_round():
    """GH-1: a round starts with one card in hand and one in the discard: neither play nor rest: exhausted."""
    tab = duo()
    state = tab.state
    heroes = rules._replace_hero(state, "red", hand=("t-10",), discard=("t-20",), lost=("t-30", "t-40", "t-50", "t-60"))
    tab.state = state.but(heroes=heroes)
    events = act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"), (90,))
    exhausted = first(events, "CharacterExhausted")
    assert (exhausted.seat, exhausted.cause) == ("red", "cards")
    assert rules.hero_of(tab.state, "red").exhausted


def test_gh_1_one_card_but_a_full_discard_must_rest_not_exhaust():
    """GH-1, GH-C6: one card in hand but two discarded: it cannot play two cards but can rest, so it is not exhausted."""
    tab = solo()
    heroes = rules._replace_hero(tab.state, "red", hand=("t-10",), discard=("t-20", "t-30"),
                                 lost=("t-40", "t-50", "t-60"))
    tab.state = tab.state.but(heroes=heroes)
    refused = act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C6" and "must long rest" in refused.reason
    assert rules.legal(tab.state, "red") == [DeclareLongRest()]
    events = act(tab, "red", DeclareLongRest(), (90,))
    assert "CharacterExhausted" not in types_of(events)


# --- GH-2 initiative ------------------------------------------------------------------------------------


def test_gh_2_the_leading_card_alone_sets_initiative():
    """GH-2: leading with t-20 gives initiative 20 whatever the other card is."""
    tab = solo()
    events = pick(tab, cards=("t-10", "t-20"), leading="t-20")
    order = first(events, "InitiativeSet").order
    assert order[0] == ("red", 20)
    assert rules.hero_of(tab.state, "red").secondary == 10


def test_gh_2_tied_characters_compare_their_other_card():
    """GH-2: red and blue both lead with 10; red's other card is 20, blue's 30: red first."""
    tab = duo()
    act(tab, "blue", SelectCards(("o-10", "o-30"), "o-10"))
    events = pick(tab, cards=("t-10", "t-20"), leading="t-10")
    initiative = first(events, "InitiativeSet")
    assert [figure for figure, _ in initiative.order][:2] == ["red", "blue"]
    assert any("other cards" in note and "GH-2" in note for note in initiative.notes)


def test_gh_2_a_full_tie_is_decided_by_the_tied_seats():
    """GH-2: same leading and same other initiative: the engine asks the tied seats and never picks."""
    tab = duo()
    act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
    events = pick(tab, cards=("t-10", "t-20"), leading="t-10")
    offered = first(events, "TieOffered")
    assert (offered.kind, offered.group, offered.seats, offered.rule) == ("initiative", ("blue", "red"),
                                                                         ("blue", "red"), "GH-2")
    assert "InitiativeSet" not in types_of(events)
    assert rules.turn(tab.state) == ("blue", "red")
    wrong = act(tab, "red", ChooseOrder(("red",)))
    assert isinstance(wrong, Rejection) and wrong.rule == "GH-2"
    act(tab, "blue", ChooseOrder(("blue", "red")))  # gloomhaven-7: red agrees too (test_gh_2_the_tied_seats_agree...)
    events = act(tab, "red", ChooseOrder(("blue", "red")))
    assert first(events, "OrderChosen").order == ("blue", "red")
    assert [figure for figure, _ in first(events, "InitiativeSet").order][:2] == ["blue", "red"]


def test_gh_2_gloomhaven_7_the_tied_seats_agree_on_an_order_one_seat_alone_does_not_settle_it():
    """GH-2 ("the engine asks the tied seats, who agree on an order"), gloomhaven-7: blue's answer alone is a
    proposal (OrderProposed), not the order: the tie still waits, now for red alone; blue cannot answer twice nor
    settle it by repeating itself. red answering another order starts the agreement again, waiting for blue; blue
    giving red's order settles it (OrderChosen, then InitiativeSet, red first). gloomhaven-6 (kept, released):
    blue's one answer settled it."""
    from events import games
    from events.log import Table

    def tied(version: str):
        tab = Table.create(games.load("gloomhaven", version), "g-test", _duo_data(), 1)
        act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
        pick(tab, cards=("t-10", "t-20"), leading="t-10")
        return tab

    tab = tied("gloomhaven-7")
    events = act(tab, "blue", ChooseOrder(("blue", "red")))
    assert types_of(events) == ["OrderProposed"] and first(events, "OrderProposed").rule == "GH-2"
    assert tab.state.phase == "order" and rules.turn(tab.state) == ("red",)
    again = act(tab, "blue", ChooseOrder(("blue", "red")))
    assert isinstance(again, Rejection) and again.rule == "GH-2" and again.key == "reject.gloomhaven.tie_settled_by"
    wrong = act(tab, "red", ChooseOrder(("red", "red")))
    assert isinstance(wrong, Rejection) and wrong.rule == "GH-2"
    events = act(tab, "red", ChooseOrder(("red", "blue")))
    assert types_of(events) == ["OrderProposed"] and rules.turn(tab.state) == ("blue",)
    events = act(tab, "blue", ChooseOrder(("red", "blue")))
    assert first(events, "OrderChosen").order == ("red", "blue")
    assert [figure for figure, _ in first(events, "InitiativeSet").order][:2] == ["red", "blue"]
    old = tied("gloomhaven-6")
    events = act(old, "blue", ChooseOrder(("blue", "red")))
    assert first(events, "OrderChosen").order == ("blue", "red") and "InitiativeSet" in types_of(events)


def _duo_data() -> dict:
    return scenario(open_map(), [("red", "Tester", (0, 2)), ("blue", "Other", (0, 3))], [("Dummy", "normal", 1, FAR)],
                    classes=[TESTER, OTHER], types=[IDLE, BITER, ARCHER])


def test_gh_2_a_character_tied_with_a_monster_goes_first():
    """GH-2: red leads with 50 and the Biter's card is 50: red acts first."""
    tab = solo(figures=[("Biter", "normal", 1, FAR)], types=[BITER])
    events = pick(tab, cards=("t-50", "t-10"), dice=(50,))
    initiative = first(events, "InitiativeSet")
    assert [figure for figure, _ in initiative.order] == ["red", "biter-1"]
    assert any("character acts first (GH-2)" in note for note in initiative.notes)


# --- GH-3 card actions ----------------------------------------------------------------------------------


def test_gh_3_top_of_one_card_and_bottom_of_the_other_in_either_order():
    """GH-3: bottom of the leading card first, then the top of the other; which led no longer matters."""
    tab = solo()
    pick(tab, cards=("t-10", "t-40"), leading="t-10")
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2),)))
    assert types_of(events) == ["CardPlayed", "FigureMoved"]
    same_half = act(tab, "red", PlayCard("t-40", "bottom", path=((2, 2),)))
    assert isinstance(same_half, Rejection) and same_half.rule == "GH-3" and "bottom action was already" in same_half.reason
    same_card = act(tab, "red", PlayCard("t-10", "top", targets=("dummy-1",)))
    assert isinstance(same_card, Rejection) and same_card.rule == "GH-3"
    events = act(tab, "red", PlayCard("t-40", "top", targets=("red",)))
    discarded = first(events, "CardsDiscarded")
    assert (discarded.discarded, discarded.lost) == (("t-10", "t-40"), ())


def test_gh_3_a_lost_action_sends_its_card_to_the_lost_pile():
    """GH-3: t-30's top is a lost action: performed, the card is lost, the other discarded."""
    tab = solo(figures=[("Dummy", "elite", 1, (1, 2))])
    pick(tab, cards=("t-30", "t-10"))
    act(tab, "red", PlayCard("t-30", "top", targets=("dummy-1",)), (0,))
    events = act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    discarded = first(events, "CardsDiscarded")
    assert (discarded.discarded, discarded.lost) == (("t-10",), ("t-30",))
    assert rules.hero_of(tab.state, "red").lost == ("t-30",)


def test_gh_3_only_the_two_cards_in_play():
    """GH-3: a card not picked this round cannot be played."""
    tab = solo()
    pick(tab)
    refused = act(tab, "red", PlayCard("t-40", "top", targets=("red",)))
    assert isinstance(refused, Rejection) and refused.rule == "GH-3" and "t-40" in refused.reason


# --- GH-4 movement --------------------------------------------------------------------------------------


def test_gh_4_moves_through_an_ally_but_not_through_an_enemy():
    """GH-4: blue (an ally) is passed; a monster on the path refuses the move, naming it."""
    tab = duo(red=(0, 2), blue=(1, 2), figures=[("Dummy", "normal", 1, (3, 2))])
    act(tab, "blue", SelectCards(("o-20", "o-30"), "o-20"))
    pick(tab)
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    assert first(events, "FigureMoved").path == ((1, 2), (2, 2))
    refused = act(tab, "red", PlayCard("t-20", "bottom", path=((3, 2), (4, 2))))
    assert isinstance(refused, Rejection)


def test_gh_4_an_enemy_blocks_a_walk():
    """GH-4: a walking move may not pass through an enemy."""
    tab = solo(figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab)
    refused = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    assert isinstance(refused, Rejection) and refused.rule == "GH-4" and "Dummy 1" in refused.reason and "dummy-1" not in refused.reason


def test_gh_4_a_move_never_ends_in_an_occupied_hex():
    """GH-4: ending on blue's hex is refused even though passing it is allowed."""
    tab = duo(red=(0, 2), blue=(1, 2))
    act(tab, "blue", SelectCards(("o-20", "o-30"), "o-20"))
    pick(tab)
    refused = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2),)))
    assert isinstance(refused, Rejection) and refused.rule == "GH-4" and "occupied" in refused.reason


def test_gh_4_a_trap_springs_on_entry_and_is_removed():
    """GH-4, GH-C1: entering a trap deals 2 + level (level 1: 3) and removes it."""
    tab = solo(game_map=open_map(traps=[[1, 2]]))
    pick(tab)
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    sprung = first(events, "TrapSprung")
    assert (sprung.hex, sprung.damage) == ((1, 2), 3)
    assert hp(tab, "red") == 7 and tab.state.traps == ()


def test_gh_4_hazardous_terrain_hurts_on_each_entry_and_stays():
    """GH-4, GH-C1: hazardous terrain deals half trap damage (3 // 2 = 1) and stays."""
    tab = solo(game_map=open_map(hazardous=[[1, 2]]))
    pick(tab)
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    assert first(events, "HazardEntered").damage == 1
    assert hp(tab, "red") == 9 and tab.state.map.hazardous == ((1, 2),)


def test_gh_4_difficult_terrain_costs_two():
    """GH-4, GH-C1: entering difficult terrain costs 2: a path of 3 hexes with one difficult costs 4 > move 3."""
    tab = solo(game_map=open_map(difficult=[[1, 2]]))
    pick(tab)
    refused = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2), (3, 2))))
    assert isinstance(refused, Rejection) and refused.rule == "GH-4"
    assert refused.reason == "step 3 ([2, 2] → [3, 2]): the move is 3 and 3 are spent: this step costs 1"
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    assert first(events, "FigureMoved").cost == 3


def test_gh_4_an_explicit_path_is_walked_as_given_and_logged():
    """GH-4 (issue 15): a path the player chose, longer than the cheapest, is walked hex by hex and logged as walked.

        red (0, 2) → (0, 3) → (1, 3) → (1, 2): three points, where the direct step to (1, 2) costs one
    """
    tab = solo()
    pick(tab)
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((0, 3), (1, 3), (1, 2))))
    moved = first(events, "FigureMoved")
    assert moved.path == ((0, 3), (1, 3), (1, 2)) and moved.cost == 3 and at(tab, "red") == (1, 2)


def test_gh_4_without_a_path_the_cheapest_way_to_the_destination():
    """GH-4 (issue 15): ``to`` alone walks the cheapest legal path (round the obstacle), the one legal() offers."""
    tab = solo(game_map=open_map(obstacles=[[1, 2]]))
    pick(tab)
    me = rules.figure_of(tab.state, "red")
    card = rules._card(tab.state, "t-10")
    cheapest = rules.character_moves(tab.state, me, card.bottom)[(2, 2)]
    events = act(tab, "red", PlayCard("t-10", "bottom", to=(2, 2)))
    assert first(events, "FigureMoved").path == cheapest and (1, 2) not in cheapest and at(tab, "red") == (2, 2)


def test_gh_4_a_path_is_refused_at_its_first_illegal_step_with_that_steps_clause():
    """GH-4, GH-C1 (issue 15): each step is checked in order; the refusal names the first bad step and its clause."""
    tab = solo(game_map=open_map(obstacles=[[2, 2]], thin_walls=[[[1, 2], [1, 3]]]),
               figures=[("Dummy", "normal", 1, (0, 3))])
    pick(tab)
    cases = [
        (((1, 2), (2, 2)), "GH-4", "step 2 ([1, 2] → [2, 2]): hex [2, 2] holds an obstacle"),
        (((1, 2), (1, 3)), "GH-C1", "step 2 ([1, 2] → [1, 3]): a wall lies between [1, 2] and [1, 3]"),
        (((0, 3),), "GH-4", "step 1 ([0, 2] → [0, 3]): hex [0, 3] holds an enemy, Dummy 1: no figure moves "
                            "through enemies"),
        (((1, 2), (3, 2)), "GH-4", "step 2 ([1, 2] → [3, 2]): [3, 2] is not next to [1, 2]; a path goes one hex "
                                   "at a time"),
        (((-1, 2),), "GH-C1", "step 1 ([0, 2] → [-1, 2]): hex [-1, 2] is not on the map"),
    ]
    for path, rule, reason in cases:
        refused = act(tab, "red", PlayCard("t-10", "bottom", path=path))
        assert isinstance(refused, Rejection) and (refused.rule, refused.reason) == (rule, reason)
    assert at(tab, "red") == (0, 2)


def test_gh_4_hostile_paths_and_destinations_are_refused_not_crashed():
    """GH-4 (issue 15): a path too long, a path not ending at ``to``, an unreachable or occupied destination:
    each a Rejection with its fact (a ``to`` or a path that is no hex is refused at the edge: tests/games/test_kinds.py)."""
    tab = solo(figures=[("Dummy", "normal", 1, (2, 2))])
    pick(tab)
    long = tuple((0, 2 + (i % 2)) for i in range(1, 500))
    checks = [
        (PlayCard("t-10", "bottom", path=long), "GH-4", "a path names at most 20 hexes, got 499"),
        (PlayCard("t-10", "bottom", path=((1, 2),), to=(1, 3)), "GH-4", "the path ends at [1, 2], not at [1, 3], where the move goes"),
        (PlayCard("t-10", "bottom", to=(2, 2)), "GH-4", "a move cannot end in an occupied hex: [2, 2] holds Dummy 1"),
        (PlayCard("t-10", "bottom", to=(8, -2)), "GH-4", "no legal path of at most 3 movement points leads from "
                                                           "[0, 2] to [8, -2]"),
        (PlayCard("t-10", "bottom", to=(40, 40)), "GH-C1", "hex [40, 40] is not on the map"),
    ]
    for command, rule, reason in checks:
        refused = act(tab, "red", command)
        assert isinstance(refused, Rejection) and (refused.rule, refused.reason) == (rule, reason)


def test_gh_c7_a_characters_ranged_attack_needs_a_sight_line():
    """GH-C7: red's ranged attack (range 3) on the Dummy two hexes beyond a wall hex: in range around the wall, but
    every corner-to-corner line crosses or touches it: refused under GH-C7."""
    tab = solo(game_map=open_map(walls=[[1, 2]]), figures=[("Dummy", "normal", 1, (2, 2))])
    pick(tab, cards=("t-20", "t-10"))
    refused = act(tab, "red", PlayCard("t-20", "top", targets=("dummy-1",)))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C7"
    assert refused.reason == ("no line from a corner of [0, 2] to a corner of [2, 2] clears the walls (a corner on a "
                              "wall never ends one)")


def test_gh_4_obstacles_block_a_walk():
    """GH-4: a walking figure never enters an obstacle."""
    tab = solo(game_map=open_map(obstacles=[[1, 2]]))
    pick(tab)
    refused = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2),)))
    assert isinstance(refused, Rejection) and refused.rule == "GH-4" and "obstacle" in refused.reason


# --- GH-5 jump and flying -------------------------------------------------------------------------------


def test_gh_5_a_jump_passes_enemies_and_obstacles():
    """GH-5: a jump ignores the monster and the obstacle it passes over."""
    tab = solo(game_map=open_map(obstacles=[[2, 2]]), figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab)
    events = act(tab, "red", PlayCard("t-20", "bottom", path=((1, 2), (2, 2), (3, 2))))
    moved = first(events, "FigureMoved")
    assert (moved.mode, moved.rule, at(tab, "red")) == ("jump", "GH-5", (3, 2))


def test_gh_5_a_jump_over_a_trap_does_not_spring_it():
    """GH-5: traps passed over during a jump do nothing."""
    tab = solo(game_map=open_map(traps=[[1, 2]]))
    pick(tab)
    events = act(tab, "red", PlayCard("t-20", "bottom", path=((1, 2), (2, 2))))
    assert "TrapSprung" not in types_of(events) and tab.state.traps == ((1, 2),)


def test_gh_5_a_jump_landing_on_a_trap_springs_it():
    """GH-5: the last hex of a jump follows the normal rules: landing on a trap springs it."""
    tab = solo(game_map=open_map(traps=[[2, 2]]))
    pick(tab)
    events = act(tab, "red", PlayCard("t-20", "bottom", path=((1, 2), (2, 2))))
    sprung = first(events, "TrapSprung")
    assert (sprung.hex, sprung.rule) == ((2, 2), "GH-5") and hp(tab, "red") == 7


def test_gh_5_a_jump_cannot_land_on_an_obstacle_or_a_figure():
    """GH-5: the landing hex must be free of figures and obstacles."""
    tab = solo(game_map=open_map(obstacles=[[2, 2]]), figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab)
    for path in (((1, 2), (2, 2)), ((1, 2),)):
        refused = act(tab, "red", PlayCard("t-20", "bottom", path=path))
        assert isinstance(refused, Rejection) and refused.rule == "GH-5"


def test_gh_5_a_flying_monster_ends_on_an_obstacle():
    """GH-5: a flyer's only attack hex is an obstacle; it flies there and attacks."""
    bat = monster_type("Bat", [mcard("bat-1", 30, {"move": 0}, {"attack": 0})], move=2, attack=1, flying=True)
    tab = table(scenario(line_map(4, obstacles=[[1, 0]]), [("red", "Tester", (0, 0))], [("Bat", "normal", 1, (3, 0))],
                         classes=[TESTER], types=[bat]))
    events = pick(tab, cards=("t-40", "t-50"), dice=(30, 0))
    moved = first(events, "FigureMoved")
    assert (moved.figure, moved.path, moved.mode) == ("bat-1", ((2, 0), (1, 0)), "fly")
    assert first(events, "AttackResolved").target == "red"


# --- GH-6 / GH-7 in a game --------------------------------------------------------------------------------


def test_gh_6_a_monster_turn_records_its_focus_trace():
    """GH-6: the log keeps, per enemy considered, the path cost, proximity and initiative, and the deciding rule."""
    tab = duo(red=(0, 2), blue=(0, 0), figures=[("Biter", "normal", 1, (4, 1))], types=[BITER])
    act(tab, "blue", SelectCards(("o-30", "o-35"), "o-30"), (50,))
    events = pick(tab, cards=("t-60", "t-10"), dice=(50,))
    # red 60, blue 30, Biter 50: blue acts, then the Biter.
    assert first(events, "InitiativeSet").order == (("blue", 30), ("biter-1", 50), ("red", 60))
    events = act(tab, "blue", PlayCard("o-30", "top", skip=True))
    events = act(tab, "blue", PlayCard("o-35", "bottom", skip=True), (0,))
    planned = first(events, "MonsterTurnPlanned")
    assert {c.figure for c in planned.candidates} == {"red", "blue"}
    by_figure = {c.figure: c for c in planned.candidates}
    assert by_figure["red"].movement < by_figure["blue"].movement
    assert planned.focus == ("red",) and "path length" in planned.decided_by
    assert any(line.startswith("Biter 1 considers blue: ") for line in english.trace(tab.game, planned, tab.state))


def test_gh_7_the_monster_moves_then_attacks_its_focus():
    """GH-7: the Biter moves the least needed to attack red, then attacks (modifier +1: 3 damage)."""
    tab = solo(game_map=line_map(), hero=(0, 0), figures=[("Biter", "normal", 1, (3, 0))], types=[BITER])
    pick(tab, dice=(50,))
    act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    events = act(tab, "red", PlayCard("t-20", "top", skip=True), (1,))
    chosen = first(events, "OptionChosen")
    moved = first(events, "FigureMoved")
    assert moved.path == ((2, 0), (1, 0)) == chosen.option.path and chosen.seat == ""
    hit = first(events, "AttackResolved")
    assert (hit.target, hit.drawn, hit.damage) == ("red", ("+1",), 3) and hp(tab, "red") == 7


# --- GH-8 summons ----------------------------------------------------------------------------------------


def test_gh_8_a_summon_acts_before_its_summoner_from_the_next_round():
    """GH-8: summoned in round 1 it does not act; in round 2 it acts just before red, with red's deck."""
    tab = solo(figures=[("Dummy", "normal", 1, (3, 2))])
    pick(tab, cards=("t-50", "t-10"))
    events = act(tab, "red", PlayCard("t-50", "top", path=((1, 2),)))
    summoned = first(events, "FigureSummoned")
    assert summoned.figure.id == "red-s1" and summoned.figure.summoned == 1
    events = act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    assert "red-s1" not in [e.figure for e in events if e.TYPE == "TurnStarted"]
    events = act(tab, "red", SelectCards(("t-20", "t-30"), "t-20"), (90, 0))
    order = [figure for figure, _ in first(events, "InitiativeSet").order]
    assert order == ["red-s1", "red", "dummy-1"]
    # Nothing in red's cards stopped the Bot: it acted at once, before red, against the Dummy.
    bot_turn = [e for e in events if getattr(e, "figure", None) == "red-s1"]
    assert bot_turn[0].TYPE == "TurnStarted"
    hit = first(events, "AttackResolved")
    assert (hit.attacker, hit.deck) == ("red-s1", "red")


# --- GH-C1 map ------------------------------------------------------------------------------------------


def test_gh_c1_a_character_opens_a_door_for_good():
    """GH-C1: entering a closed door opens it; it stays open."""
    tab = solo(game_map=open_map(doors=[[1, 2]]))
    pick(tab)
    events = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (2, 2))))
    assert first(events, "DoorOpened").hex == (1, 2)
    assert tab.state.open_doors == ((1, 2),)


def test_gh_c1_a_wall_between_two_hexes_refuses_the_step():
    """GH-C1: a thin wall makes two neighbouring hexes not adjacent."""
    game_map = open_map(thin_walls=[[[0, 2], [1, 2]]])
    tab = solo(game_map=game_map)
    pick(tab)
    refused = act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2),)))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C1" and "wall" in refused.reason


def test_gh_c1_sight_is_needed_for_a_ranged_attack():
    """GH-C1: a wall hex between red and the Dummy blocks line of sight for a ranged attack."""
    game_map = line_map(5, walls=[])
    game_map["hexes"] = [[0, 0], [2, 0], [3, 0], [0, 1], [1, 1], [2, 1]]
    tab = table(scenario(game_map, [("red", "Tester", (0, 0))], [("Dummy", "normal", 1, (2, 0))],
                         classes=[TESTER], types=[IDLE]))
    pick(tab)
    refused = act(tab, "red", PlayCard("t-20", "top", targets=("dummy-1",)))
    assert isinstance(refused, Rejection)


# --- GH-C2 round and secrecy ------------------------------------------------------------------------------


def test_gh_c2_a_pick_is_sealed_for_everyone_but_its_seat():
    """GH-C2: the pick's event is sent whole to its seat only; others get it sealed, and the hash is the same."""
    tab = duo()
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-20"))
    envelope = tab.envelopes[-1]
    game = tab.game
    assert game.visible(envelope, "red") is envelope
    for viewer in ("blue", None):
        shown = game.visible(envelope, viewer)
        assert shown.event.cards == () and shown.event.leading is None and shown.event.sealed
        assert shown.command is None and shown.hash == envelope.hash
    # Check: folding the sealed version gives the same hash as the server's state.
    state = tab.envelopes[0].event
    folded = rules.evolve(None, state)
    folded = rules.evolve(folded, tab.envelopes[1].event)
    folded = rules.evolve(folded, game.visible(envelope, None).event)
    assert state_hash(folded) == envelope.hash
    assert "t-20" not in str(rules.hero_of(folded, "red").pick.to_data())
    assert game.visible(envelope, None, over=True) is envelope


def test_gh_c2_all_picks_revealed_at_once_and_one_card_per_monster_type():
    """GH-C2: the last pick reveals every pick together and draws one card per monster type on the map."""
    tab = duo(figures=[("Dummy", "normal", 1, FAR), ("Biter", "normal", 1, (6, 0))], types=[IDLE, BITER])
    events = act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    assert types_of(events) == ["CardsSelected"]
    events = act(tab, "blue", SelectCards(("o-20", "o-30"), "o-30"), (50, 90))
    assert types_of(events)[:3] == ["CardsSelected", "CardsRevealed", "MonsterCardDrawn"]
    revealed = first(events, "CardsRevealed")
    assert revealed.picks == (("red", ("t-10", "t-20"), "t-10", False), ("blue", ("o-20", "o-30"), "o-30", False))
    drawn = [e.group for e in events if e.TYPE == "MonsterCardDrawn"]
    assert drawn == ["Biter", "Dummy"]


def test_gh_c2_a_second_pick_in_a_round_is_refused():
    """GH-C2: one choice per round."""
    tab = duo()
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    refused = act(tab, "red", SelectCards(("t-30", "t-40"), "t-30"))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C2" and "already chosen" in refused.reason


# --- GH-C3 monster abilities ----------------------------------------------------------------------------


def test_gh_c3_elites_first_then_normals_by_number():
    """GH-C3: within a type, elites act first, then normals in standee order."""
    tab = solo(figures=[("Dummy", "normal", 2, (8, -1)), ("Dummy", "elite", 3, (8, -3)), ("Dummy", "normal", 1, FAR)])
    events = pick(tab)
    order = [figure for figure, _ in first(events, "InitiativeSet").order]
    assert order == ["red", "dummy-3", "dummy-1", "dummy-2"]


def test_gh_c3_monster_types_tied_on_initiative_are_ordered_by_the_players():
    """GH-C3: two types at initiative 90: the engine asks the players."""
    other_idle = monster_type("Statue", [mcard("st-1", 90, {"move": 0})], move=0)
    tab = solo(figures=[("Dummy", "normal", 1, FAR), ("Statue", "normal", 1, (8, -1))], types=[IDLE, other_idle])
    events = pick(tab, dice=(90, 90))
    offered = first(events, "TieOffered")
    assert (offered.kind, offered.group, offered.rule) == ("monster-order", ("Dummy", "Statue"), "GH-C3")
    events = act(tab, "red", ChooseOrder(("Statue", "Dummy")))
    order = [figure for figure, _ in first(events, "InitiativeSet").order]
    assert order == ["red", "statue-1", "dummy-1"]


def test_gh_c3_a_card_adds_to_the_printed_stats():
    """GH-C3: the elite Biter (attack 3) with card attack +0 and move 2 hits for 3 + modifier."""
    tab = solo(figures=[("Biter", "elite", 1, (2, 2))], types=[BITER])
    pick(tab, dice=(50,))
    act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    events = act(tab, "red", PlayCard("t-20", "top", skip=True), (0,))
    assert first(events, "AttackResolved").value == 3


# --- GH-C4 ties go to the players -------------------------------------------------------------------------


def test_gh_c4_equally_good_destinations_are_offered_and_the_players_choose():
    """GH-C4: the Biter has three equally good hexes; the engine waits for a ChooseOption."""
    tab = solo(hero=(4, 0), figures=[("Biter", "normal", 1, (0, 2))], types=[BITER])
    events = pick(tab, cards=("t-60", "t-10"), dice=(50,))
    planned = first(events, "MonsterTurnPlanned")
    assert len(planned.options) >= 2 and types_of(events)[-1] == "MonsterTurnPlanned"
    assert tab.state.pending.kind == "monster" and rules.turn(tab.state) == ("red",)
    assert len(rules.legal(tab.state, "red")) == len(planned.options)
    refused = act(tab, "red", ChooseOption(7))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C4"
    events = act(tab, "red", ChooseOption(1))
    chosen = first(events, "OptionChosen")
    assert (chosen.seat, chosen.index, chosen.rule) == ("red", 1, "GH-C4")
    assert at(tab, "biter-1") == planned.options[1].destination


# --- GH-C5 attacks ----------------------------------------------------------------------------------------


def test_gh_c5_advantage_draws_two_and_keeps_the_better():
    """GH-C5: t-60's attack has advantage: drawn -1 and +2, the +2 is used."""
    tab = solo(figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab, cards=("t-60", "t-10"))
    events = act(tab, "red", PlayCard("t-60", "top", targets=("dummy-1",)), (-1, 2))
    hit = first(events, "AttackResolved")
    assert (hit.drawn, hit.used, hit.effect, hit.damage) == (("-1", "+2"), "+2", "advantage", 4)


def test_gh_c5_a_ranged_attack_on_an_adjacent_target_has_disadvantage():
    """GH-C5: t-20's ranged attack on the adjacent Dummy draws two and keeps the worse."""
    tab = solo(figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab)
    events = act(tab, "red", PlayCard("t-20", "top", targets=("dummy-1",)), (10, -1))
    hit = first(events, "AttackResolved")
    assert (hit.drawn, hit.used, hit.effect, hit.damage) == (("x2", "-1"), "-1", "disadvantage", 2)


def test_gh_c5_a_monster_at_zero_dies_and_the_scenario_is_won():
    """GH-C5, GH-C2: 2x doubles the attack; the Dummy at 0 hit points dies; no monster left: won."""
    tab = solo(figures=[("Dummy", "normal", 1, (1, 2))])
    pick(tab, cards=("t-30", "t-10"))
    events = act(tab, "red", PlayCard("t-30", "top", targets=("dummy-1",)), (10,))
    assert first(events, "AttackResolved").damage == 10
    assert types_of(events)[-2:] == ["FigureDied", "GameEnded"]
    assert tab.state.outcome == "won"


def test_gh_c5_a_deck_that_drew_2x_is_reshuffled_at_the_end_of_the_round():
    """GH-C5: red drew 2x this round; RoundEnded names red's deck and it is full again."""
    tab = solo(figures=[("Dummy", "elite", 1, (1, 2))])
    pick(tab)
    act(tab, "red", PlayCard("t-10", "top", targets=("dummy-1",)), (10,))
    act(tab, "red", PlayCard("t-20", "bottom", skip=True))
    events = act(tab, "red", ShortRest(False))
    assert "red" in first(events, "RoundEnded").reshuffled
    assert by_id(tab.state.decks, "red", "owner").drawn == ()


# --- GH-C6 resting ----------------------------------------------------------------------------------------


def test_gh_c6_long_rest_loses_a_chosen_card_and_heals_two():
    """GH-C6: declared secretly (initiative 99); on its turn it loses the card it names and heals 2."""
    tab = solo()
    heroes = rules._replace_hero(tab.state, "red", hand=("t-40", "t-50"), discard=("t-10", "t-20", "t-30"))
    tab.state = tab.state.but(heroes=heroes, figures=rules._replace_figure(tab.state, "red", hp=5))
    events = act(tab, "red", DeclareLongRest(), (90,))
    assert first(events, "InitiativeSet").order == (("dummy-1", 90), ("red", 99))
    refused = act(tab, "red", RestLose("t-40"))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C6"
    events = act(tab, "red", RestLose("t-20"))
    rested = first(events, "LongRested")
    assert (rested.lost, rested.returned, rested.healed) == ("t-20", ("t-10", "t-30"), 2)
    hero = rules.hero_of(tab.state, "red")
    assert "t-20" in hero.lost and set(hero.hand) == {"t-40", "t-50", "t-10", "t-30"} and hp(tab, "red") == 7


def test_gh_c6_a_long_rest_needs_two_discarded_cards():
    """GH-C6: with an empty discard pile a long rest is refused."""
    tab = solo()
    refused = act(tab, "red", DeclareLongRest())
    assert isinstance(refused, Rejection) and refused.rule == "GH-C6"


def test_gh_c6_short_rest_at_the_end_of_the_round_loses_a_random_card():
    """GH-C6: with two discarded cards the seat is offered a short rest; the lost card is drawn at random."""
    tab = solo()
    heroes = rules._replace_hero(tab.state, "red", hand=("t-10", "t-20", "t-30"), discard=("t-40", "t-50"))
    tab.state = tab.state.but(heroes=heroes)
    pick(tab)
    act(tab, "red", PlayCard("t-10", "bottom", skip=True))
    events = act(tab, "red", PlayCard("t-20", "top", skip=True))
    assert first(events, "ShortRestOffered").seats == ("red",)
    assert rules.legal(tab.state, "red") == [ShortRest(True), ShortRest(False)]
    events = act(tab, "red", ShortRest(True), (50,))
    rested = first(events, "ShortRested")
    assert rested.lost == "t-50"
    assert types_of(events)[1:3] == ["RoundEnded", "RoundStarted"]


# --- decide is pure ----------------------------------------------------------------------------------------


def test_gh_c2_decide_never_changes_the_state_it_is_given():
    """GH-C2: deciding (even a whole reveal and monster turns) leaves the input state's hash unchanged."""
    tab = solo(figures=[("Biter", "normal", 1, (3, 1))], types=[BITER])
    before = state_hash(tab.state)
    rules.decide(tab.state, "red", SelectCards(("t-10", "t-20"), "t-10"), Rng(3))
    assert state_hash(tab.state) == before

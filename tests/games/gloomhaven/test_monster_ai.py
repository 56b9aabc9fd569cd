"""Monster AI in detail (GH-C8…GH-C11), each test built from the clause's text on a small map drawn here.

Positions go through ``server.cli.ask_gloomhaven.answer``, the code behind ``chronicle ask
gloomhaven monster-turn`` and (through ``focus.monster_turn``) every monster turn of a game.
Hexes are axial [q, r], flat-topped: N (q, r-1), S (q, r+1), NE (q+1, r-1), SE (q+1, r),
NW (q-1, r), SW (q-1, r+1). Maps are open parallelograms large enough that no figure's sight
lines come near the map's edge unless the test says so.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import events.games as events_games
from events.games.gloomhaven import rules
from events.games.gloomhaven.focus import orientations
from events.games.gloomhaven.model import ChooseOption, ChooseOrder, SelectCards
from events.geometry.hexgrid import hex_distance, hex_neighbors
from events.geometry.hexmap import HexMap
from events.log import Table
from events.rules import Rejection
from events.validate import ScenarioError
from server.cli.ask_gloomhaven import answer
from tests import english
from tests.games.gloomhaven.helpers import act, card, first, hero_class, mcard, monster_type, scenario, table


def room(**terrain: list) -> dict:
    data = {"name": "room", "hexes": [[q, r] for q in range(-3, 10) for r in range(-6, 5)]}
    data.update(terrain)
    return data


def monster(hex: tuple, move: int = 0, how: dict | None = None, **attack: object) -> dict:
    """The acting monster: its move, ``how`` it moves (``{"jump": True}``...) and its attack (none given: melee)."""
    return {"id": "M", "side": "monster", "hex": list(hex), "move": move, "initiative": 60, "attack": attack,
            **(how or {})}


def hero(figure_id: str, hex: tuple, initiative: int, **extra: object) -> dict:
    return {"id": figure_id, "side": "character", "hex": list(hex), "initiative": initiative, **extra}


def ask(figures: list, game_map: dict | None = None, rules_name: str = "gloomhaven") -> dict:
    return answer({"map": game_map or room(), "figures": figures, "monster": "M"}, rules=rules_name)


def destinations(result: dict) -> set:
    return {tuple(option["destination"]) for option in result["options"]}


def weighed(result: dict, hex: tuple, toward: tuple | None = None) -> dict:
    return next(d for d in result["trace"]["destinations"]
                if tuple(d["hex"]) == hex and (d["toward"] is None if toward is None else tuple(d["toward"]) == toward))


# --- GH-C8 choosing the destination ----------------------------------------------------------------------


def test_gh_c8_1_a_ranged_monster_first_gets_rid_of_disadvantage():
    """GH-C8 (1): an archer (range 3) next to its focus A steps to a hex not adjacent to A, the fewest moves
    away (5); staying put is dropped at step (1).

            .   x          M (0, 0), A (1, 0) to its SE; the x are M's neighbours not next to A.
          x   M
            x   A
    """
    result = ask([monster((0, 0), move=2, range=3), hero("A", (1, 0), 20)])
    expected = {n for n in hex_neighbors((0, 0)) if hex_distance(n, (1, 0)) > 1}
    assert destinations(result) == expected == {(-1, 0), (-1, 1), (0, -1)}
    assert all(not option["disadvantage"] and option["movement"] == 1 for option in result["options"])
    stay = weighed(result, (0, 0))
    assert not stay["kept"] and stay["step"].startswith("GH-C8 (1)")
    assert weighed(result, (-2, 1))["step"].startswith("GH-C8 (5)")  # two moves away: dropped at (5)


def test_gh_c8_2_more_targets_before_fewer_movement_points():
    """GH-C8 (2): an archer with two targets (range 3) walks five hexes to attack A and B, to (3, 2) or (5, -2),
    rather than one hex to attack A alone.

        M . . . A . B      M (0, 0), A (4, 0), B (6, 0) in a row; from (1, 0) A is 3 away but B 5.
    """
    result = ask([monster((0, 0), move=5, range=3, targets=2), hero("A", (4, 0), 20), hero("B", (6, 0), 30)])
    assert {tuple(option["attacks"]) for option in result["options"]} == {("A", "B")}
    assert destinations(result) == {(3, 2), (5, -2)}
    assert all(option["movement"] == 5 and not option["disadvantage"] for option in result["options"])
    one = weighed(result, (1, 0))
    assert not one["kept"] and one["step"].startswith("GH-C8 (2)")


def test_gh_c8_3_extra_targets_ranked_by_the_focus_rules_from_the_starting_hex():
    """GH-C8 (3): a melee monster with two targets. From X (3, -1) it hits A and B, from Y (2, 1) A and C, both
    three moves away. B ranks better than C as a focus would from M's hex (2 moves to attack B, 3 to attack C),
    although C has the better initiative and each is next to its hex: X is kept, Y dropped at step (3).

              B
            . X .          M (0, 0); A (3, 0) the focus (ties B at 2 moves and proximity 3, wins on initiative);
          M . . A          B (3, -2); C (3, 1), initiative 10.
            .  Y  C
    """
    result = ask([monster((0, 0), move=3, targets=2), hero("A", (3, 0), 20), hero("B", (3, -2), 30),
                  hero("C", (3, 1), 10)])
    assert result["focus"] == ["A"] and "initiative" in result["trace"]["decided_by"]
    assert [(option["destination"], option["attacks"]) for option in result["options"]] == [([3, -1], ["A", "B"])]
    y = weighed(result, (2, 1))
    assert not y["kept"] and y["step"].startswith("GH-C8 (3)")
    assert weighed(result, (2, 0))["step"].startswith("GH-C8 (2)")  # A alone
    assert weighed(result, (3, -1))["kept"]


def test_gh_c8_4_fewest_extra_targets_with_disadvantage_before_movement():
    """GH-C8 (4): an archer (range 2, two targets) at M (0, 0); A (2, 0) the focus, B (4, -1); obstacles at
    (2, 1) and (3, -2). The cheapest hex that attacks both, (4, -2) (four moves), is next to B: B would be
    attacked with disadvantage. (3, 1), five moves round the obstacle, attacks both without: it wins at step (4),
    before (5) fewest movement points.

              o  x          o obstacles, x (4, -2) next to B
          M  .  A  B
                o  (3, 1)
    """
    game_map = room(obstacles=[[2, 1], [3, -2]])
    result = ask([monster((0, 0), move=6, range=2, targets=2), hero("A", (2, 0), 20), hero("B", (4, -1), 30)],
                 game_map)
    assert [(option["destination"], option["attacks"]) for option in result["options"]] == [([3, 1], ["A", "B"])]
    near_b = weighed(result, (4, -2))
    assert not near_b["kept"] and near_b["step"].startswith("GH-C8 (4)")
    assert result["options"][0]["movement"] == 5


def test_gh_c8_5_fewest_movement_points_and_the_rest_is_the_players_choice():
    """GH-C8 (5), GH-C4: a melee monster two hexes from A walks one hex; both hexes next to A and one move away
    tie, so both are offered (players choose).

        M . A       M (0, 0), A (2, -1): (1, -1) and (1, 0) are each one move away and next to A.
    """
    result = ask([monster((0, 0), move=3), hero("A", (2, -1), 20)])
    assert destinations(result) == {(1, -1), (1, 0)}
    assert all("players choose (GH-C11)" in weighed(result, hex)["step"] for hex in ((1, -1), (1, 0)))
    assert weighed(result, (2, 0))["step"].startswith("GH-C8 (5)")


# --- GH-C9 out of reach this turn -----------------------------------------------------------------------


def test_gh_c9_each_tied_hex_yields_its_own_stopping_hexes():
    """GH-C9: A (4, -2) is four moves away; the hexes next to it nearest M are T1 (3, -2) and T2 (3, -1), three
    moves each, tied: the players choose one. Allies hold (2, -2) and (2, -1), the hexes one step short of T1,
    so toward T1 it stops two short (fewest movement points now: (1, -1) or (1, 0)), while toward T2 it reaches
    (2, 0). Pooling the tied hexes would have offered (2, 0) alone.

          m  T1 A         m: allied monsters; M (0, 0) with move 2.
        .  m  T2
      M  .  .
    """
    figures = [monster((0, 0), move=2), hero("A", (4, -2), 20),
               {"id": "m1", "side": "monster", "hex": [2, -2]}, {"id": "m2", "side": "monster", "hex": [2, -1]}]
    result = ask(figures)
    by_goal = {(tuple(option["destination"]), tuple(option["toward"])) for option in result["options"]}
    assert by_goal == {((1, -1), (3, -2)), ((1, 0), (3, -2)), ((2, 0), (3, -1))}
    assert all(option["attacks"] == [] for option in result["options"])
    kept = [d for d in result["trace"]["destinations"] if d["kept"] and d["toward"] is None]
    assert sorted(tuple(d["hex"]) for d in kept) == [(3, -2), (3, -1)]
    assert all("GH-C9" in d["step"] for d in result["trace"]["destinations"])
    farther = weighed(result, (0, -1), (3, -1))  # left 3 > 1 toward T2
    assert not farther["kept"] and farther["step"] == "GH-C9 least path left"


def test_gh_c9_the_hex_with_the_best_attack_not_the_nearest():
    """GH-C9: with two targets it heads for the hex it would attack A and B from, not the nearest hex next to A.

        M . . . . . . A B        M (-3, 0) with move 1; A (4, 0), B (6, 0); range 2, two targets.
    """
    result = ask([monster((-3, 0), move=1, range=2, targets=2), hero("A", (4, 0), 20), hero("B", (6, 0), 30)])
    goals = {tuple(option["toward"]) for option in result["options"]}
    assert goals and all(hex_distance(goal, (6, 0)) <= 2 and hex_distance(goal, (4, 0)) <= 2 for goal in goals)
    nearest = weighed(result, (2, 0))  # A in range, B 4 away
    assert not nearest["kept"] and nearest["step"].startswith("GH-C9 as GH-C8 (2)")


def test_gh_c9_difficult_terrain_it_cannot_afford_makes_it_stop_short():
    """GH-C9: toward T the cheapest route crosses difficult terrain; with one movement point left it cannot enter
    it, so it stops before it rather than on it. Corridor one hex wide: M (0, 0), difficult (2, 0), A (5, 0)."""
    game_map = {"name": "corridor", "hexes": [[q, 0] for q in range(7)], "difficult": [[2, 0]]}
    result = ask([monster((0, 0), move=2), hero("A", (5, 0), 20)], game_map)
    assert destinations(result) == {(1, 0)}


# --- GH-C10 area attacks -------------------------------------------------------------------------------


def test_gh_c10_a_pattern_is_placed_mirrored_as_well_as_rotated():
    """GH-C10: the hook (1, 0), (2, 0), (2, -1) around M (0, 0); A (1, 0) and B (1, 1) lie only in its mirror
    image (1, 0), (1, 1), (2, 0): the monster hits both without moving."""
    hook = ((1, 0), (2, -1), (2, 0))
    assert ((1, 0), (1, 1), (2, 0)) in orientations(hook) and len(orientations(hook)) == 12
    result = ask([monster((0, 0), move=2, pattern=[list(cell) for cell in hook]), hero("A", (1, 0), 20),
                  hero("B", (1, 1), 30)])
    assert [(option["destination"], option["attacks"]) for option in result["options"]] == [([0, 0], ["A", "B"])]


def test_gh_c10_a_ranged_pattern_anywhere_one_hex_is_in_range():
    """GH-C10: a ranged triangle (range 3) lands on A and B, both four hexes away: its third hex (3, 0) is within
    range, so the monster does not move. A target it cannot see is never hit: boxed in by walls, B is out of
    sight and out of every target set.

        M . . x A       M (0, 0); A (4, -1), B (4, 0); the triangle (3, 0) (4, -1) (4, 0).
                B
    """
    triangle = [[0, 0], [1, 0], [0, 1]]
    figures = [monster((0, 0), move=2, range=3, pattern=triangle), hero("A", (4, -1), 20), hero("B", (4, 0), 30)]
    result = ask(figures)
    assert [(option["destination"], option["attacks"]) for option in result["options"]] == [([0, 0], ["A", "B"])]
    walled = room(walls=[[3, 0], [3, 1], [4, 1], [5, 0], [5, -1]])  # every neighbour of B but A's hex
    hidden = ask(figures, walled)
    assert hidden["options"] and all("B" not in option["attacks"] for option in hidden["options"])


def test_gh_c10_plus_targets_adds_single_targets_beyond_the_pattern():
    """GH-C10: a one-hex melee pattern with "+1 target" hits A in the pattern and B, also adjacent, as a single
    target; without the +1 it hits A alone. M (0, 0), A (1, 0), B (0, 1)."""
    figures = [hero("A", (1, 0), 20), hero("B", (0, 1), 30)]
    plus = ask([monster((0, 0), pattern=[[1, 0]], plus_targets=1)] + figures)
    assert [option["attacks"] for option in plus["options"]] == [["A", "B"]]
    alone = ask([monster((0, 0), pattern=[[1, 0]])] + figures)
    assert {tuple(option["attacks"]) for option in alone["options"]} == {("A",)}


def test_gh_c10_the_formats_take_ranged_patterns_and_refuse_mixed_counts():
    """GH-C10: positions and monster cards accept a ranged pattern (``range`` with ``pattern``) and ``plus_targets``;
    ``targets`` with a pattern, or a pattern hex too far out, is refused with its path."""
    with pytest.raises(ScenarioError, match=r"\$\.figures\[0\]\.attack\.targets"):
        ask([monster((0, 0), pattern=[[1, 0]], targets=2), hero("A", (1, 0), 20)])
    with pytest.raises(ScenarioError, match=r"\$\.figures\[0\]\.attack\.pattern\[0\].*at most 7"):
        ask([monster((0, 0), range=2, pattern=[[9, 0]]), hero("A", (1, 0), 20)])
    with pytest.raises(ScenarioError, match=r"\$\.figures\[0\]\.attack\.plus_targets"):
        ask([monster((0, 0), range=2, plus_targets=1), hero("A", (1, 0), 20)])


def test_gh_c10_a_ranged_area_card_plays_in_a_round():
    """GH-C10: a monster card with a ranged area (range 3, a triangle) hits both heroes four hexes away, unmoved."""
    sling = monster_type("Slinger", [mcard("sl-1", 70, {"move": 0}, {"attack": 0, "range": 3,
                                                                     "pattern": [[0, 0], [1, 0], [0, 1]]})],
                         hp=5, attack=1)
    tester = hero_class("Tester", 10, [card("t-10", 10, {"attack": 2}, {"move": 3}),
                                        card("t-20", 20, {"attack": 3}, {"move": 2})])
    other = hero_class("Other", 10, [card("o-30", 30, {"attack": 2}, {"move": 3}),
                                      card("o-40", 40, {"attack": 3}, {"move": 2})])
    open_room = {"name": "room", "hexes": [[q, r] for q in range(-3, 10) for r in range(-6, 5)]}
    tab = table(scenario(open_room, [("red", "Tester", (4, -1)), ("blue", "Other", (4, 0))],
                         [("Slinger", "normal", 1, (0, 0))], classes=[tester, other], types=[sling]))
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    act(tab, "blue", SelectCards(("o-30", "o-40"), "o-30"), (70,))
    state = tab.state
    plan = rules.plan_for(state, rules.figure_of(state, "slinger-1"))
    assert [(option.destination, option.attacks) for option in plan.options] == [((0, 0), ("red", "blue"))]


# --- GH-C11 ties the players break ----------------------------------------------------------------------------


def test_gh_c11_characters_tied_on_initiative_are_both_answered():
    """GH-C11: A and B are as near and as cheap to attack and share initiative 30: the answer gives a focus on
    each, never the one listed first; a different non-leading card (``secondary``) breaks the tie (GH-2).

        A . M . B        M (0, 0); A (-2, 0), B (2, 0); melee, move 1.
    """
    tied = ask([monster((0, 0), move=1), hero("A", (-2, 0), 30), hero("B", (2, 0), 30)])
    assert tied["focus"] == ["A", "B"] and "GH-C11" in tied["trace"]["decided_by"]
    assert {option["focus"] for option in tied["options"]} == {"A", "B"}
    flipped = ask([monster((0, 0), move=1), hero("B", (2, 0), 30), hero("A", (-2, 0), 30)])
    assert flipped["focus"] == tied["focus"]
    broken = ask([monster((0, 0), move=1), hero("A", (-2, 0), 30, secondary=60), hero("B", (2, 0), 30, secondary=45)])
    assert broken["focus"] == ["B"] and "initiative" in broken["trace"]["decided_by"]


def test_gh_c11_a_tie_between_extra_targets_offers_each_group():
    """GH-C11: two targets; B and C tie on every focus step (same path, proximity and initiative): both
    groups are offered. M (0, 0) melee with two targets; A (1, 0) the focus; B (0, 1) and C (1, -1)."""
    result = ask([monster((0, 0), targets=2), hero("A", (1, 0), 10), hero("B", (0, 1), 30), hero("C", (1, -1), 30)])
    assert sorted(tuple(option["attacks"]) for option in result["options"]) == [("A", "B"), ("A", "C")]


@pytest.mark.parametrize("version", ["gloomhaven-6", "gloomhaven-7"])
def test_gh_c11_in_a_round_the_tied_characters_choose_the_monsters_focus(version):
    """GH-C11, GH-2, GH-6: in a game, red and blue tie on both cards and blue's seat puts blue first (GH-2). Up to
    gloomhaven-6 the Biter's focus between them is theirs again: its turn offers an option on each and waits for
    red or blue (green, not tied, is refused under GH-C11). From gloomhaven-7 the order they chose is the
    initiative order that breaks the focus tie (GH-6: "par l'ordre d'initiative"): the Biter goes for blue, no
    choice asked."""
    biter = monster_type("Biter", [mcard("b-1", 5, {"move": 1}, {"attack": 0})], hp=4, attack=2)
    classes = [hero_class(name, 10, [card(f"{tag}-10", 10, {"attack": 2}, {"move": 3}),
                                     card(f"{tag}-{second}", second, {"attack": 3}, {"move": 2})])
               for name, tag, second in (("Tester", "t", 20), ("Other", "o", 20), ("Third", "g", 40))]
    open_room = {"name": "room", "hexes": [[q, r] for q in range(-3, 10) for r in range(-6, 5)]}
    tab = Table.create(events_games.load("gloomhaven", version), "g-test",
                       scenario(open_room, [("red", "Tester", (-2, 0)), ("blue", "Other", (2, 0)),
                                            ("green", "Third", (8, 4))],
                                [("Biter", "normal", 1, (0, 0))], classes=classes, types=[biter]), 1)
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    act(tab, "green", SelectCards(("g-10", "g-40"), "g-10"))
    act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"), (5,))
    if version == "gloomhaven-7":  # GH-2: both tied seats answer the order
        act(tab, "blue", ChooseOrder(("blue", "red")))
        events = act(tab, "red", ChooseOrder(("blue", "red")), (0,))
    else:
        events = act(tab, "blue", ChooseOrder(("blue", "red")))
    planned = first(events, "MonsterTurnPlanned")
    if version == "gloomhaven-7":
        assert planned.focus == ("blue",) and "initiative" in planned.decided_by
        assert first(events, "OptionChosen").option.focus == "blue"
        return
    assert planned.focus == ("blue", "red") and {option.focus for option in planned.options} == {"blue", "red"}
    assert tab.state.pending.kind == "monster" and tab.state.pending.seats == ("red", "blue")
    refused = act(tab, "green", ChooseOption(0))
    assert isinstance(refused, Rejection) and refused.rule == "GH-C11" and "red, blue" in refused.reason
    chosen = act(tab, "red", ChooseOption(next(i for i, o in enumerate(planned.options) if o.focus == "red")), (0,))
    assert first(chosen, "OptionChosen").option.focus == "red"


def test_gh_c8_the_log_cites_the_step_that_decided_every_destination():
    """GH-C8, GH-C7: a game's monster turn logs every destination weighed with its step, picks its one option under
    GH-C8, and ``chronicle explain``'s trace names the steps and the sight rule."""
    biter = monster_type("Biter", [mcard("b-1", 5, {"move": 2}, {"attack": 0})], hp=4, attack=2)
    tester = hero_class("Tester", 10, [card("t-10", 10, {"attack": 2}, {"move": 3}),
                                        card("t-20", 20, {"attack": 3}, {"move": 2})])
    open_room = {"name": "room", "hexes": [[q, r] for q in range(-3, 10) for r in range(-6, 5)]}
    tab = table(scenario(open_room, [("red", "Tester", (3, 0))], [("Biter", "normal", 1, (0, 0))], classes=[tester],
                         types=[biter]))
    events = act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"), (5, 0))
    planned = first(events, "MonsterTurnPlanned")
    assert planned.destinations and all(d.step.startswith("GH-C8 (") for d in planned.destinations)
    kept = [d for d in planned.destinations if d.kept]
    assert len(kept) == 1 and first(events, "OptionChosen").rule == "GH-C8"
    assert tuple(kept[0].hex) == first(events, "OptionChosen").option.destination
    lines = english.trace(tab.game, planned, tab.state)
    assert any("GH-C7" in line for line in lines) and any("dropped at GH-C8 (5)" in line for line in lines)


def test_gh_c9_a_jumps_landing_cost_makes_it_stop_short():
    """GH-C9, GH-5: a jumping monster (move 2) heading for A cannot land on the difficult hex two steps on (2 + 1
    for its landing = 3), so it stops one step on; under Jaws of the Lion's jump (GH-V2) the landing costs 2 and
    it gets there. Corridor: M (0, 0), difficult (2, 0), A (5, 0)."""
    game_map = {"name": "corridor", "hexes": [[q, 0] for q in range(7)], "difficult": [[2, 0]]}
    figures = [monster((0, 0), move=2, how={"jump": True}), hero("A", (5, 0), 20)]
    assert destinations(ask(figures, game_map)) == {(1, 0)}
    assert destinations(ask(figures, game_map, "jotl")) == {(2, 0)}


SMALL = [(q, r) for q in range(0, 6) for r in range(-3, 4) if 0 <= q + 2 * r + 3 <= 9]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(SMALL), min_size=4, max_size=4, unique=True),
       st.sets(st.sampled_from(SMALL), max_size=6), st.sampled_from(((0, 1), (2, 1), (3, 2), (0, 2))),
       st.integers(min_value=0, max_value=4))
def test_gh_c8_every_option_is_a_legal_walk_and_a_legal_attack(spots, walls, kind, move):
    """GH-C8, GH-C9, GH-4, GH-C7: on random small maps every option walks a legal path (one hex at a time, never
    through a wall, an obstacle or an enemy, within its move when it attacks) and attacks only targets in range
    around walls and in sight; a kept destination is an option's and every option's destination was kept."""
    open_hexes = [hex for hex in SMALL if hex not in walls or hex in spots]
    game_map = {"name": "random", "hexes": [list(hex) for hex in open_hexes]}
    reach, targets = kind
    attack = {"range": reach, "targets": targets} if reach else {"targets": targets}
    figures = [monster(spots[0], move=move, **attack)] + [hero(name, hex, 10 + i * 10)
                                                          for i, (name, hex) in enumerate(zip("ABC", spots[1:]))]
    result = ask(figures, game_map)
    hexmap = HexMap(open_hexes)
    enemies = {name: hex for name, hex in zip("ABC", spots[1:])}
    for option in result["options"]:
        here = spots[0]
        for step in map(tuple, option["path"]):
            assert step in hexmap.adjacent(here) and step not in enemies.values()
            here = step
        assert here == tuple(option["destination"])
        if option["attacks"]:
            assert option["movement"] <= move and option["toward"] is None
            for name in option["attacks"]:
                target = enemies[name]
                if reach:
                    assert hexmap.range_between(here, target) <= reach and hexmap.line_of_sight(here, target)
                else:
                    assert hexmap.are_adjacent(here, target)
            assert len(option["attacks"]) <= targets
    kept = {(d["focus"], tuple(d["hex"])) for d in result["trace"]["destinations"] if d["kept"] and d["toward"] is None
            and d["step"].startswith("GH-C8")}
    attacking = {(o["focus"], tuple(o["destination"])) for o in result["options"] if o["toward"] is None}
    if kept:
        assert kept == attacking

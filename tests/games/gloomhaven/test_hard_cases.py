"""Gloomhaven's hard cases, each worked out by hand from the digest's clause before the engine was asked.

Every test draws a small map (hexes axial [q, r], flat-topped: N (q, r-1), S (q, r+1), NE (q+1, r-1),
SE (q+1, r), NW (q-1, r), SW (q-1, r+1)) and says in its docstring why the rule text gives the
answer. Positions go through ``server.cli.ask_gloomhaven.answer`` (``chronicle ask gloomhaven
monster-turn``), sight through ``events.geometry.hexmap``; the game's own monster turns use the same
solver (``rules.plan_for``). In the sight lattice a hex's centre is (3q, 2r + q), its corners the
centre plus (+-2, 0) and (+-1, +-1).

``ROOM`` is an open parallelogram (q -3..9, r -6..4) large enough that no sight line comes near its
edge unless a test says so. ``zigzag`` is a long thin wall between the lane r = -1 (above) and the
lane r = 0 (below).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import events.games
from events.games.gloomhaven.model import ChooseOrder, PlayCard, SelectCards, ShortRest
from events.geometry.hexmap import HexMap, hexmap_corners
from events.log import Table
from events.validate import ScenarioError
from server import logfile
from server.cli.ask_gloomhaven import answer
from server.cli.main import main
from tests.games.gloomhaven.helpers import act, first, mcard, monster_type, open_map, scenario
from tests.games.gloomhaven.test_rules import OTHER, TESTER

ROOM = [(q, r) for q in range(-3, 10) for r in range(-6, 5)]
DISC = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]


def room(**terrain: list) -> dict:
    data = {"name": "room", "hexes": [list(hex) for hex in ROOM]}
    data.update(terrain)
    return data


def corridor(low: int, high: int, **terrain: list) -> dict:
    """Hexes (low, 0) .. (high, 0), one hex wide: only neighbours see each other (GH-C7)."""
    data = {"name": "corridor", "hexes": [[q, 0] for q in range(low, high + 1)]}
    data.update(terrain)
    return data


def zigzag(low: int, high: int) -> list:
    """Thin walls between (q, -1) and (q, 0) for q in low..high, and between (q, 0) and (q + 1, -1) in between:
    one unbroken wall from the west corner of (low, -1)|(low, 0) to the east corner of (high, -1)|(high, 0)."""
    walls = [[[q, -1], [q, 0]] for q in range(low, high + 1)]
    return walls + [[[q, 0], [q + 1, -1]] for q in range(low, high)]


def monster(hex: tuple, move: int = 0, how: dict | None = None, **attack: object) -> dict:
    return {"id": "M", "side": "monster", "hex": list(hex), "move": move, "initiative": 60, "attack": attack,
            **(how or {})}


def idle(hex: tuple, move: int = 0, how: dict | None = None) -> dict:
    """The acting monster without an attack (GH-C4: it focuses as if melee)."""
    return {"id": "M", "side": "monster", "hex": list(hex), "move": move, "initiative": 60, **(how or {})}


def hero(figure_id: str, hex: tuple, initiative: int, **extra: object) -> dict:
    return {"id": figure_id, "side": "character", "hex": list(hex), "initiative": initiative, **extra}


def summon(figure_id: str, hex: tuple, summoner: str, **extra: object) -> dict:
    return {"id": figure_id, "side": "summon", "hex": list(hex), "summoner": summoner, **extra}


def ally(figure_id: str, hex: tuple, **extra: object) -> dict:
    return {"id": figure_id, "side": "monster", "hex": list(hex), **extra}


def ask(figures: list, game_map: dict | None = None, rules: str = "gloomhaven", acting: str = "M") -> dict:
    return answer({"map": game_map or room(), "figures": figures, "monster": acting}, rules=rules)


def ends(result: dict) -> set:
    return {tuple(option["destination"]) for option in result["options"]}


def plays(result: dict) -> set:
    """Each option as (destination, targets)."""
    return {(tuple(option["destination"]), tuple(option["attacks"])) for option in result["options"]}


def weighed(result: dict, hex: tuple) -> dict:
    return next(d for d in result["trace"]["destinations"] if tuple(d["hex"]) == hex)


# --- GH-C7 line of sight -------------------------------------------------------------------------------------


def test_gh_c7_an_alcove_whose_corners_all_lie_on_walls_sees_only_its_open_neighbours():
    """GH-C7: (0, 0) with wall hexes NE, SE, NW and SW: each of its six corners is a corner of one of those
    walls, and a corner on a wall never ends a sight line. So only its open neighbours N (0, -1) and S (0, 1)
    see it (across their open edges); (0, -2), straight up the same column, does not."""
    hexmap = HexMap([hex for hex in DISC if hex not in ((1, -1), (1, 0), (-1, 0), (-1, 1))])
    seen = sorted(hex for hex in hexmap.open if hexmap.line_of_sight((0, 0), hex))
    assert seen == [(0, -1), (0, 0), (0, 1)]
    assert not hexmap.line_of_sight((0, -2), (0, 0)) and not hexmap.line_of_sight((0, 0), (0, 2))


def test_gh_c7_neighbours_across_a_long_thin_wall_see_each_other_only_at_its_end():
    """GH-C7: the zigzag wall q 0..4. (2, -1) and (2, 0) share a walled edge; the hexes at its two ends, (1, 0)
    and (3, -1), are each walled off from one of them, so no neighbouring edge offers a way round: unseen.
    At the wall's west end (0, -1) and (0, 0) have (-1, 0) beside them, open to both: seen. Range counts
    round the wall: six hexes either way round from (2, 0) to (2, -1)."""
    hexmap = HexMap(ROOM, thin_walls=[tuple(map(tuple, pair)) for pair in zigzag(0, 4)])
    assert not hexmap.line_of_sight((2, 0), (2, -1)) and not hexmap.line_of_sight((2, -1), (2, 0))
    assert hexmap.line_of_sight((0, 0), (0, -1))
    assert hexmap.range_between((2, 0), (2, -1)) == 6


def test_gh_c7_a_gap_one_edge_wide_in_a_thin_wall():
    """GH-C7: the zigzag q 0..4 without its edge (2, -1)|(2, 0): a window from (5, 1) to (7, 1) whose two ends
    are wall ends (never touched). (2, 0) sees (2, -2) straight through it (the line from (2, 0)'s corner
    (5, 3) to (2, -2)'s (7, -1) crosses y = 1 at x = 6, inside the window). It does not see (0, -1) up to
    the west: every line from its free corners (x >= 4) to (0, -1)'s (x <= 2) meets the wall west of the
    window ((4, 2) to (2, -2) crosses the edge (2, 0)-(4, 0) at (3, 0)) or at its west end."""
    walls = [tuple(map(tuple, pair)) for pair in zigzag(0, 4) if pair != [[2, -1], [2, 0]]]
    hexmap = HexMap(ROOM, thin_walls=walls)
    assert hexmap.line_of_sight((2, 0), (2, -1))  # the open edge
    assert hexmap.line_of_sight((2, 0), (2, -2))
    assert not hexmap.line_of_sight((2, 0), (0, -1))


def test_gh_c7_a_long_diagonal_that_only_grazes_a_wall_hex_corner_is_blocked():
    """GH-C7: a 16 x 7 room (columns q 0..15, rows r - q // 2 for r 0..6) with one wall hex W (7, 0), centre
    (21, 7), corners (23, 7) (22, 8) (20, 8) (19, 7) (20, 6) (22, 6). From (0, 0) to (14, -1), fourteen hexes
    apart, the line from (0, 0)'s corner (1, 1) to (14, -1)'s corner (43, 11) has slope 5/21: at x = 22 it is
    at y = 1 + 21 * 5/21 = 6, exactly W's corner (22, 6), and above W everywhere else (y 5.52 at x = 20). It
    touches the wall hex, so it is no sight line; the other lines cross W or meet the room's edge: unseen.
    Without W the two see each other."""
    room_hexes = [(q, r - q // 2) for q in range(16) for r in range(7)]
    walled = HexMap([hex for hex in room_hexes if hex != (7, 0)])
    assert (22, 6) in hexmap_corners((7, 0))
    assert (6 - 1) * 21 == 5 * (22 - 1) and (11 - 1) * 21 == 5 * (43 - 1)  # (22, 6) on the line (1, 1)-(43, 11)
    assert not walled.line_of_sight((0, 0), (14, -1)) and not walled.line_of_sight((14, -1), (0, 0))
    assert HexMap(room_hexes).line_of_sight((0, 0), (14, -1))


def test_gh_c7_a_ranged_monster_across_a_thin_wall_is_not_adjacent_so_no_disadvantage():
    """GH-C7, GH-C1, GH-C8 (1): A (0, 1) is across a one-edge thin wall from M (0, 0). The wall's ends are
    free, so they see each other (a way round through (-1, 1) or (1, 0)); across a wall they are not adjacent
    (GH-C1), so a ranged attack on A has no disadvantage, and range counts round the wall: 2. An archer
    (range 2) stays and shoots; with range 1 it cannot reach A from its hex and must step next to A (both
    one-move hexes, each attacking with disadvantage: (1) cannot be met, (5) ties them)."""
    game_map = room(thin_walls=[[[0, 0], [0, 1]]])
    stays = ask([monster((0, 0), move=2, range=2), hero("A", (0, 1), 20)], game_map)
    assert plays(stays) == {((0, 0), ("A",))} and not stays["options"][0]["disadvantage"]
    near = ask([monster((0, 0), move=2, range=1), hero("A", (0, 1), 20)], game_map)
    assert plays(near) == {((-1, 1), ("A",)), ((1, 0), ("A",))}
    assert all(option["disadvantage"] for option in near["options"])


def test_gh_c7_a_melee_monster_in_a_corridor_cannot_see_past_its_neighbour():
    """GH-C7: in a corridor one hex wide every corner lies on the map's edge, so only neighbours see each
    other. An archer (range 4, two targets) at (0, 0) with A at (2, 0) and B at (4, 0): from (1, 0), next to
    A, it sees A only (B is two hexes on): one target, with disadvantage. It cannot pass A (an enemy), so that
    is its only attack hex: it moves one hex and shoots A alone."""
    result = ask([monster((0, 0), move=3, range=4, targets=2), hero("A", (2, 0), 20), hero("B", (4, 0), 30)],
                 corridor(0, 6))
    assert plays(result) == {((1, 0), ("A",))} and result["options"][0]["disadvantage"]


# --- GH-C4 focus --------------------------------------------------------------------------------------------


def test_gh_c4_a_trap_free_path_wins_even_through_difficult_terrain():
    """GH-C4: traps are obstacles unless no other path exists. Corridor -6..6: A (3, 0) is two moves away but
    only through the trap (1, 0); B (-4, 0) is reached trap-free through two difficult hexes (5 movement
    points). Fewest negative hexes first: the focus is B, though A is far cheaper in movement."""
    game_map = corridor(-6, 6, traps=[[1, 0]], difficult=[[-1, 0], [-2, 0]])
    result = ask([monster((0, 0), move=2), hero("A", (3, 0), 10), hero("B", (-4, 0), 90)], game_map)
    assert result["focus"] == ["B"] and "negative" in result["trace"]["decided_by"]


def test_gh_c4_with_negatives_everywhere_the_fewest_win_over_a_shorter_path():
    """GH-C4: no path is free of negative hexes. A (4, 0) behind two hazardous hexes (2 negatives, 3 moves); B
    (-7, 0) behind one trap (1 negative, 6 moves): the path entering the fewest is B's. With move 2 it cannot
    attack this turn (GH-C9): it walks two hexes toward (-6, 0), stopping at (-2, 0) before the trap (-3, 0)."""
    game_map = corridor(-8, 6, hazardous=[[1, 0], [2, 0]], traps=[[-3, 0]])
    result = ask([monster((0, 0), move=2), hero("A", (4, 0), 10), hero("B", (-7, 0), 90)], game_map)
    assert result["focus"] == ["B"]
    assert ends(result) == {(-2, 0)} and result["options"][0]["toward"] == [-6, 0]


def test_gh_c4_proximity_is_counted_round_a_thin_wall():
    """GH-C4, GH-6: melee M (0, 0); A (0, 1) just across a one-edge thin wall, B (2, -2) in the open. Each is one
    move from a hex next to it ((-1, 1) or (1, 0) for A, (1, -1) for B). Proximity round the wall is 2 for A
    (not 1 through it) and 2 for B: tied, so initiative decides: B (10) before A (20)."""
    game_map = room(thin_walls=[[[0, 0], [0, 1]]])
    result = ask([monster((0, 0), move=2), hero("A", (0, 1), 20), hero("B", (2, -2), 10)], game_map)
    a = next(c for c in result["trace"]["candidates"] if c["figure"] == "A")
    assert a["proximity"] == 2 and a["movement"] == 1
    assert result["focus"] == ["B"] and "initiative" in result["trace"]["decided_by"]


def test_gh_c4_a_long_rest_counts_99_behind_a_card_of_98():
    """GH-C4: A is on a long rest (its file says initiative 5, but a long rest counts 99); B played 98. Both are
    equally cheap and near (two hexes from an archer that does not move): B goes first, so B is the focus."""
    result = ask([monster((0, 0), range=3), hero("A", (2, 0), 5, long_rest=True), hero("B", (-2, 0), 98)])
    assert result["focus"] == ["B"]


def test_gh_c4_gh_c11_a_long_rest_ties_with_a_card_of_99():
    """GH-C4, GH-2, GH-C11: a long rest counts 99 and C's leading card is 99: tied on initiative. A long rest has
    no non-leading card to compare, so even though C names one (40) the players decide: both are foci."""
    result = ask([monster((0, 0), range=3), hero("A", (2, 0), 5, long_rest=True), hero("C", (-2, 0), 99)])
    assert result["focus"] == ["A", "C"]
    named = ask([monster((0, 0), range=3), hero("A", (2, 0), 5, long_rest=True),
                 hero("C", (-2, 0), 99, secondary=40)])
    assert sorted(named["focus"]) == ["A", "C"] and "GH-C11" in named["trace"]["decided_by"]


def test_gh_c11_a_missing_non_leading_card_leaves_the_tie_to_the_players():
    """GH-2, GH-C11: A and B lead with 30; only B's non-leading card is given (45). Nothing says A's is lower or
    higher, so the tie stays the players': both are foci (the file's 'secondary' missing is not a 0). With
    both given (A 60, B 45) B goes first."""
    result = ask([monster((0, 0), range=3), hero("A", (2, 0), 30), hero("B", (-2, 0), 30, secondary=45)])
    assert sorted(result["focus"]) == ["A", "B"]
    both = ask([monster((0, 0), range=3), hero("A", (2, 0), 30, secondary=60), hero("B", (-2, 0), 30, secondary=45)])
    assert both["focus"] == ["B"]


def test_gh_c4_gh_6_a_summon_before_its_summoner():
    """GH-6, GH-C4: A (20) and its summon As stand equally near an archer that does not move: the summon acts just
    before its summoner, so it is the focus. B (10), equally near, acts before both: B is the focus then."""
    pair = [monster((0, 0), range=3), hero("A", (2, 0), 20), summon("As", (0, 2), "A")]
    assert ask(pair)["focus"] == ["As"]
    assert ask(pair + [hero("B", (-2, 0), 10)])["focus"] == ["B"]


def test_gh_c11_a_summon_of_a_tied_character_ties_with_the_other():
    """GH-C11, GH-6, GH-8: A and B tie on initiative (20) and the players choose who acts first; As, A's summon,
    acts just before A. If A goes first the order is As, A, B: the focus is As. If B goes first it is B, As, A:
    the focus is B. Never A (As always acts before A). All three are two hexes from an archer that does not
    move. Found wrong: gloomhaven-4 ranked As before both characters and answered As alone."""
    result = ask([monster((0, 0), range=3), hero("A", (2, 0), 20), hero("B", (-2, 0), 20), summon("As", (0, 2), "A")])
    assert sorted(result["focus"]) == ["As", "B"] and "GH-C11" in result["trace"]["decided_by"]
    assert {option["focus"] for option in result["options"]} == {"As", "B"}


def test_gh_c11_two_summons_of_a_tied_character():
    """GH-C11, GH-8: A's two summons (numbers 1 and 2) and B, tied with A, are equally near. With A first, As1
    acts first of all; with B first, B does. So As1 or B, never As2 (it follows As1) or A."""
    result = ask([monster((0, 0), range=3), hero("A", (2, 0), 20), hero("B", (-2, 0), 20),
                  summon("As1", (0, 2), "A", number=1), summon("As2", (0, -2), "A", number=2)])
    assert sorted(result["focus"]) == ["As1", "B"]


def test_gh_c4_without_an_attack_it_focuses_as_melee_round_the_wall():
    """GH-C4: a monster with no attack focuses as if it had a melee attack. A (0, 1) is across a thin wall, so
    not adjacent: the hexes next to A it can reach are (-1, 1) and (1, 0), one move each; B (2, -2) needs one
    move to (1, -1). Proximity 2 each (round the wall), A's initiative 10 first: focus A. It moves next to A
    (both hexes one move: the players choose) and attacks nobody."""
    game_map = room(thin_walls=[[[0, 0], [0, 1]]])
    result = ask([idle((0, 0), move=3), hero("A", (0, 1), 10), hero("B", (2, -2), 20)], game_map)
    assert result["focus"] == ["A"]
    assert plays(result) == {((-1, 1), ()), ((1, 0), ())}


def test_gh_c4_no_valid_hex_behind_a_closed_door_no_focus_no_move():
    """GH-C4, GH-C1: M is in a pocket (0..2, 0) of a corridor shut by a closed door at (3, 0); A is beyond it. A
    closed door is a wall for monsters: no hex M can reach sees A or is next to it. No focus: it neither moves
    nor attacks, even with range 6 and move 4."""
    result = ask([monster((0, 0), move=4, range=6), hero("A", (5, 0), 20)], corridor(0, 6, doors=[[3, 0]]))
    assert result["focus"] == [] and result["options"] == []


def test_gh_c4_no_valid_hex_when_allies_hold_every_attack_hex():
    """GH-C4, GH-4: corridor 0..6, A at the east end (6, 0): its one neighbour (5, 0) holds an allied monster, and
    a figure may not end in an occupied hex. M could walk through its ally but never end next to A: no focus."""
    result = ask([monster((0, 0), move=6), ally("m1", (5, 0)), hero("A", (6, 0), 20)], corridor(0, 6))
    assert result["focus"] == [] and result["options"] == []


def test_gh_c4_a_flying_monster_lands_on_a_trap_a_walker_avoids():
    """GH-C4, GH-5: A (2, 0) is two hexes from M; the one hex next to A within one move, (1, 0), is a trap.
    Flying ignores terrain for the whole move, the final hex included: it flies there (one move) and
    attacks. Walking, the trap is an obstacle while another way exists: it walks two moves to (1, 1) or
    (2, -1) (the players choose)."""
    game_map = room(traps=[[1, 0]])
    flying = ask([monster((0, 0), move=2, how={"flying": True}), hero("A", (2, 0), 20)], game_map)
    assert plays(flying) == {((1, 0), ("A",))} and flying["options"][0]["negative"] == 0
    walking = ask([monster((0, 0), move=2), hero("A", (2, 0), 20)], game_map)
    assert ends(walking) == {(1, 1), (2, -1)} and {o["negative"] for o in walking["options"]} == {0}


def test_gh_c4_flying_pays_one_for_difficult_terrain_a_walker_cannot_afford():
    """GH-C4, GH-5, GH-C1: A (3, 0); its only neighbour two hexes from M is (2, 0), reached only through the
    difficult (1, 0) (2 + 1 = 3 movement points walking). A flier (move 2) pays 1 a hex: it reaches (2, 0) and
    attacks; a walker with move 2 cannot attack this turn."""
    game_map = room(difficult=[[1, 0]])
    flying = ask([monster((0, 0), move=2, how={"flying": True}), hero("A", (3, 0), 20)], game_map)
    assert plays(flying) == {((2, 0), ("A",))}
    walking = ask([monster((0, 0), move=2), hero("A", (3, 0), 20)], game_map)
    assert all(option["attacks"] == [] for option in walking["options"])


def test_gh_5_a_jump_does_not_pass_a_thin_wall():
    """GH-5, GH-C1: a jump ignores figures and terrain, not walls. M (0, 0) jumps (move 2) at A (0, 2); (0, 1), next
    to A, lies across a one-edge thin wall from M, so reaching it takes two steps round the wall, the same as
    (-1, 2) and (1, 1): three tied hexes, not (0, 1) alone."""
    game_map = room(thin_walls=[[[0, 0], [0, 1]]])
    result = ask([monster((0, 0), move=2, how={"jump": True}), hero("A", (0, 2), 20)], game_map)
    assert ends(result) == {(0, 1), (-1, 2), (1, 1)}
    assert all(option["movement"] == 2 for option in result["options"])


def test_gh_c4_a_jump_passes_over_a_trap_and_an_enemy_to_the_far_side():
    """GH-5, GH-C4: corridor -1..6, M (0, 0) jumping (move 4); B, an enemy, at (1, 0), a trap at (2, 0), A at (4, 0).
    B is adjacent: focus B, attack at once, no move. Its jump passes figures and traps only while it moves."""
    result = ask([monster((0, 0), move=4, how={"jump": True}), hero("B", (1, 0), 90), hero("A", (4, 0), 10)],
                 corridor(-1, 6, traps=[[2, 0]]))
    assert result["focus"] == ["B"] and plays(result) == {((0, 0), ("B",))}


def test_gh_5_a_jumper_out_of_reach_lands_short_of_a_trap():
    """GH-5, GH-C9: corridor 0..8, jumping M (0, 0) with move 2, A at (7, 0), a trap at (2, 0). The jump's path
    passes traps freely; only its landing hex counts. Out of reach (A's neighbour (6, 0) is six away), it
    moves as far as it can along the trap-free route: landing on the trap (2, 0) would enter a negative hex,
    so it stops at (1, 0)."""
    result = ask([monster((0, 0), move=2, how={"jump": True}), hero("A", (7, 0), 20)],
                 corridor(0, 8, traps=[[2, 0]]))
    assert ends(result) == {(1, 0)}


# --- GH-C8 choosing the destination ----------------------------------------------------------------------------


def test_gh_c8_4_after_2_the_second_target_without_disadvantage():
    """GH-C8 (1), (2), (4): archer (range 2, two targets, move 1) at (0, 0); A (1, 0) adjacent, the focus
    (initiative 10); B (-2, 1), two away. Staying hits both but A with disadvantage: dropped at (1). One move
    away and not next to A: (0, -1), (-1, 0), (-1, 1), each two from A. B is two from (0, -1) and one from
    (-1, 0) and (-1, 1): all three hit both (2), but only (0, -1) hits B without disadvantage: the others are
    dropped at (4)."""
    result = ask([monster((0, 0), move=1, range=2, targets=2), hero("A", (1, 0), 10), hero("B", (-2, 1), 20)])
    assert plays(result) == {((0, -1), ("A", "B"))}
    assert weighed(result, (0, 0))["step"].startswith("GH-C8 (1)")
    assert weighed(result, (-1, 0))["step"].startswith("GH-C8 (4)")
    assert weighed(result, (-1, 1))["step"].startswith("GH-C8 (4)")


def test_gh_c8_1_cannot_be_met_the_rest_decides():
    """GH-C8 (1): corridor 0..6, archer (range 3) at (0, 0), A at (2, 0). In a corridor only neighbours see each
    other, so every hex it can attack A from is next to A: (1, 0) only (A blocks the far side). It attacks
    with disadvantage from there rather than not at all."""
    result = ask([monster((0, 0), move=2, range=3), hero("A", (2, 0), 20)], corridor(0, 6))
    assert plays(result) == {((1, 0), ("A",))} and result["options"][0]["disadvantage"]


def test_gh_c8_1_before_2_two_targets_without_disadvantage_beat_three_with_it():
    """GH-C8 (1) before (2): archer (range 2, three targets, move 3) at (0, 0); A (2, 0) the focus (nearest), B
    (4, -1), C (4, 1). The hexes within 2 of all three are (3, 0), (2, 1), (3, 1) and (4, 0); it reaches only
    (2, 1) in three moves ((3, 0) is four, round A), and (2, 1) is next to A: disadvantage, dropped at (1). Without disadvantage on A, two targets at most: A and B
    (B ranks before C: four hexes away, C five) from (3, -2), three moves: the only hex within 2 of A and B, not
    next to A, that it reaches."""
    result = ask([monster((0, 0), move=3, range=2, targets=3), hero("A", (2, 0), 10), hero("B", (4, -1), 20),
                  hero("C", (4, 1), 30)])
    assert plays(result) == {((3, -2), ("A", "B"))}
    assert not result["options"][0]["disadvantage"] and result["options"][0]["movement"] == 3
    assert weighed(result, (2, 1))["step"].startswith("GH-C8 (1)")


def test_gh_c8_3_the_extra_target_ranked_by_proximity_from_the_start():
    """GH-C8 (3): archer (range 3, two targets) at (0, 0), not moving. A (2, 0), initiative 10, the focus. B (0, 2)
    (initiative 50) and C (-3, 0) (initiative 30) are both in range and sight, no movement needed for either:
    ranked as a focus is, proximity comes before initiative: B (2) before C (3). It shoots A and B. Under
    Jaws of the Lion's rules (GH-V1) proximity is skipped: C, with the better initiative."""
    figures = [monster((0, 0), range=3, targets=2), hero("A", (2, 0), 10), hero("B", (0, 2), 50),
               hero("C", (-3, 0), 30)]
    assert plays(ask(figures)) == {((0, 0), ("A", "B"))}
    assert plays(ask(figures, rules="jotl")) == {((0, 0), ("A", "C"))}


def test_gh_c8_1_the_nearest_enemy_is_the_focus_though_adjacent_and_it_steps_away():
    """GH-6, GH-C8 (1), (2): archer (range 3, two targets, move 2) at (0, 0); B (0, 1) adjacent, A (3, 0) three away,
    both in range with no move: proximity makes B the focus (1 before 3), though A has the better initiative.
    (1) moves it off B; of the one-move hexes not next to B, (0, -1) and (-1, 0) have A four away, (1, -1) has A
    three away and B two: it steps to (1, -1) and shoots B and A."""
    result = ask([monster((0, 0), move=2, range=3, targets=2), hero("A", (3, 0), 10), hero("B", (0, 1), 90)])
    assert result["focus"] == ["B"] and "proximity" in result["trace"]["decided_by"]
    assert plays(result) == {((1, -1), ("B", "A"))} and not result["options"][0]["disadvantage"]


def test_gh_c8_5_difficult_terrain_makes_three_hexes_tie():
    """GH-C8 (5), GH-C1: melee M (0, 0), move 3; A (3, 0). In the open (2, 0) is the one hex next to A two moves
    away. Make (1, 0) difficult: (2, 0) costs 3 either way (through it 2 + 1, or round by (1, -1), (2, -1)),
    the same as (2, 1) (by (0, 1), (1, 1)) and (3, -1) (by (1, -1), (2, -1)); (3, 1) and (4, -1) are four away.
    Three hexes tie at three movement points: the players choose."""
    assert ends(ask([monster((0, 0), move=3), hero("A", (3, 0), 20)])) == {(2, 0)}
    result = ask([monster((0, 0), move=3), hero("A", (3, 0), 20)], room(difficult=[[1, 0]]))
    assert ends(result) == {(2, 0), (2, 1), (3, -1)}
    assert all(option["movement"] == 3 for option in result["options"])


# --- GH-C9 out of reach this turn -----------------------------------------------------------------------------


def test_gh_c9_cannot_get_closer_it_stays():
    """GH-C9: corridor 0..8, melee M (0, 0) with move 1; an ally at (1, 0); A at (6, 0). Its one step forward is the
    ally's hex, where it may not end, and a step back is farther: it cannot get closer, so it stays."""
    result = ask([monster((0, 0), move=1), ally("m1", (1, 0)), hero("A", (6, 0), 20)], corridor(-1, 8))
    assert ends(result) == {(0, 0)} and all(option["path"] == [] for option in result["options"])


def test_gh_c9_through_an_ally_to_the_hex_beyond():
    """GH-C9, GH-4: the same corridor with move 2: it walks through its ally to (2, 0), two hexes nearer."""
    result = ask([monster((0, 0), move=2), ally("m1", (1, 0)), hero("A", (6, 0), 20)], corridor(-1, 8))
    assert ends(result) == {(2, 0)}


def test_gh_c9_disadvantage_is_not_avoided_out_of_reach():
    """GH-C9: '(1) left out'. Corridor 0..9, archer (range 3, move 2) at (0, 0), A (8, 0). In a corridor the only
    hex it could ever attack A from is (7, 0), next to A (disadvantage). Out of reach it heads for it anyway,
    walking two hexes to (2, 0)."""
    result = ask([monster((0, 0), move=2, range=3), hero("A", (8, 0), 20)], corridor(0, 9))
    assert ends(result) == {(2, 0)} and result["options"][0]["toward"] == [7, 0]


def test_gh_c9_an_unaffordable_difficult_hex_on_one_tied_route_only():
    """GH-C9: M (0, 0) move 2, A (4, -2) out of reach; its nearest neighbours (3, -2) and (3, -1) tie (three moves).
    Difficult (2, -1): toward (3, -1) the stops two moves on are (2, -1) (difficult: 1 + 2 = 3, too dear)
    and (2, 0) ((1, 0) -> (2, 0), then one left to (3, -1)); toward (3, -2): (2, -2) via (1, -1) (one left).
    Each tied hex has its own stop: (2, -2) toward (3, -2), (2, 0) toward (3, -1)."""
    result = ask([monster((0, 0), move=2), hero("A", (4, -2), 20)], room(difficult=[[2, -1]]))
    by_goal = {(tuple(o["destination"]), tuple(o["toward"])) for o in result["options"]}
    assert ((2, -2), (3, -2)) in by_goal and ((2, 0), (3, -1)) in by_goal
    assert all(dest != (2, -1) for dest, _goal in by_goal)


# --- GH-C10 area attacks ------------------------------------------------------------------------------------------


def test_gh_c10_a_line_pattern_in_any_of_six_rotations():
    """GH-C10: a melee line (1, 0), (2, 0) (SE, two deep) placed in each of the six directions. A (0, -1) and B
    (0, -2) lie due N of M: the line turned to N covers both, no move."""
    result = ask([monster((0, 0), move=2, pattern=[[1, 0], [2, 0]]), hero("A", (0, -1), 20), hero("B", (0, -2), 30)])
    assert plays(result) == {((0, 0), ("A", "B"))}


def test_gh_6_gh_c10_focus_counts_the_reach_of_the_area_pattern_it_will_attack_with():
    """GH-6 ("the enemy against which it can perform its current attack with the least movement"), GH-C10: M (0, 0),
    move 2; A (1, 1) (initiative 10) and B (0, -2) (initiative 90), both two hexes off. With a single melee attack
    each needs one move to an adjacent hex and A's initiative makes it the focus (from (0, 1) or (1, 0)). With a
    melee line two deep (1, 0), (2, 0), turned to N it covers (0, -1) and (0, -2): B is attacked from where M
    stands (0 moves), while (1, 1) lies on no straight line from (0, 0), so A still needs a move: B, by path."""
    figures = [hero("A", (1, 1), 10), hero("B", (0, -2), 90)]
    single = ask([monster((0, 0), move=2)] + figures)
    assert single["focus"] == ["A"] and "initiative" in single["trace"]["decided_by"]
    assert plays(single) == {((0, 1), ("A",)), ((1, 0), ("A",))}
    line = ask([monster((0, 0), move=2, pattern=[[1, 0], [2, 0]])] + figures)
    assert line["focus"] == ["B"] and "path length" in line["trace"]["decided_by"]
    assert plays(line) == {((0, 0), ("B",))}
    assert {c["figure"]: c["movement"] for c in line["trace"]["candidates"]} == {"A": 1, "B": 0}


def test_gh_c10_a_melee_pattern_is_placed_next_to_the_monster_never_on_it():
    """GH-C10: a melee pattern is placed relative to the monster's hex, never including it: one hex, (1, 0), next to
    M in any rotation. A two hexes away (2, 0) is out of its reach from (0, 0); of the hexes one move away only
    (1, 0) is next to A. A pattern naming the monster's own hex [0, 0] without a range is refused."""
    assert plays(ask([monster((0, 0), move=2, pattern=[[1, 0]]), hero("A", (2, 0), 20)])) == {((1, 0), ("A",))}
    with pytest.raises(ScenarioError, match=r"\$\.figures\[0\]\.attack\.pattern"):
        ask([monster((0, 0), move=2, pattern=[[0, 0], [1, 0]]), hero("A", (2, 0), 20)])


def test_gh_c10_a_ranged_pattern_in_range_counted_round_walls():
    """GH-C10: a ranged pattern reaches if one of its hexes is within range, counted round walls. Archer (range 1)
    at (0, 0) with a two-hex pattern (0, 0), (0, 1) (a hex and the one S of it). A (0, 2). Without walls the
    pattern (0, 1), (0, 2) has (0, 1) within 1: it hits A unmoved. With a thin wall (0, 0)|(0, 1), (0, 1) is 2
    away round the wall, and no other neighbour of A is within 1 of (0, 0): out of range, so it must move. One
    step is enough: from (1, 0) the placement (1, 1), (0, 2) has (1, 1) within 1, from (-1, 1) the placement
    (-1, 2), (0, 2) has (-1, 2); neither hex is next to A (no disadvantage)."""
    figures = [monster((0, 0), move=2, range=1, pattern=[[0, 0], [0, 1]]), hero("A", (0, 2), 20)]
    assert plays(ask(figures)) == {((0, 0), ("A",))}
    walled = ask(figures, room(thin_walls=[[[0, 0], [0, 1]]]))
    assert (0, 0) not in ends(walled) and all(option["attacks"] == ["A"] for option in walled["options"])
    assert all(option["movement"] == 1 for option in walled["options"])


def test_gh_c10_plus_targets_ranked_as_gh_c8_3():
    """GH-C10, GH-C8 (3): a one-hex melee pattern with '+1 target'. A (1, 0) in the pattern; B (0, 1) and C (1, -1),
    both adjacent, are the candidates for the single extra target: B initiative 30, C 40, equal in all else:
    B is taken."""
    result = ask([monster((0, 0), pattern=[[1, 0]], plus_targets=1), hero("A", (1, 0), 10), hero("B", (0, 1), 30),
                  hero("C", (1, -1), 40)])
    assert plays(result) == {((0, 0), ("A", "B"))}


def test_gh_c10_every_target_of_a_ranged_area_needs_sight():
    """GH-C10, GH-C7: a ranged two-hex pattern (range 3) over A (3, 0) and B (3, 1) from M (0, 0) in the open hits
    both; with a wall hex at (2, 1) and thin walls closing B's hex from M's side, B is out of sight and is never
    among the targets."""
    figures = [monster((0, 0), range=3, pattern=[[0, 0], [0, 1]]), hero("A", (3, 0), 10), hero("B", (3, 1), 20)]
    assert plays(ask(figures)) == {((0, 0), ("A", "B"))}
    boxed = room(walls=[[2, 1], [2, 2], [3, 2], [4, 1], [4, 0]], thin_walls=[[[3, 0], [3, 1]]])
    hidden = ask(figures, boxed)
    assert hidden["options"] and all("B" not in option["attacks"] for option in hidden["options"])


# --- GH-C11 and summons' own turns ---------------------------------------------------------------------------




def test_gh_8_a_summons_turn_focuses_on_monsters_elite_first():
    """GH-8, GH-C3: a summon acts as a monster whose enemies are the monsters. Two monsters equally near: an elite
    (number 2) and a normal (number 1); within a type elites act first: the elite is the focus."""
    figures = [summon("S", (0, 0), "A", move=0, attack={"range": 3}), hero("A", (-3, 0), 20),
               ally("n1", (2, 0), rank="normal", number=1), ally("e2", (-2, 2), rank="elite", number=2)]
    result = ask(figures, acting="S")
    assert result["focus"] == ["e2"]


def test_gh_c11_in_a_game_a_summon_of_a_tied_character_ties_with_the_other(tmp_path, capsys):
    """GH-C11, GH-8 (gloomhaven-5): red and blue tie on both cards (10, 20) in round 2; red's Bot (summoned in round
    1) acts just before red. An archer (initiative 5, range 3, no move) has the Bot, red and blue three hexes away:
    as cheap and as near. Had blue been put first blue would act before the Bot, so the focus is the players'
    choice of the Bot or blue (never red): the plan cites GH-C11 and waits for red or blue. gloomhaven-4, as
    released, focuses the Bot; ``chronicle ask --log`` answers each log under its own version."""
    shooter = monster_type("Shooter", [mcard("s-5", 5, {"move": 0}, {"attack": 0})], hp=30, attack=1, range=3,
                           elite_hp=30)

    def play(version: str):
        game = events.games.load("gloomhaven", version)
        tab = Table.create(game, "g-test", scenario(open_map(), [("red", "Tester", (0, 2)), ("blue", "Other", (6, -1))],
                                                    [("Shooter", "normal", 1, (3, 1))], classes=[TESTER, OTHER],
                                                    types=[shooter]), 1)
        act(tab, "red", SelectCards(("t-50", "t-40"), "t-40"))
        act(tab, "blue", SelectCards(("o-30", "o-35"), "o-30"), (5, 0))
        act(tab, "blue", PlayCard("o-30", "top", skip=True))
        act(tab, "blue", PlayCard("o-35", "bottom", skip=True))
        act(tab, "red", PlayCard("t-50", "top", path=((0, 1),)))
        act(tab, "red", PlayCard("t-40", "bottom", skip=True))
        act(tab, "blue", ShortRest(False))
        act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
        act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"), (5,))
        return tab, first(act(tab, "blue", ChooseOrder(("blue", "red"))), "MonsterTurnPlanned")

    tab, planned = play("gloomhaven-5")
    assert sorted(planned.focus) == ["blue", "red-s1"] and planned.rule == "GH-C11"
    assert {option.focus for option in planned.options} == {"blue", "red-s1"}
    assert tab.state.pending.kind == "monster" and sorted(tab.state.pending.seats) == ["blue", "red"]
    _old, released = play("gloomhaven-4")
    assert released.focus == ("red-s1",) and released.rule == "GH-6"
    # ``chronicle ask ... --log`` answers each game's position under the rules its log names.
    for table, want in ((tab, ["blue", "red-s1"]), (_old, ["red-s1"])):
        path = tmp_path / f"{table.game.rules_version}.jsonl"
        logfile.write(path, table.envelopes)
        turn = [e.seq for e in table.envelopes if e.type == "MonsterTurnPlanned"][-1] - 1  # round 2's turn
        assert main(["ask", "gloomhaven", "monster-turn", "--log", str(path), "--seq", str(turn)]) == 0
        assert sorted(json.loads(capsys.readouterr().out)["focus"]) == want


# --- more of the same clauses ---------------------------------------------------------------------------------


def test_gh_c10_an_area_must_cover_the_focus_not_just_the_most_targets():
    """GH-C10, GH-C8 (2): a melee line (1, 0), (2, 0) in any direction. A (0, -1) and B (0, -2) lie due N; C (1, 0)
    and D (2, 0) due SE. A and C are both adjacent (proximity 1, no move): A's initiative 10 makes it the
    focus. Only the N line covers A (a straight line mirrors onto itself): it hits A and B; the SE line hits
    two as well but not the focus, so it is no option."""
    result = ask([monster((0, 0), pattern=[[1, 0], [2, 0]]), hero("A", (0, -1), 10), hero("B", (0, -2), 20),
                  hero("C", (1, 0), 30), hero("D", (2, 0), 40)])
    assert result["focus"] == ["A"] and plays(result) == {((0, 0), ("A", "B"))}


def test_gh_c10_plus_targets_on_a_ranged_area():
    """GH-C10: a ranged one-hex pattern (range 3) with '+1 target': A (2, 0) under the pattern and one more single
    target in range and sight: B (0, 2) (initiative 20) before C (-2, 0) (initiative 30), both two away: it
    shoots A and B without moving."""
    result = ask([monster((0, 0), range=3, pattern=[[0, 0]], plus_targets=1), hero("A", (2, 0), 10),
                  hero("B", (0, 2), 20), hero("C", (-2, 0), 30)])
    assert plays(result) == {((0, 0), ("A", "B"))}


def test_gh_c4_a_closed_door_is_a_wall_for_the_monsters_focus():
    """GH-C1, GH-C4: a wall column at q = 2 (every hex of it a wall) but a closed door at (2, 0). A (3, 0) is three
    hexes from M (0, 0) through the door; B (-3, 0) is three the other way. For a monster the door is a wall:
    no hex next to A can be reached, so B is the focus whatever the initiatives."""
    walls = [[2, r] for r in range(-6, 5) if r != 0]
    result = ask([monster((0, 0), move=2), hero("A", (3, 0), 10), hero("B", (-3, 0), 90)],
                 room(walls=walls, doors=[[2, 0]]))
    assert result["focus"] == ["B"]
    a = next(c for c in result["trace"]["candidates"] if c["figure"] == "A")
    assert not a["reachable"] and a["proximity"] is None


def test_gh_8_a_summon_treats_a_closed_door_as_a_wall_too():
    """GH-8, GH-C1: a summon follows the monster rules, and a closed door is a wall for monsters and summons. In the
    corridor 0..6 with a closed door at (3, 0), the summon at (1, 0) has the only monster beyond it at (5, 0):
    no focus, no move."""
    figures = [summon("S", (1, 0), "A", move=3, attack={}), hero("A", (0, 0), 20), ally("m1", (5, 0))]
    result = ask(figures, corridor(0, 6, doors=[[3, 0]]), acting="S")
    assert result["focus"] == [] and result["options"] == []


def test_gh_c4_a_walker_will_not_end_on_hazardous_terrain_while_a_dry_hex_is_in_reach():
    """GH-C4: hazardous terrain counts as negative like a trap (on each entry). A (2, 0); (1, 0), next to A one move
    away, is hazardous; (1, 1) and (2, -1) are two moves and dry. With move 2 it takes a dry hex: both are
    offered. With move 1 it cannot reach a dry one this turn, so it does not attack: it moves toward them."""
    game_map = room(hazardous=[[1, 0]])
    two = ask([monster((0, 0), move=2), hero("A", (2, 0), 20)], game_map)
    assert ends(two) == {(1, 1), (2, -1)} and all(option["attacks"] == ["A"] for option in two["options"])
    one = ask([monster((0, 0), move=1), hero("A", (2, 0), 20)], game_map)
    assert all(option["attacks"] == [] and option["negative"] == 0 for option in one["options"])


def test_gh_v2_a_jump_lands_on_difficult_for_one_under_jaws_of_the_lion():
    """GH-5, GH-V2: A (3, 0); the one hex next to A two hexes from M, (2, 0), is difficult. A jump (move 2) pays its
    landing hex's terrain: 2 + 1 = 3, too dear; other hexes next to A are three away. So it cannot attack under the
    original rules; under Jaws of the Lion's the landing costs 1 (GH-V2): it lands on (2, 0) and attacks."""
    figures = [monster((0, 0), move=2, how={"jump": True}), hero("A", (3, 0), 20)]
    game_map = room(difficult=[[2, 0]])
    assert all(option["attacks"] == [] for option in ask(figures, game_map)["options"])
    assert plays(ask(figures, game_map, rules="jotl")) == {((2, 0), ("A",))}


def test_gh_c4_proximity_is_counted_through_obstacles_not_round_them():
    """GH-C4, GH-C1: proximity is counted in hexes around walls only; an obstacle is no wall (it blocks movement,
    not sight or counting). Archer (range 4, no move) at (0, 0); an obstacle at (1, 0); A (2, 0) beyond it (two
    hexes through it, three walking round), B (-3, 0) three away. Both are shot from where it stands (path 0),
    A is nearer (2 before 3): A is the focus, though B's initiative (10) is better than A's (90)."""
    result = ask([monster((0, 0), range=4), hero("A", (2, 0), 90), hero("B", (-3, 0), 10)], room(obstacles=[[1, 0]]))
    assert result["focus"] == ["A"] and "proximity" in result["trace"]["decided_by"]


def test_gh_6_the_same_map_gives_a_melee_and_a_ranged_monster_different_foci():
    """GH-6, GH-C4, GH-C7: focus is the enemy the monster can perform its *current* attack against with the least
    movement. M (0, 0), move 2, a wall hex at (-1, 0); B (-2, 0) just behind it (initiative 10), A (4, 0) four hexes
    down the open row (initiative 90). Melee: B is attacked from (-2, 1) or (-1, -1), two moves round the wall, A
    from (3, 0), three moves: B, by path length. Range 4: A is in range and in sight from where M stands (0 moves);
    B is hidden by the wall hex (no sight from (0, 0)) and needs a move to (-1, 1): A, by path length, though B is
    nearer (3 against 4) and acts first."""
    game_map = room(walls=[[-1, 0]])
    assert not HexMap([h for h in ROOM if h != (-1, 0)]).line_of_sight((0, 0), (-2, 0))
    figures = [hero("A", (4, 0), 90), hero("B", (-2, 0), 10)]
    melee = ask([monster((0, 0), move=2)] + figures, game_map)
    assert melee["focus"] == ["B"] and "path length" in melee["trace"]["decided_by"]
    assert plays(melee) == {((-2, 1), ("B",)), ((-1, -1), ("B",))}
    ranged = ask([monster((0, 0), move=2, range=4)] + figures, game_map)
    assert ranged["focus"] == ["A"] and "path length" in ranged["trace"]["decided_by"]
    assert plays(ranged) == {((0, 0), ("A",))}
    movement = {c["figure"]: c["movement"] for c in ranged["trace"]["candidates"]}
    assert movement == {"A": 0, "B": 1}


def test_gh_c1_gh_c7_a_closed_door_blocks_a_ranged_monsters_sight_not_only_its_way():
    """GH-C1, GH-C7, GH-C4: a wall column at q = 2 (wall hexes) with a door at (2, 0) and a gap at (2, -2). An archer
    (range 6) at (0, 0); A (4, 0) beyond the column, 4 hexes off through the door, 6 round through the gap
    (range counts round walls, and for a monster the closed door is one); B (-3, -3) on the archer's side, 6 off,
    A's initiative (10) better than B's (90). Closed, the door is a wall for sight too: A is within range 6 round
    the gap but no line from (0, 0) reaches it (the only way is through the door hex; the gap is far off the
    line), so the archer would have to move 2 to (2, -2) to shoot A, while B is shot from where it stands: B, by
    path length. Were the closed door no wall for sight, A (0 moves, 6 hexes) would tie B and win by
    initiative. Open (no door left: an open door has no effect): A is 4 hexes through it and seen: A, by
    proximity."""
    walls = [[2, r] for r in range(-6, 5) if r not in (0, -2)]
    figures = [monster((0, 0), range=6), hero("A", (4, 0), 10), hero("B", (-3, -3), 90)]
    closed = ask(figures, room(walls=walls, doors=[[2, 0]]))
    assert closed["focus"] == ["B"] and "path length" in closed["trace"]["decided_by"]
    assert plays(closed) == {((0, 0), ("B",))}
    a = next(c for c in closed["trace"]["candidates"] if c["figure"] == "A")
    assert (a["movement"], a["proximity"], tuple(a["attack_hex"])) == (2, 6, (2, -2))
    opened = ask(figures, room(walls=walls))
    assert opened["focus"] == ["A"] and "proximity" in opened["trace"]["decided_by"]
    assert plays(opened) == {((0, 0), ("A",))}


# --- GH-C8 (3) with characters tied on initiative (gloomhaven-6) ---------------------------------------------


def test_gh_c8_3_extra_targets_tied_on_initiative_are_the_tied_seats_choice():
    """GH-C8 (3), GH-C11, GH-2 (gloomhaven-6): red and blue tie on both cards (10, 20), green leads 30. A brute
    (initiative 5, melee, 2 targets, move 1) at (0, 0) has green adjacent at (1, 0): green costs no move, so it
    is the focus (red and blue cost 1). From (1, -1) it hits green and red (1, -2); from (0, 1) green and blue
    (-1, 2), its mirror image: red and blue rank alike but for their order, which their players choose (GH-2).
    So the two hexes are the choice of that order, and of red's and blue's seats alone: the plan cites GH-C11
    and waits for red or blue; green is refused under GH-C11. gloomhaven-5 gave red and blue one shared rank and
    so offered the same two hexes, but to every player, citing GH-6."""
    from events.games.gloomhaven.model import ChooseOption
    from tests.games.gloomhaven.helpers import card, hero_class
    from tests.games.tables import rejected

    third = hero_class("Third", 8, [card("h-30", 30, {"attack": 1}, {"move": 1}), card("h-40", 40, {"attack": 1}, {"move": 1}),
                                    card("h-50", 50, {"attack": 1}, {"move": 1})])
    brute = monster_type("Brute", [mcard("b-5", 5, {"move": 1}, {"attack": 0, "targets": 2})], hp=30, attack=1,
                         elite_hp=30)

    def play(version: str):
        game = events.games.load("gloomhaven", version)
        seats = [("red", "Tester", (1, -2)), ("blue", "Other", (-1, 2)), ("green", "Third", (1, 0))]
        tab = Table.create(game, "g-test", scenario(room(), seats, [("Brute", "normal", 1, (0, 0))],
                                                    classes=[TESTER, OTHER, third], types=[brute]), 1)
        act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
        act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
        act(tab, "green", SelectCards(("h-30", "h-40"), "h-30"), (5,))
        return tab, first(act(tab, "blue", ChooseOrder(("blue", "red"))), "MonsterTurnPlanned")

    tab, planned = play("gloomhaven-6")
    assert planned.focus == ("green",) and planned.rule == "GH-C11"
    assert sorted((option.destination, option.attacks) for option in planned.options) == [
        ((0, 1), ("green", "blue")), ((1, -1), ("green", "red"))]
    assert tab.state.pending.kind == "monster" and sorted(tab.state.pending.seats) == ["blue", "red"]
    rejected(act(tab, "green", ChooseOption(0)), "GH-C11", "choose: red, blue, not green")
    old, released = play("gloomhaven-5")
    assert released.rule == "GH-6" and released.options == planned.options
    assert sorted(old.state.pending.seats) == ["blue", "green", "red"]


def archer_table(version: str) -> Table:
    """The archer's game of the two tests below, its cards picked: red (-3, 1) and blue (1, 2) tie on both cards
    (10, 20), green (-1, 0) leads 30; an Archer (initiative 5, range 2, 2 targets, move 2) at (0, 0). What comes
    next (who chooses the tied seats' order) is each test's."""
    from tests.games.gloomhaven.helpers import card, hero_class

    third = hero_class("Third", 8, [card("h-30", 30, {"attack": 1}, {"move": 1}),
                                    card("h-40", 40, {"attack": 1}, {"move": 1})])
    archer = monster_type("Archer", [mcard("a-5", 5, {"move": 0}, {"attack": 0, "targets": 2})], hp=30, attack=1,
                          elite_hp=30, range=2, move=2)
    game = events.games.load("gloomhaven", version)
    seats = [("red", "Tester", (-3, 1)), ("blue", "Other", (1, 2)), ("green", "Third", (-1, 0))]
    tab = Table.create(game, "g-test", scenario(room(), seats, [("Archer", "normal", 1, (0, 0))],
                                                classes=[TESTER, OTHER, third], types=[archer]), 1)
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    act(tab, "blue", SelectCards(("o-10", "o-20"), "o-10"))
    act(tab, "green", SelectCards(("h-30", "h-40"), "h-30"), (5,))
    return tab


def test_gh_c8_3_gh_c11_when_only_one_acting_order_ties_the_hexes_every_player_chooses():
    """GH-C8 (3), GH-C11, GH-C4 (gloomhaven-6): red and blue tie on both cards (10, 20), green leads 30. An archer
    (initiative 5, range 2, 2 targets, move 2) at (0, 0) has green adjacent at (-1, 0): green is the focus, and the
    archer steps away so as not to shoot it with disadvantage (GH-C8 (1)). red (-3, 1) and blue (1, 2) rank alike as
    extra targets (both 3 hexes away, both in reach) but for their order, which their players choose (GH-2).
    Red first, the group holding red wins: one hex, (-2, 2), hits green and red. Blue first: (0, 1) and (1, 0) both hit
    green and blue for the same 1 move, a tie of hexes GH-C8 leaves to the players (GH-C4). So the answer is the
    options of each order (GH-C11), all three; they differ not only by the tied characters' order (two of them by
    nothing but the hex), so the choice is not the tied seats' alone: the plan cites GH-6 and every living seat,
    green too, may choose. gloomhaven-5 gave red and blue one shared rank and dropped red's hex."""
    from events.games.gloomhaven.model import ChooseOption

    figures = [monster((0, 0), move=2, range=2, targets=2), hero("green", (-1, 0), 30)]
    red_first = ask(figures + [hero("red", (-3, 1), 10), hero("blue", (1, 2), 11)])
    blue_first = ask(figures + [hero("red", (-3, 1), 11), hero("blue", (1, 2), 10)])
    assert plays(red_first) == {((-2, 2), ("green", "red"))}
    assert plays(blue_first) == {((0, 1), ("green", "blue")), ((1, 0), ("green", "blue"))}
    tied = ask(figures + [hero("red", (-3, 1), 10), hero("blue", (1, 2), 10)])
    assert tied["focus"] == ["green"] and plays(tied) == plays(red_first) | plays(blue_first)

    def play(version: str):
        tab = archer_table(version)
        return tab, first(act(tab, "blue", ChooseOrder(("blue", "red"))), "MonsterTurnPlanned")

    tab, planned = play("gloomhaven-6")
    assert planned.focus == ("green",) and planned.rule == "GH-6"
    assert {(option.destination, option.attacks) for option in planned.options} == plays(tied)
    assert tab.state.pending.kind == "monster" and sorted(tab.state.pending.seats) == ["blue", "green", "red"]
    index = next(i for i, o in enumerate(planned.options) if o.destination == (1, 0))
    chosen = first(act(tab, "green", ChooseOption(index), (0, 0)), "OptionChosen")
    assert chosen.seat == "green" and chosen.option.attacks == ("green", "blue")
    old, released = play("gloomhaven-5")
    assert {(option.destination, option.attacks) for option in released.options} == plays(blue_first)


@pytest.mark.parametrize("order", [("blue", "red"), ("red", "blue")])
def test_gh_2_gh_6_gh_c11_gloomhaven_7_the_order_the_tied_seats_chose_is_the_initiative_order(order):
    """GH-2, GH-6, GH-C8 (3), GH-C11 (gloomhaven-7): the archer's game above. red and blue tie on both cards and
    their seats choose the order (GH-2: "ce sont les joueurs qui décident"); OrderChosen logs it, and that order is
    the initiative order by which the monster breaks its ties (GH-6: "par l'ordre d'initiative"), for extra targets
    too (GH-C8 (3)). Blue first: the group holding blue wins, (0, 1) and (1, 0) both hit green and blue, a plain tie
    of hexes (GH-C4) every living seat chooses (GH-C11's "every other tie"); red's hex (-2, 2), which only red first
    would give, is not offered. Red first: the one hex (-2, 2) hitting green and red, no choice left. gloomhaven-6
    offered all three hexes whichever order was chosen (kept: a released version)."""

    def play(version: str):
        tab = archer_table(version)
        evs = act(tab, order[0], ChooseOrder(order))
        if version == "gloomhaven-7":  # GH-2: the other tied seat agrees
            assert first(evs, "OrderProposed").order == order
            evs = act(tab, order[1], ChooseOrder(order))
        assert first(evs, "OrderChosen").order == order
        return tab, evs, first(evs, "MonsterTurnPlanned")

    tab, evs, planned = play("gloomhaven-7")
    offered = {(option.destination, option.attacks) for option in planned.options}
    assert planned.focus == ("green",) and planned.rule == "GH-6"
    if order == ("blue", "red"):
        assert offered == {((0, 1), ("green", "blue")), ((1, 0), ("green", "blue"))}
        assert tab.state.pending.kind == "monster" and sorted(tab.state.pending.seats) == ["blue", "green", "red"]
    else:
        assert offered == {((-2, 2), ("green", "red"))}
        assert first(evs, "OptionChosen").option.attacks == ("green", "red") and tab.state.pending is None
    _old, _evs, released = play("gloomhaven-6")
    assert {(option.destination, option.attacks) for option in released.options} == {
        ((0, 1), ("green", "blue")), ((1, 0), ("green", "blue")), ((-2, 2), ("green", "red"))}


# --- GH-C3 with GH-6: a summon's focus between monster types tied on initiative ------------------------------


def _types_tie_game(order: tuple):
    """red's Bot (summoned at (0, 1) in round 1) and two monster types, Alpha at (0, -1) and Beta at (2, -1), both
    drawing a card of initiative 70 every round (GH-C3: the players decide which type acts first)."""
    alpha = monster_type("Alpha", [mcard("a-70", 70, {"move": 0})], hp=30, elite_hp=30)
    beta = monster_type("Beta", [mcard("b-70", 70, {"move": 0})], hp=30, elite_hp=30)
    game = events.games.load("gloomhaven")
    tab = Table.create(game, "g-test", scenario(room(), [("red", "Tester", (0, 2)), ("blue", "Other", (6, -1))],
                                                [("Alpha", "normal", 1, (0, -1)), ("Beta", "normal", 1, (2, -1))],
                                                classes=[TESTER, OTHER], types=[alpha, beta]), 1)
    act(tab, "red", SelectCards(("t-50", "t-40"), "t-40"))
    offered = first(act(tab, "blue", SelectCards(("o-30", "o-35"), "o-30"), (70, 70)), "TieOffered")
    act(tab, "red", ChooseOrder(order))
    act(tab, "blue", PlayCard("o-30", "top", skip=True))
    act(tab, "blue", PlayCard("o-35", "bottom", skip=True))
    act(tab, "red", PlayCard("t-50", "top", path=((0, 1),)))
    act(tab, "red", PlayCard("t-40", "bottom", skip=True))
    act(tab, "blue", ShortRest(False))
    act(tab, "red", SelectCards(("t-10", "t-20"), "t-10"))
    again = first(act(tab, "blue", SelectCards(("o-10", "o-20"), "o-20"), (70, 70)), "TieOffered")
    return tab, offered, again


def test_gh_c3_a_summons_focus_between_tied_monster_types_follows_the_players_order():
    """GH-C3, GH-6, GH-8: Alpha and Beta tie on initiative 70 each round, so the reveal asks the players (every living
    seat, GH-C3: "the players decide") which type acts first. In round 2 red's Bot (move 2, melee) has both
    monsters two hexes away, each attacked for 1 move from (0, 0) or (1, 0): path and proximity tie, so initiative
    order decides (GH-6: "puis par l'ordre d'initiative"), and the initiative order between the two types is the
    one the players chose for this round. Beta put first: the Bot focuses Beta; Alpha first: Alpha. The choice is
    the players' and was asked, of the right seats (both), where the text puts it; the focus then has no tie left."""
    for order, focus in ((("Beta", "Alpha"), "beta-1"), (("Alpha", "Beta"), "alpha-1")):
        tab, offered, again = _types_tie_game(order)
        for tie in (offered, again):
            assert tie.kind == "monster-order" and tie.rule == "GH-C3" and sorted(tie.seats) == ["blue", "red"]
        planned = first(act(tab, "blue", ChooseOrder(order)), "MonsterTurnPlanned")
        assert planned.figure == "red-s1" and planned.focus == (focus,)
        assert planned.decided_by == "initiative order (GH-6)" and len(planned.options) == 1


# --- GH-C7 at a thin wall's ends (the hard cases left open by the audit) ------------------------------------
# A = (0, 0) (centre (0, 0)) and B = (0, 1) (centre (0, 2)) share the edge (-1, 1)-(1, 1). At its east end (1, 1)
# the third hex is C = (1, 0) (corners (2, 0), (1, 1), (2, 2), ...); at its west end (-1, 1), D = (-1, 1)
# (corners (-2, 0), (-1, 1), (-2, 2), ...). A line round an end runs inside that third hex, from A's corner
# beside the end to B's: (2, 0)-(2, 2) through C, (-2, 0)-(-2, 2) through D; it touches neither end point.

A_HEX, B_HEX, C_HEX, D_HEX = (0, 0), (0, 1), (1, 0), (-1, 1)
AB, BC = ((0, 0), (0, 1)), ((0, 1), (1, 0))


def test_gh_c7_a_one_edge_wall_is_seen_round_either_end_and_round_one_when_the_other_is_a_wall_hex():
    """GH-C7: the wall A|B alone. "Adjacent hexes see each other unless the edge between them is a wall and
    neither neighbouring edge offers a way around": round the east end, the line (2, 0)-(2, 2) runs inside C
    and touches no wall: seen. With C a wall hex ("a wall hex blocks a line that crosses it or merely touches
    it, its corners included") that way is shut, (2, 0) and (2, 2) being C's corners, but the west end through D
    is open: still seen. With D a wall hex too, every line from A to B must cross the wall or touch C or D:
    unseen; and they are not adjacent (GH-C1: across a wall line)."""
    assert HexMap(DISC, thin_walls=[AB]).line_of_sight(A_HEX, B_HEX)
    no_c = [hex for hex in DISC if hex != C_HEX]
    assert HexMap(no_c, thin_walls=[AB]).line_of_sight(A_HEX, B_HEX)
    shut = HexMap([hex for hex in no_c if hex != D_HEX], thin_walls=[AB])
    assert not shut.line_of_sight(A_HEX, B_HEX) and not shut.line_of_sight(B_HEX, A_HEX)
    assert not shut.are_adjacent(A_HEX, B_HEX)


def test_gh_c7_two_wall_edges_meeting_at_a_corner_shut_that_end_only():
    """GH-C7: walls A|B and B|C meet at (1, 1), the corner A, B and C share. Round that end the line from A's
    (2, 0) ends on B's (2, 2), a point of the wall B|C ("a corner that lies on a wall is never the end of a sight
    line"), and every other line round it crosses B|C ((2, 0)-(1, 3) meets it at (1.5, 1.5)): shut. The west end,
    through D, is free: A and B see each other. With D a wall hex: unseen. B and C (walled too) see each other
    round the free end of B|C, (2, 2), through (1, 1) ((1, 3)-(4, 2) passes (2, 2) at height 2.67), never round
    (1, 1), where A|B blocks the way through A."""
    bent = HexMap(DISC, thin_walls=[AB, BC])
    assert bent.line_of_sight(A_HEX, B_HEX) and bent.line_of_sight(B_HEX, C_HEX)
    closed = HexMap([hex for hex in DISC if hex != D_HEX], thin_walls=[AB, BC])
    assert not closed.line_of_sight(A_HEX, B_HEX) and closed.line_of_sight(B_HEX, C_HEX)
    boxed = HexMap([hex for hex in DISC if hex not in (D_HEX, (1, 1))], thin_walls=[AB, BC])
    assert not boxed.line_of_sight(B_HEX, C_HEX)


def test_gh_c7_a_wall_touching_an_obstacle_is_seen_round_through_the_obstacle():
    """GH-C7, GH-C1: the wall A|B with D a wall hex, and an obstacle on C. "Figures, obstacles, traps and
    difficult terrain never block sight": the line (2, 0)-(2, 2) inside C still counts, so an archer (range 2,
    no move) on A shoots B on the other side of the wall: range counts round the wall through C (2; an
    obstacle blocks movement, not range), and across a wall line they are not adjacent, so no disadvantage.
    C a wall hex instead: no sight from A, so it cannot attack this turn; B is still its focus (found with
    unlimited movement, GH-C4), and it stays where it is (no move)."""
    walled = {"walls": [list(D_HEX)], "thin_walls": [[list(A_HEX), list(B_HEX)]]}
    shoots = ask([monster(A_HEX, range=2), hero("B", B_HEX, 20)], room(obstacles=[list(C_HEX)], **walled))
    assert plays(shoots) == {(A_HEX, ("B",))} and not shoots["options"][0]["disadvantage"]
    blind = ask([monster(A_HEX, range=2), hero("B", B_HEX, 20)],
                room(**dict(walled, walls=[list(D_HEX), list(C_HEX)])))
    assert blind["focus"] == ["B"] and plays(blind) == {(A_HEX, ())}


def test_gh_c7_figures_traps_difficult_terrain_and_obstacles_in_the_line_never_block_sight():
    """GH-C7 ("Figures, obstacles, traps and difficult terrain never block sight"), GH-6: an archer (range 3, no
    move) at (0, 0), A (2, 0) two hexes down the row behind (1, 0), B (-3, 1) three hexes off in the open, B's
    initiative (10) better than A's (90). With an allied monster, a trap, difficult terrain or an obstacle on
    (1, 0), A is still seen from where the archer stands: both cost 0 moves and A is nearer: A, by proximity. A
    wall hex on (1, 0) does hide A (the one thing in that list's place that blocks), and B is the focus."""
    figures = [monster((0, 0), range=3), hero("A", (2, 0), 90), hero("B", (-3, 1), 10)]
    for extra, game_map in (([ally("X", (1, 0))], room()), ([], room(traps=[[1, 0]])),
                            ([], room(difficult=[[1, 0]])), ([], room(obstacles=[[1, 0]]))):
        result = ask(figures + extra, game_map)
        assert result["focus"] == ["A"] and "proximity" in result["trace"]["decided_by"], game_map
        assert plays(result) == {((0, 0), ("A",))}
    walled = ask(figures, room(walls=[[1, 0]]))
    assert walled["focus"] == ["B"] and plays(walled) == {((0, 0), ("B",))}


# --- GH-4: a character's own route -------------------------------------------------------------------------


def test_gh_4_a_hex_reached_only_through_a_trap_within_the_move_is_offered_and_walked():
    """GH-4, GH-C1: figures may not move through enemies or obstacles; traps and terrain only take effect on entry.
    red at (0, 2), move 3, a trap at (1, 2) and an obstacle at (0, 3), the two hexes between it and (1, 3): the only
    walk of 2 points to (1, 3) enters the trap; the trap-free walks round cost 4 (via (1, 1), (2, 1), (2, 2), or
    via (-1, 3), (-1, 4), (0, 4)). The move reaches (1, 3), through the trap: legal offers it (one path per
    reachable hex), and a move naming the destination alone walks there and springs the trap (2 + level 1 = 3
    damage), where it was refused as "no legal path of at most 3 movement points", though the path through the
    trap is legal. Hexes that a trap-free walk reaches within the move keep that walk."""
    from events.games.gloomhaven import rules
    from tests.games.gloomhaven.test_rules import pick, solo

    tab = solo(game_map=open_map(traps=[[1, 2]], obstacles=[[0, 3]]))
    pick(tab)
    me = rules.figure_of(tab.state, "red")
    move = rules._card(tab.state, "t-10").bottom
    moves = rules.character_moves(tab.state, me, move)
    assert moves[(1, 3)] == ((1, 2), (1, 3))
    assert moves[(2, 2)] == ((1, 1), (2, 1), (2, 2))  # trap-free in 3: as before
    assert PlayCard("t-10", "bottom", path=((1, 2), (1, 3))) in tab.game.legal(tab.state, "red")
    events = act(tab, "red", PlayCard("t-10", "bottom", to=(1, 3)))
    assert first(events, "FigureMoved").path == ((1, 2), (1, 3))
    sprung = first(events, "TrapSprung")
    assert (sprung.hex, sprung.damage) == ((1, 2), 3)
    assert rules.figure_of(tab.state, "red").hex == (1, 3)


def test_gh_4_gloomhaven_7_leaves_the_choice_between_cheapest_walks_that_do_different_things_to_the_player():
    """GH-4 ("traps and terrain take effect when a figure enters their hex"), GH-C1 (a character entering a closed
    door hex opens it), gloomhaven-7: red at (0, 2), move 3, goes to (1, 3) by its destination alone. Both cheapest
    walks cost 2, one through (1, 2), one through (0, 3). With hazardous terrain on (1, 2) and a trap on (0, 3), one
    hurts 1 and the other 3 and removes the trap; with a closed door on (1, 2), one opens it; with traps on both,
    a different trap springs. Which is the player's to choose, so the move is refused (GH-4) naming what each walk
    enters, and a path through either is walked. Where the cheapest walks do the same (nothing on either; the one
    trap every cheapest walk enters, an obstacle on (0, 3); difficult terrain, which only costs) the move goes.
    gloomhaven-6, as released, walked the first walk in sorted order, through (0, 3)."""
    from events.games.gloomhaven import rules
    from tests.games.gloomhaven.test_rules import FAR, IDLE, OTHER, pick
    from tests.games.tables import rejected

    def game(version: str, **terrain: list) -> Table:
        tab = Table.create(events.games.load("gloomhaven", version), "g-test",
                           scenario(open_map(**terrain), [("red", "Tester", (0, 2))], [("Dummy", "normal", 1, FAR)],
                                    classes=[TESTER, OTHER], types=[IDLE]), 1)
        pick(tab)
        return tab

    to = PlayCard("t-10", "bottom", to=(1, 3))
    for terrain, ways in ((dict(hazardous=[[1, 2]], traps=[[0, 3]]), "one enters the trap at [0, 3], one enters the hazardous terrain at [1, 2]"),
                          (dict(doors=[[1, 2]]), "one enters no trap, hazardous terrain or closed door, one enters the "
                           "closed door at [1, 2]"),
                          (dict(traps=[[1, 2], [0, 3]]), "one enters the trap at [0, 3], one enters the trap at [1, 2]")):
        tab = game("gloomhaven-7", **terrain)
        rejected(act(tab, "red", to), "GH-4", f"several walks to [1, 3] fit in this move and do different things "
                 f"({ways}): the route is yours to choose. Press “Build a path”")
        assert first(act(tab, "red", PlayCard("t-10", "bottom", path=((1, 2), (1, 3)))), "FigureMoved").cost == 2
        old = game("gloomhaven-6", **terrain)
        assert first(act(old, "red", to), "FigureMoved").path == ((0, 3), (1, 3))
    for terrain in ({}, dict(traps=[[1, 2]], obstacles=[[0, 3]]), dict(difficult=[[1, 2]])):
        tab = game("gloomhaven-7", **terrain)
        moved = first(act(tab, "red", to), "FigureMoved")
        assert moved.path[-1] == (1, 3), terrain
        me, move = rules.figure_of(tab.state, "red"), rules._card(tab.state, "t-10").bottom
        assert rules.walks_apart(tab.state, me.but(hex=(0, 2)), move, (1, 3)) == ()
    # Check: a jump enters its landing hex alone (GH-5), and a hex out of the move has no walks to tell apart
    tab = game("gloomhaven-7", hazardous=[[1, 2]], traps=[[0, 3]])
    me = rules.figure_of(tab.state, "red")
    jump = rules._card(tab.state, "t-20").bottom
    assert jump.jump and rules.walks_apart(tab.state, me, jump, (1, 3)) == ()
    assert rules.walks_apart(tab.state, me, rules._card(tab.state, "t-10").bottom, (6, 2)) == ()


def test_gh_4_gh_c1_gloomhaven_7_compares_every_walk_in_the_move_with_the_fewest_negative_hexes_whatever_its_points():
    """GH-4, GH-C1 (gloomhaven-7): points left at the end of a move are worth nothing, so the walks the player may
    choose between are every walk within the move entering the fewest negative hexes, whatever its points. red at
    (0, 2) plays t-40's move 4 to (1, 3) by its destination alone. (1) A trap on (1, 2), an obstacle on (0, 3), (0, 1)
    and (1, 1) hazardous: the 2-point walk through the trap (3 damage, removed) and the 4-point walk through (1, 1),
    (2, 1), (2, 2) (1 damage) each enter one negative hex. (2) A closed door on (1, 2), an obstacle on (0, 3): the
    2-point walk opens the door, the 4-point walks round do not. Both are refused (GH-4) naming what each walk
    enters, and the path the player gives is walked; gloomhaven-6 (kept, released) walked the trap and opened the
    door. With move 3 (t-10) the hazard walk is out of reach and the move through the trap goes, as before."""
    from events.games.gloomhaven import rules
    from tests.games.gloomhaven.test_rules import FAR, IDLE, OTHER, pick
    from tests.games.tables import rejected

    def game(version: str, **terrain: list) -> Table:
        tab = Table.create(events.games.load("gloomhaven", version), "g-test",
                           scenario(open_map(**terrain), [("red", "Tester", (0, 2))], [("Dummy", "normal", 1, FAR)],
                                    classes=[TESTER, OTHER], types=[IDLE]), 1)
        pick(tab, cards=("t-40", "t-10"))
        return tab

    to = PlayCard("t-40", "bottom", to=(1, 3))
    trap = dict(traps=[[1, 2]], obstacles=[[0, 3]], hazardous=[[0, 1], [1, 1]])
    door = dict(doors=[[1, 2]], obstacles=[[0, 3]])
    for terrain, ways, path, effect in (
            (trap, "one enters the hazardous terrain at [1, 1], one enters the trap at [1, 2]",
             ((1, 1), (2, 1), (2, 2), (1, 3)), "TrapSprung"),
            (door, "one enters no trap, hazardous terrain or closed door, one enters the closed door at [1, 2]",
             ((1, 1), (2, 1), (2, 2), (1, 3)), "DoorOpened")):
        tab = game("gloomhaven-7", **terrain)
        rejected(act(tab, "red", to), "GH-4", f"several walks to [1, 3] fit in this move and do different things "
                 f"({ways}): the route is yours to choose")
        walked = act(tab, "red", PlayCard("t-40", "bottom", path=path))
        assert first(walked, "FigureMoved").path == path and effect not in [e.TYPE for e in walked]
        assert rules.figure_of(tab.state, "red").hex == (1, 3)
        old = game("gloomhaven-6", **terrain)
        moved = act(old, "red", to)
        assert first(moved, "FigureMoved").path == ((1, 2), (1, 3)) and effect in [e.TYPE for e in moved]
    tab = game("gloomhaven-7", **trap)
    sprung = first(act(tab, "red", PlayCard("t-10", "bottom", to=(1, 3))), "TrapSprung")
    assert sprung.hex == (1, 2)
    # A plain 2-point walk with a closed door only on a 4-point detour: the move by destination goes the plain
    # way, no door opened, nothing asked (the player who wants the door gives that path).
    tab = game("gloomhaven-7", doors=[[2, 2]], obstacles=[[0, 3]])
    moved = act(tab, "red", to)
    assert first(moved, "FigureMoved").path == ((1, 2), (1, 3)) and "DoorOpened" not in [e.TYPE for e in moved]


def _near_start() -> list:
    """The hexes of ``open_map`` within 3 of (0, 2), where ``test_rules.solo`` puts red."""
    from events.games.gloomhaven import rules
    from events.geometry.hexgrid import hex_distance
    from tests.games.gloomhaven.test_rules import solo

    hexes = rules.hexmap_of(solo().state).hexes
    return sorted(hex for hex in hexes if 0 < hex_distance(hex, (0, 2)) <= 3)


NEAR = _near_start()


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(NEAR), st.sampled_from(("traps", "hazardous", "difficult", "obstacles")),
                       max_size=9))
def test_gh_4_a_characters_move_reaches_every_hex_some_legal_walk_within_it_reaches(terrain):
    """GH-4, GH-C1 against a brute search of every walk: red at (0, 2), move 3, terrain scattered near it. A hex is
    offered (``character_moves``, what legal and the board show, and what a move naming it alone walks) exactly when
    some walk of at most 3 points ends there (never through an obstacle or an enemy, difficult terrain costing 2,
    never ending on a figure or an obstacle), and the walk offered enters as few traps and hazardous hexes as any
    such walk, then spends as few points."""
    from events.games.gloomhaven import rules
    from events.geometry.hexgrid import hex_neighbors
    from tests.games.gloomhaven.test_rules import pick, solo

    kinds: dict = {}
    for hex, kind in terrain.items():
        kinds.setdefault(kind, []).append(list(hex))
    tab = solo(game_map=open_map(**kinds))
    pick(tab)
    me = rules.figure_of(tab.state, "red")
    move = rules._card(tab.state, "t-10").bottom
    hexes = set(rules.hexmap_of(tab.state).hexes)
    taken = {f.hex for f in tab.state.figures if f.id != "red"}
    enemies = {f.hex for f in tab.state.figures if f.kind == "monster"}
    negative = set(tab.state.traps) | set(tab.state.map.hazardous)
    best: dict = {}

    def walk(here: tuple, spent: int, hurt: int) -> None:
        if here != me.hex and here not in taken and here not in tab.state.map.obstacles:
            best[here] = min(best.get(here, (hurt, spent)), (hurt, spent))
        for there in hex_neighbors(here):
            cost = 2 if there in tab.state.map.difficult else 1
            if there in hexes and there not in tab.state.map.obstacles and there not in enemies \
                    and spent + cost <= move.value:
                walk(there, spent + cost, hurt + (there in negative))

    walk(me.hex, 0, 0)
    offered = rules.character_moves(tab.state, me, move)
    assert set(offered) == set(best)
    for hex, path in offered.items():
        assert path[-1] == hex and hex_neighbors(me.hex).count(path[0]) == 1
        assert all(b in hex_neighbors(a) for a, b in zip(path, path[1:]))
        spent = sum(2 if step in tab.state.map.difficult else 1 for step in path)
        assert (sum(step in negative for step in path), spent) == best[hex], (hex, path)

"""The skirmish's hard cases (the rules audit): a wide door as one door, opposed rolls at their limits,
corners, cover, pits and the exact movement budget, each worked out from shared/rules/skirmish.md by
hand in its docstring before the engine ran.

Squares are named as on the map (column letter, row number from 1); commands take ``(x, y)`` from 0.
``WIDE_DOOR`` (helpers) is a 4 × 4 room cut at x = 2 by the wall B1|C1, door1 (the two edges B2|C2
and B3|C3, one door) and the wall B4|C4. A contest takes two d20s per throw: the contesting figure's,
then the holder's.
"""

from __future__ import annotations

from events.games.skirmish import model, rules
from tests.games.skirmish.helpers import WIDE_DOOR, act, activate, end, fig, open_rows, said, scenario, table


def wide(figures: list):
    return table(scenario(WIDE_DOOR, figures))


def hold_open(tab, figure_id: str = "r1"):
    """``figure_id`` activates, ends its actions in contact with door1 and opens it (SK-7)."""
    activate(tab, figure_id)
    assert end(tab, figure_id)[-1] == model.DoorDecisionsDue(figure_id, ("door1",))
    side = rules.figure(tab.state, figure_id).side
    act(tab, side, model.DecideDoor(figure_id, "door1", True))


# --- SK-C6, SK-6: a wide door is one door ------------------------------------------------------------


def test_sk_c6_contact_with_a_wide_door_reaches_both_ends_of_its_run():
    """SK-C6: door1 runs from (2, 1) to (2, 3); a square touching any point of it, ends included, is in
    contact: B1 to B4 and C1 to C4 (B1 and C1 touch only its top end (2, 1); B4 and C4 only its bottom
    end (2, 3)). A1 and D1 touch none of it."""
    tab = wide([fig("r1", "red", "B1"), fig("b1", "blue", "D4")])
    entry = rules.door(tab.state, "door1")
    assert rules.door_contact(tab.state, entry) == tuple(sorted((x, y) for x in (1, 2) for y in range(4)))


def test_sk_6_opening_the_wide_door_opens_both_of_its_edges():
    """SK-6, SK-7: r1 at B1 opens door1; both edges are open at once, so A3 → D3 (through B3|C3, the
    edge r1 never touched) is a plain 3-point walk."""
    tab = wide([fig("r1", "red", "B1"), fig("r2", "red", "A3"), fig("b1", "blue", "D1")])
    hold_open(tab)
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r2")
    moved = act(tab, "red", model.Move("r2", (3, 2)))
    assert moved[0].path == ((1, 2), (2, 2), (3, 2)) and moved[0].cost == 3


def test_sk_2_an_open_wide_door_still_leaves_the_walls_end_at_its_top():
    """SK-2, SK-6: door1 open, B1 → C2 cuts the point (2, 1): the open door no longer blocks it but the
    wall B1|C1 ends there, so the diagonal step is refused citing that wall. B2 → C3 cuts (2, 2), which
    only door1's two edges touch: open, the step is taken (2 points)."""
    tab = wide([fig("r1", "red", "B2"), fig("r2", "red", "B1", speed=1), fig("b1", "blue", "D4")])
    hold_open(tab, "r1")
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r2")
    rule, reason = said(act(tab, "red", model.Move("r2", (2, 1), ((2, 1),))))
    assert rule == "SK-2" and "(2, 1)" in reason and "the wall B1|C1" in reason


def test_sk_2_the_middle_point_of_a_closed_wide_door_blocks_a_diagonal_and_opens_with_it():
    """SK-2, SK-6: B2 → C3 cuts (2, 2), the point where door1's two edges meet: closed, refused naming
    door1 once with both edges it touches; r1 opens it, and next round the same step is taken."""
    tab = wide([fig("r1", "red", "B2"), fig("b1", "blue", "D4")])
    activate(tab, "r1")
    rule, reason = said(act(tab, "red", model.Move("r1", (2, 2), ((2, 2),))))
    assert rule == "SK-2" and "(2, 2)" in reason and "door1" in reason
    assert end(tab, "r1")[-1] == model.DoorDecisionsDue("r1", ("door1",))
    act(tab, "red", model.DecideDoor("r1", "door1", True))
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r1")
    assert act(tab, "red", model.Move("r1", (2, 2), ((2, 2),)))[0].cost == 2


# --- SK-10, SK-11, SK-C4: the opposed roll at its limits ---------------------------------------------


def four_at_the_door() -> object:
    """Red r1 (B1) holds door1 open, red r2 (B4) in contact; blue b1 (C4) contests, blue b2 (C1) in contact."""
    tab = wide([fig("r1", "red", "B1"), fig("r2", "red", "B4"), fig("b1", "blue", "C4"), fig("b2", "blue", "C1")])
    hold_open(tab)
    activate(tab, "b1")
    return tab


def test_sk_10_each_side_adds_2_per_other_figure_at_either_end_of_the_wide_door():
    """SK-10, SK-C6: b1 (Attack 4) + 2 for b2 at the door's top end; r1 (Attack 4) + 2 for r2 at its
    bottom end. Throws: (10, 10): 16 against 16, a tie, roll again; (20, 20): two criticals, a tie
    again (SK-C4); (3, 20): r1's critical beats any total, r1 keeps the door open and holds it."""
    tab = four_at_the_door()
    events = act(tab, "blue", model.ContestDoor("b1", "door1", False), dice=(10, 10, 20, 20, 3, 20))
    contest = events[-1]
    assert (contest.figure_bonus, contest.holder_bonus) == (2, 2)
    assert contest.throws == ((10, 16, 10, 16), (20, 26, 20, 26), (3, 9, 20, 26))
    assert contest.winner == "r1" and contest.open is True


def test_sk_10_a_critical_beats_a_higher_total():
    """SK-10: the holder r1 has Attack 12: b1 rolls 20 (26), r1 rolls 19 (19 + 12 + 2 = 33). The higher
    total loses to the critical: b1 wins, closes the door and holds it."""
    tab = wide([fig("r1", "red", "B1", attack=12), fig("r2", "red", "B4"), fig("b1", "blue", "C4"),
                fig("b2", "blue", "C1")])
    hold_open(tab)
    activate(tab, "b1")
    contest = act(tab, "blue", model.ContestDoor("b1", "door1", False), dice=(20, 19))[-1]
    assert contest.throws == ((20, 26, 19, 33),) and contest.winner == "b1" and contest.open is False
    assert rules.door(tab.state, "door1").holder == "b1"


def test_sk_11_an_ally_who_wants_the_door_shut_rolls_against_its_holder_with_4():
    """SK-11 (Reading): r1 holds door1 open; its ally r2 wants it closed: the same opposed roll, r2
    with +4. Both are red and in contact, so each also counts the other as a red figure at the door
    (+2 each), which changes no outcome: r2 is 4 ahead on equal dice. (9, 12): 9 + 4 + 6 = 19
    against 12 + 4 + 2 = 18: r2 wins by the +4, closes the door and holds it."""
    tab = wide([fig("r1", "red", "B1"), fig("r2", "red", "B4"), fig("b1", "blue", "D1")])
    hold_open(tab)
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r2")
    contest = act(tab, "red", model.ContestDoor("r2", "door1", False), dice=(9, 12))[-1]
    assert contest.rule == "SK-11" and contest.figure_bonus - contest.holder_bonus == 4
    assert contest.winner == "r2" and not rules.door(tab.state, "door1").open


def test_sk_c4_a_winner_that_walked_away_loses_the_door_without_a_roll():
    """SK-8 (Reading), SK-C4: b1 wins door1 by a contest (15 against 1), closes it and walks away to D4
    in the same activation; the door keeps its state until b1's next activation ends. Red r2, in
    contact, contests to open it: the holder b1 is not in contact, so there is no roll: r2 sets it
    open and holds it (no die drawn)."""
    tab = wide([fig("r1", "red", "B1"), fig("r2", "red", "B4"), fig("b1", "blue", "C4")])
    hold_open(tab)
    activate(tab, "b1")
    act(tab, "blue", model.ContestDoor("b1", "door1", False), dice=(15, 1))
    act(tab, "blue", model.Move("b1", (3, 3)))
    assert rules.door(tab.state, "door1").holder == "b1"
    end(tab, "b1")
    activate(tab, "r2")
    events = act(tab, "red", model.ContestDoor("r2", "door1", True), dice=())
    assert events[-1] == model.DoorTaken("door1", "r2", "b1", True)


def test_sk_9_the_holder_that_ends_its_next_activation_away_lets_the_door_close():
    """SK-9: r1 opened door1 in round 1; in round 2 it walks to A1, out of contact, and ends: the door
    closes and nobody holds it."""
    tab = wide([fig("r1", "red", "B1"), fig("b1", "blue", "D4")])
    hold_open(tab)
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r1")  # round 2: red first (blue's b1 ended round 1)
    act(tab, "red", model.Move("r1", (0, 0)))
    events = end(tab, "r1")
    assert model.DoorReleased("door1", "r1", True) in events
    assert rules.door(tab.state, "door1").open is False and rules.door(tab.state, "door1").holder is None


def test_sk_7_an_enemy_ending_its_turn_at_a_held_door_decides_nothing():
    """SK-7, SK-10: r1 holds door1 open; b1 ends its activation at C4, in contact. The door is held, so
    b1 is asked no decision (only a contest, SK-10, changes it): its activation simply ends."""
    tab = wide([fig("r1", "red", "B1"), fig("b1", "blue", "C4")])
    hold_open(tab)
    activate(tab, "b1")
    events = end(tab, "b1")
    assert not any(isinstance(event, model.DoorDecisionsDue) for event in events)
    assert rules.door(tab.state, "door1").open is True


# --- SK-C2: the movement budget at its edges ---------------------------------------------------------


def test_sk_c2_move_exactly_the_speed_then_attack_but_one_more_forbids_the_attack():
    """SK-C2: Speed 3. Moving 3 then attacking is a normal activation; a figure that moved 4 (more than
    its movement points) may not attack. Attack 4 against Defense 12: roll 8 makes 12, a hit."""
    rows = open_rows(8, 1)
    tab = table(scenario(rows, [fig("a", "red", "A1", speed=3), fig("b", "blue", "E1")]))
    activate(tab, "a")
    act(tab, "red", model.Move("a", (3, 0)))
    hit = act(tab, "red", model.Attack("a", "b"), dice=(8,))[0]
    assert hit.total == 12 and hit.hit
    tab = table(scenario(rows, [fig("a", "red", "A1", speed=3), fig("b", "blue", "F1")]))
    activate(tab, "a")
    act(tab, "red", model.Move("a", (4, 0)))
    rule, reason = said(act(tab, "red", model.Attack("a", "b")))
    assert rule == "SK-C2" and "moved 4 movement points, more than its 3" in reason


def test_sk_c2_attack_first_then_exactly_the_speed_and_not_a_point_more():
    """SK-C2: Speed 3, attack first (a miss: roll 1), then move 3: C1 → F1 is 3 points and accepted;
    one more square is refused (no points left)."""
    tab = table(scenario(open_rows(8, 1), [fig("a", "red", "C1", speed=3), fig("b", "blue", "A1")]))
    activate(tab, "a")
    act(tab, "red", model.Attack("a", "b"), dice=(1,))
    assert act(tab, "red", model.Move("a", (5, 0)))[0].cost == 3
    assert said(act(tab, "red", model.Move("a", (6, 0))))[0] == "SK-C2"


def test_sk_3_a_diagonal_into_low_objects_costs_double_the_diagonal():
    """SK-3, SK-C2: a diagonal costs 2 by default, and entering low objects doubles it: A1 → B2 (low
    objects) costs 4. With Speed 2 (4 points without an attack) it fits exactly; with Speed 1 (2 points)
    the plain diagonal would fit but the doubled one does not: refused citing SK-3."""
    rows = ["+-+-+-+", "|. . .|", "+ + + +", "|. = .|", "+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1", speed=2), fig("b", "blue", "C1")]))
    activate(tab, "a")
    moved = act(tab, "red", model.Move("a", (1, 1), ((1, 1),)))[0]
    assert moved.cost == 4 and moved.doubled == ((1, 1),)
    tab = table(scenario(rows, [fig("a", "red", "A1", speed=1), fig("b", "blue", "C1")]))
    activate(tab, "a")
    assert said(act(tab, "red", model.Move("a", (1, 1), ((1, 1),))))[0] == "SK-3"


# --- SK-5, SK-C3: pits, cover -----------------------------------------------------------------------


def test_sk_5_a_pit_between_blocks_the_walk_but_not_the_shot_and_gives_no_cover():
    """SK-5, SK-C3: A1, a pit at B1, the target at C1 in a one-row corridor. No step enters the pit and
    there is no way round, so Move to B1 is refused citing SK-5; the attack sees across it with no
    cover: Defense stays 12."""
    rows = ["+-+-+-+", "|. O .|", "+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "C1")]))
    activate(tab, "a")
    assert said(act(tab, "red", model.Move("a", (1, 0))))[0] == "SK-5"
    shot = act(tab, "red", model.Attack("a", "b"), dice=(7,))[0]
    assert shot.cover is False and shot.defense == 12 and not shot.hit


def test_sk_c3_low_objects_next_to_the_attacker_are_ignored_but_next_to_the_target_give_cover():
    """SK-C3: attacker A1, target D1 in a one-row corridor. Low objects at B1 (adjacent to the attacker)
    are ignored: no cover. At C1 (not adjacent to the attacker) every line passes them: cover, +4."""
    near = table(scenario(["+-+-+-+-+", "|. = . .|", "+-+-+-+-+"], [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    activate(near, "a")
    assert act(near, "red", model.Attack("a", "b"), dice=(1,))[0].cover is False
    far = table(scenario(["+-+-+-+-+", "|. . = .|", "+-+-+-+-+"], [fig("a", "red", "A1"), fig("b", "blue", "D1")]))
    activate(far, "a")
    shot = act(far, "red", model.Attack("a", "b"), dice=(1,))[0]
    assert shot.cover is True and shot.defense == 16


def test_sk_6_a_closed_door_blocks_the_shot_and_the_open_one_does_not():
    """SK-6, SK-C3: A2 and D2 face each other across door1's edge B2|C2 with the walls above and below
    the door; closed, every line crosses a wall or the door: no line of sight (SK-C3 cites it). Open,
    the line A2 → D2 passes through: the shot is rolled."""
    tab = wide([fig("r1", "red", "B3"), fig("r2", "red", "A2"), fig("b1", "blue", "D2")])
    activate(tab, "r2")
    assert said(act(tab, "red", model.Attack("r2", "b1")))[0] == "SK-C3"
    end(tab, "r2")
    activate(tab, "b1")
    end(tab, "b1")
    hold_open(tab, "r1")
    activate(tab, "b1")  # round 2
    end(tab, "b1")
    activate(tab, "r2")
    assert isinstance(act(tab, "red", model.Attack("r2", "b1"), dice=(1,))[0], model.AttackRolled)


def test_sk_c3_sk_6_sight_past_an_open_wide_door_passes_its_middle_point_but_never_grazes_its_walls_end():
    """SK-C3, SK-6, SK-1: r2 at A1 ([0, 1] x [0, 1]) shoots across x = 2, where the wall B1|C1 covers y 0..1,
    door1 y 1..3 (its two edges meet at (2, 2)) and the wall B4|C4 y 3..4. Closed, door1 is a wall: nothing on
    the far side is seen. Open: D4 is seen (the line (1, 1) → (3, 3) crosses x = 2 at y = 2, the point where the
    two open edges meet, which no wall touches); D2 too (the line (1, 1) → (3, 2) crosses at y = 1.5); but D1
    never: every line from A1 to D1 meets x = 2 at y ≤ 1, so at best it touches the end (2, 1) of the wall B1|C1,
    and a line that touches a wall is blocked (SK-C3). The shots go through decide, not a geometry helper."""
    from events.rng import LoadedRng

    tab = wide([fig("r1", "red", "B2"), fig("r2", "red", "A1"), fig("b1", "blue", "D4"), fig("b2", "blue", "D1"),
                fig("b3", "blue", "D2")])

    def shot(target: str):
        return tab.game.decide(tab.state, "red", model.Attack("r2", target), LoadedRng((1,)))

    activate(tab, "r2")
    for target in ("b1", "b2", "b3"):
        assert said(shot(target))[0] == "SK-C3", target
    end(tab, "r2")
    activate(tab, "b1")
    end(tab, "b1")
    hold_open(tab, "r1")
    for figure_id in ("b2", "b3"):
        activate(tab, figure_id)
        end(tab, figure_id)
    assert rules.door(tab.state, "door1").open
    activate(tab, "r2")  # round 2
    assert [type(e) for e in shot("b1")] == [model.AttackRolled]
    assert [type(e) for e in shot("b3")] == [model.AttackRolled]
    rule, reason = said(shot("b2"))
    assert rule == "SK-C3" and "the wall B1|C1" in reason


def test_sk_c5_a_move_into_a_pit_out_of_turn_cites_the_pit_first():
    """SK-C5, SK-5 (refusal order): on red's turn, blue asks its figure into a pit: the pit forbids it
    whoever's turn it is, so SK-5 is cited, not "not your turn"."""
    rows = ["+-+-+-+", "|. O .|", "+-+-+-+"]
    tab = table(scenario(rows, [fig("a", "red", "A1"), fig("b", "blue", "C1")]))
    assert said(act(tab, "blue", model.Move("b", (1, 0))))[0] == "SK-5"


# --- SK-1…SK-6, SK-C2 against an independent model ------------------------------------------------------


def _random_room(chooser, width: int, height: int) -> list:
    """An ASCII room (docs/skirmish-format.md) with random walls, doors and squares."""
    rows = ["+" + "-+" * width]
    for y in range(height):
        line = "|"
        for x in range(width):
            line += chooser.choice("....=~O")
            line += "|" if x == width - 1 else chooser.choice("      |D")
        rows.append(line)
        if y < height - 1:
            rows.append("+" + "".join(chooser.choice("      -D") + "+" for _ in range(width)))
    rows.append("+" + "-+" * width)
    return rows


def _model_costs(rows: list, width: int, height: int, start: tuple, allies: set, enemies: set, budget: int) -> dict:
    """The cheapest cost of every square a figure may end on, from the digest alone: a step to one of 8
    neighbours (SK-C2) costs 1, a diagonal 2, doubled into low objects or difficult terrain (SK-3, SK-4);
    no step crosses a wall or closed door (SK-1, SK-6; every door starts closed, SK-7); a diagonal step
    never cuts a corner point that a wall or closed door touches (SK-2); no step into a pit (SK-5) or an
    enemy (SK-C2); allies are passed, never stopped on."""
    def square(x, y):
        return rows[2 * y + 1][2 * x + 1]

    blocked_points = set()
    blocked_edges = set()
    for x in range(1, width):  # vertical edges between (x-1, y) and (x, y)
        for y in range(height):
            if rows[2 * y + 1][2 * x] != " ":
                blocked_edges.add(((x - 1, y), (x, y)))
                blocked_points.update({(x, y), (x, y + 1)})
    for y in range(1, height):  # horizontal edges between (x, y-1) and (x, y)
        for x in range(width):
            if rows[2 * y][2 * x + 1] != " ":
                blocked_edges.add(((x, y - 1), (x, y)))
                blocked_points.update({(x, y), (x + 1, y)})
    best = {start: 0}
    todo = [(0, start)]
    while todo:
        todo.sort()
        cost, (x, y) = todo.pop(0)
        if cost > best[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < width and 0 <= ny < height):
                    continue
                if square(nx, ny) == "O" or (nx, ny) in enemies:
                    continue
                if dx and dy:
                    if (max(x, nx), max(y, ny)) in blocked_points:
                        continue
                    step = 2
                else:
                    if tuple(sorted(((x, y), (nx, ny)))) in blocked_edges:
                        continue
                    step = 1
                if square(nx, ny) in "=~":
                    step *= 2
                total = cost + step
                if total <= budget and total < best.get((nx, ny), budget + 1):
                    best[(nx, ny)] = total
                    todo.append((total, (nx, ny)))
    return {sq: cost for sq, cost in best.items() if sq != start and sq not in allies}


def test_sk_c2_destinations_and_their_costs_match_a_model_written_from_the_digest():
    """SK-1…SK-6, SK-C2: 150 random 5 × 4 rooms (walls, closed doors, low objects, difficult terrain,
    pits, allies, enemies, Speed 1 to 4, so 2 to 8 points without an attack): the squares the engine
    lets the figure end on, and the cheapest cost of each, are exactly the model's."""
    import random

    chooser = random.Random(4)
    width, height = 5, 4
    for _ in range(150):
        rows = _random_room(chooser, width, height)
        free = [(x, y) for x in range(width) for y in range(height) if rows[2 * y + 1][2 * x + 1] != "O"]
        if len(free) < 4:
            continue
        placed = chooser.sample(free, chooser.randint(2, 4))
        start, enemy, others = placed[0], placed[1], placed[2:]
        ally_squares = set(others[: chooser.randint(0, len(others))])
        enemy_squares = {enemy} | (set(others) - ally_squares)
        speed = chooser.randint(1, 4)
        figures = [fig("m", "red", start, speed=speed)]
        figures += [fig(f"a{i}", "red", sq) for i, sq in enumerate(sorted(ally_squares))]
        figures += [fig(f"e{i}", "blue", sq) for i, sq in enumerate(sorted(enemy_squares))]
        for item in figures:
            item["at"] = list(item["at"])
        tab = table(scenario(rows, figures))
        activate(tab, "m")
        found = rules.destinations(tab.state, rules.figure(tab.state, "m"))
        expected = _model_costs(rows, width, height, start, ally_squares, enemy_squares, 2 * speed)
        assert {sq: cost for sq, (cost, _path) in found.items()} == expected, (rows, start, speed)


def test_sk_7_a_door_decided_by_the_last_figure_of_the_last_round_is_decided_before_the_game_ends():
    """SK-7, SK-C5: one round; b1 activates first, r1 last, in contact with door1. Its actions end and
    the door decision is asked first (SK-7: at the end of its turn, after all its actions); only once
    it is decided does the activation, the round and the game end, in that order."""
    tab = table(scenario(WIDE_DOOR, [fig("r1", "red", "B2"), fig("b1", "blue", "D4")], rounds=1, first="blue"))
    activate(tab, "b1")
    end(tab, "b1")
    activate(tab, "r1")
    assert [type(event).__name__ for event in end(tab, "r1")] == ["DoorDecisionsDue"]
    events = act(tab, "red", model.DecideDoor("r1", "door1", True))
    assert [type(event).__name__ for event in events] == ["DoorDecided", "ActivationEnded", "RoundEnded", "GameEnded"]
    assert rules.door(tab.state, "door1").open and tab.state.over

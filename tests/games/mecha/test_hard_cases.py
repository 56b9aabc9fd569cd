"""Expeditions' Move: hard cases (the rules audit): Range at its bounds, face-down Locations on the way,
occupied Locations, the Camp, the corruption bag at its limits, and refusal order, each worked out
from shared/rules/mecha.md by hand in its docstring before the engine ran.

Boards are hand-set (helpers): ``line(n)`` is Locations 1..n, face up unless listed ``down`` (face
down with a map token); ``chain(n)`` links 1-2, 2-3, …; the Camp touches 1, 2 and 3 unless told
otherwise. Mechas start in the Camp unless ``start`` puts them somewhere. Loaded draws name token values.
"""

from __future__ import annotations

from events.games.mecha import model
from events.games.mecha.rules import destinations
from events.log import Table
from tests.games.mecha.helpers import GAME, act, chain, line, loc, scenario
from tests.games.tables import rejected


def table(data: dict) -> Table:
    return Table.create(GAME, "g-test", data, 1)


# --- MV-3 with MV-6: Range and face-down Locations ---------------------------------------------------


def test_mv_3_a_face_down_location_exactly_3_away_is_entered_and_one_4_away_is_not():
    """MV-3, MV-6: red at 1 on the chain 1-…-6, 4 and 5 face down. 4 is 3 steps away (2, 3, 4): within
    the default Range 1–3, entered, and the move ends there. 5 is 4 steps away, and every way to it
    passes through the face-down 4 anyway: refused, citing Range first (MV-3: the shortest route is 4)."""
    tab = table(scenario(line(6, down=(4, 5)), chain(6), start={"red": 1, "blue": 6}))
    assert sorted(destinations(tab.state, 0)) == [2, 3, 4]
    rejected(act(tab, "red", model.Move(5)), "MV-3", "Location 5 is 4 steps from Location 1")
    events = act(tab, "red", model.Move(4))
    assert events[0] == model.MechMoved("red", 1, 4, (2, 3, 4), ())
    assert [type(event).__name__ for event in events[1:3]] == ["PlanTokenGained", "LocationRevealed"]


def test_mv_6_the_way_round_a_face_down_location_counts_its_own_length_against_range():
    """MV-6, MV-3: from 1, Location 3 is 2 steps through the face-down 2, or 3 steps by 1-4-5-3 (all face
    up). Range 1–3: the way round fits exactly and is the route taken (MV-C4: the shortest legal one).
    With the way round one longer (1-4-5-6-3), it is 4 steps: refused citing MV-6 (the only shorter
    way crosses a face-down Location)."""
    fits = table(scenario(line(5, down=(2,)), [(1, 2), (2, 3), (1, 4), (4, 5), (5, 3)], start={"red": 1, "blue": 4}))
    # blue stands on 4, which red passes through (MV-4)
    assert act(fits, "red", model.Move(3))[0] == model.MechMoved("red", 1, 3, (4, 5, 3), (4,))
    longer = table(scenario(line(6, down=(2,)), [(1, 2), (2, 3), (1, 4), (4, 5), (5, 6), (6, 3)],
                            start={"red": 1, "blue": 5}))
    rejected(act(longer, "red", model.Move(3)), "MV-6", "Location 1 → 2 → 3, through 2")


def test_mv_3_a_minimum_range_skips_the_neighbour_but_reaches_past_an_occupied_one():
    """MV-3, MV-4: red has Range 2–3 at 1 on the chain 1-…-5, blue on 2. Location 2 is 1 step away
    (below the minimum, and occupied); 3 is 2 steps through blue's Location: a destination; 4 is 3
    steps: a destination; 5 is 4: out of Range."""
    tab = table(scenario(line(5), chain(5), ranges={"red": (2, 3)}, start={"red": 1, "blue": 2}))
    assert sorted(destinations(tab.state, 0)) == [3, 4]
    assert act(tab, "red", model.Move(3))[0] == model.MechMoved("red", 1, 3, (2, 3), (2,))


# --- MV-1, MV-5: occupied Locations, no destination -------------------------------------------------


def test_mv_5_every_location_in_range_occupied_means_the_move_passes():
    """MV-1, MV-5: three Mechas on the chain 1-2-3, red at 1: 2 and 3 are the only Locations within
    Range and both hold a Mecha, so red has no valid destination: Move(2) is refused (MV-1, occupied),
    and the Move action with no destination is accepted as staying put (MV-5)."""
    tab = table(scenario(line(3), chain(3), seats=("red", "blue", "green"), start={"red": 1, "blue": 2, "green": 3}))
    assert destinations(tab.state, 0) == {}
    rejected(act(tab, "red", model.Move(2)), "MV-1", "Location 2 is occupied by blue's Mecha")
    assert act(tab, "red", model.Move(None))[0] == model.MechStayed("red", 1)


def test_mv_2_a_mecha_in_the_camp_passes_through_the_occupied_camp_locations():
    """MV-2, MV-4: the Camp touches 1, 2 and 3, all three occupied; 4 is linked to 1 only. From the
    Camp, 4 is 2 steps (Camp → 1 → 4) through blue's Location: a valid destination, and the only one."""
    tab = table(scenario(line(4), [(1, 4), (1, 2), (2, 3)], seats=("red", "blue", "green", "white"),
                         start={"blue": 1, "green": 2, "white": 3}))
    assert destinations(tab.state, 0) == {4: (1, 4)}
    assert act(tab, "red", model.Move(4))[0] == model.MechMoved("red", None, 4, (1, 4), (1,))


def test_mv_6_a_face_down_camp_location_ends_the_first_move_at_once():
    """MV-2, MV-6: the Camp touches 1, 2 and 3; 1 is face down and the only link to 4. From the Camp,
    4 cannot be reached (entering 1 ends the move): refused citing MV-6; 1 itself is a destination."""
    tab = table(scenario(line(4, down=(1,)), [(1, 4), (1, 2), (2, 3)]))
    assert 4 not in destinations(tab.state, 0) and 1 in destinations(tab.state, 0)
    rejected(act(tab, "red", model.Move(4)), "MV-6", "face-down")


# --- MV-6c, MV-7, MV-8: the corruption bag at its limits ------------------------------------------------


def test_mv_6c_two_tokens_that_make_the_level_exactly_stop_the_drawing():
    """MV-6c: level 3: a 1 (sum 1 < 3), then a 2 (sum 3, "at least" the level): drawing stops after
    the second token, whatever the bag still holds."""
    tab = table(scenario(line(4, down=(2,), levels={2: 3}), chain(4)))
    events = act(tab, "red", model.Move(2), dice=(1, 2))
    drawn = [event for event in events if isinstance(event, model.CorruptionDrawn)]
    assert drawn == [model.CorruptionDrawn(2, 1, "orange", 1, 3), model.CorruptionDrawn(2, 2, "orange", 3, 3)]


def test_mv_7_location_20_gets_its_token_even_when_the_bag_is_empty():
    """MV-7, MV-8: the bag holds only the value-20 token (set aside for Location 20, MV-C2), so it is
    empty for drawing. Revealing Location 20 (level 4) places the 20 token: no draw, and MV-8's empty
    bag never comes into it. Revealing another face-down Location (2, level 4) draws nothing and the
    bag runs out at once (sum 0)."""
    bag = {"tokens": [{"value": 20, "colour": "orange", "count": 1}]}
    locations = [loc(1), loc(2, 4, up=False), loc(3), loc(20, 4, up=False)]
    tab = table(scenario(locations, [(1, 2), (2, 3), (3, 20)], bag=bag))
    events = act(tab, "red", model.Move(20))
    assert model.CorruptionPlaced(20, 20, "orange") in events
    assert not any(isinstance(event, (model.CorruptionDrawn, model.BagRanOut)) for event in events)
    events = act(tab, "blue", model.Move(2))
    assert model.BagRanOut(2, 0, 4) in events


# --- MV-C3 refusal order ---------------------------------------------------------------------------------


def test_mv_c3_out_of_turn_a_card_space_or_the_camp_is_refused_under_its_own_clause():
    """MV-C3, MV-4, MV-2: on red's turn, blue names the card space "A" (MV-4: not a Location) or the
    Camp (MV-2): those are refused whoever's turn it is; a legal Location gets MV-C3."""
    tab = table(scenario(line(4), chain(4), cards=(("A", (9, 9)),), start={"red": 1, "blue": 2}))
    rejected(act(tab, "blue", model.Move("A")), "MV-4", "card space A")
    rejected(act(tab, "blue", model.Move("camp")), "MV-2", "Camp")
    rejected(act(tab, "blue", model.Move(3)), "MV-C3", "red's turn")


def test_mv_c3_out_of_turn_a_location_beyond_range_is_refused_under_mv_3():
    """MV-3 before MV-C3 (issue 15's order): blue at 1 on the chain 1-…-6 names 5, 4 steps away, on
    red's turn. Nothing red does can bring it nearer (blue's Mecha and the board stay as they are), so
    the Range refuses it whoever's turn it is: MV-3, not "not your turn"."""
    tab = table(scenario(line(6), chain(6), start={"red": 6, "blue": 1}))
    rejected(act(tab, "blue", model.Move(5)), "MV-3", "Location 5 is 4 steps from Location 1")
    rejected(act(tab, "blue", model.Move(4)), "MV-C3", "it is red's turn, not blue's")


def test_mv_c3_out_of_turn_what_the_other_seat_may_change_waits_for_the_turn():
    """MV-C3 after what may change: on red's turn blue (at 1) names 3, where red's Mecha stands (MV-1
    now, but red may leave it first): MV-C3. On another board the only way from 1 to 3 passes the
    face-down 2 (MV-6 now, but red may reveal 2 first): MV-C3 too."""
    tab = table(scenario(line(5), chain(5), start={"red": 3, "blue": 1}))
    rejected(act(tab, "blue", model.Move(3)), "MV-C3", "red's turn")
    hidden = table(scenario(line(5, down=(2,)), chain(5), start={"red": 5, "blue": 1}))
    rejected(act(hidden, "blue", model.Move(3)), "MV-C3", "red's turn")


def _shortest_legal(links: list, camp: tuple, start, face_down: set, limit: int) -> dict:
    """Every Location -> the fewest steps of a route from ``start`` (None: the Camp, whose first steps are
    ``camp``) that never leaves a face-down Location (MV-6), never enters the Camp (MV-2), at most
    ``limit`` steps: every walk enumerated, no search shortcut."""
    near: dict = {}
    for a, b in links:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    best: dict = {}

    def walk(here, steps: int, seen: tuple) -> None:
        if steps == limit:
            return
        options = camp if here is None else sorted(near.get(here, ()))
        for step in options:
            if step in seen:
                continue
            if step not in best or best[step] > steps + 1:
                best[step] = steps + 1
            if step not in face_down:
                walk(step, steps + 1, seen + (step,))

    walk(start, 0, (start,))
    best.pop(start, None)
    return best


def test_mv_3_destinations_match_a_brute_search_of_every_route_on_random_boards():
    """MV-3 (with MV-1, MV-2, MV-4, MV-6) against a brute search: on 80 random boards of 8 Locations (random links, some face down,
    other Mechas on some), with Ranges 1–3, 2–3 and 1–4, a Location is a destination exactly when it is
    empty, not where the Mecha stands, and its shortest legal route (every walk enumerated) is within
    Range; the route the engine records has that length."""
    import random

    chooser = random.Random(6)
    for _ in range(80):
        numbers = list(range(1, 9))
        links = sorted({tuple(sorted(chooser.sample(numbers, 2))) for _ in range(chooser.randint(7, 14))})
        low, high = chooser.choice(((1, 3), (2, 3), (1, 4)))
        others = chooser.sample(numbers, 2)
        start = chooser.choice([None] + [n for n in numbers if n not in others])
        # Mechas stand on face-up Locations only (MV-6): the face-down ones are among the rest
        down = set(chooser.sample([n for n in numbers if n not in others and n != start], chooser.randint(0, 3)))
        locations = [loc(n, up=n not in down) for n in numbers]
        tab = table(scenario(locations, links, seats=("red", "blue", "green"), ranges={"red": (low, high)},
                             start={"blue": others[0], "green": others[1], **({} if start is None else {"red": start})}))
        legal = _shortest_legal(links, (1, 2, 3), start, down, high)
        expected = {n: d for n, d in legal.items() if low <= d <= high and n not in others}
        found = destinations(tab.state, 0)
        assert {n: len(path) for n, path in found.items()} == expected, (links, down, start, others, low, high)

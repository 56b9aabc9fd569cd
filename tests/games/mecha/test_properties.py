"""Properties of whole random games (hypothesis): legal moves, replay, purity, the wire format.

Each example plays a built-in scenario with commands picked from ``legal()`` by the drawn
choices, so a failure shrinks to the shortest game that shows it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from events.log import command_groups, fold
from tests.games import properties
from tests.games.mecha.helpers import GAME, builtin
from tests.games.properties import (
    assert_accepted_exactly_when_legal,
    assert_decide_is_pure,
    assert_envelopes_survive_json,
    assert_replay_equals_live,
    evolved,
    next_rng,
    seeds,
)

SCENARIOS = {name: builtin(name) for name in ("sample", "three-mechs", "scarce-bag")}
FAST = settings(max_examples=25, deadline=None)

names = properties.names(SCENARIOS)
choices = properties.choices(60)


def play(name: str, seed: int, picks: list):
    return properties.play(GAME, SCENARIOS[name], seed, picks)


@FAST
@given(names, seeds, choices)
def test_mv_c3_a_command_from_legal_is_never_rejected(name, seed, picks):
    """MV-C3: legal() lists only commands decide accepts (checked inside ``play``)."""
    tab = play(name, seed, picks)
    assert tab.seq >= 1


@FAST
@given(names, seeds, choices, st.lists(st.one_of(st.none(), st.integers(-1, 22)), min_size=1, max_size=8))
def test_mv_1_legal_is_complete(name, seed, picks, targets):
    """MV-1…MV-6: a Move is accepted exactly when legal() lists it; any refusal cites a catalogue clause."""
    from events.games.mecha.model import Move

    tab = play(name, seed, picks)
    assert_accepted_exactly_when_legal(GAME, tab, [Move(to) for to in targets])


@FAST
@given(names, seeds, choices)
def test_replaying_the_log_gives_the_live_state_and_hashes(name, seed, picks):
    """Replay is a fold: restore, fold and audit agree with the live table at every seq."""
    assert_replay_equals_live(GAME, play(name, seed, picks))


@FAST
@given(names, seeds, choices)
def test_evolve_and_decide_never_mutate_their_input(name, seed, picks):
    """STYLE habit 2: hashing a state before and after evolve or decide finds it unchanged."""
    tab = play(name, seed, picks)
    for envelope, state in evolved(GAME, tab.envelopes):
        if not GAME.is_over(state) and envelope.event.TYPE in ("GameStarted", "TurnEnded"):
            assert_decide_is_pure(GAME, state, lambda: next_rng(tab))


@FAST
@given(names, seeds, choices)
def test_envelopes_survive_json_unchanged(name, seed, picks):
    """The wire: every envelope written to JSON and read back is identical."""
    assert_envelopes_survive_json(GAME, play(name, seed, picks).envelopes)


@FAST
@given(names, seeds, choices)
def test_board_invariants_hold_along_any_game(name, seed, picks):
    """MV-1, MV-2, MV-6, MV-7, MV-C2 as invariants after every event of a random game."""
    tab = play(name, seed, picks)
    state = None
    left_camp: set = set()
    for group in command_groups(tab.envelopes):
        state = fold(GAME, [envelope.event for envelope in group], state)
        placed = [position for position in state.positions if position is not None]
        assert len(placed) == len(set(placed))  # MV-1: one Mecha per Location
        for index, position in enumerate(state.positions):
            if position is not None:
                left_camp.add(index)
            assert position is not None or index not in left_camp  # MV-2: never back to the Camp
        assert set(placed) <= set(state.face_up)  # MV-6: after a command nobody stands face down
        tokens = sum(count for _value, _colour, count in state.bag)
        tokens += sum(len(stack) for _place, stack in state.stacks)
        tokens += state.token_20 is not None
        assert tokens == _initial_tokens(name)  # MV-C2: tokens move, never appear or vanish
        assert all(value != 20 for value, _colour, _count in state.bag)  # MV-7
    # MV-6c / MV-8: a revealed Location's stack reaches its level unless the bag ran out.
    levels = {location.number: location.level for location in state.board.locations}
    ran_out = {envelope.event.location for envelope in tab.envelopes if envelope.type == "BagRanOut"}
    for place, stack in state.stacks:
        assert sum(value for value, _colour in stack) >= levels[place] or place in ran_out


def _initial_tokens(name: str) -> int:
    return sum(token["count"] for token in SCENARIOS[name]["bag"]["tokens"])


@FAST
@given(names, seeds, choices)
def test_mv_3_remembered_reach_is_the_fresh_search(name, seed, picks):
    """MV-2, MV-3, MV-6: the reach a board remembers (``board.reach``) is, at every state of a random
    game and for every Mecha, what a fresh breadth-first search finds; the memory stays bounded."""
    from events.games.mecha import board as boards
    from events.games.mecha.rules import destinations
    from events.geometry.graph import graph_within

    tab = play(name, seed, picks)
    state = None
    for envelope in tab.envelopes:
        state = GAME.evolve(state, envelope.event)
        for index, seat in enumerate(state.seats):
            here, shown = state.positions[index], set(state.face_up)
            fresh = graph_within(boards.neighbours(state.board), here, seat.range_max,
                                 may_continue=lambda place, shown=shown: place in shown,
                                 first_steps=state.board.camp_adjacent if here is None else None)
            assert boards.reach(state.board, here, seat.range_max, state.face_up) == fresh
            assert boards.reach(state.board, here, seat.range_max, state.face_up) is boards.reach(
                state.board, here, seat.range_max, state.face_up)  # remembered, not searched again
            occupied = {place for place in state.positions if place is not None}
            assert destinations(state, index) == {place: path for place, path in fresh.items()
                                                  if place not in occupied and place != here
                                                  and len(path) >= seat.range_min}
    assert len(boards.worked_out(tab.state.board, boards._worked)[1]) <= boards.REACH_REMEMBERED


def test_mv_3_a_board_remembers_at_most_its_bound_of_reaches():
    """MV-3: past ``REACH_REMEMBERED`` distinct (start, range, face-up) asked, a board starts afresh."""
    from events.games.mecha import board as boards

    tab = play("sample", 1, [])
    board, ups = tab.state.board, tab.state.face_up
    for steps in range(1, boards.REACH_REMEMBERED + 20):
        boards.reach(board, None, steps, ups)
        assert len(boards.worked_out(board, boards._worked)[1]) <= boards.REACH_REMEMBERED
    assert boards.reach(board, None, 3, ups) == boards.reach(board, None, 3, ups)

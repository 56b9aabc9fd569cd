"""Properties of whole random games (hypothesis): legal moves, replay, purity, the wire format.

Each example plays a built-in scenario with commands picked from ``legal()`` by the drawn
choices, so a failure shrinks to the shortest game that shows it.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from events.canonical import state_hash
from events.log import Accepted, Envelope, Table, audit, command_groups, fold
from events.rules import Rejection
from tests.games.mecha.helpers import GAME, builtin

SCENARIOS = {name: builtin(name) for name in ("sample", "three-mechs", "scarce-bag")}
FAST = settings(max_examples=25, deadline=None)

names = st.sampled_from(sorted(SCENARIOS))
seeds = st.integers(min_value=0, max_value=2**64 - 1)
choices = st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=60)


def play(name: str, seed: int, picks: list) -> Table:
    """A game where each pick chooses among the legal commands; every one must be accepted."""
    tab = Table.create(GAME, "g-prop", SCENARIOS[name], seed)
    for n, pick in enumerate(picks):
        if GAME.is_over(tab.state):
            break
        seat = GAME.turn(tab.state)[0]
        options = GAME.legal(tab.state, seat)
        command = options[pick % len(options)]
        result = tab.submit(seat, command, f"c-{n}")
        assert isinstance(result, Accepted), (command, result)
    return tab


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
    if GAME.is_over(tab.state):
        return
    seat = GAME.turn(tab.state)[0]
    options = GAME.legal(tab.state, seat)
    for to in targets:
        result = GAME.decide(tab.state, seat, Move(to), _rng(tab))
        if Move(to) in options:
            assert isinstance(result, list), result
        else:
            assert isinstance(result, Rejection) and result.rule in GAME.catalogue and result.reason


def _rng(tab: Table):
    from events.rng import Rng

    return Rng.for_command(tab.seed, tab.seq + 1)


@FAST
@given(names, seeds, choices)
def test_replaying_the_log_gives_the_live_state_and_hashes(name, seed, picks):
    """Replay is a fold: restore, fold and audit agree with the live table at every seq."""
    tab = play(name, seed, picks)
    restored = Table.restore(GAME, "g-prop", list(tab.envelopes))
    assert restored.state == tab.state
    assert state_hash(restored.state) == tab.envelopes[-1].hash
    assert fold(GAME, [envelope.event for envelope in tab.envelopes]) == tab.state
    assert audit(GAME, tab.envelopes) is None


@FAST
@given(names, seeds, choices)
def test_evolve_and_decide_never_mutate_their_input(name, seed, picks):
    """STYLE habit 2: hashing a state before and after evolve or decide finds it unchanged."""
    tab = play(name, seed, picks)
    state = None
    for envelope in tab.envelopes:
        before = state_hash(state)
        after = GAME.evolve(state, envelope.event)
        assert state_hash(state) == before
        state = after
        if not GAME.is_over(state) and envelope.event.TYPE in ("GameStarted", "TurnEnded"):
            seat = GAME.turn(state)[0]
            snapshot = state_hash(state)
            for command in GAME.legal(state, seat):
                GAME.decide(state, seat, command, _rng(tab))
            assert state_hash(state) == snapshot


@FAST
@given(names, seeds, choices)
def test_envelopes_survive_json_unchanged(name, seed, picks):
    """The wire: every envelope written to JSON and read back is identical."""
    tab = play(name, seed, picks)
    for envelope in tab.envelopes:
        text = json.dumps(envelope.to_dict())
        back = Envelope.from_dict(GAME, json.loads(text))
        assert back.to_dict() == envelope.to_dict()
        assert back.event == envelope.event and back.command == envelope.command
        assert json.dumps(back.to_dict()) == text


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

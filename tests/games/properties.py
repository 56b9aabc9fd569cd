"""Properties of whole random games, shared by the games' ``test_properties.py``.

A game is played from one of its scenarios with commands picked from ``legal()`` by drawn choices
(``play``), so a failure shrinks to the shortest game that shows it; the checks below take the game
and the played table and assert what holds for every rule system: a listed command is accepted
and an unlisted one refused with a clause, replay is a fold, evolve and decide never mutate their
input, envelopes survive JSON. Each game keeps its own test functions (named for its clauses) and
its own hypothesis settings; they call these.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from events.canonical import state_hash
from events.log import Accepted, Envelope, Table, audit, fold
from events.rng import Rng
from events.rules import Rejection

seeds = st.integers(min_value=0, max_value=2**64 - 1)


def names(scenarios: dict):
    """One of the scenario names, in a fixed order (so shrinking is stable)."""
    return st.sampled_from(sorted(scenarios))


def choices(max_size: int):
    """The picks that choose among the legal commands, one a command."""
    return st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=max_size)


def play(game, data: dict, seed: int, picks: list) -> Table:
    """A game where each pick chooses among the legal commands; there is always one before the end, and
    every one must be accepted."""
    tab = Table.create(game, "g-prop", data, seed)
    for n, pick in enumerate(picks):
        if game.is_over(tab.state):
            break
        seat = game.turn(tab.state)[0]
        options = game.legal(tab.state, seat)
        assert options, (seat, tab.state)
        command = options[pick % len(options)]
        result = tab.submit(seat, command, f"c-{n}")
        assert isinstance(result, Accepted), (command, result)
    return tab


def next_rng(tab: Table) -> Rng:
    """The generator the table would give its next command."""
    return tab.rng()


def assert_accepted_exactly_when_legal(game, tab: Table, commands) -> None:
    """Each command from the seat on turn is accepted when ``legal()`` lists it, else refused citing a
    catalogue clause with a reason."""
    if game.is_over(tab.state):
        return
    seat = game.turn(tab.state)[0]
    options = game.legal(tab.state, seat)
    for command in commands:
        result = game.decide(tab.state, seat, command, next_rng(tab))
        if command in options:
            assert isinstance(result, list), result
        else:
            assert isinstance(result, Rejection) and result.rule in game.catalogue and result.reason


def assert_replay_equals_live(game, tab: Table) -> None:
    """Replay is a fold: restore, fold and audit agree with the live table and its last hash."""
    restored = Table.restore(game, "g-prop", list(tab.envelopes))
    assert restored.state == tab.state
    assert state_hash(restored.state) == tab.envelopes[-1].hash
    assert fold(game, [envelope.event for envelope in tab.envelopes]) == tab.state
    assert audit(game, tab.envelopes) is None


def assert_envelopes_survive_json(game, envelopes) -> None:
    """The wire: every envelope written to JSON and read back is identical."""
    for envelope in envelopes:
        text = json.dumps(envelope.to_dict())
        back = Envelope.from_dict(game, json.loads(text))
        assert back.to_dict() == envelope.to_dict()
        assert back.event == envelope.event and back.command == envelope.command
        assert json.dumps(back.to_dict()) == text


def evolved(game, envelopes):
    """(envelope, state after it) along the log, checking that evolve leaves the state before unchanged
    (STYLE habit 2)."""
    state = None
    for envelope in envelopes:
        before = state_hash(state)
        after = game.evolve(state, envelope.event)
        assert state_hash(state) == before
        state = after
        yield envelope, state


def assert_decide_is_pure(game, state, new_rng) -> None:
    """Deciding every legal command of the first seat on turn leaves the state unchanged (STYLE habit 2);
    ``new_rng()`` gives each decision its generator."""
    seat = game.turn(state)[0]
    snapshot = state_hash(state)
    for command in game.legal(state, seat):
        game.decide(state, seat, command, new_rng())
    assert state_hash(state) == snapshot

"""server/snapshots.py: a state survives its snapshot in every game, and a bad snapshot is never used.

Issue 12, finding 5. The reliability test (tests/reliability/test_reads.py) counts the folds of a
real server; here each game's states go through ``encode_state``/``decode_state`` and must come
back equal, with the same hash, so a snapshot never silently falls back to the log.
"""

from __future__ import annotations

import random

import pytest

import events.games
from events.canonical import state_hash
from events.log import Accepted, Table
from server import scenarios, snapshots

STEPS = 40


def _states(name: str, seed: int):
    """Every state of a random game of the built-in scenario ``name``."""
    game_name, data = scenarios.load(name)
    game = events.games.load(game_name)
    table = Table.create(game, "g-snapshots", data, seed)
    chooser = random.Random(seed)
    yield game, table.state
    for number in range(STEPS):
        if game.is_over(table.state):
            break
        seat = game.turn(table.state)[0]
        options = game.legal(table.state, seat)
        result = table.submit(seat, chooser.choice(options), f"c-{number}")
        assert isinstance(result, Accepted), result
        yield game, table.state


@pytest.mark.parametrize("name", scenarios.builtin_scenarios())
def test_every_state_comes_back_from_its_snapshot(name):
    checked = 0
    for game, state in _states(name, 3):
        if snapshots.holds_hidden(state):  # never snapshotted (GH-C2's sealed picks)
            assert name.startswith("gloomhaven/"), name
            continue
        text = snapshots.encode_state(state)
        back = snapshots.decode_state(game, text, state_hash(state))
        assert back == state and state_hash(back) == state_hash(state), name
        checked += 1
    assert checked > 1


def test_a_snapshot_that_does_not_match_the_logged_hash_is_refused():
    game, state = list(_states("mecha/sample", 4))[-1]
    text = snapshots.encode_state(state)
    logged = state_hash(state)
    assert snapshots.decode_state(game, text, "0" * 64) is None  # another seq's hash
    assert snapshots.decode_state(game, text.replace('"round":', '"round":1', 1), logged) is None  # tampered
    assert snapshots.decode_state(game, "{not json", logged) is None
    assert snapshots.decode_state(game, '{"type":"Nothing"}', logged) is None


def test_gh_c2_a_state_holding_sealed_picks_is_never_snapshotted():
    """GH-C2: a sealed pick's content is outside the state hash, so it could not be checked: the snapshot
    waits for the reveal, and folding keeps the first state after the multiple that holds nothing hidden."""
    states = list(_states("gloomhaven/barrow", 5))
    sealed = [state for _, state in states if snapshots.holds_hidden(state)]
    clean = [state for _, state in states if not snapshots.holds_hidden(state)]
    assert sealed and clean
    game = states[0][0]
    # A sealed state does not even decode from its text: the content is not in it.
    assert snapshots.decode_state(game, snapshots.encode_state(sealed[0]), state_hash(sealed[0])) is None


def test_gh_c4_a_gloomhaven_1_pending_choice_comes_back_from_its_snapshot():
    """GH-C4: a gloomhaven-1 state waiting on the players' choice holds gloomhaven-1's Option (no
    ``toward``); its snapshot decodes to that record, so it hashes as logged (issue 19)."""
    from server import logfile
    from tests.corpus.test_old_versions import CORPUS

    path = CORPUS / "gloomhaven" / "gloomhaven-1" / "barrow-random-1.jsonl"
    game, envelopes = logfile.read(path)
    state = None
    for envelope in envelopes:
        state = game.evolve(state, envelope.event)
        if state.pending is not None and state.pending.kind == "monster" and not snapshots.holds_hidden(state):
            break
    else:
        raise AssertionError(f"{path.name}: no monster choice left to the players")
    assert "toward" not in type(state.pending.options[0]).__slots__
    back = snapshots.decode_state(game, snapshots.encode_state(state), state_hash(state))
    assert back == state and state_hash(back) == state_hash(state)

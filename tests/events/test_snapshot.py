"""events/snapshot.py in CPython: every game's state read back from its snapshot form, a forged one refused."""

from __future__ import annotations

import json

import pytest

import events.games
from events.canonical import record_json, state_hash
from events.log import ELIDED, LogError, Table
from events.snapshot import SnapshotError, _model, decode_snapshot
from events.wire import frame_data
from server.scenarios import load as load_scenario

SCENARIOS = {"mecha": "mecha/sample", "arkham": "arkham/crossing", "echo": "echo/first-case", "skirmish": "skirmish/courtyard",
             "gloomhaven": "gloomhaven/barrow"}


def _frame(table: Table) -> dict:
    state = table.state
    return {"type": "snapshot", "seq": 2, "hash": state_hash(state), "start": frame_data(table.game, table.envelopes[:1]),
            "state": json.loads(record_json(state))}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_core_snapshot_every_game_state_decodes_to_its_hash(name):
    game_name, scenario = load_scenario(SCENARIOS[name])
    game = events.games.load(game_name)
    table = Table.create(game, "g-snapshot0", scenario, 7)
    started, seq, state, logged = decode_snapshot(game, "g-snapshot0", _frame(table))
    assert (seq, logged) == (2, state_hash(table.state)) and state == table.state
    resumed = Table.from_snapshot(game, "g-snapshot0", started, seq, state)
    assert resumed.seq == 2 and resumed.envelopes[1] is ELIDED and resumed.state is state
    assert resumed.commitment == table.commitment


def test_core_snapshot_refusals_name_the_fault():
    game_name, scenario = load_scenario("mecha/sample")
    game = events.games.load(game_name)
    table = Table.create(game, "g-snapshot0", scenario, 7)
    frame = _frame(table)
    with pytest.raises(SnapshotError, match="the snapshot at seq 2 does not match its logged hash: server 000000000000…"):
        decode_snapshot(game, "g-snapshot0", dict(frame, hash="0" * 64))
    for bad, message in (([], r"\$: expected a snapshot frame object, got list"),
                         ({"type": "snapshot"}, r"\$: snapshot frame is missing 'seq'"),
                         (dict(frame, seq=1), r"\$\.seq: expected an integer of at least 2, got 1"),
                         (dict(frame, seq=True), r"\$\.seq: expected an integer of at least 2, got True"),
                         (dict(frame, hash="ab"), r"\$\.hash: expected 64 hex digits, got 'ab'")):
        with pytest.raises(ValueError, match=message):
            decode_snapshot(game, "g-snapshot0", bad)
    two = frame_data(table.game, table.envelopes[:1] * 2)
    with pytest.raises(ValueError, match=r"\$\.start: expected the log's first frame, GameStarted alone at seq 1"):
        decode_snapshot(game, "g-snapshot0", dict(frame, start=two))
    with pytest.raises(LogError, match="needs GameStarted at seq 1"):
        Table.from_snapshot(game, "g-snapshot0", table.envelopes[0], 1, table.state)
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        _model("chess")
